"""Many short shoes in one file: each reads as it reads alone, and the shoe-level checks find what they found.

The reader keeps every shoe-level fact (rank counts, the kernel's shoe sizes, burn cards, which shoes
are set aside) in arrays in file order, and the rows carry their shoe's index: the run of equal ids
when each shoe's rows are together, a lookup by id when they are not.  A file of many shoes of one to
three coups, damaged here and there (an unknown card, a card too many, a tableau fault, a wrong
winner, a coup or a position missing), must say of every shoe exactly what that shoe says when it is
read by itself (the slow path: one shoe, no other shoe to mix it up with), rows in order or shuffled.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import scaled

from toolkit.coup.cards import VALUE_TO_RANK
from toolkit.records import Records, ShoeHeader, _load, records_from_frame, simulate_records
from toolkit.records._cards import crowded_ranks
from toolkit.records._load import _burn_cards
from toolkit.records._shoes import shoe_index
from toolkit.records.validation import Problem

HEADER = {"decks": "1", "burn": "none"}


def _key(p: Problem) -> tuple:
    return (p.line, p.shoe, p.coup, p.code, p.message, p.kind, p.fatal)


def _text_ids(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(pl.col("shoe").cast(pl.String))


def _reads_as_alone(frame: pl.DataFrame, header: dict[str, str]) -> Records:
    """Read ``frame`` whole and shoe by shoe; every problem, shoe, coup, card and dealt row must agree."""
    whole = records_from_frame(frame, header)
    problems: list[tuple] = []
    shoes, coups, cards, rejected = [], [], [], []
    dealt: dict[str, list[np.ndarray]] = {"cards": [], "unseen": [], "seen": [], "burn_card": [], "burned": []}
    for shoe in frame["shoe"].unique(maintain_order=True).to_list():
        alone = records_from_frame(frame.filter(pl.col("shoe") == shoe), header)
        problems += [_key(p) for p in alone.report.problems]
        shoes.append(_text_ids(alone.shoes))
        coups.append(_text_ids(alone.coups))
        cards.append(_text_ids(alone.cards))
        rejected.append(alone.report.rejected)
        for name, parts in dealt.items():
            parts.append(getattr(alone.dealt, name))
    assert sorted((_key(p) for p in whole.report.problems), key=repr) == sorted(problems, key=repr)
    assert _text_ids(whole.shoes).equals(pl.concat(shoes))
    assert _text_ids(whole.coups).equals(pl.concat(coups))
    assert _text_ids(whole.cards).equals(pl.concat(cards))
    assert whole.report.rejected.sort("line").equals(pl.concat(rejected, how="diagonal_relaxed").sort("line"))
    assert whole.report.n_shoes == len(shoes)
    assert whole.report.n_valid == sum(s.height for s in shoes)
    for name, parts in dealt.items():
        assert np.array_equal(getattr(whole.dealt, name), np.concatenate(parts)), name
    assert np.array_equal(np.bincount(whole.dealt.shoe, minlength=whole.n_shoes), whole.shoes["coups"].to_numpy())
    return whole


def _short_coup_shoes(seed: int, n_shoes: int) -> pl.DataFrame:
    """Per-coup rows of ``n_shoes`` shoes of one to three coups (1 deck), with damage in about one shoe in four."""
    rng = np.random.default_rng(seed)
    dealt = simulate_records(n_shoes // 3 + 1, ShoeHeader().updated(decks=1, burn="none"), seed=seed).coups
    rows = []
    shoe = coup = length = 0
    for player, banker, winner in dealt.select("player", "banker", "winner").iter_rows():
        if coup == length:
            shoe, coup, length = shoe + 1, 0, rng.choice([1, 1, 2, 3])
        if shoe > n_shoes:
            break
        coup += 1
        rows.append([shoe, coup, list(player), list(banker), winner])
    for row in rows:
        damage = rng.integers(0, 20)
        player, banker = row[2], row[3]
        if damage == 0:
            player[0] = "X"  # an unknown card
        elif damage == 1:
            row[2], row[3] = ["K", "K", "K"], ["K", "K", "K"]  # six kings in a 1-deck shoe
        elif damage == 2 and len(player) == 3:
            player.pop()  # Player's third card missing
        elif damage == 3 and len(banker) == 2:
            banker.append("5")  # a Banker card the tableau may not deal
        elif damage == 4:
            row[4] = {"banker": "player", "player": "tie", "tie": "banker"}[row[4]]  # the wrong winner
        elif damage == 5:
            row[1] += 1  # a coup number skipped
        elif damage == 6:
            row[3] = banker[:1]  # one card in Banker's hand
    return pl.DataFrame(
        [[s, c, " ".join(p), " ".join(b), w] for s, c, p, b, w in rows],
        schema=["shoe", "coup", "player", "banker", "winner"],
        orient="row",
    ).with_row_index("line", offset=1)


def _short_card_shoes(seed: int, n_shoes: int) -> pl.DataFrame:
    """Long-form rows with roles (an exposed burn card, then one to three coups) of ``n_shoes`` 1-deck shoes.

    Some are damaged: an unknown card, kings, a card moved to the next row (under another role), a position
    skipped, a row lost.
    """
    rng = np.random.default_rng(seed)
    records = simulate_records(n_shoes // 3 + 1, ShoeHeader().updated(decks=1), seed=seed, suits=True)
    cards = records.cards.filter(pl.col("role").is_in(["player", "banker"]))
    rows: list[list[object]] = []
    shoe = coup = length = 0
    for _, hand in cards.group_by(["shoe", "coup"], maintain_order=True):
        if coup == length:
            shoe, coup, length = shoe + 1, 0, rng.integers(1, 4)
            if shoe > n_shoes:
                break
            rows.append([shoe, rng.choice(list("A23456789TJQK")), "burn"])  # the exposed burn card
        coup += 1
        rows += [[shoe, card, role] for card, role in hand.select("card", "role").iter_rows()]
    frame = pl.DataFrame(rows, schema=["shoe", "card", "role"], orient="row", schema_overrides={"card": pl.String})
    frame = frame.with_columns(
        pl.int_range(1, pl.len() + 1).over("shoe").alias("position"),
        pl.Series("_damage", rng.integers(0, 100, frame.height)),
    )
    card, damage = pl.col("card"), pl.col("_damage")
    frame = frame.with_columns(
        pl.when(damage == 0)
        .then(pl.lit("Z"))  # an unknown card
        .when(damage <= 2)
        .then(pl.lit("K"))  # kings enough, now and then, to be one too many
        .when(damage <= 6)
        .then(card.shift(1))  # a card out of place: a tableau fault, often
        .otherwise(card)
        .alias("card"),
        pl.when(damage == 7).then(pl.col("position") + 1).otherwise(pl.col("position")).alias("position"),
    )
    return frame.filter(damage != 8).drop("_damage").with_row_index("line", offset=1)


@pytest.mark.parametrize("shuffled", [False, True], ids=["in_order", "shuffled"])
@pytest.mark.parametrize("seed", range(3))
def test_short_per_coup_shoes_read_as_each_shoe_alone(seed: int, shuffled: bool) -> None:
    frame = _short_coup_shoes(seed, 60)
    if shuffled:  # the shoes' rows apart: found by id, not by run
        frame = frame.sample(fraction=1.0, shuffle=True, seed=seed)
    whole = _reads_as_alone(frame, HEADER)
    codes = Counter(p.code for p in whole.report.problems)
    assert whole.n_shoes > 20, codes
    assert {"unknown_card", "too_many_cards", "tableau"} <= set(codes), codes


@pytest.mark.parametrize("seed", range(3))
def test_short_long_form_shoes_read_as_each_shoe_alone(seed: int) -> None:
    whole = _reads_as_alone(_short_card_shoes(seed, 60), {"decks": "1"})
    codes = Counter(p.code for p in whole.report.problems)
    assert whole.n_shoes > 20, codes
    assert whole.shoes["burn_card"].null_count() == 0
    assert {"unknown_card", "too_many_cards", "tableau"} <= set(codes), codes


def test_problems_in_single_coup_shoes_are_located_by_shoe_and_coup() -> None:
    """Every fault of a file of one-coup shoes is its own shoe's, at its own line, whatever its neighbours hold."""
    good = ["9 K", "6 K", "player"]  # Player 9, Banker 6: a natural
    faults = {
        3: (["X K", "6 K", "banker"], "unknown_card", "unknown card code 'X'"),
        5: (["K K K", "K K K", "tie"], "too_many_cards", "card K is one too many of rank K: a 1-deck shoe holds 4"),
        8: (["9 K 2", "6 K", "banker"], "tableau", "card dealt after a natural"),
        9: (["5 K", "6 K", "banker"], "truncated", "the record ends in the middle of a coup"),
        10: (["7 K 3", "6 K", "banker"], "tableau", "Player stands on 7; found 3 for Player"),
    }
    hands = [faults[s][0] if s in faults else good for s in range(1, 12)]
    columns = {name: [hand[k] for hand in hands] for k, name in enumerate(["player", "banker", "winner"])}
    frame = pl.DataFrame({"shoe": range(1, 12), "coup": [1] * 11, **columns})
    records = records_from_frame(frame, HEADER)
    found = [(p.line, p.shoe, p.coup, p.code) for p in records.report.problems]
    assert found == [(s, str(s), 1, code) for s, (_, code, _) in faults.items()]
    for problem, (_, _, words) in zip(records.report.problems, faults.values(), strict=True):
        assert words in problem.message, problem
    assert records.shoe_ids == [1, 2, 4, 6, 7, 11]
    assert records.report.rejected["line"].to_list() == list(faults)
    kinds = [p.kind for p in records.report.problems if p.code == "tableau"]  # told coup by coup, not by the kernel
    assert kinds == ["a card dealt after a natural", "Player drew on 7"]


