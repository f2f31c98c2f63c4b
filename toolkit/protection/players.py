"""Simulated players, to calibrate detection and to make test records: counters, progressions, road followers.

Each player is a frozen value that, given the coups of some shoes (a
:func:`toolkit.records.replay_records` frame: the unseen cards and counts before each
coup, then its outcome), places its bets: a frame ``shoe, coup, who, bet,
amount``.  A player sees only what a player at the table sees: the counts
before the coup and the outcomes of the coups before it.

* :class:`FlatBettor`: a card-blind bettor, betting each coup with a probability,
  a stake drawn from a list;
* :class:`Progression`: Martingale (double after a loss), Paroli (double after
  a win, three times at most) or Fibonacci (a step up after a loss, two back after
  a win), on Banker or Player;
* :class:`RoadFollower`: bet the streak (the last winner again) or the chop (the other);
* :class:`Counter`: a count system with a ramp (units by true count), a floor
  (units below the ramp: 0 for a back-counter, who bets only when the count says
  so), and errors: cards missed, the true count rounded, camouflage bets;
* :class:`Team`: a spotter who flat-bets Banker and counts, and a big player who bets
  the count's bet only when the spotter signals.

:func:`simulate_table` deals shoes (:func:`toolkit.records.simulate_records`) and
seats the players: the result is a record with its bets, as a surveillance log would hold.

>>> records = simulate_table(2, [Counter("seat1", "dragon7", ramp={4: 5})], seed=1)
>>> records.bets.columns
['shoe', 'coup', 'who', 'bet', 'amount']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from toolkit.counting import CountSystem, Ramp, count_arrays, get_count_system
from toolkit.coup import RANKS
from toolkit.parallel import SeedLike, as_generator
from toolkit.records import Records, ShoeHeader, replay_records, simulate_records

__all__ = ["PLAYER_KINDS", "Counter", "FlatBettor", "Player", "Progression", "RoadFollower", "Team", "simulate_table"]

_MAIN = ("banker", "player")
_PROGRESSIONS = ("martingale", "paroli", "fibonacci")
_ROADS = ("streak", "chop")
_ROUNDING = ("none", "floor", "nearest")


def _rate(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{where} must be a number between 0 and 1, got {value!r}")
    if not 0 <= float(value) <= 1:
        raise ValueError(f"{where} must be between 0 and 1, got {value}")
    return float(value)


def _stake(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{where} must be a positive number, got {value!r}")
    if not (np.isfinite(float(value)) and float(value) > 0):
        raise ValueError(f"{where} must be a positive number, got {value}")
    return float(value)


def _seat(who: object) -> str:
    if not isinstance(who, str) or not who.strip() or any(c in who for c in ":;"):
        raise ValueError(f"a seat is named by a non-empty text without ':' or ';', got {who!r}")
    return who


def _choice(value: object, allowed: Sequence[str], where: str) -> str:
    if value not in allowed:
        raise ValueError(f"{where} must be one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def _frame(coups: pl.DataFrame, who: str, bet: str | np.ndarray, amounts: np.ndarray) -> pl.DataFrame:
    """The bets placed: the coups with a positive amount."""
    bets = pl.Series("bet", np.broadcast_to(np.asarray(bet, dtype=object), amounts.shape).astype(str))
    out = coups.select("shoe", pl.col("coup").cast(pl.Int64)).with_columns(
        pl.lit(who).alias("who"), bets, pl.Series("amount", amounts, dtype=pl.Float64)
    )
    return out.filter(pl.col("amount") > 0)


def _starts(coups: pl.DataFrame) -> np.ndarray:
    """True at the first coup of each shoe."""
    shoe = coups["shoe"].to_numpy()
    return np.r_[True, shoe[1:] != shoe[:-1]]


@dataclass(frozen=True)
class FlatBettor:
    """A card-blind bettor: each coup, with probability ``rate``, a stake drawn from ``amounts`` on ``bet``."""

    who: str
    bet: str = "banker"
    rate: float = 1.0
    amounts: tuple[float, ...] = (1.0,)

    def __post_init__(self) -> None:
        _seat(self.who)
        object.__setattr__(self, "rate", _rate(self.rate, f"{self.who}: rate"))
        amounts = tuple(_stake(a, f"{self.who}: amount") for a in self.amounts)
        if not amounts:
            raise ValueError(f"{self.who}: amounts names no stake")
        object.__setattr__(self, "amounts", amounts)

    @property
    def bets_needed(self) -> tuple[str, ...]:
        """The bets whose edges the player's record needs."""
        return (self.bet,)

    def place(self, coups: pl.DataFrame, gen: np.random.Generator) -> pl.DataFrame:
        """The bets on these coups (a replay frame)."""
        amounts = gen.choice(np.array(self.amounts), coups.height) * (gen.random(coups.height) < self.rate)
        return _frame(coups, self.who, self.bet, amounts)


