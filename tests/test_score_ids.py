"""score_ids: ROUGE of token-id batches, equal with == to rouge-score's
token-list functions, for every input form and both kernels; arrays read in
place; clear errors for bad input.

rouge-score's functions on the same id lists are the reference:
``_score_ngrams(_create_ngrams(ref, n), _create_ngrams(pred, n))``,
``_score_lcs(ref, pred)``, ``_summary_level_lcs(ref sentences, pred
sentences)``; several references are combined as ``score_corpus``'s
policies (``rougekit._multi_ref``) combine rouge-score's per-reference scores.
"""
import random
import re
import sys
import tracemalloc

import numpy as np
import pytest
from rouge_score import rouge_scorer as ref

import rougekit
from _helpers import SANITIZED, examples, sweep
from _rouge155 import kernel_names
from rougekit import _backend, ids, score_ids
from rougekit._multi_ref import combine_counts, combine_scores

pytestmark = [pytest.mark.backend, pytest.mark.kernel, pytest.mark.threads]

TYPES = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")
MEASURES = ("precision", "recall", "fmeasure")
VOCABS = (2, 7, 1000, 200_000, 2**31 - 2)   # repeated ids, unique ids, the hash path
SEP = 1


@pytest.fixture(params=kernel_names())
def kernel(request, monkeypatch):
    """score_ids on the compiled or the pure kernel."""
    module = __import__(f"rougekit._core._ids_score{'' if request.param == 'compiled' else '_py'}",
                        fromlist=["x"])
    monkeypatch.setattr(_backend, "ids_score", module)
    return request.param


# --- the reference: rouge-score's token-list functions -----------------------------------

def _sentences(seq, seps):
    out = [[]]
    for v in seq:
        if v in seps:
            out.append([])
        else:
            out[-1].append(v)
    return out


def _expected_scores(pred, target, seps):
    """{type: Score} of rouge-score's functions on one pair of id lists."""
    out = {}
    for t in TYPES:
        if t == "rougeL":
            out[t] = ref._score_lcs(target, pred)
        elif t == "rougeLsum":
            out[t] = ref._summary_level_lcs(_sentences(target, seps), _sentences(pred, seps))
        else:
            n = int(t[5:])
            out[t] = ref._score_ngrams(ref._create_ngrams(target, n),
                                       ref._create_ngrams(pred, n))
    return out


def _counts(pred, target, seps):
    """{type: (hits, prediction total, reference total)} of one pair."""
    out = {}
    for t in TYPES:
        if t == "rougeL":
            hits = ref._lcs_table(target, pred)[-1][-1] if target and pred else 0
            out[t] = (hits, len(pred), len(target))
        elif t == "rougeLsum":
            rs, ps = _sentences(target, seps), _sentences(pred, seps)
            m, n = sum(map(len, rs)), sum(map(len, ps))
            score = ref._summary_level_lcs(rs, ps)
            out[t] = (round(score.recall * m) if m and n else 0, n, m)
        else:
            k = int(t[5:])
            a, b = ref._create_ngrams(target, k), ref._create_ngrams(pred, k)
            out[t] = (sum((a & b).values()), sum(b.values()), sum(a.values()))
    return out


def expected_columns(preds, refs_per_item, policy="max", seps=()):
    """The columns score_ids must give: refs_per_item[i] lists prediction
    i's references."""
    cols = {f"{t}_{m}": [] for t in TYPES for m in MEASURES}
    for pred, targets in zip(preds, refs_per_item):
        for t in TYPES:
            if policy == "pooled" and len(targets) > 1:
                score = combine_counts("pooled", [_counts(pred, r, seps)[t] for r in targets])
            else:
                score = combine_scores(policy, [_expected_scores(pred, r, seps)[t]
                                                for r in targets])
            for m in MEASURES:
                cols[f"{t}_{m}"].append(float(getattr(score, m)))
    return cols


def assert_columns(got, expected):
    assert list(got) == list(expected)
    for key, values in expected.items():
        assert got[key].dtype == np.float64
        assert got[key].tolist() == values, key


# --- random batches -----------------------------------------------------------------------

def random_batch(rng, n, vocab, max_len, seps=()):
    """n id lists of lengths 0 .. max_len over ``vocab`` ids (ids in
    ``seps`` sprinkled in when given)."""
    rows = []
    for _ in range(n):
        length = rng.choice([0, rng.randint(0, max_len), max_len])
        row = [rng.randrange(vocab) for _ in range(length)]
        for _ in range(len(seps) and rng.randint(0, 3)):
            if row:
                row[rng.randrange(len(row))] = rng.choice(list(seps))
        rows.append(row)
    return rows


def padded(rows, pad, dtype, width=None):
    width = max([len(r) for r in rows] + [0]) + 1 if width is None else width
    out = np.full((len(rows), width), pad, dtype=dtype)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def ragged(rows, dtype):
    values = np.array([v for r in rows for v in r], dtype=dtype)
    offsets = np.concatenate(([0], np.cumsum([len(r) for r in rows]))).astype(np.int64)
    return values, offsets


class DLPackOnly:
    """A tensor that exports its memory through DLPack only (as a PyTorch or
    JAX tensor does; numpy's own __dlpack__ is a real producer)."""

    def __init__(self, array, device=(1, 0)):
        self.array, self.device = array, device

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.device


