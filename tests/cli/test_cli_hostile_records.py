"""The record commands under hostile input: located one-line refusals, and no file but those named changes.

``convert`` and ``replay --out`` into a named pipe with no reader are refused at once (opening it never waits
for a reader); the folder is hashed before and after.  The readers' cases (``tests/records/test_hostile.py``)
are run here through ``validate``: exit 1 with the problem's location, or 2 with one line.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from cli_helpers import run

GOOD = "shoe,coup,player,banker\n1,1,9 K,6 K\n1,2,K 2 3,K 6\n"


def _hashes(folder: Path) -> dict[str, str]:
    """Each regular file's SHA-256 (named pipes by name only: reading one would wait)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_fifo():
            out[str(path)] = "fifo"
        elif path.is_file():
            out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize(
    "command",
    [("convert", "{record}", "--out", "{fifo}"), ("replay", "{record}", "--shoe", "1", "--out", "{fifo}")],
)
def test_an_output_pipe_with_no_reader_is_refused_without_waiting(capsys, tmp_path: Path, command):
    record, fifo = tmp_path / "shoes.csv", tmp_path / "out.csv"
    record.write_text(GOOD)
    os.mkfifo(fifo)
    before = _hashes(tmp_path)
    # the verdict is the outcome, not a time: a command that waited for a reader would keep the test waiting
    code, _, err = run(capsys, *[a.format(record=record, fifo=fifo) for a in command], "--header", "burn=none")
    assert code == 2, err
    assert err.count("\n") == 1
    assert "named pipe (FIFO) with no reader" in err
    assert _hashes(tmp_path) == before


@pytest.mark.parametrize(
    ("text", "name", "code", "where"),
    [
        (
            "shoe,coup,player,banker\n1,1,-5 -3,6 K\n2,1,9 K,6 K\n",
            "neg.csv",
            1,
            "neg.csv:2: shoe 1, coup 1: unknown card code '-5'",
        ),
        ("Shoe number 1\nT,6,6,6,K,x,6,Q,x\n", "ties.txt", 2, "ties.txt:2: which hand a coup line gives first"),
        (
            "Shoe number 1\nP,6,9,6,K,x,9,K,x\nShoe number 1\nB,9,6,9,K,x,6,K,x\n",
            "twice.txt",
            1,
            "twice.txt:3: shoe 1: a second block",
        ),
        ("shoe,coup,winner\n1,1,P\n1,1,B\n", "dup.csv", 1, "dup.csv:3: shoe 1: duplicate coup 1"),
        ("shoe,coup,winner\n1,1,P\n1,abc,B\n", "abc.csv", 1, "abc.csv:3: shoe 1: coup 'abc' is not a whole number"),
        (
            "shoe,coup,player,banker\n1,1,9 K,6 K\n2;1;9 K;6 K\n",
            "semi.csv",
            1,
            "semi.csv:3: shoe 2: line 3 is separated by ';'",
        ),
    ],
)
def test_validate_locates_each_hostile_case(capsys, tmp_path: Path, text, name, code, where):
    path = tmp_path / name
    path.write_text(text)
    got, out, err = run(capsys, "validate", str(path), "--header", "burn=none")
    assert got == code, out + err
    shown = out + err
    assert str(tmp_path / where.split(":")[0]) + ":" + where.split(":", 1)[1] in shown


def test_a_layout_for_a_report_and_a_layout_dropping_kings_are_refused(capsys, tmp_path: Path):
    report, layout = tmp_path / "r.txt", tmp_path / "l.toml"
    report.write_text("Shoe number 1\nP,6,9,6,K,x,9,K,x\n")
    layout.write_text("[columns]\nshoe = 'Nope'\n")
    code, out, err = run(capsys, "validate", str(report), "--layout", str(layout))
    assert code == 2
    assert "has no columns for the layout" in out + err
    layout.write_text("[columns]\nplayer = ['P1', 'P2']\nbanker = ['B1', 'B2']\n[cards]\nnone = ['K']\n")
    code, out, err = run(capsys, "validate", str(report), "--layout", str(layout))
    assert code == 2
    assert err.count("\n") == 1
    assert "[cards] none lists 'K', a card" in err


DETECT = Path(__file__).resolve().parents[2] / "data" / "shoes" / "coups_with_bets.jsonl"


@pytest.mark.parametrize("extra", [0, 1])
def test_detect_reference_at_its_limit_runs_and_one_past_is_refused(capsys, monkeypatch, extra: int):
    from toolkit.cli import detect

    assert detect.MAX_REFERENCE_SHOES == 20_000  # the real limit; a small one stands for it below
    monkeypatch.setattr(detect, "MAX_REFERENCE_SHOES", 40)
    args = ("detect", str(DETECT), "--permutations", "9", "--seed", "1", "--bet", "banker", "-f", "csv")
    code, _, err = run(capsys, *args, "--reference", str(40 + extra))
    assert code == 2 * extra, err
    if extra:
        assert err == "baccarat: error: --reference must be 2..40 shoes, got 41\n"


@pytest.fixture(scope="module")
def seats_at_the_limit(tmp_path_factory) -> Path:
    """A bets table of 501 seats (one past the real limit of 500), each betting the first coups of shoe 1."""
    from toolkit.cli import detect

    bets = tmp_path_factory.mktemp("seats") / "bets.csv"
    seats = detect.MAX_SEAT_TESTS + 1
    rows = [f"1,{c},seat{k},banker,{10 + (k + c) % 3}" for c in range(1, 9) for k in range(seats)]
    bets.write_text("shoe,coup,who,bet,amount\n" + "\n".join(rows) + "\n")
    return bets


