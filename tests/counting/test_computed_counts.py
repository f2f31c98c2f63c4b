"""The computed count (toolkit.counting.computed): the identity in exact arithmetic, the count's law and the bet's
expectation given the count against brute-force enumeration, and the computed win against simulation."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb, perm

import numpy as np
import polars as pl
import pytest

from toolkit.bets.paytable import get_bet
from toolkit.bets.pricing import expected_values
from toolkit.counting import CountSystem, count_law, count_strategy, count_value, run_strategies
from toolkit.dealing.dealer import Dealing

#: A small shoe by rank: three aces, three 8s, two 9s, two tens, two jacks (12 cards, four tag groups below).
SMALL = (3, 0, 0, 0, 0, 0, 0, 3, 2, 2, 2, 0, 0)
#: Tags by rank for SMALL: four groups (ace +1, 8 -1, 9 +2, zero-valued 0).
TAGS = (1, 0, 0, 0, 0, 0, 0, -1, 2, 0, 0, 0, 0)


def _subsets(shoe: tuple[int, ...], d: int):
    """Every sub-multiset of ``d`` cards with its probability as the first ``d`` cards (hypergeometric), exact."""
    ranks = [r for r, n in enumerate(shoe) if n]
    total = comb(sum(shoe), d)
    for counts in itertools.product(*(range(shoe[r] + 1) for r in ranks)):
        if sum(counts) != d:
            continue
        ways = 1
        for r, x in zip(ranks, counts, strict=True):
            ways *= comb(shoe[r], x)
        taken = [0] * 13
        for r, x in zip(ranks, counts, strict=True):
            taken[r] = x
        yield tuple(taken), Fraction(ways, total)


def _sequence_probability(shoe: tuple[int, ...], seq: tuple[int, ...]) -> Fraction:
    """F: the probability that the next cards are the ordered ranks ``seq``."""
    num = 1
    for r in set(seq):
        num *= perm(shoe[r], seq.count(r))
    return Fraction(num, perm(sum(shoe), len(seq)))


def _count_law(shoe: tuple[int, ...], d: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for taken, p in _subsets(shoe, d):
        r = sum(t * x for t, x in zip(TAGS, taken, strict=True))
        out[r] = out.get(r, Fraction(0)) + p
    return out


@pytest.mark.parametrize("seq", [(0,), (7, 8), (9, 9, 0), (8, 10, 7, 0)])
def test_the_identity_holds_in_exact_arithmetic_for_every_depth_and_count(seq):
    # E[F_m(c_d) 1{RC_d = r}] = F_m(S) P_{S-m}(RC_d = r), by brute force over every subset of the first d cards
    for d in range(sum(SMALL) - len(seq) + 1):
        lhs: dict[int, Fraction] = {}
        for taken, p in _subsets(SMALL, d):
            left = tuple(n - x for n, x in zip(SMALL, taken, strict=True))
            r = sum(t * x for t, x in zip(TAGS, taken, strict=True))
            lhs[r] = lhs.get(r, Fraction(0)) + p * _sequence_probability(left, seq)
        less = list(SMALL)
        for c in seq:
            less[c] -= 1
        law = _count_law(tuple(less), d)
        f = _sequence_probability(SMALL, seq)
        for r in set(lhs) | set(law):
            assert lhs.get(r, 0) == f * law.get(r, 0), (seq, d, r)


@pytest.mark.parametrize("bet", ["dragon7", "player_pair", "tie", "three_giving_eight"])
def test_the_expectation_given_the_count_matches_enumeration_at_every_depth_and_count(bet):
    system = CountSystem("small", TAGS, bet="dragon7")
    law = count_law(system, bet, shoe=SMALL)
    target = get_bet(bet)
    for d in range(sum(SMALL) - 6 + 1):
        sums: dict[int, list] = {}
        subsets = list(_subsets(SMALL, d))
        shoes = np.array([[n - x for n, x in zip(SMALL, t, strict=True)] for t, _ in subsets])
        evs = expected_values(shoes, [target])[:, 0]
        for (taken, p), ev in zip(subsets, evs, strict=True):
            r = sum(t * x for t, x in zip(TAGS, taken, strict=True))
            acc = sums.setdefault(r, [0.0, 0.0])
            acc[0] += float(p)
            acc[1] += float(p) * ev
        rows = law.filter(pl.col("cards_seen") == d)
        assert sorted(rows["running_count"].to_list()) == sorted(sums)
        for r, prob, ev in rows.select("running_count", "probability", "ev").iter_rows():
            assert prob == pytest.approx(sums[r][0], abs=1e-13), (d, r)
            assert ev == pytest.approx(sums[r][1] / sums[r][0], abs=1e-11), (d, r)


def test_the_second_moment_is_the_squared_payout_priced_the_same_way():
    law = count_law("dragon7", shoe=1).filter(pl.col("cards_seen") == 0)
    d7 = get_bet("dragon7")
    p_win = (float(expected_values([1], [d7])[0, 0]) + 1) / 41  # EV = 40 p - (1 - p)
    assert law["ev2"][0] == pytest.approx(1600 * p_win + (1 - p_win), rel=1e-12)


# --------------------------------------------------------------------------------------------- against simulation
def _agree(strategy, dealing, shoes, seed):
    (sim,) = run_strategies([strategy], shoes, dealing, seed=seed, workers=1, progress=False)
    computed = count_value(strategy, dealing)
    return sim, computed


#: z for the simulation comparisons: 4 standard errors, a false failure about 6e-5 per comparison.
Z = 4.0


@pytest.mark.parametrize(
    "dealing",
    [
        Dealing(decks=1),
        Dealing(decks=1, burn="none"),
        Dealing(decks=1, burn="fixed", burn_cards=5),
        Dealing(decks=1, last_hand="finish"),
        Dealing(decks=1, last_hand="seven_cards"),
        Dealing(decks=1, last_hand="two_more_if_first"),
    ],
    ids=["standard", "no-burn", "hidden-burns", "finish", "seven-cards", "two-more-if-first"],
)
def test_the_computed_win_agrees_with_a_card_by_card_simulation_of_a_one_deck_shoe(dealing):
    sim, computed = _agree(count_strategy("dragon7", threshold=2), dealing, 6_000, seed=31)
    ev = sim.units_per_shoe_ev
    se = (ev.high - ev.low) / (2 * 1.959963984540054)
    assert abs(computed.units_per_shoe_ev - ev.value) <= Z * se
    hands = sim.hands_per_shoe
    se_h = (hands.high - hands.low) / (2 * 1.959963984540054)
    assert abs(computed.hands_per_shoe - hands.value) <= Z * se_h + 1e-9


def test_the_unseen_card_divisor_agrees_with_simulation():
    system = CountSystem("d7u", (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), divisor="unseen", bet="dragon7")
    sim, computed = _agree(count_strategy(system, threshold=2), Dealing(decks=1), 6_000, seed=32)
    ev = sim.units_per_shoe_ev
    assert abs(computed.units_per_shoe_ev - ev.value) <= Z * (ev.high - ev.low) / 3.92


@pytest.mark.parametrize("estimate", ["half_deck", "whole_deck"])
@pytest.mark.parametrize("divisor", ["decks_left", "unseen"])
def test_the_chain_reads_the_true_count_of_the_tallies(estimate, divisor):
    # the compiled chain's true count against toolkit.counting.tallies' (the rule's one Python implementation)
    from toolkit.counting._computed_kernels import _count_at
    from toolkit.counting.tallies import estimated_decks, round_count

    full, cards = 416, 415
    for rounding in ("none", "floor", "truncate", "nearest"):
        code = (0 if divisor == "decks_left" else 1) + 2 * ("exact", "half_deck", "whole_deck").index(estimate)
        config = np.zeros(16, dtype=np.int64)
        config[2], config[7], config[8] = cards, code, 52
        config[9] = ("none", "floor", "truncate", "nearest").index(rounding)
        for d in range(0, 410, 7):
            left = full - d - 1
            div = left if divisor == "decks_left" else cards - d
            for rc in range(-40, 41, 3):
                want = round_count(np.array([rc / estimated_decks(np.array([div]), estimate)[0]]), rounding)[0]
                assert _count_at(rc, d, left, config, 0) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("estimate", ["half_deck", "whole_deck"])
def test_estimated_decks_agree_with_simulation(estimate):
    system = CountSystem("d7e", (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), deck_estimate=estimate, bet="dragon7")
    sim, computed = _agree(count_strategy(system, threshold=2), Dealing(decks=2), 4_000, seed=33)
    ev = sim.units_per_shoe_ev
    assert abs(computed.units_per_shoe_ev - ev.value) <= Z * (ev.high - ev.low) / 3.92
    exact = count_value(count_strategy(system.with_(deck_estimate="exact"), threshold=2), Dealing(decks=2))
    assert computed.units_per_shoe_ev != exact.units_per_shoe_ev  # the estimate changes the bets


# --------------------------------------------------------------------------------------------- bad input
def test_a_count_whose_tags_explode_the_range_is_refused_in_one_line():
    system = CountSystem("huge", (900, -900, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), bet="dragon7", threshold=1)
    with pytest.raises(ValueError, match=r"too large for the computed method") as err:
        count_value(system)
    assert "\n" not in str(err.value)


def test_a_threshold_never_reached_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"never reaches") as err:
        count_value("dragon7", Dealing(decks=1), threshold=1000)
    assert "\n" not in str(err.value)


def test_a_bet_on_the_first_cards_ranks_and_suits_is_priced():
    # prefix patterns (and label events) are priced since the identity holds for sequences of ranks
    # (tests/counting/test_computed_labels.py checks their weights against the engine)
    value = count_value("dragon7", Dealing(decks=2), bet="perfect_pair", threshold=-2)
    assert value.bets_per_shoe > 0
    assert -1 < value.mean_edge < 0


def test_tags_that_split_the_zero_valued_ranks_are_refused():
    system = CountSystem("split", (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 0, 0), bet="dragon7", threshold=1)
    with pytest.raises(ValueError, match=r"one tag per value"):
        count_value(system, Dealing(decks=1))
