"""Baccarat banque: the exact kernel against a naive enumerator, chemin de fer and simulation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import next_cards, value_shoes
from strategies import value_hand as hand

from toolkit.coup.cards import Composition
from toolkit.games import (
    BankerStrategy,
    BanqueBanker,
    PlayerStrategy,
    banque_banker_best_response,
    banque_tableau_banker,
    banque_value,
    chemin_value,
    simulate_banque_coups,
    simulate_banque_shoes,
)


def reference_banque(counts, right, left, banker, replacement=False):
    """(3, 3) Fractions: P(right result, left result), dealing card by card by the published rules of banque.

    ``right``/``left``: 55 Fractions (probability of drawing by hand); ``banker``: a function
    ``(hand, right_column, left_column) -> Fraction``.  Results: 0 Banker wins, 1 Player wins, 2 tie.
    """
    counts = list(counts)
    out = [[Fraction(0)] * 3 for _ in range(3)]

    def cards():
        return next_cards(counts, replacement)

    def res(b, p):
        return 0 if b > p else 1 if p > b else 2

    def play_hand(t, prob):
        """Branches (weight, column, final total) of a non-natural hand, taking its card when it draws."""
        if prob:
            for c, wc in cards():
                yield prob * wc, c, (t + c) % 10
        if prob != 1:
            yield 1 - prob, 10, t

    for r1, w1 in cards():
        for l1, w2 in cards():
            for b1, w3 in cards():
                for r2, w4 in cards():
                    for l2, w5 in cards():
                        for b2, w6 in cards():
                            w = w1 * w2 * w3 * w4 * w5 * w6
                            tr, tl, tb = (r1 + r2) % 10, (l1 + l2) % 10, (b1 + b2) % 10
                            if tb >= 8:
                                out[res(tb, tr)][res(tb, tl)] += w
                                continue
                            if tr >= 8 and tl >= 8:
                                out[1][1] += w
                                continue
                            r_branches = [(Fraction(1), 11, tr)] if tr >= 8 else play_hand(tr, right[hand(r1, r2)])
                            for wr, rc, fr in r_branches:
                                l_branches = [(Fraction(1), 11, tl)] if tl >= 8 else play_hand(tl, left[hand(l1, l2)])
                                for wl, lc, fl in l_branches:
                                    a = banker(hand(b1, b2), rc, lc)
                                    base = w * wr * wl
                                    rr = 1 if rc == 11 else None
                                    lr = 1 if lc == 11 else None
                                    if a:
                                        for e, we in cards():
                                            fb = (tb + e) % 10
                                            out[rr if rr is not None else res(fb, fr)][
                                                lr if lr is not None else res(fb, fl)
                                            ] += base * a * we
                                    if a != 1:
                                        out[rr if rr is not None else res(tb, fr)][
                                            lr if lr is not None else res(tb, fl)
                                        ] += base * (1 - a)
    return out


exact_probs = st.sampled_from([0.0, 1.0, 0.5, 0.25])


@settings(max_examples=8)
@given(
    shoe=value_shoes(min_cards=9, max_cards=11, max_distinct=3),  # the naive enumerator deals up to nine cards
    right=st.lists(exact_probs, min_size=55, max_size=55),
    left=st.lists(exact_probs, min_size=55, max_size=55),
    seed=st.integers(0, 2**32 - 1),
    replacement=st.booleans(),
)
def test_kernel_matches_naive_enumeration(shoe, right, left, seed, replacement):
    draw = np.random.default_rng(seed).choice([0.0, 1.0, 0.5, 0.25], size=(55, 12, 12))
    banker = BanqueBanker(draw)
    ps_r, ps_l = PlayerStrategy(tuple(right)), PlayerStrategy(tuple(left))
    got = banque_value(Composition.from_values(shoe), ps_r, ps_l, banker, replacement=replacement)
    ref = reference_banque(
        shoe,
        [Fraction(p) for p in right],
        [Fraction(p) for p in left],
        lambda y, rc, lc: Fraction(draw[y, rc, lc]),
        replacement,
    )
    assert np.allclose(np.array(got.joint), np.array(ref, dtype=float), rtol=0, atol=1e-13)


@pytest.mark.parametrize(
    "shoe",
    [Composition.from_decks(3), Composition.from_decks(3).remove(*(["5"] * 6 + ["9"] * 5 + ["K"] * 9))],
    ids=["3 decks", "depleted"],
)
def test_right_hand_is_chemin_de_fer_when_banker_ignores_the_left(shoe):
    """By exchangeability the right hand against a Banker who watches only it is a chemin de fer coup."""
    right, left = PlayerStrategy.at_five(Fraction(9, 11)), PlayerStrategy.at_five(0)
    chemin_banker = BankerStrategy.from_tableau().with_cells({(6, None): Fraction(1, 2), (4, 1): 1})
    banker = BanqueBanker.from_chemin(chemin_banker, "right")
    got = banque_value(shoe, right, left, banker)
    exact = chemin_value(shoe, right, chemin_banker)
    assert got.right_ev == pytest.approx(float(exact.player_ev), abs=1e-13)


def test_symmetric_play_gives_symmetric_hands():
    p = PlayerStrategy.at_five(1)
    v = banque_value(3, p, p, banque_tableau_banker())
    assert v.right_ev == pytest.approx(v.left_ev, abs=1e-13)
    assert v.banker_ev == pytest.approx(-(v.right_ev + v.left_ev), abs=1e-13)
    assert np.array(v.joint).sum() == pytest.approx(1.0, abs=1e-13)


def test_best_response_beats_fixed_bankers():
    right, left = PlayerStrategy.at_five(1), PlayerStrategy.at_five(0)
    best, value = banque_banker_best_response(3, right, left)
    for combine in ("either", "both", "right", "left"):
        other = banque_value(3, right, left, BanqueBanker.from_chemin(combine=combine))
        assert value.banker_ev >= other.banker_ev - 1e-13
    assert value.banker_ev == pytest.approx(banque_value(3, right, left, best).banker_ev, abs=1e-15)


def test_exact_values_agree_with_simulation():
    """200,000 fresh-shoe coups: each of four expectations within 4.5 standard errors.

    False-failure rate about 7e-6 per check, under 3e-5 for the four.
    """
    right, left = PlayerStrategy.at_five(Fraction(1, 2)), PlayerStrategy.at_five(1)
    banker = BanqueBanker.from_chemin(BankerStrategy.from_tableau().with_cells({(6, None): 0.5}), "either")
    exact = banque_value(3, right, left, banker, commission=0.05)
    frame = simulate_banque_coups(3, right, left, banker, 200_000, seed=2024, commission=0.05)
    for column, value in [
        ("right_payoff", exact.right_ev),
        ("left_payoff", exact.left_ev),
        ("banker_payoff", exact.banker_ev),
        ("a_cheval_payoff", exact.a_cheval_ev),
    ]:
        x = frame[column].to_numpy()
        se = x.std(ddof=1) / np.sqrt(len(x))
        assert abs(x.mean() - value) < 4.5 * se, column


def test_whole_shoes():
    """Reproducible whole shoes; first coups agree with the exact value (4.5 standard errors: false-failure 7e-6)."""
    p = PlayerStrategy.at_five(1)
    banker = banque_tableau_banker()
    a = simulate_banque_shoes(20, p, p, banker, seed=9, block_size=7)
    assert a.equals(simulate_banque_shoes(20, p, p, banker, seed=9, block_size=7))
    for _, rows in a.group_by("shoe"):
        one = rows.sort("coup")
        left, used = one["cards_left"].to_numpy(), one["cards_used"].to_numpy()
        assert left[0] == 156
        assert np.array_equal(left[1:], left[:-1] - used[:-1])
        assert left[-1] - used[-1] < 9
    first = simulate_banque_shoes(8000, p, p, banker, seed=1).filter(pl.col("coup") == 0)
    x = first["a_cheval_payoff"].to_numpy()
    exact = banque_value(3, p, p, banker).a_cheval_ev
    assert abs(x.mean() - exact) < 4.5 * x.std(ddof=1) / np.sqrt(len(x))


def test_bad_inputs():
    with pytest.raises(ValueError, match="shape"):
        BanqueBanker(np.zeros((55, 11, 11)))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        BanqueBanker(np.full((55, 12, 12), 2.0))
    with pytest.raises(ValueError, match="nine"):
        banque_value(
            [1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
            PlayerStrategy.at_five(1),
            PlayerStrategy.at_five(1),
            banque_tableau_banker(),
        )
    with pytest.raises(TypeError, match="BanqueBanker"):
        banque_value(3, PlayerStrategy.at_five(1), PlayerStrategy.at_five(1), BankerStrategy.from_tableau())
    with pytest.raises(ValueError, match="combine"):
        BanqueBanker.from_chemin(combine="neither")
    with pytest.raises(ValueError, match="min_cards"):
        simulate_banque_shoes(
            1, PlayerStrategy.at_five(1), PlayerStrategy.at_five(1), banque_tableau_banker(), min_cards=6
        )
