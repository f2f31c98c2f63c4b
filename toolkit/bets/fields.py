"""The fields of a coup that a bet may look at, and every value sequence of the tableau.

A coup deals two to three cards to each hand.  The *positions* are
``player_1, player_2, player_3, banker_1, banker_2, banker_3`` (deal order:
player_1, banker_1, player_2, banker_2, then Player's third card if Player
draws, then Banker's).  A bet over coup fields (:class:`toolkit.bets.coup_bets.CoupBet`)
may name any of:

=============================  ===========================================================
field                          meaning
=============================  ===========================================================
``<position>_value``           the card's baccarat value 0..9 (null when not dealt)
``<position>_rank``            its rank ``A, 2, ..., 9, T, J, Q, K`` (null when not dealt)
``<position>_suit``            its suit ``s, h, d, c`` (null when not dealt)
``<position>_colour``          its colour ``red`` (hearts, diamonds) or ``black`` (null when not dealt)
``player_total``               Player's final total (0..9); ``banker_total`` likewise
``player_two_card_total``      the total of Player's first two cards; ``banker_...`` likewise
``player_cards``               cards in Player's hand (2 or 3); ``banker_cards`` likewise
``cards_dealt``                cards used by the coup (4, 5 or 6)
``winner``                     ``"player"``, ``"banker"`` or ``"tie"``
``player_natural``             Player's first two cards total 8 or 9; ``banker_natural``
``natural``                    either hand is a natural
``margin``                     winning total minus losing total (0 for a tie)
``player_pair``                Player's first two cards share a rank; ``banker_pair``
``player_suited_pair``         Player's first two cards are the same card (rank and suit)
``banker_suited_pair``         likewise for Banker
=============================  ===========================================================

The fields of the 1,600 outcome classes (:mod:`toolkit.coup.outcome`) are a
subset: a bet that names only those is a plain pay table and takes the fast
engine.  The others are priced exactly by :mod:`toolkit.bets.coup_bets`, which
starts from :func:`value_sequence_table`, every ordered sequence of card values
the tableau can deal.

>>> sorted(expansions(["player_1_suit", "banker_pair", "winner"]).items())
[('banker_1', 1), ('banker_2', 1), ('player_1', 3)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from difflib import get_close_matches
from functools import lru_cache

import numpy as np

from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.exact._tables import multiset_index, used_sequences

__all__ = [
    "BOOLEAN_FIELDS",
    "CARD",
    "CLASS_FIELDS",
    "COLOUR",
    "COLOURS",
    "FIELDS",
    "POSITIONS",
    "PREFIX_FIELDS",
    "RANK",
    "WINNERS",
    "SequenceFields",
    "expansions",
    "field_kind",
    "prefix_table",
    "unknown_field",
    "value_columns",
    "value_sequence_table",
]

#: The six card positions of a coup.
POSITIONS: tuple[str, ...] = ("player_1", "player_2", "player_3", "banker_1", "banker_2", "banker_3")

#: Fields of the outcome classes: bets naming only these take the fast engine.
CLASS_FIELDS: frozenset[str] = frozenset(
    {
        "player_total",
        "banker_total",
        "player_cards",
        "banker_cards",
        "player_pair",
        "banker_pair",
        "winner",
        "player_natural",
        "banker_natural",
        "natural",
        "margin",
        "cards_dealt",
    }
)

#: Every field a bet may name, with what it means.
FIELDS: dict[str, str] = {
    **{f"{p}_value": f"value 0..9 of {p.replace('_', ' card ')} (null when not dealt)" for p in POSITIONS},
    **{f"{p}_rank": f"rank A..K of {p.replace('_', ' card ')} (null when not dealt)" for p in POSITIONS},
    **{f"{p}_suit": f"suit s/h/d/c of {p.replace('_', ' card ')} (null when not dealt)" for p in POSITIONS},
    **{f"{p}_colour": f"colour red/black of {p.replace('_', ' card ')} (null when not dealt)" for p in POSITIONS},
    "player_total": "Player's final total, 0..9",
    "banker_total": "Banker's final total, 0..9",
    "player_two_card_total": "total of Player's first two cards",
    "banker_two_card_total": "total of Banker's first two cards",
    "player_cards": "cards in Player's hand, 2 or 3",
    "banker_cards": "cards in Banker's hand, 2 or 3",
    "cards_dealt": "cards used by the coup, 4, 5 or 6",
    "winner": "'player', 'banker' or 'tie'",
    "player_natural": "Player's first two cards total 8 or 9",
    "banker_natural": "Banker's first two cards total 8 or 9",
    "natural": "either hand is a natural",
    "margin": "winning total minus losing total (0 for a tie)",
    "player_pair": "Player's first two cards share a rank",
    "banker_pair": "Banker's first two cards share a rank",
    "player_suited_pair": "Player's first two cards are the same card (rank and suit)",
    "banker_suited_pair": "Banker's first two cards are the same card (rank and suit)",
}

#: The fields that are true or false.
BOOLEAN_FIELDS: frozenset[str] = frozenset(
    {
        "player_natural",
        "banker_natural",
        "natural",
        "player_pair",
        "banker_pair",
        "player_suited_pair",
        "banker_suited_pair",
    }
)
#: The values of ``winner``, in the order of its code (0 player, 1 banker, 2 tie).
WINNERS: tuple[str, ...] = ("player", "banker", "tie")
#: The values of a ``<position>_colour`` field, in the order of its code (0 black, 1 red).
COLOURS: tuple[str, ...] = ("black", "red")


def field_kind(name: str) -> str:
    """The kind of a coup field: ``number``, ``bool``, ``winner``, ``rank``, ``suit`` or ``colour``.

    Parameters
    ----------
    name
        A field of :data:`FIELDS`.

    Returns
    -------
    str
        Its kind, which says what a condition may compare it with (:mod:`toolkit.bets.conditions`).

    Examples
    --------
    >>> field_kind("player_3_suit"), field_kind("natural"), field_kind("margin")
    ('suit', 'bool', 'number')
    """
    if name not in FIELDS:
        raise ValueError(unknown_field(name))
    if name == "winner":
        return "winner"
    if name in BOOLEAN_FIELDS:
        return "bool"
    for kind in ("rank", "suit", "colour"):
        if name.endswith(f"_{kind}"):
            return kind
    return "number"


#: Level of detail a field needs at a position: the rank, the rank and colour, the card (rank and suit).
RANK, COLOUR, CARD = 1, 2, 3
_DERIVED: dict[str, tuple[tuple[str, ...], int]] = {
    "player_pair": (("player_1", "player_2"), RANK),
    "banker_pair": (("banker_1", "banker_2"), RANK),
    "player_suited_pair": (("player_1", "player_2"), CARD),
    "banker_suited_pair": (("banker_1", "banker_2"), CARD),
}


def unknown_field(name: str, condition: str | None = None) -> str:
    """The message for a field that does not exist: the closest names, then every field.

    Parameters
    ----------
    name
        The unknown name.
    condition
        The text it was found in, if any.

    Returns
    -------
    str

    >>> unknown_field("banker_totl").split(";")[0]
    "unknown field 'banker_totl' (did you mean banker_total?)"
    """
    close = get_close_matches(name, list(FIELDS), n=2, cutoff=0.85)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    where = f" in {condition!r}" if condition else ""
    return f"unknown field {name!r}{where}{hint}; the fields are {', '.join(FIELDS)}"


def expansions(fields: Iterable[str]) -> dict[str, int]:
    """The positions whose rank (1), rank and colour (2) or card (3) the fields need; value-level fields need none.

    A bet that needs some card's suit reads every colour from the suit (colour positions become card
    positions), so that one draw of suits serves them all.

    Parameters
    ----------
    fields
        Names of coup fields.

    Returns
    -------
    dict of str to int
        Position name to level (:data:`RANK`, :data:`COLOUR`, :data:`CARD`).
    """
    out: dict[str, int] = {}
    for name in fields:
        if name in _DERIVED:
            positions, level = _DERIVED[name]
        elif name.endswith("_rank"):
            positions, level = (name[: -len("_rank")],), RANK
        elif name.endswith("_suit"):
            positions, level = (name[: -len("_suit")],), CARD
        elif name.endswith("_colour"):
            positions, level = (name[: -len("_colour")],), COLOUR
        else:
            continue
        for p in positions:
            out[p] = max(out.get(p, 0), level)
    if CARD in out.values():
        out = {p: CARD if level == COLOUR else level for p, level in out.items()}
    return out


@dataclass(frozen=True)
class SequenceFields:
    """Every ordered value sequence a coup can deal under a tableau, with its value-level fields.

    ``values[p]`` holds the value at position ``p`` (``-1`` when not dealt);
    ``columns`` the value-level fields (winner coded 0 player, 1 banker, 2 tie;
    booleans as 0/1); ``mset`` the index (see :func:`toolkit.exact._tables.multisets`)
    of the multiset of values the coup uses, whose normalised falling product
    is the probability of the sequence.

    Attributes
    ----------
    values
        Value at each position, by position name (-1 when not dealt).
    columns
        The value-level fields, by name.
    mset
        Multiset index of each sequence.
    """

    values: dict[str, np.ndarray]
    columns: dict[str, np.ndarray]
    mset: np.ndarray

    def __len__(self) -> int:
        return len(self.mset)


@lru_cache(maxsize=4)
def value_sequence_table(tableau: Tableau = PUNTO_BANCO) -> SequenceFields:
    """The 339,400 value sequences of punto banco (fewer or more under other tableaux).

    >>> len(value_sequence_table())
    339400
    """
    seq = used_sequences(tableau)
    c, ext, used = seq.cards.astype(np.int64), seq.ext, seq.used
    main = ext // 9
    pdraw = (main // 2) % 2 == 1
    bdraw = main % 2 == 1
    absent = np.full(len(used), -1, dtype=np.int64)
    values = {
        "player_1": c[0],
        "banker_1": c[1],
        "player_2": c[2],
        "banker_2": c[3],
        "player_3": np.where(pdraw, c[4], absent),
        "banker_3": np.where(bdraw, np.where(pdraw, c[5], c[4]), absent),
    }
    columns = value_columns(values)
    if not np.array_equal(columns["player_total"] * 10 + columns["banker_total"], main // 4):
        raise AssertionError("value-level fields disagree with the outcome classes")  # internal invariant
    powers = 7 ** np.arange(10, dtype=np.int64)
    code = sum(np.where(v >= 0, powers[np.maximum(v, 0)], 0) for v in values.values())
    return SequenceFields(values, columns, multiset_index(np.asarray(code)))


def value_columns(values: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The value-level fields of coups from the values at their six positions (-1 where no card).

    Totals, cards per hand, cards dealt, winner (0 player, 1 banker, 2 tie), naturals (0/1) and
    margin: the rules of the coup written once, for the enumerated sequences and for dealt coups.

    Parameters
    ----------
    values
        Value at each position of :data:`POSITIONS`, by name.

    Returns
    -------
    dict of str to numpy.ndarray

    >>> one = {p: np.array([v]) for p, v in zip(POSITIONS, (4, 5, -1, 9, 9, -1))}
    >>> c = value_columns(one)
    >>> int(c["player_total"][0]), int(c["banker_natural"][0]), int(c["winner"][0])
    (9, 1, 0)
    """
    v = {p: np.maximum(np.asarray(values[p]), 0) for p in POSITIONS}
    p2, b2 = (v["player_1"] + v["player_2"]) % 10, (v["banker_1"] + v["banker_2"]) % 10
    pt, bt = (p2 + v["player_3"]) % 10, (b2 + v["banker_3"]) % 10
    pc = 2 + (np.asarray(values["player_3"]) >= 0)
    bc = 2 + (np.asarray(values["banker_3"]) >= 0)
    return {
        "player_total": pt,
        "banker_total": bt,
        "player_two_card_total": p2,
        "banker_two_card_total": b2,
        "player_cards": pc,
        "banker_cards": bc,
        "cards_dealt": pc + bc,
        "winner": np.where(pt > bt, 0, np.where(bt > pt, 1, 2)),
        "player_natural": (p2 >= 8).astype(np.int64),
        "banker_natural": (b2 >= 8).astype(np.int64),
        "natural": ((p2 >= 8) | (b2 >= 8)).astype(np.int64),
        "margin": np.abs(pt - bt),
    }


