"""Command ``baccarat detect``: who at this table is counting, from a record of shoes with their bets."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from toolkit.cli._common import (
    FORMAT_OPTION,
    OutputFormat,
    distinct,
    emit,
    fail,
    output_path,
    printable,
    say,
    seed_or_fresh,
)
from toolkit.cli.records import FILE_LIMITS

__all__ = [
    "MAX_PERMUTATIONS",
    "MAX_REFERENCE_SHOES",
    "MAX_SEAT_TESTS",
    "MAX_SHUFFLED_COUPS",
    "MAX_TABLE_SHOES",
    "register",
    "simulate_players",
]

#: The most shoes ``simulate --players`` deals (the record and its bets are held in memory).
MAX_TABLE_SHOES = 100_000
#: The most freshly shuffled shoes of ``--reference``: each holds about 70 KB while the pool is built (2,000:
#: 0.56 GB and 22 s; 10,000: 1.1 GB and 57 s, measured on the sample record), so 20,000 stays near 2 GB.
MAX_REFERENCE_SHOES = 20_000
#: The most seat-and-bet tests one run makes (checked once the record is read, before any test): 500 tests (every
#: coup of the sample record bet by 500 seats) of 9,999 permutations took 70 s and 0.57 GB; 2,000 seats a coup are
#: refused once read, in 25 s and 0.57 GB (a loaded two-core machine); name the seats with ``--who`` for more.
MAX_SEAT_TESTS = 500
#: The most shufflings of one test, and the most coups one run shuffles (each test's coups, those of the shoes its
#: seat played, times --permutations, summed over the tests): the library's ``MAX_PERMUTATIONS`` and
#: ``MAX_SHUFFLED_COUPS`` (the same numbers, tested), checked before the record's edges are computed.  Measured:
#: see :data:`toolkit.protection.detection.MAX_SHUFFLED_COUPS`.
MAX_PERMUTATIONS = 1_000_000
MAX_SHUFFLED_COUPS = 2_000_000_000

#: The columns the table shows (csv and json hold every column of the library's frame).
TABLE_COLUMNS = (
    "who",
    "bet",
    "bets",
    "p_value",
    "p_adjusted",
    "flagged",
    "mean_edge_when_betting",
    "mean_edge",
    "won",
    "expected_win",
    "implied_count",
)
LABELS = {
    "p_value": "p-value",
    "p_adjusted": "adjusted",
    "mean_edge_when_betting": "edge when betting",
    "mean_edge": "mean edge",
    "expected_win": "expected win",
    "implied_count": "implied count",
}


def _p_text(p: float | None) -> str:
    """A p-value to four significant digits, without padding: ``0.0001``, ``0.3357``, ``1``.

    >>> _p_text(0.0001), _p_text(0.335700), _p_text(1.0), _p_text(None)
    ('0.0001', '0.3357', '1', '-')
    """
    return "-" if p is None else f"{p:.4g}"


#: The p-values' cells in a table: 0.0001, not 0.000100000.
_P_TEXT = dict.fromkeys(("p_value", "p_adjusted"), _p_text)


class Correction(str, Enum):
    holm = "holm"
    bh = "bh"
    none = "none"


class Null(str, Enum):
    fresh_shoes = "fresh_shoes"
    within_shoe = "within_shoe"


class Method(str, Enum):
    permutation = "permutation"
    normal = "normal"


def _implied(row: dict) -> str | None:
    if row["implied_count"] is None:
        return None
    trigger = "" if row["implied_trigger"] is None else f" >= {row['implied_trigger']:g}"
    return f"{row['implied_count']}{trigger}"


REFERENCE_OPTION = typer.Option(
    2000, "--reference", help=f"Freshly shuffled shoes in the fresh_shoes pool (2..{MAX_REFERENCE_SHOES:,})."
)

PERMUTATIONS_OPTION = typer.Option(
    9999,
    "--permutations",
    help=f"Shufflings per test, at most {MAX_PERMUTATIONS:,} (0 with --method normal).  The tests together "
    f"shuffle at most {MAX_SHUFFLED_COUPS:,} coups (each test's coups times P), checked before any test.",
)

WHO_OPTION = typer.Option(
    [],
    "--who",
    metavar="SEAT",
    help=f"A seat to test (repeatable); default every seat.  One run makes at most {MAX_SEAT_TESTS:,} "
    "seat-and-bet tests, checked before any test starts.",
)


def _check_numbers(alpha: float, permutations: int, method: Method, reference: int) -> None:
    """Stop with one line on an --alpha, --permutations or --reference out of its range (before any work)."""
    if not 0 < alpha < 1:
        fail(f"--alpha must be between 0 and 1 (exclusive), got {alpha}")
    if permutations < (0 if method == Method.normal else 1) or permutations > MAX_PERMUTATIONS:
        fail(f"--permutations must be 1..{MAX_PERMUTATIONS:,} (0 with --method normal), got {permutations:,}")
    if not 2 <= reference <= MAX_REFERENCE_SHOES:
        fail(f"--reference must be 2..{MAX_REFERENCE_SHOES:,} shoes, got {reference}")


def _refuse_too_many_tests(bets, who: list[str], bet: list[str], file: Path) -> None:
    """Stop with one line when the seats and bets to test are more than :data:`MAX_SEAT_TESTS`."""
    import polars as pl

    tested = bets.select("who", "bet")
    if who:
        tested = tested.filter(pl.col("who").is_in(who))
    if bet:
        tested = tested.filter(pl.col("bet").is_in(bet))
    n_tests = tested.unique().height
    if n_tests > MAX_SEAT_TESTS:
        seats = tested["who"].n_unique()
        fail(
            f"{file}: {n_tests:,} seat-and-bet tests ({seats:,} seats); one run makes at most {MAX_SEAT_TESTS:,}: "
            "name the seats to test with --who (or the bets with --bet)"
        )


def detect(
    file: Path = typer.Argument(..., help=f"A card-level record with bets (who, bet, amount per coup; {FILE_LIMITS})."),
    bets_file: Path | None = typer.Option(
        None,
        "--bets",
        metavar="FILE",
        help="A separate bets table (shoe, coup, who, bet, amount): each bad line is a problem, nothing else is lost.",
    ),
    who: list[str] = WHO_OPTION,
    bet: list[str] = typer.Option([], "--bet", metavar="NAME", help="A bet to test (repeatable); default every bet."),
    alpha: float = typer.Option(0.01, "--alpha", help="Significance of 'flagged', after the correction."),
    permutations: int = PERMUTATIONS_OPTION,
    correction: Correction = typer.Option(
        Correction.holm, "--correction", help="Across seats and bets: holm (family-wise), bh (false discovery), none."
    ),
    method: Method = typer.Option(
        Method.permutation,
        "--method",
        help="permutation (the shufflings drawn) or normal (the statistic over its exact permutation SD).",
    ),
    null: Null = typer.Option(
        Null.fresh_shoes,
        "--null",
        help="fresh_shoes (each stake sequence against freshly shuffled shoes dealt by the header: valid for "
        "progressions) or within_shoe (the edges shuffled among each shoe's coups: no model of the shuffle).",
    ),
    reference: int = REFERENCE_OPTION,
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed of the shufflings (same seed, same p-values)."),
    fmt: OutputFormat = FORMAT_OPTION,
    progress: bool = typer.Option(False, "--progress/--no-progress", help="Progress bar on stderr."),
) -> None:
    """Test each seat and bet: does placing and sizing the bet follow the exact edge before the coup?

    Each of the seat's stake sequences is set against the edges of freshly shuffled shoes
    (--null fresh_shoes), or the edges are shuffled among each shoe's coups (--null
    within_shoe: each shoe keeps its bets and stakes); the p-values are corrected across
    seats and bets, and a seat is flagged when its corrected p-value is at most --alpha.
    Also: Spearman's rho of stake and edge, the mean edge when betting against the bet's
    mean edge, the money won against the money the exact edges expected, and, for a
    flagged seat, the count that best explains its bets.
    Bad bets are listed on stderr (and in json) with their file, line, shoe and coup.
    """
    import polars as pl

    from toolkit._files import RefusedFileError
    from toolkit.protection import detect_counters
    from toolkit.protection.ledger import read_table

    distinct(who, "--who")
    distinct(bet, "--bet")
    _check_numbers(alpha, permutations, method, reference)
    try:
        records = read_table(file, bets_file)
    except OSError as err:
        fail(f"{getattr(err, 'filename', None) or file}: cannot open the file: {err.strerror or err}")
    except (RefusedFileError, ValueError) as err:
        fail(str(err))
    if records.report.fatal:
        fail(str(records.report.problems[0]))
    if records.kind != "cards":
        fail(f"{file}: an outcome-only record (bead road) holds no cards: the edges before each coup are unknown")
    if records.bets.height == 0:
        fail(f"{file}: the record carries no bets (give them in a bets column, or a table with --bets)")
    _refuse_too_many_tests(records.bets, who, bet, file)
    found = detect_counters(
        records,
        who=who or None,
        bets=bet or None,
        alpha=alpha,
        permutations=permutations,
        seed=seed_or_fresh(seed),
        correction=correction.value,
        method=method.value,
        null=null.value,
        reference=reference,
        progress=progress,
    )
    for problem in found.problems:
        typer.echo(f"baccarat: warning: {printable(str(problem))}", err=True)
    if fmt == OutputFormat.json:
        emit(found.seats, fmt, found.as_json())
        return
    if fmt == OutputFormat.csv:
        emit(found.seats, fmt)
        return
    table = found.seats.with_columns(
        pl.Series("implied_count", [_implied(r) for r in found.seats.to_dicts()], dtype=pl.String)
    ).select(TABLE_COLUMNS)
    flagged = found.seats.filter(pl.col("flagged"))
    names = ", ".join(f"{r['who']} ({r['bet']})" for r in flagged.iter_rows(named=True)) or "none"
    title = (
        f"Flagged at {alpha:g} after the {correction.value} correction ({method.value} p-values, "
        f"{null.value} null): {names}. "
        "Edges are expected values per unit staked before the coup."
    )
    emit(table, fmt, labels=LABELS, formats=_P_TEXT, keys=2, title=title, optional=("mean_edge", "expected_win", "won"))


def simulate_players(
    players_file: str, out_text: str, shoes: int, seed: int | None, dealing, workers: int | None, scheduler: str | None
) -> None:
    """``baccarat simulate --players FILE``: deal the shoes, seat the players, write the record with their bets."""
    from toolkit.cli._common import check_run
    from toolkit.coup import Rules
    from toolkit.protection import simulate_table
    from toolkit.protection.players_file import read_players
    from toolkit.records import ShoeHeader, write_records

    check_run(shoes, None, MAX_TABLE_SHOES)
    if workers is not None or scheduler is not None:
        fail("--players deals in this process: --workers and --scheduler are not used with it")
    if dealing.coups is not None:
        fail("--players writes a record, whose shoes run to the cut card: --coups is not used with it")
    out = output_path(out_text)
    if out.suffix.lower() not in (".csv", ".jsonl", ".ndjson", ".parquet", ".pq"):
        fail(f"--out must name a .csv, .jsonl or .parquet record file with --players, got {str(out)!r}")
    if not out.parent.exists():
        fail(f"--out: folder {str(out.parent)!r} does not exist")
    try:
        seated = read_players(players_file)
        header = ShoeHeader(dealing=dealing, rules=Rules(decks=dealing.decks, tableau=dealing.tableau))
        s = seed_or_fresh(seed)
        records = simulate_table(shoes, seated, header, seed=s)
        write_records(records, out, layout="coups")
    except (ValueError, TypeError) as err:
        fail(str(err))
    except OSError as err:
        fail(f"--out: cannot write {str(out)!r}: {err.strerror or err}")
    seats = records.bets["who"].n_unique()  # a team is two seats, as detect shows them
    say(f"wrote {records.n_shoes} shoes with {records.bets.height} bets from {seats} seat(s) to {out} (seed {s})")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
    app.command("detect")(detect)
