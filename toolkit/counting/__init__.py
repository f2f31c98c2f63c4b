"""Count systems and the strategies that bet by them: tallies, quality, the harness, results and sweeps."""

from toolkit.counting.systems import COUNT_SYSTEMS, CountSystem, betting_correlation, count_arrays, count_quality, count_systems, eor_count, get_count_system, with_counts
from toolkit.counting.strategies import CountPlay, Estimate, LookAheadError, PerfectPlay, PreCoup, Ramp, Results, ShoeTotals, Strategy, combine, count_strategy, penetration_sweep, perfect_strategy, run_strategies, threshold_sweep

__all__ = (
    "COUNT_SYSTEMS",
    "CountPlay",
    "CountSystem",
    "Estimate",
    "LookAheadError",
    "PerfectPlay",
    "PreCoup",
    "Ramp",
    "Results",
    "ShoeTotals",
    "Strategy",
    "betting_correlation",
    "combine",
    "count_arrays",
    "count_quality",
    "count_strategy",
    "count_systems",
    "eor_count",
    "get_count_system",
    "penetration_sweep",
    "perfect_strategy",
    "run_strategies",
    "threshold_sweep",
    "with_counts",
)
