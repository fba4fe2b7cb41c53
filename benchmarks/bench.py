#!/usr/bin/env python3
"""Throughput of rougekit beside its peers, with an exactness check in the same run.

Scores the shared summarisation pairs (``../shared/corpus/make_pairs.py``) with
every implementation that is importable:

  rougekit        score() per pair and score_batch() on all cores
  rouge-score     score() per pair, on a subset (it is slow); the reference
  rouge-score-rs  score() per pair and score_batch() on all cores
  rouge-rust      score() and score_batch(), only where it applies: it always
                  computes rouge1, rouge2 and rougeL, without stemming

for the rouge types rouge1+rouge2+rougeL+rougeLsum (``--types``), stemming off
and on, and prints one markdown table per configuration. Every rougekit result
on the rouge-score subset must equal rouge-score's with ``==``, and rougekit's
score_batch must equal its score() on every pair; otherwise the first differing
pair is printed and the exit status is 1 (a benchmark of wrong numbers is
worthless). Differences between rougekit and the other peers are counted.

Then rougeL and rougeLsum of two long texts (``--long-tokens``, 20,000 tokens
by default), each measured in a fresh subprocess: time (best of 3) and peak
RSS growth (``ru_maxrss``; the compiled core allocates with malloc, which
tracemalloc does not see).

usage (from the repository root, after
``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench.py [--n 3000] [--seed 13]
        [--reference-pairs 300] [--repeat 5] [--threads T] [--types rouge1,rougeL]
        [--shared DIR] [--json FILE] [--long-tokens 20000] [--no-long]
        [--long-lsum-peers]

Timing: the scorer is built once per configuration, outside the timed region;
one warm-up pass of every implementation and method, then ``--repeat`` rounds
in which each runs one pass in turn (interleaved, so that load from elsewhere
on a shared machine falls on all of them alike); the best pass is kept, by
time.perf_counter. The warm-up pass, on a fresh scorer, is also reported as
the "first pass".
"""
import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import random
import resource
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

DEFAULT_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
RUST_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")  # what rouge-rust computes

# Throughput targets (issue 26), by stemming: rougekit's rate over rouge-score-rs's,
# method for method (score() against score(), score_batch against score_batch).
TARGETS = {False: {"score()": 8.0, "score_batch": 6.0},
           True: {"score()": 12.0, "score_batch": 6.0}}
LONG_TARGET_MS = 50.0  # rougeL of two 20,000-token texts (issue 4)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- inputs

def shared_dir(arg):
    return os.path.abspath(arg or os.environ.get("ROUGEKIT_SHARED")
                           or os.path.join(REPO, "..", "shared"))


