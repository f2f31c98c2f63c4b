"""Chemin de fer: exact values, the solved models, simulation and the command line.

The exact path (:mod:`toolkit.games.chemin._table`, weights summed over whole
hands) is checked against a deliberately naive enumerator below that deals one
card at a time in fractions and applies the rules of chemin de fer as published
(naturals on 8-9; Player must draw on 0-4 and stand on 6-7, chooses at 5); the
solver is checked against published figures (Kemeny & Snell's 9/11; the
Wizard of Odds punto banco counts), against an independent brute-force
matrix game, against its own equilibrium conditions evaluated through
:func:`chemin_value`, and against simulation.  The command line is tested in
``tests/cli/test_cli_chemin.py``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import VALUE_HANDS as HANDS
from strategies import next_cards, value_hand, value_shoes

from toolkit.coup.cards import Composition
from toolkit.games import (
    BankerStrategy,
    PlayerStrategy,
    chemin_banker_best_response,
    chemin_option_values,
    chemin_player_best_response,
    chemin_value,
    get_chemin_model,
    restricted_banker,
    simulate_chemin_coups,
    simulate_chemin_shoes,
    solve_chemin,
    solve_chemin_by_decks,
    summarize_chemin,
)


# ------------------------------------------------------------- the naive oracle
def reference_coup(counts, player_draw, banker_draw, replacement=False):
    """Outcome probabilities (banker, player, tie, false-draw share of each) dealing card by card.

    ``player_draw(a, b)`` and ``banker_draw(a, b, third_or_None)`` return
    Fractions; the rules are the published rules of chemin de fer (naturals on
    8-9; Player "must" draw on 0-4 and stand on 6-7, a false draw is recorded).
    """
    counts = list(counts)
    out = {
        "banker": Fraction(0),
        "player": Fraction(0),
        "tie": Fraction(0),
        "false_banker": Fraction(0),
        "false_player": Fraction(0),
        "false_tie": Fraction(0),
    }

    def draw_card():
        return next_cards(counts, replacement)

    def settle(p, pt, bt, false):
        key = "banker" if bt > pt else "player" if pt > bt else "tie"
        out[("false_" if false else "") + key] += p

    for p1, w1 in draw_card():
        for b1, w2 in draw_card():
            for p2, w3 in draw_card():
                for b2, w4 in draw_card():
                    w = w1 * w2 * w3 * w4
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if pt >= 8 or bt >= 8:
                        settle(w, pt, bt, False)
                        continue
                    q = player_draw(p1, p2)
                    # Player draws
                    if q:
                        for c, wc in draw_card():
                            false = pt >= 6
                            a = banker_draw(b1, b2, c)
                            pf = (pt + c) % 10
                            if a:
                                for e, we in draw_card():
                                    settle(w * q * wc * a * we, pf, (bt + e) % 10, false)
                            if a != 1:
                                settle(w * q * wc * (1 - a), pf, bt, false)
                    if q != 1:
                        false = pt <= 4
                        a = banker_draw(b1, b2, None)
                        if a:
                            for e, we in draw_card():
                                settle(w * (1 - q) * a * we, pt, (bt + e) % 10, false)
                        if a != 1:
                            settle(w * (1 - q) * (1 - a), pt, bt, false)
    return out


probabilities = st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 2), Fraction(2, 7), Fraction(9, 11)])


@settings(max_examples=15)
@given(
    shoe=value_shoes(),
    player=st.lists(probabilities, min_size=55, max_size=55),
    banker=st.lists(st.lists(probabilities, min_size=11, max_size=11), min_size=55, max_size=55),
    replacement=st.booleans(),
    rule=st.sampled_from(["void", "penalty", "allowed"]),
)
def test_chemin_value_matches_naive_enumeration(shoe, player, banker, replacement, rule):
    ps, bs = PlayerStrategy(tuple(player)), BankerStrategy(tuple(tuple(r) for r in banker))

    def pd(a, b):
        return ps.draw[value_hand(a, b)]

    def bd(a, b, third):
        return bs.draw[value_hand(a, b)][10 if third is None else third]

    ref = reference_coup(shoe, pd, bd, replacement)
    got = chemin_value(
        Composition.from_values(shoe), ps, bs, false_draw=rule, replacement=replacement, commission="1/20", penalty=2
    )
    false_total = ref["false_banker"] + ref["false_player"] + ref["false_tie"]
    assert got.false_draw == false_total
    if rule == "void":
        assert (got.banker_wins, got.player_wins, got.ties, got.void) == (
            ref["banker"],
            ref["player"],
            ref["tie"],
            false_total,
        )
    else:
        assert got.banker_wins == ref["banker"] + ref["false_banker"]
        assert got.player_wins == ref["player"] + ref["false_player"]
        assert got.void == 0
    fine = 2 * false_total if rule == "penalty" else 0
    assert got.player_ev == got.player_wins - got.banker_wins - fine
    assert got.banker_ev == Fraction(19, 20) * got.banker_wins - got.player_wins
    floats = chemin_value(Composition.from_values(shoe), ps, bs, false_draw=rule, replacement=replacement, exact=False)
    assert floats.banker_wins == pytest.approx(float(got.banker_wins), abs=1e-12)


# Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (ordered six-card counts), as in
# /work/shared/reference/published.md: the punto banco tableau is chemin de fer with
# Player always drawing at 5 and Banker following the tableau.
WIZARD = {
    1: (6_548_674_432, 6_737_232_640, 1_372_227_328, 14_658_134_400),
    8: (2_230_518_282_592_256, 2_292_252_566_437_888, 475_627_426_473_216, 4_998_398_275_503_360),
}


@pytest.mark.parametrize("decks", sorted(WIZARD))
def test_forced_strategies_reproduce_wizard_counts(decks):
    player, banker, tie, total = WIZARD[decks]
    v = chemin_value(decks, PlayerStrategy.at_five(1), BankerStrategy.from_tableau())
    assert (v.player_wins, v.banker_wins, v.ties) == (
        Fraction(player, total),
        Fraction(banker, total),
        Fraction(tie, total),
    )
    assert v.void == 0
    assert v.false_draw == 0


# --------------------------------------------------------------------- solving
def test_a1_reproduces_kemeny_snell():
    """Kemeny & Snell (1957), model A1 of Ethier & Gámez (2013): Player draws at 5 with probability 9/11."""
    sol = solve_chemin("A1")
    assert sol.exact
    assert sol.player_draw_at_5 == Fraction(9, 11)
    assert sol.player.draw_at_5 == Fraction(9, 11)
    # with replacement only the proportions matter
    assert solve_chemin("A1", 1).value == sol.value
    # Banker mixes in exactly one set, and it is (6, Player stood)
    mixed = sol.mixed()
    assert mixed.height == 1
    assert (mixed["banker_total"][0], mixed["player_third"][0]) == (6, "stood")
    assert json.loads(json.dumps(sol.to_dict()))["player_draw_at_5_exact"] == "9/11"


def _lower_envelope_min(rows):
    """min over q in [0, 1] of max_j (q * rows[0][j] + (1 - q) * rows[1][j]), exactly: (value, q)."""
    cols = list(zip(*rows, strict=True))
    candidates = {Fraction(0), Fraction(1)}
    for (d1, s1), (d2, s2) in product(cols, cols):
        slope = (d1 - s1) - (d2 - s2)
        if slope:
            q = (s2 - s1) / slope
            if 0 <= q <= 1:
                candidates.add(q)
    best = min(candidates, key=lambda q: (max(q * d + (1 - q) * s for d, s in cols), q))
    return max(best * d + (1 - best) * s for d, s in cols), best


def test_a1_against_brute_force_matrix_game():
    """An independent solution of A1: the 2 x 2^4 matrix game over four contested cells, others at the tableau.

    Entries come from :func:`expected_value`; the game is solved by the lower envelope of
    Player's two rows (no LP), and must agree with the full solver.
    """
    shoe = Composition.from_decks(1)
    cells = [(6, None), (5, 4), (3, 9), (4, 1)]
    columns = list(product((0, 1), repeat=len(cells)))
    rows = []
    for p in (1, 0):
        row = []
        for bits in columns:
            banker = BankerStrategy.from_tableau().with_cells(dict(zip(cells, bits, strict=True)))
            row.append(chemin_value(shoe, PlayerStrategy.at_five(p), banker, replacement=True).banker_ev)
        rows.append(row)
    value, q = _lower_envelope_min(rows)
    sol = solve_chemin("A1", shoe)
    assert q == Fraction(9, 11)
    assert value == sol.value


@pytest.mark.parametrize(("model", "decks"), [("A1", 1), ("B1", 1), ("B2", 1), ("B3", 1), ("B2", 6), ("B3", 8)])
def test_lp_and_best_response_find_the_same_zero_sum_value(model, decks):
    lp = solve_chemin(model, decks)
    br = solve_chemin(model, decks, method="best-response")
    assert lp.exact
    assert br.exact
    assert lp.value == br.value
    assert lp.player_value == -lp.value


def _check_equilibrium(sol, cells_to_flip, commission=0):
    """Evaluate deviations through expected_value: neither side gains by deviating alone."""
    shoe, rep = sol.shoe, sol.model.replacement
    kw = {"commission": commission, "replacement": rep}
    here = chemin_value(shoe, sol.player, sol.banker, **kw)
    assert here.banker_ev == sol.value
    assert here.player_ev == sol.player_value
    # Player: draw always / never at 5 (his payoff is linear in each probability)
    for p in (0, 1):
        dev = PlayerStrategy(tuple(p if sum(h) % 10 == 5 else d for h, d in zip(HANDS, sol.player.draw, strict=True)))
        assert chemin_value(shoe, dev, sol.banker, **kw).player_ev <= sol.player_value
    # Banker: flipping his choice for a whole row of hands of one total
    for total, third in cells_to_flip:
        col = 10 if third is None else third
        for p in (0, 1):
            rows = [list(r) for r in sol.banker.draw]
            for k, h in enumerate(HANDS):
                if sum(h) % 10 == total:
                    rows[k][col] = Fraction(p)
            dev = BankerStrategy(tuple(tuple(r) for r in rows))
            assert chemin_value(shoe, sol.player, dev, **kw).banker_ev <= sol.value


CONTESTED = [(6, None), (5, 4), (3, 9), (4, 1), (3, 8), (6, 8), (5, None)]


@pytest.mark.parametrize("model", ["B2", "B3"])
def test_solution_is_an_equilibrium_by_direct_evaluation(model):
    sol = solve_chemin(model, 6)
    assert sol.exact
    assert max(sol.deviation_gains) < 1e-15
    _check_equilibrium(sol, CONTESTED)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["A1", "A2", "A3", "B1", "B2", "B3"])
def test_every_model_and_deck_count_solves_exactly(model):
    for decks in range(1, 9):
        sol = solve_chemin(model, decks)
        assert sol.exact
        _check_equilibrium(sol, CONTESTED)
        br = solve_chemin(model, decks, commission="0.05")
        assert br.exact
        _check_equilibrium(br, CONTESTED, commission=Fraction(1, 20))


def test_depleted_shoe_is_solved_and_the_solution_moves():
    full = Composition.from_decks(6)
    depleted = full.remove(*(["5"] * 14 + ["K"] * 10))
    a, b = solve_chemin("B2", full), solve_chemin("B2", depleted)
    assert a.exact
    assert b.exact
    assert a.player_draw_at_5 != b.player_draw_at_5
    _check_equilibrium(b, CONTESTED)


def test_commission_bimatrix_equilibrium():
    """Ethier & Lee (2023)'s casino game: Banker pays 5% on his wins; neither side gains by deviating."""
    for model in ("A1", "B2"):
        sol = solve_chemin(model, 1, commission="0.05")
        assert sol.method == "best-response"
        assert sol.exact
        assert sol.value != -sol.player_value
        _check_equilibrium(sol, CONTESTED, commission=Fraction(1, 20))
    with pytest.raises(ValueError, match="not zero-sum"):
        solve_chemin("A1", commission=0.05, method="linprog")


