"""A corpus's ROUGE scores as one self-contained HTML file, for a browser.

``corpus_report(result, candidates, references)`` (and
``CorpusResult.to_html``, and ``rougekit report --jsonl FILE -o report.html``)
renders what ``score_corpus`` returned into one HTML file that opens offline:

- the corpus scores with their confidence intervals and the signature;
- per rouge type, a histogram of the items' F;
- a table of every item, sortable by each score, searchable, paged in the
  browser; a row opens to the texts with the matches highlighted
  (``rougekit.explanation``'s ``segments``); "worst first" sorts it;
- with ``compare=`` (system B scored on the same references): the paired
  tests of ``rougekit compare`` (``significance.compare_systems``), a
  histogram of the per-item differences B - A, a scatter plot of A's F
  against B's, and the items where they differ most, both outputs
  highlighted against the reference.

How it stays small at 100,000 items (docs/guides/report.md): every item's
P, R and F are in the file, rounded to 4 decimals and packed as 16-bit
integers in base64 (8 bytes per rouge type, item and system); each
item's search text is its candidate (A's) cut to a share of a fixed budget
(``SEARCH_BUDGET`` bytes over all items, at least ``SEARCH_MIN`` each), and
the items whose texts are in the file are searched in all their texts; the
texts and highlights are in the file for every item when there are at most
``DETAIL_ALL`` items, else for a bounded subset: per rouge type the
``EXTREMES`` worst and best items (and with ``compare=`` the ``EXTREMES``
with the largest differences each way), and a seeded sample of ``SAMPLE``
items. The histograms are counted here (``numpy.histogram``) and the scatter
plot shows at most ``SCATTER_POINTS`` items per type (a seeded sample), so
no plot carries every item. The plots are SVG drawn here (``Panel``): the
file carries no plotting library.

How it stays quick with long texts: explaining a pair of texts costs the
product of their token counts over 64 (the compiled alignment's bit rows,
``rougekit._core._alignment``), and linear time in Python for the tokens'
spans. An item is highlighted only when each of its
(reference, candidate) pairs has at most ``EXPLAIN_PAIR_LIMIT`` token pairs,
and all the highlighted items together at most ``EXPLAIN_BUDGET`` (the
cheapest items first); the others show their texts without highlights and
say why. Each text in the file is cut to a share of ``TEXT_BUDGET``
characters (between ``TEXT_MIN`` and ``TEXT_MAX`` each).

The templates are Jinja2 with autoescaping (``rougekit/templates``): every
text of the page, the SVG's included, goes through it. Jinja2 comes with
``pip install rougekit[report]``.
"""
import base64
import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from rougekit._options import ScoringOptions
from rougekit._pipeline import pair_scorer
from rougekit.explanation import explain_pair
from rougekit.scoring import Score
from rougekit.significance import COMPARE_SEED, compare_systems

__all__ = ["corpus_report", "check_installed", "REPORT_EXTRA", "p_value_text"]

#: What to install when Jinja2 is missing.
REPORT_EXTRA = "pip install 'rougekit[report]'"

#: Up to this many items, every item's texts and highlights are in the file.
DETAIL_ALL = 1000
#: Beyond DETAIL_ALL: per rouge type the EXTREMES worst and best items (and
#: largest differences each way with compare=) and SAMPLE seeded others.
EXTREMES = 20
SAMPLE = 100
#: Bytes of search text over all items, and the least any item gets.
SEARCH_BUDGET = 3_000_000
SEARCH_MIN = 24
SEARCH_MAX = 2000
#: Explaining a (reference, candidate) pair costs its tokens' product over
#: 64: an item is highlighted when each of its pairs is at most
#: EXPLAIN_PAIR_LIMIT (two texts of 50,000 tokens, about two seconds) and the
#: highlighted items' pairs sum to at most EXPLAIN_BUDGET, the cheapest
#: items first.
EXPLAIN_PAIR_LIMIT = 2_500_000_000
EXPLAIN_BUDGET = 20_000_000_000
#: Characters of the texts in the file: each text is cut to a share of
#: TEXT_BUDGET, at least TEXT_MIN and at most TEXT_MAX.
TEXT_BUDGET = 8_000_000
TEXT_MIN = 2000
TEXT_MAX = 50_000
#: Items drawn in each scatter plot, at most.
SCATTER_POINTS = 3000
HISTOGRAM_BINS = 20
#: Scores are kept to 4 decimals (as the CLI prints them) in 16 bits.
SCALE = 10000


