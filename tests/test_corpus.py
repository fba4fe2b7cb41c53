"""rougekit.corpus.score_corpus: multi-reference corpus scoring, as a metric card describes it.

Per-reference scores are compared with rouge-score 0.1.2 (==); the pooled
policy with counts derived here from first principles (collections.Counter).
"""
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer

import rougekit
from _helpers import examples
from rougekit.corpus import MULTI_REF_POLICIES, CorpusResult, score_corpus
from rougekit.scoring import AggregateScore, Score, fmeasure
from rougekit.word_tokenizers import WhitespaceTokenizer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# A metric card's input example (a discharge summary, two references).
CARD_ITEM = {
    "candidate": "Patient discharged with two-week follow-up scheduled.",
    "references": [
        "The patient was discharged and will return in two weeks for follow-up.",
        "Discharge completed; follow-up visit set for two weeks.",
    ],
}

CANDIDATES = [
    "The cat sat on the mat.\nIt was happy.",
    "Police killed the gunman.",
    "a b c d",
    "",
]
REFERENCES = [
    ["The cat is on the mat.\nIt is happy.", "A cat was on a mat.", "the mat was red\nthe cat sat"],
    ["The gunman was killed by police.", "Police shot the gunman dead.", "Gunman killed."],
    ["d c b a", "a b", "a b c d e"],
    ["nothing here", "", "x"],
]


def ref_scores(references, candidate, use_stemmer=False):
    """rouge-score's score of the candidate against each reference."""
    scorer = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    return [scorer.score(r, candidate) for r in references]


def first_max(scores, field):
    best = scores[0]
    for s in scores[1:]:
        if getattr(s, field) > getattr(best, field):
            best = s
    return best


def exact_mean(values):
    """The float nearest the exact mean: rougekit's definition of every mean."""
    values = list(values)
    return float(sum(map(Fraction, values)) / len(values))


def mean_score(scores):
    return Score(exact_mean(s.precision for s in scores), exact_mean(s.recall for s in scores),
                 exact_mean(s.fmeasure for s in scores))


# --- score_corpus on the metric card's candidate/references example, each policy ------

# rouge-score's tokens of the card's example: 8 candidate tokens; 13 and 9
# reference tokens. ("week" is not "weeks", "discharged" not "discharge".)
CARD_CAND = "patient discharged with two week follow up scheduled".split()
CARD_REFS = ["the patient was discharged and will return in two weeks for follow up".split(),
             "discharge completed follow up visit set for two weeks".split()]


def clipped(a, b):
    return sum((Counter(a) & Counter(b)).values())


def ngrams(tokens, n):
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def test_metric_card_example_tokens_are_rouge_scores():
    tokenize = ref_rouge_scorer.tokenizers.DefaultTokenizer().tokenize
    assert tokenize(CARD_ITEM["candidate"]) == CARD_CAND
    assert [tokenize(r) for r in CARD_ITEM["references"]] == CARD_REFS


def card_result(policy, **kw):
    return score_corpus([CARD_ITEM["candidate"]], [CARD_ITEM["references"]],
                        multi_ref=policy, **kw)


def test_score_corpus_to_dict_is_the_metric_cards_output():
    result = card_result("max")
    out = result.to_dict()
    assert list(out) == list(rougekit.DEFAULT_ROUGE_TYPES)
    assert list(out) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert all(type(v) is float and 0 <= v <= 1 for v in out.values())
    assert out == {t: s.fmeasure for t, s in result.scores.items()}


def test_score_corpus_max_on_the_metric_card_example():
    # rouge1 hits: 5 (patient, discharged, two, follow, up) and 3 (two, follow, up).
    assert [clipped(CARD_CAND, r) for r in CARD_REFS] == [5, 3]
    assert card_result("max").scores["rouge1"] == Score(5 / 8, 5 / 13, fmeasure(5 / 8, 5 / 13))
    # rouge2: "follow up" in both; 7 candidate bigrams, 12 and 8 reference
    # bigrams: the second reference has the higher F.
    assert [clipped(ngrams(CARD_CAND, 2), ngrams(r, 2)) for r in CARD_REFS] == [1, 1]
    assert card_result("max").scores["rouge2"] == Score(1 / 7, 1 / 8, fmeasure(1 / 7, 1 / 8))
    theirs = ref_rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]
                                          ).score_multi(CARD_ITEM["references"],
                                                        CARD_ITEM["candidate"])
    assert card_result("max").scores == theirs


