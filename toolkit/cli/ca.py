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
    # a bet on suits priced on a shoe given by value or rank (10 or 13 counts): its suits are taken as evenly
    # spread, so its "combinations" are expectations, not counts: say so, and show the probabilities only
    exact = summary.rows.schema["combinations"].is_integer()
    rows = summary.rows if exact else summary.rows.drop("combinations")
    if fmt == OutputFormat.json:
        extra = {"rows": rows.to_dicts(), "combinations_exact": exact, "rules": rules.tableau.name}
        emit(rows, fmt, {**summary.as_dict(), **extra})
        return
    if fmt == OutputFormat.csv:
        emit(rows, fmt)
        return
    if exact:
        say(
            f"{summary.bet} under {rules.tableau.name} rules: combinations count every coup as six ordered cards "
            f"({summary.total_combinations:,})"
        )
    else:
        say(
            f"{summary.bet} under {rules.tableau.name} rules: a bet on suits, and the shoe is given without suits "
            "(10 or 13 counts): its suits are taken as evenly spread, so the table gives probabilities, not "
            "combinations (give --shoe 52 counts by card, in the order As,Ah,Ad,Ac,2s,..., for exact combinations)"
        )
    emit(rows, fmt)
    say(
        f"house edge {summary.house_edge:.6f} per unit staked ({summary.house_edge:.2%} of the bet)   "
        f"standard deviation {summary.std_dev:.4f}   "
        f"hit frequency {summary.hit_frequency:.6f}"
    )


def register(app: typer.Typer) -> None:
    app.command("ca")(ca)
