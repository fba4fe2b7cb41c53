"""The kernels on integer ids: compiled, pure twin and rouge-score's own
algorithms must agree exactly, in both row-storage modes of the LCS walk."""
import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref

from _helpers import compiled_kernel, examples, x86_64_v3_loops
from rougekit._core import _lcs_py, _overlap_py

pytestmark = pytest.mark.kernel


def _compiled_modules():
    return compiled_kernel("_lcs"), compiled_kernel("_overlap")


class Compiled:
    def __init__(self):
        lcs, overlap = _compiled_modules()
        self.lcs_length = lcs.lcs_length
        self.lcs_indices = lcs.lcs_indices
        self.union_lcs = lcs.union_lcs
        self.summary_lcs_hits = lcs.summary_lcs_hits
        self.ngram_overlap = overlap.ngram_overlap
        self.set_full_table_words = lcs._set_full_table_words
        self.set_one_word_max = lcs._set_one_word_max
        self.module = lcs


class Pure:
    lcs_length = staticmethod(_lcs_py.lcs_length)
    lcs_indices = staticmethod(_lcs_py.lcs_indices)
    union_lcs = staticmethod(_lcs_py.union_lcs)
    summary_lcs_hits = staticmethod(_lcs_py.summary_lcs_hits)
    ngram_overlap = staticmethod(_overlap_py.ngram_overlap)

    @staticmethod
    def set_full_table_words(words):
        old = _lcs_py._FULL_TABLE_WORDS
        _lcs_py._FULL_TABLE_WORDS = words
        return old

    @staticmethod
    def set_one_word_max(tokens):
        return 0  # the pure twin has a single path

    module = None


@pytest.fixture(params=["compiled", "pure"])
def core(request):
    return Compiled() if request.param == "compiled" else Pure()


@pytest.fixture(params=["full-table", "checkpointed"])
def row_mode(request, core):
    """Run with every row kept, or with checkpoints every ~sqrt(m) rows."""
    old = core.set_full_table_words(0 if request.param == "checkpointed" else 2097152)
    yield request.param
    core.set_full_table_words(old)


def dense(*seqs):
    vocab = {}
    return [[vocab.setdefault(t, len(vocab)) for t in s] for s in seqs]


def ref_lcs_length(a, b):
    return ref._lcs_table(a, b)[-1][-1] if a and b else 0


def ref_lcs_ind(a, b):
    return ref.lcs_ind(a, b) if a and b else []


def ref_ngram(a, b, n):
    ca, cb = ref._create_ngrams(a, n), ref._create_ngrams(b, n)
    hits = sum(min(c, cb[g]) for g, c in ca.items())
    return hits, sum(ca.values()), sum(cb.values())


# Lengths around the 64-bit word boundaries, alphabets small enough for ties.
LENGTHS = [0, 1, 2, 3, 31, 63, 64, 65, 127, 128, 129, 200]


def random_pairs(seed, count, max_len=None):
    rng = random.Random(seed)
    for _ in range(count):
        vocab = rng.choice([1, 2, 3, 5, 30])
        m = rng.choice(LENGTHS) if max_len is None else rng.randrange(max_len)
        n = rng.choice(LENGTHS) if max_len is None else rng.randrange(max_len)
        yield ([rng.randrange(vocab) for _ in range(m)],
               [rng.randrange(vocab) for _ in range(n)])


def test_lcs_length_matches_table(core):
    for a, b in random_pairs(1, 400):
        ia, ib = dense(a, b)
        assert core.lcs_length(ia, ib) == ref_lcs_length(a, b), (a, b)


def test_lcs_indices_match_rouge_score_walk(core, row_mode):
    for a, b in random_pairs(2, 400):
        ia, ib = dense(a, b)
        assert core.lcs_indices(ia, ib) == ref_lcs_ind(a, b), (a, b)


@pytest.mark.parametrize("ref_seq,can_seq", [
    ("ab", "ba"), ("abcab", "bacba"), ("aaaa", "aa"), ("abab", "baba"),
    ("xyz", "abc"), ("a", "a"),
])
def test_lcs_ties(core, row_mode, ref_seq, can_seq):
    a, b = list(ref_seq), list(can_seq)
    ia, ib = dense(a, b)
    assert core.lcs_indices(ia, ib) == ref_lcs_ind(a, b)
    assert core.lcs_length(ia, ib) == ref_lcs_length(a, b)


@pytest.fixture(params=["one-word-path", "one-word-path-baseline", "general-path"])
def pm_mode(request, core):
    """Summary hits with reference sentences of <= 64 tokens on the one-word
    path (bit vectors over the reference), its walk by the x86-64-v3 loop
    (LZCNT; where the CPU has it) or the baseline one, or everything on the
    general path."""
    baseline = request.param == "one-word-path-baseline"
    if baseline and core.module is None:
        pytest.skip("the pure twin has a single path")
    old = core.set_one_word_max(0 if request.param == "general-path" else 64)
    try:
        if baseline:
            with x86_64_v3_loops(core.module, False):
                yield request.param
        else:
            yield request.param
    finally:
        core.set_one_word_max(old)


