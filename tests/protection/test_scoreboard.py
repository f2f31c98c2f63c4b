"""The scoreboard: the exact posterior and the exact law of a coup given its symbol against every ordering of a
small shoe, the compiled conditional sampler against that law, the particle filter against the exact posterior,
and the counters' scores against what the coups paid."""

from __future__ import annotations

import itertools
from collections import Counter as Tally

import numpy as np
import polars as pl
import pytest
import scipy.stats
from loop_dealer import VALUES, banker_draws, player_draws

import toolkit as bt
from toolkit.coup.rules import PUNTO_BANCO
from toolkit.coup.step import Tables
from toolkit.protection.scoreboard import (
    SYMBOLS,
    RoadFilter,
    coup_law,
    exact_posterior,
    road_edges,
    scoreboard_leak,
    scoreboard_shoes,
    sis_posterior,
    symbol_index,
    symbol_probabilities,
    systematic_resample,
)
from toolkit.protection.scoreboard._kernels import deal_given
from toolkit.records import replay_records, simulate_records

#: 9 cards: A A 4 5 8 9 9 T K (rank indices).
SMALL = (0, 0, 3, 4, 7, 8, 8, 9, 12)
#: 12 cards: two each of A, 4, 5, 8, 9, T (counts by rank).
TINY = (2, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 0)


def _first_coup(order: tuple[int, ...]) -> tuple[tuple[str, bool, bool, bool], list[int], list[int]]:
    """The symbol of the first coup dealt from ``order`` and its hands (the plain dealer's rules)."""
    p, b = [order[0], order[2]], [order[1], order[3]]
    pt, bt_ = sum(VALUES[c] for c in p) % 10, sum(VALUES[c] for c in b) % 10
    natural = pt >= 8 or bt_ >= 8
    i = 4
    third = None
    if not natural and player_draws(pt):
        third = VALUES[order[i]]
        p.append(order[i])
        i += 1
    if not natural and banker_draws(bt_, third):
        b.append(order[i])
        i += 1
    pt, bt_ = sum(VALUES[c] for c in p) % 10, sum(VALUES[c] for c in b) % 10
    winner = "player" if pt > bt_ else "banker" if bt_ > pt else "tie"
    return (winner, order[0] == order[2], order[1] == order[3], natural), p, b


def _orderings() -> dict:
    """Per symbol: how many distinct orderings of SMALL deal each first coup (hands), all equally likely."""
    by_symbol: dict = {}
    for order in set(itertools.permutations(SMALL)):
        symbol, p, b = _first_coup(order)
        by_symbol.setdefault(symbol, Tally())[tuple(p), tuple(b)] += 1
    return by_symbol


def test_the_exact_posterior_and_the_coup_law_equal_every_ordering_of_a_small_shoe():
    counts = tuple(SMALL.count(r) for r in range(13))
    for symbol, tally in _orderings().items():
        total = sum(tally.values())
        law = coup_law(counts, symbol)
        assert law.keys() == tally.keys(), symbol
        left: Tally = Tally()
        for (p, b), n in tally.items():
            assert law[p, b] == pytest.approx(n / total, abs=1e-12)
            rest = list(counts)
            for c in (*p, *b):
                rest[c] -= 1
            left[tuple(rest)] += n / total
        exact = exact_posterior(counts, [symbol])
        assert exact.keys() == left.keys(), symbol
        for comp, q in left.items():
            assert exact[comp] == pytest.approx(q, abs=1e-12)


def test_symbol_probabilities_sum_to_one_and_match_the_enumeration():
    counts = np.array([TINY, [32] * 13])
    p = symbol_probabilities(counts)
    assert p.shape == (2, len(SYMBOLS))
    assert np.allclose(p.sum(axis=1), 1, atol=1e-12)
    assert symbol_index(("tie", True, True, False)) == SYMBOLS.index(("tie", True, True, False))
    by_orderings = _orderings()
    small = symbol_probabilities(np.array([[SMALL.count(r) for r in range(13)]]))[0]
    orderings = sum(sum(t.values()) for t in by_orderings.values())
    for symbol, tally in by_orderings.items():
        assert small[symbol_index(symbol)] == pytest.approx(sum(tally.values()) / orderings, abs=1e-12)
    with pytest.raises(ValueError, match="a scoreboard symbol is"):
        symbol_index(("banker", "pair"))


