"""Pure-Python twin of ``_engine``: a whole (target, prediction) pair scored.

``Engine(kinds, use_stemmer, keys, score_cls, fallback, overflow=None)``
scores pairs of ``str`` with rouge-score's default tokenizer. ``kinds`` has
one entry per rouge type: ``n >= 1`` for rougeN, ``KIND_L`` (-1) for rougeL,
``KIND_LSUM`` (-2) for rougeLsum (sentences split on "\\n"); ``keys`` are the
result dict's keys in the same order; ``score_cls(precision, recall,
fmeasure)`` builds each score. A pair that is not two ``str`` goes to
``fallback(target, prediction)``; while another thread uses the engine, a
pair goes to ``overflow`` (or raises ``RuntimeError`` without one).
``letters_check`` and ``score_range``'s ``suspicious`` are the "no silent
zeros" pre-check, as in ``_engine``.

The arithmetic is rouge-score's, in its order of operations: ``_prf_py``'s
``ngram_prf`` and ``lcs_prf`` (``_engine`` runs ``_prf.pxd``'s in C).

>>> from collections import namedtuple
>>> Score = namedtuple("Score", "precision recall fmeasure")
>>> engine = Engine([1, KIND_L], False, ["rouge1", "rougeL"], Score, None)
>>> engine.score("the cat sat", "the cat")["rouge1"]
Score(precision=1.0, recall=0.6666666666666666, fmeasure=0.8)
>>> engine.score("", "the cat")["rougeL"]
Score(precision=0, recall=0, fmeasure=0)
"""
import itertools
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from rougekit._arrow_texts import is_text_type
from rougekit._core import _lcs_py, _overlap_py
from rougekit._core._kinds_py import ROUGE_L as KIND_L
from rougekit._core._kinds_py import ROUGE_LSUM as KIND_LSUM
from rougekit._core._porter_py import StemCache
from rougekit._core._prf_py import lcs_prf, ngram_prf
from rougekit._core._tokenizer_py import kept_chars, words

__all__ = ["Engine", "Cancel", "KIND_L", "KIND_LSUM", "gc_track", "score", "score_dicts"]

# The stem cache starts afresh past this many words, as _engine's vocabulary
# (a testing hook lowers it).
_VOCAB_RESET = 1 << 21


def score(self: Any, target: Any, prediction: Any) -> Dict[Any, Any]:
    """``_engine.score``'s twin: ``RougeScorer.score``. The pair goes to
    ``self._direct_engine`` when it is set, else to ``self._score_checked``."""
    engine = getattr(self, "_direct_engine", None)
    if engine is None:
        return self._score_checked(target, prediction)
    return engine.score(target, prediction)


def score_dicts(keys: List[Any], score_cls: type, columns: Any) -> List[Dict[Any, Any]]:
    """``_engine.score_dicts``' twin: one dict ``{key: score_cls(p, r, f)}``
    per column of ``columns`` (the P, R and F rows of each key in turn),
    each Score made by ``tuple.__new__`` as its own constructor does."""
    if not (isinstance(score_cls, type) and issubclass(score_cls, tuple)):
        raise TypeError("score_cls must be a subclass of tuple")
    columns = np.asarray(columns, dtype=np.float64)
    if columns.ndim != 2 or columns.shape[0] != 3 * len(keys):
        raise ValueError(f"columns has {columns.shape[0] if columns.ndim else 0} rows, not 3 "
                         f"per key ({3 * len(keys)})")
    if not keys:
        return [{} for _ in range(columns.shape[1])]
    values = columns.tolist()
    new, cls = tuple.__new__, itertools.repeat(score_cls)
    per_key = [list(map(new, cls, zip(*values[3 * k:3 * k + 3]))) for k in range(len(keys))]
    return [dict(zip(keys, item)) for item in zip(*per_key)]


def gc_track(obj: object) -> None:
    """``_engine.gc_track``'s twin: the pure engine never untracks a score."""


