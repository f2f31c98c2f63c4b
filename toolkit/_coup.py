"""The dealing rules, written once: burn count, tableau step and end-of-shoe (last-hand) rule.

Every part of the toolkit that deals cards uses these functions: simulated
dealing (:mod:`toolkit.dealing`), the rebuilding of recorded shoes and their
validation (:mod:`toolkit.records`), and the shoe walks of chemin de fer and
baccarat banque (:mod:`toolkit.games`).  They are compiled with numba and are
also plain Python callables, so the kernels and the readable code call the
same rule.

The options are string enums, defined here once and reused by the
:class:`~toolkit.dealing.Dealing` value, the shoe header of recorded shoes and
the command line; the kernels take their integer :func:`code`.

Burn (:class:`Burn`)
    ``standard``: the first card is turned face up and as many cards as its
    value are burned face down (ten or face card: 10; ace: ``burn_ace``, 1 or
    11); ``fixed``: a fixed number of cards face down; ``none``.
Last hand (:class:`LastHand`)
    The cut card lies ``cut_card`` cards from the end.  ``one_more``: when it
    comes out during a coup, finish the coup and play one more; when it comes
    out as the first card of a coup, that coup is the last (the rule of most
    punto banco tables, as the Wizard of Odds describes it).  ``finish``: the
    coup during which it comes out is the last.  ``seven_cards``: ignore the
    cut card and never start a coup with fewer than seven cards left (the
    chemin de fer rule: "to constitute a valid deal, there must be not less
    than seven cards").
Hidden burn (:class:`HiddenBurn`)
    Whether a card-level record lists the cards burned face down:
    ``omitted``, ``listed``, or ``auto`` (listed exactly when the record holds
    the whole shoe).

numba's on-disk cache keys a compiled kernel by its own source file only: after
editing this module, delete the ``*.nbi`` and ``*.nbc`` files of the kernels
that call it (``toolkit/__pycache__``, ``toolkit/records/__pycache__``, ...),
or they keep the old rules.

>>> burn_count(9, 1), burn_count(0, 11), burn_count(4, 1)  # a ten, an ace burning 11, a five
(10, 11, 5)
>>> code(LastHand.FINISH), LastHand("seven_cards") is LastHand.SEVEN_CARDS
(1, True)
"""

from __future__ import annotations

from enum import StrEnum

import numba
import numpy as np

from toolkit.cards import RANK_VALUES
from toolkit.rules import PLAYER_STOOD

__all__ = [
    "BURN_FIXED",
    "BURN_NONE",
    "BURN_STANDARD",
    "HIDDEN_AUTO",
    "HIDDEN_LISTED",
    "HIDDEN_OMITTED",
    "LAST_FINISH",
    "LAST_ONE_MORE",
    "LAST_SEVEN_CARDS",
    "MIN_COUP_CARDS",
    "PLAYER_STOOD",
    "SEVEN_CARD_MINIMUM",
    "Burn",
    "HiddenBurn",
    "LastHand",
    "banker_draws",
    "burn_count",
    "code",
    "cut_card_after",
    "enough_cards",
    "face_down_count",
    "face_down_listed",
    "is_natural",
    "may_start",
    "player_draws",
]


class Burn(StrEnum):
    """How the cards at the start of a shoe are burned."""

    STANDARD = "standard"
    FIXED = "fixed"
    NONE = "none"

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class LastHand(StrEnum):
    """When the last coup of a shoe is dealt."""

    ONE_MORE = "one_more"
    FINISH = "finish"
    SEVEN_CARDS = "seven_cards"

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class HiddenBurn(StrEnum):
    """Whether a card-level record lists the cards burned face down."""

    OMITTED = "omitted"
    LISTED = "listed"
    AUTO = "auto"

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


def code(option: Burn | LastHand | HiddenBurn) -> int:
    """The integer the compiled kernels use for an option: its position in its enum.

    >>> [code(b) for b in Burn], code(HiddenBurn.AUTO)
    ([0, 1, 2], 2)
    """
    try:
        return _CODES[type(option), option]
    except KeyError:
        raise TypeError(f"code() takes a Burn, LastHand or HiddenBurn option, got {option!r}") from None


#: :func:`code` of every option, looked up (it runs once per shoe when records are loaded).
_CODES: dict[tuple[type, StrEnum], int] = {
    (options, member): i for options in (Burn, LastHand, HiddenBurn) for i, member in enumerate(options)
}


#: The kernels' codes of the options (:func:`code`), for the compiled code to compare with.
BURN_STANDARD, BURN_FIXED, BURN_NONE = (code(b) for b in (Burn.STANDARD, Burn.FIXED, Burn.NONE))
LAST_ONE_MORE, LAST_FINISH, LAST_SEVEN_CARDS = (
    code(h) for h in (LastHand.ONE_MORE, LastHand.FINISH, LastHand.SEVEN_CARDS)
)
HIDDEN_OMITTED, HIDDEN_LISTED, HIDDEN_AUTO = (code(h) for h in (HiddenBurn.OMITTED, HiddenBurn.LISTED, HiddenBurn.AUTO))

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
