"""Detection: the permutation test against its exact enumeration, the corrections, counters found, honest seats not.

The exact null distribution of the within-shoe statistic is enumerated on two small shoes (every
ordering of each shoe's edges); the Monte Carlo p-value must agree with it within its binomial error,
and the normal approximation's variance must equal the enumerated one.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import polars as pl
import pytest
from scipy import stats

from toolkit.protection import (
    SEAT_COLUMNS,
    Counter,
    FlatBettor,
    Progression,
    RoadFollower,
    adjust,
    detect_counters,
    simulate_table,
    within_shoe_permutation,
)
from toolkit.records import simulate_records

EDGES = [np.array([0.03, -0.01, 0.02, -0.04, 0.0, 0.01]), np.array([-0.02, 0.05, 0.01, -0.03, 0.02])]
STAKES = [np.array([5.0, 0.0, 2.0, 0.0, 0.0, 1.0]), np.array([0.0, 3.0, 0.0, 0.0, 1.0])]


def _exact_null() -> np.ndarray:
    """The statistic under every ordering of each shoe's edges (720 x 120 orderings), centred per shoe."""
    per_shoe = []
    for e, a in zip(EDGES, STAKES, strict=True):
        c = e - e.mean()
        per_shoe.append(np.array([a @ c[list(p)] for p in itertools.permutations(range(len(c)))]))
    return (per_shoe[0][:, None] + per_shoe[1][None, :]).ravel()


def test_the_monte_carlo_p_value_equals_the_enumerated_one():
    edges, stakes = np.concatenate(EDGES), np.concatenate(STAKES)
    shoe = np.repeat([1, 2], [6, 5])
    test = within_shoe_permutation(edges, stakes, shoe, 20_000, seed=11)
    null = _exact_null()
    exact = np.mean(null >= test.statistic - 1e-12)
    # Monte Carlo p ~ (1 + Binomial(20000, exact)) / 20001: within 4.5 standard errors (false failure < 1e-5)
    se = math.sqrt(exact * (1 - exact) / 20_000)
    assert abs(test.p_value - exact) < 4.5 * se + 1 / 20_001
    # the normal approximation uses the exact permutation variance (the mean is 0 after centring)
    assert abs(null.mean()) < 1e-12
    assert test.statistic / test.z == pytest.approx(null.std(), rel=1e-9)


def test_the_test_is_invariant_to_the_shoes_order_and_labels():
    edges, stakes = np.concatenate(EDGES), np.concatenate(STAKES)
    a = within_shoe_permutation(edges, stakes, np.repeat([1, 2], [6, 5]), 999, seed=3)
    order = np.r_[6:11, 0:6]
    b = within_shoe_permutation(edges[order], stakes[order], np.repeat(["x", "w"], [5, 6]), 999, seed=3)
    assert a.statistic == pytest.approx(b.statistic)
    assert a.z == pytest.approx(b.z)
    with pytest.raises(ValueError, match="permutations"):
        within_shoe_permutation(edges, stakes, np.zeros(11), -1)


def test_holm_and_benjamini_hochberg_corrections():
    p = [0.01, 0.04, 0.03, 0.005, np.nan]
    holm = adjust(p, "holm")
    # Holm (1979): sorted p times (m - i), running maximum: 0.02, 0.03, 0.06, 0.06 (m = 4; NaN not counted)
    assert holm[:4].tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert np.isnan(holm[4])
    assert adjust(p, "bh")[:4].tolist() == pytest.approx(stats.false_discovery_control(p[:4]).tolist())
    assert adjust(p, "none")[:4].tolist() == p[:4]
    with pytest.raises(ValueError, match="unknown correction"):
        adjust(p, "bonferroni")


@pytest.fixture(scope="module")
def table():
    players = [
        Counter("counter", "dragon7", ramp={4: 5}),
        Counter("ramp", "dragon7", ramp={0: 2, 1: 4, 2: 8, 3: 16}, floor=1),
        FlatBettor("flat", "dragon7", rate=0.3, amounts=(1, 5)),
        Progression("martingale"),
        RoadFollower("chop", mode="chop"),
    ]
    return simulate_table(30, players, seed=23)


def test_a_perfect_dragon7_counter_is_flagged_and_the_honest_seats_are_not(table):
    found = detect_counters(table, permutations=1999, seed=1)
    seats = {(r["who"], r["bet"]): r for r in found.seats.to_dicts()}
    assert found.seats.columns == list(SEAT_COLUMNS)
    assert seats["counter", "dragon7"]["flagged"]
    assert seats["ramp", "dragon7"]["flagged"]
    assert seats["counter", "dragon7"]["implied_count"] == "dragon7"
    assert seats["counter", "dragon7"]["implied_trigger"] == pytest.approx(4, abs=0.5)
    assert seats["counter", "dragon7"]["effect"] > 0.05  # Dragon 7 at true count +4 returns about +6% or more
    honest = [r for k, r in seats.items() if k[0] not in ("counter", "ramp")]
    assert len(honest) == 4  # the chop follower bets Banker and Player
    assert not any(r["flagged"] for r in honest)
    assert all(r["implied_count"] is None for r in honest)


