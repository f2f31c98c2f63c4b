"""The wording the report and the reproduced figures share: the labels of the bets, percentages, rarities.

>>> bet_label("natural9"), bet_group("natural9"), pct(0.0123, 2), one_in(0.002)
('Natural 9', 'naturals', '1.23 %', '1 hand in 500')
"""

from __future__ import annotations

import math

__all__ = ["BET_GROUPS", "bet_group", "bet_label", "by_family", "complement", "in_words", "one_in", "pct"]

#: How the report groups the panel, and the label of each bet.
BET_GROUPS: dict[str, tuple[str, str]] = {
    "banker": ("main bets", "Banker"),
    "player": ("main bets", "Player"),
    "super6_banker": ("main bets", "Banker, Super 6"),
    "ez_banker": ("main bets", "Banker, EZ"),
    "tie": ("Tie", "Tie 8:1"),
    "tie_9to1": ("Tie", "Tie 9:1"),
    "natural8": ("naturals", "Natural 8"),
    "natural9": ("naturals", "Natural 9"),
    "dragon7": ("Dragon 7", "Dragon 7"),
    "panda8": ("Panda 8", "Panda 8"),
    "player_pair": ("pairs", "Player Pair"),
    "banker_pair": ("pairs", "Banker Pair"),
    "either_pair": ("pairs", "Either Pair"),
    "dragon_bonus_player": ("other side bets", "Dragon Bonus, Player"),
    "dragon_bonus_banker": ("other side bets", "Dragon Bonus, Banker"),
    "big": ("other side bets", "Big"),
    "small": ("other side bets", "Small"),
}


def bet_label(bet: str) -> str:
    """The label of a bet in the report (its name when it has none)."""
    return BET_GROUPS.get(bet, ("other", bet))[1]


def by_family(bets: list[str] | tuple[str, ...]) -> list[str]:
    """The bets in the order of :data:`BET_GROUPS` (families together; unknown bets last, as given).

    >>> by_family(["dragon7", "tie", "banker", "mystery", "tie_9to1"])
    ['banker', 'tie', 'tie_9to1', 'dragon7', 'mystery']
    """
    order = {b: i for i, b in enumerate(BET_GROUPS)}
    return sorted(bets, key=lambda b: order.get(b, len(order)))


def in_words(bet: str) -> str:
    """A bet's label for a sentence: ``"Dragon Bonus (Player)"`` for ``"Dragon Bonus, Player"``.

    >>> in_words("super6_banker"), in_words("tie")
    ('Banker (Super 6)', 'Tie 8:1')
    """
    label = bet_label(bet)
    head, _, tail = label.partition(", ")
    return f"{head} ({tail})" if tail else label


def bet_group(bet: str) -> str:
    """The group of a bet in the report (``"other"`` when it has none)."""
    return BET_GROUPS.get(bet, ("other", bet))[0]


def pct(x: float | None, digits: int = 1) -> str:
    """A share as a percentage, ``"n/a"`` when missing."""
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f} %"


def complement(x: float | None) -> float | None:
    """``1 - x`` (``None`` stays ``None``)."""
    return None if x is None else 1 - x


def one_in(p: float | None) -> str:
    """A rate as "1 hand in N" (``"never"`` when zero or missing)."""
    if not p:
        return "never"
    return f"1 hand in {1 / p:,.0f}"
