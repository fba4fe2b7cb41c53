"""rougekit.scoring matches rouge_score.scoring: fmeasure, the Score and
AggregateScore namedtuples, BaseScorer, and BootstrapAggregator (same numbers
after the same np.random.seed, same argument validation).
"""
import collections
import inspect
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer
from rouge_score import scoring as ref_scoring

from _helpers import examples, same_number
from rougekit import rouge_scorer as kit_rouge_scorer
from rougekit import scoring as kit_scoring

# ---------------------------------------------------------------------------
# fmeasure
# ---------------------------------------------------------------------------

TINY = 5e-324          # smallest subnormal
SUBNORMAL = 2.2250738585072009e-308  # largest subnormal
FMEASURE_PAIRS = [
    (0, 0), (0.0, 0.0), (0, 1), (1, 0), (1, 1), (1.0, 1.0), (0.5, 0.5),
    (0.5, 1.0), (1.0, 0.5), (1 / 3, 2 / 3), (0.1, 0.2), (0.2, 0.1),
    (2 / 7, 5 / 11), (0.9999999999999999, 1e-16), (1e-300, 1e-300),
    (TINY, 0.0), (TINY, TINY), (TINY, 1.0), (SUBNORMAL, SUBNORMAL),
    (SUBNORMAL, 0.5), (1e-308, 1e-8), (0.0, TINY), (-0.0, 0.0),
    (0.6666666666666666, 0.3333333333333333),
    (True, True), (True, False),  # bools are ints
    (3, 4), (-1, 1), (-0.5, 1.0),  # outside [0, 1]: rouge-score does not check
    (1e308, 1e308),  # overflow -> nan in rouge-score
]


def _ids(pair):
    return "%r-%r" % pair


@pytest.mark.parametrize("precision,recall", FMEASURE_PAIRS,
                         ids=[_ids(p) for p in FMEASURE_PAIRS])
def test_fmeasure_pairs(precision, recall):
    ours = kit_scoring.fmeasure(precision, recall)
    theirs = ref_scoring.fmeasure(precision, recall)
    assert same_number(ours, theirs), "fmeasure(%r, %r): %r (%s) vs %r (%s)" % (
        precision, recall, ours, type(ours), theirs, type(theirs))


@pytest.mark.parametrize("precision,recall", [
    pytest.param(np.float64(0.25), np.float64(0.5), id="float64"),
    pytest.param(np.float64(0.0), np.float64(0.0), id="float64-zero"),
    pytest.param(np.float32(0.25), np.float32(0.5), id="float32"),
    pytest.param(np.int64(1), np.int64(3), id="int64"),
    pytest.param(Fraction(1, 3), Fraction(1, 2), id="fraction"),
    pytest.param(Fraction(0), Fraction(0), id="fraction-zero"),
])
def test_fmeasure_other_number_types(precision, recall):
    # rouge-score is plain Python arithmetic, so the result keeps the input's
    # type (np.float64 from aggregated scores, Fraction stays exact)
    ours = kit_scoring.fmeasure(precision, recall)
    theirs = ref_scoring.fmeasure(precision, recall)
    assert same_number(ours, theirs), "%r (%s) vs %r (%s)" % (
        ours, type(ours), theirs, type(theirs))


@settings(max_examples=examples(2000), deadline=None)
@given(precision=st.floats(0, 1), recall=st.floats(0, 1))
def test_property_fmeasure_unit_interval(precision, recall):
    ours = kit_scoring.fmeasure(precision, recall)
    theirs = ref_scoring.fmeasure(precision, recall)
    assert same_number(ours, theirs)


@settings(max_examples=examples(1000), deadline=None)
@given(precision=st.floats(allow_nan=False), recall=st.floats(allow_nan=False))
def test_property_fmeasure_any_float(precision, recall):
    ours = kit_scoring.fmeasure(precision, recall)
    theirs = ref_scoring.fmeasure(precision, recall)
    assert same_number(ours, theirs)


@settings(max_examples=examples(500), deadline=None)
@given(hits=st.integers(0, 5000), n_pred=st.integers(1, 5000), n_ref=st.integers(1, 5000))
def test_property_fmeasure_from_counts(hits, n_pred, n_ref):
    # the ratios rouge actually produces
    precision, recall = hits / n_pred, hits / n_ref
    assert same_number(kit_scoring.fmeasure(precision, recall),
                       ref_scoring.fmeasure(precision, recall))


# ---------------------------------------------------------------------------
# Score, AggregateScore, BaseScorer
# ---------------------------------------------------------------------------


