"""Kelly-optimal stakes from a bet's exact payout distribution: one bet, or several solved jointly.

**Log growth over a multi-outcome payout.**  A bet that pays ``v_j`` units per
unit staked with probability ``p_j`` (``v_j = -1`` a loss, ``0`` a push, ``40``
Dragon 7's win) multiplies a bankroll staked at the fraction ``f`` by
``1 + f v_j``.  Kelly (1956) chooses ``f`` to maximise the expected logarithm
of that factor, the long-run growth rate

.. math::  G(f) = \\sum_j p_j \\log(1 + f v_j),

and for several bets staked at once on the same coup (fractions
``f = (f_1, ..., f_k) >= 0``, payouts ``v_{jk}`` in joint outcome ``j``)

.. math::  G(f) = \\sum_j p_j \\log\\bigl(1 + \\textstyle\\sum_k f_k v_{jk}\\bigr).

``G`` is concave, so the optimum is unique; it is *not* the ``edge / variance``
of the usual approximation, which assumes small, symmetric payouts and is poor
for 25:1 and 40:1 side bets (it is the first term of the expansion of ``G``;
Thorp 2006, section 7).  For an even-money bet (win ``p``, lose ``q``) the
optimum is ``f* = p - q``.  One bet: the root of ``G'(f) = sum_j p_j v_j / (1 +
f v_j)`` (decreasing in ``f``) by bisection, vectorised over many shoes.
Several: damped Newton on every support (each subset of the bets staked),
keeping the best feasible one (the optimum is the unconstrained optimum on its
own support), vectorised too.

The payout distribution at a shoe comes from the exact engine: the joint
outcomes of the bets (:func:`payout_outcomes`) are priced as indicator bets
(:func:`outcome_probabilities`).

References
----------
J. L. Kelly, "A new interpretation of information rate", *Bell System
Technical Journal* 35 (1956) 917-926.  E. O. Thorp, "The Kelly criterion in
blackjack, sports betting and the stock market", in *Handbook of Asset and
Liability Management* vol. 1 (2006).

>>> f = kelly_fractions(np.array([[0.52, 0.48]]), np.array([[1.0], [-1.0]]))
>>> round(float(f[0, 0]), 10)
0.04
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np

from toolkit.bets.paytable import PayTable
from toolkit.bets.pricing import expected_values
from toolkit.counting.systems import resolve_bet
from toolkit.coup.cards import CompositionLike
from toolkit.coup.rules import PUNTO_BANCO, Rules, Tableau
from toolkit.exact.engine import as_rank_matrix

__all__ = [
    "PayoutOutcomes",
    "growth_rate",
    "kelly_fractions",
    "kelly_stakes",
    "outcome_probabilities",
    "payout_outcomes",
]

_TINY = 1e-15


@dataclass(frozen=True, eq=False)
class PayoutOutcomes:
    """The distinct joint payouts of some bets: ``payouts[j, k]`` units bet ``k`` pays in joint outcome ``j``.

    ``indicators`` are bets paying 1 in outcome ``j`` and 0 otherwise: their
    expected values at a shoe are the outcome probabilities.

    Attributes
    ----------
    bets
        The bets.
    payouts
        ``(m, k)`` payouts.
    indicators
        One bet per outcome (see above).
    """

    bets: tuple[PayTable, ...]
    payouts: np.ndarray
    indicators: tuple[PayTable, ...]


@lru_cache(maxsize=32)
def _outcomes(bets: tuple[PayTable, ...]) -> PayoutOutcomes:
    table = np.array([b.payoffs for b in bets], dtype=object).T  # (1600, k) Fractions
    keys = [tuple(row) for row in table]
    distinct = sorted(set(keys))
    indicators = tuple(
        PayTable(f"{'+'.join(b.name for b in bets)}#{j}", tuple(Fraction(int(key == d)) for key in keys))
        for j, d in enumerate(distinct)
    )
    payouts = np.array([[float(x) for x in d] for d in distinct], dtype=np.float64)
    return PayoutOutcomes(bets, payouts, indicators)


def payout_outcomes(bets: Sequence[PayTable | str] | PayTable | str, rules: Rules = Rules()) -> PayoutOutcomes:
    """The distinct joint payouts of ``bets`` (names of the standard panel or :class:`~toolkit.bets.Bet`).

    Parameters
    ----------
    bets
        A bet or several.
    rules
        House rules pricing the bets.

    Returns
    -------
    PayoutOutcomes
        The joint payouts and the outcome classes of each.

    Examples
    --------
    >>> po = payout_outcomes(["dragon7", "panda8"])
    >>> po.payouts.tolist()
    [[-1.0, -1.0], [-1.0, 25.0], [40.0, -1.0]]
    """
    if isinstance(bets, (PayTable, str)):
        bets = [bets]
    resolved = tuple(resolve_bet(b, rules) for b in bets)
    if not resolved:
        raise ValueError("payout_outcomes needs at least one bet")
    if len({b.name for b in resolved}) != len(resolved):
        raise ValueError(f"bets repeat: {[b.name for b in resolved]}")
    return _outcomes(resolved)


def outcome_probabilities(outcomes: PayoutOutcomes, shoes, tableau: Tableau = PUNTO_BANCO) -> np.ndarray:
    """``(n, m)`` probabilities of the ``m`` joint outcomes at each of ``n`` shoes (rows sum to 1).

    Parameters
    ----------
    outcomes
        The joint payouts (:func:`payout_outcomes`).
    shoes
        ``(n, 13)`` counts by rank or composition-like values, as :func:`toolkit.bets.pricing.expected_values` takes.
    tableau
        Drawing rules.

    Returns
    -------
    numpy.ndarray
        ``(n, m)`` probabilities.

    Examples
    --------
    >>> po = payout_outcomes(["dragon7"])
    >>> outcome_probabilities(po, [8]).sum(axis=1).round(12).tolist()
    [1.0]
    """
    ranks = as_rank_matrix(shoes)
    if ranks.shape[0] == 0:
        return np.zeros((0, len(outcomes.indicators)))
    p = np.clip(expected_values(ranks, outcomes.indicators, tableau), 0.0, None)
    return p / p.sum(axis=1, keepdims=True)


def growth_rate(probabilities: np.ndarray, payouts: np.ndarray, fractions: np.ndarray) -> np.ndarray:
    """Expected log growth ``sum_j p_j log(1 + f·v_j)`` per row (``-inf`` outside the domain).

    Shapes: ``probabilities`` ``(n, m)``, ``payouts`` ``(m, k)``, ``fractions`` ``(n, k)``.

    Parameters
    ----------
    probabilities
        ``(n, m)`` outcome probabilities.
    payouts
        ``(m, k)`` payouts of each bet per unit.
    fractions
        ``(n, k)`` fractions of the bankroll staked.

    Returns
    -------
    numpy.ndarray
        ``(n,)`` expected log growth.

    References
    ----------
    Kelly, "A new interpretation of information rate", *Bell System Tech. J.* 35 (1956) 917-926.

    Examples
    --------
    >>> p = np.array([[0.5, 0.5]])
    >>> v = np.array([[2.0], [-1.0]])
    >>> growth_rate(p, v, np.array([[0.25]])).round(6).tolist()
    [0.058892]
    """
    p = np.atleast_2d(np.asarray(probabilities, dtype=np.float64))
    w = 1.0 + np.atleast_2d(fractions) @ np.asarray(payouts, dtype=np.float64).T  # (n, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > _TINY, p * np.log(np.where(w > 0, w, np.nan)), 0.0)
    out = terms.sum(axis=1)
    return np.where(np.isnan(out), -np.inf, out)


def _one_bet(p: np.ndarray, v: np.ndarray, cap: float) -> np.ndarray:
    """Kelly fraction of one bet per row: bisection on the decreasing ``G'(f)`` over ``[0, f_max)``."""
    mean = p @ v
    worst = np.where(p > _TINY, -np.minimum(v, 0.0)[None, :], 0.0).max(axis=1)  # largest loss per unit
    hi = np.where(worst > 0, 1.0 / np.where(worst > 0, worst, 1.0), cap)
    hi = np.minimum(hi, cap) if cap < np.inf else hi
    lo = np.zeros(len(p))
    top = hi * (1 - 1e-12)

    def slope(f: np.ndarray) -> np.ndarray:
        return (p * v / (1.0 + f[:, None] * v)).sum(axis=1)

    grow = mean > 0
    unbounded = grow & (slope(top) > 0)  # still growing at the edge of the domain (or of the cap)
    a, b = lo.copy(), top.copy()
    for _ in range(200):
        mid = 0.5 * (a + b)
        up = slope(mid) > 0
        a = np.where(up, mid, a)
        b = np.where(up, b, mid)
    f = 0.5 * (a + b)
    return np.where(grow, np.where(unbounded, top, f), 0.0)


