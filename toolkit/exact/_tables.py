"""Precomputed coup tables: the polynomial behind the exact engine.

A coup uses k = 4, 5 or 6 cards.  The probability of one ordered sequence of k
values drawn from a shoe with counts ``n`` (by value) is

    prod_v (n_v)_(m_v) / (N)_k

where ``m`` is the multiset of values in the sequence and ``(x)_j`` the falling
factorial.  It depends on the sequence only through ``m``.  So the probability
of any set of coups is ``sum_m A[m] prod_v (n_v)_(m_v) / (N)_k`` where ``A[m]``
counts the ordered sequences with multiset ``m`` in the set.  There are
715 + 2002 + 5005 = 7,722 multisets of 4, 5 and 6 values; :func:`coup_table`
counts, for every tableau, the sequences of each multiset that end in each
outcome class.

Pairs compare ranks, not values.  For non-zero values rank equals value, so a
pair is known from the values.  When both cards of a hand are zero-valued the
pair depends on which of T, J, Q, K they are; given the value sequence, the
ranks of the zero-valued cards are a uniform draw without replacement from the
zero-valued cards of the shoe, so

* P(two given zero-valued cards share a rank) = alpha = sum_r z_r (z_r - 1) / (z (z - 1))
* P(both hands' zero pairs are pairs) = beta = [sum_r (z_r)_4 + sum_{r != s} (z_r)_2 (z_s)_2] / (z)_4

with ``z_r`` the shoe's count of rank r among T, J, Q, K and ``z`` their sum.
The table therefore records a *pair state* per hand: 0 no pair, 1 a pair of a
non-zero value, 2 two zero-valued cards (a pair with probability alpha).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from toolkit.coup.rules import PLAYER_STOOD, Tableau

#: Multisets of each size are indexed in one array; sizes 0..6.
MAX_CARDS = 6
N_EXT = 400 * 9  # main class x player pair state x banker pair state


@dataclass(frozen=True)
class Multisets:
    """All multisets of 0..6 card values, ordered by size then lexicographically.

    ``parent[j]`` is multiset j without its largest value ``added[j]``, of which
    the parent already holds ``held[j]``.  ``size[j]`` is the number of cards.
    """

    parent: np.ndarray
    added: np.ndarray
    held: np.ndarray
    size: np.ndarray
    counts: np.ndarray  # (M, 10) multiplicities
    codes: np.ndarray  # sum_v m_v 7**v, sorted within each size
    first4: int  # index of the first multiset of size 4


@lru_cache(maxsize=1)
def multisets() -> Multisets:
    tuples: list[tuple[int, ...]] = []
    for size in range(MAX_CARDS + 1):
        tuples.extend(combinations_with_replacement(range(10), size))
    index = {t: i for i, t in enumerate(tuples)}
    m = len(tuples)
    parent = np.zeros(m, dtype=np.int64)
    added = np.zeros(m, dtype=np.int64)
    held = np.zeros(m, dtype=np.int64)
    sizes = np.zeros(m, dtype=np.int64)
    counts = np.zeros((m, 10), dtype=np.int64)
    for i, t in enumerate(tuples):
        sizes[i] = len(t)
        for v in t:
            counts[i, v] += 1
        if t:
            parent[i] = index[t[:-1]]
            added[i] = t[-1]
            held[i] = t[:-1].count(t[-1])
    codes = counts @ (7 ** np.arange(10, dtype=np.int64))
    first4 = int(np.searchsorted(sizes, 4))
    return Multisets(parent, added, held, sizes, counts, codes, first4)


@dataclass(frozen=True)
class CoupTable:
    """Sparse counts: ``count[i]`` ordered sequences of multiset ``mset[i]`` end in ``ext[i]``.

    ``ext = main_class * 9 + player_pair_state * 3 + banker_pair_state``, where
    ``main_class = ((pt * 10 + bt) * 2 + pc - 2) * 2 + bc - 2``.
    """

    ext: np.ndarray
    mset: np.ndarray
    count: np.ndarray


def _pair_state(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    both_zero = (first == 0) & (second == 0)
    return np.where(both_zero, 2, np.where(first == second, 1, 0))


@dataclass(frozen=True)
class SequenceTable:
    """Every ordered sequence of six values (10**6 of them) played out under a tableau.

    ``cards[i]`` holds the six values in deal order (positions 1..6; a coup that
    stops early leaves the last ones unused), ``ext`` the extended outcome class,
    ``used`` the number of cards the coup uses, ``code6`` / ``code_used`` the
    multiset codes (see :class:`Multisets`) of all six values and of the used ones.
    """

    cards: np.ndarray
    ext: np.ndarray
    used: np.ndarray
    code6: np.ndarray
    code_used: np.ndarray


@lru_cache(maxsize=4)
def value_sequences(tableau: Tableau) -> SequenceTable:
    """Play every six-value sequence under ``tableau`` (vectorised)."""
    player = np.array(tableau.player, dtype=bool)
    banker = np.array(tableau.banker, dtype=bool)
    c = np.indices((10,) * 6, dtype=np.int64).reshape(6, -1)
    c1, c2, c3, c4, c5, c6 = c
    pt2 = (c1 + c3) % 10
    bt2 = (c2 + c4) % 10
    natural = (pt2 >= 8) | (bt2 >= 8)
    pdraw = ~natural & player[pt2]
    bdraw = np.where(natural, False, np.where(pdraw, banker[bt2, c5], banker[bt2, PLAYER_STOOD]))
    banker_card = np.where(pdraw, c6, c5)
    k = 4 + pdraw.astype(np.int64) + bdraw.astype(np.int64)
    pt = (pt2 + np.where(pdraw, c5, 0)) % 10
    bt = (bt2 + np.where(bdraw, banker_card, 0)) % 10
    main = ((pt * 10 + bt) * 2 + pdraw) * 2 + bdraw
    ext = main * 9 + _pair_state(c1, c3) * 3 + _pair_state(c2, c4)
    powers = 7 ** np.arange(10, dtype=np.int64)
    code4 = powers[c1] + powers[c2] + powers[c3] + powers[c4]
    code_used = code4 + np.where(k >= 5, powers[c5], 0) + np.where(k >= 6, powers[c6], 0)
    code6 = code4 + powers[c5] + powers[c6]
    return SequenceTable(c.astype(np.int8), ext, k, code6, code_used)


def multiset_index(codes: np.ndarray) -> np.ndarray:
    """Index in :func:`multisets` of each multiset code."""
    ms = multisets()
    order = np.argsort(ms.codes)
    index = order[np.searchsorted(ms.codes[order], codes)]
    if not np.array_equal(ms.codes[index], codes):
        raise AssertionError("multiset lookup failed")  # internal invariant
    return index


@dataclass(frozen=True)
class UsedSequences:
    """The value sequences a coup actually uses (339,400 under punto banco), in lexicographic order.

    ``cards[i]`` holds the values in deal order with 0 in the positions the coup
    leaves undealt (the one representative of each used sequence among the 10**6
    of :func:`value_sequences`), ``ext`` the extended outcome class, ``used`` the
    number of cards dealt and ``code_used`` the multiset code of the dealt values.
    """

    cards: np.ndarray
    ext: np.ndarray
    used: np.ndarray
    code_used: np.ndarray


def _deal_one_more(draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each prefix that draws followed by each value 0..9, the others by one undealt 0; order kept."""
    width = np.where(draws, 10, 1)
    parent = np.repeat(np.arange(len(draws)), width)
    start = np.cumsum(width) - width
    card = np.arange(len(parent)) - np.repeat(start, width)
    return parent, card


