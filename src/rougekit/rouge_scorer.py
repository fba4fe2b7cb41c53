"""ROUGE scores between two texts, as rouge-score's ``rouge_scorer`` module.

``RougeScorer`` has rouge-score 0.1.2's constructor, methods and results:
every float is equal with ``==`` to rouge-score's, and so is every type (the
empty-input ROUGE-L scores are the int 0, as there). Replacing
``from rouge_score import rouge_scorer`` with
``from rougekit import rouge_scorer`` changes nothing but the speed. The
module's other names are rouge-score's too, private helpers included
(``_create_ngrams``, ``_score_ngrams``, ``_score_lcs``, ``_lcs_table``,
``_backtrack_norec``, ``lcs_ind``, ``_find_union``, ``_union_lcs``,
``_summary_level_lcs``), with the same signatures and results.

As in rouge-score, an unknown rouge type raises ``ValueError`` when a score
is computed, and ``split_summaries=True`` needs nltk's sentence splitter only
when a rougeLsum score is computed. Differences, all on inputs rouge-score
fails on or mishandles:

- a target or prediction that is neither ``str`` nor ``bytes`` (with the
  default tokenizer) raises ``TypeError`` naming the argument;
- ``rouge_types`` of None is rougekit's default types (rouge-score fails on
  it); one that is not a list of names (a number, a list
  holding something else than str or bytes) raises ``TypeError`` when the
  scorer is built;
- ``score_multi`` with no targets raises ``ValueError`` naming ``targets``;
- ``score_multi`` with a single str or bytes as ``targets`` raises
  ``TypeError`` (rouge-score would score each character as a target);
- ``rouge_types`` is read once, so a generator works for every call.

Beyond rouge-score, keyword-only options (with their defaults the scorer is
rouge-score's): ``options=`` (a ``ScoringOptions``), ``flavor=`` (another
package's ROUGE), and the option fields a pair's scores depend on, as every
rougekit entry point takes them: ``lang=`` (XL-Sum's multilingual
tokenization and stemming, docs/guides/languages.md), ``stem_stopwords=``,
``sentence_split=`` (rougeLsum's sentences: "newline", rouge-score's rule,
"nltk" as ``split_summaries=True``, "sentencex", ...; docs/guides/sentences.md),
``remove_stopwords=``, ``counting=``, ``rouge_l=``, ``f_measure=``,
``alpha=``, ``multi_ref=`` (``score_multi``'s rule). The scorer's
``options`` and ``signature`` say what it computes.

Warnings, never a changed number: ``TokenizationWarning`` once per scorer when
the default tokenizer drops most letters of a text (``rougekit._letters``),
``SentenceSplitWarning`` once when rougeLsum gets several sentences on one
line.

>>> scorer = RougeScorer(["rouge1", "rougeL"])
>>> scorer.score("The cat sat on the mat.", "The cat is on the mat.")["rouge1"]
Score(precision=0.8333333333333334, recall=0.8333333333333334, fmeasure=0.8333333333333334)
"""
import collections
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np

from rougekit import _backend, scoring, tokenizers
from rougekit._checks import as_list
from rougekit._core._prf_py import ngram_prf
from rougekit._counts import lcs_alignment, lcs_positions, lcs_table
from rougekit._doors import check_door, resolve, takes_options
from rougekit._options import ScoringOptions
from rougekit._pipeline import (
    PairScorer,
    item_columns,
    item_rows,
    lcs_score,
    score_of,
    summary_lcs_score,
)
from rougekit._rouge_types import ROUGE_L, ROUGE_LSUM, kind_of
from rougekit._sentences import check_sentence_split
from rougekit.explanation import Explanations, explain_pair

__all__ = ["RougeScorer", "MEASURES"]

#: The measures of a Score, in order: the suffixes of ``score_columns``'s keys.
MEASURES = ("precision", "recall", "fmeasure")

Text = Union[str, bytes]


