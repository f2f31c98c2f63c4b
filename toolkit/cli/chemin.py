"""Commands ``baccarat chemin ...``: chemin de fer and baccarat banque.

``baccarat chemin solve --model B2 --decks 6 --format json`` solves an
information model; ``baccarat chemin value`` gives the exact value of fixed
strategies.
"""

from __future__ import annotations

import typer

from toolkit.cli._common import FORMAT_OPTION, SHOE_OPTION, OutputFormat, emit, fail, say, shoe_from_options

__all__ = ["register"]

CHEMIN_DECKS_OPTION = typer.Option(
    None, "--decks", "-d", metavar="N", help="Full shoe of N decks (default 6, chemin de fer's shoe)."
)
COMMISSION_OPTION = typer.Option(
    0.0, "--commission", metavar="X", help="Commission on Banker's wins, a fraction (0: the zero-sum game)."
)
#: Table headers with their units.
CHEMIN_LABELS = {
    "draw_probability": "draw probability",
    "draw_exact": "draw (exact)",
    "probability": "probability of the set",
    "banker_total": "banker total",
    "player_third": "player third card",
    "tableau_draws": "tableau draws",
    "banker_wins": "banker wins (probability)",
    "player_wins": "player wins (probability)",
    "ties": "ties (probability)",
    "banker_ev": "banker EV (per unit)",
    "banker_ev_exact": "banker EV (exact)",
    "player_ev": "player EV (per unit)",
}


def _shoe(decks: int | None, shoe: str | None):
    comp = shoe_from_options(6 if decks is None and shoe is None else decks, shoe)
    if comp.total < 6:
        fail(f"the shoe holds {comp.total} card(s); a coup may need six (two hands of up to three cards)")
    return comp


def solve_command(
    model: str = typer.Option("B2", "--model", "-m", help="Information model: A1, A2, A3, B1, B2 or B3."),
    decks: int | None = CHEMIN_DECKS_OPTION,
    shoe: str | None = SHOE_OPTION,
    commission: float = COMMISSION_OPTION,
    options: str = typer.Option(
        "all",
        "--banker-options",
        help="'all': Banker chooses everywhere; 'restricted': the casino's restricted options (3 v 9, 5 v 4 only).",
    ),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Solve chemin de fer: optimal strategies, the value to Banker, and where Banker departs from the tableau."""
    import polars as pl

    from toolkit.games import get_chemin_model, solve_chemin

    try:
        m = get_chemin_model(model)
    except ValueError as err:
        fail(f"--model: {err}")
    if options not in ("all", "restricted"):
        fail(f"--banker-options must be 'all' or 'restricted', got {options!r}")
    if not 0 <= commission < 1:
        fail(f"--commission must be in [0, 1), got {commission}")
    comp = _shoe(decks, shoe)
    sol = solve_chemin(m, comp, commission=commission, banker_options=None if options == "all" else "restricted")
    payload = sol.to_dict()
    if fmt == OutputFormat.json:
        emit(pl.DataFrame(), fmt, payload)
        return
    if fmt == OutputFormat.csv:
        emit(sol.banker_table, fmt)
        return
    # short lines (each well under 80 columns, the exact fractions on their own): a title fits the terminal
    # also in a pipe, where say() does not wrap
    say(
        f"chemin de fer {m.name}, {'with' if m.replacement else 'without'} replacement: shoe of {comp.total} cards, "
        f"commission {float(sol.commission):g}"
    )
    say(f"Player sees his {m.player_sees}, Banker his {m.banker_sees}")
    say(f"value to Banker per unit staked: {float(sol.value):.10f} ({sol.method}, exact: {sol.exact})")
    if sol.exact:
        say(f"  exactly {sol.value}")
    say(f"Player draws at 5 with probability {float(sol.player_draw_at_5):.10f}")
    if sol.exact:
        say(f"  exactly {sol.player_draw_at_5}")
    if m.player_sees == "composition":
        emit(sol.player.frame(), fmt, labels=CHEMIN_LABELS)
    departures = sol.departures()
    say(f"Banker departs from the tableau in {departures.height} information set(s):")
    emit(
        departures.select(
            "banker", "banker_total", "player_third", "tableau_draws", "draw_probability", "draw_exact", "probability"
        ),
        fmt,
        labels=CHEMIN_LABELS,
    )


def value_command(
    at5: str = typer.Option("1", "--player-at-5", help="Player's probability of drawing at 5 (e.g. 1, 0, 9/11)."),
    banker: str = typer.Option(
        "tableau",
        "--banker",
        help="'tableau' or 'restricted:P,Q' (the restricted options: draw at 3 v 9 w.p. P, at 5 v 4 w.p. Q).",
    ),
    decks: int | None = CHEMIN_DECKS_OPTION,
    shoe: str | None = SHOE_OPTION,
    commission: float = COMMISSION_OPTION,
    replacement: bool = typer.Option(False, "--replacement", help="Deal with replacement (the A models)."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Exact value of a chemin de fer coup for fixed strategies."""
    import polars as pl

    from toolkit.games import BankerStrategy, PlayerStrategy, chemin_value, restricted_banker

    comp = _shoe(decks, shoe)
    try:
        player = PlayerStrategy.at_five(at5)
        if banker == "tableau":
            bank = BankerStrategy.from_tableau()
        elif banker.startswith("restricted"):
            parts = banker.partition(":")[2].split(",") if ":" in banker else ["1", "1"]
            if len(parts) != 2:
                fail(f"--banker restricted takes two probabilities, 'restricted:P,Q'; got {banker!r}")
            bank = restricted_banker(parts[0].strip(), parts[1].strip())
        else:
            fail(f"--banker must be 'tableau' or 'restricted:P,Q', got {banker!r}")
        value = chemin_value(comp, player, bank, commission=commission, replacement=replacement)
    except (ValueError, TypeError) as err:
        fail(str(err))
    payload = {
        "banker_wins": float(value.banker_wins),
        "player_wins": float(value.player_wins),
        "ties": float(value.ties),
        "banker_ev": float(value.banker_ev),
        "banker_ev_exact": str(value.banker_ev),
        "player_ev": float(value.player_ev),
    }
    emit(pl.DataFrame([payload]), fmt, payload, labels=CHEMIN_LABELS)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
    chemin = typer.Typer(
        help="Chemin de fer, the game with choices: solve the information models, value strategies.",
        no_args_is_help=True,
    )
    chemin.command("solve")(solve_command)
    chemin.command("value")(value_command)
    app.add_typer(chemin, name="chemin")
