"""The worker threads of the process, and the ways work is handed to them.

Every threaded path of rougekit (pairs scored in batches and columns,
``RougeIndex``, ``deduplicate``, ROUGE-1.5.5's runs, summary files read)
hands its work here, as *items*: ``map_items(fn, items, threads)`` is
``[fn(x) for x in items]``; ``map_chunks(n, threads, run)`` cuts
``range(n)`` into chunks and calls ``run(lo, hi, cancel)`` for each;
``run_parts(parts, run)`` calls ``run(part)`` for each part at once;
``call(fn)`` runs one function on a worker; ``map_short`` is ``map_items``
for items of a few milliseconds, which one thread runs itself. The kernels
release the GIL, so the items really run in parallel.

The rules, the same for every path:

- A call uses at most ``threads`` threads at once; items are taken in
  order, results come back in order, and the first item (in order) that
  raises has its exception raised, once every item before it has run, as
  ``[fn(x) for x in items]`` would raise it.
- The calling thread only waits, in short slices, so Ctrl-C
  (KeyboardInterrupt) is seen at once (``map_short`` on one thread: at the
  end of the short item that runs). Then the call is cancelled: items not
  yet begun never begin, and running ones stop at their next check:
  ``map_chunks``' ``cancel`` (an ``engine.Cancel``, which the compiled engine
  polls between pairs), ``cancelled()``, which a long item polls between
  its steps, or the end of the item; callers keep the items, or their
  steps, short (a bounded number of texts, tokens or resamples each). The
  exception propagates as soon as no item runs any more: none is left
  running on shared state behind the caller's back (``call(detach=True)``
  excepted: work on objects of its own that cannot be cut short).
- A call made from inside a worker thread (a nested call) runs its items
  right there, one after another, so nesting cannot deadlock; it stops when
  the call around it is cancelled.
- The threads are kept for the next call: the pool grows to the most items
  that ran at once and keeps as many threads as the largest ``threads``
  asked for (any more end after a few idle seconds). A forked child starts
  with none (``os.register_at_fork``): the parent's threads do not exist
  there.

>>> map_items(lambda x: x * x, [1, 2, 3], threads=2)
[1, 4, 9]
>>> map_chunks(5, 2, lambda lo, hi, cancel: list(range(lo, hi)), min_chunk=2)
[[0, 1], [2, 3], [4]]
"""
import collections
import math
import os
import threading
from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from rougekit import _backend

__all__ = ["Cancelled", "call", "cancelled", "chunk_bounds", "cuts", "inside_worker",
           "map_chunks", "map_items", "map_short", "pool_threads", "run_parts"]

# How long the calling thread waits at a time: a Ctrl-C is acted on within
# this even where a signal does not interrupt a wait (Windows).
WAIT_SLICE = 0.1
# Idle seconds after which a thread beyond the kept number ends.
IDLE_SECONDS = 5.0


class Cancelled(Exception):
    """Raised by a nested call's items when the call around it is cancelled
    (the outer caller then raises its own exception, not this one)."""


# --- the pool -----------------------------------------------------------------------

class _Pool:
    """Threads that run queued tasks (one task: one thread's share of a
    call). ``idle`` counts the threads waiting for a task; a submit starts a
    thread for every task no idle thread will take, so a queued task never
    waits for another call's work to end."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.tasks: Any = collections.deque()
        self.idle = 0
        self.alive = 0      # threads running their loop
        self.keep = 0       # the largest ``threads`` asked for
        self.started = 0    # threads ever started (a test's thread-leak check)

    def submit(self, tasks: List[Callable[[], None]], threads: int) -> None:
        with self.lock:
            self.keep = max(self.keep, threads)
            self.tasks.extend(tasks)
            first = self.started + 1
            self.started += max(0, len(self.tasks) - self.idle)
            last = self.started
            self.wake.notify(len(tasks))
        for k in range(first, last + 1):
            threading.Thread(target=self.work, name=f"rougekit-worker-{k}", daemon=True).start()

    def discard(self, owner: Any) -> None:
        """Drop the queued tasks of a cancelled call (a Ctrl-C in ``submit``
        may leave them queued and no thread woken: they would hold the
        call, and all it refers to, until the next call woke a thread)."""
        with self.lock:
            if any(getattr(t, "__self__", None) is owner for t in self.tasks):
                self.tasks = collections.deque(
                    t for t in self.tasks if getattr(t, "__self__", None) is not owner)

    def work(self) -> None:
        _local.worker = True
        wake = self.wake
        with self.lock:
            self.alive += 1
            while True:
                while not self.tasks:
                    self.idle += 1
                    woken = wake.wait(IDLE_SECONDS)
                    self.idle -= 1
                    if not woken and not self.tasks and self.alive > self.keep:
                        self.alive -= 1
                        return
                task = self.tasks.popleft()
                self.lock.release()
                try:
                    task()
                finally:
                    # Not kept while idle: it holds its call, whose items
                    # and results may be large.
                    task = None
                    self.lock.acquire()


_pool = _Pool()
_local = threading.local()


def _forget_pool() -> None:
    # In a forked child only the forking thread exists; the old pool's lock
    # may be held by a thread that is gone. Start afresh.
    global _pool
    _pool = _Pool()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def inside_worker() -> bool:
    """Whether this thread is one of the pool's."""
    return getattr(_local, "worker", False)


