r"""Lundberg's formulas: the adjustment coefficient ``R`` of a walk, and from it ruin, the goal and the trip risk.

For i.i.d. steps ``X`` with a positive mean and some chance of a loss, ``R > 0``
solves ``E[exp(-R X)] = 1``; ``exp(-R S_t)`` is then a martingale of the
bankroll ``S_t``, which gives

* :func:`ruin_lundberg`: ``exp(-R B)``, a bound on the risk of ruin (and its
  leading term, Cramér-Lundberg), whatever the law of a step: unlike the
  diffusion formula it sees the skew of a 40:1 payout;
* :func:`goal_lundberg`: Wald's ``(1 - exp(-R B)) / (1 - exp(-R G))``;
* :func:`trip_ruin_lundberg`: the finite-horizon bound ``min over r >= R of exp(-r B) E[exp(-r X)]^T``.

References
----------
F. Lundberg (1903); H. Cramér (1930).
S. Asmussen and H. Albrecher, *Ruin Probabilities*, 2nd ed. (2010).
A. Wald, *Sequential Analysis* (1947).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.optimize
import scipy.special

from toolkit._check import positive_int
from toolkit.sizing._args import positive

__all__ = ["adjustment_coefficient", "goal_lundberg", "ruin_lundberg", "trip_ruin_lundberg"]


def adjustment_coefficient(values: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Lundberg's adjustment coefficient ``R > 0`` of i.i.d. steps: ``E[exp(-R X)] = 1`` (0 if the mean <= 0).

    Parameters
    ----------
    values
        Step values (results per shoe).
    weights
        Probability of each value (default: each equally likely).

    Returns
    -------
    float
        ``R``.

    References
    ----------
    Lundberg (1903); Feller, *An Introduction to Probability Theory and Its Applications*, vol. 2 (1971).

    Examples
    --------
    >>> round(adjustment_coefficient(np.array([1.0, -1.0, 1.0])), 4)
    0.6931
    >>> round(adjustment_coefficient(np.array([1.0, -1.0]), np.array([2 / 3, 1 / 3])), 4)
    0.6931
    """
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1 or len(x) < 2 or not np.all(np.isfinite(x)):
        raise ValueError("adjustment_coefficient needs at least two finite values")
    p = np.full(len(x), 1 / len(x)) if weights is None else np.asarray(weights, dtype=np.float64)
    if p.shape != x.shape or np.any(p < 0) or abs(p.sum() - 1) > 1e-9:
        raise ValueError("adjustment_coefficient: weights must be one probability per value, summing to 1")
    if p @ x <= 0:
        return 0.0
    if x[p > 0].min() >= 0:
        return math.inf
    scale = float(-x[p > 0].min())

    def h(r: float) -> float:
        return float(np.log(p @ np.exp(-r * x / scale)))  # in units of the largest loss

    hi = 1.0
    while h(hi) < 0:
        hi *= 2
    return float(scipy.optimize.brentq(h, 1e-12 * hi if h(1e-12 * hi) < 0 else 1e-300, hi, xtol=1e-14)) / scale


def ruin_lundberg(values: np.ndarray, bankroll: float, weights: np.ndarray | None = None) -> float:
    """Lundberg's bound on the risk of ruin with no time limit, ``exp(-R B)`` (1 when the mean is <= 0).

    The bound holds for a walk checked at the end of each step (each shoe);
    for the sizes of shoe results met in practice against a bankroll it is
    also the leading term of the risk (Cramér-Lundberg: the risk is ``C exp(-R B)``
    with ``C <= 1``).

    Parameters
    ----------
    values
        Step values (results per shoe).
    bankroll
        Bankroll.
    weights
        Probability of each value (default: each equally likely).

    Returns
    -------
    float
        ``exp(-R B)``.

    References
    ----------
    Asmussen & Albrecher, *Ruin Probabilities* (2nd ed., 2010), ch. IV.

    Examples
    --------
    >>> round(ruin_lundberg(np.array([1.0, -1.0, 1.0]), 3), 6)  # the gambler's ruin, (1/2)^3
    0.125
    """
    b = positive(bankroll, "bankroll")
    r = adjustment_coefficient(values, weights)
    return 1.0 if r == 0 else math.exp(-r * b)


