"""The signature line's format: ``Signature``, its fields, written and read.

``rougekit.signature`` documents the fields and reads a line back into
options (``parse_signature``); this module is the line itself, below the
options, so that every mode that signs its numbers (``rougekit.rouge155``
too) writes it the same way.

>>> sig = Signature(rouge_types=("rouge1", "rougeL"), tokenizer="rouge-score",
...                 stemmer="porter", multi_ref="mean", version="1.0")
>>> str(sig)
'rougekit:1.0|types:rouge1,rougeL|tok:rouge-score|lang:none|stem:porter|stop:none|split:newline|multi:mean|agg:mean|boot:none'
>>> Signature.parse(str(sig)) == sig
True
"""
import dataclasses
from typing import Any, Dict, List, Optional, Sequence, Tuple

from rougekit._version import __version__

__all__ = ["Signature"]

_FIELDS = ("rougekit", "types", "tok", "lang", "stem", "stop", "split", "multi", "agg", "boot")
#: Fields written only when they differ from rouge-score's.
_STAGE_FIELDS = ("count", "L", "F", "empty", "flavor")


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
    skip_empty: bool = False
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
        if self.skip_empty:
            out["empty"] = "skip"
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
        empty = values.get("empty", "score")
        if empty not in ("score", "skip"):
            raise ValueError(f"signature field empty:{empty} is not skip")
        return cls(counting=values.get("count", "clipped"), rouge_l=values.get("L", "lcs"),
                   skip_empty=empty == "skip",
                   f_measure=f_measure, alpha=alpha, flavor=values.get("flavor", ""),
                   rouge_types=types, tokenizer=values["tok"], lang=values["lang"],
                   stemmer=values["stem"], stopwords=values["stop"],
                   sentence_split=values["split"], multi_ref=values["multi"],
                   aggregation=values["agg"], bootstrap=bootstrap, confidence=confidence,
                   seed=seed, version=values["rougekit"], extra=tuple(extra))
