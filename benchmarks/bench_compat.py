#!/usr/bin/env python3
"""rougekit.compat's drop-ins beside the packages they replace: ``Rouge().
get_scores(hyps, refs)`` of pltrdy's ``rouge`` 1.0.1 and of ``rouge-chinese``
1.0.3, on the shared news pairs (candidate against its first reference), in
one run, with the default metrics and stats.

Each package scores the pairs once (it is slow), rougekit's drop-in
``--repeat`` times (the best pass is kept). Pairs on which the package raises
(``RecursionError`` on a long sentence) are left out of both timings and
counted. The results must be equal with ``==``; else the script stops with
status 1. Prints a markdown report naming its command; the target is issue
21's (200x the package's pairs/s).

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_compat.py [--n 1000] [--seed 13]
        [--repeat 3] [--shared DIR]
"""
import argparse
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import load_pairs, shared_dir  # noqa: E402

TARGET = 200.0   # issue 21: drop-in pairs/s / package pairs/s


def scorable(rouge_class, hyps, refs):
    """The pairs the package scores without raising, and how many it raises on."""
    kept = []
    for h, r in zip(hyps, refs):
        try:
            rouge_class().get_scores(h, r)
        except Exception:  # noqa: BLE001 (RecursionError, or an empty text)
            continue
        kept.append((h, r))
    return kept, len(hyps) - len(kept)


def timed(rouge_class, hyps, refs, repeat):
    """(best seconds of ``repeat`` passes, the result) of get_scores(hyps, refs)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = rouge_class().get_scores(hyps, refs)
        best = min(best, time.perf_counter() - start)
    return best, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="pairs (default 1000)")
    ap.add_argument("--seed", type=int, default=13, help="make_pairs.py seed (default 13)")
    ap.add_argument("--repeat", type=int, default=3, help="rougekit passes (default 3)")
    ap.add_argument("--shared", help="the shared directory (default: $ROUGEKIT_SHARED, "
                    "else ../shared from the repository)")
    args = ap.parse_args()
    pairs = load_pairs(shared_dir(args.shared), args.n, args.seed)
    hyps = [p["candidate"] for p in pairs]
    refs = [p["references"][0] for p in pairs]

    import rouge
    import rouge_chinese

    import rougekit
    from rougekit.compat import rouge as compat_rouge
    from rougekit.compat import rouge_chinese as compat_rouge_chinese

    rows = []
    for name, theirs, ours in [("rouge 1.0.1", rouge.Rouge, compat_rouge.Rouge),
                               ("rouge-chinese 1.0.3", rouge_chinese.Rouge,
                                compat_rouge_chinese.Rouge)]:
        kept, raised = scorable(theirs, hyps, refs)
        h, r = [k[0] for k in kept], [k[1] for k in kept]
        their_s, expected = timed(theirs, h, r, 1)
        our_s, got = timed(ours, h, r, args.repeat)
        if got != expected:
            sys.exit(f"bench_compat: {name}: rougekit's results differ from the package's")
        rows.append((name, len(kept), raised, len(kept) / their_s, len(kept) / our_s))

    command = "PYTHONPATH=src python benchmarks/bench_compat.py " + " ".join(sys.argv[1:])
    print(f"## rougekit.compat beside the packages\n\n`{command.strip()}`\n")
    print("| package | pairs scored | pairs it raises on | package pairs/s "
          "| rougekit pairs/s | ratio | target |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, n, raised, theirs, ours in rows:
        print(f"| {name} | {n:,} | {raised} | {theirs:,.0f} | {ours:,.0f} "
              f"| {ours / theirs:.0f}x | {TARGET:.0f}x |")
    print(f"\n- results equal with ==: yes; rougekit backend: {rougekit.BACKEND}; "
          f"best of {args.repeat} rougekit passes, 1 package pass")
    print(f"- pairs: make_pairs.py --n {args.n} --seed {args.seed}; candidate against its "
          "first reference; default metrics and stats")
    print(f"- Python {platform.python_version()} on {platform.machine()}; shared machine: "
          "compare ratios within one run, not absolute numbers across runs")


if __name__ == "__main__":
    main()
