"""rougekit.evaluator: the textbook rouge_1_score and the platforms'
RougeScoreEvaluator, checked against first principles and rouge-score."""
import dataclasses
import types

import pytest
from rouge_score import rouge_scorer as ref_rouge_scorer

from rougekit.evaluator import (
    Evaluation,
    MeasureType,
    MissingFieldError,
    RougeScoreEvaluator,
    RougeType,
    rouge_1_score,
)
from rougekit.scoring import fmeasure
from rougekit.word_tokenizers import WhitespaceTokenizer

# --- rouge_1_score: the textbook exercise's function and its checks ----------

def test_rouge_1_score_exercise_example_rounds_to_0_8333():
    result = rouge_1_score("the cat sat on the mat", "the cat is on the mat")
    assert {k: round(v, 4) for k, v in result.items()} == \
        {"precision": 0.8333, "recall": 0.8333, "f1": 0.8333}
    # the(2) + cat(1) + on(1) + mat(1) = 5 of 6 tokens on each side.
    assert result == {"precision": 5 / 6, "recall": 5 / 6, "f1": fmeasure(5 / 6, 5 / 6)}
    assert list(result) == ["precision", "recall", "f1"]


def test_rouge_1_score_exercise_example_is_five_sixths():
    result = rouge_1_score("the cat sat on the mat", "the cat is on the mat")
    assert all(round(v, 10) == round(5 / 6, 10) for v in result.values())


def test_rouge_1_score_identical_texts_all_one():
    assert rouge_1_score("a b c a", "a b c a") == {"precision": 1.0, "recall": 1.0, "f1": 1.0}


def test_rouge_1_score_no_overlap_all_zeros():
    assert rouge_1_score("a b c", "d e f") == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_rouge_1_score_precision_and_recall_follow_the_lengths():
    result = rouge_1_score("the cat sat on the mat", "the cat")
    assert result == {"precision": 1.0, "recall": 2 / 6, "f1": fmeasure(1.0, 2 / 6)}
    result = rouge_1_score("the cat", "the cat sat on the mat")
    assert result == {"precision": 2 / 6, "recall": 1.0, "f1": fmeasure(2 / 6, 1.0)}


def test_rouge_1_score_lowercases_and_splits_on_whitespace():
    assert rouge_1_score("The  CAT\tsat", "the cat\nSAT")["f1"] == 1.0
    # Only whitespace splits: punctuation stays on the word.
    assert rouge_1_score("the cat.", "the cat")["precision"] == 0.5


def test_rouge_1_score_clips_repeated_tokens():
    # "the" thrice in the candidate, twice in the reference: 2 matches.
    assert rouge_1_score("the the cat", "the the the")["precision"] == 2 / 3


@pytest.mark.parametrize("reference, candidate", [("", ""), ("a b", ""), ("", "a b"), (" ", "\n")])
def test_rouge_1_score_empty_side_gives_zeros(reference, candidate):
    assert rouge_1_score(reference, candidate) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_rouge_1_score_type_errors():
    with pytest.raises(TypeError, match=r"^reference must be str, not list"):
        rouge_1_score(["a"], "a")
    with pytest.raises(TypeError, match=r"^candidate must be str, not NoneType"):
        rouge_1_score("a", None)


# --- RougeScoreEvaluator: the evaluator interface of LLM-evaluation platforms -----

SAMPLE = {"answer": "the cat sat on the mat", "groundTruth": "the cat is on the mat"}


def test_rouge_score_evaluator_default_is_rouge1_f1():
    evaluator = RougeScoreEvaluator()
    assert evaluator.rouge_type is RougeType.ROUGE1
    assert evaluator.measure is MeasureType.F1SCORE
    result = evaluator.evaluate(SAMPLE)
    assert result.get_value() == result.value == fmeasure(5 / 6, 5 / 6)


def test_rouge_score_evaluator_rouge2_precision():
    evaluator = RougeScoreEvaluator(RougeType.ROUGE2, MeasureType.PRECISION)
    # Answer bigrams: the cat, cat sat, sat on, on the, the mat; the ground
    # truth shares "the cat", "on the", "the mat".
    assert evaluator.evaluate(SAMPLE).get_value() == 3 / 5


