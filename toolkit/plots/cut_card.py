"""Plots of the cut-card study (:mod:`toolkit.studies.cut_card`): the effect per bet, and its mechanism.

Each function takes a frame from a :class:`~toolkit.studies.cut_card.CutCardResult` method, draws it
(seaborn from polars through ``.to_pandas()``) on ``ax`` (a new figure when ``None``) and returns the axes;
nothing is recomputed.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from toolkit.studies.cut_card import CutCardStudy, run_cut_card
>>> result = run_cut_card(CutCardStudy(n_shoes=20, seed=1, bets=("banker", "tie")), progress=False)
>>> plot_cut_card_effect(result.table()).get_xlabel()
'effect on the edge (units staked; symmetric log scale)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from toolkit.plots._axes import axes_or_new, bet_colour, bet_name, require_columns

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["cut_card_figure", "plot_coups_per_shoe", "plot_cut_card_effect", "plot_last_coups"]

_EFFECT = ("rule", "bet", "effect", "ci_low", "ci_high")
#: Below this size the effect axis is linear (the symmetric log scale's threshold, in units staked).
LINEAR_BELOW = 1e-6


def plot_cut_card_effect(frame: pl.DataFrame, rule: str | None = None, ax: Axes | None = None) -> Axes:
    """The effect of each bet under one rule, with its interval (a dot and a bar per bet).

    Parameters
    ----------
    frame
        :meth:`CutCardResult.table` (or ``toolkit.cut_card_effect``): ``rule, bet, effect, ci_low, ci_high``.
    rule
        The rule drawn (default: the first in the frame).
    ax
        Axes to draw on (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, _EFFECT, "plot_cut_card_effect")
    rule = frame["rule"][0] if rule is None else rule
    rows = frame.filter(pl.col("rule") == rule)
    if rows.is_empty():
        raise ValueError(f"plot_cut_card_effect: no rows of rule {rule!r} (the frame has {frame['rule'].unique()})")
    names = [bet_name(b) for b in rows["bet"]]
    ax = axes_or_new(ax, (7, 0.35 * len(names) + 1.2))
    data = rows.with_columns(pl.Series("name", names)).to_pandas()
    palette = {bet_name(b): bet_colour(b) for b in rows["bet"]}
    for i, r in enumerate(rows.iter_rows(named=True)):
        ax.plot([r["ci_low"], r["ci_high"]], [i, i], color=palette[names[i]], lw=2, solid_capstyle="butt")
    sns.scatterplot(data=data, x="effect", y="name", hue="name", palette=palette, legend=False, ax=ax, zorder=3)
    ax.axvline(0.0, color="0.3", lw=0.8, ls=":")
    ax.set_xscale("symlog", linthresh=LINEAR_BELOW)
    reach = float(np.nanmax(np.abs(rows.select("ci_low", "ci_high", "effect").to_numpy()), initial=LINEAR_BELOW))
    ax.set_xlim(-2 * reach, 2 * reach)  # every bar whole, zero in the middle (a symlog axis pads none)
    ax.set_xlabel("effect on the edge (units staked; symmetric log scale)")
    ax.set_ylabel("")
    ax.set_title(str(rule))
    return ax


def cut_card_figure(frame: pl.DataFrame) -> Figure:
    """One panel per rule of :func:`plot_cut_card_effect`, side by side (two to a row).

    Parameters
    ----------
    frame
        :meth:`CutCardResult.table`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    require_columns(frame, _EFFECT, "cut_card_figure")
    rules = list(dict.fromkeys(frame["rule"].to_list()))
    n_bets = frame.filter(pl.col("rule") == rules[0]).height
    cols = min(2, len(rules))
    rows = -(-len(rules) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(7 * cols, (0.35 * n_bets + 1.5) * rows), squeeze=False)
    for ax, rule in zip(axes.flat, rules, strict=False):
        plot_cut_card_effect(frame, rule, ax)
    for ax in list(axes.flat)[len(rules) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def plot_last_coups(frame: pl.DataFrame, bets: tuple[str, ...] = ("banker", "player"), ax: Axes | None = None) -> Axes:
    """Mean ``EV - EV_fresh`` of a shoe's last coups, by coups before the last (0: the last), one line per rule
    and bet.

    Parameters
    ----------
    frame
        :meth:`CutCardResult.from_end`: ``rule, bet, back, mean``.
    bets
        The bets drawn.
    ax
        Axes to draw on.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ("rule", "bet", "back", "mean"), "plot_last_coups")
    ax = axes_or_new(ax)
    rows = frame.filter(pl.col("bet").is_in(list(bets))).with_columns(pl.col("bet").map_elements(bet_name, pl.String))
    sns.lineplot(data=rows.to_pandas(), x="back", y="mean", hue="rule", style="bet", marker="o", ax=ax)
    ax.axhline(0.0, color="0.3", lw=0.8, ls=":")
    ax.set_xlabel("coups before the shoe's last coup")
    ax.set_ylabel("mean EV - fresh edge")
    return ax


def plot_coups_per_shoe(frame: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """The share of shoes by coups dealt, one line per rule.

    Parameters
    ----------
    frame
        :meth:`CutCardResult.coups_per_shoe`: ``rule, coups, shoes``.
    ax
        Axes to draw on.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ("rule", "coups", "shoes"), "plot_coups_per_shoe")
    ax = axes_or_new(ax)
    rows = frame.with_columns((pl.col("shoes") / pl.col("shoes").sum().over("rule")).alias("share"))
    sns.lineplot(data=rows.to_pandas(), x="coups", y="share", hue="rule", drawstyle="steps-mid", ax=ax)
    ax.set_xlabel("coups dealt in the shoe")
    ax.set_ylabel("share of shoes")
    return ax
