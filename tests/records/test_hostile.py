"""Hostile input to the record readers: every case read right or refused with its location.

Each test writes the smallest file showing one case a hostile user tried: a hand of negative numbers,
a report giving Banker's hand first, two blocks of one shoe number, results-only rows with a repeated,
missing or unreadable coup number, a layout that calls a card "no card", a layout given for a report,
a row written with another separator, a database with one cell that is not UTF-8, and huge cells.
"""

from __future__ import annotations

import gc
import sqlite3
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from toolkit.records import _raw, _sources, _text, read_records, validation
from toolkit.records._raw import MAX_QUOTED_CHARS

NO_BURN = {"burn": "none"}


def _messages(records) -> list[str]:
    return [str(p) for p in records.report.problems]


@pytest.mark.parametrize(
    ("columns", "cell"),
    [
        ("shoe,coup,player,banker", "-5 -3"),
        ("Shoe,Hand,Player Cards,Banker Cards", "-5 -3"),
        ("shoe,coup,player,banker", "9 -3"),
    ],
)
def test_a_hand_of_negative_numbers_is_refused_at_its_line(tmp_path: Path, columns: str, cell: str):
    path = tmp_path / "neg.csv"
    path.write_text(f"{columns}\n1,1,9 K,6 K\n1,2,{cell},6 K\n2,1,9 K,6 K\n")
    records = read_records(path, NO_BURN)
    assert records.shoes["shoe"].to_list() == [2]
    bad = [p for p in records.report.problems if p.code == "unknown_card"]
    assert {p.line for p in bad} == {3}
    assert all(p.shoe == "1" for p in bad)
    assert "'-3'" in _messages(records)[-1]


def test_a_dash_between_cards_still_separates_them(tmp_path: Path):
    path = tmp_path / "dash.csv"
    path.write_text("Shoe,Hand,Player Cards,Banker Cards\n1,1,9-K,6-K\n1,2,K-2-3,K-6\n")
    records = read_records(path, NO_BURN)
    assert records.report.ok, _messages(records)
    assert records.coups["player"].to_list() == [["9", "K"], ["K", "2", "3"]]


# A coup line: winner, the two totals, the first hand's three cards, the second's.  Punto 9 K beats Banco 6 K.
_BANCO_FIRST = "Shoe number 1\nP,6,9,6,K,x,9,K,x\nB,9,6,9,K,x,6,K,x\n"


def test_a_report_giving_banker_first_is_read_by_its_winners_even_with_faces(tmp_path: Path):
    path = tmp_path / "banco.txt"
    path.write_text(_BANCO_FIRST)
    records = read_records(path, NO_BURN)
    assert records.report.ok, _messages(records)
    assert records.coups["player"].to_list() == [["9", "K"], ["6", "K"]]
    assert records.coups["winner"].to_list() == ["player", "banker"]
    assert "banker's cards, player's cards" in records.read_as


def test_a_report_giving_player_first_is_read_so(tmp_path: Path):
    path = tmp_path / "punto.txt"
    path.write_text("Shoe number 1\nP,9,6,9,K,x,6,K,x\nB,6,9,6,K,x,9,K,x\n")
    records = read_records(path, NO_BURN)
    assert records.report.ok
    assert records.coups["player"].to_list() == [["9", "K"], ["6", "K"]]


@pytest.mark.parametrize(
    "text",
    [
        "Shoe number 1\nT,6,6,6,K,x,6,Q,x\nT,7,7,7,K,x,7,K,x\n",  # only ties: nothing tells the order
        "Shoe number 1\nP,6,9,6,K,x,9,K,x\nP,9,6,9,K,x,6,K,x\n",  # one coup says each order
    ],
)
def test_a_report_whose_hand_order_cannot_be_told_is_refused_saying_so(tmp_path: Path, text: str):
    path = tmp_path / "ties.txt"
    path.write_text(text)
    records = read_records(path, NO_BURN)
    assert records.n_shoes == 0
    (problem,) = records.report.problems
    assert problem.code == "ambiguous_order"
    assert problem.line == 2
    assert problem.fatal


