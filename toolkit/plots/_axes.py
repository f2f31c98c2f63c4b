"""Helpers shared by the plotting modules: a new figure when no axes are given, column checks, and the bets' looks.

One mapping gives every bet of the panel its name in words and its colour, so
that a bet looks the same in every figure of the toolkit: the colours go by
family (Banker reds, Player blue, Tie greens, naturals purples, Dragon 7
orange, Panda 8 brown, the pairs cyan, pink and grey, the other side bets
olive and navy), and the labels are those of the study's report
(:data:`toolkit.studies.thorp._text.BET_GROUPS`, which holds the same bets).

>>> bet_colour("banker"), bet_name("tie_9to1"), bet_colour("dragon7 TC >= 4") == bet_colour("dragon7")
('#c0392b', 'Tie 9:1', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "BET_COLOURS",
    "CARD_TICKS",
    "REFERENCE_DEPTHS",
    "axes_or_new",
    "bet_colour",
    "bet_name",
    "by_family",
    "card_ticks",
    "coincident",
    "draw_bet_lines",
    "reference_lines",
    "require_columns",
]

#: The colour of each bet of the panel, the same in every figure (families share a hue).
BET_COLOURS: dict[str, str] = {
    "banker": "#c0392b",
    "super6_banker": "#e57368",
    "ez_banker": "#7b1c14",
    "player": "#2e6fd1",
    "tie": "#2e9d57",
    "tie_9to1": "#8fd18f",
    "natural8": "#7d3c98",
    "natural9": "#c39bd3",
    "dragon7": "#e67e22",
    "panda8": "#6d4c41",
    "player_pair": "#17becf",
    "banker_pair": "#e377c2",
    "either_pair": "#7f7f7f",
    "dragon_bonus_player": "#a4a51d",
    "dragon_bonus_banker": "#5e5f0f",
    "big": "#283593",
    "small": "#7986cb",
}
#: Colours for names outside the panel, chosen by a stable hash of the name.
_OTHER = ("#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#bcbd22", "#17becf", "#d62728", "#2ca02c")
#: The depths (cards unseen or left) marked on every axis of cards: Thorp's 20 and Jacobson's 50.
REFERENCE_DEPTHS = (20, 50)
#: Tick positions on a logarithmic axis of cards.
CARD_TICKS = (10, 20, 50, 100, 200, 400)


def _bet_of(name: str) -> str:
    """The panel bet a name is about: the name itself, or the first word of a strategy (``"dragon7 TC >= 4"``)."""
    if name in BET_COLOURS:
        return name
    first = name.split(" ", 1)[0]
    return first if first in BET_COLOURS else name


def by_family(bets: Sequence[str]) -> list[str]:
    """The bets grouped by family, in the report's order (:func:`toolkit.studies.thorp._text.by_family`).

    Parameters
    ----------
    bets
        Panel names (others go last, as given).

    Returns
    -------
    list of str

    Examples
    --------
    >>> by_family(["tie", "banker"])
    ['banker', 'tie']
    """
    from toolkit.studies.thorp._text import by_family as order  # imported when used: the studies are heavy

    return order(list(bets))


def bet_colour(name: str) -> str:
    """The colour of a bet (or of a strategy or count named after one) in every figure.

    Parameters
    ----------
    name
        A panel name (``"banker"``), or a strategy whose first word is one (``"panda8 TC >= 11"``).

    Returns
    -------
    str
        A hex colour; names outside the panel get a stable colour of their own.
    """
    bet = _bet_of(str(name))
    if bet in BET_COLOURS:
        return BET_COLOURS[bet]
    return _OTHER[sum(map(ord, bet)) % len(_OTHER)]


def bet_name(name: str) -> str:
    """A bet's name in words (``"player_pair"`` -> ``"Player Pair"``); other names are returned as given.

    A strategy named after a bet keeps the rest of its name:
    ``"panda8 TC >= 11"`` -> ``"Panda 8 TC >= 11"``.

    Parameters
    ----------
    name
        A panel name, or a strategy whose first word is one.

    Returns
    -------
    str

    Examples
    --------
    >>> bet_name("player_pair"), bet_name("panda8 TC >= 11"), bet_name("how_dragon7")
    ('Player Pair', 'Panda 8 TC >= 11', 'how_dragon7')
    """
    from toolkit.studies.thorp._text import bet_label  # imported when used: the studies are heavy

    text = str(name)
    bet = _bet_of(text)
    if bet not in BET_COLOURS:
        return text
    return bet_label(bet) + text[len(bet) :]


def axes_or_new(ax: Axes | None, size: tuple[float, float] = (7, 4)) -> Axes:
    """``ax``, or the axes of a new figure of ``size`` inches.

    Parameters
    ----------
    ax
        Axes to draw on, or ``None``.
    size
        Inches of the new figure.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def require_columns(frame: pl.DataFrame, columns: Sequence[str], what: str) -> None:
    """Raise a clear error unless ``frame`` is a polars frame holding ``columns``.

    Parameters
    ----------
    frame
        The frame a plot was given.
    columns
        The columns it needs.
    what
        The plot's name, for the message.

    Returns
    -------
    None
    """
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"{what} takes a polars DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what}: the frame lacks column(s) {', '.join(missing)} (has {', '.join(frame.columns)})")


