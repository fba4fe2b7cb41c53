"""The ``rougekit`` command line (also ``python -m rougekit``).

``rougekit score --candidates FILE --references FILE`` scores one text per
line against the same line of the references (``--references`` may be given
several times); ``rougekit score --jsonl FILE`` reads one
``{"candidate": ..., "references": [...]}`` per line. With several references,
``--multi-ref`` chooses how they combine (default: per item and rouge type,
the reference with the best F, as rouge-score's ``score_multi``). It prints
the corpus-level precision, recall and F of each rouge type (the mean over
items of the per-item scores, ``rougekit.score_corpus``), with
``--bootstrap N`` their confidence intervals, and the signature of the
options that produced them; ``--per-item FILE`` writes each item's scores.

``rougekit rouge155 [options] CONFIG [SYSTEM_ID]`` is ROUGE-1.5.5.pl without
Perl: the script's options, configuration and output (``rougekit.rouge155.cli``).

``rougekit compare --candidates-a FILE --candidates-b FILE --references FILE``
(or ``rougekit compare --jsonl FILE`` with one
``{"candidate_a": ..., "candidate_b": ..., "references": [...]}`` per line)
scores two systems against the same references and tests, per rouge type,
whether their difference B - A is significant: paired bootstrap resampling
and approximate randomization (``rougekit.significance``).

``rougekit report --jsonl FILE [--compare OTHER.jsonl] -o report.html``
writes one self-contained HTML file: the corpus scores with their intervals
and signature, the per-item F histograms and a sortable, searchable table of
the items whose rows open to the texts with the matches highlighted; with
``--compare`` (system B, the same references) the tests of ``compare``, the
per-item differences and a scatter plot (``rougekit.report``; needs
``pip install rougekit[report]``; docs/guides/report.md).

``rougekit explain --target TEXT --prediction TEXT`` shows what one pair
matched, per rouge type: both texts with the matched tokens marked (in colour
on a terminal, unless ``NO_COLOR`` is set; in [brackets] otherwise), the
counts and P/R/F; ``--format json`` gives ``Explanations.to_dict()`` and the
signature (``rougekit.explanation``; docs/guides/explain.md).

``rougekit compat rouge [-f] [-a] [--ignore_empty] [--metrics M ...] [--stats S ...]
HYPOTHESIS REFERENCE`` is the ``rouge`` command of pltrdy's ``rouge`` 1.0.1:
its flags and its JSON output, from :mod:`rougekit.compat.rouge`
(``rougekit compat rouge_chinese`` is rouge-chinese 1.0.3's ``rouge_chinese``).

``--lang LANG`` scores with XL-Sum's multilingual tokenization (and with
``--stemmer`` the language's stemmer); ``--sentence-split`` chooses rougeLsum's
sentences (newline, nltk, sentencex). rougekit's warnings (a tokenizer that
drops most letters, rougeLsum given one-line multi-sentence text) are printed
once each, as one line on stderr.

A progress line is drawn on stderr when it is a terminal. User errors (a
missing file, unequal line counts, a file that is not UTF-8, malformed JSONL,
an unknown rouge type, empty input, a bad option value, a missing extra) print
one line on stderr naming the file and line or the flag, and exit 2; the
files and text arguments are read by ``rougekit._readers``, and what needs no
input (options, extras, output files) is checked before any is read; Ctrl-C
prints one line and exits 130. A closed or broken stdout ends the command
quietly: 141 when the reader went away (``| head``), 1 when stdout was closed
(``rougekit._streams``).
"""
import argparse
import contextlib
import csv
import dataclasses
import importlib
import io
import json
import os
import re
import sys
import warnings

import numpy as np

from rougekit._bootstrap import corpus_intervals
from rougekit._checks import one_line
from rougekit._cli_contamination import add_contamination_parser
from rougekit._cli_options import (
    add_option_flags,
    options_of,
    positive_int,
    seed_value,
    unit_interval,
)
from rougekit._options import DEFAULT_SEED
from rougekit._pipeline import check_texts, corpus_scores, item_columns, kept_items, pair_scorer
from rougekit._progress import Progress
from rougekit._readers import (
    COMPARE_FIELDS,
    JSONL_FIELDS,
    InputError,
    read_jsonl,
    read_parallel,
    read_text,
    text_argument,
)
from rougekit._spelling import command_line
from rougekit._streams import guard_streams
from rougekit._version import __version__
from rougekit._warn import RougekitWarning, SentenceSplitWarning
from rougekit.corpus import CorpusResult
from rougekit.explanation import explain_pair
from rougekit.flavors import flavor_fields
from rougekit.lang import LANGUAGES
from rougekit.significance import compare_systems

