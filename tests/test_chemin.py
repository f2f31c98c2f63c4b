"""Chemin de fer (issue 6): exact values, the solved models, simulation and the command line.

The exact path (:mod:`toolkit.games._table`, weights summed over whole hands)
is checked against a deliberately naive enumerator below that deals one card
at a time in fractions and applies the rules as the seeds state them; the
solver is checked against published figures (Kemeny & Snell's 9/11; the
Wizard of Odds punto banco counts), against an independent brute-force
matrix game, against its own equilibrium conditions evaluated through
:func:`expected_value`, and against simulation.
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

from toolkit.cards import Composition
from toolkit.games.chemin.core import (
    BankerStrategy,
    PlayerStrategy,
    banker_best_response,
    expected_value,
    get_model,
    option_values,
    player_best_response,
    seed004_banker,
    simulate_coups,
    simulate_shoes,
    solve,
    solve_by_decks,
    summarize,
)

HANDS = [(i, j) for i in range(10) for j in range(i, 10)]


# ------------------------------------------------------------- the naive oracle
def reference_coup(counts, player_draw, banker_draw, replacement=False):
    """Outcome probabilities (banker, player, tie, false-draw share of each) dealing card by card.

    ``player_draw(a, b)`` and ``banker_draw(a, b, third_or_None)`` return
    Fractions; the rules are those of the seeds (naturals on 8-9; Player
    "must" draw on 0-4 and stand on 6-7, a false draw is recorded).
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
        total = sum(counts)
        for v in range(10):
            if counts[v]:
                p = Fraction(counts[v], total)
                if not replacement:
                    counts[v] -= 1
                yield v, p
                if not replacement:
                    counts[v] += 1

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


@st.composite
def small_value_shoes(draw, max_distinct=4, max_cards=14):
    """Small shoes by value: 6..max_cards cards of at most ``max_distinct`` values."""
    values = draw(st.lists(st.integers(0, 9), min_size=1, max_size=max_distinct, unique=True))
    cards = draw(st.lists(st.sampled_from(values), min_size=6, max_size=max_cards))
    counts = [0] * 10
    for v in cards:
        counts[v] += 1
    return counts


probabilities = st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 2), Fraction(2, 7), Fraction(9, 11)])


@settings(max_examples=15)
@given(
    shoe=small_value_shoes(),
    player=st.lists(probabilities, min_size=55, max_size=55),
    banker=st.lists(st.lists(probabilities, min_size=11, max_size=11), min_size=55, max_size=55),
    replacement=st.booleans(),
    rule=st.sampled_from(["void", "penalty", "allowed"]),
)
def test_expected_value_matches_naive_enumeration(shoe, player, banker, replacement, rule):
    ps, bs = PlayerStrategy(tuple(player)), BankerStrategy(tuple(tuple(r) for r in banker))
    idx = {h: k for k, h in enumerate(HANDS)}

    def pd(a, b):
        return ps.draw[idx[tuple(sorted((a, b)))]]

    def bd(a, b, third):
        return bs.draw[idx[tuple(sorted((a, b)))]][10 if third is None else third]

    ref = reference_coup(shoe, pd, bd, replacement)
    got = expected_value(
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
    floats = expected_value(
        Composition.from_values(shoe), ps, bs, false_draw=rule, replacement=replacement, exact=False
    )
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
    v = expected_value(decks, PlayerStrategy.at_five(1), BankerStrategy.from_tableau())
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
    sol = solve("A1")
    assert sol.exact
    assert sol.player_draw_at_5 == Fraction(9, 11)
    assert sol.player.draw_at_5 == Fraction(9, 11)
    # with replacement only the proportions matter
    assert solve("A1", 1).value == sol.value
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
            row.append(expected_value(shoe, PlayerStrategy.at_five(p), banker, replacement=True).banker_ev)
        rows.append(row)
    value, q = _lower_envelope_min(rows)
    sol = solve("A1", shoe)
    assert q == Fraction(9, 11)
    assert value == sol.value


@pytest.mark.parametrize(("model", "decks"), [("A1", 1), ("B1", 1), ("B2", 1), ("B3", 1), ("B2", 6), ("B3", 8)])
def test_lp_and_best_response_find_the_same_zero_sum_value(model, decks):
    lp = solve(model, decks)
    br = solve(model, decks, method="best-response")
    assert lp.exact
    assert br.exact
    assert lp.value == br.value
    assert lp.player_value == -lp.value


def _check_equilibrium(sol, cells_to_flip, commission=0):
    """Evaluate deviations through expected_value: neither side gains by deviating alone."""
    shoe, rep = sol.shoe, sol.model.replacement
    kw = {"commission": commission, "replacement": rep}
    here = expected_value(shoe, sol.player, sol.banker, **kw)
    assert here.banker_ev == sol.value
    assert here.player_ev == sol.player_value
    # Player: draw always / never at 5 (his payoff is linear in each probability)
    for p in (0, 1):
        dev = PlayerStrategy(tuple(p if sum(h) % 10 == 5 else d for h, d in zip(HANDS, sol.player.draw, strict=True)))
        assert expected_value(shoe, dev, sol.banker, **kw).player_ev <= sol.player_value
    # Banker: flipping his choice for a whole row of hands of one total
    for total, third in cells_to_flip:
        col = 10 if third is None else third
        for p in (0, 1):
            rows = [list(r) for r in sol.banker.draw]
            for k, h in enumerate(HANDS):
                if sum(h) % 10 == total:
                    rows[k][col] = Fraction(p)
            dev = BankerStrategy(tuple(tuple(r) for r in rows))
            assert expected_value(shoe, sol.player, dev, **kw).banker_ev <= sol.value


CONTESTED = [(6, None), (5, 4), (3, 9), (4, 1), (3, 8), (6, 8), (5, None)]


@pytest.mark.parametrize("model", ["B2", "B3"])
def test_solution_is_an_equilibrium_by_direct_evaluation(model):
    sol = solve(model, 6)
    assert sol.exact
    assert max(sol.deviation_gains) < 1e-15
    _check_equilibrium(sol, CONTESTED)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["A1", "A2", "A3", "B1", "B2", "B3"])