@lru_cache(maxsize=4)
def used_sequences(tableau: Tableau) -> UsedSequences:
    """Play the coup card by card under ``tableau``: four cards, then a fifth and a sixth only when drawn.

    The same sequences, classes and codes as :func:`value_sequences` keeps of its
    10**6 rows (those whose undealt positions hold 0), without materialising them.
    """
    player = np.array(tableau.player, dtype=bool)
    banker = np.array(tableau.banker, dtype=bool)
    c1, c2, c3, c4 = np.indices((10,) * 4, dtype=np.int64).reshape(4, -1)
    pt2 = (c1 + c3) % 10
    bt2 = (c2 + c4) % 10
    natural = (pt2 >= 8) | (bt2 >= 8)
    pdraw4 = ~natural & player[pt2]
    bstood4 = ~natural & ~pdraw4 & banker[bt2, PLAYER_STOOD]  # Player stood, Banker draws the fifth card
    at5, c5 = _deal_one_more(pdraw4 | bstood4)
    pdraw = pdraw4[at5]
    at6, c6 = _deal_one_more(pdraw & banker[bt2[at5], c5])
    at = at5[at6]  # the four-card prefix of each row
    c5, pdraw = c5[at6], pdraw[at6]
    c1, c2, c3, c4, pt2, bt2 = c1[at], c2[at], c3[at], c4[at], pt2[at], bt2[at]
    bdraw = bstood4[at] | (pdraw & banker[bt2, c5])
    k = 4 + pdraw.astype(np.int64) + bdraw.astype(np.int64)
    pt = (pt2 + np.where(pdraw, c5, 0)) % 10
    bt = (bt2 + np.where(bdraw, np.where(pdraw, c6, c5), 0)) % 10
    main = ((pt * 10 + bt) * 2 + pdraw) * 2 + bdraw
    ext = main * 9 + _pair_state(c1, c3) * 3 + _pair_state(c2, c4)
    powers = 7 ** np.arange(10, dtype=np.int64)
    code = powers[c1] + powers[c2] + powers[c3] + powers[c4]
    code = code + np.where(k >= 5, powers[c5], 0) + np.where(k >= 6, powers[c6], 0)
    cards = np.stack([c1, c2, c3, c4, c5, c6]).astype(np.int8)
    return UsedSequences(cards, ext, k, code)


@lru_cache(maxsize=16)
def coup_table(tableau: Tableau) -> CoupTable:
    """Count the used value sequences under ``tableau`` by outcome class and multiset (see module notes)."""
    seq = used_sequences(tableau)
    ms = multisets()
    # codes are unique across sizes (the size is the sum of the base-7 digits)
    mset = multiset_index(seq.code_used)
    if not np.array_equal(ms.size[mset], seq.used):
        raise AssertionError("multiset lookup failed")  # internal invariant
    key = seq.ext * len(ms.codes) + mset
    uniq, count = np.unique(key, return_counts=True)
    return CoupTable(
        ext=(uniq // len(ms.codes)).astype(np.int64),
        mset=(uniq % len(ms.codes)).astype(np.int64),
        count=count.astype(np.int64),
    )


def ext_to_main(ext: np.ndarray) -> np.ndarray:
    return ext // 9


def ext_pair_states(ext: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (ext % 9) // 3, ext % 3
