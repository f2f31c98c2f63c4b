"""``baccarat cut-card``: the table, json and csv outputs, the figure, and one-line refusals (exit 2).

Commands run in-process through :func:`toolkit.cli.app.main` (the console entry point with its error handling).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from cli_helpers import run

import toolkit as bt

FAST = ("--shoes", "3", "--seed", "4", "--workers", "1", "--no-progress")
COLUMNS = ["rule", "bet", "fresh_edge", "dealt_edge", "effect", "ci_low", "ci_high", "coups_per_shoe", "shoes"]


def test_json_holds_every_rule_and_bet_and_matches_the_library(capsys) -> None:
    code, out, err = run(
        capsys,
        "cut-card",
        *FAST,
        "--cut-card",
        "14",
        "--cut-card",
        "30",
        "--coups",
        "60",
        "--bet",
        "perfect_pair",
        "-f",
        "json",
    )
    assert code == 0, err
    data = json.loads(out)
    rows = pl.DataFrame(data["rows"])
    assert rows.columns[:9] == COLUMNS
    assert rows["rule"].unique(maintain_order=True).to_list() == ["cut14/one_more", "cut30/one_more", "coups60"]
    assert len(rows["bet"].unique()) == len(bt.standard_bets()) + 1  # the panel and perfect_pair
    library = bt.cut_card_effect(
        n_shoes=3, cut_cards=(14, 30), coups=(60,), seed=4, progress=False, bets=(*bt.standard_bets(), "perfect_pair")
    )
    assert rows["effect"].to_list() == library["effect"].to_list()
    assert data["seed"] == 4
    assert data["shoes"] == 3


def test_table_and_csv_show_the_columns(capsys) -> None:
    code, out, _ = run(capsys, "cut-card", *FAST, "--last-hand", "finish", "-f", "table")
    assert code == 0
    assert "cut14/finish" in out
    assert "effect" in out
    code, out, _ = run(capsys, "cut-card", *FAST, "--last-hand", "seven_cards", "-f", "csv")
    assert code == 0
    frame = pl.read_csv(io.StringIO(out))
    assert frame.columns[:9] == COLUMNS
    assert frame["rule"].unique().to_list() == ["seven_cards"]


def test_the_figure_is_written(capsys, tmp_path: Path) -> None:
    path = tmp_path / "effect.png"
    code, _, err = run(capsys, "cut-card", *FAST, "--bet", "", "--figure", str(path), "-f", "json")
    assert code == 0, err
    assert path.stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--cut-card", "500"), "Dealing.cut_card must be 0..415"),
        (("--coups", "0"), "--coups must be at least 1"),
        (("--coups", "200"), "Dealing.coups must be at most 104"),
        (("--cut-card", "14", "--cut-card", "14"), "--cut-card names a value twice"),
        (("--last-hand", "sometimes"), "--last-hand"),
        (("--bet", "nosuch"), "unknown bet 'nosuch'"),
        (("--shoes", "0"), "--shoes must be at least 1"),
        (("--workers", "0"), "--workers must be at least 1"),
        (("--decks", "0"), "decks"),
        (("--coups", "60", "--last-hand", "finish"), "needs a --cut-card"),
    ],
)
def test_bad_options_exit_2_with_one_line(capsys, args: tuple[str, ...], message: str) -> None:
    code, out, err = run(capsys, "cut-card", "--seed", "1", "--no-progress", *args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("baccarat: error:")
    assert message in lines[0]
