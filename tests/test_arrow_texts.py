"""Arrow string columns read where they lie (``Engine.score_arrow_into`` and
the doors that hand it their columns: score_columns, score_frame, the polars
expression, the DuckDB functions): every number equals, with ``==``,
``RougeScorer.score_columns`` of the same rows given as Python str, whatever
the array (string, large_string or string_view, sliced, chunked unlike its
partner, from polars), the texts (ASCII and not, empty, punctuation, newlines, the two
characters that lowercase to ASCII), the rouge type and stemming; a row
with a null is NaN (a null in the doors); a malformed array is a
ValueError, never a read out of bounds. Runs on the backend under test."""
import warnings

import numpy as np
import pytest

import rougekit
from _helpers import ALL_TYPES
from _integrations import need
from rougekit import _backend, rouge_scorer
from rougekit._arrow_texts import aligned, string_chunks
from rougekit._options import ScoringOptions
from rougekit._pipeline import pair_scorer
from rougekit.frames import column_names
from rougekit.rouge_scorer import MEASURES

# (kernel, the sanitizer step, marks the tests that run no DuckDB nor polars)
pytestmark = [pytest.mark.backend, pytest.mark.threads,
              pytest.mark.filterwarnings("ignore::rougekit.TokenizationWarning"),
              pytest.mark.filterwarnings("ignore::rougekit.SentenceSplitWarning")]

pa = need("pyarrow")

# ASCII and not, mixed within a column and within a row's pair
TEXTS = ["the cats sat on the mat", "", "...", "!!! ??", "A\nB\n\nC d",
         "caf\u00e9 na\u00efve r\u00e9sum\u00e9 the cat", "\u4e2d\u6587 text cat",
         "\u0130stanbul is big", "\u212aelvin sat", "Gr\u00f6\u00dfe 10\n\u00fcber alles",
         "smile \U0001f642 the cats", "running runs ran\nthe runner ran", "x" * 300,
         "The cats were running.\nThey ran fast!", "1 2 3 4 5 6", " ", "a a a a",
         "\u041c\u043e\u0441\u043a\u0432\u0430 \u0441\u0442\u043e\u043b\u0438\u0446\u0430"]
# and the two characters that lowercase to ASCII ("\u0130" to "i" and a
# combining dot, the Kelvin sign to "k") against their ASCII letters: their
# UTF-8 bytes read as 1-byte characters would lose the letter
LOWERS_TO_ASCII = [("kelvin sat", "\u212aelvin sat"), ("i stanbul", "\u0130stanbul"),
                   ("\u212a \u0130", "k i")]
TARGETS = [t for t in TEXTS for _ in TEXTS[::4]] + [t for t, _ in LOWERS_TO_ASCII]
PREDICTIONS = [p for _ in TEXTS for p in TEXTS[::4]] + [p for _, p in LOWERS_TO_ASCII]
TYPE_SETS = [[t] for t in ALL_TYPES] + [ALL_TYPES]


def want_columns(types, use_stemmer, targets, predictions):
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    return np.vstack(list(scorer.score_columns(list(targets), list(predictions),
                                               threads=2).values()))


def matrix_of(columns):
    return np.vstack(list(columns.values()))


def same(got, want):
    """Equal with ==, NaN where NaN."""
    assert got.shape == want.shape
    assert ((got == want) | (np.isnan(got) & np.isnan(want))).all()


# --- the engine -----------------------------------------------------------------------

def engine(types, use_stemmer=False):
    """An engine of the backend under test, as the pipeline makes them."""
    return pair_scorer(ScoringOptions(rouge_types=types, use_stemmer=use_stemmer)).new_engine()


@pytest.mark.kernel
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
@pytest.mark.parametrize("types", TYPE_SETS, ids=["+".join(t) for t in TYPE_SETS])
@pytest.mark.parametrize("string_type", ["string", "large_string", "string_view"])
def test_engine_equals_score_columns(types, use_stemmer, string_type):
    want = want_columns(types, use_stemmer, TARGETS, PREDICTIONS)
    t = pa.array(TARGETS, type=getattr(pa, string_type)())
    p = pa.array(PREDICTIONS, type=pa.string())
    got = np.zeros_like(want)
    cancel = _backend.engine.Cancel()
    assert engine(types, use_stemmer).score_arrow_into(t, p, 0, len(t), got, cancel)
    same(got, want)


