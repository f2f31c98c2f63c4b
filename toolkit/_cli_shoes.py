"""Commands `baccarat simulate` and `baccarat count` (issue 3: shoes and counts)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
