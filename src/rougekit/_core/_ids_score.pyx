# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled ROUGE of token-id rows read in place (``rougekit.score_ids``).

``IdRows`` holds rows of token ids in a buffer of int32 or int64 that it
does not copy: a 2-D array whose rows end at the first ``pad`` (if any), or
a 1-D array cut by offsets. ``score_rows`` scores prediction rows against
reference rows with the GIL released: each pair's ids are numbered (by the
position of their first occurrence in the prediction, through a table by id;
densely through a hash table when a pair holds ids of 2**20 and up), then the
shared kernels count n-gram overlaps (``_overlap``), the LCS and rougeLsum's
union LCS (``_lcs``), and ``_prf.pxd`` writes rouge-score's P/R/F straight
into the caller's float64 columns (or the counts into int64 columns).

Every index is bounded where it is read (offsets and rows too, so an array
changed by another thread while the GIL is released gives wrong numbers or
an error, never a read outside the buffers); every token id must lie in
[0, 2**31 - 1).

>>> import numpy as np
>>> preds = IdRows(np.array([[1, 2, 3, 0]]), None, 0, "predictions")
>>> refs = IdRows(np.array([1, 3, 2], dtype=np.int32), np.array([0, 3]), None, "references")
>>> out = np.zeros((3, 1))
>>> score_rows(IdScratch(), preds, refs, (1,), None, None, 1, 0, 1, 0, 1, out, None, None)
>>> out[:, 0].tolist()
[1.0, 1.0, 1.0]
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memset

from rougekit._core._grams cimport GramTable, gram_intern, gram_table_clear, gram_table_free
from rougekit._core._kinds cimport ROUGE_L, ROUGE_LSUM
from rougekit._core._lcs cimport (LcsScratch, lcs_length_scratch, lcs_scratch_free,
                                  summary_hits_scratch)
from rougekit._core._mem cimport ID_LIMIT, grow_array
from rougekit._core._overlap cimport (OverlapScratch, clipped_overlap_scratch,
                                      overlap_scratch_free, take_count)
from rougekit._core._prf cimport lcs_prf, ngram_prf

__all__ = ["IdRows", "IdScratch", "score_rows", "DIRECT_IDS", "KIND_L", "KIND_LSUM"]

KIND_L = ROUGE_L
KIND_LSUM = ROUGE_LSUM

cdef enum:
    # Ids below this are numbered through a table indexed by id (4 MiB at
    # most per scratch; a second such table when a pair also holds larger
    # ids, which go through a hash table).
    DIRECT_LIMIT = 1 << 20
    # Predictions of at most this many ids keep their position ids (a vocab
    # of na + 1: the bigram table, vocab ** 2 int32 counts, then stays within
    # 4 MiB, as the overlap kernel's direct table does); longer ones are made
    # consecutive.
    POSITION_IDS_MAX = 1023
    # References of at most this many ids have their rouge1 and rouge2
    # overlaps counted while numbered (_write_and_count: its unigram counts
    # are int16); longer ones go to the overlap kernel.
    COUNTED_REF_MAX = 32767
    # Work (token steps) between two looks at the cancel flag.
    CANCEL_BUDGET = 1 << 22

DIRECT_IDS = DIRECT_LIMIT


ctypedef struct Rows:
    # An IdRows' rows as C sees them (no Python object: read without the GIL).
    const char* data        # the first value, or NULL when there is none
    int wide                # int64 values (else int32)
    Py_ssize_t n_values     # values readable from data on (1-D: all of them)
    Py_ssize_t stride       # 2-D: values from one row's start to the next's
    Py_ssize_t width        # 2-D: values per row
    Py_ssize_t rows
    const int64_t* off      # 1-D: rows + 1 offsets; NULL for 2-D rows
    int64_t pad
    bint has_pad


