"""``baccarat sort``: the edge-sorting figures from the command line, every format, and one-line refusals."""

from __future__ import annotations

import io
import json

import polars as pl
import pytest
from cli_helpers import run


def test_json_four_cards_reproduces_jacobson(capsys) -> None:
    """E. Jacobson, "Edge Sorting in Baccarat" (apheat.net, 18 August 2012): 20.928 %, HL/LL 20.502 % at 36.332 %."""
    code, out, err = run(capsys, "sort", "--groups", "6789", "--positions", "1-4", "--format", "json", "--exact")
    assert code == 0, err
    data = json.loads(out)
    assert round(data["gain_per_coup"] * 100, 3) == 20.928
    assert round(data["share_no_bet"] * 100, 3) == 22.824
    assert data["gain_per_coup_exact"] == "224516716802/1072801827675"
    best = next(p for p in data["patterns"] if p["pattern"] == "HL/LL")
    assert best["best_bet"] == "player"
    assert round(best["probability"] * 100, 3) == 20.502
    assert round(best["ev"] * 100, 3) == 36.332
    assert [p["pattern"] for p in data["patterns"] if p["best_bet"] is None] == ["LL/LL"]
    assert data["best_partitions"] == []


def test_best_partition_finds_roachs_sort(capsys) -> None:
    """E. Jacobson, "Edge Sorting in Baccarat, Update #1" (2012): the best four-card sort gives 30.291 %."""
    code, out, err = run(capsys, "sort", "--positions", "1-4", "--best-partition", "--top", "3", "-f", "json")
    assert code == 0, err
    best = json.loads(out)["best_partitions"]
    assert [b["rank"] for b in best] == [1, 2, 3]
    assert best[0]["groups"] == "456789"
    assert round(best[0]["gain_per_coup"] * 100, 3) == 30.291


def test_one_flashed_card_table_and_csv(capsys) -> None:
    code, out, err = run(capsys, "sort", "--positions", "1", "--decks", "8")
    assert code == 0, err
    assert "gain 6.7647%" in out
    assert "H/-" in out
    code, out, err = run(capsys, "sort", "--positions", "1", "-f", "csv")
    assert code == 0, err
    frame = pl.read_csv(io.StringIO(out))
    assert frame["pattern"].to_list() == ["H/-", "L/-"]
    assert frame["best_bet"].to_list() == ["player", "banker"]


def test_shoe_bets_and_rank_groups(capsys) -> None:
    code, out, err = run(
        capsys, "sort", "--shoe", "40,8,8,8,8,8,8,8,8,8", "--groups", "A9TJQK", "--by", "rank", "--positions", "1,3",
        "--bet", "banker", "--bet", "player,dragon7", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["cards"] == 112
    assert data["bets"] == ["banker", "player", "dragon7"]
    assert sorted(p["pattern"] for p in data["patterns"]) == ["HH/-", "HL/-", "LL/-"]


def test_best_partition_csv_holds_the_sorts(capsys) -> None:
    code, out, err = run(capsys, "sort", "--positions", "1", "--best-partition", "--top", "2", "-f", "csv")
    assert code == 0, err
    assert pl.read_csv(io.StringIO(out), infer_schema=False)["groups"].to_list()[0] == "6789"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--groups", "678Z"), "'Z' is not a card value"),
        (("--groups", "678/89"), "the value '8' is in groups 1 and 2"),
        (("--positions", "0-4"), "position 0 is outside 1-6"),
        (("--positions", "7"), "position 7 is outside 1-6"),
        (("--shoe", "1,1,1,1,1,0,0,0,0,0"), "the shoe holds 5 card(s)"),
        (("--bet", "perfect_pair"), "looks at suits"),
        (("--bet", "nonsense"), "unknown bet 'nonsense'"),
        (("--by", "suit"), "--by must be 'value' or 'rank'"),
        (("--top", "0", "--best-partition"), "--top must be 1 to 4,095"),
        (("--groups", "6789X", "--by", "rank"), "'X' is not a card rank"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, message) -> None:
    code, out, err = run(capsys, "sort", *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("baccarat: error: ")
    assert message in err


def test_rank_sort_search_from_the_command_line(capsys) -> None:
    code, out, err = run(
        capsys, "sort", "-p", "1", "--by", "rank", "--best-partition", "--top", "2", "--no-progress", "-f", "json"
    )
    assert code == 0, err
    best = json.loads(out)["best_partitions"]
    assert [b["groups"] for b in best] == ["6789", "789"]
    assert round(best[0]["gain_per_coup"] * 100, 3) == 6.765
