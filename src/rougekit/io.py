"""Score files of records and write CSV, as rouge-score's ``io`` module.

``compute_scores_and_write_to_csv(target_filepattern, prediction_filepattern,
output_filename, scorer, aggregator, delimiter="\\n")`` reads the files that
match each glob pattern (sorted by name, paired in that order), splits each
file into records on ``delimiter``, scores record i of a prediction file
against record i of its target file with ``scorer.score`` and writes either
the aggregate (``aggregator.aggregate()``, as ``score_type,low,mid,high``
rows) or, with ``aggregator=None``, one row per record
(``id,<type>-P,<type>-R,<type>-F,...``), numbers formatted ``%f`` as
rouge-score writes them.

A file's last record must end with the delimiter, as in rouge-score: text
after the last delimiter is still a record, with a warning logged.

Errors are rouge-score's: ``ValueError`` when the patterns match no file or
different numbers of files, or when paired files have different numbers of
records.
"""
import glob
import logging
from itertools import zip_longest
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence

from rougekit.tokenize import ensure_str

__all__ = ["compute_scores_and_write_to_csv"]

_log = logging.getLogger(__name__)


def compute_scores_and_write_to_csv(target_filepattern: str, prediction_filepattern: str,
                                    output_filename: str, scorer: Any,
                                    aggregator: Optional[Any], delimiter: str = "\n") -> None:
    """Scores the records of matching target and prediction files and writes
    a CSV of the aggregate (or of every record, when ``aggregator`` is None).

    >>> import os, tempfile
    >>> from rougekit import rouge_scorer
    >>> folder = tempfile.mkdtemp()
    >>> for name, text in [("t.txt", "the cat sat\\na dog\\n"), ("p.txt", "the cat\\na dog\\n")]:
    ...     with open(os.path.join(folder, name), "w") as f:
    ...         _ = f.write(text)
    >>> out = os.path.join(folder, "scores.csv")
    >>> compute_scores_and_write_to_csv(os.path.join(folder, "t.txt"),
    ...     os.path.join(folder, "p.txt"), out, rouge_scorer.RougeScorer(["rouge1"]), None)
    >>> print(open(out).read(), end="")
    id,rouge1-P,rouge1-R,rouge1-F
    0,1.000000,0.666667,0.800000
    1,1.000000,1.000000,1.000000
    """
    target_filenames = _glob(target_filepattern)
    prediction_filenames = _glob(prediction_filepattern)
    if not target_filenames or len(target_filenames) != len(prediction_filenames):
        raise ValueError(
            "Must have equal and positive number of target and prediction files. "
            f"Found: {len(target_filenames)} target files ({target_filepattern}), "
            f"{len(prediction_filenames)} prediction files ({prediction_filepattern}).")
    scores = _compute_scores(target_filenames, prediction_filenames, scorer, delimiter)
    if aggregator:
        for score in scores:
            aggregator.add_scores(score)
        _write_aggregates_to_csv(output_filename, aggregator.aggregate())
    else:
        _write_scores_to_csv(output_filename, scores)


def _glob(filepattern: str) -> List[str]:
    """The file names matching a glob pattern."""
    return glob.glob(filepattern)


def _open(filepattern: str, mode: str = "r") -> Any:
    """Opens a file (the one place io opens files)."""
    return open(filepattern, mode)


def _record_gen(filename: str, delimiter: str) -> Iterator[str]:
    """The records of a file, split on ``delimiter``."""
    with _open(filename) as f:
        records = f.read().split(ensure_str(delimiter, "delimiter"))
    if records[-1]:
        # Only a final delimiter tells an empty last record from none.
        _log.warning("Expected delimiter at end of file")
    else:
        records = records[:-1]
    yield from records


def _compute_scores(target_filenames: List[str], prediction_filenames: List[str],
                    scorer: Any, delimiter: str) -> List[Dict[str, Any]]:
    """``scorer.score(target, prediction)`` for the records of the files,
    paired in sorted order; ValueError when paired files differ in length."""
    scores = []
    for target_filename, prediction_filename in zip(sorted(target_filenames),
                                                    sorted(prediction_filenames)):
        _log.info("Reading targets from %s.", target_filename)
        _log.info("Reading predictions from %s.", prediction_filename)
        pairs = zip_longest(_record_gen(target_filename, delimiter),
                            _record_gen(prediction_filename, delimiter))
        for target, prediction in pairs:
            if target is None or prediction is None:
                raise ValueError(
                    "Must have equal number of lines across target and prediction files. "
                    f"Mismatch between files: {target_filename}, {prediction_filename}.")
            scores.append(scorer.score(target, prediction))
    return scores


def _write_aggregates_to_csv(output_filename: str, aggregates: Mapping[str, Any]) -> None:
    """Rows ``<type>-R``, ``-P``, ``-F`` with low, mid and high, types sorted."""
    _log.info("Writing results to %s.", output_filename)
    with _open(output_filename, "w") as out:
        out.write("score_type,low,mid,high\n")
        for score_type, aggregate in sorted(aggregates.items()):
            for suffix, field in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                out.write("%s-%s,%f,%f,%f\n" % (
                    score_type, suffix, getattr(aggregate.low, field),
                    getattr(aggregate.mid, field), getattr(aggregate.high, field)))
    _log.info("Finished writing results.")


def _write_scores_to_csv(output_filename: str, scores: Sequence[Mapping[str, Any]]) -> None:
    """One row per record: its id, then P, R and F of each type, types sorted."""
    if not scores:
        _log.warning("No scores to write")
        return
    rouge_types = sorted(scores[0].keys())
    _log.info("Writing results to %s.", output_filename)
    with _open(output_filename, "w") as out:
        out.write("id" + "".join(f",{t}-P,{t}-R,{t}-F" for t in rouge_types) + "\n")
        for i, result in enumerate(scores):
            out.write("%d" % i)
            for t in rouge_types:
                s = result[t]
                out.write(",%f,%f,%f" % (s.precision, s.recall, s.fmeasure))
            out.write("\n")
    _log.info("Finished writing results.")
