"""The scoring pipeline that every front-end of rougekit runs.

``RougeScorer`` (the drop-in), ``score_corpus``, ``score_frame``,
``rougekit.dask``, ``rougekit.spark``, ``compute`` and the command line are
thin: each turns its arguments into a checked ``ScoringOptions`` and hands
the texts to the stages here, in order:

1. **options**: ``ScoringOptions``, frozen and checked once, holds every
   option that changes a number; the signature is derived from it
   (``ScoringOptions.signature``) and read back into it
   (``ScoringOptions.from_signature``). A new option is added here.
2. **tokenizer**: ``resolve_tokenizer`` (names, objects, ``lang=``) and
   ``scorer_tokenizer`` (``RougeScorer``'s rules); the rule "lang= or
   tokenizer=, not both" lives in ``check_lang``.
3. **pairs**: ``PairScorer`` tokenizes (and stems) each text, splits
   rougeLsum's sentences, counts n-grams, the LCS and the union LCS, and
   gives P/R/F per pair: through the engine (``rougekit._backend.engine``,
   every rouge type from one call, on all cores) for tokenizers that behave
   as rouge-score's, through the token stages (``tokens``, ``sentences``,
   ``rougekit._counts``) for any other.
4. **items**: ``item_columns`` scores each item against its references and
   combines them with a multi-reference policy (``rougekit._multi_ref``),
   into columns of shape (3 * types, items); ``item_rows`` turns the columns
   into ``CorpusResult.per_item``.
5. **corpus**: ``corpus_scores`` averages the items (or takes rouge-score's
   bootstrap medians) and adds the confidence intervals.

>>> options = ScoringOptions(rouge_types=["rouge1", "rougeL"], use_stemmer=True)
>>> options.rouge_types, options.names
(('rouge1', 'rougeL'), ['rouge1', 'rougeL'])
>>> item_columns(options, ["the cats sat"], [["the cat sat", "a dog"]]).tolist()
[[1.0], [1.0], [1.0], [1.0], [1.0], [1.0]]
>>> options.signature()  # doctest: +ELLIPSIS
'rougekit:...|types:rouge1,rougeL|tok:rouge-score|lang:none|stem:porter|stop:none|split:newline|multi:max|agg:mean|boot:none'
>>> ScoringOptions.from_signature(options.signature()) == options
True
"""
import dataclasses
import queue
import threading
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from rougekit import _backend, tokenizers
from rougekit._bootstrap import corpus_intervals
from rougekit._checks import as_list, check_int, check_real, check_seed, thread_count
from rougekit._core._prf_py import lcs_prf, ngram_prf
from rougekit._core._rouge155_numbers_py import f_measure as rouge155_f
from rougekit._core._rouge155_numbers_py import round5
from rougekit._core._tokenizer_py import kept_chars
from rougekit._counts import (
    counts_score,
    lcs_counts,
    ngram_counts,
    ngram_set_counts,
    summary_lcs_counts,
    summary_word_set_counts,
)
from rougekit._letters import may_lose_letters
from rougekit._multi_ref import (
    MULTI_REF_POLICIES,
    column_means,
    combine_columns,
    combine_counts,
)
from rougekit._rouge_types import ROUGE_L, ROUGE_LSUM, parse_rouge_types
from rougekit._sentences import (
    CHECKED_TEXTS,
    check_sentence_split,
    looks_like_sentences,
    split_chinese,
    split_periods,
    split_sentencex,
    warn_one_sentence,
)
from rougekit._workers import map_chunks
from rougekit.compat._pltrdy import pltrdy_f
from rougekit.lang import LangTokenizer
from rougekit.rouge155._run import numeral_order
from rougekit.scoring import AggregateScore, BootstrapAggregator, Score
from rougekit.signature import Signature, parse_signature
from rougekit.tokenize import ensure_str
from rougekit.word_tokenizers import get_tokenizer

__all__ = ["ScoringOptions", "PairScorer", "check_lang", "resolve_tokenizer",
           "scorer_tokenizer", "check_texts", "item_columns", "item_rows", "corpus_scores",
           "score_of", "ngram_score", "lcs_score", "summary_lcs_score"]

