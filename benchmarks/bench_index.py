#!/usr/bin/env python3
"""RougeIndex and deduplicate beside the loops they replace, with exactness
checks in the same run.

1. One new instruction against a pool (``--pool``, 20,000 instructions), as
   Self-Instruct and Alpaca score it, timed per query:

     rouge-score _score_lcs loop   Alpaca's loop: pool tokenized once with
                                   rouge-score's tokenizer, then
                                   rouge_scorer._score_lcs(new, old) per text
     rougekit _score_lcs loop      the same loop over rougekit.rouge_scorer
     rougekit score() loop         RougeScorer.score(new, old) on raw texts
     RougeIndex.scores             the pool in an index, all threads / 1 thread

   Every RougeIndex.scores result must equal the rouge-score loop's F list
   (on the queries rouge-score runs) and the rougekit loop's (on all); else
   the script stops with status 1.

2. deduplicate(texts, threshold=0.7) of ``--dedup`` sizes (50,000 and
   1,000,000 by default): wall time (all threads, and 1 thread), texts kept,
   and the filter's counts: pairs the loop would score, list entries read,
   candidates, pairs scored. The first ``--verify`` texts are also
   deduplicated by rouge-score's own loop and must give the same indices.

Instructions are generated deterministically (``instructions``): fragments
of 4 to 16 words of the shared corpus's news sentences put into one of 20
instruction templates ("Summarize the following sentence in one line: ..."),
and, one time in four, an edited copy of an earlier instruction (words
dropped, replaced or repeated at a rate of 10 to 50 %): a mix of distinct
tasks and near-duplicates, as a model's raw output has.

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_index.py [--pool 20000] [--queries 20]
        [--reference-queries 3] [--dedup 50000,1000000] [--verify 1500]
        [--repeat 3] [--threads T] [--seed 13] [--shared DIR] [--json FILE]
"""
import argparse
import json
import os
import platform
import random
import re
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Targets of issue 13.
SCORES_TARGET = 300.0    # RougeIndex.scores / rouge-score _score_lcs loop
DEDUP_50K_TARGET_S = 20.0

SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")
TEMPLATES = [
    "Summarize the following sentence in one line: {}",
    "Write a headline for this news item: {}",
    "Rewrite the sentence in the passive voice: {}",
    "Explain to a child what this means: {}",
    "Translate the following text into French: {}",
    "Give three reasons why the following matters: {}",
    "What is the main idea of this passage? {}",
    "Classify the sentiment of the following text as positive, negative or neutral: {}",
    "Generate a question that is answered by this sentence: {}",
    "List the people, places and organizations mentioned in: {}",
    "Write a short poem inspired by this line: {}",
    "Correct the grammar and spelling in the following sentence: {}",
    "Suggest a follow-up question a journalist could ask about: {}",
    "Turn this statement into a tweet under 280 characters: {}",
    "Identify the verb tenses used in: {}",
    "{}",
    "Is the following claim a fact or an opinion? {}",
    "Write an opening paragraph for a story that begins with: {}",
    "Paraphrase the following sentence without changing its meaning: {}",
    "Extract all numbers and dates from the text: {}",
]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def shared_dir(arg):
    return os.path.abspath(arg or os.environ.get("ROUGEKIT_SHARED")
                           or os.path.join(REPO, "..", "shared"))


def corpus_sentences(shared):
    path = os.path.join(shared, "corpus", "lee_background.txt")
    if not os.path.exists(path):
        sys.exit(f"bench_index: no corpus at {path}; pass --shared DIR or set ROUGEKIT_SHARED")
    sents = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            sents += [s.split() for s in SPLIT.split(line.strip()) if len(s.split()) >= 4]
    return sents


def edited(text, rng, rate):
    words = text.split()
    out = []
    for w in words:
        r = rng.random()
        if r < rate / 3:
            continue                             # dropped
        if r < 2 * rate / 3:
            out.append(rng.choice(words))        # replaced by a word of the text
        elif r < rate:
            out += [w, rng.choice(words)]        # one inserted after it
        else:
            out.append(w)
    return " ".join(out) or text


