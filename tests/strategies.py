"""Shared Hypothesis strategies: shoe compositions, batches of shoes and card strings.

Compositions are drawn as 13 counts by rank (``A, 2..9, T, J, Q, K``), as
plain tuples of ints so that both the toolkit and the independent oracle
(``tests/reference_enumerator.py``) can take them.

* :func:`small_compositions`: 6-20 cards (by default) from a chosen set of ranks,
  so shoes with a single rank, a few ranks or all 13 all turn up;
  :func:`no_zero_compositions` and :func:`few_zero_compositions` are special cases
  that stress the zero-valued pair logic of the engine.
* :func:`partial_shoes`: what is left of a ``d``-deck shoe after ``k`` random cards
  were dealt (full shoes included);
* :func:`free_compositions`: any counts from 0 to 4 x ``max_decks`` per rank;
* :func:`compositions`: a mixture of all of the above, any size from six cards up.
* :func:`card_strings`: a card as a user may type it, with the rank it stands for.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
NONZERO_RANKS = tuple(range(9))
ZERO_RANKS = (9, 10, 11, 12)
MIN_CARDS = 6

__all__ = [
    "MIN_CARDS",
    "RANKS",
    "card_lists",
    "card_strings",
    "compositions",
    "few_zero_compositions",
    "free_compositions",
    "no_zero_compositions",
    "partial_shoes",
    "rank_batches",
    "scaled",
    "small_compositions",
]


def scaled(max_examples: int) -> int:
    """``max_examples`` times the ``TOOLKIT_TEST_SCALE`` environment variable (default 1), for thorough runs."""
    return max_examples * max(1, int(os.environ.get("TOOLKIT_TEST_SCALE", "1")))


def _counts(ranks: list[int]) -> tuple[int, ...]:
    counts = [0] * 13
    for r in ranks:
        counts[r] += 1
    return tuple(counts)


@st.composite
def small_compositions(
    draw,
    min_cards: int = MIN_CARDS,
    max_cards: int = 20,
    ranks: tuple[int, ...] = tuple(range(13)),
    max_distinct: int = 13,
) -> tuple[int, ...]:
    """``min_cards``..``max_cards`` cards of exactly k distinct ranks among ``ranks``, 1 <= k <= ``max_distinct``."""
    distinct = draw(st.integers(1, min(max_distinct, len(ranks), max_cards)))
    chosen = draw(st.permutations(ranks))[:distinct]
    extra = draw(
        st.lists(st.sampled_from(chosen), min_size=max(0, min_cards - distinct), max_size=max_cards - distinct)
    )
    return _counts([*chosen, *extra])


def no_zero_compositions(min_cards: int = MIN_CARDS, max_cards: int = 20) -> st.SearchStrategy[tuple[int, ...]]:
    """Small shoes with no ten or face card at all."""
    return small_compositions(min_cards, max_cards, ranks=NONZERO_RANKS)


@st.composite
def few_zero_compositions(draw, min_cards: int = MIN_CARDS, max_cards: int = 20) -> tuple[int, ...]:
    """Small shoes holding exactly 1-3 zero-valued cards, of mixed ranks among T, J, Q, K."""
    zeros = draw(st.lists(st.sampled_from(ZERO_RANKS), min_size=1, max_size=3))
    others = draw(small_compositions(min_cards - len(zeros), max_cards - len(zeros), ranks=NONZERO_RANKS))
    counts = list(others)
    for r in zeros:
        counts[r] += 1
    return tuple(counts)


@st.composite
def partial_shoes(draw, min_decks: int = 1, max_decks: int = 8, min_cards: int = MIN_CARDS) -> tuple[int, ...]:
    """A ``d``-deck shoe after a random number of random cards were dealt from it (possibly none)."""
    decks = draw(st.integers(min_decks, max_decks))
    total = 52 * decks
    left = draw(st.one_of(st.just(total), st.integers(min_cards, total)))
    seed = draw(st.integers(0, 2**32 - 1))
    counts = np.random.default_rng(seed).multivariate_hypergeometric([4 * decks] * 13, left)
    return tuple(int(c) for c in counts)


@st.composite
def free_compositions(draw, max_decks: int = 8, min_cards: int = MIN_CARDS) -> tuple[int, ...]:
    """Any 13 counts from 0 to ``4 * max_decks`` with at least ``min_cards`` cards."""
    cap = draw(st.integers(1, 4 * max_decks))
    counts = draw(st.lists(st.integers(0, cap), min_size=13, max_size=13).filter(lambda c: sum(c) >= min_cards))
    return tuple(counts)


def compositions(max_decks: int = 8) -> st.SearchStrategy[tuple[int, ...]]:
    """Compositions of any size from six cards up to ``max_decks`` decks."""
    return st.one_of(
        small_compositions(),
        few_zero_compositions(),
        partial_shoes(max_decks=max_decks),
        free_compositions(max_decks=max_decks),
    )


def rank_batches(
    elements: st.SearchStrategy | None = None, min_size: int = 1, max_size: int = 40
) -> st.SearchStrategy[np.ndarray]:
    """A ``(B, 13)`` int64 array of compositions."""
    elements = compositions() if elements is None else elements
    return st.lists(elements, min_size=min_size, max_size=max_size).map(lambda rows: np.array(rows, dtype=np.int64))


_SUITS = "shdc♠♥♦♣"


@st.composite
def card_strings(draw) -> tuple[str, int]:
    """``(text, rank index)``: a card as typed (any case, ``10`` or ``T``, optional suit and blanks)."""
    rank = draw(st.integers(0, 12))
    name = RANKS[rank]
    if name == "T":
        name = draw(st.sampled_from(["T", "10"]))
    if name.isalpha():
        name = draw(st.sampled_from([name.upper(), name.lower()]))
    suit = draw(st.sampled_from(["", *_SUITS, *_SUITS[:4].upper()]))
    pad_left, pad_right = draw(st.sampled_from(["", " "])), draw(st.sampled_from(["", " ", "  "]))
    return pad_left + name + suit + pad_right, rank


def card_lists(min_size: int = 0, max_size: int = 30) -> st.SearchStrategy[list[tuple[str, int]]]:
    """Lists of :func:`card_strings`."""
    return st.lists(card_strings(), min_size=min_size, max_size=max_size)


# ------------------------------------------------------------------ recorded shoes (tests/records/)
# Card texts with the suit they stand for, and dealing procedures of small shoes, for the record tests.
__all__ += ["recorded_cards", "shoe_dealings"]

_SUIT_LETTERS = {"s": "s", "h": "h", "d": "d", "c": "c", "♠": "s", "♥": "h", "♦": "d", "♣": "c"}


@st.composite
def recorded_cards(draw) -> tuple[str, int, str]:
    """``(text, rank index, suit)``: a :func:`card_strings` card with the suit letter it stands for (``""``: none)."""
    text, rank = draw(card_strings())
    body = text.strip()
    suit = body[2:] if body.startswith("10") else body[1:]
    return text, rank, _SUIT_LETTERS[suit.lower()] if suit else ""


def shoe_dealings(max_decks: int = 3, max_cut_card: int = 40) -> st.SearchStrategy:
    """Dealing procedures of small shoes: every burn, burn-ace value, last-hand rule and cut card (no fixed coups)."""
    from toolkit.dealing.dealer import Dealing

    return st.builds(
        Dealing,
        decks=st.integers(1, max_decks),
        burn=st.sampled_from(["standard", "fixed", "none"]),
        burn_ace=st.sampled_from([1, 11]),
        burn_cards=st.integers(0, 12),
        cut_card=st.integers(0, max_cut_card),
        last_hand=st.sampled_from(["one_more", "finish", "seven_cards", "two_more_if_first"]),
    )


# =====================================================================================================
# The games (chemin de fer, baccarat banque): hands and shoes by value, and the card-by-card dealer
# that the naive enumerators of tests/games/ share.
# =====================================================================================================
__all__ += ["VALUE_HANDS", "next_cards", "value_hand", "value_shoes"]

#: The 55 two-card hands by value, as unordered pairs ``(i, j)`` with ``i <= j`` (the toolkit's order).
VALUE_HANDS: list[tuple[int, int]] = [(i, j) for i in range(10) for j in range(i, 10)]
_VALUE_HAND_INDEX = {h: k for k, h in enumerate(VALUE_HANDS)}


def value_hand(a: int, b: int) -> int:
    """The index in :data:`VALUE_HANDS` of two card values, in either order."""
    return _VALUE_HAND_INDEX[tuple(sorted((a, b)))]


def next_cards(counts: list[int], replacement: bool = False) -> Iterator[tuple[int, Fraction]]:
    """Each value the next card may take, with its probability, from a shoe of ``counts`` by value.

    Without replacement the card is taken out of ``counts`` while the caller
    explores that branch (nested loops deal the next cards) and put back after.
    """
    total = sum(counts)
    for v in range(10):
        if counts[v]:
            p = Fraction(counts[v], total)
            if not replacement:
                counts[v] -= 1
            yield v, p
            if not replacement:
                counts[v] += 1


@st.composite
def value_shoes(draw, min_cards: int = 6, max_cards: int = 14, max_distinct: int = 4) -> list[int]:
    """Small shoes as 10 counts by value: ``min_cards``..``max_cards`` cards of at most ``max_distinct`` values."""
    values = draw(st.lists(st.integers(0, 9), min_size=1, max_size=max_distinct, unique=True))
    cards = draw(st.lists(st.sampled_from(values), min_size=min_cards, max_size=max_cards))
    counts = [0] * 10
    for v in cards:
        counts[v] += 1
    return counts
