"""Plots of recorded shoes: a replay's edges and counts by coup, the roads, bettors against the edge.

Every function takes a polars frame made by :mod:`toolkit.records.replay` or
:mod:`toolkit.records.roads`, draws it on ``ax`` (a new figure when ``None``) and
returns the axes.  Nothing is recomputed here.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from toolkit.records import big_road, simulate_records
>>> ax = plot_big_road(big_road(simulate_records(1, seed=3), 1))
>>> ax.get_title()
'big road'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from toolkit.plots._axes import axes_or_new, bet_colour, bet_name, require_columns

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_bead_plate", "plot_bet_tracking", "plot_big_road", "plot_replay_counts", "plot_replay_edges"]

#: Casino colours: Banker red, Player blue, Tie green.
WINNER_COLOURS = {"banker": "#c0392b", "player": "#2e6fd1", "tie": "#2e9d57"}


def _one_shoe(frame: pl.DataFrame, what: str) -> None:
    if "shoe" in frame.columns and frame["shoe"].n_unique() > 1:
        raise ValueError(
            f"{what} draws one shoe; the frame holds {frame['shoe'].n_unique()} (replay_records(records, shoe=...))"
        )


def plot_replay_edges(frame: pl.DataFrame, bets: Sequence[str] | None = None, ax: Axes | None = None) -> Axes:
    """Exact expected value (%) of each bet before every coup of a replayed shoe.

    Parameters
    ----------
    frame
        From :func:`toolkit.records.replay_records` for one shoe (``coup`` and ``ev_<bet>`` columns).
    bets
        The bets to draw (default every ``ev_`` column).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ("coup",), "plot_replay_edges")
    _one_shoe(frame, "plot_replay_edges")
    columns = [f"ev_{b}" for b in bets] if bets is not None else [c for c in frame.columns if c.startswith("ev_")]
    require_columns(frame, columns, "plot_replay_edges")
    long = frame.select("coup", *columns).unpivot(index="coup", variable_name="bet", value_name="ev")
    data = long.with_columns(pl.col("bet").str.strip_prefix("ev_"), (pl.col("ev") * 100).alias("expected value (%)"))
    names = [c.removeprefix("ev_") for c in columns]
    data = data.with_columns(pl.col("bet").replace_strict({b: bet_name(b) for b in names}))
    ax = axes_or_new(ax)
    palette = {bet_name(b): bet_colour(b) for b in names}
    sns.lineplot(data=data.to_pandas(), x="coup", y="expected value (%)", hue="bet", hue_order=list(palette),
                 palette=palette, ax=ax)  # fmt: skip
    ax.axhline(0, color="0.4", lw=0.8, ls="--")
    ax.set_title("exact edge before each coup")
    return ax


def plot_replay_counts(frame: pl.DataFrame, ax: Axes | None = None, which: str = "tc") -> Axes:
    """True (``which="tc"``) or running (``"rc"``) counts before every coup of a replayed shoe.

    Parameters
    ----------
    frame
        A replayed shoe with ``tc_<system>``/``rc_<system>`` columns.
    ax
        The axes (a new figure when ``None``).
    which
        ``"tc"`` or ``"rc"``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    if which not in ("tc", "rc"):
        raise ValueError(f"which must be 'tc' (true counts) or 'rc' (running counts), got {which!r}")
    require_columns(frame, ("coup",), "plot_replay_counts")
    _one_shoe(frame, "plot_replay_counts")
    columns = [c for c in frame.columns if c.startswith(f"{which}_")]
    if not columns:
        raise ValueError("plot_replay_counts: the frame has no counts; replay_records(records, systems=[...])")
    long = frame.select("coup", *columns).unpivot(index="coup", variable_name="system", value_name="count")
    data = long.with_columns(pl.col("system").str.strip_prefix(f"{which}_"))
    ax = axes_or_new(ax)
    palette = {c.removeprefix(f"{which}_"): bet_colour(c.removeprefix(f"{which}_")) for c in columns}
    sns.lineplot(data=data.to_pandas(), x="coup", y="count", hue="system", hue_order=list(palette), palette=palette,
                 drawstyle="steps-post", ax=ax)  # fmt: skip
    ax.axhline(0, color="0.4", lw=0.8, ls="--")
    ax.set_ylabel("true count" if which == "tc" else "running count")
    ax.set_title("counts before each coup")
    return ax


def _road_axes(ax: Axes, columns: int, rows: int, title: str) -> None:
    ax.set_xlim(-0.6, max(columns, 1) - 0.4)
    ax.set_ylim(rows - 0.4, -0.6)
    ax.set_aspect("equal")
    ax.set_xticks([x - 0.5 for x in range(max(columns, 1) + 1)], minor=True)
    ax.set_yticks([y - 0.5 for y in range(rows + 1)], minor=True)
    ax.grid(which="minor", color="0.85", lw=0.6)
    ax.tick_params(which="both", bottom=False, left=False, labelbottom=False, labelleft=False)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.set_title(title)


def plot_bead_plate(frame: pl.DataFrame, ax: Axes | None = None, rows: int | None = None) -> Axes:
    """The bead plate (from :func:`toolkit.records.roads.bead_plate`): a disc per coup, pair marks as dots.

    Parameters
    ----------
    frame
        From :func:`toolkit.records.roads.bead_plate`.
    ax
        The axes (a new figure when ``None``).
    rows
        Rows of the grid (default: as many as the frame needs, at least six).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(frame, ("column", "row", "winner", "label", "player_pair", "banker_pair"), "plot_bead_plate")
    rows = rows or (int(frame["row"].to_numpy().max()) + 1 if frame.height else 6)
    columns = int(frame["column"].to_numpy().max()) + 1 if frame.height else 1
    ax = axes_or_new(ax, (max(4, columns * 0.45), rows * 0.5 + 0.6))
    data = frame.to_pandas()
    sns.scatterplot(data=data, x="column", y="row", hue="winner", palette=WINNER_COLOURS, s=260, legend=False, ax=ax)
    for col, row, label in frame.select("column", "row", "label").iter_rows():
        ax.text(col, row, label, ha="center", va="center", color="white", fontsize=8, weight="bold")
    pp = frame.filter(pl.col("player_pair"))
    bp = frame.filter(pl.col("banker_pair"))
    ax.scatter(pp["column"] + 0.28, pp["row"] + 0.28, s=18, color=WINNER_COLOURS["player"], edgecolor="white")
    ax.scatter(bp["column"] - 0.28, bp["row"] - 0.28, s=18, color=WINNER_COLOURS["banker"], edgecolor="white")
    _road_axes(ax, columns, rows, "bead plate")
    return ax


