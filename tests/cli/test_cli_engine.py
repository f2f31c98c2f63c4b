"""``baccarat edge`` and ``baccarat eor``: outputs, published figures, and one-line errors.

Commands run in-process through :func:`toolkit.cli.app.main` (the console entry point, with its
error handling), and once as the installed ``baccarat`` command in a subprocess.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from cli_helpers import run

import toolkit as bt
from toolkit.bets.catalogue import catalogue_names
from toolkit.cli.app import main
from toolkit.edges.reference import load_reference, printed_number, printed_tolerance

REQUIRED_BETS = (
    "banker",
    "player",
    "tie",
    "tie_9to1",
    "super6_banker",
    "ez_banker",
    "dragon7",
    "panda8",
    "player_pair",
    "banker_pair",
    "natural8",
    "natural9",
    "dragon_bonus_player",
    "dragon_bonus_banker",
)
FIELDS = ("expected_value", "house_edge", "std_dev", "hit_frequency")
EIGHT_DECKS_BY_VALUE = ",".join(["128"] + ["32"] * 9)
EIGHT_DECKS_BY_RANK = ",".join(["32"] * 13)


@pytest.fixture(scope="module")
def edge_8_decks() -> dict:
    """``baccarat edge --decks 8 --format json``, parsed (run once for the module)."""
    buffer = io.StringIO()
    saved = sys.stdout
    sys.stdout = buffer
    try:
        with pytest.raises(SystemExit) as stop:
            main(["edge", "--decks", "8", "--format", "json", *(a for n in catalogue_names() for a in ("--bet", n))])
    finally:
        sys.stdout = saved
    assert stop.value.code in (0, None)
    return json.loads(buffer.getvalue())


def published_8_deck_rows(quantity: str) -> list[dict]:
    rows = []
    for name in ("main_bets", "side_bets"):
        table = load_reference(name).filter(
            (pl.col("quantity") == quantity) & (pl.col("decks") == 8) & (pl.col("role") == "reproduce")
        )
        rows.extend(table.iter_rows(named=True))
    return rows


# ------------------------------------------------------------------ edge
def test_edge_json_has_every_required_bet_with_its_statistics(edge_8_decks: dict) -> None:
    for bet in REQUIRED_BETS:
        assert bet in edge_8_decks, bet
        for field in FIELDS:
            assert isinstance(edge_8_decks[bet][field], float), (bet, field)
        assert edge_8_decks[bet]["house_edge"] == pytest.approx(-edge_8_decks[bet]["expected_value"])


def test_edge_json_reproduces_the_published_8_deck_house_edges(edge_8_decks: dict) -> None:
    rows = published_8_deck_rows("house_edge")  # data/reference: Wizard of Odds, Jacobson, Thorp & Walden...
    assert {r["bet"] for r in rows} >= set(REQUIRED_BETS)
    for row in rows:
        shown = edge_8_decks[row["bet"]]["house_edge"] * 100
        assert abs(shown - float(printed_number(row["printed"]))) <= float(printed_tolerance(row["printed"])), row


def test_edge_json_reproduces_the_published_hit_frequencies_and_dragon7_sd(edge_8_decks: dict) -> None:
    for row in published_8_deck_rows("hit_frequency"):
        scale = 100 if row["unit"] == "percent" else 1
        shown = edge_8_decks[row["bet"]]["hit_frequency"] * scale
        assert abs(shown - float(printed_number(row["printed"]))) <= float(printed_tolerance(row["printed"])), row
    assert round(edge_8_decks["dragon7"]["std_dev"], 4) == 6.0849  # Jacobson, Dragon 7 SD


@pytest.mark.parametrize("shoe", [EIGHT_DECKS_BY_VALUE, EIGHT_DECKS_BY_RANK], ids=["10 by value", "13 by rank"])
def test_edge_shoe_of_eight_full_decks_equals_decks_8(capsys, edge_8_decks: dict, shoe: str) -> None:
    code, out, err = run(capsys, "edge", "--shoe", shoe, "--format", "json")
    assert (code, err) == (0, "")
    got = json.loads(out)
    for bet in REQUIRED_BETS:
        assert got[bet]["expected_value"] == pytest.approx(edge_8_decks[bet]["expected_value"], abs=1e-15)


@pytest.mark.parametrize(
    "shoe", ["30,6,9,7,8,5,10,4,6,7", "1,2,3,4,5,6,7,8,9,3,2,2,1"], ids=["10 by value", "13 by rank"]
)
def test_edge_depleted_shoe_matches_the_library(capsys, shoe: str) -> None:
    code, out, _ = run(capsys, "edge", "--shoe", shoe, "--format", "json")
    assert code == 0
    expected = bt.edge_table(bt.Composition.from_any(shoe))
    got = json.loads(out)
    for row in expected.iter_rows(named=True):
        assert got[row["bet"]]["expected_value"] == pytest.approx(row["expected_value"], abs=1e-15)


def test_edge_csv_is_one_row_per_bet(capsys) -> None:
    code, out, err = run(capsys, "edge", "--decks", "6", "--format", "csv")
    assert (code, err) == (0, "")
    table = pl.read_csv(io.StringIO(out))
    assert set(REQUIRED_BETS) <= set(table["bet"])
    assert set(FIELDS) <= set(table.columns)
    banker = table.filter(pl.col("bet") == "banker")["house_edge"].item()
    assert round(banker * 100, 2) == 1.06  # casinoexploit.com, 6 decks


def test_edge_table_shows_every_bet(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")  # at 80 the longest names wrap after an underscore
    code, out, err = run(capsys, "edge", "--decks", "8")
    assert (code, err) == (0, "")
    header = out.split("─")[0].split()  # the headers wrap at their spaces before the descriptions do
    assert {"house", "edge", "(per", "unit)"} <= set(header)  # the unit in the header: a fraction of the stake
    assert "0.010579" in out  # Banker's edge as in csv and json (1.0579%, Wizard of Odds), not in percent
    for bet in REQUIRED_BETS:
        assert bet in out


# ------------------------------------------------------------------ eor
def test_eor_json_maps_card_values_per_bet(capsys) -> None:
    code, out, err = run(capsys, "eor", "--format", "json")
    assert (code, err) == (0, "")
    table = json.loads(out)
    for bet in ("banker", "player", "tie"):
        assert sorted(table[bet]) == [str(v) for v in range(10)]
    assert round(table["banker"]["4"] * 1e7) == 1157  # Wizard of Odds, "Card Counting in Baccarat"
    assert round(table["player"]["6"] * 1e7) == 1128  # same table
    assert round(table["tie"]["6"] * 1e7) == -11595  # same table


def test_eor_by_rank_on_a_13_count_shoe(capsys) -> None:
    code, out, _ = run(capsys, "eor", "--shoe", EIGHT_DECKS_BY_RANK, "--by", "rank", "--format", "json")
    assert code == 0
    table = json.loads(out)
    assert list(table["banker"]) == list(bt.RANKS)


def test_eor_csv_and_table(capsys) -> None:
    code, out, _ = run(capsys, "eor", "--decks", "8", "--format", "csv")
    assert code == 0
    table = pl.read_csv(io.StringIO(out), schema_overrides={"card": pl.String})
    assert {"bet", "card", "count", "eor"} <= set(table.columns)
    assert table.filter(pl.col("bet") == "tie").height == 10
    code, out, _ = run(capsys, "eor", "--decks", "8")
    assert code == 0
    assert "x 1e-7" in out
    assert "1157.2" in out  # Banker, a 4 removed: +1157 (Wizard of Odds), shown to one decimal


# ------------------------------------------------------------------ bad input
BAD_ARGUMENTS = {
    "both --decks and --shoe": ["edge", "--decks", "8", "--shoe", EIGHT_DECKS_BY_VALUE],
    "wrong number of counts": ["edge", "--shoe", "1,2,3"],
    "negative count": ["edge", "--shoe", "1,2,3,4,5,6,7,8,9,-1"],
    "non-integer count": ["edge", "--shoe", "1,2,3,4,5,6,7,8,9,1.5"],
    "non-integer decks": ["edge", "--decks", "x"],
    "zero decks": ["edge", "--decks", "0"],
    "too few cards": ["edge", "--shoe", "1,1,1,0,0,0,0,0,0,0"],
    "too few cards to remove one": ["eor", "--shoe", "1,1,1,1,1,1,0,0,0,0"],
    "unknown option": ["edge", "--bogus"],
    "bad format": ["edge", "--format", "xml"],
    "bad removal kind": ["eor", "--by", "suit"],
    "unknown command": ["edges"],
}


@pytest.mark.parametrize("args", list(BAD_ARGUMENTS.values()), ids=list(BAD_ARGUMENTS))
def test_bad_arguments_give_one_line_on_stderr(capsys, args: list[str]) -> None:
    code, out, err = run(capsys, *args)
    assert code != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("baccarat: error: ")
    assert "Traceback" not in err


# ------------------------------------------------------------------ the installed command
def _installed_command() -> str:
    beside = Path(sys.executable).with_name("baccarat")
    found = str(beside) if beside.exists() else shutil.which("baccarat")
    if found is None:
        pytest.skip("the baccarat console script is not installed (pip install -e .)")
    return found


def test_installed_command_prints_json() -> None:
    result = subprocess.run(
        [_installed_command(), "edge", "--decks", "8", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert round(json.loads(result.stdout)["banker"]["house_edge"] * 100, 4) == 1.0579  # Wizard of Odds


def test_a_bad_shoe_fails_in_one_line_without_traceback(capsys) -> None:
    # through the console entry point in this process: the installed command's own run is the one above
    code, out, err = run(capsys, "edge", "--shoe", "1,2,3")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