def instructions(sentences, n, seed):
    """``n`` instruction-like texts (module docstring), the same for a seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        if out and rng.random() < 0.25:
            out.append(edited(out[rng.randrange(len(out))], rng,
                              rng.choice([0.1, 0.2, 0.3, 0.5])))
        else:
            words = rng.choice(sentences)
            k = rng.randint(4, 16)
            s = rng.randrange(max(1, len(words) - k + 1))
            out.append(rng.choice(TEMPLATES).format(" ".join(words[s:s + k])))
    return out


def best_of(fn, repeat):
    """(best seconds, result) of ``repeat`` calls."""
    best, result = None, None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best, result


def rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# ---------------------------------------------------------------- 1. one query against a pool

def bench_scores(args, sentences, report):
    from rouge_score import rouge_scorer as ref

    import rougekit
    from rougekit import rouge_scorer as kit

    texts = instructions(sentences, args.pool + args.queries, args.seed)
    pool, queries = texts[:args.pool], texts[args.pool:]
    ref_scorer = ref.RougeScorer(["rougeL"], use_stemmer=False)
    kit_scorer = kit.RougeScorer(["rougeL"], use_stemmer=False)
    ref_pool = [ref_scorer._tokenizer.tokenize(t) for t in pool]
    kit_pool = [kit_scorer._tokenizer.tokenize(t) for t in pool]
    tokens = sum(map(len, ref_pool))
    log(f"scores: pool of {len(pool)} instructions ({tokens / len(pool):.1f} tokens each), "
        f"{len(queries)} queries")

    t = time.perf_counter()
    index = rougekit.RougeIndex(pool, threads=args.threads)
    build_s = time.perf_counter() - t
    index1 = rougekit.RougeIndex(pool, threads=1)

    def ref_loop(q):
        qt = ref_scorer._tokenizer.tokenize(q)
        return [ref._score_lcs(qt, p).fmeasure for p in ref_pool]

    def kit_loop(q):
        qt = kit_scorer._tokenizer.tokenize(q)
        return [kit._score_lcs(qt, p).fmeasure for p in kit_pool]

    def kit_score_loop(q):
        return [kit_scorer.score(q, p)["rougeL"].fmeasure for p in pool]

    methods = [
        ("rouge-score `_score_lcs` loop", ref_loop, queries[:args.reference_queries]),
        ("rougekit `_score_lcs` loop", kit_loop, queries),
        ("rougekit `score()` loop", kit_score_loop, queries),
        (f"`RougeIndex.scores` ({args.threads} threads)", index.scores, queries),
        ("`RougeIndex.scores` (1 thread)", index1.scores, queries),
    ]
    # Interleaved rounds: each method runs its queries once per round.
    best = {name: None for name, _, _ in methods}
    results = {}
    for r in range(args.repeat):
        for name, fn, qs in methods:
            t = time.perf_counter()
            out = [fn(q) for q in qs]
            dt = (time.perf_counter() - t) / len(qs)
            best[name] = dt if best[name] is None else min(best[name], dt)
            results[name] = out
        log(f"  round {r + 1}/{args.repeat} done")

    # Exactness, in the same run.
    got = [a.tolist() for a in results[methods[3][0]]]
    for name, _, _ in methods[:3]:
        for k, want in enumerate(results[name]):
            if got[k] != want:
                i = next(j for j in range(len(want)) if got[k][j] != want[j])
                sys.exit(f"bench_index: RougeIndex.scores differs from {name} on query "
                         f"{queries[k]!r}, pool text {i} {pool[i]!r}: "
                         f"{got[k][i]!r} vs {want[i]!r}")
    if [a.tolist() for a in results[methods[4][0]]] != got:
        sys.exit("bench_index: RougeIndex.scores differs between 1 and all threads")

    ref_s = best[methods[0][0]]
    rows = []
    for name, _, qs in methods:
        rows.append({"method": name, "queries": len(qs), "ms_per_query": best[name] * 1e3,
                     "vs_rouge_score": ref_s / best[name]})
    ratio = ref_s / best[methods[3][0]]
    report["scores"] = {"pool": len(pool), "tokens_per_text": tokens / len(pool),
                        "queries": len(queries), "build_s": build_s, "rows": rows,
                        "target": SCORES_TARGET, "ratio": ratio,
                        "met": ratio >= SCORES_TARGET,
                        "ref_ms_per_pair": ref_s * 1e3 / len(pool)}


def print_scores(s):
    print(f"### One query against a pool of {s['pool']:,} instructions "
          f"({s['tokens_per_text']:.1f} tokens each)\n")
    print("| method | queries timed | ms per query | vs rouge-score |")
    print("|---|---:|---:|---:|")
    for r in s["rows"]:
        print(f"| {r['method']} | {r['queries']} | {r['ms_per_query']:.2f} | "
              f"{r['vs_rouge_score']:.1f}x |")
    print(f"\nBuilding the index of {s['pool']:,} texts: {s['build_s'] * 1e3:.0f} ms. "
          "Every RougeIndex.scores result equals the loops' F lists with `==`.\n")
    print(f"Target: RougeIndex.scores >= {s['target']:.0f}x the rouge-score loop: "
          f"{s['ratio']:.0f}x, {'MET' if s['met'] else 'NOT MET'}.\n")


# ---------------------------------------------------------------- 2. deduplicate

def reference_dedup(texts, threshold):
    """rouge-score's own loop (Alpaca's), on pre-tokenized texts."""
    from rouge_score import rouge_scorer as ref
    scorer = ref.RougeScorer(["rougeL"], use_stemmer=False)
    pool, kept = [], []
    for i, t in enumerate(texts):
        tok = scorer._tokenizer.tokenize(t)
        if all(ref._score_lcs(tok, p).fmeasure <= threshold for p in pool):
            kept.append(i)
            pool.append(tok)
    return kept


def bench_dedup(args, sentences, report, ref_ms_per_pair):
    from rougekit import ScoringOptions
    from rougekit.index import _run_dedup
    global ROUGE_L_OPTIONS
    ROUGE_L_OPTIONS = ScoringOptions(rouge_types=["rougeL"])

    if args.verify:
        texts = instructions(sentences, args.verify, args.seed + 1)
        log(f"dedup: checking {len(texts)} texts against rouge-score's loop")
        want = reference_dedup(texts, args.threshold)
        got = _run_dedup(texts, args.threshold, ROUGE_L_OPTIONS, (), args.threads,
                         False)[0]
        if got != want:
            sys.exit(f"bench_index: deduplicate differs from rouge-score's loop on the "
                     f"first {len(texts)} texts")
        report["dedup_verified"] = len(texts)
    rows = []
    for n in args.dedup:
        log(f"dedup: generating {n:,} instructions")
        texts = instructions(sentences, n, args.seed + 1)
        repeat = args.repeat if n <= 100000 else 1
        row = {"texts": n}
        for threads in sorted({args.threads, 1}, reverse=True):
            log(f"dedup: {n:,} texts, {threads} threads, best of {repeat}")
            rss0 = rss_mib()
            secs, (kept, stats) = best_of(
                lambda t=threads, x=texts: _run_dedup(x, args.threshold, ROUGE_L_OPTIONS, (),
                                                      t, False), repeat)
            row[f"s_{threads}"] = secs
            row["rss_growth_mib"] = max(rss_mib() - rss0, row.get("rss_growth_mib", 0.0))
            log(f"  {secs:.2f} s, kept {len(kept):,}")
        # The pairs the loop scores: each text against the texts kept before it.
        before = 0
        pairs = 0
        kept_set = kept
        k = 0
        for i in range(n):
            pairs += before
            if k < len(kept_set) and kept_set[k] == i:
                before += 1
                k += 1
        row.update(kept=len(kept), loop_pairs=pairs, **stats,
                   loop_estimate_h=pairs * ref_ms_per_pair / 1e3 / 3600 if ref_ms_per_pair
                   else None)
        rows.append(row)
    report["dedup"] = {"threshold": args.threshold, "threads": args.threads, "rows": rows,
                       "target_50k_s": DEDUP_50K_TARGET_S}


def print_dedup(d, verified):
    t = d["threads"]
    print(f"### deduplicate(texts, threshold={d['threshold']})\n")
    print(f"| texts | {t} threads | 1 thread | kept | pairs the loop scores | "
          "list entries read | candidates | pairs scored | rouge-score loop (estimate) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in d["rows"]:
        est = f"{r['loop_estimate_h']:.1f} h" if r.get("loop_estimate_h") else "-"
        print(f"| {r['texts']:,} | {r[f's_{t}']:.2f} s | {r['s_1']:.2f} s | {r['kept']:,} | "
              f"{r['loop_pairs']:,} | {r['met']:,} | {r['candidates']:,} | "
              f"{r['verified']:,} | {est} |")
    if verified:
        print(f"\nThe first {verified:,} texts deduplicated by rouge-score's own loop give "
              "the same indices.")
    print("\nThe estimate is the loop's pairs times rouge-score's `_score_lcs` time per pair "
          "measured above, on one core; it is not measured.\n")
    for r in d["rows"]:
        if r["texts"] == 50000:
            ok = r[f"s_{t}"] < d["target_50k_s"]
            print(f"Target: 50,000 instructions in under {d['target_50k_s']:.0f} s: "
                  f"{r[f's_{t}']:.2f} s, {'MET' if ok else 'NOT MET'}.\n")


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool", type=int, default=20000)
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--reference-queries", type=int, default=3,
                    help="queries rouge-score's loop runs (it takes most of a second each)")
    ap.add_argument("--dedup", default="50000,1000000",
                    help="comma-separated sizes to deduplicate ('' for none)")
    ap.add_argument("--verify", type=int, default=1500,
                    help="texts also deduplicated by rouge-score's loop (0: none)")
    ap.add_argument("--threshold", type=float, default=0.7)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--shared", default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    args.dedup = [int(x) for x in args.dedup.split(",") if x.strip()]

    from rouge_score import rouge_scorer  # noqa: F401  (installed: the reference)

    import rougekit

    sentences = corpus_sentences(shared_dir(args.shared))
    report = {"python": platform.python_version(), "machine": platform.machine(),
              "cpus": os.cpu_count(), "rougekit": rougekit.__version__,
              "backend": rougekit.BACKEND, "seed": args.seed,
              "command": " ".join([os.path.basename(sys.executable)] + sys.argv)}
    bench_scores(args, sentences, report)
    bench_dedup(args, sentences, report, report["scores"]["ref_ms_per_pair"])

    print(f"rougekit {report['rougekit']} (BACKEND={report['backend']}), "
          f"Python {report['python']}, {report['cpus']} CPUs, {report['machine']}\n")
    print_scores(report["scores"])
    print_dedup(report["dedup"], report.get("dedup_verified"))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