def _parse_types(rouge_types):
    """``(types, error)``: ``[(rouge_type, kind)]``, or None and the
    ValueError an unknown name raises when a score is computed."""
    try:
        names = list(rouge_types)
    except TypeError:
        raise TypeError("rouge_types must be an iterable of rouge type names, "
                        f"not {type(rouge_types).__name__}") from None
    for name in names:
        if not isinstance(name, (str, bytes)):
            raise TypeError(f"rouge_types must contain str, not {type(name).__name__}")
    try:
        return [(name, kind_of(name)) for name in names], None
    except ValueError as exc:
        return None, exc


@takes_options("RougeScorer")
class RougeScorer(scoring.BaseScorer):
    """Calculates ROUGE scores between a target and a prediction.

    Args:
      rouge_types: names to compute: "rouge1" to "rouge9", "rougeL",
        "rougeLsum" (sentences split on "\\n"); default: the options', or
        rouge1, rouge2, rougeL, rougeLsum.
      use_stemmer: stem words longer than 3 characters with the Porter
        stemmer (as NLTK's), in the default tokenizer.
      split_summaries: for rougeLsum, split sentences with nltk's
        ``sent_tokenize`` instead of on newlines (needs nltk and its data
        when a rougeLsum score is computed).
      tokenizer: an object with ``tokenize(text) -> list of tokens`` used
        instead of the default tokenizer (``use_stemmer`` is then ignored, as
        by rouge-score). Tokens are compared with ``==``; hashable ones (str,
        int, tuple) are also hashed, so equal tokens must hash alike, as for
        dict keys.
      options: (keyword) a ``rougekit.ScoringOptions`` instead of the
        arguments above and the fields below.
      flavor: (keyword) another package's ROUGE and its switches
        (``rougekit.flavors``), as every scoring function takes it.
      **fields: (keywords) the other option fields a pair's scores depend on
        (``rougekit.ScoringOptions``): ``lang`` (XL-Sum's tokenization for a
        language of ``rougekit.lang.LANGUAGES``), ``stem_stopwords``,
        ``sentence_split`` ("newline", "nltk" as ``split_summaries=True``,
        "sentencex", ...), ``remove_stopwords``, ``counting``, ``rouge_l``,
        ``f_measure``, ``alpha``, and ``multi_ref`` (how ``score_multi``
        combines the targets: "max", rouge-score's, by default). The corpus
        fields belong to ``score_corpus``.

    ``.options`` is the ``ScoringOptions`` the scorer scores with, and
    ``.signature`` the signature ``score_corpus`` gives with them. The
    scoring itself is ``rougekit._pipeline.PairScorer``'s; this class keeps
    rouge-score's constructor, attributes (``rouge_types``, ``_tokenizer``,
    ``_split_summaries``), methods and pickles.

    >>> scorer = RougeScorer(["rougeL"], use_stemmer=True)
    >>> scorer.score("The quick brown fox", "the quick fox jumps")["rougeL"].fmeasure
    0.75
    >>> scorer.options.use_stemmer, scorer.signature.split("|")[1:5]
    (True, ['types:rougeL', 'tok:rouge-score', 'lang:none', 'stem:porter'])
    """

    def __init__(self, rouge_types: Optional[Iterable[str]] = None, use_stemmer: bool = False,
                 split_summaries: bool = False, tokenizer: Optional[Any] = None, *,
                 options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                 **fields: Any) -> None:
        types, type_error = (None, None) if rouge_types is None else _parse_types(rouge_types)
        given = dict(fields)
        if "sentence_split" in given or split_summaries:
            given["sentence_split"] = check_sentence_split(given.get("sentence_split"),
                                                           bool(split_summaries))
        if tokenizer:
            # rouge-score's rule: a tokenizer given, use_stemmer is ignored
            if not callable(getattr(tokenizer, "tokenize", None)):
                raise TypeError("tokenizer must have a tokenize(text) method; "
                                f"got {type(tokenizer).__name__}")
            given["tokenizer"] = tokenizer
        elif use_stemmer:
            given["use_stemmer"] = use_stemmer
        if types:
            given["rouge_types"] = _canonical_names(types)
        elif types is not None:        # [] (rouge-score scores nothing): no options
            type_error = type_error or ValueError("rouge_types is empty")
        self._options_error = type_error
        resolved = resolve("RougeScorer", options, flavor, **given)
        self._options = resolved
        self.rouge_types = rouge_types if rouge_types is not None else resolved.names
        if resolved.tokenizer == "rouge-score" and resolved.lang is None:
            self._tokenizer = tokenizers.DefaultTokenizer(resolved.use_stemmer)
        else:
            self._tokenizer = resolved.tokenizer_object
        self._split_summaries = resolved.sentence_split == "nltk"
        self._pairs = PairScorer(resolved.types if rouge_types is None else types,
                                 None if types == [] else type_error, self._tokenizer,
                                 resolved.sentence_split, resolved)
        # the engine score() gives a pair to straight away (_score_checked)
        self._direct_engine = None

    @property
    def options(self) -> ScoringOptions:
        """The ``ScoringOptions`` this scorer scores with (an unknown rouge
        type raises its ValueError here, as when a score is computed)."""
        if self._options_error is not None:
            raise ValueError(*self._options_error.args)
        return self._options

    @property
    def signature(self) -> str:
        """The signature ``score_corpus`` gives for this scorer's options."""
        return self.options.signature()

    # Pickles keep the layout of earlier versions (rouge-score's attributes
    # and the settings they held), so they load in either direction; the
    # engines and their caches are rebuilt on the other side.
    def __getstate__(self):
        pairs = self._pairs
        return {"rouge_types": self.rouge_types, "_tokenizer": self._tokenizer,
                "_split_summaries": self._split_summaries, "_types": pairs.types,
                "_type_error": pairs.type_error, "_sentence_split": pairs.sentence_split,
                "_lsum_only": pairs.lsum_only, "_has_lsum": pairs.has_lsum,
                "_lines_to_check": pairs.lines_to_check, "_options": self._options}

    def __setstate__(self, state):
        # (states pickled before sentence_split existed)
        rule = state.get("_sentence_split") or (
            "nltk" if state.get("_split_summaries") else "newline")
        self.rouge_types = state["rouge_types"]
        self._tokenizer = state["_tokenizer"]
        self._split_summaries = state.get("_split_summaries", False)
        self._options_error = state.get("_type_error")
        self._options = state.get("_options") or _options_of_state(state, rule)
        self._pairs = PairScorer(state["_types"], state.get("_type_error"), self._tokenizer,
                                 rule, self._options)
        self._pairs.lines_to_check = state.get("_lines_to_check", 0)
        self._direct_engine = None

    # A compiled function (rougekit._core._engine.score; its twin's in pure
    # mode): a pair the engine takes runs no Python code on its way there.
    score = _backend.engine.score
    """``score(target, prediction)``: scores ``prediction`` against
    ``target``, a dict rouge type -> Score. A method, compiled with the
    compiled core (``_score_checked`` takes the calls it does not)."""

    def _score_checked(self, target: Text, prediction: Text) -> Dict[str, scoring.Score]:
        """``score()`` while a check on the first texts is pending (the
        SentenceSplitWarning's) or the scorer has no engine: the pipeline's
        ``PairScorer.score``. Once no check is left, ``score()`` gives pairs
        to the engine itself."""
        pairs = self._pairs
        result = pairs.score(target, prediction)
        if pairs.lines_to_check <= 0:
            self._direct_engine = pairs.engine
        return result

    def explain(self, target: Text, prediction: Text) -> "Explanations":
        """What each rouge type matched: a dict type -> ``Explanation``
        (``rougekit.explanation``) whose ``.score`` equals ``score()``'s, with
        the tokens, their spans in the texts, and one match per counted hit.
        Not part of rouge-score's API.

        >>> e = RougeScorer(["rouge1"]).explain("a cat sat", "the cat")["rouge1"]
        >>> e.score == RougeScorer(["rouge1"]).score("a cat sat", "the cat")["rouge1"]
        True
        >>> e.hits, e.prediction_count, e.target_count, e.matches
        (1, 2, 3, (Match(target=(1,), prediction=(1,)),))
        """
        check_door("explain", self.options)
        return explain_pair(self._pairs, target, prediction)

    def _score_python(self, target, prediction):
        """A pair through the token stages, never the engine."""
        return self._pairs.score_python(target, prediction)

    def score_multi(self, targets: Sequence[Text], prediction: Text
                    ) -> Dict[str, scoring.Score]:
        """Scores ``prediction`` against each target; per rouge type, keeps
        the score of the first target with the highest F-measure (with
        ``multi_ref`` other than "max", combines them by that rule)."""
        targets = _as_list(targets, "targets")
        if self._options.multi_ref != "max" and self._options_error is None:
            return self._combined([list(targets)], [prediction])[0]
        score_dicts = [self.score(t, prediction) for t in targets]
        types = self._pairs.types
        if not score_dicts and types:
            raise ValueError("targets must contain at least one text")
        return _first_best(score_dicts, types or [])

    def score_batch(self, targets: Sequence[Text], predictions: Sequence[Text],
                    threads: Optional[int] = None) -> List[Dict[str, scoring.Score]]:
        """Scores each prediction against the target at the same position.

        Returns a list of dicts in input order, each equal to what
        ``score(target, prediction)`` returns. With the default tokenizer,
        the pairs are scored by the engine on ``threads`` threads (default:
        all cores; the compiled engine releases the GIL); otherwise one by
        one. Ctrl-C (KeyboardInterrupt) stops the workers after their
        current pair.

        >>> RougeScorer(["rouge1"]).score_batch(["a b", "c"], ["a", "c"])[1]
        {'rouge1': Score(precision=1.0, recall=1.0, fmeasure=1.0)}
        """
        if self._pairs.engine is None:
            targets, predictions, _ = self._pairs.check_pairs(targets, predictions, threads)
            self._pairs.check_lines(t for pair in zip(targets, predictions) for t in pair)
            return [self.score(t, p) for t, p in zip(targets, predictions)]
        return self._pairs.score_batch(targets, predictions, threads)

    def score_columns(self, targets: Sequence[Text], predictions: Sequence[Text],
                      threads: Optional[int] = None) -> Dict[str, np.ndarray]:
        """Scores each prediction against the target at the same position,
        into one float64 array per rouge type and measure.

        Keys are ``"{rouge_type}_{measure}"``, measure one of ``MEASURES``
        ("precision", "recall", "fmeasure"), rouge types in the scorer's
        order. Element i of each array equals the matching field of
        ``score(targets[i], predictions[i])`` with ``==``; where ``score``
        gives rouge-score's int 0 (rougeL and rougeLsum of a text without
        tokens) the array holds 0.0. The arrays are the rows of one
        C-contiguous array of shape (3 * types, len(targets)).

        With the default tokenizer, worker threads (``threads``, default:
        all cores) score the pairs of str with the GIL released and write
        the floats straight into the arrays: no Python object per pair.
        Other pairs (bytes) are scored by ``score`` and written the same
        way; with a custom tokenizer or ``split_summaries``, every pair is.
        Two Arrow string columns without nulls (pyarrow ``string``,
        ``large_string`` or ``string_view`` Arrays or ChunkedArrays, polars
        String Series) are
        read by the default tokenizer's engine where they lie, with no
        Python str made for an ASCII text: the same numbers.
        Ctrl-C (KeyboardInterrupt) stops the workers after their current
        pair. An unknown rouge type raises ``ValueError`` even with no pairs.

        >>> columns = RougeScorer(["rouge1"]).score_columns(["a b", "c"], ["a", "c"])
        >>> list(columns)
        ['rouge1_precision', 'rouge1_recall', 'rouge1_fmeasure']
        >>> columns["rouge1_recall"].tolist()
        [0.5, 1.0]
        """
        matrix = self._pairs.score_matrix(targets, predictions, threads)
        return {f"{_type_name(rouge_type)}_{measure}": matrix[3 * k + j]
                for k, (rouge_type, _) in enumerate(self._pairs.types or [])
                for j, measure in enumerate(MEASURES)}

    def score_multi_batch(self, targets_list: Sequence[Sequence[Text]],
                          predictions: Sequence[Text], threads: Optional[int] = None
                          ) -> List[Dict[str, scoring.Score]]:
        """``score_multi(targets_list[i], predictions[i])`` for every i, in
        order, with the pairs scored as ``score_batch`` does (all cores).

        >>> RougeScorer(["rouge1"]).score_multi_batch([["a b", "a"]], ["a"])
        [{'rouge1': Score(precision=1.0, recall=1.0, fmeasure=1.0)}]
        """
        targets_list = _as_list(targets_list, "targets_list")
        predictions = _as_list(predictions, "predictions")
        if len(targets_list) != len(predictions):
            raise ValueError(f"targets_list and predictions differ in length: "
                             f"{len(targets_list)} and {len(predictions)}")
        groups = [_multi_targets(item, i) for i, item in enumerate(targets_list)]
        if self._options.multi_ref != "max" and self._options_error is None:
            return self._combined(groups, predictions, threads)
        flat_t = [t for g in groups for t in g]
        flat_p = [p for g, p in zip(groups, predictions) for _ in g]
        flat = self.score_batch(flat_t, flat_p, threads=threads)
        out, k = [], 0
        for g in groups:
            out.append(_first_best(flat[k:k + len(g)], self._pairs.types or []))
            k += len(g)
        return out


    def _combined(self, groups: List[List[Any]], predictions: Sequence[Any],
                  threads: Optional[int] = None) -> List[Dict[str, scoring.Score]]:
        """Each prediction against its targets, combined by the options'
        ``multi_ref`` (``score_corpus``'s per-item scores)."""
        if not all(groups):
            raise ValueError("targets must contain at least one text")
        columns = item_columns(self._options, list(predictions), groups, threads)
        return item_rows(columns, self._options.names)