cdef class IdRows:
    """Rows of token ids, read in place from an int32 or int64 array.

    ``values`` is 2-D with ``offsets`` None (row i is ``values[i]``; the
    last axis must be contiguous, rows may be anywhere: sliced, reversed,
    broadcast), or 1-D (contiguous) with ``offsets``, a
    1-D int64 array of rows + 1 entries (row i is
    ``values[offsets[i]:offsets[i+1]]``). A row ends at its first ``pad``
    when ``pad`` is an int. ``name`` (and ``group``: rows shown as
    ``[row // group][row % group]``) names the rows in errors.
    """
    cdef readonly object values
    cdef readonly object offsets
    cdef const int32_t[:, :] v32      # strided views: the last axis is checked
    cdef const int64_t[:, :] v64      # to be contiguous, rows may be apart
    cdef const int64_t[::1] off
    cdef Rows c
    cdef readonly str name
    cdef readonly Py_ssize_t group

    def __init__(self, values, offsets, pad, str name, Py_ssize_t group=1):
        import numpy as np
        if not isinstance(values, np.ndarray) or values.dtype not in (np.int32, np.int64) \
                or not values.dtype.isnative:
            raise TypeError(f"{name}: values must be a numpy array of native int32 or int64")
        if group < 1:
            raise ValueError("group must be >= 1")
        memset(&self.c, 0, sizeof(Rows))
        self.name = name
        self.group = group
        self.values = values
        self.c.wide = values.dtype == np.int64
        if pad is not None:
            self.c.has_pad = True
            self.c.pad = pad
        if offsets is None:
            if values.ndim != 2:
                raise ValueError(f"{name}: a {values.ndim}-D array needs offsets (2-D without)")
            view = values
        else:
            if values.ndim != 1:
                raise ValueError(f"{name}: values with offsets must be 1-D, not "
                                 f"{values.ndim}-D")
            view = values.reshape(1, values.shape[0])
        # (An empty array has strides 0: nothing to read, nothing to check.)
        if view.size and view.shape[1] > 1 and view.strides[1] != view.itemsize:
            raise ValueError(f"{name}: the values of a row must be contiguous")
        if view.size and view.shape[0] > 1 and view.strides[0] % view.itemsize:
            raise ValueError(f"{name}: rows must start on whole values")
        cdef Py_ssize_t nrows = view.shape[0], width = view.shape[1]
        if self.c.wide:
            self.v64 = view
            if nrows and width:
                self.c.data = <const char*>&self.v64[0, 0]
        else:
            self.v32 = view
            if nrows and width:
                self.c.data = <const char*>&self.v32[0, 0]
        self.c.stride = view.strides[0] // view.itemsize if nrows > 1 else width
        self.c.width = width
        if offsets is None:
            # Rows may overlap or repeat (a stride below the width, 0 for
            # np.broadcast_to, negative): row i starts i * stride values
            # from row 0, inside the array whatever the stride.
            self.c.rows = nrows
            self.c.n_values = self.c.stride * (nrows - 1) + width if nrows else 0
        else:
            self.offsets = offsets
            self.off = offsets
            if self.off.shape[0] < 1:
                raise ValueError(f"{name}: offsets must have at least one entry")
            self.c.off = &self.off[0]
            self.c.rows = self.off.shape[0] - 1
            self.c.n_values = width
            self._check_offsets()
        if self.c.data == NULL:
            self.c.n_values = 0
            self.c.width = 0

    cdef int _check_offsets(self) except -1:
        cdef Py_ssize_t i
        cdef int64_t prev = 0, o
        for i in range(self.c.rows + 1):
            o = self.c.off[i]
            if o < prev or o > self.c.n_values:
                raise ValueError(
                    f"{self.name}: offsets must rise from 0 or more to at most the "
                    f"{self.c.n_values} values; offsets[{i}] is {o}")
            prev = o
        return 0

    @property
    def rows(self):
        return self.c.rows

    def __len__(self):
        return self.c.rows


ctypedef struct Row:
    const char* data
    Py_ssize_t n
    int wide


ctypedef struct BadId:
    # The first token id out of range: which rows, where, what.
    int side
    Py_ssize_t pos
    int64_t value


cdef inline int _row(const Rows* r, Py_ssize_t i, Row* out) noexcept nogil:
    """Row i of r (bounded: -1 if i or its offsets fall outside), cut at pad."""
    cdef Py_ssize_t start, stop, k
    cdef const int32_t* p32
    cdef const int64_t* p64
    if i < 0 or i >= r.rows:
        return -1
    if r.off != NULL:
        start = r.off[i]
        stop = r.off[i + 1]
        if start < 0 or stop < start or stop > r.n_values:
            return -1
    else:
        start = i * r.stride
        stop = start + r.width
    out.wide = r.wide
    out.n = stop - start
    out.data = r.data
    if out.n <= 0 or r.data == NULL:
        out.n = 0
        return 0
    if r.wide:
        out.data = r.data + start * 8
        if r.has_pad:
            p64 = <const int64_t*>out.data
            for k in range(out.n):
                if p64[k] == r.pad:
                    out.n = k
                    break
    else:
        out.data = r.data + start * 4
        if r.has_pad:
            p32 = <const int32_t*>out.data
            for k in range(out.n):
                if p32[k] == r.pad:
                    out.n = k
                    break
    return 0


