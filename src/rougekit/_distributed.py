"""What ``rougekit.dask`` and ``rougekit.spark`` share.

A corpus split into partitions is scored in three steps: the options are
checked once, where the call is made (``Options``); each partition, on a
worker, becomes a ``Summary``: its number of rows, a ``MeanAggregator`` of
its per-item scores and, when the bootstrap or the per-item scores need
them, the per-item columns themselves (``summarize``); and the summaries,
in row order, become the ``CorpusResult`` that ``rougekit.score_corpus``
gives for the same rows (``corpus_result``): the aggregators' exact sums
merge to the same means, and the bootstrap draws from the same per-item
columns in the same order.
"""
import dataclasses
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from rougekit._bootstrap import corpus_intervals
from rougekit._sentences import check_sentence_split
from rougekit.aggregate import MeanAggregator
from rougekit.corpus import CorpusResult, _check_options, _item_rows, _item_setup, _signature
from rougekit.frames import _kind, _score_texts, _texts, check_columns, column_names

__all__ = ["Options", "Summary", "summarize", "corpus_result"]


@dataclasses.dataclass(frozen=True)
class Options:
    """The scoring options of a call, checked; picklable, sent to workers."""

    rouge_types: Tuple[str, ...]
    candidate: str
    references: str
    tokenizer: Any
    use_stemmer: bool
    multi_ref: str
    threads: Optional[int]
    lang: Optional[str] = None
    stem_stopwords: bool = False
    sentence_split: str = "newline"

    @classmethod
    def checked(cls, columns: Sequence[Any], rouge_types: Sequence[str], candidate: str,
                references: str, *, tokenizer: Any, use_stemmer: bool, lang: Optional[str],
                stem_stopwords: bool, sentence_split: str, multi_ref: str,
                threads: Optional[int], adds_columns: bool) -> "Options":
        """The options, after the checks ``score_corpus`` and ``score_frame``
        make; ``columns`` are the table's, for the column checks."""
        rule = check_sentence_split(sentence_split)
        types, _ = _item_setup(rouge_types, tokenizer, use_stemmer, multi_ref, threads,
                               lang, stem_stopwords)
        options = cls(tuple(name for name, _ in types), candidate, references, tokenizer,
                      use_stemmer, multi_ref, threads, lang, stem_stopwords, rule)
        check_columns(columns, candidate, references,
                      options.column_names() if adds_columns else ())
        return options

    def column_names(self) -> List[str]:
        return column_names(self.rouge_types)

    def frame_options(self) -> dict:
        """Keyword arguments of ``rougekit.score_frame``."""
        return dict(rouge_types=self.rouge_types, candidate=self.candidate,
                    references=self.references, tokenizer=self.tokenizer,
                    use_stemmer=self.use_stemmer, lang=self.lang,
                    stem_stopwords=self.stem_stopwords, sentence_split=self.sentence_split,
                    multi_ref=self.multi_ref, threads=self.threads)

    def setup(self) -> Tuple[List[Tuple[str, int]], Any]:
        """(parsed rouge types, tokenizer) as ``_item_setup`` gives them."""
        return _item_setup(self.rouge_types, self.tokenizer, self.use_stemmer,
                           self.multi_ref, self.threads, self.lang, self.stem_stopwords)


@dataclasses.dataclass
class Summary:
    """One partition's part of a corpus result."""

    n_items: int
    aggregator: MeanAggregator
    items: Optional[np.ndarray]     # (3 * types, n_items) when kept


def summarize(table: Any, options: Options, keep_items: bool) -> Summary:
    """The ``Summary`` of a pandas, polars or pyarrow table's rows."""
    types, tok = options.setup()
    candidates, references = _texts(_kind(table), table, options.candidate,
                                    options.references)
    matrix = _score_texts(types, tok, options.multi_ref, candidates, references,
                          options.threads, options.sentence_split)
    aggregator = MeanAggregator()
    aggregator.add_columns({name: matrix[3 * k:3 * k + 3]
                            for k, name in enumerate(options.rouge_types)})
    return Summary(len(candidates), aggregator, matrix if keep_items else None)


def check_corpus_options(multi_ref: str, bootstrap: int, confidence: float,
                         seed: Optional[int]) -> None:
    _check_options(multi_ref, bootstrap, confidence, seed)


def corpus_result(summaries: Sequence[Summary], options: Options, bootstrap: int,
                  confidence: float, seed: Optional[int], per_item: bool) -> CorpusResult:
    """The ``CorpusResult`` of the partitions' summaries, given in row order."""
    n_items = sum(s.n_items for s in summaries)
    if n_items == 0:
        raise ValueError("the table has no rows: there is nothing to score")
    merged = sum((s.aggregator for s in summaries), MeanAggregator())
    means = merged.result()
    scores = {name: means[name] for name in options.rouge_types}
    items = None
    if bootstrap or per_item:
        items = np.concatenate([s.items for s in summaries if s.items is not None], axis=1)
    intervals = corpus_intervals(items, scores, bootstrap, confidence, seed) \
        if bootstrap and items is not None else None
    _, tok = options.setup()
    return CorpusResult(
        scores=scores, intervals=intervals,
        per_item=_item_rows(items, list(options.rouge_types))
        if per_item and items is not None else None,
        n_items=n_items,
        signature=_signature(tok, options.multi_ref, bootstrap, confidence, seed,
                             list(options.rouge_types), options.sentence_split))