def test_score_is_namedtuple():
    Score = kit_scoring.Score
    assert issubclass(Score, tuple)
    assert Score._fields == ("precision", "recall", "fmeasure")
    s = Score(precision=0.5, recall=0.25, fmeasure=1 / 3)
    assert (s.precision, s.recall, s.fmeasure) == (0.5, 0.25, 1 / 3)
    assert s == (0.5, 0.25, 1 / 3)
    assert s == ref_scoring.Score(0.5, 0.25, 1 / 3)
    assert Score(1, 2, 3)._replace(recall=5) == (1, 5, 3)
    assert repr(s) == repr(ref_scoring.Score(0.5, 0.25, 1 / 3))
    assert repr(Score(0, 0, 0)) == "Score(precision=0, recall=0, fmeasure=0)"
    assert Score.__name__ == "Score"
    with pytest.raises(TypeError):
        Score(1, 2)


def test_aggregate_score_is_namedtuple():
    AggregateScore = kit_scoring.AggregateScore
    assert issubclass(AggregateScore, tuple)
    assert AggregateScore._fields == ("low", "mid", "high")
    a = AggregateScore(low=1, mid=2, high=3)
    assert (a.low, a.mid, a.high) == (1, 2, 3)
    assert repr(a) == repr(ref_scoring.AggregateScore(1, 2, 3))
    assert AggregateScore.__name__ == "AggregateScore"


def test_base_scorer_is_abstract():
    BaseScorer = kit_scoring.BaseScorer
    assert inspect.isabstract(BaseScorer)
    assert "score" in BaseScorer.__abstractmethods__
    with pytest.raises(TypeError):
        BaseScorer()
    assert issubclass(kit_rouge_scorer.RougeScorer, BaseScorer)

    class Constant(BaseScorer):
        def score(self, target, prediction):
            return {"x": kit_scoring.Score(1, 1, 1)}

    assert Constant().score("a", "b") == {"x": (1, 1, 1)}


# ---------------------------------------------------------------------------
# BootstrapAggregator
# ---------------------------------------------------------------------------

SCORE_TEXTS = [
    ("the cat sat on the mat", "the cat sat"),
    ("the dog\nran home", "a dog ran\nhome"),
    ("", "the cat"),  # int zeros for rougeL/rougeLsum
    ("one two three four", "four three two one"),
    ("a b c\nd e f", "a c e\nb d f"),
    ("news today", "news yesterday and today"),
    ("x", "x"),
]
AGG_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _ref_score_dicts():
    scorer = ref_rouge_scorer.RougeScorer(AGG_TYPES)
    return [scorer.score(t, p) for t, p in SCORE_TEXTS]


def _kit_score_dicts():
    scorer = kit_rouge_scorer.RougeScorer(AGG_TYPES)
    return [scorer.score(t, p) for t, p in SCORE_TEXTS]


def _aggregate(module, score_dicts, seed, calls=1, **kwargs):
    aggregator = module.BootstrapAggregator(**kwargs)
    for scores in score_dicts:
        aggregator.add_scores(scores)
    np.random.seed(seed)
    return [aggregator.aggregate() for _ in range(calls)]


def assert_same_aggregate(ours, theirs, context=""):
    assert type(ours) is dict
    assert ours == theirs, "%s\nrougekit:    %r\nrouge-score: %r" % (context, ours, theirs)
    assert list(ours) == list(theirs)
    for key in theirs:
        assert isinstance(ours[key], kit_scoring.AggregateScore)
        for o, t in zip(ours[key], theirs[key]):
            assert type(o).__name__ == type(t).__name__
            assert type(o)._fields == type(t)._fields
            assert [type(x) for x in o] == [type(x) for x in t], (
                "%s %r: %r vs %r" % (context, key, o, t))


@pytest.mark.parametrize("kwargs", [
    pytest.param({}, id="defaults"),
    pytest.param(dict(confidence_interval=0.5, n_samples=10), id="ci0.5-n10"),
    pytest.param(dict(confidence_interval=0.0, n_samples=1), id="ci0-n1"),
    pytest.param(dict(confidence_interval=1.0, n_samples=7), id="ci1-n7"),
    pytest.param(dict(confidence_interval=0.9, n_samples=333), id="ci0.9-n333"),
    pytest.param(dict(confidence_interval=1, n_samples=3), id="int-ci"),
])
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_bootstrap_same_score_objects(kwargs, seed):
    # both aggregators get the very same Score objects (rouge-score's)
    dicts = _ref_score_dicts()
    ours = _aggregate(kit_scoring, dicts, seed, **kwargs)
    theirs = _aggregate(ref_scoring, dicts, seed, **kwargs)
    assert_same_aggregate(ours[0], theirs[0], "kwargs=%r seed=%r" % (kwargs, seed))
    for key in theirs[0]:  # the Score class of the inputs is reused
        assert type(ours[0][key].mid) is ref_scoring.Score


