"""Commands `baccarat chemin ...` (issue 6: chemin de fer and baccarat banque)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
