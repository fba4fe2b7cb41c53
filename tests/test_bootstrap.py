"""rougekit._bootstrap: the one home of resampling.

Resample r draws ``default_rng(seed).integers(0, n, size=n)`` (in order, one
call per resample), and each resampled column mean is the float nearest the
exact mean of the drawn values: checked here against ``fractions`` on the
draws made by the test itself, including the paths that only large inputs
take (several blocks, chunks crowded with draws), which the test reaches by
shrinking the module's block and chunk sizes.
"""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _helpers import examples
from rougekit import _bootstrap, significance
from rougekit.corpus import score_corpus

pytestmark = [pytest.mark.kernel, pytest.mark.simd]


def reference_means(matrix, n_resamples, seed):
    """Draw as documented; average exactly."""
    rng = np.random.default_rng(seed)
    n = len(matrix)
    out = []
    for _ in range(n_resamples):
        rows = matrix[rng.integers(0, n, size=n)]
        out.append([float(sum(map(Fraction, map(float, col))) / n) for col in rows.T])
    return np.array(out).reshape(n_resamples, matrix.shape[1])


VALUES = st.one_of(st.floats(0, 1), st.floats(-1e6, 1e6),
                   st.sampled_from([0.0, 5e-324, -5e-324, 1e-300, 1e300, 1 / 3]))


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 25), st.integers(1, 3), st.data())
def test_each_resampled_mean_is_the_exact_mean_of_the_draws(n, k, data):
    matrix = np.array(data.draw(st.lists(VALUES, min_size=n * k, max_size=n * k))).reshape(n, k)
    seed = data.draw(st.integers(0, 2**32))
    got = _bootstrap.resampled_means(matrix, 9, np.random.default_rng(seed))
    assert got.tolist() == reference_means(matrix, 9, seed).tolist()


def test_rouge_like_columns_many_rows():
    rng = np.random.default_rng(5)
    hits = rng.integers(0, 40, size=(3000, 6))
    matrix = hits / rng.integers(40, 400, size=(3000, 6))
    matrix[::7] = 0.0
    got = _bootstrap.resampled_means(matrix, 5, np.random.default_rng(11))
    assert got.tolist() == reference_means(matrix, 5, 11).tolist()


@pytest.mark.parametrize("chunk_rows,chunk_draws,block_cells", [
    (4, 2, 1 << 22),       # every chunk crowded: the Python-int path
    (2, 8, 1 << 22),       # tiny chunks, some crowded
    (512, 2048, 50),       # one resample per block: many blocks
])
def test_chunking_and_blocks_do_not_change_the_floats(monkeypatch, chunk_rows, chunk_draws,
                                                      block_cells):
    rng = np.random.default_rng(2)
    matrix = rng.random((40, 3)) * [1.0, 1e-9, 1e9]
    want = reference_means(matrix, 13, 3)
    monkeypatch.setattr(_bootstrap, "_CHUNK_ROWS", chunk_rows)
    monkeypatch.setattr(_bootstrap, "_CHUNK_DRAWS", chunk_draws)
    monkeypatch.setattr(_bootstrap, "_BLOCK_CELLS", block_cells)
    got = _bootstrap.resampled_means(matrix, 13, np.random.default_rng(3))
    assert got.tolist() == want.tolist()


def test_a_column_is_resampled_as_if_alone():
    rng = np.random.default_rng(8)
    matrix = rng.random((500, 4))
    together = _bootstrap.resampled_means(matrix, 50, np.random.default_rng(1))
    for j in range(4):
        alone = _bootstrap.resampled_means(matrix[:, j:j + 1], 50, np.random.default_rng(1))
        assert alone[:, 0].tolist() == together[:, j].tolist()


def test_progress_reports_every_block_up_to_the_total(monkeypatch):
    monkeypatch.setattr(_bootstrap, "_BLOCK_CELLS", 100)      # 100 // 30 = 3 per block
    seen = []
    _bootstrap.resampled_means(np.ones((30, 2)), 10, np.random.default_rng(0), seen.append)
    assert seen == [3, 6, 9, 10]


def test_zero_columns_and_one_row():
    got = _bootstrap.resampled_means(np.array([[0.0, 0.25, -0.0]]), 4, np.random.default_rng(0))
    assert got.tolist() == [[0.0, 0.25, 0.0]] * 4


def test_score_corpus_intervals_are_quantiles_of_the_exact_means():
    cands = ["the cat sat on the mat", "a dog", "police killed the gunman", "", "x y z"] * 8
    refs = [["the cat is on the mat", "a cat"], "the dog barked", "the gunman was killed",
            "nothing", ["x", "y z"]] * 8
    result = score_corpus(cands, refs, ["rouge1", "rougeL"], bootstrap=200, seed=4)
    columns = np.array([[x for t in ("rouge1", "rougeL") for x in item[t]]
                        for item in result.per_item])
    means = reference_means(columns, 200, 4)
    low, high = np.quantile(means, [(1 - 0.95) / 2, (1 + 0.95) / 2], axis=0)
    for k, t in enumerate(["rouge1", "rougeL"]):
        assert list(result.intervals[t].low) == low[3 * k:3 * k + 3].tolist()
        assert list(result.intervals[t].high) == high[3 * k:3 * k + 3].tolist()
    # significance.bootstrap_interval draws the same resamples.
    assert [x.tolist() for x in significance.bootstrap_interval(columns, 200, seed=4)] == \
        [low.tolist(), high.tolist()]


def test_paired_bootstrap_resamples_the_differences_exactly():
    rng = np.random.default_rng(3)
    a, b = rng.random(300), rng.random(300)
    result = significance.paired_bootstrap(a, b, n_resamples=100, seed=9)
    means = reference_means((b - a).reshape(-1, 1), 100, 9)[:, 0]
    low, high = np.quantile(means, [(1 - 0.95) / 2, (1 + 0.95) / 2])
    assert (result.low, result.high) == (low, high)
    tol = 1e-9 * np.abs(b - a).mean()
    not_better = (means <= tol).sum() if result.diff > tol else (means >= -tol).sum()
    assert result.p_value == not_better / 100
