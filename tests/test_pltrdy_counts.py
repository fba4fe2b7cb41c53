"""The kernel under rougekit.compat's ``Rouge.get_scores``
(``_core/_pltrdy_counts``): compiled and pure twin give the same counts on
random texts (repeated words, empty and blank sentences, doubled spaces,
every kind of whitespace ``str.split`` knows, non-ASCII and astral words),
on sentences past the LCS kernels' one-word and mask-table paths, and on
texts of 5,000 words, for every metric, both ``exclusive`` and every way of
counting ROUGE-L. The drop-ins' results through it are checked against the
real packages in tests/test_compat_rouge*.py; here, too, that a text that
takes the per-pair path (not a str) scores as the kernel does.
"""
import importlib
import random

import pytest

from _helpers import sweep
from rougekit import _backend
from rougekit._core import _pltrdy_counts_py as pure
from rougekit.compat import rouge as compat_rouge
from rougekit.compat import rouge_chinese as compat_rouge_chinese

pytestmark = [pytest.mark.backend, pytest.mark.kernel]

WORDS = ["a", "b", "c", "the", "cat", "é", "l'été", "我", "爱", "𝕏", "\ud800", "x.y", ""]
SPACES = [" ", " ", "  ", "\t", "\n", "\xa0", "\u3000", "\x1c", "\x85", " . ", ".", ". ", "..",
          "\u2028"]
ALL_NS = (1, 2, 3, 4, 5, 0)
LCS_KINDS = (pure.LCS_UNION, pure.LCS_SUM, pure.LCS_WHOLE)


@pytest.fixture(scope="module")
def compiled():
    try:
        return importlib.import_module("rougekit._core._pltrdy_counts")
    except ImportError as exc:
        pytest.skip(f"compiled core not built: {exc}")


def _text(rng, words, max_len):
    return "".join(rng.choice(words) + rng.choice(SPACES) for _ in range(rng.randint(0, max_len)))


def _batch(rng, words, max_len, split_dots):
    size = rng.randint(1, 4)
    texts = [[_text(rng, words, max_len) for _ in range(size)] for _ in range(2)]
    if not split_dots:   # pieces, as rouge-chinese's cut_sent gives them
        texts = [[t.split(rng.choice([".", "\n", "a"])) for t in side] for side in texts]
    return texts


def _same_counts(compiled, hyps, refs, split_dots, ns, exclusive, lcs):
    got = compiled.pair_counts(hyps, refs, split_dots, ns, exclusive, lcs)
    assert got == pure.pair_counts(hyps, refs, split_dots, ns, exclusive, lcs), (
        hyps, refs, split_dots, ns, exclusive, lcs)
    return got


@pytest.mark.parametrize("exclusive", [True, False])
@pytest.mark.parametrize("lcs", LCS_KINDS)
def test_compiled_equals_its_twin_on_random_texts(compiled, exclusive, lcs):
    rng = random.Random(hash((exclusive, lcs)) & 0xFFFF)
    for _ in range(sweep(400, 100)):
        split_dots = rng.random() < 0.6
        hyps, refs = _batch(rng, WORDS, rng.choice([0, 2, 8, 30]), split_dots)
        ns = tuple(rng.choice(ALL_NS + (7,)) for _ in range(rng.randint(0, 6)))
        _same_counts(compiled, hyps, refs, split_dots, ns, exclusive, lcs)


@pytest.mark.parametrize("exclusive", [True, False])
@pytest.mark.parametrize("lcs", LCS_KINDS)
def test_compiled_equals_its_twin_on_long_sentences(compiled, exclusive, lcs):
    # Sentences of 65 to 700 words: past the one-word LCS path (64 words)
    # and the whole-text LCS's mask table (512 words); few distinct words.
    rng = random.Random(7 + lcs)
    words = ["a", "b", "c", "d", "e", "我"]
    for _ in range(sweep(12, 4)):
        hyps = [". ".join(" ".join(rng.choice(words) for _ in range(rng.randint(60, 700)))
                          for _ in range(rng.randint(1, 3)))]
        refs = [". ".join(" ".join(rng.choice(words) for _ in range(rng.randint(60, 700)))
                          for _ in range(rng.randint(1, 3)))]
        _same_counts(compiled, hyps, refs, True, ALL_NS, exclusive, lcs)


