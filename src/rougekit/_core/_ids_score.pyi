from typing import Any, Optional

import numpy as np

KIND_L: int
KIND_LSUM: int
DIRECT_IDS: int

class IdRows:
    values: np.ndarray
    offsets: Optional[np.ndarray]
    name: str
    group: int
    def __init__(self, values: np.ndarray, offsets: Optional[np.ndarray], pad: Optional[int],
                 name: str, group: int = 1) -> None: ...
    @property
    def rows(self) -> int: ...
    def __len__(self) -> int: ...

class IdScratch:
    def __init__(self) -> None: ...

def score_rows(scratch: IdScratch, preds: IdRows, refs: IdRows, kinds: Any,
               sep: Optional[np.ndarray], ref_item: Optional[np.ndarray], per_pred: int,
               col0: int, col_step: int, lo: int, hi: int, out: Optional[np.ndarray],
               counts: Optional[np.ndarray], cancel: Any) -> None: ...