@dataclass(frozen=True)
class Progression:
    """A progression on Banker or Player: ``"martingale"``, ``"paroli"`` or ``"fibonacci"``, from ``base``.

    The stake is at most ``cap`` times ``base``; a tie leaves it as it was; each shoe starts at ``base``.
    """

    who: str
    system: str = "martingale"
    bet: str = "banker"
    base: float = 1.0
    cap: float = 64.0

    def __post_init__(self) -> None:
        _seat(self.who)
        _choice(self.system, _PROGRESSIONS, f"{self.who}: progression")
        _choice(self.bet, _MAIN, f"{self.who}: a progression's bet")
        object.__setattr__(self, "base", _stake(self.base, f"{self.who}: base"))
        object.__setattr__(self, "cap", _stake(self.cap, f"{self.who}: cap"))

    @property
    def bets_needed(self) -> tuple[str, ...]:
        """The bets whose edges the player's record needs."""
        return (self.bet,)

    def place(self, coups: pl.DataFrame, gen: np.random.Generator) -> pl.DataFrame:
        """The bets on these coups (a replay frame); the stakes follow the outcomes of the coups before."""
        winner = coups["winner"].to_numpy()
        start = _starts(coups)
        units = np.empty(coups.height)
        fib = [1.0, 1.0]
        level, u = 0, 1.0
        for i in range(coups.height):
            if start[i]:
                level, u = 0, 1.0
            units[i] = u
            if winner[i] == "tie":
                continue
            won = winner[i] == self.bet
            if self.system == "martingale":
                u = 1.0 if won else min(2 * u, self.cap)
            elif self.system == "paroli":
                level = level + 1 if won and level < 2 else 0
                u = 2.0**level
            else:
                level = max(level - 2, 0) if won else level + 1
                while len(fib) <= level:
                    fib.append(fib[-1] + fib[-2])
                u = min(fib[level], self.cap)
        return _frame(coups, self.who, self.bet, units * self.base)


@dataclass(frozen=True)
class RoadFollower:
    """Bets ``base`` on the streak (the last winner, ties skipped) or the chop (the other), from the second coup."""

    who: str
    mode: str = "streak"
    base: float = 1.0

    def __post_init__(self) -> None:
        _seat(self.who)
        _choice(self.mode, _ROADS, f"{self.who}: road")
        object.__setattr__(self, "base", _stake(self.base, f"{self.who}: base"))

    @property
    def bets_needed(self) -> tuple[str, ...]:
        """The bets whose edges the player's record needs."""
        return _MAIN

    def place(self, coups: pl.DataFrame, gen: np.random.Generator) -> pl.DataFrame:
        """The bets on these coups (a replay frame)."""
        winner = coups["winner"].to_numpy()
        start = _starts(coups)
        bets = np.empty(coups.height, dtype=object)
        amounts = np.zeros(coups.height)
        last = None
        for i in range(coups.height):
            if start[i]:
                last = None
            if last is not None:
                bets[i] = last if self.mode == "streak" else ("player" if last == "banker" else "banker")
                amounts[i] = self.base
            else:
                bets[i] = "banker"
            if winner[i] != "tie":
                last = winner[i]
        return _frame(coups, self.who, bets, amounts)


