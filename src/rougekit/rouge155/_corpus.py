"""Reading a ROUGE-1.5.5 run's summaries: files and in-memory texts as token
ids in the kernel's ``TokenCorpus`` (``Corpus``, one document per summary and
stemming setting), and the document indices of a measure's evaluations
(``Jobs``).

A summary given as text is an ``InMemory`` (``summary``), named in errors
by its place in the caller's arguments (``place``); a file is read whole, in
C where it can be (``TokenCorpus.add_files``).
"""
import functools
import os
from array import array
from typing import Dict, Optional, Union

import numpy as np

from rougekit import _backend, _workers
from rougekit.rouge155.options import Options
from rougekit.rouge155.text import (
    FormatError,
    format_name,
    limit_lcs_sentences,
    limit_text,
    read_sentences,
)

__all__ = ["Corpus", "InMemory", "Jobs", "READ_BUDGET", "READ_FILES", "SHARD_MIN_TEXTS",
           "display", "place", "summary"]

Text = Union[str, bytes]

# Summaries per thread at least when run_texts scores in shards or files are
# read on several threads.
SHARD_MIN_TEXTS = 1000

# Many summaries are read in kernel calls of at most READ_FILES files or
# READ_BUDGET characters (plus 100 a text), each on a worker thread and done
# in milliseconds, so that a Ctrl-C is seen soon (rougekit._workers).
READ_FILES = 256
READ_BUDGET = 1_000_000


class InMemory:
    """A summary given as text (SPL), not as a file; hashed by identity.
    ``where`` is its place in the caller's arguments (error messages)."""

    __slots__ = ("data", "i", "j")

    def __init__(self, data: bytes, i: int, j: Optional[int]):
        self.data, self.i, self.j = data, i, j

    @property
    def where(self) -> str:
        return place(self.i, self.j)


def place(i: int, j: Optional[int]) -> str:
    return "candidates[%d]" % i if j is None else "references[%d][%d]" % (i, j)


def summary(text, i, j=None) -> "InMemory":
    """candidates[i] (j None) or references[i][j] as an in-memory summary."""
    if type(text) is str:
        return InMemory(text.encode("utf-8", "surrogateescape"), i, j)
    if isinstance(text, str):
        return InMemory(str(text).encode("utf-8", "surrogateescape"), i, j)
    if isinstance(text, (bytes, bytearray)):
        return InMemory(bytes(text), i, j)
    raise TypeError(f"{place(i, j)} must be a str or bytes, not {type(text).__name__}")


def display(source) -> str:
    if isinstance(source, InMemory):
        return source.where
    return os.fsdecode(source) if isinstance(source, (str, bytes)) else "<text>"


_O_BINARY = getattr(os, "O_BINARY", 0)


def _read(path) -> bytes:
    """A file's bytes (a directory is an error, not an empty summary)."""
    fd = os.open(path, os.O_RDONLY | _O_BINARY)
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    except IsADirectoryError:
        raise FileNotFoundError(f"{display(path)} is a directory, not a summary file") from None
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


@functools.lru_cache(maxsize=8)
def _empty_tokens(kernel, lexicon, remove_stopwords: bool):
    """A TokenCorpus with the run's stopwords (or none) and WordNet
    exceptions (a ``lexicon.Lexicon``), never filled: runs take
    ``empty_copy()`` of it."""
    return kernel.TokenCorpus(lexicon.stopwords if remove_stopwords else (),
                              lexicon.exceptions)


