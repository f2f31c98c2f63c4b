"""Commands ``baccarat simulate`` and ``baccarat count``.

``simulate`` deals shoes and writes their coups to Parquet, block by block;
``count`` plays a count (or computer-perfect play) through simulated shoes and
reports what it wins, with confidence intervals and the convention used.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import Enum
from functools import partial
from typing import TYPE_CHECKING, Any

import typer

from toolkit.cli._common import (
    FORMAT_OPTION,
    MAX_COUNT_SHOES,
    PROGRESS,
    SCHEDULER,
    SEED_OPTION,
    SHOES_OPTION,
    WORKERS,
    OutputFormat,
    check_run,
    check_scheduler,
    dealing_payload,
    distinct,
    emit,
    fail,
    output_path,
    say,
    seed_or_fresh,
    start_workers,
    warm_dealt_shoes,
    with_dealing,
)

if TYPE_CHECKING:
    import polars as pl

    from toolkit.coup.rules import Rules
    from toolkit.dealing.dealer import Dealing

__all__ = ["register"]


#: Headers of a result table: each row's value is in the unit its ``per`` column names (units staked per shoe...).
RESULT_LABELS = {"se": "std error", "ci_low": "CI low", "ci_high": "CI high"}


class Method(str, Enum):
    simulated = "simulated"
    computed = "computed"
    optimise = "optimise"


class CountKind(str, Enum):
    true = "true"
    running = "running"


class Divisor(str, Enum):
    decks_left = "decks_left"
    unseen = "unseen"


class Rounding(str, Enum):
    none = "none"
    floor = "floor"
    truncate = "truncate"
    nearest = "nearest"


class DeckEstimate(str, Enum):
    exact = "exact"
    half_deck = "half_deck"
    whole_deck = "whole_deck"


def _deal_block(block, dealing):
    """Deal one block (runs in the worker; numpy only: polars is not fork-safe in worker processes)."""
    from toolkit.dealing.dealer import deal_block, shuffled_shoes

    return deal_block(shuffled_shoes(block.n_shoes, dealing.decks, block.rng()), dealing, block.first_shoe)


def _frame(dealt, compositions: bool, systems: tuple):
    """The coup frame of a dealt block, with count columns (in this process).

    Shoes are numbered from 1 in the file, as its coups are (as :meth:`DealtShoes.frame` numbers them).
    """
    from toolkit.counting import with_counts

    frame = dealt.frame(compositions=compositions)
    if systems:
        counted = with_counts(dealt, systems)
        frame = frame.with_columns(counted.select([c for c in counted.columns if c[:3] in ("rc_", "tc_")]))
    return frame


def _file_header(dealing, house=None) -> bytes:
    """The shoe header of the file (Parquet metadata ``baccarat``), so that ``baccarat validate`` reads it right;
    under the house rules ``house`` (commission, Tie payout), when given."""
    import json

    from toolkit.records import ShoeHeader

    return json.dumps({"header": ShoeHeader.from_dealing(dealing, rules=house).as_dict()}).encode()


@with_dealing
def simulate(
    *,
    out_text: str = typer.Option(
        ..., "--out", "-o", help="Parquet file to write the coups to (written whole, then renamed into place)."
    ),
    shoes: int = SHOES_OPTION,
    seed: int | None = SEED_OPTION,
    dealing: Dealing,
    house: Rules,
    compositions: bool = typer.Option(
        True, "--compositions/--no-compositions", help="Write unseen_A..unseen_K (the composition before each coup)."
    ),
    counts: str | None = typer.Option(
        None, "--counts", help="Comma-separated count systems whose rc_/tc_ columns to add (e.g. dragon7,panda8)."
    ),
    workers: int | None = WORKERS,
    scheduler: str | None = SCHEDULER,
    progress: bool = PROGRESS,
    players: str | None = typer.Option(
        None,
        "--players",
        metavar="FILE",
        help="A TOML file of simulated players (counters, progressions, road followers, a team): write the shoes "
        "as a record with their bets (--out .csv, .jsonl or .parquet; baccarat detect reads it) instead.",
    ),
) -> None:
    """Deal shoes as a casino does and write every coup to a Parquet file.

    Shoes and coups are numbered from 1.  baccarat validate, baccarat replay and
    toolkit.read_records read the file (its hands are player_hand and banker_hand;
    its header, the dealing, is in the file's metadata).  With --players, the shoes
    are written as a record with the players' bets.
    """
    if players is not None:
        from toolkit.cli.detect import simulate_players

        simulate_players(players, out_text, shoes, seed, dealing, workers, scheduler)
        return
    import pyarrow.parquet as pq

    from toolkit._files import atomic_file
    from toolkit.counting.systems import get_count_system
    from toolkit.parallel import block_plan, map_blocks

    check_run(shoes, workers)
    check_scheduler(workers, scheduler)
    systems: tuple = ()
    if counts:
        try:
            names = distinct([name.strip() for name in counts.split(",") if name.strip()], "--counts")
            systems = tuple(get_count_system(name) for name in names)
        except (ValueError, TypeError) as err:
            fail(f"--counts: {err}")
    out = output_path(out_text)
    if out.suffix.lower() != ".parquet":
        fail(f"--out must name a .parquet file, got {str(out)!r}")
    if not out.parent.exists():
        fail(f"--out: folder {str(out.parent)!r} does not exist")
    s = seed_or_fresh(seed)
    plan = block_plan(shoes, seed=s)
    fn = partial(_deal_block, dealing=dealing)
    writer = None
    rows = 0
    # written beside the final name, then renamed: an interrupted run (an error, Ctrl-C, SIGTERM) leaves any
    # earlier file whole and no temporary file, and the next run removes those a killed run left
    with atomic_file(out, "--out") as sink:
        try:
            for dealt in map_blocks(fn, plan, workers, scheduler, progress, "dealing"):
                frame = _frame(dealt, compositions, systems)
                table = frame.to_arrow()
                if writer is None:
                    schema = table.schema.with_metadata({b"baccarat": _file_header(dealing, house)})
                    writer = pq.ParquetWriter(sink, schema)
                writer.write_table(table.cast(writer.schema))
                rows += frame.height
        finally:
            if writer is not None:
                writer.close()
    say(f"wrote {rows} coups of {shoes} shoes to {out} under {house.tableau.name} rules (seed {s})")


ENTRY_COUP_OPTION = typer.Option(
    None,
    "--entry-coup",
    help="Back-count: watch each shoe, sit before this coup if the count (--count) is at least --entry, else skip "
    "the shoe; bet by the threshold while seated.",
)
ENTRY_OPTION = typer.Option(None, "--entry", help="Back-count: the count to sit at (needs --entry-coup).")
EXIT_OPTION = typer.Option(None, "--exit", help="Back-count: leave for good below this count (needs --entry-coup).")
COUNT_METHOD_OPTION = typer.Option(
    Method.simulated,
    "--method",
    help="simulated (the default: it answers every option, perfect play, --bankroll's risk of ruin and the SD per "
    "shoe included): deal --shoes shoes; computed: the expected win from the count's exact law, no shoes dealt, no "
    "noise (a count, not perfect play; thresholds tables, every --last-hand rule, --coups and back-counting too; "
    "costs at most about 20,000 simulated shoes: prefer it for win rates); optimise: "
    "search integer tags -4..+4 by value and the threshold from the count given (one threshold, not a table), on "
    "the computed win, beside the published counts (minutes).",
)


@with_dealing
def count(
    *,
    system: str | None = typer.Option(
        None, "--system", help="Count system (dragon7, panda8, ...: 'baccarat list systems') or 'perfect'."
    ),
    tags: str | None = typer.Option(
        None,
        "--tags",
        help="A count of your own: 10 comma-separated integer tags by value 0-9, or 13 by rank A,2,...,9,T,J,Q,K "
        "(needs --bet and --threshold; negative first tag: --tags=-1,...).",
    ),
    system_file: str | None = typer.Option(
        None, "--system-file", help="A count of your own from a TOML file (name, tags, bet, threshold, divisor...)."
    ),
    bet: str | None = typer.Option(None, "--bet", help="Bet to place (default: the system's own)."),
    threshold: float | None = typer.Option(None, "--threshold", "-t", help="Bet when the count is at least T."),
    count_kind: CountKind | None = typer.Option(None, "--count", help="Threshold on the true or running count."),
    divisor: Divisor | None = typer.Option(
        None, "--divisor", help="True count divides by decks left in the shoe or by unseen cards."
    ),
    rounding: Rounding | None = typer.Option(None, "--rounding", help="True count rounding."),
    deck_estimate: DeckEstimate | None = typer.Option(
        None, "--deck-estimate", help="Decks the true count divides by: exact, or to the nearest half or whole deck."
    ),
    count_burn_card: bool | None = typer.Option(
        None, "--count-burn-card/--no-count-burn-card", help="Count the exposed burn card (default: the system's)."
    ),
    bankroll: float | None = typer.Option(None, "--bankroll", help="Bankroll in units, for the risk of ruin."),
    entry_coup: int | None = ENTRY_COUP_OPTION,
    entry: float | None = ENTRY_OPTION,
    exit_below: float | None = EXIT_OPTION,
    shoes: int = SHOES_OPTION,
    seed: int | None = SEED_OPTION,
    dealing: Dealing,
    house: Rules,
    confidence: float = typer.Option(0.95, "--confidence", help="Confidence level of the intervals."),
    workers: int | None = WORKERS,
    scheduler: str | None = SCHEDULER,
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
    method: Method = COUNT_METHOD_OPTION,
) -> None:
    """What a counter wins: play a count (or computer-perfect play) through simulated shoes, or compute it."""
    from toolkit.counting import LookAheadError, run_strategies

    check_run(shoes, workers, MAX_COUNT_SHOES)
    start_workers(workers, scheduler, used=method != Method.computed, warm=partial(warm_dealt_shoes, dealing, house))
    if not 0 < confidence < 1:
        fail(f"--confidence must be between 0 and 1, got {confidence}")
    if bankroll is not None and not bankroll > 0:
        fail(f"--bankroll must be positive, got {bankroll}")
    changes = {
        k: v
        for k, v in (
            ("divisor", divisor.value if divisor else None),
            ("rounding", rounding.value if rounding else None),
            ("deck_estimate", deck_estimate.value if deck_estimate else None),
            ("count_burn_card", count_burn_card),
            ("trigger", count_kind.value if count_kind else None),
            ("threshold", threshold),
        )
        if v is not None
    }
    strategy, convention = _strategy(system, tags, system_file, bet, threshold, changes)
    strategy, seat = _seat(strategy, convention, (entry_coup, entry, exit_below), method, dealing.decks * 13)
    if method != Method.simulated:
        where = (workers, scheduler)
        _computed(strategy, convention, dealing, fmt, optimise=method == Method.optimise, where=where, seat=seat)
        return
    s = seed_or_fresh(seed)
    try:
        (res,) = run_strategies(
            [strategy],
            shoes,
            dealing,
            s,
            rules=house,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            confidence=confidence,
        )
    except LookAheadError as err:  # pragma: no cover - library strategies never look ahead
        fail(str(err))
    payload = {
        **res.as_dict(bankroll),
        "bet_frequency": res.bet_frequency.value,  # the share of hands bet
        "bet_frequency_ci": [x if math.isfinite(x) else None for x in res.bet_frequency.ci],  # one shoe: null
        "bet": bet or convention.get("bet"),
        "threshold": threshold if system == "perfect" else convention.get("threshold"),
        "seed": s,
        "convention": convention,
        "dealing": dealing_payload(dealing, house),
    }
    if fmt == OutputFormat.table:
        _say_result(res, strategy, s, confidence)
        emit(_result_frame(res, bankroll), fmt, keys=2, labels=RESULT_LABELS, optional=("se",))
    else:
        emit(res.frame(), fmt, payload)


def _computed(
    strategy: Any,
    convention: dict[str, object],
    dealing: Dealing,
    fmt: OutputFormat,
    optimise: bool = False,
    where: tuple[int | None, str | None] = (1, None),
    seat: dict[str, Any] | None = None,
) -> None:
    """``count --method computed``: the expected win from the count's law, under the simulated command's keys;
    ``--method optimise``: the count search from it (:func:`toolkit.counting.best_count`), its candidates computed
    where ``where`` (workers, scheduler) says."""
    import polars as pl

    from toolkit.counting import CountPlay, SeatRule, best_count, count_value

    play = strategy.plays[0]
    if not isinstance(play, CountPlay):
        fail("--method computed plays a count; perfect play needs --method simulated")
    try:
        if optimise:
            start = play.system.with_(threshold=play.ramp.threshold)
            emit(best_count(play.bet, dealing, start=start, workers=where[0], scheduler=where[1]), fmt)
            return
        res = count_value(strategy, dealing, seat=None if seat is None else SeatRule(**seat))
    except ValueError as err:
        fail(str(err))
    payload = {
        **res.as_dict(),
        "bet": convention.get("bet"),
        "threshold": convention.get("threshold"),
        "convention": convention,
        "dealing": dealing_payload(dealing),
    }
    if fmt == OutputFormat.json:
        emit(res.by_depth, fmt, payload)
        return
    say(f"{res.strategy}: computed, no shoes dealt; {res.note}")
    figures = res.as_dict()
    keys = ("hands_per_shoe", *(("seated_per_shoe",) if seat else ()), "bets_per_shoe", "bet_frequency", "mean_edge")
    keys = (*keys, "units_per_shoe_ev")
    rows = [{"metric": k, "value": figures[k]} for k in (*keys, "units_per_100_hands_ev", "sd_per_hand")]
    emit(pl.DataFrame(rows), fmt, payload)


def _seat(
    strategy: Any,
    convention: dict[str, object],
    given: tuple[int | None, float | None, float | None],
    method: Method,
    most_coups: int,
) -> tuple[Any, dict[str, Any] | None]:
    """The back-count of ``--entry-coup``, ``--entry`` and ``--exit`` on the play's own count (bad: one line; an
    entry coup past ``most_coups``, the coups of four cards a shoe holds, is never reached),
    written into ``convention``; the simulated method's strategy plays it (:class:`toolkit.sizing.plays.BackCount`),
    the computed one reads the seat."""
    from toolkit.counting import CountPlay, Strategy
    from toolkit.sizing.plays import BackCount

    entry_coup, entry, exit_below = given
    if entry_coup is None:
        if entry is not None or exit_below is not None:
            fail("--entry and --exit back-count: give --entry-coup (the coup before which to sit) with them")
        return strategy, None
    if method == Method.optimise:
        fail("--method optimise searches a count bet at every coup; drop --entry-coup")
    play = strategy.plays[0]
    if not isinstance(play, CountPlay):
        fail("--entry-coup back-counts a count; perfect play sits at every coup")
    if entry_coup < 1:
        fail(f"--entry-coup must be at least 1 (the shoe's first coup), got {entry_coup}")
    if entry_coup > most_coups:
        fail(f"--entry-coup {entry_coup} is never reached: a shoe of these decks holds at most {most_coups} coups")
    for name, x in (("--entry", entry), ("--exit", exit_below)):
        if x is not None and not math.isfinite(x):
            fail(f"{name} must be a finite count, got {x}")
    low = -math.inf if exit_below is None else exit_below
    seat: dict[str, Any] = {
        "entry_coup": entry_coup, "entry": -math.inf if entry is None else entry, "exit": low, "count": play.count
    }  # fmt: skip
    # JSON has no infinity: an entry or exit not given reads null
    convention["back_count"] = {k: None if v in (-math.inf, math.inf) else v for k, v in seat.items()}
    if method != Method.simulated:
        return strategy, seat
    return Strategy(strategy.name, (BackCount(play, play.system, **seat),)), seat


def _strategy(
    system: str | None,
    tags: str | None,
    system_file: str | None,
    bet: str | None,
    threshold: float | None,
    changes: Mapping[str, object],
) -> tuple[Any, dict[str, object]]:
    """The strategy ``count`` plays and the convention it reports: perfect play, or a count with ``changes``."""
    from toolkit.bets.paytable import get_bet
    from toolkit.counting import count_strategy, perfect_strategy

    given = [o for o, v in (("--system", system), ("--tags", tags), ("--system-file", system_file)) if v is not None]
    if len(given) != 1:
        fail("give one of --system, --tags or --system-file" + (f" (got {' and '.join(given)})" if given else ""))
    try:
        if bet is not None:
            get_bet(bet)
        if system == "perfect":
            if bet is None:
                fail("--system perfect needs --bet (the bet to play when its exact EV is positive)")
            strategy = perfect_strategy(bet, min_ev=0.0 if threshold is None else threshold)
            return strategy, {
                "name": "perfect",
                "rule": f"bet {bet} when its exact EV before the coup > {threshold or 0}",
            }
        cs = _count_system(system, tags, system_file, bet, threshold)
        cs = cs.with_(**changes) if changes else cs
        if cs.threshold is None and not cs.thresholds:  # a table alone bets from its first step
            fail(f"count system {cs.name!r} has no published threshold; give --threshold")
        if cs.bet is None and bet is None:
            fail(f"count system {cs.name!r} names no bet; give --bet")
        return count_strategy(cs, bet=bet), cs.describe()
    except (ValueError, TypeError) as err:
        fail(str(err))


def _count_system(
    system: str | None, tags: str | None, system_file: str | None, bet: str | None, threshold: float | None
):
    """The count system named by ``--tags``, ``--system-file`` or ``--system`` (before the options that change it)."""
    from toolkit.counting import custom_count, get_count_system, parse_tags, read_count_system

    if tags is not None:
        if bet is None or threshold is None:
            fail("--tags needs --bet (the bet to place) and --threshold (bet when the count is at least T)")
        return custom_count(parse_tags(tags), bet=bet)
    if system_file is not None:
        return read_count_system(system_file)
    return get_count_system(str(system))


def _say_result(res: Any, strategy: Any, seed: int, confidence: float) -> None:
    """The lines above ``count``'s table: the strategy, the seed and the units won per shoe."""
    say(f"{res.strategy}: {res.shoes} shoes, seed {seed}; {strategy.describe()}")
    say(
        f"units per shoe {res.units_per_shoe.value:+.4f} realised, {res.units_per_shoe_ev.value:+.4f} expected "
        f"({confidence:.0%} CI {res.units_per_shoe_ev.low:+.4f} .. {res.units_per_shoe_ev.high:+.4f})"
    )
    if res.note is not None:
        say(f"note: {res.note}")


def _result_frame(res: Any, bankroll: float | None) -> pl.DataFrame:
    """``count``'s table: the result's metrics, and the risk of ruin of ``--bankroll`` when given."""
    import polars as pl

    frame = res.frame().drop("strategy")
    if bankroll is None:
        return frame
    ror = res.risk_of_ruin(bankroll)
    row = {
        "metric": "risk_of_ruin",
        "per": f"bankroll {bankroll:g}",
        "value": ror.value,
        "se": ror.se,
        "ci_low": ror.low,
        "ci_high": ror.high,
    }
    return pl.concat([frame, pl.DataFrame([row])])


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
    app.command("simulate")(simulate)
    app.command("count")(count)
