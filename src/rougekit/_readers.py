"""What the ``rougekit`` command reads: its text files, its JSONL files and its
text arguments, one home for each (``rougekit.cli`` only calls them).

Every problem is an :class:`InputError` whose one-line message names the file
and, where the problem is on a line, the line (or the flag of an argument);
the command prints it and exits 2, whatever Python raised underneath:

- a file that cannot be read: ``cannot read FILE: REASON``;
- bytes that are not UTF-8: ``FILE line N: not UTF-8 (invalid byte 0xff at
  offset K)``. A UTF-8 byte order mark at the start of a file is read as
  UTF-8 and dropped (Windows tools write one);
- a JSONL line that is not JSON, not an object, lacks a field or holds a
  value of the wrong type; JSON nested deeper than Python's recursion limit
  (arrays or objects in any field, read or not); numbers of any length (read
  as floats: the 4300-digit limit of Python's ``int`` never applies, and no
  field that is read is a number);
- a lone surrogate: JSON's ``\\ud800`` escape (alone, not in a pair) stands
  for no character, UTF-8 cannot encode it, and no other input can hold one
  (a text file's bytes that would encode it are not UTF-8), so it is refused
  where it is found, naming the file, line and field, rather than scored by
  one command and failing in another's output. A command-line argument that
  is not UTF-8 (Python keeps its bytes as surrogates) is refused naming its
  flag, as a file that is not UTF-8 is.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "items.jsonl")
>>> with open(path, "wb") as f:
...     _ = f.write(b'\\xef\\xbb\\xbf{"candidate": "a b", "references": "a c", "n": 1e999}\\n')
>>> read_jsonl(path, ("candidate",))
([['a b']], [['a c']])
>>> with open(path, "w") as f:
...     _ = f.write('{"candidate": "a \\\\ud800", "references": ["a"]}\\n')
>>> read_jsonl(path, ("candidate",))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rougekit._readers.InputError: ...line 1: "candidate" holds a lone surrogate (\\ud800, ...
"""
import json
import os
import re
import sys
from typing import Any, Dict, List, Sequence, Tuple

from rougekit._progress import Progress

__all__ = ["InputError", "read_text", "read_lines", "read_parallel", "read_jsonl",
           "json_object", "json_type", "check_characters", "text_argument", "JSONL_FIELDS",
           "COMPARE_FIELDS"]

#: The texts of an item of ``rougekit score --jsonl`` (and report, audit).
JSONL_FIELDS = ("candidate",)
#: The texts of an item of ``rougekit compare --jsonl``: the two systems'.
COMPARE_FIELDS = ("candidate_a", "candidate_b")

BOM = "\ufeff"
_SURROGATE = re.compile("[\ud800-\udfff]")
# Numbers are never a text: read as floats, any number of digits is read in
# linear time (int() refuses over 4300 digits), and a number where a text is
# expected is still refused by type.
_DECODER = json.JSONDecoder(parse_int=float)


class InputError(ValueError):
    """A file or argument the command cannot use: the message (one line)
    names it, and the line where there is one."""


def read_text(path: str) -> str:
    """The text of a UTF-8 file (a leading byte order mark dropped)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(f"{path} line {line}: not UTF-8 (invalid byte 0x{data[e.start]:02x} "
                         f"at offset {e.start})") from None
    return text[1:] if text.startswith(BOM) else text


def read_lines(path: str) -> List[str]:
    """The lines of a UTF-8 text file, without line ends ("\\n" or "\\r\\n")."""
    text = read_text(path)
    if text.endswith("\n"):
        text = text[:-1]
    if not text:
        return []
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def read_parallel(named_paths: Sequence[Tuple[str, str]]) -> List[List[str]]:
    """Files of one text per line that must align: [(flag, path)] -> their
    lists of lines, checked non-empty and of equal lengths."""
    texts = [read_lines(path) for _, path in named_paths]
    (_, first), lines = named_paths[0], texts[0]
    if not lines:
        raise InputError(f"{first} has no lines")
    for (_, path), other in zip(named_paths[1:], texts[1:]):
        if len(other) != len(lines):
            raise InputError(f"{first} has {len(lines)} lines but {path} has {len(other)}")
    return texts


def read_jsonl(path: str, text_fields: Sequence[str] = JSONL_FIELDS
               ) -> Tuple[List[List[str]], List[List[str]]]:
    """Items of a JSONL file, one JSON object per line (blank lines skipped):
    a string in each of ``text_fields`` and "references", a non-empty list of
    strings (a single str is accepted). Other fields are ignored.

    Returns (texts, references): texts[i] is the list of the values of
    text_fields[i], references the list of each item's references."""
    texts: List[List[str]] = [[] for _ in text_fields]
    references: List[List[str]] = []
    lines = read_lines(path)
    with Progress(len(lines), "reading", "lines") as progress:
        for number, line in enumerate(lines, 1):
            if number % 1000 == 0:
                progress.update(number)
            if line.strip():
                _read_item(line, f"{path} line {number}", text_fields, texts, references)
        progress.update(len(lines))
    if not references:
        raise InputError(f"{path} has no items")
    return texts, references


