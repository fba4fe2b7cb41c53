"""ROUGE of token ids: batches of ids in, float64 columns out.

``score_ids(predictions, references)`` scores each prediction (a sequence of
token ids, as a tokenizer gives them) against its reference(s) and returns
the columns ``RougeScorer.score_columns`` returns: ``{type}_{measure}``,
float64 arrays. Every number equals, with ``==``, rouge-score's own
token-list functions on the same id lists: ``_score_ngrams(_create_ngrams(
reference, n), _create_ngrams(prediction, n))`` for rougeN, ``_score_lcs``
for rougeL, ``_summary_level_lcs`` for rougeLsum (0.0 where they return the
int 0).

>>> import numpy as np
>>> preds = np.array([[5, 6, 7, 0], [5, 9, 0, 0]])      # right-padded with 0
>>> refs = [[5, 6, 8], [9, 5]]                          # a list of sequences
>>> columns = score_ids(preds, refs, ["rouge1", "rougeL"], pad_id=0)
>>> columns["rouge1_fmeasure"].tolist(), columns["rougeL_fmeasure"].tolist()
([0.6666666666666666, 1.0], [0.6666666666666666, 0.5])

The input forms (for predictions and references alike; see ``score_ids``):
a list of int sequences; a 2-D integer array, rows right-padded with
``pad_id``; a ragged pair ``(values, offsets)`` of arrays; any CPU array
with ``__dlpack__`` (PyTorch, JAX, CuPy-on-host, numpy) or ``__array__``.
int32 and int64 arrays are read in place, without a copy, by the compiled
kernel (``rougekit._backend.ids_score``) on worker threads
(``rougekit._workers``), with the GIL released.
"""
import itertools
import numbers
import queue
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from rougekit import _backend, _stages
from rougekit._checks import check_int, thread_count
from rougekit._core._ids_py import ID_LIMIT
from rougekit._core._prf_py import fmeasure_columns
from rougekit._doors import resolve, takes_options
from rougekit._multi_ref import MULTI_REF_POLICIES  # noqa: F401 (registers the rules)
from rougekit._options import ScoringOptions
from rougekit._workers import map_chunks

__all__ = ["score_ids"]

MEASURES = ("precision", "recall", "fmeasure")

# Ids are read as int64 or int32; pad_id and separators are any int64.
_INT64 = (-(1 << 63), (1 << 63) - 1)

# The types of a list's token ids (a bool is an int to numpy, but no id).
_INT_TYPES = frozenset([int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                        np.uint32, np.uint64])

# DLPack's device type of CPU memory (kDLCPU); kDLCUDAHost (3) is readable too.
_DLPACK_CPU = (1, 3)
# The names of DLPack's device types (dlpack.h's DLDeviceType), for messages.
_DLPACK_DEVICES = {1: "CPU", 2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal",
                   9: "VPI", 10: "ROCm", 11: "ROCm host", 12: "an extension device",
                   13: "CUDA managed", 14: "oneAPI", 15: "WebGPU", 16: "Hexagon", 17: "MAIA"}
_MOVE_TO_CPU = ("score_ids reads CPU memory; move it first (PyTorch: tensor.cpu(); "
                "JAX: jax.device_get(x); CuPy: x.get())")

#: score_ids's ``return_tensors`` values (Hugging Face's names): None or "np"
#: numpy arrays, "pt" PyTorch tensors.
RETURN_TENSORS = (None, "np", "pt")

# The kernel's scratch buffers, one per thread at work, kept for the next call
# (by kernel module: the tests run both).
_scratch: Dict[str, "queue.SimpleQueue[Any]"] = {}


