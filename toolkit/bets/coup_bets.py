"""Bets on anything visible in the coup, priced exactly: suits, ranks and card positions.

A :class:`CoupBet` is a payout expression over the fields of
:mod:`toolkit.bets.fields` (each card's value, rank and suit; totals; winner;
naturals; cards per hand).  Bets that name only the outcome-class fields are
plain pay tables (:class:`toolkit.bets.paytable.Bet`) and take the fast engine; the
others are priced here, exactly, by extending the pair trick of
:mod:`toolkit.exact._tables`.

**The method.**  Let the bet name the rank or the card of some positions
(the *expanded* positions).  For an ordered value sequence ``s`` the tableau
can deal, P(s) is a normalised falling product of the shoe's counts by value.
Given the values, the expanded positions' cards are a uniform ordered draw
without replacement from the shoe's cards of those values (exchangeability),
so, taking the expanded positions in a fixed order, the probability that they
hold ranks ``r_i`` (and suits ``s_i`` where the card is named) is

    prod_i (n[r_i] - h_i) / (n[v_i] - g_i)  x  (w[r_i, s_i] - c_i) / (W[r_i] - e_i)

where ``n`` are the counts by rank and by value, ``w`` the suit weights of
each rank (:func:`toolkit.coup.suits.suit_counts`), ``h_i``/``g_i`` the earlier
expanded positions of the same rank / value, and ``c_i``/``e_i`` the earlier
*card-level* positions of the same card / rank.  A row of the bet's table is
then one value-level group (the value-level fields the bet names, and the
values at the expanded positions), with one rank or card per expanded
position (:mod:`toolkit.bets._rows`); its probability is P(group) x the product
above, and the product depends only on the row's labelled cards (its
*pattern*), not on the rest of the coup.  So the rows are priced by the
engine's own walk of the value trie, each pattern an event of the walk, times
its product (*label events*, :mod:`toolkit.bets._label_events`): each group is
priced at its commonest payout, and only the rows that pay otherwise carry a
pattern.  A bet on values alone needs no pattern and becomes plain events of
the walk (*value events*); a bet on the first four cards, a closed form in the
counts (*prefix patterns*, :mod:`toolkit.bets._prefix_patterns`).

Every path is tested against an independent card-by-card enumerator over
suited shoes (``tests/card_oracle.py``).

>>> import polars as pl
>>> three8 = CoupBet("three_giving_eight", pl.when(
...     (pl.col("banker_two_card_total") == 3) & (pl.col("player_3_value") == 8)).then(200).otherwise(-1))
>>> p = coup_distribution(three8, 8)
>>> round(float(-sum(pay * q for pay, q in p.items())), 6)
0.086823
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import perm
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import check_bet_text
from toolkit.bets._expressions import check_rowwise
from toolkit.bets._label_events import LabelTable, compile_labels, label_combinations, label_probabilities
from toolkit.bets._prefix_patterns import PatternBet, compile_patterns
from toolkit.bets._rows import prefix_payouts, row_frame
from toolkit.bets.base import Bet
from toolkit.bets.fields import (
    CLASS_FIELDS,
    COLOUR,
    FIELDS,
    POSITIONS,
    PREFIX_FIELDS,
    SequenceFields,
    expansions,
    unknown_field,
    value_columns,
)
from toolkit.coup.cards import RANK_VALUES, Composition
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.coup.suits import SuitedShoe, blind_decks, blind_weights, suit_counts
from toolkit.exact.engine import _values_from_ranks
from toolkit.parallel import SeedLike, as_generator

__all__ = ["CoupBet", "coup_distribution", "coup_payouts"]

_PAIR_FIELDS = frozenset({"player_pair", "banker_pair", "player_suited_pair", "banker_suited_pair"})
#: The compiled tables of the bets unpickled in this process, by bet (filled as they arrive and compile).
_ARRIVED: dict[tuple[str, str], dict] = {}


@dataclass(frozen=True, eq=False)
class CoupBet(Bet):
    """A bet over the coup fields (suits, ranks, third cards): a name, a payout expression and a description.

    A :class:`~toolkit.bets.base.Bet` whose evaluator is chosen when it is compiled (:attr:`evaluator`);
    :meth:`Bet.from_expr <toolkit.bets.base.Bet.from_expr>` and :meth:`Bet.from_rows
    <toolkit.bets.base.Bet.from_rows>` build one when the payout names more than the outcome classes.

    Parameters
    ----------
    name
        The bet's name.
    expr
        A polars expression giving the payout, in units to one (-1 a loss,
        0 a push), for every coup; it may name any field of
        :data:`toolkit.bets.fields.FIELDS`.
    description
        One line for tables.
    """

    name: str
    expr: pl.Expr = field(repr=False)
    description: str = ""
    events: tuple[tuple[str, Fraction], ...] = field(default=(), repr=False)
    _compiled: dict = field(default_factory=dict, init=False, repr=False)
    _key: tuple[str, str] = field(default=("", ""), init=False, repr=False)
    #: The coup fields the payout names, read once (the compilers below read this, not a property of this module).
    field_names: tuple[str, ...] = field(default=(), init=False, repr=False)

    def __post_init__(self) -> None:
        check_bet_text(self.name, self.description)
        if not isinstance(self.expr, pl.Expr):
            raise TypeError(f"bet {self.name!r}: expr must be a polars expression, got {type(self.expr).__name__}")
        check_rowwise(self.expr, f"bet {self.name!r}")
        object.__setattr__(self, "field_names", tuple(dict.fromkeys(self.expr.meta.root_names())))
        unknown = sorted(set(self.field_names) - set(FIELDS))
        if unknown:
            raise ValueError(f"bet {self.name!r}: {unknown_field(unknown[0])}")
        # the name and the serialised expression, once: bets are dictionary keys on the hot paths
        object.__setattr__(self, "_key", (self.name, self.expr.meta.serialize(format="json")))

    @property
    def fields(self) -> tuple[str, ...]:
        """The coup fields the payout names."""
        return self.field_names

    @property
    def class_level(self) -> bool:
        """True when the bet names only outcome-class fields (a plain pay table)."""
        return set(self.fields) <= CLASS_FIELDS

    @property
    def evaluator(self) -> str:
        """The evaluator that prices it: ``value events`` for a bet on values alone (one walk of the engine's
        multiset trie, as the panel), ``prefix patterns`` for a bet on the first four cards' ranks and suits (a
        closed form in the counts, :mod:`toolkit.bets._prefix_patterns`), else ``label events`` (the walk's events
        times the draws of the labelled cards, :mod:`toolkit.bets._label_events`)."""
        if not expansions(self.fields):
            return "value events"
        return "prefix patterns" if set(self.fields) <= PREFIX_FIELDS and self.patterns() else "label events"

    def patterns(self) -> PatternBet | None:
        """The bet as a closed form in the counts, or None (a bet past the first four cards, on values alone, or
        on particular ranks and suits, which label events price more cheaply); built once, then cached."""
        if "patterns" not in self._compiled:
            if not expansions(self.fields) or not set(self.fields) <= PREFIX_FIELDS:
                self._compiled["patterns"] = None
                return None
            card_level = any(level >= COLOUR for level in expansions(self.fields).values())
            # pairs, suited pairs and values depend on ranks and suits only through equalities: proven symmetric
            named = any(f.endswith(("_rank", "_suit", "_colour")) for f in self.fields)
            proven = None if named else ("one" if set(self.fields) <= _PAIR_FIELDS else "value")
            self._compiled["patterns"] = compile_patterns(lambda r, s: prefix_payouts(self, r, s), card_level, proven)
        return self._compiled["patterns"]

    @property
    def needs_suits(self) -> bool:
        """True when the bet looks at some card's suit or colour."""
        return any(level >= COLOUR for level in expansions(self.fields).values())

    def __getstate__(self) -> dict:
        # sent to worker processes without its compiled tables (each worker compiles once, cheaply)
        return {k: v for k, v in self.__dict__.items() if k != "_compiled"}

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        # equal bets arriving in this process (one with every block of shoes) share one set of compiled tables
        object.__setattr__(self, "_compiled", _ARRIVED.setdefault(self._key, {}))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CoupBet) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def compiled(self, tableau: Tableau = PUNTO_BANCO) -> LabelTable:
        """The bet's events under ``tableau`` (built once, then cached): its exact path, and its float path unless
        it is priced by prefix patterns."""
        if tableau not in self._compiled:
            self._compiled[tableau] = compile_labels(self, tableau)
        return self._compiled[tableau]


