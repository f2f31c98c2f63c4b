"""``baccarat count`` with a count of one's own: ``--tags`` (by value or by rank) and ``--system-file``."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run

COMMON = ["--shoes", "60", "--seed", "5", "--workers", "1", "--no-progress", "--format", "json"]


def _count(capsys, *args: str) -> dict:
    code, out, err = run(capsys, "count", *args, *COMMON)
    assert code == 0, err
    return json.loads(out)


def test_tags_by_value_by_rank_and_the_published_system_agree(capsys) -> None:
    by_value = _count(capsys, "--tags", "0,0,0,0,-1,-1,-1,-1,2,2", "--bet", "dragon7", "--threshold", "4")
    by_rank = _count(capsys, "--tags", "0,0,0,-1,-1,-1,-1,2,2,0,0,0,0", "--bet", "dragon7", "--threshold", "4")
    published = _count(capsys, "--system", "dragon7")
    for key in ("mean_edge", "units_per_100_hands_ev", "units_per_shoe", "bets", "bet_frequency"):
        assert by_value[key] == by_rank[key] == published[key]
    assert by_value["convention"]["tags"] == published["convention"]["tags"]


def test_bet_frequency_is_bets_over_hands_inside_its_interval(capsys) -> None:
    d = _count(capsys, "--tags", "0,0,0,0,-1,-1,-1,-1,2,2", "--bet", "dragon7", "--threshold", "2")
    assert d["bet_frequency"] == pytest.approx(d["bets"] / (d["hands_per_shoe"] * d["shoes"]))
    low, high = d["bet_frequency_ci"]
    assert 0 < low < d["bet_frequency"] < high < 1
    # the figures of today are all still there
    assert {"mean_edge", "units_per_100_hands_ev", "units_per_shoe_ev_ci", "convention", "dealing"} <= set(d)


def test_a_negative_first_tag_is_taken(capsys) -> None:
    d = _count(capsys, "--tags", "-1,0,0,0,0,0,0,0,0,1", "--bet", "natural9", "--threshold", "1")
    assert d["convention"]["tags"]["T"] == -1
    assert d["convention"]["tags"]["9"] == 1


def test_a_count_file_runs_and_the_command_line_overrides_its_threshold(capsys, tmp_path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('tags = [0, 0, 0, 0, -1, -1, -1, -1, 2, 2]\nbet = "dragon7"\nthreshold = 4\n')
    from_file = _count(capsys, "--system-file", str(path))
    assert from_file["convention"]["name"] == "mine"
    assert from_file["units_per_100_hands_ev"] == _count(capsys, "--system", "dragon7")["units_per_100_hands_ev"]
    assert _count(capsys, "--system-file", str(path), "--threshold", "3")["threshold"] == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tags", "1,2,3", "--bet", "tie", "-t", "1"], "--tags needs 10 integers by value (0-9) or 13 by rank"),
        (["--tags", "0,0,0,0,0,0,0,0,0,0,0", "--bet", "tie", "-t", "1"], "got 11"),
        (["--tags", "0,0,0,0,0,0,0,0,1,x", "--bet", "tie", "-t", "1"], "--tags: tag 10 is not an integer: 'x'"),
        (["--tags", "0,0,0,0,0,0,0,0,1,0.5", "--bet", "tie", "-t", "1"], "tag 10 is not an integer"),
        (["--tags", "0,0,0,0,0,0,0,0,1,1", "-t", "1"], "--tags needs --bet"),
        (["--tags", "0,0,0,0,0,0,0,0,1,1", "--bet", "tie"], "--threshold"),
        (["--tags", "0,0,0,0,0,0,0,0,1,1", "--bet", "roulette", "-t", "1"], "unknown bet 'roulette'"),
        (["--system", "dragon7", "--tags", "0,0,0,0,0,0,0,0,1,1"], "give one of --system, --tags or --system-file"),
        ([], "give one of --system, --tags or --system-file"),
        (["--system-file", "/nonexistent/c.toml"], "no such count-system file"),
    ],
)
def test_bad_custom_counts_get_one_line_and_exit_2(capsys, args: list[str], message: str) -> None:
    code, out, err = run(capsys, "count", *args, "--no-progress", "--shoes", "5", "--seed", "1")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("baccarat: error: ")
    assert message in err


def test_a_count_file_without_a_bet_needs_bet(capsys, tmp_path) -> None:
    path = tmp_path / "nobet.toml"
    path.write_text("tags = [0,0,0,0,0,0,0,0,1,1]\nthreshold = 1\n")
    code, _, err = run(capsys, "count", "--system-file", str(path), "--no-progress")
    assert code == 2
    assert "count system 'nobet' names no bet; give --bet" in err
    assert _count(capsys, "--system-file", str(path), "--bet", "natural9")["bet"] == "natural9"


def test_a_bad_count_file_is_located(capsys, tmp_path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("tags = [0,0,0,0,0,0,0,0,0,0]\nrounding = 'up'\n")
    code, _, err = run(capsys, "count", "--system-file", str(path), "-t", "1", "--bet", "tie", "--no-progress")
    assert code == 2
    assert f"{path}: key 'rounding' = 'up'" in err
    assert err.count("\n") == 1