def _hands(cards: np.ndarray) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(tuple(int(c) for c in row[:3] if c >= 0), tuple(int(c) for c in row[3:] if c >= 0)) for row in cards]


@pytest.mark.parametrize(
    "symbol", [("banker", False, True, False), ("tie", False, False, False), ("player", True, False, False)]
)
@pytest.mark.parametrize(("walk_cost", "max_tries"), [(0.0, 0), (np.inf, 1 << 16), (np.inf, 1)])
def test_the_conditional_sampler_deals_the_exact_law_of_a_coup_given_its_symbol(symbol, walk_cost, max_tries):
    """20,000 coups from TINY given the symbol, by the walk, by rejection, and by rejection giving up at once
    (then the walk): every coup shows the symbol (it is in the law's support) and the counts of the hands pass a
    chi-squared test against :func:`coup_law` at 1e-4 (cells expected under 5 pooled): nine tests, a false failure
    below 1e-3 in all."""
    n = 20_000
    comps = np.tile(np.array(TINY, dtype=np.int64), (n, 1))
    target = symbol_index(symbol)
    p = np.full(n, symbol_probabilities(np.array(TINY))[0, target])
    cards = deal_given(comps, target, p, walk_cost, max_tries, np.random.default_rng(target), Tables.of(PUNTO_BANCO))
    law = coup_law(TINY, symbol)
    seen = Tally(_hands(cards))
    assert set(seen) <= set(law)
    rows, slots = np.nonzero(cards >= 0)
    np.add.at(comps, (rows, cards[rows, slots]), 1)  # each row lost exactly its coup's cards
    assert (comps == np.array(TINY)).all()
    keys = sorted(law)
    expected = np.array([law[k] * n for k in keys])
    observed = np.array([seen[k] for k in keys], dtype=float)
    small = expected < 5
    if small.any():
        expected = np.r_[expected[~small], expected[small].sum()]
        observed = np.r_[observed[~small], observed[small].sum()]
    assert scipy.stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue > 1e-4


def test_a_symbol_no_coup_shows_leaves_the_cards_alone():
    aces = np.array([(6,) + (0,) * 12, TINY], dtype=np.int64)  # six aces: always a tie
    target = symbol_index(("player", False, False, False))
    cards = deal_given(aces, target, np.array([0.5, 0.0]), 0.0, 0, np.random.default_rng(1), Tables.of(PUNTO_BANCO))
    assert (cards == -2).all()
    assert tuple(aces[0]) == (6,) + (0,) * 12
    assert tuple(aces[1]) == TINY


def test_systematic_resampling_keeps_each_particle_its_share():
    w = np.array([0.1, 0.0, 0.45, 0.2, 0.25])
    for seed in range(20):
        picks = np.bincount(systematic_resample(w, np.random.default_rng(seed)), minlength=5)
        assert picks.sum() == 5
        assert (np.floor(5 * w) <= picks).all()
        assert (picks <= np.ceil(5 * w)).all()


def test_sequential_importance_sampling_recovers_the_exact_posterior():
    """Two coups from TINY; 4,000 particles: the posterior mean count of each rank within 0.05.

    Over 200 seeds (measured once) the estimates' largest SD over the ranks was 0.009 and their mean within
    0.0006 of the exact one, so 0.05 is more than five SDs: a false failure below 1e-6 for each of the six
    ranks present, by a normal approximation.
    """
    road = [("banker", False, False, True), ("player", False, False, False)]
    exact = exact_posterior(TINY, road)
    mean = sum(np.array(k) * v for k, v in exact.items())
    comps, weights = sis_posterior(TINY, road, particles=4000, seed=4)
    assert weights.sum() == pytest.approx(1)
    assert np.abs(comps.T @ weights - mean).max() < 0.05
    assert all(tuple(c) in exact for c in comps[weights > 0])  # every particle is consistent with the road


