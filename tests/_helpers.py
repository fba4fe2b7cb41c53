"""Shared helpers for the parity tests: rougekit against rouge-score 0.1.2.

Every comparison is exact: ``==`` on the values, ``is`` on their types.
rouge-score returns ``int`` zeros for empty rougeL/rougeLsum inputs and
floats elsewhere, and a drop-in must reproduce that too.
"""
import contextlib
import functools
import importlib
import math
import os
from pathlib import Path

import pytest
from rouge_score import rouge_scorer as ref_rouge_scorer

from rougekit import rouge_scorer as kit_rouge_scorer
from rougekit import scoring as kit_scoring

NGRAM_TYPES = ["rouge%d" % n for n in range(1, 10)]
ALL_TYPES = NGRAM_TYPES + ["rougeL", "rougeLsum"]

# Named sets of rouge types, in different orders: the order of the result
# dict follows the order asked for, and ["rougeLsum"] alone takes a
# separate path in rouge-score (the texts are never tokenized whole).
TYPE_SETS = {
    "all": ALL_TYPES,
    "all-reversed": ALL_TYPES[::-1],
    "lsum-only": ["rougeLsum"],
    "l-only": ["rougeL"],
    "rouge1-only": ["rouge1"],
    "rouge9-only": ["rouge9"],
    "lsum-then-1-2": ["rougeLsum", "rouge1", "rouge2"],
    "l-lsum-1": ["rougeL", "rougeLsum", "rouge1"],
    "common": ["rouge1", "rouge2", "rougeL", "rougeLsum"],
}


DEFAULT_SHARED = Path(__file__).resolve().parents[2] / "shared"

#: ``ROUGEKIT_TEST_SWEEPS=quick`` (what ``.ci/run`` sets unless ``--full``)
#: runs the few exhaustive sweeps on a sample; unset, they run whole.
QUICK_SWEEPS = os.environ.get("ROUGEKIT_TEST_SWEEPS", "full") == "quick"


#: Set by ``scripts/sanitize.sh``: the suite runs under AddressSanitizer and
#: UBSan with every Python allocation through ASan's malloc, where the Python
#: reference computations cost several times more; what the sanitizers look
#: for (an access out of bounds, undefined behaviour) is found by a smaller
#: sample of the same sweep.
SANITIZED = os.environ.get("ROUGEKIT_SANITIZED") == "1"


def compiled_kernel(name):
    """The compiled module ``rougekit._core.<name>``; the test is skipped
    when it is not built, and fails when ROUGEKIT_REQUIRE_EXTENSIONS is set."""
    try:
        return importlib.import_module(f"rougekit._core.{name}")
    except ImportError as exc:
        if os.environ.get("ROUGEKIT_REQUIRE_EXTENSIONS", "") not in ("", "0"):
            pytest.fail(f"compiled core required but not importable: {exc}")
        pytest.skip(f"compiled core not built: {exc}")


def sweep(full, quick, sanitized=None):
    """``full`` normally, ``quick`` under ``ROUGEKIT_TEST_SWEEPS=quick``: the
    size of a slow sweep (how many items, what stride). ``sanitized``, if
    given, replaces ``quick`` under the sanitizers (``SANITIZED``)."""
    if not QUICK_SWEEPS:
        return full
    return sanitized if SANITIZED and sanitized is not None else quick


