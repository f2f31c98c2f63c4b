"""Results from per-shoe totals (``toolkit.counting.results``): estimates, intervals, DI, SCORE, N0, risk of ruin."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from toolkit.counting import Results, ShoeTotals, summarize


def synthetic(won: np.ndarray, ev: np.ndarray | None = None, hands: int = 80) -> Results:
    n = len(won)
    totals = ShoeTotals(
        hands=np.full(n, hands),
        bets=np.full(n, 4),
        staked=np.full(n, 4.0),
        won=won,
        ev=won if ev is None else ev,
        low=np.minimum(won, 0.0),
    )
    return summarize("synthetic", totals, check=False)


def test_results_statistics_from_per_shoe_totals() -> None:
    rng = np.random.default_rng(0)
    won = rng.normal(0.5, 10, 4000)
    ev = 0.5 + rng.normal(0, 0.3, 4000)
    res = synthetic(won, ev)
    z = 1.959963984540054
    assert res.units_per_shoe.value == pytest.approx(won.mean())
    half = z * won.std(ddof=1) / math.sqrt(len(won))
    assert res.units_per_shoe.ci == pytest.approx([won.mean() - half, won.mean() + half])
    assert res.units_per_shoe_ev.value == pytest.approx(ev.mean())
    assert res.mean_edge.value == pytest.approx(ev.sum() / (4.0 * 4000))
    assert res.units_per_100_hands_ev.value == pytest.approx(100 * ev.mean() / 80)
    assert res.units_per_hand.value == pytest.approx(won.mean() / 80)
    assert res.sd_per_shoe == pytest.approx(won.std(ddof=1))
    # a shoe of 80 hands has 80 times the variance of a hand
    assert res.sd_per_hand == pytest.approx(won.std(ddof=1) / math.sqrt(80), rel=1e-3)
    assert res.sd_per_100_hands == pytest.approx(10 * res.sd_per_hand)
    # normal shoe totals: se(s) = s / sqrt(2 n)
    sd = res.sd_estimate("shoe")
    assert sd.se == pytest.approx(won.std(ddof=1) / math.sqrt(2 * len(won)), rel=0.1)
    assert sd.low < sd.value < sd.high
    assert res.sd_estimate("hand").se / res.sd_per_hand == pytest.approx(sd.se / sd.value)
    assert res.di.value == pytest.approx(1000 * res.units_per_hand_ev.value / res.sd_per_hand)
    assert res.score.value == pytest.approx(res.di.value**2)
    assert res.n0.value == pytest.approx((res.sd_per_hand / res.units_per_hand_ev.value) ** 2)
    assert res.n0.low <= res.n0.value <= res.n0.high
    assert res.score.low <= res.score.value <= res.score.high
    assert res.bets_per_shoe.value == 4.0
    frame = res.frame()
    assert set(frame["per"]) >= {"shoe", "100 hands", "hand"}
    payload = res.as_dict(bankroll=200)
    json.dumps(payload)
    for key in ("shoes", "bets_per_shoe", "mean_edge", "units_per_shoe", "units_per_shoe_ci", "di", "n0", "score"):
        assert key in payload
    assert len(payload["units_per_shoe_ci"]) == 2
    assert 0 < payload["risk_of_ruin"] < 1


def test_risk_of_ruin_formula_and_simulation_agree() -> None:
    """Normal shoe results, mean 0.25, SD 10, bankroll 200: exp(-2 mu B / sigma^2) = exp(-1) = 0.368.

    The walk moves by whole shoes, so it overshoots zero: the classical
    correction puts the effective bankroll at B + 0.583 sigma, RoR 0.357.  The
    simulation (3,000 paths; SE 0.009) must match the corrected value within
    4.5 SE (false failure rate 6.8e-6) and the plain formula within that plus
    the 0.011 correction.
    """
    rng = np.random.default_rng(1)
    won = rng.normal(0.25, 10, 20_000)
    won = (won - won.mean()) / won.std(ddof=1) * 10 + 0.25  # exactly mean 0.25, SD 10
    res = synthetic(won, np.full(len(won), 0.25))
    formula = res.risk_of_ruin(200)
    assert formula.value == pytest.approx(math.exp(-1), rel=1e-9)
    sim = res.simulated_risk_of_ruin(200, paths=3000, seed=7)
    corrected = math.exp(-2 * 0.25 * (200 + 0.583 * 10) / 100)
    assert abs(sim.value - corrected) < 4.5 * sim.se
    assert abs(sim.value - formula.value) < 4.5 * sim.se + 0.012
    assert sim.low <= sim.value <= sim.high
    assert res.simulated_risk_of_ruin(200, paths=500, seed=7) == res.simulated_risk_of_ruin(200, paths=500, seed=7)
    losing = synthetic(won - 1.0, np.full(len(won), -0.75))
    assert losing.risk_of_ruin(200).value == 1.0
    with pytest.raises(ValueError, match="bankroll"):
        res.risk_of_ruin(0)


def test_simulated_risk_of_ruin_takes_a_seed_or_a_generator() -> None:
    rng = np.random.default_rng(2)
    res = synthetic(rng.normal(0.25, 10, 2000), np.full(2000, 0.25))
    by_int = res.simulated_risk_of_ruin(100, paths=400, seed=11)
    assert by_int == res.simulated_risk_of_ruin(100, paths=400, seed=np.random.default_rng(11))
    with pytest.raises(ValueError, match="paths must be a positive integer"):
        res.simulated_risk_of_ruin(100, paths=0)
    with pytest.raises(ValueError, match="confidence"):
        summarize("bad", res.totals, confidence=1.0)


def test_a_strategy_that_never_bets_is_a_result_with_undefined_ratios():
    import json
    import math

    import numpy as np

    from toolkit.counting.results import ShoeTotals, summarize

    n = 40
    zero = np.zeros(n)
    res = summarize("never", ShoeTotals(np.full(n, 80), zero, zero, zero, zero, zero))
    assert res.n_bets == 0
    assert "no bet was placed in 40 shoe(s)" in res.note
    assert math.isnan(res.di.value)
    assert math.isnan(res.score.value)
    assert math.isnan(res.n0.value)
    assert math.isnan(res.mean_edge.value)
    assert res.risk_of_ruin(100).value == 0.0
    data = res.as_dict(bankroll=100)
    json.dumps(data, allow_nan=False)
    assert data["di"] is None
    assert data["n0"] is None
    assert data["mean_edge"] is None
    assert data["bets"] == 0
    assert data["note"] == res.note
    assert res.frame().height > 0


def test_perfect_play_refuses_a_nan_threshold():
    import pytest

    from toolkit.counting import perfect_strategy

    with pytest.raises(ValueError, match="min_ev"):
        perfect_strategy("banker", min_ev=float("nan"))
