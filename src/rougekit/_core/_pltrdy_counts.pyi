from typing import Any, Sequence

LCS_UNION: int
LCS_SUM: int
LCS_WHOLE: int

def pair_counts(hyps: Sequence[Any], refs: Sequence[Any], split_dots: bool,
                ns: Sequence[int], exclusive: bool, lcs: int) -> list[tuple[int, ...]]: ...
