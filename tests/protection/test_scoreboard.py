"""The scoreboard: its exact posterior against every ordering of a small shoe, sequential importance sampling
against the exact posterior, and the worth of the road to a counter."""

from __future__ import annotations

import itertools
from collections import Counter as Tally

import numpy as np
import pytest
from loop_dealer import VALUES, banker_draws, player_draws

from toolkit.protection.scoreboard import (
    SYMBOLS,
    exact_posterior,
    scoreboard_leak,
    sis_posterior,
    symbol_index,
    symbol_probabilities,
)
from toolkit.records import simulate_records

#: 9 cards: A A 4 5 8 9 9 T K (rank indices).
SMALL = (0, 0, 3, 4, 7, 8, 8, 9, 12)


def _first_coup(order: tuple[int, ...]) -> tuple[tuple[str, bool, bool, bool], int]:
    """The symbol of the first coup dealt from ``order`` and the cards it took (the plain dealer's rules)."""
    p, b = [order[0], order[2]], [order[1], order[3]]
    pt, bt = sum(VALUES[c] for c in p) % 10, sum(VALUES[c] for c in b) % 10
    natural = pt >= 8 or bt >= 8
    i = 4
    third = None
    if not natural and player_draws(pt):
        third = VALUES[order[i]]
        p.append(order[i])
        i += 1
    if not natural and banker_draws(bt, third):
        b.append(order[i])
        i += 1
    pt, bt = sum(VALUES[c] for c in p) % 10, sum(VALUES[c] for c in b) % 10
    winner = "player" if pt > bt else "banker" if bt > pt else "tie"
    return (winner, order[0] == order[2], order[1] == order[3], natural), i


def test_the_exact_posterior_equals_every_ordering_of_a_small_shoe():
    counts = tuple(SMALL.count(r) for r in range(13))
    by_symbol: dict = {}
    for order in set(itertools.permutations(SMALL)):  # every distinct ordering, equally likely
        symbol, used = _first_coup(order)
        left = list(counts)
        for c in order[:used]:
            left[c] -= 1
        by_symbol.setdefault(symbol, Tally())[tuple(left)] += 1
    for symbol, tally in by_symbol.items():
        total = sum(tally.values())
        exact = exact_posterior(counts, [symbol])
        assert exact.keys() == tally.keys(), symbol
        for comp, n in tally.items():
            assert exact[comp] == pytest.approx(n / total, abs=1e-12)


def test_symbol_probabilities_sum_to_one_and_match_the_enumeration():
    counts = np.array([[2, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 0], [32] * 9 + [32] * 4])
    p = symbol_probabilities(counts)
    assert p.shape == (2, len(SYMBOLS))
    assert np.allclose(p.sum(axis=1), 1, atol=1e-12)
    assert symbol_index(("tie", True, True, False)) == SYMBOLS.index(("tie", True, True, False))
    with pytest.raises(ValueError, match="a scoreboard symbol is"):
        symbol_index(("banker", "pair"))


def test_sequential_importance_sampling_recovers_the_exact_posterior():
    """Two coups from a 12-card shoe; 4,000 particles: the posterior mean count of each rank within 0.08.

    The counts lie in 0..2, so their posterior SD is at most 1 and the sampler's standard error is at most
    1/sqrt(ESS), no more than 0.022 as resampling keeps the ESS above 2,000; 0.08 is 3.6 of those, for
    each of the six ranks present (false failure below 0.2%).
    """
    shoe = (2, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 0)
    road = [("banker", False, False, True), ("player", False, False, False)]
    exact = exact_posterior(shoe, road)
    mean = sum(np.array(k) * v for k, v in exact.items())
    comps, weights = sis_posterior(shoe, road, particles=4000, seed=4)
    assert weights.sum() == pytest.approx(1)
    assert np.abs(comps.T @ weights - mean).max() < 0.08
    assert all(tuple(c) in exact for c in comps[weights > 0])  # every particle is consistent with the road


def test_a_road_no_deal_can_show_is_refused():
    with pytest.raises(ValueError, match="no deal of these cards"):
        exact_posterior((6,) + (0,) * 12, [("player", False, False, False)])  # six aces: always a tie
    with pytest.raises(ValueError, match="no particle"):
        sis_posterior((6,) + (0,) * 12, [("player", False, False, False)], particles=10, seed=1)


def test_the_scoreboard_gives_a_counter_little_next_to_the_cards():
    leak = scoreboard_leak(simulate_records(200, seed=12), bets=["dragon7", "banker"])
    d7 = leak.row(0, named=True)
    assert d7["bet"] == "dragon7"
    assert d7["cards_per_shoe"] > 0.3  # a counter who sees every card: about +0.6 units a shoe (Jacobson)
    assert d7["scoreboard_per_shoe"] < d7["cards_per_shoe"] / 4
