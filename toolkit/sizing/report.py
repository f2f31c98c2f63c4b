r"""One counter, one bankroll: :func:`bankroll` plays a sized strategy through simulated shoes and reports its risks.

The strategy is a count system's bet, staked flat, by a ramp of units, or at a
fraction of Kelly (:mod:`toolkit.sizing.plays`), on a bankroll of ``B`` units.
It is played through ``n_shoes`` dealt shoes by the counting harness
(:func:`toolkit.counting.harness.run_strategies`: exact expected values, the
look-ahead check); from the per-shoe results come

* ``risk_of_ruin``, ``trip_risk`` (ruin within one session of
  ``hours_per_session`` hours at ``hands_per_hour``), ``p_goal`` (reaching the
  bankroll ``goal`` before ruin): each by the best formula that applies
  (``formula``, named by ``method``, see :data:`METHODS`), by the diffusion
  formula for comparison (``diffusion``), and by simulation of paths of
  resampled shoes (:mod:`toolkit.sizing.risk`), with an interval.  The formula
  is the exact solution of the walk (``"exact walk"``,
  :class:`~toolkit.sizing.lattice.LatticeWalk`) when the shoe results lie on a
  lattice (flat bets of whole units on bets paying whole multiples, stakes
  rounded to chips), and Lundberg's (``"Lundberg"``) otherwise; the diffusion
  formula treats the walk as a Brownian motion, far off for the lumpy 40:1 payouts;
* ``win_per_hour`` (expected units per hand times hands per hour: every coup
  dealt takes the counter's time, bet or not);
* ``score``: Schlesinger's SCORE, :math:`10^6 (\mathrm{EV}/\mathrm{SD})^2` per
  hand, the expected win per 100 hands of a player betting optimally with a
  bankroll of 10,000 bet units (*Blackjack Attack*, 3rd ed., ch. 10; the same as
  :attr:`toolkit.counting.results.Results.score`, independent of the bet unit),
  given the sign of the expected win (SCORE is a rate of win: a losing game has a negative one);
* ``di``: the desirability index, :math:`1000\,\mathrm{EV}/\mathrm{SD}` per hand (the square root of SCORE);
* ``n0``: :math:`(\mathrm{SD}/\mathrm{EV})^2` per hand, the hands after which the
  expected win equals one standard deviation (the long run begins; ``inf`` without an edge);
* ``certainty_equivalent``: the sure win per hour worth as much to a
  log-utility (Kelly) player with this bankroll, :math:`\mathrm{EV}_h -
  \sigma_h^2 / (2B)` per hour (the quadratic approximation of the log; Schlesinger, ch. 10);
* ``mean_bet`` (units per bet placed) and ``units_per_shoe`` (expected).

With ``method="computed"`` the win rate (units per shoe, per hand and per hour, bets and mean bet) is computed
from the count's exact law (:mod:`toolkit.sizing.computed`), with no simulation noise; the SD and the risks still
come from the dealt shoes (their results recentred on the computed win), as the report's ``note`` says.

Probabilities below :data:`NEGLIGIBLE` are shown as ``< 1e-12``
(:func:`probability_text`); the JSON and CSV keep every digit.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import one_of, positive_int
from toolkit._show import html_table, text_table
from toolkit.bets.paytable import PayTable
from toolkit.counting.computed import CountValue
from toolkit.counting.harness import run_strategies
from toolkit.counting.results import Estimate, Results
from toolkit.counting.strategies import Ramp, Strategy
from toolkit.counting.systems import CountSystem
from toolkit.dealing.dealer import Dealing
from toolkit.parallel import SeedLike, as_seed_sequence
from toolkit.sizing._args import positive
from toolkit.sizing.computed import WIN_RATE_NOTE, computed_win
from toolkit.sizing.lattice import LatticeWalk
from toolkit.sizing.plays import Limits, sized_strategy
from toolkit.sizing.risk import (
    MAX_PATHS,
    bankroll_paths,
    goal_diffusion,
    goal_lundberg,
    ruin_diffusion,
    ruin_lundberg,
    session_results,
    simulate_risk,
    trip_ruin_diffusion,
    trip_ruin_lundberg,
)

__all__ = ["METHODS", "NEGLIGIBLE", "BankrollReport", "bankroll_report", "probability_text"]

#: A probability below this is shown as ``< 1e-12`` (a float keeps no meaning there for a bankroll).
NEGLIGIBLE = 1e-12

#: What each formula of the report is (the ``method`` of a figure), for the legend.
METHODS = {
    "exact walk": "the exact solution of the walk of shoe results, which lie on a lattice (whole multiples "
    "of one unit): its linear equations solved, the shoes reweighted to the expected win",
    "Lundberg": "exp(-R B), R solving mean(exp(-R X)) = 1 over the shoe results X; the trip risk is its "
    "finite-time bound and the goal (1 - exp(-R B)) / (1 - exp(-R G))",
    "diffusion": "the walk taken as a Brownian motion of the same mean and SD per shoe: exp(-2 mu B / sigma^2), "
    "the first passage within the trip, the double barrier; far off for skewed payouts such as 40:1",
}

#: The other figures of the report, as the table names them and what they are.
TERMS = {
    "SCORE": "expected win per 100 hands with a 10,000-unit bankroll at optimal bets, 10^6 (EV/SD)^2 per hand",
    "DI": "desirability index, 1000 EV/SD per hand (the square root of SCORE)",
    "N0": "hands after which the expected win equals one SD, (SD/EV)^2 per hand",
    "certainty equivalent": "the sure win per hour worth as much to a Kelly (log-utility) player, EV - SD^2 / (2 B)",
}


def probability_text(p: float | None, digits: int = 4) -> str:
    """A probability as a table shows it: ``< 1e-12`` below :data:`NEGLIGIBLE`, ``-`` for none.

    Parameters
    ----------
    p
        The probability.
    digits
        Significant digits.

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> probability_text(1.96e-69), probability_text(0.0), probability_text(0.0576515), probability_text(None)
    ('< 1e-12', '0', '0.05765', '-')
    """
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    if p == 0:
        return "0"
    if p < NEGLIGIBLE:
        return f"< {NEGLIGIBLE:.0e}"
    return f"{p:.{digits}g}"


def _figure(formula: tuple[float, str], diffusion: float, simulated: Estimate | None) -> dict[str, object]:
    value, method = formula
    out: dict[str, object] = {"formula": value, "method": method, "diffusion": diffusion}
    out.update({"simulated": None, "simulated_ci": None} if simulated is None else
               {"simulated": simulated.value, "simulated_ci": simulated.ci})  # fmt: skip
    return out


def _formulas(
    walk: LatticeWalk | None, law: tuple[np.ndarray, np.ndarray, np.ndarray | None], b: float, g: float, trip: int
) -> dict[str, tuple[float, str]]:
    """The best formula for each risk: the exact lattice walk where it can be solved, Lundberg's otherwise."""
    out: dict[str, tuple[float, str]] = {}
    if walk is not None:
        for name, solve in (("risk_of_ruin", lambda: walk.ruin(b)), ("trip_risk", lambda: walk.trip_ruin(b, trip)),
                            ("p_goal", lambda: walk.goal(b, g))):  # fmt: skip
            with contextlib.suppress(ValueError):  # too many lattice points, too long a trip: Lundberg below
                out[name] = (solve(), "exact walk")
    won, _, weights = law
    p = np.full(len(won), 1 / len(won)) if weights is None else weights
    mu = float(p @ won)
    sigma = math.sqrt(max(float(p @ (won - mu) ** 2), 1e-300))
    out.setdefault("risk_of_ruin", (ruin_lundberg(won, b, weights), "Lundberg"))
    if mu > 0:
        out.setdefault("trip_risk", (trip_ruin_lundberg(won, b, trip, weights), "Lundberg"))
        out.setdefault("p_goal", (goal_lundberg(won, b, g, weights), "Lundberg"))
    else:  # no edge: ruin is certain, and Lundberg's formula says nothing of the time it takes
        out.setdefault("trip_risk", (trip_ruin_diffusion(mu, sigma, b, trip), "diffusion"))
        out.setdefault("p_goal", (goal_diffusion(mu, sigma, b, g), "diffusion"))
    return out


