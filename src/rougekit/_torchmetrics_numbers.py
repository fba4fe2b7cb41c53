"""torchmetrics' ROUGE numbers in float32, computed without torch.

torchmetrics' ``ROUGEScore`` scores each (prediction, reference) pair as
rouge-score does (float64 P, R and F), then works in float32
(``torch.tensor(python_float)``):

1. **one value per item** from its references' scores
   (``item_values``): ``accumulate="best"`` takes, per rouge type, the
   reference whose F *rounded to float32* is the largest, the first on ties
   (``torch.argmax``), and its P, R and F rounded to float32;
   ``accumulate="avg"`` takes, per rouge type and measure, torch's float32
   mean of the values rounded to float32 (``torch.tensor(values).mean()``:
   torch's float32 sum, in its order, then divided by the count in float32;
   ``torch_float32_sum``);
2. **the corpus value** (``compute()``): torch's float32 mean of the items'
   values. Its float32 sum depends on the order of the items, on torch's
   SIMD width and on its threads. ``torch_order_add`` and
   ``torch_order_sum`` replay it in a state of fixed size, given each
   item's place in the whole list. Otherwise the items' values are summed
   *exactly* (``limb_sums``: integer limbs, which add up the same in any
   order and across processes) and their exact mean is rounded once to
   float32 (``float32_means``): the value torchmetrics' expression
   approximates, whatever order torch adds in. Where torchmetrics' own
   additions round, its mean differs from this one in the last bits (see
   ``docs/guides/training.md``). ``rougekit.torchmetrics``
   with ``per_sample=True`` keeps every item's value and lets torch take the
   mean, as torchmetrics does.

>>> import numpy as np
>>> columns = np.array([[0.5, 1/3], [1/3, 0.5], [0.4, 0.4]])   # P, R, F of 2 refs
>>> item_values(columns, [2], "best").tolist()               # F ties: the first
[[0.5], [0.3333333432674408], [0.4000000059604645]]
>>> item_values(columns, [2], "avg")[0].tolist()               # (0.5 + 1/3) / 2
[0.4166666865348816]
>>> sums = limb_sums(np.float32([[0.25, 0.5, 1.0]]))
>>> float32_means(sums, 3).tolist()
[0.5833333134651184]
"""
import math
from typing import Any, Sequence

import numpy as np

from rougekit._multi_ref import combine_columns

__all__ = ["ACCUMULATE", "TORCH_SUM_LANES", "TORCH_SERIAL_LIMIT", "SUM_LIMBS",
           "torch_float32_sum", "torch_float32_mean", "torch_order_state", "torch_order_add",
           "torch_order_sum", "item_values", "limb_sums", "float32_means"]

#: torchmetrics' ``accumulate`` values: how an item's references combine.
ACCUMULATE = ("best", "avg")

#: The float32 lanes of torch's vectorized CPU sum: ATen's sum kernel runs
#: with 8 float lanes on x86 (AVX2; it is not dispatched to AVX-512).
#: ``rougekit.torchmetrics`` checks it against torch's own sum.
TORCH_SUM_LANES = 8

#: The 32-bit limbs of an exact sum of float32 values below 2**11 (each
#: value times 2**149 is an integer below 2**160).
SUM_LIMBS = 5
_LIMB_BITS = 32
_SCALE_BITS = 149          # every float32 is an integer multiple of 2**-149
_LIMIT = 2.0 ** 11
# A float64 bincount adds values below 2**32 exactly up to 2**21 of them.
_CHUNK = 1 << 20


# --- torch's float32 sum ---------------------------------------------------------------

