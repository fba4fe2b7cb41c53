"""rougekit.duckdb: SQL functions on a real DuckDB connection.

``rouge_scores(candidate, refs)`` gives, field for field, the columns
that ``rougekit.score_frame`` adds for the same rows and the same request
(option fields, ``options=``, a flavor with its package's switches:
tests/_requests.py), equal with ``==``; ``rouge_score(candidate, refs,
type)`` each type's three of them. References are a VARCHAR or a VARCHAR[]
column, from a DuckDB table or a Parquet file, over more than one of
DuckDB's vectors. NULLs give NULL; bad arguments are one-line errors.
"""
import re

import pytest

import rougekit
from _integrations import CANDIDATES, REFERENCES, make_rows, need
from _requests import REQUESTS

pytestmark = [pytest.mark.backend, pytest.mark.threads,
              pytest.mark.filterwarnings("ignore::rougekit.TokenizationWarning")]

duckdb = need("duckdb")
pa = need("pyarrow")
pq = need("pyarrow.parquet")
rkdb = pytest.importorskip("rougekit.duckdb")

EXTRA = [("Größe 10\nüber alles", ["grosse 10 uber alles", "Größe\nüber"]),
         ("   \n\n  ", ["nothing"]), ("a a a b b\n\nb a", ["a b a b", "b a", "a"])]
CANDS = CANDIDATES + [c for c, _ in EXTRA]
LISTS = [[r] if isinstance(r, str) else list(r) for r in REFERENCES] + [r for _, r in EXTRA]
MEASURES = ("precision", "recall", "fmeasure")


def table(single=False, cands=CANDS, lists=LISTS):
    # "references" is an SQL keyword: the column is "refs"
    return pa.table({"candidate": cands,
                     "refs": [r[0] for r in lists] if single else lists})


def expected(arrow, **request):
    scored = rougekit.score_frame(arrow, references="refs", **request)
    return {c: scored.column(c).to_pylist() for c in scored.schema.names
            if c not in arrow.schema.names}


def connect(arrow=None, **request):
    con = duckdb.connect()
    options = rkdb.register(con, **request)
    if arrow is not None:
        con.register("arrow_pairs", arrow)
        con.execute("CREATE TABLE pairs AS SELECT * FROM arrow_pairs")
    return con, options


def struct_columns(con, query):
    column = con.sql(query).to_arrow_table().column(0).combine_chunks()
    return {name: column.field(name).to_pylist() for name in
            [column.type.field(i).name for i in range(column.type.num_fields)]}


@pytest.mark.parametrize("single", [False, True], ids=["list", "string"])
@pytest.mark.parametrize("name", REQUESTS)
def test_rouge_scores_and_rouge_score_equal_score_frames_columns(name, single):
    arrow = table(single)
    want = expected(arrow, **REQUESTS[name])
    con, options = connect(arrow, **REQUESTS[name])
    assert struct_columns(con, "SELECT rouge_scores(candidate, refs) FROM pairs") \
        == want
    for rouge_type in options.rouge_types:
        got = struct_columns(con, "SELECT rouge_score(candidate, refs, "
                                  f"'{rouge_type}') FROM pairs")
        assert got == {m: want[f"{rouge_type}_{m}"] for m in MEASURES}
    assert options == rougekit.RougeScorer(**REQUESTS[name]).options


def test_a_parquet_file_of_many_vectors_is_scored_in_sql(tmp_path):
    """More rows than one DuckDB vector (2,048), read from Parquet by DuckDB
    on its threads; the struct's fields and the SQL forms users write."""
    cands, refs = make_rows(n=5000, seed=11)
    lists = [[r] if isinstance(r, str) else list(r) for r in refs]
    arrow = table(False, cands, lists)
    path = tmp_path / "outputs.parquet"
    pq.write_table(arrow, path)
    request = dict(rouge_types=["rouge1", "rougeL"], use_stemmer=True, multi_ref="mean")
    want = expected(arrow, **request)
    con, _ = connect(**request)
    con.execute("SET threads = 2")
    got = con.sql(f"SELECT rouge_score(candidate, refs, 'rougeL').fmeasure AS f "
                  f"FROM '{path}'").to_arrow_table().column("f").to_pylist()
    assert got == want["rougeL_fmeasure"]
    unnested = con.sql(f"SELECT unnest(rouge_scores(candidate, refs)) FROM '{path}'")
    assert unnested.columns == list(want)
    assert {c: unnested.to_arrow_table().column(c).to_pylist() for c in want} == want


def test_the_rouge_type_may_be_a_column():
    arrow = table()
    want = expected(arrow, rouge_types=["rouge1", "rougeLsum"])
    con, _ = connect(arrow)
    rows = con.sql("SELECT rouge_score(candidate, refs, t).recall FROM pairs, "
                   "(VALUES ('rouge1'), ('rougeLsum'), (NULL)) AS types(t)").fetchall()
    assert sorted(r[0] for r in rows if r[0] is not None) == \
        sorted(want["rouge1_recall"] + want["rougeLsum_recall"])
    assert sum(r[0] is None for r in rows) == len(CANDS)


def test_prefixes_give_several_sets_of_options_and_registering_again_replaces():
    arrow = table()
    con, _ = connect(arrow, rouge_types=["rouge1"])
    rkdb.register(con, ["rouge1"], prefix="rouge_stem", use_stemmer=True)
    plain = struct_columns(con, "SELECT rouge_scores(candidate, refs) FROM pairs")
    stem = struct_columns(con, "SELECT rouge_stem_scores(candidate, refs) FROM pairs")
    assert plain == expected(arrow, rouge_types=["rouge1"])
    assert stem == expected(arrow, rouge_types=["rouge1"], use_stemmer=True)
    assert plain != stem
    rkdb.register(con, ["rouge2"])
    assert struct_columns(con, "SELECT rouge_scores(candidate, refs) FROM pairs") == \
        expected(arrow, rouge_types=["rouge2"])