def _noisy_unseen(coups: pl.DataFrame, decks: np.ndarray, miss_rate: float, gen: np.random.Generator) -> np.ndarray:
    """The unseen cards a counter who misses each card with probability ``miss_rate`` believes in."""
    unseen = coups.select([f"unseen_{r}" for r in RANKS]).to_numpy().astype(np.int64)
    full = 4 * decks[:, None] * np.ones((1, 13), dtype=np.int64)
    if miss_rate == 0:
        return unseen
    seen = full - unseen
    start = _starts(coups)
    new = seen.copy()
    new[1:] -= np.where(start[1:, None], 0, seen[:-1])
    kept = gen.binomial(new, 1 - miss_rate)
    shoe_id = np.cumsum(start)
    counted = np.zeros_like(kept)
    for s in np.unique(shoe_id):
        rows = shoe_id == s
        counted[rows] = np.cumsum(kept[rows], axis=0)
    return full - counted


@dataclass(frozen=True)
class Counter:
    """A counter: stakes ``unit * ramp(true count)`` on the count's bet, ``floor`` units below the ramp.

    Attributes
    ----------
    who
        The seat.
    system
        A count system (a name from the library, or a :class:`~toolkit.counting.CountSystem`).
    ramp
        Units by true count, ``{count_at_least: units}`` (default: 1 unit at the system's threshold).
    floor
        Units staked when the count is below the ramp (0: a back-counter).
    unit
        Money per unit.
    bet
        The bet (default: the system's own).
    miss_rate
        Probability that each card seen is missed (never counted).
    rounding
        How the counter rounds the true count: ``"none"``, ``"floor"`` or ``"nearest"``.
    camouflage
        Probability of a ``floor``-or-1-unit bet at a coup where the count says no.
    """

    who: str
    system: str | CountSystem = "dragon7"
    ramp: Mapping[float, float] | tuple[tuple[float, float], ...] | None = None
    floor: float = 0.0
    unit: float = 1.0
    bet: str | None = None
    miss_rate: float = 0.0
    rounding: str = "none"
    camouflage: float = 0.0
    _ramp: Ramp = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _seat(self.who)
        system = get_count_system(self.system)
        object.__setattr__(self, "system", system)
        bet = self.bet if self.bet is not None else system.bet
        if bet is None:
            raise ValueError(f"{self.who}: count system {system.name!r} names no bet; give bet=")
        object.__setattr__(self, "bet", bet)
        steps = self.ramp
        if steps is None:
            if system.threshold is None:
                raise ValueError(f"{self.who}: count system {system.name!r} has no threshold; give a ramp")
            steps = {system.threshold: 1.0}
        object.__setattr__(self, "_ramp", Ramp.from_any(dict(steps) if isinstance(steps, Mapping) else steps))
        object.__setattr__(self, "ramp", self._ramp.steps)
        if isinstance(self.floor, bool) or not isinstance(self.floor, (int, float)) or not self.floor >= 0:
            raise ValueError(f"{self.who}: floor must be a number of units >= 0, got {self.floor!r}")
        object.__setattr__(self, "unit", _stake(self.unit, f"{self.who}: unit"))
        object.__setattr__(self, "miss_rate", _rate(self.miss_rate, f"{self.who}: miss_rate"))
        object.__setattr__(self, "camouflage", _rate(self.camouflage, f"{self.who}: camouflage"))
        _choice(self.rounding, _ROUNDING, f"{self.who}: rounding")

    @property
    def bets_needed(self) -> tuple[str, ...]:
        """The bets whose edges the player's record needs."""
        return (str(self.bet),)

    def true_count(self, coups: pl.DataFrame, gen: np.random.Generator) -> np.ndarray:
        """The true count the counter believes before each coup (its misses and rounding applied)."""
        decks = coups["decks"].to_numpy() if "decks" in coups.columns else np.full(coups.height, 8)
        assert isinstance(self.system, CountSystem)
        unseen = _noisy_unseen(coups, decks, self.miss_rate, gen)
        _, tc = count_arrays(self.system, unseen, decks, None, coups["cards_left"].to_numpy())
        if self.rounding == "floor":
            return np.floor(tc)
        if self.rounding == "nearest":
            return np.sign(tc) * np.floor(np.abs(tc) + 0.5)
        return tc

    def place(self, coups: pl.DataFrame, gen: np.random.Generator) -> pl.DataFrame:
        """The bets on these coups (a replay frame)."""
        units = self._ramp(self.true_count(coups, gen))
        below = units == 0
        units = np.where(below, self.floor, units)
        cover = below & (gen.random(coups.height) < self.camouflage)
        units = np.where(cover, max(self.floor, 1.0), units)
        return _frame(coups, self.who, str(self.bet), units * self.unit)


