"""Corpus means of per-item scores, from partial results that merge exactly.

``MeanAggregator`` is for scoring in pieces: streaming, batches, or items
split across processes or machines. Each piece aggregates its items, the
pieces are merged (``merge``, ``+``, ``sum``) after travelling as pickles or
as JSON (``to_dict`` / ``from_dict``), and ``result()`` gives the corpus means.

The guarantee: per score type and field, ``result()`` is the float nearest to
the exact mean of the values added, ``float(sum(map(Fraction, values)) / n)``
(ties to even), whatever the split of the items into pieces, the order of
the items and the order of the merges. So merged results equal the
all-at-once result with ``==``, bit for bit.

How: floating-point addition is not associative, so summing floats in pieces
would give split-dependent last bits. Instead each value, a finite double, is
an exact integer multiple of 2**-1074 (the smallest subnormal), and the
aggregator keeps per field the exact sum of those integers (a Python int,
which does not overflow). Integer addition is associative and commutative,
so any split gives the same sum; the mean is then one correctly rounded
integer division. This costs about a microsecond per value.

Note that the result can differ in the last bit from ``math.fsum(values) / n``
(which rounds twice) and from ``numpy.mean`` (pairwise summation); and that it
is the plain mean, unlike ``scoring.BootstrapAggregator``'s ``mid`` (the
median of bootstrap means), which Hugging Face evaluate reports.

>>> from rougekit import rouge_scorer
>>> from rougekit.aggregate import MeanAggregator
>>> scorer = rouge_scorer.RougeScorer(["rouge1"])
>>> pairs = [("the cat sat", "the cat"), ("a dog", "a dog ran"), ("x y", "y")]
>>> part1, part2 = MeanAggregator(), MeanAggregator()
>>> for target, prediction in pairs[:2]:
...     part1.add_scores(scorer.score(target, prediction))
>>> part2.add_scores(scorer.score(*pairs[2]))
>>> whole = MeanAggregator()
>>> for target, prediction in pairs:
...     whole.add_scores(scorer.score(target, prediction))
>>> (part1 + part2).result() == whole.result()
True
>>> whole.result()["rouge1"]
Score(precision=0.8888888888888888, recall=0.7222222222222222, fmeasure=0.7555555555555555)
>>> MeanAggregator.from_dict(part2.to_dict()) == part2  # JSON-compatible
True

Columns of scores (``RougeScorer.score_columns``) go in whole with
``add_columns``, vectorized with numpy, giving the same state as adding
their rows one by one:

>>> columns = scorer.score_columns([t for t, _ in pairs], [p for _, p in pairs])
>>> by_columns = MeanAggregator()
>>> by_columns.add_columns({"rouge1": [columns["rouge1_precision"],
...                                    columns["rouge1_recall"],
...                                    columns["rouge1_fmeasure"]]})
>>> by_columns == whole
True
"""
import collections
import copy
import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from rougekit.scoring import Score

__all__ = ["MeanAggregator", "exact_mean", "exact_means"]

# Every finite double is an integer multiple of 2**-_SCALE_BITS.
_SCALE_BITS = 1074
_FORMAT = "rougekit.MeanAggregator"
_VERSION = 1


def _fixed(value: Any) -> int:
    """``value`` (a float, or a number float() accepts) times 2**1074, exactly."""
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"scores must be finite numbers, got {value!r}")
    numerator, denominator = x.as_integer_ratio()  # denominator: a power of 2
    return numerator << (_SCALE_BITS - (denominator.bit_length() - 1))


