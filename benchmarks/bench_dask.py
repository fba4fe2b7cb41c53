#!/usr/bin/env python3
"""rougekit.dask on a 2-process LocalCluster beside rougekit in one process.

The shared pairs (``make_pairs.py --n 200000``: candidates with one to three
references) in a pandas DataFrame are scored for rouge1, rouge2, rougeL and
rougeLsum

  in-process   rougekit.score_frame(df) and rougekit.score_corpus(...), all
               cores (threads=None)
  Dask         rougekit.dask.score_frame(ddf) persisted on the workers, and
               rougekit.dask.score_corpus(ddf), on a LocalCluster of
               --workers processes with one thread each (threads=1 per task)

with the Dask frame made from the same DataFrame (``--partitions``
partitions) and persisted on the workers before timing, so the clock sees
scoring, scheduling and moving results, not the first transfer of the
texts. The scored frame stays on the workers (as it would be written out in
parallel); the corpus result comes back to the client. Rounds alternate;
the best time of each is kept. The Dask results are checked equal to the
in-process ones (== on every score column; the CorpusResult's scores,
n_items and signature). Target: Dask throughput >= 0.7x in-process.

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_dask.py [--n 200000] [--workers 2]
        [--partitions 8] [--repeat 3] [--seed 13]
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import command_line, cpu_model, dist_version, git_revision, load_pairs, log, shared_dir  # noqa: E402,E501

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TARGET = 0.7


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--shared")
    args = ap.parse_args(argv)

    import dask
    import dask.dataframe as dd
    import distributed
    import pandas as pd

    import rougekit
    import rougekit.dask

    log(f"making {args.n} pairs ...")
    pairs = load_pairs(shared_dir(args.shared), args.n, args.seed)
    df = pd.DataFrame({"candidate": [p["candidate"] for p in pairs],
                       "references": [p["references"] for p in pairs]})

    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                  processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with dask.config.set({"dataframe.convert-string": False}):    # keep the lists
            ddf = dd.from_pandas(df, npartitions=args.partitions)
        ddf = client.persist(ddf)
        distributed.wait(ddf)
        results: dict = {}
        # Each round scores its own persisted copy of the frame (the candidate
        # column renamed): its graph's keys are new, so its persist computes
        # everything, and no earlier round's keys are released under it (a
        # cancelled earlier result with the same keys could cancel this one's
        # futures: "Futures cancelled for reason: unknown").
        rounds = 1 + args.repeat
        inputs = [client.persist(ddf.rename(columns={"candidate": f"candidate_{r}"}))
                  for r in range(rounds)]
        distributed.wait(inputs)
        frame_round = iter(range(rounds))

        def dask_frame():
            r = next(frame_round)
            results.pop(("score_frame", "Dask"), None)
            t0 = time.perf_counter()
            scored = client.persist(rougekit.dask.score_frame(inputs[r], TYPES,
                                                               candidate=f"candidate_{r}"))
            distributed.wait(scored)
            return scored, time.perf_counter() - t0

        runs = {
            "score_frame": {
                "in-process": lambda: rougekit.score_frame(df, TYPES),
                "Dask": dask_frame},
            "score_corpus": {
                "in-process": lambda: rougekit.score_corpus(df["candidate"].tolist(),
                                                            df["references"].tolist(), TYPES),
                "Dask": lambda: rougekit.dask.score_corpus(ddf, TYPES)},
        }
        times = {(task, way): [] for task, ways in runs.items() for way in ways}
        for _ in range(rounds):                         # a warm-up round, then timed ones
            for task, ways in runs.items():
                for way, run in ways.items():
                    log(f"{task} {way} ...")
                    t0 = time.perf_counter()
                    result = run()
                    elapsed = time.perf_counter() - t0
                    if run is dask_frame:               # timed without the clean-up
                        result, elapsed = result
                    results[task, way] = result
                    times[task, way].append(elapsed)

        local, remote = results["score_frame", "in-process"], \
            results["score_frame", "Dask"].compute()
        for column in rougekit.frames.column_names(TYPES):
            if remote[column].tolist() != local[column].tolist():
                sys.exit(f"bench: Dask's {column} differs from in-process")
        a, b = results["score_corpus", "in-process"], results["score_corpus", "Dask"]
        if (a.scores, a.n_items, a.signature) != (b.scores, b.n_items, b.signature):
            sys.exit("bench: Dask's corpus result differs from in-process")

    best = {key: min(ts[1:]) for key, ts in times.items()}
    print("# rougekit.dask beside one process\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"dask {dist_version('dask')}, distributed {dist_version('distributed')}, "
          f"pandas {pd.__version__}; rougekit {rougekit.__version__} "
          f"(BACKEND={rougekit.BACKEND})")
    print(f"- {len(df):,} rows from make_pairs.py --n {args.n} --seed {args.seed} "
          f"({sum(len(p['references']) for p in pairs):,} references); types "
          f"{'+'.join(TYPES)}; Dask: LocalCluster of {args.workers} processes x 1 thread, "
          f"{args.partitions} partitions persisted on the workers; in-process: all "
          f"{os.cpu_count()} cores; best of {args.repeat} alternating rounds after a "
          "warm-up round")
    print("- results checked equal (score columns ==, corpus scores ==)\n")
    print("| task | in-process rows/s | Dask rows/s | Dask / in-process |")
    print("|---|---:|---:|---:|")
    worst = None
    for task in runs:
        local_rate = len(df) / best[task, "in-process"]
        dask_rate = len(df) / best[task, "Dask"]
        ratio = dask_rate / local_rate
        worst = ratio if worst is None else min(worst, ratio)
        print(f"| {task} | {local_rate:,.0f} | {dask_rate:,.0f} | {ratio:.2f}x |")
    print(f"\nDask >= {TARGET:g}x in-process throughput: {worst:.2f}x at worst, "
          f"{'MET' if worst >= TARGET else 'NOT MET'}")


if __name__ == "__main__":
    main()
