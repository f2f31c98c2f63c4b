r"""Risk: ruin with no time limit, ruin within a trip, the goal reached before ruin; by formula and by simulation.

A counter's bankroll after ``t`` shoes is ``B + X_1 + ... + X_t`` with
independent shoe results ``X_i`` (mean ``mu``, standard deviation ``sigma``
per shoe: shoes are independent, the coups within one are not).

**Diffusion formulas** (Brownian motion with drift ``mu`` and variance
``sigma^2`` per shoe, started at ``B``; Cox & Miller 1965, ch. 5):

* risk of ruin, no time limit: :math:`R = \exp(-2 \mu B / \sigma^2)` (1 when ``mu <= 0``);
* trip risk, ruin within ``T`` shoes (first passage, from the reflection principle):

  .. math:: P(\text{ruin by } T) = \Phi\Bigl(\frac{-B - \mu T}{\sigma\sqrt T}\Bigr)
            + e^{-2\mu B/\sigma^2}\,\Phi\Bigl(\frac{-B + \mu T}{\sigma\sqrt T}\Bigr);

* double barrier, reaching the bankroll ``G > B`` before ruin:
  :math:`P = (1 - e^{-2\mu B/\sigma^2}) / (1 - e^{-2\mu G/\sigma^2})` (``B / G`` when ``mu = 0``).

They hold when one shoe moves the bankroll by a small part of ``B``; a 40:1
payout makes single results lumpy, which the simulation does not assume.

**Exact random-walk formulas** where they apply: for bets won or lost one unit
at a time (pushes aside) the gambler's ruin, ``(q/p)^B`` and
``(1 - (q/p)^B) / (1 - (q/p)^G)`` (:func:`gamblers_ruin`); for flat bets that
lose at most one unit and win whole units (25:1, 40:1: a walk that steps down
one unit at a time) the risk of ruin is exactly ``rho^B`` with ``rho`` the root
in (0, 1) of ``sum_j p_j rho^{v_j} = 1`` (:func:`skip_free_ruin`; Feller 1968,
XIV.8).  For shoe totals, whose steps down are not unit steps, the
Cramér-Lundberg bound ``exp(-R B)`` with ``E[exp(-R X)] = 1`` caps the risk
(:func:`adjustment_coefficient`, :mod:`toolkit.sizing.lundberg`; Asmussen & Albrecher 2010, ch. IV),
and for shoe results on a lattice :class:`toolkit.sizing.lattice.LatticeWalk` solves the walk exactly.

**Fractional Kelly.**  A bettor who restakes the fraction ``c f*`` of the
*current* bankroll is never ruined, but with small edges the chance that the
bankroll ever falls to ``x`` times its start is ``x^(2/c - 1)``: 1/2 for full
Kelly to halve, 1/8 at half Kelly (Thorp 2006, section 8; the log bankroll is
a diffusion with drift ``(c - c^2/2) mu^2/sigma^2`` and variance
``c^2 mu^2/sigma^2`` per bet).  :func:`halving_probability` gives the limit,
:func:`simulate_fractional_kelly` the simulation of the exact log-growth walk.

**Simulation** (:func:`simulate_risk`): paths of shoes resampled from the
simulated ones, each with its lowest point within the shoe, with Wilson
intervals for the proportions (:func:`toolkit._stats.wilson_interval`).

References
----------
D. R. Cox and H. D. Miller, *The Theory of Stochastic Processes* (1965).
W. Feller, *An Introduction to Probability Theory and its Applications* vol. 1, 3rd ed. (1968).
S. Asmussen and H. Albrecher, *Ruin Probabilities*, 2nd ed. (2010).
D. Schlesinger, *Blackjack Attack*, 3rd ed. (2005), ch. 10 (risk of ruin, trip risk, SCORE).

>>> round(ruin_diffusion(0.1, 1.0, 10.0), 6)
0.135335
>>> round(goal_diffusion(0.0, 1.0, 10.0, 40.0), 6)
0.25
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
import scipy.optimize
import scipy.stats

from toolkit._check import positive_int
from toolkit._stats import wilson_interval
from toolkit.counting.results import Estimate, ruin_paths
from toolkit.parallel import SeedLike, as_generator
from toolkit.sizing._args import finite, positive
from toolkit.sizing.lundberg import adjustment_coefficient, goal_lundberg, ruin_lundberg, trip_ruin_lundberg

__all__ = [
    "MAX_PATHS",
    "MAX_PATH_SHOES",
    "PATH_BLOCK",
    "WEIGHT_RESOLUTION",
    "SimulatedRisk",
    "adjustment_coefficient",
    "bankroll_paths",
    "gamblers_ruin",
    "goal_diffusion",
    "goal_lundberg",
    "halving_probability",
    "ruin_diffusion",
    "ruin_lundberg",
    "session_results",
    "simulate_fractional_kelly",
    "simulate_risk",
    "skip_free_ruin",
    "trip_ruin_diffusion",
    "trip_ruin_lundberg",
]

#: The most bankroll paths one simulation runs (at a few microseconds a shoe, more would take days).
MAX_PATHS = 10**9
#: The longest path, in shoes (a losing or even game is ruined on almost every path well before).
MAX_PATH_SHOES = 10**7
#: Paths simulated at once: the memory of a simulation is that of one block, whatever ``paths``.
PATH_BLOCK = 4096
#: Weighted shoes are drawn from this many copies, each shoe's weight rounded to a multiple of its inverse.
WEIGHT_RESOLUTION = 2**20


def ruin_diffusion(mu: float, sigma: float, bankroll: float) -> float:
    """Risk of ruin with no time limit, ``exp(-2 mu B / sigma^2)`` (1 when ``mu <= 0``).

    Parameters
    ----------
    mu, sigma
        Mean and SD of the result per shoe.
    bankroll
        Bankroll.

    Returns
    -------
    float
        The risk of ruin.

    References
    ----------
    Schlesinger, *Blackjack Attack* (3rd ed., 2005), ch. 10.

    Examples
    --------
    >>> round(ruin_diffusion(0.5, 10.0, 200), 6)
    0.135335
    """
    mu, sigma, b = finite(mu, "mu"), positive(sigma, "sigma"), positive(bankroll, "bankroll")
    return 1.0 if mu <= 0 else math.exp(-2 * mu * b / sigma**2)


def trip_ruin_diffusion(mu: float, sigma: float, bankroll: float, horizon: float) -> float:
    """Risk of ruin within ``horizon`` shoes (first passage of a drifted Brownian motion to 0).

    Parameters
    ----------
    mu, sigma
        Mean and SD of the result per shoe.
    bankroll
        Bankroll.
    horizon
        Shoes.

    Returns
    -------
    float
        The probability of ruin within ``horizon`` shoes.

    References
    ----------
    Schlesinger, *Blackjack Attack* (3rd ed., 2005): the trip risk of ruin.

    Examples
    --------
    >>> trip_ruin_diffusion(0.5, 10.0, 200, 10) < ruin_diffusion(0.5, 10.0, 200)
    True
    """
    mu, sigma, b = finite(mu, "mu"), positive(sigma, "sigma"), positive(bankroll, "bankroll")
    t = positive(horizon, "horizon")
    s = sigma * math.sqrt(t)
    first = scipy.stats.norm.cdf((-b - mu * t) / s)
    log_second = -2 * mu * b / sigma**2 + scipy.stats.norm.logcdf((-b + mu * t) / s)
    return float(min(1.0, first + math.exp(log_second)))


def goal_diffusion(mu: float, sigma: float, bankroll: float, goal: float) -> float:
    """Probability of reaching the bankroll ``goal`` before ruin, starting from ``bankroll`` (double barrier).

    Parameters
    ----------
    mu, sigma
        Mean and SD of the result per shoe.
    bankroll
        Starting bankroll.
    goal
        Bankroll to reach.

    Returns
    -------
    float
        The probability.

    Examples
    --------
    >>> round(goal_diffusion(0.0, 1.0, 10, 40), 6)
    0.25
    """
    mu, sigma, b = finite(mu, "mu"), positive(sigma, "sigma"), positive(bankroll, "bankroll")
    g = positive(goal, "goal")
    if g <= b:
        raise ValueError(f"goal ({g:g}) must exceed the bankroll ({b:g})")
    a = 2 * mu / sigma**2
    if abs(a * g) < 1e-12:
        return b / g
    if a < 0:  # exp(-a G) may overflow: divide through by it
        c = -a
        return float(math.exp(-c * (g - b)) * math.expm1(-c * b) / math.expm1(-c * g))
    return float(math.expm1(-a * b) / math.expm1(-a * g))


def gamblers_ruin(p: float, q: float, bankroll: int, goal: int | None = None) -> float:
    """Exact risk of ruin of a walk of one-unit wins (``p``) and losses (``q``), pushes aside.

    With ``goal``: the probability of reaching ``goal`` units before ruin instead.

    Parameters
    ----------
    p, q
        Probabilities of winning and of losing a unit.
    bankroll
        Starting units.
    goal
        Units to reach first.

    Returns
    -------
    float
        The probability.

    References
    ----------
    Feller, *An Introduction to Probability Theory*, vol. 1 (3rd ed., 1968), ch. 14.

    Examples
    --------
    >>> round(gamblers_ruin(0.51, 0.49, 50), 6), round(gamblers_ruin(0.5, 0.5, 10, 40), 6)
    (0.135299, 0.25)
    """
    p, q = float(p), float(q)
    if not (0 <= p <= 1 and 0 <= q <= 1 and p + q <= 1 + 1e-12 and p + q > 0):
        raise ValueError(f"p and q must be probabilities with 0 < p + q <= 1, got {p!r}, {q!r}")
    b = positive_int(bankroll, "bankroll")
    g = None if goal is None else positive_int(goal, "goal")
    if g is not None and g <= b:
        raise ValueError(f"goal ({g}) must exceed the bankroll ({b})")
    if q == 0:
        return 0.0 if g is None else 1.0
    if p == 0:
        return 1.0 if g is None else 0.0
    log_r = math.log(q) - math.log(p)  # ruin is (q/p)^b: computed as exp(b log(q/p)), which never overflows
    if g is None:
        return 1.0 if log_r >= 0 else math.exp(b * log_r)
    if abs(g * log_r) < 1e-12:
        return b / g
    if log_r > 0:  # (1 - r^b) / (1 - r^g) = r^(b - g) (1 - r^-b) / (1 - r^-g): every power below 1
        return float(math.exp((b - g) * log_r) * math.expm1(-b * log_r) / math.expm1(-g * log_r))
    return float(math.expm1(b * log_r) / math.expm1(g * log_r))


def skip_free_ruin(probabilities: np.ndarray, payouts: np.ndarray, bankroll: int) -> float:
    """Exact risk of ruin of flat one-unit bets that lose at most one unit and win whole units.

    ``rho^B`` with ``rho`` the root in (0, 1) of ``sum_j p_j rho^{v_j} = 1``
    (the walk steps down one unit at a time, so it cannot jump past 0).

    Parameters
    ----------
    probabilities
        Outcome probabilities.
    payouts
        Whole-unit payouts, at least -1.
    bankroll
        Starting units.

    Returns
    -------
    float
        The risk of ruin.

    Examples
    --------
    >>> round(skip_free_ruin(np.array([0.51, 0.49]), np.array([1, -1]), 50), 6)
    0.135299
    """
    p = np.asarray(probabilities, dtype=np.float64)
    v = np.asarray(payouts, dtype=np.float64)
    if p.shape != v.shape or p.ndim != 1 or np.any(p < 0) or abs(p.sum() - 1) > 1e-9:
        raise ValueError("probabilities must be one distribution over the payouts (same length, summing to 1)")
    live = p > 0
    if np.any(v[live] < -1) or np.any(v[live] != np.round(v[live])):
        raise ValueError("skip_free_ruin needs whole-unit payouts of at least -1 (use the diffusion otherwise)")
    b = positive_int(bankroll, "bankroll")
    p, v = p[live], v[live]
    if p @ v <= 0:
        return 1.0
    if not np.any(v < 0):
        return 0.0

    def h(rho: float) -> float:
        return float(p @ rho**v - 1.0)

    low = scipy.optimize.minimize_scalar(h, bounds=(1e-12, 1.0), method="bounded", options={"xatol": 1e-14}).x
    rho = scipy.optimize.brentq(h, 1e-300, low, xtol=1e-300, rtol=1e-15)
    return float(rho**b)


# ------------------------------------------------------------------ simulation
@dataclass(frozen=True)
class SimulatedRisk:
    """Proportions of simulated paths: ruined ever, ruined within the trip, at the goal before ruin.

    Attributes
    ----------
    paths
        Paths simulated.
    ruin
        Share ruined.
    trip_ruin
        Share ruined within the trip.
    goal
        Share at the goal before ruin.
    """

    paths: int
    ruin: Estimate
    trip_ruin: Estimate | None
    goal: Estimate | None


def _proportion(k: int, n: int, confidence: float) -> Estimate:
    lo, hi = wilson_interval(k, n, confidence)
    p = k / n
    return Estimate(p, math.sqrt(p * (1 - p) / n), float(lo), float(hi))


def _check_shoes(won: np.ndarray, low: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    won = np.asarray(won, dtype=np.float64)
    if won.ndim != 1 or len(won) < 2 or not np.all(np.isfinite(won)):
        raise ValueError("shoe results must be at least two finite values")
    low = np.minimum(won, 0.0) if low is None else np.asarray(low, dtype=np.float64)
    if low.shape != won.shape or np.any(low > 0):
        raise ValueError("the lowest points within the shoes must be <= 0, one per shoe")
    return won, np.minimum(low, np.minimum(won, 0.0))


def simulate_risk(
    won: np.ndarray,
    bankroll: float,
    low: np.ndarray | None = None,
    goal: float | None = None,
    trip: int | None = None,
    paths: int = 2000,
    max_shoes: int = 20_000,
    seed: SeedLike = None,
    confidence: float = 0.95,
    progress: bool = False,
    weights: np.ndarray | None = None,
) -> SimulatedRisk:
    """Ruin, trip ruin and goal by simulation: paths of shoes drawn with replacement from ``won``.

    The paths are simulated :data:`PATH_BLOCK` at a time, one block after the
    other from the same stream, and only their counts are kept: the memory does
    not grow with ``paths``.

    Parameters
    ----------
    won, low
        Result of each simulated shoe and the lowest point of the running
        result within it (ruin is checked at that point; default: the end of the shoe).
    bankroll, goal
        Starting bankroll and the bankroll to reach (``goal > bankroll``), same units as ``won``;
        the goal is checked at the end of each shoe (the highest point within a shoe is not kept).
    trip
        Shoes in a trip, for the trip risk (ruin within ``trip`` shoes).
    paths, max_shoes
        Paths (at most :data:`MAX_PATHS`), and the longest one (at most
        :data:`MAX_PATH_SHOES`; a path still short of ruin then counts as not
        ruined): a path also stops once its bankroll is so high that the
        diffusion formula puts its risk below 1e-4 (and it is past the goal).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    confidence
        Confidence of the Wilson intervals.
    progress
        A progress bar counted in paths, on stderr when it is a terminal.
    weights
        The probability of drawing each shoe (default: each equally likely),
        honoured to 1 / :data:`WEIGHT_RESOLUTION` each.

    Returns
    -------
    SimulatedRisk
        Ruin, trip ruin and goal, each an :class:`~toolkit.counting.results.Estimate`.

    Examples
    --------
    >>> r = simulate_risk(np.array([-1.0, 1.2]), 20, paths=100, seed=1)
    >>> 0 <= r.ruin.value <= 1
    True
    """
    from toolkit._progress import progress_bar

    won, low = _check_shoes(won, low)
    if weights is not None:
        won, low = _weighted(won, low, weights)
    b = positive(bankroll, "bankroll")
    if goal is not None and not positive(goal, "goal") > b:
        raise ValueError(f"goal ({goal:g}) must exceed the bankroll ({b:g})")
    if trip is not None:
        trip = positive_int(trip, "trip (shoes)")
    paths = _at_most(positive_int(paths, "paths"), MAX_PATHS, "paths")
    max_shoes = _at_most(positive_int(max_shoes, "max_shoes"), MAX_PATH_SHOES, "max_shoes")
    gen = as_generator(seed)
    mu, var = float(won.mean()), float(won.var(ddof=1))
    ruined = tripped = reached = 0
    with progress_bar(total=paths, unit="path", desc="paths", show=progress) as bar:
        for start in range(0, paths, PATH_BLOCK):
            n = min(PATH_BLOCK, paths - start)
            ruined_at, goal_at = ruin_paths(won, low, b, mu, var, n, max_shoes, gen, goal)
            ruined += int(np.isfinite(ruined_at).sum())
            tripped += 0 if trip is None else int((ruined_at <= trip).sum())
            reached += 0 if goal is None else int((goal_at < ruined_at).sum())
            bar.update(n)
    ruin = _proportion(ruined, paths, confidence)
    trip_est = None if trip is None else _proportion(tripped, paths, confidence)
    goal_est = None if goal is None else _proportion(reached, paths, confidence)
    return SimulatedRisk(paths, ruin, trip_est, goal_est)


def _weighted(won: np.ndarray, low: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shoes repeated in proportion to ``weights`` (largest remainders), :data:`WEIGHT_RESOLUTION` in all."""
    p = np.asarray(weights, dtype=np.float64)
    if p.shape != won.shape or not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1) > 1e-9:
        raise ValueError("weights must be one probability per shoe, summing to 1")
    share = p * WEIGHT_RESOLUTION
    counts = np.floor(share).astype(np.int64)
    short = WEIGHT_RESOLUTION - int(counts.sum())
    counts[np.argsort(counts - share)[:short]] += 1
    return np.repeat(won, counts), np.repeat(low, counts)


