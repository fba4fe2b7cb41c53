"""The ``torchmetrics`` flavor: ``torchmetrics.text.rouge.ROUGEScore``.

``ROUGEScore(use_stemmer=False, accumulate="best", rouge_keys=(...))``: each
pair scored as rouge-score scores it (its tokens, its Porter stemmer,
rougeLsum on nltk's ``sent_tokenize`` sentences), then in float32: an item's
value from its references (``accumulate="best"``: per rouge type the first
reference with the largest float32 F; ``"avg"``: torch's float32 mean of the
references' values, in its summation order), and the corpus value the mean
of the items' float32 values (their exact mean rounded once to float32:
where torchmetrics' own float32 additions round, its value differs in the
last bits, docs/guides/training.md). The arithmetic is
``rougekit._torchmetrics_numbers``'s; ``rougekit.torchmetrics.ROUGEScore``
is the metric itself.
"""
from typing import Any, Dict, Sequence, Tuple

import numpy as np

from rougekit import _stages
from rougekit._flavors._flavor import Flavor, Switch, register
from rougekit._flavors.rouge_score import USE_STEMMER
from rougekit._torchmetrics_numbers import (
    float32_means,
    item_values,
    limb_sums,
    torch_float32_mean,
)
from rougekit.scoring import Score

__all__ = ["ACCUMULATE", "ROUGE_KEYS", "SUMMATION", "FLAVOR", "best_float32",
           "mean_float32", "float32_corpus_means", "torch_order_corpus_means"]


def best_float32(columns: np.ndarray, references_per_item: Sequence[int]) -> np.ndarray:
    """Per item and rouge type, the float32 P, R and F of the first
    reference with the largest float32 F (as float64 numbers)."""
    return item_values(columns, references_per_item, "best").astype(np.float64)


def mean_float32(columns: np.ndarray, references_per_item: Sequence[int]) -> np.ndarray:
    """Per item, rouge type and measure, torch's float32 mean of the
    references' float32 values (as float64 numbers)."""
    return item_values(columns, references_per_item, "avg").astype(np.float64)


def float32_corpus_means(options: Any, columns: np.ndarray) -> Tuple[Dict[str, Score], None]:
    """The mean of the items' float32 values: their exact mean rounded once
    to float32."""
    means = float32_means(limb_sums(columns.astype(np.float32)), columns.shape[1])
    values = means.astype(np.float64).tolist()
    return {t: Score(*values[3 * k:3 * k + 3]) for k, t in enumerate(options.rouge_types)}, None


def torch_order_corpus_means(options: Any, columns: np.ndarray
                             ) -> Tuple[Dict[str, Score], None]:
    """The mean of the items' float32 values as torch takes it on one
    thread: its float32 sum in the items' order, divided in float32
    (``rougekit.torchmetrics.ROUGEScore(summation="torch")``; with x86's 8
    lanes, ``TORCH_SUM_LANES``: the metric reads torch's own, this module
    does not import torch)."""
    means = torch_float32_mean(columns.astype(np.float32))
    values = np.asarray(means, dtype=np.float64).tolist()
    return {t: Score(*values[3 * k:3 * k + 3]) for k, t in enumerate(options.rouge_types)}, None


def _rouge_keys(value: Any) -> Dict[str, Any]:
    """torchmetrics' ``rouge_keys``: a name or a tuple of names."""
    return {"rouge_types": (value,) if isinstance(value, str) else tuple(value)}


#: torchmetrics' ``accumulate``: how an item's references combine.
ACCUMULATE = Switch("accumulate", ("multi_ref",),
                    (("best", ("best-float32",)), ("avg", ("mean-float32",))),
                    help="best: the reference with the largest F; avg: their float32 mean")
#: ``rougekit.torchmetrics.ROUGEScore``'s ``summation``: how the corpus mean adds.
SUMMATION = Switch("summation", ("aggregation",),
                   (("exact", ("mean-float32",)), ("torch", ("mean-float32-torch",))),
                   help="exact: the exact mean; torch: torch's float32 additions in the "
                        "items' order, as torchmetrics' compute() on one thread")
#: torchmetrics' ``rouge_keys``: the rouge types.
ROUGE_KEYS = Switch("rouge_keys", ("rouge_types",), translate=_rouge_keys,
                    help="rouge1 .. rouge9, rougeL, rougeLsum")

_stages.MULTI_REF_RULES.add("best-float32", best_float32)
_stages.MULTI_REF_RULES.add("mean-float32", mean_float32)
_stages.AGGREGATIONS.add("mean-float32", float32_corpus_means)
_stages.AGGREGATIONS.add("mean-float32-torch", torch_order_corpus_means)

FLAVOR = register(Flavor(
    name="torchmetrics",
    package="torchmetrics: torchmetrics.text.rouge.ROUGEScore",
    fields={"sentence_split": "nltk", "multi_ref": "best-float32",
            "aggregation": "mean-float32"},
    switches=(USE_STEMMER, ACCUMULATE, ROUGE_KEYS, SUMMATION)))
