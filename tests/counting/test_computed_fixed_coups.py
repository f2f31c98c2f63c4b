"""A fixed number of coups a shoe, computed (toolkit.count_value with ``Dealing(coups=n)``).

The cut card plays no part: coups are dealt while six cards remain, ``n`` of them at most
(:func:`toolkit.coup.step.may_start`).  The chain counts every coup by coup to coup ``n + 1``, whose starts it drops.
Checked exactly where every coup is dealt (a shoe that always holds ``n`` coups: ``n`` hands, and the bets of a
thresholds table that bets coups ``1 .. n`` under the cut card), against simulation on one deck (where the cards run
out before coup 8 now and then) and on eight decks with a back-counter, and at the command line.
"""

from __future__ import annotations

import json
import math

import pytest
from cli_helpers import run

from toolkit.counting import SeatRule, Strategy, count_strategy, count_value, get_count_system, run_strategies
from toolkit.dealing.dealer import Dealing
from toolkit.sizing.plays import BackCount

#: z for the simulation comparisons: 4 standard errors, a false failure about 6e-5 per comparison (5 comparisons in
#: this file: about 3e-4 for the file); the chain's own offset on the hands where the cards run out (about one
#: standard error of 20,000 shoes, notebooks/maths/computed-counts.md) raises that comparison's to about 1e-3.
Z = 4.0


def _within(value: float, est) -> None:
    assert abs(value - est.value) <= Z * est.se + 1e-9, (value, est)


# --------------------------------------------------------------------------------------------- exact reductions
@pytest.mark.parametrize("threshold", [2.0, -1000.0], ids=["tc-2", "every-coup"])
def test_six_coups_of_one_deck_are_the_first_six_coups_dealt_to_the_cut_card(threshold):
    # one deck always deals six coups (five take at most 30 cards, the burn at most 11) and, to the cut card at 14,
    # always a sixth (the fifth starts before it): the table betting coups 1 .. 6 bets the same coups
    fixed = count_value(count_strategy("dragon7", threshold=threshold), Dealing(decks=1, coups=6))
    table = get_count_system("dragon7").with_(
        thresholds=((1, threshold), (7, 1e6)), threshold_by="coup", threshold=None
    )
    cut = count_value(count_strategy(table), Dealing(decks=1, cut_card=14))
    assert fixed.hands_per_shoe == pytest.approx(6.0, rel=1e-12)
    assert fixed.seated_per_shoe == pytest.approx(6.0, rel=1e-12)
    for key in ("bets_per_shoe", "staked_per_shoe", "units_per_shoe_ev"):
        assert getattr(fixed, key) == pytest.approx(getattr(cut, key), rel=1e-12), key
    if threshold < -100:
        assert fixed.bets_per_shoe == pytest.approx(6.0, rel=1e-12)


def test_a_table_by_coup_and_a_seat_count_the_coups_dealt():
    dealing = Dealing(decks=1, coups=6)
    strategy = count_strategy(
        get_count_system("dragon7").with_(
            thresholds=((1, 100.0), (4, -100.0), (5, 100.0)), threshold_by="coup", threshold=None
        )
    )
    assert count_value(strategy, dealing).bets_per_shoe == pytest.approx(1.0, rel=1e-12)  # coup 4 only
    seated = count_value(count_strategy("dragon7", threshold=-100), dealing, seat=SeatRule(3, -math.inf))
    assert seated.hands_per_shoe == pytest.approx(6.0, rel=1e-12)
    assert seated.seated_per_shoe == pytest.approx(4.0, rel=1e-12)
    assert seated.bets_per_shoe == pytest.approx(4.0, rel=1e-12)
    with pytest.raises(ValueError, match=r"never reaches .* while seated") as err:  # he would sit after the last coup
        count_value(count_strategy("dragon7", threshold=-100), dealing, seat=SeatRule(7, -math.inf))
    assert "\n" not in str(err.value)


# --------------------------------------------------------------------------------------------- against simulation
def test_a_fixed_number_of_coups_agrees_with_simulation_where_the_cards_run_out():
    dealing = Dealing(decks=1, coups=8)
    strategy = count_strategy("dragon7", threshold=2)
    (sim,) = run_strategies([strategy], 20_000, dealing, seed=91, workers=1, progress=False)
    computed = count_value(strategy, dealing)
    _within(computed.units_per_shoe_ev, sim.units_per_shoe_ev)
    _within(computed.bets_per_shoe, sim.bets_per_shoe)
    _within(computed.hands_per_shoe, sim.hands_per_shoe)
    assert 7 < computed.hands_per_shoe < 8


def test_a_back_counter_on_a_fixed_number_of_coups_agrees_with_simulation():
    dealing, rule = Dealing(coups=50), SeatRule(10, 1.0, 0.0)
    inner = count_strategy("dragon7", threshold=3).plays[0]
    back = BackCount(inner, inner.system, rule.entry_coup, rule.entry, rule.exit, rule.count)
    (sim,) = run_strategies([Strategy("wong", (back,))], 20_000, dealing, seed=92, workers=1, progress=False)
    computed = count_value(inner, dealing, seat=rule)
    _within(computed.units_per_shoe_ev, sim.units_per_shoe_ev)
    _within(computed.bets_per_shoe, sim.bets_per_shoe)
    assert computed.hands_per_shoe == pytest.approx(50.0, rel=1e-12)  # eight decks always deal 50 coups


# --------------------------------------------------------------------------------------------- the command line
def test_count_computes_a_fixed_number_of_coups(capsys):
    code, out, err = run(
        capsys, "count", "--system", "dragon7", "--decks", "1", "--coups", "8", "-f", "json", "--method", "computed"
    )
    assert code == 0, err
    expected = count_value("dragon7", Dealing(decks=1, coups=8))
    payload = json.loads(out)
    for key in ("units_per_shoe_ev", "bets_per_shoe", "hands_per_shoe"):
        assert payload[key] == pytest.approx(getattr(expected, key), rel=1e-12), key
    code, _, err = run(capsys, "count", "--system", "dragon7", "--decks", "1", "--coups", "14", "--method", "computed")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
