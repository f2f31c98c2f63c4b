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

import contextlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from toolkit._progress import progress_bar

__all__ = [
    "MAX_SHOES",
    "Block",
    "BlockPlan",
    "SeedLike",
    "as_generator",
    "as_seed_sequence",
    "block_plan",
    "block_seed",
    "default_workers",
    "map_blocks",
    "map_tasks",
    "shutdown_pool",
    "start_pool",
]

T = TypeVar("T")

#: Shoes per block unless a caller chooses otherwise; part of what a seed means, so keep it fixed.
DEFAULT_BLOCK_SIZE = 1000


#: What every ``seed=`` of the public API accepts.
SeedLike = int | np.integer | Sequence[int] | np.random.SeedSequence | np.random.Generator | None


def as_generator(seed: SeedLike) -> np.random.Generator:
    """The one random-state normaliser: a :class:`numpy.random.Generator` from any :data:`SeedLike`.

    A Generator is used as it is (its stream continues); an integer, a SeedSequence
    or ``None`` (fresh entropy) seeds a new one.

    Parameters
    ----------
    seed
        An integer, a SeedSequence, a Generator or ``None``.

    Returns
    -------
    numpy.random.Generator
        The generator.

    Examples
    --------
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

    Parameters
    ----------
    seed
        An integer, a sequence of integers, a SeedSequence, a Generator or ``None``.

    Returns
    -------
    numpy.random.SeedSequence
        The sequence.

    Examples
    --------
    >>> as_seed_sequence(7).entropy
    7
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(0, 2**63)))
    if seed is None:
        return np.random.SeedSequence()
    if (
        isinstance(seed, (list, tuple))
        and seed
        and all(isinstance(s, (int, np.integer)) and not isinstance(s, (bool, np.bool_)) and s >= 0 for s in seed)
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
    """One block of shoes: its index, the id of its first shoe, its size and its own seed.

    Attributes
    ----------
    index
        Its index in the plan.
    first_shoe
        Id of its first shoe.
    n_shoes
        Shoes in it.
    seed
        Its own seed sequence.
    """

    index: int
    first_shoe: int
    n_shoes: int
    seed: np.random.SeedSequence

    def rng(self) -> np.random.Generator:
        """A fresh generator from this block's seed (the same stream on every call)."""
        return np.random.default_rng(self.seed)


#: The most shoes one run may deal (a billion: weeks of work on one machine).  The plan of blocks is
#: built lazily, so its memory does not grow with the number of shoes.
MAX_SHOES = 10**9

#: Children spawned at a time while a reused SeedSequence is advanced past a plan's blocks.
_SPAWN_CHUNK = 1 << 16


def block_seed(root: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """Child ``i`` of ``root``: the same sequence as ``root.spawn(i + 1)[i]`` of a fresh ``root``.

    Built directly (``spawn_key = root.spawn_key + (i,)``), so a plan of many
    blocks never holds all their seeds at once.

    Parameters
    ----------
    root
        The root sequence.
    i
        The child's index.

    Returns
    -------
    numpy.random.SeedSequence
        Child ``i``.

    Examples
    --------
    >>> root = np.random.SeedSequence(7)
    >>> block_seed(root, 2).state == np.random.SeedSequence(7).spawn(3)[2].state
    True
    """
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, int(i)), pool_size=root.pool_size)


