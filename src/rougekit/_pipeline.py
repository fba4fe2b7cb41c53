"""The scoring pipeline that every front-end of rougekit runs.

``RougeScorer`` (the drop-in), ``score_corpus``, ``score_frame``,
``rougekit.dask``, ``rougekit.spark``, ``compute`` and the command line are
thin: each resolves its arguments into a checked ``ScoringOptions``
(``rougekit._options``, through ``rougekit._doors``) and hands the texts to
the stages here, in order:

1. **tokenizer**: the options' tokenizer object, or ``scorer_tokenizer``
   (``RougeScorer``'s rules for its own arguments).
2. **pairs**: ``PairScorer`` tokenizes (and stems) each text, splits
   rougeLsum's sentences, counts n-grams, the LCS and the union LCS, and
   gives P/R/F per pair: through the engine (``rougekit._backend.engine``,
   every rouge type from one call, on all cores) for tokenizers that behave
   as rouge-score's, through the token stages (``tokens``, ``sentences``,
   ``rougekit._counts``) for any other, with the options' counting, ROUGE-L
   and F.
3. **items**: ``item_columns`` scores each item against its references and
   combines them with a multi-reference policy (``rougekit._multi_ref``),
   into columns of shape (3 * types, items); ``item_rows`` turns the columns
   into ``CorpusResult.per_item``.
4. **corpus**: ``corpus_scores`` averages the items (or whatever the
   options' aggregation does) and adds the confidence intervals.

The stages' choices (``f_measure``, ``counting``, ``rouge_l``,
``aggregation``) are looked up by name in ``rougekit._stages``: rouge-score's
arithmetic and the exact mean are registered below, each other package's by
its flavor (``rougekit._flavors``).

>>> options = ScoringOptions(rouge_types=["rouge1", "rougeL"], use_stemmer=True)
>>> item_columns(options, ["the cats sat"], [["the cat sat", "a dog"]]).tolist()
[[1.0], [1.0], [1.0], [1.0], [1.0], [1.0]]
"""
import queue
import threading
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from rougekit import _backend, _stages, tokenizers
from rougekit._arrow_texts import aligned, first_texts, has_nulls, string_chunks
from rougekit._bootstrap import corpus_intervals
from rougekit._bulk import without_gc
from rougekit._checks import as_list, thread_count
from rougekit._core._prf_py import lcs_prf, ngram_prf
from rougekit._core._tokenizer_py import kept_chars
from rougekit._counts import counts_score, lcs_counts, ngram_counts, summary_lcs_counts
from rougekit._letters import may_lose_letters
from rougekit._multi_ref import column_means
from rougekit._options import ScoringOptions, check_lang
from rougekit._rouge_types import ROUGE_L, ROUGE_LSUM
from rougekit._sentences import (
    CHECKED_TEXTS,
    looks_like_sentences,
    nltk_sentences,
    split_chinese,
    split_periods,
    split_sentencex,
    warn_one_sentence,
)
from rougekit._spelling import option
from rougekit._workers import map_chunks
from rougekit.lang import LangTokenizer
from rougekit.scoring import AggregateScore, Score
from rougekit.tokenize import ensure_str

__all__ = ["PairScorer", "pair_scorer", "scorer_tokenizer", "check_texts", "kept_items",
           "item_columns", "reads_arrow", "arrow_item_columns", "item_rows", "corpus_scores",
           "score_of", "ngram_score", "lcs_score", "summary_lcs_score", "ScoringOptions"]


# --- 1. the tokenizer ----------------------------------------------------------------

def scorer_tokenizer(tokenizer: Any, use_stemmer: bool, lang: Optional[str],
                     stem_stopwords: bool) -> Any:
    """The tokenizer object of ``RougeScorer``'s arguments, by rouge-score's
    rules: an object with ``tokenize`` when given (``use_stemmer`` is then
    ignored), else the default tokenizer; XL-Sum's for ``lang``."""
    check_lang(bool(tokenizer), lang, stem_stopwords)
    if lang is not None:
        return LangTokenizer(lang, use_stemmer, stem_stopwords)
    if tokenizer:
        if not callable(getattr(tokenizer, "tokenize", None)):
            raise TypeError("tokenizer must have a tokenize(text) method; "
                            f"got {type(tokenizer).__name__}")
        return tokenizer
    return tokenizers.DefaultTokenizer(use_stemmer)


