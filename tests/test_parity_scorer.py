"""rougekit.rouge_scorer.RougeScorer gives rouge-score 0.1.2's results exactly.

score() and score_multi() on hand-picked edge cases, on real news pairs from
the shared corpus, and on hypothesis-generated texts; plus invalid rouge
types, custom tokenizers and split_summaries.  Results are compared with
``==`` and every value's type is compared too (see _helpers).
"""
import random

import numpy as np
import pytest
import six
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer

from _helpers import (
    ALL_TYPES,
    NGRAM_TYPES,
    TYPE_SETS,
    assert_same_scores,
    compare_score,
    compare_score_multi,
    examples,
    first_mismatches,
    short,
    sweep,
)
from rougekit import rouge_scorer as kit_rouge_scorer
from rougekit import tokenizers as kit_tokenizers

pytestmark = pytest.mark.backend

STEMMING = [pytest.param(False, id="nostem"), pytest.param(True, id="stem")]
# A quick run (ROUGEKIT_TEST_SWEEPS=quick) takes the type sets and the types
# alone that reach each path of the scorer: n-grams, rougeL, rougeLsum, their
# orders, rougeLsum alone.
QUICK_TYPE_SETS = ("all", "all-reversed", "lsum-only", "l-only", "lsum-then-1-2")
TYPE_SET_PARAMS = [pytest.param(v, id=k) for k, v in TYPE_SETS.items()
                   if k in sweep(TYPE_SETS, QUICK_TYPE_SETS)]
ALONE_TYPES = sweep(ALL_TYPES, ["rouge1", "rouge2", "rouge4", "rouge9", "rougeL", "rougeLsum"])

# ---------------------------------------------------------------------------
# Hand-picked edge cases: (id, target, prediction)
# ---------------------------------------------------------------------------

