"""Players files: every kind read from TOML, each refusal one line naming the file; then simulate and detect."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import run
from non_regular import KINDS, non_regular

from toolkit.protection import Counter, FlatBettor, Progression, RoadFollower, Team
from toolkit.protection.players_file import MAX_PLAYERS, MAX_PLAYERS_FILE_BYTES, read_players
from toolkit.records import read_records

TABLE = """
[[player]]
kind = "counter"
who = "seat3"
system = "dragon7"
ramp = { "4" = 5, "6.5" = 10 }
miss_rate = 0.05
rounding = "floor"

[[player]]
kind = "flat"
who = "seat1"
bet = "tie"
rate = 0.25
amounts = [5, 25]

[[player]]
kind = "progression"
who = "seat2"
system = "fibonacci"
bet = "player"

[[player]]
kind = "road"
who = "seat4"
mode = "streak"

[[player]]
kind = "team"
spotter = "seat5"
big_player = "seat6"
units = 50
"""


def test_every_kind_of_player_reads_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TABLE)
    players = read_players(path)
    assert players == [
        Counter("seat3", "dragon7", ramp={4: 5, 6.5: 10}, miss_rate=0.05, rounding="floor"),
        FlatBettor("seat1", "tie", rate=0.25, amounts=(5, 25)),
        Progression("seat2", "fibonacci", bet="player"),
        RoadFollower("seat4", "streak"),
        Team("seat5", "seat6", units=50),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[player]]\nkind = "counter"\nwho = "a"\nspeed = 3\n', "player 1 (counter): unknown key 'speed'"),
        ('[[player]]\nkind = "wonger"\nwho = "a"\n', "player 1: 'kind' must be one of"),
        ('[[player]]\nwho = "a"\n', "'kind' must be one of"),
        ('[[player]]\nkind = "flat"\nwho = "a"\nrate = 3\n', "player 1 (flat): a: rate must be between 0 and 1"),
        ('[[player]]\nkind = "counter"\nwho = "a"\nramp = { "x" = 1 }\n', "ramp keys must be true counts"),
        ('[[player]]\nkind = "counter"\nwho = "a"\nsystem = "hilo"\n', "unknown count system 'hilo'"),
        ("seats = 3\n", "unknown key 'seats'"),
        ("", "no players"),
        ("[[player]\n", "not valid TOML"),
        ("[[player]]\n" + '[[player]]\nkind = "flat"\nwho = "a"\n', "player 1: 'kind' must be"),
    ],
)
def test_a_bad_players_file_is_refused_in_one_line(tmp_path: Path, text, message) -> None:
    path = tmp_path / "table.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        read_players(path)
    assert str(path) in str(caught.value)
    assert len(str(caught.value).splitlines()) == 1


def test_players_files_are_bounded(tmp_path: Path) -> None:
    many = tmp_path / "many.toml"
    many.write_text("".join(f'[[player]]\nkind = "flat"\nwho = "s{i}"\n' for i in range(MAX_PLAYERS + 1)))
    with pytest.raises(ValueError, match=f"seats at most {MAX_PLAYERS}"):
        read_players(many)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_PLAYERS_FILE_BYTES + 1))
    with pytest.raises(ValueError, match="1 MiB"):
        read_players(big)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[[player]]\nkind = "flat"\nwho = "s\xe9"\n')
    with pytest.raises(ValueError, match="not UTF-8"):
        read_players(latin)
    with pytest.raises(ValueError, match="no such players file"):
        read_players(tmp_path / "missing.toml")


@pytest.mark.parametrize("kind", KINDS)
def test_a_non_regular_players_file_is_refused_before_it_is_read(tmp_path: Path, kind) -> None:
    with pytest.raises(ValueError, match="players file"):
        read_players(non_regular(tmp_path, kind))


def test_simulate_players_writes_a_record_that_detect_reads(capsys, tmp_path: Path) -> None:
    players = tmp_path / "table.toml"
    players.write_text(TABLE)
    out = tmp_path / "table.jsonl"
    code, said, err = run(
        capsys, "simulate", "--players", str(players), "--shoes", "12", "--seed", "5", "--out", str(out), "--decks", "6"
    )
    assert code == 0, err
    assert "wrote 12 shoes with" in said
    records = read_records(out)
    assert records.n_shoes == 12
    assert records.header.dealing.decks == 6
    assert set(records.bets["who"].unique()) == {f"seat{i}" for i in range(1, 7)}
    code, said, err = run(capsys, "detect", str(out), "-f", "json", "--seed", "1", "--reference", "300")
    assert code == 0, err
    seats = {(s["who"], s["bet"]): s for s in json.loads(said)["seats"]}
    assert seats["seat6", "dragon7"]["flagged"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "{tmp}/t.parquet", "--coups", "20"], "--coups is not used"),
        (["--out", "{tmp}/t.txt"], "record file with --players"),
        (["--out", "{tmp}/t.csv", "--workers", "2"], "--workers and --scheduler are not used"),
        (["--out", "{tmp}/t.csv", "--shoes", "200000"], "--shoes must be at most 100,000"),
    ],
)
def test_simulate_players_refusals(capsys, tmp_path: Path, args, message) -> None:
    players = tmp_path / "table.toml"
    players.write_text(TABLE)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err = run(capsys, "simulate", "--players", str(players), "--seed", "1", *argv)
    assert code == 2
    assert message in err
