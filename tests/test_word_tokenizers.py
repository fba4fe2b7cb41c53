"""rougekit.word_tokenizers: the named tokenizers, in many scripts."""
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer
from rouge_score import tokenizers as ref_tokenizers

from _helpers import examples
from rougekit import rouge_scorer
from rougekit.tokenizers import DefaultTokenizer, Tokenizer
from rougekit.word_tokenizers import (
    TOKENIZER_NAMES,
    CharTokenizer,
    RougeScoreTokenizer,
    UnicodeWordTokenizer,
    WhitespaceTokenizer,
    get_tokenizer,
)

unicode_tokens = UnicodeWordTokenizer().tokenize


# --- names -------------------------------------------------------------------

@pytest.mark.parametrize("tokenizer, name", [
    (RougeScoreTokenizer(), "rouge-score"),
    (RougeScoreTokenizer(use_stemmer=True), "rouge-score+porter"),
    (WhitespaceTokenizer(), "whitespace"),
    (WhitespaceTokenizer(lowercase=True), "whitespace-lower"),
    (UnicodeWordTokenizer(), "unicode"),
    (CharTokenizer(), "char"),
])
def test_names(tokenizer, name):
    assert tokenizer.name == name
    assert isinstance(tokenizer, Tokenizer)
    assert type(get_tokenizer(name)) is type(tokenizer)
    assert get_tokenizer(name).name == name


def test_names_listed():
    assert TOKENIZER_NAMES == ("rouge-score", "rouge-score+porter", "whitespace",
                               "whitespace-lower", "unicode", "char", "pltrdy",
                               "rouge-chinese", "rouge155", "rouge155+morph")


def test_get_tokenizer_stemmer():
    assert get_tokenizer("rouge-score", use_stemmer=True).name == "rouge-score+porter"
    assert get_tokenizer("rouge-score+porter", use_stemmer=True).name == "rouge-score+porter"


def test_get_tokenizer_passes_objects_through():
    class Mine:
        def tokenize(self, text):
            return text.split(",")

    mine = Mine()
    assert get_tokenizer(mine) is mine


def test_get_tokenizer_errors():
    with pytest.raises(ValueError, match=r"unknown tokenizer 'spacy'; valid names: "
                                         r"rouge-score, rouge-score\+porter, whitespace"):
        get_tokenizer("spacy")
    with pytest.raises(TypeError, match=r"^tokenizer must be a name .* not int"):
        get_tokenizer(3)
    with pytest.raises(TypeError, match=r"^tokenizer must be"):
        get_tokenizer(None)
    with pytest.raises(ValueError, match=r"use_stemmer=True needs the rouge-score or "
                                         r"rouge155 tokenizer"):
        get_tokenizer("unicode", use_stemmer=True)
    with pytest.raises(ValueError, match=r"use_stemmer=True needs the rouge-score or "
                                         r"rouge155 tokenizer"):
        get_tokenizer(WhitespaceTokenizer(), use_stemmer=True)
    with pytest.raises(ValueError, match=r"remove_stopwords=True .* needs tokenizer='rouge155'"):
        get_tokenizer("rouge-score", remove_stopwords=True)


def test_rouge155_tokenizer_is_the_scripts_tokens():
    from rougekit.rouge155.lexicon import stopwords
    from rougekit.rouge155.text import raw_tokens
    text = "The children WENT to Café 4:00pm; well-known facts were reported."
    plain = [t.decode() for t in raw_tokens(text.encode())]
    assert get_tokenizer("rouge155").tokenize(text) == plain
    assert get_tokenizer("rouge155", remove_stopwords=True).tokenize(text) == \
        [t for t in plain if t.encode() not in stopwords()]
    stemmed = get_tokenizer("rouge155", use_stemmer=True).tokenize(text)
    assert stemmed[:3] == ["the", "child", "go"] and "00pm" in stemmed
    # tokens of 3 characters or fewer are never stemmed (WordNet has was -> be)
    assert get_tokenizer("rouge155", use_stemmer=True).tokenize("men ran was going") == \
        ["men", "ran", "was", "go"]