EDGE_CASES = [
    # empty and blank inputs: rougeL/rougeLsum return int 0, rougeN float 0.0
    ("empty-both", "", ""),
    ("empty-target", "", "the cat sat"),
    ("empty-prediction", "the cat sat", ""),
    ("spaces-only", "   ", "the cat"),
    ("whitespace-mix", "\t\n \x0b\x0c ", " \n"),
    ("punct-only-target", "...!?", "the cat"),
    ("punct-only-both", "!!!", "???"),
    ("newlines-only", "\n\n", "\n"),
    ("newlines-only-vs-text", "\n\n", "the cat\n\nsat"),
    ("newline-single", "\n", "\n"),
    # sentences that tokenize to nothing (rougeLsum keeps them as [] lists)
    ("empty-sentences-target", "!!!\n...\nthe cat", "the cat\n???"),
    ("empty-sentences-both", "--\nthe\n--", "--\n--\nthe"),
    ("all-sentences-empty", "!!\n??\n..", "the\ncat"),
    ("cr-only-sentence", "the cat\r\n\r\nsat", "sat\r\nthe cat"),
    # repeated tokens (clipped counts, rougeLsum double-counting guard)
    ("repeat-target", "the the the", "the"),
    ("repeat-prediction", "the", "the the the"),
    ("repeat-both", "the the the the", "the the"),
    ("repeat-lsum", "the the\nthe cat the", "the the the\ncat"),
    ("repeat-bigrams", "a b a b a b", "a b a b"),
    # LCS ties: which LCS the backtrack picks matters for rougeLsum's union
    ("lcs-tie-swap", "a b", "b a"),
    ("lcs-tie-5", "a b c a b", "b a c b a"),
    ("lcs-tie-alt", "a b a b", "b a b a"),
    ("lcs-tie-lsum", "a b\nb a", "b a\na b"),
    ("lcs-tie-lsum-5", "a b c a b\nb a c", "b a c b a\nc b a"),
    ("lcs-union-overlap", "a b c d e\nc d e a b", "a b\nc d e\ne d c b a"),
    ("lcs-tie-repeats", "a a b b a a", "b a b a b a\na b"),
    # newline placement for rougeLsum
    ("leading-trailing-newline", "\nthe cat sat\n", "the cat\n"),
    ("double-newlines", "the cat\n\nsat on\n\n\nthe mat", "the mat\nsat"),
    ("crlf", "the cat\r\nsat on\r\nthe mat", "the cat\nsat on the mat"),
    ("cr-only", "the cat\rsat on\rthe mat", "the cat\nsat on\nthe mat"),
    ("other-line-breaks", "a b\x85c d\u2028e f\x0bg\x0ch\x1ci\rj",
     "c d\ne f\ng h\ni j\na b"),
    # only "\n" separates rougeLsum sentences, not str.splitlines()'s others
    *[("lsum-no-split-on-%s" % name, "b a %s a a %s b" % (sep, sep), "c \n b b a")
      for name, sep in [("cr", "\r"), ("vt", "\x0b"), ("ff", "\x0c"),
                        ("fs", "\x1c"), ("gs", "\x1d"), ("rs", "\x1e"),
                        ("nel", "\x85"), ("u2028", "\u2028"), ("u2029", "\u2029")]],
    ("one-line-vs-many", "the cat sat on the mat", "the\ncat\nsat\non\nthe\nmat"),
    # digits and case
    ("digits", "in 2019 there were 3,000 cases", "in 2019 3000 cases were 3.5"),
    ("digits-reversed", "1 2 3 4", "4 3 2 1"),
    ("digits-in-words", "covid19 1990s x2 mp3", "covid 19 1990 s x 2 mp3"),
    ("mixed-case", "The Cat SAT", "the cAT sat"),
    ("apostrophe-hyphen", "don't state-of-the-art", "don t state of the art"),
    ("underscore", "snake_case_name", "snake case name"),
    # non-ASCII: dropped by the [a-z0-9] filter, but they split tokens
    ("cyrillic", "Кот сидел на ковре", "кот сидел"),
    ("cjk", "猫が座った cat", "猫 cat"),
    ("accented-latin", "café naïve résumé", "cafe naive resume"),
    ("emoji", "I \u2764\ufe0f \U0001F642 pizza \U0001F355", "I \U0001F642 pizza"),
    ("sharp-s", "Straße STRASSE", "strasse"),
    ("combining-accent", "e\u0301te cafe\u0301", "ete e te cafe"),
    ("non-ascii-digits", "\u0663 \u0664 3 4 \u00b2", "3 4 \u0663 2"),
    ("fullwidth", "\uff21\uff22\uff23 abc", "abc"),
    ("nbsp-em-space", "the\u00a0cat\u2003sat", "the cat sat"),
    ("nul-char", "a\x00b", "a b"),
    ("lone-surrogate", "a\ud800b c", "a b c"),
    # characters whose str.lower() yields ASCII
    ("dotted-capital-i", "\u0130stanbul \u0130", "i\u0307stanbul i"),
    ("dotted-capital-i-plain", "\u0130", "i"),
    ("kelvin-sign", "5 \u212a \u212aelvin", "5 k kelvin"),
    ("kelvin-vs-k", "\u212a", "k"),
    # bytes input: bytes.lower() is ASCII-only and runs before decoding
    ("bytes-target", b"the cat", "the cat"),
    ("bytes-prediction", "the cat", b"the cat"),
    ("bytes-both", b"The Cat\nsat", b"the cat sat"),
    ("bytes-empty", b"", b""),
    ("bytes-upper", b"THE CAT", "the cat"),
    ("bytes-crlf", b"the cat\r\nsat on\r\n\r\nthe mat", "the mat\nsat"),
    ("bytes-dotted-i-kelvin", "\u0130 \u212a".encode("utf-8"), "i k"),
    ("bytes-dotted-i-kelvin-lines", "\u0130stanbul\n\u212aelvin".encode("utf-8"),
     "i\nstanbul\nkelvin"),
    ("bytes-both-dotted-i", "\u0130 a".encode("utf-8"), "\u0130 a".encode("utf-8")),
    ("bytes-accented-upper", "\u00c0\u00c9 caf\u00c9".encode("utf-8"), "\u00e0\u00e9 caf\u00e9"),
    # words the Porter stemmer treats specially (only matter with stemming)
    ("stem-inflections", "running runs ran runner", "run running"),
    ("stem-plurals", "the cats are flying", "a cat flies"),
    ("stem-short-words", "was this does has its", "wa thi doe ha it"),
    ("stem-irregular", "skies dying lying tying news innings outings cannings",
     "sky die lie tie news inning outing canning"),
    ("stem-suffixes", "generously relational conditional rationalize hopefulness",
     "generous relate condition rational hope"),
    ("stem-y-run", "y" * 300 + " syzygy toy", "y" * 300 + " syzygi"),
    # one token and one bigram repeated past what a byte holds: texts of up
    # to 255 n-grams are counted in bytes, longer ones in 32-bit counts
    ("bigram-255-times", "x " * 256, "x " * 256),
    ("bigram-256-times", "x " * 257, "x " * 257),
    ("bigram-257-times", "x y " * 129, "x y " * 129),
    ("bigram-256-of-255", "x " * 256, "x " * 257),
    ("unigram-300-of-255", "x " * 255, "x " * 300),
    ("unigram-255-of-300", "x " * 300, "x " * 255),
    # single tokens and long tokens
    ("single-same", "a", "a"),
    ("single-different", "a", "b"),
    ("long-token", "x" * 1000, "x" * 1000 + " y"),
]

