"""The streaming tally (``toolkit.studies.thorp.tally``) against the slow, obvious path.

The slow path is the per-coup records the same run can write: every aggregate
is recomputed from them with polars and numpy and must agree.  The per-coup
expectations themselves are checked against the exact rational engine.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
import scipy.stats

from toolkit.bets.paytable import standard_bets
from toolkit.coup.cards import Composition
from toolkit.exact.engine import distribution
from toolkit.studies.thorp.design import EDGE_EPSILON, REGIONS


# ------------------------------------------------------- exact per-coup EVs
def test_every_coup_ev_is_the_exact_engine_value(with_records) -> None:
    """Per-coup EVs (both observers) against the rational engine, for coups early and late in the shoe."""
    result, records = with_records
    from toolkit.dealing.dealer import deal_block, shuffled_shoes

    block = result.study.blocks()[0]
    dealt = deal_block(shuffled_shoes(block.n_shoes, 8, block.rng()), result.study.dealing, block.first_shoe)
    assert len(dealt) == records.filter(pl.col("shoe") < block.n_shoes).height
    panel = standard_bets()
    picks = [0, 1, len(dealt) // 2, len(dealt) - 2, len(dealt) - 1]
    for observer, comps, prefix in (("unseen", dealt.unseen, "ev_"), ("remaining", dealt.remaining(), "ev_remaining_")):
        for i in picks:
            row = records.filter((pl.col("shoe") == int(dealt.shoe[i])) & (pl.col("coup") == int(dealt.coup[i])))
            p = distribution(Composition(tuple(int(x) for x in comps[i])), exact=True)
            for bet in panel:
                exact = sum((q * pay for q, pay in zip(p, bet.payoffs, strict=True) if q), Fraction(0))
                assert row[prefix + bet.name].item() == pytest.approx(float(exact), abs=1e-12), (observer, bet.name)


# -------------------------------------------- the tally against the records
def _recompute(records: pl.DataFrame, observer: str, bets: tuple[str, ...]) -> pl.DataFrame:
    """The slow path: per (bet, depth) statistics straight from the per-coup records."""
    prefix = "ev_" if observer == "unseen" else f"ev_{observer}_"
    depth = "cards_unseen" if observer == "unseen" else "cards_left"
    long = records.unpivot(index=["shoe", depth], on=[prefix + b for b in bets], variable_name="bet", value_name="ev")
    return (
        long.with_columns(pl.col("bet").str.strip_prefix(prefix), pl.col(depth).alias("unseen"))
        .group_by("bet", "unseen")
        .agg(
            hands=pl.len(),
            positive=(pl.col("ev") > EDGE_EPSILON).sum(),
            mean_ev=pl.col("ev").mean(),
            sd_ev=pl.col("ev").std(),
            gain_per_hand=pl.when(pl.col("ev") > EDGE_EPSILON).then(pl.col("ev")).otherwise(0.0).mean(),
            max_ev=pl.col("ev").max(),
        )
    )


@pytest.mark.parametrize("observer", ["unseen", "remaining"])
def test_by_unseen_matches_records(with_records, observer: str) -> None:
    result, records = with_records
    bets = result.study.bet_names
    slow = _recompute(records, observer, bets)
    fast = result.by_unseen().filter(pl.col("observer") == observer)
    both = fast.join(slow, on=["bet", "unseen"], how="full", suffix="_slow", coalesce=True)
    assert both.height == fast.height == slow.height
    assert (both["hands"] == both["hands_slow"]).all()
    assert (both["positive"] == both["positive_slow"]).all()
    for col in ("mean_ev", "gain_per_hand", "max_ev"):
        assert np.allclose(both[col], both[f"{col}_slow"], rtol=0, atol=1e-13), col
    sd = both.filter(pl.col("hands") > 1)
    assert np.allclose(sd["sd_ev"], sd["sd_ev_slow"], rtol=1e-7, atol=1e-12)


def test_claims_match_per_shoe_recomputation(with_records) -> None:
    """Shares, per-shoe means and their delta-method intervals, recomputed from per-shoe sums of the records."""
    result, records = with_records
    claims = result.claims().filter(pl.col("observer") == "unseen")
    n = result.n_shoes
    z = scipy.stats.norm.ppf(0.975)
    for bet in ("banker", "tie", "natural9", "player_pair"):
        ev = pl.col(f"ev_{bet}")
        edge = ev > EDGE_EPSILON
        per_shoe = records.group_by("shoe").agg(
            total=edge.sum(),
            gain=pl.when(edge).then(ev).otherwise(0.0).sum(),
            **{f"in_{r}": (edge & pl.col("cards_unseen").is_between(lo, hi)).sum() for r, (lo, hi) in REGIONS.items()},
        )
        row = claims.filter(pl.col("bet") == bet).to_dicts()[0]
        total = per_shoe["total"].to_numpy().astype(float)
        total = np.concatenate([total, np.zeros(n - len(total))])  # shoes with no coup cannot happen, but be exact
        assert row["positive_hands"] == total.sum()
        assert row["opportunities_per_shoe"] == pytest.approx(total.mean())
        assert row["opportunities_per_shoe_se"] == pytest.approx(total.std(ddof=1) / np.sqrt(n))
        assert row["gain_per_shoe"] == pytest.approx(per_shoe["gain"].sum() / n)
        assert row["shoes_with_edge"] == pytest.approx((total > 0).mean())
        for region in REGIONS:
            a = per_shoe[f"in_{region}"].to_numpy().astype(float)
            if total.sum() == 0:
                assert row[f"share_positive_{region}"] is None
                continue
            share = a.sum() / total.sum()
            resid = a - share * total
            se = resid.std(ddof=0) * np.sqrt(n / (n - 1)) / np.sqrt(n) / total.mean()
            assert row[f"share_positive_{region}"] == pytest.approx(share)
            assert row[f"share_positive_{region}_low"] == pytest.approx(max(share - z * se, 0), abs=1e-12)
            assert row[f"share_positive_{region}_high"] == pytest.approx(min(share + z * se, 1), abs=1e-12)


def test_histogram_buckets_cumulative_and_baseline_are_consistent(with_records) -> None:
    result, records = with_records
    per_shoe = result.per_shoe().filter((pl.col("observer") == "unseen") & (pl.col("bet") == "banker"))
    assert per_shoe["shoes"].sum() == result.n_shoes
    opp = (pl.col("ev_banker") > EDGE_EPSILON).sum()
    counts = records.group_by("shoe").agg(opp)["ev_banker"].to_list()
    expected = np.bincount(np.minimum(counts, 64), minlength=65)
    assert per_shoe["shoes"].to_list() == expected.tolist()

    exact = result.by_unseen()
    buckets = result.by_bucket()
    for observer in ("unseen", "remaining"):
        e, b = (f.filter(pl.col("observer") == observer) for f in (exact, buckets))
        agg = e.group_by("bet").agg(pl.col("hands").sum(), pl.col("positive").sum(), pl.col("max_ev").max())
        bagg = b.group_by("bet").agg(pl.col("hands").sum(), pl.col("positive").sum(), pl.col("max_ev").max())
        assert agg.sort("bet").equals(bagg.sort("bet"))
    assert set(buckets["bucket"]) <= {
        "0-10",
        "11-20",
        "21-30",
        "31-40",
        "41-50",
        "51-75",
        "76-100",
        "101-150",
        "151-200",
        "201-300",
        "301-416",
    }

    cum = result.cumulative().filter((pl.col("observer") == "unseen") & (pl.col("bet") == "banker"))
    assert cum["share_hands_within"][-1] == pytest.approx(1.0)
    assert (cum["share_hands_within"].diff().drop_nulls() >= 0).all()
    claims = result.claims().filter((pl.col("observer") == "unseen") & (pl.col("bet") == "banker")).row(0, named=True)
    hands_20 = records.filter(pl.col("cards_unseen") <= 20).height
    assert claims["share_hands_last_20"] == pytest.approx(hands_20 / records.height)


def test_remaining_observer_counts_by_cards_left(with_records) -> None:
    result, records = with_records
    hands = result.tally.arrays["hands"]
    assert np.array_equal(hands[0], np.bincount(records["cards_unseen"], minlength=417))
    assert np.array_equal(hands[1], np.bincount(records["cards_left"], minlength=417))
    assert (records["cards_left"] <= records["cards_unseen"]).all()


# ------------------------------------------------- the spec packed for workers
def test_a_packed_spec_is_unpickled_once_per_process_and_tallies_the_same() -> None:
    """A worker unpickles the packed spec at its first block only, and every block tallies as with the spec itself."""
    from packed_blocks import run_as_a_fresh_worker

    from toolkit import _packing
    from toolkit.studies import ThorpStudy
    from toolkit.studies.thorp import tally

    study = ThorpStudy(n_shoes=6, seed=3, bets=("banker", "tie"), block_size=3)
    spec = tally.block_spec(study)
    packed = _packing.pack_spec(spec)
    blocks = list(study.blocks())
    direct = [tally.tally_block(b, spec) for b in blocks]
    outputs, unpacked = run_as_a_fresh_worker(tally.tally_packed, blocks, packed, spec)
    assert unpacked.bet_names == spec.bet_names
    for a, b in zip(direct, outputs, strict=True):
        assert a.tally.arrays.keys() == b.tally.arrays.keys()
        for key, value in a.tally.arrays.items():
            assert np.array_equal(value, b.tally.arrays[key]), key