def reference_lines(ax: Axes, depths: Sequence[int] = REFERENCE_DEPTHS, what: str = "cards") -> None:
    """Dotted vertical lines at ``depths`` (20 and 50 cards), each labelled upright along its line at the top.

    The lines carry ``gid`` ``"reference-<depth>"`` and stay out of the legend.

    Parameters
    ----------
    ax
        The axes (x in cards).
    depths
        Where the lines go.
    what
        The unit in the labels.

    Returns
    -------
    None
    """
    from matplotlib.transforms import blended_transform_factory

    where = blended_transform_factory(ax.transData, ax.transAxes)
    for depth in depths:
        ax.axvline(depth, color="0.45", lw=0.8, ls=":", zorder=0.5, gid=f"reference-{depth}", label="_nolegend_")
        ax.text(  # upright along its line: never past the axes' edge nor over the other label, whichever way x runs
            depth, 0.99, f"{depth} {what} ", transform=where, ha="right", va="bottom", rotation=90,
            rotation_mode="anchor", fontsize="x-small", color="0.35", gid=f"reference-{depth}-label",
        )  # fmt: skip


def card_ticks(ax: Axes, low: float | None = None, high: float | None = None) -> None:
    """Plain-number ticks (10, 20, 50, 100, 200, 400) on a logarithmic x axis of cards, labelled on every panel.

    Parameters
    ----------
    ax
        The axes (a logarithmic x axis of cards).
    low, high
        The range the ticks may cover (default: the current limits).

    Returns
    -------
    None
    """
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    lo, hi = ax.get_xlim()
    lo = lo if low is None else low
    hi = hi if high is None else high
    ticks = [t for t in CARD_TICKS if lo <= t <= hi] or list(CARD_TICKS[:2])
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_locator(NullLocator())
    ax.tick_params(axis="x", labelbottom=True)


def coincident(curves: Mapping[str, tuple[np.ndarray, np.ndarray]], rtol: float = 1e-9) -> dict[str, str]:
    """Which curves lie on an earlier one: ``{later: earlier}`` for curves equal point for point.

    Parameters
    ----------
    curves
        ``name -> (x, y)`` in drawing order.
    rtol
        Relative tolerance of the comparison.

    Returns
    -------
    dict
        Each curve that repeats an earlier one, mapped to the first it repeats.

    Examples
    --------
    >>> x = np.arange(3.0)
    >>> coincident({"player_pair": (x, x), "banker_pair": (x, x.copy()), "tie": (x, x + 1)})
    {'banker_pair': 'player_pair'}
    """
    same: dict[str, str] = {}
    names = list(curves)
    for i, later in enumerate(names):
        x1, y1 = (np.asarray(a, dtype=float) for a in curves[later])
        for earlier in names[:i]:
            if earlier in same:
                continue
            x0, y0 = (np.asarray(a, dtype=float) for a in curves[earlier])
            if (
                len(x0) == len(x1)
                and len(x0) > 0
                and np.array_equal(x0, x1)
                and np.allclose(y0, y1, rtol=rtol, atol=0, equal_nan=True)
            ):
                same[later] = earlier
                break
    return same


def draw_bet_lines(
    ax: Axes,
    curves: Mapping[str, tuple[np.ndarray, np.ndarray]],
    *,
    marker: str | None = None,
    ls: str = "-",
    legend: bool = True,
    close: float | None = None,
) -> dict[str, str]:
    """One line per bet, in its colour and named in words; a line that repeats another is drawn dashed on top
    and its label says so (``"Banker Pair (same as Player Pair)"``).  Returns the coincidences found.

    With ``close``, a line within that relative distance of an earlier one everywhere (so drawn under it at any
    readable size) is dashed too, its label saying how near (``"Banker (within 5 % of Player)"``).

    Parameters
    ----------
    ax
        The axes.
    curves
        ``bet -> (x, y)``, in drawing order.
    marker, ls
        Marker and line style of every line.
    legend
        Label the lines for the legend.
    close
        Relative distance under which two lines are said to lie on each other (``None``: only equal ones).
    """
    same = coincident(curves)
    near = {} if close is None else {k: v for k, v in coincident(curves, rtol=close).items() if k not in same}
    for bet, (x, y) in curves.items():
        label = bet_name(bet)
        style: str | tuple[int, tuple[int, int]] = ls
        if bet in same:
            label = f"{label} (same as {bet_name(same[bet])})"
            style = (0, (3, 3))
        elif bet in near:
            label = f"{label} (within {100 * close:g} % of {bet_name(near[bet])})"  # type: ignore[operator]
            style = (0, (3, 3))
        ax.plot(
            x, y, color=bet_colour(bet), ls=style, marker=marker, ms=4, lw=1.8 if bet in same or bet in near else 1.6,
            label=label if legend else "_nolegend_", gid=f"bet-{bet}",
        )  # fmt: skip
    return same
