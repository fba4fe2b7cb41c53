"""Porter stemmer giving exactly the stems of NLTK's ``PorterStemmer()``.

rouge-score stems tokens with ``nltk.stem.porter.PorterStemmer()`` in its
default ``NLTK_EXTENSIONS`` mode.  To reproduce its scores rougekit must
produce the very same stems, but without importing nltk at run time.  This
module is a from-scratch implementation of that exact variant, written to be
read as its specification.  ``_porter`` is a compiled version of the
same algorithm for plain lowercase ASCII words and falls back on this module
for everything else.

    >>> stem("running"), stem("happiness"), stem("dying"), stem("Skies")
    ('run', 'happi', 'die', 'sky')

The algorithm
=============

Martin Porter, "An algorithm for suffix stripping", Program 14(3), 1980,
followed by NLTK's changes to it.  Everything below works on ``word.lower()``.

Letters.  ``a e i o u`` are vowels.  A ``y`` is a vowel when the letter just
before it is a consonant and a consonant otherwise (also at the start of a
word); so in "toy" the ``y`` is a consonant, in "syzygy" every ``y`` is a
vowel.  Every other character -- other letters, digits, punctuation,
accented letters -- is a consonant.

Measure.  ``m(s)`` is the number of times a vowel is directly followed by a
consonant in ``s``: m("tree") = 0, m("trouble") = 1, m("private") = 2.

Conditions used by the rules:

* *v*  -- the stem contains a vowel;
* *d   -- the stem ends with two equal letters, the last being a consonant;
* *o   -- the stem ends consonant-vowel-consonant and the last letter is not
  ``w``, ``x`` or ``y``; NLTK also accepts a stem of exactly two letters
  that is vowel-consonant (any consonant, ``w``/``x``/``y`` included).

Each step looks for the *first* rule, in the listed order, whose suffix ends
the word.  Only that rule is considered: if its condition fails the word is
left as it is and later rules of the same step are not tried.

Before any step: words listed in :data:`IRREGULAR_FORMS` map straight to their
stem, and a word that had at most two characters *before* lowercasing is
returned lowercased and otherwise unchanged.

Step 1a  ``ies`` -> ``ie`` if the word has four letters ("ties" -> "tie");
otherwise ``sses`` -> ``ss``, ``ies`` -> ``i``, ``ss`` stays, ``s`` -> "".

Step 1b  ``ied`` -> ``ie`` for a four-letter word, else ``ied`` -> ``i``;
``eed`` -> ``ee`` if m(stem) > 0; ``ed`` or ``ing`` is removed if what is
left has a vowel, and then the remaining stem is tidied: ``at``/``bl``/``iz``
get an ``e``; a double consonant other than ``ll``, ``ss``, ``zz`` loses one
letter; a stem with m = 1 and *o gets an ``e``.

Step 1c  a final ``y`` becomes ``i`` if the letter before it is a consonant
and is not the first letter of the word ("happy" -> "happi", "sky" stays).

Step 2   (m(stem) > 0) ``ational``->``ate``, ``tional``->``tion``,
``enci``->``ence``, ``anci``->``ance``, ``izer``->``ize``, ``bli``->``ble``,
``alli``->``al``, ``entli``->``ent``, ``eli``->``e``, ``ousli``->``ous``,
``ization``->``ize``, ``ation``->``ate``, ``ator``->``ate``, ``alism``->``al``,
``iveness``->``ive``, ``fulness``->``ful``, ``ousness``->``ous``,
``aliti``->``al``, ``iviti``->``ive``, ``biliti``->``ble``,
``fulli``->``ful``, ``logi``->``log`` (for ``logi`` the ``l`` counts as part
of the stem when measuring).  NLTK first tries ``alli`` -> ``al`` on its own
and, when that applies, runs the rules above on the result.

Step 3   (m(stem) > 0) ``icate``->``ic``, ``ative``->"", ``alize``->``al``,
``iciti``->``ic``, ``ical``->``ic``, ``ful``->"", ``ness``->"".

Step 4   (m(stem) > 1) remove ``al``, ``ance``, ``ence``, ``er``, ``ic``,
``able``, ``ible``, ``ant``, ``ement``, ``ment``, ``ent``, ``ion`` (only after
``s`` or ``t``), ``ou``, ``ism``, ``ate``, ``iti``, ``ous``, ``ive``, ``ize``.

Step 5a  a final ``e`` is removed if m(stem) > 1, or if m(stem) = 1 and not
*o.  (Unlike the other steps both conditions are tried.)

Step 5b  a final ``ll`` becomes ``l`` if m(word without its last letter) > 1.

Quirk kept for exact parity: NLTK writes the *d rule of step 1b as a rule
whose suffix is the two characters ``*d``.  When the stem does not end in a
double consonant NLTK goes on to test that marker as an ordinary suffix, so a
stem that really ends in ``"*d"`` has its ``*`` removed ("fa*ded" -> "fad").
Only words containing ``*`` are affected.
"""