def _set_vocab_reset(tokens: int) -> int:
    """Testing hook: the stem-cache size past which an engine starts afresh.
    Returns the previous value."""
    global _VOCAB_RESET
    if tokens < 1:
        raise ValueError("tokens must be >= 1")
    old, _VOCAB_RESET = _VOCAB_RESET, tokens
    return old


class Cancel:
    """A flag the worker threads of score_batch poll between pairs."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()


class Engine:
    """Scores pairs of str as ``_engine.Engine`` does (module docstring)."""

    def __init__(self, kinds: Sequence[int], use_stemmer: bool, keys: List[Any],
                 score_cls: type, fallback: Callable[[Any, Any], Dict[Any, Any]],
                 overflow: Optional[Callable[[Any, Any], Dict[Any, Any]]] = None,
                 letters_check: Optional[Callable[[str], bool]] = None) -> None:
        if not (isinstance(score_cls, type) and issubclass(score_cls, tuple)):
            raise TypeError("score_cls must be a subclass of tuple")
        if len(keys) != len(kinds):
            raise ValueError("one key per rouge kind")
        self._kinds = [int(k) for k in kinds]
        for k in self._kinds:
            if k == 0 or k < KIND_LSUM:
                raise ValueError(f"bad rouge kind {k!r}")
        self._keys = tuple(keys)
        self._score_cls: Any = score_cls
        self._fallback = fallback
        self._overflow = overflow
        self._letters_check = letters_check
        self._letters_done = False
        self._stems: Optional[StemCache] = StemCache() if use_stemmer else None
        self._busy = threading.Lock()
        self._tokens_needed = any(k != KIND_LSUM for k in self._kinds)

    def _vocab_size(self) -> int:
        """Testing hook: how many distinct words have a cached stem."""
        return len(self._stems) if self._stems is not None else 0

    def _hold(self, held: bool) -> bool:
        """Testing hook: mark the engine in use (True) or free (False)."""
        if held:
            return self._busy.acquire(blocking=False)
        if self._busy.locked():
            self._busy.release()
        return True

    def _sentences(self, text: str) -> List[List[str]]:
        stem = self._stems.stem if self._stems is not None else None
        sents = []
        for line in text.lower().split("\n"):
            tokens = words(line, stem)
            if tokens:
                sents.append(tokens)
        return sents

    @staticmethod
    def _may_lose_letters(text: str) -> bool:
        # _engine's pre-check: not ASCII, fewer than half the characters kept
        return not text.isascii() and 2 * kept_chars(text) < len(text)

    def _check_letters(self, text: str) -> None:
        if (not self._letters_done and self._may_lose_letters(text)
                and not self._letters_check(text)):  # type: ignore[misc]
            self._letters_done = True

    def _score_pair(self, target: str, prediction: str) -> Dict[Any, Any]:
        if self._stems is not None and len(self._stems) > _VOCAB_RESET:
            self._stems = StemCache()
        # Every token lies in exactly one sentence: the whole text's tokens
        # are its sentences' tokens in order (_engine reads both at once).
        sents_t = self._sentences(target)
        sents_p = self._sentences(prediction)
        ids: Dict[str, int] = {}
        ids_t = [[ids.setdefault(t, len(ids)) for t in s] for s in sents_t]
        ids_p = [[ids.setdefault(t, len(ids)) for t in s] for s in sents_p]
        flat_t = [i for s in ids_t for i in s]
        flat_p = [i for s in ids_p for i in s]
        nt, np_ = len(flat_t), len(flat_p)
        result = {}
        for key, kind in zip(self._keys, self._kinds):
            if kind > 0:
                hits, ct, cp = _overlap_py.ngram_overlap(flat_t, flat_p, min(kind, nt + np_ + 1))
                prf = ngram_prf(hits, ct, cp)
            elif not nt or not np_:
                prf = (0, 0, 0)
            elif kind == KIND_L:
                prf = lcs_prf(_lcs_py.lcs_length(flat_t, flat_p), nt, np_)
            else:
                prf = lcs_prf(_lcs_py.summary_lcs_hits(ids_t, ids_p), nt, np_)
            result[key] = self._score_cls(*prf)
        return result

    def score(self, target: Any, prediction: Any) -> Dict[Any, Any]:
        """{key: score_cls(P, R, F)} for one pair of str; anything else goes
        to ``fallback``; while another thread uses the engine, to ``overflow``."""
        if type(target) is not str or type(prediction) is not str:
            return self._fallback(target, prediction)
        if not self._busy.acquire(blocking=False):
            if self._overflow is None:
                raise RuntimeError("this Engine is in use by another thread")
            return self._overflow(target, prediction)
        try:
            result = self._score_pair(target, prediction)
        finally:
            self._busy.release()
        if self._letters_check is not None and not self._letters_done:
            self._check_letters(target)
            self._check_letters(prediction)
        return result

    def _score_str_pairs(self, ts: Tuple[Any, ...], ps: Tuple[Any, ...], cancel: Cancel,
                         take: Callable[[int, Dict[Any, Any]], Any]) -> bool:
        """score_range's and score_into's loop: scores the pairs of str of
        ts and ps in order, handing pair i's scores to ``take(i, scores)``;
        the other pairs are left to the caller (for ``fallback``). Returns
        False when ``cancel`` was set before the end, True otherwise."""
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("this Engine is in use by another thread")
        try:
            for i, (t, p) in enumerate(zip(ts, ps)):
                if cancel.is_set():
                    return False
                if type(t) is str and type(p) is str:
                    take(i, self._score_pair(t, p))
        finally:
            self._busy.release()
        return True

    def score_range(self, targets: Sequence[Any], predictions: Sequence[Any],
                    cancel: Cancel, suspicious: Optional[List[int]] = None
                    ) -> Optional[List[Dict[Any, Any]]]:
        """Scores the pairs of two equally long sequences in order; pairs
        that are not two str go to ``fallback``. Returns None when
        ``cancel`` is set before the end. With a list ``suspicious``, appends
        ``2 * i`` and ``2 * i + 1`` for the target and prediction of pair i
        that may have lost most of their letters."""
        if cancel is None:
            raise TypeError("cancel must be a Cancel, not None")
        ts, ps = tuple(targets), tuple(predictions)
        if len(ts) != len(ps):
            raise ValueError("targets and predictions differ in length")
        out: List[Any] = [None] * len(ts)
        if not self._score_str_pairs(ts, ps, cancel, out.__setitem__):
            return None
        if suspicious is not None:
            for i, (t, p) in enumerate(zip(ts, ps)):
                if type(t) is str and type(p) is str:
                    suspicious.extend(2 * i + k for k, text in enumerate((t, p))
                                      if self._may_lose_letters(text))
        return [self._fallback(t, p) if r is None else r
                for r, t, p in zip(out, ts, ps)]

    def _columns_for(self, out: Any, lo: int, hi: int, targets: int, predictions: int,
                     unit: str) -> Any:
        """``out`` as the float64 matrix ``score_into`` writes (3 rows per
        rouge type, at least ``hi`` columns), after checking that ``lo:hi``
        is a range of ``targets`` and ``predictions`` (``unit``: pairs or
        rows, as the error says)."""
        view = _double_matrix(out)
        rows = 3 * len(self._kinds)
        if not 0 <= lo <= hi or hi > targets or hi > predictions:
            raise ValueError(f"lo={lo}, hi={hi} is not a range of {unit} "
                             f"({targets} targets, {predictions} predictions)")
        if view.shape[0] != rows or view.shape[1] < hi:
            raise ValueError(f"out has shape ({view.shape[0]}, {view.shape[1]}); "
                             f"needs {rows} rows and at least {hi} columns")
        return view

    def score_into(self, targets: Sequence[Any], predictions: Sequence[Any], lo: int,
                   hi: int, out: Any, cancel: Cancel) -> bool:
        """Scores pairs ``lo`` to ``hi - 1`` into the columns ``lo:hi`` of
        ``out``, a writable C-contiguous float64 buffer of 3 rows per rouge
        type (row 3k + j: measure j, P, R or F, of type k); the int zeros
        become 0.0. Pairs that are not two str go to ``fallback``. Returns
        False when ``cancel`` was set before the end, True otherwise."""
        if cancel is None:
            raise TypeError("cancel must be a Cancel, not None")
        view = self._columns_for(out, lo, hi, len(targets), len(predictions), "pairs")
        ts, ps = tuple(targets[lo:hi]), tuple(predictions[lo:hi])

        def take(i: int, scores: Dict[Any, Any]) -> None:
            _write_column(view, lo + i, self._keys, scores)

        if not self._score_str_pairs(ts, ps, cancel, take):
            return False
        for i, (t, p) in enumerate(zip(ts, ps), lo):
            if not (type(t) is str and type(p) is str):
                _write_column(view, i, self._keys, self._fallback(t, p))
        return True

    def score_arrow_into(self, targets: Any, predictions: Any, lo: int, hi: int, out: Any,
                         cancel: Cancel, suspicious: Optional[List[int]] = None) -> bool:
        """``score_into`` for rows ``lo`` to ``hi - 1`` of two pyarrow string
        large_string or string_view Arrays, read as str (``to_pylist``); NaN where either
        is null. A malformed array (offsets out of order or past its data) is
        a ValueError. With a list ``suspicious``, appends ``2 * r`` and
        ``2 * r + 1`` for the target and prediction of row r that may have
        lost most of their letters."""
        if cancel is None:
            raise TypeError("cancel must be a Cancel, not None")
        _check_arrow_strings(targets, "targets")
        _check_arrow_strings(predictions, "predictions")
        view = self._columns_for(out, lo, hi, len(targets), len(predictions), "rows")
        ts = _checked_slice(targets, lo, hi).to_pylist()
        ps = _checked_slice(predictions, lo, hi).to_pylist()

        def take(i: int, scores: Dict[Any, Any]) -> None:
            _write_column(view, lo + i, self._keys, scores)

        if not self._score_str_pairs(ts, ps, cancel, take):
            return False
        for r, (t, p) in enumerate(zip(ts, ps), lo):
            if t is None or p is None:
                for c in range(view.shape[0]):
                    view[c, r] = float("nan")
            elif suspicious is not None:
                suspicious.extend(2 * r + k for k, text in enumerate((t, p))
                                  if self._may_lose_letters(text))
        return True


def _double_matrix(out: Any) -> Any:
    """``out`` as a 2-D memoryview of doubles, checked as ``_engine``'s
    ``double[:, ::1]`` argument is."""
    view = memoryview(out)
    if view.format != "d" or view.ndim != 2 or not view.c_contiguous or view.readonly:
        raise ValueError("out must be a writable C-contiguous 2-D float64 buffer")
    return view


def _write_column(view: Any, i: int, keys: Tuple[Any, ...],
                  scores: Dict[Any, Any]) -> None:
    for k, key in enumerate(keys):
        score = scores[key]
        for j in range(3):
            view[3 * k + j, i] = float(score[j])


def _check_arrow_strings(array: Any, name: str) -> None:
    """A pyarrow string, large_string or string_view Array, as ``_engine``
    reads them."""
    import pyarrow

    if not isinstance(array, pyarrow.Array):
        raise TypeError(f"{name} must be a pyarrow string Array, not {type(array).__name__}")
    if not is_text_type(pyarrow, array.type):
        raise TypeError(f"{name} must be a pyarrow string, large_string or string_view "
                        f"Array, not {array.type}")


def _checked_slice(array: Any, lo: int, hi: int) -> Any:
    """Rows lo to hi - 1 of an Arrow array, its offsets or views and text
    checked: a malformed array is a ValueError (pyarrow's ArrowInvalid is
    one; its ArrowIndexError, a view naming no buffer, an IndexError)."""
    import pyarrow

    part = array.slice(lo, hi - lo)
    try:
        part.validate(full=True)
    except pyarrow.ArrowException as error:
        if isinstance(error, ValueError):
            raise
        raise ValueError(f"malformed string array: {error}") from None
    return part
