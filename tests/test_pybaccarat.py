"""The exact engine against pybaccarat, an independent exact calculator (PyPI, MIT, G. L. Fulk).

``pybaccarat.compute_baccarat_odds.ComputeBaccaratOdds`` enumerates every ordered deal of
six cards by rank (13 nested loops' worth of counting), in the same convention as Wizard
of Odds, and keeps integer counts: Banker, Player and Tie wins, Banker wins with a three-card
7 (Dragon 7), Player wins with a three-card 8 (Panda 8), the Dragon Bonus pay table we use
(its table 1), and Player pairs.  So the comparison is digit for digit.

pybaccarat does not install on Linux by plain ``pip install`` (its ``setup.py`` imports a
module that imports Windows' ``msvcrt``); the calculator module itself never imports
``msvcrt``.  Install it with the build-time stand-in kept beside the benchmarks::

    python -m pip install "setuptools>=70.1"
    PYTHONPATH="$PWD/tests/benchmarks/pybaccarat_shim" \\
        python -m pip install --no-build-isolation --no-deps pybaccarat==0.18

Without it these tests are skipped.  One composition takes pybaccarat about 1 s here
(the issue measured about 4 s), so the shoes are few.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import toolkit as bt

odds_module = pytest.importorskip(
    "pybaccarat.compute_baccarat_odds",
    reason="pybaccarat is not installed (see this module's docstring for the pip command)",
)

#: Shoes by rank (A, 2, ..., 9, T, J, Q, K): a full 8-deck shoe and three depleted ones.
SHOES = {
    "8 decks": (32,) * 13,
    "8 decks, a third dealt": (24, 25, 30, 18, 22, 27, 31, 19, 24, 30, 28, 26, 31),
    "end of shoe, 28 cards, ranks missing": (3, 0, 2, 4, 1, 0, 3, 2, 1, 5, 4, 0, 3),
    "1 deck rich in nines and tens": (2, 1, 3, 4, 4, 2, 1, 3, 4, 4, 4, 4, 4),
}


@pytest.fixture(scope="module")
def calculator():
    """One pybaccarat calculator (its constructor enumerates a full shoe once)."""
    return odds_module.ComputeBaccaratOdds(1)


@pytest.fixture(scope="module", params=list(SHOES), ids=list(SHOES))
def pair(request, calculator):
    """``(composition, pybaccarat counts)`` for each shoe, enumerated once."""
    shoe = SHOES[request.param]
    calculator.recompute(list(shoe))
    counts = {
        "banker": calculator.count_banker,
        "player": calculator.count_player,
        "tie": calculator.count_tie,
        "dragon7": calculator.count_banker_3card7,
        "panda8": calculator.count_player_3card8,
        "dragon_bonus_banker": calculator.count_banker_dragon[0],
        "dragon_bonus_player": calculator.count_player_dragon[0],
        "pair": calculator.count_pair,
        "pair_total": calculator.count_pair + calculator.count_nonpair,
    }
    return bt.Composition(shoe), counts


def test_banker_player_tie_counts_digit_for_digit(pair) -> None:
    comp, theirs = pair
    ours = bt.combination_counts(comp)
    assert {k: ours[k] for k in ("banker", "player", "tie")} == {k: theirs[k] for k in ("banker", "player", "tie")}
    assert ours["total"] == theirs["banker"] + theirs["player"] + theirs["tie"]


def test_banker_player_tie_expected_values_exactly(pair) -> None:
    comp, theirs = pair
    total = theirs["banker"] + theirs["player"] + theirs["tie"]
    expected = {
        "banker": Fraction(19, 20) * theirs["banker"] - theirs["player"],  # Banker pays 0.95
        "player": Fraction(theirs["player"] - theirs["banker"]),
        "tie": Fraction(8 * theirs["tie"] - theirs["banker"] - theirs["player"]),  # Tie pays 8:1
    }
    for bet, numerator in expected.items():
        assert bt.bet_stats(bt.get_bet(bet), comp).exact_expected_value == numerator / total, bet


def test_dragon7_panda8_and_dragon_bonus_exactly(pair) -> None:
    comp, theirs = pair
    total = theirs["banker"] + theirs["player"] + theirs["tie"]
    for bet, pays in (("dragon7", 40), ("panda8", 25)):
        wins = Fraction(theirs[bet], total)
        assert bt.bet_stats(bt.get_bet(bet), comp).exact_expected_value == (pays + 1) * wins - 1, bet
    for bet in ("dragon_bonus_banker", "dragon_bonus_player"):  # pybaccarat's Dragon Bonus table 1 is ours
        assert bt.bet_stats(bt.get_bet(bet), comp).exact_expected_value == Fraction(theirs[bet], total), bet


def test_player_pair_probability_exactly(pair) -> None:
    comp, theirs = pair
    p_pair = Fraction(theirs["pair"], theirs["pair_total"])
    assert bt.bet_stats(bt.get_bet("player_pair"), comp).exact_expected_value == 12 * p_pair - 1


def test_float_batched_path_agrees_with_pybaccarat(pair) -> None:
    comp, theirs = pair
    total = theirs["banker"] + theirs["player"] + theirs["tie"]
    bets = [bt.get_bet(b) for b in ("player", "tie", "dragon7")]
    ev = bt.expected_values([comp], bets)[0]
    assert ev[0] == pytest.approx((theirs["player"] - theirs["banker"]) / total, abs=1e-14)
    assert ev[1] == pytest.approx((8 * theirs["tie"] - theirs["banker"] - theirs["player"]) / total, abs=1e-14)
    assert ev[2] == pytest.approx(41 * theirs["dragon7"] / total - 1, abs=1e-14)
