"""Interval estimates the studies and the counting harness share (the normal quantile from the standard library).

>>> lo, hi = wilson_interval(0, 1000)
>>> float(lo), round(float(hi), 5)
(0.0, 0.00383)
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Self

import numpy as np

__all__ = ["ArraySums", "normal_quantile", "ratio_interval", "wilson_interval"]


class ArraySums:
    """Named arrays that add, block after block: the state of a streaming tally (``max_*`` arrays take the larger).

    A study's tally subclasses it and says which arrays it holds; merging is the same for every study.

    >>> a = ArraySums({"n": np.array([2]), "max_x": np.array([1.0])})
    >>> b = a.merged(ArraySums({"n": np.array([3]), "max_x": np.array([4.0])}))
    >>> b.arrays["n"].tolist(), b.arrays["max_x"].tolist(), b.equals(a)
    ([5], [4.0], False)
    """

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.arrays = arrays

    def merged(self, other: Self) -> Self:
        """The sum of two tallies of one study (maxima: the larger)."""
        if self.arrays.keys() != other.arrays.keys():
            raise ValueError("cannot merge tallies of different studies (their arrays differ)")
        out = {}
        for key, a in self.arrays.items():
            b = other.arrays[key]
            if a.shape != b.shape:
                raise ValueError(f"cannot merge tallies of different studies: {key} is {a.shape} and {b.shape}")
            out[key] = np.maximum(a, b) if key.startswith("max_") else a + b
        return type(self)(out)

    def equals(self, other: ArraySums) -> bool:
        """Bit-for-bit equality of every array."""
        return self.arrays.keys() == other.arrays.keys() and all(
            np.array_equal(a, other.arrays[k]) for k, a in self.arrays.items()
        )


def normal_quantile(confidence: float) -> float:
    """The two-sided standard normal quantile ``z`` of a ``confidence`` interval (1.96 for 0.95)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for binomial proportions, vectorised; NaN where ``trials`` is 0.

    The same interval as ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``
    (Wilson 1927), for whole arrays at once (equal to rounding; exactly 0 at
    ``k = 0`` and 1 at ``k = n``, as there).
    """
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    z = normal_quantile(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        lo = np.where(k == 0, 0.0, np.clip(centre - half, 0, 1))
        hi = np.where(k == n, 1.0, np.clip(centre + half, 0, 1))
    return np.where(n > 0, lo, np.nan), np.where(n > 0, hi, np.nan)


def ratio_interval(sum_a, sum_t, sum_aa, sum_at, sum_tt, n, confidence: float = 0.95):
    """Ratio ``sum(A) / sum(T)`` over ``n`` independent shoes, with a delta-method interval clipped to [0, 1].

    ``Var(R) ~ Var(A - R T) / (n mean(T)^2)``.
    """
    z = normal_quantile(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = sum_a / sum_t
        resid = (sum_aa - 2 * r * sum_at + r * r * sum_tt) / n  # mean of (A - R T)^2; mean of A - R T is 0
        se = np.sqrt(np.maximum(resid, 0) / (n - 1)) / (sum_t / n)
        lo, hi = np.clip(r - z * se, 0, 1), np.clip(r + z * se, 0, 1)
    ok = sum_t > 0
    return np.where(ok, r, np.nan), np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def mean_interval(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean of independent values (shoes) with its normal interval: ``(mean, low, high)``, nan bounds for one.

    >>> mean_interval(np.array([1.0, 2.0, 3.0]), 0.95)[0]
    2.0
    """
    n = len(values)
    mean = float(np.mean(values))
    if n < 2:
        return mean, float("nan"), float("nan")
    half = normal_quantile(confidence) * float(np.std(values, ddof=1)) / np.sqrt(n)
    return mean, mean - half, mean + half
