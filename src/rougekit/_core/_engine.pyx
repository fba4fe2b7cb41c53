# cython: language_level=3
# cython: freethreading_compatible=True
"""The compiled path of ``RougeScorer`` with the default tokenizer.

An ``Engine`` scores a (target, prediction) pair of ``str`` without creating
a Python object per token: the compiled tokenizer writes each token as its
number in the pair (the target's 0, 1, ... in order of first appearance,
kept in the token's vocabulary slot: ``DenseIds``; every prediction token
the target lacks as one more number, since none of them can match), and
the kernels of ``_overlap`` and ``_lcs``, whose tables those numbers index,
count hits. Precision, recall and F are computed in C by ``_prf.pxd``, with
rouge-score's expressions in its order of operations, so the floats are
rouge-score's to the last bit (``_prf_py`` is the Python definition and the
specification).
``_engine_py`` is the pure-Python twin.

``score_arrow_into`` reads its pairs from two Arrow string arrays (their
offsets and UTF-8 data buffers, the offsets checked first): a text whose
bytes are all ASCII is scored where it lies, as a 1-byte text (what a str of
those characters holds), any other is decoded to a str and scored as one, so
the numbers, fallbacks and letter checks are the str path's.

An engine holds mutable state (its vocabulary and stem cache) and is used by
one thread at a time, which an atomic "in use" flag enforces whether or not
the GIL is enabled: ``score`` on an engine that another thread is using calls
``overflow`` instead (``RougeScorer`` passes a function that scores with an
engine from its pool), and ``score_range`` raises ``RuntimeError``.
``score_batch`` gives each worker thread an engine of its own. So the module
is safe on free-threaded CPython, and declares it.

"No silent zeros": the tokenizer counts the characters of a text that land in
its tokens (``tokbuf_kept``). A text that is not ASCII and keeps fewer than
half of its characters may have lost most of its letters: ``score`` gives it
to ``letters_check`` (``rougekit._letters.LetterCheck``: it counts exactly
and warns once), until that returns False; ``score_range`` appends its
position to ``suspicious`` for the caller to check in order. Other texts cost
one compare.
"""
cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX
from libc.stdint cimport UINT32_MAX, int32_t, int64_t, uint8_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.unicode cimport PyUnicode_DecodeUTF8

from rougekit._core._kinds cimport ROUGE_L, ROUGE_LSUM
from rougekit._core._mem cimport MAX_IDS, grow_array, grow_to
from rougekit._core._lcs cimport (LcsScratch, lcs_length_scratch, lcs_scratch_free,
                                   summary_hits_scratch)
from rougekit._core._prf cimport lcs_prf, ngram_prf
from rougekit._core._overlap cimport (OverlapScratch, clipped_overlap_numbered,
                                       overlap_scratch_free)
from rougekit._core._tokenizer cimport (DenseIds, TokenBuf, dense_ids_next, str_buffer,
                                        tokbuf_free, tokbuf_init, tokbuf_kept, tokenize_text)
from rougekit._core._vocab cimport Vocab, vocab_free, vocab_init

cdef extern from "compat.h" nogil:
    int rk_flag_try_acquire(long* f)
    void rk_prefetch_bytes(const void* p, Py_ssize_t n)
    void rk_flag_release(long* f)
    void rk_flag_set(long* f)
    int rk_flag_get(long* f)

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object o)
    ctypedef struct PyTypeObject
    object PyType_GenericAlloc(PyTypeObject* t, Py_ssize_t nitems)
    int PyObject_IS_GC(object o)
    int PyObject_GC_IsTracked(object o)
    void PyObject_GC_Track(void* o)
    void PyObject_GC_UnTrack(void* o)

cdef extern from *:
    """
    /* A result dict may be left untracked by the cyclic GC where CPython
       itself re-tracks a dict when a trackable value is inserted (up to 3.13,
       GIL builds); from 3.14 every dict stays tracked. */
    #if PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
    #define RK_UNTRACK_RESULT_DICT 1
    #else
    #define RK_UNTRACK_RESULT_DICT 0
    #endif
    /* Scores are left untracked only with the GIL: gc_track's "is it
       tracked? then track it" would race between threads setting attributes
       on one Score when the GIL is disabled (tracking twice is fatal). */
    #ifdef Py_GIL_DISABLED
    #define RK_UNTRACK_SCORES 0
    #else
    #define RK_UNTRACK_SCORES 1
    #endif
    /* From 3.14 a tuple caches its hash in ob_hash, -1 meaning "not yet
       computed"; memory from PyType_GenericAlloc is zeroed, so a tuple
       filled by hand must reset it, as CPython's tuple_subtype_new does. */
    static inline void rk_tuple_reset_hash(PyObject *o) {
    #if PY_VERSION_HEX >= 0x030E0000
        ((PyTupleObject *)o)->ob_hash = -1;
    #else
        (void)o;
    #endif
    }
    """
    int RK_UNTRACK_RESULT_DICT
    int RK_UNTRACK_SCORES
    void rk_tuple_reset_hash(object o)
    void PyTuple_SET_ITEM(object p, Py_ssize_t pos, object o)
    void Py_INCREF(object o)

# The rouge kinds of _kinds.pxd, for Python.
KIND_L = ROUGE_L
KIND_LSUM = ROUGE_LSUM

cdef enum:
    # score_pair's return codes
    RC_OK = 0
    RC_NOMEM = -1
    RC_FALLBACK = -2
    RC_NULL = -3        # (score_arrow_into: a row with a null, not scored)


# Start the vocabulary afresh past this many distinct tokens, so a
# long-lived scorer's memory stays bounded (a testing hook can lower it).
cdef Py_ssize_t VOCAB_RESET = 1 << 21


