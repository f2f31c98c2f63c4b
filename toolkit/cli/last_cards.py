"""Command ``baccarat last-cards``: the exact law of every bet's edge with 6 to 26 cards left
(:func:`toolkit.studies.last_cards.last_cards`)."""

from __future__ import annotations

import time
from enum import Enum

import typer

from toolkit.cli._common import (
    DECKS_OPTION,
    FORMAT_OPTION,
    MAX_WORKERS,
    PROGRESS,
    WORKERS,
    OutputFormat,
    emit,
    fail,
    shoe_from_options,
)

__all__ = ["register"]


class By(str, Enum):
    """How the compositions of the remainder are told apart."""

    value = "value"
    rank = "rank"


_SHOWN = ("cards_left", "bet", "p_positive", "mean", "mean_positive", "mean_if_positive", "p_zero", "exact_signs")


def _sci(value: float | None) -> str:
    return "" if value is None else f"{value:+.3e}"


def last_cards_command(
    decks: int | None = DECKS_OPTION,
    cards_left: str = typer.Option(
        "6-16",
        "--cards-left",
        "-n",
        metavar="N|A-B",
        help="Cards left before the coup: N, or a range A-B (at least 6; 6-16 in seconds, 6-26 in minutes).",
    ),
    bet: list[str] = typer.Option(
        [],
        "--bet",
        help="A pay-table bet by name (repeatable): replaces the default bets, the standard panel's "
        "(with --by value, those that need no ranks). Bets on pairs need --by rank; bets on suits are refused.",
    ),
    by: By = typer.Option(By.value, "--by", help="Compositions by value (C(n+9,9) of them) or by rank (C(n+12,12))."),
    workers: int | None = WORKERS,
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """The exact law of each bet's edge with n cards left: P(edge > 0), mean edge, E[max(edge, 0)], and the best bet."""
    shoe = shoe_from_options(decks, None)
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        fail(f"--workers must be between 1 and {MAX_WORKERS}, got {workers}")
    from toolkit.studies.last_cards import last_cards, parse_cards_left

    try:
        parse_cards_left(cards_left, "--cards-left")
        names = [part.strip() for name in bet for part in name.split(",") if part.strip()]
        start = time.perf_counter()
        frame = last_cards(shoe, cards_left, names or None, by=by.value, workers=workers, progress=progress)
        seconds = time.perf_counter() - start
    except (ValueError, TypeError) as err:
        fail(f"{'--cards-left' if 'cards left' in str(err) else '--bet'}: {err}")
    bets = frame.filter(frame["bet"] != "best")
    payload = {
        "decks": decks if decks is not None else 8,
        "by": by.value,
        "mean_positive_is": "E[max(edge, 0)]",
        "largest_mean_deviation": float(bets["mean_deviation"].abs().max()),  # type: ignore[arg-type]
        "exact_signs": int(frame["exact_signs"].sum()),
        "compositions": int(frame.unique("cards_left")["compositions"].sum()),
        "seconds": round(seconds, 3),
        "rows": frame.select("cards_left", "bet", "p_positive", "mean", "mean_positive").to_dicts(),
    }
    emit(
        frame.select(_SHOWN) if fmt == OutputFormat.table else frame,
        fmt,
        payload,
        keys=2,
        formats=dict.fromkeys(("mean", "mean_positive", "mean_if_positive"), _sci),
        title=(
            f"The last cards of {payload['decks']} decks, exactly: {payload['compositions']:,} compositions by "
            f"{by.value}; mean_positive = E[max(edge, 0)]; largest |mean - fresh edge| "
            f"{payload['largest_mean_deviation']:.1e}; {payload['exact_signs']:,} signs near zero decided exactly"
        ),
    )


def register(app: typer.Typer) -> None:
    """Add this module's command to the `baccarat` app."""
    app.command("last-cards")(last_cards_command)