EDGE_PARAMS = [pytest.param(t, p, id=i) for i, t, p in EDGE_CASES]


@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("rouge_types", TYPE_SET_PARAMS)
@pytest.mark.parametrize("target,prediction", EDGE_PARAMS)
def test_score_edge_cases(target, prediction, rouge_types, use_stemmer):
    compare_score(rouge_types, target, prediction, use_stemmer)


@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("rouge_type", ALONE_TYPES)
@pytest.mark.parametrize("target,prediction", EDGE_PARAMS)
def test_score_edge_cases_each_type_alone(target, prediction, rouge_type, use_stemmer):
    compare_score([rouge_type], target, prediction, use_stemmer)


@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("target,prediction", EDGE_PARAMS)
def test_score_edge_cases_swapped(target, prediction, use_stemmer):
    compare_score(ALL_TYPES, prediction, target, use_stemmer)


def test_bytes_rougelsum_decodes_before_lowercasing():
    # For bytes, rouge-score tokenizes the whole text with bytes.lower()
    # (ASCII only: 'İ' and 'K' survive, then are dropped as non-ASCII) but
    # rougeLsum decodes first and lowercases each sentence as str ('İ' -> 'i',
    # 'K' -> 'k'), so the two paths disagree on purpose.
    target = "\u0130stanbul \u212aelvin\nthe \u0130 \u212a".encode("utf-8")
    prediction = "i\u0307stanbul kelvin\nthe i k"
    theirs = ref_rouge_scorer.RougeScorer(["rouge1", "rougeLsum"]).score(
        target, prediction)
    assert theirs["rouge1"] != theirs["rougeLsum"]  # the test exercises both paths
    for types in (["rouge1", "rougeL", "rougeLsum"], ["rougeLsum"],
                  ["rougeLsum", "rouge1"]):
        for stem in (False, True):
            compare_score(types, target, prediction, stem)
            compare_score(types, prediction, target, stem)
            compare_score(types, target, target, stem)


def _long_text(n_tokens, seed, sentence_len=20):
    rng = random.Random(seed)
    vocab = ("the a of to in and news report said government minister police "
             "people year years running runs ran 2001 12 Sydney Australia "
             "fire fires firefighters Palestinian Israeli talks security "
             "company companies today yesterday says").split()
    words = [rng.choice(vocab) for _ in range(n_tokens)]
    for i in range(sentence_len, n_tokens, sentence_len):
        words[i] = words[i] + ".\n"
    return " ".join(words)


