"""rougekit.spark on a real Spark session (local[2], Arrow record batches of
50 rows so that partitions hold several): per-row columns equal
rougekit.score_frame in this process, and corpus results equal
rougekit.score_corpus on the rows in collect() order, with ==; max_similarity
equals RougeIndex.max row by row, the index broadcast."""
import os
import sys

import pytest

import rougekit
from _contamination import (
    ShippedWords,
    against_texts,
    expected_max,
    loads_per_process,
    rows_to_check,
)
from _integrations import CANDIDATES, REFERENCES, REQUIRED, TYPES, need

pd = need("pandas")
pa = need("pyarrow")
pq = need("pyarrow.parquet")
need("pyspark")
rspark = need("rougekit.spark")
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

LIST_REFERENCES = [[r] if isinstance(r, str) else r for r in REFERENCES]


@pytest.fixture(scope="module")
def spark():
    # The executors' Python is this one (and sees ROUGEKIT_PURE_PYTHON, if set).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    try:
        session = (SparkSession.builder.master("local[2]").appName("rougekit-tests")
                   .config("spark.ui.enabled", "false")
                   .config("spark.sql.shuffle.partitions", "2")
                   .config("spark.sql.execution.arrow.maxRecordsPerBatch", "50")
                   .getOrCreate())
    except Exception as exc:      # no Java, typically
        if REQUIRED:
            raise
        pytest.skip(f"no Spark session here: {exc}")
    # the executors' Python imports the max_similarity tests' tokenizer
    session.sparkContext.addPyFile(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                "_contamination.py"))
    yield session
    session.stop()


SCHEMA = T.StructType([T.StructField("candidate", T.StringType()),
                       T.StructField("references", T.ArrayType(T.StringType())),
                       T.StructField("id", T.LongType())])


def frame(spark, references=LIST_REFERENCES, schema=SCHEMA):
    rows = list(zip(CANDIDATES, references, range(len(CANDIDATES))))
    return spark.createDataFrame(rows, schema=schema)


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_score_frame_equals_in_process(spark, use_stemmer):
    sdf = frame(spark)
    scored = rspark.score_frame(sdf, TYPES, use_stemmer=use_stemmer)
    names = rougekit.frames.column_names(TYPES)
    assert scored.columns == ["candidate", "references", "id"] + names
    assert all(scored.schema[n].dataType == T.DoubleType() for n in names)
    got = sorted((row["id"], [row[n] for n in names]) for row in scored.collect())
    want = rougekit.score_frame(pd.DataFrame({"candidate": CANDIDATES,
                                              "references": LIST_REFERENCES}),
                                TYPES, use_stemmer=use_stemmer)
    assert [values for _, values in got] == want[names].values.tolist()


@pytest.mark.parametrize("multi_ref,options", [
    ("max", dict(bootstrap=200, seed=5)),
    ("pooled", dict(use_stemmer=True)),
    ("jackknife", dict(bootstrap=50, seed=1, confidence=0.8)),
    ("mean", dict(lang="hindi", use_stemmer=True, sentence_split="sentencex")),
], ids=["max", "pooled", "jackknife", "lang-sentencex"])
def test_score_corpus_equals_in_process(spark, multi_ref, options):
    if "sentence_split" in options:
        need("sentencex")
    sdf = frame(spark)
    assert sdf.rdd.getNumPartitions() == 2
    got = rspark.score_corpus(sdf, TYPES, multi_ref=multi_ref, per_item=True, **options)
    rows = sdf.collect()
    want = rougekit.score_corpus([r["candidate"] for r in rows],
                                 [r["references"] for r in rows], TYPES,
                                 multi_ref=multi_ref, **options)
    assert got == want
    lean = rspark.score_corpus(sdf, TYPES, multi_ref=multi_ref, **options)
    assert lean.per_item is None and lean.scores == want.scores and \
        lean.intervals == want.intervals


def test_options_object_equals_keywords(spark):
    """options=ScoringOptions(...) reaches the executors as the keywords do."""
    kwargs = dict(rouge_types=TYPES, use_stemmer=True, multi_ref="pooled")
    options = rougekit.ScoringOptions(**kwargs)
    sdf = frame(spark)
    got = rspark.score_corpus(sdf, options=options, per_item=True)
    assert got == rspark.score_corpus(sdf, per_item=True, **kwargs)
    names = [f"{t}_{m}" for t in TYPES for m in ("precision", "recall", "fmeasure")]
    by_options = rspark.score_frame(sdf, options=options).select(names).collect()
    by_keywords = rspark.score_frame(sdf, **kwargs).select(names).collect()
    assert by_options == by_keywords


