# cython: language_level=3
# cython: freethreading_compatible=True
"""The token ids of ROUGE-1.5.5.pl's summaries (``TokenCorpus``) and their
raw tokens; ``_rouge155_tokens_py`` is the twin and the specification.

Texts are classified 16 bytes at a time (``classify.h``, through
``_tokenizer``'s ``classify_latin1``), their tokens found in the resulting
bitmaps, interned in ``_vocab.pxd``'s tables and stemmed
with ``_rouge155_stem``'s ``stem_chars``, without a Python object per token
and without the GIL.
"""
from libc.errno cimport errno
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdio cimport FILE, fclose, ferror, fopen, fread
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

import os
import sys

import numpy as np

from rougekit._core._mem cimport grow_array
from rougekit._core._rouge155_stem cimport stem_chars
from rougekit._core._tokenizer cimport classify_latin1
from rougekit._core._vocab cimport (Vocab, vocab_copy, vocab_find, vocab_free,
                                   vocab_hash, vocab_hash16, vocab_init, vocab_intern,
                                   vocab_intern_hashed, vocab_prefix)

cdef extern from "classify.h" nogil:
    uint64_t rk_load_prefix(const unsigned char* p, Py_ssize_t n)

cdef extern from "bits.h" nogil:
    int rk_low_bit64(uint64_t x)

cdef extern from "Python.h":
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyUnicode_KIND(object o)

__all__ = ["raw_tokens", "TokenCorpus"]

_WINDOWS = sys.platform == "win32"

cdef enum:
    RECENT_SLOTS = 2048     # TokenCorpus's cache of short tokens (a power of two)

# The script's tokens are runs of ASCII letters and digits (lowercased), the
# word characters of classify.h's Latin-1 classification.
cdef uint64_t ONES = ~(<uint64_t>0)

# A raw token whose final id is not known yet: the fill byte 0xFE of grow_array.
cdef int32_t UNRESOLVED = <int32_t>0xFEFEFEFE

def raw_tokens(bytes text not None):
    """The script's tokens of a text before stopwords and stemming: runs of
    ASCII letters and digits, lowercased (see ``_rouge155_tokens_py.raw_tokens``).

    >>> raw_tokens(b"Well-known: 4:00pm")
    [b'well', b'known', b'4', b'00pm']
    """
    return text.translate(_FILTER).split()


_FILTER = bytes(c if (97 <= c <= 122 or 48 <= c <= 57) else (c + 32 if 65 <= c <= 90 else 32)
                for c in range(256))


cdef int _read_file(const char* name, unsigned char** buf, Py_ssize_t* cap,
                    Py_ssize_t* size) noexcept nogil:
    """The bytes of the file ``name`` into *buf (grown as needed), their
    count into *size: 0, an errno, or -1 when out of memory."""
    cdef FILE* fp = fopen(name, b"rb")
    cdef size_t got, want
    cdef int err = 0
    if fp == NULL:
        return errno if errno > 0 else 5        # EIO when the C library says nothing
    size[0] = 0
    while True:
        if size[0] == cap[0] and grow_array(<void**>buf, cap, size[0] + 1, 1, -1) < 0:
            err = -1
            break
        want = <size_t>(cap[0] - size[0])
        got = fread(buf[0] + size[0], 1, want, fp)
        size[0] += <Py_ssize_t>got
        if got < want:              # end of file, or an error
            if ferror(fp):
                err = errno if errno > 0 else 5
            break
    fclose(fp)
    return err


cdef int _narrow(const void* data, Py_ssize_t n, int kind,
                 unsigned char* out) noexcept nogil:
    """A 2- or 4-byte str's code points as the tokenizer's bytes: ASCII as
    it is, any other code point 0xFF (each byte of its UTF-8, or the one
    byte surrogateescape writes for U+DC80..U+DCFF, is >= 0x80: a separator,
    as 0xFF is). -1 for a surrogate that surrogateescape cannot write."""
    cdef Py_ssize_t i
    cdef uint32_t u
    for i in range(n):
        u = (<const uint16_t*>data)[i] if kind == 2 else (<const uint32_t*>data)[i]
        if u < 0x80:
            out[i] = <unsigned char>u
        elif 0xD800 <= u <= 0xDFFF and not (0xDC80 <= u <= 0xDCFF):
            return -1
        else:
            out[i] = 0xFF
    return 0


