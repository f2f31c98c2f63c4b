"""Command ``baccarat shuffle-track``: what a weak shuffle leaks to a tracker, and the shoes needed to detect it.

A thin wrapper over :func:`toolkit.studies.shuffle_tracker_edge` (``--measure tracker``) and
:func:`toolkit.studies.shuffle_test_power` (``--measure power``).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

import typer

from toolkit.cli._common import (
    FORMAT_OPTION,
    PROGRESS,
    SCHEDULER,
    WORKERS,
    OutputFormat,
    check_run,
    check_scheduler,
    dealing_payload,
    emit,
    fail,
    say,
    seed_or_fresh,
    with_dealing,
)

if TYPE_CHECKING:
    from toolkit.dealing.dealer import Dealing

__all__ = ["register", "shuffle_track"]

#: The most trials (shoe pairs per model) or replicates one run may simulate.
MAX_TRIALS = 10_000_000
#: The most riffles of one shuffle: the shuffle library's bound.
MAX_RIFFLES = 64  # toolkit.dealing.shuffles.models.MAX_RIFFLES, not imported: --help loads no numba
#: The most decks (the transition matrix of a shoe has (52 * decks) ** 2 entries).
MAX_DECKS = 16
#: The most shoes a recorded chain may hold, and the largest baseline.
MAX_RECORDED = 10_000
MAX_BASELINE = 100_000


def _check(riffles: list[int], decks: int, power_shoes: list[int], baseline: int) -> None:
    """Each option in range, whichever measure runs (one line, exit 2)."""
    for k in riffles:
        if not 0 <= k <= MAX_RIFFLES:
            fail(f"--riffles must be 0..{MAX_RIFFLES}, got {k}")
    if decks > MAX_DECKS:
        fail(
            f"--decks must be at most {MAX_DECKS} here (the transition matrix grows as the cards squared), got {decks}"
        )
    for n in power_shoes:
        if not 2 <= n <= MAX_RECORDED:
            fail(f"--power-shoes must be 2..{MAX_RECORDED:,} (a chain's first shoe has no parent), got {n}")
    if not 1 <= baseline <= MAX_BASELINE:
        fail(f"--baseline must be 1..{MAX_BASELINE:,} shoes, got {baseline}")


TRACKER_COLUMNS = (
    "model",
    "posterior",
    "shoes",
    "share_bet",
    "win_per_100",
    "win_per_100_low",
    "win_per_100_high",
    "win_per_shoe",
    "win_per_shoe_low",
    "win_per_shoe_high",
    "predicted_per_100",
    "removed",
)
LABELS = {
    "share_bet": "bet share",
    "win_per_100": "win/100",
    "win_per_100_low": "low",
    "win_per_100_high": "high",
    "win_per_shoe": "win/shoe",
    "win_per_shoe_low": "low ",
    "win_per_shoe_high": "high ",
    "predicted_per_100": "predicted/100",
    "shoes_needed": "shoes needed",
    "most_shoes_tried": "most tried",
    "power_at_most": "power there",
}


class Measure(str, Enum):
    tracker = "tracker"
    power = "power"


@with_dealing(coups=False)
def shuffle_track(
    *,
    riffles: list[int] = typer.Option(
        [], "--riffles", "-k", help="Riffles of the shuffle (repeatable; 0: none); default 0-6, 8 (power: 1-4)."
    ),
    dealing: Dealing,
    shoes: int = typer.Option(200, "--shoes", "-n", help="Shoe pairs per shuffle (power: replicates per shuffle)."),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed (default: fresh, printed)."),
    workers: int | None = WORKERS,
    scheduler: str | None = SCHEDULER,
    measure: Measure = typer.Option(Measure.tracker, "--measure", help="tracker: the edge; power: shoes to detect."),
    threshold: float = typer.Option(0.0, "--threshold", help="Tracker bets when the best expected value is above."),
    bet: list[str] = typer.Option(
        [], "--bet", metavar="NAME", help="A bet the tracker may make (repeatable; default banker, player, tie)."
    ),
    power_shoes: list[int] = typer.Option(
        [], "--power-shoes", help="Shoes recorded at which power is measured (repeatable; default 2 5 10 20 50)."
    ),
    baseline: int = typer.Option(1000, "--baseline", help="Uniform shoes calibrating the randomness tests (power)."),
    fmt: OutputFormat = FORMAT_OPTION,
    progress: bool = PROGRESS,
) -> None:
    """A tracker's win on shoes shuffled by riffling the discards, or the power of the randomness tests."""
    check_run(shoes, workers, MAX_TRIALS)
    check_scheduler(workers, scheduler)
    _check(riffles, dealing.decks, power_shoes, baseline)
    chosen = seed_or_fresh(seed)
    from toolkit.studies import shuffle_test_power, shuffle_tracker_edge
    from toolkit.studies.shuffle import edge_removed_at, shoes_needed

    models = list(riffles) or None
    payload: dict[str, object] = {"seed": chosen, "dealing": dealing_payload(dealing), "measure": measure.value}
    try:
        if measure == Measure.tracker:
            bets = tuple(bet) or ("banker", "player", "tie")
            frame = shuffle_tracker_edge(
                models,
                shoes,
                dealing,
                chosen,
                workers,
                bets=bets,
                threshold=threshold,
                progress=progress,
                scheduler=scheduler,
            )
            payload |= {"rows": frame.to_dicts(), "removed_at": edge_removed_at(frame)}
            emit(frame.select(TRACKER_COLUMNS), fmt, payload, labels=LABELS, keys=2, title="Tracker's win (units)")
            if fmt == OutputFormat.table:
                at = edge_removed_at(frame)
                rule = "interval holds 0, upper bound < 0.1 per 100 hands"
                if at is None:
                    most = frame["riffles"].drop_nulls()
                    shown = f"up to {int(most.max())} riffles" if len(most) else "by the shuffles tried"  # type: ignore[arg-type]
                    say(f"edge not removed {shown} ({rule}): try more riffles (-k)")
                else:
                    say(f"edge removed at {at} riffles ({rule})")
            return
        grid = tuple(power_shoes) or (2, 5, 10, 20, 50)
        if [k for k in riffles if k == 0]:
            fail("--riffles 0 with --measure power: no shuffle at all is found by one shoe; give 1 or more")
        power = shuffle_test_power(
            models,
            grid,
            shoes,
            dealing,
            chosen,
            workers,
            baseline_shoes=baseline,
            progress=progress,
            scheduler=scheduler,
        )
    except ValueError as err:
        fail(str(err))
    needed = shoes_needed(power)
    payload |= {"power": power.to_dicts(), "shoes_needed": needed.to_dicts()}
    emit(needed, fmt, payload, labels=LABELS, keys=3, title="Shoes needed for 80 % power at 1 %")


def register(app: typer.Typer) -> None:
    """Add this module's command to the ``baccarat`` app."""
    app.command("shuffle-track")(shuffle_track)
