"""``rouge.rouge`` of ``rouge`` 1.0.1 (pltrdy): ``Rouge`` and ``FilesRouge``.

Examples:
    >>> Rouge().get_scores("the cat is on the mat", "the cat sat on the mat")[0]["rouge-1"]
    {'r': 0.8, 'p': 0.8, 'f': 0.7999999950000002}
"""
from typing import Any, List, Tuple

from rougekit import _backend
from rougekit.compat import _pltrdy
from rougekit.compat.rouge import rouge_score

__all__ = ["Rouge", "FilesRouge"]


class Rouge(_pltrdy.RougeBase):
    """pltrdy's ``Rouge``: ``Rouge(metrics=None, stats=None,
    return_lengths=False, raw_results=False, exclusive=True)``.

    ``metrics`` from "rouge-1" ... "rouge-5" and "rouge-l" (default
    ``["rouge-1", "rouge-2", "rouge-l"]``), ``stats`` from "r", "p", "f";
    ``raw_results`` gives the counts ``hyp``, ``ref``, ``overlap`` instead
    (not with ``avg=True``, which raises KeyError there, as in the package);
    ``exclusive=False`` counts repeated n-grams (and words) every time.
    Unknown names raise ValueError "Unknown metric 'x'" (or stat).

    A text's sentences are its pieces between "." (empty pieces dropped,
    whitespace collapsed); its words are split on spaces. ROUGE-L is the
    summary-level union LCS of ``rouge_score.rouge_l_summary_level``.

    >>> Rouge(metrics=["rouge-l"], raw_results=True).get_scores("a b. c", "a c")
    [{'rouge-l': {'hyp': 3, 'ref': 2, 'overlap': 2}}]
    """

    AVAILABLE_METRICS = _pltrdy.available_metrics(rouge_score)

    def _sentences(self, text: str) -> List[str]:
        return [" ".join(s.split()) for s in text.split(".") if len(s) > 0]

    def _pieces(self, texts: List[str]) -> Tuple[List[Any], bool]:
        return texts, True          # the kernel splits each on "."

    def _lcs_kind(self) -> int:
        counts = _backend.pltrdy_counts
        return counts.LCS_UNION if self.exclusive else counts.LCS_SUM

    def _lcs_counts(self, pair: Any) -> Tuple[int, int, int]:
        hyp_words, ref_words = pair.words()
        hyp_sentences, ref_sentences = pair.sentence_words()
        if self.exclusive:
            return (len(set(hyp_words)), len(set(ref_words)),
                    _pltrdy.union_lcs_count(hyp_sentences, ref_sentences))
        return (len(hyp_words), len(ref_words),
                _pltrdy.lcs_sum(hyp_sentences, ref_sentences))


class FilesRouge(_pltrdy.FilesRougeBase):
    """pltrdy's ``FilesRouge(*args, **kwargs)`` (``Rouge``'s arguments):
    ``get_scores(hyp_path, ref_path, avg=False, ignore_empty=False)`` scores
    line i of one file against line i of the other. Files that are missing
    or of different line counts raise AssertionError, as in the package."""

    rouge_class = Rouge