def check_installed() -> Any:
    """Returns jinja2 when Jinja2 imports, else raises an ImportError that
    says ``pip install rougekit[report]``."""
    try:
        import jinja2
    except ImportError as e:
        raise ImportError(f"the HTML report needs Jinja2 ({e.name} is missing): "
                          f"{REPORT_EXTRA}") from None
    return jinja2


def _environment() -> Any:
    jinja2 = check_installed()
    env = jinja2.Environment(loader=jinja2.PackageLoader("rougekit", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined)
    # |tojson: compact, and UTF-8 rather than \\u escapes (a third of the size
    # for non-Latin text); still HTML-safe (<, >, &, ' escaped by Jinja2).
    env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "separators": (",", ":"),
                                         "sort_keys": False}
    return env


# --- p-values --------------------------------------------------------------------------

def p_value_text(p: float, n_resamples: Optional[int] = None) -> str:
    """A p-value as the report shows it: 4 decimals, more when it is smaller
    than 0.0001 (no p is shown as 0.0000), and ``"< 1/N"`` (rounded up to two
    significant digits) for the paired bootstrap's p of 0, which says that
    none of its ``n_resamples`` N resamples went the other way: a p below
    the test's resolution, 1/N (``significance.paired_bootstrap`` has no +1
    correction; approximate randomization's p is at least 1/(trials + 1)).

    >>> p_value_text(0.0, 1000), p_value_text(0.0, 300), p_value_text(0.1201)
    ('< 0.001', '< 0.0034', '0.1201')
    >>> p_value_text(1 / 100001), p_value_text(3 / 100001)
    ('0.00001', '0.00003')
    """
    if p == 0 and n_resamples is not None:
        return "< " + _rounded_up(Fraction(1, n_resamples))
    if p == 0 or round(p, 4) > 0:
        return f"{p:.4f}"
    return format(Decimal(f"{p:.2g}").normalize(), "f")


def _rounded_up(x: Fraction) -> str:
    """The least number of two significant digits >= x > 0, as a decimal."""
    digits = 1
    while x * 10 ** digits < 10:
        digits += 1
    scaled = math.ceil(x * 10 ** digits)
    while scaled % 10 == 0 and digits > 0:      # 0.0010 -> 0.001
        scaled //= 10
        digits -= 1
    return format(Decimal(scaled).scaleb(-digits), "f")


# --- the plots: SVG panels, rendered by templates/plots.html.j2 -------------------------

#: A panel's size in SVG units, and the plot area's margins.
PANEL_WIDTH, HISTOGRAM_HEIGHT = 300, 210
LEFT, RIGHT, TOP, BOTTOM = 46, 10, 24, 38


