"""The table tracker's state machine: a recorded shoe typed key by key gives replay's coups, counts and edges."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from toolkit.coup.cards import RANKS
from toolkit.live import Panel, Tracker
from toolkit.live.tracker import RANK_KEYS
from toolkit.records import ShoeHeader, read_records, replay_records, simulate_records, write_records

SYSTEMS = ["dragon7", "panda8", "how_dragon7"]
BETS = ["banker", "player", "tie", "dragon7", "panda8", "player_pair"]


def keys_of(records, shoe, face_down: bool) -> list[str]:
    """The keys a watcher types for one recorded shoe: burn card, face-down burns (or ?), then the coups."""
    cards = records.cards.filter(pl.col("shoe") == shoe).sort("position")
    burns = cards.filter(pl.col("role") == "burn")["card"].to_list()
    dealt = cards.filter(pl.col("role").is_in(["player", "banker"]))["card"].to_list()
    keys = [burns[0][0].lower()]
    keys += [c[0].lower() for c in burns[1:]] if face_down else ["?"]
    return keys + [c[0].lower() for c in dealt]


@pytest.fixture(scope="module")
def recorded():
    return simulate_records(2, seed=11)


def assert_same_as_replay(frame: pl.DataFrame, expected: pl.DataFrame) -> None:
    assert frame.height == expected.height
    for column in expected.columns:
        if column == "shoe":
            continue
        mine, theirs = frame[column].to_list(), expected[column].to_list()
        if column.startswith(("ev_", "tc_")):
            assert np.allclose(mine, theirs, rtol=0, atol=1e-12), column
        else:
            assert mine == theirs, column


@pytest.mark.parametrize("face_down", [False, True], ids=["burn-unseen", "burn-typed"])
def test_a_whole_recorded_shoe_typed_in_gives_the_replay(recorded, face_down, tmp_path: Path):
    shoe = recorded.shoe_ids[0]
    tracker = Tracker(panel=Panel.of(bets=BETS, systems=SYSTEMS))
    feedback = tracker.feed(keys_of(recorded, shoe, face_down))
    assert all(f.ok for f in feedback), [f for f in feedback if not f.ok][:3]
    expected = replay_records(recorded, shoe=shoe, systems=SYSTEMS, bets=BETS)
    assert_same_as_replay(tracker.frame(), expected)
    # the saved session is a record that reads back, validates and replays to the same numbers
    path = write_records(tracker.records(), tmp_path / "session.csv")
    back = read_records(path)
    assert back.report.ok
    assert_same_as_replay(replay_records(back, systems=SYSTEMS, bets=BETS), expected)
    burns = recorded.cards.filter((pl.col("shoe") == shoe) & (pl.col("role") == "burn")).height
    assert back.cards.filter(pl.col("role") == "burn").height == (burns if face_down else 1)


def test_undo_after_every_key_returns_the_same_state(recorded):
    keys = keys_of(recorded, recorded.shoe_ids[1], face_down=False)[:60]
    straight = Tracker(panel=Panel.of(bets=["banker"], systems=["dragon7"]))
    straight.feed(keys)
    wobbly = Tracker(panel=Panel.of(bets=["banker"], systems=["dragon7"]))
    for k in keys:
        wobbly.press(k)
        wobbly.press("7" if k != "7" else "8")  # a slip of the finger ...
        assert wobbly.press("u").kind == "undo"  # ... corrected
    assert wobbly.frame().equals(straight.frame())
    assert wobbly.unseen() == straight.unseen()
    assert wobbly.current == straight.current


def test_an_unfinished_coup_is_not_a_coup_and_the_snapshot_is_before_it():
    t = Tracker(ShoeHeader().updated(burn="none"), Panel.of(bets=["banker"]))
    before = t.snapshot()
    t.feed("9k")
    assert t.coups == ()
    assert t.current == (8, 12)
    assert t.snapshot() == before
    with pytest.raises(ValueError, match="nothing to record"):
        t.records()
    with pytest.raises(ValueError, match="nothing to record"):
        Tracker().records()


def test_bad_keys_get_a_message_and_change_nothing():
    t = Tracker(ShoeHeader().updated(burn="none"))
    for key in ["z", "%", "\x1b", "\x1b[A", " ", "?"]:
        fb = t.press(key)
        assert fb.kind == "error", key
        assert fb.text, key
    assert t.keys == []
    assert t.unseen().total == 416
    assert t.press("u").text == "nothing to undo"


def test_a_rank_used_up_is_refused():
    t = Tracker(ShoeHeader().updated(decks=1, burn="none"), Panel.of(decks=1, rules=None))
    assert [f.kind for f in t.feed("kkkk")] == ["card"] * 4
    fb = t.press("k")
    assert fb.kind == "error"
    assert "no K is left" in fb.text


def test_enter_while_the_tableau_calls_for_a_third_card_is_a_tableau_violation():
    t = Tracker(ShoeHeader().updated(burn="none"), Panel.of(bets=["banker"]))
    t.feed("2k3k")  # Player 5, Banker 0: Player must draw
    fb = t.press("\r")
    assert fb.kind == "tableau"
    assert "Player must draw on 5" in fb.text
    assert t.coups == ()
    assert len(t.current) == 4
    t.press("k")  # Player draws a zero: Player 5 stays 5; Banker on 0 draws
    fb = t.press("\r")
    assert fb.kind == "tableau"
    assert "Banker must draw on 0" in fb.text
    assert t.press("4").kind == "coup"


def test_a_card_after_the_tableau_ended_the_coup_is_flagged_in_confirm_mode():
    t = Tracker(ShoeHeader().updated(burn="none"), Panel.of(bets=["banker"]), confirm=True)
    t.feed("9k9k")  # Player 8 against Banker 0: a natural
    fb = t.press("5")
    assert fb.kind == "tableau"
    assert "natural" in fb.text
    assert t.press("\r").kind == "coup"
    assert t.coups[0].player == (RANKS.index("9"), RANKS.index("9"))


def test_the_standard_burn_is_the_exposed_card_then_its_value_face_down():
    t = Tracker()
    assert t.phase == "burn"
    fb = t.press("4")
    assert fb.kind == "burn"
    assert "4 card(s) burned face down" in fb.text
    assert t.phase == "face_down"
    t.press("k")
    assert t.press("?").kind == "error"  # all or none
    t.press("u")
    assert t.press("?").kind == "burn"
    assert t.phase == "deal"
    assert t.left() == 416 - 5
    assert t.unseen().total == 415
    assert t.records().cards["role"].to_list() == ["burn"]


def test_a_positive_edge_is_signalled():
    # a one-deck shoe stripped of its small cards: Banker's and Player's edges move; look for any positive bet
    t = Tracker(ShoeHeader().updated(decks=1, burn="none"), Panel.of(decks=1, rules=None))
    signals = []
    for coup in ["9999", "8888"]:
        fbs = t.feed(coup)
        signals += [f for f in fbs if f.kind == "coup"]
    assert signals
    last = signals[-1]
    snap = t.snapshot()
    assert last.positive == snap.positive
    if snap.positive:
        assert "EDGE" in last.text


def test_every_rank_has_keys():
    assert sorted(set(RANK_KEYS.values())) == list(range(13))


@pytest.mark.parametrize(
    ("keys", "why"),
    [
        ("9k9k", "a natural (8 against 0)"),
        ("67kk", "Player stands on 6 and Banker stands on 7"),
        ("62kk5", "Player stands on 6 and Banker drew"),
        ("27kk3", "Banker stands on 7 against Player's third card 3"),
        ("2kkk34", "both hands have their third card"),
    ],
)
def test_the_reason_a_coup_is_over(keys, why):
    t = Tracker(ShoeHeader().updated(burn="none"), Panel.of(bets=["banker"]), confirm=True)
    t.feed(keys)
    fb = t.press("2")
    assert fb.kind == "tableau"
    assert why in fb.text


def test_undo_after_a_refused_key_says_what_it_undid_and_where_the_next_card_goes():
    # the exposed burn card 4, its face-down burns marked unseen, then a slip that is refused
    t = Tracker(panel=Panel.of(bets=["banker"]))
    t.feed("4?")
    assert t.press("z").kind == "error"
    fb = t.press("u")
    assert fb.kind == "undo"
    assert fb.text == (
        "the last key, 'z', changed nothing; undid: the face-down burn marked unseen (?); "
        "next: face-down burn card 1 of 4 (or ?)"
    )
    # ... and the next card is read as the message says: a face-down burned card
    assert t.press("2").text == "face-down burn 1: 2"
    assert t.press("u").text == "undid: face-down burn card 1: 2; next: face-down burn card 1 of 4 (or ?)"
    t.feed("?2k3kk4")
    assert t.press("u").text == "undid: Banker draws 4, closing coup 1 (coup 1 is open again); next: Banker"
    assert t.coups == ()
    assert t.press("\r").kind == "tableau"  # a refused Enter ...
    assert t.press("u").text == "the last key, Enter, changed nothing; undid: Player draws K; next: Player"


def test_a_key_that_changes_nothing_is_not_undone():
    t = Tracker(ShoeHeader().updated(burn="none"), Panel.of(bets=["banker"]))
    t.feed("9k9k")
    assert t.press("\r").text == "no coup in progress"
    assert t.press("h").kind == "info"
    assert t.press("u").text == (
        "the last key, Enter, changed nothing; "
        "undid: Banker gets K, closing coup 1 (coup 1 is open again); next: Banker"
    )


def test_the_two_card_totals_are_the_hands_totals():
    from toolkit.coup.cards import RANK_VALUES, hand_total
    from toolkit.coup.step import hand_totals

    cards = [RANKS.index(c) for c in ["9", "K", "4", "8", "7", "5"]]
    values = [RANK_VALUES[c] for c in cards[:4]]  # dealing order: P B P B
    assert hand_totals(*values) == (hand_total([cards[0], cards[2]]), hand_total([cards[1], cards[3]])) == (3, 8)
    assert hand_total(cards) == (9 + 0 + 4 + 8 + 7 + 5) % 10
