"""Bets over coup fields in the counting harness: settled from the dealt cards, priced by the rich engine."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.bets.catalogue import catalogue_spec
from toolkit.bets.coup_bets import CoupBet, coup_payouts
from toolkit.bets.paytable import bet_stats, get_bet
from toolkit.counting import perfect_strategy, run_strategies
from toolkit.counting.tallies import PreCoup
from toolkit.dealing.dealer import deal


@pytest.fixture(scope="module")
def dealt():
    return deal(60, seed=3, progress=False)


def test_a_class_field_bet_settles_as_its_pay_table(dealt) -> None:
    for name in ("lucky6", "bad_beat", "five_cards"):
        rich = CoupBet(name, catalogue_spec(name).expr)  # the same rule, through the coup fields
        paid = coup_payouts(rich, dealt.cards)
        assert np.array_equal(paid, get_bet(name).payoff_array[dealt.outcome_classes()]), name


def test_tiger_pair_settles_from_the_ranks(dealt) -> None:
    paid = coup_payouts(get_bet("tiger_pair"), dealt.cards)
    c = dealt.cards
    pp, bp = c[:, 0] == c[:, 1], c[:, 3] == c[:, 4]
    expected = np.where(pp & bp, np.where(c[:, 0] == c[:, 3], 100, 20), np.where(pp | bp, 4, -1))
    assert np.array_equal(paid, expected)


def test_suits_drawn_suit_blind_average_to_the_exact_odds() -> None:
    """Dealt pairs of the same rank are suited pairs 7/31 of the time in 8 decks (false-failure rate < 1e-6)."""
    n = 200_000
    cards = np.tile(np.array([[5, 5, -1, 0, 1, -1]]), (n, 1))  # Player a pair of 6s, Banker A-2
    paid = coup_payouts(get_bet("perfect_pair"), cards, decks=8, seed=11)
    share = np.mean(paid == 25)
    sd = np.sqrt(7 / 31 * 24 / 31 / n)
    assert abs(share - 7 / 31) < 5 * sd


def test_perfect_play_of_a_rich_bet_prices_every_coup_at_its_exact_ev(dealt) -> None:
    bet = get_bet("three_giving_eight")
    info = PreCoup.from_dealt(dealt)
    ev = info.expected_values(bet)
    some = [0, 17, 120]
    for i in some:
        assert ev[i] == pytest.approx(float(bet_stats(bet, tuple(info.unseen[i])).exact_expected_value), abs=1e-12)
    (res,) = run_strategies([perfect_strategy(bet)], 40, seed=5, progress=False, workers=1)
    assert res.bets_per_shoe.value > 0
    assert res.mean_edge.value > 0
