"""The frame forms of the engine agree with its arrays."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from toolkit.bets.paytable import get_bet
from toolkit.bets.pricing import expected_values
from toolkit.coup.cards import Composition
from toolkit.coup.outcome import N_CLASSES
from toolkit.coup.rules import PUNTO_BANCO
from toolkit.exact.engine import combination_counts, distribution
from toolkit.exact.frames import combination_counts_frame, distribution_frame


@pytest.mark.parametrize("shoe", [8, 1, Composition.from_decks(6).remove("5", "5", "9")])
def test_distribution_frame_matches_the_array(shoe: object) -> None:
    p = distribution(shoe)
    full = distribution_frame(shoe, drop_zero=False)
    assert full.height == N_CLASSES
    assert full["class"].to_list() == list(range(N_CLASSES))
    np.testing.assert_array_equal(full["probability"].to_numpy(), p)
    reachable = distribution_frame(shoe)
    assert reachable.height == int((p > 0).sum())
    assert reachable["probability"].sum() == pytest.approx(1.0, abs=1e-12)


def test_distribution_frame_exact() -> None:
    p = distribution(1, exact=True)
    frame = distribution_frame(1, exact=True, drop_zero=False)
    assert [Fraction(x) for x in frame["probability_exact"]] == p.tolist()
    tie = frame.filter(pl.col("winner") == "tie")["probability_exact"].map_elements(Fraction, pl.Object)
    assert sum(tie) == sum(q for q, w in zip(p, frame["winner"], strict=True) if w == "tie")


def test_expected_values_as_a_frame_matches_the_array() -> None:
    bets = [get_bet(n) for n in ("banker", "player", "tie", "dragon7")]
    rng = np.random.default_rng(5)
    shoes = rng.integers(2, 32, size=(20, 13))
    ev = expected_values(shoes, bets)
    frame = expected_values(shoes, bets, frame=True)
    assert frame.columns == ["shoe", "cards", "banker", "player", "tie", "dragon7"]
    np.testing.assert_array_equal(frame.select("banker", "player", "tie", "dragon7").to_numpy(), ev)
    np.testing.assert_array_equal(frame["cards"].to_numpy(), shoes.sum(axis=1))
    assert frame["shoe"].to_list() == list(range(20))


def test_expected_values_as_a_frame_needs_distinct_names() -> None:
    with pytest.raises(ValueError, match="distinct names"):
        expected_values([8], [get_bet("tie"), get_bet("tie")], frame=True)


@pytest.mark.parametrize("shoe", [1, 8])
def test_combination_counts_frame_matches_the_dict(shoe: int) -> None:
    counts = combination_counts(shoe, PUNTO_BANCO)
    frame = combination_counts_frame(shoe)
    assert dict(zip(frame["result"], frame["combinations"], strict=True)) == counts
    assert frame.filter(pl.col("result") != "total")["probability"].sum() == pytest.approx(1.0)
