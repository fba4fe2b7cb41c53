"""rougekit.token_metrics: reval's token-level ROUGE1/ROUGEL API (a Go ROUGE
package), in Python.

reval's documented examples print exactly its values; rouge_n, rouge_l and
rouge_lsum(mode="union") equal rouge-score 0.1.2 on the same tokens (==).
"""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer
from rouge_score import tokenizers as ref_tokenizers

from _helpers import examples
from rougekit.scoring import Score, fmeasure
from rougekit.token_metrics import (
    f1,
    fbeta,
    lcs,
    overlap,
    rouge1,
    rouge2,
    rouge_l,
    rouge_lsum,
    rouge_n,
)

CANDIDATE = ["the", "cat", "is", "sitting", "on", "the", "mat"]
REFERENCE = ["the", "cat", "sat", "on", "the", "mat"]
LSUM_CANDIDATES = [["the", "cat", "is", "on", "the", "mat"], ["it", "is", "cute"]]
LSUM_REFS = [["the", "dog", "is", "on", "the", "mat"], ["the", "animal", "is", "cute"],
             ["the", "pet", "sleeps", "well"]]


def printed(score):
    """reval's examples' fmt.Printf("%.4f, %.4f, %.4f\\n", ...)."""
    p, r, f = score
    return f"{p:.4f}, {r:.4f}, {f:.4f}"


# --- reval's documented examples (ROUGE1, ROUGEL, ROUGELsum) ----------------------------------

def test_rouge1_prints_revals_rouge1_example():
    assert printed(rouge1(CANDIDATE, REFERENCE)) == "0.7143, 0.8333, 0.7692"


def test_rouge_l_prints_revals_rougel_example():
    assert printed(rouge_l(CANDIDATE, REFERENCE)) == "0.7143, 0.8333, 0.7692"


def test_rouge1_equals_rouge_l_when_the_shared_tokens_are_the_lcs():
    # "the shared tokens happen to form the LCS"
    assert rouge1(CANDIDATE, REFERENCE) == rouge_l(CANDIDATE, REFERENCE)
    assert overlap(CANDIDATE, REFERENCE) == lcs(CANDIDATE, REFERENCE) == 5


def test_rouge_lsum_prints_revals_rougelsum_example():
    assert printed(rouge_lsum(LSUM_CANDIDATES, LSUM_REFS)) == "0.7778, 0.5000, 0.6087"


def test_rouge_lsum_sums_each_candidate_sentences_best_lcs():
    # Sentence 1's best reference is the first (LCS "the is on the mat" = 5),
    # sentence 2's the second ("is cute" = 2): 7 hits, 9 and 14 tokens.
    assert rouge_lsum(LSUM_CANDIDATES, LSUM_REFS) == Score(7 / 9, 7 / 14,
                                                            fmeasure(7 / 9, 7 / 14))


def test_reordered_tokens_rouge1_one_rouge_l_a_third():
    # ["a","b","c"] vs ["c","b","a"] has ROUGE-1=1.0 but ROUGE-L≈0.33.
    a, b = ["a", "b", "c"], ["c", "b", "a"]
    assert rouge1(a, b) == Score(1.0, 1.0, 1.0)
    assert rouge_l(a, b) == Score(1 / 3, 1 / 3, fmeasure(1 / 3, 1 / 3))
    assert f"{rouge_l(a, b).fmeasure:.2f}" == "0.33"


def test_overlap_counts_a_repeated_token_as_often_as_both_have_it():
    # "if a token appears twice in both ... it counts as two matches"
    assert overlap(["the", "the", "cat"], ["the", "the"]) == 2
    assert overlap(["the", "the", "cat"], ["the"]) == 1
    assert rouge1(["the", "the"], ["the", "the", "the"]) == Score(1.0, 2 / 3, fmeasure(1.0, 2 / 3))


