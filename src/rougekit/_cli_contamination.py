"""``rougekit contamination``: the rows of one file too close to the texts of
another (a training set against a test set), by ROUGE.

    rougekit contamination --texts train.jsonl --against test.jsonl \\
        --threshold 0.7 -o flagged.jsonl [--kept clean.jsonl]

Each text of ``--texts`` is scored against every text of ``--against`` as
``RougeIndex(against).max`` scores it (the text to check as the target, F
as rouge-score computes it, rougeL unless ``--rouge-types`` says otherwise),
and flagged when its largest F is above ``--threshold`` (the rule of
``deduplicate`` and of Self-Instruct's filter: kept when F <= 0.7). Each
flagged row is one JSON object on ``-o`` (stdout without it): its line in
``--texts``, ``max_fmeasure``, ``max_index`` (the position in ``--against``
of the first text that gives it) and that text's line, and both texts;
``--kept FILE`` writes the other lines of ``--texts`` as they were read. A
summary line goes to stderr, and a progress line while it runs on a
terminal.

A file is JSON Lines (one object per line, blank lines skipped; the text in
field ``--field``, default "text", and ``--against-field``, default
``--field``'s) when its name ends in ``.jsonl`` or ``.ndjson`` or its own
field flag is given (``--field`` for ``--texts``, ``--against-field`` for
``--against``); otherwise one text per line. The scoring options are ``RougeIndex``'s
(``--rouge-types`` with one type, ``--stemmer``, ``--tokenizer``,
``--lang``, ``--flavor``, ...). Bad input (a missing file, bytes that are
not UTF-8, a line that is not a JSON object or lacks the field, an empty
``--against``) is one line on stderr and exit status 2.
"""
import argparse
import json
import math
import os
import sys

from rougekit._checks import one_line
from rougekit._cli_options import add_option_flags, flag_given, options_of, positive_int
from rougekit._progress import Progress
from rougekit._readers import InputError, check_characters, json_object, json_type, read_lines
from rougekit._spelling import option
from rougekit.index import RougeIndex, flavor_default_type

__all__ = ["add_contamination_parser", "cmd_contamination"]

DOOR = "rougekit contamination"
JSONL_SUFFIXES = (".jsonl", ".ndjson")


def _threshold(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError("not a number: nan")
    if not 0.0 <= value <= 1.0:     # an F is in [0, 1]: outside, all or nothing is flagged
        raise argparse.ArgumentTypeError(f"{text} is not in [0, 1] (an F measure)")
    return value


def add_contamination_parser(sub):
    """The ``contamination`` subcommand, on ``rougekit``'s subparsers."""
    parser = sub.add_parser(
        "contamination", help="flag the rows of one file too close to another's texts",
        description="Score every text of --texts against every text of --against "
                    "(RougeIndex.max: the largest F, rougeL by default) and write the rows "
                    "whose largest F is above --threshold, one JSON object per line. Files "
                    "named *.jsonl or *.ndjson, or given a field, are JSON Lines; others "
                    "hold one text per line. See docs/guides/contamination.md.")
    parser.add_argument("--texts", required=True, metavar="FILE",
                        help="the texts to check (a training set)")
    parser.add_argument("--against", required=True, metavar="FILE",
                        help="the texts to check them against (a test set)")
    parser.add_argument("--threshold", type=_threshold, default=0.7, metavar="F",
                        help="flag a row whose largest F is above F (default 0.7, "
                             "Self-Instruct's)")
    parser.add_argument("--field", metavar="NAME",
                        help="the JSON Lines field of each text (default text)")
    parser.add_argument("--against-field", metavar="NAME",
                        help="the field of --against's texts (default: --field's)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the flagged rows here (default: stdout)")
    parser.add_argument("--kept", metavar="FILE",
                        help="also write the lines of --texts not flagged, as read")
    add_option_flags(parser, DOOR, rouge_types=("rougeL",), helps={
        "rouge_types": "the one rouge type: rouge1 to rouge9 or rougeL"})
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                        help="threads (default: all cores); no number changes")
    parser.set_defaults(func=cmd_contamination)


