"""``baccarat sort``: what seeing the group of some of the next cards is worth (edge sorting, a flashed card)."""

from __future__ import annotations

import sys
from typing import Any

import typer

from toolkit.cli._common import (
    DECKS_OPTION,
    FORMAT_OPTION,
    PROGRESS,
    SHOE_OPTION,
    OutputFormat,
    emit,
    fail,
    shoe_from_options,
)

__all__ = ["register"]

GROUPS_OPTION = typer.Option(
    "6789",
    "--groups",
    "-g",
    metavar="GROUPS",
    help="The groups the bettor tells apart: '6789' (that group, H, against the rest, L; the edge sorter's sort), "
    "or groups separated by '/' such as '0/12345/6789' (lettered A, B, C in the order written; "
    "'0/1/2/3/4/5/6/7/8/9': the card itself is seen). Ranks with --by rank: A23456789TJQK.",
)
POSITIONS_OPTION = typer.Option(
    "1",
    "--positions",
    "-p",
    metavar="POSITIONS",
    help="The positions seen before betting, of the six ordered cards of a coup: 1 and 3 Player's, 2 and 4 "
    "Banker's, 5 and 6 the third cards, seen whether or not the coup deals them: '1', '1-4' or '1,3'.",
)
BY_OPTION = typer.Option(
    "value", "--by", metavar="[value|rank]", help="Name the groups' cards by 'value' (0-9) or 'rank' (A..K)."
)
SORT_BET_OPTION = typer.Option(
    [],
    "--bet",
    metavar="NAME",
    help="A bet the bettor may take (repeatable; default banker, player and tie 8:1): any bet priced by "
    "outcome class (dragon7, panda8, player_pair, ...); bets on suits are refused.",
)
BEST_OPTION = typer.Option(
    False,
    "--best-partition",
    help="Also search every two-group sort for the largest gain with these positions: the 511 sorts of the ten "
    "values, or with --by rank the 4,095 sorts of the 13 ranks (about a minute).",
)
#: The most sorts --top may ask for: every two-group sort of the 13 ranks (2**12 - 1).
MAX_TOP = 4_095
TOP_OPTION = typer.Option(10, "--top", metavar="N", help="With --best-partition: how many sorts to show.")
EXACT_OPTION = typer.Option(
    False, "--exact", help="Also give the gain and share of coups without a bet as exact fractions (json)."
)

#: Table headers, with their units.
LABELS = {
    "probability": "probability",
    "best_bet": "best bet",
    "ev": "edge of the best bet (per unit)",
    "gain_per_coup": "gain per coup (per unit)",
    "share_no_bet": "coups with no bet (probability)",
}


def sort(
    groups: str = GROUPS_OPTION,
    positions: str = POSITIONS_OPTION,
    decks: int | None = DECKS_OPTION,
    shoe: str | None = SHOE_OPTION,
    bet: list[str] = SORT_BET_OPTION,
    best_partition: bool = BEST_OPTION,
    top: int = TOP_OPTION,
    by: str = BY_OPTION,
    exact: bool = EXACT_OPTION,
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """The edge of seeing the group of some of the next six cards before betting, pattern by pattern.

    For each pattern seen (Player's cards / Banker's cards, a hand's two letters sorted: HL/LL),
    its probability, every bet's expected value given it, and the best bet (none when no bet
    is positive); the gain per coup of taking the best bet only when it is positive. csv holds
    the patterns (with --best-partition: the sorts); json holds everything.
    """
    if by not in ("value", "rank"):
        fail(f"--by must be 'value' or 'rank', got {by!r}")
    if not 1 <= top <= MAX_TOP:
        fail(f"--top must be 1 to {MAX_TOP:,} (the two-group sorts of the ranks), got {top}")
    comp = shoe_from_options(decks, shoe)
    names = [part.strip() for name in bet for part in name.split(",") if part.strip()] or None
    from toolkit.edges.information import best_partitions, information_edge

    try:
        result = information_edge(comp, groups, positions, by=by, bets=names, exact=exact)
        best = None
        if best_partition:
            best = best_partitions(comp, positions, bets=names, top=top, by=by, progress=progress)
    except (ValueError, TypeError) as err:
        fail(str(err))
    patterns = result.patterns
    if fmt == OutputFormat.json:
        emit(patterns, fmt, _payload(result, best))
        return
    if fmt == OutputFormat.csv:
        emit(best if best is not None else patterns, fmt)
        return
    title = (
        f"Seeing {result.observation.describe()}, from a shoe of {comp.total} cards: gain {result.gain:.4%} per coup "
        f"(the best bet when positive); no bet on {result.share_no_bet:.2%} of coups. Money per unit staked."
    )
    labels = {**LABELS, **{f"ev_{b}": f"{b} (per unit)" for b in result.bets}}
    if best is None:
        emit(patterns, fmt, labels=labels, title=title)
        return
    # what was asked first: the best sorts, then the patterns of the sort given by --groups, for comparison
    top_row = best.row(0, named=True)
    emit(
        best,
        fmt,
        labels=LABELS,
        title=f"The best two-group sorts of the {by}s (H, the group without {'0' if by == 'value' else 'K'}), "
        f"positions {positions}, from a shoe of {comp.total} cards: the best, H = {top_row['groups']}, gains "
        f"{top_row['gain_per_coup']:.4%} per coup.",
    )
    sys.stdout.write("\n")
    emit(patterns, fmt, labels=labels, title=f"For comparison, the sort --groups {groups}. {title}")


def _payload(result: Any, best: Any) -> dict[str, Any]:
    patterns = [
        {
            "pattern": row["pattern"],
            "probability": row["probability"],
            "best_bet": row["best_bet"],
            "ev": row["ev"],
            "ev_by_bet": {b: row[f"ev_{b}"] for b in result.bets},
        }
        for row in result.patterns.to_dicts()
    ]
    payload: dict[str, Any] = {
        "observed": result.observation.describe(),
        "positions": list(result.observation.positions),
        "cards": result.shoe.total,
        "bets": list(result.bets),
        "gain_per_coup": result.gain,
        "share_no_bet": result.share_no_bet,
        "patterns": patterns,
        "best_partitions": [] if best is None else best.to_dicts(),
    }
    if result.exact:
        payload["gain_per_coup_exact"] = str(result.gain_exact)
        payload["share_no_bet_exact"] = str(result.share_no_bet_exact)
    return payload


def register(app: typer.Typer) -> None:
    app.command("sort")(sort)
