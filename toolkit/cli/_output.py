"""What the commands print: tables fitted to the terminal, text wrapped at words, CSV, JSON and Parquet.

Every command writes its results through :func:`emit` (in :mod:`toolkit.cli._common`),
which calls the renderers here, so a new command gets the same output for free:

* ``table``: a rich table no wider than the terminal (``COLUMNS``, or the terminal's,
  or 80 in a pipe).  An identifier is never broken (a name read from a table pastes
  back into ``--bet``); text wraps at word boundaries, a long description in a table
  of its own beside the keys; a table too wide for the terminal is cut into several
  tables of whole columns, each repeating the key columns (the first, by default), so
  a header or a number is never split mid-word and nothing is cut short with an ellipsis.
* ``csv``, ``json``, ``parquet``: the frame as it is, at full precision (lists of cards
  become text separated by spaces in CSV).

>>> import polars as pl
>>> text = render_table(pl.DataFrame({"bet": ["banker", "player"], "house_edge": [0.0105791, 0.0123508]}), width=40)
>>> print(text.rstrip())
bet      house_edge
───────────────────
banker    0.0105791
player    0.0123508
"""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

__all__ = ["csv_text", "format_column", "json_text", "render_table", "terminal_width", "wrap"]

#: Significant digits a float column keeps in a table (csv, json and parquet keep all of them).
SIGNIFICANT = 6
#: Cells at most this wide are never wrapped (a hand of cards, a number); a header still wraps at its spaces.
SHORT = 16
#: A column of text with a cell wider than this (a description) goes to a table of its own beside the keys
#: when the rows do not fit the width on one line each.
PROSE = 24


def terminal_width() -> int:
    """The width to fit: ``COLUMNS`` when set, else the terminal's, else 80."""
    value = os.environ.get("COLUMNS", "")
    if value.strip().isdigit() and int(value) > 0:
        return int(value)
    return shutil.get_terminal_size((80, 24)).columns or 80


