"""Shared pieces of the command line: shoe options, output formats, one-line errors."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Any

import polars as pl
import typer

from toolkit.cards import Composition


class OutputFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


DECKS_OPTION = typer.Option(None, "--decks", "-d", help="Full shoe of N decks (default 8 when --shoe is not given).")
SHOE_OPTION = typer.Option(
    None, "--shoe", help="Remaining shoe: 10 comma-separated counts by value 0-9, or 13 by rank A,2,...,9,T,J,Q,K."
)
FORMAT_OPTION = typer.Option(OutputFormat.table, "--format", "-f", help="Output format.")


def fail(message: str, code: int = 2) -> None:
    """Print one clear line to stderr and exit."""
    typer.echo(f"baccarat: error: {message}", err=True)
    raise typer.Exit(code)


def shoe_from_options(decks: int | None, shoe: str | None) -> Composition:
    """The composition named by ``--decks`` or ``--shoe`` (exactly one; default 8 decks)."""
    if decks is not None and shoe is not None:
        fail("give either --decks or --shoe, not both")
    if shoe is not None:
        parts = [p for p in shoe.split(",") if p.strip()]
        if len(parts) not in (10, 13):
            fail(f"--shoe needs 10 counts by value (0-9) or 13 by rank (A,2,...,9,T,J,Q,K); got {len(parts)}")
        try:
            return Composition.from_any(shoe)
        except (ValueError, TypeError) as err:
            fail(f"--shoe: {err}")
    try:
        return Composition.from_decks(8 if decks is None else decks)
    except (ValueError, TypeError) as err:
        fail(f"--decks: {err}")
    raise AssertionError("unreachable")


def emit(frame: pl.DataFrame, fmt: OutputFormat, json_payload: Any = None) -> None:
    """Write a frame as a table or CSV, or ``json_payload`` as JSON, to stdout."""
    if fmt == OutputFormat.json:
        sys.stdout.write(json.dumps(json_payload if json_payload is not None else frame.to_dicts(), indent=2) + "\n")
    elif fmt == OutputFormat.csv:
        sys.stdout.write(frame.write_csv())
    else:
        with pl.Config(
            tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200, fmt_str_lengths=60, tbl_hide_dataframe_shape=True
        ):
            sys.stdout.write(str(frame) + "\n")