@pytest.mark.parametrize("use_stemmer", STEMMING)
def test_score_5000_token_target(use_stemmer):
    target = _long_text(5000, seed=1)
    prediction = _long_text(300, seed=2)
    compare_score(ALL_TYPES, target, prediction, use_stemmer)
    compare_score(["rougeLsum"], prediction, target, use_stemmer)


def test_score_5000_token_single_sentence():
    target = _long_text(5000, seed=3).replace("\n", " ")
    prediction = _long_text(200, seed=4)
    compare_score(["rougeLsum", "rouge2"], target, prediction)


# ---------------------------------------------------------------------------
# Rouge type lists: order, duplicates, containers, names rouge-score accepts
# ---------------------------------------------------------------------------

TEXT_T = "the cat sat on the mat\nthe dog sat"
TEXT_P = "the cat\nsat on the dog mat"


@pytest.mark.parametrize("rouge_types", [
    pytest.param(["rouge1", "rouge1"], id="duplicate-rouge1"),
    pytest.param(["rougeLsum", "rougeLsum"], id="duplicate-lsum"),
    pytest.param(["rougeL", "rouge1", "rougeL"], id="duplicate-interleaved"),
    pytest.param(("rougeLsum",), id="tuple-lsum-only"),
    pytest.param(("rouge2", "rougeL"), id="tuple"),
    pytest.param([], id="empty-list"),
    pytest.param(NGRAM_TYPES[::-1], id="ngrams-descending"),
    pytest.param(["rouge5", "rougeLsum", "rouge1", "rougeL", "rouge3"], id="shuffled"),
])
def test_rouge_type_lists(rouge_types):
    compare_score(rouge_types, TEXT_T, TEXT_P)
    compare_score_multi(rouge_types, [TEXT_T, TEXT_P], TEXT_P)


@pytest.mark.parametrize("rouge_type", [
    pytest.param("rouge1\n", id="trailing-newline"),   # re.match "rouge[0-9]$"
    pytest.param(b"rouge2", id="bytes-name"),          # six.ensure_str + int(b"2")
])
def test_rouge_type_names_rouge_score_also_accepts(rouge_type):
    compare_score([rouge_type], TEXT_T, TEXT_P)
    compare_score([rouge_type, "rougeL"], TEXT_T, TEXT_P)


INVALID_TYPES = ["rouge0", "rougeX", "rouge10", "rougel", "ROUGE1", "rouge-1",
                 "rougeLSum", "rouge", "", "rouge1 ", "rougeLsum "]


def _kit_raises_value_error(rouge_types, call):
    try:
        scorer = kit_rouge_scorer.RougeScorer(rouge_types)
    except ValueError:
        return  # raising at construction is allowed
    with pytest.raises(ValueError):
        call(scorer)


@pytest.mark.parametrize("bad", INVALID_TYPES, ids=repr)
@pytest.mark.parametrize("with_valid", [False, True], ids=["alone", "after-rouge1"])
def test_invalid_rouge_type_raises_value_error(bad, with_valid):
    rouge_types = ["rouge1", bad] if with_valid else [bad]
    ref = ref_rouge_scorer.RougeScorer(rouge_types)
    with pytest.raises(ValueError):
        ref.score("a b", "a b")
    _kit_raises_value_error(rouge_types, lambda s: s.score("a b", "a b"))
    _kit_raises_value_error(rouge_types, lambda s: s.score_multi(["a b", "b"], "a b"))


# ---------------------------------------------------------------------------
# score_multi
# ---------------------------------------------------------------------------


def _ref_argmax(rouge_types, targets, prediction):
    scorer = ref_rouge_scorer.RougeScorer(rouge_types)
    dicts = [scorer.score(t, prediction) for t in targets]
    return {k: int(np.argmax([d[k].fmeasure for d in dicts])) for k in rouge_types}


COMMON = TYPE_SETS["common"]


