"""rougekit.polars: ``pl.col(...).rouge.score(...)`` on real polars frames.

Every field of the struct equals, with ``==``, the column of the same name
that ``rougekit.score_frame`` adds for the same rows and the same request
(option fields, ``options=``, a flavor with its package's switches:
tests/_requests.py), whether the references are a String or a List(String)
column, in eager and lazy frames, on the streaming engine, in ``group_by``
and ``over``; score_frame itself is compared with rouge-score in
test_frames.py. Nulls give null structs; bad columns are one-line errors
naming the column.
"""
import pickle

import pytest

import rougekit
from _integrations import CANDIDATES, REFERENCES, need
from _requests import REQUESTS

pytestmark = [pytest.mark.backend, pytest.mark.threads,
              # the Japanese row: rouge-score's tokenizer keeps no letter of it
              pytest.mark.filterwarnings("ignore::rougekit.TokenizationWarning")]

pl = need("polars")
rkpl = pytest.importorskip("rougekit.polars")

# make_rows' texts (empty, "...", non-ASCII, rougeLsum's newlines, one to
# three references) and a few more of each kind
EXTRA = [("Größe 10\nüber alles", ["grosse 10 uber alles", "Größe\nüber"]),
         ("\u732b\u304c\u5ea7\u3063\u305f cat", ["cat \u732b"]),
         ("   \n\n  ", ["nothing"]), ("a a a b b\n\nb a", ["a b a b", "b a", "a"])]
CANDS = CANDIDATES + [c for c, _ in EXTRA]
LISTS = [[r] if isinstance(r, str) else list(r) for r in REFERENCES] + [r for _, r in EXTRA]


def frame(single=False):
    return pl.DataFrame({"candidate": CANDS,
                         "references": [r[0] for r in LISTS] if single else LISTS,
                         "group": [i % 3 for i in range(len(CANDS))]})


def expected(df, **request):
    """score_frame's score columns of ``df``, as lists of floats."""
    scored = rougekit.score_frame(df.drop("group"), **request)
    return {c: scored[c].to_list() for c in scored.columns if c not in df.columns}


def fields(struct_series):
    return {name: struct_series.struct.field(name).to_list()
            for name in struct_series.struct.fields}


@pytest.mark.parametrize("single", [False, True], ids=["list", "string"])
@pytest.mark.parametrize("name", REQUESTS)
def test_every_field_equals_score_frames_column(name, single):
    df = frame(single)
    expression = pl.col("candidate").rouge.score(pl.col("references"), **REQUESTS[name])
    want = expected(df, **REQUESTS[name])
    eager = df.select(expression).to_series()
    assert eager.name == "candidate"
    assert fields(eager) == want            # names, order and every float
    lazy = df.lazy().with_columns(expression.alias("scores"))
    assert fields(lazy.collect()["scores"]) == want
    assert fields(lazy.collect(engine="streaming")["scores"]) == want


def test_the_fields_are_score_frames_column_names_in_order():
    df = frame().head(3)
    got = df.select(pl.col("candidate").rouge.score("references", ["rougeLsum", "rouge3"]))
    assert got.schema["candidate"] == pl.Struct(
        [pl.Field(n, pl.Float64) for n in rougekit.frames.column_names(["rougeLsum", "rouge3"])])
    unnested = df.with_columns(
        pl.col("candidate").rouge.score("references", ["rouge1"]).struct.unnest())
    assert unnested.columns == ["candidate", "references", "group", "rouge1_precision",
                                "rouge1_recall", "rouge1_fmeasure"]


def test_group_by_and_over_give_each_rows_scores():
    df = frame()
    request = dict(rouge_types=["rouge1", "rougeL"], use_stemmer=True)
    want = expected(df, **request)
    expression = pl.col("candidate").rouge.score("references", **request)
    over = df.select(expression.over("group"))["candidate"]
    assert fields(over) == want
    grouped = df.with_row_index("row").group_by("group").agg(
        pl.col("row"), expression.alias("scores")).explode("row", "scores").sort("row")
    assert fields(grouped["scores"]) == want
    # an aggregation of the scores in each group, as polars users write it: the
    # same means as polars' of score_frame's column
    means = df.group_by("group", maintain_order=True).agg(
        expression.struct.field("rougeL_fmeasure").mean())
    want_means = df.with_columns(pl.Series("rougeL_fmeasure", want["rougeL_fmeasure"])) \
        .group_by("group", maintain_order=True).agg(pl.col("rougeL_fmeasure").mean())
    assert means.rows() == want_means.rows()


def test_batches_of_a_chunked_frame_and_many_batches_score_alike():
    """A frame of several chunks, and the streaming engine on a lazy
    concatenation, hand the function more than one batch: the rows' scores
    do not depend on how they were cut."""
    df = frame()
    halves = pl.concat([df.head(100), df.slice(100), df.head(0)], rechunk=False)
    assert halves.n_chunks() > 1
    expression = pl.col("candidate").rouge.score("references", use_stemmer=True)
    want = expected(df, use_stemmer=True)
    assert fields(halves.select(expression).to_series()) == want
    lazy = pl.concat([df.slice(i, 20).lazy() for i in range(0, len(df), 20)])
    assert fields(lazy.select(expression).collect(engine="streaming").to_series()) == want


