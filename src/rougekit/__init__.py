"""rougekit: ROUGE exactly as rouge-score computes it, from a compiled core.

Drop-in modules with rouge-score 0.1.2's names and results::

    from rougekit import rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorer.score(target, prediction)

``rougekit.RougeScorer`` is the same class. Every entry point that scores
takes the same options: ``options=ScoringOptions(...)``, ``flavor=`` (another
package's ROUGE, with its own switches) and the option fields as keywords,
with the same defaults (``DEFAULT_ROUGE_TYPES``, ``DEFAULT_SEED``).

Beside them: token-level functions (``rouge1``, ``rouge_l``, ``rouge_lsum``,
``lcs``, ...), ``rouge_1_score``, ``RougeScoreEvaluator`` and
``score_corpus`` for multi-reference corpus scoring with a signature;
``explain`` (what one pair matched: tokens, spans, matches, counts);
``score_ids`` (ROUGE of token-id batches, columns out; ``rougekit.rewards``
for RL reward functions); ``RougeIndex`` (one query against many stored texts) and ``deduplicate``
(the Self-Instruct / Alpaca ROUGE-L filter); ``score_frame`` (scores as
columns of a pandas, polars or pyarrow table; ``rougekit.dask`` and
``rougekit.spark`` for clusters);
``compute`` (Hugging Face evaluate's rouge), ``install_as_rouge_score`` (the
rouge_score shim), ``MeanAggregator`` (mergeable exact means);
``rougekit.compat`` (drop-ins for pltrdy's ``rouge`` and ``rouge-chinese``)
and ``install_as(name)`` (``import rouge`` gives rougekit's);
``score_corpus(..., flavor=...)`` (other packages' ROUGE: ``rougekit.flavors``)
and ``audit`` (every flavor's numbers, and the stages that make two differ).

``BACKEND`` says which kernels run: "compiled" (the Cython extension) or
"pure" (its pure-Python twin: used when the extension is not built, or forced
with the environment variable ``ROUGEKIT_PURE_PYTHON=1``).
"""
import importlib
import importlib.util
import sys
import types
from typing import TYPE_CHECKING, Any

from rougekit._version import __version__

if TYPE_CHECKING:  # what the names are, for type checkers; imported on first use
    from rougekit import rouge_scorer, scoring, tokenize, tokenizers, word_tokenizers
    from rougekit._backend import NAME as BACKEND
    from rougekit._options import DEFAULT_ROUGE_TYPES, DEFAULT_SEED, ScoringOptions
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
    from rougekit.explanation import Explanation, Explanations, explain
    from rougekit.flavor_audit import AuditResult, AuditStep, audit
    from rougekit.frames import score_frame
    from rougekit.hf import compute
    from rougekit.ids import score_ids
    from rougekit.index import RougeIndex, deduplicate
    from rougekit.rouge_scorer import RougeScorer
    from rougekit.scoring import Score
    from rougekit.shim import (
        install_as,
        install_as_rouge_score,
        uninstall_as,
        uninstall_as_rouge_score,
    )
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

# Every public name is imported on first use (PEP 562), so a command that
# needs little (``rougekit rouge155``) starts without the rest: name ->
# (module, attribute), attribute None for a submodule.
_LAZY = {
    "rouge_scorer": ("rougekit.rouge_scorer", None),
    "scoring": ("rougekit.scoring", None),
    "tokenize": ("rougekit.tokenize", None),
    "tokenizers": ("rougekit.tokenizers", None),
    "word_tokenizers": ("rougekit.word_tokenizers", None),
    "BACKEND": ("rougekit._backend", "NAME"),
    "RougekitWarning": ("rougekit._warn", "RougekitWarning"),
    "SentenceSplitWarning": ("rougekit._warn", "SentenceSplitWarning"),
    "TokenizationWarning": ("rougekit._warn", "TokenizationWarning"),
    "MeanAggregator": ("rougekit.aggregate", "MeanAggregator"),
    "CorpusResult": ("rougekit.corpus", "CorpusResult"),
    "ScoringOptions": ("rougekit._options", "ScoringOptions"),
    "DEFAULT_ROUGE_TYPES": ("rougekit._options", "DEFAULT_ROUGE_TYPES"),
    "DEFAULT_SEED": ("rougekit._options", "DEFAULT_SEED"),
    "RougeScorer": ("rougekit.rouge_scorer", "RougeScorer"),
    "score_corpus": ("rougekit.corpus", "score_corpus"),
    "Evaluation": ("rougekit.evaluator", "Evaluation"),
    "MeasureType": ("rougekit.evaluator", "MeasureType"),
    "MissingFieldError": ("rougekit.evaluator", "MissingFieldError"),
    "RougeScoreEvaluator": ("rougekit.evaluator", "RougeScoreEvaluator"),
    "RougeType": ("rougekit.evaluator", "RougeType"),
    "rouge_1_score": ("rougekit.evaluator", "rouge_1_score"),
    "explain": ("rougekit.explanation", "explain"),
    "Explanation": ("rougekit.explanation", "Explanation"),
    "Explanations": ("rougekit.explanation", "Explanations"),
    "audit": ("rougekit.flavor_audit", "audit"),
    "AuditResult": ("rougekit.flavor_audit", "AuditResult"),
    "AuditStep": ("rougekit.flavor_audit", "AuditStep"),
    "score_frame": ("rougekit.frames", "score_frame"),
    "compute": ("rougekit.hf", "compute"),
    "score_ids": ("rougekit.ids", "score_ids"),
    "RougeIndex": ("rougekit.index", "RougeIndex"),
    "deduplicate": ("rougekit.index", "deduplicate"),
    "Score": ("rougekit.scoring", "Score"),
    "install_as": ("rougekit.shim", "install_as"),
    "uninstall_as": ("rougekit.shim", "uninstall_as"),
    "install_as_rouge_score": ("rougekit.shim", "install_as_rouge_score"),
    "uninstall_as_rouge_score": ("rougekit.shim", "uninstall_as_rouge_score"),
    "Signature": ("rougekit.signature", "Signature"),
    "parse_signature": ("rougekit.signature", "parse_signature"),
    "f1": ("rougekit.token_metrics", "f1"),
    "fbeta": ("rougekit.token_metrics", "fbeta"),
    "lcs": ("rougekit.token_metrics", "lcs"),
    "overlap": ("rougekit.token_metrics", "overlap"),
    "rouge1": ("rougekit.token_metrics", "rouge1"),
    "rouge2": ("rougekit.token_metrics", "rouge2"),
    "rouge_l": ("rougekit.token_metrics", "rouge_l"),
    "rouge_lsum": ("rougekit.token_metrics", "rouge_lsum"),
    "rouge_n": ("rougekit.token_metrics", "rouge_n"),
    "rouge_s": ("rougekit.token_metrics", "rouge_s"),
    "rouge_w": ("rougekit.token_metrics", "rouge_w"),
    "get_tokenizer": ("rougekit.word_tokenizers", "get_tokenizer"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attribute = _LAZY[name]
    elif not name.startswith("__") and importlib.util.find_spec(f"rougekit.{name}"):
        # a submodule (rougekit.corpus, rougekit.lang, ...), as when the
        # package imported everything on import
        module, attribute = f"rougekit.{name}", None
    else:
        raise AttributeError(f"module 'rougekit' has no attribute {name!r}")
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))


