"""Card counting: count systems, the counts over dealt shoes, their quality, and what strategies betting by them win.

* :mod:`~toolkit.counting.systems`: :class:`CountSystem` and the library of published systems;
* :mod:`~toolkit.counting.custom`: counts of one's own, from text tags or a TOML file;
* :mod:`~toolkit.counting.tallies`: running and true counts before each coup (:class:`PreCoup`);
* :mod:`~toolkit.counting.quality`: counts from effects of removal, betting correlation, count quality;
* :mod:`~toolkit.counting.strategies`: strategies as frozen values (:class:`CountPlay`, :class:`PerfectPlay`);
* :mod:`~toolkit.counting.harness`: strategies played through dealt shoes (:func:`play`, :func:`run_strategies`);
* :mod:`~toolkit.counting.results`: per-shoe totals and the figures with their intervals (:class:`Results`);
* :mod:`~toolkit.counting.sweeps`: threshold and penetration sweeps;
* :mod:`~toolkit.counting.computed`: a count's win computed from the count's exact law (:func:`count_value`);
* :mod:`~toolkit.counting.optimise`: the best count for a bet, searched on the computed win (:func:`best_count`).
"""

from toolkit.counting.computed import CountValue, SeatRule, count_law, count_value
from toolkit.counting.custom import custom_count, parse_tags, read_count_system
from toolkit.counting.harness import compare_strategies, play, results_frame, run_strategies, simulate
from toolkit.counting.optimise import best_count
from toolkit.counting.quality import betting_correlation, count_quality, eor_count
from toolkit.counting.results import Estimate, LookAheadError, Results, ShoeTotals, summarize
from toolkit.counting.strategies import (
    CountPlay,
    PerfectPlay,
    Play,
    Ramp,
    Strategy,
    combine_strategies,
    count_strategy,
    perfect_strategy,
)
from toolkit.counting.sweeps import penetration_sweep, threshold_sweep
from toolkit.counting.systems import COUNT_SYSTEMS, CountSystem, count_systems, get_count_system
from toolkit.counting.tallies import PreCoup, count_arrays, counts, with_counts

__all__ = (
    "COUNT_SYSTEMS",
    "CountPlay",
    "CountSystem",
    "CountValue",
    "Estimate",
    "LookAheadError",
    "PerfectPlay",
    "Play",
    "PreCoup",
    "Ramp",
    "Results",
    "SeatRule",
    "ShoeTotals",
    "Strategy",
    "best_count",
    "betting_correlation",
    "combine_strategies",
    "compare_strategies",
    "count_arrays",
    "count_law",
    "count_quality",
    "count_strategy",
    "count_systems",
    "count_value",
    "counts",
    "custom_count",
    "eor_count",
    "get_count_system",
    "parse_tags",
    "penetration_sweep",
    "perfect_strategy",
    "play",
    "read_count_system",
    "results_frame",
    "run_strategies",
    "simulate",
    "summarize",
    "threshold_sweep",
    "with_counts",
)
