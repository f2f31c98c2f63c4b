"""Files other programs write read with no options: three public simulators, a tracker's export, a rank-number export.

The simulators' files are written by the re-implementations of ``foreign_writers.py`` (each cites the
program and commit it follows).  The file of ``stevenhalverson/baccarat_simulator`` breaks the tableau:
an independent coup checker below (no toolkit imports, the punto banco rules as printed in casino
rule cards: Player draws on 0-5; Banker draws on 0-2, on 3 unless Player's third card is an 8, on 4
against 2-7, on 5 against 4-7, on 6 against 6-7, and on 0-5 when Player stood) must find exactly the
coups ``validate`` finds, coup by coup, in every shoe.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections import Counter

import numpy as np
import polars as pl
import pytest
from foreign_writers import (
    halverson_rows,
    lanlicyuen_hands,
    write_halverson_csv,
    write_halverson_db,
    write_lanlicyuen_csv,
    write_silvestre_report,
)
from loop_dealer import banker_draws  # the rulebook's tableau, written without the toolkit

from toolkit.records import read_records, replay_records
from toolkit.records.read import before_first_problem

TABLEAU_CODES = ("tableau", "truncated")


# ------------------------------------------------------------------ the independent checker


def coup_fault(player: list[int], banker: list[int]) -> str | None:
    """What is wrong with one coup's hands of values (``None``: they follow the tableau)."""
    pt, bt = sum(player[:2]) % 10, sum(banker[:2]) % 10
    if pt >= 8 or bt >= 8:
        return None if len(player) == len(banker) == 2 else "natural"
    if (pt <= 5) != (len(player) == 3):
        return "player"
    if banker_draws(bt, player[2] if len(player) == 3 else None) != (len(banker) == 3):
        return "banker"
    return None


def winner_of(player: list[int], banker: list[int]) -> str:
    pt, bt = sum(player) % 10, sum(banker) % 10
    return "player win" if pt > bt else "banker win" if bt > pt else "tie"


@pytest.fixture(scope="module")
def halverson(tmp_path_factory):
    folder = tmp_path_factory.mktemp("halverson")
    rows = halverson_rows(12, seed=2024)
    return rows, write_halverson_csv(folder / "results.csv", rows), write_halverson_db(folder / "results.db", rows)


def _hands(row: list[object]) -> tuple[list[int], list[int]]:
    p = [int(v) for v in row[2:5] if v is not None]  # type: ignore[call-overload]
    b = [int(v) for v in row[5:8] if v is not None]  # type: ignore[call-overload]
    return p, b


@pytest.mark.parametrize("container", ["csv", "db"])
def test_halverson_faults_are_found_coup_by_coup_in_every_shoe(halverson, container):
    rows, csv_path, db_path = halverson
    records = read_records(csv_path if container == "csv" else db_path)
    assert records.kind == "values"
    assert "per-position card columns pcard1,pcard2,pcard3, bcard1,bcard2,bcard3" in records.read_as
    assert "shoes from 'shoe number'" in records.read_as
    assert records.report.n_shoes == 12
    faults = {(str(r[13]), r[9]): coup_fault(*_hands(r)) for r in rows}
    expected = {key for key, fault in faults.items() if fault is not None}
    found = {(p.shoe, p.coup) for p in records.report.problems if p.code in TABLEAU_CODES}
    assert found == expected
    assert len(found) > 100  # every shoe has its faults, not only the first of each
    wrong_winner = {(str(r[13]), r[9]) for r in rows if winner_of(*_hands(r)) != r[8]}
    assert {(p.shoe, p.coup) for p in records.report.problems if p.code == "winner_mismatch"} == wrong_winner
    # Banker standing on 4 and 5 when Player stood, by kind, as the checker counts them
    summary = {kind: n for _, kind, n, _ in records.report.summary().iter_rows()}
    for total in (4, 5):
        stood = sum(
            1
            for r in rows
            if faults[(str(r[13]), r[9])] == "banker"
            and len(_hands(r)[0]) == 2
            and len(_hands(r)[1]) == 2
            and sum(_hands(r)[1]) % 10 == total
        )
        assert stood > 0
        assert summary[f"Banker stood on {total} after Player stood"] == stood


def test_halverson_problems_are_located_by_file_row_and_coup(halverson):
    _, csv_path, db_path = halverson
    for path, where in ((csv_path, f"{csv_path}:"), (db_path, f"{db_path}:simulation_results:")):
        problem = read_records(path).report.problems[0]
        assert str(problem).startswith(where)
        assert problem.coup is not None
        assert problem.shoe is not None


def test_a_database_is_opened_read_only(halverson, tmp_path):
    _, _, db_path = halverson
    before = db_path.read_bytes()
    read_records(db_path)
    assert db_path.read_bytes() == before
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).execute("CREATE TABLE notes (text TEXT)").connection.close()
    records = read_records(empty)
    assert records.report.fatal
    assert "none of the database's 1 table(s) (notes) holds coups" in str(records.report.problems[0])