ctypedef struct Scratch:
    int32_t* direct             # position id by token id (< DIRECT_LIMIT); no invariant
    Py_ssize_t direct_cap
    int32_t* rank               # _compact's consecutive id by position id
    Py_ssize_t rank_cap
    int32_t* small              # _number's dense id by token id (< DIRECT_LIMIT);
    Py_ssize_t small_cap        # -1 between pairs
    int16_t* uni                # _write_and_count's unigram and bigram counts;
    Py_ssize_t uni_cap          # zeros between pairs
    int32_t* bi
    Py_ssize_t bi_cap
    int32_t* keys               # _write_and_count's bigram keys of the prediction
    Py_ssize_t keys_cap
    GramTable big               # token ids of DIRECT_LIMIT and up, by hash ...
    int32_t* big_dense          # ... and their dense ids by its ids; -1 between pairs
    Py_ssize_t big_dense_cap
    int64_t* seen               # the token ids given a dense id in this pair
    Py_ssize_t seen_cap
    int32_t* ids                # _number's dense ids: prediction, then reference
    Py_ssize_t ids_cap
    int32_t* raw                # the pair's token ids, read once (all < DIRECT_LIMIT),
    Py_ssize_t raw_cap          # then numbered in place (_number_by_position)
    int32_t* stok               # rougeLsum: the tokens of the sentences ...
    Py_ssize_t stok_cap
    Py_ssize_t* soff            # ... and their offsets
    Py_ssize_t soff_cap
    LcsScratch lcs
    OverlapScratch overlap


cdef class IdScratch:
    """Buffers one thread reuses across ``score_rows`` calls (one call at a
    time): the tables that give a pair's token ids dense numbers, rougeLsum's
    sentences, the kernels' scratch."""
    cdef Scratch c

    def __cinit__(self):
        memset(&self.c, 0, sizeof(Scratch))

    def __dealloc__(self):
        free(self.c.direct)
        free(self.c.rank)
        free(self.c.small)
        free(self.c.uni)
        free(self.c.bi)
        free(self.c.keys)
        gram_table_free(&self.c.big)
        free(self.c.big_dense)
        free(self.c.seen)
        free(self.c.ids)
        free(self.c.raw)
        free(self.c.stok)
        free(self.c.soff)
        lcs_scratch_free(&self.c.lcs)
        overlap_scratch_free(&self.c.overlap)


cdef inline int64_t _at(const Row* r, Py_ssize_t k) noexcept nogil:
    if r.wide:
        return (<const int64_t*>r.data)[k]
    return (<const int32_t*>r.data)[k]


cdef inline int32_t _dense_id(Scratch* sc, int32_t* slot, int64_t v,
                              Py_ssize_t* nv) noexcept nogil:
    """The dense id in *slot (token id v's entry of a numbering table), or,
    if it has none (-1), the next one, *nv, given to it and recorded."""
    cdef int32_t d = slot[0]
    if d < 0:
        d = <int32_t>nv[0]
        sc.seen[d] = v
        nv[0] += 1
        slot[0] = d
    return d


cdef int _number(Scratch* sc, const Row* r, int32_t* dst, Py_ssize_t* nv,
                 BadId* bad) noexcept nogil:
    """dst[k] <- the dense id of r's token k, numbering new ids from *nv
    (each new token id recorded in sc.seen[0 .. *nv)). 1 with *bad set when
    an id is out of range; -1 when out of memory."""
    cdef Py_ssize_t k
    cdef int64_t v
    cdef int32_t d, g
    for k in range(r.n):
        v = _at(r, k)
        if v < 0 or v >= ID_LIMIT:
            bad.pos = k
            bad.value = v
            return 1
        if v < DIRECT_LIMIT:
            if v >= sc.small_cap and grow_array(<void**>&sc.small, &sc.small_cap,
                                                v + 1 if v + 1 > 1024 else 1024,
                                                sizeof(int32_t), 0xFF) < 0:
                return -1
            d = _dense_id(sc, &sc.small[v], v, nv)
        else:
            g = gram_intern(&sc.big, <uint64_t>v)
            if g < 0 or grow_array(<void**>&sc.big_dense, &sc.big_dense_cap, g + 1,
                                   sizeof(int32_t), 0xFF) < 0:
                return -1
            d = _dense_id(sc, &sc.big_dense[g], v, nv)
        dst[k] = d
    return 0


