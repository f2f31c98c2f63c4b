"""The dealing rules, written once: burn count, tableau step and end-of-shoe (last-hand) rule.

Every part of the toolkit that deals cards uses these functions: simulated
dealing (:mod:`toolkit.dealing.dealer`), the rebuilding of recorded shoes and their
validation (:mod:`toolkit.records`), and the shoe walks of chemin de fer and
baccarat banque (:mod:`toolkit.games`).  They are compiled with numba and are
also plain Python callables, so the kernels and the readable code call the
same rule.

The options (burn, last hand, hidden burn) are the plain enums of
:mod:`toolkit.coup.options`; the kernels take their integer :func:`~toolkit.coup.options.code`.

numba's on-disk cache keys a compiled kernel by its own source file only; the
package stamps its kernels by every module they import (:mod:`toolkit._kernel_cache`),
so the kernels that call these rules are recompiled when this module changes.

>>> burn_count(9, 1), burn_count(0, 11), burn_count(4, 1)  # a ten, an ace burning 11, a five
(10, 11, 5)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

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
    LAST_TWO_MORE_IF_FIRST,
)
from toolkit.coup.rules import PLAYER_STOOD

if TYPE_CHECKING:
    from toolkit.coup.rules import Tableau

__all__ = [
    "BANKER_1",
    "BANKER_2",
    "BANKER_3",
    "BANKER_DRAWS",
    "BOTH_DRAW",
    "FOUR_CARDS",
    "LAYOUT_CARDS",
    "LAYOUT_SLOTS",
    "MIN_COUP_CARDS",
    "PLAYER_1",
    "PLAYER_2",
    "PLAYER_3",
    "PLAYER_DRAWS",
    "PLAYER_STOOD",
    "SEVEN_CARD_MINIMUM",
    "VALUES",
    "CoupRows",
    "ShoeRows",
    "Tables",
    "banker_draws_on",
    "burn_count",
    "coup_buffers",
    "coup_layout",
    "coup_layouts",
    "cut_card_after",
    "enough_cards",
    "face_down_count",
    "face_down_listed",
    "hand_totals",
    "is_natural",
    "may_start",
    "next_slot",
    "third_cards",
    "write_unseen",
]


#: A coup may use six cards: no coup starts with fewer left, whatever the rule.
MIN_COUP_CARDS = 6
#: The chemin de fer minimum: no coup starts with fewer than seven cards left.
SEVEN_CARD_MINIMUM = 7

#: The value of each rank index, as the array the kernels read.
VALUES = np.array(RANK_VALUES, dtype=np.int64)


# ---------------------------------------------------------------------------- burn
@numba.njit(cache=True)
def burn_count(rank: int, burn_ace: int) -> int:  # pragma: no cover - compiled
    """Cards burned face down after the exposed first card ``rank`` (rank index, 0 = ace).

    Its value: 10 for a ten or a face card, ``burn_ace`` (1 or 11) for an ace.
    """
    if rank == 0:
        return burn_ace
    v = VALUES[rank]
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


# ------------------------------------------------------------------ the coup step
#: The slots of a coup's six cards (the columns of ``DealtShoes.cards``): Player's three, then Banker's.
PLAYER_1, PLAYER_2, PLAYER_3, BANKER_1, BANKER_2, BANKER_3 = range(6)

#: The four ways a coup is dealt (:func:`coup_layout`): nobody draws, Player only, Banker only, both.
FOUR_CARDS, PLAYER_DRAWS, BANKER_DRAWS, BOTH_DRAW = range(4)
#: Per layout: the slot of each card in dealing order (first four: Player, Banker, Player, Banker).
LAYOUT_SLOTS = np.array(
    [
        (PLAYER_1, BANKER_1, PLAYER_2, BANKER_2, -1, -1),
        (PLAYER_1, BANKER_1, PLAYER_2, BANKER_2, PLAYER_3, -1),
        (PLAYER_1, BANKER_1, PLAYER_2, BANKER_2, BANKER_3, -1),
        (PLAYER_1, BANKER_1, PLAYER_2, BANKER_2, PLAYER_3, BANKER_3),
    ],
    dtype=np.int64,
)
#: Per layout: how many cards the coup takes.
LAYOUT_CARDS = np.array([4, 5, 5, 6], dtype=np.int64)


#: Columns of the Banker table a word of :class:`Tables` packs per total: Player's third card 0-9, or stood.
_COLUMNS = PLAYER_STOOD + 1
#: Banker totals per word: five totals of eleven bits each fit in 55 bits of a 64-bit integer.
_TOTALS_PER_WORD = 5


class Tables(NamedTuple):
    """The tableau as the kernels read it, as bit masks (plain integers, so passing and reading it costs nothing).

    Bit ``t`` of ``player``: Player draws on ``t``. Banker's table is packed in two words, totals 0-4 in
    ``banker_low`` and 5-9 in ``banker_high``: bit ``11 * (t % 5) + c`` says that Banker draws on ``t`` when
    Player's third card has value ``c``, or with ``c = 10`` (:data:`~toolkit.coup.rules.PLAYER_STOOD`) when Player
    stood. (Integers, not a tuple of ten masks or an array: numba reads a tuple at a run-time index through a
    switch, and an array inside a tuple costs a reference count at every call.)
    """

    player: int
    banker_low: int
    banker_high: int

    @classmethod
    def of(cls, tableau: Tableau) -> Tables:
        """The masks of a :class:`~toolkit.coup.rules.Tableau`.

        >>> from toolkit.coup.rules import PUNTO_BANCO
        >>> masks = Tables.of(PUNTO_BANCO)
        >>> [t for t in range(10) if masks.player >> t & 1]  # Player draws on 0 to 5
        [0, 1, 2, 3, 4, 5]
        >>> [c for c in range(11) if banker_draws_on(masks, 3, c)]  # Banker's 3 draws unless Player's third is an 8
        [0, 1, 2, 3, 4, 5, 6, 7, 9, 10]
        """
        player = sum(1 << t for t in range(10) if tableau.player[t])
        words = [0, 0]
        for t in range(10):
            for c in range(_COLUMNS):
                if tableau.banker[t][c]:
                    words[t // _TOTALS_PER_WORD] |= 1 << (_COLUMNS * (t % _TOTALS_PER_WORD) + c)
        return cls(player, words[0], words[1])


@numba.njit(cache=True)
def banker_draws_on(tables: Tables, banker_total: int, column: int) -> bool:  # pragma: no cover - compiled
    """Whether Banker draws on ``banker_total`` when Player's third card has value ``column`` (10: Player stood)."""
    word = tables.banker_low if banker_total < _TOTALS_PER_WORD else tables.banker_high
    return bool(word >> (_COLUMNS * (banker_total % _TOTALS_PER_WORD) + column) & 1)


