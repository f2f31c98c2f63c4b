"""Plots of chemin de fer solutions: Banker's strategy, solutions across shoes, what the options are worth.

Each function takes a solution or a frame from :mod:`toolkit.games.chemin`, draws on
``ax`` (a new figure when ``None``) with seaborn and returns the axes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from toolkit.plots._axes import axes_or_new, require_columns

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from toolkit.games import ChemSolution

__all__ = ["banker_grid", "plot_banker_strategy", "plot_option_values", "plot_solutions"]

_COLUMNS = [str(c) for c in range(10)] + ["stood"]
_LABELS = {  # axis labels of the solved tables' columns (others read with spaces for underscores)
    "decks": "decks in the shoe",
    "value": "value of the game to Banker (per unit staked)",
    "player_draw_at_5": "P(Player draws at 5)",
    "departures": "cells departing from the tableau",
}


def banker_grid(solution: ChemSolution) -> pl.DataFrame:
    """Banker's probability of drawing by (total, Player's third card), averaged over hands by their probability.

    Columns ``banker_total``, ``player_third``, ``draw_probability``,
    ``tableau_draws`` and ``departs`` (the average differs from the tableau).

    Parameters
    ----------
    solution
        A solved chemin de fer game (:func:`toolkit.games.solve_chemin`).

    Returns
    -------
    polars.DataFrame
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

    Parameters
    ----------
    solution
        A solved chemin de fer game.
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
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
    """Line plot of a column of :func:`~toolkit.games.solve_chemin_by_decks` (or ``solve_chemin_shoes``) by model.

    Parameters
    ----------
    frame
        One row per model and ``x`` value.
    y, x
        The columns drawn.
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    if y not in frame.columns or x not in frame.columns:
        raise ValueError(f"plot_solutions needs columns {x!r} and {y!r}; the frame has {frame.columns}")
    ax = axes_or_new(ax, (6, 4))
    sns.lineplot(data=frame.to_pandas(), x=x, y=y, hue="model", marker="o", ax=ax)
    ax.set_xlabel(_LABELS.get(x, x.replace("_", " ")))
    ax.set_ylabel(_LABELS.get(y, y.replace("_", " ")))
    return ax


def plot_option_values(frame: pl.DataFrame, ax: Axes | None = None, scale: float = 1e4) -> Axes:
    """What each kind of play is worth to Banker, as its difference from the forced game (a bar per play).

    The options move Banker's expectation by a few parts in ten thousand: bars
    of the expectations themselves would all look alike, so each bar is the
    difference from the first row (the forced game, ``gain_over_forced``),
    labelled with its value; the forced game's expectation is in the x label.

    Parameters
    ----------
    frame
        From :func:`~toolkit.games.chemin_option_values` (``play``, ``banker_ev``;
        ``gain_over_forced`` is computed from the first row when missing).
    ax
        The axes (a new figure when ``None``).
    scale
        Differences are drawn in units of ``1 / scale`` (default: 10⁻⁴ of a unit staked).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> frame = pl.DataFrame({"play": ["forced", "solved"], "banker_ev": [0.0123, 0.0128]})
    >>> [round(float(b.get_width()), 6) for b in plot_option_values(frame).patches]
    [0.0, 5.0]
    """
    require_columns(frame, ("play", "banker_ev"), "plot_option_values")
    if frame.is_empty():
        raise ValueError("plot_option_values: the frame has no rows")
    if "gain_over_forced" not in frame.columns:
        frame = frame.with_columns(gain_over_forced=pl.col("banker_ev") - pl.col("banker_ev").first())
    ax = axes_or_new(ax, (8, 0.5 * frame.height + 1.5))
    plays = frame["play"].to_list()
    gains = frame["gain_over_forced"].to_numpy() * scale
    colours = ["#c0392b" if g > 0 else "#2e6fd1" if g < 0 else "0.6" for g in gains]
    bars = ax.barh(range(len(plays)), gains, color=colours)
    ax.bar_label(bars, labels=[f"{g:+.2f}" for g in gains], padding=3, fontsize="small")
    ax.set_yticks(range(len(plays)), plays)
    ax.invert_yaxis()
    ax.axvline(0, color="k", lw=0.8)
    span = float(np.abs(gains).max()) or 1.0
    ax.set_xlim(min(gains.min(), 0) - 0.25 * span, max(gains.max(), 0) + 0.35 * span)
    base = float(frame["banker_ev"][0])
    power = np.log10(scale)
    unit = rf"$10^{{{-round(power)}}}$" if np.isclose(power, round(power)) else f"{1 / scale:g}"
    ax.set_xlabel(  # two lines: in one, it was wider than the figure and cut off at both ends
        f"Banker's expected payoff minus the forced game's ({base:+.5f}),\nin units of {unit} per unit staked"
    )
    ax.set_ylabel("")
    return ax