@pytest.mark.parametrize("lcs", LCS_KINDS)
def test_compiled_equals_its_twin_on_texts_of_5000_words(compiled, lcs):
    rng = random.Random(5000)
    one_sentence = " ".join(rng.choice(["w1", "w2", "w3", "w4", "x"]) for _ in range(5000))
    many = ". ".join(" ".join(f"w{rng.randint(0, 300)}" for _ in range(50)) for _ in range(100))
    for hyp, ref in [(one_sentence, one_sentence[::-1]), (many, one_sentence), (many, many)]:
        for exclusive in (True, False):
            counts = _same_counts(compiled, [hyp], [ref], True, ALL_NS, exclusive, lcs)
            assert counts[0][2] == len(hyp.replace(".", " ").split())


def test_counts_are_the_packages_on_a_small_example():
    # "a b. a" against "a c": sentences [a b], [a] and [a c]; pltrdy's union
    # LCS holds the word "a" only
    assert _backend.pltrdy_counts.pair_counts(["a b. a"], ["a c"], True, (1, 2, 0), True,
                                              _backend.pltrdy_counts.LCS_UNION) == [
        (2, 1, 3, 2, 2, 2, 1, 2, 1, 0, 2, 2, 1)]
    # blank and empty pieces: " " is a sentence of one empty word, "" none
    assert _backend.pltrdy_counts.pair_counts([[" ", "", "x  y"]], [["x"]], False, (1,), False,
                                              _backend.pltrdy_counts.LCS_WHOLE) == [
        (2, 1, 2, 1, 3, 1, 1)]


@pytest.mark.parametrize("call,error", [
    (lambda k: k.pair_counts(["a"], [], True, (1,), True, 0), ValueError),
    (lambda k: k.pair_counts(["a"], ["a"], True, (1,), True, 3), ValueError),
    (lambda k: k.pair_counts(["a"], ["a"], True, (-1,), True, 0), ValueError),
    (lambda k: k.pair_counts([None], ["a"], True, (1,), True, 0), TypeError),
    (lambda k: k.pair_counts(["a"], ["a"], False, (1,), True, 0), TypeError),
    (lambda k: k.pair_counts([["a", 1]], [["a"]], False, (1,), True, 0), TypeError),
])
def test_bad_arguments_raise_the_same_in_both(compiled, call, error):
    with pytest.raises(error) as theirs:
        call(pure)
    with pytest.raises(error) as ours:
        call(compiled)
    assert str(ours.value) == str(theirs.value)


class _Str(str):
    """A str that is not exactly str: get_scores scores it pair by pair."""


@pytest.mark.parametrize("module", [compat_rouge, compat_rouge_chinese])
@pytest.mark.parametrize("config", [{}, {"exclusive": False, "return_lengths": True},
                                    {"raw_results": True, "metrics": ["rouge-5", "rouge-l"]}])
def test_the_per_pair_path_scores_as_the_kernel(module, config):
    rng = random.Random(3)
    hyps = [_text(rng, WORDS, 20) + " x" for _ in range(30)]
    refs = [_text(rng, WORDS, 20) + " x" for _ in range(30)]
    rouge = module.Rouge(**config)
    subclassed = [_Str(h) for h in hyps]
    assert rouge._counted(subclassed, refs) is None
    assert repr(rouge.get_scores(subclassed, refs)) == repr(rouge.get_scores(hyps, refs))
    if not config.get("raw_results"):
        assert repr(rouge.get_scores(subclassed, refs, avg=True)) == repr(
            rouge.get_scores(hyps, refs, avg=True))


def test_the_table_of_words_started_afresh_between_pairs_changes_nothing(compiled):
    rng = random.Random(11)
    hyps = [_text(rng, WORDS, 30) for _ in range(40)]
    refs = [_text(rng, WORDS, 30) for _ in range(40)]
    expected = pure.pair_counts(hyps, refs, True, ALL_NS, True, pure.LCS_UNION)
    old = compiled._set_vocab_reset(1)   # afresh after every pair
    try:
        assert compiled.pair_counts(hyps, refs, True, ALL_NS, True, pure.LCS_UNION) == expected
    finally:
        compiled._set_vocab_reset(old)
    assert compiled.pair_counts(hyps, refs, True, ALL_NS, True, pure.LCS_UNION) == expected
