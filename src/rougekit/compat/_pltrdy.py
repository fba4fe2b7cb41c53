"""What ``rouge`` 1.0.1 (pltrdy) and ``rouge-chinese`` 1.0.3 compute, once.

Both packages split a text into sentences, the sentences into words on single
spaces, and score n-grams as sets (``exclusive=True``, their default) or as
clipped multisets, with an F that adds ``1e-8`` to its denominator. They
differ in the sentences (pltrdy splits on ".", rouge-chinese on Chinese and
ASCII end marks) and in ROUGE-L: pltrdy's is the union LCS of every pair of
sentences, counted as a set of words (or the sum of the LCS lengths with
``exclusive=False``); rouge-chinese's is the LCS of the two whole texts.

This module is the shared layer of the two drop-ins
(:mod:`rougekit.compat.rouge`, :mod:`rougekit.compat.rouge_chinese`): the
arithmetic in the packages' order of operations, the counts from sets,
Counters and rougekit's LCS kernels (no recursion, no quadratic table), and
``RougeBase``, their ``Rouge`` class without its sentence splitter, whose
``get_scores`` has every pair of str texts counted in one compiled call
(``_backend.pltrdy_counts``) and any other text counted here, pair by pair.

>>> pltrdy_f(0.8, 0.8)
0.7999999950000002
"""
import os
from collections import Counter
from itertools import chain
from typing import Any, Callable, Dict, List, Sequence, Tuple

from rougekit import _backend

__all__ = ["pltrdy_f", "prf_n", "words_of", "ngrams_of", "ngram_counts",
           "lcs_length_tokens", "lcs_tokens", "union_lcs_count", "lcs_sum", "available_metrics",
           "RougeBase",
           "FilesRougeBase"]

Stats = Dict[str, Any]


def pltrdy_f(precision: float, recall: float) -> float:
    """The packages' F: ``2 P R / (P + R)`` with ``1e-8`` added to the
    denominator, in their order of operations (so 0.0 when P = R = 0, and a
    hair under the harmonic mean otherwise)."""
    return 2.0 * ((precision * recall) / (precision + recall + 1e-8))


def prf_n(evaluated_count: int, reference_count: int, overlapping_count: int) -> Stats:
    """ROUGE-N's ``{"f", "p", "r"}`` from counts; P (R) is 0.0 when the
    hypothesis (reference) has no n-gram."""
    precision = 0.0 if evaluated_count == 0 else overlapping_count / evaluated_count
    recall = 0.0 if reference_count == 0 else overlapping_count / reference_count
    return {"f": pltrdy_f(precision, recall), "p": precision, "r": recall}


def words_of(sentences: Any) -> List[str]:
    """The words of sentences, each split on single spaces (so "" and
    doubled spaces give empty words, which count, as in the packages).

    >>> words_of(["the cat", "", "sat"])
    ['the', 'cat', '', 'sat']
    """
    return list(chain.from_iterable(s.split(" ") for s in sentences))


def ngrams_of(words: Sequence[Any], n: int) -> List[tuple]:
    """The n-grams of ``words`` in order, as tuples (none when fewer than n)."""
    return [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]


def ngram_counts(hyp: Sequence[str], ref: Sequence[str], n: int,
                 exclusive: bool) -> Tuple[int, int, int]:
    """(hypothesis n-grams, reference n-grams, shared n-grams): distinct
    n-grams when ``exclusive``, else every occurrence with clipped sharing."""
    if n == 1:
        h: Any = hyp
        r: Any = ref
    else:
        h = zip(*[hyp[i:] for i in range(n)])
        r = zip(*[ref[i:] for i in range(n)])
    if exclusive:
        hs, rs = set(h), set(r)
        return len(hs), len(rs), len(hs & rs)
    hc, rc = Counter(h), Counter(r)
    return sum(hc.values()), sum(rc.values()), sum((hc & rc).values())


def _ids_against(reference: Sequence[Any]) -> Tuple[Dict[Any, int], int]:
    """Dense ids of the reference's words, and the one id every other word
    gets (it matches nothing, and keeps ids below the kernels' bound)."""
    ids: Dict[Any, int] = {}
    for w in reference:
        if w not in ids:
            ids[w] = len(ids)
    return ids, len(ids)


