"""The bet options every bet-taking command shares: ``--bet NAME`` (repeatable) and ``--bet-file F``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from toolkit._check import whole_number
from toolkit.cli._common import fail, shoe_from_options

if TYPE_CHECKING:
    from toolkit.bets.base import Bet
    from toolkit.coup.rules import Rules

__all__ = ["BET_FILE_OPTION", "BET_OPTION", "SHOE_52_OPTION", "bets_from_options", "one_bet", "shoe_for_bets"]

BET_OPTION = typer.Option(
    [],
    "--bet",
    help="A bet to add beyond the standard panel, by name (repeatable): the panel's and the side-bet catalogue's"
    " (perfect_pair, tiger_pair, lucky6, three_giving_eight, ...; see 'baccarat list bets').",
)
SHOE_52_OPTION = typer.Option(
    None,
    "--shoe",
    help="Remaining shoe: 10 counts by value 0-9, 13 by rank A..K, or 52 by card (As,Ah,Ad,Ac,2s,...,Kc).",
)
BET_FILE_OPTION = typer.Option(
    [], "--bet-file", help="A bet defined in a TOML file: name, [[pays]] rows of 'when' (SQL) and 'pays' (repeatable)."
)


def bets_from_options(
    names: list[str], files: list[Path], rules: Rules | None = None, panel: Iterable[str] = ()
) -> list[Bet]:
    """The bets named by ``--bet`` and defined by ``--bet-file`` (a bad one: one line, exit 2).

    Every bet's name must be its own: two bets of one name, or a bet named like one of ``panel``
    (the bets the command shows anyway), are refused rather than shown twice or one over the other.
    """
    from toolkit.bets.paytable import bet_from_file, get_bet
    from toolkit.coup.rules import Rules as _Rules

    rules = _Rules() if rules is None else rules
    given: list[tuple[Bet, str]] = []
    for name in names:
        for part in (p.strip() for p in name.split(",")):
            if not part:
                continue
            try:
                given.append((get_bet(part, rules), f"--bet {part}"))
            except (ValueError, TypeError) as err:
                fail(f"--bet: {err}")
    for path in files:
        try:
            given.append((bet_from_file(str(path)), f"--bet-file {path}"))
        except (ValueError, TypeError) as err:
            fail(f"--bet-file: {err}")
    shown = set(panel)
    seen: dict[str, str] = {}
    for bet, origin in given:
        if bet.name in shown:
            fail(f"{origin}: the bet {bet.name!r} is already on the panel shown; give a bet of another name")
        if bet.name in seen:
            fail(f"a bet named {bet.name!r} is given twice ({seen[bet.name]} and {origin}); give each once")
        seen[bet.name] = origin
    return [bet for bet, _ in given]


def one_bet(bets: list[str], files: list[Path], hint: str = "") -> tuple[str | None, Path | None]:
    """The one ``--bet`` or ``--bet-file`` of a command that takes one bet (none, two or both: one line, exit 2).

    The options are lists so that a second one is seen and refused, not silently put in the first's place.
    """
    if len(bets) + len(files) != 1:
        given = " ".join([*(f"--bet {b}" for b in bets), *(f"--bet-file {f}" for f in files)])
        said = given if given else "none" + hint
        fail(f"this command takes one bet: give one --bet NAME or one --bet-file FILE, got {said}")
    return (bets[0] if bets else None), (files[0] if files else None)


def shoe_for_bets(decks: int | None, shoe: str | None):
    """Like :func:`~toolkit.cli._common.shoe_from_options`, and 52 counts by card read as a suited shoe."""
    if shoe is not None and len([p for p in shoe.split(",") if p.strip()]) == 52:
        if decks is not None:
            fail("give either --decks or --shoe, not both")
        from toolkit.coup.suits import SuitedShoe

        try:
            counts = [whole_number(p, f"count {i}") for i, p in enumerate(shoe.split(","), 1) if p.strip()]
            return SuitedShoe.from_any(counts)
        except ValueError as err:
            fail(f"--shoe: {err}")
    return shoe_from_options(decks, shoe)
