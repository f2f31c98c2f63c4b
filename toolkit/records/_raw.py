"""Rows as read from a record file, before any checking: the :class:`Raw` rows and the canonical column types.

Private to the readers of :mod:`toolkit.records` (:mod:`toolkit.records._text`,
:mod:`toolkit.records._io`, :mod:`toolkit.records._load`).  A reader returns the rows
as read (every column as text, the hands as lists of card texts, the bets as lists of
``who, bet, amount`` texts) with the ``line`` each came from, the header settings, and
the problems of lines that could not be read at all (each its own problem: the rest
of the file still loads).  What stops the whole file from being read raises
:class:`UnreadableError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import polars as pl

__all__ = [
    "BET_FIELDS",
    "BET_STRUCT",
    "CARD_LISTS",
    "CARD_SEPARATORS",
    "KEY_COLUMNS",
    "MAX_COLUMNS",
    "MAX_LINES",
    "MAX_NESTING",
    "MAX_QUOTED_CHARS",
    "LineProblem",
    "Raw",
    "Section",
    "UnreadableError",
    "canonical_columns",
    "cut",
    "quoted",
    "refuse_length",
    "refuse_width",
    "split_hand",
]

#: Columns holding a hand: a list of card texts (or, in CSV, one text of cards separated by these; a JSON
#: list in a cell, ``["10", "6"]``, reads as its items).
CARD_LISTS = ("player", "banker")
CARD_SEPARATORS = r"[\s,;|\-\[\]\"']+"
#: A minus sign that begins a number (``-5``): not a separator, so that ``"-5 -3"`` reads as the bad cards
#: ``-5`` and ``-3`` (located problems), never as the cards ``5`` and ``3``.
NEGATIVE = r"(^|[\s,;|\[\]\"'])-(\d)"
#: What a minus sign of :data:`NEGATIVE` stands as while a hand is split (a private-use character).
MINUS_MARK = "\ue000"
#: A bet as read: who, which bet, how much (all text until checked).
BET_FIELDS = ("who", "bet", "amount")
BET_STRUCT = pl.Struct(dict.fromkeys(BET_FIELDS, pl.String))
#: Columns that hold one scalar value a row: a list or a struct in one of them is refused.
KEY_COLUMNS = ("shoe", "position", "card", "role", "coup", "road", "winner")


#: The most characters of a cell or a line that a problem's message quotes: a longer text is cut, its length said.
MAX_QUOTED_CHARS = 60


def cut(text: object) -> object:
    """A text as a message quotes it: at most :data:`MAX_QUOTED_CHARS` characters, then its length; else as it is.

    >>> cut("K" * 100)
    'KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK... (100 characters)'
    """
    if not isinstance(text, str) or len(text) <= MAX_QUOTED_CHARS:
        return text
    return f"{text[:MAX_QUOTED_CHARS]}... ({len(text):,} characters)"


def quoted(text: object) -> str:
    """A cell or line quoted in a message (``repr``), cut to :data:`MAX_QUOTED_CHARS` characters (:func:`cut`)."""
    if isinstance(text, str) and len(text) > MAX_QUOTED_CHARS:
        return f"{text[:MAX_QUOTED_CHARS]!r}... ({len(text):,} characters)"
    return repr(text)


#: The most columns a record file may have (a line of more fields, a JSON lines file of more distinct keys, a
#: Parquet file or database table of more columns is refused before its rows are read): a record needs a handful,
#: and a wide file's every column is held as text.
MAX_COLUMNS = 1_000
#: The most lines a record file may hold (a text file's lines, header and blank lines included, counted in its bytes;
#: a Parquet file's rows; the rows of a database's tables, together), checked before a row is read: the rows are
#: held in memory several times over while they are checked, about 1 KB a row at worst (a file of one-coup shoes),
#: so that reading the most a file may hold peaks under about 2 GB.
MAX_LINES = 1_500_000
#: The deepest nesting of a Parquet column's type (a hand is a list, a bet a list of structs: 2).
MAX_NESTING = 4


def refuse_width(n: int, line: int | None = None, what: str = "the file has") -> None:
    """:class:`UnreadableError` when ``n`` columns are more than :data:`MAX_COLUMNS` (checked before reading rows).

    >>> refuse_width(1_000)
    >>> refuse_width(1_001)
    Traceback (most recent call last):
    ...
    toolkit.records._raw.UnreadableError: the file has 1,001 columns; a record file has at most 1,000
    """
    if n > MAX_COLUMNS:
        raise UnreadableError("too_wide", f"{what} {n:,} columns; a record file has at most {MAX_COLUMNS:,}", line)


def refuse_length(n: int, what: str = "the file holds", unit: str = "lines") -> None:
    """:class:`UnreadableError` at the first line past the limit when ``n`` lines are more than :data:`MAX_LINES`.

    >>> refuse_length(1_500_000)
    >>> refuse_length(1_500_001)
    Traceback (most recent call last):
    ...
    toolkit.records._raw.UnreadableError: the file holds 1,500,001 lines; a record file holds at most 1,500,000
    """
    if n > MAX_LINES:
        raise UnreadableError(
            "too_long", f"{what} {n:,} {unit}; a record file holds at most {MAX_LINES:,}", MAX_LINES + 1
        )


class UnreadableError(Exception):
    """The file cannot be read as a record: a problem ``code``, a message and the line, when known."""

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.line = code, message, line


@dataclass(frozen=True)
class LineProblem:
    """A problem found while reading: its line, the shoe when known, its code and message."""

    line: int | None
    shoe: str | None
    code: str
    message: str


@dataclass
class Section:
    """Header settings that begin after the first rows (a second header, e.g. two files joined by ``cat``).

    They apply to the shoes whose rows come after ``line``; ``error`` says why they cannot.
    """

    line: int
    values: dict[str, object]
    error: str | None = None


@dataclass
class Raw:
    """Rows as read (plus ``line``), the header keys, each shoe's own keys, where each header was, and line problems."""

    frame: pl.DataFrame = field(default_factory=pl.DataFrame)
    meta: dict[str, object] = field(default_factory=dict)
    shoe_meta: dict[str, dict[str, object]] = field(default_factory=dict)
    meta_lines: dict[str | None, int | None] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)

    def with_frame(self, frame: pl.DataFrame) -> Raw:
        return Raw(frame, self.meta, self.shoe_meta, self.meta_lines, self.sections, self.problems)

    def add_meta(self, values: Mapping[str, object], line: int | None, started: bool = False) -> None:
        """Header keys found at ``line`` (a shoe's own keys when they name a ``shoe``).

        Keys for the whole file after the first rows (``started``) begin a new :class:`Section`.
        A key given twice with two values is a conflict: in the file's header it stops the
        file, in a shoe's keys it is a problem of that shoe.
        """
        values = dict(values)
        shoe = values.pop("shoe", None)
        if shoe is not None:
            shoe = str(shoe)
            own = self.shoe_meta.setdefault(shoe, {})
            clash = _clash(own, values)
            if clash:
                self.problems.append(LineProblem(line, shoe, "bad_header", f"shoe header: {clash}"))
            own.update(values)
            self.meta_lines.setdefault(shoe, line)
        elif started:
            self.sections.append(Section(line if line is not None else 0, values))
        else:
            clash = _clash(self.meta, values)
            if clash:
                raise UnreadableError("bad_header", f"shoe header: {clash}", line)
            self.meta.update(values)
            self.meta_lines.setdefault(None, line)

    def extend_section(self, values: Mapping[str, object], line: int | None) -> None:
        """More keys for the section begun by the previous header line (consecutive header lines are one header)."""
        values = {k: v for k, v in values.items() if k != "shoe"}
        section = self.sections[-1]
        clash = _clash(section.values, values)
        if clash and section.error is None:
            section.error = clash
        section.values.update(values)


