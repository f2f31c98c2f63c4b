"""Plots of counts and of what a counter wins (seaborn; every function takes ``ax=None`` and returns the axes).

Plots only draw frames computed by :mod:`toolkit.counting` (counts, count
quality, sweeps); they never recompute.

* :func:`plot_count_path`: the true (or running) counts through one shoe;
* :func:`plot_ev_by_count`: the exact expected value before each coup against a count;
* :func:`plot_count_quality`: R² of the linear count by depth of the shoe;
* :func:`plot_count_value_by_depth`: a computed count's expected win and share bet by depth;
* :func:`plot_threshold_sweep`: units won per shoe against the betting threshold;
* :func:`plot_penetration`: units won per shoe against the cut card position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from toolkit.plots._axes import axes_or_new, bet_colour, bet_name, reference_lines, require_columns

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "plot_count_path",
    "plot_count_quality",
    "plot_count_value_by_depth",
    "plot_ev_by_count",
    "plot_penetration",
    "plot_threshold_sweep",
]


def plot_count_path(
    frame: pl.DataFrame, systems: Sequence[str], shoe: int | None = None, kind: str = "tc", ax: Axes | None = None
) -> Axes:
    """Counts before each coup of one shoe, against the cards seen.

    ``frame`` is a coup frame with ``rc_<name>``/``tc_<name>`` columns
    (:func:`toolkit.counting.tallies.with_counts`); ``kind`` is ``"tc"`` or ``"rc"``;
    ``shoe`` defaults to the first shoe of the frame.

    Parameters
    ----------
    frame
        Coups with ``shoe``, ``cards_seen`` and the count columns.
    systems
        The count systems drawn (a system named after a bet takes its colour).
    shoe
        The shoe (default: the first).
    kind
        ``"tc"`` (true counts) or ``"rc"`` (running counts).
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    if kind not in ("tc", "rc"):
        raise ValueError(f"kind must be 'tc' (true count) or 'rc' (running count), got {kind!r}")
    columns = [f"{kind}_{s}" for s in systems]
    require_columns(frame, ["shoe", "cards_seen", *columns], "plot_count_path")
    shoe = frame["shoe"][0] if shoe is None else shoe
    one = frame.filter(pl.col("shoe") == shoe)
    if one.is_empty():
        raise ValueError(f"shoe {shoe} is not in the frame")
    long = one.select("cards_seen", *columns).unpivot(index="cards_seen", variable_name="system", value_name="count")
    long = long.with_columns(pl.col("system").str.slice(len(kind) + 1))
    ax = axes_or_new(ax)
    palette = {s: bet_colour(s) for s in systems}
    sns.lineplot(data=long.to_pandas(), x="cards_seen", y="count", hue="system", hue_order=list(systems),
                 palette=palette, drawstyle="steps-post", ax=ax)  # fmt: skip
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("cards seen before the coup")
    ax.set_ylabel("true count" if kind == "tc" else "running count")
    ax.set_title(f"Counts through shoe {shoe}")
    return ax


def plot_ev_by_count(
    frame: pl.DataFrame, count: str, ev: str, ax: Axes | None = None, hue: str | None = None, alpha: float = 0.2
) -> Axes:
    """Scatter of the exact expected value before each coup (column ``ev``) against a count column.

    Parameters
    ----------
    frame
        One row per coup.
    count, ev
        The columns on the x and y axes.
    ax
        The axes (a new figure when ``None``).
    hue
        An optional column colouring the points.
    alpha
        Point opacity.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, [count, ev] + ([hue] if hue else []), "plot_ev_by_count")
    ax = axes_or_new(ax)
    sns.scatterplot(data=frame.to_pandas(), x=count, y=ev, hue=hue, s=6, alpha=alpha, linewidth=0, ax=ax)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel(count)
    ax.set_ylabel(f"{ev} (exact, before the coup)")
    return ax


def plot_count_quality(quality: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """R² of the exact EV on the count, by cards left in the shoe (:func:`toolkit.counting.quality.count_quality`).

    Parameters
    ----------
    quality
        ``system, depth, cards_left_from, r2``.
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(quality, ["system", "depth", "cards_left_from", "r2"], "plot_count_quality")
    by_depth = quality.filter(pl.col("depth") != "all").sort("cards_left_from")
    ax = axes_or_new(ax)
    systems = by_depth["system"].unique(maintain_order=True).to_list()
    sns.lineplot(data=by_depth.to_pandas(), x="cards_left_from", y="r2", hue="system", hue_order=systems,
                 palette={s: bet_colour(s) for s in systems}, marker="o", ax=ax)  # fmt: skip
    ax.set_xlabel("cards left in the shoe (bucket start)")
    ax.set_ylabel("R² of exact EV on the count")
    ax.set_ylim(0, 1.02)
    ax.invert_xaxis()
    reference_lines(ax)
    return ax


