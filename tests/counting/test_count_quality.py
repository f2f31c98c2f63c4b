"""Count quality (``toolkit.counting.quality``): counts from effects of removal, betting correlation, R² by depth."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from toolkit.counting import betting_correlation, count_quality, counts, eor_count, get_count_system
from toolkit.dealing.dealer import deal


def test_eor_count_at_two_levels_is_jacobsons_dragon7_count() -> None:
    # Jacobson's Dragon 7 tags are the Dragon 7 effects of removal scaled to +-2 and rounded
    derived = eor_count("dragon7", levels=2, threshold=4)
    assert derived.tags == get_count_system("dragon7").tags
    assert derived.bet == "dragon7"
    assert derived.threshold == 4.0
    finer = eor_count("dragon7", levels=6)
    assert max(abs(t) for t in finer.tags) == 6
    assert betting_correlation(finer, "dragon7") > betting_correlation("dragon7", "dragon7")
    with pytest.raises(ValueError, match="levels"):
        eor_count("dragon7", levels=0)


def test_betting_correlation_is_the_card_weighted_pearson_correlation() -> None:
    from toolkit.bets.paytable import get_bet
    from toolkit.edges.eor import effect_of_removal

    table = effect_of_removal(8, bets=[get_bet("panda8")], by="rank")
    w, e = table["count"].to_numpy().astype(float), table["eor"].to_numpy()
    t = np.array(get_count_system("panda8").tags, dtype=float)
    tm, em = (w * t).sum() / w.sum(), (w * e).sum() / w.sum()
    by_definition = (w * (t - tm) * (e - em)).sum() / np.sqrt((w * (t - tm) ** 2).sum() * (w * (e - em) ** 2).sum())
    assert betting_correlation("panda8", "panda8") == pytest.approx(by_definition, abs=1e-12)
    assert betting_correlation("panda8", "panda8") > 0.99
    assert betting_correlation("dragon7", "dragon7") > 0.95
    assert betting_correlation("thorp_natural9", "natural9") > 0.99
    # the JSTAT ten count points the wrong way for the Tie (Jacobson: it does not beat the game)
    assert betting_correlation("ten_count", "tie") < 0
    # EOR by itself: correlation 1
    assert betting_correlation(eor_count("banker", levels=1000), "banker") == pytest.approx(1.0, abs=1e-5)


def test_count_quality_reports_r2_by_depth() -> None:
    dealt = deal(150, seed=3, progress=False)
    quality = count_quality(dealt, ["dragon7", "how_dragon7", "ten_count"])
    assert set(quality.columns) >= {"system", "bet", "count", "depth", "coups", "r2", "slope", "intercept"}
    overall = {r["system"]: r for r in quality.filter(pl.col("depth") == "all").iter_rows(named=True)}
    assert overall["dragon7"]["coups"] == len(dealt)
    assert overall["dragon7"]["slope"] > 0  # a higher true count means a better Dragon 7
    assert overall["how_dragon7"]["count"] == "running"
    assert overall["dragon7"]["r2"] > 0.6  # a linear count explains most of the exact edge (about 0.8)
    assert overall["ten_count"]["r2"] < 0.5
    assert overall["ten_count"]["slope"] < 0  # the Tie gets worse as the ten count rises
    assert quality["r2"].is_between(0, 1).all()
    by_depth = quality.filter((pl.col("system") == "dragon7") & (pl.col("depth") != "all"))
    assert by_depth["coups"].sum() == len(dealt)


def test_ten_count_never_makes_the_tie_favourable_on_average() -> None:
    """Jacobson, "Baccarat Tie bet flimflam": the ten count does not beat the Tie.

    Over every coup of 300 shoes, the exact Tie EV averaged within each band of
    ten-count true count stays negative (the Tie's edge is 14.4 %; the bands
    move it by at most a few points), at both ends of the count.
    """
    from toolkit.bets.paytable import get_bet
    from toolkit.bets.pricing import expected_values

    dealt = deal(300, seed=8, progress=False)
    _, tc = counts("ten_count", dealt)
    ev = expected_values(dealt.unseen, [get_bet("tie")])[:, 0]
    for lo, hi in ((-np.inf, -10), (-10, -2), (-2, 2), (2, 10), (10, np.inf)):
        band = (tc >= lo) & (tc < hi)
        assert band.sum() > 100
        assert ev[band].mean() < -0.05


def test_count_quality_checks_its_bucket_size() -> None:
    dealt = deal(2, seed=3, progress=False)
    with pytest.raises(ValueError, match="bucket_cards must be a positive integer"):
        count_quality(dealt, ["dragon7"], bucket_cards=0)
    with pytest.raises(TypeError, match="bucket_cards must be an integer"):
        count_quality(dealt, ["dragon7"], bucket_cards=2.5)  # type: ignore[arg-type]