TENS = VALUE_TO_RANK[0]  # the rank of value 0 in a record of values: four times as many


@settings(max_examples=scaled(60), deadline=None)
@given(
    cards=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 12) | st.just(TENS)), max_size=60),
    decks=st.lists(st.integers(1, 2), min_size=7, max_size=7),
    values=st.booleans(),
)
@example(cards=[(0, TENS)] * 5 + [(1, 3)], decks=[1] * 7, values=False)  # a shoe of five cards, all of one rank
@example(cards=[(2, TENS)] * 17 + [(2, 0)] * 5, decks=[1] * 7, values=True)
def test_crowded_ranks_are_those_counted_rank_by_rank(
    cards: list[tuple[int, int]], decks: list[int], values: bool
) -> None:
    """The ranks a shoe holds too many of, counted only where they can be, are those a full count finds."""
    counts = Counter(cards)
    limit = {r: 4 * (4 if values and r == TENS else 1) for r in range(13)}
    want = sorted((s, r, decks[s], limit[r] * decks[s]) for (s, r), n in counts.items() if n > limit[r] * decks[s])
    shoe, rank = (np.array([c[k] for c in cards], np.int64) for k in (0, 1))
    got = crowded_ranks(shoe, rank, np.array(decks), values)
    assert sorted(got.rows()) == want


