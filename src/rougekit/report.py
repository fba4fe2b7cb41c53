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
no plot carries every item. plotly's JavaScript (about 5 MB) is inlined once.

The templates are Jinja2 with autoescaping (``rougekit/templates``); the
plots are plotly figures. Both come with ``pip install rougekit[report]``.
"""
import base64
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from rougekit._options import ScoringOptions
from rougekit._pipeline import pair_scorer
from rougekit.explanation import explain_pair
from rougekit.scoring import Score
from rougekit.significance import COMPARE_SEED, compare_systems

__all__ = ["corpus_report", "check_installed", "REPORT_EXTRA"]

#: What to install when Jinja2 or plotly is missing.
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
#: Items drawn in each scatter plot, at most.
SCATTER_POINTS = 3000
HISTOGRAM_BINS = 20
#: Scores are kept to 4 decimals (as the CLI prints them) in 16 bits.
SCALE = 10000


def check_installed() -> Any:
    """Returns jinja2 when Jinja2 and plotly import, else raises an
    ImportError that says ``pip install rougekit[report]``."""
    try:
        import jinja2
        import plotly  # noqa: F401
    except ImportError as e:
        raise ImportError(f"the HTML report needs Jinja2 and plotly ({e.name} is missing): "
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


def _marks(explanation: Any, side: str, text: str) -> List[int]:
    """The matched pieces of ``side`` (``Explanation.segments``) as flat
    [start, end, ...] offsets in JavaScript's units."""
    offsets = _utf16(text) if any(ord(c) > 0xFFFF for c in text) else None
    out, at = [], 0
    for piece, hit in explanation.segments(side):
        if hit:
            out += [at, at + len(piece)] if offsets is None else \
                [offsets[at], offsets[at + len(piece)]]
        at += len(piece)
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


def _histograms(names: Sequence[str], systems: List[Any], labels: List[str]) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    edges = np.linspace(0, 1, HISTOGRAM_BINS + 1)
    centres = ((edges[:-1] + edges[1:]) / 2).round(4).tolist()
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=list(names),
                        shared_yaxes=True)
    colours = ["#4c72b0", "#dd8452"]
    for k, _ in enumerate(names):
        for s, (columns, label) in enumerate(zip(systems, labels)):
            counts, _ = np.histogram(columns[3 * k + 2], bins=edges)
            fig.add_trace(go.Bar(x=centres, y=counts.tolist(), name=label,
                                 marker_color=colours[s],
                                 showlegend=k == 0 and len(systems) > 1,
                                 legendgroup=label),
                          row=1, col=k + 1)
        fig.update_xaxes(range=[0, 1], title_text="F", row=1, col=k + 1)
    fig.update_yaxes(title_text="items", row=1, col=1)
    fig.update_layout(barmode="group", bargap=0.1, height=320, margin=dict(l=50, r=20, t=40, b=40))
    return fig


def _difference_histograms(names: Sequence[str], diffs: List[np.ndarray]) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    bins = 2 * HISTOGRAM_BINS
    edges = np.linspace(-1, 1, bins + 1)
    centres = ((edges[:-1] + edges[1:]) / 2).round(4).tolist()
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=list(names),
                        shared_yaxes=True)
    for k, d in enumerate(diffs):
        counts, _ = np.histogram(d, bins=edges)
        fig.add_trace(go.Bar(x=centres, y=counts.tolist(), marker_color="#55a868",
                             showlegend=False), row=1, col=k + 1)
        fig.update_xaxes(range=[-1, 1], title_text="F of B - F of A", row=1, col=k + 1)
    fig.update_yaxes(title_text="items", row=1, col=1)
    fig.update_layout(bargap=0.1, height=300, margin=dict(l=50, r=20, t=40, b=40))
    return fig


