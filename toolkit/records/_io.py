"""Reading and writing the containers of shoe records: CSV, JSON lines and Parquet, with their header lines.

Private to :mod:`toolkit.records.read` and :mod:`toolkit.records.write` (see the notes of
:mod:`toolkit.records.read` for the formats).  A reader returns the rows as read (CSV:
every column as text) with the ``line`` each came from, and the ``key=value`` header
settings found in the file; anything that stops the file from being read at all raises
:class:`UnreadableError` with its line.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from toolkit._check import one_of

__all__ = [
    "BET_FIELDS",
    "BET_STRUCT",
    "CARD_LISTS",
    "CARD_SEPARATORS",
    "PARQUET_KEY",
    "SUFFIXES",
    "Raw",
    "UnreadableError",
    "canonical_columns",
    "container_of",
    "read_container",
    "write_container",
]

#: Suffixes of the containers, for writing.
SUFFIXES = {
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}
#: The Parquet metadata key that holds the headers.
PARQUET_KEY = "baccarat"
#: Columns holding a hand: a list of card texts (or, in CSV, one text of cards separated by these).
CARD_LISTS = ("player", "banker")
CARD_SEPARATORS = r"[\s,;|]+"
#: A bet as read: who, which bet, how much (all text until checked).
BET_FIELDS = ("who", "bet", "amount")
BET_STRUCT = pl.Struct(dict.fromkeys(BET_FIELDS, pl.String))


class UnreadableError(Exception):
    """The file cannot be read as a record: a problem ``code``, a message and the line, when known."""

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.line = code, message, line


@dataclass
class Raw:
    """Rows as read (plus ``line``), the file's header keys, each shoe's own keys, and where each header was."""

    frame: pl.DataFrame = field(default_factory=pl.DataFrame)
    meta: dict[str, object] = field(default_factory=dict)
    shoe_meta: dict[str, dict[str, object]] = field(default_factory=dict)
    meta_lines: dict[str | None, int | None] = field(default_factory=dict)

    def with_frame(self, frame: pl.DataFrame) -> Raw:
        return Raw(frame, self.meta, self.shoe_meta, self.meta_lines)


def _text_lines(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start and end offsets of every line, and whether it is a comment (``#``)."""
    b = np.frombuffer(data, np.uint8)
    nl = np.flatnonzero(b == 10)
    starts = np.concatenate([[0], nl + 1])
    ends = np.concatenate([nl, [len(b)]])
    if len(starts) and starts[-1] == len(b):
        starts, ends = starts[:-1], ends[:-1]
    first = b[np.minimum(starts, len(b) - 1)] if len(b) else np.zeros(0, np.uint8)
    return starts, ends, (first == ord("#")) & (ends > starts)


def _header_words(text: str) -> dict[str, str] | None:
    """``key=value`` words of a comment line, or ``None`` when it is free text."""
    words = text.lstrip("#").split()
    if not words or not all("=" in w for w in words):
        return None
    return dict(w.split("=", 1) for w in words)


def _add_meta(raw: Raw, values: Mapping[str, object], line: int | None) -> None:
    values = dict(values)
    shoe = values.pop("shoe", None)
    if shoe is None:
        raw.meta.update(values)
        raw.meta_lines.setdefault(None, line)
    else:
        raw.shoe_meta.setdefault(str(shoe), {}).update(values)
        raw.meta_lines.setdefault(str(shoe), line)


def _read_csv(data: bytes) -> Raw:
    starts, ends, comment = _text_lines(data)
    raw = Raw()
    for i in np.flatnonzero(comment):
        words = _header_words(data[starts[i] : ends[i]].decode("utf-8").strip())
        if words:
            _add_meta(raw, words, int(i) + 1)
    rows = np.flatnonzero(~comment)
    if len(rows) == 0 or all(data[starts[i] : ends[i]].strip() == b"" for i in rows[:1]):
        raise UnreadableError("empty_file", "the file holds no column names and no rows")
    try:
        frame = pl.read_csv(io.BytesIO(data), comment_prefix="#", infer_schema=False, raise_if_empty=False)
    except BaseException as err:
        _reraise_interrupts(err)
        raise _csv_error(data, str(err)) from None
    lines = rows[1:] + 1
    if len(lines) != frame.height:  # quoted line breaks: fall back to counting records
        lines = np.full(frame.height, -1)
    raw.frame = (
        canonical_columns(frame)
        .with_columns(pl.Series("line", lines, dtype=pl.Int64))
        .with_columns(pl.when(pl.col("line") > 0).then(pl.col("line")).alias("line"))
    )
    return raw


