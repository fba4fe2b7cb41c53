#!/usr/bin/env python3
"""The bootstrap before and after vectorizing it: time and results, side by side.

Per-item scores of the shared pairs (``make_pairs.py --n 200000``, rouge1,
rouge2, rougeL, rougeLsum: 12 columns) are resampled ``--resamples`` times
(1000) with the same seed by

  before  rougekit's resampled_means until this change, copied below: per
          resample, the drawn rows gathered and averaged
          (``matrix[rng.integers(0, n, size=n)].mean(axis=0)``)
  after   rougekit._bootstrap.resampled_means: counts per row times integer
          limbs of the columns, one exact matrix product per block (what
          score_corpus, the CLI and significance use)

alternately, ``--repeat`` times each; the best time of each is kept, and its
CPU time (``time.process_time``), which other work on a shared machine
disturbs less than the wall clock. Target: after >= 10x faster. It also reports how the results compare: the draws are
the same, so the means differ only in rounding (after = the exact mean; the
script checks that on the first resample with fractions).

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_bootstrap.py [--n 200000] [--resamples 1000]
        [--repeat 2] [--seed 13]
"""
import argparse
import os
import sys
import time
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import command_line, cpu_model, git_revision, load_pairs, log, shared_dir  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TARGET = 10.0


def resampled_means_before(matrix, n_resamples, rng):
    """rougekit's _bootstrap.resampled_means before vectorizing (verbatim)."""
    n = len(matrix)
    means = np.empty((n_resamples, matrix.shape[1]))
    for r in range(n_resamples):
        means[r] = matrix[rng.integers(0, n, size=n)].mean(axis=0)
    return means


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--shared")
    args = ap.parse_args(argv)

    import rougekit
    from rougekit import _bootstrap

    log(f"making and scoring {args.n} pairs ...")
    pairs = load_pairs(shared_dir(args.shared), args.n, args.seed)
    per_item = rougekit.score_corpus([p["candidate"] for p in pairs],
                                     [p["references"] for p in pairs], TYPES).per_item
    # (items, 12): P, R and F of each type in turn, as the old code took it
    matrix = np.array([[x for t in TYPES for x in item[t]] for item in per_item],
                      dtype=np.float64)

    runs = {"before": lambda: resampled_means_before(matrix, args.resamples,
                                                     np.random.default_rng(1)),
            "after": lambda: _bootstrap.resampled_means(matrix, args.resamples,
                                                        np.random.default_rng(1))}
    times = {name: [] for name in runs}
    cpu = {name: [] for name in runs}
    results = {}
    for round_ in range(args.repeat):
        for name, run in runs.items():
            log(f"round {round_ + 1}: {name} ...")
            t0, c0 = time.perf_counter(), time.process_time()
            results[name] = run()
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(time.process_time() - c0)

    before, after = results["before"], results["after"]
    rng = np.random.default_rng(1)
    drawn = matrix[rng.integers(0, len(matrix), size=len(matrix))]
    exact = [float(sum(map(Fraction, col.tolist())) / len(drawn)) for col in drawn.T]
    if after[0].tolist() != exact:
        sys.exit("bench: the vectorized means are not the exact means of the draws")
    equal = int((before == after).sum())
    ulps = np.abs(before - after) / np.spacing(np.abs(after))
    best = {name: min(ts) for name, ts in times.items()}
    best_cpu = {name: min(ts) for name, ts in cpu.items()}
    ratio = best["before"] / best["after"]

    print("# bootstrap before and after\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"numpy {np.__version__}; rougekit {rougekit.__version__} "
          f"(BACKEND={rougekit.BACKEND})")
    print(f"- {len(matrix):,} items (make_pairs.py --n {args.n} --seed {args.seed}), "
          f"{matrix.shape[1]} columns (P, R, F of {'+'.join(TYPES)}), {args.resamples} "
          f"resamples, seed 1; best of {args.repeat} alternating runs\n")
    print("| implementation | seconds | per resample | speed-up | CPU seconds (all threads) |")
    print("|---|---:|---:|---:|---:|")
    for name in runs:
        print(f"| {name} | {best[name]:.2f} | {1000 * best[name] / args.resamples:.2f} ms "
              f"| {best['before'] / best[name]:.1f}x | {best_cpu[name]:.2f} |")
    print(f"\nresults: same draws; {equal:,} of {before.size:,} resampled means bit-identical, "
          f"the others differ by at most {ulps.max():.0f} units in the last place (before "
          "rounds the sums in numpy's order; after is the exact mean, checked on resample 0)")
    print(f"\nafter >= {TARGET:g}x faster than before: {ratio:.1f}x, "
          f"{'MET' if ratio >= TARGET else 'NOT MET'}")


if __name__ == "__main__":
    main()
