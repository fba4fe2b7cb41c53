"""One text's match masks, and its hits against other texts (inline, shared
by ``_text_index``, whose query they hold, and ``_dedup_filter``, whose
probed text they hold).

A ``Masks`` is the bit-vector side of the LCS (rougeL: the positions of each
of the text's units, ceil(len / 64) words a distinct unit) or the text's unit
counts (rougeN); ``masked_lcs_hits`` and ``masked_ngram_hits`` then score it
against another text's units, a table look-up and a few word operations a
unit. A text whose masks would take more than the caller's budget of words
keeps its known units instead, compared pair by pair with ``lcs_length_ids``.
A ``PairScratch`` is what one thread needs for those comparisons. Every
allocation is checked: -1 is out of memory.
"""
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memset

from rougekit._core._lcs cimport (lcs_advance, lcs_length_ids, lcs_step64, lcs_zeros_below,
                                   lcs_zeros_below64)
from rougekit._core._mem cimport grow_array, grow_to, unmark


ctypedef struct Masks:
    # The bit side's units: unit v occurs at the positions set in
    # pm[loc[v] * W : (loc[v] + 1) * W] (rougeL), cnt[loc[v]] times (rougeN);
    # loc[v] is -1 for the other units, and dist lists the units with an
    # entry so that loc is cleared after use. known: the units >= 0, in
    # order (lcs_length_ids's input when the masks would be too big).
    int32_t* loc
    Py_ssize_t loc_cap
    int32_t* dist
    Py_ssize_t ndist, dist_cap
    uint64_t* pm
    Py_ssize_t pm_cap
    int32_t* cnt
    Py_ssize_t cnt_cap
    int32_t* known
    Py_ssize_t nknown, known_cap
    Py_ssize_t W, len
    bint sparse


cdef inline void masks_clear(Masks* mk) noexcept nogil:
    unmark(mk.loc, mk.dist, mk.ndist)
    mk.ndist = 0
    mk.len = 0
    mk.nknown = 0
    mk.W = 0
    mk.sparse = False


cdef inline void masks_free(Masks* mk) noexcept nogil:
    free(mk.loc)
    free(mk.dist)
    free(mk.pm)
    free(mk.cnt)
    free(mk.known)
    memset(mk, 0, sizeof(Masks))


cdef inline int masks_cover(Masks* mk, Py_ssize_t units) noexcept nogil:
    """loc has an entry (-1 when new) for every unit id below ``units``."""
    cdef Py_ssize_t cap
    if units <= mk.loc_cap:
        return 0
    cap = mk.loc_cap * 2 if mk.loc_cap * 2 > units else units
    if grow_to(<void**>&mk.loc, mk.loc_cap, cap, sizeof(int32_t), 0xFF) < 0:
        return -1
    mk.loc_cap = cap
    return 0


cdef inline int masks_build(Masks* mk, const int32_t* u, Py_ssize_t n, bint lcs,
                            Py_ssize_t budget_words) noexcept nogil:
    """Masks (rougeL) or counts (rougeN) of u[0:n], replacing the previous
    ones; loc must cover every unit of u. Units < 0 match nothing. Masks of
    more than budget_words words are not built: the known units are kept
    instead (sparse). Returns -1 when out of memory (mk is then empty)."""
    cdef Py_ssize_t j, W = (n + 63) >> 6
    cdef int32_t v
    masks_clear(mk)
    for j in range(n):
        v = u[j]
        if v >= 0 and mk.loc[v] < 0:
            if grow_array(<void**>&mk.dist, &mk.dist_cap, mk.ndist + 1, sizeof(int32_t), -1) < 0:
                masks_clear(mk)
                return -1
            mk.loc[v] = <int32_t>mk.ndist
            mk.dist[mk.ndist] = v
            mk.ndist += 1
    mk.len = n
    mk.W = W
    if not lcs:
        if grow_array(<void**>&mk.cnt, &mk.cnt_cap, mk.ndist + 1, sizeof(int32_t), -1) < 0:
            masks_clear(mk)
            return -1
        memset(mk.cnt, 0, mk.ndist * sizeof(int32_t))
        for j in range(n):
            if u[j] >= 0:
                mk.cnt[mk.loc[u[j]]] += 1
        return 0
    if mk.ndist > 0 and W > budget_words // mk.ndist:
        mk.sparse = True
        if grow_array(<void**>&mk.known, &mk.known_cap, n + 1, sizeof(int32_t), -1) < 0:
            masks_clear(mk)
            return -1
        for j in range(n):
            if u[j] >= 0:
                mk.known[mk.nknown] = u[j]
                mk.nknown += 1
        return 0
    if grow_array(<void**>&mk.pm, &mk.pm_cap, mk.ndist * W + 1, sizeof(uint64_t), -1) < 0:
        masks_clear(mk)
        return -1
    memset(mk.pm, 0, mk.ndist * W * sizeof(uint64_t))
    for j in range(n):
        if u[j] >= 0:
            mk.pm[mk.loc[u[j]] * W + (j >> 6)] |= (<uint64_t>1) << (j & 63)
    return 0


