"""Type stub for the compiled ROUGE-L and ROUGE-W of ROUGE-1.5.5 (twin: ``_rouge155_lcs_py``)."""
from typing import Optional, Sequence

def lcs_hits(model_sents: Sequence[Sequence[int]], peer_sents: Sequence[Sequence[int]],
             model_bag: Sequence[int], peer_bag: Sequence[int],
             weight: Optional[float] = ...) -> tuple[float, float]: ...