def test_two_blocks_of_one_shoe_number_are_never_merged(tmp_path: Path):
    path = tmp_path / "twice.txt"
    path.write_text(_BANCO_FIRST + "Shoe number 2\nB,9,6,9,K,x,6,K,x\n" + _BANCO_FIRST)
    records = read_records(path, NO_BURN)
    assert records.shoes["shoe"].to_list() == [2]
    (problem,) = records.report.problems
    assert (problem.line, problem.shoe, problem.code) == (6, "1", "duplicate_shoe")
    assert "line 1" in problem.message


@pytest.mark.parametrize(
    ("rows", "line", "code"),
    [
        ("1,1,P\n1,2,B\n1,2,B\n1,3,T\n", 4, "duplicate_coup"),
        ("1,1,P\n1,3,B\n1,2,B\n1,5,T\n", 5, "missing_coup"),  # out of order, coup 4 missing
        ("1,1,P\n1,abc,B\n1,3,T\n", 3, "bad_value"),
    ],
)
def test_results_only_rows_with_bad_coup_numbers_are_located(tmp_path: Path, rows: str, line: int, code: str):
    path = tmp_path / "results.csv"
    path.write_text("shoe,coup,winner\n" + rows + "2,1,P\n2,2,B\n")
    records = read_records(path)
    assert records.kind == "road"
    assert records.shoes["shoe"].to_list() == [2]
    assert (line, "1", code) in [(p.line, p.shoe, p.code) for p in records.report.problems]


def test_results_only_rows_out_of_order_read_in_coup_order(tmp_path: Path):
    path = tmp_path / "results.csv"
    path.write_text("shoe,coup,winner\n1,2,B\n1,1,P\n1,3,T\n")
    records = read_records(path)
    assert records.report.ok
    assert records.coups["winner"].to_list() == ["player", "banker", "tie"]


def test_a_layout_calling_a_card_no_card_is_refused(tmp_path: Path):
    path = tmp_path / "kings.csv"
    path.write_text("Shoe,Hand,P1,P2,P3,B1,B2,B3\n1,1,9,K,,6,K,\n")
    layout = {"columns": {"player": ["P1", "P2", "P3"], "banker": ["B1", "B2", "B3"]}, "cards": {"none": ["K"]}}
    with pytest.raises(ValueError, match=r"\[cards\] none lists 'K', a card"):
        read_records(path, NO_BURN, layout=layout)
    # in the values spelling a K is no card: it may mean "none" there
    layout["cards"] = {"none": ["K"], "spelling": "values"}
    path.write_text("Shoe,Hand,P1,P2,P3,B1,B2,B3\n1,1,9,0,K,6,0,K\n")
    assert read_records(path, NO_BURN, layout=layout).report.ok


def test_a_layout_for_a_text_report_is_refused_not_ignored(tmp_path: Path):
    path = tmp_path / "banco.txt"
    path.write_text(_BANCO_FIRST)
    records = read_records(path, NO_BURN, layout={"columns": {"shoe": "Nope"}})
    (problem,) = records.report.problems
    assert problem.code == "bad_layout"
    assert problem.line == 1
    assert records.n_shoes == 0


@pytest.mark.parametrize("other", [";", "\t"])
def test_a_row_with_another_separator_is_no_phantom_shoe(tmp_path: Path, other: str):
    path = tmp_path / "mixed.csv"
    row = other.join(["1", "2", "9 K", "6 K", "player"])
    path.write_text(f"shoe,coup,player,banker,winner\n1,1,9 K,6 K,player\n{row}\n2,1,9 K,6 K,player\n")
    records = read_records(path, NO_BURN)
    assert records.report.n_shoes == 2
    assert records.shoes["shoe"].to_list() == [2]
    (problem,) = records.report.problems
    assert (problem.line, problem.shoe, problem.code) == (3, "1", "bad_line")


def test_a_long_bad_cell_is_quoted_to_a_bounded_prefix(tmp_path: Path):
    path = tmp_path / "long.csv"
    path.write_text("shoe,coup,player,banker\n1,1,9 " + "Z" * 100_000 + ",6 K\n2,1,9 K,6 K\n")
    records = read_records(path, NO_BURN)
    assert records.shoes["shoe"].to_list() == [2]
    message = records.report.problems[0].message
    assert "100,000 characters" in message
    assert len(message) < MAX_QUOTED_CHARS + 200