def test_detect_at_the_real_seat_limit_runs_and_one_past_is_refused_before_any_test(capsys, seats_at_the_limit):
    from toolkit.cli import detect

    # the real limit, stated in --help: 500 seats run (the normal method, no shufflings: the limit is on the tests),
    # the 501st is refused before any test starts
    assert detect.MAX_SEAT_TESTS == 500
    code, out, _ = run(capsys, "detect", "--help")
    assert "at most 500" in " ".join(out.split())
    args = ("detect", str(DETECT), "--bets", str(seats_at_the_limit), "--method", "normal", "--permutations", "0")
    args += ("--reference", "20", "--seed", "1", "-f", "csv")
    code, out, err = run(capsys, *args, *(f"--who=seat{k}" for k in range(500)))
    assert code == 0, err
    assert len(out.splitlines()) == 1 + 500  # the header, then a row per seat
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err == (
        f"baccarat: error: {DETECT}: 501 seat-and-bet tests (501 seats); one run makes at most 500: "
        "name the seats to test with --who (or the bets with --bet)\n"
    )


@pytest.mark.parametrize("extra", [0, 1])
def test_detect_seat_tests_at_their_limit_run_and_one_past_are_refused(capsys, tmp_path, monkeypatch, extra):
    from toolkit.cli import detect

    assert detect.MAX_SEAT_TESTS == 500
    monkeypatch.setattr(detect, "MAX_SEAT_TESTS", 3)
    bets = tmp_path / "bets.csv"
    rows = [f"1,{c},seat{k},banker,10" for c in range(1, 40) for k in range(3 + extra)]
    bets.write_text("shoe,coup,who,bet,amount\n" + "\n".join(rows) + "\n")
    args = ("detect", str(DETECT), "--bets", str(bets), "--permutations", "9", "--reference", "20", "--seed", "1")
    code, _, err = run(capsys, *args, "-f", "csv")
    assert code == 2 * extra, err
    if extra:
        assert err.count("\n") == 1
        assert "4 seat-and-bet tests (4 seats); one run makes at most 3: name the seats to test with --who" in err
        code, _, err = run(capsys, *args, "-f", "csv", "--who", "seat0")  # the seats named: within the limit
        assert code == 0, err


def test_detect_locates_each_unreadable_line_of_a_bets_table_and_keeps_the_others(capsys, tmp_path: Path):
    bets = tmp_path / "bets.csv"
    bets.write_text(
        'shoe,coup,who,bet,amount\n1,1,seat1,banker,10\n1,2,seat1,banker,10,9,9\n1,4,seat1,banker,10\n"1,3\n'
    )
    args = ("detect", str(DETECT), "--bets", str(bets), "--reference", "20", "--permutations", "9", "--seed", "1")
    code, out, err = run(capsys, *args, "-f", "json")
    assert code == 0, err
    payload = json.loads(out)
    located = [(p["line"], p["code"], p["message"]) for p in payload["problems"]]
    assert located == [
        (3, "bad_line", "line 3 has 7 fields; the column names give 5"),
        (5, "bad_line", "line 5 is not CSV: unexpected end of data"),
    ]
    assert [(s["who"], s["bets"]) for s in payload["seats"]] == [("seat1", 2)]  # lines 2 and 4: nothing else lost
    assert f"{bets}:3: shoe 1: line 3 has 7 fields" in err


def test_detect_refuses_a_bets_table_missing_a_column_in_one_line(capsys, tmp_path: Path):
    bets = tmp_path / "bets.csv"
    bets.write_text("shoe,coup,who,bet\n1,1,seat1,banker\n")
    code, out, err = run(capsys, "detect", str(DETECT), "--bets", str(bets), "--reference", "20", "--seed", "1")
    assert (code, out) == (2, "")
    needs = "a bets table needs the columns shoe, coup, who, bet, amount; missing amount"
    assert err == f"baccarat: error: {bets}: {needs}\n"


def test_detect_sets_aside_a_shoe_whose_coup_is_given_twice_and_says_where(capsys, tmp_path: Path):
    lines = DETECT.read_text().splitlines()
    third = next(i for i, line in enumerate(lines) if '"shoe":1,"coup":3,' in line)
    record = tmp_path / "twice.jsonl"
    record.write_text("\n".join([*lines[: third + 1], lines[third], *lines[third + 1 :]]) + "\n")
    args = ("--reference", "20", "--permutations", "9", "--seed", "1", "--bet", "banker", "-f", "json")
    code, out, err = run(capsys, "detect", str(record), *args)
    assert code == 0, err
    problems = json.loads(out)["problems"]
    assert (third + 2, "1", "duplicate_coup") in [(p["line"], p["shoe"], p["code"]) for p in problems]
    assert f"{record}:{third + 2}: shoe 1: duplicate coup 3: each coup appears once in a shoe" in err
    code, out, _ = run(capsys, "detect", str(DETECT), *args)
    whole = {s["who"]: s["shoes"] for s in json.loads(out)["seats"]}
    code, out, _ = run(capsys, "detect", str(record), *args)
    aside = {s["who"]: s["shoes"] for s in json.loads(out)["seats"]}
    assert aside == {who: shoes - 1 for who, shoes in whole.items()}  # shoe 1 set aside: every seat loses it


@pytest.mark.slow
def test_shuffle_track_at_its_most_riffles_runs_on_two_shoes(capsys):
    # the allowed maximum, -k 64 (65 is refused: tests/studies/test_shuffle_tracker.py), once ran out of memory; on two
    # shoes it now takes 12 s (70 s from a cold start) and 0.35 GB on a loaded two-core machine (/usr/bin/time -v)
    args = ("shuffle-track", "-k", "64", "-n", "2", "-s", "1", "-w", "1", "--no-progress", "-f", "json")
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert [r["model"] for r in json.loads(out)["rows"]] == ["64 riffles", "uniform"]