def lcs_length_tokens(x: Sequence[Any], y: Sequence[Any]) -> int:
    """LCS length of two lists of words (rouge-chinese's ROUGE-L hits)."""
    return _backend.lcs.lcs_length_tokens(x, y)


def lcs_tokens(x: Sequence[Any], y: Sequence[Any]) -> List[Any]:
    """The LCS of ``x`` and ``y`` that pltrdy's ``_recon_lcs(x, y)`` rebuilds,
    as the list of its words, in order.

    pltrdy walks back from the table's end: a match goes diagonally, else up
    (drop ``x``'s word) when that keeps a longer LCS, else left. That is
    rouge-score's backtrack (``lcs_indices``) with the two texts swapped, so
    the kernel gives it, without recursion, at any length.

    >>> lcs_tokens("a b c a b".split(), "b a c b a".split())
    ['b', 'a', 'b']
    """
    if not x or not y:
        return []
    ids, other = _ids_against(x)
    y_ids = [ids.get(w, other) for w in y]
    x_ids = [ids[w] for w in x]
    return [y[i] for i in _backend.lcs.lcs_indices(y_ids, x_ids)]


def union_lcs_count(hyp_sentences: Sequence[Sequence[str]],
                    ref_sentences: Sequence[Sequence[str]]) -> int:
    """pltrdy's ROUGE-L overlap with ``exclusive=True``: the number of
    distinct words on the LCS of any (reference sentence, hypothesis
    sentence) pair, each LCS the one pltrdy's backtrack picks."""
    ref_words = [w for s in ref_sentences for w in s]
    ids, other = _ids_against(ref_words)
    refs = [[ids[w] for w in s] for s in ref_sentences]
    union: set = set()
    for sentence in hyp_sentences:
        h = [ids.get(w, other) for w in sentence]
        if h.count(other) == len(h):
            continue  # no word of it in the reference: no LCS
        union.update(sentence[i] for i in _backend.lcs.union_lcs(h, refs))
    return len(union)


def lcs_sum(hyp_sentences: Sequence[Sequence[str]],
            ref_sentences: Sequence[Sequence[str]]) -> int:
    """pltrdy's ROUGE-L overlap with ``exclusive=False``: the sum of the LCS
    lengths of every (reference sentence, hypothesis sentence) pair."""
    return sum(lcs_length_tokens(r, h) for r in ref_sentences for h in hyp_sentences)


# The packages' metrics, as pair_counts' ns (0: ROUGE-L).
_METRIC_N = {"rouge-1": 1, "rouge-2": 2, "rouge-3": 3, "rouge-4": 4, "rouge-5": 5, "rouge-l": 0}
# Pairs a pair_counts call: its words and counts are held for the whole call.
_CHUNK = 2048


def _lcs_stats(hyp_count: int, ref_count: int, hits: int, raw_results: bool) -> Stats:
    """ROUGE-L's stats from its counts (both at least 1), as the packages."""
    if raw_results:
        return {"hyp": hyp_count, "ref": ref_count, "overlap": hits}
    r_lcs, p_lcs = hits / ref_count, hits / hyp_count
    return {"f": pltrdy_f(p_lcs, r_lcs), "p": p_lcs, "r": r_lcs}


class _Pair:
    """One (hypothesis, reference) pair's sentences, and the words and
    sentence words that its metrics share, made on first use."""

    __slots__ = ("hyp", "ref", "_words", "_sentence_words")

    def __init__(self, hyp: List[str], ref: List[str]) -> None:
        self.hyp, self.ref = hyp, ref
        self._words: Any = None
        self._sentence_words: Any = None

    def words(self) -> Tuple[List[str], List[str]]:
        if self._words is None:
            # words_of in one call: the sentences are strings, and joining
            # them on " " then splitting on " " gives each one's words in turn
            self._words = (" ".join(self.hyp).split(" ") if self.hyp else [],
                           " ".join(self.ref).split(" ") if self.ref else [])
        return self._words

    def sentence_words(self) -> Tuple[List[List[str]], List[List[str]]]:
        if self._sentence_words is None:
            self._sentence_words = ([s.split(" ") for s in self.hyp],
                                    [s.split(" ") for s in self.ref])
        return self._sentence_words