def test_score_corpus_pooled_on_the_metric_card_example():
    # ROUGE-1.5.5 -f A: sum the hits and totals over both references.
    hits = [clipped(CARD_CAND, r) for r in CARD_REFS]
    cand_total = len(CARD_CAND) * len(CARD_REFS)
    ref_total = sum(len(r) for r in CARD_REFS)
    assert (sum(hits), cand_total, ref_total) == (8, 16, 22)
    p, r = 8 / 16, 8 / 22
    assert card_result("pooled").scores["rouge1"] == Score(p, r, fmeasure(p, r))
    bi_hits = sum(clipped(ngrams(CARD_CAND, 2), ngrams(ref, 2)) for ref in CARD_REFS)
    bi_cand = 2 * len(ngrams(CARD_CAND, 2))
    bi_ref = sum(len(ngrams(ref, 2)) for ref in CARD_REFS)
    assert (bi_hits, bi_cand, bi_ref) == (2, 14, 20)
    assert card_result("pooled").scores["rouge2"] == Score(2 / 14, 2 / 20, fmeasure(2 / 14, 2 / 20))


def test_score_corpus_mean_best_recall_jackknife_on_the_metric_card_example():
    per_ref = ref_scores(CARD_ITEM["references"], CARD_ITEM["candidate"])
    for t in ("rouge1", "rouge2", "rougeL"):
        scores = [s[t] for s in per_ref]
        assert card_result("mean").scores[t] == mean_score(scores)
        assert card_result("best-recall").scores[t] == first_max(scores, "recall")
        # With two references, the leave-one-out sets are the single references.
        assert card_result("jackknife").scores[t] == mean_score([scores[1], scores[0]])


def test_score_corpus_stemming_changes_the_metric_card_numbers_and_signature():
    plain, stemmed = card_result("max"), card_result("max", use_stemmer=True)
    # "discharge"/"discharged" and "week"/"weeks" match once stemmed.
    assert stemmed.scores["rouge1"].fmeasure > plain.scores["rouge1"].fmeasure
    assert "stem:no" in plain.signature and "stem:porter" in stemmed.signature


# --- policies against rouge-score ----------------------------------------------

def corpus(policy, **kw):
    return score_corpus(CANDIDATES, REFERENCES, TYPES, multi_ref=policy, **kw)


def test_max_equals_score_multi_per_item():
    result = corpus("max")
    scorer = ref_rouge_scorer.RougeScorer(TYPES)
    for item, cand, refs in zip(result.per_item, CANDIDATES, REFERENCES):
        assert item == scorer.score_multi(refs, cand)


def test_max_with_stemming_equals_score_multi():
    result = corpus("max", use_stemmer=True)
    scorer = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    for item, cand, refs in zip(result.per_item, CANDIDATES, REFERENCES):
        assert item == scorer.score_multi(refs, cand)


@pytest.mark.parametrize("policy", ["mean", "best-recall", "jackknife"])
def test_policies_from_rouge_score_scores(policy):
    result = corpus(policy)
    for item, cand, refs in zip(result.per_item, CANDIDATES, REFERENCES):
        per_ref = ref_scores(refs, cand)
        for t in TYPES:
            scores = [s[t] for s in per_ref]
            if policy == "mean":
                expected = mean_score(scores)
            elif policy == "best-recall":
                expected = first_max(scores, "recall")
            else:  # the three leave-one-out sets' maxima, averaged
                assert len(scores) == 3
                expected = mean_score([first_max([scores[1], scores[2]], "fmeasure"),
                                       first_max([scores[0], scores[2]], "fmeasure"),
                                       first_max([scores[0], scores[1]], "fmeasure")])
            assert item[t] == expected, (policy, t, cand)


def test_pooled_hand_derived():
    # Candidate "a b c d" against "d c b a" and "a b":
    #   rouge1 hits 4 and 2; candidate 4 + 4 tokens; references 4 + 2 tokens.
    #   rouge2: candidate bigrams ab bc cd; "d c b a" has dc cb ba (0 hits),
    #   "a b" has ab (1 hit); totals 3 + 3 and 3 + 1.
    #   rougeL: LCS 1 ("d c b a" reversed) and 2; totals 4 + 4 and 4 + 2.
    result = score_corpus(["a b c d"], [["d c b a", "a b"]], ["rouge1", "rouge2", "rougeL"],
                          multi_ref="pooled")
    assert result.scores == {
        "rouge1": Score(6 / 8, 6 / 6, fmeasure(6 / 8, 6 / 6)),
        "rouge2": Score(1 / 6, 1 / 4, fmeasure(1 / 6, 1 / 4)),
        "rougeL": Score(3 / 8, 3 / 6, fmeasure(3 / 8, 3 / 6)),
    }


