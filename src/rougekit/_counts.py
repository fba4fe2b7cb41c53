"""Hits and totals of one comparison, on any tokens, from the kernels.

The kernels number hashable tokens densely per comparison themselves (through
a dict, at C speed in the compiled backend); unhashable ones, which a custom
tokenizer may return, are numbered here by ``==`` (``Numbering``). Each
function returns ``(hits, target_total, prediction_total)``; turning them
into precision, recall and F is left to the caller, which knows its own
conventions for empty inputs: ``counts_score`` is the token functions' and
the multi-reference policies' (zeros when either side is empty).
"""

from rougekit import _backend
from rougekit._core._prf_py import fmeasure
from rougekit.scoring import Score

__all__ = ["Numbering", "counts_score", "ngram_counts", "lcs_counts", "summary_lcs_counts",
           "ngram_set_counts", "summary_word_set_counts",
           "lcs_positions", "lcs_table", "lcs_alignment", "rouge155_pair_counts"]


class Numbering:
    """Dense ids for tokens, in order of first appearance.

    Hashable tokens are looked up in a dict. rouge-score's LCS compares
    tokens only with ``==``, so a custom tokenizer may return unhashable
    tokens (lists, say); those are matched by ``==`` against the unhashable
    tokens seen so far.
    """

    __slots__ = ("_ids", "_unhashable")

    def __init__(self):
        self._ids = {}
        self._unhashable = []

    def __call__(self, tokens):
        ids = self._ids
        if not self._unhashable:
            try:
                return [ids.setdefault(t, len(ids)) for t in tokens]
            except TypeError:
                pass
        return [self._slow(t) for t in tokens]

    def _slow(self, token):
        ids, unhashable = self._ids, self._unhashable
        try:
            return ids.setdefault(token, len(ids) + len(unhashable))
        except TypeError:
            pass
        for seen, i in unhashable:
            if seen == token:
                return i
        i = len(ids) + len(unhashable)
        unhashable.append((token, i))
        return i


def ngram_counts(target_tokens, prediction_tokens, n):
    """(clipped n-gram overlap, n-grams in target, n-grams in prediction).

    Tokens must be hashable, as n-grams are counted by value (rouge-score
    raises the same TypeError). An n beyond both lengths gives no n-grams.
    """
    n = min(n, len(target_tokens) + len(prediction_tokens) + 1)
    return _backend.overlap.ngram_overlap_tokens(target_tokens, prediction_tokens, n)


def ngram_set_counts(target_tokens, prediction_tokens, n):
    """(distinct n-grams on both sides, distinct n-grams in target, in
    prediction): pltrdy's ``rouge`` counting (``exclusive=True``).

    >>> ngram_set_counts("a a b".split(), "a b b".split(), 1)
    (2, 2, 2)
    """
    from rougekit.compat._pltrdy import ngram_counts as pltrdy_counts
    prediction, target, shared = pltrdy_counts(prediction_tokens, target_tokens, n, True)
    return shared, target, prediction


def summary_word_set_counts(target_sents, prediction_sents):
    """pltrdy's summary-level ROUGE-L counts (``exclusive=True``): the
    distinct words on the LCS of any (target sentence, prediction sentence)
    pair, with pltrdy's choice among equal LCSs, and the distinct words of
    each side.

    >>> summary_word_set_counts([["a", "b", "a"]], [["a", "c"], ["b"]])
    (2, 2, 3)
    """
    from rougekit.compat._pltrdy import union_lcs_count
    target_words = {w for s in target_sents for w in s}
    prediction_words = {w for s in prediction_sents for w in s}
    if not target_words or not prediction_words:
        return 0, len(target_words), len(prediction_words)
    return (union_lcs_count(prediction_sents, target_sents), len(target_words),
            len(prediction_words))


def lcs_counts(target_tokens, prediction_tokens):
    """(LCS length, target length, prediction length)."""
    try:
        lcs = _backend.lcs.lcs_length_tokens(target_tokens, prediction_tokens)
    except TypeError:  # unhashable tokens: matched by == (Numbering)
        number = Numbering()
        lcs = _backend.lcs.lcs_length(number(target_tokens), number(prediction_tokens))
    return lcs, len(target_tokens), len(prediction_tokens)


def summary_lcs_counts(target_sents, prediction_sents):
    """ROUGE-Lsum's summary-level union-LCS hits (Lin 2004, section 3.2,
    with the clipping by token counts of ROUGE-1.5.5 and rouge-score), and
    the token totals of target and prediction sentences."""
    m = sum(map(len, target_sents))
    n = sum(map(len, prediction_sents))
    if not m or not n:
        return 0, m, n
    try:
        hits = _backend.lcs.summary_lcs_hits_tokens(target_sents, prediction_sents)
    except TypeError:  # unhashable tokens: matched by == (Numbering)
        number = Numbering()
        hits = _backend.lcs.summary_lcs_hits([number(s) for s in target_sents],
                                             [number(s) for s in prediction_sents])
    return hits, m, n


