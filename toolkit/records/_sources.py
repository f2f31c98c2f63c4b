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

A *SQLite database* is read from its bytes, in memory (never opened by name, so a name
such as ``shoes#1.db`` opens no other file and nothing beside it is written); each table whose columns
hold coups (as :func:`toolkit.records._formats.recognise` finds them) is read, its rows
numbered from 1 (problems name the table and the row); several such tables become one record
whose shoe ids are prefixed by the table name.
"""

from __future__ import annotations

import re
import sqlite3

import polars as pl

from toolkit.records._formats import NO_CARD, Reading, recognise
from toolkit.records._layout import Layout, apply_layout
from toolkit.records._raw import (
    LineProblem,
    Raw,
    UnreadableError,
    canonical_columns,
    cut,
    refuse_length,
    refuse_width,
)
from toolkit.records._text import MAX_LINE_BYTES

__all__ = ["SQLITE_MAGIC", "is_coup_lines", "is_report", "open_database", "read_database", "read_report"]

#: The first bytes of a SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"
_SHOE_LINE = re.compile(r"^\s*shoe\s*(?:number|no\.?|nr\.?|#)?\s*#?\s*(\d+)\s*:?\s*$", re.IGNORECASE)
_WINNER = {"p": "player", "b": "banker", "t": "tie"}
_COUP_START = re.compile(r"^[PBTpbt]\s*[,;\t]")


def is_report(text: str) -> bool:
    """Whether a text holds shoe blocks (a line ``Shoe number N`` among its first lines)."""
    return any(_SHOE_LINE.match(line) for line in text.split("\n", 200)[:200])


def is_coup_lines(text: str) -> bool:
    """Whether a text without column names is coup lines (``P,5,7,2,1,2,6,7,4``): most of its first lines are."""
    first = [line for line in text.split("\n", 200)[:200] if line.strip()]
    coups = sum(1 for line in first if _COUP_START.match(line) and len(re.split(r"[,;\t]", line)) == 9)
    return bool(first) and coups * 10 >= len(first) * 9


def read_report(text: str, blocks: bool = True) -> tuple[Raw, str]:
    """The coups of a text report with shoe blocks (see the module notes) as the per-coup layout.

    Without ``blocks`` the text is coup lines alone (no column names): one shoe, or a new one
    after each blank line.
    """
    raw = Raw()
    numbers: list[int] = []
    shoes: list[str] = []
    lines: list[str] = []
    shoe: str | None = None if blocks else "1"
    begun: dict[str, int] = {}  # the shoe numbers whose block has begun, and the line that began it
    blank = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line[:1] in "PBTpbt" and shoe is not None and _COUP_START.match(line):
            if blank and not blocks and lines:
                shoe = str(int(shoe) + 1)
            blank = False
            numbers.append(number)
            shoes.append(shoe)
            lines.append(line)
            continue
        blank = blank or not line.strip()
        header = _SHOE_LINE.match(line) if "hoe" in line[:8].lower() or "HOE" in line[:8] else None
        if header:
            shoe = header.group(1)
            if shoe in begun:  # a second block for one shoe number: never merged into the first
                raw.problems.append(
                    LineProblem(
                        number,
                        shoe,
                        "duplicate_shoe",
                        f"a second block for shoe {shoe} begins at line {number} (the first at line {begun[shoe]}): "
                        "a shoe number heads one block",
                    )
                )
            begun.setdefault(shoe, number)
    if not lines:
        raise UnreadableError("empty_file", "the report holds shoe blocks but no coup lines")
    frame = pl.DataFrame(
        {"line": pl.Series(numbers, dtype=pl.Int64), "shoe": shoes, "_text": pl.Series(lines, dtype=pl.String)}
    ).with_columns(
        pl.col("_text")
        .str.replace_all(r"[;\t]", ",")
        .str.split(",")
        .list.eval(pl.element().str.strip_chars())
        .alias("_f")
    )
    n_fields = pl.col("_f").list.len()
    for number, shoe_id, n in frame.filter(n_fields != 9).select("line", "shoe", n_fields).iter_rows():
        raw.problems.append(
            LineProblem(
                number,
                shoe_id,
                "bad_line",
                f"line {number} has {n} fields; a coup line of a shoe report holds 9: the winner, "
                "the two totals and the two hands of three cards (x where a hand has no third card)",
            )
        )
    frame = frame.filter(n_fields == 9)

    def hand(first: int) -> pl.Expr:
        cards = pl.col("_f").list.slice(first, 3)
        return cards.list.eval(pl.element().filter(~pl.element().str.to_lowercase().is_in(NO_CARD)))

    frame = frame.with_columns(
        pl.int_range(1, pl.len() + 1).over("shoe").cast(pl.String).alias("coup"),
        pl.col("_f").list.get(0).str.to_lowercase().replace_strict(_WINNER, default=None).alias("winner"),
        hand(3).alias("_one"),
        hand(6).alias("_two"),
    )
    first_is_banker = _first_hand_is_banker(frame)
    first, second = ("banker", "player") if first_is_banker else ("player", "banker")
    frame = frame.rename({"_one": first, "_two": second})
    raw.frame = frame.select("shoe", "coup", "player", "banker", "winner", "line")
    what = "a text report of shoe blocks ('Shoe number N')" if blocks else "coup lines without column names"
    said = f"{what}: winner, totals, {first}'s cards, {second}'s cards" + (
        "" if blocks else ", shoes split by blank lines"
    )
    return raw, said


#: A card text's baccarat value, by its rank or number (a suit after it is ignored): ``A`` 1, ``2-9``, tens and faces 0.
_VALUE = {"a": 1, "t": 0, "j": 0, "q": 0, "k": 0, **{str(n): n % 10 if n < 10 else 0 for n in range(14)}}


def _first_hand_is_banker(frame: pl.DataFrame) -> bool:
    """Whether the first hand of the coup lines is Banker's: the side whose total wins when it is said to win.

    Only the coups with a winner and two different totals tell the order; when none does (only ties,
    or cards that are not read) or they are split evenly, the order is ambiguous: :class:`UnreadableError`.
    """

    def total(side: str) -> pl.Expr:
        rank = pl.element().str.strip_chars().str.to_lowercase().str.extract(r"^(1[0-3]|[0-9]|[atjqk])")
        values = pl.col(side).list.eval(rank.replace_strict(_VALUE, default=None, return_dtype=pl.Int64))
        return pl.when(values.list.eval(pl.element().is_null()).list.any()).then(None).otherwise(values.list.sum() % 10)

    votes = frame.select(total("_one").alias("a"), total("_two").alias("b"), pl.col("winner")).filter(
        pl.col("a").is_not_null() & pl.col("b").is_not_null() & (pl.col("a") != pl.col("b"))
    )
    votes = votes.filter(pl.col("winner").is_in(["player", "banker"]))
    agree = ((pl.col("a") > pl.col("b")) == (pl.col("winner") == "banker")).cast(pl.Int64) * 2 - 1
    said = int(votes.select(agree.sum()).item()) if votes.height else 0
    if said == 0:
        why = (
            "no coup has a winner and two different totals (only ties, or cards that cannot be read)"
            if not votes.height
            else f"its {votes.height:,} coups with a winner are split evenly between the two orders"
        )
        raise UnreadableError(
            "ambiguous_order",
            f"which hand a coup line gives first (Player's or Banker's) cannot be told: {why}",
            int(frame["line"][0]) if frame.height else None,
        )
    return said > 0


def open_database(data: bytes) -> sqlite3.Connection:
    """A connection to a private in-memory copy of the database whose file holds ``data``.

    The file is never opened by SQLite: its bytes, already read, are handed to
    ``sqlite3_deserialize``.  So the file's *name* decides nothing (a name is never
    read as a URI: ``shoes#1.db``, ``..%2fvictim.db`` or ``db?mode=rwc`` open no
    other file), and nothing beside the file is read, created or rewritten (a
    neighbour's hot journal, ``-wal`` and ``-shm`` files).  A database in WAL mode
    is read from its main file as a database in rollback mode would be (the WAL
    file is not the record's: a program still writing should checkpoint first).
    The schema is not trusted (no function a view or trigger names runs with
    side effects) and the copy is read-only.

    >>> import sqlite3
    >>> source = sqlite3.connect(":memory:")
    >>> _ = source.execute("CREATE TABLE t (x)")
    >>> open_database(source.serialize()).execute("SELECT name FROM sqlite_master").fetchall()
    [('t',)]
    """
    image = bytearray(data)
    if len(image) >= 20 and image[18:20] == b"\x02\x02":  # WAL mode: read and write versions 2
        image[18:20] = b"\x01\x01"  # an in-memory image cannot be in WAL mode; the bytes are this copy's
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(bytes(image))
        connection.execute("PRAGMA trusted_schema = OFF")
        connection.execute("PRAGMA query_only = ON")
    except sqlite3.Error:
        connection.close()
        raise
    return connection


def read_database(data: bytes, reading: Reading, layout: Layout | None = None) -> tuple[Raw, str, str | None]:
    """The coups of every table of a SQLite database that holds them; what was read; the one table.

    ``data`` is the file's bytes: the database is read from a copy in memory
    (:func:`open_database`), never opened by name.
    """
    try:
        connection = open_database(data)
    except sqlite3.Error as err:
        raise UnreadableError("unreadable", f"not a readable SQLite database: {err}") from None
    try:
        tables = [
            name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        found: list[tuple[str, Raw, str]] = []
        held = 0  # rows read from the tables before this one
        for table in tables:
            raw = _table(connection, table, held)
            if raw is None:
                continue
            held += raw.frame.height
            if layout is not None and not all(
                c in raw.frame.columns for v in layout.columns.values() for c in ((v,) if isinstance(v, str) else v)
            ):
                continue
            recognised, said = recognise(raw, reading) if layout is None else apply_layout(raw, layout, reading, [])
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


def _table(connection: sqlite3.Connection, table: str, held: int = 0) -> Raw | None:
    """One table's rows, every value as text (SQLite casts them), numbered from 1; ``None`` for an empty one.

    ``held`` rows of other tables were read before it: together they may be at most
    :data:`~toolkit.records._raw.MAX_LINES` (counted before a row is fetched).

    A cell that is not UTF-8 is read with U+FFFD for its bad bytes and is a problem of its row (code
    ``bad_text``, naming the table, the row and the column): the row's shoe is set aside, every other kept.
    """
    quoted = '"' + table.replace('"', '""') + '"'
    names = [row[1] for row in connection.execute(f"PRAGMA table_info({quoted})")]
    if not names:
        return None
    refuse_width(len(names), None, f"table {cut(table)!r} has")
    (count,) = connection.execute(f"SELECT count(*) FROM {quoted}").fetchone()
    refuse_length(held + count, f"table {cut(table)!r} brings the database's tables to", "rows")
    # each cell as text, cut one byte past the longest a line may hold: a huge blob is never fetched whole
    texts = ", ".join(
        f'substr(CAST(CAST("{n.replace(chr(34), chr(34) * 2)}" AS TEXT) AS BLOB), 1, {MAX_LINE_BYTES + 1})'
        for n in names
    )
    factory = connection.text_factory
    connection.text_factory = bytes  # decoded below, cell by cell: one bad cell must not lose the table
    try:
        rows = connection.execute(f"SELECT {texts} FROM {quoted}").fetchall()
    finally:
        connection.text_factory = factory
    if not rows:
        return None
    problems: list[LineProblem] = []
    data = [
        pl.Series(name, _decoded(values, table, name, problems), dtype=pl.String)
        for name, values in zip(names, zip(*rows, strict=True), strict=True)
    ]
    frame = canonical_columns(pl.DataFrame(data)).with_row_index("line", offset=1)
    return Raw(frame.with_columns(pl.col("line").cast(pl.Int64)), problems=problems)


def _decoded(
    values: tuple[bytes | None, ...], table: str, column: str, problems: list[LineProblem]
) -> list[str | None]:
    """A column's cells as text; a cell that is not UTF-8 adds a ``bad_text`` problem of its row."""
    try:
        if all(v is None or len(v) <= MAX_LINE_BYTES for v in values):
            return [None if v is None else v.decode("utf-8") for v in values]
    except UnicodeDecodeError:
        pass
    out: list[str | None] = []
    for row, value in enumerate(values, start=1):
        if value is None:
            out.append(None)
            continue
        if len(value) > MAX_LINE_BYTES:
            out.append(None)
            problems.append(
                LineProblem(
                    row,
                    None,
                    "bad_text",
                    f"table {table!r}, row {row}, column {cut(column)!r}: the cell holds more than "
                    f"{MAX_LINE_BYTES:,} bytes, the most a record's line or cell holds: it is not read",
                )
            )
            continue
        try:
            out.append(value.decode("utf-8"))
        except UnicodeDecodeError as err:
            out.append(value.decode("utf-8", errors="replace"))
            problems.append(
                LineProblem(
                    row,
                    None,
                    "bad_text",
                    f"table {table!r}, row {row}, column {cut(column)!r}: the text is not UTF-8 "
                    f"(byte {err.start + 1} of the cell); it was read with U+FFFD for the bytes that are not",
                )
            )
    return out
