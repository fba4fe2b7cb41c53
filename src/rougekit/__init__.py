"""rougekit: ROUGE exactly as rouge-score computes it, from a compiled core.

Drop-in modules with rouge-score 0.1.2's names and results::

    from rougekit import rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorer.score(target, prediction)

``BACKEND`` says which kernels run: "compiled" (the Cython extension) or
"pure" (its pure-Python twin: used when the extension is not built, or forced
with the environment variable ``ROUGEKIT_PURE_PYTHON=1``).
"""
from rougekit._version import __version__
from rougekit._backend import NAME as BACKEND
from rougekit import rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["__version__", "BACKEND", "rouge_scorer", "scoring", "tokenize",
           "tokenizers"]