@pytest.mark.parametrize("targets,prediction,expected_index", [
    # "a" gives P=.5 R=1, "a b c d" gives P=1 R=.5: the same F, first wins
    pytest.param(["a", "a b c d"], "a b", 0, id="f-tie-first-wins"),
    pytest.param(["a b c d", "a"], "a b", 0, id="f-tie-first-wins-reversed"),
    # all-zero ties: an empty target scores int 0 for rougeL/Lsum, a
    # non-matching one float 0.0; the first one's types must come back
    pytest.param(["", "x y"], "a b", 0, id="zero-tie-int-first"),
    pytest.param(["x y", ""], "a b", 0, id="zero-tie-float-first"),
    pytest.param(["", "", ""], "", 0, id="all-empty"),
    pytest.param(["a b", "a b", "b a"], "a b", 0, id="identical-targets"),
])
def test_score_multi_ties_pick_first_max(targets, prediction, expected_index):
    # sanity: rouge-score really has an F tie for rouge1, which argmax resolves
    # to the first target
    ref = ref_rouge_scorer.RougeScorer(["rouge1"])
    f = [ref.score(t, prediction)["rouge1"].fmeasure for t in targets]
    assert f.count(max(f)) > 1
    assert _ref_argmax(["rouge1", "rougeL", "rougeLsum"], targets, prediction) == dict(
        rouge1=expected_index, rougeL=expected_index, rougeLsum=expected_index)
    for types in (COMMON, ALL_TYPES, ["rougeLsum"], ["rougeL"]):
        compare_score_multi(types, targets, prediction)


@pytest.mark.parametrize("targets,prediction", [
    pytest.param(["a", "a b c d"], "a b", id="rouge1-tie-rouge2-second"),
    pytest.param(["a b c d", "d c b a e"], "a b c d e", id="rouge1-second-rest-first"),
    pytest.param(["c a b", "a b c a"], "a b c", id="rouge1-first-rest-second"),
    pytest.param(["b a\nd c", "a b c d x y"], "a b\nc d", id="lsum-lines"),
])
def test_score_multi_types_pick_different_targets(targets, prediction):
    assert len(set(_ref_argmax(COMMON, targets, prediction).values())) > 1
    compare_score_multi(COMMON, targets, prediction)
    compare_score_multi(ALL_TYPES, targets, prediction)


@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("target,prediction", EDGE_PARAMS)
def test_score_multi_single_target(target, prediction, use_stemmer):
    ours = compare_score_multi(ALL_TYPES, [target], prediction, use_stemmer)
    alone = kit_rouge_scorer.RougeScorer(ALL_TYPES, use_stemmer=use_stemmer).score(
        target, prediction)
    assert_same_scores(ours, alone)


def test_score_multi_edge_cases_as_targets():
    targets = [t for _, t, _ in EDGE_CASES]
    for _, _, prediction in EDGE_CASES:
        compare_score_multi(ALL_TYPES, targets, prediction)
        compare_score_multi(["rougeLsum"], targets, prediction)


def test_score_multi_accepts_any_iterable():
    targets = ["the cat sat", b"the dog\nsat", "a cat"]
    theirs = ref_rouge_scorer.RougeScorer(COMMON).score_multi(targets, "the cat")
    ours = kit_rouge_scorer.RougeScorer(COMMON)
    assert_same_scores(ours.score_multi(iter(targets), "the cat"), theirs)
    assert_same_scores(ours.score_multi(tuple(targets), "the cat"), theirs)
    assert_same_scores(ours.score_multi((t for t in targets), "the cat"), theirs)


def test_score_multi_no_targets():
    # rouge-score: np.argmax([]) raises ValueError; with no rouge types it
    # never calls argmax and returns {}
    with pytest.raises(ValueError):
        ref_rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")
    with pytest.raises(ValueError):
        kit_rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")
    assert_same_scores(kit_rouge_scorer.RougeScorer([]).score_multi([], "a"),
                       ref_rouge_scorer.RougeScorer([]).score_multi([], "a"))


# ---------------------------------------------------------------------------
# Custom tokenizers: any object with .tokenize(text)
# ---------------------------------------------------------------------------