def test_every_model_and_deck_count_solves_exactly(model):
    for decks in range(1, 9):
        sol = solve(model, decks)
        assert sol.exact
        _check_equilibrium(sol, CONTESTED)
        br = solve(model, decks, commission="0.05")
        assert br.exact
        _check_equilibrium(br, CONTESTED, commission=Fraction(1, 20))


def test_depleted_shoe_is_solved_and_the_solution_moves():
    full = Composition.from_decks(6)
    depleted = full.remove(*(["5"] * 14 + ["K"] * 10))
    a, b = solve("B2", full), solve("B2", depleted)
    assert a.exact
    assert b.exact
    assert a.player_draw_at_5 != b.player_draw_at_5
    _check_equilibrium(b, CONTESTED)


def test_commission_bimatrix_equilibrium():
    """Ethier & Lee (2023)'s casino game: Banker pays 5% on his wins; neither side gains by deviating."""
    for model in ("A1", "B2"):
        sol = solve(model, 1, commission="0.05")
        assert sol.method == "best-response"
        assert sol.exact
        assert sol.value != -sol.player_value
        _check_equilibrium(sol, CONTESTED, commission=Fraction(1, 20))
    with pytest.raises(ValueError, match="not zero-sum"):
        solve("A1", commission=0.05, method="linprog")


def test_seed004_restricted_options():
    full = solve("B2", 6)
    restricted = solve("B2", 6, banker_options="seed004")
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
    _, player_vs_tableau = player_best_response(6, BankerStrategy.from_tableau())
    assert restricted.value >= -player_vs_tableau
    b = seed004_banker(0, 1)
    assert b.draw_by_total(3, 9) == 0
    assert b.draw_by_total(5, 4) == 1


def test_best_responses_and_option_values():
    forced = expected_value(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau()).banker_ev
    _, b_val = banker_best_response(6, PlayerStrategy.at_five(1))
    assert b_val > forced
    table = option_values(6)
    assert table.height == 5
    assert table["gain_over_forced"][0] == 0
    assert table["banker_ev"][1] == pytest.approx(float(b_val), abs=1e-15)


def test_solve_by_decks_frame():
    frame = solve_by_decks(["B2"], [1, 2])
    assert frame.columns[:2] == ["cards", "model"]
    assert frame["decks"].to_list() == [1, 2]
    assert frame["exact"].all()


# ------------------------------------------------------------------ simulation
def test_solver_value_agrees_with_simulation():
    """The B2 six-deck equilibrium (Player and Banker both mix) played 300,000 times from fresh shoes.

    Tolerance 4.5 standard errors: false-failure rate about 7e-6 (normal approximation).
    """
    sol = solve("B2", 6)
    frame = simulate_coups(6, sol.player, sol.banker, 300_000, rng=20240611)
    s = summarize(frame).row(0, named=True)
    assert abs(s["mean"] - float(sol.value)) < 4.5 * s["std_error"]


