"""One run of ROUGE-1.5.5 over a configuration, or over in-memory texts:
``Run`` plans the documents and jobs of every (system, measure), calls the
kernel (on several threads when the corpus is large), draws the bootstrap's
resamples and builds the result."""
import bisect
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional

import numpy as np

from rougekit import _backend
from rougekit.rouge155 import _corpus
from rougekit.rouge155._corpus import Corpus, Jobs, Text, display, place
from rougekit.rouge155.config import Config
from rougekit.rouge155.options import Options
from rougekit.rouge155.results import (
    Interval,
    MeasureResult,
    Rouge155Result,
    SystemResult,
)

__all__ = ["Run", "THREAD_MIN_DOCS", "numeral_order"]

# Below this many summaries a run stays on one thread.
THREAD_MIN_DOCS = 2000

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


class Run:
    """One run of the script over a configuration: documents, jobs, kernel
    calls, bootstrap, results."""

    def __init__(self, options: Options, config: Config, threads: Optional[int] = None):
        self.options = options
        self.threads = threads if threads is not None else (os.cpu_count() or 1)
        self.config = config
        self.corpus = Corpus(options, self.threads)
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
        shards = min(self.threads, len(texts) // _corpus.SHARD_MIN_TEXTS) or 1
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
        order = numeral_order(n)
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
                    "(Illegal division by zero)" % place(i, bad - bounds[i] - 1))
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
            shared: Dict[bool, Jobs] = {}
            for measure in self.measures:
                kind = measure.kind
                # Without -M every document of a run is read with one stemming
                # setting, so the measures share their jobs.
                cache_key = stem_now if not o.stem_models_only else None
                if cache_key in shared:
                    per_measure.append((measure, shared[cache_key]))
                    continue
                jobs = Jobs()
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
                    "(Illegal division by zero)" % display(corpus.doc_source[empty]))
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


def numeral_order(n: int) -> np.ndarray:
    """The order of the strings "1" .. str(n) as strings sort, without making
    them: by the number's digits padded with zeros on the right to the width
    of n, then the shorter first (a prefix sorts first).

    >>> numeral_order(12).tolist() == sorted(range(12), key=lambda i: str(i + 1))
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


def _printed(x) -> float:
    """A value as the script prints it (``%7.5f``), back as a float."""
    return float("%.5f" % x)