def test_string_references_and_parquet(spark, tmp_path):
    single = [r if isinstance(r, str) else r[0] for r in REFERENCES]
    schema = T.StructType([T.StructField("candidate", T.StringType()),
                           T.StructField("references", T.StringType()),
                           T.StructField("id", T.LongType())])
    got = rspark.score_corpus(frame(spark, single, schema), ["rougeL"], per_item=True)
    assert got == rougekit.score_corpus(CANDIDATES, single, ["rougeL"])
    path = str(tmp_path / "pairs.parquet")
    pq.write_table(pa.table({"candidate": CANDIDATES, "references": LIST_REFERENCES}), path)
    sdf = spark.read.parquet(path)
    got = rspark.score_corpus(sdf, ["rouge2"], bootstrap=20, seed=0)
    want = rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, ["rouge2"], bootstrap=20, seed=0)
    assert (got.scores, got.intervals, got.n_items) == (want.scores, want.intervals,
                                                        want.n_items)


def test_errors(spark):
    sdf = frame(spark)
    with pytest.raises(ValueError, match="candidate='text': the table has no such column"):
        rspark.score_frame(sdf, candidate="text")
    with pytest.raises(ValueError, match="already has column 'id'|unknown rouge type"):
        rspark.score_frame(sdf, ["rougeX"])
    with pytest.raises(TypeError, match="sdf must be a Spark DataFrame, not pandas"):
        rspark.score_corpus(pd.DataFrame({"candidate": [], "references": []}))
    with pytest.raises(ValueError, match="the table has no rows"):
        rspark.score_corpus(sdf.filter("id < 0"))
    bad = spark.createDataFrame([("a", ["a"]), (None, ["b"])],
                                schema="candidate string, references array<string>")
    with pytest.raises(Exception, match=r"record batch 0: column 'candidate', row \d: "
                                        "missing value"):
        rspark.score_corpus(bad)
    # a column of another type: the schema says so, refused when the call is made
    for schema, message in (
            ("candidate int, references string", "column 'candidate' holds int: the "
                                                 "candidates must be strings$"),
            ("candidate string, references array<int>", "column 'references' holds "
             "array<int>: the references must be strings or lists of strings$")):
        typed = spark.createDataFrame([], schema=schema)
        with pytest.raises(TypeError, match=message):
            rspark.score_frame(typed)
    with pytest.raises(TypeError, match="column 'n' holds bigint: the texts to check must be "
                                        "strings or bytes$"):
        rspark.max_similarity(spark.createDataFrame([(1,)], "n bigint"), "n", ["a"])


# --- max_similarity --------------------------------------------------------------------

def test_max_similarity_equals_rouge_index_max(spark):
    """20,000 rows against 2,000 texts (duplicates, empty texts, ties)."""
    against = against_texts()
    texts = rows_to_check(against)
    ids, fmeasures = expected_max(rougekit.RougeIndex(against, "rouge2", use_stemmer=True),
                                  texts)
    sdf = spark.createDataFrame(list(zip(texts, range(len(texts)))), "text string, row long")
    lazy = rspark.max_similarity(sdf, "text", against=against, rouge_type="rouge2",
                                 use_stemmer=True)
    assert lazy.columns == ["text", "row", "max_fmeasure", "max_index"]
    assert lazy.schema["max_index"].dataType == T.LongType()
    got = sorted(lazy.collect(), key=lambda r: r["row"])
    assert [r["row"] for r in got] == list(range(len(texts)))
    assert [r["max_index"] for r in got] == ids
    assert [r["max_fmeasure"] for r in got] == fmeasures
    assert len(set(fmeasures)) > 10 and ids.count(0) > 100     # ties and empty texts met


def test_max_similarity_options_refusals_and_one_load_per_worker(spark, tmp_path):
    against = against_texts(200)
    texts = rows_to_check(against, 600)
    sdf = spark.createDataFrame([(t, i) for i, t in enumerate(texts)],
                                "text string, row long").repartition(6)
    options = rougekit.ScoringOptions(rouge_types=["rouge1"], tokenizer=ShippedWords(tmp_path))
    got = sorted(rspark.max_similarity(sdf, "text", against, options=options).collect(),
                 key=lambda r: r["row"])
    assert ([r["max_index"] for r in got], [r["max_fmeasure"] for r in got]) == \
        expected_max(rougekit.RougeIndex(against, options=options), texts)
    # the broadcast index: loaded once by each Python worker that scored
    loads = loads_per_process(tmp_path)
    assert loads and set(loads.values()) == {1}, loads
    with pytest.raises(ValueError, match="^rougekit.spark.max_similarity cannot use "
                                         "counting='sets'"):
        rspark.max_similarity(sdf, "text", against, flavor="pltrdy")
    with pytest.raises(ValueError, match="^column='txt': the table has no such column"):
        rspark.max_similarity(sdf, "txt", against)
    with pytest.raises(ValueError, match="^against is empty"):
        rspark.max_similarity(sdf, "text", ())
    bad = spark.createDataFrame([("a",), (None,)], "text string")
    with pytest.raises(Exception, match=r"record batch 0: column 'text', row \d: "
                                        "missing value"):
        rspark.max_similarity(bad, "text", against).collect()
