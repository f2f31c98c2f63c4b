"""The strategy-comparison table agrees with the results it is made from."""

from __future__ import annotations

import pytest

from toolkit.counting import compare_strategies, count_strategy, perfect_strategy, results_frame, run_strategies


@pytest.fixture(scope="module")
def strategies() -> list:
    return [count_strategy("dragon7"), perfect_strategy("dragon7"), count_strategy("panda8")]


def test_frame_matches_results(strategies: list) -> None:
    results = run_strategies(strategies, 60, seed=7, workers=1, progress=False)
    frame = results_frame(results, bankroll=500)
    assert frame["strategy"].to_list() == [r.strategy for r in results]
    for row, r in zip(frame.iter_rows(named=True), results, strict=True):
        assert row["shoes"] == 60
        assert row["bets_per_shoe"] == r.bets_per_shoe.value
        assert row["mean_edge"] == r.mean_edge.value
        assert row["units_per_shoe_ev"] == r.units_per_shoe_ev.value
        assert row["units_per_shoe_ev_low"] == r.units_per_shoe_ev.low
        assert row["units_per_shoe_ev_high"] == r.units_per_shoe_ev.high
        assert row["di"] == r.di.value
        assert row["n0"] == r.n0.value
        assert row["risk_of_ruin"] == r.risk_of_ruin(500).value
    assert "risk_of_ruin" not in results_frame(results).columns


def test_compare_strategies_is_run_strategies_as_a_table(strategies: list) -> None:
    table = compare_strategies(strategies, 60, seed=7, workers=1, progress=False)
    expected = results_frame(run_strategies(strategies, 60, seed=7, workers=1, progress=False))
    assert table.equals(expected)