def test_a1_with_replacement_agrees_with_simulation():
    """A1 (with replacement).  Tolerance 4.5 standard errors: false-failure rate about 7e-6."""
    sol = solve("A1")
    frame = simulate_coups(6, sol.player, sol.banker, 200_000, rng=7, replacement=True)
    s = summarize(frame).row(0, named=True)
    assert abs(s["mean"] - float(sol.value)) < 4.5 * s["std_error"]


def test_false_draws_in_simulation_and_exact():
    """A Player who stands on 4 and draws on 6 (two false draws), under each rule.

    Each check is at 4.5 standard errors (false-failure rate about 7e-6 each, 2e-5 in all).
    """
    player = PlayerStrategy.from_totals([1, 1, 1, 1, 0, 1, 1, 0, 0, 0])
    banker = BankerStrategy.from_tableau()
    for rule in ("void", "penalty", "allowed"):
        exact = expected_value(6, player, banker, false_draw=rule, penalty=1)
        assert exact.false_draw > 0.1
        frame = simulate_coups(6, player, banker, 150_000, rng=11, false_draw=rule, penalty=1)
        s = summarize(frame).row(1, named=True)
        assert abs(s["mean"] - float(exact.player_ev)) < 4.5 * s["std_error"]
        assert frame["void"].any() == (rule == "void")


def test_simulate_shoes_deals_whole_shoes_reproducibly():
    p, b = PlayerStrategy.at_five(Fraction(9, 11)), BankerStrategy.from_tableau()
    a = simulate_shoes(30, p, b, decks=2, rng=5, block_size=8)
    again = simulate_shoes(30, p, b, decks=2, rng=5, block_size=8)
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
    p, b = PlayerStrategy.at_five(1), seed004_banker(0, 0)
    frame = simulate_shoes(20_000, p, b, decks=6, rng=3).filter(pl.col("coup") == 0)
    s = summarize(frame).row(0, named=True)
    exact = float(expected_value(6, p, b).banker_ev)
    assert abs(s["mean"] - exact) < 4.5 * s["std_error"]


# ------------------------------------------------------------- validation, CLI
def test_bad_inputs_say_what_is_wrong():
    with pytest.raises(ValueError, match="unknown chemin de fer model"):
        get_model("C4")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        PlayerStrategy.at_five(2)
    with pytest.raises(ValueError, match="not 5"):
        PlayerStrategy.from_hands({"0+4": 0})
    with pytest.raises(ValueError, match="55"):
        PlayerStrategy((1,) * 10)
    assert PlayerStrategy.at_five(np.float64(0.5)).draw_at_5 == Fraction(1, 2)  # numpy scalars are accepted
    with pytest.raises(ValueError, match="false_draw"):
        expected_value(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau(), false_draw="fine")
    with pytest.raises(TypeError, match="PlayerStrategy"):
        expected_value(6, 1, BankerStrategy.from_tableau())
    with pytest.raises(ValueError, match="six"):
        solve("B2", [1, 1, 1, 0, 0, 0, 0, 0, 0, 0])


def _run(argv, capsys):
    from toolkit.cli.app import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err


def test_cli_solve_json(capsys):
    code, out, _ = _run(["chemin", "solve", "--model", "A1", "--format", "json"], capsys)
    assert code == 0
    payload = json.loads(out)
    assert payload["player_draw_at_5"] == pytest.approx(9 / 11, abs=1e-12)
    assert payload["value"] == pytest.approx(float(solve("A1").value), abs=1e-15)
    assert payload["departures_from_tableau"]
    code, out, _ = _run(["chemin", "solve", "--model", "B3", "--decks", "1", "--format", "json"], capsys)
    assert code == 0
    assert set(json.loads(out)["player_strategy"]) == {"0+5", "1+4", "2+3", "6+9", "7+8"}


def test_cli_table_shoe_and_errors(capsys):
    code, out, _ = _run(["chemin", "solve", "--model", "B2", "--shoe", "16,4,4,4,4,4,4,4,4,4"], capsys)
    assert code == 0
    assert "value to Banker" in out
    code, _, err = _run(["chemin", "solve", "--model", "Q9"], capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "model" in err
    code, _, err = _run(["chemin", "solve", "--decks", "2", "--shoe", "1,2,3"], capsys)
    assert code == 2
    code, out, _ = _run(["chemin", "value", "--player-at-5", "9/11", "--format", "json"], capsys)
    assert code == 0
    assert "banker_ev" in json.loads(out)
