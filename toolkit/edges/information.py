"""What partial knowledge of the next coup's cards is worth: edge sorting, flashed and marked cards.

Count every coup as six ordered cards from the top of the shoe, used or not (the convention of
:mod:`toolkit.edges.known_card` and of the Wizard of Odds tables): position 1 and 3 are Player's
first cards, 2 and 4 Banker's, 5 goes to whoever draws first, 6 to Banker if he draws after
Player.  Each ordered six-value sequence ``s`` has probability ``prod_v (n_v)_(m_v) / (N)_6``
(:mod:`toolkit.exact._tables`).  Before betting, the bettor sees, for each observed position, the
*group* of the card there (a partition of the card values, :mod:`toolkit.edges._observation`):
an edge sorter who has the cards of {6, 7, 8, 9} turned one way sees ``H`` or ``L`` on the back of
each of the first four cards.  The observation is of the shoe's order: position 5 is the fifth
card from the top whether or not this coup deals it.  For every observable *pattern* ``o``

    EV(bet | o) = sum_{s -> o} P(s) x_bet(outcome(s)) / P(o)

and a bettor who takes the best bet when its conditional expectation is positive, and no bet
otherwise, gains

    gain = sum_o P(o) max(0, max_bet EV(bet | o))

per coup.  One card seen by value reproduces the known-card edges (Jacobson: 6.765 % for card 1
or 3, 6.406 % for 2 or 4, 8.973 % for 5, 9.098 % for 6, 8 decks); four cards seen by the edge
sorter's {6, 7, 8, 9} sort give 20.928 % (Jacobson, "Edge Sorting in Baccarat", 2012).

>>> r = information_edge(8, groups="6789", positions="1-4")
>>> round(r.gain * 100, 3), round(r.share_no_bet * 100, 3)
(20.928, 22.824)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import lcm, perm

import numpy as np
import polars as pl

from toolkit.bets.paytable import PayTable, get_plain_bet
from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.outcome import N_CLASSES
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.edges._observation import Observation, Partition, observation
from toolkit.exact._exact_sign import UNIT_ROUNDOFF, int_products
from toolkit.exact._tables import N_EXT, multiset_index, value_sequences
from toolkit.exact.engine import _features, zero_pair_probabilities

__all__ = ["InformationEdge", "best_partitions", "information_edge"]

#: Default bets: Banker (5 % commission), Player, Tie 8:1.
DEFAULT_BETS = ("banker", "player", "tie")
#: Bits per limb of the exact weights: a bin sums at most 10**6 limbs, below 2**41, so float sums are exact.
LIMB_BITS = 21


# ------------------------------------------------------------------ tables
@lru_cache(maxsize=4)
def _sequence_multisets(tableau: Tableau) -> np.ndarray:
    """Index in :func:`toolkit.exact._tables.multisets` of each six-value sequence's multiset."""
    return multiset_index(value_sequences(tableau).code6)


def _resolve_bets(bets: Iterable[PayTable | str] | None) -> tuple[PayTable, ...]:
    names = DEFAULT_BETS if bets is None else tuple(bets)
    if not names:
        raise ValueError("bets: give at least one bet")
    out = tuple(get_plain_bet(b, where="the partial-information engine") for b in names)
    seen: set[str] = set()
    for bet in out:
        if bet.name in seen:
            raise ValueError(f"bets: {bet.name!r} is given twice")
        seen.add(bet.name)
    return out


@dataclass(frozen=True)
class _Events:
    """Extended outcome classes merged into events on which every bet pays the same expected amount.

    ``of_ext[e]`` is the event of extended class ``e``; ``pay[g][b]`` the exact expected payout of bet
    ``b`` on event ``g`` (a pair bet's zero-valued pairs averaged with the shoe's ``alpha``, ``beta``);
    ``num = pay * scale`` in integers.
    """

    of_ext: np.ndarray
    pay: tuple[tuple[Fraction, ...], ...]
    num: tuple[tuple[int, ...], ...]
    scale: int
    pay_float: np.ndarray

    @property
    def size(self) -> int:
        return len(self.pay)


