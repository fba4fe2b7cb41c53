"""Property-based tests (hypothesis) of ROUGE's invariants, and of the
compiled kernels against their pure-Python twin. ~15 s in all."""
import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _helpers import examples
from rougekit import _backend, rouge_scorer
from rougekit._core import _lcs_py, _overlap_py

pytestmark = pytest.mark.kernel

# The compiled kernels, when they are the backend under test (the pure
# backend's run loads no extension).
_lcs, _overlap = (_backend.lcs, _backend.overlap) if _backend.NAME == "compiled" else (None, None)

NGRAM = ["rouge1", "rouge2", "rouge3"]
TYPES = NGRAM + ["rougeL", "rougeLsum"]
SETTINGS = settings(max_examples=examples(100), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

SCORERS = {stem: rouge_scorer.RougeScorer(TYPES, use_stemmer=stem) for stem in (False, True)}

# Words that collide often, stem alike, or are not tokens at all.
WORDS = ["the", "cat", "cats", "running", "runs", "run", "a", "A", "on", "mat",
         "2", "x9", "caf\u00e9", "--", "\u00e9t\u00e9", "jumping", "jumped", "dog's"]
SEPS = [" ", " ", " ", "\n", ". ", ", ", "\t", "\n\n"]


@st.composite
def texts(draw, max_words=30):
    n = draw(st.integers(0, max_words))
    parts = []
    for _ in range(n):
        parts.append(draw(st.sampled_from(WORDS)))
        parts.append(draw(st.sampled_from(SEPS)))
    return "".join(parts)


def _ntokens(text, stem):
    return len(SCORERS[stem]._tokenizer.tokenize(text))


@SETTINGS
@given(texts(), texts(), st.booleans())
def test_scores_in_unit_interval(target, prediction, stem):
    for name, s in SCORERS[stem].score(target, prediction).items():
        for v in s:
            assert 0 <= v <= 1, (name, s)


@SETTINGS
@given(texts(), st.booleans())
def test_identical_texts_score_one(text, stem):
    n = _ntokens(text, stem)
    scores = SCORERS[stem].score(text, text)
    for name in ("rouge1", "rouge2", "rouge3"):
        expected = 1.0 if n >= int(name[5:]) else 0.0
        assert tuple(scores[name]) == (expected,) * 3, (name, scores[name])
    if n:
        assert tuple(scores["rougeL"]) == (1.0, 1.0, 1.0)
        assert tuple(scores["rougeLsum"]) == (1.0, 1.0, 1.0)


@SETTINGS
@given(texts(), texts(), st.booleans())
def test_swap_swaps_precision_and_recall(a, b, stem):
    ab = SCORERS[stem].score(a, b)
    ba = SCORERS[stem].score(b, a)
    for name in NGRAM + ["rougeL"]:  # not rougeLsum: union LCS is asymmetric
        assert ab[name].precision == ba[name].recall, name
        assert ab[name].recall == ba[name].precision, name
        assert ab[name].fmeasure == ba[name].fmeasure, name


@SETTINGS
@given(texts(), texts(), st.booleans())
def test_rouge_l_f_at_most_rouge1_f(a, b, stem):
    s = SCORERS[stem].score(a, b)
    assert s["rougeL"].fmeasure <= s["rouge1"].fmeasure
    assert s["rougeL"].precision <= s["rouge1"].precision
    assert s["rougeL"].recall <= s["rouge1"].recall


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(texts(), texts()), max_size=40), st.booleans(),
       st.integers(1, 4))
def test_score_batch_equals_score(pairs, stem, threads):
    scorer = SCORERS[stem]
    targets = [t for t, _ in pairs]
    preds = [p for _, p in pairs]
    expected = [scorer.score(t, p) for t, p in pairs]
    got = scorer.score_batch(targets, preds, threads=threads)
    assert got == expected
    assert [[tuple(map(type, s)) for s in d.values()] for d in got] == \
        [[tuple(map(type, s)) for s in d.values()] for d in expected]


# --- compiled kernels == pure kernels, on the same id sequences ---------------

needs_compiled = pytest.mark.skipif(_lcs is None, reason="the compiled core is not the backend")


def _dense(*seqs):
    """Renumber the sequences' values densely from 0 (the kernels' contract)."""
    ids = {}
    return [[ids.setdefault(v, len(ids)) for v in s] for s in seqs]


# Dense match masks (ColIndex in _core/_lcs.pyx, _MatchMasks in _core/_lcs_py.py): ids with
# at least min_count columns get one, within a budget of words. Modes: the
# default, every id dense, none, and a budget so small that the threshold rises.
# The pure twin in mode "none" (every mask built from its column list) is the
# oracle.
DENSE_MODES = {"default": (8, 4194304), "all": (1, 4194304),
               "none": (1 << 30, 0), "budget": (1, 3)}
