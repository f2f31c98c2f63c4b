"""``baccarat track``: a recorded shoe fed through a pipe gives replay's numbers; a session in a pseudo-terminal.

The pipe tests run the command in-process with its standard input replaced; the terminal test spawns it in a
pseudo-terminal (pexpect) and types at it as a person would.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from cli_helpers import run

from toolkit.records import read_records, replay_records, simulate_records

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
    expected = replay_records(records, systems=SYSTEMS.split(","), bets=BETS.split(","))
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
    again = replay_records(read_records(out), systems=SYSTEMS.split(","), bets=BETS.split(","))
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
    # money in units staked, as everywhere in the command line: an edge of 14.7 % of the bet is +0.14707
    words = " ".join(stdout.split())  # lines are wrapped to the terminal
    assert re.search(r">>> EDGE \(per unit staked\): (small|big) \+0\.\d{5}\b", words), stdout
    assert "%" not in words.replace("(-0.0106 = -1.06% of the bet)", "")


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
        timeout=None,  # expect waits for its line however loaded the machine; a child that dies ends it (EOF)
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
        child.expect("undid: Banker draws 4, closing coup 1 \\(coup 1 is open again\\); next: Banker")
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


# ---------------------------------------------------------------------------- the session's file
@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: Path("/proc/tonight.csv"), "cannot write in '/proc'"),
        (lambda d: d / "no-such-folder" / "tonight.csv", "does not exist"),
        (lambda d: os.symlink("/dev/full", d / "full.csv") or d / "full.csv", "symbolic link"),
        (lambda d: os.mkfifo(d / "pipe.csv") or d / "pipe.csv", "not a regular file"),
    ],
    ids=["proc", "no-folder", "link-to-dev-full", "fifo"],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_session_starts(
    monkeypatch, capsys, tmp_path, make, message
):
    code, stdout, err = feed(monkeypatch, capsys, "4?2k3kk4", "--bets", "banker", "--out", str(make(tmp_path)))
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert stdout == ""  # no key was read: the session never started


def test_a_symlink_planted_at_out_is_refused_and_its_target_untouched(monkeypatch, capsys, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "tonight.csv"
    link.symlink_to(target)
    code, stdout, err = feed(monkeypatch, capsys, "4?2k3kk4", "--out", str(link))
    assert code == 2
    assert "symbolic link" in err
    assert stdout == ""
    assert link.is_symlink()
    assert target.read_text() == "keep me\n"


def test_a_failed_autosave_is_reported_and_the_session_goes_on(monkeypatch, capsys, tmp_path):
    from toolkit.live import autosave

    real, calls = autosave.atomic_write, []

    def full_disk_at_first(path, data, where="output"):
        calls.append(path)
        if len(calls) <= 2:
            raise OSError(28, "No space left on device")
        return real(path, data, where)

    monkeypatch.setattr(autosave, "atomic_write", full_disk_at_first)
    out = tmp_path / "tonight.csv"
    code, stdout, err = feed(monkeypatch, capsys, "4?2k3kk4" + "9k9k" + "4k5k", "--bets", "banker", "--out", str(out))
    assert code == 0, err
    assert err.count("autosave failed: cannot save to") == 2
    assert "No space left on device; the session goes on" in err
    assert stdout.count("[coup]") == 3  # every coup was followed
    # coup 1 (failed), the next key's retry (failed), the retry after it, coups 2 and 3, the final save
    assert len(calls) == 6
    assert read_records(out).coups.height == 3


def test_a_final_save_that_fails_gives_the_keys_to_type_again(monkeypatch, capsys, tmp_path):
    from toolkit.live import autosave

    def full_disk(path, data, where="output"):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave, "atomic_write", full_disk)
    code, _, err = feed(monkeypatch, capsys, "4?2k3kk4\n9k9k", "--bets", "banker", "--out", str(tmp_path / "s.csv"))
    assert code == 2
    assert "the keys typed, to feed again through a pipe: 4?2k3kk49k9k" in err
    assert err.strip().splitlines()[-1].startswith("baccarat: error: --out: cannot save to")


# ---------------------------------------------------------------------------- in a pseudo-terminal
def spawn(pexpect, out: Path, *args: str, rows: int = 50, columns: int = 120):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color")
    return pexpect.spawn(
        sys.executable,
        ["-m", "toolkit.cli", "track", *args, "--out", str(out)],
        env=env,
        dimensions=(rows, columns),
        encoding="utf-8",
        timeout=None,  # expect waits for its line however loaded the machine; a child that dies ends it (EOF)
    )


ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>78])")


def test_a_session_killed_mid_coup_keeps_every_finished_coup(capsys, tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "tonight.csv"
    child = spawn(pexpect, out, "--bets", "banker,tie,dragon7", "--systems", "dragon7")
    try:
        child.expect("next: exposed burn card")
        child.send("4?2k3kk4")
        child.expect("saved: 1 coup\\(s\\)")
        child.send("9k9k")
        child.expect("saved: 2 coup\\(s\\)")
        child.send("4k5k")
        child.expect("saved: 3 coup\\(s\\)")
        child.send("2k")  # a coup being dealt when the process dies
        child.expect("this coup: 2 K")
        child.kill(9)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.signalstatus == 9
    code, stdout, _ = run(capsys, "validate", str(out))
    assert code == 0
    assert "1 of 1 shoe(s) valid" in stdout
    coups = read_records(out).coups
    assert coups["banker"].to_list() == [["K", "K", "4"], ["K", "K"], ["K", "K"]]
    assert [p.name for p in tmp_path.iterdir()] == ["tonight.csv"]  # no temporary file left


def test_a_burst_of_keys_with_an_arrow_in_it_loses_no_key(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "burst.csv"
    child = spawn(pexpect, out, "--bets", "banker")
    try:
        child.expect("next: exposed burn card")
        child.send("4?\x1b[A2 k 3 k k 4")  # one write: the terminal hands it over in one read
        child.expect("coup 1: Player 2 3 K \\(5\\), Banker K K 4 \\(4\\): player")
        child.send("x")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert read_records(out).coups["player"].to_list() == [["2", "3", "K"]]


def test_ctrl_c_while_waiting_for_a_key_stops_and_saves_and_undo_says_what_it_undid(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "stopped.csv"
    child = spawn(pexpect, out, "--bets", "banker")
    try:
        child.expect("next: exposed burn card")
        child.send("4?")
        child.expect("4 face-down burned card\\(s\\) unseen")
        child.send("z")
        child.expect("unknown key 'z'")
        child.send("u")  # takes back the ? (the refused z changed nothing), and says so
        child.expect("the last key, 'z', changed nothing; undid: the face-down burn marked unseen \\(\\?\\);")
        child.expect("next: face-down burn card 1 of 4 \\(or \\?\\)")
        child.send("?2k3kk4")
        child.expect("saved: 1 coup\\(s\\)")
        child.send("\x03")  # Ctrl-C while the tracker waits for a key
        child.expect("1 coup\\(s\\) saved to")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    records = read_records(out)
    assert records.report.ok
    assert records.coups.height == 1


def test_the_screen_fits_80_by_24_with_every_standard_bet(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "fit.csv"
    child = spawn(pexpect, out, "--systems", "dragon7,panda8", rows=24, columns=80)
    try:
        child.expect("next: exposed burn card")
        child.send("4?2k3kk4")
        child.expect("saved: 1 coup\\(s\\)")
        child.send("9k")
        child.expect("this coup: 9 K")
        child.send("x")
        child.expect(pexpect.EOF)
        text = child.before
    finally:
        child.close()
    # the last screen, printed again when the session ends (after the terminal leaves the full-screen mode)
    final = ANSI.sub("", text.rsplit("\x1b[?1049l", 1)[-1]).split("\r\n")
    screen = final[: next(i for i, line in enumerate(final) if line.startswith("baccarat track: 1 coup(s) saved"))]
    screen = [line for line in screen if line]
    assert 10 <= len(screen) <= 24, screen
    assert max(len(line) for line in screen) <= 80, screen
    assert screen[-1].startswith("keys: ")
    assert "this coup: 9 K" in screen
    assert sum("coup 1: Player 2 3 K (5)" in line for line in screen) == 1  # the last coup once
    assert any("small" in line for line in screen) or any("more" in line for line in screen)


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (60, 16), (120, 40)])
def test_every_screen_fits_the_terminal_and_ends_with_the_keys(tmp_path: Path, columns: int, rows: int):
    from rich.console import Console

    from toolkit.cli.track import KEYS_LINE, _screen
    from toolkit.live import Panel, Tracker
    from toolkit.live.autosave import SessionFile

    tracker = Tracker(panel=Panel.of(systems=["dragon7", "panda8", "how_dragon7"]))  # every standard bet
    saving = SessionFile(tmp_path / "s.csv")
    saving.error = "cannot save to '/somewhere/far/away/tonight.csv': No space left on device"
    states = []
    for keys in ["", "4", "4?2k3kk4", "4?2k3kk49k9k2k", "4?2k3kk49k9k2k3k\r", "4?2k3kk4zh"]:
        tracker = Tracker(panel=tracker.panel)
        feedback = tracker.feed(keys)
        states.append((tracker, feedback[-1] if feedback else None))
    for tracker, last in states:
        for save in (None, saving):
            console = Console(width=columns, height=rows, file=io.StringIO(), color_system=None, record=True)
            console.print(_screen(tracker, last, save, (columns, rows)))
            lines = console.export_text().rstrip("\n").split("\n")
            assert len(lines) <= rows, lines
            assert max(len(line) for line in lines) <= columns, lines
            assert lines[-1] == KEYS_LINE[:columns] or lines[-1].startswith("keys:"), lines
            if last is not None and last.kind == "coup":
                assert sum(tracker.coups[-1].describe() in line for line in lines) == 1  # the last coup once
