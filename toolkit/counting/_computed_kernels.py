"""Compiled loops of the computed count (:mod:`toolkit.counting.computed`): the count's law by multiplication and the
one pass over the coup starts.

*The count's law.*  The cards of tag group ``g`` (``n_g`` of them, tag ``t_g``) contribute the polynomial
``(1 + z w^t_g)^n_g`` to the generating function of (cards drawn, running count) over the subsets of a shoe; the
coefficient of ``z^d w^r`` counts the ``d``-card subsets whose tags sum to ``r``.  :func:`times_group` multiplies an
array of those coefficients by one factor ``(1 + z w^t) / 2`` in place (the half keeps every number at most one):
each step adds two non-negative numbers, so the products are accurate to a few units of rounding per factor, with
no cancellation (division by a factor, the short way to remove a card, would subtract).

*The coup starts.*  :func:`chain_rows` pushes the mass of coup starts at ``(cards seen, running count)`` along the
one-coup transition law, row by row, and adds what each start stakes and wins.  A back-counter (who sits before coup
``S`` if the count is then at least the entry, and leaves for good below the exit) adds two kinds of layers: the
starts of coups ``1 .. E`` counted by coup (coup ``c`` starts after ``4(c - 1) .. 6(c - 1)`` cards, so layer ``c``
holds those rows only, at row ``(c - 1)^2`` of one array), and the starts while seated, which the exit empties.
``E`` is ``S``, or a thresholds table's last step by coup if later: the layers of coups ``S .. E`` hold the seated
starts only, each coup before ``E`` betting on its own step of the table (:func:`_coup_bets`), and coup ``E``'s
seated starts feed the seated layer, which holds the later coups (on the table's last step).  A table by coup
without a back-counter is the same with a seat taken at coup 1 whatever the count and never left; a table by cards
out moves the ramp by a function of the row.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["CHAIN_CONFIG", "TINY", "chain_rows", "copy_band", "times_group"]

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
    "rule",  # 0: one more after the cut card, 1: finish the coup, 2: seven cards, 3: two more if it comes first
    "min_left",  # fewest cards left to start a coup
    "divisor",  # 0: cards left in the shoe, 1: unseen cards; plus 2 x the decks' estimate (0 exact, 1 half, 2 whole)
    "unit",  # cards per unit of the true count (52 or 26)
    "rounding",  # 0 none, 1 floor, 2 truncate, 3 nearest
    "trigger",  # 0 true count, 1 running count
    "entry_coup",  # the last coup counted by coup: the later of the entry coup and a table's last step (0: none)
    "seat_trigger",  # back-counting's count: 0 true count, 1 running count
    "skip",  # rows of the stack below the chunk's first (built for the products, not read)
)
#: Two more, set by :func:`chain_rows` for :func:`_push`: the row of the target array holding row 0, and one past
#: the last row a push may reach.  The stack's rows: ``skip`` rows below the chunk's first, then the chunk's.


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
        c, x = cur[a:b], below[a - t : b - t]  # slices, not offset indices: the loop is vectorised
        for j in range(b - a):
            c[j] = 0.5 * (c[j] + x[j])
        for j in range(b, hi):
            cur[j] *= 0.5
    for j in range(band[0, 0], band[1, 0]):
        buf[0, j] *= 0.5


@numba.njit(cache=True, nogil=True)
def _ends(rule, p, length, cut, d):  # pragma: no cover - compiled
    """Whether the coup of ``length`` cards starting ``p`` cards out (``d`` seen from the run's shoe) is the last,
    the cut card lying after ``cut`` cards (the rules of :func:`toolkit.coup.step.cut_card_after`): under one more,
    a coup starting at or past it; under finish, one it comes out during; under two more if it comes first, one
    starting past it, except the shoe's first coup (a coup starting at it is followed by one more; every later
    start past it follows the coup during which it came out, or that one more)."""
    if rule == 0:
        return p >= cut
    if rule == 1:
        return p + length > cut
    if rule == 3:
        return p > cut and d > 0
    return False


@numba.njit(cache=True, nogil=True)
def copy_band(src, dst, first, band):  # pragma: no cover - compiled
    """Copy rows ``first ..`` of ``src`` into ``dst``, in row ``i`` only the columns ``band[0, i] .. band[1, i] - 1``
    (the rest of ``dst`` is left as it was: the chain reads only where coups can start)."""
    for i in range(first, src.shape[0]):
        lo, hi = band[0, i], band[1, i]
        out, row = dst[i, lo:hi], src[i, lo:hi]
        for j in range(hi - lo):
            out[j] = row[j]


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
def _count_at(rc, d, left, config, trigger):  # pragma: no cover - compiled
    """The count a decision reads at running count ``rc`` after ``d`` cards seen, ``left`` left in the shoe: the
    running count (``trigger`` 1) or the true count by the system's divisor and rounding (``trigger`` 0)."""
    if trigger == 1:
        return float(rc)
    div = float(left if config[7] % 2 == 0 else config[2] - d)
    estimate = config[7] // 2  # as toolkit.counting.tallies.estimated_decks: halves up, never below one step
    if estimate == 1:
        div = max(np.floor(2 * div / 52 + 0.5) / 2, 0.5) * 52
    elif estimate == 2:
        div = max(np.floor(div / 52 + 0.5), 1.0) * 52
    return _rounded(rc / (div / config[8]), config[9])


