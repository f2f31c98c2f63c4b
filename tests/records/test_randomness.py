"""Randomness tests: their false-positive rate on simulated shoes, and badly shuffled shoes they catch; the roads.

False-positive checks run each test at level 0.05 on ``REPS`` independent sets of simulated shoes (fair shuffles)
and fail only when the rejections exceed the 0.999 quantile of Binomial(REPS, 0.05): a false failure rate of at
most 0.1% per test (less for the conservative discrete tests).  The ``slow`` variant repeats this with 400 sets
and also checks that the continuous tests' p-values are uniform.
"""

from __future__ import annotations

import gc
import itertools
from dataclasses import replace

import numpy as np
import polars as pl
import pytest
from scipy import stats

from toolkit.records import (
    ShoeHeader,
    baseline,
    bead_plate,
    big_road,
    cut_card_test,
    deck_mixing_test,
    frequency_test,
    randomness_tests,
    records_from_frame,
    records_from_orders,
    repeated_sequences,
    runs_test,
    simulate_records,
    streak_test,
)
from toolkit.records._calibrate import _REFERENCE
from toolkit.records.randomness import _quadratic, _runs_z, _shoe_runs, _window_dispersion

ALPHA = 0.05
REPS = 30


@pytest.fixture(scope="module")
def base():
    return baseline(simulate_records(1, seed=0), 1500, seed=314)


def test_the_martingale_statistic_is_pearsons_when_every_coup_has_the_same_odds() -> None:
    p = np.array([0.4586, 0.4462, 0.0952])
    p = p / p.sum()
    n = 500
    rng = np.random.default_rng(1)
    observed = rng.multinomial(n, p).astype(float)
    expected = n * p
    cov = np.diag(expected) - n * np.outer(p, p)
    statistic, df = _quadratic(observed - expected, cov)
    assert statistic == pytest.approx(stats.chisquare(observed, expected).statistic)
    assert df == 2


def test_the_window_dispersion_is_the_mean_over_each_shoes_windows() -> None:
    """The vectorised dispersion against its definition, window by window, on shoes shorter and longer than a deck
    (a shoe with fewer than 52 cards seen has none)."""
    rng = np.random.default_rng(5)
    lengths = [60, 10, 52, 53, 0, 417, 51]
    seq = rng.integers(0, 13, size=sum(lengths)).astype(np.int8)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    got = _window_dispersion(seq, offsets)
    for s, (a, b) in enumerate(itertools.pairwise(offsets)):
        windows = [np.bincount(seq[i : i + 52], minlength=13) for i in range(a, b - 51)]
        if not windows:
            assert np.isnan(got[s])
            continue
        assert got[s] == pytest.approx(np.mean([((w - 52 / 13) ** 2).sum() for w in windows]), rel=1e-12)
    assert np.isnan(_window_dispersion(seq[:40], np.array([0, 40]))).all()


def test_runs_and_longest_streaks_are_those_of_each_shoes_sequence() -> None:
    """The per-shoe runs and streaks, computed for all shoes at once, against each shoe's Banker/Player sequence
    walked on its own (ties left out; a shoe of ties only has none, a one-sided shoe no z score)."""
    coups = simulate_records(40, seed=6).coups
    winners = ["tie", "tie", "banker", "banker", "tie", "player", "banker", "banker", "player", "banker"]
    coups = pl.concat(
        [coups.select("shoe", "winner"), pl.DataFrame({"shoe": [901] * 2 + [902] * 3 + [903] * 5, "winner": winners})],
        how="vertical_relaxed",
    )
    shoes = _shoe_runs(coups)
    z = _runs_z(shoes)
    decided = coups.filter(pl.col("winner") != "tie")
    assert shoes["shoe"].to_list() == decided["shoe"].unique(maintain_order=True).to_list()
    for i, shoe in enumerate(shoes["shoe"]):
        seq = [w == "banker" for w in decided.filter(pl.col("shoe") == shoe)["winner"]]
        lengths = [len(list(run)) for _, run in itertools.groupby(seq)]
        assert shoes["longest"][i] == max(lengths)
        n1, n2 = sum(seq), len(seq) - sum(seq)
        n = n1 + n2
        var = 2 * n1 * n2 * (2 * n1 * n2 - n) / (n * n * (n - 1)) if n > 1 else 0
        if n1 == 0 or n2 == 0 or var <= 0:
            assert np.isnan(z[i])
        else:
            assert z[i] == (len(lengths) - (2 * n1 * n2 / n + 1)) / np.sqrt(var)


