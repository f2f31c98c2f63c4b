"""The drawing rules (tableau) and the house rules of a game, held as data.

The punto banco tableau, as casinos print it (the Wizard of Odds, "Baccarat"; Thorp 1984, ch. 3):

* Either hand with a two-card total of 8 or 9 is a *natural*: nobody draws.
* Player draws on 0-5 and stands on 6-7.
* If Player stood, Banker draws on 0-5 and stands on 6-7.
* If Player drew, Banker's action depends on his total and the value of
  Player's third card:

  ======  =========================================
  Banker  draws when Player's third card is
  ======  =========================================
  0-2     anything
  3       anything but an 8
  4       2-7
  5       4-7
  6       6-7
  7       never (stands)
  ======  =========================================

:class:`Tableau` stores this as two boolean tables so that variants can change
single cells (e.g. the chemin de fer options).

>>> PUNTO_BANCO.banker_draws(3, 8), PUNTO_BANCO.banker_draws(6, None)
(False, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from toolkit._check import as_fraction, positive_int
from toolkit._show import changed_fields

__all__ = ["MAX_TIE_PAYS", "PUNTO_BANCO", "Rules", "Tableau", "as_fraction"]

#: Column of :attr:`Tableau.banker` used when Player stood (took no third card).
PLAYER_STOOD = 10


def _punto_banco_player() -> tuple[bool, ...]:
    return tuple(t <= 5 for t in range(10))


def _punto_banco_banker() -> tuple[tuple[bool, ...], ...]:
    rows = []
    for total in range(10):
        row = []
        for third in range(10):
            if total <= 2:
                draw = True
            elif total == 3:
                draw = third != 8
            elif total == 4:
                draw = 2 <= third <= 7
            elif total == 5:
                draw = 4 <= third <= 7
            elif total == 6:
                draw = third in (6, 7)
            else:
                draw = False
            row.append(draw)
        row.append(total <= 5)  # Player stood
        rows.append(tuple(row))
    return tuple(rows)


@dataclass(frozen=True)
class Tableau:
    """Drawing rules, for hands that are not naturals.

    Attributes
    ----------
    player
        ``player[t]``: whether Player draws on a two-card total ``t`` (0..9).
    banker
        ``banker[t][c]``: whether Banker draws on two-card total ``t`` when
        Player's third card has value ``c`` (0..9); column 10 is "Player stood".
    name
        A label for tables and plots.
    """

    player: tuple[bool, ...] = field(default_factory=_punto_banco_player)
    banker: tuple[tuple[bool, ...], ...] = field(default_factory=_punto_banco_banker)
    name: str = "punto banco"

    def __post_init__(self) -> None:
        player = tuple(bool(x) for x in self.player)
        banker = tuple(tuple(bool(x) for x in row) for row in self.banker)
        if len(player) != 10:
            raise ValueError(f"Tableau.player needs 10 entries (totals 0..9), got {len(player)}")
        if len(banker) != 10 or any(len(row) != 11 for row in banker):
            raise ValueError("Tableau.banker needs 10 rows (totals 0..9) of 11 entries (third card 0..9, stood)")
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "banker", banker)

    def __repr__(self) -> str:
        """``Tableau()`` for punto banco; else its name and the cells that differ from punto banco.

        >>> Tableau()
        Tableau()
        >>> Tableau().with_banker(5, None, False, name="banker stands on 5")
        Tableau(name='banker stands on 5', differs in banker[5][stood])
        """
        player, banker = _punto_banco_player(), _punto_banco_banker()
        cells = [f"player[{t}]" for t in range(10) if self.player[t] != player[t]]
        cells += [
            f"banker[{t}][{'stood' if c == PLAYER_STOOD else c}]"
            for t in range(10)
            for c in range(11)
            if self.banker[t][c] != banker[t][c]
        ]
        parts = [] if self.name == "punto banco" else [f"name={self.name!r}"]
        if cells:
            shown = ", ".join(cells[:4]) + (f" and {len(cells) - 4} more" if len(cells) > 4 else "")
            parts.append(f"differs in {shown}")
        return f"Tableau({', '.join(parts)})"

    def player_draws(self, total: int) -> bool:
        """Whether Player draws on two-card ``total`` (no natural on the table)."""
        return self.player[total]

    def banker_draws(self, total: int, player_third: int | None) -> bool:
        """Whether Banker draws on ``total`` given Player's third card value (``None``: Player stood)."""
        return self.banker[total][PLAYER_STOOD if player_third is None else player_third]

    def with_banker(self, total: int, player_third: int | None, draws: bool, name: str | None = None) -> Tableau:
        """A copy with one Banker cell changed (``player_third=None`` for "Player stood")."""
        rows = [list(row) for row in self.banker]
        rows[total][PLAYER_STOOD if player_third is None else player_third] = draws
        return replace(self, banker=tuple(tuple(r) for r in rows), name=name or f"{self.name} (modified)")

    def with_player(self, total: int, draws: bool, name: str | None = None) -> Tableau:
        """A copy with Player's action on one total changed."""
        player = list(self.player)
        player[total] = draws
        return replace(self, player=tuple(player), name=name or f"{self.name} (modified)")


#: The forced punto banco tableau.
PUNTO_BANCO = Tableau()


#: The largest Tie payout accepted (to one): the exact odds hold any, but a float of the expected
#: value overflows beyond about 1e300, and no table pays more than a few dozen to one.
MAX_TIE_PAYS = 1_000_000


def _number(value: object, where: str) -> Fraction:
    try:
        return as_fraction(value)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{where}: {err}") from None


def _shown(value: object, exact: Fraction) -> str:
    """``value`` for a message: as given when short, else in scientific notation (a 400-digit number is not)."""
    text = repr(value)
    if len(text) <= 40:
        return text
    from decimal import Decimal

    return f"{Decimal(exact.numerator) / Decimal(exact.denominator):.3e}"


@dataclass(frozen=True)
class Rules:
    """House rules of a punto banco table.

    Attributes
    ----------
    decks
        Number of 52-card decks in a fresh shoe.
    commission
        Commission taken from winning Banker bets (0.05: a win pays 0.95).
    tie_pays
        Payout of the Tie bet, to one (8 or 9).
    tableau
        Drawing rules.
    """

    decks: int = 8
    commission: Fraction = Fraction(1, 20)
    tie_pays: Fraction = Fraction(8)
    tableau: Tableau = PUNTO_BANCO

    def __post_init__(self) -> None:
        object.__setattr__(self, "decks", positive_int(self.decks, "Rules.decks"))
        commission = _number(self.commission, "Rules.commission")
        if not 0 <= commission < 1:
            raise ValueError(f"Rules.commission must be in [0, 1), got {self.commission!r}")
        tie = _number(self.tie_pays, "Rules.tie_pays")
        if not 0 < tie <= MAX_TIE_PAYS:
            raise ValueError(
                f"Rules.tie_pays must be positive and at most {MAX_TIE_PAYS:,} to one, got {_shown(self.tie_pays, tie)}"
            )
        if not isinstance(self.tableau, Tableau):
            raise TypeError(f"Rules.tableau must be a Tableau, got {type(self.tableau).__name__} {self.tableau!r}")
        object.__setattr__(self, "commission", commission)
        object.__setattr__(self, "tie_pays", tie)

    def __repr__(self) -> str:
        """Only the fields that differ from the defaults.

        >>> Rules(), Rules(decks=6, tie_pays=9)
        (Rules(), Rules(decks=6, tie_pays=9))
        """
        return changed_fields(self)
