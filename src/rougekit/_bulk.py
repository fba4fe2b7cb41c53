"""Building many small containers at once without CPython's cyclic GC.

A result with a dict of Scores per item (``CorpusResult.per_item``) or a
list per item (checked references) is hundreds of thousands of new tuples,
dicts and lists. Each is tracked by the cyclic garbage collector, and every
700 allocations a collection runs over the young ones; those that survive
(all of them, here) make the older generations grow, and their collections
traverse everything built so far. On 100,000 items of four rouge types that
is most of the time spent building them. The containers built here hold only
numbers and strings (no cycles), so the collector has nothing to find:
``without_gc()`` pauses it while they are built, and restores it as it was.

>>> import gc
>>> with without_gc():
...     rows = [{"a": (1.0, 2.0)} for _ in range(3)]
...     paused = not gc.isenabled()
>>> paused, gc.isenabled()
(True, True)
"""
import contextlib
import gc
from typing import Iterator

__all__ = ["without_gc"]


@contextlib.contextmanager
def without_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (reference counting
    still frees everything at once); restore it as it was, also on an error.
    Another thread's collection is only postponed until the block ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