@pytest.mark.kernel
def test_engine_nulls_are_nan_and_rows_outside_the_range_untouched():
    targets = ["the cat sat", None, "caf\u00e9 cat", "", "a b", "x"]
    predictions = ["the cat", "a", None, "b", "a b c", "y"]
    got = np.full((6, 6), 7.0)
    engine(["rouge1", "rougeL"]).score_arrow_into(
        pa.array(targets), pa.array(predictions, pa.large_string()), 1, 5, got,
        _backend.engine.Cancel())
    assert (got[:, [0, 5]] == 7.0).all()
    assert np.isnan(got[:, [1, 2]]).all()
    same(got[:, 3:5], want_columns(["rouge1", "rougeL"], False, targets[3:5],
                                   predictions[3:5]))


@pytest.mark.kernel
def test_engine_reads_sliced_arrays():
    # offsets that do not start at 0, and different ones on each side
    t = pa.array(["pad"] * 3 + TARGETS).slice(3, len(TARGETS))
    p = pa.array(["pad", "\u00e9"] + PREDICTIONS + ["tail"], pa.large_string()).slice(
        2, len(PREDICTIONS))
    want = want_columns(ALL_TYPES, True, TARGETS, PREDICTIONS)
    got = np.zeros_like(want)
    engine(ALL_TYPES, True).score_arrow_into(t, p, 0, len(t), got, _backend.engine.Cancel())
    same(got, want)


@pytest.mark.kernel
def test_engine_reads_string_views_inline_and_in_several_buffers():
    """string_view: texts of at most 12 bytes lie in the view itself, longer
    ones in one of several data buffers (pyarrow's concatenation keeps each
    chunk's buffer); lengths 0, 12 and 13 at the boundary; sliced; nulls."""
    texts = ["", "a", "the cat sat!", "the cat sat!!", "caf\u00e9 cat", "x" * 12, "y" * 13,
             None, "the cats were running.\nthey ran fast!"] + TEXTS
    other = list(reversed(texts))
    view = pa.concat_arrays([pa.array(texts[:5], pa.string_view()),
                             pa.array(texts[5:], pa.string_view())])
    assert len(view.buffers()) > 3            # two data buffers
    for t, p, lo in ((view, pa.array(other, pa.string_view()), 0),
                     (pa.array(["pad"] + texts, pa.string_view()).slice(1), pa.array(other), 0),
                     (view, pa.array(other, pa.large_string()), 3)):
        want = np.full((3 * len(ALL_TYPES), len(texts)), np.nan)
        rows = [i for i in range(lo, len(texts)) if texts[i] is not None and other[i] is not None]
        want[:, rows] = want_columns(ALL_TYPES, True, [texts[i] for i in rows],
                                     [other[i] for i in rows])
        got = np.full_like(want, np.nan)
        engine(ALL_TYPES, True).score_arrow_into(t, p, lo, len(texts), got,
                                                 _backend.engine.Cancel())
        same(got[:, lo:], want[:, lo:])


def views(rows, data=b"hello world, the cat sat on the mat"):
    """A string_view array of raw views: (length, buffer index, offset,
    prefix) per row, over one data buffer."""
    raw = b"".join(np.array([n], "<i4").tobytes() + (prefix or data[o:o + 4]).ljust(4, b"\0")
                   + np.array([i, o], "<i4").tobytes() for n, i, o, prefix in rows)
    return pa.Array.from_buffers(pa.string_view(), len(rows),
                                 [None, pa.py_buffer(raw), pa.py_buffer(data)])


@pytest.mark.kernel
@pytest.mark.parametrize("row", [(-1, 0, 0, None), (20, 1, 0, None), (20, -1, 0, None),
                                 (20, 0, 30, None), (20, 0, -2, None), (20, 0, 0, b"help")],
                         ids=["negative-length", "no-such-buffer", "negative-buffer",
                              "past-the-end", "negative-offset", "wrong-prefix"])
def test_malformed_string_views_are_an_error_not_a_crash(row):
    bad = views([(5, 0, 0, None), row])       # (pyarrow's cheap checks let these through)
    good = pa.array(["a", "b"])
    out = np.zeros((3, 2))
    for t, p in ((bad, good), (good, bad)):
        with pytest.raises(ValueError):
            engine(["rouge1"]).score_arrow_into(t, p, 0, 2, out, _backend.engine.Cancel())
    # the row before it alone is well formed
    engine(["rouge1"]).score_arrow_into(bad, good, 0, 1, out, _backend.engine.Cancel())


