"""What a counter wins: betting strategies, the harness that plays them through shoes, and the results.

A *strategy* (:class:`Strategy`) is a frozen value made of *plays*, each on one
bet: :class:`CountPlay` stakes units read from a ramp of a count system's true
(or running) count; :class:`PerfectPlay` bets when the exact expected value is
positive (computer-perfect play).  Several plays make a strategy that places
several bets at once.

**Only what is known before the coup.**  Plays see a :class:`PreCoup`: the
unseen composition, the cards left and the exposed burn card *before* each
coup, never the coup's own cards.  The harness (:func:`play`) prices every
bet placed at its exact expected value before the coup, computed by the
harness itself from the dealt shoes.  Whatever the stakes, the realised win
minus that expectation has mean zero for a strategy that does not look ahead
(it is a sum of martingale differences), so the harness tests it: a strategy
that peeks at the coup (or is fed the state after the coup: the classic
off-by-one of counting simulators) gives a realised win many standard errors
away from its expected win, and :func:`summarize` raises :class:`LookAheadError`
when ``|z| > 6`` (false alarm about 2e-9 for an honest strategy).

**Results** (:class:`Results`) are computed from per-shoe totals (shoes are
independent, so normal confidence intervals from per-shoe totals are valid):
bets per shoe, mean edge when betting (expected value per unit staked), units
won per shoe realised and from the exact EV of each bet placed (the
lower-variance estimate), per hand and per 100 hands (a *hand* is a coup dealt,
bet or not), standard deviation, DI, SCORE, N0 and the risk of ruin for a
bankroll (diffusion formula and a simulation).  Runs are streamed block by block
(:func:`run_strategies`): only per-shoe totals are kept.

>>> from toolkit.dealing import deal
>>> dealt = deal(200, seed=4, progress=False)
>>> (totals,) = play(dealt, [count_strategy("dragon7")])
>>> res = summarize("dragon7", totals)
>>> res.shoes, res.bets_per_shoe.value > 0
(200, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Protocol

import numpy as np
import polars as pl
import scipy.stats

from toolkit.bets import Bet, get_bet
from toolkit.counting.systems import CountSystem, count_arrays, get_count_system
from toolkit.dealing import Dealing, DealtShoes, deal_block, shuffled_shoes
from toolkit.outcomes import class_index
from toolkit.parallel import DEFAULT_BLOCK_SIZE, Block, block_plan, map_blocks, as_generator
from toolkit.rules import PUNTO_BANCO, Rules, Tableau

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "CountPlay",
    "Estimate",
    "LookAheadError",
    "PerfectPlay",
    "PreCoup",
    "Ramp",
    "Results",
    "ShoeTotals",
    "Strategy",
    "combine",
    "count_strategy",
    "penetration_sweep",
    "perfect_strategy",
    "play",
    "run_strategies",
    "simulate",
    "summarize",
    "threshold_sweep",
]

#: ``|z|`` above which the realised win is declared inconsistent with pre-coup expectations.
LOOKAHEAD_Z = 6.0


class LookAheadError(RuntimeError):
    """A strategy's realised win is inconsistent with the exact expectation of its bets before each coup."""


