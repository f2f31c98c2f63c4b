"""``baccarat edge`` and ``baccarat eor``: exact odds and effects of removal from the command line."""

from __future__ import annotations

from pathlib import Path

import typer

from toolkit.cli._bets import BET_FILE_OPTION, BET_OPTION, SHOE_52_OPTION, bets_from_options, shoe_for_bets
from toolkit.cli._common import DECKS_OPTION, FORMAT_OPTION, SHOE_OPTION, OutputFormat, emit, fail, shoe_from_options
from toolkit.cli._rules import RULES_OPTION, house_rules
from toolkit.coup.rules import Rules

__all__ = ["register"]

COMMISSION_OPTION = typer.Option(
    0.05, "--commission", metavar="X", help="Commission on winning Banker bets, a fraction of the win (0.05: 5%)."
)
TIE_OPTION = typer.Option(8.0, "--tie-pays", metavar="X", help="Tie payout, to one.")

#: Table headers of the edge columns, with their units.
EDGE_LABELS = {
    "expected_value": "expected value (per unit)",
    "house_edge": "house edge (per unit)",
    "std_dev": "std dev (per unit)",
    "hit_frequency": "hit frequency (probability)",
}


def edge(
    decks: int | None = DECKS_OPTION,
    shoe: str | None = SHOE_52_OPTION,
    commission: float = COMMISSION_OPTION,
    tie_pays: float = TIE_OPTION,
    rules_file: Path | None = RULES_OPTION,
    bet: list[str] = BET_OPTION,
    bet_file: list[Path] = BET_FILE_OPTION,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Exact expected value, house edge, standard deviation and hit frequency of every bet.

    Money is per unit staked in every format (-0.0106 is -1.06% of the bet): csv and json
    have the columns expected_value, house_edge, std_dev, hit_frequency (a probability).
    """
    from toolkit.bets.paytable import edge_table, standard_bets

    comp = shoe_for_bets(decks, shoe)
    rules = house_rules(decks, commission, tie_pays, rules_file)
    if comp.total < 6:
        fail(f"the shoe holds {comp.total} card(s); a coup may need six (two hands of up to three cards)")
    extra = bets_from_options(bet, bet_file, rules, panel=[b.name for b in standard_bets(rules)])
    try:
        table = edge_table(comp, bets=[*standard_bets(rules), *extra], rules=rules)
    except (ValueError, TypeError) as err:
        fail(str(err))
    payload = {
        row["bet"]: {k: row[k] for k in ("expected_value", "house_edge", "std_dev", "hit_frequency", "description")}
        for row in table.to_dicts()
    }
    shown = table.select("bet", "expected_value", "house_edge", "std_dev", "hit_frequency", "description")
    emit(
        shown if fmt == OutputFormat.table else table,
        fmt,
        payload,
        labels=EDGE_LABELS,
        title=f"Exact odds of every bet from a shoe of {comp.total} cards under {_named(rules)}; money per unit "
        "staked (-0.0106 = -1.06% of the bet).",
    )


def eor(
    decks: int | None = DECKS_OPTION,
    shoe: str | None = SHOE_OPTION,
    commission: float = COMMISSION_OPTION,
    tie_pays: float = TIE_OPTION,
    rules_file: Path | None = RULES_OPTION,
    by: str = typer.Option(
        "value", "--by", metavar="[value|rank]", help="Remove cards by 'value' (0-9) or by 'rank' (A..K)."
    ),
    bet: list[str] = BET_OPTION,
    bet_file: list[Path] = BET_FILE_OPTION,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Effect of removing one card of each value (or rank) on every bet.

    The effect is the change in the bet's expected value per unit staked when one card
    is removed.  csv and json give it as it is (column eor); the table shows it in
    units of 1e-7 (1157.2 is +0.00011572 per unit staked), as the published tables do.
    """
    from toolkit.edges.eor import effect_of_removal, eor_matrix

    comp = shoe_from_options(decks, shoe)
    rules = house_rules(decks, commission, tie_pays, rules_file)
    if by not in ("value", "rank"):
        fail(f"--by must be 'value' or 'rank', got {by!r}")
    if comp.total < 7:
        fail(f"the shoe holds {comp.total} card(s); removing one must leave the six a coup may need")
    from toolkit.bets.paytable import standard_bets

    extra = bets_from_options(bet, bet_file, rules, panel=[b.name for b in standard_bets(rules)])
    try:
        table = effect_of_removal(comp, bets=[*standard_bets(rules), *extra], rules=rules, by=by)
    except (ValueError, TypeError) as err:
        fail(str(err))
    payload: dict[str, dict[str, float | None]] = {}
    for row in table.to_dicts():
        payload.setdefault(row["bet"], {})[row["card"]] = row["eor"]
    if fmt == OutputFormat.table:
        wide = eor_matrix(table, 1e7)
        emit(
            wide,
            fmt,
            formats={c: _tenth for c in wide.columns if c != "bet"},
            title="Effect of removing one card of each "
            + by
            + f" on every bet: the change in expected value per unit staked, x 1e-7 (1157.2 = +0.00011572); "
            f"{_named(rules)}",
        )
    else:
        emit(table, fmt, payload)


def _named(rules: Rules) -> str:
    """The rules for a title: the tableau's name, the commission and the Tie payout."""
    return f"{rules.tableau.name} rules (commission {float(rules.commission):g}, Tie {float(rules.tie_pays):g} to 1)"


def _tenth(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def register(app: typer.Typer) -> None:
    app.command("edge")(edge)
    app.command("eor")(eor)