def test_a_lazy_query_is_serialized_and_scores_after():
    import io
    lazy = frame().lazy().select(pl.col("candidate").rouge.score("references", ["rouge2"]))
    again = pl.LazyFrame.deserialize(io.BytesIO(lazy.serialize()))
    assert fields(again.collect().to_series()) == expected(frame(), rouge_types=["rouge2"])
    expression = pl.col("candidate").rouge.score("references", ["rouge2"])
    assert pickle.loads(pickle.dumps(expression)).meta.output_name() == "candidate"


# --- nulls --------------------------------------------------------------------------

def test_a_null_candidate_or_references_value_gives_a_null_struct():
    df = pl.DataFrame({"candidate": ["the cat sat", None, "a dog", "x y"],
                       "references": [["the cat"], ["a"], None, ["x"]]})
    got = df.select(pl.col("candidate").rouge.score("references", ["rouge1"]))["candidate"]
    assert got.is_null().to_list() == [False, True, True, False]
    assert got.struct.field("rouge1_fmeasure").to_list()[1:3] == [None, None]
    kept = df.filter(pl.col("candidate").is_not_null() & pl.col("references").is_not_null())
    assert [x for x in got.struct.field("rouge1_fmeasure").to_list() if x is not None] == \
        expected(kept.with_columns(group=0), rouge_types=["rouge1"])["rouge1_fmeasure"]
    nothing = pl.DataFrame({"candidate": [None, None], "references": ["a", "b"]})
    assert nothing.select(pl.col("candidate").rouge.score("references"))[
        "candidate"].null_count() == 2


@pytest.mark.parametrize("references,message", [
    ([["a"], ["b", None]], r"^column 'references', row 1 of a batch of 2 \(candidate 'y'\): "
                           r"a null among the references \(drop the nulls first"),
    ([["a"], []], r"^column 'references', row 1 of a batch of 2 \(candidate 'y'\): an empty "
                  r"list of references; each row needs at least one$"),
])
def test_a_null_inside_a_list_or_an_empty_list_is_an_error_naming_the_row(references, message):
    df = pl.DataFrame({"candidate": ["x", "y"], "references": references},
                      schema={"candidate": pl.String, "references": pl.List(pl.String)})
    with pytest.raises(ValueError) as error:
        df.select(pl.col("candidate").rouge.score("references"))
    first = str(error.value).splitlines()[0]
    assert __import__("re").search(message, first), first


# --- bad columns, bad options -------------------------------------------------------------

@pytest.mark.parametrize("data,message", [
    ({"candidate": [1, 2], "references": ["a", "b"]},
     "column 'candidate' holds Int64: the candidates must be strings (String)"),
    ({"candidate": ["a", "b"], "references": [1.5, 2.0]},
     "column 'references' holds Float64: the references must be strings or lists of "
     "strings (String or List(String))"),
    ({"candidate": ["a", "b"], "references": [[1], [2]]},
     "column 'references' holds List(Int64): the references must be strings or lists of "
     "strings (String or List(String))"),
])
def test_a_column_of_another_type_is_a_type_error_naming_it(data, message):
    with pytest.raises(TypeError) as error:
        pl.DataFrame(data).select(pl.col("candidate").rouge.score("references"))
    assert str(error.value).splitlines()[0] == message


def test_categorical_and_array_columns_are_read_as_their_strings():
    df = frame().head(30)
    want = expected(df, rouge_types=["rouge1"])
    cat = df.with_columns(pl.col("candidate").cast(pl.Categorical))
    assert fields(cat.select(pl.col("candidate").rouge.score("references", ["rouge1"]))
                  .to_series()) == want
    pairs = pl.DataFrame({"candidate": ["a b", "c"], "references": [["a", "b"], ["c", "d"]]},
                         schema={"candidate": pl.String, "references": pl.Array(pl.String, 2)})
    assert fields(pairs.select(pl.col("candidate").rouge.score("references", ["rouge1"]))
                  .to_series()) == expected(pairs.with_columns(
                      pl.col("references").cast(pl.List(pl.String)), group=0),
                      rouge_types=["rouge1"])


def test_a_column_that_is_not_there_is_polars_error_naming_it():
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match='"refs"'):
        frame().select(pl.col("candidate").rouge.score("refs"))


def test_options_are_checked_when_the_expression_is_built():
    with pytest.raises(ValueError, match=r"^Expr.rouge.score does not take bootstrap=: "):
        pl.col("c").rouge.score("r", bootstrap=1000)
    with pytest.raises(TypeError, match=r"^Expr.rouge.score\(\) got an unexpected keyword "
                                        r"argument 'use_stemer'$"):
        pl.col("c").rouge.score("r", use_stemer=True)
    with pytest.raises(ValueError, match="unknown rouge type 'rougeX'"):
        pl.col("c").rouge.score("r", ["rougeX"])
    with pytest.raises(ValueError, match="^Expr.rouge.score does not take flavor "
                                         "'evaluate''s use_aggregator="):
        pl.col("c").rouge.score("r", flavor="evaluate", use_aggregator=False)
    with pytest.raises(TypeError, match="^references must be a polars expression or a "
                                        "column name, not int$"):
        pl.col("c").rouge.score(3)
    with pytest.raises(ValueError, match="threads"):
        pl.col("c").rouge.score("r", threads=0)


def test_the_signature_shows_the_options_and_polars_is_the_real_package():
    import inspect
    params = inspect.signature(rkpl.RougeNamespace.score).parameters
    assert {"references", "rouge_types", "options", "flavor", "threads", "use_stemmer",
            "multi_ref"} <= set(params) and "bootstrap" not in params
    # `import polars` inside rougekit/polars.py is the package, not this module
    assert rkpl.pl is pl and rkpl.pl.__name__ == "polars"
