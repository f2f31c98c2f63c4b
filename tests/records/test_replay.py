"""Replay: coup by coup it equals the dealing module's own unseen compositions, EVs and counts; the bet-tracking test.

The false-positive rate of the bet-tracking permutation test is checked on bettors whose stakes ignore the edge,
and its power on a bettor who stakes big when the Dragon 7 count is high.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from sample_shoes import SHOES
from scipy import stats

from toolkit.bets.paytable import bet_stats, get_bet, standard_bets
from toolkit.bets.pricing import expected_values
from toolkit.counting import counts
from toolkit.coup.cards import RANKS, Composition
from toolkit.dealing.dealer import Dealing, deal
from toolkit.records import (
    ShoeHeader,
    bet_edges,
    read_records,
    records_from_dealt,
    replay_records,
    simulate_records,
    tracking_test,
    write_records,
)

UNSEEN = [f"unseen_{r}" for r in RANKS]


@pytest.fixture(scope="module")
def dealt():
    return deal(5, Dealing(), seed=404, progress=False)


@pytest.mark.parametrize(
    ("layout", "container", "roles", "view"),
    [
        ("cards", "csv", False, "observed"),
        ("cards", "parquet", True, "complete"),
        ("coups", "jsonl", True, "observed"),
    ],
)
def test_replay_of_a_recorded_shoe_equals_the_dealing_module(dealt, tmp_path: Path, layout, container, roles, view):
    records = records_from_dealt(dealt)
    records = records.observed() if view == "observed" else records
    path = write_records(records, tmp_path / f"shoes.{container}", layout=layout, roles=roles)
    frame = replay_records(read_records(path), systems=["dragon7", "panda8", "how_dragon7"])
    assert frame.height == len(dealt)
    assert frame["coup"].to_list() == dealt.coup.tolist()
    assert np.array_equal(frame.select(UNSEEN).to_numpy(), dealt.unseen)
    assert np.array_equal(frame["cards_seen"].to_numpy(), dealt.seen)
    assert np.array_equal(frame["cards_left"].to_numpy(), dealt.left)
    assert np.array_equal(frame["cards_unseen"].to_numpy(), dealt.unseen_count)
    panel = standard_bets()
    ev = frame.select([f"ev_{b.name}" for b in panel]).to_numpy()
    assert np.array_equal(ev, expected_values(dealt.unseen, panel))
    for system in ("dragon7", "panda8", "how_dragon7"):
        rc, tc = counts(system, dealt)
        assert np.array_equal(frame[f"rc_{system}"].to_numpy(), rc)
        assert np.allclose(frame[f"tc_{system}"].to_numpy(), tc, rtol=0, atol=1e-12)
    frames = dealt.frame()
    assert frame["winner"].to_list() == frames["winner"].to_list()
    assert frame["player_total"].to_list() == frames["player_total"].to_list()


def test_replay_edges_are_the_exact_engines(dealt) -> None:
    frame = replay_records(records_from_dealt(dealt), shoe=2, bets=["banker", "tie", "dragon7", "player_pair"])
    assert frame["shoe"].unique().to_list() == [2]
    for row in frame.filter(pl.col("coup").is_in([1, 40])).iter_rows(named=True):
        shoe = Composition(tuple(row[c] for c in UNSEEN))
        for name in ("banker", "tie", "dragon7", "player_pair"):
            exact = bet_stats(get_bet(name), shoe).exact_expected_value
            assert isinstance(exact, Fraction)
            assert row[f"ev_{name}"] == pytest.approx(float(exact), abs=1e-13)


def test_replay_uses_each_shoes_house_rules() -> None:
    records = read_records(SHOES / "coups_6decks.csv")
    frame = replay_records(records, bets=["banker"])
    full = frame.filter(pl.col("coup") == 1).row(0, named=True)
    shoe = Composition(tuple(full[c] for c in UNSEEN))
    commission_4 = bet_stats(get_bet("banker", records.header.rules), shoe).expected_value
    assert full["ev_banker"] == pytest.approx(commission_4, abs=1e-13)
    assert records.header.rules.commission == Fraction(1, 25)


def test_replay_refuses_outcome_only_records() -> None:
    with pytest.raises(ValueError, match="outcome-only"):
        replay_records(read_records(SHOES / "roads.csv"))


def test_bet_edges_of_the_sample_bettors() -> None:
    records = read_records(SHOES / "coups_with_bets.jsonl")
    edges = bet_edges(records)
    assert edges.height == records.bets.height
    frame = replay_records(records, bets=["banker", "dragon7", "player"])
    joined = edges.join(frame.select("shoe", "coup", "ev_banker", "ev_dragon7", "ev_player"), on=["shoe", "coup"])
    expected = (
        pl.when(pl.col("bet") == "banker")
        .then(pl.col("ev_banker"))
        .when(pl.col("bet") == "dragon7")
        .then(pl.col("ev_dragon7"))
        .otherwise(pl.col("ev_player"))
    )
    assert (joined["expected_value"] - joined.select(expected).to_series()).abs().max() == 0
    # the flat Banker bettor's results follow the winners: 0.95 per unit won, -1 lost, 0 on a tie
    flat = edges.filter(pl.col("who") == "seat1").join(
        records.coups.select("shoe", "coup", "winner"), on=["shoe", "coup"]
    )
    pays = {"banker": 9.5, "player": -10.0, "tie": 0.0}
    assert flat["result"].to_list() == [pays[w] for w in flat["winner"]]
    # the Dragon 7 bets come with their published count, the Banker bets with none
    counted = edges.filter(pl.col("bet") == "dragon7").join(
        replay_records(records, systems=["dragon7"], bets=["dragon7"]).select("shoe", "coup", "tc_dragon7"),
        on=["shoe", "coup"],
    )
    assert (counted["system"] == "dragon7").all()
    assert (counted["tc"] == counted["tc_dragon7"]).all()
    assert edges.filter(pl.col("bet") == "banker")["system"].is_null().all()
    result = tracking_test(edges, n_permutations=999, seed=1).sort("who")
    assert result["who"].to_list() == ["seat1", "seat2", "seat3"]
    counter = result.row(2, named=True)
    assert counter["p_value"] < 0.01
    assert counter["money_edge"] > counter["flat_edge"]


@pytest.fixture(scope="module")
def dragon_shoes():
    records = simulate_records(12, ShoeHeader(), seed=77)
    frame = replay_records(records, systems=["dragon7"], bets=["dragon7", "banker"])
    return records, frame


def _bets(frame: pl.DataFrame, who: str, bet: str, amounts: np.ndarray) -> pl.DataFrame:
    return frame.select(
        "shoe", "coup", pl.lit(who).alias("who"), pl.lit(bet).alias("bet"), pl.Series("amount", amounts)
    )


def test_tracking_test_holds_its_false_positive_rate_on_random_bettors(dragon_shoes) -> None:
    records, frame = dragon_shoes
    rng = np.random.default_rng(2024)
    n_bettors = 200
    parts = []
    for i in range(n_bettors):
        bet = "dragon7" if i % 2 else "banker"
        parts.append(_bets(frame, f"b{i}", bet, rng.choice([1.0, 5.0, 25.0], frame.height)))
    edges = bet_edges(records.with_bets(pl.concat(parts)))
    result = tracking_test(edges, n_permutations=199, seed=rng)
    rejected = int((result["p_value"] <= 0.05).sum())
    # stakes independent of the edge: p-values are uniform, so rejections ~ Binomial(200, 0.05);
    # fail only above the 0.999 quantile (false failure 0.1%)
    assert rejected <= stats.binom.ppf(0.999, n_bettors, 0.05)
    # and the p-values are not piled at 1 either (a test that never rejects would pass the line above)
    assert stats.kstest(result["p_value"].to_numpy(), "uniform").pvalue > 0.001


def test_tracking_test_catches_a_bettor_who_follows_the_count(dragon_shoes) -> None:
    records, frame = dragon_shoes
    amounts = np.where(frame["tc_dragon7"].to_numpy() >= 2, 20.0, 1.0)
    edges = bet_edges(records.with_bets(_bets(frame, "counter", "dragon7", amounts)))
    result = tracking_test(edges, n_permutations=999, seed=3).row(0, named=True)
    assert result["p_value"] <= 0.002
    assert result["correlation"] > 0.3


def test_tracking_test_is_reproducible_and_checks_its_input(dragon_shoes) -> None:
    records, frame = dragon_shoes
    edges = bet_edges(records.with_bets(_bets(frame, "x", "banker", np.arange(frame.height) % 3 + 1.0)))
    assert tracking_test(edges, 99, seed=5).equals(tracking_test(edges, 99, seed=5))
    generator = tracking_test(edges, 99, seed=np.random.default_rng(5))
    assert generator.equals(tracking_test(edges, 99, seed=np.random.default_rng(5)))
    with pytest.raises(ValueError, match="n_permutations"):
        tracking_test(edges, 0)
    with pytest.raises(ValueError, match="no bets"):
        bet_edges(records)


def test_plots_of_a_replay_and_of_the_bettors(dragon_shoes) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from toolkit.plots.records import plot_bet_tracking, plot_replay_counts, plot_replay_edges

    records, frame = dragon_shoes
    one = frame.filter(pl.col("shoe") == 1)
    ax = plot_replay_edges(one, bets=["banker", "dragon7"])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Banker", "Dragon 7"]
    assert plot_replay_counts(one).get_ylabel() == "true count"
    with pytest.raises(ValueError, match="draws one shoe"):
        plot_replay_edges(frame)
    with pytest.raises(ValueError, match="no counts"):
        plot_replay_counts(one.select("coup", "ev_banker"))
    edges = bet_edges(records.with_bets(_bets(frame, "x", "dragon7", np.ones(frame.height))))
    assert plot_bet_tracking(edges).get_title() == "stakes against the edge"
    plt.close("all")