def _csv_error(data: bytes, message: str) -> UnreadableError:
    """Locate a CSV parse error with the standard library's reader (slow path, only on error)."""
    reader = csv.reader(io.StringIO(data.decode("utf-8"), newline=""))
    width = None
    try:
        for row in reader:
            if not row or row[0].startswith("#"):
                continue
            if width is None:
                width = len(row)
            elif len(row) > width:
                return UnreadableError(
                    "unreadable",
                    f"line {reader.line_num} has {len(row)} fields; the column names give {width}",
                    reader.line_num,
                )
    except csv.Error as err:
        return UnreadableError("unreadable", f"line {reader.line_num} is not CSV: {err}", reader.line_num)
    return UnreadableError("unreadable", f"not a readable CSV file: {message.splitlines()[0]}")


def _read_jsonl(text: str) -> Raw:
    raw = Raw()
    rows: list[dict] = []
    lines: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise UnreadableError("unreadable", f"line {number} is not valid JSON: {err.msg}", number) from None
        if not isinstance(obj, dict):
            raise UnreadableError("unreadable", f"line {number} is not a JSON object", number)
        if "meta" in obj:
            if not isinstance(obj["meta"], dict):
                raise UnreadableError("bad_header", f'line {number}: "meta" must be an object of header keys', number)
            _add_meta(raw, obj["meta"], number)
            continue
        rows.append(obj)
        lines.append(number)
    if not rows:
        raise UnreadableError("empty_file", "the file holds no records")
    columns: dict[str, list] = {}
    for i, obj in enumerate(rows):
        for key in obj:
            columns.setdefault(key, [None] * len(rows))
        for key, value in obj.items():
            columns[key][i] = value
    frame = pl.DataFrame([_column(k, v) for k, v in columns.items()])
    raw.frame = frame.with_columns(pl.Series("line", lines, dtype=pl.Int64))
    return raw


def _text(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (list, dict, tuple)):
        return json.dumps(value)
    return str(value)


def _cards(value: object) -> list[str | None] | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [_text(x) for x in value]
    if isinstance(value, str):
        return [c for c in re.split(CARD_SEPARATORS, value) if c]
    return [_text(value)]


def _bets(value: object) -> list[dict[str, str | None]] | None:
    """Bets as ``[{who, bet, amount}]`` (text): from a list of objects, or ``"who:bet:amount;..."``."""
    if value is None:
        return None
    if isinstance(value, str):
        items: list[object] = []
        for item in value.split(";"):
            if item.strip():
                who, bet, amount = [*item.strip().split(":", 2), None, None][:3]
                items.append({"who": who, "bet": bet, "amount": amount})
    else:
        items = list(value) if isinstance(value, (list, tuple)) else [value]
    return [
        {k: _text(item.get(k)) for k in ("who", "bet", "amount")}
        if isinstance(item, dict)
        else dict.fromkeys(BET_FIELDS)
        for item in items
    ]


def _column(name: str, values: list) -> pl.Series:
    """A column of Python values in its canonical type (see :func:`canonical_columns`)."""
    if name in CARD_LISTS:
        return pl.Series(name, [_cards(v) for v in values], dtype=pl.List(pl.String))
    if name == "bets":
        return pl.Series(name, [_bets(v) for v in values], dtype=pl.List(BET_STRUCT))
    return pl.Series(name, [_text(v) for v in values], dtype=pl.String)


def canonical_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """Every column as text, except the hands (lists of card texts) and the bets (lists of who/bet/amount texts).

    Columns already of those types are cast; anything else goes through Python values.
    """
    out = []
    for name, dtype in frame.schema.items():
        if name == "line" or (name in CARD_LISTS and dtype == pl.List(pl.String)):
            out.append(frame[name])
        elif name in CARD_LISTS and dtype == pl.String:
            text = pl.col(name).str.replace_all(CARD_SEPARATORS, " ").str.strip_chars()
            out.append(frame.select(text.str.split(" ").list.eval(pl.element().filter(pl.element() != ""))).to_series())
        elif name == "bets" and dtype == pl.String:
            item = pl.element().str.strip_chars().str.splitn(":", 3).struct.rename_fields(list(BET_FIELDS))
            items = pl.col(name).str.split(";").list.eval(pl.element().filter(pl.element().str.strip_chars() != ""))
            out.append(frame.select(items.list.eval(item)).to_series().cast(pl.List(BET_STRUCT)))
        elif name in CARD_LISTS and isinstance(dtype, pl.List) and dtype.inner.is_numeric():
            out.append(frame[name].cast(pl.List(pl.String)))
        elif name not in CARD_LISTS and name != "bets" and (dtype == pl.String or dtype.is_numeric()):
            out.append(frame[name].cast(pl.String))
        else:
            out.append(_column(name, frame[name].to_list()))
    return pl.DataFrame(out)


