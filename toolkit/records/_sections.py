"""The header of each shoe of a record: the ``header=`` argument, header sections, shoes' own keys, lost lines.

Private to :mod:`toolkit.records._load`.  A file's first header applies to its shoes; a
header after the first rows begins a section that applies to the shoes that begin after
it (see :class:`toolkit.records._raw.Section`); a shoe's own keys apply over its section's.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping

import numpy as np
import polars as pl

from toolkit.records._raw import Raw
from toolkit.records.header import ShoeHeader
from toolkit.records.validation import Checker

__all__ = ["HeaderArg", "caller_header", "line_problems", "section_headers", "shoe_headers"]

#: What ``header=`` takes: a :class:`ShoeHeader`, ``key=value`` settings, or their text (``"decks=6 burn=none"``).
HeaderArg = ShoeHeader | Mapping[str, object] | str | None


def caller_header(header: HeaderArg) -> ShoeHeader | Mapping[str, object] | None:
    """The ``header=`` argument of the readers, its text form parsed; anything else is refused.

    >>> caller_header("decks=6 burn=none")
    {'decks': '6', 'burn': 'none'}
    """
    if header is None or isinstance(header, (ShoeHeader, Mapping)):
        return header
    if isinstance(header, str):
        words = header.strip().lstrip("#").split()
        if not all("=" in w and not w.startswith("=") for w in words):
            raise ValueError(f"header must be key=value words, e.g. 'decks=6 burn=none'; got {header!r}")
        values: dict[str, object] = {}
        for key, value in (w.split("=", 1) for w in words):
            if key in values and values[key] != value:
                raise ValueError(f"header key {key} is given twice, as {values[key]!r} and {value!r}")
            values[key] = value
        return values
    raise TypeError(f"header must be a ShoeHeader, a mapping of header keys or their text; got {type(header).__name__}")


def shoe_headers(raw: Raw, bases: Mapping[str, ShoeHeader], checker: Checker) -> dict[str, ShoeHeader]:
    """The header of every shoe with keys of its own (over its section's); a bad one is a problem of that shoe."""
    headers: dict[str, ShoeHeader] = {}
    for shoe, values in raw.shoe_meta.items():
        if shoe not in bases:
            continue
        try:
            headers[shoe] = bases[shoe].updated(values)
        except (ValueError, TypeError) as err:
            checker.add(raw.meta_lines.get(shoe), shoe, None, "bad_header", f"shoe header: {err}")
    return headers


def section_headers(
    raw: Raw,
    frame: pl.DataFrame,
    order: list[str],
    base: ShoeHeader,
    over: Mapping[str, object] | None,
    file_header: ShoeHeader,
    checker: Checker,
) -> dict[str, ShoeHeader]:
    """Each shoe's header before its own keys: the file's, or that of the header section its rows come after.

    A header line after the first rows applies to the shoes that begin after it; a
    shoe with rows on both sides of one is a problem of that shoe, as is a section
    whose keys conflict or are wrong.
    """
    if not raw.sections:
        return dict.fromkeys(order, file_header)
    starts = [s.line for s in raw.sections]
    spans = frame.group_by("shoe", maintain_order=True).agg(
        pl.col("line").min().alias("a"), pl.col("line").max().alias("b")
    )
    span = {s: (a, b) for s, a, b in spans.iter_rows()}
    made: dict[int, ShoeHeader | str] = {0: file_header}
    out: dict[str, ShoeHeader] = {}
    for shoe in order:
        first, last = span[shoe]
        k = bisect_left(starts, first)
        if bisect_left(starts, last) != k:
            line = starts[k]
            checker.add(
                line,
                shoe,
                None,
                "bad_header",
                f"the header at line {line} falls among the rows of shoe {shoe} (lines {first} to {last}): "
                "a header applies to the shoes after it",
            )
            continue
        if k not in made:
            section = raw.sections[k - 1]
            try:
                if section.error:
                    raise ValueError(section.error)
                section_header = base.updated(section.values)
                made[k] = section_header.updated(over) if over else section_header
            except (ValueError, TypeError) as err:
                made[k] = f"shoe header: {err}"
        made_k = made[k]
        if isinstance(made_k, str):
            checker.add(raw.sections[k - 1].line, shoe, None, "bad_header", f"{made_k} (the header of this shoe)")
        else:
            out[shoe] = made_k
    return out


def line_problems(raw: Raw, frame: pl.DataFrame, checker: Checker) -> None:
    """The problems of lines that could not be read; a lost line between two rows of one shoe is that shoe's."""
    if not raw.problems:
        return
    ordered = frame.select("line", "shoe").sort("line")
    lines, shoes = ordered["line"].to_numpy(), ordered["shoe"].to_list()
    for p in raw.problems:
        shoe = p.shoe
        if shoe is None and p.code == "bad_line" and p.line is not None and len(lines):
            k = int(np.searchsorted(lines, p.line))
            if 0 < k < len(lines) and shoes[k - 1] == shoes[k]:
                shoe = shoes[k]
        elif shoe is None and p.code == "bad_text" and p.line is not None and len(lines):  # a bad cell of a row
            k = int(np.searchsorted(lines, p.line))
            if k < len(lines) and lines[k] == p.line:
                shoe = shoes[k]
        checker.add(p.line, shoe, None, p.code, p.message)
