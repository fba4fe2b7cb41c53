"""rougekit._workers, the one pool of worker threads: results and errors in
order, ``threads`` respected, nested calls inline, cancellation that reaches
running items, no thread leak, a fresh pool in a forked child. (The Ctrl-C
tests of every path that uses it are in test_interrupt.py.)"""
import os
import sys
import threading
import time

import pytest

from rougekit import _backend, _workers

pytestmark = [pytest.mark.threads]


def test_results_in_order():
    assert _workers.map_items(lambda x: x * 2, range(100), threads=4) == list(range(0, 200, 2))
    assert _workers.map_items(lambda x: x, [], threads=4) == []
    chunks = _workers.map_chunks(1000, 3, lambda lo, hi, cancel: (lo, hi))
    assert chunks[0][0] == 0 and chunks[-1][1] == 1000
    assert all(a[1] == b[0] for a, b in zip(chunks, chunks[1:]))
    assert _workers.call(lambda: "here") == "here"


def test_the_first_error_in_order_is_raised_after_the_items_before_it():
    """Item 5 fails after item 7 has (it waits for it): item 5's error is
    raised, as a loop gives, and every item before 5 ran."""
    ran = set()
    seven_failed = threading.Event()

    def fn(i):
        if i == 5:
            # (the timeout only keeps a broken pool from hanging the run)
            assert seven_failed.wait(timeout=120), "item 7 never ran"
            raise ValueError("five")
        if i == 7:
            seven_failed.set()
            raise KeyError("seven")
        ran.add(i)
        return i

    with pytest.raises(ValueError, match="five"):
        _workers.map_items(fn, range(50), threads=4)
    assert set(range(5)) <= ran


def test_an_item_that_raises_stops_the_taking_of_new_ones():
    """A call's task, run in this thread (so no other thread takes items):
    once item 7 has raised, it takes no other, and the call is done."""
    taken = []

    def fn(i):
        taken.append(i)
        if i == 7:
            raise KeyError("seven")
        return i

    job = _workers._Call(fn, 50, _backend.engine.Cancel())
    job.task()
    assert taken == list(range(8))
    assert job.stopped and list(job.errors) == [7] and job.done.is_set()


@pytest.mark.parametrize("threads", [1, 2, 5])
def test_at_most_threads_items_at_once(threads):
    lock = threading.Lock()
    now, most = [0], [0]

    def fn(i):
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
        time.sleep(0.005)
        with lock:
            now[0] -= 1

    _workers.map_items(fn, range(40), threads=threads)
    assert most[0] <= threads
    assert _workers.pool_threads() >= threads


def test_the_calling_thread_only_waits():
    main = threading.get_ident()
    where = _workers.map_items(lambda i: threading.get_ident(), range(8), threads=1)
    assert main not in where


def test_nested_calls_run_inline_without_deadlock():
    """Every worker busy with an item that itself maps items: they run in
    the worker, in order."""
    def outer(i):
        me = threading.get_ident()
        inner = _workers.map_items(lambda j: (j, threading.get_ident()), range(5), threads=8)
        assert [j for j, _ in inner] == list(range(5))
        assert {t for _, t in inner} == {me}
        assert _workers.inside_worker()
        return i

    assert _workers.map_items(outer, range(16), threads=4) == list(range(16))
    assert not _workers.inside_worker()


def test_interrupt_cancels_pending_and_running_items():
    """A KeyboardInterrupt in the calling thread (here from ``meanwhile``,
    where a Ctrl-C would land): running chunks see ``cancel`` and stop,
    chunks not begun never begin, and the call raises once none runs."""
    began, saw_cancel = [], []

    def run(lo, hi, cancel):
        began.append(lo)
        deadline = time.monotonic() + 30        # runs until cancelled
        while not cancel.is_set() and time.monotonic() < deadline:
            time.sleep(0.005)
        saw_cancel.append(cancel.is_set())

    def interrupt():
        raise KeyboardInterrupt

    cancel = _workers._backend.engine.Cancel()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _workers._run(lambda i: run(i, i + 1, cancel), 100, 3, cancel, meanwhile=interrupt)
    assert time.monotonic() - start < 5
    assert len(began) == 3 and saw_cancel == [True, True, True]