@pytest.mark.kernel
def test_a_null_string_views_contents_are_not_read():
    """A null row's view may hold anything (Arrow leaves it undefined): NaN,
    not an error, on both backends."""
    bad = views([(5, 0, 0, None), (20, 99, 1000, None)])
    nulls = pa.Array.from_buffers(pa.string_view(), 2, [pa.py_buffer(bytes([0b01])),
                                                         *bad.buffers()[1:]], null_count=1)
    out = np.zeros((3, 2))
    engine(["rouge1"]).score_arrow_into(nulls, pa.array(["hell", "x"]), 0, 2, out,
                                        _backend.engine.Cancel())
    assert np.isnan(out[:, 1]).all() and not np.isnan(out[:, 0]).any()


@pytest.mark.kernel
def test_engine_reports_texts_that_may_have_lost_letters():
    russian = TEXTS[-1]
    sus = []
    t = pa.array(["the cat", russian, None, "caf\u00e9"])
    p = pa.array([russian, "a", russian, "caf\u00e9"])
    engine(["rouge1"]).score_arrow_into(t, p, 0, 4, np.zeros((3, 4)),
                                        _backend.engine.Cancel(), sus)
    assert sus == [1, 2]        # row 0's prediction, row 1's target; not the null row


def malformed(offsets, data=b"hello world"):
    return pa.Array.from_buffers(
        pa.string(), len(offsets) - 1,
        [None, pa.py_buffer(np.array(offsets, dtype=np.int32).tobytes()), pa.py_buffer(data)])


@pytest.mark.kernel
@pytest.mark.parametrize("offsets", [[0, 5, 3], [0, -4, 5], [3, 9, 5], [0, 5, 4, 11]],
                         ids=["not-monotone", "negative", "past-the-end-then-back",
                              "backwards-inside"])
def test_malformed_offsets_are_an_error_not_a_crash(offsets):
    bad = malformed(offsets)        # (pyarrow's cheap checks let these through)
    good = pa.array(["a"] * len(bad))
    out = np.zeros((3, len(bad)))
    for t, p in ((bad, good), (good, bad)):
        with pytest.raises(ValueError):
            engine(["rouge1"]).score_arrow_into(t, p, 0, len(bad), out,
                                                _backend.engine.Cancel())
    with pytest.raises(ValueError):
        rouge_scorer.RougeScorer(["rouge1"]).score_columns(bad, good)


@pytest.mark.kernel
def test_engine_reads_arrays_without_rows():
    empty = pa.array(["a", "b"]).slice(2, 0)
    for t in (pa.array([], pa.string()), empty):
        assert engine(["rouge1"]).score_arrow_into(t, pa.array([], pa.large_string()), 0, 0,
                                                   np.zeros((3, 0)), _backend.engine.Cancel())


@pytest.mark.kernel
def test_engine_refuses_other_arrays_and_ranges():
    e = engine(["rouge1"])
    cancel = _backend.engine.Cancel()
    with pytest.raises(TypeError, match="targets"):
        e.score_arrow_into(pa.array([1, 2]), pa.array(["a", "b"]), 0, 2, np.zeros((3, 2)),
                           cancel)
    with pytest.raises(TypeError, match="predictions"):
        e.score_arrow_into(pa.array(["a"]), ["a"], 0, 1, np.zeros((3, 1)), cancel)
    with pytest.raises(ValueError, match="lo=0, hi=3"):
        e.score_arrow_into(pa.array(["a"] * 2), pa.array(["a"] * 3), 0, 3, np.zeros((3, 3)),
                           cancel)
    with pytest.raises(ValueError, match="out has shape"):
        e.score_arrow_into(pa.array(["a"]), pa.array(["a"]), 0, 1, np.zeros((6, 1)), cancel)


# --- the doors ---------------------------------------------------------------------------

def chunked(texts, cuts, string_type="string"):
    return pa.chunked_array([texts[a:b] for a, b in zip([0, *cuts], [*cuts, len(texts)])],
                            type=getattr(pa, string_type)())


