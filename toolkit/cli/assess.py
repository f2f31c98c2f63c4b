"""Command ``baccarat assess``: a side bet assessed for a casino, with the best count found and a plain verdict.

It computes the bet's exact house edge, SD and hit frequency, its effects of
removal, searches for the best integer count, plays it and computer-perfect
play through fresh shoes and at several cut-card positions, and writes
``report.md``, ``summary.json``, the tables (CSV and Parquet) and the figures
to ``--out`` (see :mod:`toolkit.studies.assess`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from toolkit._check import whole_number
from toolkit.cli._bets import one_bet
from toolkit.cli._common import (
    FORMAT_OPTION,
    PROGRESS,
    SCHEDULER,
    WORKERS,
    OutputFormat,
    check_run,
    check_scheduler,
    emit,
    fail,
    output_path,
    printable,
    say,
    seed_or_fresh,
    start_workers,
    warm_dealt_shoes,
    with_dealing,
)

if TYPE_CHECKING:
    from toolkit.bets.base import Bet
    from toolkit.coup.rules import Rules
    from toolkit.dealing.dealer import Dealing

__all__ = ["register"]

#: Shoes of each step by default (the search, the fresh shoes and each cut card of the sweep): a few minutes on
#: two cores (the command says how long before it starts, from a timed pilot); as
#: :data:`toolkit.studies.assess.DEFAULT_SHOES` (not imported here: the command line starts without the studies).
DEFAULT_SHOES = 100_000

#: The most shoes of each set (the search set is held in memory: about 4 KB a shoe of 8 decks, 9 KB with what
#: joining its blocks and scoring a count add, so some 9 GB at the most; the command says its bound first).
MAX_ASSESS_SHOES = 1_000_000


def _cut_cards(text: str | None, dealing: Dealing) -> tuple[int, ...] | None:
    """The positions of ``--cut-cards``: digits, each one the shoe allows (else one line naming it, exit 2)."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    try:
        cuts = tuple(whole_number(p, "--cut-cards") for p in parts)
    except ValueError:
        fail(f"--cut-cards takes comma-separated integers in digits (cards from the end), got {text!r}")
    if any(c < 0 for c in cuts):
        fail(f"--cut-cards must be 0 or more cards from the end, got {text!r}")
    if dealing.coups is not None:
        fail(f"--cut-cards is not used with --coups {dealing.coups} (no cut card); give one")
    beyond = [c for c in cuts if c >= dealing.cards]
    if beyond:
        fail(
            f"--cut-cards {', '.join(map(str, beyond))}: a shoe of {dealing.decks} decks ({dealing.cards} cards) "
            f"takes a cut card 0..{dealing.cards - 1} cards from the end"
        )
    return cuts


