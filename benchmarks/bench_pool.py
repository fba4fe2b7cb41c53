#!/usr/bin/env python3
"""The worker pool's cost on small and large calls: the threaded paths timed
on a small input (where handing work to threads is all overhead) and on a
large one (where the threads must pay off).

  score_batch        RougeScorer(rouge1, rouge2, rougeL, rougeLsum).score_batch
                     on 10 and 10,000 pairs of the shared corpus
  score_columns      RougeScorer.score_columns on the same pairs
  score_corpus       rougekit.score_corpus on the 10,000 pairs, the references
                     a column of str, then each in a list of one
  RougeIndex.scores  one query against 1,000 and 100,000 stored texts
                     (sentences of the shared corpus), rougeL
  deduplicate        20,000 such texts, threshold 0.7
  Rouge155           score_corpus(-n 2 -m, 1,000 resamples) on 100 and
                     10,000 pairs

Each case runs ``--repeat`` rounds after one warm-up call; the rounds are
interleaved (one round of every case in turn, so a burst of load from
elsewhere falls on all of them) and each case reports its best round, in
milliseconds a call. A round of a small case makes 100 calls (a single
call of a tenth of a millisecond is mostly the timer and the scheduler).
Run it once per tree to compare two trees, e.g.::

    PYTHONPATH=../base/src python benchmarks/bench_pool.py > before.txt
    PYTHONPATH=src python benchmarks/bench_pool.py > after.txt

usage: bench_pool.py [--repeat 15] [--threads T] [--shared DIR] [--only NAME,...]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def pairs(shared, n):
    out = subprocess.run([sys.executable, os.path.join(shared, "corpus", "make_pairs.py"),
                          "--n", str(n), "--seed", "13"],
                         capture_output=True, text=True, check=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    return [r["references"][0] for r in rows], [r["candidate"] for r in rows]


def main():
    import warnings
    warnings.simplefilter("ignore")      # rougeLsum's one-sentence warning
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--shared", default=os.environ.get("ROUGEKIT_SHARED",
                                                       os.path.join(HERE, "..", "..", "shared")))
    ap.add_argument("--only", default="")
    args = ap.parse_args()

    import rougekit
    from rougekit import RougeIndex, deduplicate, rouge_scorer
    from rougekit.rouge155 import Rouge155

    targets, predictions = pairs(args.shared, 10000)
    sentences = [s for t in targets + predictions for s in t.split("\n") if s.strip()]
    while len(sentences) < 100000:
        sentences = sentences + [s.upper() for s in sentences]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types)
    th = args.threads
    small_index = RougeIndex(sentences[:1000], threads=th)
    large_index = RougeIndex(sentences[:100000], threads=th)
    query = sentences[123]
    r155 = Rouge155(max_n=2, stem=True, threads=th)
    cases = {
        "score_batch 10": lambda: scorer.score_batch(targets[:10], predictions[:10], threads=th),
        "score_batch 10000": lambda: scorer.score_batch(targets, predictions, threads=th),
        "score_columns 10": lambda: scorer.score_columns(targets[:10], predictions[:10],
                                                         threads=th),
        "score_columns 10000": lambda: scorer.score_columns(targets, predictions, threads=th),
        "score_corpus 10000": lambda: rougekit.score_corpus(predictions, targets, types,
                                                            threads=th),
        "score_corpus 10000 lists": lambda: rougekit.score_corpus(
            predictions, [[t] for t in targets], types, threads=th),
        "RougeIndex.scores 1000": lambda: small_index.scores(query),
        "RougeIndex.scores 100000": lambda: large_index.scores(query),
        "deduplicate 20000": lambda: deduplicate(sentences[:20000], threads=th),
        "Rouge155 100": lambda: r155.score_corpus(predictions[:100], targets[:100]),
        "Rouge155 10000": lambda: r155.score_corpus(predictions, targets),
    }
    if args.only:
        keep = args.only.split(",")
        cases = {k: v for k, v in cases.items() if any(k.startswith(x) for x in keep)}
    for run in cases.values():
        run()
    calls = {name: 100 if name.split()[-1] in ("10", "100", "1000") else 1 for name in cases}
    best = {name: float("inf") for name in cases}
    for _ in range(args.repeat):
        for name, run in cases.items():
            t = time.perf_counter()
            for _ in range(calls[name]):
                run()
            best[name] = min(best[name], (time.perf_counter() - t) / calls[name])
    print(f"rougekit {rougekit.__file__} backend={rougekit.BACKEND} "
          f"threads={th or os.cpu_count()} repeat={args.repeat}")
    for name, t in best.items():
        print(f"{name:28s} {t * 1e3:10.3f} ms")


if __name__ == "__main__":
    main()
