"""The dealing rules, written once: burn count, tableau step and end-of-shoe (last-hand) rule.

Every part of the toolkit that deals cards uses these functions: simulated
dealing (:mod:`toolkit.dealing.deal`), the rebuilding of recorded shoes and their
validation (:mod:`toolkit.records`), and the shoe walks of chemin de fer and
baccarat banque (:mod:`toolkit.games`).  They are compiled with numba and are
also plain Python callables, so the kernels and the readable code call the
same rule.

The options (burn, last hand, hidden burn) are the plain enums of
:mod:`toolkit.coup.options`; the kernels take their integer :func:`~toolkit.coup.options.code`.

numba's on-disk cache keys a compiled kernel by its own source file only: after
editing this module, delete the ``*.nbi`` and ``*.nbc`` files of the kernels
that call it (``toolkit/__pycache__``, ``toolkit/records/__pycache__``, ...),
or they keep the old rules.

>>> burn_count(9, 1), burn_count(0, 11), burn_count(4, 1)  # a ten, an ace burning 11, a five
(10, 11, 5)
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.options import (
    BURN_FIXED,
    BURN_STANDARD,
    HIDDEN_AUTO,
    HIDDEN_LISTED,
    LAST_FINISH,
    LAST_SEVEN_CARDS,
)
from toolkit.coup.rules import PLAYER_STOOD

__all__ = [
    "BANKER_1",
    "BANKER_2",
    "BANKER_3",
    "MIN_COUP_CARDS",
    "PLAYER_1",
    "PLAYER_2",
    "PLAYER_3",
    "PLAYER_STOOD",
    "SEVEN_CARD_MINIMUM",
    "CoupRows",
    "ShoeRows",
    "Tables",
    "banker_draws",
    "burn_count",
    "coup_buffers",
    "cut_card_after",
    "enough_cards",
    "face_down_count",
    "face_down_listed",
    "is_natural",
    "may_start",
    "next_slot",
    "player_draws",
    "record_coup",
    "two_card_totals",
]


#: A coup may use six cards: no coup starts with fewer left, whatever the rule.
MIN_COUP_CARDS = 6
#: The chemin de fer minimum: no coup starts with fewer than seven cards left.
SEVEN_CARD_MINIMUM = 7

_VALUES = np.array(RANK_VALUES, dtype=np.int64)


# ---------------------------------------------------------------------------- burn
@numba.njit(cache=True)
def burn_count(rank: int, burn_ace: int) -> int:  # pragma: no cover - compiled
    """Cards burned face down after the exposed first card ``rank`` (rank index, 0 = ace).

    Its value: 10 for a ten or a face card, ``burn_ace`` (1 or 11) for an ace.
    """
    if rank == 0:
        return burn_ace
    v = _VALUES[rank]
    return 10 if v == 0 else v


@numba.njit(cache=True)
def face_down_count(burn_mode: int, first_rank: int, burn_ace: int, burn_fixed: int) -> int:  # pragma: no cover
    """Cards burned face down under the burn rule ``burn_mode`` (its :func:`code`).

    ``first_rank`` is the first card of the shoe, exposed under the standard
    burn (:func:`burn_count`); a fixed burn puts ``burn_fixed`` cards face down.
    """
    if burn_mode == BURN_STANDARD:
        return burn_count(first_rank, burn_ace)
    if burn_mode == BURN_FIXED:
        return burn_fixed
    return 0


@numba.njit(cache=True)
def face_down_listed(hidden: int, whole_shoe: bool) -> bool:  # pragma: no cover - compiled
    """Whether a card-level record lists the face-down burned cards, by its ``hidden`` rule (a :func:`code`).

    ``whole_shoe``: the record holds every card of the shoe (then ``auto`` lists them).
    """
    return hidden == HIDDEN_LISTED or (hidden == HIDDEN_AUTO and whole_shoe)


# ------------------------------------------------------------------ tableau step
@numba.njit(cache=True)
def is_natural(player_total: int, banker_total: int) -> bool:  # pragma: no cover - compiled
    """Whether either two-card total is a natural (8 or 9): then nobody draws."""
    return player_total >= 8 or banker_total >= 8


@numba.njit(cache=True)
def player_draws(player_total: int, banker_total: int, player_table: np.ndarray) -> bool:  # pragma: no cover
    """Whether Player takes a third card: no natural, and the tableau says so for his total."""
    return not is_natural(player_total, banker_total) and player_table[player_total]


@numba.njit(cache=True)
def banker_draws(
    player_total: int, banker_total: int, player_third: int, banker_table: np.ndarray
) -> bool:  # pragma: no cover - compiled
    """Whether Banker takes a third card; ``player_third`` is the value of Player's third card, -1 if he stood."""
    if is_natural(player_total, banker_total):
        return False
    return banker_table[banker_total, PLAYER_STOOD if player_third < 0 else player_third]


