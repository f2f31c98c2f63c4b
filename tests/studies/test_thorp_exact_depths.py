"""The Thorp study's sampled shares of positive edges by depth against the exact law of the last cards."""

from __future__ import annotations

import math

import polars as pl
import pytest

from toolkit.studies.thorp.design import ThorpStudy
from toolkit.studies.thorp.exact_depths import coverage, exact_beside_sampled
from toolkit.studies.thorp.markdown import markdown_report
from toolkit.studies.thorp.run import run_study

# Two-sided normal tail 6.8e-6 per depth and bet (normal approximation to binomials of at least 60 hands, p 0.07-0.35:
# the exact tails are within a few times that); about 2e-4 for the 27-odd cells below (depths 6-14, three bets).
# The deeper table (6-26, 254 million compositions, minutes) is checked by coverage instead: the maths page,
# notebooks/maths/thorp-study.md, reports 57 of 60 intervals covering the exact value at 30,000 and 200,000 shoes.
Z = 4.5


@pytest.fixture(scope="module")
def dealt_to_end():
    study = ThorpStudy(n_shoes=3000, seed=11, bets=("banker", "player", "tie")).dealt_to_end()
    return run_study(study, workers=1, progress=False)


@pytest.fixture(scope="module")
def table(dealt_to_end):
    return exact_beside_sampled(dealt_to_end, "6-14", workers=1, progress=False)


def test_sampled_shares_by_depth_agree_with_the_exact_law(table):
    # The sample counts coups that start with n unseen cards; the exact table is the law at a fixed depth.
    # Each sampled share is a binomial proportion (one coup per shoe at most starts at a given depth): its
    # z-score against the exact probability stays within Z unless the selection of depths by the dealing
    # moved the share by more than a few hundredths.
    cells = table.filter(pl.col("hands") >= 60)
    assert cells.height >= 18
    for row in cells.iter_rows(named=True):
        p, hands = row["exact_p_positive"], row["hands"]
        z = (row["p_positive"] - p) / math.sqrt(p * (1 - p) / hands)
        assert abs(z) < Z, row


def test_the_table_and_its_coverage_are_reported(dealt_to_end, table):
    covered, cells = coverage(table)
    assert cells >= 15
    assert covered == int(table["covered"].sum())
    text = markdown_report(dealt_to_end, exact=table)
    assert "## The last cards, exactly" in text
    assert f"in {covered} of {cells} depths" in text
    assert "Exactly (every composition of the last cards weighed, not sampled)" in text.split("## ")[0]