def test_f1_and_fbeta_weigh_precision_and_recall():
    assert f1(0.0, 0.0) == 0.0
    assert fbeta(0.0, 0.0, 2.0) == 0.0
    assert f1(0.5, 1.0) == fbeta(0.5, 1.0, 1.0) == 2 / 3
    # F2 weights recall, F0.5 precision.
    assert fbeta(0.5, 1.0, 2.0) == 5 * 0.5 * 1.0 / (4 * 0.5 + 1.0)
    assert fbeta(0.5, 1.0, 0.5) == 1.25 * 0.5 * 1.0 / (0.25 * 0.5 + 1.0)
    assert fbeta(0.5, 1.0, 2.0) > f1(0.5, 1.0) > fbeta(0.5, 1.0, 0.5)


@pytest.mark.parametrize("func", [rouge1, rouge2, rouge_l])
@pytest.mark.parametrize("cand, ref", [([], ["a"]), (["a"], []), ([], [])])
def test_empty_side_gives_float_zeros(func, cand, ref):
    score = func(cand, ref)
    assert score == Score(0.0, 0.0, 0.0)
    assert all(type(x) is float for x in score)


@pytest.mark.parametrize("cand, ref", [
    ([], [["a"]]), ([["a"]], []), ([[]], [["a"]]), ([["a"]], [[], []]), ([], [])])
@pytest.mark.parametrize("mode", ["best-match", "union"])
def test_rouge_lsum_empty_gives_float_zeros(cand, ref, mode):
    score = rouge_lsum(cand, ref, mode=mode)
    assert score == Score(0.0, 0.0, 0.0)
    assert all(type(x) is float for x in score)


def test_too_short_for_n_gives_zeros():
    assert rouge2(["a"], ["a"]) == Score(0.0, 0.0, 0.0)
    assert rouge_n(["a", "b"], ["a", "b", "c"], 3) == Score(0.0, 0.0, 0.0)


def test_score_is_a_3_tuple_namedtuple():
    score = rouge2(["a", "b", "c"], ["a", "b", "d"])
    assert isinstance(score, Score)
    p, r, f = score
    assert (p, r, f) == (score.precision, score.recall, score.fmeasure) == (0.5, 0.5, 0.5)


def test_rouge_n_any_n():
    cand = "a b c d e f".split()
    ref = "a b c d x f".split()
    # 4-grams: "a b c d" is the only shared one, of 3 on each side.
    assert rouge_n(cand, ref, 4) == Score(1 / 3, 1 / 3, fmeasure(1 / 3, 1 / 3))
    assert rouge_n(cand, ref, 1) == rouge1(cand, ref)
    assert rouge_n(cand, ref, 2) == rouge2(cand, ref)


def test_candidate_is_first():
    cand, ref = ["a", "b"], ["a", "b", "c", "d"]
    assert rouge1(cand, ref) == Score(1.0, 0.5, fmeasure(1.0, 0.5))
    assert rouge_l(cand, ref).precision == 1.0
    assert rouge_lsum([cand], [ref]).recall == 0.5


def test_any_hashable_tokens():
    assert rouge1([1, 2, 3], [3, 2, 1]).fmeasure == 1.0
    assert rouge_l([(1, "a"), 2, None], [None, (1, "a"), 2]).recall == 2 / 3
    assert lcs([1.5, "x", b"y"], [1.5, b"y"]) == 2
    assert overlap([frozenset({1}), 2], [frozenset({1})]) == 1


def test_lcs_and_overlap():
    assert lcs(["a", "b", "c", "d"], ["b", "d", "c"]) == 2
    assert lcs([], ["a"]) == 0
    assert overlap([], []) == 0
    assert overlap("x y y z".split(), "y y y x".split()) == 3


# --- ROUGE-Lsum: the two modes -------------------------------------------------

def test_best_match_takes_one_reference_sentence_per_candidate_sentence():
    cand, refs = [["a", "b", "c"]], [["a", "b"], ["c"]]
    # best-match: the best single reference sentence, "a b" (LCS 2).
    assert rouge_lsum(cand, refs) == Score(2 / 3, 2 / 3, fmeasure(2 / 3, 2 / 3))
    # union: "a b" from the first reference sentence, "c" from the second.
    assert rouge_lsum(cand, refs, mode="union") == Score(1.0, 1.0, 1.0)


