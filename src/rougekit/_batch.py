"""Many items on worker threads, in chunks, with Ctrl-C honoured.

``map_chunks(n, threads, run)`` splits ``range(n)`` into chunks, calls
``run(lo, hi, cancel)`` for each on a pool of ``threads`` threads and returns
the chunks' results in order. The compiled engine releases the GIL while it
scores, so the chunks really run in parallel. The main thread waits in short
slices, so Ctrl-C (KeyboardInterrupt) is seen at once: ``cancel`` is then
set, and the workers, which poll it between items, stop after their current
one.

>>> map_chunks(5, 2, lambda lo, hi, cancel: list(range(lo, hi)), min_chunk=2)
[[0, 1], [2, 3], [4]]
"""
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable, List

from rougekit import _backend

__all__ = ["map_chunks", "chunk_bounds"]


def chunk_bounds(n: int, threads: int, min_chunk: int = 16, max_chunk: int = 1024) -> List[range]:
    """Chunks of ``range(n)``: about 8 per thread, within [min_chunk, max_chunk]."""
    size = max(min_chunk, min(max_chunk, n // (threads * 8) or 1))
    return [range(lo, min(lo + size, n)) for lo in range(0, n, size)]


def _wait(future: Any) -> Any:
    # A timeout keeps the main thread responsive to Ctrl-C while it waits.
    while True:
        try:
            return future.result(timeout=0.2)
        except FutureTimeout:
            continue


def map_chunks(n: int, threads: int, run: Callable[[int, int, Any], Any],
               min_chunk: int = 16, max_chunk: int = 1024) -> List[Any]:
    """``[run(lo, hi, cancel) for each chunk]``, the chunks run on ``threads``
    worker threads (even one: the main thread only waits, so Ctrl-C is seen).
    ``cancel`` is an ``engine.Cancel`` set when the caller is interrupted or
    a chunk raises; the exception then propagates."""
    chunks = chunk_bounds(n, threads, min_chunk, max_chunk)
    if not chunks:
        return []
    cancel = _backend.engine.Cancel()
    pool = ThreadPoolExecutor(max_workers=min(threads, len(chunks)))
    futures: List[Any] = []
    try:
        # Submitting is inside the try: a Ctrl-C that lands while the chunks
        # are handed out (starting a worker thread waits for it) must cancel
        # the chunks already running, or the pool's shutdown waits for all
        # of them to finish.
        for c in chunks:
            futures.append(pool.submit(run, c.start, c.stop, cancel))
        return [_wait(f) for f in futures]
    except BaseException:
        cancel.set()
        for f in futures:
            f.cancel()
        raise
    finally:
        pool.shutdown(wait=True)
