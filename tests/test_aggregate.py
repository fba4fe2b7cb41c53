"""rougekit.aggregate.MeanAggregator: partial results merge into exact corpus means.

The guarantee under test: each mean equals ``float(sum(map(Fraction, values))
/ n)`` (the float nearest the exact mean), so any split of the items into
partial aggregators, merged in any order, equals aggregating everything at
once, with ``==``; and the partial state survives pickle and JSON.

(BootstrapAggregator's parity with rouge-score under the same numpy seed is
tested in test_parity_scoring.py.)
"""
import collections
import functools
import json
import multiprocessing
import operator
import pickle
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _helpers import examples
from rougekit import aggregate, rouge_scorer, scoring
from rougekit.aggregate import MeanAggregator
from rougekit.scoring import Score

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def exact_means(score_dicts):
    """The reference: per type, the correctly rounded exact mean of each field."""
    columns = {}
    for scores in score_dicts:
        for key, score in scores.items():
            columns.setdefault(key, []).append(score)
    return {key: tuple(float(sum(map(Fraction, map(float, col))) / len(rows))
                       for col in zip(*rows))
            for key, rows in columns.items()}


def aggregate_all(score_dicts):
    agg = MeanAggregator()
    for scores in score_dicts:
        agg.add_scores(scores)
    return agg


def round_trips(agg):
    """The aggregator after pickle, and after to_dict -> JSON -> from_dict."""
    return [pickle.loads(pickle.dumps(agg)),
            MeanAggregator.from_dict(json.loads(json.dumps(agg.to_dict())))]


# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

UNIT = st.floats(0.0, 1.0)  # what ROUGE produces
ANY_FINITE = st.floats(allow_nan=False, allow_infinity=False)  # subnormals, 1e308, ...
TINY_OR_HUGE = st.sampled_from([5e-324, 1e-310, 2.2250738585072014e-308, 1e16, -1e16,
                                1.0, 0.1, 1e308, -1e308, 0.0, -0.0])


def score_dicts(values):
    score = st.builds(Score, values, values, values)
    return st.lists(
        st.dictionaries(st.sampled_from(TYPES), score, min_size=1, max_size=4),
        min_size=1, max_size=25)


@st.composite
def split_items(draw, values):
    """(items, parts): items split into parts (any assignment, any order within
    a part), merged in a drawn order."""
    items = draw(score_dicts(values))
    k = draw(st.integers(1, 5))
    owners = draw(st.lists(st.integers(0, k - 1), min_size=len(items), max_size=len(items)))
    parts = [[items[i] for i in range(len(items)) if owners[i] == p] for p in range(k)]
    parts = [draw(st.permutations(part)) for part in parts]
    parts = draw(st.permutations(parts))
    return items, parts


VALUE_STRATEGIES = [pytest.param(UNIT, id="unit"), pytest.param(ANY_FINITE, id="finite"),
                    pytest.param(st.one_of(TINY_OR_HUGE, UNIT), id="cancelling")]