def _reraise_interrupts(err: BaseException) -> None:
    if isinstance(err, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        raise err


def _read_parquet(data: bytes) -> Raw:
    # pyarrow, not polars, reads Parquet here: on a corrupt file polars panics (and prints a Rust backtrace)
    # where pyarrow raises a plain error
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        source = pq.ParquetFile(io.BytesIO(data))
        table = source.read().replace_schema_metadata(None)
        table.validate(full=True)  # strings must be valid UTF-8, or polars panics later
        for name in table.schema.names:
            name.encode("utf-8")
        stored = source.metadata.metadata or {}
    except (pa.ArrowException, OSError, ValueError, TypeError, UnicodeError) as err:
        raise UnreadableError("unreadable", f"not a readable Parquet file: {str(err).splitlines()[0]}") from None
    try:
        frame = pl.from_arrow(table)
    except BaseException as err:
        _reraise_interrupts(err)
        raise UnreadableError("unreadable", f"not a readable Parquet file: {str(err).splitlines()[0]}") from None
    if not isinstance(frame, pl.DataFrame):  # pragma: no cover - a table always converts to a frame
        raise UnreadableError("unreadable", "not a readable Parquet file")
    meta = {k.decode("utf-8", "replace"): v.decode("utf-8", "replace") for k, v in stored.items()}
    raw = Raw(canonical_columns(frame).with_row_index("line", offset=1).with_columns(pl.col("line").cast(pl.Int64)))
    if PARQUET_KEY in meta:
        try:
            stored = json.loads(meta[PARQUET_KEY])
            _add_meta(raw, stored.get("header", {}), None)
            for shoe, values in stored.get("shoes", {}).items():
                _add_meta(raw, {**values, "shoe": shoe}, None)
        except (json.JSONDecodeError, AttributeError, TypeError):
            raise UnreadableError(
                "bad_header", "the Parquet metadata 'baccarat' is not a JSON object of header keys"
            ) from None
    if raw.frame.height == 0:
        raise UnreadableError("empty_file", "the file holds no rows")
    return raw


def read_container(data: bytes) -> Raw:
    """Read the bytes of a record file (the container is told by its first bytes)."""
    if not data.strip():
        raise UnreadableError("empty_file", "the file is empty")
    if data[:4] == b"PAR1":
        return _read_parquet(data)
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise UnreadableError(
            "not_text", "the file is not text (it holds NUL bytes): expected CSV, JSON lines or Parquet", line
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise UnreadableError(
            "not_text", f"the file is not UTF-8 text (byte {err.start + 1}): expected CSV, JSON lines or Parquet", line
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
        data = data[3:]
    first = next((ln.strip() for ln in text.split("\n", 200) if ln.strip() and not ln.startswith("#")), "")
    return _read_jsonl(text) if first.startswith("{") else _read_csv(data)


def container_of(path: Path, fmt: str | None = None) -> str:
    """``csv``, ``jsonl`` or ``parquet``: ``fmt`` if given, else told by the file's suffix."""
    if fmt is not None:
        return one_of(fmt, ("csv", "jsonl", "parquet"), "format")
    try:
        return SUFFIXES[path.suffix.lower()]
    except KeyError:
        raise ValueError(f"cannot tell the format of {path.name!r}: use a .csv, .jsonl or .parquet suffix") from None


def write_container(
    frame: pl.DataFrame,
    path: Path,
    fmt: str | None,
    header: Mapping[str, object],
    shoe_headers: Mapping[str, Mapping[str, object]],
) -> Path:
    """Write a record frame with its header and the shoes' own header keys.

    Lists of cards become space-separated text in CSV, and lists of bets
    ``who:bet:amount`` items separated by ``;``.
    """
    fmt = container_of(path, fmt)
    if fmt == "parquet":
        meta = json.dumps({"header": dict(header), "shoes": {k: dict(v) for k, v in shoe_headers.items()}})
        frame.write_parquet(path, metadata={PARQUET_KEY: meta})
    elif fmt == "jsonl":
        with path.open("w", encoding="utf-8") as out:
            out.write(json.dumps({"meta": dict(header)}) + "\n")
            for shoe, keys in shoe_headers.items():
                out.write(json.dumps({"meta": {"shoe": shoe, **keys}}) + "\n")
            out.write(frame.write_ndjson())
    else:
        for name, dtype in frame.schema.items():
            if dtype == pl.List(pl.String):
                frame = frame.with_columns(pl.col(name).list.join(" "))
            elif isinstance(dtype, pl.List):
                item = pl.concat_str(
                    pl.element().struct.field("who"),
                    pl.element().struct.field("bet"),
                    pl.element().struct.field("amount").cast(pl.String),
                    separator=":",
                )
                frame = frame.with_columns(pl.col(name).list.eval(item).list.join(";"))
        lines = [_words(header)] + [_words({"shoe": shoe, **keys}) for shoe, keys in shoe_headers.items()]
        path.write_text("".join(f"# {line}\n" for line in lines) + frame.write_csv(), encoding="utf-8")
    return path


def _words(values: Mapping[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in values.items())
