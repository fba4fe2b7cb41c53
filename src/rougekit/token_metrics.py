"""ROUGE on token sequences you have already tokenized.

Candidate first, reference second. Tokens may be any hashable values
(strings, ints, tuples...). Each ``rouge_*`` function returns a
``rougekit.scoring.Score`` (precision, recall, fmeasure), which unpacks as a
3-tuple; every field is the float 0.0 when either side has no tokens (or no
n-grams).

>>> candidate = ["the", "cat", "is", "sitting", "on", "the", "mat"]
>>> reference = ["the", "cat", "sat", "on", "the", "mat"]
>>> p, r, f = rouge1(candidate, reference)
>>> print(f"{p:.4f}, {r:.4f}, {f:.4f}")
0.7143, 0.8333, 0.7692

On the same tokens, ``rouge_n`` and ``rouge_l`` equal rouge-score's
``RougeScorer(...).score(reference_text, candidate_text)`` exactly; so does
``rouge_lsum(..., mode="union")`` for its rougeLsum.

A ``str`` where a token sequence is expected is refused (a TypeError): it
would be scored as a sequence of characters. Pass ``text.split()``, or a
tokenizer's output (``rougekit.word_tokenizers``).
"""
import math
import sys
from typing import Hashable, Iterable, Optional

from rougekit._checks import as_list, check_int, check_real
from rougekit._core._prf_py import fmeasure
from rougekit._counts import (
    counts_score,
    lcs_counts,
    ngram_counts,
    rouge155_pair_counts,
    summary_lcs_counts,
)
from rougekit.scoring import Score

__all__ = ["rouge_n", "rouge1", "rouge2", "rouge_l", "rouge_lsum", "rouge_w", "rouge_s",
           "overlap", "lcs", "f1", "fbeta", "LSUM_MODES"]

LSUM_MODES = ("best-match", "union")


def _tokens(seq, name):
    """``seq`` as a list of tokens; a str, bytes or non-iterable is a TypeError."""
    return as_list(seq, name, "a sequence of tokens",
                   ": pass a list of tokens, such as text.split()")


def _sentences(seq, name):
    """``seq`` as a list of token lists (one per sentence)."""
    sents = as_list(seq, name, "a list of sentences, each a list of tokens")
    return [_tokens(s, f"{name}[{i}]") for i, s in enumerate(sents)]


def _check_n(n):
    return check_int("n", n, minimum=1)


def rouge_n(candidate: Iterable[Hashable], reference: Iterable[Hashable], n: int) -> Score:
    """ROUGE-N: clipped n-gram overlap over the candidate's and the
    reference's n-gram counts.

    >>> rouge_n(["a", "b", "c"], ["a", "b", "d"], 2)
    Score(precision=0.5, recall=0.5, fmeasure=0.5)
    """
    n = _check_n(n)
    candidate = _tokens(candidate, "candidate")
    reference = _tokens(reference, "reference")
    hits, ref_total, cand_total = ngram_counts(reference, candidate, n)
    return counts_score(hits, cand_total, ref_total)


def rouge1(candidate: Iterable[Hashable], reference: Iterable[Hashable]) -> Score:
    """ROUGE-1: ``rouge_n(candidate, reference, 1)``."""
    return rouge_n(candidate, reference, 1)


def rouge2(candidate: Iterable[Hashable], reference: Iterable[Hashable]) -> Score:
    """ROUGE-2: ``rouge_n(candidate, reference, 2)``."""
    return rouge_n(candidate, reference, 2)


def rouge_l(candidate: Iterable[Hashable], reference: Iterable[Hashable]) -> Score:
    """ROUGE-L: LCS length over the candidate's and the reference's lengths.

    >>> rouge_l(["a", "b", "c"], ["c", "b", "a"]).fmeasure
    0.3333333333333333
    """
    candidate = _tokens(candidate, "candidate")
    reference = _tokens(reference, "reference")
    hits, ref_total, cand_total = lcs_counts(reference, candidate)
    return counts_score(hits, cand_total, ref_total)