def _ext_payoff(payoffs: tuple[Fraction, ...], e: int, alpha: Fraction, beta: Fraction) -> Fraction:
    """Expected payout on extended class ``e`` (the spread of :func:`toolkit.exact.engine._ext_to_classes`)."""
    main, sp, sb = e // 9, (e % 9) // 3, e % 3
    x = payoffs[main * 4 : main * 4 + 4]  # (player pair, banker pair): 00, 01, 10, 11
    if sp == 2 and sb == 2:
        return beta * x[3] + (alpha - beta) * (x[2] + x[1]) + (1 - 2 * alpha + beta) * x[0]
    one = {0: ((0, Fraction(1)),), 1: ((1, Fraction(1)),), 2: ((1, alpha), (0, 1 - alpha))}
    return sum((wa * wb * x[2 * a + b] for a, wa in one[sp] for b, wb in one[sb]), Fraction(0))


@lru_cache(maxsize=32)
def _events(bets: tuple[PayTable, ...], alpha: Fraction, beta: Fraction) -> _Events:
    """Events over the 3,600 extended classes of the value path (zero-valued pairs averaged)."""
    return _merge_events([tuple(_ext_payoff(b.payoffs, e, alpha, beta) for b in bets) for e in range(N_EXT)])


@lru_cache(maxsize=32)
def _class_events(bets: tuple[PayTable, ...]) -> _Events:
    """Events over the 1,600 outcome classes of the rank path (pairs known from the ranks)."""
    return _merge_events([tuple(b.payoffs[c] for b in bets) for c in range(N_CLASSES)])


def _merge_events(payouts: list[tuple[Fraction, ...]]) -> _Events:
    rows: dict[tuple[Fraction, ...], int] = {}
    of_ext = np.zeros(len(payouts), dtype=np.int64)
    for e, row in enumerate(payouts):
        of_ext[e] = rows.setdefault(row, len(rows))
    pay = tuple(rows)
    scale = lcm(*(x.denominator for row in pay for x in row))
    num = tuple(tuple(int(x * scale) for x in row) for row in pay)
    return _Events(of_ext, pay, num, scale, np.array([[float(x) for x in row] for row in pay]))


