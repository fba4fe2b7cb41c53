"""The Porter stemmers against NLTK's ``PorterStemmer()``, compared with ``==``.

Both ``rougekit.porter`` (pure Python) and ``rougekit._core._porter`` (compiled,
with ``StemCache``) must give NLTK's stem for every ``str``.  NLTK's reference
stems for the big inputs are computed once per module and reused.

The compiled module is skipped when the package was installed pure-Python,
unless ``ROUGEKIT_REQUIRE_EXTENSIONS=1``, which makes its absence a failure.
"""
import functools
import importlib
import itertools
import os
import random
import re
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _helpers import examples, sweep

nltk_porter = pytest.importorskip("nltk.stem.porter")

from rougekit import porter  # noqa: E402

pytestmark = pytest.mark.kernel

WORD_LIST = Path("/usr/share/dict/american-english-huge")
DEFAULT_SHARED = Path(__file__).resolve().parents[2] / "shared"
MAX_REPORTED = 20


def _load_compiled():
    if os.environ.get("ROUGEKIT_REQUIRE_EXTENSIONS", "") not in ("", "0"):
        try:
            return importlib.import_module("rougekit._core._porter")
        except ImportError as exc:
            pytest.fail("ROUGEKIT_REQUIRE_EXTENSIONS is set but rougekit._core._porter "
                        "cannot be imported: %s" % exc)
    # What pytest.importorskip does, written out: importorskip would need
    # exc_type=ImportError (pytest >= 8.2) to skip on a module that is found
    # but fails to import without a deprecation warning.
    try:
        return importlib.import_module("rougekit._core._porter")
    except ImportError as exc:
        pytest.skip("compiled rougekit._core._porter not available (pure-Python "
                    "install?): %s" % exc)


@pytest.fixture(scope="module")
def compiled():
    return _load_compiled()


@pytest.fixture(scope="module")
def nltk_stem():
    return nltk_porter.PorterStemmer().stem


@pytest.fixture(scope="module", params=["pure", "compiled"])
def stem(request):
    """Each implementation's ``stem`` function."""
    if request.param == "pure":
        return porter.stem
    return _load_compiled().stem


def _short(word, limit=60):
    text = repr(word)
    return text if len(text) <= limit else text[:limit] + "...(%d chars)" % len(word)


def _assert_same(stem, words, expected):
    """stem(w) == expected[w] for every w, listing the first mismatches."""
    bad = []
    for word in words:
        got = stem(word)
        if got != expected[word]:
            bad.append((word, got, expected[word]))
    assert not bad, "%d of %d words differ from NLTK, e.g.\n%s" % (
        len(bad), len(words), "\n".join(
            "  %s: got %s, NLTK %s" % (_short(w), _short(g), _short(e))
            for w, g, e in bad[:MAX_REPORTED]))


# --------------------------------------------------------------------------
# Large word lists
# --------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _read_dictionary():
    """{"as-is": words, "lowercased": words}, or None if the list is absent."""
    if not WORD_LIST.is_file():
        return None
    words = [w for w in WORD_LIST.read_text(encoding="utf-8").splitlines() if w]
    words = words[::sweep(1, 8)]       # every eighth word for a quick run
    return {"as-is": words, "lowercased": [w.lower() for w in words]}


@functools.lru_cache(maxsize=None)
def _read_corpus_tokens():
    """Distinct tokens of the shared corpus, or None if it is absent."""
    path = _corpus_path()
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    # rouge-score's tokenizer: lowercase, non-[a-z0-9] runs become spaces.
    return tuple(sorted(set(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())))


def _corpus_path():
    root = os.environ.get("ROUGEKIT_SHARED")
    shared = Path(root) if root else DEFAULT_SHARED
    return shared / "corpus" / "lee_background.txt"


@pytest.fixture(scope="module")
def dictionary_words():
    words = _read_dictionary()
    if words is None:
        pytest.skip("%s not found (Debian package wamerican-huge)" % WORD_LIST)
    return words


@pytest.fixture(scope="module")
def dictionary_reference(dictionary_words, nltk_stem):
    """NLTK's stem of every distinct word, as-is and lowercased."""
    distinct = set(dictionary_words["as-is"]) | set(dictionary_words["lowercased"])
    return {w: nltk_stem(w) for w in distinct}


