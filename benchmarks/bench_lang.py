#!/usr/bin/env python3
"""lang= beside XL-Sum's scorer (multilingual-rouge), with an exactness check.

For each language, builds pairs from a sample text of the language (its words
shuffled, with punctuation and newlines; ``--pairs`` pairs, ``--seed``), scores
them with ``rougekit.rouge_scorer.RougeScorer(types, use_stemmer, lang=...)``
and with multilingual-rouge's ``RougeScorer`` (same options), checks that
every Score is equal (``==``; exit 1 otherwise), and prints pairs per second
of each, best of ``--repeat`` interleaved passes, and their ratio. Languages
whose libraries are missing are skipped (named on stderr). Snowball stemming
needs NLTK's stopwords; without them ``--stem`` leaves those languages out.

usage (repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_lang.py [--pairs 300] [--repeat 3]
        [--stem] [--langs hindi,chinese,...]
"""
import argparse
import os
import random
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stem", action="store_true")
    parser.add_argument("--langs", default="hindi,bengali,russian,chinese,japanese,thai,"
                                           "burmese,turkish,korean")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    import io

    from multilingual_rouge import rouge_scorer as mr

    from rougekit import rouge_scorer
    from test_lang import RULES, _shuffled_texts
    print(f"| language | pairs | rougekit pairs/s | multilingual-rouge pairs/s | ratio |"
          f"  (stemming {'on' if args.stem else 'off'}, {','.join(TYPES)})")
    print("|---|---:|---:|---:|---:|")
    failed = False
    for lang in args.langs.split(","):
        try:
            extra = {}
            if lang == "bengali" and args.stem:
                from multilingual_rouge.bengali_stemmer import RafiStemmer
                with open(RULES, encoding="utf-8") as f:
                    extra["callable_stemmer"] = RafiStemmer(io.StringIO(f.read())).stem_word
            ref = mr.RougeScorer(TYPES, use_stemmer=args.stem, lang=lang, **extra)
            ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=args.stem, lang=lang)
        except (ImportError, LookupError) as e:
            print(f"bench_lang: {lang} skipped: {str(e).splitlines()[0]}", file=sys.stderr)
            continue
        texts = _shuffled_texts(lang, 2 * args.pairs, args.seed)
        pairs = list(zip(texts[::2], texts[1::2]))
        random.Random(args.seed).shuffle(pairs)
        for t, p in pairs:                      # warm-up and exactness
            a, b = ours.score(t, p), ref.score(t, p)
            if any(tuple(a[k]) != tuple(b[k]) for k in TYPES):
                print(f"bench_lang: {lang}: differs on {t!r} / {p!r}", file=sys.stderr)
                failed = True
                break
        best = {"ours": float("inf"), "ref": float("inf")}
        for _ in range(args.repeat):
            for name, scorer in (("ours", ours), ("ref", ref)):
                start = time.perf_counter()
                for t, p in pairs:
                    scorer.score(t, p)
                best[name] = min(best[name], time.perf_counter() - start)
        n = len(pairs)
        print(f"| {lang} | {n} | {n / best['ours']:,.0f} | {n / best['ref']:,.0f} | "
              f"{best['ref'] / best['ours']:.1f}x |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
