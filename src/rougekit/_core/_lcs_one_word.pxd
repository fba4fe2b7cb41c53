"""rougeLsum's union LCS for reference sentences that fit in one 64-bit word
(inline; ``_lcs``'s ``lcs_union_marks`` and ``summary_hits_scratch`` take
this path for sentences of at most 64 tokens).

One or more reference sentences are packed in a word, each above a guard
bit; ``columns_one_word`` runs the forward pass against a candidate sentence
(the columns of their LCS tables, at once), ``walk_one_word`` walks one
sentence's table back as rouge-score's ``_lcs`` table walk does (walk.h's
loop), and ``union_one_word`` and ``union_segments`` add a sentence's (or a
group's) marks to the union, walking only where that can change them.
"""
from libc.stdint cimport int32_t, uint64_t

from rougekit._core._lcs cimport lcs_step64

cdef extern from "bits.h" nogil:
    int rk_high_bit64(uint64_t x)
    int rk_low_bit64(uint64_t x)

cdef extern from "walk.h" nogil:
    uint64_t rk_walk_one_word(uint64_t seg, uint64_t want, const uint64_t* pm,
                              const int32_t* can, Py_ssize_t n, const uint64_t* cols,
                              uint64_t marks)


cdef inline uint64_t columns_one_word(const uint64_t* pm, uint64_t guards,
                                       const int32_t* can, Py_ssize_t n,
                                       uint64_t* cols) noexcept nogil:
    """The columns of the LCS tables of one or more reference sentences
    packed in one word against can[0:n]: cols[j] after can[0:j] (cols has
    room for n + 1 words). Returns the bits of the reference positions
    whose token occurs in can[0:n] (the OR of the masks read).

    Here the bit vectors run over the reference, so the vector after
    can[0:j] is column j of the table: bit i-1 of a sentence's segment is 0
    exactly when L[i][j] == L[i-1][j] + 1. Sentences after the first sit
    above a guard bit, always 0 in the vector: a carry out of the sentence
    below stops there (and the guard is cleared again), so each segment
    advances as if alone. pm[id] has the bits of the positions holding id.
    """
    cdef uint64_t S = ~guards, keep = ~guards, occ = 0, m
    cdef Py_ssize_t j
    cols[0] = S
    for j in range(n):
        m = pm[can[j]]
        occ |= m
        S = lcs_step64(S, m) & keep
        cols[j + 1] = S
    return occ


cdef inline uint64_t walk_one_word(uint64_t seg, uint64_t want, const uint64_t* pm,
                                    const int32_t* can, Py_ssize_t n,
                                    const uint64_t* cols, uint64_t marks) noexcept nogil:
    """lcs_mark_ids for a reference sentence at the bits seg of the columns
    of columns_one_word against can[0:n]: marks with the bit of each
    reference position on the LCS set. The walk stops early once none of the
    positions want (those it could newly mark) is left within its reach.

    rouge-score's walk, on a mismatch, moves left only if L[i][j-1] >
    L[i-1][j]; as L[i][j] = max(L[i-1][j], L[i][j-1]) there, that is "up
    when L[i-1][j] == L[i][j]" (row i's bit of column j set), else left. So
    in column j the walk goes up from its row i to the first row i' <= i
    that holds can[j-1] or is a step (its bit of column j clear): a match
    there marks i' and goes on in column j-1 from row i'-1; a step goes left,
    on in column j-1 from row i' (a left move keeps L, so it stays on a step
    until the row's match). So the walk reads one column a step, with no
    branch on the data: lim holds the rows it may still reach, as bits, and
    the row it goes to is the highest of them that is a match or a step
    (walk.h's loop, whose step finds that bit with LZCNT where the CPU has
    it).
    """
    return rk_walk_one_word(seg, want, pm, can, n, cols, marks)


cdef inline uint64_t union_one_word(Py_ssize_t m, Py_ssize_t o,
                                     const uint64_t* pm, const int32_t* can, Py_ssize_t n,
                                     const uint64_t* cols, uint64_t occ,
                                     uint64_t marks) noexcept nogil:
    """marks with the bits of walk_one_word's LCS marks added (a reference
    sentence of m tokens at bits o.., 1 <= m, o + m <= 64; occ as
    columns_one_word returns it), walking only when that can change them.

    Every mark is a position whose token occurs in can (a walk marks only
    on a match), so when all such positions are marked already, nothing
    changes. And the walk marks L[m][n] distinct positions (one per diagonal
    step; the other steps keep L), the rows that are steps in the last
    column (the segment's zero bits there). A row is a step only if its
    token occurs in can, so the steps are among those positions; when they
    are all of them, any LCS is made of exactly those, so they are the
    marks.
    """
    cdef uint64_t seg = (~(<uint64_t>0) if m == 64 else ((<uint64_t>1) << m) - 1) << o
    cdef uint64_t shared = occ & seg
    if (shared & ~marks) == 0:
        return marks
    if (~cols[n] & seg) == shared:
        return marks | shared
    return walk_one_word(seg, shared & ~marks, pm, can, n, cols, marks)


cdef inline uint64_t union_segments(uint64_t segs, uint64_t lows, uint64_t above,
                                     uint64_t guards, const uint64_t* pm,
                                     const int32_t* can, Py_ssize_t n,
                                     const uint64_t* cols, uint64_t occ,
                                     uint64_t marks) noexcept nogil:
    """union_one_word for every sentence of a group at once (segs: their
    bits; lows: each one's lowest bit; above: the bit above each, its next
    one's guard or the group's first free bit, which must exist: the group
    ends below bit 63). The two shortcuts are tested for all sentences with
    word operations, and only the sentences that pass neither are walked
    (a branch per walk, not one per sentence and shortcut).

    A sentence's bits X (within segs) are not all zero exactly when
    subtracting its lowest bit from X plus its above bit leaves the above
    bit set; each sentence's above bit stops the borrow, so one subtraction
    tests them all."""
    cdef uint64_t shared = occ & segs
    cdef uint64_t want = shared & ~marks
    cdef uint64_t diff = (~cols[n] ^ occ) & segs        # steps != shared
    cdef uint64_t need = ((want | above) - lows) & ((diff | above) - lows) & above
    cdef uint64_t walked = 0, seg, gb
    cdef int p
    while need != 0:
        p = rk_low_bit64(need)
        need &= need - 1
        # the sentence below bit p: above its own guard, the highest below p
        seg = ((<uint64_t>1) << p) - 1
        gb = guards & seg
        if gb != 0:
            seg &= ~(((<uint64_t>2) << rk_high_bit64(gb)) - 1)
        walked |= seg
        marks = walk_one_word(seg, want & seg, pm, can, n, cols, marks)
    return marks | (shared & ~walked)
