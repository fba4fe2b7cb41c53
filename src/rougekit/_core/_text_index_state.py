"""A ``TextIndex``'s contents as plain values, and their check on load.

Both twins of ``_text_index`` write the same *state* (``TextIndex.state()``)
and rebuild an index from one (``TextIndex.from_state``), so that a
``RougeIndex`` pickles (sent once to each worker of a cluster) and a pickle
made with one backend loads with the other. A state holds what the kernel
stores, so loading tokenizes nothing:

``format``          1
``kind``            the kernel's rouge kind (``_kinds_py``: -1 rougeL, n rougeN)
``use_stemmer``     the default tokenizer stems (False with token lists)
``default_tokens``  texts are tokenized by the default tokenizer (else the
                    kernel takes token lists)
``tokens``          the token of each token id, in id order: a str with the
                    default tokenizer, any hashable token otherwise
``grams``           rougeN with n >= 2: the n token ids of each n-gram id
                    (an int32 array of shape (n-grams, n)); otherwise None
``units``           every stored text's unit ids, one after another (int32):
                    token ids (rougeL, rouge1) or n-gram ids
``offsets``         text i is ``units[offsets[i]:offsets[i + 1]]`` (int64,
                    one more than the texts)

``checked(state)`` checks all of it before either twin reads it (ids in
range, tokens and n-grams distinct, offsets in order), so a state from an
untrusted or damaged pickle is a ValueError, never a read out of bounds.

>>> state = {"format": 1, "kind": -1, "use_stemmer": False, "default_tokens": True,
...          "tokens": ["a", "b"], "grams": None,
...          "units": np.array([0, 1, 1], np.int32), "offsets": np.array([0, 2, 3])}
>>> checked(state)[3:5]
(['a', 'b'], None)
>>> checked({**state, "units": np.array([0, 2, 1], np.int32)})
Traceback (most recent call last):
...
ValueError: not a TextIndex state: units has ids outside [0, 2)
"""
from typing import Any, List, Optional, Tuple

import numpy as np

from rougekit._core._ids_py import MAX_IDS
from rougekit._core._kinds_py import ROUGE_L

__all__ = ["FORMAT", "KEYS", "checked", "offsets_of"]

FORMAT = 1
KEYS = ("format", "kind", "use_stemmer", "default_tokens", "tokens", "grams", "units",
        "offsets")

Checked = Tuple[int, bool, bool, List[Any], Optional[np.ndarray], np.ndarray, np.ndarray]


def _bad(why: str) -> ValueError:
    return ValueError(f"not a TextIndex state: {why}")


def _ints(value: Any, name: str, itemsize: int, ndim: int) -> np.ndarray:
    """``value`` as a C-contiguous native array, if it is an integer array
    of ``itemsize`` bytes (of either byte order) with ``ndim`` dimensions."""
    if not isinstance(value, np.ndarray) or value.dtype.kind != "i" \
            or value.dtype.itemsize != itemsize or value.ndim != ndim:
        raise _bad(f"{name} must be a {ndim}-d int{8 * itemsize} array")
    return np.ascontiguousarray(value, dtype=np.int32 if itemsize == 4 else np.int64)


def _in_range(values: np.ndarray, bound: int, name: str) -> None:
    if values.size and (int(values.min()) < 0 or int(values.max()) >= bound):
        raise _bad(f"{name} has ids outside [0, {bound})")


def checked(state: Any) -> Checked:
    """``(kind, use_stemmer, default_tokens, tokens, grams, units,
    offsets)`` of a state (module docstring), the arrays native and
    contiguous; ValueError naming what is wrong."""
    if type(state) is not dict or set(state) != set(KEYS):
        raise _bad(f"a dict with the keys {', '.join(KEYS)} expected")
    if type(state["format"]) is not int or state["format"] != FORMAT:
        raise _bad(f"format {state['format']!r}, this version reads {FORMAT}")
    kind = state["kind"]
    if type(kind) is not int or (kind != ROUGE_L and not 1 <= kind <= 9):
        raise _bad(f"kind {kind!r}")
    flags = state["use_stemmer"], state["default_tokens"]
    if any(type(flag) is not bool for flag in flags):
        raise _bad("use_stemmer and default_tokens must be bools")
    tokens = state["tokens"]
    if type(tokens) is not list or len(tokens) >= MAX_IDS:
        raise _bad("tokens must be a list")
    if flags[1] and not all(type(t) is str for t in tokens):
        raise _bad("the default tokenizer's tokens must be str")
    try:
        distinct = len(set(tokens)) == len(tokens)
    except TypeError:
        raise _bad("a token is unhashable") from None
    if not distinct:
        raise _bad("a token is listed twice")
    grams = state["grams"]
    if kind >= 2:
        grams = _ints(grams, "grams", 4, 2)
        if grams.shape[1] != kind or len(grams) >= MAX_IDS:
            raise _bad(f"grams must have {kind} columns")
        _in_range(grams, len(tokens), "grams")
        if len(np.unique(grams, axis=0)) != len(grams):
            raise _bad("an n-gram is listed twice")
    elif grams is not None:
        raise _bad(f"grams must be None for kind {kind}")
    units = _ints(state["units"], "units", 4, 1)
    _in_range(units, len(grams) if grams is not None else len(tokens), "units")
    offsets = _ints(state["offsets"], "offsets", 8, 1)
    if len(offsets) == 0 or len(offsets) > MAX_IDS - 1 or offsets[0] != 0 \
            or offsets[-1] != len(units) or bool(np.any(np.diff(offsets) < 0)):
        raise _bad("offsets must rise from 0 to the number of units")
    return kind, flags[0], flags[1], tokens, grams, units, offsets


def offsets_of(lengths: Any) -> np.ndarray:
    """The offsets of texts of these numbers of units (int64, from 0)."""
    out = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(np.asarray(lengths, dtype=np.int64), out=out[1:])
    return out
