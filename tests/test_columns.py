"""RougeScorer.score_columns: one float64 array per rouge type and measure,
each element equal with == to rouge-score's score() of that pair (0.0 where
rouge-score gives the int 0), on both backends; and Engine.score_into, the
kernel method that writes them."""
import random

import numpy as np
import pytest

from _helpers import ALL_TYPES, scorers
from rougekit import _backend, rouge_scorer
from rougekit.rouge_scorer import MEASURES

pytestmark = [pytest.mark.backend, pytest.mark.kernel, pytest.mark.threads]

EDGE = ["", " ", "...", "!!! ??", "a", "a a a a", "the the cat the", "A\nB\n\nC",
        "caf\u00e9 na\u00efve r\u00e9sum\u00e9", "\u4e2d\u6587 text", "x" * 300,
        "The cats were running.\nThey ran fast!", "1 2 3 4 5 6", "running runs ran"]
WORDS = ("running runs ran runner the a of cat cats dog ponies caresses agreed "
         "generalization jumped happily").split()


def random_texts(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randrange(0, 30))]
        text = " ".join(words)
        if rng.random() < 0.3:
            text = text.replace(" the ", ".\nThe ", 1)
        if rng.random() < 0.1:
            text += " \u00e9t\u00e9"
        out.append(text)
    return out


def pairs():
    edge = [(t, p) for t in EDGE for p in EDGE[::3]]
    rand = list(zip(random_texts(300, 1), random_texts(300, 2)))
    return edge + rand


def as_float(value):
    # rouge-score's int 0 (empty rougeL/rougeLsum) is 0.0 in a float array.
    return float(value)


def expected_columns(reference, types, targets, predictions):
    scores = [reference.score(t, p) for t, p in zip(targets, predictions)]
    return {f"{t}_{m}": [as_float(getattr(s[t], m)) for s in scores]
            for t in types for m in MEASURES}


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
@pytest.mark.parametrize("types", [ALL_TYPES, ["rougeLsum"], ["rougeL", "rouge2"]],
                         ids=["all", "lsum-only", "l-2"])
def test_equal_to_rouge_score(types, use_stemmer):
    kit, reference = scorers(types, use_stemmer=use_stemmer)
    targets, predictions = map(list, zip(*pairs()))
    got = kit.score_columns(targets, predictions, threads=2)
    want = expected_columns(reference, types, targets, predictions)
    assert list(got) == list(want)
    for key, values in got.items():
        assert values.dtype == np.float64 and values.shape == (len(targets),)
        assert values.tolist() == want[key], key


def test_every_element_equals_score_and_is_a_float():
    kit = rouge_scorer.RougeScorer(["rouge1", "rougeL", "rougeLsum"])
    targets, predictions = ["", "a b", "..."], ["x", "", "a"]
    got = kit.score_columns(targets, predictions)
    for i, (t, p) in enumerate(zip(targets, predictions)):
        for rouge_type, score in kit.score(t, p).items():
            for m in MEASURES:
                value = got[f"{rouge_type}_{m}"][i]
                assert value == getattr(score, m) and type(value.item()) is float


@pytest.mark.parametrize("threads", [1, 2, 5])
def test_threads_do_not_change_the_floats(threads):
    kit = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"],
                                   use_stemmer=True)
    targets, predictions = random_texts(3000, 3), random_texts(3000, 4)
    serial = kit.score_columns(targets, predictions, threads=1)
    got = kit.score_columns(targets, predictions, threads=threads)
    assert all(np.array_equal(got[k], serial[k]) for k in serial)
    batch = kit.score_batch(targets, predictions, threads=threads)
    assert got["rougeLsum_fmeasure"].tolist() == [float(s["rougeLsum"].fmeasure) for s in batch]


def test_columns_are_rows_of_one_contiguous_array():
    got = rouge_scorer.RougeScorer(["rouge1", "rougeL"]).score_columns(["a b"] * 4, ["a"] * 4)
    base = got["rouge1_precision"].base
    assert base is not None and base.shape == (6, 4) and base.flags.c_contiguous
    assert all(v.base is base and v.flags.c_contiguous for v in got.values())


def test_bytes_and_mixed_pairs_take_the_python_path():
    kit, reference = scorers(["rouge1", "rougeL"])
    targets = [b"the cat", "the cat", b"", "a b c"]
    predictions = ["the dog", b"a cat", "x", "a c"]
    got = kit.score_columns(targets, predictions)
    want = expected_columns(reference, ["rouge1", "rougeL"],
                            [t.decode() if isinstance(t, bytes) else t for t in targets],
                            [p.decode() if isinstance(p, bytes) else p for p in predictions])
    assert {k: v.tolist() for k, v in got.items()} == want


class SplitTokenizer:
    def tokenize(self, text):
        return text.split()


def test_custom_tokenizer_scores_every_pair_through_score():
    kit = rouge_scorer.RougeScorer(["rouge1", "rougeL", "rougeLsum"], tokenizer=SplitTokenizer())
    targets = ["The Cat sat", "", "a b\nc d"]
    predictions = ["the Cat", "x y", "c d a b"]
    got = kit.score_columns(targets, predictions)
    for i, (t, p) in enumerate(zip(targets, predictions)):
        for rouge_type, score in kit.score(t, p).items():
            assert [got[f"{rouge_type}_{m}"][i] for m in MEASURES] == list(score)