def _newton(p: np.ndarray, v: np.ndarray, iterations: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """Unconstrained maximum of ``G`` per row by damped Newton from 0; the fractions and whether it converged."""
    n, k = len(p), v.shape[1]
    f = np.zeros((n, k))
    live = p > _TINY
    g_now = growth_rate(p, v, f)
    done = np.zeros(n, bool)
    for _ in range(iterations):
        w = 1.0 + f @ v.T
        q = np.where(live, p / w, 0.0)
        grad = q @ v
        hess = -np.einsum("nm,mi,mj->nij", np.where(live, p / w**2, 0.0), v, v)
        try:
            step = np.linalg.solve(hess - 1e-14 * np.eye(k), -grad[:, :, None])[:, :, 0]
        except np.linalg.LinAlgError:  # bets with the same payouts: a singular Hessian
            step = -(np.linalg.pinv(hess) @ grad[:, :, None])[:, :, 0]
        t = np.ones(n)
        for _ in range(60):
            trial = f + t[:, None] * step
            g_try = growth_rate(p, v, trial)
            ok = np.isfinite(g_try) & (g_try >= g_now - 1e-15)
            if ok.all():
                break
            t = np.where(ok, t, t / 2)
        trial = f + t[:, None] * step
        g_try = growth_rate(p, v, trial)
        better = np.isfinite(g_try) & (g_try >= g_now - 1e-15) & ~done
        f = np.where(better[:, None], trial, f)
        g_now = np.where(better, g_try, g_now)
        done |= (np.abs(grad).max(axis=1) < 1e-13) | (np.abs(t[:, None] * step).max(axis=1) < 1e-14)
        if done.all():
            break
    return f, done


def kelly_fractions(probabilities: np.ndarray, payouts: np.ndarray, cap: float = 1.0) -> np.ndarray:
    """Kelly-optimal fractions of the bankroll to stake on each bet, per row: the maximum of :func:`growth_rate`.

    Parameters
    ----------
    probabilities
        ``(n, m)`` probabilities of the ``m`` joint outcomes (or ``(m,)`` for one shoe).
    payouts
        ``(m, k)`` units each of the ``k`` bets pays per unit staked in each outcome (or ``(m,)`` for one bet).
    cap
        Largest fraction on one bet (for a bet that cannot lose, whose growth is unbounded).

    Returns
    -------
    numpy.ndarray
        ``(n, k)`` fractions ``>= 0`` (0 on bets that are not worth making).

    Examples
    --------
    Even money with ``p = 0.55``: ``f* = p - q = 0.1``; Dragon 7 (40:1) off the top of 8 decks is not worth a bet:

    >>> kelly_fractions(np.array([0.55, 0.45]), np.array([1.0, -1.0])).round(12).tolist()
    [[0.1]]
    >>> po = payout_outcomes("dragon7")
    >>> kelly_fractions(outcome_probabilities(po, [8]), po.payouts).tolist()
    [[0.0]]
    """
    p = np.atleast_2d(np.asarray(probabilities, dtype=np.float64))
    v = np.asarray(payouts, dtype=np.float64)
    if v.ndim == 1:
        v = v[:, None]
    if v.ndim != 2 or p.shape[1] != v.shape[0]:
        raise ValueError(f"probabilities {p.shape} and payouts {v.shape} do not match: (n, m) and (m, k)")
    if not (np.all(np.isfinite(p)) and np.all(p >= 0)) or np.any(np.abs(p.sum(axis=1) - 1) > 1e-9):
        raise ValueError("each row of probabilities must hold values >= 0 summing to 1")
    if not np.all(np.isfinite(v)) or np.any(v < -1):
        raise ValueError("payouts must be finite and at least -1 (a bet loses at most its stake)")
    if not cap > 0:
        raise ValueError(f"cap must be positive, got {cap!r}")
    n, k = p.shape[0], v.shape[1]
    if k == 1:
        return _one_bet(p, v[:, 0], cap)[:, None]
    best = np.zeros((n, k))
    best_g = np.zeros(n)
    for size in range(1, k + 1):
        for support in combinations(range(k), size):
            cols = list(support)
            f_s, ok = _newton(p, v[:, cols])
            f_s = np.clip(f_s, 0.0, cap)
            full = np.zeros((n, k))
            full[:, cols] = f_s
            g = growth_rate(p, v, full)
            take = ok & np.all(f_s > 0, axis=1) & (g > best_g + 1e-15)
            best = np.where(take[:, None], full, best)
            best_g = np.where(take, g, best_g)
    return best


def kelly_stakes(
    bets: Sequence[PayTable | str] | PayTable | str,
    shoe: CompositionLike = 8,
    fraction: float = 1.0,
    rules: Rules = Rules(),
) -> dict[str, float]:
    """Fractions of the bankroll to stake on each of ``bets`` at one shoe, at ``fraction`` of Kelly.

    Parameters
    ----------
    bets
        A bet or several (names or :class:`~toolkit.bets.Bet`).
    shoe
        The cards left.
    fraction
        Fraction of Kelly.
    rules
        House rules pricing the bets.

    Returns
    -------
    dict of str to float
        Stake of each bet as a fraction of the bankroll.

    References
    ----------
    Kelly (1956); Thorp, "The Kelly criterion in blackjack, sports betting and the stock market" (2006).

    Examples
    --------
    >>> kelly_stakes("dragon7", 8)
    {'dragon7': 0.0}
    """
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction (of Kelly) must lie in (0, 1], got {fraction!r}")
    po = payout_outcomes(bets, rules)
    f = kelly_fractions(outcome_probabilities(po, [shoe], rules.tableau), po.payouts)[0]
    return {b.name: float(fraction * x) for b, x in zip(po.bets, f, strict=True)}