@dataclass(frozen=True)
class Team:
    """A spotter who flat-bets ``spotter_bet`` and counts, and a big player who bets only on the spotter's signal."""

    spotter: str
    big_player: str
    system: str | CountSystem = "dragon7"
    units: float = 25.0
    spotter_bet: str = "banker"

    def __post_init__(self) -> None:
        _seat(self.spotter)
        _seat(self.big_player)
        if self.spotter == self.big_player:
            raise ValueError(f"a team's spotter and big player sit at two seats, got {self.spotter!r} twice")
        object.__setattr__(self, "units", _stake(self.units, f"{self.big_player}: units"))

    @property
    def bets_needed(self) -> tuple[str, ...]:
        """The bets whose edges the players' record needs."""
        return (self.spotter_bet, *self._big().bets_needed)

    def _big(self) -> Counter:
        threshold = get_count_system(self.system).threshold
        ramp = None if threshold is None else {threshold: self.units}
        return Counter(self.big_player, self.system, ramp=ramp)

    def place(self, coups: pl.DataFrame, gen: np.random.Generator) -> pl.DataFrame:
        """Both seats' bets on these coups (a replay frame)."""
        spotter = FlatBettor(self.spotter, self.spotter_bet).place(coups, gen)
        return pl.concat([spotter, self._big().place(coups, gen)])


#: A simulated player.
Player = FlatBettor | Progression | RoadFollower | Counter | Team

#: The players by the kind a players file names.
PLAYER_KINDS: dict[str, type] = {
    "flat": FlatBettor,
    "progression": Progression,
    "road": RoadFollower,
    "counter": Counter,
    "team": Team,
}


def simulate_table(
    n_shoes: int,
    players: Iterable[Player],
    header: ShoeHeader = ShoeHeader(),
    seed: SeedLike = None,
) -> Records:
    """Deal ``n_shoes`` shoes and seat ``players`` at them: a card-level record with their bets.

    Parameters
    ----------
    n_shoes
        Shoes dealt (:func:`toolkit.records.simulate_records`).
    players
        The players (:data:`Player`); their seats must differ.
    header
        How the shoes are dealt.
    seed
        The shoes draw from its first child stream, player ``i`` from child ``i + 1``.

    Returns
    -------
    Records
        The shoes with the players' bets attached (and checked).
    """
    players = list(players)
    seats = [s for p in players for s in ((p.spotter, p.big_player) if isinstance(p, Team) else (p.who,))]
    twice = {s for s in seats if seats.count(s) > 1}
    if twice:
        raise ValueError(f"two players sit at seat {sorted(twice)[0]!r}; give each player a seat of its own")
    streams = np.random.SeedSequence(as_generator(seed).integers(2**63)).spawn(1 + len(players))
    records = simulate_records(n_shoes, header, seed=streams[0])
    coups = table_coups(records)
    bets = [p.place(coups, np.random.default_rng(s)) for p, s in zip(players, streams[1:], strict=True)]
    if not bets:
        return records
    return records.with_bets(pl.concat(bets).with_columns(pl.col("shoe").cast(pl.String)))


def table_coups(records: Records, bets: Sequence[str] = ()) -> pl.DataFrame:
    """The replay frame the players read: unseen cards, counts, outcomes, and the decks of each coup's shoe."""
    frame = replay_records(records, bets=list(bets) or ["banker"])
    decks = pl.DataFrame(
        {"shoe": records.shoes["shoe"], "decks": [h.dealing.decks for h in records.headers]},
        schema={"shoe": records.shoes["shoe"].dtype, "decks": pl.Int64},
    )
    return frame.join(decks, on="shoe", how="left", maintain_order="left")
