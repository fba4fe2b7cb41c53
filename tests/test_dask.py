"""rougekit.dask on a real dask.distributed LocalCluster with two worker
processes: per-row columns equal rougekit.score_frame in this process, and
corpus results equal rougekit.score_corpus with == (means merged from the
partitions' MeanAggregators, the bootstrap drawn from their per-item
columns); max_similarity equals RougeIndex.max row by row, the index sent
to each worker once."""
import os

import pytest

import rougekit
from _contamination import (
    ShippedWords,
    against_texts,
    expected_max,
    loads_per_process,
    rows_to_check,
)
from _integrations import CANDIDATES, REFERENCES, TYPES, need
from rougekit.corpus import MULTI_REF_POLICIES

pd = need("pandas")
pa = need("pyarrow")
pq = need("pyarrow.parquet")
dask = need("dask")
dd = need("dask.dataframe")
distributed = need("distributed")
rdask = need("rougekit.dask")

def pandas_frame():
    return pd.DataFrame({"candidate": CANDIDATES, "references": REFERENCES,
                         "id": range(len(CANDIDATES))})


def dask_frame(npartitions=4):
    # Dask turns object columns into strings by default, lists included
    # ("['a', 'b']"): keep the lists.
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_pandas(pandas_frame(), npartitions=npartitions)


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def test_the_workers_are_other_processes(client):
    pids = client.run(os.getpid)
    assert len(pids) == 2 and os.getpid() not in pids.values()


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_score_frame_equals_in_process(client, use_stemmer):
    lazy = rdask.score_frame(dask_frame(), TYPES, use_stemmer=use_stemmer)
    assert list(lazy.columns)[-3:] == ["rougeLsum_precision", "rougeLsum_recall",
                                       "rougeLsum_fmeasure"]
    got = lazy.compute()
    want = rougekit.score_frame(pandas_frame(), TYPES, use_stemmer=use_stemmer)
    assert list(got.columns) == list(want.columns)
    assert got["id"].tolist() == want["id"].tolist()
    for column in want.columns[3:]:
        assert got[column].tolist() == want[column].tolist(), column


@pytest.mark.parametrize("multi_ref", MULTI_REF_POLICIES)
def test_score_corpus_equals_in_process(client, multi_ref):
    got = rdask.score_corpus(dask_frame(), TYPES, multi_ref=multi_ref, per_item=True)
    want = rougekit.score_corpus(CANDIDATES, REFERENCES, TYPES, multi_ref=multi_ref)
    assert got == want


def test_lang_and_sentence_split_equal_in_process(client):
    """lang= and sentence_split= reach the workers: frame and corpus equal
    the in-process functions, signature included."""
    need("sentencex")
    options = dict(lang="hindi", use_stemmer=True, sentence_split="sentencex",
                   multi_ref="mean")
    got = rdask.score_corpus(dask_frame(npartitions=3), TYPES, per_item=True, **options)
    want = rougekit.score_corpus(CANDIDATES, REFERENCES, TYPES, **options)
    assert got == want and "lang:hindi" in got.signature and "split:sentencex" in got.signature
    frame = rdask.score_frame(dask_frame(npartitions=3), TYPES, **options).compute()
    local = rougekit.score_frame(pandas_frame(), TYPES, **options)
    assert frame.drop(columns="id").values.tolist() == \
        local.drop(columns="id").values.tolist()


def test_options_object_equals_keywords(client):
    """options=ScoringOptions(...) reaches the workers as the keywords do."""
    kwargs = dict(rouge_types=TYPES, use_stemmer=True, multi_ref="jackknife",
                  bootstrap=40, seed=2)
    options = rougekit.ScoringOptions(**kwargs)
    got = rdask.score_corpus(dask_frame(npartitions=3), options=options, per_item=True)
    assert got == rdask.score_corpus(dask_frame(npartitions=3), per_item=True, **kwargs)
    assert got == rougekit.score_corpus(CANDIDATES, REFERENCES, options=options)
    frame_options = rougekit.ScoringOptions(rouge_types=TYPES, use_stemmer=True)
    frame = rdask.score_frame(dask_frame(), options=frame_options).compute()
    local = rougekit.score_frame(pandas_frame(), options=frame_options)
    assert frame.values.tolist() == local.values.tolist()


@pytest.mark.parametrize("flavor", ["pltrdy", "evaluate", "rouge155:-m -n 2"])
def test_flavors_and_their_aggregations_reach_the_workers(client, flavor):
    """A flavor's stages, its aggregation (the items in order, on the
    client) included, equal in-process score_corpus's."""
    got = rdask.score_corpus(dask_frame(npartitions=3), flavor=flavor, per_item=True)
    assert got == rougekit.score_corpus(CANDIDATES, REFERENCES, flavor=flavor)
    got = rdask.score_corpus(dask_frame(npartitions=3), flavor="pltrdy", avg=False,
                             ignore_empty=True)
    want = rougekit.score_corpus(CANDIDATES, REFERENCES, flavor="pltrdy", avg=False,
                                 ignore_empty=True)
    assert (got.scores, got.n_items, got.signature) == (want.scores, want.n_items,
                                                        want.signature)