class BlockPlan(Sequence[Block]):
    """The blocks of a run, made on demand: a sequence of :class:`Block` of constant size in memory.

    ``plan[i]``, ``len(plan)``, iteration and slices (``plan[done:]``, another
    plan) behave as on the list of blocks they stand for.
    """

    def __init__(
        self, n_shoes: int, block_size: int, root: np.random.SeedSequence, first: int = 0, offset: int = 0
    ) -> None:
        self.n_total = int(n_shoes)
        self.block_size = int(block_size)
        self.root = root
        self.first = int(first)  # index of this plan's first block
        self.offset = int(offset)  # children the root had spawned before this plan
        self.n_blocks = -(-self.n_total // self.block_size)

    def __len__(self) -> int:
        return max(0, self.n_blocks - self.first)

    @property
    def n_shoes(self) -> int:
        """Shoes in the blocks of this plan (or slice)."""
        return max(0, self.n_total - self.first * self.block_size)

    def _block(self, i: int) -> Block:
        start = i * self.block_size
        return Block(i, start, min(self.block_size, self.n_total - start), block_seed(self.root, self.offset + i))

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[j] for j in range(start, stop, step)]
            if stop <= start:
                return BlockPlan(0, self.block_size, self.root)
            sub = BlockPlan(min(self.n_total, (self.first + stop) * self.block_size), self.block_size, self.root)
            sub.first, sub.offset = self.first + start, self.offset
            return sub
        i = int(index)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"block {index} of a plan of {len(self)} blocks")
        return self._block(self.first + i)

    def __iter__(self) -> Iterator[Block]:
        for i in range(self.first, self.n_blocks):
            yield self._block(i)

    def __repr__(self) -> str:
        return f"BlockPlan({len(self)} blocks of up to {self.block_size} shoes, {self.n_shoes} shoes)"


def block_plan(n_shoes: int, block_size: int = DEFAULT_BLOCK_SIZE, seed: SeedLike = None) -> BlockPlan:
    """Cut ``n_shoes`` (at most :data:`MAX_SHOES`) into blocks, block ``i`` seeded by child ``i`` of the seed.

    The blocks are made lazily (:class:`BlockPlan`); their seeds are those of
    ``SeedSequence(seed).spawn(n_blocks)``.  A SeedSequence passed in is advanced
    past the plan's children, as ``spawn`` would (a fresh root, from an integer, is not).

    Parameters
    ----------
    n_shoes
        Shoes.
    block_size
        Shoes per block.
    seed
        An integer, a SeedSequence, a Generator or ``None``.

    Returns
    -------
    BlockPlan
        The blocks, in order.

    Examples
    --------
    >>> plan = block_plan(2500, 1000, seed=1)
    >>> len(plan), [b.n_shoes for b in plan]
    (3, [1000, 1000, 500])
    """
    if isinstance(n_shoes, (bool, np.bool_)) or not isinstance(n_shoes, (int, np.integer)):
        raise TypeError(f"number of shoes must be an integer, got {n_shoes!r}")
    if n_shoes < 0:
        raise ValueError(f"number of shoes must be a non-negative integer, got {n_shoes!r}")
    if n_shoes > MAX_SHOES:
        raise ValueError(f"number of shoes must be at most {MAX_SHOES:,} (one run), got {int(n_shoes):,}")
    if isinstance(block_size, (bool, np.bool_)) or not isinstance(block_size, (int, np.integer)):
        raise TypeError(f"block size must be an integer, got {block_size!r}")
    if block_size < 1:
        raise ValueError(f"block size must be positive, got {block_size}")
    root = as_seed_sequence(seed)
    plan = BlockPlan(int(n_shoes), int(block_size), root, offset=root.n_children_spawned)
    left = plan.n_blocks if isinstance(seed, np.random.SeedSequence) else 0
    while left:  # advance the caller's root as spawn(n_blocks) would, without keeping the children
        step = min(left, _SPAWN_CHUNK)
        root.spawn(step)
        left -= step
    return plan


