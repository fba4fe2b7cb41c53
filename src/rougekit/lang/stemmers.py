"""The stemmers of XL-Sum's multilingual ROUGE.

Each ``load_*`` returns a ``Stemmer``: ``stem(token) -> str``, a
``provenance`` for the score signature, and the ``stopwords`` it leaves
unstemmed (if any). ``LangTokenizer`` stems only tokens longer than 3
characters, through a per-tokenizer cache, as XL-Sum does.

- The Snowball languages (arabic, danish, dutch, english, finnish, french,
  german, hungarian, italian, norwegian, portuguese, romanian, russian,
  spanish, swedish): NLTK's ``SnowballStemmer`` (``rougekit[stemmers]``).
  XL-Sum creates it with ``ignore_stopwords=True``: the words of NLTK's
  stopword list of the language are left unstemmed, which needs NLTK's
  ``stopwords`` data (``python -m nltk.downloader stopwords``).
  ``stem_stopwords=True`` stems them too and needs no data.
- hindi: the suffix-stripping stemmer of Ramanathan and Rao (2003), as XL-Sum
  lists its suffixes (``hindi_stem``; built in).
- bengali: the rule-based stemmer of Rafi Kamal (2014), with its rules file
  ``data/bengali_common.rules`` from the bengali-stemmer project (MIT;
  ``BengaliStemmer``; built in). multilingual-rouge's wheel lacks the file.
- turkish: the TurkishStemmer package (``rougekit[stemmers]``).

>>> hindi_stem("लड़कियों")
'लड़क'
>>> BengaliStemmer().stem("করেছিলেন")
'কর'
"""
import hashlib
import importlib.metadata
import re
from importlib import resources
from typing import Callable, Dict, FrozenSet, List, NamedTuple, Optional, Tuple

from rougekit._spelling import option

__all__ = ["Stemmer", "SNOWBALL_LANGUAGES", "hindi_stem", "BengaliStemmer", "load_stemmer",
           "stopword_digest"]

SNOWBALL_LANGUAGES = ("arabic", "danish", "dutch", "english", "finnish", "french", "german",
                      "hungarian", "italian", "norwegian", "portuguese", "romanian", "russian",
                      "spanish", "swedish")


class Stemmer(NamedTuple):
    stem: Callable[[str], str]
    provenance: str
    stopwords: Optional[FrozenSet[str]]


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def stopword_digest(words: FrozenSet[str]) -> str:
    """8 hex digits naming a stopword list (sha256 of its sorted words)."""
    return hashlib.sha256("\n".join(sorted(words)).encode("utf-8")).hexdigest()[:8]


# --- Snowball (NLTK) --------------------------------------------------------------

def _snowball(lang: str, stem_stopwords: bool) -> Stemmer:
    try:
        from nltk.stem.snowball import SnowballStemmer
    except ImportError:
        raise ImportError(f"{option('lang', lang)} with {option('use_stemmer', True)} stems "
                          "with NLTK's Snowball stemmer; nltk is not installed: "
                          "pip install 'rougekit[stemmers]'") from None
    if stem_stopwords:
        stemmer = SnowballStemmer(lang)
        stopwords = None
    else:
        try:
            stemmer = SnowballStemmer(lang, ignore_stopwords=True)
        except LookupError:
            raise LookupError(
                f"lang={lang!r} with use_stemmer=True leaves NLTK's {lang} stopwords "
                "unstemmed, as XL-Sum does, and needs NLTK's stopwords data: "
                "python -m nltk.downloader stopwords (or pass stem_stopwords=True, CLI "
                "--stem-stopwords, to stem every word; the numbers then differ from "
                "XL-Sum's)") from None
        stopwords = frozenset(stemmer.stopwords)
    return Stemmer(stemmer.stem, f"nltk-{_version('nltk')}", stopwords)


# --- Hindi ------------------------------------------------------------------------

# Suffixes by length, in XL-Sum's order (its HindiStemmer).
_HINDI_SUFFIXES: Dict[int, Tuple[str, ...]] = {
    1: ("ो", "े", "ू", "ु", "ी", "ि", "ा"),
    2: ("कर", "ाओ", "िए", "ाई", "ाए", "ने", "नी", "ना", "ते", "ीं", "ती", "ता", "ाँ", "ां",
        "ों", "ें"),
    3: ("ाकर", "ाइए", "ाईं", "ाया", "ेगी", "ेगा", "ोगी", "ोगे", "ाने", "ाना", "ाते", "ाती",
        "ाता", "तीं", "ाओं", "ाएं", "ुओं", "ुएं", "ुआं"),
    4: ("ाएगी", "ाएगा", "ाओगी", "ाओगे", "एंगी", "ेंगी", "एंगे", "ेंगे", "ूंगी", "ूंगा", "ातीं",
        "नाओं", "नाएं", "ताओं", "ताएं", "ियाँ", "ियों", "ियां"),
    5: ("ाएंगी", "ाएंगे", "ाऊंगी", "ाऊंगा", "ाइयाँ", "ाइयों", "ाइयां"),
}