@settings(max_examples=scaled(60), deadline=None)
@given(ids=st.lists(st.sampled_from(["1", "2", "3", "10", "a", "b"]), min_size=1, max_size=40))
def test_shoe_index_is_the_place_of_each_id_in_file_order(ids: list[str]) -> None:
    """By runs when each id's rows are together, by id when they are not: the same index either way."""
    order = list(dict.fromkeys(ids))
    found, index = shoe_index(pl.Series("shoe", ids))
    assert found.to_list() == order
    assert index.to_list() == [order.index(i) for i in ids]
    grouped = sorted(ids, key=order.index)  # the same rows, each id's together
    found, index = shoe_index(pl.Series("shoe", grouped))
    assert found.to_list() == order
    assert index.to_list() == [order.index(i) for i in grouped]


def test_a_shoes_burn_card_is_its_first_row_when_the_kernel_turned_one_up() -> None:
    cards = pl.DataFrame({"shoe": ["a", "a", "c", "c"], "card": ["7", "K", "Q", "2"], "role": ["burn", "player"] * 2})
    assert _burn_cards(cards, pl.Series(["a", "c"]), np.array([6, -1])).to_list() == ["7", None]
    # a shoe without card rows (none is ever loaded, but the ids are then matched one by one)
    assert _burn_cards(cards, pl.Series(["a", "b", "c"]), np.array([6, -1, 11])).to_list() == ["7", None, "Q"]
    assert _burn_cards(cards, pl.Series(["a", "c"]), np.array([-1, -1])).to_list() == [None, None]


