"""Argument checks shared by the public functions, with one message each.

Every check names the argument, says what it must be and what it got:

>>> check_int("bootstrap", True, minimum=0)
Traceback (most recent call last):
...
TypeError: bootstrap must be an int, not bool
>>> check_real("confidence", 1.5, 0, 1)
Traceback (most recent call last):
...
ValueError: confidence must be in [0, 1], got 1.5
"""
import numbers
import os
from typing import Any, List, Literal, Optional, overload

__all__ = ["as_list", "check_int", "check_real", "check_seed", "thread_count", "one_line"]


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


@overload
def check_int(name: str, value: Any, minimum: Optional[int] = None,
              maximum: Optional[int] = None, *, or_none: Literal[False] = False) -> int: ...


@overload
def check_int(name: str, value: Any, minimum: Optional[int] = None,
              maximum: Optional[int] = None, *, or_none: bool) -> Optional[int]: ...


def check_int(name: str, value: Any, minimum: Optional[int] = None,
              maximum: Optional[int] = None, *, or_none: bool = False) -> Optional[int]:
    """``value`` as an int: an integral number, not a bool, in [``minimum``,
    ``maximum``] (either bound may be None); None passes through when
    ``or_none``.

    >>> check_int("n", 3, 1)
    3
    >>> check_int("pad_id", None, 0, or_none=True) is None
    True
    >>> check_int("pad_id", 2**64, -2**63, 2**63 - 1)
    Traceback (most recent call last):
    ...
    ValueError: pad_id must be in [-9223372036854775808, 9223372036854775807], got 1...
    """
    if or_none and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        kind = "an int or None" if or_none else "an int"
        raise TypeError(f"{name} must be {kind}, not {type(value).__name__}")
    value = int(value)
    if minimum is not None and maximum is not None:
        if not minimum <= value <= maximum:
            raise ValueError(f"{name} must be in [{minimum}, {maximum}], got {value}")
    elif minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    elif maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_real(name: str, value: Any, low: Optional[float] = None,
               high: Optional[float] = None, what: str = "a number") -> float:
    """``value`` as a float: a real number, not a bool, in [low, high] (NaN
    is in no interval)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, not {type(value).__name__}")
    x = float(value)
    if low is not None and high is not None:
        if not low <= x <= high:
            raise ValueError(f"{name} must be in [{low:g}, {high:g}], got {value!r}")
    elif low is not None and not x >= low:
        raise ValueError(f"{name} must be >= {low:g}, got {value!r}")
    return x


def check_seed(name: str, value: Any) -> Optional[int]:
    """A random seed: None, or an int >= 0."""
    return check_int(name, value, 0, or_none=True)


def thread_count(threads: Any) -> int:
    """Worker threads: ``threads`` (an int >= 1), or every core when None."""
    if threads is None:
        return os.cpu_count() or 1
    return check_int("threads", threads, minimum=1)


# Every character str.splitlines() breaks on, written as an escape.
_LINE_BREAKS = {c: repr(chr(c))[1:-1] for c in
                (0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)}


def one_line(message: str) -> str:
    r"""A message as one line: the line breaks it quotes (a file name, a
    command-line word) written as escapes, so an error is always one line.

    >>> print(one_line("too many arguments: a\nb\r\nc"))
    too many arguments: a\nb\r\nc
    """
    return message.translate(_LINE_BREAKS)
