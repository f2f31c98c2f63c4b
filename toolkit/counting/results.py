"""What a strategy won: per-shoe totals, estimates with confidence intervals, DI, SCORE, N0, risk of ruin.

**Results** (:class:`Results`) are computed from per-shoe totals
(:class:`ShoeTotals`; shoes are independent, so normal confidence intervals from
per-shoe totals are valid): bets per shoe, mean edge when betting (expected
value per unit staked), units won per shoe realised and from the exact EV of
each bet placed (the lower-variance estimate), per hand and per 100 hands (a
*hand* is a coup dealt, bet or not), standard deviation, DI, SCORE, N0 and the
risk of ruin for a bankroll (diffusion formula and a simulation).

**Look-ahead check.**  Whatever the stakes, the realised win minus the exact
expectation of the bets placed has mean zero for a strategy that decides before
the coup (it is a sum of martingale differences).  A strategy that peeks at the
coup (or is fed the state after the coup: the classic off-by-one of counting
simulators) gives a realised win many standard errors away from its expected
win, and :func:`summarize` raises :class:`LookAheadError` when ``|z| > 6``
(false alarm about 2e-9 for an honest strategy).

>>> n = 100
>>> totals = ShoeTotals(np.full(n, 80), np.full(n, 2), np.full(n, 2.0), np.zeros(n), np.full(n, 0.1), np.zeros(n))
>>> res = summarize("flat", totals, check=False)
>>> res.shoes, res.units_per_shoe_ev.value, res.units_per_100_hands_ev.value
(100, 0.1, 0.125)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from toolkit._check import positive_int
from toolkit._show import html_table, interval, text_table
from toolkit._stats import normal_quantile, ratio_interval, wilson_interval
from toolkit.parallel import SeedLike, as_generator

__all__ = [
    "LOOKAHEAD_Z",
    "Estimate",
    "LookAheadError",
    "Results",
    "ShoeTotals",
    "ruin_paths",
    "summarize",
]

#: ``|z|`` above which the realised win is declared inconsistent with pre-coup expectations.
LOOKAHEAD_Z = 6.0
#: Bets a strategy must have placed before the look-ahead check applies (see :meth:`Results.check`).
LOOKAHEAD_MIN_BETS = 1000


class LookAheadError(RuntimeError):
    """A strategy's realised win is inconsistent with the exact expectation of its bets before each coup."""


# ----------------------------------------------------------------- per-shoe totals
@dataclass(frozen=True, eq=False)
class ShoeTotals:
    """Per-shoe totals of one strategy: the sufficient statistics of every result.

    ``hands`` coups dealt, ``bets`` bets placed, ``staked`` units staked,
    ``won`` realised units, ``ev`` exact expected units of the bets placed,
    ``low`` the lowest point of the running win within the shoe (0 or less).

    Attributes
    ----------
    hands
        Coups dealt, per shoe.
    bets
        Bets placed.
    staked
        Units staked.
    won
        Units won (realised).
    ev
        Expected units of the bets placed, from their exact EVs before each coup.
    low
        Lowest point of the running win within the shoe (0 or less).
    """

    hands: np.ndarray
    bets: np.ndarray
    staked: np.ndarray
    won: np.ndarray
    ev: np.ndarray
    low: np.ndarray

    def __len__(self) -> int:
        return len(self.hands)

    def __repr__(self) -> str:
        return (
            f"ShoeTotals({len(self):,} shoes, {int(self.bets.sum()):,} bets, {float(self.won.sum()):+,.6g} units won)"
        )

    @classmethod
    def concat(cls, parts: Sequence[ShoeTotals]) -> ShoeTotals:
        """The totals of several runs (blocks of shoes), one after the other."""
        names = ("hands", "bets", "staked", "won", "ev", "low")
        return cls(**{n: np.concatenate([getattr(p, n) for p in parts]) for n in names})

    def frame(self) -> pl.DataFrame:
        """One row per shoe: ``hands, bets, staked, won, ev, low``."""
        return pl.DataFrame({n: getattr(self, n) for n in ("hands", "bets", "staked", "won", "ev", "low")})