def cancelled() -> bool:
    """Whether the call whose item this thread runs has been cancelled: a
    long item polls it between its steps and then returns early (its result
    is dropped). False outside the pool's items."""
    cancel = getattr(_local, "cancel", None)
    return cancel is not None and cancel.is_set()


def pool_threads() -> int:
    """The pool's threads now (alive, busy or idle)."""
    return _pool.alive


# --- one call -----------------------------------------------------------------------

class _Call:
    """One call's items, taken in order by up to ``threads`` tasks."""

    def __init__(self, fn: Callable[[int], Any], n: int, cancel: Any) -> None:
        self.fn = fn
        self.n = n
        self.cancel = cancel
        self.lock = threading.Lock()
        self.next = 0            # the next item to take
        self.running = 0         # items taken and not yet ended
        self.ended = 0
        self.stopped = False     # take no more items (cancelled, or an item raised)
        self.results: List[Any] = [None] * n
        self.errors: dict = {}
        self.done = threading.Event()    # every item ended, or stopped and none running
        self.begun = threading.Event()   # ``threads`` items taken (or all of them)
        self.begin_at = 1

    def task(self) -> None:
        """One thread's share: items in turn until none is left."""
        _local.cancel = self.cancel
        try:
            while True:
                with self.lock:
                    if self.stopped or self.next >= self.n:
                        return
                    i = self.next
                    self.next += 1
                    self.running += 1
                    if self.next >= self.begin_at:
                        self.begun.set()
                try:
                    self.results[i] = self.fn(i)
                except BaseException as exc:
                    with self.lock:
                        self.errors[i] = exc
                        self.stopped = True
                finally:
                    with self.lock:
                        self.running -= 1
                        self.ended += 1
                        if self.ended == self.n or (self.stopped and not self.running):
                            self.done.set()
        finally:
            _local.cancel = None

    def halt(self) -> None:
        """Cancel: no item begins any more, running ones are told to stop."""
        with self.lock:
            self.stopped = True
            if not self.running:
                self.done.set()
        self.cancel.set()


def _wait(event: Any) -> None:
    while not event.wait(WAIT_SLICE):
        pass


def _run(fn: Callable[[int], Any], n: int, threads: int, cancel: Any = None,
         meanwhile: Optional[Callable[[], None]] = None, detach: bool = False,
         meanwhile_at_once: bool = False) -> List[Any]:
    """``[fn(i) for i in range(n)]`` on at most ``threads`` pool threads.
    ``meanwhile()`` runs in the calling thread once the workers have begun
    (``meanwhile_at_once``: at once, for work that releases the GIL).
    ``detach``: when cancelled, raise at once, leaving the running items to
    end by themselves (their results dropped)."""
    if cancel is None:
        cancel = _backend.engine.Cancel()
    if n == 0:
        if meanwhile is not None:
            meanwhile()
        return []
    outer = getattr(_local, "cancel", None) if inside_worker() else None
    if inside_worker():
        # Nested: here, in order, until the call around this one is cancelled.
        if meanwhile is not None:
            meanwhile()
        out = []
        for i in range(n):
            if outer is not None and outer.is_set():
                raise Cancelled("the call around this one was cancelled")
            out.append(fn(i))
        return out
    job = _Call(fn, n, cancel)
    tasks = max(1, min(threads, n))
    job.begin_at = tasks
    try:
        _pool.submit([job.task] * tasks, threads)
        if meanwhile is not None:
            # Once the workers have begun (and so hold the GIL only briefly
            # before their kernel calls release it).
            if not meanwhile_at_once:
                _wait(job.begun)
            meanwhile()
        _wait(job.done)
    except BaseException:
        # Ctrl-C, or anything else here: cancel, and return only once no
        # item runs any more (a second Ctrl-C meanwhile changes nothing).
        while True:
            try:
                job.halt()
                _pool.discard(job)
                if not detach:
                    _wait(job.done)
                break
            except KeyboardInterrupt:
                continue
        raise
    if job.errors:
        raise job.errors[min(job.errors)]
    return job.results


# --- the ways to hand work over ---------------------------------------------------------

def map_items(fn: Callable[[Any], Any], items: Sequence[Any], threads: int,
              meanwhile: Optional[Callable[[], None]] = None) -> List[Any]:
    """``[fn(x) for x in items]``, the items on up to ``threads`` threads.
    ``meanwhile()``, if given, runs in the calling thread once the workers
    have begun (then it waits)."""
    items = list(items)
    return _run(lambda i: fn(items[i]), len(items), threads, meanwhile=meanwhile)


