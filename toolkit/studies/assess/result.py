"""What an assessment of a side bet found: its frames, the count found, the verdict (:class:`Assessment`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from toolkit.counting.results import Results
from toolkit.counting.systems import CountSystem
from toolkit.coup.cards import RANKS

__all__ = ["FRAMES", "Assessment"]

#: The frames of an assessment, in report order (``ca`` only when the combinatorial analysis is available).
FRAMES = ("stats", "payouts", "ca", "eor", "candidates", "sweep", "summary", "published", "penetration")


@dataclass(frozen=True, eq=False)
class Assessment:
    """An assessment of a side bet for a casino (from :func:`toolkit.studies.assess.assess_bet`).

    Attributes
    ----------
    bet
        The bet's name.
    frames
        ``stats`` (house edge, SD, hit frequency), ``payouts``, ``ca`` (the
        combinatorial analysis, when available), ``eor`` (effects of removal by
        rank, with the tags of the count found), ``candidates`` (every count
        tried, on the search shoes), ``sweep`` (the count's win against its
        threshold, on the search and the fresh shoes), ``summary`` (the count,
        computer-perfect play and the library's published counts of the bet on
        the fresh shoes), ``published`` (the count found against each published
        count on the same fresh shoes: the paired difference and its interval)
        and ``penetration`` (the count and perfect play against the cut card).
    count
        The count found (its ``threshold`` is the trigger), or ``None`` when no
        count and threshold won anything on the search shoes.
    results
        The fresh-shoe :class:`~toolkit.counting.Results` by strategy (``"count"``, ``"perfect"``).
    verdict
        One plain sentence.
    countable
        Whether a counter wins at least ``min_win`` units per 100 hands, the interval above zero.
    stops_paying_at
        The first cut card (cards from the end) of the sweep at which the count wins less than
        ``min_win`` per 100 hands (``None``: it pays at every depth tried, or never pays).
    settings
        The dealing, the shoes, the seed and the search space (plain data).
    """

    bet: str
    frames: Mapping[str, pl.DataFrame]
    count: CountSystem | None
    results: Mapping[str, Results] = field(repr=False)
    verdict: str
    countable: bool
    stops_paying_at: int | None
    settings: Mapping[str, Any] = field(repr=False)

    def __repr__(self) -> str:
        names = ", ".join(n for n in FRAMES if n in self.frames)
        return f"Assessment({self.bet!r}: {self.verdict} [frames: {names}])"

    def _repr_html_(self) -> str:
        """The verdict and the headline figures as a small table, then the fresh-shoe summary."""
        from toolkit._show import frame_html, html_table

        stats = self.frames["stats"].row(0, named=True)
        count = "none wins on the search shoes" if self.count is None else self.count.name
        rows = [("verdict", self.verdict), ("countable", self.countable), ("house edge", stats["house_edge"]),
                ("count found", count), ("stops paying at (cut card)", self.stops_paying_at),
                ("frames", ", ".join(n for n in FRAMES if n in self.frames))]  # fmt: skip
        summary = self.frames["summary"].select("strategy", "rule", "bet_frequency", "win_per_100_hands")
        return html_table(f"Assessment of {self.bet!r}", rows) + frame_html("Fresh shoes", summary)

    def figures(self, strategy: str = "count") -> dict[str, float]:
        """The fresh-shoe figures of ``"count"`` or ``"perfect"`` (a row of the ``summary`` frame)."""
        rows = self.frames["summary"].filter(pl.col("strategy") == strategy)
        if rows.is_empty():
            raise ValueError(f"no strategy {strategy!r} in the summary (it has count and perfect)")
        return {k: v for k, v in rows.row(0, named=True).items() if k != "strategy"}

    def summary(self) -> dict[str, Any]:
        """Everything as plain data (JSON-ready; the same numbers as the frames)."""
        stats = self.frames["stats"].row(0, named=True)
        count: dict[str, Any] | None = None
        if self.count is not None:
            count = {
                "tags": dict(zip(RANKS, self.count.tags, strict=True)),
                "balanced": self.count.balanced,
                "trigger": self.count.trigger,
                "threshold": self.count.threshold,
                "convention": self.count.describe()["true_count"],
            }
        search = self.frames["candidates"].row(0, named=True)
        return _jsonable(
            {
                "bet": self.bet,
                "verdict": self.verdict,
                "countable": self.countable,
                "stats": {k: stats[k] for k in ("expected_value", "house_edge", "std_dev", "hit_frequency")},
                "count": count,
                "search_score": {k: search[k] for k in ("win_per_100_hands", "bet_frequency", "units_per_shoe")},
                "fresh": {"count": self.figures("count"), "perfect": self.figures("perfect")},
                "published_counts": self.frames["published"].to_dicts() if "published" in self.frames else [],
                "penetration": self.frames["penetration"].to_dicts(),
                "stops_paying_at": self.stops_paying_at,
                "combinatorial_analysis": "ca" in self.frames,
                "settings": dict(self.settings),
            }
        )


def _jsonable(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v
