"""The rows of a bet on coup fields: value-level groups, then one row per label at each position it names.

A row's labels are chosen position by position (a rank, a rank and colour, or a card); a row is settled as soon
as its payout is decided, and stands for every label of the positions it leaves open.  The rows are built a chunk
of groups at a time, and of each group only its commonest payout (its *base*, with the coups it stands for) and
the rows that pay otherwise are kept, so memory stays bounded.  :mod:`toolkit.bets._label_events` prices them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import as_fraction, payout
from toolkit.bets._expressions import evaluate_distinct
from toolkit.bets._prefix_patterns import PREFIX
from toolkit.bets.fields import (
    BOOLEAN_FIELDS,
    CARD,
    COLOUR,
    COLOURS,
    PREFIX_FIELDS,
    RANK,
    WINNERS,
    expansions,
    prefix_table,
    value_sequence_table,
)
from toolkit.coup.cards import RANK_VALUES, RANKS, VALUE_TO_RANK
from toolkit.coup.rules import Tableau
from toolkit.coup.suits import SUITS
from toolkit.exact._exact_sign import UNIT_ROUNDOFF, general_bounds
from toolkit.exact._kernels import EventTable, event_table
from toolkit.exact._tables import multisets

#: A bet on coup fields (:class:`toolkit.bets.coup_bets.CoupBet`: name, expr, fields, events), typed loosely here so
#: that this module does not import the one that uses it.
CoupBet = Any

__all__ = [
    "MAX_ROWS",
    "Rows",
    "enumerate_rows",
    "evaluate",
    "exact_payouts",
    "prefix_payouts",
    "row_frame",
    "value_events",
]

#: The largest table a bet may compile to (a bet naming every card's suit would need about 10**10 rows).
MAX_ROWS = 20_000_000
#: Rows of a bet's table expanded and evaluated at a time while it compiles (bounds the memory it takes).
_CHUNK_ROWS = 250_000
_COLOUR_ENUM = pl.Enum(list(COLOURS))
#: The colour of each suit s, h, d, c.
_SUIT_COLOUR = np.array([0, 1, 1, 0], dtype=np.int64)


def _group_keys(seq: Any, fields: tuple[str, ...], expanded: dict[str, int]) -> list[np.ndarray]:
    keys = [seq.columns[f] for f in fields if f in seq.columns]
    keys += [seq.values[f[: -len("_value")]] for f in fields if f.endswith("_value")]
    keys += [seq.values[p] for p in expanded]
    return keys


#: Labels a position takes per rank at each level: the rank alone, its colour (black, red), its suit.
_PER_RANK = {RANK: 1, COLOUR: 2, CARD: 4}


def _labels(values: np.ndarray, level: int) -> np.ndarray:
    """How many labels a position of each value takes at ``level`` (1 where no card is dealt)."""
    return np.where(values < 0, 1, np.where(values == 0, 4, 1) * _PER_RANK[level])


def _expand(values: np.ndarray, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each row's value at one position: how many labels, and each label's rank and suit or colour (-1 none)."""
    n = _labels(values, level)
    per = _PER_RANK[level]
    parent = np.repeat(np.arange(len(values)), n)
    offset = np.arange(len(parent)) - np.repeat(np.cumsum(n) - n, n)
    v = values[parent]
    to_rank = np.array(VALUE_TO_RANK)
    rank = np.where(v == 0, 9 + offset // per, to_rank[np.maximum(v, 0)])
    suit = np.where(v < 0, -1, offset % per) if per > 1 else np.full(len(parent), -1)
    return parent, np.where(v < 0, -1, rank), suit


@dataclass(frozen=True)
class Rows:
    """A bet's rows (see the module notes).

    Per group: its base payout and the coups it stands for (``base``, ``mass``); per kept row (one that pays other
    than its group's base): its ``group``, payout and labels by position (``ranks``, ``suits``: -1 none; suits are
    colours when ``colour``), the positions in the order they were labelled; and the (group, multiset) pairs with
    the value sequences of each (``gm_group``, ``gm_mset``, ``gm_count``).
    """

    n_groups: int
    base: np.ndarray
    mass: np.ndarray
    group: np.ndarray
    pay: np.ndarray
    ranks: dict[str, np.ndarray]
    suits: dict[str, np.ndarray]
    order: tuple[str, ...]
    gm_group: np.ndarray
    gm_mset: np.ndarray
    gm_count: np.ndarray
    colour: bool
    rows: int


def enumerate_rows(bet: CoupBet, tableau: Tableau) -> Rows:
    """The rows of ``bet`` under ``tableau``: every group's base, and the rows off it."""
    fields = bet.field_names
    # a bet on the first four cards only sums over their 10,000 value sequences, whatever follows
    seq = prefix_table() if set(fields) <= PREFIX_FIELDS else value_sequence_table(tableau)
    expanded = expansions(fields)
    keys = _group_keys(seq, fields, expanded)
    if keys:
        _, first, group = np.unique(np.stack(keys, axis=1), axis=0, return_index=True, return_inverse=True)
        group = group.ravel()
    else:
        first, group = np.zeros(1, dtype=np.int64), np.zeros(len(seq), dtype=np.int64)
    n_groups = len(first)
    n_ms = len(multisets().codes)
    gm, gm_count = np.unique(group * n_ms + seq.mset, return_counts=True)
    size = np.ones(n_groups)
    for p, level in expanded.items():
        size *= _labels(seq.values[p][first], level)
    conditions = _pruning_conditions(bet, expanded)
    if conditions is None and size.sum() > MAX_ROWS:
        raise ValueError(
            f"bet {bet.name!r} names the rank or suit of {len(expanded)} positions ({', '.join(expanded)}): "
            f"its table would hold {size.sum():,.0f} rows, more than {MAX_ROWS:,}; name fewer positions' suits"
        )
    base, mass = np.zeros(n_groups), np.zeros(n_groups)
    kept: list[tuple] = []
    chunk: list[tuple] = []
    work = _Expansion(
        bet,
        seq,
        first,
        fields,
        expanded,
        conditions,
        lambda *row: chunk.append(row),
        np.bincount(group, minlength=n_groups),
    )
    sizes = np.minimum(size, _CHUNK_ROWS) if conditions is not None else size
    ends = np.searchsorted(np.cumsum(sizes), np.arange(_CHUNK_ROWS, sizes.sum() + _CHUNK_ROWS, _CHUNK_ROWS), "right")
    for lo, hi in zip([0, *ends[:-1].tolist()], ends.tolist(), strict=True):
        if hi > lo:
            work.start(np.arange(lo, hi))
            kept.append(_off_base(chunk, base, mass))
            chunk.clear()
        if work.rows > MAX_ROWS:
            raise ValueError(f"bet {bet.name!r}: its table holds more than {MAX_ROWS:,} rows")
    order = tuple(expanded)
    return Rows(
        n_groups=n_groups,
        base=base,
        mass=mass,
        group=np.concatenate([k[0] for k in kept]),
        pay=np.concatenate([k[3] for k in kept]),
        ranks={q: np.concatenate([k[1][q] for k in kept]) for q in order},
        suits={q: np.concatenate([k[2][q] for k in kept]) for q in order},
        order=order,
        gm_group=gm // n_ms,
        gm_mset=gm % n_ms,
        gm_count=gm_count.astype(np.int64),
        colour=COLOUR in expanded.values(),
        rows=work.rows,
    )


def _off_base(chunk: list[tuple], base: np.ndarray, mass: np.ndarray) -> tuple:
    """Of a chunk of whole groups' rows: each group's base and mass (written in place), and the rows off it."""
    row_group = np.concatenate([c[0] for c in chunk])
    pays = np.concatenate([c[3] for c in chunk])
    weight = np.concatenate([c[4] for c in chunk])
    values = np.sort(pl.Series(pays).unique().to_numpy())  # a few payouts: hashed, not 52^4 rows sorted
    index = np.searchsorted(values, pays)
    present = np.bincount(row_group)
    local = np.flatnonzero(present)
    position = np.zeros(len(present), dtype=np.int64)
    position[local] = np.arange(len(local))
    owner = position[row_group]
    per = np.bincount(owner * len(values) + index, weight, len(local) * len(values)).reshape(len(local), len(values))
    best = np.argmax(per, axis=1)
    base[local], mass[local] = values[best], per.max(axis=1)
    off = np.flatnonzero(pays != base[row_group])
    labels = [{q: np.concatenate([c[i][q] for c in chunk])[off] for q in chunk[0][i]} for i in (1, 2)]
    return row_group[off], labels[0], labels[1], pays[off]


def exact_payouts(bet: CoupBet, values: np.ndarray) -> tuple[Fraction, ...]:
    """The bet's distinct payouts as fractions, checked (none below -1, none above a million to one)."""
    exact = tuple(as_fraction(v) for v in values.tolist())
    if any(p < -1 for p in exact):
        raise ValueError(f"bet {bet.name!r}: a payout below -1 would lose more than the stake")
    payout(max(exact, key=abs), f"bet {bet.name!r}")  # |payout| <= MAX_PAYOUT, a million to one
    return exact


def value_events(rows: Rows, columns: np.ndarray, exact: tuple[Fraction, ...], d: int) -> tuple[EventTable, float]:
    """A bet on values alone as events of the engine's walk: each group (every row a group) pays its base.

    ``columns[i]``: the payout column of payout ``i`` (-1 for the default ``d``); the event table's columns are the
    probabilities of those payouts (see :mod:`toolkit.exact._kernels`).  The bound is that of the expectation
    ``default + sum_p P_p (pay_p - default)`` (:func:`toolkit.exact._exact_sign.general_bounds`).
    """
    k = len(exact) - 1
    values = np.array([float(x) for x in exact])
    code = columns[np.searchsorted(values, rows.base[rows.gm_group])]
    onehot = np.zeros((len(rows.gm_group), max(k, 1)), dtype=np.int64)
    hit = code >= 0
    onehot[np.flatnonzero(hit), code[hit]] = 1
    events = event_table(rows.gm_mset, rows.gm_count, onehot)
    steps = np.array([abs(float(exact[i] - exact[d])) for i in range(len(exact)) if i != d] or [0.0])
    per = general_bounds(events.base, events.delta, events.largest_event, [[p] for p in range(k)], np.ones(k))
    return events, float(per @ steps[:k] * (1 + 1e-6) + 8 * UNIT_ROUNDOFF * (steps.sum() + abs(float(exact[d]))))


def _pruning_conditions(bet: CoupBet, expanded: dict[str, int]) -> list[pl.Expr] | None:
    """The bet's pay-table conditions, when a row's payout can be decided before all its labels are known.

    A condition over labels not yet chosen (null) is true or false in SQL's three-valued logic only when it
    is so whatever they turn out to be; a row whose first non-false condition is true (or that has none) is
    then settled, and its remaining positions are not expanded.  Not for bets written as expressions (no
    conditions) or naming ``IS NULL`` (a null there means "not dealt").
    """
    from toolkit.bets.conditions import condition

    if not expanded or not bet.events or any("null" in str(c).lower() for c, _ in bet.events):
        return None
    return [condition(str(c)) for c, _ in bet.events]


class _Expansion:
    """Rows of a bet's table built position by position, settled as soon as their payout is decided."""

    def __init__(self, bet, seq, first, fields, expanded, conditions, emit, group_size) -> None:
        self.bet, self.seq, self.first, self.fields = bet, seq, first, fields
        self.order = list(expanded)
        self.expanded, self.conditions, self.emit = expanded, conditions, emit
        self.colour = COLOUR in expanded.values()
        self.group_size = group_size  # value sequences per group: with the labels left, what a row stands for
        self.rows = 0

    def start(self, groups: np.ndarray) -> None:
        unknown = {p: np.full(len(groups), -1, dtype=np.int64) for p in self.order}
        self.step(groups, unknown, dict(unknown), 0)

    def frame(self, row_group: np.ndarray, ranks: dict, suits: dict) -> pl.DataFrame:
        return row_frame(self.seq, self.first[row_group], self.fields, ranks, suits, self.colour)

    def step(self, row_group: np.ndarray, ranks: dict, suits: dict, stage: int) -> None:
        if stage == len(self.order) or self.conditions is not None:
            frame = self.frame(row_group, ranks, suits)
            done = np.ones(len(row_group), bool) if stage == len(self.order) else _decided(frame, self.conditions)
            if done.any():
                idx = np.flatnonzero(done)
                pays = evaluate(self.bet, frame[idx] if not done.all() else frame)
                self.rows += len(idx)
                weight = self.group_size[row_group[idx]].astype(np.float64)
                for q in self.order[stage:]:  # positions not yet expanded: each label left is a coup it stands for
                    weight = weight * _labels(self.seq.values[q][self.first[row_group[idx]]], self.expanded[q])
                self.emit(row_group[idx], _take(ranks, idx), _take(suits, idx), pays, weight)
                rest = np.flatnonzero(~done)
                row_group, ranks, suits = row_group[rest], _take(ranks, rest), _take(suits, rest)
        if not len(row_group) or stage == len(self.order):
            return
        p = self.order[stage]
        level = self.expanded[p]
        n = _labels(self.seq.values[p][self.first[row_group]], level)
        cum = np.cumsum(n)
        ends = np.searchsorted(cum, np.arange(_CHUNK_ROWS, cum[-1] + _CHUNK_ROWS, _CHUNK_ROWS), "right")
        for lo, hi in zip([0, *ends[:-1].tolist()], ends.tolist(), strict=True):
            if hi <= lo:
                continue
            part = np.arange(lo, hi)
            parent, rank, suit = _expand(self.seq.values[p][self.first[row_group[part]]], level)
            pick = part[parent]
            new_ranks, new_suits = _take(ranks, pick, self.order[stage:]), _take(suits, pick, self.order[stage:])
            new_ranks[p], new_suits[p] = rank, suit
            self.step(row_group[pick], new_ranks, new_suits, stage + 1)


def _take(labels: dict, index: np.ndarray, unknown: list[str] | tuple[()] = ()) -> dict:
    """The labels of rows ``index``; the positions in ``unknown`` (all -1, not labelled yet) filled, not gathered."""
    return {q: np.full(len(index), -1, dtype=np.int64) if q in unknown else x[index] for q, x in labels.items()}


def _decided(frame: pl.DataFrame, conditions: list[pl.Expr]) -> np.ndarray:
    """Rows whose payout no unknown label can change (see :func:`_pruning_conditions`)."""
    values = frame.select([c.alias(f"c{i}") for i, c in enumerate(conditions)])
    decided = np.zeros(frame.height, bool)
    still = np.ones(frame.height, bool)
    for name in values.columns:
        col = values[name]
        true = col.fill_null(False).to_numpy().astype(bool)
        null = col.is_null().to_numpy()
        decided |= still & true
        still &= ~true & ~null
    return decided | still


def prefix_payouts(bet: CoupBet, ranks: np.ndarray, suits: np.ndarray | None) -> np.ndarray:
    """The bet's payout on ``(R, 4)`` first-four-card tuples (rank indices; suit indices or None), in PREFIX order."""
    to_value = np.array(RANK_VALUES)
    v = to_value[ranks]
    rep = ((v[:, 0] * 10 + v[:, 1]) * 10 + v[:, 2]) * 10 + v[:, 3]  # prefix_table's order
    absent = np.full(len(ranks), -1, dtype=np.int64)
    by_rank = {p: ranks[:, i] for i, p in enumerate(PREFIX)}
    by_suit = {p: absent if suits is None else suits[:, i] for i, p in enumerate(PREFIX)}
    return evaluate(bet, row_frame(prefix_table(), rep, bet.field_names, by_rank, by_suit))


def evaluate(bet: CoupBet, frame: pl.DataFrame) -> np.ndarray:
    """The bet's payout on each row of a frame of coup fields, as floats; errors name the bet."""
    try:
        # the costly parts' values are kept with the bet's compiled tables: each input evaluated once a process
        pays = evaluate_distinct(bet.expr, frame, bet._compiled.setdefault("evaluated", {}))
    except pl.exceptions.PolarsError as err:
        raise ValueError(f"bet {bet.name!r}: cannot evaluate its payout: {str(err).splitlines()[0]}") from None
    if pays.null_count():
        raise ValueError(f"bet {bet.name!r}: the payout is undefined (null) for some coups; give a default")
    if not pays.dtype.is_numeric() and pays.dtype != pl.Boolean:
        raise ValueError(f"bet {bet.name!r}: the payout must be a number, got {pays.dtype}")
    return pays.cast(pl.Float64).to_numpy()


def _labelled(name: str, codes: np.ndarray, labels: Any, dtype: Any) -> pl.Series:
    """``labels[codes]`` as a Series of ``dtype``, null where a code is -1: one gather from the labels and a null
    (a mapping by ``replace_strict`` and a ``set`` of the nulls cost ten times as much on a table's small frames)."""
    table = pl.Series(name, [*labels, None], dtype=dtype)
    return table.gather(np.where(codes < 0, len(table) - 1, codes))


def row_frame(
    seq: Any, rep: np.ndarray, fields: tuple[str, ...], ranks: dict, suits: dict, colour_level: bool = False
) -> pl.DataFrame:
    """The fields a bet names, one row per row of its table (a label of -1: not dealt, or not yet chosen).

    ``colour_level``: the suit labels are colours (0 black, 1 red); otherwise suits, their colours read from them.
    """
    rank_enum, suit_enum = pl.Enum(list(RANKS)), pl.Enum(list(SUITS))
    cols: dict[str, pl.Series] = {}
    for f in fields:
        if f in seq.columns:
            x = seq.columns[f][rep]
            if f == "winner":
                cols[f] = _labelled(f, x, WINNERS, pl.String)
            elif f in BOOLEAN_FIELDS:
                cols[f] = pl.Series(f, x.astype(bool))
            else:
                cols[f] = pl.Series(f, x)
        elif f.endswith("_value"):
            x = seq.values[f[: -len("_value")]][rep]
            cols[f] = pl.Series(f, np.where(x < 0, 0, x)).set(pl.Series(x < 0), None)
        elif f.endswith("_colour"):
            x = suits[f[: -len("_colour")]]
            colour = x if colour_level else np.where(x < 0, -1, _SUIT_COLOUR[np.maximum(x, 0)])
            cols[f] = _labelled(f, colour, COLOURS, _COLOUR_ENUM)
        elif f.endswith(("_rank", "_suit")):
            p, labels, enum = (f[:-5], ranks, rank_enum) if f.endswith("_rank") else (f[:-5], suits, suit_enum)
            cols[f] = _labelled(f, labels[p], enum.categories.to_list(), enum)
        else:  # pairs, from the expanded ranks and suits
            a, b = ("player_1", "player_2") if f.startswith("player") else ("banker_1", "banker_2")
            same = ranks[a] == ranks[b]
            unknown = (ranks[a] < 0) | (ranks[b] < 0)
            if f.endswith("suited_pair"):
                same &= suits[a] == suits[b]
                unknown |= (suits[a] < 0) | (suits[b] < 0)
            cols[f] = pl.Series(f, same).set(pl.Series(unknown), None)
    return pl.DataFrame(list(cols.values())) if cols else pl.DataFrame({"_": np.zeros(len(rep))})