def _clash(have: dict[str, object], new: dict[str, object]) -> str | None:
    for key, value in new.items():
        if key in have and str(have[key]) != str(value):
            return f"key {key} is given twice, as {have[key]!r} and {value!r}: say it once"
    return None


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
        marked = re.sub(NEGATIVE, rf"\g<1>{MINUS_MARK}\g<2>", value)
        return [c.replace(MINUS_MARK, "-") for c in re.split(CARD_SEPARATORS, marked) if c]
    return [_text(value)]


def split_hand(text: pl.Expr, separators: str = CARD_SEPARATORS) -> pl.Expr:
    """A hand's text as its list of card texts, split at ``separators``; a number's minus sign stays its own.

    >>> pl.select(split_hand(pl.lit("K-9 -5"))).item().to_list()
    ['K', '9', '-5']
    """
    marked = text.str.replace_all(NEGATIVE, "${1}" + MINUS_MARK + "${2}")
    split = marked.str.replace_all(separators, " ").str.strip_chars().str.split(" ")
    return split.list.eval(pl.element().filter(pl.element() != "").str.replace_all(MINUS_MARK, "-", literal=True))


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


def _key_text(value: object) -> str | None:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2.0**53:
        return str(int(value))
    return _text(value)


def column(name: str, values: list) -> pl.Series:
    """A column of Python values in its canonical type (see :func:`canonical_columns`)."""
    if name in KEY_COLUMNS:
        return pl.Series(name, [_key_text(v) for v in values], dtype=pl.String)
    if name in CARD_LISTS:
        return pl.Series(name, [_cards(v) for v in values], dtype=pl.List(pl.String))
    if name == "bets":
        return pl.Series(name, [_bets(v) for v in values], dtype=pl.List(BET_STRUCT))
    return pl.Series(name, [_text(v) for v in values], dtype=pl.String)


