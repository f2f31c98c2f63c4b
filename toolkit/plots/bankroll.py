"""Plots of a counter's bankroll (seaborn; every function takes ``ax=None`` and returns the axes).

They draw frames computed by :mod:`toolkit.sizing` and never recompute:

* :func:`plot_bankroll_fan`: quantiles of the bankroll over sessions, a fan chart
  (:meth:`toolkit.sizing.BankrollReport.paths`, :func:`toolkit.sizing.bankroll_paths`);
* :func:`plot_session_results`: the distribution of session results
  (:meth:`toolkit.sizing.BankrollReport.sessions`);
* :func:`plot_risk_curve`: risk of ruin against the bankroll, formula and simulation
  (:meth:`toolkit.sizing.BankrollReport.risk_curve`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from toolkit.plots._axes import axes_or_new, require_columns

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_bankroll_fan", "plot_risk_curve", "plot_session_results"]


def plot_bankroll_fan(frame: pl.DataFrame, ax: Axes | None = None, label: str | None = None) -> Axes:
    """Fan chart: bands between symmetric quantiles of the bankroll after each session, and the median.

    ``frame`` has ``session, quantile, bankroll`` (and ``ruined``, the share of paths ruined, shown in the legend).

    Parameters
    ----------
    frame
        ``session, quantile, bankroll`` (and optionally ``ruined``).
    ax
        The axes (a new figure when ``None``).
    label
        The median line's legend label.

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(frame, ["session", "quantile", "bankroll"], "plot_bankroll_fan")
    ax = axes_or_new(ax)
    wide = frame.pivot(on="quantile", index="session", values="bankroll", aggregate_function="first").sort("session")
    qs = sorted(float(q) for q in frame["quantile"].unique())
    x = wide["session"].to_numpy()
    pairs = [(lo, hi) for lo, hi in zip(qs, reversed(qs), strict=True) if lo < hi]
    for i, (lo, hi) in enumerate(pairs):
        ax.fill_between(
            x,
            wide[str(lo)].to_numpy(),
            wide[str(hi)].to_numpy(),
            color="tab:blue",
            alpha=0.15 + 0.2 * i / max(len(pairs), 1),
            lw=0,
            label=f"{lo:.0%}-{hi:.0%}",
        )
    median = min(qs, key=lambda q: abs(q - 0.5))
    ax.plot(x, wide[str(median)].to_numpy(), color="tab:blue", lw=1.8, label=label or f"{median:.0%} (median)")
    start = float(frame.filter(pl.col("session") == frame["session"].min())["bankroll"].to_numpy()[0])
    ax.axhline(start, color="grey", lw=0.8, ls="--")
    ax.axhline(0, color="black", lw=0.8)
    if "ruined" in frame.columns:
        last = float(frame.filter(pl.col("session") == frame["session"].max())["ruined"].to_numpy()[0])
        ax.plot([], [], " ", label=f"ruined by the end: {last:.1%}")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # sessions are whole
    ax.set_xlabel("session")
    ax.set_ylabel("bankroll (units)")
    ax.legend(loc="upper left", fontsize="small")
    ax.set_title("Bankroll paths: quantiles over sessions")
    return ax


def plot_session_results(frame: pl.DataFrame, ax: Axes | None = None, hue: str | None = None, bins: int = 60) -> Axes:
    """Histogram of session results (column ``result``), with zero marked; ``hue`` a column of strategies.

    Parameters
    ----------
    frame
        A ``result`` column (units), and ``hue`` when given.
    ax
        The axes (a new figure when ``None``).
    hue
        A column of strategies, one histogram each.
    bins
        Histogram bins.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ["result", *([hue] if hue else [])], "plot_session_results")
    ax = axes_or_new(ax)
    sns.histplot(data=frame.to_pandas(), x="result", hue=hue, bins=bins, stat="density", element="step", ax=ax)
    ax.axvline(0, color="black", lw=0.8)
    if hue is None:
        ax.axvline(float(frame["result"].to_numpy().mean()), color="tab:red", lw=1, ls="--", label="mean")
        ax.legend(fontsize="small")
    ax.set_xlabel("result of a session (units)")
    ax.set_title("Session results")
    return ax


def plot_risk_curve(frame: pl.DataFrame, ax: Axes | None = None, hue: str | None = None) -> Axes:
    """Risk of ruin against the bankroll: the formula as lines, simulated values (``simulated, low, high``) as points.

    ``hue`` names a column of strategies, one curve each.

    Parameters
    ----------
    frame
        ``bankroll, formula`` (and ``simulated, low, high``), from
        :meth:`toolkit.sizing.BankrollReport.risk_curve`.
    ax
        The axes (a new figure when ``None``).
    hue
        A column of strategies.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ["bankroll", "formula", *([hue] if hue else [])], "plot_risk_curve")
    ax = axes_or_new(ax)
    data = frame.to_pandas()
    sns.lineplot(data=data, x="bankroll", y="formula", hue=hue, ax=ax, marker=None)
    if "simulated" in frame.columns:
        groups = frame.partition_by(hue, as_dict=False) if hue else [frame]
        colors = [line.get_color() for line in ax.get_lines()]
        bounded = {"low", "high"} <= set(frame.columns)
        labelled = False
        for i, g in enumerate(groups):
            color = colors[i % len(colors)] if colors else None
            ok = g.drop_nulls("simulated")
            # no path ruined: nothing to draw on a log axis but the interval's upper bound, as a bound
            none = ok.filter(pl.col("simulated") <= 0) if bounded else ok.clear()
            ok = ok.filter(pl.col("simulated") > 0)
            if not ok.is_empty():
                y = ok["simulated"].to_numpy()
                err = [y - ok["low"].to_numpy(), ok["high"].to_numpy() - y] if bounded else None
                ax.errorbar(
                    ok["bankroll"].to_numpy(), y, yerr=err, fmt="o", ms=4, capsize=2, color=color,
                    label="simulated" if i == 0 else None,
                )  # fmt: skip
            if not none.is_empty():
                ax.scatter(
                    none["bankroll"].to_numpy(), none["high"].to_numpy(), marker="v", s=30, color=color,
                    label=None if labelled else "none ruined: at most",
                )  # fmt: skip
                labelled = True
        ax.legend(title=hue, fontsize="small")  # the counters' lines and what the markers are
    ax.set_yscale("log")
    ax.set_xlabel("bankroll (units)")
    ax.set_ylabel("risk of ruin")
    ax.set_title("Risk of ruin against the bankroll (lines: diffusion formula)")
    return ax
