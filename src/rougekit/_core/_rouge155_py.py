"""Pure-Python twin of ``_rouge155``: the counting, stemming and bootstrap of
ROUGE-1.5.5.pl on token ids.

Both modules expose the same three functions with the same results:

``porter_stem(word)``
    The script's Porter stemmer (its ``stem`` subroutine), written here with
    the script's own regular expressions, so this module reads as its
    specification. It differs from NLTK's Porter: ``y`` rules by regular
    expression, ``bli -> ble`` and ``logi -> log`` in step 2, and step 4 as
    three successive tests, so ``agreement -> agreem``.

``score_evals(metric, corpus, jobs, ...)``
    The per-evaluation counts and scores of one measure (ROUGE-N, S/SU, L or
    W) for many evaluations, each one peer against its models, exactly as
    the script's ``computeNGramScore``, ``computeSkipBigramScore``,
    ``computeLCSScore`` and ``computeWLCSScore`` compute them.

``bootstrap(values, resamples, confidence, ...)``
    The printed averages and confidence bounds of the script's
    ``computeAverages``: its bootstrap with Perl's ``drand48`` seeded with
    ``srand(0)``, ``srand(1)``, ... (the printed average is the mean of the
    resample means, not the plain mean).

``TokenCorpus``
    The token ids of every summary of a run, one sequence per sentence:
    the script's tokens (runs of ASCII letters and digits, lowercased), each
    raw token mapped once to its final id (stopwords dropped, stems).

The token corpus and the jobs are numpy arrays (see ``score_evals``); token
ids are dense (``0 <= id < vocab``) and equal ids are equal token strings.
"""
import math
import re
from array import array
from collections import Counter

import numpy as np

__all__ = ["porter_stem", "score_evals", "bootstrap", "resample_means", "summarize_resamples",
           "round5", "raw_tokens", "TokenCorpus", "METRICS"]

METRICS = ("N", "S", "L", "W")

# ---------------------------------------------------------------------------
# The script's Porter stemmer (ROUGE-1.5.5.pl, subroutines stem and initialise)
# ---------------------------------------------------------------------------

_c = "[^aeiou]"             # consonant
_v = "[aeiouy]"             # vowel
_C = _c + "[^aeiouy]*"      # consonant sequence
_V = _v + "[aeiou]*"        # vowel sequence
_MGR0 = re.compile("^(" + _C + ")?" + _V + _C)                      # m > 0
_MEQ1 = re.compile("^(" + _C + ")?" + _V + _C + "(" + _V + ")?$")   # m = 1
_MGR1 = re.compile("^(" + _C + ")?" + _V + _C + _V + _C)            # m > 1
_HAS_V = re.compile("^(" + _C + ")?" + _v)                           # vowel in stem
_CVC = re.compile("^" + _C + _v + "[^aeiouwxy]$")

_STEP1A = re.compile("(ss|i)es$")
_STEP1A_S = re.compile("([^s])s$")
_EED = re.compile("eed$")
_ED_ING = re.compile("(ed|ing)$")
_AT_BL_IZ = re.compile("(at|bl|iz)$")
_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_Y = re.compile("y$")
_STEP2 = re.compile("(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|"
                    "ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$")
_STEP2_LIST = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
    "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
    "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log"}
_STEP3 = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP3_LIST = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic",
               "ful": "", "ness": ""}
# Step 4 is three tests in a row (the script's 2004 change: a word ending in
# -ement is not tried against -ment and -ent first), each on the result of the
# one before.
_STEP4 = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_MENT = re.compile("ment$")
_ENT = re.compile("ent$")
_ION = re.compile("(s|t)(ion)$")
_E = re.compile("e$")
_LL = re.compile("ll$")


