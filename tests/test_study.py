"""The Thorp study (``toolkit.studies.thorp.study``) and its report (``toolkit.studies.thorp.report``).

The streaming tally is the fast path; the slow, obvious path is the per-coup
records the same run can write: every aggregate is recomputed from them with
polars and numpy and must agree.  The per-coup expectations themselves are
checked against the exact rational engine.  Resume, worker processes and a
Dask ``LocalCluster`` must give bit-for-bit the same tally as one plain run.
"""

from __future__ import annotations

import json
import tracemalloc
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
import scipy.stats

from toolkit.bets import get_bet, standard_bets
from toolkit.cards import RANKS, Composition
from toolkit.dealing import Dealing
from toolkit.engine import distribution, expected_values
from toolkit.studies.thorp.report import _thorp_status as thorp_status
from toolkit.studies.thorp.report import reproduce_providers, summary, verdicts, write_outputs
from toolkit.rules import Rules
from toolkit.studies.thorp.study import (
    EDGE_EPSILON,
    REGIONS,
    ThorpStudy,
    _one_in_a_million,
    checkpoint_seed,
    jacobson_setting,
    linear_variance,
    records_frame,
    run_study,
    wilson_interval,
)

SMALL = {"shoes": 120, "seed": 11, "block_size": 40}


@pytest.fixture(scope="module")
def with_records(tmp_path_factory: pytest.TempPathFactory):
    """A small two-observer study and the per-coup records it wrote."""
    folder = tmp_path_factory.mktemp("records")
    study = ThorpStudy(**SMALL, observers=("unseen", "remaining"))
    result = run_study(study, progress=False, records=folder)
    return result, records_frame(folder).collect()


@pytest.fixture(scope="module")
def plain():
    """The reference run: the SMALL study in this process, no checkpoint."""
    return run_study(ThorpStudy(**SMALL), progress=False)


# --------------------------------------------------------------- validation
def test_study_validates_its_options() -> None:
    with pytest.raises(ValueError, match="shoes must be a positive integer"):
        ThorpStudy(shoes=0)
    with pytest.raises(ValueError, match="observers must be distinct names"):
        ThorpStudy(observers=("everyone",))
    with pytest.raises(ValueError, match="unknown bet 'roulette'; known bets: banker"):
        ThorpStudy(bets=("roulette",))
    with pytest.raises(TypeError, match="give Bets or panel names"):
        ThorpStudy(bets=(3,))
    with pytest.raises(ValueError, match="distinct bets"):
        ThorpStudy(bets=("tie", "tie"))
    with pytest.raises(ValueError, match=r"jacobson_depths must be 6\.\.52"):
        ThorpStudy(dealing=Dealing(decks=1), jacobson_depths=(60,))
    with pytest.raises(ValueError, match="differs from the dealing's"):
        ThorpStudy(rules=Rules(tableau=Dealing().tableau.with_player(5, False)))
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        ThorpStudy(seed=-1)
    study = ThorpStudy(seed=None, observers="remaining", bets=("banker", get_bet("tie")))
    assert isinstance(study.seed, int)
    assert study.observers == ("remaining",)
    assert study.bet_names == ("banker", "tie")


# ------------------------------------------------------- exact per-coup EVs
def test_every_coup_ev_is_the_exact_engine_value(with_records) -> None:
    """Per-coup EVs (both observers) against the rational engine, for coups early and late in the shoe."""
    result, records = with_records
    from toolkit.dealing import deal_block, shuffled_shoes

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


# ------------------------------------------------------------ determinism
def test_resume_after_an_interruption_gives_the_same_tally(plain, tmp_path) -> None:
    class StopError(Exception):
        pass

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise StopError

    study = ThorpStudy(**SMALL)
    with pytest.raises(StopError):
        run_study(study, progress=False, checkpoint=tmp_path, checkpoint_every=5, on_block=stop_after_two)
    assert checkpoint_seed(tmp_path) == SMALL["seed"]
    resumed = run_study(study, progress=False, checkpoint=tmp_path)
    assert resumed.complete
    assert resumed.blocks_done == study.n_blocks
    assert 0 < resumed.coups_this_run < plain.n_hands  # only the last block was dealt again
    assert resumed.tally.equals(plain.tally)
    # a finished run resumes to the same result without dealing anything
    again = run_study(study, progress=False, checkpoint=tmp_path)
    assert again.coups_this_run == 0
    assert again.tally.equals(plain.tally)
    # another study refuses the checkpoint, and --no-resume starts afresh
    with pytest.raises(ValueError, match=r"different study \(differs in: seed\)"):
        run_study(ThorpStudy(**{**SMALL, "seed": 12}), progress=False, checkpoint=tmp_path)
    fresh = run_study(ThorpStudy(**{**SMALL, "seed": 12}), progress=False, checkpoint=tmp_path, resume=False)
    assert checkpoint_seed(tmp_path) == 12
    assert not fresh.tally.equals(plain.tally)