def test_pltrdy_and_rouge_chinese_tokenizers_are_their_words():
    from rougekit.compat.rouge import Rouge
    from rougekit.compat.rouge_chinese import Rouge as ChineseRouge
    for text in ["The cat. Sat, here.", "a. . b  c.", " ", "你好。再见！ 好 的"]:
        words = [w for s in Rouge()._sentences(text) for w in s.split(" ")]
        assert get_tokenizer("pltrdy").tokenize(text) == words
        words = [w for s in ChineseRouge()._sentences(text) for w in s.split(" ")]
        assert get_tokenizer("rouge-chinese").tokenize(text) == words


# --- rouge-score's tokenizer ---------------------------------------------------

TEXTS = ["The cat's 2 hats!", "Running runners ran; RUNS.", "naïve café, Straße",
         "İstanbul Kelvin \u212a", "", "   ", "connection-oriented  e-mails\tgeneralizations"]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("stem", [False, True])
def test_rouge_score_tokenizer_is_rouge_scores(text, stem):
    ours = RougeScoreTokenizer(use_stemmer=stem).tokenize(text)
    assert ours == ref_tokenizers.DefaultTokenizer(use_stemmer=stem).tokenize(text)


def test_rouge_score_tokenizer_is_the_default_tokenizer():
    # So RougeScorer treats it as its default (str/bytes check included).
    assert isinstance(RougeScoreTokenizer(), DefaultTokenizer)


# --- whitespace --------------------------------------------------------------

def test_whitespace():
    assert WhitespaceTokenizer().tokenize(" The  cat\tsat.\nOn\u3000it ") == \
        ["The", "cat", "sat.", "On", "it"]
    assert WhitespaceTokenizer(lowercase=True).tokenize("The CAT") == ["the", "cat"]


# --- unicode words -------------------------------------------------------------

@pytest.mark.parametrize("text, tokens", [
    # English: lowercased, punctuation splits (also apostrophes and hyphens).
    ("Don't stop-gap, 3.14!", ["don", "t", "stop", "gap", "3", "14"]),
    # Chinese: one token per ideograph; full-width punctuation separates.
    ("我爱北京天安门。", ["我", "爱", "北", "京", "天", "安", "门"]),
    ("今天天气很好，我们去公园吧！", ["今", "天", "天", "气", "很", "好", "我", "们", "去",
                                    "公", "园", "吧"]),
    # Japanese: ideographs, hiragana and katakana one token each.
    ("東京タワーへ行きます。", ["東", "京", "タ", "ワ", "ー", "へ", "行", "き", "ま", "す"]),
    # Half-width katakana become full-width (NFKC).
    ("ｺｰﾋｰ", ["コ", "ー", "ヒ", "ー"]),
    # Latin words next to ideographs are words of their own.
    ("GPT模型很强", ["gpt", "模", "型", "很", "强"]),
    # Russian: case folded.
    ("Москва — столица России.", ["москва", "столица", "россии"]),
    # Arabic: the harakat (marks) stay in their words.
    ("ذَهَبَ الوَلَدُ إلى المَدرَسَةِ", ["ذَهَبَ", "الوَلَدُ", "إلى", "المَدرَسَةِ"]),
    # Hindi: vowel signs and virama are marks: हिन्दी is one word.
    ("हिन्दी एक भाषा है।", ["हिन्दी", "एक", "भाषा", "है"]),
    # Korean: Hangul words separated by spaces.
    ("나는 학교에 갑니다.", ["나는", "학교에", "갑니다"]),
    # German: case folding turns ß into ss; full-width Latin becomes ASCII.
    ("STRASSE Straße ＡＢＣ１２３", ["strasse", "strasse", "abc123"]),
    # Greek final sigma folds to sigma.
    ("ΟΔΟΣ οδος", ["οδοσ", "οδοσ"]),
    # Persian: the zero-width non-joiner does not split a word.
    ("می\u200cخواهم", ["میخواهم"]),
])
def test_unicode_words(text, tokens):
    assert unicode_tokens(text) == tokens


