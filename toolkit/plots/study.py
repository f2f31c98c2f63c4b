"""Plots of the Thorp study's tables (:mod:`toolkit.studies.thorp`): where edges appear, and the variance check.

Every ``plot_*`` function takes a polars frame from a :class:`~toolkit.studies.StudyResult`
method (or read back from the Parquet tables ``baccarat thorp`` writes), draws
it with seaborn on ``ax`` (a new figure when ``None``) and returns the axes.
Nothing is recomputed here.  :func:`by_bet_figure` puts one panel per bet on a
figure; :func:`save_study_figures` writes the PNGs of a run (pass it to
:func:`toolkit.studies.write_outputs` as ``figures=`` to list them in the report).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from toolkit.studies import ThorpStudy, run_study
>>> result = run_study(ThorpStudy(n_shoes=20, seed=3, bets=("banker", "tie")), progress=False)
>>> ax = plot_gain_share(result.cumulative())
>>> ax.get_xlabel()
'cards unseen before the coup'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from toolkit.plots._axes import (
    axes_or_new,
    bet_colour,
    bet_name,
    by_family,
    card_ticks,
    draw_bet_lines,
    reference_lines,
    require_columns,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "by_bet_figure",
    "plot_gain_share",
    "plot_jacobson",
    "plot_mean_positive_ev",
    "plot_p_positive",
    "plot_variance",
    "plot_variance_ratio",
    "plot_where_edges_are",
    "save_study_figures",
]

_X = "cards unseen before the coup"
#: Line styles of the observers in one panel.
_OBSERVER_STYLE = {"unseen": "-", "remaining": "--"}


def _one_bet(frame: pl.DataFrame, bet: str, what: str) -> pl.DataFrame:
    rows = frame.filter(pl.col("bet") == bet)
    if rows.is_empty():
        known = ", ".join(frame["bet"].unique(maintain_order=True).to_list())
        raise ValueError(f"{what}: no rows for bet {bet!r} (the frame has {known})")
    return rows


def _cards_axis(ax: Axes, low: float = 6, high: float = 420) -> None:
    """A logarithmic axis of cards with plain ticks on every panel and the 20 and 50 card lines."""
    ax.set_xscale("log")
    ax.set_xlim(low, high)
    card_ticks(ax)
    reference_lines(ax)
    ax.set_xlabel(_X)


def plot_p_positive(
    by_unseen: pl.DataFrame, bet: str, ax: Axes | None = None, min_hands: int = 1, exact: pl.DataFrame | None = None
) -> Axes:
    """P(EV > 0) against cards unseen for one bet, one line per observer, with the 95 % Wilson band.

    The line and its band take the bet's colour (:data:`toolkit.plots._axes.BET_COLOURS`);
    the observers differ by line style (solid: the perfect counter, dashed:
    the one who also saw the burned cards).  Dotted lines mark 20 and 50 cards.
    Depths with no edge are not drawn on the log scale.

    Parameters
    ----------
    by_unseen
        From :meth:`~toolkit.studies.StudyResult.by_unseen` (or ``tables/by_unseen.parquet``).
    bet
        The bet to draw (a panel name).
    ax
        The axes (a new figure when ``None``).
    min_hands
        Leave out depths with fewer hands.
    exact
        The exact law of the last cards (``unseen``, ``bet``, ``exact_p_positive``: the table
        ``exact_last_cards`` of :func:`toolkit.studies.write_outputs`), drawn as black dots.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from matplotlib.ticker import FuncFormatter, NullLocator

    require_columns(
        by_unseen, ("observer", "bet", "unseen", "hands", "p_positive", "p_low", "p_high"), "plot_p_positive"
    )
    rows = _one_bet(by_unseen, bet, "plot_p_positive").filter(pl.col("hands") >= min_hands)
    ax = axes_or_new(ax)
    shown = rows.filter(pl.col("p_positive") > 0)
    colour = bet_colour(bet)
    if not shown.is_empty():
        for observer in shown["observer"].unique(maintain_order=True):
            band = shown.filter(pl.col("observer") == observer).sort("unseen")
            x = band["unseen"].to_numpy()
            ax.plot(x, band["p_positive"].to_numpy(), color=colour, ls=_OBSERVER_STYLE.get(observer, "-."),
                    lw=1.2, label=observer)  # fmt: skip
            ax.fill_between(x, band["p_low"].to_numpy(), band["p_high"].to_numpy(), color=colour, alpha=0.2, lw=0)
        ax.set_yscale("log")
        ax.set_ylim(bottom=float(shown["p_positive"].to_numpy().min()) / 3, top=1.2)
        ax.yaxis.set_minor_locator(NullLocator())  # minor ticks on many small log panels cost seconds
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))  # 1, 0.1, 0.01: not 10^0, 10^-1
    if exact is not None and bet in set(exact["bet"]):
        dots = exact.filter(pl.col("bet") == bet).sort("unseen")
        ax.plot(dots["unseen"].to_numpy(), dots["exact_p_positive"].to_numpy(), "k.", ms=3, label="exact")
    _cards_axis(ax)
    ax.set_ylabel("P(EV > 0)")
    ax.set_title(bet_name(bet))
    return ax


