"""What the study says (``toolkit.studies.thorp.report``): the claim's statuses, verdicts and the summary."""

from __future__ import annotations

import json

import polars as pl
from thorp_cases import SMALL

from toolkit.studies import study_summary, study_verdicts
from toolkit.studies.thorp.report import thorp_status


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
    data = json.loads(json.dumps(study_summary(plain)))
    assert data["study"]["shoes"] == SMALL["n_shoes"]
    assert data["study"]["complete"]
    for bet in plain.study.bet_names:
        entry = data["bets"][bet]
        for key in ("hands", "positive_hands", "share_positive_within_last_20", "gain_per_shoe", "p_positive"):
            assert key in entry, (bet, key)
        assert entry["hands"] == plain.n_hands
        assert len(entry["p_positive"]) > 50  # one entry per depth dealt
    assert {r["unseen"] for r in data["jacobson"]} == {18, 26, 34, 42, 50}


def test_verdicts_name_every_bet_with_numbers(plain) -> None:
    table = study_verdicts(plain)
    assert table["bet"].to_list() == list(plain.study.bet_names)
    banker = table.filter(pl.col("bet") == "banker")["verdict"].item()
    assert banker.startswith("Banker: ")
    assert "per shoe" in banker
    assert "%" in banker