def _set_vocab_reset(Py_ssize_t tokens):
    """Testing hook: the vocabulary size past which an engine starts afresh.
    Returns the previous value. Not thread-safe; tests only."""
    global VOCAB_RESET
    if tokens < 1:
        raise ValueError("tokens must be >= 1")
    old = VOCAB_RESET
    VOCAB_RESET = tokens
    return old


cdef class Engine:
    cdef Vocab vocab
    cdef TokenBuf tt, tp
    cdef DenseIds dense          # numbers the pair's tokens 0.. (the tokenizer)
    cdef int* kinds
    cdef Py_ssize_t ntypes
    cdef bint stem
    cdef LcsScratch lcs_scratch
    cdef OverlapScratch overlap_scratch
    cdef tuple keys             # result dict keys, one per rouge type
    cdef object score_cls       # a tuple subclass (Score)
    cdef object fallback        # fallback(target, prediction) -> dict
    cdef object overflow        # overflow(target, prediction) -> dict
    cdef object letters_check   # letters_check(text) -> keep checking?, or None
    cdef long letters_done      # set once letters_check returned False
    cdef bint untrack           # create score_cls instances untracked by the GC
    cdef long busy              # 1 while a thread uses the engine

    def __cinit__(self, kinds, bint use_stemmer, list keys, score_cls, fallback,
                  overflow=None, letters_check=None):
        cdef Py_ssize_t k
        self.untrack = _untracks(score_cls)
        if len(keys) != len(kinds):
            raise ValueError("one key per rouge kind")
        # A tuple of our own: _result reads keys[k] for k < ntypes unchecked,
        # so nobody may shrink it.
        self.keys = tuple(keys)
        self.score_cls = score_cls
        self.fallback = fallback
        self.overflow = overflow
        self.letters_check = letters_check
        self.letters_done = 0
        self.busy = 0
        self.ntypes = len(kinds)
        self.kinds = <int*>malloc((self.ntypes + 1) * sizeof(int))
        if self.kinds == NULL:
            raise MemoryError()
        for k in range(self.ntypes):
            self.kinds[k] = kinds[k]
            if self.kinds[k] == 0 or self.kinds[k] < ROUGE_LSUM:
                raise ValueError(f"bad rouge kind {kinds[k]!r}")
        self.stem = use_stemmer
        if vocab_init(&self.vocab, True) < 0:
            raise MemoryError()
        if tokbuf_init(&self.tt) < 0 or tokbuf_init(&self.tp) < 0:
            raise MemoryError()
        # only rougeLsum reads the texts' sentences
        for k in range(self.ntypes):
            if self.kinds[k] == ROUGE_LSUM:
                break
        else:
            self.tt.split_lines = self.tp.split_lines = False
        memset(&self.dense, 0, sizeof(DenseIds))

    def __dealloc__(self):
        vocab_free(&self.vocab)
        tokbuf_free(&self.tt)
        tokbuf_free(&self.tp)
        free(self.kinds)
        lcs_scratch_free(&self.lcs_scratch)
        overlap_scratch_free(&self.overlap_scratch)

    cdef int _restart(self) noexcept nogil:
        """Forget the vocabulary and give back the memory sized by it (the
        id tables, the per-id arrays and the kernels' scratch), so that one
        pair with millions of distinct tokens does not pin that memory for
        the engine's lifetime."""
        vocab_free(&self.vocab)
        lcs_scratch_free(&self.lcs_scratch)
        overlap_scratch_free(&self.overlap_scratch)
        return vocab_init(&self.vocab, True)

    def _set_round(self, uint64_t round_):
        """Testing hook: the numbering round of the last pair scored (the next
        pair's is one more; past 2**32 - 1 every tag is forgotten and it is
        1)."""
        if round_ > UINT32_MAX:
            raise ValueError("the round must be below 2**32")
        self.dense.round = round_

    def _vocab_size(self):
        """Testing hook: how many distinct tokens (and stems) are interned."""
        return self.vocab.n

    cdef int score_pair(self, int kind_t, const void* data_t, Py_ssize_t len_t,
                        int kind_p, const void* data_p, Py_ssize_t len_p,
                        double* out, char* int_zero) noexcept nogil:
        """Scores into out[3k:3k+3] (P, R, F of type k); int_zero[k] is set
        where rouge-score returns the int 0 (empty rougeL/rougeLsum)."""
        cdef int rc
        cdef Py_ssize_t k, n, nt, np_, nloc, nloc_t, ct, cp
        cdef int64_t hits, lcs_hits = -1
        cdef int32_t* dt
        cdef int32_t* dp
        # (slots is NULL only after a restart that ran out of memory)
        if (self.vocab.n > VOCAB_RESET or self.vocab.slots == NULL) and self._restart() < 0:
            return RC_NOMEM
        # the texts' lines on their way while the target is read
        rk_prefetch_bytes(data_t, len_t * kind_t)
        rk_prefetch_bytes(data_p, len_p * kind_p)
        # The target's tokens numbered 0.. in order of appearance, and the
        # prediction's tokens by the same numbers, every token the target
        # lacks as one more (nloc_t: none of them can match): the kernels'
        # tables are indexed by these numbers.
        dense_ids_next(&self.dense, &self.vocab)
        rc = tokenize_text(&self.vocab, &self.tt, kind_t, data_t, len_t, self.stem, &self.dense)
        nloc_t = self.dense.n           # the target's tokens are numbered below this
        self.dense.closed = True
        if rc == 0:
            rc = tokenize_text(&self.vocab, &self.tp, kind_p, data_p, len_p, self.stem,
                               &self.dense)
        if rc != 0:
            return rc
        nt = self.tt.n
        np_ = self.tp.n
        if nt + np_ >= MAX_IDS:
            # The kernels count and index in 32 bits; the Python path checks
            # this bound and says so.
            return RC_FALLBACK
        nloc = self.dense.n + 1         # (the prediction's ids are at most dense.n)
        dt = self.tt.ids
        dp = self.tp.ids
        for k in range(self.ntypes):
            n = self.kinds[k]
            int_zero[k] = 0
            if n > 0:
                hits = clipped_overlap_numbered(dt, nt, dp, np_, nloc_t, nloc, n,
                                                &self.overlap_scratch)
                if hits < 0:
                    return RC_NOMEM
                ct = nt - n + 1 if nt - n + 1 > 0 else 0
                cp = np_ - n + 1 if np_ - n + 1 > 0 else 0
                ngram_prf(hits, ct, cp, out + 3 * k)
            elif nt == 0 or np_ == 0:
                int_zero[k] = 1
                lcs_prf(0, nt, np_, out + 3 * k)        # zeros
            elif n == ROUGE_L:
                hits = lcs_length_scratch(dt, nt, dp, np_, nloc, &self.lcs_scratch)
                if hits < 0:
                    return RC_NOMEM
                lcs_hits = hits
                lcs_prf(hits, nt, np_, out + 3 * k)
            elif lcs_hits >= 0 and self.tt.ns == 1 and self.tp.ns == 1:
                # one sentence a side: rougeLsum's hits are rougeL's
                # (summary_hits_scratch says why)
                lcs_prf(lcs_hits, nt, np_, out + 3 * k)
            else:
                # Every token lies in exactly one sentence, so the sentence
                # totals are nt and np_.
                hits = summary_hits_scratch(dt, self.tt.soff, self.tt.ns,
                                            dp, self.tp.soff, self.tp.ns, nloc,
                                            &self.lcs_scratch)
                if hits < 0:
                    return RC_NOMEM
                lcs_prf(hits, nt, np_, out + 3 * k)
        return RC_OK

    def score(self, target, prediction):
        """{key: score_cls(P, R, F)} for one pair of str; anything else, or a
        pair the C stemmer gives up on, goes to ``fallback``. While another
        thread uses this engine, the pair goes to ``overflow``."""
        return self.score_texts(target, prediction)

    cdef object score_texts(self, object target, object prediction):
        # score(), for this module's callers (the function score below)
        cdef int kt, kp, rc
        cdef bint ascii_t, ascii_p
        cdef const void* dt
        cdef const void* dp
        cdef Py_ssize_t lt, lp, kept_t, kept_p
        cdef double out_stack[3 * 16]
        cdef char iz_stack[16]
        cdef double* out = out_stack
        cdef char* iz = iz_stack
        if type(target) is not str or type(prediction) is not str:
            return self.fallback(target, prediction)
        _buffer(target, &kt, &dt, &lt)
        _buffer(prediction, &kp, &dp, &lp)
        if self.ntypes > 16:
            out = <double*>malloc(3 * self.ntypes * sizeof(double))
            iz = <char*>malloc(self.ntypes)
            if out == NULL or iz == NULL:
                free(out)
                free(iz)
                raise MemoryError()
        try:
            if not rk_flag_try_acquire(&self.busy):
                if self.overflow is None:
                    raise RuntimeError("this Engine is in use by another thread")
                return self.overflow(target, prediction)
            rc = self.score_pair(kt, dt, lt, kp, dp, lp, out, iz)
            # (counted only for the texts _check_letters reads, while the
            # engine's buffers still hold them: ASCII texts keep every letter)
            ascii_t = PyUnicode_IS_ASCII(target)
            ascii_p = PyUnicode_IS_ASCII(prediction)
            kept_t = lt if ascii_t else tokbuf_kept(&self.tt)
            kept_p = lp if ascii_p else tokbuf_kept(&self.tp)
            rk_flag_release(&self.busy)
            if rc == RC_NOMEM:
                raise MemoryError()
            if rc == RC_FALLBACK:
                return self.fallback(target, prediction)
            result = _result(self.keys, self.score_cls, self.untrack, out, iz, self.ntypes)
            if (not (ascii_t and ascii_p) and self.letters_check is not None
                    and not rk_flag_get(&self.letters_done)):
                self._check_letters(target, lt, kept_t)
                self._check_letters(prediction, lp, kept_p)
            return result
        finally:
            if out != out_stack:
                free(out)
                free(iz)

    cdef int _check_letters(self, object text, Py_ssize_t length, Py_ssize_t kept) except -1:
        if (2 * kept < length and not PyUnicode_IS_ASCII(text)
                and not rk_flag_get(&self.letters_done)
                and not self.letters_check(text)):
            rk_flag_set(&self.letters_done)
        return 0

    def _hold(self, bint held):
        """Testing hook: mark the engine in use (True) or free (False), as
        another thread would; returns whether the change took."""
        if held:
            return bool(rk_flag_try_acquire(&self.busy))
        rk_flag_release(&self.busy)
        return True

    cdef int _score_str_pairs(self, tuple ts, tuple ps, Cancel cancel, int* rcs,
                              double* out, Py_ssize_t out_step, char* iz, Py_ssize_t iz_step,
                              char* sus, double* columns, Py_ssize_t stride,
                              Py_ssize_t col0) except -1:
        """score_range's and score_into's loop: scores the pairs of str of ts
        and ps (equally long) in order, with the GIL released (tuples of the
        caller's own hold a reference to every text for the whole call,
        whatever other threads do to the caller's lists, and str buffers
        never move: so reading them without the GIL is safe). rcs[i] is left
        RC_FALLBACK where pair i is not two str (for the caller to give to
        ``fallback``). The other arguments are ``_score_buffers``'. Returns
        1 when ``cancel`` was set before the end, else 0."""
        cdef Py_ssize_t n = len(ts), i
        cdef int* kinds = <int*>malloc((2 * n + 1) * sizeof(int))
        cdef const void** datas = <const void**>malloc((2 * n + 1) * sizeof(void*))
        cdef Py_ssize_t* lens = <Py_ssize_t*>malloc((2 * n + 1) * sizeof(Py_ssize_t))
        try:
            if kinds == NULL or datas == NULL or lens == NULL:
                raise MemoryError()
            for i in range(n):
                rcs[i] = RC_FALLBACK
                if sus != NULL:
                    sus[i] = 0
                if type(ts[i]) is str and type(ps[i]) is str:
                    _buffer(ts[i], &kinds[2 * i], &datas[2 * i], &lens[2 * i])
                    _buffer(ps[i], &kinds[2 * i + 1], &datas[2 * i + 1], &lens[2 * i + 1])
                    rcs[i] = RC_OK
                    if sus != NULL:
                        # the texts that are not ASCII (cleared where the
                        # text kept enough)
                        sus[i] = ((not PyUnicode_IS_ASCII(ts[i]))
                                  | ((not PyUnicode_IS_ASCII(ps[i])) << 1))
            return self._score_buffers(n, kinds, datas, lens, cancel, rcs, out, out_step,
                                       iz, iz_step, sus, columns, stride, col0)
        finally:
            free(kinds)
            free(datas)
            free(lens)

    cdef int _score_buffers(self, Py_ssize_t n, const int* kinds, const void** datas,
                            const Py_ssize_t* lens, Cancel cancel, int* rcs,
                            double* out, Py_ssize_t out_step, char* iz, Py_ssize_t iz_step,
                            char* sus, double* columns, Py_ssize_t stride,
                            Py_ssize_t col0) except -1:
        """Scores, in order and with the GIL released, the pairs i < n with
        rcs[i] == RC_OK: the target's text is (kinds[2i], datas[2i],
        lens[2i]) (score_pair's kind, data and length), the prediction's
        the same at 2i + 1; the buffers must stay put for the call. rcs[i]
        becomes score_pair's return code (RC_FALLBACK: for the caller to
        give to ``fallback``); the other pairs are left as they are. Pair
        i's P, R and F of type k go to out[i * out_step + 3k : + 3] and its
        int zeros to iz[i * iz_step + k] (steps 0: one buffer for every
        pair); with ``columns``, also to columns[c * stride + col0 + i] for
        c < 3 * ntypes (score_pair leaves 0.0 in out where iz is set). With
        ``sus``, the caller sets sus[i] bit 0 (target) and bit 1
        (prediction) for each text that is not ASCII; those that kept
        enough of their characters are cleared here, leaving the texts that
        may have lost most of their letters (module docstring). Returns 1
        when ``cancel`` was set before the end, else 0."""
        cdef Py_ssize_t i, c, ncol = 3 * self.ntypes
        cdef int rc = 0
        if not rk_flag_try_acquire(&self.busy):
            raise RuntimeError("this Engine is in use by another thread")
        with nogil:
            for i in range(n):
                if rk_flag_get(&cancel.flag):
                    rc = 1
                    break
                if rcs[i] != RC_OK:
                    if sus != NULL:
                        sus[i] = 0
                    continue
                rcs[i] = self.score_pair(kinds[2 * i], datas[2 * i], lens[2 * i],
                                         kinds[2 * i + 1], datas[2 * i + 1], lens[2 * i + 1],
                                         out + i * out_step, iz + i * iz_step)
                if rcs[i] == RC_NOMEM:
                    rc = -1
                    break
                if sus != NULL and sus[i]:
                    if rcs[i] != RC_OK:
                        sus[i] = 0
                    else:
                        sus[i] &= ((2 * tokbuf_kept(&self.tt) < lens[2 * i])
                                   | ((2 * tokbuf_kept(&self.tp) < lens[2 * i + 1]) << 1))
                if columns != NULL and rcs[i] == RC_OK:
                    for c in range(ncol):
                        columns[c * stride + col0 + i] = out[i * out_step + c]
            rk_flag_release(&self.busy)
        if rc == -1:
            raise MemoryError()
        return rc

    def score_range(self, targets, predictions, Cancel cancel not None, list suspicious=None):
        """Scores the pairs of two equally long sequences, with the GIL
        released while the pairs of str are scored; other pairs go to
        ``fallback``, in order. Stops early (returning None) when ``cancel``
        is set. With a list ``suspicious``, appends ``2 * i`` (target) and
        ``2 * i + 1`` (prediction) for each text of pair i scored here that
        may have lost most of its letters (module docstring), in order."""
        cdef tuple ts = tuple(targets)
        cdef tuple ps = tuple(predictions)
        cdef Py_ssize_t n = len(ts), i, nty = self.ntypes
        cdef bint check = suspicious is not None
        cdef list result
        if len(ps) != n:
            raise ValueError("targets and predictions differ in length")
        if n > (PY_SSIZE_T_MAX // <Py_ssize_t>sizeof(double) - 1) // (3 * (nty if nty > 0 else 1)):
            raise MemoryError()
        cdef double* out = <double*>malloc((3 * n * nty + 1) * sizeof(double))
        cdef char* iz = <char*>malloc(n * nty + 1)
        cdef int* rcs = <int*>malloc((n + 1) * sizeof(int))
        cdef char* sus = <char*>malloc(n + 1) if check else NULL
        try:
            if out == NULL or iz == NULL or rcs == NULL or (check and sus == NULL):
                raise MemoryError()
            if self._score_str_pairs(ts, ps, cancel, rcs, out, 3 * nty, iz, nty, sus,
                                     NULL, 0, 0):
                return None
            result = [None] * n
            if check:
                for i in range(n):
                    if sus[i] & 1:
                        suspicious.append(2 * i)
                    if sus[i] & 2:
                        suspicious.append(2 * i + 1)
            for i in range(n):
                if rcs[i] == RC_FALLBACK:
                    result[i] = self.fallback(ts[i], ps[i])
                else:
                    result[i] = _result(self.keys, self.score_cls, self.untrack,
                                        out + 3 * i * nty, iz + i * nty, nty)
            return result
        finally:
            free(out)
            free(iz)
            free(rcs)
            free(sus)

    def score_into(self, targets, predictions, Py_ssize_t lo, Py_ssize_t hi,
                   double[:, ::1] out not None, Cancel cancel not None):
        """Scores pairs ``lo`` to ``hi - 1`` of two sequences into the columns
        ``lo:hi`` of ``out``, a C-contiguous float64 buffer of 3 rows per rouge
        type: row 3k + j holds measure j (P, R, F) of type k. The int zeros
        of rouge-score become 0.0. The pairs of str are scored with the GIL
        released; the others go to ``fallback``, whose scores are written as
        floats. Returns False when ``cancel`` was set before the end (the
        columns are then partly written), True otherwise."""
        cdef Py_ssize_t nty = self.ntypes, n, i, c, stride
        cdef tuple ts, ps
        cdef object scores
        if not 0 <= lo <= hi or hi > len(targets) or hi > len(predictions):
            raise ValueError(f"lo={lo}, hi={hi} is not a range of pairs "
                             f"({len(targets)} targets, {len(predictions)} predictions)")
        if out.shape[0] != 3 * nty or out.shape[1] < hi:
            raise ValueError(f"out has shape ({out.shape[0]}, {out.shape[1]}); "
                             f"needs {3 * nty} rows and at least {hi} columns")
        ts = tuple(targets[lo:hi])
        ps = tuple(predictions[lo:hi])
        n = len(ts)
        if len(ps) != n:
            raise ValueError("targets and predictions differ in length")
        stride = out.shape[1]
        cdef double* columns = &out[0, 0] if stride > 0 and nty > 0 else NULL
        cdef double* buf = <double*>malloc((3 * nty + 1) * sizeof(double))
        cdef char* iz = <char*>malloc(nty + 1)
        cdef int* rcs = <int*>malloc((n + 1) * sizeof(int))
        try:
            if buf == NULL or iz == NULL or rcs == NULL:
                raise MemoryError()
            if self._score_str_pairs(ts, ps, cancel, rcs, buf, 0, iz, 0, NULL,
                                     columns, stride, lo):
                return False
            for i in range(n):
                if rcs[i] == RC_FALLBACK:
                    scores = self.fallback(ts[i], ps[i])
                    for c in range(3 * nty):
                        out[c, lo + i] = float(scores[self.keys[c // 3]][c % 3])
            return True
        finally:
            free(buf)
            free(iz)
            free(rcs)

    def score_arrow_into(self, targets, predictions, Py_ssize_t lo, Py_ssize_t hi,
                         double[:, ::1] out not None, Cancel cancel not None,
                         list suspicious=None):
        """``score_into`` for two Arrow string arrays (pyarrow ``string``,
        ``large_string`` or ``string_view`` Arrays, sliced or not): rows ``lo`` to ``hi - 1``
        into the columns ``lo:hi`` of ``out``, the numbers ``score_into``
        gives for the same rows as str. A row where either is null gets NaN.
        A text whose UTF-8 bytes are all ASCII is read where it lies in the
        Arrow data buffer (1 byte a character, no copy); any other is
        decoded to a str and scored as one. Offsets that are not monotone or
        point outside the data buffer are a ValueError. With a list
        ``suspicious``, appends ``2 * r`` (target) and ``2 * r + 1``
        (prediction), r the row, for each text scored here that may have
        lost most of its letters (module docstring), in order. Returns
        False when ``cancel`` was set before the end, True otherwise."""
        cdef ArrowStrings ta, pa_
        cdef Py_ssize_t nty = self.ntypes, n, i, c, stride, r, k
        cdef bint decode = False
        cdef object text
        cdef list decoded = []      # the str of the rows read as str, alive for the call
        cdef const char* data
        cdef Py_ssize_t length
        cdef double nan = float("nan")
        # (the buffers stay alive while these lists hold them)
        cdef list t_buffers = _arrow_strings(targets, "targets", &ta)
        cdef list p_buffers = _arrow_strings(predictions, "predictions", &pa_)
        if not 0 <= lo <= hi or hi > ta.length or hi > pa_.length:
            raise ValueError(f"lo={lo}, hi={hi} is not a range of rows "
                             f"({ta.length} targets, {pa_.length} predictions)")
        if out.shape[0] != 3 * nty or out.shape[1] < hi:
            raise ValueError(f"out has shape ({out.shape[0]}, {out.shape[1]}); "
                             f"needs {3 * nty} rows and at least {hi} columns")
        _check_offsets(&ta, lo, hi, "targets")
        _check_offsets(&pa_, lo, hi, "predictions")
        n = hi - lo
        stride = out.shape[1]
        cdef double* columns = &out[0, 0] if stride > 0 and nty > 0 else NULL
        cdef double* buf = <double*>malloc((3 * nty + 1) * sizeof(double))
        cdef char* iz = <char*>malloc(nty + 1)
        cdef int* rcs = <int*>malloc((n + 1) * sizeof(int))
        cdef int* kinds = <int*>malloc((2 * n + 1) * sizeof(int))
        cdef const void** datas = <const void**>malloc((2 * n + 1) * sizeof(void*))
        cdef Py_ssize_t* lens = <Py_ssize_t*>malloc((2 * n + 1) * sizeof(Py_ssize_t))
        cdef char* sus = <char*>malloc(n + 1) if suspicious is not None else NULL
        try:
            if (buf == NULL or iz == NULL or rcs == NULL or kinds == NULL or datas == NULL
                    or lens == NULL or (suspicious is not None and sus == NULL)):
                raise MemoryError()
            with nogil:
                # Each text's bytes, kind 1 where they are all ASCII (a
                # pointer into the data buffer), 0 where they are to be
                # decoded.
                for i in range(n):
                    r = lo + i
                    if sus != NULL:
                        sus[i] = 0
                    if _arrow_null(&ta, r) or _arrow_null(&pa_, r):
                        rcs[i] = RC_NULL
                        continue
                    rcs[i] = RC_OK
                    _arrow_text(&ta, r, &datas[2 * i], &lens[2 * i])
                    _arrow_text(&pa_, r, &datas[2 * i + 1], &lens[2 * i + 1])
                    for k in range(2 * i, 2 * i + 2):
                        kinds[k] = 1 if _all_ascii(<const uint8_t*>datas[k], lens[k]) else 0
                        if kinds[k] == 0:
                            decode = True
            if decode:
                # The other texts as str, each scored through its own
                # buffer (its letters checked as a str's: sus).
                for i in range(n):
                    for k in range(2 * i, 2 * i + 2):
                        if rcs[i] == RC_OK and kinds[k] == 0:
                            text = PyUnicode_DecodeUTF8(<const char*>datas[k], lens[k], NULL)
                            decoded.append(text)
                            _buffer(text, &kinds[k], &datas[k], &lens[k])
                            if sus != NULL and not PyUnicode_IS_ASCII(text):
                                sus[i] |= 1 << (k - 2 * i)
            if self._score_buffers(n, kinds, datas, lens, cancel, rcs, buf, 0, iz, 0, sus,
                                   columns, stride, lo):
                return False
            for i in range(n):
                r = lo + i
                if rcs[i] == RC_NULL:
                    for c in range(3 * nty):
                        out[c, r] = nan
                elif rcs[i] == RC_FALLBACK:
                    scores = self.fallback(_arrow_str(&ta, r), _arrow_str(&pa_, r))
                    for c in range(3 * nty):
                        out[c, r] = float(scores[self.keys[c // 3]][c % 3])
                if sus != NULL:
                    if sus[i] & 1:
                        suspicious.append(2 * r)
                    if sus[i] & 2:
                        suspicious.append(2 * r + 1)
            return True
        finally:
            free(buf)
            free(iz)
            free(rcs)
            free(kinds)
            free(datas)
            free(lens)
            free(sus)


def score(self, target, prediction):
    """Scores ``prediction`` against ``target``: a dict type -> Score.

    ``rougekit.rouge_scorer.RougeScorer.score`` is this function (a compiled
    method, so a pair its engine takes runs no Python code on the way).
    ``self._direct_engine`` is the engine to hand the pair to, or None while
    a check on the texts is pending or the scorer has no engine: then the
    pair goes to ``self._score_checked``, which sets it once no check is
    left.
    """
    engine = getattr(self, "_direct_engine", None)
    if engine is None:
        return self._score_checked(target, prediction)
    return (<Engine?>engine).score_texts(target, prediction)


cdef class Cancel:
    """A flag the worker threads of score_batch poll between pairs."""
    cdef long flag

    def __cinit__(self):
        self.flag = 0

    def set(self):
        rk_flag_set(&self.flag)

    def is_set(self):
        return bool(rk_flag_get(&self.flag))


cdef inline int _untracks(object score_cls) except -1:
    """Whether _triple may leave score_cls instances untracked (checked: it
    fills each as a 3-item tuple)."""
    if not (isinstance(score_cls, type) and issubclass(score_cls, tuple)):
        raise TypeError("score_cls must be a subclass of tuple")
    return RK_UNTRACK_SCORES and getattr(score_cls, "_engine_may_untrack", False) is True


cdef inline int _buffer(object text, int* kind, const void** data,
                        Py_ssize_t* length) except -1:
    if type(text) is not str:
        raise TypeError(f"expected str, got {type(text).__name__}")
    return str_buffer(<str>text, kind, data, length)


cdef object _int_zero = 0


# --- Arrow string arrays -------------------------------------------------------------

cdef struct ArrowStrings:
    # One Arrow string array's buffers (pyarrow's, held by the caller):
    # row r is null where bit (offset + r) of validity is 0 (no validity: no
    # nulls). string and large_string (offset_width 4 or 8): its UTF-8 bytes
    # are data[off(offset + r) : off(offset + r + 1)], off(j) the j-th
    # offset. string_view (offset_width 16): offsets holds a 16-byte view per
    # row, its length (int32) then either the bytes themselves (at most 12)
    # or their first 4, the index of one of the ndata buffers datas (int32)
    # and the offset in it (int32).
    const uint8_t* validity
    const uint8_t* offsets
    int offset_width
    const char* data
    Py_ssize_t data_size
    const char** datas
    const Py_ssize_t* data_sizes
    Py_ssize_t ndata
    Py_ssize_t offset
    Py_ssize_t length
    Py_ssize_t validity_size
    Py_ssize_t offsets_size


cdef const char* _EMPTY = b""
cdef enum:
    # a string_view's length up to which its bytes are in the view itself
    VIEW_INLINE = 12


cdef list _arrow_strings(object array, str name, ArrowStrings* a):
    """Reads a pyarrow string, large_string or string_view Array's buffers
    into ``a`` (their sizes checked against its offset and length); returns
    the buffers, which the caller keeps alive while it reads them."""
    import pyarrow
    if not isinstance(array, pyarrow.Array):
        raise TypeError(f"{name} must be a pyarrow string Array, not {type(array).__name__}")
    is_view = getattr(pyarrow.types, "is_string_view", None)    # pyarrow >= 16
    if pyarrow.types.is_string(array.type):
        a.offset_width = 4
    elif pyarrow.types.is_large_string(array.type):
        a.offset_width = 8
    elif is_view is not None and is_view(array.type):
        a.offset_width = 16
    else:
        raise TypeError(f"{name} must be a pyarrow string, large_string or string_view "
                        f"Array, not {array.type}")
    cdef list buffers = array.buffers()
    cdef Py_ssize_t k, rows_size
    cdef bytearray table
    cdef const char** pointers
    cdef Py_ssize_t* sizes
    if a.offset_width == 16:
        if len(buffers) < 2 or (buffers[1] is None and len(array) > 0):
            raise ValueError(f"{name}: a string_view array has a validity and a views "
                             "buffer, then its data buffers")
    elif len(buffers) != 3 or buffers[1] is None:
        raise ValueError(f"{name}: a string array has 3 buffers, with offsets")
    a.offset = array.offset
    a.length = len(array)
    a.validity = NULL
    a.validity_size = 0
    if buffers[0] is not None and array.null_count != 0:
        a.validity = <const uint8_t*><uintptr_t>buffers[0].address
        a.validity_size = buffers[0].size
    a.offsets = <const uint8_t*>_EMPTY
    a.offsets_size = 0
    if buffers[1] is not None and buffers[1].size > 0:
        a.offsets = <const uint8_t*><uintptr_t>buffers[1].address
        a.offsets_size = buffers[1].size
    a.data = _EMPTY
    a.data_size = 0
    a.datas = NULL
    a.data_sizes = NULL
    a.ndata = 0
    if a.offset_width == 16:
        # the data buffers' addresses and sizes, in a bytearray the returned
        # list keeps alive: ndata pointers, then ndata sizes
        a.ndata = len(buffers) - 2
        table = bytearray((a.ndata + 1) * (sizeof(char*) + sizeof(Py_ssize_t)))
        pointers = <const char**>PyByteArray_AS_STRING(table)
        sizes = <Py_ssize_t*>(pointers + a.ndata + 1)
        for k in range(a.ndata):
            buffer = buffers[2 + k]
            if buffer is not None and buffer.size > 0:
                pointers[k] = <const char*><uintptr_t>buffer.address
                sizes[k] = buffer.size
            else:
                pointers[k] = _EMPTY
                sizes[k] = 0
        a.datas = pointers
        a.data_sizes = sizes
        buffers.append(table)
    elif buffers[2] is not None and buffers[2].size > 0:
        a.data = <const char*><uintptr_t>buffers[2].address
        a.data_size = buffers[2].size
    if a.offset < 0 or a.length < 0 or a.offset > PY_SSIZE_T_MAX // 16 - a.length - 1:
        raise ValueError(f"{name}: offset {a.offset} and length {a.length} out of range")
    # string_view: a view per row; the others: one offset more than rows
    rows_size = (a.offset + a.length) * 16 if a.offset_width == 16 else \
        (a.offset + a.length + 1) * a.offset_width
    if a.length > 0 and a.offsets_size < rows_size:
        raise ValueError(f"{name}: the {'views' if a.offset_width == 16 else 'offsets'} "
                         f"buffer holds {a.offsets_size} bytes; {a.length} rows at offset "
                         f"{a.offset} need {rows_size}")
    if a.validity != NULL and a.validity_size < (a.offset + a.length + 7) // 8:
        raise ValueError(f"{name}: the validity buffer holds {a.validity_size} bytes; "
                         f"{a.length} rows at offset {a.offset} need "
                         f"{(a.offset + a.length + 7) // 8}")
    return buffers


cdef inline int64_t _arrow_offset(const ArrowStrings* a, Py_ssize_t j) noexcept nogil:
    # offset j, j <= offset + length (checked by _arrow_strings); read
    # whatever the buffer's alignment
    cdef int32_t o32
    cdef int64_t o64
    if a.offset_width == 4:
        memcpy(&o32, a.offsets + 4 * j, 4)
        return o32
    memcpy(&o64, a.offsets + 8 * j, 8)
    return o64


cdef inline void _view_fields(const ArrowStrings* a, Py_ssize_t r, int32_t* length,
                              int32_t* index, int32_t* offset) noexcept nogil:
    # row r's view (r < length, checked by _arrow_strings): its length, and
    # for a text of more than VIEW_INLINE bytes its buffer index and offset
    cdef const uint8_t* view = a.offsets + 16 * (a.offset + r)
    memcpy(length, view, 4)
    memcpy(index, view + 8, 4)
    memcpy(offset, view + 12, 4)


cdef int _check_offsets(const ArrowStrings* a, Py_ssize_t lo, Py_ssize_t hi,
                        str name) except -1:
    """The offsets of rows lo to hi - 1 of ``a`` (checked by the caller to
    lie in it): each within the data buffer and none below the one before;
    for string_view, each row's view (not a null's): a length of at least 0
    and, past the view itself, bytes within one of the data buffers that
    begin with the view's 4-byte prefix. A malformed array is an error,
    never a read out of bounds."""
    cdef Py_ssize_t j, r, bad = -1
    cdef int64_t prev, cur
    cdef int32_t length, index, offset
    if a.offset_width == 16:
        with nogil:
            for r in range(lo, hi):
                if _arrow_null(a, r):
                    continue
                _view_fields(a, r, &length, &index, &offset)
                if length < 0:
                    bad = r
                    break
                if length > VIEW_INLINE and (
                        index < 0 or index >= a.ndata or offset < 0
                        or <int64_t>offset + length > a.data_sizes[index]
                        or memcmp(a.offsets + 16 * (a.offset + r) + 4,
                                  a.datas[index] + offset, 4) != 0):
                    bad = r
                    break
        if bad >= 0:
            raise ValueError(f"{name}: malformed string_view array: the view of row {bad} "
                             f"has a negative length or points outside its data buffers "
                             f"({a.ndata} of them), or its prefix is not its text's")
        return 0
    with nogil:
        prev = _arrow_offset(a, a.offset + lo)
        if prev < 0 or prev > a.data_size:
            bad = lo
        else:
            for j in range(a.offset + lo + 1, a.offset + hi + 1):
                cur = _arrow_offset(a, j)
                if cur < prev or cur > a.data_size:
                    bad = j - a.offset - 1
                    break
                prev = cur
    if bad >= 0:
        raise ValueError(f"{name}: malformed string array: the offsets of row {bad} are out "
                         f"of order or past the end of its data ({a.data_size} bytes)")
    return 0


cdef inline bint _arrow_null(const ArrowStrings* a, Py_ssize_t r) noexcept nogil:
    cdef Py_ssize_t j = a.offset + r
    return a.validity != NULL and not ((a.validity[j >> 3] >> (j & 7)) & 1)


cdef inline void _arrow_text(const ArrowStrings* a, Py_ssize_t r, const void** data,
                             Py_ssize_t* length) noexcept nogil:
    # row r's bytes (its offsets or view checked by _check_offsets)
    cdef int64_t start
    cdef int32_t n, index, offset
    if a.offset_width == 16:
        _view_fields(a, r, &n, &index, &offset)
        if n <= VIEW_INLINE:
            data[0] = <const void*>(a.offsets + 16 * (a.offset + r) + 4)
        else:
            data[0] = <const void*>(a.datas[index] + offset)
        length[0] = n
        return
    start = _arrow_offset(a, a.offset + r)
    data[0] = a.data + start
    length[0] = <Py_ssize_t>(_arrow_offset(a, a.offset + r + 1) - start)


cdef object _arrow_str(const ArrowStrings* a, Py_ssize_t r):
    cdef const void* data
    cdef Py_ssize_t length
    _arrow_text(a, r, &data, &length)
    return PyUnicode_DecodeUTF8(<const char*>data, length, NULL)


cdef inline bint _all_ascii(const uint8_t* s, Py_ssize_t n) noexcept nogil:
    # no byte with its high bit set, 8 bytes at a time
    cdef uint64_t acc = 0, w
    cdef Py_ssize_t i = 0
    while i + 8 <= n:
        memcpy(&w, s + i, 8)
        acc |= w
        i += 8
    while i < n:
        acc |= s[i]
        i += 1
    return (acc & 0x8080808080808080ULL) == 0


cdef inline object _triple(object score_cls, bint untrack, object p, object r, object f):
    """score_cls(p, r, f) for a tuple subclass without its __new__: allocate
    the 3-item instance and fill it, as tuple's own subtype constructor does.
    With untrack, the instance is left untracked by the cyclic GC (see
    scoring.Score, which tracks itself again if an attribute is set)."""
    cdef object o = PyType_GenericAlloc(<PyTypeObject*>score_cls, 3)
    rk_tuple_reset_hash(o)
    Py_INCREF(p)
    PyTuple_SET_ITEM(o, 0, p)
    Py_INCREF(r)
    PyTuple_SET_ITEM(o, 1, r)
    Py_INCREF(f)
    PyTuple_SET_ITEM(o, 2, f)
    if untrack:
        PyObject_GC_UnTrack(<void*>o)
    return o


cdef dict _result(tuple keys, score_cls, bint untrack, const double* out, const char* iz,
                  Py_ssize_t ntypes):
    cdef dict d = {}
    cdef Py_ssize_t k
    for k in range(ntypes):
        if iz[k]:
            d[keys[k]] = _triple(score_cls, untrack, _int_zero, _int_zero, _int_zero)
        else:
            d[keys[k]] = _triple(score_cls, untrack, out[3 * k], out[3 * k + 1],
                                 out[3 * k + 2])
    if untrack and RK_UNTRACK_RESULT_DICT:
        # Its keys are str and its values untracked Scores: no cycle through
        # it. CPython tracks it again if a trackable value is put in it.
        PyObject_GC_UnTrack(<void*>d)
    return d


def score_dicts(list keys, score_cls, const double[:, ::1] columns):
    """One dict ``{key: score_cls(p, r, f)}`` per column of ``columns`` (the
    P, R and F rows of each key in turn, as ``score_columns`` gives them),
    made as ``Engine.score`` makes its results: a corpus's per-item results
    left untracked by the cyclic GC where they may be, so no collection.

    >>> import collections, numpy as np
    >>> PRF = collections.namedtuple("PRF", "p r f")
    >>> score_dicts(["rouge1"], PRF, np.array([[0.5, 1.0], [0.25, 1.0], [0.375, 1.0]]))
    [{'rouge1': PRF(p=0.5, r=0.25, f=0.375)}, {'rouge1': PRF(p=1.0, r=1.0, f=1.0)}]
    """
    cdef bint untrack = _untracks(score_cls)
    cdef Py_ssize_t ntypes = len(keys), n = columns.shape[1], i, k
    if columns.shape[0] != 3 * ntypes:
        raise ValueError(f"columns has {columns.shape[0]} rows, not 3 per key ({3 * ntypes})")
    cdef tuple names = tuple(keys)
    cdef list out = [None] * n
    cdef dict d
    for i in range(n):
        d = {}
        for k in range(ntypes):
            d[names[k]] = _triple(score_cls, untrack, columns[3 * k, i],
                                  columns[3 * k + 1, i], columns[3 * k + 2, i])
        if untrack and RK_UNTRACK_RESULT_DICT:
            PyObject_GC_UnTrack(<void*>d)   # as _result's
        out[i] = d
    return out


def gc_track(obj):
    """Track obj in the cyclic GC again if it is a GC type left untracked
    (scoring.Score calls this before an attribute is set)."""
    if PyObject_IS_GC(obj) and not PyObject_GC_IsTracked(obj):
        PyObject_GC_Track(<void*>obj)
