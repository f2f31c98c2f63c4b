"""``--rules FILE``: house rules from a TOML file (:mod:`toolkit.coup.rules_file`) for the commands that take them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from toolkit.cli._common import fail

if TYPE_CHECKING:
    from toolkit.coup.rules import Rules
    from toolkit.coup.rules_file import RulesFile

__all__ = ["RULES_OPTION", "house_rules", "read_rules_option"]

RULES_OPTION = typer.Option(
    None,
    "--rules",
    metavar="FILE",
    help="House rules in a TOML file: the drawing rules, and optionally commission and tie_pays (see data/rules).",
)

#: The commission and Tie payout options' defaults: a file's value replaces them, a different option beside it clashes.
DEFAULT_COMMISSION, DEFAULT_TIE_PAYS = 0.05, 8.0


def read_rules_option(path: Path | None) -> RulesFile | None:
    """The rules file named by ``--rules`` (``None`` when none was given); a bad file: one line, exit 2."""
    if path is None:
        return None
    from toolkit.coup.rules_file import read_rules_file

    try:
        return read_rules_file(path)
    except ValueError as err:
        fail(f"--rules: {err}")
    raise AssertionError("unreachable")


def house_rules(decks: int | None, commission: float, tie_pays: float, path: Path | None) -> Rules:
    """The :class:`~toolkit.coup.rules.Rules` of the options and the rules file (bad values: one line, exit 2)."""
    from toolkit._check import as_fraction
    from toolkit.coup.rules import Rules

    read = read_rules_option(path)
    try:
        if read is None:
            return Rules(decks=decks or 8, commission=as_fraction(commission), tie_pays=as_fraction(tie_pays))
        for option, given, default, in_file in (
            ("--commission", commission, DEFAULT_COMMISSION, read.commission),
            ("--tie-pays", tie_pays, DEFAULT_TIE_PAYS, read.tie_pays),
        ):
            if in_file is not None and given != default and as_fraction(given) != in_file:
                fail(f"{option} {given:g} differs from the rules file's {float(in_file):g} ({read.path}); give one")
        return read.rules(decks or 8, as_fraction(commission), as_fraction(tie_pays))
    except (ValueError, TypeError) as err:
        fail(str(err))
    raise AssertionError("unreachable")
