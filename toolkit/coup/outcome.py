"""Outcome classes of one coup: the finest description any bet needs.

A coup ends in one of 1,600 *classes*: Player's and Banker's final totals
(0..9), how many cards each hand holds (2 or 3), and whether each hand's first
two cards are a pair (same rank).  Naturals, the winner, the margin and the
number of cards dealt all follow from these fields, so any bet on a coup is a
pay table over the classes (many classes cannot occur; their payout never
matters).

Class index: ``((((pt * 10 + bt) * 2 + pc - 2) * 2 + bc - 2) * 2 + pp) * 2 + bp``.

>>> o = Outcome.from_index(class_index(8, 3, 2, 3, False, False))
>>> o.winner, o.player_natural, o.margin
('player', True, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl

__all__ = ["N_CLASSES", "Outcome", "class_index", "outcome_frame", "outcomes"]

N_CLASSES = 1600
N_MAIN = 400


def class_index(player_total, banker_total, player_cards, banker_cards, player_pair, banker_pair):
    """Index (0..1599) of an outcome class; works elementwise on numpy arrays too.

    Parameters
    ----------
    player_total, banker_total
        Final totals 0..9.
    player_cards, banker_cards
        Cards in each hand, 2 or 3.
    player_pair, banker_pair
        Whether each hand's first two cards share a rank.

    Examples
    --------
    >>> class_index(0, 0, 2, 2, False, False), class_index(9, 9, 3, 3, True, True)
    (0, 1599)
    """
    main = ((player_total * 10 + banker_total) * 2 + player_cards - 2) * 2 + banker_cards - 2
    return (main * 2 + (player_pair * 1)) * 2 + (banker_pair * 1)


@dataclass(frozen=True)
class Outcome:
    """One outcome class of a coup, with the derived quantities bets look at.

    Attributes
    ----------
    player_total, banker_total
        Final totals 0..9.
    player_cards, banker_cards
        Cards in each hand (2 or 3).
    player_pair, banker_pair
        Whether each hand's first two cards share a rank.
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_pair: bool
    banker_pair: bool

    @classmethod
    def from_index(cls, index: int) -> Outcome:
        """The outcome class of index ``index`` (0..1599)."""
        if not 0 <= index < N_CLASSES:
            raise ValueError(f"outcome class index must be 0..{N_CLASSES - 1}, got {index}")
        bp, index = index % 2, index // 2
        pp, index = index % 2, index // 2
        bc, index = index % 2 + 2, index // 2
        pc, index = index % 2 + 2, index // 2
        bt, pt = index % 10, index // 10
        return cls(pt, bt, pc, bc, bool(pp), bool(bp))

    @property
    def index(self) -> int:
        """This class's index (0..1599)."""
        return class_index(
            self.player_total,
            self.banker_total,
            self.player_cards,
            self.banker_cards,
            self.player_pair,
            self.banker_pair,
        )

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``."""
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"

    @property
    def player_natural(self) -> bool:
        """Player's first two cards total 8 or 9."""
        return self.player_cards == 2 and self.player_total >= 8

    @property
    def banker_natural(self) -> bool:
        """Banker's first two cards total 8 or 9."""
        return self.banker_cards == 2 and self.banker_total >= 8

    @property
    def natural(self) -> bool:
        """Either hand is a natural (the coup stopped after four cards)."""
        return self.player_natural or self.banker_natural

    @property
    def margin(self) -> int:
        """Winning total minus losing total (0 for a tie)."""
        return abs(self.player_total - self.banker_total)

    @property
    def cards_dealt(self) -> int:
        """Cards used by the coup (4, 5 or 6)."""
        return self.player_cards + self.banker_cards


@lru_cache(maxsize=1)
def outcomes() -> tuple[Outcome, ...]:
    """All 1,600 outcome classes in index order."""
    return tuple(Outcome.from_index(i) for i in range(N_CLASSES))


@lru_cache(maxsize=1)
def _outcome_columns() -> dict[str, np.ndarray]:
    rows = outcomes()
    return {
        "class": np.arange(N_CLASSES),
        "player_total": np.array([o.player_total for o in rows]),
        "banker_total": np.array([o.banker_total for o in rows]),
        "player_cards": np.array([o.player_cards for o in rows]),
        "banker_cards": np.array([o.banker_cards for o in rows]),
        "player_pair": np.array([o.player_pair for o in rows]),
        "banker_pair": np.array([o.banker_pair for o in rows]),
        "winner": np.array([o.winner for o in rows]),
        "player_natural": np.array([o.player_natural for o in rows]),
        "banker_natural": np.array([o.banker_natural for o in rows]),
        "natural": np.array([o.natural for o in rows]),
        "margin": np.array([o.margin for o in rows]),
        "cards_dealt": np.array([o.cards_dealt for o in rows]),
    }


def outcome_frame() -> pl.DataFrame:
    """The outcome classes as a polars frame, one row per class.

    Columns: ``class, player_total, banker_total, player_cards, banker_cards,
    player_pair, banker_pair, winner, player_natural, banker_natural, natural,
    margin, cards_dealt``.  Use it to define a bet with a polars expression
    (:meth:`toolkit.bets.paytable.Bet.from_expr`).

    Returns
    -------
    polars.DataFrame
        1,600 rows.

    Examples
    --------
    >>> outcome_frame().height
    1600
    """
    import polars as pl  # loaded here, so that the options of a deal load without it

    return pl.DataFrame(_outcome_columns())
