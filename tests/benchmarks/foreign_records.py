"""Reading the files other programs write: 100,000 hands of each layout, and many short shoes against few long ones.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/foreign_records.py               # 100,000 hands of each layout
    python tests/benchmarks/foreign_records.py --hands 20000

It writes, in a temporary folder, the files of the re-implemented writers of
``tests/records/foreign_writers.py`` (per-position value columns in CSV and in SQLite with
their tableau faults, a text report of shoe blocks, JSON hand lists with inferred shoes),
then the same coups as 100,000 single-coup shoes and as the 1,282 shoes they were dealt in, and times
:func:`toolkit.records.read_records` on each (best of ``--repeats``, after one read that
compiles the kernels).  Targets: every layout read in at most 5 s per 100,000 hands on one
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


def best_of(repeats: int, fn):
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


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
        print(f"{'file':<48}{'coups':>9}{'problems':>10}{'seconds':>9}{'s/100k coups':>14}")
        per_coup = {}
        for name, path in files.items():
            seconds, records = best_of(args.repeats, lambda p=path: read_records(p, header="burn=none"))
            coups = records.coups.height or records.report.rejected.height  # a file whose shoes are all set aside
            per_coup[name] = seconds / max(coups, 1) * 100_000
            print(f"{name:<48}{coups:>9,}{len(records.report.problems):>10,}{seconds:>9.2f}{per_coup[name]:>14.2f}")
        ratio = per_coup["single-coup shoes"] / per_coup["shoes of about 80 coups"]
        print(f"single-coup shoes cost {ratio:.2f}x the time per coup of shoes of about 80 coups")
    return 0


if __name__ == "__main__":
    sys.exit(main())
