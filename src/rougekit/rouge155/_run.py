"""One run of ROUGE-1.5.5 over a configuration, or over in-memory texts:
``Run`` plans the documents and jobs of every (system, measure), calls the
kernel (on several threads when the corpus is large), draws the bootstrap's
resamples and builds the result."""
import bisect
import math
import os
from typing import Any, Dict, List, Optional

import numpy as np

from rougekit import _backend, _workers
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

__all__ = ["ITEM_NS", "PURE_SLOWER", "RESAMPLE_CALL_NS", "RESAMPLE_NS", "Run", "SHARD_NS",
           "THREAD_MIN_DOCS", "numeral_order", "sub_run"]

# Below this many summaries a run stays on one thread.
THREAD_MIN_DOCS = 2000

# The work of one kernel call on a worker thread, at most: short, so that
# a Ctrl-C stops a run soon (rougekit._workers). ``Run.costs`` estimates it
# in nanoseconds of one core of the machines measured (a 2-core x86-64,
# 2024): ITEM_NS is 50 ms there.
ITEM_NS = 50_000_000
# run_texts' shards, each a corpus of its own: large enough that a shard's
# new vocabulary and stems cost little beside its work, small enough that
# copying out its arrays (between two steps) takes milliseconds.
SHARD_NS = 2_000_000_000
# The bootstrap: a cell of its table, once a call (resample_means reads the
# whole table) and once a resample drawn (more than a cell of ROUGE-W: the
# table of a large corpus does not fit in the caches).
RESAMPLE_CALL_NS = 14.0
RESAMPLE_NS = 2.5
# The pure twins (ROUGEKIT_PURE_PYTHON=1) take these many times as long as
# the compiled kernels, as measured; their resample_means loops over the
# instances, drawing every resample of the call at each (1,500 and 5 ns).
PURE_SLOWER = {"tokenize": 10.0, "N": 30.0, "L": 200.0, "W": 100.0, "S": 50.0,
               "S*": 170.0, "call": 100.0, "resample": 2.0}


