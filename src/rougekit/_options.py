"""The options that change a ROUGE number: declared once, checked once.

``ScoringOptions`` holds every option that changes a number. Each field is
declared once, here, with what the rest of rougekit needs to know of it
(``OptionInfo``, in the field's metadata): the scope of the work it applies
to (``SCOPES``: which doors can honour it, ``rougekit._doors``), its
command-line flag and help (the CLI's arguments are built from them), the
stage the audit changes it at, and the signature attribute it is written to
and read back from (``signature()``, ``from_signature``). Adding an option
is adding a field here (and its stage's code).

Flavors (``rougekit._flavors``) are presets of these fields with their
packages' own switches: ``ScoringOptions.of_flavor("rouge-score",
use_stemmer=True)``; ``options.flavor`` names the flavor that options are.

>>> options = ScoringOptions(rouge_types=["rouge1", "rougeL"], use_stemmer=True)
>>> options.rouge_types, options.names
(('rouge1', 'rougeL'), ['rouge1', 'rougeL'])
>>> options.signature()  # doctest: +ELLIPSIS
'rougekit:...|types:rouge1,rougeL|tok:rouge-score|lang:none|stem:porter|stop:none|split:newline|multi:max|agg:mean|boot:none'
>>> ScoringOptions.from_signature(options.signature()) == options
True
>>> ScoringOptions.of_flavor("evaluate", use_aggregator=False).aggregation
'mean'
"""
import dataclasses
from typing import Any, Dict, List, Mapping, Optional, Tuple

from rougekit import _flavors, _stages
from rougekit._checks import check_int, check_real
from rougekit._multi_ref import MULTI_REF_POLICIES
from rougekit._rouge_types import parse_rouge_types
from rougekit._sentences import SENTENCE_SPLITS, check_sentence_split
from rougekit._signature import Signature
from rougekit._spelling import declare_flag, option
from rougekit._spelling import name as spelled
from rougekit.lang import LangTokenizer
from rougekit.scoring import Score
from rougekit.word_tokenizers import TOKENIZER_NAMES, get_tokenizer

__all__ = ["ScoringOptions", "OptionInfo", "DEFAULT_ROUGE_TYPES", "DEFAULT_SEED",
           "SCOPES", "STAGES", "option_fields", "option_info", "fields_of_signature",
           "check_lang", "resolve_tokenizer"]