def test_one_cell_not_utf8_in_a_database_sets_aside_its_shoe_only(tmp_path: Path):
    path = tmp_path / "shoes.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE coups (shoe INTEGER, coup INTEGER, player TEXT, banker TEXT)")
    rows = [(s, c, p, b) for s in (1, 2, 3) for c, p, b in ((1, "9 K", "6 K"), (2, "K 2 3", "K 6"))]
    connection.executemany("INSERT INTO coups VALUES (?, ?, ?, ?)", rows)
    connection.execute("UPDATE coups SET player = CAST(x'39204bff' AS TEXT) WHERE shoe = 3 AND coup = 2")
    connection.commit()
    connection.close()
    records = read_records(path, NO_BURN)
    assert records.shoes["shoe"].to_list() == [1, 2]
    assert records.coups.height == 4
    first = records.report.problems[0]
    assert (first.line, first.shoe, first.code) == (6, "3", "bad_text")
    assert "column 'player'" in first.message


@pytest.mark.parametrize("extra", [0, 1])
def test_problems_past_the_limit_are_counted_not_listed(tmp_path: Path, monkeypatch, extra: int):
    # a small limit stands for MAX_PROBLEMS (10,000): at the limit every problem is listed, one past it is counted
    monkeypatch.setattr(validation, "MAX_PROBLEMS", 4)
    path = tmp_path / "bad.csv"
    bad = "".join(f"{s},1,9 K,6 K,banker\n" for s in range(1, 5 + extra))
    path.write_text("shoe,coup,player,banker,winner\n" + bad + "99,1,9 K,6 K,player\n")
    report = read_records(path, NO_BURN).report
    assert len(report.problems) == 4
    assert report.n_unlisted == extra
    assert report.n_valid == 1
    assert sorted(report.invalid_shoes, key=int) == [str(s) for s in range(1, 5 + extra)]
    if extra:
        assert "1 more problem(s) not listed (winner_mismatch: 1)" in report.summary_lines()[-1]


def _retained_after_reading(path: Path) -> tuple[int, object]:
    """The Python memory a read record holds once read (tracemalloc), and the record (kept alive while measured)."""
    gc.collect()
    tracemalloc.start()
    try:
        records = read_records(path, NO_BURN)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return held, records


def test_problems_past_the_limit_keep_nothing_a_problem(tmp_path: Path, monkeypatch):
    # 20,000 and 40,000 bad shoes past a limit of 100 (for MAX_PROBLEMS): the report of the larger file holds no more
    # Python objects than the smaller one's.  Kept a Python string and a dict entry each (the defect: ~1.4 KB a line
    # at 3 million lines with the reader's frames), 20,000 more shoe ids held over 1 MB more; they are now a column.
    monkeypatch.setattr(validation, "MAX_PROBLEMS", 100)
    warm = tmp_path / "warm.csv"  # the first read imports and caches: not measured
    warm.write_text("shoe,coup,player,banker,winner\n" + "".join(f"{s},1,9 K,6 K,banker\n" for s in range(300)))
    read_records(warm, NO_BURN)
    held = {}
    for n in (20_000, 40_000):
        path = tmp_path / f"bad{n}.csv"
        path.write_text("shoe,coup,player,banker,winner\n" + "".join(f"{s},1,9 K,6 K,banker\n" for s in range(n)))
        held[n], records = _retained_after_reading(path)
        report = records.report  # type: ignore[attr-defined]
        assert (len(report.problems), report.n_unlisted, report.n_valid) == (100, n - 100, 0)
        assert report.unlisted_shoes.len() == n - 100
        assert len(report.invalid_shoes) == n
    # measured: 1.36 MB more before (a string and a dict entry a shoe id); 0.11 MB now, the 8-byte line numbers of
    # the raw rows of the shoes set aside (``rejected``, polars over a numpy buffer), which the report keeps by design
    assert held[40_000] - held[20_000] < 512 * 1024, held


def test_the_problem_limit_is_checked_as_problems_are_found():
    checker = validation.Checker("<memory>")
    assert checker.limit == validation.MAX_PROBLEMS == 10_000