def test_silvestre_report_reads_with_its_leading_blank_line(tmp_path):
    path = write_silvestre_report(tmp_path / "8_5_010125000000.txt", 5, seed=7)
    assert path.read_text().startswith("\nShoe number 1\n\n")
    records = read_records(path)
    assert records.report.ok, records.report
    assert records.kind == "values"
    assert records.n_shoes == 5
    assert "a text report of shoe blocks" in records.read_as
    assert "banker's cards, player's cards" in records.read_as
    coup_lines = [ln for ln in path.read_text().split("\n") if ln[:2] in ("P,", "B,", "T,")]
    assert records.coups.height == len(coup_lines)
    letters = records.coups["winner"].replace_strict({"player": "P", "banker": "B", "tie": "T"}).to_list()
    assert letters == [ln[0] for ln in coup_lines]


def test_lanlicyuen_csv_reads_its_shoes_from_the_cards_left(tmp_path):
    path = write_lanlicyuen_csv(tmp_path / "baccarat_report.csv", 1500, seed=5)
    records = read_records(path)
    assert records.report.ok, records.report
    assert records.kind == "cards"
    assert "hands in 'player_cards', 'banker_cards'" in records.read_as
    assert '"shoe_cards_left" jumps up' in records.read_as
    events = lanlicyuen_hands(1500, seed=5)
    refills = 1 + sum(b["shoe_cards_left"] > a["shoe_cards_left"] for a, b in itertools.pairwise(events))
    assert records.n_shoes == refills
    assert records.coups.height == 1500
    # exact edges: a full shoe (no burn) before the first coup of every shoe
    first = replay_records(records, bets=["banker"]).filter(pl.col("coup") == 1)
    assert np.allclose(first["ev_banker"].to_numpy(), -0.0105791, atol=1e-7)


