"""Per-evaluation counts of ROUGE-1.5.5.pl's measures on token ids: the pure
twin of ``_rouge155_counts`` and its specification. ``score_evals`` counts
and scores one measure (ROUGE-N, S/SU, L or W) for many evaluations, each
one peer against its models, exactly as the script's ``computeNGramScore``,
``computeSkipBigramScore``, ``computeLCSScore`` and ``computeWLCSScore`` do.

Its typed interface:

``Corpus(tokens, seq_start, seq_end, doc_ngram, doc_sent_lo, doc_sent_hi, vocab)``
    The token ids of a run (``TokenCorpus.arrays()`` gives the first three):
    sequence ``s`` is ``tokens[seq_start[s]:seq_end[s]]``; document ``d``
    has the n-gram reader's tokens in sequence ``doc_ngram[d]`` and the LCS
    reader's sentences in sequences ``doc_sent_lo[d]`` to
    ``doc_sent_hi[d] - 1``. Token ids are dense (``0 <= id < vocab``) and
    equal ids are equal token strings.

``Jobs(peer_seq, peer_bag, model_off, model_seq, model_bag)``
    The evaluations: evaluation ``e`` compares document ``peer_seq[e]`` with
    the documents ``model_seq[k]`` for ``model_off[e] <= k < model_off[e +
    1]``; for L and W the unigram bags that clip the hits are the n-gram
    tokens of ``peer_bag[e]`` and ``model_bag[k]`` (other documents than the
    sequences' when the script stems models only, ``-M``).

``Evals(values, bad)``
    What ``score_evals`` returns.

A ``Corpus`` and a ``Jobs`` check every index when they are made
(``checked_corpus``, ``checked_jobs``: the compiled kernel checks its own
copies by the same rules in C, and calls these for any other input and for
the errors, then reads the arrays in C without bounds checks), copy their
arrays and hold them read-only (backed by ``bytes``: they cannot be made
writeable again), so they can be shared by threads and used for many calls.
``score_evals`` checks that the jobs' documents are in the corpus.
"""
import math
import operator
from collections import Counter
from typing import NamedTuple

import numpy as np

from rougekit._core._ids_py import ID_LIMIT
from rougekit._core._rouge155_lcs_py import hits_of
from rougekit._core._rouge155_numbers_py import f_measure, round5

__all__ = ["Corpus", "Jobs", "Evals", "score_evals", "round5", "METRICS", "checked_corpus",
           "checked_jobs", "check_documents"]

METRICS = ("N", "S", "L", "W")



class Evals(NamedTuple):
    """What ``score_evals`` returns. ``values[e]`` is ``(model count, hits,
    peer count, R, P, F)`` of evaluation e, R, P and F rounded as the script
    prints them (with ``all_n``: ``values[k - 1]`` is that of ROUGE-k, k = 1
    .. n). ``bad`` is -1, or for W the first job model index ``k`` whose
    model has no tokens (the script dies there with "Illegal division by
    zero")."""

    values: np.ndarray
    bad: int


# ---------------------------------------------------------------------------
# The typed interface: Corpus and Jobs, checked once
# ---------------------------------------------------------------------------

class CorpusArrays(NamedTuple):
    """A corpus's arrays, checked and read-only (``checked_corpus``)."""

    tokens: np.ndarray          # int32
    seq_start: np.ndarray       # int64
    seq_end: np.ndarray         # int64
    doc_ngram: np.ndarray       # int32
    doc_sent_lo: np.ndarray     # int32
    doc_sent_hi: np.ndarray     # int32
    vocab: int
    longest: int                # the most tokens of a sequence


class JobArrays(NamedTuple):
    """Jobs' arrays, checked and read-only (``checked_jobs``)."""

    peer_seq: np.ndarray        # int32
    peer_bag: np.ndarray        # int32
    model_off: np.ndarray       # int64
    model_seq: np.ndarray       # int32
    model_bag: np.ndarray       # int32
    documents: int              # one more than the largest document index


def _ints(values, name, wide=False):
    """``values`` as a 1-d array of ints (of its own int dtype: no copy;
    ``wide``: as int64); anything else is a TypeError or ValueError."""
    a = np.asarray(values)
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-d, not {a.ndim}-d")
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold ints, not {a.dtype}")
    return a.astype(np.int64, copy=False) if wide else a


