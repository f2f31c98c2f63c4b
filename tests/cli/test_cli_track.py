"""``baccarat track``: a recorded shoe fed through a pipe gives replay's numbers; a session in a pseudo-terminal.

The pipe tests run the command in-process with its standard input replaced; the terminal test spawns it in a
pseudo-terminal (pexpect) and types at it as a person would.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from cli_helpers import run

from toolkit.records import read_records, replay, simulate_records

ROOT = Path(__file__).resolve().parents[2]
BETS = "banker,player,tie,dragon7,panda8"
SYSTEMS = "dragon7,panda8"


def typed(records, shoe) -> str:
    """What a watcher types for a recorded shoe: the burn card, ? for the face-down burns, the coups' cards."""
    cards = records.cards.filter(pl.col("shoe") == shoe).sort("position")
    first = cards.filter(pl.col("role") == "burn")["card"][0]
    dealt = cards.filter(pl.col("role").is_in(["player", "banker"]))["card"].to_list()
    return first[0].lower() + "?" + "".join(c[0].lower() for c in dealt)


def feed(monkeypatch, capsys, keys: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(keys))
    return run(capsys, "track", *args)


def test_a_recorded_shoe_through_a_pipe_gives_replays_coups_counts_and_edges(monkeypatch, capsys, tmp_path):
    records = simulate_records(1, seed=21)
    out = tmp_path / "session.parquet"
    code, stdout, err = feed(
        monkeypatch, capsys, typed(records, 1), "--bets", BETS, "--systems", SYSTEMS, "--jsonl", "--out", str(out)
    )
    assert code == 0, err
    assert "saved to" in err
    events = [json.loads(line) for line in stdout.splitlines()]
    assert not [e for e in events if e["kind"] in ("error", "tableau")]
    coups = [e for e in events if e["kind"] == "coup"]
    expected = replay(records, systems=SYSTEMS.split(","), bets=BETS.split(","))
    assert len(coups) == expected.height
    assert [c["winner"] for c in coups] == expected["winner"].to_list()
    # after coup k the tracker shows the numbers before coup k + 1: replay's row k + 1
    for event, row in zip(coups[:-1], expected[1:].iter_rows(named=True), strict=True):
        nxt = event["next"]
        assert nxt["cards_unseen"] == row["cards_unseen"]
        for bet in BETS.split(","):
            assert nxt["expected_value"][bet] == pytest.approx(row[f"ev_{bet}"], abs=1e-12)
        for system in SYSTEMS.split(","):
            assert nxt["running"][system] == row[f"rc_{system}"]
            assert nxt["true"][system] == pytest.approx(row[f"tc_{system}"], abs=1e-12)
    # the saved session validates and replays to the same coups, counts and edges
    code, stdout, _ = run(capsys, "validate", str(out))
    assert code == 0
    assert "1 of 1 shoe(s) valid" in stdout
    again = replay(read_records(out), systems=SYSTEMS.split(","), bets=BETS.split(","))
    for column in expected.columns:
        if column.startswith(("ev_", "tc_")):
            assert np.allclose(again[column].to_numpy(), expected[column].to_numpy(), rtol=0, atol=1e-12), column
        elif column != "shoe":
            assert again[column].to_list() == expected[column].to_list(), column


def test_bad_keys_and_a_tableau_violation_get_their_messages(monkeypatch, capsys, tmp_path):
    out = tmp_path / "s.csv"
    code, stdout, err = feed(monkeypatch, capsys, "z4?2k3k\n!k4\n", "--bets", "banker", "--out", str(out))
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines[0].startswith("[error] unknown key 'z'")
    assert "[tableau] tableau: Player must draw on 5: a third card is missing" in stdout
    assert "[error] unknown key '!'" in stdout
    assert "[coup] coup 1: Player 2 3 K (5), Banker K K 4 (4): player" in stdout
    assert "[info] no coup in progress" in stdout
    assert read_records(out).coups.height == 1


def test_the_signal_when_a_bet_turns_positive(monkeypatch, capsys):
    # one deck without its eights and nines: few naturals, and the Small bet turns positive
    code, stdout, _ = feed(
        monkeypatch, capsys, "9999" + "8888\n", "--decks", "1", "--burn", "none", "--bets", "small,big"
    )
    assert code == 0
    assert ">>> EDGE: small" in stdout or ">>> EDGE: big" in stdout


def test_nothing_typed_saves_nothing(monkeypatch, capsys, tmp_path):
    code, _, err = feed(monkeypatch, capsys, "", "--out", str(tmp_path / "s.csv"))
    assert code == 0
    assert "nothing saved" in err
    assert not (tmp_path / "s.csv").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--burn", "sideways"], "burn"),
        (["--bets", "bankr"], "unknown bet 'bankr'"),
        (["--systems", "dragon8"], "unknown count system"),
        (["--header", "commission"], "key=value"),
        (["--out", "session.txt"], "suffix"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(monkeypatch, capsys, args, message):
    code, _, err = feed(monkeypatch, capsys, "", *args)
    assert code == 2
    assert message in err


def test_a_session_in_a_pseudo_terminal(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    if os.name != "posix":
        pytest.skip("pseudo-terminals are POSIX")
    out = tmp_path / "pty.csv"
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "toolkit.cli", "track", "--bets", "banker,dragon7", "--systems", "dragon7", "--out", str(out)],
        env=env,
        dimensions=(50, 120),
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect("next: exposed burn card")
        child.send("z")
        child.expect("unknown key 'z'")
        child.send("4")
        child.expect("4 card\\(s\\) burned face down")
        child.send("?")
        child.expect("4 face-down burned card\\(s\\) unseen")
        child.send("2k3k")
        child.expect("Banker gets K")
        child.send("\r")
        child.expect("Player must draw on 5")
        child.send("\x1b[A")  # an arrow key is one key, and a bad one
        child.expect("unknown key")
        child.send("k4")
        child.expect("coup 1: Player 2 3 K \\(5\\), Banker K K 4 \\(4\\): player")
        child.send("\x7f")  # backspace undoes
        child.expect("undone: 4")
        child.send("5")
        child.expect("coup 1: Player 2 3 K \\(5\\), Banker K K 5 \\(5\\): tie")
        child.send("x")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    records = read_records(out)
    assert records.report.ok
    assert records.coups["banker"].to_list() == [["K", "K", "5"]]
