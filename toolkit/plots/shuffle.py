"""Figures of the shuffle studies: the tracker's win against the riffles, the tests' power against the shoes.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import polars as pl
>>> frame = pl.DataFrame({"posterior": "raked", "model": ["1 riffle", "uniform"], "riffles": [1, None],
...     "win_per_100": [0.5, 0.0], "win_per_100_low": [0.1, -0.2], "win_per_100_high": [0.9, 0.2]})
>>> plot_tracker_edge(frame).get_xlabel()
'riffles'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from toolkit.plots._axes import axes_or_new, require_columns

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_test_power", "plot_tracker_edge"]


def plot_tracker_edge(frame: pl.DataFrame, ax: Axes | None = None, symlog: bool = True) -> Axes:
    """Win per 100 hands against the number of riffles, with its interval; the uniform shuffle as a band.

    Parameters
    ----------
    frame
        From :func:`toolkit.studies.shuffle_tracker_edge`.
    ax
        Axes to draw on (a new figure when ``None``).
    symlog
        A symmetric log scale on the win (no shuffle wins ~160 units, a riffled shoe a fraction of one).

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(frame, ("model", "riffles", "win_per_100", "win_per_100_low", "win_per_100_high"), "plot")
    ax = axes_or_new(ax)
    posterior = frame["posterior"] if "posterior" in frame.columns else pl.Series(["raked"] * frame.height)
    data = frame.with_columns(posterior.alias("posterior"))
    uniform = data.filter(pl.col("riffles").is_null())
    if uniform.height:
        row = uniform.row(0, named=True)
        ax.axhspan(row["win_per_100_low"], row["win_per_100_high"], color="grey", alpha=0.25, label="uniform shuffle")
    for name, marker in (("raked", "o"), ("one_riffle", "s")):
        part = data.filter(pl.col("riffles").is_not_null() & (pl.col("posterior") == name)).sort("riffles")
        if part.is_empty():
            continue
        x = part["riffles"].to_numpy()
        y = part["win_per_100"].to_numpy()
        err = [y - part["win_per_100_low"].to_numpy(), part["win_per_100_high"].to_numpy() - y]
        label = "raked marginals" if name == "raked" else "exact one-riffle posterior"
        ax.errorbar(x, y, yerr=err, marker=marker, capsize=3, linestyle="-" if name == "raked" else "", label=label)
    ax.axhline(0, color="black", linewidth=0.8)
    if symlog:
        ax.set_yscale("symlog", linthresh=1.0)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # riffles are whole
    ax.set_xlabel("riffles")
    ax.set_ylabel("tracker's win per 100 hands (units)")
    ax.legend(fontsize="small")
    return ax


def plot_test_power(power: pl.DataFrame, model: str | None = None, ax: Axes | None = None) -> Axes:
    """Power of each test against the shoes recorded, for one model (default: the first), with intervals.

    Parameters
    ----------
    power
        From :func:`toolkit.studies.shuffle_test_power`.
    model
        The model's label (``"2 riffles"``).
    ax
        Axes to draw on.

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(power, ("model", "test", "shoes", "power", "power_low", "power_high"), "plot_test_power")
    ax = axes_or_new(ax)
    chosen = model if model is not None else str(power["model"][0])
    part = power.filter(pl.col("model") == chosen)
    if part.is_empty():
        raise ValueError(f"plot_test_power: no model {chosen!r} in the frame (has {power['model'].unique().to_list()})")
    groups = part.sort("shoes").group_by("test", maintain_order=True)
    n_tests = part["test"].n_unique()
    for k, ((test,), rows) in enumerate(groups):
        # the tests' points side by side about each number of shoes (a few % apart on the log axis): several
        # tests often share a power (0 or 1), and their lines and intervals would hide one another
        x = rows["shoes"].to_numpy() * 1.06 ** (k - (n_tests - 1) / 2)
        y = rows["power"].to_numpy()
        err = [y - rows["power_low"].to_numpy(), rows["power_high"].to_numpy() - y]
        ax.errorbar(x, y, yerr=err, marker="o", markersize=4, capsize=2, linewidth=1, label=str(test))
    ax.axhline(0.8, color="grey", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    shoes = sorted(part["shoes"].unique().to_list())
    ax.set_xticks(shoes, [str(s) for s in shoes])  # the numbers of shoes tried, written plainly
    ax.minorticks_off()
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("shoes recorded")
    ax.set_ylabel("power at 1 %")
    ax.set_title(chosen)
    # below the axes, out of the lines' way (nine tests crowd any corner of the plot)
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, frameon=False)
    return ax
