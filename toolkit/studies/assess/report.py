"""The files of an assessment: ``report.md``, the frames as Parquet and CSV, ``summary.json`` and the figures.

Figures are not drawn here (the studies sit below the plots): the caller passes
the function that draws them, as ``baccarat assess`` passes
:func:`toolkit.plots.save_assess_figures`.

>>> import tempfile
>>> from toolkit.studies.assess import assess_bet
>>> a = assess_bet("dragon7", n_shoes=40, seed=2, cut_cards=(), progress=False)
>>> paths = write_assessment(a, tempfile.mkdtemp())
>>> paths["report"].name, paths["summary_csv"].parent.name, paths["summary_json"].name
('report.md', 'tables', 'summary.json')
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from toolkit._files import atomic_write, refuse_symlink
from toolkit.studies.assess.result import FRAMES, Assessment
from toolkit.studies.assess.search import tags_text

__all__ = ["FigureWriter", "assessment_report", "write_assessment"]

#: What draws the figures: ``figures(frames, folder)`` writes them and returns their paths by title.
FigureWriter = Callable[[Mapping[str, pl.DataFrame], Path], Mapping[str, Path]]


def _cell(v: Any, digits: int = 4) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if isinstance(v, float):
        return f"{v:.{digits}f}" if abs(v) < 1e5 else f"{v:,.0f}"
    return str(v)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], digits: int = 4) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(_cell(v, digits) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _threshold(t: float | None) -> str:
    return "never bets" if t is None else f"{t:g}"


def _ci(row: Mapping[str, Any], key: str, scale: float = 1.0, digits: int = 3) -> str:
    v, lo, hi = row[key], row[f"{key}_low"], row[f"{key}_high"]
    if v is None:
        return "n/a"
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return f"{v * scale:.{digits}f}"
    return f"{v * scale:.{digits}f} ({lo * scale:.{digits}f} .. {hi * scale:.{digits}f})"


def assessment_report(a: Assessment, figures: Mapping[str, str] | None = None) -> str:
    """The Markdown report of an assessment (``figures``: paths by title, relative to the report).

    Parameters
    ----------
    a
        The assessment.
    figures
        Figure paths by title, relative to the report.

    Returns
    -------
    str
        Markdown.
    """
    blocks = [
        *_bet_section(a),
        *_eor_section(a),
        *_search_section(a),
        *_wins_section(a),
        *_published_section(a),
        *_penetration_section(a),
    ]
    if figures:
        blocks += ["## Figures"] + [f"![{title}]({path})" for title, path in figures.items()]
    blocks += _method_section(a)
    return "\n\n".join(b.strip("\n") for b in blocks) + "\n"


def _bet_section(a: Assessment) -> list[str]:
    s, f = a.settings, a.frames
    d = s["dealing"]
    stats = f["stats"].row(0, named=True)
    where = f"{d['decks']} decks, cut card {d['cut_card']} cards from the end, burn {d['burn']}"
    if d["coups"] is not None:
        where = f"{d['decks']} decks, {d['coups']} coups a shoe, burn {d['burn']}"
    head = [stats["house_edge"], stats["expected_value"], stats["std_dev"], stats["hit_frequency"]]
    out = [
        f"# Side bet assessment: {a.bet}",
        f"**Verdict: {a.verdict}.**",
        f"Dealt as: {where}. {stats['description'] or ''}",
        "## The bet",
        _table(
            ["house edge", "expected value per unit", "standard deviation", "hit frequency"],
            [[f"{head[0]:.4%}", head[1], head[2], f"{head[3]:.4%}"]],
        ),
        "Exact, for the full shoe (toolkit.bets.paytable.edge_table). Payouts (to one) and their probabilities:",
        _table(["payout", "probability"], f["payouts"].rows(), 6),
    ]
    if "ca" in f:
        out += ["## Combinatorial analysis", _table(f["ca"].columns, f["ca"].rows(), 6)]
    return out


def _eor_section(a: Assessment) -> list[str]:
    rows = [
        [r["card"], r["count"], None if r["eor"] is None else 100 * r["eor"], r["tag"]]
        for r in a.frames["eor"].to_dicts()
    ]
    return [
        "## Effects of removal by rank",
        "The change in the bet's expected value when one card of a rank is removed from the full shoe "
        "(toolkit.edges.eor.effect_of_removal, by rank), and the tag of the count found.",
        _table(["card", "cards in the shoe", "EOR (% of a unit)", "tag"], rows),
    ]


def _search_section(a: Assessment) -> list[str]:
    s, f = a.settings, a.frames
    reach = s.get("tag_reach")
    out = [
        "## The best count found",
        f"Search space: {s['search_space']} {s['candidates']} candidates were scored."
        + (f" Tags reach -{reach}..+{reach} for this bet." if reach is not None else ""),
        f"Every candidate was scored on the same {s['shoes']:,} search shoes (common random numbers: one seed "
        "for all); the winner's figures below come from a fresh, independent set of as many shoes, because its "
        "score on the shoes it was chosen on is optimistic.",
    ]
    keys = ["rank", "family", "tags", "trigger", "threshold", "bet_frequency", "edge_when_betting", "win_per_100_hands"]
    heads = ["rank", "family", "tags A..K", "trigger", "threshold", "bet frequency", "edge when betting"]
    out.append(_table([*heads, "win / 100 hands"], [[r[k] for k in keys] for r in f["candidates"].head(10).to_dicts()]))
    count = a.figures("count")
    if a.count is None:
        out.append("No count and threshold won anything on the search shoes: the best count never bets.")
    else:
        kind = "true count" if a.count.trigger == "true" else "running count"
        out.append(
            f"The count found: {tags_text(a.count.tags)} ({'balanced' if a.count.balanced else 'unbalanced'}); "
            f"bet when the {kind} is at least {a.count.threshold:g} (true count: {a.count.describe()['true_count']}). "
            f"On the search shoes it won {f['candidates']['win_per_100_hands'][0]:.3f} units per 100 hands; "
            f"on the fresh shoes {count['win_per_100_hands']:.3f}."
        )
    return out


def _wins_section(a: Assessment) -> list[str]:
    conf = f"{a.settings['confidence']:.0%}"
    count, perfect = a.figures("count"), a.figures("perfect")
    rows = [
        [
            name,
            r["rule"],
            _ci(r, "bet_frequency", 100, 2),
            _ci(r, "edge_when_betting", 100, 2),
            _ci(r, "win_per_100_hands"),
            _ci(r, "units_per_shoe"),
            r["sd_per_shoe"],
        ]
        for name, r in (("the count found", count), ("computer-perfect", perfect))
    ]
    heads = ["play", "rule", "bet frequency %", "edge when betting %", "win / 100 hands", "win / shoe", "SD / shoe"]
    share = count["win_per_100_hands"] / perfect["win_per_100_hands"] if perfect["win_per_100_hands"] > 0 else None
    return [
        f"## What a counter wins (fresh shoes, {conf} intervals)",
        _table(heads, rows, 3),
        "Flat one-unit bets. Wins are expected wins: the exact expected value of each bet placed, before its coup "
        "(the realised win has the same mean and far more noise).",
        "## Computer-perfect play: the upper bound",
        "A player who knew the exact expected value before every coup (every unseen card) and bet only when it is "
        f"positive wins {perfect['win_per_100_hands']:.3f} units per 100 hands on the same fresh shoes; no count can "
        "win more." + (f" The count found takes {share:.0%} of it." if share is not None else ""),
    ]


def _published_section(a: Assessment) -> list[str]:
    pub = a.frames.get("published")
    if pub is None or pub.is_empty():
        return []
    conf = f"{a.settings['confidence']:.0%}"
    rows = [
        [
            r["system"],
            r["rule"],
            r["published_win_per_100_hands"],
            r["found_win_per_100_hands"],
            f"{r['found_minus_published']:+.3f} ({r['found_minus_published_low']:+.3f} .. "
            f"{r['found_minus_published_high']:+.3f})",
        ]
        for r in pub.to_dicts()
    ]
    heads = ["published count", "rule", "its win / 100 hands", "the count found", f"found minus published ({conf})"]
    sources = "; ".join(f"{r['system']}: {r['source']}" for r in pub.to_dicts())
    return [
        "## The published counts, on the same fresh shoes",
        "Each count the library holds for this bet, played at its published threshold through the very same fresh "
        "shoes as the count found; the difference is paired (shoe by shoe), so its interval is narrow.",
        _table(heads, rows, 3),
        f"Sources: {sources}.",
    ]


def _penetration_section(a: Assessment) -> list[str]:
    s, pen = a.settings, a.frames["penetration"]
    out = ["## Penetration: where the cut card is"]
    if pen.is_empty():
        return [*out, "Not swept (the shoes deal a fixed number of coups)."]
    cuts = sorted(set(pen["cut_card"].to_list()))
    by = {(r["strategy"], r["cut_card"]): r["win_per_100_hands"] for r in pen.to_dicts()}
    out += [
        f"The count (at the trigger found) and perfect play on {s['penetration_shoes']:,} shoes at each position, "
        "the same shuffles at every position.",
        _table(
            ["cut card (cards from the end)", "count: win / 100 hands", "perfect: win / 100 hands"],
            [[c, by.get(("count", c)), by.get(("perfect", c))] for c in cuts],
            3,
        ),
    ]
    if a.count is None:
        out.append("The count never bets, at any depth.")
    elif a.stops_paying_at is not None:
        out.append(
            f"The count stops paying (it wins less than {s['min_win']:g} units per 100 hands) at cut card "
            f"{a.stops_paying_at}: a casino that cuts {a.stops_paying_at} cards or more from the end takes the "
            "count's edge away."
        )
    else:
        pays = all((by.get(("count", c)) or 0) >= s["min_win"] for c in cuts)
        out.append(
            "The count pays at every position tried." if pays else "The count does not pay at any position tried."
        )
    return out


def _method_section(a: Assessment) -> list[str]:
    s = a.settings
    conf = f"{s['confidence']:.0%}"
    took = s.get("wall_seconds")
    return [
        "## Method",
        f"Seed {s['seed']}: three independent streams (search shoes, fresh shoes, penetration shoes). "
        f"{s['shoes']:,} search shoes, {s['shoes']:,} fresh shoes and {s['penetration_shoes']:,} at each cut card of "
        "the sweep. A count is worth counting when it wins at least "
        f"{s['min_win']:g} units per 100 hands of flat one-unit bets, its {conf} interval above zero. Tables: "
        "tables/*.csv and *.parquet; every figure: summary.json."
        + (f" The assessment took {took:,.0f} s." if took is not None else ""),
    ]


def write_assessment(a: Assessment, out: str | os.PathLike, figures: FigureWriter | None = None) -> dict[str, Path]:
    """Write ``tables/<frame>.parquet`` and ``.csv``, ``summary.json``, the figures and ``report.md``.

    ``figures`` (such as :func:`toolkit.plots.save_assess_figures`) is called as
    ``figures(frames, out / "figures")``.  Returns the paths written by name (a
    table as ``<frame>`` for its CSV and ``<frame>.parquet``, a figure as ``figure:<stem>``).

    Parameters
    ----------
    a
        The assessment.
    out
        The folder (made when missing; a planted link is refused).
    figures
        The function that draws the figures, or ``None``.

    Returns
    -------
    dict of str to pathlib.Path
    """
    if figures is not None and (isinstance(figures, bool) or not callable(figures)):
        raise TypeError(f"write_assessment(figures=...) takes the function that draws the figures, got {figures!r}")
    folder = refuse_symlink(Path(out), "output folder")
    refuse_symlink(folder / "tables", "output folder")
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name in FRAMES:
        if name in a.frames:
            frame = a.frames[name]
            paths[f"{name}_parquet"] = atomic_write(folder / "tables" / f"{name}.parquet", frame.write_parquet)
            paths[f"{name}_csv"] = atomic_write(folder / "tables" / f"{name}.csv", frame.write_csv)
    paths["summary_json"] = atomic_write(folder / "summary.json", json.dumps(a.summary(), indent=2) + "\n")
    shown: dict[str, str] = {}
    if figures is not None:
        refuse_symlink(folder / "figures", "figures folder")
        for title, path in figures(a.frames, folder / "figures").items():
            shown[title] = Path(path).relative_to(folder).as_posix()
            paths[f"figure:{Path(path).stem}"] = Path(path)
    paths["report"] = atomic_write(folder / "report.md", assessment_report(a, shown))
    return paths