def plot_big_road(frame: pl.DataFrame, ax: Axes | None = None, rows: int | None = None) -> Axes:
    """The big road (from :func:`toolkit.records.roads.big_road`): rings per streak, a green slash per tie.

    Parameters
    ----------
    frame
        From :func:`toolkit.records.roads.big_road`.
    ax
        The axes (a new figure when ``None``).
    rows
        Rows of the grid (default: as many as the frame needs, at least six).

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(frame, ("column", "row", "winner", "ties"), "plot_big_road")
    rows = rows or max(6, int(frame["row"].to_numpy().max()) + 1 if frame.height else 6)
    columns = int(frame["column"].to_numpy().max()) + 1 if frame.height else 1
    ax = axes_or_new(ax, (max(4, columns * 0.4), rows * 0.45 + 0.6))
    for winner, colour in WINNER_COLOURS.items():
        part = frame.filter(pl.col("winner") == winner)
        ax.scatter(part["column"], part["row"], s=150, facecolor="none", edgecolor=colour, linewidth=2)
    for col, row, ties in frame.filter(pl.col("ties") > 0).select("column", "row", "ties").iter_rows():
        ax.plot([col - 0.3, col + 0.3], [row + 0.3, row - 0.3], color=WINNER_COLOURS["tie"], lw=1.5)
        if ties > 1:
            ax.text(col + 0.32, row - 0.32, str(ties), color=WINNER_COLOURS["tie"], fontsize=7)
    _road_axes(ax, columns, rows, "big road")
    return ax


def plot_bet_tracking(edges: pl.DataFrame, ax: Axes | None = None, who: Sequence[str] | None = None) -> Axes:
    """Stake against the exact edge of every bet placed, a colour per bettor.

    ``edges`` comes from :func:`toolkit.records.replay.bet_edges`.

    Parameters
    ----------
    edges
        ``who, bet, amount, expected_value``.
    ax
        The axes (a new figure when ``None``).
    who
        The bettors drawn (default: all).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import seaborn as sns

    require_columns(edges, ("who", "bet", "amount", "expected_value"), "plot_bet_tracking")
    data = edges if who is None else edges.filter(pl.col("who").is_in(list(who)))
    data = data.with_columns(
        (pl.col("expected_value") * 100).alias("expected value (%)"),
        pl.col("bet").map_elements(bet_name, return_dtype=pl.String),
    )
    ax = axes_or_new(ax)
    sns.scatterplot(data=data.to_pandas(), x="expected value (%)", y="amount", hue="who", style="bet", alpha=0.6, ax=ax)
    ax.axvline(0, color="0.4", lw=0.8, ls="--")
    ax.set_ylabel("stake")
    ax.set_title("stakes against the edge")
    return ax
