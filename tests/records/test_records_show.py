"""Records and their validation report print a few lines and a small HTML table."""

from __future__ import annotations

import polars as pl
import pytest
from show_checks import check_shown as _check

import toolkit as bt


@pytest.fixture(scope="module")
def records() -> bt.Records:
    return bt.simulate_records(40, seed=3)


def test_records(records: bt.Records) -> None:
    _check(records, "Records: 40 cards-level shoe(s)")
    assert "... 35 more rows" in repr(records)


def test_validation_report() -> None:
    recs = bt.records_from_frame(pl.DataFrame({"shoe": [1], "position": [1], "card": ["Xx"]}))
    _check(recs.report, "ValidationReport: 0 of 1 shoe(s) loaded")


def test_randomness_result(records: bt.Records) -> None:
    result = bt.deck_mixing_test(records, bt.simulate_records(20, seed=4))
    _check(result, "TestResult 'deck mixing': statistic")
    assert "baseline" in repr(result)
