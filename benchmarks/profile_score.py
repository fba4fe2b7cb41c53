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
cycles and one instruction). The interpreter's share does vary between two
runs of the same build (by up to about 1,000 a call: collections, memory
layout); the compiled code's does not. ``--counts`` splits the difference
of the two runs a call into the two:

    python benchmarks/profile_score.py --counts cg0.out cg3.out
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

# callgrind_annotate's lines: "count (percent)  file:function [object]"
ANNOTATED = re.compile(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)")


def self_counts(path):
    """Instructions by "file:function [object]" (self cost) of a callgrind
    output file, and the program's total."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=no", path],
                         capture_output=True, text=True, check=True).stdout
    counts, total = collections.Counter(), None
    for line in out.splitlines():
        m = ANNOTATED.match(line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = n
        elif ":" in m.group(2) and not m.group(2).startswith("=>"):
            counts[m.group(2)] += n
    return counts, total


def _compiled(key):
    """Whether a "file:function [object]" line is rougekit's compiled code:
    its modules' C files and headers, or a function of theirs (the compiler's
    intrinsics are inlined into them)."""
    where = key.rsplit(" [", 1)[0]
    function = where.rsplit(":", 1)[-1]
    return "rougekit/_core/" in where or function.startswith(("__pyx_", "rk_"))


def print_counts(before, after, calls):
    """The cost of one call: the difference of two runs' counts over calls,
    split into rougekit's compiled code (the code of its extension modules,
    headers and inlined compiler intrinsics included) and the rest, with the
    compiled code's largest parts."""
    (a, a_total), (b, b_total) = self_counts(before), self_counts(after)
    per_call = {k: (b[k] - a.get(k, 0)) / calls for k in b}
    core = {k: v for k, v in per_call.items() if _compiled(k)}
    print(f"instructions a call: {(b_total - a_total) / calls:,.0f}, of which rougekit's "
          f"compiled code {sum(core.values()):,.0f}")
    for k, v in sorted(core.items(), key=lambda kv: -kv[1])[:12]:
        print(f"{v:9,.0f}  {k.rsplit(' [', 1)[0].split('/')[-1]}")
    print(f"the rest (the interpreter, the result objects): "
          f"{(b_total - a_total) / calls - sum(core.values()):,.0f}")


from rougekit import rouge_scorer  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--stemmer", action="store_true")
    ap.add_argument("--types", default="rouge1,rouge2,rougeL,rougeLsum",
                    help="comma-separated rouge types (default: the four)")
    ap.add_argument("--shared", default=os.environ.get("ROUGEKIT_SHARED", "../shared"))
    ap.add_argument("--counts", nargs=2, metavar=("CG0", "CG3"),
                    help="print a call's instructions from the callgrind files of a run "
                         "with --passes 0 and one with --passes 3 (nothing is scored)")
    args = ap.parse_args()
    if args.counts:
        print_counts(*args.counts, calls=3 * 3000)
        return
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