class WhitespaceTokenizer:
    """Case-sensitive, keeps punctuation; bytes in, bytes tokens out."""

    def tokenize(self, text):
        return text.split()


class LengthTokenizer:
    """Non-string tokens: the length of each word."""

    def tokenize(self, text):
        return [len(w) for w in text.split()]


class TupleTokenizer:
    """Returns a tuple instead of a list."""

    def tokenize(self, text):
        return tuple(text.lower().split())


class EqualNumbersTokenizer:
    """Tokens that are == and hash alike but of different types: 1, 1.0, True."""

    MAP = {"one": 1, "uno": 1.0, "yes": True, "two": 2, "dos": 2.0, "zero": 0,
           "no": False, "cero": 0.0}

    def tokenize(self, text):
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return [self.MAP.get(w, w) for w in text.split()]


class TypeRevealingTokenizer:
    """Its tokens depend on whether it was handed str or bytes."""

    def tokenize(self, text):
        return [type(text).__name__] + [type(text).__name__ + ":" + str(w)
                                        for w in text.split()]


class SubclassTokenizer(kit_tokenizers.Tokenizer):
    """A subclass of rougekit's Tokenizer ABC, splitting on commas."""

    def tokenize(self, text):
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return [w.strip() for w in text.split(",") if w.strip()]


class EmptyTokenizer:
    def tokenize(self, text):
        return []


class FalsyTokenizer:
    """rouge-score tests ``if tokenizer:``, so this one is ignored and the
    default tokenizer is used instead."""

    def __bool__(self):
        return False

    def tokenize(self, text):
        return ["constant"]


class UnhashableTokenizer:
    """List tokens: unhashable, but rougeL only compares them with ==."""

    def tokenize(self, text):
        return [[w] for w in text.split()]


TOKENIZERS = [
    pytest.param(WhitespaceTokenizer, id="whitespace"),
    pytest.param(LengthTokenizer, id="int-tokens"),
    pytest.param(TupleTokenizer, id="tuple-result"),
    pytest.param(EqualNumbersTokenizer, id="equal-numbers"),
    pytest.param(TypeRevealingTokenizer, id="type-revealing"),
    pytest.param(SubclassTokenizer, id="tokenizer-subclass"),
    pytest.param(EmptyTokenizer, id="empty"),
    pytest.param(FalsyTokenizer, id="falsy-object"),
]

TOKENIZER_TEXTS = [
    ("The cat, the CAT\nsat one two", "the cat uno dos\nyes the CAT, sat"),
    ("one uno yes two\ndos zero no cero", "yes one\nno zero two"),
    ("a b c a b\nb a c", "b a c b a\nc b a"),
    ("", "the cat"),
    ("\n\n", "a\n\nb"),
    (b"The cat\nsat, on", "The cat\nsat, on"),
    ("x,y,z\nz,y", b"y,x\nz"),
]


@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("tokenizer_cls", TOKENIZERS)
@pytest.mark.parametrize("rouge_types", [
    pytest.param(ALL_TYPES, id="all"), pytest.param(["rougeLsum"], id="lsum-only")])