@pytest.mark.kernel
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_score_columns_of_arrow_columns(use_stemmer):
    want = want_columns(ALL_TYPES, use_stemmer, TARGETS, PREDICTIONS)
    scorer = rouge_scorer.RougeScorer(ALL_TYPES, use_stemmer=use_stemmer)
    n = len(TARGETS)
    forms = [(pa.array(TARGETS), pa.array(PREDICTIONS, pa.large_string())),
             # chunks that end in different places, one of them empty
             (chunked(TARGETS, [5, 5, 100], "large_string"), chunked(PREDICTIONS, [7, 200])),
             (chunked(TARGETS, [n // 2]), pa.array(PREDICTIONS))]
    for targets, predictions in forms:
        for threads in (1, 2):
            same(matrix_of(scorer.score_columns(targets, predictions, threads=threads)), want)


@pytest.mark.kernel
def test_aligned_pieces_cover_every_row_once():
    a = string_chunks(chunked(TARGETS, [5, 5, 100]))
    b = string_chunks(chunked(PREDICTIONS, [7, 200]))
    pieces = aligned(a, b)
    assert all(len(x) == len(y) for x, y in pieces)
    assert [s for x, _ in pieces for s in x.to_pylist()] == TARGETS
    assert [s for _, y in pieces for s in y.to_pylist()] == PREDICTIONS


def test_score_frame_of_pyarrow_and_polars_tables():
    pl = need("polars")
    want = want_columns(ALL_TYPES, True, TARGETS, PREDICTIONS)
    table = pa.table({"candidate": chunked(PREDICTIONS, [9, 40]),
                      "references": chunked(TARGETS, [30], "large_string")})
    frames = [table, table.combine_chunks().to_batches()[0],
              pl.DataFrame({"candidate": PREDICTIONS, "references": TARGETS})]
    names = column_names(ALL_TYPES)
    for df in frames:
        got = rougekit.score_frame(df, ALL_TYPES, use_stemmer=True)
        column = (lambda name: got[name].to_numpy()) if isinstance(df, pl.DataFrame) \
            else (lambda name: got.column(name).to_numpy())
        same(np.vstack([column(name) for name in names]), want)


@pytest.mark.kernel
def test_score_frame_null_is_still_an_error_naming_the_row():
    table = pa.table({"candidate": ["a", None], "references": ["a", "b"]})
    with pytest.raises(ValueError, match="'candidate', row 1: missing value"):
        rougekit.score_frame(table, ["rouge1"])


def test_polars_expression_with_nulls_and_non_ascii():
    pl = need("polars")
    need("rougekit.polars")
    targets = TARGETS + [None, "a b"]
    predictions = PREDICTIONS + ["a", None]
    df = pl.DataFrame({"candidate": predictions, "reference": targets})
    expr = pl.col("candidate").rouge.score("reference", ALL_TYPES, use_stemmer=True)
    got = df.select(expr).unnest("candidate")
    names = column_names(ALL_TYPES)
    matrix = np.vstack([got[name].to_numpy() for name in names])
    n = len(TARGETS)
    same(matrix[:, :n], want_columns(ALL_TYPES, True, TARGETS, PREDICTIONS))
    assert got[n:].null_count().row(0) == (2,) * len(names)


def test_duckdb_functions_with_nulls_and_non_ascii():
    duckdb = need("duckdb")
    rkdb = need("rougekit.duckdb")
    targets = TARGETS + [None, "a b"]
    predictions = PREDICTIONS + ["a", None]
    con = duckdb.connect()
    rkdb.register(con, ALL_TYPES, use_stemmer=True)
    con.register("pairs", pa.table({"c": predictions, "r": targets, "i": range(len(targets))}))
    names = column_names(ALL_TYPES)
    rows = con.sql("SELECT rouge_scores(c, r) AS s, rouge_score(c, r, 'rougeL') AS l "
                   "FROM pairs ORDER BY i").fetchall()
    n = len(TARGETS)
    want = want_columns(ALL_TYPES, True, TARGETS, PREDICTIONS)
    same(np.array([[s[name] for name in names] for s, _ in rows[:n]]).T, want)
    same(np.array([[one[m] for m in MEASURES] for _, one in rows[:n]]).T,
         want[3 * ALL_TYPES.index("rougeL"):][:3])
    assert rows[n:] == [(None, None), (None, None)]


@pytest.mark.kernel
def test_letters_are_checked_as_for_lists():
    russian = TEXTS[-1]
    targets = ["the cat sat"] * 50 + [russian] * 3
    predictions = ["the cat"] * 53
    for column in (pa.array, lambda x: chunked(x, [51])):
        scorer = rouge_scorer.RougeScorer(["rouge1"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scorer.score_columns(column(targets), column(predictions), threads=2)
        found = [w for w in caught if issubclass(w.category, rougekit.TokenizationWarning)]
        assert len(found) == 1 and found[0].filename == __file__


@pytest.mark.kernel
def test_sentences_on_one_line_are_checked_as_for_lists():
    text = "The cat sat on the mat. Then it ran away. It came back later."
    for column in (list, pa.array):
        scorer = rouge_scorer.RougeScorer(["rougeLsum"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scorer.score_columns(column([text] * 3), column(["the cat"] * 3))
        assert [w.category for w in caught] == [rougekit.SentenceSplitWarning]
