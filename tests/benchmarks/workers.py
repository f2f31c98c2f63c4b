"""CPU and memory of the commands with one worker and with two, measured over the whole process tree.

For each command the script runs ``baccarat ... --workers 1`` and ``--workers 2`` one after the other and
prints the CPU time (user + system of every process of the tree: the command, its workers, a fork server),
the wall time, and the peak memory summed over the processes of the tree (resident and proportional: a forked
worker shares its parent's pages, which resident memory counts twice and proportional memory once), then the
ratio of the two runs' CPU (with ``--repeats N``, N pairs one after the other, each pair's ratio and their
median: on a shared machine one pair's ratio moves by 0.1 or more).  With ``--baseline DIR`` it also runs the
README's main job on the checkout in ``DIR`` (another version of the package) and on this one, and prints the
ratio of their times.  With ``--memory`` it runs only the two-worker main job (``--shoes``, 100,000 by default) and
prints, besides the sums, each process's own peak: what the parent holds, what each worker adds.  No assertion: it
prints what it measured, on whatever machine it runs.

    python tests/benchmarks/workers.py                       # every command at a small size
    python tests/benchmarks/workers.py --memory              # the two-worker main job at 100,000 shoes, per process
    python tests/benchmarks/workers.py --memory --baseline /path/to/other/checkout   # both, and their ratios
    python tests/benchmarks/workers.py --only count --repeats 3   # three pairs, each ratio and their median
    python tests/benchmarks/workers.py --only thorp --baseline /path/to/other/checkout
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: The commands, at sizes of minutes at most on two cores (the README's sizes, or less where they take hours).
COMMANDS = {
    "shuffle-track": ["shuffle-track", "-k", "0", "-k", "1", "-k", "2", "--shoes", "100", "--seed", "1"],
    "cut-card": ["cut-card", "--shoes", "20000", "--seed", "2026", "--coups", "80"],
    "assess": ["assess", "--bet", "three_giving_eight", "--shoes", "3000", "--seed", "1", "--out", "{tmp}/assess"],
    "count": ["count", "--system", "dragon7", "--shoes", "20000", "--seed", "1"],
    "thorp": ["thorp", "--shoes", "30000", "--seed", "1", "--out", "{tmp}/thorp"],
}


def _tree(root: int) -> list[int]:
    """``root`` and its descendants now."""
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                text = Path(f"/proc/{pid}/task/{task}/children").read_text()
                todo.extend(int(c) for c in text.split())
        except OSError:
            continue
    return out


def _name(pid: int) -> str:
    """What ``pid`` runs, shortened (empty when it is gone)."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return ""
    return " ".join(w for w in words if w)[:60]


def _memory(pid: int) -> tuple[int, int]:
    """Resident and proportional set sizes of ``pid`` in kB (0 when it is gone)."""
    rss = pss = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1])
            elif line.startswith("Pss:"):
                pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def measure(args: list[str], pythonpath: str, stdout: Path | None = None) -> dict[str, Any]:
    """Run ``baccarat args`` with ``pythonpath``; its CPU seconds, wall seconds and summed peak memory (MB).

    The command's output goes to the file ``stdout`` (nowhere when ``None``)."""
    env = {**os.environ, "PYTHONPATH": pythonpath}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    sink = open(stdout, "wb") if stdout is not None else subprocess.DEVNULL  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolkit.cli", *args, "--no-progress"],
        cwd=pythonpath,  # ``-m`` puts the working folder first on the path, before PYTHONPATH
        env=env,
        stdout=sink,
        stderr=subprocess.PIPE,
    )
    peak_rss: dict[int, int] = {}
    peak_pss: dict[int, int] = {}
    names: dict[int, str] = {}
    sum_rss = sum_pss = 0  # the largest sums at one instant (the per-process peaks need not coincide)
    status = None
    while status is None:
        now_rss = now_pss = 0
        for pid in _tree(proc.pid):
            rss, pss = _memory(pid)
            now_rss, now_pss = now_rss + rss, now_pss + pss
            peak_rss[pid] = max(peak_rss.get(pid, 0), rss)
            peak_pss[pid] = max(peak_pss.get(pid, 0), pss)
            names[pid] = names.get(pid) or _name(pid)
        sum_rss, sum_pss = max(sum_rss, now_rss), max(sum_pss, now_pss)
        time.sleep(0.1)
        done, status_word = os.waitpid(proc.pid, os.WNOHANG)
        if done:
            status = status_word
    wall = time.perf_counter() - start
    if stdout is not None:
        sink.close()  # type: ignore[union-attr]
    while True:  # the command's orphans (a fork server and its workers) came to this process: reap them all
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"baccarat {' '.join(args)} failed: {proc.stderr.read().decode()[-2000:]}")
    # every process of the tree was waited for by its parent or, an orphan, by this one (a subreaper)
    return {
        "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "wall": wall,
        "rss_mb": sum(peak_rss.values()) / 1024,
        "pss_mb": sum(peak_pss.values()) / 1024,
        "rss_at_once_mb": sum_rss / 1024,
        "pss_at_once_mb": sum_pss / 1024,
        "processes": [(pid, names.get(pid, ""), peak_rss[pid] / 1024, peak_pss[pid] / 1024) for pid in peak_rss],
    }


