"""Riffle shuffles in closed form: rising sequences, the Bayer-Diaconis formula and the exact distance to uniform.

After an a-shuffle of ``n`` cards (``k`` riffles: ``a = 2**k``) a permutation with ``r`` rising sequences has
probability ``C(n + a - r, n) / a**n`` (Bayer & Diaconis 1992, Theorem 1).  The Eulerian number ``A(n, r)``
counts the permutations of ``n`` with ``r`` rising sequences, so the total-variation distance to the uniform
deck is

    ``TV = 1/2 * sum_r A(n, r) * |C(n + a - r, n) / a**n - 1/n!|``,

computed here in exact integers (a :class:`fractions.Fraction`).

>>> float(total_variation_exact(52, 7))  # doctest: +ELLIPSIS
0.33406...
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from toolkit._check import non_negative_int, positive_int

if TYPE_CHECKING:
    import polars as pl

__all__ = [
    "MAX_EXACT_CARDS",
    "class_distance",
    "eulerian_numbers",
    "riffle_probability",
    "rising_sequences",
    "total_variation",
    "total_variation_exact",
]

#: The largest deck the exact distance is computed for (the Eulerian numbers are exact integers).
MAX_EXACT_CARDS = 2_000
#: The most riffles the exact distance is computed for (``a = 2**k`` makes numbers of ``n * k`` bits).
MAX_EXACT_RIFFLES = 64
#: :func:`total_variation` sums a row in integers while ``cards * riffles`` is at most this (numbers of that many
#: bits) or ``a = 2**riffles`` is at most the cards (at most 20,000 bits: under a second); past both, in floats
#: from logarithms (:func:`_total_variation_float`, within 1e-12 of the exact distance; 64 riffles of 2,000
#: cards took 65 s a row in integers).
EXACT_ROW_BITS = 8_192


def rising_sequences(order: np.ndarray) -> int:
    """Rising sequences of a permutation of ``0..n-1``: maximal runs of consecutive values ``v, v+1, ...`` in order.

    Their number is one more than the values ``v`` that lie after ``v + 1``.

    Parameters
    ----------
    order
        A permutation of ``0..n-1`` (the card at each place, from the top).

    Returns
    -------
    int
        The rising sequences (1 for the deck in order, ``n`` for it reversed).

    Examples
    --------
    >>> rising_sequences(np.array([0, 3, 1, 4, 2]))
    2
    """
    order = np.asarray(order)
    n = order.size
    if n == 0:
        return 0
    if sorted(order.tolist()) != list(range(n)):
        raise ValueError("order must be a permutation of 0..n-1")
    place = np.empty(n, dtype=np.int64)
    place[order] = np.arange(n)
    return 1 + int(np.count_nonzero(place[1:] < place[:-1]))


@cache
def eulerian_numbers(n: int) -> tuple[int, ...]:
    """``A(n, r)`` for ``r = 1..n``: the permutations of ``n`` cards with ``r`` rising sequences.

    By the recurrence ``A(n, r) = r A(n-1, r) + (n - r + 1) A(n-1, r-1)``, in exact integers.

    Parameters
    ----------
    n
        Cards (at most :data:`MAX_EXACT_CARDS`).

    Returns
    -------
    tuple of int
        ``(A(n, 1), ..., A(n, n))``; they sum to ``n!``.

    Examples
    --------
    >>> eulerian_numbers(4)
    (1, 11, 11, 1)
    """
    n = positive_int(n, "n")
    if n > MAX_EXACT_CARDS:
        raise ValueError(f"n must be at most {MAX_EXACT_CARDS:,} for exact Eulerian numbers, got {n:,}")
    row = [1]
    for m in range(2, n + 1):
        row = [(r + 1) * (row[r] if r < m - 1 else 0) + (m - r) * (row[r - 1] if r > 0 else 0) for r in range(m)]
    return tuple(row)


def riffle_probability(n: int, a: int, r: int) -> Fraction:
    """The chance of one given permutation with ``r`` rising sequences after an a-shuffle of ``n`` cards.

    ``C(n + a - r, n) / a**n`` (Bayer & Diaconis 1992, Theorem 1; 0 when ``r > a``).

    Parameters
    ----------
    n
        Cards.
    a
        Packets of the a-shuffle (``2**k`` for ``k`` riffles).
    r
        Rising sequences of the permutation (1 to ``n``).

    Returns
    -------
    fractions.Fraction
        Its probability.

    Examples
    --------
    >>> riffle_probability(3, 2, 1), riffle_probability(3, 2, 2), riffle_probability(3, 2, 3)
    (Fraction(1, 2), Fraction(1, 8), Fraction(0, 1))
    """
    n, a, r = positive_int(n, "n"), positive_int(a, "a"), positive_int(r, "r")
    if r > n:
        raise ValueError(f"r must be at most n = {n}, got {r}")
    return Fraction(math.comb(n + a - r, n), a**n)


def total_variation_exact(n: int, riffles: int) -> Fraction:
    """The exact total-variation distance to uniform of ``n`` cards after ``riffles`` GSR riffles.

    Parameters
    ----------
    n
        Cards (at most :data:`MAX_EXACT_CARDS`).
    riffles
        Riffles (``a = 2**riffles``; at most :data:`MAX_EXACT_RIFFLES`).

    Returns
    -------
    fractions.Fraction
        ``1/2 * sum_r A(n, r) |C(n + a - r, n) / a**n - 1/n!|``.

    References
    ----------
    Bayer & Diaconis, "Trailing the dovetail shuffle to its lair", *Ann. Appl. Probab.* 2 (1992) 294-313.

    Examples
    --------
    >>> total_variation_exact(3, 1)
    Fraction(1, 3)
    """
    n = positive_int(n, "n")
    riffles = non_negative_int(riffles, "riffles")
    if riffles > MAX_EXACT_RIFFLES:
        raise ValueError(f"riffles must be at most {MAX_EXACT_RIFFLES}, got {riffles}")
    a = 2**riffles
    ways = [math.comb(n + a - r, n) for r in range(1, n + 1)]
    return class_distance(n, eulerian_numbers(n), ways, a**n)


def class_distance(n: int, sizes: Sequence[int], ways: Sequence[int], total: int) -> Fraction:
    """Total-variation distance to uniform of a law on the ``n!`` orders that is constant on classes.

    Class ``c`` holds ``sizes[c]`` orders, each of probability ``ways[c] / total``; the distance
    ``1/2 sum_c sizes[c] |ways[c] / total - 1/n!|`` is summed in integers.

    >>> class_distance(2, [1, 1], [3, 1], 4)  # two orders, of probabilities 3/4 and 1/4
    Fraction(1, 4)
    """
    fact = math.factorial(n)
    gap = sum(size * abs(w * fact - total) for size, w in zip(sizes, ways, strict=True))
    return Fraction(gap, 2 * total * fact)


def total_variation(n_cards: int = 52, riffles: int | range | tuple[int, ...] = range(1, 11)) -> pl.DataFrame:
    """The exact distance to uniform after each number of riffles: Bayer & Diaconis's table for any deck.

    Parameters
    ----------
    n_cards
        Cards (52 for a deck, 416 for eight).
    riffles
        The riffles of each row: a number ``k`` (rows ``1..k``) or the riffle counts.

    Returns
    -------
    polars.DataFrame
        ``cards``, ``riffles``, ``tv``: the exact fraction rounded to a float while ``cards * riffles`` is at most
        :data:`EXACT_ROW_BITS` or ``2**riffles`` at most the cards, else within 1e-12 of it (relative; both are
        tested against each other).

    Examples
    --------
    >>> total_variation(52, 10)["tv"].round(3).to_list()
    [1.0, 1.0, 1.0, 1.0, 0.924, 0.614, 0.334, 0.167, 0.085, 0.043]
    """
    import polars as pl

    n_cards = positive_int(n_cards, "n_cards")
    counts = range(1, non_negative_int(riffles, "riffles") + 1) if isinstance(riffles, int) else riffles
    ks = [non_negative_int(k, "riffles") for k in counts]
    for k in ks:  # every row checked before any is computed
        if k > MAX_EXACT_RIFFLES:
            raise ValueError(f"riffles must be at most {MAX_EXACT_RIFFLES}, got {k}")
    if n_cards > MAX_EXACT_CARDS:
        raise ValueError(f"n must be at most {MAX_EXACT_CARDS:,} for exact Eulerian numbers, got {n_cards:,}")
    rows = [
        float(total_variation_exact(n_cards, k))
        if n_cards * k <= EXACT_ROW_BITS or 2**k <= n_cards
        else _total_variation_float(n_cards, k)
        for k in ks
    ]
    return pl.DataFrame({"cards": [n_cards] * len(ks), "riffles": ks, "tv": rows}, schema_overrides={"tv": pl.Float64})


@cache
def _eulerian_shares(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``A(n, r) / n!`` for ``r = 1..n`` as floats (Python divides integers correctly rounded), and their logs."""
    fact = math.factorial(n)
    counts = eulerian_numbers(n)
    log_fact = math.log(fact)
    return np.array([c / fact for c in counts]), np.array([math.log(c) - log_fact for c in counts])


