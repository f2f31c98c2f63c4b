"""Calibration: p-values uniform for players whose bets ignore the cards; a perfect counter caught as predicted.

Each record here is a block of freshly simulated shoes (:func:`toolkit.protection.trial_tests`), so the
p-values of one player over the blocks are independent.  A Kolmogorov-Smirnov test of uniformity fails
at the 0.001 level, so each such assertion fails falsely one run in a thousand; the six players of the
fresh-shoe test together fail falsely at most 0.6% of runs (the Monte Carlo p-values sit on a grid of
1/500, which moves the KS distance by at most 0.002, far below its critical value of about 0.15 here).
"""

from __future__ import annotations

import polars as pl
import pytest
from scipy import stats

from toolkit.protection import (
    Counter,
    FlatBettor,
    Progression,
    RoadFollower,
    detect_counters,
    power_curve,
    shoes_needed,
    simulate_table,
    trial_tests,
)

HONEST = [
    FlatBettor("flat", "dragon7", rate=0.2, amounts=(1, 5, 25)),
    Progression("martingale"),
    Progression("paroli", "paroli"),
    Progression("fibonacci", "fibonacci", bet="player"),
    RoadFollower("streak", "streak"),
    RoadFollower("chop", "chop"),
]


@pytest.fixture(scope="module")
def honest_blocks():
    """150 records of 2 shoes each, six honest seats at every shoe."""
    return simulate_table(300, HONEST, seed=2024)


def test_fresh_shoe_p_values_are_uniform_for_players_who_ignore_the_cards(honest_blocks):
    tests = trial_tests(honest_blocks, 2, permutations=499, reference=1500, seed=7)
    for (who, bet), part in tests.group_by(["who", "bet"], maintain_order=True):
        p = part["p_value"].to_numpy()
        assert len(p) >= 140, (who, bet)
        assert stats.kstest(p, "uniform").pvalue > 0.001, (who, bet)


def test_within_shoe_p_values_are_uniform_for_a_flat_random_bettor():
    """Exact here: a flat bettor's bets are exchangeable within the shoe; 150 seats at the same 30 shoes.

    Given the shoes, the seats' p-values are independent and uniform, so the KS test fails falsely at its
    0.001 level, and the count of p-values at most 0.05 exceeds the Binomial(150, 0.05) 0.999 quantile 0.1% of
    runs (together at most 0.2%; the p-values sit on a grid of 1/300).
    """
    seats = [FlatBettor(f"s{i}", "dragon7" if i % 2 else "banker", rate=0.3, amounts=(1, 5)) for i in range(150)]
    found = detect_counters(
        simulate_table(30, seats, seed=99), permutations=299, null="within_shoe", correction="none", seed=3
    )
    p = found.seats["p_value"].to_numpy()
    assert len(p) == 150
    assert stats.kstest(p, "uniform").pvalue > 0.001
    assert (p <= 0.05).sum() <= stats.binom.ppf(0.999, 150, 0.05)


def test_the_within_shoe_null_flags_a_martingale_too_often():
    """The edges shuffled within the shoe: a Martingale's runs of stakes meet the edge's random walk.

    At 1% significance over 400 one-shoe records it flags a Martingale bettor on Banker about 6% of the
    time (both tails are inflated alike: nonsense correlation, not skill).  The assertion (more than 2.5%)
    fails falsely with probability below 1e-4 at that rate.
    """
    records = simulate_table(400, [Progression("martingale")], seed=11)
    tests = trial_tests(records, 1, method="normal", permutations=0, null="within_shoe")
    p = tests["p_value"].to_numpy()
    assert (p <= 0.01).mean() > 0.025
    assert (p >= 0.99).mean() > 0.025


@pytest.mark.slow
def test_a_perfect_dragon7_counter_is_flagged_within_the_shoes_the_power_study_predicts():
    """The power study's shoes for 90% power, then five new records of that many shoes.

    If the study is right each record is flagged with probability at least about 0.9, so fewer than three
    flags of five happen with probability below 0.0086.
    """
    counter = Counter("d7", "dragon7", ramp={4: 1})
    curve = power_curve([counter], shoes=(4, 8, 16, 32), trials=100, permutations=999, seed=5)
    needed = shoes_needed(curve)["shoes_needed"][0]
    assert needed is not None
    flags = [
        detect_counters(simulate_table(needed, [counter], seed=100 + i), permutations=999, seed=i).seats["flagged"][0]
        for i in range(5)
    ]
    assert sum(flags) >= 3


@pytest.mark.slow
def test_false_alarms_of_progression_and_road_bettors_equal_the_significance():
    """400 records of 4 shoes each at 1%: each honest seat's flag rate's Clopper-Pearson 99.9% interval holds 0.01.

    Six seats, each failing falsely at most 0.1% of runs: together at most 0.6%.
    """
    curve = power_curve(HONEST, shoes=(4,), trials=400, alpha=0.01, permutations=999, seed=8, confidence=0.999)
    for row in curve.iter_rows(named=True):
        assert row["ci_low"] <= 0.01 <= row["ci_high"], row


def test_the_power_curve_rises_with_the_shoes_observed():
    counter = Counter("d7", "dragon7", ramp={4: 1})
    curve = power_curve(
        [counter, FlatBettor("flat", "dragon7", rate=0.2)],
        shoes=(1, 8),
        trials=40,
        permutations=199,
        seed=6,
        reference=500,
    )
    d7 = curve.filter(pl.col("who") == "d7")["rate"].to_list()
    assert d7[1] > d7[0]
    assert set(curve.columns) >= {"who", "kind", "shoes", "trials", "flagged", "rate", "ci_low", "ci_high"}
    flat = curve.filter(pl.col("who") == "flat")
    # an honest seat: at most 3 flags in 40 at 1% (P(X >= 4) = 0.0007 at the significance)
    assert (flat["flagged"] <= 3).all()
    assert (curve["ci_low"] <= curve["rate"]).all()
    assert (curve["rate"] <= curve["ci_high"]).all()
