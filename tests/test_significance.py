"""Paired significance tests (rougekit.significance) on data whose answer is known."""
import numpy as np
import pytest

from rougekit import score_corpus
from rougekit.significance import (
    PairedBootstrap,
    approximate_randomization,
    bootstrap_interval,
    paired_bootstrap,
)


def noisy(n=60, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.random(n)
    return a, np.clip(a + rng.normal(0.02, 0.1, n), 0, 1)


# --- known answers ---------------------------------------------------------------

def test_identical_systems():
    a = np.random.default_rng(1).random((40, 3))
    boot = paired_bootstrap(a, a.copy(), n_resamples=200, seed=0)
    assert np.all(boot.diff == 0) and np.all(boot.low == 0) and np.all(boot.high == 0)
    assert np.all(boot.p_value == 1)
    assert np.all(approximate_randomization(a, a.copy(), n_trials=500, seed=0) == 1)


@pytest.mark.parametrize("n_trials", [1, 99, 1000])
def test_better_on_every_item(n_trials):
    rng = np.random.default_rng(2)
    a = rng.random(50) * 0.5
    b = a + 0.01 + rng.random(50) * 0.3           # B > A on each of 50 items
    # Only the all-swapped trial ties (probability 2**-50): p is the minimum.
    assert approximate_randomization(a, b, n_trials=n_trials, seed=3) == 1 / (n_trials + 1)
    boot = paired_bootstrap(a, b, n_resamples=500, seed=3)
    assert boot.p_value == 0.0
    assert 0 < boot.low <= boot.diff <= boot.high
    assert boot.diff == pytest.approx(b.mean() - a.mean())
    # And the other way round: the same p-values, the difference negated.
    assert approximate_randomization(b, a, n_trials=n_trials, seed=3) == 1 / (n_trials + 1)
    back = paired_bootstrap(b, a, n_resamples=500, seed=3)
    assert back.p_value == 0.0 and back.diff == pytest.approx(-boot.diff)
    assert back.high < 0


def test_ar_matches_the_exact_permutation_distribution():
    # d = (1, 1, 1): of the 8 sign patterns only +++ and --- reach |sum| = 3,
    # so the exact p is 1/4; with 20000 trials AR is within a few 0.001.
    p = approximate_randomization([0, 0, 0], [1, 1, 1], n_trials=20000, seed=4)
    assert abs(p - 0.25) < 0.015


def test_one_item_can_never_be_significant():
    # Swapping a single item only flips the sign: every trial ties.
    assert approximate_randomization([0.1], [0.9], n_trials=50, seed=0) == 1.0
    assert paired_bootstrap([0.1], [0.9], n_resamples=50, seed=0).p_value == 0.0


def test_bootstrap_p_counts_resamples_where_the_sign_does_not_hold():
    a, b = noisy()
    boot = paired_bootstrap(a, b, n_resamples=300, seed=5)
    # Recompute Koehn's p-value from the documented draws.
    d = b - a
    rng = np.random.default_rng(5)
    means = np.array([d[rng.integers(0, len(d), size=len(d))].mean() for _ in range(300)])
    expected = (means <= 0).mean() if d.mean() > 0 else (means >= 0).mean()
    assert boot.p_value == expected
    low, high = np.quantile(means, [0.025, 0.975])
    # (numpy sums a column of an (n, 1) matrix in another order: last-bit noise)
    assert (boot.low, boot.high) == pytest.approx((low, high), rel=1e-12)


def test_columns_are_tested_as_if_alone():
    a, b = noisy()
    a2, b2 = np.column_stack([a, 1 - a]), np.column_stack([b, 1 - b])
    joint = paired_bootstrap(a2, b2, n_resamples=200, seed=6)
    alone = paired_bootstrap(a, b, n_resamples=200, seed=6)
    assert joint.p_value[0] == alone.p_value and joint.low[0] == alone.low
    ar_joint = approximate_randomization(a2, b2, n_trials=300, seed=6)
    assert ar_joint[0] == approximate_randomization(a, b, n_trials=300, seed=6)
    # Column 2 is column 1 mirrored: same two-sided AR p-value.
    assert ar_joint[1] == ar_joint[0]
    assert isinstance(alone.p_value, float) and isinstance(alone, PairedBootstrap)


def test_seeds_reproduce_and_differ():
    a, b = noisy(n=30, seed=7)
    assert paired_bootstrap(a, b, seed=8) == paired_bootstrap(a, b, seed=8)
    assert approximate_randomization(a, b, n_trials=999, seed=8) == \
        approximate_randomization(a, b, n_trials=999, seed=8)
    assert approximate_randomization(a, b, n_trials=999, seed=8) != \
        approximate_randomization(a, b, n_trials=999, seed=9)


def test_ar_blocks_do_not_change_the_draws(monkeypatch):
    from rougekit import significance
    a, b = noisy(n=20, seed=10)
    whole = approximate_randomization(a, b, n_trials=1000, seed=11)
    # Several small blocks draw the same stream of signs as one big block.
    monkeypatch.setattr(significance, "_AR_BLOCK_CELLS", 20 * 7)
    assert approximate_randomization(a, b, n_trials=1000, seed=11) == whole


def test_bootstrap_interval_equals_score_corpus():
    cands = ["the cat sat on the mat", "a dog", "it rained all day long", "hello world",
             "one two three four", "nothing matches here"]
    refs = [["the cat lay on a mat"], ["a big dog"], ["rain all day"], ["hello there world"],
            ["one two four"], ["entirely different"]]
    types = ["rouge1", "rougeL"]
    result = score_corpus(cands, refs, types, bootstrap=250, confidence=0.9, seed=12)
    matrix = [[x for t in types for x in item[t]] for item in result.per_item]
    low, high = bootstrap_interval(matrix, 250, 0.9, 12)
    for k, t in enumerate(types):
        assert tuple(low[3 * k:3 * k + 3]) == tuple(result.intervals[t].low)
        assert tuple(high[3 * k:3 * k + 3]) == tuple(result.intervals[t].high)


# --- argument validation -----------------------------------------------------------

@pytest.mark.parametrize("call,error", [
    (lambda: paired_bootstrap([1, 2], [1, 2, 3]), ValueError),
    (lambda: paired_bootstrap([], []), ValueError),
    (lambda: paired_bootstrap([[[1]]], [[[1]]]), ValueError),
    (lambda: paired_bootstrap([1, float("nan")], [1, 2]), ValueError),
    (lambda: paired_bootstrap([1], [1], n_resamples=0), ValueError),
    (lambda: paired_bootstrap([1], [1], n_resamples=2.5), TypeError),
    (lambda: paired_bootstrap([1], [1], n_resamples=True), TypeError),
    (lambda: paired_bootstrap([1], [1], confidence=1.5), ValueError),
    (lambda: paired_bootstrap([1], [1], confidence=float("nan")), ValueError),
    (lambda: paired_bootstrap([1], [1], confidence="0.9"), TypeError),
    (lambda: paired_bootstrap([1], [1], seed=-1), ValueError),
    (lambda: paired_bootstrap([1], [1], seed=1.0), TypeError),
    (lambda: approximate_randomization([1, 2], [[1], [2]]), ValueError),
    (lambda: approximate_randomization([1], [1], n_trials=0), ValueError),
    (lambda: approximate_randomization([1], [1], n_trials="10"), TypeError),
    (lambda: approximate_randomization([1], [1], seed=-3), ValueError),
    (lambda: approximate_randomization([1], [float("inf")]), ValueError),
    (lambda: bootstrap_interval([1.0, 2.0]), ValueError),
    (lambda: bootstrap_interval([[1.0]], n_resamples=-1), ValueError),
])
def test_argument_validation(call, error):
    with pytest.raises(error):
        call()
