"""The last cards of a shoe, exactly (:func:`toolkit.studies.last_cards.last_cards`), against an independent
enumerator: every n-card subset of a small shoe by rank, weighted by exact hypergeometric fractions, priced by the
oracle of ``tests/reference_enumerator.py`` (which imports nothing of the toolkit)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from reference_enumerator import coup_distribution, standard_payouts

from toolkit.bets.paytable import get_bet
from toolkit.studies._remainders import WEIGHT_ERROR, binomial_table, unrank_block, way_counts, weights
from toolkit.studies.last_cards import last_cards, needs_ranks, parse_cards_left

BETS = ("banker", "player", "tie", "player_pair")


def _compositions(caps: tuple[int, ...], n: int):
    """Every vector of len(caps) counts, each at most its cap, summing to n (plain recursion)."""
    if not caps:
        if n == 0:
            yield ()
        return
    for x in range(min(caps[0], n) + 1):
        for rest in _compositions(caps[1:], n - x):
            yield (x, *rest)


def _oracle(shoe: tuple[int, ...], n: int, bets=BETS) -> dict[str, dict[str, Fraction]]:
    """Exact p_positive, mean, mean_positive, p_zero per bet and for the best of them, and the fresh edges."""
    pays = standard_payouts()
    total = comb(sum(shoe), n)
    stats = {b: dict.fromkeys(("p_positive", "mean", "mean_positive", "p_zero"), Fraction(0)) for b in (*bets, "best")}
    mass = Fraction(0)
    for comp in _compositions(shoe, n):
        weight = Fraction(np.prod([comb(c, x) for c, x in zip(shoe, comp, strict=True)], dtype=object), total)
        mass += weight
        dist = coup_distribution(comp)
        edges = {b: sum((p * Fraction(pays[b](c)) for c, p in dist.items()), Fraction(0)) for b in bets}
        edges["best"] = max(edges.values())
        for b, e in edges.items():
            s = stats[b]
            s["p_positive"] += weight * (e > 0)
            s["mean"] += weight * e
            s["mean_positive"] += weight * max(e, Fraction(0))
            s["p_zero"] += weight * (e == 0)
    assert mass == 1
    fresh = coup_distribution(shoe)
    for b in bets:
        stats[b]["fresh"] = sum((p * Fraction(pays[b](c)) for c, p in fresh.items()), Fraction(0))
    return stats


# a 12-card shoe: one card of each value, a second ace and a second ten (so pairs can occur); 490 remainders of 6
SMALL = (2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0)


@pytest.mark.parametrize("n", [6])
def test_last_cards_by_rank_equal_the_independent_enumerator(n):
    exact = _oracle(SMALL, n)
    frame = last_cards(SMALL, n, BETS, by="rank", workers=1, progress=False)
    for row in frame.iter_rows(named=True):
        want = exact[row["bet"]]
        for key in ("p_positive", "mean", "mean_positive", "p_zero"):
            assert abs(row[key] - float(want[key])) <= 1e-13, (n, row["bet"], key)
        if row["bet"] != "best":
            # exchangeability, exactly: the mean edge over the n-card remainders is the full shoe's edge
            assert want["mean"] == want["fresh"]
            assert abs(row["mean_deviation"]) <= 1e-14


def test_compositions_by_value_give_the_figures_by_rank_for_bets_blind_to_pairs():
    shoe = (2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0)  # zero-valued cards of three ranks
    by_value = last_cards(shoe, "6-8", ("banker", "player", "tie"), workers=1, progress=False)
    by_rank = last_cards(shoe, "6-8", ("banker", "player", "tie"), by="rank", workers=1, progress=False)
    for key in ("p_positive", "mean", "mean_positive", "p_zero", "max_edge"):
        assert np.allclose(by_value[key], by_rank[key], rtol=0, atol=1e-14), key
    assert (by_value["compositions"] < by_rank["compositions"]).all()


def test_mean_edge_over_the_remainders_is_the_fresh_edge_exactly_for_several_n():
    shoe = (1,) * 9 + (2, 0, 0, 0)  # 11 cards (the oracle's cost grows fast with the cards of a remainder)
    for n in (6, 7, 8):
        exact = _oracle(shoe, n, bets=("banker", "tie"))
        for bet in ("banker", "tie"):
            assert exact[bet]["mean"] == exact[bet]["fresh"], (n, bet)


@pytest.mark.slow
def test_last_cards_one_deck_by_rank_at_six_cards_equal_the_independent_enumerator():
    exact = _oracle((4,) * 13, 6)
    frame = last_cards(1, 6, BETS, by="rank", workers=1, progress=False)
    for row in frame.iter_rows(named=True):
        for key in ("p_positive", "mean", "mean_positive", "p_zero"):
            assert abs(row[key] - float(exact[row["bet"]][key])) <= 1e-13, (row["bet"], key)


def test_exact_zeros_are_not_positive_and_are_decided_in_integers():
    # one deck, 6 cards by value: a remainder of six zero-valued cards ties every coup (Player's edge exactly 0)
    frame = last_cards(1, 6, ("player",), workers=1, progress=False)
    player = frame.row(0, named=True)
    assert player["p_zero"] > 0
    assert player["exact_signs"] > 0
    # the composition of six zero-valued cards alone weighs C(16, 6) / C(52, 6)
    assert player["p_zero"] >= comb(16, 6) / comb(52, 6)


def test_the_figures_do_not_depend_on_the_workers_or_the_blocks():
    one = last_cards(1, "6-7", ("banker", "tie"), workers=1, progress=False, block_size=997)
    two = last_cards(1, "6-7", ("banker", "tie"), workers=2, progress=False, block_size=997)
    big = last_cards(1, "6-7", ("banker", "tie"), workers=1, progress=False)
    assert one.equals(two)
    # other blocks sum in another order: the same figures up to rounding (relative 30 u per weight, see _remainders)
    assert np.allclose(one["p_positive"], big["p_positive"], rtol=0, atol=1e-14)


def test_compositions_are_numbered_one_to_one_and_weigh_one_in_total():
    caps = np.array([16, 4, 4, 4, 4, 4, 4, 4, 4, 4])
    n = 7
    ways = way_counts(caps, n)
    count = int(ways[0, n])
    out = np.empty((count, 10), dtype=np.int64)
    unrank_block(n, ways, 0, count, out)
    assert sorted(map(tuple, out.tolist())) == sorted(_compositions(tuple(caps.tolist()), n))
    assert len({tuple(r) for r in out.tolist()}) == count
    w = weights(out, binomial_table(caps, n), float(comb(52, n)))
    exact = [Fraction(int(np.prod([comb(c, x) for c, x in zip(caps, r, strict=True)])), comb(52, n)) for r in out]
    assert all(abs(a - float(b)) <= WEIGHT_ERROR * float(b) for a, b in zip(w, exact, strict=True))
    assert abs(w.sum() - 1) < 1e-13


def test_bets_on_pairs_need_ranks_and_bets_on_suits_are_refused():
    assert needs_ranks(get_bet("player_pair"))
    assert not needs_ranks(get_bet("tie"))
    with pytest.raises(ValueError, match="needs by='rank'"):
        last_cards(1, 6, ("player_pair",), progress=False)
    with pytest.raises(ValueError, match="suits"):
        last_cards(1, 6, ("perfect_pair",), progress=False)
    with pytest.raises(ValueError, match="at least 6"):
        parse_cards_left("4-10")
    with pytest.raises(ValueError, match="range"):
        parse_cards_left("6..10")


def _oracle_by_value(decks: int, n: int, bets: tuple[str, ...]) -> dict[str, Fraction]:
    """Exact P(edge > 0) of each bet and of the best of them over the n-card remainders of ``decks`` decks, by value
    (the zero-valued cards as tens: these bets see no pairs), every edge a Fraction of the independent oracle."""
    pays = standard_payouts()
    caps = (16 * decks,) + (4 * decks,) * 9  # values 0, 1..9
    total = comb(52 * decks, n)
    p = dict.fromkeys((*bets, "best"), Fraction(0))
    for comp in _compositions(caps, n):
        weight = Fraction(int(np.prod([comb(c, x) for c, x in zip(caps, comp, strict=True)], dtype=object)), total)
        ranks = (*comp[1:], comp[0], 0, 0, 0)
        dist = coup_distribution(ranks)
        edges = [sum((q * Fraction(pays[b](c)) for c, q in dist.items()), Fraction(0)) for b in bets]
        for b, e in zip((*bets, "best"), (*edges, max(edges)), strict=True):
            p[b] += weight * (e > 0)
    return p


@pytest.mark.slow
def test_eight_deck_figures_at_six_and_seven_cards_equal_exact_fractions_to_1e_12():
    # The docs' table (8 decks, n = 6..16) rests on this: at n = 6 and 7 (16,445 compositions) every sign and weight
    # of the float path against exact fractions; deeper the same code's error bound (30 u per weight) holds.
    bets = ("banker", "player", "tie")
    frame = last_cards(8, "6-7", bets, workers=1, progress=False)
    for n in (6, 7):
        exact = _oracle_by_value(8, n, bets)
        for row in frame.filter(frame["cards_left"] == n).iter_rows(named=True):
            assert abs(row["p_positive"] - float(exact[row["bet"]])) <= 1e-12, (n, row["bet"])
