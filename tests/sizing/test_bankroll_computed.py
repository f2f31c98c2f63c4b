"""The bankroll layer's win rate computed from the count's law (method="computed", toolkit.sizing.computed): against
the simulation of the same report, against count_value as its oracle, the limits applied to the ramp, and the
refusals (Kelly by shoe, back-counting on another count) in one line, at the library and at the command line."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from cli_helpers import run

from toolkit.counting import SeatRule, Strategy, count_strategy, count_value
from toolkit.dealing.dealer import Dealing
from toolkit.sizing import BackCount, LimitedPlay, Limits, bankroll_report, kelly_strategy
from toolkit.sizing.computed import computed_play, computed_win

ONE_DECK = Dealing(decks=1)
#: Standard errors a computed win may lie from the simulated one: a false failure about 6e-5 per comparison.
Z = 4.0


def _se(estimate) -> float:
    return (estimate.high - estimate.low) / (2 * 1.959963984540054)


@pytest.fixture(scope="module")
def ramp_report():
    # 20,000 one-deck shoes: the simulated expected win (exact EV of every bet placed) has a standard error of
    # about 0.003 units a shoe on a win of about 0.3
    return bankroll_report(
        "dragon7", bankroll=300, ramp={2: 1, 4: 2}, n_shoes=20_000, paths=200, dealing=ONE_DECK, seed=31,
        progress=False, method="computed",
    )  # fmt: skip


def test_the_computed_win_rate_is_count_value_of_the_strategy(ramp_report):
    oracle = count_value(count_strategy("dragon7", ramp={2: 1, 4: 2}), ONE_DECK)
    assert ramp_report.method == "computed"
    assert ramp_report.mu == oracle.units_per_shoe_ev
    w = ramp_report.win_per_hour
    assert w.value == pytest.approx(oracle.units_per_shoe_ev / oracle.hands_per_shoe * 60, rel=1e-12)
    assert w.low == w.value == w.high  # no simulation noise
    assert ramp_report.mean_bet == pytest.approx(oracle.staked_per_shoe / oracle.bets_per_shoe, rel=1e-12)
    d = ramp_report.as_dict()
    assert d["method"] == "computed"
    assert "simulated" in d["note"]
    assert d["units_per_shoe_ci"] == [oracle.units_per_shoe_ev] * 2


def test_the_computed_win_rate_agrees_with_the_simulation_of_the_same_report(ramp_report):
    sim = ramp_report.results.units_per_shoe_ev
    assert abs(ramp_report.mu - sim.value) <= Z * _se(sim), (ramp_report.mu, sim)
    hands = ramp_report.results.hands_per_shoe
    assert abs(ramp_report.hands_per_shoe - hands.value) <= Z * _se(hands)


def test_the_risks_are_those_of_the_dealt_shoes_recentred_on_the_computed_win(ramp_report):
    won = ramp_report.won()
    assert won.mean() == pytest.approx(ramp_report.mu, abs=1e-9)
    assert ramp_report.sigma == ramp_report.results.sd_per_shoe
    assert 0 < ramp_report.risk["risk_of_ruin"]["formula"] < 1


def test_a_kelly_ramp_by_count_is_computed_and_agrees_with_its_simulation():
    rep = bankroll_report(
        "dragon7", bankroll=3000, kelly=0.5, kelly_by="count", n_shoes=20_000, paths=100, dealing=ONE_DECK,
        seed=5, progress=False, method="computed",
    )  # fmt: skip
    sim = rep.results.units_per_shoe_ev
    assert rep.win_per_hour.se == 0
    assert abs(rep.mu - sim.value) <= Z * _se(sim), (rep.mu, sim)
    assert rep.mean_bet > 1  # the Kelly ramp stakes more than one unit at high counts


def test_limits_and_chips_are_applied_to_the_ramp_as_the_limited_play_stakes():
    inner = count_strategy("dragon7", ramp={2: 0.4, 3: 1.7, 4: 6.5, 6: 40}).plays[0]
    limited = LimitedPlay(inner, Limits(table_min=1, table_max=25, chip=0.5))
    play = computed_play(Strategy("limited", (limited,)))
    counts = np.linspace(-3, 9, 121)
    assert play.ramp(counts).tolist() == limited.limits.apply(inner.ramp(counts)).tolist()
    assert play.ramp(np.array([2.0, 3.0, 4.0, 7.0])).tolist() == [0.0, 1.5, 6.5, 25.0]


def test_stakes_not_set_by_the_count_are_refused_in_one_line():
    kelly = kelly_strategy("dragon7", 1000, 0.5)
    with pytest.raises(ValueError, match="Kelly stakes from the exact shoe") as err:
        computed_win(kelly, ONE_DECK)
    assert "\n" not in str(err.value)
    assert "--method simulated" in str(err.value)
    inner = count_strategy("dragon7").plays[0]
    back = Strategy("wong", (BackCount(inner, "panda8", entry_coup=3, entry=1),))
    with pytest.raises(ValueError, match="back-counts by 'panda8' but bets by 'dragon7'"):
        computed_win(back, ONE_DECK)
    two = Strategy("two", (inner, count_strategy("panda8").plays[0]))
    with pytest.raises(ValueError, match="2 plays"):
        computed_win(two, ONE_DECK)
    with pytest.raises(ValueError, match="method"):
        bankroll_report("dragon7", n_shoes=10, paths=10, seed=1, progress=False, method="exact")


def test_the_simulated_report_says_so():
    rep = bankroll_report("dragon7", bankroll=100, n_shoes=200, paths=50, dealing=ONE_DECK, seed=2, progress=False)
    assert rep.method == "simulated"
    assert rep.computed is None
    assert rep.mu == rep.results.units_per_shoe_ev.value
    assert math.isfinite(rep.win_per_hour.low)
    assert rep.win_per_hour.low < rep.win_per_hour.high


BASE = ("bankroll", "--system", "dragon7", "--bankroll", "300", "--decks", "1", "--shoes", "300", "--paths", "50")


def test_the_command_computes_the_win_rate(capsys):
    code, out, err = run(capsys, *BASE, "--ramp", "2:1,4:2", "--seed", "4", "--no-progress", "--method", "computed",
                         "--format", "json")  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    oracle = count_value(count_strategy("dragon7", ramp={2: 1, 4: 2}), ONE_DECK)
    assert d["method"] == "computed"
    assert d["units_per_shoe"] == pytest.approx(oracle.units_per_shoe_ev, rel=1e-12)
    assert d["win_per_hour_ci"][0] == d["win_per_hour_ci"][1] == d["win_per_hour"]


def test_the_command_refuses_kelly_by_shoe_with_the_computed_method_before_any_work(capsys):
    code, out, err = run(capsys, *BASE, "--kelly", "0.5", "--method", "computed")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "--kelly-by count" in err
    assert "seed" not in err
    assert out == ""


def test_a_back_counter_within_limits_is_computed_on_its_seat():
    inner = count_strategy("dragon7", ramp={2: 1, 4: 3}).plays[0]
    back = BackCount(LimitedPlay(inner, Limits(table_max=2)), "dragon7", entry_coup=3, entry=1, exit=0)
    value = computed_win(Strategy("wong", (back,)), ONE_DECK)
    capped = count_strategy("dragon7", ramp={2: 1, 4: 2}).plays[0]
    expected = count_value(capped, ONE_DECK, seat=SeatRule(3, 1.0, 0.0))
    assert value.units_per_shoe_ev == pytest.approx(expected.units_per_shoe_ev, rel=1e-12)
    assert value.seated_per_shoe < value.hands_per_shoe


def test_a_back_counters_report_takes_its_win_rate_from_the_computed_seat():
    inner = count_strategy("dragon7", threshold=2).plays[0]
    wong = Strategy("wong", (BackCount(inner, "dragon7", entry_coup=3, entry=1, exit=0),))
    rep = bankroll_report(
        strategy=wong, bankroll=100, n_shoes=4000, paths=50, dealing=ONE_DECK, seed=2, progress=False,
        method="computed",
    )  # fmt: skip
    assert rep.method == "computed"
    assert rep.mu == pytest.approx(count_value(inner, ONE_DECK, seat=SeatRule(3, 1, 0)).units_per_shoe_ev, rel=1e-12)
    ev = rep.results.units_per_shoe_ev  # the report's own shoes: 4 SE, a false failure about 6e-5
    assert abs(rep.mu - ev.value) <= 4 * ev.se
