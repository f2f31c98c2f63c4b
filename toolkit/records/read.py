"""Reading shoe records: the file formats, and loading them into checked :class:`~toolkit.records.model.Records`.

Three *layouts* of a shoe record, each in any of three *containers* (CSV,
JSON lines, Parquet; the container is told by the file's first bytes when
reading and by its suffix when writing: ``.csv``, ``.jsonl``/``.ndjson``,
``.parquet``/``.pq``).  The layout is told by the columns:

``cards`` (card level, long form): ``shoe, position, card[, role][, coup]``
    One row per card in dealing order.  ``card`` is a rank ``A, 2-9, T, J, Q, K``
    (any case, ``10`` for ``T``), optionally followed by a suit letter
    (``Qh``, ``10s``).  ``position`` counts the *recorded* cards of the shoe from
    1 (or 0); a gap or a repeat is a problem.  ``role`` is ``burn``, ``player``,
    ``banker`` or ``undealt``; without roles the coups are rebuilt from the card
    order by the tableau and the header's burn rule (see ``hidden_burn``).
    ``coup`` (optional) numbers the coups from 1; when given it is checked.
``coups`` (card level, per coup): ``shoe, coup, player, banker[, winner][, bets]``
    ``player`` and ``banker`` are the hands' cards in order (a JSON list, or a
    string of cards separated by spaces, commas, ``;`` or ``|``); ``winner``
    (``B/P/T`` or ``banker/player/tie``), when given, must agree with the cards.
``road`` (outcome only, the bead road): ``shoe, road``
    One string per shoe: a winner letter ``B``, ``P`` or ``T`` per coup, each
    optionally followed by pair marks ``p`` (Player pair) and ``b`` (Banker
    pair), lower case; spaces are ignored: ``"BPpTBbp P"``.

CSV fields may be separated by commas, tabs or semicolons, whatever the suffix (the
line of column names tells which, as :class:`csv.Sniffer` reads it).

The coups file ``baccarat simulate`` writes (Parquet: ``shoe, coup, player_hand,
banker_hand, winner, burn_card, ...``, its dealing in the header metadata) reads
as the per-coup layout: its hands are ``player_hand`` and ``banker_hand``, its
``burn_card`` column gives each shoe's exposed burn card, and its other columns
(derived from the cards) are not read.

Files other programs write are recognised without options (:func:`read_records` and
:func:`records_from_frame`; what was recognised is ``records.read_as``): cards in per-position
columns (``p1 .. b3``, ``pcard1``, ``player_card_1``), a hand in one cell (a JSON list, or cards
separated by spaces, commas, ``;``, ``|`` or dashes), cards as ranks, rank numbers ``1-13`` or
baccarat values ``0-9`` (a record of values is its own level, ``kind == "values"``), winners as
letters or words (``player win``), results-only rows (read as a bead road), text reports with a
block per shoe (``Shoe number N``), coup lines without column names, and SQLite databases (opened
read-only).  Without a shoe column the shoes are inferred (the hand numbers restart, the cards left
jump up, a blank line); ``one_shoe`` and ``shoe_column`` override, and a layout file
(``layout=``) reads the rest.  The hands of a per-coup record are checked against the tableau coup
by coup in every shoe, each fault with its kind (``records.report.summary()``).

Bets (the game-protection view) ride on the per-coup layout: a ``bets`` column
holding, per coup, a list of ``{"who", "bet", "amount"}`` (in CSV:
``"seat1:banker:25;seat3:tie:5"``); or a separate table ``shoe, coup, who,
bet, amount`` given as ``bets=`` to :func:`read_records`.

The shoe header
---------------
The number of decks and the house rules, as ``key=value`` pairs (the keys of
:class:`~toolkit.records.header.ShoeHeader`, see :mod:`toolkit.records.header`):

* CSV: comment lines at the top, ``# decks=8 burn=standard cut_card=14``;
  a line ``# shoe=17 decks=6`` sets keys for one shoe.  Comment lines with
  words that are not ``key=value`` are free text.
* JSON lines: a line ``{"meta": {"decks": 8, ...}}``; ``{"meta": {"shoe": 17, ...}}``
  for one shoe.
* A header line after the first rows (two files joined with ``cat``) begins a new
  header section: its keys, over the defaults (or the ``header`` argument), apply to
  the shoes that begin after it; a shoe with rows on both sides of it is a problem of
  that shoe.  A repeated column-name row is skipped.  A key given twice with two values
  (``# decks=8 decks=6``) is a problem: the last one never wins.
* Parquet: the file's key-value metadata ``baccarat`` holds
  ``{"header": {...}, "shoes": {"17": {...}}}``.

The coups of a card-level record are rebuilt under the header's tableau
(``header.rules.tableau``).  Reading never raises for bad data: every problem
is located in a :class:`~toolkit.records.validation.ValidationReport`
(``records.report``) and the shoes it touches are set aside; ``strict=True``
raises :class:`~toolkit.records.validation.RecordError` at the first problem
instead.  A line that cannot be read is a problem of that line (and its shoe):
every other shoe loads.

Text is read as UTF-8 (a byte-order mark is dropped), UTF-16 or UTF-32 by their
byte-order mark, UTF-16 without one by its zero bytes, and any other encoding as
charset-normalizer detects it (a problem names it); CRLF, CR-only and mixed line
endings all end lines.  Whole-number floats (``2.0``, as pandas writes integers)
are integers in ``shoe``, ``position`` and ``coup``.

>>> import polars as pl
>>> frame = pl.DataFrame({"shoe": [1, 1], "coup": [1, 2], "player": ["9 K", "K 2 3"], "banker": ["6 K", "K 6"]})
>>> records_from_frame(frame, {"burn": "none"}).coups["winner"].to_list()
['player', 'banker']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import polars as pl

from toolkit._files import read_limited
from toolkit.records._formats import Reading, recognise
from toolkit.records._headerless import delimiter_of, headerless_names
from toolkit.records._io import Raw, UnreadableError, canonical_columns, read_container
from toolkit.records._layout import Layout, apply_layout, as_layout, read_layout
from toolkit.records._load import HeaderArg, caller_header, fatal, load
from toolkit.records._raw import MAX_LINES, cut
from toolkit.records._sources import SQLITE_MAGIC, is_coup_lines, is_report, read_database, read_report
from toolkit.records._text import decode, drop_long_lines, refuse_long_text, refuse_wide_names
from toolkit.records.model import Records

__all__ = [
    "MAX_RECORD_BYTES",
    "MAX_RECORD_LINES",
    "Layout",
    "before_first_problem",
    "read_bets",
    "read_layout",
    "read_records",
    "records_from_frame",
]

#: The most bytes a record file (or a bets table) may hold: 128 MiB, read whole into memory.  With the most lines
#: a file may hold (:data:`MAX_RECORD_LINES`) it bounds what a read costs: a file at either limit peaks under about
#: 2 GB (a CSV whose every line carries sixty bets costs about 12 bytes of memory a byte of file, while it is read).
MAX_RECORD_BYTES = 128 * 2**20
#: The most lines a record file (or a bets table) may hold: 1,500,000 (:data:`toolkit.records._raw.MAX_LINES`;
#: a Parquet file's rows, a database's rows), checked before a row is read.
MAX_RECORD_LINES = MAX_LINES


def records_from_frame(
    frame: pl.DataFrame,
    header: HeaderArg = None,
    source: str = "<memory>",
    strict: bool = False,
    *,
    one_shoe: bool = False,
    shoe_column: str | None = None,
    layout: LayoutArg = None,
) -> Records:
    """Check and load a record held in a polars frame (any layout; see the module notes).

    Lines are the frame's row numbers from 1 unless it has a ``line`` column.

    Parameters
    ----------
    frame
        The record, in any layout.
    header
        The shoe header: a :class:`ShoeHeader`, or ``key=value`` settings over the
        default, as a mapping or as text ``"decks=6 burn=none"``.
    source
        Where it came from (for messages).
    strict
        Raise :class:`RecordError` on the first problem instead of setting the shoe aside.
    one_shoe, shoe_column, layout
        Read every row as one shoe, the shoes from this column, or the frame by a layout (see
        :func:`read_records`).

    Returns
    -------
    Records
        The valid shoes and the report of the rest.

    Examples
    --------
    >>> recs = records_from_frame(pl.DataFrame({"shoe": [1, 1], "road": ["BBP", "PT"]}))
    >>> recs.kind, recs.n_shoes, recs.report.ok
    ('road', 1, True)
    """
    header = caller_header(header)
    data = frame if "line" in frame.columns else frame.with_row_index("line", offset=1)
    try:
        how = _layout(layout)
        if how is None:  # a layout names the columns as they are
            data = data.rename({c: c.strip().lower() for c in data.columns})
        data = canonical_columns(data)
        rows = Raw(data.with_columns(pl.col("line").cast(pl.Int64)))
        reading = Reading(one_shoe, shoe_column)
        raw, read_as = recognise(rows, reading) if how is None else apply_layout(rows, how, reading, [])
    except UnreadableError as err:
        return fatal(source, err, strict)
    return load(raw, source, header, strict, read_as, how.spelling if how is not None else None)


def read_records(
    path: str | Path,
    header: HeaderArg = None,
    strict: bool = False,
    bets: str | Path | pl.DataFrame | None = None,
    *,
    one_shoe: bool = False,
    shoe_column: str | None = None,
    layout: LayoutArg = None,
) -> Records:
    """Read, check and load a shoe record file (CSV, JSON lines, Parquet, a text report or SQLite; any layout).

    Files other programs write are recognised without options (see the module notes):
    what was recognised is ``records.read_as``.

    Parameters
    ----------
    path
        The file.  A file that cannot be opened raises :class:`OSError`; one that
        is not a regular file (a folder, a device, a named pipe, a socket) or holds
        more than :data:`MAX_RECORD_BYTES` (128 MiB) raises
        :class:`~toolkit._files.RefusedFileError` (a :class:`ValueError`) before it
        is read; one of more than :data:`MAX_RECORD_LINES` (1,500,000) lines or rows is
        refused before a row is read (one fatal problem, code ``too_long``, at the first
        line past the limit); anything wrong *in* it is a :class:`~toolkit.records.validation.Problem`.
    header
        A :class:`ShoeHeader` the file's own header keys apply over, or
        ``key=value`` settings applied over the file's (a mapping, or their text
        ``"decks=6 burn=none"``).  Anything else raises :class:`TypeError`; text
        that is not ``key=value`` words raises :class:`ValueError`.
    strict
        Raise :class:`~toolkit.records.validation.RecordError` at the first problem
        (in file order) instead of setting bad shoes aside.
    bets
        A table of bets (a file or a frame with ``shoe, coup, who, bet, amount``)
        to attach (see :meth:`~toolkit.records.model.Records.with_bets`).
    one_shoe
        Read every row as one shoe (a file with no shoe column that is one shoe, whatever its rows say).
    shoe_column
        The column that holds the shoes, when it is not one the reader recognises.
    layout
        How to read a file the readers do not recognise: a layout file (TOML, see
        :mod:`toolkit.records._layout` and the records page of the docs), or the same tables
        as a mapping.  A bad layout raises :class:`ValueError` naming it and the key.

    Returns
    -------
    Records
        The valid shoes, with ``.report`` listing every problem.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "shoes.csv"
    >>> _ = path.write_text("# decks=8 burn=none\\nshoe,position,card\\n1,1,K\\n1,2,9\\n1,3,Q\\n1,4,X\\n")
    >>> print(read_records(path).report.problems[0])  # doctest: +ELLIPSIS
    /...shoes.csv:6: shoe 1: unknown card code 'X': expected a rank A,2-9,T/10,J,Q,K, ...
    """
    source = str(path)
    header = caller_header(header)
    how = _layout(layout)
    data = _read(path)
    try:
        raw, read_as, table = _rows(data, Reading(one_shoe, shoe_column), how)
    except UnreadableError as err:
        return fatal(source, err, strict)
    spelling = how.spelling if how is not None else None
    records = load(raw, source if table is None else f"{source}:{table}", header, strict, read_as, spelling)
    if bets is not None:
        records = records.with_bets(bets if isinstance(bets, pl.DataFrame) else read_bets(bets), strict=strict)
    return records


#: What ``layout=`` takes: a layout file, its tables as a mapping, or a :class:`~toolkit.records._layout.Layout`.
LayoutArg = str | Path | Mapping[str, object] | Layout | None


def _shifted(raw: Raw, by: int) -> Raw:
    """``raw`` with every line number moved by ``by`` (rows read under a column-name line the file lacks)."""
    frame = raw.frame.with_columns(pl.col("line") + by)
    problems = [replace(p, line=p.line + by) if p.line is not None else p for p in raw.problems]
    lines = {k: (v + by if v is not None else None) for k, v in raw.meta_lines.items()}
    sections = [replace(s, line=s.line + by) for s in raw.sections]
    return Raw(frame, raw.meta, raw.shoe_meta, lines, sections, problems)


def _layout(layout: LayoutArg) -> Layout | None:
    if layout is None or isinstance(layout, Layout):
        return layout
    if isinstance(layout, Mapping):
        return as_layout(layout)
    if isinstance(layout, (str, Path)):
        return read_layout(layout)
    raise TypeError(f"layout must be a layout file, a mapping of its tables or a Layout; got {type(layout).__name__}")


def _rows(data: bytes, reading: Reading, layout: Layout | None) -> tuple[Raw, str, str | None]:
    """The rows of a record file, in a layout of the record's own; what was recognised; the database table read."""
    if data.startswith(SQLITE_MAGIC):
        return read_database(data, reading, layout)
    if data[:4] == b"PAR1":
        return _text_rows(data, reading, layout)
    refuse_long_text(data)  # before anything is decoded or split
    data, long = drop_long_lines(data)  # before the text is decoded: a long line is never held twice
    raw, said, table = _text_rows(data, reading, layout)
    raw.problems[:0] = long
    return raw, said, table


