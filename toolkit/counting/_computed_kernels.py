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

__all__ = ["CHAIN_CONFIG", "TINY", "chain_rows", "times_group"]

#: Coup starts of smaller probability are dropped: over at most 4 million states, each worth at most 100 coups of
#: at most 250 units, they move a win per shoe by less than 1e-7 units.
TINY = 1e-18

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
def times_group(buf, t, rows, band):  # pragma: no cover - compiled
    """Multiply the coefficient array ``buf`` (rows: cards, columns: count) by ``(1 + z w^t) / 2`` in place.

    Only rows ``< rows`` are touched (the rows past hold zeros and stay so while ``rows`` grows with the degree),
    and in row ``i`` only the columns ``band[0, i] .. band[1, i] - 1``: the counts any subset of the full shoe of
    that many cards can reach (outside them every product is exactly zero).  Row 0 has no row below it: there it
    reads zeros (in a chunk that does not start at the first card its lowest rows are wrong, and the caller reads
    only the rows above them).
    """
    width = buf.shape[1]
    for i in range(min(rows, buf.shape[0]) - 1, 0, -1):
        cur = buf[i]
        below = buf[i - 1]
        lo, hi = band[0, i], band[1, i]
        a = min(max(lo, t), hi)  # columns j that receive from column j - t of the row below: [t, width + t)
        b = max(min(hi, width + t), a)
        for j in range(lo, a):
            cur[j] *= 0.5
        for j in range(a, b):
            cur[j] = 0.5 * (cur[j] + below[j - t])
        for j in range(b, hi):
            cur[j] *= 0.5
    for j in range(band[0, 0], band[1, 0]):
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
def _step(count, at):  # pragma: no cover - compiled
    """The ramp step at ``count`` (``at`` increasing; -1 below the first step), as Ramp.__call__."""
    return np.searchsorted(at, count, side="right") - 1


@numba.njit(cache=True, nogil=True)
def _settle(rho, p0, config, run, at, rows):  # pragma: no cover - compiled
    """For rows ``rows[0] .. rows[1] - 1`` of the chunk: ``(scale, step)`` of each cell (the start's mass over the
    law ``p0``, 0 for no start; the ramp step the count reaches, -1 for none)."""
    first, r_min, cards, full = config[0], config[1], config[2], config[3]
    min_left, divisor, unit, rounding, trigger = config[6], config[7], config[8], config[9], config[10]
    offset, start_count = run[0], run[1]
    width = p0.shape[1]
    scale = np.zeros((rows[1] - rows[0], width))
    step = np.full((rows[1] - rows[0], width), -1, dtype=np.int64)
    for i in range(rows[0], rows[1]):
        d = first + i
        p = offset + d
        left = full - p
        if left < min_left:
            continue
        for j in range(width):
            mass = rho[d, j]
            if mass < TINY or p0[i, j] <= 0.0:
                continue
            rc = start_count + r_min + j
            if trigger == 1:
                count = float(rc)
            else:
                div = left if divisor == 0 else cards - d
                count = _rounded(rc / (div / unit), rounding)
            scale[i - rows[0], j] = mass / p0[i, j]
            step[i - rows[0], j] = _step(count, at)
    return scale, step


@numba.njit(cache=True, nogil=True)
def _band(values, above):  # pragma: no cover - compiled
    """First and one past the last column where ``values`` (one row) exceeds ``above``."""
    lo, hi = values.shape[0], 0
    for j in range(values.shape[0]):
        if values[j] > above:
            lo = min(lo, j)
            hi = j + 1
    return lo, hi


@numba.njit(cache=True, nogil=True)
def chain_rows(rho, chunk, coef, config, runs, at, out):  # pragma: no cover - compiled
    """Settle the coup starts of one chunk of rows (cards seen) and push their mass to the next starts, every run
    (exposed burn card) in turn on each four rows, so the rows of the count's law are read while in cache.

    ``rho``: (runs, rows, counts) mass of coup starts of each run, complete for the rows of this chunk.  ``chunk =
    (stack, factors, picked, n_picked)``: the count's law of the shoe less each projection ``(projections, h,
    counts)`` halved once per card, the row factors ``(7, h)`` turning a projection of ``k`` more cards than a run's
    shoe into a ratio of laws, and the projections each run reads ``(runs, most)`` (the first its shoe; ``n_picked``
    of them).  ``coef = (sizes, moves, pi, q)``, each ``(runs, most, ...)``: per projection read, its cards beyond
    the run's shoe, its move ``(cards, count change)``, its probability on the next coup and the bet's two moments
    on it.  ``runs``: ``(runs, 2)`` cards out before the first coup and the running count before it.  ``at``: the
    counts at which the ramp's steps begin.  ``out``: (runs, 1 + 3 steps, full + 1) sums by cards out of the shoe:
    coup starts, then for each step the starts there, their expected win and expected squared win per unit staked.
    Rows go four at a time (a coup takes at least four cards, so their starts are complete).
    """
    stack, factors, picked, n_picked = chunk
    sizes, moves, pi, q = coef
    first, cut, rule = config[0], config[4], config[5]
    h, width = stack.shape[1], stack.shape[2]
    n_rows = rho.shape[1]
    m1 = np.zeros((4, width))
    m2 = np.zeros((4, width))
    for r0 in range(0, min(h, n_rows - first), 4):
        r1 = min(r0 + 4, h, n_rows - first)
        for k in range(rho.shape[0]):
            offset = runs[k, 0]
            p0 = stack[picked[k, 0]]
            scale, step = _settle(rho[k], p0, config, runs[k], at, (r0, r1))
            for i in range(r0, r1):
                d = first + i
                p = offset + d
                lo, hi = _band(scale[i - r0], 0.0)
                slo, shi = lo, hi
                while slo < shi and step[i - r0, slo] < 0:
                    slo += 1
                while shi > slo and step[i - r0, shi - 1] < 0:
                    shi -= 1
                a1 = m1[i - r0]
                a2 = m2[i - r0]
                qa, qb = q[k, 0, 0], q[k, 0, 1]  # the run's own shoe: the bet's constant part
                for j in range(slo, shi):
                    a1[j] = qa * p0[i, j]
                    a2[j] = qb * p0[i, j]
                for e in range(1, n_picked[k]):
                    row = stack[picked[k, e], i]
                    f = factors[sizes[k, e], i]
                    qa, qb = q[k, e, 0] * f, q[k, e, 1] * f
                    if qa != 0.0 or qb != 0.0:
                        for j in range(slo, shi):
                            a1[j] += qa * row[j]
                            a2[j] += qb * row[j]
                    length, move = moves[k, e, 0], moves[k, e, 1]
                    if pi[k, e] <= 0.0 or d + length >= n_rows:
                        continue
                    if (rule == 0 and p >= cut) or (rule == 1 and p + length > cut):
                        continue
                    w = pi[k, e] * f
                    target = rho[k, d + length]
                    sc = scale[i - r0]
                    for j in range(max(lo, -move), min(hi, width - move)):
                        target[j + move] += sc[j] * w * row[j]
                for j in range(lo, hi):
                    c = scale[i - r0, j]
                    if c == 0.0:
                        continue
                    out[k, 0, p] += c * p0[i, j]
                    s = step[i - r0, j]
                    if s >= 0:
                        out[k, 1 + 3 * s, p] += c * p0[i, j]
                        out[k, 2 + 3 * s, p] += c * a1[j]
                        out[k, 3 + 3 * s, p] += c * a2[j]
