"""Risk formulas against simulation, where each formula holds.

Every comparison of a simulated proportion with a formula allows ``Z = 4``
standard errors of the proportion (from the formula's value, so the tolerance
does not depend on the draw): a correct simulation fails one such check with
probability about 6e-5 (two-sided normal tail beyond 4), so the whole file
(9 such checks) fails falsely with probability below 1e-3 on a fresh seed;
with the fixed seeds here it is deterministic.  Where the formula is a
diffusion limit, the parameters keep its known bias (the overshoot of the
barrier, about 0.58 SD per step; Siegmund 1979) under a fifth of the tolerance.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from toolkit.sizing import (
    adjustment_coefficient,
    bankroll_paths,
    gamblers_ruin,
    goal_diffusion,
    halving_probability,
    ruin_diffusion,
    session_results,
    simulate_fractional_kelly,
    simulate_risk,
    skip_free_ruin,
    trip_ruin_diffusion,
)

Z = 4.0  # two-sided false-failure rate 6.3e-5 per check
PATHS = 4000


def _tolerance(p: float, n: int = PATHS) -> float:
    return Z * math.sqrt(p * (1 - p) / n)


@pytest.fixture(scope="module")
def normal_shoes():
    """Shoe results drawn from a normal law, standardised to mean 0.02 and SD 1 exactly."""
    x = np.random.default_rng(5).normal(size=100_000)
    return 0.02 + (x - x.mean()) / x.std(ddof=1)


@pytest.fixture(scope="module")
def simulated(normal_shoes):
    return simulate_risk(normal_shoes, 50, goal=100, trip=2000, paths=PATHS, max_shoes=60_000, seed=3)


def test_ruin_matches_the_diffusion(simulated):
    formula = ruin_diffusion(0.02, 1.0, 50)  # exp(-2) = 0.1353; overshoot bias ~0.003
    assert formula == pytest.approx(math.exp(-2))
    assert abs(simulated.ruin.value - formula) < _tolerance(formula)


def test_trip_risk_matches_the_first_passage_formula(simulated):
    formula = trip_ruin_diffusion(0.02, 1.0, 50, 2000)
    assert 0.05 < formula < ruin_diffusion(0.02, 1.0, 50)
    assert abs(simulated.trip_ruin.value - formula) < _tolerance(formula)


def test_goal_matches_the_double_barrier(simulated):
    formula = goal_diffusion(0.02, 1.0, 50, 100)
    assert abs(simulated.goal.value - formula) < _tolerance(formula)
    assert simulated.goal.low <= simulated.goal.value <= simulated.goal.high


def test_diffusion_formulas_at_their_limits():
    assert ruin_diffusion(-0.1, 1.0, 10) == 1.0
    assert goal_diffusion(0.0, 2.0, 10, 40) == pytest.approx(0.25)
    assert goal_diffusion(1e-9, 1.0, 10, 40) == pytest.approx(0.25, abs=1e-7)
    assert goal_diffusion(-1e-9, 1.0, 10, 40) == pytest.approx(0.25, abs=1e-7)
    assert 0 < goal_diffusion(-0.05, 1.0, 50, 100) < 0.25
    # trip risk grows to the risk of ruin as the trip lengthens
    assert trip_ruin_diffusion(0.02, 1.0, 50, 1e7) == pytest.approx(ruin_diffusion(0.02, 1.0, 50), rel=1e-9)
    assert trip_ruin_diffusion(0.0, 1.0, 10, 100) == pytest.approx(2 * (1 - 0.8413447460685429), rel=1e-9)


def test_skip_free_ruin_is_exact_for_a_40_to_1_flat_bet():
    # 3 wins at 40:1 in 100: EV +0.23 per bet; one bet per step, the empirical law is the exact law
    won = np.array([40.0] * 3 + [-1.0] * 97)
    exact = skip_free_ruin(np.array([0.03, 0.97]), np.array([40, -1]), 20)
    sim = simulate_risk(won, 20, paths=PATHS, seed=8)
    assert abs(sim.ruin.value - exact) < _tolerance(exact)
    # the diffusion formula overstates the risk of such a skewed bet, and more so the larger the bankroll
    mu, sd = won.mean(), won.std(ddof=0)
    ratios = [
        ruin_diffusion(mu, sd, b) / skip_free_ruin(np.array([0.03, 0.97]), np.array([40, -1]), b) for b in (20, 100)
    ]
    assert 1 < ratios[0] < ratios[1]
    assert ratios[1] > 1.1


def test_gamblers_ruin_with_a_goal_against_simulation():
    won = np.array([1.0] * 51 + [-1.0] * 49)
    exact = gamblers_ruin(0.51, 0.49, 20, 40)
    sim = simulate_risk(won, 20, goal=40, paths=PATHS, seed=9)
    assert abs(sim.goal.value - exact) < _tolerance(exact)
    assert gamblers_ruin(0.51, 0.49, 20) == pytest.approx(skip_free_ruin(np.array([0.51, 0.49]), np.array([1, -1]), 20))
    assert gamblers_ruin(0.49, 0.51, 20) == 1.0


def test_lundberg_coefficient_of_normal_steps_is_two_mu_over_sigma_squared(normal_shoes):
    assert adjustment_coefficient(normal_shoes) == pytest.approx(0.04, rel=0.02)
    assert adjustment_coefficient(np.array([-1.0, 0.5])) == 0.0


@pytest.mark.parametrize("fraction", [0.5, 0.25])
def test_fractional_kelly_halves_with_the_small_edge_probability(fraction):
    # even money at p = 0.52: f* = 0.04, small enough for the small-edge limit 0.5^(2/c - 1)
    limit = halving_probability(fraction)
    est = simulate_fractional_kelly(np.array([0.52, 0.48]), np.array([1.0, -1.0]), fraction, paths=PATHS, seed=12)
    assert abs(est.value - limit) < _tolerance(limit)


def test_halving_probability_values():
    assert halving_probability(1.0) == 0.5
    assert halving_probability(0.5) == 0.125
    assert halving_probability(0.5, level=0.25) == pytest.approx(0.25**3)
    with pytest.raises(ValueError, match="level"):
        halving_probability(0.5, level=2)


def test_fan_chart_and_session_frames(normal_shoes):
    fan = bankroll_paths(normal_shoes, 10, sessions=20, shoes_per_session=5, paths=500, seed=1)
    assert fan.columns == ["session", "quantile", "bankroll", "ruined"]
    assert fan.height == 21 * 5
    start = fan.filter(fan["session"] == 0)
    assert start["bankroll"].to_list() == [10.0] * 5
    ruined = fan.group_by("session").agg(pl.col("ruined").first()).sort("session")["ruined"].to_numpy()
    assert np.all(np.diff(ruined) >= 0)
    assert ruined[-1] > 0
    sessions = session_results(normal_shoes, 5, 2000, seed=2)
    assert sessions.height == 2000
    assert sessions["result"].mean() == pytest.approx(0.1, abs=4 * math.sqrt(5 / 2000))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: ruin_diffusion(0.1, 0.0, 10), "sigma"),
        (lambda: ruin_diffusion(0.1, 1.0, -1), "bankroll"),
        (lambda: goal_diffusion(0.1, 1.0, 10, 5), "goal"),
        (lambda: trip_ruin_diffusion(0.1, 1.0, 10, 0), "horizon"),
        (lambda: simulate_risk(np.array([1.0, -1.0]), 10, goal=5), "goal"),
        (lambda: simulate_risk(np.array([1.0]), 10), "two"),
        (lambda: simulate_risk(np.array([1.0, -1.0]), 10, paths=0), "paths"),
        (lambda: skip_free_ruin(np.array([0.5, 0.5]), np.array([1.5, -1]), 10), "whole-unit"),
        (lambda: gamblers_ruin(0.7, 0.6, 10), "probabilities"),
    ],
)
def test_bad_arguments_are_refused(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_without_goal_or_trip_the_paths_are_those_of_the_counting_results():
    # simulate_risk extends Results.simulated_risk_of_ruin: same paths, same stream, same answer
    from toolkit.counting import count_strategy, run_strategies

    (res,) = run_strategies([count_strategy("dragon7")], 300, seed=2, workers=1, progress=False)
    won = res.totals.won + (res.units_per_shoe_ev.value - res.units_per_shoe.value)
    ours = simulate_risk(won, 60, res.totals.low, paths=500, seed=4).ruin
    theirs = res.simulated_risk_of_ruin(60, paths=500, seed=4)
    assert ours.value == theirs.value
    assert (ours.low, ours.high) == (theirs.low, theirs.high)


def test_gamblers_ruin_of_a_billion_units_is_computed_in_logs():
    from fractions import Fraction

    # (1 - r^b) / (1 - r^g) with r = q / p = 51/49: r^(10^9) is far beyond a float
    assert gamblers_ruin(0.49, 0.51, 10**9, 2 * 10**9) == 0.0
    assert gamblers_ruin(0.51, 0.49, 10**9, 2 * 10**9) == 1.0
    assert gamblers_ruin(0.51, 0.49, 10**9) == 0.0
    # against exact rational arithmetic where floats would still do
    r = Fraction(51, 49)
    exact = float((1 - r**300) / (1 - r**700))
    assert gamblers_ruin(0.49, 0.51, 300, 700) == pytest.approx(exact, rel=1e-9)


def test_paths_are_simulated_in_blocks_of_constant_size(monkeypatch):
    from toolkit.sizing import risk

    sizes: list[int] = []

    def fake(won, low, bankroll, mu, var, paths, max_shoes, gen, goal=None):
        sizes.append(paths)
        ruined = np.where(np.arange(paths) % 4 == 0, 1.0, np.inf)  # a quarter of each block ruined at shoe 1
        return ruined, np.full(paths, np.inf)

    monkeypatch.setattr(risk, "ruin_paths", fake)
    n = 10**7
    est = risk.simulate_risk(np.array([1.0, -1.0]), 10, paths=n, seed=1)
    assert max(sizes) == risk.PATH_BLOCK
    assert sum(sizes) == n
    assert est.paths == n
    assert est.ruin.value == pytest.approx(0.25, abs=1e-3)


@pytest.mark.parametrize(("kwargs", "match"), [({"paths": 10**12}, "paths"), ({"max_shoes": 10**12}, "max_shoes")])
def test_work_beyond_the_limits_is_refused_before_it_starts(monkeypatch, kwargs, match):
    from toolkit.sizing import risk

    def never(*args, **kw):
        raise AssertionError("no path may be simulated")

    monkeypatch.setattr(risk, "ruin_paths", never)
    with pytest.raises(ValueError, match=f"{match} must be at most"):
        risk.simulate_risk(np.array([1.0, -1.0]), 10, **kwargs)


def test_lundberg_formulas_of_even_money_are_the_gamblers_ruin():
    from toolkit.sizing import goal_lundberg, ruin_lundberg, trip_ruin_lundberg

    steps = np.array([1.0, 1.0, -1.0])  # p = 2/3: no overshoot, so Lundberg and Wald are exact
    assert ruin_lundberg(steps, 5) == pytest.approx(gamblers_ruin(2 / 3, 1 / 3, 5), rel=1e-9)
    assert goal_lundberg(steps, 5, 12) == pytest.approx(gamblers_ruin(2 / 3, 1 / 3, 5, 12), rel=1e-9)
    exact_within_5 = (1 / 3) ** 5
    assert exact_within_5 <= trip_ruin_lundberg(steps, 5, 5) * (1 + 1e-9)  # a bound, here tight
    assert trip_ruin_lundberg(steps, 5, 5) < ruin_lundberg(steps, 5)
    assert trip_ruin_lundberg(steps, 5, 4) == 0.0  # four steps cannot lose five units


def test_weighted_shoes_are_drawn_with_their_weights():
    won = np.array([1.0, -1.0])
    est = simulate_risk(won, 5, paths=PATHS, seed=4, weights=np.array([2 / 3, 1 / 3]))
    exact = gamblers_ruin(2 / 3, 1 / 3, 5)
    assert abs(est.ruin.value - exact) < _tolerance(exact)
    with pytest.raises(ValueError, match="weights"):
        simulate_risk(won, 5, weights=np.array([0.5, 0.6]))