# ------------------------------------------------------------------ bet sizes
@dataclass(frozen=True)
class Ramp:
    """Units to stake as a step function of a count: ``steps = ((count_at_least, units), ...)``.

    Below the lowest step nothing is staked.

    >>> r = Ramp.from_any({2: 1, 4: 2, 6: 4})
    >>> r(np.array([1.5, 2.0, 5.9, 10.0])).tolist()
    [0.0, 1.0, 2.0, 4.0]
    """

    steps: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        steps = []
        for item in self.steps:
            try:
                at, units = item
            except (TypeError, ValueError):
                raise TypeError(f"a ramp step is a (count_at_least, units) pair, got {item!r}") from None
            at, units = float(at), float(units)
            if not math.isfinite(at) or not math.isfinite(units) or units < 0:
                raise ValueError(f"ramp step ({at}, {units}): the count must be finite and the units >= 0")
            steps.append((at, units))
        if not steps:
            raise ValueError("a ramp needs at least one (count_at_least, units) step")
        steps.sort()
        if len({a for a, _ in steps}) != len(steps):
            raise ValueError(f"ramp steps repeat a count: {steps}")
        object.__setattr__(self, "steps", tuple(steps))

    @classmethod
    def flat(cls, threshold: float, units: float = 1.0) -> Ramp:
        """Stake ``units`` when the count is at least ``threshold``."""
        return cls(((threshold, units),))

    @classmethod
    def from_any(cls, ramp: Ramp | Mapping[float, float] | Iterable[tuple[float, float]]) -> Ramp:
        """From a ramp, a mapping ``{count_at_least: units}`` or pairs."""
        if isinstance(ramp, Ramp):
            return ramp
        if isinstance(ramp, Mapping):
            return cls(tuple(ramp.items()))
        return cls(tuple(ramp))

    @property
    def threshold(self) -> float:
        """The lowest count at which anything is staked."""
        return next((a for a, u in self.steps if u > 0), math.inf)

    def __call__(self, count: np.ndarray) -> np.ndarray:
        at = np.array([a for a, _ in self.steps])
        units = np.array([u for _, u in self.steps])
        i = np.searchsorted(at, np.asarray(count, dtype=np.float64), side="right") - 1
        return np.where(i >= 0, units[np.clip(i, 0, None)], 0.0)


# ------------------------------------------------------------ pre-coup state
@dataclass(frozen=True, eq=False)
class PreCoup:
    """What is known before each coup: the only input plays receive.

    Attributes
    ----------
    unseen
        ``(n, 13)`` composition of the unseen cards before each coup.
    left
        Cards physically left in the shoe before each coup.
    decks
        Decks in the full shoe, per coup.
    burn_card
        Rank index of the exposed burn card (-1 none), per coup.
    shoe, coup
        Which coup each row is.
    """

    shoe: np.ndarray
    coup: np.ndarray
    unseen: np.ndarray
    left: np.ndarray
    decks: np.ndarray
    burn_card: np.ndarray
    tableau: Tableau = PUNTO_BANCO
    _cache: dict = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.shoe)

    @classmethod
    def from_dealt(cls, dealt: DealtShoes, tableau: Tableau = PUNTO_BANCO) -> PreCoup:
        """The state before every coup of dealt shoes."""
        return cls(
            shoe=dealt.shoe,
            coup=dealt.coup,
            unseen=dealt.unseen,
            left=dealt.left,
            decks=(dealt.seen + dealt.unseen_count) // 52,
            burn_card=dealt.burn_card[dealt.shoe - dealt.first_shoe].astype(np.int64),
            tableau=tableau,
        )

    @classmethod
    def from_frame(cls, frame: pl.DataFrame, decks: int | None = None, tableau: Tableau = PUNTO_BANCO) -> PreCoup:
        """The state before every coup of a coup frame with ``unseen_A`` ... ``unseen_K`` columns."""
        from toolkit.counting.systems import _arrays_from

        arrays = _arrays_from(frame, decks)
        n = frame.height
        unseen = arrays["unseen"]
        return cls(
            shoe=frame["shoe"].to_numpy() if "shoe" in frame.columns else np.zeros(n, np.int64),
            coup=frame["coup"].to_numpy() if "coup" in frame.columns else np.arange(1, n + 1),
            unseen=unseen,
            left=unseen.sum(axis=1) if arrays["left"] is None else arrays["left"],
            decks=np.broadcast_to(np.asarray(arrays["decks"]), (n,)),
            burn_card=np.full(n, -1) if arrays["burn_card"] is None else arrays["burn_card"],
            tableau=tableau,
        )

    def counts(self, system: CountSystem | str) -> tuple[np.ndarray, np.ndarray]:
        """Running and true count of ``system`` before each coup (cached)."""
        system = get_count_system(system)
        key = ("count", system)
        if key not in self._cache:
            self._cache[key] = count_arrays(system, self.unseen, self.decks, self.burn_card, self.left)
        return self._cache[key]

    def expected_values(self, bet: Bet) -> np.ndarray:
        """Exact expected value of ``bet`` before every coup (cached)."""
        from toolkit.engine import expected_values

        key = ("ev", bet)
        if key not in self._cache:
            self._cache[key] = expected_values(self.unseen, [bet], self.tableau)[:, 0]
        return self._cache[key]

    def expected_values_at(self, bet: Bet, rows: np.ndarray) -> np.ndarray:
        """Exact expected value of ``bet`` before the coups ``rows`` (reuses the cache when filled)."""
        from toolkit.engine import expected_values

        key = ("ev", bet)
        if key in self._cache:
            return self._cache[key][rows]
        if len(rows) == 0:
            return np.zeros(0)
        return expected_values(self.unseen[rows], [bet], self.tableau)[:, 0]


