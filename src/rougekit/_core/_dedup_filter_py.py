"""Pure-Python twin of ``_dedup_filter``: the greedy de-duplication filter
over the texts of a ``_text_index_py.TextIndex``, which scores as
rouge-score does (query as target, stored text as prediction).

``Dedup(index, first, threshold, parts)`` runs the Self-Instruct/Alpaca rule
over the index's texts ``first`` to the end: a text is kept when its F
against every earlier kept text and every text before ``first`` (the pool
it is compared ``against``) is at most ``threshold``. Most pairs are never
scored: the filter is a set-similarity join (``min_hits``,
``prefix_length``, ``length_range`` are its exact bounds):

* a text is a multiset of units; the k-th occurrence of unit u is the
  element (u, k), so the multiset overlap of two texts is the size of the
  intersection of their element sets, and an LCS (or a clipped n-gram
  overlap) never exceeds it;
* elements are ordered rarest first; two texts whose overlap reaches t share
  an element among the first ``count - t + 1`` elements of each (prefix
  filtering), so each kept text is listed under its prefix elements only
  (an inverted index) and a new text meets only the kept texts listed under
  its own prefix;
* shared elements come in the same order in both texts' sorted elements,
  so where a new text first meets a kept one, at positions i and j, is the
  rarest element they share and they have at most min(a - i, b - j) in
  common; after the last meeting, the rest lies beyond one of the two
  prefixes (positional and prefix-count filtering, as in PPJoin). The
  pair needs t = ``min_hits(a, b, threshold)`` common units (which also
  bounds the sizes a, b);
* a candidate is then checked by its exact overlap (a merge of sorted
  elements, from the last meeting on) and only then by its LCS, computed
  with the new text as the bit-vector side, and compared with
  ``threshold`` as rouge-score's float F (for rougeN the overlap is the
  clipped n-gram overlap itself).

Texts are processed in blocks: ``probe(lo, hi, part, flags)`` marks the
block's texts that already fail against the texts kept before the block
(threads calling it at once, each with its own part, share the texts), and
``commit(lo, hi, flags)`` then decides the block's texts in order, checking
each surviving text against the texts kept earlier in the block.

>>> index = TextIndex(KIND_L, False, True)
>>> index.add_texts(["the cat sat on the mat", "a dog", "the cat sat on a mat"])
3
>>> dedup = Dedup(index, 0, 0.7, 1)
>>> flags = [0, 0, 0]
>>> dedup.probe(0, 3, 0, flags)
>>> dedup.commit(0, 3, flags), flags
(2, [0, 0, 1])
>>> dedup.close()
"""
import bisect
import math
import threading
from typing import Any, Dict, List, Tuple

from rougekit._core._ids_py import check_range
from rougekit._core._kinds_py import ROUGE_L as KIND_L
from rougekit._core._lcs_py import lcs_of_masks
from rougekit._core._text_index_py import TextIndex, fmeasure_of

__all__ = ["Dedup", "min_hits", "prefix_length", "length_range"]

# Relative margin on every bound computed in floating point. The bounds
# compare rouge-score's computed F, which is within a few units in the last
# place (about 1e-15 relative) of the exact harmonic mean 2h / (a + b); a
# margin of 1e-9 covers that and the rounding of the bound itself, and only
# ever makes the filter let through a few more pairs, never fewer.
MARGIN = 1e-9


def min_hits(target_count: int, prediction_count: int, threshold: float) -> int:
    """The fewest common units with which two texts of these sizes have
    ``fmeasure_of(...) > threshold``; -1 when no number of them (up to the
    shorter size) gets there.

    Every count below the start of the search is proven too small: F never
    exceeds the exact 2h / (a + b) by more than a few ulps, so F > threshold
    needs h > threshold * (a + b) / 2 * (1 - MARGIN); from there the counts
    are tried in turn with rouge-score's arithmetic itself.

    >>> min_hits(10, 10, 0.7), min_hits(10, 30, 0.7), min_hits(0, 5, 0.0)
    (8, -1, -1)
    """
    a, b = target_count, prediction_count
    if a == 0 or b == 0:
        return -1
    m = a if a < b else b
    h = max(int(threshold * (a + b) * 0.5 * (1.0 - MARGIN)) - 1, 0)
    while h <= m:
        if fmeasure_of(h, a, b) > threshold:
            return h
        h += 1
    return -1


def _hits_lower_bound(count: int, threshold: float) -> int:
    """A lower bound on the common units any pair with a text of ``count``
    units needs for F > threshold (0 <= threshold < 1): h > threshold * a /
    (2 - threshold), as the other text has at least h units."""
    x = threshold * count / (2.0 - threshold)
    return int(x - x * MARGIN) + 1