def rouge_w(candidate: Iterable[Hashable], reference: Iterable[Hashable],
            weight: float = 1.2) -> Score:
    """ROUGE-W with f(k) = k ** weight, as ROUGE-1.5.5.pl computes it for one
    candidate sentence against one reference sentence (its ``-w weight``).

    The script walks its weighted-LCS table back to mark the reference
    tokens on the LCS; each run of consecutive marked reference tokens of
    length k adds f(k) to the hits H. Then P = f^-1(H / f(len(candidate)))
    and R = f^-1(H / f(f(len(reference)))): the script applies f to the
    reference's length twice, so a candidate equal to the reference gets
    P = 1 but R = len ** (1 - weight) (Lin 2004's formula has f once; use
    ``rougekit.rouge155`` for whole summaries and the script's rounding).
    F is ``f1(P, R)``; everything is 0.0 when either side is empty.

    >>> p, r, f = rouge_w(["a", "b", "c", "d"], ["a", "b", "x", "c", "d"])
    >>> print(f"{p:.5f} {r:.5f} {f:.5f}")
    0.89090 0.51656 0.65395
    """
    weight = check_real("weight", weight)
    if not 0 < weight < math.inf:
        raise ValueError(f"weight must be a finite number > 0, got {weight!r}")
    cand = _tokens(candidate, "candidate")
    ref = _tokens(reference, "reference")
    if not cand or not ref:
        return Score(0.0, 0.0, 0.0)
    hits, ref_total, cand_total = rouge155_pair_counts("W", ref, cand, weight=weight)
    precision = (hits / cand_total) ** (1 / weight)
    recall = (hits / ref_total) ** (1 / weight)
    return Score(precision, recall, fmeasure(precision, recall))


def rouge_s(candidate: Iterable[Hashable], reference: Iterable[Hashable],
            skip_distance: Optional[int] = 4, *, unigrams: bool = False) -> Score:
    """ROUGE-S (skip-bigrams), or with ``unigrams`` ROUGE-SU, as
    ROUGE-1.5.5.pl counts them (its ``-2 skip_distance`` and ``-u``).

    The skip-bigrams of t_1..t_T are the pairs (t_i, t_j), i < j, with at most
    ``skip_distance`` tokens between them (any distance when it is None or
    negative: ROUGE-S*). ROUGE-SU adds the unigrams t_1..t_(T-1): the script
    never adds the last token's, so a one-token text has no SU grams. Hits
    are the clipped overlap of the two multisets; P = hits / candidate grams,
    R = hits / reference grams, F = ``f1(P, R)``; 0.0 when either side has
    no grams.

    >>> rouge_s(["a", "b", "c"], ["a", "c", "b"], 4)
    Score(precision=0.6666666666666666, recall=0.6666666666666666, fmeasure=0.6666666666666666)
    >>> rouge_s(["b", "a"], ["a", "b"], 4, unigrams=True).fmeasure
    0.0
    """
    if skip_distance is None:
        distance = -1.0
    else:
        distance = check_real("skip_distance", skip_distance)
        if math.isnan(distance):
            raise ValueError("skip_distance must be a number, got nan")
    if not isinstance(unigrams, bool):
        raise TypeError(f"unigrams must be True or False, not {type(unigrams).__name__}")
    cand = _tokens(candidate, "candidate")
    ref = _tokens(reference, "reference")
    for t in cand + ref:
        hash(t)      # grams are counted by value, as in rouge_n
    hits, ref_total, cand_total = rouge155_pair_counts(
        "S", ref, cand, skip_distance=distance, skip_unigrams=unigrams)
    return counts_score(hits, cand_total, ref_total)


def _best_match_hits(candidate_sentences, reference_sentences):
    # Per candidate sentence, the LCS with its best reference sentence; max()
    # keeps the first of equal lengths, though only the length matters.
    hits = 0
    for cand in candidate_sentences:
        if cand:
            hits += max((lcs_counts(ref, cand)[0] for ref in reference_sentences),
                        default=0)
    return hits


