"""Signs that are never wrong: an error bound for the float path and exact re-evaluation inside it.

The float kernel (:mod:`toolkit.exact._kernels`) returns each expectation with a
rounding error of about 1e-15, so an expectation that is exactly 0 can come out
as +4.8e-16.  This module bounds that error for every bet of a
:class:`~toolkit.exact.engine.CompiledBets` and re-evaluates in integers every
expectation that lies within its bound of zero; outside the bound the float's
sign is the exact sign.

Error bound (``u = 2**-53``, ``gamma_n = n u / (1 - n u)``).  Each ratio
``(n_v - h) * (1 / (N - s))`` of integers is rounded at most twice and a
multiset's feature is a product of at most six of them, so it carries a
relative error at most ``gamma_17``.  An event probability ``P_g`` is a sum of
``n_g <= K`` (the most weights of one event) non-negative terms ``w F`` with
integer ``w``, so ``|P^_g - P_g| <= gamma_(K + 18) P_g`` (summed in chunks of
nodes, the error is smaller still, but the bound does not count on it).  The
column ``R_c = V_c + sum_g P_g D_gc`` (``D`` the payout rows less the
reference row ``V``) then errs by at most
``gamma_(K + 18) sum_g P_g |D_gc| + gamma_(E + 1) (|V_c| + sum_g P^_g |D_gc|)``
plus the rounding of the payouts themselves (at most ``50 u X`` per column,
``X`` the bet's largest payout: the zero-pair parts ``wa``, ``wb`` combine up
to four payouts); the events are disjoint, so ``sum_g P_g <= 1`` and
``sum_g P_g |D_gc| <= max_g |D_gc|``.  A bet adds at most three columns
(``R_0 + alpha R_a + beta R_b`` with ``0 <= alpha, beta <= 1``, each rounded
once, and three more roundings), so its error is at most
``2 (K + E + 24) u S`` with ``S = sum_c (|V_c| + max_g |D_gc|) + 16 X`` over
its columns; the factor 2 covers ``gamma_n <= 1.01 n u`` and the products of
small errors, and the bound holds with or without fused multiply-adds (the GPU
and the CUDA simulator compute the same ratios).  Bets that look only at the
pair flags are a closed form of exact integer numerators and denominators
(below ``2**53``) with a handful of roundings: ``64 u sum_k |x_k|`` over their
four payouts.  The bound depends on the bet set, not on the shoe.

Exact zeros without integers (the lattice).  A shoe of ``N >= 6`` distinct cards deals each
ordered sequence of six with probability ``1 / (N)_6``, and the sequence decides the coup, so a
bet whose payouts are multiples of ``1 / d`` (``d`` the common denominator of its pay table) has
an expectation in ``(1 / ((N)_6 d)) Z``.  Where twice the bound ``b`` is below that spacing
(``2 b (N)_6 d < 1``: up to ``N`` = 31 to 57 cards for the bets of the standard panel priced
together, more for the pairs), a float within ``b`` of zero stands for an exact zero (a non-zero
value would lie at least ``1 / ((N)_6 d) > 2 b`` from zero, its float more than ``b`` from it):
:meth:`ExactBets.lattice_zeros` finds those, and
:meth:`~toolkit.exact.engine.CompiledBets.settle_signs` sets them to ``0.0`` without evaluating
anything (the last 6 to 26 cards of a shoe hold millions of such zeros); only the other entries
are re-evaluated in integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm, perm

import numba
import numpy as np

from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.outcome import N_MAIN
from toolkit.coup.rules import Tableau
from toolkit.exact._kernels import pair_split
from toolkit.exact._tables import coup_table, multisets

__all__ = [
    "MAX_INT64_CARDS",
    "UNIT_ROUNDOFF",
    "ExactBets",
    "as_exact",
    "event_counts",
    "general_bounds",
    "int_products",
    "near_rows",
    "pair_bounds",
    "slow_general",
]

UNIT_ROUNDOFF = 2.0**-53
#: Up to this many cards ``(N)_6 < 2**63``, so the integer event counts of :func:`event_counts` cannot overflow.
MAX_INT64_CARDS = 1400


def int_products(by_value: Sequence[int]) -> list[int]:
    """prod_v (n_v)_(m_v) for every multiset, in Python integers."""
    ms = multisets()
    prods = [1] * len(ms.parent)
    parent, added, held = ms.parent.tolist(), ms.added.tolist(), ms.held.tolist()
    for j in range(1, len(prods)):
        prods[j] = prods[parent[j]] * (by_value[added[j]] - held[j])
    return prods


def general_bounds(
    base: np.ndarray,
    delta: np.ndarray,
    largest_event: int,
    columns: Sequence[Sequence[int]],
    largest_payout: np.ndarray,
) -> np.ndarray:
    """Error bound of each general bet; ``columns[i]`` are the kernel columns bet i adds (see module notes)."""
    spread = np.abs(delta).max(axis=0) if delta.shape[0] else np.zeros(len(base))
    per_column = np.abs(base) + spread
    factor = 2 * (largest_event + delta.shape[0] + 24) * UNIT_ROUNDOFF
    return np.array(
        [factor * (per_column[list(cols)].sum() + 16 * x) for cols, x in zip(columns, largest_payout, strict=True)]
    )


def pair_bounds(pair_payoffs: np.ndarray) -> np.ndarray:
    """Error bound of each pair-flag-only bet (closed form, see module notes)."""
    return 64 * UNIT_ROUNDOFF * np.abs(pair_payoffs).sum(axis=1)


@numba.njit(cache=True, nogil=True)
def near_rows(values, bounds):  # pragma: no cover - compiled
    """The rows of ``values`` (shoes x bets) holding an entry within its bet's bound of zero (``|x| <= bounds[c]``),
    in order: one pass that stops at a row's first such entry (a few rows in thousands hold one)."""
    rows, cols = values.shape
    found = np.empty(rows, dtype=np.int64)
    n = 0
    for r in range(rows):
        for c in range(cols):
            if abs(values[r, c]) <= bounds[c]:
                found[n] = r
                n += 1
                break
    return found[:n]