@numba.njit(cache=True, nogil=True)
def _settle(rho, p0, config, run, ramp, rows, bets):  # pragma: no cover - compiled
    """For rows ``rows[0] .. rows[1] - 1`` of the chunk: ``(scale, step)`` of each cell (the start's mass over the
    law ``p0``, 0 for no start; the ramp step the count reaches, -1 for none or when ``bets`` is false), the ramp
    ``(at, shift)`` moved by the thresholds table's ``shift[0, cards out]``."""
    at, shift = ramp
    first, r_min, full = config[0], config[1], config[3]
    min_left, trigger = config[6], config[10]
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
            scale[i - rows[0], j] = mass / p0[i, j]
            if bets:
                count = _count_at(start_count + r_min + j, d, left, config, trigger)
                step[i - rows[0], j] = _step(count - shift[0, p], at)
    return scale, step


@numba.njit(cache=True, nogil=True)
def _seat(seated, pre, p0, config, run, seat, rows, out):  # pragma: no cover - compiled
    """Back-counting, rows ``rows[0] .. rows[1] - 1`` of the chunk, before they are settled (``seat``: entry, exit,
    entry coup ``S``; the layers by coup run to coup ``E = config[11]``, at least ``S``): the starts of coup ``S``
    below the entry and the seated starts of later coups below the exit leave (those of coups ``S .. E`` in their
    layers, the later ones in ``seated``), the seated starts of coups ``S .. E - 1`` are counted in ``out[1]`` (the
    seats of a table's coups before its last step), and coup ``E``'s are moved to ``seated``.  With a fixed number
    of coups (``seat[3]``, coup ``E`` the first not dealt) coup ``E``'s starts are dropped, and the starts of coups
    ``1 .. E - 1`` are the hands (``out[0]``; every one is seated when the seat is taken at coup 1 whatever the
    count, as the caller takes it to count them)."""
    first, r_min, full, min_left, e = config[0], config[1], config[3], config[6], config[11]
    offset, start_count = run[0], run[1]
    s, fixed = int(seat[2]), seat[3] > 0
    for i in range(rows[0], rows[1]):
        d = first + i
        left = full - offset - d
        if left < min_left:
            continue
        c0, c1 = max(s, (d + 5) // 6 + 1), min(e, d // 4 + 1)  # the layers by coup holding row d, from S on
        lowest = max(1, (d + 5) // 6 + 1)
        for j in range(p0.shape[1]):
            if p0[i, j] <= 0.0:
                continue
            count = _count_at(start_count + r_min + j, d, left, config, config[12])
            if count < seat[1]:
                seated[d, j] = 0.0
            for c in range(c0, c1 + 1):
                at = (c - 1) * (c - 1) - 4 * (c - 1) + d  # layer c's row d
                if count < (seat[0] if c == s else seat[1]):
                    pre[at, j] = 0.0
                elif c < e and pre[at, j] >= TINY:
                    out[1, offset + d] += pre[at, j] / p0[i, j] * p0[i, j]
                elif c == e and not fixed:
                    seated[d, j] += pre[at, j]
            if fixed:
                for c in range(lowest, min(e - 1, d // 4 + 1) + 1):
                    at = (c - 1) * (c - 1) - 4 * (c - 1) + d
                    if pre[at, j] >= TINY:
                        out[0, offset + d] += pre[at, j] / p0[i, j] * p0[i, j]


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
def _axpy(out, scale, w, row):  # pragma: no cover - compiled
    """``out += scale * w * row`` (equal lengths; slices, so the loop is vectorised)."""
    for j in range(out.shape[0]):
        out[j] += scale[j] * w * row[j]


@numba.njit(cache=True, nogil=True)
def _add2(a1, a2, qa, qb, row):  # pragma: no cover - compiled
    """``a1 += qa row; a2 += qb row`` (equal lengths)."""
    for j in range(a1.shape[0]):
        a1[j] += qa * row[j]
        a2[j] += qb * row[j]


@numba.njit(cache=True, nogil=True)
def _push(target, scale, lo, hi, i, d, p, k, chunk, coef, config):  # pragma: no cover - compiled
    """Push the starts of row ``i`` of the chunk (``scale``: their mass over the law, non-zero on ``lo .. hi - 1``)
    to the next coup's starts in ``target`` (rows: cards seen, shifted by ``config[0]``'s row of ``target``'s 0)."""
    stack, factors, picked, n_picked = chunk
    sizes, moves, pi = coef[0], coef[1], coef[2]
    cut, rule, skip, shift, n_rows = config[4], config[5], config[13], config[14], config[15]
    width = stack.shape[2]
    for e in range(1, n_picked[k]):
        length, move = moves[k, e, 0], moves[k, e, 1]
        if pi[k, e] <= 0.0 or d + length >= n_rows:
            continue
        if _ends(rule, p, length, cut, d):
            continue
        w = pi[k, e] * factors[sizes[k, e], i]
        a, b = max(lo, -move), min(hi, width - move)
        _axpy(target[d + length - shift, a + move : b + move], scale[a:b], w, stack[picked[k, e], i + skip, a:b])


@numba.njit(cache=True, nogil=True)
def _pre_rows(pre, k, chunk, coef, config, run, rows):  # pragma: no cover - compiled
    """Back-counting: push the starts of coups ``1 .. E - 1`` on rows ``rows[0] .. rows[1] - 1`` of the chunk to the
    next coup's layer (the starts of coup ``E`` are read by :func:`_seat`)."""
    stack = chunk[0]
    p0 = stack[chunk[2][k, 0]][config[13] :]
    first, full, min_left, e = config[0], config[3], config[6], config[11]
    width = p0.shape[1]
    cfg = config.copy()
    scale = np.zeros(width)
    for i in range(rows[0], rows[1]):
        d = first + i
        p = run[0] + d
        if full - p < min_left:
            continue
        for c in range(max(1, (d + 5) // 6 + 1), min(e - 1, d // 4 + 1) + 1):
            base = (c - 1) * (c - 1) - 4 * (c - 1)  # layer c's row d lies at base + d
            lo, hi = width, 0
            for j in range(width):
                mass = pre[base + d, j]
                scale[j] = 0.0
                if mass >= TINY and p0[i, j] > 0.0:
                    scale[j] = mass / p0[i, j]
                    lo = min(lo, j)
                    hi = j + 1
            if hi <= lo:
                continue
            # layer c + 1 holds rows 4c .. 6c at c^2: row d + length at c^2 - 4c + d + length
            cfg[14] = 4 * c - c * c
            cfg[15] = min(config[15], 6 * c + 1)
            _push(pre, scale, lo, hi, i, d, p, k, chunk, coef, cfg)


@numba.njit(cache=True, nogil=True)
def _coup_bets(pre, k, chunk, coef, config, run, ramp, rows, out, s):  # pragma: no cover - compiled
    """A thresholds table by coup: the bets of the seated starts of coups ``s .. E - 1`` (``s`` the entry coup, 1
    without a back-counter) on rows ``rows[0] .. rows[1] - 1`` of the chunk, coup ``c`` on the ramp ``(at, shift)``
    moved by ``shift[c]`` (``out``: the run's sums)."""
    stack, factors, picked, n_picked = chunk
    sizes, q = coef[0], coef[3]
    at, shift = ramp
    skip = config[13]
    p0 = stack[picked[k, 0]][skip:]
    first, full, min_left, e = config[0], config[3], config[6], config[11]
    width = p0.shape[1]
    a1 = np.zeros(width)
    a2 = np.zeros(width)
    steps = np.full((e, width), -1, dtype=np.int64)
    for i in range(rows[0], rows[1]):
        d = first + i
        p = run[0] + d
        if full - p < min_left:
            continue
        c0, c1 = max(s, (d + 5) // 6 + 1), min(e - 1, d // 4 + 1)
        lo, hi = width, 0
        for c in range(c0, c1 + 1):
            base = (c - 1) * (c - 1) - 4 * (c - 1)  # layer c's row d lies at base + d
            for j in range(width):
                steps[c, j] = -1
                if pre[base + d, j] >= TINY and p0[i, j] > 0.0:
                    count = _count_at(run[1] + config[1] + j, d, full - p, config, config[10])
                    steps[c, j] = _step(count - shift[c, p], at)
                    if steps[c, j] >= 0:
                        lo = min(lo, j)
                        hi = j + 1
        if hi <= lo:
            continue
        for j in range(lo, hi):
            a1[j] = q[k, 0, 0] * p0[i, j]
            a2[j] = q[k, 0, 1] * p0[i, j]
        for u in range(1, n_picked[k]):
            f = factors[sizes[k, u], i]
            qa, qb = q[k, u, 0] * f, q[k, u, 1] * f
            if qa != 0.0 or qb != 0.0:
                _add2(a1[lo:hi], a2[lo:hi], qa, qb, stack[picked[k, u], i + skip, lo:hi])
        for c in range(c0, c1 + 1):
            base = (c - 1) * (c - 1) - 4 * (c - 1)
            for j in range(lo, hi):
                s = steps[c, j]
                if s < 0:
                    continue
                scale = pre[base + d, j] / p0[i, j]
                out[2 + 3 * s, p] += scale * p0[i, j]
                out[3 + 3 * s, p] += scale * a1[j]
                out[4 + 3 * s, p] += scale * a2[j]


@numba.njit(cache=True, nogil=True)
def _readers(picked, n_picked, n_proj):  # pragma: no cover - compiled
    """Who reads each projection of the stack, projection by projection (CSR: ``start``, then the run and its index
    there), so each row of the stack is read once for every run (the runs' own shoes, index 0, are read as p0)."""
    n_runs = picked.shape[0]
    start = np.zeros(n_proj + 1, dtype=np.int64)
    for k in range(n_runs):
        for e in range(1, n_picked[k]):
            start[picked[k, e] + 1] += 1
    for u in range(n_proj):
        start[u + 1] += start[u]
    fill = start[:-1].copy()
    user_run = np.zeros(start[n_proj], dtype=np.int64)
    user_at = np.zeros(start[n_proj], dtype=np.int64)
    for k in range(n_runs):
        for e in range(1, n_picked[k]):
            u = picked[k, e]
            user_run[fill[u]] = k
            user_at[fill[u]] = e
            fill[u] += 1
    return start, user_run, user_at


@numba.njit(cache=True, nogil=True, fastmath={"reassoc"})
def _dot(x, y):  # pragma: no cover - compiled
    """``sum x y`` (equal lengths), summed in any order (so the loop is vectorised: the sum moves by rounding)."""
    acc = 0.0
    for j in range(x.shape[0]):
        acc += x[j] * y[j]
    return acc


@numba.njit(cache=True, nogil=True)
def _bet_dots(ev, qa, qb, scale, row, segs, n):  # pragma: no cover - compiled
    """Add ``(qa, qb)`` times the starts' mass over the law (``scale``) dotted with ``row`` on each betting segment
    (``segs[:n]``: first and one past the last column, and the ramp's step) to that step's sums ``ev`` (steps, 2)."""
    for g in range(n):
        a, b, s = segs[g, 0], segs[g, 1], segs[g, 2]
        x = _dot(scale[a:b], row[a:b])
        ev[s, 0] += qa * x
        ev[s, 1] += qb * x


@numba.njit(cache=True, nogil=True)
def _row_start(settled, p0, i, p, kind, q0, sums):  # pragma: no cover - compiled
    """One run's row ``i`` (cards out ``p``) of a layer (``kind``: layer, whether it bets), before the projections
    are read: its starts added to the hands (layer 0), the seats and the bets placed (the betting layer), its
    betting columns cut where the ramp's step changes (``segs``: first and one past the last column, and the step;
    the step grows with the count, so along the row) and the bet's constant part ``q0`` on the run's shoe summed by
    step into ``ev``, ``sums = (ev, segs, out)``.  Returns the columns with starts ``lo, hi`` and the segments."""
    scale, step = settled
    layer, bets = kind
    ev, segs, out = sums
    lo, hi = _band(scale, 0.0)
    for j in range(lo, hi):
        c = scale[j]
        if c == 0.0:
            continue
        if layer == 0:
            out[0, p] += c * p0[i, j]
        if bets:
            out[1, p] += c * p0[i, j]
    if not bets:
        return lo, hi, 0
    a, b = lo, hi
    while a < b and step[a] < 0:
        a += 1
    while b > a and step[b - 1] < 0:
        b -= 1
    n = 0
    for j in range(a, b):
        s = step[j]
        if s < 0:  # no start here (the mass over the law is 0): it adds nothing to the segment it lies in
            continue
        if n == 0 or s != segs[n - 1, 2]:
            if n:
                segs[n - 1, 1] = j
            segs[n, 0], segs[n, 2] = j, s
            n += 1
        out[2 + 3 * s, p] += scale[j] * p0[i, j]
    if n:
        segs[n - 1, 1] = b
    ev[:] = 0.0
    _bet_dots(ev, q0[0], q0[1], scale, p0[i], segs, n)
    return lo, hi, n


@numba.njit(cache=True, nogil=True)
def chain_rows(rho, pre, chunk, coef, config, runs, ramp, seat, out):  # pragma: no cover - compiled
    """Settle the coup starts of one chunk of rows (cards seen) and push their mass to the next starts, every run
    (exposed burn card) in turn on each four rows, so the rows of the count's law are read while in cache.

    ``rho``: (runs, layers, rows, counts) mass of coup starts of each run, complete for the rows of this chunk: layer
    0 every start, layer 1 (back-counting only) the starts while seated.  ``pre``: (runs, E^2, counts) the starts of
    coups 1 .. E counted by coup (back-counting; see the module notes).  ``chunk = (stack, factors, picked,
    n_picked)``: the count's law of the shoe less each projection ``(projections, h, counts)`` halved once per card,
    the row factors ``(7, h)`` turning a projection of ``k`` more cards than a run's shoe into a ratio of laws, and
    the projections each run reads ``(runs, most)`` (the first its shoe; ``n_picked`` of them).  ``coef = (sizes,
    moves, pi, q)``, each ``(runs, most, ...)``: per projection read, its cards beyond the run's shoe, its move
    ``(cards, count change)``, its probability on the next coup and the bet's two moments on it.  ``runs``:
    ``(runs, 2)`` cards out before the first coup and the running count before it.  ``ramp = (at, shift)``: the
    counts at which the ramp's steps begin, and how far a thresholds table moves them ``(layers, full + 1)``: row 0
    for the betting layer by cards out, row ``c`` for coup ``c`` (a table by coup: the seated coups before its last
    step ``E`` bet from their layers, the seated layer holding the later ones).  ``seat``: the back-counter's entry
    and exit counts and entry coup, and whether ``E - 1`` coups are dealt (then every start is counted by coup, the
    hands too; layer 0 is empty).  ``out``: (runs, 2 + 3 steps, full + 1) sums by cards out of the shoe: coup
    starts, seated starts, then for each step the starts there, their expected win and expected squared win per
    unit staked.  Rows go four at a time (a coup takes at least four cards, so their starts are complete).
    """
    stack, factors, picked, n_picked = chunk
    sizes, moves, pi, q = coef
    first, cut, rule = config[0], config[4], config[5]
    n_runs = rho.shape[0]
    skip = config[13]
    h, width = stack.shape[1] - skip, stack.shape[2]
    n_rows = rho.shape[2]
    n_layers = rho.shape[1]
    cfg = np.zeros(16, dtype=np.int64)
    cfg[: config.shape[0]] = config
    cfg[14] = 0
    cfg[15] = n_rows
    n_proj = stack.shape[0]
    start, user_run, user_at = _readers(picked, n_picked, n_proj)
    scales = np.zeros((n_runs, 4, width))
    steps = np.full((n_runs, 4, width), -1, dtype=np.int64)
    n_steps = ramp[0].shape[0]
    ev = np.zeros((n_runs, n_steps, 2))
    segs = np.zeros((n_runs, n_steps, 3), dtype=np.int64)
    lo = np.zeros(n_runs, dtype=np.int64)
    hi = np.zeros(n_runs, dtype=np.int64)
    n_segs = np.zeros(n_runs, dtype=np.int64)
    for r0 in range(0, min(h, n_rows - first), 4):
        r1 = min(r0 + 4, h, n_rows - first)
        if cfg[11] > 0:
            for k in range(n_runs):
                p0 = stack[picked[k, 0]][skip:]
                _seat(rho[k, 1], pre[k], p0, cfg, runs[k], seat, (r0, r1), out[k])
                if ramp[1].shape[0] > 1:
                    _coup_bets(pre[k], k, chunk, coef, cfg, runs[k], ramp, (r0, r1), out[k], int(seat[2]))
                _pre_rows(pre[k], k, chunk, coef, cfg, runs[k], (r0, r1))
        for layer in range(n_layers):
            bets = layer == n_layers - 1
            for k in range(n_runs):
                scale, step = _settle(rho[k, layer], stack[picked[k, 0]][skip:], cfg, runs[k], ramp, (r0, r1), bets)
                scales[k, : r1 - r0] = scale
                steps[k, : r1 - r0] = step
            for i in range(r0, r1):
                d = first + i
                for k in range(n_runs):
                    p0 = stack[picked[k, 0]][skip:]
                    lo[k], hi[k], n_segs[k] = _row_start(
                        (scales[k, i - r0], steps[k, i - r0]), p0, i, runs[k, 0] + d, (layer, bets), q[k, 0],
                        (ev[k], segs[k], out[k]),
                    )  # fmt: skip
                for u in range(n_proj):
                    row = stack[u, i + skip]
                    for t in range(start[u], start[u + 1]):
                        k, e = user_run[t], user_at[t]
                        if hi[k] <= lo[k]:
                            continue
                        f = factors[sizes[k, e], i]
                        if n_segs[k]:
                            qa, qb = q[k, e, 0] * f, q[k, e, 1] * f
                            if qa != 0.0 or qb != 0.0:
                                _bet_dots(ev[k], qa, qb, scales[k, i - r0], row, segs[k], n_segs[k])
                        length, move = moves[k, e, 0], moves[k, e, 1]
                        p = runs[k, 0] + d
                        if pi[k, e] <= 0.0 or d + length >= n_rows:
                            continue
                        if _ends(rule, p, length, cut, d):
                            continue
                        a, b = max(lo[k], -move), min(hi[k], width - move)
                        target = rho[k, layer, d + length, a + move : b + move]
                        _axpy(target, scales[k, i - r0, a:b], pi[k, e] * f, row[a:b])
                for k in range(n_runs):
                    p = runs[k, 0] + d
                    for g in range(n_segs[k]):
                        s = segs[k, g, 2]
                        out[k, 3 + 3 * s, p] += ev[k, s, 0]
                        out[k, 4 + 3 * s, p] += ev[k, s, 1]
                        ev[k, s] = 0.0