def test_interrupt_while_work_is_handed_out(monkeypatch):
    """A Ctrl-C that lands while threads are being started for a call (a
    thread's start waits for it) still cancels what already runs. (CI once
    saw score_batch ignore a SIGINT for 15 s this way.)"""
    real_start = threading.Thread.start
    starts = []

    def start(self):
        real_start(self)
        starts.append(self)
        if len(starts) == 2:
            raise KeyboardInterrupt

    saw_cancel = []

    def run(lo, hi, cancel):
        deadline = time.monotonic() + 30
        while not cancel.is_set() and time.monotonic() < deadline:
            time.sleep(0.005)
        saw_cancel.append(cancel.is_set())

    pool = _workers._Pool()                                      # no thread yet
    monkeypatch.setattr(_workers, "_pool", pool)
    monkeypatch.setattr(threading.Thread, "start", start)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _workers.map_chunks(10, 4, run, min_chunk=1, max_chunk=1)
    monkeypatch.undo()
    assert time.monotonic() - t0 < 5
    assert saw_cancel and all(saw_cancel)
    # the tasks no thread was started for are not left queued
    assert not pool.tasks


def test_nested_call_stops_when_the_outer_call_is_cancelled():
    stopped = []

    def inner_item(j):
        time.sleep(0.01)

    def outer(i):
        try:
            _workers.map_items(inner_item, range(10000), threads=2)
        except _workers.Cancelled:
            stopped.append(i)
            raise

    def interrupt():
        time.sleep(0.1)
        raise KeyboardInterrupt

    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _workers.map_items(outer, range(2), threads=2, meanwhile=interrupt)
    assert time.monotonic() - t0 < 5
    assert sorted(stopped) == [0, 1]


def test_the_pool_keeps_nothing_of_a_call():
    """An idle worker holds no task: a call's items and results (which may
    be large) go when the caller drops them."""
    import weakref

    class Big:
        pass

    held = [Big()]
    ref = weakref.ref(held[0])
    _workers.map_items(lambda x: held[0], range(8), threads=3)
    _workers.map_chunks(100, 2, lambda lo, hi, cancel: held[0])
    held.clear()
    deadline = time.monotonic() + 5
    while ref() is not None and time.monotonic() < deadline:
        time.sleep(0.01)            # (a worker drops its task just after the call ends)
    assert ref() is None


def test_no_thread_leak():
    for _ in range(50):
        _workers.map_items(lambda x: x, range(10), threads=3)
        _workers.map_chunks(100, 2, lambda lo, hi, cancel: None)
    before = threading.active_count()
    for _ in range(200):
        _workers.map_items(lambda x: x, range(10), threads=3)
        _workers.run_parts(3, lambda part: None)
    assert threading.active_count() <= before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_gets_a_pool_of_its_own():
    _workers.map_items(lambda x: x, range(4), threads=2)     # threads in the parent
    assert _workers.pool_threads() >= 2
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12: fork with threads
        pid = os.fork()
    if pid == 0:                                             # the child
        code = 1
        try:
            if _workers.pool_threads() == 0 and \
                    _workers.map_items(lambda x: x + 1, range(6), threads=3) == list(range(1, 7)):
                code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_cuts():
    assert _workers.cuts([], 10) == [0, 0]
    assert _workers.cuts([3, 6, 9], 100) == [0, 3]
    assert _workers.cuts([3, 6, 9], 100, parts=3) == [0, 1, 2, 3]
    assert _workers.cuts([0, 0, 0], 100, parts=2) == [0, 3]
    # a chunk goes over the budget by one item at most
    assert _workers.cuts([1, 1000, 1001, 1002], 10) == [0, 2, 4]
    many = _workers.cuts(list(range(1, 100001)), 1000)
    assert many[0] == 0 and many[-1] == 100000 and len(many) == 101


@pytest.mark.skipif(sys.platform == "win32", reason="timing of thread wake-ups")
def test_small_calls_are_cheap():
    """The pool is kept: a one-item call costs a hand-over, not a thread."""
    _workers.map_items(lambda x: x, [0], threads=1)
    t0 = time.perf_counter()
    for _ in range(200):
        _workers.map_items(lambda x: x, [0], threads=1)
    assert (time.perf_counter() - t0) / 200 < 0.01