def test_best_match_hits_are_capped_at_the_reference_tokens():
    # Both candidate sentences match all of "a b": 4 hits, but the reference
    # has 3 tokens, so hits are 3 and recall is 1, not 4/3.
    cand, refs = [["a", "b"], ["a", "b"]], [["a", "b", "c"]]
    assert rouge_lsum(cand, refs) == Score(3 / 4, 1.0, fmeasure(3 / 4, 1.0))
    # union counts each reference token once: 2 hits.
    assert rouge_lsum(cand, refs, mode="union") == Score(2 / 4, 2 / 3, fmeasure(2 / 4, 2 / 3))


def test_best_match_single_sentences_equal_rouge_l():
    cand, ref = "a b c d e".split(), "b a c e d f".split()
    assert rouge_lsum([cand], [ref]) == rouge_l(cand, ref)
    assert rouge_lsum([cand], [ref], mode="union") == rouge_l(cand, ref)


# --- parity with rouge-score ---------------------------------------------------

_REF_TOKENIZER = ref_tokenizers.DefaultTokenizer(use_stemmer=False)
_REF_SCORER = ref_rouge_scorer.RougeScorer(
    ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"])

TEXT_PAIRS = [
    ("The cat sat on the mat.", "The cat is on the mat."),
    ("the quick brown fox jumps over the lazy dog", "the lazy dog is jumped over by the quick brown fox"),
    ("a b a b a b\nb a b a", "a a b b\nb b a a\na"),
    ("It was the best of times.\nIt was the worst of times.", "It was the best.\nWorst times."),
    ("one two three", "four five six"),
    ("", "something"),
    ("x y z", ""),
    ("repeat repeat repeat", "repeat"),
    ("Police killed the gunman.\nThe gunman was armed.", "The gunman was killed by police.\nHe had a gun."),
]


def assert_parity(target, prediction):
    theirs = _REF_SCORER.score(target, prediction)
    t, p = _REF_TOKENIZER.tokenize(target), _REF_TOKENIZER.tokenize(prediction)
    for n in (1, 2, 3, 4):
        assert rouge_n(p, t, n) == theirs[f"rouge{n}"], (n, target, prediction)
    assert rouge_l(p, t) == theirs["rougeL"]
    # rouge-score's rougeLsum: lines split on "\n", empty lines dropped.
    t_sents = [_REF_TOKENIZER.tokenize(s) for s in target.split("\n") if s]
    p_sents = [_REF_TOKENIZER.tokenize(s) for s in prediction.split("\n") if s]
    assert rouge_lsum(p_sents, t_sents, mode="union") == theirs["rougeLsum"]


@pytest.mark.parametrize("target, prediction", TEXT_PAIRS)
def test_parity_with_rouge_score(target, prediction):
    assert_parity(target, prediction)


_WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "mat", "on", "x1", "."])
_TEXTS = st.lists(st.one_of(_WORDS, st.sampled_from([" ", "\n"])), max_size=30).map(" ".join)


@settings(max_examples=examples(300), deadline=None)
@given(_TEXTS, _TEXTS)
def test_parity_with_rouge_score_generated(target, prediction):
    assert_parity(target, prediction)


# --- properties ----------------------------------------------------------------

_TOKENS = st.lists(st.sampled_from("abcde"), max_size=12)
_SENTS = st.lists(_TOKENS, max_size=4)
_UNIT = st.floats(0.0, 1.0)


@settings(max_examples=examples(300), deadline=None)
@given(_TOKENS, _TOKENS, st.integers(1, 4))
def test_scores_are_in_unit_interval(cand, ref, n):
    for score in (rouge_n(cand, ref, n), rouge_l(cand, ref)):
        assert all(0.0 <= x <= 1.0 for x in score)


@settings(max_examples=examples(300), deadline=None)
@given(_SENTS, _SENTS)
def test_lsum_scores_are_in_unit_interval(cands, refs):
    for mode in ("best-match", "union"):
        assert all(0.0 <= x <= 1.0 for x in rouge_lsum(cands, refs, mode=mode))


@settings(max_examples=examples(300), deadline=None)
@given(_TOKENS, _TOKENS)
def test_rouge_l_is_at_most_rouge1(cand, ref):
    assert lcs(cand, ref) <= overlap(cand, ref)
    assert rouge_l(cand, ref).fmeasure <= rouge1(cand, ref).fmeasure


