"""rougekit.tokenize / rougekit.tokenizers tokenize exactly as rouge-score.

tokenize.tokenize(text, stemmer) and DefaultTokenizer(use_stemmer).tokenize
on edge cases, str and bytes, with and without a stemmer (nltk's Porter
stemmer and custom stemmer objects), and on hypothesis-generated text; the
Porter stemmer on dictionary words and news text; the Tokenizer ABC.
"""
import inspect
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.stem import porter
from rouge_score import tokenize as ref_tokenize
from rouge_score import tokenizers as ref_tokenizers

from _helpers import examples, shared_dir, short
from rougekit import tokenize as kit_tokenize
from rougekit import tokenizers as kit_tokenizers

pytestmark = [pytest.mark.backend, pytest.mark.simd]

NLTK_PORTER = porter.PorterStemmer()

TEXTS = [
    ("empty", ""),
    ("spaces", "   "),
    ("whitespace-mix", "\t\n\r\x0b\x0c \u00a0\u2003\u2028\x85"),
    ("punct-only", "...!?,;:'\"()[]{}<>/\\|@#$%^&*-_=+~`"),
    ("newlines", "\n\nthe\ncat\n\n"),
    ("crlf", "the cat\r\nsat on\r\n\r\nthe mat"),
    ("sentence", "The quick brown fox jumps over the lazy dog."),
    ("repeats", "the the the THE The"),
    ("digits", "In 2019, 3,000 people paid $4.50 for 1st-class x2 mp3s"),
    ("mixed-case", "CamelCase UPPER lower MiXeD"),
    ("apostrophes", "don't can't it's O'Brien rock'n'roll"),
    ("hyphens-underscores", "state-of-the-art snake_case --flag"),
    ("cyrillic", "Кот сидел на ковре"),
    ("cjk", "猫が座った 東京 2020"),
    ("accented", "café naïve résumé Ångström"),
    ("emoji", "I \u2764\ufe0f \U0001F642 pizza \U0001F355\U0001F1FA\U0001F1F8"),
    ("sharp-s", "Straße STRASSE ẞ"),
    ("combining", "e\u0301te cafe\u0301 n\u0303"),
    ("non-ascii-digits", "\u0663\u0664 \u00b2 \u2155 \uff11 3"),
    ("fullwidth", "\uff21\uff22\uff23 \uff41\uff42\uff43 abc"),
    ("dotted-capital-i", "\u0130stanbul \u0130 I\u0307"),
    ("kelvin-sign", "5 \u212a \u212aelvin"),
    ("nul", "a\x00b\x00"),
    ("lone-surrogate", "a\ud800b \udfff c"),
    ("long-token", "x" * 5000),
    ("y-run", "y" * 3000 + " yyyy syzygy toy"),
    ("porter-irregular", "skies dying lying tying news innings outings cannings "
                         "howe proceed exceed succeed sky"),
    ("porter-paper", "caresses ponies ties caress cats feed agreed plastered bled "
                     "motoring sing conflated troubled sized hopping tanned falling "
                     "hissing fizzed failing filing happy relational conditional "
                     "rational valenci hesitanci digitizer conformabli radicalli "
                     "differentli vileli analogousli vietnamization predication "
                     "operator feudalism decisiveness hopefulness callousness "
                     "formaliti sensitiviti sensibiliti triplicate formative "
                     "formalize electriciti electrical hopeful goodness revival "
                     "allowance inference airliner gyroscopic adjustable defensible "
                     "irritant replacement adjustment dependent adoption homologou "
                     "communism activate angulariti homologous effective bowdlerize "
                     "probate rate cease controll roll generalizations oscillators"),
    ("short-words", "a an the was has its this does is as us"),
    ("words-with-digits", "1990s 4x4s covid19 abc123ing 2nd 3rd 100ths"),
]
TEXT_PARAMS = [pytest.param(t, id=i) for i, t in TEXTS]
BYTES_PARAMS = [pytest.param(t.encode("utf-8"), id="bytes-" + i)
                for i, t in TEXTS if i != "lone-surrogate"]


def assert_same_tokens(ours, theirs, text):
    assert ours == theirs, "tokens differ for %s" % short(text)
    assert type(ours) is list, "rougekit returned %s, not list" % type(ours)
    assert [type(t) for t in ours] == [type(t) for t in theirs]


def _outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except Exception as exc:  # the exception type is the outcome
        return "raises", type(exc)


@pytest.mark.parametrize("text", TEXT_PARAMS + BYTES_PARAMS)
def test_tokenize_no_stemmer(text):
    assert_same_tokens(kit_tokenize.tokenize(text, None),
                       ref_tokenize.tokenize(text, None), text)


@pytest.mark.parametrize("text", TEXT_PARAMS + BYTES_PARAMS)
def test_tokenize_nltk_porter_stemmer(text):
    assert_same_tokens(kit_tokenize.tokenize(text, NLTK_PORTER),
                       ref_tokenize.tokenize(text, NLTK_PORTER), text)


