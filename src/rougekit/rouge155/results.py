"""Result objects of a ROUGE-1.5.5 run, and the script's text for them.

A :class:`Rouge155Result` holds, per system, per measure, the printed
averages with their confidence intervals and every evaluation's scores;
``render()`` gives the script's output, line for line (``per_document=True``
adds the ``-d`` lines).

Every number is the one the script prints: per-evaluation R, P and F are
rounded to 5 decimals (F computed from the rounded P and R), averages are
the script's bootstrap means. With ``counting_unit`` 1 or 2 the
per-evaluation values are counts (model n-grams, peer n-grams, hits).
"""
import dataclasses
import functools
import re
from typing import Dict, List, NamedTuple, Tuple

import numpy as np

__all__ = ["DocumentScore", "MeasureResult", "SystemResult", "Rouge155Result"]

DASHES = "-" * 45
DOTS = "." * 45


def line_bytes(line: str) -> bytes:
    """A line of the script's output (scores or warnings) as Perl prints it:
    when its characters are all below 256, one byte each (a system ID from
    the command line is bytes to Perl, read here one character per byte, so
    its bytes come back as given, in any locale's encoding); any other line
    in UTF-8."""
    try:
        return line.encode("latin-1")
    except UnicodeEncodeError:
        return line.encode("utf-8", "surrogateescape")


class DocumentScore(NamedTuple):
    """One evaluation's scores of one measure, as the script computes them:
    R, P and F rounded to 5 decimals, and the counts they come from (summed
    over the models with ``formula="A"``; for ROUGE-W, weighted sums)."""
    recall: float
    precision: float
    fmeasure: float
    model_count: float
    peer_count: float
    hits: float


class Interval(NamedTuple):
    low: float
    high: float


def _count_text(value: float, weighted: bool) -> str:
    """A count as Perl prints it: integers as integers, ROUGE-W's weighted
    counts (floating point) with 15 significant digits."""
    if weighted:
        text = "%.15g" % value
        return "0" if text == "-0" else text
    return "%d" % value


def _leading_number(key):
    m = re.match(r"[0-9]+", key)
    return int(m.group()) if m else None


def _by_eval_id(a, b):
    """The script's ``by_evalID``: by the leading number of the instance key
    when both have one, else as strings. (Where the script's order depends
    on Perl's hash order, equal leading numbers, the key decides.)"""
    na, nb = _leading_number(a), _leading_number(b)
    if na is not None and nb is not None and na != nb:
        return -1 if na < nb else 1
    return (a > b) - (a < b)


class MeasureResult:
    """One measure of one system (one block of the output).

    ``recall``, ``precision``, ``fmeasure`` and their ``*_interval`` (low,
    high) are the printed averages (None with ``counting_unit=2``, which
    prints counts); ``documents`` maps each evaluation ID to its
    :class:`DocumentScore`, in the script's order of instances (evaluation
    IDs sorted as strings); ``model_count``, ``peer_count`` and ``hits`` are
    the totals over the evaluations, summed in that order (what ``-t 2``
    prints, truncated to integers).
    """

    __slots__ = ("label", "recall", "precision", "fmeasure", "recall_interval",
                 "precision_interval", "fmeasure_interval", "model_count", "peer_count",
                 "hits", "_eval_ids", "_values", "_documents")

    def __init__(self, label, averages, eval_ids, values):
        self.label = label
        (self.recall, self.precision, self.fmeasure, self.recall_interval,
         self.precision_interval, self.fmeasure_interval) = averages
        self._eval_ids = eval_ids
        self._values = values          # rows: model count, hits, peer count, R, P, F
        self._documents = None
        if len(values):
            # np.cumsum adds in order, one value after the other, as Perl does.
            self.model_count, self.hits, self.peer_count = (
                float(np.cumsum(values[:, j])[-1]) for j in range(3))
        else:
            self.model_count = self.hits = self.peer_count = 0.0

    @property
    def documents(self) -> Dict[str, DocumentScore]:
        if self._documents is None:
            self._documents = {
                eval_id: DocumentScore(r, p, f, mc, pc, h)
                for eval_id, (mc, h, pc, r, p, f) in zip(self._eval_ids, self._values.tolist())}
        return self._documents

    def __repr__(self):
        if self.recall is None:
            return ("MeasureResult(%r, model_count=%r, peer_count=%r, hits=%r, documents=%d)"
                    % (self.label, self.model_count, self.peer_count, self.hits,
                       len(self._eval_ids)))
        return ("MeasureResult(%r, recall=%r, precision=%r, fmeasure=%r, documents=%d)"
                % (self.label, self.recall, self.precision, self.fmeasure,
                   len(self._eval_ids)))


