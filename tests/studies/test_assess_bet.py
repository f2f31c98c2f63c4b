"""The side-bet assessment: the count found, its bound, its verdict, and the files of the report.

Stochastic checks use a few hundred shoes; each states its false-failure rate.
"""

from __future__ import annotations

import json

import matplotlib
import numpy as np
import polars as pl
import pytest

import toolkit
from toolkit.bets.paytable import get_bet
from toolkit.counting import PreCoup
from toolkit.dealing.dealer import Dealing, deal
from toolkit.plots import save_assess_figures
from toolkit.studies.assess import (
    Assessment,
    SearchSpace,
    assess_bet,
    assessment_report,
    candidate_tags,
    tag_reach,
    write_assessment,
)
from toolkit.studies.assess.search import SearchSet, score_tags, threshold_grid

matplotlib.use("Agg")

TINY = {"n_shoes": 300, "seed": 3, "cut_cards": (14, 104), "penetration_shoes": 150, "workers": 1, "progress": False}


@pytest.fixture(scope="module")
def dragon() -> Assessment:
    return assess_bet("dragon7", **TINY)


@pytest.fixture(scope="module")
def banker() -> Assessment:
    return assess_bet("banker", n_shoes=150, seed=4, cut_cards=(), workers=1, progress=False)


def test_the_count_found_for_dragon7_beats_the_zero_count(dragon: Assessment) -> None:
    zero = dragon.frames["candidates"].filter(pl.col("family") == "zero").row(0, named=True)
    assert zero["threshold"] is None  # no tags: the best a zero count can do is never bet
    assert zero["win_per_100_hands"] == 0
    best = dragon.frames["candidates"].row(0, named=True)
    assert best["win_per_100_hands"] > 0.3
    fresh = dragon.figures("count")
    # on the fresh shoes the count wins, its interval above zero (the expected win is ~11 standard errors
    # above zero at 300 shoes: a false failure about 1e-25)
    assert fresh["win_per_100_hands_low"] > 0
    assert dragon.count is not None
    assert dragon.count.threshold == best["threshold"]
    assert dragon.countable
    assert dragon.verdict.startswith("countable at cut card 14: a counter wins ")


def test_the_count_found_stays_within_the_perfect_bound(dragon: Assessment) -> None:
    # on the same shoes, perfect play takes every positive expected value and nothing else: no count wins more
    count, perfect = dragon.figures("count"), dragon.figures("perfect")
    assert count["win_per_100_hands"] <= perfect["win_per_100_hands"] + 1e-12
    pen = dragon.frames["penetration"]
    for cut in (14, 104):
        by = {r["strategy"]: r["win_per_100_hands"] for r in pen.filter(pl.col("cut_card") == cut).to_dicts()}
        assert by["count"] <= by["perfect"] + 1e-12


def test_the_count_found_is_close_to_the_published_dragon7_count(dragon: Assessment) -> None:
    # the search finds Jacobson's count or a scaling of it: the 4-7 against the 8-9
    tags = np.array(dragon.count.tags)
    assert (tags[3:7] < 0).all()
    assert (tags[7:9] > 0).all()


def test_a_main_bet_is_not_worth_counting(banker: Assessment) -> None:
    assert not banker.countable
    assert banker.verdict.startswith("not worth counting at cut card 14")
    assert banker.figures("count")["win_per_100_hands"] < 0.1


def test_the_search_space_candidates(dragon: Assessment) -> None:
    eor = dragon.frames["eor"]["eor"].to_numpy()
    tags = candidate_tags(eor, SearchSpace())
    assert {"eor", "eor balanced"} == {family for family, _, _ in tags}
    reach = tag_reach(eor)  # Dragon 7: the 8's effect is about five times the median card's
    assert reach == dragon.settings["tag_reach"] == 5
    assert max(int(np.abs(t).max()) for _, _, t in tags) == reach
    assert SearchSpace(max_tag=3).reach(eor) == 3
    for family, _top, t in tags:
        assert np.abs(t).max() <= reach
        if family == "eor balanced":
            assert t.sum() == 0
        assert (t[9:] == t[9]).all()  # the four zero-valued ranks move together
    families = set(dragon.frames["candidates"]["family"])
    assert {"eor", "eor balanced", "published dragon7", "zero"} <= families
    assert dragon.settings["candidates"] == dragon.frames["candidates"].height


