#!/usr/bin/env python3
"""score_ids beside rouge-score's token-list functions and rougekit's string path.

ROUGE as a training signal scores token ids: predictions of ``--pred-len``
ids against references of ``--ref-len`` ids (default 128 and 128),
rouge1 + rouge2 + rougeL. This script times, on the same pairs and in one
run (interleaved rounds, best pass kept, ``time.perf_counter``; inputs built
outside the timed region):

  score_ids, padded int64 / int32   a 2-D array read in place, every core
  score_ids, 1 thread               the same on one worker thread
  score_ids, DLPack                 the array handed over through __dlpack__ only
  score_ids, list of lists          Python lists of ints (converted once per call)
  score_columns, decoded text       rougekit's string path: ids decoded to words
                                    ("w17 w3 ..."), tokenized again, every core
  rouge_n / rouge_l per pair        rougekit's token functions on Python lists
  rouge-score token-list functions  _score_ngrams(_create_ngrams(...)) for n = 1, 2
                                    and _score_lcs, per pair (on --reference-pairs)

The ids are drawn from a Zipf law over a ``--vocab``-id vocabulary (repeated
and rare ids, as text has), each reference a noisy copy of its prediction
(``--overlap`` of its ids kept in place). Before timing, every score_ids
column is checked ``==`` against rouge-score's functions on the first
``--reference-pairs`` pairs, and the decoded-text path against score_ids.
It reports pairs per second, the ratio to rouge-score, and the memory traced
(tracemalloc) while scoring n and 2n pairs: constant per pair, the output's
72 bytes (nine float64 columns), no Python object per pair.

usage (repository root, extension built in place):

    PYTHONPATH=src python benchmarks/bench_ids.py [--n 200000] [--repeat 5]
"""
import argparse
import os
import sys
import time
import tracemalloc

import numpy as np

TYPES = ("rouge1", "rouge2", "rougeL")


def make_ids(n, pred_len, ref_len, vocab, overlap, seed):
    rng = np.random.default_rng(seed)
    preds = (rng.zipf(1.3, (n, pred_len)) - 1) % vocab
    refs = (rng.zipf(1.3, (n, ref_len)) - 1) % vocab
    width = min(pred_len, ref_len)
    keep = rng.random((n, width)) < overlap
    refs[:, :width][keep] = preds[:, :width][keep]
    return preds.astype(np.int64), refs.astype(np.int64)


