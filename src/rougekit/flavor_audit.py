"""Why two packages' ROUGE differ: every flavor on your data, and a path
from one to another that changes one stage at a time.

``audit(candidates, references)`` scores the corpus with each flavor
(``rougekit.flavors``) and keeps the numbers; ``result.path(a, b)`` walks
from flavor ``a``'s options to ``b``'s, changing the fields of one stage
(``rougekit.flavors.STAGES``: tokenizer, stemmer, stopwords, n-gram
counting, Lsum sentence splitting, ROUGE-L, several references, per-item to
corpus, F's formula and rounding) at each step, in that order, and scores
the corpus again after each. Every step is a real ``score_corpus`` call:
``score_corpus(candidates, references, options=step.options)`` gives
``step.numbers``; the last step's options are ``b``'s. A stage whose change
alone makes options that cannot go together (ROUGE-1.5.5's stemmer with
pltrdy's tokenizer) waits until a later stage has changed.

>>> from rougekit import audit
>>> result = audit(["the cat is on the mat"], [["the cat sat on the mat"]],
...                flavors=["rouge-score", "pltrdy"], rouge_types=["rouge1"])
>>> pltrdy = result.numbers["pltrdy"]
>>> pltrdy["rouge1"].fmeasure
0.7999999950000002
>>> for step in result.path("rouge-score", "pltrdy"):
...     print(f"{step.changed:24} {step.numbers['rouge1'].fmeasure!r}")
tokenizer                0.8333333333333334
n-gram counting          0.8000000000000002
Lsum sentence splitting  0.8000000000000002
ROUGE-L                  0.8000000000000002
per-item to corpus       0.8000000000000002
F's formula and rounding 0.7999999950000002

The audit takes the options every scoring function takes: ``options=``
(the base of every flavor's options), the option fields and the flavors'
switches as keywords, applied to every flavor (``use_stemmer=True``: each
flavor with its stemmer on, refused by a flavor whose package has no such
switch), and ``seed`` (default ``rougekit.DEFAULT_SEED``, as everywhere: the
``evaluate`` flavor draws its resamples from ``numpy.random.RandomState(seed)``,
so its numbers repeat and equal ``score_corpus(..., flavor="evaluate")``'s).
A flavor may also be given with its own switches: ``("rouge-score",
{"use_stemmer": True})``.
"""
import dataclasses
import json
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from rougekit._doors import resolve, takes_options
from rougekit._options import STAGES, ScoringOptions
from rougekit._pipeline import check_texts
from rougekit._spelling import option
from rougekit._warn import SentenceSplitWarning
from rougekit.corpus import score_corpus
from rougekit.flavors import flavor_names
from rougekit.scoring import Score

__all__ = ["audit", "AuditResult", "AuditStep"]

Numbers = Dict[str, Score]
#: A flavor of the audit: its name, or its name and its package's switches.
FlavorSpec = Union[str, Tuple[str, Dict[str, Any]]]


@dataclasses.dataclass(frozen=True)
class AuditStep:
    """One step of ``AuditResult.path``: the stage it ``changed``, the
    ``options`` after the change (``score_corpus(options=...)`` takes them)
    and the corpus ``numbers`` with them (rouge type -> Score)."""

    changed: str
    options: ScoringOptions
    numbers: Numbers

    def fields(self) -> Dict[str, Any]:
        """The stage's ``ScoringOptions`` fields and their values after the step."""
        stage = dict(STAGES).get(self.changed, ())
        names = stage if stage else [f for _, fs in STAGES for f in fs]
        return {f: getattr(self.options, f) for f in names}