@pytest.mark.parametrize("suits", [False, True])
def test_shoes_built_a_few_at_a_time_are_those_built_a_block_at_once(monkeypatch, suits: bool):
    # simulate_records reads a block's shoes into a record a few at a time (bounded memory): the same record as
    # reading the whole block at once, shoe numbers, cards, coups and dealt arrays alike
    from toolkit.records import simulate as simulate_module

    monkeypatch.setattr(simulate_module, "_BUILT_TOGETHER", 7)
    few = simulate_module.simulate_records(45, seed=5, suits=suits, block_size=20)
    monkeypatch.setattr(simulate_module, "_BUILT_TOGETHER", 10**6)
    whole = simulate_module.simulate_records(45, seed=5, suits=suits, block_size=20)
    for name in ("shoes", "cards", "coups", "bets"):
        assert getattr(few, name).equals(getattr(whole, name)), name
    assert few.headers == whole.headers
    assert few.dealt is not None
    assert whole.dealt is not None
    for name in few.dealt.__dataclass_fields__:
        assert np.array_equal(getattr(few.dealt, name), getattr(whole.dealt, name)), name


def _same_reading(a: Records, b: Records) -> None:
    """Two readings of one record agree in every problem, frame, header and dealt array."""
    assert [_key(p) for p in a.report.problems] == [_key(p) for p in b.report.problems]
    assert (a.report.n_shoes, a.report.n_valid, a.report.unlisted) == (
        b.report.n_shoes,
        b.report.n_valid,
        b.report.unlisted,
    )
    assert a.report.rejected.equals(b.report.rejected)
    for name in ("shoes", "coups", "cards", "bets"):
        assert getattr(a, name).equals(getattr(b, name)), name
    assert a.headers == b.headers
    for name in ("shoe", "coup", "start", "cards", "seen", "left", "unseen_count", "unseen", "burn_card", "burned"):
        assert np.array_equal(getattr(a.dealt, name), getattr(b.dealt, name)), name


@pytest.mark.parametrize("layout", ["coups", "coups_burn_card", "cards"])
@pytest.mark.parametrize("shuffled", [False, True], ids=["in_order", "shuffled"])
@pytest.mark.parametrize("part_rows", [1, 7, 40])
def test_a_record_read_a_part_at_a_time_is_the_record_read_whole(monkeypatch, layout, shuffled, part_rows):
    # the reader checks and rebuilds the shoes PART_ROWS rows at a time (whole shoes; a longer shoe alone): the
    # oracle is the same record read in one part, every problem, frame and dealt array the same
    frame = _short_card_shoes(5, 60) if layout == "cards" else _short_coup_shoes(5, 60)
    header = (
        {"decks": "1"}
        if layout == "cards"
        else {"decks": "1", "burn_card": "7"}
        if layout == "coups_burn_card"
        else HEADER
    )
    if shuffled:
        frame = frame.sample(fraction=1.0, shuffle=True, seed=part_rows)
    monkeypatch.setattr(_load, "PART_ROWS", 10**9)
    whole = records_from_frame(frame, header)
    monkeypatch.setattr(_load, "PART_ROWS", part_rows)
    parts = records_from_frame(frame, header)
    assert whole.n_shoes > 20
    assert whole.report.problems
    _same_reading(parts, whole)
