"""How a record spells its cards: ranks, baccarat values, or rank numbers 1 to 13.

Private to :mod:`toolkit.records.validation`, :mod:`toolkit.records._cards` and
:mod:`toolkit.records._load`.  A record's cards are spelled one of three ways, told from the
distinct card texts of the whole file (:func:`spelling_of`):

``ranks``
    ``A, 2-9, T/10, J, Q, K``, any case, optionally followed by a suit letter ``s h d c`` or
    symbol (``♠ ♥ ♦ ♣``, the white ``♤ ♡ ♢ ♧``, with or without the emoji variation selector).
``values``
    Baccarat values ``0-9`` (``0``: a ten or a face), as simulators that keep only what the
    tableau needs write them (``stevenhalverson/baccarat_simulator``, ``rjsilvestre/baccarat``).
    The ranks of tens and faces are unknown, so nothing is ever priced on a rank: a value
    record is its own level (:attr:`toolkit.records.model.Records.kind` ``"values"``).
``numbers``
    Rank numbers ``1-13`` (``1`` the ace, ``11 12 13`` jack, queen, king), optionally with a suit.

A file whose card texts are all digits is read as values when one of them is ``0`` and none
is above 9, as rank numbers when one is ``1`` or above 9; otherwise by ranks.

>>> spelling_of(["0", "7", "3"]), spelling_of(["1", "13", "4"]), spelling_of(["K", "10s", "a♥️"])
('values', 'numbers', 'ranks')
>>> read_cards(["0", "7"], "values")
([9, 6], ['0', '7'])
>>> read_cards(["13", "1♠"], "numbers")
([12, 0], ['K', 'As'])
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolkit.coup.cards import RANKS, VALUE_TO_RANK, parse_card

__all__ = ["SPELLINGS", "normal_text", "read_cards", "spelling_of"]

#: The ways a record spells its cards.
SPELLINGS = ("ranks", "values", "numbers")
_SUIT_LETTER = {"s": "s", "h": "h", "d": "d", "c": "c", "♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_WHITE_SUITS = str.maketrans({"♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣", "\ufe0f": None, "\ufe0e": None})
_NUMBER = re.compile(r"^\s*(\d{1,2})\s*([shdcSHDC♠♥♦♣])?\s*$")


def normal_text(text: str) -> str:
    """A card text with the white suit symbols as the black ones and the emoji variation selectors dropped."""
    return text.translate(_WHITE_SUITS)


def spelling_of(texts: Sequence[str | None]) -> str:
    """``ranks``, ``values`` or ``numbers``: how the distinct card texts of a file spell their cards.

    Texts that are cards in no spelling (``x``, a typo) do not count: they are problems of their rows.
    """
    numbers = []
    for text in texts:
        if text is None or not text.strip():
            continue
        found = _NUMBER.match(normal_text(text))
        if found is not None:
            numbers.append(int(found.group(1)))
            continue
        try:
            parse_card(normal_text(text))
        except ValueError:
            continue
        return "ranks"  # a rank letter (A, T, J, Q, K): the file is spelled by rank
    if not numbers:
        return "ranks"
    if 0 in numbers and max(numbers) <= 9:
        return "values"
    if 1 in numbers or max(numbers) > 10:
        return "numbers"
    return "ranks"


def _one(text: str, spelling: str) -> tuple[int, str]:
    """Rank index and canonical text of one card (:class:`ValueError` when it is not one)."""
    text = normal_text(text)
    if spelling == "ranks":
        rank = parse_card(text)
        stripped = text.strip()
        rest = stripped[2:] if stripped.startswith("10") else stripped[1:]
        return rank, RANKS[rank] + _SUIT_LETTER.get(rest.strip().lower(), "")
    found = _NUMBER.match(text)
    if found is None:
        raise ValueError(text)
    number, suit = int(found.group(1)), found.group(2)
    if spelling == "values":
        if number > 9 or suit:
            raise ValueError(text)
        return VALUE_TO_RANK[number], str(number)
    if not 1 <= number <= 13:
        raise ValueError(text)
    return number - 1, RANKS[number - 1] + (_SUIT_LETTER[suit.lower()] if suit else "")


def read_cards(texts: Sequence[str], spelling: str) -> tuple[list[int | None], list[str | None]]:
    """The rank index (the rank standing for a value, :data:`toolkit.coup.cards.VALUE_TO_RANK`) and canonical text
    of each card text; both ``None`` for a text that is no card in this spelling."""
    ranks: list[int | None] = []
    canon: list[str | None] = []
    for text in texts:
        try:
            rank, name = _one(text, spelling)
        except (ValueError, TypeError):
            ranks.append(None)
            canon.append(None)
        else:
            ranks.append(rank)
            canon.append(name)
    return ranks, canon


#: What each spelling expects, for the message of a card it cannot read.
EXPECTED = {
    "ranks": "a rank A,2-9,T/10,J,Q,K, optionally followed by a suit letter s/h/d/c",
    "values": "a baccarat value 0-9 (0: a ten or a face), as the other cards of this file are written",
    "numbers": "a rank number 1-13 (1: ace, 11-13: J, Q, K), as the other cards of this file are written",
}
