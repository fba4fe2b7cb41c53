"""rougekit.hf.compute gives what Hugging Face evaluate's ``rouge`` metric gives.

evaluate itself is not installed here, so the reference is its ``_compute``
(metrics/rouge/rouge.py in huggingface/evaluate) reproduced below line for
line, calling the real rouge-score. Results are compared with ``==`` after
the same ``numpy.random.seed``, and the numpy random state afterwards is
compared too (both must consume the same draws).
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _evaluate import evaluate_compute
from _helpers import examples
from rougekit import hf


def run_both(seed, *args, **kwargs):
    """(ours, theirs) after the same global seed, ours drawing from numpy's
    global state as evaluate does (``seed="numpy-global"``); also checks the
    random state after."""
    np.random.seed(seed)
    ours = hf.compute(*args, seed="numpy-global", **kwargs)
    state_ours = np.random.get_state()
    np.random.seed(seed)
    theirs = evaluate_compute(*args, **kwargs)
    state_theirs = np.random.get_state()
    assert state_ours[0] == state_theirs[0]
    assert np.array_equal(state_ours[1], state_theirs[1])
    assert state_ours[2:] == state_theirs[2:]
    return ours, theirs


def assert_same(ours, theirs):
    assert type(ours) is dict
    assert ours == theirs, "\nrougekit: %r\nevaluate: %r" % (ours, theirs)
    assert list(ours) == list(theirs)  # same key order
    for key in theirs:
        if isinstance(theirs[key], list):
            assert type(ours[key]) is list
            assert [type(x) for x in ours[key]] == [type(x) for x in theirs[key]]
        else:
            assert type(ours[key]) is type(theirs[key])


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

PREDICTIONS = [
    "the cat sat on the mat",
    "a dog ran\nhome quickly",
    "",
    "one two three four",
    "Running runners ran; the runner runs.",
    "news today and tomorrow",
    "x",
    "The quick brown fox jumps over the lazy dog.\nIt was happy.",
]
REFERENCES = [
    "the cat was sitting on a mat",
    "the dog ran home\nquickly",
    "nothing here",
    "four three two one",
    "The runner is running",
    "today's news",
    "x",
    "A quick brown fox jumped over a lazy dog.\nThe dog was not happy.",
]
MULTI_REFERENCES = [
    ["the cat was sitting on a mat", "a cat sat on the mat", "mat"],
    ["the dog ran home\nquickly", "dog ran home"],
    ["nothing here"],
    ["four three two one", "one two three four"],  # a tie on some types
    ["The runner is running", "runners running", ""],
    ["today's news", "news today"],
    ["y", "x", "x"],
    ["A quick brown fox jumped over a lazy dog.\nThe dog was not happy.",
     "the fox\nthe dog"],
]

AGGREGATOR = [pytest.param(True, id="aggregated"), pytest.param(False, id="lists")]
STEMMER = [pytest.param(False, id="nostem"), pytest.param(True, id="stem")]
SEEDS = [0, 42]


# ---------------------------------------------------------------------------
# Parity
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("use_stemmer", STEMMER)
@pytest.mark.parametrize("use_aggregator", AGGREGATOR)
def test_single_reference(use_aggregator, use_stemmer, seed):
    assert_same(*run_both(seed, PREDICTIONS, REFERENCES, use_aggregator=use_aggregator,
                          use_stemmer=use_stemmer))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("use_stemmer", STEMMER)
@pytest.mark.parametrize("use_aggregator", AGGREGATOR)
def test_multi_reference(use_aggregator, use_stemmer, seed):
    assert_same(*run_both(seed, PREDICTIONS, MULTI_REFERENCES,
                          use_aggregator=use_aggregator, use_stemmer=use_stemmer))


@pytest.mark.parametrize("rouge_types", [
    ["rouge1"], ["rougeLsum"], ["rougeL", "rouge1"], ["rouge3", "rouge2", "rougeLsum"],
    ["rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rouge6", "rouge7", "rouge8",
     "rouge9", "rougeL", "rougeLsum"],
], ids=lambda types: "+".join(types))
@pytest.mark.parametrize("use_aggregator", AGGREGATOR)
def test_rouge_types_and_their_order(rouge_types, use_aggregator):
    ours, theirs = run_both(7, PREDICTIONS, REFERENCES, rouge_types=rouge_types,
                            use_aggregator=use_aggregator)
    assert_same(ours, theirs)
    assert list(ours) == rouge_types


def _split_tokenizer(text):
    return text.lower().split()


def _char_tokenizer(text):
    return [c for c in text if not c.isspace()]


@pytest.mark.parametrize("tokenizer", [
    pytest.param(_split_tokenizer, id="split"),
    pytest.param(_char_tokenizer, id="chars"),
    pytest.param(str.split, id="str.split"),
])
@pytest.mark.parametrize("use_stemmer", STEMMER)  # ignored with a tokenizer
@pytest.mark.parametrize("use_aggregator", AGGREGATOR)
def test_custom_tokenizer_callable(tokenizer, use_stemmer, use_aggregator):
    for refs in (REFERENCES, MULTI_REFERENCES):
        assert_same(*run_both(3, PREDICTIONS, refs, use_aggregator=use_aggregator,
                              use_stemmer=use_stemmer, tokenizer=tokenizer))


def test_custom_tokenizer_is_called_through_tokenize():
    seen = []

    def tok(text):
        seen.append(text)
        return text.split()

    hf.compute(["a b"], ["a c"], rouge_types=["rouge1"], tokenizer=tok)
    assert seen == ["a c", "a b"]  # target first, as rouge-score


def test_non_callable_tokenizer_object_is_used_as_is():
    class Tok:
        def tokenize(self, text):
            return text.split()

    ours = hf.compute(PREDICTIONS, REFERENCES, use_aggregator=False, tokenizer=Tok())
    theirs = evaluate_compute(PREDICTIONS, REFERENCES, use_aggregator=False,
                              tokenizer=str.split)
    assert_same(ours, theirs)


def test_docstring_example():
    preds = refs = ["hello there", "general kenobi"]
    ours, theirs = run_both(0, predictions=preds, references=refs)
    assert_same(ours, theirs)
    assert ours == {"rouge1": 1.0, "rouge2": 1.0, "rougeL": 1.0, "rougeLsum": 1.0}


def test_keyword_arguments_as_evaluate():
    kwargs = dict(predictions=PREDICTIONS, references=REFERENCES,
                  rouge_types=["rouge1", "rougeL"], use_aggregator=False,
                  use_stemmer=True, tokenizer=None)
    assert_same(hf.compute(**kwargs), evaluate_compute(**kwargs))


def test_single_item_and_int_zeros():
    # rougeL of an empty text is the int 0 in rouge-score: kept in the lists
    ours, theirs = run_both(1, [""], ["the cat"], use_aggregator=False)
    assert_same(ours, theirs)
    assert type(ours["rougeL"][0]) is int
    assert_same(*run_both(1, [""], ["the cat"], use_aggregator=True))


def test_tuples_are_multi_reference_as_after_evaluates_arrow_round_trip():
    tuples = [tuple(refs) for refs in MULTI_REFERENCES]
    ours, _ = run_both(5, PREDICTIONS, MULTI_REFERENCES, use_aggregator=False)
    assert hf.compute(PREDICTIONS, tuples, use_aggregator=False) == ours


def test_generators_of_texts_are_accepted():
    ours = hf.compute(iter(PREDICTIONS), iter(REFERENCES), use_aggregator=False)
    assert_same(ours, evaluate_compute(PREDICTIONS, REFERENCES, use_aggregator=False))


def test_corpus_pairs(corpus_pairs):
    pairs = corpus_pairs(2000, 13)[:150]  # the same call as test_parity_scoring: cached
    preds = [p["candidate"] for p in pairs]
    single = [p["references"][0] for p in pairs]
    multi = [list(p["references"]) for p in pairs]
    for refs in (single, multi):
        for use_aggregator in (True, False):
            assert_same(*run_both(2024, preds, refs, use_aggregator=use_aggregator,
                                  use_stemmer=True))


TEXT = st.text(alphabet="ab cdé\n.-'", max_size=30)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)),
                min_size=1, max_size=6),
       st.booleans(), st.booleans(), st.booleans())
def test_hypothesis(items, multi, use_aggregator, use_stemmer):
    preds = [p for p, _ in items]
    refs = [r if multi else r[0] for _, r in items]
    assert_same(*run_both(9, preds, refs, rouge_types=["rouge1", "rouge2", "rougeLsum"],
                          use_aggregator=use_aggregator, use_stemmer=use_stemmer))


# ---------------------------------------------------------------------------
# Inputs evaluate rejects: clear errors here
# ---------------------------------------------------------------------------

def test_unequal_lengths_raise():
    with pytest.raises(ValueError, match="differ in length: 2 and 1"):
        hf.compute(["a", "b"], ["a"])


def test_empty_inputs_raise():
    with pytest.raises(ValueError, match="empty"):
        hf.compute([], [])


@pytest.mark.parametrize("refs", [["a", ["a"]], [["a"], "a"]])
def test_mixed_reference_kinds_raise(refs):
    with pytest.raises(TypeError, match=r"references\[1\]"):
        hf.compute(["a", "b"], refs)


def test_single_text_instead_of_list_raises():
    with pytest.raises(TypeError, match="single text"):
        hf.compute("a b", "a b")


def test_bad_tokenizer_raises():
    with pytest.raises(TypeError, match="tokenizer"):
        hf.compute(["a"], ["a"], tokenizer=42)


def test_empty_reference_list_raises():
    with pytest.raises(ValueError):
        hf.compute(["a"], [[]])


def test_invalid_rouge_type_raises():
    with pytest.raises(ValueError, match="rougeX"):
        hf.compute(["a"], ["a"], rouge_types=["rougeX"])

