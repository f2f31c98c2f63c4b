"""Compiled shuffle kernels: each takes a block of card orders (one a row) and the random numbers it needs, drawn
in bulk by the caller from a seeded :class:`numpy.random.Generator`, and writes the shuffled orders.

Every kernel works on positions, never on card values: ``perm`` rows are written so that
``out[i, j] = orders[i, perm[i, j]]``, which keeps any integer dtype and makes each kernel a permutation
by construction.  The readable twins of these loops are in ``tests/dealing/test_shuffle_models.py``.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def interleave_by_digits(digits: np.ndarray, a: int) -> np.ndarray:  # pragma: no cover - compiled
    """Positions of an a-shuffle: output place ``p`` takes the next card of packet ``digits[p]``.

    Packet ``j`` holds the next ``count(digits == j)`` cards from the top, so the packet sizes are multinomial and,
    given them, every interleaving is equally likely: the Gilbert-Shannon-Reeds a-shuffle.
    """
    rows, cards = digits.shape
    perm = np.empty((rows, cards), dtype=np.int64)
    start = np.empty(a + 1, dtype=np.int64)
    for i in range(rows):
        start[:] = 0
        for p in range(cards):
            start[digits[i, p] + 1] += 1
        for j in range(a):
            start[j + 1] += start[j]
        for p in range(cards):
            d = digits[i, p]
            perm[i, p] = start[d]
            start[d] += 1
    return perm


@numba.njit(cache=True)
def cut_positions(cuts: np.ndarray, cards: int) -> np.ndarray:  # pragma: no cover - compiled
    """Positions after moving the top ``cuts[i]`` cards of row ``i`` to the bottom."""
    rows = cuts.shape[0]
    perm = np.empty((rows, cards), dtype=np.int64)
    for i in range(rows):
        for p in range(cards):
            perm[i, p] = (p + cuts[i]) % cards
    return perm


@numba.njit(cache=True)
def overhand_positions(breaks: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Positions after an overhand shuffle: ``breaks[i, g]`` cuts the gap below card ``g``; packets reversed in order.

    The packets keep their cards' order; the bottom packet comes out on top (Pemantle 1989).
    """
    rows, gaps = breaks.shape
    cards = gaps + 1
    perm = np.empty((rows, cards), dtype=np.int64)
    for i in range(rows):
        out = 0
        end = cards  # one past the last card of the packet being moved
        for g in range(gaps - 1, -2, -1):
            if g == -1 or breaks[i, g]:
                for c in range(g + 1, end):
                    perm[i, out] = c
                    out += 1
                end = g + 1
    return perm


@numba.njit(cache=True)
def shelf_positions(shelves: np.ndarray, tops: np.ndarray, k: int) -> np.ndarray:  # pragma: no cover - compiled
    """Positions after a shelf shuffler with ``k`` shelves (Diaconis, Fulman & Holmes 2013).

    The cards are dealt from the bottom of the deck: the ``t``-th card dealt (position ``cards - 1 - t``) goes to
    shelf ``shelves[i, t]``, on top of its pile when ``tops[i, t]``, else below it; the shelves are then unloaded
    in order, shelf 0 on top.
    """
    rows, cards = shelves.shape
    perm = np.empty((rows, cards), dtype=np.int64)
    # each shelf's pile lives in a window of 2 * cards slots around its centre, growing both ways
    buf = np.empty((k, 2 * cards + 1), dtype=np.int64)
    lo = np.empty(k, dtype=np.int64)
    hi = np.empty(k, dtype=np.int64)
    for i in range(rows):
        lo[:] = cards
        hi[:] = cards
        for t in range(cards):
            s = shelves[i, t]
            card = cards - 1 - t
            if tops[i, t]:
                lo[s] -= 1
                buf[s, lo[s]] = card
            else:
                buf[s, hi[s]] = card
                hi[s] += 1
        out = 0
        for s in range(k):
            for j in range(lo[s], hi[s]):
                perm[i, out] = buf[s, j]
                out += 1
    return perm


@numba.njit(cache=True)
def continuous_positions(slots: np.ndarray, buffer: int) -> np.ndarray:  # pragma: no cover - compiled
    """Positions out of a continuous shuffler holding ``buffer`` cards.

    The cards go in from the top one at a time; the ``t``-th goes in at place ``slots[i, t]`` (uniform over the
    ``size + 1`` gaps of the ``size`` cards held, ``slots`` being uniforms in [0, 1)); once the buffer is full, each
    new card is followed by dealing the buffer's bottom card.  When the input is empty the rest are dealt from the
    bottom.  The first card dealt is the top of the result.
    """
    rows, cards = slots.shape
    perm = np.empty((rows, cards), dtype=np.int64)
    held = np.empty(cards + 1, dtype=np.int64)  # held[0] is the top, held[size - 1] the bottom
    for i in range(rows):
        size = 0
        out = 0
        for t in range(cards):
            place = int(slots[i, t] * (size + 1))
            for j in range(size, place, -1):
                held[j] = held[j - 1]
            held[place] = t
            size += 1
            if size > buffer:
                size -= 1
                perm[i, out] = held[size]
                out += 1
        while size > 0:
            size -= 1
            perm[i, out] = held[size]
            out += 1
    return perm


@numba.njit(cache=True)
def plug_positions(starts: np.ndarray, cards: int, plug: int) -> np.ndarray:  # pragma: no cover - compiled
    """Positions after a plug: the bottom ``plug`` cards go in below the first ``starts[i]`` of the others."""
    rows = starts.shape[0]
    perm = np.empty((rows, cards), dtype=np.int64)
    rest = cards - plug
    for i in range(rows):
        out = 0
        for c in range(starts[i]):
            perm[i, out] = c
            out += 1
        for c in range(rest, cards):
            perm[i, out] = c
            out += 1
        for c in range(starts[i], rest):
            perm[i, out] = c
            out += 1
    return perm