def test_custom_tokenizer(tokenizer_cls, rouge_types, use_stemmer):
    tokenizer = tokenizer_cls()
    ours_scorer = kit_rouge_scorer.RougeScorer(
        rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    ref_scorer = ref_rouge_scorer.RougeScorer(
        rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    for target, prediction in TOKENIZER_TEXTS:
        context = "tokenizer=%s target=%s prediction=%s" % (
            tokenizer_cls.__name__, short(target), short(prediction))
        assert_same_scores(ours_scorer.score(target, prediction),
                           ref_scorer.score(target, prediction), context)
    targets = [t for t, _ in TOKENIZER_TEXTS]
    for _, prediction in TOKENIZER_TEXTS:
        assert_same_scores(ours_scorer.score_multi(targets, prediction),
                           ref_scorer.score_multi(targets, prediction),
                           "score_multi, tokenizer=%s" % tokenizer_cls.__name__)


def test_custom_tokenizer_unhashable_tokens_rougeL():
    tokenizer = UnhashableTokenizer()
    ref = ref_rouge_scorer.RougeScorer(["rougeL"], tokenizer=tokenizer)
    ours = kit_rouge_scorer.RougeScorer(["rougeL"], tokenizer=tokenizer)
    for target, prediction in TOKENIZER_TEXTS:
        assert_same_scores(ours.score(target, prediction),
                           ref.score(target, prediction),
                           "target=%s prediction=%s" % (short(target), short(prediction)))


class OneLineTokenizer:
    """Refuses multi-line text.  With ["rougeLsum"] alone rouge-score only
    ever hands it single sentences, so it works there."""

    def tokenize(self, text):
        if "\n" in six.ensure_str(text):
            raise ValueError("one line at a time, please")
        return six.ensure_str(text).split()


@pytest.mark.parametrize("target,prediction", [
    pytest.param("the cat\nsat on\n\nthe mat", "the mat\nsat", id="str"),
    pytest.param(b"the cat\nsat", "sat\nthe cat", id="bytes"),
])
def test_rougelsum_alone_tokenizes_sentences_only(target, prediction):
    tokenizer = OneLineTokenizer()
    ref = ref_rouge_scorer.RougeScorer(["rougeLsum"], tokenizer=tokenizer)
    ours = kit_rouge_scorer.RougeScorer(["rougeLsum"], tokenizer=tokenizer)
    assert_same_scores(ours.score(target, prediction), ref.score(target, prediction))
    assert_same_scores(ours.score_multi([target, prediction], prediction),
                       ref.score_multi([target, prediction], prediction))


# ---------------------------------------------------------------------------
# split_summaries=True (nltk's punkt sentence splitter)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("target,prediction", [
    pytest.param("The cat sat. The dog ran! Did it?", "The dog sat. The cat ran.",
                 id="three-sentences"),
    pytest.param("Mr. Smith went to Washington. He arrived at 3 p.m. today.",
                 "Smith went to Washington today.", id="abbreviations"),
    pytest.param("one line\nwith newline. And more", "one line with newline.",
                 id="newline-inside"),
    pytest.param("", "A sentence.", id="empty-target"),
    pytest.param("...", "!!!", id="punct-only"),
])
def test_split_summaries(target, prediction, use_stemmer, punkt_data):
    for types in (["rougeLsum"], ALL_TYPES):
        compare_score(types, target, prediction, use_stemmer, split_summaries=True)


# ---------------------------------------------------------------------------
# Real news pairs from the shared corpus
# ---------------------------------------------------------------------------

CORPUS_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
CHUNK = 200
# The first pairs of each (a quick run takes fewer: ROUGEKIT_TEST_SWEEPS).
PLAIN = dict(n=sweep(2000, 600), seed=13)      # without stemming
STEMMED = dict(n=sweep(800, 400), seed=29)     # with stemming


def _chunks(spec):
    return [pytest.param(spec, i, id="%s-pairs%04d-%04d" % (
        "seed%d" % spec["seed"], i, i + CHUNK - 1)) for i in range(0, spec["n"], CHUNK)]


def _corpus_chunk(corpus_pairs, spec, start):
    return corpus_pairs(spec["n"], spec["seed"])[start:start + CHUNK]


def _multi_reference(pairs):
    """The pairs worth a score_multi call: every pair with several references,
    and the first chunk whatever its references.  For the other single-reference
    pairs score_multi is score, already compared (and rouge-score is slow)."""
    return [p for p in pairs if len(p["references"]) > 1 or p["id"] < CHUNK]


