"""Compiled loops of the tracker: the discard order, the raking of the marginals and the coup's outcome law.

Each kernel has a plain-Python twin in the tests (the slow oracle it is checked against).
"""

from __future__ import annotations

import numba
import numpy as np

#: Outcome classes by value (totals, cards per hand): ``((pt * 10 + bt) * 2 + pc - 2) * 2 + bc - 2``.
N_MAIN = 400


@numba.njit(cache=True)
def discard_kernel(
    shoes: np.ndarray,
    coup_shoe: np.ndarray,
    coup_start: np.ndarray,
    coup_cards: np.ndarray,
    burn_end: np.ndarray,
    stub_top: bool,
    as_dealt: bool,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Write each shoe's discard order into ``out`` (see :func:`toolkit.studies.shuffle.tracker.discard_orders`)."""
    n, cards = shoes.shape
    fill = np.zeros(n, np.int64)
    used = burn_end.copy()
    # the stub first when it goes on top: it is known only once the coups are done, so place the rest after it
    for c in range(len(coup_shoe)):
        s = coup_shoe[c]
        k = 4 + (coup_cards[c, 2] >= 0) + (coup_cards[c, 5] >= 0)
        used[s] = coup_start[c] + k
    if stub_top:
        for s in range(n):
            for i in range(used[s], cards):
                out[s, fill[s]] = shoes[s, i]
                fill[s] += 1
    for s in range(n):
        for i in range(burn_end[s]):
            out[s, fill[s]] = shoes[s, i]
            fill[s] += 1
    order = np.empty(6, np.int64)
    for c in range(len(coup_shoe)):
        s = coup_shoe[c]
        a = coup_start[c]
        p3 = coup_cards[c, 2] >= 0
        b3 = coup_cards[c, 5] >= 0
        k = 4 + p3 + b3
        if as_dealt:
            for t in range(k):
                order[t] = a + t
        else:  # Player's hand (cards 1, 3, then his third), then Banker's (2, 4, then his third)
            order[0] = a
            order[1] = a + 2
            t = 2
            if p3:
                order[t] = a + 4
                t += 1
            order[t] = a + 1
            order[t + 1] = a + 3
            t += 2
            if b3:
                order[t] = a + 4 + p3
        for t in range(k):
            out[s, fill[s]] = shoes[s, order[t]]
            fill[s] += 1
    if not stub_top:
        for s in range(n):
            for i in range(used[s], cards):
                out[s, fill[s]] = shoes[s, i]
                fill[s] += 1


@numba.njit(cache=True)
def coup_distribution(
    p: np.ndarray, player: np.ndarray, banker: np.ndarray, out: np.ndarray
) -> None:  # pragma: no cover - compiled
    """Law of the outcome class (``N_MAIN``) when the six cards' values are independent, ``p[k]`` the law of card k.

    ``player[t]``: Player draws on ``t``; ``banker[t, c]``: Banker draws on ``t`` when Player's third card is
    ``c`` (``c = 10``: Player stood).  Cards 1 and 3 are Player's, 2 and 4 Banker's, 5 the first third card, 6
    Banker's after Player drew.  The totals' laws are convolutions, so this costs about 10**4 steps, not 10**6.
    """
    out[:] = 0.0
    pt2 = np.zeros(10)
    bt2 = np.zeros(10)
    for a in range(10):
        for c in range(10):
            pt2[(a + c) % 10] += p[0, a] * p[2, c]
            bt2[(a + c) % 10] += p[1, a] * p[3, c]
    for x in range(10):
        for y in range(10):
            w = pt2[x] * bt2[y]
            if w == 0.0:
                continue
            if x >= 8 or y >= 8:
                out[(x * 10 + y) * 4] += w
            elif player[x]:
                for c5 in range(10):
                    w5 = w * p[4, c5]
                    pt = (x + c5) % 10
                    if banker[y, c5]:
                        for c6 in range(10):
                            out[((pt * 10 + (y + c6) % 10) * 2 + 1) * 2 + 1] += w5 * p[5, c6]
                    else:
                        out[((pt * 10 + y) * 2 + 1) * 2] += w5
            elif banker[y, 10]:
                for c5 in range(10):
                    out[(x * 10 + (y + c5) % 10) * 4 + 1] += w * p[4, c5]
            else:
                out[(x * 10 + y) * 4] += w


@numba.njit(cache=True)
def rake(q: np.ndarray, target: np.ndarray, iterations: int, tolerance: float) -> int:  # pragma: no cover
    """Iterative proportional fitting of ``q`` (rows: positions, columns: values) in place; returns the sweeps.

    Each sweep scales every column to its ``target`` (the unseen cards of that value), then every row to 1
    (each position holds one card).  Stops when every column is within ``tolerance`` of its target.
    """
    rows, cols = q.shape
    for sweep in range(iterations):
        for v in range(cols):
            s = 0.0
            for r in range(rows):
                s += q[r, v]
            if s > 0.0:
                f = target[v] / s
                for r in range(rows):
                    q[r, v] *= f
        for r in range(rows):
            s = 0.0
            for v in range(cols):
                s += q[r, v]
            if s > 0.0:
                for v in range(cols):
                    q[r, v] /= s
        worst = 0.0
        for v in range(cols):
            s = 0.0
            for r in range(rows):
                s += q[r, v]
            worst = max(worst, abs(s - target[v]))
        if worst < tolerance:
            return sweep + 1
    return iterations


@numba.njit(cache=True)
def track_kernel(
    prior: np.ndarray,
    coup_shoe: np.ndarray,
    coup_start: np.ndarray,
    unseen: np.ndarray,
    hidden: np.ndarray,
    player: np.ndarray,
    banker: np.ndarray,
    iterations: int,
    tolerance: float,
    out: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """Per coup: rake the unseen positions' value laws to the unseen composition, then the outcome law.

    ``prior[s, j, v]``: the tracker's law of the value at position ``j`` of shoe ``s`` before any card is
    seen; ``unseen[c, v]``: the unseen cards before coup ``c``; ``hidden[s] = (first, count)``: positions
    burned face down.  Writes ``out[c]`` (the outcome law) and returns the most sweeps any coup took.
    """
    cards = prior.shape[1]
    q = np.empty((cards, 10))
    p = np.empty((6, 10))
    most = 0
    for c in range(len(coup_shoe)):
        s = coup_shoe[c]
        a = coup_start[c]
        rows = 0
        for j in range(hidden[s, 0], hidden[s, 0] + hidden[s, 1]):
            q[rows] = prior[s, j]
            rows += 1
        first = rows
        for j in range(a, cards):
            q[rows] = prior[s, j]
            rows += 1
        sweeps = rake(q[:rows], unseen[c], iterations, tolerance)
        most = max(most, sweeps)
        for k in range(6):
            if first + k < rows:
                p[k] = q[first + k]
            else:  # never reached when a coup starts with six cards left
                p[k] = unseen[c] / max(unseen[c].sum(), 1.0)
        coup_distribution(p, player, banker, out[c])
    return most