def test_restricted_banker_options():
    full = solve_chemin("B2", 6)
    restricted = solve_chemin("B2", 6, banker_options="restricted")
    assert restricted.exact
    # off the two option cells Banker follows the tableau
    off = restricted.departures().filter(
        ~(
            ((restricted.departures()["banker_total"] == 3) & (restricted.departures()["player_third"] == "9"))
            | ((restricted.departures()["banker_total"] == 5) & (restricted.departures()["player_third"] == "4"))
        )
    )
    assert off.height == 0
    assert restricted.value <= full.value
    # Banker can always play the tableau, so the restricted value beats Player's best reply to it
    _, player_vs_tableau = chemin_player_best_response(6, BankerStrategy.from_tableau())
    assert restricted.value >= -player_vs_tableau
    b = restricted_banker(0, 1)
    assert b.draw_by_total(3, 9) == 0
    assert b.draw_by_total(5, 4) == 1


def test_best_responses_and_option_values():
    forced = chemin_value(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau()).banker_ev
    _, b_val = chemin_banker_best_response(6, PlayerStrategy.at_five(1))
    assert b_val > forced
    table = chemin_option_values(6)
    assert table.height == 5
    assert table["gain_over_forced"][0] == 0
    assert table["banker_ev"][1] == pytest.approx(float(b_val), abs=1e-15)


