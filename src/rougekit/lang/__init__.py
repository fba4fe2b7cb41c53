"""``lang=``: ROUGE for other languages, as XL-Sum's multilingual ROUGE.

XL-Sum's scorer (``multilingual-rouge`` on PyPI; Hasan et al., 2021) is
rouge-score with its tokenization replaced: the text is lowercased and
cleaned of punctuation by Unicode category (``rougekit.lang.normalize``),
segmented into words by a segmenter for Chinese, Japanese, Thai and Burmese
(``rougekit.lang.segmenters``) or by its default segmentation, and stemmed
by the language's stemmer (``rougekit.lang.stemmers``) when ``use_stemmer``.
``LangTokenizer`` does the same, so that ``RougeScorer(types, lang=...)``
gives XL-Sum's numbers. ``LANGUAGES`` lists the names ``lang=`` takes:
XL-Sum's 45 languages, the Snowball stemmer languages, XL-Sum's aliases
(bangla, turkce, chinese_simplified, chinese_traditional, mundo) and
"other" (cleaning and default segmentation, no stemmer: what XL-Sum does for
any language it has no segmenter or stemmer for).

One behaviour of XL-Sum's is kept because its numbers depend on it: rougeLsum
tokenizes each sentence with the cleaning alone (no segmenter, no default
segmentation), so its tokens are whole space- and punctuation-separated
runs (``LangTokenizer.sentence_tokens``).

>>> tok = LangTokenizer("hindi", use_stemmer=True)
>>> tok.tokenize("लड़कियाँ स्कूल जाती हैं।")
['लड़क', 'स्कूल', 'जा', 'हैं']
>>> LangTokenizer("russian").tokenize("Москва — столица России, 2024 г.")
['москва', 'столица', 'россии', '2024', 'г']
"""
import dataclasses
from typing import Callable, Dict, List, Optional, Tuple, Union

from rougekit._spelling import option
from rougekit._warn import TokenizationWarning, warn
from rougekit.lang.normalize import default_segment_words, words
from rougekit.lang.segmenters import load_segmenter
from rougekit.lang.stemmers import SNOWBALL_LANGUAGES, load_stemmer, stopword_digest

__all__ = ["LangTokenizer", "Language", "LANGUAGES", "get_language", "resolve_lang"]


@dataclasses.dataclass(frozen=True)
class Language:
    """A ``lang=`` name: its segmenter and stemmer (None: none), and the
    ISO 639-1 code the rule-based sentence splitter is given."""

    name: str
    iso: str
    segmenter: Optional[str] = None   # a key of segmenters.SEGMENTERS
    stemmer: Optional[str] = None     # "snowball", "hindi", "bengali", "turkish"


_TABLE: Tuple[Language, ...] = (
    # segmenters
    Language("chinese", "zh", segmenter="jieba"),
    Language("japanese", "ja", segmenter="fugashi"),
    Language("thai", "th", segmenter="pythainlp"),
    Language("burmese", "my", segmenter="burmese"),
    # XL-Sum's own stemmers
    Language("hindi", "hi", stemmer="hindi"),
    Language("bengali", "bn", stemmer="bengali"),
    Language("turkish", "tr", stemmer="turkish"),
    # Snowball stemmers (NLTK)
    *(Language(name, iso, stemmer="snowball") for name, iso in (
        ("arabic", "ar"), ("danish", "da"), ("dutch", "nl"), ("english", "en"),
        ("finnish", "fi"), ("french", "fr"), ("german", "de"), ("hungarian", "hu"),
        ("italian", "it"), ("norwegian", "no"), ("portuguese", "pt"), ("romanian", "ro"),
        ("russian", "ru"), ("spanish", "es"), ("swedish", "sv"))),
    # XL-Sum's other languages: cleaning and default segmentation only
    *(Language(name, iso) for name, iso in (
        ("amharic", "am"), ("azerbaijani", "az"), ("gujarati", "gu"), ("hausa", "ha"),
        ("igbo", "ig"), ("indonesian", "id"), ("kirundi", "rn"), ("korean", "ko"),
        ("kyrgyz", "ky"), ("marathi", "mr"), ("nepali", "ne"), ("oromo", "om"),
        ("pashto", "ps"), ("persian", "fa"), ("pidgin", "en"), ("punjabi", "pa"),
        ("scottish_gaelic", "gd"), ("serbian_cyrillic", "sr"), ("serbian_latin", "sr"),
        ("sinhala", "si"), ("somali", "so"), ("swahili", "sw"), ("tamil", "ta"),
        ("telugu", "te"), ("tigrinya", "ti"), ("ukrainian", "uk"), ("urdu", "ur"),
        ("uzbek", "uz"), ("vietnamese", "vi"), ("welsh", "cy"), ("yoruba", "yo"),
        ("other", "en"))),
)
assert {lang.name for lang in _TABLE if lang.stemmer == "snowball"} == set(SNOWBALL_LANGUAGES)

# XL-Sum's alternative names (its SPECIAL_LANGID_CONVERSION_MAP).
ALIASES = {"bangla": "bengali", "turkce": "turkish", "chinese_simplified": "chinese",
           "chinese_traditional": "chinese", "mundo": "spanish"}

_BY_NAME: Dict[str, Language] = {lang.name: lang for lang in _TABLE}
#: Every name ``lang=`` accepts (aliases included), sorted.
LANGUAGES = tuple(sorted([*_BY_NAME, *ALIASES]))