def json_object(line: str, where: str) -> Dict[str, Any]:
    """One line of a JSON Lines file, which must hold a JSON object; whatever
    Python raises underneath (nesting past the recursion limit, numbers of
    any length: read as floats) is an InputError naming ``where``."""
    try:
        item = _DECODER.decode(line)
    except json.JSONDecodeError as e:
        raise InputError(f"{where}: not valid JSON ({e.msg}, column {e.colno})") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested too deeply to read (arrays or objects "
                         f"about {sys.getrecursionlimit()} levels deep)") from None
    if not isinstance(item, dict):
        raise InputError(f"{where}: expected a JSON object, got {json_type(item)}")
    return item


def check_characters(text: str, where: str, name: str) -> str:
    """``text`` (the string ``name`` of a JSON line), refused when it holds a
    lone surrogate: not a character, and not text UTF-8 can hold."""
    found = _SURROGATE.search(text)
    if found:
        raise InputError(f"{where}: {name} holds a lone surrogate "
                         f"(\\u{ord(found.group()):04x}, character {found.start()}): "
                         "not a character, and not text UTF-8 can hold")
    return text


def _read_item(line: str, where: str, text_fields: Sequence[str],
               texts: List[List[str]], references: List[List[str]]) -> None:
    """Appends one JSONL item's texts and references, checked."""
    item = json_object(line, where)
    for field in (*text_fields, "references"):
        if field not in item:
            raise InputError(f'{where}: missing field "{field}"')
    for field in text_fields:
        if not isinstance(item[field], str):
            raise InputError(f'{where}: "{field}" must be a string, not '
                             f"{json_type(item[field])}")
    refs = item["references"]
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
        raise InputError(f'{where}: "references" must be a string or a non-empty '
                         "list of strings")
    if "\\u" in line:           # only a JSON escape puts a surrogate in a str read from UTF-8
        named = [(f'"{field}"', item[field]) for field in text_fields]
        if isinstance(item["references"], list):
            named += [(f'"references"[{k}]', ref) for k, ref in enumerate(refs)]
        else:
            named.append(('"references"', refs[0]))
        for name, text in named:
            check_characters(text, where, name)
    for column, field in zip(texts, text_fields):
        column.append(item[field])
    references.append(refs)


def json_type(value: Any) -> str:
    """What a decoded JSON value is, in JSON's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string",
            float: "a number"}.get(type(value), type(value).__name__)


def text_argument(flag: str, value: str) -> str:
    """A command-line argument that is a text (``explain --target``), checked:
    an argument that is not UTF-8 (its bytes kept by Python as surrogates) is
    an InputError naming the flag.

    >>> text_argument("--target", "the cat")
    'the cat'
    >>> text_argument("--target", "a \\udcff")
    Traceback (most recent call last):
    ...
    rougekit._readers.InputError: --target is not UTF-8: invalid byte 0xff at offset 2
    """
    found = _SURROGATE.search(value)
    if found is None:
        return value
    try:
        raw = os.fsencode(value)
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{flag} is not UTF-8: invalid byte 0x{raw[e.start]:02x} at "
                         f"offset {e.start}") from None
    except UnicodeEncodeError:
        pass
    raise InputError(f"{flag} holds a lone surrogate (\\u{ord(found.group()):04x}, "
                     f"character {found.start()}): not a character")