@dataclasses.dataclass
class AuditResult:
    """What ``audit`` returns.

    Attributes:
      numbers: flavor -> rouge type -> Score: each flavor's corpus numbers.
      options: flavor -> its ``ScoringOptions``.
      rouge_types: the rouge types scored.
    """

    numbers: Dict[str, Numbers]
    options: Dict[str, ScoringOptions]
    rouge_types: Tuple[str, ...]
    _candidates: List[str] = dataclasses.field(repr=False)
    _references: List[List[str]] = dataclasses.field(repr=False)
    _threads: Optional[int] = dataclasses.field(repr=False, default=None)
    _base: Optional[ScoringOptions] = dataclasses.field(repr=False, default=None)
    _given: Dict[str, Any] = dataclasses.field(repr=False, default_factory=dict)
    _scored: Dict[ScoringOptions, Numbers] = dataclasses.field(repr=False,
                                                               default_factory=dict)

    def score(self, options: ScoringOptions) -> Numbers:
        """The corpus numbers of ``options`` on the audited texts."""
        if options not in self._scored:
            with warnings.catch_warnings():
                # rouge-score's "one sentence" warning: the audit shows its effect
                warnings.simplefilter("ignore", SentenceSplitWarning)
                self._scored[options] = score_corpus(self._candidates, self._references,
                                                     options=options,
                                                     threads=self._threads).scores
        return self._scored[options]

    def path(self, a: str, b: str) -> List[AuditStep]:
        """The steps from flavor ``a`` to flavor ``b`` (module docstring);
        ``numbers[a]`` is where they start, the last one's numbers are
        ``numbers[b]``. ``a`` and ``b`` need not be among the audited
        flavors."""
        start, end = self._options(a), self._options(b)
        current = start
        steps = []
        remaining: List[Tuple[str, Tuple[str, ...]]] = [
            (name, fields) for name, fields in STAGES
                     if any(getattr(current, f) != getattr(end, f) for f in fields)]
        while remaining:
            name, changed = _next_change(current, end, remaining)
            current = changed
            steps.append(AuditStep(name, current, self.score(current)))
        return steps

    def _options(self, flavor: FlavorSpec) -> ScoringOptions:
        label = _label(flavor)
        if label not in self.options:
            self.options[label] = self.flavor_options(flavor)
            self.numbers[label] = self.score(self.options[label])
        return self.options[label]

    def flavor_options(self, flavor: FlavorSpec) -> ScoringOptions:
        """A flavor's options in this audit: its package's switches (its own
        and the audit's), the audit's rouge types and seed."""
        name, switches = (flavor, {}) if isinstance(flavor, str) else flavor
        given = {"rouge_types": self.rouge_types, **self._given, **switches}
        return resolve("audit", self._base, name, **given)

    def table(self, measure: str = "fmeasure") -> str:
        """The flavors' numbers as a text table, one row per flavor, one
        column per rouge type (``measure``: "precision", "recall" or
        "fmeasure")."""
        rows = [[flavor] + [f"{getattr(n[t], measure):.5f}" for t in self.rouge_types]
                for flavor, n in self.numbers.items()]
        return _text_table(["flavor", *self.rouge_types], rows)

    def path_table(self, a: str, b: str, measure: str = "fmeasure") -> str:
        """``path(a, b)`` as a text table: the number of each rouge type
        after each step, and how much the step moved it."""
        numbers = self.numbers[a] if a in self.numbers else self.score(self._options(a))
        rows = [[f"{a} (start)", ""] + [f"{getattr(numbers[t], measure):.5f}"
                                        for t in self.rouge_types]]
        for step in self.path(a, b):
            cells = []
            for t in self.rouge_types:
                value = getattr(step.numbers[t], measure)
                cells.append(f"{value:.5f} ({value - getattr(numbers[t], measure):+.5f})")
            rows.append([step.changed, _describe(step)] + cells)
            numbers = step.numbers
        return _text_table(["step", "to", *self.rouge_types], rows)

    def to_dict(self, paths: Sequence[Tuple[str, str]] = ()) -> Dict[str, Any]:
        """A JSON-ready dict: each flavor's numbers and signature, and the
        steps of each (a, b) in ``paths``."""
        def numbers(n: Numbers) -> Dict[str, Dict[str, float]]:
            return {t: s._asdict() for t, s in n.items()}
        out: Dict[str, Any] = {
            "flavors": {f: {"numbers": numbers(n), "signature": self.options[f].signature()}
                        for f, n in self.numbers.items()}}
        if paths:
            out["paths"] = [{"from": a, "to": b, "steps": [
                {"changed": s.changed, "options": _jsonable(s.fields()),
                 "signature": s.options.signature(), "numbers": numbers(s.numbers)}
                for s in self.path(a, b)]} for a, b in paths]
        return out