class DLPackOnly:
    """A tensor that exports its memory through DLPack only."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=200_000, help="pairs")
    ap.add_argument("--pred-len", type=int, default=128)
    ap.add_argument("--ref-len", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=32_000)
    ap.add_argument("--overlap", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--reference-pairs", type=int, default=2000,
                    help="pairs for rouge-score, the per-pair functions and the checks")
    args = ap.parse_args()

    from rouge_score import rouge_scorer as ref

    import rougekit
    from rougekit import token_metrics as tm

    n, sub = args.n, min(args.reference_pairs, args.n)
    preds, refs = make_ids(n, args.pred_len, args.ref_len, args.vocab, args.overlap, args.seed)
    preds32, refs32 = preds.astype(np.int32), refs.astype(np.int32)
    pred_lists, ref_lists = preds.tolist(), refs.tolist()
    sub_p, sub_r = pred_lists[:sub], ref_lists[:sub]
    text_p = [" ".join(f"w{v}" for v in row) for row in pred_lists]
    text_r = [" ".join(f"w{v}" for v in row) for row in ref_lists]
    scorer = rougekit.rouge_scorer.RougeScorer(list(TYPES))
    threads = args.threads

    def ids(p, r, t=threads):
        return lambda: rougekit.score_ids(p, r, TYPES, threads=t)

    def rouge_score_lists():
        for p, r in zip(sub_p, sub_r):
            ref._score_ngrams(ref._create_ngrams(r, 1), ref._create_ngrams(p, 1))
            ref._score_ngrams(ref._create_ngrams(r, 2), ref._create_ngrams(p, 2))
            ref._score_lcs(r, p)

    def kit_lists():
        for p, r in zip(sub_p, sub_r):
            tm.rouge_n(p, r, 1)
            tm.rouge_n(p, r, 2)
            tm.rouge_l(p, r)

    # Exactness first: a benchmark of wrong numbers is worthless.
    got = rougekit.score_ids(preds, refs, TYPES)
    for i in range(sub):
        p, r = pred_lists[i], ref_lists[i]
        expected = [*ref._score_ngrams(ref._create_ngrams(r, 1), ref._create_ngrams(p, 1)),
                    *ref._score_ngrams(ref._create_ngrams(r, 2), ref._create_ngrams(p, 2)),
                    *ref._score_lcs(r, p)]
        assert [got[f"{t}_{m}"][i] for t in TYPES
                for m in ("precision", "recall", "fmeasure")] == expected, i
    text = scorer.score_columns(text_r[:sub], text_p[:sub])
    for key, column in text.items():
        assert column.tolist() == got[key][:sub].tolist(), key
    for make in (lambda: (preds32, refs32), lambda: (DLPackOnly(preds), DLPackOnly(refs)),
                 lambda: (pred_lists[:sub], ref_lists[:sub])):
        p, r = make()
        again = rougekit.score_ids(p, r, TYPES)
        assert all(again[k].tolist() == got[k][:len(again[k])].tolist() for k in got)
    print("checked: score_ids == rouge-score's token-list functions on "
          f"{sub} pairs, and == the string path and every input form", file=sys.stderr)

    rows = [  # (label, pass, pairs)
        (f"score_ids, padded int64, {threads} threads", ids(preds, refs), n),
        (f"score_ids, padded int32, {threads} threads", ids(preds32, refs32), n),
        ("score_ids, padded int64, 1 thread", ids(preds, refs, 1), n),
        (f"score_ids, DLPack int64, {threads} threads", ids(DLPackOnly(preds),
                                                           DLPackOnly(refs)), n),
        (f"score_ids, list of lists, {threads} threads", ids(pred_lists, ref_lists), n),
        (f"score_columns on decoded text, {threads} threads",
         lambda: scorer.score_columns(text_r, text_p, threads=threads), n),
        ("rougekit rouge_n x2 + rouge_l per pair (lists)", kit_lists, sub),
        ("rouge-score _score_ngrams(_create_ngrams) x2 + _score_lcs", rouge_score_lists, sub),
    ]
    best = {label: float("inf") for label, *_ in rows}
    for _, func, _ in rows:
        func()                                       # warm-up: the pool, caches
    for _ in range(args.repeat):
        for label, func, pairs in rows:
            start = time.perf_counter()
            func()
            best[label] = min(best[label], (time.perf_counter() - start) / pairs)

    peaks = []
    for m in (n // 2, n):
        tracemalloc.start()
        rougekit.score_ids(preds[:m], refs[:m], TYPES, threads=threads)
        peaks.append((m, tracemalloc.get_traced_memory()[1]))
        tracemalloc.stop()

    base = best[rows[-1][0]]
    print(f"rougekit {rougekit.__version__} ({rougekit.BACKEND}), {n:,} pairs of "
          f"{args.pred_len} vs {args.ref_len} ids (vocabulary {args.vocab:,}, Zipf, "
          f"overlap {args.overlap}), {', '.join(TYPES)}; {os.cpu_count()} cores; best of "
          f"{args.repeat} interleaved rounds; per-pair rows on the first {sub} pairs\n")
    print("| what | pairs/s | vs rouge-score |")
    print("|---|---:|---:|")
    for label, _, _ in rows:
        print(f"| {label} | {1 / best[label]:,.0f} | {base / best[label]:,.1f}x |")
    print("\nmemory traced while scoring (tracemalloc peak): " + "; ".join(
        f"{m:,} pairs: {peak / 2**20:.1f} MiB ({peak / m:.0f} bytes per pair)"
        for m, peak in peaks))
    print(f"\ncommand: PYTHONPATH=src python benchmarks/bench_ids.py {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
