"""Commands `baccarat thorp` and `baccarat reproduce` (issue 5: the Thorp study)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
