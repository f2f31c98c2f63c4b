"""The shoe walk both games share (:mod:`toolkit.games._walk`) stops exactly by the minimum-cards rule.

No coup starts with fewer than ``min_cards`` cards left, and every shoe is
played until the next coup could not start: its last coup starts with at
least ``min_cards`` left and leaves fewer.  Checked on the walk itself with a
toy resolver that uses a random number of cards, and on whole shoes of
chemin de fer and of baccarat banque.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.coup.step import SEVEN_CARD_MINIMUM, enough_cards
from toolkit.games import (
    BankerStrategy,
    PlayerStrategy,
    banque_tableau_banker,
    simulate_banque_shoes,
    simulate_chemin_shoes,
)
from toolkit.games._walk import walk_shoes


def assert_stops_by_the_rule(frame: pl.DataFrame, min_cards: int, length: int) -> None:
    """Every shoe of a walked frame: coups chain, none starts short, the last leaves too few for another."""
    assert frame["cards_left"].min() >= min_cards
    for _, rows in frame.group_by("shoe"):
        one = rows.sort("coup")
        left, used = one["cards_left"].to_numpy(), one["cards_used"].to_numpy()
        assert one["coup"].to_list() == list(range(one.height))
        assert left[0] == length
        assert np.array_equal(left[1:], left[:-1] - used[:-1])
        assert all(enough_cards(int(n), min_cards) for n in left)
        assert left[-1] >= min_cards
        assert not enough_cards(int(left[-1] - used[-1]), min_cards)
        assert left[-1] - used[-1] < min_cards


def _toy_resolver(cards: np.ndarray, u: np.ndarray) -> dict[str, np.ndarray]:
    """A coup that uses 1..coup_cards cards, as its first uniform says, and reports its first card."""
    k = cards.shape[1]
    return {"first": cards[:, 0], "cards_used": 1 + (u[:, 0] * k).astype(np.int64)}


@settings(max_examples=60)
@given(
    n=st.integers(1, 6),
    length=st.integers(0, 60),
    coup_cards=st.integers(1, 9),
    extra=st.integers(0, 8),
    seed=st.integers(0, 2**32 - 1),
)
def test_walk_stops_exactly_at_the_minimum(n, length, coup_cards, extra, seed):
    min_cards = coup_cards + extra
    shoes = np.arange(n * length, dtype=np.int64).reshape(n, length) % 10
    out = walk_shoes(shoes, np.random.default_rng(seed), _toy_resolver, coup_cards, 1, min_cards)
    frame = pl.DataFrame(out)
    if length < min_cards:  # not even one coup
        assert frame.height == 0
        assert set(frame.columns) == {"first", "cards_used", "shoe", "coup", "cards_left"}
        return
    assert frame["shoe"].n_unique() == n
    assert_stops_by_the_rule(frame, min_cards, length)
    # each coup is given the shoe's cards from where the last one stopped
    start = length - frame["cards_left"].to_numpy()
    assert np.array_equal(frame["first"].to_numpy(), shoes[frame["shoe"].to_numpy(), start])


def test_walk_refuses_a_minimum_below_the_cards_a_coup_may_use():
    with pytest.raises(ValueError, match="at least the 6 cards"):
        walk_shoes(np.zeros((1, 52), dtype=np.int8), np.random.default_rng(0), _toy_resolver, 6, 1, 5)


@pytest.mark.parametrize(("decks", "min_cards"), [(1, 6), (1, SEVEN_CARD_MINIMUM), (2, 11), (1, 40)])
def test_chemin_shoes_stop_by_the_minimum_cards_rule(decks, min_cards):
    p, b = PlayerStrategy.at_five(1), BankerStrategy.from_tableau()
    frame = simulate_chemin_shoes(40, p, b, decks=decks, seed=min_cards, min_cards=min_cards, block_size=16)
    assert frame["shoe"].n_unique() == 40
    assert_stops_by_the_rule(frame, min_cards, 52 * decks)


def test_chemin_default_minimum_is_seven_cards():
    p, b = PlayerStrategy.at_five(1), BankerStrategy.from_tableau()
    frame = simulate_chemin_shoes(30, p, b, decks=1, seed=4)
    assert_stops_by_the_rule(frame, SEVEN_CARD_MINIMUM, 52)
    assert frame.equals(simulate_chemin_shoes(30, p, b, decks=1, seed=4, min_cards=SEVEN_CARD_MINIMUM))


@pytest.mark.parametrize(("decks", "min_cards"), [(1, 9), (3, 9), (2, 13), (1, 30)])
def test_banque_shoes_stop_by_the_minimum_cards_rule(decks, min_cards):
    p = PlayerStrategy.at_five(1)
    frame = simulate_banque_shoes(
        40, p, p, banque_tableau_banker(), decks=decks, seed=min_cards, min_cards=min_cards, block_size=16
    )
    assert frame["shoe"].n_unique() == 40
    assert_stops_by_the_rule(frame, min_cards, 52 * decks)