def test_unicode_hindi_word_is_one_token():
    word = "हिन्दी"
    assert [unicodedata.category(c)[0] for c in word] == ["L", "M", "L", "M", "L", "M"]
    assert unicode_tokens(word) == [word]


def test_unicode_decomposed_and_composed_accents_agree():
    composed = "café naïve"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    assert unicode_tokens(decomposed) == unicode_tokens(composed) == ["café", "naïve"]


def test_unicode_marks_attach_to_ideographs():
    assert unicode_tokens("本\u3099x") == ["本\u3099", "x"]


def test_unicode_punctuation_and_symbols_only():
    assert unicode_tokens("?! — … 😀 +=") == []


# --- characters ----------------------------------------------------------------

def test_char_tokenizer():
    assert CharTokenizer().tokenize("Ab c!") == ["a", "b", "c", "!"]
    assert CharTokenizer().tokenize("ภาษาไทย ดี") == list("ภาษาไทยดี")
    assert CharTokenizer().tokenize("ＡＢ") == ["a", "b"]
    assert CharTokenizer().tokenize(" \n\t") == []


# --- use in RougeScorer (rougekit's and rouge-score's) ---------------------------

@pytest.mark.parametrize("scorer_module", [rouge_scorer, ref_rouge_scorer],
                         ids=["rougekit", "rouge-score"])
@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_usable_as_rouge_scorer_tokenizer(scorer_module, name):
    scorer = scorer_module.RougeScorer(["rouge1", "rougeL"], tokenizer=get_tokenizer(name))
    scores = scorer.score("The cat sat on the mat.", "The cat sat on the mat.")
    assert scores["rouge1"].fmeasure == scores["rougeL"].fmeasure == 1.0


def test_rouge_score_scores_chinese_zero_unicode_does_not():
    target, prediction = "我爱北京", "我爱上海"
    default = rouge_scorer.RougeScorer(["rouge1"]).score(target, prediction)
    assert default["rouge1"].fmeasure == 0  # rouge-score's default drops every letter
    for module in (rouge_scorer, ref_rouge_scorer):
        scorer = module.RougeScorer(["rouge1"], tokenizer=UnicodeWordTokenizer())
        assert scorer.score(target, prediction)["rouge1"].precision == 2 / 4


def test_same_scores_through_rougekit_and_rouge_score():
    texts = ("Москва — столица России.", "Столица России — Москва, большой город.")
    for name in TOKENIZER_NAMES:
        types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        ours = rouge_scorer.RougeScorer(types, tokenizer=get_tokenizer(name)).score(*texts)
        theirs = ref_rouge_scorer.RougeScorer(types, tokenizer=get_tokenizer(name)).score(*texts)
        assert ours == theirs, name


# --- properties ----------------------------------------------------------------

_ANY_TEXT = st.text(max_size=40)


@settings(max_examples=examples(300), deadline=None)
@given(_ANY_TEXT)
def test_unicode_tokens_are_nonempty_and_without_whitespace(text):
    for token in unicode_tokens(text):
        assert token and not any(c.isspace() for c in token)


@settings(max_examples=examples(300), deadline=None)
@given(_ANY_TEXT)
def test_char_tokens_are_single_non_space_characters(text):
    for token in CharTokenizer().tokenize(text):
        assert len(token) == 1 and not token.isspace()


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from("abcXYZ 日本語かなカナабв,."), max_size=40))
def test_unicode_tokens_survive_a_round_trip(text):
    tokens = unicode_tokens(text)
    assert unicode_tokens(" ".join(tokens)) == tokens

