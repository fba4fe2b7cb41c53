"""Many texts at once: ``RougeIndex`` (one query against a stored collection)
and ``deduplicate`` (the Self-Instruct / Alpaca ROUGE-L filter).

Both give exactly rouge-score's numbers. Each F is the F-measure rouge-score
computes for the pair, with the *query* (or the new text) as the target and
the stored (or earlier) text as the prediction, as Self-Instruct calls
``scorer.score(new_instruction, existing)`` and Alpaca
``rouge_scorer._score_lcs(new_tokens, existing_tokens)``: P = hits /
len(stored), R = hits / len(query), F = 2PR / (P + R). F is symmetric, so
the roles only matter for P and R. rougeL is ``_score_lcs``; rouge1 to
rouge9 are ``_score_ngrams`` of the n-gram counts. Texts are tokenized once,
by rouge-score's default tokenizer (``use_stemmer``) or by ``tokenizer``.
Both take the options every scoring function takes (``options=``,
``flavor=``, the option fields of how text becomes tokens: ``lang=``,
``tokenizer=`` names, ...); they count as rouge-score does, so a flavor or
option that counts otherwise (pltrdy's sets, ROUGE-1.5.5's F) is refused.

>>> index = RougeIndex(["The cat sat on the mat.", "A dog barked.", "The cat sat."])
>>> index.scores("the cat sat on a mat").tolist()
[0.8333333333333334, 0.2222222222222222, 0.6666666666666666]
>>> index.top_k("the cat sat on a mat", 2)
[(0, 0.8333333333333334), (2, 0.6666666666666666)]
>>> deduplicate(["Give three tips for staying healthy.",
...              "Give three tips for staying very healthy.",
...              "Describe the water cycle."])
[0, 2]
"""
import dataclasses
import functools
import math
import threading
import time
from array import array
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from rougekit import _backend, _workers, tokenizers
from rougekit._checks import as_list, check_int, check_real, thread_count
from rougekit._core._tokenizer_py import WORD_RE
from rougekit._doors import resolve, takes_options
from rougekit._options import ScoringOptions
from rougekit._progress import Progress
from rougekit._rouge_types import ROUGE_L, ROUGE_LSUM, parse_rouge_types
from rougekit.tokenize import lowered_str

__all__ = ["RougeIndex", "deduplicate"]

Text = Union[str, bytes]

# Stored texts below which a query is scored on the calling thread (when it
# is quick, see _SCORE_BUDGET): handing work to other threads costs more
# than it saves.
_PARALLEL_TEXTS = 5000
# Threads deduplicate uses at most (each holds 4 bytes per text of scratch).
_MAX_PARTS = 256
# Texts deduplicate converts at a time (its progress line moves between).
_ADD_CHUNK = 20000

# The work of one kernel call on a worker thread, kept short so that a
# Ctrl-C stops it soon (rougekit._workers), measured as the kernels spend
# it (about 10 ms at the slowest measured speed, 200 M a second):
# characters of the stored texts times 64-token words of the query (rougeL;
# rouge-N: times one) for scores, characters for tokenizing. A text costs
# its characters (6 a token, with a custom tokenizer) plus _TEXT_COST.
_SCORE_BUDGET = 2_000_000
_ADD_BUDGET = 1_000_000
_TEXT_COST = 32
_ADD_TEXT_COST = 200           # tokenizing has a larger cost per text

# What RougeIndex.__getstate__ writes (its kernel's part: _core/_text_index_state).
_PICKLE_VERSION = 1

# --- arguments ----------------------------------------------------------------------

def _kind(rouge_type: Any) -> int:
    if not isinstance(rouge_type, str):
        raise TypeError(f"rouge_type must be a str, not {type(rouge_type).__name__}")
    kind = parse_rouge_types([rouge_type], "rouge_type")[0][1]
    if kind == ROUGE_LSUM:
        raise ValueError("rouge_type 'rougeLsum' is not supported here: it scores "
                         "sentence by sentence; use 'rougeL' or 'rouge1' to 'rouge9'")
    return kind


