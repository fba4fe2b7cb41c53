"""Flavors: the ROUGE of each package people report with, as named presets.

The same texts get different ROUGE numbers from different packages because
each makes different choices at a few stages: how words are found, whether
they are stemmed, how n-grams are counted, what ROUGE-L is, how an F is
formed, how items become a corpus score. A flavor is the set of
``ScoringOptions`` stages (``rougekit._pipeline``) that gives one package's
numbers; ``score_corpus(..., flavor=NAME)`` scores with it and its signature
names it (``flavor:NAME``, read back by ``ScoringOptions.from_signature``).

=====================  ===================================================
``rouge-score``        Google's rouge-score 0.1.2 (the default): its
                       tokenizer, clipped n-gram counts, rougeL the LCS of
                       the texts, F = 2PR / (P + R), the mean of the items.
``evaluate``           Hugging Face ``evaluate.load("rouge")`` with its
                       defaults: rouge-score, then rouge-score's
                       ``BootstrapAggregator`` (1,000 resamples, the
                       medians; numpy's global random state, or
                       ``seed=S``: the draws after ``numpy.random.seed(S)``).
``rouge155[:FLAGS]``   ROUGE-1.5.5.pl with FLAGS (``rouge155:-m -n 2``):
                       its tokens (``-m`` its stemmer, ``-s`` its
                       stopwords), ROUGE-L summary-level over the lines,
                       references pooled (``-f A``), P and R rounded to 5
                       decimals and its F (``-p``), the mean of its
                       bootstrap resample means (``-r``, ``-c``). ``-n N``
                       sets the rouge types when they are not given.
``xlsum:LANGUAGE``     XL-Sum's evaluation (its rouge-score fork's
                       ``rouge.py --lang=LANGUAGE --use_stemmer=true``):
                       ``lang=LANGUAGE``, stemming where the language has a
                       stemmer, and rouge-score's ``BootstrapAggregator``
                       medians, as ``evaluate``.
``pltrdy``             ``rouge`` 1.0.1 (pltrdy): ``Rouge().get_scores(hyps,
                       refs, avg=True)``: words split on spaces, case kept,
                       sentences split on "."; distinct n-grams (sets);
                       ROUGE-L the distinct words on the union LCS of the
                       sentences; F with ``1e-8`` in its denominator; the
                       items' values added in order, then divided.
``rouge-chinese``      ``rouge-chinese`` 1.0.3 on space-segmented text (e.g.
                       ``" ".join(jieba.cut(text))``): as ``pltrdy``, but
                       sentences are its ``cut_sent``'s and ROUGE-L is the
                       LCS of the whole texts' words.
=====================  ===================================================

The packages' names for the measures map to rougekit's: ``rouge-1`` is
``rouge1``, and a package's one ROUGE-L is ``rougeL``; ``rougeLsum`` is the
summary-level ROUGE-L over the flavor's sentences (for ``rouge155`` and
``pltrdy``, whose ROUGE-L is summary-level, the same as ``rougeL``). Where a
package raises (pltrdy's "Hypothesis is empty."), or crashes (its recursion
limit on long sentences), the flavor scores the item as the algorithm
defines it: an empty text scores 0.

>>> from rougekit import score_corpus
>>> result = score_corpus(["the cat is on the mat"], ["the cat sat on the mat"],
...                       ["rouge1"], flavor="pltrdy")
>>> result.scores["rouge1"]
Score(precision=0.8, recall=0.8, fmeasure=0.7999999950000002)
>>> result.signature.split("|")[-1]
'flavor:pltrdy'
>>> flavor_options("rouge155:-m -n 2").rouge_types
('rouge1', 'rouge2', 'rougeL')
"""
import dataclasses
from typing import Any, Dict, List, Optional, Sequence

from rougekit._pipeline import ScoringOptions

__all__ = ["FLAVORS", "STAGES", "flavor_options", "flavor_of", "flavor_fields",
           "flavor_names"]

#: The flavors' names (``rouge155`` and ``xlsum`` take parameters after ":").
FLAVORS = ("rouge-score", "evaluate", "rouge155", "xlsum", "pltrdy", "rouge-chinese")

