"""Records of values: cards given as baccarat values 0-9 (0 = a ten or a face) are a record level of their own.

A shoe read by rank and the same shoe read by value must agree on everything that depends only on
values: the coups, totals and winners, the unseen cards by value, the count of a system that tags
tens and faces alike, and the exact edge of every bet that pays on values.  What compares ranks
(pairs, rank order) is refused in one line, never priced on invented ranks.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from toolkit.coup.cards import card_value
from toolkit.records import (
    ShoeHeader,
    randomness_tests,
    read_records,
    records_from_frame,
    replay_records,
    simulate_records,
    write_records,
)
from toolkit.records.randomness import baseline, deck_mixing_test, frequency_test

VALUE_BETS = ["banker", "player", "tie", "dragon7", "panda8", "natural9", "big"]


def as_values(records) -> pl.DataFrame:
    """The per-coup frame of a record with every card replaced by its baccarat value."""

    def values(side: str) -> pl.Expr:
        return pl.col(side).list.eval(pl.element().map_elements(lambda c: str(card_value(c)), return_dtype=pl.String))

    return records.coups.select("shoe", "coup", values("player"), values("banker"), "winner")


@pytest.fixture(scope="module")
def pair():
    """The same shoes by rank (no burn: a value record gives no exposed card to burn by) and by value."""
    by_rank = simulate_records(3, ShoeHeader().updated(burn="none"), seed=11)
    by_value = records_from_frame(as_values(by_rank), {"burn": "none"})
    return by_rank, by_value


def test_a_record_of_values_loads_as_its_own_level(pair):
    by_rank, by_value = pair
    assert by_value.kind == "values"
    assert by_value.report.ok
    assert by_value.n_shoes == 3
    keep = ["shoe", "coup", "player_total", "banker_total", "winner", "natural"]
    assert by_value.coups.select(keep).equals(by_rank.coups.select(keep))
    assert by_value.coups["player_pair"].null_count() == by_value.coups.height  # pairs are not told by values


def test_replay_of_values_gives_the_edges_of_the_same_shoes_by_rank(pair):
    by_rank, by_value = pair
    ranked = replay_records(by_rank, systems=["dragon7", "panda8"], bets=VALUE_BETS)
    valued = replay_records(by_value, systems=["dragon7", "panda8"], bets=VALUE_BETS)
    for name in VALUE_BETS:
        assert np.allclose(ranked[f"ev_{name}"].to_numpy(), valued[f"ev_{name}"].to_numpy(), atol=1e-12), name
    for column in ("rc_dragon7", "tc_panda8", "cards_unseen", "cards_seen"):
        assert ranked[column].equals(valued[column]), column
    zeros = ranked.select(pl.sum_horizontal("unseen_T", "unseen_J", "unseen_Q", "unseen_K")).to_series()
    assert np.array_equal(zeros.to_numpy(), valued["unseen_0"].to_numpy())
    assert ranked["unseen_7"].equals(valued["unseen_7"])
    assert "unseen_K" not in valued.columns


def test_what_needs_ranks_is_refused_in_one_line(pair):
    _, by_value = pair
    for call, words in (
        (lambda: replay_records(by_value, bets=["player_pair"]), "pays on pairs"),
        (lambda: replay_records(by_value, bets=["perfect_pair"]), "ranks or suits"),
        (lambda: frequency_test(by_value, pairs=True), "pair frequency test"),
        (lambda: deck_mixing_test(by_value), "card order test"),
    ):
        with pytest.raises(ValueError, match=words) as err:
            call()
        assert "\n" not in str(err.value)
    default = replay_records(by_value)
    assert "ev_player_pair" not in default.columns
    assert "ev_dragon7" in default.columns


def test_randomness_tests_of_values_leave_out_the_rank_tests(pair):
    _, by_value = pair
    tests = randomness_tests(by_value, baseline(by_value, 20, seed=3))["test"].to_list()
    assert "pair frequencies" not in tests
    assert "deck mixing" not in tests
    assert "frequencies" in tests


def test_a_value_shoe_holds_sixteen_zeros_a_deck():
    # 6 + 6 + 4 = 16 cards of value 0: one deck's tens and faces (by rank T alone, four would be the limit)
    hands = {"player": ["0 0 0", "0 0 0", "0 0 5"], "banker": ["0 0 0", "0 0 0", "0 0 5"]}
    frame = pl.DataFrame({"shoe": [1] * 3, "coup": [1, 2, 3], **hands})
    assert records_from_frame(frame, {"decks": 1, "burn": "none"}).report.ok
    frame = pl.concat([frame, pl.DataFrame({"shoe": [1], "coup": [4], "player": ["0 0 5"], "banker": ["0 0 5"]})])
    problems = records_from_frame(frame, {"decks": 1, "burn": "none"}).report.problems
    assert [p.code for p in problems] == ["too_many_cards"]
    assert problems[0].coup == 4
    assert "one too many of value 0: a 1-deck shoe holds 16 cards of value 0" in problems[0].message


def test_a_record_of_values_survives_a_file_round_trip(pair, tmp_path):
    _, by_value = pair
    for suffix in ("csv", "jsonl", "parquet"):
        back = read_records(write_records(by_value, tmp_path / f"values.{suffix}"))
        assert back.kind == "values", suffix
        assert back.coups.equals(by_value.coups), suffix


def test_rank_numbers_and_unicode_suits_read_as_ranks():
    frame = pl.DataFrame(
        {
            "shoe": [1, 1],
            "coup": [1, 2],
            "player": ["13 9", "12♠ 2 3"],  # 1..13: king, queen
            "banker": ["6 1", "11 6"],
        }
    )
    recs = records_from_frame(frame, {"burn": "none"})
    assert recs.kind == "cards"
    assert recs.report.ok
    assert recs.coups["player"].to_list() == [["K", "9"], ["Qs", "2", "3"]]
    assert recs.coups["banker"].to_list() == [["6", "A"], ["J", "6"]]
    hands = {"player": ["K\u2660\ufe0f 9\u2661"], "banker": ["6\u2663 K\u2666"]}  # emoji selector, white heart
    suited = pl.DataFrame({"shoe": [1], "coup": [1], **hands})
    recs = records_from_frame(suited, {"burn": "none"})
    assert recs.report.ok, recs.report
    assert recs.coups["player"].to_list() == [["Ks", "9h"]]


def test_a_bad_value_is_located_and_named():
    frame = pl.DataFrame({"shoe": [1, 1], "coup": [1, 2], "player": ["9 0", "0 2 x"], "banker": ["6 0", "0 6"]})
    recs = records_from_frame(frame, {"burn": "none"}, source="v.csv")
    (problem,) = recs.report.problems
    assert str(problem).startswith("v.csv:2: shoe 1, coup 2: unknown card code 'x': expected a baccarat value 0-9")