@numba.njit(cache=True)
def hand_totals(p1: int, b1: int, p2: int, b2: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """Player's and Banker's two-card totals from the values of the first four cards, in dealing order."""
    return (p1 + p2) % 10, (b1 + b2) % 10


@numba.njit(cache=True)
def is_natural(player_total: int, banker_total: int) -> bool:  # pragma: no cover - compiled
    """Whether either two-card total is a natural (8 or 9): then nobody draws."""
    return player_total >= 8 or banker_total >= 8


@numba.njit(cache=True)
def coup_layout(p1: int, b1: int, p2: int, b2: int, fifth: int, tables: Tables) -> int:  # pragma: no cover
    """The coup step: how a coup is dealt, from the values of its first cards in dealing order.

    ``fifth`` is the value of the card after the first four; it is read only when Player draws (it
    is then Player's third card, on which Banker's draw depends), so a caller that does not know it
    yet may pass 0 and still learn whether Player draws. Returns :data:`FOUR_CARDS`,
    :data:`PLAYER_DRAWS`, :data:`BANKER_DRAWS` or :data:`BOTH_DRAW`; :data:`LAYOUT_SLOTS` and
    :data:`LAYOUT_CARDS` say which slots the cards fill. Every dealer and checker deals a coup with
    this one function: the dealing kernel, the rebuilding of recorded shoes and the live tracker.
    """
    player_total, banker_total = hand_totals(p1, b1, p2, b2)
    if is_natural(player_total, banker_total):
        return FOUR_CARDS
    if tables.player >> player_total & 1:
        return BOTH_DRAW if banker_draws_on(tables, banker_total, fifth) else PLAYER_DRAWS
    return BANKER_DRAWS if banker_draws_on(tables, banker_total, PLAYER_STOOD) else FOUR_CARDS


@numba.njit(cache=True)
def coup_layouts(
    p1: np.ndarray, b1: np.ndarray, p2: np.ndarray, b2: np.ndarray, p3: np.ndarray, tables: Tables
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """Many coups at once (arrays of values in dealing order): each one's :func:`coup_layout` and two-card totals."""
    layout = np.empty(len(p1), np.int64)
    player_total = np.empty(len(p1), np.int64)
    banker_total = np.empty(len(p1), np.int64)
    for i in range(len(p1)):
        layout[i] = coup_layout(p1[i], b1[i], p2[i], b2[i], p3[i], tables)
        player_total[i], banker_total[i] = hand_totals(p1[i], b1[i], p2[i], b2[i])
    return layout, player_total, banker_total


def next_slot(values: list[int] | tuple[int, ...], tables: Tables) -> int:
    """The slot that takes a coup's next card, given the values of its cards so far (dealing order); -1: complete.

    The card-by-card form of :func:`coup_layout`, for a coup being dealt live.

    >>> from toolkit.coup.rules import PUNTO_BANCO
    >>> masks = Tables.of(PUNTO_BANCO)
    >>> next_slot([], masks), next_slot([3, 0, 2, 7], masks), next_slot([3, 0, 2, 7, 9], masks)
    (0, 2, -1)
    """
    n = len(values)
    if n < 4:
        return int(LAYOUT_SLOTS[FOUR_CARDS, n])
    layout = int(coup_layout(values[0], values[1], values[2], values[3], values[4] if n > 4 else 0, tables))
    return int(LAYOUT_SLOTS[layout, n]) if n < LAYOUT_CARDS[layout] else -1


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
def third_cards(layout: int, fifth: int, sixth: int) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Player's and Banker's third cards (-1: none) and the cards the coup takes, from its :func:`coup_layout`.

    ``fifth`` and ``sixth`` are the cards after the first four (any value where the shoe has none: they are
    read only when the layout deals them). Scalars in and out, so a kernel calls it once a coup at no cost
    (passing arrays to a compiled function costs numba a reference count each).

    >>> third_cards(BANKER_DRAWS, 7, 3), third_cards(BOTH_DRAW, 7, 3)
    ((-1, 7, 5), (7, 3, 6))
    """
    if layout == FOUR_CARDS:
        return -1, -1, 4
    if layout == PLAYER_DRAWS:
        return fifth, -1, 5
    if layout == BANKER_DRAWS:
        return -1, fifth, 5
    return fifth, sixth, 6


@numba.njit(cache=True)
def write_unseen(unseen: np.ndarray, out: int, counts: np.ndarray) -> None:  # pragma: no cover - compiled
    """Write the unseen composition before a coup (``counts``, 13 ranks) as row ``out`` of ``unseen``."""
    for r in range(13):
        unseen[out, r] = counts[r]


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
    coup that *starts* at or past the cut card is the last.  Under
    ``two_more_if_first`` (Jacobson) such a coup is followed by one more as
    well.  Under ``finish`` the coup during which it comes out is the last.  Under ``seven_cards``, or
    with ``fixed_coups > 0`` coups to deal, the cut card plays no part
    (:func:`may_start` ends the shoe).
    """
    if last_hand == LAST_SEVEN_CARDS or fixed_coups > 0:
        return False, False
    if last:
        return True, True
    if start >= cut_position:  # the cut card came out as the first card of this coup
        if last_hand == LAST_TWO_MORE_IF_FIRST:  # this coup and one more: "two additional rounds"
            return False, True
        return True, True
    if start < cut_position < end:  # it came out during this coup
        if last_hand == LAST_FINISH:
            return True, True
        return False, True
    return False, False