@takes_options("score_ids")
def score_ids(predictions: Any, references: Any,
              rouge_types: Optional[Sequence[str]] = None, *,
              pad_id: Optional[int] = None, sentence_sep: Any = None,
              threads: Optional[int] = None, options: Optional[ScoringOptions] = None,
              flavor: Optional[str] = None, return_tensors: Optional[str] = None,
              **fields: Any) -> Dict[str, Any]:
    """ROUGE of each prediction against its reference(s), from token ids.

    Args:
        predictions: a batch of token-id sequences, in any of these forms:
            a list of int sequences (lists, tuples, 1-D arrays); a 2-D
            integer array whose rows are right-padded with ``pad_id`` (what
            follows a row's first ``pad_id`` is ignored); a ragged pair
            ``(values, offsets)``, a tuple of a 1-D integer array and the
            rows + 1 offsets of its rows (row i is
            ``values[offsets[i]:offsets[i+1]]``); any array-like with
            ``__dlpack__`` on the CPU (a PyTorch, JAX or CuPy-on-host
            tensor: rougekit imports none of them) or ``__array__``. int32
            and int64 arrays are read in place; other integer types are
            converted (a copy). A tensor on a GPU is a ValueError that says
            to move it to the CPU.
        references: one reference per prediction, as a batch of the same
            forms (with as many rows); or several per prediction: a list of
            such batches (reference j of prediction i is row i of batch j),
            or a 3-D padded array of shape (predictions, references, length).
            The references of a prediction are combined by ``multi_ref``.
        rouge_types: "rougeN" (N >= 1), "rougeL", "rougeLsum" (default:
            rouge1, rouge2, rougeL, rougeLsum).
        pad_id: the padding id, or None (no padding: every id is a token).
            It applies to every form; any int, e.g. -100.
        sentence_sep: rougeLsum's sentence separator: an id, or several;
            separators end a sentence and are no token of any sentence (as
            "\\n" in text). None: each sequence is one sentence. The other
            rouge types score the ids as given, separators included.
        threads: worker threads (default: every core).
        options: a ``ScoringOptions`` instead of the keywords (its text and
            pair fields must be the defaults: ids are tokens already, counted
            as rouge-score counts them).
        flavor: another package's ROUGE, with its switches: one that counts
            pairs as rouge-score does.
        return_tensors: the type of the columns, as Hugging Face tokenizers
            name it: None or "np", numpy arrays; "pt", PyTorch tensors
            sharing memory with those arrays (``torch.from_numpy``: no copy).
        **fields: ``multi_ref``: "max", "mean", "pooled", "best-recall" or
            "jackknife", as ``score_corpus``'s (one reference: its scores).

    Returns:
        ``{"{type}_{measure}": array}``, measure one of precision, recall,
        fmeasure, rouge types in the order given: float64 arrays of one
        entry per prediction, the rows of one C-contiguous array (as
        ``RougeScorer.score_columns``); with ``return_tensors="pt"``, float64
        CPU tensors over the same rows.

    Token ids must be integers in [0, 2**31 - 1); an id outside is a
    ValueError naming the argument, row and position. Arrays of a float or
    bool dtype, a 1-D array (one sequence, not a batch), a 3-D array of
    predictions, rows that disagree in number, are errors naming the
    argument. Ctrl-C stops the worker threads within milliseconds.

    >>> score_ids([[1, 2, 3]], [[[1, 2]], [[3, 2, 1]]], ["rouge1"],
    ...           multi_ref="mean")["rouge1_recall"].tolist()
    [1.0]
    """
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    options = resolve("score_ids", options, flavor, **fields)
    threads = thread_count(threads)
    tensors = _tensor_kind(return_tensors)
    pad = check_int("pad_id", pad_id, *_INT64, or_none=True)
    seps = _separators(sentence_sep)
    types = options.types
    kinds = tuple(kind for _, kind in types)
    preds = _rows(predictions, "predictions", pad)
    n = preds.rows
    batches, per_item = _references(references, n, pad)
    columns = n * per_item
    policy = options.multi_ref
    if policy == "pooled" and per_item > 1:
        # Hits and totals per pair, summed per prediction.
        counts = np.zeros((3 * len(kinds), columns), dtype=np.int64)
        if columns and kinds:
            _score(preds, batches, per_item, kinds, seps, None, counts, threads)
        out = _pooled(counts, kinds, n, per_item)
    else:
        out = np.zeros((3 * len(kinds), columns))
        if columns and kinds:
            _score(preds, batches, per_item, kinds, seps, out, None, threads)
        if per_item > 1:
            combine = _stages.MULTI_REF_RULES[policy]
            out = np.ascontiguousarray(combine(out, np.full(n, per_item)))
    columns = {f"{name}_{measure}": out[3 * k + j]
               for k, (name, _) in enumerate(types) for j, measure in enumerate(MEASURES)}
    return _as_tensors(columns, tensors)