def available_metrics(scores: Any) -> Dict[str, Callable[..., Dict[str, Any]]]:
    """``Rouge.AVAILABLE_METRICS`` of a package whose ``rouge_score`` module
    is ``scores``: rouge-1 to rouge-5 from its ``rouge_n``, rouge-l from its
    ``rouge_l_summary_level`` (pltrdy's and rouge-chinese's differ)."""
    def rouge_n(n: int) -> Callable[..., Dict[str, Any]]:
        return lambda hyp, ref, **k: scores.rouge_n(hyp, ref, n, **k)
    metrics = {f"rouge-{n}": rouge_n(n) for n in range(1, 6)}
    metrics["rouge-l"] = lambda hyp, ref, **k: scores.rouge_l_summary_level(hyp, ref, **k)
    return metrics


class RougeBase:
    """The ``Rouge`` class of both packages, but for ``_sentences`` (how a
    text becomes sentences) and ``_lcs_counts`` (ROUGE-L's counts), which a
    drop-in's class defines with ``AVAILABLE_METRICS``.

    Arguments are checked, and results built, in the packages' order, so
    results, key orders and exceptions are theirs; the scores come from
    per-pair counts instead of the packages' functions: the kernel's
    (``_backend.pltrdy_counts.pair_counts``, with ``_pieces`` and
    ``_lcs_kind``) when every text is a str, else this module's
    (``_sentences`` and ``_lcs_counts``).
    """

    DEFAULT_METRICS = ["rouge-1", "rouge-2", "rouge-l"]
    AVAILABLE_METRICS: Dict[str, Callable[..., Stats]] = {}
    DEFAULT_STATS = ["r", "p", "f"]
    AVAILABLE_STATS = ["r", "p", "f"]

    def __init__(self, metrics: Any = None, stats: Any = None, return_lengths: bool = False,
                 raw_results: bool = False, exclusive: bool = True) -> None:
        self.return_lengths = return_lengths
        self.raw_results = raw_results
        self.exclusive = exclusive
        if metrics is not None:
            self.metrics = [m.lower() for m in metrics]
            for m in self.metrics:
                if m not in self.AVAILABLE_METRICS:
                    raise ValueError("Unknown metric '%s'" % m)
        else:
            self.metrics = self.DEFAULT_METRICS
        if self.raw_results:
            self.stats = ["hyp", "ref", "overlap"]
        elif stats is not None:
            self.stats = [s.lower() for s in stats]
            for s in self.stats:
                if s not in self.AVAILABLE_STATS:
                    raise ValueError("Unknown stat '%s'" % s)
        else:
            self.stats = self.DEFAULT_STATS

    def _sentences(self, text: str) -> List[str]:
        raise NotImplementedError

    def _lcs_counts(self, pair: _Pair) -> Tuple[int, int, int]:
        """ROUGE-L's (hypothesis words, reference words, LCS hits)."""
        raise NotImplementedError

    def _pieces(self, texts: List[str]) -> Tuple[List[Any], bool]:
        """The texts as ``_backend.pltrdy_counts.pair_counts`` takes them,
        and its ``split_dots``: what ``_sentences`` splits, before it drops
        empty pieces and collapses whitespace."""
        raise NotImplementedError

    def _lcs_kind(self) -> int:
        """How ``pair_counts`` counts ROUGE-L for this drop-in."""
        raise NotImplementedError

    def _metric(self, metric: str, pair: _Pair, raw_results: bool) -> Stats:
        """One metric of one pair, with the packages' checks and messages."""
        if metric == "rouge-l":
            if len(pair.hyp) <= 0 or len(pair.ref) <= 0:
                raise ValueError("Collections must contain at least 1 sentence.")
            return _lcs_stats(*self._lcs_counts(pair), raw_results)
        if len(pair.hyp) <= 0:
            raise ValueError("Hypothesis is empty.")
        if len(pair.ref) <= 0:
            raise ValueError("Reference is empty.")
        hyp, ref = pair.words()
        counts = ngram_counts(hyp, ref, int(metric[-1]), self.exclusive)
        if raw_results:
            return {"hyp": counts[0], "ref": counts[1], "overlap": counts[2]}
        return prf_n(*counts)

    def _counted(self, hyps: Any, refs: Any) -> Any:
        """Every pair's counts (``pair_counts``' tuples), made by the kernel
        ``_CHUNK`` pairs a call; None when it does not apply (a text that is
        not a str, or a metric other than the packages'), and then each pair
        is scored on its own, raising what the packages raise."""
        if any(m not in _METRIC_N for m in self.metrics):
            return None
        ns = [_METRIC_N[m] for m in self.metrics]
        hyps, refs = list(hyps), list(refs)
        for texts in (hyps, refs):
            for t in texts:
                if type(t) is not str:
                    return None
        kernel = _backend.pltrdy_counts.pair_counts
        lcs, counted = self._lcs_kind(), []
        for start in range(0, len(hyps), _CHUNK):
            hyp_pieces, split_dots = self._pieces(hyps[start:start + _CHUNK])
            ref_pieces, _ = self._pieces(refs[start:start + _CHUNK])
            counted.extend(kernel(hyp_pieces, ref_pieces, split_dots, ns, self.exclusive, lcs))
        return counted

    def _metric_of_counts(self, metric: str, c: Tuple[int, ...], k: int,
                          raw_results: bool) -> Stats:
        """``_metric`` from a pair's counts ``c`` (``pair_counts``' tuple),
        the metric's three at ``c[k:k + 3]``."""
        if metric == "rouge-l":
            if c[0] <= 0 or c[1] <= 0:
                raise ValueError("Collections must contain at least 1 sentence.")
            return _lcs_stats(c[k], c[k + 1], c[k + 2], raw_results)
        if c[0] <= 0:
            raise ValueError("Hypothesis is empty.")
        if c[1] <= 0:
            raise ValueError("Reference is empty.")
        if raw_results:
            return {"hyp": c[k], "ref": c[k + 1], "overlap": c[k + 2]}
        return prf_n(c[k], c[k + 1], c[k + 2])

    def get_scores(self, hyps: Any, refs: Any, avg: bool = False,
                   ignore_empty: bool = False) -> Any:
        """Scores of each hypothesis against the reference at its index: a
        list of ``{metric: {stat: value}}`` (with ``"lengths"`` when
        ``return_lengths``), or their means when ``avg``. ``hyps`` and
        ``refs`` are lists (or tuples) of equal length, or two strings.

        ``ignore_empty`` drops the pairs whose hypothesis or reference is
        "" before scoring. A text with no sentence (such as "..." for
        pltrdy) raises ValueError "Hypothesis is empty." (or "Reference is
        empty."); a blank one (" ") is one sentence of one empty word.
        """
        if isinstance(hyps, str):
            hyps, refs = [hyps], [refs]
        if ignore_empty:
            kept = [pair for pair in zip(hyps, refs) if len(pair[0]) > 0 and len(pair[1]) > 0]
            hyps, refs = zip(*kept)
        # The package asserts these; AssertionError without a message, as there.
        if not isinstance(hyps, type(refs)):
            raise AssertionError()
        if not len(hyps) == len(refs):
            raise AssertionError()
        counted = self._counted(hyps, refs)
        if counted is not None:
            if not avg:
                return self._scores_of_counts(counted)
            return self._avg_of_counts(counted)
        if not avg:
            return self._get_scores(hyps, refs)
        return self._get_avg_scores(hyps, refs)

    def _scores_of_counts(self, counted: List[Tuple[int, ...]]) -> List[Stats]:
        metrics, stats, raw = self.metrics, self.stats, self.raw_results
        scores = []
        for c in counted:
            sen_score: Stats = {}
            k = 4
            if raw or c[0] <= 0 or c[1] <= 0:
                for m in metrics:
                    sc = self._metric_of_counts(m, c, k, raw)
                    sen_score[m] = {s: sc[s] for s in stats}
                    k += 3
            else:
                # Both texts have a sentence, so ROUGE-L's counts are at
                # least 1 and its stats are prf_n's too.
                for m in metrics:
                    sc = prf_n(c[k], c[k + 1], c[k + 2])
                    sen_score[m] = {s: sc[s] for s in stats}
                    k += 3
            if self.return_lengths:
                sen_score["lengths"] = {"hyp": c[2], "ref": c[3]}
            scores.append(sen_score)
        return scores

    def _avg_of_counts(self, counted: List[Tuple[int, ...]]) -> Stats:
        scores: Stats = {m: {s: 0 for s in self.stats} for m in self.metrics}
        if self.return_lengths:
            scores["lengths"] = {"hyp": 0, "ref": 0}
        count = 0
        for c in counted:
            k = 4
            for m in self.metrics:
                # without raw_results, as _get_avg_scores (KeyError with it)
                if c[0] <= 0 or c[1] <= 0:
                    sc = self._metric_of_counts(m, c, k, False)
                else:   # (as in _scores_of_counts)
                    sc = prf_n(c[k], c[k + 1], c[k + 2])
                scores[m] = {s: scores[m][s] + sc[s] for s in self.stats}
                k += 3
            if self.return_lengths:
                scores["lengths"]["hyp"] += c[2]
                scores["lengths"]["ref"] += c[3]
            count += 1
        return self._averaged(scores, count)

    def _averaged(self, scores: Stats, count: int) -> Stats:
        avg_scores: Stats = {m: {s: scores[m][s] / count for s in self.stats}
                             for m in self.metrics}
        if self.return_lengths:
            avg_scores["lengths"] = {k: scores["lengths"][k] / count for k in ["hyp", "ref"]}
        return avg_scores

    def _get_scores(self, hyps: Any, refs: Any) -> List[Stats]:
        scores = []
        for hyp, ref in zip(hyps, refs):
            pair = _Pair(self._sentences(hyp), self._sentences(ref))
            sen_score: Stats = {}
            for m in self.metrics:
                sc = self._metric(m, pair, self.raw_results)
                sen_score[m] = {s: sc[s] for s in self.stats}
            if self.return_lengths:
                sen_score["lengths"] = {"hyp": len(" ".join(pair.hyp).split()),
                                        "ref": len(" ".join(pair.ref).split())}
            scores.append(sen_score)
        return scores

    def _get_avg_scores(self, hyps: Any, refs: Any) -> Stats:
        scores: Stats = {m: {s: 0 for s in self.stats} for m in self.metrics}
        if self.return_lengths:
            scores["lengths"] = {"hyp": 0, "ref": 0}
        count = 0
        for hyp, ref in zip(hyps, refs):
            pair = _Pair(self._sentences(hyp), self._sentences(ref))
            for m in self.metrics:
                # The package scores without raw_results here: with it, the
                # stats "hyp", "ref", "overlap" are missing (KeyError), as there.
                sc = self._metric(m, pair, False)
                scores[m] = {s: scores[m][s] + sc[s] for s in self.stats}
            if self.return_lengths:
                scores["lengths"]["hyp"] += len(" ".join(pair.hyp).split())
                scores["lengths"]["ref"] += len(" ".join(pair.ref).split())
            count += 1
        return self._averaged(scores, count)


