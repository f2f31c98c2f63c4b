"""Interval estimates shared by the studies and the counting harness (``toolkit._stats``)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from toolkit._stats import wilson_interval


def test_wilson_interval_matches_scipy() -> None:
    for k, n in ((0, 10), (3, 10), (10, 10), (7, 12345), (500, 1000)):
        lo, hi = wilson_interval(k, n)
        ci = scipy.stats.binomtest(k, n).proportion_ci(method="wilson")
        assert (float(lo), float(hi)) == pytest.approx((ci.low, ci.high), abs=1e-12)
    lo, hi = wilson_interval(0, 0)
    assert np.isnan(lo)
    assert np.isnan(hi)