@dataclass(frozen=True, eq=False)
class BankrollReport:
    """What :func:`bankroll` found: the harness's :class:`~toolkit.counting.results.Results` and the risks.

    Attributes
    ----------
    results
        What the strategy won.
    bankroll, goal
        Bankroll and goal, in units.
    hands_per_hour, hours_per_session
        Dealing speed and session length.
    risk
        ``risk_of_ruin``, ``trip_risk`` and ``p_goal``, each a mapping: ``formula``
        (the best that applies), ``method`` (which it is: a key of :data:`METHODS`),
        ``diffusion`` (the Brownian formula, for comparison), ``simulated`` and
        ``simulated_ci``; ``risk_of_ruin`` also holds ``lundberg``, ``trip_risk`` its ``shoes``.
    seed
        The seed of the run.
    trip_shoes
        Shoes in a trip, when given.
    paths_simulated
        Bankroll paths simulated.
    computed
        The win computed from the count's law (``method="computed"``), or ``None``: the win rate then comes from it.
    """

    results: Results
    bankroll: float
    goal: float
    hands_per_hour: float
    hours_per_session: float
    risk: dict[str, dict[str, object]]
    seed: np.random.SeedSequence
    trip_shoes: int | None = None
    paths_simulated: int = 0
    computed: CountValue | None = None

    @property
    def method(self) -> str:
        """``"computed"`` (the win rate from the count's law) or ``"simulated"`` (from the dealt shoes)."""
        return "simulated" if self.computed is None else "computed"

    @property
    def note(self) -> str:
        """What the figures rest on."""
        if self.computed is None:
            return "every figure from the dealt shoes (simulated), the risks also by formula from their results"
        return WIN_RATE_NOTE

    @property
    def units_per_shoe(self) -> Estimate:
        """Expected units won per shoe: computed (an interval of no width) or from the dealt shoes."""
        if self.computed is None:
            return self.results.units_per_shoe_ev
        v = self.computed.units_per_shoe_ev
        return Estimate(v, 0.0, v, v)

    @property
    def hands_per_shoe(self) -> float:
        """Coups dealt per shoe (computed, or the mean over the dealt shoes)."""
        return self.results.hands_per_shoe.value if self.computed is None else self.computed.hands_per_shoe

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        r = self.results

        def risk(name: str) -> str:
            d = self.risk[name]
            sim = d["simulated"]
            text = f"{probability_text(d['formula'])} ({d['method']})"  # type: ignore[arg-type]
            return text + ("" if sim is None else f", {probability_text(sim)} (simulated)")  # type: ignore[arg-type]

        w = self.win_per_hour
        title = f"BankrollReport {r.strategy!r}: bankroll {self.bankroll:,g}, goal {self.goal:,g}, {r.shoes:,} shoes"
        title += ", win rate computed" if self.computed is not None else ""
        return title, [
            ("risk of ruin", risk("risk_of_ruin")),
            (f"trip risk ({self.shoes_per_session} shoes)", risk("trip_risk")),
            ("P(goal before ruin)", risk("p_goal")),
            ("win per hour", f"{w.value:.4g} " + ("(computed)" if w.se == 0 else f"[{w.low:.4g}, {w.high:.4g}]")),
            ("SD per hour", self.sd_per_hour),
            ("SCORE", self.score.value),
            ("certainty equivalent per hour", self.certainty_equivalent),
            ("mean bet", self.mean_bet),
        ]

    def tables(self) -> tuple[pl.DataFrame, pl.DataFrame, list[str]]:
        """The report as a terminal shows it: the risks, the other figures (text cells) and the legend's lines.

        Returns
        -------
        tuple
            The risks (``figure, formula, by, diffusion, simulated, interval``), the
            other figures (``figure, value, interval``), and one line per term used.
        """
        p = probability_text
        rows = []
        names = {"risk_of_ruin": "risk of ruin", "trip_risk": f"ruin in {self.shoes_per_session:,} shoes",
                 "p_goal": f"goal {self.goal:,g} first"}  # fmt: skip
        for key, label in names.items():
            d = self.risk[key]
            ci = d["simulated_ci"]
            band = "-" if not isinstance(ci, list) else f"{p(ci[0])} to {p(ci[1])}"
            rows.append({"figure": label, "formula": p(d["formula"]), "by": d["method"],  # type: ignore[arg-type]
                         "diffusion": p(d["diffusion"]), "simulated": p(d["simulated"]),  # type: ignore[arg-type]
                         "interval": band})  # fmt: skip
        risks = pl.DataFrame(rows)

        def num(x: float) -> str:
            if not math.isfinite(x):
                return "-"
            return f"{x:,.0f}" if abs(x) >= 1e4 else f"{x:.4g}"

        def est(e: Estimate) -> tuple[str, str]:
            if e.se == 0:
                return num(e.value), "computed"
            if math.isnan(e.low):
                return num(e.value), "-"
            return num(e.value), f"{num(e.low)} to {num(e.high)}"

        edge = self.mu > 0
        others = [
            ("win per hour (units)", *est(self.win_per_hour)),
            ("SD per hour (units)", num(self.sd_per_hour), "-"),
            ("SCORE", *est(self.score)),
            ("DI", *est(self.di)),
            ("N0 (hands)", *(est(self.n0) if edge else ("inf", "-"))),
            ("certainty equivalent per hour", num(self.certainty_equivalent), "-"),
            ("mean bet (units)", num(self.mean_bet), "-"),
            ("expected units per shoe", *est(self.units_per_shoe)),
        ]
        figures = pl.DataFrame(others, schema=["figure", "value", "interval"], orient="row")
        used = dict.fromkeys(str(d["method"]) for d in self.risk.values())
        legend = [f"formula, by {m}: {METHODS[m]}." for m in used]
        if "diffusion" not in used:
            legend.append(f"diffusion: {METHODS['diffusion']}.")
        legend.append(f"simulated: {self.paths_simulated:,} paths of shoes drawn from those dealt, "
                      f"with the {self.results.confidence:.0%} Wilson interval.")  # fmt: skip
        if self.computed is not None:
            legend.append(f"method computed: {WIN_RATE_NOTE}.")
        legend += [f"{term}: {text}." for term, text in TERMS.items()]
        return risks, figures, legend

    def __repr__(self) -> str:
        """The risks and the win rate in a few lines (:meth:`frame` and :meth:`as_dict` hold them all)."""
        return text_table(*self._shown())

    def _repr_html_(self) -> str:
        return html_table(*self._shown())

    @property
    def mu(self) -> float:
        """Expected units per shoe (computed with ``method="computed"``)."""
        return self.units_per_shoe.value

    @property
    def sigma(self) -> float:
        """Standard deviation per shoe."""
        return self.results.sd_per_shoe

    @property
    def shoes_per_session(self) -> int:
        """Shoes in a session (the trip of the trip risk): ``trip_shoes``, else the hours at the dealing speed."""
        if self.trip_shoes is not None:
            return self.trip_shoes
        return max(1, round(self.hours_per_session * self.hands_per_hour / self.hands_per_shoe))

    @property
    def win_per_hour(self) -> Estimate:
        """Expected units won per hour, with its interval (of no width when computed)."""
        return self._per_hand.scaled(self.hands_per_hour)

    @property
    def _per_hand(self) -> Estimate:
        """Expected units won per hand dealt."""
        if self.computed is None:
            return self.results.units_per_hand_ev
        return self.units_per_shoe.scaled(1 / self.computed.hands_per_shoe)

    @property
    def sd_per_hour(self) -> float:
        """Standard deviation of the win over an hour."""
        return self.results.sd_per_hand * math.sqrt(self.hands_per_hour)

    @property
    def certainty_equivalent(self) -> float:
        """Sure units per hour worth as much to a log-utility player: ``EV_h - SD_h^2 / (2 B)``."""
        return self.win_per_hour.value - self.sd_per_hour**2 / (2 * self.bankroll)

    @property
    def score(self) -> Estimate:
        """:attr:`~toolkit.counting.results.Results.score` with the sign of the expected win (negative if it loses)."""
        if self.computed is not None:  # the computed win over the dealt shoes' SD: no interval drawn for the SD
            v = 1e6 * (self._per_hand.value / self.results.sd_per_hand) ** 2
            v = v if self.mu >= 0 else -v
            return Estimate(v, math.nan, math.nan, math.nan)
        s = self.results.score
        return s if self.results.units_per_hand_ev.value >= 0 else s.scaled(-1.0)

    @property
    def di(self) -> Estimate:
        """Desirability index, ``1000 EV / SD`` per hand (:attr:`~toolkit.counting.results.Results.di`)."""
        if self.computed is not None:
            v = 1000 * self._per_hand.value / self.results.sd_per_hand
            return Estimate(v, math.nan, math.nan, math.nan)
        return self.results.di

    @property
    def n0(self) -> Estimate:
        """N0, ``(SD / EV)^2`` per hand (:attr:`~toolkit.counting.results.Results.n0`; ``inf`` without an edge)."""
        if self.computed is None:
            return self.results.n0
        v = 1e6 / self.score.value if self.score.value > 0 else math.inf
        return Estimate(v, math.nan, math.nan, math.nan)

    @property
    def mean_bet(self) -> float:
        """Mean stake of the bets placed (0 when none was)."""
        if self.computed is not None:
            c = self.computed
            return c.staked_per_shoe / c.bets_per_shoe if c.bets_per_shoe else 0.0
        t = self.results.totals
        return float(t.staked.sum() / t.bets.sum()) if t.bets.sum() else 0.0

    def won(self) -> np.ndarray:
        """Per-shoe results recentred on the expected win (the realised mean is the noisier estimate)."""
        r = self.results
        return r.totals.won + (self.mu - r.units_per_shoe.value)

    def paths(self, sessions: int = 50, paths: int = 2000, seed: SeedLike = None) -> pl.DataFrame:
        """Quantiles of the bankroll after each session (:func:`~toolkit.sizing.risk.bankroll_paths`)."""
        return bankroll_paths(
            self.won(), self.bankroll, sessions, self.shoes_per_session, paths, seed=seed, low=self.results.totals.low
        )

    def sessions(self, sessions: int = 10_000, seed: SeedLike = None) -> pl.DataFrame:
        """Results of simulated sessions (:func:`~toolkit.sizing.risk.session_results`), in units."""
        return session_results(self.won(), self.shoes_per_session, sessions, seed)

    def walk(self) -> LatticeWalk | None:
        """The shoes as a lattice walk reweighted to the expected win (``None`` off a lattice or without an edge)."""
        t = self.results.totals
        return LatticeWalk.from_shoes(t.won, t.low, mean=self.mu) if self.mu > 0 else None

    def law(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The law of a shoe the risks are computed for: results, lowest points, probabilities.

        On a lattice (:meth:`walk`), the distinct results reweighted to the
        expected win (exponential tilting keeps the lattice); otherwise every
        dealt shoe equally likely, shifted to the expected win (:meth:`won`).
        """
        walk = self.walk()
        if walk is None:
            return self.won(), self.results.totals.low, None
        return walk.steps * walk.unit, walk.lows * walk.unit, walk.probabilities

    def risk_curve(self, bankrolls: Iterable[float], paths: int = 0, seed: SeedLike = None) -> pl.DataFrame:
        """Risk of ruin against the bankroll: ``bankroll, formula, method, diffusion`` (and ``simulated, low, high``).

        ``formula`` is the best that applies (named by ``method``); with ``paths``
        the simulated risk and its interval.
        """
        rows = []
        gen = np.random.default_rng(as_seed_sequence(seed))
        walk, law = self.walk(), self.law()
        for value in bankrolls:
            b = positive(value, "bankroll")
            formula, method = _formulas(walk, law, b, 2 * b, 1)["risk_of_ruin"]
            row: dict[str, object] = {"bankroll": b, "formula": formula, "method": method,
                                      "diffusion": ruin_diffusion(self.mu, self.sigma, b)}  # fmt: skip
            if paths:
                sim = simulate_risk(law[0], b, law[1], paths=paths, seed=gen, weights=law[2]).ruin
                row.update({"simulated": sim.value, "low": sim.low, "high": sim.high})
            rows.append(row)
        return pl.DataFrame(rows)

    def as_dict(self) -> dict[str, object]:
        """Everything as plain data (the JSON of ``baccarat bankroll``)."""
        r = self.results
        w = self.win_per_hour
        out: dict[str, object] = {
            "strategy": r.strategy,
            "description": r.description,
            "method": self.method,
            "note": self.note,
            "shoes": r.shoes,
            "bankroll": self.bankroll,
            "goal": self.goal,
            "hands_per_hour": self.hands_per_hour,
            "hours_per_session": self.hours_per_session,
            "shoes_per_session": self.shoes_per_session,
            **self.risk,
            "win_per_hour": w.value,
            "win_per_hour_ci": w.ci,
            "sd_per_hour": self.sd_per_hour,
            "score": self.score.value,
            "score_ci": self.score.ci,
            "di": self.di.value,
            "di_ci": self.di.ci,
            "n0": self.n0.value if self.mu > 0 else math.inf,
            "certainty_equivalent": self.certainty_equivalent,
            "mean_bet": self.mean_bet,
            "bets_per_shoe": r.bets_per_shoe.value if self.computed is None else self.computed.bets_per_shoe,
            "units_per_shoe": self.mu,
            "units_per_shoe_ci": self.units_per_shoe.ci,
            "sd_per_shoe": r.sd_per_shoe,
        }
        return {k: _plain(v) for k, v in out.items()}

    def frame(self) -> pl.DataFrame:
        """The figures as rows ``figure, formula, method, diffusion, simulated, ci_low, ci_high`` (full precision).

        The risks have their best ``formula`` (named by ``method``), the
        ``diffusion`` formula and the ``simulated`` share with its interval; the
        other figures (``win_per_hour``, ``score``, ``di``, ``certainty_equivalent``,
        ``mean_bet``, ``units_per_shoe``) their value under ``simulated``.
        """
        rows = []
        for name in ("risk_of_ruin", "trip_risk", "p_goal"):
            d = self.risk[name]
            ci = d["simulated_ci"] if isinstance(d["simulated_ci"], list) else [None, None]
            rows.append({"figure": name, "formula": d["formula"], "method": d["method"], "diffusion": d["diffusion"],
                         "simulated": d["simulated"], "ci_low": ci[0], "ci_high": ci[1]})  # fmt: skip
        w = self.win_per_hour
        for name, value, ci in (
            ("win_per_hour", w.value, w.ci),
            ("score", self.score.value, self.score.ci),
            ("di", self.di.value, self.di.ci),
            ("certainty_equivalent", self.certainty_equivalent, [None, None]),
            ("mean_bet", self.mean_bet, [None, None]),
            ("units_per_shoe", self.mu, self.units_per_shoe.ci),
        ):
            rows.append({"figure": name, "formula": None, "method": None, "diffusion": None, "simulated": value,
                         "ci_low": ci[0], "ci_high": ci[1]})  # fmt: skip
        return pl.DataFrame(rows, schema={"figure": pl.String, "formula": pl.Float64, "method": pl.String,
                                          "diffusion": pl.Float64, "simulated": pl.Float64,
                                          "ci_low": pl.Float64, "ci_high": pl.Float64})  # fmt: skip


def _plain(v: object) -> object:
    if isinstance(v, float) and not math.isfinite(v):
        return None if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def bankroll_report(
    system: CountSystem | str = "dragon7",
    bet: str | PayTable | None = None,
    threshold: float | None = None,
    bankroll: float = 1000.0,
    goal: float | None = None,
    kelly: float | None = None,
    ramp: Ramp | Mapping[float, float] | None = None,
    units: float = 1.0,
    limits: Limits | None = None,
    kelly_by: str = "shoe",
    strategy: Strategy | None = None,
    hours_per_session: float = 4.0,
    hands_per_hour: float = 60.0,
    trip_shoes: int | None = None,
    n_shoes: int = 10_000,
    paths: int = 2000,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    workers: int | None = None,
    progress: bool = True,
    confidence: float = 0.95,
    method: str = "simulated",
    scheduler: str | Any | None = None,
) -> BankrollReport:
    """Bet sizing, risk of ruin, trip risk, the goal, win per hour, SCORE and certainty equivalent of a counter.

    Parameters
    ----------
    system, bet, threshold
        The count system, the bet it is for (default: the system's) and the
        count at which to bet (default: the system's published trigger).
    bankroll, goal
        Bankroll in bet units, and the bankroll to reach before ruin (default: twice ``bankroll``).
    kelly, ramp, units
        Stake ``kelly`` of the Kelly stake on ``bankroll`` (from the exact payout
        distribution before each coup, when the count is at ``threshold``), or
        a ramp of units by count (``{4: 1, 6: 2, 8: 4}``), or ``units`` flat.
    kelly_by
        ``"shoe"`` (the exact distribution before each coup) or ``"count"``
        (the Kelly stake at each true count, :func:`~toolkit.sizing.plays.kelly_ramp`,
        from 2,000 shoes dealt from the seed's third child).
    limits
        Table minimum, maximum and chip (:class:`~toolkit.sizing.plays.Limits`).
    strategy
        Any strategy instead (several bets, back-counting, counting errors: see
        :mod:`toolkit.sizing.plays`); then ``system`` ... ``limits`` are not used.
    hours_per_session, hands_per_hour
        A session (the trip of the trip risk) and the dealing speed.
    trip_shoes
        The trip as a number of shoes instead (then ``hours_per_session`` only scales nothing).
    n_shoes, paths, dealing, seed, workers, scheduler, progress, confidence
        Shoes dealt, simulated bankroll paths, the dealing procedure, the seed (shoes from its first child, paths
        from the second), worker processes or a Dask scheduler (address or client; the same report either way), a
        progress bar, the confidence of the intervals.
    method
        ``"simulated"``: every figure from the dealt shoes; ``"computed"``: the win rate (per shoe, hand and hour,
        bets, mean bet) from the count's exact law (:func:`~toolkit.sizing.computed.computed_win`), the SD and the
        risks from the dealt shoes, recentred.

    Returns
    -------
    BankrollReport
        The results and the risks.

    References
    ----------
    Schlesinger, *Blackjack Attack* (3rd ed., 2005): SCORE, risk of ruin, trip risk.

    Examples
    --------
    >>> rep = bankroll_report("dragon7", bankroll=200, n_shoes=400, paths=200, seed=1, workers=1, progress=False)
    >>> sorted(rep.risk), round(rep.mean_bet, 3)
    (['p_goal', 'risk_of_ruin', 'trip_risk'], 1.0)
    """
    b, g = positive(bankroll, "bankroll"), (2 * bankroll if goal is None else positive(goal, "goal"))
    if not g > b:
        raise ValueError(f"goal ({g:g}) must exceed the bankroll ({b:g})")
    hours = positive(hours_per_session, "hours_per_session")
    rate = positive(hands_per_hour, "hands_per_hour")
    n_shoes, paths, trip_n = _run_sizes(n_shoes, paths, trip_shoes, confidence)
    one_of(method, ("simulated", "computed"), "method")
    shoes_seed, paths_seed, ramp_seed = (root := as_seed_sequence(seed)).spawn(3)
    if strategy is None:
        strategy = sized_strategy(
            system, bet, threshold, b, kelly, ramp, units, limits, kelly_by, seed=ramp_seed, dealing=dealing,
            workers=workers,
        )  # fmt: skip
    elif not isinstance(strategy, Strategy):
        raise TypeError(f"strategy must be a Strategy, got {type(strategy).__name__}")
    value = computed_win(strategy, dealing) if method == "computed" else None
    (res,) = run_strategies(
        [strategy], n_shoes, dealing, shoes_seed, workers=workers, scheduler=scheduler, progress=progress,
        confidence=confidence,
    )  # fmt: skip
    report = BankrollReport(res, b, g, rate, hours, {}, root, trip_n, paths, value)
    if not report.sigma > 0:
        raise ValueError(f"strategy {res.strategy!r} placed no bets in {n_shoes} shoes: nothing to size")
    _add_risks(report, paths_seed, confidence, progress)
    return report


def _run_sizes(n_shoes: int, paths: int, trip_shoes: int | None, confidence: float) -> tuple[int, int, int | None]:
    """``n_shoes``, ``paths`` and ``trip_shoes`` checked, and ``confidence`` checked to lie in (0, 1)."""
    n_shoes = positive_int(n_shoes, "n_shoes")
    if n_shoes < 2:
        raise ValueError(f"n_shoes must be at least 2 (a standard deviation needs two shoes), got {n_shoes}")
    paths = positive_int(paths, "paths")
    if paths > MAX_PATHS:
        raise ValueError(f"paths must be at most {MAX_PATHS:,}, got {paths:,}")
    trip_n = None if trip_shoes is None else positive_int(trip_shoes, "trip_shoes")
    if not 0 < positive(confidence, "confidence") < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    return n_shoes, paths, trip_n


def _add_risks(report: BankrollReport, paths_seed: np.random.SeedSequence, confidence: float, progress: bool) -> None:
    """Fill ``report.risk``: ruin, trip risk and the goal, by the best formula, diffusion and simulation."""
    b, g, paths = report.bankroll, report.goal, report.paths_simulated
    mu, sigma = report.mu, report.sigma
    trip, law = report.shoes_per_session, report.law()
    sim = simulate_risk(law[0], b, law[1], goal=g, trip=trip, paths=paths, seed=paths_seed,
                        confidence=confidence, progress=progress, weights=law[2])  # fmt: skip
    best = _formulas(report.walk(), law, b, g, trip)
    ror = _figure(best["risk_of_ruin"], ruin_diffusion(mu, sigma, b), sim.ruin)
    ror["lundberg"] = ruin_lundberg(law[0], b, law[2])
    trip_risk = _figure(best["trip_risk"], trip_ruin_diffusion(mu, sigma, b, trip), sim.trip_ruin)
    trip_risk["shoes"] = trip
    goal_risk = _figure(best["p_goal"], goal_diffusion(mu, sigma, b, g), sim.goal)
    report.risk.update({"risk_of_ruin": ror, "trip_risk": trip_risk, "p_goal": goal_risk})
