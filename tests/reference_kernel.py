"""The engine's event kernel as it stood before the kernel was brought to the core's limit: the oracle.

A verbatim copy of ``walk_block``, ``walk_scratch`` and ``event_kernel`` of ``toolkit/exact/_kernels.py`` at
commit b1720dd (a plain numba walk, one weight and one lane loop at a time, the output loop over strided
scalars).  The tests check the package's kernels against it bit for bit, and ``tests/benchmarks/engine.py``
measures them against it in the same run.  Call ``reference_columns(table, values)`` like ``table(values)``
for an :class:`toolkit.exact._kernels.EventTable`.
"""

from __future__ import annotations

import numba
import numpy as np

LANES = 128
CHUNK = 256


@numba.njit(cache=True, nogil=True, fastmath={"contract"})
def walk_block(values, first, width, walk, scratch, chunk):  # pragma: no cover - compiled
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
            for b in range(width):
                stack[s, b] = stack[s - 1, b] * ((nv[v, b] - h) * inv[q, b])
            for k in range(start[i], start[i + 1]):
                g = event[k]
                w = weight[k]
                for b in range(width):
                    acc[g, b] += w * stack[s, b]


@numba.njit(cache=True, nogil=True)
def walk_scratch(n_events: int, lanes: int) -> tuple[np.ndarray, ...]:  # pragma: no cover - compiled
    return (
        np.empty((7, lanes)),
        np.empty((10, lanes)),
        np.empty((6, lanes)),
        np.empty((n_events, lanes)),
        np.empty((n_events, lanes)),
    )


@numba.njit(cache=True, nogil=True, fastmath={"contract"})
def event_kernel(values, walk, base, delta, lanes, chunk):  # pragma: no cover - compiled
    rows = values.shape[0]
    n_events, n_out = delta.shape
    out = np.empty((rows, n_out))
    scratch = walk_scratch(n_events, lanes)
    acc, tot = scratch[3], scratch[4]
    for first in range(0, rows, lanes):
        width = min(lanes, rows - first)
        walk_block(values, first, width, walk, scratch, chunk)
        for b in range(width):
            for c in range(n_out):
                total_c = base[c]
                for g in range(n_events):
                    total_c += (tot[g, b] + acc[g, b]) * delta[g, c]
                out[first + b, c] = total_c
    return out


def reference_columns(table, values: np.ndarray, lanes: int = LANES) -> np.ndarray:
    """``table(values)`` by the reference kernel: ``(B, C)`` columns for ``(B, 10)`` int64 counts by value."""
    if values.shape[0] == 0:
        return np.zeros((0, len(table.base)))
    lanes = int(min(lanes, values.shape[0]))
    return event_kernel(values, table.walk.arrays, table.base, table.delta, lanes, CHUNK)
