"""Pure-Python twin of ``_text_index``: many texts scored against one query.

A ``TextIndex`` stores texts as *units*: token ids for rougeL (``KIND_L``),
n-gram ids for rougeN (``kind`` = n). ``set_query_*`` prepares one query and
``score_range(lo, hi, out)`` writes into ``out[lo:hi]`` the F-measure of the
query against stored texts ``lo`` to ``hi - 1``, exactly as rouge-score's
``_score_lcs(query_tokens, stored_tokens)`` or ``_score_ngrams`` computes it:
the query is the *target*, the stored text the *prediction* (as in
Self-Instruct's ``scorer.score(new_instruction, existing)``), so
``P = hits / len(stored)`` and ``R = hits / len(query)``; F is symmetric.
``_dedup_filter_py`` runs the de-duplication filter over an index's texts.
``to_state()`` gives what an index stores as plain values, from which
``TextIndex.from_state`` rebuilds it without tokenizing anything
(``_text_index_state``: the format, the same for both twins, and its check).

>>> index = TextIndex(KIND_L, False, True)
>>> index.add_texts(["the cat sat on the mat", "a dog"])
2
>>> index.set_query_text("the cat sat")
3
>>> out = [0.0, 0.0]
>>> index.score_range(0, 2, out)
>>> out
[0.6666666666666666, 0.0]
"""
from itertools import chain
from typing import Any, Dict, Hashable, List, Sequence

import numpy as np

from rougekit._core import _text_index_state
from rougekit._core._ids_py import MAX_IDS, check_range
from rougekit._core._kinds_py import ROUGE_L as KIND_L
from rougekit._core._lcs_py import lcs_of_masks
from rougekit._core._porter_py import StemCache
from rougekit._core._prf_py import lcs_prf
from rougekit._core._tokenizer_py import words

__all__ = ["KIND_L", "TextIndex", "fmeasure_of"]


def fmeasure_of(hits: int, target_count: int, prediction_count: int) -> float:
    """rouge-score's F of ``hits`` common units between a target of
    ``target_count`` units and a prediction of ``prediction_count``: 0.0
    when either is empty, else ``2 * P * R / (P + R)`` with
    ``P = hits / prediction_count`` and ``R = hits / target_count``, in
    rouge-score's order of operations (``_prf_py.lcs_prf``).

    >>> fmeasure_of(2, 3, 2)
    0.8
    """
    if not target_count or not prediction_count:
        return 0.0
    return float(lcs_prf(hits, target_count, prediction_count)[2])


def _check_kind(kind: int) -> int:
    if isinstance(kind, bool) or not isinstance(kind, int):
        raise TypeError(f"kind must be an int, not {type(kind).__name__}")
    if kind != KIND_L and not 1 <= kind <= 9:
        raise ValueError(f"kind must be {KIND_L} (rougeL) or 1 to 9 (rougeN), got {kind}")
    return kind


