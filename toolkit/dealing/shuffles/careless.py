"""Badly mixed shoes, for testing the randomness tests: decks stacked unmixed, and riffle shuffles.

:func:`toolkit.dealing.dealer.shuffled_shoes` gives well-shuffled shoes; these give
the shoes a careless shuffle leaves, which :mod:`toolkit.records.randomness`
should catch: decks shuffled one by one and stacked (every deck-sized stretch
from a deck boundary holds each rank four times) and shoes riffled a few times
(long runs of the previous order survive).

>>> stacked_shoes(1, decks=2, seed=1).shape
(1, 104)
"""

from __future__ import annotations

import numpy as np

from toolkit._check import non_negative_int, positive_int
from toolkit.dealing.shuffles.models import Riffle, shuffle_orders
from toolkit.parallel import SeedLike, as_generator

__all__ = ["riffle_shuffle", "stacked_shoes"]


def stacked_shoes(n: int, decks: int = 8, seed: SeedLike = None) -> np.ndarray:
    """``(n, 52 * decks)`` shoes of decks each shuffled on its own and stacked, never mixed together.

    A badly mixed shoe: every run of 52 cards from a deck boundary is a whole
    deck, which :func:`toolkit.records.deck_mixing_test` detects.

    Parameters
    ----------
    n
        Shoes.
    decks
        Decks in each shoe.
    seed
        Anything :func:`toolkit.parallel.as_generator` takes.

    Returns
    -------
    numpy.ndarray
        int8 rank indices (see :data:`toolkit.coup.cards.RANKS`), one shoe a row.

    Examples
    --------
    >>> shoes = stacked_shoes(2, decks=3, seed=1)
    >>> shoes.shape, [int(c) for c in np.bincount(shoes[0, 52:104], minlength=13)] == [4] * 13
    ((2, 156), True)
    """
    n = non_negative_int(n, "n")
    decks = positive_int(decks, "decks")
    gen = as_generator(seed)
    deck = np.tile(np.arange(13, dtype=np.int8).repeat(4), (n * decks, 1))
    return gen.permuted(deck, axis=1).reshape(n, 52 * decks)


def riffle_shuffle(shoes: np.ndarray, riffles: int = 1, seed: SeedLike = None) -> np.ndarray:
    """The shoes after ``riffles`` riffle shuffles each, by the Gilbert-Shannon-Reeds model.

    One riffle cuts the cards binomially (``Binomial(n, 1/2)`` on top) and
    interleaves the two packets dropping a card from each with probability
    proportional to its size: every interleaving of the cut equally likely.
    A few riffles leave long rising sequences of the original order, which
    :func:`toolkit.records.repeated_sequences` finds when a shoe is reused.

    Parameters
    ----------
    shoes
        ``(n, cards)`` or ``(cards,)`` card orders (any integer codes).
    riffles
        Riffle shuffles applied to each shoe (0: unchanged).
    seed
        Anything :func:`toolkit.parallel.as_generator` takes.

    Returns
    -------
    numpy.ndarray
        The shuffled orders, same shape and dtype as ``shoes``.

    References
    ----------
    :class:`~toolkit.dealing.shuffles.Riffle` is the model (this is ``shuffle_orders(Riffle(riffles), shoes, seed)``).
    Gilbert (1955); Bayer & Diaconis, "Trailing the dovetail shuffle to its lair",
    *Annals of Applied Probability* 2 (1992) 294-313.

    Examples
    --------
    >>> out = riffle_shuffle(np.arange(10), seed=3)
    >>> sorted(out.tolist()) == list(range(10))
    True
    """
    riffles = non_negative_int(riffles, "riffles")
    return shuffle_orders(Riffle(riffles), np.asarray(shoes), seed)
