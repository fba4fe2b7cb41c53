"""The rouge kinds: how every kernel names a rouge type (the Python
definition; ``_kinds.pxd`` is the C one, and ``tests/test_backend.py`` checks
that the compiled kernels export the same values).

A kind is n >= 1 for rougeN, ``ROUGE_L`` for rougeL (the LCS of the whole
texts) and ``ROUGE_LSUM`` for rougeLsum (the summary-level union LCS of the
sentences). ``rougekit._rouge_types`` maps rouge type names to kinds.
"""

__all__ = ["ROUGE_L", "ROUGE_LSUM"]

ROUGE_L = -1
ROUGE_LSUM = -2