@pytest.mark.parametrize("spec,start", _chunks(PLAIN))
def test_corpus_score(corpus_pairs, spec, start):
    pairs = _corpus_chunk(corpus_pairs, spec, start)
    failures = first_mismatches(pairs, lambda p: compare_score(
        CORPUS_TYPES, p["references"][0], p["candidate"]))
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("spec,start", _chunks(PLAIN))
def test_corpus_score_multi(corpus_pairs, spec, start):
    pairs = _multi_reference(_corpus_chunk(corpus_pairs, spec, start))
    failures = first_mismatches(pairs, lambda p: compare_score_multi(
        CORPUS_TYPES, p["references"], p["candidate"]))
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("spec,start", _chunks(STEMMED))
def test_corpus_score_stemmed(corpus_pairs, spec, start):
    pairs = _corpus_chunk(corpus_pairs, spec, start)
    failures = first_mismatches(pairs, lambda p: compare_score(
        CORPUS_TYPES, p["references"][0], p["candidate"], use_stemmer=True))
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("spec,start", _chunks(STEMMED))
def test_corpus_score_multi_stemmed(corpus_pairs, spec, start):
    pairs = _multi_reference(_corpus_chunk(corpus_pairs, spec, start))
    failures = first_mismatches(pairs, lambda p: compare_score_multi(
        CORPUS_TYPES, p["references"], p["candidate"], use_stemmer=True))
    assert not failures, "\n\n".join(failures)


# ---------------------------------------------------------------------------
# Property tests: random texts from a small vocabulary, so tokens repeat
# ---------------------------------------------------------------------------

WORDS = ["the", "The", "THE", "cat", "cats", "sat", "on", "mat", "a", "b", "c",
         "running", "runs", "ran", "runner", "generously", "flies", "flying",
         "was", "is", "news", "skies", "dying", "1", "42", "2019", "3.14", "x2",
         "don't", "state-of-the-art", "кот", "Кот", "猫", "café", "naïve",
         "\U0001F642", "\u0130", "\u212a", "ß", "\u0663", "e\u0301"]
SEPARATORS = [" ", " ", " ", " ", "\n", "\n\n", "\t", "\r\n", "\r", ".", ",",
              "!", "?", "-", "'", "  ", "\u00a0", "", "\x0b", "\x0c", "\x1c",
              "\x85", "\u2028"]

vocab_text = st.lists(st.sampled_from(WORDS) | st.sampled_from(SEPARATORS),
                      max_size=40).map("".join)
tiny_vocab_text = st.lists(st.sampled_from(["a", "b", "c", "a", "b", "\n", "\n",
                                            "\r", "\u2028"]),
                           max_size=25).map(" ".join)
any_text = vocab_text | tiny_vocab_text | st.text(max_size=30)
str_or_bytes = any_text | any_text.map(lambda s: s.encode("utf-8"))

PROPERTY = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("use_stemmer", STEMMING)
@PROPERTY
@given(target=any_text, prediction=any_text)
def test_property_score(use_stemmer, target, prediction):
    compare_score(ALL_TYPES, target, prediction, use_stemmer)
    compare_score(["rougeLsum"], target, prediction, use_stemmer)


@pytest.mark.parametrize("use_stemmer", STEMMING)
@PROPERTY
@given(target=tiny_vocab_text, prediction=tiny_vocab_text)
def test_property_score_lcs_ties(use_stemmer, target, prediction):
    compare_score(["rougeL", "rougeLsum", "rouge1", "rouge2"], target, prediction,
                  use_stemmer)


@pytest.mark.parametrize("use_stemmer", STEMMING)
@PROPERTY
@given(target=str_or_bytes, prediction=str_or_bytes)
def test_property_score_str_or_bytes(use_stemmer, target, prediction):
    compare_score(ALL_TYPES, target, prediction, use_stemmer)
    compare_score(["rougeLsum"], target, prediction, use_stemmer)


@pytest.mark.parametrize("use_stemmer", STEMMING)
@PROPERTY
@given(targets=st.lists(str_or_bytes | tiny_vocab_text, min_size=1, max_size=4),
       prediction=str_or_bytes | tiny_vocab_text)
def test_property_score_multi(use_stemmer, targets, prediction):
    compare_score_multi(ALL_TYPES, targets, prediction, use_stemmer)
    compare_score_multi(["rougeLsum"], targets, prediction, use_stemmer)
