"""Reading the files that are not tables of rows: text reports with shoe blocks, and SQLite databases.

Private to :mod:`toolkit.records.read`.

A *text report* prints each shoe as a block under a line ``Shoe number N`` (``Shoe N``,
``Shoe #N``), one coup a line, among summary lines it does not read (``Shoe results:``,
``Banco: 31``).  A coup line holds, separated by commas (or tabs, ``;``), a winner letter,
the two totals and the two hands of three cards each (``x`` or ``-`` where a hand has no
third card), as ``rjsilvestre/baccarat`` (``baccarat-sim.py``, commit 0103d6f) writes
``P,5,7,2,1,2,6,7,4``: winner, Banco's total, Punto's total, Banco's cards, Punto's cards.
Which hand comes first is told by the winners: in the coups with a winner, it is the hand
whose total beats the other's when that side wins.

A *SQLite database* is opened read-only (``file:...?mode=ro``); each table whose columns
hold coups (as :func:`toolkit.records._formats.recognise` finds them) is read, its rows
numbered from 1 (problems name the table and the row); several such tables become one record
whose shoe ids are prefixed by the table name.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import polars as pl

from toolkit.records._formats import NO_CARD, Reading, recognise
from toolkit.records._raw import LineProblem, Raw, UnreadableError, canonical_columns

__all__ = ["SQLITE_MAGIC", "is_report", "read_database", "read_report"]

#: The first bytes of a SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"
_SHOE_LINE = re.compile(r"^\s*shoe\s*(?:number|no\.?|nr\.?|#)?\s*#?\s*(\d+)\s*:?\s*$", re.IGNORECASE)
_WINNER = {"p": "player", "b": "banker", "t": "tie"}


def is_report(text: str) -> bool:
    """Whether a text holds shoe blocks (a line ``Shoe number N`` among its first lines)."""
    return any(_SHOE_LINE.match(line) for line in text.split("\n", 200)[:200])


def _fields(line: str) -> list[str]:
    return [f.strip() for f in re.split(r"[,;\t]", line)]


def _value(card: str) -> int | None:
    return int(card) % 10 if card.isdigit() else None


def _total(cards: list[str]) -> int | None:
    values = [_value(c) for c in cards if c.lower() not in NO_CARD]
    return None if any(v is None for v in values) else sum(v for v in values if v is not None) % 10


def read_report(text: str) -> tuple[Raw, str]:
    """The coups of a text report with shoe blocks (see the module notes) as the per-coup layout."""
    raw = Raw()
    shoe: str | None = None
    coup = 0
    rows: list[tuple[int, str, int, str, list[str], list[str], str, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        header = _SHOE_LINE.match(line)
        if header:
            shoe, coup = header.group(1), 0
            continue
        fields = _fields(line)
        if shoe is None or len(fields) < 2 or fields[0].lower() not in _WINNER:
            continue  # blank lines, summaries ("Shoe results:", "Banco: 31")
        if len(fields) != 9:
            raw.problems.append(
                LineProblem(
                    number,
                    shoe,
                    "bad_line",
                    f"line {number} has {len(fields)} fields; a coup line of a shoe report holds 9: the winner, "
                    "the two totals and the two hands of three cards (x where a hand has no third card)",
                )
            )
            continue
        coup += 1
        rows.append((number, shoe, coup, fields[0], fields[3:6], fields[6:9], fields[1], fields[2]))
    if not rows:
        raise UnreadableError("empty_file", "the report holds shoe blocks but no coup lines")
    first_is_banker = _first_hand_is_banker(rows)
    first, second = ("banker", "player") if first_is_banker else ("player", "banker")

    def hand(cards: list[str]) -> list[str]:
        return [c for c in cards if c.lower() not in NO_CARD]

    frame = pl.DataFrame(
        {
            "shoe": [r[1] for r in rows],
            "coup": [str(r[2]) for r in rows],
            first: [hand(r[4]) for r in rows],
            second: [hand(r[5]) for r in rows],
            "winner": [_WINNER[r[3].lower()] for r in rows],
            "line": [r[0] for r in rows],
        },
        schema={
            "shoe": pl.String,
            "coup": pl.String,
            first: pl.List(pl.String),
            second: pl.List(pl.String),
            "winner": pl.String,
            "line": pl.Int64,
        },
    )
    raw.frame = frame.select("shoe", "coup", "player", "banker", "winner", "line")
    said = f"a text report of shoe blocks ('Shoe number N'): winner, totals, {first}'s cards, {second}'s cards"
    return raw, said


def _first_hand_is_banker(rows: list[tuple[int, str, int, str, list[str], list[str], str, str]]) -> bool:
    """Whether the first hand of the coup lines is Banker's: the side whose total wins when it is said to win."""
    votes = 0
    for _, _, _, winner, one, two, _, _ in rows:
        a, b = _total(one), _total(two)
        if a is None or b is None or a == b or winner.lower() == "t":
            continue
        first_wins = a > b
        votes += 1 if first_wins == (winner.lower() == "b") else -1
    return votes > 0


def read_database(path: Path, reading: Reading) -> tuple[Raw, str, str | None]:
    """The coups of every table of a SQLite database that holds them, read-only; what was read; the one table."""
    uri = f"file:{path.resolve().as_posix()}?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as err:
        raise UnreadableError("unreadable", f"not a readable SQLite database: {err}") from None
    try:
        tables = [
            name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        found: list[tuple[str, Raw, str]] = []
        for table in tables:
            raw = _table(connection, table)
            if raw is None:
                continue
            recognised, said = recognise(raw, reading)
            if said or "shoe" in recognised.frame.columns:
                found.append((table, recognised, said))
    except sqlite3.Error as err:
        raise UnreadableError("unreadable", f"not a readable SQLite database: {err}") from None
    finally:
        connection.close()
    if not found:
        raise UnreadableError(
            "missing_column", f"none of the database's {len(tables)} table(s) ({', '.join(tables)}) holds coups"
        )
    if len(found) == 1:
        table, raw, said = found[0]
        return raw, f"table {table!r}: {said}", table
    parts = [raw.frame.with_columns((pl.lit(f"{table}:") + pl.col("shoe")).alias("shoe")) for table, raw, _ in found]
    raw = Raw(pl.concat(parts, how="diagonal_relaxed"))
    for _, part, _ in found:
        raw.problems.extend(part.problems)
    return raw, f"{len(found)} tables ({', '.join(t for t, _, _ in found)}): {found[0][2]}", None


def _table(connection: sqlite3.Connection, table: str) -> Raw | None:
    """One table's rows, every value as text, numbered from 1; ``None`` for an empty one."""
    quoted = '"' + table.replace('"', '""') + '"'
    cursor = connection.execute(f"SELECT * FROM {quoted}")
    columns = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    if not rows:
        return None
    data = {name: pl.Series(name, [_cell(r[i]) for r in rows], dtype=pl.String) for i, name in enumerate(columns)}
    frame = canonical_columns(pl.DataFrame(data)).with_row_index("line", offset=1)
    return Raw(frame.with_columns(pl.col("line").cast(pl.Int64)))


def _cell(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)