def load_pairs(shared, n, seed):
    script = os.path.join(shared, "corpus", "make_pairs.py")
    if not os.path.exists(script):
        sys.exit(f"bench: no pair generator at {script}; "
                 "pass --shared DIR or set ROUGEKIT_SHARED")
    out = subprocess.run([sys.executable, script, "--n", str(n), "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    pairs = [json.loads(line) for line in out.splitlines() if line.strip()]
    if len(pairs) != n:
        sys.exit(f"bench: {script} gave {len(pairs)} pairs, not {n}")
    return pairs


def long_texts(shared, tokens, seed, tokenize):
    """Two texts of exactly ``tokens`` tokens from the corpus's articles.

    The first is the articles in order; the second the same sentences
    shuffled by a seeded RNG, so that the two share most words in a
    different order (a hard case for the LCS). Both are one line: for
    rougeLsum each is a single sentence.
    """
    path = os.path.join(shared, "corpus", "lee_background.txt")
    with open(path, encoding="utf-8") as f:
        sents = [s for line in f for s in line.strip().split(". ") if s]
    shuffled = list(sents)
    random.Random(seed).shuffle(shuffled)

    def take(sentences):
        words, count = [], 0
        while count < tokens:
            for sentence in sentences:
                for word in (sentence + ".").split():
                    c = len(tokenize(word))
                    if count + c <= tokens:
                        words.append(word)
                        count += c
                    if count == tokens:
                        return " ".join(words)
        return " ".join(words)

    return take(sents), take(shuffled)


# ---------------------------------------------------------------- implementations

def dist_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


class Impl:
    """One implementation: how to build a scorer and call it."""
    name = ""
    module = None
    error = None       # why it is unavailable

    def supports(self, types, stem):
        return None    # None if supported, else the reason it is not

    def normalise(self, result, types):
        return result


class RougeKit(Impl):
    name = "rougekit"

    def __init__(self):
        try:
            import rougekit
            from rougekit import rouge_scorer
        except ImportError as e:
            self.error = f"not importable ({e})"
            return
        self.module = rougekit
        self._rs = rouge_scorer
        self.version = rougekit.__version__
        self.detail = f"{rougekit.__version__}, BACKEND={rougekit.BACKEND}"

    def scorer(self, types, stem, threads):
        s = self._rs.RougeScorer(types, use_stemmer=stem)
        return s.score, (lambda ts, ps: s.score_batch(ts, ps, threads=threads))


class RougeScore(Impl):
    name = "rouge-score"

    def __init__(self):
        try:
            from rouge_score import rouge_scorer
        except ImportError:
            self.error = "not installed"
            return
        self.module = rouge_scorer
        self.version = dist_version("rouge-score") or "?"
        self.detail = self.version

    def scorer(self, types, stem, threads):
        return self.module.RougeScorer(types, use_stemmer=stem).score, None


class RougeScoreRs(Impl):
    name = "rouge-score-rs"

    def __init__(self):
        try:
            import rouge_score_rs
        except ImportError:
            self.error = "not installed"
            return
        self.module = rouge_score_rs
        self.version = getattr(rouge_score_rs, "__version__", None) or \
            dist_version("rouge-score-rs") or "?"
        self.detail = self.version

    def scorer(self, types, stem, threads):
        # score_batch(targets, predictions): no thread argument; rayon's pool
        # size comes from RAYON_NUM_THREADS, which main() sets before the
        # first parallel call.
        s = self.module.RougeScorer(types, use_stemmer=stem)
        return s.score, s.score_batch


class RougeRust(Impl):
    name = "rouge-rust"

    def __init__(self):
        try:
            import fast_rouge
        except ImportError:
            self.error = "not installed"
            return
        self.module = fast_rouge
        self.version = getattr(fast_rouge, "__version__", None) or \
            dist_version("rouge-rust") or "?"
        self.detail = f"{self.version} (import fast_rouge)"

    def supports(self, types, stem):
        if stem:
            return "no stemming"
        extra = [t for t in types if t not in RUST_ROUGE_TYPES]
        if extra:
            return f"no {', '.join(extra)}"
        return None

    def scorer(self, types, stem, threads):
        # Module functions, reference first: fast_rouge.score(reference, prediction);
        # it always computes rouge1, rouge2 and rougeL. Threads: RAYON_NUM_THREADS.
        return self.module.score, self.module.score_batch

    def normalise(self, result, types):
        # Its Score objects are not tuples: compare their three fields.
        return {t: (result[t].precision, result[t].recall, result[t].fmeasure)
                for t in types}


# ---------------------------------------------------------------- timing

def measure_interleaved(fns, repeat):
    """Times several functions in rounds: one warm-up pass of each (its
    results kept), then ``repeat`` rounds in which every function runs once,
    in turn. A burst of load from elsewhere on a shared machine then hits
    every implementation's passes alike instead of one implementation's
    whole series, so ratios within a run stay fair.

    Returns, per function, (results of the warm-up pass, its time, times of
    the timed passes)."""
    out = []
    for fn in fns:
        t0 = time.perf_counter()
        results = fn()
        out.append((results, time.perf_counter() - t0, []))
    for _ in range(repeat):
        for fn, (_, _, times) in zip(fns, out):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    return out


def loop(score, targets, predictions):
    return lambda: [score(t, p) for t, p in zip(targets, predictions)]


def fmt_rate(x):
    return f"{x:,.0f}" if x is not None else "n/a"


def fmt_ratio(a, b):
    return f"{a / b:.2f}x" if a is not None and b else "n/a"


# ---------------------------------------------------------------- exactness

def first_difference(got, want, start=0):
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return start + i
    return None


def count_differences(got, want):
    return sum(1 for g, w in zip(got, want) if g != w)


def report_mismatch(config, what, i, pair, want, got, want_name):
    print(f"\nEXACTNESS FAILURE ({config}): rougekit {what} differs from {want_name} "
          f"on pair {i} (id {pair['id']}, profile {pair['profile']})")
    print(f"  target (first reference): {json.dumps(pair['references'][0])}")
    print(f"  prediction (candidate):   {json.dumps(pair['candidate'])}")
    for t in want:
        mark = "" if got.get(t) == want[t] else "   <-- differs"
        print(f"  {t}:\n    {want_name + ':':16} {want[t]!r}\n"
              f"    {'rougekit:':16} {got.get(t)!r}{mark}")
    print("\nbench: not reporting throughput for results that are wrong.")
    sys.exit(1)


# ---------------------------------------------------------------- one configuration

def run_config(impls, types, stem, pairs, args, threads):
    """Times every implementation on one configuration and checks exactness."""
    label = f"{'+'.join(types)}, stemming {'on' if stem else 'off'}"
    targets = [p["references"][0] for p in pairs]
    predictions = [p["candidate"] for p in pairs]
    k = min(args.reference_pairs, len(pairs))
    rows, results, skipped, timed = [], {}, [], []
    for impl in impls:
        if impl.module is None:
            skipped.append(f"{impl.name}: {impl.error}")
            continue
        why = impl.supports(types, stem)
        if why:
            skipped.append(f"{impl.name}: not run ({why})")
            continue
        score, batch = impl.scorer(types, stem, threads)
        n = k if impl.name == "rouge-score" else len(pairs)
        ts, ps = targets[:n], predictions[:n]
        timed.append((impl, "score()", n, loop(score, ts, ps)))
        if batch is not None:
            timed.append((impl, "score_batch", n,
                          lambda b=batch, ts=ts, ps=ps: b(ts, ps)))
    log(f"  {label}: " + ", ".join(f"{impl.name} {method}" for impl, method, _, _ in timed)
        + f", interleaved: a warm-up pass each, then {args.repeat} rounds")
    measured = measure_interleaved([fn for _, _, _, fn in timed], args.repeat)
    for (impl, method, n, _), (out, first, times) in zip(timed, measured):
        results[impl.name, method] = [impl.normalise(r, types) for r in out]
        best = min(times)
        rows.append({"implementation": impl.name, "method": method,
                     "threads": threads if method == "score_batch" else 1,
                     "pairs": n, "best_s": best, "times_s": times,
                     "first_pass_s": first, "pairs_per_s": n / best,
                     "first_pass_pairs_per_s": n / first})

    checks = check_config(label, types, pairs, k, results)

    def rate(name, method):
        for r in rows:
            if r["implementation"] == name and r["method"] == method:
                return r["pairs_per_s"]
        return None

    rs_score = rate("rouge-score-rs", "score()")
    ref = rate("rouge-score", "score()")
    for r in rows:
        r["ratio_vs_rouge_score_rs_score"] = r["pairs_per_s"] / rs_score if rs_score else None
        r["ratio_vs_rouge_score"] = r["pairs_per_s"] / ref if ref else None
    targets_met = []
    for method, goal in TARGETS[stem].items():
        ours, theirs = rate("rougekit", method), rate("rouge-score-rs", method)
        ratio = ours / theirs if ours and theirs else None
        targets_met.append({
            "target": f"{method} >= {goal:g}x rouge-score-rs {method}",
            "configuration": label, "measured": ratio,
            "met": None if ratio is None else ratio >= goal})
    return {"configuration": label, "types": types, "stemming": stem,
            "rows": rows, "skipped": skipped, "checks": checks,
            "targets": targets_met}


def check_config(label, types, pairs, k, results):
    """Exactness: rougekit vs rouge-score (fatal), vs the other peers (counted)."""
    checks = {}
    rk_score = results.get(("rougekit", "score()"))
    rk_batch = results.get(("rougekit", "score_batch"))
    reference = results.get(("rouge-score", "score()"))
    if rk_score is not None and reference is not None:
        for method, got in (("score()", rk_score), ("score_batch", rk_batch)):
            if got is None:
                continue
            i = first_difference(got[:k], reference)
            if i is not None:
                report_mismatch(label, method, i, pairs[i], reference[i], got[i], "rouge-score")
        checks["rougekit == rouge-score"] = f"all {k} pairs, score() and score_batch"
    else:
        checks["rougekit == rouge-score"] = "NOT CHECKED (rouge-score not installed)"
    if rk_score is not None and rk_batch is not None:
        i = first_difference(rk_batch, rk_score)
        if i is not None:
            report_mismatch(label, "score_batch", i, pairs[i], rk_score[i], rk_batch[i],
                            "rougekit score()")
        checks["rougekit score_batch == score()"] = f"all {len(pairs)} pairs"
    for peer in ("rouge-score-rs", "rouge-rust"):
        for method in ("score()", "score_batch"):
            theirs = results.get((peer, method))
            if theirs is None:
                continue
            if rk_score is not None:
                d = count_differences(rk_score, theirs)
                checks[f"rougekit vs {peer} {method}"] = \
                    f"{d} of {len(theirs)} pairs differ"
            if reference is not None:
                d = count_differences(theirs[:k], reference)
                checks[f"{peer} {method} vs rouge-score"] = f"{d} of {k} pairs differ"
    return checks


def print_table(cfg):
    print(f"\n### {cfg['configuration']}\n")
    print("| implementation | method | pairs | pairs/s | vs rouge-score-rs score() "
          "| vs rouge-score |")
    print("|---|---|---:|---:|---:|---:|")
    for r in cfg["rows"]:
        method = r["method"]
        if method == "score_batch":
            method += f" ({r['threads']} thread{'s' if r['threads'] != 1 else ''})"
        rs = r["ratio_vs_rouge_score_rs_score"]
        ref = r["ratio_vs_rouge_score"]
        print(f"| {r['implementation']} | {method} | {r['pairs']:,} | "
              f"{fmt_rate(r['pairs_per_s'])} | {f'{rs:.2f}x' if rs else 'n/a'} | "
              f"{f'{ref:.1f}x' if ref else 'n/a'} |")
    print()
    for s in cfg["skipped"]:
        print(f"- {s}")
    firsts = ", ".join(f"{r['implementation']} {r['method']} {fmt_rate(r['first_pass_pairs_per_s'])}"
                       for r in cfg["rows"] if r["implementation"] != "rouge-score")
    if firsts:
        print(f"- first pass on a fresh scorer (pairs/s, not in the table): {firsts}")
    for name, value in cfg["checks"].items():
        print(f"- exactness, {name}: {value}")


def verdict(met):
    return "n/a" if met is None else ("MET" if met else "NOT MET")


# ---------------------------------------------------------------- long input

def current_rss_kib():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError):
        return None


def spawn(argv):
    """Runs the child from this small process and relays its output.

    A process started by the benchmark itself would inherit the benchmark's
    peak RSS as its ru_maxrss (Linux carries it over vfork and exec), which
    would hide the growth being measured; a process forked from this one
    starts from this one's small peak.
    """
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--_child"] + argv,
                         capture_output=True, text=True)
    sys.stdout.write(out.stdout)
    sys.stderr.write(out.stderr)
    return out.returncode


