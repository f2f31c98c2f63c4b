"""The batched float kernel of the engine: event probabilities by a depth-first walk of the multiset trie.

A bet's expectation is a linear function of the probabilities of the outcome
classes, and each class probability is a polynomial in the shoe's counts by
value (see :mod:`toolkit.exact._tables`):  ``P(class) = sum_m A[class, m] F_m`` with
``F_m = prod_v (n_v)_(m_v) / (N)_k`` over the 7,722 multisets ``m`` of 4, 5 or
6 card values.  Two reductions make that sum cheap for a set of bets:

*Events.*  Outcome classes on which every bet of the set pays the same (a
payout vector ``V_g``) are merged into one *event* ``g``: 39 events for the
standard panel, so the bets' expectations are ``sum_g P_g V_g`` with
``P_g = sum_m G[m, g] F_m`` and ``G`` a sparse integer matrix (each multiset
reaches few events).  Since ``sum_g P_g = 1`` exactly, the densest event ``r``
is dropped:  ``EV = V_r + sum_{g != r} P_g (V_g - V_r)``.  For the standard
panel that leaves 24,735 non-zero weights, against 71,121 in an 11-column
dense basis of the same bets.

*Depth-first trie.*  ``F`` of a multiset is ``F`` of its parent (the multiset
less its largest value ``v``, which it already holds ``h`` times, at ``s``
cards) times ``(n_v - h) / (N - s)``.  Walking the trie in pre-order, the
parent of every node is the last node visited one level up, so a stack of 7
rows holds every ``F`` the walk needs and each ``F`` is used the moment it is
made; subtrees that reach no event are pruned.  Shoes run along the inner axis
(``lanes`` of them at a time), which the compiler vectorises.

Everything here is float64 and deterministic; :mod:`toolkit.exact._exact_sign`
bounds its rounding error, :mod:`toolkit.exact._native` runs the same walk as machine code built at run time for
the CPU (512-bit vectors where it has them; the numbers bit for bit those of :func:`event_kernel`, which
:class:`EventTable` falls back on), and :mod:`toolkit.exact._gpu` runs it on a GPU.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

from toolkit.exact._native import block_lanes, native_kernel
from toolkit.exact._tables import multisets

__all__ = [
    "CHUNK",
    "LANES",
    "NATIVE_MIN_ROWS",
    "EventTable",
    "Walk",
    "build_walk",
    "event_kernel",
    "event_table",
    "pair_rows",
    "pair_split",
    "pay_columns",
    "ratio_index",
    "sparse_walk",
    "walk_block",
    "walk_scratch",
    "zero_pair_rows",
]

#: Shoes per block of the CPU kernel: the event accumulators (events x lanes) stay in L1/L2.
LANES = 128
#: Fewest shoes the native kernel takes as a block of its own (it computes a whole block of LANES): below it the
#: numba kernel, whose block is as wide as the shoes, is faster (0.31 against 0.68 ms for one shoe, 0.65 against
#: 0.68 for 64, 1.01 against 0.67 for 128, standard panel, AVX-512 Xeon).
NATIVE_MIN_ROWS = 64
#: Nodes of the walk per partial sum: the rounding error of an event sum grows with a chunk's terms, not all of them.
CHUNK = 256


def ratio_index(value: np.ndarray, held: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Code of the ratio ``(n_value - held) / (N - size)``: ``(value * 6 + held) * 6 + size`` (held, size < 6)."""
    return (value * 6 + held) * 6 + size


@dataclass(frozen=True)
class Walk:
    """The pruned pre-order walk of the multiset trie for one event matrix.

    Node ``i`` sits at ``level[i]`` (cards in the multiset, 1..6), multiplies its
    parent's row by ratio ``ratio[i]`` and adds ``weight[k]`` times itself to
    event ``event[k]`` for ``k`` in ``start[i]:start[i + 1]``.
    """

    level: np.ndarray
    ratio: np.ndarray
    start: np.ndarray
    event: np.ndarray
    weight: np.ndarray
    multiset: np.ndarray  # the multiset index of each node (for the exact path and the tests)

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """``(level, ratio, start, event, weight)``: the walk as :func:`walk_block` reads it."""
        return self.level, self.ratio, self.start, self.event, self.weight