def index_options(door: str, rouge_type: Optional[str], tokenizer: Any, use_stemmer: bool,
                   options: Optional[ScoringOptions], flavor: Optional[str],
                   fields: Dict[str, Any]) -> Tuple[ScoringOptions, int]:
    """The options of ``RougeIndex`` and ``deduplicate`` (``door``), and the
    kind of their one rouge type. rouge-score's rules for ``tokenizer`` and
    ``use_stemmer``: an object with ``tokenize`` (then ``use_stemmer`` is
    ignored), or a tokenizer name, or the default tokenizer."""
    if rouge_type is not None:
        _kind(rouge_type)
        fields["rouge_types"] = (rouge_type,)
    elif options is None and flavor is None and "rouge_types" not in fields:
        fields["rouge_types"] = ("rougeL",)
    if tokenizer is not None:
        fields["tokenizer"] = tokenizer
    elif use_stemmer:
        fields["use_stemmer"] = use_stemmer
    resolved = resolve(door, options, flavor, **fields)
    if rouge_type is None and options is None:
        resolved = flavor_default_type(door, resolved, flavor)
    if len(resolved.rouge_types) != 1:
        raise ValueError(f"{door} scores one rouge type, not "
                         f"{', '.join(resolved.rouge_types)}: give rouge_type=")
    return resolved, _kind(resolved.rouge_types[0])


def flavor_default_type(door: str, resolved: ScoringOptions,
                        flavor: Optional[str]) -> ScoringOptions:
    """``resolved`` with rougeL alone where its rouge types are the flavor's
    defaults (several, rougeL among them: rouge-score's four) rather than
    the caller's choice: a one-type door's default, with a flavor as without.

    >>> flavor_default_type("RougeIndex", resolve("RougeIndex", None, "rouge-score"),
    ...                     "rouge-score").rouge_types
    ('rougeL',)
    """
    types = resolved.rouge_types
    if flavor is None or len(types) == 1 or "rougeL" not in types or \
            types != resolve(door, None, flavor).rouge_types:
        return resolved
    return dataclasses.replace(resolved, rouge_types=("rougeL",))


class _Tokens:
    """How texts reach the kernel: ``str`` straight to its compiled default
    tokenizer; ``bytes`` as rouge-score reads them (ASCII-lowercased, then
    decoded), re-joined into a str with the same tokens; with another
    tokenizer (``options.tokenizer_object``), its token lists."""

    def __init__(self, options: ScoringOptions) -> None:
        tokenizer = options.tokenizer_object
        stemming = tokenizers.default_stemming(tokenizer)
        self.default = stemming is not None
        self.stemming = bool(stemming)
        self.tokenizer = tokenizer

    def kernel(self, kind: int) -> Any:
        return _backend.text_index.TextIndex(kind, self.stemming, self.default)

    def text(self, text: Any, name: str) -> Any:
        if not self.default:
            return list(self.tokenizer.tokenize(text))
        if type(text) is str:
            return text
        if isinstance(text, bytes):
            return " ".join(WORD_RE.findall(lowered_str(text, name)))
        if isinstance(text, str):
            return str(text)
        raise TypeError(f"{name} must be str or bytes, not {type(text).__name__}")

    def add(self, kernel: Any, texts: Sequence[Any], name: str, offset: int = 0,
            costs: Optional[Any] = None) -> int:
        """Store texts (called ``name[offset]``, ``name[offset + 1]``, ... in
        errors); returns the kernel's new size. ``costs``, if given, gets
        each stored text's cost (``costs_of``)."""
        items = [self.text(t, f"{name}[{offset + i}]") for i, t in enumerate(texts)]
        return self.store(kernel, items, costs)

    def costs_of(self, items: List[Any]) -> np.ndarray:
        """What scoring each item costs (int64): its characters, or 6 a
        token for token lists, plus _TEXT_COST."""
        sizes = np.fromiter(map(len, items), dtype=np.int64, count=len(items))
        return (sizes if self.default else 6 * sizes) + _TEXT_COST

    def store(self, kernel: Any, items: List[Any], costs: Optional[Any] = None) -> int:
        """Store converted items, in kernel calls of at most about
        _ADD_BUDGET on a worker thread (one call on this thread when that is
        all). A Ctrl-C (or an error of the kernel, e.g. out of memory) part
        way keeps the calls before it; ``costs`` gets the stored items'."""
        each = self.costs_of(items)
        cum = np.cumsum(each + (_ADD_TEXT_COST - _TEXT_COST))
        bounds = _workers.cuts(cum, _ADD_BUDGET)
        if len(bounds) <= 2:
            size = self.add_items(kernel, items)
            if costs is not None:
                costs.extend(each.tolist())
            return size
        size = len(kernel)
        for lo, hi in zip(bounds, bounds[1:]):
            part = items[lo:hi]
            size = _workers.call(functools.partial(self.add_items, kernel, part))
            if costs is not None:
                costs.extend(each[lo:hi].tolist())
        return size

    def add_items(self, kernel: Any, items: List[Any]) -> int:
        if self.default:
            return kernel.add_texts(items)
        return kernel.add_token_lists(items)

    def query(self, kernel: Any, query: Any) -> int:
        q = self.text(query, "query")
        if self.default:
            return kernel.set_query_text(q)
        return kernel.set_query_tokens(q)


