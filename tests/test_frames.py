"""rougekit.score_frame on real pandas, polars and pyarrow tables.

Each row's scores equal rouge-score's score() of the pair when the row has
one reference (0.0 for its int 0), and score_corpus's per-item scores in
general (every multi_ref policy; score_corpus itself is compared with
rouge-score in test_corpus.py); Parquet's list<string> columns come back
as each library reads them; errors name the column and the row; importing
rougekit imports none of these libraries.
"""
import doctest
import json
import subprocess
import sys

import numpy as np
import pytest
from rouge_score import rouge_scorer as ref_rouge_scorer

import rougekit
from _integrations import need
from rougekit import frames
from rougekit.corpus import MULTI_REF_POLICIES, score_corpus

pd = need("pandas")
pl = need("polars")
pa = need("pyarrow")
pq = need("pyarrow.parquet")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
MEASURES = ("precision", "recall", "fmeasure")

CANDIDATES = ["The cat sat on the mat.\nIt was happy.", "Police killed the gunman.",
              "a b c d", "", "...", "caf\u00e9 na\u00efve", "running ran runs",
              "the the the", "x"]
REFERENCES = [["The cat is on the mat.\nIt is happy.", "A cat was on a mat."],
              "The gunman was killed by police.",
              ["d c b a", "a b", "a b c d e"], "nothing here", "!!", ["caf\u00e9"],
              ["runner running", "ran"], "the", ["", "x"]]


def rows():
    """The test table as a dict of columns (references as lists)."""
    return {"candidate": CANDIDATES,
            "references": [[r] if isinstance(r, str) else r for r in REFERENCES],
            "id": list(range(len(CANDIDATES)))}


def expected(types=TYPES, **options):
    result = score_corpus(CANDIDATES, REFERENCES, types, **options)
    return {f"{t}_{m}": [getattr(item[t], m) for item in result.per_item]
            for t in types for m in MEASURES}


def columns_of(table):
    """{name: list of floats} of a pandas, polars or pyarrow table."""
    if isinstance(table, pd.DataFrame):
        return {c: table[c].tolist() for c in table.columns}
    if isinstance(table, pl.DataFrame):
        return {c: table[c].to_list() for c in table.columns}
    return {c: table.column(c).to_pylist() for c in table.schema.names}


def make(kind, data):
    if kind == "pandas":
        return pd.DataFrame(data)
    if kind == "polars":
        return pl.DataFrame(data)
    table = pa.table(data)
    return table if kind == "arrow-table" else table.to_batches()[0]