def test_the_filter_prices_each_bet_at_its_edge_given_the_road():
    """18 cards (three each of A, 4, 5, 8, 9, T), two coups: before each coup, the particles' weighted edges of
    four bets against the edges averaged over the exact posterior.

    Before the first coup they agree to rounding (every particle is the shoe).  After one and two coups, over 200
    seeds of 2,000 particles (measured once) the estimates' SDs were at most 3.3e-4 for Banker, 3.4e-3 for the
    Tie, 1.3e-2 for Dragon 7 and 9.3e-3 for Player Pair, with means within a sixth of an SD of the exact edges;
    the tolerances are six of those SDs: a false failure below 1e-8 for each of the eight comparisons, by a
    normal approximation.
    """
    shoe = (3, 0, 0, 3, 3, 0, 0, 3, 3, 3, 0, 0, 0)
    road = [("banker", False, False, True), ("player", False, False, False)]
    bets = [bt.get_bet(b) for b in ("banker", "tie", "dragon7", "player_pair")]
    tolerance = 6 * np.array([3.3e-4, 3.4e-3, 1.3e-2, 9.3e-3])
    filt = RoadFilter(shoe, particles=2000, seed=11, bets=bets)
    for k in range(len(road) + 1):
        posterior = exact_posterior(shoe, road[:k])
        weights = np.array(list(posterior.values()))
        exact = weights @ bt.expected_values(np.array(list(posterior)), bets)
        assert np.abs(filt.price() - exact).max() < (1e-12 if k == 0 else 1), k
        assert (np.abs(filt.price() - exact) < tolerance).all(), (k, filt.price() - exact)
        if k < len(road):
            filt.observe(road[k])


def test_a_road_no_deal_can_show_is_refused():
    with pytest.raises(ValueError, match="no deal of these cards"):
        exact_posterior((6,) + (0,) * 12, [("player", False, False, False)])  # six aces: always a tie
    with pytest.raises(ValueError, match="no particle"):
        sis_posterior((6,) + (0,) * 12, [("player", False, False, False)], particles=10, seed=1)
    with pytest.raises(ValueError, match="more coups than"):
        sis_posterior(TINY, [("banker", False, False, True)] * 3, particles=10, seed=1)


@pytest.fixture(scope="module")
def four_shoes():
    return simulate_records(4, seed=21)


def test_road_edges_are_reproducible_shoe_by_shoe(four_shoes):
    edges = road_edges(four_shoes, ["banker", "dragon7"], particles=40, seed=3)
    assert edges.height == four_shoes.coups.height
    assert edges.equals(road_edges(four_shoes, ["banker", "dragon7"], particles=40, seed=3))
    one = road_edges(four_shoes, ["banker", "dragon7"], particles=40, seed=3, shoes=[3])
    assert one.equals(edges.filter(pl.col("shoe") == 3))  # shoe i draws from child i of the seed, whatever is asked
    assert not edges.equals(road_edges(four_shoes, ["banker", "dragon7"], particles=40, seed=4))
    firsts = edges.filter(pl.col("coup") == 1)  # before the first coup: the fresh shoe's exact edges
    fresh = bt.expected_values([[32] * 13], ["banker", "dragon7"])[0]
    assert np.allclose(firsts.select("edge_banker", "edge_dragon7").to_numpy(), fresh, atol=1e-12)


def test_the_counters_are_scored_by_what_the_coups_paid(four_shoes):
    """Betting every coup, the Bayes counter wins what the coups paid (read from the winners here) and expects
    the sum of their exact edges; betting none, nothing; the card counter bets the coups of positive edge."""
    frame = replay_records(four_shoes, bets=["banker", "tie"]).filter(pl.col("shoe") >= 3)  # the scored half
    paid = {
        "banker": frame["winner"].replace_strict({"banker": 0.95, "player": -1.0, "tie": 0.0}).to_numpy(),
        "tie": frame["winner"].replace_strict({"banker": -1.0, "player": -1.0, "tie": 8.0}).to_numpy(),
    }
    every = scoreboard_shoes(four_shoes, ["banker", "tie"], particles=20, margin=-np.inf, seed=1)
    none = scoreboard_shoes(four_shoes, ["banker", "tie"], particles=20, margin=np.inf, seed=1)
    for bet in ("banker", "tie"):
        mine = every.filter((pl.col("bet") == bet) & (pl.col("counter") == "bayes"))
        assert mine["bets"].sum() == frame.height
        assert mine["won"].sum() == pytest.approx(paid[bet].sum())
        assert mine["expected"].sum() == pytest.approx(frame[f"ev_{bet}"].sum())
        assert none.filter((pl.col("bet") == bet) & (pl.col("counter") == "bayes"))["bets"].sum() == 0
        cards = every.filter((pl.col("bet") == bet) & (pl.col("counter") == "cards"))
        positive = frame[f"ev_{bet}"].to_numpy() > 0
        assert cards["bets"].sum() == positive.sum()
        assert cards["won"].sum() == pytest.approx(paid[bet][positive].sum())