MEASURES = ("precision", "recall", "fmeasure")
# Items per scoring call: small enough that the progress line moves and
# Ctrl-C is noticed between calls, large enough that threads stay busy.
CHUNK = 2000


class UserError(Exception):
    """A problem with the command's input: reported in one line, exit 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage is in --help)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


# --- reading input (rougekit._readers) and claiming outputs ------------------------

def load_files(args):
    texts = read_parallel([("--candidates", args.candidates)]
                          + [("--references", p) for p in args.references])
    return texts[0], [list(r) for r in zip(*texts[1:])]


def load_jsonl(path):
    """Items as JSON lines: {"candidate": str, "references": [str, ...]}
    (a single str is accepted for "references")."""
    (candidates,), references = read_jsonl(path, JSONL_FIELDS)
    return candidates, references


@contextlib.contextmanager
def claimed_output(path):
    """Checks, before the command's work, that ``path`` can be written: opens
    it to append (created if missing, never truncated), so a missing folder
    or a read-only file is said at once, not after the scoring. If the
    command then fails, the empty file it created is removed."""
    if path is None:
        yield
        return
    existed = os.path.lexists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None
    done = False
    try:
        yield
        done = True
    finally:
        if not done and not existed:
            with contextlib.suppress(OSError):
                os.remove(path)


def shown(path):
    """A path given on the command line, as text for a page: its bytes that
    are not UTF-8 shown as U+FFFD (the page is UTF-8)."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:
        raw = path.encode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


# --- scoring in chunks, with a progress line -----------------------------------

def scoring_options(args, door, **defaults):
    """The ``ScoringOptions`` of the command's flags, resolved as every door
    resolves its keywords, with the optional libraries they need loaded: a
    missing extra (or nltk's missing sentence model) is said before any
    input is read. A UserError names what is wrong."""
    try:
        options = options_of(args, door, **defaults)
        ready(options)
    except (TypeError, ValueError, ImportError, LookupError) as e:
        raise UserError(str(e)) from None
    return options


def ready(options):
    """Loads what ``options`` will use and load only when scoring: the
    libraries the signature names (sentencex's version) and rougeLsum's
    sentence splitter (nltk and its punkt model). Their errors name the
    extra to install."""
    options.signature()
    if "rougeLsum" in options.rouge_types:
        pair_scorer(options).sentence_texts("Ready. Set.", "text")


def score_items(candidates, references, options, args, progress, done=0):
    """score_corpus's per-item scores as columns, shape (3 * types, items),
    CHUNK items per call. Each item's score depends on that item alone, so
    they equal one call's."""
    parts = []
    for start in range(0, len(candidates), CHUNK):
        try:
            texts = check_texts(candidates[start:start + CHUNK],
                                references[start:start + CHUNK])
            parts.append(item_columns(options, *texts, threads=args.jobs))
        except (TypeError, ValueError, ImportError, LookupError) as e:
            raise UserError(str(e)) from None
        progress.update(done + min(start + CHUNK, len(candidates)))
    return np.concatenate(parts, axis=1)


# --- rougekit score ---------------------------------------------------------------

def fmt_interval(low, high):
    return f"[{low:.4f}, {high:.4f}]"


def render_table(scores, intervals, n_items, signature, confidence):
    if intervals is None:
        lines = [f"{'':<10} {'P':>7} {'R':>7} {'F':>7}"]
        for t, s in scores.items():
            lines.append(f"{t:<10} {s.precision:7.4f} {s.recall:7.4f} {s.fmeasure:7.4f}")
    else:
        head = f"{100 * confidence:g}% CI"
        lines = [f"{'':<10} " + " ".join(f"{m:>7} {head:>18}" for m in ("P", "R", "F"))]
        for t, s in scores.items():
            iv = intervals[t]
            cells = [f"{getattr(s, m):7.4f} "
                     f"{fmt_interval(getattr(iv.low, m), getattr(iv.high, m)):>18}"
                     for m in MEASURES]
            lines.append(f"{t:<10} " + " ".join(cells))
    lines.append(f"{n_items} items · {signature}")
    return "\n".join(lines)


