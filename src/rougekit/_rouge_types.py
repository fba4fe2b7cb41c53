"""Rouge type names, parsed in one place.

A rouge type is "rouge1" to "rouge9" (n-gram overlap), "rougeL" (the LCS of
the whole texts) or "rougeLsum" (the summary-level union LCS over sentences).
``kind_of`` maps a name to the integer the kernels use: ``n`` for rougeN,
``ROUGE_L`` or ``ROUGE_LSUM``; it accepts exactly the names rouge-score
0.1.2 accepts (its test ``re.match(r"rouge[0-9]$", name)`` also lets through
a trailing newline, and it takes ``bytes`` names).

>>> parse_rouge_types(["rouge1", "rougeL", "rouge1"])
[('rouge1', 1), ('rougeL', -1)]
>>> kind_of("rougeX")
Traceback (most recent call last):
...
ValueError: Invalid rouge type: 'rougeX'; valid types are rouge1 to rouge9, rougeL and rougeLsum
"""
import re
from typing import Any, Iterable, List, Tuple

from rougekit._checks import as_list
from rougekit._core._kinds_py import ROUGE_L, ROUGE_LSUM

__all__ = ["ROUGE_L", "ROUGE_LSUM", "VALID", "kind_of", "parse_rouge_types"]

#: What every "unknown rouge type" message says is valid.
VALID = "valid types are rouge1 to rouge9, rougeL and rougeLsum"

# rouge-score's test for rougeN (so "$" also matches before a final "\n").
_ROUGE_N_RE = re.compile(r"rouge[0-9]$")


def kind_of(rouge_type: Any) -> int:
    """The kernel kind of one rouge type name: n, ``ROUGE_L`` or ``ROUGE_LSUM``.

    ValueError for an unknown name (as rouge-score, "rouge0" is
    "rougen requires positive n"); TypeError for a name that is not str or
    bytes.
    """
    if rouge_type == "rougeL":
        return ROUGE_L
    if rouge_type == "rougeLsum":
        return ROUGE_LSUM
    if isinstance(rouge_type, bytes):
        try:
            text = rouge_type.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
    elif isinstance(rouge_type, str):
        text = rouge_type
    else:
        raise TypeError(f"rouge types must be str, not {type(rouge_type).__name__}")
    if _ROUGE_N_RE.match(text):
        n = int(text[5:])
        if n <= 0:
            raise ValueError(f"rougen requires positive n: {rouge_type!r}")
        return n
    raise ValueError(f"Invalid rouge type: {rouge_type!r}; {VALID}")


def parse_rouge_types(rouge_types: Iterable[Any], name: str = "rouge_types"
                      ) -> List[Tuple[str, int]]:
    """``[(rouge type, kind)]`` without repeats, for corpus scoring and the CLI.

    Errors name the argument: an empty list, an unknown name
    (``"{name}: unknown rouge type 'X'; valid types are ..."``), a name that
    is not a str.
    """
    names = as_list(rouge_types, name, "a list of rouge type names")
    for rouge_type in names:
        if not isinstance(rouge_type, str):
            raise TypeError(f"{name} must contain str, not {type(rouge_type).__name__}")
    names = list(dict.fromkeys(names))
    if not names:
        raise ValueError(f"{name} is empty")
    parsed = []
    for rouge_type in names:
        try:
            kind = kind_of(rouge_type)
        except ValueError:
            kind = 0
        # Only the exact names here: not rouge-score's "rouge1\n".
        if kind == 0 or (kind > 0 and rouge_type != f"rouge{kind}"):
            raise ValueError(f"{name}: unknown rouge type {rouge_type!r}; {VALID}")
        parsed.append((rouge_type, kind))
    return parsed
