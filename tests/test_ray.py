"""rougekit.ray on a real Ray local cluster (``ray.init(num_cpus=2)``, shut
down at the end of the module): every score column equals
rougekit.score_frame on the same rows, every corpus result equals
rougekit.score_corpus on the rows in the dataset's order (even when its
blocks finish out of order), and max_similarity equals RougeIndex.max row
by row, with ==; options and flavors reach the workers; errors name the
column and the row."""
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
ray = need("ray")
need("ray.data")
rray = need("rougekit.ray")

LIST_REFERENCES = [[r] if isinstance(r, str) else r for r in REFERENCES]
NAMES = rougekit.frames.column_names(TYPES)


@pytest.fixture(scope="module")
def cluster():
    # The workers import this folder's helpers, and rougekit from where this
    # process does (they see ROUGEKIT_PURE_PYTHON, if set).
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.pathsep.join([here, os.path.dirname(os.path.dirname(rougekit.__file__))]
                           + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                              if p])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
    yield
    ray.shutdown()


def rows():
    return [{"candidate": c, "references": r, "id": i}
            for i, (c, r) in enumerate(zip(CANDIDATES, LIST_REFERENCES))]


def dataset(blocks=6):
    return ray.data.from_items(rows(), override_num_blocks=blocks)


def by_id(records):
    return sorted(records, key=lambda r: r["id"])


def _pid(_):
    return os.getpid()


def test_the_workers_are_other_processes(cluster):
    pids = set(ray.get([ray.remote(_pid).remote(k) for k in range(4)]))
    assert os.getpid() not in pids


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_score_dataset_equals_score_frame(cluster, use_stemmer):
    lazy = rray.score_dataset(dataset(), TYPES, use_stemmer=use_stemmer)
    assert lazy.columns() == ["candidate", "references", "id"] + NAMES
    got = by_id(lazy.take_all())
    want = rougekit.score_frame(pd.DataFrame(rows()), TYPES, use_stemmer=use_stemmer)
    assert [r["id"] for r in got] == list(range(len(CANDIDATES)))
    assert [[r[n] for n in NAMES] for r in got] == want[NAMES].values.tolist()
    assert all(type(r[n]) is float for r in got[:3] for n in NAMES)


@pytest.mark.parametrize("multi_ref", MULTI_REF_POLICIES)
def test_score_corpus_equals_in_process(cluster, multi_ref):
    got = rray.score_corpus(dataset(), TYPES, multi_ref=multi_ref, per_item=True)
    assert got == rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, TYPES,
                                        multi_ref=multi_ref)


@ray.remote(num_cpus=0)
class Signal:
    """An event across processes (an async actor: its waits do not block
    its sends)."""

    def __init__(self):
        import asyncio
        self.event = asyncio.Event()

    async def send(self):
        self.event.set()

    async def wait(self):
        await self.event.wait()


def _first_waits_for_last(batch, signal, last):
    ids = batch.column("id").to_pylist()
    if last in ids:
        ray.get(signal.send.remote())
    if 0 in ids:
        ray.get(signal.wait.remote(), timeout=300)   # a failure, not a hang, if it never comes
    return batch


def test_score_corpus_keeps_the_dataset_order_when_blocks_finish_out_of_order(cluster):
    """The first block finishes last (it waits for the last block's event):
    Ray Data hands blocks out as they finish unless told to keep the order;
    the per-item scores and the bootstrap must still be in the rows' order."""
    ds = dataset(blocks=6)
    held = ds.map_batches(_first_waits_for_last, batch_format="pyarrow",
                          fn_kwargs={"signal": Signal.remote(), "last": len(CANDIDATES) - 1})
    options = dict(bootstrap=100, seed=3, multi_ref="mean")
    got = rray.score_corpus(held, TYPES, per_item=True, **options)
    assert got == rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, TYPES, **options)
    assert held.context.execution_options.preserve_order is False     # put back


