#!/usr/bin/env python3
"""score_columns beside rouge-score-rs's score_batch, with exactness checked in the same run.

Scores the shared summarisation pairs (``make_pairs.py``, target = the first
reference, prediction = the candidate) with

  rougekit score_columns(threads=T)   one float64 array per type and measure
  rougekit score_batch(threads=T)     a dict of Scores per pair (for context)
  rouge-score-rs score_batch          a dict per pair, rayon with T threads

for four rouge types (rouge1, rouge2, rougeL, rougeLsum) with stemming, and
prints pairs/s and the ratio to rouge-score-rs as markdown. Target:
score_columns >= 5x rouge-score-rs's score_batch.

Before timing, every score_columns element must equal rougekit's score() of
that pair (0.0 for rouge-score's int 0) and, on the first K pairs,
rouge-score's own score(); otherwise the script exits with status 1 (a
benchmark of wrong numbers is worthless).

Timing as benchmarks/bench.py: the scorers are built once, one warm-up pass
of each method, then --repeat interleaved rounds; the best pass is kept.

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_columns.py [--n 20000] [--seed 13]
        [--repeat 5] [--threads T] [--reference-pairs 300] [--no-stem]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import (  # noqa: E402
    command_line,
    cpu_model,
    dist_version,
    git_revision,
    load_pairs,
    log,
    measure_interleaved,
    shared_dir,
)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
MEASURES = ("precision", "recall", "fmeasure")
TARGET = 5.0


def check_exact(columns, kit, reference, targets, predictions, k):
    """score_columns == score() on every pair, == rouge-score on the first k."""
    for i, (t, p) in enumerate(zip(targets, predictions)):
        want = kit.score(t, p)
        if i < k and reference is not None and reference.score(t, p) != want:
            sys.exit(f"bench: rougekit score() differs from rouge-score on pair {i}")
        for rouge_type, score in want.items():
            for m in MEASURES:
                got = columns[f"{rouge_type}_{m}"][i]
                if got != float(getattr(score, m)):
                    sys.exit(f"bench: score_columns differs from score() on pair {i}, "
                             f"{rouge_type}_{m}: {got!r} != {getattr(score, m)!r}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--reference-pairs", type=int, default=300)
    ap.add_argument("--no-stem", action="store_true", help="stemming off")
    ap.add_argument("--shared")
    args = ap.parse_args(argv)
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)   # before rouge_score_rs runs

    import rougekit
    from rougekit import rouge_scorer
    try:
        import rouge_score_rs
    except ImportError:
        sys.exit("bench: rouge-score-rs is not installed (pip install rouge-score-rs)")
    try:
        from rouge_score import rouge_scorer as reference_module
    except ImportError:
        reference_module = None

    stem = not args.no_stem
    pairs = load_pairs(shared_dir(args.shared), args.n, args.seed)
    targets = [p["references"][0] for p in pairs]
    predictions = [p["candidate"] for p in pairs]
    kit = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    rs = rouge_score_rs.RougeScorer(TYPES, use_stemmer=stem)
    reference = reference_module.RougeScorer(TYPES, use_stemmer=stem) \
        if reference_module else None

    log("checking exactness ...")
    check_exact(kit.score_columns(targets, predictions, threads=args.threads), kit,
                reference, targets, predictions, args.reference_pairs)

    fns = {
        f"rougekit score_columns ({args.threads} threads)":
            lambda: kit.score_columns(targets, predictions, threads=args.threads),
        f"rougekit score_batch ({args.threads} threads)":
            lambda: kit.score_batch(targets, predictions, threads=args.threads),
        f"rouge-score-rs score_batch (RAYON_NUM_THREADS={args.threads})":
            lambda: rs.score_batch(targets, predictions),
    }
    log(f"timing {len(pairs)} pairs, {args.repeat} rounds ...")
    timed = measure_interleaved(list(fns.values()), args.repeat)
    rates = {name: len(pairs) / min(times) for name, (_, _, times) in zip(fns, timed)}
    rs_rate = list(rates.values())[-1]

    print("# score_columns vs rouge-score-rs score_batch\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}")
    print(f"- rougekit {rougekit.__version__} (BACKEND={rougekit.BACKEND}); rouge-score-rs "
          f"{dist_version('rouge-score-rs')}")
    print(f"- {len(pairs):,} pairs from make_pairs.py --n {args.n} --seed {args.seed}; "
          f"types {'+'.join(TYPES)}, stemming {'on' if stem else 'off'}; best of "
          f"{args.repeat} interleaved passes")
    print(f"- exactness: score_columns == score() on all {len(pairs):,} pairs, "
          f"score() == rouge-score on the first {min(args.reference_pairs, len(pairs))}\n")
    print("| method | pairs/s | vs rouge-score-rs score_batch |")
    print("|---|---:|---:|")
    for name, rate in rates.items():
        print(f"| {name} | {rate:,.0f} | {rate / rs_rate:.2f}x |")
    ratio = list(rates.values())[0] / rs_rate
    print(f"\nscore_columns >= {TARGET:g}x rouge-score-rs score_batch: {ratio:.2f}x, "
          f"{'MET' if ratio >= TARGET else 'NOT MET'}")


if __name__ == "__main__":
    main()
