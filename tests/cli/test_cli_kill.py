"""Killed runs: SIGINT and SIGKILL of ``thorp --workers 2``, then resume: same result, no orphan process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from toolkit.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc as on Linux")


def _command(out: Path) -> list[str]:
    return [
        sys.executable, "-m", "toolkit.cli", "thorp", "--shoes", "14000", "--seed", "11", "--workers", "2",
        "--out", str(out), "--no-figures", "--count-shoes", "0", "--deal-to-end-shoes", "1000", "--no-progress",
        "--format", "json", "--decks", "2", "--exact-cards-left", "none",
    ]  # fmt: skip
    # 14 blocks of 1,000 shoes: the first checkpoint (10) comes with 4 blocks and the deal-to-end run still to do.
    # Two-deck shoes (about 18 coups, not 80) and no exact table: the same blocks and checkpoints at a sixth of the
    # work; what is proved (killed mid-run, no orphans, resumed to the uninterrupted result) does not depend on it.


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _summary(folder: Path) -> dict:
    data = json.loads((folder / "summary.json").read_text())
    data.pop("timing_seconds")
    return data


def _workers_started(proc: subprocess.Popen) -> list[psutil.Process]:
    """The processes ``proc`` started once two workers run: forked workers carry their parent's command line,
    spawned ones and a fork server a multiprocessing one; all must go with it.

    Polled for as long as the run lasts, however loaded the machine: no verdict depends on a time."""
    parent = psutil.Process(proc.pid)
    while proc.poll() is None:
        workers = [c for c in parent.children(recursive=True) if c.is_running()]
        if len(workers) >= 2:
            return workers
        time.sleep(0.05)
    pytest.fail(f"no workers came up (exit {proc.poll()})")


def _alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    """Those of ``processes`` still running (a zombie waiting for its reaper counts as gone)."""
    alive = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p)
        except psutil.NoSuchProcess:
            pass
    return alive


def _wait_gone(processes: list[psutil.Process]) -> None:
    """Return once every one of ``processes`` has gone; a survivor keeps the test waiting, so it never passes.

    The kernel kills a worker whose parent dies (``PR_SET_PDEATHSIG``) and SIGINT reaches the whole group:
    they go at once, and no deadline decides the verdict."""
    while _alive(processes):
        time.sleep(0.05)


def _run_here(out: Path) -> None:
    """``_command(out)`` in this process on one worker: the same blocks and seeds give the same summary on any
    number of workers (a fresh process and a pool of two cost three times the run's own work here)."""
    args = _command(out)[3:]  # after ``python -m toolkit.cli``
    args[args.index("--workers") + 1] = "1"
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code in (0, None)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    """The uninterrupted run (in this process, on one worker)."""
    out = tmp_path_factory.mktemp("reference")
    _run_here(out)
    return _summary(out)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_killed_thorp_leaves_no_orphans_and_resumes_to_the_same_result(tmp_path, reference, sig):
    out = tmp_path / "run"
    proc = subprocess.Popen(
        _command(out), env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        workers = _workers_started(proc)
        # wait for the first checkpoint (10 of the 14 blocks): the signal then lands mid-run, whatever the load
        while not (out / "checkpoint.npz").is_file() and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        if sig == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the whole foreground group
        else:
            proc.send_signal(signal.SIGKILL)  # the parent only: its workers must notice
        _, err = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
    _wait_gone(workers)  # worker processes do not survive their parent
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert "Traceback" not in err
        if (out / "checkpoint.npz").is_file():  # blocks had finished: saved, and the line says where
            assert str(out / "checkpoint.npz") in lines[0]
            assert "resume with baccarat thorp" in lines[0]
        else:  # interrupted during the first blocks (a busy machine)
            assert "nothing saved): start again with baccarat thorp" in lines[0]
    else:
        assert proc.returncode == -signal.SIGKILL
    # the resume reads back only what the killed process left on disk: run here, on one worker, as the reference
    _run_here(out)
    assert _summary(out) == reference
