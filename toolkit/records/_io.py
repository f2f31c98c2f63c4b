"""Reading and writing the containers of shoe records: CSV, JSON lines and Parquet, with their header lines.

Private to :mod:`toolkit.records.read` and :mod:`toolkit.records.write` (see the notes of
:mod:`toolkit.records.read` for the formats).  A reader returns the rows as read (CSV:
every column as text) with the ``line`` each came from, the ``key=value`` header
settings found in the file and the problems of lines it could not read
(:class:`~toolkit.records._raw.Raw`); anything that stops the file from being read at
all raises :class:`UnreadableError` with its line.  The text containers are read by
:mod:`toolkit.records._text`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

import polars as pl

from toolkit._check import one_of
from toolkit._files import atomic_write
from toolkit.records._raw import (
    BET_FIELDS,
    BET_STRUCT,
    CARD_LISTS,
    CARD_SEPARATORS,
    MAX_NESTING,
    Raw,
    UnreadableError,
    canonical_columns,
    refuse_length,
    refuse_width,
)
from toolkit.records._text import decode, drop_long_lines, is_jsonl, read_csv, read_jsonl, refuse_wide_names

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
#: The hands' columns in the coups file ``baccarat simulate`` writes, read as the per-coup layout's (files written
#: before the hands were named ``player_hand`` and ``banker_hand`` call them ``player_cards`` and ``banker_cards``).
SIMULATED_HANDS = {"player_hand": "player", "banker_hand": "banker"}
SIMULATED_HANDS_BEFORE = {"player_cards": "player", "banker_cards": "banker"}
#: The columns of such a file that a record holds (the rest are derived from the cards, and not read).
SIMULATED_KEEP = ("shoe", "coup", "player", "banker", "winner")


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
        refuse_width(source.metadata.num_columns)  # before a row is read
        refuse_length(source.metadata.num_rows, "the file holds", "rows")
        deepest = max((_depth(f.type) for f in source.schema_arrow), default=0)
        if deepest > MAX_NESTING:
            raise UnreadableError(
                "too_deep",
                f"a column's type is nested {deepest} deep; a record's columns are nested {MAX_NESTING} at most",
            )
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
    frame, burns = _simulated(frame)
    raw = Raw(canonical_columns(frame).with_row_index("line", offset=1).with_columns(pl.col("line").cast(pl.Int64)))
    if PARQUET_KEY in meta:
        try:
            stored = json.loads(meta[PARQUET_KEY])
            raw.add_meta(dict(stored.get("header", {})), None)
            for shoe, values in stored.get("shoes", {}).items():
                raw.add_meta({**values, "shoe": shoe}, None)
        except (json.JSONDecodeError, AttributeError, TypeError, ValueError, RecursionError):
            raise UnreadableError(
                "bad_header", "the Parquet metadata 'baccarat' is not a JSON object of header keys"
            ) from None
    for shoe, card in burns.items():
        if "burn_card" not in raw.shoe_meta.get(shoe, {}):
            raw.add_meta({"shoe": shoe, "burn_card": card}, None)
    if raw.frame.height == 0:
        raise UnreadableError("empty_file", "the file holds no rows")
    return raw


def _depth(dtype: Any) -> int:
    """How deep an Arrow type nests (a plain type 0, a list of text 1), counted without recursion, up to 64."""
    depth, level = 0, [dtype]
    while level and depth <= 64:
        inner = []
        for t in level:
            inner += [t.field(i).type for i in range(getattr(t, "num_fields", 0) or 0)]
        if not inner:
            break
        depth, level = depth + 1, inner
    return depth


def _simulated(frame: pl.DataFrame) -> tuple[pl.DataFrame, dict[str, str]]:
    """A coups file of ``baccarat simulate`` as the per-coup layout, and each shoe's exposed burn card.

    Its hands are ``player_hand`` and ``banker_hand`` (``player_cards`` and ``banker_cards`` in older files), and
    its ``burn_card`` column repeats the shoe's exposed burn card on every coup; any other frame is returned as it is.
    """
    names = {c.strip().lower(): c for c in frame.columns}
    hands = next((h for h in (SIMULATED_HANDS, SIMULATED_HANDS_BEFORE) if all(c in names for c in h)), None)
    if hands is None or any(c in names for c in SIMULATED_HANDS.values()):
        return frame, {}
    frame = frame.rename({names[k]: v for k, v in hands.items()})
    burns: dict[str, str] = {}
    if "burn_card" in names and "shoe" in names:
        first = (
            frame.select(pl.col(names["shoe"]).cast(pl.String).alias("shoe"), pl.col(names["burn_card"]).alias("b"))
            .filter(pl.col("b").is_not_null())
            .unique("shoe", keep="first", maintain_order=True)
        )
        burns = dict(zip(first["shoe"].to_list(), [str(b) for b in first["b"].to_list()], strict=True))
    keep = [names.get(c, c) for c in SIMULATED_KEEP if names.get(c, c) in frame.columns]
    return frame.select(keep), burns


def read_container(data: bytes) -> Raw:
    """Read the bytes of a record file (the container is told by its first bytes)."""
    if not data.strip():
        raise UnreadableError("empty_file", "the file is empty")
    if data[:4] == b"PAR1":
        return _read_parquet(data)
    data, long = drop_long_lines(data)
    text, note = decode(data)
    if not text.strip():
        raise UnreadableError("empty_file", "the file is empty")
    refuse_wide_names(text)
    if is_jsonl(text):
        raw = read_jsonl(text)
    else:
        raw = read_csv(text, text.encode("utf-8"))
    if note is not None:
        raw.problems.insert(0, note)
    raw.problems[:0] = long
    return raw


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
    """Write a record frame with its header and the shoes' own header keys, atomically.

    Lists of cards become space-separated text in CSV, and lists of bets
    ``who:bet:amount`` items separated by ``;``.  The file is written to a
    temporary file beside ``path`` and renamed over it
    (:func:`toolkit._files.atomic_write`): never half written, and a symbolic
    link at ``path`` is refused (:class:`ValueError`), never followed.
    """
    fmt = container_of(path, fmt)
    content: str | Callable[[IO[bytes]], object]
    if fmt == "parquet":
        meta = json.dumps({"header": dict(header), "shoes": {k: dict(v) for k, v in shoe_headers.items()}})

        def content(fh: IO[bytes]) -> object:
            return frame.write_parquet(fh, metadata={PARQUET_KEY: meta})

    elif fmt == "jsonl":
        lines = [json.dumps({"meta": dict(header)})]
        lines += [json.dumps({"meta": {"shoe": shoe, **keys}}) for shoe, keys in shoe_headers.items()]
        content = "".join(f"{line}\n" for line in lines) + frame.write_ndjson()
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
        content = "".join(f"# {line}\n" for line in lines) + frame.write_csv()
    atomic_write(path, content)
    return path


def _words(values: Mapping[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in values.items())