def map_short(fn: Callable[[Any], Any], items: Sequence[Any], threads: int) -> List[Any]:
    """``map_items`` for short items (each cut by ``cuts`` to a few
    milliseconds of kernel work): this thread runs every ``threads``-th
    item itself (all of them with one thread), where a Ctrl-C is raised at
    the end of the item running, and the pool the others. Handing a short
    item to a pool thread costs more than the item (the thread's wake-up,
    and caches warmed on the other core: one thread scoring a RougeIndex
    query took half again as long through the pool). An item that raises
    has its exception raised, though not always the first in order.

    >>> map_short(lambda x: x + 1, [1, 2], threads=1)
    [2, 3]
    >>> map_short(lambda x: x * 10, range(7), threads=3)
    [0, 10, 20, 30, 40, 50, 60]
    """
    items = list(items)
    if threads <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    # This thread takes every threads-th item (the cuts make them of equal
    # cost), threads - 1 pool threads the others.
    here = items[::threads]
    there = [x for k, x in enumerate(items) if k % threads]
    done_here: List[Any] = []
    done_there = _run(lambda i: fn(there[i]), len(there), threads - 1,
                      meanwhile=lambda: done_here.extend(fn(x) for x in here),
                      meanwhile_at_once=True)
    out = []
    for k in range(len(items)):
        out.append(done_here[k // threads] if k % threads == 0
                   else done_there[k - k // threads - 1])
    return out


def call(fn: Callable[[], Any], detach: bool = False) -> Any:
    """``fn()`` on a worker thread, this thread waiting, so that a Ctrl-C is
    seen while it runs. The KeyboardInterrupt is raised once ``fn`` returns
    (keep it short), or with ``detach`` at once: for work that cannot be cut
    short and touches only objects of its own (the caller never sees them
    again), which then ends by itself on its thread, its result dropped."""
    return _run(lambda i: fn(), 1, 1, detach=detach)[0]


def run_parts(parts: int, run: Callable[[int], Any]) -> None:
    """``run(part)`` for each part in ``range(parts)``, on ``parts`` threads
    at once (for work the parts share among themselves, e.g. a Dedup
    block's texts; nested, they run one after another)."""
    _run(run, parts, parts)


def chunk_bounds(n: int, threads: int, min_chunk: int = 16, max_chunk: int = 1024) -> List[range]:
    """Chunks of ``range(n)``: about 8 per thread, within [min_chunk, max_chunk]."""
    size = max(min_chunk, min(max_chunk, n // (threads * 8) or 1))
    return [range(lo, min(lo + size, n)) for lo in range(0, n, size)]


def map_chunks(n: int, threads: int, run: Callable[[int, int, Any], Any],
               min_chunk: int = 16, max_chunk: int = 1024) -> List[Any]:
    """``[run(lo, hi, cancel) for each chunk of range(n)]`` (``chunk_bounds``)
    on ``threads`` threads (even one: this thread only waits). ``cancel`` is
    an ``engine.Cancel``, set when the call is cancelled: ``run`` polls it
    (the compiled engine does, between pairs) and may then return early."""
    chunks = chunk_bounds(n, threads, min_chunk, max_chunk)
    cancel = _backend.engine.Cancel()
    outer = getattr(_local, "cancel", None)
    if inside_worker() and outer is not None:
        cancel = outer              # nested: the outer call's flag stops these too
    return _run(lambda i: run(chunks[i].start, chunks[i].stop, cancel), len(chunks), threads,
                cancel)


def cuts(cumulative: Any, budget: float, parts: int = 1) -> List[int]:
    """Where to cut items into consecutive chunks, given ``cumulative[i]``,
    the cost of items 0 to i together (e.g. ``np.cumsum`` of text lengths):
    ``[0, ..., len(cumulative)]``, each chunk costing ``budget`` at most,
    or one item more (an item costing more ends its chunk), and at least
    ``parts`` chunks when there are as many items: chunks short enough to
    end soon after a Ctrl-C, and enough to keep ``parts`` threads busy.

    >>> cuts([5, 10, 15, 20, 50, 51], budget=10)
    [0, 2, 4, 5, 6]
    >>> cuts([1, 2, 3, 4, 5, 6], budget=100, parts=3)
    [0, 2, 4, 6]
    """
    cum = np.asarray(cumulative)
    n = len(cum)
    if n == 0:
        return [0, 0]
    total = float(cum[-1])
    if parts > 1:
        budget = min(budget, total / min(parts, n))
    if total <= budget or budget <= 0:
        return [0, n]
    marks = np.arange(1, math.ceil(total / budget)) * budget
    if cum.dtype.kind in "iu":      # (float marks would convert all of cum)
        marks = np.ceil(marks).astype(cum.dtype)
    out = [0]
    for end in (np.searchsorted(cum, marks, side="left") + 1).tolist():
        if out[-1] < end < n:
            out.append(end)
    out.append(n)
    return out