def child(argv):
    """Runs in a fresh interpreter: one implementation, one rouge type, one text pair."""
    impl, rouge_type, path = argv
    with open(path, encoding="utf-8") as f:
        target, prediction = json.load(f)
    if impl == "rougekit":
        from rougekit import rouge_scorer
        score = rouge_scorer.RougeScorer([rouge_type]).score
    elif impl == "rouge-score-rs":
        import rouge_score_rs
        score = rouge_score_rs.RougeScorer([rouge_type]).score
    else:  # rouge-rust: always rouge1, rouge2 and rougeL
        import fast_rouge
        score = fast_rouge.score
    score("warm up", "warm the scorer up")
    rss = current_rss_kib()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    result = score(target, prediction)
    first = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        score(target, prediction)
        times.append(time.perf_counter() - t0)
    s = result[rouge_type]
    print(json.dumps({"first_s": first, "times_s": times,
                      "maxrss_before_kib": before, "maxrss_after_kib": after,
                      "rss_before_kib": rss,
                      "score": [s.precision, s.recall, s.fmeasure]}))


def run_child(impl, rouge_type, path):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--_spawn",
                          impl, rouge_type, path],
                         capture_output=True, text=True)
    if out.returncode:
        return {"error": (out.stderr.strip().splitlines() or ["exit status %d" % out.returncode])[-1]}
    return json.loads(out.stdout)