def plot_mean_positive_ev(by_unseen: pl.DataFrame, bet: str, ax: Axes | None = None) -> Axes:
    """Mean EV when positive (the size of an edge) against cards unseen, one series per observer.

    Parameters
    ----------
    by_unseen
        From :meth:`~toolkit.studies.StudyResult.by_unseen`.
    bet
        The bet to draw (a panel name); its points take its colour.
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(by_unseen, ("observer", "bet", "unseen", "mean_positive_ev"), "plot_mean_positive_ev")
    rows = _one_bet(by_unseen, bet, "plot_mean_positive_ev").drop_nulls("mean_positive_ev")
    ax = axes_or_new(ax)
    markers = {"unseen": "o", "remaining": "^"}
    for observer in rows["observer"].unique(maintain_order=True):
        part = rows.filter(pl.col("observer") == observer)
        ax.scatter(part["unseen"].to_numpy(), part["mean_positive_ev"].to_numpy() * 100, s=8, alpha=0.6,
                   color=bet_colour(bet), marker=markers.get(observer, "s"), label=observer, lw=0)  # fmt: skip
    _cards_axis(ax)
    ax.set_ylabel("mean edge when positive (%)")
    ax.set_title(bet_name(bet))
    return ax


def _curves(frame: pl.DataFrame, y: str, x: str = "unseen") -> dict[str, tuple[Any, Any]]:
    """``bet -> (x, y)`` of a long frame, bets by family."""
    out = {}
    for bet in by_family(frame["bet"].unique(maintain_order=True).to_list()):
        part = frame.filter(pl.col("bet") == bet).sort(x)
        out[bet] = (part[x].to_numpy(), part[y].to_numpy())
    return out


def plot_gain_share(
    cumulative: pl.DataFrame, observer: str = "unseen", bets: Sequence[str] | None = None, ax: Axes | None = None
) -> Axes:
    """Cumulative share of the perfect bettor's gain dealt with at most x cards unseen, one line per bet.

    The dashed black line is the share of all hands: a bet whose curve hugs it
    has edges anywhere in the shoe; one that rises at the left has them at the
    end.  Bets are named in words, in their colours, by family; a bet whose
    curve is another's (Player Pair and Banker Pair) is drawn dashed on top and
    its legend entry says so.

    Parameters
    ----------
    cumulative
        From :meth:`~toolkit.studies.StudyResult.cumulative`.
    observer
        Whose depths.
    bets
        The bets to draw (default: all).
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> result = run_study(ThorpStudy(n_shoes=20, seed=3, bets=("player_pair", "banker_pair")), progress=False)
    >>> ax = plot_gain_share(result.cumulative())
    >>> ax.get_legend_handles_labels()[1][:2]
    ['Player Pair', 'Banker Pair (same as Player Pair)']
    """
    require_columns(
        cumulative, ("observer", "bet", "unseen", "share_gain_within", "share_hands_within"), "plot_gain_share"
    )
    rows = cumulative.filter(pl.col("observer") == observer)
    if bets is not None:
        rows = rows.filter(pl.col("bet").is_in(list(bets)))
    ax = axes_or_new(ax, (8, 5))
    data = rows.drop_nulls("share_gain_within")
    if not data.is_empty():
        draw_bet_lines(ax, _curves(data, "share_gain_within"))
    if not rows.is_empty():
        base = rows.filter(pl.col("bet") == rows["bet"][0]).sort("unseen")
        ax.plot(base["unseen"], base["share_hands_within"], "k--", label="all hands")
    _cards_axis(ax)
    ax.set_ylabel("share of the perfect bettor's gain within x cards")
    ax.set_ylim(0, 1.02)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", ncols=2)
    return ax


def plot_variance(variance: pl.DataFrame, bets: Sequence[str] | None = None, ax: Axes | None = None) -> Axes:
    """SD of the exact EV across shoes (solid) and its linear prediction (dashed) against cards unseen, log-log.

    Parameters
    ----------
    variance
        From :meth:`~toolkit.studies.StudyResult.variance`.
    bets
        The bets to draw (default: all), each in its colour.
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(variance, ("bet", "unseen", "var_ev", "var_linear"), "plot_variance")
    rows = variance if bets is None else variance.filter(pl.col("bet").is_in(list(bets)))
    ax = axes_or_new(ax, (8, 5))
    data = rows.with_columns(sd_ev=pl.col("var_ev").sqrt(), sd_linear=pl.col("var_linear").sqrt())
    observed = data.filter(pl.col("sd_ev") > 0)
    if not observed.is_empty():
        draw_bet_lines(ax, _curves(observed, "sd_ev"), close=0.1)  # Player's SD lies on Banker's (log axis)
        for bet, (x, y) in _curves(data.filter(pl.col("sd_linear") > 0), "sd_linear").items():
            ax.plot(x, y, color=bet_colour(bet), ls="--", lw=1, label="_nolegend_")
        ax.plot([], [], color="0.3", ls="--", lw=1, label="dashed: linear prediction")
        ax.set_yscale("log")
        ax.legend(fontsize="small", ncols=2)
    _cards_axis(ax)
    ax.set_ylabel("SD of the exact EV across shoes")
    return ax


