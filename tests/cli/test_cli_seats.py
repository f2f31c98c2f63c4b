"""``simulate --players`` counts seats as ``detect`` shows them (it once said "5 player(s)" of six seats)."""

from __future__ import annotations

import re
from pathlib import Path

from cli_helpers import run

from toolkit.records import read_records

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "data" / "players" / "table.toml"


def test_simulate_counts_the_seats_it_writes(capsys, tmp_path: Path) -> None:
    out = tmp_path / "table.csv"
    code, stdout, err = run(
        capsys, "simulate", "--players", str(TABLE), "--shoes", "2", "--seed", "1", "--out", str(out), "--no-progress"
    )
    assert code == 0, err
    said = re.search(r"from (\d+) seat\(s\)", stdout)
    assert said is not None, stdout
    assert "player(s)" not in stdout
    seats = read_records(out).bets["who"].unique()
    assert int(said.group(1)) == seats.len()  # every seat bets in two shoes of this table