def wrap(text: str, width: int | None = None, indent: str = "") -> str:
    """``text`` wrapped at word boundaries to ``width`` (the terminal's by default); each line of it on its own.

    >>> print(wrap("Banker departs from the tableau in 4 information sets", 20))
    Banker departs from
    the tableau in 4
    information sets
    """
    width = terminal_width() if width is None else width
    out = []
    for line in text.splitlines() or [""]:
        if not line.strip():
            out.append("")
            continue
        lead = line[: len(line) - len(line.lstrip())] + indent
        out.append(
            textwrap.fill(
                line.strip(),
                width=max(width, 20),
                initial_indent=lead,
                subsequent_indent=lead + "  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------- cells
def _is_float(dtype: pl.DataType) -> bool:
    return dtype.is_float() or isinstance(dtype, pl.Decimal)


def format_column(series: pl.Series, significant: int = SIGNIFICANT) -> list[str]:
    """The cells of a column as text: floats to ``significant`` significant digits.

    A column of numbers of one size (within a factor 1000) gets one number of decimals,
    ``significant`` digits for its largest magnitude; a column of mixed sizes gets its
    digits number by number.  Very small or very large numbers are written in scientific notation.

    >>> format_column(pl.Series([-0.0105791, 0.143596, None]))
    ['-0.010579', '0.143596', '-']
    >>> format_column(pl.Series([93803.995, 0.0871252, 12.0]))
    ['93804.0', '0.0871252', '12.0000']
    >>> format_column(pl.Series([1.876e-05, -2.5e-06]))
    ['1.87600e-05', '-2.50000e-06']
    >>> format_column(pl.Series([["K", "9"], ["2", "3", "4"]]))
    ['K 9', '2 3 4']
    """
    dtype = series.dtype
    values = series.to_list()
    if not _is_float(dtype):
        return [_text(v) for v in values]
    finite = [abs(float(v)) for v in values if v is not None and math.isfinite(float(v)) and v != 0]
    if not finite or (all(v.is_integer() for v in finite) and max(finite) < 1e15):
        return [_float_text(v, ".1f") for v in values]
    lo, hi = min(finite), max(finite)
    if hi <= 1000 * lo:
        return [_float_text(v, _spec(hi, significant)) for v in values]
    return [_float_text(v, _spec(abs(float(v)), significant)) if v else _float_text(v, ".1f") for v in values]


def _spec(magnitude: float, significant: int) -> str:
    """The format of a number of this magnitude to ``significant`` digits: fixed decimals, or scientific."""
    if not math.isfinite(magnitude) or magnitude == 0:
        return ".1f"
    decimals = significant - 1 - math.floor(math.log10(magnitude))
    if decimals > 9 or magnitude >= 1e12:
        return f".{significant - 1}e"
    return f".{max(decimals, 1)}f"


def _float_text(value: Any, spec: str) -> str:
    if value is None:
        return "-"
    v = float(value)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return format(v, spec)


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, default=str)
    from toolkit.records.validation import escape_controls  # a seat's or a file's name: never raw to a terminal

    return escape_controls(str(value))


def _numeric(dtype: pl.DataType) -> bool:
    return dtype.is_numeric() and dtype != pl.Boolean


# ----------------------------------------------------------------------------------------------- tables
def _min_width(texts: Sequence[str]) -> int:
    """The narrowest a column of these texts can be without breaking a word."""
    from rich.cells import cell_len

    return max((cell_len(word) for text in texts for word in text.split()), default=1)


def _max_width(texts: Sequence[str]) -> int:
    """The width of a column of these texts on one line each."""
    from rich.cells import cell_len

    return max((cell_len(text) for text in texts), default=1)


def _overhead(n: int) -> int:
    """Characters a table of ``n`` columns adds to their texts: one space of padding each side, one between."""
    return max(3 * n - 3, 0)


def _widths(need: Sequence[int], fill: Sequence[int], want: Sequence[int], width: int) -> list[int]:
    """Column widths from their least (``need``), their cells on one line (``fill``) and their headers too (``want``).

    The spare width goes to the cells first, the narrow columns served first; what is left
    widens the headers, so a header wraps at its spaces before a cell of text does.
    """
    widths = list(need)
    spare = width - _overhead(len(need)) - sum(need)
    for target in (fill, want):
        order = sorted(range(len(need)), key=lambda i: target[i] - widths[i])
        for k, i in enumerate(order):
            if spare <= 0:
                return widths
            share = spare // (len(order) - k)  # an even share of what is left, for this and the wider ones
            give = min(max(target[i] - widths[i], 0), max(share, 0))
            widths[i] += give
            spare -= give
    return widths


def _groups(rest: Sequence[str], fixed: Sequence[str], need: Mapping[str, int], together: set[str], width: int):
    """The columns after the keys cut into tables that fit; the ``together`` columns all go in the first."""
    first = [n for n in rest if n in together]
    groups: list[list[str]] = []
    current: list[str] = list(first)
    for name in (n for n in rest if n not in together):
        trial = [*fixed, *current, name]
        if current and sum(need[n] for n in trial) + _overhead(len(trial)) > width:
            groups.append(current)
            current = []
        current.append(name)
    groups.append(current)
    if first:  # the columns that belong together keep their order in the frame
        groups[0] = [n for n in rest if n in groups[0]]
    return groups


def _fits(names: Sequence[str], need: Mapping[str, int], width: int) -> bool:
    return sum(need[n] for n in names) + _overhead(len(names)) <= width


def render_table(
    frame: pl.DataFrame,
    labels: Mapping[str, str] | None = None,
    formats: Mapping[str, Callable[[Any], str]] | None = None,
    keys: int = 1,
    title: str | None = None,
    width: int | None = None,
    *,
    together: Sequence[str] = (),
    optional: Sequence[str] = (),
    breakable: Sequence[str] | None = None,
) -> str:
    """The frame as text tables no wider than ``width`` (the terminal's by default).

    An identifier (a cell without a space: a bet, a system, a figure's name) is never
    broken, so a name read from the table pastes back into ``--bet``.  When the columns
    do not fit side by side, the table gives way in this order: headers wrap at their
    spaces; a column of long text (a description) moves to a table of its own beside the
    keys, where it takes the rest of the width; the other cells of text wrap at their
    spaces; the ``optional`` columns are left out (a last line names them); and only then
    is it cut into several tables, each repeating the keys.

    Parameters
    ----------
    labels
        Header text of some columns (the column's name otherwise): a header may
        carry the unit, ``"house edge (per unit)"``; it wraps at its spaces.
    formats
        A function of one value giving the text of a cell, for some columns.
    keys
        The first ``keys`` columns name the rows: when the columns do not fit side
        by side they are cut into several tables, each repeating these.
    title
        A line above the (first) table, wrapped at words.
    together
        Columns read against each other (a published figure and the toolkit's): never
        cut apart, shown in the first table beside the keys.
    optional
        Columns left out, first named first, before the table would be cut in two.
    breakable
        Accepted for the callers written when identifiers could wrap after an underscore;
        identifiers are now never broken, so it changes nothing.

    Examples
    --------
    >>> figures = ["house_edge_ties_excluded_8d", "house_edge_8d"]
    >>> frame = pl.DataFrame({"figure": figures, "published": [1.0579, 1.0579], "toolkit": [1.05791, 1.05791]})
    >>> print(render_table(frame, width=50, together=("published", "toolkit")).rstrip())
    figure                        published   toolkit
    ─────────────────────────────────────────────────
    house_edge_ties_excluded_8d     1.05790   1.05791
    house_edge_8d                   1.05790   1.05791
    >>> bets = pl.DataFrame({"bet": ["banker", "dragon7"], "edge": [0.0106, 0.0761],
    ...     "description": ["Banker wins pays 19/20; tie pushes", "Banker wins with a three-card 7: 40:1"]})
    >>> print(render_table(bets, width=40).rstrip())
    bet            edge
    ───────────────────
    banker    0.0106000
    dragon7   0.0761000
    <BLANKLINE>
    bet       description
    ────────────────────────────────────────
    banker    Banker wins pays 19/20; tie
              pushes
    dragon7   Banker wins with a three-card
              7: 40:1
    """
    width = terminal_width() if width is None else width
    labels = dict(labels or {})
    formats = dict(formats or {})
    names = frame.columns
    cells = {name: _cells(frame[name], formats.get(name)) for name in names}
    heads = {name: labels.get(name, name) for name in names}
    need, fill, want = _column_widths(names, heads, cells, width)
    if frame.height == 1 and len(names) > 2 and sum(want.values()) + _overhead(len(names)) > width:
        return render_table(
            pl.DataFrame({"quantity": [heads[n] for n in names], "value": [cells[n][0] for n in names]}),
            title=title,
            width=width,
        )
    keys = max(0, min(keys, len(names) - 1)) if len(names) > 1 else 0
    prose = _prose(names, keys, frame, cells, together, fill, width)
    shown = _without_optional([n for n in names if n not in prose], optional, keys, need, width)
    left_out = [n for n in names if n not in shown and n not in prose]
    key_cols = shown[:keys]
    groups = [g for g in _groups(shown[keys:], key_cols, need, set(together), width) if g or not prose]
    groups += [[name] for name in prose]  # each long text in a table of its own beside the keys
    # keys too wide to stand beside the columns read together: each row's names on a line of their own above it
    above = bool(key_cols) and not _fits(key_cols + [n for n in together if n in shown], need, width)
    tables = [
        _group_table(frame, group, key_cols, (need, fill, want), heads, cells, width, above, group[0] in prose)
        for group in groups
    ]
    note = f"Not shown at this width: {', '.join(heads[n] for n in left_out)} (--format csv has every column)."
    return _draw(tables, title, note if left_out else None, width)


def _group_table(
    frame: pl.DataFrame,
    group: Sequence[str],
    key_cols: Sequence[str],
    sizes: tuple[Mapping[str, int], Mapping[str, int], Mapping[str, int]],
    heads: Mapping[str, str],
    cells: Mapping[str, list[str]],
    width: int,
    above: bool,
    prose: bool,
) -> Any:
    """One of the tables: ``group`` beside the keys (or the keys above each row), a table of text its rows with some."""
    need, fill, want = sizes
    columns = [*group] if above and not prose else [*key_cols, *group]
    widths = _widths([need[n] for n in columns], [fill[n] for n in columns], [want[n] for n in columns], width)
    sized = dict(zip(columns, widths, strict=True))
    if prose:  # a table of long text lists the rows that have some
        rows = [r for r in range(frame.height) if cells[group[0]][r] not in ("", "-")]
        return _table(frame, sized, heads, cells, rows) if rows else []
    if above:
        return _keys_above(frame, key_cols, sized, heads, cells)
    return _table(frame, sized, heads, cells)


def _draw(tables: Sequence[Any], title: str | None, note: str | None, width: int) -> str:
    """The rich ``tables`` as text ``width`` wide, a blank line between them, the title above and the note below."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, highlight=False, color_system=None, force_terminal=False, legacy_windows=False
    )
    if title:
        buffer.write(wrap(title, width) + "\n")
    for i, table in enumerate(t for t in tables if t != []):
        if i:
            buffer.write("\n")
        for part in table if isinstance(table, list) else [table]:
            if isinstance(part, str):
                buffer.write(part + "\n")
            else:
                console.print(part)
    if note:
        buffer.write(wrap(note, width) + "\n")
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"


def _prose(
    names: Sequence[str],
    keys: int,
    frame: pl.DataFrame,
    cells: Mapping[str, list[str]],
    together: Sequence[str],
    fill: Mapping[str, int],
    width: int,
) -> list[str]:
    """The columns of long text set apart, each in a table of its own beside the keys, when the rows do not fit.

    A description squeezed beside the numbers wraps into a line or two a word; beside the keys alone
    it takes the rest of the width and a line or two a row.  Columns read ``together`` stay in place.
    """
    if sum(fill[n] for n in names) + _overhead(len(names)) <= width:
        return []
    return [
        name
        for name in names[keys:]
        if name not in together
        and not _numeric(frame.schema[name])
        and fill[name] > PROSE
        and any(" " in text for text in cells[name])
    ]


def _column_widths(
    names: Sequence[str], heads: Mapping[str, str], cells: Mapping[str, list[str]], width: int
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Each column's least width (its longest word), the width of its longest cell and of its header too."""
    need = {name: min(_min_width([heads[name], *cells[name]]), width) for name in names}
    fill = {name: max(need[name], _max_width(cells[name])) for name in names}
    want = {name: max(fill[name], _max_width([heads[name]])) for name in names}
    for name in names:  # short cells (a hand of cards, a number) are never wrapped: a column holds them whole
        longest = _max_width(cells[name]) if cells[name] else 0
        if longest <= SHORT and want[name] <= width:
            need[name] = max(need[name], longest)
    return need, fill, want


def _cells(column: pl.Series, fn: Callable[[Any], str] | None) -> list[str]:
    """The text of a column's cells: by ``fn`` when given, else as :func:`format_column` writes them."""
    return [fn(v) for v in column.to_list()] if fn is not None else format_column(column)


def _without_optional(
    names: Sequence[str], optional: Sequence[str], keys: int, need: Mapping[str, int], width: int
) -> list[str]:
    """The columns shown: the ``optional`` ones left out, first named first, until the rest fit ``width``."""
    shown = list(names)
    for name in optional:
        if _fits(shown, need, width):
            break
        if name in shown[keys:]:
            shown.remove(name)
    return shown


def _table(
    frame: pl.DataFrame,
    sized: Mapping[str, int],
    heads: Mapping[str, str],
    cells: Mapping[str, list[str]],
    rows: Sequence[int] | None = None,
    header: bool = True,
) -> Any:
    """One rich table of the columns in ``sized`` (name: width), numbers to the right, identifiers whole.

    ``rows``: the rows shown (every one by default); ``header``: show the header and its rule.
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), show_header=header)
    for name, size in sized.items():
        right = _numeric(frame.schema[name])
        table.add_column(Text(heads[name]), justify="right" if right else "left", overflow="fold", width=size)
    for row in range(frame.height) if rows is None else rows:
        table.add_row(*(Text(cells[n][row]) for n in sized))
    return table


def _keys_above(
    frame: pl.DataFrame,
    key_cols: Sequence[str],
    sized: Mapping[str, int],
    heads: Mapping[str, str],
    cells: Mapping[str, list[str]],
) -> list[Any]:
    """The table of the ``sized`` columns with each row's keys whole on a line of their own above the row."""
    parts: list[Any] = ["   ".join(heads[n] for n in key_cols), _table(frame, sized, heads, cells, rows=())]
    for row in range(frame.height):
        parts += ["   ".join(cells[n][row] for n in key_cols), _table(frame, sized, heads, cells, (row,), False)]
    return parts


# ----------------------------------------------------------------------------------------------- files
def _flat(frame: pl.DataFrame) -> pl.DataFrame:
    """Nested columns as text, for CSV: lists of scalars joined by spaces, anything else as JSON."""
    out = []
    for name, dtype in frame.schema.items():
        if isinstance(dtype, pl.List) and not dtype.inner.is_nested():
            out.append(frame[name].cast(pl.List(pl.String)).list.join(" ").alias(name))
        elif dtype.is_nested() or dtype == pl.Object:
            out.append(pl.Series(name, [json.dumps(v, default=str) for v in frame[name].to_list()], pl.String))
        else:
            out.append(frame[name])
    return pl.DataFrame(out)


def csv_text(frame: pl.DataFrame) -> str:
    """The frame as CSV, at full precision (lists of cards as text separated by spaces)."""
    return _flat(frame).write_csv()


def json_text(payload: Any) -> str:
    """``payload`` as indented JSON (a frame: a list of rows); NaN and the infinities become ``null``."""
    if isinstance(payload, pl.DataFrame):
        payload = payload.to_dicts()
    return json.dumps(_finite(payload), indent=2, default=str) + "\n"


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
