"""Command ``baccarat bankroll``: bet sizing and a counter's bankroll risks (:func:`toolkit.sizing.bankroll_report`).

Flat bets, a ramp of units by count (``--ramp 4:1,6:2,8:4``) or a fraction of
Kelly (``--kelly 0.5``, several bets solved jointly with ``--bet a,b``), within
table limits and chips; risk of ruin, trip risk and the goal, each by the best
formula that applies (the exact walk on a lattice, Lundberg's otherwise), by
the diffusion formula for comparison, and by simulation, with win per hour,
SCORE, DI, N0 and certainty equivalent, and a legend that says what each is.

Every argument is checked before anything is dealt; the seed line (without
``--seed``) comes after the checks, just before the work.
"""

from __future__ import annotations

import math
from enum import Enum
from typing import TYPE_CHECKING, Any

import typer

from toolkit.cli._common import (
    FORMAT_OPTION,
    PROGRESS,
    SCHEDULER,
    SEED_OPTION,
    SHOES_OPTION,
    WORKERS,
    OutputFormat,
    check_run,
    emit,
    fail,
    say,
    seed_or_fresh,
    start_workers,
    with_dealing,
)

if TYPE_CHECKING:
    from toolkit.dealing.dealer import Dealing

__all__ = ["KellyBy", "WinMethod", "bankroll", "parse_ramp", "register"]


class KellyBy(str, Enum):
    by_shoe = "shoe"
    by_count = "count"


class WinMethod(str, Enum):
    simulated = "simulated"
    computed = "computed"


#: The largest count or stake a ramp step may name (a true count or a bet in units: far below this in practice).
MAX_RAMP = 1e6