#: Fields fixed by the first four cards: a bet naming only these is priced over the 10,000 four-card prefixes.
PREFIX_FIELDS: frozenset[str] = frozenset(
    {f"{p}_{k}" for p in ("player_1", "player_2", "banker_1", "banker_2") for k in ("value", "rank", "suit", "colour")}
    | {
        "player_two_card_total",
        "banker_two_card_total",
        "player_natural",
        "banker_natural",
        "natural",
        "player_pair",
        "banker_pair",
        "player_suited_pair",
        "banker_suited_pair",
    }
)


@lru_cache(maxsize=1)
def prefix_table() -> SequenceFields:
    """The 10,000 ordered value sequences of the first four cards (the rest summed out: any tableau).

    >>> len(prefix_table())
    10000
    """
    c = np.indices((10,) * 4, dtype=np.int64).reshape(4, -1)
    values = {"player_1": c[0], "banker_1": c[1], "player_2": c[2], "banker_2": c[3]}
    absent = np.full(c.shape[1], -1, dtype=np.int64)
    every = value_columns({**values, "player_3": absent, "banker_3": absent})
    columns = {f: every[f] for f in PREFIX_FIELDS if f in every}
    powers = 7 ** np.arange(10, dtype=np.int64)
    return SequenceFields(values, columns, multiset_index(powers[c].sum(axis=0)))