@lru_cache(maxsize=1)
def _preorder() -> np.ndarray:
    """All multiset indices in pre-order of the trie (children by increasing added value)."""
    ms = multisets()
    m = len(ms.parent)
    children: list[list[int]] = [[] for _ in range(m)]
    for j in range(1, m):
        children[int(ms.parent[j])].append(j)
    order: list[int] = []
    stack = [0]
    while stack:
        j = stack.pop()
        order.append(j)
        stack.extend(reversed(children[j]))
    return np.array(order, dtype=np.int64)


def build_walk(events: np.ndarray) -> Walk:
    """The walk for an ``(M, E)`` matrix of non-negative integer event weights per multiset."""
    rows, cols = np.nonzero(events)
    return sparse_walk(rows, cols, events[rows, cols])


def sparse_walk(mset: np.ndarray, event: np.ndarray, weight: np.ndarray) -> Walk:
    """The walk for sparse entries: ``weight[i]`` of multiset ``mset[i]`` goes to event ``event[i]`` (one entry per
    (multiset, event) pair; for event sets too many for a dense matrix of 8,008 rows)."""
    ms = multisets()
    m = len(ms.parent)
    per_row = np.bincount(mset, minlength=m)
    reach = per_row.copy()  # weights in the subtree of each multiset
    for j in range(m - 1, 0, -1):
        reach[ms.parent[j]] += reach[j]
    order = _preorder()
    order = order[(order != 0) & (reach[order] > 0)]
    rank = np.full(m, -1, dtype=np.int64)
    rank[order] = np.arange(len(order))
    by = np.lexsort((event, rank[mset]))
    by = by[rank[mset[by]] >= 0]
    level = ms.size[order]
    ratio = ratio_index(ms.added[order], ms.held[order], level - 1)
    start = np.zeros(len(order) + 1, dtype=np.int64)
    start[1:] = np.cumsum(per_row[order])
    return Walk(
        level=np.ascontiguousarray(level, dtype=np.int64),
        ratio=np.ascontiguousarray(ratio, dtype=np.int64),
        start=start,
        event=np.ascontiguousarray(event[by], dtype=np.int64),
        weight=np.ascontiguousarray(weight[by], dtype=np.float64),
        multiset=order,
    )