# --- NULLs ----------------------------------------------------------------------------

def test_null_candidates_and_references_give_null():
    con, _ = connect(rouge_types=["rouge1"])
    rows = con.sql("""
        SELECT rouge_score(c, r, 'rouge1').fmeasure, rouge_scores(c, r) IS NULL,
               rouge_score(c, r, NULL) IS NULL
        FROM (VALUES ('a b', 'a'), (NULL, 'a'), ('a', NULL)) AS t(c, r)""").fetchall()
    assert rows == [(2 / 3, False, True), (None, True, True), (None, True, True)]
    lists = con.sql("SELECT rouge_score('a b', NULL::VARCHAR[], 'rouge1')").fetchall()
    assert lists == [(None,)]


@pytest.mark.parametrize("references,message", [
    ("['a', NULL]", r"rouge_score: the references of the candidate 'the cat': a null "
                    r"among the references \(drop the nulls first to score the others\)$"),
    ("[]::VARCHAR[]", r"rouge_score: the references of the candidate 'the cat': an empty "
                      r"list of references; each row needs at least one$"),
])
def test_a_null_inside_a_list_or_an_empty_list_is_a_one_line_error(references, message):
    con, _ = connect()
    with pytest.raises(duckdb.Error) as error:
        con.sql(f"SELECT rouge_score('the cat', {references}, 'rouge1')").fetchall()
    # our message is the first line (DuckDB 1.x adds the Python traceback under it)
    text = str(error.value).splitlines()[0]
    assert re.search(message, text), text


# --- bad arguments ------------------------------------------------------------------------

@pytest.mark.parametrize("query,expected_start", [
    ("SELECT rouge_score(c, 'a', 'rouge1') FROM (VALUES (1)) t(c)",
     "Binder Error: No function matches the given name and argument types "
     "'rouge_score_texts(INTEGER, VARCHAR, VARCHAR[], STRING_LITERAL)'"),
    ("SELECT rouge_scores('a', r) FROM (VALUES ([1, 2])) t(r)",
     "Conversion Error: Type INTEGER[] can't be cast as UNION(one VARCHAR, many VARCHAR[])"),
    ("SELECT rouge_scores('a', r) FROM (VALUES (3)) t(r)",
     "Conversion Error: Type INTEGER can't be cast as UNION(one VARCHAR, many VARCHAR[])"),
    ("SELECT rouge_scores('a', refs) FROM (VALUES (1)) t(r)",
     'Binder Error: Referenced column "refs" not found'),
])
def test_arguments_of_another_type_or_missing_columns_are_duckdbs_errors(query,
                                                                         expected_start):
    con, _ = connect()
    with pytest.raises(duckdb.Error) as error:
        con.sql(query).fetchall()
    assert str(error.value).startswith(expected_start), str(error.value)


def test_an_unknown_rouge_type_is_a_one_line_error():
    con, _ = connect()
    with pytest.raises(duckdb.Error) as error:
        con.sql("SELECT rouge_score('a', 'a', 'rougeX')").fetchall()
    assert str(error.value).splitlines()[0].endswith(
        "ValueError: rouge_score's third argument: unknown rouge type 'rougeX'; valid types "
        "are rouge1 to rouge9, rougeL and rougeLsum"), str(error.value)


def test_register_checks_its_arguments_and_the_options():
    con = duckdb.connect()
    with pytest.raises(ValueError, match=r"^rougekit.duckdb.register does not take "
                                         r"bootstrap=: "):
        rkdb.register(con, bootstrap=1000)
    with pytest.raises(TypeError, match=r"^rougekit.duckdb.register\(\) got an unexpected "
                                        r"keyword argument 'use_stemer'$"):
        rkdb.register(con, use_stemer=True)
    with pytest.raises(TypeError, match=r"^con must be a duckdb connection \(duckdb.connect"
                                        r"\(\)\), not builtins.str$"):
        rkdb.register("db.duckdb")
    with pytest.raises(ValueError, match=r"^prefix must be an SQL identifier \(letters, "
                                         r"digits, _\), not 'rouge-1'$"):
        rkdb.register(con, prefix="rouge-1")
    with pytest.raises(ValueError, match="unknown rouge type 'rougeX'"):
        rkdb.register(con, ["rougeX"])
    with pytest.raises(ValueError, match="threads"):
        rkdb.register(con, threads=0)
    assert not con.sql("SELECT function_name FROM duckdb_functions() WHERE function_name "
                       "LIKE 'rouge%'").fetchall()     # nothing half-registered
    options = rkdb.register(con, flavor="rouge-score", use_stemmer=True)
    assert options.signature() == rougekit.RougeScorer(flavor="rouge-score",
                                                       use_stemmer=True).signature


def test_one_vector_may_hold_both_kinds_of_references():
    con, _ = connect(rouge_types=["rouge1"])
    union = rkdb.REFERENCES_TYPE
    rows = con.sql(f"""
        SELECT rouge_score(c, CASE WHEN k THEN union_value(one := r)::{union}
                                   ELSE union_value(many := [r, 'b c'])::{union} END,
                           'rouge1').fmeasure
        FROM (VALUES ('a b', 'a', true), ('b c', 'a', false), ('x', NULL, true))
             AS t(c, r, k)""").fetchall()
    one = rougekit.score_frame(pa.table({"c": ["a b"], "r": ["a"]}), ["rouge1"], "c", "r")
    assert rows == [(one.column("rouge1_fmeasure")[0].as_py(),), (1.0,), (None,)]