# --------------------------------------------------------------------- plays
class Play(Protocol):
    """One bet of a strategy: units to stake before each coup, from pre-coup information only."""

    bet: str | Bet

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray: ...


def _resolve_bet(bet: str | Bet, rules: Rules) -> Bet:
    if isinstance(bet, Bet):
        return bet
    if not isinstance(bet, str):
        raise TypeError(f"a bet is a name or a Bet, got {type(bet).__name__} {bet!r}")
    return get_bet(bet, rules)


def _bet_name(bet: str | Bet) -> str:
    return bet.name if isinstance(bet, Bet) else bet


@dataclass(frozen=True)
class CountPlay:
    """Stake ``ramp(count)`` units on ``bet``, the count being the system's true or running count."""

    system: CountSystem
    bet: str | Bet
    ramp: Ramp
    count: str = "true"

    def __post_init__(self) -> None:
        object.__setattr__(self, "system", get_count_system(self.system))
        object.__setattr__(self, "ramp", Ramp.from_any(self.ramp))
        if self.count not in ("true", "running"):
            raise ValueError(f"CountPlay.count must be 'true' or 'running', got {self.count!r}")
        if isinstance(self.bet, str):
            get_bet(self.bet)

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        rc, tc = info.counts(self.system)
        return self.ramp(tc if self.count == "true" else rc)

    def describe(self) -> str:
        kind = "TC" if self.count == "true" else "RC"
        steps = ", ".join(f"{kind} >= {a:g}: {u:g}" for a, u in self.ramp.steps)
        return f"{_bet_name(self.bet)} by {self.system.name} ({steps})"


@dataclass(frozen=True)
class PerfectPlay:
    """Computer-perfect play: stake ``units`` on ``bet`` when its exact EV before the coup exceeds ``min_ev``."""

    bet: str | Bet
    min_ev: float = 0.0
    units: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.bet, str):
            get_bet(self.bet)
        if not self.units > 0:
            raise ValueError(f"PerfectPlay.units must be positive, got {self.units!r}")

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        ev = info.expected_values(_resolve_bet(self.bet, rules))
        return np.where(ev > self.min_ev, float(self.units), 0.0)

    def describe(self) -> str:
        return f"{_bet_name(self.bet)} when exact EV > {self.min_ev:g}"


@dataclass(frozen=True)
class Strategy:
    """A named set of plays, each on one bet, placed side by side."""

    name: str
    plays: tuple[Play, ...]

    def __post_init__(self) -> None:
        plays = tuple(self.plays)
        if not plays:
            raise ValueError(f"strategy {self.name!r} has no plays")
        for p in plays:
            if not callable(getattr(p, "stakes", None)):
                raise TypeError(f"strategy {self.name!r}: {p!r} has no stakes(info, rules) method")
        object.__setattr__(self, "plays", plays)

    def describe(self) -> str:
        return "; ".join(p.describe() if hasattr(p, "describe") else repr(p) for p in self.plays)


