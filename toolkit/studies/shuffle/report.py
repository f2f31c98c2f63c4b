"""Summaries of the shuffle studies: ratio estimates with intervals over shoes, and where an edge ends.

>>> import numpy as np
>>> mean, lo, hi = ratio_estimate(np.array([1.0, 3.0]), np.array([2.0, 2.0]))
>>> float(mean)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from toolkit._stats import mean_interval, normal_quantile

__all__ = ["edge_removed_at", "edge_summary", "ratio_estimate"]


def ratio_estimate(a: np.ndarray, t: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """``sum(a) / sum(t)`` over independent shoes, with a delta-method interval (``Var(a - R t) / (n mean(t)^2)``)."""
    n = len(a)
    r = float(a.sum() / t.sum()) if t.sum() > 0 else float("nan")
    if n < 2 or not np.isfinite(r):
        return r, float("nan"), float("nan")
    se = float(np.std(a - r * t, ddof=1) / np.sqrt(n) / t.mean())
    z = normal_quantile(confidence)
    return r, r - z * se, r + z * se


def edge_summary(
    name: str,
    model: object,
    per_shoe: dict[str, np.ndarray],
    bets: Sequence[str],
    negligible: float,
    confidence: float,
) -> dict[str, object]:
    """One row of :func:`~toolkit.studies.shuffle.tracker.shuffle_tracker_edge` from its per-shoe sums."""
    hands, win = per_shoe["hands"], per_shoe["win"]
    w100, w100_lo, w100_hi = (100 * x for x in ratio_estimate(win, hands, confidence))
    shoe, shoe_lo, shoe_hi = mean_interval(win, confidence)
    share, share_lo, share_hi = ratio_estimate(per_shoe["bets"], hands, confidence)
    count = getattr(model, "times", None)
    row: dict[str, object] = {
        "model": name,
        "riffles": 0 if name == "none" else count,
        "shoes": len(hands),
        "hands_per_shoe": float(hands.mean()),
        "share_bet": share,
        "share_bet_low": share_lo,
        "share_bet_high": share_hi,
        "win_per_100": w100,
        "win_per_100_low": w100_lo,
        "win_per_100_high": w100_hi,
        "win_per_shoe": shoe,
        "win_per_shoe_low": shoe_lo,
        "win_per_shoe_high": shoe_hi,
        "predicted_per_100": 100 * float(per_shoe["predicted"].sum() / hands.sum()),
    }
    for b in bets:
        row[f"share_{b}"] = float(per_shoe[f"bet_{b}"].sum() / hands.sum())
    row["removed"] = bool(w100_lo <= 0 <= w100_hi < negligible)
    return row


def edge_removed_at(frame: pl.DataFrame) -> int | None:
    """The fewest riffles whose (raked) row is ``removed`` (interval holds 0, upper bound below the threshold), or None.

    >>> edge_removed_at(pl.DataFrame({"riffles": [0, 1, 2], "removed": [False, False, True]}))
    2
    """
    if "posterior" in frame.columns:
        frame = frame.filter(pl.col("posterior") == "raked")
    rows = frame.filter(pl.col("riffles").is_not_null() & pl.col("removed")).sort("riffles")
    return None if rows.is_empty() else int(rows["riffles"][0])