def _text_rows(data: bytes, reading: Reading, layout: Layout | None) -> tuple[Raw, str, str | None]:
    """The rows of a record file that is not a database (see :func:`_rows`)."""
    blank: list[int] = []
    if data[:4] != b"PAR1" and data.strip():
        text, note = decode(data)
        refuse_wide_names(text)  # before the shape of the rows is looked at
        blocks = is_report(text)
        if blocks or is_coup_lines(text):
            if layout is not None:  # a layout names columns, and a report has none: it is never ignored
                what = "a text report of shoe blocks" if blocks else "coup lines without column names"
                raise UnreadableError(
                    "bad_layout",
                    f"the file reads as {what}, which has no columns for the layout {layout.source} to name: "
                    "read it without a layout",
                    1,
                )
            raw, told = read_report(text, blocks)
            if note is not None:
                raw.problems.insert(0, note)
            recognised, said = recognise(raw, reading)
            return recognised, "; ".join(s for s in (told, said) if s), None
        blank = [i for i, line in enumerate(text.split("\n"), start=1) if not line.strip()]
        names = headerless_names(text) if layout is None else None
        if names is not None:  # no column names: the shape of the rows names them
            raw = _shifted(read_container((delimiter_of(text).join(names) + "\n" + text).encode()), -1)
            if note is not None:
                raw.problems.insert(0, note)
            recognised, said = recognise(raw, reading, blank)
            told = "no column names: read as " + ", ".join(names)
            return recognised, "; ".join(s for s in (told, said) if s), None
    if layout is not None:
        raw, said = apply_layout(read_container(data), layout, reading, blank)
    else:
        raw, said = recognise(read_container(data), reading, blank)
    return raw, said, None