#: What ``score_corpus`` can do with the per-item scores.
CORPUS_AGGREGATIONS = ("mean", "bootstrap-median", "mean-in-order", "rouge155-bootstrap")
#: How n-grams (and rougeLsum's union LCS) are counted.
COUNTINGS = ("clipped", "sets")
#: What rougeL is: the LCS of the whole texts, or rougeLsum's summary-level LCS.
ROUGE_L_RULES = ("lcs", "summary")
#: F from precision and recall.
F_MEASURES = ("harmonic", "epsilon", "rouge155")


# --- 1. options -------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class ScoringOptions:
    """Every option that changes a ROUGE number, checked when built.

    Fields (the keyword arguments of ``score_corpus``, whose docstring says
    what each does): ``rouge_types`` (kept as a tuple), ``tokenizer`` (a name
    of ``rougekit.word_tokenizers`` or an object with ``tokenize``),
    ``use_stemmer``, ``lang``, ``stem_stopwords``, ``sentence_split``,
    ``multi_ref``, ``aggregation``, ``bootstrap``, ``confidence``, ``seed``;
    and the stages where other packages' ROUGE differs from rouge-score's
    (the flavors of ``rougekit.flavors`` set them; the defaults are
    rouge-score's): ``remove_stopwords`` (ROUGE-1.5.5's ``-s``, with the
    "rouge155" tokenizer), ``counting`` ("clipped": each n-gram as often as
    it occurs on both sides; "sets": distinct n-grams, and for rougeLsum
    the distinct words on the union LCS, as pltrdy's ``rouge``),
    ``rouge_l`` ("lcs": the LCS of the whole texts; "summary": rougeL is
    rougeLsum's summary-level LCS, as ROUGE-1.5.5's and pltrdy's ROUGE-L),
    ``f_measure`` ("harmonic": 2PR / (P + R); "epsilon": pltrdy's
    2 (PR / (P + R + 1e-8)); "rouge155": the script's, from P and R rounded
    to 5 decimals, ``PR / ((1 - alpha) P + alpha R)`` rounded again) and
    ``alpha`` (only with "rouge155", its ``-p``).
    ``threads`` is not here: it changes the speed, never a number.

    Every public function that scores takes ``options=ScoringOptions(...)``
    beside its keyword arguments. Instances are immutable, hashable,
    picklable (the resolved tokenizer is rebuilt after unpickling) and
    compare by their fields; ``dataclasses.replace`` gives a changed copy,
    checked again.

    >>> ScoringOptions(multi_ref="pooled").multi_ref
    'pooled'
    >>> ScoringOptions(lang="english", tokenizer="whitespace")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: give lang= or tokenizer=, not both: ...
    """

    rouge_types: Tuple[str, ...] = ("rouge1", "rouge2", "rougeL")
    tokenizer: Any = "rouge-score"
    use_stemmer: bool = False
    lang: Optional[str] = None
    stem_stopwords: bool = False
    sentence_split: str = "newline"
    multi_ref: str = "max"
    aggregation: str = "mean"
    bootstrap: int = 0
    confidence: float = 0.95
    seed: Optional[int] = None
    remove_stopwords: bool = False
    counting: str = "clipped"
    rouge_l: str = "lcs"
    f_measure: str = "harmonic"
    alpha: float = 0.5

    def __post_init__(self) -> None:
        types = parse_rouge_types(self.rouge_types)
        object.__setattr__(self, "rouge_types", tuple(name for name, _ in types))
        object.__setattr__(self, "sentence_split", check_sentence_split(self.sentence_split))
        check_corpus_options(self.multi_ref, self.bootstrap, self.confidence, self.seed,
                             self.aggregation)
        check_stage_options(self.counting, self.rouge_l, self.f_measure, self.alpha)
        if not isinstance(self.remove_stopwords, bool):
            raise TypeError("remove_stopwords must be a bool, not "
                            f"{type(self.remove_stopwords).__name__}")
        object.__setattr__(self, "alpha", float(self.alpha))
        object.__setattr__(self, "_types", types)
        object.__setattr__(self, "_tokenizer", resolve_tokenizer(
            self.tokenizer, self.use_stemmer, self.lang, self.stem_stopwords,
            self.remove_stopwords))

    # The resolved tokenizer is not pickled: it is rebuilt from the fields.
    def __getstate__(self) -> Dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    @classmethod
    def from_signature(cls, signature: str) -> "ScoringOptions":
        """The options a signature line records (``rougekit.signature``); a
        ValueError if it names a flavor whose options its fields are not."""
        options = cls(**parse_signature(signature))
        named = Signature.parse(signature).flavor
        if named:
            from rougekit.flavors import flavor_fields
            fields = flavor_fields(named)
            fields.pop("rouge_types", None)
            wrong = [k for k, v in fields.items() if getattr(options, k) != v]
            if wrong:
                raise ValueError(f"the signature names flavor:{named}, but its fields give "
                                 + ", ".join(f"{k}={getattr(options, k)!r}" for k in wrong)
                                 + " where that flavor has "
                                 + ", ".join(f"{k}={fields[k]!r}" for k in wrong))
        return options

    @classmethod
    def of(cls, options: Optional["ScoringOptions"], defaults: Dict[str, Any],
           **given: Any) -> "ScoringOptions":
        """A front-end's options: ``options`` when given (then each keyword
        argument of ``given`` must be at its default in ``defaults`` or equal
        to the option's value, else a ValueError names it), else the options
        the keywords give."""
        if options is None:
            return cls(**given)
        if not isinstance(options, ScoringOptions):
            raise TypeError("options must be a rougekit.ScoringOptions, not "
                            f"{type(options).__name__}")
        clash = [name for name, value in given.items()
                 if not _same(value, defaults.get(name, _MISSING))
                 and not _same(value, getattr(options, name, _MISSING))]
        if clash:
            raise ValueError("give options= or the keyword arguments it holds, not both: "
                             + ", ".join(clash))
        return options

    @property
    def rouge_score_arithmetic(self) -> bool:
        """Whether the pairs are counted and scored as rouge-score does
        (clipped counts, rougeL the whole texts' LCS, the harmonic F): what
        the compiled engine computes."""
        return (self.counting, self.rouge_l, self.f_measure) == ("clipped", "lcs", "harmonic")

    @property
    def flavor(self) -> Optional[str]:
        """The flavor (``rougekit.flavors``) whose preset these options are,
        with its parameters (``"xlsum:french"``, ``"rouge155:-m -s"``), or
        None: a combination no flavor is."""
        from rougekit.flavors import flavor_of
        return flavor_of(self)

    def pair_counts_score(self, hits: Any, candidate_total: Any, reference_total: Any
                          ) -> Score:
        """One comparison's Score from its counts, with these options' F
        (zeros when either total is 0)."""
        return counts_score_with(self.f_measure, self.alpha, hits, candidate_total,
                                 reference_total)

    @property
    def names(self) -> List[str]:
        """The rouge type names, as a list."""
        return list(self.rouge_types)

    @property
    def types(self) -> List[Tuple[str, int]]:
        """``[(rouge_type, kind)]``: kind n >= 1 for rougeN, ``ROUGE_L`` or
        ``ROUGE_LSUM`` (``rougekit._rouge_types``)."""
        return list(self._types)  # type: ignore[attr-defined]

    @property
    def tokenizer_object(self) -> Any:
        """The tokenizer the options resolve to (an object with ``tokenize``)."""
        return self._tokenizer  # type: ignore[attr-defined]

    def pair_scorer(self) -> "PairScorer":
        """A new ``PairScorer`` for these options."""
        return PairScorer(self.types, None, self.tokenizer_object, self.sentence_split)

    def signature(self, **fields: Any) -> str:
        """The signature line of numbers scored with these options
        (``rougekit.signature``); ``fields`` override ``Signature`` fields
        the options do not decide (``aggregation="none"`` for per-item
        scores, ``extra``).

        >>> ScoringOptions(rouge_types=["rouge1"]).signature(aggregation="none")[-28:]
        'multi:max|agg:none|boot:none'
        """
        seed = "numpy-global" if self.aggregation == "bootstrap-median" and self.seed is None \
            else "perl-srand" if self.aggregation == "rouge155-bootstrap" else self.seed
        described: Dict[str, Any] = dict(
            multi_ref=self.multi_ref, aggregation=self.aggregation, bootstrap=self.bootstrap,
            confidence=self.confidence, seed=seed, counting=self.counting,
            rouge_l=self.rouge_l, f_measure=self.f_measure, alpha=self.alpha,
            flavor=self.flavor or "")
        described.update(fields)
        return str(Signature.of_tokenizer(self.tokenizer_object, self.names,
                                          self.sentence_split, **described))