def _line_count(path: str) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in f)


class FilesRougeBase:
    """The packages' ``FilesRouge``: ``get_scores`` of two files, line i of
    one against line i of the other; a drop-in sets ``rouge_class``."""

    rouge_class: Any = RougeBase

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The arguments of the package's ``Rouge``."""
        self.rouge = self.rouge_class(*args, **kwargs)

    def _check_files(self, hyp_path: str, ref_path: str) -> None:
        # The package asserts these; AssertionError without a message, as there.
        if not os.path.isfile(hyp_path) or not os.path.isfile(ref_path):
            raise AssertionError()
        if _line_count(hyp_path) != _line_count(ref_path):
            raise AssertionError()

    def get_scores(self, hyp_path: str, ref_path: str, avg: bool = False,
                   ignore_empty: bool = False) -> Any:
        """``Rouge.get_scores`` of the files' lines (UTF-8). As in the
        package, each line loses its last character, the line end (so a
        last line without one loses a character of its text)."""
        self._check_files(hyp_path, ref_path)
        with open(hyp_path, encoding="utf-8") as hyp_file:
            hyps = [line[:-1] for line in hyp_file]
        with open(ref_path, encoding="utf-8") as ref_file:
            refs = [line[:-1] for line in ref_file]
        return self.rouge.get_scores(hyps, refs, avg=avg, ignore_empty=ignore_empty)
