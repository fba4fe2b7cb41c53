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
import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import re
import signal
import sys
import tempfile
import time

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


def _mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        op = rng.randrange(6)
        pos = rng.randrange(2, len(data) + 1) if len(data) > 2 else len(data)
        if op == 0 and len(data) > 2:
            del data[pos:pos + rng.randrange(1, 16)]
        elif op == 1:
            data[pos:pos] = rng.choice(DICTIONARY)
        elif op == 2 and len(data) > 2:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        elif op == 3:
            data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        elif op == 4 and len(data) > 3:
            lo = rng.randrange(2, len(data))
            data[pos:pos] = data[lo:lo + rng.randrange(1, 64)]
        elif op == 5 and len(data) > 1:
            data[rng.randrange(2)] = rng.randrange(1, 256)
    return bytes(data[:20000])


def _save(data, directory):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "crash-jsonl-" + hashlib.sha1(data).hexdigest())
    with open(path, "wb") as f:
        f.write(data)
    return path


class CaseTimeout(BaseException):
    """A case ran longer than --case-seconds."""


def _timed_out(signum, frame):
    raise CaseTimeout("one case ran longer than the limit (--case-seconds)")


def random_loop(iterations, seed, seconds, crash_dir, case_seconds):
    signal.signal(signal.SIGALRM, _timed_out)
    rng = random.Random(seed)
    seeds = seed_inputs()
    for data in seeds:                  # the seeds themselves must hold
        test_one_input(data)
    t0 = time.monotonic()
    done = 0
    for done in range(1, iterations + 1):
        data = _mutate(rng, rng.choice(seeds))
        signal.setitimer(signal.ITIMER_REAL, case_seconds)
        try:
            test_one_input(data)
            signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException:
            signal.setitimer(signal.ITIMER_REAL, 0)
            path = _save(data, crash_dir)
            print("fuzz_jsonl_reader: FAILED on iteration %d (seed %d); input saved to %s; "
                  "replay: python %s --input %s" % (done, seed, path, sys.argv[0], path),
                  file=sys.stderr)
            raise
        if seconds and time.monotonic() - t0 > seconds:
            break
    print("fuzz_jsonl_reader: %d cases, seed %d, %.1f s: every file read as the independent "
          "reading reads it or refused in one line naming it; every command exit 0 or one "
          "line and exit 2" % (done, seed, time.monotonic() - t0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int,
                        help="run a seeded random loop of N mutated cases (no atheris)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=0,
                        help="stop the random loop after this many seconds")
    parser.add_argument("--case-seconds", type=float, default=20,
                        help="the longest one case may take in the random loop")
    parser.add_argument("--input", help="replay one saved input file")
    parser.add_argument("--write-seeds", metavar="DIR",
                        help="write the seed inputs into DIR (an atheris corpus)")
    parser.add_argument("--crash-dir", default=os.path.join(
        tempfile.gettempdir(), "rougekit-fuzz-crashes"))
    args, rest = parser.parse_known_args()
    if args.write_seeds:
        os.makedirs(args.write_seeds, exist_ok=True)
        for data in seed_inputs():
            with open(os.path.join(args.write_seeds, hashlib.sha1(data).hexdigest()),
                      "wb") as f:
                f.write(data)
        return
    if args.input:
        with open(args.input, "rb") as f:
            data = f.read()
        print(decode_case(data)[0])
        test_one_input(data)
        print("fuzz_jsonl_reader: the case holds")
        return
    if args.iterations is not None:
        random_loop(args.iterations, args.seed, args.seconds, args.crash_dir,
                    args.case_seconds)
        return
    try:
        import atheris
    except ImportError:
        sys.exit("fuzz_jsonl_reader: atheris is not installed (pip install atheris); "
                 "or run the plain loop: --iterations N --seed S")
    with atheris.instrument_imports(include=["rougekit"]):
        from rougekit import _readers, cli  # noqa: F401
    atheris.Setup([sys.argv[0]] + rest, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
