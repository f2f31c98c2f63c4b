"""Sweeps (``toolkit.counting.sweeps``): every setting played through the same shoes, one row per setting."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from toolkit.counting import count_strategy, penetration_sweep, perfect_strategy, run_strategies, threshold_sweep
from toolkit.dealing.dealer import Dealing

OPTIONS = {"workers": 1, "block_size": 20, "progress": False}


def test_threshold_sweep_rows_are_the_runs_at_each_threshold() -> None:
    sweep = threshold_sweep("dragon7", [1, 3], 40, seed=8, **OPTIONS)
    assert sweep["threshold"].to_list() == [1.0, 3.0]
    runs = run_strategies([count_strategy("dragon7", 1), count_strategy("dragon7", 3)], 40, seed=8, **OPTIONS)
    for row, res in zip(sweep.iter_rows(named=True), runs, strict=True):
        assert row["strategy"] == res.strategy
        assert row["units_per_shoe_ev"] == res.units_per_shoe_ev.value
        assert row["bets_per_shoe"] == res.bets_per_shoe.value
    # a lower threshold bets at least as often, on the same shoes
    assert sweep["bets_per_shoe"][0] >= sweep["bets_per_shoe"][1]


@pytest.mark.parametrize("seed", [9, np.random.SeedSequence(9), np.random.default_rng(9), None])
def test_penetration_sweep_deals_the_same_shoes_at_every_position(seed) -> None:
    strategies = [count_strategy("dragon7", 2), perfect_strategy("panda8")]
    sweep = penetration_sweep(strategies, [30, 30], 40, seed=seed, **OPTIONS)
    first, second = sweep[:2], sweep[2:]
    assert first["cut_card"].to_list() == [30, 30]
    assert first.drop("cut_card").equals(second.drop("cut_card"))


def test_penetration_sweep_with_an_integer_seed_is_the_run_at_each_cut_card() -> None:
    strategy = count_strategy("dragon7", 2)
    sweep = penetration_sweep(strategy, [14, 60], 40, seed=10, **OPTIONS)
    assert sweep["cut_card"].to_list() == [14, 60]
    for row in sweep.iter_rows(named=True):
        (res,) = run_strategies([strategy], 40, replace(Dealing(), cut_card=row["cut_card"]), seed=10, **OPTIONS)
        assert row["units_per_shoe_ev"] == res.units_per_shoe_ev.value
        assert row["shoes"] == 40