def _frozen(a, dtype):
    """A read-only copy of ``a`` (checked to fit) as ``dtype``, backed by an
    immutable bytes."""
    return np.frombuffer(a.astype(dtype, copy=False).tobytes(), dtype=dtype)


def _first(bad):
    """The index of the first True of ``bad``, or -1."""
    where = np.flatnonzero(bad)
    return int(where[0]) if where.size else -1


def _check_range(a, bound, name):
    """ValueError naming the first entry of ``a`` outside [0, bound)."""
    if not len(a) or (a.min() >= 0 and a.max() < bound):
        return
    i = _first((a < 0) | (a >= bound))
    raise ValueError(f"{name}[{i}] = {a[i]} is outside [0, {bound})")


def checked_corpus(tokens, seq_start, seq_end, doc_ngram, doc_sent_lo, doc_sent_hi,
                   vocab) -> CorpusArrays:
    """The arguments of ``Corpus``, every index checked (a ValueError naming
    the first that is out of range), as read-only arrays."""
    vocab = operator.index(vocab)
    if not 1 <= vocab <= ID_LIMIT:
        raise ValueError(f"vocab must be in [1, 2**31), got {vocab}")
    tok = _ints(tokens, "tokens")
    _check_range(tok, vocab, "tokens")
    start, end = _ints(seq_start, "seq_start", True), _ints(seq_end, "seq_end", True)
    ngram = _ints(doc_ngram, "doc_ngram")
    lo, hi = _ints(doc_sent_lo, "doc_sent_lo"), _ints(doc_sent_hi, "doc_sent_hi")
    if len(end) != len(start) or len(lo) != len(ngram) or len(hi) != len(ngram):
        raise ValueError("corpus arrays of different lengths")
    ntok, nseq = len(tok), len(start)
    if nseq > ID_LIMIT or len(ngram) > ID_LIMIT:
        raise ValueError("too many sequences or documents (at most 2**31 - 1)")
    i = _first((start < 0) | (start > end) | (end > ntok))
    if i >= 0:
        raise ValueError(f"sequence {i} = [{start[i]}, {end[i]}) is outside the tokens")
    _check_range(ngram, nseq, "doc_ngram")
    i = _first((lo < 0) | (lo > hi) | (hi > nseq))
    if i >= 0:
        raise ValueError(f"document {i}'s sentences [{lo[i]}, {hi[i]}) are outside "
                         "the sequences")
    longest = int((end - start).max()) if nseq else 0
    return CorpusArrays(_frozen(tok, np.int32), _frozen(start, np.int64),
                        _frozen(end, np.int64), _frozen(ngram, np.int32),
                        _frozen(lo, np.int32), _frozen(hi, np.int32), vocab, longest)


def checked_jobs(peer_seq, peer_bag, model_off, model_seq, model_bag) -> JobArrays:
    """The arguments of ``Jobs``, checked (lengths, no negative document,
    ``model_off`` running from 0 to the number of models without
    decreasing), as read-only arrays."""
    peer_seq, peer_bag = _ints(peer_seq, "peer_seq"), _ints(peer_bag, "peer_bag")
    model_off = _ints(model_off, "model_off", True)
    model_seq, model_bag = _ints(model_seq, "model_seq"), _ints(model_bag, "model_bag")
    n_evals = len(peer_seq)
    if (len(peer_bag) != n_evals or len(model_off) != n_evals + 1
            or len(model_bag) != len(model_seq)):
        raise ValueError("job arrays of different lengths")
    top = 0
    for name, a in (("peer_seq", peer_seq), ("peer_bag", peer_bag),
                    ("model_seq", model_seq), ("model_bag", model_bag)):
        if len(a) and not (a.min() >= 0 and a.max() < ID_LIMIT):
            i = _first((a < 0) | (a >= ID_LIMIT))
            raise ValueError(f"{name}[{i}] = {a[i]} is outside [0, 2**31 - 1)")
        if len(a):
            top = max(top, int(a.max()) + 1)
    if model_off[0] != 0 or model_off[n_evals] != len(model_seq):
        raise ValueError("model_off must run from 0 to the number of models")
    if n_evals and (np.diff(model_off) < 0).any():
        raise ValueError("model_off must not decrease")
    return JobArrays(_frozen(peer_seq, np.int32), _frozen(peer_bag, np.int32),
                     _frozen(model_off, np.int64), _frozen(model_seq, np.int32),
                     _frozen(model_bag, np.int32), top)


