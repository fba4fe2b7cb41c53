"""No silent zeros: rouge-score's tokenizer warns when it drops most of a
text's letters, once per scorer, at the caller's line; the numbers stay
rouge-score's. Runs on the backend under test (compiled or pure)."""
import random
import unicodedata
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs_scorer

import rougekit
from _helpers import examples
from rougekit import _backend, rouge_scorer
from rougekit._core import _tokenizer_py
from rougekit._letters import LetterCheck, dropped_and_kept, may_lose_letters

pytestmark = pytest.mark.kernel

RUSSIAN = "Москва — столица России. Город стоит на реке Москве."
CHINESE = "我爱北京天安门，天安门上太阳升。"
HINDI = "हिन्दी एक भाषा है और यह भारत में बोली जाती है।"
ENGLISH_CURLY = "The “quick” brown fox — naïve café owner — jumps."
FRENCH = "Le garçon a mangé une pêche très sucrée à côté de l'église."


def _reference_dropped_kept(text):
    """The rule, spelled out with unicodedata: dropped letters are non-ASCII
    characters of category L* except the two that lowercase to ASCII; kept
    characters are those of rouge-score's tokens."""
    dropped = sum(1 for c in text if unicodedata.category(c)[0] == "L"
                  and ord(c) > 127 and c not in "\u212a\u0130")
    kept = _tokenizer_py.kept_chars(text)
    return dropped, kept


def _caught(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [w for w in caught if issubclass(w.category, rougekit.TokenizationWarning)]


ALPHABET = st.sampled_from(list("abcXYZ019 .,\n\t") + list("éßøİKµªº") + list("жЖщ")
                           + list("中文ひカ한") + ["\u0301", "\u093f", "²", "€", "🙂"])
TEXTS = st.lists(ALPHABET, max_size=40).map("".join)


@settings(max_examples=examples(400), deadline=None)
@given(TEXTS)
def test_counts_match_the_rule_and_precheck_misses_nothing(text):
    dropped, kept = dropped_and_kept(text)
    assert (dropped, kept) == _reference_dropped_kept(text)
    if dropped > kept:
        assert may_lose_letters(text, _tokenizer_py.kept_chars(text))


@settings(max_examples=examples(300), deadline=None)
@given(TEXTS)
def test_compiled_kept_chars_equal_pure(text):
    assert _backend.tokenizer.kept_chars(text) == _tokenizer_py.kept_chars(text)


def test_kept_chars_long_and_wide_texts():
    rng = random.Random(5)
    pool = "abc XYZ 09 .\n" + "жщ中🙂\u212a\u0130é"
    for n in (0, 1, 15, 16, 17, 63, 64, 65, 200, 1000):
        for _ in range(20):
            text = "".join(rng.choice(pool) for _ in range(n))
            assert _backend.tokenizer.kept_chars(text) == _tokenizer_py.kept_chars(text)


@pytest.mark.parametrize("text", [RUSSIAN, CHINESE, HINDI])
def test_scorer_warns_once_and_keeps_rouge_scores_numbers(text):
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types)
    pairs = [(text, text[:20]), (text[5:], "a " + text)]
    expected = [rs_scorer.RougeScorer(types).score(t, p) for t, p in pairs]
    got, caught = _caught(lambda: [scorer.score(t, p) for t, p in pairs])
    assert got == expected
    assert len(caught) == 1
    assert caught[0].filename == __file__       # the caller's line
    got, caught = _caught(scorer.score, *pairs[0])
    assert got == expected[0] and caught == []  # once per scorer


@pytest.mark.parametrize("text", [ENGLISH_CURLY, FRENCH, "", "12345 — 678", "Ünïcödé ok"])
def test_no_warning_for_texts_that_keep_most_letters(text):
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    _, caught = _caught(scorer.score, text, text)
    assert caught == []
    _, caught = _caught(scorer.score_batch, [text] * 40, [text] * 40)
    assert caught == []


LONG_ENGLISH = "the cat sat on the mat and the dog ran after it in the park " * 4


@pytest.mark.parametrize("russian_side", ["target", "prediction"])
def test_each_text_counts_its_own_kept_letters(russian_side):
    # a text that loses its letters beside one that keeps them all: the
    # warning comes from the first, whichever side it is on
    pair = (RUSSIAN, LONG_ENGLISH) if russian_side == "target" else (LONG_ENGLISH, RUSSIAN)
    _, caught = _caught(rouge_scorer.RougeScorer(["rouge1"]).score, *pair)
    assert len(caught) == 1
    _, caught = _caught(rouge_scorer.RougeScorer(["rouge1"]).score_batch,
                        [pair[0]] * 20, [pair[1]] * 20, threads=1)
    assert len(caught) == 1


def test_message_names_the_language():
    for text, lang in ((RUSSIAN, "russian"), (CHINESE, "chinese"), (HINDI, "hindi"),
                       ("東京へ行きます。ひらがな", "japanese")):
        _, caught = _caught(rouge_scorer.RougeScorer(["rouge1"]).score, text, "x")
        assert f"lang={lang!r}" in str(caught[0].message)


def test_batch_paths_warn_once_at_the_caller():
    targets = ["the cat sat"] * 50 + [RUSSIAN] * 50
    predictions = ["the cat"] * 50 + [CHINESE] * 50
    for threads in (1, 2):
        scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
        got, caught = _caught(scorer.score_batch, targets, predictions, threads=threads)
        assert got == [scorer.score(t, p) for t, p in zip(targets, predictions)]
        assert len(caught) == 1 and caught[0].filename == __file__
        # the first suspicious text in input order names the script
        assert "russian" in str(caught[0].message)
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    _, caught = _caught(scorer.score_multi_batch, [[RUSSIAN, "a"]], ["b"])
    assert len(caught) == 1


def test_python_paths_warn_too():
    # bytes go through the Python path; so does split_summaries' tokenizer
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    got, caught = _caught(scorer.score, RUSSIAN.encode(), b"x")
    assert got == rs_scorer.RougeScorer(["rouge1"]).score(RUSSIAN.encode(), b"x")
    assert len(caught) == 1 and caught[0].filename == __file__
    tok = rougekit.tokenizers.DefaultTokenizer(use_stemmer=True)
    _, caught = _caught(tok.tokenize, HINDI)
    assert len(caught) == 1


def test_corpus_compute_and_filter():
    _, caught = _caught(rougekit.score_corpus, [RUSSIAN], [[CHINESE]])
    assert len(caught) == 1 and caught[0].filename == __file__
    _, caught = _caught(rougekit.score_corpus, [RUSSIAN], [[CHINESE]], multi_ref="pooled")
    assert len(caught) == 1 and caught[0].filename == __file__
    _, caught = _caught(rougekit.compute, [RUSSIAN], [CHINESE], use_aggregator=False)
    assert len(caught) == 1 and caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", rougekit.TokenizationWarning)
        rouge_scorer.RougeScorer(["rouge1"]).score(RUSSIAN, RUSSIAN)


def test_unicode_tokenizer_does_not_warn():
    _, caught = _caught(rougekit.score_corpus, [RUSSIAN], [[RUSSIAN]], tokenizer="unicode")
    assert caught == []


def test_letter_check_object():
    check = LetterCheck()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert check("plain English") is True
        assert check(RUSSIAN) is False
        assert check(RUSSIAN) is False
    assert [w.category for w in caught] == [rougekit.TokenizationWarning]