def before_first_problem(records: Records, shoe: object) -> Records:
    """A shoe that was set aside, up to its first bad coup: its coups before the first coup with a problem.

    The rows come from ``records.report.rejected`` (as read) and are checked again under the
    file's header; a shoe whose first problem names no coup (a bad header, a line that cannot be
    read) raises :class:`ValueError` saying why.  In the long form without coup numbers, the coups
    are those the tableau rebuilds from the cards written before the line of the first problem.

    Parameters
    ----------
    records
        What :func:`read_records` loaded.
    shoe
        The id of a shoe it set aside.

    Returns
    -------
    Records
        The one shoe, its coups before the first bad one.

    Examples
    --------
    >>> frame = pl.DataFrame({"shoe": [1, 1, 1], "coup": [1, 2, 3], "player": ["9 K", "K 2", "9 K"],
    ...                       "banker": ["6 K", "K 6", "6 K"]})
    >>> recs = records_from_frame(frame, {"burn": "none"})
    >>> recs.n_shoes, before_first_problem(recs, 1).coups["coup"].to_list()
    (0, [1])
    """
    mine = [p for p in records.report.problems if p.shoe == str(shoe)]
    if not mine:
        raise ValueError(f"shoe {shoe!r} was not set aside in {records.source}")
    first = min(mine, key=lambda p: (p.coup is None, p.coup or 0, p.line or 0))
    rows = records.report.rejected.filter(pl.col("shoe").cast(pl.String) == str(shoe))
    if first.coup is None:
        raise ValueError(f"shoe {shoe}'s first problem is not in a coup ({first}): there is no good part to replay")
    if "coup" not in rows.columns:
        return _long_form_before(records, rows, first.coup, first.line, shoe)
    kept = rows.filter(pl.col("coup").cast(pl.String).str.strip_chars().cast(pl.Int64, strict=False) < first.coup)
    if kept.is_empty():
        raise ValueError(f"shoe {shoe}'s first problem is in its first coup ({first}): there is no good part to replay")
    part = records_from_frame(kept.drop("file"), records.header, source=records.source)
    if part.report.problems:
        raise ValueError(f"shoe {shoe} before coup {first.coup}: {part.report.problems[0]}")
    return part


