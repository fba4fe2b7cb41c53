"""Named tokenizers for every language, usable wherever rougekit takes one.

Each is a class with a ``name`` (recorded in score signatures) and
``tokenize(text) -> list of str``; any of them can be passed as
``RougeScorer(..., tokenizer=...)``. ``get_tokenizer`` resolves a name.

Which tokenizer for which language:

=====================  =====================================================
``"rouge-score"``      English, as rouge-score (and so every published
                       rouge-score number): lowercased ASCII letters and
                       digits only. Every other letter is dropped, so it
                       scores Chinese, Russian, Arabic, Hindi... text zero,
                       and French or German words lose their accented
                       letters. ``"rouge-score+porter"`` adds Porter
                       stemming (English only).
``"whitespace"``       text that is already tokenized (space-separated), or
                       tools defined on whitespace tokens (``rouge_1_score``,
                       ``RougeScoreEvaluator``);
                       punctuation stays attached to words.
                       ``"whitespace-lower"`` also lowercases.
``"unicode"``          any language written with spaces between words:
                       Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari and
                       the other Indic scripts, Korean; and Chinese and
                       Japanese, whose ideographs and kana become one token
                       each (character-level ROUGE, the usual choice for
                       them, with no segmenter to install).
``"char"``             languages written without spaces and without
                       ideographs (Thai, Lao, Khmer, Burmese), where
                       ``"unicode"`` would make one token of a whole phrase;
                       or character-level ROUGE for any text.
``"pltrdy"``,          the words of the ``rouge`` (pltrdy) and ``rouge-chinese``
``"rouge-chinese"``    packages: space-separated words of their sentences,
                       case and punctuation kept (``SentenceWordsTokenizer``).
``"rouge155"``         ROUGE-1.5.5.pl's tokens (``Rouge155Tokenizer``);
                       ``use_stemmer`` adds its WordNet + Porter stemmer.
=====================  =====================================================

>>> UnicodeWordTokenizer().tokenize("Привет, мир! 東京タワー")
['привет', 'мир', '東', '京', 'タ', 'ワ', 'ー']
"""
import unicodedata
from bisect import bisect_right
from typing import Any

from rougekit._spelling import option
from rougekit.tokenizers import DefaultTokenizer, Tokenizer

__all__ = ["RougeScoreTokenizer", "WhitespaceTokenizer", "UnicodeWordTokenizer",
           "CharTokenizer", "SentenceWordsTokenizer", "Rouge155Tokenizer", "get_tokenizer",
           "TOKENIZER_NAMES"]


class RougeScoreTokenizer(DefaultTokenizer):
    """rouge-score's default tokenizer, with a name: ``[a-z0-9]+`` runs of
    the lowercased text; with ``use_stemmer`` words longer than 3 characters
    are Porter-stemmed.

    A subclass of ``rougekit.tokenizers.DefaultTokenizer``, so ``RougeScorer``
    treats it exactly as its default.

    >>> RougeScoreTokenizer(use_stemmer=True).tokenize("The cats were running!")
    ['the', 'cat', 'were', 'run']
    """

    def __init__(self, use_stemmer=False):
        super().__init__(use_stemmer)
        self.use_stemmer = bool(use_stemmer)
        self.name = "rouge-score+porter" if use_stemmer else "rouge-score"

    def __repr__(self):
        return f"RougeScoreTokenizer(use_stemmer={self.use_stemmer})"


class WhitespaceTokenizer(Tokenizer):
    """``text.split()``: runs of non-whitespace characters, punctuation kept.

    >>> WhitespaceTokenizer().tokenize("The cat sat.")
    ['The', 'cat', 'sat.']
    >>> WhitespaceTokenizer(lowercase=True).tokenize("The cat sat.")
    ['the', 'cat', 'sat.']
    """

    def __init__(self, lowercase=False):
        self.lowercase = bool(lowercase)
        self.name = "whitespace-lower" if lowercase else "whitespace"

    def tokenize(self, text):
        return (text.lower() if self.lowercase else text).split()

    def __repr__(self):
        return f"WhitespaceTokenizer(lowercase={self.lowercase})"


def _fold(text):
    """NFKC, then case folding: full-width and compatibility forms become
    their plain letters and digits, and case differences disappear."""
    return unicodedata.normalize("NFKC", text).casefold()


# Code point ranges (inclusive) of Han ideographs and kana. Only characters
# of these blocks in categories L* and N* are tokens of their own: the blocks'
# punctuation (。、「」) still separates tokens.
_SINGLE_RANGES = (
    (0x3005, 0x303C),    # the letters and numbers of CJK Symbols and
                         # Punctuation: 々 〆 〇, Hangzhou numerals, kana marks
    (0x3040, 0x30FF),    # Hiragana, Katakana
    (0x31F0, 0x31FF),    # Katakana Phonetic Extensions
    (0x3400, 0x4DBF),    # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),    # CJK Unified Ideographs
    (0xF900, 0xFAFF),    # CJK Compatibility Ideographs
    (0x1AFF0, 0x1B16F),  # Kana Extended-A/B, Kana Supplement, Small Kana
    (0x20000, 0x2FA1F),  # Extensions B to F and I, Compatibility Supplement
    (0x30000, 0x323AF),  # Extensions G and H
)
_SINGLE_STARTS = [lo for lo, _ in _SINGLE_RANGES]

