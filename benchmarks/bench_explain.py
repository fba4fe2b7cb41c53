#!/usr/bin/env python3
"""explain on long pairs: the time and memory of ``rougekit explain``, and the
alignment kernel beside rouge-score's table walk.

Texts: the shared corpus's articles (``lee_background.txt``), ``--words``
words in order for the target and the same sentences shuffled for the
prediction (they share most words in another order: a hard case for the
LCS), as one line each (rougeLsum: one sentence a side) and with one sentence
per line (rougeLsum: a union over hundreds of sentence pairs). Each
measurement runs in a fresh process started from a small launcher process (a
child inherits its parent's peak RSS across fork and exec), best of
``--repeat``:

  command line   python -m rougekit explain --rouge-types rougeL,rougeLsum
                 --target TEXT --prediction TEXT, the whole command: wall
                 time and peak RSS, beside the same command on two words
                 (the process at rest). Issue 44's target: under 2 s and
                 under 100 MB more than at rest, at 20,000 words a side.
  Python         rougekit.explain(target, prediction, ["rougeL", "rougeLsum"])
                 at --big-words words a side (too long for a command line's
                 argument, 128 KiB): seconds, peak RSS growth.
  table walk     rouge-score's _lcs_table and _backtrack_norec (what explain
                 ran before) beside _backend.alignment.lcs_alignment on
                 --table-tokens tokens a side: the ratio, in one run.

Checks, before anything is reported: each explanation's scores equal
RougeScorer.score's (in the child); the kernel's positions equal the pure
twin's on the --words pair (both text shapes) and rouge-score's walk, both
sides, on the --table-tokens pair.

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_explain.py [--words 20000]
        [--big-words 45000] [--table-tokens 2000] [--repeat 3] [--seed 13]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import command_line, cpu_model, git_revision, log, shared_dir  # noqa: E402

TARGET_SECONDS = 2.0
TARGET_GROWTH_MB = 100.0
TYPES = "rougeL,rougeLsum"

# Runs argv in a fresh process, started from this small one (a child inherits
# its parent's peak RSS across fork and exec: from the benchmark's process it
# would hide the growth); prints argv's wall time, peak RSS (KiB) and output's end.
_LAUNCHER = r"""
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
seconds = time.perf_counter() - t0
if r.returncode:
    sys.exit(r.stderr)
