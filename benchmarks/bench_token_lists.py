#!/usr/bin/env python3
"""Cost per pair of rouge-score's helpers on pre-tokenized lists, beside score().

Code that de-duplicates or filters data calls rouge-score's private helpers on
token lists it tokenized once (Alpaca: ``_score_lcs(new_tokens, tokens)`` in a
pool). This script times, on the same pairs and in one run:

  score()               RougeScorer([type]).score(target, prediction) on raw text
  score() 4 types       rouge1+rouge2+rougeL+rougeLsum
  score(), named tok.   RougeScorer([type], tokenizer=RougeScoreTokenizer()): the
                        named tokenizer takes the engine as the default does
  _score_lcs            on the two token lists
  _score_ngrams         on the two n-gram Counters, built beforehand
  _create_ngrams x2 + _score_ngrams   building the Counters too
  rouge_l / rouge_n     rougekit's token functions (candidate first)

for rougekit and, on a subset, rouge-score itself; every rougekit helper result
is checked ``==`` against rouge-score's. Each row prints microseconds per pair
and its ratio to rougekit's score() of the same rouge type.

usage (repository root, extension built in place):

    PYTHONPATH=src python benchmarks/bench_token_lists.py [--n 3000] [--repeat 7]

Timing: interleaved rounds (every row runs one pass per round, in turn), best
pass kept, time.perf_counter; inputs prepared outside the timed region.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load_pairs(n, seed, shared):
    script = os.path.join(shared, "corpus", "make_pairs.py")
    out = subprocess.run([sys.executable, script, "--n", str(n), "--seed", str(seed)],
                         capture_output=True, text=True, check=True).stdout
    import json
    pairs = [json.loads(line) for line in out.splitlines() if line]
    return [(p["references"][0], p["candidate"]) for p in pairs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--reference-pairs", type=int, default=300)
    ap.add_argument("--shared", default=os.environ.get(
        "ROUGEKIT_SHARED", os.path.join(HERE, "..", "..", "shared")))
    args = ap.parse_args()

    from rouge_score import rouge_scorer as ref

    import rougekit
    from rougekit import rouge_scorer as kit
    from rougekit import token_metrics as tm
    from rougekit.word_tokenizers import RougeScoreTokenizer

    pairs = load_pairs(args.n, args.seed, args.shared)
    tokenize = kit.RougeScorer(["rouge1"])._tokenizer.tokenize
    tokens = [(tokenize(t), tokenize(p)) for t, p in pairs]
    counters = {n: [(kit._create_ngrams(t, n), kit._create_ngrams(p, n)) for t, p in tokens]
                for n in (1, 2)}
    sub = args.reference_pairs

    # Exactness first: a benchmark of wrong numbers is worthless.
    for t, p in tokens[:sub]:
        assert kit._score_lcs(t, p) == ref._score_lcs(t, p)
        for n in (1, 2):
            assert kit._score_ngrams(ref._create_ngrams(t, n), ref._create_ngrams(p, n)) == \
                ref._score_ngrams(ref._create_ngrams(t, n), ref._create_ngrams(p, n))

    scorers = {k: kit.RougeScorer([k]) for k in ("rougeL", "rouge1", "rouge2")}
    named = {k: kit.RougeScorer([k], tokenizer=RougeScoreTokenizer()) for k in scorers}
    four = kit.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])

    def per_pair(func, data):
        return lambda: [func(a, b) for a, b in data]

    rows = [  # (label, rouge type it compares with, pass function, pairs)
        ("score() rougeL", "rougeL", per_pair(scorers["rougeL"].score, pairs), len(pairs)),
        ("score() rouge1", "rouge1", per_pair(scorers["rouge1"].score, pairs), len(pairs)),
        ("score() rouge2", "rouge2", per_pair(scorers["rouge2"].score, pairs), len(pairs)),
        ("score() 4 types", "rougeL", per_pair(four.score, pairs), len(pairs)),
        ("score() rougeL, RougeScoreTokenizer()", "rougeL",
         per_pair(named["rougeL"].score, pairs), len(pairs)),
        ("_score_lcs(tokens)", "rougeL", per_pair(kit._score_lcs, tokens), len(pairs)),
        ("_score_ngrams(Counters) n=1", "rouge1",
         per_pair(kit._score_ngrams, counters[1]), len(pairs)),
        ("_score_ngrams(Counters) n=2", "rouge2",
         per_pair(kit._score_ngrams, counters[2]), len(pairs)),
        ("_create_ngrams x2 + _score_ngrams n=1", "rouge1",
         per_pair(lambda a, b: kit._score_ngrams(kit._create_ngrams(a, 1),
                                                 kit._create_ngrams(b, 1)), tokens), len(pairs)),
        ("rouge_l(tokens)", "rougeL", per_pair(lambda a, b: tm.rouge_l(b, a), tokens), len(pairs)),
        ("rouge_n(tokens, 1)", "rouge1",
         per_pair(lambda a, b: tm.rouge_n(b, a, 1), tokens), len(pairs)),
        ("rouge-score _score_lcs(tokens)", "rougeL",
         per_pair(ref._score_lcs, tokens[:sub]), sub),
        ("rouge-score _score_ngrams(Counters) n=1", "rouge1",
         per_pair(ref._score_ngrams, counters[1][:sub]), sub),
    ]
    best = {label: float("inf") for label, *_ in rows}
    for func in (r[2] for r in rows):
        func()                                      # warm-up: caches, stems
    for _ in range(args.repeat):
        for label, _, func, n in rows:
            start = time.perf_counter()
            func()
            best[label] = min(best[label], (time.perf_counter() - start) / n)

    print(f"rougekit {rougekit.__version__} ({rougekit.BACKEND}), {len(pairs)} pairs "
          f"(make_pairs.py --n {args.n} --seed {args.seed}), best of {args.repeat} "
          "interleaved rounds; rouge-score rows on the first "
          f"{sub} pairs\n")
    print("| what | us per pair | vs rougekit score() of the same type |")
    print("|---|---:|---:|")
    base = {"rougeL": best["score() rougeL"], "rouge1": best["score() rouge1"],
            "rouge2": best["score() rouge2"]}
    for label, kind, _, _ in rows:
        print(f"| {label} | {best[label] * 1e6:.2f} | {best[label] / base[kind]:.2f}x |")


if __name__ == "__main__":
    main()
