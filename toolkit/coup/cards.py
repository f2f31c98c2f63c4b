"""Cards, ranks, baccarat values and shoe compositions.

A *composition* is the multiset of cards left in a shoe: a count for each of the
13 ranks ``A, 2, ..., 9, T, J, Q, K``.  Baccarat only looks at values (ace 1,
pips at face value, tens and faces 0), except for the pair bets, which compare
ranks.  :class:`Composition` therefore keeps counts by rank and derives the 10
counts by value.

Every constructor funnels through :meth:`Composition.from_any`, which accepts
the "-like" inputs users type: a number of decks (``8`` or ``"8 decks"``), a
mapping of ranks (or values) to counts, a list of card strings (``"Qh"``,
``"10s"``, ``"a"``), or 10 counts by value / 13 counts by rank.

Examples
--------
>>> shoe = Composition.from_decks(8)
>>> shoe.total, shoe.by_value[0]
(416, 128)
>>> shoe.remove("K", "5h").total
414
>>> Composition.from_any([1, 2, 0, 0, 0, 0, 0, 0, 0, 3]).by_value
(1, 2, 0, 0, 0, 0, 0, 0, 0, 3)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

import numpy as np

if TYPE_CHECKING:
    from toolkit.parallel import SeedLike
from toolkit._check import integer, non_negative_int, whole_number

__all__ = [
    "RANKS",
    "RANK_VALUES",
    "Composition",
    "CompositionLike",
    "card_value",
    "hand_total",
    "parse_card",
    "parse_cards",
]

#: The 13 ranks in canonical order. ``T`` is the ten.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
#: Baccarat value of each rank in :data:`RANKS` order.
RANK_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
#: Index of each rank in :data:`RANKS`.
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
#: Indices (in :data:`RANKS`) of the four zero-valued ranks.
ZERO_RANKS: tuple[int, ...] = (9, 10, 11, 12)
#: For each value 0..9, the rank index that stands for it when only values are known.
VALUE_TO_RANK: tuple[int, ...] = (9, 0, 1, 2, 3, 4, 5, 6, 7, 8)

_SUITS = "SHDC♠♥♦♣"
_CARD_RE = re.compile(r"^\s*(10|[2-9AaTtJjQqKk])\s*([" + _SUITS + _SUITS.lower() + r"])?\s*$")
_DECKS_RE = re.compile(r"^\s*(\d+)\s*(decks?)?\s*$", re.IGNORECASE)
#: The smallest shoe from which a coup can always be dealt: two hands of up to three cards.
MIN_COUP_CARDS = 6


def parse_card(card: object) -> int:
    """Return the rank index (0..12, see :data:`RANKS`) of one card string.

    Ranks are case-insensitive, ``10`` is accepted for ``T``, and a suit letter
    (``s h d c``) or symbol may follow.

    Parameters
    ----------
    card
        A card string such as ``"Qh"``, ``"10s"`` or ``"a"``.

    Returns
    -------
    int
        The rank index 0..12.

    Examples
    --------
    >>> RANKS[parse_card("Qh")], RANKS[parse_card("10s")], RANKS[parse_card("a")]
    ('Q', 'T', 'A')
    """
    if not isinstance(card, str):
        raise TypeError(f"a card must be a string such as 'Qh' or '9', not {type(card).__name__} {card!r}")
    match = _CARD_RE.match(card)
    if match is None:
        raise ValueError(
            f"unknown card {card!r}: expected a rank A,2-9,T/10,J,Q,K, optionally followed by a suit s/h/d/c"
        )
    rank = match.group(1).upper()
    return RANK_INDEX["T" if rank == "10" else rank]


def parse_cards(cards: Iterable[object]) -> list[int]:
    """Parse many card strings; the error names the position of the bad one.

    Parameters
    ----------
    cards
        Card strings (or rank indices).

    Returns
    -------
    list of int
        Their rank indices, in order.

    Examples
    --------
    >>> parse_cards(["As", "10d", "k"])
    [0, 9, 12]
    """
    out = []
    for i, card in enumerate(cards):
        try:
            out.append(parse_card(card))
        except (TypeError, ValueError) as err:
            raise type(err)(f"card {i + 1}: {err}") from None
    return out


def card_value(card: str | int) -> int:
    """Baccarat value (0..9) of a card string or rank index.

    Parameters
    ----------
    card
        A card string (``"7d"``, ``"K"``) or a rank index 0..12 (see :data:`RANKS`).

    Returns
    -------
    int
        The baccarat value 0..9: an ace counts 1, tens and faces 0.

    Examples
    --------
    >>> card_value("K"), card_value("7d"), card_value(0)
    (0, 7, 1)
    """
    index = parse_card(card) if isinstance(card, str) else int(card)
    if not 0 <= index < 13:
        raise ValueError(f"rank index must be 0..12, got {card!r}")
    return RANK_VALUES[index]


def hand_total(ranks: Iterable[int]) -> int:
    """A hand's total: its cards' values (:data:`RANK_VALUES`) modulo ten.

    Parameters
    ----------
    ranks
        The hand's cards, as rank indices 0..12.

    Returns
    -------
    int
        The total, 0..9.

    Examples
    --------
    >>> hand_total([RANKS.index("9"), RANKS.index("4"), RANKS.index("7")])
    0
    """
    return sum(RANK_VALUES[r] for r in ranks) % 10


CompositionLike = Union["Composition", int, str, Mapping, Iterable]


@dataclass(frozen=True)
class Composition:
    """The cards left in a shoe, as counts by rank.

    Parameters
    ----------
    by_rank
        13 non-negative counts in :data:`RANKS` order (``A, 2, ..., 9, T, J, Q, K``).

    Notes
    -----
    When a composition is given by value only (10 counts), the zero-valued cards
    are split as evenly as possible over ``T, J, Q, K`` (any remainder to the
    earlier ranks).  Only the pair bets can see the difference; use 13 counts by
    rank when it matters.
    """

    by_rank: tuple[int, ...]

    def __post_init__(self) -> None:
        counts = tuple(self.by_rank)
        if len(counts) != 13:
            raise ValueError(f"a composition needs 13 counts by rank (A,2..9,T,J,Q,K), got {len(counts)}")
        clean = []
        for rank, count in zip(RANKS, counts, strict=True):
            if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
                raise TypeError(f"count of rank {rank} must be an integer, got {count!r}")
            if count < 0:
                raise ValueError(
                    f"count of rank {rank} is negative ({count}); a shoe cannot hold fewer than zero cards"
                )
            clean.append(int(count))
        object.__setattr__(self, "by_rank", tuple(clean))

    # ----------------------------------------------------------------- builders
    @classmethod
    def from_decks(cls, decks: int) -> Composition:
        """A full shoe of ``decks`` 52-card decks."""
        if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)):
            raise TypeError(f"number of decks must be an integer, got {decks!r}")
        if decks < 1:
            raise ValueError(f"number of decks must be at least 1, got {decks}")
        return cls((4 * int(decks),) * 13)

    @classmethod
    def from_values(cls, counts: Iterable[int]) -> Composition:
        """From 10 counts by value 0..9 (zero-valued cards split evenly over T, J, Q, K)."""
        values = list(counts)
        if len(values) != 10:
            raise ValueError(f"expected 10 counts by value 0..9, got {len(values)}")
        for value, count in enumerate(values):
            if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
                raise TypeError(f"count of value {value} must be an integer, got {count!r}")
            if count < 0:
                raise ValueError(f"count of value {value} is negative ({count})")
        zeros = int(values[0])
        split = [zeros // 4 + (1 if i < zeros % 4 else 0) for i in range(4)]
        return cls(tuple(int(c) for c in values[1:]) + tuple(split))

    @classmethod
    def from_cards(cls, cards: Iterable[object]) -> Composition:
        """From a list of card strings such as ``["Qh", "9", "10s"]``."""
        counts = [0] * 13
        for index in parse_cards(cards):
            counts[index] += 1
        return cls(tuple(counts))

    @classmethod
    def from_mapping(cls, mapping: Mapping) -> Composition:
        """From ``{rank: count}`` (``"A"``, ``"10"``, ``"K"``...) or ``{value: count}`` (ints 0..9).

        Keys must be all ranks or all values; ranks not named count zero.
        """
        keys = list(mapping)
        if keys and all(isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in keys):
            values = [0] * 10
            for key, count in mapping.items():
                if not 0 <= key <= 9:
                    raise ValueError(f"card value {key} is not 0..9")
                values[int(key)] = count
            return cls.from_values(values)
        counts = [0] * 13
        named: dict[int, object] = {}
        for key, count in mapping.items():
            index = parse_card(str(key) if isinstance(key, (int, np.integer)) else key)
            if index in named:
                raise ValueError(
                    f"shoe mapping: keys {named[index]!r} and {key!r} both name rank {RANKS[index]}; "
                    "give each rank once"
                )
            named[index] = key
            counts[index] = count
        return cls(tuple(counts))

    @classmethod
    def from_any(cls, shoe: CompositionLike) -> Composition:
        """Normalise any composition-like input.

        Accepts a :class:`Composition`; a number of decks (``8``, ``"8 decks"``);
        a string of comma-separated counts (10 by value or 13 by rank); a mapping
        of ranks or values to counts; a sequence of 10 or 13 integers; or a
        sequence of card strings.

        >>> Composition.from_any("8 decks") == Composition.from_decks(8)
        True
        >>> Composition.from_any({"A": 2, "K": 1}).total
        3
        """
        if isinstance(shoe, Composition):
            return shoe
        if isinstance(shoe, bool):
            raise TypeError(f"cannot make a shoe from {shoe!r}")
        if isinstance(shoe, (int, np.integer)):
            return cls.from_decks(int(shoe))
        if isinstance(shoe, str):
            match = _DECKS_RE.match(shoe)
            if match:
                return cls.from_decks(int(match.group(1)))
            if "," in shoe:
                return cls.from_counts(_parse_count_list(shoe))
            return cls.from_cards(shoe.split())
        if isinstance(shoe, Mapping):
            return cls.from_mapping(shoe)
        if isinstance(shoe, np.ndarray):
            shoe = shoe.tolist()
        if isinstance(shoe, Iterable):
            items = list(shoe)
            if items and all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in items):
                return cls.from_counts(items)
            if all(isinstance(x, str) for x in items):
                return cls.from_cards(items)
            raise TypeError("a shoe sequence must hold only integer counts or only card strings")
        raise TypeError(f"cannot make a shoe from {type(shoe).__name__} {shoe!r}")

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Composition:
        """From 10 counts by value (0..9) or 13 counts by rank (A,2..9,T,J,Q,K)."""
        items = list(counts)
        if len(items) == 10:
            return cls.from_values(items)
        if len(items) == 13:
            return cls(tuple(items))
        raise ValueError(f"expected 10 counts by value (0..9) or 13 counts by rank (A,2..9,T,J,Q,K), got {len(items)}")

    # ---------------------------------------------------------------- properties
    @property
    def total(self) -> int:
        """Number of cards."""
        return sum(self.by_rank)

    @property
    def by_value(self) -> tuple[int, ...]:
        """10 counts by baccarat value 0..9."""
        r = self.by_rank
        return (r[9] + r[10] + r[11] + r[12], *r[:9])

    @property
    def decks(self) -> float:
        """Size in 52-card decks."""
        return self.total / 52

    def __len__(self) -> int:
        return self.total

    def __str__(self) -> str:
        parts = [f"{rank}:{count}" for rank, count in zip(RANKS, self.by_rank, strict=True) if count]
        return f"Composition({self.total} cards; {' '.join(parts)})"

    def as_dict(self) -> dict[str, int]:
        """``{rank: count}`` for every rank."""
        return dict(zip(RANKS, self.by_rank, strict=True))

    # ------------------------------------------------------------------ removal
    def _removal_counts(self, cards: tuple) -> list[int]:
        if len(cards) == 1 and not isinstance(cards[0], (str, int, np.integer)):
            cards = tuple(cards[0])
        removed = [0] * 13
        for index in parse_cards(cards):
            removed[index] += 1
        return removed

    def can_remove(self, *cards: object) -> bool:
        """Whether every card named could be taken from this shoe.

        >>> Composition.from_cards(["A", "K"]).can_remove("A", "A")
        False
        """
        removed = self._removal_counts(cards)
        return all(r <= c for r, c in zip(removed, self.by_rank, strict=True))

    def remove(self, *cards: object) -> Composition:
        """A new composition without the given cards (strings, or one iterable of strings)."""
        removed = self._removal_counts(cards)
        for rank, r, c in zip(RANKS, removed, self.by_rank, strict=True):
            if r > c:
                raise ValueError(f"cannot remove {r} card(s) of rank {rank}: the shoe holds only {c}")
        return Composition(tuple(c - r for c, r in zip(self.by_rank, removed, strict=True)))

    def remove_value(self, value: int, count: int = 1) -> Composition:
        """Remove ``count`` cards of a baccarat value; zero-valued cards come from the most plentiful of T, J, Q, K."""
        value = integer(value, "remove_value: value")
        if not 0 <= value <= 9:
            raise ValueError(f"remove_value: value must be 0..9, got {value}")
        count = non_negative_int(count, "remove_value: count")
        counts = list(self.by_rank)
        for _ in range(count):
            if value == 0:
                index = max(ZERO_RANKS, key=lambda i: counts[i])
            else:
                index = VALUE_TO_RANK[value]
            if counts[index] == 0:
                raise ValueError(f"cannot remove a card of value {value}: none left in the shoe")
            counts[index] -= 1
        return Composition(tuple(counts))

    def random_removal(self, n: int, seed: SeedLike = None) -> Composition:
        """What is left after ``n`` cards drawn at random, unseen (a multivariate hypergeometric draw).

        >>> Composition.from_decks(8).random_removal(100, seed=1).total
        316
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= self.total:
            raise ValueError(f"cannot remove {n!r} cards at random from a shoe of {self.total}")
        from toolkit.parallel import as_generator

        gen = as_generator(seed)
        drawn = gen.multivariate_hypergeometric(np.array(self.by_rank, dtype=np.int64), int(n))
        return Composition(tuple(int(c - d) for c, d in zip(self.by_rank, drawn, strict=True)))

    def add(self, *cards: object) -> Composition:
        """A new composition with the given cards put back."""
        added = self._removal_counts(cards)
        return Composition(tuple(c + a for c, a in zip(self.by_rank, added, strict=True)))

    def require_coup(self) -> None:
        """Raise :class:`ValueError` unless a coup can be dealt (at least six cards)."""
        if self.total < MIN_COUP_CARDS:
            raise ValueError(
                f"the shoe holds {self.total} card(s); a coup may need six "
                "(two hands of up to three cards), so at least six are required"
            )


def _parse_count_list(text: str) -> list[int]:
    """Counts from ``"4,4,..."``: ASCII digits with an optional sign only (``int`` would read ``3_2`` as 32)."""
    out = []
    for i, raw in enumerate(text.split(",")):
        part = raw.strip()
        try:
            out.append(whole_number(part, f"count {i + 1} in {text!r}"))
        except ValueError:
            raise ValueError(f"count {i + 1} ({part!r}) in {text!r} is not a whole number written in digits") from None
    return out
