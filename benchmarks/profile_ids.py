#!/usr/bin/env python3
"""A fixed workload for instruction profiles of ``rougekit.score_ids``.

Scores ``--pairs`` pairs of 128-id predictions against 128-id references (the
Zipf-distributed ids of ``bench_ids.py``, vocabulary 32,000, seed 13) with
rouge1, rouge2 and rougeL on one thread, after one warm-up pair. Run it under
callgrind twice, with ``--pairs 0`` and ``--pairs 5000``; the difference of the
two counts, divided by 5,000, is the cost of one pair, and ``callgrind_annotate``
splits it by function:

    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=cg0.out \\
        python benchmarks/profile_ids.py --pairs 0
    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=cg5000.out \\
        python benchmarks/profile_ids.py --pairs 5000
    callgrind_annotate --inclusive=no cg5000.out | head -40

callgrind counts instructions, which repeat from run to run whatever else the
machine is doing; they are not time.
"""
import argparse
import os
import sys

import rougekit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_ids import make_ids  # noqa: E402

TYPES = ("rouge1", "rouge2", "rougeL")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=5000)
    args = ap.parse_args()
    # the same 5,000 pairs made for --pairs 0 and --pairs 5000, so that the
    # difference of the two counts is the scoring alone
    preds, refs = make_ids(max(args.pairs, 5000), 128, 128, 32000, 0.5, 13)
    rougekit.score_ids(preds[:1], refs[:1], TYPES, threads=1)
    if args.pairs:
        rougekit.score_ids(preds[:args.pairs], refs[:args.pairs], TYPES, threads=1)


if __name__ == "__main__":
    main()
