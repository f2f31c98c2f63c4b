"""Strategies of chemin de fer: Player's probability of drawing on each hand, Banker's in each information set.

Both are behaviour strategies (Kuhn's theorem lets them stand for mixed
strategies): exact :class:`~fractions.Fraction` probabilities, one per
two-card hand for Player and one per (hand, Player's third card or "stood")
for Banker.  Player must draw on 0-4 and stand on 6-7 and chooses at 5 (the
rule as Kemeny & Snell 1957 and Ethier & Gámez 2013 model it); a strategy
that breaks it makes false draws (:data:`~toolkit.games.chemin.models.FALSE_DRAW_RULES`).

>>> restricted_banker(0, 1).draw_by_total(3, 9), restricted_banker(0, 1).draw_by_total(5, 4)
(Fraction(0, 1), Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import polars as pl

from toolkit._check import probability
from toolkit.coup.cards import RANK_VALUES, parse_card
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.games._hands import HAND_TOTALS, hand_index, hand_label, third_column, third_label
from toolkit.games.chemin.models import RESTRICTED_BANKER_OPTIONS

__all__ = ["BankerStrategy", "PlayerStrategy", "restricted_banker"]


def _hand_key(hand: object) -> int:
    """Index in HANDS of ``(i, j)``, ``"i+j"`` or two card strings such as ``"K5"``."""
    if isinstance(hand, str):
        text = hand.replace(" ", "")
        parts = text.split("+") if "+" in text else list(text)
        try:
            values = [int(p) if p.isdigit() else RANK_VALUES[parse_card(p)] for p in parts]
        except (KeyError, ValueError):
            raise ValueError(f"cannot read the hand {hand!r}: write it as '0+5' or 'K5'") from None
    elif isinstance(hand, tuple | list):
        values = [int(v) for v in hand]
    else:
        raise TypeError(f"a hand must be '0+5', 'K5' or a pair of values, not {type(hand).__name__} {hand!r}")
    if len(values) != 2 or not all(0 <= v <= 9 for v in values):
        raise ValueError(f"a hand is two card values 0..9, got {hand!r}")
    return int(hand_index()[values[0] % 10, values[1] % 10])


def _strategy_repr(kind: str, name: str, cells: list[Fraction], what: str = "hands") -> str:
    draws = sum(1 for p in cells if p == 1)
    stands = sum(1 for p in cells if p == 0)
    return f"{kind}({name!r}: draws on {draws}, stands on {stands}, mixes on {len(cells) - draws - stands} {what})"


@dataclass(frozen=True)
class PlayerStrategy:
    """Player's probability of drawing on each two-card hand.

    Attributes
    ----------
    draw
        55 probabilities, one per hand of :data:`toolkit.games._hands.HANDS`
        (unordered pairs of values ``0+0, 0+1, ..., 9+9``); the entries of
        naturals are ignored.  The legal strategies draw on 0-4 and stand on
        6-7; others make false draws (see :data:`FALSE_DRAW_RULES`).
    name
        A label for tables.
    """

    draw: tuple[Fraction, ...]
    name: str = "player"

    def __repr__(self) -> str:
        """The name and how many hands Player draws, stands or mixes on (:meth:`frame` lists them)."""
        return _strategy_repr("PlayerStrategy", self.name, [p for k, p in enumerate(self.draw) if HAND_TOTALS[k] < 8])

    def __post_init__(self) -> None:
        draw = tuple(self.draw)
        if len(draw) != 55:
            raise ValueError(f"PlayerStrategy.draw needs 55 probabilities (one per two-card hand), got {len(draw)}")
        clean = tuple(probability(p, f"PlayerStrategy.draw[{hand_label(k)}]") for k, p in enumerate(draw))
        object.__setattr__(self, "draw", clean)

    @classmethod
    def from_totals(cls, draw: Iterable[object], name: str | None = None) -> PlayerStrategy:
        """From 10 probabilities of drawing by two-card total 0..9 (8 and 9 are ignored)."""
        probs = list(draw)
        if len(probs) != 10:
            raise ValueError(f"PlayerStrategy.from_totals needs 10 probabilities (totals 0..9), got {len(probs)}")
        return cls(
            tuple(probability(probs[int(HAND_TOTALS[k])], "PlayerStrategy.from_totals") for k in range(55)),
            name or "player by total",
        )

    @classmethod
    def at_five(cls, p: object = 1, name: str | None = None) -> PlayerStrategy:
        """Draw on 0-4, stand on 6-7, and draw on 5 with probability ``p`` (1: the punto banco rule).

        >>> PlayerStrategy.at_five("9/11").draw_at_5
        Fraction(9, 11)
        """
        prob = probability(p, "probability of drawing at 5")
        return cls.from_totals([1, 1, 1, 1, 1, prob, 0, 0, 0, 0], name or f"draw at 5 with p={prob}")

    @classmethod
    def from_hands(
        cls, at_five: Mapping[object, object], default: object = 1, name: str | None = None
    ) -> PlayerStrategy:
        """Forced play on 0-4 and 6-7; on 5, ``at_five[hand]`` for the hands given (``"0+5"``, ``"K5"``...)."""
        base = list(cls.at_five(default).draw)
        for hand, p in at_five.items():
            k = _hand_key(hand)
            if HAND_TOTALS[k] != 5:
                raise ValueError(f"hand {hand!r} totals {HAND_TOTALS[k]}, not 5: Player's only choice is at 5")
            base[k] = probability(p, f"probability of drawing on {hand!r}")
        return cls(tuple(base), name or "player by hand")

    @property
    def draw_at_5(self) -> Fraction | None:
        """The probability of drawing on 5 when it is the same for every hand of total 5, else ``None``."""
        values = {self.draw[k] for k in range(55) if HAND_TOTALS[k] == 5}
        return values.pop() if len(values) == 1 else None

    @property
    def is_legal(self) -> bool:
        """Whether the strategy keeps the convention (draw on 0-4, stand on 6-7)."""
        return all(
            self.draw[k] == (1 if HAND_TOTALS[k] <= 4 else 0)
            for k in range(55)
            if HAND_TOTALS[k] in (0, 1, 2, 3, 4, 6, 7)
        )

    def array(self) -> np.ndarray:
        """The 55 probabilities as float64."""
        return np.array([float(p) for p in self.draw])

    def frame(self) -> pl.DataFrame:
        """The hands of total 5 and their probabilities of drawing."""
        rows = [
            {
                "hand": hand_label(k),
                "total": 5,
                "draw_probability": float(self.draw[k]),
                "draw_exact": str(self.draw[k]),
            }
            for k in range(55)
            if HAND_TOTALS[k] == 5
        ]
        return pl.DataFrame(rows)


@dataclass(frozen=True)
class BankerStrategy:
    """Banker's probability of drawing in each information set.

    Attributes
    ----------
    draw
        55 rows (Banker's two-card hand, as in :class:`PlayerStrategy`) of 11
        probabilities: Player's third card 0..9, then "Player stood"; rows of
        naturals are ignored.
    name
        A label for tables.
    """

    draw: tuple[tuple[Fraction, ...], ...]
    name: str = "banker"

    def __repr__(self) -> str:
        """The name and how many information sets Banker draws, stands or mixes in (:meth:`frame` lists them)."""
        cells = [p for k, row in enumerate(self.draw) if HAND_TOTALS[k] < 8 for p in row]
        return _strategy_repr("BankerStrategy", self.name, cells, "information sets")

    def __post_init__(self) -> None:
        rows = tuple(tuple(r) for r in self.draw)
        if len(rows) != 55 or any(len(r) != 11 for r in rows):
            raise ValueError(
                "BankerStrategy.draw needs 55 rows (two-card hands) of 11 entries (third card 0..9, stood)"
            )
        clean = tuple(
            tuple(probability(p, f"BankerStrategy.draw[{hand_label(k)}][{third_label(c)}]") for c, p in enumerate(r))
            for k, r in enumerate(rows)
        )
        object.__setattr__(self, "draw", clean)

    @classmethod
    def from_totals(cls, draw: Iterable[Iterable[object]], name: str | None = None) -> BankerStrategy:
        """From 10 rows (Banker's total 0..9) of 11 probabilities (third card 0..9, stood)."""
        rows = [list(r) for r in draw]
        if len(rows) != 10 or any(len(r) != 11 for r in rows):
            raise ValueError("BankerStrategy.from_totals needs 10 rows (totals 0..9) of 11 entries")
        return cls(
            tuple(
                tuple(probability(p, "BankerStrategy.from_totals") for p in rows[int(HAND_TOTALS[k])])
                for k in range(55)
            ),
            name or "banker by total",
        )

    @classmethod
    def from_tableau(cls, tableau: Tableau = PUNTO_BANCO, name: str | None = None) -> BankerStrategy:
        """Banker plays a fixed tableau (by default the punto banco one)."""
        return cls.from_totals([[int(d) for d in row] for row in tableau.banker], name or f"{tableau.name} tableau")

    def with_cells(self, cells: Mapping[tuple[int, object], object], name: str | None = None) -> BankerStrategy:
        """A copy with Banker's probability changed in cells ``(total, third)`` (``third`` None: Player stood).

        >>> b = BankerStrategy.from_tableau().with_cells({(3, 9): 0})
        >>> b.draw_by_total(3, 9), b.draw_by_total(3, 8)
        (Fraction(0, 1), Fraction(0, 1))
        """
        rows = [list(r) for r in self.draw]
        for (total, third), p in cells.items():
            if not 0 <= int(total) <= 7:
                raise ValueError(f"Banker's total must be 0..7 (8 and 9 are naturals), got {total!r}")
            col = third_column(third)
            prob = probability(p, f"probability of drawing at ({total}, {third_label(col)})")
            for k in range(55):
                if HAND_TOTALS[k] == total:
                    rows[k][col] = prob
        return BankerStrategy(tuple(tuple(r) for r in rows), name or f"{self.name} (modified)")

    def draw_by_total(self, total: int, third: object) -> Fraction | None:
        """Probability of drawing at ``(total, third)`` when it is the same for every hand of that total."""
        col = third_column(third)
        values = {self.draw[k][col] for k in range(55) if HAND_TOTALS[k] == total}
        return values.pop() if len(values) == 1 else None

    def array(self) -> np.ndarray:
        """``(55, 11)`` float64 probabilities."""
        return np.array([[float(p) for p in r] for r in self.draw])


def restricted_banker(draw_3_9: object = 1, draw_5_4: object = 1) -> BankerStrategy:
    """The punto banco tableau with the casino's restricted Banker options set.

    The two options are :data:`~toolkit.games.chemin.models.RESTRICTED_BANKER_OPTIONS`.

    Parameters
    ----------
    draw_3_9
        Probability that Banker draws at 3 against a Player third card 9.
    draw_5_4
        Probability that Banker draws at 5 against a 4.

    Returns
    -------
    BankerStrategy
        The strategy.

    Examples
    --------
    >>> restricted_banker(0, 1).name
    'restricted banker'
    """
    (c39, c54) = RESTRICTED_BANKER_OPTIONS
    return BankerStrategy.from_tableau().with_cells({c39: draw_3_9, c54: draw_5_4}, name="restricted banker")
