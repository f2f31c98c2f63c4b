"""The report (``toolkit.studies.thorp.markdown``): the answer first, intervals, smallest depth, deal-to-end run."""

from __future__ import annotations

import re

import polars as pl
import pytest
from thorp_cases import SMALL

from toolkit.studies import ThorpStudy, deal_to_end, depth_bucket, markdown_report, run_study, write_outputs
from toolkit.studies.thorp.design import smallest_depth
from toolkit.studies.thorp.markdown import ANSWER_FIGURE, published_summary


@pytest.fixture(scope="module")
def to_the_end(plain):
    """The reference study's first 40 shoes dealt with no cut card."""
    return run_study(plain.study.dealt_to_end(40), progress=False)


def test_deal_to_end_has_no_cut_card_and_reaches_deeper(plain, to_the_end) -> None:
    study = to_the_end.study
    assert study.dealing.cut_card == 0
    assert study.dealing.last_hand.value == "one_more"
    assert study.seed == plain.study.seed
    assert study.bet_names == plain.study.bet_names
    assert deal_to_end(plain.study.dealing) == study.dealing
    casino = smallest_depth(plain.tally.arrays["hands"][0])
    ended = smallest_depth(to_the_end.tally.arrays["hands"][0])
    assert casino >= 10 > ended >= 7  # six cards left at least, and at least one burned card unseen
    # more hands dealt with 20 or fewer unseen cards when the shoe is dealt to the end
    share = {r.study.dealing.cut_card: r.claims()["share_hands_last_20"][0] for r in (plain, to_the_end)}
    assert share[0] > share[14]


def test_report_gives_the_answer_first_then_the_numbers(plain, to_the_end, tmp_path) -> None:
    figures = {"Where the edges are": f"figures/{ANSWER_FIGURE}.png", "Other": "figures/other.png"}
    lines = markdown_report(plain, figures=figures, deal_to_end=to_the_end).splitlines()
    assert lines[0].startswith("# ")
    assert lines[2].startswith("**")
    assert "Banker" in lines[2]
    assert "%" in lines[2]
    assert lines[3] == ""
    assert lines[4] == f"![Where the edges are](figures/{ANSWER_FIGURE}.png)"
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[0] == "## The numbers"
    assert "## Dealt to the end (no cut card)" in headings
    assert headings.index("## Dealt to the end (no cut card)") < headings.index("## Verdict, bet by bet")
    assert "![Other](figures/other.png)" in lines  # the other figures further down


def test_main_table_has_intervals_in_plain_words(plain) -> None:
    text = markdown_report(plain)
    header = next(line for line in text.splitlines() if line.startswith("| bet | P(edge)"))
    for column in ("P(edge) per hand [95 % CI]", "gain per shoe, units [95 % CI]",
                   "edges with 20 or fewer cards unseen [95 % CI]", "deepest edge (cards unseen)"):  # fmt: skip
        assert column in header
    assert "1e-6" not in text
    assert "last 5-20 |" not in header
    banker = next(line for line in text.splitlines() if line.startswith("| Banker |"))
    cells = [c.strip() for c in banker.strip("|").split("|")]
    assert re.fullmatch(r"[\d.]+ % \[[\d.]+ %, [\d.]+ %\]", cells[1]), cells[1]
    assert re.fullmatch(r"[\d.]+ \[[\d.]+, [\d.]+\]", cells[2]), cells[2]
    low, high = (float(x) for x in re.findall(r"[\d.]+", cells[2])[1:])
    claims = plain.claims().filter(pl.col("bet") == "banker").row(0, named=True)
    assert low <= claims["gain_per_shoe"] <= high
    assert claims["p_positive_low"] <= claims["p_positive"] <= claims["p_positive_high"]


def test_report_says_what_last_5_to_20_means_and_the_smallest_depth(plain) -> None:
    text = markdown_report(plain)
    depth = smallest_depth(plain.tally.arrays["hands"][0])
    assert f"The smallest depth reached is {depth} cards unseen" in text
    assert '"last 5 to 20 cards" holds exactly the hands of "the last 20"' in text


def test_published_table_goes_in_its_own_file(plain, tmp_path) -> None:
    paths = write_outputs(plain, tmp_path, reproduce=True)
    report = paths["report"].read_text()
    published = paths["published"].read_text()
    assert "| house_edge_8d_banker |" in published
    assert "house_edge_8d_banker" not in report
    section = report[report.index("## Published figures, reproduced") :]
    summary_line = section.splitlines()[2]
    assert re.match(r"\d+ published figures: \d+ match", summary_line)
    assert "published.md" in summary_line
    assert published_summary(pl.read_csv(paths["reproduce"])) in published


def test_outputs_of_a_deal_to_end_run(plain, to_the_end, tmp_path) -> None:
    import json

    paths = write_outputs(plain, tmp_path, reproduce=False, deal_to_end=to_the_end)
    claims = pl.read_parquet(tmp_path / "tables" / "claims_deal_to_end.parquet")
    assert claims["shoes"][0] == 40
    data = json.loads(paths["summary"].read_text())
    assert data["deal_to_end"]["study"]["dealing"]["cut_card"] == 0
    assert data["smallest_depth"]["unseen"] > data["deal_to_end"]["smallest_depth"]["unseen"]
    assert "40 against 120" in paths["report"].read_text()  # the smaller run is stated
    with pytest.raises(TypeError, match="deal_to_end"):
        write_outputs(plain, tmp_path, reproduce=False, deal_to_end="yes")  # type: ignore[arg-type]


def test_depth_bucket_gives_the_study_buckets(plain) -> None:
    grid = plain.by_unseen().filter(pl.col("bet") == "banker").select("unseen")
    labels = grid.with_columns(depth_bucket("unseen", plain.study.dealing.cards).alias("bucket"))
    buckets = plain.by_bucket().filter(pl.col("bet") == "banker")
    for row in buckets.iter_rows(named=True):
        inside = labels.filter(pl.col("unseen").is_between(row["unseen_low"], row["unseen_high"]))
        assert set(inside["bucket"]) <= {row["bucket"]}
    assert SMALL["n_shoes"] == plain.n_shoes
    assert labels["bucket"].null_count() == 0


def test_study_dealt_to_end_keeps_the_design() -> None:
    study = ThorpStudy(n_shoes=50, seed=3, bets=("banker", "tie"), observers=("unseen", "remaining"))
    end = study.dealt_to_end()
    assert (end.n_shoes, end.seed, end.bet_names, end.observers) == (50, 3, ("banker", "tie"), ("unseen", "remaining"))
    with pytest.raises(TypeError, match="takes a Dealing"):
        deal_to_end("casino")  # type: ignore[arg-type]
