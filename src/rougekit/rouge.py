r"""rouge-score's command line (``python -m rouge_score.rouge``), on rougekit.

    python -m rougekit.rouge --target_filepattern='*.targets' \
        --prediction_filepattern='*.decodes' --output_filename=scores.csv \
        --rouge_types=rouge1,rouge2,rougeL --use_stemmer

The flags are rouge-score's (absl-style: ``--flag=value`` or ``--flag value``;
booleans as ``--use_stemmer``, ``--nouse_stemmer`` or ``--use_stemmer=false``):

=========================  ===============================================
``target_filepattern``     files of target text (required)
``prediction_filepattern`` files of prediction text (required)
``output_filename``        the CSV to write (required)
``delimiter``              the record delimiter (default a newline)
``rouge_types``            comma-separated (default rouge1,rouge2,rougeL)
``use_stemmer``            Porter stemming (default off)
``aggregate``              write the bootstrap aggregate (default on); off
                           writes one row per record
``split_summaries``        split sentences with nltk for rougeLsum
=========================  ===============================================

``io.compute_scores_and_write_to_csv`` does the work. A bad or missing flag is
one line on stderr and exit status 1, as absl's. (``rougekit score`` is
rougekit's own command line, with more options.)
"""
import sys
from typing import Any, Dict, List, Optional, Sequence

from rougekit import io, rouge_scorer, scoring

__all__ = ["FLAGS", "main", "UsageError"]


class UsageError(Exception):
    """A command line the flags do not accept."""


# name -> (kind, default, help); kind is "string", "list" or "bool".
_DEFINITIONS: Dict[str, Any] = {
    "target_filepattern": ("string", None, "Files containing target text."),
    "prediction_filepattern": ("string", None, "Files containing prediction text."),
    "output_filename": ("string", None,
                        "File in which to write calculated ROUGE scores as a CSV."),
    "delimiter": ("string", "\n", "Record delimiter in files."),
    "rouge_types": ("list", ["rouge1", "rouge2", "rougeL"],
                    "List of ROUGE types to calculate."),
    "use_stemmer": ("bool", False, "Whether to use Porter stemmer to remove common suffixes."),
    "aggregate": ("bool", True, "Write aggregates if this is set to True"),
    "split_summaries": ("bool", False, "Whether to split references and candidates into "
                                       "sentences before computing RougeLsum."),
}
_REQUIRED = ("target_filepattern", "prediction_filepattern", "output_filename")
_BOOLEANS = {"true": True, "t": True, "1": True, "false": False, "f": False, "0": False}


class _Flags:
    """Flag values with attribute access, as absl's ``FLAGS``: calling it
    with an argv parses the flags and returns ``[argv[0]]`` plus the
    positional arguments."""

    def __init__(self) -> None:
        self.__dict__["_values"] = {name: d[1] for name, d in _DEFINITIONS.items()}

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"unknown flag {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._values:
            raise AttributeError(f"unknown flag {name!r}")
        self._values[name] = value

    def __call__(self, argv: Sequence[str], known_only: bool = False) -> List[str]:
        args, rest = list(argv[1:]), [argv[0] if argv else "rouge"]
        while args:
            arg = args.pop(0)
            if arg == "--":
                rest.extend(args)
                break
            if not arg.startswith("-") or arg == "-":
                rest.append(arg)
                continue
            name, eq, value = arg.lstrip("-").partition("=")
            kind = _DEFINITIONS.get(name, (None,))[0]
            if kind is None and name.startswith("no") and not eq and \
                    _DEFINITIONS.get(name[2:], (None,))[0] == "bool":
                self._values[name[2:]] = False
                continue
            if kind is None:
                if known_only:
                    rest.append(arg)
                    continue
                raise UsageError(f"Unknown command line flag '{name}'")
            if kind == "bool":
                if not eq:
                    self._values[name] = True
                elif value.lower() in _BOOLEANS:
                    self._values[name] = _BOOLEANS[value.lower()]
                else:
                    raise UsageError(f"flag --{name}: invalid boolean value {value!r}")
                continue
            if not eq:
                if not args:
                    raise UsageError(f"flag --{name} needs a value")
                value = args.pop(0)
            self._values[name] = [v for v in value.split(",") if v] if kind == "list" \
                else value
        return rest


FLAGS = _Flags()


def main(argv: Sequence[str]) -> None:
    """Parses ``argv`` (program name first) into ``FLAGS`` and writes the
    CSV, as rouge-score's ``rouge.py`` does."""
    rest = FLAGS(argv)
    if len(rest) > 1:
        raise UsageError("Too many command-line arguments.")
    missing = [name for name in _REQUIRED if getattr(FLAGS, name) is None]
    if missing:
        raise UsageError("Flag --%s must have a value other than None." % missing[0])
    scorer = rouge_scorer.RougeScorer(FLAGS.rouge_types, use_stemmer=FLAGS.use_stemmer,
                                      split_summaries=FLAGS.split_summaries)
    aggregator = scoring.BootstrapAggregator() if FLAGS.aggregate else None
    io.compute_scores_and_write_to_csv(FLAGS.target_filepattern, FLAGS.prediction_filepattern,
                                       FLAGS.output_filename, scorer, aggregator,
                                       delimiter=FLAGS.delimiter)


def _run(argv: Optional[Sequence[str]] = None) -> int:
    try:
        main(sys.argv if argv is None else argv)
    except UsageError as exc:
        print(f"FATAL Flags parsing error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as exc:
        print(f"rouge: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_run())
