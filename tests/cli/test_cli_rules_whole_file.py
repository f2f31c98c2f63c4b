"""The whole rules file, not only its tableau: ``count`` settles by its commission and Tie payout, ``simulate``
writes them into the record's header, ``convert`` reads a record under the file; each names the rules it used."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_helpers import run

RULES = Path(__file__).resolve().parents[2] / "data" / "rules"
HOUSE = RULES / "banker_draws_3_v_8.toml"  # commission 4 %, Tie 9 to 1, its own tableau
EVERY_HAND = "--tags=0,0,0,0,0,0,0,0,0,0"  # a count that bets every hand


def _count(capsys, rules: Path) -> dict:
    code, out, _ = run(
        capsys, "count", EVERY_HAND, "--bet", "banker", "--threshold", "0", "-n", "20", "--seed", "1",
        "--rules", str(rules), "-f", "json", "--no-progress",
    )  # fmt: skip
    assert code == 0
    return json.loads(out)


def test_count_settles_banker_by_the_files_commission(capsys, tmp_path: Path) -> None:
    five = tmp_path / "five.toml"  # the same tableau at the usual 5 %
    five.write_text(HOUSE.read_text().replace("commission = 0.04", "commission = 0.05"))
    assert five.read_text() != HOUSE.read_text()
    four, usual = _count(capsys, HOUSE), _count(capsys, five)
    assert (four["dealing"]["commission"], four["dealing"]["tie_pays"]) == (0.04, 9.0)
    assert usual["dealing"]["commission"] == 0.05
    assert four["dealing"]["rules"] == usual["dealing"]["rules"]
    assert four["hands_per_shoe"] == usual["hands_per_shoe"]  # the same shoes, the same hands bet
    # each Banker win pays 0.96 against 0.95: the edge differs by 0.01 of the share of Banker wins (about 0.46)
    assert four["mean_edge"] - usual["mean_edge"] == pytest.approx(0.0046, abs=0.0006)


def test_simulate_writes_the_files_house_rules_into_the_records_header(capsys, tmp_path: Path) -> None:
    out = tmp_path / "house.parquet"
    code, said, err = run(capsys, "simulate", "-n", "2", "--seed", "4", "--rules", str(HOUSE), "--out", str(out))
    assert code == 0
    assert "under banker draws on 3 against an 8 rules" in said + err
    header = json.loads(pq.read_schema(out).metadata[b"baccarat"])["header"]
    assert (float(header["commission"]), float(header["tie_pays"])) == (0.04, 9.0)


def test_convert_reads_a_record_under_the_file_and_names_its_rules(capsys, tmp_path: Path) -> None:
    dealt = tmp_path / "house.parquet"
    assert run(capsys, "simulate", "-n", "2", "--seed", "4", "--rules", str(HOUSE), "--out", str(dealt))[0] == 0
    csv = tmp_path / "house.csv"
    code, out, _ = run(capsys, "convert", str(dealt), "--out", str(csv), "--rules", str(HOUSE), "-f", "json")
    assert code == 0
    assert json.loads(out)["rules"] == "banker draws on 3 against an 8"
    plain = tmp_path / "plain.parquet"
    assert run(capsys, "simulate", "-n", "2", "--seed", "4", "--out", str(plain))[0] == 0
    code, out, _ = run(capsys, "convert", str(plain), "--out", str(tmp_path / "plain.csv"), "-f", "json")
    assert code == 0
    assert json.loads(out)["rules"] == "punto banco"  # without a file: punto banco, and said so