ctypedef fused id_t:
    int32_t
    int64_t


cdef inline int64_t _load_ids(const id_t* p, Py_ssize_t n, int32_t* dst) noexcept nogil:
    """_load's loop, for either width of id: the bitwise OR of the ids (a
    branch-free reduction that SSE2 vectorizes, as it does the narrowing
    copy; a min/max of int64 would need SSE4.2)."""
    cdef Py_ssize_t k
    cdef id_t v, acc = 0
    for k in range(n):
        v = p[k]
        acc = acc | v
        dst[k] = <int32_t>v
    return acc


cdef int64_t _load(const Row* r, int32_t* dst) noexcept nogil:
    """dst[k] <- <int32_t> r's token k, each read once (the kernels then
    never read the row again, which another thread may be changing), and
    the bitwise OR of the ids: negative if one is, otherwise at least the
    largest and below DIRECT_LIMIT exactly when every id is."""
    if r.wide:
        return _load_ids(<const int64_t*>r.data, r.n, dst)
    return _load_ids(<const int32_t*>r.data, r.n, dst)


cdef Py_ssize_t _number_by_position(Scratch* sc, int32_t* ids, Py_ssize_t na,
                                    Py_ssize_t nb, Py_ssize_t top,
                                    int64_t* hits) noexcept nogil:
    """The pair's na + nb token ids in ids (a prediction of na, then a
    reference of nb; all in [0, top], top < DIRECT_LIMIT) replaced, in
    place, by ids for the kernels; returns the number of ids used (the
    kernels' vocab), -1 when out of memory. (In place: the loops then keep
    one pointer to the ids, not two, in registers.)

    The kernels only compare ids for equality across the two rows, so any
    numbering that keeps the prediction's distinct ids distinct and never
    gives a reference id absent from the prediction a prediction id will do.
    This one needs no dependent chain, no branch and no table reset: a
    prediction id is the position of its first occurrence (< na), a
    reference id the same if the prediction holds it, else na. The table by
    id (sc.direct) is written before it is read for every id of the pair,
    so what earlier pairs left in it never matters. The vocab is then na + 1
    whatever the number of distinct ids: up to POSITION_IDS_MAX prediction
    ids; beyond, the ids are made consecutive (_compact) so that the kernels'
    tables by id stay as small as the distinct ids allow.

    With hits not NULL, na <= POSITION_IDS_MAX and nb <= COUNTED_REF_MAX,
    the clipped unigram and bigram overlaps are counted in the pass that
    writes the ids (_write_and_count) into hits[0] and hits[1]; hits[0] is
    -1 otherwise."""
    cdef Py_ssize_t k, n = na + nb
    cdef int32_t* direct
    cdef int32_t nai = <int32_t>na
    if top >= sc.direct_cap and grow_array(<void**>&sc.direct, &sc.direct_cap,
                                           top + 1 if top + 1 > 1024 else 1024,
                                           sizeof(int32_t), -1) < 0:
        return -1
    direct = sc.direct
    # (two ids an iteration in both loops: half the loops' own instructions)
    k = na
    while k < n - 1:
        direct[ids[k]] = nai
        direct[ids[k + 1]] = nai
        k += 2
    if k < n:
        direct[ids[k]] = nai
    # backwards, k before k - 1: the first occurrence writes last
    k = na - 1
    while k >= 1:
        direct[ids[k]] = <int32_t>k
        direct[ids[k - 1]] = <int32_t>(k - 1)
        k -= 2
    if k == 0:
        direct[ids[0]] = 0
    if hits != NULL:
        hits[0] = -1
        if na <= POSITION_IDS_MAX and nb <= COUNTED_REF_MAX:
            return _write_and_count(sc, ids, na, nb, hits)
    for k in range(n):
        ids[k] = direct[ids[k]]
    if na <= POSITION_IDS_MAX:
        return na + 1
    return _compact(sc, ids, na, nb)


