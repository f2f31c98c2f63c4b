"""The exact posterior of one GSR riffle: a hidden Markov chain over (cut, cards taken from the top packet).

One riffle of ``n`` cards cuts ``c ~ Bin(n, 1/2)`` cards on top and drops the next card from the top packet
with probability (top cards left) / (cards left) (Gilbert-Shannon-Reeds).  After ``p`` cards of the new shoe,
``t`` of them from the top packet, the next card is old card ``t`` (top) or ``c + p - t`` (bottom); so the
state ``(c, t)`` is a Markov chain whose every step shows the rank of a known old card (a card burned face
down shows nothing).  The forward algorithm gives the exact posterior of the state, and from each state the
next six cards follow one of 2**6 top/bottom paths with known probabilities: the exact law of the coup.
"""

from __future__ import annotations

import numba
import numpy as np

#: States whose posterior weight is below this share of the largest are left out of the coup's law.
PRUNE = 1e-12


@numba.njit(cache=True)
def _main_class(v: np.ndarray, player: np.ndarray, banker: np.ndarray) -> int:  # pragma: no cover - compiled
    pt = (v[0] + v[2]) % 10
    bt = (v[1] + v[3]) % 10
    if pt >= 8 or bt >= 8:
        return (pt * 10 + bt) * 4
    if player[pt]:
        third = v[4]
        pt3 = (pt + third) % 10
        if banker[bt, third]:
            return ((pt3 * 10 + (bt + v[5]) % 10) * 2 + 1) * 2 + 1
        return ((pt3 * 10 + bt) * 2 + 1) * 2
    if banker[bt, 10]:
        return (pt * 10 + (bt + v[4]) % 10) * 4 + 1
    return (pt * 10 + bt) * 4


@numba.njit(cache=True)
def _step(alpha, nxt, old, p, seen, c_lo, c_hi):  # pragma: no cover - compiled
    """Advance the posterior past new position ``p`` showing rank ``seen`` (-1: not shown).

    Only cuts ``c_lo..c_hi`` carry weight; returns the range that still does.
    """
    n = len(old)
    total = 0.0
    for c in range(c_lo, c_hi + 1):
        for t in range(max(0, p - (n - c)), min(p + 1, c) + 1):
            nxt[c, t] = 0.0
    for c in range(c_lo, c_hi + 1):
        for t in range(max(0, p - (n - c)), min(p, c) + 1):
            w = alpha[c, t]
            if w == 0.0:
                continue
            top = (c - t) / (n - p)
            if top > 0.0 and (seen < 0 or old[t] == seen):
                nxt[c, t + 1] += w * top
                total += w * top
            if top < 1.0 and (seen < 0 or old[c + p - t] == seen):
                nxt[c, t] += w * (1.0 - top)
                total += w * (1.0 - top)
    new_lo, new_hi = c_hi, c_lo
    for c in range(c_lo, c_hi + 1):
        alive = False
        for t in range(max(0, p + 1 - (n - c)), min(p + 1, c) + 1):
            w = nxt[c, t] / total if total > 0.0 else 0.0
            alpha[c, t] = w
            alive = alive or w > 0.0
        if alive:
            new_lo = min(new_lo, c)
            new_hi = max(new_hi, c)
    return new_lo, max(new_hi, new_lo)


@numba.njit(cache=True)
def _coup_law(alpha, old, p, c_lo, c_hi, values, player, banker, out) -> None:  # pragma: no cover - compiled
    """Law of the coup starting at new position ``p`` from the posterior ``alpha`` (2**6 paths a state)."""
    n = len(old)
    out[:] = 0.0
    biggest = 0.0
    for c in range(c_lo, c_hi + 1):
        for t0 in range(max(0, p - (n - c)), min(p, c) + 1):
            biggest = max(biggest, alpha[c, t0])
    v = np.zeros(6, np.int64)
    total = 0.0
    for c in range(c_lo, c_hi + 1):
        for t0 in range(max(0, p - (n - c)), min(p, c) + 1):
            w = alpha[c, t0]
            if w <= PRUNE * biggest:
                continue
            for path in range(64):
                t = t0
                prob = w
                for k in range(6):
                    q = p + k
                    if q >= n:
                        prob = 0.0
                        break
                    top = (c - t) / (n - q)
                    if (path >> k) & 1:
                        prob *= top
                        v[k] = values[old[t]]
                        t += 1
                    else:
                        prob *= 1.0 - top
                        v[k] = values[old[c + q - t]] if c + q - t < n else 0
                    if prob == 0.0:
                        break
                if prob > 0.0:
                    out[_main_class(v, player, banker)] += prob
                    total += prob
    if total > 0.0:
        out /= total


@numba.njit(cache=True)
def one_riffle_kernel(
    old: np.ndarray,
    new: np.ndarray,
    cut_prior: np.ndarray,
    coup_shoe: np.ndarray,
    coup_start: np.ndarray,
    hidden: np.ndarray,
    values: np.ndarray,
    player: np.ndarray,
    banker: np.ndarray,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Per coup, the exact law of its outcome class given the cards seen so far (see the module notes).

    ``old[s]`` / ``new[s]``: ranks of the discard order and of the new shoe; ``cut_prior[c] = P(cut = c)``;
    ``hidden[s] = (first, count)``: positions burned face down; ``values[rank]``: a rank's value.
    """
    n = old.shape[1]
    alpha = np.zeros((n + 1, n + 1))
    nxt = np.zeros((n + 1, n + 1))
    shoe = -1
    pos = 0
    for k in range(len(coup_shoe)):
        s = coup_shoe[k]
        if s != shoe:
            shoe = s
            pos = 0
            alpha[:] = 0.0
            for c in range(n + 1):
                alpha[c, 0] = cut_prior[c]
            c_lo, c_hi = 0, n
        while pos < coup_start[k]:
            shown = -1 if hidden[s, 0] <= pos < hidden[s, 0] + hidden[s, 1] else new[s, pos]
            c_lo, c_hi = _step(alpha, nxt, old[s], pos, shown, c_lo, c_hi)
            pos += 1
        _coup_law(alpha, old[s], pos, c_lo, c_hi, values, player, banker, out[k])