# --------------------------------------------------------------------- results
@dataclass(frozen=True)
class Estimate:
    """A value with its standard error and confidence interval.

    Attributes
    ----------
    value
        The estimate.
    se
        Its standard error.
    low, high
        The confidence interval.
    """

    value: float
    se: float
    low: float
    high: float

    @property
    def ci(self) -> list[float]:
        """``[low, high]``: the confidence interval as a list."""
        return [self.low, self.high]

    def scaled(self, k: float) -> Estimate:
        """The estimate times ``k`` (its interval ordered again when ``k < 0``)."""
        lo, hi = sorted((self.low * k, self.high * k))
        return Estimate(self.value * k, self.se * abs(k), lo, hi)


def _mean(x: np.ndarray, z: float) -> Estimate:
    n = len(x)
    m = float(x.mean()) if n else math.nan
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Estimate(m, se, m - z * se, m + z * se)


def _ratio(num: np.ndarray, den: np.ndarray, z: float) -> Estimate:
    """sum(num) / sum(den) with a delta-method standard error (per-shoe pairs independent)."""
    n, total = len(num), float(den.sum())
    if total == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    r = float(num.sum()) / total
    resid = num - r * den
    se = float(math.sqrt((resid**2).sum() * n / max(n - 1, 1)) / total) if n > 1 else math.nan
    return Estimate(r, se, r - z * se, r + z * se)