def porter_stem(word: str) -> str:
    """The script's Porter stemmer, for a lowercase word.

    >>> [porter_stem(w) for w in ("agreement", "apology", "biology", "running")]
    ['agreem', 'apolog', 'biologi', 'run']
    """
    w = word
    if len(w) < 3:
        return w
    initial_y = w[0] == "y"
    if initial_y:                       # an initial y is a consonant
        w = "Y" + w[1:]
    # Step 1a
    m = _STEP1A.search(w)
    if m:
        w = w[:m.start()] + m.group(1)
    else:
        m = _STEP1A_S.search(w)
        if m:
            w = w[:m.start()] + m.group(1)
    # Step 1b
    m = _EED.search(w)
    if m:
        if _MGR0.search(w[:m.start()]):
            w = w[:-1]
    else:
        m = _ED_ING.search(w)
        if m:
            stem = w[:m.start()]
            if _HAS_V.search(stem):
                w = stem
                if _AT_BL_IZ.search(w):
                    w += "e"
                elif _DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"
    # Step 1c
    m = _Y.search(w)
    if m:
        stem = w[:m.start()]
        if _HAS_V.search(stem):
            w = stem + "i"
    # Step 2
    m = _STEP2.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2_LIST[m.group(1)]
    # Step 3
    m = _STEP3.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3_LIST[m.group(1)]
    # Step 4
    m = _STEP4.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _MENT.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _ENT.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    else:
        m = _ION.search(w)
        if m:
            stem = w[:m.start()] + m.group(1)
            if _MGR1.search(stem):
                w = stem
    # Step 5
    m = _E.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if _LL.search(w) and _MGR1.search(w):
        w = w[:-1]
    if initial_y:
        w = "y" + w[1:]
    return w


# ---------------------------------------------------------------------------
# Per-evaluation counting
# ---------------------------------------------------------------------------

def round5(x: float) -> float:
    """``x`` through the script's ``sprintf("%7.5f", x)`` and back to a number.

    >>> round5(2 / 3)
    0.66667
    """
    return float("%.5f" % x)


def f_measure(p: float, r: float, alpha: float) -> float:
    """The script's F of the rounded P and R: P*R / ((1-alpha)*P + alpha*R),
    0 when the denominator is not positive; itself rounded."""
    d = (1 - alpha) * p + alpha * r
    return round5((p * r) / d) if d > 0 else 0.0


class _Corpus:
    """The token arrays as Python lists (fast to index from Python)."""

    def __init__(self, corpus):
        tokens, seq_start, seq_end, doc_ngram, doc_sent_lo, doc_sent_hi, vocab = corpus
        self.vocab = vocab
        self.tokens = np.asarray(tokens).tolist()
        self.seq_start = np.asarray(seq_start).tolist()
        self.seq_end = np.asarray(seq_end).tolist()
        self.doc_ngram = np.asarray(doc_ngram).tolist()
        self.sent_lo = np.asarray(doc_sent_lo).tolist()
        self.sent_hi = np.asarray(doc_sent_hi).tolist()

    def seq(self, s):
        return self.tokens[self.seq_start[s]:self.seq_end[s]]

    def ngram_tokens(self, d):
        return self.seq(self.doc_ngram[d])

    def sentences(self, d):
        return [self.seq(s) for s in range(self.sent_lo[d], self.sent_hi[d])]


def _check_range(values, bound, name):
    """ValueError naming the first of ``values`` outside [0, bound)."""
    if values and (min(values) < 0 or max(values) >= bound):
        i = next(i for i, x in enumerate(values) if not 0 <= x < bound)
        raise ValueError(f"{name}[{i}] = {values[i]} is outside [0, {bound})")