cdef Py_ssize_t _write_and_count(Scratch* sc, int32_t* ids, Py_ssize_t na,
                                 Py_ssize_t nb, int64_t* hits) noexcept nogil:
    """_number_by_position's last pass (ids[k] <- the position id of token
    id ids[k], from sc.direct), counting as it goes rouge1's and rouge2's
    clipped overlaps into hits[0] and hits[1] (na <= POSITION_IDS_MAX, nb <=
    COUNTED_REF_MAX): the loads, the loop and the ids in registers serve the
    three, where the overlap kernel would read the ids again in four more
    passes. Returns the vocab, na + 1; -1 when out of memory.

    With V = na + 1 ids, the unigram counts are two histograms of V (the
    prediction's, the reference's; then the sum of their minima, and a
    memset of 2V; int16, every count and the sum at most COUNTED_REF_MAX:
    the minima then take SSE2's pminsw, 8 lanes, not 4 int32 lanes
    compared and blended), the bigram counts a table of V * V (at most
    2**20: the prediction's bigrams counted up, the reference's taken down
    while there are any, then the prediction's set back to 0 by their keys,
    kept in sc.keys, not computed again): both tables hold zeros between
    pairs. Every id is in [0, na], so every index is in its table.
    Both loops take two ids an iteration (half their own instructions; the
    second id's counts are updated after the first's, which may be the
    same entry)."""
    cdef Py_ssize_t k, V = na + 1, d, e, prev, key, n = na + nb
    cdef int16_t x, y, h1 = 0              # (h1 <= na: int16 lanes, vectorized)
    cdef int32_t h2 = 0                    # (< na: int32, as the flags added to it)
    cdef const int32_t* direct = sc.direct
    cdef int16_t* uni
    cdef int16_t* ref_uni
    cdef int32_t* bi
    cdef int32_t* keys
    cdef int32_t* at
    cdef int32_t* last
    if grow_array(<void**>&sc.uni, &sc.uni_cap, 2 * V, sizeof(int16_t), 0) < 0 or \
            grow_array(<void**>&sc.bi, &sc.bi_cap, V * V, sizeof(int32_t), 0) < 0 or \
            grow_array(<void**>&sc.keys, &sc.keys_cap, V, sizeof(int32_t), -1) < 0:
        return -1
    uni = sc.uni
    ref_uni = sc.uni + V
    bi = sc.bi
    keys = sc.keys
    if na:
        prev = direct[ids[0]]
        ids[0] = <int32_t>prev
        uni[prev] += 1
        k = 1
        while k < na - 1:
            d = direct[ids[k]]
            ids[k] = <int32_t>d
            uni[d] += 1
            key = prev * V + d
            keys[k] = <int32_t>key
            bi[key] += 1
            e = direct[ids[k + 1]]
            ids[k + 1] = <int32_t>e
            uni[e] += 1
            key = d * V + e
            keys[k + 1] = <int32_t>key
            bi[key] += 1
            prev = e
            k += 2
        if k < na:
            d = direct[ids[k]]
            ids[k] = <int32_t>d
            uni[d] += 1
            key = prev * V + d
            keys[k] = <int32_t>key
            bi[key] += 1
    if nb:
        # (a pointer along the reference, not an index: the loop's values
        # then fit in registers)
        at = ids + na
        prev = direct[at[0]]
        at[0] = <int32_t>prev
        ref_uni[prev] += 1
        at += 1
        last = ids + n - 1
        while at < last:
            d = direct[at[0]]
            at[0] = <int32_t>d
            ref_uni[d] += 1
            h2 += take_count(bi, prev * V + d)
            e = direct[at[1]]
            at[1] = <int32_t>e
            ref_uni[e] += 1
            h2 += take_count(bi, d * V + e)
            prev = e
            at += 2
        if at == last:
            d = direct[at[0]]
            at[0] = <int32_t>d
            ref_uni[d] += 1
            h2 += take_count(bi, prev * V + d)
    # (two keys an iteration: half the loop's own instructions)
    k = 1
    while k < na - 1:
        bi[keys[k]] = 0
        bi[keys[k + 1]] = 0
        k += 2
    if k < na:
        bi[keys[k]] = 0
    for k in range(V):
        # (the minima over the whole table: no chain through memory)
        x = uni[k]
        y = ref_uni[k]
        h1 += x if x < y else y
    memset(uni, 0, <size_t>(2 * V) * sizeof(int16_t))
    hits[0] = h1
    hits[1] = h2
    return V