# Invisible characters that only control rendering (soft hyphen, zero-width
# non-joiner and joiner, common inside Persian and Indic words): removed, so
# they neither split a word nor make two spellings of it differ.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200c\u200d"))

_SEP, _WORD, _SINGLE, _MARK = range(4)


def _kind(ch):
    cat = unicodedata.category(ch)[0]
    if cat == "M":
        return _MARK
    if cat not in "LN":
        return _SEP
    cp = ord(ch)
    if cp >= 0x3005:
        i = bisect_right(_SINGLE_STARTS, cp) - 1
        if i >= 0 and cp <= _SINGLE_RANGES[i][1]:
            return _SINGLE
    return _WORD


class UnicodeWordTokenizer(Tokenizer):
    """Words of any script, after NFKC normalisation and case folding.

    The rule, on the normalised, case-folded text (soft hyphens and
    zero-width (non-)joiners removed first):

    - a Han ideograph, Hiragana or Katakana character (categories L* or N*)
      is a token of its own, with any combining marks that follow it;
    - every other maximal run of letters, digits and combining marks
      (Unicode categories L*, N* and M*) is a token;
    - everything else (whitespace, punctuation, symbols) separates tokens.

    Combining marks keep words whole: Devanagari vowel signs and viramas,
    Arabic harakat, decomposed accents. Apostrophes and hyphens split words
    (``"don't"`` gives ``don``, ``t``), as in rouge-score.

    >>> tok = UnicodeWordTokenizer()
    >>> tok.tokenize("Straße, ＡＢＣ-123")
    ['strasse', 'abc', '123']
    >>> tok.tokenize("我爱北京。")
    ['我', '爱', '北', '京']
    >>> tok.tokenize("東京へ行きます")
    ['東', '京', 'へ', '行', 'き', 'ま', 'す']
    >>> tok.tokenize("Москва — столица России.")
    ['москва', 'столица', 'россии']
    >>> tok.tokenize("ذهبَ الولدُ إلى المدرسةِ")
    ['ذهبَ', 'الولدُ', 'إلى', 'المدرسةِ']
    >>> tok.tokenize("हिन्दी एक भाषा है।")
    ['हिन्दी', 'एक', 'भाषा', 'है']
    """

    name = "unicode"

    def tokenize(self, text):
        tokens = []
        word = []  # the characters of the token being built
        current = _SEP  # its kind: _WORD, _SINGLE, or _SEP when none
        for ch in _fold(text).translate(_INVISIBLE):
            kind = _kind(ch)
            if kind == _MARK and current != _SEP:
                word.append(ch)  # marks extend any token, even an ideograph
                continue
            if kind == _MARK:
                kind = _WORD  # a stray mark starts a word
            if kind == _WORD and current == _WORD:
                word.append(ch)
                continue
            if word:
                tokens.append("".join(word))
            word = [ch] if kind != _SEP else []
            current = kind
        if word:
            tokens.append("".join(word))
        return tokens

    def __repr__(self):
        return "UnicodeWordTokenizer()"


class CharTokenizer(Tokenizer):
    """Every non-whitespace character, after NFKC and case folding.

    >>> CharTokenizer().tokenize("สวัสดี ครับ")
    ['ส', 'ว', 'ั', 'ส', 'ด', 'ี', 'ค', 'ร', 'ั', 'บ']
    """

    name = "char"

    def tokenize(self, text):
        return [ch for ch in _fold(text) if not ch.isspace()]

    def __repr__(self):
        return "CharTokenizer()"


class SentenceWordsTokenizer(Tokenizer):
    """The words ``rouge`` 1.0.1 (pltrdy, ``"pltrdy"``) and ``rouge-chinese``
    1.0.3 (``"rouge-chinese"``) score: the text's sentences (pltrdy's
    pieces between "."; rouge-chinese's ``cut_sent``), each with its
    whitespace collapsed, split on single spaces. Case and punctuation are
    kept (but pltrdy's "."); a sentence of blanks is one empty word, as there.

    >>> SentenceWordsTokenizer("pltrdy").tokenize("The cat. Sat, here.")
    ['The', 'cat', 'Sat,', 'here']
    """

    def __init__(self, name):
        from rougekit._sentences import split_chinese, split_periods
        splits = {"pltrdy": split_periods, "rouge-chinese": split_chinese}
        if name not in splits:
            raise ValueError(f"SentenceWordsTokenizer takes 'pltrdy' or 'rouge-chinese', "
                             f"not {name!r}")
        self.name = name
        self._split = splits[name]

    def tokenize(self, text):
        return [w for s in self._split(text) if len(s) > 0
                for w in " ".join(s.split()).split(" ")]

    def __repr__(self):
        return f"SentenceWordsTokenizer({self.name!r})"


