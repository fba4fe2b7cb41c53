"""One RougeScorer shared by many threads gives the serial results (stem
cache included); score_batch with threads > 1 equals serial use. (Ctrl-C
during score_batch: test_interrupt.py.)"""
import os
import random
import subprocess
import sys
import threading

import pytest

import rougekit
from rougekit import rouge_scorer

pytestmark = [pytest.mark.backend, pytest.mark.kernel, pytest.mark.threads]

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
WORDS = ("running runs ran runner jumping jumped jumps happily happiness "
         "generalization generalizations cats cat the a of organizational "
         "relational conditional caresses ponies agreed feed hopping").split()


def _texts(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randrange(0, 40)
        words = [rng.choice(WORDS) if rng.random() < 0.7 else
                 "w%d%s" % (rng.randrange(5000), rng.choice(["ing", "ed", "ies", "s", ""]))
                 for _ in range(k)]
        # some sentences, some capitals and punctuation, a stray non-ASCII
        text = " ".join(words)
        text = text.replace(" the ", ". The\n", 1).replace(" a ", " A, ", 1)
        if rng.random() < 0.1:
            text += " caf\u00e9 na\u00efve"
        out.append(text)
    return out


@pytest.fixture(scope="module")
def pairs():
    return list(zip(_texts(600, 1), _texts(600, 2)))


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stem"])
def test_shared_scorer_many_threads(pairs, stem):
    expected = [rouge_scorer.RougeScorer(TYPES, use_stemmer=stem).score(t, p)
                for t, p in pairs]
    # A fresh scorer: its stem cache fills while the threads race.
    shared = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    results = [[None] * len(pairs) for _ in range(8)]
    errors = []
    start = threading.Barrier(8)

    def work(k):
        try:
            start.wait()
            order = list(range(len(pairs)))
            random.Random(k).shuffle(order)
            for i in order:
                results[k][i] = shared.score(*pairs[i])
            # batch calls from several threads at once share the engine pool
            batch = shared.score_batch([t for t, _ in pairs], [p for _, p in pairs],
                                       threads=2)
            assert batch == expected
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not any(th.is_alive() for th in threads), "threads hung"
    assert not errors, errors
    for k in range(8):
        assert results[k] == expected, k
    # and the cache the threads filled gives the same results again, serially
    assert [shared.score(t, p) for t, p in pairs] == expected


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stem"])
@pytest.mark.parametrize("threads", [2, 3, 8])
def test_score_batch_threads_equal_serial(pairs, stem, threads):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    targets = [t for t, _ in pairs] * 5
    preds = [p for _, p in pairs] * 5
    serial = [scorer.score(t, p) for t, p in zip(targets, preds)]
    assert scorer.score_batch(targets, preds, threads=1) == serial
    assert scorer.score_batch(targets, preds, threads=threads) == serial
    fresh = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    assert fresh.score_batch(targets, preds, threads=threads) == serial
    # types too (rouge-score's int 0 for empty rougeL/rougeLsum)
    got = fresh.score_batch(targets, preds, threads=threads)
    assert [[tuple(map(type, s)) for s in d.values()] for d in got] == \
        [[tuple(map(type, s)) for s in d.values()] for d in serial]


def test_score_multi_batch_threads_equal_serial(pairs):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    groups = [[pairs[i][0], pairs[i + 1][0], pairs[i + 2][0]] for i in range(0, 300, 3)]
    preds = [pairs[i][1] for i in range(0, 300, 3)]
    serial = [scorer.score_multi(g, p) for g, p in zip(groups, preds)]
    assert scorer.score_multi_batch(groups, preds, threads=4) == serial


needs_engine = pytest.mark.skipif(rougekit.BACKEND != "compiled",
                                  reason="the compiled engine is not in use")


@needs_engine
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stem"])
def test_engine_in_use_sends_score_to_the_pool(pairs, stem):
    """What a thread meets when the GIL is disabled and another thread is in
    the scorer's engine: the engine's atomic "in use" flag sends the pair to
    an engine from the pool, with the same result. (With the GIL this cannot
    happen by itself: one engine.score call runs start to end.)"""
    from rouge_score import rouge_scorer as reference

    from rougekit._core._engine import Cancel
    pairs = pairs[:200]
    expected = [reference.RougeScorer(TYPES, use_stemmer=stem).score(t, p) for t, p in pairs]
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    engine = scorer._pairs.engine
    assert engine._hold(True)              # as another thread would
    try:
        assert not engine._hold(True)      # held: a second user is refused
        got = [scorer.score(t, p) for t, p in pairs]
        with pytest.raises(RuntimeError, match="in use by another thread"):
            engine.score_range([pairs[0][0]], [pairs[0][1]], Cancel())
    finally:
        engine._hold(False)
    assert got == expected
    # one pooled engine served every pair, and went back to the pool
    assert scorer._pairs.engine_pool.qsize() == 1
    # the scorer's own engine is free again
    assert [scorer.score(t, p) for t, p in pairs] == expected
    assert scorer._pairs.engine_pool.qsize() == 1


@needs_engine
def test_engine_in_use_without_overflow_raises():
    from rougekit import scoring
    from rougekit._core._engine import Engine
    engine = Engine([1], False, ["rouge1"], scoring.Score, lambda t, p: {})
    assert engine.score("a b", "a")["rouge1"] == (1.0, 0.5, 2 / 3)
    engine._hold(True)
    try:
        with pytest.raises(RuntimeError, match="in use by another thread"):
            engine.score("a b", "a")
    finally:
        engine._hold(False)
    assert engine.score("a b", "a")["rouge1"] == (1.0, 0.5, 2 / 3)


def _free_threaded():
    import sysconfig
    return bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


@needs_engine
@pytest.mark.skipif(not _free_threaded(), reason="needs a free-threaded CPython (3.13t+)")
def test_free_threaded_import_keeps_the_gil_disabled():
    """Every compiled module declares free-threading support: importing one
    that did not would re-enable the GIL with a RuntimeWarning."""
    code = ("import warnings, sys; warnings.simplefilter('error'); "
            "import rougekit, rougekit._backend as b; assert b.NAME == 'compiled'; "   # every kernel
            "print(sys._is_gil_enabled())")
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


@needs_engine
def test_engine_with_more_types_than_its_stack_buffers(pairs):
    """Over 16 rouge types (repeats allowed, as in rouge-score) the engine
    scores into heap buffers: same results, busy or not."""
    from rouge_score import rouge_scorer as reference
    types = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]
    types = types * 2
    pairs = pairs[:50]
    expected = [reference.RougeScorer(types).score(t, p) for t, p in pairs]
    scorer = rouge_scorer.RougeScorer(types)
    assert [scorer.score(t, p) for t, p in pairs] == expected
    assert scorer._pairs.engine._hold(True)
    try:
        assert [scorer.score(t, p) for t, p in pairs] == expected
    finally:
        scorer._pairs.engine._hold(False)
    assert scorer._pairs.engine_pool.qsize() == 1


@needs_engine
def test_score_batch_workers_keep_their_engines(pairs):
    """Each worker thread scores its chunks with an engine of its own, kept
    for the scorer's next call (its tables stay in that core's caches); the
    engines of threads that have ended go when a worker asks for a new one."""
    pairs = pairs[:300]
    targets = [t for t, _ in pairs]
    predictions = [p for _, p in pairs]
    scorer = rouge_scorer.RougeScorer(TYPES)
    expected = [scorer.score(t, p) for t, p in pairs]
    engines = scorer._pairs.worker_engines
    engines[-1] = object()                  # the engine of a thread long gone
    assert scorer.score_batch(targets, predictions, threads=2) == expected
    assert -1 not in engines
    first = dict(engines)
    alive = {t.ident for t in threading.enumerate()}
    assert 1 <= len(first) <= 2 and set(first) <= alive
    assert scorer._pairs.engine not in first.values()
    assert scorer.score_batch(targets, predictions, threads=2) == expected
    columns = scorer.score_columns(targets, predictions, threads=2)
    assert columns["rouge1_fmeasure"].tolist() == [s["rouge1"].fmeasure for s in expected]
    # a thread that had an engine still has the same one
    assert all(engines[ident] is engine for ident, engine in first.items())
