#!/usr/bin/env python3
"""The HTML report at scale: how long ``rougekit report`` takes and how big its file is.

The shared pairs (``make_pairs.py --n N``, 100,000 by default) are written as
``rougekit report --jsonl`` input; system B is each candidate without every
third word (the same references). Two commands run, each ``--repeat`` times
(the best time is kept):

  one system, --bootstrap 0   rougekit report --jsonl a.jsonl --bootstrap 0 -o a0.html
  one system                  rougekit report --jsonl a.jsonl -o a.html
  two systems                 rougekit report --jsonl a.jsonl --compare b.jsonl -o ab.html

with the defaults (rouge1, rouge2, rougeL, rougeLsum; 1,000 bootstrap
resamples; with --compare 10,000 approximate randomization trials). The
wall time is the whole command: reading, scoring, the intervals and tests,
explaining the items the file shows, rendering; the first run, without
intervals, is the report's own cost (reading, scoring, explaining, rendering),
the others add what ``rougekit score --bootstrap 1000`` and ``rougekit
compare`` spend on resampling. Target: a file under 20 MB
at 100,000 items (rougekit.report's docstring says how).

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_report.py [--n 100000] [--repeat 1] [--seed 13]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import command_line, cpu_model, git_revision, load_pairs, log, shared_dir  # noqa: E402

MAX_BYTES = 20_000_000


def write_jsonl(path, candidates, references):
    with open(path, "w", encoding="utf-8") as f:
        for c, r in zip(candidates, references):
            f.write(json.dumps({"candidate": c, "references": r}) + "\n")


def without_every_third_word(text):
    return " ".join(w for k, w in enumerate(text.split(" ")) if k % 3 != 2)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--shared")
    args = ap.parse_args(argv)

    import rougekit

    log(f"making {args.n} pairs ...")
    pairs = load_pairs(shared_dir(args.shared), args.n, args.seed)
    references = [p["references"] for p in pairs]
    a = [p["candidate"] for p in pairs]
    b = [without_every_third_word(c) for c in a]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(rougekit.__file__)),
                    env.get("PYTHONPATH")) if p)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        write_jsonl(os.path.join(folder, "a.jsonl"), a, references)
        write_jsonl(os.path.join(folder, "b.jsonl"), b, references)
        runs = {"one system, --bootstrap 0": ["--jsonl", "a.jsonl", "--bootstrap", "0",
                                              "-o", "a0.html"],
                "one system": ["--jsonl", "a.jsonl", "-o", "a.html"],
                "two systems": ["--jsonl", "a.jsonl", "--compare", "b.jsonl", "-o", "ab.html"]}
        for name, extra in runs.items():
            times = []
            for round_ in range(args.repeat):
                log(f"round {round_ + 1}: {name} ...")
                t0 = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "rougekit", "report", *extra],
                                      cwd=folder, env=env, capture_output=True, text=True)
                times.append(time.perf_counter() - t0)
                if proc.returncode != 0:
                    sys.exit(f"bench: rougekit report {' '.join(extra)} failed:\n{proc.stderr}")
            size = os.path.getsize(os.path.join(folder, extra[-1]))
            with open(os.path.join(folder, extra[-1]), encoding="utf-8") as f:
                if 'id="rk-data"' not in f.read():
                    sys.exit(f"bench: {extra[-1]} has no item data")
            rows.append((name, min(times), size))

    print("# rougekit report: build time and file size\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"rougekit {rougekit.__version__} (BACKEND={rougekit.BACKEND})")
    print(f"- {len(pairs):,} items (make_pairs.py --n {args.n} --seed {args.seed}); "
          f"B = A without every third word; best of {args.repeat}\n")
    print("| report | seconds (whole command) | file size | under 20 MB |")
    print("|---|---:|---:|---|")
    for name, seconds, size in rows:
        print(f"| {name} | {seconds:.1f} | {size / 1e6:.1f} MB ({size:,} bytes) "
              f"| {'yes' if size < MAX_BYTES else 'NO'} |")
    met = all(size < MAX_BYTES for _, _, size in rows)
    print(f"\nfile under 20 MB: {'MET' if met else 'NOT MET'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