def test_rouge_score_evaluator_rouge_l_sum_recall_is_the_union_lcs():
    evaluator = RougeScoreEvaluator(RougeType.ROUGE_L_SUM, MeasureType.RECALL)
    sample = {"answer": "the cat sat\nit was happy", "groundTruth": "it was happy\nthe cat sat down"}
    # Union LCS per ground-truth sentence: "it was happy" (3) and "the cat sat"
    # (3) of 7 tokens.
    assert evaluator.evaluate(sample).get_value() == 6 / 7


def test_rouge_score_evaluator_default_tokens_keep_case_and_punctuation():
    result = RougeScoreEvaluator().evaluate({"answer": "The cat.", "groundTruth": "the cat"})
    assert (result.precision, result.recall) == (0.0, 0.0)
    result = RougeScoreEvaluator(tokenizer="whitespace-lower").evaluate(
        {"answer": "The cat", "groundTruth": "the cat"})
    assert result.value == 1.0


def test_result_carries_everything():
    result = RougeScoreEvaluator("ROUGE_L", "RECALL").evaluate(
        {"answer": "a b c", "groundTruth": "c b a d"})
    assert isinstance(result, Evaluation)
    assert result.rouge_type is RougeType.ROUGE_L
    assert result.measure is MeasureType.RECALL
    assert (result.precision, result.recall, result.fmeasure) == (1 / 3, 1 / 4, fmeasure(1 / 3, 1 / 4))
    assert result.value == result.get_value() == 1 / 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.precision = 1.0


@pytest.mark.parametrize("measure, field", [(MeasureType.PRECISION, "precision"),
                                            (MeasureType.RECALL, "recall"),
                                            (MeasureType.F1SCORE, "fmeasure"),
                                            (MeasureType.FMEASURE, "fmeasure")])
def test_value_is_the_selected_measure(measure, field):
    result = RougeScoreEvaluator(RougeType.ROUGE1, measure).evaluate(
        {"answer": "a b", "groundTruth": "a c d"})
    assert result.value == getattr(result, field)


# --- samples -----------------------------------------------------------------

@dataclasses.dataclass
class SnakeSample:
    answer: str
    ground_truth: str


@pytest.mark.parametrize("sample", [
    {"answer": "a b", "groundTruth": "a c"},
    {"answer": "a b", "ground_truth": "a c"},
    types.SimpleNamespace(answer="a b", groundTruth="a c"),
    SnakeSample("a b", "a c"),
], ids=["dict-camel", "dict-snake", "object-camel", "object-snake"])
def test_sample_forms(sample):
    assert RougeScoreEvaluator().evaluate(sample).value == 0.5


def test_groundtruth_wins_over_ground_truth():
    sample = {"answer": "a", "groundTruth": "a", "ground_truth": "b"}
    assert RougeScoreEvaluator().evaluate(sample).value == 1.0


@pytest.mark.parametrize("sample, pattern", [
    ({"groundTruth": "a"}, r"^sample has no 'answer' field$"),
    ({"answer": "a"}, r"^sample has no 'groundTruth' \(or 'ground_truth'\) field$"),
    (types.SimpleNamespace(answer="a"), r"groundTruth"),
])
def test_missing_field(sample, pattern):
    # (A sample that is None is a TypeError: tests/test_errors.py.)
    with pytest.raises(MissingFieldError, match=pattern) as info:
        RougeScoreEvaluator().evaluate(sample)
    assert isinstance(info.value, KeyError)


@pytest.mark.parametrize("sample, pattern", [
    ({"answer": None, "groundTruth": "a"}, r"^sample field 'answer' must be str, not NoneType"),
    ({"answer": "a", "ground_truth": ["a"]}, r"^sample field 'ground_truth' must be str, not list"),
])
def test_field_not_str(sample, pattern):
    with pytest.raises(TypeError, match=pattern):
        RougeScoreEvaluator().evaluate(sample)


# --- enums -------------------------------------------------------------------

