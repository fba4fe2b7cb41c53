"""The ``rougekit`` command line (also ``python -m rougekit``).

``rougekit score --candidates FILE --references FILE`` scores one text per
line against the same line of the references (``--references`` may be given
several times: multi-reference scoring keeps, per item and rouge type, the
reference with the best F, as rouge-score's ``score_multi``). It prints the
corpus-level precision, recall and F of each rouge type: the mean over items
of the per-item scores.

User errors (a missing file, unequal line counts, a file that is not UTF-8,
an unknown rouge type, empty input) print one line on stderr and exit 2.
"""
import argparse
import json
import sys

from rougekit import __version__, _backend
from rougekit.rouge_scorer import RougeScorer

DEFAULT_TYPES = "rouge1,rouge2,rougeL,rougeLsum"


class UserError(Exception):
    """A problem with the command's input: reported in one line, exit 2."""


def read_lines(path):
    """The lines of a UTF-8 text file, without line ends ("\\n" or "\\r\\n")."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"{path} is not UTF-8: invalid byte at offset {e.start}") from None
    if text.endswith("\n"):
        text = text[:-1]
    if not text:
        return []
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def parse_types(spec):
    types = [t.strip() for t in spec.split(",") if t.strip()]
    if not types:
        raise UserError("--rouge-types is empty")
    try:
        RougeScorer(types)
    except ValueError as e:
        raise UserError(str(e)) from None
    return types


def load_items(args):
    candidates = read_lines(args.candidates)
    references = [read_lines(p) for p in args.references]
    if not candidates:
        raise UserError(f"{args.candidates} has no lines")
    for path, refs in zip(args.references, references):
        if len(refs) != len(candidates):
            raise UserError(f"{args.candidates} has {len(candidates)} lines but "
                            f"{path} has {len(refs)}")
    return candidates, [list(r) for r in zip(*references)]


def corpus_scores(scorer, types, candidates, references):
    """Mean precision, recall and F per rouge type over the items."""
    sums = {t: [0.0, 0.0, 0.0] for t in types}
    for cand, refs in zip(candidates, references):
        scores = scorer.score_multi(refs, cand) if len(refs) > 1 else \
            scorer.score(refs[0], cand)
        for t in types:
            s = sums[t]
            s[0] += scores[t].precision
            s[1] += scores[t].recall
            s[2] += scores[t].fmeasure
    n = len(candidates)
    return {t: {"precision": p / n, "recall": r / n, "fmeasure": f / n}
            for t, (p, r, f) in sums.items()}


def render_table(result, n_items, args):
    lines = [f"{'':<10} {'P':>7} {'R':>7} {'F':>7}"]
    for t, s in result.items():
        lines.append(f"{t:<10} {s['precision']:7.4f} {s['recall']:7.4f} "
                     f"{s['fmeasure']:7.4f}")
    lines.append(f"{n_items} items · stemming {'on' if args.stemmer else 'off'} · "
                 f"rougekit {__version__} ({_backend.NAME})")
    return "\n".join(lines)


def cmd_score(args):
    types = parse_types(args.rouge_types)
    candidates, references = load_items(args)
    scorer = RougeScorer(types, use_stemmer=args.stemmer)
    result = corpus_scores(scorer, types, candidates, references)
    if args.format == "json":
        print(json.dumps({"n_items": len(candidates), "scores": result}, indent=2))
    else:
        print(render_table(result, len(candidates), args))
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="rougekit", description="ROUGE scores, exactly as rouge-score computes them.")
    parser.add_argument("--version", action="version", version=f"rougekit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score candidates against references")
    score.add_argument("--candidates", required=True, metavar="FILE",
                       help="one candidate text per line (UTF-8)")
    score.add_argument("--references", required=True, action="append", metavar="FILE",
                       help="one reference per line; repeat for more references")
    score.add_argument("--rouge-types", default=DEFAULT_TYPES, metavar="LIST",
                       help=f"comma-separated rouge types (default {DEFAULT_TYPES})")
    score.add_argument("--stemmer", action="store_true",
                       help="Porter-stem words longer than 3 characters")
    score.add_argument("--format", choices=["table", "json"], default="table")
    score.set_defaults(func=cmd_score)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UserError as e:
        print(f"rougekit: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rougekit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as cat does.
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
