# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled de-duplication filter: the greedy Self-Instruct/Alpaca rule over
a ``_text_index.TextIndex``'s texts, whose units it reads in place
(``_text_index.pxd``). ``_dedup_filter_py`` is the pure-Python twin and the
readable specification (its docstring explains the filter's bounds).

Each text is a sorted array of element ranks (rarest first), each kept text
is listed under its prefix elements (an inverted index in one pool), and a
probed text meets only the kept texts listed under its own prefix; a
candidate within every bound is checked by its element overlap and only
then scored: its LCS with the probed text as the bit-vector side
(``_match_masks.pxd``), and rouge-score's F (``_text_index.pxd``).

While a ``Dedup`` is open it holds a read of its index, whose texts and
query cannot change meanwhile. ``probe`` runs on several threads at once
(each with its own part), with the GIL released; ``commit`` takes the
filter's lists alone. A call that would break that raises RuntimeError
instead of waiting.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memset

from rougekit._core._match_masks cimport (Masks, PairScratch, masked_lcs_hits, masks_build,
                                           masks_clear, masks_cover, masks_free, pair_reserve,
                                           pair_scratch_free)
from rougekit._core._mem cimport MAX_IDS, grow_array
from rougekit._core._text_index cimport TextIndex, hits_fmeasure, mask_budget_words

cdef extern from "compat.h" nogil:
    int rk_flag_try_acquire(long* f)
    void rk_flag_release(long* f)
    int rk_rw_try_read(long* s)
    void rk_rw_read_done(long* s)
    int rk_rw_try_write(long* s)
    void rk_rw_write_done(long* s)
    long rk_fetch_add(long* p, long v)

__all__ = ["Dedup", "min_hits", "prefix_length", "length_range"]

cdef enum:
    # A text's sorted elements: insertion sort up to this size, else qsort.
    SMALL_SORT = 32
    # int32 fields of a Dedup candidate (Dedup._violates)
    CAND_FIELDS = 7

# See _dedup_filter_py.MARGIN.
cdef double MARGIN = 1e-9


# --- the filter's bounds (_dedup_filter_py has the reasoning) --------------------

cdef Py_ssize_t _min_hits(Py_ssize_t a, Py_ssize_t b, double thr) noexcept nogil:
    cdef Py_ssize_t m, h
    cdef double start
    if a == 0 or b == 0:
        return -1
    m = a if a < b else b
    start = thr * <double>(a + b) * 0.5 * (1.0 - MARGIN)
    if not (start <= <double>m + 1.0):
        return -1
    h = <Py_ssize_t>start - 1
    if h < 0:
        h = 0
    while h <= m:
        if hits_fmeasure(h, a, b) > thr:
            return h
        h += 1
    return -1


cdef Py_ssize_t _prefix_length(Py_ssize_t count, double thr) noexcept nogil:
    cdef double x
    cdef Py_ssize_t t
    if count <= 0 or not (thr < 1.0):
        return 0
    x = thr * <double>count / (2.0 - thr)
    t = <Py_ssize_t>(x - x * MARGIN) + 1
    return count - t + 1 if count - t + 1 > 0 else 0


cdef void _length_range(Py_ssize_t count, double thr, Py_ssize_t* low,
                        Py_ssize_t* high) noexcept nogil:
    cdef double x = thr * <double>count / (2.0 - thr), y
    low[0] = <Py_ssize_t>(x - x * MARGIN)
    high[0] = MAX_IDS
    if thr > 0.0:
        y = <double>count * (2.0 - thr) / thr
        y = y + y * MARGIN + 1.0
        if y < <double>MAX_IDS:
            high[0] = <Py_ssize_t>y



def min_hits(Py_ssize_t target_count, Py_ssize_t prediction_count, double threshold):
    """The fewest common units giving F > threshold, or -1 (_dedup_filter_py.min_hits).

    >>> min_hits(10, 10, 0.7), min_hits(10, 30, 0.7), min_hits(0, 5, 0.0)
    (8, -1, -1)
    """
    return _min_hits(target_count, prediction_count, threshold)


def prefix_length(Py_ssize_t count, double threshold):
    """Elements of a text to list or probe (_dedup_filter_py.prefix_length).

    >>> prefix_length(10, 0.7), prefix_length(10, 0.0), prefix_length(10, 1.0)
    (5, 10, 0)
    """
    return _prefix_length(count, threshold)


def length_range(Py_ssize_t count, double threshold):
    """``(low, high)``: sizes that may pass (_dedup_filter_py.length_range); ``high``
    is None when unbounded.

    >>> length_range(10, 0.7)
    (5, 19)
    """
    cdef Py_ssize_t low, high
    _length_range(count, threshold, &low, &high)
    return low, (None if high == MAX_IDS else high)


# --- the greedy filter ----------------------------------------------------------------

ctypedef struct DedupScratch:
    # One thread's working memory in a Dedup.
    Masks mk                # the probed text's masks (rougeL)
    PairScratch ps
    int32_t* mark           # per text: 1 + its slot while a candidate of the probe
    uint64_t seen[64]       # a bit per hash of each candidate: most list entries
                            # are ruled out here, in cache, without reading mark
    int32_t* cand           # per slot: CAND_FIELDS ints (Dedup._violates)
    Py_ssize_t cand_cap
    int32_t* need           # min_hits by size of the other text, valid where
    uint32_t* stamp         # stamp[size] == probe (sizes 0 .. longest text)
    uint32_t probe
    int64_t nmet, candidates, verified
    long busy
    char pad[64]            # threads write their own scratch: no shared cache line


cdef int _cmp_int32(const void* x, const void* y) noexcept nogil:
    cdef int32_t a = (<const int32_t*>x)[0], b = (<const int32_t*>y)[0]
    return (a > b) - (a < b)


cdef void _sort_int32(int32_t* v, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef int32_t t
    if n > SMALL_SORT:
        qsort(v, <size_t>n, sizeof(int32_t), _cmp_int32)
        return
    for i in range(1, n):
        t = v[i]
        j = i - 1
        while j >= 0 and v[j] > t:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = t


cdef inline Py_ssize_t _overlap(const int32_t* x, Py_ssize_t a, const int32_t* y,
                                Py_ssize_t b, Py_ssize_t need) noexcept nogil:
    """Common elements of two ascending arrays; stops early (returning less
    than need) once need can no longer be reached."""
    cdef Py_ssize_t i = 0, j = 0, o = 0, ra, rb
    while i < a and j < b:
        ra = a - i
        rb = b - j
        if o + (ra if ra < rb else rb) < need:
            return o
        if x[i] == y[j]:
            o += 1
            i += 1
            j += 1
        elif x[i] < y[j]:
            i += 1
        else:
            j += 1
    return o


cdef inline uint32_t _seen_bit(int32_t y) noexcept nogil:
    """Which of DedupScratch.seen's 4096 bits stands for text y."""
    return (<uint32_t>y * <uint32_t>2654435761u) >> 20


cdef class Dedup:
    """The greedy filter over ``index``'s texts ``first`` to the end, against
    the texts before ``first`` (_dedup_filter_py has the whole story). While
    it is open, the index's texts and query cannot change.

    ``Dedup(index, first, threshold, parts)``: up to ``parts`` threads may
    call ``probe`` at once, each with its own ``part``.
    """
    cdef TextIndex index
    cdef bint reading          # holds a read of index.state
    cdef const int32_t* units  # the index's arrays, which stay put while it is read
    cdef const Py_ssize_t* off
    cdef Py_ssize_t nunits
    cdef Py_ssize_t n, first, parts, nunique, nlisted, U, longest
    cdef double thr
    cdef bint lcs
    cdef Py_ssize_t mask_budget  # mask_budget_words() when made (_match_masks.pxd)
    cdef int32_t* el           # per text, its element ranks ascending (index.off)
    cdef Py_ssize_t* start     # listed rank r >= nunique: its entries start at
    cdef int32_t* fill         # pool[3 * start[r - nunique]], fill[r - nunique] of
    cdef int32_t* pool         # them: (kept text, position of r in it, its size),
                               # texts ascending
    cdef DedupScratch* sc           # parts + 1: the last one is commit's
    cdef long state            # probes read the lists, commit writes them
    cdef long taken            # texts of the current block taken by probes

    def __cinit__(self, TextIndex index not None, Py_ssize_t first, double threshold,
                  Py_ssize_t parts):
        cdef Py_ssize_t i
        cdef int rc
        if not 0 <= first <= len(index):
            raise ValueError(f"need 0 <= first <= {len(index)}, got first={first}")
        if not threshold >= 0.0:
            raise ValueError(f"threshold must be >= 0 here, got {threshold!r}")
        if parts < 1 or parts > 4096:
            raise ValueError(f"parts must be in [1, 4096], got {parts}")
        if not rk_rw_try_read(&index.state):
            raise RuntimeError("the index is being changed by another thread")
        self.index = index
        self.reading = True
        self.n = index.ntexts
        self.units = index.units
        self.off = index.off
        self.nunits = index.nunits
        self.first = first
        self.parts = parts
        self.thr = threshold
        self.lcs = index.lcs
        self.mask_budget = mask_budget_words()
        self.state = 0
        self.taken = 0
        self.U = index.unit_id_bound()
        self.longest = 0
        for i in range(self.n):
            if self.off[i + 1] - self.off[i] > self.longest:
                self.longest = self.off[i + 1] - self.off[i]
        self.sc = <DedupScratch*>calloc(parts + 1, sizeof(DedupScratch))
        if self.sc == NULL:
            raise MemoryError()
        with nogil:
            rc = self._elements()
            if rc == 0:
                rc = self._lists()
            for i in range(parts + 1):
                if rc < 0:
                    break
                self.sc[i].mark = <int32_t*>calloc(self.n + 1, sizeof(int32_t))
                self.sc[i].need = <int32_t*>malloc((self.longest + 1) * sizeof(int32_t))
                self.sc[i].stamp = <uint32_t*>calloc(self.longest + 1, sizeof(uint32_t))
                if (self.sc[i].mark == NULL or self.sc[i].need == NULL
                        or self.sc[i].stamp == NULL
                        or masks_cover(&self.sc[i].mk, self.U) < 0):
                    rc = -1
            if rc == 0:
                for i in range(first):
                    self._insert(i)
        if rc < 0:
            raise MemoryError()

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.sc != NULL:
            for i in range(self.parts + 1):
                masks_free(&self.sc[i].mk)
                pair_scratch_free(&self.sc[i].ps)
                free(self.sc[i].mark)
                free(self.sc[i].cand)
                free(self.sc[i].need)
                free(self.sc[i].stamp)
            free(self.sc)
        free(self.el)
        free(self.start)
        free(self.fill)
        free(self.pool)
        if self.reading:
            rk_rw_read_done(&self.index.state)

    def close(self):
        """Let the index change again (also done when the object goes)."""
        if not rk_rw_try_write(&self.state):
            raise RuntimeError("this Dedup is in use by another thread")
        if self.reading:
            self.reading = False
            rk_rw_read_done(&self.index.state)
        rk_rw_write_done(&self.state)

    def stats(self):
        """Counts so far: entries of the inverted index read (met), pairs
        within the size and position bounds (candidates), and pairs scored
        with rouge-score's F (verified); _dedup_filter_py.Dedup.stats."""
        cdef Py_ssize_t i
        cdef int64_t m = 0, c = 0, v = 0
        for i in range(self.parts + 1):
            m += self.sc[i].nmet
            c += self.sc[i].candidates
            v += self.sc[i].verified
        return {"met": m, "candidates": c, "verified": v}

    # -- building ---------------------------------------------------------------------

    cdef int _elements(self) noexcept nogil:
        """el: each text's elements (the k-th occurrence of unit u is element
        (u, k)) as ranks in the order (number of texts holding it, element),
        ascending; -1 when out of memory."""
        cdef int rc = -1
        cdef int32_t* occ = <int32_t*>calloc(self.U + 1, sizeof(int32_t))
        cdef int32_t* most = <int32_t*>calloc(self.U + 1, sizeof(int32_t))
        cdef Py_ssize_t* base = <Py_ssize_t*>malloc((self.U + 1) * sizeof(Py_ssize_t))
        self.el = <int32_t*>malloc((self.nunits + 1) * sizeof(int32_t))
        if occ != NULL and most != NULL and base != NULL and self.el != NULL:
            rc = self._rank_elements(occ, most, base)
        free(occ)
        free(most)
        free(base)
        return rc

    cdef int _rank_elements(self, int32_t* occ, int32_t* most,
                            Py_ssize_t* base) noexcept nogil:
        cdef Py_ssize_t t, j, E = 0, nb = self.n + 2
        cdef int32_t u
        # Element (u, k) is base[u] + k, most[u] being u's most occurrences
        # in one text; occ counts occurrences within a text (then zeroed).
        for t in range(self.n):
            for j in range(self.off[t], self.off[t + 1]):
                u = self.units[j]
                occ[u] += 1
                if occ[u] > most[u]:
                    most[u] = occ[u]
            for j in range(self.off[t], self.off[t + 1]):
                occ[self.units[j]] = 0
        for j in range(self.U):
            base[j] = E
            E += most[j]
        cdef int32_t* df = <int32_t*>calloc(E + 1, sizeof(int32_t))
        cdef int32_t* rank = <int32_t*>malloc((E + 1) * sizeof(int32_t))
        cdef Py_ssize_t* bucket = <Py_ssize_t*>calloc(nb + 1, sizeof(Py_ssize_t))
        if df == NULL or rank == NULL or bucket == NULL:
            free(df)
            free(rank)
            free(bucket)
            return -1
        for t in range(self.n):
            for j in range(self.off[t], self.off[t + 1]):
                u = self.units[j]
                df[base[u] + occ[u]] += 1
                occ[u] += 1
            for j in range(self.off[t], self.off[t + 1]):
                occ[self.units[j]] = 0
        # Counting sort by document frequency (1 .. n), stable in the element.
        for j in range(E):
            bucket[df[j] + 1] += 1
        for j in range(1, nb + 1):
            bucket[j] += bucket[j - 1]
        for j in range(E):
            rank[j] = <int32_t>bucket[df[j]]
            bucket[df[j]] += 1
        # Elements of one text only rank first and share nothing: no list.
        self.nunique = 0
        for j in range(E):
            if df[j] == 1:
                self.nunique += 1
        self.nlisted = E - self.nunique
        for t in range(self.n):
            for j in range(self.off[t], self.off[t + 1]):
                u = self.units[j]
                self.el[j] = rank[base[u] + occ[u]]
                occ[u] += 1
            for j in range(self.off[t], self.off[t + 1]):
                occ[self.units[j]] = 0
            _sort_int32(self.el + self.off[t], self.off[t + 1] - self.off[t])
        free(df)
        free(rank)
        free(bucket)
        return 0

    cdef int _lists(self) noexcept nogil:
        """Room in the pool for every text each listed rank could hold."""
        cdef Py_ssize_t t, k, p, r, total = 0
        self.start = <Py_ssize_t*>malloc((self.nlisted + 1) * sizeof(Py_ssize_t))
        self.fill = <int32_t*>calloc(self.nlisted + 1, sizeof(int32_t))
        if self.start == NULL or self.fill == NULL:
            return -1
        for t in range(self.n):
            p = _prefix_length(self.off[t + 1] - self.off[t], self.thr)
            for k in range(p):
                r = self.el[self.off[t] + k] - self.nunique
                if r >= 0:
                    self.fill[r] += 1
        for r in range(self.nlisted):
            self.start[r] = total
            total += self.fill[r]
            self.fill[r] = 0
        self.pool = <int32_t*>malloc((3 * total + 3) * sizeof(int32_t))
        return 0 if self.pool != NULL else -1

    cdef void _insert(self, Py_ssize_t i) noexcept nogil:
        """List text i under its prefix elements (as a kept text)."""
        cdef Py_ssize_t k, r, p = _prefix_length(self.off[i + 1] - self.off[i], self.thr)
        cdef int32_t* e
        for k in range(p):
            r = self.el[self.off[i] + k] - self.nunique
            if r >= 0:
                e = self.pool + 3 * (self.start[r] + self.fill[r])
                e[0] = <int32_t>i
                e[1] = <int32_t>k
                e[2] = <int32_t>(self.off[i + 1] - self.off[i])
                self.fill[r] += 1

    # -- one text against the kept ones ---------------------------------------------

    cdef inline Py_ssize_t _need(self, DedupScratch* sc, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        """min_hits(a, b), remembered per size b for the current probe."""
        if sc.stamp[b] != sc.probe:
            sc.stamp[b] = sc.probe
            sc.need[b] = <int32_t>_min_hits(a, b, self.thr)
        return sc.need[b]

    cdef int _check(self, DedupScratch* sc, Py_ssize_t x, Py_ssize_t a, const int32_t* cd,
                    bint* built) noexcept nogil:
        """Score candidate cd of text x: 1 if F > threshold, 0 if not, -1
        when out of memory. Its exact element overlap is the cd[1] shared
        elements up to the last meeting plus a merge of what follows."""
        cdef int32_t y = cd[0]
        cdef Py_ssize_t b = cd[6], need = sc.need[b], o, h
        sc.candidates += 1
        o = cd[1] + _overlap(self.el + self.off[x] + cd[2] + 1, a - cd[2] - 1,
                             self.el + self.off[y] + cd[3] + 1, b - cd[3] - 1,
                             need - cd[1])
        if o < need:
            return 0
        sc.verified += 1
        if not self.lcs:
            h = o           # rougeN: the element overlap is the clipped overlap
        else:
            if not built[0]:
                if masks_build(&sc.mk, self.units + self.off[x], a, True,
                               self.mask_budget) < 0:
                    return -1
                built[0] = True
                if pair_reserve(&sc.ps, &sc.mk, True, self.U) < 0:
                    return -1
            h = masked_lcs_hits(&sc.mk, self.units + self.off[y], b, sc.ps.S, sc.ps.head)
            if h < 0:
                return -1
        return 1 if hits_fmeasure(h, a, b) > self.thr else 0

    cdef int _violates(self, DedupScratch* sc, Py_ssize_t x, Py_ssize_t id_lo,
                       Py_ssize_t id_hi) noexcept nogil:
        """1 if text x has F > threshold against a listed text y with
        id_lo <= y < id_hi, else 0; -1 when out of memory."""
        cdef Py_ssize_t a = self.off[x + 1] - self.off[x], b, p, low, high, i, j, q, r
        cdef Py_ssize_t nmet = 0, c, need, room, rest, ncand = 0
        cdef uint32_t bit
        cdef int32_t* cd
        cdef const int32_t* ex = self.el + self.off[x]
        cdef const int32_t* entries
        cdef int32_t y
        cdef int rc = 0
        cdef bint built = False
        p = _prefix_length(a, self.thr)
        if p == 0:
            return 0
        _length_range(a, self.thr, &low, &high)
        sc.probe += 1
        if sc.probe == 0:           # wrapped: forget every stamp
            memset(sc.stamp, 0, (self.longest + 1) * sizeof(uint32_t))
            sc.probe = 1
        # Meet the listed texts that share a prefix element. Lists are
        # ascending: a probe (id_lo 0) reads them from the start, a commit
        # only the tail of texts kept in its block. The first meeting of x
        # and y is at the rarest element they share (i in x, j in y): all
        # the others lie after it in both, so they have at most
        # min(a - i, b - j) in common. A y that fails this fails it at every
        # later meeting too (both positions only grow), so only the ones
        # that pass are marked. A candidate is (y, meetings, last i, last j,
        # first i, scored yet).
        for i in range(p):
            r = ex[i] - self.nunique
            if r < 0:
                continue
            entries = self.pool + 3 * self.start[r]
            q = 0
            if id_lo > 0:
                q = self.fill[r]
                while q > 0 and entries[3 * (q - 1)] >= id_lo:
                    q -= 1
            while q < self.fill[r]:
                y = entries[3 * q]
                j = entries[3 * q + 1]
                b = entries[3 * q + 2]
                q += 1
                if y >= id_hi:
                    break
                nmet += 1
                if b < low or b > high:
                    continue            # never a candidate
                bit = _seen_bit(y)
                if (sc.seen[bit >> 6] >> (bit & 63)) & 1 and sc.mark[y] != 0:
                    cd = sc.cand + CAND_FIELDS * (sc.mark[y] - 1)
                    cd[1] += 1
                    cd[2] = <int32_t>i
                    cd[3] = <int32_t>j
                    continue
                need = self._need(sc, a, b)
                room = a - i if a - i < b - j else b - j
                if need < 0 or need > room:
                    continue
                if grow_array(<void**>&sc.cand, &sc.cand_cap, CAND_FIELDS * (ncand + 1),
                              sizeof(int32_t), -1) < 0:
                    rc = -1
                    break
                cd = sc.cand + CAND_FIELDS * ncand
                cd[0] = y
                cd[1] = 1
                cd[2] = <int32_t>i
                cd[3] = <int32_t>j
                cd[4] = <int32_t>i
                cd[5] = 0
                cd[6] = <int32_t>b
                ncand += 1
                sc.mark[y] = <int32_t>ncand
                sc.seen[bit >> 6] |= (<uint64_t>1) << (bit & 63)
            # A text met at every element since its first meeting, twice or
            # more, is likely a near-duplicate: scored at once, a hit ends
            # the probe without reading the other lists.
            c = 0
            while rc == 0 and c < ncand:
                cd = sc.cand + CAND_FIELDS * c
                c += 1
                if cd[5] == 0 and cd[2] == i and cd[1] >= 2 and cd[1] == i - cd[4] + 1:
                    cd[5] = 1
                    rc = self._check(sc, x, a, cd, &built)
            if rc != 0:
                break
        sc.nmet += nmet
        c = 0
        while rc == 0 and c < ncand:
            cd = sc.cand + CAND_FIELDS * c
            c += 1
            if cd[5]:
                continue
            b = cd[6]
            # Shared elements come in the same order in both texts, and the
            # ones up to the last meeting are the cd[1] met. A later one
            # within x's prefix was not met, so it (and all after it) lies
            # beyond y's listed prefix; else they all lie beyond x's prefix.
            room = a - cd[2] - 1
            if b - _prefix_length(b, self.thr) < room:
                room = b - _prefix_length(b, self.thr)
            rest = a - p if a - p < b - cd[3] - 1 else b - cd[3] - 1
            if rest > room:
                room = rest
            if cd[1] + room < sc.need[b]:
                continue
            rc = self._check(sc, x, a, cd, &built)
        for c in range(ncand):
            y = sc.cand[CAND_FIELDS * c]
            sc.mark[y] = 0
            bit = _seen_bit(y)
            sc.seen[bit >> 6] = 0
        if built:
            masks_clear(&sc.mk)
        return rc

    # -- blocks ----------------------------------------------------------------------------

    cdef int _check_block(self, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t nflags) except -1:
        if not self.first <= lo <= hi <= self.n:
            raise ValueError(f"need {self.first} <= lo <= hi <= {self.n}, got lo={lo}, hi={hi}")
        if nflags < self.n:
            raise ValueError(f"flags has {nflags} items, need {self.n}")
        return 0

    def probe(self, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t part, unsigned char[::1] flags):
        """``flags[i]`` = 1 if text i fails against the texts kept so far,
        else 0, for the texts i in [lo, hi) that no other probe call has
        taken since the last commit: threads calling it at once, each with
        its own part, share the block text by text (_dedup_filter_py.Dedup.probe).
        The GIL is released meanwhile."""
        self._check_block(lo, hi, flags.shape[0])
        if not 0 <= part < self.parts:
            raise ValueError(f"part must be in [0, {self.parts}), got {part}")
        if lo == hi:
            if not self.reading:
                raise ValueError("this Dedup is closed")
            return
        cdef DedupScratch* sc = &self.sc[part]
        cdef unsigned char* fl = &flags[0]
        cdef Py_ssize_t i
        cdef int r = 0
        if not rk_flag_try_acquire(&sc.busy):
            raise RuntimeError(f"part {part} is in use by another thread")
        if not rk_rw_try_read(&self.state):
            rk_flag_release(&sc.busy)
            raise RuntimeError("this Dedup is being committed to by another thread")
        if not self.reading:
            rk_rw_read_done(&self.state)
            rk_flag_release(&sc.busy)
            raise ValueError("this Dedup is closed")
        with nogil:
            while True:
                i = lo + rk_fetch_add(&self.taken, 1)
                if i >= hi:
                    break
                r = self._violates(sc, i, 0, lo)
                if r < 0:
                    break
                fl[i] = <unsigned char>r
            rk_rw_read_done(&self.state)
            rk_flag_release(&sc.busy)
        if r < 0:
            raise MemoryError()

    def commit(self, Py_ssize_t lo, Py_ssize_t hi, unsigned char[::1] flags):
        """Decide texts lo to hi - 1 in order, after ``probe`` flagged every
        one of them: a text not flagged is kept unless it fails against a
        text kept earlier in the block. Leaves ``flags[i]`` 0 for a kept
        text, 1 for a dropped one; returns the number kept."""
        self._check_block(lo, hi, flags.shape[0])
        if lo == hi:
            if not self.reading:
                raise ValueError("this Dedup is closed")
            return 0
        cdef DedupScratch* sc = &self.sc[self.parts]
        cdef unsigned char* fl = &flags[0]
        cdef Py_ssize_t i, kept = 0
        cdef int r = 0
        if not rk_rw_try_write(&self.state):
            raise RuntimeError("this Dedup is in use by another thread")
        if not self.reading:
            rk_rw_write_done(&self.state)
            raise ValueError("this Dedup is closed")
        with nogil:
            self.taken = 0
            for i in range(lo, hi):
                if fl[i]:
                    fl[i] = 1
                    continue
                r = self._violates(sc, i, lo, i)
                if r < 0:
                    break
                if r:
                    fl[i] = 1
                    continue
                self._insert(i)
                kept += 1
            rk_rw_write_done(&self.state)
        if r < 0:
            raise MemoryError()
        return kept