class ArrayOnly:
    """An array-like with ``__array__`` only."""

    def __init__(self, array):
        self.array = array

    def __array__(self, dtype=None, copy=None):
        return self.array


FORMS = ("list", "tuples", "padded-int32", "padded-int64", "ragged-int32", "ragged-int64",
         "dlpack", "array-like", "row-slice", "list-of-arrays")


def as_form(rows, form, pad, rng):
    """rows (lists of ids, none holding pad) in the input form ``form``; the
    padded forms put pad after each row, and sometimes ids after the pad
    (ignored)."""
    if form == "list":
        return [list(r) for r in rows]
    if form == "tuples":
        return tuple(tuple(r) for r in rows)
    if form == "list-of-arrays":
        return [np.array(r, dtype=np.int64) for r in rows]
    if form.startswith("ragged"):
        return ragged(rows, np.int32 if form.endswith("32") else np.int64)
    dtype = np.int32 if form.endswith("int32") else np.int64
    arr = padded(rows, pad, dtype)
    # Ids after a row's first pad are ignored: put some there.
    for i, r in enumerate(rows):
        if len(r) + 1 < arr.shape[1] and rng.random() < 0.5:
            arr[i, len(r) + 1:] = rng.randrange(1 << 20)
    if form == "dlpack":
        return DLPackOnly(arr)
    if form == "array-like":
        return ArrayOnly(arr)
    if form == "row-slice":
        wide = np.full((arr.shape[0], arr.shape[1] + 3), 5, dtype=np.int64)
        wide[:, :arr.shape[1]] = arr
        return wide[:, :arr.shape[1]]         # rows not contiguous with each other
    return arr


# --- parity ---------------------------------------------------------------------------

@pytest.mark.parametrize("form", FORMS)
def test_every_form_equals_rouge_score(kernel, form):
    rng = random.Random(f"{form}-{kernel}")
    pad = -100 if form != "padded-int32" else 0
    for trial in range(sweep(12, 4)):
        vocab = VOCABS[trial % len(VOCABS)]
        max_len = rng.choice([0, 1, 5, 40, sweep(2000, 300) if kernel == "compiled" else 120])
        n = rng.randint(0, 6)
        preds = random_batch(rng, n, vocab, max_len, (SEP,))
        refs = random_batch(rng, n, vocab, max_len, (SEP,))
        if pad == 0:      # the padding id is no token
            preds = [[v + 1 for v in r] for r in preds]
            refs = [[v + 1 for v in r] for r in refs]
        got = rougekit.score_ids(as_form(preds, form, pad, rng), as_form(refs, form, pad, rng),
                                 TYPES, pad_id=pad, sentence_sep=SEP + (pad == 0),
                                 threads=2)
        assert_columns(got, expected_columns(preds, [[r] for r in refs],
                                             seps={SEP + (pad == 0)}))


@pytest.mark.parametrize("policy", ["max", "mean", "pooled", "best-recall", "jackknife"])
@pytest.mark.parametrize("layout", ["batches", "3-d", "batches-ragged"])
def test_several_references_combine_as_score_corpus(kernel, policy, layout):
    rng = random.Random(f"{policy}-{layout}")
    for _ in range(sweep(6, 2)):
        n, m = rng.randint(1, 5), rng.randint(1, 4)
        vocab = rng.choice([3, 50, 2**31 - 2])
        preds = random_batch(rng, n, vocab, 30, (SEP,))
        refs = [random_batch(rng, n, vocab, 30, (SEP,)) for _ in range(m)]
        if layout == "3-d":
            width = max(len(r) for batch in refs for r in batch) + 1
            references = np.stack([padded(batch, -1, np.int64, width) for batch in refs],
                                  axis=1)
        elif layout == "batches-ragged":
            references = [ragged(batch, np.int32) for batch in refs]
        else:
            references = refs
        got = rougekit.score_ids(padded(preds, -1, np.int64), references, TYPES, pad_id=-1,
                                 sentence_sep=[SEP], multi_ref=policy)
        assert_columns(got, expected_columns(
            preds, [[batch[i] for batch in refs] for i in range(n)], policy, {SEP}))


def test_pad_id_cuts_every_form_at_its_first_pad(kernel):
    rows = [[4, 5, 0, 6], [0, 4], [4, 5, 6]]
    cut = [[4, 5], [], [4, 5, 6]]
    for batch in (rows, padded(rows, 0, np.int32), ragged(rows, np.int64)):
        got = rougekit.score_ids(batch, [[4, 5, 6]] * 3, ["rouge1"], pad_id=0)
        assert_columns({k: v for k, v in got.items()},
                       {k: v for k, v in expected_columns(cut, [[[4, 5, 6]]] * 3).items()
                        if k.startswith("rouge1_")})


def test_several_separators_and_empty_sentences(kernel):
    pred, target = [1, 2, 7, 7, 3, 8, 2, 1], [7, 2, 1, 8, 8, 3, 1, 2, 7]
    got = rougekit.score_ids([pred], [target], ["rougeLsum"], sentence_sep=(7, 8))
    expected = ref._summary_level_lcs(_sentences(target, {7, 8}), _sentences(pred, {7, 8}))
    assert [got[f"rougeLsum_{m}"][0] for m in MEASURES] == list(expected)