def test_union_and_summary_hits(core, row_mode, pm_mode):
    rng = random.Random(3)
    for _ in range(300):
        vocab = rng.choice([2, 4, 10])
        refs = [[rng.randrange(vocab) for _ in range(rng.randrange(0, 70))]
                for _ in range(rng.randrange(0, 5))]
        cands = [[rng.randrange(vocab) for _ in range(rng.randrange(0, 70))]
                 for _ in range(rng.randrange(0, 5))]
        for r in refs:
            d, *dc = dense(r, *cands)
            expected = ref._find_union([ref_lcs_ind(r, c) for c in cands])
            assert core.union_lcs(d, dc) == expected
        ids = dense(*refs, *cands)
        dr, dc = ids[:len(refs)], ids[len(refs):]
        m, n = sum(map(len, refs)), sum(map(len, cands))
        if refs and cands and m and n:
            # rouge-score's recall is hits / m: recover its hit count exactly.
            assert core.summary_lcs_hits(dr, dc) == round(
                ref._summary_level_lcs(refs, cands).recall * m)


def _check_summary_hits(core, refs, cands):
    """core's summary-level LCS hits of the sentences (lists of tokens) equal
    rouge-score's _summary_level_lcs (its recall times the reference length)."""
    m, n = sum(map(len, refs)), sum(map(len, cands))
    if not (m and n):
        return
    ids = dense(*refs, *cands)
    dr, dc = ids[:len(refs)], ids[len(refs):]
    assert core.summary_lcs_hits(dr, dc) == round(
        ref._summary_level_lcs(refs, cands).recall * m), (refs, cands)


def test_summary_hits_many_short_sentences(core, pm_mode):
    """Several short sentences a side over 2 to 5 tokens: ties, repeats and
    runs of one token in every walk of the union LCS (its left moves jump to
    the row's match, its up moves to the next row with a match or a step)."""
    rng = random.Random(11)
    for _ in range(1500):
        vocab = rng.choice([2, 3, 5])
        refs = [[rng.randrange(vocab) for _ in range(rng.randrange(0, 12))]
                for _ in range(rng.randrange(1, 6))]
        cands = [[rng.randrange(vocab) for _ in range(rng.randrange(0, 12))]
                 for _ in range(rng.randrange(1, 6))]
        _check_summary_hits(core, refs, cands)


@pytest.mark.parametrize("lengths", [[1, 2, 3], [30, 31, 32, 33], [20, 21, 22, 23, 41, 42, 43],
                                     [62, 63, 64, 65, 1]])
def test_summary_hits_sentences_packed_in_words(core, pm_mode, lengths):
    """Reference sentences whose lengths fill one 64-bit word (with a guard
    bit between two), or just overflow it, so that several sentences share a
    word of the one-word path and a carry out of one must not reach the next."""
    rng = random.Random(sum(lengths))
    for _ in range(300):
        vocab = rng.choice([2, 3, 6])
        refs = [[rng.randrange(vocab) for _ in range(rng.choice(lengths))]
                for _ in range(rng.randrange(1, 6))]
        cands = [[rng.randrange(vocab) for _ in range(rng.randrange(0, 40))]
                 for _ in range(rng.randrange(1, 4))]
        _check_summary_hits(core, refs, cands)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 9])
def test_ngram_overlap(core, n):
    for a, b in random_pairs(4 + n, 300):
        ia, ib = dense(a, b)
        assert core.ngram_overlap(ia, ib, n) == ref_ngram(a, b, n), (a, b)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 4), max_size=150), st.lists(st.integers(0, 4), max_size=150))
def test_compiled_equals_pure_property(a, b):
    compiled = Compiled()
    ia, ib = dense(a, b)
    assert compiled.lcs_length(ia, ib) == _lcs_py.lcs_length(ia, ib)
    assert compiled.lcs_indices(ia, ib) == _lcs_py.lcs_indices(ia, ib)
    for n in (1, 2, 3):
        assert compiled.ngram_overlap(ia, ib, n) == _overlap_py.ngram_overlap(ia, ib, n)


def test_long_inputs_agree(core, row_mode):
    """Thousands of tokens: many words per row and several checkpoint blocks."""
    a, b, length, indices = long_inputs_and_reference()
    ia, ib = dense(a, b)
    assert core.lcs_length(ia, ib) == length
    assert core.lcs_indices(ia, ib) == indices


@functools.cache
def long_inputs_and_reference():
    """Two long sequences and rouge-score's LCS of them, computed once for the
    four cores and row modes (2 million cells of Python each time, slow under
    the sanitizers)."""
    rng = random.Random(5)
    a = [rng.randrange(50) for _ in range(1500)]
    b = [rng.randrange(50) for _ in range(1300)]
    return a, b, ref_lcs_length(a, b), ref_lcs_ind(a, b)


@pytest.mark.parametrize("bad,exc", [
    ([-1], ValueError), ([5], ValueError), ([0.5], TypeError), (["a"], TypeError),
    ([None], TypeError), ([2 ** 70], (OverflowError, ValueError)),
])
def test_bad_ids_raise(core, bad, exc):
    for call in (lambda: core.lcs_length(bad, [0]),
                 lambda: core.lcs_indices(bad, [0]),
                 lambda: core.union_lcs([0], [bad]),
                 lambda: core.summary_lcs_hits([bad], [[0]]),
                 lambda: core.ngram_overlap(bad, [0], 1)):
        with pytest.raises(exc):
            call()


def test_ngram_n_must_be_positive(core):
    with pytest.raises(ValueError, match="n must be >= 1"):
        core.ngram_overlap([0], [0], 0)


def test_accepts_tuples_and_iterables(core):
    assert core.lcs_length((0, 1, 2), iter([2, 1, 0, 1])) == 2
    assert core.ngram_overlap(range(3), (0, 1, 2), 2) == (2, 2, 2)
