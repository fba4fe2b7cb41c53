"""Choose the kernels: the compiled extension, or its pure-Python twin.

The compiled modules are used when they import, unless the environment
variable ``ROUGEKIT_PURE_PYTHON`` is set to a non-empty value other than
"0". ``NAME`` is "compiled" or "pure". Both expose the same functions.
"""
import os

_force_pure = os.environ.get("ROUGEKIT_PURE_PYTHON", "") not in ("", "0")

if not _force_pure:
    try:
        from rougekit._lcs import lcs_indices, lcs_length, summary_lcs_hits, union_lcs
        from rougekit._overlap import ngram_overlap
        from rougekit._core import rouge155_c as rouge155
        NAME = "compiled"
    except ImportError:
        _force_pure = True

if _force_pure:
    from rougekit._pure import (lcs_indices, lcs_length, ngram_overlap,
                                summary_lcs_hits, union_lcs)
    from rougekit._core import rouge155_py as rouge155  # type: ignore[no-redef]
    NAME = "pure"

__all__ = ["NAME", "lcs_length", "lcs_indices", "union_lcs",
           "summary_lcs_hits", "ngram_overlap", "rouge155"]
