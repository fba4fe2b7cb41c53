"""A coarse progress line on stderr, for the CLI and long library calls.

Drawn only when stderr is a terminal (unless told otherwise), so logs and
pipes stay clean; redrawn at most ten times a second; erased when done or
interrupted. With ``delay``, nothing is drawn before that many seconds have
passed, so short runs stay silent.

>>> with Progress(10, enabled=False) as bar:
...     bar.update(5)
"""
import sys
import time
from typing import Any, Optional

__all__ = ["Progress"]


class Progress:
    """``Progress(total, label, unit, enabled=None, delay=0.0)``: a context
    manager whose ``update(done, note="")`` redraws the line."""

    def __init__(self, total: int, label: str = "scoring", unit: str = "items",
                 enabled: Optional[bool] = None, delay: float = 0.0) -> None:
        self.total, self.label, self.unit = total, label, unit
        self.active = sys.stderr.isatty() if enabled is None else bool(enabled)
        self.shown = False
        self.last = 0.0
        self.start = time.monotonic() + delay

    def update(self, done: int, note: str = "") -> None:
        now = time.monotonic()
        if not self.active or now < self.start or \
                (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        width = 30
        filled = width * done // self.total if self.total else width
        # Marked first: a Ctrl-C during the write must still erase the line.
        self.shown = True
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                         f"{done}/{self.total} {self.unit}{note}")
        sys.stderr.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")       # erase the line
            sys.stderr.flush()
