"""Plots of a side-bet assessment (:mod:`toolkit.studies.assess`): effects of removal, the trigger, the cut card.

Every ``plot_*`` function takes a frame of an :class:`~toolkit.studies.assess.Assessment`
(or read back from the tables ``baccarat assess`` writes), draws it with
seaborn on ``ax`` (a new figure when ``None``) and returns the axes;
:func:`save_assess_figures` writes the PNGs of an assessment (pass it to
:func:`toolkit.studies.assess.write_assessment` as ``figures=``).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> frame = pl.DataFrame({"card": ["A", "9"], "count": [32, 32], "eor": [0.0005, 0.0048], "tag": [0, 2]})
>>> plot_assess_eor(frame).get_ylabel()
'effect of removal (% of a unit)'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from toolkit.plots._axes import axes_or_new, require_columns

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_assess_eor", "plot_assess_penetration", "plot_assess_sweep", "save_assess_figures"]


def plot_assess_eor(eor: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """The effect of removing one card of each rank (bars, % of a unit), each labelled with its tag in the count.

    Parameters
    ----------
    eor
        The assessment's ``eor`` frame (``card``, ``eor``, ``tag``).
    ax
        Axes to draw on (default: new ones).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(eor, ["card", "eor", "tag"], "plot_assess_eor")
    data = eor.with_columns((pl.col("eor").fill_null(0.0) * 100).alias("eor_pct")).to_pandas()
    ax = axes_or_new(ax)
    sns.barplot(data=data, x="card", y="eor_pct", color="tab:blue", ax=ax)
    for i, (value, tag) in enumerate(zip(data["eor_pct"], data["tag"], strict=True)):
        ax.annotate(f"{int(tag):+d}" if tag else "0", (i, value), ha="center", va="bottom" if value >= 0 else "top")
    ax.axhline(0, color="grey", lw=0.8)
    ax.margins(y=0.12)  # room for the labels of the longest bars inside the frame
    ax.set_xlabel("card removed (labels: its tag in the count found)")
    ax.set_ylabel("effect of removal (% of a unit)")
    return ax


#: How each set of the threshold sweep is drawn (the fresh shoes' line over the search's, both visible).
_SWEEP_STYLES: dict[str, dict[str, Any]] = {
    "search": {"color": "tab:blue", "lw": 4, "alpha": 0.4, "marker": "o", "ms": 6, "zorder": 2,
               "label": "search shoes (where it was chosen)"},
    "fresh": {"color": "tab:orange", "lw": 1.3, "ls": "--", "marker": "x", "ms": 5, "zorder": 3,
              "label": "fresh shoes"},
}  # fmt: skip


def plot_assess_sweep(sweep: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """The count's expected win per 100 hands against its threshold, on the search and the fresh shoes.

    Parameters
    ----------
    sweep
        The assessment's ``sweep`` frame (``threshold``, ``win_per_100_hands``, ``set``).
    ax
        Axes to draw on (default: new ones).

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(sweep, ["threshold", "win_per_100_hands", "set"], "plot_assess_sweep")
    ax = axes_or_new(ax)
    # the two sets often lie on one another: the search's as a wide pale band, the fresh shoes' dashed on top
    for name, style in _SWEEP_STYLES.items():
        part = sweep.filter(pl.col("set") == name).sort("threshold")
        if part.height:
            ax.plot(part["threshold"].to_numpy(), part["win_per_100_hands"].to_numpy(), **style)
    search = sweep.filter(pl.col("set") == "search")
    if search.height and search["win_per_100_hands"].max() > 0:  # type: ignore[operator]
        chosen = search.row(search["win_per_100_hands"].arg_max() or 0, named=True)["threshold"]
        ax.axvline(chosen, color="grey", lw=0.8, ls=":", label=f"threshold chosen ({chosen:g})")
    ax.axhline(0, color="grey", lw=0.8)
    ax.legend(fontsize="small")
    ax.set_xlabel("betting threshold (count at least)")
    ax.set_ylabel("units won per 100 hands (expected)")
    return ax


def plot_assess_penetration(penetration: pl.DataFrame, min_win: float | None = None, ax: Axes | None = None) -> Axes:
    """Expected win per 100 hands of the count and of perfect play against the cut card (``min_win``: a floor line).

    Parameters
    ----------
    penetration
        The assessment's ``penetration`` frame (``cut_card``, ``strategy``, ``win_per_100_hands``).
    min_win
        The win per 100 hands below which the bet is not worth counting (a dashed line).
    ax
        Axes to draw on (default: new ones).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(penetration, ["cut_card", "strategy", "win_per_100_hands"], "plot_assess_penetration")
    ax = axes_or_new(ax)
    data = penetration.sort("cut_card").to_pandas()
    sns.lineplot(data=data, x="cut_card", y="win_per_100_hands", hue="strategy", marker="o", ax=ax)
    ax.axhline(0, color="grey", lw=0.8)
    if min_win is not None:
        ax.axhline(min_win, color="tab:red", lw=0.8, ls="--", label="worth counting")
        ax.legend()
    ax.set_xticks(sorted(penetration["cut_card"].unique().to_list()))  # the positions swept, not fractions
    ax.set_xlabel("cut card (cards from the end of the shoe)")
    ax.set_ylabel("units won per 100 hands (expected)")
    ax.invert_xaxis()
    return ax


def save_assess_figures(
    frames: Mapping[str, pl.DataFrame], folder: str | Path, dpi: int = 110, min_win: float | None = None
) -> dict[str, Path]:
    """Write the PNGs of an assessment from its frames (``eor``, ``sweep``, ``penetration``); their paths by title.

    Drawn on :class:`matplotlib.figure.Figure` objects (no pyplot state), so it works headless.

    Parameters
    ----------
    frames
        The assessment's frames.
    folder
        Where the PNGs go (made when missing).
    dpi
        Resolution.
    min_win
        As :func:`plot_assess_penetration`.

    Returns
    -------
    dict of str to pathlib.Path
        The files written, by figure title.
    """
    from matplotlib.figure import Figure

    from toolkit._files import refuse_symlink
    from toolkit.plots._save import save_figure

    out = refuse_symlink(Path(folder), "figures folder")
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}

    def save(fig: Figure, name: str, title: str) -> None:
        written[title] = save_figure(fig, out / f"{name}.png", "figure", dpi=dpi)

    fig = Figure(figsize=(7, 4), layout="constrained")
    plot_assess_eor(frames["eor"], ax=fig.subplots())
    save(fig, "eor_by_rank", "Effects of removal by rank, and the tags of the count found")
    if not frames["sweep"].is_empty():
        fig = Figure(figsize=(7, 4), layout="constrained")
        plot_assess_sweep(frames["sweep"], ax=fig.subplots())
        save(fig, "threshold_sweep", "The count's win against its threshold (search and fresh shoes)")
    if not frames["penetration"].is_empty():
        fig = Figure(figsize=(7, 4), layout="constrained")
        plot_assess_penetration(frames["penetration"], min_win, ax=fig.subplots())
        save(fig, "penetration", "The count and perfect play against the cut card")
    return written
