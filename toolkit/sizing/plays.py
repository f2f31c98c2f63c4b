"""How counters really bet: Kelly stakes, table limits and chips, back-counting, counting errors.

Each class here is a play of :mod:`toolkit.counting.strategies` (it has a
``bet`` and ``stakes(info, rules)``, sees only the state before each coup), so
the harness of :mod:`toolkit.counting.harness` plays it through dealt shoes,
prices every bet at its exact expected value and checks that nothing looks ahead.

* :class:`KellyPlay`: stake a fraction of the Kelly-optimal stake of the bet
  (or of several bets solved jointly) at that shoe, from the exact payout
  distribution before the coup (:mod:`toolkit.sizing.kelly`), optionally only
  when a count is at least a threshold.  Stakes are sized off a fixed bankroll
  (the bankroll at the start of the trip, the usual practice; resizing between
  trips is the counter's decision, Schlesinger 2005 ch. 10);
* :func:`kelly_ramp`: what a counter who knows only the count can do: for each
  true count, the Kelly stake of the payout distribution *given that count*
  (the mixture of the exact distributions of the coups at that count, over
  simulated shoes), as a :class:`~toolkit.counting.strategies.Ramp`;
* :class:`Limits`, :class:`LimitedPlay`: chips (stakes rounded *down* to a
  multiple, never over-betting), the table minimum (a stake below it is not
  placed) and maximum (stakes above it are cut to it);
* :class:`BackCount`: back-counting ("wonging"): watch a shoe, join it at a
  given coup only if the count is then at least ``entry``, leave it for good
  the first time the count falls below ``exit``;
* :class:`SeatBet`: a bet the counter must make to hold a seat (a main-game
  bet on every coup played, where the casino asks for one), the cost that
  back-counting saves;
* :class:`MiscountedPlay`: a count play whose counter misses cards, rounds the
  true count and misjudges it with Gaussian noise.

>>> Limits(table_min=5, table_max=500, chip=5).apply(np.array([3.0, 7.5, 12.0, 900.0])).tolist()
[0.0, 5.0, 10.0, 500.0]
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from toolkit._check import non_negative_int, one_of
from toolkit.bets.base import Bet
from toolkit.bets.paytable import PayTable
from toolkit.counting.strategies import CountPlay, Play, Ramp, Strategy, count_strategy
from toolkit.counting.systems import CountSystem, get_count_system
from toolkit.counting.tallies import PreCoup, count_arrays, round_count
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing, deal
from toolkit.parallel import SeedLike, as_seed_sequence
from toolkit.sizing._args import number
from toolkit.sizing.kelly import kelly_fractions, outcome_probabilities, payout_outcomes

__all__ = [
    "BackCount",
    "Gate",
    "KellyPlay",
    "LimitedPlay",
    "Limits",
    "MiscountedPlay",
    "SeatBet",
    "kelly_ramp",
    "kelly_strategy",
    "sized_strategy",
]

#: Joint Kelly fractions already solved for a PreCoup (dropped with it).
_SOLVED: weakref.WeakKeyDictionary[PreCoup, dict] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Limits:
    """Table limits and chips, in the units of the stakes: ``table_min``, ``table_max`` and the ``chip`` size.

    :meth:`apply` rounds a stake down to a multiple of ``chip`` (0: no
    rounding), drops a stake below ``table_min`` and cuts one above ``table_max``.

    Attributes
    ----------
    table_min, table_max
        Table limits.
    chip
        Chip size (0: no rounding).
    """

    table_min: float = 0.0
    table_max: float = math.inf
    chip: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "table_min", number(self.table_min, "Limits.table_min"))
        object.__setattr__(self, "table_max", number(self.table_max, "Limits.table_max", strict=True))
        object.__setattr__(self, "chip", number(self.chip, "Limits.chip"))
        if self.table_max < self.table_min:
            raise ValueError(f"Limits: table_max {self.table_max:g} is below table_min {self.table_min:g}")
        if math.isinf(self.chip):
            raise ValueError("Limits.chip must be finite")

    def apply(self, stakes: np.ndarray) -> np.ndarray:
        """The stakes as placed at the table."""
        s = np.minimum(np.asarray(stakes, dtype=np.float64), self.table_max)
        if self.chip > 0:
            s = np.floor(s / self.chip + 1e-9) * self.chip
        return np.where((s >= self.table_min) & (s > 0), s, 0.0)


@dataclass(frozen=True)
class LimitedPlay:
    """Any play with its stakes rounded to chips and held within the table limits (:class:`Limits`).

    Attributes
    ----------
    play
        The play.
    limits
        Table limits and chip.
    """

    play: Play
    limits: Limits = Limits()

    @property
    def bet(self) -> str | Bet:
        """The bet of the wrapped play."""
        return self.play.bet

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup of ``info`` (see :class:`~toolkit.counting.strategies.Play`)."""
        return self.limits.apply(self.play.stakes(info, rules))

    def describe(self) -> str:
        """What the play bets, in a phrase (for tables and reports)."""
        inner = self.play.describe() if hasattr(self.play, "describe") else repr(self.play)
        lim = self.limits
        return f"{inner} [chips {lim.chip:g}, limits {lim.table_min:g}-{lim.table_max:g}]"