from __future__ import annotations

__all__ = ["IRREGULAR_FORMS", "PorterStemmer", "StemCache", "stem"]

#: Words NLTK maps straight to a fixed stem, bypassing all the steps.
IRREGULAR_FORMS: dict[str, str] = {
    "sky": "sky",
    "skies": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    "innings": "inning",
    "inning": "inning",
    "outings": "outing",
    "outing": "outing",
    "cannings": "canning",
    "canning": "canning",
    "howe": "howe",
    "proceed": "proceed",
    "exceed": "exceed",
    "succeed": "succeed",
}

_VOWELS = frozenset("aeiou")


# --------------------------------------------------------------------------
# Letter classes, measure and the conditions *v*, *d, *o
# --------------------------------------------------------------------------

def _consonant_flags(word: str) -> list[bool]:
    """``flags[i]`` is True when ``word[i]`` is a consonant (one pass)."""
    flags: list[bool] = []
    previous_is_consonant = False
    for i, ch in enumerate(word):
        if ch in _VOWELS:
            is_consonant = False
        elif ch == "y":
            is_consonant = i == 0 or not previous_is_consonant
        else:
            is_consonant = True
        flags.append(is_consonant)
        previous_is_consonant = is_consonant
    return flags


def _is_consonant(word: str, i: int) -> bool:
    """Whether ``word[i]`` (``0 <= i < len(word)``) is a consonant.

    A ``y`` is the opposite of the letter before it, so walk back over a run
    of ``y`` and flip the answer once per ``y`` passed; a ``y`` at the very
    start counts as a consonant.
    """
    flip = False
    while i > 0 and word[i] == "y":
        flip = not flip
        i -= 1
    return (word[i] not in _VOWELS) != flip


def _measure(stem: str) -> int:
    """m(stem): how many times a vowel is directly followed by a consonant."""
    m = 0
    previous_is_consonant = True
    for is_consonant in _consonant_flags(stem):
        if is_consonant and not previous_is_consonant:
            m += 1
        previous_is_consonant = is_consonant
    return m


def _contains_vowel(stem: str) -> bool:
    """Condition *v*."""
    return not all(_consonant_flags(stem))


def _ends_double_consonant(stem: str) -> bool:
    """Condition *d."""
    return (len(stem) >= 2 and stem[-1] == stem[-2]
            and _is_consonant(stem, len(stem) - 1))


def _ends_cvc(stem: str) -> bool:
    """Condition *o, with NLTK's two-letter vowel-consonant extension."""
    n = len(stem)
    if n >= 3:
        return (_is_consonant(stem, n - 3)
                and not _is_consonant(stem, n - 2)
                and _is_consonant(stem, n - 1)
                and stem[-1] not in "wxy")
    if n == 2:
        return not _is_consonant(stem, 0) and _is_consonant(stem, 1)
    return False


def _first_rule(word: str, rules: tuple[tuple[str, str], ...],
                min_measure: int) -> str:
    """Apply the first rule whose suffix ends ``word``.

    The replacement is made when m(stem) > ``min_measure``; otherwise the
    word is returned unchanged and no later rule is tried.
    """
    for suffix, replacement in rules:
        if word.endswith(suffix):
            stem = word[:len(word) - len(suffix)]
            if _measure(stem) > min_measure:
                return stem + replacement
            return word
    return word


# --------------------------------------------------------------------------
# The steps
# --------------------------------------------------------------------------

def _step1a(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:
        return word[:-1]                    # "ties" -> "tie"
    if word.endswith("sses"):
        return word[:-2]                    # "caresses" -> "caress"
    if word.endswith("ies"):
        return word[:-2]                    # "ponies" -> "poni"
    if word.endswith("ss"):
        return word                         # "caress" stays
    if word.endswith("s"):
        return word[:-1]                    # "cats" -> "cat"
    return word


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        # "died" -> "die", "spied" -> "spi"
        return word[:-3] + ("ie" if len(word) == 4 else "i")

    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word   # "agreed", "feed"

    for suffix in ("ed", "ing"):
        if word.endswith(suffix):
            stem = word[:len(word) - len(suffix)]
            if _contains_vowel(stem):
                break
    else:
        return word                          # "bled", "sing" stay

    # "ed" or "ing" was removed; tidy up what is left.
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"                    # "conflat" -> "conflate"
    if _ends_double_consonant(stem):
        if stem[-1] in "lsz":
            return stem                      # "fall", "hiss", "fizz"
        return stem[:-1]                     # "hopp" -> "hop"
    if stem.endswith("*d"):
        return stem[:-2] + "d"               # NLTK's literal "*d" (see above)
    if _measure(stem) == 1 and _ends_cvc(stem):
        return stem + "e"                    # "fil" -> "file"
    return stem


def _step1c(word: str) -> str:
    if word.endswith("y"):
        stem = word[:-1]
        if len(stem) > 1 and _is_consonant(stem, len(stem) - 1):
            return stem + "i"               # "happy" -> "happi"
    return word


_STEP2_RULES = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"),
    ("anci", "ance"), ("izer", "ize"), ("bli", "ble"), ("alli", "al"),
    ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
    ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"),
    ("iviti", "ive"), ("biliti", "ble"), ("fulli", "ful"),
)


