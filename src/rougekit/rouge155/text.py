"""From a summary's bytes to the script's tokens.

ROUGE-1.5.5.pl reads every summary twice, and the two readers differ:

- ``readText`` (ROUGE-N, S/SU, and the unigram counts that clip L and W)
  joins the sentences with spaces, so n-grams cross sentence boundaries;
- ``readText_LCS`` (ROUGE-L and W) keeps the sentence list.

Both take the raw sentences of the file (:func:`read_sentences`), lowercase
ASCII letters only, apply the length limit to the raw text (``-l``: words,
``-b``: bytes; :func:`limit_text`, :func:`limit_lcs_sentences`), then
replace every byte other than ``A-Z a-z 0-9`` by a space (a hyphen becomes a
token ``-`` that the token filter drops, so the effect is the same) and
split on whitespace. Bytes are never decoded: each byte of a UTF-8 character
is one character to the script, and a non-ASCII byte separates words.

>>> read_sentences(b"The Cat sat.\\n\\n  On the mat!\\n", "SPL")
[b'the cat sat.', b'  on the mat!']
>>> raw_tokens(b"well-known: 4:00pm caf\\xc3\\xa9, can't")
[b'well', b'known', b'4', b'00pm', b'caf', b'can', b't']

The kernel's ``TokenCorpus`` turns summaries into token ids, removing
stopwords (``-s``) and stemming (``-m``) as the script does.
"""
import re
from typing import List

from rougekit import _backend

__all__ = ["read_sentences", "limit_text", "limit_lcs_sentences", "raw_tokens",
           "perl_split", "FormatError", "format_name"]


class FormatError(ValueError):
    """An input format the script cannot read a summary in."""


_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")

_SEE = re.compile(rb'^<a (?:size="[0-9]+" )?name="[0-9]+">\[[0-9]+\]</a>\s+'
                  rb'<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_ISI = re.compile(rb'^<S SNTNO="[0-9a-z,]+">([^<]+)</S>')
_SPACES = re.compile(rb"[ \t\n\r\f\x0b]+")


def format_name(fmt):
    """The format's name for ``fmt`` matched as the script does
    (``/^SEE$/i``: any case, one trailing newline allowed), or None."""
    if fmt is None:
        return None
    name = fmt[:-1] if fmt.endswith("\n") else fmt
    name = name.upper()
    return name if name in ("SEE", "ISI", "SPL") else None


def read_sentences(data: bytes, fmt: str) -> List[bytes]:
    """The lowercased sentences of a summary file in format ``fmt``.

    - SPL: every non-empty line, without its ``\\n`` (a ``\\r`` stays; a
      line of spaces is a sentence without tokens);
    - SEE: the text of every line ``<a name="N">[N]</a> <a href="#N" id=N>TEXT``
      (optionally ``<a size="N" name=...``), up to the first ``<``;
    - ISI: the text of every line ``<S SNTNO="...">TEXT</S>``.
    """
    name = format_name(fmt)
    if name == "SPL":
        lines = [line for line in data.split(b"\n") if line]
    elif fmt is None:
        raise FormatError("no input format given (<INPUT-FORMAT TYPE=\"SPL\"/>, SEE or ISI)")
    elif name is None:
        raise FormatError("unknown input format %r: SEE, SPL or ISI" % (fmt,))
    else:
        pattern = _SEE if name == "SEE" else _ISI
        parts = data.split(b"\n")
        last = parts.pop()
        lines = []
        for part in parts:
            m = pattern.match(part + b"\n")
            if m:
                lines.append(m.group(1))
        if last:
            m = pattern.match(last)
            if m:
                lines.append(m.group(1))
    return [line.translate(_LOWER) for line in lines]


def perl_split(sentence: bytes) -> List[bytes]:
    """Perl's ``split(/\\s+/, $s)``: a leading blank gives an empty first
    field (which the script counts as a word), trailing empty fields go."""
    fields = _SPACES.split(sentence)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _take_fields(limit, used):
    """How many fields ``@tokens[0..$limit-$used-1]`` selects (Perl converts
    the range's ends to integers, truncating toward zero)."""
    upper = int(limit - used - 1)
    return upper + 1 if upper >= 0 else 0


def limit_text(sentences: List[bytes], word_limit: float = 0,
               byte_limit: float = 0) -> List[bytes]:
    """The pieces of the n-gram reader's text under a length limit.

    ``-l N``: whole sentences while the words used stay below N, then the
    first N-used words of the next sentence, joined by single spaces.
    ``-b N``: whole sentences while the bytes used (the joining spaces not
    counted) stay below N, then the first N-used bytes of the next one.
    A limit of 0 is no limit.

    >>> limit_text([b"a b c", b"d e f"], word_limit=4)
    [b'a b c', b'd']
    >>> limit_text([b" a b", b"c"], word_limit=2)
    [b' a']
    >>> limit_text([b"abc", b"defg"], byte_limit=5)
    [b'abc', b'de']
    """
    if word_limit:
        out, used = [], 0
        for s in sentences:
            fields = perl_split(s)
            if used + len(fields) < word_limit:
                out.append(s)
                used += len(fields)
            else:
                out.append(b" ".join(fields[:_take_fields(word_limit, used)]))
                break
        return out
    if byte_limit:
        out, used = [], 0
        for s in sentences:
            if used + len(s) < byte_limit:
                out.append(s)
                used += len(s)
            else:
                out.append(s[:int(byte_limit - used)])
                break
        return out
    return list(sentences)


def limit_lcs_sentences(sentences: List[bytes], word_limit: float = 0,
                        byte_limit: float = 0) -> List[bytes]:
    """The LCS reader's sentences under a length limit.

    With ``-l`` the same truncation as :func:`limit_text`. With ``-b`` the
    script's ``readText_LCS`` never adds up the bytes it has used: every
    sentence shorter than N bytes is kept whole, and the first one of N bytes
    or more is cut to N bytes and ends the text.

    >>> limit_lcs_sentences([b"abc", b"defg", b"hijklm"], byte_limit=5)
    [b'abc', b'defg', b'hijkl']
    """
    if word_limit:
        return limit_text(sentences, word_limit=word_limit)
    if byte_limit:
        out = []
        for s in sentences:
            if len(s) < byte_limit:
                out.append(s)
            else:
                out.append(s[:int(byte_limit)])
                break
        return out
    return list(sentences)


def raw_tokens(text: bytes) -> List[bytes]:
    """The script's tokens of a text, before stopwords and stemming: runs of
    ASCII letters and digits, lowercased."""
    return _backend.rouge155_tokens.raw_tokens(text)