def prefix_length(count: int, threshold: float) -> int:
    """How many of a text's rarest elements must be listed (or probed) so
    that every pair with F > threshold shares one of them: ``count - t + 1``
    for ``t`` the fewest common elements such a pair has; 0 when no pair can
    pass (``threshold >= 1``: F is at most 1) or the text is empty.

    >>> prefix_length(10, 0.7), prefix_length(10, 0.0), prefix_length(10, 1.0)
    (5, 10, 0)
    """
    if count <= 0 or threshold >= 1.0:
        return 0
    return max(count - _hits_lower_bound(count, threshold) + 1, 0)


def length_range(count: int, threshold: float) -> tuple:
    """``(low, high)``: the sizes a text may have to pass ``threshold`` with
    a text of ``count`` units (F <= 2 min(a, b) / (a + b), within rounding);
    a safe superset, ``high`` is None when unbounded.

    >>> length_range(10, 0.7)
    (5, 19)
    """
    x = threshold * count / (2.0 - threshold)
    low = int(x - x * MARGIN)
    if threshold <= 0.0:
        return low, None
    y = count * (2.0 - threshold) / threshold
    return low, math.ceil(y + y * MARGIN)


class Dedup:
    """The greedy filter over ``index``'s texts ``first`` to the end, against
    the texts before ``first`` (see the module docstring). While it exists,
    the index takes no new texts."""

    def __init__(self, index: TextIndex, first: int, threshold: float, parts: int) -> None:
        self._released = True           # until the index is held
        if not isinstance(index, TextIndex):
            raise TypeError(f"index must be a TextIndex, not {type(index).__name__}")
        check_range(first, first, len(index))
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise TypeError(f"threshold must be a float, not {type(threshold).__name__}")
        threshold = float(threshold)
        if not threshold >= 0.0:
            raise ValueError(f"threshold must be >= 0 here, got {threshold!r}")
        if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
            raise ValueError(f"parts must be an int >= 1, got {parts!r}")
        self._index = index
        self._n = len(index)
        self._first = first
        self._thr = threshold
        self._parts = parts
        self._lcs = index.kind == KIND_L
        self._stats = {"met": 0, "candidates": 0, "verified": 0}
        self._taken = 0                     # texts of the block taken by probes
        self._taking = threading.Lock()
        units = index.units[:self._n]
        # Elements: the k-th occurrence of unit u is (u, k); rank them by
        # document frequency, rarest first (ties by the element itself).
        df: Dict[tuple, int] = {}
        texts_elements = []
        for us in units:
            seen: Dict[int, int] = {}
            elements = []
            for u in us:
                k = seen.get(u, 0)
                seen[u] = k + 1
                elements.append((u, k))
                df[(u, k)] = df.get((u, k), 0) + 1
            texts_elements.append(elements)
        rank = {e: r for r, e in enumerate(sorted(df, key=lambda e: (df[e], e)))}
        self._elements = [sorted(rank[e] for e in els) for els in texts_elements]
        self._units = units
        # rank -> [(kept text, position of the rank in it, its size)],
        # texts ascending
        self._lists: Dict[int, List[Tuple[int, int, int]]] = {}
        index.readers += 1
        self._released = False
        for i in range(first):
            self._insert(i)

    def close(self) -> None:
        """Let the index take texts again (also done when the object goes)."""
        if not self._released:
            self._released = True
            self._index.readers -= 1

    def __del__(self) -> None:
        self.close()

    def stats(self) -> Dict[str, int]:
        """Counts so far: entries of the inverted index read (met: a pair
        meets once per shared prefix element), pairs within every bound,
        whose element overlap was computed (candidates), and pairs then
        scored with rouge-score's F (verified)."""
        return dict(self._stats)

    def _insert(self, i: int) -> None:
        els = self._elements[i]
        for j, e in enumerate(els[:prefix_length(len(els), self._thr)]):
            self._lists.setdefault(e, []).append((i, j, len(els)))

    def _check(self, x: int, y: int, c: List[int], masks: Dict[int, int]) -> bool:
        """Score candidate y of x: whether F > threshold. Its exact element
        overlap is the c[0] shared elements up to the last meeting (c[1],
        c[2]) plus those after it."""
        ex, ey = self._elements[x], self._elements[y]
        a, b = len(ex), len(ey)
        stats = self._stats
        stats["candidates"] += 1
        o = c[0] + len(set(ex[c[1] + 1:]) & set(ey[c[2] + 1:]))
        if o < min_hits(a, b, self._thr):
            return False
        stats["verified"] += 1
        if not self._lcs:
            h = o           # rougeN: the element overlap is the clipped overlap
        else:
            if not masks:
                for j, u in enumerate(self._units[x]):
                    masks[u] = masks.get(u, 0) | (1 << j)
            h = lcs_of_masks(masks, a, self._units[y])
        return fmeasure_of(h, a, b) > self._thr

    def _violates(self, x: int, id_lo: int, id_hi: int) -> bool:
        """Whether text x has F > threshold against a listed text y with
        id_lo <= y < id_hi."""
        els = self._elements[x]
        a = len(els)
        p = prefix_length(a, self._thr)
        if p == 0:
            return False
        low, high = length_range(a, self._thr)
        need: Dict[int, int] = {}          # fewest common units, by size of y
        # y -> [meetings, last i, last j, first i, scored yet]
        cands: Dict[int, List[int]] = {}
        masks: Dict[int, int] = {}         # x's LCS masks, once needed
        met = 0
        try:
            for i, e in enumerate(els[:p]):
                entries = self._lists.get(e, [])
                for k in range(bisect.bisect_left(entries, (id_lo, -1, -1)), len(entries)):
                    y, j, b = entries[k]
                    if y >= id_hi:
                        break
                    met += 1
                    if b < low or (high is not None and b > high):
                        continue                # never a candidate
                    c = cands.get(y)
                    if c is not None:
                        c[0] += 1
                        c[1], c[2] = i, j
                        continue
                    # The first meeting is at the rarest element x and y
                    # share, at position i of x and j of y: the others lie
                    # after it in both, so there are at most min(a - i, b - j)
                    # common ones. A y that fails this fails at every later
                    # meeting too.
                    t = need.get(b)
                    if t is None:
                        t = need[b] = min_hits(a, b, self._thr)
                    if 0 <= t <= min(a - i, b - j):
                        cands[y] = [1, i, j, i, 0]
                # A text met at every element since its first meeting, twice
                # or more, is likely a near-duplicate: scored at once, a hit
                # ends the probe without reading the other lists.
                for y, c in cands.items():
                    if not c[4] and c[1] == i and c[0] >= 2 and c[0] == i - c[3] + 1:
                        c[4] = 1
                        if self._check(x, y, c, masks):
                            return True
        finally:
            self._stats["met"] += met
        for y, c in cands.items():
            if c[4]:
                continue
            b = len(self._elements[y])
            # Shared elements come in the same order in both texts, and the
            # ones up to the last meeting (c[1], c[2]) are the c[0] met. Any
            # later one within x's prefix was not met, so it lies beyond y's
            # listed prefix, as do all after it; else they all lie beyond
            # x's prefix.
            py = prefix_length(b, self._thr)
            rest = max(min(a - c[1] - 1, b - py), min(a - p, b - c[2] - 1))
            if c[0] + rest >= need[b] and self._check(x, y, c, masks):
                return True
        return False

    def _check_block(self, lo: int, hi: int, flags: Any) -> None:
        if self._released:
            raise ValueError("this Dedup is closed")
        check_range(lo, hi, self._n)
        if lo < self._first:
            raise ValueError(f"lo must be >= first ({self._first}), got {lo}")
        if len(flags) < self._n:
            raise ValueError(f"flags has {len(flags)} items, need {self._n}")

    def probe(self, lo: int, hi: int, part: int, flags: Any) -> None:
        """``flags[i]`` = 1 if text i fails against the texts kept so far,
        else 0, for the texts i in [lo, hi) that no other probe call has
        taken since the last commit: threads calling it at once, each with
        its own ``part`` (0 to parts - 1), share the block text by text, so
        a slow thread holds back no other. Every probe of a block must end
        before its commit."""
        self._check_block(lo, hi, flags)
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < self._parts:
            raise ValueError(f"part must be in [0, {self._parts}), got {part!r}")
        while True:
            with self._taking:
                i = lo + self._taken
                self._taken += 1
            if i >= hi:
                return
            flags[i] = 1 if self._violates(i, 0, lo) else 0

    def commit(self, lo: int, hi: int, flags: Any) -> int:
        """Decide texts lo to hi - 1 in order, after ``probe`` has flagged
        every one of them: a text not flagged is kept unless it fails against
        a text kept earlier in the block. Leaves ``flags[i]`` 0 for a kept
        text, 1 for a dropped one; returns the number kept."""
        self._check_block(lo, hi, flags)
        self._taken = 0
        kept = 0
        for i in range(lo, hi):
            if flags[i]:
                flags[i] = 1
                continue
            if self._violates(i, lo, i):
                flags[i] = 1
                continue
            self._insert(i)
            kept += 1
        return kept
