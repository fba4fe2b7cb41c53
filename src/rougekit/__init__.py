"""rougekit: ROUGE exactly as rouge-score computes it, from a compiled core.

Drop-in modules with rouge-score 0.1.2's names and results::

    from rougekit import rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorer.score(target, prediction)

Beside them: token-level functions (``rouge1``, ``rouge_l``, ``rouge_lsum``,
``lcs``, ...), ``rouge_1_score``, ``RougeScoreEvaluator`` and
``score_corpus`` for multi-reference corpus scoring with a signature;
``RougeIndex`` (one query against many stored texts) and ``deduplicate``
(the Self-Instruct / Alpaca ROUGE-L filter); ``score_frame`` (scores as
columns of a pandas, polars or pyarrow table; ``rougekit.dask`` and
``rougekit.spark`` for clusters);
``compute`` (Hugging Face evaluate's rouge), ``install_as_rouge_score`` (the
rouge_score shim), ``MeanAggregator`` (mergeable exact means).

``BACKEND`` says which kernels run: "compiled" (the Cython extension) or
"pure" (its pure-Python twin: used when the extension is not built, or forced
with the environment variable ``ROUGEKIT_PURE_PYTHON=1``).
"""
from rougekit import rouge_scorer, scoring, tokenize, tokenizers, word_tokenizers
from rougekit._backend import NAME as BACKEND
from rougekit._version import __version__
from rougekit._warn import RougekitWarning, SentenceSplitWarning, TokenizationWarning
from rougekit.aggregate import MeanAggregator
from rougekit.corpus import CorpusResult, score_corpus
from rougekit.evaluator import (
                                Evaluation,
                                MeasureType,
                                MissingFieldError,
                                RougeScoreEvaluator,
                                RougeType,
                                rouge_1_score,
)
from rougekit.frames import score_frame
from rougekit.hf import compute
from rougekit.index import RougeIndex, deduplicate
from rougekit.scoring import Score
from rougekit.shim import install_as_rouge_score, uninstall_as_rouge_score
from rougekit.signature import Signature, parse_signature
from rougekit.token_metrics import (
                                f1,
                                fbeta,
                                lcs,
                                overlap,
                                rouge1,
                                rouge2,
                                rouge_l,
                                rouge_lsum,
                                rouge_n,
                                rouge_s,
                                rouge_w,
)
from rougekit.word_tokenizers import get_tokenizer

__all__ = [
    "__version__", "BACKEND",
    # rouge-score's modules, drop-in
    "rouge_scorer", "scoring", "tokenize", "tokenizers",
    # token-level functions (candidate first, reference second)
    "Score", "rouge_n", "rouge1", "rouge2", "rouge_l", "rouge_lsum", "rouge_w", "rouge_s",
    "overlap",
    "lcs", "f1", "fbeta",
    # text-level evaluators
    "rouge_1_score", "RougeType", "MeasureType", "RougeScoreEvaluator",
    "Evaluation", "MissingFieldError",
    # corpus scoring and tokenizers
    "score_corpus", "CorpusResult", "word_tokenizers", "get_tokenizer",
    # the signature of a score's options
    "Signature", "parse_signature",
    # tables: pandas, polars, pyarrow (Dask and Spark: rougekit.dask, rougekit.spark)
    "score_frame",
    # entry points users already know, and mergeable means
    "compute", "install_as_rouge_score", "uninstall_as_rouge_score", "MeanAggregator",
    # warnings (filter them by class)
    "RougekitWarning", "TokenizationWarning", "SentenceSplitWarning",
    # many texts at once: one query against a collection, de-duplication
    "RougeIndex", "deduplicate",
]