# --- the names pickles of earlier versions use --------------------------------
# Until the kernels took the design card's names, a stem cache pickled as
# ``rougekit._core.porter_c.StemCache`` (``porter_py`` on the pure backend) and
# rougekit.porter's PorterStemmer as ``rougekit._core.porter_py.PorterStemmer``:
# a scorer, DefaultTokenizer or named tokenizer that stems carries one. They
# now pickle as ``rougekit.porter.new_stem_cache`` and ``rougekit.porter.PorterStemmer``,
# paths the layout of _core cannot move; these two modules, found only by name
# (pickle imports the module, then takes the attribute), load the old pickles.
# The package (imported before any of its modules) finds them, so that
# rougekit._core names nothing above it, and makes them on first import only.
_OLD_PICKLE_MODULES = {
    "rougekit._core.porter_c": {"StemCache": "new_stem_cache"},
    "rougekit._core.porter_py": {"StemCache": "new_stem_cache", "PorterStemmer": "PorterStemmer"},
}


class _OldPickleModules:
    """The finder and loader (on ``sys.meta_path``) of _OLD_PICKLE_MODULES."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
        if name not in _OLD_PICKLE_MODULES:
            return None
        return importlib.util.spec_from_loader(name, _OldPickleModules)  # type: ignore[arg-type]

    @staticmethod
    def create_module(spec: Any) -> types.ModuleType:
        names = _OLD_PICKLE_MODULES[spec.name]
        module = types.ModuleType(spec.name,
                                  f"Old name of a kernel, kept for pickles: {sorted(names)}.")

        def __getattr__(attr: str) -> Any:
            if attr not in names:
                raise AttributeError(f"module {spec.name!r} has no attribute {attr!r}")
            from rougekit import porter
            return getattr(porter, names[attr])

        module.__getattr__ = __getattr__  # type: ignore[method-assign]
        return module

    @staticmethod
    def exec_module(module: types.ModuleType) -> None:
        pass


sys.meta_path.append(_OldPickleModules)


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
    # the scorer, corpus scoring, the options every entry point takes, tokenizers
    "RougeScorer", "score_corpus", "CorpusResult", "ScoringOptions", "DEFAULT_ROUGE_TYPES",
    "DEFAULT_SEED", "word_tokenizers", "get_tokenizer",
    # the signature of a score's options
    "Signature", "parse_signature",
    # tables: pandas, polars, pyarrow (Dask and Spark: rougekit.dask, rougekit.spark)
    "score_frame",
    # entry points users already know, and mergeable means
    "compute", "install_as_rouge_score", "uninstall_as_rouge_score", "MeanAggregator",
    # code written for rouge_score, rouge or rouge_chinese, unchanged (rougekit.compat)
    "install_as", "uninstall_as",
    # warnings (filter them by class)
    "RougekitWarning", "TokenizationWarning", "SentenceSplitWarning",
    # many texts at once: one query against a collection, de-duplication
    "RougeIndex", "deduplicate",
    # token ids in, columns out (training signals: rougekit.rewards)
    "score_ids",
    # what one pair matched, per rouge type
    "explain", "Explanation", "Explanations",
    # other packages' ROUGE (score_corpus(flavor=...)) and why they differ
    "audit", "AuditResult", "AuditStep",
]
