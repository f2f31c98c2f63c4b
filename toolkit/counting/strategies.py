"""Betting strategies: frozen values made of plays, each staking units on one bet from pre-coup information.

A *strategy* (:class:`Strategy`) is a frozen value made of *plays*, each on one
bet: :class:`CountPlay` stakes units read from a ramp (:class:`Ramp`) of a count
system's true (or running) count; :class:`PerfectPlay` bets when the exact
expected value is positive (computer-perfect play).  Several plays make a
strategy that places several bets at once (:func:`combine`).

Plays see only a :class:`~toolkit.counting.tallies.PreCoup`: the unseen
composition, the cards left and the exposed burn card *before* each coup.  The
harness that plays strategies through dealt shoes is :mod:`toolkit.counting.harness`.

>>> s = combine_strategies(count_strategy("dragon7"), perfect_strategy("panda8"))
>>> s.name, s.describe()
('dragon7 TC >= 4 + perfect panda8', 'dragon7 by dragon7 (TC >= 4: 1); panda8 when exact EV > 0')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from toolkit._check import one_of
from toolkit.bets.base import Bet
from toolkit.bets.paytable import get_bet
from toolkit.counting.systems import CountSystem, get_count_system, resolve_bet
from toolkit.counting.tallies import PreCoup
from toolkit.coup.rules import Rules

__all__ = [
    "CountPlay",
    "PerfectPlay",
    "Play",
    "Ramp",
    "Strategy",
    "combine_strategies",
    "count_strategy",
    "perfect_strategy",
]


# ------------------------------------------------------------------ bet sizes
@dataclass(frozen=True)
class Ramp:
    """Units to stake as a step function of a count: ``steps = ((count_at_least, units), ...)``.

    Below the lowest step nothing is staked.

    Attributes
    ----------
    steps
        ``(count_at_least, units)`` pairs, in increasing count.

    Examples
    --------
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


# --------------------------------------------------------------------- plays
class Play(Protocol):
    """One bet of a strategy: units to stake before each coup, from pre-coup information only."""

    @property
    def bet(self) -> str | Bet:
        """The bet staked on: a name of the standard panel or a :class:`~toolkit.bets.Bet`."""
        ...

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup (``len(info)`` finite values >= 0)."""
        ...


def _bet_name(bet: str | Bet) -> str:
    return bet if isinstance(bet, str) else bet.name


@dataclass(frozen=True)
class CountPlay:
    """Stake ``ramp(count)`` units on ``bet``, the count being the system's true or running count.

    Attributes
    ----------
    system
        The count system.
    bet
        The bet staked.
    ramp
        Units by count.
    count
        ``"true"`` or ``"running"``.
    """

    system: CountSystem
    bet: str | Bet
    ramp: Ramp
    count: str = "true"

    def __post_init__(self) -> None:
        object.__setattr__(self, "system", get_count_system(self.system))
        object.__setattr__(self, "ramp", Ramp.from_any(self.ramp))
        one_of(self.count, ("true", "running"), "CountPlay.count")
        if isinstance(self.bet, str):
            get_bet(self.bet)

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup of ``info`` (see :class:`~toolkit.counting.strategies.Play`)."""
        rc, tc = info.counts(self.system)
        count = tc if self.count == "true" else rc
        if self.system.thresholds:  # the ramp moves with the threshold of the shoe's depth (see CountSystem)
            cards_dealt = info.decks * 52 - info.left
            count = count - (self.system.threshold_at(info.coup, cards_dealt) - self.ramp.threshold)
        return self.ramp(count)

    def describe(self) -> str:
        """What the play bets, in a phrase (for tables and reports)."""
        kind = "TC" if self.count == "true" else "RC"
        steps = ", ".join(f"{kind} >= {a:g}: {u:g}" for a, u in self.ramp.steps)
        return f"{_bet_name(self.bet)} by {self.system.name} ({steps})"


