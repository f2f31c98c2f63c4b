"""A layout file: how to read a foreign record the readers do not recognise on their own.

Private to :mod:`toolkit.records.read` (``read_records(path, layout=...)``, ``--layout FILE``).
A layout file is TOML, at most :data:`MAX_LAYOUT_BYTES`, read like the other files the toolkit
takes (a regular file, UTF-8); every key is optional::

    [columns]
    shoe = "Shoe No"                 # the column of the shoes (else see [shoes])
    coup = "Hand"                    # the column numbering the coups
    winner = "Result"
    player = ["P1", "P2", "P3"]      # a column a card, in dealing order...
    banker = "Banker hand"           # ...or one column holding the hand ("K 9", "[\\"K\\", \\"9\\"]", "K-9")
    cards_left = "Remaining"         # cards left in the shoe (a jump up starts a new shoe)
    burn = "Burn"                    # filled on a shoe's first hand only (a filled cell starts a new shoe)

    [cards]
    spelling = "values"              # ranks (A 2..10 J Q K, T), values (0-9, 0 = ten or face), numbers (1-13)
    none = ["x", "--"]               # texts that mean "no card" (besides an empty cell)

    [winners]                        # words for the winners, besides P/B/T, player/banker/tie, player win
    player = ["Punto", "闲"]
    banker = ["Banco"]
    tie = ["Egalite"]

    [shoes]
    boundary = "restart"             # column, restart (the coup numbers restart), cards_left, burn, blank_line, one

Errors name the file and the key (:class:`ValueError`); columns the file names but the record
lacks are the record's problem, naming the column.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from toolkit._files import read_limited
from toolkit.records._formats import NO_CARD, Reading, recognise
from toolkit.records._raw import Raw, UnreadableError
from toolkit.records._spelling import SPELLINGS, read_cards

__all__ = ["BOUNDARIES", "MAX_LAYOUT_BYTES", "Layout", "apply_layout", "as_layout", "read_layout"]

#: The most bytes a layout file may hold.
MAX_LAYOUT_BYTES = 64 * 2**10
#: How a layout says where a shoe begins.
BOUNDARIES = ("column", "restart", "cards_left", "burn", "blank_line", "one")
_SECTIONS = {
    "columns": ("shoe", "coup", "winner", "player", "banker", "cards_left", "burn"),
    "cards": ("spelling", "none"),
    "winners": ("player", "banker", "tie"),
    "shoes": ("boundary",),
}
_MAX_WORDS = 64


@dataclass(frozen=True)
class Layout:
    """What a layout file says (see the module notes); ``source`` names it in messages."""

    columns: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    spelling: str | None = None
    none: tuple[str, ...] = ()
    winners: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    boundary: str | None = None
    source: str = "<layout>"


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise ValueError(f"{where} must be a non-empty text of at most 200 characters, got {value!r:.60}")
    return value


def _texts(value: object, where: str) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or len(items) > _MAX_WORDS:
        raise ValueError(f"{where} must be a text or a list of 1 to {_MAX_WORDS} texts, got {value!r:.60}")
    return tuple(_text(v, where) for v in items)


def as_layout(data: Mapping[str, object], source: str = "<layout>") -> Layout:
    """A :class:`Layout` from the tables of a layout file (or a mapping written the same way)."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a layout must be a mapping of tables ([columns], [cards], ...), got {type(data).__name__}")
    for section, value in data.items():
        if section not in _SECTIONS:
            raise ValueError(f"{source}: unknown table [{section}]; a layout has {', '.join(_SECTIONS)}")
        if not isinstance(value, Mapping):
            raise ValueError(f"{source}: [{section}] must be a table of keys")
        extra = sorted(set(value) - set(_SECTIONS[section]))
        if extra:
            raise ValueError(
                f"{source}: [{section}] has no key {extra[0]!r}; its keys: {', '.join(_SECTIONS[section])}"
            )
    columns: dict[str, str | tuple[str, ...]] = {}
    for key, value in dict(data.get("columns", {})).items():  # type: ignore[call-overload]
        where = f"{source}: [columns] {key}"
        if key in ("player", "banker") and isinstance(value, list):
            cards = _texts(value, where)
            if not 2 <= len(cards) <= 3:
                raise ValueError(f"{where} lists {len(cards)} column(s); a hand's columns are two or three")
            columns[key] = cards
        else:
            columns[key] = _text(value, where)
    if ("player" in columns) != ("banker" in columns):
        raise ValueError(f"{source}: [columns] names the cards of one hand only; give both player and banker")
    cards = dict(data.get("cards", {}))  # type: ignore[call-overload]
    spelling = cards.get("spelling")
    if spelling is not None and spelling not in SPELLINGS:
        raise ValueError(f"{source}: [cards] spelling must be one of {', '.join(SPELLINGS)}, got {spelling!r:.60}")
    none = _texts(cards["none"], f"{source}: [cards] none") if "none" in cards else ()
    for word in none:  # a card text as "no card" would drop every such card without a word
        spellings = (spelling,) if spelling is not None else SPELLINGS
        card_in = next((sp for sp in spellings if read_cards([word], sp)[0][0] is not None), None)
        if card_in is not None:
            raise ValueError(
                f"{source}: [cards] none lists {word!r:.60}, a card (in the {card_in} spelling): "
                "'none' lists the texts that mean no card"
            )
    winners = {k: _texts(v, f"{source}: [winners] {k}") for k, v in dict(data.get("winners", {})).items()}  # type: ignore[call-overload]
    boundary = dict(data.get("shoes", {})).get("boundary")  # type: ignore[call-overload]
    if boundary is not None and boundary not in BOUNDARIES:
        raise ValueError(f"{source}: [shoes] boundary must be one of {', '.join(BOUNDARIES)}, got {boundary!r:.60}")
    if boundary == "column" and "shoe" not in columns:
        raise ValueError(f"{source}: [shoes] boundary = 'column' needs [columns] shoe")
    if boundary == "cards_left" and "cards_left" not in columns:
        raise ValueError(f"{source}: [shoes] boundary = 'cards_left' needs [columns] cards_left")
    if boundary == "burn" and "burn" not in columns:
        raise ValueError(f"{source}: [shoes] boundary = 'burn' needs [columns] burn")
    return Layout(columns, spelling, none, winners, boundary, source)


