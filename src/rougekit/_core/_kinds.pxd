"""The rouge kinds: how every kernel names a rouge type (the C definition).

A kind is n >= 1 for rougeN, ``ROUGE_L`` for rougeL (the LCS of the whole
texts) and ``ROUGE_LSUM`` for rougeLsum (the summary-level union LCS of the
sentences). C needs them as compile-time constants, the pure backend (which
loads no extension) as Python ints: ``_kinds_py`` is the Python definition,
which ``rougekit._rouge_types`` and every pure twin import. Each compiled
kernel that takes kinds exports this enum to Python (``KIND_L``,
``KIND_LSUM``), and ``tests/test_backend.py`` checks those equal
``_kinds_py``'s.
"""

cdef enum RougeKind:
    ROUGE_L = -1
    ROUGE_LSUM = -2
