"""The exact lattice walk: the classical solutions where they exist, simulation elsewhere, and which formula leads.

Every comparison of a simulated proportion with an exact value allows ``Z = 4``
standard errors of the proportion, taken at the exact value (so the tolerance
does not depend on the draw): a correct simulation fails one such check with
probability about 6.3e-5 (the two-sided normal tail beyond 4), the file's six
checks together below 4e-4 on a fresh seed; the seeds here are fixed, so a
run is deterministic.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.sizing import gamblers_ruin, ruin_diffusion, simulate_risk, skip_free_ruin
from toolkit.sizing.lattice import LatticeWalk, lattice_unit

Z = 4.0  # two-sided false-failure rate 6.3e-5 per check
PATHS = 4000

#: A flat 40:1 bet with 3 wins in 100: EV +0.23 a bet; one bet a step, so the list is the exact law.
FORTY = np.array([40.0] * 3 + [-1.0] * 97)


def _tolerance(p: float, n: int = PATHS) -> float:
    return Z * math.sqrt(p * (1 - p) / n)


def test_the_walk_of_a_40_to_1_bet_is_the_skip_free_solution():
    walk = LatticeWalk.from_shoes(FORTY)
    assert walk is not None
    assert walk.unit == 1.0
    for b in (1, 20, 200):
        assert walk.ruin(b) == pytest.approx(skip_free_ruin(np.array([0.03, 0.97]), np.array([40, -1]), b), rel=1e-9)


def test_the_walk_of_even_money_is_the_gamblers_ruin():
    walk = LatticeWalk.from_shoes(np.array([1.0] * 51 + [-1.0] * 49))
    assert walk.ruin(20) == pytest.approx(gamblers_ruin(0.51, 0.49, 20), rel=1e-9)
    assert walk.goal(20, 40) == pytest.approx(gamblers_ruin(0.51, 0.49, 20, 40), rel=1e-9)
    # ruin within 20 steps from 20 units: 20 losses in a row; within 22: one win among the first 21 steps too
    assert walk.trip_ruin(20, 20) == pytest.approx(0.49**20, rel=1e-9)
    assert walk.trip_ruin(20, 22) == pytest.approx(0.49**20 + 20 * 0.49**21 * 0.51, rel=1e-9)


@pytest.fixture(scope="module")
def forty_simulated():
    return simulate_risk(FORTY, 100, goal=300, trip=500, paths=PATHS, max_shoes=200_000, seed=21)


def test_the_40_to_1_walk_against_simulation(forty_simulated):
    walk = LatticeWalk.from_shoes(FORTY)
    assert walk is not None
    for exact, sim in (
        (walk.ruin(100), forty_simulated.ruin),
        (walk.goal(100, 300), forty_simulated.goal),
        (walk.trip_ruin(100, 500), forty_simulated.trip_ruin),
    ):
        assert sim is not None
        assert abs(sim.value - exact) < _tolerance(exact)
    # the diffusion formula (0.394 against the exact 0.341) is outside the same tolerance: the wrong headline
    mu, sd = FORTY.mean(), FORTY.std(ddof=1)
    assert abs(forty_simulated.ruin.value - ruin_diffusion(mu, sd, 100)) > _tolerance(walk.ruin(100))


def test_lows_within_the_shoe_are_ruin_points():
    # a shoe that dips 3 below its start and ends +1: from a bankroll of 3 it ruins at once
    won, low = np.array([1.0, 1.0]), np.array([-3.0, 0.0])
    walk = LatticeWalk.from_shoes(won, low)
    assert walk is not None
    assert walk.ruin(3) == pytest.approx(0.5)
    assert walk.trip_ruin(3, 1) == pytest.approx(0.5)
    assert walk.goal(3, 4) == pytest.approx(0.5)


def test_reweighting_keeps_the_lattice_and_sets_the_mean():
    walk = LatticeWalk.from_shoes(FORTY, mean=0.1)
    assert walk is not None
    assert walk.mean == pytest.approx(0.1, abs=1e-12)
    assert walk.ruin(20) > LatticeWalk.from_shoes(FORTY).ruin(20)
    assert LatticeWalk.from_shoes(FORTY, mean=50.0) is None  # beyond the largest result: no tilt gives it


def test_values_off_any_lattice_have_no_walk():
    assert lattice_unit(np.array([0.95, -1.0, 1.9])) == pytest.approx(0.05)
    assert LatticeWalk.from_shoes(np.array([math.pi, -1.0])) is None
    with pytest.raises(ValueError, match="lattice points"):
        LatticeWalk.from_shoes(np.array([0.001, -0.001, 0.001])).ruin(10**6)
