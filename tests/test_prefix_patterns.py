"""Bets on the first four cards as closed forms in the counts: the pattern evaluator against the card oracle.

The oracle (``tests/card_oracle.py``, no toolkit code) deals every coup card by card in exact
fractions; the evaluator's floats must sit within their own rounding bound of it.  The bets cover
each scheme the compiler can choose: pairs only (proven symmetric, no enumeration), values with pairs
(proven, ranks by value), a rank named at two positions (rank level, verified by enumeration),
colours (suits by colour) and a named suit and rank (the finest scheme).
"""

from __future__ import annotations

import random
from fractions import Fraction

import card_oracle
import numpy as np
import pytest

from toolkit.bets._prefix_patterns import PatternBet
from toolkit.bets.coup_bets import CoupBet, coup_expected_values
from toolkit.bets.paytable import bet_stats, get_bet, make_bet
from toolkit.coup.suits import CARDS, SuitedShoe

RED = ("h", "d")


def _custom(name: str, rows) -> CoupBet:
    bet = make_bet(name, rows)
    assert isinstance(bet, CoupBet)
    return bet


#: name -> (bet, oracle payout of a Deal, the scheme the compiler must choose)
BETS = {
    "perfect_pair": (get_bet("perfect_pair"), card_oracle.perfect_pair, "ranks by one, suits by any"),
    "perfect_pair_v2": (get_bet("perfect_pair_v2"), card_oracle.perfect_pair_v2, "ranks by one, suits by any"),
    "tiger_pair": (get_bet("tiger_pair"), card_oracle.tiger_pair, "ranks by one"),
    "suited_natural": (
        _custom("suited_natural", [("player_suited_pair AND banker_natural", 40), ("banker_pair", "1/2")]),
        lambda d: (
            40
            if d.player_1 == d.player_2 and d.natural("banker")
            else (Fraction(1, 2) if d.banker_1[0] == d.banker_2[0] else -1)
        ),
        "ranks by value, suits by any",
    ),
    "red_pair": (
        _custom("red_pair", [("player_pair AND player_1_suit IN ('h', 'd') AND player_2_suit IN ('h', 'd')", 25)]),
        lambda d: 25 if d.player_1[0] == d.player_2[0] and d.player_1[1] in RED and d.player_2[1] in RED else -1,
        "ranks by one, suits by colour",
    ),
    "heart_then_king": (
        _custom("heart_then_king", [("player_1_suit = 'h' AND banker_1_rank = 'K'", 30)]),
        lambda d: 30 if d.player_1[1] == "h" and d.banker_1[0] == "K" else -1,
        None,  # a named suit and a named rank: only the finest scheme holds, so label events price it
    ),
}


def _random_shoe(rng: random.Random, types: int, cards: int) -> dict[str, int]:
    chosen = rng.sample(CARDS, types)
    counts = dict.fromkeys(chosen, 1)
    for _ in range(cards - types):
        counts[rng.choice(chosen)] += 1
    return counts


SHOES = [_random_shoe(random.Random(seed), types, cards) for seed, types, cards in [(5, 5, 9), (6, 6, 10), (7, 4, 8)]]
SHOES.append({"Ks": 3, "Kh": 2, "Qh": 2, "Th": 1, "3c": 2})  # zero ranks and suits that repeat


def _suited(shoe: dict[str, int]) -> SuitedShoe:
    return SuitedShoe(tuple(shoe.get(c, 0) for c in CARDS))


@pytest.mark.parametrize("name", list(BETS))
def test_the_compiler_names_its_evaluator_and_scheme(name: str) -> None:
    bet, _, scheme = BETS[name]
    if scheme is None:
        assert (bet.evaluator, bet.patterns()) == ("label events", None)
    else:
        assert bet.evaluator == "prefix patterns"
        assert bet.patterns().scheme == scheme


@pytest.mark.parametrize("name", list(BETS))
@pytest.mark.parametrize("shoe", SHOES, ids=[f"shoe{i}" for i in range(len(SHOES))])
def test_the_closed_form_is_within_its_bound_of_the_card_oracle(name: str, shoe: dict[str, int]) -> None:
    bet, oracle, _ = BETS[name]
    exact = card_oracle.expected_value(oracle, shoe)
    if bet.patterns() is not None:
        ev, bound = bet.patterns()(np.array([_suited(shoe).ranks.by_rank]), _suited(shoe).suit_matrix[None])
        assert abs(ev[0] - float(exact)) <= bound[0] + 1e-16
    assert coup_expected_values([_suited(shoe)], bet)[0] == pytest.approx(float(exact), abs=1e-14)


@pytest.mark.parametrize("name", list(BETS))
def test_shoes_by_rank_read_suit_blind_agree_with_label_events(name: str) -> None:
    bet = BETS[name][0]
    rng = np.random.default_rng(3)
    ranks = rng.integers(0, 33, size=(6, 13))
    ranks[0] = 32
    floats = coup_expected_values(ranks, bet, decks=8)
    # the label events' float path (itself exact against the oracle above): an independent evaluator
    table = [bet_stats(bet, list(r), decks=8, exact=False).expected_value for r in ranks.tolist()]
    assert floats == pytest.approx(table, abs=1e-11)  # float against float: both errors are far below this


def test_exact_signs_are_settled_in_integers_for_the_closed_form(monkeypatch) -> None:
    """Expectations within the bound of zero are replaced by exact values (here every one, by a huge bound)."""
    bet = get_bet("tiger_pair")
    original = PatternBet.__call__

    def loose(self, ranks, weights):
        ev, bound = original(self, ranks, weights)
        return ev, bound + 1e9

    monkeypatch.setattr(PatternBet, "__call__", loose)
    ranks = np.array([[3, 2, 4, 2, 3, 5, 2, 4, 6, 3, 2, 4, 3], [32] * 13])
    settled = coup_expected_values(ranks, bet)
    assert settled.tolist() == [float(bet_stats(bet, list(r)).exact_expected_value) for r in ranks.tolist()]


def test_the_bound_is_a_rounding_bound() -> None:
    ranks = np.full((1, 13), 32)
    weights = np.full((1, 13, 4), 8)
    for name in ("perfect_pair", "perfect_pair_v2", "tiger_pair"):
        _, bound = BETS[name][0].patterns()(ranks, weights)
        assert 0 < bound[0] < 1e-12