_MISSING = object()


def _same(value: Any, default: Any) -> bool:
    if value is default:
        return True
    try:
        return bool(value == default) or (isinstance(value, (list, tuple))
                                          and isinstance(default, (list, tuple))
                                          and tuple(value) == tuple(default))
    except Exception:
        return False


def check_corpus_options(multi_ref: Any, bootstrap: Any, confidence: Any, seed: Any,
                         aggregation: Any = "mean",
                         aggregations: Sequence[str] = CORPUS_AGGREGATIONS) -> None:
    """The checks of the multi-reference and aggregation options."""
    if not isinstance(multi_ref, str):
        raise TypeError(f"multi_ref must be str, not {type(multi_ref).__name__}")
    if multi_ref not in MULTI_REF_POLICIES:
        raise ValueError(f"unknown multi_ref policy {multi_ref!r}; valid: "
                         + ", ".join(MULTI_REF_POLICIES))
    check_int("bootstrap", bootstrap, minimum=0)
    check_real("confidence", confidence, 0, 1)
    check_seed("seed", seed)
    if not isinstance(aggregation, str) or aggregation not in aggregations:
        raise ValueError(f"unknown aggregation {aggregation!r}; valid: "
                         + ", ".join(aggregations))
    if aggregation == "bootstrap-median" and not bootstrap:
        raise ValueError("aggregation='bootstrap-median' needs bootstrap=N resamples "
                         "(rouge-score's BootstrapAggregator draws 1000)")
    if aggregation == "rouge155-bootstrap":
        if not bootstrap or bootstrap > 10 ** 8:
            raise ValueError("aggregation='rouge155-bootstrap' needs bootstrap=N resamples, "
                             "1 <= N <= 1e8 (ROUGE-1.5.5's -r, 1000 by default)")
        if seed is not None:
            raise ValueError("aggregation='rouge155-bootstrap' draws as ROUGE-1.5.5.pl "
                             "does (srand(0), srand(1), ...): it takes no seed=")