def read_layout(path: str | Path) -> Layout:
    """Read a layout file (see the module notes); anything wrong raises :class:`ValueError` naming the file.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "layout.toml"
    >>> _ = p.write_text('[columns]\\nshoe = "Table"\\nplayer = ["P1", "P2", "P3"]\\nbanker = ["B1", "B2", "B3"]\\n')
    >>> read_layout(p).columns["player"]
    ('P1', 'P2', 'P3')
    """
    p = Path(path)
    try:
        data = read_limited(p, MAX_LAYOUT_BYTES, "a layout file")
    except OSError as err:
        raise ValueError(f"{p}: cannot read the layout file: {err.strerror or err}") from None
    except ValueError as err:  # not a regular file, or too big
        raise ValueError(f"{p}: {getattr(err, 'reason', err)}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(f"{p}: the layout file is not UTF-8 text (byte {err.start + 1}); save it as UTF-8") from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{p}: not valid TOML: {err}") from None
    except RecursionError:
        raise ValueError(f"{p}: not valid TOML: nested too deeply") from None
    return as_layout(table, str(p))


def apply_layout(raw: Raw, layout: Layout, reading: Reading, blank_lines: list[int]) -> tuple[Raw, str]:
    """The rows of a record read by a layout: its columns under the names the recogniser reads, then recognised."""
    frame = raw.frame
    missing = [
        name
        for value in layout.columns.values()
        for name in ((value,) if isinstance(value, str) else value)
        if name not in frame.columns
    ]
    if missing:
        found = ", ".join(c for c in frame.columns if c != "line")
        raise UnreadableError(
            "missing_column",
            f"the layout {layout.source} names a column {missing[0]!r} the file lacks; its columns: {found}",
            1,
        )
    picked = [pl.col("line")]
    for key, value in layout.columns.items():
        if key in ("player", "banker") and not isinstance(value, str):  # a column a card: one text a hand
            cards = pl.concat_list([_no_card(pl.col(c), layout) for c in value]).list.drop_nulls()
            picked.append(cards.list.join(" ").alias(f"{key}_cards"))
        elif key in ("player", "banker"):
            picked.append(pl.col(value).alias(f"{key}_cards"))
        elif key == "winner":
            picked.append(_winner(pl.col(str(value)), layout).alias("winner"))
        elif key != "shoe" or layout.boundary in (None, "column"):
            picked.append(pl.col(str(value)).alias(key))
    lists = [c for c in frame.columns if isinstance(frame.schema[c], pl.List)]
    frame = frame.with_columns(pl.col(c).list.join(" ") for c in lists) if lists else frame
    renamed = raw.with_frame(frame.select(picked))
    if layout.boundary == "one":
        reading = Reading(one_shoe=True)
    elif layout.boundary in ("restart", "cards_left", "burn", "blank_line"):
        reading = Reading(reading.one_shoe, reading.shoe_column, (layout.boundary,))
    recognised, said = recognise(renamed, reading, blank_lines)
    told = [f"{what} from {_named(layout.columns[key])}" for key, what in _TOLD if key in layout.columns]
    shoes = next((part for part in said.split("; ") if part.startswith(("shoes inferred", "one shoe"))), None)
    if shoes is not None:
        told.append(shoes)
    used = {c for v in layout.columns.values() for c in ((v,) if isinstance(v, str) else v)}
    ignored = [c for c in raw.frame.columns if c != "line" and c not in used]
    if ignored:
        told.append("not read: " + ", ".join(repr(c) for c in ignored[:3]) + (" ..." if len(ignored) > 3 else ""))
    return recognised, f"layout {layout.source}: " + "; ".join(told)


_TOLD = (
    ("player", "Player's cards"),
    ("banker", "Banker's cards"),
    ("shoe", "shoes"),
    ("coup", "coups"),
    ("winner", "winners"),
    ("cards_left", "cards left"),
)


def _named(value: str | tuple[str, ...]) -> str:
    return repr(value) if isinstance(value, str) else ", ".join(repr(v) for v in value)


def _no_card(cell: pl.Expr, layout: Layout) -> pl.Expr:
    text = cell.cast(pl.String).str.strip_chars()
    nothing = [*NO_CARD, *(w.strip().lower() for w in layout.none)]
    return pl.when(text.str.to_lowercase().is_in(nothing)).then(None).otherwise(text)


def _winner(cell: pl.Expr, layout: Layout) -> pl.Expr:
    text = cell.cast(pl.String).str.strip_chars()
    words = {w.strip().lower(): side for side, ws in layout.winners.items() for w in ws}
    if not words:
        return text
    return text.str.to_lowercase().replace_strict(words, default=None).fill_null(text)
