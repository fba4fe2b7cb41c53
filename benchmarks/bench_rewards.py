#!/usr/bin/env python3
"""ROUGE rewards per second, in each trainer's convention, beside the reward users write today.

The reward most GRPO scripts carry is a rouge-score loop::

    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)

    def reward(completions, summary, **kwargs):
        return [scorer.score(ref, c)["rougeL"].fmeasure
                for c, ref in zip(completions, summary)]

This script times it beside rougekit's rewards on the same completions, in
one run (interleaved rounds, best pass kept, ``time.perf_counter``), for
batches of TRL's sizes (``--batches``: the completions of one generation
step, e.g. 8 prompts x 8 generations = 64):

  rouge_reward (TRL), all cores      one call per batch, the pairs on every core
  rouge_reward (TRL), 1 thread       the same on one worker thread
  rouge_reward, asynchronous=True    one call per batch awaited on an event loop
                                     (as TRL's daemon loop does)
  verl compute_score, per response   one call per completion (verl's reward loop)
  OpenRLHF reward_func, per query    one call per completion, as OpenRLHF makes
                                     them (a float32 tensor each; needs torch)

The completions and references are ``make_pairs.py``'s news and short
pairs (the whole-article "long" profile left out: a completion is at most a
few hundred tokens), rougeL F with the Porter stemmer (``--types``,
``--no-stemmer`` change it). Before timing, every reward is checked ``==``
against the rouge-score loop on the first ``--reference-pairs``
completions (OpenRLHF's in float32). rouge-score is timed on those; rougekit
on all ``--n``.

usage (repository root, extension built in place):

    PYTHONPATH=src python benchmarks/bench_rewards.py [--n 4096] [--repeat 5]
"""
import argparse
import asyncio
import json
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_pairs(shared, n, seed):
    """n (completion, references) pairs of make_pairs.py's news and short profiles."""
    script = os.path.join(shared, "corpus", "make_pairs.py")
    if not os.path.exists(script):
        sys.exit(f"bench_rewards: no pair generator at {script}; pass --shared DIR or set "
                 "ROUGEKIT_SHARED")
    out = subprocess.run([sys.executable, script, "--n", str(2 * n), "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    pairs = [(r["candidate"], r["references"]) for r in rows if r["profile"] != "long"][:n]
    if len(pairs) != n:
        sys.exit(f"bench_rewards: {script} gave {len(pairs)} short and news pairs, not {n}")
    return pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=4096, help="completions scored per pass")
    ap.add_argument("--batches", default="8,64,512",
                    help="completions per reward call for the TRL rows (comma-separated)")
    ap.add_argument("--type", default="rougeL", help="the reward's rouge type")
    ap.add_argument("--no-stemmer", action="store_true", help="without the Porter stemmer")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--reference-pairs", type=int, default=1024,
                    help="completions for the rouge-score loop and the checks")
    ap.add_argument("--shared", default=os.environ.get("ROUGEKIT_SHARED")
                    or os.path.join(REPO, "..", "shared"))
    args = ap.parse_args()

    from rouge_score import rouge_scorer

    import rougekit
    from rougekit.rewards import openrlhf, rouge_reward, verl
    try:
        import torch
    except ImportError:
        torch = None

    stem = not args.no_stemmer
    rouge_type = args.type
    pairs = load_pairs(os.path.abspath(args.shared), args.n, args.seed)
    completions = [c for c, _ in pairs]
    summaries = [r for _, r in pairs]
    sub = min(args.reference_pairs, args.n)
    batches = [int(b) for b in args.batches.split(",")]
    scorer = rouge_scorer.RougeScorer([rouge_type], use_stemmer=stem)

    def hand_written(completions, summary, **kwargs):
        return [scorer.score_multi(ref, c)[rouge_type].fmeasure
                for c, ref in zip(completions, summary)]

    sync = rouge_reward(rouge_type, reference_column="summary", use_stemmer=stem)
    single = rouge_reward(rouge_type, reference_column="summary", use_stemmer=stem, threads=1)
    async_ = rouge_reward(rouge_type, reference_column="summary", use_stemmer=stem,
                          asynchronous=True)
    compute_score = verl.make_compute_score(rouge_type, use_stemmer=stem)
    reward_func = openrlhf.make_reward_func(rouge_type, use_stemmer=stem, special_tokens=())
    prompts = ["Summarize: " for _ in completions]
    queries = [p + c for p, c in zip(prompts, completions)]
    loop = asyncio.new_event_loop()

    # Exactness first: a benchmark of wrong numbers is worthless.
    want = hand_written(completions[:sub], summaries[:sub])
    assert sync(completions=completions[:sub], summary=summaries[:sub]) == want
    assert single(completions=completions[:sub], summary=summaries[:sub]) == want
    assert loop.run_until_complete(
        async_(completions=completions[:sub], summary=summaries[:sub])) == want
    assert [compute_score("bench", c, r) for c, r in zip(completions[:sub],
                                                         summaries[:sub])] == want
    if torch is not None:
        assert [reward_func([q], [p], [r])["rewards"].item() for q, p, r in
                zip(queries[:sub], prompts[:sub], summaries[:sub])] == \
            torch.tensor(want, dtype=torch.float32).tolist()
    print(f"checked: every reward == the rouge-score loop on {sub} completions",
          file=sys.stderr)

    def in_batches(reward, size, n=args.n):
        def run():
            for lo in range(0, n, size):
                reward(completions=completions[lo:lo + size], summary=summaries[lo:lo + size])
        return run

    def async_batches(size):
        async def all_batches():
            for lo in range(0, args.n, size):
                await async_(completions=completions[lo:lo + size],
                             summary=summaries[lo:lo + size])
        return lambda: loop.run_until_complete(all_batches())

    def per_response():
        for c, r in zip(completions, summaries):
            compute_score("bench", c, r, {})

    def per_query():
        for q, p, r in zip(queries, prompts, summaries):
            reward_func([q], [p], [r])

    # (label, completions per call, pass, completions): the rouge-score loop's
    # rate does not depend on the batch (one pair at a time)
    rows = [("hand-written rouge-score loop", "any", in_batches(hand_written, sub, sub), sub)]
    for size in batches:
        rows.append(("rouge_reward (TRL), all cores", size, in_batches(sync, size), args.n))
        rows.append(("rouge_reward (TRL), 1 thread", size, in_batches(single, size), args.n))
        rows.append(("rouge_reward, asynchronous=True", size, async_batches(size), args.n))
    rows.append(("verl compute_score, per response", 1, per_response, args.n))
    if torch is not None:
        rows.append(("OpenRLHF reward_func, per query", 1, per_query, args.n))

    best = {(label, size): float("inf") for label, size, *_ in rows}
    for _, _, func, _ in rows:
        func()                                       # warm-up: the pool, caches
    for _ in range(args.repeat):
        for label, size, func, count in rows:
            start = time.perf_counter()
            func()
            best[label, size] = min(best[label, size], (time.perf_counter() - start) / count)
    loop.close()

    words = sum(len(c.split()) for c in completions) / len(completions)
    print(f"rougekit {rougekit.__version__} ({rougekit.BACKEND}), {args.n:,} completions "
          f"(make_pairs.py news and short, {words:.0f} words on average), {rouge_type} F"
          f"{', Porter stemmer' if stem else ''}; {os.cpu_count()} cores; best of "
          f"{args.repeat} interleaved rounds; the rouge-score loop on the first {sub}\n")
    print("| reward | completions per call | rewards/s | vs the rouge-score loop |")
    print("|---|---:|---:|---:|")
    base = best["hand-written rouge-score loop", "any"]
    for label, size, _, _ in rows:
        print(f"| {label} | {size} | {1 / best[label, size]:,.0f} | "
              f"{base / best[label, size]:,.1f}x |")
    if torch is None:
        print("\n(OpenRLHF's row needs torch: not installed)")
    print(f"\ncommand: PYTHONPATH=src python benchmarks/bench_rewards.py {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
