"""The shared interval estimates (``toolkit._stats``) against scipy and against their definitions."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from toolkit._stats import normal_quantile, ratio_interval, wilson_interval

CONFIDENCES = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)
TRIALS = (1, 2, 3, 7, 10, 31, 100, 1000, 12_345, 1_000_000)


@pytest.mark.parametrize("confidence", CONFIDENCES)
def test_normal_quantile_is_scipys(confidence: float) -> None:
    """The standard library's inverse normal (Wichura's AS 241) and scipy's agree to a unit in the last place."""
    assert normal_quantile(confidence) == pytest.approx(scipy.stats.norm.ppf(0.5 + confidence / 2), rel=4e-16)
    assert normal_quantile(confidence) == pytest.approx(-scipy.stats.norm.ppf((1 - confidence) / 2), rel=1e-12)


@pytest.mark.parametrize("bad", [0, 1, -0.5, 1.5])
def test_normal_quantile_refuses_a_confidence_outside_zero_one(bad: float) -> None:
    with pytest.raises(ValueError, match="confidence must lie in"):
        normal_quantile(bad)


@pytest.mark.parametrize("confidence", CONFIDENCES)
@pytest.mark.parametrize("n", TRIALS)
def test_wilson_interval_is_scipys_binomtest_wilson(n: int, confidence: float) -> None:
    """Every k of small n, and a spread of k (ends included) for large n: the same interval to rounding."""
    ks = np.arange(n + 1) if n <= 100 else np.unique(np.r_[0, 1, 2, n // 3, n // 2, n - 2, n - 1, n])
    lo, hi = wilson_interval(ks, np.full(len(ks), n), confidence)
    for k, low, high in zip(ks, lo, hi, strict=True):
        ci = scipy.stats.binomtest(int(k), n).proportion_ci(confidence, method="wilson")
        assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-12, abs=1e-15), (int(k), n)
        # scalar arguments give the same interval as arrays
        assert wilson_interval(int(k), n, confidence) == pytest.approx((low, high), rel=0, abs=0)
    # the ends are exact, as in scipy: 0 when no success, 1 when every trial succeeded
    assert lo[0] == 0
    assert hi[-1] == 1


def test_wilson_interval_holds_the_proportion_and_is_nan_without_trials() -> None:
    k, n = np.array([0, 3, 10, 0]), np.array([10, 10, 10, 0])
    lo, hi = wilson_interval(k, n)
    assert np.all(lo[:3] <= k[:3] / n[:3])
    assert np.all(k[:3] / n[:3] <= hi[:3])
    assert lo[0] == 0
    assert hi[2] == 1
    assert np.isnan(lo[3])
    assert np.isnan(hi[3])


def test_ratio_interval_is_the_delta_method_interval_of_a_ratio_of_sums() -> None:
    rng = np.random.default_rng(4)
    t = rng.integers(50, 80, 500).astype(float)
    a = rng.binomial(t.astype(int), 0.3).astype(float)
    r, lo, hi = ratio_interval(a.sum(), t.sum(), (a * a).sum(), (a * t).sum(), (t * t).sum(), len(a))
    assert r == pytest.approx(a.sum() / t.sum())
    resid = a - r * t
    se = np.sqrt((resid**2).sum() / len(a) / (len(a) - 1)) / t.mean()
    assert (lo, hi) == pytest.approx((r - 1.959963984540054 * se, r + 1.959963984540054 * se))
    zero = np.zeros(1)
    r0, lo0, hi0 = ratio_interval(zero, zero, zero, zero, zero, 10)
    assert np.isnan(r0)
    assert np.isnan(lo0)
    assert np.isnan(hi0)