def _check_indexes(c, peer_seq, peer_bag, model_off, model_seq, model_bag):
    """Every index of the corpus and the jobs in range, or a ValueError
    naming the first that is not (the script's own arrays cannot hold one;
    the compiled kernel reads them without bounds checks)."""
    if not 1 <= c.vocab <= 0x7FFFFFFF:
        raise ValueError(f"vocab must be in [1, 2**31), got {c.vocab}")
    _check_range(c.tokens, c.vocab, "tokens")
    ntok, nseq, ndoc = len(c.tokens), len(c.seq_start), len(c.doc_ngram)
    if len(c.seq_end) != nseq or len(c.sent_lo) != ndoc or len(c.sent_hi) != ndoc:
        raise ValueError("corpus arrays of different lengths")
    for i, (start, end) in enumerate(zip(c.seq_start, c.seq_end)):
        if not 0 <= start <= end <= ntok:
            raise ValueError(f"sequence {i} = [{start}, {end}) is outside the tokens")
    _check_range(c.doc_ngram, nseq, "doc_ngram")
    for i, (lo, hi) in enumerate(zip(c.sent_lo, c.sent_hi)):
        if not 0 <= lo <= hi <= nseq:
            raise ValueError(f"document {i}'s sentences [{lo}, {hi}) are outside the sequences")
    n_evals = len(peer_seq)
    if (len(peer_bag) != n_evals or len(model_off) != n_evals + 1
            or len(model_bag) != len(model_seq)):
        raise ValueError("job arrays of different lengths")
    for name, values in (("peer_seq", peer_seq), ("peer_bag", peer_bag),
                         ("model_seq", model_seq), ("model_bag", model_bag)):
        _check_range(values, ndoc, name)
    if model_off[0] != 0 or model_off[n_evals] != len(model_seq):
        raise ValueError("model_off must run from 0 to the number of models")
    if any(a > b for a, b in zip(model_off, model_off[1:])):
        raise ValueError("model_off must not decrease")


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


def _mark_lcs(model_sent, peer_sent, marks):
    """The script's lcs_inner + markLCS: the LCS walk of rouge-score (take a
    match; move left only when the left cell is strictly greater than the
    cell above; else up), which the bit-parallel kernel reproduces."""
    from rougekit._core import _lcs_py
    _lcs_py._mark_lcs(model_sent, peer_sent, marks)


def _mark_wlcs(model_sent, peer_sent, marks, f):
    """The script's wlcs_inner + markLCS: a weighted-LCS table of floats, a
    diagonal step adding f(k+1) - f(k) for a run of k matches, ties broken as
    in lcs_inner (up when the cell above is >= the cell to the left)."""
    m, n = len(model_sent), len(peer_sent)
    if m == 0:
        return
    up, left, diag = 1, 2, 3
    c_prev = [0.0] * (n + 1)
    l_prev = [0] * (n + 1)
    dirs = []
    for i in range(1, m + 1):
        c_cur = [0.0] * (n + 1)
        l_cur = [0] * (n + 1)
        row = bytearray(n + 1)
        t = model_sent[i - 1]
        for j in range(1, n + 1):
            if t == peer_sent[j - 1]:
                k = l_prev[j - 1]
                c_cur[j] = c_prev[j - 1] + f(k + 1) - f(k)
                row[j] = diag
                l_cur[j] = k + 1
            elif c_prev[j] >= c_cur[j - 1]:
                c_cur[j] = c_prev[j]
                row[j] = up
            else:
                c_cur[j] = c_cur[j - 1]
                row[j] = left
        dirs.append(row)
        c_prev, l_prev = c_cur, l_cur
    i, j = m, n
    while i and j:
        d = dirs[i - 1][j]
        if d == diag:
            i -= 1
            j -= 1
            marks[i] = True
        elif d == up:
            i -= 1
        else:
            j -= 1


def _lcs_hits(model_sents, peer_sents, model_bag, peer_bag, weight):
    """The script's lcs (weight None) or wlcs: (hit, base) of one model.

    Per model sentence, the union of its LCS with every peer sentence; each
    marked token counts while its count is positive in both bags (which are
    decremented and persist across the model's sentences). ROUGE-W adds
    f(run) for each run of counted tokens ended by an unmarked position or
    the sentence end, and its base is the sum of f(sentence length).
    """
    f = (lambda k: float(k) ** weight) if weight is not None else None
    hit = 0 if weight is None else 0.0
    base = 0 if weight is None else 0.0
    for sent in model_sents:
        size = len(sent)
        marks = [False] * size
        base += size if f is None else f(size)
        for ps in peer_sents:
            if f is None:
                _mark_lcs(sent, ps, marks)
            else:
                _mark_wlcs(sent, ps, marks, f)
        run = 0
        for j, t in enumerate(sent):
            if marks[j] and model_bag.get(t, 0) > 0 and peer_bag.get(t, 0) > 0:
                if f is None:
                    hit += 1
                else:
                    run += 1
                    if (j + 1 < size and not marks[j + 1]) or j + 1 == size:
                        hit += f(run)
                        run = 0
                model_bag[t] -= 1
                peer_bag[t] -= 1
    return hit, base


