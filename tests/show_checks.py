"""The shared check of how a result object prints: a few lines, and a small HTML table in a notebook."""

from __future__ import annotations

from typing import Any

MAX_TEXT = 1_500  # characters: a notebook cell, not a 16,000-character dump
MAX_LINES = 25


def check_shown(obj: Any, title: str) -> None:
    """``repr(obj)`` starts with ``title`` and is short; ``obj._repr_html_()`` is a small ``<table>``."""
    text = repr(obj)
    assert text.startswith(title), text[:80]
    assert len(text) <= MAX_TEXT, f"{len(text)} characters"
    assert text.count("\n") < MAX_LINES
    html = obj._repr_html_()
    assert "<table>" in html
    assert len(html) <= 4 * MAX_TEXT
