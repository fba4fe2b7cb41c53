#!/usr/bin/env python3
"""Fuzz target for the command line's JSONL reader (``rougekit._readers``):
hostile JSONL files, read alone and by ``rougekit score`` and ``compare``.

Each input (bytes) decodes into one case:

- byte 0 % 5 picks what reads the file:
  0. ``read_jsonl(path, ("candidate",))`` (score, report, audit);
  1. ``read_jsonl(path, ("candidate_a", "candidate_b"))`` (compare);
  2. ``read_lines(path)`` (the text files of ``--candidates``);
  3. ``rougekit score --jsonl FILE`` (``rougekit.cli.main``);
  4. ``rougekit compare --jsonl FILE`` (10 resamples, 10 trials);
- byte 1 is a size k for the macros below;
- the rest is the file's bytes, where the bytes 0x01, 0x02 and 0x03 (which
  no JSON text holds raw) stand for 1000·k "[", 1000·k "]" and 500·k "9":
  nesting past Python's recursion limit and numbers past int()'s 4300
  digits fit in a short input.

What must hold:

- the readers return what an independent reading gives (the file decoded
  as UTF-8, a leading byte order mark dropped, split on "\\n" with "\\r\\n"
  taken as one end, each non-blank line ``json.loads``-ed and checked), or
  raise ``InputError`` with one line naming the file and, for a bad line,
  that line, the first line the independent reading finds bad; never
  another exception;
- no text read holds a lone surrogate (no other output could write it);
- the commands exit 0, or 2 with one error line on stderr (warnings aside)
  and nothing on stdout; no traceback, no case over ``--case-seconds``.

Usage:
  python fuzz/fuzz_jsonl_reader.py --iterations N [--seed S] [--seconds T]
  python fuzz/fuzz_jsonl_reader.py --input FILE                # replay one input
  python fuzz/fuzz_jsonl_reader.py [libFuzzer flags] [CORPUS_DIR]   # atheris

The random loop mutates seed inputs (``seed_inputs``): valid files of each
mode, and the cases of tests/test_readers.py. See fuzz/README.md.
"""
import contextlib
import io
import json
import os
import re
import sys
import tempfile

import _driver

MODES = ["read_jsonl", "read_jsonl compare", "read_lines", "score", "compare"]
SURROGATE = re.compile("[\ud800-\udfff]")


def decode_case(data):
    """bytes -> (mode, the file's bytes)."""
    mode = MODES[data[0] % len(MODES)] if data else MODES[0]
    k = data[1] if len(data) > 1 else 1
    body = data[2:]
    body = (body.replace(b"\x01", b"[" * (1000 * k)).replace(b"\x02", b"]" * (1000 * k))
            .replace(b"\x03", b"9" * (500 * k)))
    return mode, body


# --- the independent reading ----------------------------------------------------------

class Bad(Exception):
    """The independent reading refuses the file: ``line`` is the line (0: the
    file as a whole)."""

    def __init__(self, line):
        super().__init__(line)
        self.line = line