#: The stages where flavors differ, in the order ``rougekit.audit`` walks
#: them: (name, the ``ScoringOptions`` fields it holds).
STAGES = (
    ("tokenizer", ("tokenizer", "lang")),
    ("stemmer", ("use_stemmer", "stem_stopwords")),
    ("stopwords", ("remove_stopwords",)),
    ("n-gram counting", ("counting",)),
    ("Lsum sentence splitting", ("sentence_split",)),
    ("ROUGE-L", ("rouge_l",)),
    ("several references", ("multi_ref",)),
    ("per-item to corpus", ("aggregation", "bootstrap", "confidence", "seed")),
    ("F's formula and rounding", ("f_measure", "alpha")),
)
_STAGE_FIELDS = tuple(f for _, fields in STAGES for f in fields)
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(ScoringOptions)}
_DEFAULT_TYPES = ScoringOptions().rouge_types

# ROUGE-1.5.5.pl's flags that a flavor takes, and their defaults.
_ROUGE155_DEFAULTS = {"-c": 95.0, "-p": 0.5, "-r": 1000}


def _rouge155_flags(text: str) -> Dict[str, Any]:
    """The flags of ``rouge155:FLAGS``: ``-m``, ``-s``, ``-n N``, ``-c CF``,
    ``-p ALPHA``, ``-r R``, ``-f A``, ``-a``."""
    words = text.split()
    flags: Dict[str, Any] = {"-m": False, "-s": False, "-n": None, **_ROUGE155_DEFAULTS}
    i = 0
    while i < len(words):
        word = words[i]
        flag, value = word[:2], word[2:]
        if flag in ("-m", "-s", "-a") and not value:
            flags[flag] = True
        elif flag in ("-n", "-c", "-p", "-r", "-f"):
            if not value:
                i += 1
                if i == len(words):
                    raise ValueError(f"flavor rouge155: flag {flag} needs a value")
                value = words[i]
            if flag == "-f":
                if value != "A":
                    raise ValueError("flavor rouge155: only -f A (pooled references) is a "
                                     "flavor; rougekit.rouge155.Rouge155 computes -f B")
            else:
                try:
                    flags[flag] = int(value) if flag in ("-n", "-r") else float(value)
                except ValueError:
                    raise ValueError(f"flavor rouge155: {flag} {value!r} is not a "
                                     "number") from None
        else:
            raise ValueError(f"flavor rouge155: flag {word!r} is not available in a flavor "
                             "(it takes -m, -s, -n N, -c CF, -p ALPHA, -r R, -f A); "
                             "rougekit.rouge155.Rouge155 has every flag of the script")
        i += 1
    if flags["-n"] is not None and not 1 <= flags["-n"] <= 9:
        raise ValueError(f"flavor rouge155: -n {flags['-n']} is not in 1..9")
    if not 0 < flags["-c"] <= 100:
        raise ValueError(f"flavor rouge155: -c {flags['-c']} is not in (0, 100]")
    return flags


def _split(flavor: Any) -> List[str]:
    if not isinstance(flavor, str):
        raise TypeError(f"flavor must be a str, not {type(flavor).__name__}")
    name, sep, param = flavor.partition(":")
    if name not in FLAVORS:
        raise ValueError(f"unknown flavor {flavor!r}; valid: rouge-score, evaluate, "
                         "rouge155[:FLAGS], xlsum:LANGUAGE, pltrdy, rouge-chinese")
    if name == "xlsum" and not param:
        raise ValueError("flavor xlsum needs a language: xlsum:LANGUAGE "
                         "(rougekit.lang.LANGUAGES)")
    if sep and name not in ("xlsum", "rouge155"):
        raise ValueError(f"flavor {name} takes no parameters (got {flavor!r})")
    return [name, param]