def _next_change(current: ScoringOptions, end: ScoringOptions,
                 remaining: List[Tuple[str, Tuple[str, ...]]]) -> Tuple[str, ScoringOptions]:
    """The first stage of ``remaining`` whose fields can take ``end``'s
    values alone (removed from ``remaining``), and the options after it; if
    none can, every remaining stage at once (they must change together)."""
    for k, (name, fields) in enumerate(remaining):
        try:
            changed = dataclasses.replace(current, **{f: getattr(end, f) for f in fields})
        except ValueError:
            continue
        del remaining[k]
        return name, changed
    name = " + ".join(n for n, _ in remaining)
    remaining.clear()
    return name, end


def _jsonable(fields: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v if isinstance(v, (str, int, float, bool, type(None))) else str(v)
            for k, v in fields.items()}


def _describe(step: AuditStep) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in step.fields().items())


def _text_table(head: List[str], rows: List[List[str]]) -> str:
    widths = [max(len(str(r[k])) for r in [head, *rows]) for k in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
             for r in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _label(flavor: FlavorSpec) -> str:
    """A flavor's row in the audit: its name, with its own switches."""
    if isinstance(flavor, str):
        return flavor
    name, switches = flavor
    return name + "".join(f" {k}={v!r}" for k, v in switches.items())


def _specs(flavors: Optional[Sequence[FlavorSpec]]) -> List[FlavorSpec]:
    if flavors is None or isinstance(flavors, str):
        return list(flavor_names(None if flavors is None else [flavors]))
    specs: List[FlavorSpec] = []
    for flavor in flavors:
        if isinstance(flavor, tuple) and len(flavor) == 2 and isinstance(flavor[1], dict):
            flavor_names([flavor[0]])
            specs.append((flavor[0], dict(flavor[1])))
        else:
            specs.extend(flavor_names([flavor]))
    if not specs:
        raise ValueError("flavors is empty: name at least one flavor")
    return specs


@takes_options("audit")
def audit(candidates: Sequence[str], references: Sequence[Any],
          flavors: Optional[Sequence[FlavorSpec]] = None,
          rouge_types: Optional[Sequence[str]] = None, *,
          options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
          threads: Optional[int] = None, **fields: Any) -> AuditResult:
    """Every flavor's corpus numbers on the same texts (module docstring).

    Args:
      candidates: the candidate texts.
      references: one entry per candidate: a str or a list of str.
      flavors: flavor names (``rougekit.flavors``; default: rouge-score,
        evaluate, rouge155, pltrdy, rouge-chinese), each a name or a pair
        (name, {switch: value}).
      rouge_types: the rouge types of every flavor (default rouge1, rouge2,
        rougeL, rougeLsum).
      options: a ``rougekit.ScoringOptions``, the base of every flavor's
        options (its fields must agree with each flavor's).
      flavor: one flavor (the same as ``flavors=[flavor]``).
      threads: threads for the compiled paths.
      **fields: option fields and flavors' switches applied to every flavor,
        e.g. ``seed`` (default ``rougekit.DEFAULT_SEED``: the ``evaluate``
        flavor's resamples; ``"numpy-global"``: numpy's global random state,
        whose numbers do not repeat) or ``use_stemmer=True``.
    """
    if flavor is not None:
        if flavors is not None:
            raise ValueError(f"give flavors= or {option('flavor')}, not both")
        flavors = [flavor]
    specs = _specs(flavors)
    candidates, refs = check_texts(candidates, references)
    types = resolve("audit", rouge_types=rouge_types) if rouge_types is not None else \
        (options if options is not None else ScoringOptions())
    result = AuditResult({}, {}, types.rouge_types, candidates, refs, threads, options,
                         fields)
    # every flavor's options first: a refused one stops the audit before any work
    chosen = {_label(spec): result.flavor_options(spec) for spec in specs}
    for label, flavor_options in chosen.items():
        result.options[label] = flavor_options
        result.numbers[label] = result.score(flavor_options)
    return result


def audit_json(result: AuditResult, paths: Sequence[Tuple[str, str]] = ()) -> str:
    """``result.to_dict(paths)`` as indented JSON."""
    return json.dumps(result.to_dict(paths), indent=2, ensure_ascii=False)
