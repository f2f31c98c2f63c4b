"""``baccarat validate`` and ``baccarat replay``: exit codes, located problems in JSON, strict mode, outputs.

Commands run in-process through :func:`toolkit.cli.app.main` (the console entry point with its error handling).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from cli_helpers import run
from non_regular import non_regular
from sample_shoes import SHOES

from toolkit.records import read_records, replay_records

MALFORMED = SHOES / "malformed"


def _flat(text: str) -> str:
    """The text with its lines joined: the output wraps long lines at words to the terminal's width."""
    return " ".join(text.split())


def test_validate_exits_0_when_every_shoe_is_valid(capsys) -> None:
    files = [str(SHOES / n) for n in ("cards_observed.csv", "cards_complete.parquet", "coups_with_bets.jsonl")]
    code, out, err = run(capsys, "validate", *files)
    assert code == 0, out + err
    assert "4 of 4 shoe(s) valid" in _flat(out)
    assert err == ""


def test_validate_exits_1_when_some_shoes_are_not(capsys) -> None:
    code, out, _ = run(capsys, "validate", str(SHOES / "mixed.csv"), str(SHOES / "roads.csv"))
    assert code == 1
    assert "mixed.csv:" in _flat(out)
    assert "3 of 5 shoe(s) valid" in _flat(out)
    assert "20 of 20 shoe(s) valid" in _flat(out)


@pytest.mark.parametrize(
    "name", ["not_text.csv", "empty.csv", "bad_header.csv", "repeated_key.csv", "list_shoe.parquet"]
)
def test_validate_exits_2_when_a_file_cannot_be_read(capsys, name: str) -> None:
    code, out, _ = run(capsys, "validate", str(SHOES / "cards_observed.csv"), str(MALFORMED / name))
    assert code == 2
    assert "cannot be read" in _flat(out)
    code, out, err = run(capsys, "validate", str(MALFORMED / "missing.csv"))
    assert code == 2
    assert "cannot be read" in _flat(out)
    assert err.startswith("baccarat: error: ")  # the reason is an error of the command: on stderr, one line
    assert "cannot open the file" in err
    assert err.count("\n") == 1


def test_validate_json_lists_each_problem_with_its_location(capsys) -> None:
    files = [str(MALFORMED / n) for n in ("third_card_forbidden.csv", "winner_mismatch.csv", "unknown_card.csv")]
    code, out, _ = run(capsys, "validate", "--format", "json", *files)
    assert code == 1
    payload = json.loads(out)
    assert [f["valid"] for f in payload["files"]] == [0, 0, 0]
    problems = payload["problems"]
    assert [(Path(p["file"]).name, p["line"], p["shoe"], p["coup"]) for p in problems] == [
        ("third_card_forbidden.csv", 3, "7", 1),
        ("winner_mismatch.csv", 3, "A1", 1),
        ("unknown_card.csv", 5, "1", None),
    ]
    assert all({"file", "line", "shoe", "coup", "message"} <= set(p) for p in problems)
    assert "Player stands on 7" in problems[0]["message"]


def test_validate_strict_stops_at_the_first_problem(capsys) -> None:
    code, out, _ = run(
        capsys,
        "validate",
        "--strict",
        "--format",
        "json",
        str(SHOES / "mixed.csv"),
        str(MALFORMED / "winner_mismatch.csv"),
    )
    assert code == 1
    problems = json.loads(out)["problems"]
    assert len(problems) == 1
    assert problems[0]["shoe"] == "2"


def test_validate_header_option_overrides_the_file(capsys) -> None:
    # the 8-deck record read as one deck: a fifth card of a rank is one too many
    code, out, _ = run(capsys, "validate", "--header", "decks=1", str(SHOES / "cards_observed.csv"))
    assert code == 1
    assert "one too many" in _flat(out)
    assert "0 of 4 shoe(s) valid" in _flat(out)
    code, _, err = run(capsys, "validate", "--header", "burn", str(SHOES / "cards_observed.csv"))
    assert code == 2
    assert err.startswith("baccarat: error: --header takes key=value words")