def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _cascade_sum(rows: np.ndarray) -> np.ndarray:
    """ATen's ``multi_row_sum``: the rows (axis 0) added in float32 into
    four levels of accumulators, each level taking the previous one every
    ``level_step`` rows, then the levels added, lowest first."""
    size, shape = rows.shape[0], rows.shape[1:]
    levels = 4
    level_power = max(4, _ceil_log2(size) // levels)
    level_step = 1 << level_power
    level_mask = level_step - 1
    acc = [np.zeros(shape, np.float32) for _ in range(levels)]
    i = 0
    while i + level_step <= size:
        for _ in range(level_step):
            acc[0] = acc[0] + rows[i]
            i += 1
        for j in range(1, levels):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = np.zeros(shape, np.float32)
            if i & (level_mask << (j * level_power)):
                break
    while i < size:
        acc[0] = acc[0] + rows[i]
        i += 1
    for j in range(1, levels):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def _row_sum(items: np.ndarray) -> np.ndarray:
    """ATen's ``row_sum``: axis 0 taken four at a time into four partial
    sums (``_cascade_sum``), the rest added to the first, then the four
    added in order."""
    size = items.shape[0]
    groups = size // 4
    if groups:
        partial = list(_cascade_sum(items[:groups * 4].reshape(groups, 4, *items.shape[1:])))
    else:
        partial = [np.zeros(items.shape[1:], np.float32) for _ in range(4)]
    for i in range(groups * 4, size):
        partial[0] = partial[0] + items[i]
    for k in range(1, 4):
        partial[0] = partial[0] + partial[k]
    return partial[0]


def torch_float32_sum(values: Any, lanes: int = TORCH_SUM_LANES) -> np.ndarray:
    """``torch.tensor(row).sum()`` of each row of float32 ``values`` (along
    the last axis), as torch computes it on the CPU on one thread: rows of
    fewer than ``lanes`` values by ``_row_sum``; longer ones in ``lanes``
    float32 lanes (``_row_sum`` over vectors), the values past the last
    whole vector added one by one from zero, then the lanes in order. (For
    rows of 32768 values or more torch splits the work between threads:
    not reproduced.)

    >>> float(torch_float32_sum(np.float32([0.1, 0.2, 0.3])))
    0.6000000238418579
    """
    v = np.moveaxis(np.asarray(values, dtype=np.float32), -1, 0)
    n = v.shape[0]
    if n < lanes:
        return np.asarray(_row_sum(v), dtype=np.float32)
    vectors = n // lanes
    acc = _row_sum(v[:vectors * lanes].reshape(vectors, lanes, *v.shape[1:]))
    total = np.zeros(v.shape[1:], np.float32)
    for k in range(vectors * lanes, n):
        total = total + v[k]
    for k in range(lanes):
        total = total + acc[k]
    return np.asarray(total, dtype=np.float32)


def torch_float32_mean(values: Any, lanes: int = TORCH_SUM_LANES) -> np.ndarray:
    """``torch.tensor(row).mean()`` of each row (the last axis): the float32
    sum divided by the count in float32."""
    v = np.asarray(values, dtype=np.float32)
    return np.asarray(torch_float32_sum(v, lanes) / np.float32(v.shape[-1]),
                      dtype=np.float32)


# --- torch's float32 sum, one batch of items at a time ---------------------------------

#: From this many values on, torch sums on several threads (``at::parallel_reduce``'s
#: grain size), in pieces that depend on the thread count: not replayed.
TORCH_SERIAL_LIMIT = 32768
_LEVELS = 4
_LEVEL_POWER = 4       # rows per level: 2**4, below 2**20 rows (ATen's level_power)


def torch_order_state(lanes: int, columns: int) -> np.ndarray:
    """An empty replay of torch's float32 sum (``torch_order_add``): float32
    zeros of shape (5, 4 * lanes, columns), the four levels of ATen's
    accumulators (4 vectors of ``lanes`` each: a row of ``4 * lanes``
    values), then the row being filled."""
    return np.zeros((_LEVELS + 1, 4 * lanes, columns), dtype=np.float32)


def torch_order_add(state: np.ndarray, values: Any, done: int, stride: int = 1,
                    offset: int = 0) -> None:
    """Adds items to ``state`` (``torch_order_state``) as torch's sum of the
    whole list adds them: ``values`` (items, columns) float32, the items
    after the ``done`` this process added before, which stand at positions
    ``done * stride + offset``, ... of the whole list (one process:
    ``stride`` 1; ``DistributedSampler``'s round-robin split: the world
    size and the rank). Each whole row of ``4 * lanes`` positions goes into
    the lowest level, a level into the next every 16 rows (``_cascade_sum``'s
    order); the row being filled waits, as torch adds the last, partial row
    otherwise. ``stride`` must divide the row: each process then fills lanes
    of its own, and the states of the processes add up to the whole's."""
    values = np.asarray(values, dtype=np.float32)
    width = state.shape[1]
    if width % stride or not 0 <= offset < stride:
        raise ValueError(f"a row of {width} lanes cannot be split {stride} ways at {offset}")
    per_row = width // stride
    i = 0
    while i < len(values):
        row, at = divmod(done + i, per_row)
        take = min(len(values) - i, per_row - at)
        state[_LEVELS, offset + stride * at:offset + stride * (at + take):stride] = \
            values[i:i + take]
        i += take
        if at + take < per_row:
            break
        state[0] += state[_LEVELS]
        state[_LEVELS] = 0
        rows = row + 1
        if rows % (1 << _LEVEL_POWER) == 0:
            for j in range(1, _LEVELS):
                state[j] += state[j - 1]
                state[j - 1] = 0
                if rows & (((1 << _LEVEL_POWER) - 1) << (j * _LEVEL_POWER)):
                    break


def torch_order_sum(state: np.ndarray, count: int) -> np.ndarray:
    """torch's float32 sum of the ``count`` items added to ``state``, per
    column (``torch_float32_sum`` of the whole list, below
    ``TORCH_SERIAL_LIMIT`` values)."""
    lanes = state.shape[1] // 4
    row = state[_LEVELS]
    if count < lanes:              # too short to vectorize: the scalar path
        return np.asarray(_row_sum(row[:count]), dtype=np.float32)
    acc = state[0]
    for j in range(1, _LEVELS):
        acc = acc + state[j]
    part = [acc[k * lanes:(k + 1) * lanes] for k in range(4)]
    left = count % state.shape[1]
    vectors = left // lanes
    for v in range(vectors):
        part[0] = part[0] + row[v * lanes:(v + 1) * lanes]
    for k in range(1, 4):
        part[0] = part[0] + part[k]
    total = np.zeros(state.shape[2], dtype=np.float32)
    for k in range(vectors * lanes, left):
        total = total + row[k]
    for lane in range(lanes):
        total = total + part[0][lane]
    return total


# --- 1. one value per item -------------------------------------------------------------

def item_values(columns: Any, references_per_item: Sequence[int], accumulate: str,
                lanes: int = TORCH_SUM_LANES) -> np.ndarray:
    """torchmetrics' float32 value of each item, shape (3 * types, items),
    from rouge-score's float64 scores of each (prediction, reference) pair,
    ``columns`` of shape (3 * types, pairs) (P, R and F of each rouge type
    in turn, as ``RougeScorer.score_columns``'s rows; the references of an
    item consecutive, ``references_per_item[i] >= 1`` of them for item i).

    "best": per rouge type, the P, R and F of the first reference with the
    largest float32 F (``_multi_ref.combine_columns``'s "max" on the float32
    values); "avg": per rouge type and measure, ``torch_float32_mean`` of
    the float32 values.
    """
    if accumulate not in ACCUMULATE:
        raise ValueError(f"accumulate must be one of {', '.join(map(repr, ACCUMULATE))}, "
                         f"not {accumulate!r}")
    values = np.asarray(columns, dtype=np.float64).astype(np.float32)
    counts = np.asarray(references_per_item, dtype=np.int64)
    if counts.size and counts.min() < 1:
        raise ValueError("every item needs at least one reference")
    if counts.sum() != values.shape[1]:
        raise ValueError(f"references_per_item adds up to {int(counts.sum())}, but columns "
                         f"has {values.shape[1]} pairs")
    if (counts == 1).all():
        return values
    if accumulate == "best":
        # float32 -> float64 is exact, so the comparisons are float32's.
        return combine_columns("max", values, counts).astype(np.float32)
    out = np.empty((values.shape[0], len(counts)), dtype=np.float32)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    for m in np.unique(counts).tolist():
        items = np.flatnonzero(counts == m)
        out[:, items] = torch_float32_mean(values[:, starts[items][:, None] + np.arange(m)],
                                           lanes)
    return out


# --- 2. the corpus value: exact sums ---------------------------------------------------

def limb_sums(values: Any) -> np.ndarray:
    """The exact sum of each row of float32 ``values`` (finite, in
    [0, 2**11)), as int64 limbs of shape (rows, ``SUM_LIMBS``): row r's sum
    times 2**149 is ``sum(limbs[r, l] << (32 * l))``. Sums of limbs add up
    (numpy, torch, an all-reduce) to the limbs of the whole, in any order,
    while each limb stays below 2**63: at least 2**31 values.

    >>> limb_sums(np.float32([[1.0, 2.0 ** -149]])).tolist()
    [[1, 0, 0, 0, 2097152]]
    """
    x = np.asarray(values, dtype=np.float32)
    if x.ndim != 2:
        raise ValueError(f"limb_sums takes a 2-D array, not {x.ndim}-D")
    if not (np.isfinite(x) & (x >= 0) & (x < _LIMIT)).all():
        bad = x[~(np.isfinite(x) & (x >= 0) & (x < _LIMIT))][0]
        raise ValueError(f"limb_sums adds float32 values in [0, 2**11), not {bad!r}")
    rows = x.shape[0]
    out = np.zeros((rows, SUM_LIMBS), dtype=np.int64)
    for lo in range(0, x.shape[1], _CHUNK):
        bits = np.ascontiguousarray(x[:, lo:lo + _CHUNK]).view(np.uint32).astype(np.int64)
        exponent = bits >> 23
        mantissa = np.where(exponent > 0, (bits & 0x7FFFFF) | 0x800000, bits & 0x7FFFFF)
        # value * 2**149 == mantissa << shift (subnormals: exponent 0, shift 0)
        shift = np.maximum(exponent, 1) - 1
        limb = shift >> 5
        v = mantissa << (shift & 31)                          # below 2**55
        index = (np.arange(rows)[:, None] * SUM_LIMBS + limb).ravel()
        low = (v & 0xFFFFFFFF).ravel().astype(np.float64)
        high = (v >> 32).ravel()
        size = rows * SUM_LIMBS
        total = np.bincount(index, weights=low, minlength=size)
        carried = high != 0       # never from the top limb: values < 2**11
        total += np.bincount(index[carried] + 1, weights=high[carried].astype(np.float64),
                             minlength=size)
        out += total.astype(np.int64).reshape(rows, SUM_LIMBS)
    return out


def _exact(limbs: Sequence[Any]) -> int:
    return sum(int(v) << (_LIMB_BITS * k) for k, v in enumerate(limbs))


def _float32_of_ratio(fixed: int, count: int) -> np.float32:
    """``fixed / count * 2**-149`` rounded once to the nearest float32, ties
    to even (``fixed >= 0``, ``count >= 1``): integer arithmetic, no
    intermediate rounding."""
    # kept = fixed / (count * 2**drop) truncated to 24 bits (fewer for a
    # subnormal result: drop >= 0 keeps the ulp at least 2**-149)
    drop = max(0, fixed.bit_length() - count.bit_length() - 24)
    while True:
        den = count << drop
        kept, rest = divmod(fixed, den)
        if kept >= 1 << 24:
            drop += 1
        elif kept < 1 << 23 and drop > 0:
            drop -= 1
        else:
            break
    if 2 * rest > den or (2 * rest == den and kept & 1):
        kept += 1
    return np.float32(math.ldexp(kept, drop - _SCALE_BITS))   # exact: kept <= 2**24


def float32_means(limbs: Any, count: int) -> np.ndarray:
    """The corpus mean of each row: its exact sum (``limb_sums``'s limbs)
    divided by ``count``, rounded once to float32 (NaN when ``count`` is 0,
    as the mean of no values in torch). torchmetrics' ``sum / count`` rounds
    its float32 additions, then its division; rounded once, this is nearer
    to it in the tail than the exact sum rounded and then divided
    (``docs/guides/training.md`` has the measurements)."""
    rows = np.asarray(limbs).tolist()
    if count == 0:
        return np.full(len(rows), np.nan, dtype=np.float32)
    return np.array([_float32_of_ratio(_exact(r), count) for r in rows], dtype=np.float32)