def test_the_compiled_and_pure_kernels_agree_on_long_rows():
    if "compiled" not in kernel_names() or "pure" not in kernel_names():
        pytest.skip("needs both kernels")
    rng = random.Random(5)
    preds = random_batch(rng, 4, 30, sweep(2000, 600), (SEP,))
    refs = random_batch(rng, 4, 30, sweep(2000, 600), (SEP,))
    from rougekit._core import _ids_score, _ids_score_py
    results = []
    for module in (_ids_score, _ids_score_py):
        old = _backend.ids_score
        _backend.ids_score = module
        try:
            results.append(rougekit.score_ids(preds, refs, TYPES, sentence_sep=SEP))
        finally:
            _backend.ids_score = old
    assert {k: v.tolist() for k, v in results[0].items()} == \
        {k: v.tolist() for k, v in results[1].items()}


@pytest.mark.parametrize("pred_len", [0, 1, 2, 1022, 1023, 1024, 1025])
def test_every_way_of_numbering_a_pair_equals_rouge_score(kernel, pred_len):
    """The compiled kernel numbers a pair's ids by the position of their
    first occurrence in the prediction (one id for every reference id the
    prediction lacks) while all ids are below DIRECT_IDS and the prediction
    has at most 1023 ids; longer predictions then have their ids made
    consecutive; an id of DIRECT_IDS or more takes the hash table. Each way,
    at its boundaries, with repeated ids (n-grams repeated on both sides) and
    reference ids absent from the prediction. (References are kept short:
    rouge-score's LCS table is quadratic.)"""
    if kernel != "compiled":
        pytest.skip("the compiled kernel's ways of numbering")
    rng = random.Random(pred_len)
    top = _backend.ids_score.DIRECT_IDS
    for hi in (top - 1, top):
        pool = [0, 1, top - 1, hi, *rng.sample(range(2, 50), 6)]
        pred = [rng.choice(pool[:6]) for _ in range(pred_len)]
        targets = [[rng.choice(pool) for _ in range(n)] for n in (0, 1, 60)]
        # the prediction's n-grams, repeated, around an id it lacks
        targets.append(pred[-40:] + [hi] + pred[:30] + pred[-40:])
        got = rougekit.score_ids([pred] * len(targets), targets, TYPES, sentence_sep=SEP)
        assert_columns(got, expected_columns([pred] * len(targets), [[t] for t in targets],
                                             seps={SEP}))


@pytest.mark.parametrize("types", [("rouge1",), ("rouge2",), ("rouge2", "rouge1"),
                                   ("rouge3", "rougeL", "rouge1")])
def test_unigrams_and_bigrams_counted_while_numbering(kernel, types):
    """The compiled kernel counts rouge1's and rouge2's overlaps in the pass
    that numbers a pair's ids (when the kinds hold either): short rows
    (0 to 3 ids), repeated unigrams and bigrams clipped on either side, a
    side's bigrams that the other lacks; the pairs one after another on one
    scratch (counts left in its tables would show in the next pair)."""
    rng = random.Random(" ".join(types))
    rows = [[], [4], [4, 4], [4, 5, 4], [4, 5, 4, 5, 4, 5], [5, 4, 5, 4], [9, 9, 9, 9]]
    rows += [[rng.randrange(6) for _ in range(rng.randint(0, 40))] for _ in range(20)]
    preds = [p for p in rows for _ in rows]
    targets = [t for _ in rows for t in rows]
    got = rougekit.score_ids(preds, targets, types, threads=1)
    for i, (pred, target) in enumerate(zip(preds, targets)):
        for t in types:
            score = (ref._score_lcs(target, pred) if t == "rougeL" else
                     ref._score_ngrams(ref._create_ngrams(target, int(t[5:])),
                                       ref._create_ngrams(pred, int(t[5:]))))
            assert [got[f"{t}_{m}"][i] for m in MEASURES] == list(score), (t, pred, target)


@pytest.mark.parametrize("ref_len", [32767, 32768, 65540])
def test_unigrams_of_long_references_are_counted_exactly(kernel, ref_len):
    """The compiled kernel's counts while numbering are int16: references of
    up to 32767 ids only; longer ones are counted by the overlap kernel. A
    reference of one id repeated ref_len times (past 65536, an int16 count
    would wrap to a small positive number, below the prediction's) and a
    bigram of it repeated, against a prediction holding both a few times."""
    pred = [5, 5, 6, 5, 5]
    target = [5] * (ref_len - 2) + [5, 6]
    got = rougekit.score_ids([pred], [target], ("rouge1", "rouge2"), threads=1)
    for n in (1, 2):
        expected = ref._score_ngrams(ref._create_ngrams(target, n), ref._create_ngrams(pred, n))
        assert [got[f"rouge{n}_{m}"][0] for m in MEASURES] == list(expected), n