# _write_and_count's address, taken so that gcc does not inline it into
# _score_pair (as a static function called once): its loops then have every
# register to themselves, where inlined they kept the bigram hits and the end
# of the row on the stack.
cdef void* _write_and_count_not_inlined = <void*>_write_and_count


cdef Py_ssize_t _compact(Scratch* sc, int32_t* ids, Py_ssize_t na,
                         Py_ssize_t nb) noexcept nogil:
    """Position ids (_number_by_position) made consecutive, in place: the
    prediction's in order of first occurrence, then one id for every
    reference id absent from the prediction. Returns the number of ids
    (the prediction's distinct ids + 1), -1 when out of memory."""
    cdef Py_ssize_t k, n = na + nb
    cdef int32_t count = 0
    cdef int32_t* rank
    if grow_array(<void**>&sc.rank, &sc.rank_cap, na + 1, sizeof(int32_t), -1) < 0:
        return -1
    rank = sc.rank
    for k in range(na):
        rank[k] = count
        count += ids[k] == k
    rank[na] = count
    for k in range(n):
        # every id is in [0, na]: a first position of the prediction, or na
        ids[k] = rank[ids[k]]
    return count + 1


cdef void _forget(Scratch* sc, Py_ssize_t nv) noexcept nogil:
    """The numbering tables back to -1: the nv token ids seen in this pair
    (recorded, not read again from the rows, which another thread may be
    changing)."""
    cdef Py_ssize_t k
    cdef int64_t v
    cdef bint big = False
    for k in range(nv):
        v = sc.seen[k]
        if v < DIRECT_LIMIT:
            sc.small[v] = -1
        else:
            big = True
    if big:
        gram_table_clear(&sc.big)
        memset(sc.big_dense, 0xFF, <size_t>sc.big_dense_cap * sizeof(int32_t))


cdef Py_ssize_t _sentences(const int32_t* tok, const Row* r,
                           const int64_t* sep, Py_ssize_t nsep,
                           int32_t* out, Py_ssize_t* off) noexcept nogil:
    """rougeLsum's sentences of one row: its tokens but the separators
    (ids in sep), cut at each separator. Writes the kept tokens (their dense
    ids, from tok) to out and nr + 1 offsets to off; returns nr, the number
    of sentences (at most r.n + 1)."""
    cdef Py_ssize_t k, s, m = 0, nr = 0
    cdef int64_t v
    cdef bint is_sep
    off[0] = 0
    for k in range(r.n):
        v = _at(r, k)
        is_sep = False
        for s in range(nsep):
            if sep[s] == v:
                is_sep = True
                break
        if is_sep:
            nr += 1
            off[nr] = m
        else:
            out[m] = tok[k]
            m += 1
    nr += 1
    off[nr] = m
    return nr