def count_strategy(
    system: CountSystem | str,
    threshold: float | None = None,
    bet: str | Bet | None = None,
    ramp: Ramp | Mapping[float, float] | None = None,
    count: str | None = None,
    units: float = 1.0,
    name: str | None = None,
) -> Strategy:
    """Bet a count system's bet by its count: flat ``units`` at ``threshold`` (default: the system's), or a ramp.

    >>> count_strategy("dragon7").name
    'dragon7 TC >= 4'
    """
    s = get_count_system(system)
    target = bet if bet is not None else s.bet
    if target is None:
        raise ValueError(f"count system {s.name!r} names no bet; give bet=")
    which = count or s.trigger
    if ramp is None:
        t = s.threshold if threshold is None else threshold
        if t is None:
            raise ValueError(f"count system {s.name!r} has no published threshold; give threshold= (or a ramp)")
        ramp = Ramp.flat(t, units)
    ramp = Ramp.from_any(ramp)
    kind = "TC" if which == "true" else "RC"
    label = name or f"{s.name} {kind} >= {ramp.threshold:g}" + (
        f" on {_bet_name(target)}" if _bet_name(target) != s.name else ""
    )
    return Strategy(label, (CountPlay(s, target, ramp, which),))


def perfect_strategy(*bets: str | Bet, min_ev: float = 0.0, units: float = 1.0, name: str | None = None) -> Strategy:
    """Computer-perfect play on each of ``bets``.

    >>> perfect_strategy("dragon7", "panda8").name
    'perfect dragon7+panda8'
    """
    if not bets:
        raise ValueError("perfect_strategy needs at least one bet")
    label = name or "perfect " + "+".join(_bet_name(b) for b in bets)
    return Strategy(label, tuple(PerfectPlay(b, min_ev, units) for b in bets))


def combine(*strategies: Strategy, name: str | None = None) -> Strategy:
    """One strategy placing the bets of all ``strategies`` side by side."""
    plays = tuple(p for s in strategies for p in s.plays)
    return Strategy(name or " + ".join(s.name for s in strategies), plays)


# --------------------------------------------------------------------- harness
@dataclass(frozen=True, eq=False)
class ShoeTotals:
    """Per-shoe totals of one strategy: the sufficient statistics of every result.

    ``hands`` coups dealt, ``bets`` bets placed, ``staked`` units staked,
    ``won`` realised units, ``ev`` exact expected units of the bets placed,
    ``low`` the lowest point of the running win within the shoe (0 or less).
    """

    hands: np.ndarray
    bets: np.ndarray
    staked: np.ndarray
    won: np.ndarray
    ev: np.ndarray
    low: np.ndarray

    def __len__(self) -> int:
        return len(self.hands)

    @classmethod
    def concat(cls, parts: Sequence[ShoeTotals]) -> ShoeTotals:
        names = ("hands", "bets", "staked", "won", "ev", "low")
        return cls(**{n: np.concatenate([getattr(p, n) for p in parts]) for n in names})

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame({n: getattr(self, n) for n in ("hands", "bets", "staked", "won", "ev", "low")})


def _outcome_classes_of_frame(frame: pl.DataFrame) -> np.ndarray:
    pc = frame["player_cards"].list.len().to_numpy()
    bc = frame["banker_cards"].list.len().to_numpy()
    return class_index(
        frame["player_total"].to_numpy().astype(np.int64),
        frame["banker_total"].to_numpy().astype(np.int64),
        pc,
        bc,
        frame["player_pair"].to_numpy(),
        frame["banker_pair"].to_numpy(),
    ).astype(np.int64)