def test_the_lcs_at_the_word_boundaries_of_its_bit_rows():
    """rougeL's bit-parallel LCS keeps a row in words over the shorter side:
    one word up to 64 ids, two (its own loops, a word each) up to 128, then
    the general loop. Every length pair around 64 and 128, each batch's
    pairs one after another on one scratch (a mask left set would show in
    the next pair), repeated ids on both sides; and pairs whose every LCS
    takes the first and the last id of each side (the shorter side within
    the longer, ids the shorter lacks around it)."""
    rng = random.Random(128)
    lengths = (63, 64, 65, 127, 128, 129)
    preds, targets = [], []
    for n in lengths:
        for m in lengths:
            preds.append([rng.randrange(12) for _ in range(n)])
            targets.append([rng.randrange(12) for _ in range(m)])
            if m < n:
                short = [rng.randrange(12) for _ in range(m)]
                cut = rng.randrange(n - m + 1)
                preds.append([99] * cut + short + [99] * (n - m - cut))
                targets.append(short)
    got = rougekit.score_ids(preds, targets, ["rougeL"], threads=1)
    for i, (pred, target) in enumerate(zip(preds, targets)):
        assert [got[f"rougeL_{m}"][i] for m in MEASURES] == list(ref._score_lcs(target, pred))


def test_threads_give_the_same_columns(kernel):
    rng = np.random.default_rng(3)
    n = sweep(3000, 800) if kernel == "compiled" else 200
    preds = rng.integers(0, 40, (n, 64), dtype=np.int32)
    refs = rng.integers(0, 40, (n, 64), dtype=np.int32)
    one = rougekit.score_ids(preds, refs, TYPES, pad_id=0, sentence_sep=1, threads=1)
    two = rougekit.score_ids(preds, refs, TYPES, pad_id=0, sentence_sep=1, threads=2)
    assert {k: v.tolist() for k, v in one.items()} == {k: v.tolist() for k, v in two.items()}


def test_columns_are_rows_of_one_array_as_score_columns():
    got = rougekit.score_ids([[1, 2]], [[2, 1]], ["rougeL", "rouge1"])
    assert list(got) == [f"{t}_{m}" for t in ("rougeL", "rouge1") for m in MEASURES]
    base = got["rougeL_precision"].base
    assert base is not None and base.flags.c_contiguous and base.shape == (6, 1)
    assert all(v.base is base for v in got.values())
    scorer = rougekit.rouge_scorer.RougeScorer(["rougeL", "rouge1"])
    assert list(scorer.score_columns(["a b"], ["b a"])) == list(got)


def test_no_pairs_give_empty_columns(kernel):
    got = rougekit.score_ids([], [], ["rouge1", "rougeLsum"])
    assert [v.shape for v in got.values()] == [(0,)] * 6
    got = rougekit.score_ids(np.zeros((0, 5), dtype=np.int64),
                             np.zeros((0, 2, 5), dtype=np.int32), ["rouge1"])
    assert [v.shape for v in got.values()] == [(0,)] * 3


def test_options_object_and_keywords(kernel):
    options = rougekit.ScoringOptions(rouge_types=["rouge2"], multi_ref="mean")
    a = rougekit.score_ids([[1, 2, 3]], [[[1, 2]], [[2, 3]]], options=options)
    b = rougekit.score_ids([[1, 2, 3]], [[[1, 2]], [[2, 3]]], ["rouge2"], multi_ref="mean")
    assert {k: v.tolist() for k, v in a.items()} == {k: v.tolist() for k, v in b.items()}
    with pytest.raises(ValueError, match="use_stemmer"):
        rougekit.score_ids([[1]], [[1]], options=rougekit.ScoringOptions(use_stemmer=True))
    with pytest.raises(ValueError, match="not both"):
        rougekit.score_ids([[1]], [[1]], ["rouge1"], options=options)


# --- in place ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_arrays_are_read_in_place(dtype):
    arr = np.random.default_rng(0).integers(0, 1000, (50, 40)).astype(dtype)
    view = DLPackOnly(arr)
    values, offsets = ragged([[1, 2], [3]], dtype)
    for given, owner in ((arr, arr), (view, arr), ((values, offsets), values),
                         (arr[:, :30], arr)):
        rows = ids._rows(given, "predictions", None)
        assert rows.values.__array_interface__["data"][0] == \
            owner.__array_interface__["data"][0]


