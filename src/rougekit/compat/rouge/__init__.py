"""Drop-in for ``rouge`` 1.0.1 (pltrdy): its API and its numbers, exactly.

``from rougekit.compat.rouge import Rouge, FilesRouge`` instead of ``from
rouge import Rouge, FilesRouge``, or ``rougekit.install_as("rouge")`` to keep
the import as written. Results equal the package's with ``==`` (its F's
``1e-8`` included), and it raises what the package raises (same type and
message), but for ``RecursionError``: texts of thousands of words score.

>>> from rougekit.compat.rouge import Rouge
>>> scores = Rouge().get_scores(["the cat is on the mat"], ["the cat sat on the mat"])
>>> scores[0]["rouge-1"]["f"]
0.7999999950000002

Modules: ``rouge`` (``Rouge``, ``FilesRouge``) and ``rouge_score`` (the
scoring functions), as in the package. ``__version__`` is the version whose
API and results this reproduces.
"""
from rougekit.compat.rouge.rouge import FilesRouge, Rouge

__version__ = "1.0.1"
__all__ = ["FilesRouge", "Rouge"]
