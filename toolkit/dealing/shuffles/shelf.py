"""The shelf shuffler in closed form: the law of one pass, its distance to uniform, and the guessing game solved.

Diaconis, Fulman & Holmes (2013, Theorem 3.1): after one pass of ``n`` cards through ``m`` shelves
(:class:`~toolkit.dealing.shuffles.Shelf`), an arrangement with ``v`` valleys has probability

    ``P_m(v) = 4**(v + 1) / (2 * (2m)**n) * sum_a C(n + m - a - 1, n) * C(n - 1 - 2v, a - v)``,

a valley being a place ``i`` (not the first nor the last) whose card is below both its neighbours, read on the
arrangement of the original places ``0..n-1`` from the top.  Two passes through ``m`` and ``m'`` shelves make one
pass through ``2 m m'`` shelves (their Corollary 4.2; two passes of ten shelves are one of 200).  The tests check
both against the law of the sampler enumerated by brute force on small decks.

**The guessing game, solved.**  Because the chance of an arrangement depends on its valleys only, the chance of
any next card given the cards already shown depends only on: the cards left ``r``; how many of them lie below the
last card shown, ``j``; whether the last step went down (then the last card is a valley if the next one is
higher); and the valleys ``v`` already complete.  :func:`shelf_guessing_exact` runs the game over these states:
the exact law of the score of a guesser who follows the strategy of :mod:`~toolkit.dealing.shuffles.guessing`
(``shelf``), or of the guesser who always names the most likely next card (``optimal``; with complete feedback
this maximizes the expected score, since the guesses do not change what is shown).  For 52 cards the two agree to
rounding for every number of shelves tried: the strategy is optimal there, as Diaconis, Fulman & Holmes
conjectured.  One pass of ten shelves gives 9.2966 correct guesses on average (variance 4.736), against
``H_52 = 4.538`` for a uniform deck; so no strategy averages the "about 9.5" that summaries of the paper quote.

>>> round(shelf_guessing_exact(52, 10).expected, 4)
9.2966
>>> float(shelf_total_variation_exact(52, 200))  # doctest: +ELLIPSIS
0.0102...
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numba
import numpy as np

from toolkit._check import positive_int
from toolkit.dealing.shuffles.exact import class_distance
from toolkit.dealing.shuffles.models import Repeat, Shelf, ShuffleModel

if TYPE_CHECKING:
    import polars as pl

__all__ = [
    "MAX_EXACT_SHELF_CARDS",
    "MAX_EXACT_SHELVES",
    "SHELF_STRATEGIES",
    "ShelfGuessing",
    "equivalent_shelves",
    "shelf_guessing_exact",
    "shelf_probability",
    "shelf_total_variation",
    "shelf_total_variation_exact",
    "valley_counts",
    "valleys",
]

#: The most cards the exact guessing game is played on (its work grows as ``cards**4``).
MAX_EXACT_SHELF_CARDS = 128
#: The most shelves (one pass, or the equivalent of several) the exact results take.
MAX_EXACT_SHELVES = 10**12
#: The largest deck the exact distance is computed for.
MAX_EXACT_TV_CARDS = 832
#: The guessers of :func:`shelf_guessing_exact`, and their kernel codes.
SHELF_STRATEGIES = {"shelf": 0, "optimal": 1}


def valleys(order: np.ndarray) -> int:
    """The valleys of an arrangement: places, neither first nor last, whose card is below both neighbours.

    Parameters
    ----------
    order
        The cards from the top (any distinct numbers; the original places ``0..n-1`` after a shuffle).

    Returns
    -------
    int
        How many valleys it has.

    Examples
    --------
    >>> valleys(np.array([2, 0, 3, 1, 4])), valleys(np.arange(5))
    (2, 0)
    """
    a = np.asarray(order)
    if a.ndim != 1:
        raise ValueError(f"order must be one arrangement (a 1-d array), got shape {a.shape}")
    return int(np.count_nonzero((a[1:-1] < a[:-2]) & (a[1:-1] < a[2:])))


@cache
def valley_counts(n: int) -> tuple[int, ...]:
    """The arrangements of ``n`` cards by their valleys: ``T(n, v)`` for ``v = 0..(n - 1) // 2``.

    By the recurrence ``T(n, v) = (2v + 2) T(n-1, v) + (n - 2v) T(n-1, v-1)`` (Warren & Seneta 1996, as cited
    for the shelf shuffler), in exact integers; the tests check it by enumeration.

    Parameters
    ----------
    n
        Cards (at most 832).

    Returns
    -------
    tuple of int
        The counts; they sum to ``n!``.

    Examples
    --------
    >>> valley_counts(4)
    (8, 16)
    """
    n = positive_int(n, "n")
    if n > MAX_EXACT_TV_CARDS:
        raise ValueError(f"n must be at most {MAX_EXACT_TV_CARDS:,}, got {n:,}")
    row = [1]
    for size in range(2, n + 1):
        width = (size - 1) // 2 + 1
        row = [
            (2 * v + 2) * (row[v] if v < len(row) else 0) + ((size - 2 * v) * row[v - 1] if v > 0 else 0)
            for v in range(width)
        ]
    return tuple(row)


def _weights(n: int, shelves: int) -> list[int]:
    """``P_m(v) * 2 * (2m)**n`` for ``v = 0..(n - 1) // 2``, exact (zero from ``v = m`` on)."""
    last = min(n, shelves)  # terms with a >= m vanish (C(n + m - a - 1, n) = 0)
    big = [math.comb(n + shelves - 1, n)]  # big[a] = C(n + m - a - 1, n), each from the one before
    for a in range(1, last):
        top = n + shelves - a
        big.append(big[-1] * (top - n) // top)
    weights = []
    for v in range((n - 1) // 2 + 1):
        row = n - 1 - 2 * v
        total = sum(big[a] * math.comb(row, a - v) for a in range(v, min(last, v + row + 1)))
        weights.append(4 ** (v + 1) * total)
    return weights


def _check_shelves(n: int, shelves: int) -> tuple[int, int]:
    n, shelves = positive_int(n, "n"), positive_int(shelves, "shelves")
    if shelves > MAX_EXACT_SHELVES:
        raise ValueError(f"shelves must be at most {MAX_EXACT_SHELVES:,}, got {shelves:,}")
    return n, shelves


def shelf_probability(n: int, shelves: int, valleys: int) -> Fraction:
    """The chance of one given arrangement with ``valleys`` valleys after one pass of ``n`` cards through ``shelves``.

    Diaconis, Fulman & Holmes (2013), Theorem 3.1 (see the module's docstring); zero from ``valleys = shelves`` on.

    Parameters
    ----------
    n
        Cards.
    shelves
        Shelves of the machine (or the equivalent of several passes: :func:`equivalent_shelves`).
    valleys
        Valleys of the arrangement (0 to ``(n - 1) // 2``).

    Returns
    -------
    fractions.Fraction
        Its probability.

    Examples
    --------
    >>> shelf_probability(3, 1, 0), shelf_probability(3, 1, 1), shelf_probability(3, 2, 1)
    (Fraction(1, 4), Fraction(0, 1), Fraction(1, 8))
    """
    n, shelves = _check_shelves(n, shelves)
    if isinstance(valleys, bool) or not isinstance(valleys, int) or not 0 <= valleys <= (n - 1) // 2:
        raise ValueError(f"valleys must be a whole number from 0 to {(n - 1) // 2}, got {valleys!r}")
    return Fraction(_weights(n, shelves)[valleys], 2 * (2 * shelves) ** n)


def shelf_total_variation_exact(n: int, shelves: int) -> Fraction:
    """The exact total-variation distance to uniform of ``n`` cards after one pass through ``shelves`` shelves.

    ``1/2 * sum_v T(n, v) |P_m(v) - 1/n!|`` with :func:`valley_counts` and :func:`shelf_probability`.

    Parameters
    ----------
    n
        Cards (at most 832).
    shelves
        Shelves (or the equivalent of several passes).

    Returns
    -------
    fractions.Fraction
        The distance.

    References
    ----------
    Diaconis, Fulman & Holmes, "Analysis of casino shelf shuffling machines", *Ann. Appl. Probab.* 23 (2013),
    1692-1720 (Table 1 tabulates it for 52 cards).

    Examples
    --------
    >>> shelf_total_variation_exact(3, 1)
    Fraction(1, 3)
    """
    n, shelves = _check_shelves(n, shelves)
    return class_distance(n, valley_counts(n), _weights(n, shelves), 2 * (2 * shelves) ** n)


def shelf_total_variation(n_cards: int = 52, shelves: int | tuple[int, ...] = (10, 20, 50, 100, 200)) -> pl.DataFrame:
    """The exact distance to uniform after one pass through each number of shelves, for any deck.

    Parameters
    ----------
    n_cards
        Cards.
    shelves
        A number of shelves, or several.

    Returns
    -------
    polars.DataFrame
        ``cards``, ``shelves``, ``tv`` (a float; the exact fraction rounds to it).

    Examples
    --------
    >>> shelf_total_variation(52, (10, 100))["tv"].round(3).to_list()
    [1.0, 0.041]
    """
    import polars as pl

    counts = [shelves] if isinstance(shelves, int) else list(shelves)
    rows = [float(shelf_total_variation_exact(n_cards, m)) for m in counts]
    return pl.DataFrame(
        {"cards": [n_cards] * len(counts), "shelves": counts, "tv": rows}, schema_overrides={"tv": pl.Float64}
    )


def equivalent_shelves(model: ShuffleModel) -> int | None:
    """The shelves of the one pass that shuffles as ``model`` does, if it is passes through shelf shufflers.

    ``Shelf(m)`` is ``m``; ``Repeat(model, k)`` composes ``k`` passes, ``m`` then ``m'`` shelves making
    ``2 m m'`` (Diaconis, Fulman & Holmes 2013, Corollary 4.2).

    Parameters
    ----------
    model
        A shuffle model.

    Returns
    -------
    int or None
        The shelves, or ``None`` when ``model`` is not made of shelf passes (or is no shuffle at all, or is the
        equivalent of more than :data:`MAX_EXACT_SHELVES` shelves).

    Examples
    --------
    >>> equivalent_shelves(Repeat(Shelf(10), 2)), equivalent_shelves(Shelf(7))
    (200, 7)
    """
    if isinstance(model, Shelf):
        return model.shelves
    if isinstance(model, Repeat) and model.times >= 1:
        inner = equivalent_shelves(model.model)
        if inner is None:
            return None
        total = inner
        for _ in range(model.times - 1):
            total = 2 * total * inner
            if total > MAX_EXACT_SHELVES:
                return None
        return total
    return None


@numba.njit(cache=True)
def _prefix_table(weights: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """``table[r, j, d, v]``: the chance of a shown sequence in state ``(r, j, d, v)``, each level rescaled.

    The chance is a sum over the orders of the ``r`` cards left; choosing the next of them, ``i`` cards below it,
    gives ``sum_{i<j} table[r-1, i, 1, v] + sum_{i>=j} table[r-1, i, 0, v + d]``.  Level ``r`` is divided by
    ``scale[r]`` so that its largest entry is 1.  Index ``v = len(weights)`` stands for impossible arrangements.
    """
    classes = weights.shape[0]
    table = np.zeros((n + 1, n + 1, 2, classes + 1))
    scale = np.ones(n + 1)
    for v in range(classes):
        table[0, 0, 0, v] = weights[v]
        table[0, 0, 1, v] = weights[v]
    up = np.zeros((n + 2, classes + 1))
    for r in range(1, n + 1):
        up[:, :] = 0.0
        for v in range(classes):
            acc = 0.0
            for j in range(r - 1, -1, -1):  # up[j, v] = sum_{i >= j} table[r-1, i, 0, v], summed without cancelling
                acc += table[r - 1, j, 0, v]
                up[j, v] = acc
        for v in range(classes):
            down = 0.0
            for j in range(r + 1):
                table[r, j, 0, v] = down + up[j, v]
                table[r, j, 1, v] = down + up[j, v + 1]
                if j < r:
                    down += table[r - 1, j, 1, v]
        top = table[r].max()
        if top > 0.0:
            table[r] /= top
            scale[r] = top
    return table, scale


@numba.njit(cache=True)
def _guess(table: np.ndarray, r: int, j: int, d: int, v: int, strategy: int) -> int:  # pragma: no cover - compiled
    """The rank among the ``r`` cards left that the guesser names in state ``(r, j, d, v)``."""
    if strategy == 0:  # the shelf strategy: the nearest unseen card in the direction of the last step
        if d == 0:
            return j if j < r else r - 1
        return j - 1 if j > 0 else 0
    best, best_value = 0, -1.0
    for i in range(r):
        value = table[r - 1, i, 1, v] if i < j else table[r - 1, i, 0, v + d]
        if value > best_value:
            best, best_value = i, value
    return best


@numba.njit(cache=True)
def _score_law(table: np.ndarray, scale: np.ndarray, strategy: int) -> np.ndarray:  # pragma: no cover - compiled
    """The law of the score: states carried from ``r = n`` (nothing shown) to ``r = 0``, each with its scores."""
    n = table.shape[0] - 1
    width = table.shape[3]
    mass = np.zeros((n + 1, 2, width, n + 1))
    mass[0, 0, 0, 0] = 1.0  # nothing shown: no card below, "rising", no valley yet
    for r in range(n, 0, -1):
        nxt = np.zeros((n + 1, 2, width, n + 1))
        for j in range(r + 1):
            for d in range(2):
                for v in range(width - 1):
                    parent = table[r, j, d, v] * scale[r]
                    if parent <= 0.0 or mass[j, d, v].max() <= 0.0:
                        continue
                    guess = _guess(table, r, j, d, v, strategy)
                    for i in range(r):
                        nd, nv = (1, v) if i < j else (0, v + d)
                        q = table[r - 1, i, nd, nv] / parent
                        if q <= 0.0:
                            continue
                        hit = 1 if i == guess else 0
                        for s in range(n - r + 1):
                            nxt[i, nd, nv, s + hit] += mass[j, d, v, s] * q
        mass = nxt
    law = np.zeros(n + 1)
    for d in range(2):
        for v in range(width):
            law += mass[0, d, v]
    return law


@dataclass(frozen=True)
class ShelfGuessing:
    """The exact guessing game after a shelf shuffler (see :func:`shelf_guessing_exact`).

    Attributes
    ----------
    cards
        Cards in the deck.
    shelves
        Shelves of the pass (or the equivalent of several).
    strategy
        ``shelf`` or ``optimal``.
    distribution
        ``distribution[k]``: the chance of exactly ``k`` correct guesses, ``k = 0..cards``.
    """

    cards: int
    shelves: int
    strategy: str
    distribution: np.ndarray

    @property
    def expected(self) -> float:
        """The expected correct guesses."""
        return float(np.arange(self.cards + 1) @ self.distribution)

    @property
    def variance(self) -> float:
        """The variance of the correct guesses."""
        k = np.arange(self.cards + 1)
        return float((k * k) @ self.distribution - self.expected**2)


def shelf_guessing_exact(cards: int = 52, shelves: int = 10, strategy: str = "shelf") -> ShelfGuessing:
    """The exact law of the correct guesses after one pass of a deck in order through ``shelves`` shelves.

    No simulation: the game is run over the states the module's docstring describes, with the law of Diaconis,
    Fulman & Holmes (2013, Theorem 3.1), in double precision.  For several passes give
    :func:`equivalent_shelves` of them.

    Parameters
    ----------
    cards
        Distinct cards (at most :data:`MAX_EXACT_SHELF_CARDS`).
    shelves
        Shelves (at most :data:`MAX_EXACT_SHELVES`).
    strategy
        ``shelf``: the strategy of :mod:`~toolkit.dealing.shuffles.guessing` (the nearest unseen card in the
        direction of the last step); ``optimal``: always the most likely next card, which maximizes the
        expected score.

    Returns
    -------
    ShelfGuessing
        The law of the score, with its ``expected`` value and ``variance``.

    References
    ----------
    Diaconis, Fulman & Holmes, "Analysis of casino shelf shuffling machines", *Ann. Appl. Probab.* 23 (2013),
    1692-1720; Clay, "Guessing strategies for shelf-shuffling machines", arXiv:2507.10294 (2025), and Kuba, "On
    card guessing after a single shelf shuffle", arXiv:2602.12928 (2026), for one shelf: ``3n/4`` and ``n/16``.

    Examples
    --------
    >>> one = shelf_guessing_exact(52, 1)
    >>> round(one.expected, 9), round(one.variance, 9)  # 3n/4 and n/16
    (39.0, 3.25)
    """
    cards, shelves = _check_shelves(cards, shelves)
    if cards > MAX_EXACT_SHELF_CARDS:
        raise ValueError(f"cards must be at most {MAX_EXACT_SHELF_CARDS} for the exact game, got {cards:,}")
    if strategy not in SHELF_STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(SHELF_STRATEGIES)}, got {strategy!r}")
    exact = _weights(cards, shelves)
    top = max(exact)
    weights = np.array([float(Fraction(w, top)) for w in exact[: min(len(exact), shelves)]])
    table, scale = _prefix_table(weights, cards)
    law = _score_law(table, scale, SHELF_STRATEGIES[strategy])
    return ShelfGuessing(cards, shelves, strategy, law)