def score_evals(metric, corpus, jobs, *, n=1, skip_distance=-1.0, skip_unigrams=False,
                weight=1.0, best_model=False, alpha=0.5, all_n=False):
    """Counts and scores of one measure for every evaluation of ``jobs``.

    ``corpus`` is ``(tokens, seq_start, seq_end, doc_ngram, doc_sent_lo,
    doc_sent_hi, vocab)``: sequence ``s`` is
    ``tokens[seq_start[s]:seq_end[s]]``;
    document ``d`` has the n-gram reader's tokens in sequence
    ``doc_ngram[d]`` and the LCS reader's sentences in sequences
    ``doc_sent_lo[d]`` to ``doc_sent_hi[d] - 1``.

    ``jobs`` is ``(peer_seq, peer_bag, model_off, model_seq, model_bag)``:
    evaluation ``e`` compares document ``peer_seq[e]`` with the documents
    ``model_seq[k]`` for ``model_off[e] <= k < model_off[e + 1]``; for L and W
    the unigram bags that clip the hits are the n-gram tokens of
    ``peer_bag[e]`` and ``model_bag[k]`` (other documents than the sequences'
    when the script stems models only, ``-M``).

    ``metric`` is "N" (``n``), "S" (``skip_distance``, < 0 for no limit;
    ``skip_unigrams`` for SU), "L" or "W" (``weight``). ``best_model`` is
    ``-f B`` (the model of highest recall), else ``-f A`` (counts pooled over
    the models); ``alpha`` is ``-p``.

    Returns ``(values, bad)``: ``values[e]`` is ``(model count, hits, peer
    count, R, P, F)``, R, P and F rounded as the script prints them (with
    ``all_n``, for "N" and ``n`` <= 64: ``values[k - 1]`` is that of ROUGE-k
    for k = 1 .. n, computed together); ``bad``
    is -1, or for W the first job model index ``k`` whose model has no
    tokens (the script dies there with "Illegal division by zero").
    """
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    if metric == "N" and n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if metric == "W" and not weight > 0:
        raise ValueError(f"weight must be > 0, got {float(weight)}")
    if metric == "S" and math.isnan(skip_distance):
        raise ValueError("skip_distance must be a number, got nan")
    c = _Corpus(corpus)
    job_lists = [np.asarray(a).tolist() for a in jobs]
    peer_seq, peer_bag, model_off, model_seq, model_bag = job_lists
    _check_indexes(c, *job_lists)
    if all_n:
        if metric != "N" or n > 64:
            raise ValueError("all_n is for metric 'N' with n <= 64")
        return np.stack([_evals("N", c, job_lists, k, skip_distance, skip_unigrams, weight,
                                best_model, alpha)[0] for k in range(1, n + 1)]), -1
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
                hit, base = _lcs_hits(c.sentences(md), peer_sents, bag, Counter(peer_counts),
                                      w if metric == "W" else None)
                if metric == "L":
                    mc, pc = base, peer_total
                    score = hit / base if base > 0 else 0.0
                else:
                    if base == 0:
                        return out, k
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
    return out, -1


# ---------------------------------------------------------------------------
# Bootstrap (computeAverages, bootstrapResampling)
# ---------------------------------------------------------------------------

_DRAND48_A = 0x5DEECE66D
_DRAND48_C = 0xB
_DRAND48_MASK = (1 << 48) - 1


def resample_count(resamples: float) -> int:
    """How many resamples the script draws for ``-r R``: ``for(i=0;i<R;i++)``."""
    return max(0, math.ceil(resamples))


