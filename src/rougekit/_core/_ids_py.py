"""Checks on id sequences shared by the pure kernels (``_ids.pxd``'s twin).

The kernels take tokens numbered densely from 0; these checks give the same
errors as the compiled ``ids_from`` and ``check_total``.
"""
import operator

# The compiled kernels index int32 arrays by position and id: ids and
# positions from Python stay below ID_LIMIT; the ids a kernel makes itself
# (n-grams, texts) below MAX_IDS (_mem.pxd's), so that a count of them fits too.
ID_LIMIT = 0x7FFFFFFF
MAX_IDS = 0x7FFFFFF0


def check_total(total):
    """``total`` tokens in one call, or ValueError past the int32 limit."""
    if total >= ID_LIMIT:
        raise ValueError("too many tokens: at most 2**31 - 2 per call")
    return total


def check_ids(seq, bound, name):
    """``seq``, after checking every id is an int in [0, bound)."""
    for v in seq:
        v = operator.index(v)
        if v < 0 or v >= bound:
            raise ValueError(
                f"{name}: token id {v} outside [0, {bound}); ids must be "
                "dense, numbered from 0 over the tokens given")
    return seq


def check_range(lo, hi, n):
    """``lo``, ``hi``: ints with 0 <= lo <= hi <= n (a range of the n stored
    texts of a ``TextIndex``), or TypeError / ValueError."""
    for name, v in (("lo", lo), ("hi", hi)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    if not 0 <= lo <= hi <= n:
        raise ValueError(f"need 0 <= lo <= hi <= {n}, got lo={lo}, hi={hi}")


def as_seq(x):
    """A list or tuple as is; any other iterable as a list."""
    return x if isinstance(x, (list, tuple)) else list(x)