def test_a_baselines_statistics_are_computed_once_and_dropped_with_it() -> None:
    """A baseline compared with record after record: its per-shoe statistics are kept while it lives (read-only),
    the results those of a copy of it that computes them afresh, and nothing is held once it is gone."""
    records = simulate_records(3, seed=4)

    def battery(base):
        tests = (runs_test, streak_test, deck_mixing_test)
        found = [t(records, base) for t in tests] + [frequency_test(records.outcomes(), base=base)]
        return [(r.test, r.statistic, r.p_value, r.detail) for r in found]

    base = baseline(simulate_records(1, seed=0), 40, seed=2)
    first = battery(base)
    held = _REFERENCE[id(base)]
    assert len(held) == 4
    assert not any(v.flags.writeable for v in held.values())
    assert battery(base) == first  # from what is held
    assert len(_REFERENCE[id(base)]) == 4
    copy = replace(base)
    assert battery(copy) == first  # computed again for the copy
    key = id(base)
    del base, held
    gc.collect()
    assert key not in _REFERENCE


def _false_positives(base, reps: int, shoes: int, seed: int) -> dict[str, list[float]]:
    p: dict[str, list[float]] = {}
    for rep in range(reps):
        records = simulate_records(shoes, seed=np.random.SeedSequence([seed, rep]))
        roads = records.outcomes()
        results = [
            frequency_test(records),
            replace(frequency_test(records, pairs=True), test="pairs"),
            replace(frequency_test(roads, base=base), test="road frequencies"),
            runs_test(records, base),
            streak_test(records, base),
            cut_card_test(records, base),
            deck_mixing_test(records, base),
            repeated_sequences(records)[0],
            repeated_sequences(records, consecutive=True)[0],
        ]
        for r in results:
            p.setdefault(r.test, []).append(r.p_value)
    return p


def test_every_test_holds_its_false_positive_rate_on_fair_shoes(base) -> None:
    limit = stats.binom.ppf(0.999, REPS, ALPHA)
    for name, values in _false_positives(base, REPS, 6, seed=11).items():
        rejected = int((np.array(values) <= ALPHA).sum())
        assert rejected <= limit, f"{name}: {rejected} of {REPS} fair record sets rejected at {ALPHA}"


@pytest.mark.slow
def test_false_positive_rates_and_uniform_p_values_over_many_sets(base) -> None:
    reps = 400
    limit = stats.binom.ppf(0.999, reps, ALPHA)
    for name, found in _false_positives(base, reps, 8, seed=12).items():
        values = np.array(found)
        assert int((values <= ALPHA).sum()) <= limit, name
        if name in ("frequencies", "runs", "deck mixing", "road frequencies"):
            # continuous statistics: p-values uniform (KS at 0.001)
            assert stats.kstest(values, "uniform").pvalue > 0.001, name


# ------------------------------------------------------------------ badly shuffled shoes
def _stacked_decks(n: int, rng: np.random.Generator) -> np.ndarray:
    """8 decks, each shuffled on its own, stacked: no card of one deck mixed with another."""
    deck = np.repeat(np.arange(13), 4)
    return np.stack([np.concatenate([rng.permutation(deck) for _ in range(8)]) for _ in range(n)]).astype(np.int8)


