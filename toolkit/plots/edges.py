"""Plots of the exact engine's tables: house edges, effects of removal, depletion paths.

Every function takes a polars frame made by a study (:mod:`toolkit.edges.depletion`,
:func:`toolkit.edges.eor.effect_of_removal`), draws it with seaborn on ``ax`` (a new
figure when ``None``) and returns the axes.  Nothing is recomputed here.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from toolkit.edges.depletion import edges_by_decks
>>> ax = plot_edges_by_decks(edges_by_decks([1, 8], bets=["banker", "player"]))
>>> ax.get_ylabel()
'house edge (%)'
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from toolkit.plots._axes import axes_or_new, bet_colour, bet_name, reference_lines, require_columns

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_depletion", "plot_edges_by_decks", "plot_eor_heatmap"]


def plot_edges_by_decks(frame: pl.DataFrame, ax: Axes | None = None, hue: str = "variant") -> Axes:
    """House edge (%) against the number of decks, one line per bet.

    Parameters
    ----------
    frame
        From :func:`toolkit.edges.depletion.edges_by_decks` (``decks``, ``house_edge`` and ``hue``).
    hue
        Column naming the lines (``"variant"`` or ``"bet"``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ("decks", "house_edge", hue), "plot_edges_by_decks")
    ax = axes_or_new(ax)
    data = frame.with_columns((pl.col("house_edge") * 100).alias("house edge (%)"))
    if "bet" in frame.columns:  # each bet in its colour, named in words
        for (bet,), part in data.sort("decks").group_by("bet", maintain_order=True):
            label = str(part[hue][0]) if hue != "bet" else bet_name(str(bet))
            ax.plot(part["decks"].to_numpy(), part["house edge (%)"].to_numpy(), marker="o",
                    color=bet_colour(str(bet)), label=label)  # fmt: skip
        ax.legend(title=None, fontsize="small")
    else:
        sns.lineplot(data=data.to_pandas(), x="decks", y="house edge (%)", hue=hue, marker="o", ax=ax)
    ax.set_xticks(sorted(frame["decks"].unique().to_list()))
    ax.set_xlabel("decks in the shoe")
    ax.set_ylabel("house edge (%)")
    return ax


def plot_eor_heatmap(
    frame: pl.DataFrame,
    ax: Axes | None = None,
    scale: float = 1e7,
    per_bet_colours: bool = True,
    annotate: bool = True,
) -> Axes:
    """Effects of removal as a heatmap: one row per bet, one column per card.

    Parameters
    ----------
    frame
        From :func:`toolkit.edges.eor.effect_of_removal` (``bet``, ``card``, ``eor``).
    scale
        Cells show ``eor * scale`` (default: units of 10⁻⁷ of expected value).
    per_bet_colours
        Colour each row relative to its own largest effect, so that bets paying
        40:1 do not wash out the even-money ones; the numbers stay absolute.
    annotate
        Write the scaled value in each cell.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ("bet", "card", "eor"), "plot_eor_heatmap")
    cards = list(dict.fromkeys(frame["card"].to_list()))
    bets = list(dict.fromkeys(frame["bet"].to_list()))
    wide = frame.with_columns(pl.col("eor") * scale).pivot(on="card", index="bet", values="eor").select("bet", *cards)
    values = wide.drop("bet").to_numpy().astype(float)
    power = np.log10(scale)
    unit = rf"units of $10^{{{-round(power)}}}$" if np.isclose(power, round(power)) else f"units of {1 / scale:g}"
    colours = values
    if per_bet_colours:
        peak = np.nanmax(np.abs(values), axis=1, keepdims=True)
        colours = np.divide(values, peak, out=np.zeros_like(values), where=peak > 0)
    ax = axes_or_new(ax, (1.0 + 0.75 * len(cards), 0.9 + 0.42 * len(bets)))
    data = pl.DataFrame(colours, schema=cards, orient="row").with_columns(pl.Series("bet", bets)).to_pandas()
    with warnings.catch_warnings():
        # seaborn 0.13's heatmap calls Colormap.set_bad, which matplotlib >= 3.11 flags as pending deprecation
        warnings.filterwarnings("ignore", "The set_bad function", PendingDeprecationWarning)
        sns.heatmap(
            data.set_index("bet"),
            ax=ax,
            cmap="vlag",
            center=0,
            annot=values if annotate else False,
            fmt=".0f",
            annot_kws={"fontsize": 7},
            cbar_kws={
                "label": "relative to the bet's largest effect" if per_bet_colours else f"effect of removal, {unit}"
            },
        )
    ax.set_yticks(ax.get_yticks(), [bet_name(b) for b in bets], rotation=0)
    ax.set_xlabel("card removed")
    ax.set_ylabel("")
    ax.set_title(f"Effect of removal per card, in {unit} of expected value")
    return ax


def plot_depletion(
    frame: pl.DataFrame,
    bet: str,
    ax: Axes | None = None,
    x: str = "cards_removed",
    hue: str | None = None,
    alpha: float = 1.0,
) -> Axes:
    """Expected value (%) of one bet along depletion paths.

    Parameters
    ----------
    frame
        From :func:`toolkit.edges.depletion.depletion_by_value` (``hue="value"``) or
        :func:`toolkit.edges.depletion.random_depletion` (``hue="path"``): ``bet``,
        ``expected_value``, ``x`` and ``hue``.
    bet
        Which bet to draw.
    x
        ``"cards_removed"`` or ``"cards_left"``.
    hue
        Column with one line per distinct value (default: ``"value"`` if present, else ``"path"``).
    alpha
        Line opacity (use a small one for many random paths).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    hue = hue or ("value" if "value" in frame.columns else "path")
    require_columns(frame, ("bet", "expected_value", x, hue), "plot_depletion")
    chosen = frame.filter(pl.col("bet") == bet)
    if chosen.is_empty():
        raise ValueError(f"plot_depletion: no rows for bet {bet!r}; bets present: {', '.join(frame['bet'].unique())}")
    ax = axes_or_new(ax)
    data = chosen.with_columns(
        (pl.col("expected_value") * 100).alias("expected value (%)"), pl.col(hue).cast(pl.String)
    ).to_pandas()
    many = chosen[hue].n_unique() > 10
    sns.lineplot(
        data=data,
        x=x,
        y="expected value (%)",
        hue=hue,
        ax=ax,
        alpha=alpha,
        linewidth=0.8,
        palette="tab10" if not many else "crest",
        legend=not many,
        estimator=None,
    )
    ax.axhline(0, color="black", linewidth=0.6)
    if not many:  # two columns where the lines are not: in one, the ten values' key covered the run of the tens
        sns.move_legend(ax, "best", ncols=2, fontsize="small")
    ax.set_xlabel("cards of that value removed" if (x, hue) == ("cards_removed", "value") else x.replace("_", " "))
    ax.set_title(bet_name(bet))
    if x == "cards_left":
        ax.invert_xaxis()
        reference_lines(ax)
    return ax
