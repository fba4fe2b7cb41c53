"""The signature of a score: every option that changes the numbers, in one line.

As sacreBLEU prints a signature with every BLEU, rougekit records with every
corpus score the options that produced it, as ``key:value`` fields joined by
"|" (``CorpusResult.signature``, ``compute(..., return_signature=True)``, the
CLI's output). ``Signature`` builds and reads that line; ``parse_signature``
turns one back into the keyword arguments of ``score_corpus`` that reproduce
the numbers (on the same data, with the same versions).

A value may end with a provenance in parentheses, the library and version
(or data digest) behind it: ``lang:chinese(jieba-0.42.1)``. Reading a
signature back uses what comes before the parentheses; the provenance says
why numbers from another installation may differ.

Fields, in order:

- ``rougekit:VERSION``: the package version;
- ``types:T1,T2,...``: the rouge types;
- ``tok:NAME``: the tokenizer (``rougekit.word_tokenizers`` names; ``xlsum``
  for ``lang=``; a custom tokenizer without a ``name`` attribute is
  ``custom:ClassName``);
- ``lang:NAME(SEGMENTER)`` or ``lang:none``: the ``lang=`` language, with its
  word segmenter and version;
- ``stem:no``, ``stem:porter``, or with ``lang=`` the language's stemmer:
  ``snowball-LANG(nltk-V)``, ``hindi``, ``bengali``, ``turkish(TurkishStemmer-V)``;
- ``stop:none``, or ``stop:nltk(DIGEST)``: NLTK's stopwords left unstemmed
  (XL-Sum's Snowball stemming), the list named by 8 hex digits of its sha256;
- ``split:newline``, ``split:nltk(V)`` or ``split:sentencex-ISO(V)``:
  rougeLsum's sentence splitting;
- ``multi:POLICY``: the multi-reference policy;
- ``agg:mean`` (the mean of the per-item scores), ``agg:bootstrap-median``
  (rouge-score's ``BootstrapAggregator``: the median of the resampled means,
  drawn from numpy's global random state; ``compute``'s default) or
  ``agg:none`` (per-item scores only);
- ``boot:none``, or ``boot:N,ci:C,seed:S`` with bootstrap resampling (N
  resamples, coverage C, seed S, ``none``, or ``numpy-global``);
- then, only where they differ from rouge-score's, the stages where other
  packages' ROUGE differs (``ScoringOptions``): ``count:sets`` (distinct
  n-grams), ``L:summary`` (rougeL is the summary-level LCS), ``F:epsilon``
  or ``F:rouge155(alpha:A)``; and ``flavor:NAME`` when the options are a
  flavor's preset (``rougekit.flavors``; not for the default, rouge-score);
- then any further ``key:value`` fields of ``extra``, in order: options of
  modes ``score_corpus`` does not have. The ROUGE-1.5.5 mode records its
  flags this way, as ``rouge155:-c 95 -r 1000 -n 2 -m``, beside the
  standard fields that apply (``tok:rouge155``, ``multi:rouge155-A``,
  ``agg:bootstrap-mean``, ``seed:perl-srand``;
  ``rougekit.rouge155.Options.signature``); ``score_corpus_kwargs``
  refuses a signature with extra fields, which its own mode reads back
  (``Options.from_signature``).

>>> sig = Signature(rouge_types=("rouge1", "rougeL"), tokenizer="rouge-score",
...                 stemmer="porter", multi_ref="mean", version="1.0")
>>> str(sig)
'rougekit:1.0|types:rouge1,rougeL|tok:rouge-score|lang:none|stem:porter|stop:none|split:newline|multi:mean|agg:mean|boot:none'
>>> kwargs = parse_signature(str(sig))
>>> kwargs["rouge_types"], kwargs["tokenizer"], kwargs["use_stemmer"], kwargs["multi_ref"]
(['rouge1', 'rougeL'], 'rouge-score', True, 'mean')
"""
import dataclasses
from typing import Any, Dict, List, Optional, Sequence, Tuple

from rougekit._version import __version__

__all__ = ["Signature", "parse_signature"]

_FIELDS = ("rougekit", "types", "tok", "lang", "stem", "stop", "split", "multi", "agg", "boot")
#: Fields written only when they differ from rouge-score's.
_STAGE_FIELDS = ("count", "L", "F", "flavor")
AGGREGATIONS = ("mean", "bootstrap-median", "mean-in-order", "rouge155-bootstrap", "none")


def _base(value: str) -> str:
    """A field value without its provenance: "chinese(jieba-0.42.1)" -> "chinese"."""
    return value.split("(", 1)[0]