def test_no_pairs_give_empty_arrays():
    got = rouge_scorer.RougeScorer(["rouge1"]).score_columns([], [])
    assert list(got) == ["rouge1_precision", "rouge1_recall", "rouge1_fmeasure"]
    assert all(v.shape == (0,) and v.dtype == np.float64 for v in got.values())


def test_repeated_rouge_types_give_one_key_each():
    got = rouge_scorer.RougeScorer(["rouge1", "rouge1"]).score_columns(["a b"], ["a"])
    assert list(got) == ["rouge1_precision", "rouge1_recall", "rouge1_fmeasure"]
    assert got["rouge1_recall"].tolist() == [0.5]


@pytest.mark.parametrize("call,error,fragment", [
    (lambda s: s.score_columns(["a"], ["a", "b"]), ValueError, "differ in length: 1 and 2"),
    (lambda s: s.score_columns("a", ["a"]), TypeError, "targets must be a list"),
    (lambda s: s.score_columns(["a"], [None]), TypeError, "prediction must be str or bytes"),
    (lambda s: s.score_columns(["a"], ["a"], threads=0), ValueError, "threads must be >= 1"),
    (lambda s: rouge_scorer.RougeScorer(["rougeX"]).score_columns([], []), ValueError,
     "Invalid rouge type"),
])
def test_errors_name_the_argument(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call(rouge_scorer.RougeScorer(["rouge1"]))


# --- Engine.score_into, on the backend under test ---------------------------------------

def engine(kinds=(1, -1), keys=("rouge1", "rougeL")):
    from rougekit.scoring import Score
    fallback = rouge_scorer.RougeScorer(list(keys))._score_python
    return _backend.engine.Engine(list(kinds), False, list(keys), Score, fallback)


def test_score_into_writes_only_its_range():
    out = np.full((6, 5), -1.0)
    done = engine().score_into(["x", "a b", "a", "", "y"], ["x", "a", "a b", "z", "y"], 1, 4,
                               out, _backend.engine.Cancel())
    assert done is True
    assert out[:, 0].tolist() == [-1.0] * 6 and out[:, 4].tolist() == [-1.0] * 6
    assert out[:, 1].tolist() == [1.0, 0.5, 2 / 3, 1.0, 0.5, 2 / 3]
    assert out[:, 3].tolist() == [0.0] * 6        # rougeL's int zeros as 0.0


def test_score_into_calls_the_fallback_for_other_pairs():
    out = np.zeros((6, 2))
    engine().score_into([b"a b", "a"], ["a", b"a"], 0, 2, out, _backend.engine.Cancel())
    assert out[:, 0].tolist() == [1.0, 0.5, 2 / 3, 1.0, 0.5, 2 / 3]
    assert out[:, 1].tolist() == [1.0] * 6


def test_score_into_stops_when_cancelled():
    cancel = _backend.engine.Cancel()
    cancel.set()
    out = np.full((6, 3), 7.0)
    assert engine().score_into(["a"] * 3, ["a"] * 3, 0, 3, out, cancel) is False
    assert (out == 7.0).all()


@pytest.mark.parametrize("out,lo,hi,fragment", [
    (np.zeros((5, 3)), 0, 3, "needs 6 rows"),
    (np.zeros((6, 2)), 0, 3, "at least 3 columns"),
    (np.zeros((6, 3)), 2, 1, "not a range of pairs"),
    (np.zeros((6, 3)), 0, 4, "not a range of pairs"),
    (np.zeros((6, 3)), -1, 2, "not a range of pairs"),
])
def test_score_into_checks_its_bounds(out, lo, hi, fragment):
    with pytest.raises(ValueError, match=fragment):
        engine().score_into(["a"] * 3, ["a"] * 3, lo, hi, out, _backend.engine.Cancel())


@pytest.mark.parametrize("out", [np.zeros((6, 3), dtype=np.float32),
                                 np.zeros((3, 6)).T, np.zeros(18)],
                         ids=["float32", "not-contiguous", "1-d"])
def test_score_into_needs_a_contiguous_float64_matrix(out):
    with pytest.raises((ValueError, TypeError)):
        engine().score_into(["a"] * 3, ["a"] * 3, 0, 3, out, _backend.engine.Cancel())


def test_score_into_rejects_a_read_only_buffer():
    out = np.zeros((6, 3))
    out.flags.writeable = False
    with pytest.raises((ValueError, TypeError)):
        engine().score_into(["a"] * 3, ["a"] * 3, 0, 3, out, _backend.engine.Cancel())


def test_score_into_on_a_busy_engine_raises():
    e = engine()
    assert e._hold(True)
    try:
        with pytest.raises(RuntimeError, match="in use by another thread"):
            e.score_into(["a"], ["a"], 0, 1, np.zeros((6, 1)), _backend.engine.Cancel())
    finally:
        e._hold(False)


def test_a_fallback_error_propagates_and_frees_the_engine():
    e = engine()
    with pytest.raises(TypeError):
        e.score_into(["a", None], ["a", "b"], 0, 2, np.zeros((6, 2)), _backend.engine.Cancel())
    assert e._hold(True)            # not left busy
    e._hold(False)