def test_lang_sentence_split_options_and_flavors_reach_the_workers(cluster):
    need("sentencex")
    options = dict(lang="hindi", use_stemmer=True, sentence_split="sentencex",
                   multi_ref="mean")
    got = rray.score_corpus(dataset(), TYPES, per_item=True, **options)
    want = rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, TYPES, **options)
    assert got == want and "lang:hindi" in got.signature
    frame = by_id(rray.score_dataset(dataset(), TYPES, **options).take_all())
    local = rougekit.score_frame(pd.DataFrame(rows()), TYPES, **options)
    assert [[r[n] for n in NAMES] for r in frame] == local[NAMES].values.tolist()
    scoring = rougekit.ScoringOptions(rouge_types=TYPES, use_stemmer=True,
                                      multi_ref="jackknife", bootstrap=40, seed=2)
    assert rray.score_corpus(dataset(), options=scoring, per_item=True) == \
        rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, options=scoring)
    for flavor in ("pltrdy", "rouge155:-m -n 2"):
        assert rray.score_corpus(dataset(), flavor=flavor, per_item=True) == \
            rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, flavor=flavor)
    got = rray.score_corpus(dataset(), flavor="pltrdy", avg=False, ignore_empty=True)
    want = rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, flavor="pltrdy", avg=False,
                                 ignore_empty=True)
    assert (got.scores, got.n_items, got.signature) == (want.scores, want.n_items,
                                                        want.signature)


def test_parquet_string_references_and_empty_batches(cluster, tmp_path):
    single = [r if isinstance(r, str) else r[0] for r in REFERENCES]
    for part in range(3):
        table = pa.table({"candidate": CANDIDATES, "references": single}).slice(part * 90, 90)
        pq.write_table(table, tmp_path / f"part{part}.parquet")
    ds = ray.data.read_parquet(str(tmp_path))
    # the dataset's order: its rows with preserve_order (the files' order)
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    try:
        rows_read = ray.data.read_parquet(str(tmp_path)).take_all()
    finally:
        context.execution_options.preserve_order = False
    assert [r["candidate"] for r in rows_read] == CANDIDATES[:270]
    got = rray.score_corpus(ds, ["rougeL", "rouge2"], bootstrap=30, seed=1, per_item=True)
    want = rougekit.score_corpus(CANDIDATES[:270], single[:270], ["rougeL", "rouge2"],
                                 bootstrap=30, seed=1)
    assert got == want
    # batches that hold no row (every row of a block filtered out) add nothing
    kept = dataset(blocks=12).filter(lambda r: len(r["candidate"]) > 40)
    rows_kept = [r for r in rows() if len(r["candidate"]) > 40]
    assert rray.score_corpus(kept, ["rougeL"], batch_size=7, per_item=True) == \
        rougekit.score_corpus([r["candidate"] for r in rows_kept],
                              [r["references"] for r in rows_kept], ["rougeL"])


def test_errors_come_at_call_time_and_name_the_column(cluster):
    with pytest.raises(ValueError, match="references='refs': the table has no such column"):
        rray.score_dataset(dataset(), references="refs")
    with pytest.raises(TypeError, match="candidate must be a column name"):
        rray.score_corpus(dataset(), candidate=3)
    with pytest.raises(ValueError, match="unknown multi_ref policy"):
        rray.score_corpus(dataset(), multi_ref="best")
    with pytest.raises(ValueError, match="^rougekit.ray.score_dataset does not take "
                                         "bootstrap="):
        rray.score_dataset(dataset(), bootstrap=10)
    with pytest.raises(TypeError, match="ds must be a ray.data.Dataset, not pandas"):
        rray.score_corpus(pd.DataFrame(rows()))
    scored = rray.score_dataset(dataset(), ["rouge1"])
    with pytest.raises(ValueError, match="already has column 'rouge1_precision'"):
        rray.score_dataset(scored, ["rouge1"])
    with pytest.raises(ValueError, match="the table has no rows"):
        rray.score_corpus(dataset().filter(lambda r: r["id"] < 0))
    # a column of another type: the schema says so, refused when the call is made
    typed = ray.data.from_arrow(pa.table({"candidate": [1], "text": ["a"],
                                          "references": [[1.5]]}))
    with pytest.raises(TypeError, match="^column 'candidate' holds int64: the candidates "
                                        "must be strings$"):
        rray.score_dataset(typed)
    with pytest.raises(TypeError, match="^column 'references' holds list<item: double>: the "
                                        "references must be strings or lists of strings$"):
        rray.score_corpus(typed, candidate="text")
    with pytest.raises(TypeError, match="^column 'candidate' holds int64: the texts to check"):
        rray.max_similarity(typed, "candidate", ["a"])