def _show_processes(m: dict[str, Any]) -> None:
    print(f"  summed at one instant: rss {m['rss_at_once_mb']:6.0f} MB  pss {m['pss_at_once_mb']:6.0f} MB")
    for pid, name, rss, pss in m["processes"]:
        if rss:
            print(f"    pid {pid:>7}  peak rss {rss:6.0f} MB  pss {pss:6.0f} MB  {name}")


def _show(label: str, m: dict[str, Any]) -> None:
    print(
        f"  {label:<28} cpu {m['cpu']:7.1f} s  wall {m['wall']:7.1f} s  "
        f"peak rss {m['rss_mb']:6.0f} MB  pss {m['pss_mb']:6.0f} MB (summed over processes)"
    )


def main() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come here
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(COMMANDS), help="Commands to measure.")
    parser.add_argument("--baseline", help="Another checkout: its main job is timed beside this one's.")
    parser.add_argument("--shoes", type=int, help="Shoes for every command (default: each one's size above).")
    parser.add_argument("--repeats", type=int, default=1, help="Pairs of runs (one worker, two) per command.")
    parser.add_argument("--memory", action="store_true", help="Only the two-worker main job, each process's peak.")
    options = parser.parse_args()
    here = str(Path(__file__).resolve().parents[2])
    with tempfile.TemporaryDirectory() as tmp:
        if options.memory:
            args = [a.replace("{tmp}", tmp) for a in COMMANDS["thorp"]]
            args[args.index("--shoes") + 1] = str(options.shoes or 100_000)
            args += ["--no-resume", "--workers", "2"]
            checkouts = {"baseline": options.baseline, "this checkout": here} if options.baseline else {"": here}
            for path in checkouts.values():  # numba's caches filled first: a cold cache compiles, and holds more
                measure(["thorp", "--shoes", "200", "--seed", "1", "--out", f"{tmp}/warm", "--workers", "2"], path)
            print(f"baccarat {' '.join(args)}")
            runs = {}
            for label, path in checkouts.items():
                runs[label] = measure(args, path)
                _show(label or "--workers 2", runs[label])
                _show_processes(runs[label])
            if options.baseline:
                base, mine = runs["baseline"], runs["this checkout"]
                ratio = mine["rss_at_once_mb"] / base["rss_at_once_mb"]
                print(f"  this checkout / baseline: peak rss summed {ratio:.2f}, cpu {mine['cpu'] / base['cpu']:.3f}")
            return
        for name in options.only or sorted(COMMANDS):
            args = [a.replace("{tmp}", tmp) for a in COMMANDS[name]]
            if options.shoes:
                args[args.index("--shoes") + 1] = str(options.shoes)
            print(f"baccarat {' '.join(args)}")
            ratios = []
            for _ in range(options.repeats):
                runs = {}
                for workers in (1, 2):
                    extra = ["--no-resume"] if name == "thorp" else []
                    runs[workers] = measure([*args, *extra, "--workers", str(workers)], here)
                    _show(f"--workers {workers}", runs[workers])
                ratios.append(runs[2]["cpu"] / runs[1]["cpu"])
                print(f"  cpu ratio, two workers / one: {ratios[-1]:.3f}")
            if len(ratios) > 1:
                print(f"  median of {len(ratios)} ratios: {statistics.median(ratios):.3f}")
        if options.baseline:
            args = [a.replace("{tmp}", tmp) for a in COMMANDS["thorp"]] + ["--no-resume"]
            print(f"the main job, baccarat {' '.join(args)} (default workers), baseline then this checkout:")
            base = measure(args, options.baseline)
            _show("baseline", base)
            mine = measure(args, here)
            _show("this checkout", mine)
            print(f"  speed-up: cpu {base['cpu'] / mine['cpu']:.2f}x, wall {base['wall'] / mine['wall']:.2f}x")


if __name__ == "__main__":
    main()
