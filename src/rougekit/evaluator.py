"""ROUGE of one answer against one ground truth: the textbook ROUGE-1 and an evaluator.

``rouge_1_score(reference, candidate)`` (the common textbook/exercise form) returns a dict of
precision, recall and F1 of lowercased whitespace tokens::

    >>> rouge_1_score("the cat sat on the mat", "the cat is on the mat")["recall"]
    0.8333333333333334

``RougeScoreEvaluator`` (the evaluator interface of LLM-evaluation platforms)
scores samples that carry an
``answer`` and a ``groundTruth``, with a chosen ``RougeType`` and
``MeasureType``::

    >>> evaluator = RougeScoreEvaluator(RougeType.ROUGE2, MeasureType.PRECISION)
    >>> result = evaluator.evaluate({"answer": "the cat sat", "groundTruth": "the cat sat down"})
    >>> result.get_value()
    1.0

Why some published example scores are not reproduced
----------------------------------------------------
One platform's documentation of this metric compares "The quick brown fox
jumps over the lazy dog." with a partial match, "The quick brown fox runs.",
printed as ROUGE-L 0.55, and with a reordering, "The lazy dog is jumped over
by the quick brown fox.", printed as ROUGE-1 0.89 and ROUGE-L 0.56, all in
its default mode, FMEASURE. No standard ROUGE gives these. The longest
common subsequence is 4 tokens in both cases ("the quick brown fox"),
whichever tokenizer is used:

- partial match: P = 4/5, R = 4/9, F = 0.5714 (rouge-score's ROUGE-L F too);
  the documented 0.55 is none of P, R or F;
- reordering: 11 candidate tokens, 8 shared unigrams (rouge-score's
  tokens), so ROUGE-1 P = 8/11, R = 8/9, F = 0.80 (0.90 when stemming makes
  "jumped" match "jumps"); the documented 0.89 is the ROUGE-1 *recall* 8/9, not
  the F-measure it says it reports. ROUGE-L: P = 4/11, R = 4/9, F = 0.40;
  0.56 (5/9) would need a 5-token LCS, which these texts do not have.

With the default whitespace tokens (case and punctuation kept, as the
evaluator interface specifies) the partial match scores the same, and the reordering lower still,
ROUGE-1 F 0.60 and ROUGE-L F 0.30, as "The"/"the", "dog."/"dog" and
"fox."/"fox" differ. ``tokenizer="rouge-score"`` gives rouge-score's numbers.
"""
import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, Dict

from rougekit import token_metrics
from rougekit._counts import ngram_counts
from rougekit.word_tokenizers import WhitespaceTokenizer, get_tokenizer

__all__ = ["rouge_1_score", "RougeType", "MeasureType", "RougeScoreEvaluator",
           "Evaluation", "MissingFieldError"]


def rouge_1_score(reference: str, candidate: str) -> Dict[str, float]:
    """The textbook ROUGE-1: ``{"precision", "recall", "f1"}`` of the clipped
    unigram overlap of the lowercased, whitespace-split texts; any measure
    whose denominator is 0 is 0.0.

    Unrounded (5/6 is 0.8333333333333334, not 0.8333).

    >>> rouge_1_score("the cat sat on the mat", "the cat is on the mat")
    {'precision': 0.8333333333333334, 'recall': 0.8333333333333334, 'f1': 0.8333333333333334}
    """
    for name, text in (("reference", reference), ("candidate", candidate)):
        if not isinstance(text, str):
            raise TypeError(f"{name} must be str, not {type(text).__name__}")
    ref = reference.lower().split()
    cand = candidate.lower().split()
    hits, ref_total, cand_total = ngram_counts(ref, cand, 1)
    precision = hits / cand_total if cand_total else 0.0
    recall = hits / ref_total if ref_total else 0.0
    return {"precision": precision, "recall": recall,
            "f1": token_metrics.f1(precision, recall)}


def _normalised(name):
    return name.replace("-", "").replace("_", "").upper()


class _LenientEnum(enum.Enum):
    """An enum also found by its name or value, ignoring case, "-" and "_"."""

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            key = _normalised(value)
            for name, member in cls.__members__.items():
                if key in (_normalised(name), _normalised(member.value)):
                    return member
        return None

    @classmethod
    def _parse(cls, value, argument):
        if isinstance(value, cls):
            return value
        if not isinstance(value, str):
            raise TypeError(f"{argument} must be a {cls.__name__} or its name, "
                            f"not {type(value).__name__}")
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"unknown {argument} {value!r}; valid: "
                             + ", ".join(cls.__members__)) from None