cdef int _score_pair(Scratch* sc, const Row* p, const Row* q, const int* kinds,
                     Py_ssize_t nkinds, const int64_t* sep, Py_ssize_t nsep,
                     double* out, Py_ssize_t out_step, int64_t* cnt, Py_ssize_t cnt_step,
                     bint count12, BadId* bad) noexcept nogil:
    """One pair (p the prediction, q the reference): P/R/F of each kind into
    out[(3k + j) * out_step] (and/or the counts into cnt). 0 when done, 1 on
    a bad id (bad.side: 0 prediction, 1 reference), -1 when out of memory.
    count12: the kinds hold 1 or 2 (their overlaps are then counted while
    the ids are numbered, when the pair allows)."""
    cdef Py_ssize_t na = p.n, nb = q.n, nv = 0, k, npr, nrr, ca, cb
    cdef int rc = 0
    cdef int kind
    cdef int64_t bits
    cdef int64_t hits = 0, pred_total = 0, ref_total = 0
    cdef int64_t hits12[2]
    cdef int32_t* a
    cdef int32_t* b
    cdef double prf[3]
    if grow_array(<void**>&sc.ids, &sc.ids_cap, na + nb + 1, sizeof(int32_t), -1) < 0 or \
            grow_array(<void**>&sc.raw, &sc.raw_cap, na + nb + 1, sizeof(int32_t), -1) < 0 or \
            grow_array(<void**>&sc.seen, &sc.seen_cap, na + nb + 1, sizeof(int64_t), -1) < 0:
        return -1
    bits = _load(p, sc.raw) | _load(q, sc.raw + na)
    if 0 <= bits < DIRECT_LIMIT:
        # the ids numbered where they were loaded
        a = sc.raw
        b = sc.raw + na
        nv = _number_by_position(sc, sc.raw, na, nb, bits, hits12 if count12 else NULL)
        if nv < 0:
            return -1
    else:
        a = sc.ids
        b = sc.ids + na
        # An id of DIRECT_LIMIT or more, or out of range (found and named here).
        hits12[0] = -1
        bad.side = 0
        rc = _number(sc, p, a, &nv, bad)
        if rc == 0:
            bad.side = 1
            rc = _number(sc, q, b, &nv, bad)
        _forget(sc, nv)
        if rc != 0:
            return rc
        if nv == 0:
            nv = 1
    for k in range(nkinds):
        kind = kinds[k]
        if kind == ROUGE_L:
            hits = lcs_length_scratch(a, na, b, nb, nv, &sc.lcs) if na and nb else 0
            pred_total = na
            ref_total = nb
        elif kind == ROUGE_LSUM:
            if grow_array(<void**>&sc.stok, &sc.stok_cap, na + nb + 1, sizeof(int32_t),
                          -1) < 0 or \
                    grow_array(<void**>&sc.soff, &sc.soff_cap, na + nb + 4,
                               sizeof(Py_ssize_t), -1) < 0:
                return -1
            # The reference's sentences first, then the prediction's.
            nrr = _sentences(b, q, sep, nsep, sc.stok, sc.soff)
            ref_total = sc.soff[nrr]
            npr = _sentences(a, p, sep, nsep, sc.stok + ref_total, sc.soff + nrr + 1)
            pred_total = sc.soff[nrr + 1 + npr]
            if ref_total and pred_total:
                hits = summary_hits_scratch(sc.stok, sc.soff, nrr, sc.stok + ref_total,
                                            sc.soff + nrr + 1, npr, nv, &sc.lcs)
            else:
                hits = 0
        else:
            ca = na - kind + 1
            cb = nb - kind + 1
            pred_total = ca if ca > 0 else 0
            ref_total = cb if cb > 0 else 0
            if count12 and hits12[0] >= 0 and kind <= 2:
                hits = hits12[kind - 1]
            else:
                hits = clipped_overlap_scratch(a, na, b, nb, nv, kind, &sc.overlap)
        if hits < 0:
            return -1
        if cnt != NULL:
            cnt[(3 * k) * cnt_step] = hits
            cnt[(3 * k + 1) * cnt_step] = pred_total
            cnt[(3 * k + 2) * cnt_step] = ref_total
        if out != NULL:
            if kind == ROUGE_L or kind == ROUGE_LSUM:
                lcs_prf(hits, ref_total, pred_total, prf)
            else:
                ngram_prf(hits, ref_total, pred_total, prf)
            out[(3 * k) * out_step] = prf[0]
            out[(3 * k + 1) * out_step] = prf[1]
            out[(3 * k + 2) * out_step] = prf[2]
    return 0


