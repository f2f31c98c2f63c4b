"""The theory the study checks (``toolkit.studies.thorp.theory``) and the variance tables of a result."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from toolkit._stats import wilson_interval
from toolkit.bets.paytable import get_bet
from toolkit.bets.pricing import expected_values
from toolkit.coup.cards import RANKS, Composition
from toolkit.studies import linear_variance
from toolkit.studies.thorp.theory import depth_one_in_a_million


# ----------------------------------------------------- the variance check
def test_linear_variance_is_exact_for_one_card_removed() -> None:
    """With one random card gone the EV moves by exactly EOR_c with probability p_c: the prediction is exact."""
    bets = [get_bet("banker"), get_bet("tie"), get_bet("player_pair")]
    predicted = linear_variance([415], bets=bets)[0]
    full = Composition.from_decks(8)
    ev0 = expected_values(np.array([full.by_rank]), bets)[0]
    removed = np.array([full.remove(r).by_rank for r in RANKS])
    eor = expected_values(removed, bets) - ev0
    exact = (eor**2).mean(axis=0) - eor.mean(axis=0) ** 2  # 13 ranks, equally likely
    assert predicted[:2] == pytest.approx(exact[:2], rel=1e-6)
    assert predicted[2] == 0.0  # the pair bets: every rank has the same effect, no first-order spread


def test_linear_variance_holds_deep_in_the_shoe_and_fails_late() -> None:
    """Random subsets of n cards (multivariate hypergeometric), exact EVs, sample variance / prediction.

    With 4,000 subsets the ratio's standard error is about sqrt(2 / 4000) = 2.2 %.  At n = 300 the ratio is
    1.0 +- 0.12 (observed about 1.02; 4.5 standard errors of room: false failure about 1e-5); at n = 20 the
    linear picture fails: the ratio exceeds 1.25 (observed about 1.5, 11 standard errors above).
    """
    rng = np.random.default_rng(20240)
    bets = [get_bet("banker")]
    for n, check in ((300, lambda r: abs(r - 1) < 0.12), (20, lambda r: r > 1.25)):
        subsets = rng.multivariate_hypergeometric([32] * 13, n, size=4000)
        ratio = expected_values(subsets, bets)[:, 0].var(ddof=1) / linear_variance([n], bets=bets)[0, 0]
        assert check(ratio), (n, ratio)


def test_variance_tables(with_records) -> None:
    result, _ = with_records
    var = result.variance()
    by_unseen = result.by_unseen().filter((pl.col("observer") == "unseen") & (pl.col("hands") > 1))
    joined = var.join(by_unseen, on=["bet", "unseen"])
    assert joined.height == var.height
    assert np.allclose(joined["var_ev"], joined["sd_ev"] ** 2)
    assert (
        var.filter(pl.col("bet") == "player_pair")["ratio"].null_count()
        == var.filter(pl.col("bet") == "player_pair").height
    )
    pooled = result.variance_by_bucket()
    assert (
        pooled.group_by("bet")
        .agg(pl.col("hands").sum())
        .sort("bet")
        .equals(var.group_by("bet").agg(pl.col("hands").sum()).sort("bet"))
    )
    banker = pooled.filter(pl.col("bet") == "banker")
    assert (banker["ratio"] > 0).all()
    assert (banker["sd_linear"] > 0).all()
    remaining = result.variance(observer="remaining")
    assert remaining.height > 0
    with pytest.raises(ValueError, match="observer 'nobody' is not in this study"):
        result.variance(observer="nobody")


def test_depth_beyond_which_edges_are_rarer_thandepth_one_in_a_million() -> None:
    """Against the definition, brute force: the smallest d such that for every d' >= d, among the hands dealt
    with more than d' unseen cards, edges (or their upper Wilson bound) are rarer than one in a million."""
    rng = np.random.default_rng(5)

    def brute(positive: np.ndarray, hands: np.ndarray, use_upper: bool) -> int | None:
        ok = []
        for d in range(len(hands)):
            k, n = positive[d + 1 :].sum(), hands[d + 1 :].sum()
            rate = 0.0 if n == 0 else (float(wilson_interval(k, n)[1]) if use_upper else k / n)
            ok.append(rate < 1e-6)
        for d in range(len(hands)):
            if all(ok[d:]):
                return None if (use_upper and d < len(hands) and hands[d + 1 :].sum() == 0) else d
        return None

    for _ in range(30):
        hands = rng.integers(0, 10 ** rng.integers(3, 8), size=60)
        positive = rng.binomial(hands, np.geomspace(0.05, 1e-9, 60) * rng.random())
        assert depth_one_in_a_million(positive, hands, 0.95) == (
            brute(positive, hands, False),
            brute(positive, hands, True),
        )
    hands = np.full(60, 1000)
    positive = np.zeros(60, np.int64)
    positive[[30, 45]] = 1
    assert depth_one_in_a_million(positive, hands, 0.95) == (45, None)  # 14,000 hands cannot show a rate under 1e-6
