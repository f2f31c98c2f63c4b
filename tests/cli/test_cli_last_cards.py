"""``baccarat last-cards``: the JSON shape, the figures of the library, table and csv, one-line refusals (exit 2)."""

from __future__ import annotations

import io
import json

import polars as pl
import pytest
from cli_helpers import run

from toolkit.studies.last_cards import last_cards

FAST = ("--decks", "1", "--cards-left", "6-7", "--workers", "1", "--no-progress")


def test_json_rows_hold_exactly_the_five_keys_and_match_the_library(capsys) -> None:
    code, out, err = run(capsys, "last-cards", *FAST, "--bet", "banker", "--bet", "tie", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [set(r) for r in data["rows"]] == [{"cards_left", "bet", "p_positive", "mean", "mean_positive"}] * 6
    assert [(r["cards_left"], r["bet"]) for r in data["rows"]] == [
        (n, b) for n in (6, 7) for b in ("banker", "tie", "best")
    ]
    library = last_cards(1, "6-7", ("banker", "tie"), workers=1, progress=False)
    assert [r["p_positive"] for r in data["rows"]] == library["p_positive"].to_list()
    assert data["largest_mean_deviation"] < 1e-14
    assert data["by"] == "value"


def test_default_bets_are_the_panel_by_value_and_the_whole_panel_by_rank(capsys) -> None:
    one = ("--decks", "1", "--cards-left", "6", "-w", "1", "--no-progress")
    code, out, _ = run(capsys, "last-cards", *one, "-f", "csv")
    assert code == 0
    frame = pl.read_csv(io.StringIO(out))
    assert {"banker", "player", "tie", "dragon7", "best"} <= set(frame["bet"])
    assert "player_pair" not in set(frame["bet"])
    code, out, _ = run(capsys, "last-cards", *one, "--by", "rank", "-f", "csv")
    assert code == 0
    assert "player_pair" in set(pl.read_csv(io.StringIO(out))["bet"])


def test_table_shows_the_statistics(capsys) -> None:
    code, out, _ = run(capsys, "last-cards", *FAST, "--bet", "player")
    assert code == 0
    assert "p_positive" in out
    assert "E[max(edge, 0)]" in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--cards-left", "4-10"), "--cards-left"),
        (("--cards-left", "six"), "--cards-left"),
        (("--cards-left", "6-60"), "at most the shoe's 52 cards"),
        (("--bet", "player_pair"), "--by rank"),
        (("--bet", "perfect_pair"), "suits"),
        (("--bet", "nonesuch"), "unknown bet"),
        (("--by", "suit"), "--by"),
        (("--workers", "0"), "--workers"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(capsys, args, said) -> None:
    code, out, err = run(capsys, "last-cards", "--decks", "1", "--cards-left", "6", "--no-progress", *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert said in err
