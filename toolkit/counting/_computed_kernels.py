"""Compiled loops of the computed count (:mod:`toolkit.counting.computed`): the count's law by multiplication and the
one pass over the coup starts.

*The count's law.*  The cards of tag group ``g`` (``n_g`` of them, tag ``t_g``) contribute the polynomial
``(1 + z w^t_g)^n_g`` to the generating function of (cards drawn, running count) over the subsets of a shoe; the
coefficient of ``z^d w^r`` counts the ``d``-card subsets whose tags sum to ``r``.  :func:`times_group` multiplies an
array of those coefficients by one factor ``(1 + z w^t) / 2`` in place (the half keeps every number at most one):
each step adds two non-negative numbers, so the products are accurate to a few units of rounding per factor, with
no cancellation (division by a factor, the short way to remove a card, would subtract).

*The coup starts.*  :func:`chain_rows` pushes the mass of coup starts at ``(cards seen, running count)`` along the
one-coup transition law, row by row, and adds what each start stakes and wins.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["CHAIN_CONFIG", "add_leaf", "chain_rows", "times_group"]

#: The integer settings :func:`chain_rows` reads, in order (the ``config`` array).
CHAIN_CONFIG = (
    "first_row",  # absolute row (cards seen) of row 0 of the chunk's arrays
    "r_min",  # running count (less the start) of column 0
    "cards",  # cards in the shoe the seen cards come from (the full shoe less an exposed burn card)
    "full",  # cards in the full shoe
    "cut",  # cards before the cut card
    "rule",  # 0: one more after the cut card, 1: finish the coup, 2: seven cards
    "min_left",  # fewest cards left to start a coup
    "divisor",  # 0: cards left in the shoe, 1: unseen cards
    "unit",  # cards per unit of the true count (52 or 26)
    "rounding",  # 0 none, 1 floor, 2 truncate, 3 nearest
    "trigger",  # 0 true count, 1 running count
)


@numba.njit(cache=True, nogil=True)
def times_group(buf, t, rows):  # pragma: no cover - compiled
    """Multiply the coefficient array ``buf`` (rows: cards, columns: count) by ``(1 + z w^t) / 2`` in place.

    Only rows ``< rows`` are touched (the rows past hold zeros and stay so while ``rows`` grows with the degree).
    Row 0 has no row below it: there it reads zeros (in a chunk that does not start at the first card its lowest
    rows are wrong, and the caller reads only the rows above them).
    """
    width = buf.shape[1]
    lo = max(0, -t)
    hi = min(width, width - t)
    for i in range(min(rows, buf.shape[0]) - 1, 0, -1):
        for j in range(width):
            buf[i, j] *= 0.5
        for j in range(lo, hi):
            buf[i, j + t] += 0.5 * buf[i - 1, j]
    for j in range(width):
        buf[0, j] *= 0.5


@numba.njit(cache=True, nogil=True)
def _rounded(x, rounding):  # pragma: no cover - compiled
    if rounding == 1:
        return np.floor(x)
    if rounding == 2:
        return np.trunc(x)
    if rounding == 3:
        return np.sign(x) * np.floor(np.abs(x) + 0.5)
    return x


@numba.njit(cache=True, nogil=True)
def _stake(count, at, units):  # pragma: no cover - compiled
    """The ramp's units at ``count`` (``at`` increasing; nothing below the first step), as Ramp.__call__."""
    k = np.searchsorted(at, count, side="right") - 1
    return units[k] if k >= 0 else 0.0


@numba.njit(cache=True, nogil=True)
def chain_rows(rho, chunk, config, run, ramp, out):  # pragma: no cover - compiled
    """Settle the coup starts of one chunk of rows (cards seen) and push their mass to the next starts.

    ``rho``: (rows, counts) mass of coup starts of one run (one exposed burn card and burn), complete for the rows
    of this chunk.  ``chunk = (p0, trans, ev, steps)``: the chunk's count law (numbers of subsets, any scale), the
    numerators of each one-coup transition ``(L, delta)`` in ``steps``, and the numerators of the bet's first and
    second moments.  ``run = (offset, start_count)``: cards out before the first coup and the running count before
    it.  ``ramp = (at, units)``.  ``out``: (5, full + 1) sums by cards out of the shoe: starts, bets, units staked,
    expected win, expected squared win.
    """
    p0, trans, ev, steps = chunk
    at, units = ramp
    first, r_min, cards, full, cut = config[0], config[1], config[2], config[3], config[4]
    rule, min_left, divisor, unit, rounding, trigger = config[5], config[6], config[7], config[8], config[9], config[10]
    offset, start_count = run
    h, width = p0.shape
    n_rows = rho.shape[0]
    for i in range(h):
        d = first + i
        if d >= n_rows:
            break
        p = offset + d
        left = full - p
        if left < min_left:
            continue
        for j in range(width):
            mass = rho[d, j]
            if mass == 0.0 or p0[i, j] <= 0.0:
                continue
            out[0, p] += mass
            rc = start_count + r_min + j
            if trigger == 1:
                count = float(rc)
            else:
                div = left if divisor == 0 else cards - d
                count = _rounded(rc / (div / unit), rounding)
            stake = _stake(count, at, units)
            scale = mass / p0[i, j]
            if stake > 0.0:
                out[1, p] += mass
                out[2, p] += mass * stake
                out[3, p] += stake * scale * ev[0, i, j]
                out[4, p] += stake * stake * scale * ev[1, i, j]
            for k in range(steps.shape[0]):
                length = steps[k, 0]
                nxt = p + length
                if rule == 0 and p >= cut:
                    break
                if rule == 1 and nxt > cut:
                    continue
                if d + length >= n_rows:
                    continue
                jj = j + steps[k, 1]
                if 0 <= jj < width:
                    rho[d + length, jj] += scale * trans[k, i, j]


@numba.njit(cache=True, nogil=True)
def add_leaf(rows, factor, coef, targets):  # pragma: no cover - compiled
    """Add one projection's law (``rows`` times the row ``factor``) to every run's arrays.

    ``coef = (pi (K,), step (K,), q (K, 2))``: per run the probability of the projection, its transition step (-1:
    none) and the bet's two moments on it; ``targets = (trans (K, steps, h, w), ev (K, 2, h, w))``.
    """
    pi, step, q = coef
    trans, ev = targets
    h, width = rows.shape
    for i in range(h):
        f = factor[i]
        if f == 0.0:
            continue
        for j in range(width):
            x = rows[i, j] * f
            if x == 0.0:
                continue
            for k in range(pi.shape[0]):
                if step[k] >= 0:
                    trans[k, step[k], i, j] += pi[k] * x
                ev[k, 0, i, j] += q[k, 0] * x
                ev[k, 1, i, j] += q[k, 1] * x
