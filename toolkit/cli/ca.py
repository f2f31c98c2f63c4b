"""``baccarat ca``: the combinatorial-analysis table of a bet, in exact integers."""

from __future__ import annotations

from pathlib import Path

import typer

from toolkit.cli._bets import SHOE_52_OPTION, one_bet, shoe_for_bets
from toolkit.cli._common import DECKS_OPTION, FORMAT_OPTION, OutputFormat, emit, fail, say
from toolkit.cli._rules import RULES_OPTION, house_rules

__all__ = ["register"]


def ca(
    bets: list[str] = typer.Option([], "--bet", help="The bet, by name (standard panel or side-bet catalogue)."),
    bet_files: list[Path] = typer.Option([], "--bet-file", help="The bet, defined in a TOML file."),
    decks: int | None = DECKS_OPTION,
    shoe: str | None = SHOE_52_OPTION,
    rules_file: Path | None = RULES_OPTION,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """One row per payout: combinations (ordered six cards), probability, return; then edge, SD, hit frequency."""
    from toolkit.bets.ca import ca_summary
    from toolkit.bets.paytable import bet_from_file, bet_names, get_bet

    bet, bet_file = one_bet(bets, bet_files, f"; the named bets are {', '.join(bet_names())}")
    comp = shoe_for_bets(decks, shoe)
    if comp.total < 6:
        fail(f"the shoe holds {comp.total} card(s); a coup may need six (two hands of up to three cards)")
    rules = house_rules(decks, 0.05, 8.0, rules_file)
    try:
        chosen = get_bet(bet, rules) if bet is not None else bet_from_file(str(bet_file))
        summary = ca_summary(chosen, comp, rules.tableau, decks=decks)
    except (ValueError, TypeError) as err:
        fail(str(err))
    if fmt == OutputFormat.json:
        emit(summary.rows, fmt, {**summary.as_dict(), "rules": rules.tableau.name})
        return
    if fmt == OutputFormat.csv:
        emit(summary.rows, fmt)
        return
    say(
        f"{summary.bet} under {rules.tableau.name} rules: combinations count every coup as six ordered cards "
        f"({summary.total_combinations:,})"
    )
    emit(summary.rows, fmt)
    say(
        f"house edge {summary.house_edge:.6f} per unit staked ({summary.house_edge:.2%} of the bet)   "
        f"standard deviation {summary.std_dev:.4f}   "
        f"hit frequency {summary.hit_frequency:.6f}"
    )


def register(app: typer.Typer) -> None:
    app.command("ca")(ca)