@pytest.mark.parametrize("extra", [0, 1])
def test_a_line_at_the_byte_limit_is_read_and_one_past_it_is_a_problem(tmp_path: Path, monkeypatch, extra: int):
    monkeypatch.setattr(_text, "MAX_LINE_BYTES", 64)
    row = "2,1,9 K,6 K"
    long = row + "," + "Z" * (64 - len(row) - 1 + extra)  # the trailing field is empty... or one byte more
    path = tmp_path / "long.csv"
    path.write_text(f"shoe,coup,player,banker,note\n1,1,9 K,6 K,\n{long}\n3,1,9 K,6 K,\n")
    assert len(long) == 64 + extra
    records = read_records(path, NO_BURN)
    if extra:
        assert records.shoes["shoe"].to_list() == [1, 3]
        (problem,) = records.report.problems
        assert (problem.line, problem.code) == (3, "bad_line")
        assert "65 bytes" in problem.message
    else:
        assert records.report.ok
        assert records.shoes["shoe"].to_list() == [1, 2, 3]


def test_a_line_of_a_record_holds_at_most_one_mib():
    assert _text.MAX_LINE_BYTES == 2**20
    data = b"shoe,road\n1," + b"B" * 2**20 + b"\n2,P\n"
    cleaned, problems = _text.drop_long_lines(data)
    assert cleaned == b"shoe,road\n#\n2,P\n"
    assert [p.line for p in problems] == [2]


@pytest.mark.parametrize("extra", [0, 1])
def test_columns_at_the_limit_are_read_and_one_past_it_refused_before_the_rows(tmp_path: Path, monkeypatch, extra):
    monkeypatch.setattr(_raw, "MAX_COLUMNS", 8)
    names = ["shoe", "coup", "player", "banker"] + [f"x{i}" for i in range(4 + extra)]
    rows = ["1,1,9 K,6 K" + "," * (4 + extra)]
    for suffix, text in (
        (".csv", ",".join(names) + "\n" + "\n".join(rows) + "\n"),
        (
            ".jsonl",
            '{"shoe": 1, "coup": 1, "player": "9 K", "banker": "6 K"}\n'
            + "".join(f'{{"shoe": 1, "coup": 2, "{n}": 1}}\n' for n in names[4:]),
        ),
    ):
        path = tmp_path / f"wide{suffix}"
        path.write_text(text)
        records = read_records(path, NO_BURN)
        if extra:
            (problem,) = records.report.problems
            assert problem.code == "too_wide", problem
            assert "9 columns; a record file has at most 8" in problem.message
        else:
            assert not any(p.code == "too_wide" for p in records.report.problems)


def test_the_column_limit_is_checked_before_the_rows_are_read(tmp_path: Path, monkeypatch):
    assert _raw.MAX_COLUMNS == 1_000
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{i}" for i in range(1_001)) + "\n" + "1," * 1_000 + "1\n")
    calls = []
    monkeypatch.setattr(_text.pl, "read_csv", lambda *a, **k: calls.append(a))  # never reached
    (problem,) = read_records(path).report.problems
    assert (problem.line, problem.code) == (1, "too_wide")
    assert not calls


def _database(path: Path, rows: list[tuple]) -> Path:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE coups (shoe INTEGER, coup INTEGER, player TEXT, banker TEXT)")
    connection.executemany("INSERT INTO coups VALUES (?, ?, ?, ?)", rows)
    connection.commit()
    connection.close()
    return path


@pytest.mark.parametrize("extra", [0, 1])
def test_a_database_cell_past_the_limit_sets_aside_its_shoe_unread(tmp_path: Path, monkeypatch, extra: int):
    monkeypatch.setattr(_sources, "MAX_LINE_BYTES", 16)
    cell = "9 K" + " " * (16 - 3 + extra)  # spaces end a hand: at the limit it reads as 9 K
    path = _database(tmp_path / "big.db", [(1, 1, "9 K", "6 K"), (2, 1, cell, "6 K"), (3, 1, "9 K", "6 K")])
    records = read_records(path, NO_BURN)
    if extra:
        assert records.shoes["shoe"].to_list() == [1, 3]
        first = records.report.problems[0]
        assert (first.line, first.shoe, first.code) == (2, "2", "bad_text")
        assert "more than 16 bytes" in first.message
    else:
        assert records.report.ok, records.report.problems