def test_each_task_reserves_a_cpu_per_thread_unless_told(cluster, monkeypatch):
    asked = []
    map_batches = ray.data.Dataset.map_batches

    def recorded(self, fn, **kwargs):
        asked.append((kwargs["num_cpus"], kwargs["compute"]))
        return map_batches(self, fn, **kwargs)

    monkeypatch.setattr(ray.data.Dataset, "map_batches", recorded)
    pool = ray.data.TaskPoolStrategy(size=1)
    rray.score_dataset(dataset(), TYPES)
    rray.score_dataset(dataset(), TYPES, threads=2)
    rray.score_dataset(dataset(), TYPES, threads=None)
    rray.score_dataset(dataset(), TYPES, threads=2, num_cpus=0.5, compute=pool)
    rray.score_corpus(dataset(), TYPES, threads=2)
    rray.max_similarity(dataset(), "candidate", ["a b"], threads=3)
    rray.max_similarity(dataset(), "candidate", ["a b"], num_cpus=2)
    assert [cpus for cpus, _ in asked] == [1, 2, None, 0.5, 2, 3, 2]
    assert asked[3][1] is pool


def test_num_cpus_and_a_task_pool_keep_the_results(cluster):
    pool = ray.data.TaskPoolStrategy(size=1)
    got = by_id(rray.score_dataset(dataset(), TYPES, threads=2, num_cpus=0.5,
                                   compute=pool).take_all())
    want = rougekit.score_frame(pd.DataFrame(rows()), TYPES)
    assert [[r[n] for n in NAMES] for r in got] == want[NAMES].values.tolist()
    assert rray.score_corpus(dataset(), TYPES, num_cpus=1, per_item=True,
                             compute=ray.data.TaskPoolStrategy(size=2)) == \
        rougekit.score_corpus(CANDIDATES, LIST_REFERENCES, TYPES)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"num_cpus": "2"}, TypeError, "num_cpus must be a number of CPUs, not str"),
    ({"num_cpus": True}, TypeError, "num_cpus must be a number of CPUs, not bool"),
    ({"num_cpus": 0}, ValueError, "num_cpus must be > 0, got 0"),
    ({"num_cpus": float("nan")}, ValueError, "num_cpus must be > 0, got nan"),
    ({"compute": "actors"}, TypeError, "compute must be a ray.data.TaskPoolStrategy or None "
                                       "(tasks score the batches), not str"),
])
def test_num_cpus_and_compute_errors_are_one_line(cluster, kwargs, error, message):
    for door in (rray.score_dataset, rray.score_corpus):
        with pytest.raises(error) as raised:
            door(dataset(), TYPES, **kwargs)
        assert str(raised.value) == message
    if "num_cpus" in kwargs:
        with pytest.raises(error) as raised:
            rray.max_similarity(dataset(), "candidate", ["a b"], **kwargs)
        assert str(raised.value) == message
    else:       # max_similarity's actors hold the index: an actor pool, checked now too
        with pytest.raises(TypeError) as raised:
            rray.max_similarity(dataset(), "candidate", ["a b"],
                                compute=ray.data.TaskPoolStrategy(size=2))
        assert str(raised.value) == "compute must be a ray.data.ActorPoolStrategy or None " \
                                    "(actors hold the index), not TaskPoolStrategy"


def test_bad_rows_are_one_line_errors_naming_the_row(cluster):
    bad = ray.data.from_items([{"candidate": "a b", "references": ["a"]},
                               {"candidate": None, "references": ["b"]}], override_num_blocks=1)
    with pytest.raises(ValueError) as raised:
        rray.score_corpus(bad)
    assert str(raised.value) == ("a batch of 2 rows: column 'candidate', row 1: missing "
                                 "value (None); each row needs a str")
    typed = ray.data.from_items([{"candidate": 5, "references": ["b"]}])
    with pytest.raises(TypeError, match="^column 'candidate' holds int64: the candidates must "
                                        "be strings$"):     # the schema says so: at call time
        rray.score_corpus(typed)
    # the lazy functions fail inside Ray's error for a failed task, naming the row
    with pytest.raises(Exception, match="column 'candidate', row 1: missing value"):
        rray.score_dataset(bad).take_all()


# --- max_similarity --------------------------------------------------------------------

