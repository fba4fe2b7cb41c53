"""``Rouge155``: ROUGE-1.5.5.pl's numbers from Python, without Perl.

>>> from rougekit.rouge155 import Rouge155
>>> scorer = Rouge155(max_n=2, stem=True)
>>> scores = scorer.score("The cats sat on the mat.", ["A cat sat on a mat."])
>>> scores["ROUGE-1"].recall, scores["ROUGE-1"].hits, scores["ROUGE-2"].fmeasure
(0.66667, 4.0, 0.4)
>>> result = scorer.score_corpus(["The cats sat on the mat.", "Dogs barked."],
...                              [["A cat sat on a mat."], ["The dog barks.", "Dogs bark."]])
>>> print(result.render().splitlines()[1])
A ROUGE-1 Average_R: 0.73333 (95%-conf.int. 0.66667 - 0.80000)

A text is a summary with one sentence per line (the script's SPL format);
``str`` is encoded as UTF-8, ``bytes`` are taken as they are.
"""
import bisect
import functools
import math
import os
import threading
from array import array
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from rougekit import _backend
from rougekit.rouge155.config import Config, Evaluation
from rougekit.rouge155.options import Options
from rougekit.rouge155.results import (
    DocumentScore,
    Interval,
    MeasureResult,
    Rouge155Result,
    SystemResult,
)
from rougekit.rouge155.text import (
    FormatError,
    format_name,
    limit_lcs_sentences,
    limit_text,
    read_sentences,
)

__all__ = ["Rouge155"]

Text = Union[str, bytes]


class _InMemory:
    """A summary given as text (SPL), not as a file; hashed by identity.
    ``where`` is its place in the caller's arguments (error messages)."""

    __slots__ = ("data", "i", "j")

    def __init__(self, data: bytes, i: int, j: Optional[int]):
        self.data, self.i, self.j = data, i, j

    @property
    def where(self) -> str:
        return _place(self.i, self.j)


def _place(i: int, j: Optional[int]) -> str:
    return "candidates[%d]" % i if j is None else "references[%d][%d]" % (i, j)


def _summary(text, i, j=None) -> "_InMemory":
    """candidates[i] (j None) or references[i][j] as an in-memory summary."""
    if type(text) is str:
        return _InMemory(text.encode("utf-8", "surrogateescape"), i, j)
    if isinstance(text, str):
        return _InMemory(str(text).encode("utf-8", "surrogateescape"), i, j)
    if isinstance(text, (bytes, bytearray)):
        return _InMemory(bytes(text), i, j)
    raise TypeError(f"{_place(i, j)} must be a str or bytes, not {type(text).__name__}")


def _reference_list(refs, i) -> list:
    """references[i] as a non-empty list of texts."""
    if isinstance(refs, (str, bytes, bytearray)):
        return [refs]
    refs = list(refs)
    if not refs:
        raise ValueError(f"references[{i}] is empty: give at least one reference")
    return refs


def _display(source) -> str:
    if isinstance(source, _InMemory):
        return source.where
    return os.fsdecode(source) if isinstance(source, (str, bytes)) else "<text>"


_O_BINARY = getattr(os, "O_BINARY", 0)


def _read(path) -> bytes:
    """A file's bytes (a directory is an error, not an empty summary)."""
    fd = os.open(path, os.O_RDONLY | _O_BINARY)
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    except IsADirectoryError:
        raise FileNotFoundError(f"{_display(path)} is a directory, not a summary file") from None
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


@functools.lru_cache(maxsize=8)
def _empty_tokens(kernel, lexicon, remove_stopwords: bool):
    """A TokenCorpus with the run's stopwords (or none) and WordNet
    exceptions (a ``lexicon.Lexicon``), never filled: runs take
    ``empty_copy()`` of it."""
    return kernel.TokenCorpus(lexicon.stopwords if remove_stopwords else (),
                              lexicon.exceptions)


