"""A count's win computed, not simulated: the expected win per shoe of betting by a linear count, from the exact law.

**The identity.**  Let ``F_m(c)`` be the probability that the next cards of a shoe ``c`` are one ordered sequence
with multiset ``m`` (what the exact engine sums, :mod:`toolkit.exact._tables`).  After ``d`` cards of a shoe ``S``
are seen, with running count ``RC_d``, exchangeability gives

    E[ F_m(c_d) 1{RC_d = r} ] = F_m(S) P_{S - m}(RC_d = r)

(cards ``d+1..`` being that sequence while the first ``d`` count ``r`` has the probability of the first cards being
that sequence while the next ``d`` count ``r``).  A bet's expectation is ``sum_m W[m] F_m(c)``, so its expectation
given the count, at every depth, is a sum over the *projections* ``a`` of the multisets on the count's tag groups
(cards of each group) of ``Q_a P_{S-a}(d, r)``: the law of a sum of tags over ``d`` cards drawn without replacement
from the shoe less ``a``.  Its generating function is the product over tag groups of ``(1 + z w^t_g)^(N_g - a_g)``,
built by multiplication only (:mod:`toolkit.counting._computed_kernels`).  The law of the next coup's length and
count change given ``(d, r)`` comes from the same arrays, since a coup's cards are a multiset too.

**The coup starts.**  Coups start at cards seen ``d`` with running count ``r``; the mass of starts ``rho(d, r)`` is
pushed along the one-coup transition law (a Markov chain on ``(d, r)``), the cut card and the last-hand rule deciding
which starts are dealt.  A thresholds table by cards dealt reads the state; one by coup counts the coups up to its
last step in layers of the chain (as a back-counter's coups before the entry coup are counted, and his seated coups
before the table's last step).  That chain is the
one approximation: the coup boundaries carry a little information the count does not.  The burn card turned up is
mixed over exactly (its value sets the hidden burn, so the cut card's place among the seen cards and the cards left);
hidden burn cards are unseen cards (exchangeability again).

>>> res = count_value("dragon7", dealing=Dealing(decks=1, cut_card=14))
>>> 0 < res.bets_per_shoe < res.hands_per_shoe
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from toolkit.bets.base import Bet
from toolkit.bets.paytable import PayTable
from toolkit.counting._computed_kernels import TINY, chain_rows
from toolkit.counting._computed_labels import label_moments
from toolkit.counting._computed_law import _Law, _leaves, _stack
from toolkit.counting.seating import SeatRule, _table
from toolkit.counting.strategies import CountPlay, Ramp, Strategy, count_strategy
from toolkit.counting.systems import CountSystem, resolve_bet
from toolkit.coup.cards import CompositionLike
from toolkit.coup.options import Burn, LastHand, code
from toolkit.coup.outcome import N_MAIN
from toolkit.coup.rules import Rules, Tableau
from toolkit.dealing.dealer import Dealing
from toolkit.exact._kernels import pair_split
from toolkit.exact._tables import coup_table, multisets
from toolkit.exact.engine import _features, zero_pair_probabilities

__all__ = ["CountValue", "SeatRule", "count_law", "count_value"]

#: The most tag groups (distinct tags by value).
MAX_GROUPS = 6
#: Bytes of the per-chunk arrays.
CHUNK_BYTES = 96_000_000
#: Bytes of a back-counter's starts counted by coup before the entry coup (runs x entry_coup^2 x counts).
SEAT_BYTES = 400_000_000

#: What the method's figures mean and how far they may be off (measured, see the maths page).
METHOD_NOTE = (
    "computed: exact expectations given the count at every depth; coup starts by a Markov chain on (cards seen, "
    "running count), whose error against simulation is measured in notebooks/maths/computed-counts.md"
)


# ------------------------------------------------------------------ the bet as weights on multisets
def _moment_weights(bet: Bet, tableau: Tableau, decks: int):
    """``(const (2,), weights (2, 3, M))``: the bet's first and second moments as ``const + sum_m (W0 + alpha Wa +
    beta Wb)[m] F_m`` over the engine's multisets (alpha, beta: the zero-pair odds of the shoe); for a bet on ranks
    and suits (label events, prefix patterns) a function of the shoe giving them
    (:func:`toolkit.counting._computed_labels.label_moments`, suits from ``decks`` full decks)."""
    m = len(multisets().parent)
    weights = np.zeros((2, 3, m))
    const = np.zeros(2)
    if isinstance(bet, PayTable):
        table = coup_table(tableau)
        x = bet.payoff_array.astype(np.float64)
        xs = np.stack([x, x * x]).reshape(2, N_MAIN, 2, 2)
        parts = pair_split(xs, table.ext)
        for part, w in enumerate(parts):
            for q in range(2):
                weights[q, part] = np.bincount(table.mset, weights=table.count * w[q], minlength=m)
        return const, weights
    if getattr(bet, "evaluator", None) == "value events":
        compiled = bet.compiled(tableau)  # type: ignore[attr-defined]
        events = compiled.events
        pays = np.array([float(p) for p in compiled.payouts])
        default = float(compiled.default)
        walk = events.walk
        node = np.repeat(np.arange(len(walk.level)), np.diff(walk.start))
        mset = walk.multiset[node]
        contrib = walk.weight[:, None] * events.delta[walk.event][:, : len(pays)]
        for q, power in enumerate((1, 2)):
            g = pays**power - default**power
            weights[q, 0] = np.bincount(mset, weights=contrib @ g, minlength=m)
            const[q] = default**power + events.base[: len(pays)] @ g
        return const, weights
    if getattr(bet, "evaluator", None) in ("label events", "prefix patterns"):
        return label_moments(bet, tableau, decks)
    raise ValueError(
        f"the computed method prices pay-table, value-event, label-event and prefix-pattern bets; {bet.name!r} is "
        f"priced by {bet.evaluator}: use --method simulated"
    )


def _groups(system: CountSystem) -> tuple[np.ndarray, np.ndarray]:
    """``(group of each value (10,), tag of each group)``: the count's tag groups by card value."""
    try:
        by_value = np.array(system.tags_by_value, dtype=np.int64)
    except ValueError:
        raise ValueError(
            f"count system {system.name!r} tags T, J, Q, K differently; the computed method needs one tag per value"
        ) from None
    tags, group = np.unique(by_value, return_inverse=True)
    if len(tags) > MAX_GROUPS:
        raise ValueError(
            f"count system {system.name!r} has {len(tags)} distinct tags; the computed method takes at most "
            f"{MAX_GROUPS} (merge tags, or use --method simulated)"
        )
    return group.astype(np.int64), tags.astype(np.int64)