dense_modes = st.sampled_from(sorted(DENSE_MODES))


@contextlib.contextmanager
def dense_mode(mode):
    min_count, budget = DENSE_MODES[mode]
    old = _lcs._set_dense(min_count, budget)
    old_pure = _lcs_py._DENSE_MIN, _lcs_py._DENSE_BUDGET_WORDS
    _lcs_py._DENSE_MIN, _lcs_py._DENSE_BUDGET_WORDS = min_count, budget
    try:
        yield
    finally:
        _lcs._set_dense(*old)
        _lcs_py._DENSE_MIN, _lcs_py._DENSE_BUDGET_WORDS = old_pure


small_ids = st.lists(st.integers(0, 6), max_size=80)
# Long enough to cross the 64-bit word boundary, with few distinct ids.
long_ids = st.lists(st.integers(0, 3), min_size=60, max_size=200)
seqs = st.one_of(small_ids, long_ids)


@needs_compiled
@SETTINGS
@given(seqs, seqs, dense_modes)
def test_kernels_lcs_compiled_equals_pure(a, b, mode):
    a, b = _dense(a, b)
    with dense_mode("none"):
        length, indices = _lcs_py.lcs_length(a, b), _lcs_py.lcs_indices(a, b)
    with dense_mode(mode):
        assert _lcs.lcs_length(a, b) == _lcs_py.lcs_length(a, b) == length
        assert _lcs.lcs_indices(a, b) == _lcs_py.lcs_indices(a, b) == indices


@needs_compiled
@SETTINGS
@given(st.integers(1, 5), seqs, seqs)
def test_kernels_overlap_compiled_equals_pure(n, a, b):
    a, b = _dense(a, b)
    assert _overlap.ngram_overlap(a, b, n) == _overlap_py.ngram_overlap(a, b, n)


@needs_compiled
@SETTINGS
@given(small_ids, st.lists(small_ids, max_size=5), st.booleans(), dense_modes)
def test_kernels_union_lcs_compiled_equals_pure(ref, cands, checkpointed, mode):
    ref, *cands = _dense(ref, *cands)
    old = _lcs._set_full_table_words(1 if checkpointed else 2097152)
    try:
        with dense_mode("none"):
            expected = _lcs_py.union_lcs(ref, cands)
        with dense_mode(mode):
            assert _lcs.union_lcs(ref, cands) == _lcs_py.union_lcs(ref, cands) == expected
    finally:
        _lcs._set_full_table_words(old)


@needs_compiled
@SETTINGS
@given(st.lists(small_ids, max_size=5), st.lists(small_ids, max_size=5),
       st.sampled_from([64, 0, 7]), st.booleans(), dense_modes)
def test_kernels_summary_compiled_equals_pure(refs, cands, one_word_max, checkpointed,
                                              mode):
    flat = _dense(*refs, *cands)
    refs, cands = flat[:len(refs)], flat[len(refs):]
    old_w = _lcs._set_one_word_max(one_word_max)
    old_t = _lcs._set_full_table_words(1 if checkpointed else 2097152)
    try:
        with dense_mode("none"):
            expected = _lcs_py.summary_lcs_hits(refs, cands)
        with dense_mode(mode):
            assert (_lcs.summary_lcs_hits(refs, cands)
                    == _lcs_py.summary_lcs_hits(refs, cands) == expected)
    finally:
        _lcs._set_one_word_max(old_w)
        _lcs._set_full_table_words(old_t)


@needs_compiled
@settings(max_examples=examples(15), deadline=None)
@given(st.lists(st.integers(0, 40), min_size=100, max_size=600),
       st.lists(st.integers(0, 40), min_size=100, max_size=600), dense_modes)
def test_kernels_checkpointed_union_lcs_long(a, b, mode):
    a, b = _dense(a, b)
    with dense_mode("none"):
        expected = _lcs_py.union_lcs(a, [b])
    old = _lcs._set_full_table_words(1)
    try:
        with dense_mode(mode):
            assert _lcs.union_lcs(a, [b]) == expected
    finally:
        _lcs._set_full_table_words(old)
    old_pure = _lcs_py._FULL_TABLE_WORDS
    _lcs_py._FULL_TABLE_WORDS = 1
    try:
        assert _lcs_py.union_lcs(a, [b]) == expected
    finally:
        _lcs_py._FULL_TABLE_WORDS = old_pure