def default_workers() -> int:
    """The local cores this process may use.

    Returns
    -------
    int
        The number of cores.

    Examples
    --------
    >>> default_workers() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def map_blocks(
    fn: Callable[[Block], T],
    blocks: Sequence[Block],
    workers: int | None = None,
    scheduler: str | Any | None = None,
    progress: bool = True,
    description: str = "shoes",
) -> Iterator[T]:
    """Yield ``fn(block)`` for every block, in block order.

    Parameters
    ----------
    fn
        A picklable (module-level) function of one :class:`Block`.
    blocks
        The blocks (a :class:`BlockPlan` or a sequence of :class:`Block`).
    workers
        Local processes; ``1`` runs in this process, ``None`` uses every core.
    scheduler
        Address of a Dask distributed scheduler (``"tcp://host:8786"``) or a
        ``distributed.Client``; overrides ``workers``.
    progress
        Show a tqdm bar counted in shoes, with the time left: on stderr when it is a
        terminal (never into a log file or a pipe), as a widget in a notebook.
    description
        The bar's label.

    Yields
    ------
    T
        ``fn(block)``, block by block in order, whatever order the workers finish in.
    """
    total = blocks.n_shoes if isinstance(blocks, BlockPlan) else sum(b.n_shoes for b in blocks)
    return _ordered_map(fn, blocks, _shoes_in, total, "shoe", workers, scheduler, progress, description)


def map_tasks(
    fn: Callable[[Any], T],
    tasks: Sequence[Any],
    workers: int | None = None,
    scheduler: str | Any | None = None,
    progress: bool = True,
    description: str = "tasks",
) -> Iterator[T]:
    """Yield ``fn(task)`` for every task, in order, where :func:`map_blocks` runs blocks (the same pool or cluster).

    For work that is not cut into shoes (the candidates of a search, say): each task is whole, so the result
    never depends on ``workers`` or ``scheduler`` when ``fn`` draws no random numbers but from its task.

    Parameters
    ----------
    fn
        A picklable (module-level) function of one task.
    tasks
        The tasks, each picklable.
    workers, scheduler
        As :func:`map_blocks` takes them.
    progress, description
        A bar counted in tasks, and its label.

    Yields
    ------
    T
        ``fn(task)``, task by task in order.

    Examples
    --------
    >>> list(map_tasks(abs, [-2, 3, -1], progress=False))
    [2, 3, 1]
    """
    return _ordered_map(fn, tasks, _one, len(tasks), "task", workers, scheduler, progress, description)


def _shoes_in(block: Block) -> int:
    return block.n_shoes


def _one(_: Any) -> int:
    return 1


def _ordered_map(
    fn: Callable[[Any], T],
    items: Sequence[Any],
    size: Callable[[Any], int],
    total: int,
    unit: str,
    workers: int | None,
    scheduler: str | Any | None,
    progress: bool,
    description: str,
) -> Iterator[T]:
    """``fn`` over ``items`` in order, here, on this process's pool or on a Dask cluster; the bar counts
    ``size(item)`` of ``total``, in ``unit``."""
    n = default_workers() if workers is None else int(workers)
    if scheduler is None and n < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    first: list[T] = []
    if scheduler is None and n > 1 and len(items) > 1 and _pool_to_start(n) == "fork":
        # workers start warm: the first item runs here, then the workers are forked with what it built (before
        # the bar, whose monitor thread would make forking unsafe)
        first.append(fn(items[0]))
        _shared_pool(n)
    bar = progress_bar(total=total, unit=unit, desc=description, show=progress, smoothing=0.1)
    try:
        if scheduler is not None:
            yield from _map_dask(fn, items, size, scheduler, bar)
            return
        if n == 1 or len(items) <= 1:
            for item in items:
                result = fn(item)
                bar.update(size(item))
                yield result
            return
        yield from _map_pool(fn, items, size, n, bar, first)
    finally:
        bar.close()


#: The worker pool of this process, kept for every later block map with as many workers (see :func:`map_blocks`).
_POOL: dict[str, Any] = {"executor": None, "workers": 0}
#: Threads that may run while this process forks its workers: the allocator's and polars' temporary-file cleaner
#: (started when polars is imported; they hold no lock a worker needs). Polars' compute pool, Python threads,
#: anything else: the workers are started fresh instead ("spawn").
_FORK_SAFE_THREADS = ("jemalloc_bg_thd", "polars-ooc-clea")
#: How new pools start: ``None`` chooses (fork when safe, else spawn); tests set "spawn" or "fork".
_START_METHOD: str | None = None


def _fork_is_safe() -> bool:
    """Whether forking this process now is safe: on Linux, with no thread but those of :data:`_FORK_SAFE_THREADS`.

    A forked child has only the forking thread: a lock another thread held stays held, and a thread pool
    started before (polars', a Dask client's) is missing, so this process forks only while no such thread runs.
    """
    if not sys.platform.startswith("linux") or threading.active_count() > 1:
        return False
    try:
        main = Path("/proc/self/comm").read_text().strip()
        names = [Path(f"/proc/self/task/{t}/comm").read_text().strip() for t in os.listdir("/proc/self/task")]
    except OSError:
        return False
    return all(name in (main, *_FORK_SAFE_THREADS) for name in names)


def _pool_to_start(n: int) -> str | None:
    """How the pool for ``n`` workers would start now (``None``: this process holds it already); a pool of another
    size, or a broken one (a worker died), is ended first."""
    executor = _POOL["executor"]
    if executor is not None and _POOL["workers"] == n and not getattr(executor, "_broken", False):
        return None
    shutdown_pool()
    if _START_METHOD is not None:
        return _START_METHOD
    if _fork_is_safe():
        return "fork"
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _shared_pool(n: int, fn: Callable[..., Any] | None = None) -> ProcessPoolExecutor:
    """This process's pool of ``n`` workers, started on first use and kept for every later block map.

    Forked when that is safe (the workers start with every import, compiled kernel and table this process has:
    no worker pays to start); else forked from a fresh server process that imported ``fn``'s module once
    (``forkserver``), or, where there is none, spawned.
    """
    method = _pool_to_start(n)
    if method is None:
        return _POOL["executor"]
    context = multiprocessing.get_context(method)
    if method == "forkserver":  # the server starts once per process, with the modules the first pool needs
        module = getattr(getattr(fn, "func", fn), "__module__", None)
        context.set_forkserver_preload([__name__, *([module] if module and module != "__main__" else [])])
    executor = ProcessPoolExecutor(
        max_workers=n,
        mp_context=context,
        initializer=_exit_with_parent,
        # a forkserver's worker is the server's child; the server ends when this process does
        initargs=(None if method == "forkserver" else os.getpid(),),
    )
    if method == "fork":  # start every worker now, while the process is as checked (a fork pool starts them all)
        _return_free_memory()  # what the workers inherit is what this process holds, not what it held at its peak
        executor.submit(int, 0).result()
    _POOL.update(executor=executor, workers=n)
    return executor


def _return_free_memory() -> None:
    """Give the C allocator's free pages back to the system (glibc's ``malloc_trim``; elsewhere nothing).

    Building the kernels and tables frees more than it keeps (numba's compiler, the coup tables' intermediates),
    and glibc keeps those pages in the process: a forked worker would start with all of them resident, counted
    in its own memory as well as in this process's.  Trimming first costs milliseconds.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        ctypes.CDLL(None).malloc_trim(0)