def _total_variation_float(n: int, riffles: int) -> float:
    """The distance of :func:`total_variation_exact` in floats, for ``a = 2**riffles`` above ``n``.

    A permutation with ``r`` rising sequences is ``ratio_r = C(n + a - r, n) n! / a**n = prod_i (1 + (i - r) / a)``
    times as likely as under the uniform law, so ``TV = 1/2 sum_r (A(n, r) / n!) |ratio_r - 1|``, a sum of
    non-negative terms (no cancellation).  ``log ratio_1 = sum_i log1p((i - 1) / a)`` and
    ``ratio_(r+1) / ratio_r = (a - r) / (a - r + n)`` give every ``log ratio_r`` from logarithms of numbers near
    one, and ``expm1`` the small differences from one; a large ratio is taken with its share's logarithm.

    >>> abs(_total_variation_float(52, 12) / float(total_variation_exact(52, 12)) - 1) < 1e-12
    True
    """
    a = 2.0**riffles
    if a <= n:
        raise ValueError(f"the float distance needs more packets than cards: 2**{riffles} <= {n}")
    r = np.arange(1, n, dtype=np.float64)
    steps = np.log1p(-r / a) - np.log1p((n - r) / a)
    first = math.fsum(math.log1p(i / a) for i in range(n))
    logs = first + np.concatenate(([0.0], np.cumsum(steps)))
    shares, log_shares = _eulerian_shares(n)
    small = logs <= 1.0
    terms = np.empty(n)
    terms[small] = shares[small] * np.abs(np.expm1(logs[small]))
    big = ~small  # share * (e**L - 1) = e**(log share + L) * (1 - e**-L): no overflow, no 0 * inf
    terms[big] = np.exp(log_shares[big] + logs[big]) * -np.expm1(-logs[big])
    return 0.5 * math.fsum(terms.tolist())