def plot_variance_ratio(variance: pl.DataFrame, bets: Sequence[str] | None = None, ax: Axes | None = None) -> Axes:
    """Observed variance / linear prediction against cards unseen (1: the linear picture is exact).

    Bets whose ratios coincide (the Tie at 8:1 and at 9:1: one pays a fixed
    multiple of the other, so their variances scale alike) are drawn dashed on
    top of the first and the legend says so.

    Parameters
    ----------
    variance
        :meth:`~toolkit.studies.StudyResult.variance_by_bucket` (x at the
        bucket's middle) or :meth:`~toolkit.studies.StudyResult.variance`.
    bets
        The bets to draw (default: all with a ratio).
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    x = "unseen_mid" if "unseen_mid" in variance.columns else "unseen"
    require_columns(variance, ("bet", x, "ratio"), "plot_variance_ratio")
    rows = variance if bets is None else variance.filter(pl.col("bet").is_in(list(bets)))
    rows = rows.drop_nulls("ratio")
    ax = axes_or_new(ax)
    if not rows.is_empty():
        draw_bet_lines(ax, _curves(rows, "ratio", x), marker="o", close=0.1)  # Player's ratio lies on Banker's
    ax.axhline(1, color="k", lw=0.8)
    if not rows.is_empty():  # the lines had no key; it goes in headroom above them, where it covers none
        low, high = ax.get_ylim()
        ax.set_ylim(low, high + 0.45 * (high - low))
        ax.legend(fontsize="x-small", ncols=2, loc="upper right")
    nearest = min(rows[x].cast(pl.Float64).to_list(), default=6.0)  # the 0-10 bucket sits at 5 cards
    _cards_axis(ax, low=min(6.0, 0.8 * nearest))
    ax.set_ylabel("observed / linear variance")
    return ax


def plot_jacobson(jacobson: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """Jacobson's setting: P(EV > 0) for Player and Banker at each number of unseen cards, with 95 % bars.

    Parameters
    ----------
    jacobson
        From :meth:`~toolkit.studies.StudyResult.jacobson` or :func:`toolkit.studies.jacobson_setting`.
    ax
        The axes (a new figure when ``None``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(jacobson, ("unseen", "bet", "p_positive", "p_low", "p_high"), "plot_jacobson")
    ax = axes_or_new(ax)
    data = jacobson.with_columns(pl.col("p_positive", "p_low", "p_high") * 100)
    draw_bet_lines(ax, _curves(data, "p_positive"), marker="o")
    names = by_family(data["bet"].unique(maintain_order=True).to_list())
    for i, bet in enumerate(names):  # the bars side by side, each in its line's colour
        r = data.filter(pl.col("bet") == bet)
        dodge = (i - (len(names) - 1) / 2) * 0.35
        ax.vlines(r["unseen"].to_numpy() + dodge, r["p_low"], r["p_high"], color=bet_colour(bet), lw=1.4, alpha=0.8)
    depths = sorted(data["unseen"].unique().to_list())
    ax.set_xticks(depths)
    ax.set_xlim(min(depths) - 3, max(depths) + 3)
    reference_lines(ax)
    ax.set_xlabel("cards unseen")
    ax.set_ylabel("P(EV > 0) (%)")
    ax.legend(fontsize="small")
    return ax


def plot_where_edges_are(claims: pl.DataFrame, deal_to_end: pl.DataFrame | None = None, ax: Any = None) -> Any:
    """The answer at a glance: for every bet, the share of its edges dealt with 20 or fewer, and more than 50,
    cards unseen, with 95 % bars; casino dealing (filled dots) beside dealing to the end (open squares).

    Parameters
    ----------
    claims
        From :meth:`~toolkit.studies.StudyResult.claims` (the first observer is drawn).
    deal_to_end
        The same from the run dealt with no cut card, if any.
    ax
        Two axes side by side (a new figure when ``None``).

    Returns
    -------
    numpy.ndarray
        The two axes: edges in the last 20 cards (left), beyond 50 (right).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> result = run_study(ThorpStudy(n_shoes=20, seed=3, bets=("banker", "player")), progress=False)
    >>> left, right = plot_where_edges_are(result.claims())
    >>> [t.get_text() for t in left.get_yticklabels()]
    ['Banker', 'Player']
    """
    need = ("observer", "bet", "share_positive_last_20", "share_positive_beyond_50", "share_hands_last_20")
    require_columns(claims, need, "plot_where_edges_are")
    runs = {"casino dealing": claims}
    if deal_to_end is not None:
        require_columns(deal_to_end, need, "plot_where_edges_are")
        runs["dealt to the end (no cut card)"] = deal_to_end
    observer = claims["observer"][0]
    bets = by_family(claims.filter(pl.col("observer") == observer)["bet"].to_list())
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(1, 2, figsize=(10, 0.9 + 0.32 * len(bets)), sharey=True, layout="constrained")
    left, right = ax
    y = {bet: i for i, bet in enumerate(bets)}
    offsets = {name: (-0.15 if len(runs) > 1 and i == 0 else 0.15 if len(runs) > 1 else 0.0)
               for i, name in enumerate(runs)}  # fmt: skip
    for i, (name, frame) in enumerate(runs.items()):
        rows = {r["bet"]: r for r in frame.filter(pl.col("observer") == observer).to_dicts()}
        for panel, region in ((left, "last_20"), (right, "beyond_50")):
            for bet in bets:
                r = rows.get(bet)
                if r is None or r[f"share_positive_{region}"] is None:
                    continue
                share = 100 * r[f"share_positive_{region}"]
                low, high = (r.get(f"share_positive_{region}_{k}") for k in ("low", "high"))
                colour = bet_colour(bet)
                yy = y[bet] + offsets[name]
                if low is not None and high is not None:
                    panel.hlines(yy, 100 * low, 100 * high, color=colour, lw=1.5, alpha=0.8)
                panel.plot(share, yy, "o" if i == 0 else "s", color=colour, mfc=colour if i == 0 else "white",
                           ms=6, label="_nolegend_", gid=f"bet-{bet}")  # fmt: skip
        left.plot([], [], "o" if i == 0 else "s", color="0.3", mfc="0.3" if i == 0 else "white", label=name)
        base = 100 * frame["share_hands_last_20"][0]
        left.axvline(base, color="0.4", lw=0.9, ls=("--" if i == 0 else "-."),
                     label=f"share of hands in the last 20 cards, {name}")  # fmt: skip
    left.axvline(90, color="k", lw=1, label='Thorp\'s "almost always" (90 %)')
    right.axvline(10, color="k", lw=1, ls=":", label="10 %: at most this beyond 50, the edges belong to the end")
    left.set_yticks(range(len(bets)), [bet_name(b) for b in bets])
    for label, bet in zip(left.get_yticklabels(), bets, strict=True):
        label.set_color(bet_colour(bet))
    left.invert_yaxis()
    for panel in (left, right):
        panel.set_xlim(0, 100)
        panel.set_xticks([0, 20, 40, 60, 80, 100])
        panel.tick_params(axis="x", labelbottom=True)
        panel.grid(axis="x", color="0.9")
    left.set_xlabel("edges dealt with 20 or fewer cards unseen (%)")
    right.set_xlabel("edges dealt with more than 50 cards unseen (%)")
    left.set_title("Where the edges are: the last 20 cards...")
    right.set_title("...and beyond 50")
    left.legend(fontsize="x-small", loc="lower right")
    right.legend(fontsize="x-small", loc="upper right")  # the first rows' shares beyond 50 sit near 0
    return ax


def _same_rows(frame: pl.DataFrame, names: Sequence[str]) -> dict[str, str]:
    """``{bet: earlier bet}`` for bets whose rows equal an earlier bet's (every column but ``bet``)."""
    import numpy as np

    parts = {b: frame.filter(pl.col("bet") == b).drop("bet") for b in names}

    def alike(a: pl.DataFrame, b: pl.DataFrame) -> bool:
        if a.height == 0 or a.shape != b.shape:
            return False
        for column in a.columns:
            x, y = a[column], b[column]
            if x.dtype.is_numeric():
                if not np.allclose(x.to_numpy().astype(float), y.to_numpy().astype(float), rtol=1e-9, equal_nan=True):
                    return False
            elif not x.equals(y):
                return False
        return True

    same: dict[str, str] = {}
    for i, later in enumerate(names):
        for earlier in names[:i]:
            if earlier not in same and alike(parts[later], parts[earlier]):
                same[later] = earlier
                break
    return same


def by_bet_figure(
    frame: pl.DataFrame,
    draw: Callable[..., Any],
    bets: Sequence[str] | None = None,
    ncols: int = 4,
    figure: Figure | None = None,
    **options: Any,
) -> Figure:
    """One panel per bet: ``draw(frame, bet, ax=..., **options)`` on a grid (a new pyplot figure when ``None``).

    Every panel keeps its own x tick labels; the x label is written under the
    bottom panel of each column.  With two observers a figure legend names
    their line styles.

    Parameters
    ----------
    frame
        A long frame with a ``bet`` column (such as :meth:`~toolkit.studies.StudyResult.by_unseen`).
    draw
        Draws one bet on ``ax`` (:func:`plot_p_positive`, :func:`plot_mean_positive_ev`).
    bets
        The bets, in panel order (default: every bet of the frame, grouped by family).
    ncols
        Panels per row.
    figure
        The figure to draw on (a new pyplot figure when ``None``).
    **options
        Passed to ``draw``.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> by_unseen = run_study(ThorpStudy(n_shoes=20, seed=3, bets=("tie", "banker")), progress=False).by_unseen()
    >>> [ax.get_title() for ax in by_bet_figure(by_unseen, plot_p_positive, ncols=2).axes]
    ['Banker', 'Tie 8:1']
    """
    require_columns(frame, ("bet",), "by_bet_figure")
    names = list(bets) if bets is not None else by_family(frame["bet"].unique(maintain_order=True).to_list())
    if not names:
        raise ValueError("by_bet_figure: no bets to draw")
    nrows = -(-len(names) // ncols)
    if figure is None:
        import matplotlib.pyplot as plt

        figure = plt.figure()
    figure.set_size_inches(3.6 * ncols, 2.9 * nrows)
    # fixed spacing: a layout engine over a dozen log-scaled panels takes seconds
    figure.subplots_adjust(left=0.06, right=0.98, bottom=0.07, top=0.93, hspace=0.5, wspace=0.3)
    axes = figure.subplots(nrows, ncols, squeeze=False)
    same = _same_rows(frame, names)
    for i, (ax, bet) in enumerate(zip(axes.ravel(), names, strict=False)):
        draw(frame, bet, ax=ax, **options)
        if bet in same:  # a panel that repeats another says so (Banker Pair and Player Pair)
            ax.set_title(f"{ax.get_title()} (same as {bet_name(same[bet])})", fontsize="medium")
        legend = ax.get_legend()
        if legend is not None:
            legend.remove()
        if i + ncols < len(names):  # a panel below holds the label of this column
            ax.set_xlabel("")
    for ax in axes.ravel()[len(names) :]:
        ax.set_visible(False)
    observers = frame["observer"].unique(maintain_order=True).to_list() if "observer" in frame.columns else []
    if len(observers) > 1:
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], color="0.3", ls=_OBSERVER_STYLE.get(o, "-."), label=o) for o in observers]
        figure.legend(handles=handles, loc="upper right", ncols=len(observers), fontsize="small")
    return figure