@pytest.mark.parametrize("use_stemmer", [
    pytest.param(False, id="False"), pytest.param(True, id="True"),
    pytest.param(0, id="0"), pytest.param(1, id="1"), pytest.param("", id="empty-str"),
])
@pytest.mark.parametrize("text", TEXT_PARAMS + BYTES_PARAMS)
def test_default_tokenizer(text, use_stemmer):
    ours = kit_tokenizers.DefaultTokenizer(use_stemmer).tokenize(text)
    theirs = ref_tokenizers.DefaultTokenizer(use_stemmer).tokenize(text)
    assert_same_tokens(ours, theirs, text)


def test_default_tokenizer_keyword_argument():
    text = "The runners were running"
    assert_same_tokens(
        kit_tokenizers.DefaultTokenizer(use_stemmer=True).tokenize(text),
        ref_tokenizers.DefaultTokenizer(use_stemmer=True).tokenize(text), text)
    assert_same_tokens(kit_tokenizers.DefaultTokenizer().tokenize(text),
                       ref_tokenizers.DefaultTokenizer().tokenize(text), text)


@pytest.mark.parametrize("data", [
    pytest.param(b"\xff\xfe", id="invalid-start"),
    pytest.param(b"abc \xc3", id="truncated"),
    pytest.param(b"\xed\xa0\x80", id="encoded-surrogate"),
])
def test_invalid_utf8_bytes_raise_like_rouge_score(data):
    expected = _outcome(ref_tokenize.tokenize, data, None)
    assert expected == ("raises", UnicodeDecodeError)
    assert _outcome(kit_tokenize.tokenize, data, None) == expected
    assert _outcome(kit_tokenizers.DefaultTokenizer().tokenize, data) == expected


# ---------------------------------------------------------------------------
# Custom stemmer objects passed to tokenize.tokenize
# ---------------------------------------------------------------------------


class UpperStemmer:
    """Invalid output: rouge-score drops the token."""

    def stem(self, word):
        return word.upper()


class BytesStemmer:
    """bytes output: rouge-score decodes it (six.ensure_str)."""

    def stem(self, word):
        return word[:4].encode("ascii")


class TruncatingStemmer:
    def stem(self, word):
        return word[:3]


class SpaceStemmer:
    """A stem with a space in it fails the final ^[a-z0-9]+$ check."""

    def stem(self, word):
        return word[:2] + " " + word[2:]


class EmptyStemmer:
    def stem(self, word):
        return ""


class TrailingNewlineStemmer:
    """'$' also matches before a final newline, so rouge-score keeps 'abc\\n'."""

    def stem(self, word):
        return word[:3] + "\n"


class FalsyStemmer:
    """rouge-score tests ``if stemmer:``; this one is never called."""

    def __bool__(self):
        return False

    def stem(self, word):
        return "zzz"


STEMMERS = [pytest.param(cls(), id=cls.__name__) for cls in (
    UpperStemmer, BytesStemmer, TruncatingStemmer, SpaceStemmer, EmptyStemmer,
    TrailingNewlineStemmer, FalsyStemmer)]


@pytest.mark.parametrize("stemmer", STEMMERS)
@pytest.mark.parametrize("text", [
    pytest.param("The quick brown fox jumps over the lazy dog 2019 abcd", id="str"),
    pytest.param(b"Running runners RAN 1990s", id="bytes"),
    pytest.param("a an the this", id="short-words"),
])
def test_tokenize_custom_stemmer(text, stemmer):
    assert_same_tokens(kit_tokenize.tokenize(text, stemmer),
                       ref_tokenize.tokenize(text, stemmer), text)


# ---------------------------------------------------------------------------
# Porter stemming through DefaultTokenizer(use_stemmer=True)
# ---------------------------------------------------------------------------


def _assert_stems_match(words, label):
    """Compare stemmed tokenization of many words; name the words that differ."""
    text = " ".join(words)
    ours = kit_tokenizers.DefaultTokenizer(True).tokenize(text)
    theirs = ref_tokenizers.DefaultTokenizer(True).tokenize(text)
    if ours == theirs:
        return
    kit_one = kit_tokenizers.DefaultTokenizer(True)
    ref_one = ref_tokenizers.DefaultTokenizer(True)
    bad = [(w, kit_one.tokenize(w), ref_one.tokenize(w)) for w in words
           if kit_one.tokenize(w) != ref_one.tokenize(w)]
    pytest.fail("%s: %d words stem differently, e.g. (word, rougekit, rouge-score):\n%s"
                % (label, len(bad), "\n".join(map(repr, bad[:20]))))


DICT_WORDS = "/usr/share/dict/words"


@pytest.mark.skipif(not os.path.exists(DICT_WORDS), reason="no %s" % DICT_WORDS)
def test_porter_dictionary_words():
    with open(DICT_WORDS, encoding="utf-8", errors="replace") as f:
        words = f.read().split()
    _assert_stems_match(words[::5], DICT_WORDS)