def test_jackknife_with_one_reference_is_the_single_score():
    theirs = ref_rouge_scorer.RougeScorer(TYPES).score("The cat is on the mat.", "The cat sat.")
    for refs in (["The cat is on the mat."], "The cat is on the mat."):
        result = score_corpus(["The cat sat."], [refs], TYPES, multi_ref="jackknife")
        assert result.per_item[0] == theirs


@pytest.mark.parametrize("policy", MULTI_REF_POLICIES)
def test_one_reference_every_policy_is_the_single_score(policy):
    result = score_corpus(CANDIDATES, [refs[0] for refs in REFERENCES], TYPES, multi_ref=policy)
    scorer = ref_rouge_scorer.RougeScorer(TYPES)
    assert result.per_item == [scorer.score(refs[0], c) for c, refs in zip(CANDIDATES, REFERENCES)]


@pytest.mark.parametrize("policy", MULTI_REF_POLICIES)
def test_corpus_score_is_the_mean_of_items(policy):
    result = corpus(policy)
    assert result.n_items == len(CANDIDATES) == len(result.per_item)
    for t in TYPES:
        assert result.scores[t] == mean_score([item[t] for item in result.per_item])


def test_a_str_reference_is_a_list_of_one():
    assert score_corpus(["a b"], ["a c"]).scores == score_corpus(["a b"], [["a c"]]).scores


@pytest.mark.parametrize("multi_ref", ["max", "pooled"])
def test_a_column_of_str_references_is_a_column_of_lists_of_one(multi_ref):
    """A column of str references is scored unwrapped (check_texts'
    single_as_str): the same result, per item too, as each in a list, and as
    a mix of both forms (str subclasses included)."""
    class Text(str):
        pass
    cands = ["the cat sat on the mat", "a dog", "", "the the the", "running runs"]
    refs = ["the cat is on the mat", "", "a dog ran", "the", "ran runner running"]
    one = score_corpus(cands, refs, use_stemmer=True, multi_ref=multi_ref)
    for other in ([[r] for r in refs], [Text(r) for r in refs],
                  [r if i % 2 else [r] for i, r in enumerate(refs)]):
        got = score_corpus(cands, other, use_stemmer=True, multi_ref=multi_ref)
        assert (got.scores, got.per_item, got.signature) == \
            (one.scores, one.per_item, one.signature)
    assert all(type(s) is Score for item in one.per_item for s in item.values())


def test_score_corpus_leaves_the_garbage_collector_as_it_was():
    """per_item and the checked references are built with the cyclic
    collector paused (rougekit._bulk); it is restored, on an error too, and
    left off when the caller had turned it off."""
    import gc
    assert gc.isenabled()
    score_corpus(["a b"] * 3, [["a c", "b"]] * 3)
    assert gc.isenabled()
    with pytest.raises(TypeError, match=r"references\[1\]\[0\] must be str"):
        score_corpus(["a b"] * 3, [["a c"], [None], ["b"]])
    assert gc.isenabled()
    gc.disable()
    try:
        score_corpus(["a b"] * 3, [["a c", "b"]] * 3)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_unicode_tokenizer_scores_chinese():
    assert score_corpus(["我爱北京"], ["我爱上海"]).to_dict()["rouge1"] == 0
    result = score_corpus(["我爱北京"], ["我爱上海"], tokenizer="unicode")
    assert result.to_dict()["rouge1"] == 0.5
    assert "tok:unicode|lang:none|stem:no" in result.signature


# --- signature -----------------------------------------------------------------

def test_signature_default():
    assert card_result("max").signature == (
        f"rougekit:{rougekit.__version__}|types:rouge1,rouge2,rougeL,rougeLsum|"
        "tok:rouge-score|lang:none|stem:no|stop:none|split:newline|multi:max|agg:mean|"
        "boot:none")