@pytest.mark.parametrize("make", ["numpy", "dlpack"])
def test_a_large_padded_array_costs_no_copy(make):
    rng = np.random.default_rng(1)
    # 16 MiB a side (4 MiB on the pure backend, whose twin took 45 s for 16:
    # still twice the limit below for a copy of either side; there the rows are
    # padded after 64 ids, so the twin scores short rows of the large arrays).
    rows = 4000 if rougekit.BACKEND == "compiled" else 1000
    preds = rng.integers(1, 50_000, (rows, 512), dtype=np.int64)
    refs = rng.integers(1, 50_000, (rows, 512), dtype=np.int64)
    if rougekit.BACKEND != "compiled":
        preds[:, 64:] = refs[:, 64:] = 0
    if make == "dlpack":
        preds, refs = DLPackOnly(preds), DLPackOnly(refs)
    rougekit.score_ids(preds[:10] if make == "numpy" else [[1]], [[1]] * (10 if make ==
                       "numpy" else 1), ["rouge1"])          # warm up the pool
    tracemalloc.start()
    try:
        rougekit.score_ids(preds, refs, ["rouge1", "rouge2", "rougeL"], pad_id=0, threads=2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The output (9 columns of 4000 floats, 288 KB) and small change: not
    # the 32 MiB (pure: 8 MiB) of ids.
    assert peak < 2 * 2**20, peak


# --- bad input --------------------------------------------------------------------------

BAD = [
    (np.zeros((2, 3)), [[1]] * 2, TypeError, r"predictions must hold integer token ids, "
                                             r"not floats \(dtype float64\)"),
    (np.zeros((2, 3), dtype=bool), [[1]] * 2, TypeError, "predictions.*booleans"),
    ([[1]] * 2, np.zeros((2, 3), dtype=np.float32), TypeError, "references.*floats"),
    (np.zeros(3, dtype=np.int64), [[1]] * 3, ValueError, "predictions is a 1-D array"),
    (np.zeros((2, 2, 2), dtype=np.int64), [[1]] * 2, ValueError,
     "predictions must be a 2-D array.*not 3-D"),
    ([[1]] * 3, [[1]] * 2, ValueError, "predictions has 3 rows but references has 2"),
    ([[1]] * 3, np.zeros((2, 2, 2), dtype=np.int64), ValueError,
     "predictions has 3 rows but references has 2"),
    ([[1]] * 2, [[[1]] * 2, [[1]] * 3], ValueError,
     r"predictions has 2 rows but references\[1\] has 3"),
    ([[1, -5]], [[1]], ValueError, r"predictions\[0\]\[1\]: token id -5 is outside"),
    (np.array([[1, 2], [3, -1]], dtype=np.int32), [[1]] * 2, ValueError,
     r"predictions\[1\]\[1\]: token id -1"),
    ([[1]], np.array([[1, 2**31 - 1]]), ValueError,
     r"references\[0\]\[1\]: token id 2147483647 is outside \[0, 2147483647\)"),
    ([[1]], [[2**40]], ValueError, r"references\[0\]\[0\]: token id 1099511627776"),
    ([[1]], [[2**70]], ValueError, r"references\[0\]\[0\]: token id 1180591620717411303424"),
    ([[1]], np.array([[2**63]], dtype=np.uint64), ValueError, "references.*outside"),
    ([[1, 2.0]], [[1]], TypeError, r"predictions\[0\]\[1\] must be an int token id, not float"),
    (["a b"], [[1]], TypeError, r"predictions\[0\] is a str: score_ids takes token ids"),
    ([1, 2], [[1], [2]], TypeError, r"predictions\[0\] must be a sequence of token ids"),
    (5, [[1]], TypeError, "predictions must be a batch"),
    ((np.array([1, 2, 3]), np.array([0, 2, 1])), [[1]] * 2, ValueError,
     r"predictions: offsets must start at 0, never decrease.*offsets\[2\] is 1"),
    ((np.array([1, 2, 3]), np.array([0, 4])), [[1]], ValueError,
     r"offsets\[1\] is 4"),
    ((np.array([1, 2, 3]), np.array([0.0, 3.0])), [[1]], TypeError, r"offsets.*floats"),
    (DLPackOnly(np.zeros((1, 2), dtype=np.int64), device=(2, 0)), [[1]], ValueError,
     r"predictions is on a device other than the CPU \(DLPack device \(2, 0\): CUDA.*"
     r"tensor.cpu\(\)"),
]


@pytest.mark.parametrize("preds,refs,error,message", BAD,
                         ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_input_is_a_clear_error(kernel, preds, refs, error, message):
    with pytest.raises(error, match=message):
        rougekit.score_ids(preds, refs, ["rouge1", "rougeL"])


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(pad_id=1.5), TypeError, "pad_id must be an int or None"),
    (dict(pad_id=2**64), ValueError, r"pad_id must be in \[-9223372036854775808, 9223372036854775807\]"),
    (dict(sentence_sep="x"), TypeError, "sentence_sep must be an int"),
    (dict(sentence_sep=[1.0]), TypeError, "sentence_sep must be an int"),
    (dict(rouge_types=["rougeX"]), ValueError, "rougeX"),
    (dict(multi_ref="best"), ValueError, "unknown multi_ref policy"),
    (dict(threads=0), ValueError, "threads must be >= 1"),
])
def test_bad_options_are_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        rougekit.score_ids([[1]], [[1]], **kwargs)


def test_the_kernels_check_what_they_are_given(kernel):
    """The kernel itself refuses what would read outside its buffers."""
    k = _backend.ids_score
    rows = k.IdRows(np.array([1, 2, 3]), np.array([0, 3]), None, "r")
    out = np.zeros((3, 1))
    with pytest.raises(ValueError, match="outside the 1 reference rows"):
        k.score_rows(k.IdScratch(), rows, rows, (1,), None, None, 1, 0, 1, 0, 2, out, None,
                     None)
    with pytest.raises(ValueError, match="columns 5 .. 5 outside the 1 columns"):
        k.score_rows(k.IdScratch(), rows, rows, (1,), None, None, 1, 5, 1, 0, 1, out, None,
                     None)
    with pytest.raises(ValueError, match="is not one of its 1 rows"):
        k.score_rows(k.IdScratch(), rows, rows, (1,), None, np.array([3]), 1, 0, 1, 0, 1,
                     out, None, None)
    with pytest.raises(TypeError, match="native int32 or int64"):
        k.IdRows(np.array([[1.0]]), None, None, "r")
    with pytest.raises(ValueError, match="the values of a row must be contiguous"):
        k.IdRows(np.arange(12).reshape(3, 4)[:, ::2], None, None, "r")