def test_parquet_metadata_nested_too_deeply_is_a_located_refusal(tmp_path: Path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"shoe": ["1"], "road": ["BP"]})
    deep = "[" * 100_000 + "]" * 100_000
    pq.write_table(table.replace_schema_metadata({"baccarat": deep}), tmp_path / "deep.parquet")
    (problem,) = read_records(tmp_path / "deep.parquet").report.problems
    assert problem.code == "bad_header"

    nested = pa.array([[[[[["K"]]]]]])  # a list nested five deep
    pq.write_table(pa.table({"shoe": ["1"], "player": nested, "banker": nested, "coup": ["1"]}), tmp_path / "n.parquet")
    (problem,) = read_records(tmp_path / "n.parquet").report.problems
    assert problem.code == "too_deep"


def test_a_bet_given_twice_and_a_bet_coup_that_is_no_number_are_located(tmp_path: Path):
    from toolkit.records import read_bets

    record = tmp_path / "shoes.csv"
    record.write_text("shoe,coup,player,banker\n1,1,9 K,6 K\n1,2,K 2 3,K 6\n")
    bets = tmp_path / "bets.csv"
    bets.write_text(
        "shoe,coup,who,bet,amount\n1,1,seat1,banker,10\n1,2,seat1,banker,10\n1,1,seat1,banker,10\n1,x,seat2,player,5\n"
    )
    records = read_records(record, NO_BURN).with_bets(read_bets(bets))
    located = sorted((p.line, p.code) for p in records.report.problems)
    assert located == [(4, "bad_bet"), (5, "bad_bet")]
    messages = " ".join(p.message for p in records.report.problems)
    assert "seat1's bet on banker in coup 1 is given twice (first at line 2)" in messages
    assert "the bet's coup 'x' is not a whole number" in messages
    assert records.bets.height == 2
    assert records.n_shoes == 1


def test_unreadable_lines_of_a_bets_file_are_problems_of_their_lines_only(tmp_path: Path):
    from toolkit.records import read_bets, simulate_records, write_records

    shoes = tmp_path / "shoes.csv"
    write_records(simulate_records(1, seed=2), shoes, layout="coups")
    bets = tmp_path / "bets.csv"
    bets.write_text("shoe,coup,who,bet,amount\n1,1,s1,banker,5\n1,2,s1,banker,5,x\n1,3,s1,player,5\n")
    table = read_bets(bets)
    assert table["unread"].to_list() == [None, "line 3 has 6 fields; the column names give 5", None]
    records = read_records(shoes, bets=bets)
    assert records.bets.select("coup", "bet").rows() == [(1, "banker"), (3, "player")]
    (problem,) = records.report.problems
    assert (problem.line, problem.shoe, problem.code) == (3, "1", "bad_line")
    assert records.n_shoes == 1  # the shoe keeps its other bets
    assert records.report.rejected["line"].to_list() == [3]