def expected_lines(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Bad(data.count(b"\n", 0, e.start) + 1) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if text.endswith("\n"):
        text = text[:-1]
    if not text:
        return []
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def nesting(line):
    """How deep the line's arrays and objects go (outside strings)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in line:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def near_the_recursion_limit(body, line):
    """Whether line ``line`` nests about as deep as Python's recursion limit,
    where the reader and the independent reading, a few frames apart on the
    stack, may disagree on whether it can be read."""
    lines = expected_lines(body)
    return 0 < line <= len(lines) and \
        abs(nesting(lines[line - 1]) - sys.getrecursionlimit()) < 200


def expected_jsonl(data, fields):
    texts, references = [[] for _ in fields], []
    for number, line in enumerate(expected_lines(data), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line, parse_int=lambda digits: 0.0)
        except (ValueError, RecursionError):
            raise Bad(number) from None
        if not isinstance(item, dict) or any(f not in item for f in (*fields, "references")):
            raise Bad(number)
        refs = item["references"]
        refs = [refs] if isinstance(refs, str) else refs
        values = [item[f] for f in fields]
        if not isinstance(refs, list) or not refs or \
                not all(isinstance(t, str) for t in values + refs) or \
                any(SURROGATE.search(t) for t in values + refs):
            raise Bad(number)
        for column, value in zip(texts, values):
            column.append(value)
        references.append(refs)
    if not references:
        raise Bad(0)
    return texts, references


# --- one case -------------------------------------------------------------------------

_WORKDIR = None


def _path():
    global _WORKDIR
    if _WORKDIR is None:
        _WORKDIR = tempfile.mkdtemp(prefix="rougekit-fuzz-jsonl-")
    return os.path.join(_WORKDIR, "items.jsonl")


def check_reader(mode, path, body):
    from rougekit._readers import (
        COMPARE_FIELDS,
        JSONL_FIELDS,
        InputError,
        read_jsonl,
        read_lines,
    )
    fields = COMPARE_FIELDS if mode == "read_jsonl compare" else JSONL_FIELDS
    try:
        expected = expected_lines(body) if mode == "read_lines" else \
            expected_jsonl(body, fields)
    except Bad as e:
        expected = e
    try:
        got = read_lines(path) if mode == "read_lines" else read_jsonl(path, fields)
    except InputError as e:
        message = str(e)
        if "\n" in message or not message.startswith(path):
            raise AssertionError("not one line naming the file: %r" % message) from None
        named = re.match(re.escape(path) + r" line (\d+)", message)
        line = int(named.group(1)) if named else 0
        if isinstance(expected, Bad) and line == expected.line or \
                near_the_recursion_limit(body, line):
            return
        if not isinstance(expected, Bad):
            raise AssertionError("refused a file the independent reading reads: %r"
                                 % message) from None
        raise AssertionError("named line %d, the first bad one is %d: %r"
                             % (line, expected.line, message)) from None
    if isinstance(expected, Bad):
        if near_the_recursion_limit(body, expected.line):
            return
        raise AssertionError("read a file whose line %d is bad" % expected.line)
    if got != expected:
        raise AssertionError("read otherwise than the independent reading")
    if mode == "read_lines":
        return
    for column in got[0] + got[1]:
        if any(SURROGATE.search(t) for t in column):
            raise AssertionError("a lone surrogate was read")


def check_command(mode, path):
    from rougekit import cli
    argv = ["score", "--jsonl", path] if mode == "score" else \
        ["compare", "--jsonl", path, "--bootstrap", "10", "--ar-trials", "10"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    lines = [line for line in err.getvalue().splitlines()
             if not line.startswith("rougekit: warning: ")]
    if status == 0:
        if lines:
            raise AssertionError("exit 0 with stderr %r" % err.getvalue()[-500:])
        return
    if status != 2 or out.getvalue() or len(lines) != 1 or \
            not lines[0].startswith("rougekit: error: "):
        raise AssertionError("status %r, %d characters on stdout, stderr %r"
                             % (status, len(out.getvalue()), err.getvalue()[-500:]))


def test_one_input(data):
    mode, body = decode_case(data)
    path = _path()
    with open(path, "wb") as f:
        f.write(body)
    if mode in ("score", "compare"):
        check_command(mode, path)
    else:
        check_reader(mode, path, body)


# --- seeds and the random loop ---------------------------------------------------------

def seed_inputs():
    """Valid files of every mode, and the cases of tests/test_readers.py."""
    item = b'{"candidate": "the cat sat", "references": ["a cat sat", "the mat"]}\n'
    pair = b'{"candidate_a": "the cat", "candidate_b": "a cat", "references": "a cat"}\n'
    bodies = [
        item * 3, b"\xef\xbb\xbf" + item + b"\r\n" + item,
        b'{"candidate": "x", "references": ["y"], "n": \x03, "deep": \x01\x02}\n',
        b'{"candidate": "a \\ud800", "references": ["b"]}\n',
        b'{"candidate": "a \\ud83d\\ude00", "references": ["\\uD83D"]}\n',
        b'{"candidate": "caf\xc3\xa9 \xff", "references": ["x"]}\n',
        b'\x01\x02\n', b'{"candidate": \x03, "references": [-\x03.5e\x03]}\n',
        b'{"candidate": "a", "references": []}\n\n  \n[1, 2]\n"s"\nnull\n',
        b'{"candidate": "a\\u0000\\u001b[31m\\r", "references": ["\\u009b"]}\n',
    ]
    seeds = []
    for mode in range(len(MODES)):
        for body in bodies + [pair * 2, pair.replace(b'"a cat"}', b'["\\udfff"]}')]:
            seeds.append(bytes([mode, 1]) + body)
    return seeds


DICTIONARY = [b"{", b"}", b"[", b"]", b'"', b":", b",", b"\n", b"\r\n", b"\r", b" ",
              b'"candidate"', b'"candidate_a"', b'"candidate_b"', b'"references"', b"null",
              b"true", b"1e999", b"NaN", b"-Infinity", b"\\u", b"\\ud800", b"\\udc00",
              b"\\ud83d\\ude00", b"\\\\", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\xed\xa0\x80",
              b"\x01", b"\x02", b"\x03", b'{"a":' * 20, b"[" * 40, b"]" * 40, b"0" * 30]


TARGET = _driver.Target(
    name="fuzz_jsonl_reader", test_one_input=test_one_input, seed_inputs=seed_inputs,
    dictionary=DICTIONARY, header=2, header_min=1, crash_prefix="crash-jsonl-",
    describe=lambda data: decode_case(data)[0],
    holds="every file read as the independent reading reads it or refused in one line "
          "naming it; every command exit 0 or one line and exit 2",
    instrument=lambda: (__import__("rougekit._readers"), __import__("rougekit.cli")))


if __name__ == "__main__":
    _driver.main(TARGET, __doc__.split("\n\n")[0])