@dataclass
class Panel:
    """One plot of one rouge type: coordinates in SVG units, as text."""

    title: str
    width: int
    height: int
    x_label: str
    y_label: str
    #: (position, label) of the ticks, and the plot area's edges.
    x_ticks: List[Tuple[str, str]] = field(default_factory=list)
    y_ticks: List[Tuple[str, str]] = field(default_factory=list)
    left: int = LEFT
    right: int = 0
    top: int = TOP
    bottom: int = 0
    #: x, y, width, height, series (0 = A, 1 = B, 2 = differences), count, tip.
    bars: List[Tuple[str, str, str, str, int, int, str]] = field(default_factory=list)
    #: cx, cy, tip.
    points: List[Tuple[str, str, str]] = field(default_factory=list)
    #: x1, y1, x2, y2 of a dotted line (the scatter plot's diagonal).
    lines: List[Tuple[str, str, str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.right = self.width - RIGHT
        self.bottom = self.height - BOTTOM


def _at(x: float) -> str:
    """An SVG coordinate: one decimal, no trailing zeros."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _count_ticks(most: int) -> List[int]:
    """Integer ticks from 0 to a round top >= most: steps of 1, 2 or 5
    times a power of ten, at most 6 ticks.

    >>> _count_ticks(0), _count_ticks(3), _count_ticks(7), _count_ticks(11)
    ([0, 1], [0, 1, 2, 3], [0, 2, 4, 6, 8], [0, 5, 10, 15])
    """
    scale = 1
    while True:
        for m in (1, 2, 5):
            step = m * scale
            if most <= 5 * step:
                top = max(step, -(-most // step) * step)
                return list(range(0, top + 1, step))
        scale *= 10


def _axis_label(v: float) -> str:
    return f"{v:g}" if v != 0 else "0"


def _histogram_panels(names: Sequence[str], series: List[List[np.ndarray]],
                      labels: List[str], lo: float, hi: float, bins: int, measure: str,
                      first_series: int = 0) -> List[Panel]:
    """Per rouge type, the counts of ``series[s][k]`` (system s, type k) in
    ``bins`` equal bins over [lo, hi], bars side by side; the count axis is
    shared by the panels."""
    edges = np.linspace(lo, hi, bins + 1)
    counts = [[np.histogram(values, bins=edges)[0] for values in system] for system in series]
    ticks = _count_ticks(max((int(c.max()) for system in counts for c in system), default=0))
    x_steps = [lo + (hi - lo) * j / 10 for j in range(0, 11, 2)] if lo == 0 else \
        [lo + (hi - lo) * j / 4 for j in range(5)]
    panels = []
    for k, name in enumerate(names):
        p = Panel(str(name), PANEL_WIDTH, HISTOGRAM_HEIGHT, measure, "items")
        sx = (p.right - p.left) / (hi - lo)
        sy = (p.bottom - p.top) / ticks[-1]
        p.x_ticks = [(_at(p.left + (v - lo) * sx), _axis_label(round(v, 4))) for v in x_steps]
        p.y_ticks = [(_at(p.bottom - v * sy), f"{v:,}") for v in ticks]
        width = (p.right - p.left) / bins
        bar = width * 0.9 / len(series)
        for s, system in enumerate(counts):
            who = f"{labels[s]}: " if len(series) > 1 else ""
            for j, c in enumerate(system[k].tolist()):
                if c == 0:
                    continue
                x = p.left + j * width + width * 0.05 + s * bar
                close = "]" if j == bins - 1 else ")"
                tip = (f"{who}{c:,} item{'s' if c != 1 else ''}, {measure} in "
                       f"[{edges[j]:.2f}, {edges[j + 1]:.2f}{close}")
                p.bars.append((_at(x), _at(p.bottom - c * sy), _at(bar), _at(c * sy),
                               first_series + s, c, tip))
        panels.append(p)
    return panels


def _scatter_panels(names: Sequence[str], a: np.ndarray, b: np.ndarray,
                    seed: int) -> List[Panel]:
    n = a.shape[1]
    items = np.arange(n) if n <= SCATTER_POINTS else np.sort(
        np.random.default_rng(seed).choice(n, size=SCATTER_POINTS, replace=False))
    size = PANEL_WIDTH - LEFT - RIGHT
    lo, hi = -0.02, 1.02
    scale = size / (hi - lo)

    def sx(v: float) -> float:
        return LEFT + (v - lo) * scale

    def sy(v: float) -> float:
        return TOP + size - (v - lo) * scale
    steps = [j / 5 for j in range(6)]
    panels = []
    for k, name in enumerate(names):
        p = Panel(str(name), PANEL_WIDTH, TOP + size + BOTTOM, "F of A", "F of B")
        p.x_ticks = [(_at(sx(v)), _axis_label(v)) for v in steps]
        p.y_ticks = [(_at(sy(v)), _axis_label(v)) for v in steps]
        p.lines = [(_at(sx(0)), _at(sy(0)), _at(sx(1)), _at(sy(1)))]
        fa = np.round(a[3 * k + 2, items], 4).tolist()
        fb = np.round(b[3 * k + 2, items], 4).tolist()
        p.points = [(_at(sx(x)), _at(sy(y)), f"item {i}: A {x:.4f}, B {y:.4f}")
                    for i, x, y in zip(items.tolist(), fa, fb)]
        panels.append(p)
    return panels


# --- the items' data ---------------------------------------------------------------------

def _columns(per_item: Optional[List[Dict[str, Score]]], names: Sequence[str],
             what: str) -> np.ndarray:
    """The per-item scores as columns, shape (3 * types, items)."""
    if per_item is None:
        raise ValueError(f"{what} has no per-item scores (score_corpus(..., per_item=True) "
                         "on Dask and Spark)")
    return np.array([[x for t in names for x in item[t]] for item in per_item],
                    dtype=np.float64).reshape(len(per_item), 3 * len(names)).T


def _packed(columns: np.ndarray) -> str:
    """Scores as 4-decimal integers, item-major, little-endian uint16, base64."""
    ints = np.rint(np.clip(columns.T, 0, 1) * SCALE).astype("<u2")
    return base64.b64encode(ints.tobytes()).decode("ascii")


def _cut(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 is at most ``limit`` bytes."""
    data = text.encode("utf-8")
    return text if len(data) <= limit else data[:limit].decode("utf-8", "ignore")


def _utf16(text: str) -> List[int]:
    """offset[i]: the UTF-16 offset of the text's character i (JavaScript's
    string indices), for i = 0 .. len(text)."""
    out, at = [0], 0
    for c in text:
        at += 2 if ord(c) > 0xFFFF else 1
        out.append(at)
    return out


def _marks(explanation: Any, side: str, text: str, shown: int) -> List[int]:
    """The matched pieces of ``side`` (``Explanation.segments``) within its
    first ``shown`` characters, as flat [start, end, ...] offsets in
    JavaScript's units."""
    offsets = _utf16(text[:shown]) if any(ord(c) > 0xFFFF for c in text[:shown]) else None
    out, at = [], 0
    for piece, hit in explanation.segments(side):
        if at >= shown:
            break
        end = at + len(piece)
        if hit:
            start, stop = at, min(end, shown)
            out += [start, stop] if offsets is None else [offsets[start], offsets[stop]]
        at = end
    return out


def _detailed(f_columns: List[np.ndarray], diffs: List[np.ndarray], n: int,
              seed: int) -> List[int]:
    """Which items carry their texts (module docstring)."""
    if n <= DETAIL_ALL:
        return list(range(n))
    chosen = set()
    for values in f_columns + diffs:
        order = np.argsort(values, kind="stable")
        chosen.update(order[:EXTREMES].tolist())
        chosen.update(order[-EXTREMES:].tolist())
    chosen.update(np.random.default_rng(seed).choice(n, size=min(SAMPLE, n),
                                                     replace=False).tolist())
    return sorted(chosen)


@dataclass
class _Explaining:
    """Which of the detailed items are explained (module docstring), and why
    the others are not."""

    explained: Set[int]
    notes: Dict[int, str]


def _choose_explained(pairs: Any, items: List[int], texts: List[Sequence[str]],
                      refs_of: List[List[str]]) -> _Explaining:
    """Counts each text's tokens (linear) and picks the items to explain:
    every pair at most EXPLAIN_PAIR_LIMIT, the cheapest items first while
    their sum stays within EXPLAIN_BUDGET."""
    cost: Dict[int, int] = {}
    notes: Dict[int, str] = {}
    for i in items:
        ref_tokens = [len(pairs.tokens(ref)) for ref in refs_of[i]]
        largest = (0, 0, 0)
        total = 0
        for system in texts:
            m = len(pairs.tokens(system[i]))
            for r in ref_tokens:
                total += r * m
                largest = max(largest, (r * m, r, m))
        if largest[0] > EXPLAIN_PAIR_LIMIT:
            notes[i] = (f"Not highlighted: its texts are too long to explain here. A reference "
                        f"of {largest[1]:,} tokens and a candidate of {largest[2]:,} make "
                        f"{largest[0]:,} token pairs; the report explains pairs of texts up to "
                        f"{EXPLAIN_PAIR_LIMIT:,} (two texts of 50,000 tokens).")
        else:
            cost[i] = total
    explained, spent = set(), 0
    for i in sorted(cost, key=lambda i: (cost[i], i)):
        if spent + cost[i] > EXPLAIN_BUDGET:
            notes[i] = (f"Not highlighted: the report explains at most {EXPLAIN_BUDGET:,} "
                        f"token pairs in all, the shortest items first, and this item's "
                        f"{cost[i]:,} did not fit. rougekit explain shows its matches.")
            continue
        spent += cost[i]
        explained.add(i)
    return _Explaining(explained, notes)


def _details(names: List[str], pairs: Any, items: List[int],
             texts: List[Sequence[str]], refs_of: List[List[str]]
             ) -> Tuple[List[Dict[str, Any]], int, int, int]:
    """The payload's ``details`` (texts, highlights, notes) of ``items``; and
    how many of them are not highlighted, how many have a text cut, and the
    characters each text is cut to."""
    n_texts = sum(len(refs_of[i]) + len(texts) for i in items)
    shown_chars = max(TEXT_MIN, min(TEXT_MAX, TEXT_BUDGET // max(1, n_texts)))
    chosen = _choose_explained(pairs, items, texts, refs_of)
    details: List[Dict[str, Any]] = []
    n_cut = 0
    for i in items:
        cands = [system[i] for system in texts]
        refs = refs_of[i]
        long = [len(t) for t in refs + cands if len(t) > shown_chars]
        marks: Optional[List[Any]] = None
        if i in chosen.explained:
            marks = []
            for cand in cands:
                per_ref = []
                for ref in refs:
                    e = explain_pair(pairs, ref, cand)
                    per_ref.append([[_marks(e[t], "target", ref, shown_chars),
                                     _marks(e[t], "prediction", cand, shown_chars),
                                     [round(x, 4) for x in e[t].score]]
                                    for t in names])
                marks.append(per_ref)
        note = chosen.notes.get(i, "")
        if long:
            n_cut += 1
            note += (" " if note else "") + (
                f"Texts over {shown_chars:,} characters are cut to their first "
                f"{shown_chars:,} here (this item has texts of "
                + ", ".join(f"{x:,}" for x in long) + " characters).")
        details.append({"i": i, "cands": [c[:shown_chars] for c in cands],
                        "refs": [r[:shown_chars] for r in refs], "marks": marks,
                        "note": note})
    return details, len(chosen.notes), n_cut, shown_chars


def corpus_report(result: Any, candidates: Optional[Sequence[str]] = None,
                  references: Optional[Sequence[Any]] = None, *, compare: Any = None,
                  compare_candidates: Optional[Sequence[str]] = None,
                  options: Optional[ScoringOptions] = None, title: str = "ROUGE report",
                  labels: Sequence[str] = ("A", "B"), bootstrap: int = 1000,
                  ar_trials: int = 10000, seed: int = COMPARE_SEED) -> str:
    """The HTML report of a ``CorpusResult`` (module docstring), as a str.

    Args:
      result: what ``score_corpus`` returned (with ``per_item``).
      candidates: the texts it scored; without them the report has the
        scores and plots but no texts (no search, no highlights).
      references: their references (a str or a list of str per item).
      compare: the ``CorpusResult`` of a second system B, scored on the same
        references with the same options; ``result`` is system A.
      compare_candidates: B's texts.
      options: the ``ScoringOptions`` to explain the items with (default:
        those ``result.signature`` records; needed for a tokenizer object).
      title: the page's title.
      labels: the names of A and B.
      bootstrap: the paired bootstrap's resamples
        (``significance.compare_systems``, as ``rougekit compare``).
      ar_trials: approximate randomization's trials.
      seed: the seed of both tests.

    The texts are not checked for rougeLsum's one-sentence-per-line warning
    (``SentenceSplitWarning``): scoring them gave it already.

    Raises ImportError naming ``pip install rougekit[report]`` when Jinja2
    is missing.
    """
    env = _environment()

    names = list(result.scores)
    n = result.n_items
    a = _columns(result.per_item, names, "result")
    systems = [a]
    texts = [candidates] if candidates is not None else None
    comparison = None
    diffs: List[np.ndarray] = []
    if compare is not None:
        if list(compare.scores) != names or compare.n_items != n:
            raise ValueError("compare= must have the same rouge types and number of items "
                             f"as result: {list(compare.scores)} and {compare.n_items} items, "
                             f"not {names} and {n}")
        b = _columns(compare.per_item, names, "compare")
        systems.append(b)
        comparison = compare_systems(a, b, names, bootstrap, _confidence(result),
                                     ar_trials, seed)
        diffs = [b[3 * k + 2] - a[3 * k + 2] for k in range(len(names))]
        if texts is not None:
            if compare_candidates is None:
                raise ValueError("give compare_candidates= (B's texts) with candidates=")
            texts.append(compare_candidates)
    if texts is not None:
        if references is None:
            raise ValueError("give references= with candidates=")
        for system in texts:
            if len(system) != n:
                raise ValueError(f"{len(system)} candidates for {n} items")
        if len(references) != n:
            raise ValueError(f"{len(references)} references for {n} items")

    details: List[Dict[str, Any]] = []
    search: List[str] = []
    n_plain = n_cut = shown_chars = 0
    if texts is not None and references is not None:
        opts = options if options is not None else _options_of(result.signature)
        pairs = pair_scorer(opts)
        pairs.lines_to_check = 0         # scoring these texts warned already (docstring)
        refs_of = [[r] if isinstance(r, str) else list(r) for r in references]
        limit = max(SEARCH_MIN, min(SEARCH_MAX, SEARCH_BUDGET // max(1, n)))
        search = [_cut(text, limit) for text in texts[0]]
        items = _detailed([s[3 * k + 2] for s in systems for k in range(len(names))],
                          diffs, n, seed)
        details, n_plain, n_cut, shown_chars = _details(names, pairs, items, texts, refs_of)

    # plots and table say A and B; the header says what they are (``labels``)
    shown = ["A", "B"] if compare is not None else ["the candidate"]
    figures = [("histograms", "Per-item F", shown if compare is not None else [],
                _histogram_panels(names, [[s[3 * k + 2] for k in range(len(names))]
                                          for s in systems], shown, 0, 1, HISTOGRAM_BINS,
                                  "F"))]
    if compare is not None:
        figures.append(("differences", "Per-item differences (F of B - F of A)", [],
                        _histogram_panels(names, [diffs], ["B - A"], -1, 1,
                                          2 * HISTOGRAM_BINS, "F of B - F of A", 2)))
        figures.append(("scatter", "F of A against F of B, per item"
                        + (f" (a sample of {SCATTER_POINTS:,})" if n > SCATTER_POINTS else ""),
                        [], _scatter_panels(names, a, b, seed)))

    tests = None
    if comparison is not None:
        tests = [{"type": t, **comparison[t]["fmeasure"],
                  "p_bootstrap_text": p_value_text(comparison[t]["fmeasure"]["p_bootstrap"],
                                                   bootstrap),
                  "p_ar_text": p_value_text(comparison[t]["fmeasure"]["p_ar"])}
                 for t in names]
    payload = {"n": n, "types": names, "systems": shown,
               "scores": [_packed(s) for s in systems], "scale": SCALE,
               "search": search, "details": details}
    return str(env.get_template("report.html.j2").render(
        title=title, result=result, compare=compare, labels=list(labels), names=names, n=n,
        tests=tests, bootstrap=bootstrap, bootstrap_floor=p_value_text(0.0, bootstrap),
        ar_trials=ar_trials,
        # approximate randomization's least p with n items: 2 of the 2^n swaps tie
        ar_floor=2 / 2 ** n if 0 < n < 64 and 2 ** (n - 1) < ar_trials + 1 else None,
        seed=seed, confidence=_confidence(result), figures=figures,
        payload=payload, n_detailed=len(details), n_plain=n_plain, n_cut=n_cut,
        shown_chars=shown_chars, explain_pair_limit=EXPLAIN_PAIR_LIMIT,
        explain_budget=EXPLAIN_BUDGET, has_texts=texts is not None,
        measures=Score._fields))


def _confidence(result: Any) -> float:
    """The confidence of ``result``'s intervals (its signature's), 0.95 when
    it has none."""
    try:
        return float(ScoringOptions.from_signature(result.signature).confidence)
    except (ValueError, TypeError, KeyError):
        return 0.95


def _options_of(signature: str) -> ScoringOptions:
    try:
        return ScoringOptions.from_signature(signature)
    except (ValueError, TypeError, KeyError, LookupError) as e:
        raise ValueError("cannot rebuild the scoring options from the signature "
                         f"({e}): give options=") from None