# --- 2. pairs: tokens, counts, P/R/F ---------------------------------------------------

def score_of(prf: Iterable[Any]) -> Score:
    """A ``Score`` of (precision, recall, fmeasure), built without parsing
    arguments (``tuple.__new__``, what ``Score(...)`` ends in): these are
    called once per pair in hot loops."""
    return tuple.__new__(Score, prf)


def ngram_score(target_tokens: Sequence[Any], prediction_tokens: Sequence[Any],
                n: int) -> Score:
    """rougeN of two token lists, as rouge-score's ``_score_ngrams`` of their
    ``_create_ngrams`` (without building the Counters)."""
    return score_of(ngram_prf(*ngram_counts(target_tokens, prediction_tokens, n)))


def lcs_score(target_tokens: Sequence[Any], prediction_tokens: Sequence[Any]) -> Score:
    """rougeL of two token lists (the int zeros when either is empty)."""
    if not target_tokens or not prediction_tokens:
        return score_of((0, 0, 0))
    try:
        lcs = _backend.lcs.lcs_length_tokens(target_tokens, prediction_tokens)
    except TypeError:  # unhashable tokens
        lcs = lcs_counts(target_tokens, prediction_tokens)[0]
    return score_of(lcs_prf(lcs, len(target_tokens), len(prediction_tokens)))


def summary_lcs_score(ref_sent: Sequence[Sequence[Any]],
                      can_sent: Sequence[Sequence[Any]]) -> Score:
    """rougeLsum of two lists of tokenized sentences: the summary-level union
    LCS, each token counted at most as often as it occurs on both sides (int
    zeros when either side has no tokens)."""
    if not ref_sent or not can_sent:
        return score_of((0, 0, 0))
    m = sum(map(len, ref_sent))
    n = sum(map(len, can_sent))
    if not m or not n:
        return score_of((0, 0, 0))
    # Tokens are counted by value, so unhashable ones raise TypeError, as
    # rouge-score's Counter does.
    return score_of(lcs_prf(_backend.lcs.summary_lcs_hits_tokens(ref_sent, can_sent), m, n))


def _nltk_sent_tokenize(text: str) -> List[str]:
    """nltk's ``sent_tokenize(text)`` (``_sentences.nltk_sentences``), or an
    error that says what to install."""
    rule = option("sentence_split", "nltk")
    try:
        import nltk  # noqa: F401 (here for its ImportError, worded below)
    except ImportError:
        raise ImportError(
            f"{rule} (nltk's sent_tokenize: rouge-score's split_summaries, torchmetrics' "
            "rougeLsum) splits sentences with nltk, which is not installed: "
            "pip install 'rougekit[nltk]', then "
            "python -m nltk.downloader punkt_tab") from None
    try:
        return nltk_sentences(text)
    except LookupError:
        raise LookupError(
            f"{rule} (nltk's sent_tokenize: rouge-score's split_summaries, torchmetrics' "
            "rougeLsum) needs nltk's punkt sentence model: "
            "python -m nltk.downloader punkt_tab") from None