def as_exact(payoff: float) -> Fraction:
    """The rational a float pay table entry stands for: the nearest fraction with denominator <= 10**6.

    Published pay tables (19/20, 3/2, 8, ...) are recovered exactly; a float
    that does not round-trip through that fraction is taken at its exact value.
    """
    exact = Fraction(payoff)
    simple = exact.limit_denominator(10**6)
    return simple if float(simple) == payoff else exact


def _by_value(ranks: Sequence[int]) -> list[int]:
    by_value = [0] * 10
    for count, value in zip(ranks, RANK_VALUES, strict=True):
        by_value[value] += int(count)
    return by_value


def _zero_pair_odds(ranks: Sequence[int]) -> tuple[Fraction, Fraction]:
    """Exact alpha and beta (see :mod:`toolkit.exact._tables`) from 13 rank counts."""
    z = [int(c) for c in ranks[9:]]
    zt = sum(z)
    same2 = sum(perm(c, 2) for c in z)
    num_beta = sum(perm(c, 4) for c in z) + same2 * same2 - sum(perm(c, 2) ** 2 for c in z)
    alpha = Fraction(same2, perm(zt, 2)) if perm(zt, 2) else Fraction(0)
    beta = Fraction(num_beta, perm(zt, 4)) if perm(zt, 4) else Fraction(0)
    return alpha, beta