def resolve_lang(name: object) -> str:
    """The canonical name of a ``lang=`` value (aliases resolved); a
    ValueError lists the valid names.

    >>> resolve_lang("bangla")
    'bengali'
    """
    if not isinstance(name, str):
        raise TypeError(f"lang must be a language name (str), not {type(name).__name__}")
    key = ALIASES.get(name, name)
    if key not in _BY_NAME:
        raise ValueError(f"unknown lang {name!r}; valid: {', '.join(LANGUAGES)}")
    return key


def get_language(name: str) -> Language:
    """The ``Language`` of a ``lang=`` name or alias."""
    return _BY_NAME[resolve_lang(name)]


def _lowered(text: Union[str, bytes], name: str) -> str:
    # XL-Sum lowercases first; bytes are lowercased (ASCII) and then decoded
    # dropping invalid sequences, as its cleaning does.
    if isinstance(text, str):
        return text.lower()
    if isinstance(text, bytes):
        return text.lower().decode("utf-8", "ignore")
    raise TypeError(f"{name} must be str or bytes, not {type(text).__name__}")


class LangTokenizer:
    """XL-Sum's tokenization for one language (module docstring).

    Args:
      lang: a name of ``LANGUAGES``.
      use_stemmer: stem tokens longer than 3 characters with the language's
        stemmer (languages without one are not stemmed, as in XL-Sum; a
        ``TokenizationWarning`` says so).
      stem_stopwords: for the Snowball languages, stem NLTK's stopwords too
        instead of leaving them unstemmed as XL-Sum does (then NLTK's
        stopwords data is not needed).

    A missing optional library is an ImportError naming the extra to install.
    Stems are cached per tokenizer.
    """

    def __init__(self, lang: str, use_stemmer: bool = False,
                 stem_stopwords: bool = False) -> None:
        self.language = get_language(lang)
        self.lang = self.language.name
        self.use_stemmer = bool(use_stemmer)
        self.stem_stopwords = bool(stem_stopwords)
        self.name = "xlsum"
        seg = self.language.segmenter
        self._segment: Optional[Callable[[str], List[str]]] = None
        self.segmenter = ""
        if seg:
            self._segment, self.segmenter = load_segmenter(seg, self.lang)
        self._stem: Optional[Callable[[str], str]] = None
        self.stemmer = "no"
        self.stopwords = "none"
        self._stems: Dict[str, str] = {}
        if use_stemmer and self.language.stemmer is None:
            warn(f"{option('lang', self.lang)} has no stemmer (none in XL-Sum either): "
                 f"{option('use_stemmer', True)} changes nothing", TokenizationWarning)
        elif use_stemmer:
            stemmer = load_stemmer(self.language.stemmer or "", self.lang, self.stem_stopwords)
            self._stem = stemmer.stem
            kind = self.language.stemmer
            self.stemmer = f"snowball-{self.lang}" if kind == "snowball" else str(kind)
            self.stemmer_provenance = stemmer.provenance
            if stemmer.stopwords is not None:
                self.stopwords = f"nltk({stopword_digest(stemmer.stopwords)})"

    def stem_words(self, tokens: List[str]) -> List[str]:
        """``tokens`` stemmed (those longer than 3 characters, when stemming),
        empty stems dropped: the last step of ``tokenize``."""
        stem = self._stem
        if stem is not None:
            cache = self._stems
            out = []
            for t in tokens:
                if len(t) > 3:
                    s = cache.get(t)
                    if s is None:
                        s = cache[t] = stem(t)
                    t = s
                out.append(t)
            tokens = out
        return [t for t in tokens if t]

    def segments(self, text: Union[str, bytes]) -> List[str]:
        """The words of a whole text before stemming: cleaning and segmentation."""
        ws = words(_lowered(text, "text"))
        tokens: List[str] = []
        if self._segment is not None and ws:
            tokens = self._segment(" ".join(ws))
            if not tokens:
                warn(f"the {self.segmenter} segmenter found no words in a text; it is "
                     "segmented by XL-Sum's default rule instead", TokenizationWarning)
        if not tokens and ws:
            tokens = default_segment_words(ws)
        return tokens

    def sentence_segments(self, sentence: Union[str, bytes]) -> List[str]:
        """The words of one of rougeLsum's sentences before stemming: cleaning
        alone (XL-Sum does not segment them)."""
        return words(_lowered(sentence, "sentence"))

    def tokenize(self, text: Union[str, bytes]) -> List[str]:
        """The tokens of a whole text: cleaning, segmentation, stemming."""
        return self.stem_words(self.segments(text))

    def sentence_tokens(self, sentence: Union[str, bytes]) -> List[str]:
        """rougeLsum's tokens of one sentence, as XL-Sum takes them: cleaning
        and stemming, without segmentation."""
        return self.stem_words(self.sentence_segments(sentence))

    # Pickled as its options (a scorer sent to another process): the
    # segmenter and stemmer are loaded again there.
    def __reduce__(self):
        return (type(self), (self.lang, self.use_stemmer, self.stem_stopwords))

    def __repr__(self) -> str:
        return (f"LangTokenizer({self.lang!r}, use_stemmer={self.use_stemmer}, "
                f"stem_stopwords={self.stem_stopwords})")