def check_documents(jobs, documents: int) -> None:
    """ValueError naming the first document of ``jobs`` that is not one of
    a corpus's ``documents``."""
    for name in ("peer_seq", "peer_bag", "model_seq", "model_bag"):
        _check_range(getattr(jobs, name), documents, name)


class Corpus:
    """The token ids of a run's documents, checked and read-only (module
    docstring): ``Corpus(tokens, seq_start, seq_end, doc_ngram,
    doc_sent_lo, doc_sent_hi, vocab)``.

    >>> c = Corpus([0, 1, 1], [0, 0], [3, 3], [1], [0], [1], vocab=2)
    >>> c.documents, c.sequences, c.vocab, c.tokens.flags.writeable
    (1, 2, 2, False)
    """

    __slots__ = ("tokens", "seq_start", "seq_end", "doc_ngram", "doc_sent_lo", "doc_sent_hi",
                 "vocab", "_lists")

    def __init__(self, tokens, seq_start, seq_end, doc_ngram, doc_sent_lo, doc_sent_hi,
                 vocab):
        arrays = checked_corpus(tokens, seq_start, seq_end, doc_ngram, doc_sent_lo,
                                doc_sent_hi, vocab)
        (self.tokens, self.seq_start, self.seq_end, self.doc_ngram, self.doc_sent_lo,
         self.doc_sent_hi, self.vocab, _) = arrays
        self._lists = None

    @property
    def documents(self) -> int:
        """How many documents."""
        return len(self.doc_ngram)

    @property
    def sequences(self) -> int:
        """How many sequences."""
        return len(self.seq_start)

    def _as_lists(self):
        """The arrays as Python lists (fast to index from Python), made once."""
        if self._lists is None:
            self._lists = _Lists(self)
        return self._lists


class Jobs:
    """The evaluations of one ``score_evals`` call, checked and read-only
    (module docstring): ``Jobs(peer_seq, peer_bag, model_off, model_seq,
    model_bag)``; ``len(jobs)`` is the number of evaluations.

    >>> jobs = Jobs([0], [0], [0, 2], [1, 2], [1, 2])
    >>> len(jobs), jobs.models, jobs.documents
    (1, 2, 3)
    """

    __slots__ = ("peer_seq", "peer_bag", "model_off", "model_seq", "model_bag", "documents")

    def __init__(self, peer_seq, peer_bag, model_off, model_seq, model_bag):
        (self.peer_seq, self.peer_bag, self.model_off, self.model_seq, self.model_bag,
         self.documents) = checked_jobs(peer_seq, peer_bag, model_off, model_seq, model_bag)

    def __len__(self) -> int:
        return len(self.peer_seq)

    @property
    def models(self) -> int:
        """How many (evaluation, model) pairs."""
        return len(self.model_seq)


class _Lists:
    """A corpus's arrays as Python lists."""

    def __init__(self, corpus):
        self.tokens = corpus.tokens.tolist()
        self.seq_start = corpus.seq_start.tolist()
        self.seq_end = corpus.seq_end.tolist()
        self.doc_ngram = corpus.doc_ngram.tolist()
        self.sent_lo = corpus.doc_sent_lo.tolist()
        self.sent_hi = corpus.doc_sent_hi.tolist()

    def seq(self, s):
        return self.tokens[self.seq_start[s]:self.seq_end[s]]

    def ngram_tokens(self, d):
        return self.seq(self.doc_ngram[d])

    def sentences(self, d):
        return [self.seq(s) for s in range(self.sent_lo[d], self.sent_hi[d])]


# ---------------------------------------------------------------------------
# Counting
# ---------------------------------------------------------------------------

def _ngrams(tokens, n):
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def _skip_bigrams(tokens, skip_distance, unigrams):
    """The script's createSkipBigram: pairs (t_i, t_j), i < j <= i + D + 1
    (any j when D < 0), and with ``unigrams`` each t_i but the last."""
    grams: Counter = Counter()
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            grams[(tokens[i],)] += 1
        top = i + skip_distance + 1           # the script's $j <= $i + $skipDistance + 1
        hi = last if skip_distance < 0 or top >= last else math.floor(top)
        for j in range(i + 1, hi + 1):
            grams[(tokens[i], tokens[j])] += 1
    return grams


def _clipped(model, peer):
    return sum(min(c, peer[g]) for g, c in model.items() if g in peer)