def rouge_lsum(candidate_sentences: Iterable[Iterable[Hashable]],
               reference_sentences: Iterable[Iterable[Hashable]], *,
               mode: str = "best-match") -> Score:
    """ROUGE-Lsum of tokenized sentences (each a list of tokens).

    ``mode="best-match"`` (the default): each candidate sentence takes the
    reference sentence with which its LCS is longest, and these LCS lengths
    are summed into the hits; precision is hits over all candidate tokens,
    recall hits over all reference tokens. A reference sentence may be the
    best match of several candidate sentences, so the hits are capped at the
    reference's token count, which keeps recall at most 1 (a candidate that
    repeats a reference sentence cannot cover more than the reference).

    ``mode="union"``: the summary-level union LCS of Lin (2004), as
    ROUGE-1.5.5 and rouge-score's rougeLsum compute it: per reference
    sentence, the union of its LCS with every candidate sentence, with each
    token counted at most as often as it occurs on both sides.

    >>> cand = [["the", "cat", "is", "on", "the", "mat"], ["it", "is", "cute"]]
    >>> ref = [["the", "dog", "is", "on", "the", "mat"],
    ...        ["the", "animal", "is", "cute"], ["the", "pet", "sleeps", "well"]]
    >>> print("{:.4f}, {:.4f}, {:.4f}".format(*rouge_lsum(cand, ref)))
    0.7778, 0.5000, 0.6087
    >>> print("{:.4f}, {:.4f}, {:.4f}".format(*rouge_lsum(cand, ref, mode="union")))
    0.7778, 0.5000, 0.6087
    """
    if mode not in LSUM_MODES:
        raise ValueError(f"mode must be one of {', '.join(map(repr, LSUM_MODES))}; "
                         f"got {mode!r}")
    cands = _sentences(candidate_sentences, "candidate_sentences")
    refs = _sentences(reference_sentences, "reference_sentences")
    if mode == "union":
        hits, ref_total, cand_total = summary_lcs_counts(refs, cands)
    else:
        ref_total = sum(map(len, refs))
        cand_total = sum(map(len, cands))
        hits = min(_best_match_hits(cands, refs), ref_total)
    return counts_score(hits, cand_total, ref_total)


def overlap(a: Iterable[Hashable], b: Iterable[Hashable]) -> int:
    """Clipped count of tokens shared by ``a`` and ``b``: each token counts
    as often as it occurs in both (the matching of ROUGE-1).

    >>> overlap(["the", "the", "cat"], ["the", "cat", "cat", "the", "the"])
    3
    """
    return ngram_counts(_tokens(a, "a"), _tokens(b, "b"), 1)[0]


def lcs(a: Iterable[Hashable], b: Iterable[Hashable]) -> int:
    """Length of the longest common subsequence of ``a`` and ``b``.

    >>> lcs(["a", "b", "c", "d"], ["b", "d", "c"])
    2
    """
    return lcs_counts(_tokens(a, "a"), _tokens(b, "b"))[0]


def f1(precision: float, recall: float) -> float:
    """Harmonic mean of precision and recall; 0.0 when both are 0.

    The same float as ``fbeta(precision, recall, 1.0)`` and
    ``rougekit.scoring.fmeasure``.

    >>> f1(0.5, 1.0)
    0.6666666666666666
    """
    _check_unit(precision, "precision")
    _check_unit(recall, "recall")
    return fmeasure(precision, recall)


def _check_unit(value, name):
    """A precision or recall: a real number in [0, 1] (NaN is not)."""
    check_real(name, value, 0, 1, what="a real number")


def fbeta(precision: float, recall: float, beta: float) -> float:
    """F-beta: ``(1 + beta**2) * P * R / (beta**2 * P + R)``; 0.0 when the
    denominator is 0 (both P and R are 0, or beta is 0 and R is 0).

    ``beta`` > 1 weights recall more, < 1 precision more; ``beta=0`` gives the
    precision. It must be a finite real number >= 0.

    >>> fbeta(0.5, 1.0, 2.0)
    0.8333333333333334
    """
    _check_unit(precision, "precision")
    _check_unit(recall, "recall")
    check_real("beta", beta, what="a real number")
    if not math.isfinite(beta) or beta < 0:
        raise ValueError(f"beta must be a finite number >= 0, got {beta!r}")
    beta = float(beta)
    if beta == 1:
        # rouge-score's own expression, so that F1 is its F to the last bit.
        return fmeasure(precision, recall)
    b2 = beta * beta
    if math.isinf(b2):  # beta**2 overflows: the limit, recall (or 0 if P is 0)
        return recall if precision > 0 else 0.0
    denominator = b2 * precision + recall
    if denominator <= 0:
        return 0.0
    numerator = (1 + b2) * precision * recall     # the textbook formula, in its order
    if numerator < sys.float_info.min and precision > 0 and recall > 0:
        # P * R underflowed to a subnormal or 0: divide first instead.
        return (1 + b2) * precision * (recall / denominator)
    return numerator / denominator
