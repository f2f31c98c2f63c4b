"""The bet options every bet-taking command shares: ``--bet NAME`` (repeatable) and ``--bet-file F``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from toolkit.cli._common import fail, shoe_from_options

if TYPE_CHECKING:
    from toolkit.bets import AnyBet
    from toolkit.rules import Rules

__all__ = ["BET_FILE_OPTION", "BET_OPTION", "SHOE_52_OPTION", "bets_from_options", "shoe_for_bets"]

BET_OPTION = typer.Option(
    [],
    "--bet",
    help="A bet to add beyond the standard panel, by name (repeatable): the panel's and the side-bet catalogue's"
    " (perfect_pair, tiger_pair, lucky6, three_giving_eight, ...; see 'baccarat ca --help').",
)
SHOE_52_OPTION = typer.Option(
    None,
    "--shoe",
    help="Remaining shoe: 10 counts by value 0-9, 13 by rank A..K, or 52 by card (As,Ah,Ad,Ac,2s,...,Kc).",
)
BET_FILE_OPTION = typer.Option(
    [], "--bet-file", help="A bet defined in a TOML file: name, [[pays]] rows of 'when' (SQL) and 'pays' (repeatable)."
)


def bets_from_options(names: list[str], files: list[Path], rules: Rules | None = None) -> list[AnyBet]:
    """The bets named by ``--bet`` and defined by ``--bet-file`` (a bad one: one line, exit 2)."""
    from toolkit.bets import bet_from_file, get_bet
    from toolkit.rules import Rules as _Rules

    rules = _Rules() if rules is None else rules
    out: list[AnyBet] = []
    for name in names:
        for part in (p.strip() for p in name.split(",")):
            if not part:
                continue
            try:
                out.append(get_bet(part, rules))
            except (ValueError, TypeError) as err:
                fail(f"--bet: {err}")
    for path in files:
        try:
            out.append(bet_from_file(str(path)))
        except (ValueError, TypeError) as err:
            fail(f"--bet-file: {err}")
    seen: set[str] = set()
    for bet in out:
        if bet.name in seen:
            fail(f"bet {bet.name!r} is given twice")
        seen.add(bet.name)
    return out


def shoe_for_bets(decks: int | None, shoe: str | None):
    """Like :func:`~toolkit.cli._common.shoe_from_options`, and 52 counts by card read as a suited shoe."""
    if shoe is not None and len([p for p in shoe.split(",") if p.strip()]) == 52:
        if decks is not None:
            fail("give either --decks or --shoe, not both")
        from toolkit.suits import SuitedShoe

        try:
            return SuitedShoe.from_any([int(p) for p in shoe.split(",") if p.strip()])
        except ValueError as err:
            fail(f"--shoe: {err}")
    return shoe_from_options(decks, shoe)