def check_stage_options(counting: Any, rouge_l: Any, f_measure: Any, alpha: Any) -> None:
    """The checks of the stage options (``ScoringOptions``'s docstring)."""
    for name, value, valid in (("counting", counting, COUNTINGS),
                               ("rouge_l", rouge_l, ROUGE_L_RULES),
                               ("f_measure", f_measure, F_MEASURES)):
        if not isinstance(value, str) or value not in valid:
            raise ValueError(f"unknown {name} {value!r}; valid: " + ", ".join(valid))
    check_real("alpha", alpha, 0, 1)
    if f_measure != "rouge155" and alpha != 0.5:
        raise ValueError(f"alpha={alpha!r} applies only with f_measure='rouge155' "
                         "(ROUGE-1.5.5's -p)")


def counts_score_with(f_measure: str, alpha: float, hits: Any, candidate_total: Any,
                      reference_total: Any) -> Score:
    """A Score from counts with the F of ``f_measure`` (``ScoringOptions``);
    zeros when either total is 0.

    >>> counts_score_with("epsilon", 0.5, 4, 5, 5)
    Score(precision=0.8, recall=0.8, fmeasure=0.7999999950000002)
    >>> counts_score_with("rouge155", 0.5, 1, 3, 2)
    Score(precision=0.33333, recall=0.5, fmeasure=0.4)
    """
    if not candidate_total or not reference_total:
        return Score(0.0, 0.0, 0.0)
    if f_measure == "harmonic":
        return counts_score(hits, candidate_total, reference_total)
    if f_measure == "epsilon":
        precision, recall = hits / candidate_total, hits / reference_total
        return Score(precision, recall, pltrdy_f(precision, recall))
    precision, recall = round5(hits / candidate_total), round5(hits / reference_total)
    return Score(precision, recall, rouge155_f(precision, recall, alpha))


# --- 2. the tokenizer ----------------------------------------------------------------

def check_lang(tokenizer_given: bool, lang: Optional[str], stem_stopwords: bool) -> None:
    """The rules of ``lang=``: not with a tokenizer; ``stem_stopwords`` only with it."""
    if lang is not None:
        if tokenizer_given:
            raise ValueError("give lang= or tokenizer=, not both: lang= sets the tokenizer "
                             "(XL-Sum's for that language)")
    elif stem_stopwords:
        raise ValueError("stem_stopwords=True applies only with lang=")