def _at_most(value: int, limit: int, where: str) -> int:
    if value > limit:
        raise ValueError(f"{where} must be at most {limit:,}, got {value:,}")
    return value


def bankroll_paths(
    won: np.ndarray,
    bankroll: float,
    sessions: int,
    shoes_per_session: int = 1,
    paths: int = 2000,
    quantiles: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95),
    seed: SeedLike = None,
    low: np.ndarray | None = None,
) -> pl.DataFrame:
    """Quantiles of the bankroll after each session, over resampled paths (a fan chart's data).

    A ruined path stays at 0 from the shoe it was ruined in.  Columns:
    ``session``, ``quantile``, ``bankroll``, and ``ruined`` (the share of paths
    ruined by then), one row per session (0 = the start) and quantile.

    Parameters
    ----------
    won
        Result of each simulated shoe.
    bankroll
        Starting bankroll.
    sessions
        Sessions.
    shoes_per_session
        Shoes in a session.
    paths
        Paths.
    quantiles
        Quantiles reported.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    low
        Lowest point of each shoe (default: its end).

    Returns
    -------
    polars.DataFrame
        ``session, quantile, bankroll, ruined``.

    Examples
    --------
    >>> won = np.array([-1.0, 0.0, 2.0])
    >>> f = bankroll_paths(won, 10, sessions=3, paths=50, seed=1)
    >>> f["session"].unique().sort().to_list()
    [0, 1, 2, 3]
    """
    won, low = _check_shoes(won, low)
    b = positive(bankroll, "bankroll")
    sessions = positive_int(sessions, "sessions")
    k = positive_int(shoes_per_session, "shoes_per_session")
    paths = positive_int(paths, "paths")
    if not quantiles or any(not 0 <= q <= 1 for q in quantiles):
        raise ValueError(f"quantiles must lie in [0, 1], got {quantiles!r}")
    gen = as_generator(seed)
    bank = np.full(paths, b)
    dead = np.zeros(paths, bool)
    rows = [(0, q, b, 0.0) for q in quantiles]
    for s in range(1, sessions + 1):
        draw = gen.integers(0, len(won), size=(k, paths))
        path = bank + np.cumsum(won[draw], axis=0)
        before = np.vstack([bank[None, :], path[:-1]])
        dead |= ((before + low[draw]) <= 0).any(axis=0)
        bank = np.where(dead, 0.0, path[-1])
        share = float(dead.mean())
        rows += [(s, q, float(v), share) for q, v in zip(quantiles, np.quantile(bank, quantiles), strict=True)]
    return pl.DataFrame(rows, schema=["session", "quantile", "bankroll", "ruined"], orient="row")


