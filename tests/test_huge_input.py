"""Huge inputs: rougeL and rougeLsum on two 200,000-token texts, and on a
1,000,000-token text against a short one (one sentence each), in bounded
memory (peak growth < 400 MB), with the exact LCS. How long they take is
benchmarks/bench.py's to report (its long-input rows); here the only clock
is the child's timeout, which a quadratic algorithm (hours on these sizes)
would hit whatever the machine.

Each measurement runs in its own process, started from a small launcher
process: on Linux a child inherits its parent's peak RSS (ru_maxrss) across
fork and exec, so measuring from a child of the (large) pytest process could
hide the growth. The child records ru_maxrss after building the texts and
again after scoring; the difference is the scoring's peak growth.

The whole file takes ~10 s on the compiled backend and ~25 s on the pure one.
Set ROUGEKIT_SKIP_HUGE=1 to skip it.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import rougekit

pytestmark = [pytest.mark.backend, pytest.mark.kernel, pytest.mark.skipif(
    os.environ.get("ROUGEKIT_SKIP_HUGE", "") not in ("", "0"),
    reason="ROUGEKIT_SKIP_HUGE is set")]

MEMORY_LIMIT_MB = 400
# Not a speed requirement (see the docstring): 200k x 200k cells take hours
# for an O(n*m) LCS, seconds for this one, on any machine CI runs on.
TIMEOUT_S = 900

# Measured on one core of the 2-core development machine (seconds, peak MB), as
# in the README's "Time and memory per rouge type":
#   compiled: 200k pair rougeL ~1 s / 35 MB, rougeLsum ~2.7 s / 58 MB;
#             1M vs 50 rougeL 0.03 s / 8 MB, rougeLsum 0.05 s / 16 MB
#   pure:     200k pair rougeL ~3.7 s / 81 MB, rougeLsum ~12 s / 103 MB;
#             1M vs 50 rougeL 0.6 s / 82 MB, rougeLsum 1.4 s / 178 MB

_CHILD = textwrap.dedent(r"""
    import json, random, resource, sys, time

    def maxrss_mb():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0

    case, rouge_type = sys.argv[1], sys.argv[2]
    rng = random.Random(20260101)
    vocab = ["w%d" % i for i in range(5000)]
    weights = [1.0 / (i + 1) for i in range(5000)]    # Zipf-like, as real text

    if case == "pair":
        # x is shared; the target inserts novel tokens "p..", the prediction
        # deletes 30% of x and inserts other novel tokens "q..". The tokens of
        # the prediction that occur in the target are exactly the kept part
        # of x, in order: the LCS is its length, whatever the algorithm.
        def with_novel(tokens, total, prefix):
            # tokens, in order, with (total - len(tokens)) novel tokens
            # spread at random positions
            slots = set(rng.sample(range(total), total - len(tokens)))
            it = iter(tokens)
            return [prefix + str(i) if i in slots else next(it) for i in range(total)]

        x = rng.choices(vocab, weights, k=180000)
        kept = [w for w in x if rng.random() >= 0.30]
        target = with_novel(x, 200000, "p")
        prediction = with_novel(kept, 200000, "q")
        expected_lcs = len(kept)
    else:
        # 1,000,000 random tokens against 50: the LCS by an independent
        # bit-parallel LCS over the short side (Python ints).
        target = rng.choices(vocab, weights, k=1000000)
        prediction = rng.choices(vocab, weights, k=40) + ["zz%d" % i for i in range(10)]
        rng.shuffle(prediction)
        expected_lcs = None

    t_tokens, p_tokens = target, prediction
    target_text, prediction_text = " ".join(t_tokens), " ".join(p_tokens)

    if expected_lcs is None:
        # Hyyro's bit-vector LCS: rows over the long side, bits over the short.
        short, long_ = (p_tokens, t_tokens) if len(p_tokens) <= len(t_tokens) else (t_tokens, p_tokens)
        masks = {}
        for j, w in enumerate(short):
            masks[w] = masks.get(w, 0) | (1 << j)
        full = (1 << len(short)) - 1
        v = full
        for w in long_:
            m = masks.get(w)
            if m:
                u = v & m
                v = ((v + u) | (v - u)) & full
        expected_lcs = len(short) - bin(v).count("1")

    from rougekit import BACKEND, rouge_scorer
    scorer = rouge_scorer.RougeScorer([rouge_type])
    scorer.score("warm up", "warm up the scorer")
    before = maxrss_mb()
    t0 = time.perf_counter()
    score = scorer.score(target_text, prediction_text)[rouge_type]
    seconds = time.perf_counter() - t0
    growth = maxrss_mb() - before
    print(json.dumps({
        "backend": BACKEND, "seconds": seconds, "growth_mb": growth,
        "recall": score.recall, "precision": score.precision,
        "len_t": len(t_tokens), "len_p": len(p_tokens),
        "expected_lcs": expected_lcs}))
