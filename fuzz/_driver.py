"""What the byte-input fuzz targets share: the mutator, the seeded random
loop with its per-case timeout and saved crashes, and the command line
(``--iterations``, ``--input``, ``--write-seeds``, or atheris).

A target is a module of its own (``fuzz_jsonl_reader.py``,
``fuzz_rouge155_readers.py``) that defines how bytes become a case and what
must hold, and hands them to ``main(Target(...))``.
"""
import argparse
import hashlib
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, List, Sequence


@dataclass
class Target:
    """A fuzz target.

    name: the script's name, in its messages.
    test_one_input: runs one input; any exception is a failure.
    seed_inputs: valid inputs, which must hold themselves.
    dictionary: byte strings the mutator inserts.
    header: how many leading bytes pick the case (mutated only by setting
        one of the first two bytes to a value of at least ``header_min``).
    header_min: the least value a mutated header byte takes.
    crash_prefix: the saved inputs' file name prefix.
    describe: what ``--input`` prints of an input before replaying it.
    holds: the closing line of a clean run, after "N cases, seed S, T s: ".
    instrument: imports the modules atheris instruments (called inside
        ``atheris.instrument_imports``).
    """
    name: str
    test_one_input: Callable[[bytes], None]
    seed_inputs: Callable[[], List[bytes]]
    dictionary: Sequence[bytes]
    header: int
    header_min: int
    crash_prefix: str
    describe: Callable[[bytes], object]
    holds: str
    instrument: Callable[[], None]


def mutate(rng: random.Random, data: bytes, target: Target) -> bytes:
    """A few random edits of ``data``: deletions, dictionary words, random
    bytes, copies of its own bytes, a new header byte; at most 20,000 bytes."""
    buf = bytearray(data)
    head = target.header
    for _ in range(rng.randrange(1, 8)):
        op = rng.randrange(6)
        pos = rng.randrange(head, len(buf) + 1) if len(buf) > head else len(buf)
        if op == 0 and len(buf) > head:
            del buf[pos:pos + rng.randrange(1, 16)]
        elif op == 1:
            buf[pos:pos] = rng.choice(target.dictionary)
        elif op == 2 and len(buf) > head:
            buf[min(pos, len(buf) - 1)] = rng.randrange(256)
        elif op == 3:
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        elif op == 4 and len(buf) > max(head + 1, 2):
            lo = rng.randrange(2, len(buf))
            buf[pos:pos] = buf[lo:lo + rng.randrange(1, 64)]
        elif op == 5 and len(buf) > 1:
            buf[rng.randrange(2)] = rng.randrange(target.header_min, 256)
    return bytes(buf[:20000])


def _save(data: bytes, directory: str, target: Target) -> str:
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, target.crash_prefix + hashlib.sha1(data).hexdigest())
    with open(path, "wb") as f:
        f.write(data)
    return path


class CaseTimeout(BaseException):
    """A case ran longer than --case-seconds."""


def _timed_out(signum, frame):
    raise CaseTimeout("one case ran longer than the limit (--case-seconds)")


def random_loop(target: Target, iterations: int, seed: int, seconds: float,
                crash_dir: str, case_seconds: float) -> None:
    """The seeds, then ``iterations`` mutated seeds (or until ``seconds``);
    a failing input is saved to ``crash_dir`` and re-raised."""
    signal.signal(signal.SIGALRM, _timed_out)
    rng = random.Random(seed)
    seeds = target.seed_inputs()
    for data in seeds:                  # the seeds themselves must hold
        target.test_one_input(data)
    t0 = time.monotonic()
    done = 0
    for done in range(1, iterations + 1):
        data = mutate(rng, rng.choice(seeds), target)
        signal.setitimer(signal.ITIMER_REAL, case_seconds)
        try:
            target.test_one_input(data)
            signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException:
            signal.setitimer(signal.ITIMER_REAL, 0)
            path = _save(data, crash_dir, target)
            print("%s: FAILED on iteration %d (seed %d); input saved to %s; replay: "
                  "python %s --input %s" % (target.name, done, seed, path, sys.argv[0], path),
                  file=sys.stderr)
            raise
        if seconds and time.monotonic() - t0 > seconds:
            break
    print("%s: %d cases, seed %d, %.1f s: %s"
          % (target.name, done, seed, time.monotonic() - t0, target.holds))


def main(target: Target, description: str) -> None:
    """The target's command line (its module docstring says how to call it)."""
    parser = argparse.ArgumentParser(description=description)
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
        for data in target.seed_inputs():
            with open(os.path.join(args.write_seeds, hashlib.sha1(data).hexdigest()),
                      "wb") as f:
                f.write(data)
        return
    if args.input:
        with open(args.input, "rb") as f:
            data = f.read()
        print(target.describe(data))
        target.test_one_input(data)
        print("%s: the case holds" % target.name)
        return
    if args.iterations is not None:
        random_loop(target, args.iterations, args.seed, args.seconds, args.crash_dir,
                    args.case_seconds)
        return
    try:
        import atheris
    except ImportError:
        sys.exit("%s: atheris is not installed (pip install atheris); or run the plain "
                 "loop: --iterations N --seed S" % target.name)
    with atheris.instrument_imports(include=["rougekit"]):
        target.instrument()
    atheris.Setup([sys.argv[0]] + rest, target.test_one_input)
    atheris.Fuzz()
