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

With ``seed`` (default 0) the ``evaluate`` flavor draws its resamples from
``numpy.random.RandomState(seed)``, so its numbers repeat.
"""
import dataclasses
import json
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

from rougekit._pipeline import ScoringOptions, check_texts
from rougekit._warn import SentenceSplitWarning
from rougekit.corpus import score_corpus
from rougekit.flavors import STAGES, flavor_names, flavor_options
from rougekit.scoring import Score

__all__ = ["audit", "AuditResult", "AuditStep"]

Numbers = Dict[str, Score]
AUDIT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


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

    def _options(self, flavor: str) -> ScoringOptions:
        if flavor not in self.options:
            self.options[flavor] = _flavor_options(flavor, self.rouge_types, self._seed())
            self.numbers[flavor] = self.score(self.options[flavor])
        return self.options[flavor]

    def _seed(self) -> Optional[int]:
        seeds = [o.seed for o in self.options.values() if o.aggregation == "bootstrap-median"]
        return seeds[0] if seeds else 0

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


def _flavor_options(flavor: str, rouge_types: Sequence[str], seed: Optional[int]
                    ) -> ScoringOptions:
    options = flavor_options(flavor, rouge_types=tuple(rouge_types))
    if options.aggregation == "bootstrap-median":
        options = dataclasses.replace(options, seed=seed)
    return options


def audit(candidates: Sequence[str], references: Sequence[Any],
          flavors: Optional[Sequence[str]] = None,
          rouge_types: Sequence[str] = AUDIT_TYPES, *, seed: Optional[int] = 0,
          threads: Optional[int] = None) -> AuditResult:
    """Every flavor's corpus numbers on the same texts (module docstring).

    Args:
      candidates: the candidate texts.
      references: one entry per candidate: a str or a list of str.
      flavors: flavor names (``rougekit.flavors``; default: rouge-score,
        evaluate, rouge155, pltrdy, rouge-chinese).
      rouge_types: the rouge types of every flavor (default rouge1, rouge2,
        rougeL, rougeLsum).
      seed: the ``evaluate`` flavor's resampling seed (None: numpy's global
        random state, whose numbers do not repeat).
      threads: threads for the compiled paths.
    """
    names = flavor_names(flavors)
    candidates, refs = check_texts(candidates, references)
    result = AuditResult({}, {}, ScoringOptions(rouge_types=tuple(rouge_types)).rouge_types,
                         candidates, refs, threads)
    for flavor in names:
        result.options[flavor] = _flavor_options(flavor, result.rouge_types, seed)
        result.numbers[flavor] = result.score(result.options[flavor])
    return result


def audit_json(result: AuditResult, paths: Sequence[Tuple[str, str]] = ()) -> str:
    """``result.to_dict(paths)`` as indented JSON."""
    return json.dumps(result.to_dict(paths), indent=2, ensure_ascii=False)
