"""The ``rougekit`` command line (also ``python -m rougekit``).

``rougekit score --candidates FILE --references FILE`` scores one text per
line against the same line of the references (``--references`` may be given
several times); ``rougekit score --jsonl FILE`` reads one
``{"candidate": ..., "references": [...]}`` per line. With several references,
``--multi-ref`` chooses how they combine (default: per item and rouge type,
the reference with the best F, as rouge-score's ``score_multi``). It prints
the corpus-level precision, recall and F of each rouge type (the mean over
items of the per-item scores, ``rougekit.score_corpus``) and the signature of
the options that produced them.

User errors (a missing file, unequal line counts, a file that is not UTF-8,
malformed JSONL, an unknown rouge type, empty input) print one line on
stderr and exit 2.
"""
import argparse
import json
import sys

from rougekit import __version__
from rougekit.corpus import MULTI_REF_POLICIES, score_corpus
from rougekit.rouge_scorer import RougeScorer
from rougekit.word_tokenizers import TOKENIZER_NAMES

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


def load_files(args):
    candidates = read_lines(args.candidates)
    references = [read_lines(p) for p in args.references]
    if not candidates:
        raise UserError(f"{args.candidates} has no lines")
    for path, refs in zip(args.references, references):
        if len(refs) != len(candidates):
            raise UserError(f"{args.candidates} has {len(candidates)} lines but "
                            f"{path} has {len(refs)}")
    return candidates, [list(r) for r in zip(*references)]


def load_jsonl(path):
    """Items of seed 003's format: {"candidate": str, "references": [str, ...]}
    (a single str is accepted for "references")."""
    candidates, references = [], []
    for number, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as e:
            raise UserError(f"{where}: not valid JSON ({e.msg})") from None
        if not isinstance(item, dict):
            raise UserError(f"{where}: expected a JSON object, got {type(item).__name__}")
        for field in ("candidate", "references"):
            if field not in item:
                raise UserError(f'{where}: missing field "{field}"')
        cand, refs = item["candidate"], item["references"]
        if isinstance(refs, str):
            refs = [refs]
        if not isinstance(cand, str):
            raise UserError(f'{where}: "candidate" must be a string')
        if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
            raise UserError(f'{where}: "references" must be a string or a non-empty '
                            "list of strings")
        candidates.append(cand)
        references.append(refs)
    if not candidates:
        raise UserError(f"{path} has no items")
    return candidates, references


def render_table(result, types):
    lines = [f"{'':<10} {'P':>7} {'R':>7} {'F':>7}"]
    for t in types:
        s = result.scores[t]
        lines.append(f"{t:<10} {s.precision:7.4f} {s.recall:7.4f} {s.fmeasure:7.4f}")
    lines.append(f"{result.n_items} items · {result.signature}")
    return "\n".join(lines)


def cmd_score(args):
    types = parse_types(args.rouge_types)
    if (args.jsonl is None) == (args.candidates is None):
        raise UserError("give either --jsonl FILE or --candidates FILE --references FILE")
    if args.jsonl is not None:
        if args.references:
            raise UserError("--references goes with --candidates, not --jsonl")
        candidates, references = load_jsonl(args.jsonl)
    else:
        if not args.references:
            raise UserError("--candidates needs at least one --references FILE")
        candidates, references = load_files(args)
    try:
        result = score_corpus(candidates, references, types, tokenizer=args.tokenizer,
                              use_stemmer=args.stemmer, multi_ref=args.multi_ref,
                              threads=args.jobs)
    except (TypeError, ValueError) as e:
        raise UserError(str(e)) from None
    if args.format == "json":
        print(json.dumps({
            "n_items": result.n_items,
            "signature": result.signature,
            "scores": {t: result.scores[t]._asdict() for t in types},
        }, indent=2))
    else:
        print(render_table(result, types))
    return 0


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def build_parser():
    parser = argparse.ArgumentParser(
        prog="rougekit", description="ROUGE scores, exactly as rouge-score computes them.")
    parser.add_argument("--version", action="version", version=f"rougekit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score candidates against references")
    score.add_argument("--candidates", metavar="FILE",
                       help="one candidate text per line (UTF-8)")
    score.add_argument("--references", action="append", metavar="FILE",
                       help="one reference per line; repeat for more references")
    score.add_argument("--jsonl", metavar="FILE",
                       help='one {"candidate": ..., "references": [...]} per line')
    score.add_argument("--rouge-types", default=DEFAULT_TYPES, metavar="LIST",
                       help=f"comma-separated rouge types (default {DEFAULT_TYPES})")
    score.add_argument("--stemmer", action="store_true",
                       help="Porter-stem words longer than 3 characters")
    score.add_argument("--tokenizer", default="rouge-score", choices=TOKENIZER_NAMES,
                       help="rouge-score (default; ASCII letters and digits), whitespace, "
                            "whitespace-lower, unicode, char")
    score.add_argument("--multi-ref", default="max", choices=MULTI_REF_POLICIES,
                       help="how an item's references combine (default max, as "
                            "rouge-score's score_multi)")
    score.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                       help="threads (default: all cores)")
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
