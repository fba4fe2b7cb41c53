"""The token ids of ROUGE-1.5.5.pl's summaries: the pure twin of
``_rouge155_tokens`` and its specification.

A token is a run of ASCII letters and digits, lowercased (what the script's
substitutions and its filter of "-" tokens leave, ``raw_tokens``); each raw
token is mapped once to its final id: dropped for a stopword, and with
stemming its WordNet base form or its Porter stem (``_rouge155_stem_py``).
"""
from array import array

import numpy as np

from rougekit._core._rouge155_stem_py import porter_stem

__all__ = ["raw_tokens", "TokenCorpus"]

# Lowercase A-Z; keep a-z and 0-9; every other byte separates tokens (the
# script's s/-/ - /g, s/[^A-Za-z0-9\-]/ /g and its filter of "-" tokens).
_FILTER = bytes(c if (97 <= c <= 122 or 48 <= c <= 57) else (c + 32 if 65 <= c <= 90 else 32)
                for c in range(256))


def raw_tokens(text: bytes):
    """The script's tokens of a text before stopwords and stemming: runs of
    ASCII letters and digits, lowercased.

    >>> raw_tokens(b"Well-known: 4:00pm")
    [b'well', b'known', b'4', b'00pm']
    """
    _check_bytes(text, "text")
    return text.translate(_FILTER).split()


def _check_bytes(data, name):
    if not isinstance(data, bytes):
        raise TypeError(f"{name} must be bytes, not {type(data).__name__}")