def start_pool(workers: int | None, warm: Callable[[], object] | None = None) -> bool:
    """Fork this process's pool of ``workers`` now, if forking is safe now, for every later block map to use.

    A command whose own work starts polars' thread pool before its first block map (pricing a bet from
    an expression, say) can no longer fork its workers then: they would start fresh, each paying
    to import and load what this process has.  Called first, while only the imports are done, it
    forks them with those; ``warm``, called here just before the fork, loads what the blocks will use
    (numba's compiler and the kernels of dealing and pricing, say), so that the workers inherit it
    instead of each loading its own: they then pay only what ``warm`` could not build.

    Parameters
    ----------
    workers
        Local processes (``None``: every core); one starts nothing.
    warm
        Called in this process before the workers are forked (only when they are: never with one worker, a
        running pool or where forking is not safe). It must leave forking safe (start no thread, nor polars'
        thread pool): where it does not, no pool is started now and the first block map starts one as it can.

    Returns
    -------
    bool
        Whether the pool of ``workers`` is running (started now or before).

    Examples
    --------
    >>> start_pool(1)
    False
    """
    n = default_workers() if workers is None else int(workers)
    if n < 2:
        return False
    method = _pool_to_start(n)
    if method == "fork" and warm is not None:
        warm()
        method = _pool_to_start(n)  # what warm started may have made forking unsafe
    if method == "fork":
        _shared_pool(n)
    return method is None or method == "fork"


