"""Helpers shared by the plotting modules: a new figure when no axes are given, column checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def axes_or_new(ax: Axes | None, size: tuple[float, float] = (7, 4)) -> Axes:
    """``ax``, or the axes of a new figure of ``size`` inches."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def require_columns(frame: pl.DataFrame, columns: Sequence[str], what: str) -> None:
    """Raise a clear error unless ``frame`` is a polars frame holding ``columns``."""
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"{what} takes a polars DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what}: the frame lacks column(s) {', '.join(missing)} (has {', '.join(frame.columns)})")
