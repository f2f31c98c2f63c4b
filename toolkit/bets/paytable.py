"""Bets as pay tables over the outcome classes, and the statistics of bets of either kind.

A :class:`PayTable` (a :class:`~toolkit.bets.base.Bet` whose evaluator is the exact engine)
is a name and a payout (in units, to one; -1 a loss, 0 a push) for each of the 1,600 outcome
classes of :mod:`toolkit.coup.outcome`.  Payouts are exact rationals, so the exact engine gives
exact expectations; each lies within -1 .. 1,000,000 to one (:data:`toolkit._check.MAX_PAYOUT`), and a bet's name and
description hold no control characters (they reach tables).

Build your own with a function of an :class:`~toolkit.coup.outcome.Outcome`, or a
polars expression over :func:`~toolkit.coup.outcome.outcome_frame`:

>>> import polars as pl
>>> lucky6 = PayTable.from_expr(
...     "banker_six", pl.when((pl.col("winner") == "banker") & (pl.col("banker_total") == 6))
...     .then(12).otherwise(-1))
>>> round(bet_stats(lucky6, 8).house_edge, 4)
0.2998

The standard panel (:func:`standard_bets`) holds the main bets and the classic side bets; the
side-bet catalogue (:mod:`toolkit.bets.catalogue`) fifteen more; :func:`get_bet` knows both
(:func:`bet_names`).  A bet that looks at more than the outcome classes (a card's suit or rank,
Player's third card, ranks across hands) is a :class:`~toolkit.bets.coup_bets.CoupBet` over the coup
fields of :mod:`toolkit.bets.fields`; :func:`make_bet` builds either kind from a polars expression
or from pay-table rows of SQL conditions (the same fields, the same rows as a bet file, see
:mod:`toolkit.bets.files`), and takes the fast engine whenever it can.

>>> type(make_bet("suited", [("player_suited_pair", 25)])).__name__
'CoupBet'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import sqrt
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import check_bet_text, payout
from toolkit.bets.base import Bet
from toolkit.bets.catalogue import catalogue_names, catalogue_spec
from toolkit.bets.coup_bets import CoupBet, coup_distribution, coup_payouts
from toolkit.bets.files import BetSpec, pay_table, read_bet_file
from toolkit.coup.cards import CompositionLike
from toolkit.coup.outcome import N_CLASSES, Outcome, outcome_frame, outcomes
from toolkit.coup.rules import PUNTO_BANCO, Rules, Tableau, as_fraction
from toolkit.coup.suits import SuitedShoe
from toolkit.exact.engine import Distribution, distribution

__all__ = [
    "BetStats",
    "PayTable",
    "bet_from_file",
    "bet_names",
    "bet_payouts",
    "bet_stats",
    "edge_table",
    "get_bet",
    "get_plain_bet",
    "make_bet",
    "standard_bets",
]


@dataclass(frozen=True)
class PayTable(Bet):
    """A bet as a pay table: a name, a description and an exact payout for each outcome class.

    Priced by the batched exact engine (its :attr:`evaluator` is ``"pay table"``); build one with
    :meth:`Bet.from_expr <toolkit.bets.base.Bet.from_expr>` and the other constructors of :class:`Bet`,
    which choose this kind whenever the payout names only outcome-class fields.

    Attributes
    ----------
    name
        The bet's name.
    payoffs
        1,600 exact payouts (units to one; -1 a loss, 0 a push), in class order
        (:func:`toolkit.coup.outcome.class_index`).
    description
        One line for tables.
    events
        The ``(condition, payout)`` rows the bet was written from, if any.
    """

    name: str
    payoffs: tuple[Fraction, ...] = field(repr=False)  # each within -1..MAX_PAYOUT (a million) to one
    description: str = ""
    #: ``(condition, payout)`` rows the bet was written from, if any (labels of :func:`toolkit.bets.ca.ca_table`).
    events: tuple[tuple[str, Fraction], ...] = field(default=(), repr=False, compare=False)
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_bet_text(self.name, self.description)
        payoffs = tuple(as_fraction(p) for p in self.payoffs)
        if len(payoffs) != N_CLASSES:
            raise ValueError(
                f"bet {self.name!r}: expected {N_CLASSES} payouts (one per outcome class), got {len(payoffs)}"
            )
        if any(p < -1 for p in payoffs):
            raise ValueError(f"bet {self.name!r}: a payout below -1 would lose more than the stake")
        payout(max(payoffs), f"bet {self.name!r}")  # |payout| <= MAX_PAYOUT, a million to one
        object.__setattr__(self, "payoffs", payoffs)
        object.__setattr__(self, "_hash", hash((self.name, payoffs)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def evaluator(self) -> str:
        """``"pay table"``: the batched exact engine prices it."""
        return "pay table"

    @classmethod
    def from_function(cls, name: str, payout: Callable[[Outcome], object], description: str = "") -> PayTable:
        """From ``payout(outcome) -> units``, called once per outcome class."""
        return cls(name, tuple(as_fraction(payout(o)) for o in outcomes()), description)

    @classmethod
    def from_expr(cls, name: str, expr: pl.Expr, description: str = "") -> PayTable:
        """From a polars expression evaluated over :func:`~toolkit.coup.outcome.outcome_frame`."""
        if not isinstance(expr, pl.Expr):
            raise TypeError(f"bet {name!r}: expr must be a polars expression, got {type(expr).__name__} {expr!r}")
        frame = outcome_frame()
        try:
            values = frame.select(expr.alias("payout"))["payout"]
        except pl.exceptions.ColumnNotFoundError as err:
            found = re.search(r'column "([^"]*)"', str(err))
            missing = repr(found.group(1)) if found else "a column"
            raise ValueError(
                f"bet {name!r}: the expression names an unknown column, {missing}; "
                f"the columns are {', '.join(frame.columns)}"
            ) from None
        if values.null_count():
            raise ValueError(
                f"bet {name!r}: the expression leaves {values.null_count()} outcome classes without a payout"
            )
        return cls(name, tuple(as_fraction(v) for v in values.to_list()), description)

    @classmethod
    def from_table(
        cls,
        name: str,
        rules: Sequence[tuple[Callable[[Outcome], bool], object]],
        otherwise: object = -1,
        description: str = "",
    ) -> PayTable:
        """From a pay table: ``[(condition, payout), ...]``; the first matching row pays, else ``otherwise``."""

        def payout(o: Outcome) -> object:
            for condition, pays in rules:
                if condition(o):
                    return pays
            return otherwise

        return cls.from_function(name, payout, description)

    @property
    def payoff_array(self) -> np.ndarray:
        """The payouts as a float64 array, in class order."""
        return np.array([float(p) for p in self.payoffs])


# ------------------------------------------------------------------ the panel
def _banker(commission: Fraction) -> Callable[[Outcome], object]:
    return lambda o: 1 - commission if o.winner == "banker" else 0 if o.winner == "tie" else -1


def _dragon_bonus(side: str) -> Callable[[Outcome], object]:
    pays = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}

    def payout(o: Outcome) -> object:
        mine = o.player_natural if side == "player" else o.banker_natural
        if o.winner == "tie":
            return 0 if o.player_natural and o.banker_natural else -1
        if o.winner != side:
            return -1
        if mine:
            return 1
        return pays.get(o.margin, -1)

    return payout


@lru_cache(maxsize=8)
def standard_bets(rules: Rules = Rules()) -> tuple[PayTable, ...]:
    """The standard panel of bets under ``rules`` (commission and tie payout).

    Parameters
    ----------
    rules
        House rules: the Banker commission and the Tie payout.

    Returns
    -------
    tuple of PayTable
        Banker, Player, Tie (8:1 and 9:1), Super 6, EZ Banker, Dragon 7, Panda 8,
        the pairs, the naturals, Dragon Bonus, Big and Small.

    References
    ----------
    Wizard of Odds, "Baccarat" and "Baccarat Side Bets"; E. Jacobson's analyses; E. O. Thorp and
    W. E. Walden, "A Favorable Side Bet in Nevada Baccarat", JASA 61 (1966) for the naturals.
    """
    c = rules.commission
    b, p = "banker", "player"

    def three_card(o: Outcome, side: str, total: int) -> bool:
        cards = o.banker_cards if side == b else o.player_cards
        mine = o.banker_total if side == b else o.player_total
        return o.winner == side and cards == 3 and mine == total

    specs: list[tuple[str, Callable[[Outcome], object], str]] = [
        ("banker", _banker(c), f"Banker wins pays {1 - c} (commission {c}); tie pushes"),
        (
            "player",
            lambda o: 1 if o.winner == p else 0 if o.winner == "tie" else -1,
            "Player wins pays 1:1; tie pushes",
        ),
        ("tie", lambda o: rules.tie_pays if o.winner == "tie" else -1, f"Tie pays {rules.tie_pays}:1"),
        ("tie_9to1", lambda o: 9 if o.winner == "tie" else -1, "Tie pays 9:1"),
        (
            "super6_banker",
            lambda o: (
                (Fraction(1, 2) if o.banker_total == 6 else 1) if o.winner == b else 0 if o.winner == "tie" else -1
            ),
            "no commission; a Banker win with total 6 pays 1:2; tie pushes",
        ),
        (
            "ez_banker",
            lambda o: (0 if three_card(o, b, 7) else 1) if o.winner == b else 0 if o.winner == "tie" else -1,
            "no commission; a Banker win with a three-card 7 pushes; tie pushes",
        ),
        ("dragon7", lambda o: 40 if three_card(o, b, 7) else -1, "Banker wins with a three-card 7: pays 40:1"),
        ("panda8", lambda o: 25 if three_card(o, p, 8) else -1, "Player wins with a three-card 8: pays 25:1"),
        ("player_pair", lambda o: 11 if o.player_pair else -1, "Player's first two cards a pair (same rank): 11:1"),
        ("banker_pair", lambda o: 11 if o.banker_pair else -1, "Banker's first two cards a pair (same rank): 11:1"),
        (
            "either_pair",
            lambda o: 5 if o.player_pair or o.banker_pair else -1,
            "either hand's first two cards a pair: 5:1",
        ),
        (
            "natural8",
            lambda o: 9 if o.banker_natural and o.banker_total == 8 else -1,
            "Banker's first two cards total 8 (Thorp and Walden): 9:1",
        ),
        (
            "natural9",
            lambda o: 9 if o.banker_natural and o.banker_total == 9 else -1,
            "Banker's first two cards total 9 (Thorp and Walden): 9:1",
        ),
        (
            "dragon_bonus_player",
            _dragon_bonus(p),
            "Player wins by 9/8/7/6/5/4: 30/10/6/4/2/1; natural win 1; natural tie push",
        ),
        (
            "dragon_bonus_banker",
            _dragon_bonus(b),
            "Banker wins by 9/8/7/6/5/4: 30/10/6/4/2/1; natural win 1; natural tie push",
        ),
        ("big", lambda o: Fraction(54, 100) if o.cards_dealt >= 5 else -1, "five or six cards dealt: 0.54:1"),
        ("small", lambda o: Fraction(3, 2) if o.cards_dealt == 4 else -1, "four cards dealt: 1.5:1"),
    ]
    return tuple(PayTable.from_function(name, fn, desc) for name, fn, desc in specs)


def make_bet(
    name: str, payout: pl.Expr | Sequence[tuple[str, object]], default: object = -1, description: str = ""
) -> Bet:
    """A bet from a payout expression or a pay table over the coup fields (:data:`toolkit.bets.fields.FIELDS`).

    Parameters
    ----------
    name
        The bet's name.
    payout
        A polars expression giving the payout, or pay-table rows
        ``[(sql_condition, pays), ...]`` (first match pays, see
        :func:`toolkit.bets.files.pay_table`).
    default
        With rows: what the bet pays when no row holds.
    description
        One line for tables.

    Returns
    -------
    PayTable or CoupBet
        A :class:`Bet` (fast engine) when the payout names only outcome-class
        fields, else a :class:`~toolkit.bets.coup_bets.CoupBet`.

    Examples
    --------
    >>> make_bet("tiger_tie", [("winner = 'tie' AND player_total = 6", 45)]).name
    'tiger_tie'
    >>> type(make_bet("suited", [("player_suited_pair", 25)])).__name__
    'CoupBet'
    """
    events: tuple[tuple[str, Fraction], ...] = ()
    if isinstance(payout, pl.Expr):
        expr = payout
    else:
        expr = pay_table(list(payout), default, name)
        events = tuple((str(c), as_fraction(p)) for c, p in payout)
    bet = CoupBet(name, expr, description, events=events)
    if not bet.class_level:
        return bet
    plain = PayTable.from_expr(name, expr, description)
    return PayTable(plain.name, plain.payoffs, plain.description, events=events)


def _from_spec(spec: BetSpec) -> Bet:
    return make_bet(spec.name, spec.rows or spec.expr, spec.default, description=spec.description)


def bet_from_file(path: str) -> Bet:
    """A bet defined in a TOML file (see :mod:`toolkit.bets.files`); errors name the file and the row.

    Parameters
    ----------
    path
        The file: ``name``, optional ``description`` and ``default``, and
        ``[[pays]]`` rows of ``when`` (a SQL condition over the coup fields)
        and ``pays``.

    Returns
    -------
    PayTable or CoupBet
        A pay table when the conditions name only outcome-class fields.
    """
    return _from_spec(read_bet_file(path))


def bet_names(rules: Rules = Rules()) -> tuple[str, ...]:
    """Every bet :func:`get_bet` knows: the standard panel, then the side-bet catalogue.

    Parameters
    ----------
    rules
        House rules of the panel (commission, tie payout).

    Returns
    -------
    tuple of str

    >>> bet_names()[-3:]
    ('four_cards', 'five_cards', 'six_cards')
    """
    return tuple(b.name for b in standard_bets(rules)) + catalogue_names()


@lru_cache(maxsize=64)
def _catalogue_bet(name: str) -> Bet:
    return _from_spec(catalogue_spec(name))


def get_plain_bet(name: str | PayTable, rules: Rules = Rules(), where: str = "this") -> PayTable:
    """A bet that is a pay table over the outcome classes (the fast engine), by name; a bet on coup fields is refused.

    For the places that need pay tables: the known-card study, the million-shoe study's kernel.

    Parameters
    ----------
    name
        A name, or a :class:`Bet` (returned as it is).
    rules
        House rules of the panel's bets.
    where
        What needs the pay table, for the error message.

    Returns
    -------
    PayTable
    """
    bet = name if isinstance(name, PayTable) else get_bet(name, rules)
    if not isinstance(bet, PayTable):
        raise ValueError(
            f"bet {bet.name!r} looks at suits or card positions: {where} takes bets that are pay tables over "
            "the outcome classes (totals, winner, cards per hand, pairs)"
        )
    return bet


def bet_payouts(
    bet: Bet, classes: np.ndarray, cards: np.ndarray | None, decks: int = 8, seed: Any = None
) -> np.ndarray:
    """What one unit on ``bet`` paid on dealt coups: its pay table at their outcome ``classes``, or its payout
    over their ``cards`` (``(n, 6)`` rank indices by position, see :func:`toolkit.bets.coup_bets.coup_payouts`).

    Parameters
    ----------
    bet
        The bet.
    classes
        The coups' outcome classes.
    cards
        The coups' cards (not needed by a pay table).
    decks
        Decks of the shoe (suits of a bet on suits are drawn suit-blind).
    seed
        Seed of those suits.

    Returns
    -------
    numpy.ndarray
    """
    if isinstance(bet, PayTable):
        return bet.payoff_array[np.asarray(classes)]
    if cards is None:
        raise ValueError(f"bet {bet.name!r} looks at the coup's cards: give them")
    assert isinstance(bet, CoupBet)  # the other kind of Bet
    return coup_payouts(bet, cards, decks=decks, seed=seed)


def get_bet(name: str, rules: Rules = Rules()) -> Bet:
    """A bet of the standard panel or of the side-bet catalogue (:mod:`toolkit.bets.catalogue`) by name.

    Parameters
    ----------
    name
        The bet's name (:func:`bet_names`); the error lists the known names.
    rules
        House rules of the panel's bets.

    Returns
    -------
    PayTable or CoupBet

    >>> get_bet("dragon7").description
    'Banker wins with a three-card 7: pays 40:1'
    >>> get_bet("perfect_pair").name
    'perfect_pair'
    """
    if not isinstance(name, str):
        raise TypeError(f"bet name must be a string, got {type(name).__name__} {name!r}")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__} {rules!r}")
    for bet in standard_bets(rules):
        if bet.name == name:
            return bet
    if name in catalogue_names():
        return _catalogue_bet(name)
    raise ValueError(f"unknown bet {name!r}; known bets: {', '.join(bet_names(rules))}")


# ------------------------------------------------------------------ statistics
@dataclass(frozen=True)
class BetStats:
    """Statistics of one bet for one shoe.

    Attributes
    ----------
    bet
        The bet's name.
    payouts
        Each payout and its probability.
    expected_value, std_dev, hit_frequency
        Per unit staked (pushes count as hands played); ``house_edge`` is ``-expected_value``.
    exact_expected_value
        The expectation as a fraction (when computed exactly).
    """

    bet: str
    payouts: Mapping[Any, Any]
    expected_value: float
    std_dev: float
    hit_frequency: float
    exact_expected_value: Fraction | None = None

    @property
    def house_edge(self) -> float:
        """Minus the expected value per unit staked."""
        return -self.expected_value

    def __repr__(self) -> str:
        """The bet's figures and its payouts in a few lines."""
        from toolkit._show import text_table

        rows = [("expected value", self.expected_value), ("house edge", f"{self.house_edge:.4%}"),
                ("std dev", self.std_dev), ("hit frequency", self.hit_frequency)]  # fmt: skip
        rows += [(f"P(pays {float(k):+g})", float(v)) for k, v in self.payouts.items()]
        return text_table(f"BetStats {self.bet!r}", rows)

    def _repr_html_(self) -> str:
        from toolkit._show import html_table

        rows = [("expected value", self.expected_value), ("house edge", f"{self.house_edge:.4%}"),
                ("std dev", self.std_dev), ("hit frequency", self.hit_frequency)]  # fmt: skip
        rows += [(f"P(pays {float(k):+g})", float(v)) for k, v in self.payouts.items()]
        return html_table(f"BetStats {self.bet!r}", rows)

    def as_dict(self) -> dict[str, object]:
        """The statistics as plain data (JSON-ready)."""
        return {
            "expected_value": self.expected_value,
            "house_edge": self.house_edge,
            "std_dev": self.std_dev,
            "hit_frequency": self.hit_frequency,
            "payouts": {str(k): float(v) for k, v in self.payouts.items()},
        }