class RougeType(_LenientEnum):
    """The ROUGE variant. Values are rouge-score's names.

    ROUGE_1 and ROUGE_2 are aliases (the spelling some platforms use). Strings are
    accepted wherever a RougeType is: a member's name or value, ignoring
    case, "-" and "_" ("ROUGE_L", "rouge-l", "rougeL", "ROUGE-1").

    >>> RougeType("ROUGE-L") is RougeType.ROUGE_L
    True
    """

    ROUGE1 = "rouge1"
    ROUGE2 = "rouge2"
    ROUGE_L = "rougeL"
    ROUGE_L_SUM = "rougeLsum"
    ROUGE_1 = "rouge1"
    ROUGE_2 = "rouge2"


class MeasureType(_LenientEnum):
    """The number an evaluation reports. Values are ``Score``'s fields.

    FMEASURE is an alias of F1SCORE (the spelling some platforms use); "f1" is accepted
    too. Strings are matched as for ``RougeType``.
    """

    PRECISION = "precision"
    RECALL = "recall"
    F1SCORE = "fmeasure"
    FMEASURE = "fmeasure"

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str) and _normalised(value) == "F1":
            return cls.F1SCORE
        return super()._missing_(value)


class MissingFieldError(KeyError):
    """A sample lacks a required field. A KeyError, as for a missing dict key,
    whether the sample is a mapping or an object."""

    def __str__(self):  # KeyError would show the message in quotes
        return str(self.args[0])


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """One evaluation: all three measures, and ``value``, the selected one."""

    rouge_type: RougeType
    measure: MeasureType
    precision: float
    recall: float
    fmeasure: float

    @property
    def value(self):
        return getattr(self, self.measure.value)

    def get_value(self):
        """``value``, by the Java-style name ``getValue()`` of the evaluator interface."""
        return self.value


def _field(sample, names):
    """The first of ``names`` present in ``sample`` (a mapping or an object)."""
    if sample is None or isinstance(sample, (str, bytes, int, float)):
        raise TypeError("sample must be a mapping or an object with answer and "
                        f"groundTruth fields, not {type(sample).__name__}")
    for name in names:
        if isinstance(sample, Mapping):
            if name in sample:
                value = sample[name]
                break
        elif hasattr(sample, name):
            value = getattr(sample, name)
            break
    else:
        alternatives = " (or " + ", ".join(map(repr, names[1:])) + ")" if names[1:] else ""
        raise MissingFieldError(f"sample has no {names[0]!r}{alternatives} field")
    if not isinstance(value, str):
        raise TypeError(f"sample field {name!r} must be str, not {type(value).__name__}")
    return value


class RougeScoreEvaluator:
    """Scores a sample's ``answer`` against its ``groundTruth``.

    Args:
      rouge_type: a ``RougeType`` or its name (see ``RougeType``).
      measure: a ``MeasureType`` or its name.
      tokenizer: None for whitespace tokens, case kept (the interface's
        definition); or any
        name or object ``rougekit.word_tokenizers.get_tokenizer`` accepts,
        such as "rouge-score" for rouge-score's tokens.

    ``evaluate(sample)`` reads ``answer`` and ``groundTruth`` (or
    ``ground_truth``) as mapping keys or attributes. A missing field raises
    ``MissingFieldError`` (a KeyError) naming it; a field that is not a str
    raises TypeError. ROUGE_L_SUM splits both texts into sentences on "\\n"
    and uses the summary-level union LCS (as rouge-score's rougeLsum).

    >>> evaluator = RougeScoreEvaluator("ROUGE_L", "RECALL")
    >>> evaluator.evaluate({"answer": "a b c", "groundTruth": "c b a d"}).value
    0.25
    """

    def __init__(self, rouge_type=RougeType.ROUGE1, measure=MeasureType.F1SCORE,
                 tokenizer=None):
        self.rouge_type = RougeType._parse(rouge_type, "rouge_type")
        self.measure = MeasureType._parse(measure, "measure")
        self.tokenizer = WhitespaceTokenizer() if tokenizer is None else \
            get_tokenizer(tokenizer)

    def __repr__(self):
        return (f"RougeScoreEvaluator({self.rouge_type}, {self.measure}, "
                f"tokenizer={self.tokenizer!r})")

    def evaluate(self, sample: Any) -> "Evaluation":
        """An ``Evaluation`` of ``sample``'s answer against its ground truth."""
        answer = _field(sample, ("answer",))
        truth = _field(sample, ("groundTruth", "ground_truth"))
        tokenize = self.tokenizer.tokenize
        if self.rouge_type is RougeType.ROUGE_L_SUM:
            # Empty lines are dropped, as rouge-score does.
            score = token_metrics.rouge_lsum(
                [tokenize(s) for s in answer.split("\n") if s],
                [tokenize(s) for s in truth.split("\n") if s], mode="union")
        elif self.rouge_type is RougeType.ROUGE_L:
            score = token_metrics.rouge_l(tokenize(answer), tokenize(truth))
        else:
            n = 1 if self.rouge_type is RougeType.ROUGE1 else 2
            score = token_metrics.rouge_n(tokenize(answer), tokenize(truth), n)
        return Evaluation(self.rouge_type, self.measure, *score)