class TextIndex:
    """Texts stored as unit ids, scored against one query at a time (see the
    module docstring). With ``default_tokens``, texts are ``str`` tokenized
    as rouge-score's default tokenizer does (stemming with ``use_stemmer``);
    otherwise they come as lists of hashable tokens (``add_token_lists``).

    ``units`` (each stored text's unit ids) and ``readers`` (the
    deduplications holding the index, which then takes no new texts nor
    query) are what ``_dedup_filter_py.Dedup`` reads and holds, as the
    compiled ``Dedup`` reads what ``_text_index.pxd`` declares."""

    def __init__(self, kind: int, use_stemmer: bool, default_tokens: bool) -> None:
        self.kind = _check_kind(kind)
        self.default_tokens = bool(default_tokens)
        self._stems = StemCache() if use_stemmer and default_tokens else None
        self._token_ids: Dict[Hashable, int] = {}
        self._ngram_ids: Dict[tuple, int] = {}
        self.units: List[tuple] = []
        self.readers = 0                  # Dedup objects reading the texts
        self._query: tuple = ()
        self._masks: Dict[int, int] = {}  # rougeL: unit -> bits of query positions
        self._qcounts: Dict[int, int] = {}  # rougeN: unit -> count in the query

    def __len__(self) -> int:
        return len(self.units)

    def count(self, i: int) -> int:
        """The number of units (tokens, or n-grams) of stored text ``i``."""
        return len(self.units[i])

    def unit_space(self) -> int:
        """One more than the largest unit id in use."""
        return len(self._ngram_ids) if self.kind > 1 else len(self._token_ids)

    # -- the stored texts as plain values ---------------------------------------

    def to_state(self) -> Dict[str, Any]:
        """What the index stores, as plain values (``_text_index_state``);
        the query is not part of it."""
        units = np.fromiter(chain.from_iterable(self.units), dtype=np.int32)
        grams = None
        if self.kind > 1:
            grams = np.array(list(self._ngram_ids), dtype=np.int32).reshape(-1, self.kind)
        return {"format": _text_index_state.FORMAT, "kind": self.kind,
                "use_stemmer": self._stems is not None,
                "default_tokens": self.default_tokens, "tokens": list(self._token_ids),
                "grams": grams, "units": units,
                "offsets": _text_index_state.offsets_of([len(u) for u in self.units])}

    @staticmethod
    def from_state(state: Dict[str, Any]) -> "TextIndex":
        """The index a state describes (made by either twin's ``to_state``), after
        checking it: ValueError when it is not one."""
        kind, stem, default, tokens, grams, units, offsets = _text_index_state.checked(state)
        index = TextIndex(kind, stem, default)
        index._token_ids = {t: i for i, t in enumerate(tokens)}
        if grams is not None:
            index._ngram_ids = {tuple(row): i for i, row in enumerate(grams.tolist())}
        flat, bounds = units.tolist(), offsets.tolist()
        index.units = [tuple(flat[lo:hi]) for lo, hi in zip(bounds, bounds[1:])]
        return index

    # -- tokens to units ------------------------------------------------------

    def _tokens_of_text(self, text: str) -> List[str]:
        return words(text.lower(), self._stems.stem if self._stems is not None else None)

    def _units_of(self, tokens: Sequence[Hashable], add: bool) -> tuple:
        """Unit ids of a token list; unseen tokens get new ids when ``add``,
        else -1 (they match nothing stored)."""
        ids = self._token_ids
        if add:
            if len(ids) + len(tokens) > MAX_IDS:
                raise ValueError("too many distinct tokens for one index")
            tok = [ids.setdefault(t, len(ids)) for t in tokens]
        else:
            tok = [ids.get(t, -1) for t in tokens]
        n = self.kind
        if n <= 1:
            return tuple(tok)
        grams = self._ngram_ids
        if add:
            return tuple(grams.setdefault(tuple(tok[i:i + n]), len(grams))
                         for i in range(len(tok) - n + 1))
        return tuple(grams.get(tuple(tok[i:i + n]), -1) for i in range(len(tok) - n + 1))

    # -- adding texts ----------------------------------------------------------

    def _check_writable(self) -> None:
        if self.readers:
            raise RuntimeError("this index is being read (a deduplication holds it): "
                               "its texts and query cannot change now")

    def add_texts(self, texts: Sequence[str]) -> int:
        """Tokenize and store ``texts`` (each a ``str``); returns the new size."""
        if not self.default_tokens:
            raise ValueError("this index takes token lists (add_token_lists), not texts")
        self._check_writable()
        texts = list(texts)
        for i, t in enumerate(texts):
            if type(t) is not str:
                raise TypeError(f"texts[{i}] must be str, not {type(t).__name__}")
        for t in texts:
            self.units.append(self._units_of(self._tokens_of_text(t), True))
        return len(self.units)

    def add_token_lists(self, token_lists: Sequence[Sequence[Hashable]]) -> int:
        """Store texts given as lists of hashable tokens; returns the new size."""
        if self.default_tokens:
            raise ValueError("this index tokenizes texts itself (add_texts)")
        self._check_writable()
        lists = [list(tokens) for tokens in token_lists]
        for tokens in lists:
            for t in tokens:
                hash(t)               # unhashable: TypeError before anything is added
        for tokens in lists:
            self.units.append(self._units_of(tokens, True))
        return len(self.units)

    # -- one query against many ------------------------------------------------

    def _set_query(self, units: tuple) -> int:
        self._query = units
        self._masks = {}
        self._qcounts = {}
        if self.kind == KIND_L:
            for j, u in enumerate(units):
                if u >= 0:
                    self._masks[u] = self._masks.get(u, 0) | (1 << j)
        else:
            for u in units:
                if u >= 0:
                    self._qcounts[u] = self._qcounts.get(u, 0) + 1
        return len(units)

    def set_query_text(self, text: str) -> int:
        """Make ``text`` the query; returns its number of units."""
        if not self.default_tokens:
            raise ValueError("this index takes token lists (set_query_tokens), not texts")
        if type(text) is not str:
            raise TypeError(f"query must be str, not {type(text).__name__}")
        self._check_writable()
        return self._set_query(self._units_of(self._tokens_of_text(text), False))

    def set_query_tokens(self, tokens: Sequence[Hashable]) -> int:
        """Make a list of hashable tokens the query; returns its number of units."""
        if self.default_tokens:
            raise ValueError("this index tokenizes texts itself (set_query_text)")
        self._check_writable()
        return self._set_query(self._units_of(list(tokens), False))

    def _hits(self, units: tuple) -> int:
        if self.kind == KIND_L:
            return lcs_of_masks(self._masks, len(self._query), units)
        hits = 0
        used: Dict[int, int] = {}
        q = self._qcounts
        for u in units:
            c = q.get(u)
            if c is not None and used.get(u, 0) < c:
                used[u] = used.get(u, 0) + 1
                hits += 1
        return hits

    def score_range(self, lo: int, hi: int, out: Any) -> None:
        """``out[i]`` = F of the query (target) against stored text i
        (prediction), for lo <= i < hi."""
        check_range(lo, hi, len(self.units))
        if len(out) < hi:
            raise ValueError(f"out has {len(out)} items, need at least {hi}")
        a = len(self._query)
        for i in range(lo, hi):
            units = self.units[i]
            b = len(units)
            out[i] = fmeasure_of(self._hits(units), a, b) if a and b else 0.0