def session_results(
    won: np.ndarray, shoes_per_session: int, sessions: int = 10_000, seed: SeedLike = None
) -> pl.DataFrame:
    """Results of sessions of ``shoes_per_session`` shoes drawn from ``won``: one row per session (``result``).

    Parameters
    ----------
    won
        Result of each simulated shoe.
    shoes_per_session
        Shoes in a session.
    sessions
        Sessions.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).

    Returns
    -------
    polars.DataFrame
        ``result``, one row per session.

    Examples
    --------
    >>> session_results(np.array([-1.0, 1.0]), 4, sessions=5, seed=1).height
    5
    """
    won, _ = _check_shoes(won, None)
    k = positive_int(shoes_per_session, "shoes_per_session")
    n = positive_int(sessions, "sessions")
    gen = as_generator(seed)
    totals = won[gen.integers(0, len(won), size=(n, k))].sum(axis=1)
    return pl.DataFrame({"session": np.arange(1, n + 1), "result": totals})


def halving_probability(fraction: float, level: float = 0.5) -> float:
    """Small-edge limit of the chance that fractional Kelly ever falls to ``level`` of the start: ``level^(2/c - 1)``.

    Parameters
    ----------
    fraction
        Fraction of Kelly.
    level
        Fraction of the starting bankroll.

    Returns
    -------
    float
        The probability.

    References
    ----------
    Thorp, "The Kelly criterion in blackjack, sports betting and the stock market" (2006).

    Examples
    --------
    >>> halving_probability(1.0), halving_probability(0.5)
    (0.5, 0.125)
    """
    c = positive(fraction, "fraction (of Kelly)")
    x = positive(level, "level")
    if not x < 1:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")
    if c >= 2:
        return 1.0
    return x ** (2 / c - 1)