def test_worker_processes_give_the_same_tally(plain) -> None:
    two = run_study(ThorpStudy(**SMALL), workers=2, progress=False)
    assert two.tally.equals(plain.tally)
    other = run_study(ThorpStudy(**{**SMALL, "seed": 99}), progress=False)
    assert not other.tally.equals(plain.tally)


def test_dask_local_cluster_gives_the_same_tally(plain) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = run_study(ThorpStudy(**SMALL), scheduler=client, progress=False)
        by_address = run_study(ThorpStudy(**SMALL), scheduler=cluster.scheduler_address, progress=False)
    assert remote.tally.equals(plain.tally)
    assert by_address.tally.equals(plain.tally)


def test_memory_stays_flat_as_shoes_grow() -> None:
    """The tally has the same size for any number of shoes, and peak memory does not grow with them."""

    def peak(shoes: int) -> int:
        tracemalloc.start()
        result = run_study(ThorpStudy(shoes=shoes, seed=1, block_size=30, bets=("banker", "tie")), progress=False)
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert result.n_shoes == shoes
        return size

    peak(30)  # warm the caches (compiled evaluators, numba) outside the measurement
    small, large = peak(60), peak(240)
    assert large < 1.5 * small, (small, large)


# ------------------------------------------------------ Jacobson's setting
def test_jacobson_setting_alone_equals_the_study_part(plain) -> None:
    alone = jacobson_setting(SMALL["shoes"], seed=SMALL["seed"], block_size=SMALL["block_size"], progress=False)
    assert alone.equals(plain.jacobson())
    assert alone["samples"].unique().to_list() == [SMALL["shoes"]]


def test_jacobson_setting_evaluates_the_last_cards_of_each_shoe() -> None:
    """The last n cards of a shuffled shoe, evaluated by the engine, one shoe at a time."""
    from toolkit.dealing import shuffled_shoes
    from toolkit.parallel import block_plan

    table = jacobson_setting(25, seed=4, depths=(18, 50), progress=False)
    shoes = shuffled_shoes(25, 8, block_plan(25, 1000, 4)[0].rng())
    for depth in (18, 50):
        comps = np.array([np.bincount(s[-depth:], minlength=13) for s in shoes])
        ev = expected_values(comps, [get_bet("player"), get_bet("banker")])
        rows = table.filter(pl.col("unseen") == depth)
        assert rows["positive"].to_list() == (ev > EDGE_EPSILON).sum(axis=0).tolist()
        assert np.allclose(rows["mean_ev"], ev.mean(axis=0), atol=1e-15)


@pytest.mark.slow
def test_jacobson_100000_shoes_and_no_edges_beyond_50_cards() -> None:
    """Jacobson, "The World's Greatest Baccarat Player": 100,000 eight-deck shoes at 18-50 unseen cards.

    He printed no percentages in the part of the post the team has; what is checked is the shape (the chance
    of an edge falls with every depth) and his statement "beyond 50 cards, effectively no player edge":
    measured over every coup of 5,000 dealt shoes, under 1 hand in 1,000 (observed about 1 in 10,000).
    The intervals are 95 % Wilson intervals; the checks sit many standard errors from the observed values.
    """
    table = jacobson_setting(100_000, seed=2024, workers=None, progress=False)
    for bet in ("player", "banker"):
        p = table.filter(pl.col("bet") == bet).sort("unseen")["p_positive"].to_numpy()
        assert np.all(np.diff(p) < 0), (bet, p)
        assert 0.03 < p[0] < 0.08  # 18 unseen cards: about 5 %
        assert p[-1] < 0.008  # 50 unseen cards: about 0.4 %
    result = run_study(ThorpStudy(shoes=5000, seed=2024, bets=("player", "banker")), workers=None, progress=False)
    beyond = result.beyond(50)
    assert (beyond["rate_high"] < 1e-3).all(), beyond


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


# ------------------------------------------------------------- helpers
def test_wilson_interval_matches_scipy() -> None:
    for k, n in ((0, 10), (3, 10), (10, 10), (7, 12345), (500, 1000)):
        lo, hi = wilson_interval(k, n)
        ci = scipy.stats.binomtest(k, n).proportion_ci(method="wilson")
        assert (float(lo), float(hi)) == pytest.approx((ci.low, ci.high), abs=1e-12)
    lo, hi = wilson_interval(0, 0)
    assert np.isnan(lo)
    assert np.isnan(hi)