class Rouge155Tokenizer(Tokenizer):
    """ROUGE-1.5.5.pl's tokens of a text (``rougekit.rouge155.text``): its
    UTF-8 bytes with ASCII letters lowercased, runs of ASCII letters and
    digits; with ``remove_stopwords`` (``-s``) the SMART stopwords dropped,
    with ``use_stemmer`` (``-m``) tokens longer than 3 characters stemmed
    (WordNet exceptions, then the script's Porter stemmer).

    >>> Rouge155Tokenizer(use_stemmer=True).tokenize("The children went to Café 4:00pm")
    ['the', 'child', 'go', 'to', 'caf', '4', '00pm']
    """

    def __init__(self, use_stemmer=False, remove_stopwords=False):
        self.use_stemmer = bool(use_stemmer)
        self.remove_stopwords = bool(remove_stopwords)
        self.name = "rouge155+morph" if use_stemmer else "rouge155"

    def tokenize(self, text):
        from rougekit.rouge155.lexicon import morph_stem, stopwords
        from rougekit.rouge155.text import raw_tokens
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        tokens = raw_tokens(data)
        if self.remove_stopwords:
            stop = stopwords()
            tokens = [t for t in tokens if t not in stop]
        words = [t.decode("ascii") for t in tokens]
        if self.use_stemmer:
            words = [morph_stem(w) if len(w) > 3 else w for w in words]
        return words

    def __repr__(self):
        return (f"Rouge155Tokenizer(use_stemmer={self.use_stemmer}, "
                f"remove_stopwords={self.remove_stopwords})")


_FACTORIES = {
    "rouge-score": lambda: RougeScoreTokenizer(False),
    "rouge-score+porter": lambda: RougeScoreTokenizer(True),
    "whitespace": lambda: WhitespaceTokenizer(False),
    "whitespace-lower": lambda: WhitespaceTokenizer(True),
    "unicode": UnicodeWordTokenizer,
    "char": CharTokenizer,
    "pltrdy": lambda: SentenceWordsTokenizer("pltrdy"),
    "rouge-chinese": lambda: SentenceWordsTokenizer("rouge-chinese"),
    "rouge155": lambda: Rouge155Tokenizer(False),
    "rouge155+morph": lambda: Rouge155Tokenizer(True),
}
TOKENIZER_NAMES = tuple(_FACTORIES)


def get_tokenizer(name_or_obj: Any, use_stemmer: bool = False,
                  remove_stopwords: bool = False) -> Any:
    """The tokenizer named ``name_or_obj``, or ``name_or_obj`` itself if it
    has a ``tokenize`` method.

    ``use_stemmer=True`` turns "rouge-score" into "rouge-score+porter" and
    "rouge155" into "rouge155+morph"; with any other tokenizer it is a
    ValueError (the stemmers are for the English tokens of those two).
    ``remove_stopwords=True`` (ROUGE-1.5.5's ``-s``) needs "rouge155".

    >>> get_tokenizer("rouge-score", use_stemmer=True).name
    'rouge-score+porter'
    """
    if isinstance(name_or_obj, str):
        name = name_or_obj
        if use_stemmer and name in ("rouge-score", "rouge155"):
            name += "+porter" if name == "rouge-score" else "+morph"
        factory = _FACTORIES.get(name)
        if factory is None:
            raise ValueError(f"unknown tokenizer {name_or_obj!r}; valid names: "
                             + ", ".join(TOKENIZER_NAMES))
        tokenizer = factory()
        if remove_stopwords:
            if not isinstance(tokenizer, Rouge155Tokenizer):
                raise ValueError(f"{option('remove_stopwords', True)} (ROUGE-1.5.5's -s) "
                                 f"needs {option('tokenizer', 'rouge155')}; got "
                                 f"{name_or_obj!r}")
            tokenizer = Rouge155Tokenizer(tokenizer.use_stemmer, True)
    elif callable(getattr(name_or_obj, "tokenize", None)):
        tokenizer = name_or_obj
    else:
        raise TypeError("tokenizer must be a name (" + ", ".join(TOKENIZER_NAMES)
                        + ") or an object with a tokenize(text) method, not "
                        + type(name_or_obj).__name__)
    if use_stemmer and not getattr(tokenizer, "use_stemmer", False):
        raise ValueError(f"{option('use_stemmer', True)} needs the rouge-score or rouge155 "
                         f"tokenizer; got {getattr(tokenizer, 'name', tokenizer)!r}")
    return tokenizer