def test_solve_chemin_by_decks_frame():
    frame = solve_chemin_by_decks(["B2"], [1, 2])
    assert frame.columns[:2] == ["cards", "model"]
    assert frame["decks"].to_list() == [1, 2]
    assert frame["exact"].all()


# ------------------------------------------------------------------ simulation
def test_solver_value_agrees_with_simulation():
    """The B2 six-deck equilibrium (Player and Banker both mix) played 300,000 times from fresh shoes.

    Tolerance 4.5 standard errors: false-failure rate about 7e-6 (normal approximation).
    """
    sol = solve_chemin("B2", 6)
    frame = simulate_chemin_coups(6, sol.player, sol.banker, 300_000, seed=20240611)
    s = summarize_chemin(frame).row(0, named=True)
    assert abs(s["mean"] - float(sol.value)) < 4.5 * s["std_error"]


def test_a1_with_replacement_agrees_with_simulation():
    """A1 (with replacement).  Tolerance 4.5 standard errors: false-failure rate about 7e-6."""
    sol = solve_chemin("A1")
    frame = simulate_chemin_coups(6, sol.player, sol.banker, 200_000, seed=7, replacement=True)
    s = summarize_chemin(frame).row(0, named=True)
    assert abs(s["mean"] - float(sol.value)) < 4.5 * s["std_error"]