def test_the_leak_summarises_the_shoes_reproducibly(four_shoes):
    leak = scoreboard_leak(four_shoes, ["dragon7"], particles=20, seed=5)
    assert leak["counter"].to_list() == ["cards", "bayes", "bayes_bound", "regression"]
    assert leak.equals(scoreboard_leak(four_shoes, ["dragon7"], particles=20, seed=5))
    shoes = scoreboard_shoes(four_shoes, ["dragon7"], particles=20, seed=5)
    for row in leak.iter_rows(named=True):
        mine = shoes.filter(pl.col("counter") == row["counter"])
        assert row["expected_per_shoe"] == pytest.approx(mine["expected"].mean())
        assert row["bets_per_shoe"] == pytest.approx(mine["bets"].mean())
        assert row["expected_low"] <= row["expected_per_shoe"] <= row["expected_high"]
    assert scoreboard_leak(four_shoes, ["dragon7"], particles=0)["counter"].to_list() == ["cards", "regression"]


def test_the_scoreboard_gives_a_counter_little_next_to_the_cards():
    leak = scoreboard_leak(simulate_records(200, seed=12), bets=["dragon7", "banker"], particles=0)
    d7 = {r["counter"]: r for r in leak.filter(pl.col("bet") == "dragon7").iter_rows(named=True)}
    assert d7["cards"]["expected_per_shoe"] > 0.3  # a counter who sees every card: about +0.6 units a shoe (Jacobson)
    assert d7["regression"]["expected_per_shoe"] < d7["cards"]["expected_per_shoe"] / 4


@pytest.mark.slow
def test_on_eight_deck_shoes_the_edge_given_the_road_is_calibrated_and_almost_never_worth_a_bet():
    """100 eight-deck shoes, 250 particles: the edge given the road is the exact edge's conditional expectation
    given the road, so the exact edge less it averages zero over coups 1 to 70 (where every shoe is still dealing):
    within four standard errors of the per-shoe sums, for Dragon 7 and Player Pair (a false failure below 1e-4
    each, by a normal approximation).  Then the leak on 200 shoes (100 scored): the card counter expects over
    +0.3 units a shoe on Dragon 7 (+0.71 measured on 1,000 shoes, standard error 0.12 on 100: a false failure near
    2e-4), the Bayes counter bets fewer than one coup in ten shoes and expects less than 0.02."""
    records = simulate_records(100, seed=31)
    edges = road_edges(records, ["dragon7", "player_pair"], particles=250, seed=31)
    exact = replay_records(records, bets=["dragon7", "player_pair"]).select(
        "shoe", "coup", "ev_dragon7", "ev_player_pair"
    )
    both = edges.join(exact, on=["shoe", "coup"]).filter(pl.col("coup") <= 70)
    for bet in ("dragon7", "player_pair"):
        per_shoe = both.group_by("shoe").agg((pl.col(f"ev_{bet}") - pl.col(f"edge_{bet}")).sum())[f"ev_{bet}"]
        assert abs(per_shoe.mean()) < 4 * per_shoe.std() / np.sqrt(per_shoe.len()), bet
    leak = scoreboard_leak(simulate_records(200, seed=32), ["dragon7"], particles=250, seed=32)
    rows = {r["counter"]: r for r in leak.iter_rows(named=True)}
    assert rows["cards"]["expected_per_shoe"] > 0.3
    assert rows["bayes"]["bets_per_shoe"] < 0.1
    assert rows["bayes"]["expected_per_shoe"] < 0.02
    assert rows["bayes_bound"]["expected_per_shoe"] < 0.02
