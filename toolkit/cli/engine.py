"""``baccarat edge`` and ``baccarat eor``: exact odds and effects of removal from the command line."""

from __future__ import annotations

import polars as pl
import typer

from toolkit._check import as_fraction
from toolkit.cli._common import DECKS_OPTION, FORMAT_OPTION, SHOE_OPTION, OutputFormat, emit, fail, shoe_from_options
from toolkit.rules import Rules

__all__ = ["register"]

COMMISSION_OPTION = typer.Option(0.05, "--commission", help="Commission on winning Banker bets.")
TIE_OPTION = typer.Option(8.0, "--tie-pays", help="Tie payout, to one.")


def _rules(decks: int | None, commission: float, tie_pays: float) -> Rules:
    try:
        return Rules(decks=decks or 8, commission=as_fraction(commission), tie_pays=as_fraction(tie_pays))
    except (ValueError, TypeError) as err:
        fail(str(err))
    raise AssertionError("unreachable")


def edge(
    decks: int | None = DECKS_OPTION,
    shoe: str | None = SHOE_OPTION,
    commission: float = COMMISSION_OPTION,
    tie_pays: float = TIE_OPTION,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Exact expected value, house edge, standard deviation and hit frequency of every bet."""
    from toolkit.bets import edge_table

    comp = shoe_from_options(decks, shoe)
    rules = _rules(decks, commission, tie_pays)
    if comp.total < 6:
        fail(f"the shoe holds {comp.total} card(s); a coup may need six (two hands of up to three cards)")
    table = edge_table(comp, rules=rules)
    payload = {
        row["bet"]: {k: row[k] for k in ("expected_value", "house_edge", "std_dev", "hit_frequency", "description")}
        for row in table.to_dicts()
    }
    shown = table.with_columns((pl.col("house_edge") * 100).alias("house_edge_%")).select(
        "bet", "expected_value", "house_edge_%", "std_dev", "hit_frequency", "description"
    )
    emit(shown if fmt == OutputFormat.table else table, fmt, payload)


def eor(
    decks: int | None = DECKS_OPTION,
    shoe: str | None = SHOE_OPTION,
    commission: float = COMMISSION_OPTION,
    tie_pays: float = TIE_OPTION,
    by: str = typer.Option("value", "--by", help="Remove cards by 'value' (0-9) or by 'rank' (A..K)."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Effect of removing one card of each value (or rank) on every bet, in units of expected value."""
    from toolkit.eor import effect_of_removal, eor_matrix

    comp = shoe_from_options(decks, shoe)
    rules = _rules(decks, commission, tie_pays)
    if by not in ("value", "rank"):
        fail(f"--by must be 'value' or 'rank', got {by!r}")
    if comp.total < 7:
        fail(f"the shoe holds {comp.total} card(s); removing one must leave the six a coup may need")
    table = effect_of_removal(comp, rules=rules, by=by)
    payload: dict[str, dict[str, float | None]] = {}
    for row in table.to_dicts():
        payload.setdefault(row["bet"], {})[row["card"]] = row["eor"]
    if fmt == OutputFormat.table:
        wide = eor_matrix(table, 1e7).with_columns(pl.exclude("bet").round(1))
        typer.echo("Effect of removal, x 1e-7 of expected value per card removed")
        emit(wide, fmt)
    else:
        emit(table, fmt, payload)


def register(app: typer.Typer) -> None:
    app.command("edge")(edge)
    app.command("eor")(eor)