def _sweep(frame: pl.DataFrame, x: str, ax: Axes | None, hue: str | None, expected: bool) -> Axes:
    """Units per shoe against ``x``, a line per ``hue`` group in its bet's colour, its band in the same colour."""
    y = "units_per_shoe_ev" if expected else "units_per_shoe"
    require_columns(frame, [x, y, f"{y}_low", f"{y}_high", *([hue] if hue else [])], "the sweep plot")
    ax = axes_or_new(ax)
    data = frame.sort(x)
    groups = [(None, data)] if hue is None else [(k, data.filter(pl.col(hue) == k))
                                                  for k in data[hue].unique(maintain_order=True)]  # fmt: skip
    for key, g in groups:
        colour = bet_colour(str(key)) if key is not None else "#1f77b4"
        xs = g[x].to_numpy()
        ax.plot(xs, g[y].to_numpy(), marker="o", color=colour, label=bet_name(str(key)) if key is not None else None)
        ax.fill_between(xs, g[f"{y}_low"].to_numpy(), g[f"{y}_high"].to_numpy(), color=colour, alpha=0.2, lw=0)
    if hue is not None:
        ax.legend(fontsize="small", title=hue)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_ylabel("units won per shoe" + (" (exact EV of the bets)" if expected else " (realised)"))
    return ax


def plot_threshold_sweep(
    sweep: pl.DataFrame, ax: Axes | None = None, hue: str | None = None, expected: bool = True
) -> Axes:
    """Units won per shoe (with its confidence band) against the threshold.

    ``sweep``: a frame of :func:`toolkit.counting.sweeps.threshold_sweep`.

    Parameters
    ----------
    sweep
        ``threshold`` and units per shoe with ``_low``/``_high`` bounds.
    ax
        The axes (a new figure when ``None``).
    hue
        A column with one line (and band, in the same colour) per value, e.g. ``"strategy"``.
    expected
        Units from the exact EV of the bets placed (default) or realised.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _sweep(sweep, "threshold", ax, hue, expected)
    ax.set_xlabel("betting threshold (count at least)")
    return ax


def plot_penetration(
    sweep: pl.DataFrame, ax: Axes | None = None, hue: str | None = "strategy", expected: bool = True
) -> Axes:
    """Units won per shoe against the cut card position (:func:`toolkit.counting.sweeps.penetration_sweep`).

    Parameters
    ----------
    sweep
        ``cut_card`` and units per shoe with ``_low``/``_high`` bounds.
    ax
        The axes (a new figure when ``None``).
    hue
        A column with one line (and band, in the same colour) per value.
    expected
        Units from the exact EV of the bets placed (default) or realised.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _sweep(sweep, "cut_card", ax, hue, expected)
    ax.set_xlabel("cut card (cards from the end of the shoe)")
    ax.invert_xaxis()
    reference_lines(ax)
    return ax


def plot_count_value_by_depth(by_depth: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """Where a count wins: expected units won per shoe at each depth, and the share of hands bet there.

    ``by_depth``: :attr:`toolkit.counting.CountValue.by_depth` (a computed count's ``cards_out, hands, bets,
    units_ev``).  The bars are the expected units won by the coups starting after that many cards are out of
    the shoe; the line (right axis) the probability that a coup there is bet.

    Parameters
    ----------
    by_depth
        The frame.
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
        The axes of the units won (the share bet is on its twin).
    """
    require_columns(by_depth, ["cards_out", "hands", "bets", "units_ev"], "plot_count_value_by_depth")
    ax = axes_or_new(ax)
    cards = by_depth["cards_out"].to_numpy()
    ax.bar(cards, by_depth["units_ev"].to_numpy(), width=1.0, color="tab:green", label="expected units won")
    ax.set_xlabel("cards out of the shoe before the coup")
    ax.set_ylabel("expected units won per shoe")
    share = ax.twinx()
    hands = by_depth["hands"].to_numpy()
    bets = by_depth["bets"].to_numpy()
    share.plot(cards, bets / hands.clip(min=1e-300), color="tab:grey", lw=1, label="share of coups bet")
    share.set_ylabel("share of coups bet")
    share.set_ylim(bottom=0)  # both axes from 0, on one baseline (the share's own margin sank it below the bars')
    ax.yaxis.label.set_color("tab:green")  # which axis is whose, without a key over the bars
    share.yaxis.label.set_color("tab:grey")
    return ax
