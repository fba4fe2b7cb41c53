#!/usr/bin/env python3
"""A/B of ``RougeScorer.score`` between two rougekit source trees, in alternating
processes (for a change that must not slow score() down).

    python benchmarks/ab_score.py OLD_SRC NEW_SRC [--rounds 10] [--n 3000]
        [--batch THREADS] [--passes 5] [--types rouge1,rouge2,rougeL,rougeLsum]
        [--stemmer]

Each round runs one fresh process per tree, in turn (so load from elsewhere falls
on both alike); a process scores the shared pairs (``make_pairs.py --n N --seed
13``) with rouge1+rouge2+rougeL+rougeLsum (or ``--types``), stemming off (or on),
``--passes`` passes after a warm-up (``score()`` pair by pair, or with
``--batch`` one ``score_batch`` call a pass), and reports its best pass.
Prints each tree's best and median pairs/s over the rounds (and a pair's time
at the best) and NEW/OLD. The trees must be built in place (``python setup.py
build_ext --inplace``).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import json, subprocess, sys, time
import rougekit
from rougekit import rouge_scorer
assert rougekit.BACKEND == "compiled", rougekit.BACKEND
out = subprocess.run([sys.executable, sys.argv[1], "--n", sys.argv[2], "--seed", "13"],
                     capture_output=True, text=True, check=True).stdout
pairs = [json.loads(l) for l in out.splitlines() if l]
pairs = [(p["references"][0], p["candidate"]) for p in pairs]
s = rouge_scorer.RougeScorer(sys.argv[5].split(","), use_stemmer=sys.argv[6] == "1")
threads = int(sys.argv[3])
if threads:
    targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
    def one_pass():
        s.score_batch(targets, predictions, threads=threads)
else:
    score = s.score
    def one_pass():
        for t, p in pairs:
            score(t, p)
one_pass()
best = float("inf")
for _ in range(int(sys.argv[4])):
    t0 = time.perf_counter()
    one_pass()
    best = min(best, time.perf_counter() - t0)
print(json.dumps(len(pairs) / best))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=0, metavar="THREADS",
                    help="time score_batch on THREADS threads instead of score()")
    ap.add_argument("--passes", type=int, default=5,
                    help="timed passes a process, its best kept (default 5)")
    ap.add_argument("--types", default="rouge1,rouge2,rougeL,rougeLsum",
                    help="comma-separated rouge types (default: the four)")
    ap.add_argument("--stemmer", action="store_true", help="score with use_stemmer=True")
    ap.add_argument("--shared", default=os.environ.get(
        "ROUGEKIT_SHARED", os.path.join(HERE, "..", "..", "shared")))
    a = ap.parse_args()
    script = os.path.join(a.shared, "corpus", "make_pairs.py")
    rates = {"old": [], "new": []}
    for _ in range(a.rounds):
        for name in ("old", "new"):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(getattr(a, name)))
            env.pop("ROUGEKIT_PURE_PYTHON", None)
            out = subprocess.run([sys.executable, "-c", CHILD, script, str(a.n), str(a.batch),
                                  str(a.passes), a.types, str(int(a.stemmer))], env=env,
                                 capture_output=True, text=True, check=True, cwd="/")
            rates[name].append(json.loads(out.stdout))
    for name in ("old", "new"):
        print(f"{name}: {getattr(a, name)}: best {max(rates[name]):,.0f} pairs/s "
              f"({1e6 / max(rates[name]):.2f} us a pair), "
              f"median {statistics.median(rates[name]):,.0f}")
    print(f"new/old: best {max(rates['new']) / max(rates['old']):.3f}, "
          f"median {statistics.median(rates['new']) / statistics.median(rates['old']):.3f}")


if __name__ == "__main__":
    main()
