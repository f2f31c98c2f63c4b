"""Signs that are never wrong: the float path's error bound and the exact settling inside it.

Every expectation is compared with the exact Fraction path (``distribution(exact=True)``
dotted with the exact pay tables) and, on small shoes, with the independent oracle
``tests/reference_enumerator.py``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference_enumerator import expected_value, standard_payouts
from strategies import compositions, partial_shoes, scaled, small_compositions

from toolkit.bets.paytable import PayTable, get_bet, standard_bets
from toolkit.bets.pricing import expected_values
from toolkit.coup.rules import PUNTO_BANCO
from toolkit.exact._exact_sign import ExactBets, as_exact, slow_general
from toolkit.exact._kernels import pair_split
from toolkit.exact._tables import coup_table, multisets
from toolkit.exact.engine import CompiledBets, compiled_bets, distribution

#: Shoes whose exact expectation of the named bet is 0, found by searching random small shoes
#: (6-20 cards of one deck) and random depleted 8-deck shoes; the float path gives them noise.
EXACT_ZEROS = [
    ("player", (0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 2, 2)),  # the float path's +4.8e-16 of the issue
    ("player", (0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 2, 0, 1)),
    ("banker", (1, 1, 0, 1, 0, 0, 0, 2, 1, 0, 0, 0, 0)),
    ("banker", (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 1)),
    ("tie", (1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0)),
    ("tie_9to1", (1, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 1)),
    ("ez_banker", (0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 2, 0, 1)),
    ("super6_banker", (2, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0)),
    ("dragon_bonus_player", (1, 0, 0, 0, 0, 1, 0, 0, 2, 2, 0, 0, 0)),
    ("dragon_bonus_banker", (1, 0, 0, 0, 0, 1, 0, 0, 3, 1, 0, 0, 0)),
    ("small", (0, 1, 1, 0, 2, 0, 1, 0, 1, 0, 0, 0, 0)),
    ("big", (1, 0, 0, 1, 2, 2, 1, 2, 0, 1, 3, 1, 0)),
    ("natural8", (2, 0, 1, 0, 2, 1, 1, 1, 0, 2, 1, 2, 3)),
    ("natural9", (1, 2, 0, 1, 1, 3, 1, 1, 2, 1, 2, 1, 0)),
    ("natural9", (4, 4, 1, 1, 4, 2, 5, 5, 3, 1, 4, 3, 4)),  # 41 cards of an 8-deck shoe
    ("player_pair", (1, 1, 0, 2, 0, 0, 0, 1, 0, 0, 2, 2, 0)),
    ("banker_pair", (0, 0, 1, 0, 1, 0, 0, 2, 2, 0, 0, 2, 1)),
    ("either_pair", (1, 1, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0)),
]


def exact_panel(shoe, bets) -> list[Fraction]:
    """The exact path: one rational distribution dotted with each bet's exact pay table."""
    p = distribution(list(shoe), exact=True)
    support = [(i, q) for i, q in enumerate(p) if q]
    return [sum((q * bet.payoffs[i] for i, q in support), Fraction(0)) for bet in bets]


def sign(x) -> int:
    return int(x > 0) - int(x < 0)


# Bets that mix the pair flags with totals (they need the zero-pair odds alpha and beta) and one with payouts
# that no float holds exactly.
def both_pairs_and_tie(c) -> object:
    return 200 if c.player_pair and c.banker_pair and c.player_total == c.banker_total else -1


def banker_pair_or_three_cards(c) -> object:
    return Fraction(3, 7) if c.banker_pair or c.banker_cards == 3 else Fraction(-1, 3)


def mixed_bets() -> list[PayTable]:
    return [PayTable.from_function(fn.__name__, fn) for fn in (both_pairs_and_tie, banker_pair_or_three_cards)]


SHOES = st.one_of(small_compositions(), small_compositions(max_distinct=3), partial_shoes(max_decks=8), compositions())


@pytest.mark.parametrize(("name", "shoe"), EXACT_ZEROS)
def test_exact_zeros_come_out_as_zero(name, shoe, reference_panel):
    bet = get_bet(name)
    assert exact_panel(shoe, [bet]) == [0]
    if sum(shoe) <= 20:
        assert expected_value(reference_panel[name], shoe) == 0  # the independent oracle agrees
    plain = expected_values([shoe], [bet], exact_signs=False)[0, 0]
    assert abs(plain) <= compiled_bets((bet,)).bounds[0]  # rounding noise, within the bound
    assert expected_values([shoe], [bet])[0, 0] == 0.0
    panel = standard_bets()
    assert expected_values([shoe], panel)[0, [b.name for b in panel].index(name)] == 0.0


def test_float_path_does_make_noise_where_the_exact_value_is_zero():
    # guards the guard: without exact signs some of those zeros are not zeros
    plain = [expected_values([shoe], [get_bet(name)], exact_signs=False)[0, 0] for name, shoe in EXACT_ZEROS]
    assert sum(x != 0 for x in plain) >= 10


@given(shoe=SHOES)
@settings(max_examples=scaled(25), deadline=None)
@example(shoe=(0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 2, 2))
@example(shoe=(0,) * 9 + (6, 0, 0, 0))
def test_float_error_is_within_the_bound_and_signs_are_exact(shoe):
    bets = [*standard_bets(), *mixed_bets()]
    exact = exact_panel(shoe, bets)
    plain = expected_values([shoe], bets, exact_signs=False)[0]
    settled = expected_values([shoe], bets)[0]
    bounds = compiled_bets(tuple(bets)).bounds
    for bet, q, f, s, bound in zip(bets, exact, plain, settled, bounds, strict=True):
        assert abs(Fraction(f) - q) <= Fraction(bound), bet.name
        assert sign(s) == sign(q), bet.name
        assert abs(s - float(q)) < 1e-12, bet.name
        if abs(f) <= bound:
            assert s == float(q), bet.name


