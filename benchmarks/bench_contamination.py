#!/usr/bin/env python3
"""max_similarity at scale: ``--rows`` texts (1,000,000) checked against
``--against`` texts (10,000) on a cluster of 2 CPUs, beside the
one-process RougeIndex loop, time and memory.

The texts are bench_index.py's instruction-like texts (news fragments in
instruction templates, a quarter of them edited copies of earlier ones): the
texts to check against (a test set, seed S), and the rows to check (a
training set, seed S + 1) of which 1 % are copies or edited copies of test
texts (the contamination). Each way computes, for every row, the largest
rougeL F against the test texts and the first text that gives it:

  RougeIndex loop   index = RougeIndex(against); [index.max(t) for t in rows],
                    in this process, on all cores (threads=None)
  Dask              rougekit.dask.max_similarity(ddf, ...) on a LocalCluster
                    of 2 worker processes x 1 thread, the frame persisted on
                    the workers before timing, the result persisted there
  Ray               rougekit.ray.max_similarity(ds, ...) on ray.init(num_cpus=2)
                    with an actor pool of 2, the dataset materialized in the
                    object store before timing, the result materialized there
  Spark             rougekit.spark.max_similarity(sdf, ...) on local[2] (with
                    --engines ...,spark), written to Parquet

Every engine's two columns are checked equal (==) to the loop's. The clock
includes building the index from the test texts and sending it to the
workers. Memory is the peak, sampled every 0.2 s, of the proportional set
size (PSS: shared pages split between the processes that map them) summed
over this process and every process it started (workers, Ray's and Dask's
daemons; Spark's JVM), beside the same sum at rest just before the run; the
loop's is this process's alone. One timed run each (the loop's minutes
dwarf the noise).

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_contamination.py [--rows 1000000]
        [--against 10000] [--engines dask,ray] [--partitions 16] [--seed 13]
"""
import argparse
import os
import random
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import command_line, cpu_model, dist_version, git_revision, log, shared_dir  # noqa: E402,E501
from bench_index import corpus_sentences, edited, instructions  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def texts_of(sentences, rows, against, seed):
    """The test texts, and the rows to check (1 % from the test texts)."""
    test = instructions(sentences, against, seed)
    train = instructions(sentences, rows, seed + 1)
    rng = random.Random(seed + 2)
    for k in rng.sample(range(rows), rows // 100):
        text = rng.choice(test)
        train[k] = text if rng.random() < 0.5 else edited(text, rng, 0.2)
    return test, train


# --- memory ----------------------------------------------------------------------------

def _pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE // 1024
    except OSError:
        return 0


def tree_mib(root=None):
    """PSS of ``root`` (this process) and all its descendants, MiB."""
    root = os.getpid() if root is None else root
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(name))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += _pss_kib(pid)
        stack.extend(children.get(pid, []))
    return total / 1024


class PeakMemory:
    """The peak of ``tree_mib()`` (or this process's alone) while inside."""

    def __init__(self, tree=True):
        self.tree, self.peak, self.stop = tree, 0.0, threading.Event()

    def sample(self):
        value = tree_mib() if self.tree else _pss_kib(os.getpid()) / 1024
        self.peak = max(self.peak, value)
        return value

    def __enter__(self):
        self.at_rest = self.sample()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self):
        while not self.stop.wait(0.2):
            self.sample()

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.sample()


# --- the ways --------------------------------------------------------------------------

def run_loop(test, train):
    import numpy as np

    import rougekit
    index = rougekit.RougeIndex(test)
    ids = np.empty(len(train), dtype=np.int64)
    fmeasures = np.empty(len(train), dtype=np.float64)
    for k, text in enumerate(train):
        ids[k], fmeasures[k] = index.max(text)
        if k % 50000 == 0:
            log(f"  loop: {k:,} rows")
    return ids.tolist(), fmeasures.tolist()


def run_dask(test, train, args, timed):
    import dask.dataframe as dd
    import distributed
    import pandas as pd

    import rougekit.dask
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        ddf = client.persist(dd.from_pandas(pd.DataFrame({"text": train}),
                                            npartitions=args.partitions))
        distributed.wait(ddf)

        def run():
            out = client.persist(rougekit.dask.max_similarity(ddf, "text", test))
            distributed.wait(out)
            return out

        out = timed(run)
        got = out[["max_index", "max_fmeasure"]].compute()
        return got["max_index"].tolist(), got["max_fmeasure"].tolist()