def test_overlapping_broadcast_and_reversed_rows_are_read_in_place(kernel):
    """One reference for a whole group of completions (GRPO's G samples of a
    prompt) as np.broadcast_to, rows overlapping, rows reversed."""
    reference = np.array([3, 1, 4, 1, 5], dtype=np.int32)
    preds = [[3, 1, 4], [1, 5, 9, 2], [], [4, 1, 5, 3]]
    broadcast = np.broadcast_to(reference, (4, 5))
    overlapping = np.lib.stride_tricks.as_strided(np.arange(8), (4, 5), (8, 8))
    reversed_rows = padded(preds, -1, np.int64)[::-1]
    for refs, targets in ((broadcast, [reference.tolist()] * 4),
                          (overlapping, [list(range(i, i + 5)) for i in range(4)])):
        assert ids._rows(refs, "references", None).values.__array_interface__["data"][0] \
            == refs.__array_interface__["data"][0]
        got = rougekit.score_ids(preds, refs, TYPES, sentence_sep=SEP)
        assert_columns(got, expected_columns(preds, [[t] for t in targets], seps={SEP}))
    got = rougekit.score_ids(reversed_rows, broadcast, TYPES, pad_id=-1, sentence_sep=SEP)
    assert_columns(got, expected_columns(preds[::-1], [[reference.tolist()]] * 4, seps={SEP}))


@pytest.mark.parametrize("seed", range(examples(40)))
def test_random_garbage_never_crashes(kernel, seed):
    """Random shapes, dtypes, offsets and ids: a result or a clean error."""
    rng = np.random.default_rng(seed)
    dtype = rng.choice([np.int32, np.int64])
    n = int(rng.integers(0, 5))
    values = rng.integers(-3, 2**31 if dtype == np.int64 else 2**31 - 1, 20).astype(dtype)
    values[rng.random(20) < 0.7] %= 9
    offsets = np.sort(rng.integers(-2, 24, n + 1))
    for preds, refs in (((values, offsets), (values, offsets)),
                        (values[:n * 4].reshape(n, 4), values[-n * 4:].reshape(n, 4)
                         if n else np.zeros((0, 4), dtype=dtype))):
        try:
            rougekit.score_ids(preds, refs, TYPES, pad_id=int(rng.integers(-1, 3)),
                               sentence_sep=int(rng.integers(0, 4)))
        except (ValueError, TypeError):
            pass


def test_arrays_changed_while_being_scored_never_crash():
    """Another thread writes ids, pads and offsets into the arrays while the
    kernel reads them without the GIL: wrong numbers or a clean error, never a
    read or write outside a buffer (every index is bounded where it is read)."""
    import threading
    rng = np.random.default_rng(7)
    preds = rng.integers(0, 300, (400, 256), dtype=np.int64)
    values = rng.integers(0, 2**21, 400 * 64, dtype=np.int32)
    offsets = np.arange(0, 400 * 64 + 1, 64, dtype=np.int64)
    stop = threading.Event()

    def scribble():
        r = np.random.default_rng(8)
        while not stop.is_set():
            preds[r.integers(0, 400), r.integers(0, 256)] = r.choice([-5, 0, 2**31, 7])
            values[r.integers(0, len(values))] = r.choice([-1, 0, 2**31 - 1, 2**20, 3])
            offsets[r.integers(1, 400)] = r.integers(-10, len(values) + 10)

    writer = threading.Thread(target=scribble)
    writer.start()
    try:
        for _ in range(sweep(40, 10)):
            try:
                rougekit.score_ids(preds, (values, offsets), TYPES, pad_id=0, sentence_sep=7,
                                   threads=2)
            except ValueError:
                pass
    finally:
        stop.set()
        writer.join()


# --- PyTorch tensors ---------------------------------------------------------------------

@pytest.fixture
def torch():
    """PyTorch (skipped where absent, required under ROUGEKIT_REQUIRE_INTEGRATIONS)."""
    from _integrations import need
    return need("torch")