def hindi_stem(token: str) -> str:
    """Strips the longest listed suffix (lengths 5 down to 1) that leaves
    more than one character; the token itself when none does."""
    for length in (5, 4, 3, 2, 1):
        if len(token) > length + 1 and token.endswith(_HINDI_SUFFIXES[length]):
            return token[:-length]
    return token


# --- Bengali ----------------------------------------------------------------------

# Vowel signs that do not count as a character of what a suffix leaves.
_BENGALI_SIGNS = frozenset("ািীেুূো")
_WHITESPACE = re.compile(r"\s*")
_COMMENT = re.compile(r"#.*")
_REPLACE = re.compile(r".*->.*")
_REPLACE_TAIL = re.compile(r"->.*")


def _parse_rules(text: str) -> Tuple[List[List[str]], Dict[str, str]]:
    """Groups of suffixes (lines between "{" and "}", in order) and the
    replacements of the suffixes written "suffix -> replacement". Whitespace
    and "#" comments are removed from each line first."""
    lines: List[str] = []
    replace: Dict[str, str] = {}
    for raw in text.splitlines():
        line = _COMMENT.sub("", _WHITESPACE.sub("", raw.strip()))
        if not line:
            continue
        rule = None
        if _REPLACE.fullmatch(line):
            parts = line.split("->")
            if len(parts) != 2:
                continue  # "a->b->c": the line is dropped
            rule = parts[1]
        line = _REPLACE_TAIL.sub("", line)
        if line:
            lines.append(line)
        if rule:
            replace[line] = rule
    groups: List[List[str]] = []
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            group = []
            i += 1
            while i < len(lines) and lines[i] != "}":
                group.append(lines[i])
                i += 1
            groups.append(group)
        i += 1
    return groups, replace


class BengaliStemmer:
    """Rafi Kamal's Bengali stemmer as multilingual-rouge runs it: for each
    group of rules in order, the first suffix the word ends with is removed
    (if what is left has a character other than a vowel sign) or replaced
    by its replacement ("." keeps the character under it); then the next
    group."""

    def __init__(self, rules: Optional[str] = None) -> None:
        if rules is None:
            rules = (resources.files("rougekit.lang") / "data" / "bengali_common.rules"
                     ).read_text(encoding="utf-8")
        self.groups, self.replace = _parse_rules(rules)

    def stem(self, word: str) -> str:
        for group in self.groups:
            for suffix in group:
                if not word.endswith(suffix):
                    continue
                index = len(word) - len(suffix)
                if suffix in self.replace:
                    chars = list(word)
                    for k, c in enumerate(self.replace[suffix]):
                        if c != ".":
                            chars[index + k] = c
                    word = "".join(chars[:index + len(self.replace[suffix])])
                elif any(c not in _BENGALI_SIGNS for c in word[:index]):
                    word = word[:index]
                break
        return word


# --- loading --------------------------------------------------------------------------

def _turkish(lang: str) -> Stemmer:
    try:
        from TurkishStemmer import TurkishStemmer
    except ImportError:
        raise ImportError(f"{option('lang', lang)} with {option('use_stemmer', True)} stems "
                          "with TurkishStemmer, which is not installed: "
                          "pip install 'rougekit[stemmers]'") from None
    return Stemmer(TurkishStemmer().stem, f"TurkishStemmer-{_version('TurkishStemmer')}", None)


def load_stemmer(kind: str, lang: str, stem_stopwords: bool = False) -> Stemmer:
    """The stemmer ``kind`` ("snowball", "hindi", "bengali", "turkish") for
    language ``lang``."""
    if kind == "snowball":
        return _snowball(lang, stem_stopwords)
    if kind == "hindi":
        return Stemmer(hindi_stem, "", None)
    if kind == "bengali":
        return Stemmer(BengaliStemmer().stem, "", None)
    if kind == "turkish":
        return _turkish(lang)
    raise ValueError(f"unknown stemmer {kind!r}")
