#!/usr/bin/env python3
"""rougekit.ray on a 2-CPU Ray local cluster beside rougekit in one process.

The shared pairs (``make_pairs.py --n 200000``: the candidate and its first
reference) are scored for rouge1, rouge2, rougeL and rougeLsum

  in-process   RougeScorer.score_columns(references, candidates) and
               rougekit.score_corpus(...), all cores (threads=None)
  Ray          rougekit.ray.score_dataset(ds) materialized in the object
               store, and rougekit.ray.score_corpus(ds), on a local cluster
               of --cpus CPUs (ray.init(num_cpus=...); --threads per task,
               each task reserving --num-cpus CPUs: by default its threads)

with the Ray dataset made from the same table (``--blocks`` Arrow blocks)
and materialized in the object store before timing, so the clock sees
scoring, scheduling and moving results, not the first transfer of the
texts. The scored dataset stays in the object store (as it would be written
out in parallel); the corpus result comes back to the driver. Rounds
alternate after a warm-up round (which also starts Ray's worker processes);
the best time of each is kept. The Ray results are checked equal to the
in-process ones (== on every score column; the CorpusResult's scores,
n_items and signature). Target: Ray's score_dataset throughput >= 0.7x
in-process score_columns.

Where the time goes (ray 2.60; probed with the Ray Data executor's own
counters): while an execution is young, Ray Data's view of the cluster is
empty (its autoscaling coordinator answers asynchronously, and the executor
reads the answer once a second), so only its liveness rule runs a task, one
at a time; the 200,000 rows take about a second, so they run one task after
the other whatever map_batches is given (concurrency, fractional num_cpus,
TaskPoolStrategy, batch_size; an ActorPoolStrategy runs two at once but
starts its actors on each execution, over a second). Later, tasks of 25,000
rows still run about one at a time (a finished task stays counted until the
executor's next pass). threads=2 uses both cores within the one task. --no-reservation measures what a user's
DataContext.op_resource_reservation_enabled = False gives (no operator
budgets, so no ResourceBudget backpressure: one task per CPU from the start;
a global choice of the user's, never made by rougekit). Ray Data's own ceiling is
printed beside: the same blocks through tasks that do nothing but spin for as
long as a score_dataset task takes (their mean), without rougekit.

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_ray.py [--n 200000] [--cpus 2]
        [--blocks 8] [--repeat 3] [--seed 13] [--threads 1] [--num-cpus N]
        [--batch-size N] [--task-pool N] [--no-reservation]
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


def _timed_batch(batch, threads):
    """One Ray task's batch scored as score_dataset scores it, with its
    start and end."""
    import pyarrow as pa

    import rougekit
    start = time.time()
    rougekit.score_frame(batch, TYPES, threads=threads)
    return pa.table({"start": [start], "end": [time.time()]})


def _spin_batch(batch, seconds):
    """A task of Ray Data alone: busy for ``seconds`` on one core, then the
    batch back as it came (no rougekit)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return batch


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=1,
                    help="threads= of each Ray task (score_dataset's default: 1)")
    ap.add_argument("--num-cpus", type=float,
                    help="num_cpus= of each Ray task (score_dataset's default: its threads)")
    ap.add_argument("--batch-size", type=int,
                    help="batch_size= of score_dataset and score_corpus (default: Ray's, a "
                         "whole block)")
    ap.add_argument("--task-pool", type=int, metavar="N",
                    help="compute=ray.data.TaskPoolStrategy(size=N): at most N tasks at once")
    ap.add_argument("--no-reservation", action="store_true",
                    help="the user's DataContext.op_resource_reservation_enabled = False "
                         "(Ray Data's per-operator budgets off) before the dataset is made")
    ap.add_argument("--shared")
    args = ap.parse_args(argv)

    import pyarrow as pa
    import ray
    import ray.data

    import rougekit
    import rougekit.ray

    log(f"making {args.n} pairs ...")
    pairs = load_pairs(shared_dir(args.shared), args.n, args.seed)
    candidates = [p["candidate"] for p in pairs]
    references = [p["references"][0] for p in pairs]
    table = pa.table({"candidate": candidates, "references": references})
    scorer = rougekit.RougeScorer(TYPES)

    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False
        if args.no_reservation:
            context.op_resource_reservation_enabled = False
        step = -(-len(table) // args.blocks)
        ds = ray.data.from_arrow([table.slice(k, step) for k in range(0, len(table), step)])
        ds = ds.materialize()
        results: dict = {}
        per_task = dict(threads=args.threads, num_cpus=args.num_cpus, batch_size=args.batch_size,
                        compute=None if args.task_pool is None
                        else ray.data.TaskPoolStrategy(size=args.task_pool))
        runs = {
            "score_dataset": {
                "in-process": lambda: scorer.score_columns(references, candidates),
                "Ray": lambda: rougekit.ray.score_dataset(ds, TYPES, **per_task).materialize()},
            "score_corpus": {
                "in-process": lambda: rougekit.score_corpus(candidates, references, TYPES),
                "Ray": lambda: rougekit.ray.score_corpus(ds, TYPES, **per_task)},
        }
        times = {(task, way): [] for task, ways in runs.items() for way in ways}
        for _ in range(1 + args.repeat):             # a warm-up round, then timed ones
            for task, ways in runs.items():
                for way, run in ways.items():
                    log(f"{task} {way} ...")
                    results.pop((task, way), None)   # free the last round's result first
                    t0 = time.perf_counter()
                    results[task, way] = run()
                    times[task, way].append(time.perf_counter() - t0)

        # What each Ray task runs (score_frame on an Arrow table, one thread),
        # here on all cores; and how many tasks Ray ran at once: each batch's
        # start and end, recorded by the task.
        t0 = time.perf_counter()
        rougekit.score_frame(table, TYPES)
        frame_rate = len(table) / (time.perf_counter() - t0)
        same = dict(batch_size=args.batch_size, compute=per_task["compute"],
                    num_cpus=args.num_cpus or args.threads)      # as score_dataset's tasks
        spans = ds.map_batches(_timed_batch, batch_format="pyarrow",
                               fn_kwargs={"threads": args.threads}, **same).take_all()
        wall = max(r["end"] for r in spans) - min(r["start"] for r in spans)
        at_once = sum(r["end"] - r["start"] for r in spans) / wall
        # Ray Data's own ceiling here: the same blocks through tasks that are
        # only as long as score_dataset's (their mean), with no rougekit.
        task_seconds = sum(r["end"] - r["start"] for r in spans) / len(spans)
        spin = []
        for _ in range(1 + args.repeat):
            t0 = time.perf_counter()
            ds.map_batches(_spin_batch, batch_format="pyarrow",
                           fn_kwargs={"seconds": task_seconds}, **same).materialize()
            spin.append(time.perf_counter() - t0)

        local = results["score_dataset", "in-process"]
        remote = pa.concat_tables(ray.get(results["score_dataset", "Ray"].to_arrow_refs()))
        for column in rougekit.frames.column_names(TYPES):
            if remote.column(column).to_pylist() != local[column].tolist():
                sys.exit(f"bench: Ray's {column} differs from in-process")
        a, b = results["score_corpus", "in-process"], results["score_corpus", "Ray"]
        if (a.scores, a.n_items, a.signature) != (b.scores, b.n_items, b.signature):
            sys.exit("bench: Ray's corpus result differs from in-process")
    finally:
        ray.shutdown()

    best = {key: min(ts[1:]) for key, ts in times.items()}
    print("# rougekit.ray beside one process\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"ray {dist_version('ray')}, pyarrow {pa.__version__}; rougekit "
          f"{rougekit.__version__} (BACKEND={rougekit.BACKEND})")
    print(f"- {len(table):,} rows from make_pairs.py --n {args.n} --seed {args.seed} (the "
          f"candidate and its first reference); types {'+'.join(TYPES)}; Ray: a local "
          f"cluster of {args.cpus} CPUs, threads={args.threads} and num_cpus="
          f"{args.num_cpus or args.threads:g} per task"
          f"{'' if args.batch_size is None else f', batch_size={args.batch_size}'}"
          f"{'' if args.task_pool is None else f', TaskPoolStrategy(size={args.task_pool})'}"
          f", {args.blocks} Arrow "
          f"blocks materialized in the "
          f"object store, the scored dataset materialized there too; in-process: "
          f"RougeScorer.score_columns and score_corpus on all {os.cpu_count()} cores; best "
          f"of {args.repeat} alternating rounds after a warm-up round"
          f"{'; Ray Data op_resource_reservation_enabled=False' if args.no_reservation else ''}")
    print("- results checked equal (score columns ==, corpus scores ==)\n")
    print("| task | in-process rows/s | Ray rows/s | Ray / in-process |")
    print("|---|---:|---:|---:|")
    ratios = {}
    for task in runs:
        local_rate = len(table) / best[task, "in-process"]
        ray_rate = len(table) / best[task, "Ray"]
        ratios[task] = ray_rate / local_rate
        print(f"| {task} | {local_rate:,.0f} | {ray_rate:,.0f} | {ratios[task]:.2f}x |")
    print(f"\nIn-process rougekit.score_frame on the same Arrow table (what each Ray task "
          f"runs, on its batch): {frame_rate:,.0f} rows/s. Ray ran {at_once:.2f} tasks at "
          f"once on average over its {len(spans)} batches (their busy time over the span "
          "from the first start to the last end).")
    ceiling = len(table) / min(spin[1:]) / (len(table) / best["score_dataset", "in-process"])
    print(f"\nRay Data alone, on the same {len(spans)} batches, with tasks that only spin for "
          f"as long as a score_dataset task takes ({task_seconds * 1e3:,.0f} ms, their mean; "
          f"no rougekit; the fastest of {args.repeat} rounds after a warm-up): "
          f"{len(table) / min(spin[1:]):,.0f} rows/s, {ceiling:.2f}x in-process "
          "score_columns: the most score_dataset can reach under Ray Data's scheduling "
          "here.")
    met = ratios["score_dataset"] >= TARGET
    print(f"\nRay score_dataset >= {TARGET:g}x in-process score_columns: "
          f"{ratios['score_dataset']:.2f}x, {'MET' if met else 'NOT MET'}")


if __name__ == "__main__":
    main()
