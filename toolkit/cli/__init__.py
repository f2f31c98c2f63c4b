"""The ``baccarat`` command: one module per command group, thin typer commands over the library."""

from toolkit.cli.app import app, main

__all__ = (
    "app",
    "main",
)