def exact_mean(values: Iterable[Any]) -> float:
    """The float nearest the exact mean of ``values`` (finite numbers, at
    least one), ties to even: ``float(sum(map(Fraction, values)) / n)``.

    Unlike ``sum(values) / n`` it does not depend on the order of the values
    or on the Python version (``sum`` of floats is compensated from Python
    3.12 on, so its last bit differs from 3.11's), and the mean of n copies
    of x is x. ``score_corpus`` and the command line report means with it,
    and ``MeanAggregator`` gives the same floats.

    >>> exact_mean([0.1] * 10)
    0.1
    >>> exact_mean([1e100, 1.0, -1e100])  # exactly 1/3
    0.3333333333333333
    """
    fixed = [_fixed(v) for v in values]
    if not fixed:
        raise ValueError("exact_mean needs at least one value")
    # int / int is correctly rounded in Python, however large the ints.
    return sum(fixed) / (len(fixed) << _SCALE_BITS)


_FEW = 100


def _fixed_sum(values: Any) -> int:
    """``sum(_fixed(v) for v in values)`` for a 1-D array of floats, vectorized.

    Each double is m * 2**(e - 53) with m an integer below 2**53
    (``numpy.frexp``); the m of equal e are summed exactly in int64 (in
    halves of 26 and 27 bits, so no sum can overflow), and only one Python
    int per distinct exponent is shifted into place. Up to ``_FEW`` values
    the plain sum is quicker (a corpus of a few items: 3 us against 57 for 5).
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    if not np.isfinite(x).all():
        bad = x[~np.isfinite(x)][0]
        raise ValueError(f"scores must be finite numbers, got {bad!r}")
    if x.size <= _FEW:
        return sum(_fixed(v) for v in x.tolist())
    fraction, exponent = np.frexp(x)
    mantissa = (fraction * 2.0 ** 53).astype(np.int64)     # exact: |m| < 2**53
    total = 0
    for e in np.unique(exponent[mantissa != 0]).tolist():
        group = mantissa[exponent == e]
        high = group >> 26                                  # floor, also below 0
        low = group - (high << 26)                          # in [0, 2**26)
        exact = (int(high.sum()) << 26) + int(low.sum())
        # value * 2**1074 = m * 2**(e - 53 + 1074); a negative shift only
        # happens for subnormals, whose m end in that many zero bits.
        shift = e - 53 + _SCALE_BITS
        total += exact << shift if shift >= 0 else exact >> -shift
    return total


def exact_means(columns: Any) -> List[float]:
    """``[exact_mean(row) for row in columns]`` for a 2-D array of floats
    (one row per column of scores, at least one value each), vectorized.

    >>> exact_means(np.array([[0.1] * 10, [1e100, 1.0, -1e100] + [0.0] * 7]))
    [0.1, 0.1]
    """
    matrix = np.asarray(columns, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[1] == 0:
        raise ValueError(f"exact_means needs a 2-D array with at least one value "
                         f"per row, got shape {matrix.shape}")
    denominator = matrix.shape[1] << _SCALE_BITS
    return [_fixed_sum(row) / denominator for row in matrix]


_result_classes: Dict[Tuple[str, ...], Any] = {Score._fields: Score}


def _result_class(fields: Optional[Tuple[str, ...]]) -> Any:
    """The namedtuple for means with these fields: ``Score`` for rouge-score's
    fields, else a namedtuple named ``Mean``; plain tuples when unnamed."""
    if fields is None:
        return None
    if fields not in _result_classes:
        _result_classes[fields] = collections.namedtuple("Mean", fields)
    return _result_classes[fields]


class _Sums:
    """Count and exact scaled sums of one score type."""

    __slots__ = ("count", "fields", "sums")

    def __init__(self, count: int, fields: Optional[Tuple[str, ...]], sums: List[int]):
        self.count = count
        self.fields = fields
        self.sums = sums

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _Sums) and self.count == other.count
                and self.fields == other.fields and self.sums == other.sums)

    def __getstate__(self):
        return (self.count, self.fields, self.sums)

    def __setstate__(self, state):
        self.count, self.fields, self.sums = state


def _fields_of(score: Any) -> Optional[Tuple[str, ...]]:
    fields = getattr(type(score), "_fields", None)
    return tuple(fields) if fields is not None else None


class MeanAggregator:
    """Exact, mergeable means of per-item scores, per score type and field.

    ``add_scores`` takes what ``RougeScorer.score`` returns: a dict of score
    type -> ``Score`` (any namedtuple or sequence of numbers works; each type
    keeps the length and field names of its first score). ``result()``
    returns score type -> ``Score`` of the means (a namedtuple with the input's
    field names for other namedtuples, a tuple for plain sequences).

    Guarantee: each mean is the float nearest the exact mean of the added
    values (``float(sum(map(Fraction, values)) / n)``), so any split of the
    items into merged partial aggregators gives results equal with ``==`` to
    aggregating all items at once. Values must be finite.

    Types may have different counts (a dict need not have every type); each
    type's mean is over the items that had it.

    >>> agg = MeanAggregator()
    >>> agg.add_scores({"rouge1": Score(1.0, 0.5, 2 / 3)})
    >>> agg.add_scores({"rouge1": Score(0.0, 0.0, 0.0)})
    >>> agg.result()
    {'rouge1': Score(precision=0.5, recall=0.25, fmeasure=0.3333333333333333)}
    >>> agg.counts()
    {'rouge1': 2}
    >>> sum([agg, agg]).counts()  # sum() starts from 0, which is allowed
    {'rouge1': 4}
    """

    def __init__(self) -> None:
        self._types: Dict[Any, _Sums] = {}

    # -- adding ---------------------------------------------------------------

    def add_scores(self, scores: Mapping[Any, Sequence[float]]) -> None:
        """Adds one item's scores: a dict of score type -> Score."""
        # Converted first, so a bad value leaves the aggregator unchanged.
        converted = [(key, score, [_fixed(v) for v in score])
                     for key, score in scores.items()]
        for key, score, values in converted:
            self._check(key, len(values), _fields_of(score))
        for key, score, values in converted:
            entry = self._types.get(key)
            if entry is None:
                self._types[key] = _Sums(1, _fields_of(score), values)
            else:
                entry.count += 1
                entry.sums = [a + b for a, b in zip(entry.sums, values)]

    def add_columns(self, columns: Mapping[Any, Any],
                    fields: Optional[Sequence[str]] = Score._fields) -> None:
        """Adds n items given as columns: per score type, one 1-D array of n
        numbers per field (``fields``: rouge-score's precision, recall,
        fmeasure unless told otherwise; None for unnamed). The same as
        ``add_scores`` of each row, vectorized with numpy. Empty columns
        add nothing."""
        names = tuple(fields) if fields is not None else None
        converted = []
        for key, arrays in columns.items():
            arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
            lengths = {a.shape for a in arrays}
            if len(lengths) != 1 or len(next(iter(lengths))) != 1:
                raise ValueError(f"columns of type {key!r} must be 1-D arrays of one "
                                 f"length, got shapes {[a.shape for a in arrays]}")
            if names is not None and len(names) != len(arrays):
                raise ValueError(f"type {key!r} has {len(arrays)} columns but "
                                 f"{len(names)} fields")
            if len(arrays[0]):
                converted.append((key, len(arrays[0]), [_fixed_sum(a) for a in arrays]))
        for key, _, sums in converted:
            self._check(key, len(sums), names)
        for key, count, sums in converted:
            self.merge(_single(key, _Sums(count, names, sums)))

    def add_many(self, score_dicts: Iterable[Mapping[Any, Sequence[float]]]) -> None:
        """``add_scores`` for each dict, e.g. ``RougeScorer.score_batch``'s list."""
        for scores in score_dicts:
            self.add_scores(scores)

    def _check(self, key: Any, length: int, fields: Optional[Tuple[str, ...]]) -> None:
        entry = self._types.get(key)
        if entry is None:
            return
        if length != len(entry.sums) or (fields is not None and entry.fields is not None
                                         and fields != entry.fields):
            raise ValueError(
                f"scores of type {key!r} have fields {fields or length!r}, but "
                f"earlier ones have {entry.fields or len(entry.sums)!r}")

    # -- merging --------------------------------------------------------------

    def merge(self, other: "MeanAggregator") -> "MeanAggregator":
        """Adds ``other``'s items to this aggregator (``other`` is unchanged);
        returns self. Types new to self come after its own, in other's order."""
        if not isinstance(other, MeanAggregator):
            raise TypeError(f"can only merge a MeanAggregator, not {type(other).__name__}")
        for key, entry in other._types.items():
            self._check(key, len(entry.sums), entry.fields)
        for key, entry in other._types.items():
            mine = self._types.get(key)
            if mine is None:
                self._types[key] = _Sums(entry.count, entry.fields, list(entry.sums))
            else:
                mine.count += entry.count
                mine.sums = [a + b for a, b in zip(mine.sums, entry.sums)]
                if mine.fields is None:
                    mine.fields = entry.fields
        return self

    def copy(self) -> "MeanAggregator":
        """An independent copy."""
        return copy.deepcopy(self)

    def __add__(self, other: "MeanAggregator") -> "MeanAggregator":
        if not isinstance(other, MeanAggregator):
            return NotImplemented
        return self.copy().merge(other)

    def __radd__(self, other: Any) -> "MeanAggregator":
        # sum(aggregators) starts from the int 0.
        if isinstance(other, int) and other == 0:
            return self.copy()
        return NotImplemented

    def __iadd__(self, other: "MeanAggregator") -> "MeanAggregator":
        if not isinstance(other, MeanAggregator):
            return NotImplemented
        return self.merge(other)

    # -- results --------------------------------------------------------------

    def counts(self) -> Dict[Any, int]:
        """Score type -> number of items added with that type."""
        return {key: entry.count for key, entry in self._types.items()}

    def result(self) -> Dict[Any, Any]:
        """Score type -> Score of the means; {} when nothing was added."""
        out = {}
        for key, entry in self._types.items():
            denominator = entry.count << _SCALE_BITS
            # int / int is correctly rounded in Python, however large the ints.
            means = [total / denominator for total in entry.sums]
            cls = _result_class(entry.fields)
            out[key] = cls(*means) if cls is not None else tuple(means)
        return out

    # -- transport ------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-compatible dict (score types must then be str) holding the
        exact state; ``from_dict`` rebuilds an equal aggregator."""
        return {
            "format": _FORMAT,
            "version": _VERSION,
            "scale_bits": _SCALE_BITS,
            "types": [
                {"type": key, "count": entry.count,
                 "fields": list(entry.fields) if entry.fields is not None else None,
                 # hex: exact, and not subject to int/str digit limits
                 "sums": [hex(total) for total in entry.sums]}
                for key, entry in self._types.items()
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MeanAggregator":
        """The aggregator that ``to_dict`` described."""
        if data.get("format") != _FORMAT or data.get("version") != _VERSION \
                or data.get("scale_bits") != _SCALE_BITS:
            raise ValueError(f"not a {_FORMAT} version {_VERSION} dict")
        agg = cls()
        for item in data["types"]:
            count = item["count"]
            if not isinstance(count, int) or count < 1:
                raise ValueError(f"invalid count {count!r} for type {item['type']!r}")
            fields = tuple(item["fields"]) if item["fields"] is not None else None
            sums = [int(total, 16) for total in item["sums"]]
            if fields is not None and len(fields) != len(sums):
                raise ValueError(f"type {item['type']!r}: {len(fields)} fields "
                                 f"but {len(sums)} sums")
            agg.merge(_single(item["type"], _Sums(count, fields, sums)))
        return agg

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MeanAggregator):
            return NotImplemented
        return self._types == other._types

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable

    def __repr__(self) -> str:
        return f"MeanAggregator(counts={self.counts()!r})"


def _single(key: Any, entry: _Sums) -> MeanAggregator:
    agg = MeanAggregator()
    agg._types[key] = entry
    return agg