class TokenCorpus:
    """The token ids of every summary of a run, one sequence per sentence.

    Tokens are the script's (``raw_tokens``), each given its final id once
    per table: -1 for a token in ``stopwords`` (dropped); in table 1
    (stemming), a token longer than 3 characters becomes its base form in
    ``exceptions`` (WordNet's irregular forms) or else its ``porter_stem``.
    Equal final strings get equal ids (``vocab_size()`` of them).

    ``add_text(data, table)`` adds one sequence per non-empty line (SPL),
    ``add_file(path, table)`` the same for a file (``add_files(paths,
    table)``: for many, as ``add_texts``), ``add_sentences(sentences,
    table, joined)`` one per sentence or, ``joined``, one for all;
    ``add_span(first, last)`` a sequence covering sequences ``first .. last -
    1``. Each returns the index of its first sequence. ``add_texts(texts,
    table)`` is ``add_text`` and ``add_span`` for many texts (bytes, or str:
    its UTF-8 bytes, lone surrogates as ``surrogateescape`` writes them): an
    array of (first, end, span) per text. ``extend(other)`` appends another corpus (made with
    the same stopwords and exceptions), translating its ids;
    ``empty_copy()`` makes one. ``arrays()`` gives (tokens, seq_start,
    seq_end).

    >>> tc = TokenCorpus(stopwords=[b"the"], exceptions={"said": "say"})
    >>> tc.add_text(b"The cat\\n\\nsaid cats.\\n", 1), tc.add_span(0, 2), len(tc)
    (0, 2, 3)
    >>> [a.tolist() for a in tc.arrays()], tc.vocab_size()
    ([[0, 1, 0], [0, 1, 0], [1, 3, 3]], 2)
    """

    def __init__(self, stopwords=(), exceptions=None):
        self._stop = frozenset(bytes(w) for w in stopwords)
        self._exceptions = {(k.encode("ascii") if isinstance(k, str) else bytes(k)):
                            (v.encode("ascii") if isinstance(v, str) else bytes(v))
                            for k, v in (exceptions or {}).items()}
        self._final: tuple = ({}, {})
        self._ids: dict = {}
        self._tokens = array("i")
        self._starts = array("q")
        self._ends = array("q")

    def __len__(self):
        return len(self._starts)

    def vocab_size(self) -> int:
        return len(self._ids)

    def _resolve(self, raw, table):
        if raw in self._stop:
            return -1
        token = raw
        if table == 1 and len(raw) > 3:
            base = self._exceptions.get(raw)
            token = base if base is not None else porter_stem(raw.decode("ascii")).encode("ascii")
        return self._ids.setdefault(token, len(self._ids))

    def _token_ids(self, text, table):
        final = self._final[table]
        raw = text.translate(_FILTER).split()
        for t in raw:
            if t not in final:
                final[t] = self._resolve(t, table)
        return [i for i in map(final.__getitem__, raw) if i >= 0]

    def _sequence(self, start, end):
        self._starts.append(start)
        self._ends.append(end)
        return len(self._starts) - 1

    @staticmethod
    def _check(table):
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")

    def add_text(self, data: bytes, table: int) -> int:
        _check_bytes(data, "data")
        self._check(table)
        first = len(self._starts)
        for line in data.split(b"\n"):
            if line:
                start = len(self._tokens)
                self._tokens.extend(self._token_ids(line, table))
                self._sequence(start, len(self._tokens))
        return first

    def add_file(self, path, table: int) -> int:
        with open(path, "rb") as f:
            data = f.read()
        return self.add_text(data, table)

    def add_files(self, paths, table: int):
        texts = []
        for path in paths:
            with open(path, "rb") as f:
                texts.append(f.read())
        return self.add_texts(texts, table)

    def add_texts(self, texts, table: int):
        texts = list(texts)
        out = np.empty((len(texts), 3), dtype=np.int64)
        for k, text in enumerate(texts):
            if isinstance(text, str):
                text = str(text).encode("utf-8", "surrogateescape")
            elif not isinstance(text, (bytes, bytearray)):
                raise TypeError(f"texts[{k}] must be str or bytes, not {type(text).__name__}")
            first = self.add_text(bytes(text), table)
            last = len(self._starts)
            out[k] = (first, last, self.add_span(first, last))
        return out

    def extend(self, other: "TokenCorpus") -> int:
        """Append ``other``'s tokens and sequences, its final ids translated
        to this corpus's; returns the index here of its sequence 0."""
        if not isinstance(other, TokenCorpus):
            raise TypeError(f"other must be a TokenCorpus, not {type(other).__name__}")
        if other is self:
            raise ValueError("a corpus cannot extend itself")
        strings = sorted(other._ids, key=other._ids.__getitem__)
        ids = [self._ids.setdefault(t, len(self._ids)) for t in strings]
        first, base = len(self._starts), len(self._tokens)
        self._tokens.extend([ids[t] for t in other._tokens])
        self._starts.extend([base + x for x in other._starts])
        self._ends.extend([base + x for x in other._ends])
        return first

    def empty_copy(self) -> "TokenCorpus":
        """A new corpus with this one's stopwords and exceptions (this one
        must have no text yet)."""
        if len(self._starts) or self._ids:
            raise ValueError("empty_copy of a corpus that has text")
        copy = TokenCorpus.__new__(TokenCorpus)
        copy._stop, copy._exceptions = self._stop, self._exceptions
        copy._final, copy._ids = ({}, {}), {}
        copy._tokens, copy._starts, copy._ends = array("i"), array("q"), array("q")
        return copy

    def add_sentences(self, sentences, table: int, joined: bool = False) -> int:
        self._check(table)
        first = len(self._starts)
        start = len(self._tokens)
        for sentence in sentences:
            if not joined:
                start = len(self._tokens)
            _check_bytes(sentence, "each sentence")
            self._tokens.extend(self._token_ids(sentence, table))
            if not joined:
                self._sequence(start, len(self._tokens))
        if joined:
            self._sequence(start, len(self._tokens))
        return first

    def add_span(self, first: int, last: int) -> int:
        if not 0 <= first <= last <= len(self._starts):
            raise ValueError(f"sequences [{first}, {last}) out of range")
        if first == last:
            return self._sequence(len(self._tokens), len(self._tokens))
        return self._sequence(self._starts[first], self._ends[last - 1])

    def arrays(self):
        return (np.array(self._tokens, dtype=np.int32), np.array(self._starts, dtype=np.int64),
                np.array(self._ends, dtype=np.int64))