def _columns(result):
    return {k: v.tolist() for k, v in result.items()}


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_tensors_score_as_the_same_numpy_arrays(kernel, torch, dtype):
    """Padded 2-D tensors, (values, offsets) tensors, views that are not
    contiguous (column slices, every other id, transposed, every other row),
    3-D tensors of several references, lists of 1-D tensors: the columns of
    the same numpy arrays, which are rouge-score's."""
    rng = random.Random(dtype)
    preds = random_batch(rng, 9, 40, 30, (SEP,))
    refs = random_batch(rng, 9, 40, 30, (SEP,))
    more = random_batch(rng, 9, 40, 30, (SEP,))
    np_dtype = getattr(np, dtype)
    width = max(map(len, preds + refs + more)) + 1
    p, r = padded(preds, -1, np_dtype, width), padded(refs, -1, np_dtype, width)
    wide = np.concatenate([p, np.full_like(p, 7)], axis=1)
    three = np.stack([r, padded(more, -1, np_dtype, width)], axis=1)
    t = torch.from_numpy
    cases = [
        ((t(p), t(r)), (p, r)),
        ((tuple(map(t, ragged(preds, np_dtype))), tuple(map(t, ragged(refs, np_dtype)))),
         (ragged(preds, np_dtype), ragged(refs, np_dtype))),
        ((t(wide)[:, :p.shape[1]], t(r)), (p, r)),                       # rows apart
        ((t(np.repeat(p, 2, axis=1))[:, ::2], t(r)), (p, r)),            # ids apart
        ((t(np.ascontiguousarray(p.T)).T, t(np.ascontiguousarray(r.T)).T), (p, r)),
        ((t(np.repeat(p, 2, axis=0))[::2], t(r)), (p, r)),               # every other row
        ((t(p), t(three)), (p, three)),                                  # 3-D references
        (([t(np.array(x, dtype=np_dtype)) for x in preds], t(r)), (p, r)),
    ]
    expected = expected_columns(preds, [[x] for x in refs], seps={SEP})
    for (tp, tr), (np_p, np_r) in cases:
        got = rougekit.score_ids(tp, tr, TYPES, pad_id=-1, sentence_sep=SEP)
        assert _columns(got) == _columns(rougekit.score_ids(np_p, np_r, TYPES, pad_id=-1,
                                                            sentence_sep=SEP))
        if np_r is r:
            assert_columns(got, expected)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_contiguous_tensors_are_read_where_they_lie(kernel, torch, dtype):
    """A contiguous tensor (padded, or the values of a ragged pair) and a row
    slice of one are not copied: the rows the kernel reads start at the
    tensor's data pointer, and ids written into the tensor after the rows
    were made are what the kernel scores (a copy would still hold the old
    ids)."""
    k = _backend.ids_score
    tensor = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=getattr(torch, dtype))
    values = torch.tensor([1, 2, 3, 4, 5], dtype=getattr(torch, dtype))
    offsets = torch.tensor([0, 2, 5], dtype=torch.int64)
    wide = torch.zeros((2, 9), dtype=getattr(torch, dtype))
    wide[:, :4] = tensor
    target_rows = ids._rows([[1, 2, 3, 4], [5, 6, 7, 8]], "references", None)
    for given, memory in ((tensor, tensor), ((values, offsets), values),
                          (wide[:, :4], wide)):
        rows = ids._rows(given, "predictions", None)
        assert rows.values.__array_interface__["data"][0] == memory.data_ptr()
        out = np.zeros((3, 2))
        k.score_rows(k.IdScratch(), rows, target_rows, (1,), None, None, 1, 0, 1, 0, 2, out,
                     None, None)
        before = out[2].tolist()
        memory.fill_(99)                       # no id of the references
        k.score_rows(k.IdScratch(), rows, target_rows, (1,), None, None, 1, 0, 1, 0, 2, out,
                     None, None)
        assert before != [0.0, 0.0] and out[2].tolist() == [0.0, 0.0]


def test_a_tensor_off_the_cpu_is_an_error_naming_its_device(torch):
    class CudaTensor(DLPackOnly):
        """What a CUDA tensor reports (none can be made here)."""

        def __dlpack_device__(self):
            return (2, 1)

    cuda = CudaTensor(np.zeros((2, 3), dtype=np.int64))
    cuda.device = "cuda:1"
    with pytest.raises(ValueError, match=r"^predictions is on a device other than the CPU "
                       r"\(DLPack device \(2, 1\): CUDA; its device: cuda:1\): score_ids "
                       r"reads CPU memory; move it first \(PyTorch: tensor.cpu\(\)"):
        rougekit.score_ids(cuda, [[1]] * 2)
    with pytest.raises(ValueError, match=r"references\[1\] is on .*DLPack device \(2, 1\)"):
        rougekit.score_ids([[1]] * 2, [[[1]] * 2, cuda])
    # torch's own refusal: a "meta" tensor has no memory to export
    meta = torch.zeros((2, 3), dtype=torch.int64, device="meta")
    with pytest.raises(ValueError, match=r"^references is not in CPU memory \(.*meta.*"
                       r"its device: meta\): score_ids reads CPU memory"):
        rougekit.score_ids([[1]] * 2, meta)


@pytest.mark.skipif(SANITIZED, reason="torch's C++ exception aborts under ASan's preloaded "
                    "__cxa_throw interceptor (no kernel on this path)")
def test_a_tensor_numpy_cannot_read_is_an_error_naming_the_argument(torch):
    """A sparse tensor, or one that requires grad, exports neither through
    DLPack nor ``__array__``: one line naming the argument, with torch's
    reason (not torch's own error)."""
    sparse = torch.ones((2, 3), dtype=torch.int64).to_sparse()
    with pytest.raises(TypeError, match=r"^predictions cannot be read as an array of token "
                       r"ids \(TypeError: can't convert Sparse layout tensor to numpy"):
        rougekit.score_ids(sparse, [[1]] * 2)
    grad = torch.ones((2, 3), requires_grad=True)
    with pytest.raises(TypeError, match=r"^references cannot be read as an array of token "
                       r"ids \(RuntimeError: .*requires grad") as error:
        rougekit.score_ids([[1]] * 2, grad)
    assert "\n" not in str(error.value)