def render_csv(scores, intervals, n_items, signature):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["rouge_type", *MEASURES]
    if intervals is not None:
        header += [f"{m}_{end}" for m in MEASURES for end in ("low", "high")]
    writer.writerow(header + ["n_items", "signature"])
    for t, s in scores.items():
        row = [t, *(repr(x) for x in s)]
        if intervals is not None:
            iv = intervals[t]
            row += [repr(getattr(bound, m)) for m in MEASURES for bound in (iv.low, iv.high)]
        writer.writerow(row + [n_items, signature])
    return out.getvalue().rstrip("\n")


def write_per_item(path, columns, types):
    """One JSON object per line and item, in input order:
    {"rouge1": {"precision": P, "recall": R, "fmeasure": F}, ...}."""
    rows = columns.T.tolist()
    try:
        with open(path, "w", encoding="utf-8") as f, \
                Progress(len(rows), "writing") as progress:
            for i, row in enumerate(rows):
                f.write(json.dumps({t: dict(zip(MEASURES, row[3 * k:3 * k + 3]))
                                    for k, t in enumerate(types)}) + "\n")
                if i % 1000 == 0:
                    progress.update(i)
            progress.update(len(rows))
    except BrokenPipeError:
        raise                   # a pipe's reader went away: guard_streams ends quietly
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror}") from None


def cmd_score(args):
    if (args.jsonl is None) == (args.candidates is None):
        raise UserError("give either --jsonl FILE or --candidates FILE --references FILE")
    if args.jsonl is not None and args.references:
        raise UserError("--references goes with --candidates, not --jsonl")
    if args.jsonl is None and not args.references:
        raise UserError("--candidates needs at least one --references FILE")
    options = scoring_options(args, "rougekit score")
    signature = options.signature()
    types = options.names
    with claimed_output(args.per_item):
        if args.jsonl is not None:
            candidates, references = load_jsonl(args.jsonl)
        else:
            candidates, references = load_files(args)
        try:
            candidates, references = kept_items(options, candidates, references)
        except ValueError as e:
            raise UserError(str(e)) from None

        with Progress(len(candidates)) as progress:
            columns = score_items(candidates, references, options, args, progress)
        n_items = columns.shape[1]
        scores, intervals, _ = corpus_scores(dataclasses.replace(options, bootstrap=0) if
                                             options.aggregation == "mean" else options,
                                             columns)
        if options.aggregation == "mean" and options.bootstrap:
            # The draws of score_corpus(..., bootstrap=N, seed=S), with a progress line.
            with Progress(options.bootstrap, "bootstrap", "resamples") as progress:
                intervals = corpus_intervals(columns, scores, options.bootstrap,
                                             options.confidence, options.seed,
                                             progress.update)
        if args.per_item:
            write_per_item(args.per_item, columns, types)

    if args.format == "json":
        out = {"n_items": n_items, "signature": signature,
               "scores": {t: {m: float(v) for m, v in scores[t]._asdict().items()}
                          for t in types}}
        if intervals is not None:
            out["confidence"] = options.confidence
            out["intervals"] = {t: {"low": {m: float(v) for m, v in iv.low._asdict().items()},
                                    "high": {m: float(v)
                                             for m, v in iv.high._asdict().items()}}
                                for t, iv in intervals.items()}
        print(json.dumps(out, indent=2))
    elif args.format == "csv":
        print(render_csv(scores, intervals, n_items, signature))
    else:
        print(render_table(scores, intervals, n_items, signature, options.confidence))
    return 0


# --- rougekit audit ---------------------------------------------------------------

def cmd_audit(args):
    from rougekit.flavor_audit import audit, audit_json
    if (args.from_flavor is None) != (args.to_flavor is None):
        raise UserError("give --from A and --to B together")
    flavors = [f.strip() for f in args.flavors.split(",") if f.strip()] \
        if args.flavors is not None else None
    if flavors == []:
        raise UserError("--flavors names no flavor")
    # Every name checked before the input is read and scored.
    for flag, names in (("--flavors", flavors or []), ("--from", [args.from_flavor]),
                        ("--to", [args.to_flavor])):
        for name in filter(None, names):
            try:
                flavor_fields(name)
            except (TypeError, ValueError, LookupError) as e:
                raise UserError(f"{flag}: {e}") from None
    given = {name: value for name, value in vars(args).items()
             if name.startswith("option_")}
    candidates, references = load_jsonl(args.jsonl)
    try:
        with warnings.catch_warnings():
            # the flavors that split on lines see texts without newlines
            warnings.simplefilter("ignore", SentenceSplitWarning)
            result = audit(candidates, references, flavors, threads=args.jobs,
                           **{k[len("option_"):]: v for k, v in given.items()})
            paths = [(args.from_flavor, args.to_flavor)] if args.from_flavor else []
            tables = [result.path_table(a, b, args.measure) for a, b in paths]
            if args.format == "json":
                print(audit_json(result, paths))
                return 0
    except (TypeError, ValueError, ImportError, LookupError) as e:
        raise UserError(str(e)) from None
    print(result.table(args.measure))
    for (a, b), table in zip(paths, tables):
        print(f"\nfrom {a} to {b}, one stage at a time ({args.measure}; the change "
              "in parentheses):")
        print(table)
    print(f"\n{len(candidates)} items")
    return 0