def test_a_candidate_score_is_the_exact_ev_summed_over_the_coups_it_bets() -> None:
    dealt = deal(40, Dealing(), seed=9, progress=False)
    info = PreCoup.from_dealt(dealt)
    bet = get_bet("dragon7")
    data = SearchSet(info, info.expected_values(bet), 40)
    tags = toolkit.get_count_system("dragon7").tags
    s = score_tags(tags, "true", data)
    _, tc = info.counts("dragon7")
    for i in (0, len(s.grid) // 2, len(s.grid) - 1):
        bets = tc >= s.grid[i]
        assert s.bets[i] == bets.sum()
        assert s.win[i] == pytest.approx(data.ev[bets].sum(), abs=1e-9)


def test_threshold_grids_are_round_and_integer_for_running_counts() -> None:
    x = np.random.default_rng(1).normal(0, 30, 10_000)
    grid = threshold_grid(x, "running", 40)
    assert (grid == np.round(grid)).all()
    assert 10 <= len(grid) <= 45
    assert threshold_grid(np.zeros(5), "true").tolist() == [0.0]


def test_the_same_seed_gives_the_same_assessment(banker: Assessment) -> None:
    again = assess_bet("banker", n_shoes=150, seed=4, cut_cards=(), workers=1, progress=False)
    for name in ("candidates", "summary", "penetration"):
        assert again.frames[name].equals(banker.frames[name])


def test_the_report_has_each_section_and_the_files_agree(dragon: Assessment, tmp_path) -> None:
    paths = write_assessment(dragon, tmp_path, figures=save_assess_figures)
    report = (tmp_path / "report.md").read_text()
    for heading in (
        "# Side bet assessment: dragon7",
        "**Verdict: countable at cut card 14",
        "## The bet",
        "## Effects of removal by rank",
        "## The best count found",
        "Search space: tags proportional to the effects of removal",
        "common random numbers",
        "fresh, independent set",
        "## What a counter wins (fresh shoes",
        "## Computer-perfect play: the upper bound",
        "## Penetration: where the cut card is",
        "## Figures",
        "## Method",
    ):
        assert heading in report
    assert ("## Combinatorial analysis" in report) == hasattr(toolkit, "ca_table")
    for name in ("eor_by_rank", "threshold_sweep", "penetration"):
        assert (tmp_path / "figures" / f"{name}.png").stat().st_size > 1000
        assert f"figures/{name}.png" in report
    # the tables read back equal the frames, and summary.json holds the same numbers
    for name, frame in dragon.frames.items():
        assert pl.read_parquet(paths[f"{name}_parquet"]).equals(frame)
        assert pl.read_csv(paths[f"{name}_csv"]).height == frame.height
    summary = json.loads((tmp_path / "summary.json").read_text())
    row = dragon.frames["summary"].filter(pl.col("strategy") == "count").row(0, named=True)
    assert summary["fresh"]["count"]["win_per_100_hands"] == row["win_per_100_hands"]
    assert summary["fresh"]["count"]["bet_frequency"] == row["bet_frequency"]
    assert summary["count"]["threshold"] == dragon.count.threshold
    assert summary["count"]["tags"]["8"] == dragon.count.tags[7]
    assert summary["verdict"] == dragon.verdict
    assert summary["stats"]["house_edge"] == dragon.frames["stats"]["house_edge"][0]
    assert summary["penetration"] == dragon.frames["penetration"].to_dicts()
    assert f"{row['win_per_100_hands']:.3f} units per 100 hands" in report


def test_the_result_is_concise_and_exported_at_the_top(dragon: Assessment, banker: Assessment) -> None:
    text = repr(dragon)
    assert text.startswith("Assessment('dragon7': countable")
    assert "frames: stats, payouts" in text
    assert len(text) < 400
    assert toolkit.assess_bet is assess_bet
    assert toolkit.Assessment is Assessment
    assert "No count and threshold" not in assessment_report(dragon)
    assert "## Penetration" in assessment_report(banker)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="min_win"):
        assess_bet("dragon7", n_shoes=5, min_win=-1, progress=False)
    with pytest.raises(ValueError, match="unknown bet"):
        assess_bet("roulette", n_shoes=5, progress=False)
    with pytest.raises(ValueError, match="shoes"):
        assess_bet("dragon7", n_shoes=0, progress=False)


def test_a_bet_no_count_can_beat_gets_a_count_that_never_bets(tmp_path) -> None:
    from toolkit.bets.paytable import PayTable

    always_loses = PayTable.from_function("always_loses", lambda o: -1, "loses every coup")
    a = assess_bet(always_loses, n_shoes=40, seed=1, cut_cards=(), workers=1, progress=False)
    assert a.count is None
    assert a.frames["candidates"]["family"].to_list() == ["zero"]
    assert a.figures("count")["bet_frequency"] == 0
    assert a.verdict == "not worth counting at cut card 14: no count found wins anything (the best never bets)"
    write_assessment(a, tmp_path, figures=save_assess_figures)
    report = (tmp_path / "report.md").read_text()
    assert "the best count never bets" in report
    assert "The count never bets, at any depth." in report
    assert json.loads((tmp_path / "summary.json").read_text())["count"] is None