@pytest.fixture(scope="module")
def contamination():
    against = against_texts()
    texts = rows_to_check(against)
    index = rougekit.RougeIndex(against, use_stemmer=True)
    return against, texts, expected_max(index, texts)


def test_max_similarity_equals_rouge_index_max(cluster, contamination):
    """20,000 rows against 2,000 texts (duplicates, empty texts, ties)."""
    against, texts, (ids, fmeasures) = contamination
    ds = ray.data.from_items([{"text": t, "row": i} for i, t in enumerate(texts)],
                             override_num_blocks=8)
    got = by_row(rray.max_similarity(ds, "text", against=against, use_stemmer=True,
                                     compute=ray.data.ActorPoolStrategy(size=2)).take_all())
    assert [r["row"] for r in got] == list(range(len(texts)))
    assert [r["max_index"] for r in got] == ids
    assert [r["max_fmeasure"] for r in got] == fmeasures
    assert len(set(fmeasures)) > 10 and ids.count(0) > 100     # ties and empty texts met


def by_row(records):
    return sorted(records, key=lambda r: r["row"])


def test_max_similarity_flavor_and_refusals(cluster):
    against = against_texts(300)
    texts = rows_to_check(against, 400)
    ds = ray.data.from_items([{"text": t, "row": i} for i, t in enumerate(texts)])
    # (each request is checked in one process by test_contamination.py, and
    # the options= and keyword ways by test_dask.py and test_spark.py)
    request = dict(flavor="rouge-score", rouge_types=["rouge2"], use_stemmer=True)
    index = rougekit.RougeIndex(against, **request)
    got = by_row(rray.max_similarity(ds, "text", against, **request).take_all())
    assert ([r["max_index"] for r in got], [r["max_fmeasure"] for r in got]) == \
        expected_max(index, texts)
    with pytest.raises(ValueError, match="^rougekit.ray.max_similarity does not take "
                                         "counting="):
        rray.max_similarity(ds, "text", against, counting="sets")
    with pytest.raises(ValueError, match="^rougekit.ray.max_similarity cannot use "
                                         "counting='sets'"):
        rray.max_similarity(ds, "text", against, flavor="pltrdy")
    with pytest.raises(ValueError, match="^against is empty"):
        rray.max_similarity(ds, "text", [])
    with pytest.raises(ValueError, match="^column='txt': the table has no such column"):
        rray.max_similarity(ds, "txt", against)
    with pytest.raises(ValueError, match="rougeLsum"):
        rray.max_similarity(ds, "text", against, rouge_type="rougeLsum")
    with pytest.raises(TypeError, match="^column 'text' holds int64: the texts to check must "
                                        "be strings or bytes$"):     # at call time
        rray.max_similarity(ray.data.from_items([{"text": 3}]), "text", against)


def test_max_similarity_sends_the_index_to_each_actor_once(cluster, tmp_path):
    """A custom tokenizer's token lists (rouge3) through the object store:
    each actor loads the index once, however many batches it scores."""
    against = against_texts(200)
    texts = rows_to_check(against, 600)
    ds = ray.data.from_items([{"text": t, "row": i} for i, t in enumerate(texts)],
                             override_num_blocks=12)
    tokenizer = ShippedWords(tmp_path)
    got = by_row(rray.max_similarity(ds, "text", against, "rouge3", tokenizer=tokenizer,
                                     batch_size=10,
                                     compute=ray.data.ActorPoolStrategy(size=2)).take_all())
    index = rougekit.RougeIndex(against, "rouge3", tokenizer=tokenizer)
    assert ([r["max_index"] for r in got], [r["max_fmeasure"] for r in got]) == \
        expected_max(index, texts)
    loads = loads_per_process(tmp_path)
    assert 1 <= len(loads) <= 2 and set(loads.values()) == {1}, loads


def test_every_ray_door_takes_options_flavor_and_the_fields_of_its_scopes():
    import inspect

    from rougekit._doors import DOORS
    from rougekit._options import option_fields
    for name in ("score_dataset", "score_corpus", "max_similarity"):
        params = inspect.signature(getattr(rray, name)).parameters
        scopes = DOORS[f"rougekit.ray.{name}"].scopes
        assert "options" in params and "flavor" in params, name
        assert {f for f, info in option_fields().items() if info.scope in scopes} - \
            {"rouge_types"} <= set(params), name