def test_enum_members_and_aliases():
    assert [m.name for m in RougeType] == ["ROUGE1", "ROUGE2", "ROUGE_L", "ROUGE_L_SUM"]
    assert RougeType.ROUGE_1 is RougeType.ROUGE1
    assert RougeType.ROUGE_2 is RougeType.ROUGE2
    assert [m.name for m in MeasureType] == ["PRECISION", "RECALL", "F1SCORE"]
    assert MeasureType.FMEASURE is MeasureType.F1SCORE


@pytest.mark.parametrize("name, member", [
    ("ROUGE1", RougeType.ROUGE1), ("ROUGE_1", RougeType.ROUGE1), ("rouge1", RougeType.ROUGE1),
    ("ROUGE-1", RougeType.ROUGE1), ("ROUGE_2", RougeType.ROUGE2), ("ROUGE_L", RougeType.ROUGE_L),
    ("rougeL", RougeType.ROUGE_L), ("rouge-l", RougeType.ROUGE_L),
    ("ROUGE_L_SUM", RougeType.ROUGE_L_SUM), ("rougeLsum", RougeType.ROUGE_L_SUM),
    ("ROUGE-LSum", RougeType.ROUGE_L_SUM),
])
def test_rouge_type_by_name(name, member):
    assert RougeType(name) is member
    assert RougeScoreEvaluator(rouge_type=name).rouge_type is member


@pytest.mark.parametrize("name, member", [
    ("PRECISION", MeasureType.PRECISION), ("recall", MeasureType.RECALL),
    ("F1SCORE", MeasureType.F1SCORE), ("FMEASURE", MeasureType.F1SCORE),
    ("fmeasure", MeasureType.F1SCORE), ("f1", MeasureType.F1SCORE), ("F1_SCORE", MeasureType.F1SCORE),
])
def test_measure_by_name(name, member):
    assert RougeScoreEvaluator(measure=name).measure is member


def test_bad_enum_arguments():
    with pytest.raises(ValueError, match=r"^unknown rouge_type 'rouge3'; valid: ROUGE1, ROUGE2, "
                                         r"ROUGE_L, ROUGE_L_SUM"):
        RougeScoreEvaluator("rouge3")
    with pytest.raises(ValueError, match=r"^unknown measure 'accuracy'; valid: PRECISION"):
        RougeScoreEvaluator(measure="accuracy")
    with pytest.raises(TypeError, match=r"^rouge_type must be a RougeType or its name, not int"):
        RougeScoreEvaluator(1)
    with pytest.raises(TypeError, match=r"^measure must be a MeasureType or its name, not RougeType"):
        RougeScoreEvaluator(measure=RougeType.ROUGE1)
    with pytest.raises(ValueError, match=r"unknown tokenizer"):
        RougeScoreEvaluator(tokenizer="nope")


# --- parity with rouge-score ---------------------------------------------------

TYPES = {RougeType.ROUGE1: "rouge1", RougeType.ROUGE2: "rouge2",
         RougeType.ROUGE_L: "rougeL", RougeType.ROUGE_L_SUM: "rougeLsum"}
PAIRS = [
    ("The cat sat on the mat.\nIt was happy.", "The cat is on the mat.\nIt is happy."),
    ("a b c\n\nd e", "e d\nc b a"),
    ("", "x"),
    ("same same\nsame", "same\nsame same"),
]


@pytest.mark.parametrize("answer, truth", PAIRS)
@pytest.mark.parametrize("rouge_type", list(TYPES))
@pytest.mark.parametrize("tokenizer", [None, "rouge-score", "unicode"])
def test_equals_rouge_score(answer, truth, rouge_type, tokenizer):
    evaluator = RougeScoreEvaluator(rouge_type, tokenizer=tokenizer)
    result = evaluator.evaluate({"answer": answer, "groundTruth": truth})
    scorer = ref_rouge_scorer.RougeScorer([TYPES[rouge_type]], tokenizer=evaluator.tokenizer)
    theirs = scorer.score(truth, answer)[TYPES[rouge_type]]  # score(target, prediction)
    assert (result.precision, result.recall, result.fmeasure) == tuple(theirs)


