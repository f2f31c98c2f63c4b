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
>>> result = run_study(ThorpStudy(shoes=20, seed=3, bets=("banker", "tie")), progress=False)
>>> ax = plot_gain_share(result.cumulative())
>>> ax.get_xlabel()
'cards unseen before the coup'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from toolkit.plots._axes import axes_or_new, require_columns

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
    "save_study_figures",
]

_X = "cards unseen before the coup"


def _palette(n: int) -> str | list:
    """Distinct colours for up to 20 lines."""
    import seaborn as sns

    return sns.color_palette("tab10" if n <= 10 else "tab20", n)


def _one_bet(frame: pl.DataFrame, bet: str, what: str) -> pl.DataFrame:
    rows = frame.filter(pl.col("bet") == bet)
    if rows.is_empty():
        known = ", ".join(frame["bet"].unique(maintain_order=True).to_list())
        raise ValueError(f"{what}: no rows for bet {bet!r} (the frame has {known})")
    return rows


def plot_p_positive(by_unseen: pl.DataFrame, bet: str, ax: Axes | None = None, min_hands: int = 1) -> Axes:
    """P(EV > 0) against cards unseen for one bet, one line per observer, with the 95 % Wilson band.

    Parameters
    ----------
    by_unseen
        From :meth:`~toolkit.studies.StudyResult.by_unseen` (or ``tables/by_unseen.parquet``).
    bet
        The bet to draw.
    min_hands
        Leave out depths with fewer hands.

    Depths with no edge are not drawn on the log scale.
    """
    import seaborn as sns

    require_columns(
        by_unseen, ("observer", "bet", "unseen", "hands", "p_positive", "p_low", "p_high"), "plot_p_positive"
    )
    rows = _one_bet(by_unseen, bet, "plot_p_positive").filter(pl.col("hands") >= min_hands)
    ax = axes_or_new(ax)
    shown = rows.filter(pl.col("p_positive") > 0)
    if not shown.is_empty():
        sns.lineplot(data=shown.to_pandas(), x="unseen", y="p_positive", hue="observer", ax=ax, errorbar=None)
        for line, observer in zip(ax.get_lines(), shown["observer"].unique(maintain_order=True), strict=False):
            band = shown.filter(pl.col("observer") == observer).sort("unseen")
            ax.fill_between(
                band["unseen"].to_numpy(), band["p_low"].to_numpy(), band["p_high"].to_numpy(),
                color=line.get_color(), alpha=0.2, lw=0,
            )  # fmt: skip
        ax.set_yscale("log")
        ax.set_ylim(bottom=float(shown["p_positive"].to_numpy().min()) / 3, top=1.2)
    ax.set_xscale("log")
    ax.minorticks_off()  # minor ticks on many small log panels cost seconds and say little
    ax.set_xlabel(_X)
    ax.set_ylabel("P(EV > 0)")
    ax.set_title(bet)
    return ax


def plot_mean_positive_ev(by_unseen: pl.DataFrame, bet: str, ax: Axes | None = None) -> Axes:
    """Mean EV when positive (the size of an edge) against cards unseen, one line per observer."""
    import seaborn as sns

    require_columns(by_unseen, ("observer", "bet", "unseen", "mean_positive_ev"), "plot_mean_positive_ev")
    rows = _one_bet(by_unseen, bet, "plot_mean_positive_ev").drop_nulls("mean_positive_ev")
    ax = axes_or_new(ax)
    if not rows.is_empty():
        data = rows.with_columns(pl.col("mean_positive_ev") * 100).to_pandas()
        sns.scatterplot(data=data, x="unseen", y="mean_positive_ev", hue="observer", ax=ax, s=8, alpha=0.6)
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.set_xlabel(_X)
    ax.set_ylabel("mean edge when positive (%)")
    ax.set_title(bet)
    return ax