def test_signature_records_the_options():
    result = score_corpus(["a"], ["a"], tokenizer="rouge-score", use_stemmer=True,
                          multi_ref="jackknife", bootstrap=50, confidence=0.9, seed=7)
    assert result.signature == (f"rougekit:{rougekit.__version__}|"
                                "types:rouge1,rouge2,rougeL,rougeLsum|"
                                "tok:rouge-score|lang:none|stem:porter|stop:none|split:newline|"
                                "multi:jackknife|agg:mean|boot:50,ci:0.9,seed:7")
    result = score_corpus(["a"], ["a"], tokenizer="whitespace-lower", bootstrap=10)
    assert result.signature.endswith("|tok:whitespace-lower|lang:none|stem:no|stop:none|"
                                     "split:newline|multi:max|agg:mean|boot:10,ci:0.95,"
                                     "seed:12345")
    result = score_corpus(["a"], ["a"], bootstrap=10, seed=None)
    assert result.signature.endswith("|boot:10,ci:0.95,seed:none")


def test_signature_of_custom_tokenizers():
    class Mine:
        def tokenize(self, text):
            return text.split()

    assert "|tok:custom:Mine|lang:none|stem:no|" in \
        score_corpus(["a"], ["a"], tokenizer=Mine()).signature
    assert "|tok:whitespace|" in score_corpus(["a"], ["a"], tokenizer=WhitespaceTokenizer()).signature


# --- bootstrap ------------------------------------------------------------------

def test_bootstrap_is_the_documented_percentile_method():
    result = corpus("max", bootstrap=200, confidence=0.9, seed=3)
    matrix = np.array([[x for t in TYPES for x in item[t]] for item in result.per_item])
    rng = np.random.default_rng(3)
    n = len(matrix)
    means = np.array([matrix[rng.integers(0, n, size=n)].mean(axis=0) for _ in range(200)])
    low, high = np.quantile(means, [(1 - 0.9) / 2, (1 + 0.9) / 2], axis=0)
    for k, t in enumerate(TYPES):
        interval = result.intervals[t]
        assert isinstance(interval, AggregateScore)
        assert interval.low == Score(*low[3 * k:3 * k + 3])
        assert interval.high == Score(*high[3 * k:3 * k + 3])
        assert interval.mid == result.scores[t]
        assert all(type(x) is float for s in interval for x in s)
        assert all(lo <= hi for lo, hi in zip(interval.low, interval.high))


def test_bootstrap_is_reproducible_with_a_seed():
    a, b = corpus("mean", bootstrap=100, seed=11), corpus("mean", bootstrap=100, seed=11)
    assert a.intervals == b.intervals
    assert corpus("mean").intervals is None


def test_bootstrap_confidence_zero_and_one():
    result = corpus("max", bootstrap=50, confidence=0.0, seed=1)
    assert all(iv.low == iv.high for iv in result.intervals.values())
    wide = corpus("max", bootstrap=50, confidence=1.0, seed=1)
    assert wide.intervals["rouge1"].low.fmeasure <= result.intervals["rouge1"].low.fmeasure


def test_result_type():
    result = card_result("max")
    assert isinstance(result, CorpusResult)
    assert result.intervals is None and result.n_items == 1


# --- properties ----------------------------------------------------------------

_TEXT = st.lists(st.sampled_from(["a", "b", "c", "the", "\n"]), max_size=8).map(" ".join)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(_TEXT, st.lists(_TEXT, min_size=1, max_size=4)), min_size=1, max_size=4))
def test_all_policies_in_unit_interval_and_max_is_score_multi(items):
    cands = [c for c, _ in items]
    refs = [r for _, r in items]
    scorer = ref_rouge_scorer.RougeScorer(TYPES)
    for policy in MULTI_REF_POLICIES:
        result = score_corpus(cands, refs, TYPES, multi_ref=policy)
        for item in result.per_item:
            assert all(0 <= x <= 1 for s in item.values() for x in s)
        if policy == "max":
            assert result.per_item == [scorer.score_multi(r, c) for c, r in zip(cands, refs)]