def bet_stats(
    bet: Bet | str,
    shoe: CompositionLike = 8,
    tableau: Tableau = PUNTO_BANCO,
    exact: bool = True,
    decks: int | None = None,
) -> BetStats:
    """Probability of each payout, expectation, standard deviation and hit frequency.

    Parameters
    ----------
    bet
        A :class:`Bet`, a :class:`~toolkit.bets.coup_bets.CoupBet`, or the name of
        a bet of :func:`bet_names` (priced by the default rules).
    shoe
        The cards left; for a bet on suits also a :class:`~toolkit.coup.SuitedShoe`.
    tableau
        Drawing rules.
    exact
        ``True`` (the default): the sums are done in rationals and
        ``exact_expected_value`` is set; the float fields are the rounded values.
    decks
        For a bet on suits priced on a shoe by rank: the full decks its suits
        are drawn from (see :func:`toolkit.coup.suits.suit_counts`).

    Returns
    -------
    BetStats
    """
    if isinstance(bet, str):
        bet = get_bet(bet)
    if not isinstance(bet, Bet):
        raise TypeError(f"bet must be a Bet or a bet name, got {type(bet).__name__} {bet!r}")
    if not isinstance(tableau, Tableau):
        raise TypeError(f"tableau must be a Tableau, got {type(tableau).__name__} {tableau!r}")
    if isinstance(shoe, SuitedShoe) and isinstance(bet, PayTable):
        shoe = shoe.ranks  # a pay table sees ranks only
    if isinstance(bet, CoupBet):
        return _stats(bet, coup_distribution(bet, shoe, tableau, exact=exact, decks=decks), exact)
    assert isinstance(bet, PayTable)  # the other kind of Bet
    return _stats(bet, _pay_table_payouts(bet, distribution(shoe, tableau, exact=exact), exact), exact)


