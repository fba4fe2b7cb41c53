"""The one switch between the compiled core and its pure-Python twin.

Decided once, at import, for every kernel of ``KERNELS``: the compiled modules
``rougekit._core._<name>`` when they import, else their pure-Python twins
``rougekit._core._<name>_py``, which have the same functions, results and
errors. The environment variable ``ROUGEKIT_PURE_PYTHON`` set to anything but
"" or "0" chooses the pure twins, and then no extension module is imported at
all.

Everything else in rougekit reaches the kernels through this module::

    from rougekit import _backend
    _backend.NAME                      # "compiled" or "pure"
    _backend.lcs.lcs_length([0, 1, 2], [0, 2])
    _backend.engine.Engine(...)        # a whole pair scored at once

>>> lcs.lcs_length([0, 1, 2], [0, 2]), NAME in ("compiled", "pure")
(2, True)
"""
import copyreg
import importlib
import os
from typing import TYPE_CHECKING, Any, Callable, Tuple

from rougekit._core import _porter_py

#: Every kernel, by name: each is a module of this one, loaded from
#: ``rougekit._core._<name>`` (compiled) or ``rougekit._core._<name>_py`` (pure).
KERNELS = ("alignment", "dedup_filter", "engine", "ids_score",
           "lcs", "overlap", "pltrdy_counts", "porter", "punkt",
           "rouge155_bootstrap", "rouge155_counts", "rouge155_lcs", "rouge155_stem",
           "rouge155_tokens", "text_index", "tokenizer")

__all__ = ["NAME", "PURE_REQUESTED", "KERNELS", "new_stem_cache", *KERNELS]

#: True when ROUGEKIT_PURE_PYTHON asks for the pure-Python twins.
PURE_REQUESTED = os.environ.get("ROUGEKIT_PURE_PYTHON", "") not in ("", "0")

#: "compiled" or "pure": the kernels in use.
NAME: str


def _load(suffix: str) -> dict:
    return {name: importlib.import_module(f"rougekit._core._{name}{suffix}")
            for name in KERNELS}


if TYPE_CHECKING:  # what type checkers see: the compiled modules' stubs (.pyi)
    from rougekit._core import _alignment as alignment  # noqa: F401
    from rougekit._core import _dedup_filter as dedup_filter  # noqa: F401
    from rougekit._core import _engine as engine  # noqa: F401
    from rougekit._core import _ids_score as ids_score  # noqa: F401
    from rougekit._core import _lcs as lcs  # noqa: F401
    from rougekit._core import _overlap as overlap  # noqa: F401
    from rougekit._core import _pltrdy_counts as pltrdy_counts  # noqa: F401
    from rougekit._core import _porter as porter  # noqa: F401
    from rougekit._core import _punkt as punkt  # noqa: F401
    from rougekit._core import _rouge155_bootstrap as rouge155_bootstrap  # noqa: F401
    from rougekit._core import _rouge155_counts as rouge155_counts  # noqa: F401
    from rougekit._core import _rouge155_lcs as rouge155_lcs  # noqa: F401
    from rougekit._core import _rouge155_stem as rouge155_stem  # noqa: F401
    from rougekit._core import _rouge155_tokens as rouge155_tokens  # noqa: F401
    from rougekit._core import _text_index as text_index  # noqa: F401
    from rougekit._core import _tokenizer as tokenizer  # noqa: F401
else:
    _kernels = None
    if not PURE_REQUESTED:
        try:
            _kernels, NAME = _load(""), "compiled"
        except ImportError:  # not built (a pure-Python install)
            pass
    if _kernels is None:
        _kernels, NAME = _load("_py"), "pure"
    globals().update(_kernels)
    del _kernels


def new_stem_cache() -> Any:
    """A new, empty stem cache of the kernel in use.

    Every stem cache pickles as a call of this function (registered below
    with ``copyreg``, here where the kernel is chosen, so that the kernels
    name nothing above them), under its public name
    ``rougekit.porter.new_stem_cache``: a stemming scorer or
    ``DefaultTokenizer`` carries one, and its pickle loads whatever the
    layout of ``rougekit._core`` and on either backend (keep the name:
    pickles record it). A cache is a memo: a pickled copy starts empty.

        >>> from rougekit import _backend
        >>> type(new_stem_cache()) is _backend.porter.StemCache
        True
    """
    return porter.StemCache()


new_stem_cache.__module__ = "rougekit.porter"   # where pickles find it (re-exported there)


def _pickle_stem_cache(cache: Any) -> Tuple[Callable[[], Any], Tuple[()]]:
    return new_stem_cache, ()


for _stem_cache in {porter.StemCache, _porter_py.StemCache}:
    copyreg.pickle(_stem_cache, _pickle_stem_cache)