def cmd_contamination(args):
    """Run the command; its own input errors are one line and status 2."""
    try:
        return _run(args)
    except InputError as e:
        print(f"rougekit: error: {one_line(str(e))}", file=sys.stderr)
        return 2


def _run(args):
    if args.output is not None and args.kept is not None and \
            os.path.abspath(args.output) == os.path.abspath(args.kept):
        raise InputError(f"-o and --kept name the same file, {args.output}: one would "
                         "overwrite the other")
    try:
        options = options_of(args, DOOR, rouge_types=("rougeL",))
        if not flag_given(args, "rouge_types"):   # rougeL with a flavor too
            options = flavor_default_type(DOOR, options, args.flavor)
        if len(options.rouge_types) != 1 or options.rouge_types[0] == "rougeLsum":
            raise ValueError(f"{DOOR} scores with one rouge type, rougeL or rouge1 to "
                             f"rouge9, not {','.join(options.rouge_types)}: give "
                             f"{option('rouge_types', placeholder='TYPE')}")
        against = _read(args.against, args.against_field, args.field)
        if not against:
            raise InputError(f"--against {args.against} has no texts to compare with")
        texts = _read(args.texts, args.field)
        index = RougeIndex([t for _, t, _ in against], options=options, threads=args.jobs)
    except ValueError as e:          # options refused, a rouge type RougeIndex cannot use
        raise InputError(str(e)) from None
    flagged = 0
    with _writer(args.output) as out, _writer(args.kept, keep_stdout=False) as kept, \
            Progress(len(texts), "contamination", "rows") as bar:
        for k, (line, text, raw) in enumerate(texts):
            position, fmeasure = index.max(text)
            if fmeasure > args.threshold:
                flagged += 1
                match_line, match, _ = against[position]
                out.write(json.dumps({"line": line, "max_fmeasure": fmeasure,
                                      "max_index": position, "against_line": match_line,
                                      "text": text, "against": match},
                                     ensure_ascii=False) + "\n")
            elif kept is not None:
                kept.write(raw + "\n")
            if k % 256 == 0:
                bar.update(k, f", {flagged} flagged")
        bar.update(len(texts), f", {flagged} flagged")
    print(f"rougekit contamination: {flagged} of {len(texts)} rows of {args.texts} have a "
          f"{options.rouge_types[0]} F above {args.threshold:g} against the "
          f"{len(against)} texts of {args.against}", file=sys.stderr)
    return 0


def _read(path, field, default_field=None):
    """[(line number, text, the line as read)] of a file: JSON Lines (the
    string in ``field``, else ``default_field``, else "text") when ``field``
    is given or the name says so, else one text per line (module
    docstring)."""
    lines = read_lines(path)
    if field is None and not path.lower().endswith(JSONL_SUFFIXES):
        return [(number, line, line) for number, line in enumerate(lines, 1)]
    field = field or default_field or "text"
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        item = json_object(line, where)
        if field not in item:
            raise InputError(f'{where}: missing field "{field}" (--field, --against-field '
                             "name another)")
        if not isinstance(item[field], str):
            raise InputError(f'{where}: "{field}" must be a string, not '
                             f"{json_type(item[field])}")
        rows.append((number, check_characters(item[field], where, f'"{field}"'), line))
    return rows


class _writer:
    """A UTF-8 file to write (stdout when ``path`` is None and
    ``keep_stdout``; nothing, None, otherwise)."""

    def __init__(self, path, keep_stdout=True):
        self.path, self.keep_stdout, self.file = path, keep_stdout, None

    def __enter__(self):
        if self.path is None:
            return sys.stdout if self.keep_stdout else None
        try:
            self.file = open(self.path, "w", encoding="utf-8", newline="\n")
        except OSError as e:
            raise InputError(f"cannot write {self.path}: {e.strerror}") from None
        return self.file

    def __exit__(self, *exc):
        if self.file is not None:
            self.file.close()