_MEMORY_OF_A_READ = """
import resource, sys, tracemalloc
from toolkit.records import read_records
read_records(sys.argv[1], {"burn": "none"})  # the first read imports and compiles: not measured
tracemalloc.start()
read_records(sys.argv[2], {"burn": "none"})
print(tracemalloc.get_traced_memory()[1], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def test_the_reader_holds_a_few_hundred_bytes_a_line(tmp_path: Path):
    # a file of one-line shoes, each set aside (a winner that disagrees): 3 million lines peaked at 4.35 GB, about
    # 1.4 KB a line of the reader's own working set (a Python string a line, every shoe's rows checked and rebuilt
    # at once).  Read in a fresh process, 150,000 lines against 50,000: the peak of the process (polars' memory
    # included) and the Python peak (tracemalloc) grow by at most so much a line.  Measured: 1,418 and 338 bytes
    # a line before, 792 and 90 now (the file's bytes, its text and its rows as read are held whole).
    peaks = {}
    for n in (50_000, 150_000):
        path = tmp_path / f"bad{n}.csv"
        path.write_text("shoe,coup,player,banker,winner\n" + "".join(f"{s},1,9 K,6 K,banker\n" for s in range(n)))
        warm = tmp_path / "warm.csv"
        warm.write_text("shoe,coup,player,banker,winner\n1,1,9 K,6 K,player\n")
        run = subprocess.run(
            [sys.executable, "-c", _MEMORY_OF_A_READ, str(warm), str(path)], capture_output=True, text=True, check=True
        )
        peaks[n] = [int(x) for x in run.stdout.split()]
    python, process = ((peaks[150_000][i] - peaks[50_000][i]) / 100_000 for i in range(2))
    assert python < 160, peaks
    assert process < 1_100, peaks


# ------------------------------------------------------------------ the most lines a record file may hold
def test_the_line_limit_is_one_and_a_half_million_and_the_byte_limit_128_mib():
    from toolkit.records import read as read_module

    # measured (one-coup shoes, every line its own shoe): 1.96 GB at the limit as CSV, 2.08 GB as JSON lines,
    # refused in 5 s one line past it;
    # a file at the byte limit whose lines carry sixty bets each: 2.2 GB
    assert _raw.MAX_LINES == read_module.MAX_RECORD_LINES == 1_500_000
    assert read_module.MAX_RECORD_BYTES == 128 * 2**20


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("extra", [0, 1])
def test_lines_at_the_limit_are_read_and_one_past_it_refused_before_a_row_is_read(
    tmp_path: Path, monkeypatch, ending: str, extra: int
):
    from toolkit.records import read as read_module

    monkeypatch.setattr(_raw, "MAX_LINES", 5)
    real_decode, decoded = read_module.decode, []
    monkeypatch.setattr(read_module, "decode", lambda data: decoded.append(data) or real_decode(data))
    lines = ["# decks=8", "shoe,coup,player,banker", "1,1,9 K,6 K", "2,1,9 K,6 K"] + ["3,1,9 K,6 K"] * (1 + extra)
    for last in ("", ending):  # a last line without its ending counts too
        path = tmp_path / "lines.csv"
        path.write_bytes((ending.join(lines) + last).encode())
        decoded.clear()
        records = read_records(path, NO_BURN)
        if extra:
            (problem,) = records.report.problems
            assert (problem.code, problem.line, problem.fatal) == ("too_long", 6, True)
            assert problem.message == "the file holds 6 lines; a record file holds at most 5"
            assert not decoded  # refused on its bytes, before anything was decoded
        else:
            assert decoded
            assert records.report.ok, records.report.problems
            assert records.n_shoes == 3


@pytest.mark.parametrize("extra", [0, 1])
def test_parquet_rows_and_bets_lines_past_the_limit_are_refused(tmp_path: Path, monkeypatch, extra: int):
    import polars as pl

    from toolkit.records import read_bets

    monkeypatch.setattr(_raw, "MAX_LINES", 4)
    frame = pl.DataFrame({"shoe": [1] * (4 + extra), "coup": list(range(1, 5 + extra))})
    frame = frame.with_columns(player=pl.lit("9 K"), banker=pl.lit("6 K"))
    frame.write_parquet(tmp_path / "rows.parquet")
    codes = [p.code for p in read_records(tmp_path / "rows.parquet", NO_BURN).report.problems]
    assert ("too_long" in codes) == bool(extra)
    bets = tmp_path / "bets.csv"
    bets.write_text("shoe,coup,who,bet,amount\n" + "1,1,a,banker,5\n" * (3 + extra))
    if extra:
        with pytest.raises(ValueError, match=r"bets\.csv: the file holds 5 lines; a record file holds at most 4"):
            read_bets(bets)
    else:
        assert read_bets(bets).height == 3


@pytest.mark.parametrize("extra", [0, 1])
def test_the_rows_of_a_database_s_tables_together_are_bounded(tmp_path: Path, monkeypatch, extra: int):
    monkeypatch.setattr(_raw, "MAX_LINES", 5)
    path = _database(tmp_path / "two.db", [(1, c, "9 K", "6 K") for c in range(1, 4)])
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE more (shoe INTEGER, coup INTEGER, player TEXT, banker TEXT)")
    connection.executemany("INSERT INTO more VALUES (?, ?, ?, ?)", [(2, c, "9 K", "6 K") for c in range(1, 3 + extra)])
    connection.commit()
    connection.close()
    problems = read_records(path, NO_BURN).report.problems
    if extra:
        (problem,) = problems
        assert problem.code == "too_long"
        assert "table 'more' brings the database's tables to 6 rows; a record file holds at most 5" in problem.message
    else:
        assert not any(p.code == "too_long" for p in problems)