@pytest.mark.parametrize("seed", [0, 7])
def test_bootstrap_each_library_own_scores(seed):
    ours = _aggregate(kit_scoring, _kit_score_dicts(), seed)
    theirs = _aggregate(ref_scoring, _ref_score_dicts(), seed)
    assert_same_aggregate(ours[0], theirs[0])
    for key in theirs[0]:
        assert type(ours[0][key].mid) is kit_scoring.Score


def test_bootstrap_aggregate_twice_advances_the_random_state():
    dicts = _ref_score_dicts()
    ours = _aggregate(kit_scoring, dicts, 3, calls=2, n_samples=50)
    theirs = _aggregate(ref_scoring, dicts, 3, calls=2, n_samples=50)
    assert_same_aggregate(ours[0], theirs[0])
    assert_same_aggregate(ours[1], theirs[1])


def test_bootstrap_uneven_score_types():
    # types with different numbers of samples, added in different orders:
    # the random draws are consumed type by type, in first-seen order
    dicts = [
        {"rouge2": ref_scoring.Score(0.1, 0.2, 0.3)},
        {"rouge1": ref_scoring.Score(0.5, 0.5, 0.5), "rouge2": ref_scoring.Score(0, 0, 0)},
        {"rouge1": ref_scoring.Score(1.0, 0.25, 0.4)},
        {"rougeL": ref_scoring.Score(0, 0, 0)},
        {"rouge1": ref_scoring.Score(0.75, 0.5, 0.6), "rougeL": ref_scoring.Score(1, 1, 1)},
    ]
    ours = _aggregate(kit_scoring, dicts, 11, n_samples=100)
    theirs = _aggregate(ref_scoring, dicts, 11, n_samples=100)
    assert_same_aggregate(ours[0], theirs[0])


def test_bootstrap_custom_namedtuple_scores():
    Pair = collections.namedtuple("Pair", ["a", "b"])
    dicts = [{"m": Pair(0.1 * i, 1 - 0.1 * i)} for i in range(8)]
    ours = _aggregate(kit_scoring, dicts, 5, n_samples=64)
    theirs = _aggregate(ref_scoring, dicts, 5, n_samples=64)
    assert_same_aggregate(ours[0], theirs[0])
    assert type(ours[0]["m"].low) is Pair


def test_bootstrap_single_sample_and_empty():
    dicts = [{"rouge1": ref_scoring.Score(0.3, 0.6, 0.4)}]
    assert_same_aggregate(_aggregate(kit_scoring, dicts, 2)[0],
                          _aggregate(ref_scoring, dicts, 2)[0])
    assert_same_aggregate(_aggregate(kit_scoring, [], 2)[0],
                          _aggregate(ref_scoring, [], 2)[0])


def test_bootstrap_on_corpus_scores(corpus_pairs):
    pairs = corpus_pairs(2000, 13)[:150]
    scorer = ref_rouge_scorer.RougeScorer(AGG_TYPES)
    dicts = [scorer.score(p["references"][0], p["candidate"]) for p in pairs]
    ours = _aggregate(kit_scoring, dicts, 2024)
    theirs = _aggregate(ref_scoring, dicts, 2024)
    assert_same_aggregate(ours[0], theirs[0])


@pytest.mark.parametrize("kwargs", [
    pytest.param(dict(confidence_interval=-0.01), id="ci-negative"),
    pytest.param(dict(confidence_interval=1.01), id="ci-above-one"),
    pytest.param(dict(confidence_interval=95), id="ci-percent"),
    pytest.param(dict(confidence_interval=-np.inf), id="ci-minus-inf"),
    pytest.param(dict(n_samples=0), id="n-zero"),
    pytest.param(dict(n_samples=-5), id="n-negative"),
    pytest.param(dict(confidence_interval=2, n_samples=0), id="both-bad"),
])
def test_bootstrap_invalid_arguments_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        ref_scoring.BootstrapAggregator(**kwargs)
    with pytest.raises(ValueError):
        kit_scoring.BootstrapAggregator(**kwargs)


@pytest.mark.parametrize("args", [
    pytest.param((0, 1), id="ci0-n1"), pytest.param((1, 1), id="ci1-n1"),
    pytest.param((0.95,), id="positional-ci"), pytest.param((0.5, 2), id="positional"),
])
def test_bootstrap_boundary_arguments_are_accepted(args):
    ref_scoring.BootstrapAggregator(*args)
    kit_scoring.BootstrapAggregator(*args)