def resolve_tokenizer(tokenizer: Any, use_stemmer: bool, lang: Optional[str],
                      stem_stopwords: bool, remove_stopwords: bool = False) -> Any:
    """The tokenizer object of ``score_corpus``'s options: XL-Sum's for
    ``lang``, else a name of ``rougekit.word_tokenizers`` or an object with
    ``tokenize`` (``use_stemmer`` only with rouge-score's and rouge155's,
    ``remove_stopwords`` only with rouge155's)."""
    check_lang(not (isinstance(tokenizer, str) and tokenizer == "rouge-score"), lang,
               stem_stopwords)
    if lang is not None:
        if remove_stopwords:
            raise ValueError("remove_stopwords=True (ROUGE-1.5.5's -s) needs "
                             "tokenizer='rouge155', not lang=")
        return LangTokenizer(lang, use_stemmer, stem_stopwords)
    return get_tokenizer(tokenizer, use_stemmer=use_stemmer,
                         remove_stopwords=remove_stopwords)


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


# --- 3. pairs: tokens, counts, P/R/F ---------------------------------------------------

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
    """nltk's ``sent_tokenize(text)``, or an error that says what to install."""
    try:
        import nltk
    except ImportError:
        raise ImportError(
            "split_summaries=True splits sentences with nltk, which is not "
            "installed: pip install 'rougekit[nltk]', then "
            "python -m nltk.downloader punkt_tab") from None
    try:
        return nltk.sent_tokenize(text)
    except LookupError:
        raise LookupError(
            "split_summaries=True needs nltk's punkt sentence model: "
            "python -m nltk.downloader punkt_tab") from None


class PairScorer:
    """Scores (target, prediction) pairs: the stages from text to ``Score``.

    Built from parsed rouge types (``type_error``: the ValueError to raise
    when a score is computed, rouge-score's deferred check of unknown names),
    a tokenizer object and a sentence-split rule. With a tokenizer that
    behaves as rouge-score's default and newline sentences, the engine
    (``rougekit._backend.engine``) scores str pairs whole; anything else takes
    the token stages (``tokens``, ``sentences``, the counts). Thread-safe:
    worker threads take engines from a pool.
    """

    def __init__(self, types: Optional[List[Tuple[Any, int]]],
                 type_error: Optional[ValueError], tokenizer: Any,
                 sentence_split: str) -> None:
        self.types = types
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
        if kinds and sentence_split == "newline" and stemming is not None:
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


# --- 4. items: several references each -------------------------------------------------