def examples(n):
    """A property test's ``max_examples``: ``n``, or a quarter of it (at least
    10) under ``ROUGEKIT_TEST_SWEEPS=quick``."""
    return sweep(n, max(10, n // 4))


def child_env(**extra):
    """os.environ for a child Python that imports the same rougekit as this
    process (the installed one, or src/ in a checkout built in place), not
    whatever a fixed path such as ``src/`` would hold."""
    import rougekit
    root = os.path.dirname(os.path.dirname(os.path.abspath(rougekit.__file__)))
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def run_cli(*args, cwd=None, timeout=300):
    """``python -m rougekit ARGS`` in a subprocess (this process's rougekit):
    the CompletedProcess, its output as text."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "rougekit", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout,
                          env=child_env())


def run_on_terminal(command, stream="stdout", env=None, timeout=120):
    """Run ``command`` (an argv list) with one stream, "stdout" or "stderr",
    on a pseudo-terminal and the other to a file (never full, unlike a pipe
    nobody reads); returns (exit code, the terminal's text with "\r\n"
    turned back into "\n", the other stream's text).
    Reads until the child closes the terminal or ``timeout`` seconds pass.
    POSIX only: the caller skips elsewhere (``pytest.importorskip("pty")``)."""
    import pty
    import select
    import subprocess
    import tempfile
    import time
    other = tempfile.TemporaryFile()
    master, slave = pty.openpty()
    ends = {"stdout": other, "stderr": other, stream: slave}
    proc = subprocess.Popen(command, stdout=ends["stdout"], stderr=ends["stderr"],
                            stdin=subprocess.DEVNULL, env=env if env is not None else child_env())
    os.close(slave)
    seen, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:                       # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        if proc.poll() is not None and not ready:
            break
    code = proc.wait(timeout=30)
    os.close(master)
    other.seek(0)
    rest = other.read().decode("utf-8", "replace")
    other.close()
    return code, seen.decode("utf-8", "replace").replace("\r\n", "\n"), rest


def shared_dir():
    """The shared folder holding corpus/make_pairs.py (``ROUGEKIT_SHARED``, else
    ../../shared from this file), or None if it is absent."""
    root = os.environ.get("ROUGEKIT_SHARED")
    path = Path(root) if root else DEFAULT_SHARED
    return path if (path / "corpus" / "make_pairs.py").is_file() else None


def short(value, limit=120):
    """repr() of a test input, cut to a readable length for failure messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...(%d chars)" % len(text)


def _freeze(rouge_types):
    return tuple(rouge_types)


@functools.lru_cache(maxsize=None)
def _scorers(rouge_types, use_stemmer, split_summaries):
    kw = dict(use_stemmer=use_stemmer, split_summaries=split_summaries)
    return (kit_rouge_scorer.RougeScorer(list(rouge_types), **kw),
            ref_rouge_scorer.RougeScorer(list(rouge_types), **kw))


def scorers(rouge_types, use_stemmer=False, split_summaries=False):
    """(rougekit scorer, rouge-score scorer), built once per configuration."""
    return _scorers(_freeze(rouge_types), bool(use_stemmer), bool(split_summaries))


def same_number(a, b):
    """Exact equality of two numbers, and the same type (NaN equals NaN)."""
    if type(a) is not type(b):
        return False
    if a == b:
        return True
    try:
        return math.isnan(a) and math.isnan(b)
    except TypeError:
        return False


def _describe(ours, theirs):
    lines = []
    for key in list(dict.fromkeys(list(theirs) + list(ours))):
        o, t = ours.get(key, "<missing>"), theirs.get(key, "<missing>")
        flag = "  " if o == t else "!!"
        lines.append("%s %r:\n     rougekit:    %r\n     rouge-score: %r"
                     % (flag, key, o, t))
    return "\n".join(lines)


def assert_same_scores(ours, theirs, context=""):
    """Assert a rougekit result dict equals rouge-score's, value and type.

    ``ours`` and ``theirs`` map rouge type -> Score.  Checks, in order:
    the dict itself (``==``), the key order, the key types, the Score class
    (rougekit's own namedtuple named "Score"), and the type of every field
    (``int`` zero versus ``float``).
    """
    where = ("\n" + context) if context else ""
    assert type(ours) is dict, "rougekit returned %s, not dict%s" % (type(ours), where)
    assert ours == theirs, "scores differ%s\n%s" % (where, _describe(ours, theirs))
    assert list(ours) == list(theirs), (
        "key order differs: %r vs %r%s" % (list(ours), list(theirs), where))
    for (ko, vo), (kt, vt) in zip(ours.items(), theirs.items()):
        assert type(ko) is type(kt), "key %r: type %s vs %s%s" % (
            ko, type(ko), type(kt), where)
        assert isinstance(vo, kit_scoring.Score), (
            "%r: %r is not a rougekit.scoring.Score%s" % (ko, type(vo), where))
        assert vo._fields == vt._fields
        types_o = tuple(type(x) for x in vo)
        types_t = tuple(type(x) for x in vt)
        assert types_o == types_t, (
            "%r: field types differ: rougekit %s, rouge-score %s (values %r)%s"
            % (ko, [t.__name__ for t in types_o], [t.__name__ for t in types_t],
               tuple(vo), where))


def compare_score(rouge_types, target, prediction, use_stemmer=False,
                  split_summaries=False):
    """Score one pair with both libraries and assert identical results."""
    ours_scorer, ref_scorer = scorers(rouge_types, use_stemmer, split_summaries)
    theirs = ref_scorer.score(target, prediction)
    ours = ours_scorer.score(target, prediction)
    assert_same_scores(ours, theirs, context=(
        "score(target=%s, prediction=%s), rouge_types=%r, use_stemmer=%r"
        % (short(target), short(prediction), list(rouge_types), use_stemmer)))
    return ours


def compare_score_multi(rouge_types, targets, prediction, use_stemmer=False):
    """score_multi with both libraries and assert identical results."""
    targets = list(targets)
    ours_scorer, ref_scorer = scorers(rouge_types, use_stemmer)
    theirs = ref_scorer.score_multi(targets, prediction)
    ours = ours_scorer.score_multi(targets, prediction)
    assert_same_scores(ours, theirs, context=(
        "score_multi(targets=%s, prediction=%s), rouge_types=%r, use_stemmer=%r"
        % (short(targets), short(prediction), list(rouge_types), use_stemmer)))
    return ours


def first_mismatches(pairs, check, limit=3):
    """Run ``check(pair)`` on each pair; collect up to ``limit`` failures.

    Used by the corpus tests so that one run reports several failing pairs
    (each with its id) instead of stopping at the first.
    """
    failures = []
    for pair in pairs:
        try:
            check(pair)
        except AssertionError as exc:
            failures.append("pair id=%s profile=%s:\n%s"
                            % (pair["id"], pair["profile"], exc))
            if len(failures) >= limit:
                break
    return failures


# Texts that are empty or have no tokens, and ones whose tokens only the
# stemmer, a non-ASCII lowercase or repeats bring together.
EDGE_TEXTS = ["", "   ", "!!! ... ???", "\n\n", "-- , --",
              "running runs ran runner", "the the the the", "İstanbul \u212aelvin ko",
              "caf\u00e9 na\u00efve r\u00e9sum\u00e9", "a b a b a b a b"]


def near_duplicate_texts(sentences, n, seed):
    """``n`` short texts from ``sentences``: windows of 1 to 24 words, and
    copies of earlier texts with words dropped, replaced, inserted or
    repeated, case and punctuation changed, or nothing changed at all; the
    edge texts of ``EDGE_TEXTS`` among them. Deterministic for a seed."""
    import random

    rng = random.Random(seed)
    pool = [s.split() for s in sentences if s.split()]
    out = []
    for i in range(n):
        if i % 37 == 5:
            out.append(EDGE_TEXTS[(i // 37) % len(EDGE_TEXTS)])
            continue
        if out and rng.random() < 0.45:
            words = rng.choice(out).split() or ["x"]
            kind = rng.randrange(5)
            if kind == 0:
                out.append(" ".join(words))
                continue
            if kind == 1:
                out.append(" ".join(words).upper() + rng.choice(["", ".", "!", " ?"]))
                continue
            rate = rng.choice([0.1, 0.2, 0.3, 0.5])
            edited = []
            for w in words:
                r = rng.random()
                if r < rate / 3:
                    continue
                if r < 2 * rate / 3:
                    edited.append(rng.choice(words))
                elif r < rate:
                    edited += [w, rng.choice(words)]
                else:
                    edited.append(w)
            out.append(" ".join(edited))
        else:
            words = rng.choice(pool)
            k = rng.randint(1, 24)
            s = rng.randrange(max(1, len(words) - k + 1))
            out.append(" ".join(words[s:s + k]))
    return out


def corpus_sentences(pairs):
    """The sentences of a list of corpus pairs (candidates and references)."""
    out = []
    for p in pairs:
        for text in [p["candidate"]] + list(p["references"]):
            out += [s for s in text.split("\n") if s.strip()]
    return out


#: Python source for a child process: ``interrupt_when_busy(function_name)``
#: starts a thread that waits until the main thread is inside
#: ``function_name`` and has used 0.05 s of CPU there, then sends this process
#: SIGINT, as a Ctrl-C would, and records when in ``SENT``. It waits on those
#: events rather than on the clock, so a busy machine slows it down without
#: changing what it tests: the signal always lands while the work runs.
#: ``function_name`` may be a path, ``"caller/callee"``: a frame of callee
#: called by caller (one phase of a function that calls callee in several).
INTERRUPT_WHEN_BUSY = """
import os, signal, sys, threading, time
# SIGINT as a terminal delivers it: a process started in the background by a
# non-interactive shell (or under nohup) inherits SIGINT ignored, which Python
# and the CLI rightly leave alone, and the signal would never arrive.
signal.signal(signal.SIGINT, signal.default_int_handler)
SENT = []
def interrupt_when_busy(function_name):
    # The main thread reports, through a profile function of its own, when it
    # calls the named function (path "caller/callee"): it reads only its own
    # frames. (Another thread reading them with sys._current_frames() races
    # with their execution where there is no GIL: free-threaded CPython
    # crashed on it.)
    names = function_name.split("/")[::-1]       # callee first
    inside = threading.Event()
    def profile(frame, event, arg):
        if event != "call" or frame.f_code.co_name != names[0]:
            return
        f, k = frame.f_back, 1
        while f is not None and k < len(names) and f.f_code.co_name == names[k]:
            f, k = f.f_back, k + 1
        if k == len(names):
            sys.setprofile(None)
            inside.set()
    def watch():
        inside.wait()
        start = time.process_time()
        while time.process_time() - start < 0.05:
            time.sleep(0.005)
        # when, by the machine's clock, and the CPU this process had used
        SENT.append((time.monotonic(), time.process_time()))
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=watch, daemon=True).start()
    sys.setprofile(profile)
"""


def forget_nltk_stopwords():
    """NLTK reads its stopwords corpus once and keeps the folder it found it
    in; tests that put their own folder on ``nltk.data.path`` call this on
    set-up and tear-down so that the next reader looks again (whatever order
    pytest, or pytest-xdist, runs them in)."""
    import nltk.corpus
    unload = getattr(nltk.corpus.stopwords, "_unload", None)
    if unload is not None:      # None: not read yet
        unload()


@contextlib.contextmanager
def x86_64_v3_loops(module, on):
    """The tokenizer's x86-64-v3 loops (on, where the CPU has them: skipped
    elsewhere; AVX2 classifying, BMI1 word bounds) or its baseline ones
    (SSE2, portable C), in a compiled module with the hook _set_x86_64_v3;
    the CPU's choice again afterwards."""
    if module._set_x86_64_v3(on) != on:
        module._set_x86_64_v3(True)
        pytest.skip("no x86-64-v3 loops on this CPU or in this build")
    try:
        yield
    finally:
        module._set_x86_64_v3(True)
