"""HTML pieces of the live widgets: the composition, the edge table, the counts, EOR bars and the edge plot.

Plain strings, so that a widget shows them in :class:`ipywidgets.HTML` and a
reader without a live kernel sees the same state in a notebook's saved output.
Every number shown also sits, unrounded, in a ``data-`` attribute, which the
tests read back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

import polars as pl

from toolkit.coup.cards import RANKS, Composition

POSITIVE = "#c8f7c5"
STYLE = (
    "<style>.bt-live{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}"
    ".bt-live table{border-collapse:collapse;margin:2px 0}"
    ".bt-live td,.bt-live th{padding:1px 6px;text-align:right;border-bottom:1px solid #eee}"
    ".bt-live th{font-weight:600}.bt-live td.name{text-align:left}</style>"
)


def percent(x: float | None, digits: int = 4) -> str:
    """``-1.0579%`` for -0.010579; an em dash for ``None``."""
    return "—" if x is None else f"{100 * x:+.{digits}f}%"


def composition_line(comp: Composition, decks: int, title: str = "shoe") -> str:
    """``416 cards (8.00 decks): A 32 · 2 32 · ...`` with ranks below a full shoe's count dimmed or bold."""
    full = 4 * decks
    parts = []
    for rank, n in zip(RANKS, comp.by_rank, strict=True):
        style = "" if n == full else (" style='color:#b00'" if n < full else " style='color:#06c'")
        parts.append(f"<span data-rank='{rank}' data-count='{n}'{style}>{rank}&nbsp;{n}</span>")
    return (
        f"<div class='bt-live' data-cards='{comp.total}'><b>{escape(title)}</b>: {comp.total} cards "
        f"({comp.total / 52:.2f} decks): {' · '.join(parts)}</div>"
    )