def goal_lundberg(values: np.ndarray, bankroll: float, goal: float, weights: np.ndarray | None = None) -> float:
    """Wald's approximation with Lundberg's ``R``: ``(1 - e^{-R B}) / (1 - e^{-R G})``, the goal before ruin.

    Exact for a walk that meets both barriers without overshoot; the diffusion
    formula is the same with ``R`` replaced by ``2 mu / sigma^2``.  Needs a positive mean.

    Parameters
    ----------
    values
        Step values (results per shoe).
    bankroll, goal
        Starting bankroll and the bankroll to reach.
    weights
        Probability of each value (default: each equally likely).

    Returns
    -------
    float
        The probability.

    References
    ----------
    A. Wald, *Sequential Analysis* (1947), ch. 3.

    Examples
    --------
    >>> round(goal_lundberg(np.array([1.0, -1.0, 1.0]), 2, 4), 6)  # the gambler's ruin, (1 - 1/4) / (1 - 1/16)
    0.8
    """
    b, g = positive(bankroll, "bankroll"), positive(goal, "goal")
    if not g > b:
        raise ValueError(f"goal ({g:g}) must exceed the bankroll ({b:g})")
    r = adjustment_coefficient(values, weights)
    if r == 0:
        raise ValueError("goal_lundberg needs steps with a positive mean (use goal_diffusion otherwise)")
    if math.isinf(r):
        return 1.0
    return float(math.expm1(-r * b) / math.expm1(-r * g))


def trip_ruin_lundberg(values: np.ndarray, bankroll: float, horizon: int, weights: np.ndarray | None = None) -> float:
    """Lundberg's bound on ruin within ``horizon`` steps: ``min over r >= R of exp(-r B) M(r)^T``.

    ``M(r) = E[exp(-r X)]``; ``exp(-r S_t) / M(r)^t`` is a martingale, and
    Doob's inequality bounds the chance that it ever exceeds ``exp(r B)`` / ``M(r)^T``
    within ``T`` steps.  At ``r = R`` it is the bound with no time limit.

    Parameters
    ----------
    values
        Step values (results per shoe).
    bankroll
        Bankroll.
    horizon
        Steps (shoes).
    weights
        Probability of each value (default: each equally likely).

    Returns
    -------
    float
        The bound.

    References
    ----------
    Asmussen & Albrecher, *Ruin Probabilities* (2nd ed., 2010): Lundberg's inequality in finite time.

    Examples
    --------
    >>> x = np.array([1.0, -1.0, 1.0])
    >>> trip_ruin_lundberg(x, 10, 5) == 0.0, trip_ruin_lundberg(x, 3, 10**6) == ruin_lundberg(x, 3)
    (True, True)
    """
    x = np.asarray(values, dtype=np.float64)
    b = positive(bankroll, "bankroll")
    t = positive_int(horizon, "horizon")
    r = adjustment_coefficient(x, weights)
    p = np.full(len(x), 1 / len(x)) if weights is None else np.asarray(weights, dtype=np.float64)
    if r == 0:
        return 1.0
    if math.isinf(r) or t * max(0.0, float(-x[p > 0].min())) < b:
        return 0.0  # T steps cannot lose the bankroll
    scale = float(-x[p > 0].min())

    def log_bound(s: float) -> float:  # s = r * scale
        return -s * b / scale + t * float(scipy.special.logsumexp(-s * x / scale, b=p))

    hi = 2.0 * r * scale
    while log_bound(hi) < log_bound(hi / 2):
        hi *= 2
    best = scipy.optimize.minimize_scalar(log_bound, bounds=(r * scale, hi), method="bounded")
    return float(math.exp(min(best.fun, -r * b, 0.0)))  # M(R) = 1: the bound at R is exp(-R B)
