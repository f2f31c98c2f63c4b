"""Kelly plays, table limits, back-counting and counting errors, through the counting harness."""

from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.counting import CountPlay, PreCoup, Ramp, Strategy, count_strategy, run_strategies
from toolkit.counting.harness import play
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import deal
from toolkit.sizing import (
    BackCount,
    Gate,
    KellyPlay,
    LimitedPlay,
    Limits,
    MiscountedPlay,
    SeatBet,
    kelly_fractions,
    kelly_strategy,
    outcome_probabilities,
    payout_outcomes,
)


@pytest.fixture(scope="module")
def dealt():
    return deal(300, seed=21, progress=False)


@pytest.fixture(scope="module")
def info(dealt):
    return PreCoup.from_dealt(dealt)


def test_limits_round_down_to_chips_and_respect_the_table():
    lim = Limits(table_min=10, table_max=200, chip=5)
    out = lim.apply(np.array([0.0, 4.0, 9.99, 10.0, 14.9, 15.0, 199.0, 1e6]))
    assert out.tolist() == [0.0, 0.0, 0.0, 10.0, 10.0, 15.0, 195.0, 200.0]
    assert Limits().apply(np.array([0.3, 2.7])).tolist() == [0.3, 2.7]
    with pytest.raises(ValueError, match="table_max"):
        Limits(table_min=10, table_max=5)
    with pytest.raises(TypeError, match="chip"):
        Limits(chip="5")


def test_kelly_play_stakes_are_the_fraction_of_kelly_at_each_shoe(info):
    p = KellyPlay(("dragon7",), 0, 1000.0, 0.5, (Gate("dragon7", 4),))
    stakes = p.stakes(info, Rules())
    _rc, tc = info.counts("dragon7")
    assert np.all(stakes[tc < 4] == 0)
    rows = np.flatnonzero(tc >= 4)
    po = payout_outcomes("dragon7")
    f = kelly_fractions(outcome_probabilities(po, info.unseen[rows]), po.payouts)[:, 0]
    np.testing.assert_allclose(stakes[rows], 0.5 * 1000 * f)
    ev = info.expected_values(po.bets[0])
    assert np.all((stakes > 0) == (ev > 0) & (tc >= 4))


def test_joint_kelly_solves_the_open_bets_together(info):
    s = kelly_strategy(["dragon7", "panda8"], 1000, 1.0, [Gate("dragon7", 4), Gate("panda8", 11)])
    d7, p8 = (pl.stakes(info, Rules()) for pl in s.plays)
    _, tc7 = info.counts("dragon7")
    _, tc8 = info.counts("panda8")
    assert np.all(d7[tc7 < 4] == 0)
    assert np.all(p8[tc8 < 11] == 0)
    both = np.flatnonzero((tc7 >= 4) & (tc8 >= 11))
    if len(both):
        po = payout_outcomes(["dragon7", "panda8"])
        f = kelly_fractions(outcome_probabilities(po, info.unseen[both]), po.payouts)
        np.testing.assert_allclose(np.c_[d7[both], p8[both]], 1000 * f, atol=1e-9)
    only7 = np.flatnonzero((tc7 >= 4) & (tc8 < 11))
    po7 = payout_outcomes("dragon7")
    f7 = kelly_fractions(outcome_probabilities(po7, info.unseen[only7]), po7.payouts)[:, 0]
    np.testing.assert_allclose(d7[only7], 1000 * f7, atol=1e-9)


def test_kelly_strategies_pass_the_look_ahead_check_and_beat_flat_on_score():
    flat, kelly = run_strategies(
        [count_strategy("dragon7"), kelly_strategy("dragon7", 1000, 1.0, Gate("dragon7", 4))],
        1500,
        seed=4,
        workers=1,
        progress=False,
    )
    assert abs(kelly.lookahead_z) < 6
    assert kelly.score.value > flat.score.value


def test_limited_play_applies_the_limits(info):
    inner = KellyPlay(("dragon7",), 0, 10_000.0, 1.0)
    lim = Limits(table_min=5, table_max=25, chip=5)
    raw = inner.stakes(info, Rules())
    limited = LimitedPlay(inner, lim).stakes(info, Rules())
    np.testing.assert_array_equal(limited, lim.apply(raw))
    assert set(np.unique(limited)) <= {0.0, 5.0, 10.0, 15.0, 20.0, 25.0}
    assert LimitedPlay(inner, lim).bet == "dragon7"


def test_back_counting_joins_at_the_entry_coup_and_leaves_for_good(info):
    flat = CountPlay("dragon7", "dragon7", Ramp.flat(-100.0))  # bets every coup it is seated
    bc = BackCount(flat, "dragon7", entry_coup=20, entry=1.0, exit=0.0)
    seated = bc.seated(info)
    _, tc = info.counts("dragon7")
    shoe, coup = np.asarray(info.shoe), np.asarray(info.coup)
    for s in np.unique(shoe)[:100]:
        rows = np.flatnonzero(shoe == s)
        sat = seated[rows]
        at = rows[coup[rows] == 20]
        if len(at) == 0 or tc[at[0]] < 1:
            assert not sat.any()
            continue
        # seated from coup 20 to just before the first later coup with TC < 0, never again
        later = rows[(coup[rows] > 20) & (tc[rows] < 0)]
        end = coup[later[0]] if len(later) else math.inf
        assert np.array_equal(sat, (coup[rows] >= 20) & (coup[rows] < end))
    stakes = bc.stakes(info, Rules())
    assert np.array_equal(stakes > 0, seated)


