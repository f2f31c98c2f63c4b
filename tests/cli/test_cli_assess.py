"""``baccarat assess``: the files it writes, its JSON, and one-line errors."""

from __future__ import annotations

import json

import polars as pl
import pytest
from cli_helpers import run

TINY = ["--shoes", "120", "--seed", "2", "--workers", "1", "--no-progress", "--cut-cards", "14"]


def test_assess_writes_the_report_the_tables_and_the_figures(capsys, tmp_path) -> None:
    out = tmp_path / "d7"
    code, stdout, err = run(capsys, "assess", "--bet", "dragon7", "--out", str(out), *TINY, "--format", "json")
    assert code == 0, err
    payload = json.loads(stdout)
    assert payload["bet"] == "dragon7"
    assert payload["seed"] == 2
    assert payload["report"] == str(out / "report.md")
    assert payload["verdict"].startswith(("countable", "not worth counting"))
    assert json.loads((out / "summary.json").read_text())["verdict"] == payload["verdict"]
    assert (out / "report.md").read_text().startswith("# Side bet assessment: dragon7")
    summary = pl.read_csv(out / "tables" / "summary.csv")
    assert summary["strategy"].to_list() == ["count", "perfect", "published dragon7", "published how_dragon7"]
    # how long it will take, said on stderr before the work starts
    assert err.startswith("dragon7: 120 shoes a step (search, fresh shoes, 1 cut card): about ")
    first = err.splitlines()[0]
    assert " MB of memory for the search shoes over the process's 300 MB, from a pilot of 20 shoes" in first
    assert payload["fresh"]["count"]["win_per_100_hands"] == pytest.approx(summary["win_per_100_hands"][0])
    assert sorted(p.name for p in (out / "figures").iterdir()) == [
        "eor_by_rank.png",
        "penetration.png",
        "threshold_sweep.png",
    ]


def test_assess_table_output_and_no_figures(capsys, tmp_path) -> None:
    code, stdout, _ = run(capsys, "assess", "--bet", "banker", "--out", str(tmp_path), *TINY, "--no-figures")
    assert code == 0
    assert stdout.startswith("banker: not worth counting at cut card 14")
    assert f"report: {tmp_path / 'report.md'}" in stdout
    assert not (tmp_path / "figures").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bet", "roulette"], "unknown bet 'roulette'"),
        (["--bet", "dragon7", "--cut-cards", "14,x"], "--cut-cards takes comma-separated integers"),
        (["--bet", "dragon7", "--cut-cards", "-3"], "--cut-cards must be 0 or more"),
        (["--bet", "dragon7", "--shoes", "0"], "--shoes must be at least 1"),
        (["--bet", "dragon7", "--min-win", "-1"], "--min-win must be 0 or more"),
        (["--bet", "dragon7", "--confidence", "1.5"], "--confidence must be between 0 and 1"),
    ],
)
def test_bad_options_get_one_line_and_exit_2(capsys, tmp_path, args: list[str], message: str) -> None:
    code, stdout, err = run(capsys, "assess", *args, "--out", str(tmp_path / "x"), "--no-progress", "--seed", "1")
    assert code == 2
    assert stdout == ""
    assert err.count("\n") == 1
    assert message in err


def test_an_out_that_is_a_file_is_refused(capsys, tmp_path) -> None:
    path = tmp_path / "file.txt"
    path.write_text("x")
    code, _, err = run(capsys, "assess", "--bet", "dragon7", "--out", str(path), "--no-progress", "--seed", "1")
    assert code == 2
    assert "is a file; it must name a folder" in err
