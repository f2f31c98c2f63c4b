"""Plots of chemin de fer solutions: Banker's strategy, solutions across shoes, what the options are worth.

Each function takes a solution or a frame from :mod:`toolkit.games.chemin`, draws on
``ax`` (a new figure when ``None``) with seaborn and returns the axes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from toolkit.plots._axes import axes_or_new

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from toolkit.games import ChemSolution

__all__ = ["banker_grid", "plot_banker_strategy", "plot_option_values", "plot_solutions"]

_COLUMNS = [str(c) for c in range(10)] + ["stood"]


def banker_grid(solution: ChemSolution) -> pl.DataFrame:
    """Banker's probability of drawing by (total, Player's third card), averaged over hands by their probability.

    Columns ``banker_total``, ``player_third``, ``draw_probability``,
    ``tableau_draws`` and ``departs`` (the average differs from the tableau).
    """
    t = solution.banker_table
    return (
        t.group_by("banker_total", "player_third")
        .agg(
            ((pl.col("draw_probability") * pl.col("probability")).sum() / pl.col("probability").sum()).alias(
                "draw_probability"
            ),
            pl.col("tableau_draws").first(),
            (pl.col("draw_probability") != pl.col("tableau_draws").cast(pl.Float64)).any().alias("departs"),
        )
        .sort("banker_total", "player_third")
    )


def plot_banker_strategy(solution: ChemSolution, ax: Axes | None = None) -> Axes:
    """Heatmap of Banker's probability of drawing; cells where he departs from the tableau are starred.

    For models where Banker sees his two cards, each cell averages his hands of
    that total, weighted by their probabilities.
    """
    import seaborn as sns

    ax = axes_or_new(ax, (8, 4))
    grid = banker_grid(solution).to_pandas()
    values = grid.pivot(index="banker_total", columns="player_third", values="draw_probability")
    departs = grid.pivot(index="banker_total", columns="player_third", values="departs")
    cols = [c for c in _COLUMNS if c in values.columns]
    values, departs = values[cols], departs[cols]
    labels = np.empty(values.shape, dtype=object)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values.iat[i, j]
            text = f"{v:.2f}".rstrip("0").rstrip(".")
            labels[i, j] = "" if np.isnan(v) else text + ("*" if departs.iat[i, j] else "")
    sns.heatmap(
        values,
        annot=labels,
        fmt="",
        cmap="RdBu_r",
        vmin=0,
        vmax=1,
        cbar_kws={"label": "P(Banker draws)"},
        ax=ax,
        linewidths=0.5,
    )
    ax.set_xlabel("Player's third card")
    ax.set_ylabel("Banker's total")
    ax.set_title(
        f"Model {solution.model.name}, {solution.shoe.total} cards: Banker's strategy (* departs from tableau)"
    )
    return ax


def plot_solutions(frame: pl.DataFrame, y: str = "player_draw_at_5", x: str = "decks", ax: Axes | None = None) -> Axes:
    """Line plot of a column of :func:`~toolkit.games.solve_chemin_by_decks` (or ``solve_chemin_shoes``) by model."""
    import seaborn as sns

    if y not in frame.columns or x not in frame.columns:
        raise ValueError(f"plot_solutions needs columns {x!r} and {y!r}; the frame has {frame.columns}")
    ax = axes_or_new(ax, (6, 4))
    sns.lineplot(data=frame.to_pandas(), x=x, y=y, hue="model", marker="o", ax=ax)
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel(y.replace("_", " "))
    return ax


def plot_option_values(frame: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """Bar chart of :func:`~toolkit.games.chemin_option_values`: Banker's expected payoff under each kind of play."""
    import seaborn as sns

    ax = axes_or_new(ax, (7, 3.5))
    sns.barplot(data=frame.to_pandas(), y="play", x="banker_ev", ax=ax, color="steelblue")
    ax.set_xlabel("Banker's expected payoff per unit")
    ax.set_ylabel("")
    return ax
