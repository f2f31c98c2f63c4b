"""The coups file `baccarat simulate` writes reads as a per-coup record.

Its hands are player_hand and banker_hand (player_cards and banker_cards in files written before).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from toolkit.records import read_records


def _write(tmp_path: Path, frame: pl.DataFrame) -> Path:
    path = tmp_path / "shoes.parquet"
    frame.write_parquet(path)
    return path


def test_simulated_hands_and_burn_card_are_read(tmp_path: Path) -> None:
    frame = pl.DataFrame(
        {
            "shoe": [1, 1, 2],
            "coup": [1, 2, 1],
            "player_cards": [["9", "K"], ["K", "2", "3"], ["2", "3", "4"]],
            "banker_cards": [["6", "K"], ["K", "6"], ["A", "A", "5"]],
            "winner": ["player", "banker", "player"],
            "player_total": [9, 5, 9],  # derived columns are not read
            "burn_card": ["K", "K", None],
        }
    )
    records = read_records(_write(tmp_path, frame), header={"burn": "standard"})
    assert records.report.ok, records.report.problems
    assert records.layout == "coups"
    assert records.coups["winner"].to_list() == ["player", "banker", "player"]
    assert records.shoes["burn_card"].to_list() == ["K", None]  # shoe 1's exposed burn card, from its coups


def test_a_winner_that_disagrees_with_the_cards_is_a_problem(tmp_path: Path) -> None:
    frame = pl.DataFrame(
        {"shoe": [1], "coup": [1], "player_cards": [["9", "K"]], "banker_cards": [["6", "K"]], "winner": ["tie"]}
    )
    records = read_records(_write(tmp_path, frame), header={"burn": "none"})
    assert not records.report.ok
    assert records.report.problems[0].code == "winner_mismatch"


def test_a_file_with_both_namings_is_left_as_it_is(tmp_path: Path) -> None:
    frame = pl.DataFrame(
        {"shoe": [1], "coup": [1], "player": ["9 K"], "banker": ["6 K"], "player_cards": ["x"], "banker_cards": ["y"]}
    )
    records = read_records(_write(tmp_path, frame), header={"burn": "none"})
    assert records.report.ok
    assert records.coups["player"].to_list() == [["9", "K"]]