class PairScorer:
    """Scores (target, prediction) pairs: the stages from text to ``Score``.

    Built from parsed rouge types (``type_error``: the ValueError to raise
    when a score is computed, rouge-score's deferred check of unknown names),
    a tokenizer object and a sentence-split rule, and ``options`` whose
    counting, ROUGE-L and F it applies (None: rouge-score's). With
    rouge-score's arithmetic, a tokenizer that behaves as rouge-score's
    default and newline sentences, the engine (``rougekit._backend.engine``)
    scores str pairs whole; anything else takes the token stages (``tokens``,
    ``sentences``, the counts). Thread-safe: worker threads take engines
    from a pool.
    """

    def __init__(self, types: Optional[List[Tuple[Any, int]]],
                 type_error: Optional[ValueError], tokenizer: Any,
                 sentence_split: str, options: Optional[ScoringOptions] = None) -> None:
        self.types = types
        # None: rouge-score's arithmetic (its int zeros included)
        self.options = options if options is not None and \
            not options.rouge_score_arithmetic else None
        self.type_error = type_error
        self.tokenizer = tokenizer
        self.sentence_split = sentence_split
        kinds = types or []
        # rouge-score skips whole-text tokenization when rougeLsum is alone.
        self.lsum_only = len(kinds) == 1 and kinds[0][1] == ROUGE_LSUM
        self.has_lsum = any(kind == ROUGE_LSUM for _, kind in kinds)
        # Texts left to look at for several sentences on one line.
        self.lines_to_check = CHECKED_TEXTS if (
            self.has_lsum and sentence_split == "newline") else 0
        self.keys = [t for t, _ in kinds]
        self.kinds = [k for _, k in kinds]
        self.engine: Any = None
        self.engine_pool: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        # The batch paths' engines, one per worker thread (by thread id;
        # worker_engine).
        self.worker_engines: Dict[int, Any] = {}
        self.worker_engines_lock = threading.Lock()
        stemming = tokenizers.default_stemming(tokenizer)
        # The default tokenizer's "no silent zeros" check (rougekit._letters),
        # shared with the engines: one warning per scorer.
        self.letter_check = tokenizers.letter_check(tokenizer) \
            if stemming is not None else None
        self.use_stemmer = stemming
        if kinds and sentence_split == "newline" and stemming is not None and \
                self.options is None:
            self.engine = self.new_engine()

    def new_engine(self) -> Any:
        return _backend.engine.Engine(self.kinds, bool(self.use_stemmer), self.keys, Score,
                                      self.score_python, self.score_pooled,
                                      self.letter_check)

    def engine_from_pool(self) -> Any:
        try:
            return self.engine_pool.get_nowait()
        except queue.Empty:
            return self.new_engine()

    def worker_engine(self) -> Any:
        """The calling worker thread's engine, made at its first chunk: a
        worker scores every chunk it takes with the same engine, whose tables
        (the token table, the kernels' scratch) stay in its core's caches;
        taken from the shared pool, engines moved between threads. Only that
        thread's chunks use it, and they run one after another."""
        engine = self.worker_engines.get(threading.get_ident())
        if engine is None:
            with self.worker_engines_lock:
                # the engines of threads that have ended go
                alive = {t.ident for t in threading.enumerate()}
                for ident in [i for i in self.worker_engines if i not in alive]:
                    del self.worker_engines[ident]
                engine = self.worker_engines[threading.get_ident()] = self.new_engine()
        return engine

    def score_pooled(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        """score() on an engine from the pool: what the scorer's own engine
        does with a pair while another thread is using it. That happens only
        when the GIL is disabled (free-threaded CPython); with the GIL, one
        engine.score call runs start to end without letting other threads in."""
        engine = self.engine_from_pool()
        try:
            return engine.score(target, prediction)
        finally:
            self.engine_pool.put(engine)

    # -- the token stages

    def check_text(self, text: Any, name: str) -> None:
        if isinstance(self.tokenizer, (tokenizers.DefaultTokenizer, LangTokenizer)) and \
                not isinstance(text, (str, bytes)):
            raise TypeError(f"{name} must be str or bytes, not {type(text).__name__}")

    def check_lines(self, texts: Iterable[Any]) -> None:
        """The SentenceSplitWarning check (rougekit._sentences), on the first
        CHECKED_TEXTS texts of this scorer."""
        for text in texts:
            if self.lines_to_check <= 0:
                return
            self.lines_to_check -= 1
            if looks_like_sentences(text):
                self.lines_to_check = 0
                warn_one_sentence()

    def tokens(self, text: Any) -> List[Any]:
        """The tokens of a text (tokenized, and stemmed when the tokenizer stems)."""
        return self.tokenizer.tokenize(text)

    def sentence_texts(self, text: Any, name: str) -> List[str]:
        """rougeLsum's sentences of a text, as strings; empty ones dropped."""
        rule = self.sentence_split
        if rule == "nltk":
            sents = _nltk_sent_tokenize(text)
        elif rule == "sentencex":
            tok = self.tokenizer
            iso = tok.language.iso if isinstance(tok, LangTokenizer) else "en"
            sents = split_sentencex(ensure_str(text, name), iso)
        elif rule == "period":
            sents = split_periods(ensure_str(text, name))
        elif rule == "chinese":
            sents = split_chinese(ensure_str(text, name))
        else:
            sents = ensure_str(text, name).split("\n")
        return [s for s in sents if len(s)]

    def sentence_tokens(self, sentence: str) -> List[Any]:
        """The tokens of one of rougeLsum's sentences."""
        tok = self.tokenizer
        # XL-Sum tokenizes rougeLsum's sentences without segmenting them.
        if isinstance(tok, LangTokenizer):
            return tok.sentence_tokens(sentence)
        return tok.tokenize(sentence)

    def sentences(self, text: Any, name: str) -> List[List[Any]]:
        """rougeLsum's sentences of a text, each a token list; empty ones dropped."""
        return [self.sentence_tokens(s) for s in self.sentence_texts(text, name)]

    # -- whole pairs

    def score(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        if self.lines_to_check > 0:
            self.check_lines((target, prediction))
        engine = self.engine
        if engine is not None:
            # str pairs in the engine; anything else comes back to score_python.
            return engine.score(target, prediction)
        return self.score_python(target, prediction)

    def score_python(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        """A pair through the token stages (what the engine computes for str)."""
        if self.type_error is not None:
            raise ValueError(*self.type_error.args)
        self.check_text(target, "target")
        self.check_text(prediction, "prediction")
        if self.options is not None:
            return self.score_counted(target, prediction)
        # rouge-score tokenizes the whole texts unless rougeLsum is alone
        target_tokens: List[Any] = [] if self.lsum_only else self.tokens(target)
        prediction_tokens: List[Any] = [] if self.lsum_only else self.tokens(prediction)
        result = {}
        for rouge_type, kind in self.types or []:
            if kind == ROUGE_L:
                result[rouge_type] = lcs_score(target_tokens, prediction_tokens)
            elif kind == ROUGE_LSUM:
                result[rouge_type] = summary_lcs_score(
                    self.sentences(target, "target"),
                    self.sentences(prediction, "prediction"))
            else:
                result[rouge_type] = ngram_score(target_tokens, prediction_tokens, kind)
        return result

    def score_counted(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        """A pair scored from its counts with the options' counting, ROUGE-L
        and F (``item_columns``'s path)."""
        assert self.options is not None
        ref, cand = _Tokenized(target, self), _Tokenized(prediction, self)
        return {rouge_type: self.options.pair_counts_score(
                    *_counts(self.options, kind, cand, ref))
                for rouge_type, kind in self.types or []}

    def check_pairs(self, targets: Any, predictions: Any,
                    threads: Optional[int]) -> Tuple[List[Any], List[Any], int]:
        targets = as_list(targets, "targets", "a list of texts")
        predictions = as_list(predictions, "predictions", "a list of texts")
        if len(targets) != len(predictions):
            raise ValueError(f"targets and predictions differ in length: "
                             f"{len(targets)} and {len(predictions)}")
        threads = thread_count(threads)
        if self.type_error is not None and targets:
            raise ValueError(*self.type_error.args)
        return targets, predictions, threads

    def score_batch(self, targets: Any, predictions: Any,
                    threads: Optional[int]) -> List[Dict[Any, Score]]:
        """``score`` of each pair, in order; the engine's pairs on ``threads``."""
        targets, predictions, threads = self.check_pairs(targets, predictions, threads)
        if self.lines_to_check > 0:
            self.check_lines(t for pair in zip(targets, predictions) for t in pair)
        if self.engine is None:
            return [self.score(t, p) for t, p in zip(targets, predictions)]

        check = self.letter_check
        suspicious: Dict[int, List[int]] = {}  # chunk start -> positions

        def run(lo, hi, cancel):
            # Pairs that are not both str come back to score_python.
            sus = None if check is None or check.done else suspicious.setdefault(lo, [])
            return self.worker_engine().score_range(targets[lo:hi], predictions[lo:hi],
                                                    cancel, sus)

        scores = [score for chunk in map_chunks(len(targets), threads, run) for score in chunk]
        if check is not None:
            # here, in order, rather than in the worker threads
            for lo in sorted(suspicious):
                for k in suspicious[lo]:
                    text = (targets if k % 2 == 0 else predictions)[lo + k // 2]
                    if not check(text):
                        return scores
        return scores

    def score_matrix(self, targets: Any, predictions: Any,
                     threads: Optional[int]) -> np.ndarray:
        """The scores of each pair as an array of shape (3 * types, pairs):
        P, R and F of each rouge type in turn (0.0 for rouge-score's int 0)."""
        if self.engine is not None:
            arrow_t, arrow_p = string_chunks(targets), string_chunks(predictions)
            if arrow_t is not None and arrow_p is not None and \
                    not has_nulls(arrow_t) and not has_nulls(arrow_p):
                return self.score_arrow_matrix(arrow_t, arrow_p, threads)
        targets, predictions, threads = self.check_pairs(targets, predictions, threads)
        if self.type_error is not None:
            raise ValueError(*self.type_error.args)
        types = self.types or []
        out = np.zeros((3 * len(types), len(targets)))
        if self.engine is None:
            for i, (target, prediction) in enumerate(zip(targets, predictions)):
                scores = self.score(target, prediction)
                for k, (rouge_type, _) in enumerate(types):
                    out[3 * k:3 * k + 3, i] = scores[rouge_type]
        else:
            if self.lines_to_check > 0:
                self.check_lines(t for pair in zip(targets, predictions) for t in pair)

            def run(lo, hi, cancel):
                self.worker_engine().score_into(targets, predictions, lo, hi, out, cancel)

            map_chunks(len(targets), threads, run)
            self.check_letters_of(targets, predictions)
        return out

    def score_arrow_matrix(self, targets: List[Any], predictions: List[Any],
                           threads: Optional[int]) -> np.ndarray:
        """``score_matrix`` of two Arrow string columns (``string_chunks``:
        their arrays, in order), which the engine reads where they lie
        (``Engine.score_arrow_into``), with NaN for a row where either is
        null. Only for a scorer with the engine."""
        if self.engine is None:
            raise ValueError("score_arrow_matrix needs the engine")
        n, m = sum(map(len, targets)), sum(map(len, predictions))
        if n != m:
            raise ValueError(f"targets and predictions differ in length: {n} and {m}")
        threads = thread_count(threads)
        if self.type_error is not None and n:
            raise ValueError(*self.type_error.args)
        pieces = aligned(targets, predictions)
        if self.lines_to_check > 0:
            self.check_lines(first_texts(pieces))
        check = self.letter_check
        # per piece, chunk start -> the rows' texts that may have lost letters
        suspicious: List[Dict[int, List[int]]] = []
        matrices = []
        for target_array, prediction_array in pieces:
            out = np.zeros((3 * len(self.types or []), len(target_array)))
            suspicious.append({})
            map_chunks(len(target_array), threads,
                       self._arrow_chunk(target_array, prediction_array, out, suspicious[-1]))
            matrices.append(out)
        if check is not None:
            # here, in order, rather than in the worker threads
            self._check_arrow_letters(pieces, suspicious)
        if len(matrices) == 1:
            return matrices[0]
        return np.concatenate(matrices, axis=1) if matrices else \
            np.zeros((3 * len(self.types or []), 0))

    def _check_arrow_letters(self, pieces: List[Tuple[Any, Any]],
                             suspicious: List[Dict[int, List[int]]]) -> None:
        """The "no silent zeros" check of the texts score_arrow_into found
        (``2 * row`` a target, ``2 * row + 1`` a prediction), in order,
        until it warns."""
        check = self.letter_check
        assert check is not None
        for (target_array, prediction_array), found in zip(pieces, suspicious):
            for lo in sorted(found):
                for k in found[lo]:
                    array = target_array if k % 2 == 0 else prediction_array
                    if not check(array[k // 2].as_py()):
                        return

    def _arrow_chunk(self, targets: Any, predictions: Any, out: np.ndarray,
                     suspicious: Dict[int, List[int]]) -> Any:
        """``map_chunks``' function for one piece of ``score_arrow_matrix``."""
        check = self.letter_check

        def run(lo, hi, cancel):
            sus = None if check is None or check.done else suspicious.setdefault(lo, [])
            self.worker_engine().score_arrow_into(targets, predictions, lo, hi, out, cancel,
                                                  sus)
        return run

    def check_letters_of(self, targets: List[Any], predictions: List[Any]) -> None:
        """The "no silent zeros" check (rougekit._letters) of texts the
        engine scored without it (score_into), in order, until it warns:
        one isascii() per ASCII text."""
        check = self.letter_check
        if check is None or check.done:
            return
        try:
            # The common case, all ASCII, at C speed (map over str.isascii).
            if all(map(str.isascii, targets)) and all(map(str.isascii, predictions)):
                return
        except TypeError:  # a text that is not a str: the loop below skips it
            pass
        for pair in zip(targets, predictions):
            for text in pair:
                if type(text) is str and not text.isascii() and \
                        may_lose_letters(text, kept_chars(text)) and not check(text):
                    return


# --- 3. items: several references each -------------------------------------------------

def check_texts(candidates: Any, references: Any, single_as_str: bool = False
                ) -> Tuple[List[str], List[Any]]:
    """Checked lists: candidates [str], references [[str, ...]]; with
    ``single_as_str``, references [str] when every entry is one str (as
    ``item_columns`` takes a column of single references, unwrapped)."""
    candidates = as_list(candidates, "candidates", "a list of str")
    references = as_list(references, "references", "a list (one entry per candidate)")
    if len(candidates) != len(references):
        raise ValueError(f"candidates has {len(candidates)} items but references "
                         f"has {len(references)}")
    if not candidates:
        raise ValueError("candidates is empty: there is nothing to score")
    if set(map(type, candidates)) != {str}:         # (one pass at C speed when all are)
        for i, cand in enumerate(candidates):
            if not isinstance(cand, str):
                raise TypeError(f"candidates[{i}] must be str, not {type(cand).__name__}")
    if single_as_str and set(map(type, references)) == {str}:
        return candidates, references
    refs = []
    with without_gc():
        for i, entry in enumerate(references):
            entry = [entry] if isinstance(entry, str) else entry
            if not isinstance(entry, (list, tuple)):
                raise TypeError(f"references[{i}] must be a str or a list of str, "
                                f"not {type(entry).__name__}")
            if not entry:
                raise ValueError(f"references[{i}] is an empty list")
            for j, ref in enumerate(entry):
                if not isinstance(ref, str):
                    raise TypeError(f"references[{i}][{j}] must be str, not "
                                    f"{type(ref).__name__}")
            refs.append(list(entry))
    return candidates, refs


class _Tokenized:
    """A text's tokens and its sentences' tokens, on demand, as the pair
    scorer tokenizes them (for rougeLsum: its sentence rule, empty sentences
    dropped)."""

    def __init__(self, text: str, pairs: PairScorer) -> None:
        self.text, self.pairs = text, pairs
        self._tokens: Optional[List[Any]] = None
        self._sentences: Optional[List[List[Any]]] = None

    @property
    def tokens(self) -> List[Any]:
        if self._tokens is None:
            self._tokens = self.pairs.tokens(self.text)
        return self._tokens

    @property
    def sentences(self) -> List[List[Any]]:
        if self._sentences is None:
            self._sentences = self.pairs.sentences(self.text, "text")
        return self._sentences


def _counts(options: ScoringOptions, kind: int, cand: _Tokenized, ref: _Tokenized
            ) -> Tuple[int, int, int]:
    """(hits, candidate total, reference total) of one pair, counted as
    ``options.counting`` and ``options.rouge_l`` say."""
    counting = _stages.COUNTINGS[options.counting]
    if kind == ROUGE_L:
        hits, ref_total, cand_total = _stages.ROUGE_L_RULES[options.rouge_l](counting, ref,
                                                                             cand)
    elif kind == ROUGE_LSUM:
        hits, ref_total, cand_total = counting.summary(ref.sentences, cand.sentences)
    else:
        hits, ref_total, cand_total = counting.ngrams(ref.tokens, cand.tokens, kind)
    return hits, cand_total, ref_total


def kept_items(options: ScoringOptions, candidates: List[str], references: Sequence[Any],
               none_left: bool = False) -> Tuple[List[str], Any]:
    """The items the options score: all, or with ``skip_empty`` those whose
    candidate and references are all non-empty strings (pltrdy's
    ``ignore_empty``); a ValueError if none is left (unless ``none_left``:
    one partition of many). ``references``: each item's list, or one str per
    item (as ``item_columns`` takes them)."""
    if not options.skip_empty:
        return candidates, references
    kept = [k for k, (c, refs) in enumerate(zip(candidates, references))
            if len(c) > 0 and (len(refs) > 0 if isinstance(refs, str)
                               else all(len(r) > 0 for r in refs))]
    if not kept and not none_left:
        raise ValueError(f"no item is left to score: every one has an empty candidate or "
                         f"reference ({option('skip_empty', True)})")
    return [candidates[k] for k in kept], [references[k] for k in kept]


def item_columns(options: ScoringOptions, candidates: List[str],
                 references: Sequence[Any], threads: Optional[int] = None,
                 pairs: Optional[PairScorer] = None) -> np.ndarray:
    """The per-item scores of checked input (``check_texts``), shape
    (3 * types, items): P, R and F of each rouge type in turn, one column per
    item, floats (0.0 for rouge-score's int 0). No items give no columns.
    With the engine, every multi-reference rule but "pooled" scores the
    flattened pairs on all cores and combines their columns
    (``rougekit._stages.MULTI_REF_RULES``); otherwise the pairs' token counts
    are formed here.

    ``references`` holds each item's list of references, or one str per
    item (a column of single references, scored without wrapping each in a
    list). ``pairs``: a ``pair_scorer(options)`` kept across calls, whose
    engines keep their token tables and stem caches warm (engines that
    score a column batch by batch); by default, a new one."""
    types = options.types
    if threads is not None:
        thread_count(threads)
    if not candidates:
        return np.zeros((3 * len(types), 0))
    if pairs is None:
        pairs = pair_scorer(options)
    rule = _stages.MULTI_REF_RULES[options.multi_ref]
    one_each = isinstance(references[0], str)
    per_item = [1] * len(references) if one_each else [len(refs) for refs in references]
    pools = getattr(rule, "pools_counts", False)
    if not pools and pairs.engine is not None:
        if one_each:        # a column of single references, as they are
            return rule(pairs.score_matrix(references, candidates, threads), per_item)
        targets = [r for refs in references for r in refs]
        predictions = [c for c, refs in zip(candidates, references) for _ in refs]
        return rule(pairs.score_matrix(targets, predictions, threads), per_item)
    if one_each:
        references = [[r] for r in references]
    if pairs.lines_to_check:
        pairs.check_lines(t for c, refs in zip(candidates, references) for t in (c, *refs))
    rows = []
    for cand_text, ref_texts in zip(candidates, references):
        cand = _Tokenized(cand_text, pairs)
        refs = [_Tokenized(r, pairs) for r in ref_texts]
        counts = [[_counts(options, kind, cand, r) for r in refs] for _, kind in types]
        if pools:       # one column per item: the references' counts pooled
            rows.append([x for c in counts for x in rule(c, options.pair_counts_score)])
        else:           # one column per reference, combined below
            rows.extend([x for c in counts for x in options.pair_counts_score(*c[j])]
                        for j in range(len(refs)))
    flat = np.array(rows, dtype=np.float64).reshape(len(rows), 3 * len(types)).T.copy()
    return flat if pools else rule(flat, per_item)


def reads_arrow(options: ScoringOptions, pairs: PairScorer) -> bool:
    """Whether ``arrow_item_columns`` scores with these options and pair
    scorer: through the engine, the references' scores combined as scores
    (every multi-reference rule but "pooled")."""
    rule = _stages.MULTI_REF_RULES[options.multi_ref]
    return pairs.engine is not None and not getattr(rule, "pools_counts", False)


def arrow_item_columns(options: ScoringOptions, candidates: List[Any], references: List[Any],
                       threads: Optional[int] = None,
                       pairs: Optional[PairScorer] = None) -> Optional[np.ndarray]:
    """``item_columns`` of two Arrow string columns, one reference per row
    (``rougekit._arrow_texts.string_chunks``: their arrays), which the
    engine reads where they lie; NaN for a row where either is null. None
    when these options do not score through the engine: the caller then
    reads the columns as lists for ``item_columns``."""
    if threads is not None:
        thread_count(threads)
    if pairs is None:
        pairs = pair_scorer(options)
    if not reads_arrow(options, pairs):
        return None
    rule = _stages.MULTI_REF_RULES[options.multi_ref]
    matrix = pairs.score_arrow_matrix(references, candidates, threads)
    # (one reference per item, as an array: a list of ints per call costs a
    # DuckDB vector's share)
    if not (has_nulls(candidates) or has_nulls(references)):
        return rule(matrix, np.ones(matrix.shape[1], dtype=np.int64))
    scored = ~np.isnan(matrix[0]) if len(matrix) else np.zeros(matrix.shape[1], bool)
    matrix[:, scored] = rule(matrix[:, scored], np.ones(int(scored.sum()), dtype=np.int64))
    return matrix


def item_rows(columns: np.ndarray, names: Sequence[str]) -> List[Dict[str, Score]]:
    """``CorpusResult.per_item`` from the per-item columns: one dict of
    Scores per item, made by the engine as its own results are
    (``engine.score_dicts``: no Python call per item, the objects left
    untracked by the cyclic collector), with the collector paused
    meanwhile: each object allocated counts towards its next pass, tracked
    or not, and the passes they would set off, young ones by the dozen, add
    up to a pass over the whole heap (``rougekit._bulk``)."""
    with without_gc():
        return _backend.engine.score_dicts(list(names), Score,
                                           np.ascontiguousarray(columns, dtype=np.float64))


# --- 4. the corpus -------------------------------------------------------------------

def corpus_scores(options: ScoringOptions, columns: np.ndarray
                  ) -> Tuple[Dict[str, Score], Optional[Dict[str, AggregateScore]],
                             List[Dict[str, Score]]]:
    """``(scores, intervals, per_item)`` of the items' columns, aggregated as
    ``options.aggregation`` says (``rougekit._stages.AGGREGATIONS``):
    "mean" here; the others by their flavors."""
    scores, intervals = _stages.AGGREGATIONS[options.aggregation](options, columns)
    return scores, intervals, item_rows(columns, options.names)


def pair_scorer(options: ScoringOptions) -> PairScorer:
    """A new ``PairScorer`` for these options."""
    return PairScorer(options.types, None, options.tokenizer_object, options.sentence_split,
                      options)


# --- rouge-score's stages, and rougekit's exact mean --------------------------------

class ClippedCounting:
    """rouge-score's counting: each n-gram as often as it occurs on both
    sides; rougeLsum's union LCS hits clipped by the tokens' counts."""

    ngrams = staticmethod(ngram_counts)
    summary = staticmethod(summary_lcs_counts)


def harmonic_score(hits: Any, candidate_total: Any, reference_total: Any,
                   alpha: float) -> Score:
    """rouge-score's P, R and F = 2PR / (P + R) (``alpha`` is the rouge155
    F's alone)."""
    return counts_score(hits, candidate_total, reference_total)


def whole_text_lcs(counting: Any, ref: Any, cand: Any) -> Tuple[int, int, int]:
    """rougeL as rouge-score's: the LCS of the whole texts' tokens."""
    return lcs_counts(ref.tokens, cand.tokens)


def summary_level_lcs(counting: Any, ref: Any, cand: Any) -> Tuple[int, int, int]:
    """rougeL as ROUGE-1.5.5's and pltrdy's: rougeLsum's summary-level LCS,
    counted as the options count."""
    return counting.summary(ref.sentences, cand.sentences)


def exact_means(options: ScoringOptions, columns: np.ndarray
                ) -> Tuple[Dict[str, Score], Optional[Dict[str, AggregateScore]]]:
    """The float nearest each exact mean of the items' P, R and F, and with
    ``options.bootstrap`` their percentile intervals (``rougekit._bootstrap``)."""
    scores = column_means(columns, options.names)
    intervals = corpus_intervals(columns, scores, options.bootstrap, options.confidence,
                                 options.seed) if options.bootstrap else None
    return scores, intervals


_stages.COUNTINGS.add("clipped", ClippedCounting)
_stages.F_MEASURES.add("harmonic", harmonic_score)
_stages.ROUGE_L_RULES.add("lcs", whole_text_lcs)
_stages.ROUGE_L_RULES.add("summary", summary_level_lcs)
_stages.AGGREGATIONS.add("mean", exact_means)