def test_tracker_results_only_read_as_a_road(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text("index,result\n1,P\n2,B\n3,T\n4,B\n1,B\n2,P\n")
    records = read_records(path)
    assert records.kind == "road"
    assert records.report.ok, records.report
    assert records.n_shoes == 2  # the index restarts
    assert records.coups["winner"].to_list() == ["player", "banker", "tie", "banker", "banker", "player"]
    assert "results only" in records.read_as
    path.write_text("shoe,coup,winner\n7,1,Player\n7,2,banker win\n8,1,T\n")
    records = read_records(path)
    assert records.report.ok, records.report
    assert records.shoe_ids == [7, 8]


def test_dash_separated_rank_numbers_read_as_ranks(tmp_path):
    path = tmp_path / "hands.csv"
    path.write_text("shoe,coup,player,banker\n1,1,4-1,9-13\n1,2,12-5-3,13-6\n")
    records = read_records(path, header="burn=none")
    assert records.report.ok, records.report
    assert records.coups["player"].to_list() == [["4", "A"], ["Q", "5", "3"]]
    assert records.coups["banker"].to_list() == [["9", "K"], ["K", "6"]]
    assert "cards as rank numbers 1-13" in records.read_as


@pytest.mark.parametrize(
    ("columns", "row"),
    [
        ("p1,p2,p3,b1,b2,b3", "9,K,,6,K,"),
        ("player_card_1,player_card_2,player_card_3,banker_card_1,banker_card_2,banker_card_3", "9,K,,6,K,"),
        ("player_hand,banker_hand", '"[""9"", ""K""]","6 K"'),
        ("punto,banco", '"9,K","6|K"'),
    ],
)
def test_common_hand_layouts_read_without_options(tmp_path, columns, row):
    path = tmp_path / "coups.csv"
    path.write_text(f"shoe,hand,{columns},winner\n1,1,{row},P\n1,2,{row},player\n")
    records = read_records(path, header="burn=none")
    assert records.report.ok, records.report
    assert records.coups["player"].to_list() == [["9", "K"]] * 2
    assert records.coups["winner"].to_list() == ["player"] * 2


def test_shoes_inferred_from_blank_lines_and_overridden(tmp_path):
    path = tmp_path / "blank.csv"
    path.write_text("p1,p2,b1,b2\n9,K,6,K\n9,K,6,K\n\n9,K,6,K\n")
    records = read_records(path, header="burn=none")
    assert records.report.ok, records.report
    assert records.n_shoes == 2
    assert "a blank line separates the rows" in records.read_as
    one = read_records(path, header="burn=none", one_shoe=True)
    assert one.n_shoes == 1
    assert "one shoe (--one-shoe)" in one.read_as
    path.write_text("table,p1,p2,b1,b2\nA,9,K,6,K\nB,9,K,6,K\nB,9,K,6,K\n")
    named = read_records(path, header="burn=none", shoe_column="table")
    assert named.shoe_ids == ["A", "B"]
    missing = read_records(path, shoe_column="dealer")
    assert missing.report.fatal
    assert "no column 'dealer' for the shoes" in str(missing.report.problems[0])


def test_shoes_inferred_from_a_burn_recorded_on_their_first_hand(tmp_path):
    path = tmp_path / "burns.csv"
    path.write_text("hand,burn,p1,p2,b1,b2\n1,7,9,K,6,K\n2,,9,K,6,K\n3,,9,K,6,K\n4,3,9,K,6,K\n5,,9,K,6,K\n")
    records = read_records(path, header="burn=none")
    assert records.report.ok, records.report
    assert records.coups.group_by("shoe", maintain_order=True).len()["len"].to_list() == [3, 2]
    assert '"burn" records a burn' in records.read_as
    assert "not read" not in records.read_as


def test_bad_cells_are_located_and_the_good_shoes_kept(tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_text("shoe,pcard1,pcard2,pcard3,bcard1,bcard2,bcard3,outcome\n1,9,0,,6,0,,player win\n2,9,Z,,6,0,,P\n")
    records = read_records(path, header="burn=none")
    assert records.shoe_ids == [1]
    (problem,) = records.report.problems
    assert str(problem).startswith(f"{path}:3: shoe 2, coup 1: unknown card code 'Z'")
    counts = Counter(p.code for p in records.report.problems)
    assert counts == {"unknown_card": 1}


def test_a_set_aside_shoe_replays_up_to_its_first_bad_coup(halverson):
    rows, csv_path, _ = halverson
    records = read_records(csv_path)
    first = {}
    for p in records.report.problems:
        first[p.shoe] = min(first.get(p.shoe, 10**6), p.coup)
    shoe = next(s for s, c in first.items() if c > 3)
    part = before_first_problem(records, shoe)
    assert part.report.ok
    assert part.coups["coup"].to_list() == list(range(1, first[shoe]))
    mine = [r for r in rows if str(r[13]) == shoe and r[9] < first[shoe]]
    assert part.coups["player"].to_list() == [[str(v) for v in _hands(r)[0]] for r in mine]
    frame = replay_records(part, bets=["banker", "dragon7"])
    assert frame.height == first[shoe] - 1
    with pytest.raises(ValueError, match="was not set aside"):
        before_first_problem(read_records(write_silvestre_report(csv_path.with_name("s.txt"), 1, seed=1)), "1")


def test_coup_lines_without_column_names_read_as_a_report(tmp_path):
    report = write_silvestre_report(tmp_path / "report.txt", 2, seed=4).read_text()
    blocks = report.split("Shoe number ")[1:]
    lines = ["\n".join(ln for ln in b.split("\n") if ln[:2] in ("P,", "B,", "T,")) for b in blocks]
    path = tmp_path / "coups.csv"
    path.write_text("\n\n".join(lines) + "\n")
    records = read_records(path)
    assert records.report.ok, records.report
    assert records.n_shoes == 2
    assert "coup lines without column names" in records.read_as
    assert records.coups.equals(read_records(tmp_path / "report.txt").coups)


def test_a_long_form_shoe_without_coup_numbers_replays_up_to_its_first_bad_coup():
    """Cards with roles but no coup numbers: the coups before the first bad one are rebuilt from the cards."""
    from toolkit.records import records_from_frame, simulate_records

    recs = simulate_records(2, seed=3).observed()
    frame = recs.cards.select("shoe", "position", "card", "role")
    wrong = (pl.col("shoe") == 1) & (pl.col("position") == 40)
    broken = records_from_frame(
        frame.with_columns(pl.when(wrong).then(pl.lit("burn")).otherwise(pl.col("role")).alias("role")), recs.header
    )
    (problem,) = broken.report.problems
    assert broken.shoe_ids == [2]
    assert problem.line == 40
    assert problem.coup is not None
    part = before_first_problem(broken, 1)
    assert part.report.ok
    assert part.coups["coup"].to_list() == list(range(1, problem.coup))
    dealt = recs.coups.filter(pl.col("shoe") == 1).head(problem.coup - 1)
    assert part.coups.select("player", "banker").equals(dealt.select("player", "banker"))


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("1,9,K,,6,K,\n2,4,4,,5,5,\n", "coup, p1, p2, p3, b1, b2, b3"),
        ("9,K,,6,K,\n4,4,,5,5,\n", "p1, p2, p3, b1, b2, b3"),
        ("1,1,9 K,6 K,P\n1,2,4 4,5 5,P\n", "shoe, coup, player, banker, winner"),
        ("P;9 K;6 K\nP;4 4;5 5\n", "winner, player, banker"),
        ("1\t9\tK\t\t6\tK\t\n", "coup, p1, p2, p3, b1, b2, b3"),
    ],
)
def test_a_csv_without_column_names_reads_by_the_shape_of_its_rows(tmp_path, text, names):
    path = tmp_path / "rows.csv"
    path.write_text(text)
    records = read_records(path, header="burn=none")
    assert records.report.ok, records.report
    assert records.read_as.startswith(f"no column names: read as {names}")
    assert records.coups["player"].to_list()[:2] == [["9", "K"], ["4", "4"]][: records.coups.height]


def test_a_csv_without_column_names_keeps_its_line_numbers_and_refuses_an_ambiguous_shape(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("".join(f"{c},9,K,,6,K,\n" for c in range(1, 11)) + "11,9,K,,6,K,Z\n")
    (problem,) = read_records(path, header="burn=none").report.problems
    assert problem.line == 11
    assert problem.code == "unknown_card"
    path.write_text("9,K,6,K\n")  # four cards: two a hand, or a hand of three and one? not told
    assert read_records(path).report.fatal