def bootstrap(values, resamples, confidence, *, token_counts=False, alpha=0.5):
    """The script's printed averages and confidence bounds.

    ``values`` (instances x columns, float64) holds one row per evaluation
    instance, in the order of the sorted instance keys. Without
    ``token_counts`` (``-t 0``) the columns are averaged as they are; with it
    (``-t 1``) they are triples (model count, peer count, hits) and every
    resample turns its sums into R, P and F.

    ``resample_means`` then ``summarize_resamples``: the resamples can be
    drawn in parts (on several threads) and joined.

    Returns ``(average, low, high)``, float64 arrays of the output columns.

    >>> avg, lo, hi = bootstrap(np.array([[0.5], [1.0]]), 1000, 95)
    >>> print("%7.5f %7.5f %7.5f" % (avg[0], lo[0], hi[0]))
    0.75000 0.50000 1.00000
    """
    _check_resamples(resamples)
    _check_confidence(confidence)
    means = resample_means(values, resamples, 0, resample_count(resamples),
                           token_counts=token_counts, alpha=alpha)
    return summarize_resamples(means, resamples, confidence)


def _check_resamples(resamples):
    if not resamples > 0 or resamples > 1e8:
        raise ValueError(f"resamples must be in (0, 1e8], got {float(resamples)!r}")


def _check_confidence(confidence):
    if not 0 <= confidence <= 100:
        raise ValueError(f"confidence must be in [0, 100], got {float(confidence)!r}")