def _step2(word: str) -> str:
    if word.endswith("alli") and _measure(word[:-4]) > 0:
        word = word[:-2]                     # "alli" -> "al", then the rules
    for suffix, replacement in _STEP2_RULES:
        if word.endswith(suffix):
            stem = word[:len(word) - len(suffix)]
            return stem + replacement if _measure(stem) > 0 else word
    if word.endswith("logi"):
        # The "l" stays with the stem when measuring: "geologi" -> "geolog".
        if _measure(word[:-3]) > 0:
            return word[:-1]
    return word


_STEP3_RULES = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"),
    ("ical", "ic"), ("ful", ""), ("ness", ""),
)


def _step3(word: str) -> str:
    return _first_rule(word, _STEP3_RULES, 0)


_STEP4_SUFFIXES = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
    "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
)


def _step4(word: str) -> str:
    for suffix in _STEP4_SUFFIXES:
        if word.endswith(suffix):
            stem = word[:len(word) - len(suffix)]
            if _measure(stem) <= 1:
                return word
            if suffix == "ion" and not stem.endswith(("s", "t")):
                return word                  # "ion" only after s or t
            return stem
    return word


def _step5a(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _ends_cvc(stem)):
            return stem                      # "probate" -> "probat"
    return word


def _step5b(word: str) -> str:
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        return word[:-1]                     # "controll" -> "control"
    return word


_STEPS = (_step1a, _step1b, _step1c, _step2, _step3, _step4, _step5a, _step5b)


class PorterStemmer:
    """Stem words exactly as ``nltk.stem.porter.PorterStemmer().stem`` does.

    rouge-score stems with NLTK's Porter stemmer in its default mode; this
    class gives identical stems for every ``str`` without importing nltk.

        >>> PorterStemmer().stem("Generalizations")
        'gener'
    """

    # Public as rougekit.porter.PorterStemmer: pickles name that path, which
    # the layout of rougekit._core cannot move.
    __module__ = "rougekit.porter"

    def stem(self, word: str) -> str:
        """Return the stem of ``word`` (lowercased first, as NLTK does)."""
        lowered = word.lower()
        irregular = IRREGULAR_FORMS.get(lowered)
        if irregular is not None:
            return irregular
        # NLTK tests the length of the word as given, not of its lowercase
        # form; the two differ for e.g. "İ", which lowercases to 2 characters.
        if len(word) <= 2:
            return lowered
        for step in _STEPS:
            lowered = step(lowered)
        return lowered

    def __repr__(self) -> str:
        return "<rougekit.porter.PorterStemmer>"


_SHARED = PorterStemmer()


def stem(word: str) -> str:
    """Stem ``word`` exactly as NLTK's default ``PorterStemmer`` does.

        >>> stem("connections")
        'connect'
    """
    return _SHARED.stem(word)


class StemCache:
    """A memo of stems (``_porter.StemCache``'s twin).

        >>> cache = StemCache()
        >>> cache.stem("hopping"), cache.stem("hopping"), len(cache)
        ('hop', 'hop', 1)

    A dict's single get and set are atomic, so one cache may serve many
    threads (two threads missing on one word both store the same stem).
    Words that are not exact ``str`` are stemmed without being cached. A
    cache pickles (and copies) as a new, empty one of the kernel in use
    (``rougekit._backend`` registers how).
    """

    __slots__ = ("_stems",)

    def __init__(self) -> None:
        self._stems: dict[str, str] = {}

    def stem(self, word: str) -> str:
        """Stem ``word`` (same result as :func:`stem`), memoised."""
        if type(word) is not str:
            return _SHARED.stem(word)
        cached = self._stems.get(word)
        if cached is None:
            cached = self._stems[word] = _SHARED.stem(word)
        return cached

    def __len__(self) -> int:
        return len(self._stems)

    def __bool__(self) -> bool:
        # rouge-score's tokenize() tests ``if stemmer:``; an empty cache must
        # still count as a stemmer.
        return True

    def clear(self) -> None:
        """Forget every cached stem."""
        self._stems.clear()