@pytest.mark.parametrize("form", ["lowercased", "as-is"])
def test_dictionary_words(stem, form, dictionary_words, dictionary_reference):
    words = dictionary_words[form]
    assert len(words) > sweep(300_000, 300_000 // 8)
    _assert_same(stem, words, dictionary_reference)


@pytest.fixture(scope="module")
def corpus_tokens():
    tokens = _read_corpus_tokens()
    if tokens is None:
        pytest.skip("shared corpus %s not found: set ROUGEKIT_SHARED or place "
                    "the shared folder at %s" % (_corpus_path(), DEFAULT_SHARED))
    return tokens


@pytest.fixture(scope="module")
def corpus_reference(corpus_tokens, nltk_stem):
    return {w: nltk_stem(w) for w in corpus_tokens}


def test_corpus_tokens(stem, corpus_tokens, corpus_reference):
    assert len(corpus_tokens) > 1000
    _assert_same(stem, corpus_tokens, corpus_reference)


# --------------------------------------------------------------------------
# Edge cases chosen on purpose
# --------------------------------------------------------------------------

class Word(str):
    """A str subclass: NLTK stems it like the plain string."""


EDGE_CASES = [
    # empty and very short: length <= 2 is returned lowercased
    "", "a", "y", "s", "1", "ab", "AB", "is", "as", "ys", "ed", "ss",
    "abc", "ies", "ied", "eed", "ing", "yes", "bye", "ity",
    # digits are consonants
    "abc1ing", "1234ed", "12ing", "0ies", "a1b2c3", "9ational", "x9y9",
    "2nd", "10s", "1990s", "a1ed", "99ies", "3ied",
    # 'y': a consonant at the start and after a vowel, a vowel after a consonant
    "sky", "skies", "syzygy", "yyyy", "yyyyy", "y" * 101, "toy", "toys",
    "enjoy", "enjoyed", "happy", "happily", "spy", "fly", "flying", "yell",
    "ayy", "ayyy", "ysy", "boyy", "daily", "dying", "eyeing",
    # NLTK's irregular forms, also capitalised
    *porter.IRREGULAR_FORMS, "SKY", "Skies", "DYING", "Lying", "NEWS",
    "Innings", "Proceed", "EXCEEDS", "succeeded", "proceeding", "outings's",
    # NLTK rules: ies/ied on four letters, alli, logi, fulli, *o of length 2
    "ties", "dies", "lies", "pies", "flies", "died", "tied", "spied", "cried",
    "agreed", "feed", "bled", "sing", "owed", "owing", "axed", "eying",
    "radically", "radicalli", "analogi", "geology", "theology", "hopefulli",
    "hopefully", "controlling", "rolling", "hopping", "falling", "hissing",
    "fizzed", "filing", "failing", "conflated", "troubled", "sized",
    "generalizations", "relational", "conditional", "valenci", "hesitanci",
    "digitizer", "conformabli", "differentli", "vileli", "analogousli",
    "vietnamization", "predication", "operator", "feudalism", "decisiveness",
    "hopefulness", "callousness", "formaliti", "sensitiviti", "sensibiliti",
    "triplicate", "formative", "formalize", "electriciti", "electrical",
    "hopeful", "goodness", "revival", "allowance", "inference", "airliner",
    "gyroscopic", "adjustable", "defensible", "irritant", "replacement",
    "adjustment", "dependent", "adoption", "homologou", "communism",
    "activate", "angulariti", "homologous", "effective", "bowdlerize",
    "probate", "rate", "cease", "controll", "roll", "ionion", "lion", "onion",
    # NLTK's rule table spells the *d rule as the suffix "*d"
    "fa*ded", "fa*ding", "x*ded", "a*d", "aa*dd", "*ded", "**ded",
    # not [a-z0-9]: apostrophes, punctuation, spaces, capitals
    "don't", "o'clock", "rock'n'roll", "e-mail", "co-operation", "U.S.A.",
    "New York", " running ", "RUNNING", "Running", "\tties\n", "ab\x00cd",
    # non-ASCII; "İ" lowercases to two characters ("i" + combining dot), and
    # NLTK tests the length before lowercasing: "İs" is not stemmed
    "café", "cafés", "naïve", "naïvely", "İstanbul", "İ", "İs", "İİ",
    "İİİ", "Iİs", "ÉTÉS", "straße", "STRASSE", "ﬂies", "ǅungla", "σίσυφος",
    "日本語", "emoji😀ing", "\u0130ties", "ꭰies", "ies\u0301", "\ud800ies",
    # str subclass
    Word("running"), Word("Skies"),
]

LONG_WORDS = [
    "a" * 100_000, "y" * 100_000, "ay" * 50_000, "ya" * 50_000,
    "b" * 100_000, "z" * 99_997 + "ing", "ab" * 50_000 + "ational",
    "x" * 100_000 + "ies", "e" * 100_000 + "ed", "l" * 100_000,
    "1" * 100_000 + "ing", "A" * 100_000, "é" * 100_000 + "ing",
    "nat" + "ional" * 20_000, "y" * 99_999 + "ing",
]

# A few stems written out, so that a change in NLTK itself is noticed too.
KNOWN_STEMS = {
    "running": "run", "happiness": "happi", "dying": "die", "skies": "sky",
    "ties": "tie", "spied": "spi", "happy": "happi", "enjoy": "enjoy",
    "syzygy": "syzygi", "yyyy": "yyyi", "abc1ing": "abc1", "1234ed": "1234ed",
    "agreed": "agre", "feed": "feed", "owed": "owe", "filing": "file",
    "generalizations": "gener", "controlling": "control",
    "geology": "geolog", "fa*ded": "fad", "İs": "i\u0307s", "RUNNING": "run",
    "": "",
}


def test_edge_cases(stem, nltk_stem):
    _assert_same(stem, EDGE_CASES, {w: nltk_stem(w) for w in EDGE_CASES})


def test_long_words(stem, nltk_stem):
    _assert_same(stem, LONG_WORDS, {w: nltk_stem(w) for w in LONG_WORDS})


def test_all_short_words(stem, nltk_stem):
    """Every word of 1 to 3 characters over a small alphabet."""
    alphabet = "abeilnosuyz19"
    words = ["".join(chars) for n in (1, 2, 3)
             for chars in itertools.product(alphabet, repeat=n)]
    _assert_same(stem, words, {w: nltk_stem(w) for w in words})


def test_known_stems(stem, nltk_stem):
    for word, expected in KNOWN_STEMS.items():
        assert nltk_stem(word) == expected, word
        assert stem(word) == expected, word


def test_non_str_raises_like_nltk(stem, nltk_stem):
    with pytest.raises(TypeError):
        nltk_stem(b"running")
    with pytest.raises(TypeError):
        stem(b"running")


def _examples(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@_examples(examples(1000))
@given(word=st.text(alphabet="abcdeilnorstuvwyz0129", max_size=16))
def test_random_ascii_words(stem, nltk_stem, word):
    assert stem(word) == nltk_stem(word)


@_examples(examples(1000))
@given(word=st.text(max_size=16))
def test_random_unicode_text(stem, nltk_stem, word):
    assert stem(word) == nltk_stem(word)


@_examples(examples(300))
@given(word=st.from_regex(r"[a-z0-9]{0,6}(ational|tional|ization|alli|logi|"
                          r"fulli|ousli|ement|ies|ied|eed|ing|ed|ion|ll|e|y)",
                          fullmatch=True))
def test_random_suffixed_words(stem, nltk_stem, word):
    assert stem(word) == nltk_stem(word)


# --------------------------------------------------------------------------
# The pure module itself, and StemCache
# --------------------------------------------------------------------------

def test_porter_api():
    # (The docstring examples run in test_doctests.py, as every module's.)
    stemmer = porter.PorterStemmer()
    assert stemmer.stem("Connections") == porter.stem("Connections") == "connect"


@pytest.fixture(scope="module")
def cache_words():
    """A mix of corpus tokens, dictionary words (lowercased and as-is, so the
    fallback is exercised) and the edge cases, with repeats."""
    rng = random.Random(20240501)
    dictionary = _read_dictionary() or {"as-is": [], "lowercased": []}
    lowered, as_is = dictionary["lowercased"], dictionary["as-is"]
    words = (list(_read_corpus_tokens() or ())
             + rng.sample(lowered, min(20_000, len(lowered)))
             + rng.sample(as_is, min(5_000, len(as_is)))
             + [w for w in EDGE_CASES if type(w) is str])
    words += rng.sample(words, len(words) // 2)
    rng.shuffle(words)
    return words


def test_stem_cache_matches_function(compiled, cache_words):
    cache = compiled.StemCache()
    first = [cache.stem(w) for w in cache_words]
    second = [cache.stem(w) for w in cache_words]       # now from the memo
    expected = [compiled.stem(w) for w in cache_words]
    assert first == expected
    assert second == expected
    assert len(cache) == len(set(cache_words))
    assert cache.stem(Word("Skies")) == "sky"           # not cached, still right
    assert len(cache) == len(set(cache_words)) + ("Skies" not in cache_words)
    cache.clear()
    assert len(cache) == 0
    assert cache.stem("hopping") == "hop"


@pytest.mark.threads
def test_stem_cache_threads(compiled, cache_words):
    """Eight threads hammer one fresh cache on the same words at once."""
    expected = [compiled.stem(w) for w in cache_words]
    cache = compiled.StemCache()
    n_threads = 8
    barrier = threading.Barrier(n_threads)
    results = [None] * n_threads
    errors = []

    def work(k):
        try:
            # Half the threads go forwards, half backwards, so that both hits
            # and concurrent misses on the same word happen.
            order = cache_words if k % 2 == 0 else cache_words[::-1]
            barrier.wait()
            out = [cache.stem(w) for w in order]
            results[k] = out if k % 2 == 0 else out[::-1]
        except BaseException as exc:  # reported below
            errors.append(exc)

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)                         # switch threads often
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(n_threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old_interval)
    assert not errors, errors
    for k, out in enumerate(results):
        assert out == expected, "thread %d differs from the serial result" % k
    assert len(cache) == len(set(cache_words))


def test_empty_stem_cache_is_truthy(compiled):
    # rouge-score's tokenize() stems only `if stemmer:`; an empty cache that
    # were falsy (it has __len__) would silently switch stemming off.
    assert bool(compiled.StemCache())