# --- rougekit compare -------------------------------------------------------------

def compare_signature(options, args):
    test = (f"test:pbs:{args.bootstrap},ci:{args.confidence},ar:{args.ar_trials},"
            f"seed:{'none' if args.seed is None else args.seed}")
    return options.signature() + "|" + test


def fmt_p(p):
    return f"{p:.4f}"


def cmd_compare(args):
    options = scoring_options(args, "rougekit compare")
    types = options.names
    either = ("give either --jsonl FILE or --candidates-a FILE --candidates-b FILE "
              "--references FILE")
    files = {"--candidates-a": args.candidates_a, "--candidates-b": args.candidates_b,
             "--references": args.references}
    given = [option for option, value in files.items() if value is not None]
    if args.jsonl is not None and given:
        raise UserError(f"{either}, not both ({', '.join(given)} with --jsonl)")
    if args.jsonl is None and not given:
        raise UserError(either)
    if args.jsonl is None and len(given) < len(files):
        missing = [option for option in files if option not in given]
        raise UserError(f"missing {' and '.join(missing)} ({either})")
    signature = compare_signature(options, args)
    if args.jsonl is not None:
        (cands_a, cands_b), references = read_jsonl(args.jsonl, COMPARE_FIELDS)
        label_a, label_b = (f"{args.jsonl}#{field}" for field in COMPARE_FIELDS)
    else:
        texts = read_parallel([("--candidates-a", args.candidates_a),
                               ("--candidates-b", args.candidates_b)]
                              + [("--references", p) for p in args.references])
        cands_a, cands_b = texts[0], texts[1]
        references = [list(r) for r in zip(*texts[2:])]
        label_a, label_b = args.candidates_a, args.candidates_b
    n = len(cands_a)

    with Progress(2 * n) as progress:
        items_a = score_items(cands_a, references, options, args, progress)
        items_b = score_items(cands_b, references, options, args, progress, done=n)
    results = compare_systems(items_a, items_b, types, args.bootstrap, args.confidence,
                              args.ar_trials, args.seed)

    if args.format == "json":
        print(json.dumps({
            "n_items": n, "a": label_a, "b": label_b,
            "signature": signature, "bootstrap": args.bootstrap,
            "confidence": args.confidence, "ar_trials": args.ar_trials, "seed": args.seed,
            "results": results}, indent=2))
    else:
        ci = f"{100 * args.confidence:g}% CI"
        lines = [f"{'F':<10} {'A':>7} {'B':>7} {'B-A':>8} {ci:>20} {'p(boot)':>8} {'p(AR)':>8}"]
        for t in types:
            r = results[t]["fmeasure"]
            interval = f"[{r['ci_low']:+.4f}, {r['ci_high']:+.4f}]"
            lines.append(f"{t:<10} {r['a']:7.4f} {r['b']:7.4f} {r['diff']:+8.4f} "
                         f"{interval:>20} {fmt_p(r['p_bootstrap']):>8} {fmt_p(r['p_ar']):>8}")
        lines.append(f"A: {label_a} · B: {label_b} · {n} items")
        lines.append(f"paired bootstrap: {args.bootstrap} resamples (p = share where "
                     f"B-A does not keep its sign); approximate randomization: "
                     f"{args.ar_trials} trials (p two-sided, +1 smoothed)")
        lines.append(signature)
        print("\n".join(lines))
    return 0


# --- rougekit report ------------------------------------------------------------------