# --- RougeIndex ---------------------------------------------------------------------

@takes_options("RougeIndex")
class RougeIndex:
    """Texts tokenized once and stored as token ids, scored against a query.

    Args:
      texts: texts to store first (``str`` or ``bytes``; anything with a
        custom ``tokenizer``).
      rouge_type: "rougeL" (``_score_lcs``, the default) or "rouge1" to
        "rouge9" (``_score_ngrams``).
      tokenizer: an object with ``tokenize(text) -> list of hashable
        tokens``, as ``RougeScorer``'s, or a tokenizer name
        (``rougekit.word_tokenizers``); default: rouge-score's tokenizer.
      use_stemmer: Porter-stem tokens longer than 3 characters (default
        tokenizer only, as in rouge-score).
      threads: worker threads for ``scores`` (default: all cores).
      options: a ``rougekit.ScoringOptions`` instead of the keywords
        (``.options`` holds the index's).
      flavor: another package's ROUGE, one that counts as rouge-score does.
      **fields: the option fields of how text becomes tokens (``lang=``, ...).

    Text ids are 0, 1, 2, ... in the order texts were added. Scores are F
    against every stored text, the query being the target (module
    docstring), each equal to rouge-score's F for that pair. One index may
    be shared between threads; its calls take turns. It pickles as what it
    stores (token ids, vocabulary, options; not the texts) and loads with
    either backend without tokenizing again: build it once, send it to
    every worker (``rougekit.dask.max_similarity`` and its Spark and Ray
    twins do).

    >>> index = RougeIndex(rouge_type="rouge1")
    >>> index.add("the cat sat"), index.add("the dog")
    (0, 1)
    >>> index.max("the cat")
    (0, 0.8)
    >>> import pickle
    >>> pickle.loads(pickle.dumps(index)).max("the cat")
    (0, 0.8)
    """

    def __init__(self, texts: Iterable[Text] = (), rouge_type: Optional[str] = None,
                 tokenizer: Optional[Any] = None, use_stemmer: bool = False, *,
                 threads: Optional[int] = None, options: Optional[ScoringOptions] = None,
                 flavor: Optional[str] = None, **fields: Any) -> None:
        self.options, self._kind = index_options("RougeIndex", rouge_type, tokenizer,
                                                  use_stemmer, options, flavor, fields)
        self.rouge_type = self.options.rouge_types[0]
        self._tokens = _Tokens(self.options)
        self.use_stemmer = self._tokens.stemming
        self._threads = thread_count(threads)
        self._threads_asked = threads     # what a pickle keeps: None stays all cores
        self._kernel = self._tokens.kernel(self._kind)
        self._costs = array("q")     # each stored text's cost (_Tokens.costs_of)
        self._cum = np.zeros(0, dtype=np.int64)
        self._total = 0
        self._lock = threading.Lock()
        self.extend(texts)

    def __getstate__(self) -> Dict[str, Any]:
        """What a pickle holds: the options, the threads asked for and what
        the kernel stores (``TextIndex.to_state``: the stored texts' token
        ids, the vocabulary, the n-grams; not the texts), from which
        ``__setstate__`` rebuilds the index with the backend in use, without
        tokenizing again (so an index is built once and sent to a cluster's
        workers: ``rougekit.dask.max_similarity``)."""
        with self._lock:
            kernel = self._kernel.to_state()
        return {"version": _PICKLE_VERSION, "options": self.options,
                "threads": self._threads_asked, "kernel": kernel}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        if type(state) is not dict or state.get("version") != _PICKLE_VERSION:
            raise ValueError("not a RougeIndex pickle of this version of rougekit")
        options = state["options"]
        if not isinstance(options, ScoringOptions):
            raise ValueError("not a RougeIndex pickle: its options are no ScoringOptions")
        self.options, self._kind = options, _kind(options.rouge_types[0])
        self.rouge_type = options.rouge_types[0]
        self._tokens = _Tokens(options)
        self.use_stemmer = self._tokens.stemming
        self._threads_asked = state["threads"]
        self._threads = thread_count(self._threads_asked)
        kernel = _backend.text_index.TextIndex.from_state(state["kernel"])
        if (kernel.kind, kernel.default_tokens) != (self._kind, self._tokens.default) or \
                state["kernel"]["use_stemmer"] != (self.use_stemmer and self._tokens.default):
            raise ValueError("not a RougeIndex pickle: its texts were stored with other "
                             "options than its own")
        self._kernel = kernel
        # each text's cost as its units say (_cumulative_costs), not its characters
        self._costs = array("q", (6 * np.diff(state["kernel"]["offsets"]) + _TEXT_COST)
                            .astype(np.int64).tobytes())
        self._cum = np.zeros(0, dtype=np.int64)
        self._total = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kernel)

    def __repr__(self) -> str:
        return (f"RougeIndex({len(self)} texts, rouge_type={self.rouge_type!r}, "
                f"use_stemmer={self.use_stemmer!r})")

    def add(self, text: Text) -> int:
        """Store one text; returns its id."""
        item = self._tokens.text(text, "text")
        with self._lock:
            size = self._tokens.add_items(self._kernel, [item])
            self._costs.extend(self._tokens.costs_of([item]).tolist())
            return size - 1

    def extend(self, texts: Iterable[Text]) -> None:
        """Store several texts, in order (all or none: a bad text is an
        error naming it, and none of them is stored; a Ctrl-C part way
        through many keeps the first ones)."""
        items = as_list(texts, "texts", "a list of texts")
        with self._lock:
            self._tokens.add(self._kernel, items, "texts", costs=self._costs)

    def _cumulative_costs(self, n: int) -> np.ndarray:
        """The stored texts' costs added up (``_Tokens.costs_of``), kept
        until texts are added; a text whose cost was not recorded (an extend
        cut short between its kernel call and the record) costs what its
        units say."""
        if len(self._cum) == n:
            return self._cum
        costs = self._costs
        if len(costs) > n:
            del costs[n:]
        while len(costs) < n:
            costs.append(6 * self._kernel.count(len(costs)) + _TEXT_COST)
        self._cum = np.cumsum(np.frombuffer(costs, dtype=np.int64))
        self._total = int(self._cum[-1]) if n else 0
        return self._cum

    def scores(self, query: Text) -> np.ndarray:
        """F of ``query`` against every stored text, in id order (float64)."""
        with self._lock:
            units = self._tokens.query(self._kernel, query)
            n = len(self._kernel)
            out = np.empty(n, dtype=np.float64)
            if n == 0:
                return out
            # rougeL's work grows with the query's 64-bit words, rouge-N's not.
            words = max(1, -(-units // 64)) if self._kind == ROUGE_L else 1
            budget = _SCORE_BUDGET / words
            cum = self._cumulative_costs(n)
            threads = min(self._threads, n)
            if self._total <= budget and (threads == 1 or n < _PARALLEL_TEXTS):
                self._kernel.score_range(0, n, out)
                return out
            if n < _PARALLEL_TEXTS:
                threads = 1
            bounds = _workers.cuts(cum, budget, threads)
            score_range = self._kernel.score_range
            _workers.map_short(lambda k: score_range(bounds[k], bounds[k + 1], out),
                               range(len(bounds) - 1), threads)
            return out

    def top_k(self, query: Text, k: int) -> List[Tuple[int, float]]:
        """The ``k`` best ``(id, F)``: F descending, ids ascending on ties."""
        k = check_int("k", k, minimum=0)
        f = self.scores(query)
        n = len(f)
        if k == 0 or n == 0:
            return []
        if k >= n:
            order = np.argsort(-f, kind="stable")
        else:
            # The k-th best F, then every better one and the first ids of
            # those equal to it.
            part = np.argpartition(-f, k - 1)[:k]
            kth = f[part].min()
            better = np.flatnonzero(f > kth)
            tied = np.flatnonzero(f == kth)[:k - len(better)]
            chosen = np.concatenate([better, tied])
            order = chosen[np.lexsort((chosen, -f[chosen]))]
        return [(int(i), float(f[i])) for i in order[:k]]

    def max(self, query: Text) -> Tuple[int, float]:
        """``(id, F)`` of the best stored text (the first id on ties)."""
        f = self.scores(query)
        if len(f) == 0:
            raise ValueError("max() of an empty RougeIndex")
        i = int(np.argmax(f))
        return i, float(f[i])


# --- deduplicate ----------------------------------------------------------------------

@takes_options("deduplicate")
def deduplicate(texts: Sequence[Text], threshold: float = 0.7,
                rouge_type: Optional[str] = None, against: Sequence[Text] = (), *,
                tokenizer: Optional[Any] = None, use_stemmer: bool = False,
                threads: Optional[int] = None, progress: Optional[bool] = None,
                options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                **fields: Any) -> List[int]:
    """Indices of the texts kept by the Self-Instruct / Alpaca rule: in
    order, a text is kept when its F against every text kept before it and
    every text of ``against`` is at most ``threshold``.

    The decisions are exactly those of the loop over rouge-score::

        kept, pool = [], list(against)
        for i, text in enumerate(texts):
            if all(scorer.score(text, p)[rouge_type].fmeasure <= threshold
                   for p in pool):
                kept.append(i)
                pool.append(text)

    but most pairs are never scored (exact bounds on the token overlap
    rule them out; see ``rougekit._core._dedup_filter_py``), and the work runs on
    ``threads`` threads (default: all cores).

    Args:
      texts: the texts to filter (``str`` or ``bytes``).
      threshold: the largest F a kept text may have against another, in
        [0, 1] (compared as a float; 1 keeps every text, 0 only texts
        sharing no token with those before). Outside [0, 1] (70 meant as
        70%, say) it is refused: no F lies there, so it would keep every
        text or none.
      rouge_type: "rougeL" (the default) or "rouge1" to "rouge9".
      against: texts every kept text is also compared with, themselves
        never filtered (Self-Instruct's seed tasks, an existing pool).
      tokenizer: an object with ``tokenize(text)``, as ``RougeScorer``'s.
      use_stemmer: Porter-stem tokens longer than 3 characters (default
        tokenizer only).
      threads: worker threads (default: all cores).
      progress: draw a progress line on stderr: True, False, or None for
        "when stderr is a terminal and the run lasts over a second".
      options: a ``rougekit.ScoringOptions`` instead of the keywords.
      flavor: another package's ROUGE, as ``RougeIndex``'s.
      **fields: the option fields of how text becomes tokens, as ``RougeIndex``'s.

    >>> deduplicate(["a b c d", "a b c e", "x y z"], threshold=0.7)
    [0, 2]
    >>> deduplicate(["a b c d", "a b c e"], threshold=0.75)
    [0, 1]
    """
    options, _ = index_options("deduplicate", rouge_type, tokenizer, use_stemmer, options,
                                flavor, fields)
    return _run_dedup(texts, threshold, options, against, threads, progress)[0]


def _probe(dedup: Any, lo: int, hi: int, flags: np.ndarray, part: int) -> None:
    dedup.probe(lo, hi, part, flags)


def _run_dedup(texts: Sequence[Text], threshold: float, options: ScoringOptions,
               against: Sequence[Text] = (), threads: Optional[int] = None,
               progress: Optional[bool] = None) -> Tuple[List[int], Dict[str, int]]:
    """``deduplicate`` with checked options (their one rouge type), and the
    filter's counts (``Dedup.stats``)."""
    kind = _kind(options.rouge_types[0])
    thr = check_real("threshold", threshold)
    if math.isnan(thr):
        raise ValueError("threshold must be a number, not NaN")
    if not 0 <= thr <= 1:
        raise ValueError(f"threshold must be in [0, 1] (an F: 1 keeps every text), "
                         f"not {threshold!r}")
    texts = as_list(texts, "texts", "a list of texts")
    against = as_list(against, "against", "a list of texts")
    threads = thread_count(threads)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None, not {type(progress).__name__}")
    tokens = _Tokens(options)
    kernel = tokens.kernel(kind)
    n, first = len(texts), len(against)
    costs = array("q")
    with Progress(first + n, "deduplicate: tokenizing", "texts", progress,
                  0.0 if progress else 1.0) as bar:
        for name, items, base in (("against", against, 0), ("texts", texts, first)):
            for lo in range(0, len(items), _ADD_CHUNK):
                tokens.add(kernel, items[lo:lo + _ADD_CHUNK], name, lo, costs)
                bar.update(base + min(lo + _ADD_CHUNK, len(items)))
    threads = min(threads, _MAX_PARTS)
    # Small input: all on this thread (handing it over would cost more).
    # Else the kernel calls run on worker threads, this one waiting, so a
    # Ctrl-C is seen at once: Dedup's set-up (one call, seconds on a
    # million long texts) is left to end by itself; the blocks are short.
    small = int(np.frombuffer(costs, dtype=np.int64).sum()) <= _ADD_BUDGET
    make = functools.partial(_backend.dedup_filter.Dedup, kernel, first, thr, threads)
    dedup = make() if small else _workers.call(make, detach=True)
    flags = np.zeros(first + n, dtype=np.uint8)
    kept = 0
    try:
        with Progress(n, "deduplicate", "texts", progress,
                      0.0 if progress else 1.0) as bar:
            lo, block = first, 16
            while lo < first + n:
                hi = min(lo + block, first + n)
                start = time.perf_counter()
                if small:
                    dedup.probe(lo, hi, 0, flags)
                    kept += dedup.commit(lo, hi, flags)
                else:
                    _workers.run_parts(threads, functools.partial(_probe, dedup, lo, hi, flags))
                    kept += _workers.call(functools.partial(dedup.commit, lo, hi, flags))
                # Blocks of about 50 ms: short enough for the progress line
                # and Ctrl-C, long enough that threads outweigh their start.
                spent = time.perf_counter() - start
                if spent < 0.025 and block < 65536:
                    block *= 2
                elif spent > 0.1 and block > 1:
                    block //= 2
                lo = hi
                bar.update(lo - first, f", {kept} kept")
        stats = dedup.stats()
    finally:
        dedup.close()
    return np.flatnonzero(flags[first:] == 0).tolist(), stats