# ---------------------------------------------------------------------------
# The guarantee
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("values", VALUE_STRATEGIES)
def test_any_split_equals_all_at_once_and_the_exact_mean(values):
    @settings(max_examples=examples(150), deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(split_items(values), st.sampled_from(["merge", "add", "sum", "iadd"]))
    def check(split, how):
        items, parts = split
        whole = aggregate_all(items)
        partials = [aggregate_all(part) for part in parts]
        # partial states travel between processes as pickles or JSON
        partials = [round_trips(p)[i % 2] for i, p in enumerate(partials)]
        if how == "merge":
            merged = MeanAggregator()
            for p in partials:
                merged.merge(p)
        elif how == "add":
            merged = partials[0]
            for p in partials[1:]:
                merged = merged + p
        elif how == "sum":
            merged = sum(partials)
        else:
            merged = MeanAggregator()
            for p in partials:
                merged += p
        assert merged == whole
        assert merged.result() == whole.result() == exact_means(items)
        assert merged.counts() == whole.counts()
        for copy in round_trips(merged):
            assert copy.result() == whole.result()

    check()


def test_order_dependence_of_float_sums_does_not_leak():
    # left-to-right float sums of these depend on the order (reduce, not sum():
    # Python 3.12's sum() compensates); the exact mean does not
    values = [1.0, 1e16, -1e16]
    dicts = [{"m": (v,)} for v in values]
    assert functools.reduce(operator.add, values) == 0.0
    assert functools.reduce(operator.add, values[::-1]) == 1.0
    third = 1 / 3
    assert aggregate_all(dicts).result()["m"][0] == third
    assert aggregate_all(dicts[::-1]).result()["m"][0] == third
    assert (aggregate_all(dicts[:1]) + aggregate_all(dicts[1:])).result()["m"][0] == third


def test_real_rouge_scores_split_across_processes():
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    words = "the cat sat on a mat while dogs ran home quickly today news".split()
    pairs = [(" ".join(words[i % 7:i % 7 + 5 + i % 4]), " ".join(words[i % 5:i % 5 + 6]))
             for i in range(60)]
    whole = aggregate_all(scorer.score(t, p) for t, p in pairs)
    chunks = [pairs[0:7], pairs[7:30], pairs[30:31], pairs[31:]]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        partials = list(pool.map(_score_chunk, chunks))
        dicts = list(pool.map(_score_chunk_as_dict, chunks))
    assert sum(partials) == whole
    assert sum(MeanAggregator.from_dict(d) for d in dicts).result() == whole.result()
    assert whole.result() == exact_means([scorer.score(t, p) for t, p in pairs])
    assert list(whole.result()) == TYPES
    assert all(type(s) is Score for s in whole.result().values())


def _score_chunk(pairs):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    agg = MeanAggregator()
    agg.add_many(scorer.score_batch([t for t, _ in pairs], [p for _, p in pairs]))
    return agg


def _score_chunk_as_dict(pairs):
    return json.loads(json.dumps(_score_chunk(pairs).to_dict()))


# ---------------------------------------------------------------------------
# Behaviour
# ---------------------------------------------------------------------------

def test_empty_and_counts():
    agg = MeanAggregator()
    assert agg.result() == {} and agg.counts() == {}
    assert agg == MeanAggregator.from_dict(agg.to_dict())
    agg.add_scores({"rouge1": Score(1, 0, 0)})  # rouge-score's int zeros
    agg.add_scores({"rouge2": Score(0.5, 0.5, 0.5), "rouge1": Score(0.0, 1.0, 0.0)})
    assert agg.counts() == {"rouge1": 2, "rouge2": 1}
    assert agg.result() == {"rouge1": Score(0.5, 0.5, 0.0), "rouge2": Score(0.5, 0.5, 0.5)}
    assert all(type(x) is float for s in agg.result().values() for x in s)
    assert repr(agg) == "MeanAggregator(counts={'rouge1': 2, 'rouge2': 1})"


def test_merge_leaves_other_unchanged_and_add_makes_a_new_one():
    a = aggregate_all([{"rouge1": Score(1.0, 1.0, 1.0)}])
    b = aggregate_all([{"rouge1": Score(0.0, 0.0, 0.0)}, {"rougeL": Score(1, 1, 1)}])
    b_before = b.copy()
    c = a + b
    assert a.counts() == {"rouge1": 1} and b == b_before
    assert c.counts() == {"rouge1": 2, "rougeL": 1}
    assert a.merge(b) is a and a == c and b == b_before
    a.merge(a)  # merging with itself doubles everything
    assert a.counts() == {"rouge1": 4, "rougeL": 2} and a.result() == c.result()


def test_rouge_score_scores_and_other_namedtuples():
    from rouge_score import scoring as ref_scoring
    agg = aggregate_all([{"r": ref_scoring.Score(0.25, 0.5, 0.75)}])
    assert agg.result() == {"r": Score(0.25, 0.5, 0.75)}
    Pair = collections.namedtuple("Pair", ["a", "b"])
    agg = aggregate_all([{"m": Pair(1.0, 2.0)}, {"m": Pair(2.0, 4.0)}])
    mean = agg.result()["m"]
    assert mean == (1.5, 3.0) and mean._fields == ("a", "b")
    assert MeanAggregator.from_dict(agg.to_dict()).result()["m"]._fields == ("a", "b")
    plain = aggregate_all([{"x": [1.0]}, {"x": (2.0,)}])
    assert plain.result() == {"x": (1.5,)} and type(plain.result()["x"]) is tuple


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), "0.5x"])
def test_non_finite_or_non_numbers_raise_and_change_nothing(bad):
    agg = aggregate_all([{"rouge1": Score(1.0, 1.0, 1.0)}])
    before = agg.copy()
    with pytest.raises(ValueError):
        agg.add_scores({"rouge2": Score(0.5, 0.5, 0.5), "rouge1": Score(0.5, bad, 0.5)})
    assert agg == before


