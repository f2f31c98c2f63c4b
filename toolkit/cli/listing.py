"""``baccarat list bets|systems|rules``: the names the other commands take, in one place.

Every help text that takes a bet, a count system or a header key sends the reader here,
so a name listed is a name accepted (the lists are read from the library itself).
"""

from __future__ import annotations

from enum import Enum

import typer

from toolkit.cli._common import FORMAT_OPTION, OutputFormat, emit

__all__ = ["register"]


class What(str, Enum):
    bets = "bets"
    systems = "systems"
    rules = "rules"


def listing(
    what: What = typer.Argument(..., help="bets (--bet), systems (--system) or rules (--header keys, defaults)."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """The names other commands take: every bet (--bet), count system (--system) or house rule (--header)."""
    import polars as pl

    if what == What.bets:
        from toolkit.bets.catalogue import catalogue_names
        from toolkit.bets.paytable import bet_names, get_bet

        side = set(catalogue_names())
        rows = [
            {"bet": n, "kind": "side bet" if n in side else "panel", "description": get_bet(n).description}
            for n in bet_names()
        ]
        emit(pl.DataFrame(rows), fmt)
    elif what == What.systems:
        from toolkit.counting.systems import COUNT_SYSTEMS
        from toolkit.coup.cards import RANKS

        rows = [
            {
                "system": s.name,
                "bet": s.bet or "-",
                "tags": " ".join(f"{r}={t:+d}" if t else f"{r}=0" for r, t in zip(RANKS, s.tags, strict=True)),
                "bets at": "-" if s.threshold is None else f"{s.trigger} count >= {s.threshold:g}",
            }
            for s in COUNT_SYSTEMS.values()
        ]
        emit(pl.DataFrame(rows), fmt)
    else:
        from toolkit.records.header import ShoeHeader

        defaults = ShoeHeader().settings()
        rows = [{"key": k, "default": "-" if v is None else _text(v)} for k, v in defaults.items()]
        emit(pl.DataFrame(rows), fmt)


def _text(value: object) -> str:
    """A default as a header takes it: ``0.05`` for the fraction 1/20."""
    from fractions import Fraction

    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):g}"
    return str(value)


def register(app: typer.Typer) -> None:
    """Add ``list`` to the ``baccarat`` app."""
    app.command("list")(listing)