def score_rows(IdScratch scratch not None, IdRows preds not None, IdRows refs not None,
               kinds, sep, ref_item, Py_ssize_t per_pred, Py_ssize_t col0,
               Py_ssize_t col_step, Py_ssize_t lo, Py_ssize_t hi, out, counts, cancel):
    """Score reference rows lo .. hi - 1 of ``refs`` against their predictions.

    Reference row k goes with prediction row ``ref_item[k]`` (an int64
    array) or, when ``ref_item`` is None, ``k // per_pred``; its scores go
    to column ``col0 + k * col_step`` of ``out`` (float64, shape
    (3 * kinds, columns): P, R, F of each kind in turn) and/or ``counts``
    (int64, same shape: hits, prediction total, reference total). ``kinds``:
    n >= 1 or KIND_L or KIND_LSUM; ``sep``: an int64 array of rougeLsum's
    sentence separators, or None. ``cancel`` (an object with ``is_set()``,
    or None) is looked at between pairs every few million token steps: the
    call then returns early. A token id outside [0, 2**31 - 1) is a
    ValueError naming its row and position.
    """
    cdef Py_ssize_t nk = len(kinds), k, ncols = 0, it = 0, first, last
    cdef int kind_values[64]
    cdef const int64_t[::1] sepv
    cdef const int64_t[::1] item
    cdef double[:, ::1] outv
    cdef int64_t[:, ::1] cntv
    cdef double* outp = NULL
    cdef int64_t* cntp = NULL
    cdef const int64_t* sepp = NULL
    cdef const int64_t* itemp = NULL
    cdef Py_ssize_t nsep = 0, out_step = 0, cnt_step = 0, col, work = 0
    cdef Row p, q
    cdef BadId bad
    cdef int rc = 0
    cdef bint count12 = False
    cdef Py_ssize_t bad_row = -1
    cdef Scratch* sc = &scratch.c
    cdef const Rows* pr = &preds.c
    cdef const Rows* rr = &refs.c
    if nk > 64:
        raise ValueError("at most 64 rouge types at once")
    for k in range(nk):
        kind_values[k] = kinds[k]
        if kind_values[k] < 1 and kind_values[k] != ROUGE_L and kind_values[k] != ROUGE_LSUM:
            raise ValueError(f"unknown kind {kind_values[k]}")
        count12 = count12 or kind_values[k] == 1 or kind_values[k] == 2
    if sep is not None:
        sepv = sep
        nsep = sepv.shape[0]
        if nsep:
            sepp = &sepv[0]
    if ref_item is not None:
        item = ref_item
        if item.shape[0] != rr.rows:
            raise ValueError("ref_item must have one entry per reference row")
        if rr.rows:
            itemp = &item[0]
    elif per_pred < 1:
        raise ValueError("per_pred must be >= 1")
    if out is not None:
        outv = out
        if outv.shape[0] != 3 * nk:
            raise ValueError("out must have 3 rows per kind")
        ncols = outv.shape[1]
        out_step = ncols
    if counts is not None:
        cntv = counts
        if cntv.shape[0] != 3 * nk or (out is not None and cntv.shape[1] != ncols):
            raise ValueError("counts must have 3 rows per kind (and out's columns)")
        ncols = cntv.shape[1]
        cnt_step = ncols
    if lo < 0 or hi > rr.rows or lo > hi:
        raise ValueError(f"rows {lo} .. {hi} outside the {rr.rows} reference rows")
    if hi > lo:
        # Every column written must exist (the columns are an arithmetic run).
        first = col0 + lo * col_step
        last = col0 + (hi - 1) * col_step
        if nk and (first < 0 or first >= ncols or last < 0 or last >= ncols):
            raise ValueError(f"columns {first} .. {last} outside the {ncols} columns")
    k = lo
    while k < hi and rc == 0:
        with nogil:
            while k < hi:
                it = itemp[k] if itemp != NULL else k // per_pred
                if _row(rr, k, &q) < 0:
                    rc = 2
                    break
                if _row(pr, it, &p) < 0:
                    rc = 3
                    break
                col = col0 + k * col_step
                if out_step:
                    outp = &outv[0, col]
                if cnt_step:
                    cntp = &cntv[0, col]
                rc = _score_pair(sc, &p, &q, kind_values, nk, sepp, nsep,
                                 outp, out_step, cntp, cnt_step, count12, &bad)
                if rc != 0:
                    bad_row = it if bad.side == 0 else k
                    break
                k += 1
                work += p.n + q.n + (p.n >> 6) * q.n
                if work > CANCEL_BUDGET:
                    break
        if rc == 0 and work > CANCEL_BUDGET:
            work = 0
            if cancel is not None and cancel.is_set():
                return
    if rc == -1:
        raise MemoryError()
    if rc == 1:
        rows = preds if bad.side == 0 else refs
        where = (f"[{bad_row // rows.group}][{bad_row % rows.group}]" if rows.group > 1
                 else f"[{bad_row}]")
        raise ValueError(f"{rows.name}{where}[{bad.pos}]: token id {bad.value} is outside "
                         f"[0, {ID_LIMIT}): token ids must be non-negative and below "
                         "2**31 - 1")
    if rc == 2:
        raise ValueError(f"{refs.name}: row {k}'s offsets fall outside its values")
    if rc == 3:
        raise ValueError(f"{preds.name}: row {it} (of reference row {k}) is not one of "
                         f"its {pr.rows} rows")
