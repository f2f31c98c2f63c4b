"""The 55 two-card hands by value and the columns of Banker's information (both games).

Cards are compared by value (tens and faces are 0), so a two-card hand is an
unordered pair of values ``i <= j``: 55 hands.  Banker's information about a
Player hand is a *column*: the value 0..9 of its third card, or
:data:`toolkit.coup.step.PLAYER_STOOD` (10) when it stood; baccarat banque adds a
column for a hand settled by a natural (:data:`toolkit.games.banque.BANQUE_NATURAL`).

>>> hand_label(int(hand_index()[5, 0])), int(HAND_TOTALS[hand_index()[7, 8]])
('0+5', 5)
>>> third_column("stood") == PLAYER_STOOD, third_label(9)
(True, '9')
"""

from __future__ import annotations

import numpy as np

from toolkit.coup.step import PLAYER_STOOD

__all__ = ["HANDS", "HAND_TOTALS", "hand_index", "hand_label", "third_column", "third_label"]

#: The 55 two-card hands by value, as unordered pairs ``(i, j)`` with ``i <= j``.
HANDS: tuple[tuple[int, int], ...] = tuple((i, j) for i in range(10) for j in range(i, 10))
#: Two-card total of each hand in :data:`HANDS`.
HAND_TOTALS: np.ndarray = np.array([(i + j) % 10 for i, j in HANDS])


def hand_index() -> np.ndarray:
    """``(10, 10)`` index into :data:`HANDS` of the ordered pair of values ``(a, b)``."""
    out = np.zeros((10, 10), dtype=np.int64)
    for k, (i, j) in enumerate(HANDS):
        out[i, j] = out[j, i] = k
    return out


def hand_label(k: int) -> str:
    """``"0+5"``: the values of hand ``k`` (tens and faces are 0)."""
    i, j = HANDS[k]
    return f"{i}+{j}"


def third_column(third: object) -> int:
    """The column of Player's third card: its value 0..9, or :data:`PLAYER_STOOD` for ``None``/``"stood"``."""
    if third is None or (isinstance(third, str) and third.strip().lower() == "stood"):
        return PLAYER_STOOD
    if isinstance(third, bool) or not isinstance(third, (int, np.integer)) or not 0 <= third <= 9:
        raise ValueError(f"Player's third card must be a value 0..9 or None/'stood', got {third!r}")
    return int(third)


def third_label(col: int) -> str:
    """``"stood"`` for :data:`PLAYER_STOOD`, else the third card's value."""
    return "stood" if col == PLAYER_STOOD else str(col)
