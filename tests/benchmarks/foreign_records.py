"""Reading the files other programs write: 100,000 hands of each layout, and many short shoes against few long ones.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/foreign_records.py               # 100,000 hands of each layout
    python tests/benchmarks/foreign_records.py --hands 20000

It writes, in a temporary folder, the files of the re-implemented writers of
``tests/records/foreign_writers.py`` (per-position value columns in CSV and in SQLite with
their tableau faults, a text report of shoe blocks, JSON hand lists with inferred shoes),
then the same coups as 100,000 single-coup shoes and as the shoes they were dealt in (the first 100,000
coups of 1,282 simulated shoes: 1,208 shoes), and times
:func:`toolkit.records.read_records` on each (best of ``--repeats``, after one read that
compiles the kernels), wall-clock and CPU time (``time.process_time``: less sensitive to waiting
for a core on a shared machine).  The repeats are rounds over every file, so that a busy spell
touches all of them alike.  Targets: every layout read in at most 5 s per 100,000 hands on one
core, and single-coup shoes as fast per coup as long ones (ratio near 1).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS", "POLARS_MAX_THREADS"):
    os.environ.setdefault(_var, "1")  # one core

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "records"))

import polars as pl  # noqa: E402 - after the thread pools are pinned
from foreign_writers import (  # noqa: E402
    halverson_rows,
    write_halverson_csv,
    write_halverson_db,
    write_lanlicyuen_csv,
    write_silvestre_report,
)

from toolkit.records import ShoeHeader, read_records, simulate_records  # noqa: E402


def timed(fn):
    """``(wall seconds, CPU seconds, result)`` of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def short_and_long(folder: Path, coups: int) -> tuple[Path, Path]:
    """The same coups as single-coup shoes and as the simulated shoes they came from (about 80 coups each)."""
    records = simulate_records(max(1, coups // 78), ShoeHeader().updated(burn="none"), seed=3)
    frame = records.coups.head(coups).select(
        "shoe", "coup", pl.col("player").list.join(" "), pl.col("banker").list.join(" "), "winner"
    )
    short = frame.with_columns(pl.int_range(1, pl.len() + 1).alias("shoe"), pl.lit(1).alias("coup"))
    frame.write_csv(folder / "long.csv")
    short.write_csv(folder / "short.csv")
    return folder / "short.csv", folder / "long.csv"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = halverson_rows(max(1, args.hands // 80), seed=1)
        files = {
            "per-position values, CSV (stevenhalverson)": write_halverson_csv(folder / "h.csv", rows),
            "per-position values, SQLite (stevenhalverson)": write_halverson_db(folder / "h.db", rows),
            "text report of shoe blocks (rjsilvestre)": write_silvestre_report(
                folder / "s.txt", max(1, args.hands // 84), seed=2
            ),
            "JSON hand lists, inferred shoes (lanlicyuen)": write_lanlicyuen_csv(folder / "l.csv", args.hands, seed=3),
        }
        short, long = short_and_long(folder, args.hands)
        files["single-coup shoes"] = short
        files["shoes of about 80 coups"] = long
        read_records(short)  # compile the kernels once
        wall = dict.fromkeys(files, float("inf"))
        cpu = dict.fromkeys(files, float("inf"))
        found = {}
        for _ in range(args.repeats):  # rounds over every file
            for name, path in files.items():
                seconds, cpu_seconds, found[name] = timed(lambda p=path: read_records(p, header="burn=none"))
                wall[name], cpu[name] = min(wall[name], seconds), min(cpu[name], cpu_seconds)
        print(f"{'file':<48}{'coups':>9}{'problems':>10}{'seconds':>9}{'CPU s':>7}{'s/100k coups':>14}")
        per_coup, cpu_per_coup = {}, {}
        for name, records in found.items():
            coups = records.coups.height or records.report.rejected.height  # a file whose shoes are all set aside
            per_coup[name] = wall[name] / max(coups, 1) * 100_000
            cpu_per_coup[name] = cpu[name] / max(coups, 1) * 100_000
            problems = len(records.report.problems)
            print(f"{name:<48}{coups:>9,}{problems:>10,}{wall[name]:>9.2f}{cpu[name]:>7.2f}{per_coup[name]:>14.2f}")
        short_name, long_name = "single-coup shoes", "shoes of about 80 coups"
        ratio = per_coup[short_name] / per_coup[long_name]
        cpu_ratio = cpu_per_coup[short_name] / cpu_per_coup[long_name]
        print(
            f"single-coup shoes cost {ratio:.2f}x the time per coup of shoes of about 80 coups "
            f"({cpu_ratio:.2f}x in CPU time)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