def test_depth_beyond_which_edges_are_rarer_than_one_in_a_million() -> None:
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
        assert _one_in_a_million(positive, hands, 0.95) == (brute(positive, hands, False), brute(positive, hands, True))
    hands = np.full(60, 1000)
    positive = np.zeros(60, np.int64)
    positive[[30, 45]] = 1
    assert _one_in_a_million(positive, hands, 0.95) == (45, None)  # 14,000 hands cannot show a rate under 1e-6


def test_thorp_claim_statuses() -> None:
    base = {"positive_hands": 10, "share_positive_beyond_50": 0.05}
    assert thorp_status({**base, "positive_hands": 0}) == "no edges seen"
    assert thorp_status({**base, "share_positive_last_20_low": 0.92, "share_positive_last_20_high": 0.97}) == "holds"
    partly = {**base, "share_positive_last_20_low": 0.3, "share_positive_last_20_high": 0.4}
    assert thorp_status(partly) == "holds only partly"
    assert thorp_status({**partly, "share_positive_beyond_50": 0.3}) == "does not hold"
    straddle = {**base, "share_positive_last_20_low": 0.85, "share_positive_last_20_high": 0.95}
    assert thorp_status(straddle) == "undecided at this number of shoes"


# ----------------------------------------------------------------- report
def test_summary_has_what_scripts_need(plain) -> None:
    data = json.loads(json.dumps(summary(plain)))
    assert data["study"]["shoes"] == SMALL["shoes"]
    assert data["study"]["complete"]
    for bet in plain.study.bet_names:
        entry = data["bets"][bet]
        for key in ("hands", "positive_hands", "share_positive_within_last_20", "gain_per_shoe", "p_positive"):
            assert key in entry, (bet, key)
        assert entry["hands"] == plain.n_hands
        assert len(entry["p_positive"]) > 50  # one entry per depth dealt
    assert {r["unseen"] for r in data["jacobson"]} == {18, 26, 34, 42, 50}


def test_verdicts_name_every_bet_with_numbers(plain) -> None:
    table = verdicts(plain)
    assert table["bet"].to_list() == list(plain.study.bet_names)
    banker = table.filter(pl.col("bet") == "banker")["verdict"].item()
    assert banker.startswith("Banker: ")
    assert "per shoe" in banker
    assert "%" in banker


def test_reproduce_providers_cover_the_study_figures(plain) -> None:
    providers = reproduce_providers(plain)
    assert {f"jacobson_perfect_{d}" for d in (18, 26, 34, 42, 50)} <= set(providers)
    assert {"jacobson_perfect_beyond_50", "thorp_1984_last_cards", "thorp_walden_1973_spread"} <= set(providers)
    out = providers["thorp_walden_1973_spread"]({})
    assert "natural 9" in out.value
    assert out.matches is True  # 120 shoes already show it clearly
    beyond = providers["jacobson_perfect_beyond_50"]({})
    assert "beyond 50 unseen cards" in beyond.value


def test_write_outputs(plain, tmp_path) -> None:
    paths = write_outputs(plain, tmp_path, reproduce=True, figures=True)
    for name in ("by_unseen", "by_bucket", "claims", "variance", "jacobson"):
        assert (tmp_path / "tables" / f"{name}.parquet").is_file()
        assert pl.read_csv(tmp_path / "tables" / f"{name}.csv").height > 0
    assert pl.read_parquet(paths["claims"])["verdict"].null_count() == 0
    figures = sorted(p.name for p in (tmp_path / "figures").glob("*.png"))
    assert {"p_positive_by_unseen.png", "mean_positive_ev_by_unseen.png", "variance_by_unseen.png"} <= set(figures)
    assert any(f.startswith("gain_share_by_depth") for f in figures)
    report = paths["report"].read_text()
    for heading in ("## Verdict", "## Jacobson's computer-perfect setting", "## The fundamental theorem",
                    "## Published figures, reproduced", "figures/p_positive_by_unseen.png"):  # fmt: skip
        assert heading in report
    reproduce = pl.read_csv(paths["reproduce"])
    assert reproduce.filter(pl.col("figure") == "house_edge_8d_banker")["status"].item() == "match"
    assert reproduce.filter(pl.col("figure") == "jacobson_perfect_18")["toolkit"].item().startswith("P(Player EV > 0)")