def _long_form_before(records: Records, rows: pl.DataFrame, coup: int, line: int | None, shoe: object) -> Records:
    """The coups before ``coup`` of a long-form shoe without coup numbers (the cards before ``line``, rebuilt)."""
    if line is None:
        raise ValueError(f"shoe {shoe}'s first problem has no line: the cards before it cannot be told apart")
    prefix = rows.filter(pl.col("line") < line).drop("file")
    # the cards before the problem may end inside a coup: drop a few from the end until they load (a coup has
    # at most six cards), then keep the coups before the bad one
    for drop in range(min(7, prefix.height + 1)):
        part = records_from_frame(prefix.head(prefix.height - drop), records.header, source=records.source)
        if part.report.ok and part.cards is not None:
            cards = part.cards.filter(pl.col("coup").is_null() | (pl.col("coup") < coup))
            if cards.filter(pl.col("coup").is_not_null()).is_empty():
                break
            return records_from_frame(cards, part.header, source=records.source)
    raise ValueError(f"shoe {shoe}'s first problem is in its first coup (coup {coup}): there is no good part to replay")


def read_bets(path: str | Path) -> pl.DataFrame:
    """A table of bets, ``shoe, coup, who, bet, amount`` (CSV, JSON lines or Parquet), with its ``line`` numbers.

    Parameters
    ----------
    path
        The file: a regular file of at most :data:`MAX_RECORD_BYTES` (128 MiB), else
        :class:`~toolkit._files.RefusedFileError` (a :class:`ValueError`), and of at most
        :data:`MAX_RECORD_LINES` lines, else :class:`ValueError`.

    Returns
    -------
    polars.DataFrame
        The bets, as text, with ``line``; where some lines could not be read (too many fields, an
        unterminated quote), a row for each with its ``line``, the ``shoe`` if known, and a column
        ``unread`` saying why (null on the rows read), so that each is reported where the bets are checked.
    """
    try:
        data = _read(path)
        if data[:4] != b"PAR1":
            refuse_long_text(data)
        raw = read_container(data)
    except UnreadableError as err:
        raise ValueError(f"{path}: {err.message}") from None
    frame = raw.frame.rename({c: c.strip().lower() for c in raw.frame.columns if c != "line"})
    missing = [c for c in ("shoe", "coup", "who", "bet", "amount") if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{path}: a bets table needs the columns shoe, coup, who, bet, amount; missing {', '.join(missing)}"
        )
    columns = ("shoe", "coup", "who", "bet", "amount")
    bets = frame.select(*(pl.col(c).cast(pl.String) for c in columns), pl.col("line").cast(pl.Int64))
    if not raw.problems:
        return bets
    unread = pl.DataFrame(
        {
            "shoe": [None if p.shoe is None else str(cut(p.shoe)) for p in raw.problems],
            "line": [p.line for p in raw.problems],
            "unread": [p.message for p in raw.problems],
        },
        schema={"shoe": pl.String, "line": pl.Int64, "unread": pl.String},
    )
    return pl.concat([bets, unread], how="diagonal_relaxed").select(*columns, "line", "unread").sort("line")


def _read(path: str | Path) -> bytes:
    """The bytes of a record file: a regular file of at most :data:`MAX_RECORD_BYTES`."""
    return read_limited(Path(path), MAX_RECORD_BYTES, "a record file")