def test_bootstrap_and_stemming_equal_in_process(client):
    options = dict(use_stemmer=True, bootstrap=300, confidence=0.9, seed=17)
    got = rdask.score_corpus(dask_frame(npartitions=5), TYPES, **options)
    want = rougekit.score_corpus(CANDIDATES, REFERENCES, TYPES, **options)
    assert got.per_item is None
    assert (got.scores, got.intervals, got.n_items, got.signature) == \
        (want.scores, want.intervals, want.n_items, want.signature)


def test_parquet_partitions_and_empty_ones(client, tmp_path):
    table = pa.table({"candidate": CANDIDATES,
                      "references": [[r] if isinstance(r, str) else r for r in REFERENCES]})
    for part in range(3):      # three files, one partition each
        pq.write_table(table.slice(part * 90, 90), tmp_path / f"part{part}.parquet")
    ddf = dd.read_parquet(str(tmp_path))
    # Rows with an empty candidate dropped: some partitions may hold none.
    ddf = ddf[ddf["candidate"].str.len() > 40]
    kept = [i for i, c in enumerate(CANDIDATES) if len(c) > 40]
    got = rdask.score_corpus(ddf, ["rougeL"], bootstrap=50, seed=2, per_item=True)
    want = rougekit.score_corpus([CANDIDATES[i] for i in kept],
                                 [REFERENCES[i] for i in kept], ["rougeL"],
                                 bootstrap=50, seed=2)
    assert got == want
    frame = rdask.score_frame(ddf, ["rougeL"]).compute()
    assert frame["rougeL_fmeasure"].tolist() == [item["rougeL"].fmeasure
                                                 for item in want.per_item]


def test_errors_come_at_call_time(client):
    with pytest.raises(ValueError, match="references='refs': the table has no such column"):
        rdask.score_frame(dask_frame(), references="refs")
    with pytest.raises(ValueError, match="unknown multi_ref policy"):
        rdask.score_corpus(dask_frame(), multi_ref="best")
    with pytest.raises(ValueError, match="bootstrap must be >= 0"):
        rdask.score_corpus(dask_frame(), bootstrap=-1)
    with pytest.raises(TypeError, match="ddf must be a dask DataFrame, not pandas"):
        rdask.score_corpus(pandas_frame())
    scored = rdask.score_frame(dask_frame(), ["rouge1"])
    with pytest.raises(ValueError, match="already has column 'rouge1_precision'"):
        rdask.score_frame(scored, ["rouge1"])
    # a column whose dtype cannot hold texts: refused when the call is made (pandas'
    # object says nothing: its rows are checked on the workers)
    numbers = dd.from_pandas(pd.DataFrame({"candidate": [1, 2], "text": ["a", "b"],
                                           "references": [0.5, 1.5]}), npartitions=1)
    with pytest.raises(TypeError, match="^column 'candidate' holds int64: the candidates "
                                        "must be strings$"):
        rdask.score_corpus(numbers)
    with pytest.raises(TypeError, match="^column 'references' holds float64: the references "
                                        "must be strings or lists of strings$"):
        rdask.score_frame(numbers, candidate="text")
    with pytest.raises(TypeError, match="^column 'candidate' holds int64: the texts to check"):
        rdask.max_similarity(numbers, "candidate", ["a"])


def test_bad_rows_fail_on_the_worker_naming_the_row(client):
    frame = pandas_frame()
    frame.loc[100, "candidate"] = None
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(frame, npartitions=4)       # rows 0-60 in the first
    start = ddf.divisions[1]
    with pytest.raises(ValueError, match=rf"column 'candidate', row {100 - start} "
                                         r"\(index 100\): missing value"):
        rdask.score_corpus(ddf)


def test_no_rows_at_all(client):
    ddf = dask_frame()
    with pytest.raises(ValueError, match="the table has no rows"):
        rdask.score_corpus(ddf[ddf["id"] < 0])


