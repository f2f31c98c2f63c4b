"""Column names for a CSV written without them, where the shape of its rows leaves only one reading.

Private to :mod:`toolkit.records.read`.  A file whose first row is data (every cell a card, a
hand, a winner or a number, none a column name) is read by the shape its rows share: the cards
as six columns a coup (``p1 p2 p3 b1 b2 b3``, an empty cell where a hand has no third card) or
as two hands (``"9 K","6 K"``), optionally after one or two integer columns (the coup number,
or the shoe and the coup number) and optionally with a winner (``P``, ``B``, ``T``, or the
words) first or last.  The first row and nine in ten of the first 200 must fit the shape, and only
one shape may fit them; otherwise the file is left to the other readers (which say what they
found).  A row that does not fit is read under the same names, and its bad cells are located
problems of the record like any other.

>>> headerless_names("1,9,K,,6,K,\\n2,3,4,5,7,2,\\n")
['coup', 'p1', 'p2', 'p3', 'b1', 'b2', 'b3']
>>> headerless_names("P,9 K,6 K\\n") is None  # one row, a winner and two hands: yes
False
>>> headerless_names("shoe,p1,p2\\n1,9,K\\n") is None  # a header
True
"""

from __future__ import annotations

import re
from itertools import product

__all__ = ["delimiter_of", "headerless_names"]

_CARD = re.compile(r"^(10|1[1-3]|[0-9]|[AaTtJjQqKk])([shdcSHDC]|[\u2660-\u2667]\ufe0f?)?$")
_INT = re.compile(r"^\d{1,9}$")
_WINNER = re.compile(r"^([PBTpbt]|player|banker|tie|punto|banco|player win|banker win)$", re.IGNORECASE)
_HAND_SPLIT = re.compile(r"[\s\-|]+")
_SPLIT = {",": re.compile(r","), ";": re.compile(r";"), "\t": re.compile(r"\t")}
#: How many of the first rows are looked at.
_ROWS = 200
#: The share of them a shape must fit (the first row always): a few bad cells are the record's problems.
_SHARE = 0.9


def _is_card(cell: str) -> bool:
    return bool(_CARD.match(cell))


def _is_hand(cell: str) -> bool:
    cards = [c for c in _HAND_SPLIT.split(cell.strip("[]\"' ")) if c]
    return 2 <= len(cards) <= 3 and all(_is_card(c.strip("\"'")) for c in cards)


def _six_cards(cells: list[str]) -> bool:
    return len(cells) == 6 and all(_is_card(c) or not c for c in cells) and all(cells[i] for i in (0, 1, 3, 4))


def _two_hands(cells: list[str]) -> bool:
    return len(cells) == 2 and all(_is_hand(c) for c in cells)


#: The shapes: the columns before the cards, the cards' columns, and whether a winner comes first or last.
_CORES = ((("p1", "p2", "p3", "b1", "b2", "b3"), _six_cards), (("player", "banker"), _two_hands))
_LEADS = ((), ("coup",), ("shoe", "coup"))
_WINNERS = (None, "first", "last")


def _fits(cells: list[str], lead: tuple[str, ...], core, winner: str | None) -> bool:
    rest = list(cells)
    if winner == "first" and (not rest or not _WINNER.match(rest.pop(0))):
        return False
    if winner == "last" and (not rest or not _WINNER.match(rest.pop())):
        return False
    if len(rest) < len(lead) or not all(_INT.match(c) for c in rest[: len(lead)]):
        return False
    return core(rest[len(lead) :])


def headerless_names(text: str) -> list[str] | None:
    """The column names of a CSV text without them (see the module notes), or ``None``."""
    lines = [ln.strip("\r") for ln in text.split("\n", _ROWS + 50)[: _ROWS + 50]]
    rows = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")][:_ROWS]
    if not rows:
        return None
    first = rows[0]
    delimiter = max(_SPLIT, key=first.count)
    split = _SPLIT[delimiter]
    table = [[c.strip().strip('"') for c in split.split(row)] for row in rows]
    fitting = [
        (lead, names, winner)
        for lead, (names, core), winner in product(_LEADS, _CORES, _WINNERS)
        if _fits(table[0], lead, core, winner)
        and sum(_fits(cells, lead, core, winner) for cells in table) >= _SHARE * len(table)
    ]
    if len(fitting) != 1:
        return None
    lead, names, winner = fitting[0]
    return [*(["winner"] if winner == "first" else []), *lead, *names, *(["winner"] if winner == "last" else [])]


def delimiter_of(text: str) -> str:
    """The delimiter of the first data row (``,``, ``;`` or a tab)."""
    rows = [ln for ln in text.split("\n", 50)[:50] if ln.strip() and not ln.lstrip().startswith("#")]
    return max(_SPLIT, key=rows[0].count) if rows else ","
