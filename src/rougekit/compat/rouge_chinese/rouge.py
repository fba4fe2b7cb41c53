"""``rouge_chinese.rouge`` of ``rouge-chinese`` 1.0.3: ``Rouge`` and
``FilesRouge``, for Chinese text segmented into space-separated words (e.g.
``" ".join(jieba.cut(text))``).

Examples:
    >>> Rouge().get_scores("我 爱 北京 。 天安门 很 大", "我 爱 天安门")[0]["rouge-l"]
    {'r': 1.0, 'p': 0.42857142857142855, 'f': 0.5999999958}
"""
from typing import Any, List, Tuple

from rougekit import _backend
from rougekit._sentences import split_chinese
from rougekit.compat import _pltrdy
from rougekit.compat.rouge_chinese import rouge_score

__all__ = ["Rouge", "FilesRouge"]



class Rouge(_pltrdy.RougeBase):
    """rouge-chinese's ``Rouge``: ``Rouge(metrics=None, stats=None,
    return_lengths=False, raw_results=False, exclusive=True)``, as pltrdy's
    (:class:`rougekit.compat.rouge.Rouge`) but for the sentences (``cut_sent``:
    Chinese and ASCII end marks, not ".") and ROUGE-L (the LCS of the whole
    texts' words, with repeats, whatever ``exclusive`` says).
    """

    AVAILABLE_METRICS = _pltrdy.available_metrics(rouge_score)

    def cut_sent(self, para: str) -> List[str]:
        """rouge-chinese's sentences of a text (before whitespace is collapsed
        and empty ones dropped).

        >>> Rouge().cut_sent("你好。再见！“好的。”他说")
        ['你好。', '再见！', '“好的。”', '他说']
        """
        return split_chinese(para)

    def _sentences(self, text: str) -> List[str]:
        return [" ".join(s.split()) for s in self.cut_sent(text) if len(s) > 0]

    def _pieces(self, texts: List[str]) -> Tuple[List[Any], bool]:
        return [self.cut_sent(t) for t in texts], False

    def _lcs_kind(self) -> int:
        return _backend.pltrdy_counts.LCS_WHOLE

    def _lcs_counts(self, pair: Any) -> Tuple[int, int, int]:
        hyp_words, ref_words = pair.words()
        return (len(hyp_words), len(ref_words),
                _pltrdy.lcs_length_tokens(ref_words, hyp_words))


class FilesRouge(_pltrdy.FilesRougeBase):
    """rouge-chinese's ``FilesRouge(*args, **kwargs)`` (``Rouge``'s
    arguments): line i of one file against line i of the other."""

    rouge_class = Rouge