def resample_means(values, resamples, first, last, *, token_counts=False, alpha=0.5):
    """The means of resamples ``first .. last - 1`` (of ``resample_count(
    resamples)``), a float64 array of columns x resamples.

    For resample ``s`` Perl's ``srand(s)`` seeds drand48 (state
    ``s << 16 | 0x330E``, next ``state * 0x5DEECE66D + 11 mod 2**48``) and
    each draw is ``int(n * state / 2**48)``; the drawn rows are summed in
    draw order.

    >>> resample_means(np.array([[0.5], [1.0]]), 1000, 0, 3).tolist()
    [[0.75, 0.5, 0.75]]
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError("values must be a 2-d array (instances x columns)")
    _check_resamples(resamples)
    n, cols = values.shape
    if token_counts and cols % 3:
        raise ValueError("with token_counts the columns come in triples")
    if not 0 <= first <= last <= resample_count(resamples):
        raise ValueError(f"resamples [{first}, {last}) out of range")
    count = last - first
    # All resamples advance together, one draw at a time, so each resample's
    # sum is accumulated in its own draw order, as Perl does.
    state = (np.arange(first, last, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    sums = np.zeros((count, cols), dtype=np.float64)
    a, cst, mask = np.uint64(_DRAND48_A), np.uint64(_DRAND48_C), np.uint64(_DRAND48_MASK)
    scale = 2.0 ** -48
    for _ in range(n):
        state = (state * a + cst) & mask     # wraps mod 2**64, then masks to 48 bits
        idx = (float(n) * (state.astype(np.float64) * scale)).astype(np.int64)
        sums += values[np.minimum(idx, n - 1)]
    if token_counts:
        means = np.zeros((count, cols), dtype=np.float64)
        for t in range(0, cols, 3):
            for s in range(count):
                mc, pc, h = sums[s, t], sums[s, t + 1], sums[s, t + 2]
                r = h / mc if mc > 0 else 0.0
                p = h / pc if pc > 0 else 0.0
                d = (1 - alpha) * p + alpha * r
                means[s, t:t + 3] = (r, p, (r * p) / d if d > 0 else 0.0)
    else:
        means = sums / n if n > 0 else np.zeros_like(sums)
    return np.ascontiguousarray(means.T)


def summarize_resamples(means, resamples, confidence):
    """``(average, low, high)`` of each column of ``means`` (columns x all
    the resamples): the mean of the sorted resample means, and the bounds
    interpolated between two of them (an index past the end reads 0, as in
    Perl).

    >>> [x.tolist() for x in summarize_resamples(np.array([[0.2, 0.4, 0.6, 0.8]]), 4, 50)]
    [[0.5], [0.4], [0.6]]
    """
    means = np.ascontiguousarray(means, dtype=np.float64)
    if means.ndim != 2:
        raise ValueError("means must be a 2-d array (columns x resamples)")
    _check_resamples(resamples)
    _check_confidence(confidence)
    if means.shape[1] != resample_count(resamples):
        raise ValueError(f"means has {means.shape[1]} resamples, expected "
                         f"{resample_count(resamples)}")
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    ratio = resamples - delta - 1 - upper_a

    def at(arr, i):
        return arr[i] if 0 <= i < len(arr) else 0.0

    out_cols = means.shape[0]
    avg = np.zeros(out_cols)
    lo = np.zeros(out_cols)
    hi = np.zeros(out_cols)
    for col in range(out_cols):
        ranked = sorted(means[col].tolist())
        total = 0.0
        for x in ranked:                      # in sorted order, one by one
            total += x
        avg[col] = total / len(ranked)
        lo[col] = at(ranked, lower_a) + (at(ranked, lower_a + 1) - at(ranked, lower_a)) * ratio
        hi[col] = at(ranked, upper_a) + (at(ranked, upper_a + 1) - at(ranked, upper_a)) * ratio
    return avg, lo, hi


# ---------------------------------------------------------------------------
# Token ids of the summaries
# ---------------------------------------------------------------------------

# Lowercase A-Z; keep a-z and 0-9; every other byte separates tokens (the
# script's s/-/ - /g, s/[^A-Za-z0-9\-]/ /g and its filter of "-" tokens).
_FILTER = bytes(c if (97 <= c <= 122 or 48 <= c <= 57) else (c + 32 if 65 <= c <= 90 else 32)
                for c in range(256))


def raw_tokens(text: bytes):
    """The script's tokens of a text before stopwords and stemming: runs of
    ASCII letters and digits, lowercased.

    >>> raw_tokens(b"Well-known: 4:00pm")
    [b'well', b'known', b'4', b'00pm']
    """
    _check_bytes(text, "text")
    return text.translate(_FILTER).split()


def _check_bytes(data, name):
    if not isinstance(data, bytes):
        raise TypeError(f"{name} must be bytes, not {type(data).__name__}")


class TokenCorpus:
    """The token ids of every summary of a run, one sequence per sentence.

    Tokens are the script's (``raw_tokens``), each given its final id once
    per table: -1 for a token in ``stopwords`` (dropped); in table 1
    (stemming), a token longer than 3 characters becomes its base form in
    ``exceptions`` (WordNet's irregular forms) or else its ``porter_stem``.
    Equal final strings get equal ids (``vocab_size()`` of them).

    ``add_text(data, table)`` adds one sequence per non-empty line (SPL),
    ``add_file(path, table)`` the same for a file (``add_files(paths,
    table)``: for many, as ``add_texts``), ``add_sentences(sentences,
    table, joined)`` one per sentence or, ``joined``, one for all;
    ``add_span(first, last)`` a sequence covering sequences ``first .. last -
    1``. Each returns the index of its first sequence. ``add_texts(texts,
    table)`` is ``add_text`` and ``add_span`` for many texts (bytes, or str:
    its UTF-8 bytes, lone surrogates as ``surrogateescape`` writes them): an
    array of (first, end, span) per text. ``extend(other)`` appends another corpus (made with
    the same stopwords and exceptions), translating its ids;
    ``empty_copy()`` makes one. ``arrays()`` gives (tokens, seq_start,
    seq_end).

    >>> tc = TokenCorpus(stopwords=[b"the"], exceptions={"said": "say"})
    >>> tc.add_text(b"The cat\\n\\nsaid cats.\\n", 1), tc.add_span(0, 2), len(tc)
    (0, 2, 3)
    >>> [a.tolist() for a in tc.arrays()], tc.vocab_size()
    ([[0, 1, 0], [0, 1, 0], [1, 3, 3]], 2)
    """

    def __init__(self, stopwords=(), exceptions=None):
        self._stop = frozenset(bytes(w) for w in stopwords)
        self._exceptions = {(k.encode("ascii") if isinstance(k, str) else bytes(k)):
                            (v.encode("ascii") if isinstance(v, str) else bytes(v))
                            for k, v in (exceptions or {}).items()}
        self._final: tuple = ({}, {})
        self._ids: dict = {}
        self._tokens = array("i")
        self._starts = array("q")
        self._ends = array("q")

    def __len__(self):
        return len(self._starts)

    def vocab_size(self) -> int:
        return len(self._ids)

    def _resolve(self, raw, table):
        if raw in self._stop:
            return -1
        token = raw
        if table == 1 and len(raw) > 3:
            base = self._exceptions.get(raw)
            token = base if base is not None else porter_stem(raw.decode("ascii")).encode("ascii")
        return self._ids.setdefault(token, len(self._ids))

    def _token_ids(self, text, table):
        final = self._final[table]
        raw = text.translate(_FILTER).split()
        for t in raw:
            if t not in final:
                final[t] = self._resolve(t, table)
        return [i for i in map(final.__getitem__, raw) if i >= 0]

    def _sequence(self, start, end):
        self._starts.append(start)
        self._ends.append(end)
        return len(self._starts) - 1

    @staticmethod
    def _check(table):
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")

    def add_text(self, data: bytes, table: int) -> int:
        _check_bytes(data, "data")
        self._check(table)
        first = len(self._starts)
        for line in data.split(b"\n"):
            if line:
                start = len(self._tokens)
                self._tokens.extend(self._token_ids(line, table))
                self._sequence(start, len(self._tokens))
        return first

    def add_file(self, path, table: int) -> int:
        with open(path, "rb") as f:
            data = f.read()
        return self.add_text(data, table)

    def add_files(self, paths, table: int):
        texts = []
        for path in paths:
            with open(path, "rb") as f:
                texts.append(f.read())
        return self.add_texts(texts, table)

    def add_texts(self, texts, table: int):
        texts = list(texts)
        out = np.empty((len(texts), 3), dtype=np.int64)
        for k, text in enumerate(texts):
            if isinstance(text, str):
                text = str(text).encode("utf-8", "surrogateescape")
            elif not isinstance(text, (bytes, bytearray)):
                raise TypeError(f"texts[{k}] must be str or bytes, not {type(text).__name__}")
            first = self.add_text(bytes(text), table)
            last = len(self._starts)
            out[k] = (first, last, self.add_span(first, last))
        return out

    def extend(self, other: "TokenCorpus") -> int:
        """Append ``other``'s tokens and sequences, its final ids translated
        to this corpus's; returns the index here of its sequence 0."""
        if not isinstance(other, TokenCorpus):
            raise TypeError(f"other must be a TokenCorpus, not {type(other).__name__}")
        if other is self:
            raise ValueError("a corpus cannot extend itself")
        strings = sorted(other._ids, key=other._ids.__getitem__)
        ids = [self._ids.setdefault(t, len(self._ids)) for t in strings]
        first, base = len(self._starts), len(self._tokens)
        self._tokens.extend([ids[t] for t in other._tokens])
        self._starts.extend([base + x for x in other._starts])
        self._ends.extend([base + x for x in other._ends])
        return first

    def empty_copy(self) -> "TokenCorpus":
        """A new corpus with this one's stopwords and exceptions (this one
        must have no text yet)."""
        if len(self._starts) or self._ids:
            raise ValueError("empty_copy of a corpus that has text")
        copy = TokenCorpus.__new__(TokenCorpus)
        copy._stop, copy._exceptions = self._stop, self._exceptions
        copy._final, copy._ids = ({}, {}), {}
        copy._tokens, copy._starts, copy._ends = array("i"), array("q"), array("q")
        return copy

    def add_sentences(self, sentences, table: int, joined: bool = False) -> int:
        self._check(table)
        first = len(self._starts)
        start = len(self._tokens)
        for sentence in sentences:
            if not joined:
                start = len(self._tokens)
            _check_bytes(sentence, "each sentence")
            self._tokens.extend(self._token_ids(sentence, table))
            if not joined:
                self._sequence(start, len(self._tokens))
        if joined:
            self._sequence(start, len(self._tokens))
        return first

    def add_span(self, first: int, last: int) -> int:
        if not 0 <= first <= last <= len(self._starts):
            raise ValueError(f"sequences [{first}, {last}) out of range")
        if first == last:
            return self._sequence(len(self._tokens), len(self._tokens))
        return self._sequence(self._starts[first], self._ends[last - 1])

    def arrays(self):
        return (np.array(self._tokens, dtype=np.int32), np.array(self._starts, dtype=np.int64),
                np.array(self._ends, dtype=np.int64))