@dataclasses.dataclass
class SystemResult:
    """Every measure of one system, in the script's order."""
    system_id: str
    measures: Dict[str, MeasureResult]

    def __getitem__(self, label: str) -> MeasureResult:
        return self.measures[label]


@dataclasses.dataclass
class Rouge155Result:
    """The scores of a run: ``systems`` maps each system ID (sorted as the
    script sorts them) to its :class:`SystemResult`. ``missing`` lists the
    ``(evaluation ID, system ID)`` pairs without a summary, which the script
    reports on stderr and leaves out of that system's averages.
    ``signature`` is the one-line record of the options behind the numbers
    (``rougekit.signature``; ``Options.from_signature`` reads it back)."""
    systems: Dict[str, SystemResult]
    counting_unit: int
    confidence_label: str
    missing: List[Tuple[str, str]] = dataclasses.field(default_factory=list)
    signature: str = ""

    def __getitem__(self, system_id: str) -> SystemResult:
        return self.systems[system_id]

    def render_lines(self, per_document: bool = False) -> List[str]:
        """The script's output lines (without line ends)."""
        lines: List[str] = []
        for system_id, system in self.systems.items():
            for label, m in system.measures.items():
                head = "%s %s" % (system_id, label)
                lines.append(DASHES)
                if self.counting_unit == 2:
                    lines.append("%s M_count: %d P_count: %d H_count: %d"
                                 % (head, int(m.model_count), int(m.peer_count), int(m.hits)))
                else:
                    for name, value, iv in (("R", m.recall, m.recall_interval),
                                            ("P", m.precision, m.precision_interval),
                                            ("F", m.fmeasure, m.fmeasure_interval)):
                        lines.append("%s Average_%s: %7.5f (%s%%-conf.int. %7.5f - %7.5f)"
                                     % (head, name, value, self.confidence_label,
                                        iv.low, iv.high))
                if per_document:
                    lines.append(DOTS)
                    lines.extend(self._document_lines(head, system_id, m))
        return lines

    def _document_lines(self, head: str, system_id: str, m: MeasureResult) -> List[str]:
        keys = sorted(("%s.%s" % (eval_id, system_id), row)
                      for row, eval_id in enumerate(m._eval_ids))

        def by_eval_id(x: Tuple[str, int], y: Tuple[str, int]) -> int:
            return _by_eval_id(x[0], y[0])
        keys.sort(key=functools.cmp_to_key(by_eval_id))
        rows = m._values.tolist()
        if self.counting_unit == 0:
            return ["%s Eval %s R:%7.5f P:%7.5f F:%7.5f" % (head, key, rows[i][3], rows[i][4],
                                                            rows[i][5])
                    for key, i in keys]
        weighted = m.label.startswith("ROUGE-W-")
        return ["%s Eval %s R:%s P:%s F:%s" % (
            head, key, _count_text(rows[i][0], weighted), _count_text(rows[i][2], weighted),
            _count_text(rows[i][1], weighted)) for key, i in keys]

    def render(self, per_document: bool = False) -> str:
        """The script's output text (``per_document``: with the ``-d`` lines)."""
        lines = self.render_lines(per_document)
        return "".join(line + "\n" for line in lines)

    def render_bytes(self, per_document: bool = False) -> bytes:
        """The output as the script writes it, each line as ``line_bytes``
        gives it."""
        return b"".join(line_bytes(line) + b"\n" for line in self.render_lines(per_document))

    def __str__(self) -> str:
        return self.render()