@given(shoe=small_compositions(max_cards=14))
@settings(max_examples=scaled(20), deadline=None)
def test_integer_paths_equal_the_oracle(shoe):
    # the event counts in int64 and the multiset-by-multiset Python integers, against the oracle
    bets = [get_bet(n) for n in ("banker", "player", "tie", "dragon_bonus_banker", "player_pair")] + mixed_bets()
    fns = [
        *(standard_payouts()[b.name] for b in bets[:5]),
        both_pairs_and_tie,
        banker_pair_or_three_cards,
    ]
    compiled = compiled_bets(tuple(bets))
    exact = ExactBets([b.payoffs for b in bets], PUNTO_BANCO, compiled)
    ranks = np.array([shoe], dtype=np.int64)
    near = np.ones((1, len(bets)), dtype=bool)
    out = np.zeros((1, len(bets)))
    exact.settle(ranks, near, out)
    oracle = [expected_value(fn, shoe) for fn in fns]
    assert out[0].tolist() == [float(q) for q in oracle]
    general = compiled.general.tolist()
    slow = slow_general(exact._nums, exact._dens, PUNTO_BANCO, list(shoe), general)
    assert slow == [oracle[i] for i in general]


def test_float_only_pay_tables_are_read_as_their_fractions():
    assert as_exact(0.95) == Fraction(19, 20)
    assert as_exact(1.5) == Fraction(3, 2)
    assert as_exact(float(Fraction(3, 7))) == Fraction(3, 7)
    assert as_exact(2.0**-60) == Fraction(1, 2**60)  # no simple fraction rounds to it: taken as it is
    # a CompiledBets built from float pay tables alone settles the same zeros as one given the fractions
    bets = [get_bet(name) for name, _ in EXACT_ZEROS[:6]]
    shoes = np.array([shoe for _, shoe in EXACT_ZEROS[:6]])
    floats_only = CompiledBets(np.array([b.payoff_array for b in bets]), PUNTO_BANCO)
    assert np.array_equal(floats_only(shoes), expected_values(shoes, bets))


def test_shoes_beyond_the_int64_range_take_the_python_integers():
    bets = [get_bet("banker"), get_bet("player_pair")]
    shoe = np.array([[120] * 13])  # 1,560 cards: (N)_6 exceeds 2**63
    compiled = CompiledBets(np.array([b.payoff_array for b in bets]), PUNTO_BANCO, [b.payoffs for b in bets])
    out = np.zeros((1, 2))
    ExactBets([b.payoffs for b in bets], PUNTO_BANCO, compiled).settle(shoe, np.ones((1, 2), dtype=bool), out)
    assert out[0].tolist() == [float(q) for q in exact_panel(shoe[0], bets)]


def test_pair_split_is_the_same_arithmetic_in_every_dtype():
    x = np.array([b.payoff_array for b in mixed_bets()]).reshape(2, 400, 2, 2)
    ext = coup_table(PUNTO_BANCO).ext
    floats = pair_split(x, ext)
    objects = pair_split(
        np.array([[Fraction(v) for v in row] for row in x.reshape(2, -1)], dtype=object).reshape(x.shape), ext
    )
    for f, o in zip(floats, objects, strict=True):
        assert np.array_equal(f, o.astype(float))
    assert len(multisets().parent) == 8008


def test_exact_zeros_decided_by_the_lattice_are_the_integer_path_s_zeros():
    # 16 of 8 decks' cards: the naturals pay 9:1 on a Banker natural 8 (9), so an edge is zero when exactly 24 of the
    # 240 ordered pairs of cards total 8 (9): tens of thousands of exact zeros, decided without integers
    from toolkit.studies._remainders import unrank_block, way_counts

    bets = tuple(get_bet(name) for name in ("player", "natural8", "natural9", "big", "player_pair"))
    compiled = compiled_bets(bets)
    caps = np.array([128] + [32] * 9)
    ways = way_counts(caps, 16)
    comps = np.empty((40_000, 10), dtype=np.int64)
    unrank_block(16, ways, 500_000, 40_000, comps)
    ranks = np.zeros((len(comps), 13), dtype=np.int64)
    ranks[:, :9], ranks[:, 9] = comps[:, 1:], comps[:, 0]
    plain = compiled(ranks, exact_signs=False)
    near = np.abs(plain) <= compiled.bounds
    exact = ExactBets([b.payoffs for b in bets], PUNTO_BANCO, compiled)
    zero = exact.lattice_zeros(ranks, near)
    assert np.array_equal(zero, near)  # 2 b (16)_6 d < 1 for every one of these bets: all decided by the lattice
    assert zero[:, 1:3].sum() > 1000
    integers = plain.copy()
    exact.settle(ranks, near, integers)  # the integer path on the same entries
    assert np.all(integers[near] == 0.0)
    assert np.array_equal(compiled(ranks), np.where(near, 0.0, plain))
    # far from the lattice's reach (a fresh shoe's spacing is below the bound) nothing is decided without integers
    fresh = np.array([[32] * 13])
    assert not exact.lattice_zeros(fresh, np.ones((1, len(bets)), dtype=bool)).any()
