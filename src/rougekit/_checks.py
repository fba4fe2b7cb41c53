"""Argument checks shared by the public functions."""
from typing import Any, List


def as_list(x: Any, name: str, items: str, hint: str = "") -> List[Any]:
    """``x`` as a list, for an argument that holds several items.

    A single str or bytes (which would iterate as its characters) or a value
    that is not iterable is a TypeError naming the argument:
    "{name} must be {items}, not ..."; ``hint`` follows the message for a
    single str or bytes.
    """
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be {items}, not a single {type(x).__name__}{hint}")
    try:
        return list(x)
    except TypeError:
        raise TypeError(f"{name} must be {items}, not {type(x).__name__}") from None
