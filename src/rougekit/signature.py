"""The signature of a score: every option that changes the numbers, in one line.

As sacreBLEU prints a signature with every BLEU, rougekit records with every
corpus score the options that produced it, as ``key:value`` fields joined by
"|" (``CorpusResult.signature``, the CLI's output). ``Signature`` builds and
reads that line; ``parse_signature`` turns one back into the keyword
arguments of ``score_corpus`` that reproduce the numbers.

Fields, in order:

- ``rougekit:VERSION``: the package version;
- ``tok:NAME``: the tokenizer's name (``rougekit.word_tokenizers``; a custom
  tokenizer without a ``name`` attribute is ``custom:ClassName``);
- ``stem:no`` or ``stem:porter``: stemming;
- ``multi:POLICY``: the multi-reference policy;
- ``agg:mean``: the corpus aggregation (the mean of the per-item scores);
- ``boot:none``, or ``boot:N,ci:C,seed:S`` with bootstrap intervals (N
  resamples, coverage C, seed S or ``none``).

>>> sig = Signature(tokenizer="rouge-score", stemmer="porter", multi_ref="mean",
...                 version="1.0")
>>> str(sig)
'rougekit:1.0|tok:rouge-score|stem:porter|multi:mean|agg:mean|boot:none'
>>> parse_signature(str(sig))
{'tokenizer': 'rouge-score', 'use_stemmer': True, 'multi_ref': 'mean', 'bootstrap': 0}
"""
import dataclasses
from typing import Any, Dict, Optional

from rougekit._version import __version__

__all__ = ["Signature", "parse_signature"]


@dataclasses.dataclass(frozen=True)
class Signature:
    """The options behind a corpus score (module docstring); ``str()`` gives
    the one-line form, ``Signature.parse`` reads it back."""

    tokenizer: str = "rouge-score"
    stemmer: str = "no"
    multi_ref: str = "max"
    aggregation: str = "mean"
    bootstrap: int = 0
    confidence: float = 0.95
    seed: Optional[int] = None
    version: str = __version__

    @classmethod
    def of_tokenizer(cls, tokenizer: Any, **fields: Any) -> "Signature":
        """A signature whose ``tok`` and ``stem`` fields describe a tokenizer
        object (a named tokenizer "X+S" is tokenizer X with stemmer S)."""
        name = getattr(tokenizer, "name", None) or f"custom:{type(tokenizer).__name__}"
        tok, _, stemmer = str(name).partition("+")
        return cls(tokenizer=tok, stemmer=stemmer or "no", **fields)

    def fields(self) -> Dict[str, str]:
        """The ``key: value`` fields in order."""
        boot = "none"
        if self.bootstrap:
            seed = "none" if self.seed is None else self.seed
            boot = f"{self.bootstrap},ci:{self.confidence},seed:{seed}"
        return {"rougekit": self.version, "tok": self.tokenizer, "stem": self.stemmer,
                "multi": self.multi_ref, "agg": self.aggregation, "boot": boot}

    def format(self) -> str:
        """The one-line form: ``key:value`` fields joined by "|"."""
        return "|".join(f"{k}:{v}" for k, v in self.fields().items())

    __str__ = format

    @classmethod
    def parse(cls, text: str) -> "Signature":
        """Read a signature line (as ``format`` writes it) back.

        ValueError names what is wrong: a field without ":", an unknown or
        missing field, a malformed ``boot`` value.
        """
        if not isinstance(text, str):
            raise TypeError(f"signature must be str, not {type(text).__name__}")
        values: Dict[str, str] = {}
        for part in text.strip().split("|"):
            key, sep, value = part.partition(":")
            if not sep:
                raise ValueError(f"signature field {part!r} has no ':'")
            values[key] = value
        known = ("rougekit", "tok", "stem", "multi", "agg", "boot")
        unknown = [k for k in values if k not in known]
        if unknown:
            raise ValueError(f"signature has unknown field(s): {', '.join(unknown)}")
        missing = [k for k in known if k not in values]
        if missing:
            raise ValueError(f"signature lacks field(s): {', '.join(missing)}")
        bootstrap, confidence, seed = 0, 0.95, None
        if values["boot"] != "none":
            try:
                n, rest = values["boot"].split(",ci:", 1)
                ci, seed_text = rest.split(",seed:", 1)
                bootstrap, confidence = int(n), float(ci)
                seed = None if seed_text == "none" else int(seed_text)
            except ValueError:
                raise ValueError(f"signature field boot:{values['boot']} is not "
                                 "N,ci:C,seed:S") from None
        return cls(tokenizer=values["tok"], stemmer=values["stem"],
                   multi_ref=values["multi"], aggregation=values["agg"],
                   bootstrap=bootstrap, confidence=confidence, seed=seed,
                   version=values["rougekit"])

    def score_corpus_kwargs(self) -> Dict[str, Any]:
        """The keyword arguments of ``score_corpus`` that give these numbers."""
        if self.tokenizer.startswith("custom:"):
            raise ValueError(f"the tokenizer {self.tokenizer!r} is a custom object: "
                             "a signature cannot recreate it")
        if self.stemmer not in ("no", "porter"):
            raise ValueError(f"unknown stemmer {self.stemmer!r} in the signature")
        kwargs: Dict[str, Any] = {"tokenizer": self.tokenizer,
                                  "use_stemmer": self.stemmer == "porter",
                                  "multi_ref": self.multi_ref, "bootstrap": self.bootstrap}
        if self.bootstrap:
            kwargs.update(confidence=self.confidence, seed=self.seed)
        return kwargs


def parse_signature(text: str) -> Dict[str, Any]:
    """The keyword arguments of ``score_corpus`` that reproduce a signature.

    ``score_corpus(candidates, references, **parse_signature(sig))`` gives
    the numbers ``sig`` was printed with (on the same data and version).
    """
    return Signature.parse(text).score_corpus_kwargs()