def _canonical_names(types):
    """The option names of parsed rouge types (rouge-score also takes
    "rouge1\\n" and bytes): "rouge1" .. "rouge9", "rougeL", "rougeLsum"."""
    names = {ROUGE_L: "rougeL", ROUGE_LSUM: "rougeLsum"}
    return tuple(dict.fromkeys(names.get(kind, f"rouge{kind}") for _, kind in types))


def _options_of_state(state, rule):
    """The options of a scorer pickled before it kept them (its tokenizer
    object and rules)."""
    types = state["_types"] or []
    try:
        if types:
            return ScoringOptions(rouge_types=_canonical_names(types),
                                  tokenizer=state["_tokenizer"], sentence_split=rule)
        return ScoringOptions(tokenizer=state["_tokenizer"], sentence_split=rule)
    except (TypeError, ValueError):
        return ScoringOptions(sentence_split=rule)


def _type_name(rouge_type):
    # A bytes name (rouge-score accepts them) as text in a column name.
    return rouge_type.decode("utf-8") if isinstance(rouge_type, bytes) else rouge_type


def _multi_targets(item, i):
    targets = _as_list(item, f"targets_list[{i}]")
    if not targets:
        raise ValueError(f"targets_list[{i}] must contain at least one text")
    return targets


def _first_best(score_dicts, types):
    """Per rouge type, the score of the first dict with the highest F."""
    best = {}
    for rouge_type, _ in types:
        fs = [s[rouge_type].fmeasure for s in score_dicts]
        # max() keeps the first of equal maxima, as numpy.argmax does.
        best[rouge_type] = score_dicts[max(range(len(fs)), key=fs.__getitem__)][rouge_type]
    return best


