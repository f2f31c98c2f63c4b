"""The combinatorial-analysis table of a bet: one row per payout, in exact integers.

The table gamblers know from the Wizard of Odds: for each payout event its
payout, the number of *combinations* (every coup counted as an ordered sequence
of six cards, used or not, so the rows sum to ``(N)_6`` for a shoe of N cards),
its probability and its return (payout x probability); below, the house edge,
standard deviation and hit frequency.  The returns sum to the bet's expected
value.

>>> t = ca_table("dragon7", 8)
>>> t.select("outcome", "pays", "combinations").rows()[0]
('wins', 40, 112633011329024)
>>> sum(t["combinations"]) == 416 * 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import perm, sqrt
from typing import Any

import polars as pl

from toolkit.bets.base import Bet
from toolkit.bets.paytable import bet_stats, get_bet
from toolkit.coup.cards import CompositionLike
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.coup.suits import SuitedShoe

__all__ = ["CATable", "ca_summary", "ca_table"]


@dataclass(frozen=True)
class CATable:
    """A combinatorial-analysis table and its summary.

    Attributes
    ----------
    bet
        The bet's name.
    rows
        The table (see :func:`ca_table`).
    house_edge
        Minus the expected value per unit.
    std_dev, hit_frequency
        The standard deviation of a one-unit bet, and the probability that it wins.
    total_combinations
        ``(N)_6``, the sum of the combinations.
    """

    bet: str
    rows: pl.DataFrame
    house_edge: float
    std_dev: float
    hit_frequency: float
    total_combinations: int

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"bet", "rows": [...], "house_edge", "std_dev", "hit_frequency"}``."""
        return {
            "bet": self.bet,
            "rows": self.rows.to_dicts(),
            "house_edge": self.house_edge,
            "std_dev": self.std_dev,
            "hit_frequency": self.hit_frequency,
            "total_combinations": self.total_combinations,
        }

    def __repr__(self) -> str:
        return (
            f"CATable({self.bet!r}: {self.rows.height} rows, house edge {self.house_edge:.6%}, "
            f"SD {self.std_dev:.4f}, hit {self.hit_frequency:.6f})"
        )


def _label(bet: Bet, pays: Fraction, wins: int) -> str:
    """The event's name: the pay-table row it comes from, else what the bet does."""
    rows = [condition for condition, value in bet.events if value == pays]
    if rows:
        return " / ".join(rows)
    if pays == -1:
        return "loses"
    if pays == 0:
        return "push"
    return "wins" if wins == 1 else f"wins, paying {_show(pays)}"


def _show(pays: Fraction) -> int | float:
    return int(pays) if pays.denominator == 1 else float(pays)


def ca_summary(
    bet: Bet | str, shoe: CompositionLike | SuitedShoe = 8, tableau: Tableau = PUNTO_BANCO, decks: int | None = None
) -> CATable:
    """The combinatorial analysis of ``bet`` on ``shoe``: rows and summary.

    Parameters
    ----------
    bet, shoe, tableau, decks
        As :func:`ca_table`.

    Returns
    -------
    CATable
    """
    bet = get_bet(bet) if isinstance(bet, str) else bet
    if not isinstance(bet, Bet):
        raise TypeError(f"bet must be a Bet or a bet name, got {type(bet).__name__} {bet!r}")
    stats = bet_stats(bet, shoe, tableau, exact=True, decks=decks)  # type: ignore[arg-type]
    n = _total(shoe)
    total = perm(n, 6)
    rows = []
    payouts = {**_pay_rows(bet), **stats.payouts}  # a pay row that cannot happen on this shoe: 0 combinations
    wins = sum(1 for pays in payouts if pays > 0)
    for pays, p in sorted(payouts.items(), key=lambda kv: -kv[0]):
        combos = p * total
        rows.append(
            {
                "outcome": _label(bet, pays, wins),
                "pays": _show(pays),
                "combinations": int(combos) if combos.denominator == 1 else float(combos),
                "probability": float(p),
                "return": float(pays * p),
            }
        )
    ev: Fraction = stats.exact_expected_value  # type: ignore[assignment]
    second = sum((k * k * v for k, v in stats.payouts.items()), Fraction(0))
    frame = pl.DataFrame(rows, schema_overrides={"combinations": pl.Int128} if _integral(rows) else None)
    return CATable(
        bet=bet.name,
        rows=frame,
        house_edge=float(-ev),
        std_dev=sqrt(max(float(second - ev * ev), 0.0)),
        hit_frequency=stats.hit_frequency,
        total_combinations=total,
    )


def _pay_rows(bet: Bet) -> dict[Fraction, Fraction]:
    """Every payout the bet's pay-table rows name, at probability 0 (the engine's figures replace those that occur)."""
    out: dict[Fraction, Fraction] = {}
    for _, value in bet.events:
        try:
            out[Fraction(value)] = Fraction(0)
        except (TypeError, ValueError):  # a row whose payout is not one number (none of the built bets)
            continue
    return out


def _integral(rows: list[dict]) -> bool:
    return all(isinstance(r["combinations"], int) for r in rows)


def _total(shoe: object) -> int:
    from toolkit.coup.cards import Composition

    if isinstance(shoe, SuitedShoe):
        return shoe.total
    return Composition.from_any(shoe).total  # type: ignore[arg-type]


def ca_table(
    bet: Bet | str, shoe: CompositionLike | SuitedShoe = 8, tableau: Tableau = PUNTO_BANCO, decks: int | None = None
) -> pl.DataFrame:
    """The combinatorial-analysis table of a bet as a polars frame.

    Parameters
    ----------
    bet
        A bet or the name of one (:func:`toolkit.bets.paytable.bet_names`).
    shoe
        The cards left (a :class:`~toolkit.coup.SuitedShoe` for a bet on suits, or a shoe by rank).
    tableau
        Drawing rules.
    decks
        For a bet on suits priced on a shoe by rank: the decks its suits come from.

    Returns
    -------
    polars.DataFrame
        Columns ``outcome, pays, combinations, probability, return``, highest
        payout first; combinations are exact integers (ordered six-card
        convention) summing to ``(N)_6``; the returns sum to the expected value.
        :func:`ca_summary` adds the house edge, SD and hit frequency.

    References
    ----------
    The Wizard of Odds, "Baccarat" and its side-bet pages, for the table and the six-card convention.
    """
    return ca_summary(bet, shoe, tableau, decks).rows
