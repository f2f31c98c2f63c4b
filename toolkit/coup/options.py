"""The options of a deal, as plain string enums: burn, last hand and hidden burn.

They are defined here once, with no compiled code, so that the command line can offer them
without loading numba; :mod:`toolkit.coup.step` (the compiled coup step), the
:class:`~toolkit.dealing.dealer.Dealing` value and the shoe header of recorded shoes all use them.
The kernels take their integer :func:`code`.


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
    than seven cards").  ``two_more_if_first``: Eliot Jacobson's rule, the one
    his simulated count results use ("If the cut-card is the first card dealt in
    a round, then two additional rounds are dealt", otherwise one more): the
    coup during which the cut card comes out is followed by one more, and when
    it comes out as the first card of a coup, that coup *and* one more are
    dealt (where ``one_more`` deals only that coup).
Hidden burn (:class:`HiddenBurn`)
    Whether a card-level record lists the cards burned face down:
    ``omitted``, ``listed``, or ``auto`` (listed exactly when the record holds
    the whole shoe).

>>> code(LastHand.FINISH), LastHand("seven_cards") is LastHand.SEVEN_CARDS
(1, True)
"""

from __future__ import annotations

from enum import StrEnum

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
    "LAST_TWO_MORE_IF_FIRST",
    "Burn",
    "HiddenBurn",
    "LastHand",
    "code",
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
    TWO_MORE_IF_FIRST = "two_more_if_first"

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
LAST_ONE_MORE, LAST_FINISH, LAST_SEVEN_CARDS, LAST_TWO_MORE_IF_FIRST = (
    code(h) for h in (LastHand.ONE_MORE, LastHand.FINISH, LastHand.SEVEN_CARDS, LastHand.TWO_MORE_IF_FIRST)
)
HIDDEN_OMITTED, HIDDEN_LISTED, HIDDEN_AUTO = (code(h) for h in (HiddenBurn.OMITTED, HiddenBurn.LISTED, HiddenBurn.AUTO))