def test_return_tensors_pt_shares_the_columns_memory(torch):
    preds = np.array([[1, 2, 3, 0], [4, 5, 0, 0], [1, 1, 1, 1]])
    refs = [[1, 2], [5, 4, 6], [1]]
    arrays = rougekit.score_ids(preds, refs, ["rouge1", "rougeL"], pad_id=0)
    assert _columns(rougekit.score_ids(preds, refs, ["rouge1", "rougeL"], pad_id=0,
                                       return_tensors="np")) == _columns(arrays)
    tensors = rougekit.score_ids(preds, refs, ["rouge1", "rougeL"], pad_id=0,
                                 return_tensors="pt")
    assert list(tensors) == list(arrays)
    assert all(isinstance(v, torch.Tensor) and v.dtype == torch.float64 and v.shape == (3,)
               for v in tensors.values())
    assert _columns(tensors) == _columns(arrays)
    # the rows of one block of memory, as the arrays: no copy
    first = next(iter(tensors.values())).data_ptr()
    assert [v.data_ptr() - first for v in tensors.values()] == [24 * i for i in range(6)]
    # each tensor over its array's memory (the arrays score_ids made)
    block = np.arange(6.0).reshape(2, 3)
    shared = ids._as_tensors({"a": block[0], "b": block[1]}, "pt")
    assert [v.data_ptr() for v in shared.values()] == \
        [block[i].__array_interface__["data"][0] for i in (0, 1)]
    with pytest.raises(ValueError, match="return_tensors must be None, 'np' or 'pt', not 'tf'"):
        rougekit.score_ids(preds, refs, return_tensors="tf")


def test_return_tensors_pt_without_torch_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(ImportError, match="return_tensors='pt' returns PyTorch tensors: "
                       "pip install 'rougekit\\[torch\\]'"):
        rougekit.score_ids([[1]], [[1]], return_tensors="pt")


# --- careless and hostile input: refused, with plain numbers in the message --------------

def test_bools_in_a_list_are_no_token_ids():
    with pytest.raises(TypeError, match=r"^predictions\[0\]\[0\] must be an int token id, "
                                        r"not bool$"):
        score_ids([[True, 2]], [[1, 2]], ["rouge1"])
    with pytest.raises(TypeError, match=r"references\[1\]\[0\] must be an int token id, "
                                        r"not bool"):
        score_ids([[1], [2]], [[1], [np.bool_(True)]], ["rouge1"])


@pytest.mark.parametrize("offsets,where", [([0, 2], "offsets[1] is 2"),
                                           ([1, 3], "offsets[0] is 1"),
                                           ([0, 2, 1, 3], "offsets[2] is 1"),
                                           ([0, 4], "offsets[1] is 4")])
def test_ragged_offsets_follow_arrows_rule(offsets, where):
    with pytest.raises(ValueError, match=r"offsets must start at 0, never decrease and end "
                                         r"at len\(values\) = 3 \(Arrow's rule\); "
                                         + re.escape(where)):
        score_ids((np.array([7, 8, 9]), np.array(offsets)), [[7]] * (len(offsets) - 1),
                  ["rouge1"])


def test_offsets_are_called_offsets():
    huge = np.array([0, 2 ** 63 + 5], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"\[1\] \(offsets\)\[1\]: offset 9223372036854775813 "
                                         r"is outside"):
        score_ids((np.array([1, 2], dtype=np.int64), huge), [[1]], ["rouge1"])


def test_a_sequence_whose_len_lies_is_read_as_it_iterates():
    class Liar(list):
        def __len__(self):
            return 1

    class Short:
        def __len__(self):
            return 5

        def __iter__(self):
            return iter([1, 2])

    got = score_ids([Liar([1, 2, 3]), Short()], [[1], [2]], ["rouge1"])
    want = score_ids([[1, 2, 3], [1, 2]], [[1], [2]], ["rouge1"])
    assert {k: v.tolist() for k, v in got.items()} == {k: v.tolist() for k, v in want.items()}


def test_numbers_in_messages_are_plain_integers():
    with pytest.raises(ValueError) as info:
        score_ids(np.array([[2 ** 40]], dtype=np.uint64), [[1]], ["rouge1"])
    assert str(info.value).startswith("predictions[0, 0]: token id 1099511627776 is outside")
    assert "np." not in str(info.value)


def test_a_dlpack_device_that_is_not_two_integers_is_named():
    class Odd:
        def __dlpack__(self, **kwargs):
            raise AssertionError("not reached")

        def __dlpack_device__(self):
            return ("cpu", 0)

    with pytest.raises(TypeError, match=r"^predictions.__dlpack_device__\(\) returned "
                                        r"\('cpu', 0\), not DLPack's \(device type, device "
                                        r"id\) pair of integers$"):
        score_ids(Odd(), [[1]], ["rouge1"])


def test_a_dlpack_export_that_is_no_capsule_is_a_clear_error():
    class NotACapsule:
        def __dlpack__(self, **kwargs):
            return 5

        def __dlpack_device__(self):
            return (1, 0)

    with pytest.raises(TypeError, match=r"^predictions: its DLPack export failed .*its "
                                        r"__dlpack__\(\) must return a DLPack capsule$"):
        score_ids(NotACapsule(), [[1]], ["rouge1"])