#: The rouge types scored when none are given, by every door and the CLI
#: (Hugging Face evaluate's default, and the four most papers report).
DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: The seed of every resampling when none is given (sacreBLEU's): the API,
#: the CLI, the audit and the significance tests draw the same resamples.
#: ``seed="numpy-global"`` draws from numpy's global random state instead
#: (rouge-score's ``BootstrapAggregator``, as Hugging Face evaluate runs it),
#: ``seed=None`` from fresh OS entropy: neither repeats.
DEFAULT_SEED = 12345

#: The scopes of the work an option applies to, from text to corpus: the
#: rouge types; how text becomes tokens and sentences; how a pair's counts
#: and P/R/F are formed; how an item's references combine; how items become
#: a corpus score.
SCOPES = ("types", "text", "pair", "references", "corpus")

#: The stages where packages' ROUGE differ, in the order ``rougekit.audit``
#: walks them (each option field names its stage).
STAGE_NAMES = ("tokenizer", "stemmer", "stopwords", "n-gram counting",
               "Lsum sentence splitting", "ROUGE-L", "several references",
               "per-item to corpus", "F's formula and rounding")

#: How items can become a corpus score (``rougekit._stages.AGGREGATIONS``).
CORPUS_AGGREGATIONS = ("mean", "bootstrap-median", "mean-in-order", "rouge155-bootstrap",
                       "mean-float32", "mean-float32-torch")
#: How an item's references combine (``rougekit._stages.MULTI_REF_RULES``).
MULTI_REF_RULES = MULTI_REF_POLICIES + ("best-float32", "mean-float32")
COUNTINGS = ("clipped", "sets")
ROUGE_L_RULES = ("lcs", "summary")
F_MEASURES = ("harmonic", "epsilon", "rouge155")


@dataclasses.dataclass(frozen=True)
class OptionInfo:
    """What rougekit knows of an option field (its ``metadata["rougekit"]``).

    ``scope``: one of ``SCOPES``; ``flag``: the command line's flag
    (``--`` + the name with "-" by default); ``help``: its help text;
    ``choices``: the values it takes, when they are names; ``metavar``: the
    flag's value in ``--help``; ``stage``: the audit's stage (None: not a
    stage of a package's ROUGE); ``signature``: the ``Signature`` attribute
    it is written to and read from (None: the tokenizer's fields, described
    together by the tokenizer object).
    """

    scope: str
    help: str
    flag: str = ""
    choices: Optional[Tuple[str, ...]] = None
    metavar: Optional[str] = None
    stage: Optional[str] = None
    signature: Optional[str] = None


def _option(default: Any, scope: str, help: str, **info: Any) -> Any:
    return dataclasses.field(default=default,
                             metadata={"rougekit": OptionInfo(scope, help, **info)})


@dataclasses.dataclass(frozen=True)
class ScoringOptions:
    """Every option that changes a ROUGE number, checked when built.

    The fields are the keyword arguments of every scoring function (the
    guide "One set of options" in docs/ has the table of which function
    takes which); the defaults are rouge-score's. Instances are immutable,
    hashable, picklable (the resolved tokenizer is rebuilt after
    unpickling) and compare by their fields; ``dataclasses.replace`` gives a
    changed copy, checked again. ``threads`` is not here: it changes the
    speed, never a number.

    >>> ScoringOptions(multi_ref="pooled").multi_ref
    'pooled'
    >>> ScoringOptions(lang="english", tokenizer="whitespace")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: give lang= or tokenizer=, not both: ...
    """

    rouge_types: Tuple[str, ...] = _option(
        DEFAULT_ROUGE_TYPES, "types", "the rouge types: rouge1 to rouge9, rougeL, rougeLsum "
        "(comma-separated on the command line)", metavar="LIST", signature="rouge_types")
    tokenizer: Any = _option(
        "rouge-score", "text", "how words are found: a name (rouge-score: lowercased ASCII "
        "letters and digits, as rouge-score; whitespace, whitespace-lower, unicode, char, "
        "rouge155, pltrdy, rouge-chinese) or an object with tokenize(text)",
        choices=TOKENIZER_NAMES, metavar="NAME", stage="tokenizer")
    use_stemmer: bool = _option(
        False, "text", "stem words longer than 3 characters (Porter, as NLTK's; with lang, "
        "the language's stemmer)", flag="--stemmer", stage="stemmer")
    lang: Optional[str] = _option(
        None, "text", "XL-Sum's tokenization for a language (chinese, hindi, russian, ...; "
        "docs/guides/languages.md), instead of tokenizer", metavar="LANG", stage="tokenizer")
    stem_stopwords: bool = _option(
        False, "text", "with lang of a Snowball language and the stemmer: stem NLTK's "
        "stopwords too (XL-Sum leaves them unstemmed)", stage="stemmer")
    sentence_split: str = _option(
        "newline", "text", "rougeLsum's sentences: newline (rouge-score's), nltk, sentencex "
        "(rule-based, no data download), period (pltrdy's), chinese (rouge-chinese's)",
        choices=SENTENCE_SPLITS, metavar="RULE", stage="Lsum sentence splitting")
    multi_ref: str = _option(
        "max", "references", "how an item's references combine: max (the best F, as "
        "rouge-score's score_multi), mean, pooled (ROUGE-1.5.5's -f A), best-recall (-f B), "
        "jackknife, best-float32 and mean-float32 (torchmetrics' accumulate best and avg, the "
        "values in float32)", choices=MULTI_REF_RULES, metavar="RULE",
        stage="several references", signature="multi_ref")
    aggregation: str = _option(
        "mean", "corpus", "how items become the corpus score: mean (exact), bootstrap-median "
        "(rouge-score's BootstrapAggregator), mean-in-order (pltrdy's), rouge155-bootstrap "
        "(ROUGE-1.5.5.pl's), mean-float32 (torchmetrics', exact), mean-float32-torch "
        "(torchmetrics', torch's float32 additions)", choices=CORPUS_AGGREGATIONS,
        metavar="RULE",
        stage="per-item to corpus", signature="aggregation")
    bootstrap: int = _option(
        0, "corpus", "bootstrap resamples: N > 0 adds percentile confidence intervals "
        "(the resamples of bootstrap-median and rouge155-bootstrap)", metavar="N",
        stage="per-item to corpus", signature="bootstrap")
    confidence: float = _option(
        0.95, "corpus", "the intervals' coverage, in [0, 1]", metavar="C",
        stage="per-item to corpus", signature="confidence")
    seed: Any = _option(
        DEFAULT_SEED, "corpus", f"the resampling seed: an int (default {DEFAULT_SEED}), "
        "numpy-global (numpy's global random state, as Hugging Face evaluate) or none "
        "(fresh entropy)", metavar="S", stage="per-item to corpus", signature="seed")
    remove_stopwords: bool = _option(
        False, "text", "drop ROUGE-1.5.5's SMART stopwords (its -s; tokenizer rouge155)",
        stage="stopwords")
    counting: str = _option(
        "clipped", "pair", "how n-grams are counted: clipped (each as often as on both "
        "sides) or sets (distinct n-grams, as pltrdy's)", choices=COUNTINGS, metavar="RULE",
        stage="n-gram counting", signature="counting")
    rouge_l: str = _option(
        "lcs", "pair", "what rougeL is: lcs (of the whole texts) or summary (rougeLsum's "
        "summary-level LCS, as ROUGE-1.5.5's and pltrdy's ROUGE-L)", choices=ROUGE_L_RULES,
        metavar="RULE", stage="ROUGE-L", signature="rouge_l")
    f_measure: str = _option(
        "harmonic", "pair", "F from P and R: harmonic (2PR/(P+R)), epsilon (pltrdy's "
        "2(PR/(P+R+1e-8))), rouge155 (the script's, P and R rounded to 5 decimals)",
        choices=F_MEASURES, metavar="RULE", stage="F's formula and rounding",
        signature="f_measure")
    alpha: float = _option(
        0.5, "pair", "with f_measure rouge155: its -p, F = 1 / (alpha/P + (1-alpha)/R)",
        metavar="A", stage="F's formula and rounding", signature="alpha")
    skip_empty: bool = _option(
        False, "corpus", "leave out the items whose candidate or a reference is the empty "
        "string (pltrdy's ignore_empty)", stage="per-item to corpus", signature="skip_empty")

    def __post_init__(self) -> None:
        types = parse_rouge_types(self.rouge_types, spelled("rouge_types"))
        object.__setattr__(self, "rouge_types", tuple(name for name, _ in types))
        object.__setattr__(self, "sentence_split", check_sentence_split(self.sentence_split))
        _check_corpus(self)
        _check_pair(self)
        for name in ("use_stemmer", "stem_stopwords", "remove_stopwords", "skip_empty"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, not "
                                f"{type(getattr(self, name)).__name__}")
        object.__setattr__(self, "alpha", float(self.alpha))
        object.__setattr__(self, "confidence", float(self.confidence))
        object.__setattr__(self, "_types", types)
        object.__setattr__(self, "_tokenizer", resolve_tokenizer(
            self.tokenizer, self.use_stemmer, self.lang, self.stem_stopwords,
            self.remove_stopwords))

    def copy(self) -> "ScoringOptions":
        """The same options with a tokenizer of their own (made when first
        asked for), as new options would have: a tokenizer keeps state (each
        warning once, its caches), which callers of equal options do not share.

        >>> a = ScoringOptions(use_stemmer=True)
        >>> b = a.copy()
        >>> b == a, b.tokenizer_object is a.tokenizer_object
        (True, False)
        """
        new = object.__new__(ScoringOptions)
        new.__dict__.update(self.__dict__)
        object.__setattr__(new, "_tokenizer", None)     # made when first asked for
        return new

    # The resolved tokenizer is not pickled: it is rebuilt from the fields.
    def __getstate__(self) -> Dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        for name, value in {**defaults, **state}.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    # -- what the options are

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
        if self._tokenizer is None:  # type: ignore[attr-defined]
            object.__setattr__(self, "_tokenizer", resolve_tokenizer(
                self.tokenizer, self.use_stemmer, self.lang, self.stem_stopwords,
                self.remove_stopwords))
        return self._tokenizer  # type: ignore[attr-defined]

    @property
    def rouge_score_arithmetic(self) -> bool:
        """Whether the pairs are counted and scored as rouge-score does
        (clipped counts, rougeL the whole texts' LCS, the harmonic F): what
        the compiled engine computes."""
        return (self.counting, self.rouge_l, self.f_measure) == ("clipped", "lcs", "harmonic")

    @property
    def flavor(self) -> Optional[str]:
        """The flavor (``rougekit.flavors``) these options are, with its
        parameter (``"xlsum:french"``, ``"rouge155:-m -s"``), or None: a
        combination no package computes. Its switches are free: options with
        ``use_stemmer=True`` are still the "rouge-score" flavor."""
        values = self.fields()
        for flavor in _flavors.registered():
            param = ""
            if flavor.parameter_of is not None:
                found = flavor.parameter_of(values)
                if found is None:
                    continue
                param = found
            elif flavor.parameter_required:
                continue
            name = f"{flavor.name}:{param}" if param else flavor.name
            try:
                _, fixed = _flavors.lookup(name)
            except (ValueError, LookupError, ImportError):
                continue
            if _is_flavor(values, flavor, fixed):
                return name
        return None

    def fields(self) -> Dict[str, Any]:
        """The fields and their values, in order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def pair_counts_score(self, hits: Any, candidate_total: Any, reference_total: Any
                          ) -> Any:
        """One comparison's Score from its counts, with these options' F
        (zeros when either total is 0)."""
        if not candidate_total or not reference_total:
            return Score(0.0, 0.0, 0.0)
        return _stages.F_MEASURES[self.f_measure](hits, candidate_total, reference_total,
                                                   self.alpha)

    # -- the signature

    def signature(self, **fields: Any) -> str:
        """The signature line of numbers scored with these options
        (``rougekit.signature``); ``fields`` override ``Signature`` fields
        the options do not decide (``aggregation="none"`` for per-item
        scores, ``extra``).

        >>> ScoringOptions(rouge_types=["rouge1"]).signature(aggregation="none")[-28:]
        'multi:max|agg:none|boot:none'
        """
        described: Dict[str, Any] = {
            info.signature: getattr(self, name) for name, info in option_fields().items()
            if info.signature not in (None, "rouge_types")}
        if self.aggregation == "rouge155-bootstrap":
            described["seed"] = "perl-srand"
        described["flavor"] = self.flavor or ""
        described.update(fields)
        return str(Signature.of_tokenizer(self.tokenizer_object, self.names,
                                          self.sentence_split, **described))

    @classmethod
    def from_signature(cls, signature: str) -> "ScoringOptions":
        """The options a signature line records (``rougekit.signature``);
        a ValueError if it names a flavor that its fields are not."""
        sig = Signature.parse(signature)
        options = cls(**fields_of_signature(sig))
        if sig.flavor and options.flavor != sig.flavor:
            flavor, fixed = _flavors.lookup(sig.flavor)
            wrong = {k: v for k, v in fixed.items() if k != "rouge_types"
                     and getattr(options, k) != v and flavor.switch_of_field(k) is None}
            raise ValueError(f"the signature names flavor:{sig.flavor}, but its fields give "
                             + ", ".join(f"{k}={getattr(options, k)!r}" for k in wrong)
                             + " where that flavor has "
                             + ", ".join(f"{k}={v!r}" for k, v in wrong.items()))
        return options

    # -- flavors

    @classmethod
    def of_flavor(cls, flavor: str, base: Optional["ScoringOptions"] = None,
                  **given: Any) -> "ScoringOptions":
        """The options of a flavor called with its package's switches
        (``given``: the package's keywords, ``use_stemmer=True``,
        ``split_summaries=True``, ``use_aggregator=False``, ``metrics=[...]``,
        ...; or the option fields they set, ``sentence_split="nltk"``; and
        the fields every flavor leaves to the caller, ``rouge_types`` and
        ``seed``). ``base``: options whose other fields must agree with the
        flavor's (those at their defaults always do). A keyword the package
        does not have is a ValueError naming the flavor and its switches.

        >>> ScoringOptions.of_flavor("rouge-score", use_stemmer=True).use_stemmer
        True
        >>> ScoringOptions.of_flavor("pltrdy", use_stemmer=True)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: flavor 'pltrdy' has no switch use_stemmer=True (its switches: metrics, ...
        """
        package, fixed = _flavors.lookup(flavor)
        defaults = _defaults()
        fields = {**defaults, **fixed}
        set_by_caller: Dict[str, Any] = {}
        # the switches in the flavor's order (a tokenizer after use_stemmer,
        # which it overrides, as in rouge-score), then the fields
        order = {s.name: k for k, s in enumerate(package.switches)}
        for name, value in sorted(given.items(),
                                  key=lambda item: order.get(item[0], len(order))):
            switch = package.switch(name)
            if switch is not None:
                set_by_caller.update(switch.fields_of(package.name, value))
                continue
            if name not in defaults:
                raise TypeError(f"unknown option {name!r}")
            if name in _flavors.CALLER_FIELDS:
                set_by_caller[name] = value
                continue
            switch = package.switch_of_field(name)
            matched = None if switch is None else switch.matching({name: value})
            if matched is not None:
                set_by_caller.update(matched)
            elif not _equal(fields[name], value):
                raise ValueError(
                    f"flavor {package.name!r} has no switch {option(name, value)} (its "
                    f"switches: {package.switch_names()}); the flavor is the package "
                    "called with its own arguments")
        if base is not None:
            for name, value in base.fields().items():
                if name in set_by_caller or _equal(value, defaults[name]):
                    continue
                switch = package.switch_of_field(name)
                if name in _flavors.CALLER_FIELDS or (
                        switch is not None and switch.matching({name: value}) is not None):
                    set_by_caller[name] = value
                elif not _equal(fields[name], value):
                    raise ValueError(
                        f"flavor {package.name!r} sets {option(name, fields[name])}, not "
                        f"{option(name, value)}: give the flavor or those options, not both")
        fields.update(set_by_caller)
        return cls(**fields)


# --- the fields' metadata --------------------------------------------------------

def option_fields() -> Dict[str, OptionInfo]:
    """Every option field, in order, with its ``OptionInfo``."""
    return _FIELDS


def option_info(name: str) -> OptionInfo:
    return _FIELDS[name]


def _defaults() -> Dict[str, Any]:
    return {f.name: f.default for f in dataclasses.fields(ScoringOptions)}


_FIELDS: Dict[str, OptionInfo] = {f.name: f.metadata["rougekit"]
                                  for f in dataclasses.fields(ScoringOptions)}
for _name, _info in _FIELDS.items():
    if _info.flag:
        declare_flag(_name, _info.flag)

#: The stages where flavors differ, in the audit's order: (name, the fields
#: it holds).
STAGES: Tuple[Tuple[str, Tuple[str, ...]], ...] = tuple(
    (stage, tuple(n for n, i in _FIELDS.items() if i.stage == stage)) for stage in STAGE_NAMES)


def _equal(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return tuple(a) == tuple(b)
        return type(a) is type(b) and bool(a == b) or (
            isinstance(a, (int, float)) and not isinstance(a, bool)
            and isinstance(b, (int, float)) and not isinstance(b, bool) and a == b)
    except Exception:
        return False


def _is_flavor(values: Mapping[str, Any], flavor: Any, fixed: Mapping[str, Any]) -> bool:
    """Whether option values are the flavor's: its fixed fields, and a choice
    of each switch for the fields its switches set."""
    expected = {**_defaults(), **fixed}
    for switch in flavor.switches:
        if switch.fields and not switch.allows(values):
            return False
    free = set(flavor.switch_fields()) | set(_flavors.CALLER_FIELDS)
    return all(_equal(values[name], expected[name]) for name in values if name not in free)


# --- the checks --------------------------------------------------------------------

def _check_corpus(o: ScoringOptions) -> None:
    if not isinstance(o.multi_ref, str):
        raise TypeError(f"multi_ref must be str, not {type(o.multi_ref).__name__}")
    if o.multi_ref not in MULTI_REF_RULES:
        raise ValueError(f"unknown multi_ref policy {o.multi_ref!r}; valid: "
                         + ", ".join(MULTI_REF_RULES))
    check_int(spelled("bootstrap"), o.bootstrap, minimum=0)
    check_real(spelled("confidence"), o.confidence, 0, 1)
    if o.seed is not None and o.seed != "numpy-global":
        if isinstance(o.seed, str):
            raise TypeError(f"{spelled('seed')} must be an int, 'numpy-global' or None, "
                            f"not {o.seed!r}")
        check_int(spelled("seed"), o.seed, 0)
    aggregation = o.aggregation
    if not isinstance(aggregation, str) or aggregation not in CORPUS_AGGREGATIONS:
        raise ValueError(f"unknown aggregation {aggregation!r}; valid: "
                         + ", ".join(CORPUS_AGGREGATIONS))
    if aggregation == "bootstrap-median" and not o.bootstrap:
        raise ValueError(f"{option('aggregation', aggregation)} needs "
                         f"{option('bootstrap', placeholder='N')} resamples (rouge-score's "
                         "BootstrapAggregator draws 1000)")
    if o.seed == "numpy-global" and aggregation != "bootstrap-median" and o.bootstrap:
        raise ValueError(f"{option('seed', 'numpy-global')} is what rouge-score's "
                         f"BootstrapAggregator draws from: it goes with "
                         f"{option('aggregation', 'bootstrap-median')}")
    if aggregation == "rouge155-bootstrap":
        if not o.bootstrap or o.bootstrap > 10 ** 8:
            raise ValueError(f"{option('aggregation', aggregation)} needs "
                             f"{option('bootstrap', placeholder='N')} resamples, "
                             "1 <= N <= 1e8 (ROUGE-1.5.5's -r, 1000 by default)")
        if o.seed not in (DEFAULT_SEED, None):
            raise ValueError(f"{option('aggregation', aggregation)} draws as ROUGE-1.5.5.pl "
                             f"does (srand(0), srand(1), ...): it takes no "
                             f"{option('seed')}")


def _check_pair(o: ScoringOptions) -> None:
    for name, valid in (("counting", COUNTINGS), ("rouge_l", ROUGE_L_RULES),
                        ("f_measure", F_MEASURES)):
        value = getattr(o, name)
        if not isinstance(value, str) or value not in valid:
            raise ValueError(f"unknown {name} {value!r}; valid: " + ", ".join(valid))
    check_real(spelled("alpha"), o.alpha, 0, 1)
    if o.f_measure != "rouge155" and o.alpha != 0.5:
        raise ValueError(f"{option('alpha', o.alpha)} applies only with "
                         f"{option('f_measure', 'rouge155')} (ROUGE-1.5.5's -p)")


# --- the tokenizer -------------------------------------------------------------------

def check_lang(tokenizer_given: bool, lang: Optional[str], stem_stopwords: bool) -> None:
    """The rules of ``lang=``: not with a tokenizer; ``stem_stopwords`` only with it."""
    if lang is not None:
        if tokenizer_given:
            raise ValueError(f"give {option('lang')} or {option('tokenizer')}, not both: "
                             f"{option('lang')} sets the tokenizer (XL-Sum's for that "
                             "language)")
    elif stem_stopwords:
        raise ValueError(f"{option('stem_stopwords', True)} applies only with "
                         f"{option('lang')}")


def resolve_tokenizer(tokenizer: Any, use_stemmer: bool, lang: Optional[str],
                      stem_stopwords: bool, remove_stopwords: bool = False) -> Any:
    """The tokenizer object of the options: XL-Sum's for ``lang``, else a
    name of ``rougekit.word_tokenizers`` or an object with ``tokenize``
    (``use_stemmer`` only with rouge-score's and rouge155's,
    ``remove_stopwords`` only with rouge155's)."""
    check_lang(not (isinstance(tokenizer, str) and tokenizer == "rouge-score"), lang,
               stem_stopwords)
    if lang is not None:
        if remove_stopwords:
            raise ValueError(f"{option('remove_stopwords', True)} (ROUGE-1.5.5's -s) needs "
                             f"{option('tokenizer', 'rouge155')}, not {option('lang')}")
        return LangTokenizer(lang, use_stemmer, stem_stopwords)
    return get_tokenizer(tokenizer, use_stemmer=use_stemmer,
                         remove_stopwords=remove_stopwords)


# --- reading a signature back ------------------------------------------------------

def fields_of_signature(sig: Signature) -> Dict[str, Any]:
    """The option fields that give a signature's numbers (``parse_signature``);
    a ValueError names a field no options give."""
    if sig.extra:
        raise ValueError("score_corpus cannot reproduce field(s) "
                         + ", ".join(f"{k}:{v}" for k, v in sig.extra)
                         + " (another mode's options)")
    fields: Dict[str, Any] = {"rouge_types": list(sig.rouge_types)}
    fields.update(_tokenizer_fields(sig))
    split = _base(sig.sentence_split)
    if split.startswith("sentencex-"):
        split = "sentencex"
    if split != "newline":
        fields["sentence_split"] = split
    if sig.aggregation not in CORPUS_AGGREGATIONS + ("none",):
        raise ValueError(f"unknown aggregation agg:{sig.aggregation}")
    defaults = _defaults()
    for name, info in _FIELDS.items():
        if info.signature in (None, "rouge_types", "seed", "confidence"):
            continue
        value = getattr(sig, info.signature)
        if name == "aggregation" and value == "none":
            continue
        if not _equal(value, defaults[name]):
            fields[name] = value
    if sig.bootstrap:
        fields["confidence"] = sig.confidence
        if sig.seed != "perl-srand":
            fields["seed"] = sig.seed
    return fields


def _base(value: str) -> str:
    """A field value without its provenance: "chinese(jieba-0.42.1)" -> "chinese"."""
    return value.split("(", 1)[0]


def _tokenizer_fields(sig: Signature) -> Dict[str, Any]:
    """The tokenizer's fields of a signature's ``tok``, ``lang``, ``stem``, ``stop``."""
    if sig.tokenizer.startswith("custom:"):
        raise ValueError(f"the tokenizer {sig.tokenizer!r} is a custom object: "
                         "a signature cannot recreate it")
    stem = _base(sig.stemmer)
    fields: Dict[str, Any] = {}
    if sig.tokenizer == "xlsum":
        if sig.lang == "none":
            raise ValueError("tok:xlsum needs a lang: field")
        fields["lang"] = _base(sig.lang)
        fields["use_stemmer"] = stem != "no"
        if stem.startswith("snowball-") and _base(sig.stopwords) == "none":
            fields["stem_stopwords"] = True
        return fields
    if sig.lang != "none":
        raise ValueError(f"lang:{sig.lang} goes with tok:xlsum, not tok:{sig.tokenizer}")
    stemmers = {"rouge-score": "porter", "rouge155": "morph"}
    if stem != "no" and stem != stemmers.get(sig.tokenizer):
        raise ValueError(f"unknown stemmer {sig.stemmer!r} for tok:{sig.tokenizer} "
                         "in the signature")
    fields["tokenizer"] = sig.tokenizer
    fields["use_stemmer"] = stem != "no"
    stop = _base(sig.stopwords)
    if stop not in ("none", "smart") or (stop == "smart" and sig.tokenizer != "rouge155"):
        raise ValueError(f"unknown stopwords stop:{sig.stopwords} for tok:{sig.tokenizer} "
                         "in the signature")
    if stop == "smart":
        fields["remove_stopwords"] = True
    return fields