cdef Py_ssize_t _checked(Py_ssize_t result) except -1:
    """result, or MemoryError for the -1 of a tokenizer step."""
    if result < 0:
        raise MemoryError()
    return result


cdef class TokenCorpus:
    """The token ids of every summary of a run, one sequence per sentence
    (see ``_rouge155_tokens_py.TokenCorpus``, the specification).

    A token is a run of ASCII letters and digits, lowercased; any other byte
    separates tokens. Raw tokens are interned in C (``_vocab.pxd``'s
    vocabulary) and resolved once per table to their final id: -1 for a
    stopword; in table 1 (stemming), a token longer than 3 characters becomes
    its WordNet base form or else its Porter stem. Final strings are
    interned in a second vocabulary: equal strings, equal ids.

    Tokenizing touches no Python object: ``add_texts`` and ``add_files`` run
    without the GIL, so corpora can be filled on several threads at once
    (one corpus is not for two threads at once) and joined with ``extend``.
    ``empty_copy`` makes a corpus with the same stopwords and exceptions
    without reading them again.
    """
    cdef Vocab raw              # raw tokens
    cdef Vocab exc              # WordNet exception keys
    cdef Vocab excv             # their base forms
    cdef Vocab fin              # final strings
    cdef int32_t* exc_value     # per exception key id: its base form's id in excv
    cdef Py_ssize_t exc_value_cap
    cdef char* stop             # per raw id: 1 for a stopword
    cdef Py_ssize_t stop_cap
    cdef int32_t* final[2]
    cdef Py_ssize_t final_cap[2]
    cdef int32_t* tokens
    cdef Py_ssize_t ntok, tok_cap
    cdef int64_t* starts
    cdef int64_t* ends
    cdef Py_ssize_t nseq, seq_cap
    cdef char* word             # a token being resolved (stemmed in place)
    cdef Py_ssize_t word_cap
    cdef unsigned char* low     # the text being scanned, lowercased, + 8 readable bytes
    cdef Py_ssize_t low_cap
    cdef uint64_t* bits         # its word-character bitmap (+ a zero word), then newlines
    cdef Py_ssize_t bits_cap
    # Per table, recently seen tokens of up to 8 bytes (their zero-padded
    # prefix; 0, which no token has, marks an empty slot) and their final ids.
    cdef uint64_t recent_pre[2][RECENT_SLOTS]
    cdef int32_t recent_id[2][RECENT_SLOTS]

    def __cinit__(self, stopwords=(), exceptions=None):
        cdef bytes w, v
        cdef int32_t g, gv
        if (vocab_init(&self.raw, False) < 0 or vocab_init(&self.exc, False) < 0
                or vocab_init(&self.excv, False) < 0 or vocab_init(&self.fin, False) < 0):
            raise MemoryError()
        self.word_cap = 64
        self.word = <char*>malloc(self.word_cap)
        if self.word == NULL:
            raise MemoryError()
        for word in stopwords:
            w = bytes(word)
            g = vocab_intern(&self.raw, <const char*>w, len(w))
            if g < 0 or grow_array(<void**>&self.stop, &self.stop_cap, g + 1, 1, 0) < 0:
                raise MemoryError()
            self.stop[g] = 1
        for key, value in (exceptions or {}).items():
            w = key.encode("ascii") if isinstance(key, str) else bytes(key)
            v = value.encode("ascii") if isinstance(value, str) else bytes(value)
            g = vocab_intern(&self.exc, <const char*>w, len(w))
            gv = vocab_intern(&self.excv, <const char*>v, len(v))
            if g < 0 or gv < 0 or grow_array(<void**>&self.exc_value, &self.exc_value_cap,
                                             g + 1, sizeof(int32_t), -1) < 0:
                raise MemoryError()
            self.exc_value[g] = gv

    def empty_copy(self):
        """A new corpus with this one's stopwords and exceptions and no text
        (this one must have none yet): its tables copied in C."""
        if self.nseq or self.ntok or self.fin.n:
            raise ValueError("empty_copy of a corpus that has text")
        cdef TokenCorpus copy = TokenCorpus.__new__(TokenCorpus)   # empty tables
        vocab_free(&copy.raw)
        vocab_free(&copy.exc)
        vocab_free(&copy.excv)
        if (vocab_copy(&copy.raw, &self.raw) < 0 or vocab_copy(&copy.exc, &self.exc) < 0
                or vocab_copy(&copy.excv, &self.excv) < 0
                or grow_array(<void**>&copy.stop, &copy.stop_cap, self.stop_cap, 1, 0) < 0
                or grow_array(<void**>&copy.exc_value, &copy.exc_value_cap,
                              self.exc_value_cap, sizeof(int32_t), -1) < 0):
            raise MemoryError()
        if self.stop_cap:
            memcpy(copy.stop, self.stop, self.stop_cap)
        if self.exc_value_cap:
            memcpy(copy.exc_value, self.exc_value, self.exc_value_cap * sizeof(int32_t))
        return copy

    def __dealloc__(self):
        vocab_free(&self.raw)
        vocab_free(&self.exc)
        vocab_free(&self.excv)
        vocab_free(&self.fin)
        free(self.exc_value)
        free(self.stop)
        free(self.final[0])
        free(self.final[1])
        free(self.tokens)
        free(self.starts)
        free(self.ends)
        free(self.word)
        free(self.low)
        free(self.bits)

    def __len__(self):
        return self.nseq

    def vocab_size(self):
        """How many distinct final strings the summaries have."""
        return self.fin.n

    # Below, -1 (-3 for a token id) means out of memory; nothing touches a
    # Python object.

    cdef int32_t _resolve(self, int table, int32_t g, Py_ssize_t n) noexcept nogil:
        """The final id of raw token g (word[0:n]) under table."""
        cdef int32_t e, f, v
        if g < self.stop_cap and self.stop[g]:
            return -1
        if table == 1 and n > 3:
            e = vocab_find(&self.exc, self.word, n, vocab_hash(self.word, n),
                           vocab_prefix(self.word, n))
            if e >= 0:                     # a WordNet exception: its base form
                v = self.exc_value[e]
                f = vocab_intern(&self.fin, self.excv.pool + self.excv.off[v],
                                 self.excv.size[v])
            else:                          # the Porter stem, in place
                f = vocab_intern(&self.fin, self.word, stem_chars(self.word, n))
        else:
            f = vocab_intern(&self.fin, self.word, n)
        return f if f >= 0 else -3

    cdef inline int32_t _final(self, int table, const unsigned char* w, Py_ssize_t n,
                               uint64_t h, uint64_t pre) noexcept nogil:
        """The final id of the raw token w[0:n] (hash h, first 8 bytes pre)
        under table (-1: dropped)."""
        cdef int32_t g = vocab_find(&self.raw, <const char*>w, n, h, pre)
        cdef int32_t f
        if g < 0:
            g = vocab_intern_hashed(&self.raw, <const char*>w, n, h)
            if g < 0:
                return -3
        if g >= self.final_cap[table] and grow_array(
                <void**>&self.final[table], &self.final_cap[table], g + 1,
                sizeof(int32_t), 0xFE) < 0:
            return -3
        f = self.final[table][g]
        if f == UNRESOLVED:
            if n > self.word_cap and grow_array(<void**>&self.word, &self.word_cap, n, 1,
                                                -1) < 0:
                return -3
            memcpy(self.word, w, n)
            f = self._resolve(table, g, n)
            if f == -3:
                return -3
            self.final[table][g] = f
        return f

    cdef Py_ssize_t _sequence(self, int64_t start, int64_t end) noexcept nogil:
        cdef Py_ssize_t cap = self.seq_cap
        if self.nseq == self.seq_cap:
            if grow_array(<void**>&self.starts, &cap, self.nseq + 1, sizeof(int64_t), -1) < 0:
                return -1
            cap = self.seq_cap
            if grow_array(<void**>&self.ends, &cap, self.nseq + 1, sizeof(int64_t), -1) < 0:
                return -1
            self.seq_cap = cap
        self.starts[self.nseq] = start
        self.ends[self.nseq] = end
        self.nseq += 1
        return self.nseq - 1

    cdef int _classify(self, const unsigned char* s, Py_ssize_t n) noexcept nogil:
        """Classify s[0:n] 16 bytes at a time (``classify.h``): lowercased
        into ``low``, its word characters marked in ``bits``, its newlines in
        ``bits + nw + 1`` (nw = (n + 63) // 64); and room for its tokens (at
        most (n + 1) // 2, plus the slot ``_tokens`` writes past the last)."""
        cdef Py_ssize_t nw = (n + 63) >> 6
        if (grow_array(<void**>&self.low, &self.low_cap, n + 8, 1, -1) < 0
                or grow_array(<void**>&self.bits, &self.bits_cap, 2 * nw + 1,
                              sizeof(uint64_t), -1) < 0
                or grow_array(<void**>&self.tokens, &self.tok_cap,
                              self.ntok + (n + 1) // 2 + 1, sizeof(int32_t), -1) < 0):
            return -1
        memset(self.low + n, 0, 8)
        classify_latin1(s, n, self.low, self.bits, self.bits + nw + 1)
        self.bits[nw] = 0                # a run ends there at the latest
        return 0

    cdef int _tokens(self, Py_ssize_t first, Py_ssize_t last, int table) noexcept nogil:
        """Append the tokens of the classified text that start in
        [first, last), where byte ``last`` is not a word character (or the
        text ends there): each run of marked bits, interned."""
        cdef Py_ssize_t wi = first >> 6, start, end, length, slot
        cdef uint64_t word_bits, h, pre
        cdef const uint64_t* wbits = self.bits
        cdef int32_t t
        if first >= last:
            return 0
        word_bits = wbits[wi] & (ONES << (first & 63))
        while True:
            while word_bits == 0:
                wi += 1
                if (wi << 6) >= last:
                    return 0
                word_bits = wbits[wi]
            start = (wi << 6) + rk_low_bit64(word_bits)
            if start >= last:
                return 0
            # the run ends at the first clear bit after start
            word_bits = ~word_bits & (ONES << (start & 63))
            while word_bits == 0:
                wi += 1
                word_bits = ~wbits[wi]
            end = (wi << 6) + rk_low_bit64(word_bits)
            length = end - start
            pre = rk_load_prefix(self.low + start, length)
            if length <= 8:
                # A token of up to 8 bytes is its zero-padded prefix (tokens
                # have no zero byte): a small direct-mapped cache from it to
                # the final id saves the vocabulary lookups of most tokens.
                h = vocab_hash16(pre, 0, length)
                slot = <Py_ssize_t>(h >> 40) & (RECENT_SLOTS - 1)
                if self.recent_pre[table][slot] == pre:
                    t = self.recent_id[table][slot]
                else:
                    t = self._final(table, self.low + start, length, h, pre)
                    if t != -3:
                        self.recent_pre[table][slot] = pre
                        self.recent_id[table][slot] = t
            else:
                h = vocab_hash(<const char*>self.low + start, length)
                t = self._final(table, self.low + start, length, h, pre)
            if t == -3:
                return -1
            # Written either way, kept unless dropped (-1): no branch on
            # stopwords. _classify made room for every token and one more.
            self.tokens[self.ntok] = t
            self.ntok += t >= 0
            word_bits = wbits[wi] & (ONES << (end & 63))

    cdef int _scan(self, const unsigned char* s, Py_ssize_t n, int table) noexcept nogil:
        """Append the tokens of s[0:n]."""
        if n == 0:
            return 0
        if self._classify(s, n) < 0:
            return -1
        return self._tokens(0, n, table)

    def extend(self, TokenCorpus other not None):
        """Append ``other``'s tokens and sequences (its final ids translated
        to this corpus's); returns the index here of its sequence 0."""
        if other is self:
            raise ValueError("a corpus cannot extend itself")
        cdef Py_ssize_t first = self.nseq, base = self.ntok, i
        cdef int32_t* ids = NULL
        cdef Py_ssize_t ids_cap = 0
        cdef int err = 0
        with nogil:
            if (grow_array(<void**>&ids, &ids_cap, other.fin.n + 1, sizeof(int32_t), -1) < 0
                    or grow_array(<void**>&self.tokens, &self.tok_cap, base + other.ntok + 1,
                                  sizeof(int32_t), -1) < 0):
                err = -1
            i = 0
            while err == 0 and i < other.fin.n:
                ids[i] = vocab_intern(&self.fin, other.fin.pool + other.fin.off[i],
                                      other.fin.size[i])
                if ids[i] < 0:
                    err = -1
                i += 1
            if err == 0:
                for i in range(other.ntok):
                    self.tokens[base + i] = ids[other.tokens[i]]
                self.ntok = base + other.ntok
                i = 0
                while err == 0 and i < other.nseq:
                    if self._sequence(base + other.starts[i], base + other.ends[i]) < 0:
                        err = -1
                    i += 1
        free(ids)
        if err != 0:
            raise MemoryError()
        return first

    def add_texts(self, texts, int table):
        """``add_text`` of each text, then a sequence spanning its
        sentences: an int64 array of (first, end, span) sequence indices per
        text. A text is bytes, or str: read as its UTF-8 bytes (lone
        surrogates as ``surrogateescape`` writes them) would be, in place and
        without encoding it, since every byte of a non-ASCII character's
        UTF-8 separates tokens as any non-ASCII code point does here. Runs
        without the GIL."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        cdef list held = list(texts)        # keeps every buffer alive below
        cdef Py_ssize_t k, count = len(held), first, bad = -1, narrow_cap = 0
        out = np.empty((count, 3), dtype=np.int64)
        cdef int64_t[:, ::1] o = out
        cdef const void** data = <const void**>malloc((count + 1) * sizeof(void*))
        cdef Py_ssize_t* size = <Py_ssize_t*>malloc((count + 1) * sizeof(Py_ssize_t))
        cdef char* kind = <char*>malloc(count + 1)
        cdef unsigned char* narrow = NULL
        cdef const unsigned char* chars
        cdef int err = 0
        cdef object text
        if data == NULL or size == NULL or kind == NULL:
            free(data)
            free(size)
            free(kind)
            raise MemoryError()
        try:
            for k in range(count):
                text = held[k]
                if type(text) is not str:
                    if isinstance(text, str):
                        text = held[k] = str(text)
                    elif type(text) is not bytes:
                        if not isinstance(text, (bytes, bytearray)):
                            raise TypeError(f"texts[{k}] must be str or bytes, "
                                            f"not {type(text).__name__}")
                        text = held[k] = bytes(text)
                if type(text) is str:
                    data[k] = PyUnicode_DATA(text)
                    size[k] = PyUnicode_GET_LENGTH(text)
                    kind[k] = <char>PyUnicode_KIND(text)
                else:
                    data[k] = <const char*>text
                    size[k] = len(<bytes>text)
                    kind[k] = 1
            with nogil:
                for k in range(count):
                    chars = <const unsigned char*>data[k]
                    if kind[k] != 1:
                        if grow_array(<void**>&narrow, &narrow_cap, size[k] + 1, 1, -1) < 0:
                            err = -1
                            break
                        if _narrow(data[k], size[k], kind[k], narrow) < 0:
                            bad = k
                            break
                        chars = narrow
                    first = self._lines(chars, size[k], table)
                    if first < 0:
                        err = -1
                        break
                    o[k, 0] = first
                    o[k, 1] = self.nseq
                    o[k, 2] = self._span(first, self.nseq)
                    if o[k, 2] < 0:
                        err = -1
                        break
            if bad >= 0:        # a surrogate surrogateescape cannot write: its error
                held[bad].encode("utf-8", "surrogateescape")
                raise ValueError(f"texts[{bad}] cannot be encoded as UTF-8")
        finally:
            free(data)
            free(size)
            free(kind)
            free(narrow)
        if err != 0:
            raise MemoryError()
        return out

    def add_text(self, bytes data not None, int table):
        """One sequence per non-empty line of ``data`` (SPL); returns the
        index of the first."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        return _checked(self._lines(<const unsigned char*><const char*>data, len(data), table))

    def add_file(self, path, int table):
        """``add_text`` of the file at ``path`` (str or bytes), read in C
        (no bytes object per file)."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        if _WINDOWS:            # fopen takes ANSI paths there: let Python open it
            with open(path, "rb") as f:
                data = f.read()
            return self.add_text(data, table)
        cdef bytes name = os.fsencode(path)
        cdef Py_ssize_t size = 0, cap = 65536
        cdef unsigned char* buf = <unsigned char*>malloc(cap)
        cdef int err
        if buf == NULL:
            raise MemoryError()
        try:
            err = _read_file(<const char*>name, &buf, &cap, &size)
            if err == -1:
                raise MemoryError()
            if err != 0:
                raise OSError(err, os.strerror(err), path)
            return _checked(self._lines(buf, size, table))
        finally:
            free(buf)

    def add_files(self, paths, int table):
        """``add_texts`` of the files at ``paths`` (str, bytes or path-like),
        read in C without the GIL (no bytes object per file); a file that
        cannot be read raises ``OSError`` naming it."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        paths = list(paths)
        if _WINDOWS:            # fopen takes ANSI paths there: let Python open them
            texts = []
            for path in paths:
                with open(path, "rb") as f:
                    texts.append(f.read())
            return self.add_texts(texts, table)
        cdef list names = [os.fsencode(path) for path in paths]
        cdef Py_ssize_t k, count = len(names), first, size = 0, cap = 65536, bad = -1
        out = np.empty((count, 3), dtype=np.int64)
        cdef int64_t[:, ::1] o = out
        cdef const char** cnames = <const char**>malloc((count + 1) * sizeof(char*))
        cdef unsigned char* buf = <unsigned char*>malloc(cap)
        cdef int err = 0
        if cnames == NULL or buf == NULL:
            free(cnames)
            free(buf)
            raise MemoryError()
        for k in range(count):
            cnames[k] = <const char*><bytes>names[k]
        with nogil:
            for k in range(count):
                err = _read_file(cnames[k], &buf, &cap, &size)
                if err == 0:
                    first = self._lines(buf, size, table)
                    o[k, 0] = first
                    o[k, 1] = self.nseq
                    o[k, 2] = self._span(first, self.nseq) if first >= 0 else -1
                    if first < 0 or o[k, 2] < 0:
                        err = -1
                if err != 0:
                    bad = k
                    break
        free(cnames)
        free(buf)
        if err == -1:
            raise MemoryError()
        if err != 0:
            raise OSError(err, os.strerror(err), paths[bad])
        return out

    cdef Py_ssize_t _lines(self, const unsigned char* s, Py_ssize_t n, int table) noexcept nogil:
        """One sequence per non-empty line of s[0:n] (lines end at "\\n"; a
        line of bytes without tokens is an empty sequence); returns the index
        of the first. The text is classified once, its lines found in the
        newline bitmap."""
        cdef Py_ssize_t i = 0, j, wi = 0, nw = (n + 63) >> 6
        cdef Py_ssize_t first = self.nseq
        cdef int64_t start
        cdef const uint64_t* nl
        cdef uint64_t nl_bits
        if n == 0:
            return first
        if self._classify(s, n) < 0:
            return -1
        nl = self.bits + nw + 1
        nl_bits = nl[0]
        while i < n:
            while nl_bits == 0 and wi + 1 < nw:
                wi += 1
                nl_bits = nl[wi]
            if nl_bits:
                j = (wi << 6) + rk_low_bit64(nl_bits)
                nl_bits &= nl_bits - 1
            else:
                j = n
            if j > i:
                start = self.ntok
                if self._tokens(i, j, table) < 0 or self._sequence(start, self.ntok) < 0:
                    return -1
            i = j + 1
        return first

    def add_sentences(self, sentences, int table, bint joined=False):
        """One sequence per sentence (bytes), or with ``joined`` one sequence
        of all their tokens; returns the index of the first."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        cdef Py_ssize_t first = self.nseq
        cdef int64_t start = self.ntok
        cdef bytes b
        for sentence in sentences:
            b = sentence
            if not joined:
                start = self.ntok
            _checked(self._scan(<const unsigned char*><const char*>b, len(b), table))
            if not joined:
                _checked(self._sequence(start, self.ntok))
        if joined:
            _checked(self._sequence(start, self.ntok))
        return first

    def add_span(self, Py_ssize_t first, Py_ssize_t last):
        """A sequence from the start of sequence ``first`` to the end of
        sequence ``last - 1`` (empty when ``first == last``); returns its index."""
        if not (0 <= first <= last <= self.nseq):
            raise ValueError(f"sequences [{first}, {last}) out of range")
        return _checked(self._span(first, last))

    cdef Py_ssize_t _span(self, Py_ssize_t first, Py_ssize_t last) noexcept nogil:
        if first == last:
            return self._sequence(self.ntok, self.ntok)
        return self._sequence(self.starts[first], self.ends[last - 1])

    def arrays(self):
        """(tokens int32, seq_start int64, seq_end int64) as new numpy arrays."""
        tokens = np.empty(self.ntok, dtype=np.int32)
        starts = np.empty(self.nseq, dtype=np.int64)
        ends = np.empty(self.nseq, dtype=np.int64)
        cdef int32_t[::1] t = tokens
        cdef int64_t[::1] a = starts
        cdef int64_t[::1] b = ends
        if self.ntok:
            memcpy(&t[0], self.tokens, self.ntok * sizeof(int32_t))
        if self.nseq:
            memcpy(&a[0], self.starts, self.nseq * sizeof(int64_t))
            memcpy(&b[0], self.ends, self.nseq * sizeof(int64_t))
        return tokens, starts, ends