@settings(max_examples=examples(300), deadline=None)
@given(_TOKENS, _TOKENS)
def test_symmetries(cand, ref):
    assert overlap(cand, ref) == overlap(ref, cand)
    assert lcs(cand, ref) == lcs(ref, cand)
    p, r, f = rouge1(cand, ref)
    assert rouge1(ref, cand) == (r, p, f)


@given(_UNIT, _UNIT)
def test_f1_is_fbeta_1(p, r):
    assert f1(p, r) == fbeta(p, r, 1) == fbeta(p, r, 1.0) == fmeasure(p, r)


@given(_UNIT, _UNIT, st.floats(0.0, 100.0))
def test_fbeta_between_precision_and_recall(p, r, beta):
    value = fbeta(p, r, beta)
    if p + r > 0 and value:
        assert min(p, r) - 1e-12 <= value <= max(p, r) + 1e-12


def test_fbeta_limits():
    assert fbeta(0.25, 0.75, 0) == 0.25       # beta 0: precision
    assert fbeta(0.25, 0.0, 0) == 0.0         # ... 0/0 is 0.0
    assert fbeta(0.25, 0.75, 1e200) == 0.75   # beta**2 overflows: recall
    assert fbeta(0.0, 0.75, 1e200) == 0.0


# --- errors --------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: rouge1("the cat", ["the"]), "candidate"),
    (lambda: rouge1(["the"], "the cat"), "reference"),
    (lambda: rouge_n(b"ab", ["a"], 2), "candidate"),
    (lambda: rouge_l(["a"], "a"), "reference"),
    (lambda: rouge_l(5, ["a"]), "candidate"),
    (lambda: overlap("ab", ["a"]), "a"),
    (lambda: lcs(["a"], "ab"), "b"),
])
def test_str_instead_of_tokens_is_a_type_error(call, name):
    with pytest.raises(TypeError, match=rf"^{name} must be a sequence of tokens"):
        call()


def test_str_error_says_to_pass_a_list():
    with pytest.raises(TypeError, match="pass a list of tokens"):
        rouge1("the cat", ["the"])


@pytest.mark.parametrize("cands, refs, name", [
    ("the cat", [["a"]], r"candidate_sentences must be a list of sentences"),
    ([["a"]], "a\nb", r"reference_sentences must be a list of sentences"),
    (["the cat"], [["a"]], r"candidate_sentences\[0\] must be a sequence of tokens"),
    ([["a"]], [["a"], "b c"], r"reference_sentences\[1\] must be a sequence of tokens"),
    (3, [["a"]], r"candidate_sentences must be"),
])
def test_rouge_lsum_wants_lists_of_token_lists(cands, refs, name):
    with pytest.raises(TypeError, match=name):
        rouge_lsum(cands, refs)


@pytest.mark.parametrize("n, exc", [(0, ValueError), (-1, ValueError), (1.0, TypeError),
                                    ("2", TypeError), (True, TypeError), (None, TypeError)])
def test_bad_n(n, exc):
    with pytest.raises(exc, match=r"^n must be"):
        rouge_n(["a"], ["a"], n)


def test_bad_mode():
    with pytest.raises(ValueError, match=r"mode must be one of 'best-match', 'union'"):
        rouge_lsum([["a"]], [["a"]], mode="max")
    with pytest.raises(TypeError):
        rouge_lsum([["a"]], [["a"]], "union")  # keyword-only


@pytest.mark.parametrize("beta, exc", [(-0.5, ValueError), (-1, ValueError),
                                       (math.nan, ValueError), (math.inf, ValueError),
                                       ("1", TypeError), (None, TypeError),
                                       (1j, TypeError), (True, TypeError)])
def test_bad_beta(beta, exc):
    with pytest.raises(exc, match=r"^beta must be"):
        fbeta(0.5, 0.5, beta)



@pytest.mark.parametrize("p,r,beta", [(0.75, 5e-324, 0.0), (5e-324, 0.75, 2.0),
                                      (1e-200, 1e-200, 0.5)])
def test_fbeta_subnormal_products_stay_between_p_and_r(p, r, beta):
    # P * R underflows here; the result must still lie between P and R.
    assert min(p, r) <= fbeta(p, r, beta) <= max(p, r)