def lcs_positions(ref_tokens, can_tokens):
    """The positions in ``ref_tokens`` of the LCS rouge-score's table walk
    picks (its ``lcs_ind``)."""
    number = Numbering()
    ids_r = number(ref_tokens)
    ids_c = number(can_tokens)
    if not ids_r or not ids_c:
        return []
    return _backend.lcs.lcs_indices(ids_r, ids_c)


def lcs_table(ref_tokens, can_tokens):
    """rouge-score's LCS table (its ``_lcs_table``): ``table[i][j]`` is the
    LCS length of ``ref_tokens[:i]`` and ``can_tokens[:j]``, tokens compared
    with ``==``. Quadratic in time and memory: for one pair to read
    (``lcs_alignment``), not for scoring, which the kernels do.

    >>> lcs_table(["a", "b"], ["b"])
    [[0, 0], [0, 0], [0, 1]]
    """
    table = [[0] * (len(can_tokens) + 1)]
    for r in ref_tokens:
        above, row = table[-1], [0]
        for j, c in enumerate(can_tokens):
            row.append(above[j] + 1 if r == c else max(above[j + 1], row[j]))
        table.append(row)
    return table


def lcs_alignment(table, ref_tokens, can_tokens):
    """The LCS rouge-score picks, as ``(ref position, can position)`` pairs
    in increasing order: its ``_backtrack_norec`` walk of ``table``
    (``lcs_table``) from the last cell: on equal tokens the diagonal;
    otherwise left when the cell to the left is strictly greater than the one
    above, else up. ``lcs_positions`` gives the same ref positions, fast.

    >>> ref, can = ["a", "b", "a"], ["a", "a"]
    >>> lcs_alignment(lcs_table(ref, can), ref, can)
    [(0, 0), (2, 1)]
    """
    i, j = len(ref_tokens), len(can_tokens)
    pairs = []
    while i > 0 and j > 0:
        if ref_tokens[i - 1] == can_tokens[j - 1]:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    pairs.reverse()
    return pairs


def rouge155_pair_counts(metric, target_tokens, prediction_tokens, **params):
    """(hits, target total, prediction total) of ROUGE-1.5.5.pl's measure
    ``metric`` ("S" skip-bigrams, "W" weighted LCS) for one target sentence
    (its model) and one prediction sentence (its peer), by its own counting:
    the kernel of ``rougekit.rouge155`` on one evaluation. For "W" the totals
    are the script's weighted ones, f(f(target length)) and f(prediction
    length); ``params`` are ``score_evals``'s (``skip_distance``,
    ``skip_unigrams``, ``weight``)."""
    number = Numbering()
    ids_p = number(prediction_tokens)
    ids_t = number(target_tokens)
    n_p = len(ids_p)
    kernel = _backend.rouge155_counts
    # Two documents of one sentence each, the prediction's (sequence 0) and
    # the target's (sequence 1), each its own n-gram tokens.
    corpus = kernel.Corpus(tokens=ids_p + ids_t, seq_start=[0, n_p],
                           seq_end=[n_p, n_p + len(ids_t)], doc_ngram=[0, 1],
                           doc_sent_lo=[0, 1], doc_sent_hi=[1, 2],
                           vocab=max(len(set(ids_p + ids_t)), 1))
    jobs = kernel.Jobs(peer_seq=[0], peer_bag=[0], model_off=[0, 1], model_seq=[1],
                       model_bag=[1])
    evals = kernel.score_evals(metric, corpus, jobs, **params)
    if evals.bad >= 0:
        return 0.0, 0.0, float(n_p)
    target_total, hits, prediction_total = evals.values[0, :3].tolist()
    return hits, target_total, prediction_total


def counts_score(hits, candidate_total, reference_total):
    """Score from counts: zeros when either total is 0.

    Where both totals are positive this is rouge-score's arithmetic
    (hits / total, then ``fmeasure``), so its floats are reproduced exactly.

    >>> counts_score(2, 4, 5)
    Score(precision=0.5, recall=0.4, fmeasure=0.4444444444444445)
    """
    if not candidate_total or not reference_total:
        return Score(0.0, 0.0, 0.0)
    precision = hits / candidate_total
    recall = hits / reference_total
    return Score(precision, recall, fmeasure(precision, recall))