# --- RougeScoreEvaluator on a platform's documented examples, against rouge-score -----

REFERENCE = "The quick brown fox jumps over the lazy dog."
PARTIAL = "The quick brown fox runs."
REORDERED = "The lazy dog is jumped over by the quick brown fox."


def rouge_score_of(rouge_type, candidate, use_stemmer=False, tokenizer=None):
    scorer = ref_rouge_scorer.RougeScorer([rouge_type], use_stemmer=use_stemmer,
                                          tokenizer=tokenizer)
    return scorer.score(REFERENCE, candidate)[rouge_type]


def evaluate(rouge_type, candidate, tokenizer, measure="FMEASURE"):
    evaluator = RougeScoreEvaluator(rouge_type, measure, tokenizer=tokenizer)
    return evaluator.evaluate({"answer": candidate, "groundTruth": REFERENCE})


@pytest.mark.parametrize("tokenizer", [None, "rouge-score", "rouge-score+porter"])
def test_rouge_score_evaluator_platform_example_identical_texts_score_one(tokenizer):
    for rouge_type in ("ROUGE_1", "ROUGE_2", "ROUGE_L"):
        assert evaluate(rouge_type, REFERENCE, tokenizer).value == 1.0


def test_rouge_score_evaluator_platform_example_partial_match_is_rouge_scores():
    theirs = rouge_score_of("rougeL", PARTIAL)
    assert round(theirs.fmeasure, 4) == 0.5714  # not the documented 0.55
    assert evaluate("ROUGE_L", PARTIAL, "rouge-score").value == theirs.fmeasure
    # Whitespace tokens: "The quick brown fox" is still the LCS.
    assert evaluate("ROUGE_L", PARTIAL, None).value == theirs.fmeasure
    # No measure gives the documented 0.55.
    result = evaluate("ROUGE_L", PARTIAL, "rouge-score")
    assert 0.55 not in {round(x, 2) for x in (result.precision, result.recall, result.fmeasure)}


def test_rouge_score_evaluator_platform_example_reordered_sentence():
    rouge1 = rouge_score_of("rouge1", REORDERED)
    rouge_l = rouge_score_of("rougeL", REORDERED)
    assert (round(rouge1.fmeasure, 2), round(rouge_l.fmeasure, 2)) == (0.80, 0.40)
    assert evaluate("ROUGE_1", REORDERED, "rouge-score").value == rouge1.fmeasure
    assert evaluate("ROUGE_L", REORDERED, "rouge-score").value == rouge_l.fmeasure
    # The documented 0.89 is the ROUGE-1 recall, 8/9, not its F-measure.
    assert evaluate("ROUGE_1", REORDERED, "rouge-score", "RECALL").value == rouge1.recall == 8 / 9


def test_rouge_score_evaluator_platform_example_reordered_sentence_stemmed():
    rouge1 = rouge_score_of("rouge1", REORDERED, use_stemmer=True)
    rouge_l = rouge_score_of("rougeL", REORDERED, use_stemmer=True)
    assert (round(rouge1.fmeasure, 2), round(rouge_l.fmeasure, 2)) == (0.90, 0.40)
    assert evaluate("ROUGE_1", REORDERED, "rouge-score+porter").value == rouge1.fmeasure
    assert evaluate("ROUGE_L", REORDERED, "rouge-score+porter").value == rouge_l.fmeasure


def test_rouge_score_evaluator_platform_example_reordered_sentence_whitespace_tokens():
    # The default (the interface's) tokens keep case and punctuation: lower scores.
    ws = WhitespaceTokenizer()
    rouge1 = rouge_score_of("rouge1", REORDERED, tokenizer=ws)
    rouge_l = rouge_score_of("rougeL", REORDERED, tokenizer=ws)
    assert (round(rouge1.fmeasure, 2), round(rouge_l.fmeasure, 2)) == (0.60, 0.30)
    assert evaluate("ROUGE_1", REORDERED, None).value == rouge1.fmeasure
    assert evaluate("ROUGE_L", REORDERED, None).value == rouge_l.fmeasure

