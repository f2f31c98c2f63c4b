"""Studies of :mod:`toolkit.edges.depletion` against the exact path, and the plots of :mod:`toolkit.plots.edges`."""

from __future__ import annotations

import matplotlib
import numpy as np
import polars as pl
import pytest

import toolkit as bt
from toolkit import edges, plots

matplotlib.use("Agg")


def exact_ev(bet: str, shoe) -> float:
    return float(bt.bet_stats(bt.get_bet(bet), shoe).exact_expected_value)


def test_edges_by_decks_reproduces_published_edges() -> None:
    table = edges.edges_by_decks([6, 8])
    edge = {(r["decks"], r["bet"]): r["house_edge"] * 100 for r in table.iter_rows(named=True)}
    assert round(edge[8, "banker"], 4) == 1.0579  # Wizard of Odds
    assert round(edge[8, "ez_banker"], 4) == 1.0183  # Wizard of Odds, EZ Baccarat
    assert round(edge[8, "super6_banker"], 4) == 1.4581  # Jacobson
    assert round(edge[8, "tie_9to1"], 3) == 4.844  # Wizard of Odds
    assert round(edge[6, "tie"], 2) == 14.44  # casinoexploit.com, 6 decks
    assert set(table["variant"]) == set(edges.MAIN_VARIANTS.values())


def test_edges_by_decks_honours_the_rules() -> None:
    table = edges.edges_by_decks([8], bets=["banker", "tie"], rules=bt.Rules(commission=0, tie_pays=9))
    got = dict(zip(table["bet"], table["house_edge"], strict=True))
    counts = bt.combination_counts(8)
    assert got["banker"] == pytest.approx((counts["player"] - counts["banker"]) / counts["total"])
    assert round(got["tie"] * 100, 3) == 4.844


def test_depletion_by_value_matches_the_exact_path() -> None:
    table = edges.depletion_by_value(2, bets=["banker", "dragon7"], values=[0, 4, 9])
    full = bt.Composition.from_decks(2)
    assert table.filter((pl.col("value") == 0) & (pl.col("bet") == "banker")).height == 32 + 1
    for value, removed in ((4, 3), (9, 8), (0, 20)):
        shoe = full
        for _ in range(removed):
            shoe = shoe.remove_value(value)
        for bet in ("banker", "dragon7"):
            row = table.filter(value=value, cards_removed=removed, bet=bet)
            assert row["cards_left"].item() == shoe.total
            assert row["expected_value"].item() == pytest.approx(exact_ev(bet, shoe), abs=1e-13)


def test_random_depletion_paths_are_shuffles_and_match_the_exact_path() -> None:
    table = edges.random_depletion(1, paths=3, bets=["player"], step=7, rng=5)
    assert table["cards_left"].min() >= 6
    assert table.filter(pl.col("cards_removed") == 0)["expected_value"].to_list() == pytest.approx(
        [exact_ev("player", 1)] * 3, abs=1e-14
    )
    assert (table["cards_left"] + table["cards_removed"] == 52).all()
    # paths differ, and the same seed gives the same paths
    ends = table.filter(pl.col("cards_removed") == 42)["expected_value"]
    assert ends.n_unique() > 1
    assert table.equals(edges.random_depletion(1, paths=3, bets=["player"], step=7, rng=5))


def test_random_depletion_accepts_a_generator() -> None:
    a = edges.random_depletion(1, paths=2, bets=["tie"], step=10, rng=np.random.default_rng(3))
    b = edges.random_depletion(1, paths=2, bets=["tie"], step=10, rng=3)
    assert a.equals(b)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: edges.random_depletion(8, paths=0), "paths must be a positive integer"),
        (lambda: edges.random_depletion(8, step=0), "step must be a positive integer"),
        (lambda: edges.depletion_by_value(8, values=[10]), "card values are 0..9"),
        (lambda: edges.depletion_by_value(8, min_left=3), "min_left must be at least 6"),
        (lambda: edges.edges_by_decks([0]), "decks must be positive integers"),
        (lambda: edges.edges_by_decks([8], bets=["no_such_bet"]), "unknown bet"),
    ],
)
def test_bad_study_parameters_say_what_was_wrong(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_plots_draw_on_the_given_axes_and_return_them() -> None:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4)
    try:
        assert plots.plot_edges_by_decks(edges.edges_by_decks([1, 2], bets=["player"]), ax=axes[0]) is axes[0]
        eor = bt.effect_of_removal(8, bets=[bt.get_bet("banker"), bt.get_bet("tie")])
        assert plots.plot_eor_heatmap(eor, ax=axes[1]) is axes[1]
        depletion = edges.depletion_by_value(1, bets=["banker"], values=[4, 5])
        assert plots.plot_depletion(depletion, "banker", ax=axes[2]) is axes[2]
        paths = edges.random_depletion(1, paths=2, bets=["banker"], step=5, rng=1)
        assert plots.plot_depletion(paths, "banker", ax=axes[3], x="cards_left") is axes[3]
        assert len(axes[2].get_lines()) >= 2
    finally:
        plt.close(fig)


def test_plots_reject_frames_without_their_columns() -> None:
    with pytest.raises(ValueError, match="lacks column"):
        plots.plot_eor_heatmap(pl.DataFrame({"bet": ["banker"]}))
    with pytest.raises(TypeError, match="polars DataFrame"):
        plots.plot_edges_by_decks({"decks": [8]})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no rows for bet"):
        plots.plot_depletion(edges.depletion_by_value(1, bets=["tie"], values=[1]), "banker")