def simulate_fractional_kelly(
    probabilities: np.ndarray,
    payouts: np.ndarray,
    fraction: float,
    level: float = 0.5,
    paths: int = 2000,
    max_bets: int = 200_000,
    seed: SeedLike = None,
    confidence: float = 0.95,
) -> Estimate:
    """The chance that restaking ``fraction`` of Kelly on i.i.d. bets ever takes the bankroll to ``level`` of its start.

    Each bet has outcome ``j`` with probability ``probabilities[j]`` paying
    ``payouts[j]`` per unit; the stake is ``fraction * f*`` of the current
    bankroll (``f*`` from :func:`toolkit.sizing.kelly.kelly_fractions`), so the
    log bankroll is a random walk with steps ``log(1 + fraction f* v_j)``.  A path
    stops at ``level``, or once the small-edge formula puts its chance of ever
    falling back below 1e-4, or after ``max_bets`` bets.  Wilson interval.

    Parameters
    ----------
    probabilities
        Outcome probabilities.
    payouts
        Payout of each outcome per unit.
    fraction
        Fraction of Kelly.
    level
        Fraction of the starting bankroll.
    paths
        Paths.
    max_bets
        The longest path.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    confidence
        Confidence of the interval.

    Returns
    -------
    toolkit.counting.results.Estimate
        The share of paths that fell to ``level``, with its Wilson interval.

    Examples
    --------
    >>> e = simulate_fractional_kelly(np.array([0.5, 0.5]), np.array([2.0, -1.0]), 1.0, paths=200, seed=1)
    >>> 0.3 < e.value < 0.7
    True
    """
    from toolkit.sizing.kelly import kelly_fractions

    p = np.asarray(probabilities, dtype=np.float64)
    v = np.asarray(payouts, dtype=np.float64)
    c = positive(fraction, "fraction (of Kelly)")
    x = positive(level, "level")
    if not x < 1:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")
    paths = positive_int(paths, "paths")
    max_bets = positive_int(max_bets, "max_bets")
    f = float(kelly_fractions(p[None, :], v)[0, 0])
    if f == 0:
        raise ValueError("the bet has no positive Kelly stake: nothing to simulate")
    steps = np.log1p(c * f * v)
    mean, var = float(p @ steps), float(p @ steps**2 - (p @ steps) ** 2)
    target = math.log(x)
    safe = var * math.log(1e4) / (2 * mean) if mean > 0 else math.inf
    gen = as_generator(seed)
    wealth = np.zeros(paths)
    alive = np.ones(paths, bool)
    hit = np.zeros(paths, bool)
    done = 0
    while alive.any() and done < max_bets:
        step = min(4096, max_bets - done)
        idx = np.flatnonzero(alive)
        cum = wealth[idx] + np.cumsum(steps[gen.choice(len(p), size=(step, len(idx)), p=p)], axis=0)
        low = cum <= target
        high = cum >= safe
        first_low = np.where(low.any(axis=0), low.argmax(axis=0), step)
        first_high = np.where(high.any(axis=0), high.argmax(axis=0), step)
        down = (first_low < step) & (first_low < first_high)
        hit[idx[down]] = True
        alive[idx[down | (first_high < first_low)]] = False
        wealth[idx] = cum[-1]
        done += step
    return _proportion(int(hit.sum()), paths, confidence)