# ----------------------------------------------------------------- pricing
def _shoe(shoe: object, decks: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Counts by rank (13,), by value (10,) and suit weights (13, 4) of a shoe."""
    comp, weights = suit_counts(shoe, decks)  # type: ignore[arg-type]
    comp.require_coup()
    return np.array(comp.by_rank, dtype=np.int64), np.array(comp.by_value, dtype=np.int64), weights


def _kernel_probabilities(table: LabelTable, ranks: np.ndarray, values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``(B, payouts)`` P(payout) of each payout other than the default, for ``(B, 13)`` ranks, ``(B, 10)`` values
    and ``(B, 13, 4)`` suit weights: one walk of the engine's multiset trie per block of shoes."""
    if table.events is not None:
        return table.events(np.ascontiguousarray(values, dtype=np.int64))[:, : len(table.payouts)]
    return label_probabilities(table, ranks, values, weights)


def coup_distribution(
    bet: CoupBet, shoe: object = 8, tableau: Tableau = PUNTO_BANCO, exact: bool = True, decks: int | None = None
) -> dict[Any, Any]:
    """Probability of each payout of ``bet`` on ``shoe`` (a :class:`~toolkit.coup.SuitedShoe` or a shoe by rank).

    Parameters
    ----------
    bet
        The bet.
    shoe
        The cards left: a :class:`~toolkit.coup.SuitedShoe` (52 counts), or
        anything :meth:`toolkit.coup.cards.Composition.from_any` reads (suits then
        read suit-blind from ``decks`` full decks, see :func:`toolkit.coup.suits.suit_counts`).
    tableau
        Drawing rules.
    exact
        Fractions (``True``) or floats.
    decks
        For a shoe by rank and a bet on suits: the decks its suits come from.

    Returns
    -------
    dict
        ``{payout: probability}``, payouts in increasing order.
    """
    table = bet.compiled(tableau)
    ranks, values, weights = _shoe(shoe, decks)
    if exact:
        combos = label_combinations(table, ranks, values, weights)
        total = perm(int(values.sum()), 6)
        probs: list[Any] = [c / total for c in combos]
        rest: Any = 1 - sum(probs, Fraction(0))
    else:
        probs = list(_kernel_probabilities(table, ranks[None], values[None], weights[None])[0])
        rest = 1.0 - float(np.sum(probs))
    out: dict[Any, Any] = {}
    for pay, p in zip((*table.payouts, table.default), (*probs, rest), strict=True):
        key = pay if exact else float(pay)
        out[key] = out.get(key, 0) + p
    return {k: out[k] for k in sorted(out) if out[k]}


def coup_expected_values(
    shoes: object, bet: CoupBet, tableau: Tableau = PUNTO_BANCO, decks: int | None = None
) -> np.ndarray:
    """Float expected values of one bet for many shoes: ``(B, 13)`` counts by rank or a sequence of shoes.

    Shoes by rank read their suits suit-blind from ``decks`` full decks (by default the fewest that
    hold every shoe); a sequence of :class:`~toolkit.coup.SuitedShoe` gives its own.  One compiled
    pass over the bet's table per block of shoes.

    Parameters
    ----------
    shoes
        ``(B, 13)`` counts by rank, or a sequence of shoes (all :class:`~toolkit.coup.SuitedShoe`, or all by rank).
    bet
        The bet.
    tableau
        Drawing rules.
    decks
        For shoes by rank: the full decks their suits come from.

    Returns
    -------
    numpy.ndarray
        ``(B,)`` expected values per unit.
    """
    ranks, weights = _shoe_arrays(shoes, decks)
    if not len(ranks):
        return np.zeros(0)
    totals = ranks.sum(axis=1)
    if totals.min() < 6:
        bad = int(np.argmin(totals))
        raise ValueError(
            f"shoe {bad} holds {int(totals[bad])} card(s); a coup may need six (two hands of up to three cards)"
        )
    values = _values_from_ranks(ranks)
    patterns = bet.patterns()
    if patterns is not None:
        out, bound = patterns(ranks, weights)
    else:
        table = bet.compiled(tableau)
        pays = np.array([float(p) for p in table.payouts]) - float(table.default)
        out = float(table.default) + _kernel_probabilities(table, ranks, values, weights) @ pays
        bound = np.full(len(out), table.bound)
    near = np.flatnonzero(np.abs(out) <= bound).tolist()
    if near:  # exact signs: an expectation within the float bound of zero is settled in integers
        table = bet.compiled(tableau)
        for b in near:
            combos = label_combinations(table, ranks[b], values[b], weights[b])
            total = perm(int(values[b].sum()), 6)
            exact_ev = table.default + sum(
                (c / total * (p - table.default) for c, p in zip(combos, table.payouts, strict=True)), Fraction(0)
            )
            out[b] = float(exact_ev)
    return out


def _shoe_arrays(shoes: object, decks: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Counts by rank ``(B, 13)`` and suit weights ``(B, 13, 4)`` of many shoes, parsed once.

    A ``(B, 13)`` integer array is taken as it is (no per-shoe parsing); a sequence of shoes is read by
    :meth:`toolkit.coup.cards.Composition.from_any`, or holds :class:`~toolkit.coup.SuitedShoe` values only.
    """
    if isinstance(shoes, np.ndarray) and shoes.ndim == 2 and shoes.shape[1] == 13:
        if not np.issubdtype(shoes.dtype, np.integer) or (shoes < 0).any():
            raise ValueError("shoes by rank must be non-negative integer counts")
        ranks = np.ascontiguousarray(shoes, dtype=np.int64)
        top = int(ranks.max()) if ranks.size else 0
        return ranks, blind_weights(len(ranks), blind_decks(top, decks))
    items = [tuple(int(x) for x in row) for row in shoes] if isinstance(shoes, np.ndarray) else list(shoes)  # type: ignore[call-overload]
    suited = [s for s in items if isinstance(s, SuitedShoe)]
    if suited and len(suited) != len(items):
        raise TypeError("give all shoes suited (SuitedShoe) or all by rank, not a mixture")
    if suited:
        weights = np.stack([s.suit_matrix for s in suited]).astype(np.int64)
        return np.array([s.ranks.by_rank for s in suited], dtype=np.int64), weights
    ranks = np.array([Composition.from_any(s).by_rank for s in items], dtype=np.int64).reshape(len(items), 13)
    top = int(ranks.max()) if ranks.size else 0
    return ranks, blind_weights(len(items), blind_decks(top, decks))


def coup_payouts(
    bet: CoupBet, cards: np.ndarray, decks: int = 8, seed: SeedLike = None, suits: np.ndarray | None = None
) -> np.ndarray:
    """What ``bet`` paid on dealt coups, from their cards (rank indices by position, -1 where no card).

    Parameters
    ----------
    bet
        The bet.
    cards
        ``(n, 6)`` rank indices (see :data:`toolkit.coup.cards.RANKS`) in the order of
        :data:`toolkit.bets.fields.POSITIONS`, -1 where no card was dealt (as
        :attr:`toolkit.dealing.dealer.DealtShoes.cards`).
    decks
        The decks the shoe was made of (for suits, see below).
    seed
        For a bet on suits when ``suits`` is not given: the simulator deals
        ranks, so each coup's suits are drawn suit-blind (every suit of a rank
        weighing ``decks``, without replacement within the coup) from this seed.
    suits
        ``(n, 6)`` suit indices (``s, h, d, c`` = 0..3), when they are known.

    Returns
    -------
    numpy.ndarray
        ``(n,)`` payouts in units.
    """
    cards = np.asarray(cards, dtype=np.int64).reshape(-1, 6)
    if bet.needs_suits and suits is None:
        suits = _draw_suits(cards, decks, as_generator(seed))
    frame = _dealt_frame(cards, suits, bet.fields)
    pays = frame.select(bet.expr.cast(pl.Float64).alias("p"))["p"]
    if pays.null_count():
        raise ValueError(f"bet {bet.name!r}: the payout is undefined (null) for some coups; give a default")
    return pays.to_numpy()


def _draw_suits(cards: np.ndarray, decks: int, rng: np.random.Generator) -> np.ndarray:
    """Suits for dealt ranks, suit-blind: without replacement within each coup from ``decks`` of each suit."""
    n = len(cards)
    suits = np.full((n, 6), -1, dtype=np.int64)
    for i in range(6):
        used = np.zeros((n, 4))
        for j in range(i):
            same = (cards[:, j] == cards[:, i]) & (cards[:, i] >= 0)
            used[np.flatnonzero(same), suits[same, j]] += 1
        w = np.maximum(decks - used, 0)
        cum = np.cumsum(w, axis=1)
        pick = (rng.random(n) * cum[:, -1])[:, None] < cum
        suits[:, i] = np.where(cards[:, i] >= 0, np.argmax(pick, axis=1), -1)
    return suits


def _dealt_frame(cards: np.ndarray, suits: np.ndarray | None, fields: tuple[str, ...]) -> pl.DataFrame:
    """The coup fields of dealt coups (only those named), built as the rows of a bet's table are."""
    to_value = np.array((*RANK_VALUES, -1))
    values = {p: to_value[cards[:, i]] for i, p in enumerate(POSITIONS)}
    seq = SequenceFields(values, value_columns(values), np.zeros(len(cards), dtype=np.int64))
    ranks = {p: cards[:, i] for i, p in enumerate(POSITIONS)}
    no_suits = np.full(cards.shape, -1, dtype=np.int64)
    suit = {p: (no_suits if suits is None else suits)[:, i] for i, p in enumerate(POSITIONS)}
    return row_frame(seq, np.arange(len(cards)), fields, ranks, suit)