class Run:
    """One run of the script over a configuration: documents, jobs, kernel
    calls, bootstrap, results."""

    def __init__(self, options: Options, config: Config, threads: Optional[int] = None):
        self.options = options
        self.threads = threads if threads is not None else (os.cpu_count() or 1)
        self.config = config
        self.corpus = Corpus(options, self.threads)
        self.corpus.prepare()
        self.measures = options.measures()
        self.missing: List = []

    def _map(self, fn, items, work: int, meanwhile=None):
        """[fn(x) for x in items]: here when ``work`` (summaries or
        evaluations) is below THREAD_MIN_DOCS (the pool costs more than it
        saves on small corpora, and the work ends soon), else on up to
        ``threads`` worker threads, this thread waiting. ``meanwhile()``, if
        given, runs in this thread once the workers have begun (else first)."""
        if work < THREAD_MIN_DOCS:
            if meanwhile is not None:
                meanwhile()
            return [fn(x) for x in items]
        return _workers.map_items(fn, items, self.threads, meanwhile=meanwhile)

    def costs(self, peer: np.ndarray, models: np.ndarray, squares: np.ndarray,
              tokenize: bool = False) -> np.ndarray:
        """Estimated nanoseconds of the kernel work of each evaluation, from
        its peer's tokens, its models' together and the sum of their squares
        (float arrays), as measured per measure: about 50 ns a token for
        ROUGE-N, 0.6 (L) and 2.5 (W) a cell of the peer x models table, 25
        a token and skip for S (twice the squares without a limit), and 300
        a token to tokenize and stem."""
        slower = _slower()
        tokens = peer + models
        cost = 1000.0 + tokens * (300.0 * slower["tokenize"] if tokenize else 0.0)
        skip = self.options.skip_distance
        for m in self.measures:
            if m.kind == "N":
                cost = cost + 50.0 * slower["N"] * tokens
            elif m.kind == "L":
                cost = cost + slower["L"] * (50.0 * tokens + 0.6 * peer * models)
            elif m.kind == "W":
                cost = cost + slower["W"] * (120.0 * tokens + 2.5 * peer * models)
            elif skip is None or skip < 0:
                cost = cost + slower["S*"] * (100.0 * tokens + 2.0 * (peer * peer + squares))
            else:
                cost = cost + slower["S"] * 25.0 * (skip + 1) * tokens
        return cost

    def _evaluation_cuts(self, corpus, jobs, parts: int) -> List[int]:
        """Where to cut the evaluations of ``jobs`` (the kernel's ``Jobs`` on
        its ``Corpus`` ``corpus``) into chunks of about ITEM_NS (``costs`` of
        their documents' n-gram tokens), at least ``parts`` of them."""
        peer_seq, model_off, model_seq = jobs.peer_seq, jobs.model_off, jobs.model_seq
        size = (corpus.seq_end - corpus.seq_start)[corpus.doc_ngram].astype(np.float64)
        models = np.concatenate(([0.0], np.cumsum(size[model_seq])))
        squares = np.concatenate(([0.0], np.cumsum(size[model_seq] ** 2)))
        cost = self.costs(size[peer_seq], models[model_off[1:]] - models[model_off[:-1]],
                          squares[model_off[1:]] - squares[model_off[:-1]])
        return _workers.cuts(np.cumsum(cost), ITEM_NS, parts)

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
        kernel = _backend.rouge155_bootstrap
        count = math.ceil(o.resamples)
        parts = min(self.threads, count) if len(table) >= THREAD_MIN_DOCS else 1
        # Cut at multiples of 8, the most resamples a compiled kernel sums
        # at once, so that no part ends inside a group; each part draws in
        # steps of about ITEM_NS, whole groups too unless a group alone
        # takes longer (any cut gives the same draws: a resample depends
        # only on its seed).
        cuts = [min(count, (count * k // parts + 4) // 8 * 8) for k in range(parts)] + [count]
        slower = _slower()
        call = RESAMPLE_CALL_NS * slower["call"]
        each = RESAMPLE_NS * slower["resample"]
        # As many as ITEM_NS allows, and never so few that the call's read
        # of the table outweighs its draws.
        step = max(int((ITEM_NS / max(table.size, 1) - call) / each), math.ceil(call / each))
        step = step // 8 * 8 or step

        def draw(k):
            means = []
            for first in range(cuts[k], cuts[k + 1], step) or [cuts[k]]:
                if _workers.cancelled():
                    break
                means.append(kernel.resample_means(
                    table, o.resamples, first, min(first + step, cuts[k + 1]),
                    token_counts=o.counting_unit == 1, alpha=o.alpha))
            return means

        means = [m for part in self._map(draw, list(range(parts)), len(table)) for m in part]
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
        are cut into shards (at least one a thread, a few seconds of work
        each), each tokenized into a corpus of its own and scored by every
        measure there (token ids need only agree within an evaluation), in
        steps short enough for a Ctrl-C to stop it soon."""
        o = self.options
        kernel = _backend.rouge155_counts
        params = self._kernel_params()
        table = 1 if o.stem else 0
        n = len(bounds) - 1
        cuts = [0, n]                 # shards: evaluations e0 to e1 - 1
        small = len(texts) < THREAD_MIN_DOCS
        if not small and n:
            # Shards of about SHARD_NS, at least one a thread when there
            # are SHARD_MIN_TEXTS summaries a thread; tokens: about a sixth
            # of the characters.
            size = _lengths(texts) / 6
            first = np.asarray(bounds, dtype=np.intp)
            total = np.concatenate(([0.0], np.cumsum(size)))
            squares = np.concatenate(([0.0], np.cumsum(size * size)))
            cost = np.cumsum(self.costs(size[first[:-1]], total[first[1:]] - total[first[:-1] + 1],
                                        squares[first[1:]] - squares[first[:-1] + 1],
                                        tokenize=True))
            parts = min(self.threads, len(texts) // _corpus.SHARD_MIN_TEXTS) or 1
            cuts = _workers.cuts(cost, SHARD_NS, parts)

        def score_shard(k):
            # In steps of about ITEM_NS: each step's texts tokenized into
            # the shard's corpus (its stems kept from step to step), then
            # each step's evaluations scored on its own slice of its arrays.
            e0, e1 = cuts[k], cuts[k + 1]
            t0 = bounds[e0]
            steps = [e0, e1]
            if not small and e1 > e0:
                steps = [e0 + c for c in _workers.cuts(
                    cost[e0:e1] - (cost[e0 - 1] if e0 else 0.0), ITEM_NS)]
            steps = list(zip(steps, steps[1:]))
            tokens = self.corpus.new_tokens()
            added = []
            for a, b in steps:
                if _workers.cancelled():
                    return -1
                added.append(tokens.add_texts(texts[bounds[a]:bounds[b]], table))
            spans = np.concatenate(added).astype(np.int64)
            tok, starts, ends_ = tokens.arrays()
            vocab = max(tokens.vocab_size(), 1)
            for a, b in steps:
                if _workers.cancelled():
                    return -1
                if a == b:
                    continue
                # A step's sequences and tokens are contiguous (a text's
                # sentences, then the sequence spanning them).
                part = spans[bounds[a] - t0:bounds[b] - t0]
                s0, s1 = int(part[0, 0]), int(part[-1, 2]) + 1
                first_token, end_token = int(starts[s0]), int(ends_[s1 - 1])
                corpus = kernel.Corpus(tokens=tok[first_token:end_token],
                                       seq_start=starts[s0:s1] - first_token,
                                       seq_end=ends_[s0:s1] - first_token,
                                       doc_ngram=(part[:, 2] - s0).astype(np.int32),
                                       doc_sent_lo=(part[:, 0] - s0).astype(np.int32),
                                       doc_sent_hi=(part[:, 1] - s0).astype(np.int32),
                                       vocab=vocab)
                local = np.asarray(bounds[a:b + 1], dtype=np.int64) - bounds[a]
                is_peer = np.zeros(int(local[-1]), dtype=bool)
                is_peer[local[:-1]] = True
                docs = np.arange(int(local[-1]), dtype=np.int32)
                peers, models = docs[is_peer], docs[~is_peer]
                model_off = np.concatenate(([0], np.cumsum(np.diff(local) - 1))).astype(np.int64)
                jobs = kernel.Jobs(peer_seq=peers, peer_bag=peers, model_off=model_off,
                                   model_seq=models, model_bag=models)
                # Each measure's values go straight to their instances' rows.
                at = position[a:b]
                for m, (out, bad) in enumerate(_score_measures(kernel, self.measures, corpus,
                                                               jobs, params)):
                    if bad >= 0:
                        return bounds[a] + int(models[bad])
                    ordered[m][at] = out
                    if resampled is not None:
                        resampled[at, 3 * m:3 * m + 3] = self._resampled(out)
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
        # A copy of every token (a second on a large corpus): on a worker,
        # left to end by itself on Ctrl-C (the corpus is this run's alone).
        kernel_corpus = _workers.call(corpus.kernel_corpus, detach=True)
        kernel = _backend.rouge155_counts
        params = self._kernel_params()
        # Each distinct measure of each jobs (a system's evaluations; under
        # -M, one measure's), and the measures of each jobs together (a
        # system's ROUGE-1 to N share one kernel call).
        calls: Dict[tuple, tuple] = {}
        groups: Dict[int, tuple] = {}
        for *_, per_measure in plans:
            for measure, jobs in per_measure:
                key = (id(jobs), measure.kind, measure.n, measure.unigrams)
                if key not in calls:
                    calls[key] = (measure, jobs)
                    group = groups.setdefault(id(jobs), (jobs, [], []))
                    group[1].append(key)
                    group[2].append(measure)
        # The evaluations of each jobs in chunks of about ITEM_NS, at least
        # one a thread; the kernel calls release the GIL, so they run
        # on all cores. (A small corpus: one call per jobs, here.)
        whole = len(corpus.doc_ngram) < THREAD_MIN_DOCS
        items = []
        for jobs, keys, measures in groups.values():
            kernel_jobs = jobs.kernel_jobs()
            n = len(kernel_jobs)
            cuts = [0, n] if whole or not n else self._evaluation_cuts(
                kernel_corpus, kernel_jobs, self.threads)
            items += [(kernel_jobs, keys, measures, e0, e1) for e0, e1 in zip(cuts, cuts[1:])]

        def score(item):
            kernel_jobs, _, measures, e0, e1 = item
            if e0 == 0 and e1 == len(kernel_jobs):
                return _score_measures(kernel, measures, kernel_corpus, kernel_jobs, params)
            chunk_corpus, chunk_jobs = sub_run(kernel_corpus, kernel_jobs, e0, e1)
            return _score_measures(kernel, measures, chunk_corpus, chunk_jobs, params)

        parts: Dict[tuple, list] = {}
        bad_model: Dict[tuple, int] = {}
        for (kernel_jobs, keys, _, e0, _), done in zip(items, self._map(
                score, items, len(corpus.doc_ngram))):
            for key, (values, bad) in zip(keys, done):
                parts.setdefault(key, []).append(values)
                if bad >= 0:                  # a model index of the chunk's
                    bad_model.setdefault(key, int(kernel_jobs.model_off[e0]) + bad)
        for key in calls:
            if key in bad_model:
                empty = int(calls[key][1].model_seq[bad_model[key]])
                raise ValueError(
                    "ROUGE-W: model summary %s has no tokens; the script dies here "
                    "(Illegal division by zero)" % display(corpus.doc_source[empty]))
        outputs = {key: values[0] if len(values) == 1 else np.concatenate(values)
                   for key, values in parts.items()}
        return self._results([
            (peer, ids, sorted(range(len(keys)), key=keys.__getitem__),
             [(m, outputs[(id(jobs), m.kind, m.n, m.unigrams)]) for m, jobs in per_measure])
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


def _score_measures(kernel, measures, corpus, jobs, params) -> list:
    """``score_evals`` of each measure on the same ``Corpus`` and ``Jobs``,
    an ``Evals`` (values, bad) each; ROUGE-1 to N (when the measures hold all
    of them) in one call."""
    ngram_orders = [m.n for m in measures if m.kind == "N"]
    together = None
    if len(ngram_orders) > 1 and sorted(ngram_orders) == list(range(1, len(ngram_orders) + 1)) \
            and len(ngram_orders) <= 64:
        together = kernel.score_evals("N", corpus, jobs, n=len(ngram_orders), all_n=True,
                                      **params).values
    return [kernel.Evals(together[m.n - 1], -1) if m.kind == "N" and together is not None else
            kernel.score_evals(m.kind, corpus, jobs, n=m.n, skip_unigrams=m.unigrams, **params)
            for m in measures]


def _slower() -> Dict[str, float]:
    """How many times the compiled kernels' time the backend's take."""
    return PURE_SLOWER if _backend.NAME == "pure" else _SAME


_SAME = dict.fromkeys(PURE_SLOWER, 1.0)


def _lengths(texts: List[Text]) -> np.ndarray:
    """``len`` of each text (float64), 65,536 at a time (a Ctrl-C can
    land between them)."""
    return np.concatenate([np.fromiter(map(len, texts[i:i + 65536]), dtype=np.float64,
                                       count=min(65536, len(texts) - i))
                           for i in range(0, len(texts), 65536)] or [np.zeros(0)])


def sub_run(corpus, jobs, e0: int, e1: int):
    """The kernel's ``(Corpus, Jobs)`` of evaluations ``e0`` to ``e1 - 1``
    of ``jobs`` on ``corpus`` alone, for ``score_evals``: their documents'
    sequences and tokens copied into arrays of their own, documents
    renumbered (the kernel reads only these). A document's sentences stay
    contiguous, and its n-gram sequence spans them exactly when it did (the
    kernel's fast ROUGE-L path depends on it); other n-gram sequences
    (``-b``) get their own copy. The token ids and the vocabulary size stay
    the same."""
    tokens, starts, ends = corpus.tokens, corpus.seq_start, corpus.seq_end
    doc_ngram, sent_lo, sent_hi = corpus.doc_ngram, corpus.doc_sent_lo, corpus.doc_sent_hi
    peer_seq, peer_bag, model_off = jobs.peer_seq, jobs.peer_bag, jobs.model_off
    model_seq, model_bag = jobs.model_seq, jobs.model_bag
    m0, m1 = int(model_off[e0]), int(model_off[e1])
    used = np.unique(np.concatenate((peer_seq[e0:e1], peer_bag[e0:e1],
                                     model_seq[m0:m1], model_bag[m0:m1])))
    lo = sent_lo[used].astype(np.int64)
    nsent = sent_hi[used].astype(np.int64) - lo
    gram = doc_ngram[used].astype(np.int64)
    top = len(starts) - 1             # (lo of a document without sentences may be past it)
    spans = np.where(nsent > 0, (starts[gram] == starts[np.minimum(lo, top)])
                     & (ends[gram] == ends[np.clip(lo + nsent - 1, 0, top)]),
                     ends[gram] == starts[gram])
    # The new sequences, document by document: its sentences, then its
    # n-gram sequence (old index ``old``; ``copied`` tokens of its own).
    count = nsent + 1
    first = np.cumsum(count) - count
    within = np.arange(int(count.sum()), dtype=np.int64) - np.repeat(first, count)
    old = np.repeat(lo, count) + within
    gram_at = first + nsent
    old[gram_at] = gram
    copied = ends[old] - starts[old]
    copied[gram_at[spans]] = 0
    new_start = np.cumsum(copied) - copied
    new_end = new_start + copied
    sentence_tokens = new_end[np.maximum(gram_at - 1, 0)] - new_start[first]
    new_start[gram_at[spans]] = new_start[first[spans]]
    new_end[gram_at[spans]] = new_start[first[spans]] + np.where(
        nsent[spans] > 0, sentence_tokens[spans], 0)
    take = np.repeat(starts[old] - (np.cumsum(copied) - copied), copied) + \
        np.arange(int(copied.sum()), dtype=np.int64)
    kernel = _backend.rouge155_counts
    chunk_corpus = kernel.Corpus(tokens=tokens[take], seq_start=new_start, seq_end=new_end,
                                 doc_ngram=gram_at.astype(np.int32),
                                 doc_sent_lo=first.astype(np.int32),
                                 doc_sent_hi=gram_at.astype(np.int32), vocab=corpus.vocab)

    def doc(a):
        return np.searchsorted(used, a).astype(np.int32)

    chunk_jobs = kernel.Jobs(peer_seq=doc(peer_seq[e0:e1]), peer_bag=doc(peer_bag[e0:e1]),
                             model_off=model_off[e0:e1 + 1] - m0,
                             model_seq=doc(model_seq[m0:m1]), model_bag=doc(model_bag[m0:m1]))
    return chunk_corpus, chunk_jobs


def _printed(x) -> float:
    """A value as the script prints it (``%7.5f``), back as a float."""
    return float("%.5f" % x)