def _whole_floats_as_text(series: pl.Series) -> pl.Series:
    """Floats as text, whole numbers without their ``.0`` (``2.0 -> "2"``, what pandas writes for integers)."""
    whole = series.is_finite() & (series == series.floor()) & (series.abs() < 2.0**53)
    as_int = series.cast(pl.Int64, strict=False).cast(pl.String)
    return pl.select(pl.when(whole).then(as_int).otherwise(series.cast(pl.String)).alias(series.name)).to_series()


def canonical_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """Every column as text, except the hands (lists of card texts) and the bets (lists of who/bet/amount texts).

    Columns already of those types are cast; whole-number floats become integer text
    (``2.0 -> "2"``); anything else goes through Python values.  A list or struct in a
    column that holds one value a row (``shoe``, ``position``, ``card``, ...) raises
    :class:`UnreadableError`: it would turn every shoe id into ``"[1]"``.
    """
    out = []
    for name, dtype in frame.schema.items():
        key = name.strip().lower() if isinstance(name, str) else name
        if key in KEY_COLUMNS and dtype.is_nested():
            raise UnreadableError(
                "bad_column",
                f"column {name!r} holds {dtype} values: it must hold one value a row (text or a number)",
                None,
            )
        if name == "line" or (name in CARD_LISTS and dtype == pl.List(pl.String)):
            out.append(frame[name])
        elif name in CARD_LISTS and dtype == pl.String:
            out.append(frame.select(split_hand(pl.col(name))).to_series())
        elif name == "bets" and dtype == pl.String:
            item = pl.element().str.strip_chars().str.splitn(":", 3).struct.rename_fields(list(BET_FIELDS))
            items = pl.col(name).str.split(";").list.eval(pl.element().filter(pl.element().str.strip_chars() != ""))
            out.append(frame.select(items.list.eval(item)).to_series().cast(pl.List(BET_STRUCT)))
        elif name in CARD_LISTS and isinstance(dtype, pl.List) and dtype.inner.is_numeric():
            out.append(frame[name].cast(pl.List(pl.String)))
        elif key in KEY_COLUMNS and dtype.is_float():
            out.append(_whole_floats_as_text(frame[name]))
        elif name not in CARD_LISTS and name != "bets" and (dtype == pl.String or dtype.is_numeric()):
            out.append(frame[name].cast(pl.String))
        else:
            out.append(column(name, frame[name].to_list()))
    return pl.DataFrame(out)