KINDS = ["pandas", "polars", "arrow-table", "arrow-batch"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_single_reference_rows_equal_rouge_score(kind, use_stemmer):
    data = {"candidate": CANDIDATES,
            "references": [r if isinstance(r, str) else r[0] for r in REFERENCES]}
    got = columns_of(frames.score_frame(make(kind, data), TYPES, use_stemmer=use_stemmer))
    reference = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    for i, (cand, ref) in enumerate(zip(data["candidate"], data["references"])):
        for t, score in reference.score(ref, cand).items():
            for m in MEASURES:
                value = got[f"{t}_{m}"][i]
                assert value == float(getattr(score, m)) and type(value) is float


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("multi_ref", MULTI_REF_POLICIES)
def test_every_policy_equals_score_corpus(kind, multi_ref):
    got = columns_of(frames.score_frame(make(kind, rows()), TYPES, multi_ref=multi_ref))
    want = expected(multi_ref=multi_ref)
    assert {k: got[k] for k in want} == want


@pytest.mark.parametrize("kind", KINDS)
def test_input_columns_kept_then_score_columns_in_order(kind):
    table = make(kind, rows())
    out = frames.score_frame(table, ["rougeL", "rouge1"])
    got = columns_of(out)
    assert list(got) == ["candidate", "references", "id"] + frames.column_names(
        ["rougeL", "rouge1"])
    assert got["id"] == list(range(len(CANDIDATES)))
    assert type(out) is type(table)
    assert list(columns_of(table)) == ["candidate", "references", "id"]   # input unchanged


def test_pandas_index_and_dtypes():
    df = pd.DataFrame(rows(), index=pd.Index([f"r{i}" for i in range(len(CANDIDATES))],
                                             name="key"))
    out = rougekit.score_frame(df, ["rouge1"])
    assert out.index.equals(df.index)
    assert [str(t) for t in out.dtypes.iloc[-3:]] == ["float64"] * 3
    assert out["rouge1_fmeasure"].tolist() == expected(["rouge1"])["rouge1_fmeasure"]


def test_arrow_schema_metadata_and_types():
    table = pa.table(rows()).replace_schema_metadata({"source": "test"})
    out = rougekit.score_frame(table, ["rouge2"])
    assert out.schema.metadata == {b"source": b"test"}
    assert [str(out.schema.field(n).type) for n in frames.column_names(["rouge2"])] == \
        ["double"] * 3


def test_parquet_list_of_strings_as_each_library_reads_it(tmp_path):
    path = tmp_path / "pairs.parquet"
    pq.write_table(pa.table(rows()), path)
    want = expected()
    readers = {
        "pyarrow": lambda: pq.read_table(path),                       # list<string>
        "pandas": lambda: pd.read_parquet(path),                       # numpy arrays
        "pandas-arrow": lambda: pd.read_parquet(path, dtype_backend="pyarrow"),
        "polars": lambda: pl.read_parquet(path),                       # list[str]
    }
    for name, read in readers.items():
        table = read()
        got = columns_of(frames.score_frame(table, TYPES))
        assert {k: got[k] for k in want} == want, name
    pdf = pd.read_parquet(path)
    assert isinstance(pdf["references"].iloc[0], np.ndarray)        # what is tested


def test_large_string_and_large_list_columns():
    table = pa.table({"candidate": pa.array(CANDIDATES, pa.large_string()),
                      "references": pa.array(rows()["references"],
                                             pa.large_list(pa.large_string()))})
    got = columns_of(rougekit.score_frame(table, TYPES))
    want = expected()
    assert {k: got[k] for k in want} == want


def test_other_options_reach_the_scorer():
    data = {"cand": ["The cats ran", "a-b c"], "refs": ["the cat runs", ["A b", "c"]]}
    got = columns_of(rougekit.score_frame(pd.DataFrame(data), ["rouge1"], candidate="cand",
                                          references="refs", tokenizer="whitespace",
                                          multi_ref="mean", threads=1))
    result = score_corpus(data["cand"], data["refs"], ["rouge1"], tokenizer="whitespace",
                          multi_ref="mean")
    assert got["rouge1_recall"] == [item["rouge1"].recall for item in result.per_item]


@pytest.mark.parametrize("kind", KINDS)
def test_no_rows(kind):
    schema = pa.schema([("candidate", pa.string()), ("references", pa.list_(pa.string()))])
    empty = {"pandas": lambda: pd.DataFrame({"candidate": [], "references": []}),
             "polars": lambda: pl.DataFrame(schema={"candidate": pl.String,
                                                    "references": pl.List(pl.String)}),
             "arrow-table": lambda: schema.empty_table(),
             "arrow-batch": lambda: pa.RecordBatch.from_pylist([], schema=schema)}[kind]()
    got = columns_of(frames.score_frame(empty, ["rouge1"]))
    assert got == {"candidate": [], "references": [], "rouge1_precision": [],
                   "rouge1_recall": [], "rouge1_fmeasure": []}


@pytest.mark.parametrize("data,error,fragment", [
    ({"candidate": ["a", None], "references": ["a", "b"]}, ValueError,
     "column 'candidate', row 1: missing value"),
    ({"candidate": ["a", 3], "references": ["a", "b"]}, TypeError,
     "column 'candidate', row 1: expected a str, not int"),
    ({"candidate": ["a", "b"], "references": ["a", None]}, ValueError,
     "column 'references', row 1: missing value"),
    ({"candidate": ["a", "b"], "references": [["a"], []]}, ValueError,
     "column 'references', row 1: an empty list of references"),
    ({"candidate": ["a", "b"], "references": [["a"], ["b", None]]}, ValueError,
     r"^column 'references', row 1: a null among the references \(drop the nulls first "
     r"to score the others\)$"),
    ({"candidate": ["a", "b"], "references": [["a"], ["b", 7]]}, TypeError,
     "column 'references', row 1: expected a str or a non-empty list of str, not int"),
])
def test_bad_values_name_the_column_and_row(data, error, fragment):
    with pytest.raises(error, match=fragment):
        rougekit.score_frame(pd.DataFrame(data), ["rouge1"])


def test_missing_values_in_arrow_and_polars():
    table = pa.table({"candidate": ["a", None], "references": [["a"], ["b"]]})
    with pytest.raises(ValueError, match="column 'candidate', row 1: missing value"):
        rougekit.score_frame(table, ["rouge1"])
    df = pl.DataFrame({"candidate": ["a", "b"], "references": [["a"], None]})
    with pytest.raises(ValueError, match="column 'references', row 1: missing value"):
        rougekit.score_frame(df, ["rouge1"])
    nan = pd.DataFrame({"candidate": ["a", float("nan")], "references": ["a", "b"]})
    with pytest.raises(ValueError, match="row 1: missing value"):
        rougekit.score_frame(nan, ["rouge1"])


@pytest.mark.parametrize("kwargs,error,fragment", [
    (dict(candidate="text"), ValueError,
     r"candidate='text': the table has no such column \(its columns: 'candidate', "),
    (dict(references="refs"), ValueError, "references='refs': the table has no such column"),
    (dict(candidate=1), TypeError, "candidate must be a column name"),
    (dict(rouge_types=["rougeX"]), ValueError, "unknown rouge type 'rougeX'"),
    (dict(multi_ref="best"), ValueError, "unknown multi_ref policy 'best'"),
    (dict(threads=0), ValueError, "threads must be >= 1"),
    (dict(tokenizer="nope"), ValueError, "tokenizer"),
])
def test_bad_arguments_name_the_argument(kwargs, error, fragment):
    with pytest.raises(error, match=fragment):
        rougekit.score_frame(pd.DataFrame(rows()), **kwargs)


def test_a_table_that_has_a_score_column_already():
    scored = rougekit.score_frame(pd.DataFrame(rows()), ["rouge1"])
    with pytest.raises(ValueError, match="already has column 'rouge1_precision'"):
        rougekit.score_frame(scored, ["rouge1"])
    assert "rougeL_recall" in rougekit.score_frame(scored, ["rougeL"]).columns


def test_not_a_table():
    with pytest.raises(TypeError, match="df must be a pandas or polars DataFrame or a "
                                        "pyarrow Table or RecordBatch, not builtins.dict"):
        rougekit.score_frame(rows())
    with pytest.raises(TypeError, match="collect"):
        rougekit.score_frame(pl.DataFrame(rows()).lazy())


def test_import_rougekit_imports_no_table_library():
    code = ("import sys, json, rougekit, rougekit.frames, rougekit.corpus, rougekit.cli\n"
            "print(json.dumps(sorted(m for m in ('pandas', 'polars', 'pyarrow', 'dask', "
            "'pyspark', 'distributed') if m in sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def test_docstring_examples():
    assert doctest.testmod(frames).failed == 0
