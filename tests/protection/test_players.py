"""Simulated players: each bets as its rule says, from what a player at the table can see, and refuses bad values."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest

from toolkit.counting import get_count_system
from toolkit.protection import Counter, FlatBettor, Progression, RoadFollower, Team, simulate_table
from toolkit.protection.players import table_coups
from toolkit.records import replay_records, simulate_records


@pytest.fixture(scope="module")
def coups():
    return table_coups(simulate_records(6, seed=41))


def _units(player, coups, seed=0) -> pl.DataFrame:
    placed = player.place(coups, np.random.default_rng(seed))
    return coups.select("shoe", pl.col("coup").cast(pl.Int64), "winner").join(
        placed, on=["shoe", "coup"], how="left", maintain_order="left"
    )


def test_a_martingale_doubles_after_each_loss_and_starts_each_shoe_at_its_base(coups):
    rows = _units(Progression("m", "martingale", base=2.0, cap=16), coups).rows(named=True)
    for before, after in itertools.pairwise(rows):
        if after["shoe"] != before["shoe"]:
            assert after["amount"] == 2.0
        elif before["winner"] == "tie":
            assert after["amount"] == before["amount"]
        elif before["winner"] == "banker":
            assert after["amount"] == 2.0
        else:
            assert after["amount"] == min(2 * before["amount"], 32.0)


def test_paroli_and_fibonacci_steps(coups):
    paroli = _units(Progression("p", "paroli"), coups)["amount"]
    assert set(paroli.unique()) <= {1.0, 2.0, 4.0}
    fib = _units(Progression("f", "fibonacci", bet="player"), coups)
    assert set(fib["amount"].unique()) <= {1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0, 55.0, 64.0}  # capped at 64
    assert (fib["bet"] == "player").all()


def test_road_followers_bet_the_streak_or_the_chop(coups):
    streak = _units(RoadFollower("s", "streak"), coups)
    chop = _units(RoadFollower("c", "chop"), coups)
    last = None
    for s, c in zip(streak.rows(named=True), chop.rows(named=True), strict=True):
        if last is None or (s["coup"] == 1):
            last = None if s["coup"] == 1 else last
        if last is not None:
            assert s["bet"] == last
            assert c["bet"] != last
        if s["winner"] != "tie":
            last = s["winner"]


def test_a_perfect_counter_bets_exactly_at_its_trigger(coups):
    frame = replay_records(simulate_records(6, seed=41), systems=["dragon7"], bets=["dragon7"])
    placed = _units(Counter("d", "dragon7", ramp={4: 5}, unit=2.0), coups)
    expected = np.where(frame["tc_dragon7"].to_numpy() >= 4, 10.0, np.nan)
    assert np.array_equal(placed["amount"].to_numpy(), expected, equal_nan=True)


def test_a_counters_errors_change_its_bets_but_not_their_direction(coups):
    frame = replay_records(simulate_records(6, seed=41), systems=["dragon7"])
    exact = frame["tc_dragon7"].to_numpy()
    noisy = Counter("d", "dragon7", miss_rate=0.2).true_count(coups, np.random.default_rng(3))
    assert not np.allclose(noisy, exact)
    assert np.corrcoef(noisy, exact)[0, 1] > 0.5
    floored = Counter("d", "dragon7", rounding="floor").true_count(coups, np.random.default_rng(3))
    assert np.array_equal(floored, np.floor(exact))
    cover = _units(Counter("d", "dragon7", camouflage=0.5), coups)
    assert cover["amount"].is_not_null().sum() > (exact >= 4).sum()


def test_a_flat_bettor_bets_at_its_rate(coups):
    placed = _units(FlatBettor("f", "tie", rate=0.5, amounts=(1, 5)), coups)
    n = coups.height
    # Binomial(n, 0.5) bets: within 4 standard deviations (false failure 6e-5)
    assert abs(placed["amount"].is_not_null().sum() - n / 2) < 4 * np.sqrt(n / 4)
    assert set(placed["amount"].drop_nulls().unique()) == {1.0, 5.0}


def test_a_team_spotter_flat_bets_and_the_big_player_bets_on_the_signal():
    records = simulate_table(3, [Team("spotter", "big", units=50)], seed=5)
    frame = replay_records(records, systems=["dragon7"])
    bets = records.bets
    spotter = bets.filter(pl.col("who") == "spotter")
    assert spotter.height == frame.height
    assert (spotter["bet"] == "banker").all()
    big = bets.filter(pl.col("who") == "big").join(
        frame.select("shoe", pl.col("coup").cast(pl.Int64), "tc_dragon7"), on=["shoe", "coup"]
    )
    assert (big["tc_dragon7"] >= get_count_system("dragon7").threshold).all()
    assert (big["amount"] == 50).all()


def test_simulate_table_is_reproducible_and_refuses_bad_players():
    players = [FlatBettor("a", rate=0.5), Counter("b")]
    assert simulate_table(2, players, seed=9).bets.equals(simulate_table(2, players, seed=9).bets)
    assert simulate_table(2, [], seed=9).bets.height == 0
    with pytest.raises(ValueError, match="two players sit at seat 'a'"):
        simulate_table(1, [FlatBettor("a"), Progression("a")])
    for make, match in (
        (lambda: FlatBettor("a", rate=2), "rate must be between"),
        (lambda: FlatBettor("a", amounts=(-1,)), "amount must be a positive"),
        (lambda: FlatBettor("a:b"), "a seat is named"),
        (lambda: Progression("a", "labouchere"), "progression must be one of"),
        (lambda: Progression("a", bet="tie"), "bet must be one of"),
        (lambda: RoadFollower("a", "zigzag"), "road must be one of"),
        (lambda: Counter("a", "thorp_natural9"), "has no threshold"),
        (lambda: Counter("a", rounding="up"), "rounding must be one of"),
        (lambda: Counter("a", floor=-1), "floor must be"),
        (lambda: Team("a", "a"), "two seats"),
    ):
        with pytest.raises((ValueError, TypeError), match=match):
            make()
    assert hash(Counter("a", ramp={4: 5})) == hash(Counter("a", ramp=((4.0, 5.0),)))
