"""Shoe records: every layout in every container loads and round-trips, headers, sample files, rebuilding coups.

The coups rebuilt from a record's card order are checked against the dealing
module's kernel (:func:`toolkit.dealing.dealer.deal_block`) and against the
independent one-card-per-step dealer of ``tests/loop_dealer.py``.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loop_dealer import deal_shoe
from sample_shoes import SEEDS, SHOES, write_samples
from strategies import RANKS, recorded_cards, shoe_dealings

from toolkit.bets.paytable import get_bet
from toolkit.bets.pricing import expected_values
from toolkit.coup.rules import PUNTO_BANCO, Rules
from toolkit.dealing.dealer import Dealing, deal, deal_block, shuffled_shoes
from toolkit.records import (
    RecordError,
    Records,
    ShoeHeader,
    read_records,
    records_from_dealt,
    records_from_frame,
    records_from_orders,
    replay_records,
    simulate_records,
    write_records,
)

DEALT_FIELDS = ("shoe", "coup", "start", "cards", "seen", "left", "unseen_count", "unseen", "burn_card", "burned")
CONTAINERS = ("csv", "jsonl", "parquet")


def same_records(a: Records, b: Records, dealt: bool = True) -> None:
    """The two records hold the same shoes: frames, headers and (optionally) the rebuilt arrays."""
    assert a.kind == b.kind
    assert a.shoes.equals(b.shoes)
    assert a.coups.equals(b.coups)
    assert (a.cards is None and b.cards is None) or a.cards.equals(b.cards)
    assert a.bets.equals(b.bets)
    assert a.headers == b.headers
    if dealt and a.dealt is not None:
        for name in (*DEALT_FIELDS, "burned_ranks"):
            assert np.array_equal(getattr(a.dealt, name), getattr(b.dealt, name)), name


def same_as_dealt(records: Records, dealt, face_down: bool = True) -> None:
    """The rebuilt arrays equal those of the dealing module (face-down burn ranks only when the record lists them)."""
    for name in DEALT_FIELDS:
        assert np.array_equal(getattr(records.dealt, name), getattr(dealt, name)), name
    if face_down:
        assert np.array_equal(records.dealt.burned_ranks, dealt.burned_ranks)


# ------------------------------------------------------------------ rebuilding coups
dealings = shoe_dealings()


def header_of(dealing: Dealing) -> ShoeHeader:
    return ShoeHeader.from_dealing(dealing)


@settings(max_examples=40)
@given(dealing=dealings, seed=st.integers(0, 2**32 - 1))
def test_complete_orders_rebuild_exactly_as_the_dealing_kernel(dealing: Dealing, seed: int) -> None:
    orders = shuffled_shoes(3, dealing.decks, seed)
    records = records_from_orders(orders, header_of(dealing))
    assert records.report.ok
    same_as_dealt(records, deal_block(orders, dealing))


@settings(max_examples=25)
@given(dealing=dealings, seed=st.integers(0, 2**32 - 1))
def test_the_observers_record_rebuilds_the_loop_dealers_coups(dealing: Dealing, seed: int) -> None:
    observers_record_rebuilds_the_loop_dealers_coups(dealing, seed)


def test_the_observers_record_rebuilds_the_loop_dealers_coups_under_jacobsons_rule() -> None:
    # the case a dealing kernel cached before the rule existed got wrong (tests/test_kernel_cache.py)
    observers_record_rebuilds_the_loop_dealers_coups(Dealing(decks=1, cut_card=10, last_hand="two_more_if_first"), 1)


def observers_record_rebuilds_the_loop_dealers_coups(dealing: Dealing, seed: int) -> None:
    # the observer lists the exposed burn card and the coups, nothing burned face down, no roles
    orders = shuffled_shoes(2, dealing.decks, seed)
    rows = []
    for s, order in enumerate(orders.tolist()):
        loop = deal_shoe(
            order,
            dealing.decks,
            dealing.burn,
            dealing.burn_ace,
            dealing.burn_cards,
            dealing.cut_card,
            dealing.last_hand,
        )
        seen = [loop.burn_card] if loop.burn_card >= 0 else []
        for coup in loop.coups:
            p, b = coup.player, coup.banker
            seen += [p[0], b[0], p[1], b[1], *p[2:], *b[2:]]
        rows += [(s + 1, i + 1, RANKS[r]) for i, r in enumerate(seen)]
        loop_coups = loop.coups
    frame = pl.DataFrame(rows, schema={"shoe": pl.Int64, "position": pl.Int64, "card": pl.String}, orient="row")
    records = records_from_frame(frame, replace(header_of(dealing), hidden_burn="omitted"))
    assert records.report.ok, records.report.problems[:3]
    last_shoe = records.dealt.shoe == 1
    assert records.dealt.unseen[last_shoe].tolist() == [c.unseen for c in loop_coups]
    assert records.dealt.start[last_shoe].tolist() == [c.start for c in loop_coups]
    assert records.dealt.left[last_shoe].tolist() == [c.left for c in loop_coups]
    same_as_dealt(records, deal_block(orders, dealing), face_down=False)


def test_records_of_dealt_shoes_and_their_observed_view_keep_the_coups() -> None:
    dealt = deal(6, seed=21, progress=False)
    records = records_from_dealt(dealt)
    same_as_dealt(records, dealt)
    observed = records.observed()
    assert set(observed.cards["role"].unique()) == {"burn", "player", "banker"}
    same_as_dealt(observed, dealt, face_down=False)
    assert not observed.dealt.burned_ranks.any()


# ------------------------------------------------------------------ round trips
@pytest.fixture(scope="module")
def simulated() -> Records:
    return simulate_records(3, seed=99, suits=True)


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("view", ["complete", "observed"])
def test_card_level_long_form_round_trips(simulated: Records, tmp_path: Path, container: str, view: str) -> None:
    records = simulated if view == "complete" else simulated.observed()
    for roles in (True, False):
        path = write_records(records, tmp_path / f"shoes_{roles}.{container}", roles=roles)
        back = read_records(path)
        assert back.report.ok, back.report.problems[:3]
        same_records(records, back)


@pytest.mark.parametrize("container", CONTAINERS)
def test_per_coup_layout_round_trips_and_keeps_the_coups(simulated: Records, tmp_path: Path, container: str) -> None:
    path = write_records(simulated, tmp_path / f"coups.{container}", layout="coups")
    back = read_records(path)
    assert back.layout == "coups"
    assert back.report.ok
    assert back.coups.equals(simulated.coups)
    # the per-coup layout cannot list face-down burns: the observer's arrays survive
    same_as_dealt(back, simulated.observed().dealt)
    again = read_records(write_records(back, tmp_path / f"again.{container}"))
    same_records(back, again)


@pytest.mark.parametrize("container", CONTAINERS)
def test_bead_road_round_trips(simulated: Records, tmp_path: Path, container: str) -> None:
    roads = simulated.outcomes()
    back = read_records(write_records(roads, tmp_path / f"road.{container}"))
    assert back.kind == "road"
    assert back.report.ok
    same_records(roads, back)
    assert back.coups.select("winner", "player_pair", "banker_pair").equals(
        simulated.coups.select("winner", "player_pair", "banker_pair")
    )


@settings(max_examples=15)
@given(
    dealing=dealings,
    seed=st.integers(0, 2**32 - 1),
    container=st.sampled_from(CONTAINERS),
    layout=st.sampled_from(["cards", "coups", "road"]),
    ids=st.sampled_from(["int", "text"]),
)
def test_any_record_survives_a_round_trip(dealing, seed, container, layout, ids, tmp_path_factory) -> None:
    header = header_of(dealing).updated(commission="0.04", tie_pays=9)
    records = simulate_records(2, header, seed=seed, suits=seed % 2 == 0)
    if ids == "text":
        frame = records.cards.with_columns(pl.format("T{}-0", pl.col("shoe")).alias("shoe"))
        records = records_from_frame(frame.select("shoe", "position", "card", "role"), header)
    if layout == "road":
        records = records.outcomes()
    elif layout == "coups":
        records = read_records(write_records(records, tmp_path_factory.mktemp("c") / f"c.{container}", layout=layout))
    path = write_records(records, tmp_path_factory.mktemp("rt") / f"r.{container}")
    same_records(records, read_records(path))


# ------------------------------------------------------------------ headers and inputs
def test_csv_header_lines_set_the_file_and_each_shoe(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text(
        "# recorded at table 3, free text is ignored\n"
        "# decks=1 burn=none cut_card=10 commission=0.04\n"
        "# shoe=B decks=2\n"
        "shoe,position,card\n"
        + "".join(f"A,{i + 1},{c}\n" for i, c in enumerate(["9h", "10s", "q", "2"]))
        + "".join(f"B,{i + 1},K\n" for i in range(6))
    )
    records = read_records(path)
    assert records.report.ok, records.report.problems
    assert records.header.dealing.decks == 1
    assert str(records.header.rules.commission) == "1/25"
    assert [h.dealing.decks for h in records.headers] == [1, 2]
    assert records.shoes["shoe"].to_list() == ["A", "B"]
    assert records.coups["player"].to_list()[0] == ["9h", "Q"]
    assert records.coups["banker"].to_list()[0] == ["Ts", "2"]


def test_jsonl_meta_lines_and_header_argument(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(
        '{"meta": {"decks": 6, "burn": "fixed", "burn_cards": 2}}\n'
        '{"shoe": 1, "coup": 1, "player": "7h Kd", "banker": ["6s", "Kh"], "winner": "player"}\n'
    )
    records = read_records(path)
    assert records.report.ok
    assert records.header.dealing.decks == 6
    assert records.dealt.burned.tolist() == [2]
    assert read_records(path, header={"decks": 4}).header.dealing.decks == 4
    assert read_records(path, header={"deks": 4}).report.problems[0].code == "bad_header"


def test_header_values_are_checked_where_they_come_from() -> None:
    with pytest.raises(ValueError, match="unknown header key 'cutcard'"):
        ShoeHeader().updated({"cutcard": 3})
    with pytest.raises(ValueError, match=r"Dealing\.burn must be one of"):
        ShoeHeader().updated(burn="sometimes")
    with pytest.raises(ValueError, match="hidden_burn"):
        ShoeHeader(hidden_burn="maybe")
    assert ShoeHeader(burn_card="10h").burn_card == "Th"
    assert ShoeHeader().updated(decks=6, cut_card=16).text(ShoeHeader()) == "decks=6 cut_card=16"


def test_the_header_holds_a_dealing_and_house_rules() -> None:
    header = ShoeHeader().updated(decks=6, burn="fixed", burn_cards=3, commission="0.04", hidden_burn="listed")
    assert header.dealing == Dealing(decks=6, burn="fixed", burn_cards=3)
    assert header.rules == Rules(decks=6, commission=Fraction(1, 25))
    assert header.hidden_burn == "listed"
    assert header.text() == (
        "decks=6 burn=fixed burn_ace=1 burn_cards=3 cut_card=14 last_hand=one_more commission=0.04 tie_pays=8 "
        "hidden_burn=listed"
    )
    # the text reads back to the same header
    assert ShoeHeader().updated(dict(word.split("=") for word in header.text().split())) == header
    assert ShoeHeader.from_dealing(Dealing(decks=6, coups=30)) == ShoeHeader(Dealing(decks=6), Rules(decks=6))
    with pytest.raises(ValueError, match="must agree"):
        ShoeHeader(Dealing(decks=6))
    with pytest.raises(ValueError, match="must agree"):
        ShoeHeader(Dealing(tableau=PUNTO_BANCO.with_player(6, True)))
    with pytest.raises(ValueError, match="coups"):
        ShoeHeader(Dealing(coups=3))


def test_records_are_rebuilt_under_the_tableau_of_their_header(tmp_path: Path) -> None:
    tableau = PUNTO_BANCO.with_player(6, True, name="Player draws on 6")
    dealing = Dealing(tableau=tableau)
    header = ShoeHeader.from_dealing(dealing)
    assert header.rules.tableau == tableau
    dealt = deal(3, dealing, seed=8, progress=False)
    records = records_from_dealt(dealt, header)
    assert records.report.ok, records.report.problems[:3]
    same_as_dealt(records, dealt)
    frame = replay_records(records, bets=["banker"])
    assert np.array_equal(
        frame["ev_banker"].to_numpy(), expected_values(dealt.unseen, [get_bet("banker")], tableau)[:, 0]
    )
    # the same cards break the punto banco tableau: a Player 6 that draws
    under_punto_banco = records_from_dealt(dealt)
    assert under_punto_banco.report.n_valid == 0
    assert {p.code for p in under_punto_banco.report.problems} == {"tableau"}
    # a file holds no tableau: read with its header it is valid, read as punto banco it is not (the roles or the
    # hands show the draws; a bare card order would only be dealt into other coups)
    simulated = simulate_records(3, header, seed=4)
    assert simulated.report.ok
    for container, layout in (("csv", "cards"), ("parquet", "cards"), ("jsonl", "coups"), ("csv", "coups")):
        path = write_records(simulated, tmp_path / f"player6_{layout}.{container}", layout=layout)
        back = read_records(path, header=header)
        assert back.report.ok
        assert back.coups.equals(simulated.coups)
        assert read_records(path).report.n_valid == 0


@pytest.mark.parametrize("name", ["cards_observed.csv", "coups_with_bets.jsonl", "coups_6decks.csv", "roads.csv"])
def test_a_sample_written_again_is_the_same_bytes(tmp_path: Path, name: str) -> None:
    stored = SHOES / name
    records = read_records(stored)
    roles = "role" in pl.read_csv(stored, comment_prefix="#").columns if stored.suffix == ".csv" else True
    path = write_records(records, tmp_path / name, roles=roles)
    assert path.read_bytes() == stored.read_bytes()


@given(recorded_cards())
def test_card_codes_are_read_in_any_case_with_10_and_suits(card: tuple[str, int, str]) -> None:
    text, rank, suit = card
    frame = pl.DataFrame({"shoe": [1] * 4, "position": [1, 2, 3, 4], "card": [text, "9", "K", "9"]})
    records = records_from_frame(frame, {"burn": "none"})
    canonical = records.cards["card"][0]
    assert canonical[0] == RANKS[rank]
    assert canonical[1:] == suit


def test_select_and_views_of_records(simulated: Records) -> None:
    one = simulated.select([3, "1"])
    assert one.shoe_ids == [3, 1]
    assert one.coups["shoe"].unique(maintain_order=True).to_list() == [3, 1]
    assert np.array_equal(one.dealt.unseen[one.dealt.shoe == 0], simulated.dealt.unseen[simulated.dealt.shoe == 2])
    with pytest.raises(ValueError, match="no shoe '7'"):
        simulated.index_of("7")
    assert simulated.outcomes().cards is None
    with pytest.raises(ValueError, match="outcome-only"):
        simulated.outcomes().observed()


def test_simulated_records_depend_only_on_the_seed() -> None:
    a = simulate_records(3, seed=5, block_size=2)
    b = simulate_records(3, seed=5, block_size=2)
    same_records(a, b)
    assert not simulate_records(3, seed=6, block_size=2).coups.equals(a.coups)
    same_records(a, simulate_records(3, seed=np.random.SeedSequence(5), block_size=2))
    from_generator = simulate_records(3, seed=np.random.default_rng(5), block_size=2)
    same_records(from_generator, simulate_records(3, seed=np.random.default_rng(5), block_size=2))


# ------------------------------------------------------------------ sample files
def test_sample_files_are_what_the_generator_writes(tmp_path: Path) -> None:
    write_samples(tmp_path)
    for path in sorted(tmp_path.rglob("*")):
        if path.is_dir():
            continue
        stored = SHOES / path.relative_to(tmp_path)
        assert stored.exists(), f"{stored} is missing: run python tests/sample_shoes.py"
        if path.parent == tmp_path:  # simulated records: the same shoes, whatever the writer's formatting
            made, kept = read_records(path), read_records(stored)
            same_records(made, kept)
            where = [(p.line, p.shoe, p.coup, p.code, p.message) for p in made.report.problems]
            assert where == [(p.line, p.shoe, p.coup, p.code, p.message) for p in kept.report.problems]
        elif path.suffix == ".parquet":  # hand-written Parquet: the same table (the writer's version may differ)
            made_table, kept_table = pq.read_table(path), pq.read_table(stored)
            assert made_table.equals(kept_table), f"{stored} differs from what tests/sample_shoes.py writes"
            assert (made_table.schema.metadata or {}).get(b"baccarat") == (kept_table.schema.metadata or {}).get(
                b"baccarat"
            )
        else:  # hand-written malformed files: byte for byte
            assert path.read_bytes() == stored.read_bytes(), f"{stored} differs from what tests/sample_shoes.py writes"


@pytest.mark.parametrize("name", [n for n in SEEDS if n != "mixed.csv"])
def test_every_sample_loads_without_a_problem(name: str) -> None:
    records = read_records(SHOES / name)
    assert records.report.ok, records.report.problems[:3]
    assert records.n_shoes >= 3
    expected = {
        "cards_observed.csv": "cards",
        "cards_complete.parquet": "cards",
        "coups_with_bets.jsonl": "coups",
        "coups_6decks.csv": "coups",
        "roads.csv": "road",
    }[name]
    assert records.layout == expected
    if name == "coups_with_bets.jsonl":
        assert set(records.bets["who"].unique()) == {"seat1", "seat2", "seat3"}
    if name == "coups_6decks.csv":
        assert records.header.dealing.decks == 6
        assert records.header.dealing.cut_card == 16


def test_bets_from_a_separate_table_are_checked(tmp_path: Path) -> None:
    table = tmp_path / "bets.csv"
    table.write_text(
        "shoe,coup,who,bet,amount\n1,1,seat1,banker,10\n1,2,seat1,tie,5\n2,3,seat2,bankr,1\n4,999,seat3,tie,1\n"
    )
    records = read_records(SHOES / "cards_observed.csv", bets=table)
    assert [(p.line, p.shoe, p.coup, p.code) for p in records.report.problems] == [
        (4, "2", 3, "bad_bet"),
        (5, "4", 999, "bad_bet"),
    ]
    # a bad bet is a problem of its line only: every shoe loads, with its good bets
    assert records.shoe_ids == [1, 2, 3, 4]
    assert records.bets.rows() == [(1, 1, "seat1", "banker", 10.0), (1, 2, "seat1", "tie", 5.0)]
    assert records.report.n_valid == 4
    assert records.report.rejected.select("line", "shoe", "bet").rows() == [(4, "2", "bankr"), (5, "4", "tie")]
    with pytest.raises(RecordError, match="unknown bet 'bankr'"):
        read_records(SHOES / "cards_observed.csv", bets=table, strict=True)
    (tmp_path / "wrong.csv").write_text("shoe,coup,bet\n1,1,tie\n")
    with pytest.raises(ValueError, match="missing who, amount"):
        read_records(SHOES / "cards_observed.csv", bets=tmp_path / "wrong.csv")


def test_a_coup_column_in_the_long_form_is_checked(simulated: Records) -> None:
    observed = simulated.observed()
    frame = observed.cards.with_columns(pl.col("coup").cast(pl.String))  # empty for the burn card
    again = records_from_frame(frame)
    assert again.report.ok
    assert again.coups.equals(observed.coups)
    moved = frame.with_columns(
        pl.when((pl.col("shoe") == 2) & (pl.col("position") == 12))
        .then(pl.lit("9"))
        .otherwise(pl.col("coup"))
        .alias("coup")
    )
    problems = records_from_frame(moved).report.problems
    assert [(p.shoe, p.code) for p in problems] == [("2", "tableau")]