@dataclass(frozen=True, eq=False)
class Results:
    """What a strategy won over independent shoes, with confidence intervals (see the module notes).

    Per-hand figures treat every coup dealt as a hand.  DI, SCORE and N0 use
    the expected win (from the exact EV of each bet placed) and the realised
    standard deviation per hand; their intervals carry the uncertainty of the
    expected win (that of the standard deviation is much smaller).

    Attributes
    ----------
    strategy
        The strategy's name.
    totals
        The per-shoe totals (:class:`ShoeTotals`) every figure comes from.
    confidence
        Confidence of the intervals.
    description
        What the strategy plays.
    """

    strategy: str
    totals: ShoeTotals
    confidence: float = 0.95
    description: str = ""

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        def est(e: Estimate) -> str:
            return interval(e.value, e.low, e.high)

        title = (
            f"Results {self.strategy!r}: {self.shoes:,} shoes, {self.n_bets:,} bets ({self.confidence:.0%} intervals)"
        )
        rows: list[tuple[str, object]] = [
            ("bets per shoe", est(self.bets_per_shoe)),
            ("mean edge (EV per unit bet)", est(self.mean_edge)),
            ("units per 100 hands (EV)", est(self.units_per_100_hands_ev)),
            ("units per 100 hands (won)", est(self.units_per_100_hands)),
            ("SD per 100 hands", self.sd_per_100_hands),
            ("DI", est(self.di)),
            ("SCORE", est(self.score)),
            ("N0 (hands)", est(self.n0)),
            ("look-ahead z", self.lookahead_z),
        ]
        if self.note:
            rows.append(("note", self.note))
        return title, rows

    def __repr__(self) -> str:
        """The headline figures in a few lines (:meth:`frame` and :meth:`as_dict` hold them all)."""
        return text_table(*self._shown())

    def _repr_html_(self) -> str:
        return html_table(*self._shown())

    # ------------------------------------------------------------ basic sums
    @property
    def z(self) -> float:
        """The two-sided normal quantile of :attr:`confidence` (1.96 for 0.95)."""
        return normal_quantile(self.confidence)

    @property
    def shoes(self) -> int:
        """Shoes played."""
        return len(self.totals)

    @property
    def hands_per_shoe(self) -> Estimate:
        """Coups dealt per shoe."""
        return _mean(self.totals.hands.astype(np.float64), self.z)

    @property
    def bets_per_shoe(self) -> Estimate:
        """Bets placed per shoe."""
        return _mean(self.totals.bets.astype(np.float64), self.z)

    @property
    def bet_frequency(self) -> Estimate:
        """The share of hands bet: bets placed / hands dealt, with a delta-method interval over shoes.

        (For a strategy of one play; with several plays a hand bet twice counts twice.)
        """
        a = self.totals.bets.astype(np.float64)
        t = self.totals.hands.astype(np.float64)
        n = len(a)
        if n < 2 or not t.sum():
            r = float(a.sum() / t.sum()) if t.sum() else math.nan
            return Estimate(r, math.nan, math.nan, math.nan)
        sums = (a.sum(), t.sum(), (a * a).sum(), (a * t).sum(), (t * t).sum())
        r, lo, hi = ratio_interval(*sums, n, self.confidence)
        se = self._ratio_se(float(r), sums, n)
        return Estimate(float(r), se, float(lo), float(hi))

    @staticmethod
    def _ratio_se(r: float, sums: tuple[float, ...], n: int) -> float:
        _a, t, aa, at, tt = sums
        return math.sqrt(max(aa - 2 * r * at + r * r * tt, 0.0) / n / (n - 1)) / (t / n)

    @property
    def staked_per_shoe(self) -> Estimate:
        """Units staked per shoe."""
        return _mean(self.totals.staked, self.z)

    @property
    def mean_edge(self) -> Estimate:
        """Exact expected value per unit staked, over the bets placed."""
        return _ratio(self.totals.ev, self.totals.staked, self.z)

    @property
    def realised_edge(self) -> Estimate:
        """Realised win per unit staked."""
        return _ratio(self.totals.won, self.totals.staked, self.z)

    @property
    def units_per_shoe(self) -> Estimate:
        """Realised units won per shoe."""
        return _mean(self.totals.won, self.z)

    @property
    def units_per_shoe_ev(self) -> Estimate:
        """Expected units won per shoe: the exact EV of each bet placed (lower variance)."""
        return _mean(self.totals.ev, self.z)

    @property
    def units_per_hand(self) -> Estimate:
        """Realised units won per hand (coup dealt)."""
        return _ratio(self.totals.won, self.totals.hands.astype(np.float64), self.z)

    @property
    def units_per_hand_ev(self) -> Estimate:
        """Expected units won per hand, from the exact EV of each bet placed."""
        return _ratio(self.totals.ev, self.totals.hands.astype(np.float64), self.z)

    @property
    def units_per_100_hands(self) -> Estimate:
        """Realised units won per 100 hands."""
        return self.units_per_hand.scaled(100)

    @property
    def units_per_100_hands_ev(self) -> Estimate:
        """Expected units won per 100 hands."""
        return self.units_per_hand_ev.scaled(100)

    @property
    def sd_per_shoe(self) -> float:
        """Standard deviation of the realised win of a shoe."""
        return float(self.totals.won.std(ddof=1)) if self.shoes > 1 else math.nan

    @property
    def sd_per_hand(self) -> float:
        """Standard deviation per hand: a shoe of ``h`` hands has variance ``h * sd_per_hand**2``."""
        hands = self.totals.hands.astype(np.float64)
        mu = self.units_per_hand.value
        if self.shoes < 2 or not hands.sum():
            return math.nan
        return float(
            math.sqrt(((self.totals.won - mu * hands) ** 2).sum() / hands.sum() * self.shoes / (self.shoes - 1))
        )

    @property
    def sd_per_100_hands(self) -> float:
        """Standard deviation of the win over 100 hands."""
        return 10.0 * self.sd_per_hand

    def sd_estimate(self, per: str = "shoe") -> Estimate:
        """The standard deviation per ``"shoe"``, ``"100 hands"`` or ``"hand"`` with its interval.

        Delta method without a normality assumption (shoe totals are skewed):
        ``se(s) = sqrt(m4 - s^4) / (2 s sqrt(n))`` with ``m4`` the fourth
        central moment of the shoe totals; per hand it has the same relative error.
        """
        values = {"shoe": self.sd_per_shoe, "100 hands": self.sd_per_100_hands, "hand": self.sd_per_hand}
        if per not in values:
            raise ValueError(f"per must be one of {', '.join(values)}, got {per!r}")
        won, n, s = self.totals.won, self.shoes, self.sd_per_shoe
        if n < 2 or not s > 0:
            return Estimate(values[per], math.nan, math.nan, math.nan)
        m4 = float(((won - won.mean()) ** 4).mean())
        rel = math.sqrt(max(m4 - s**4, 0.0)) / (2 * s * s * math.sqrt(n))
        v = values[per]
        return Estimate(v, v * rel, v * (1 - self.z * rel), v * (1 + self.z * rel))

    @property
    def lookahead_z(self) -> float:
        """z statistic of realised minus expected win (near 0 unless the strategy looks ahead)."""
        d = self.totals.won - self.totals.ev
        if self.shoes < 2:
            return 0.0
        sd = d.std(ddof=1)
        return 0.0 if sd == 0 else float(d.mean() / (sd / math.sqrt(self.shoes)))

    # ------------------------------------------------------- risk measures
    @property
    def n_bets(self) -> int:
        """Bets placed over all the shoes (0: the strategy never bet, and its ratios are undefined)."""
        return int(self.totals.bets.sum())

    @property
    def note(self) -> str | None:
        """Why some figures are undefined (``None`` when every figure is defined)."""
        if self.n_bets == 0:
            return (
                f"no bet was placed in {self.shoes} shoe(s): the edge, DI, SCORE and N0 are undefined "
                "(null), and nothing was won or lost"
            )
        return None

    @property
    def di(self) -> Estimate:
        """Desirability index: 1000 x expected win per hand / SD per hand (undefined, NaN, when the SD is 0)."""
        sd = self.sd_per_hand
        if not sd > 0:
            return Estimate(math.nan, math.nan, math.nan, math.nan)
        return self.units_per_hand_ev.scaled(1000.0 / sd)

    @property
    def score(self) -> Estimate:
        """SCORE = DI squared: expected win per 100 hands with a 10,000-unit bankroll at optimal bets."""
        di = self.di
        lo, hi = sorted((di.low**2, di.high**2))
        if di.low <= 0 <= di.high:
            lo = 0.0
        return Estimate(di.value**2, 2 * abs(di.value) * di.se, lo, hi)

    @property
    def n0(self) -> Estimate:
        """N0 = (SD / EV)^2 per hand: hands to play before the expected win equals one SD."""
        s = self.score
        if math.isnan(s.value):
            return Estimate(math.nan, math.nan, math.nan, math.nan)
        inv = [1e6 / v if v > 0 else math.inf for v in (s.value, s.high, s.low)]
        return Estimate(inv[0], inv[0] * s.se / s.value if s.value > 0 else math.inf, inv[1], inv[2])

    def risk_of_ruin(self, bankroll: float) -> Estimate:
        """Risk of ruin of ``bankroll`` units, diffusion formula ``exp(-2 mu B / sigma^2)`` per shoe.

        ``mu`` is the expected win per shoe, ``sigma`` the realised SD per shoe;
        1 when ``mu <= 0``.  The interval carries the uncertainty of ``mu``.
        """
        if not bankroll > 0:
            raise ValueError(f"bankroll must be positive, got {bankroll!r}")
        mu = self.units_per_shoe_ev
        var = self.sd_per_shoe**2

        def ror(m: float) -> float:
            if var == 0:  # no risk taken: ruin only by a sure loss
                return 1.0 if m < 0 else 0.0
            return 1.0 if m <= 0 else math.exp(-2 * m * bankroll / var)

        value = ror(mu.value)
        se = value * 2 * bankroll / var * mu.se if var > 0 and mu.value > 0 else 0.0
        return Estimate(value, se, ror(mu.high), ror(mu.low))

    def simulated_risk_of_ruin(
        self,
        bankroll: float,
        paths: int = 2000,
        max_shoes: int = 20_000,
        seed: SeedLike = None,
        recentre: bool = True,
    ) -> Estimate:
        """Risk of ruin by simulation: sessions of shoes resampled from these results.

        Each path plays shoes drawn with replacement from the observed ones
        (with their lowest point within the shoe) until the bankroll is gone,
        or is so large that the formula puts its risk below 1e-4, or
        ``max_shoes`` shoes were played (a finite horizon when the game is not
        favourable).  With ``recentre`` (the default) the resampled shoe totals
        are shifted by the difference between the expected and the realised
        mean win per shoe, so that the simulation and :meth:`risk_of_ruin`
        describe the same game (the realised mean is the noisier estimate).
        Wilson interval for the proportion ruined.  ``seed``: an integer, a
        :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator`
        (its stream continues) or ``None``.
        """
        if not bankroll > 0:
            raise ValueError(f"bankroll must be positive, got {bankroll!r}")
        paths = positive_int(paths, "paths")
        max_shoes = positive_int(max_shoes, "max_shoes")
        gen = as_generator(seed)
        won, low = self.totals.won, self.totals.low
        if recentre and self.shoes:
            won = won + (self.units_per_shoe_ev.value - self.units_per_shoe.value)
        mu, var = self.units_per_shoe_ev.value, self.sd_per_shoe**2
        ruined_at, _ = ruin_paths(won, low, float(bankroll), mu, var, paths, max_shoes, gen)
        ruined = np.isfinite(ruined_at)
        k = int(ruined.sum())
        low, high = wilson_interval(k, paths, self.confidence)
        p = k / paths
        return Estimate(p, math.sqrt(p * (1 - p) / paths), float(low), float(high))

    # --------------------------------------------------------------- reports
    def check(self, z_max: float = LOOKAHEAD_Z) -> None:
        """Raise :class:`LookAheadError` if the realised win is ``z_max`` SEs from the expected win.

        A look-ahead shows either way: a strategy that sees the coup wins more than the
        expectations before the coup say, and one fed the state *after* the coup bets when the
        coup went its way and wins less.  The test needs the central limit theorem: a long shot
        (a 200:1 side bet) placed a few times leaves the shoes' sample SD too small, so the check
        waits until the strategy has placed at least :data:`LOOKAHEAD_MIN_BETS` bets.
        """
        z = self.lookahead_z
        if self.shoes >= 30 and self.n_bets >= LOOKAHEAD_MIN_BETS and abs(z) > z_max:
            raise LookAheadError(
                f"strategy {self.strategy!r}: realised win {self.units_per_shoe.value:+.4f} units/shoe vs "
                f"{self.units_per_shoe_ev.value:+.4f} expected from the exact EV before each coup "
                f"(z = {z:+.1f} over {self.shoes} shoes): its bets use information from the coup itself"
            )

    def as_dict(self, bankroll: float | None = None) -> dict[str, object]:
        """Every figure as plain data (JSON-ready)."""

        def est(e: Estimate) -> float:
            return e.value

        out: dict[str, object] = {
            "strategy": self.strategy,
            "description": self.description,
            "shoes": self.shoes,
            "confidence": self.confidence,
            "hands_per_shoe": self.hands_per_shoe.value,
            "bets_per_shoe": self.bets_per_shoe.value,
            "bets_per_shoe_ci": self.bets_per_shoe.ci,
            "staked_per_shoe": self.staked_per_shoe.value,
            "mean_edge": self.mean_edge.value,
            "mean_edge_ci": self.mean_edge.ci,
            "units_per_shoe": self.units_per_shoe.value,
            "units_per_shoe_ci": self.units_per_shoe.ci,
            "units_per_shoe_ev": self.units_per_shoe_ev.value,
            "units_per_shoe_ev_ci": self.units_per_shoe_ev.ci,
            "units_per_100_hands": self.units_per_100_hands.value,
            "units_per_100_hands_ci": self.units_per_100_hands.ci,
            "units_per_100_hands_ev": self.units_per_100_hands_ev.value,
            "units_per_100_hands_ev_ci": self.units_per_100_hands_ev.ci,
            "units_per_hand": self.units_per_hand.value,
            "units_per_hand_ci": self.units_per_hand.ci,
            "units_per_hand_ev": self.units_per_hand_ev.value,
            "units_per_hand_ev_ci": self.units_per_hand_ev.ci,
            "sd_per_shoe": self.sd_per_shoe,
            "sd_per_shoe_ci": self.sd_estimate("shoe").ci,
            "sd_per_100_hands": self.sd_per_100_hands,
            "sd_per_hand": self.sd_per_hand,
            "di": est(self.di),
            "di_ci": self.di.ci,
            "score": est(self.score),
            "score_ci": self.score.ci,
            "n0": est(self.n0),
            "n0_ci": self.n0.ci,
            "lookahead_z": self.lookahead_z,
            "bets": self.n_bets,
        }
        if self.note is not None:
            out["note"] = self.note
        if bankroll is not None:
            ror = self.risk_of_ruin(bankroll)
            out.update({"bankroll": bankroll, "risk_of_ruin": ror.value, "risk_of_ruin_ci": ror.ci})
        return {k: _jsonable(v) for k, v in out.items()}

    def frame(self) -> pl.DataFrame:
        """Long frame: ``metric, per, value, se, ci_low, ci_high`` (per shoe, per 100 hands, per hand)."""
        rows = []

        def add(metric: str, per: str, e: Estimate | float) -> None:
            if isinstance(e, Estimate):
                rows.append(
                    {"metric": metric, "per": per, "value": e.value, "se": e.se, "ci_low": e.low, "ci_high": e.high}
                )
            else:
                rows.append({"metric": metric, "per": per, "value": e, "se": None, "ci_low": None, "ci_high": None})

        add("bets", "shoe", self.bets_per_shoe)
        add(
            "bets",
            "100 hands",
            _ratio(self.totals.bets.astype(float), self.totals.hands.astype(float), self.z).scaled(100),
        )
        add("bets", "hand", _ratio(self.totals.bets.astype(float), self.totals.hands.astype(float), self.z))
        add("mean_edge", "unit staked", self.mean_edge)
        add("units_won", "shoe", self.units_per_shoe)
        add("units_won", "100 hands", self.units_per_100_hands)
        add("units_won", "hand", self.units_per_hand)
        add("units_expected", "shoe", self.units_per_shoe_ev)
        add("units_expected", "100 hands", self.units_per_100_hands_ev)
        add("units_expected", "hand", self.units_per_hand_ev)
        for per in ("shoe", "100 hands", "hand"):
            add("sd", per, self.sd_estimate(per))
        add("di", "hand", self.di)
        add("score", "100 hands", self.score)
        add("n0", "hands", self.n0)
        return (
            pl.DataFrame(rows)
            .with_columns(pl.lit(self.strategy).alias("strategy"))
            .select("strategy", "metric", "per", "value", "se", "ci_low", "ci_high")
        )