""")

# A tiny process between pytest and the measured child (see the docstring).
_LAUNCHER = textwrap.dedent("""
    import subprocess, sys
    r = subprocess.run([sys.executable, "-c"] + sys.argv[1:], capture_output=True, text=True)
    sys.stdout.write(r.stdout); sys.stderr.write(r.stderr); sys.exit(r.returncode)
""")


def _run(case, rouge_type):
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(rougekit.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, _CHILD, case, rouge_type],
        capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("rouge_type", ["rougeL", "rougeLsum"])
@pytest.mark.parametrize("case", [
    "pair", "long-short"], ids=["200k-vs-200k", "1M-vs-50"])
def test_huge_input(case, rouge_type):
    r = _run(case, rouge_type)
    assert r["backend"] == rougekit.BACKEND
    if case == "pair":
        assert r["len_t"] == 200000 and r["len_p"] == 200000
    else:
        assert r["len_t"] == 1000000 and r["len_p"] == 50
    lcs = r["expected_lcs"]
    assert lcs is not None and 0 < lcs <= min(r["len_t"], r["len_p"])
    # One sentence each: rougeLsum's union LCS is the LCS, as for rougeL.
    assert r["recall"] == lcs / r["len_t"], r
    assert r["precision"] == lcs / r["len_p"], r
    assert r["growth_mb"] < MEMORY_LIMIT_MB, r
    print(f"{rougekit.BACKEND} {case} {rouge_type}: {r['seconds']:.2f} s, "
          f"+{r['growth_mb']:.0f} MB")


def _is_subsequence(xs, ys):
    it = iter(ys)
    return all(x in it for x in xs)


def _cpu_seconds(fn, *args):
    """(result, the CPU time this process spent in fn): other processes on
    the machine do not count."""
    import time
    t0 = time.process_time()
    result = fn(*args)
    return result, time.process_time() - t0


def test_tiny_vocabulary_is_fast():
    """Match masks come from a table for frequent ids (ColIndex, MatchMasks),
    not from walking their columns row after row: O(n*m/64) however small the
    vocabulary, for the LCS length and for the marked LCS (rougeL/rougeLsum).
    Measured as a ratio, in CPU time, against the same sizes over 5,000
    words (where columns are short), so the machine's speed cancels out: a
    walk over the columns of two words would take about 60 times as long."""
    import random

    from rougekit import _backend
    rng = random.Random(7)
    a = [rng.randrange(2) for _ in range(60000)]
    b = [rng.randrange(2) for _ in range(60000)]
    wide_a = [rng.randrange(5000) for _ in range(60000)]
    wide_b = [rng.randrange(5000) for _ in range(60000)]
    _, wide_seconds = _cpu_seconds(_backend.lcs.lcs_length, wide_a, wide_b)
    _, wide_mark_seconds = _cpu_seconds(_backend.lcs.lcs_indices, wide_a, wide_b)
    got, seconds = _cpu_seconds(_backend.lcs.lcs_length, a, b)
    marked, mark_seconds = _cpu_seconds(_backend.lcs.lcs_indices, a, b)
    # Independent bit-parallel LCS over b (Python ints).
    masks = [0, 0]
    for j, t in enumerate(b):
        masks[t] |= 1 << j
    full = (1 << len(b)) - 1
    v = full
    for t in a:
        u = v & masks[t]
        v = ((v + u) | (v - u)) & full
    assert got == len(b) - bin(v).count("1")
    assert len(marked) == got and _is_subsequence([a[i] for i in marked], b)
    assert seconds < 8 * wide_seconds + 0.05, (seconds, wide_seconds)
    assert mark_seconds < 8 * wide_mark_seconds + 0.05, (mark_seconds, wide_mark_seconds)