def long_input(impls, shared, args):
    from rougekit.tokenizers import DefaultTokenizer
    tokenize = DefaultTokenizer(use_stemmer=False).tokenize
    n = args.long_tokens
    sizes = [n // 2, n]
    tmp = tempfile.mkdtemp(prefix="rougekit-bench-")
    files = {}
    for size in sizes:
        pair = long_texts(shared, size, args.seed, tokenize)
        files[size] = os.path.join(tmp, f"long-{size}.json")
        with open(files[size], "w", encoding="utf-8") as f:
            json.dump(pair, f)
    available = {i.name for i in impls if i.module is not None}
    plan = []  # (impl, rouge type, size)
    for rouge_type in ("rougeL", "rougeLsum"):
        for size in sizes:
            plan.append(("rougekit", rouge_type, size))
        if "rouge-score-rs" in available and (rouge_type == "rougeL" or args.long_lsum_peers):
            plan.append(("rouge-score-rs", rouge_type, n))
        if "rouge-rust" in available and rouge_type == "rougeL":
            plan.append(("rouge-rust", rouge_type, n))
    out = []
    for impl, rouge_type, size in plan:
        log(f"  long input: {impl} {rouge_type} {size:,} x {size:,} tokens (fresh process)")
        r = run_child(impl, rouge_type, files[size])
        r.update({"implementation": impl, "rouge_type": rouge_type, "tokens": size})
        if "error" not in r:
            r["best_ms"] = min(r["times_s"]) * 1000
            r["rss_growth_mib"] = (r["maxrss_after_kib"] - r["maxrss_before_kib"]) / 1024
        out.append(r)
    for f in files.values():
        os.remove(f)
    os.rmdir(tmp)
    return out


def long_summary(long):
    """Target lines for the long input (time, and memory linear in the input)."""
    def get(impl, rouge_type, size):
        for r in long:
            if (r["implementation"], r["rouge_type"], r["tokens"]) == (impl, rouge_type, size) \
                    and "error" not in r:
                return r
        return None

    sizes = sorted({r["tokens"] for r in long})
    small, big = sizes[0], sizes[-1]
    k = f"{big // 1000}k" if big % 1000 == 0 else f"{big:,}"
    out = []
    r = get("rougekit", "rougeL", big)
    out.append({"target": f"rougeL {k} x {k} < {LONG_TARGET_MS:g} ms",
                "measured": r and r["best_ms"],
                "met": None if r is None or big != 20000 else r["best_ms"] < LONG_TARGET_MS,
                "text": (f"{r['best_ms']:.1f} ms" if r else "failed")
                + ("" if big == 20000 else " (the target is for 20,000 tokens)")})
    # Linear memory (the issue asks it of rougeL): doubling the input should
    # at most about double the growth (allowing for a noise floor of a few
    # pages), and the growth should stay far below an n*m table, even of bits.
    a, b = get("rougekit", "rougeL", small), get("rougekit", "rougeL", big)
    if a and b:
        ga, gb = a["rss_growth_mib"], b["rss_growth_mib"]
        linear = gb < n_by_m_bits_mib(big) / 4 and (gb <= 3 * max(ga, 0.25) or gb < 4)
        out.append({"target": "rougeL memory linear in the input",
                    "measured": gb, "met": linear,
                    "text": memory_text(ga, gb, small, big)})
    return out


def n_by_m_bits_mib(n):
    return n * n / 8 / 2**20


def memory_text(ga, gb, small, big):
    return (f"peak RSS growth {ga:.1f} MiB at {small:,} tokens, {gb:.1f} MiB at {big:,} "
            f"(an n*m table of bits alone: {n_by_m_bits_mib(small):.1f} and "
            f"{n_by_m_bits_mib(big):.1f} MiB)")


def print_long(long, summary, args):
    n = args.long_tokens
    print(f"\n### Long input: two {n:,}-token texts\n")
    print("The first text is the corpus articles in order, the second the same sentences "
          f"shuffled (seed {args.seed}); one line each, so rougeLsum scores one sentence "
          "pair. Each row runs in a fresh process: time is the best of 3 calls after a "
          "first call; memory is the growth of peak RSS (ru_maxrss) over that first call.\n")
    print("| implementation | rouge type | tokens | best ms | first call ms | peak RSS growth MiB |")
    print("|---|---|---:|---:|---:|---:|")
    for r in long:
        name = r["implementation"] + (" (computes rouge1/2/L)" if r["implementation"] == "rouge-rust"
                                      else "")
        if "error" in r:
            print(f"| {name} | {r['rouge_type']} | {r['tokens']:,} | failed: {r['error']} | | |")
            continue
        print(f"| {name} | {r['rouge_type']} | {r['tokens']:,} | {r['best_ms']:.1f} | "
              f"{r['first_s'] * 1000:.1f} | {r['rss_growth_mib']:.1f} |")
    print()
    if not args.long_lsum_peers:
        print("- rouge-score-rs rougeLsum not run (an n*m table: about 1.6 GB and seconds "
              "at 20k tokens); --long-lsum-peers runs it")
    print("- rouge-score not run: its rougeL fills an n*m table of Python ints "
          f"({n:,}^2 cells)")
    sizes = sorted({r["tokens"] for r in long})
    for rouge_type in ("rougeL", "rougeLsum"):
        rs = [next((r for r in long if "error" not in r and r["implementation"] == "rougekit"
                    and r["rouge_type"] == rouge_type and r["tokens"] == size), None)
              for size in (sizes[0], sizes[-1])]
        if all(rs):
            print(f"- rougekit {rouge_type}: " + memory_text(
                rs[0]["rss_growth_mib"], rs[1]["rss_growth_mib"], sizes[0], sizes[-1]))
    ok = {}
    for r in long:
        if "error" not in r and r["tokens"] == n:
            ok.setdefault(r["rouge_type"], {})[r["implementation"]] = r["score"]
    for rouge_type, by in ok.items():
        if "rougekit" in by and "rouge-score-rs" in by:
            same = by["rougekit"] == by["rouge-score-rs"]
            print(f"- {rouge_type} {n:,} x {n:,}: rougekit's score "
                  f"{'equals' if same else 'DIFFERS FROM'} rouge-score-rs's")


# ---------------------------------------------------------------- header

def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_revision():
    try:
        rev = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        # --no-optional-locks: read only, never rewrite the index under others.
        dirty = subprocess.run(["git", "--no-optional-locks", "-C", REPO, "status",
                                "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return rev + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def command_line():
    env = f"PYTHONPATH={shlex.quote(os.environ['PYTHONPATH'])} " \
        if os.environ.get("PYTHONPATH") else ""
    return env + "python " + shlex.join(sys.argv)


def header(impls, pairs, args, threads, types):
    k = min(args.reference_pairs, len(pairs))
    size = lambda ps: sum(len(p["candidate"]) + len(p["references"][0]) for p in ps) / len(ps)
    profiles = {}
    for p in pairs:
        profiles[p["profile"]] = profiles.get(p["profile"], 0) + 1
    env = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "cores_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "command": command_line(),
        "git": git_revision(),
        "pairs": len(pairs), "seed": args.seed, "reference_pairs": k,
        "repeat": args.repeat, "threads": threads, "types": types,
        "profiles": profiles,
        "mean_chars_per_pair": size(pairs),
        "mean_chars_per_pair_subset": size(pairs[:k]),
        "versions": {i.name: (i.detail if i.module is not None else i.error) for i in impls},
    }
    rk = next(i for i in impls if i.name == "rougekit")
    if rk.module is not None:
        env["rougekit_path"] = os.path.dirname(rk.module.__file__)
    print("# rougekit benchmark\n")
    print(f"- date: {env['date']}")
    print(f"- command: `{env['command']}` (in {os.getcwd()})")
    print(f"- repository: git {env['git']}")
    print(f"- CPU: {env['cpu']}; {env['cores']} cores, {env['cores_available']} available "
          "to this process")
    print(f"- Python: {env['python']} on {env['platform']}")
    for i in impls:
        print(f"- {i.name}: {env['versions'][i.name]}"
              + (f" from {env['rougekit_path']}" if i.name == "rougekit" and
                 i.module is not None else ""))
    print(f"- pairs: {len(pairs):,} from make_pairs.py --n {len(pairs)} --seed {args.seed} "
          f"({', '.join(f'{v} {p}' for p, v in sorted(profiles.items()))}; "
          f"{env['mean_chars_per_pair']:,.0f} chars per pair); target = the first reference, "
          "prediction = the candidate")
    print(f"- rouge-score is timed on the first {k:,} pairs "
          f"({env['mean_chars_per_pair_subset']:,.0f} chars per pair), the others on all "
          f"{len(pairs):,}; results are compared on those {k:,}")
    print(f"- timing: one warm-up pass of each implementation and method, then "
          f"{args.repeat} interleaved rounds (each runs one pass in turn); best pass kept; "
          "the scorer is built once per configuration, outside the timed region")
    print(f"- score_batch threads: {threads} (rougekit threads={threads}; rouge-score-rs and "
          f"rouge-rust take no argument: RAYON_NUM_THREADS={threads})")
    print("- shared machine: compare ratios within one run, not absolute numbers across runs")
    return env


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=3000, help="pairs to score (default 3000)")
    ap.add_argument("--seed", type=int, default=13, help="make_pairs.py seed (default 13)")
    ap.add_argument("--shared", help="the shared directory (default: $ROUGEKIT_SHARED, "
                    "else ../shared from the repository)")
    ap.add_argument("--reference-pairs", type=int, default=300,
                    help="pairs for rouge-score, timed and compared (default 300)")
    ap.add_argument("--repeat", type=int, default=5,
                    help="timed rounds, best pass kept (default 5)")
    ap.add_argument("--threads", type=int, help="score_batch threads (default: all cores)")
    ap.add_argument("--types", help="comma-separated rouge types "
                    f"(default {','.join(DEFAULT_TYPES)})")
    ap.add_argument("--json", metavar="FILE", help="also write the raw numbers as JSON")
    ap.add_argument("--long-tokens", type=int, default=20000,
                    help="tokens per text for the long-input measurement (default 20000)")
    ap.add_argument("--no-long", action="store_true", help="skip the long-input measurement")
    ap.add_argument("--long-lsum-peers", action="store_true",
                    help="also run rouge-score-rs's rougeLsum on the long input (~1.6 GB)")
    a = ap.parse_args(argv)
    if a.n < 1 or a.reference_pairs < 1 or a.repeat < 1 or (a.threads is not None and a.threads < 1):
        ap.error("--n, --reference-pairs, --repeat and --threads must be positive")
    return a


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--_spawn"]:
        return spawn(argv[1:])
    if argv[:1] == ["--_child"]:
        return child(argv[1:])
    sys.stdout.reconfigure(line_buffering=True)
    args = parse_args(argv)
    threads = args.threads or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                               else os.cpu_count())
    # Before any rayon pool exists (it reads the variable once).
    os.environ["RAYON_NUM_THREADS"] = str(threads)
    types = args.types.split(",") if args.types else list(DEFAULT_TYPES)
    impls = [RougeKit(), RougeScore(), RougeScoreRs(), RougeRust()]
    if impls[0].module is None:
        sys.exit(f"bench: rougekit is {impls[0].error}; build it in place and run with "
                 "PYTHONPATH=src")
    shared = shared_dir(args.shared)
    log(f"bench: generating {args.n} pairs (seed {args.seed}) from {shared}")
    pairs = load_pairs(shared, args.n, args.seed)
    t_start = time.perf_counter()
    env = header(impls, pairs, args, threads, types)

    configs = [(types, False), (types, True)]
    rust = impls[3]
    if rust.module is not None and rust.supports(types, False):
        configs.append((list(RUST_ROUGE_TYPES), False))  # where rouge-rust applies
    done = []
    for cfg_types, stem in configs:
        cfg = run_config(impls, cfg_types, stem, pairs, args, threads)
        print_table(cfg)
        done.append(cfg)

    long, long_targets = [], []
    if not args.no_long:
        long = long_input(impls, shared, args)
        long_targets = long_summary(long)
        print_long(long, long_targets, args)

    print("\n### Targets (ratios within this run; throughput: issue 26, long input: issue 4)\n")
    if types != DEFAULT_TYPES:
        print(f"(issue 26 sets its throughput targets for {'+'.join(DEFAULT_TYPES)}; "
              f"these are for {'+'.join(types)})\n")
    all_targets = [t for cfg in done if cfg["types"] == types for t in cfg["targets"]]
    for t in all_targets:
        m = f"{t['measured']:.2f}x" if t["measured"] is not None else "n/a"
        print(f"- `{t['target']}` ({t['configuration']}): {m} -> {verdict(t['met'])}")
    for t in long_targets:
        print(f"- `{t['target']}`: {t['text']} -> {verdict(t['met'])}")
    exact = [c["checks"]["rougekit == rouge-score"] for c in done]
    if any(x.startswith("NOT CHECKED") for x in exact):
        print("\nexactness: NOT CHECKED against rouge-score (not installed)")
    else:
        print(f"\nexactness: every rougekit result equals rouge-score's (==) in all "
              f"{len(done)} configurations")
    print(f"\nbenchmark time: {time.perf_counter() - t_start:.0f} s")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"environment": env, "configurations": done, "long_input": long,
                       "targets": all_targets + long_targets}, f, indent=2)
        log(f"bench: wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