print(json.dumps({"seconds": seconds, "out": r.stdout[-400:],
                  "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""

_API_CHILD = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
import rougekit
from rougekit.rouge_scorer import RougeScorer
with open(sys.argv[1], encoding="utf-8") as f:
    target, prediction = json.load(f)
types = ["rougeL", "rougeLsum"]
rougekit.explain("warm up", "warm the explanation up", types)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
e = rougekit.explain(target, prediction, types)
seconds = time.perf_counter() - t0
growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
scores = RougeScorer(types).score(target, prediction)
if any(e[t].score != scores[t] for t in types):
    sys.exit("explain's scores differ from RougeScorer.score's")
print(json.dumps({"seconds": seconds, "growth_kib": growth, "backend": rougekit.BACKEND,
                  "tokens": len(e["rougeL"].target_tokens),
                  "hits": [e[t].hits for t in types]}))
"""


def texts(shared, words, seed):
    """(target, prediction) of ``words`` words each, one line each."""
    path = os.path.join(shared, "corpus", "lee_background.txt")
    with open(path, encoding="utf-8") as f:
        sents = [s for line in f for s in line.strip().split(". ") if s]
    shuffled = list(sents)
    random.Random(seed).shuffle(shuffled)

    def take(sentences):
        out = []
        while True:
            for sentence in sentences:
                for word in (sentence + ".").split():
                    out.append(word)
                    if len(out) == words:
                        return " ".join(out)

    return take(sents), take(shuffled)


def by_line(text):
    """One sentence per line."""
    return text.replace(". ", ".\n")


def fresh(argv, repeat, env):
    """Best of ``repeat`` runs of argv, each in a fresh process under the launcher."""
    best = None
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _LAUNCHER, *argv],
                             capture_output=True, text=True, env=env)
        if out.returncode:
            sys.exit(f"bench: {' '.join(argv[:5])[:200]} ... failed:\n{out.stderr[-2000:]}")
        r = json.loads(out.stdout)
        if best is None or r["seconds"] < best["seconds"]:
            best = r
    return best


def cli(target, prediction, repeat, env):
    return fresh([sys.executable, "-m", "rougekit", "explain", "--rouge-types", TYPES,
                  "--target", target, "--prediction", prediction], repeat, env)


def api(pair, repeat, env):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False,
                                     encoding="utf-8") as f:
        json.dump(pair, f)
    try:
        best = None
        for _ in range(repeat):
            r = fresh([sys.executable, "-c", _API_CHILD, f.name], 1, env)
            r = json.loads(r["out"].strip().splitlines()[-1])
            if best is None or r["seconds"] < best["seconds"]:
                best = r
        return best
    finally:
        os.remove(f.name)


def rouge_score_walk(ref, can):
    """rouge-score's table walk (``_lcs_table``, ``_backtrack_norec``'s
    moves), both sides."""
    from rouge_score import rouge_scorer as rs
    t = rs._lcs_table(ref, can)
    i, j, pairs = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    pairs.reverse()
    if [p for p, _ in pairs] != rs._backtrack_norec(t, ref, can):
        sys.exit("bench: the walk written here is not rouge-score's")
    return [p for p, _ in pairs], [q for _, q in pairs]


def check_twins(pairs):
    """The compiled kernel's positions equal the pure twin's."""
    from rougekit import _backend
    from rougekit._core import _alignment_py
    from rougekit._counts import Numbering
    from rougekit.tokenizers import DefaultTokenizer
    tokenize = DefaultTokenizer(use_stemmer=False).tokenize
    for target, prediction in pairs:
        number = Numbering()
        a, b = number(tokenize(target)), number(tokenize(prediction))
        if _backend.alignment.lcs_alignment(a, b) != _alignment_py.lcs_alignment(a, b):
            sys.exit("bench: lcs_alignment: compiled and pure differ")
        ra = [number(tokenize(line)) for line in target.split("\n")]
        rb = [number(tokenize(line)) for line in prediction.split("\n")]
        if _backend.alignment.summary_lcs_alignment(ra, rb) != \
                _alignment_py.summary_lcs_alignment(ra, rb):
            sys.exit("bench: summary_lcs_alignment: compiled and pure differ")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=20000)
    ap.add_argument("--big-words", type=int, default=45000)
    ap.add_argument("--table-tokens", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--shared")
    args = ap.parse_args(argv)

    import rougekit
    from rougekit import _backend
    from rougekit.tokenizers import DefaultTokenizer

    shared = shared_dir(args.shared)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(rougekit.__file__)),
                    env.get("PYTHONPATH")) if p)
    target, prediction = texts(shared, args.words, args.seed)
    shapes = {"one line each": (target, prediction),
              "a sentence per line": (by_line(target), by_line(prediction))}
    if max(len(t.encode()) for pair in shapes.values() for t in pair) >= 131072:
        sys.exit(f"bench: {args.words:,} words do not fit a command-line argument "
                 "(128 KiB); take fewer --words")

    log("checking the kernel against its pure twin ...")
    check_twins(shapes.values())
    log(f"rouge-score's table walk at {args.table_tokens:,} tokens ...")
    tokenize = DefaultTokenizer(use_stemmer=False).tokenize
    small = [tokenize(t)[:args.table_tokens] for t in (target, prediction)]
    t0 = time.perf_counter()
    walk = rouge_score_walk(*small)
    table_seconds = time.perf_counter() - t0
    ids: dict = {}
    a, b = ([ids.setdefault(t, len(ids)) for t in s] for s in small)
    kernel_seconds = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        got = _backend.alignment.lcs_alignment(a, b)
        kernel_seconds = min(kernel_seconds, time.perf_counter() - t0)
    if got != walk:
        sys.exit("bench: lcs_alignment differs from rouge-score's walk")

    log("the command line at rest ...")
    rest = cli("a b", "b a", args.repeat, env)
    rows = []
    for shape, pair in shapes.items():
        log(f"the command line, {args.words:,} words a side, {shape} ...")
        rows.append((shape, cli(*pair, args.repeat, env)))
    big = texts(shared, args.big_words, args.seed)
    big_rows = []
    for shape, pair in (("one line each", big),
                        ("a sentence per line", tuple(map(by_line, big)))):
        log(f"rougekit.explain, {args.big_words:,} words a side, {shape} ...")
        big_rows.append((shape, api(pair, args.repeat, env)))

    rest_mb = rest["maxrss_kib"] / 1024
    print("# explain on long pairs\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"rougekit {rougekit.__version__} (BACKEND={rougekit.BACKEND})")
    print(f"- texts: lee_background.txt, the target in order, the prediction its "
          f"sentences shuffled (--seed {args.seed}); best of {args.repeat}, each run a "
          "fresh process\n")
    print(f"## `rougekit explain --rouge-types {TYPES}`, {args.words:,} words a side\n")
    print("| texts | seconds (whole command) | peak RSS | more than at rest | "
          f"under {TARGET_SECONDS:g} s and {TARGET_GROWTH_MB:g} MB |")
    print("|---|---:|---:|---:|---|")
    print(f"| at rest: two words a side | {rest['seconds']:.2f} | {rest_mb:.0f} MB | | |")
    met = True
    for shape, r in rows:
        mb = r["maxrss_kib"] / 1024
        ok = r["seconds"] < TARGET_SECONDS and mb - rest_mb < TARGET_GROWTH_MB
        met &= ok
        print(f"| {shape} | {r['seconds']:.2f} | {mb:.0f} MB | {mb - rest_mb:.0f} MB "
              f"| {'yes' if ok else 'NO'} |")
    print(f"\n## `rougekit.explain(..., [\"rougeL\", \"rougeLsum\"])`, "
          f"{args.big_words:,} words a side\n")
    print("| texts | tokens a side | seconds | peak RSS growth |")
    print("|---|---:|---:|---:|")
    for shape, r in big_rows:
        print(f"| {shape} | {r['tokens']:,} | {r['seconds']:.2f} | "
              f"{r['growth_kib'] / 1024:.0f} MB |")
    print(f"\n## rougeL's alignment, {args.table_tokens:,} tokens a side\n")
    print("| implementation | seconds | ratio |")
    print("|---|---:|---:|")
    print(f"| rouge-score's `_lcs_table` and walk (explain before) | {table_seconds:.3f} | 1 |")
    print(f"| `_backend.alignment.lcs_alignment` ({_backend.NAME}) | {kernel_seconds:.4f} "
          f"| {table_seconds / kernel_seconds:,.0f}x faster |")
    print(f"\nunder {TARGET_SECONDS:g} s and {TARGET_GROWTH_MB:g} MB more than at rest: "
          f"{'MET' if met else 'NOT MET'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