def play(
    source: DealtShoes | pl.DataFrame,
    strategies: Sequence[Strategy],
    rules: Rules = Rules(),
    info: PreCoup | None = None,
) -> list[ShoeTotals]:
    """Play strategies through dealt shoes (or a coup frame with compositions); per-shoe totals for each.

    Parameters
    ----------
    source
        :class:`~toolkit.dealing.DealtShoes`, or a polars coup frame holding
        ``unseen_A`` ... ``unseen_K`` (e.g. recorded shoes), sorted by shoe and coup.
    strategies
        The strategies; each sees the same coups.
    rules
        Payouts (commission, tie pays) of the bets named by the plays.
    info
        What the plays are shown (default: the state before each coup).  Only
        for testing the harness: the expected values that price the bets are
        always the harness's own, from the unseen composition before each coup.
    """
    if isinstance(source, DealtShoes):
        truth = PreCoup.from_dealt(source, rules.tableau)
        classes = source.outcome_classes()
        shoe_ids = source.shoe
    elif isinstance(source, pl.DataFrame):
        frame = source.sort("shoe", "coup") if {"shoe", "coup"} <= set(source.columns) else source
        truth = PreCoup.from_frame(frame, tableau=rules.tableau)
        classes = _outcome_classes_of_frame(frame)
        shoe_ids = truth.shoe
    else:
        raise TypeError(f"play() takes DealtShoes or a polars coup frame, got {type(source).__name__}")
    if info is None:
        info = truth
    elif len(info) != len(truth):
        raise ValueError(f"info describes {len(info)} coups, the shoes hold {len(truth)}")
    _, shoe_index = np.unique(shoe_ids, return_inverse=True)
    n_shoes = int(shoe_index.max()) + 1 if len(shoe_index) else 0
    if len(shoe_index) and np.any(np.diff(shoe_index) < 0):
        raise ValueError("coups must be grouped by shoe, in order")
    starts = np.flatnonzero(np.r_[True, np.diff(shoe_index) != 0]) if len(shoe_index) else np.zeros(0, int)
    hands = np.bincount(shoe_index, minlength=n_shoes).astype(np.int64)

    out = []
    for strategy in strategies:
        won = np.zeros(len(classes))
        ev = np.zeros(len(classes))
        staked = np.zeros(len(classes))
        bets = np.zeros(len(classes), np.int64)
        for p in strategy.plays:
            bet = _resolve_bet(p.bet, rules)
            stake = np.asarray(p.stakes(info, rules), dtype=np.float64)
            if stake.shape != won.shape or not np.all(np.isfinite(stake)) or np.any(stake < 0):
                raise ValueError(
                    f"strategy {strategy.name!r}: stakes on {bet.name} must be {len(won)} finite values >= 0"
                )
            rows = np.flatnonzero(stake > 0)
            won[rows] += stake[rows] * bet.payoff_array[classes[rows]]
            ev[rows] += stake[rows] * truth.expected_values_at(bet, rows)
            staked += stake
            bets[rows] += 1
        if len(won):
            running = np.cumsum(won)
            before = np.r_[0.0, running][starts][shoe_index]
            low = np.minimum(np.minimum.reduceat(running - before, starts), 0.0)
        else:
            low = np.zeros(0)

        def per_shoe(x: np.ndarray) -> np.ndarray:
            return np.bincount(shoe_index, weights=x, minlength=n_shoes)

        out.append(
            ShoeTotals(
                hands=hands,
                bets=per_shoe(bets).astype(np.int64),
                staked=per_shoe(staked),
                won=per_shoe(won),
                ev=per_shoe(ev),
                low=low,
            )
        )
    return out