@with_dealing
def assess(
    *,
    bets: list[str] = typer.Option(
        [], "--bet", help="The side bet to assess, by name (standard panel or side-bet catalogue)."
    ),
    bet_files: list[Path] = typer.Option([], "--bet-file", help="The side bet to assess, defined in a TOML file."),
    out_text: str = typer.Option(..., "--out", "-o", help="Folder for report.md, summary.json, tables and figures."),
    shoes: int = typer.Option(
        DEFAULT_SHOES,
        "--shoes",
        "-n",
        help="Shoes of each step: the search set, the fresh set and each cut card of the sweep (the time and "
        "the memory scale with it, about 9 KB a search shoe of 8 decks; the command says both before it starts).",
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed (same seed, same assessment)."),
    dealing: Dealing,
    cut_cards: str | None = typer.Option(
        None, "--cut-cards", help="Cut-card positions of the penetration sweep (default 14,26,52,78,104,156)."
    ),
    min_win: float = typer.Option(
        0.1, "--min-win", help="Units per 100 hands a count must win to be worth counting (flat one-unit bets)."
    ),
    confidence: float = typer.Option(0.95, "--confidence", help="Confidence level of the intervals."),
    figures: bool = typer.Option(True, "--figures/--no-figures", help="Draw the PNG figures."),
    workers: int | None = WORKERS,
    scheduler: str | None = SCHEDULER,
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Assess a side bet for a casino: house edge, effects of removal, the best count and whether it pays."""
    from functools import partial

    from toolkit.bets.paytable import bet_from_file, get_bet
    from toolkit.coup.rules import Rules
    from toolkit.studies.assess import assess_bet, write_assessment

    check_run(shoes, workers, MAX_ASSESS_SHOES)
    check_scheduler(workers, scheduler)
    if not 0 < confidence < 1:
        fail(f"--confidence must be between 0 and 1, got {confidence}")
    if min_win < 0:
        fail(f"--min-win must be 0 or more, got {min_win}")
    start_workers(workers, scheduler, warm=partial(warm_dealt_shoes, dealing))
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau)
    bet, bet_file = one_bet(bets, bet_files)
    try:
        chosen = get_bet(bet, rules) if bet is not None else bet_from_file(str(bet_file))
    except (ValueError, TypeError) as err:
        fail(str(err))
    cuts = _cut_cards(cut_cards, dealing)
    out = output_path(out_text)
    if out.exists() and not out.is_dir():
        fail(f"--out {str(out)!r} is a file; it must name a folder")
    s = seed_or_fresh(seed)
    _say_how_long(chosen, dealing, shoes, cuts, rules, workers)
    try:
        a = assess_bet(
            chosen,
            dealing,
            shoes,
            s,
            rules,
            cut_cards=cuts,
            min_win=min_win,
            confidence=confidence,
            workers=workers,
            progress=progress,
            scheduler=scheduler,
        )
    except ValueError as err:
        fail(str(err))
    draw = None
    if figures:
        from toolkit.plots import save_assess_figures

        draw = partial(save_assess_figures, min_win=min_win)
    paths = write_assessment(a, out, figures=draw)
    summary = a.summary()
    frame = a.frames["summary"].select(
        "strategy", "rule", "bet_frequency", "edge_when_betting", "win_per_100_hands", "units_per_shoe"
    )
    if fmt == OutputFormat.table:
        say(f"{chosen.name}: {a.verdict} (seed {s})")
    emit(frame, fmt, {**summary, "seed": s, "report": str(paths["report"])})
    if fmt == OutputFormat.table:
        typer.echo(printable(f"report: {paths['report']}"))  # a path is never wrapped


def _say_how_long(
    bet: Bet, dealing: Dealing, shoes: int, cuts: tuple[int, ...] | None, rules: Rules, workers: int | None
) -> None:
    """One line on stderr before the work starts: the shoes of each step and the time a timed pilot predicts."""
    from toolkit.studies.assess import estimate_assessment

    try:
        est = estimate_assessment(bet, dealing, shoes, cuts, rules=rules, workers=workers)
    except ValueError as err:
        fail(str(err))
    n_cuts = len(est["cut_cards"])
    sweep = f"{n_cuts} cut card{'' if n_cuts == 1 else 's'}" if n_cuts else "no cut-card sweep"
    typer.echo(
        f"{bet.name}: {shoes:,} shoes a step (search, fresh shoes, {sweep}): about {_duration(est['total'])} on "
        f"{est['workers']} idle core(s), and about {_size(est['memory_bytes'])} of memory for the search shoes over "
        f"the process's 300 MB, from a pilot of {est['pilot_shoes']} shoes (--shoes scales both; longer on a busy "
        "machine)",
        err=True,
    )


def _duration(seconds: float) -> str:
    """``40 s``, ``3.5 min``, ``1.2 h``.

    >>> _duration(40.2), _duration(210), _duration(7200)
    ('40 s', '3.5 min', '2.0 h')
    """
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def _size(n_bytes: float) -> str:
    """``40 MB``, ``1.2 GB``.

    >>> _size(4.2e7), _size(1.23e9)
    ('42 MB', '1.2 GB')
    """
    return f"{n_bytes / 1e6:.0f} MB" if n_bytes < 1e9 else f"{n_bytes / 1e9:.1f} GB"


def register(app: typer.Typer) -> None:
    """Add this module's command to the `baccarat` app."""
    app.command("assess")(assess)
