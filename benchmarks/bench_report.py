#!/usr/bin/env python3
"""The HTML report's size and build time: ``rougekit report`` on 12 items, on
100,000 items, and on one item of 45,000 words a side.

The shared pairs (``make_pairs.py --n N``, 100,000 by default) are written as
``rougekit report --jsonl`` input; system B is each candidate without every
third word (the same references). The commands, each run ``--repeat`` times
(the best time is kept):

  12 items, one system        rougekit report --jsonl a12.jsonl -o s12.html
  12 items, two systems       rougekit report --jsonl a12.jsonl --compare b12.jsonl -o c12.html
  one system, --bootstrap 0   rougekit report --jsonl a.jsonl --bootstrap 0 -o a0.html
  one system                  rougekit report --jsonl a.jsonl -o a.html
  two systems                 rougekit report --jsonl a.jsonl --compare b.jsonl -o ab.html
  one long item               rougekit report --jsonl long.jsonl -o long.html

with the defaults (rouge1, rouge2, rougeL, rougeLsum; 1,000 bootstrap
resamples; with --compare 10,000 approximate randomization trials). The 12
items are the first 12 pairs; the long item is two texts of ``--long-words``
(45,000) tokens from the corpus's articles, the second in another sentence
order (bench.py's long input). The wall time is the whole command: reading,
scoring, the intervals and tests, explaining the items the file shows,
rendering; the run without intervals is the report's own cost, the others
add what ``rougekit score --bootstrap 1000`` and ``rougekit compare`` spend
on resampling. Targets: under 1 MB at 12 items and under 20 MB at 100,000
(rougekit.report's docstring says how; the script fails when one is not
met), and the long item under 30 s (said, not failed: a busy machine must
not fail a run).

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

from bench import (  # noqa: E402
    command_line,
    cpu_model,
    git_revision,
    load_pairs,
    log,
    long_texts,
    shared_dir,
)

MAX_BYTES = 20_000_000
SMALL_ITEMS, SMALL_MAX_BYTES = 12, 1_000_000
LONG_SECONDS = 30


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
    ap.add_argument("--long-words", type=int, default=45000)
    args = ap.parse_args(argv)

    import rougekit
    from rougekit.tokenizers import DefaultTokenizer

    shared = shared_dir(args.shared)
    log(f"making {args.n} pairs ...")
    pairs = load_pairs(shared, args.n, args.seed)
    references = [p["references"] for p in pairs]
    a = [p["candidate"] for p in pairs]
    b = [without_every_third_word(c) for c in a]
    long_reference, long_candidate = long_texts(
        shared, args.long_words, args.seed, DefaultTokenizer(use_stemmer=False).tokenize)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(rougekit.__file__)),
                    env.get("PYTHONPATH")) if p)
    small = f"{SMALL_ITEMS} items"
    big = f"{len(pairs):,} items"
    long = f"1 item, {args.long_words:,} words a side"
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        write_jsonl(os.path.join(folder, "a.jsonl"), a, references)
        write_jsonl(os.path.join(folder, "b.jsonl"), b, references)
        for name, system in (("a12.jsonl", a), ("b12.jsonl", b)):
            write_jsonl(os.path.join(folder, name), system[:SMALL_ITEMS],
                        references[:SMALL_ITEMS])
        write_jsonl(os.path.join(folder, "long.jsonl"), [long_candidate], [[long_reference]])
        runs = [(small, "one system", SMALL_MAX_BYTES,
                 ["--jsonl", "a12.jsonl", "-o", "s12.html"]),
                (small, "two systems", SMALL_MAX_BYTES,
                 ["--jsonl", "a12.jsonl", "--compare", "b12.jsonl", "-o", "c12.html"]),
                (big, "one system, --bootstrap 0", MAX_BYTES,
                 ["--jsonl", "a.jsonl", "--bootstrap", "0", "-o", "a0.html"]),
                (big, "one system", MAX_BYTES, ["--jsonl", "a.jsonl", "-o", "a.html"]),
                (big, "two systems", MAX_BYTES,
                 ["--jsonl", "a.jsonl", "--compare", "b.jsonl", "-o", "ab.html"]),
                (long, "one system", None, ["--jsonl", "long.jsonl", "-o", "long.html"])]
        for items, name, limit, extra in runs:
            times = []
            for round_ in range(args.repeat):
                log(f"round {round_ + 1}: {items}, {name} ...")
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
            rows.append((items, name, min(times), size, limit))

    print("# rougekit report: build time and file size\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"rougekit {rougekit.__version__} (BACKEND={rougekit.BACKEND})")
    print(f"- {len(pairs):,} items (make_pairs.py --n {args.n} --seed {args.seed}), the "
          f"first {SMALL_ITEMS} of them, and one item of {args.long_words:,} words a side; "
          f"B = A without every third word; best of {args.repeat}\n")
    print("| items | report | seconds (whole command) | file size | target |")
    print("|---|---|---:|---:|---|")
    for items, name, seconds, size, limit in rows:
        target = (f"under {limit / 1e6:g} MB: {'yes' if size < limit else 'NO'}"
                  if limit is not None else
                  f"under {LONG_SECONDS} s: {'yes' if seconds < LONG_SECONDS else 'NO'}")
        print(f"| {items} | {name} | {seconds:.1f} | {size / 1e6:.2f} MB ({size:,} bytes) "
              f"| {target} |")
    met = all(size < limit for _, _, _, size, limit in rows if limit is not None)
    print(f"\nfile sizes under their targets: {'MET' if met else 'NOT MET'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