def test_porter_news_corpus_words():
    folder = shared_dir()
    if folder is None:
        pytest.skip("shared corpus folder not found")
    with open(folder / "corpus" / "lee_background.txt", encoding="utf-8") as f:
        text = f.read()
    words = sorted(set(ref_tokenize.tokenize(text, None)))
    _assert_stems_match(words, "lee_background.txt vocabulary")
    assert_same_tokens(kit_tokenizers.DefaultTokenizer(True).tokenize(text),
                       ref_tokenizers.DefaultTokenizer(True).tokenize(text),
                       "lee_background.txt")


SUFFIXES = ["", "s", "es", "ies", "sses", "ss", "ed", "eed", "ing", "ly", "y", "e",
            "ational", "tional", "enci", "anci", "izer", "bli", "abli", "alli",
            "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness",
            "fulness", "ousness", "aliti", "iviti", "biliti", "logi", "fulli",
            "lessli", "icate", "ative", "alize", "iciti", "ical", "ful", "ness",
            "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
            "ent", "ion", "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive",
            "ize", "ll", "at", "bl", "iz", "eing", "ying", "ied", "ings"]

stem_part = st.text(alphabet="abcdeilmnorstuvyz", min_size=1, max_size=7)
word = st.builds(lambda s, x, y: s + x + y, stem_part,
                 st.sampled_from(SUFFIXES), st.sampled_from(SUFFIXES))
ascii_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1,
                     max_size=12)

PROPERTY = settings(max_examples=examples(300), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(words=st.lists(word | ascii_word, min_size=1, max_size=20))
def test_property_porter_words(words):
    text = " ".join(words)
    assert_same_tokens(kit_tokenizers.DefaultTokenizer(True).tokenize(text),
                       ref_tokenizers.DefaultTokenizer(True).tokenize(text), text)
    assert_same_tokens(kit_tokenize.tokenize(text, NLTK_PORTER),
                       ref_tokenize.tokenize(text, NLTK_PORTER), text)


# ---------------------------------------------------------------------------
# Property tests on arbitrary text, str and bytes
# ---------------------------------------------------------------------------

PIECES = ["the", "The", "RUNNING", "flies", "1990s", "x2", "кот", "猫", "café",
          "\u0130", "\u212a", "ß", "\u0663", "e\u0301", "\U0001F642", " ", "\n",
          "\t", "\r\n", ".", "-", "'", "_", "\u00a0", "\x00"]
piece_text = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
any_text = piece_text | st.text(max_size=40)
surrogate_text = st.lists(st.sampled_from(["a", " ", "\ud800", "\udfff", "b\udc00c"]),
                          max_size=10).map("".join)


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@PROPERTY
@given(text=any_text | surrogate_text)
def test_property_tokenize_str(use_stemmer, text):
    assert_same_tokens(kit_tokenizers.DefaultTokenizer(use_stemmer).tokenize(text),
                       ref_tokenizers.DefaultTokenizer(use_stemmer).tokenize(text), text)
    stemmer = NLTK_PORTER if use_stemmer else None
    assert_same_tokens(kit_tokenize.tokenize(text, stemmer),
                       ref_tokenize.tokenize(text, stemmer), text)


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@PROPERTY
@given(data=any_text.map(lambda s: s.encode("utf-8")) | st.binary(max_size=30))
def test_property_tokenize_bytes(use_stemmer, data):
    # arbitrary bytes may be invalid UTF-8: then both must raise the same type
    expected = _outcome(ref_tokenizers.DefaultTokenizer(use_stemmer).tokenize, data)
    ours = _outcome(kit_tokenizers.DefaultTokenizer(use_stemmer).tokenize, data)
    assert ours == expected, "for %s" % short(data)
    if expected[0] == "ok":
        assert_same_tokens(ours[1], expected[1], data)


# ---------------------------------------------------------------------------
# The Tokenizer ABC
# ---------------------------------------------------------------------------


def test_tokenizer_is_abstract_base_class():
    Tokenizer = kit_tokenizers.Tokenizer
    assert inspect.isabstract(Tokenizer)
    assert "tokenize" in Tokenizer.__abstractmethods__
    with pytest.raises(TypeError):
        Tokenizer()


def test_default_tokenizer_subclasses_tokenizer():
    assert issubclass(kit_tokenizers.DefaultTokenizer, kit_tokenizers.Tokenizer)
    assert isinstance(kit_tokenizers.DefaultTokenizer(), kit_tokenizers.Tokenizer)
    assert isinstance(kit_tokenizers.DefaultTokenizer(True), kit_tokenizers.Tokenizer)


def test_tokenizer_subclass_must_override_tokenize():
    class Incomplete(kit_tokenizers.Tokenizer):
        pass

    class Complete(kit_tokenizers.Tokenizer):
        def tokenize(self, text):
            return text.split()

    with pytest.raises(TypeError):
        Incomplete()
    assert Complete().tokenize("a b") == ["a", "b"]
