"""Block plans: lazy, flat in memory, and the very streams of ``SeedSequence.spawn``."""

from __future__ import annotations

import ctypes
import io
import os
import platform
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from toolkit import parallel
from toolkit.parallel import MAX_SHOES, BlockPlan, block_plan, block_seed, map_blocks


@pytest.mark.parametrize("seed", [0, 7, 2**63 - 1, [3, 4]])
def test_block_seeds_are_the_spawned_children(seed):
    children = np.random.SeedSequence(seed).spawn(2500)
    plan = block_plan(2_499_001, 1000, seed)
    assert len(plan) == 2500
    assert [b.seed.state for b in plan] == [c.state for c in children]
    assert plan[-1].n_shoes == 1
    assert plan[-1].first_shoe == 2_499_000


def test_block_seed_of_a_child_sequence():
    child = np.random.SeedSequence(9).spawn(2)[1]
    again = np.random.SeedSequence(9).spawn(2)[1]
    assert [block_seed(child, i).state for i in range(40)] == [c.state for c in again.spawn(40)]


def test_a_callers_seed_sequence_advances_as_spawn_would():
    mine, theirs = np.random.SeedSequence(4), np.random.SeedSequence(4)
    mine.spawn(5)
    theirs.spawn(5)
    plan = block_plan(3000, 1000, mine)
    assert mine.n_children_spawned == 8
    assert [b.seed.state for b in plan] == [c.state for c in theirs.spawn(3)]


def test_slices_keep_the_global_block_numbers():
    plan = block_plan(10_500, 1000, 3)
    tail = plan[4:]
    assert isinstance(tail, BlockPlan)
    assert len(tail) == 7
    assert tail.n_shoes == 6500
    assert [b.index for b in tail] == list(range(4, 11))
    assert [b.seed.state for b in tail] == [b.seed.state for b in list(plan)[4:]]
    assert [b.index for b in plan[2:5]] == [2, 3, 4]
    assert len(plan[9:2]) == 0
    with pytest.raises(IndexError):
        plan[11]


def test_the_largest_plan_is_flat_in_memory():
    tracemalloc.start()
    try:
        plan = block_plan(MAX_SHOES, 1000, 1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(plan) == MAX_SHOES // 1000
    assert peak < 1_000_000
    assert plan[len(plan) - 1].seed.state == block_seed(np.random.SeedSequence(1), len(plan) - 1).state


@pytest.mark.parametrize("n", [MAX_SHOES + 1, 10**12])
def test_more_shoes_than_the_limit_are_refused_at_once(n):
    with pytest.raises(ValueError, match="at most 1,000,000,000"):
        block_plan(n, 1000, 1)


@pytest.mark.parametrize("bad", [2.5, "10", True, None])
def test_a_number_of_shoes_of_the_wrong_type_is_a_type_error(bad):
    with pytest.raises(TypeError, match="number of shoes"):
        block_plan(bad, 1000, 1)


# ------------------------------------------------------------------ the progress bar
class _Stream(io.StringIO):
    """A stderr that says whether it is a terminal."""

    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "log file"])
def test_the_progress_bar_is_drawn_only_on_a_terminal(monkeypatch, terminal: bool) -> None:
    from toolkit.parallel import map_blocks

    stream = _Stream(terminal)
    monkeypatch.setattr(sys, "stderr", stream)
    plan = block_plan(30, block_size=10, seed=1)
    assert list(map_blocks(_shoes_of, plan, workers=1, progress=True)) == [10, 10, 10]
    if terminal:
        assert "\r" in stream.getvalue()
        assert "30/30" in stream.getvalue()
    else:
        assert stream.getvalue() == ""  # no carriage-return updates in a log


def test_no_progress_draws_nothing_even_on_a_terminal(monkeypatch) -> None:
    from toolkit.parallel import map_blocks

    stream = _Stream(True)
    monkeypatch.setattr(sys, "stderr", stream)
    assert list(map_blocks(_shoes_of, block_plan(5, block_size=5, seed=1), workers=1, progress=False)) == [5]
    assert stream.getvalue() == ""


def _shoes_of(block) -> int:
    return block.n_shoes


# ------------------------------------------------------------------ the worker pool
def _draws(block):
    """A block's draws and the process that made them."""
    return block.rng().integers(0, 1000, 5).tolist(), os.getpid()


