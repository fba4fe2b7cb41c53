"""The one switch between the compiled core and its pure-Python twin.

Decided once, at import, for every kernel: the compiled modules of
``rougekit._core`` (``_<name>``) when they import, else their pure-Python twins
(``_<name>_py``), which have the same functions, results and errors. The environment
variable ``ROUGEKIT_PURE_PYTHON`` set to anything but "" or "0" chooses the
pure twins, and then no extension module is imported at all.

Everything else in rougekit reaches the kernels through this module::

    from rougekit import _backend
    _backend.NAME                      # "compiled" or "pure"
    _backend.lcs.lcs_length([0, 1, 2], [0, 2])
    _backend.engine.Engine(...)        # a whole pair scored at once

>>> lcs.lcs_length([0, 1, 2], [0, 2]), NAME in ("compiled", "pure")
(2, True)
"""
import os

__all__ = ["NAME", "PURE_REQUESTED", "engine", "index", "lcs", "overlap", "porter",
           "rouge155", "tokenizer"]

#: True when ROUGEKIT_PURE_PYTHON asks for the pure-Python twins.
PURE_REQUESTED = os.environ.get("ROUGEKIT_PURE_PYTHON", "") not in ("", "0")

_use_pure = PURE_REQUESTED
if not _use_pure:
    try:
        from rougekit._core import _engine as engine
        from rougekit._core import _index as index
        from rougekit._core import _lcs as lcs
        from rougekit._core import _overlap as overlap
        from rougekit._core import _porter as porter
        from rougekit._core import _rouge155 as rouge155
        from rougekit._core import _tokenizer as tokenizer
        NAME = "compiled"
    except ImportError:  # not built (a pure-Python install)
        _use_pure = True

if _use_pure:
    from rougekit._core import _engine_py as engine  # type: ignore[no-redef]
    from rougekit._core import _index_py as index  # type: ignore[no-redef]
    from rougekit._core import _lcs_py as lcs  # type: ignore[no-redef]
    from rougekit._core import _overlap_py as overlap  # type: ignore[no-redef]
    from rougekit._core import _porter_py as porter  # type: ignore[no-redef]
    from rougekit._core import _rouge155_py as rouge155  # type: ignore[no-redef]
    from rougekit._core import _tokenizer_py as tokenizer  # type: ignore[no-redef]
    NAME = "pure"