class Corpus:
    """Every summary of a run as token ids, documents built on first use.

    A document is one summary read with one stemming setting: its sentences
    (the LCS reader's) are consecutive sequences of the kernel's
    ``TokenCorpus``, and its n-gram tokens one more sequence: the span of
    its sentences, or under ``-b``, where the two readers cut differently,
    a sequence of its own.
    """

    def __init__(self, options: Options, threads: int = 1):
        self.options = options
        self.threads = threads
        self.doc_ngram = array("i")
        self.doc_sent_lo = array("i")
        self.doc_sent_hi = array("i")
        self.doc_source: list = []
        self._docs: dict = {}
        self._sentences: dict = {}
        self._no_limit = not options.word_limit and not options.byte_limit
        self._plain_formats: dict = {}

    @functools.cached_property
    def tokens(self):
        """The kernel ``TokenCorpus`` of the documents (made on first use:
        ``run_texts`` tokenizes its shards into corpora of their own)."""
        return self.new_tokens()

    def new_tokens(self):
        """An empty kernel ``TokenCorpus`` with this run's stopwords and
        exceptions."""
        return self._template.empty_copy()

    @functools.cached_property
    def _template(self):
        return _empty_tokens(_backend.rouge155_tokens, self.options.lexicon,
                             self.options.remove_stopwords)

    def prepare(self) -> None:
        """Read the run's stopwords and exceptions into the template every
        ``new_tokens`` copies, here, before threads need it (else the first
        worker threads build it side by side, slowly, with the GIL disabled,
        and a Ctrl-C then waits for them)."""
        self._template  # noqa: B018

    def _data(self, source) -> bytes:
        return source.data if isinstance(source, InMemory) else _read(source)

    def _raw_sentences(self, source, fmt):
        key = (source, fmt)
        sents = self._sentences.get(key)
        if sents is None:
            data = self._data(source)
            try:
                sents = read_sentences(data, fmt)
            except FormatError as e:
                raise ValueError(f"{display(source)}: {e}") from None
            self._sentences[key] = sents
        return sents

    def _plain(self, fmt) -> bool:
        """Whether summaries in format fmt read as plain lines (SPL, no limit)."""
        plain = self._plain_formats.get(fmt)
        if plain is None:
            plain = self._plain_formats[fmt] = self._no_limit and format_name(fmt) == "SPL"
        return plain

    def _register(self, key, first, last, ngram) -> int:
        d = len(self.doc_ngram)
        self.doc_ngram.append(ngram)
        self.doc_sent_lo.append(first)
        self.doc_sent_hi.append(last)
        self.doc_source.append(key[0])
        self._docs[key] = d
        return d

    def prefetch(self, sources, stem: bool):
        """Build the documents of the SPL summaries among ``(source, fmt)``
        pairs that read as plain lines: in-memory texts in one kernel call,
        files in another (read in C, without the GIL)."""
        keys: Dict[bool, list] = {True: [], False: []}
        for source, fmt in sources:
            key = (source, fmt, stem)
            if key not in self._docs and self._plain(fmt):
                self._docs[key] = -1          # claimed: the same summary listed twice
                keys[isinstance(source, InMemory)].append(key)
        table = 1 if stem else 0
        for in_memory, batch in keys.items():
            if not batch:
                continue
            if in_memory:
                spans = self._add_texts([key[0].data for key in batch], table)
            else:
                try:
                    spans = self._add_files([key[0] for key in batch], table)
                except IsADirectoryError as e:
                    raise FileNotFoundError(f"{display(e.filename)} is a directory, "
                                            "not a summary file") from None
            d = len(self.doc_ngram)
            spans = spans.astype(np.int32)
            self.doc_sent_lo.frombytes(np.ascontiguousarray(spans[:, 0]).tobytes())
            self.doc_sent_hi.frombytes(np.ascontiguousarray(spans[:, 1]).tobytes())
            self.doc_ngram.frombytes(np.ascontiguousarray(spans[:, 2]).tobytes())
            self.doc_source.extend(key[0] for key in batch)
            self._docs.update(zip(batch, range(d, d + len(batch))))

    def _add_texts(self, texts: list, table: int) -> np.ndarray:
        """``add_texts`` of the corpus's tokens, in calls of about
        READ_BUDGET characters one after another on a worker thread (one
        call here when that is all)."""
        cum = np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 100)
        cuts = _workers.cuts(cum, READ_BUDGET)
        if len(cuts) <= 2:
            return self.tokens.add_texts(texts, table)
        add = self.tokens.add_texts
        return np.concatenate(_workers.map_items(
            lambda k: add(texts[cuts[k]:cuts[k + 1]], table), range(len(cuts) - 1), 1))

    def _add_files(self, paths: list, table: int) -> np.ndarray:
        """``add_files`` of the corpus's tokens (one call here for at most
        READ_FILES files). Many files are read and tokenized in parts, on
        several threads when there are SHARD_MIN_TEXTS files a thread (each
        part into a corpus of its own, without the GIL; reading a file is
        mostly waiting for the system), READ_FILES files a call, and the
        parts joined in order."""
        n = len(paths)
        if n <= READ_FILES:
            return self.tokens.add_files(paths, table)
        parts = min(self.threads, n // SHARD_MIN_TEXTS) or 1
        cuts = [n * k // parts for k in range(parts + 1)]

        def read(k):
            tokens = self.tokens if k == 0 else self.new_tokens()
            spans = []
            for lo in range(cuts[k], cuts[k + 1], READ_FILES):
                if _workers.cancelled():
                    break
                spans.append(tokens.add_files(paths[lo:min(lo + READ_FILES, cuts[k + 1])],
                                              table))
            return tokens, np.concatenate(spans) if spans else np.zeros((0, 3), np.int64)

        done = _workers.map_items(read, range(parts), parts)
        # Each join copies one part's tokens: milliseconds a thousand files.
        return np.concatenate([done[0][1]] + [spans + self.tokens.extend(tokens)
                                              for tokens, spans in done[1:]])

    def doc(self, source, fmt, stem: bool) -> int:
        key = (source, fmt, stem)
        d = self._docs.get(key)
        if d is not None:
            return d
        o = self.options
        tc = self.tokens
        table = 1 if stem else 0
        if self._plain(fmt):
            if isinstance(source, InMemory):
                first = tc.add_text(source.data, table)
            else:
                try:
                    first = tc.add_file(source, table)
                except IsADirectoryError:
                    raise FileNotFoundError(f"{display(source)} is a directory, "
                                            "not a summary file") from None
        else:
            sents = self._raw_sentences(source, fmt)
            first = tc.add_sentences(limit_lcs_sentences(sents, o.word_limit, o.byte_limit),
                                     table)
        last = len(tc)
        if o.byte_limit:
            ngram = tc.add_sentences(limit_text(sents, byte_limit=o.byte_limit), table,
                                     joined=True)
        else:
            ngram = tc.add_span(first, last)
        return self._register(key, first, last, ngram)

    def kernel_corpus(self):
        """The documents as the kernel's ``Corpus`` (``score_evals``'s)."""
        tokens, starts, ends = self.tokens.arrays()
        return _backend.rouge155_counts.Corpus(
            tokens=tokens, seq_start=starts, seq_end=ends, doc_ngram=self.doc_ngram,
            doc_sent_lo=self.doc_sent_lo, doc_sent_hi=self.doc_sent_hi,
            vocab=max(self.tokens.vocab_size(), 1))


class Jobs:
    """The evaluations of one (system, measure): document indices for the
    kernel (``score_evals``'s ``jobs``)."""

    def __init__(self):
        self.peer_seq = array("i")
        self.peer_bag = array("i")
        self.model_off = array("q", [0])
        self.model_seq = array("i")
        self.model_bag = array("i")

    def kernel_jobs(self):
        """The evaluations as the kernel's ``Jobs`` (``score_evals``'s)."""
        return _backend.rouge155_counts.Jobs(
            peer_seq=self.peer_seq, peer_bag=self.peer_bag, model_off=self.model_off,
            model_seq=self.model_seq, model_bag=self.model_bag)

