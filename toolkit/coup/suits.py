"""Suited shoes: counts of each of the 52 cards, for the bets that look at suits.

Almost every baccarat bet looks only at values or ranks, and the toolkit's
shoes (:class:`~toolkit.coup.cards.Composition`) count ranks.  Bets such as Perfect
Pairs (a suited pair: same rank *and* suit) need the suits too.  A
:class:`SuitedShoe` holds 52 counts, rank-major in :data:`CARDS` order:
``As, Ah, Ad, Ac, 2s, 2h, ..., Kc`` (spades, hearts, diamonds, clubs), so
``"8 decks"`` is 8 of each of the 52 cards.

When a suited bet is priced on a shoe known only by rank, the suits of the
cards left are unknown.  :func:`suit_counts` then reads them *suit-blind*: the
cards of each rank are a random draw from the suits of ``decks`` full decks
(the cards already dealt were not told apart by suit), which is exact for a
full shoe and is what a counter who tracks only ranks knows.

>>> shoe = SuitedShoe.from_decks(8)
>>> shoe.total, shoe.ranks.by_rank[0]
(416, 32)
>>> SuitedShoe.from_any(["Ah", "Ah", "Kc"]).by_card[1]
2
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import ceil

import numpy as np

from toolkit._check import non_negative_int, positive_int
from toolkit.coup.cards import RANKS, Composition, CompositionLike

__all__ = ["CARDS", "SUITS", "SuitedShoe", "blind_decks", "blind_weights", "suit_counts", "uniform_weight"]

#: The four suits, in the order of :data:`CARDS`: spades, hearts, diamonds, clubs.
SUITS: tuple[str, ...] = ("s", "h", "d", "c")
#: The 52 cards, rank-major: ``As, Ah, Ad, Ac, 2s, ..., Kc``.
CARDS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)

_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_CARD_RE = re.compile(r"^\s*(10|[2-9AaTtJjQqKk])\s*([shdcSHDC♠♥♦♣])\s*$")
_DECKS_RE = re.compile(r"^\s*(\d+)\s*(decks?)?\s*$", re.IGNORECASE)


def parse_suited_card(card: object) -> int:
    """Index (0..51, see :data:`CARDS`) of a card string with its suit, such as ``"Qh"`` or ``"10♠"``.

    >>> CARDS[parse_suited_card("qh")], CARDS[parse_suited_card("10♠")]
    ('Qh', 'Ts')
    """
    if not isinstance(card, str):
        raise TypeError(f"a card must be a string such as 'Qh', not {type(card).__name__} {card!r}")
    match = _CARD_RE.match(card)
    if match is None:
        raise ValueError(f"unknown suited card {card!r}: expected a rank A,2-9,T/10,J,Q,K and a suit s/h/d/c")
    rank = match.group(1).upper()
    suit = _SYMBOLS.get(match.group(2), match.group(2).lower())
    return RANKS.index("T" if rank == "10" else rank) * 4 + SUITS.index(suit)


@dataclass(frozen=True)
class SuitedShoe:
    """The cards left in a shoe, as a count of each of the 52 cards (:data:`CARDS` order).

    Parameters
    ----------
    by_card
        52 non-negative counts, rank-major (``As, Ah, Ad, Ac, 2s, ...``).
    """

    by_card: tuple[int, ...]

    def __post_init__(self) -> None:
        counts = tuple(non_negative_int(c, f"count of {name}") for c, name in zip(self.by_card, CARDS, strict=False))
        if len(tuple(self.by_card)) != 52:
            raise ValueError(f"a suited shoe needs 52 counts (ranks A..K, each s, h, d, c), got {len(self.by_card)}")
        object.__setattr__(self, "by_card", counts)

    @classmethod
    def from_decks(cls, decks: int) -> SuitedShoe:
        """``decks`` full decks: ``decks`` of each card."""
        return cls((positive_int(decks, "decks"),) * 52)

    @classmethod
    def from_cards(cls, cards: Iterable[object]) -> SuitedShoe:
        """From card strings with suits; the error names the position of a bad one."""
        counts = [0] * 52
        for i, card in enumerate(cards):
            try:
                counts[parse_suited_card(card)] += 1
            except (TypeError, ValueError) as err:
                raise type(err)(f"card {i + 1}: {err}") from None
        return cls(tuple(counts))

    @classmethod
    def from_mapping(cls, mapping: Mapping) -> SuitedShoe:
        """From ``{card: count}`` with suited cards (``"As"``, ``"10h"``); cards not named count zero."""
        counts = [0] * 52
        named: dict[int, object] = {}
        for key, count in mapping.items():
            try:
                index = parse_suited_card(key)
            except (TypeError, ValueError) as err:
                raise type(err)(f"suited shoe mapping: key {key!r}: {err}") from None
            if index in named:
                raise ValueError(f"suited shoe mapping: keys {named[index]!r} and {key!r} name one card; give it once")
            named[index] = key
            counts[index] = non_negative_int(count, f"count of {CARDS[index]}")
        return cls(tuple(counts))

    @classmethod
    def from_any(cls, shoe: object) -> SuitedShoe:
        """A :class:`SuitedShoe`, a number of decks (``8``, ``"8 decks"``), 52 counts, suited card strings,
        or a mapping of suited cards to counts.

        >>> SuitedShoe.from_any({"As": 5, "Kh": 3}).total
        8
        """
        if isinstance(shoe, SuitedShoe):
            return shoe
        if isinstance(shoe, bool):
            raise TypeError(f"a suited shoe cannot be a bool, got {shoe!r}")
        if isinstance(shoe, int | np.integer):
            return cls.from_decks(int(shoe))
        if isinstance(shoe, str):
            match = _DECKS_RE.match(shoe)
            if match:
                return cls.from_decks(int(match.group(1)))
            raise ValueError(f"unknown suited shoe {shoe!r}: give a number of decks, 52 counts or suited cards")
        if isinstance(shoe, Mapping):
            return cls.from_mapping(shoe)
        items = list(shoe) if isinstance(shoe, Iterable) else None
        if items is None:
            raise TypeError(f"unknown suited shoe of type {type(shoe).__name__}: {shoe!r}")
        if items and all(isinstance(x, str) for x in items):
            return cls.from_cards(items)
        return cls(tuple(items))

    @property
    def total(self) -> int:
        """Cards in the shoe."""
        return sum(self.by_card)

    @property
    def ranks(self) -> Composition:
        """The same shoe counted by rank."""
        return Composition(tuple(sum(self.by_card[4 * r : 4 * r + 4]) for r in range(13)))

    @property
    def suit_matrix(self) -> np.ndarray:
        """``(13, 4)`` counts: rows ranks A..K, columns suits s, h, d, c."""
        return np.array(self.by_card, dtype=np.int64).reshape(13, 4)


def suit_counts(shoe: SuitedShoe | CompositionLike, decks: int | None = None) -> tuple[Composition, np.ndarray]:
    """The shoe by rank, and the ``(13, 4)`` suit weights the engine draws suits from.

    A :class:`SuitedShoe` gives its own counts.  A shoe by rank is read
    suit-blind: the cards of rank r are a random draw from the suits of
    ``decks`` full decks, every suit weighing ``decks`` (by default the fewest
    full decks that hold the shoe).

    >>> ranks, weights = suit_counts(8)
    >>> ranks.total, int(weights[0, 0])
    (416, 8)

    Parameters
    ----------
    shoe
        A :class:`SuitedShoe`, or anything :meth:`toolkit.coup.cards.Composition.from_any` reads.
    decks
        For a shoe by rank: the full decks its suits come from.

    Returns
    -------
    (Composition, numpy.ndarray)
        The shoe by rank and its ``(13, 4)`` suit weights.
    """
    if isinstance(shoe, SuitedShoe):
        return shoe.ranks, shoe.suit_matrix
    comp = Composition.from_any(shoe)
    return comp, np.full((13, 4), blind_decks(max(comp.by_rank), decks), dtype=np.int64)


def blind_decks(most_of_one_rank: int, decks: int | None = None) -> int:
    """The full decks a shoe's suits are read from, suit-blind: ``decks``, or the fewest that hold the shoe.

    Parameters
    ----------
    most_of_one_rank
        The shoe's largest count of one rank.
    decks
        The decks, when known (checked against the shoe).

    Returns
    -------
    int

    >>> blind_decks(32), blind_decks(5), blind_decks(5, 8)
    (8, 2, 8)
    """
    d = max(1, ceil(most_of_one_rank / 4)) if decks is None else positive_int(decks, "decks")
    if most_of_one_rank > 4 * d:
        raise ValueError(f"a shoe holding {most_of_one_rank} cards of one rank cannot come from {d} deck(s)")
    return d


def blind_weights(shoes: int, decks: int) -> np.ndarray:
    """Suit-blind weights of ``shoes`` shoes by rank: every suit of every rank weighing ``decks``.

    Parameters
    ----------
    shoes
        How many shoes.
    decks
        The full decks their suits come from (:func:`blind_decks`).

    Returns
    -------
    numpy.ndarray
        One broadcast number: a read-only ``(shoes, 13, 4)`` view, no memory; :func:`uniform_weight` reads it back.

    >>> blind_weights(1000, 8).shape, uniform_weight(blind_weights(1000, 8))
    ((1000, 13, 4), 8)
    """
    return np.broadcast_to(np.int64(decks), (shoes, 13, 4))


def uniform_weight(weights: np.ndarray) -> int | None:
    """The one weight of suit weights in which every suit of every rank weighs the same, else None.

    Parameters
    ----------
    weights
        Suit weights, ``(..., 13, 4)``: a suit-blind shoe's are often a broadcast view of one number, read
        without touching its elements.

    Returns
    -------
    int or None
        The weight, or None when the suits weigh differently.

    >>> uniform_weight(np.full((13, 4), 8)), uniform_weight(np.arange(52).reshape(13, 4))
    (8, None)
    """
    if weights.size == 0:
        return None
    first = int(weights.flat[0])
    if all(stride == 0 for stride in weights.strides) or bool((weights == first).all()):
        return first
    return None