def parse_ramp(text: str) -> dict[float, float]:
    """``"4:1,6:2,8:4"`` as ``{4.0: 1.0, 6.0: 2.0, 8.0: 4.0}`` (count at least: units)."""
    steps: dict[float, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        at, sep, units = part.partition(":")
        try:
            if not sep:
                raise ValueError
            count, stake = float(at), float(units)
        except ValueError:
            raise ValueError(f"--ramp: {part!r} is not COUNT:UNITS (e.g. --ramp 4:1,6:2,8:4)") from None
        if not (math.isfinite(count) and math.isfinite(stake)) or stake < 0:
            raise ValueError(f"--ramp: {part!r} needs a finite count and units >= 0")
        if abs(count) > MAX_RAMP or stake > MAX_RAMP:
            raise ValueError(f"--ramp: {part!r} is out of range (counts and units at most {MAX_RAMP:,.0f} in size)")
        if count in steps:
            raise ValueError(f"--ramp: the count {count:g} appears twice")
        steps[count] = stake
    if not steps:
        raise ValueError("--ramp needs at least one COUNT:UNITS step (e.g. --ramp 4:1,6:2,8:4)")
    return steps


def _names(text: str | None, where: str) -> list[str]:
    if text is None:
        return []
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        fail(f"{where} is empty")
    return names


def _thresholds(text: str | None) -> list[float | None]:
    if text is None:
        return []
    out: list[float | None] = []
    for part in (p.strip() for p in text.split(",")):
        try:
            value = float(part)
        except ValueError:
            fail(f"--threshold must be a number (or numbers separated by commas), got {part!r}")
        if not math.isfinite(value):
            fail(f"--threshold must be finite, got {part!r}")
        out.append(value)
    return out


def _positive(value: float | None, where: str) -> None:
    if value is not None and not (value > 0 and math.isfinite(value)):
        fail(f"{where} must be a positive number, got {value:g}")


@with_dealing
def bankroll(
    *,
    system: str = typer.Option(..., "--system", help="Count system, or several separated by commas (one per bet)."),
    bet: str | None = typer.Option(None, "--bet", help="Bet (default: the system's own); several, with --kelly."),
    threshold: str | None = typer.Option(None, "--threshold", "-t", help="Bet when the count is at least X (per bet)."),
    bankroll_units: float = typer.Option(..., "--bankroll", help="Bankroll, in bet units."),
    goal: float | None = typer.Option(
        None, "--goal", help="Bankroll to reach before ruin (default: twice --bankroll)."
    ),
    kelly: float | None = typer.Option(None, "--kelly", help="Stake this fraction of Kelly (0 < F <= 1)."),
    kelly_by: KellyBy = typer.Option(
        KellyBy.by_shoe, "--kelly-by", help="Kelly stakes from the exact shoe (shoe) or from the true count (count)."
    ),
    ramp: str | None = typer.Option(None, "--ramp", help="Units by count, COUNT:UNITS,... (e.g. 4:1,6:2,8:4)."),
    units: float = typer.Option(1.0, "--units", help="Flat stake in units (without --kelly or --ramp)."),
    table_min: float = typer.Option(0.0, "--table-min", help="Table minimum (smaller stakes are not placed)."),
    table_max: float | None = typer.Option(
        None, "--table-max", help="Table maximum (larger stakes are cut to it; default: none)."
    ),
    chip: float = typer.Option(0.0, "--chip", help="Smallest chip: stakes are rounded down to multiples of it."),
    hours_per_session: float = typer.Option(4.0, "--hours-per-session", help="Hours in a session (the trip)."),
    hands_per_hour: float = typer.Option(60.0, "--hands-per-hour", help="Coups dealt per hour."),
    trip_shoes: int | None = typer.Option(
        None, "--trip-shoes", help="The trip as a number of shoes (instead of --hours-per-session)."
    ),
    paths: int = typer.Option(
        2000, "--paths", help="Simulated bankroll paths (at most 10^9; streamed in blocks, with a progress bar)."
    ),
    shoes: int = SHOES_OPTION,
    seed: int | None = SEED_OPTION,
    dealing: Dealing,
    confidence: float = typer.Option(0.95, "--confidence", help="Confidence level of the intervals."),
    method: WinMethod = typer.Option(
        WinMethod.simulated,
        "--method",
        help="Win rate from the dealt shoes (simulated) or from the count's exact law (computed; SD, risks simulated).",
    ),
    workers: int | None = WORKERS,
    scheduler: str | None = SCHEDULER,
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """How much to bet and what bankroll it needs: risk of ruin, trip risk and the goal, by formula and simulation.

    The formula column is the best that applies, named in the "by" column: "exact walk" (the shoe results
    lie on a lattice, flat whole-unit bets or chips: solved exactly) or "Lundberg" (exp(-R B) from the whole
    law of a shoe's result); "diffusion" is the Brownian formula, for comparison (far off for 40:1 payouts).
    SCORE is the expected win per 100 hands with a 10,000-unit bankroll at optimal bets, 10^6 (EV/SD)^2
    per hand; DI (desirability index) is 1000 EV/SD per hand; N0 the hands after which the expected win
    equals one SD, (SD/EV)^2.  Probabilities below 1e-12 show as "< 1e-12" (JSON and CSV keep every digit).
    With --method computed the win rate (per shoe, hand and hour; bets, mean bet) comes from the count's exact law,
    with no simulation noise (a count bet flat, by --ramp or --kelly-by count); SD and risks from the dealt shoes.
    """
    import numpy as np

    from toolkit.sizing import Limits, sized_strategy
    from toolkit.sizing import bankroll_report as run_bankroll
    from toolkit.sizing.computed import computed_play

    _check_numbers(
        shoes, paths, trip_shoes, seed, bankroll_units, goal, kelly, ramp, units, hours_per_session, hands_per_hour,
        confidence, workers, scheduler,
    )  # fmt: skip
    systems, bets_, levels = _per_bet(system, bet, threshold, kelly, kelly_by)
    n = len(systems)
    try:
        top = math.inf if table_max is None else table_max
        limits = Limits(table_min, top, chip) if (table_min or chip or table_max is not None) else None
        steps = parse_ramp(ramp) if ramp is not None else None
        if n == 1:  # the same strategy sized by shoe: every argument checked, nothing dealt yet
            strategy = sized_strategy(systems[0], bets_[0], levels[0], bankroll_units, kelly, steps, units, limits)
        else:
            strategy = _joint(systems, bets_, levels, bankroll_units, kelly, limits)
        by_count = n == 1 and kelly is not None and kelly_by == KellyBy.by_count  # a count ramp, built below
        if method == WinMethod.computed and not by_count:
            computed_play(strategy)
    except (ValueError, TypeError) as err:
        fail(str(err))
    s = seed_or_fresh(seed)
    if by_count:  # the ramp deals shoes: work, after the seed (its seed as toolkit.sizing.bankroll_report's)
        try:
            strategy = sized_strategy(
                systems[0], bets_[0], levels[0], bankroll_units, kelly, steps, units, limits, kelly_by.value,
                seed=np.random.SeedSequence(s).spawn(3)[2], dealing=dealing, workers=workers,
            )  # fmt: skip
        except ValueError as err:
            fail(str(err))
    try:
        report = run_bankroll(
            strategy=strategy, bankroll=bankroll_units, goal=goal, hours_per_session=hours_per_session,
            trip_shoes=trip_shoes, hands_per_hour=hands_per_hour, n_shoes=shoes, paths=paths, dealing=dealing, seed=s,
            workers=workers, scheduler=scheduler, progress=progress, confidence=confidence, method=method.value,
        )  # fmt: skip
    except ValueError as err:  # found in the work (no bet placed in the shoes dealt)
        fail(str(err))
    payload = {**report.as_dict(), "seed": s}
    if fmt == OutputFormat.table:
        _show(report, strategy.describe(), s, trip_shoes, hours_per_session, hands_per_hour, confidence)
    else:
        emit(report.frame(), fmt, payload)


def _check_numbers(
    shoes: int, paths: int, trip_shoes: int | None, seed: int | None, bankroll: float, goal: float | None,
    kelly: float | None, ramp: str | None, units: float, hours_per_session: float, hands_per_hour: float,
    confidence: float, workers: int | None, scheduler: str | None,
) -> None:  # fmt: skip
    """Refuse a number out of range (one line, exit 2), before anything is dealt or the seed line is printed; then
    fork the local workers, before the strategy is built (:func:`~toolkit.cli._common.start_workers`)."""
    from toolkit.sizing.risk import MAX_PATHS

    check_run(shoes, workers)
    if shoes < 2:
        fail(f"--shoes must be at least 2 (a standard deviation needs two shoes), got {shoes}")
    if paths < 1:
        fail(f"--paths must be at least 1, got {paths}")
    if paths > MAX_PATHS:
        fail(f"--paths must be at most {MAX_PATHS:,} (each path takes microseconds a shoe), got {paths:,}")
    if trip_shoes is not None and trip_shoes < 1:
        fail(f"--trip-shoes must be at least 1, got {trip_shoes}")
    if seed is not None and seed < 0:
        fail(f"--seed must be a non-negative integer, got {seed}")
    _positive(bankroll, "--bankroll")
    _positive(goal, "--goal")
    if goal is not None and goal <= bankroll:
        fail(f"--goal ({goal:g}) must exceed --bankroll ({bankroll:g})")
    if kelly is not None and not 0 < kelly <= 1:
        fail(f"--kelly must be a fraction of Kelly in (0, 1], got {kelly:g}")
    if kelly is not None and ramp is not None:
        fail("give --kelly or --ramp, not both")
    _positive(units, "--units")
    _positive(hours_per_session, "--hours-per-session")
    _positive(hands_per_hour, "--hands-per-hour")
    if not 0 < confidence < 1:
        fail(f"--confidence must be between 0 and 1, got {confidence}")
    start_workers(workers, scheduler)


def _per_bet(
    system: str, bet: str | None, threshold: str | None, kelly: float | None, kelly_by: KellyBy
) -> tuple[list[str], list[str | None], list[float | None]]:
    """The count system, bet and threshold of each bet (one given for all, or one per bet)."""
    systems, bets, limits_ = _names(system, "--system"), _names(bet, "--bet"), _thresholds(threshold)
    n = max(len(systems), len(bets), len(limits_), 1)
    if n > 1 and kelly is None:
        fail("several bets need --kelly (their stakes are solved jointly)")
    if n > 1 and kelly_by == KellyBy.by_count:
        fail("--kelly-by count sizes one bet; several bets are solved jointly at each shoe (--kelly-by shoe)")
    for where, values in (("--system", systems), ("--bet", bets), ("--threshold", limits_)):
        if len(values) not in (0, 1, n):
            fail(f"{where} names {len(values)} values for {n} bets")
    systems = systems * n if len(systems) == 1 else systems
    bets_: list[str | None] = list(bets * n if len(bets) == 1 else bets) or [None] * n
    levels = limits_ * n if len(limits_) == 1 else limits_ or [None] * n
    return systems, bets_, levels


def _show(
    report: Any, described: str, seed: int, trip_shoes: int | None, hours_per_session: float,
    hands_per_hour: float, confidence: float,
) -> None:  # fmt: skip
    """``bankroll``'s table output: the strategy and the trip, the risks, the figures and the legend."""
    bankroll_units = report.bankroll
    r = report.results
    say(f"{described}: {r.shoes:,} shoes dealt, seed {seed}")
    say(
        f"bankroll {bankroll_units:g} units, goal {report.goal:g}; "
        + (
            f"trip {trip_shoes} shoes"
            if trip_shoes is not None
            else f"session {hours_per_session:g} h at {hands_per_hour:g} hands/h = {report.shoes_per_session} shoes"
        )
    )
    risks, figures, legend = report.tables()
    labels = {"interval": f"{confidence:.0%} interval"}
    emit(risks, OutputFormat.table, labels=labels, keys=1)
    emit(figures, OutputFormat.table, labels=labels, keys=1)
    for line in legend:
        say(line)


def _joint(
    systems: list[str], bets: list[str | None], levels: list[float | None], bankroll: float, kelly: float | None,
    limits: object,
):  # fmt: skip
    """Several bets at a fraction of Kelly, solved jointly, each gated by its count system."""
    from toolkit.counting import get_count_system
    from toolkit.sizing import Gate, kelly_strategy

    gates: list[Gate | None] = []
    targets: list[str] = []
    for name, b, t in zip(systems, bets, levels, strict=True):
        cs = get_count_system(name)
        level = cs.threshold if t is None else t
        target = b or cs.bet
        if level is None or target is None or kelly is None:
            fail(f"count system {cs.name!r} needs --threshold and --bet (it publishes none)")
        gates.append(Gate(cs, level, cs.trigger))
        targets.append(target)
    return kelly_strategy(targets, bankroll, float(kelly or 0), gates, limits)  # type: ignore[arg-type]


def register(app: typer.Typer) -> None:
    """Add this module's command to the `baccarat` app."""
    app.command("bankroll")(bankroll)