def _pay_table_payouts(bet: PayTable, p: Distribution, exact: bool) -> dict[Any, Any]:
    """A pay table's payouts and their probabilities, from the distribution ``p`` of the outcome classes."""
    zero: Any = Fraction(0) if exact else 0.0
    payouts: dict[Any, Any] = {}
    for prob, pay in zip(p, bet.payoffs, strict=True):
        if prob:
            key = pay if exact else float(pay)
            payouts[key] = payouts.get(key, zero) + prob
    return dict(sorted(payouts.items()))


def _stats(bet: Bet, payouts: dict[Any, Any], exact: bool) -> BetStats:
    zero: Any = Fraction(0) if exact else 0.0
    ev = sum((k * v for k, v in payouts.items()), zero)
    # centred, not E[X^2] - E[X]^2: a bet whose payout is certain has SD 0, not the root of a rounding error
    variance = sum((v * (k - ev) ** 2 for k, v in payouts.items()), zero)
    hit = sum((v for k, v in payouts.items() if k > 0), zero)
    return BetStats(
        bet=bet.name,
        payouts=payouts,
        expected_value=float(ev),
        std_dev=sqrt(max(float(variance), 0.0)),
        hit_frequency=float(hit),
        exact_expected_value=ev if exact else None,
    )


def edge_table(
    shoe: CompositionLike = 8, bets: Iterable[Bet | str] | None = None, rules: Rules = Rules(), exact: bool = True
) -> pl.DataFrame:
    """One row per bet: expected value, house edge, standard deviation, hit frequency.

    Parameters
    ----------
    shoe
        The cards left (a :class:`~toolkit.coup.SuitedShoe` too).
    bets
        Bets or names (default: the standard panel).
    rules
        House rules of the panel's bets and the tableau.
    exact
        Sum in rationals (the default) or in floats.

    Returns
    -------
    polars.DataFrame
        ``bet, expected_value, house_edge, std_dev, hit_frequency, description``, per unit staked.

    >>> edge_table(8).filter(pl.col("bet") == "banker")["house_edge"].round(6).item()
    0.010579
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__} {rules!r}")
    bets = standard_bets(rules) if bets is None else tuple(get_bet(b, rules) if isinstance(b, str) else b for b in bets)
    wrong = [b for b in bets if not isinstance(b, Bet)]
    if wrong:
        raise TypeError(f"bets must be Bets or bet names, got {type(wrong[0]).__name__} {wrong[0]!r}")
    rows = []
    classes = None  # the distribution of the next coup, computed once for every pay table
    for bet in bets:
        if isinstance(bet, PayTable):
            if classes is None:
                ranks = shoe.ranks if isinstance(shoe, SuitedShoe) else shoe
                classes = distribution(ranks, rules.tableau, exact=exact)
            s = _stats(bet, _pay_table_payouts(bet, classes, exact), exact)
        else:
            s = bet_stats(bet, shoe, rules.tableau, exact=exact)
        rows.append(
            {
                "bet": bet.name,
                "expected_value": s.expected_value,
                "house_edge": s.house_edge,
                "std_dev": s.std_dev,
                "hit_frequency": s.hit_frequency,
                "description": bet.description,
            }
        )
    return pl.DataFrame(rows)


def _named(name: str, rules: Rules | None = None) -> Bet:
    return get_bet(name, Rules() if rules is None else rules)


Bet._builders.update(
    rows=make_bet, function=PayTable.from_function, table=PayTable.from_table, file=bet_from_file, name=_named
)