def test_replay_table_json_and_parquet(capsys, tmp_path: Path) -> None:
    path = SHOES / "cards_observed.csv"
    expected = replay_records(read_records(path), shoe=3, systems=["dragon7"], bets=["banker", "dragon7"])
    args = ["replay", str(path), "--shoe", "3", "--system", "dragon7", "--bet", "banker", "--bet", "dragon7"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "ev_dragon7" in out
    assert "tc_dragon7" in out
    code, out, _ = run(capsys, *args, "--format", "json")
    rows = json.loads(out)
    assert len(rows) == expected.height
    assert rows[5]["ev_dragon7"] == expected["ev_dragon7"][5]
    out_file = tmp_path / "replay.parquet"
    code, _, _ = run(capsys, *args, "--format", "parquet", "--out", str(out_file))
    assert code == 0
    assert pl.read_parquet(out_file).equals(expected)
    text_file = tmp_path / "replay.txt"
    assert run(capsys, "replay", str(path), "--shoe", "1", "--out", str(text_file))[0] == 0
    assert "ev_banker" in text_file.read_text()


def test_replay_errors_are_one_line(capsys) -> None:
    path = str(SHOES / "cards_observed.csv")
    cases = [
        (["replay", path, "--shoe", "9"], 2, "no shoe '9'"),
        (["replay", path, "--shoe", "1", "--format", "parquet"], 2, "--format parquet needs --out"),
        (["replay", path, "--shoe", "1", "--system", "hilo"], 2, "unknown count system 'hilo'"),
        (["replay", path, "--shoe", "1", "--bet", "lucky"], 2, "unknown bet 'lucky'"),
        (["replay", str(SHOES / "roads.csv"), "--shoe", "1"], 2, "outcome-only"),
        (["replay", str(SHOES / "mixed.csv"), "--shoe", "2"], 1, "shoe 2 was set aside"),
        (["replay", str(MALFORMED / "not_text.csv"), "--shoe", "1"], 2, "not text"),
    ]
    for args, want, words in cases:
        code, out, err = run(capsys, *args)
        assert code == want, (args, err)
        assert words in err
        assert err.count("\n") == 1
        assert out == ""


def test_replay_matches_the_library_on_a_per_coup_file(capsys) -> None:
    path = SHOES / "coups_with_bets.jsonl"
    code, out, _ = run(capsys, "replay", str(path), "--shoe", "2", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    frame = replay_records(read_records(path), shoe=2)
    assert np.allclose([r["ev_tie"] for r in rows], frame["ev_tie"].to_numpy(), rtol=0, atol=0)


def test_replay_table_shows_a_readable_default_set_of_columns(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    path = str(SHOES / "cards_observed.csv")
    code, out, _ = run(capsys, "replay", path, "--shoe", "3", "--system", "dragon7")
    assert code == 0
    header = out.splitlines()[0].split()
    # coup, cards unseen, the counts, the edges of banker, player, tie and the system's own bet, the outcome
    assert header == [
        "coup", "cards_unseen", "rc_dragon7", "tc_dragon7", "ev_banker", "ev_player", "ev_tie", "ev_dragon7",
        "player_hand", "banker_hand", "winner",
    ]  # fmt: skip
    code, out, _ = run(capsys, "replay", path, "--shoe", "3", "--bet", "panda8", "--bet", "banker")
    assert out.splitlines()[0].split() == [
        "coup",
        "cards_unseen",
        "ev_panda8",
        "ev_banker",
        "player_hand",
        "banker_hand",
        "winner",
    ]


def test_replay_columns_chooses_them_in_every_format(capsys) -> None:
    path = str(SHOES / "cards_observed.csv")
    args = ["replay", path, "--shoe", "3", "--columns", "coup,unseen_K,ev_natural9"]
    code, out, _ = run(capsys, *args, "--format", "csv")
    assert code == 0
    frame = pl.read_csv(io.StringIO(out))
    assert frame.columns == ["coup", "unseen_K", "ev_natural9"]
    assert frame["coup"].to_list()[:3] == [1, 2, 3]  # coups from 1
    code, out, _ = run(capsys, *args)
    assert out.splitlines()[0].split() == ["coup", "unseen_K", "ev_natural9"]
    code, out, err = run(capsys, "replay", path, "--shoe", "3", "--columns", "coup,ev_bankr")
    assert code == 2
    assert out == ""
    assert "no column 'ev_bankr'" in err
    assert "known columns: shoe, coup, " in err
    assert "ev_banker" in err


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_validate_and_replay_refuse_what_is_not_a_regular_file(capsys, tmp_path: Path, kind: str) -> None:
    path = non_regular(tmp_path, kind)
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2
    assert out == f"{path}: cannot be read\n"
    assert err.count("\n") == 1
    assert err.startswith(f"baccarat: error: {path}: a record file must be a regular file")
    code, out, err = run(capsys, "replay", str(path), "--shoe", "1")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"baccarat: error: {path}: a record file must be a regular file")


# ------------------------------------------------------------------ files other programs write
def _foreign(tmp_path: Path) -> Path:
    path = tmp_path / "results.csv"  # per-position value columns, as stevenhalverson/baccarat_simulator writes them
    path.write_text(
        "b total,player total,pcard1,pcard2,pcard3,bcard1,bcard2,bcard3,outcome,rounds,shoe number\n"
        "1,6,0,6,,1,0,0,player win,1,1\n"
        "5,2,8,3,1,1,0,4,banker win,2,1\n"
        "9,6,6,0,,7,2,,banker win,1,2\n"
        "4,6,6,0,,3,1,,player win,2,2\n"
        "9,0,0,0,,9,0,,banker win,3,2\n"
    )
    return path


def test_validate_says_how_a_foreign_file_was_read_and_counts_its_faults(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "validate", str(_foreign(tmp_path)))
    assert code == 1
    flat = _flat(out)
    assert "read as: per-position card columns pcard1,pcard2,pcard3, bcard1,bcard2,bcard3" in flat
    assert "shoes from 'shoe number'" in flat
    assert "cards as values 0-9" in flat
    assert "1 of 2 shoe(s) valid" in flat
    assert "missing Banker's third card" in flat  # shoe 2, coup 2: Banker stood on 4 after Player stood


def test_validate_and_replay_say_what_was_assumed_for_a_file_without_a_header(capsys, tmp_path) -> None:
    # a foreign file without a header was read as 8 decks without a word
    path = _foreign(tmp_path)
    _, out, _ = run(capsys, "validate", str(path))
    assert "no header, so the default rules assumed (decks=8 " in _flat(out)
    code, out, err = run(capsys, "replay", str(path), "--shoe", "1", "--format", "csv")
    assert code == 0
    assert "no header, so the default rules assumed (decks=8 " in _flat(err)
    assert out.startswith("shoe,")  # the table itself untouched
    headed = tmp_path / "headed.csv"
    headed.write_text("# decks=6\n" + path.read_text())
    _, out, _ = run(capsys, "validate", str(headed))
    assert "no header" not in out


def test_convert_writes_the_valid_shoes_once_for_every_later_command(capsys, tmp_path) -> None:
    out = tmp_path / "shoes.parquet"
    code, text, err = run(capsys, "convert", str(_foreign(tmp_path)), "--out", str(out), "--format", "json")
    assert code == 1, err  # a shoe was set aside
    assert json.loads(text)["shoes"] == 1
    assert json.loads(text)["set_aside"] == 1
    back = read_records(out)
    assert back.kind == "values"
    assert back.report.ok
    assert back.shoe_ids == [1]
    code, text, _ = run(capsys, "replay", str(out), "--shoe", "1", "--format", "csv")
    assert code == 0
    assert "unseen_0" in text.splitlines()[0]


def test_one_shoe_and_shoe_column_options(capsys, tmp_path) -> None:
    path = tmp_path / "hands.csv"
    path.write_text("table,p1,p2,b1,b2\nA,9,K,6,K\nB,9,K,6,K\n")
    code, out, _ = run(capsys, "validate", str(path), "--header", "burn=none", "--one-shoe")
    assert code == 0
    assert "1 of 1 shoe(s) valid" in _flat(out)
    code, out, _ = run(capsys, "validate", str(path), "--header", "burn=none", "--shoe-column", "table")
    assert code == 0
    assert "2 of 2 shoe(s) valid" in _flat(out)


def test_replay_of_a_set_aside_shoe_up_to_its_first_bad_coup(capsys, tmp_path) -> None:
    path = _foreign(tmp_path)
    code, _, err = run(capsys, "replay", str(path), "--shoe", "2")
    assert code == 1
    assert "--before-first-problem" in err
    code, out, err = run(capsys, "replay", str(path), "--shoe", "2", "--before-first-problem", "--format", "csv")
    assert code == 0, err
    assert "replaying its 1 coup(s) before the first" in _flat(err)
    assert len(out.strip().splitlines()) == 2  # the column names and coup 1
