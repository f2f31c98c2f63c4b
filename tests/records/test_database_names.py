"""A SQLite database is read from the file named, whatever its name, and nothing beside it is opened or written.

The reader once opened a database as a ``file:`` URI built from its path, so the *name* decided what was
opened: ``#`` starts a URI's fragment (``shoes#1.db`` opened, and created, ``shoes``; ``results#copy.db``
read the other database ``results``; ``ledger#2024.db`` opened ``ledger`` read-write, and SQLite rolled back
its hot journal, rewriting it), ``%2f`` is a slash (``..%2fvictim.db`` opened ``../victim.db``) and ``?``
starts the query (``db?mode=rwc&x=`` was opened read-write-create).  Each case below plants the neighbour
that name would have reached, reads the named file, and checks that (a) the shoes read are the named file's,
byte for byte the same as a plain-named copy of it gives, and (b) no file in the whole tree changed, appeared
or vanished (hashes before and after).
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run

from toolkit.records import read_records, simulate_records

#: Each hostile name, and the neighbour (relative to the file's folder) that the URI reading reached.
NAMES = {
    "shoes#1.db": "shoes",
    "results#copy.db": "results",
    "..%2fvictim.db": "../victim.db",
    "db?mode=rwc&x=": "db",
    "ledger#2024.db": "ledger",
}


def write_shoes(path: Path, n_shoes: int, seed: int) -> Path:
    """A database of ``n_shoes`` simulated shoes: a table ``coups`` of shoe, coup and the two hands' cards."""
    records = simulate_records(n_shoes, seed=seed)
    rows = records.coups.select("shoe", "coup", "player", "banker").iter_rows()
    connection = sqlite3.connect(path)
    try:
        connection.execute("CREATE TABLE coups (shoe INTEGER, coup INTEGER, player TEXT, banker TEXT)")
        connection.executemany(
            "INSERT INTO coups VALUES (?, ?, ?, ?)", [(s, c, " ".join(p), " ".join(b)) for s, c, p, b in rows]
        )
        connection.commit()
    finally:
        connection.close()
    return path


def snapshot(root: Path) -> dict[str, str]:
    """Every file below ``root`` (its path relative to it) and the SHA-256 of its bytes."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()
    }


def plant_hot_journal(path: Path) -> None:
    """A database at ``path`` whose writer died mid-transaction, leaving a hot rollback journal beside it."""
    script = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('CREATE TABLE t (x)')\n"
        "c.executemany('INSERT INTO t VALUES (?)', [(i,) for i in range(5000)])\n"
        "c.commit()\n"
        "c.execute('PRAGMA cache_size = 1')\n"  # the update spills pages into the file: the journal is hot
        "c.execute('BEGIN')\n"
        "c.execute('UPDATE t SET x = x + 1')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    assert Path(f"{path}-journal").stat().st_size > 0


def plant(folder: Path, name: str) -> Path:
    """The named database (3 shoes) and the neighbour its name reached (another database, of 5 shoes)."""
    neighbour = (folder / NAMES[name]).resolve()
    if name.startswith("ledger"):
        plant_hot_journal(neighbour)
    else:
        write_shoes(neighbour, 5, seed=2)
    return write_shoes(folder / name, 3, seed=1)


@pytest.mark.parametrize("name", list(NAMES))
def test_a_database_is_read_from_the_file_named_and_nothing_else_changes(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    named = plant(folder, name)
    plain = shutil.copyfile(named, tmp_path / "plain.db")
    expected = read_records(plain)
    before = snapshot(tmp_path)
    got = read_records(named)
    assert snapshot(tmp_path) == before
    assert got.n_shoes == expected.n_shoes == 3
    assert got.coups.equals(expected.coups)
    assert got.report.ok


def test_a_wal_database_is_read_without_files_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    write_shoes(path, 4, seed=3)
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    connection.close()
    assert path.read_bytes()[18:20] == b"\x02\x02"  # the header says WAL
    before = snapshot(tmp_path)
    records = read_records(path)
    assert snapshot(tmp_path) == before  # no -wal, no -shm
    assert records.n_shoes == 4


@pytest.mark.parametrize("name", ["shoes#1.db", "results#copy.db"])
def test_validate_and_convert_read_the_database_named(capsys, tmp_path: Path, name: str) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    named = plant(folder, name)
    plain = shutil.copyfile(named, tmp_path / "plain.db")
    before = snapshot(folder)
    code, out, _ = run(capsys, "validate", str(named), "--format", "json")
    plain_code, plain_out, _ = run(capsys, "validate", str(plain), "--format", "json")
    assert code == plain_code
    assert out.replace(str(named), "") == plain_out.replace(str(plain), "")
    out_path = tmp_path / "out.parquet"
    plain_path = tmp_path / "plain.parquet"
    code, _, _ = run(capsys, "convert", str(named), "--out", str(out_path))
    plain_code, _, _ = run(capsys, "convert", str(plain), "--out", str(plain_path))
    assert code == plain_code
    assert snapshot(folder) == before
    assert read_records(out_path).coups.equals(read_records(plain_path).coups)
