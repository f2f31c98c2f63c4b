"""The live panel, the explorer's shoe model and the stepper's model agree with the engine and with replay."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from toolkit.bets.paytable import bet_stats, get_bet, standard_bets
from toolkit.counting import count_arrays
from toolkit.coup.cards import Composition
from toolkit.dealing.dealer import Dealing, deal
from toolkit.edges.eor import effect_of_removal
from toolkit.live import LiveShoe, Panel, ShoeSteps
from toolkit.records import records_from_frame, replay_records, simulate_records


def test_the_panel_gives_the_engines_numbers():
    panel = Panel.of(systems=["dragon7", "panda8"])
    comp = Composition.from_decks(8).remove(["K", "5", "9", "Q", "7", "7", "7"])
    snap = panel.evaluate(comp)
    assert list(snap.expected_value) == [b.name for b in standard_bets()]
    for bet in standard_bets():
        exact = bet_stats(bet, comp).exact_expected_value
        assert snap.expected_value[bet.name] == pytest.approx(float(exact), abs=1e-13)
        assert snap.house_edge[bet.name] == pytest.approx(-float(exact), abs=1e-13)
    rc, tc = count_arrays("dragon7", np.array([comp.by_rank]), 8)
    assert snap.running["dragon7"] == rc[0]
    assert snap.true["dragon7"] == tc[0]


def test_the_panels_effect_of_removal_is_the_engines_by_rank():
    panel = Panel.of(bets=["tie", "banker"])
    comp = Composition.from_decks(6).remove("2", "2", "3")
    mine = panel.effect_of_removal(comp, "banker")
    theirs = effect_of_removal(comp, bets=[get_bet("banker")], by="rank")
    assert mine["eor"].to_list() == theirs["eor"].to_list()
    assert mine["card"].to_list() == theirs["card"].to_list()
    assert (
        panel.effect_of_removal(comp)["eor"].to_list()
        == effect_of_removal(comp, bets=[get_bet("tie")], by="rank")["eor"].to_list()
    )


def test_too_few_cards_give_no_edges_and_no_eor():
    panel = Panel.of(bets=["banker"])
    snap = panel.evaluate(Composition.from_cards(["A", "2", "3", "4", "5"]))
    assert snap.expected_value == {"banker": None}
    assert snap.positive == ()
    assert panel.effect_of_removal(Composition.from_cards(list("A23456")))["eor"].null_count() == 13


def test_unknown_names_are_clear_errors():
    with pytest.raises(ValueError, match="unknown bet"):
        Panel.of(bets=["bankr"])
    with pytest.raises(ValueError, match="unknown count system"):
        Panel.of(systems="dragon8")
    with pytest.raises(ValueError, match="no bet 'tie' on the panel"):
        Panel.of(bets=["banker"]).bet("tie")


def test_a_live_shoe_removes_adds_and_undoes():
    shoe = LiveShoe("8 decks", Panel.of(bets=["banker"], systems=["dragon7"]))
    start = shoe.snapshot()
    shoe.remove("K 5 9 Qh").remove(3).add("5")
    assert shoe.composition == Composition.from_decks(8).remove("K", "9", "Q", "4")
    assert shoe.removed == ("K", "9", "Q", "4")
    with pytest.raises(ValueError, match="no A left"):
        LiveShoe(Composition.from_cards(["K"] * 7)).remove("A")
    with pytest.raises(ValueError, match="unknown card"):
        shoe.remove("K 5 Z")
    assert shoe.composition.total == 412  # a failed change changes nothing
    shoe.undo().undo().undo()
    assert shoe.snapshot() == start
    assert shoe.undo().changes == []


def test_the_steps_of_a_record_are_replays_rows():
    records = simulate_records(1, seed=4)
    steps = ShoeSteps(records, bets=["banker", "dragon7"], systems=["dragon7"])
    frame = replay_records(records, systems=["dragon7"], bets=["banker", "dragon7"])
    for k in (1, 10, steps.n_coups):
        step = steps.step(k)
        row = frame.row(k - 1, named=True)
        assert step.expected_value == {"banker": row["ev_banker"], "dragon7": row["ev_dragon7"]}
        assert step.running == {"dragon7": row["rc_dragon7"]}
        assert step.player == row["player_hand"]
        assert step.winner == row["winner"]
        assert step.unseen.total == row["cards_unseen"]
    assert steps.history(10).height == 10


def test_stepping_forward_then_back_returns_the_same_state():
    steps = ShoeSteps(deal(2, Dealing(), seed=8, progress=False), shoe=2, systems="panda8")
    before = steps.go(5).step()
    assert steps.forward(3).step() != before
    assert steps.back(3).step() == before
    assert steps.go(-4).coup == 1
    assert steps.go(10_000).coup == steps.n_coups
    with pytest.raises(ValueError, match=r"coups 1 \.\."):
        steps.step(0)


def test_the_steps_carry_the_recorded_bets_with_their_edges():
    records = simulate_records(1, seed=4)
    frame = records_from_frame(records.cards.drop("coup"), records.header)
    bets = pl.DataFrame(
        {
            "shoe": [1, 1, 1],
            "coup": [2, 2, 7],
            "who": ["s1", "s2", "s1"],
            "bet": ["banker", "tie", "banker"],
            "amount": [10.0, 5.0, 50.0],
        }
    )
    steps = ShoeSteps(frame.with_bets(bets), bets=["banker", "tie"])
    assert [b["who"] for b in steps.step(2).bets] == ["s1", "s2"]
    assert steps.step(2).bets[0]["expected_value"] == steps.step(2).expected_value["banker"]
    assert steps.step(3).bets == []
    assert steps.bets_so_far(7).height == 3
