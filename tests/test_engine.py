"""The exact engine against the independent oracle (``tests/reference_enumerator.py``).

The oracle deals every card sequence one chance node at a time and applies the
rulebook tableau; the engine evaluates precomputed polynomial tables.  They
share no code, so agreement on random shoes is strong evidence for both.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference_enumerator import PAIR_BETS, coup_distribution, expected_value, full_shoe
from strategies import (
    compositions,
    few_zero_compositions,
    no_zero_compositions,
    partial_shoes,
    rank_batches,
    scaled,
    small_compositions,
)

from toolkit.bets.paytable import bet_stats
from toolkit.coup.outcome import outcomes
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.exact._kernels import LANES
from toolkit.exact._tables import coup_table, multiset_index, multisets, used_sequences, value_sequences
from toolkit.exact.engine import (
    as_rank_matrix,
    combination_counts,
    compiled_bets,
    distribution,
    main_probabilities,
    pair_probabilities,
    paytable_expected_values,
    zero_pair_probabilities,
)

TOL = 1e-12

#: Small shoes of every kind the zero-rank pair logic of ``_tables.py`` must survive.
SMALL_SHOES = st.one_of(
    small_compositions(),
    small_compositions(max_distinct=3),
    no_zero_compositions(),
    few_zero_compositions(),
    small_compositions(ranks=(0, 8, 9, 10, 11, 12)),  # aces, nines and all four zero ranks: many naturals and pairs
)


def engine_mapping(shoe, exact: bool, tableau=PUNTO_BANCO) -> dict[tuple, object]:
    """The engine's distribution keyed like the oracle's, impossible classes dropped."""
    p = distribution(list(shoe), tableau, exact=exact)
    return {
        (o.player_total, o.banker_total, o.player_cards, o.banker_cards, o.player_pair, o.banker_pair): q
        for q, o in zip(p, outcomes(), strict=True)
        if q
    }


def oracle_mapping(shoe, exact: bool) -> dict[tuple, object]:
    return {tuple(c): p for c, p in coup_distribution(shoe, exact).items()}


def max_abs_difference(a: dict, b: dict) -> float:
    return max(abs(float(a.get(k, 0)) - float(b.get(k, 0))) for k in set(a) | set(b))


# ------------------------------------------------------------------ exact path
@given(SMALL_SHOES)
@settings(max_examples=scaled(80), deadline=None)
@example((0,) * 9 + (6, 0, 0, 0))  # six tens: both hands a zero pair, both draw
@example((0,) * 9 + (2, 2, 1, 1))  # only zero-valued cards, mixed ranks (beta term)
@example((0,) * 9 + (3, 1, 1, 1))
@example((1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0))  # a single ten
@example((2, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0))  # three zero cards of three ranks
@example((3,) * 9 + (0, 0, 0, 0))  # no zero-valued card
def test_exact_distribution_equals_oracle(shoe):
    assert engine_mapping(shoe, exact=True) == oracle_mapping(shoe, exact=True)


@pytest.mark.parametrize(
    "shoe",
    [
        (0,) * 9 + (1, 1, 1, 3),  # two zero ranks in one hand, one rank left over
        (0,) * 9 + (4, 4, 0, 0),  # two pairs of zero cards, two ranks
        (1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0),  # an ace among zero cards: Player/Banker 1-0 hands
        (0, 0, 0, 0, 0, 0, 0, 2, 2, 1, 1, 1, 1),  # eights and nines with four single zero ranks
    ],
)
def test_exact_distribution_zero_pair_corner_cases(shoe):
    assert engine_mapping(shoe, exact=True) == oracle_mapping(shoe, exact=True)


@given(SMALL_SHOES)
@settings(max_examples=scaled(40), deadline=None)
def test_exact_probabilities_sum_to_one(shoe):
    assert sum(distribution(list(shoe), exact=True)) == 1
    assert sum(main_probabilities(list(shoe), exact=True)) == 1


@given(SMALL_SHOES)
@settings(max_examples=scaled(30), deadline=None)
def test_combination_counts_are_ordered_six_card_deals(shoe):
    counts = combination_counts(list(shoe))
    n = sum(shoe)
    assert counts["total"] == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert counts["player"] + counts["banker"] + counts["tie"] == counts["total"]
    dist = coup_distribution(shoe, exact=True)
    p_banker = sum((p for c, p in dist.items() if c.banker_total > c.player_total), Fraction(0))
    p_tie = sum((p for c, p in dist.items() if c.banker_total == c.player_total), Fraction(0))
    assert Fraction(counts["banker"], counts["total"]) == p_banker
    assert Fraction(counts["tie"], counts["total"]) == p_tie


@given(SMALL_SHOES)
@settings(max_examples=scaled(30), deadline=None)
def test_zero_pair_probabilities_are_the_chance_two_zero_cards_match(shoe):
    alpha, beta = zero_pair_probabilities(list(shoe), exact=True)
    zeros = shoe[9:]
    z = sum(zeros)
    # alpha: two zero cards dealt in order share a rank; beta: cards 1=2 and 3=4 in four ordered zero cards.
    pairs = [(a, b) for a in range(4) for b in range(4)]
    ways2 = sum(zeros[a] * (zeros[b] - (a == b)) for a, b in pairs)
    same2 = sum(zeros[a] * (zeros[a] - 1) for a in range(4))
    assert alpha == (Fraction(same2, ways2) if ways2 else 0)
    assert ways2 == z * (z - 1)
    num = 0
    for a in range(4):
        for b in range(4):
            left = list(zeros)
            ways = left[a] * (left[a] - 1)
            left[a] -= 2
            if min(left) < 0:
                continue
            num += ways * left[b] * (left[b] - 1)
    den = z * (z - 1) * (z - 2) * (z - 3)
    assert beta == (Fraction(num, den) if den else 0)
    alpha_f, beta_f = zero_pair_probabilities(list(shoe))
    assert alpha_f == pytest.approx(float(alpha), abs=TOL)
    assert beta_f == pytest.approx(float(beta), abs=TOL)


# ------------------------------------------------------------------ float paths
@given(shoe=compositions())
@settings(max_examples=scaled(12), deadline=None)
def test_float_distribution_and_panel_agree_with_oracle(shoe, panel, reference_panel):
    oracle = oracle_mapping(shoe, exact=False)
    assert max_abs_difference(engine_mapping(shoe, exact=False), oracle) < TOL
    ev = paytable_expected_values(np.array([shoe]), panel)[0]
    for bet, value in zip(panel, ev, strict=True):
        assert value == pytest.approx(expected_value(reference_panel[bet.name], shoe, exact=False), abs=TOL), bet.name


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_full_shoes_agree_with_oracle(decks, panel, reference_panel):
    shoe = full_shoe(decks)
    oracle = oracle_mapping(shoe, exact=False)
    assert max_abs_difference(engine_mapping(shoe, exact=False), oracle) < TOL
    ev = paytable_expected_values(np.array([shoe]), panel)[0]
    for bet, value in zip(panel, ev, strict=True):
        assert value == pytest.approx(expected_value(reference_panel[bet.name], shoe, exact=False), abs=TOL), bet.name


def test_depleted_eight_deck_shoe_agrees_with_oracle(panel, reference_panel):
    # 8 decks with the small cards 4-7 stripped heavily and no queens: far from any symmetric shoe.
    shoe = (32, 32, 32, 5, 3, 2, 9, 32, 32, 32, 20, 0, 31)
    oracle = oracle_mapping(shoe, exact=False)
    assert max_abs_difference(engine_mapping(shoe, exact=False), oracle) < TOL
    ev = paytable_expected_values(np.array([shoe]), panel)[0]
    for bet, value in zip(panel, ev, strict=True):
        assert value == pytest.approx(expected_value(reference_panel[bet.name], shoe, exact=False), abs=TOL), bet.name


@given(compositions())
@settings(max_examples=scaled(40), deadline=None)
def test_float_probabilities_sum_to_one(shoe):
    assert float(np.sum(distribution(list(shoe)))) == pytest.approx(1.0, abs=TOL)
    assert float(np.sum(main_probabilities(list(shoe)))) == pytest.approx(1.0, abs=TOL)


@given(compositions())
@settings(max_examples=scaled(25), deadline=None)
def test_float_path_equals_exact_path(shoe):
    exact = np.array([float(p) for p in distribution(list(shoe), exact=True)])
    assert np.max(np.abs(distribution(list(shoe)) - exact)) < TOL


@given(shoes=rank_batches(max_size=4))
@settings(max_examples=scaled(8), deadline=None)
def test_batch_expected_values_equal_exact_bet_stats(shoes, panel):
    ev = paytable_expected_values(shoes, panel)
    assert ev.shape == (len(shoes), len(panel))
    for row, shoe in zip(ev, shoes, strict=True):
        for value, bet in zip(row, panel, strict=True):
            assert value == pytest.approx(float(bet_stats(bet, shoe.tolist()).exact_expected_value), abs=TOL), bet.name


@given(shoes=rank_batches(min_size=33, max_size=70))
@settings(max_examples=scaled(5), deadline=None)
def test_batch_rows_do_not_depend_on_their_neighbours(shoes, panel):
    # the batched kernel works in blocks of shoes; each row must equal the shoe evaluated alone
    ev = paytable_expected_values(shoes, panel)
    for i in (0, 31, 32, len(shoes) - 1):
        assert np.allclose(ev[i], paytable_expected_values(shoes[i : i + 1], panel)[0], rtol=0, atol=1e-14)


def test_rows_across_kernel_blocks_equal_single_shoes(panel):
    # the event kernel works on blocks of LANES shoes; the rows at the block edges must equal the shoes alone
    rng = np.random.default_rng(11)
    full = np.full(13, 32)
    n = 2 * LANES + 45
    shoes = np.array([rng.multivariate_hypergeometric(full, k) for k in rng.integers(6, 417, size=n)])
    ev = paytable_expected_values(shoes, panel, exact_signs=False)
    for i in (0, LANES - 1, LANES, 2 * LANES - 1, 2 * LANES, n - 1):
        assert np.allclose(
            ev[i], paytable_expected_values(shoes[i : i + 1], panel, exact_signs=False)[0], rtol=0, atol=1e-14
        )


def test_the_walk_visits_every_weighted_multiset_after_its_parent(panel):
    # pre-order: the parent of each node is the last node visited one level up, which the kernel's stack holds
    ms = multisets()
    walk = compiled_bets(tuple(panel)).events.walk
    last = {0: 0}
    for node, level in zip(walk.multiset.tolist(), walk.level.tolist(), strict=True):
        assert ms.size[node] == level
        assert last[level - 1] == ms.parent[node]
        last[level] = node
    table = coup_table(PUNTO_BANCO)
    events = compiled_bets(tuple(panel)).events
    weighted = set(table.mset[events.entry_event != events.reference].tolist())
    assert weighted <= set(walk.multiset.tolist())  # every multiset that weighs on a kept event is visited
    assert len(walk.multiset) < len(ms.parent)  # and the subtrees that reach none are pruned


@given(shoes=rank_batches(max_size=20))
@settings(max_examples=scaled(20), deadline=None)
def test_value_and_rank_inputs_agree_for_non_pair_bets(shoes, panel):
    values = np.concatenate([shoes[:, 9:].sum(axis=1, keepdims=True), shoes[:, :9]], axis=1)
    assert values.shape == (len(shoes), 10)
    by_rank = paytable_expected_values(shoes, panel)
    by_value = paytable_expected_values(values, panel)
    for i, bet in enumerate(panel):
        if bet.name not in PAIR_BETS:
            assert np.max(np.abs(by_rank[:, i] - by_value[:, i])) < TOL, bet.name


def test_value_input_splits_zero_cards_evenly_for_pair_bets(panel):
    values = np.array([[7, 3, 3, 3, 3, 3, 3, 3, 3, 3], [128] + [32] * 9])
    ranks = as_rank_matrix(values)
    assert ranks[0, 9:].tolist() == [2, 2, 2, 1]
    assert ranks[1, 9:].tolist() == [32, 32, 32, 32]
    assert np.array_equal(paytable_expected_values(values, panel), paytable_expected_values(ranks, panel))


def test_pair_bets_see_ranks_not_values(reference_panel):
    # same values, different ranks among the zero cards: the pair odds differ, and both match the oracle
    from toolkit.bets.paytable import get_bet

    tens_only = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8, 0, 0, 0)
    mixed = (2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
    ev = paytable_expected_values(np.array([tens_only, mixed]), [get_bet("player_pair"), get_bet("banker")])
    assert ev[0, 0] > ev[1, 0]
    assert ev[0, 1] == pytest.approx(ev[1, 1], abs=TOL)
    for row, shoe in zip(ev, (tens_only, mixed), strict=True):
        assert row[0] == pytest.approx(expected_value(reference_panel["player_pair"], shoe, exact=False), abs=TOL)


# Bets that mix the pair flags with the rest of the coup: the batched path needs the zero-pair odds alpha and
# beta for them (the panel's pair bets look at the flags only and take a closed form instead).
def both_pairs_and_tie(c) -> object:
    return 200 if c.player_pair and c.banker_pair and c.player_total == c.banker_total else -1


def player_pair_and_player_wins(c) -> object:
    return 20 if c.player_pair and c.player_total > c.banker_total else -1


def banker_pair_or_three_cards(c) -> object:
    return 3 if c.banker_pair or c.banker_cards == 3 else -1


MIXED_PAIR_BETS = (both_pairs_and_tie, player_pair_and_player_wins, banker_pair_or_three_cards)


def mixed_pair_bets():
    from toolkit.bets.paytable import PayTable

    return [PayTable.from_function(fn.__name__, fn) for fn in MIXED_PAIR_BETS]


@given(shoe=st.one_of(SMALL_SHOES, small_compositions(ranks=(9, 10, 11, 12, 0, 4)), partial_shoes(max_decks=2)))
@settings(max_examples=scaled(30), deadline=None)
@example(shoe=(0,) * 9 + (3, 3, 2, 2))
@example(shoe=(1, 0, 0, 0, 0, 1, 0, 0, 0, 2, 2, 1, 1))
def test_bets_mixing_pairs_and_totals_agree_with_oracle(shoe):
    bets = mixed_pair_bets()
    ev = paytable_expected_values(np.array([shoe]), bets)[0]
    for value, bet, fn in zip(ev, bets, MIXED_PAIR_BETS, strict=True):
        assert value == pytest.approx(expected_value(fn, shoe, exact=False), abs=TOL), bet.name
        if sum(shoe) <= 20:
            assert bet_stats(bet, list(shoe)).exact_expected_value == expected_value(fn, shoe), bet.name


@given(partial_shoes(max_decks=8))
@settings(max_examples=scaled(30), deadline=None)
def test_pair_probabilities_closed_form(shoe):
    # (no pair, Banker pair only, Player pair only, both) against counting ordered rank pairs directly
    n = np.array(shoe, dtype=float)
    total = n.sum()
    p_pair = float(np.sum(n * (n - 1)) / (total * (total - 1)))
    probs = pair_probabilities(np.array([shoe]))[0]
    assert probs.sum() == pytest.approx(1.0, abs=TOL)
    assert probs[2] + probs[3] == pytest.approx(p_pair, abs=TOL)
    assert probs[1] + probs[3] == pytest.approx(p_pair, abs=TOL)


# ------------------------------------------------------------ can the tests fail?
@pytest.mark.parametrize(
    ("total", "third", "player_total"),
    [(3, 8, None), (6, None, None), (5, 3, None), (4, 1, None), (7, 7, None), (None, None, 5), (None, None, 6)],
)
def test_a_single_flipped_tableau_cell_is_noticed(total, third, player_total):
    # guards the guard: the comparison with the oracle must see one changed rule on a 1-deck shoe
    if player_total is None:
        tableau = PUNTO_BANCO.with_banker(total, third, not PUNTO_BANCO.banker_draws(total, third))
    else:
        tableau = PUNTO_BANCO.with_player(player_total, not PUNTO_BANCO.player_draws(player_total))
    shoe = full_shoe(1)
    assert max_abs_difference(engine_mapping(shoe, exact=False, tableau=tableau), oracle_mapping(shoe, False)) > 1e-6


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize("cards", [0, 1, 5])
def test_fewer_than_six_cards_is_refused(cards):
    shoe = [0] * 13
    shoe[0] = cards
    with pytest.raises(ValueError, match="may need six"):
        distribution(shoe)
    with pytest.raises(ValueError, match="may need six"):
        distribution(shoe, exact=True)
    with pytest.raises(ValueError, match="may need six"):
        combination_counts(shoe)
    with pytest.raises(ValueError, match=r"shoe 1 .*may need six"):
        paytable_expected_values(np.array([[4] * 13, shoe]), [])


def test_negative_counts_are_refused():
    bad = np.array([[4] * 13, [4] * 12 + [-1]])
    with pytest.raises(ValueError, match="non-negative"):
        as_rank_matrix(bad)
    with pytest.raises(ValueError, match="negative"):
        distribution([4] * 12 + [-1])


def test_six_card_shoe_is_enough():
    shoe = (0,) * 9 + (6, 0, 0, 0)
    assert sum(distribution(list(shoe), exact=True)) == 1


#: Tableaux beyond punto banco: every third card drawn, none, and one with changed cells.
OTHER_TABLEAUX = (
    Tableau(player=[True] * 10, banker=[[True] * 11] * 10, name="always draw"),
    Tableau(player=[False] * 10, banker=[[False] * 11] * 10, name="never draw"),
    Tableau().with_banker(3, 8, True).with_banker(6, None, True).with_banker(0, 4, False),
)


def _coup_table_from_all_sequences(tableau: Tableau) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The former construction, the oracle: play all 10**6 six-value sequences, keep one per used sequence."""
    seq = value_sequences(tableau)
    k = seq.used
    keep = ((k >= 5) | (seq.cards[4] == 0)) & ((k >= 6) | (seq.cards[5] == 0))
    key = seq.ext[keep] * len(multisets().codes) + multiset_index(seq.code_used[keep])
    uniq, count = np.unique(key, return_counts=True)
    return uniq // len(multisets().codes), uniq % len(multisets().codes), count


@pytest.mark.parametrize("tableau", [PUNTO_BANCO, *OTHER_TABLEAUX], ids=lambda t: t.name)
def test_coup_table_by_recursion_equals_playing_every_sequence(tableau):
    seq = value_sequences(tableau)
    k = seq.used
    keep = ((k >= 5) | (seq.cards[4] == 0)) & ((k >= 6) | (seq.cards[5] == 0))
    used = used_sequences(tableau)
    assert np.array_equal(used.cards, seq.cards[:, keep])  # same sequences, same (lexicographic) order
    assert np.array_equal(used.ext, seq.ext[keep])
    assert np.array_equal(used.used, k[keep])
    assert np.array_equal(used.code_used, seq.code_used[keep])
    ext, mset, count = _coup_table_from_all_sequences(tableau)
    table = coup_table(tableau)
    assert np.array_equal(table.ext, ext)
    assert np.array_equal(table.mset, mset)
    assert np.array_equal(table.count, count)
    if tableau == PUNTO_BANCO:
        assert len(used.ext) == 339_400  # the used sequences of punto banco, as value_sequence_table documents
