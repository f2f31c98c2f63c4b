"""Bets on ranks, suits and colours (label events, prefix patterns) as weights on the engine's multisets, for the
computed count (:mod:`toolkit.counting.computed`).

A label bet's expectation on a shoe ``c`` is a sum over the entries of its compiled walk
(:mod:`toolkit.bets._label_events`): ``count x F_m(c) x Q(pattern; c)`` sent to a payout column, with ``F_m`` the
probability of one ordered value sequence of multiset ``m`` and ``Q`` the draw of the labelled cards given their
values.  ``F_m Q`` is the probability of an ordered sequence of ranks (times a suit factor that does not depend on
the ranks left, the suits of each rank being a uniform draw from the ``decks`` full decks' suits), so the identity
of the computed count holds for it term by term: given the count, the bet is priced by ``F_m(S) Q(pattern; S)`` at
the shoe ``S`` the seen cards come from, and the law of the count of the shoe less ``m``'s projection.  So a label
bet's weights are those of a value bet whose events carry ``Q`` at ``S``; they depend on ``S``, hence on the exposed
burn card (a ten-valued one is any of T, J, Q, K: the weights are averaged over the four).

Prefix-pattern bets (the first four cards' ranks and suits, :mod:`toolkit.bets._prefix_patterns`) compile to the
same label events (their exact path), so they are priced the same way.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from toolkit.bets.base import Bet
from toolkit.coup.rules import Tableau
from toolkit.exact._tables import multisets

__all__ = ["label_moments"]

#: The zero-valued ranks (T, J, Q, K) as rank indices.
ZERO_RANKS = (9, 10, 11, 12)


def _q(table, ranks: np.ndarray, values: np.ndarray, decks: int) -> np.ndarray:
    """``Q`` of every node of the patterns' trie on a shoe (ranks, values), suits read as ``decks`` full decks'."""
    pat = table.patterns
    labelled = (2 if table.colour else 1) * decks
    q = np.ones(len(pat.parent))
    for j in range(1, len(pat.parent)):
        r, v = int(pat.rank[j]), int(pat.value[j])
        den = values[v] - pat.held_value[j]
        num = ranks[r] - pat.held_rank[j]
        f = num / den if den > 0 and num > 0 else 0.0
        if pat.label[j] >= 0:
            den_s = 4 * decks - pat.held_labelled[j]
            num_s = labelled - pat.held_label[j]
            f *= num_s / den_s if den_s > 0 and num_s > 0 else 0.0
        q[j] = q[int(pat.parent[j])] * f
    return q


def label_moments(bet: Bet, tableau: Tableau, decks: int) -> Callable[[np.ndarray, np.ndarray, int], tuple]:
    """The bet's first and second moments as weights on the engine's multisets, as a function of the shoe.

    Parameters
    ----------
    bet
        A bet priced by label events or prefix patterns (a :class:`~toolkit.bets.coup_bets.CoupBet`).
    tableau
        The drawing rules.
    decks
        The full decks whose suits the cards of each rank are drawn from.

    Returns
    -------
    callable
        ``(ranks (13,), values (10,), burn_value) -> (const (2,), weights (2, 3, M))`` as
        :func:`toolkit.counting.computed._moment_weights` (only the first of the three parts used); with
        ``burn_value == 0`` the shoe is missing one ten-valued card of unknown rank (``ranks`` lacks a T), and the
        weights are the mean over the four ranks it may be.
    """
    table = bet.compiled(tableau)  # type: ignore[attr-defined]
    mset, event, count = table.entries
    node = table.patterns.node[table.event_pattern[event]]
    pays = np.array([float(p) for p in table.payouts])
    default = float(table.default)
    m = len(multisets().parent)
    gs = []
    for power in (1, 2):
        g = np.r_[pays**power - default**power, 0.0]  # column -1 (none) reads the appended 0
        gs.append(g[table.event_plus[event]] - g[table.event_minus[event]])
    const = np.array([default, default**2])

    def moments(ranks: np.ndarray, values: np.ndarray, burn_value: int) -> tuple[np.ndarray, np.ndarray]:
        if burn_value == 0:  # a ten-valued card of unknown rank: T, J, Q or K, equally likely
            shoes = []
            for r in ZERO_RANKS:
                alt = ranks.copy()
                alt[ZERO_RANKS[0]] += 1
                alt[r] -= 1
                shoes.append(alt)
        else:
            shoes = [ranks]
        weights = np.zeros((2, 3, m))
        for shoe in shoes:
            q = _q(table, shoe, values, decks)[node] * count
            for k in range(2):
                weights[k, 0] += np.bincount(mset, weights=q * gs[k], minlength=m) / len(shoes)
        return const, weights

    return moments
