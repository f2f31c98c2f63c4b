"""Thresholds tables and Jacobson's last-hand rule in the computed count (toolkit.count_value).

A count system's thresholds table (``CountSystem.thresholds``) moves the ramp with the depth: by cards out of the
shoe before the coup, burned cards included (a function of the chain's state), or by coup number, which the chain
counts in layers up to the table's last step (the back-counter's layers).  ``last_hand="two_more_if_first"`` is a
rule on the chain's states.  Checked exactly where a table reduces to a plain threshold or to counting coups, against
the simulated harness (which applies the table in :meth:`toolkit.counting.CountPlay.stakes`) on one- and two-deck
shoes and on How's 8-deck Dragon 7 count with a tracking sheet, and at the command line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from toolkit.counting import count_strategy, count_value, get_count_system, run_strategies
from toolkit.dealing.dealer import Dealing

ONE_DECK = Dealing(decks=1)
#: z for the simulation comparisons: 4 standard errors, a false failure about 6e-5 per comparison (14 comparisons
#: in this file: about 9e-4 for the file).
Z = 4.0
KEYS = ("hands_per_shoe", "bets_per_shoe", "staked_per_shoe", "units_per_shoe_ev", "variance_per_hand")


def _table(steps: tuple, by: str, base: str = "dragon7", **changes: object):
    return get_count_system(base).with_(thresholds=steps, threshold_by=by, threshold=None, **changes)


def _within(value: float, est) -> None:
    assert abs(value - est.value) <= Z * est.se + 1e-9, (value, est)


# --------------------------------------------------------------------------------------------- exact reductions
@pytest.mark.parametrize(
    ("steps", "by"),
    [
        (((1, 2.0),), "coup"),
        (((0, 2.0),), "cards_dealt"),
        (((1, 2.0), (3, 2.0), (6, 2.0)), "coup"),  # the coups before coup 6 counted in layers, each at +2
        (((0, 2.0), (20, 2.0), (35, 2.0)), "cards_dealt"),
    ],
    ids=["one-step-coup", "one-step-cards", "equal-steps-coup", "equal-steps-cards"],
)
def test_a_table_of_one_threshold_is_the_plain_threshold(steps, by):
    plain = count_value(count_strategy("dragon7", threshold=2), ONE_DECK)
    table = count_value(count_strategy(_table(steps, by)), ONE_DECK)
    for key in KEYS:
        assert getattr(table, key) == pytest.approx(getattr(plain, key), rel=1e-12, abs=1e-15), key
    assert table.seated_per_shoe == pytest.approx(table.hands_per_shoe, rel=1e-12)
    assert "seated_per_shoe" not in table.as_dict()


def test_a_table_by_coup_bets_exactly_the_coups_before_its_step_and_the_rest_after_it():
    # every coup before coup 5 (a one-deck shoe deals more than four), then none: 4 bets a shoe; the complement
    # table bets the rest, and the two together are a bet on every coup
    before = count_value(count_strategy(_table(((1, -100.0), (5, 100.0)), "coup")), ONE_DECK)
    after = count_value(count_strategy(_table(((1, 100.0), (5, -100.0)), "coup")), ONE_DECK)
    every = count_value(count_strategy("dragon7", threshold=-100), ONE_DECK)
    assert before.bets_per_shoe == pytest.approx(4.0, rel=1e-12)
    assert before.bets_per_shoe + after.bets_per_shoe == pytest.approx(every.hands_per_shoe, rel=1e-12)
    assert before.units_per_shoe_ev + after.units_per_shoe_ev == pytest.approx(every.units_per_shoe_ev, rel=1e-12)


def test_a_table_by_cards_dealt_splits_the_shoe_where_it_says():
    before = count_value(count_strategy(_table(((0, -100.0), (26, 100.0)), "cards_dealt")), ONE_DECK)
    after = count_value(count_strategy(_table(((0, 100.0), (26, -100.0)), "cards_dealt")), ONE_DECK)
    every = count_value(count_strategy("dragon7", threshold=-100), ONE_DECK)
    by_depth = before.by_depth
    assert by_depth.filter(by_depth["cards_out"] >= 26)["bets"].sum() == 0.0
    assert before.units_per_shoe_ev + after.units_per_shoe_ev == pytest.approx(every.units_per_shoe_ev, rel=1e-12)


def test_steps_past_the_shoes_last_coup_change_nothing():
    near = count_value(count_strategy(_table(((1, 3.0), (6, 1.0)), "coup")), ONE_DECK)
    far = count_value(count_strategy(_table(((1, 3.0), (6, 1.0), (40, -5.0)), "coup")), ONE_DECK)  # 13 coups at most
    for key in KEYS:
        assert getattr(far, key) == pytest.approx(getattr(near, key), rel=1e-12, abs=1e-15), key


# --------------------------------------------------------------------------------------------- against simulation
@pytest.mark.parametrize(
    ("steps", "by", "dealing", "seed"),
    [
        (((1, 3.0), (4, 1.0), (8, 0.0)), "coup", ONE_DECK, 71),
        (((0, 3.0), (16, 1.0), (32, 0.0)), "cards_dealt", ONE_DECK, 72),
        (((1, 4.0), (6, 2.0), (12, 1.0), (18, 0.0)), "coup", Dealing(decks=2, burn="fixed", burn_cards=3), 73),
    ],
    ids=["coup-one-deck", "cards-one-deck", "coup-two-decks-hidden-burns"],
)
def test_a_table_that_moves_with_depth_agrees_with_the_simulated_count(steps, by, dealing, seed):
    strategy = count_strategy(_table(steps, by))
    (sim,) = run_strategies([strategy], 20_000, dealing, seed=seed, workers=1, progress=False)
    computed = count_value(strategy, dealing)
    _within(computed.units_per_shoe_ev, sim.units_per_shoe_ev)
    _within(computed.bets_per_shoe, sim.bets_per_shoe)
    plain = count_value(count_strategy("dragon7", threshold=steps[0][1]), dealing)
    assert computed.bets_per_shoe > plain.bets_per_shoe  # the table moves the bets


def test_a_ramp_moves_with_the_table_as_the_simulated_play_moves_it():
    strategy = count_strategy(_table(((1, 2.0), (5, 0.0)), "coup"), ramp={2: 1, 4: 3})
    (sim,) = run_strategies([strategy], 20_000, ONE_DECK, seed=74, workers=1, progress=False)
    computed = count_value(strategy, ONE_DECK)
    _within(computed.units_per_shoe_ev, sim.units_per_shoe_ev)
    _within(computed.staked_per_shoe, sim.staked_per_shoe)


#: S. How, "Unbalanced Dragon 7 Count" (discountgambling.net, 2012; 8 decks, cut card 16 from the end): about
#: 6.8 bets and +52 % of a fixed bet per shoe, betting at running count > 0 (tests/counting/test_published_counts.py).
HOW_BETS_PER_SHOE = 6.8
HOW_UNITS_PER_SHOE = 0.52


def test_hows_dragon7_count_computed_matches_his_published_figures():
    # How's simulation size is not published: the printed precision (0.05 bets, 0.005 units) plus the allowance
    # the simulated check grants (4.5 standard errors of 100,000 shoes: 0.14 bets, 0.014 units) and 0.02 units for
    # his own simulation's error, as in tests/counting/test_published_counts.py
    how = count_value(count_strategy(get_count_system("how_dragon7"), threshold=1), Dealing(cut_card=16))
    assert abs(how.bets_per_shoe - HOW_BETS_PER_SHOE) < 0.05 + 0.14
    assert abs(how.units_per_shoe_ev - HOW_UNITS_PER_SHOE) < 0.005 + 0.014 + 0.02


def test_hows_dragon7_count_with_a_tracking_sheet_by_hand_agrees_with_its_simulation():
    # a tracking sheet: How's running count, its minimum lowered as the shoe goes on (8 decks, cut card 16)
    sheet = _table(((1, 4.0), (20, 2.0), (45, 0.0), (60, -2.0)), "coup", base="how_dragon7")
    strategy, dealing = count_strategy(sheet), Dealing(cut_card=16)
    (sim,) = run_strategies([strategy], 20_000, dealing, seed=75, workers=1, progress=False)
    computed = count_value(strategy, dealing)
    _within(computed.units_per_shoe_ev, sim.units_per_shoe_ev)
    _within(computed.bets_per_shoe, sim.bets_per_shoe)


@pytest.mark.parametrize("cut_card", [14, 45], ids=["cut-14", "cut-before-the-first-coups"])
def test_two_more_if_first_agrees_with_simulation(cut_card):
    # cut card 45 on one deck: the first coup often starts past it (a ten burns ten cards), and is followed by one more
    dealing = Dealing(decks=1, last_hand="two_more_if_first", cut_card=cut_card)
    strategy = count_strategy("dragon7", threshold=2 if cut_card == 14 else -100)
    (sim,) = run_strategies([strategy], 20_000, dealing, seed=76 + cut_card, workers=1, progress=False)
    computed = count_value(strategy, dealing)
    _within(computed.units_per_shoe_ev, sim.units_per_shoe_ev)
    _within(computed.hands_per_shoe, sim.hands_per_shoe)
    one_more = count_value(strategy, Dealing(decks=1, cut_card=cut_card))
    assert computed.hands_per_shoe > one_more.hands_per_shoe


# --------------------------------------------------------------------------------------------- the command line
def test_count_computes_a_thresholds_table_from_a_system_file(capsys, tmp_path: Path):
    path = tmp_path / "sheet.toml"
    path.write_text(
        'name = "sheet"\ntags = [0, 0, 0, 0, -1, -1, -1, -1, 2, 2]\nbet = "dragon7"\n'
        'threshold_by = "coup"\nthresholds = {"1" = 3, "4" = 1, "8" = 0}\n'
    )
    code, out, err = run(
        capsys, "count", "--system-file", str(path), "--decks", "1", "--method", "computed", "-f", "json"
    )
    assert code == 0, err
    payload = json.loads(out)
    expected = count_value(count_strategy(_table(((1, 3.0), (4, 1.0), (8, 0.0)), "coup")), ONE_DECK)
    assert payload["units_per_shoe_ev"] == pytest.approx(expected.units_per_shoe_ev, rel=1e-12)
    assert payload["bets_per_shoe"] == pytest.approx(expected.bets_per_shoe, rel=1e-12)
    assert payload["convention"]["thresholds"] == [[1, 3.0], [4, 1.0], [8, 0.0]]


def test_count_computes_the_two_more_if_first_rule(capsys):
    args = ("count", "--system", "dragon7", "--decks", "1", "--last-hand", "two_more_if_first", "--method", "computed")
    code, out, err = run(capsys, *args, "-f", "json")
    assert code == 0, err
    expected = count_value("dragon7", Dealing(decks=1, last_hand="two_more_if_first"))
    assert json.loads(out)["units_per_shoe_ev"] == pytest.approx(expected.units_per_shoe_ev, rel=1e-12)


# --------------------------------------------------------------------------------------------- bad input
def test_a_table_never_reached_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"never reaches its true count thresholds table \[\[1, 1000.0\]") as err:
        count_value(count_strategy(_table(((1, 1000.0), (5, 900.0)), "coup")), ONE_DECK)
    assert "\n" not in str(err.value)


def test_a_table_by_coup_too_deep_for_memory_is_refused_in_one_line(monkeypatch):
    from toolkit.counting import computed

    monkeypatch.setattr(computed, "SEAT_BYTES", 1_000)
    with pytest.raises(ValueError, match=r"a thresholds table by coup to coup 8: .* use an earlier coup") as err:
        count_value(count_strategy(_table(((1, 3.0), (8, 0.0)), "coup")), ONE_DECK)
    assert "\n" not in str(err.value)


def test_the_count_search_refuses_a_table_in_one_line(capsys, tmp_path: Path):
    # best_count prices every threshold of a grid in one pass; a table is not one threshold
    path = tmp_path / "sheet.toml"
    path.write_text('tags = [0, 0, 0, 0, -1, -1, -1, -1, 2, 2]\nbet = "dragon7"\nthresholds = {"1" = 3, "6" = 1}\n')
    code, _, err = run(capsys, "count", "--system-file", str(path), "--decks", "1", "--method", "optimise")
    assert code == 2
    assert "has a thresholds table: a search by threshold takes one" in err
    assert len(err.strip().splitlines()) == 1
