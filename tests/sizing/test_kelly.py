"""The Kelly solver: against scipy's numerical optimisation and against the closed forms."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize

from toolkit.bets.pricing import expected_values
from toolkit.sizing import growth_rate, kelly_fractions, kelly_stakes, outcome_probabilities, payout_outcomes


def _scipy_kelly(p: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Maximise the log growth with SLSQP, keeping every outcome's wealth positive."""
    k = v.shape[1]
    live = p > 0

    def neg(f: np.ndarray) -> float:
        w = 1 + v[live] @ f
        return float(-(p[live] * np.log(np.maximum(w, 1e-300))).sum())

    def grad(f: np.ndarray) -> np.ndarray:
        w = 1 + v[live] @ f
        return -((p[live] / w) @ v[live])

    cons = [{"type": "ineq", "fun": lambda f: 1 + v[live] @ f - 1e-9, "jac": lambda f: v[live]}]
    best = None
    for x0 in (np.full(k, 1e-4), np.full(k, 0.01), np.full(k, 0.1 / k)):
        r = scipy.optimize.minimize(
            neg,
            x0,
            jac=grad,
            bounds=[(0, 1)] * k,
            constraints=cons,
            method="SLSQP",
            options={"ftol": 1e-15, "maxiter": 500},
        )
        if best is None or r.fun < best.fun:
            best = r
    return best.x


@pytest.mark.parametrize("p", [0.5, 0.51, 0.55, 0.6, 0.9])
def test_even_money_is_p_minus_q(p):
    f = kelly_fractions(np.array([p, 1 - p]), np.array([1.0, -1.0]))
    assert f[0, 0] == pytest.approx(max(p - (1 - p), 0.0), abs=1e-12)


@pytest.mark.parametrize(("p", "b", "push"), [(0.03, 40, 0.0), (0.05, 25, 0.0), (0.3, 3, 0.1), (0.45, 1.5, 0.2)])
def test_a_b_to_one_bet_with_pushes_is_edge_over_odds(p, b, push):
    # f* = (b p - q) / (b (p + q)) ... with pushes: maximise p log(1 + b f) + q log(1 - f)
    q = 1 - p - push
    f = kelly_fractions(np.array([p, push, q]), np.array([b, 0.0, -1.0]))[0, 0]
    expected = max((b * p - q) / (b * (p + q)), 0.0)
    assert f == pytest.approx(expected, abs=1e-12)


def test_one_bet_matches_scipy_on_random_distributions():
    gen = np.random.default_rng(11)
    v = np.array([[-1.0], [0.0], [0.95], [8.0], [40.0]])
    p = gen.dirichlet([30, 5, 20, 1, 0.5], size=40)
    ours = kelly_fractions(p, v)
    for row, f in zip(p, ours, strict=True):
        ref = _scipy_kelly(row, v)
        g_ours, g_ref = growth_rate(row[None], v, f[None])[0], growth_rate(row[None], v, ref[None])[0]
        assert g_ours >= g_ref - 1e-12
        assert f[0] == pytest.approx(ref[0], abs=1e-6)  # measured: within 3e-9


@pytest.mark.parametrize("bets", [["dragon7", "panda8"], ["dragon7", "panda8", "banker"], ["player", "tie"]])
def test_joint_fractions_match_scipy_on_real_payouts(bets):
    po = payout_outcomes(bets)
    gen = np.random.default_rng(len(bets))
    m = po.payouts.shape[0]
    # tilt random distributions towards the wins so that several bets are worth making at once
    p = gen.dirichlet(np.full(m, 0.7), size=25)
    ours = kelly_fractions(p, po.payouts)
    for row, f in zip(p, ours, strict=True):
        ref = _scipy_kelly(row, po.payouts)
        g_ours, g_ref = growth_rate(row[None], po.payouts, f[None])[0], growth_rate(row[None], po.payouts, ref[None])[0]
        assert g_ours >= g_ref - 1e-10, (row, f, ref)
        np.testing.assert_allclose(f, ref, atol=1e-6)  # measured: within 1e-8


def test_joint_beats_or_equals_each_bet_alone():
    po = payout_outcomes(["dragon7", "panda8"])
    p = np.array([[0.915, 0.04, 0.045]])  # outcomes: neither, panda8 wins, dragon7 wins
    joint = kelly_fractions(p, po.payouts)
    g = growth_rate(p, po.payouts, joint)[0]
    for k in range(2):
        alone = np.zeros((1, 2))
        alone[0, k] = kelly_fractions(
            np.array([[p[0].sum() - p[0, 2 - k], p[0, 2 - k]]]), np.array([-1.0, po.payouts[2 - k, k]])
        )[0, 0]
        assert g >= growth_rate(p, po.payouts, alone)[0] - 1e-15
    assert np.all(joint > 0)


def test_outcome_probabilities_are_the_engine_expectations():
    po = payout_outcomes(["dragon7", "panda8"])
    shoes = np.array([[32] * 13, [20, 30, 32, 32, 32, 32, 32, 18, 32, 32, 32, 32, 32]])
    p = outcome_probabilities(po, shoes)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-12)
    ev = expected_values(shoes, list(po.bets))
    np.testing.assert_allclose(p @ po.payouts, ev, atol=1e-12)


def test_kelly_stakes_at_a_rich_shoe():
    # eights and nines gone, sevens left: Dragon 7 is a strong bet
    rich = [32, 32, 32, 32, 32, 32, 32, 8, 8, 32, 32, 32, 32]
    stakes = kelly_stakes("dragon7", rich, fraction=0.5)
    po = payout_outcomes("dragon7")
    p = outcome_probabilities(po, [rich])[0]
    assert p @ po.payouts[:, 0] > 0
    assert stakes["dragon7"] == pytest.approx(0.5 * kelly_fractions(p, po.payouts[:, 0])[0, 0])
    assert stakes["dragon7"] > 0


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((np.array([0.5, 0.6]), np.array([1.0, -1.0])), ValueError, "summing to 1"),
        ((np.array([0.5, 0.5]), np.array([1.0, -2.0])), ValueError, "at least -1"),
        ((np.array([0.5, 0.5]), np.array([1.0, -1.0, 0.0])), ValueError, "do not match"),
    ],
)
def test_bad_inputs_are_refused(args, error, match):
    with pytest.raises(error, match=match):
        kelly_fractions(*args)


def test_bad_fraction_and_bets_are_refused():
    with pytest.raises(ValueError, match="fraction"):
        kelly_stakes("dragon7", 8, fraction=1.5)
    with pytest.raises(ValueError, match="repeat"):
        payout_outcomes(["dragon7", "dragon7"])
    with pytest.raises(ValueError, match="no_such_bet"):
        payout_outcomes("no_such_bet")