def check_texts(candidates: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
    """Checked lists: candidates [str], references [[str, ...]]."""
    candidates = as_list(candidates, "candidates", "a list of str")
    references = as_list(references, "references", "a list (one entry per candidate)")
    if len(candidates) != len(references):
        raise ValueError(f"candidates has {len(candidates)} items but references "
                         f"has {len(references)}")
    if not candidates:
        raise ValueError("candidates is empty: there is nothing to score")
    for i, cand in enumerate(candidates):
        if not isinstance(cand, str):
            raise TypeError(f"candidates[{i}] must be str, not {type(cand).__name__}")
    refs = []
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
    sets = options.counting == "sets"
    if kind == ROUGE_L and options.rouge_l == "lcs":
        hits, ref_total, cand_total = lcs_counts(ref.tokens, cand.tokens)
    elif kind in (ROUGE_L, ROUGE_LSUM):
        summary_count = summary_word_set_counts if sets else summary_lcs_counts
        hits, ref_total, cand_total = summary_count(ref.sentences, cand.sentences)
    else:
        ngram_count = ngram_set_counts if sets else ngram_counts
        hits, ref_total, cand_total = ngram_count(ref.tokens, cand.tokens, kind)
    return hits, cand_total, ref_total


def item_columns(options: ScoringOptions, candidates: List[str],
                 references: List[List[str]], threads: Optional[int] = None) -> np.ndarray:
    """The per-item scores of checked input (``check_texts``), shape
    (3 * types, items): P, R and F of each rouge type in turn, one column per
    item, floats (0.0 for rouge-score's int 0). No items give no columns.
    With the engine, every policy but "pooled" scores the flattened pairs on
    all cores and combines the columns; the others go through token counts."""
    types = options.types
    if threads is not None:
        thread_count(threads)
    if not candidates:
        return np.zeros((3 * len(types), 0))
    pairs = options.pair_scorer()
    policy = options.multi_ref
    if policy != "pooled" and pairs.engine is not None and options.rouge_score_arithmetic:
        targets = [r for refs in references for r in refs]
        predictions = [c for c, refs in zip(candidates, references) for _ in refs]
        flat = pairs.score_matrix(targets, predictions, threads)
        return combine_columns(policy, flat, [len(refs) for refs in references])
    if pairs.lines_to_check:
        pairs.check_lines(t for c, refs in zip(candidates, references) for t in (c, *refs))
    rows = []
    for cand_text, ref_texts in zip(candidates, references):
        cand = _Tokenized(cand_text, pairs)
        refs = [_Tokenized(r, pairs) for r in ref_texts]
        rows.append([x for _, kind in types
                     for x in combine_counts(policy, [_counts(options, kind, cand, r)
                                                      for r in refs],
                                             options.pair_counts_score)])
    return np.array(rows, dtype=np.float64).reshape(len(rows), 3 * len(types)).T.copy()


def item_rows(columns: np.ndarray, names: Sequence[str]) -> List[Dict[str, Score]]:
    """``CorpusResult.per_item`` from the per-item columns."""
    values = columns.tolist()
    per_type = [list(map(Score, *values[3 * k:3 * k + 3])) for k in range(len(names))]
    return [dict(zip(names, item)) for item in zip(*per_type)] if names else []


# --- 5. the corpus -------------------------------------------------------------------

def corpus_scores(options: ScoringOptions, columns: np.ndarray
                  ) -> Tuple[Dict[str, Score], Optional[Dict[str, AggregateScore]],
                             List[Dict[str, Score]]]:
    """``(scores, intervals, per_item)`` of the items' columns, aggregated as
    ``options.aggregation`` says:

    - "mean": the float nearest the exact mean of the items' P, R and F;
    - "mean-in-order": the items' values added in order by floats, then
      divided by their number (pltrdy's ``get_scores(..., avg=True)``);
    - "bootstrap-median": rouge-score's ``BootstrapAggregator`` (numpy's
      global random state, or ``numpy.random.RandomState(seed)``: the same
      draws as after ``numpy.random.seed(seed)``);
    - "rouge155-bootstrap": ROUGE-1.5.5.pl's printed average, the mean of
      ``bootstrap`` resample means (Perl's ``srand(0)``, ``srand(1)``, ...)
      over the items in the script's order (their numbers sorted as
      strings), rounded to 5 decimals, with its interval.
    """
    names = options.names
    per_item = item_rows(columns, names)
    if options.aggregation == "bootstrap-median":
        aggregator = BootstrapAggregator(confidence_interval=options.confidence,
                                         n_samples=options.bootstrap)
        if options.seed is not None:
            aggregator.random_state = np.random.RandomState(options.seed)
        for item in per_item:
            aggregator.add_scores(item)
        medians = aggregator.aggregate()
        return {name: medians[name].mid for name in names}, medians, per_item
    if options.aggregation == "mean-in-order":
        return _in_order_means(columns, names), None, per_item
    if options.aggregation == "rouge155-bootstrap":
        return (*_rouge155_averages(columns, names, options.bootstrap, options.confidence),
                per_item)
    scores = column_means(columns, names)
    intervals = corpus_intervals(columns, scores, options.bootstrap, options.confidence,
                                 options.seed) if options.bootstrap else None
    return scores, intervals, per_item


def _in_order_means(columns: np.ndarray, names: Sequence[str]) -> Dict[str, Score]:
    """Per rouge type, P, R and F summed item by item in order, then divided."""
    rows = columns.tolist()
    n = columns.shape[1]
    means = []
    for row in rows:
        total = 0.0
        for value in row:
            total += value
        means.append(total / n)
    return {name: Score(*means[3 * k:3 * k + 3]) for k, name in enumerate(names)}


def _rouge155_averages(columns: np.ndarray, names: Sequence[str], resamples: int,
                       confidence: float) -> Tuple[Dict[str, Score], Dict[str, AggregateScore]]:
    """ROUGE-1.5.5.pl's averages and intervals of the items' columns."""
    order = numeral_order(columns.shape[1])
    table = np.ascontiguousarray(columns[:, order].T)
    average, low, high = _backend.rouge155_bootstrap.bootstrap(
        table, resamples, round(confidence * 100, 10))
    scores, intervals = {}, {}
    for k, name in enumerate(names):
        cut = slice(3 * k, 3 * k + 3)
        mid = Score(*map(round5, average[cut].tolist()))
        scores[name] = mid
        intervals[name] = AggregateScore(Score(*map(round5, low[cut].tolist())), mid,
                                         Score(*map(round5, high[cut].tolist())))
    return scores, intervals