@numba.njit(cache=True, nogil=True)
def event_counts(values, level, ratio, start, event, weight, n_events):  # pragma: no cover - compiled
    """Integer numerators of the event probabilities: ``P_g = out[b, g] / (N)_6`` for shoe ``b``.

    The walk of :class:`toolkit.exact._kernels.Walk` in int64: a node holds ``prod_v (n_v)_(m_v)``,
    times ``(N - k)_(6 - k)`` it counts the ordered six-card deals that start with one
    ordering of its k cards.  Every partial sum is at most ``(N)_6``, below ``2**63`` for
    ``N <= MAX_INT64_CARDS``.
    """
    rows = values.shape[0]
    lanes = max(1, min(rows, 64))
    out = np.zeros((rows, n_events), dtype=np.int64)
    stack = np.empty((7, lanes), dtype=np.int64)
    tail = np.empty((7, lanes), dtype=np.int64)
    acc = np.empty((n_events, lanes), dtype=np.int64)
    for first in range(0, rows, lanes):
        width = min(lanes, rows - first)
        for b in range(width):
            total = 0
            for v in range(10):
                total += values[first + b, v]
            for k in range(7):
                t = 1
                for q in range(k, 6):
                    t *= total - q
                tail[k, b] = t
            stack[0, b] = 1
        acc[:, :width] = 0
        for i in range(level.shape[0]):
            s = level[i]
            r = ratio[i]
            v = r // 36
            h = (r // 6) % 6
            for b in range(width):
                stack[s, b] = stack[s - 1, b] * (values[first + b, v] - h)
            for k in range(start[i], start[i + 1]):
                g = event[k]
                w = weight[k]
                for b in range(width):
                    acc[g, b] += w * (stack[s, b] * tail[s, b])
        for b in range(width):
            for g in range(n_events):
                out[first + b, g] = acc[g, b]
    return out


def _scaled(rows: list[list[Fraction]]) -> tuple[np.ndarray, list[int]]:
    """Integer numerators (object array) and one common denominator per row."""
    dens = [lcm(*(q.denominator for q in row)) if row else 1 for row in rows]
    nums = np.array([[int(q * d) for q in row] for row, d in zip(rows, dens, strict=True)], dtype=object)
    return nums.reshape(len(rows), -1), dens


class ExactBets:
    """Exact expectations of the bets of a :class:`~toolkit.exact.engine.CompiledBets`, for a few shoes at a time.

    General bets: the float path's event structure in integers.  With ``d_c`` a
    common denominator of column c's payouts, every event pays the integer row
    ``U_g = d_c V_g``; :func:`event_counts` gives ``(N)_6 P_g`` exactly (the
    reference event takes the rest of ``(N)_6``), so ``R_c = sum_g (N)_6 P_g
    U_gc / ((N)_6 d_c)`` and ``EV = R_0 + alpha R_a + beta R_b`` are exact
    fractions.  Pair-flag-only bets: their closed form in exact integers.  A
    shoe above :data:`MAX_INT64_CARDS` cards, pay tables too fine for int64, or
    events that merge classes with different exact payouts (two exact payouts
    that round to one float) fall back to :func:`slow_general`.
    """

    def __init__(self, payoffs: Sequence[Sequence[Fraction]], tableau: Tableau, compiled) -> None:
        self._payoffs = payoffs
        self._tableau = tableau
        self._c = compiled
        nums, self._dens = _scaled([list(row) for row in payoffs])
        self._nums = nums.reshape(len(payoffs), N_MAIN, 2, 2)
        self._rows: list[list[int]] | None = None
        self._col_dens: list[int] = []
        self._spacing: dict[int, np.ndarray] = {}
        general = compiled.general
        if len(general) and max((abs(int(v)) for v in self._nums[general].ravel()), default=0) < 2**40:
            table = coup_table(tableau)
            w0, wa, wb = pair_split(self._nums[general].astype(np.int64), table.ext)
            alpha, beta = compiled.alpha_bets, compiled.beta_bets
            entry = np.concatenate([w0, wa[alpha], wb[beta]], axis=0).T
            ev = compiled.events
            rows = np.zeros((len(ev.kept) + 1, entry.shape[1]), dtype=np.int64)
            rows[ev.entry_event] = entry
            if np.array_equal(rows[ev.entry_event], entry):  # one exact payout row per event
                self._rows = rows.tolist()
                self._col_dens = [
                    self._dens[int(general[k])] for k in np.concatenate([np.arange(len(general)), alpha, beta])
                ]
                self._weight = ev.walk.weight.astype(np.int64)

    def lattice_zeros(self, ranks: np.ndarray, near: np.ndarray) -> np.ndarray:
        """The entries of ``near`` (floats within the bound of zero) that are exact zeros by the lattice argument
        (module notes): those of bets with ``2 b (N)_6 d < 1`` for their shoe's ``N >= 6`` cards."""
        zero = np.zeros_like(near)
        rows = np.flatnonzero(near.any(axis=1))
        totals = ranks[rows].sum(axis=1)
        for total in np.unique(totals).tolist():
            if total >= 6:
                here = rows[totals == total]
                zero[here] = near[here] & self._spaced(total)
        return zero

    def _spaced(self, total: int) -> np.ndarray:
        """Per bet, whether ``2 b (N)_6 d < 1`` for shoes of ``total`` cards (kept: the same few totals recur)."""
        spaced = self._spacing.get(total)
        if spaced is None:
            lattice = zip(self._c.bounds.tolist(), self._dens, strict=True)
            spaced = np.array([2 * Fraction(b) * perm(total, 6) * d < 1 for b, d in lattice], dtype=bool)
            if len(self._spacing) > 4096:  # shoes of every size from many decks: start again
                self._spacing.clear()
            self._spacing[total] = spaced
        return spaced

    def _counts(self, ranks: np.ndarray) -> list[tuple[int, list[int]]]:
        """``((N)_6, (N)_6 P_g for every event g)`` for each shoe (row of 13 rank counts)."""
        ev = self._c.events
        w = ev.walk
        values = np.array([_by_value(r) for r in ranks], dtype=np.int64).reshape(-1, 10)
        counts = event_counts(values, w.level, w.ratio, w.start, w.event, self._weight, len(ev.kept)).tolist()
        out = []
        for row, kept in zip(values.tolist(), counts, strict=True):
            total = perm(sum(row), 6)
            full = [0] * (len(kept) + 1)
            for g, c in zip(ev.kept.tolist(), kept, strict=True):
                full[g] = c
            full[ev.reference] = total - sum(kept)
            out.append((total, full))
        return out

    def _column(self, counts: tuple[int, list[int]], c: int) -> Fraction:
        """Exact kernel column ``R_c`` from a shoe's event counts."""
        assert self._rows is not None
        total, full = counts
        return Fraction(sum(f * u[c] for f, u in zip(full, self._rows, strict=True) if f), total * self._col_dens[c])

    def settle(self, ranks: np.ndarray, near: np.ndarray, out: np.ndarray) -> None:
        """``out[b, i] = float(exact EV)`` wherever ``near[b, i]``, in integers."""
        c = self._c
        shoes = np.flatnonzero(near.any(axis=1))
        ng, na = len(c.general), len(c.alpha_bets)
        position = {int(i): k for k, i in enumerate(c.general)}
        alpha_col = {int(k): ng + p for p, k in enumerate(c.alpha_bets)}
        beta_col = {int(k): ng + na + p for p, k in enumerate(c.beta_bets)}
        fast = self._rows is not None and ranks[shoes].sum(axis=1).max(initial=0) <= MAX_INT64_CARDS
        wanted = shoes[near[shoes][:, c.general].any(axis=1)] if ng else shoes[:0]
        counts = dict(zip(wanted.tolist(), self._counts(ranks[wanted]), strict=True)) if fast else {}
        for b in shoes.tolist():
            row = ranks[b].tolist()
            bets = np.flatnonzero(near[b]).tolist()
            mixed = [i for i in bets if i in position]
            flags = [i for i in bets if i not in position]
            if mixed:
                if fast:
                    alpha, beta = _zero_pair_odds(row)
                    for i in mixed:
                        k = position[i]
                        q = self._column(counts[b], k)
                        if k in alpha_col:
                            q += alpha * self._column(counts[b], alpha_col[k])
                        if k in beta_col:
                            q += beta * self._column(counts[b], beta_col[k])
                        out[b, i] = float(q)
                else:
                    for i, q in zip(
                        mixed, slow_general(self._nums, self._dens, self._tableau, row, mixed), strict=True
                    ):
                        out[b, i] = float(q)
            if flags:
                for i, q in zip(flags, self._pair_only(row, flags), strict=True):
                    out[b, i] = float(q)

    def _pair_only(self, ranks: Sequence[int], bets: Sequence[int]) -> list[Fraction]:
        """Exact EVs of pair-flag-only bets (their payout read at one reachable main class)."""
        n = [int(c) for c in ranks]
        total = sum(n)
        s2 = sum(perm(c, 2) for c in n)
        both = Fraction(sum(perm(c, 4) for c in n) + s2 * s2 - sum(perm(c, 2) ** 2 for c in n), perm(total, 4))
        one = Fraction(s2, perm(total, 2))
        probs = {(0, 0): 1 - 2 * one + both, (0, 1): one - both, (1, 0): one - both, (1, 1): both}
        main = self._c.pair_class
        return [
            sum((p * int(self._nums[i][main, pp, bp]) for (pp, bp), p in probs.items()), Fraction(0)) / self._dens[i]
            for i in bets
        ]


def slow_general(
    nums: np.ndarray, dens: Sequence[int], tableau: Tableau, ranks: Sequence[int], bets: Sequence[int]
) -> list[Fraction]:
    """Exact EVs of general bets for one shoe in Python integers, multiset by multiset (no event structure).

    ``nums[i] * dens[i]`` are bet i's integer payouts by (main class, player pair, banker pair).
    """
    table = coup_table(tableau)
    by_value = _by_value(ranks)
    n = sum(by_value)
    prods = int_products(by_value)
    sizes = multisets().size.tolist()
    tails = {k: perm(n - k, 6 - k) for k in (4, 5, 6)}
    alpha, beta = _zero_pair_odds(ranks)
    out = []
    for i in bets:
        w0, wa, wb = pair_split(nums[i : i + 1].astype(object), table.ext)
        acc = [0, 0, 0]
        for part, w in enumerate((w0[0], wa[0], wb[0])):
            for j, c, x in zip(table.mset.tolist(), table.count.tolist(), w.tolist(), strict=True):
                if x:
                    acc[part] += c * x * prods[j] * tails[sizes[j]]
        out.append((acc[0] + alpha * acc[1] + beta * acc[2]) / (perm(n, 6) * dens[i]))
    return out
