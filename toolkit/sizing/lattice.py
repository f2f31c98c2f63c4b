r"""Exact risks of a bankroll walk whose shoe results lie on a lattice (whole multiples of one unit).

Flat bets of whole units on bets paying whole multiples of the stake (Dragon
7 at 40:1, Panda 8 at 25:1), and stakes rounded to a chip, give shoe results
and lowest points within the shoe that are all whole multiples of one unit
``d``.  A bankroll started at ``B`` then lives on the points ``B + k d``, and the
resampling model of :func:`toolkit.sizing.risk.simulate_risk` (shoes drawn
independently from a list of ``(won, low)`` pairs, ruin at a shoe's lowest
point, the goal at its end) is a Markov chain on those points.  Its risks are
the solutions of linear equations, the characteristic-root solution of the
classical gambler's ruin written as the equations themselves:

* ruin: :math:`\psi_k = \sum_j p_j\,[B + k d + l_j \le 0] + \sum_j p_j\,[B + k d + l_j > 0]\,\psi_{k + w_j}`,
  solved on the points up to a height ``N`` where the risk is below 1e-15, twice:
  with the risk above ``N`` set to 0 (a lower bound) and set to a Lundberg
  bound ``C exp(-R x)`` (an upper bound); the two agree to 1e-12;
* the goal before ruin: the same equations between ruin and the goal, exact;
* ruin within ``T`` shoes: ``T`` steps of the chain from "not yet ruined".

References
----------
W. Feller, *An Introduction to Probability Theory and its Applications* vol. 1, 3rd ed. (1968), XIV.8.

>>> walk = LatticeWalk.from_shoes(np.array([1.0, -1.0, 1.0, 1.0]))
>>> round(walk.ruin(3), 6)  # the gambler's ruin (1/3)^3
0.037037
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.linalg
import scipy.optimize

from toolkit._check import positive_int
from toolkit.sizing._args import positive
from toolkit.sizing.lundberg import adjustment_coefficient

__all__ = ["MAX_LATTICE_POINTS", "LatticeWalk", "lattice_unit"]

#: The most points (bankrolls) an exact solution may use; more, and the walk is left to Lundberg's formula.
MAX_LATTICE_POINTS = 200_000

_TAIL = 1e-15  # the risk of ruin from the top point of the truncated chain


def lattice_unit(values: np.ndarray, max_denominator: int = 1000) -> float | None:
    """The largest ``d`` of which every value is a whole multiple (to 1e-9), or ``None`` if there is none.

    Parameters
    ----------
    values
        The values (shoe results, lowest points).
    max_denominator
        Only units ``n / m`` with ``m`` up to this are tried.

    Returns
    -------
    float or None
        The unit.

    Examples
    --------
    >>> lattice_unit(np.array([40.0, -1.0, -3.0])), lattice_unit(np.array([0.95, -1.0]))
    (1.0, 0.05)
    >>> lattice_unit(np.array([0.5, -1 / 3, 2 ** 0.5])) is None
    True
    """
    x = np.unique(np.abs(np.asarray(values, dtype=np.float64)))
    x = x[x > 0]
    if len(x) == 0 or not np.all(np.isfinite(x)):
        return None
    fractions = [Fraction(float(v)).limit_denominator(max_denominator) for v in x]
    if any(abs(float(f) - v) > 1e-9 * max(1.0, v) for f, v in zip(fractions, x, strict=True)):
        return None
    denominator = math.lcm(*(f.denominator for f in fractions))
    numerator = math.gcd(*(f.numerator * (denominator // f.denominator) for f in fractions))
    return numerator / denominator


def _tilted(w: np.ndarray, base: np.ndarray, mean: float) -> np.ndarray | None:
    """Weights ``base exp(theta w)``, normalised, with mean ``mean`` (the law nearest ``base`` in entropy)."""
    if not w.min() < mean < w.max():
        return None
    scale = float(np.abs(w).max())

    def gap(theta: float) -> float:
        e = base * np.exp(theta * (w - w.max()) / scale)
        return float(e @ w / e.sum() - mean)

    lo, hi = -1.0, 1.0
    while gap(lo) > 0:
        lo *= 2
    while gap(hi) < 0:
        hi *= 2
    theta = scipy.optimize.brentq(gap, lo, hi, xtol=1e-14)
    e = base * np.exp(theta * (w - w.max()) / scale)
    return e / e.sum()


@dataclass(frozen=True, eq=False)
class LatticeWalk:
    """A bankroll walk on the multiples of ``unit``: shoe results ``steps * unit`` with lows ``lows * unit``.

    Attributes
    ----------
    unit
        The lattice unit, in bet units.
    steps, lows
        Distinct (result, lowest point) pairs of a shoe, in lattice units.
    probabilities
        The probability of each pair.
    """

    unit: float
    steps: np.ndarray
    lows: np.ndarray
    probabilities: np.ndarray

    @classmethod
    def from_shoes(
        cls, won: np.ndarray, low: np.ndarray | None = None, mean: float | None = None
    ) -> LatticeWalk | None:
        """The walk of shoes drawn uniformly from ``(won, low)``, or ``None`` when they lie on no lattice.

        Parameters
        ----------
        won, low
            Result of each shoe and the lowest point of the running result within it (default: its end).
        mean
            Reweight the shoes (exponential tilting, ``p_j`` proportional to
            ``exp(theta won_j)``) so that the expected result per shoe is this;
            the support, hence the lattice, is kept.  ``None`` when no tilt gives it.

        Returns
        -------
        LatticeWalk or None
            The walk.
        """
        won = np.asarray(won, dtype=np.float64)
        low = np.minimum(won, 0.0) if low is None else np.minimum(np.asarray(low, dtype=np.float64), won)
        low = np.minimum(low, 0.0)
        unit = lattice_unit(np.concatenate([won, low]))
        if unit is None:
            return None
        pairs, counts = np.unique(np.rint(np.column_stack([won, low]) / unit).astype(np.int64), axis=0,
                                  return_counts=True)  # fmt: skip
        p = counts / counts.sum()
        if mean is not None:
            tilt = _tilted(pairs[:, 0] * unit, p, mean)
            if tilt is None:
                return None
            p = tilt
        return cls(unit, pairs[:, 0], pairs[:, 1], p)

    @property
    def mean(self) -> float:
        """Expected result per shoe, in bet units."""
        return float(self.probabilities @ self.steps) * self.unit

    def _start(self, bankroll: float) -> float:
        return positive(bankroll, "bankroll") / self.unit

    def _chain(self, b: float, top: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Points ``k`` (bankroll ``b + k``) from the lowest alive one to ``top``; probability of ruin in one shoe."""
        k = np.arange(math.floor(-b) + 1, top + 1)
        alive = (b + k[:, None] + self.lows[None, :]) > 0  # (points, pairs): not ruined within the shoe
        ruin_now = (~alive) @ self.probabilities
        return k, alive, ruin_now

    def _solve(self, b: float, top: int, tails: tuple[tuple[float, float], ...] = ((0.0, math.inf),)) -> list[float]:
        """Risk of ruin from ``b``, once per ``(r, log_c)`` of ``tails``: the risk at a point ``y`` above ``top``
        taken as ``min(1, exp(log_c - r y))``.

        ``log_c = inf`` takes it as 0: a lower bound.  With Lundberg's ``r`` and
        ``log_c = r max(w - l)`` it is an upper bound: ``exp(-r S_t)`` is a
        martingale, and at ruin ``S`` is at most ``max(w - l)``.  The chain's
        matrix does not depend on the tail, so one factorisation serves every
        tail (one right-hand side each).
        """
        k, alive, ruin_now = self._chain(b, top)
        n, first = len(k), int(k[0])
        lower, upper = int(max(0, -self.steps.min())), int(max(0, self.steps.max()))
        band = np.zeros((lower + upper + 1, n))
        band[upper, :] = 1.0
        rhs = np.repeat(ruin_now[:, None], len(tails), axis=1)
        for j, (w, p) in enumerate(zip(self.steps, self.probabilities, strict=True)):
            rows = np.flatnonzero(alive[:, j])
            cols = rows + int(w)
            out = cols >= n
            for t, (r, log_c) in enumerate(tails):
                if math.isfinite(log_c):
                    rhs[rows[out], t] += p * np.minimum(1.0, np.exp(log_c - r * (b + k[0] + cols[out])))
            keep = (cols >= 0) & ~out
            np.subtract.at(band, (upper + rows[keep] - cols[keep], cols[keep]), p)
        psi = scipy.linalg.solve_banded((lower, upper), band, rhs)
        return [float(np.clip(psi[-first, t], 0.0, 1.0)) for t in range(len(tails))]

    def _points(self, b: float, above: float) -> int:
        top = math.ceil(above)
        if top + b - math.floor(-b) > MAX_LATTICE_POINTS:
            raise ValueError(f"the walk needs more than {MAX_LATTICE_POINTS:,} lattice points (unit {self.unit:g})")
        return top

    def ruin(self, bankroll: float) -> float:
        """The exact risk of ruin with no time limit (to 1e-12).

        Parameters
        ----------
        bankroll
            Starting bankroll, in bet units.

        Returns
        -------
        float
            The risk of ruin.

        Raises
        ------
        ValueError
            When the solution needs more than :data:`MAX_LATTICE_POINTS` points.
        """
        b = self._start(bankroll)
        reach = float((self.steps - self.lows).max())  # at ruin, the bankroll at the end of the shoe is below this
        if np.all(self.steps == 0):
            return 1.0 if b + self.lows.min() <= 0 else 0.0
        if self.mean <= 0:
            return 1.0 if self.lows.min() < 0 else 0.0
        if self.lows.min() >= 0:
            return 0.0
        r = adjustment_coefficient(self.steps.astype(np.float64), self.probabilities)  # per lattice unit
        if math.isinf(r):  # the walk never steps down: past ``reach`` it is never ruined
            return self._solve(b, self._points(b, max(0.0, reach - b) + 1))[0]
        log_c = r * reach
        height = (log_c - math.log(_TAIL)) / r + float(self.steps.max())
        for _ in range(4):
            top = self._points(b, height)
            low, high = self._solve(b, top, ((0.0, math.inf), (r, log_c)))  # one factorisation, two bounds
            if high - low <= 1e-12:
                return 0.5 * (low + high)
            height *= 2
        return high

    def goal(self, bankroll: float, goal: float) -> float:
        """The exact probability of reaching ``goal`` (at the end of a shoe) before ruin.

        Parameters
        ----------
        bankroll, goal
            Starting bankroll and the bankroll to reach, in bet units.

        Returns
        -------
        float
            The probability.
        """
        b, g = self._start(bankroll), positive(goal, "goal") / self.unit
        if not g > b:
            raise ValueError(f"goal ({goal:g}) must exceed the bankroll ({bankroll:g})")
        top = self._points(b, math.ceil(g - b) - 1)
        k, alive, _ = self._chain(b, top)
        k = k[b + k < g]
        alive = alive[: len(k)]
        n, first = len(k), int(k[0])
        lower, upper = int(max(0, -self.steps.min())), int(max(0, self.steps.max()))
        band = np.zeros((lower + upper + 1, n))
        band[upper, :] = 1.0
        reach = np.zeros(n)
        for j, (w, p) in enumerate(zip(self.steps, self.probabilities, strict=True)):
            rows = np.flatnonzero(alive[:, j])
            cols = rows + int(w)
            done = cols >= n
            reach[rows[done]] += p
            rows, cols = rows[~done], cols[~done]
            keep = cols >= 0
            np.subtract.at(band, (upper + rows[keep] - cols[keep], cols[keep]), p)
        phi = scipy.linalg.solve_banded((lower, upper), band, reach)
        return float(np.clip(phi[-first], 0.0, 1.0))

    def trip_ruin(self, bankroll: float, shoes: int, max_work: int = 10**9) -> float:
        """The exact risk of ruin within ``shoes`` shoes.

        Parameters
        ----------
        bankroll
            Starting bankroll, in bet units.
        shoes
            Shoes in the trip.
        max_work
            Refuse when ``shoes`` times the points times the pairs exceeds this.

        Returns
        -------
        float
            The probability.
        """
        b = self._start(bankroll)
        t = positive_int(shoes, "shoes")
        top = self._points(b, t * max(0, int(self.steps.max())))
        k, alive, ruin_now = self._chain(b, top)
        if t * alive.size > max_work:
            raise ValueError(f"a trip of {t:,} shoes over {len(k):,} points is more than {max_work:,} steps of work")
        n, first = len(k), int(k[0])
        v = np.zeros(n)
        for _ in range(t):
            nxt = ruin_now.copy()
            for j, (w, p) in enumerate(zip(self.steps, self.probabilities, strict=True)):
                rows = np.flatnonzero(alive[:, j])
                cols = rows + int(w)
                keep = (cols >= 0) & (cols < n)  # beyond the top: not ruined within the trip
                nxt[rows[keep]] += p * v[cols[keep]]
            v = nxt
        return float(np.clip(v[-first], 0.0, 1.0))