# ------------------------------------------------------------------ the coup step
#: The slots of a coup's six cards (the columns of ``DealtShoes.cards``): Player's three, then Banker's.
PLAYER_1, PLAYER_2, PLAYER_3, BANKER_1, BANKER_2, BANKER_3 = range(6)
#: The order the first four cards are dealt in: Player, Banker, Player, Banker.
_FIRST_FOUR = (PLAYER_1, BANKER_1, PLAYER_2, BANKER_2)


class Tables(NamedTuple):
    """The tableau as the kernels read it: Player's draw by total, Banker's by total and Player's third card."""

    player: np.ndarray
    banker: np.ndarray


@numba.njit(cache=True)
def two_card_totals(row: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """Player's and Banker's two-card totals from a coup's cards by slot (``row``, rank indices)."""
    return (_VALUES[row[PLAYER_1]] + _VALUES[row[PLAYER_2]]) % 10, (
        _VALUES[row[BANKER_1]] + _VALUES[row[BANKER_2]]
    ) % 10


@numba.njit(cache=True)
def next_slot(row: np.ndarray, tables: Tables) -> int:  # pragma: no cover - compiled
    """The coup step: the slot that takes the coup's next card, or -1 when the coup is complete.

    ``row`` holds the coup's cards so far by slot (rank indices, -1 where none yet). Every
    dealer and checker deals a coup with this one function, card by card: the dealing kernel,
    the rebuilding of recorded shoes and the live tracker.
    """
    for slot in _FIRST_FOUR:
        if row[slot] < 0:
            return slot
    player_total, banker_total = two_card_totals(row)
    if row[BANKER_3] >= 0:
        return -1
    if row[PLAYER_3] < 0:
        if player_draws(player_total, banker_total, tables.player):
            return PLAYER_3
        return BANKER_3 if banker_draws(player_total, banker_total, -1, tables.banker) else -1
    return BANKER_3 if banker_draws(player_total, banker_total, _VALUES[row[PLAYER_3]], tables.banker) else -1


class CoupRows(NamedTuple):
    """The per-coup arrays the dealing kernels fill (the fields of ``DealtShoes``, one row a coup)."""

    shoe: np.ndarray
    coup: np.ndarray
    start: np.ndarray
    cards: np.ndarray
    seen: np.ndarray
    left: np.ndarray
    unseen_count: np.ndarray
    unseen: np.ndarray


class ShoeRows(NamedTuple):
    """The per-shoe arrays: the exposed burn card, how many cards were burned face down, and their ranks."""

    burn_card: np.ndarray
    burned: np.ndarray
    burned_ranks: np.ndarray


def coup_buffers(max_coups: int, n_shoes: int) -> tuple[CoupRows, ShoeRows]:
    """The empty arrays the dealing kernels fill: their widths written once.

    Counts are 32-bit, so no accepted number of decks can wrap them.

    >>> coups, shoes = coup_buffers(100, 2)
    >>> coups.cards.shape, shoes.burned_ranks.shape
    ((100, 6), (2, 13))
    """
    coups = CoupRows(
        shoe=np.empty(max_coups, np.int64),
        coup=np.empty(max_coups, np.int32),
        start=np.empty(max_coups, np.int32),
        cards=np.empty((max_coups, 6), np.int8),
        seen=np.empty(max_coups, np.int32),
        left=np.empty(max_coups, np.int32),
        unseen_count=np.empty(max_coups, np.int32),
        unseen=np.empty((max_coups, 13), np.int32),
    )
    shoes = ShoeRows(
        burn_card=np.empty(n_shoes, np.int8),
        burned=np.empty(n_shoes, np.int32),
        burned_ranks=np.empty((n_shoes, 13), np.int32),
    )
    return coups, shoes


@numba.njit(cache=True)
def record_coup(
    rows: CoupRows,
    out: int,
    shoe: int,
    number: int,
    start: int,
    row: np.ndarray,
    seen: int,
    left: int,
    unseen_count: int,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Write coup ``number`` of ``shoe`` (its cards ``row`` by slot) as row ``out`` of ``rows``.

    ``start`` is its first card's position in the shoe; ``seen``, ``left`` and ``unseen_count`` count
    the cards before it, and ``counts`` is the composition of the unseen cards (what a perfect counter
    knows before the coup).
    """
    rows.shoe[out] = shoe
    rows.coup[out] = number
    rows.start[out] = start
    for slot in range(6):
        rows.cards[out, slot] = row[slot]
    rows.seen[out] = seen
    rows.left[out] = left
    rows.unseen_count[out] = unseen_count
    for r in range(13):
        rows.unseen[out, r] = counts[r]


# ------------------------------------------------------------- end of the shoe
def enough_cards(left: np.ndarray | int, minimum: int) -> np.ndarray | bool:
    """The minimum-cards rule: a coup may start only with at least ``minimum`` cards left.

    Plain comparison, so it serves arrays of shoes (the vectorised shoe walks of
    :mod:`toolkit.games`) and, compiled, the dealing kernels alike.
    """
    return left >= minimum


_enough_cards = numba.njit(cache=True)(enough_cards)


@numba.njit(cache=True)
def may_start(left: int, coups_dealt: int, fixed_coups: int, last_hand: int) -> bool:  # pragma: no cover
    """Before a coup: whether it may be dealt.

    ``left`` cards are left in the shoe and ``coups_dealt`` coups were dealt;
    with ``fixed_coups > 0`` exactly that many coups are dealt, else the
    ``last_hand`` rule (its :func:`code`) decides; under the cut-card rules the
    cut card is handled by :func:`cut_card_after`.
    """
    if not _enough_cards(left, MIN_COUP_CARDS):
        return False
    if fixed_coups > 0:
        return coups_dealt < fixed_coups
    if last_hand == LAST_SEVEN_CARDS:
        return bool(_enough_cards(left, SEVEN_CARD_MINIMUM))
    return True


@numba.njit(cache=True)
def cut_card_after(
    start: int, end: int, cut_position: int, last: bool, last_hand: int, fixed_coups: int = 0
) -> tuple[bool, bool]:  # pragma: no cover - compiled
    """After a coup that used the cards ``start .. end - 1``: ``(stop, last)``.

    ``cut_position`` is where the cut card lies (cards before it); ``last``
    says that this coup was already to be the last one.  Under ``one_more``
    the coup during which the cut card comes out is followed by one more; a
    coup that *starts* at or past the cut card is the last.  Under ``finish``
    the coup during which it comes out is the last.  Under ``seven_cards``, or
    with ``fixed_coups > 0`` coups to deal, the cut card plays no part
    (:func:`may_start` ends the shoe).
    """
    if last_hand == LAST_SEVEN_CARDS or fixed_coups > 0:
        return False, False
    if last:
        return True, True
    if start >= cut_position:  # the cut card came out as the first card of this coup
        return True, True
    if start < cut_position < end:  # it came out during this coup
        if last_hand == LAST_FINISH:
            return True, True
        return False, True
    return False, False