# ------------------------------------------------------------------ one shoe's coefficients
@dataclass(frozen=True)
class _Run:
    """One exposed burn card (or none): its probability, where the coups start, and the shoe the seen cards come
    from (by value and by rank)."""

    weight: float
    offset: int
    start_count: int
    values: np.ndarray
    ranks: np.ndarray
    removed: int = -1  # tag group of the exposed burn card (-1: none exposed)
    burn_value: int = -1  # value of the exposed burn card (-1: none exposed)


def _leaf_codes(group: np.ndarray, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """For every multiset, its projection on the tag groups ``(M, G)`` and that projection's code (base 7)."""
    counts = multisets().counts
    onehot = np.zeros((10, n_groups), dtype=np.int64)
    onehot[np.arange(10), group] = 1
    proj = counts @ onehot
    return proj, proj @ (7 ** np.arange(n_groups, dtype=np.int64))


def _coefficients(run: _Run, moments, codes: np.ndarray, tableau: Tableau):
    """Per projection code: the probability the next coup's cards project there (pi), and the bet's moments
    ``Q_q`` restricted to those coups, on the run's shoe (dicts code -> value)."""
    const, weights = moments(run.ranks, run.values, run.burn_value) if callable(moments) else moments
    feats = _features(run.values[None])[:, 0]
    alpha, beta = zero_pair_probabilities(tuple(int(x) for x in run.ranks))
    table = coup_table(tableau)
    pi_m = np.bincount(table.mset, weights=table.count, minlength=len(feats)) * feats
    out_q = []
    for q in range(2):
        term = (weights[q, 0] + alpha * weights[q, 1] + beta * weights[q, 2]) * feats
        out_q.append(term)
    uniq, inv = np.unique(codes, return_inverse=True)
    pi = np.bincount(inv, weights=pi_m, minlength=len(uniq))
    qs = np.stack([np.bincount(inv, weights=t, minlength=len(uniq)) for t in out_q])
    zero = int(np.flatnonzero(uniq == 0)[0])
    qs[:, zero] += const
    return uniq, pi, qs


@dataclass(frozen=True)
class _Settings:
    """What the chain needs besides the arrays: the count's convention, the dealing's end and the ramp."""

    config: tuple[int, ...]  # CHAIN_CONFIG less its first two entries
    ramp: tuple[np.ndarray, np.ndarray]
    tableau: Tableau
    seat: np.ndarray  # a back-counter's entry and exit counts, entry coup, coups dealt (0: to the cut card)
    shift: np.ndarray  # how far the thresholds table moves the ramp (see chain_rows), (layers, full + 1)


def _run_leaves(law: _Law, run: _Run, coefs, used: np.ndarray) -> tuple[list[tuple[int, ...]], tuple]:
    """The projections one run reads (its exposed burn card added to each) and its coefficients on them:
    ``(leaves, (sizes, moves, pi, q))``, the first leaf the run's own shoe."""
    uniq, pi, qs = coefs
    extra = np.zeros(len(law.sizes), dtype=np.int64)
    if run.removed >= 0:
        extra[run.removed] = 1
    proj = uniq[:, None] // 7 ** np.arange(len(law.sizes)) % 7  # each code's cards by group
    keep = (uniq != 0) & used & np.all(proj + extra <= law.top, axis=1)
    picked = np.r_[np.flatnonzero(uniq == 0)[:1], np.flatnonzero(keep)]
    leaves = [tuple(a) for a in (proj[picked] + extra).tolist()]
    sizes = proj[picked].sum(axis=1)
    moves = np.stack([sizes, proj[picked] @ law.tags], axis=1).astype(np.int64)
    coef = (sizes, moves, np.ascontiguousarray(pi[picked]), qs[:, picked].T.copy())
    return leaves, coef


def _pass(law: _Law, runs: list[_Run], codes: np.ndarray, moments, settings: _Settings) -> np.ndarray:
    """Sums by cards out of the shoe ``(2 + 3 steps, full + 1)`` (see :func:`chain_rows`: coup starts, seated
    starts, then per step of the ramp the starts, expected win and squared win per unit) over the runs (exposed burn
    cards), each weighted by its probability: one product of the count's law serves them all."""
    coefs = [_coefficients(run, moments, codes, settings.tableau) for run in runs]
    used = np.zeros(len(coefs[0][0]), dtype=bool)
    for _, pi, qs in coefs:
        used |= (pi > 0) | np.any(qs != 0, axis=0)
    per_run = [_run_leaves(law, run, c, used) for run, c in zip(runs, coefs, strict=True)]
    leaves = sorted({a for run_leaves, _ in per_run for a in run_leaves})
    index = {a: i for i, a in enumerate(leaves)}
    most = max(len(run_leaves) for run_leaves, _ in per_run)
    n_runs = len(runs)
    picked = np.zeros((n_runs, most), dtype=np.int64)
    n_picked = np.array([len(run_leaves) for run_leaves, _ in per_run], dtype=np.int64)
    sizes = np.zeros((n_runs, most), dtype=np.int64)
    moves = np.zeros((n_runs, most, 2), dtype=np.int64)
    pi = np.zeros((n_runs, most))
    q = np.zeros((n_runs, most, 2))
    for k, (run_leaves, (s, m, p, qk)) in enumerate(per_run):
        n = len(run_leaves)
        picked[k, :n] = [index[a] for a in run_leaves]
        sizes[k, :n], moves[k, :n], pi[k, :n], q[k, :n] = s, m, p, qk
    factors = law.row_factors(settings.config[0])
    most_rows = int(max(8, min(128, CHUNK_BYTES // (8 * max(len(leaves), 1) * law.width))))
    height = -(-law.rows // -(-law.rows // most_rows))  # chunks of equal height: each rebuilds ~30 rows below it
    entry_coup = settings.config[9]
    if n_runs * entry_coup**2 * law.width * 8 > SEAT_BYTES:
        what = "back-counting from coup" if len(settings.shift) == 1 else "a thresholds table by coup to coup"
        what = "a fixed number of coups, counted by coup to coup" if settings.seat[3] else what
        raise ValueError(
            f"{what} {entry_coup}: the computed method counts the coups before it in "
            f"{n_runs * entry_coup**2 * law.width * 8 / 1e6:,.0f} MB (at most {SEAT_BYTES / 1e6:,.0f}); use an "
            "earlier coup, smaller tags or --method simulated"
        )
    rho = np.zeros((n_runs, 2 if entry_coup else 1, law.rows, law.width))
    rho[:, 0, 0, -law.r_min] = 0.0 if settings.seat[3] else 1.0  # a fixed number of coups: counted by coup
    pre = np.zeros((n_runs, entry_coup**2, law.width))
    if entry_coup:
        pre[:, 0, -law.r_min] = 1.0
    at = np.ascontiguousarray(settings.ramp[0], dtype=np.float64)
    out = np.zeros((n_runs, 2 + 3 * len(at), settings.config[1] + 1))
    buffer = np.empty((len(leaves), height + int(law.top.sum()), law.width))
    read = law.read_band(TINY)  # the chain reads the stack only where coups may start: the rest is left unwritten
    starts = np.array([(run.offset, run.start_count) for run in runs], dtype=np.int64)
    for d0 in range(0, law.rows, height):
        d1 = min(law.rows, d0 + height)
        stack, skip = _stack(law, leaves, d0, d1, buffer, read)
        config = np.array([d0, law.r_min, *settings.config, skip], dtype=np.int64)
        chunk = (stack, np.ascontiguousarray(factors[:, d0:d1]), picked, n_picked)
        chain_rows(rho, pre, chunk, (sizes, moves, pi, q), config, starts, (at, settings.shift), settings.seat, out)
    return np.einsum("k,kij->ij", np.array([r.weight for r in runs]), out)


def _staked(sums: np.ndarray, units: np.ndarray) -> np.ndarray:
    """``(6, full + 1)`` hands, bets, units staked, expected win, squared win and hands seated by cards out, from
    the sums of :func:`_pass` and the units of each step of the ramp."""
    steps = sums[2:].reshape(len(units), 3, -1)
    placed = units > 0
    return np.stack(
        [
            sums[0],
            steps[placed, 0].sum(axis=0),
            units @ steps[:, 0],
            units @ steps[:, 1],
            (units**2) @ steps[:, 2],
            sums[1],
        ]
    )


# ------------------------------------------------------------------ the public face
@dataclass(frozen=True)
class CountValue:
    """What betting by a count wins, computed (:func:`count_value`): per shoe, per 100 hands and by depth.

    Attributes
    ----------
    strategy
        The strategy's name.
    hands_per_shoe
        Coups dealt in a shoe (expected).
    bets_per_shoe
        Bets placed in a shoe (expected).
    staked_per_shoe
        Units staked in a shoe (expected).
    units_per_shoe_ev
        Expected units won per shoe.
    variance_per_hand
        Variance of the units won on one hand (bet or not), exact given the count's law.
    by_depth
        The same by cards out of the shoe before the coup (burn included): ``cards_out, hands, seated, bets,
        staked, units_ev, edge``.
    seated_per_shoe
        Coups the counter is seated for (expected): every coup dealt, unless back-counting (:class:`SeatRule`).
    back_counting
        Whether the counter back-counts (its figures then add ``seated_per_shoe``).
    """

    strategy: str
    hands_per_shoe: float
    bets_per_shoe: float
    staked_per_shoe: float
    units_per_shoe_ev: float
    variance_per_hand: float
    by_depth: pl.DataFrame = field(repr=False)
    seated_per_shoe: float = math.nan
    back_counting: bool = False

    @property
    def note(self) -> str:
        """What the figures rest on (the method and its error)."""
        return METHOD_NOTE

    @property
    def bet_frequency(self) -> float:
        """The share of hands bet."""
        return self.bets_per_shoe / self.hands_per_shoe

    @property
    def mean_edge(self) -> float:
        """Expected units won per unit staked, when betting."""
        return self.units_per_shoe_ev / self.staked_per_shoe if self.staked_per_shoe else float("nan")

    @property
    def units_per_100_hands_ev(self) -> float:
        """Expected units won per 100 hands dealt."""
        return 100 * self.units_per_shoe_ev / self.hands_per_shoe

    def as_dict(self) -> dict[str, object]:
        """The figures under the keys of the simulated ``count`` where they mean the same."""
        return {
            "strategy": self.strategy,
            "method": "computed",
            "hands_per_shoe": self.hands_per_shoe,
            "bets_per_shoe": self.bets_per_shoe,
            "bet_frequency": self.bet_frequency,
            "mean_edge": self.mean_edge,
            "units_per_shoe_ev": self.units_per_shoe_ev,
            "units_per_100_hands_ev": self.units_per_100_hands_ev,
            "sd_per_hand": math.sqrt(max(self.variance_per_hand, 0.0)),
            **({"seated_per_shoe": self.seated_per_shoe} if self.back_counting else {}),
            "note": self.note,
        }


def _play(strategy: Strategy | CountPlay | CountSystem | str, **options: object) -> CountPlay:
    if isinstance(strategy, CountPlay):
        return strategy
    if not isinstance(strategy, Strategy):
        strategy = count_strategy(strategy, **options)  # type: ignore[arg-type]
    plays = [p for p in strategy.plays if isinstance(p, CountPlay)]
    if len(plays) != 1 or len(strategy.plays) != 1:
        raise ValueError(f"the computed method takes one count play; strategy {strategy.name!r} has other plays")
    return plays[0]


def _runs(dealing: Dealing, system: CountSystem, group: np.ndarray, tags: np.ndarray) -> list[_Run]:
    """The runs: one per value of the exposed burn card, or one when none is exposed."""
    ranks = np.full(13, 4 * dealing.decks, dtype=np.int64)
    values = np.array([ranks[9:].sum(), *ranks[:9]], dtype=np.int64)
    irc = system.initial_count
    if dealing.burn != Burn.STANDARD:
        offset = dealing.burn_cards if dealing.burn == Burn.FIXED else 0
        return [_Run(1.0, offset, irc, values, ranks)]
    out: list[_Run] = []
    for v in range(10):
        rank = 9 if v == 0 else v - 1
        burn = 10 if v == 0 else dealing.burn_ace if v == 1 else v
        seen_r, seen_v = ranks.copy(), values.copy()
        seen_r[rank] -= 1
        seen_v[v] -= 1
        tag = int(tags[group[v]]) if system.count_burn_card else 0
        out.append(_Run(float(values[v] / values.sum()), 1 + burn, irc + tag, seen_v, seen_r, int(group[v]), v))
    return out


def _settings(dealing: Dealing, play: CountPlay, seat: SeatRule | None = None) -> _Settings:
    system = play.system
    full = dealing.cards
    fixed = dealing.coups or 0
    shift, seat = _table(play, full, seat, fixed)
    rule = code(LastHand(dealing.last_hand))  # the kernels' code of the rule, as toolkit.coup.step reads it
    if fixed:  # no cut card: the coups end the shoe (toolkit.coup.step.may_start)
        rule = code(LastHand.SEVEN_CARDS)
    cards = full - (1 if dealing.burn == Burn.STANDARD else 0)
    config = (
        cards,
        full,
        full - dealing.cut_card,
        rule,
        7 if rule == code(LastHand.SEVEN_CARDS) and not fixed else 6,
        (0 if system.divisor == "decks_left" else 1)
        + 2 * ("exact", "half_deck", "whole_deck").index(system.deck_estimate),
        system.unit_cards,
        ("none", "floor", "truncate", "nearest").index(system.rounding),
        0 if play.count == "true" else 1,
        0 if seat is None else max(seat.entry_coup, len(shift)),  # the last coup counted by coup
        0 if seat is None or seat.count == "true" else 1,
    )
    at = np.array([a for a, _ in play.ramp.steps])
    units = np.array([u for _, u in play.ramp.steps])
    entry = np.array([0.0, 0.0, 0.0, 0.0] if seat is None else [seat.entry, seat.exit, seat.entry_coup, fixed])
    return _Settings(config, (at, units), dealing.tableau, entry, shift)


def count_value(
    strategy: Strategy | CountPlay | CountSystem | str,
    dealing: Dealing = Dealing(),
    *,
    threshold: float | None = None,
    bet: str | Bet | None = None,
    ramp: Ramp | Mapping[float, float] | None = None,
    rules: Rules | None = None,
    seat: SeatRule | None = None,
) -> CountValue:
    """The expected win of betting by a linear count, computed from the count's exact law (no shoes dealt).

    Parameters
    ----------
    strategy
        A count system (or its name), a strategy of one :class:`~toolkit.counting.strategies.CountPlay`, or the play.
        The system's thresholds table, if any, moves the ramp through the shoe as the simulated play moves it.
    dealing
        Decks, burn, cut card and last-hand rule, or a fixed number of coups (``coups``), any of them.
    threshold, bet, ramp
        For a count system: as :func:`~toolkit.counting.strategies.count_strategy`.
    rules
        Payouts of a bet named by the play (default: the dealing's decks and tableau).
    seat
        Back-counting: when the counter is seated (:class:`SeatRule`, on the play's count); ``None``: every coup.

    Returns
    -------
    CountValue
        Expected units per shoe and per 100 hands, bets per shoe, bet frequency, mean edge, by depth.

    Raises
    ------
    ValueError
        A bet the method cannot price (other than pay tables and value events), tags whose count range is too
        large, a count that never reaches the ramp (nothing is bet), or coups counted by coup (a back-counter's
        entry coup, a thresholds table's last step, a fixed number of coups) past the memory bound.

    References
    ----------
    E. Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat" (the published Dragon 7 and
    Panda 8 figures the method is checked against, ``tests/counting/test_computed_agreement.py``).

    Examples
    --------
    >>> res = count_value("dragon7", Dealing(decks=1, cut_card=14))
    >>> res.as_dict()["method"], res.hands_per_shoe > 5
    ('computed', True)
    """
    options = {k: v for k, v in (("threshold", threshold), ("bet", bet), ("ramp", ramp)) if v is not None}
    play = _play(strategy, **options)
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    target = resolve_bet(play.bet, rules)
    if seat is not None and not isinstance(seat, SeatRule):
        raise TypeError(f"count_value: seat must be a SeatRule or None, got {seat!r}")
    value = _value(play, target, dealing, seat)
    if value.bets_per_shoe <= 0.0:
        kind = "true" if play.count == "true" else "running"
        steps = play.system.thresholds
        what = f"threshold {play.ramp.threshold:g}" if not steps else f"thresholds table {[list(a) for a in steps]}"
        raise ValueError(
            f"count {play.system.name!r} never reaches its {kind} count {what} "
            f"before a coup{' while seated' if seat else ''} under {dealing!r}: nothing is bet"
        )
    return value


def _sums(play: CountPlay, bet: Bet, dealing: Dealing, seat: SeatRule | None = None) -> np.ndarray:
    """The chain's sums by cards out of the shoe (:func:`_pass`) for ``play``'s count and the steps of its ramp."""
    group, tags = _groups(play.system)
    moments = _moment_weights(bet, dealing.tableau, dealing.decks)
    settings = _settings(dealing, play, seat)
    _, codes = _leaf_codes(group, len(tags))
    runs = _runs(dealing, play.system, group, tags)
    full = np.bincount(group, weights=np.full(10, 4 * dealing.decks) * (1 + 3 * (np.arange(10) == 0)))
    most = 7 if runs[0].removed >= 0 else 6
    return _pass(_Law.build(full.astype(np.int64), tags, most), runs, codes, moments, settings)


def _value(play: CountPlay, bet: Bet, dealing: Dealing, seat: SeatRule | None = None) -> CountValue:
    """:func:`count_value` without the checks of its arguments."""
    units = np.array([u for _, u in play.ramp.steps])
    total = _staked(_sums(play, bet, dealing, seat), units)
    if seat is not None and dealing.coups:  # the layers by coup hold the seated coups only: the hands by a pass
        total[0] = _sums(play, bet, dealing)[0]  # without the seat
    if seat is None:  # every coup is seated (a table by coup seats the coups from its last step: not a back-counter)
        total[5] = total[0]
    hands, bets, staked, ev, ev2, seated = (float(x) for x in total.sum(axis=1))
    frame = pl.DataFrame(
        {
            "cards_out": np.arange(dealing.cards + 1),
            "hands": total[0],
            "seated": total[5],
            "bets": total[1],
            "staked": total[2],
            "units_ev": total[3],
        }
    ).filter(pl.col("hands") > 0)
    frame = frame.with_columns(
        edge=pl.when(pl.col("staked") > 0).then(pl.col("units_ev") / pl.col("staked")).otherwise(None)
    )
    variance = ev2 / hands - (ev / hands) ** 2
    name = play.describe() if seat is None else f"{play.describe()}; {seat.describe()}"
    return CountValue(name, hands, bets, staked, ev, variance, frame, seated, seat is not None)


def _by_threshold(
    system: CountSystem, bet: Bet, thresholds: Sequence[float], dealing: Dealing, count: str = "true"
) -> np.ndarray:
    """``(thresholds, 2)``: expected units won and bets placed per shoe, flat one unit at each threshold, computed
    in one pass of the chain (its sums are kept per step of a ramp with a step at each threshold).

    Parameters
    ----------
    system
        The count system.
    bet
        The bet.
    thresholds
        The counts at which to bet (distinct).
    dealing
        Decks, burn, cut card and last-hand rule.
    count
        ``"true"`` or ``"running"``.

    Returns
    -------
    numpy.ndarray
        One row per threshold, in the order given.
    """
    if system.thresholds:
        raise ValueError(f"count system {system.name!r} has a thresholds table: a search by threshold takes one")
    grid = np.array(sorted(float(t) for t in thresholds))
    if len(set(grid.tolist())) != len(grid):
        raise ValueError(f"_by_threshold: thresholds repeat a value: {list(thresholds)}")
    play = CountPlay(system, bet, Ramp(tuple((t, 1.0) for t in grid)), count)
    sums = _sums(play, bet, dealing)
    out = np.zeros((len(grid), 2))
    for k in range(len(grid)):
        total = _staked(sums, (np.arange(len(grid)) >= k).astype(np.float64))
        out[k] = total[3].sum(), total[1].sum()
    order = np.searchsorted(grid, [float(t) for t in thresholds])
    return out[order]


def count_law(
    system: CountSystem | str,
    bet: str | Bet | None = None,
    shoe: CompositionLike = 8,
    tableau: Tableau | None = None,
) -> pl.DataFrame:
    """The law of the running count after ``d`` cards of a shoe, and a bet's expectation given it, at every depth.

    Each row is a state ``(cards_seen, running_count)`` with its probability and the bet's expected value (and
    second moment) on the next coup given that state: ``E[EV(c_d) | RC_d = r]``, exact (the identity of the
    module notes), for every ``d`` that leaves a coup's six cards.  No burn: the cards are seen from the top.

    Parameters
    ----------
    system
        A count system or the name of one (its initial count starts the running count).
    bet
        The bet (default: the system's).
    shoe
        The full shoe: anything :meth:`toolkit.coup.cards.Composition.from_any` reads (decks, counts by rank).
    tableau
        Drawing rules (default: punto banco).

    Returns
    -------
    polars.DataFrame
        ``cards_seen, running_count, probability, ev, ev2``.

    Examples
    --------
    >>> law = count_law("dragon7", shoe=1)
    >>> law.filter(pl.col("cards_seen") == 10)["probability"].sum()  # doctest: +ELLIPSIS
    1.0...
    """
    from toolkit.counting.systems import get_count_system
    from toolkit.coup.cards import Composition
    from toolkit.coup.rules import PUNTO_BANCO

    system = get_count_system(system)
    tableau = PUNTO_BANCO if tableau is None else tableau
    target = resolve_bet(bet if bet is not None else system.bet or "banker", Rules(tableau=tableau))
    comp = Composition.from_any(shoe)
    comp.require_coup()
    ranks = np.array(comp.by_rank, dtype=np.int64)
    values = np.array(comp.by_value, dtype=np.int64)
    group, tags = _groups(system)
    _, codes = _leaf_codes(group, len(tags))
    run = _Run(1.0, 0, system.initial_count, values, ranks)
    decks = max(1, -(-max(comp.by_rank) // 4))  # suits: the fewest full decks that hold the shoe
    uniq, _, qs = _coefficients(run, _moment_weights(target, tableau, decks), codes, tableau)
    law = _Law.build(np.bincount(group, weights=values, minlength=len(tags)).astype(np.int64), tags)
    leaf_of = _leaves(law, uniq)
    leaves = [a for a, code in leaf_of.items() if code == 0 or np.any(qs[:, np.searchsorted(uniq, code)])]
    stack, _ = _stack(law, leaves, 0, law.rows)  # no rows below the first
    p0 = stack[leaves.index((0,) * len(tags))]
    stack *= law.row_factors(law.rows - 1)[[sum(a) for a in leaves], :, None]
    ev = np.einsum("lij,ql->ijq", stack, qs[:, np.searchsorted(uniq, [leaf_of[a] for a in leaves])])
    d, j = np.nonzero(p0[: law.rows - 6] > 0)
    norm = p0.sum(axis=1)
    return pl.DataFrame(
        {
            "cards_seen": d,
            "running_count": system.initial_count + law.r_min + j,
            "probability": p0[d, j] / norm[d],
            "ev": ev[d, j, 0] / p0[d, j],
            "ev2": ev[d, j, 1] / p0[d, j],
        }
    )