@pytest.fixture
def fresh_pool():
    parallel.shutdown_pool()
    yield
    parallel.shutdown_pool()


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_one_pool_serves_every_map_with_the_same_results_however_it_starts(monkeypatch, fresh_pool, method):
    monkeypatch.setattr(parallel, "_START_METHOD", method)
    plan = block_plan(12, 2, seed=5)
    one = [d for d, _ in map_blocks(_draws, plan, workers=1, progress=False)]
    first = list(map_blocks(_draws, plan, workers=2, progress=False))
    pool = parallel._POOL["executor"]
    again = list(map_blocks(_draws, plan[1:], workers=2, progress=False))
    assert [d for d, _ in first] == one
    assert [d for d, _ in again] == one[1:]
    assert parallel._POOL["executor"] is pool  # the second map started no process
    workers = set(pool._processes)  # the pool's two processes, started once
    assert len(workers) == 2
    assert {pid for _, pid in first + again} - {os.getpid()} <= workers  # they did both maps (any share of them)
    assert [d for d, _ in map_blocks(_draws, plan, workers=3, progress=False)] == one
    assert parallel._POOL["workers"] == 3  # another size replaces the pool
    assert parallel._POOL["executor"] is not pool


def test_a_forked_pool_starts_warm_from_the_first_block_run_here(monkeypatch, fresh_pool):
    monkeypatch.setattr(parallel, "_START_METHOD", "fork")
    pids = [pid for _, pid in map_blocks(_draws, block_plan(8, 2, seed=1), workers=2, progress=False)]
    assert pids[0] == os.getpid()  # block 0 built what the workers inherit
    assert os.getpid() not in pids[1:]


def test_no_fork_while_another_thread_or_polars_pool_runs():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not parallel._fork_is_safe()
    finally:
        stop.set()
        thread.join()
    pl.DataFrame({"a": [1, 2, 2]}).group_by("a").len()  # starts polars' compute threads
    assert not parallel._fork_is_safe()
    assert parallel._pool_to_start(2) != "fork"


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_pool_started_first_serves_the_maps_after_only_when_it_can_fork(monkeypatch, fresh_pool, method):
    monkeypatch.setattr(parallel, "_START_METHOD", method)
    assert not parallel.start_pool(1)
    assert parallel._POOL["executor"] is None
    started = parallel.start_pool(2)
    assert started == (method == "fork")
    pool = parallel._POOL["executor"]
    assert (pool is not None) == started  # a fresh start (spawn) is left to the first map, which needs the pool
    plan = block_plan(8, 2, seed=1)
    one = [d for d, _ in map_blocks(_draws, plan, workers=1, progress=False)]
    two = list(map_blocks(_draws, plan, workers=2, progress=False))
    assert [d for d, _ in two] == one
    if started:
        assert parallel._POOL["executor"] is pool
        assert os.getpid() not in {pid for _, pid in two}  # the pool was there: block 0 went to it too
        assert parallel.start_pool(2)  # the running pool


def _square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def test_tasks_come_back_in_order_from_the_pool(monkeypatch, fresh_pool):
    monkeypatch.setattr(parallel, "_START_METHOD", "fork")
    tasks = [5, -3, 0, 7, 2, 11, -1]
    out = list(parallel.map_tasks(_square_and_pid, tasks, workers=2, progress=False))
    assert [v for v, _ in out] == [t * t for t in tasks]
    assert out[0][1] == os.getpid()  # the first task ran here, then the workers were forked warm
    assert os.getpid() not in {pid for _, pid in out[1:]}
    assert list(parallel.map_tasks(abs, [], workers=2, progress=False)) == []


def _most_threads_of_a_pool(_: object) -> int:
    from threadpoolctl import threadpool_info

    return max((pool["num_threads"] for pool in threadpool_info()), default=1)


def test_each_worker_keeps_one_thread_in_its_blas_and_openmp_pools(monkeypatch, fresh_pool):
    monkeypatch.setattr(parallel, "_START_METHOD", "spawn")  # every task in a worker (a fork would run one here)
    assert list(parallel.map_tasks(_most_threads_of_a_pool, [0, 1, 2], workers=2, progress=False)) == [1, 1, 1]


#: What the warm-up of the tests below built, in the process that ran it (a forked worker inherits it).
_WARMED: dict[str, int] = {}


def _warm_here() -> None:
    _WARMED["by"] = os.getpid()


