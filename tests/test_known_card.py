"""Known-card edges: published figures, the law of total expectation, and a brute-force oracle."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import permutations

import polars as pl
import pytest
from reference_enumerator import banker_draws, card_value, is_natural, player_draws

from toolkit import get_bet
from toolkit.bets.paytable import bet_stats
from toolkit.edges.known_card import known_card_edges, known_card_gain

# Jacobson, "Baccarat - the known card" (8 decks; bet Banker or Player only when positive):
# card 1 or 3: 6.765 %, card 2 or 4: 6.406 %, card 5: 8.973 %, card 6: 9.098 %.
JACOBSON_KNOWN_CARD = {1: 6.765, 2: 6.406, 3: 6.765, 4: 6.406, 5: 8.973, 6: 9.098}


def test_jacobson_known_card_gains_8_decks() -> None:
    gains = dict(known_card_gain(8).iter_rows())
    for position, published in JACOBSON_KNOWN_CARD.items():
        assert round(gains[position] * 100, 3) == published, position


@pytest.mark.parametrize("shoe", [8, 1, "4,5,6,7,8,9,10,11,12,40"])
def test_conditional_expectations_average_to_the_unconditional_one(shoe: object) -> None:
    table = known_card_edges(shoe)
    for name in ("banker", "player"):
        exact = bet_stats(get_bet(name), shoe).expected_value
        by_position = (
            table.filter(pl.col("bet") == name)
            .group_by("position")
            .agg((pl.col("probability") * pl.col("expected_value").fill_null(0.0)).sum().alias("ev"))
        )
        # a million float terms per position: rounding accumulates to ~1e-13
        assert by_position["ev"].to_list() == pytest.approx([exact] * 6, abs=1e-12)


def _brute_force(cards: list[str]) -> dict[tuple[int, int], Fraction]:
    """EV of Banker (5 % commission) given the value at each position, by listing every ordered deal."""
    totals: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for deal in permutations(range(len(cards)), 6):
        v = [card_value(cards[i]) for i in deal]
        pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
        if not (is_natural(pt) or is_natural(bt)):
            nxt = 4
            third = None
            if player_draws(pt):
                third = v[nxt]
                pt = (pt + third) % 10
                nxt += 1
            if banker_draws(bt, third):
                bt = (bt + v[nxt]) % 10
        pay = Fraction(19, 20) if bt > pt else Fraction(0) if bt == pt else Fraction(-1)
        for position in range(6):
            totals[position + 1, v[position]] += pay
            counts[position + 1, v[position]] += 1
    return {key: totals[key] / counts[key] for key in totals}


def test_known_card_matches_brute_force_on_a_small_shoe() -> None:
    cards = ["A", "2", "3", "5", "6", "8", "9", "K"]
    oracle = _brute_force(cards)
    table = known_card_edges(cards, bets=[get_bet("banker")]).drop_nulls("expected_value")
    assert len(table) == len(oracle)
    for position, value, ev in table.select("position", "value", "expected_value").iter_rows():
        assert ev == pytest.approx(float(oracle[position, value]), abs=1e-12)


def test_pair_bets_are_refused() -> None:
    with pytest.raises(ValueError, match="pairs"):
        known_card_edges(8, bets=[get_bet("player_pair")])