def test_lists_turned_into_strings_are_refused(client):
    """dd.from_pandas with Dask's default convert-string writes a column of
    lists out as strings; scoring them as one reference each would be a
    silently different number, so both functions refuse them."""
    frame = pandas_frame()
    frame["references"] = [r if isinstance(r, list) else [r, r.upper()]
                           for r in frame["references"]]
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(frame, npartitions=2)
    assert isinstance(ddf["references"].dtype, pd.StringDtype)
    with pytest.raises(ValueError, match="Dask turned a column of lists into strings"):
        rdask.score_corpus(ddf)
    with pytest.raises(ValueError, match="dataframe.convert-string"):
        rdask.score_frame(ddf).compute()
    # texts that merely start with "[" are texts
    frame["references"] = ["[Update] " + refs[0] for refs in frame["references"]]
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(frame, npartitions=2)
    assert rdask.score_corpus(ddf).scores == rougekit.score_corpus(
        list(frame["candidate"]), list(frame["references"])).scores


# --- max_similarity --------------------------------------------------------------------

@pytest.fixture(scope="module")
def contamination():
    against = against_texts()
    texts = rows_to_check(against)
    return against, texts, expected_max(rougekit.RougeIndex(against), texts)


def test_max_similarity_equals_rouge_index_max(client, contamination):
    """20,000 rows against 2,000 texts (duplicates, empty texts, ties)."""
    against, texts, (ids, fmeasures) = contamination
    ddf = dd.from_pandas(pd.DataFrame({"text": texts, "row": range(len(texts))}),
                         npartitions=8)
    lazy = rdask.max_similarity(ddf, "text", against=against)
    assert list(lazy.columns) == ["text", "row", "max_fmeasure", "max_index"]
    got = lazy.compute()
    assert got["row"].tolist() == list(range(len(texts)))
    assert got["max_index"].tolist() == ids and got["max_fmeasure"].tolist() == fmeasures
    assert str(got["max_index"].dtype) == "int64" and str(got["max_fmeasure"].dtype) == \
        "float64"
    assert len(set(fmeasures)) > 10 and ids.count(0) > 100     # ties and empty texts met


def test_max_similarity_options_and_refusals(client):
    against = against_texts(300)
    texts = rows_to_check(against, 400)
    ddf = dd.from_pandas(pd.DataFrame({"text": texts}), npartitions=3)
    for request in (dict(options=rougekit.ScoringOptions(rouge_types=["rouge1"],
                                                         use_stemmer=True)),
                    dict(rouge_type="rouge2", use_stemmer=True)):
        got = rdask.max_similarity(ddf, "text", against, **request).compute()
        assert (got["max_index"].tolist(), got["max_fmeasure"].tolist()) == \
            expected_max(rougekit.RougeIndex(against, **request), texts), request
    with pytest.raises(ValueError, match="^rougekit.dask.max_similarity does not take "
                                         "bootstrap="):
        rdask.max_similarity(ddf, "text", against, bootstrap=10)
    with pytest.raises(ValueError, match="^against is empty"):
        rdask.max_similarity(ddf, "text", [])
    with pytest.raises(TypeError, match="^against must be a list of texts, not a single str"):
        rdask.max_similarity(ddf, "text", "a text")
    with pytest.raises(TypeError, match="ddf must be a dask DataFrame"):
        rdask.max_similarity(pd.DataFrame({"text": texts}), "text", against)
    scored = rdask.max_similarity(ddf, "text", against)
    with pytest.raises(ValueError, match="already has column 'max_fmeasure'"):
        rdask.max_similarity(scored, "text", against)
    frame = pd.DataFrame({"text": ["a", None, "b"]})
    with dask.config.set({"dataframe.convert-string": False}):
        bad = dd.from_pandas(frame, npartitions=1)
    with pytest.raises(ValueError, match="^column 'text', row 1: missing value"):
        rdask.max_similarity(bad, "text", against).compute()


def test_max_similarity_sends_the_index_to_each_worker_once(client, tmp_path):
    """12 partitions on 2 workers: each worker loads the index once (a
    custom tokenizer's token lists, rouge3). Dask's active memory manager is
    paused meanwhile: every 2 s it drops a copy of a key that no queued task
    of that worker needs, and a task stolen onto it later fetches the index
    again, which on a busy machine happens now and then (the docs say so);
    what is tested is that rougekit sends it once per worker, not per task."""
    against = against_texts(200)
    texts = rows_to_check(against, 600)
    ddf = dd.from_pandas(pd.DataFrame({"text": texts}), npartitions=12)
    tokenizer = ShippedWords(tmp_path)
    client.amm.stop()
    try:
        got = rdask.max_similarity(ddf, "text", against, "rouge3",
                                   tokenizer=tokenizer).compute()
    finally:
        client.amm.start()
    assert (got["max_index"].tolist(), got["max_fmeasure"].tolist()) == \
        expected_max(rougekit.RougeIndex(against, "rouge3", tokenizer=tokenizer), texts)
    loads = loads_per_process(tmp_path)
    assert set(loads) == {str(pid) for pid in client.run(os.getpid).values()}, loads
    assert set(loads.values()) == {1}, loads