def _warmed_by(_: object) -> tuple[int | None, int]:
    return _WARMED.get("by"), os.getpid()


def test_a_pool_started_with_a_warm_up_inherits_what_it_built(monkeypatch, fresh_pool):
    monkeypatch.setattr(parallel, "_START_METHOD", "fork")
    monkeypatch.setattr(sys.modules[__name__], "_WARMED", {})
    calls: list[int] = []
    assert not parallel.start_pool(1, warm=lambda: calls.append(1))  # one worker: nothing forked, nothing warmed
    assert parallel.start_pool(2, warm=_warm_here)
    assert parallel.start_pool(2, warm=lambda: calls.append(1))  # the running pool: warmed already
    assert calls == []
    out = list(parallel.map_tasks(_warmed_by, range(6), workers=2, progress=False))
    assert {by for by, _ in out} == {os.getpid()}  # built here, before the fork, in every worker
    assert os.getpid() not in {pid for _, pid in out}


def test_a_warm_up_that_makes_forking_unsafe_starts_no_pool(monkeypatch, fresh_pool):
    safe = {"now": True}
    monkeypatch.setattr(parallel, "_START_METHOD", None)
    monkeypatch.setattr(parallel, "_fork_is_safe", lambda: safe["now"])
    assert not parallel.start_pool(2, warm=lambda: safe.update(now=False))  # as if it started polars' threads
    assert parallel._POOL["executor"] is None  # left to the first map, which starts it as it can


def test_the_commands_warm_up_leaves_forking_safe():
    """What count and assess load before forking their workers starts no thread that forbids the fork (polars')."""
    code = (
        "import toolkit.cli.app\n"
        "from toolkit.cli._common import warm_dealt_shoes\n"
        "from toolkit.dealing.dealer import Dealing\n"
        "from toolkit.parallel import _fork_is_safe\n"
        "assert _fork_is_safe()\n"
        "warm_dealt_shoes(Dealing(decks=6))\n"
        "print(_fork_is_safe())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_count_with_warm_workers_gives_what_one_process_gives(tmp_path):
    """``count`` forks its workers after the warm-up (a fresh process, so the fork is the real one): the same
    result, figure for figure, as in one process."""
    args = [sys.executable, "-m", "toolkit.cli", "count", "--system", "dragon7", "--shoes", "3000", "--seed", "4"]
    args += ["--no-progress", "--format", "json", "--workers"]
    one, two = (subprocess.run([*args, w], capture_output=True, text=True, check=True).stdout for w in ("1", "2"))
    assert "dragon7" in one
    assert two == one


# ------------------------------------------------------------------ memory the workers hold
def _resident_mb() -> float:
    """This process's resident memory (MB), from /proc."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _hold_freed_heap(_task) -> float:
    """Allocate 100 MB in 1 KB chunks with the C allocator, free all but the last (which pins the heap's top, so
    glibc cannot give the pages back by itself); this worker's resident memory before, in MB."""
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    before = _resident_mb()
    chunks = [libc.malloc(1024) for _ in range(100_000)]
    for chunk in chunks:
        ctypes.memset(chunk, 1, 1024)  # resident, not only reserved
    for chunk in chunks[:-1]:
        libc.free(chunk)
    return before


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's malloc_trim"
)
def test_a_worker_gives_back_what_a_block_freed():
    """A block run through the pool's wrapper leaves its freed memory to the system, not to the worker's heap."""
    before = _hold_freed_heap(0)  # the premise: without the trim the 100 MB freed stay resident
    kept = _resident_mb()
    parallel._return_free_memory()
    assert kept > before + 80, (before, kept)
    before = parallel._in_worker(_hold_freed_heap, 0)  # as a worker runs every block
    assert _resident_mb() < before + 20, (before, _resident_mb())


def test_the_parent_gives_back_its_free_memory_just_before_forking(monkeypatch, fresh_pool):
    calls = []
    monkeypatch.setattr(parallel, "_START_METHOD", "fork")
    monkeypatch.setattr(parallel, "_return_free_memory", lambda: calls.append(1))
    assert parallel.start_pool(2)
    assert len(calls) == 1
    assert [d for d, _ in map_blocks(_draws, block_plan(6, 2, seed=5), workers=2, progress=False)] == [
        d for d, _ in map_blocks(_draws, block_plan(6, 2, seed=5), workers=1, progress=False)
    ]