def test_a_perfect_counter_equals_the_count_play(info):
    ramp = Ramp.from_any({4: 1, 6: 2})
    exact = CountPlay("dragon7", "dragon7", ramp).stakes(info, Rules())
    same = MiscountedPlay("dragon7", "dragon7", ramp).stakes(info, Rules())
    np.testing.assert_array_equal(exact, same)
    floored = CountPlay(count_strategy("dragon7").plays[0].system.with_(rounding="floor"), "dragon7", ramp)
    np.testing.assert_array_equal(
        floored.stakes(info, Rules()),
        MiscountedPlay("dragon7", "dragon7", ramp, rounding="floor").stakes(info, Rules()),
    )


def test_missed_cards_and_noise_blur_the_count(info):
    _, tc = info.counts("dragon7")
    blurred = MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), missed=0.2, noise=0.5, seed=3).perceived(info)
    again = MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), missed=0.2, noise=0.5, seed=3).perceived(info)
    np.testing.assert_array_equal(blurred, again)  # reproducible from the seed
    noise_only = MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), noise=0.5, seed=3).perceived(info)
    assert (noise_only - tc).std() == pytest.approx(0.5, rel=0.05)
    few = MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), missed=0.05, seed=3).perceived(info)
    assert 0 < (few - tc).std() < (blurred - tc).std()
    assert np.corrcoef(few, tc)[0, 1] > 0.8
    missed_only = MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), missed=0.3, seed=1).perceived(info)
    first = np.r_[True, np.asarray(info.shoe)[1:] != np.asarray(info.shoe)[:-1]]
    # before the first coup only the exposed burn card has been seen: at most one card missed
    assert np.all(np.abs(missed_only[first] - tc[first]) <= 2 / (np.asarray(info.left)[first] / 52) + 1e-9)


def test_counting_errors_cost_money():
    exact, sloppy = run_strategies(
        [
            count_strategy("dragon7"),
            Strategy("sloppy", (MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), missed=0.3, noise=1.0, seed=2),)),
        ],
        1500,
        seed=6,
        workers=1,
        progress=False,
    )
    assert sloppy.mean_edge.value < exact.mean_edge.value


def test_the_harness_plays_them_all(dealt):
    plays = (
        LimitedPlay(KellyPlay(("dragon7", "panda8"), 0, 500.0, 0.5), Limits(1, 50, 1)),
        LimitedPlay(KellyPlay(("dragon7", "panda8"), 1, 500.0, 0.5), Limits(1, 50, 1)),
    )
    (totals,) = play(dealt, [Strategy("both", plays)])
    assert totals.bets.sum() > 0
    assert np.all(totals.staked >= totals.bets)  # every stake at least the table minimum


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: KellyPlay(("dragon7",), 0, -5.0), "bankroll"),
        (lambda: KellyPlay(("dragon7",), 0, 100.0, 1.5), "fraction"),
        (lambda: KellyPlay(("dragon7",), 2, 100.0), "index"),
        (lambda: KellyPlay(("dragon7",), 0, 100.0, 1.0, (None, None)), "gates"),
        (lambda: Gate("dragon7", 4, "sideways"), "count"),
        (lambda: BackCount(CountPlay("dragon7", "dragon7", Ramp.flat(4)), "dragon7", 0, 1.0), "entry_coup"),
        (lambda: MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), missed=1.0), "missed"),
        (lambda: MiscountedPlay("dragon7", "dragon7", Ramp.flat(4), rounding="up"), "rounding"),
    ],
)
def test_bad_settings_are_refused(build, match):
    with pytest.raises((ValueError, TypeError), match=match):
        build()


def test_seat_bets_cost_the_main_game_edge_and_back_counting_saves_it():
    side = CountPlay("dragon7", "dragon7", Ramp.flat(4))
    wong = BackCount(side, "dragon7", entry_coup=30, entry=2.0, exit=0.0)
    seated_all, seated_wong = run_strategies(
        [Strategy("table", (side, SeatBet("banker", 1.0))), Strategy("wong", (wong, SeatBet("banker", 1.0, wong)))],
        1000,
        seed=3,
        workers=1,
        progress=False,
    )
    # a banker bet every coup costs about 1.06% of a unit per coup dealt
    hands = seated_all.hands_per_shoe.value
    banker_cost = (
        seated_all.units_per_shoe_ev.value
        - run_strategies([Strategy("side only", (side,))], 1000, seed=3, workers=1, progress=False)[
            0
        ].units_per_shoe_ev.value
    )
    assert banker_cost == pytest.approx(-0.0106 * hands, rel=0.1)
    assert seated_wong.staked_per_shoe.value < seated_all.staked_per_shoe.value
    with pytest.raises(TypeError, match="BackCount"):
        SeatBet("banker", 1.0, side)
