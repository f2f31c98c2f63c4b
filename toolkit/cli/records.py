"""Commands `baccarat validate`, `baccarat replay` and `baccarat convert`: recorded shoes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from toolkit.cli._common import (
    FILE_FORMAT_OPTION,
    OUT_OPTION,
    FileFormat,
    OutputFormat,
    distinct,
    emit,
    fail,
    output_path,
    printable,
    say,
)
from toolkit.cli._rules import RULES_OPTION, read_rules_option

if TYPE_CHECKING:
    import polars as pl

__all__ = ["FILE_LIMITS", "register"]

#: What a record file may hold, for the help (``toolkit.records.read.MAX_RECORD_BYTES`` and ``MAX_RECORD_LINES``,
#: which a test holds this text to).
FILE_LIMITS = "at most 128 MiB and 1,500,000 lines"

HEADER_OPTION = typer.Option(
    None,
    "--header",
    metavar="KEY=VALUE...",
    help="Shoe header settings over the file's own, as key=value words: 'decks=6 burn=none cut_card=16'.",
)

ONE_SHOE_OPTION = typer.Option(
    False, "--one-shoe", help="Read every row of the file as one shoe (a file with no shoe column)."
)
SHOE_COLUMN_OPTION = typer.Option(
    None,
    "--shoe-column",
    metavar="NAME",
    help="The column that holds the shoes, when the reader does not recognise it (else shoes are inferred).",
)

LAYOUT_OPTION = typer.Option(
    None,
    "--layout",
    metavar="FILE",
    help="A layout file (TOML): the columns, card spelling, winner words and shoe boundaries of a file "
    "the readers do not recognise.",
)

#: The bets a replay table shows when no --bet is given (besides each --system's own bet).
DEFAULT_BETS = ("banker", "player", "tie")
#: The outcome columns a replay table shows.
OUTCOME = ("player_hand", "banker_hand", "winner")


def _layout(path: Path | None):
    """The layout file of ``--layout``, read once; a bad one stops the command with one line."""
    if path is None:
        return None
    from toolkit.records.read import read_layout

    try:
        return read_layout(path)
    except ValueError as err:
        fail(f"--layout: {err}")


def _one_way_to_shoes(one_shoe: bool, shoe_column: str | None) -> None:
    """Refuse ``--one-shoe`` beside ``--shoe-column``: one says there is no shoe column, the other names it."""
    if one_shoe and shoe_column is not None:
        fail(f"give either --one-shoe (no shoe column) or --shoe-column {shoe_column!r}, not both")


def _header(text: str | None) -> dict[str, str] | None:
    if text is None:
        return None
    words = text.split()
    bad = [w for w in words if "=" not in w]
    if bad:
        fail(f"--header takes key=value words, got {' '.join(bad)!r}")
    return dict(w.split("=", 1) for w in words)


def _header_and_rules(text: str | None, rules_file: Path | None) -> Any:
    """``--header`` settings, over the house rules of ``--rules`` when given (a :class:`ShoeHeader` then)."""
    settings = _header(text)
    read = read_rules_option(rules_file)
    if read is None:
        return settings
    from toolkit.dealing.dealer import Dealing
    from toolkit.records.header import ShoeHeader

    base = ShoeHeader(dealing=Dealing(tableau=read.tableau), rules=read.rules())
    try:
        return base.updated(settings or {})
    except ValueError as err:
        fail(f"--header: {err}")


def validate(
    files: list[Path] = typer.Argument(
        ..., help=f"Record files (CSV, JSON lines or Parquet; any layout; {FILE_LIMITS} each)."
    ),
    fmt: OutputFormat = typer.Option(
        OutputFormat.table,
        "--format",
        "-f",
        help="table (each problem, then a line per file), csv (one row per problem: file, line, shoe, coup, "
        "code, message) or json (files and problems).",
    ),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first problem."),
    header: str | None = HEADER_OPTION,
    one_shoe: bool = ONE_SHOE_OPTION,
    shoe_column: str | None = SHOE_COLUMN_OPTION,
    layout_file: Path | None = LAYOUT_OPTION,
    rules_file: Path | None = RULES_OPTION,
) -> None:
    """Check shoe records: exit 0 when every shoe is valid, 1 when some are not, 2 when a file cannot be read.

    Shoes and coups are numbered as in the file (baccarat simulate numbers both from 1).  Files
    other programs write (per-position card columns, hands in a cell, text reports, SQLite) are
    recognised: the table says how each was read, and counts its problems by kind.
    """
    from toolkit._files import RefusedFileError
    from toolkit.records import Problem, RecordError, read_records

    _one_way_to_shoes(one_shoe, shoe_column)
    settings = _header_and_rules(header, rules_file)
    how = _layout(layout_file)
    problems: list[Problem] = []
    summary: list[dict[str, Any]] = []
    code = 0
    for path in files:
        try:
            records = read_records(
                path, header=settings, strict=strict, one_shoe=one_shoe, shoe_column=shoe_column, layout=how
            )
        except (OSError, RefusedFileError) as err:
            reason = err.reason if isinstance(err, RefusedFileError) else f"cannot open the file: {err.strerror or err}"
            problem = Problem(str(path), None, None, None, "unreadable", reason, fatal=True)
            problems.append(problem)
            summary.append({"file": str(path), "shoes": 0, "valid": 0, "readable": False})
            code = 2
            if strict:
                break
            continue
        except RecordError as err:
            problems.append(err.problem)
            summary.append({"file": str(path), "shoes": None, "valid": None, "readable": not err.problem.fatal})
            code = 2 if err.problem.fatal else 1
            break
        report = records.report
        problems.extend(report.problems)
        summary.append(
            {
                "file": str(path),
                "shoes": report.n_shoes,
                "valid": report.n_valid,
                "readable": not report.fatal,
                "read_as": records.read_as,
                "kinds": report.summary_lines() if len(report.problems) > 1 else [],
            }
        )
        code = max(code, 2 if report.fatal else 1 if report.problems else 0)
    import polars as pl

    rows = pl.DataFrame(
        [p.as_dict() for p in problems],
        schema={
            "file": pl.String,
            "line": pl.Int64,
            "shoe": pl.String,
            "coup": pl.Int64,
            "code": pl.String,
            "message": pl.String,
        },
    )
    if fmt == OutputFormat.json:
        emit(rows, fmt, {"files": summary, "problems": [p.as_dict() for p in problems]})
    elif fmt == OutputFormat.csv:
        emit(rows, fmt)
    else:
        for p in problems:  # a file that cannot be read is an error of the command: on stderr
            if p.code == "unreadable":
                typer.echo(f"baccarat: error: {p}", err=True)
            else:
                say(str(p))
        for s in summary:
            state = "cannot be read" if not s["readable"] else f"{s['valid']} of {s['shoes']} shoe(s) valid"
            if s["shoes"] is None:
                state = "stopped at the first problem (--strict)"
            if s.get("read_as"):
                say(f"{s['file']}: read as: {s['read_as']}")
            for line in s.get("kinds", []):
                say(f"{s['file']}: {line}")
            say(f"{s['file']}: {state}")
    raise typer.Exit(code)


def replay(
    file: Path = typer.Argument(..., help=f"A card-level record file ({FILE_LIMITS})."),
    shoe: str = typer.Option(..., "--shoe", metavar="ID", help="The shoe to replay (its id in the file)."),
    system: list[str] = typer.Option(
        [], "--system", metavar="NAME", help="A count system to add (repeatable): dragon7, panda8, ..."
    ),
    bet: list[str] = typer.Option(
        [], "--bet", metavar="NAME", help="A bet to evaluate (repeatable); default every standard bet."
    ),
    columns: str | None = typer.Option(
        None,
        "--columns",
        "-c",
        metavar="A,B,...",
        help="The columns to show, comma-separated (every format). Default: the table shows coup, cards_unseen, "
        "the counts, the EVs of the chosen bets (banker, player, tie and each system's bet when no --bet is "
        "given) and the outcome; csv, json and parquet hold every column.",
    ),
    fmt: FileFormat = FILE_FORMAT_OPTION,
    out_text: str | None = OUT_OPTION,
    header: str | None = HEADER_OPTION,
    one_shoe: bool = ONE_SHOE_OPTION,
    shoe_column: str | None = SHOE_COLUMN_OPTION,
    layout_file: Path | None = LAYOUT_OPTION,
    before_problem: bool = typer.Option(
        False,
        "--before-first-problem",
        help="Replay a shoe that was set aside up to its first bad coup (its coups before it).",
    ),
    rules_file: Path | None = RULES_OPTION,
) -> None:
    """Replay one shoe coup by coup: unseen cards, counts and exact edges before each coup, then the outcome.

    ev_BET is the exact expected value of BET per unit staked before the coup; rc_ and
    tc_ are the running and true counts before it; unseen_A..unseen_K the cards not yet
    seen.  Coups are numbered from 1.
    """
    from toolkit._files import RefusedFileError
    from toolkit.records import read_records
    from toolkit.records import replay_records as replay_shoe

    out = None if out_text is None else output_path(out_text)
    if fmt == FileFormat.parquet and out is None:
        fail("--format parquet needs --out FILE")
    distinct(system, "--system")
    distinct(bet, "--bet")
    chosen = None if columns is None else distinct([c.strip() for c in columns.split(",") if c.strip()], "--columns")
    if chosen is not None and not chosen:
        fail("--columns names no column (give names separated by commas, e.g. --columns coup,ev_banker)")
    _one_way_to_shoes(one_shoe, shoe_column)
    how = _layout(layout_file)
    try:
        records = read_records(
            file, header=_header_and_rules(header, rules_file), one_shoe=one_shoe, shoe_column=shoe_column, layout=how
        )
    except OSError as err:
        fail(f"{file}: cannot open the file: {err.strerror or err}")
    except RefusedFileError as err:
        fail(str(err))
    if records.report.fatal:
        fail(str(records.report.problems[0]))
    if records.kind == "road":
        fail(f"{file}: an outcome-only record (bead road) cannot be replayed: it holds no cards")
    if shoe not in {str(s) for s in records.shoe_ids}:
        mine = [p for p in records.report.problems if p.shoe == shoe]
        if mine and before_problem:
            from toolkit.records.read import before_first_problem

            try:
                records = before_first_problem(records, shoe)
            except ValueError as err:
                fail(str(err), 1)
            typer.echo(
                printable(
                    f"baccarat: shoe {shoe} was set aside ({len(mine):,} problem(s)); replaying its "
                    f"{records.coups.height:,} coup(s) before the first: {mine[0]}"
                ),
                err=True,
            )
        elif mine:
            fail(f"shoe {shoe} was set aside: {mine[0]} (--before-first-problem replays the coups before it)", 1)
        else:
            known = ", ".join(str(s) for s in records.shoe_ids[:12]) + (" ..." if records.n_shoes > 12 else "")
            fail(f"no shoe {shoe!r} in {file}; shoes: {known or 'none loaded'}")
    if records.read_as:  # how a foreign file was read, and what was assumed: beside the table, on stderr
        typer.echo(f"baccarat: {file}: read as: {records.read_as}", err=True)
    try:
        frame = replay_shoe(records, shoe=shoe, systems=system, bets=bet or None)
    except (ValueError, TypeError) as err:
        fail(str(err))
    if chosen is not None:
        unknown = [c for c in chosen if c not in frame.columns]
        if unknown:
            fail(f"--columns: no column {unknown[0]!r}; known columns: {', '.join(frame.columns)}")
        frame = frame.select(chosen)
    elif fmt == FileFormat.table:
        frame = frame.select(_default_columns(frame, system, bet))
    emit(frame, fmt, out=out)


def _default_columns(frame: pl.DataFrame, systems: list[str], bets: list[str]) -> list[str]:
    """The replay table's columns: coup, cards unseen, the counts, the chosen bets' EVs, the outcome."""
    from toolkit.counting import get_count_system

    if bets:
        shown = list(bets)
    else:
        shown = list(DEFAULT_BETS)
        for name in systems:
            own = get_count_system(name).bet
            if own and own not in shown:
                shown.append(own)
    counts = [c for c in frame.columns if c.startswith(("rc_", "tc_"))]
    evs = [f"ev_{b}" for b in shown if f"ev_{b}" in frame.columns]
    return ["coup", "cards_unseen", *counts, *evs, *OUTCOME]


def convert(
    file: Path = typer.Argument(..., help=f"A record file in any layout the readers recognise ({FILE_LIMITS})."),
    out_text: str = typer.Option(
        ..., "--out", "-o", metavar="FILE", help="The record to write: .parquet (the default), .csv or .jsonl."
    ),
    layout: str | None = typer.Option(
        None,
        "--as",
        metavar="LAYOUT",
        help="The layout to write: cards, coups or road (default: the layout read; coups for a foreign file).",
    ),
    fmt: OutputFormat = typer.Option(
        OutputFormat.table, "--format", "-f", help="How to show what was written: table, csv or json."
    ),
    header: str | None = HEADER_OPTION,
    one_shoe: bool = ONE_SHOE_OPTION,
    shoe_column: str | None = SHOE_COLUMN_OPTION,
    layout_file: Path | None = LAYOUT_OPTION,
    rules_file: Path | None = RULES_OPTION,
) -> None:
    """Read a record once and write its valid shoes in the toolkit's own layout, so a foreign file is read once.

    Exit 0 when every shoe was written, 1 when some were set aside (baccarat validate says why),
    2 when the file cannot be read.
    """
    import polars as pl

    from toolkit._files import RefusedFileError
    from toolkit.records import LAYOUTS, read_records, write_records

    out = output_path(out_text)
    if layout is not None and layout not in LAYOUTS:
        fail(f"--as must be one of {', '.join(LAYOUTS)}; got {layout!r}")
    _one_way_to_shoes(one_shoe, shoe_column)
    how = _layout(layout_file)
    try:
        records = read_records(
            file, header=_header_and_rules(header, rules_file), one_shoe=one_shoe, shoe_column=shoe_column, layout=how
        )
    except OSError as err:
        fail(f"{file}: cannot open the file: {err.strerror or err}")
    except RefusedFileError as err:
        fail(str(err))
    report = records.report
    if report.fatal:
        fail(str(report.problems[0]))
    if records.n_shoes == 0:
        fail(f"{file}: no shoe is valid ({len(report.problems):,} problem(s)): baccarat validate {file} says why", 1)
    try:
        write_records(records, out, layout=layout, format=None if out.suffix else "parquet")
    except (ValueError, OSError, pl.exceptions.PolarsError) as err:  # polars reports a full disk as its own error
        fail(f"{out}: cannot write the record: {str(err).splitlines()[0] if str(err) else type(err).__name__}")
    row = {
        "file": str(file),
        "out": str(out),
        "shoes": records.n_shoes,
        "set_aside": report.n_shoes - report.n_valid,
        "coups": records.coups.height,
        "kind": records.kind,
        "read_as": records.read_as,
        "rules": records.header.dealing.tableau.name,
    }
    emit(pl.DataFrame([row]), fmt, row, keys=1)
    raise typer.Exit(1 if report.problems else 0)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
    app.command("validate")(validate)
    app.command("replay")(replay)
    app.command("convert")(convert)