def plot_gain_share(
    cumulative: pl.DataFrame, observer: str = "unseen", bets: Sequence[str] | None = None, ax: Axes | None = None
) -> Axes:
    """Cumulative share of the perfect bettor's gain dealt with at most x cards unseen, one line per bet.

    The dashed black line is the share of all hands: a bet whose curve hugs it
    has edges anywhere in the shoe; one that rises at the left has them at the end.
    """
    import seaborn as sns

    require_columns(
        cumulative, ("observer", "bet", "unseen", "share_gain_within", "share_hands_within"), "plot_gain_share"
    )
    rows = cumulative.filter(pl.col("observer") == observer)
    if bets is not None:
        rows = rows.filter(pl.col("bet").is_in(list(bets)))
    ax = axes_or_new(ax, (8, 5))
    data = rows.drop_nulls("share_gain_within")
    if not data.is_empty():
        order = data["bet"].unique(maintain_order=True).to_list()
        sns.lineplot(
            data=data.to_pandas(), x="unseen", y="share_gain_within", hue="bet", hue_order=order, ax=ax,
            errorbar=None, palette=_palette(len(order)),
        )  # fmt: skip
    if not rows.is_empty():
        base = rows.filter(pl.col("bet") == rows["bet"][0]).sort("unseen")
        ax.plot(base["unseen"], base["share_hands_within"], "k--", label="all hands")
    for x in (20, 50):
        ax.axvline(x, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel(_X)
    ax.set_ylabel("share of the perfect bettor's gain within x cards")
    ax.set_ylim(0, 1.02)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", ncols=2)
    return ax


def plot_variance(variance: pl.DataFrame, bets: Sequence[str] | None = None, ax: Axes | None = None) -> Axes:
    """SD of the exact EV across shoes (solid) and its linear prediction (dashed) against cards unseen, log-log."""
    import seaborn as sns

    require_columns(variance, ("bet", "unseen", "var_ev", "var_linear"), "plot_variance")
    rows = variance if bets is None else variance.filter(pl.col("bet").is_in(list(bets)))
    ax = axes_or_new(ax, (8, 5))
    data = rows.with_columns(sd_ev=pl.col("var_ev").sqrt(), sd_linear=pl.col("var_linear").sqrt())
    long = pl.concat(
        [
            data.select("bet", "unseen", pl.col("sd_ev").alias("sd"), pl.lit("observed").alias("kind")),
            data.filter(pl.col("sd_linear") > 0).select(
                "bet", "unseen", pl.col("sd_linear").alias("sd"), pl.lit("linear prediction").alias("kind")
            ),
        ]
    ).filter(pl.col("sd") > 0)
    if not long.is_empty():
        sns.lineplot(data=long.to_pandas(), x="unseen", y="sd", hue="bet", style="kind", ax=ax, errorbar=None)
        ax.set_yscale("log")
    ax.set_xscale("log")
    ax.set_xlabel(_X)
    ax.set_ylabel("SD of the exact EV across shoes")
    return ax


def plot_variance_ratio(variance: pl.DataFrame, bets: Sequence[str] | None = None, ax: Axes | None = None) -> Axes:
    """Observed variance / linear prediction against cards unseen (1: the linear picture is exact).

    Takes :meth:`~toolkit.studies.StudyResult.variance_by_bucket` (x at the
    bucket's middle) or :meth:`~toolkit.studies.StudyResult.variance`.
    """
    import seaborn as sns

    x = "unseen_mid" if "unseen_mid" in variance.columns else "unseen"
    require_columns(variance, ("bet", x, "ratio"), "plot_variance_ratio")
    rows = variance if bets is None else variance.filter(pl.col("bet").is_in(list(bets)))
    rows = rows.drop_nulls("ratio")
    ax = axes_or_new(ax)
    if not rows.is_empty():
        order = rows["bet"].unique(maintain_order=True).to_list()
        sns.lineplot(
            data=rows.to_pandas(), x=x, y="ratio", hue="bet", hue_order=order, marker="o", ax=ax, errorbar=None,
            palette=_palette(len(order)),
        )  # fmt: skip
    ax.axhline(1, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(_X)
    ax.set_ylabel("observed / linear variance")
    return ax


def plot_jacobson(jacobson: pl.DataFrame, ax: Axes | None = None) -> Axes:
    """Jacobson's setting: P(EV > 0) for Player and Banker at each number of unseen cards, with 95 % bars."""
    import seaborn as sns

    require_columns(jacobson, ("unseen", "bet", "p_positive", "p_low", "p_high"), "plot_jacobson")
    ax = axes_or_new(ax)
    data = jacobson.with_columns(pl.col("p_positive", "p_low", "p_high") * 100)
    sns.lineplot(data=data.to_pandas(), x="unseen", y="p_positive", hue="bet", marker="o", ax=ax, errorbar=None)
    for bet in data["bet"].unique(maintain_order=True):
        r = data.filter(pl.col("bet") == bet)
        ax.vlines(r["unseen"], r["p_low"], r["p_high"], color="grey", lw=1)
    ax.set_xlabel("cards unseen")
    ax.set_ylabel("P(EV > 0) (%)")
    return ax


def by_bet_figure(
    frame: pl.DataFrame,
    draw: Callable[..., Any],
    bets: Sequence[str] | None = None,
    ncols: int = 4,
    figure: Figure | None = None,
    **options: Any,
) -> Figure:
    """One panel per bet: ``draw(frame, bet, ax=..., **options)`` on a grid (a new pyplot figure when ``None``)."""
    require_columns(frame, ("bet",), "by_bet_figure")
    names = list(bets) if bets is not None else frame["bet"].unique(maintain_order=True).to_list()
    if not names:
        raise ValueError("by_bet_figure: no bets to draw")
    nrows = -(-len(names) // ncols)
    if figure is None:
        import matplotlib.pyplot as plt

        figure = plt.figure()
    figure.set_size_inches(3.6 * ncols, 2.8 * nrows)
    # fixed spacing: a layout engine over a dozen log-scaled panels takes seconds
    figure.subplots_adjust(left=0.06, right=0.98, bottom=0.07, top=0.95, hspace=0.45, wspace=0.3)
    axes = figure.subplots(nrows, ncols, squeeze=False, sharex=True)
    for ax, bet in zip(axes.ravel(), names, strict=False):
        draw(frame, bet, ax=ax, **options)
        legend = ax.get_legend()
        if legend is not None and bet != names[0]:
            legend.remove()
    for ax in axes.ravel()[len(names) :]:
        ax.set_visible(False)
    return figure


def save_study_figures(frames: Mapping[str, pl.DataFrame], folder: str | Path, dpi: int = 110) -> dict[str, Path]:
    """Write the PNGs of a run from its tables (``by_unseen``, ``cumulative``, ``variance``...); returns their paths.

    Figures are drawn on :class:`matplotlib.figure.Figure` objects (no pyplot
    state), so this works headless and leaves any interactive session alone.
    """
    from matplotlib.figure import Figure

    from toolkit._files import atomic_write, refuse_symlink

    out = refuse_symlink(Path(folder), "figures folder")
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}

    def save(fig: Figure, name: str, title: str) -> None:
        # through a temporary file renamed into place: never half written, never through a planted link
        path = atomic_write(out / f"{name}.png", lambda fh: fig.savefig(fh, dpi=dpi, format="png"), "figure")
        written[title] = path

    by_unseen = frames["by_unseen"]
    save(
        by_bet_figure(by_unseen, plot_p_positive, figure=Figure()),
        "p_positive_by_unseen",
        "P(EV > 0) by cards unseen, per bet",
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