# --- errors --------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, exc, pattern", [
    (dict(candidates=["a", "b"], references=["a"]), ValueError,
     r"^candidates has 2 items but references has 1$"),
    (dict(candidates=[], references=[]), ValueError, r"^candidates is empty"),
    (dict(candidates="a", references=["a"]), TypeError, r"^candidates must be a list of str"),
    (dict(candidates=["a"], references="a"), TypeError, r"^references must be a list"),
    (dict(candidates=["a", 3], references=["a", "b"]), TypeError, r"^candidates\[1\] must be str, not int"),
    (dict(candidates=["a"], references=[[]]), ValueError, r"^references\[0\] is an empty list"),
    (dict(candidates=["a"], references=[None]), TypeError, r"^references\[0\] must be a str or a list"),
    (dict(candidates=["a"], references=[["a", b"b"]]), TypeError, r"^references\[0\]\[1\] must be str"),
    (dict(rouge_types="rouge1"), TypeError, r"^rouge_types must be a list of rouge type names"),
    (dict(rouge_types=[]), ValueError, r"^rouge_types is empty"),
    (dict(rouge_types=["rouge0"]), ValueError, r"^rouge_types: unknown rouge type 'rouge0'"),
    (dict(rouge_types=["rougeLSum"]), ValueError, r"^rouge_types: unknown rouge type"),
    (dict(rouge_types=3), TypeError, r"^rouge_types must be"),
    (dict(multi_ref="median"), ValueError,
     r"^unknown multi_ref policy 'median'; valid: max, mean, pooled, best-recall, "
     r"jackknife, best-float32, mean-float32$"),
    (dict(multi_ref=None), TypeError, r"^multi_ref must be str"),
    (dict(bootstrap=-1), ValueError, r"^bootstrap must be >= 0"),
    (dict(bootstrap=10.0), TypeError, r"^bootstrap must be an int"),
    (dict(bootstrap=True), TypeError, r"^bootstrap must be an int"),
    (dict(confidence=1.5), ValueError, r"^confidence must be in \[0, 1\]"),
    (dict(confidence=-0.1), ValueError, r"^confidence must be in \[0, 1\]"),
    (dict(confidence="95%"), TypeError, r"^confidence must be a number"),
    (dict(seed="x"), TypeError, r"^seed must be an int, 'numpy-global' or None"),
    (dict(seed=-2), ValueError, r"^seed must be >= 0"),
    (dict(tokenizer="spacy"), ValueError, r"^unknown tokenizer 'spacy'; valid names"),
    (dict(tokenizer="unicode", use_stemmer=True), ValueError, r"use_stemmer=True needs"),
])
def test_errors_name_the_argument(kwargs, exc, pattern):
    args = dict(candidates=["a"], references=["a"])
    args.update(kwargs)
    with pytest.raises(exc, match=pattern):
        score_corpus(**args)



@pytest.mark.parametrize("policy", ["max", "mean", "best-recall", "jackknife"])
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_compiled_batch_path_equals_python_path(corpus_pairs, policy, use_stemmer):
    # rouge-score's tokenizer by name takes RougeScorer.score_batch; the same
    # tokenizer passed as a plain object takes the per-pair Python path.
    from rougekit.tokenizers import DefaultTokenizer
    pairs = corpus_pairs(300, 41)
    cands = [p["candidate"] for p in pairs]
    refs = [p["references"] for p in pairs]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    fast = score_corpus(cands, refs, types, multi_ref=policy, use_stemmer=use_stemmer,
                        threads=2)
    slow = score_corpus(cands, refs, types, multi_ref=policy,
                        tokenizer=DefaultTokenizer(use_stemmer))
    assert fast.per_item == slow.per_item
    assert fast.scores == slow.scores


def test_corpus_mean_of_equal_scores_is_that_score():
    """Means are exact, not summed in floats: ten items that each score
    rouge1 P = 0.1 have mean P 0.1 (summed left to right, ten 0.1s make
    0.9999999999999999), and the means do not depend on the item order or on
    the Python version (sum() of floats changed in 3.12)."""
    cand = "a b c d e f g h i j"          # 10 tokens, 1 hit: P = 1/10
    result = score_corpus([cand] * 10, ["a"] * 10, ["rouge1"])
    assert result.per_item[0]["rouge1"].precision == 0.1
    assert result.scores["rouge1"].precision == 0.1


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.sampled_from(CANDIDATES[:3] + ["the cat", "gunman police", "a"]),
                min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_corpus_means_are_exact_and_order_free(cands, rnd):
    refs = [REFERENCES[i % 3] for i in range(len(cands))]
    result = score_corpus(cands, refs, TYPES)
    for t in TYPES:
        assert result.scores[t] == mean_score([item[t] for item in result.per_item])
    order = list(range(len(cands)))
    rnd.shuffle(order)
    shuffled = score_corpus([cands[i] for i in order], [refs[i] for i in order], TYPES)
    assert shuffled.scores == result.scores
    agg = rougekit.MeanAggregator()
    agg.add_many(result.per_item)
    assert agg.result() == result.scores
