"""Command ``baccarat cut-card``: the cut-card effect of every bet, with delta-method intervals.

The same shoes are dealt under every rule given (each ``--cut-card`` under each
``--last-hand``, and each fixed ``--coups``); before every coup each bet of
the standard panel (and every ``--bet``) is priced exactly from the cards a
perfect counter has not seen.  The effect is the average expectation of the
coups dealt (per-shoe sums, a ratio) less the fresh-shoe edge
(:mod:`toolkit.studies.cut_card`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import typer

from toolkit.cli._bets import BET_OPTION, bets_from_options
from toolkit.cli._common import (
    FORMAT_OPTION,
    PROGRESS,
    SCHEDULER,
    Endings,
    OutputFormat,
    check_run,
    check_scheduler,
    emit,
    fail,
    output_path,
    seed_or_fresh,
    with_endings,
)
from toolkit.coup.options import LastHand

__all__ = ["register"]

#: Shoes dealt by default: about a minute on two idle cores, an interval of about 2e-5 on Banker's effect.
DEFAULT_SHOES = 20_000

_COLUMNS = (
    "rule",
    "bet",
    "fresh_edge",
    "dealt_edge",
    "effect",
    "ci_low",
    "ci_high",
    "coups_per_shoe",
    "shoes",
)


def _sci(value: float) -> str:
    return f"{value:+.2e}"


def _rules(cut_cards: list[int], last_hands: list[LastHand], coups: list[int]) -> tuple[list[int], list[str]]:
    """The cut cards and last-hand rules compared: by default cut card 14 under ``one_more`` (none with only
    ``--coups``)."""
    for option, values in (("--cut-card", cut_cards), ("--coups", coups)):
        if len(set(values)) != len(values):
            fail(f"{option} names a value twice ({values}); give each once")
    if len(set(last_hands)) != len(last_hands):
        fail(f"--last-hand names a rule twice ({[h.value for h in last_hands]}); give each once")
    if any(c < 1 for c in coups):
        fail(f"--coups must be at least 1, got {min(coups)}")
    cuts = cut_cards or ([] if coups else [14])
    hands = [h.value for h in last_hands] or ["one_more"]
    if not cuts and any(h != "seven_cards" for h in hands) and last_hands:
        fail("--last-hand one_more or finish needs a --cut-card to compare")
    return cuts, hands


@with_endings
def cut_card(
    *,
    shoes: int = typer.Option(DEFAULT_SHOES, "--shoes", "-n", help="Number of shoes (dealt under every rule)."),
    dealing: Endings,
    bet: list[str] = BET_OPTION,
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed (default: fresh, and printed)."),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Local worker processes (default: every core)."),
    scheduler: str | None = SCHEDULER,
    controls: bool = typer.Option(
        True, "--controls/--no-controls", help="Narrow the intervals with the control variates (mean known exactly)."
    ),
    figure: str | None = typer.Option(
        None,
        "--figure",
        metavar="FILE",
        help="Also draw the effects to FILE (.png, .svg or .pdf; a regular file or a new one).",
    ),
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """The cut-card effect: the average exact edge of the coups dealt under each rule, less the fresh-shoe edge."""
    check_run(shoes, workers)
    check_scheduler(workers, scheduler)
    cuts, hands = _rules(dealing.cut_cards, dealing.last_hands, dealing.coups)
    base = dealing.dealing
    figure_path = None if figure is None else figure_file(figure)
    from toolkit.bets.base import Bet
    from toolkit.bets.paytable import standard_bets
    from toolkit.coup.rules import Rules
    from toolkit.studies.cut_card import CutCardStudy, run_cut_card

    rules = Rules(tableau=dealing.dealing.tableau)
    panel: list[Bet] = list(standard_bets(rules))
    extra = bets_from_options(bet, [], rules, panel=[b.name for b in panel])
    try:  # checked before a fresh seed is drawn and printed
        study = CutCardStudy(
            n_shoes=shoes,
            seed=0 if seed is None else seed,
            dealing=base,
            rules=rules,
            bets=tuple(panel + extra),
            cut_cards=tuple(cuts),
            last_hands=tuple(hands),
            coups=tuple(dealing.coups),
        )
    except (ValueError, TypeError) as err:
        fail(str(err))
    study = replace(study, seed=seed_or_fresh(seed))
    workers = 1 if workers is None and shoes <= study.block_size else workers
    result = run_cut_card(study, workers=workers, scheduler=scheduler, progress=progress)
    table = result.table(controls=controls)
    if figure_path is not None:
        _draw(table, figure_path)
    payload = {
        "shoes": shoes,
        "seed": study.seed,
        "decks": base.decks,
        "burn": base.burn.value,
        "controls": controls,
        "wall_seconds": result.wall_seconds,
        "rows": table.to_dicts(),
    }
    shown = table.select(*_COLUMNS) if fmt == OutputFormat.table else table
    emit(
        shown,
        fmt,
        payload,
        keys=2,
        formats=dict.fromkeys(("fresh_edge", "dealt_edge", "effect", "ci_low", "ci_high"), _sci),
        title=f"Cut-card effect: {shoes:,} shoes, seed {study.seed}, 95% delta-method intervals",
    )


def figure_file(text: str, option: str = "--figure") -> Path:
    """The file a figure option names, checked before the work starts: a known suffix, no link, no folder or device."""
    from toolkit.plots._save import figure_target

    output_path(text, option)  # not empty
    try:
        return figure_target(text, option)[0]
    except ValueError as err:
        fail(str(err))
    raise AssertionError("unreachable")


def _draw(table, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from toolkit.plots import cut_card_figure
    from toolkit.plots._save import save_figure

    fig = cut_card_figure(table)
    try:  # a temporary file renamed into place: the old figure stays whole if the disk is full
        save_figure(fig, path, "--figure", dpi=120, bbox_inches="tight")
    except (OSError, ValueError) as err:
        fail(f"--figure: cannot write {str(path)!r}: {getattr(err, 'strerror', None) or err}")


def register(app: typer.Typer) -> None:
    """Add this module's command to the `baccarat` app."""
    app.command("cut-card")(cut_card)