def cmd_report(args):
    from rougekit.report import check_installed, corpus_report
    title = text_argument("--title", args.title)
    # a report shows intervals: 1000 resamples unless told (or a flavor's)
    options = scoring_options(args, "rougekit report", bootstrap=1000)
    try:
        check_installed()        # before any work: a missing extra is said at once
    except ImportError as e:
        raise UserError(str(e)) from None
    with claimed_output(args.output):     # a folder that is not there: before the scoring
        candidates, references = load_jsonl(args.jsonl)
        systems = [candidates]
        if args.compare is not None:
            other, other_refs = load_jsonl(args.compare)
            if len(other) != len(candidates):
                raise UserError(f"{args.jsonl} has {len(candidates)} items but "
                                f"{args.compare} has {len(other)}")
            if other_refs != references:
                k = next(i for i, (x, y) in enumerate(zip(references, other_refs)) if x != y)
                raise UserError(f"{args.jsonl} and {args.compare} have different references "
                                f"(item {k}): a paired comparison needs the same")
            systems.append(other)
        results = []
        with Progress(len(candidates) * len(systems)) as progress:
            for k, system in enumerate(systems):
                columns = score_items(system, references, options, args, progress,
                                      done=k * len(candidates))
                scores, intervals, per_item = corpus_scores(options, columns)
                results.append(CorpusResult(scores=scores, intervals=intervals,
                                            per_item=per_item, n_items=len(per_item),
                                            signature=options.signature()))
        compare = {}
        if len(results) > 1:
            compare = dict(compare=results[1], compare_candidates=systems[1],
                           labels=(shown(args.jsonl), shown(args.compare)),
                           ar_trials=args.ar_trials)
        try:
            page = corpus_report(results[0], candidates, references, options=options,
                                 title=title, bootstrap=options.bootstrap or 1000,
                                 seed=DEFAULT_SEED if not isinstance(options.seed, int)
                                 else options.seed, **compare)
        except (TypeError, ValueError, LookupError) as e:
            raise UserError(str(e)) from None
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(page)
        except OSError as e:
            raise UserError(f"cannot write {args.output}: {e.strerror or e}") from None
    print(f"{args.output}: {len(candidates)} items, {len(page.encode('utf-8')):,} bytes")
    return 0


# --- rougekit explain ----------------------------------------------------------------

# ANSI: matched pieces bold green, the type's name bold.
MATCH_ON, BOLD_ON, STYLE_OFF = "\x1b[1;32m", "\x1b[1m", "\x1b[0m"
# What a terminal would act on rather than show: the C0 controls but line
# feed and tab, DEL, the C1 controls (ESC starts every escape sequence;
# U+009B is CSI by itself on some terminals).
TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
C1_CONTROLS = re.compile("[\x80-\x9f]")


def on_terminal(stream):
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def use_colour(stream):
    """Colour only on a terminal, and never when NO_COLOR is set to anything
    but "" (https://no-color.org)."""
    return on_terminal(stream) and not os.environ.get("NO_COLOR")


def for_terminal(text):
    r"""``text`` with every control character a terminal would act on
    written as an escape, as Python writes it (``\x1b``, ``\r``): the texts
    come from the command line, and an escape sequence in them must not
    reach the terminal (as ``ls`` shows such names with ``?`` there).

    >>> for_terminal("a\x1b[31mred\rb\u009b\tc")
    'a\\x1b[31mred\\rb\\x9b\tc'
    """
    return TERMINAL_CONTROLS.sub(lambda m: repr(m.group())[1:-1], text)


def render_explanation(explanations, signature, colour, escape=False):
    """The text report of ``rougekit explain``: per rouge type its P/R/F
    and counts, then both texts with the matched pieces marked; with
    ``escape``, their control characters escaped (``for_terminal``)."""
    before, after = (MATCH_ON, STYLE_OFF) if colour else ("[", "]")
    shown = for_terminal if escape else str
    lines = []
    for rouge_type, e in explanations.items():
        s = e.score
        name = f"{BOLD_ON}{rouge_type}{STYLE_OFF}" if colour else rouge_type
        lines.append(f"{name}  P {s.precision:.4f}  R {s.recall:.4f}  F {s.fmeasure:.4f}  "
                     f"({e.hits} hits; {e.prediction_count} in prediction, "
                     f"{e.target_count} in target)")
        for side in ("target", "prediction"):
            text = "".join(f"{before}{shown(piece)}{after}" if hit else shown(piece)
                           for piece, hit in e.segments(side))
            lines.append(f"  {side + ':':<12}" + text.replace("\n", "\n" + " " * 14))
        lines.append("")
    lines.append(signature)
    return "\n".join(lines)


