"""Type stub for the compiled per-evaluation counts of ROUGE-1.5.5 (twin:
``_rouge155_counts_py``)."""
from typing import Any, NamedTuple

import numpy as np

METRICS: tuple[str, ...]

class Evals(NamedTuple):
    values: np.ndarray
    bad: int

class Corpus:
    tokens: np.ndarray
    seq_start: np.ndarray
    seq_end: np.ndarray
    doc_ngram: np.ndarray
    doc_sent_lo: np.ndarray
    doc_sent_hi: np.ndarray
    vocab: int
    documents: int
    sequences: int
    def __init__(self, tokens: Any, seq_start: Any, seq_end: Any, doc_ngram: Any,
                 doc_sent_lo: Any, doc_sent_hi: Any, vocab: int) -> None: ...

class Jobs:
    peer_seq: np.ndarray
    peer_bag: np.ndarray
    model_off: np.ndarray
    model_seq: np.ndarray
    model_bag: np.ndarray
    documents: int
    models: int
    def __init__(self, peer_seq: Any, peer_bag: Any, model_off: Any, model_seq: Any,
                 model_bag: Any) -> None: ...
    def __len__(self) -> int: ...

def round5(x: float) -> float: ...
def score_evals(metric: str, corpus: Corpus, jobs: Jobs, *, n: int = ...,
                skip_distance: float = ..., skip_unigrams: bool = ..., weight: float = ...,
                best_model: bool = ..., alpha: float = ..., all_n: bool = ...) -> Evals: ...