def _limbs(comp: Composition, tableau: Tableau) -> list[np.ndarray]:
    """The exact weight ``prod_v (n_v)_(m_v)`` of each sequence, in limbs of :data:`LIMB_BITS` bits (as float64)."""
    prods = int_products(comp.by_value)
    mask = (1 << LIMB_BITS) - 1
    count = max(1, -(-max(p.bit_length() for p in prods) // LIMB_BITS))
    index = _sequence_multisets(tableau)
    return [np.array([(p >> (LIMB_BITS * i)) & mask for p in prods], dtype=np.float64)[index] for i in range(count)]


def _exact_sums(keys: np.ndarray, size: int, limbs: list[np.ndarray]) -> list[int]:
    """``sum`` of the exact weights by key, as Python integers (each limb's float sum is exact)."""
    parts = [np.bincount(keys, weights=limb, minlength=size).astype(np.int64).tolist() for limb in limbs]
    return [sum(int(p[k]) << (LIMB_BITS * i) for i, p in enumerate(parts)) for k in range(size)]


def _cells(tableau: Tableau, positions: tuple[int, ...]) -> np.ndarray:
    """Each sequence's cell: ``sum_i v_i 10**i`` over the values at the observed positions."""
    cards = value_sequences(tableau).cards
    cell = np.zeros(cards.shape[1], dtype=np.int64)
    for i, p in enumerate(positions):
        cell += cards[p - 1].astype(np.int64) * 10**i
    return cell


# ------------------------------------------------------------------ decisions
def _best(values: Sequence) -> int | None:
    """Index of the largest positive value (the first of equals), or ``None`` when none is positive."""
    best = max(range(len(values)), key=lambda i: (values[i], -i))
    return best if values[best] > 0 else None


def _exact_table(counts: list[list[int]], events: _Events) -> list[list[int]]:
    """``sum_g C[o, g] num[g, b]``: each pattern's bet numerators over ``scale * (N)_6``."""
    nb = len(events.num[0])
    return [[sum(c * events.num[g][b] for g, c in enumerate(row) if c) for b in range(nb)] for row in counts]


@dataclass(frozen=True)
class InformationEdge:
    """The worth of an observation: each pattern's probability and conditional expectations, the best action.

    Attributes
    ----------
    observation
        The observed positions and partitions.
    shoe
        The cards left.
    bets
        The bets' names, in the order of the ``ev_*`` columns (ties between bets go to the first).
    patterns
        One row per pattern that can occur: ``pattern, probability, best_bet`` (null: no bet is
        positive), ``ev`` (the best bet's conditional expectation, 0 when no bet), and ``ev_<bet>``
        for every bet.
    summary
        One row: ``gain_per_coup, share_no_bet, patterns, cards, observed``.
    gain, share_no_bet
        The same as floats.
    exact
        Whether the exact path ran; then ``gain_exact``, ``share_no_bet_exact``,
        ``probability_exact[pattern]`` and ``ev_exact[pattern][bet]`` are fractions.
    """

    observation: Observation
    shoe: Composition
    bets: tuple[str, ...]
    patterns: pl.DataFrame = field(repr=False)
    summary: pl.DataFrame = field(repr=False)
    gain: float
    share_no_bet: float
    exact: bool = False
    gain_exact: Fraction | None = field(default=None, repr=False)
    share_no_bet_exact: Fraction | None = field(default=None, repr=False)
    probability_exact: Mapping[str, Fraction] = field(default_factory=dict, repr=False)
    ev_exact: Mapping[str, Mapping[str, Fraction]] = field(default_factory=dict, repr=False)


def _pattern_ids(obs: Observation, base: int = 10) -> tuple[np.ndarray, list[str]]:
    """Dense pattern index of every cell (``base**k`` of them) and the patterns' names in code order."""
    codes = obs.codes(np.arange(base ** len(obs.positions), dtype=np.int64), base)
    unique, inverse = np.unique(codes, return_inverse=True)
    return inverse.astype(np.int64), [obs.name(int(c)) for c in unique]


def _float_ambiguous(evnum: np.ndarray, prob: np.ndarray, events: _Events) -> np.ndarray:
    """Patterns whose float decision could be wrong: the best two values (or the best and 0) closer than the bound.

    Each float sum adds at most 10**6 products with relative error of a few ``u`` each, so its error
    is below ``(10**6 + 40) u X P(o)`` with ``X`` the largest payout; the bound doubles that.
    """
    bound = 2 * (10**6 + 40) * UNIT_ROUNDOFF * (float(np.abs(events.pay_float).max()) + 1) * prob
    with_zero = np.concatenate([evnum, np.zeros((evnum.shape[0], 1))], axis=1)
    top = -np.sort(-with_zero, axis=1)
    return (top[:, 0] - top[:, 1]) <= bound


def information_edge(
    shoe: CompositionLike = 8,
    groups: str | Mapping[int, str] = "6789",
    positions: int | str | Iterable[int] = (1,),
    by: str = "value",
    bets: Iterable[PayTable | str] | None = None,
    exact: bool = False,
    tableau: Tableau = PUNTO_BANCO,
    merge: bool = True,
    path: str = "auto",
) -> InformationEdge:
    """Each observable pattern's probability and every bet's conditional expectation; the best action and its gain.

    Parameters
    ----------
    shoe
        The cards left (any composition: a fresh shoe or one part dealt).
    groups
        The partition seen at every observed position (``"6789"``: that group, ``H``, against the
        rest, ``L``; ``"0/12345/6789"``: the groups as written), or ``{position: groups}``.
    positions
        The observed positions: ``1``, ``"1-4"``, ``"1,3"``, ``(1, 2)`` (ignored when ``groups`` is a mapping).
    by
        ``"value"`` (kinds ``0``-``9``) or ``"rank"`` (``A23456789TJQK``; groups that split T, J, Q, K
        take the rank path).
    bets
        Bets priced by outcome class (names or :class:`~toolkit.bets.paytable.PayTable`; default Banker,
        Player, Tie 8:1).  Pair bets are priced too (the observation is by value, so the ranks of
        two zero-valued cards stay a uniform draw); bets on suits or card positions are refused.
    exact
        Sum in integers and decide in fractions (``gain_exact`` and the ``*_exact`` mappings).  The
        float path also takes every decision closer than its error bound exactly.
    tableau
        Drawing rules.
    merge
        Write a hand's two observed cards sorted (``HL`` for ``LH``); ``False`` keeps them in order.
    path
        ``"value"``: the 10**6 value sequences; ``"rank"``: the 13**6 rank sequences
        (:mod:`toolkit.edges._rank_path`, about ten times slower, shoes up to 1,400 cards), needed
        when the groups split T, J, Q, K; ``"auto"`` (default): the value path whenever it can see
        the groups.

    Returns
    -------
    InformationEdge

    Raises
    ------
    ValueError
        A bad partition or position (one line naming it), a shoe of fewer than six cards, a bet on suits.

    References
    ----------
    E. Jacobson, "Edge Sorting in Baccarat" (apheat.net, 18 August 2012) and "Edge Sorting in
    Baccarat, Update #1" (apheat.net, 2012); "Baccarat: The Known Card" (apheat.net, 13 August 2012).

    Examples
    --------
    >>> r = information_edge(8, groups="6789", positions=1)
    >>> r.patterns.select("pattern", "best_bet").rows()
    [('H/-', 'player'), ('L/-', 'banker')]
    >>> round(r.gain * 100, 3)
    6.765
    """
    obs = observation(groups, positions, by, merge)
    comp = Composition.from_any(shoe)
    comp.require_coup()
    chosen = _resolve_bets(bets)
    if path not in ("auto", "value", "rank"):
        raise ValueError(f"path must be 'auto', 'value' or 'rank', got {path!r}")
    if path == "value" and not obs.by_value:
        raise ValueError(f"path 'value': {obs.describe()} tells T, J, Q, K apart; only the rank path can see that")
    sums = _value_sums if path == "value" or (path == "auto" and obs.by_value) else _rank_sums
    names, events, table, exact_counts = sums(obs, comp, chosen, tableau)
    prob = table.sum(axis=1)
    evnum = table @ events.pay_float
    decide = [_best(list(row)) for row in evnum]
    ambiguous = _float_ambiguous(evnum, prob, events) | exact
    settled = None
    if ambiguous.any():
        settled = _settle(exact_counts(), events, perm(comp.total, 6), ambiguous, decide)
    patterns, best_ev, keep = _pattern_frame(names, prob, evnum, decide, chosen)
    if settled is not None:
        gain, share = float(settled.gain), float(settled.share)
    else:
        gain = float((prob * best_ev)[keep].sum())
        share = float(prob[keep & np.array([d is None for d in decide])].sum())
    summary = pl.DataFrame(
        {
            "gain_per_coup": [gain],
            "share_no_bet": [share],
            "patterns": [patterns.height],
            "cards": [comp.total],
            "observed": [obs.describe()],
        }
    )
    extra: tuple = (None, None, {}, {})
    if exact and settled is not None:
        extra = (settled.gain, settled.share, _by_name(names, settled.prob), _by_name(names, settled.ev, chosen))
    return InformationEdge(obs, comp, tuple(b.name for b in chosen), patterns, summary, gain, share, exact, *extra)


def _pattern_frame(
    names: list[str], prob: np.ndarray, evnum: np.ndarray, decide: list[int | None], chosen: tuple[PayTable, ...]
) -> tuple[pl.DataFrame, np.ndarray, np.ndarray]:
    """The patterns frame (patterns that can occur), each pattern's best EV (0: no bet) and which can occur."""
    keep = prob > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        ev = evnum / prob[:, None]
    best_ev = np.array([ev[i, b] if b is not None else 0.0 for i, b in enumerate(decide)])
    frame = pl.DataFrame(
        {
            "pattern": names,
            "probability": prob,
            "best_bet": [chosen[b].name if b is not None else None for b in decide],
            "ev": best_ev,
            **{f"ev_{bet.name}": ev[:, j] for j, bet in enumerate(chosen)},
        },
        schema_overrides={"best_bet": pl.String},
    ).filter(pl.Series(keep))
    return frame, best_ev, keep


Sums = tuple[list[str], _Events, np.ndarray, Callable[[], list[list[int]]]]


def _value_sums(obs: Observation, comp: Composition, chosen: tuple[PayTable, ...], tableau: Tableau) -> Sums:
    """Patterns, events, float probabilities by (pattern, event), and the exact integer sums, over value sequences."""
    events = _events(chosen, *zero_pair_probabilities(comp, exact=True))
    pattern_of_cell, names = _pattern_ids(obs)
    keys = pattern_of_cell[_cells(tableau, obs.positions)] * events.size + events.of_ext[value_sequences(tableau).ext]
    size = len(names) * events.size
    weights = _features(np.array([comp.by_value]))[:, 0][_sequence_multisets(tableau)]
    table = np.bincount(keys, weights=weights, minlength=size).reshape(len(names), events.size)

    def exact_counts() -> list[list[int]]:
        flat = _exact_sums(keys, size, _limbs(comp, tableau))
        return [flat[i * events.size : (i + 1) * events.size] for i in range(len(names))]

    return names, events, table, exact_counts


def _rank_sums(obs: Observation, comp: Composition, chosen: tuple[PayTable, ...], tableau: Tableau) -> Sums:
    """The same over the 13**6 rank sequences, in chunks (weights exact in int64, summed in 21-bit limbs)."""
    from toolkit.edges._rank_path import rank_chunks

    events = _class_events(chosen)
    pattern_of_cell, names = _pattern_ids(obs, base=13)
    size = len(names) * events.size
    mask = (1 << LIMB_BITS) - 1
    limbs = [np.zeros(size) for _ in range(3)]  # 63 bits
    for chunk in rank_chunks(comp, tableau):
        cell = np.zeros(chunk.weights.shape[0], dtype=np.int64)
        for i, p in enumerate(obs.positions):
            cell += chunk.ranks[p - 1] * 13**i
        keys = pattern_of_cell[cell] * events.size + events.of_ext[chunk.classes]
        for i in range(len(limbs)):
            part = ((chunk.weights >> (LIMB_BITS * i)) & mask).astype(np.float64)
            limbs[i] += np.bincount(keys, weights=part, minlength=size)
    flat = [sum(int(limb[k]) << (LIMB_BITS * i) for i, limb in enumerate(limbs)) for k in range(size)]
    total = perm(comp.total, 6)
    table = np.array([x / total for x in flat]).reshape(len(names), events.size)
    counts = [flat[i * events.size : (i + 1) * events.size] for i in range(len(names))]
    return names, events, table, lambda: counts


@dataclass(frozen=True)
class _Settled:
    """Exact figures: the gain and the share of coups with no bet, each pattern's probability and bet EVs."""

    gain: Fraction
    share: Fraction
    prob: list[Fraction | None]
    ev: list[list[Fraction] | None]


def _settle(
    counts: list[list[int]], events: _Events, total: int, redo: np.ndarray, decide: list[int | None]
) -> _Settled:
    """Decide the patterns ``redo`` marks on exact values (in place in ``decide``); the exact gain and share."""
    gain, share = Fraction(0), Fraction(0)
    prob: list[Fraction | None] = []
    ev: list[list[Fraction] | None] = []
    for i, (row, nums) in enumerate(zip(counts, _exact_table(counts, events), strict=True)):
        p_num = sum(row)
        if redo[i]:
            decide[i] = _best(nums) if p_num else None
        prob.append(Fraction(p_num, total) if p_num else None)
        ev.append([Fraction(n, events.scale * p_num) for n in nums] if p_num else None)
        best = decide[i]
        if best is not None:
            gain += Fraction(nums[best], events.scale * total)
        elif p_num:
            share += Fraction(p_num, total)
    return _Settled(gain, share, prob, ev)


def _by_name(names: list[str], values: list, bets: tuple[PayTable, ...] | None = None) -> dict:
    if bets is None:
        return {n: v for n, v in zip(names, values, strict=True) if v is not None}
    return {
        n: {b.name: x for b, x in zip(bets, v, strict=True)}
        for n, v in zip(names, values, strict=True)
        if v is not None
    }


# ------------------------------------------------------------ the best partition
#: The kinds a two-group sort names, by ``by``: the side without 0 (values) or without K (ranks) is shown.
_SORT_KINDS = {"value": "123456789", "rank": "A23456789TJQ"}


def _partition_text(mask: int, by: str) -> str:
    return "".join(d for i, d in enumerate(_SORT_KINDS[by]) if mask >> i & 1)


def _two_groups(mask: int, by: str) -> Partition:
    """The sort that puts the kinds of ``mask`` in H and the rest (0, or K, among them) in L."""
    from toolkit.edges._observation import parse_partition

    return parse_partition(_partition_text(mask, by), by)


def _cell_sums(
    comp: Composition, tableau: Tableau, where: tuple[int, ...], chosen: tuple[PayTable, ...], by: str
) -> tuple[_Events, int, list[np.ndarray]]:
    """Exact sequence weights summed by (cell, event) in 21-bit limbs: the events, the cell base, the limbs."""
    if by == "value":
        events = _events(chosen, *zero_pair_probabilities(comp, exact=True))
        keys = _cells(tableau, where) * events.size + events.of_ext[value_sequences(tableau).ext]
        size = 10 ** len(where) * events.size
        return events, 10, [np.bincount(keys, weights=limb, minlength=size) for limb in _limbs(comp, tableau)]
    from toolkit.edges._rank_path import rank_chunks

    events = _class_events(chosen)
    size = 13 ** len(where) * events.size
    limbs = [np.zeros(size) for _ in range(3)]
    mask = (1 << LIMB_BITS) - 1
    for chunk in rank_chunks(comp, tableau):
        cell = np.zeros(chunk.weights.shape[0], dtype=np.int64)
        for i, p in enumerate(where):
            cell += chunk.ranks[p - 1] * 13**i
        keys = cell * events.size + events.of_ext[chunk.classes]
        for i in range(len(limbs)):
            part = ((chunk.weights >> (LIMB_BITS * i)) & mask).astype(np.float64)
            limbs[i] += np.bincount(keys, weights=part, minlength=size)
    return events, 13, limbs


def best_partitions(
    shoe: CompositionLike = 8,
    positions: int | str | Iterable[int] = (1, 2, 3, 4),
    bets: Iterable[PayTable | str] | None = None,
    top: int | None = 10,
    tableau: Tableau = PUNTO_BANCO,
    progress: bool = False,
    by: str = "value",
) -> pl.DataFrame:
    """Every two-group sort of the card values (511) or ranks (4,095), ranked by the exact gain of observing it.

    The same partition is seen at every observed position (the cards were sorted into two groups
    once).  The sequence weights are summed once per cell (the observed positions' values, or
    ranks, and the event: ``10**k`` or ``13**k`` cells by event) in exact integer limbs; each
    partition is then a regrouping of the cells into its patterns, and its gain is decided in
    integers.  The rank search is exhaustive too (a few seconds per thousand sorts for four positions).

    Parameters
    ----------
    shoe
        The cards left.
    positions
        The observed positions.
    bets
        Bets priced by outcome class (default Banker, Player, Tie 8:1).
    top
        How many to return (``None``: all).
    tableau
        Drawing rules.
    progress
        A progress bar on stderr.
    by
        ``"value"``: the 511 sorts of the ten values; ``"rank"``: the 4,095 sorts of the 13 ranks
        (the rank path; zero-valued ranks may be split).

    Returns
    -------
    polars.DataFrame
        ``rank, groups`` (the group without 0, or without K by rank, e.g. ``6789``; its complement
        is the same partition), ``gain_per_coup, share_no_bet``, best first (ties: by ``groups``).

    References
    ----------
    E. Jacobson, "Edge Sorting in Baccarat, Update #1" (apheat.net, 2012): F. Roach's search of every sort.

    Examples
    --------
    >>> best_partitions(8, positions=1, top=1)["groups"].item()
    '6789'
    """
    from toolkit.edges._observation import parse_positions

    where = parse_positions(positions)
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
        raise ValueError(f"top must be a whole number of at least 1 (or None for all), got {top!r}")
    if by not in _SORT_KINDS:
        raise ValueError(f"by must be 'value' or 'rank', got {by!r}")
    comp = Composition.from_any(shoe)
    comp.require_coup()
    chosen = _resolve_bets(bets)
    events, base, limbs = _cell_sums(comp, tableau, where, chosen, by)
    ncell = base ** len(where)
    cell_of = np.arange(ncell * events.size) // events.size
    event_of = np.arange(ncell * events.size) % events.size
    total = perm(comp.total, 6)
    rows = []
    masks: Iterable[int] = range(1, 2 ** len(_SORT_KINDS[by]))
    if progress:
        from toolkit._progress import progress_bar

        masks = progress_bar(masks, desc="partitions", unit="partition")
    for mask in masks:
        part = _two_groups(mask, by)
        pattern_of_cell, names = _pattern_ids(Observation(where, (part,) * len(where)), base)
        k2 = pattern_of_cell[cell_of] * events.size + event_of
        flat = _exact_sums(k2, len(names) * events.size, limbs)
        counts = [flat[i * events.size : (i + 1) * events.size] for i in range(len(names))]
        gain, none = 0, 0
        for row, nums in zip(counts, _exact_table(counts, events), strict=True):
            best = _best(nums)
            gain += nums[best] if best is not None else 0
            none += sum(row) if best is None else 0
        rows.append((Fraction(gain, events.scale * total), part.text, Fraction(none, total)))
    rows.sort(key=lambda r: (-r[0], r[1]))
    rows = rows[:top] if top is not None else rows
    return pl.DataFrame(
        {
            "rank": list(range(1, len(rows) + 1)),
            "groups": [r[1] for r in rows],
            "gain_per_coup": [float(r[0]) for r in rows],
            "share_no_bet": [float(r[2]) for r in rows],
        }
    )