# --------------------------------------------------------------------- results
@dataclass(frozen=True)
class Estimate:
    """A value with its standard error and confidence interval."""

    value: float
    se: float
    low: float
    high: float

    @property
    def ci(self) -> list[float]:
        return [self.low, self.high]

    def scaled(self, k: float) -> Estimate:
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
    """

    strategy: str
    totals: ShoeTotals
    confidence: float = 0.95
    description: str = ""

    # ------------------------------------------------------------ basic sums
    @property
    def z(self) -> float:
        return float(scipy.stats.norm.ppf(0.5 + self.confidence / 2))

    @property
    def shoes(self) -> int:
        return len(self.totals)

    @property
    def hands_per_shoe(self) -> Estimate:
        return _mean(self.totals.hands.astype(np.float64), self.z)

    @property
    def bets_per_shoe(self) -> Estimate:
        return _mean(self.totals.bets.astype(np.float64), self.z)

    @property
    def staked_per_shoe(self) -> Estimate:
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
        return _ratio(self.totals.won, self.totals.hands.astype(np.float64), self.z)

    @property
    def units_per_hand_ev(self) -> Estimate:
        return _ratio(self.totals.ev, self.totals.hands.astype(np.float64), self.z)

    @property
    def units_per_100_hands(self) -> Estimate:
        return self.units_per_hand.scaled(100)

    @property
    def units_per_100_hands_ev(self) -> Estimate:
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
    def di(self) -> Estimate:
        """Desirability index: 1000 x expected win per hand / SD per hand."""
        return self.units_per_hand_ev.scaled(1000.0 / self.sd_per_hand)

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
            return 1.0 if m <= 0 or var == 0 else math.exp(-2 * m * bankroll / var)

        value = ror(mu.value)
        se = value * 2 * bankroll / var * mu.se if var > 0 and mu.value > 0 else 0.0
        return Estimate(value, se, ror(mu.high), ror(mu.low))

    def simulated_risk_of_ruin(
        self,
        bankroll: float,
        paths: int = 2000,
        max_shoes: int = 20_000,
        rng: np.random.Generator | int | None = None,
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
        Wilson interval for the proportion ruined.
        """
        if not bankroll > 0:
            raise ValueError(f"bankroll must be positive, got {bankroll!r}")
        gen = as_generator(rng)
        won, low = self.totals.won, self.totals.low
        if recentre and self.shoes:
            won = won + (self.units_per_shoe_ev.value - self.units_per_shoe.value)
        mu, var = self.units_per_shoe_ev.value, self.sd_per_shoe**2
        safe = bankroll + (var * math.log(1e4) / (2 * mu) if mu > 0 and var > 0 else math.inf)
        bank = np.full(paths, float(bankroll))
        alive = np.ones(paths, bool)
        ruined = np.zeros(paths, bool)
        played = 0
        while alive.any() and played < max_shoes:
            step = min(256, max_shoes - played)
            idx = np.flatnonzero(alive)
            draw = gen.integers(0, len(won), size=(step, len(idx)))
            path = bank[idx] + np.cumsum(won[draw], axis=0)
            before = np.vstack([bank[idx][None, :], path[:-1]])
            broke = (before + low[draw]) <= 0
            done_safe = path >= safe
            first_broke = np.where(broke.any(axis=0), broke.argmax(axis=0), step)
            first_safe = np.where(done_safe.any(axis=0), done_safe.argmax(axis=0), step)
            hit = first_broke < step
            is_ruined = hit & (first_broke <= first_safe)
            ruined[idx[is_ruined]] = True
            finished = is_ruined | (first_safe < step)
            alive[idx[finished]] = False
            bank[idx] = path[-1]
            played += step
        k = int(ruined.sum())
        ci = scipy.stats.binomtest(k, paths).proportion_ci(self.confidence, method="wilson")
        p = k / paths
        return Estimate(p, math.sqrt(p * (1 - p) / paths), float(ci.low), float(ci.high))

    # --------------------------------------------------------------- reports
    def check(self, z_max: float = LOOKAHEAD_Z) -> None:
        """Raise :class:`LookAheadError` if the realised win is ``z_max`` SEs from the expected win."""
        z = self.lookahead_z
        if self.shoes >= 30 and abs(z) > z_max:
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
        }
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
    """Results from per-shoe totals; with ``check``, refuse a strategy that looks ahead (:class:`LookAheadError`)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    res = Results(name, totals, confidence, description)
    if check:
        res.check()
    return res


# ------------------------------------------------------------ parallel runs
def _block_totals(block: Block, strategies: tuple[Strategy, ...], dealing: Dealing, rules: Rules) -> list[ShoeTotals]:
    from threadpoolctl import threadpool_limits

    dealt = deal_block(shuffled_shoes(block.n_shoes, dealing.decks, block.rng()), dealing, block.first_shoe)
    with threadpool_limits(1):  # blocks are the unit of parallelism: no BLAS threads inside one
        return play(dealt, strategies, rules)


def run_strategies(
    strategies: Sequence[Strategy],
    n_shoes: int,
    dealing: Dealing = Dealing(),
    seed: int | np.random.SeedSequence | None = None,
    rules: Rules | None = None,
    workers: int | None = None,
    scheduler: object | None = None,
    block_size: int = DEFAULT_BLOCK_SIZE,
    progress: bool = True,
    confidence: float = 0.95,
    check: bool = True,
) -> list[Results]:
    """Deal ``n_shoes`` shoes and play every strategy through the same shoes; one :class:`Results` each.

    Blocks of shoes are dealt and played where they run (all local cores by
    default, ``workers=1`` in this process, or a Dask ``scheduler`` address or
    client) and only per-shoe totals come back.  The same ``seed`` gives the
    same results whatever ``workers`` or ``scheduler``.
    """
    strategies = tuple(strategies)
    if not strategies:
        raise ValueError("run_strategies needs at least one strategy")
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    if rules.tableau != dealing.tableau:
        raise ValueError("rules.tableau and dealing.tableau differ: bets would be priced by other drawing rules")
    plan = block_plan(n_shoes, block_size, seed)
    fn: Callable[[Block], list[ShoeTotals]] = partial(
        _block_totals, strategies=strategies, dealing=dealing, rules=rules
    )
    parts: list[list[ShoeTotals]] = [[] for _ in strategies]
    for block_totals in map_blocks(fn, plan, workers, scheduler, progress, "shoes"):
        for i, t in enumerate(block_totals):
            parts[i].append(t)
    empty = ShoeTotals(*(np.zeros(0) for _ in range(6)))
    return [
        summarize(s.name, ShoeTotals.concat(p) if p else empty, confidence, check, s.describe())
        for s, p in zip(strategies, parts, strict=True)
    ]


def simulate(strategy: Strategy, n_shoes: int, **options: object) -> Results:
    """:func:`run_strategies` for one strategy."""
    return run_strategies([strategy], n_shoes, **options)[0]  # type: ignore[arg-type]


def _row(res: Results) -> dict[str, object]:
    return {
        "strategy": res.strategy,
        "shoes": res.shoes,
        "bets_per_shoe": res.bets_per_shoe.value,
        "mean_edge": res.mean_edge.value,
        "units_per_shoe": res.units_per_shoe.value,
        "units_per_shoe_low": res.units_per_shoe.low,
        "units_per_shoe_high": res.units_per_shoe.high,
        "units_per_shoe_ev": res.units_per_shoe_ev.value,
        "units_per_shoe_ev_low": res.units_per_shoe_ev.low,
        "units_per_shoe_ev_high": res.units_per_shoe_ev.high,
        "units_per_100_hands_ev": res.units_per_100_hands_ev.value,
        "sd_per_shoe": res.sd_per_shoe,
        "di": res.di.value,
        "score": res.score.value,
    }


def threshold_sweep(
    system: CountSystem | str,
    thresholds: Iterable[float],
    n_shoes: int,
    bet: str | Bet | None = None,
    count: str | None = None,
    dealing: Dealing = Dealing(),
    seed: int | None = None,
    **options: object,
) -> pl.DataFrame:
    """Win of a count at each threshold, all thresholds played through the same shoes (one row each)."""
    thresholds = [float(t) for t in thresholds]
    strategies = [count_strategy(system, t, bet=bet, count=count) for t in thresholds]
    results = run_strategies(strategies, n_shoes, dealing, seed, **options)  # type: ignore[arg-type]
    rows = [{"threshold": t, **_row(r)} for t, r in zip(thresholds, results, strict=True)]
    return pl.DataFrame(rows)


def penetration_sweep(
    strategies: Strategy | Sequence[Strategy],
    cut_cards: Iterable[int],
    n_shoes: int,
    dealing: Dealing = Dealing(),
    seed: int | None = None,
    **options: object,
) -> pl.DataFrame:
    """Win against the cut card position (cards from the end): same seed, so the same shuffles at every position."""
    from dataclasses import replace

    strategies = [strategies] if isinstance(strategies, Strategy) else list(strategies)
    rows = []
    for cut in cut_cards:
        d = replace(dealing, cut_card=int(cut))
        for r in run_strategies(strategies, n_shoes, d, seed, **options):  # type: ignore[arg-type]
            rows.append({"cut_card": int(cut), **_row(r)})
    return pl.DataFrame(rows)
