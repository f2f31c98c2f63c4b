"""Running independent blocks of shoes in parallel, with results that never depend on the worker count.

Work is cut into *blocks* of a fixed number of shoes.  Block ``i`` draws its
random numbers from child ``i`` of ``SeedSequence(seed).spawn(n_blocks)``, so
the same seed gives the same shoes whether the blocks run in one process, in
local worker processes, or on a Dask distributed cluster.

>>> plan = block_plan(2500, block_size=1000, seed=7)
>>> [(b.index, b.first_shoe, b.n_shoes) for b in plan]
[(0, 0, 1000), (1, 1000, 1000), (2, 2000, 500)]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from tqdm.auto import tqdm

__all__ = ["Block", "SeedLike", "as_generator", "as_seed_sequence", "block_plan", "default_workers", "map_blocks"]

T = TypeVar("T")

#: Shoes per block unless a caller chooses otherwise; part of what a seed means, so keep it fixed.
DEFAULT_BLOCK_SIZE = 1000


#: What every ``seed=`` of the public API accepts.
SeedLike = int | np.integer | Sequence[int] | np.random.SeedSequence | np.random.Generator | None


def as_generator(seed: SeedLike) -> np.random.Generator:
    """The one random-state normaliser: a :class:`numpy.random.Generator` from any :data:`SeedLike`.

    A Generator is used as it is (its stream continues); an integer, a SeedSequence
    or ``None`` (fresh entropy) seeds a new one.

    >>> float(as_generator(1).random()) == float(np.random.default_rng(1).random())
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(as_seed_sequence(seed))


def as_seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    """A :class:`numpy.random.SeedSequence` from any :data:`SeedLike`, for work cut into blocks.

    An integer ``s`` gives ``SeedSequence(s)``, a sequence of integers ``SeedSequence([s0, s1, ...])``
    (entropy words: a study's seed and a replicate number, say); a Generator gives a sequence seeded by
    its next draw, so a seeded Generator gives reproducible blocks too.
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(0, 2**63)))
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, (list, tuple)) and seed and all(
        isinstance(s, (int, np.integer)) and not isinstance(s, (bool, np.bool_)) and s >= 0 for s in seed
    ):
        return np.random.SeedSequence([int(s) for s in seed])  # entropy words: (study seed, replicate), say
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"seed must be an integer, a numpy SeedSequence, a numpy Generator or None, not {type(seed).__name__}"
        )
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return np.random.SeedSequence(int(seed))


@dataclass(frozen=True)
class Block:
    """One block of shoes: its index, the id of its first shoe, its size and its own seed."""

    index: int
    first_shoe: int
    n_shoes: int
    seed: np.random.SeedSequence

    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)


def block_plan(n_shoes: int, block_size: int = DEFAULT_BLOCK_SIZE, seed: SeedLike = None) -> list[Block]:
    """Cut ``n_shoes`` into blocks, each with a child of ``SeedSequence(seed)``."""
    if isinstance(n_shoes, bool) or not isinstance(n_shoes, (int, np.integer)) or n_shoes < 0:
        raise ValueError(f"number of shoes must be a non-negative integer, got {n_shoes!r}")
    if block_size < 1:
        raise ValueError(f"block size must be positive, got {block_size}")
    root = as_seed_sequence(seed)
    n_blocks = -(-int(n_shoes) // block_size)
    children = root.spawn(n_blocks)
    return [
        Block(i, i * block_size, min(block_size, int(n_shoes) - i * block_size), child)
        for i, child in enumerate(children)
    ]


def default_workers() -> int:
    """The local cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def map_blocks(
    fn: Callable[[Block], T],
    blocks: Sequence[Block],
    workers: int | None = 1,
    scheduler: str | Any | None = None,
    progress: bool = True,
    description: str = "shoes",
) -> Iterator[T]:
    """Yield ``fn(block)`` for every block, in block order.

    Parameters
    ----------
    fn
        A picklable (module-level) function of one :class:`Block`.
    workers
        Local processes; ``1`` runs in this process, ``None`` uses every core.
    scheduler
        Address of a Dask distributed scheduler (``"tcp://host:8786"``) or a
        ``distributed.Client``; overrides ``workers``.
    progress
        Show a tqdm bar counted in shoes, with the time left.
    """
    total = sum(b.n_shoes for b in blocks)
    bar = tqdm(total=total, unit="shoe", desc=description, disable=not progress, smoothing=0.1)
    try:
        if scheduler is not None:
            yield from _map_dask(fn, blocks, scheduler, bar)
            return
        n = default_workers() if workers is None else int(workers)
        if n < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if n == 1 or len(blocks) <= 1:
            for block in blocks:
                result = fn(block)
                bar.update(block.n_shoes)
                yield result
            return
        # "spawn": forked children of a process that has used polars (or numba threads) can deadlock
        with ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn")) as pool:
            # keep at most 2 blocks per worker in flight so memory stays flat
            pending: dict[int, Any] = {}
            next_submit = 0
            for i in range(len(blocks)):
                while next_submit < len(blocks) and next_submit < i + 2 * n:
                    pending[next_submit] = pool.submit(fn, blocks[next_submit])
                    next_submit += 1
                result = pending.pop(i).result()
                bar.update(blocks[i].n_shoes)
                yield result
    finally:
        bar.close()


def _map_dask(fn: Callable[[Block], T], blocks: Sequence[Block], scheduler: str | Any, bar: tqdm) -> Iterator[T]:
    from distributed import Client

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        futures = client.map(fn, blocks, pure=False)
        for block, future in zip(blocks, futures, strict=True):
            result = future.result()
            future.release()
            bar.update(block.n_shoes)
            yield result
    finally:
        if client is not scheduler:
            client.close()