def _as_list(x, name):
    return as_list(x, name, "a list of texts")


# --- rouge-score 0.1.2's module-level helpers, same names and results ---------

def _create_ngrams(tokens, n):
    """A Counter of the n-grams (tuples of n tokens) of ``tokens``.

    >>> _create_ngrams(["a", "b", "a", "b"], 2)
    Counter({('a', 'b'): 2, ('b', 'a'): 1})
    """
    if n >= 1:
        return collections.Counter(zip(*[tokens[i:] for i in range(n)]))
    # n <= 0: rouge-score's slices, whatever they give.
    return collections.Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def _score_ngrams(target_ngrams, prediction_ngrams):
    """rougeN's Score from the n-gram Counters of target and prediction
    (``_create_ngrams``): counts clipped per n-gram.

    >>> _score_ngrams(_create_ngrams(["a", "b"], 1), _create_ngrams(["a"], 1))
    Score(precision=1.0, recall=0.5, fmeasure=0.6666666666666666)
    """
    counts = _backend.overlap.counter_overlap(target_ngrams, prediction_ngrams)
    if counts is None:  # not two Counters of small ints: rouge-score's loop
        hits = 0
        for ngram in target_ngrams:
            hits += min(target_ngrams[ngram], prediction_ngrams[ngram])
        counts = hits, sum(target_ngrams.values()), sum(prediction_ngrams.values())
    return score_of(ngram_prf(*counts))


