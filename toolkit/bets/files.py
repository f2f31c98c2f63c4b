"""Pay tables written as rows of conditions, in Python or in a TOML file.

A side bet is usually printed as a pay table: "Banker wins with a two-card 6:
12 to 1; with a three-card 6: 20 to 1; otherwise the bet loses".  Here each row
is a *condition* over the coup fields (:data:`toolkit.bets.fields.FIELDS`)
written as a SQL expression, and what it pays; the first row that holds pays,
else the default.  Conditions are read by :func:`toolkit.bets.conditions.condition`
into an allow-listed, type-checked tree (fields, literals, comparisons, logic,
``IN``, ``BETWEEN``, ``IS NULL``, arithmetic) and only then built as a polars
expression: never by polars' SQL engine, never by Python's ``eval``.

A bet file:

.. code-block:: toml

    name = "three_giving_eight"
    description = "Banker's two-card 3 and Player's third card an 8"
    default = -1

    [[pays]]
    when = "banker_two_card_total = 3 AND player_3_value = 8"
    pays = 200

The file is UTF-8 text (a byte-order mark is allowed); the name holds no control
characters; a payout lies within ``-1,000,000..1,000,000`` to one.

>>> expr = pay_table([("winner = 'banker' AND banker_total = 6", 12)], default=-1, name="tiger6")
>>> expr.meta.root_names()
['winner', 'banker_total']
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from toolkit._check import payout, plain_text
from toolkit._files import read_limited
from toolkit.bets.conditions import condition

__all__ = ["MAX_BET_FILE_BYTES", "MAX_PAY_ROWS", "BetSpec", "pay_table", "read_bet_file"]

#: The most bytes a bet file may hold (1 MiB).
MAX_BET_FILE_BYTES = 2**20
#: The most ``[[pays]]`` rows a bet file may hold (each condition is bounded by :mod:`toolkit.bets.conditions`).
MAX_PAY_ROWS = 256


@dataclass(frozen=True)
class BetSpec:
    """A bet read from rows or a file: its name, payout expression and description.

    Attributes
    ----------
    name
        The bet's name.
    expr
        Its payout over the coup fields.
    description
        One line for tables.
    rows
        The ``(condition, payout)`` rows it was written from.
    default
        What it pays when no row holds.
    """

    name: str
    expr: pl.Expr
    description: str = ""
    rows: tuple[tuple[str, object], ...] = ()
    default: object = -1


def _payout(value: object, where: str) -> Fraction:
    """A row's payout, exact, within ``|payout| <= 1,000,000`` to one (:data:`toolkit._check.MAX_PAYOUT`)."""
    try:
        return payout(value, where)
    except TypeError as err:
        raise ValueError(str(err)) from None


def _decode(data: bytes, path: object) -> str:
    """A bet file's bytes as text: UTF-8, with or without a byte-order mark; else one line naming the file."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{path}: the bet file is not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start}); "
            "save it as UTF-8"
        ) from None


def _condition(text: object, where: str) -> pl.Expr:
    try:
        return condition(text)
    except ValueError as err:
        shown = f" {_shown(text)}" if isinstance(text, str) else ""
        raise ValueError(f"{where}, condition{shown}: {err}") from None


def _shown(text: str, width: int = 60) -> str:
    """A condition quoted for a one-line message: escapes shown, long text cut."""
    return repr(text) if len(text) <= width else repr(text[:width]) + "..."


def pay_table(
    rows: Sequence[tuple[str, object]], default: object = -1, name: str = "bet", where: str | None = None
) -> pl.Expr:
    """The payout expression of a pay table: ``[(condition, pays), ...]``, first match pays, else ``default``.

    Parameters
    ----------
    rows
        ``(condition, payout)`` pairs: a SQL condition over the coup fields and
        the payout to one (a number or a fraction string such as ``"3/2"``), within
        ``-1,000,000..1,000,000`` to one (:data:`toolkit._check.MAX_PAYOUT`; more is refused).
    default
        What the bet pays when no row holds (``-1``: it loses; ``0``: a push), within the same bound.
    name
        The bet's name, for error messages.
    where
        Where the rows come from (a file name), for error messages.

    Returns
    -------
    polars.Expr
        The payout over the coup fields.
    """
    place = where or f"bet {name!r}"
    if not rows:
        raise ValueError(f"{place}: a pay table needs at least one row")
    if len(rows) > MAX_PAY_ROWS:
        raise ValueError(f"{place}: a pay table holds at most {MAX_PAY_ROWS} rows, got {len(rows):,}")
    chain: Any = None
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, tuple | list) or len(row) != 2:
            raise ValueError(f"{place}: row {i} must be (condition, payout), got {row!r}")
        cond = _condition(row[0], f"{place}, row {i}")
        pays = float(_payout(row[1], f"{place}, row {i}"))
        chain = pl.when(cond).then(pl.lit(pays)) if chain is None else chain.when(cond).then(pl.lit(pays))
    base = float(_payout(default, f"{place}, default"))
    return chain.otherwise(pl.lit(base))


def read_bet_file(path: str | Path) -> BetSpec:
    """Read a bet from a TOML file (see the module notes); errors name the file and the key.

    Parameters
    ----------
    path
        The file: a regular file of at most :data:`MAX_BET_FILE_BYTES` (1 MiB)
        with at most :data:`MAX_PAY_ROWS` (256) ``[[pays]]`` rows.  Anything else
        (a folder, a device such as ``/dev/zero``, a named pipe, a larger file)
        raises :class:`ValueError` naming the file, before it is read.

    Returns
    -------
    BetSpec
        Name, payout expression and description.
    """
    p = Path(path)
    try:
        data = tomllib.loads(_decode(read_limited(p, MAX_BET_FILE_BYTES, "a bet file"), p))
    except OSError as err:
        raise ValueError(f"{p}: cannot read the bet file: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{p}: not valid TOML: {err}") from None
    known = {"name", "description", "default", "pays"}
    extra = sorted(set(data) - known)
    if extra:
        raise ValueError(f"{p}: unknown key {extra[0]!r}; a bet file has {', '.join(sorted(known))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{p}: 'name' must be a non-empty string, got {name!r}")
    plain_text(name, f"{p}: 'name'")
    pays = data.get("pays")
    if not isinstance(pays, list) or not pays:
        raise ValueError(f"{p}: give at least one [[pays]] row with 'when' and 'pays'")
    if len(pays) > MAX_PAY_ROWS:
        raise ValueError(f"{p}: {len(pays):,} [[pays]] rows; a bet file holds at most {MAX_PAY_ROWS}")
    rows = []
    for i, row in enumerate(pays, start=1):
        if not isinstance(row, dict) or set(row) != {"when", "pays"}:
            keys = sorted(row) if isinstance(row, dict) else row
            raise ValueError(f"{p}: pays row {i} must have exactly 'when' and 'pays', got {keys!r}")
        rows.append((row["when"], row["pays"]))
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ValueError(f"{p}: 'description' must be a string, got {description!r}")
    expr = pay_table(rows, data.get("default", -1), name, where=f"{p}: pays")
    return BetSpec(name.strip(), expr, description, tuple(rows), data.get("default", -1))