@dataclass(frozen=True)
class Gate:
    """Bet only when the ``count`` (``"true"`` or ``"running"``) of ``system`` is at least ``threshold``.

    Attributes
    ----------
    system
        The count system.
    threshold
        The count to bet at.
    count
        ``"true"`` or ``"running"``.
    """

    system: CountSystem | str
    threshold: float
    count: str = "true"

    def __post_init__(self) -> None:
        object.__setattr__(self, "system", get_count_system(self.system))
        object.__setattr__(self, "threshold", number(self.threshold, "Gate.threshold", low=-math.inf))
        if self.count not in ("true", "running"):
            raise ValueError(f"Gate.count must be one of true, running, got {self.count!r}")

    def open(self, info: PreCoup) -> np.ndarray:
        """Whether the count is at the threshold before each coup of ``info``."""
        rc, tc = info.counts(self.system)
        return (tc if self.count == "true" else rc) >= self.threshold

    def describe(self) -> str:
        """The gate in a phrase (``"TC dragon7 >= 4"``)."""
        assert isinstance(self.system, CountSystem)
        return f"{'TC' if self.count == 'true' else 'RC'} {self.system.name} >= {self.threshold:g}"


@dataclass(frozen=True)
class KellyPlay:
    """Stake ``fraction`` of the Kelly stake of bet ``index`` of ``bets`` on a ``bankroll``, solved jointly.

    Parameters
    ----------
    bets
        All the bets placed together on the same coup: before each coup the
        fractions of those whose gate is open are solved jointly from their
        joint payout distribution (:func:`~toolkit.sizing.kelly.kelly_fractions`).
    index
        Which of ``bets`` this play stakes on.
    bankroll
        The bankroll the stakes are sized from (stakes come out in its units).
    fraction
        Fraction of Kelly, in (0, 1] (half Kelly: 0.5).
    gates
        One :class:`Gate` (or ``None``) per bet: bet only when its count is at
        least its threshold.  ``None`` bets whenever the Kelly stake is
        positive, which needs the exact composition (computer-perfect information).
    """

    bets: tuple[str | PayTable, ...]
    index: int
    bankroll: float
    fraction: float = 1.0
    gates: tuple[Gate | None, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "bets", tuple(self.bets))
        payout_outcomes(self.bets)  # validates the bets
        if isinstance(self.index, bool) or not isinstance(self.index, (int, np.integer)):
            raise TypeError(f"KellyPlay.index must be an integer, got {self.index!r}")
        if not 0 <= self.index < len(self.bets):
            raise ValueError(f"KellyPlay.index must be in 0..{len(self.bets) - 1}, got {self.index}")
        object.__setattr__(self, "bankroll", number(self.bankroll, "KellyPlay.bankroll", strict=True))
        f = number(self.fraction, "KellyPlay.fraction (of Kelly)", strict=True)
        if f > 1:
            raise ValueError(f"KellyPlay.fraction (of Kelly) must lie in (0, 1], got {self.fraction!r}")
        gates = tuple(self.gates) or (None,) * len(self.bets)
        if len(gates) != len(self.bets) or any(g is not None and not isinstance(g, Gate) for g in gates):
            raise ValueError(f"KellyPlay.gates: one Gate or None per bet ({len(self.bets)}), got {gates!r}")
        object.__setattr__(self, "gates", gates)

    @property
    def bet(self) -> str | Bet:
        """The bet staked on."""
        return self.bets[self.index]

    def fractions(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """``(len(info), len(bets))`` full-Kelly fractions before each coup (0 where a gate is shut)."""
        po = payout_outcomes(self.bets, rules)
        key = (po.bets, self.gates, rules.tableau)
        solved = _SOLVED.setdefault(info, {})
        if key not in solved:
            n, k = len(info), len(po.bets)
            open_ = np.column_stack([np.ones(n, bool) if g is None else g.open(info) for g in self.gates])
            f = np.zeros((n, k))
            patterns, which = np.unique(open_, axis=0, return_inverse=True)
            which = np.asarray(which).reshape(-1)
            for j, pattern in enumerate(patterns):
                rows = np.flatnonzero(which == j)
                cols = np.flatnonzero(pattern)
                if len(rows) == 0 or len(cols) == 0:
                    continue
                sub = payout_outcomes(tuple(po.bets[c] for c in cols), rules)
                p = outcome_probabilities(sub, info.unseen[rows], rules.tableau)
                f[np.ix_(rows, cols)] = kelly_fractions(p, sub.payouts)
            solved[key] = f
        return solved[key]

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup of ``info`` (see :class:`~toolkit.counting.strategies.Play`)."""
        return self.fraction * self.bankroll * self.fractions(info, rules)[:, self.index]

    def describe(self) -> str:
        """What the play bets, in a phrase (for tables and reports)."""
        names = [b.name if isinstance(b, Bet) else b for b in self.bets]
        gate = self.gates[self.index]
        others = [n for i, n in enumerate(names) if i != self.index]
        joint = f" (jointly with {'+'.join(others)})" if others else ""
        when = f" when {gate.describe()}" if gate is not None else ""
        return f"{names[self.index]}: {self.fraction:g} Kelly of {self.bankroll:g}{joint}{when}"


def kelly_strategy(
    bets: Sequence[str | PayTable] | str | PayTable,
    bankroll: float,
    fraction: float = 1.0,
    gates: Sequence[Gate | None] | Gate | None = None,
    limits: Limits | None = None,
    name: str | None = None,
) -> Strategy:
    """Fractional Kelly on one bet or several at once (solved jointly), each optionally gated by a count.

    Parameters
    ----------
    bets
        A bet or several.
    bankroll
        Bankroll in units.
    fraction
        Fraction of Kelly.
    gates
        A count gate per bet (``None``: bet whenever the exact Kelly stake is positive).
    limits
        Table limits and chip.
    name
        The strategy's name.

    Returns
    -------
    toolkit.counting.strategies.Strategy
        The strategy.

    References
    ----------
    Kelly (1956); Thorp (2006).

    Examples
    --------
    >>> s = kelly_strategy("dragon7", 1000, 0.5, Gate("dragon7", 4))
    >>> s.name, s.describe()
    ('dragon7 0.5 Kelly of 1000', 'dragon7: 0.5 Kelly of 1000 when TC dragon7 >= 4')
    """
    group = (bets,) if isinstance(bets, (str, Bet)) else tuple(bets)
    if gates is None or isinstance(gates, Gate):
        gates = (gates,) * len(group)
    plays: list[Play] = [KellyPlay(group, i, bankroll, fraction, tuple(gates)) for i in range(len(group))]
    if limits is not None:
        plays = [LimitedPlay(p, limits) for p in plays]
    label = (
        name or "+".join(b.name if isinstance(b, Bet) else b for b in group) + f" {fraction:g} Kelly of {bankroll:g}"
    )
    return Strategy(label, tuple(plays))


def kelly_ramp(
    system: CountSystem | str,
    bankroll: float,
    fraction: float = 1.0,
    bet: str | PayTable | None = None,
    threshold: float | None = None,
    n_shoes: int = 2000,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    min_coups: int = 200,
    rules: Rules = Rules(),
    workers: int | None = None,
) -> Ramp:
    """Kelly stakes by true count, for a counter who knows the count but not the composition.

    Over ``n_shoes`` dealt shoes, the coups whose true count (floored to a whole
    number) is ``c >= threshold`` give the payout distribution at count ``c``,
    the average of their exact distributions; the stake at ``c`` is ``fraction``
    of its Kelly fraction times ``bankroll``.  Counts reached by fewer than
    ``min_coups`` coups keep the stake of the count below them (the ramp ends
    with the last well-measured count).

    Parameters
    ----------
    system
        A count system or its name.
    bankroll
        Bankroll in units.
    fraction
        Fraction of Kelly.
    bet
        The bet (default: the system's).
    threshold
        The lowest count bet (default: the system's trigger).
    n_shoes
        Shoes dealt to measure the distributions.
    dealing
        How they are dealt.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    min_coups
        Coups a count needs to get its own stake.
    rules
        House rules pricing the bet.
    workers
        Processes dealing the shoes (``None``: every core); the ramp is the same for any number.

    Returns
    -------
    toolkit.counting.strategies.Ramp
        Units by true count.

    Examples
    --------
    >>> r = kelly_ramp("dragon7", 1000, 0.5, n_shoes=100, seed=1, min_coups=50)
    >>> r.threshold >= 4, all(units > 0 for _, units in r.steps if _ >= r.threshold)
    (True, True)
    """
    s = get_count_system(system)
    target = bet if bet is not None else s.bet
    if target is None:
        raise ValueError(f"count system {s.name!r} names no bet; give bet=")
    t = s.threshold if threshold is None else threshold
    if t is None:
        raise ValueError(f"count system {s.name!r} has no published threshold; give threshold=")
    b = number(bankroll, "kelly_ramp bankroll", strict=True, finite=True)
    f = number(fraction, "kelly_ramp fraction (of Kelly)", strict=True)
    if f > 1:
        raise ValueError(f"kelly_ramp fraction (of Kelly) must lie in (0, 1], got {fraction!r}")
    min_coups = non_negative_int(min_coups, "kelly_ramp min_coups")
    info = PreCoup.from_dealt(
        deal(n_shoes, dealing, as_seed_sequence(seed), workers=workers, progress=False), rules.tableau
    )
    rc, tc = info.counts(s)
    count = np.floor(tc if s.trigger == "true" else rc)
    rows = np.flatnonzero(count >= math.floor(t))
    if len(rows) == 0:
        raise ValueError(f"no coup in {n_shoes} shoes reached the count {t:g}: deal more shoes")
    po = payout_outcomes(target, rules)
    p = outcome_probabilities(po, info.unseen[rows], rules.tableau)
    levels, which, sizes = np.unique(count[rows], return_inverse=True, return_counts=True)
    mixture = np.zeros((len(levels), p.shape[1]))
    np.add.at(mixture, np.asarray(which).reshape(-1), p)
    mixture /= sizes[:, None]
    stakes = f * b * kelly_fractions(mixture, po.payouts)[:, 0]
    steps: list[tuple[float, float]] = []
    for level, n, stake in zip(levels, sizes, stakes, strict=True):
        if n < min_coups:
            break
        steps.append((max(float(level), float(t)) if not steps else float(level), float(stake)))
    if not steps:
        raise ValueError(f"fewer than {min_coups} coups at the count {math.floor(t)}: deal more shoes")
    return Ramp(tuple(steps))


def _shoe_starts(shoe: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each row's shoe (0, 1, ...) and the first row of each shoe."""
    first = np.r_[True, shoe[1:] != shoe[:-1]] if len(shoe) else np.zeros(0, bool)
    return np.cumsum(first) - 1, np.flatnonzero(first)


@dataclass(frozen=True)
class BackCount:
    """Back-counting: the stakes of ``play`` only while seated at the shoe.

    The counter watches each shoe and joins it before coup ``entry_coup`` if
    the ``count`` of ``system`` is then at least ``entry`` (otherwise skips the
    shoe), and leaves it for good before the first later coup at which the
    count is below ``exit``.

    Attributes
    ----------
    play
        The play at the table.
    system
        The count watched.
    entry_coup
        The coup before which the counter decides to join.
    entry, exit
        Counts to join at and to leave below.
    count
        ``"true"`` or ``"running"``.
    """

    play: Play
    system: CountSystem | str
    entry_coup: int
    entry: float
    exit: float = -math.inf
    count: str = "true"

    def __post_init__(self) -> None:
        object.__setattr__(self, "system", get_count_system(self.system))
        if isinstance(self.entry_coup, bool) or not isinstance(self.entry_coup, (int, np.integer)):
            raise TypeError(f"BackCount.entry_coup must be an integer, got {self.entry_coup!r}")
        if self.entry_coup < 1:
            raise ValueError(f"BackCount.entry_coup must be at least 1, got {self.entry_coup}")
        object.__setattr__(self, "entry", number(self.entry, "BackCount.entry", low=-math.inf))
        object.__setattr__(self, "exit", number(self.exit, "BackCount.exit", low=-math.inf))
        if self.count not in ("true", "running"):
            raise ValueError(f"BackCount.count must be one of true, running, got {self.count!r}")

    @property
    def bet(self) -> str | Bet:
        """The bet of the wrapped play."""
        return self.play.bet

    def seated(self, info: PreCoup) -> np.ndarray:
        """Whether the counter is at the table before each coup."""
        rc, tc = info.counts(self.system)
        c = tc if self.count == "true" else rc
        idx, starts = _shoe_starts(np.asarray(info.shoe))
        coup = np.asarray(info.coup)
        at_entry = coup == self.entry_coup
        joined = np.zeros(len(starts), bool)
        np.logical_or.at(joined, idx[at_entry], c[at_entry] >= self.entry)
        after = coup >= self.entry_coup
        low = after & (c < self.exit) & (coup > self.entry_coup)
        left = np.cumsum(low) - np.r_[0, np.cumsum(low)][starts][idx]  # drops below exit so far in the shoe
        return joined[idx] & after & (left == 0)

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup of ``info`` (see :class:`~toolkit.counting.strategies.Play`)."""
        return np.where(self.seated(info), self.play.stakes(info, rules), 0.0)

    def describe(self) -> str:
        """What the play bets, in a phrase (for tables and reports)."""
        inner = self.play.describe() if hasattr(self.play, "describe") else repr(self.play)
        kind = "TC" if self.count == "true" else "RC"
        return f"{inner}; join at coup {self.entry_coup} if {kind} >= {self.entry:g}, leave below {self.exit:g}"


@dataclass(frozen=True)
class SeatBet:
    """Stake ``units`` on ``bet`` on every coup the counter is seated for (every coup without ``seated``).

    Where a player must bet the main game to hold a seat (or to place a side
    bet), a counter at the table pays that bet's house edge on every coup;
    a back-counter (``seated``: the :class:`BackCount` of the side bet) pays it only
    on the coups he plays.

    Attributes
    ----------
    bet
        The bet staked.
    units
        The stake.
    seated
        The back-count deciding when the counter is seated.
    """

    bet: str | PayTable = "banker"
    units: float = 1.0
    seated: BackCount | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", number(self.units, "SeatBet.units", strict=True, finite=True))
        if self.seated is not None and not isinstance(self.seated, BackCount):
            raise TypeError(f"SeatBet.seated must be a BackCount or None, got {self.seated!r}")
        payout_outcomes(self.bet)  # validates the bet

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup of ``info`` (see :class:`~toolkit.counting.strategies.Play`)."""
        at_table = np.ones(len(info), bool) if self.seated is None else self.seated.seated(info)
        return np.where(at_table, self.units, 0.0)

    def describe(self) -> str:
        """What the play bets, in a phrase (for tables and reports)."""
        name = self.bet.name if isinstance(self.bet, Bet) else self.bet
        return f"{self.units:g} on {name} every coup {'seated' if self.seated is not None else 'dealt'}"


@dataclass(frozen=True)
class MiscountedPlay:
    """A count play by an imperfect counter: cards missed, a rounded true count, Gaussian misjudgement.

    Each card seen is missed (its tag never added) with probability ``missed``;
    the true count is the perceived running count over the decks left, plus
    Normal(0, ``noise``) error, then rounded by ``rounding`` (``"none"``,
    ``"floor"``, ``"truncate"``, ``"nearest"``).  The random errors of a block of
    shoes come from ``seed`` and the block's first shoe, so they do not depend
    on how the work is split among processes.

    Attributes
    ----------
    system
        The count system.
    bet
        The bet staked.
    ramp
        Units by (perceived) count.
    missed
        Probability of missing a card.
    noise
        SD of the error of the true count.
    rounding
        Rounding of the true count.
    seed
        Seed of the counting errors.
    """

    system: CountSystem | str
    bet: str | PayTable
    ramp: Ramp
    missed: float = 0.0
    noise: float = 0.0
    rounding: str = "none"
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "system", get_count_system(self.system))
        object.__setattr__(self, "ramp", Ramp.from_any(self.ramp))
        m = number(self.missed, "MiscountedPlay.missed")
        if m >= 1:
            raise ValueError(f"MiscountedPlay.missed is a probability below 1, got {self.missed!r}")
        number(self.noise, "MiscountedPlay.noise")
        if self.rounding not in ("none", "floor", "truncate", "nearest"):
            raise ValueError(f"MiscountedPlay.rounding must be none, floor, truncate or nearest, got {self.rounding!r}")
        object.__setattr__(self, "seed", non_negative_int(self.seed, "MiscountedPlay.seed"))

    def perceived(self, info: PreCoup) -> np.ndarray:
        """The true count as this counter has it before each coup."""
        system = get_count_system(self.system)
        shoe = np.asarray(info.shoe)
        first = int(shoe[0]) if len(shoe) else 0
        gen = np.random.default_rng(np.random.SeedSequence([self.seed, first]))
        unseen = np.asarray(info.unseen, dtype=np.int64)
        idx, starts = _shoe_starts(shoe)
        missed_tags = np.zeros(len(shoe))
        if self.missed > 0 and len(shoe):
            full = 4 * np.asarray(info.decks, dtype=np.int64)[:, None] * np.ones((1, 13), np.int64)
            before = np.vstack([full[:1], unseen[:-1]])
            before[starts] = full[starts]
            seen_now = np.maximum(before - unseen, 0)  # cards first seen before this coup, by rank
            lost = gen.binomial(seen_now, self.missed)
            cum = np.cumsum(lost, axis=0)
            cum = cum - (cum[starts] - lost[starts])[idx]  # missed so far within the shoe
            missed_tags = cum @ system.tag_array
        exact = system.with_(rounding="none")
        rc, _ = count_arrays(exact, unseen, info.decks, info.burn_card, info.left)
        rc = rc - missed_tags
        cards = unseen.sum(axis=1) if exact.divisor == "unseen" else np.asarray(info.left)
        tc = rc / (cards / exact.unit_cards)
        if self.noise > 0:
            tc = tc + gen.normal(0.0, self.noise, len(tc))
        return round_count(tc, self.rounding)

    def stakes(self, info: PreCoup, rules: Rules) -> np.ndarray:
        """Units to stake before each coup of ``info`` (see :class:`~toolkit.counting.strategies.Play`)."""
        return self.ramp(self.perceived(info))

    def describe(self) -> str:
        """What the play bets, in a phrase (for tables and reports)."""
        base = CountPlay(get_count_system(self.system), self.bet, self.ramp).describe()
        return f"{base}; misses {self.missed:g} of cards, noise {self.noise:g}, rounding {self.rounding}"


def sized_strategy(
    system: CountSystem | str,
    bet: str | PayTable | None = None,
    threshold: float | None = None,
    bankroll: float = 1000.0,
    kelly: float | None = None,
    ramp: Ramp | Mapping[float, float] | None = None,
    units: float = 1.0,
    limits: Limits | None = None,
    kelly_by: str = "shoe",
    ramp_shoes: int = 2000,
    seed: SeedLike = None,
    dealing: Dealing = Dealing(),
    workers: int | None = None,
) -> Strategy:
    """A count system's bet, flat (``units`` at ``threshold``), by a ``ramp``, or at ``kelly`` of Kelly on ``bankroll``.

    ``kelly_by="shoe"`` sizes each Kelly stake from the exact payout
    distribution before the coup (:class:`~toolkit.sizing.plays.KellyPlay`, when
    the count is at ``threshold``); ``kelly_by="count"`` from the distribution
    at the true count, as a counter can (:func:`~toolkit.sizing.plays.kelly_ramp`
    over ``ramp_shoes`` shoes dealt from ``seed``).

    Parameters
    ----------
    system
        A count system or its name.
    bet
        The bet (default: the system's).
    threshold
        The count to bet at (default: the system's trigger).
    bankroll
        Bankroll in units (for Kelly).
    kelly
        Fraction of Kelly.
    ramp
        Units by count.
    units
        The flat stake.
    limits
        Table limits and chip.
    kelly_by
        ``"shoe"`` or ``"count"``.
    ramp_shoes
        Shoes dealt for a count ramp.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    dealing
        How those shoes are dealt.
    workers
        Processes dealing them (``None``: every core); the strategy is the same for any number.

    Returns
    -------
    toolkit.counting.strategies.Strategy
        The strategy.

    Examples
    --------
    >>> sized_strategy("dragon7", kelly=0.5, bankroll=2000).describe()
    'dragon7: 0.5 Kelly of 2000 when TC dragon7 >= 4'
    """
    s = get_count_system(system)
    target = bet if bet is not None else s.bet
    if target is None:
        raise ValueError(f"count system {s.name!r} names no bet; give bet=")
    if kelly is not None and ramp is not None:
        raise ValueError("give kelly= or ramp=, not both")
    one_of(kelly_by, ("shoe", "count"), "kelly_by")
    if kelly is not None and kelly_by == "count":
        ramp = kelly_ramp(s, bankroll, kelly, target, threshold, ramp_shoes, dealing, seed, workers=workers)
        name = f"{s.name} {kelly:g} Kelly by count of {bankroll:g}"
        strategy = count_strategy(s, bet=target, ramp=ramp, name=name)
        return strategy if limits is None else Strategy(name, tuple(LimitedPlay(p, limits) for p in strategy.plays))
    if kelly is not None:
        t = s.threshold if threshold is None else threshold
        if t is None:
            raise ValueError(f"count system {s.name!r} has no published threshold; give threshold=")
        return kelly_strategy(target, bankroll, kelly, Gate(s, t, s.trigger), limits)
    label = None
    if ramp is not None:
        steps = Ramp.from_any(ramp).steps
        label = f"{s.name} ramp " + ",".join(f"{a:g}:{u:g}" for a, u in steps)
    strategy = count_strategy(s, threshold, bet=target, ramp=ramp, units=units, name=label)
    if limits is None:
        return strategy
    return Strategy(strategy.name, tuple(LimitedPlay(p, limits) for p in strategy.plays))