# --- the scoring -----------------------------------------------------------------------

def _score(preds: Any, batches: List[Tuple[Any, int, int, int]], per_item: int,
           kinds: Tuple[int, ...], seps: Optional[np.ndarray], out: Optional[np.ndarray],
           counts: Optional[np.ndarray], threads: int) -> None:
    """Every (prediction, reference) pair scored into its column, on the
    pool's threads in chunks of predictions."""
    kernel = _backend.ids_score
    pool = _scratch.setdefault(kernel.__name__, queue.SimpleQueue())
    # Ids per prediction and its references (padding included: an estimate).
    tokens = 1 + (preds.values.size + sum(b.values.size for b, *_ in batches)) // \
        max(preds.rows, 1)
    # Chunks of a few milliseconds: about 2**20 token steps each.
    chunk = max(1, min(4096, (1 << 20) // (tokens * (1 + tokens // 128))))

    def run(lo: int, hi: int, cancel: Any) -> None:
        try:
            scratch = pool.get_nowait()
        except queue.Empty:
            scratch = kernel.IdScratch()
        try:
            for rows, per_pred, col0, col_step in batches:
                kernel.score_rows(scratch, preds, rows, kinds, seps, None, per_pred, col0,
                                  col_step, lo * per_pred, hi * per_pred, out, counts,
                                  cancel)
        finally:
            pool.put(scratch)

    map_chunks(preds.rows, threads, run, min_chunk=min(16, chunk), max_chunk=chunk)


def _pooled(counts: np.ndarray, kinds: Tuple[int, ...], n: int, per_item: int) -> np.ndarray:
    """The "pooled" policy: hits and totals summed over each prediction's
    references, then P/R/F as ``_multi_ref.combine_counts`` (the same
    expressions, vectorized: each float is the correctly rounded quotient,
    as in Python)."""
    sums = counts.reshape(counts.shape[0], n, per_item).sum(axis=2)
    out = np.zeros((counts.shape[0], n))
    for k in range(len(kinds)):
        hits, cand, ref = (sums[3 * k + j].astype(np.float64) for j in range(3))
        ok = (cand > 0) & (ref > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(ok, hits / cand, 0.0)
            r = np.where(ok, hits / ref, 0.0)
        out[3 * k], out[3 * k + 1], out[3 * k + 2] = p, r, fmeasure_columns(p, r)
    return out


# --- the input forms -------------------------------------------------------------------

def _separators(sep: Any) -> Optional[np.ndarray]:
    """sentence_sep as an int64 array (None: no separator)."""
    if sep is None:
        return None
    if isinstance(sep, numbers.Integral) and not isinstance(sep, bool):
        values = [sep]
    else:
        try:
            values = list(sep)
        except TypeError:
            raise TypeError("sentence_sep must be an int, a sequence of ints or None, not "
                            f"{type(sep).__name__}") from None
    return np.array([check_int("sentence_sep", v, *_INT64) for v in values], dtype=np.int64)


def _is_array(x: Any) -> bool:
    return isinstance(x, np.ndarray) or hasattr(x, "__dlpack__") or hasattr(x, "__array__")


def _is_ragged(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and _is_array(x[0]) and not isinstance(
        x[0], (list, tuple))


def _as_array(x: Any, name: str) -> np.ndarray:
    """An array-like as a numpy array, without a copy where it can be read
    in place: numpy as is, DLPack on the CPU through ``np.from_dlpack`` (a
    PyTorch tensor, contiguous or a strided view, is read where it lies).
    Memory elsewhere is a ValueError naming the argument and the device."""
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__dlpack__"):
        _check_device(x, name)
        try:
            return np.from_dlpack(x)
        except (BufferError, RuntimeError, TypeError, ValueError) as exc:
            if not hasattr(x, "__array__"):
                raise TypeError(f"{name}: its DLPack export failed ({type(exc).__name__}: "
                                f"{exc}); its __dlpack__() must return a DLPack capsule"
                                ) from None
    try:
        return np.asarray(x)
    except (BufferError, RuntimeError, TypeError, ValueError) as exc:
        # e.g. a tensor that requires grad, or a sparse one: its library's reason
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise TypeError(f"{name} cannot be read as an array of token ids "
                        f"({type(exc).__name__}: {reason})") from None


def _check_device(x: Any, name: str) -> None:
    """A ValueError unless ``x``'s DLPack device is CPU memory. The message
    names the device: DLPack's type and number, and the array's own
    ``device`` where it has one (a tensor's "cuda:0"); an array whose
    library cannot say (PyTorch's "meta" tensors) is named by the latter."""
    if not hasattr(x, "__dlpack_device__"):
        return
    own = getattr(x, "device", None)       # torch: torch.device; JAX: a method
    own = f"; its device: {own}" if own is not None and not callable(own) else ""
    try:
        reported = x.__dlpack_device__()
    except Exception as exc:    # the library's own refusal, e.g. torch's for "meta"
        raise ValueError(f"{name} is not in CPU memory ({type(exc).__name__}: {exc}{own}): "
                         + _MOVE_TO_CPU) from None
    if not (isinstance(reported, tuple) and len(reported) == 2 and all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in reported)):
        raise TypeError(f"{name}.__dlpack_device__() returned {reported!r}, not DLPack's "
                        "(device type, device id) pair of integers")
    device = (int(reported[0]), int(reported[1]))
    if device[0] not in _DLPACK_CPU:
        what = _DLPACK_DEVICES.get(device[0], "an unknown device")
        raise ValueError(f"{name} is on a device other than the CPU (DLPack device "
                         f"{device}: {what}{own}): " + _MOVE_TO_CPU)


def _tensor_kind(return_tensors: Any) -> Optional[str]:
    """``return_tensors`` checked: None, "np" or "pt" (torch must import)."""
    if return_tensors not in RETURN_TENSORS or isinstance(return_tensors, bool):
        raise ValueError(f"return_tensors must be None, 'np' or 'pt', not {return_tensors!r}")
    if return_tensors == "pt":
        try:
            import torch  # noqa: F401
        except ImportError:
            raise ImportError("return_tensors='pt' returns PyTorch tensors: "
                              "pip install 'rougekit[torch]'", name="torch") from None
    return return_tensors


def _as_tensors(columns: Dict[str, np.ndarray], kind: Optional[str]) -> Dict[str, Any]:
    """The columns as ``return_tensors`` asks: as they are, or PyTorch tensors
    over the same memory."""
    if kind != "pt":
        return columns
    import torch
    return {key: torch.from_numpy(column) for key, column in columns.items()}


def _int_array(arr: np.ndarray, name: str, what: str = "token id",
               limit: int = ID_LIMIT) -> np.ndarray:
    """arr checked for an integer dtype; int32/int64 of native order as they
    are, other integer types converted to int64 (a uint64 value of ``limit``
    or more, which int64 cannot hold or no ``what`` can be, is refused)."""
    if arr.dtype.kind not in "iu":
        kind = {"f": "floats", "c": "complex numbers", "b": "booleans", "U": "strings",
                "S": "bytes", "O": "Python objects"}.get(arr.dtype.kind, str(arr.dtype))
        raise TypeError(f"{name} must hold integer {what}s, not {kind} "
                        f"(dtype {arr.dtype})")
    if arr.dtype in (np.int32, np.int64) and arr.dtype.isnative:
        return arr
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) >= limit:
        bad = [int(i) for i in np.unravel_index(int(np.argmax(arr >= limit)), arr.shape)]
        raise ValueError(f"{name}{bad}: {what} {int(arr[tuple(bad)])} is outside "
                         f"[0, {limit})")
    return arr.astype(np.int64)


def _padded(arr: np.ndarray, name: str, pad: Optional[int], group: int = 1) -> Any:
    """IdRows over a 2-D array, read in place when each row's ids are
    contiguous (rows may be anywhere: a slice, np.broadcast_to's repeats)."""
    if arr.size and (arr.shape[1] > 1 and arr.strides[1] != arr.itemsize
                     or arr.strides[0] % arr.itemsize):
        arr = np.ascontiguousarray(arr)
    return _backend.ids_score.IdRows(arr, None, pad, name, group)


def _ragged(pair: Tuple[Any, Any], name: str, pad: Optional[int]) -> Any:
    values = _int_array(_as_array(pair[0], f"{name}[0] (values)"), f"{name}[0] (values)")
    if values.ndim != 1:
        raise ValueError(f"{name}: the values of a (values, offsets) pair must be 1-D, "
                         f"not {values.ndim}-D")
    offsets = _as_array(pair[1], f"{name}[1] (offsets)")
    offsets = _int_array(offsets, f"{name}[1] (offsets)", "offset", 1 << 63)
    if offsets.ndim != 1:
        raise ValueError(f"{name}: the offsets of a (values, offsets) pair must be 1-D, "
                         f"not {offsets.ndim}-D")
    if len(offsets) < 1:
        raise ValueError(f"{name}: offsets must have rows + 1 entries (at least one)")
    # Arrow's rule for a list array's offsets
    steps = np.diff(offsets)
    if offsets[0] != 0 or (steps < 0).any() or offsets[-1] != len(values):
        where = (0 if offsets[0] != 0 else
                 int(np.argmax(steps < 0)) + 1 if (steps < 0).any() else len(offsets) - 1)
        raise ValueError(f"{name}: offsets must start at 0, never decrease and end at "
                         f"len(values) = {len(values)} (Arrow's rule); offsets[{where}] is "
                         f"{int(offsets[where])}")
    return _backend.ids_score.IdRows(np.ascontiguousarray(values),
                                     np.ascontiguousarray(offsets, dtype=np.int64), pad, name)


def _listed(seqs: Sequence[Any], name: str, pad: Optional[int]) -> Any:
    """IdRows of a list of int sequences: one int64 copy of all the ids."""
    lengths = np.empty(len(seqs) + 1, dtype=np.int64)
    lengths[0] = 0
    seqs = list(seqs)
    for i, seq in enumerate(seqs):
        if isinstance(seq, (str, bytes)):
            raise TypeError(f"{name}[{i}] is a {type(seq).__name__}: score_ids takes token "
                            "ids (for text: RougeScorer.score_columns or score_corpus)")
        if type(seq) not in (list, tuple) and not _is_array(seq):
            # its own __len__ may not say how many items it gives: count them
            try:
                seqs[i] = seq = list(seq)
            except TypeError:
                raise TypeError(f"{name}[{i}] must be a sequence of token ids, not "
                                f"{type(seq).__name__} ({name} is a batch: one sequence "
                                "per row)") from None
        try:
            lengths[i + 1] = len(seq)
        except TypeError:
            raise TypeError(f"{name}[{i}] must be a sequence of token ids, not "
                            f"{type(seq).__name__} ({name} is a batch: one sequence "
                            "per row)") from None
    offsets = np.cumsum(lengths)
    if seqs and all(_is_array(s) and not isinstance(s, (list, tuple)) for s in seqs):
        # 1-D arrays or tensors (a tokenizer's rows): one concatenated copy
        arrays = [_as_array(s, f"{name}[{i}]") for i, s in enumerate(seqs)]
        for i, s in enumerate(arrays):
            if s.ndim != 1:
                raise ValueError(f"{name}[{i}] must be 1-D, not {s.ndim}-D")
            _int_array(s, f"{name}[{i}]")
        values = np.concatenate(arrays) if offsets[-1] else np.zeros(0, dtype=np.int64)
    else:
        flat = list(itertools.chain.from_iterable(seqs))
        if len(flat) != offsets[-1]:
            raise ValueError(f"{name}: its sequences gave {len(flat)} ids where their "
                             f"lengths say {int(offsets[-1])}")
        try:
            values = np.array(flat) if flat else np.zeros(0, dtype=np.int64)
        except (ValueError, OverflowError) as exc:
            raise ValueError(f"{name} must hold integer token ids: {exc}") from None
        # a bool is an int to numpy: one the ids' types name is no id
        if values.ndim != 1 or values.dtype.kind not in "iu" or not _INT_TYPES.issuperset(
                map(type, flat)):
            for i, seq in enumerate(seqs):
                for j, v in enumerate(seq):
                    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                        raise TypeError(f"{name}[{i}][{j}] must be an int token id, not "
                                        f"{type(v).__name__}")
                    if not 0 <= int(v) < ID_LIMIT:
                        raise ValueError(f"{name}[{i}][{j}]: token id {v} is outside "
                                         f"[0, {ID_LIMIT})")
    values = _int_array(values, name)
    return _backend.ids_score.IdRows(np.ascontiguousarray(values), offsets, pad, name)


def _rows(batch: Any, name: str, pad: Optional[int]) -> Any:
    """IdRows of one batch (one row per prediction)."""
    if _is_ragged(batch):
        return _ragged(batch, name, pad)
    if _is_array(batch) and not isinstance(batch, (list, tuple)):
        arr = _int_array(_as_array(batch, name), name)
        if arr.ndim == 1:
            raise ValueError(f"{name} is a 1-D array (one sequence): give a batch, a 2-D "
                             "array of rows padded with pad_id, a list of sequences or "
                             "(values, offsets)")
        if arr.ndim != 2:
            raise ValueError(f"{name} must be a 2-D array (rows of ids padded with pad_id), "
                             f"not {arr.ndim}-D")
        return _padded(arr, name, pad)
    if isinstance(batch, (str, bytes)) or not isinstance(batch, Sequence):
        try:
            batch = list(batch)
        except TypeError:
            raise TypeError(f"{name} must be a batch of token-id sequences (a list of "
                            "sequences, a 2-D array or (values, offsets)), not "
                            f"{type(batch).__name__}") from None
    return _listed(batch, name, pad)


def _is_batch_list(references: Any) -> bool:
    """Whether references is a list of batches (several references per
    prediction) rather than one batch: its entries are 2-D arrays, ragged
    pairs or lists of sequences (not lists of ids)."""
    if not isinstance(references, (list, tuple)) or _is_ragged(references) or \
            not references:
        return False
    for entry in references:
        if _is_ragged(entry):
            return True
        if _is_array(entry) and not isinstance(entry, (list, tuple)):
            ndim = getattr(entry, "ndim", None)
            if ndim is None:
                ndim = np.ndim(_as_array(entry, "references"))
            return ndim == 2
        if isinstance(entry, (list, tuple)):
            for item in entry:
                if isinstance(item, numbers.Integral):
                    return False
                if isinstance(item, (list, tuple)) or _is_array(item):
                    return True
        else:
            return False
    return False


def _references(references: Any, n: int, pad: Optional[int]
                ) -> Tuple[List[Tuple[Any, int, int, int]], int]:
    """The references as ``[(IdRows, per_pred, col0, col_step)]`` and their
    number per prediction: reference j of prediction i goes to column
    ``i * per_item + j``."""
    if _is_array(references) and not isinstance(references, (list, tuple)) and \
            not _is_ragged(references):
        arr = _int_array(_as_array(references, "references"), "references")
        if arr.ndim == 3:
            if arr.shape[0] != n:
                raise ValueError(f"predictions has {n} rows but references has "
                                 f"{arr.shape[0]}")
            if arr.shape[1] < 1:
                raise ValueError("references has no reference per prediction (shape "
                                 f"{arr.shape})")
            per_item = arr.shape[1]
            rows = _padded(arr.reshape(n * per_item, arr.shape[2]), "references", pad,
                           per_item)
            return [(rows, per_item, 0, 1)], per_item
    if _is_batch_list(references):
        batches = []
        per_item = len(references)
        for j, batch in enumerate(references):
            rows = _rows(batch, f"references[{j}]", pad)
            if rows.rows != n:
                raise ValueError(f"predictions has {n} rows but references[{j}] has "
                                 f"{rows.rows}")
            batches.append((rows, 1, j, per_item))
        return batches, per_item
    rows = _rows(references, "references", pad)
    if rows.rows != n:
        raise ValueError(f"predictions has {n} rows but references has {rows.rows}")
    return [(rows, 1, 0, 1)], 1