def test_the_implied_count_of_a_dragon7_counter_recovers_its_tags_signs(table):
    found = detect_counters(table, who="ramp", permutations=0, method="normal")
    fitted = found.seats.row(0, named=True)["fitted_tags"]
    dragon7 = (0, 0, 0, 0, -1, -1, -1, -1, 2, 2)  # by value 0..9 (Jacobson)
    assert [np.sign(t) for t, d in zip(fitted, dragon7, strict=True) if d] == [np.sign(d) for d in dragon7 if d]
    assert all(abs(t) <= 1 for t, d in zip(fitted, dragon7, strict=True) if not d)


def test_luck_is_what_was_won_beyond_the_exact_expectation(table):
    seats = detect_counters(table, bets="dragon7", permutations=0, method="normal").seats
    assert set(seats["bet"]) == {"dragon7"}
    assert (seats["luck"] - (seats["won"] - seats["expected_win"])).abs().max() < 1e-9
    flat = seats.filter(pl.col("who") == "flat").row(0, named=True)
    assert flat["money_edge"] == pytest.approx(flat["expected_win"] / flat["staked"])


def test_the_normal_p_values_agree_with_the_shufflings(table):
    both = detect_counters(table, who=["flat", "martingale", "chop"], permutations=4999, seed=2).seats
    # z of order 1: the normal tail within 0.03 of the Monte Carlo p-value (its SE is below 0.0071)
    assert (both["p_normal"] - both["p_monte_carlo"]).abs().max() < 0.03


def test_the_json_payload_has_the_documented_shape(table):
    found = detect_counters(table, who=["counter", "flat"], permutations=199, seed=5, alpha=0.05)
    payload = found.as_json()
    assert payload["alpha"] == 0.05
    assert payload["correction"] == "holm"
    first = payload["seats"][0]
    for key in ("who", "bet", "bets", "p_value", "p_adjusted", "flagged", "mean_edge_when_betting", "implied_count"):
        assert key in first
    assert first["implied_count"]["system"] == "dragon7"
    assert payload["seats"][1]["implied_count"] is None


def test_detection_is_reproducible_and_checks_its_arguments(table):
    one = detect_counters(table, who="flat", permutations=99, seed=7).seats
    assert one.equals(detect_counters(table, who="flat", permutations=99, seed=7).seats)
    for kwargs, match in (
        ({"alpha": 1.5}, "alpha must be between"),
        ({"alpha": "0.01"}, "alpha must be a number"),
        ({"who": "nobody"}, "no bets by 'nobody'"),
        ({"bets": ["tie"]}, "no bets by 'tie'"),
        ({"method": "exact"}, "unknown method"),
        ({"permutations": 0}, "permutations must be"),
        ({"correction": "sidak"}, "unknown correction"),
    ):
        with pytest.raises((ValueError, TypeError), match=match):
            detect_counters(table, **kwargs)
    with pytest.raises(ValueError, match="needs the cards"):
        detect_counters(simulate_records(1, seed=1).outcomes())
    empty = detect_counters(simulate_records(1, seed=1), permutations=9)
    assert empty.seats.height == 0
    assert empty.seats.columns == list(SEAT_COLUMNS)


def test_the_fresh_shoe_p_value_equals_the_enumerated_one():
    from toolkit.protection.reference import Pool, fresh_shoe_test

    rng = np.random.default_rng(8)
    pool = Pool(rng.normal(size=(40, 6)) * np.linspace(0.5, 2, 6))  # later coups vary more, as in a shoe
    stakes = np.array([[0, 0, 1, 0, 3, 2.0], [1, 0, 0, 0, 0, 4.0]])
    edges = rng.normal(size=(2, 6))
    test = fresh_shoe_test([(stakes, edges, pool)], 40_000, seed=3)
    # every pair of pool shoes, equally likely: the exact p-value of the Monte Carlo test
    per_shoe = pool.edges @ stakes.T  # (pool shoe, seat's shoe)
    null = (per_shoe[:, 0][:, None] + per_shoe[:, 1][None, :]).ravel()
    exact = np.mean(null >= test.statistic - 1e-12)
    se = math.sqrt(exact * (1 - exact) / 40_000)
    assert abs(test.p_value - exact) < 4.5 * se + 1 / 40_001  # false failure < 1e-5
    # the normal twin: the pool's mean and variance of the statistic, exactly
    assert test.z == pytest.approx((test.statistic - null.mean()) / null.std(ddof=0) * math.sqrt(1 - 1 / 40), rel=1e-9)


def test_both_nulls_flag_the_counter(table):
    for null in ("fresh_shoes", "within_shoe"):
        found = detect_counters(
            table, who=["counter", "martingale"], permutations=999, null=null, reference=500, seed=4
        )
        assert found.seats["flagged"].to_list() == [True, False], null
        assert found.null == null
    with pytest.raises(ValueError, match="reference must be"):
        detect_counters(table, reference=1)
    with pytest.raises(ValueError, match="unknown null"):
        detect_counters(table, null="bootstrap")
