#!/usr/bin/env python3
"""A fixed workload for instruction profiles of ``RougeScorer.score``.

Scores the pairs of ``make_pairs.py --n 3000 --seed 13`` (as bench.py) with
rouge1, rouge2, rougeL and rougeLsum (or ``--types``): one warm-up pass, then
``--passes`` more. Run it under callgrind twice, with ``--passes 0`` and ``--passes 3``;
the difference of the two counts, divided by 9,000, is the cost of one
``score()`` call, and ``callgrind_annotate`` splits it by function:

    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=cg0.out \\
        python benchmarks/profile_score.py --passes 0
    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=cg3.out \\
        python benchmarks/profile_score.py --passes 3
    callgrind_annotate --inclusive=no cg3.out | head -40

callgrind counts instructions, which repeat from run to run whatever else
the machine is doing; they are not time (a mispredicted branch costs many
cycles and one instruction).
"""
import argparse
import json
import os
import subprocess
import sys

from rougekit import rouge_scorer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--stemmer", action="store_true")
    ap.add_argument("--types", default="rouge1,rouge2,rougeL,rougeLsum",
                    help="comma-separated rouge types (default: the four)")
    ap.add_argument("--shared", default=os.environ.get("ROUGEKIT_SHARED", "../shared"))
    args = ap.parse_args()
    out = subprocess.run([sys.executable, os.path.join(args.shared, "corpus", "make_pairs.py"),
                          "--n", "3000", "--seed", "13"],
                         capture_output=True, text=True, check=True).stdout
    items = [json.loads(line) for line in out.splitlines() if line.strip()]
    pairs = [(item["references"][0], item["candidate"]) for item in items]
    scorer = rouge_scorer.RougeScorer(args.types.split(","), use_stemmer=args.stemmer)
    for _ in range(1 + args.passes):
        for target, prediction in pairs:
            scorer.score(target, prediction)


if __name__ == "__main__":
    main()