def _scatter(names: Sequence[str], a: np.ndarray, b: np.ndarray, seed: int) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    n = a.shape[1]
    items = np.arange(n) if n <= SCATTER_POINTS else np.sort(
        np.random.default_rng(seed).choice(n, size=SCATTER_POINTS, replace=False))
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=list(names))
    for k, _ in enumerate(names):
        fig.add_trace(go.Scatter(
            x=a[3 * k + 2, items].round(4).tolist(), y=b[3 * k + 2, items].round(4).tolist(),
            mode="markers", marker=dict(size=5, opacity=0.5, color="#4c72b0"),
            customdata=items.tolist(), hovertemplate="item %{customdata}<br>A %{x}"
                                                     "<br>B %{y}<extra></extra>",
            showlegend=False), row=1, col=k + 1)
        fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", hoverinfo="skip",
                                 line=dict(color="#999", dash="dot", width=1),
                                 showlegend=False), row=1, col=k + 1)
        fig.update_xaxes(range=[-0.02, 1.02], title_text="F of A", row=1, col=k + 1)
        fig.update_yaxes(range=[-0.02, 1.02], title_text="F of B" if k == 0 else None,
                         row=1, col=k + 1)
    fig.update_layout(height=340, margin=dict(l=50, r=20, t=40, b=40))
    return fig


def _figure_html(fig: Any, div_id: str) -> str:
    import plotly.io as pio
    return str(pio.to_html(fig, full_html=False, include_plotlyjs=False, div_id=div_id,
                           config={"displaylogo": False, "responsive": True}))


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

    Raises ImportError naming ``pip install rougekit[report]`` when Jinja2
    or plotly is missing.
    """
    env = _environment()
    from plotly.offline import get_plotlyjs

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
    if texts is not None and references is not None:
        opts = options if options is not None else _options_of(result.signature)
        pairs = pair_scorer(opts)
        refs_of = [[r] if isinstance(r, str) else list(r) for r in references]
        limit = max(SEARCH_MIN, min(SEARCH_MAX, SEARCH_BUDGET // max(1, n)))
        search = [_cut(text, limit) for text in texts[0]]
        for i in _detailed([s[3 * k + 2] for s in systems for k in range(len(names))],
                           diffs, n, seed):
            marks = []
            for system in texts:
                per_ref = []
                for ref in refs_of[i]:
                    e = explain_pair(pairs, ref, system[i])
                    per_ref.append([[_marks(e[t], "target", ref),
                                     _marks(e[t], "prediction", system[i]),
                                     [round(x, 4) for x in e[t].score]] for t in names])
                marks.append(per_ref)
            details.append({"i": i, "cands": [system[i] for system in texts],
                            "refs": refs_of[i], "marks": marks})

    # plots and table say A and B; the header says what they are (``labels``)
    shown = ["A", "B"] if compare is not None else ["the candidate"]
    figures = [("histograms", "Per-item F", _histograms(names, systems, shown))]
    if compare is not None:
        figures.append(("differences", "Per-item differences (F of B - F of A)",
                        _difference_histograms(names, diffs)))
        figures.append(("scatter", "F of A against F of B, per item"
                        + (f" (a sample of {SCATTER_POINTS:,})" if n > SCATTER_POINTS else ""),
                        _scatter(names, a, b, seed)))

    payload = {"n": n, "types": names, "systems": shown,
               "scores": [_packed(s) for s in systems], "scale": SCALE,
               "search": search, "details": details}
    return str(env.get_template("report.html.j2").render(
        title=title, result=result, compare=compare, labels=list(labels),
        comparison=comparison, names=names, n=n, bootstrap=bootstrap, ar_trials=ar_trials,
        seed=seed, confidence=_confidence(result),
        figures=[(key, heading, _figure_html(fig, f"rk-plot-{key}"))
                 for key, heading, fig in figures],
        plotly_js=get_plotlyjs(), payload=payload, n_detailed=len(details),
        has_texts=texts is not None, measures=Score._fields))


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
