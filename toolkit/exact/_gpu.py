"""The engine's walk of the multiset trie on a CUDA GPU (optional: the ``gpu`` extra).

``paytable_expected_values(shoes, bets, device="gpu")`` sends the shoes' counts by value
to the GPU, runs :func:`walk_kernel` with one thread per shoe and brings back
the event columns; everything else (pair-only bets, zero-pair odds, exact
signs) is the CPU code of :mod:`toolkit.exact.engine`, so both devices return the
same numbers up to rounding, within the same error bound
(:mod:`toolkit.exact._exact_sign`).

Each thread walks the pruned pre-order of :class:`toolkit.exact._kernels.Walk` with
the rows of its current path in a local array of 7 and the event sums of the
current chunk of nodes in shared memory (laid out ``event * threads + thread``,
so a warp's accesses are conflict-free), added to a local array at the end of
each chunk as on the CPU; the ratios ``(n_v - h) * (1 / (N - s))`` are
computed where they are used, as on the CPU.
All threads of a warp walk the same nodes, so the walk's arrays are read as
broadcasts.

Why numba-cuda and not CuPy: the kernel is a Python function compiled by
numba-cuda (the CUDA target of numba, maintained by NVIDIA), like the CPU
kernel, and the same source runs unchanged under numba's CUDA simulator
(``NUMBA_ENABLE_CUDASIM=1``), which interprets it on the CPU.  The default
test suite therefore checks the GPU kernel against the CPU path on every
machine, GPU or not.  CuPy would need the kernel as CUDA C source in a string
(``RawKernel``) or as array expressions that materialise the 8,008 features
per shoe, with no simulator to test it without a GPU.

Install with the extra ``gpu`` (``numba-cuda[cu12]``: numba-cuda with the CUDA
12 toolkit wheels; a machine with a CUDA 13 driver can use ``numba-cuda[cu13]``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from toolkit.exact._kernels import CHUNK, EventTable

cuda: Any
try:  # the kernel names ``cuda`` as a module global: numba's CUDA simulator swaps exactly that name
    from numba import cuda
except ImportError:  # pragma: no cover - numba without its CUDA target
    cuda = None

__all__ = ["available", "event_columns", "threads_for"]

#: Threads per block, by the number of events (the event sums of a block live in shared memory, <= 48 KiB).
_SHARED_BYTES = 48 * 1024


def _cuda() -> Any:
    """``numba.cuda``, or a RuntimeError that says what is missing."""
    if cuda is None:  # pragma: no cover - numba without its CUDA target
        raise RuntimeError("device='gpu' needs numba-cuda: pip install 'baccarat-toolkit[gpu]'")
    if not cuda.is_available():
        raise RuntimeError(
            "device='gpu' found no CUDA GPU (numba.cuda.is_available() is False); "
            "install the 'gpu' extra on a machine with an NVIDIA GPU, or use device='cpu'"
        )
    return cuda


def available() -> bool:
    """Whether ``device="gpu"`` can run here (numba's CUDA target and a GPU, or the simulator)."""
    try:
        _cuda()
    except RuntimeError:
        return False
    return True


@lru_cache(maxsize=8)
def _compiled(n_events: int, threads: int) -> Any:
    """The kernel for ``n_events`` event sums per thread and ``threads`` threads per block."""
    _cuda()
    from numba import float64

    size = max(n_events, 1) * threads
    locals_ = max(n_events, 1)

    @cuda.jit
    def walk_kernel(values, level, ratio, start, event, weight, base, delta, out):  # pragma: no cover - device
        tid = cuda.threadIdx.x
        b = cuda.blockIdx.x * cuda.blockDim.x + tid
        acc = cuda.shared.array(size, float64)
        tot = cuda.local.array(locals_, float64)
        stack = cuda.local.array(7, float64)
        inv = cuda.local.array(6, float64)
        for g in range(n_events):
            acc[g * threads + tid] = 0.0
            tot[g] = 0.0
        if b < values.shape[0]:
            total = 0
            for v in range(10):
                total += values[b, v]
            for q in range(6):
                inv[q] = 1.0 / (total - q)
            stack[0] = 1.0
            for i in range(level.shape[0]):
                if i % CHUNK == 0 and i:
                    for g in range(n_events):
                        tot[g] += acc[g * threads + tid]
                        acc[g * threads + tid] = 0.0
                s = level[i]
                r = ratio[i]
                v = r // 36
                stack[s] = stack[s - 1] * ((values[b, v] - (r // 6) % 6) * inv[r % 6])
                f = stack[s]
                for k in range(start[i], start[i + 1]):
                    slot = event[k] * threads + tid
                    acc[slot] += weight[k] * f
            for c in range(out.shape[1]):
                t = base[c]
                for g in range(n_events):
                    t += (tot[g] + acc[g * threads + tid]) * delta[g, c]
                out[b, c] = t

    return walk_kernel


def threads_for(n_events: int) -> int:
    """Threads per block: the most (up to 128, a multiple of 32) whose event sums fit in shared memory."""
    threads = 128
    while threads > 32 and max(n_events, 1) * threads * 8 > _SHARED_BYTES:
        threads //= 2
    if max(n_events, 1) * threads * 8 > _SHARED_BYTES:
        raise ValueError(f"{n_events} events do not fit the GPU kernel's shared memory; use device='cpu'")
    return threads


def event_columns(table: EventTable, values: np.ndarray) -> np.ndarray:
    """``table(values)`` computed on the GPU: ``(B, C)`` columns for ``(B, 10)`` int64 counts by value."""
    _cuda()
    rows = values.shape[0]
    out = np.empty((rows, len(table.base)))
    if rows == 0:
        return out
    threads = threads_for(table.n_events)
    kernel = _compiled(table.n_events, threads)
    w = table.walk
    args = [cuda.to_device(np.ascontiguousarray(a)) for a in (values, w.level, w.ratio, w.start, w.event, w.weight)]
    args += [cuda.to_device(np.ascontiguousarray(table.base)), cuda.to_device(np.ascontiguousarray(table.delta))]
    device_out = cuda.device_array(out.shape, dtype=np.float64)
    kernel[(rows + threads - 1) // threads, threads](*args, device_out)
    return device_out.copy_to_host()
