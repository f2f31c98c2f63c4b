"""Commands `baccarat validate` and `baccarat replay` (issue 4: recorded shoes)."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path

import typer

from toolkit.cli._common import distinct, fail, output_path

__all__ = ["register"]


class ValidateFormat(str, Enum):
    table = "table"
    json = "json"


class ReplayFormat(str, Enum):
    table = "table"
    json = "json"
    parquet = "parquet"


HEADER_OPTION = typer.Option(
    None,
    "--header",
    help="Shoe header settings over the file's own, as key=value words: 'decks=6 burn=none cut_card=16'.",
)


def _header(text: str | None) -> dict[str, str] | None:
    if text is None:
        return None
    words = text.split()
    bad = [w for w in words if "=" not in w]
    if bad:
        fail(f"--header takes key=value words, got {' '.join(bad)!r}")
    return dict(w.split("=", 1) for w in words)


def validate(
    files: list[Path] = typer.Argument(..., help="Record files (CSV, JSON lines or Parquet; any layout)."),
    fmt: ValidateFormat = typer.Option(ValidateFormat.table, "--format", "-f", help="Output format."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first problem."),
    header: str | None = HEADER_OPTION,
) -> None:
    """Check shoe records: exit 0 when every shoe is valid, 1 when some are not, 2 when a file cannot be read."""
    from toolkit.records import Problem, RecordError, read_records

    settings = _header(header)
    problems: list[Problem] = []
    summary = []
    code = 0
    for path in files:
        try:
            records = read_records(path, header=settings, strict=strict)
        except OSError as err:
            problem = Problem(
                str(path), None, None, None, "unreadable", f"cannot open the file: {err.strerror or err}", fatal=True
            )
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
            {"file": str(path), "shoes": report.n_shoes, "valid": report.n_valid, "readable": not report.fatal}
        )
        code = max(code, 2 if report.fatal else 1 if report.problems else 0)
    if fmt == ValidateFormat.json:
        payload = {"files": summary, "problems": [p.as_dict() for p in problems]}
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    else:
        for p in problems:
            typer.echo(str(p))
        for s in summary:
            state = "cannot be read" if not s["readable"] else f"{s['valid']} of {s['shoes']} shoe(s) valid"
            if s["shoes"] is None:
                state = "stopped at the first problem (--strict)"
            typer.echo(f"{s['file']}: {state}")
    raise typer.Exit(code)


def replay(
    file: Path = typer.Argument(..., help="A card-level record file."),
    shoe: str = typer.Option(..., "--shoe", help="The shoe to replay (its id in the file)."),
    system: list[str] = typer.Option([], "--system", help="A count system to add (repeatable): dragon7, panda8, ..."),
    bet: list[str] = typer.Option([], "--bet", help="A bet to evaluate (repeatable); default every standard bet."),
    fmt: ReplayFormat = typer.Option(ReplayFormat.table, "--format", "-f", help="Output format."),
    out_text: str | None = typer.Option(None, "--out", "-o", help="Write to this file (required for parquet)."),
    header: str | None = HEADER_OPTION,
) -> None:
    """Replay one shoe coup by coup: unseen cards, counts and exact edges before each coup, then the outcome."""
    import polars as pl

    from toolkit.records import read_records
    from toolkit.records import replay as replay_shoe

    out = None if out_text is None else output_path(out_text)
    if fmt == ReplayFormat.parquet and out is None:
        fail("--format parquet needs --out FILE")
    distinct(system, "--system")
    distinct(bet, "--bet")
    records = read_records(file, header=_header(header))
    if records.report.fatal:
        fail(str(records.report.problems[0]))
    if records.kind != "cards":
        fail(f"{file}: an outcome-only record (bead road) cannot be replayed: it holds no cards")
    if shoe not in {str(s) for s in records.shoe_ids}:
        mine = [p for p in records.report.problems if p.shoe == shoe]
        if mine:
            fail(f"shoe {shoe} was set aside: {mine[0]}", 1)
        known = ", ".join(str(s) for s in records.shoe_ids[:12]) + (" ..." if records.n_shoes > 12 else "")
        fail(f"no shoe {shoe!r} in {file}; shoes: {known or 'none loaded'}")
    try:
        frame = replay_shoe(records, shoe=shoe, systems=system, bets=bet or None)
    except (ValueError, TypeError) as err:
        fail(str(err))
    if fmt == ReplayFormat.parquet:
        assert out is not None
        _write(out, frame.write_parquet)
        return
    if fmt == ReplayFormat.json:
        text = json.dumps(frame.to_dicts(), indent=2) + "\n"
    else:
        shown = frame.drop([c for c in frame.columns if c.startswith("unseen_")]).with_columns(
            pl.col("player").list.join(" "),
            pl.col("banker").list.join(" "),
            *(pl.col(c).round(5) for c in frame.columns if c.startswith(("ev_", "tc_"))),
        )
        with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=400, tbl_hide_dataframe_shape=True):
            text = str(shown) + "\n"
    if out is None:
        sys.stdout.write(text)
    else:
        _write(out, text)


def _write(out: Path, data) -> None:
    """Write ``data`` to ``out`` atomically; a failure is one line (no half-written file is left)."""
    from toolkit._files import atomic_write

    try:
        atomic_write(out, data, "--out")
    except (OSError, ValueError) as err:
        fail(f"--out: cannot write {str(out)!r}: {getattr(err, 'strerror', None) or err}")
    except Exception as err:  # polars reports a failed write in its own exception types
        lines = str(err).strip().splitlines() or [type(err).__name__]
        fail(f"--out: cannot write {str(out)!r}: {lines[0]}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
    app.command("validate")(validate)
    app.command("replay")(replay)