def cmd_explain(args):
    target = text_argument("--target", args.target)
    prediction = text_argument("--prediction", args.prediction)
    options = scoring_options(args, "rougekit explain")
    try:
        explanations = explain_pair(pair_scorer(options), target, prediction)
    except (TypeError, ValueError, ImportError, LookupError) as e:
        raise UserError(str(e)) from None
    signature = options.signature(aggregation="none")
    if args.format == "json":
        # The texts as they are (JSON escapes the C0 controls itself); the
        # C1 controls escaped too, which JSON allows: the same strings.
        out = json.dumps({**explanations.to_dict(), "signature": signature}, indent=2,
                         ensure_ascii=False)
        print(C1_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", out))
    else:
        print(render_explanation(explanations, signature, use_colour(sys.stdout),
                                 escape=on_terminal(sys.stdout)))
    return 0


# --- compat: other packages' command lines ----------------------------------------

#: The packages whose command ``rougekit compat NAME`` is.
COMPAT_COMMANDS = {"rouge": "rouge 1.0.1 (pltrdy)", "rouge_chinese": "rouge-chinese 1.0.3"}
# The packages' metric choices: "1" ... "5" and "L" for "rouge-1" ... "rouge-l".
COMPAT_METRICS = {m.split("rouge-")[1].upper(): m
                  for m in ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l"]}


def _line_count(path):
    """The lines of a file as the package counts them (its bytes' "\n"
    lines), the file checked first: readable, UTF-8 (its byte order mark,
    if any, is left to the package, which reads it as text)."""
    text = read_text(path)
    return text.count("\n") + (not text.endswith("\n") and bool(text))


def cmd_compat(args):
    """The package's command: scores as JSON, its flags, its quirks (without
    ``-f``, ``--ignore_empty`` is accepted and unused, as there); what the
    package would fail on with a traceback is one line and exit 2 here."""
    module = importlib.import_module(f"rougekit.compat.{args.package}")
    metrics = None if args.metrics is None else [COMPAT_METRICS[m] for m in args.metrics]
    hyp, ref = args.hypothesis, args.reference
    try:
        if args.file:
            for path in (hyp, ref):
                if not os.path.isfile(path):
                    what = "not a file" if os.path.exists(path) else "no such file"
                    raise UserError(f"{path}: {what} (with -f, HYPOTHESIS and REFERENCE "
                                    "are files)")
            counts = [_line_count(hyp), _line_count(ref)]
            if counts[0] != counts[1]:
                raise UserError(f"{hyp} has {counts[0]} lines but {ref} has {counts[1]}")
            scores = module.FilesRouge(metrics, args.stats).get_scores(
                hyp, ref, avg=args.avg, ignore_empty=args.ignore_empty)
        else:
            hyp, ref = text_argument("HYPOTHESIS", hyp), text_argument("REFERENCE", ref)
            scores = module.Rouge(metrics, args.stats).get_scores(hyp, ref, avg=args.avg)
    except ZeroDivisionError:
        raise UserError(f"{hyp} has no lines: nothing to average") from None
    except InputError:
        raise
    except ValueError as e:
        if args.file and args.ignore_empty and "unpack" in str(e):
            raise UserError("no line pair is left to score: every one has an empty "
                            "hypothesis or reference (--ignore_empty)") from None
        raise UserError(str(e)) from None
    print(json.dumps(scores, indent=2))
    return 0


def add_compat_parser(sub):
    compat = sub.add_parser(
        "compat", help="the command lines of other ROUGE packages: rouge, rouge_chinese",
        description="Other ROUGE packages' commands, with their flags and output, on "
                    "rougekit's drop-ins (rougekit.compat).")
    packages = compat.add_subparsers(dest="package", required=True, metavar="PACKAGE")
    for name, what in COMPAT_COMMANDS.items():
        cmd = packages.add_parser(
            name, help=f"the {name} command of {what}",
            description=f"Rouge Metric Calculator: the {name} command of {what}.")
        cmd.add_argument("-f", "--file", help="File mode", action="store_true")
        cmd.add_argument("-a", "--avg", help="Average mode", action="store_true")
        cmd.add_argument("--ignore_empty", action="store_true",
                         help="Ignore empty hypothesis (file mode only, as in the package)")
        cmd.add_argument("hypothesis", type=str, help="Text or file path")
        cmd.add_argument("reference", type=str, help="Text or file path")
        cmd.add_argument("--metrics", nargs="+", type=str.upper, choices=list(COMPAT_METRICS),
                         help="Metrics to use (default=1 2 L)")
        cmd.add_argument("--stats", nargs="+", type=str.upper, choices=["R", "P", "F"],
                         help="Stats to use (default=all)")
        cmd.set_defaults(func=cmd_compat)


def add_jobs(parser):
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                        help="threads (default: all cores); no number changes")


def build_parser():
    parser = OneLineParser(
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
    add_option_flags(score, "rougekit score")
    add_jobs(score)
    score.add_argument("--per-item", metavar="FILE",
                       help="write each item's scores to FILE, one JSON object per line")
    score.add_argument("--format", choices=["table", "json", "csv"], default="table")
    score.set_defaults(func=cmd_score)

    compare = sub.add_parser(
        "compare", help="test whether two systems differ significantly",
        description="Score systems A and B against the same references; per rouge type, "
                    "test the difference B-A with paired bootstrap resampling (Koehn 2004) "
                    "and approximate randomization (Riezler and Maxwell 2005).")
    compare.add_argument("--candidates-a", metavar="FILE",
                         help="system A, one text per line")
    compare.add_argument("--candidates-b", metavar="FILE",
                         help="system B, one text per line")
    compare.add_argument("--references", action="append", metavar="FILE",
                         help="one reference per line; repeat for more references")
    compare.add_argument("--jsonl", metavar="FILE",
                         help='instead of the three above: one {"candidate_a": ..., '
                              '"candidate_b": ..., "references": [...]} per line')
    add_option_flags(compare, "rougekit compare")
    add_jobs(compare)
    compare.add_argument("--bootstrap", type=positive_int, default=1000, metavar="N",
                         help="paired bootstrap resamples (default 1000)")
    compare.add_argument("--confidence", type=unit_interval, default=0.95, metavar="C",
                         help="coverage of the paired bootstrap's interval (default 0.95)")
    compare.add_argument("--ar-trials", type=positive_int, default=10000, metavar="N",
                         help="approximate randomization trials (default 10000)")
    compare.add_argument("--seed", type=seed_value, default=DEFAULT_SEED, metavar="S",
                         help=f"seed of both tests (default {DEFAULT_SEED})")
    compare.add_argument("--format", choices=["table", "json"], default="table")
    compare.set_defaults(func=cmd_compare)

    report = sub.add_parser(
        "report", help="write an HTML report of the scores, with the matches highlighted",
        description="One self-contained HTML file (it opens offline): the corpus scores "
                    "with their confidence intervals and signature, the per-item F "
                    "histograms, and a sortable, searchable table of the items whose rows "
                    "open to the texts with the matches highlighted. With --compare: the "
                    "paired tests of `rougekit compare`, the per-item differences and a "
                    "scatter plot. Needs pip install rougekit[report].")
    report.add_argument("--jsonl", required=True, metavar="FILE",
                        help='system A: one {"candidate": ..., "references": [...]} per line')
    report.add_argument("--compare", metavar="FILE",
                        help="system B, the same format and the same references")
    report.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the HTML file to write")
    report.add_argument("--title", default="ROUGE report", help="the page's title")
    add_option_flags(report, "rougekit report", bootstrap=1000)
    add_jobs(report)
    report.add_argument("--ar-trials", type=positive_int, default=10000, metavar="N",
                        help="approximate randomization trials with --compare (default 10000)")
    report.set_defaults(func=cmd_report)

    audit = sub.add_parser(
        "audit", help="every flavor's numbers on your data, and why two differ",
        description="Score the items with each flavor (the ROUGE of rouge-score, Hugging "
                    "Face evaluate, ROUGE-1.5.5, XL-Sum, pltrdy's rouge, rouge-chinese) and "
                    "print a table; with --from A --to B, walk from flavor A's options to "
                    "B's one stage at a time (tokenizer, stemmer, stopwords, n-gram "
                    "counting, Lsum sentence splitting, ROUGE-L, several references, "
                    "per-item to corpus, F's formula) and print the numbers after each "
                    "step. See docs/guides/which-rouge.md.")
    audit.add_argument("--jsonl", required=True, metavar="FILE",
                       help='one {"candidate": ..., "references": [...]} per line')
    audit.add_argument("--flavors", metavar="LIST",
                       help="comma-separated flavors (default: rouge-score,evaluate,rouge155,"
                            "pltrdy,rouge-chinese); also rouge155:FLAGS, xlsum:LANGUAGE")
    audit.add_argument("--from", dest="from_flavor", metavar="A",
                       help="the flavor the path starts from")
    audit.add_argument("--to", dest="to_flavor", metavar="B", help="the flavor it ends at")
    audit.add_argument("--measure", choices=MEASURES, default="fmeasure",
                       help="what the tables show (default fmeasure)")
    add_option_flags(audit, "rougekit audit", flavor=False)
    add_jobs(audit)
    audit.add_argument("--format", choices=["table", "json"], default="table")
    audit.set_defaults(func=cmd_audit)

    explain = sub.add_parser(
        "explain", help="show what one pair matched, per rouge type",
        description="Both texts with the tokens each rouge type matched marked (colour on "
                    "a terminal unless NO_COLOR is set, [brackets] otherwise), the counts "
                    "and P/R/F.")
    explain.add_argument("--target", required=True, metavar="TEXT",
                         help="the reference text (--target=TEXT if it starts with -)")
    explain.add_argument("--prediction", required=True, metavar="TEXT",
                         help="the predicted text")
    add_option_flags(explain, "rougekit explain")
    explain.add_argument("--format", choices=["text", "json"], default="text")
    explain.set_defaults(func=cmd_explain)

    add_contamination_parser(sub)
    add_compat_parser(sub)

    # Handled by main() before argparse (the script's options, its parsing).
    sub.add_parser("rouge155", add_help=False,
                   help="ROUGE-1.5.5.pl's options and output, without Perl "
                        "(rougekit rouge155 -h)")
    return parser


class WarningPrinter:
    """``warnings.showwarning`` for a command: each warning as one line on
    stderr, once per command whatever resets Python's "once" registry (any
    change to the warning filters does, e.g. a library's import)."""

    def __init__(self):
        self.shown = set()

    def __call__(self, message, category, filename, lineno, file=None, line=None):
        key = (category, str(message))
        if key not in self.shown:
            self.shown.add(key)
            print(f"rougekit: warning: {one_line(str(message))}", file=sys.stderr)


def main(argv=None):
    """Run the command; returns its exit status. A closed or broken stdout or
    stderr ends it quietly (``rougekit._streams.guard_streams``)."""
    return guard_streams(_main, sys.argv[1:] if argv is None else list(argv))


def _main(argv):
    if argv[:1] == ["rouge155"]:
        # The script's own command line (Getopt::Std rules, not argparse's).
        from rougekit.rouge155.cli import main as rouge155_main
        return rouge155_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    lang = getattr(args, "option_lang", None)
    if lang is not None and lang not in LANGUAGES:
        parser.error(f"argument --lang: unknown language {lang!r}; valid: "
                     + ", ".join(LANGUAGES))
    interrupted = []

    def on_sigint(signum, frame):
        # Remember it: a KeyboardInterrupt raised inside threading's own lock
        # handling can surface as another error (seen on free-threaded 3.13).
        interrupted.append(signum)
        raise KeyboardInterrupt

    previous = _set_sigint(on_sigint)
    try:
        with warnings.catch_warnings(), command_line():
            warnings.simplefilter("always", RougekitWarning)
            warnings.showwarning = WarningPrinter()
            return args.func(args)
    except (UserError, InputError) as e:
        print(f"rougekit: error: {one_line(str(e))}", file=sys.stderr)
        return 2
    except ImportError as e:
        if "pip install" not in str(e):
            raise               # not a missing extra: a bug, with its traceback
        # A missing extra that a command's own checks did not reach first.
        print(f"rougekit: error: {one_line(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rougekit: interrupted", file=sys.stderr)
        return 130
    except Exception:
        if interrupted:
            print("rougekit: interrupted", file=sys.stderr)
            return 130
        raise
    finally:
        _set_sigint(previous)


def _set_sigint(handler):
    """Install a SIGINT handler (main thread only); returns the previous one
    (None when nothing was changed)."""
    import signal
    import threading
    if handler is None or threading.current_thread() is not threading.main_thread():
        return None
    if handler is not signal.default_int_handler and \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return None          # SIGINT ignored or handled by an embedding program
    try:
        return signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):
        return None


if __name__ == "__main__":
    sys.exit(main())