def edge_table(expected: Mapping[str, float | None], descriptions: Mapping[str, str] | None = None) -> str:
    """One row per bet: expected value and house edge, the rows with the player's edge highlighted."""
    rows = []
    for name, ev in expected.items():
        good = ev is not None and ev > 0
        style = f" style='background:{POSITIVE};font-weight:600'" if good else ""
        title = f" title='{escape(descriptions[name])}'" if descriptions and name in descriptions else ""
        rows.append(
            f"<tr data-bet='{escape(name)}' data-ev='{'' if ev is None else repr(ev)}'{style}{title}>"
            f"<td class='name'>{escape(name)}</td><td>{percent(ev)}</td>"
            f"<td>{percent(None if ev is None else -ev)}</td></tr>"
        )
    return (
        "<table class='bt-live edges'><tr><th class='name'>bet</th><th>expected value</th><th>house edge</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def counts_table(running: Mapping[str, int], true: Mapping[str, float]) -> str:
    """One row per count system: running and true count."""
    if not running:
        return "<div class='bt-live'><i>no count system chosen</i></div>"
    rows = "".join(
        f"<tr data-system='{escape(name)}' data-rc='{rc}' data-tc='{true[name]!r}'>"
        f"<td class='name'>{escape(name)}</td><td>{rc:+d}</td><td>{true[name]:+.3f}</td></tr>"
        for name, rc in running.items()
    )
    return (
        "<table class='bt-live counts'><tr><th class='name'>count</th><th>running</th><th>true</th></tr>"
        + rows
        + "</table>"
    )


def eor_bars(table: pl.DataFrame, bet: str, scale: float = 1e4) -> str:
    """Horizontal bars of the effect of removing one card of each rank, in basis points of expected value."""
    values = [v for v in table["eor"].to_list() if v is not None]
    top = max((abs(v) for v in values), default=0.0) or 1.0
    rows = []
    for card, eor in zip(table["card"].to_list(), table["eor"].to_list(), strict=True):
        if eor is None:
            bar, shown = "", "—"
        else:
            width = 60 * abs(eor) / top
            colour = "#2a7" if eor > 0 else "#c33"
            side = f"margin-left:{60 if eor >= 0 else 60 - width:.1f}px"
            bar = f"<div style='{side};width:{width:.1f}px;height:9px;background:{colour}'></div>"
            shown = f"{eor * scale:+.2f}"
        rows.append(
            f"<tr data-card='{card}' data-eor='{'' if eor is None else repr(eor)}'><td class='name'>{card}</td>"
            f"<td style='width:122px;text-align:left;border-left:0'>{bar}</td><td>{shown}</td></tr>"
        )
    return (
        f"<table class='bt-live eor'><tr><th class='name' colspan='3'>effect of removal on {escape(bet)}, "
        "basis points (removing one card)</th></tr>" + "".join(rows) + "</table>"
    )


PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def edge_plot(
    history: pl.DataFrame,
    bets: Sequence[str],
    n_coups: int,
    placed: pl.DataFrame | None = None,
    width: int = 520,
    height: int = 170,
) -> str:
    """An SVG plot of each bet's expected value coup by coup so far, and the recorded bets as circles.

    ``history`` has ``coup`` and ``ev_<bet>``; ``placed`` (``coup, bet, amount,
    expected_value``) draws a circle per recorded bet, its area the stake.
    """
    left, right, top, bottom = 46, 8, 8, 18
    columns = [f"ev_{b}" for b in bets]
    values = [v for c in columns for v in history[c].to_list() if v is not None]
    lo, hi = (min(values), max(values)) if values else (-0.01, 0.01)
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 1e-9:
        hi = lo + 1e-3

    def x(coup: float) -> float:
        return left + (width - left - right) * (coup - 1) / max(1, n_coups - 1)

    def y(v: float) -> float:
        return top + (height - top - bottom) * (hi - v) / (hi - lo)

    parts = [
        f"<svg class='bt-live plot' width='{width}' height='{height}' xmlns='http://www.w3.org/2000/svg'>",
        f"<line x1='{left}' x2='{width - right}' y1='{y(0):.1f}' y2='{y(0):.1f}' "
        "stroke='#999' stroke-dasharray='3,3'/>",
        f"<text x='{left - 4}' y='{y(hi) + 4:.1f}' font-size='10' text-anchor='end'>{percent(hi, 2)}</text>",
        f"<text x='{left - 4}' y='{y(lo):.1f}' font-size='10' text-anchor='end'>{percent(lo, 2)}</text>",
        f"<text x='{left}' y='{height - 4}' font-size='10'>coup 1</text>",
        f"<text x='{width - right}' y='{height - 4}' font-size='10' text-anchor='end'>{n_coups}</text>",
    ]
    coups = history["coup"].to_list()
    for i, (bet, column) in enumerate(zip(bets, columns, strict=True)):
        colour = PALETTE[i % len(PALETTE)]
        evs = history[column].to_list()
        points = " ".join(f"{x(c):.1f},{y(v):.1f}" for c, v in zip(coups, evs, strict=True) if v is not None)
        parts.append(f"<polyline data-bet='{escape(bet)}' fill='none' stroke='{colour}' points='{points}'/>")
        parts.append(
            f"<text x='{left + 60 + 90 * i}' y='{height - 4}' font-size='10' fill='{colour}'>{escape(bet)}</text>"
        )
    if placed is not None and placed.height:
        biggest = max([float(a) for a in placed["amount"].to_list() if a is not None] + [1e-9])
        for coup, bet, amount, ev in placed.select("coup", "bet", "amount", "expected_value").iter_rows():
            if ev is None or bet not in bets:
                continue
            colour = PALETTE[list(bets).index(bet) % len(PALETTE)]
            r = 2 + 6 * (amount / biggest) ** 0.5
            parts.append(
                f"<circle data-coup='{coup}' data-bet='{escape(bet)}' cx='{x(coup):.1f}' cy='{y(ev):.1f}' "
                f"r='{r:.1f}' fill='{colour}' fill-opacity='0.35' stroke='{colour}'/>"
            )
    parts.append("</svg>")
    return "".join(parts)