def _riffle(order: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One Gilbert-Shannon-Reeds riffle: cut binomially, drop cards from each half in proportion to its size."""
    cut = rng.binomial(len(order), 0.5)
    halves = [list(order[:cut]), list(order[cut:])]
    out = []
    while halves[0] or halves[1]:
        left, right = len(halves[0]), len(halves[1])
        side = 0 if rng.random() < left / (left + right) else 1
        out.append(halves[side].pop(0))
    return np.array(out, dtype=np.int8)


def test_stacked_decks_are_caught_in_one_shoe(base) -> None:
    records = records_from_orders(_stacked_decks(1, np.random.default_rng(8)))
    result = deck_mixing_test(records, base)
    assert result.p_value < 1e-4
    assert result.statistic < 0  # too even


def test_a_shoe_remade_from_the_last_with_one_riffle_is_caught(base) -> None:
    rng = np.random.default_rng(9)
    first = rng.permutation(np.repeat(np.arange(13), 32)).astype(np.int8)
    records = records_from_orders(np.stack([first, _riffle(first, rng)]))
    for consecutive in (False, True):
        result, matches = repeated_sequences(records, consecutive=consecutive)
        assert result.p_value < 1e-6
        assert matches.height == result.statistic
        assert set(matches["shoe_a"]) == {1}
        assert set(matches["shoe_b"]) == {2}
        assert (matches["length"] >= int(result.table["k"][0])).all()


def test_shoes_cut_short_are_caught(base) -> None:
    short = simulate_records(40, ShoeHeader().updated(cut_card=60), seed=10)
    declared = replace(short, header=ShoeHeader(), headers=tuple(ShoeHeader() for _ in short.headers))
    assert cut_card_test(declared, base).p_value < 1e-6


def test_outcome_roads_that_are_too_choppy_streaky_or_banker_heavy_are_caught(base) -> None:
    choppy = records_from_frame(pl.DataFrame({"shoe": range(20), "road": ["BP" * 38] * 20}))
    assert runs_test(choppy, base).p_value < 1e-6
    streaky = records_from_frame(pl.DataFrame({"shoe": range(20), "road": ["B" * 20 + "P" * 20 + "B" * 20] * 20}))
    assert streak_test(streaky, base).p_value < 1e-6
    heavy = records_from_frame(pl.DataFrame({"shoe": range(20), "road": ["BBBPBBBPT" * 9] * 20}))
    assert frequency_test(heavy, base=base).p_value < 1e-6


def test_randomness_tests_report_every_test_that_applies(base) -> None:
    records = simulate_records(4, seed=21)
    table = randomness_tests(records, base)
    assert table["test"].to_list() == [
        "frequencies",
        "pair frequencies",
        "runs",
        "longest streak",
        "cut card",
        "deck mixing",
        "repeated sequences",
        "repeated sequences (consecutive shoes)",
    ]
    assert table["p_value"].is_between(0, 1).all()
    assert table.filter(pl.col("test").str.contains("frequencies"))["df"].to_list() == [2, 2]
    roads = randomness_tests(records.outcomes(), base)
    assert roads.height == 5


# ------------------------------------------------------------------ roads
def test_bead_plate_fills_columns_top_down() -> None:
    records = records_from_frame(pl.DataFrame({"shoe": ["s"], "road": ["BpPbTBPPPBpb"]}))
    plate = bead_plate(records, "s")
    assert plate.select("column", "row").rows() == [(c // 6, c % 6) for c in range(8)]
    assert plate["label"].to_list() == list("BPTBPPPB")
    assert plate.filter(pl.col("player_pair"))["coup"].to_list() == [1, 8]
    assert plate.filter(pl.col("banker_pair"))["coup"].to_list() == [2, 8]


def test_big_road_turns_right_at_the_bottom_and_marks_ties() -> None:
    records = records_from_frame(pl.DataFrame({"shoe": [1], "road": ["TT" + "B" * 8 + "T" + "PP" + "B"]}))
    road = big_road(records, 1)
    assert road.select("column", "row").rows()[:8] == [(0, r) for r in range(6)] + [(1, 5), (2, 5)]
    assert road["ties"].to_list()[0] == 2  # the ties before the first decision sit on the first cell
    assert road.filter(pl.col("coup") == 10)["ties"].item() == 1
    # the next streak starts at the top of the column after the previous streak's first column
    assert road.filter(pl.col("winner") == "player").select("column", "row").rows() == [(1, 0), (1, 1)]
    assert road.filter(pl.col("coup") == 14).select("column", "row", "streak").rows() == [(2, 0, 3)]
    with pytest.raises(ValueError, match="no shoe"):
        big_road(records, 2)


def test_road_plots_draw_a_mark_per_cell() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from toolkit.plots.records import plot_bead_plate, plot_big_road

    records = records_from_frame(pl.DataFrame({"shoe": [1], "road": ["BBpPTTPBb"]}))
    plate = plot_bead_plate(bead_plate(records, 1))
    assert len(plate.texts) == 7  # B, Bp, P, T, T, P, Bb
    assert plate.get_xlabel() == ""
    road = big_road(records, 1)
    ax = plot_big_road(road)
    assert sum(len(c.get_offsets()) for c in ax.collections) == road.height
    assert len(ax.lines) == 1  # one cell carries the two ties (a slash and a count)
    assert [t.get_text() for t in ax.texts] == ["2"]
    plt.close("all")