@dataclasses.dataclass(frozen=True)
class Signature:
    """The options behind a corpus score (module docstring); ``str()`` gives
    the one-line form, ``Signature.parse`` reads it back."""

    rouge_types: Tuple[str, ...] = ("rouge1", "rouge2", "rougeL")
    tokenizer: str = "rouge-score"
    lang: str = "none"
    stemmer: str = "no"
    stopwords: str = "none"
    sentence_split: str = "newline"
    multi_ref: str = "max"
    aggregation: str = "mean"
    bootstrap: int = 0
    confidence: float = 0.95
    seed: Optional[Any] = None
    counting: str = "clipped"
    rouge_l: str = "lcs"
    f_measure: str = "harmonic"
    alpha: float = 0.5
    flavor: str = ""
    version: str = __version__
    extra: Tuple[Tuple[str, str], ...] = ()

    @classmethod
    def of_tokenizer(cls, tokenizer: Any, rouge_types: Sequence[str] = ("rouge1", "rouge2",
                                                                          "rougeL"),
                     sentence_split: str = "newline", **fields: Any) -> "Signature":
        """A signature whose ``types``, ``tok``, ``lang``, ``stem``, ``stop`` and
        ``split`` fields describe a tokenizer object (a named tokenizer "X+S" is
        tokenizer X with stemmer S; a ``rougekit.lang.LangTokenizer`` gives its
        language, segmenter, stemmer and stopwords) and a sentence-split
        rule ("newline", "nltk", "sentencex")."""
        from rougekit._sentences import sentence_split_provenance
        from rougekit.lang import LangTokenizer
        iso = "en"
        if isinstance(tokenizer, LangTokenizer):
            iso = tokenizer.language.iso
            seg = f"({tokenizer.segmenter})" if tokenizer.segmenter else ""
            stem = tokenizer.stemmer
            provenance = getattr(tokenizer, "stemmer_provenance", "")
            if stem != "no" and provenance:
                stem += f"({provenance})"
            described: Dict[str, Any] = dict(tokenizer="xlsum", lang=tokenizer.lang + seg,
                                             stemmer=stem, stopwords=tokenizer.stopwords)
        else:
            from rougekit.tokenizers import default_stemming
            stemming = default_stemming(tokenizer)  # rouge-score's, named or not
            if stemming is not None:
                name = "rouge-score+porter" if stemming else "rouge-score"
            else:
                name = getattr(tokenizer, "name", None) or f"custom:{type(tokenizer).__name__}"
            tok, _, stemmer = str(name).partition("+")
            stop = "smart" if getattr(tokenizer, "remove_stopwords", False) else "none"
            described = dict(tokenizer=tok, stemmer=stemmer or "no", stopwords=stop)
        return cls(rouge_types=tuple(rouge_types),
                   sentence_split=sentence_split_provenance(sentence_split, iso),
                   **described, **fields)

    def fields(self) -> Dict[str, str]:
        """The ``key: value`` fields in order."""
        boot = "none"
        if self.bootstrap:
            seed = "none" if self.seed is None else self.seed
            boot = f"{self.bootstrap},ci:{self.confidence},seed:{seed}"
        out = {"rougekit": self.version, "types": ",".join(self.rouge_types),
               "tok": self.tokenizer, "lang": self.lang, "stem": self.stemmer,
               "stop": self.stopwords, "split": self.sentence_split, "multi": self.multi_ref,
               "agg": self.aggregation, "boot": boot}
        if self.counting != "clipped":
            out["count"] = self.counting
        if self.rouge_l != "lcs":
            out["L"] = self.rouge_l
        if self.f_measure == "rouge155":
            out["F"] = f"rouge155(alpha:{self.alpha})"
        elif self.f_measure != "harmonic":
            out["F"] = self.f_measure
        if self.flavor and self.flavor != "rouge-score":
            out["flavor"] = self.flavor
        for key, value in self.extra:
            if key in out:
                raise ValueError(f"extra field {key!r} repeats a standard field")
            out[key] = value
        return out

    def format(self) -> str:
        """The one-line form: ``key:value`` fields joined by "|"."""
        return "|".join(f"{k}:{v}" for k, v in self.fields().items())

    __str__ = format

    @classmethod
    def parse(cls, text: str) -> "Signature":
        """Read a signature line (as ``format`` writes it) back.

        ValueError names what is wrong: a field without ":", a missing or
        repeated field, a malformed ``boot`` value. Fields after the standard
        ones go to ``extra``.
        """
        if not isinstance(text, str):
            raise TypeError(f"signature must be str, not {type(text).__name__}")
        values: Dict[str, str] = {}
        extra: List[Tuple[str, str]] = []
        for part in text.strip().split("|"):
            key, sep, value = part.partition(":")
            if not sep:
                raise ValueError(f"signature field {part!r} has no ':'")
            if key in values or any(key == k for k, _ in extra):
                raise ValueError(f"signature repeats field {key!r}")
            if key in _FIELDS or key in _STAGE_FIELDS:
                values[key] = value
            else:
                extra.append((key, value))
        missing = [k for k in _FIELDS if k not in values]
        if missing:
            raise ValueError(f"signature lacks field(s): {', '.join(missing)}")
        bootstrap, confidence, seed = 0, 0.95, None
        seed_value: Any = None
        if values["boot"] != "none":
            try:
                n, rest = values["boot"].split(",ci:", 1)
                ci, seed_text = rest.split(",seed:", 1)
                bootstrap, confidence = int(n), float(ci)
                seed_value = seed_text if seed_text in ("none", "numpy-global", "perl-srand") \
                    else int(seed_text)
            except ValueError:
                raise ValueError(f"signature field boot:{values['boot']} is not "
                                 "N,ci:C,seed:S") from None
            seed = None if seed_value == "none" else seed_value
        types = tuple(t for t in values["types"].split(",") if t)
        f_measure, alpha = values.get("F", "harmonic"), 0.5
        if f_measure.startswith("rouge155(alpha:") and f_measure.endswith(")"):
            try:
                alpha = float(f_measure[len("rouge155(alpha:"):-1])
            except ValueError:
                raise ValueError(f"signature field F:{f_measure} is not "
                                 "rouge155(alpha:A)") from None
            f_measure = "rouge155"
        return cls(counting=values.get("count", "clipped"), rouge_l=values.get("L", "lcs"),
                   f_measure=f_measure, alpha=alpha, flavor=values.get("flavor", ""),
                   rouge_types=types, tokenizer=values["tok"], lang=values["lang"],
                   stemmer=values["stem"], stopwords=values["stop"],
                   sentence_split=values["split"], multi_ref=values["multi"],
                   aggregation=values["agg"], bootstrap=bootstrap, confidence=confidence,
                   seed=seed, version=values["rougekit"], extra=tuple(extra))

    def score_corpus_kwargs(self) -> Dict[str, Any]:
        """The keyword arguments of ``score_corpus`` that give these numbers."""
        if self.extra:
            raise ValueError("score_corpus cannot reproduce field(s) "
                             + ", ".join(f"{k}:{v}" for k, v in self.extra)
                             + " (another mode's options)")
        if self.tokenizer.startswith("custom:"):
            raise ValueError(f"the tokenizer {self.tokenizer!r} is a custom object: "
                             "a signature cannot recreate it")
        kwargs: Dict[str, Any] = {"rouge_types": list(self.rouge_types)}
        stem = _base(self.stemmer)
        if self.tokenizer == "xlsum":
            if self.lang == "none":
                raise ValueError("tok:xlsum needs a lang: field")
            kwargs["lang"] = _base(self.lang)
            kwargs["use_stemmer"] = stem != "no"
            if stem.startswith("snowball-") and _base(self.stopwords) == "none":
                kwargs["stem_stopwords"] = True
        else:
            if self.lang != "none":
                raise ValueError(f"lang:{self.lang} goes with tok:xlsum, not "
                                 f"tok:{self.tokenizer}")
            stemmers = {"rouge-score": "porter", "rouge155": "morph"}
            if stem != "no" and stem != stemmers.get(self.tokenizer):
                raise ValueError(f"unknown stemmer {self.stemmer!r} for tok:{self.tokenizer} "
                                 "in the signature")
            kwargs["tokenizer"] = self.tokenizer
            kwargs["use_stemmer"] = stem != "no"
            stop = _base(self.stopwords)
            if stop not in ("none", "smart") or (stop == "smart"
                                                 and self.tokenizer != "rouge155"):
                raise ValueError(f"unknown stopwords stop:{self.stopwords} for "
                                 f"tok:{self.tokenizer} in the signature")
            if stop == "smart":
                kwargs["remove_stopwords"] = True
        split = _base(self.sentence_split)
        if split.startswith("sentencex-"):
            split = "sentencex"
        if split != "newline":
            kwargs["sentence_split"] = split
        kwargs["multi_ref"] = self.multi_ref
        if self.aggregation not in AGGREGATIONS:
            raise ValueError(f"unknown aggregation agg:{self.aggregation}")
        if self.aggregation not in ("mean", "none"):
            kwargs["aggregation"] = self.aggregation
        kwargs["bootstrap"] = self.bootstrap
        if self.bootstrap:
            kwargs["confidence"] = self.confidence
            if self.seed not in ("numpy-global", "perl-srand"):
                kwargs["seed"] = self.seed
        for name, default in (("counting", "clipped"), ("rouge_l", "lcs"),
                              ("f_measure", "harmonic"), ("alpha", 0.5)):
            if getattr(self, name) != default:
                kwargs[name] = getattr(self, name)
        return kwargs


def parse_signature(text: str) -> Dict[str, Any]:
    """The keyword arguments of ``score_corpus`` that reproduce a signature.

    ``score_corpus(candidates, references, **parse_signature(sig))`` gives
    the numbers ``sig`` was printed with (on the same data and versions; for
    ``agg:bootstrap-median``, from the same state of numpy's global random
    generator). Its signature is ``sig`` again, but for ``agg:none``
    (``compute(..., use_aggregator=False)``, whose per-item scores it gives).
    """
    return Signature.parse(text).score_corpus_kwargs()