def run_ray(test, train, args, timed):
    import pyarrow as pa
    import ray
    import ray.data

    import rougekit.ray
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        table = pa.table({"row": range(len(train)), "text": train})
        step = -(-len(table) // args.partitions)
        ds = ray.data.from_arrow([table.slice(k, step)
                                  for k in range(0, len(table), step)]).materialize()
        out = timed(lambda: rougekit.ray.max_similarity(
            ds, "text", test, compute=ray.data.ActorPoolStrategy(size=2)).materialize())
        # the blocks as they finished: the rows back in order by their number
        got = pa.concat_tables(ray.get(out.to_arrow_refs())).sort_by("row")
        return got.column("max_index").to_pylist(), got.column("max_fmeasure").to_pylist()
    finally:
        ray.shutdown()


def run_spark(test, train, args, timed):
    import tempfile

    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark.sql import SparkSession

    import rougekit.spark
    os.environ["PYSPARK_PYTHON"] = sys.executable
    folder = tempfile.mkdtemp(prefix="bench-contamination-")
    pq.write_table(pa.table({"text": train, "row": list(range(len(train)))}),
                   os.path.join(folder, "rows.parquet"))
    spark = (SparkSession.builder.master("local[2]").appName("bench-contamination")
             .config("spark.ui.enabled", "false").getOrCreate())
    try:
        sdf = spark.read.parquet(os.path.join(folder, "rows.parquet")) \
            .repartition(args.partitions).cache()
        sdf.count()
        out_path = os.path.join(folder, "out")
        timed(lambda: rougekit.spark.max_similarity(sdf, "text", test).write
              .mode("overwrite").parquet(out_path))
        got = pq.read_table(out_path).sort_by("row")
        return got.column("max_index").to_pylist(), got.column("max_fmeasure").to_pylist()
    finally:
        spark.stop()


ENGINES = {"dask": run_dask, "ray": run_ray, "spark": run_spark}


def timer(measured):
    """``timed(run)`` for an engine: ``run()``, its seconds and memory put
    in ``measured``."""
    def timed(run):
        with PeakMemory() as memory:
            t0 = time.perf_counter()
            out = run()
            measured["seconds"] = time.perf_counter() - t0
        measured["memory"] = memory
        return out
    return timed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--against", type=int, default=10000)
    ap.add_argument("--engines", default="dask,ray",
                    help="comma-separated, among dask, ray, spark")
    ap.add_argument("--partitions", type=int, default=16)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--shared")
    args = ap.parse_args(argv)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        sys.exit(f"bench: unknown engine(s) {unknown}; choose among {sorted(ENGINES)}")

    import pickle

    import rougekit

    log(f"making {args.against:,} test texts and {args.rows:,} rows ...")
    test, train = texts_of(corpus_sentences(shared_dir(args.shared)), args.rows,
                           args.against, args.seed)
    index_bytes = len(pickle.dumps(rougekit.RougeIndex(test)))

    results = {}
    log("RougeIndex loop ...")
    with PeakMemory(tree=False) as memory:
        t0 = time.perf_counter()
        want = run_loop(test, train)
        results["RougeIndex loop"] = (time.perf_counter() - t0, memory)
    for engine in engines:
        log(f"{engine} ...")
        measured = {}
        got = ENGINES[engine](test, train, args, timer(measured))
        if got != want:
            sys.exit(f"bench: {engine}'s max_similarity differs from the RougeIndex loop")
        results[engine] = (measured["seconds"], measured["memory"])

    flagged = sum(f > 0.7 for f in want[1])
    print("# max_similarity beside the RougeIndex loop\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    versions = ", ".join(f"{name} {dist_version(name)}"
                         for name in ("dask", "distributed", "ray", "pyspark")
                         if dist_version(name))
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"{versions}; rougekit {rougekit.__version__} (BACKEND={rougekit.BACKEND})")
    print(f"- {args.rows:,} rows checked against {args.against:,} texts (bench_index.py's "
          f"instruction-like texts, seed {args.seed}; 1 % of the rows from the test texts), "
          f"rougeL; {flagged:,} rows above F 0.7; the index pickles to "
          f"{index_bytes / 2**20:.1f} MiB; engines: 2 CPUs, {args.partitions} partitions")
    print("- every engine's max_index and max_fmeasure checked equal (==) to the loop's\n")
    print("| way | seconds | rows/s | vs the loop | memory at rest (MiB) | peak (MiB) |")
    print("|---|---:|---:|---:|---:|---:|")
    loop_seconds = results["RougeIndex loop"][0]
    for way, (seconds, memory) in results.items():
        print(f"| {way} | {seconds:,.1f} | {args.rows / seconds:,.0f} | "
              f"{loop_seconds / seconds:.2f}x | {memory.at_rest:,.0f} | {memory.peak:,.0f} |")
    print("\nMemory: PSS summed over the process tree (the loop: this process alone).")


if __name__ == "__main__":
    main()