@dataclass(frozen=True)
class PerfectPlay:
    """Computer-perfect play: stake ``units`` on ``bet`` when its exact EV before the coup exceeds ``min_ev``.

    Attributes
    ----------
    bet
        The bet staked.
    min_ev
        Bet when the exact EV before the coup exceeds this.
    units
        The stake.
    """

    bet: str | Bet
    min_ev: float = 0.0
    units: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.bet, str):
            get_bet(self.bet)
        if not self.units > 0 or not math.isfinite(self.units):
            raise ValueError(f"PerfectPlay.units must be positive (and finite), got {self.units!r}")
        if isinstance(self.min_ev, (bool, np.bool_)) or not isinstance(self.min_ev, (int, float, np.number)):
            raise TypeError(f"PerfectPlay.min_ev must be a number, got {self.min_ev!r}")
        if math.isnan(self.min_ev):
            raise ValueError(f"PerfectPlay.min_ev must be a number, got {self.min_ev!r}")

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup of ``info`` (see :class:`~toolkit.counting.strategies.Play`)."""
        ev = info.expected_values(resolve_bet(self.bet, rules))
        return np.where(ev > self.min_ev, float(self.units), 0.0)

    def describe(self) -> str:
        """What the play bets, in a phrase (for tables and reports)."""
        return f"{_bet_name(self.bet)} when exact EV > {self.min_ev:g}"


@dataclass(frozen=True)
class Strategy:
    """A named set of plays, each on one bet, placed side by side.

    Attributes
    ----------
    name
        The strategy's name.
    plays
        The plays, each with a ``stakes(info, rules)`` method.
    """

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

    def __repr__(self) -> str:
        """The name and what it plays, on one line.

        >>> count_strategy("dragon7")
        Strategy('dragon7 TC >= 4': dragon7 by dragon7 (TC >= 4: 1))
        """
        text = self.describe()
        return f"Strategy({self.name!r}: {text if len(text) <= 160 else text[:157] + '...'})"

    def describe(self) -> str:
        """What each play bets, joined by semicolons.

        Returns
        -------
        str
            One phrase per play.
        """
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

    Parameters
    ----------
    system
        A :class:`~toolkit.counting.systems.CountSystem` or a published system's name.
    threshold
        Bet when the count is at least this (default: the system's published trigger).  A system with a
        threshold table (:attr:`~toolkit.counting.systems.CountSystem.thresholds`) moves the ramp so that its
        lowest stake sits at the table's threshold for each coup.
    bet
        The bet (default: the system's).
    ramp
        Units by count (``{4: 1, 6: 2}``) instead of a flat bet.
    count
        ``"true"`` or ``"running"`` (default: the system's trigger).
    units
        The flat stake.
    name
        The strategy's name (default: the system, count and threshold).

    Returns
    -------
    Strategy
        The strategy.

    References
    ----------
    E. Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat" (the Dragon 7 and Panda
    8 counts and their triggers).

    Examples
    --------
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
        if t is None and s.thresholds:  # a threshold table alone: the ramp starts at its first step
            t = s.thresholds[0][1]
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

    Parameters
    ----------
    *bets
        The bets (names or :class:`~toolkit.bets.Bet`).
    min_ev
        Bet when the exact EV before the coup exceeds this.
    units
        The flat stake.
    name
        The strategy's name (default ``perfect <bets>``).

    Returns
    -------
    Strategy
        Computer-perfect play: each bet whenever its exact EV before the coup is positive.

    Examples
    --------
    >>> perfect_strategy("dragon7", "panda8").name
    'perfect dragon7+panda8'
    """
    if not bets:
        raise ValueError("perfect_strategy needs at least one bet")
    label = name or "perfect " + "+".join(_bet_name(b) for b in bets)
    return Strategy(label, tuple(PerfectPlay(b, min_ev, units) for b in bets))


def combine_strategies(*strategies: Strategy, name: str | None = None) -> Strategy:
    """One strategy placing the bets of all ``strategies`` side by side.

    Parameters
    ----------
    *strategies
        The strategies.
    name
        The name (default: the names joined by a plus sign).

    Returns
    -------
    Strategy
        One strategy with every play.

    Examples
    --------
    >>> combine_strategies(count_strategy("dragon7"), count_strategy("panda8")).name
    'dragon7 TC >= 4 + panda8 TC >= 11'
    """
    plays = tuple(p for s in strategies for p in s.plays)
    return Strategy(name or " + ".join(s.name for s in strategies), plays)