def flavor_fields(flavor: str) -> Dict[str, Any]:
    """The ``ScoringOptions`` fields a flavor sets (every stage field; the
    others, ``rouge_types`` among them, are the caller's), and for
    ``rouge155:-n N`` the rouge types under ``"rouge_types"``.

    >>> flavor_fields("pltrdy")["counting"], flavor_fields("evaluate")["aggregation"]
    ('sets', 'bootstrap-median')
    """
    name, param = _split(flavor)
    fields = {f: _DEFAULTS[f] for f in _STAGE_FIELDS if f != "seed"}
    if name == "evaluate":
        fields.update(aggregation="bootstrap-median", bootstrap=1000)
    elif name == "xlsum":
        from rougekit.lang import get_language, resolve_lang
        lang = resolve_lang(param)
        fields.update(tokenizer="rouge-score", lang=lang,
                      use_stemmer=get_language(lang).stemmer is not None,
                      aggregation="bootstrap-median", bootstrap=1000)
    elif name in ("pltrdy", "rouge-chinese"):
        fields.update(tokenizer=name, counting="sets", f_measure="epsilon",
                      aggregation="mean-in-order",
                      sentence_split="period" if name == "pltrdy" else "chinese",
                      rouge_l="summary" if name == "pltrdy" else "lcs")
    elif name == "rouge155":
        flags = _rouge155_flags(param)
        fields.update(tokenizer="rouge155", use_stemmer=flags["-m"],
                      remove_stopwords=flags["-s"], rouge_l="summary", multi_ref="pooled",
                      f_measure="rouge155", alpha=flags["-p"],
                      aggregation="rouge155-bootstrap", bootstrap=flags["-r"],
                      confidence=flags["-c"] / 100)
        if flags["-n"] is not None:
            fields["rouge_types"] = tuple(f"rouge{n}" for n in range(1, flags["-n"] + 1)) \
                + ("rougeL",)
    return fields


def flavor_options(flavor: str, options: Optional[ScoringOptions] = None,
                   **given: Any) -> ScoringOptions:
    """The ``ScoringOptions`` of a flavor: its fields (``flavor_fields``),
    with ``options``' or ``given``'s other fields (``rouge_types``, and
    ``seed`` where the flavor leaves it). A given field that the flavor sets
    to another value is a ValueError naming it.

    >>> flavor_options("pltrdy", rouge_types=["rouge1"]).f_measure
    'epsilon'
    """
    fields = flavor_fields(flavor)
    base = {f.name: getattr(options, f.name) for f in dataclasses.fields(ScoringOptions)} \
        if options is not None else {}
    base.update(given)
    types = fields.pop("rouge_types", None)
    clash = [k for k, v in base.items()
             if k in fields and v != fields[k] and v != _DEFAULTS[k]]
    if clash:
        raise ValueError(f"flavor {flavor!r} sets " + ", ".join(
            f"{k}={fields[k]!r}" for k in clash) + ": give flavor= or those options, not both")
    merged = {**base, **fields}
    if types is not None and tuple(base.get("rouge_types", _DEFAULT_TYPES)) == _DEFAULT_TYPES:
        merged["rouge_types"] = types
    return ScoringOptions(**merged)


def _candidates(options: ScoringOptions) -> List[str]:
    """The flavors these options may be, with their parameters."""
    names = ["rouge-score", "evaluate", "pltrdy", "rouge-chinese"]
    if options.lang is not None:
        names.append(f"xlsum:{options.lang}")
    if options.tokenizer == "rouge155" and options.confidence > 0:
        flags = []
        if options.use_stemmer:
            flags.append("-m")
        if options.remove_stopwords:
            flags.append("-s")
        if options.confidence * 100 != _ROUGE155_DEFAULTS["-c"]:
            flags.append(f"-c {round(options.confidence * 100, 10):g}")
        if options.alpha != _ROUGE155_DEFAULTS["-p"]:
            flags.append(f"-p {options.alpha!r}")
        if options.bootstrap != _ROUGE155_DEFAULTS["-r"]:
            flags.append(f"-r {options.bootstrap}")
        names.append("rouge155:" + " ".join(flags) if flags else "rouge155")
    return names


def flavor_of(options: ScoringOptions) -> Optional[str]:
    """The flavor whose fields ``options`` has (with its parameters), or None.

    >>> flavor_of(flavor_options("rouge155:-m")), flavor_of(ScoringOptions())
    ('rouge155:-m', 'rouge-score')
    >>> flavor_of(ScoringOptions(counting="sets")) is None
    True
    """
    for name in _candidates(options):
        try:
            fields = flavor_fields(name)
        except (ValueError, LookupError):
            continue
        fields.pop("rouge_types", None)
        if all(getattr(options, k) == v for k, v in fields.items()):
            return name
    return None


def flavor_names(flavors: Optional[Sequence[str]]) -> List[str]:
    """Checked flavor names (every one without parameters by default)."""
    if flavors is None:
        return ["rouge-score", "evaluate", "rouge155", "pltrdy", "rouge-chinese"]
    for flavor in flavors:
        flavor_fields(flavor)
    return list(flavors)