def _score_lcs(target_tokens, prediction_tokens):
    """rougeL's Score of two token lists (the int zeros when either is empty).

    >>> _score_lcs(["a", "b", "c"], ["a", "c"])
    Score(precision=1.0, recall=0.6666666666666666, fmeasure=0.8)
    """
    return lcs_score(target_tokens, prediction_tokens)


def _lcs_table(ref, can):
    """The LCS dynamic-programming table: ``table[i][j]`` is the LCS length
    of ``ref[:i]`` and ``can[:j]`` (tokens compared with ``==``).

    >>> _lcs_table(["a", "b"], ["b"])
    [[0, 0], [0, 0], [0, 1]]
    """
    return lcs_table(ref, can)


def _backtrack_norec(t, ref, can):
    """The ``ref`` positions of the LCS read back from table ``t``, in order:
    on a match the diagonal; otherwise left when the cell to the left is
    strictly greater than the one above, else up.

    >>> _backtrack_norec(_lcs_table(["a", "b"], ["b", "a"]), ["a", "b"], ["b", "a"])
    [0]
    """
    return [i for i, _ in lcs_alignment(t, ref, can)]


def lcs_ind(ref, can):
    """The ``ref`` positions of the LCS rouge-score picks (``_lcs_table``,
    then ``_backtrack_norec``).

    >>> lcs_ind(["a", "b", "c"], ["c", "a", "b"])
    [0, 1]
    """
    return lcs_positions(ref, can)


def _find_union(lcs_list):
    """The sorted union of lists of positions.

    >>> _find_union([[0, 2], [1, 2]])
    [0, 1, 2]
    """
    return sorted(set().union(*lcs_list))


def _union_lcs(ref, c_list):
    """The tokens of ``ref`` at the union of its LCS positions with each
    candidate sentence of ``c_list``.

    >>> _union_lcs(["a", "b", "c"], [["a"], ["c"]])
    ['a', 'c']
    """
    return [ref[i] for i in _find_union([lcs_ind(ref, c) for c in c_list])]


def _summary_level_lcs(ref_sent, can_sent):
    """rougeLsum's Score of two lists of tokenized sentences: the
    summary-level union LCS, each token counted at most as often as it
    occurs on both sides (int zeros when either side has no tokens).

    >>> _summary_level_lcs([["a", "b"], ["c"]], [["a", "b", "c"]])
    Score(precision=1.0, recall=1.0, fmeasure=1.0)
    """
    return summary_lcs_score(ref_sent, can_sent)