def test_false_draws_in_simulation_and_exact():
    """A Player who stands on 4 and draws on 6 (two false draws), under each rule.

    Each check is at 4.5 standard errors (false-failure rate about 7e-6 each, 2e-5 in all).
    """
    player = PlayerStrategy.from_totals([1, 1, 1, 1, 0, 1, 1, 0, 0, 0])
    banker = BankerStrategy.from_tableau()
    for rule in ("void", "penalty", "allowed"):
        exact = chemin_value(6, player, banker, false_draw=rule, penalty=1)
        assert exact.false_draw > 0.1
        frame = simulate_chemin_coups(6, player, banker, 150_000, seed=11, false_draw=rule, penalty=1)
        s = summarize_chemin(frame).row(1, named=True)
        assert abs(s["mean"] - float(exact.player_ev)) < 4.5 * s["std_error"]
        assert frame["void"].any() == (rule == "void")


def test_simulate_chemin_shoes_deals_whole_shoes_reproducibly():
    p, b = PlayerStrategy.at_five(Fraction(9, 11)), BankerStrategy.from_tableau()
    a = simulate_chemin_shoes(30, p, b, decks=2, seed=5, block_size=8)
    again = simulate_chemin_shoes(30, p, b, decks=2, seed=5, block_size=8)
    assert a.equals(again)
    assert a["shoe"].n_unique() == 30
    for _, rows in a.group_by("shoe"):
        one = rows.sort("coup")
        left = one["cards_left"].to_numpy()
        used = one["cards_used"].to_numpy()
        assert left[0] == 104
        assert np.array_equal(left[1:], left[:-1] - used[:-1])
        assert left[-1] >= 7
        assert left[-1] - used[-1] < 7


def test_first_coups_of_whole_shoes_agree_with_exact():
    """The first coup of each of 20,000 shoes.  Tolerance 4.5 standard errors (false-failure rate about 7e-6)."""
    p, b = PlayerStrategy.at_five(1), restricted_banker(0, 0)
    frame = simulate_chemin_shoes(20_000, p, b, decks=6, seed=3).filter(pl.col("coup") == 0)
    s = summarize_chemin(frame).row(0, named=True)
    exact = float(chemin_value(6, p, b).banker_ev)
    assert abs(s["mean"] - exact) < 4.5 * s["std_error"]


# ------------------------------------------------------------------ validation
def test_bad_inputs_say_what_is_wrong():
    with pytest.raises(ValueError, match="unknown chemin de fer model"):
        get_chemin_model("C4")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        PlayerStrategy.at_five(2)
    with pytest.raises(ValueError, match="not 5"):
        PlayerStrategy.from_hands({"0+4": 0})
    with pytest.raises(ValueError, match="55"):
        PlayerStrategy((1,) * 10)
    assert PlayerStrategy.at_five(np.float64(0.5)).draw_at_5 == Fraction(1, 2)  # numpy scalars are accepted
    with pytest.raises(ValueError, match="false_draw"):
        chemin_value(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau(), false_draw="fine")
    with pytest.raises(TypeError, match="PlayerStrategy"):
        chemin_value(6, 1, BankerStrategy.from_tableau())
    with pytest.raises(ValueError, match="six"):
        solve_chemin("B2", [1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
