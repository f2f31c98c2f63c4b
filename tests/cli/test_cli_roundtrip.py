"""``baccarat simulate`` writes what ``validate``, ``replay`` and :func:`toolkit.read_records` read.

Shoes and coups are numbered from 1 in the file and in every command's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from cli_helpers import run

from toolkit.records import read_records

DEALINGS = {
    "standard": [],
    "6 decks, no burn": ["--decks", "6", "--burn", "none"],
    "fixed burn": ["--burn", "fixed", "--burn-cards", "3", "--cut-card", "20"],
    "ace burns 11": ["--burn-ace", "11", "--last-hand", "finish"],
    "fixed coups": ["--coups", "12"],
}


def _simulate(capsys, tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "shoes.parquet"
    code, text, err = run(
        capsys, "simulate", "--out", str(out), "--shoes", "6", "--seed", "4", "--workers", "1", "--no-progress", *args
    )
    assert code == 0, err
    assert "wrote" in text
    return out


@pytest.mark.parametrize("args", list(DEALINGS.values()), ids=list(DEALINGS))
def test_simulate_validate_replay_read_records(capsys, tmp_path: Path, args: list[str]) -> None:
    path = _simulate(capsys, tmp_path, *args)
    written = pl.read_parquet(path)
    assert written["shoe"].unique().sort().to_list() == [1, 2, 3, 4, 5, 6]  # shoes from 1, as coups are
    assert written.filter(pl.col("shoe") == 1)["coup"][0] == 1

    code, out, err = run(capsys, "validate", str(path))
    assert (code, err) == (0, ""), out
    assert "6 of 6 shoe(s) valid" in " ".join(out.split())  # a long path wraps the line

    records = read_records(path)
    assert records.report.ok
    assert records.layout == "coups"
    assert records.shoe_ids == [1, 2, 3, 4, 5, 6]
    coups = records.coups
    assert coups.height == written.height
    assert coups["player"].to_list() == written["player_hand"].to_list()
    assert coups["banker"].to_list() == written["banker_hand"].to_list()
    assert coups["winner"].to_list() == written["winner"].to_list()

    code, out, err = run(capsys, "replay", str(path), "--shoe", "2", "--format", "json")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    shoe = written.filter(pl.col("shoe") == 2)
    assert [r["coup"] for r in rows] == shoe["coup"].to_list()
    assert [r["shoe"] for r in rows] == [2] * shoe.height
    # the replay sees what the dealer's record says was unseen: burned cards face down stay unseen
    assert [r["cards_unseen"] for r in rows] == shoe["cards_unseen"].to_list()
    for rank in ("A", "5", "T", "K"):
        assert [r[f"unseen_{rank}"] for r in rows] == shoe[f"unseen_{rank}"].to_list()


def test_the_dealing_travels_in_the_file(capsys, tmp_path: Path) -> None:
    path = _simulate(capsys, tmp_path, "--decks", "6", "--burn", "none", "--cut-card", "20")
    header = read_records(path).header
    assert (header.dealing.decks, str(header.dealing.burn), header.dealing.cut_card) == (6, "none", 20)
    code, out, _ = run(capsys, "replay", str(path), "--shoe", "1", "--columns", "coup,cards_unseen", "-f", "csv")
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == ["coup,cards_unseen", "1,312"]  # six decks, nothing burned: all 312 unseen