cdef inline Py_ssize_t masked_lcs_hits(const Masks* mk, const int32_t* y, Py_ssize_t b,
                                       uint64_t* S, int32_t* head) noexcept nogil:
    """LCS length of the masked text and y[0:b] (units >= 0 below the loc
    cover); -1 when out of memory. S has room for mk.W words; head (used
    only with sparse masks) holds -1 for every unit."""
    cdef Py_ssize_t a = mk.len, W = mk.W, j, w
    cdef int32_t loc
    cdef uint64_t s
    if b == 0 or mk.ndist == 0:
        return 0
    if mk.sparse:
        # Units no stored text has never match: leaving them out keeps the LCS.
        return lcs_length_ids(mk.known, mk.nknown, y, b, head)
    if W == 1:
        s = ~(<uint64_t>0)
        for j in range(b):
            loc = mk.loc[y[j]]
            if loc >= 0:
                s = lcs_step64(s, mk.pm[loc])
        return lcs_zeros_below64(s, a)
    for w in range(W):
        S[w] = ~(<uint64_t>0)
    for j in range(b):
        loc = mk.loc[y[j]]
        if loc >= 0:
            lcs_advance(S, mk.pm + loc * W, W)
    return lcs_zeros_below(S, a)


cdef inline Py_ssize_t masked_ngram_hits(const Masks* mk, const int32_t* y, Py_ssize_t b,
                                         int32_t* used) noexcept nogil:
    """Clipped overlap of the masked units and y[0:b]; used holds a zero for
    every local unit, and again on return."""
    cdef Py_ssize_t j, h = 0
    cdef int32_t loc
    for j in range(b):
        loc = mk.loc[y[j]]
        if loc >= 0 and used[loc] < mk.cnt[loc]:
            used[loc] += 1
            h += 1
    for j in range(b):
        loc = mk.loc[y[j]]
        if loc >= 0:
            used[loc] = 0
    return h


ctypedef struct PairScratch:
    # What one thread needs to score a masked text against many texts.
    uint64_t* S                 # the LCS row (W words)
    Py_ssize_t S_cap
    int32_t* head               # lcs_length_ids's table: -1 for every unit
    Py_ssize_t head_cap
    int32_t* used               # rougeN: 0 for every local unit
    Py_ssize_t used_cap


cdef inline int pair_reserve(PairScratch* ps, const Masks* mk, bint lcs,
                             Py_ssize_t units) noexcept nogil:
    """Room in ps for the masked text mk; -1 when out of memory."""
    if grow_array(<void**>&ps.S, &ps.S_cap, mk.W + 1, sizeof(uint64_t), -1) < 0:
        return -1
    if not lcs:
        return grow_array(<void**>&ps.used, &ps.used_cap, mk.ndist + 1, sizeof(int32_t), 0)
    if mk.sparse:
        return grow_array(<void**>&ps.head, &ps.head_cap, units + 1, sizeof(int32_t), 0xFF)
    return 0


cdef inline void pair_scratch_free(PairScratch* ps) noexcept nogil:
    free(ps.S)
    free(ps.head)
    free(ps.used)
    memset(ps, 0, sizeof(PairScratch))