def shutdown_pool() -> None:
    """End this process's worker pool, if it has one (it ends anyway when the process does).

    Examples
    --------
    >>> shutdown_pool()
    """
    executor = _POOL["executor"]
    _POOL.update(executor=None, workers=0)
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)


def _map_pool(
    fn: Callable[[Any], T], blocks: Sequence[Any], size: Callable[[Any], int], n: int, bar: Any, first: list[T]
) -> Iterator[T]:
    """``fn`` over ``blocks`` (or tasks) on the shared pool of ``n`` workers, in order; ``first`` holds the first one's
    result when it was computed here already."""
    pool = _shared_pool(n, fn)
    # keep at most 2 blocks per worker in flight so memory stays flat
    pending: dict[int, Any] = {}
    next_submit = len(first)
    try:
        for i in range(len(blocks)):
            while next_submit < len(blocks) and next_submit < i + 2 * n:
                pending[next_submit] = pool.submit(_in_worker, fn, blocks[next_submit])
                next_submit += 1
            result = first.pop() if i == 0 and first else pending.pop(i).result()
            bar.update(size(blocks[i]))
            yield result
    except GeneratorExit:  # the caller stopped early: the pool stays, without this map's blocks not yet begun
        for future in pending.values():
            future.cancel()
        raise
    except BaseException:  # interrupted, or a block failed: the pool goes with this map
        shutdown_pool()
        raise


def _in_worker(fn: Callable[[Any], T], item: Any) -> T:  # pragma: no cover - runs in the worker processes
    """``fn(item)`` in a worker, which then gives back the memory it freed: a worker holds what it needs between
    blocks, not the peak of every kind of block it ran."""
    try:
        return fn(item)
    finally:
        _return_free_memory()


def _exit_with_parent(parent: int | None) -> None:  # pragma: no cover - runs in the worker processes
    """Worker initializer: end this worker when the process that started it dies (even by SIGKILL).

    On Linux the kernel sends SIGKILL when the parent goes (``prctl(PR_SET_PDEATHSIG)``);
    everywhere a daemon thread also checks the parent every half second. Ctrl-C reaches the whole
    process group: a worker then ends at once and silently (the parent says the one line), instead
    of printing a traceback from wherever the interrupt found it.  Each worker's BLAS and OpenMP pools keep
    one thread: the workers share the cores already, and more threads each would only wait or spin for them.
    """
    import signal

    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)  # for the worker's life (not a context: nothing restores it)

    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    parent = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _map_dask(
    fn: Callable[[Any], T], blocks: Sequence[Any], size: Callable[[Any], int], scheduler: str | Any, bar: Any
) -> Iterator[T]:
    from distributed import Client

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        # keep a bounded window of blocks in flight (two per worker thread) so memory stays flat
        window = max(2, 2 * sum(client.nthreads().values()))
        pending: dict[int, Any] = {}
        upcoming = iter(enumerate(blocks))
        for i, block in enumerate(blocks):
            while len(pending) < window:
                nxt = next(upcoming, None)
                if nxt is None:
                    break
                pending[nxt[0]] = client.submit(fn, nxt[1], pure=False)
            future = pending.pop(i)
            result = future.result()
            future.release()
            bar.update(size(block))
            yield result
    finally:
        if client is not scheduler:
            client.close()
