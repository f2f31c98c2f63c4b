"""How the package's objects print: short reprs and small HTML tables for notebooks.

A result object prints a few lines (a title and its headline figures) and shows
a small HTML table in Jupyter (``_repr_html_``), never the dump of its arrays.
Settings objects (:class:`~toolkit.coup.rules.Rules`, :class:`~toolkit.dealing.dealer.Dealing`,
...) print only the fields that differ from their defaults, so a signature such
as ``edge_table(shoe=8, bets=None, rules=Rules(), exact=True)`` stays readable.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Point:
...     x: int = 0
...     y: int = 0
>>> changed_fields(Point(y=2))
'Point(y=2)'
>>> print(text_table("Point", [("x", 0), ("y", 0.123456789)]))
Point
  x  0
  y  0.123457
"""

from __future__ import annotations

import dataclasses
import enum
import html
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["changed_fields", "frame_html", "frame_text", "html_table", "shown", "text_table"]

#: The most rows a table shows before it elides the rest.
MAX_ROWS = 12


def _default(f: dataclasses.Field[Any]) -> object:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def _equal(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # arrays compare element-wise
        return a is b


def changed_fields(obj: object, name: str | None = None, skip: Iterable[str] = ()) -> str:
    """``Name(field=value, ...)`` of a dataclass with only the fields that differ from their defaults.

    Enum members show as their values (which the constructors accept), so
    ``Dealing(burn="none")`` prints as it is written.

    Parameters
    ----------
    obj
        A dataclass instance.
    name
        The class name to show (default: the class's own).
    skip
        Fields never shown (long texts such as a source).

    Returns
    -------
    str
        The short repr.
    """
    if not dataclasses.is_dataclass(obj):
        raise TypeError(f"changed_fields needs a dataclass instance, got {type(obj).__name__}")
    parts = []
    hidden = set(skip)
    for f in dataclasses.fields(obj):
        if not f.repr or f.name in hidden:
            continue
        value = getattr(obj, f.name)
        default = _default(f)
        if default is not dataclasses.MISSING and _equal(value, default):
            continue
        parts.append(f"{f.name}={_value_repr(value)}")
    return f"{name or type(obj).__name__}({', '.join(parts)})"


def _value_repr(value: object) -> str:
    if isinstance(value, enum.Enum):
        return repr(value.value)
    if isinstance(value, Fraction) and value.denominator == 1:
        return repr(value.numerator)
    return repr(value)


def shown(value: object) -> str:
    """A value as a table cell: floats to 6 significant digits, fractions as decimals, arrays by shape.

    Parameters
    ----------
    value
        Any value.

    Returns
    -------
    str
        Its short text.

    Examples
    --------
    >>> shown(Fraction(1, 3)), shown(12345678), shown(np.zeros((3, 13)))
    ('0.333333 (exact 1/3)', '12,345,678', 'array (3, 13)')
    """
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return f"{value.numerator:,}"
        exact = str(value)
        decimal = f"{float(value):.6g}"
        return f"{decimal} (exact {exact})" if len(exact) <= 24 else f"{decimal} (exact)"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    if isinstance(value, np.ndarray):
        return f"array {value.shape}"
    if isinstance(value, enum.Enum):
        return str(value.value)
    height = getattr(value, "height", None)
    width = getattr(value, "width", None)
    if isinstance(height, int) and isinstance(width, int):
        return f"frame {height:,} x {width}"
    text = str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def text_table(title: str, rows: Iterable[tuple[str, object]], max_rows: int = MAX_ROWS) -> str:
    """A title and aligned ``name  value`` lines (at most ``max_rows``; the rest elided).

    Parameters
    ----------
    title
        The first line.
    rows
        ``(name, value)`` pairs; values go through :func:`shown`.
    max_rows
        The most lines shown.

    Returns
    -------
    str
        The text, a few lines.
    """
    items = [(str(k), shown(v)) for k, v in rows]
    extra = len(items) - max_rows
    items = items[:max_rows]
    width = max((len(k) for k, _ in items), default=0)
    lines = [title, *(f"  {k.ljust(width)}  {v}" for k, v in items)]
    if extra > 0:
        lines.append(f"  ... {extra} more")
    return "\n".join(lines)


def html_table(title: str, rows: Iterable[tuple[str, object]], max_rows: int = MAX_ROWS) -> str:
    """The HTML twin of :func:`text_table`: a two-column ``<table>`` with a caption.

    Parameters
    ----------
    title
        The table's caption.
    rows
        ``(name, value)`` pairs; values go through :func:`shown`.
    max_rows
        The most rows shown.

    Returns
    -------
    str
        An HTML fragment.

    Examples
    --------
    >>> html_table("t", [("a", 1)])
    '<table><caption>t</caption><tr><th style="text-align:left">a</th><td>1</td></tr></table>'
    """
    items = [(str(k), shown(v)) for k, v in rows]
    extra = len(items) - max_rows
    body = "".join(
        f'<tr><th style="text-align:left">{html.escape(k)}</th><td>{html.escape(v)}</td></tr>'
        for k, v in items[:max_rows]
    )
    if extra > 0:
        body += f'<tr><td colspan="2">... {extra} more</td></tr>'
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"


def frame_html(title: str, frame: Any, max_rows: int = MAX_ROWS) -> str:
    """A caption over the first ``max_rows`` rows of a polars frame, as an HTML ``<table>``.

    Parameters
    ----------
    title
        The caption.
    frame
        A :class:`polars.DataFrame`.
    max_rows
        The most rows shown (the count of the rest is said).

    Returns
    -------
    str
        An HTML fragment.
    """
    head = frame.head(max_rows)
    cells = "".join(f"<th>{html.escape(str(c))}</th>" for c in head.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(shown(v))}</td>" for v in row) + "</tr>" for row in head.iter_rows()
    )
    more = frame.height - head.height
    if more > 0:
        body += f'<tr><td colspan="{len(head.columns)}">... {more:,} more rows</td></tr>'
    return f"<table><caption>{html.escape(title)}</caption><tr>{cells}</tr>{body}</table>"


def frame_text(title: str, frame: Any, columns: Sequence[str] | None = None, max_rows: int = MAX_ROWS) -> str:
    """A title over the first ``max_rows`` rows of a polars frame, in aligned plain text.

    Parameters
    ----------
    title
        The first line.
    frame
        A :class:`polars.DataFrame`.
    columns
        The columns shown (default: all).
    max_rows
        The most rows shown.

    Returns
    -------
    str
        The text.
    """
    head = frame.head(max_rows)
    if columns is not None:
        head = head.select(columns)
    table = [list(head.columns), *([shown(v) for v in row] for row in head.iter_rows())]
    widths = [max(len(r[i]) for r in table) for i in range(len(head.columns))]
    lines = [title, *("  " + "  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in table)]
    more = frame.height - head.height
    if more > 0:
        lines.append(f"  ... {more:,} more rows")
    return "\n".join(lines)


def interval(value: float, low: float, high: float, digits: int = 4) -> str:
    """``value [low, high]`` to ``digits`` significant digits.

    Parameters
    ----------
    value, low, high
        An estimate and its confidence interval.
    digits
        Significant digits.

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> interval(0.0123456, 0.01, 0.015)
    '0.01235 [0.01, 0.015]'
    """
    return f"{value:.{digits}g} [{low:.{digits}g}, {high:.{digits}g}]"
