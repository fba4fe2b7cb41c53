"""The ``rougekit`` command and ``python -m rougekit``.

``rougekit rouge155 ...`` goes straight to ROUGE-1.5.5's command line
(:mod:`rougekit.rouge155.cli`), which needs numpy and the ROUGE-1.5.5
modules only, so it starts without importing the rest of rougekit (about
0.1 s of a run on thousands of summaries); every other command goes to
:func:`rougekit.cli.main`, which hands ``rouge155`` over the same way when
it is called directly.

Both command lines run inside :func:`rougekit._streams.guard_streams` (closed
and broken output streams).
"""
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command; returns its exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["rouge155"]:
        from rougekit.rouge155.cli import main as rouge155_main
        return rouge155_main(argv[1:])
    from rougekit.cli import main as cli_main
    return cli_main(argv)