def test_mismatched_fields_raise():
    agg = aggregate_all([{"m": Score(1.0, 1.0, 1.0)}])
    with pytest.raises(ValueError, match="fields"):
        agg.add_scores({"m": (1.0, 2.0)})
    Other = collections.namedtuple("Other", ["x", "y", "z"])
    with pytest.raises(ValueError, match="fields"):
        agg.add_scores({"m": Other(1.0, 1.0, 1.0)})
    with pytest.raises(ValueError, match="fields"):
        agg.merge(aggregate_all([{"m": (1.0,)}]))
    assert agg.counts() == {"m": 1}


def test_merge_type_errors():
    agg = MeanAggregator()
    with pytest.raises(TypeError):
        agg.merge({"rouge1": Score(1, 1, 1)})
    with pytest.raises(TypeError):
        agg + 1
    with pytest.raises(TypeError):
        1 + agg


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(format="other"),
    lambda d: d.update(version=99),
    lambda d: d.update(scale_bits=52),
    lambda d: d["types"][0].update(count=0),
    lambda d: d["types"][0].update(sums=["0x1"]),
])
def test_from_dict_rejects_bad_input(mutate):
    data = aggregate_all([{"rouge1": Score(1.0, 0.5, 0.25)}]).to_dict()
    mutate(data)
    with pytest.raises(ValueError):
        MeanAggregator.from_dict(data)



def test_agrees_with_fsum_on_typical_data():
    # not guaranteed bit-for-bit (fsum / n rounds twice) but within one ulp
    import math
    values = [i / 7 for i in range(1, 200)]
    mean = aggregate_all({"m": (v,)} for v in values).result()["m"][0]
    assert abs(mean - math.fsum(values) / len(values)) <= math.ulp(mean)
    assert scoring.Score is Score


# ---------------------------------------------------------------------------
# Columns: add_columns and exact_means, vectorized with numpy
# ---------------------------------------------------------------------------

ANY_FINITE = st.floats(allow_nan=False, allow_infinity=False)   # subnormals, +-huge


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.one_of(ANY_FINITE, UNIT, st.sampled_from([0.0, -0.0, 5e-324, -5e-324,
                                                             2.2250738585072014e-308,
                                                             1.7976931348623157e308])),
                min_size=1, max_size=40))
def test_exact_means_is_the_correctly_rounded_mean(values):
    import numpy as np
    few = aggregate._FEW
    try:
        for aggregate._FEW in (0, few):     # the vectorized sum, then the plain one
            assert aggregate._fixed_sum(np.array(values)) == sum(map(aggregate._fixed, values))
    finally:
        aggregate._FEW = few
    assert aggregate.exact_means(np.array([values, values[::-1]])) == \
        [float(sum(map(Fraction, values)) / len(values))] * 2


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(UNIT, UNIT, UNIT), min_size=0, max_size=30), st.integers(0, 30))
def test_add_columns_equals_adding_the_rows(rows, cut):
    import numpy as np
    by_rows = aggregate_all([{"rouge1": Score(*r)} for r in rows])
    by_columns = MeanAggregator()
    part = np.array(rows, dtype=float).reshape(len(rows), 3).T
    by_columns.add_columns({"rouge1": part[:, :cut]})
    by_columns.add_columns({"rouge1": list(part[:, cut:])})
    assert by_columns == by_rows
    assert by_columns.result() == by_rows.result()
    if rows:
        assert type(by_columns.result()["rouge1"]) is Score


def test_add_columns_unnamed_fields_and_errors():
    import numpy as np
    agg = MeanAggregator()
    agg.add_columns({"x": [np.array([1.0, 2.0])]}, fields=None)
    assert agg.result() == {"x": (1.5,)}
    before = agg.to_dict()
    with pytest.raises(ValueError, match="finite"):
        agg.add_columns({"x": [np.array([1.0, float("nan")])]}, fields=None)
    with pytest.raises(ValueError, match="one length"):
        agg.add_columns({"y": [np.zeros(2), np.zeros(3), np.zeros(2)]})
    with pytest.raises(ValueError, match="2 columns but 3 fields"):
        agg.add_columns({"y": [np.zeros(2), np.zeros(2)]})
    with pytest.raises(ValueError, match="fields"):
        agg.add_columns({"x": [np.zeros(2), np.zeros(2), np.zeros(2)]})
    assert agg.to_dict() == before                  # unchanged by the failures


def test_exact_means_needs_values():
    import numpy as np
    with pytest.raises(ValueError, match="at least one value"):
        aggregate.exact_means(np.zeros((2, 0)))