class _Corpus:
    """Every summary of a run as token ids, documents built on first use.

    A document is one summary read with one stemming setting: its sentences
    (the LCS reader's) are consecutive sequences of the kernel's
    ``TokenCorpus``, and its n-gram tokens one more sequence: the span of
    its sentences, or under ``-b``, where the two readers cut differently,
    a sequence of its own.
    """

    def __init__(self, options: Options, threads: int = 1):
        self.options = options
        self.threads = threads
        self.doc_ngram = array("i")
        self.doc_sent_lo = array("i")
        self.doc_sent_hi = array("i")
        self.doc_source: list = []
        self._docs: dict = {}
        self._sentences: dict = {}
        self._no_limit = not options.word_limit and not options.byte_limit
        self._plain_formats: dict = {}

    @functools.cached_property
    def tokens(self):
        """The kernel ``TokenCorpus`` of the documents (made on first use:
        ``run_texts`` tokenizes its shards into corpora of their own)."""
        return self.new_tokens()

    def new_tokens(self):
        """An empty kernel ``TokenCorpus`` with this run's stopwords and
        exceptions."""
        return _empty_tokens(_backend.rouge155, self.options.lexicon,
                             self.options.remove_stopwords).empty_copy()

    def _data(self, source) -> bytes:
        return source.data if isinstance(source, _InMemory) else _read(source)

    def _raw_sentences(self, source, fmt):
        key = (source, fmt)
        sents = self._sentences.get(key)
        if sents is None:
            data = self._data(source)
            try:
                sents = read_sentences(data, fmt)
            except FormatError as e:
                raise ValueError(f"{_display(source)}: {e}") from None
            self._sentences[key] = sents
        return sents

    def _plain(self, fmt) -> bool:
        """Whether summaries in format fmt read as plain lines (SPL, no limit)."""
        plain = self._plain_formats.get(fmt)
        if plain is None:
            plain = self._plain_formats[fmt] = self._no_limit and format_name(fmt) == "SPL"
        return plain

    def _register(self, key, first, last, ngram) -> int:
        d = len(self.doc_ngram)
        self.doc_ngram.append(ngram)
        self.doc_sent_lo.append(first)
        self.doc_sent_hi.append(last)
        self.doc_source.append(key[0])
        self._docs[key] = d
        return d

    def prefetch(self, sources, stem: bool):
        """Build the documents of the SPL summaries among ``(source, fmt)``
        pairs that read as plain lines: in-memory texts in one kernel call,
        files in another (read in C, without the GIL)."""
        keys: Dict[bool, list] = {True: [], False: []}
        for source, fmt in sources:
            key = (source, fmt, stem)
            if key not in self._docs and self._plain(fmt):
                self._docs[key] = -1          # claimed: the same summary listed twice
                keys[isinstance(source, _InMemory)].append(key)
        table = 1 if stem else 0
        for in_memory, batch in keys.items():
            if not batch:
                continue
            if in_memory:
                spans = self.tokens.add_texts([key[0].data for key in batch], table)
            else:
                try:
                    spans = self._add_files([key[0] for key in batch], table)
                except IsADirectoryError as e:
                    raise FileNotFoundError(f"{_display(e.filename)} is a directory, "
                                            "not a summary file") from None
            d = len(self.doc_ngram)
            spans = spans.astype(np.int32)
            self.doc_sent_lo.frombytes(np.ascontiguousarray(spans[:, 0]).tobytes())
            self.doc_sent_hi.frombytes(np.ascontiguousarray(spans[:, 1]).tobytes())
            self.doc_ngram.frombytes(np.ascontiguousarray(spans[:, 2]).tobytes())
            self.doc_source.extend(key[0] for key in batch)
            self._docs.update(zip(batch, range(d, d + len(batch))))

    def _add_files(self, paths: list, table: int) -> np.ndarray:
        """``add_files`` of the corpus's tokens; many files are read and
        tokenized in parts on several threads (each part into a corpus of
        its own, without the GIL; reading a file is mostly waiting for the
        system) and the parts joined in order."""
        parts = min(self.threads, len(paths) // SHARD_MIN_TEXTS)
        if parts <= 1:
            return self.tokens.add_files(paths, table)
        cuts = [len(paths) * k // parts for k in range(parts + 1)]

        def read(k):
            tokens = self.tokens if k == 0 else self.new_tokens()
            return tokens, tokens.add_files(paths[cuts[k]:cuts[k + 1]], table)

        with ThreadPoolExecutor(max_workers=parts) as pool:
            done = list(pool.map(read, range(parts)))
        return np.concatenate([done[0][1]] + [spans + self.tokens.extend(tokens)
                                              for tokens, spans in done[1:]])

    def doc(self, source, fmt, stem: bool) -> int:
        key = (source, fmt, stem)
        d = self._docs.get(key)
        if d is not None:
            return d
        o = self.options
        tc = self.tokens
        table = 1 if stem else 0
        if self._plain(fmt):
            if isinstance(source, _InMemory):
                first = tc.add_text(source.data, table)
            else:
                try:
                    first = tc.add_file(source, table)
                except IsADirectoryError:
                    raise FileNotFoundError(f"{_display(source)} is a directory, "
                                            "not a summary file") from None
        else:
            sents = self._raw_sentences(source, fmt)
            first = tc.add_sentences(limit_lcs_sentences(sents, o.word_limit, o.byte_limit),
                                     table)
        last = len(tc)
        if o.byte_limit:
            ngram = tc.add_sentences(limit_text(sents, byte_limit=o.byte_limit), table,
                                     joined=True)
        else:
            ngram = tc.add_span(first, last)
        return self._register(key, first, last, ngram)

    def arrays(self):
        tokens, starts, ends = self.tokens.arrays()
        return (tokens, starts, ends,
                np.array(self.doc_ngram, dtype=np.int32),
                np.array(self.doc_sent_lo, dtype=np.int32),
                np.array(self.doc_sent_hi, dtype=np.int32),
                max(self.tokens.vocab_size(), 1))


class _Jobs:
    """The evaluations of one (system, measure): document indices for the
    kernel (``score_evals``'s ``jobs``)."""

    def __init__(self):
        self.peer_seq = array("i")
        self.peer_bag = array("i")
        self.model_off = array("q", [0])
        self.model_seq = array("i")
        self.model_bag = array("i")

    def arrays(self):
        def np_(a, dt):
            return np.frombuffer(a, dtype=dt) if len(a) else np.zeros(0, dtype=dt)
        return (np_(self.peer_seq, np.int32), np_(self.peer_bag, np.int32),
                np_(self.model_off, np.int64), np_(self.model_seq, np.int32),
                np_(self.model_bag, np.int32))


class Rouge155:
    """ROUGE-1.5.5.pl's scores: configured with keyword arguments that stand
    for the script's flags (see :mod:`rougekit.rouge155.options` for the
    table), e.g. ``Rouge155(max_n=4, weight=1.2, skip_distance=4,
    skip_unigrams=True, stem=True, remove_stopwords=True)`` for
    ``-n 4 -w 1.2 -2 4 -u -m -s``.

    - ``score(candidate, references)``: one evaluation's scores per measure;
    - ``score_corpus(candidates, references)``: one system over many
      evaluations (one or more references each), averages and intervals;
    - ``score_config(config, systems=None)``: a configuration read by
      :func:`~rougekit.rouge155.read_config` or
      :func:`~rougekit.rouge155.read_file_list`, every system or some.

    ``threads`` (not an option of the script) is how many threads read,
    tokenize, score and resample (default: all cores, on corpora large enough
    to gain from them); the numbers do not depend on it.

    Bad options raise ``ValueError`` or ``TypeError`` naming the keyword; a
    missing summary ``FileNotFoundError``; a model without tokens under
    ROUGE-W (where the script dies with "Illegal division by zero") and an
    unreadable input format ``ValueError``.
    """

    def __init__(self, *, threads: Optional[int] = None, **options):
        self.options = Options(**options)
        self.threads = _check_threads(threads)

    @classmethod
    def from_options(cls, options: Options, threads: Optional[int] = None) -> "Rouge155":
        self = cls.__new__(cls)
        self.options = options
        self.threads = _check_threads(threads)
        return self

    # -- entry points -------------------------------------------------------

    def score(self, candidate: Text, references: Union[Text, Sequence[Text]]
              ) -> Dict[str, DocumentScore]:
        """The scores of one candidate against its references, by measure label.

        These are the numbers the script prints with ``-d`` for this
        evaluation (its average over one evaluation is the same number).
        """
        result = self.score_corpus([candidate], [references], system_id="A")
        system = result.systems["A"]
        return {label: m.documents["1"] for label, m in system.measures.items()}

    def score_corpus(self, candidates: Sequence[Text],
                     references: Sequence[Union[Text, Sequence[Text]]], *,
                     system_id: str = "A") -> Rouge155Result:
        """One system's candidates, each against its references (a text or a
        list of texts); evaluation IDs are 1, 2, ... in order."""
        if isinstance(candidates, (str, bytes)):
            raise TypeError("candidates must be a list of texts, not a single "
                            f"{type(candidates).__name__}")
        candidates = list(candidates)
        references = list(references)
        if len(candidates) != len(references):
            raise ValueError(f"candidates has {len(candidates)} texts but references has "
                             f"{len(references)} items")
        o = self.options
        if o.stem_models_only or o.word_limit or o.byte_limit:
            evaluations = []
            for i, (cand, refs) in enumerate(zip(candidates, references)):
                refs = _reference_list(refs, i)
                evaluations.append(Evaluation(
                    id=str(i + 1), input_format="SPL", peers={system_id: _summary(cand, i)},
                    models=[(str(j), _summary(r, i, j)) for j, r in enumerate(refs)]))
            return self.score_config(Config(evaluations=evaluations, systems=[system_id]))
        # Otherwise every summary is read one way: the texts go to the
        # tokenizer in one call (the same numbers, tested against the above),
        # which reads str and bytes and rejects anything else.
        texts: list = []
        bounds = [0]
        append, extend = texts.append, texts.extend
        for i, refs in enumerate(references):
            append(candidates[i])
            extend(refs if type(refs) is list and refs else _reference_list(refs, i))
            bounds.append(len(texts))
        try:
            return _Run(o, Config(evaluations=[], systems=[system_id]),
                        self.threads).run_texts(system_id, texts, bounds)
        except TypeError:
            for k, text in enumerate(texts):      # name the text in the caller's terms
                if not isinstance(text, (str, bytes, bytearray)):
                    i = bisect.bisect_right(bounds, k) - 1
                    _summary(text, i, None if k == bounds[i] else k - bounds[i] - 1)
            raise

    def score_config(self, config: Config,
                     systems: Union[None, str, Sequence[str]] = None) -> Rouge155Result:
        """Score a configuration: every system it names (``systems=None``,
        the script's ``-a``), one system ID, or a list of them (in the order
        given)."""
        if systems is None:
            peers = list(config.systems)
        elif isinstance(systems, str):
            peers = [systems]
        else:
            peers = list(systems)
        return _Run(self.options, config, self.threads).run(peers)


# Below this many summaries a run stays on one thread.
THREAD_MIN_DOCS = 2000

# Summaries per thread at least when run_texts scores in shards or files are
# read on several threads.
SHARD_MIN_TEXTS = 1000

# Worker threads kept for the runs of this process, one pool per number of
# workers asked for (so a run never has more threads than its ``threads``).
# A new pool per call cost about 5 ms of the benchmark's 48 (its threads
# started late), though making one alone takes 0.3 ms.
_pools: Dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _worker_pool(workers: int) -> ThreadPoolExecutor:
    with _pools_lock:
        pool = _pools.get(workers)
        if pool is None:
            pool = _pools[workers] = ThreadPoolExecutor(
                max_workers=workers, thread_name_prefix="rougekit-rouge155")
        return pool


def _forget_pools() -> None:
    """In a forked child the pools' threads do not exist: start afresh."""
    global _pools_lock
    _pools.clear()
    _pools_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)


class _Run:
    """One run of the script over a configuration: documents, jobs, kernel
    calls, bootstrap, results."""

    def __init__(self, options: Options, config: Config, threads: Optional[int] = None):
        self.options = options
        self.threads = threads if threads is not None else (os.cpu_count() or 1)
        self.config = config
        self.corpus = _Corpus(options, self.threads)
        self.measures = options.measures()
        self.missing: List = []

    def _map(self, fn, items, work: int, meanwhile=None):
        """[fn(x) for x in items], on several threads when there is work for
        them: ``work`` summaries or evaluations at least THREAD_MIN_DOCS (a
        pool costs more than it saves on small corpora). ``meanwhile()``, if
        given, runs in this thread while the pool works (else first)."""
        if self.threads <= 1 or len(items) <= 1 or work < THREAD_MIN_DOCS:
            if meanwhile is not None:
                meanwhile()
            return [fn(x) for x in items]
        workers = min(self.threads, len(items))
        started = threading.Semaphore(0)

        def run(x):
            started.release()
            return fn(x)

        futures = [_worker_pool(workers).submit(run, x) for x in items]
        if meanwhile is not None:
            # Once every worker has begun (and so holds the GIL only
            # briefly before its kernel call releases it).
            for _ in range(workers):
                started.acquire()
            meanwhile()
        return [f.result() for f in futures]

    def _resampled(self, values: np.ndarray) -> np.ndarray:
        """The three columns of a measure's values (model count, hits, peer
        count, R, P, F per evaluation) that the bootstrap averages: R, P and
        F, or with ``counting_unit=1`` the counts (model, peer, hits)."""
        return values[:, 3:6] if self.options.counting_unit == 0 else values[:, [0, 2, 1]]

    def _bootstrap(self, table: np.ndarray):
        """The script's averages and bounds of each column of ``table``
        (instances x three columns per measure, in the script's order).
        Each resample depends only on its seed, so parts of them are drawn
        on several threads and joined before they are ranked."""
        o = self.options
        kernel = _backend.rouge155
        count = math.ceil(o.resamples)
        parts = min(self.threads, count) if len(table) >= THREAD_MIN_DOCS else 1
        # Cut at multiples of 8, the most resamples a compiled kernel sums
        # at once, so that no part ends inside a group.
        cuts = [min(count, (count * k // parts + 4) // 8 * 8) for k in range(parts)] + [count]

        def draw(k):
            return kernel.resample_means(table, o.resamples, cuts[k], cuts[k + 1],
                                         token_counts=o.counting_unit == 1, alpha=o.alpha)

        means = self._map(draw, list(range(parts)), len(table))
        return kernel.summarize_resamples(np.hstack(means), o.resamples, o.confidence)

    def run(self, peers: List[str]) -> Rouge155Result:
        return self._execute(self._plan(peers))

    def run_texts(self, system_id: str, texts: List[Text], bounds: List[int]
                  ) -> Rouge155Result:
        """One system's in-memory SPL summaries, without a configuration:
        evaluation i (ID ``i + 1``) is ``texts[bounds[i]]`` (the peer)
        against ``texts[bounds[i] + 1:bounds[i + 1]]`` (its models). What
        ``run`` does with such a configuration when neither ``-M`` nor a
        length limit is set (one stemming setting, every summary read as
        plain lines), without the per-summary bookkeeping: the evaluations
        are cut into shards of about as many summaries, one per thread, and each
        shard is tokenized into a corpus of its own and scored by every
        measure there (token ids need only agree within an evaluation)."""
        o = self.options
        kernel = _backend.rouge155
        params = self._kernel_params()
        table = 1 if o.stem else 0
        n = len(bounds) - 1
        shards = min(self.threads, len(texts) // SHARD_MIN_TEXTS) or 1
        # Shard k starts at the first evaluation whose peer is at or after
        # text len(texts) * k / shards (about equal numbers of summaries).
        cuts = sorted({0, n} | {bisect.bisect_left(bounds, len(texts) * k // shards)
                                for k in range(1, shards)})
        cuts = cuts if n else [0, 0]

        def score_shard(k):
            e0, e1 = cuts[k], cuts[k + 1]
            t0, t1 = bounds[e0], bounds[e1]
            tokens = self.corpus.new_tokens()
            spans = tokens.add_texts(texts[t0:t1], table).astype(np.int32)
            arrays = (*tokens.arrays(), np.ascontiguousarray(spans[:, 2]),
                      np.ascontiguousarray(spans[:, 0]), np.ascontiguousarray(spans[:, 1]),
                      max(tokens.vocab_size(), 1))
            local = np.asarray(bounds[e0:e1 + 1], dtype=np.int64) - t0
            is_peer = np.zeros(t1 - t0, dtype=bool)
            is_peer[local[:-1]] = True
            docs = np.arange(t1 - t0, dtype=np.int32)
            peers, models = docs[is_peer], docs[~is_peer]
            model_off = np.concatenate(([0], np.cumsum(np.diff(local) - 1))).astype(np.int64)
            jobs = (peers, peers, model_off, models, models)
            # Each measure's values go straight to their instances' rows.
            at = position[e0:e1]
            for k, (out, bad) in enumerate(_score_measures(kernel, self.measures, arrays,
                                                           jobs, params)):
                if bad >= 0:
                    return t0 + int(models[bad])
                ordered[k][at] = out
                if resampled is not None:
                    resampled[at, 3 * k:3 * k + 3] = self._resampled(out)
            return -1

        # The script's order of the instances: keys "ID.system" of one
        # system sort as their IDs do ("." is below every digit, and a
        # prefix sorts first either way). position[e]: evaluation e's place.
        order = _numeral_order(n)
        position = np.empty(n, dtype=np.intp)
        position[order] = np.arange(n)
        ordered = [np.empty((n, 6)) for _ in self.measures]
        resampled = (np.empty((n, 3 * len(self.measures)))     # the bootstrap's table
                     if o.counting_unit != 2 and self.measures else None)
        eval_ids: list = []

        def name_instances():       # while the shards are scored
            eval_ids.extend([str(e + 1) for e in order.tolist()])

        for bad in self._map(score_shard, list(range(len(cuts) - 1)), len(texts),
                             meanwhile=name_instances):
            if bad >= 0:
                i = bisect.bisect_right(bounds, bad) - 1
                raise ValueError(
                    "ROUGE-W: model summary %s has no tokens; the script dies here "
                    "(Illegal division by zero)" % _place(i, bad - bounds[i] - 1))
        return self._result({system_id: self._system_result(
            system_id, eval_ids, list(zip(self.measures, ordered)), resampled)})

    def _kernel_params(self) -> Dict[str, Any]:
        o = self.options
        return dict(skip_distance=o.skip_distance if o.skip_distance is not None else -1.0,
                    weight=o.weight if o.weight is not None else 1.0,
                    best_model=o.formula == "B", alpha=o.alpha)

    def _plan(self, peers: List[str]) -> list:
        """(system ID, evaluation IDs, sort keys, [(measure, jobs)]) per system."""
        o = self.options
        corpus = self.corpus
        # The script stems with a global flag that -M switches off after
        # stemming a model: replay it in the script's order.
        stem_now = o.stem
        plans = []          # (peer, instance keys, [(measure, jobs)])
        for peer in peers:
            evals = []
            for ev in self.config.evaluations:
                if peer in ev.peers:
                    evals.append(ev)
                elif self.measures:
                    self.missing.append((ev.id, peer))
            if not o.stem_models_only:
                corpus.prefetch([(src, ev.input_format) for ev in evals
                                 for src in [ev.peers[peer]] + [m for _, m in ev.models]],
                                stem_now)
            per_measure = []
            shared: Dict[bool, _Jobs] = {}
            for measure in self.measures:
                kind = measure.kind
                # Without -M every document of a run is read with one stemming
                # setting, so the measures share their jobs.
                cache_key = stem_now if not o.stem_models_only else None
                if cache_key in shared:
                    per_measure.append((measure, shared[cache_key]))
                    continue
                jobs = _Jobs()
                doc = corpus.doc
                if not o.stem_models_only:
                    # One stemming setting: a document serves as sequences and bag.
                    peer_seq, model_seq, model_off = jobs.peer_seq, jobs.model_seq, jobs.model_off
                    for ev in evals:
                        fmt = ev.input_format
                        peer_seq.append(doc(ev.peers[peer], fmt, stem_now))
                        model_seq.extend([doc(m, fmt, stem_now) for _, m in ev.models])
                        model_off.append(len(model_seq))
                    jobs.peer_bag = peer_seq
                    jobs.model_bag = model_seq
                else:
                    # -M: the script's stemming flag changes as it goes (see above).
                    for ev in evals:
                        fmt = ev.input_format
                        pd = doc(ev.peers[peer], fmt, stem_now)
                        jobs.peer_seq.append(pd)
                        jobs.peer_bag.append(pd)
                        for _, model_src in ev.models:
                            if kind == "N":
                                seq_flag = bag_flag = stem_now
                            elif kind == "W":     # its sentences as they are, its bag stemmed
                                seq_flag, bag_flag = stem_now, True
                            else:                 # L, S: stemmed
                                seq_flag = bag_flag = True
                            if kind != "N":
                                stem_now = False
                            md = doc(model_src, fmt, seq_flag)
                            jobs.model_seq.append(md)
                            jobs.model_bag.append(md if bag_flag == seq_flag else
                                                  doc(model_src, fmt, bag_flag))
                        jobs.model_off.append(len(jobs.model_seq))
                if cache_key is not None:
                    shared[cache_key] = jobs
                per_measure.append((measure, jobs))
            keys = ["%s.%s" % (ev.id, peer) for ev in evals]
            plans.append((peer, [ev.id for ev in evals], keys, per_measure))
        return plans

    def _execute(self, plans: list) -> Rouge155Result:
        """Every (system, measure) of the plans scored, averaged and resampled."""
        corpus = self.corpus
        arrays = corpus.arrays()
        kernel = _backend.rouge155
        params = self._kernel_params()
        # Every (system, measure) is one kernel call over all its evaluations;
        # the calls release the GIL, so they run on all cores.
        # (A system's ROUGE-1 to N share one call.)
        calls: Dict[tuple, tuple] = {}
        for *_, per_measure in plans:
            for measure, jobs in per_measure:
                calls.setdefault((id(jobs), measure.kind, measure.n, measure.unigrams),
                                 (measure, jobs))
        tasks: Dict[tuple, tuple] = {}
        for key, (measure, jobs) in calls.items():
            group = (id(jobs), "N") if measure.kind == "N" else key
            tasks.setdefault(group, (jobs, []))[1].append((key, measure))

        def score(task):
            jobs, keyed = task
            return _score_measures(kernel, [m for _, m in keyed], arrays, jobs.arrays(), params)

        outputs: Dict[tuple, tuple] = {}
        for (_, keyed), done in zip(tasks.values(), self._map(score, list(tasks.values()),
                                                              len(corpus.doc_ngram))):
            outputs.update(zip([key for key, _ in keyed], done))
        for key, (_, bad) in outputs.items():
            if bad >= 0:
                empty = int(calls[key][1].model_seq[bad])
                raise ValueError(
                    "ROUGE-W: model summary %s has no tokens; the script dies here "
                    "(Illegal division by zero)" % _display(corpus.doc_source[empty]))
        return self._results([
            (peer, ids, sorted(range(len(keys)), key=keys.__getitem__),
             [(m, outputs[(id(jobs), m.kind, m.n, m.unigrams)][0]) for m, jobs in per_measure])
            for peer, ids, keys, per_measure in plans])

    def _results(self, scored: list) -> Rouge155Result:
        """The result of each system's per-evaluation values, given as
        (system ID, evaluation IDs, the script's order of the instances: the
        evaluations sorted by instance key "ID.system" as strings,
        [(measure, values)])."""
        systems = {}
        for peer, ids, order, per_measure in scored:
            rows = np.asarray(order, dtype=np.intp)
            ordered = [(m, np.take(values, rows, axis=0) if len(rows) else values)
                       for m, values in per_measure]
            table = (np.hstack([self._resampled(values) for _, values in ordered])
                     if self.options.counting_unit != 2 and ordered else None)
            systems[peer] = self._system_result(peer, [ids[i] for i in order], ordered, table)
        return self._result(systems)

    def _system_result(self, peer: str, eval_ids: list, ordered: list,
                       table: Optional[np.ndarray]) -> SystemResult:
        """One system's result from its evaluation IDs and [(measure,
        values)] in the script's order of the instances, and the bootstrap's
        table of them (None: nothing to resample, ``counting_unit=2``)."""
        if table is not None:
            avg, lo, hi = self._bootstrap(np.ascontiguousarray(table))
        results = {}
        for k, (measure, values) in enumerate(ordered):
            averages: list
            if table is None:
                averages = [None] * 6
            else:
                c = 3 * k
                averages = [_printed(avg[c + j]) for j in range(3)] + [
                    Interval(_printed(lo[c + j]), _printed(hi[c + j])) for j in range(3)]
            results[measure.label] = MeasureResult(measure.label, averages, eval_ids, values)
        return SystemResult(peer, results)

    def _result(self, systems: dict) -> Rouge155Result:
        o = self.options
        return Rouge155Result(systems=systems, counting_unit=o.counting_unit,
                              confidence_label=o.confidence_label, missing=self.missing,
                              signature=str(o.signature()))


def _numeral_order(n: int) -> np.ndarray:
    """The order of the strings "1" .. str(n) as strings sort, without making
    them: by the number's digits padded with zeros on the right to the width
    of n, then the shorter first (a prefix sorts first).

    >>> _numeral_order(12).tolist() == sorted(range(12), key=lambda i: str(i + 1))
    True
    """
    numbers = np.arange(1, n + 1, dtype=np.int64)
    digits = np.ones(n, dtype=np.int64)
    power = 10
    while power <= n:
        digits += numbers >= power
        power *= 10
    padded = numbers * 10 ** (len(str(n)) - digits)
    return np.lexsort((digits, padded))


def _score_measures(kernel, measures, arrays, jobs, params) -> list:
    """``score_evals`` of each measure on the same jobs, ``(values, bad)``
    each; ROUGE-1 to N (when the measures hold all of them) in one call."""
    ngram_orders = [m.n for m in measures if m.kind == "N"]
    together = None
    if len(ngram_orders) > 1 and sorted(ngram_orders) == list(range(1, len(ngram_orders) + 1)) \
            and len(ngram_orders) <= 64:
        together = kernel.score_evals("N", arrays, jobs, n=len(ngram_orders), all_n=True,
                                      **params)[0]
    return [(together[m.n - 1], -1) if m.kind == "N" and together is not None else
            kernel.score_evals(m.kind, arrays, jobs, n=m.n, skip_unigrams=m.unigrams, **params)
            for m in measures]


def _check_threads(threads):
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or threads < 1):
        raise ValueError(f"threads must be None (all cores) or an int >= 1, got {threads!r}")
    return threads


def _printed(x) -> float:
    """A value as the script prints it (``%7.5f``), back as a float."""
    return float("%.5f" % x)