@numba.njit(cache=True, nogil=True, fastmath={"contract"})
def walk_block(values, first, width, walk, scratch, chunk):  # pragma: no cover - compiled
    """The event probabilities of shoes ``first .. first + width - 1`` (rows of ``values``, counts by value), left in
    ``tot + acc`` of ``scratch`` (events x lanes): one pass over the ``walk`` (its arrays level, ratio, start, event,
    weight; see :class:`Walk`) with the rows of the current path in ``stack``.

    A node's ratio is ``(n_v - h) * (1 / (N - s))`` from the shoes' counts ``nv`` and the six reciprocals ``inv``
    (two roundings).  The event sums of the current ``chunk`` of nodes go to ``acc``, added to ``tot`` at the end
    of each chunk (partial sums: about four times smaller rounding errors than one running sum of thousands of
    terms, for 2 % more work).  A node's weights are applied two at a time from one pass over its row, and a leaf
    with at most two weights forms its row in registers and never stores it; every event sum still receives the
    same terms in the same order, so the results are bit for bit those of one weight at a time.  The loops over
    shoes run to a run-time width on purpose: the compiler then vectorises them (with a constant trip count it
    unrolls them into scalar code).
    """
    level, ratio, start, event, weight = walk
    stack, nv, inv, acc, tot = scratch
    n_events = acc.shape[0]
    n_nodes = level.shape[0]
    for b in range(width):
        total = 0
        for v in range(10):
            total += values[first + b, v]
            nv[v, b] = values[first + b, v]
        for s in range(6):
            inv[s, b] = 1.0 / (total - s)
        stack[0, b] = 1.0
    acc[:, :width] = 0.0
    tot[:, :width] = 0.0
    for c0 in range(0, n_nodes, chunk):
        if c0:
            for g in range(n_events):
                for b in range(width):
                    tot[g, b] += acc[g, b]
                    acc[g, b] = 0.0
        for i in range(c0, min(c0 + chunk, n_nodes)):
            s = level[i]
            r = ratio[i]
            v = r // 36
            h = float((r // 6) % 6)
            q = r % 6
            k0, k1 = start[i], start[i + 1]
            leaf = i + 1 == n_nodes or level[i + 1] <= s
            if leaf and k1 - k0 == 1:
                g1, w1 = event[k0], weight[k0]
                for b in range(width):
                    x = stack[s - 1, b] * ((nv[v, b] - h) * inv[q, b])
                    acc[g1, b] += w1 * x
                continue
            if leaf and k1 - k0 == 2:
                g1, w1, g2, w2 = event[k0], weight[k0], event[k0 + 1], weight[k0 + 1]
                for b in range(width):
                    x = stack[s - 1, b] * ((nv[v, b] - h) * inv[q, b])
                    acc[g1, b] += w1 * x
                    acc[g2, b] += w2 * x
                continue
            for b in range(width):
                stack[s, b] = stack[s - 1, b] * ((nv[v, b] - h) * inv[q, b])
            for k in range(k0, k1):
                g1, w1 = event[k], weight[k]
                for b in range(width):
                    acc[g1, b] += w1 * stack[s, b]


@numba.njit(cache=True, nogil=True)
def walk_scratch(n_events: int, lanes: int) -> tuple[np.ndarray, ...]:  # pragma: no cover - compiled
    """The buffers :func:`walk_block` works in: the path's rows, counts, reciprocals and the event sums."""
    return (
        np.empty((7, lanes)),
        np.empty((10, lanes)),
        np.empty((6, lanes)),
        np.empty((n_events, lanes)),
        np.empty((n_events, lanes)),
    )


@numba.njit(cache=True, nogil=True, fastmath={"contract"})
def event_kernel(values, walk, base, delta, lanes, chunk):  # pragma: no cover - compiled
    """``base + P @ delta`` for every shoe (row of ``values``, counts by value), ``P`` its event probabilities.

    ``lanes`` shoes at a time through :func:`walk_block` (``walk``: the arrays of a :class:`Walk`).
    """
    rows = values.shape[0]
    n_events, n_out = delta.shape
    out = np.empty((rows, n_out))
    scratch = walk_scratch(n_events, lanes)
    acc, tot = scratch[3], scratch[4]
    row = np.empty(lanes)
    for first in range(0, rows, lanes):
        width = min(lanes, rows - first)
        walk_block(values, first, width, walk, scratch, chunk)
        for c in range(n_out):  # over lanes, not strided scalars: each sum still adds its events in order
            for b in range(width):
                row[b] = base[c]
            for g in range(n_events):
                d = delta[g, c]
                for b in range(width):
                    row[b] += (tot[g, b] + acc[g, b]) * d
            for b in range(width):
                out[first + b, c] = row[b]
    return out


@dataclass(frozen=True)
class EventTable:
    """A set of payout columns reduced to events (see the module notes).

    ``columns ~= base + P @ delta`` where ``P`` are the probabilities of the
    events kept and ``reference`` the event dropped.
    """

    walk: Walk
    base: np.ndarray  # (C,) payout row of the reference event
    delta: np.ndarray  # (E, C) payout rows of the kept events less the reference row
    largest_event: int  # most weights of one kept event (for the error bound)
    entry_event: np.ndarray  # event of each entry (0..E, the reference included)
    kept: np.ndarray  # (E,) the events of the rows of ``delta``, in the numbering of ``entry_event``
    reference: int

    @property
    def n_events(self) -> int:
        return self.delta.shape[0]

    def __call__(self, values: np.ndarray, lanes: int = LANES) -> np.ndarray:
        """``(B, C)`` columns for ``(B, 10)`` int64 counts by value: the native kernel of
        :mod:`toolkit.exact._native` built for this CPU on whole blocks of ``LANES`` shoes (64 where the CPU's L1
        data cache is too small for this table's event sums, :func:`~toolkit.exact._native.block_lanes`), the numba
        kernel on a last block of fewer than ``NATIVE_MIN_ROWS`` shoes (half a block with 64-lane blocks; the native
        kernel would pad it to a whole block),
        where the native kernel cannot be built, or where ``lanes`` is not the default: the same numbers bit for
        bit either way."""
        rows = values.shape[0]
        if rows == 0:
            return np.zeros((0, len(self.base)))
        kernel = native_kernel(lanes=block_lanes(self.n_events)) if lanes == LANES else None
        width = kernel.lanes if kernel is not None else LANES
        native_rows = rows if rows % width >= min(NATIVE_MIN_ROWS, width // 2) else rows - rows % width
        if kernel is None or native_rows == 0:
            return event_kernel(values, self.walk.arrays, self.base, self.delta, int(min(lanes, rows)), CHUNK)
        out = np.empty((rows, len(self.base)))
        kernel(self, values[:native_rows], CHUNK, out[:native_rows])  # in place: no concatenation of the blocks
        if native_rows < rows:
            rest = values[native_rows:]
            out[native_rows:] = event_kernel(rest, self.walk.arrays, self.base, self.delta, len(rest), CHUNK)
        return out


@numba.njit(cache=True, nogil=True, inline="always")
def _pair_sums(ranks, r, lo, hi):  # pragma: no cover - compiled
    """Over ranks ``lo .. hi - 1`` of row ``r``: the cards, and the sums of ``n(n-1)``, ``n(n-1)(n-2)(n-3)`` and
    ``(n(n-1))^2`` (whole numbers below 2**53, so exact in any order)."""
    total = s2 = s4 = sq = 0.0
    for c in range(lo, hi):
        n = float(ranks[r, c])
        f2 = n * (n - 1)
        total += n
        s2 += f2
        s4 += f2 * (n - 2) * (n - 3)
        sq += f2 * f2
    return total, s2, s4, sq


@numba.njit(cache=True, nogil=True, error_model="numpy")
def pair_rows(ranks):  # pragma: no cover - compiled
    """``(B, 4)`` probabilities of (no pair, Banker pair only, Player pair only, both) of ``(B, 13)`` rank counts
    (see :func:`toolkit.exact.engine.pair_probabilities`), in one pass over each shoe.

    Every sum is of whole numbers below 2**53, exact in any order, and the divisions and the last combinations are
    those of the formula written with whole arrays, in the same order, so the numbers are bit for bit the same.
    """
    rows = ranks.shape[0]
    out = np.empty((rows, 4))
    for r in range(rows):
        total, s2, s4, sq = _pair_sums(ranks, r, 0, ranks.shape[1])
        both = (s4 + s2 * s2 - sq) / (total * (total - 1) * (total - 2) * (total - 3))
        one = s2 / (total * (total - 1))
        out[r, 0] = 1 - 2 * one + both
        out[r, 1] = one - both
        out[r, 2] = one - both
        out[r, 3] = both
    return out


@numba.njit(cache=True, nogil=True)
def zero_pair_rows(ranks):  # pragma: no cover - compiled
    """The zero-pair odds ``(alpha, beta)`` of each row of ``(B, 13)`` rank counts (ranks 9..12 the zero-valued
    ones): the chance that two zero-valued cards are a pair, and that two such couples both are; 0 where the shoe
    holds too few zero-valued cards.  Sums of whole numbers (exact in any order), then one division each."""
    rows = ranks.shape[0]
    alpha = np.empty(rows)
    beta = np.empty(rows)
    for r in range(rows):
        total, same2, s4, sq = _pair_sums(ranks, r, 9, 13)
        den2 = total * (total - 1)
        den4 = den2 * (total - 2) * (total - 3)
        alpha[r] = same2 / den2 if den2 > 0 else 0.0
        beta[r] = (s4 + same2 * same2 - sq) / den4 if den4 > 0 else 0.0
    return alpha, beta


@numba.njit(cache=True, nogil=True)
def pay_columns(raw, n_general, alpha_bets, beta_bets, alpha, beta, general, out):  # pragma: no cover - compiled
    """``out[:, general[k]] = raw[:, k] + alpha * raw[:, alpha part of k] + beta * raw[:, beta part of k]``: the
    bets' expectations from the kernel's columns (``raw``: the general bets', then the alpha parts of
    ``alpha_bets``, then the beta parts of ``beta_bets``) and each shoe's zero-pair odds; each product rounded,
    then each sum, as the same formula written with whole columns (no fused multiply-add)."""
    na = alpha_bets.shape[0]
    for r in range(raw.shape[0]):
        for p in range(na):
            k = alpha_bets[p]
            raw[r, k] = raw[r, k] + alpha[r] * raw[r, n_general + p]
        for p in range(beta_bets.shape[0]):
            k = beta_bets[p]
            raw[r, k] = raw[r, k] + beta[r] * raw[r, n_general + na + p]
        for k in range(n_general):
            out[r, general[k]] = raw[r, k]


def event_table(mset: np.ndarray, count: np.ndarray, vectors: np.ndarray) -> EventTable:
    """Events of sparse entries: ``count[i]`` sequences of multiset ``mset[i]`` pay ``vectors[i]`` (rows)."""
    m = len(multisets().parent)
    rows, index = np.unique(vectors, axis=0, return_inverse=True)
    index = np.asarray(index).ravel()
    events = np.zeros((m, len(rows)), dtype=np.int64)
    np.add.at(events, (mset, index), count)
    weights = (events != 0).sum(axis=0)
    reference = int(np.argmax(weights))
    keep = np.array([g for g in range(len(rows)) if g != reference], dtype=np.int64)
    walk = build_walk(events[:, keep])
    delta = np.ascontiguousarray(rows[keep] - rows[reference]).reshape(len(keep), rows.shape[1])
    largest = int(weights[keep].max()) if len(keep) else 0
    return EventTable(walk, np.ascontiguousarray(rows[reference]), delta, largest, index, keep, reference)


def pair_split(x: np.ndarray, ext: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-entry payout parts ``(w0, wa, wb)`` of pay tables ``x`` (bets, main class, player pair, banker pair).

    An entry with extended class ``ext`` pays ``w0 + alpha wa + beta wb`` in expectation, with alpha and
    beta the zero-pair odds (see :mod:`toolkit.exact._tables`): a hand of two zero-valued cards is a pair with
    probability alpha, both hands are with probability beta.  Works for any numeric dtype (float, int64,
    object integers), with the same arithmetic in each.
    """
    main = ext // 9
    sp, sb = (ext % 9) // 3, ext % 3
    a0 = np.where(sp == 1, 1, 0)  # base flag: pairs of zero-valued cards start as "no pair"
    b0 = np.where(sb == 1, 1, 0)
    w0 = x[:, main, a0, b0]
    wa = np.zeros_like(w0)
    wb = np.zeros_like(w0)
    only_p = (sp == 2) & (sb != 2)
    only_b = (sb == 2) & (sp != 2)
    both = (sp == 2) & (sb == 2)
    wa[:, only_p] = x[:, main[only_p], 1, b0[only_p]] - x[:, main[only_p], 0, b0[only_p]]
    wa[:, only_b] = x[:, main[only_b], a0[only_b], 1] - x[:, main[only_b], a0[only_b], 0]
    mb = main[both]
    wa[:, both] = x[:, mb, 1, 0] + x[:, mb, 0, 1] - 2 * x[:, mb, 0, 0]
    wb[:, both] = x[:, mb, 1, 1] - x[:, mb, 1, 0] - x[:, mb, 0, 1] + x[:, mb, 0, 0]
    return w0, wa, wb