def _jsonable(v: object) -> object:
    if isinstance(v, float) and not math.isfinite(v):
        return None if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


def summarize(
    name: str, totals: ShoeTotals, confidence: float = 0.95, check: bool = True, description: str = ""
) -> Results:
    """Results from per-shoe totals; with ``check``, refuse a strategy that looks ahead (:class:`LookAheadError`).

    Parameters
    ----------
    name
        The strategy's name.
    totals
        Its per-shoe totals.
    confidence
        Confidence of the intervals, in (0, 1).
    check
        Raise :class:`LookAheadError` if the realised win is far from the expected win.
    description
        What the strategy plays.

    Returns
    -------
    Results
        The figures with their intervals.

    Examples
    --------
    >>> n = 50
    >>> t = ShoeTotals(np.full(n, 80), np.ones(n), np.ones(n), np.zeros(n), np.full(n, 0.1), np.zeros(n))
    >>> round(summarize("one bet a shoe", t, check=False).mean_edge.value, 12)
    0.1
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    res = Results(name, totals, confidence, description)
    if check:
        res.check()
    return res


def ruin_paths(
    won: np.ndarray,
    low: np.ndarray,
    bankroll: float,
    mu: float,
    var: float,
    paths: int,
    max_shoes: int,
    gen: np.random.Generator,
    goal: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Bankroll paths of shoes drawn with replacement from ``won``: when each was ruined, and reached ``goal``.

    Ruin is checked at each shoe's lowest point ``low``; the goal at the end of
    each shoe.  A path stops once ruined, or once its bankroll is so high (and
    past the goal) that the diffusion formula with mean ``mu`` and variance
    ``var`` per shoe puts its risk below 1e-4, or after ``max_shoes`` shoes.
    Returns the shoe (from 1) of ruin and of the goal for every path, ``inf``
    where it did not happen.
    """
    safe = bankroll + (var * math.log(1e4) / (2 * mu) if mu > 0 and var > 0 else math.inf)
    safe = max(safe, goal if goal is not None else -math.inf)
    bank = np.full(paths, bankroll)
    alive = np.ones(paths, bool)
    ruined_at = np.full(paths, np.inf)
    goal_at = np.full(paths, np.inf)
    played = 0
    while alive.any() and played < max_shoes:
        step = min(256, max_shoes - played)
        idx = np.flatnonzero(alive)
        draw = gen.integers(0, len(won), size=(step, len(idx)))
        path = bank[idx] + np.cumsum(won[draw], axis=0)
        before = np.vstack([bank[idx][None, :], path[:-1]])
        broke = (before + low[draw]) <= 0
        first_broke = np.where(broke.any(axis=0), broke.argmax(axis=0), step)
        if goal is not None:
            reached = path >= goal
            first_goal = np.where(reached.any(axis=0), reached.argmax(axis=0), step)
            new_goal = (first_goal < step) & np.isinf(goal_at[idx]) & (first_goal < first_broke)
            goal_at[idx[new_goal]] = played + first_goal[new_goal] + 1
        over = path >= safe
        first_safe = np.where(over.any(axis=0), over.argmax(axis=0), step)
        is_ruined = (first_broke < step) & (first_broke <= first_safe)
        ruined_at[idx[is_ruined]] = played + first_broke[is_ruined] + 1
        alive[idx[is_ruined | (first_safe < first_broke) & (first_safe < step)]] = False
        bank[idx] = path[-1]
        played += step
    return ruined_at, goal_at