def score_evals(metric, corpus, jobs, *, n=1, skip_distance=-1.0, skip_unigrams=False,
                weight=1.0, best_model=False, alpha=0.5, all_n=False):
    """Counts and scores of one measure for every evaluation of ``jobs``
    (a ``Jobs``) on ``corpus`` (a ``Corpus``): an ``Evals``.

    ``metric`` is "N" (``n``), "S" (``skip_distance``, < 0 for no limit;
    ``skip_unigrams`` for SU), "L" or "W" (``weight``). ``best_model`` is
    ``-f B`` (the model of highest recall), else ``-f A`` (counts pooled over
    the models); ``alpha`` is ``-p``. With ``all_n`` (for "N" and ``n`` <=
    64), ROUGE-1 to ROUGE-n are computed together.
    """
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    if metric == "N" and n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if metric == "W" and not weight > 0:
        raise ValueError(f"weight must be > 0, got {float(weight)}")
    if metric == "S" and math.isnan(skip_distance):
        raise ValueError("skip_distance must be a number, got nan")
    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a Corpus, not {type(corpus).__name__}")
    if not isinstance(jobs, Jobs):
        raise TypeError(f"jobs must be a Jobs, not {type(jobs).__name__}")
    if jobs.documents > corpus.documents:
        check_documents(jobs, corpus.documents)
    c = corpus._as_lists()
    job_lists = [a.tolist() for a in (jobs.peer_seq, jobs.peer_bag, jobs.model_off,
                                      jobs.model_seq, jobs.model_bag)]
    if all_n:
        if metric != "N" or n > 64:
            raise ValueError("all_n is for metric 'N' with n <= 64")
        return Evals(np.stack([_evals("N", c, job_lists, k, skip_distance, skip_unigrams,
                                      weight, best_model, alpha).values
                               for k in range(1, n + 1)]), -1)
    return _evals(metric, c, job_lists, n, skip_distance, skip_unigrams, weight,
                  best_model, alpha)


def _evals(metric, c, job_lists, n, skip_distance, skip_unigrams, weight, best_model, alpha):
    """score_evals on checked arguments."""
    peer_seq, peer_bag, model_off, model_seq, model_bag = job_lists
    n_evals = len(peer_seq)
    out = np.zeros((n_evals, 6), dtype=np.float64)
    w = float(weight)
    for e in range(n_evals):
        p = peer_seq[e]
        if metric == "N":
            peer_grams = _ngrams(c.ngram_tokens(p), n)
        elif metric == "S":
            peer_grams = _skip_bigrams(c.ngram_tokens(p), skip_distance, skip_unigrams)
        else:
            peer_sents = c.sentences(p)
            peer_counts = Counter(c.ngram_tokens(peer_bag[e]))
            peer_total = len(c.ngram_tokens(peer_bag[e]))
        total_hit = total_m = total_p = 0
        best = -1.0
        for k in range(model_off[e], model_off[e + 1]):
            md = model_seq[k]
            if metric in ("N", "S"):
                grams = (_ngrams(c.ngram_tokens(md), n) if metric == "N" else
                         _skip_bigrams(c.ngram_tokens(md), skip_distance, skip_unigrams))
                hit = _clipped(grams, peer_grams)
                mc = sum(grams.values())
                pc = sum(peer_grams.values())
                # ngramScore: the per-model recall, as the string "%07.5f"
                score = round5(hit / mc) if mc else 0.0
            else:
                bag = Counter(c.ngram_tokens(model_bag[k]))
                hit, base = hits_of(c.sentences(md), peer_sents, bag, Counter(peer_counts),
                                    w if metric == "W" else None)
                if metric == "L":
                    mc, pc = base, peer_total
                    score = hit / base if base > 0 else 0.0
                else:
                    if base == 0:
                        return Evals(out, k)
                    score = (hit / base) ** (1 / w)
                    mc, pc = base ** w, float(peer_total) ** w
            if best_model:
                if score > best:
                    best = score
                    total_hit, total_m, total_p = hit, mc, pc
            else:
                total_hit += hit
                total_m += mc
                total_p += pc
        if metric == "W":
            r = round5((total_hit / total_m) ** (1 / w)) if total_m != 0 else 0.0
            pr = round5((total_hit / total_p) ** (1 / w)) if total_p != 0 else 0.0
        else:
            r = round5(total_hit / total_m) if total_m != 0 else 0.0
            pr = round5(total_hit / total_p) if total_p != 0 else 0.0
        out[e] = (total_m, total_hit, total_p, r, pr, f_measure(pr, r, alpha))
    return Evals(out, -1)
