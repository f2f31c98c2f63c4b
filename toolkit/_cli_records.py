"""Commands `baccarat validate` and `baccarat replay` (issue 4: recorded shoes)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