def save_study_figures(frames: Mapping[str, pl.DataFrame], folder: str | Path, dpi: int = 110) -> dict[str, Path]:
    """Write the PNGs of a run from its tables (``by_unseen``, ``cumulative``, ``variance``...); returns their paths.

    Figures are drawn on :class:`matplotlib.figure.Figure` objects (no pyplot
    state), so this works headless and leaves any interactive session alone.
    The first, ``where_the_edges_are.png``
    (:data:`toolkit.studies.thorp.markdown.ANSWER_FIGURE`), is the one the
    report shows under its answer; with the tables of a deal-to-end run
    (``claims_deal_to_end``, ``cumulative_deal_to_end``) it compares the two.

    Parameters
    ----------
    frames
        The tables by name, as :func:`toolkit.studies.write_outputs` passes them.
    folder
        Where to write (made if missing; a link is refused).
    dpi
        Resolution.

    Returns
    -------
    dict
        The paths written, by title.
    """
    from matplotlib.figure import Figure

    from toolkit._files import refuse_symlink
    from toolkit.plots._save import save_figure
    from toolkit.studies.thorp.markdown import ANSWER_FIGURE

    out = refuse_symlink(Path(folder), "figures folder")
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}

    def save(fig: Figure, name: str, title: str) -> None:
        # through a temporary file renamed into place: never half written, never through a planted link
        written[title] = save_figure(fig, out / f"{name}.png", "figure", dpi=dpi)

    if "claims" in frames:
        n_bets = frames["claims"]["bet"].n_unique()
        fig = Figure(figsize=(11, 1.3 + 0.32 * n_bets), layout="constrained")
        plot_where_edges_are(frames["claims"], frames.get("claims_deal_to_end"), ax=fig.subplots(1, 2, sharey=True))
        save(fig, ANSWER_FIGURE, "Where the edges are: share of each bet's edges by cards unseen")
    by_unseen = frames["by_unseen"]
    save(
        by_bet_figure(by_unseen, plot_p_positive, figure=Figure(), exact=frames.get("exact_last_cards")),
        "p_positive_by_unseen",
        "P(EV > 0) by cards unseen, per bet (black dots: the exact law of the last cards)",
    )
    save(
        by_bet_figure(by_unseen, plot_mean_positive_ev, figure=Figure()),
        "mean_positive_ev_by_unseen",
        "Mean edge when positive, by cards unseen, per bet",
    )
    for observer in frames["cumulative"]["observer"].unique(maintain_order=True):
        fig = Figure(figsize=(8, 5), layout="constrained")
        plot_gain_share(frames["cumulative"], observer=observer, ax=fig.subplots())
        save(fig, f"gain_share_by_depth_{observer}", f"Cumulative share of the perfect bettor's gain ({observer})")
    if "cumulative_deal_to_end" in frames:
        fig = Figure(figsize=(8, 5), layout="constrained")
        first = frames["cumulative_deal_to_end"]["observer"][0]
        ax = plot_gain_share(frames["cumulative_deal_to_end"], observer=first, ax=fig.subplots())
        ax.set_title("Dealt to the end (no cut card)")
        save(fig, "gain_share_by_depth_deal_to_end", "Cumulative share of the perfect bettor's gain, dealt to the end")
    if "variance" in frames:
        fig = Figure(figsize=(13, 5), layout="constrained")
        left, right = fig.subplots(1, 2)
        shown = [b for b in ("banker", "player", "tie", "natural9", "dragon7") if b in frames["variance"]["bet"]]
        plot_variance(frames["variance"], bets=shown or None, ax=left)
        plot_variance_ratio(frames["variance_by_bucket"], ax=right)
        if right.get_legend_handles_labels()[0]:
            right.legend(fontsize="small", ncols=2)
        save(fig, "variance_by_unseen", "Spread of the exact EV against the linear prediction")
    if "jacobson" in frames:
        fig = Figure(figsize=(6, 4), layout="constrained")
        plot_jacobson(frames["jacobson"], ax=fig.subplots())
        save(fig, "jacobson_setting", "Jacobson's setting: P(EV > 0) with 18-50 unseen cards")
    return written
