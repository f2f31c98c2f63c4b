"""Validation: every class of bad input gets its located message; good shoes load beside bad ones; never a traceback.

The malformed files of ``data/shoes/malformed/`` (written by ``tests/sample_shoes.py``) each carry the
problems they must raise in ``expected.csv``: file, line, shoe, coup and code.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sample_shoes import SHOES

from toolkit.records import (
    Problem,
    RecordError,
    ShoeHeader,
    ValidationReport,
    read_records,
    records_from_frame,
    simulate_records,
    write_records,
)

MALFORMED = SHOES / "malformed"
EXPECTED = pl.read_csv(MALFORMED / "expected.csv", schema_overrides={"shoe": pl.String, "coup": pl.Int64})


@pytest.mark.parametrize("name", EXPECTED["file"].unique(maintain_order=True).to_list())
def test_each_malformed_file_gets_its_located_problem(name: str) -> None:
    """The problems of each file, where they are, and the shoes that load (``code == "loaded"``)."""
    records = read_records(MALFORMED / name)
    got = [(p.line, p.shoe, p.coup, p.code) for p in records.report.problems]
    rows = EXPECTED.filter(pl.col("file") == name)
    want = [tuple(r) for r in rows.filter(pl.col("code") != "loaded").select("line", "shoe", "coup", "code").rows()]
    assert got == want, records.report.problems
    assert [str(s) for s in records.shoe_ids] == rows.filter(pl.col("code") == "loaded")["shoe"].to_list()
    for p in records.report.problems:
        assert p.file == str(MALFORMED / name)
        assert p.message
        assert str(p).startswith(str(MALFORMED / name))


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("unknown_card.csv", ["'Qx'", "expected a rank A,2-9,T/10,J,Q,K"]),
        ("too_many_cards.csv", ["one too many of rank K", "1-deck shoe holds 4"]),
        ("third_card_forbidden.csv", ["forbids", "Player stands on 7", "found 3h for Player"]),
        ("missing_third_card.jsonl", ["missing Player's third card", "Player draws on 5"]),
        ("after_natural.csv", ["after a natural", "Player's 8 is a natural", "found 2 for Banker"]),
        ("winner_mismatch.csv", ["says banker won", "Player 7 and Banker 6: player wins"]),
        ("truncated.csv", ["ends in the middle of a coup", "at least four"]),
        ("duplicate_position.csv", ["duplicate position 2"]),
        ("missing_position.csv", ["missing positions 3 to 4"]),
        ("burn_count.csv", ["exposed burn card 3 means 3 card(s) burned face down"]),
        ("bad_bet.jsonl", ["unknown bet 'bankr'", "known bets: banker"]),
        ("bad_road.csv", ["unknown symbol 'x'", "B, P or T"]),
        ("empty.csv", ["empty"]),
        ("not_text.csv", ["not text"]),
        ("bad_header.csv", ["decks must be an integer", "'eight'"]),
        ("unknown_columns.csv", ["expected shoe, position, card"]),
        ("ragged.csv", ["line 3 has 4 fields"]),
    ],
)
def test_messages_say_what_was_expected(name: str, words: list[str]) -> None:
    message = read_records(MALFORMED / name).report.problems[0].message
    for word in words:
        assert word in message


def test_a_file_mixing_good_and_bad_shoes_loads_all_the_good_ones() -> None:
    path = SHOES / "mixed.csv"
    records = read_records(path)
    report = records.report
    assert records.shoe_ids == [1, 3, 5]
    assert (report.n_shoes, report.n_valid) == (5, 3)
    assert report.invalid_shoes == ["2", "4"]
    assert [(p.shoe, p.code) for p in report.problems] == [("2", "unknown_card"), ("4", "missing_position")]
    # the raw rows of the shoes set aside are kept, as read, with their lines
    raw = pl.read_csv(path, comment_prefix="#", infer_schema=False)
    assert report.rejected.height == raw.filter(pl.col("shoe").is_in(["2", "4"])).height
    assert report.rejected.filter(pl.col("card") == "Z")["line"].to_list() == [report.problems[0].line]
    assert set(report.rejected["file"].unique()) == {str(path)}


def test_strict_mode_stops_at_the_first_problem_in_file_order() -> None:
    with pytest.raises(RecordError) as caught:
        read_records(SHOES / "mixed.csv", strict=True)
    assert caught.value.problem.shoe == "2"
    assert caught.value.problem.code == "unknown_card"
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == str(caught.value.problem)
    with pytest.raises(RecordError) as fatal:
        read_records(MALFORMED / "not_text.csv", strict=True)
    assert fatal.value.problem.fatal
    assert read_records(SHOES / "cards_observed.csv", strict=True).report.ok


def test_problems_and_reports_as_data() -> None:
    report = read_records(SHOES / "mixed.csv").report
    frame = report.frame()
    assert frame.columns == ["file", "line", "shoe", "coup", "code", "message", "fatal"]
    assert frame.height == 2
    assert not report.fatal
    assert not report.ok
    both = report.merge(read_records(MALFORMED / "empty.csv").report)
    assert both.fatal
    assert len(both.problems) == 3
    assert both.n_shoes == 5
    assert set(Problem("f", 1, "s", 2, "c", "m").as_dict()) == {"file", "line", "shoe", "coup", "code", "message"}
    assert ValidationReport().ok


def test_a_file_that_does_not_exist_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_records(tmp_path / "nothing.csv")


@pytest.mark.parametrize(
    ("rows", "code", "coup"),
    [
        # Player 5 must draw; the record gives the next coup instead
        ({"player": ["5 K", "9 K"], "banker": ["2 5", "6 K"]}, "tableau", 1),
        # Banker 4 against a Player third card 8 stands; a Banker third card is too many
        ({"player": ["5 K 8", "9 K"], "banker": ["2 2 4", "6 K"]}, "tableau", 1),
        # Banker 3 against a Player third card 2 draws: missing
        ({"player": ["5 K 2", "9 K"], "banker": ["A 2", "6 K"]}, "tableau", 1),
        # a hand of four cards
        ({"player": ["5 K 2 2", "9 K"], "banker": ["A 2", "6 K"]}, "bad_hand", 1),
        # the second coup holds one Banker card: the record ends there
        ({"player": ["9 K", "9 K"], "banker": ["6 K", "6"]}, "truncated", 2),
        # the last coup needs a Banker third card (Banker 0 draws)
        ({"player": ["9 K", "6 K"], "banker": ["6 K", "K Q"]}, "truncated", 2),
    ],
)
def test_per_coup_tableau_problems_are_located(rows: dict, code: str, coup: int) -> None:
    frame = pl.DataFrame({"shoe": [1, 1], "coup": [1, 2], **rows})
    problems = records_from_frame(frame, {"burn": "none"}).report.problems
    assert [(p.code, p.coup, p.line) for p in problems] == [(code, coup, coup)], problems


def test_coup_numbers_are_checked() -> None:
    frame = pl.DataFrame({"shoe": [1, 1, 1], "coup": [1, 1, 3], "player": ["9 K"] * 3, "banker": ["6 K"] * 3})
    problems = records_from_frame(frame, {"burn": "none"}).report.problems
    assert [(p.code, p.line) for p in problems] == [("duplicate_coup", 2), ("missing_coup", 3)]
    assert problems[1].message.startswith("missing coup 2: ")  # one number missing reads as one


@pytest.fixture(scope="module")
def good_csv(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("fuzz") / "good.csv"
    write_records(simulate_records(2, ShoeHeader().updated(decks=1), seed=8).observed(), path, roles=False)
    return path.read_bytes()


# Both fuzz tests are derandomized and keep no example database: every run (alone, in the suite, under load,
# in any worker) draws the same inputs, so a pass or a failure repeats.  ``too_slow`` is suppressed because
# Hypothesis times the interleaved ``data.draw`` calls by the wall clock, which load stretches.
@settings(
    max_examples=60,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_damaged_files_never_raise(good_csv: bytes, data: st.DataObject, tmp_path: Path) -> None:
    """Cut, overwrite or splice any bytes of a good file: reading reports problems, it never raises."""
    raw = bytearray(good_csv)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        action = data.draw(st.sampled_from(["cut", "byte", "text", "line"]))
        if action == "cut":
            raw = raw[:at]
        elif action == "byte":
            raw[at] = data.draw(st.integers(0, 255))
        elif action == "text":
            raw[at:at] = data.draw(st.text(max_size=8)).encode()
        else:
            raw[at:at] = b"\n" + data.draw(st.sampled_from([b"1,x,K", b",,", b"2,1,Q", b'"', b"#", b"9,9,9,9"])) + b"\n"
        if not raw:
            break
    path = tmp_path / "damaged.csv"
    path.write_bytes(bytes(raw))
    records = read_records(path)
    assert records.report.n_valid == records.n_shoes
    for problem in records.report.problems:
        assert problem.message


@settings(max_examples=40, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200), suffix=st.sampled_from([".csv", ".jsonl", ".parquet", ".txt"]))
def test_any_text_is_read_without_a_traceback(text: str, suffix: str, tmp_path_factory) -> None:
    path = tmp_path_factory.mktemp("any") / f"f{suffix}"
    path.write_text(text, encoding="utf-8")
    records = read_records(path)
    assert records.report.ok or records.report.problems


# ------------------------------------------------------------------ the readers' hardening, class by class
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("bad_json_line.jsonl", ["line 3 is not valid JSON", "line 4 holds a JSON list, not an object"]),
        ("header_inside_shoe.csv", ["header at line 5 falls among the rows of shoe 1"]),
        ("repeated_key.csv", ["key decks is given twice, as '8' and '6'"]),
        ("float_positions.parquet", ["position '2.5' is not an integer"]),
        ("list_shoe.parquet", ["column 'shoe' holds List(Int64) values"]),
        ("road_twice.csv", ["shoe 1 was given a road at line 2 and again here"]),
        (
            "road_too_long.csv",
            ["holds 200 coups", "at most 101", "416 cards", "at least 4 cards a coup", "cut card 14"],
        ),
        ("latin1.txt", ["not UTF-8 (byte 8, line 1)", "it was read as", "charset-normalizer"]),
    ],
)
def test_hardening_messages_say_what_was_found(name: str, words: list[str]) -> None:
    messages = " | ".join(p.message for p in read_records(MALFORMED / name).report.problems)
    for word in words:
        assert word in messages


def test_one_bad_json_line_loses_only_its_shoe(tmp_path: Path) -> None:
    """20,000 good shoes and one bad line: 19,999 load, the bad line is located."""
    good = '{"shoe": %d, "coup": 1, "player": ["9", "K"], "banker": ["6", "K"]}'
    lines = ['{"meta": {"burn": "none"}}'] + [good % i for i in range(1, 20_001)]
    lines[5_000] = lines[5_000][:-9]  # shoe 5000 lost its end
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines) + "\n")
    records = read_records(path)
    assert records.n_shoes == 19_999
    assert [(p.line, p.shoe, p.code) for p in records.report.problems] == [(5_001, "5000", "bad_line")]


def test_a_header_applies_to_the_shoes_after_it() -> None:
    middle = read_records(MALFORMED / "header_middle.csv")
    assert [h.dealing.decks for h in middle.headers] == [8, 6]
    joined = read_records(MALFORMED / "joined.csv")
    assert [(h.dealing.decks, h.dealing.cut_card) for h in joined.headers] == [(8, 14), (6, 16)]
    assert joined.shoe_ids == [1, 2]  # the second column-name row is no shoe "shoe"


def test_the_header_argument_is_honoured_or_refused(tmp_path: Path) -> None:
    path = tmp_path / "shoes.csv"
    path.write_text("shoe,position,card\n1,1,8\n1,2,3\n1,3,K\n1,4,4\n")
    as_text = read_records(path, header="decks=6 burn=none")
    assert as_text.report.ok
    assert as_text.header.dealing.decks == 6
    assert as_text.header == read_records(path, header={"decks": 6, "burn": "none"}).header
    frame = pl.read_csv(path)
    assert records_from_frame(frame, "decks=6 burn=none").header.dealing.decks == 6
    with pytest.raises(ValueError, match="key=value"):
        read_records(path, header="six decks")
    with pytest.raises(TypeError, match="header must be"):
        read_records(path, header=6)  # type: ignore[arg-type]
    unknown = read_records(path, header="decks=6 colour=red").report.problems
    assert [p.code for p in unknown] == ["bad_header"]


def test_parquet_whole_number_floats_are_positions_and_list_ids_are_refused() -> None:
    floats = read_records(MALFORMED / "float_positions.parquet")
    assert floats.shoe_ids == [1]
    assert floats.coups["winner"].to_list() == ["player"]
    lists = read_records(MALFORMED / "list_shoe.parquet")
    assert lists.report.fatal
    assert lists.n_shoes == 0
    frame = pl.DataFrame({"shoe": [1.0] * 4, "position": [1.0, 2.0, 3.0, 4.0], "card": ["8", "3", "K", "4"]})
    assert records_from_frame(frame, "burn=none").shoe_ids == [1]
    assert records_from_frame(frame.with_columns(pl.concat_list("shoe").alias("shoe"))).report.fatal


def _long_form(ending: str = "\n") -> str:
    rows = ["# burn=none", "shoe,position,card", "1,1,8", "1,2,3", "1,3,K", "1,4,4", "2,1,9", "2,2,6", "2,3,K", "2,4,K"]
    return ending.join(rows) + ending


@pytest.mark.parametrize(
    "data",
    [
        _long_form().encode("utf-16"),
        _long_form().encode("utf-16-le"),
        _long_form().encode("utf-16-be"),
        _long_form().encode("utf-32"),
        b"\xef\xbb\xbf" + _long_form().encode(),
        _long_form("\r\n").encode(),
        _long_form("\r").encode(),
        _long_form().replace("1,3,K\n", "1,3,K\r\n").replace("2,2,6\n", "2,2,6\r").encode(),
    ],
    ids=["utf16-bom", "utf16le", "utf16be", "utf32", "utf8-bom", "crlf", "cr", "mixed"],
)
def test_encodings_and_line_endings_read_as_utf8_lf(data: bytes, tmp_path: Path) -> None:
    plain = tmp_path / "plain.csv"
    plain.write_text(_long_form())
    other = tmp_path / "other.csv"
    other.write_bytes(data)
    a, b = read_records(plain), read_records(other)
    assert b.report.ok, b.report.problems
    assert a.coups.equals(b.coups)
    assert [p.line for p in read_records(tmp_path / "plain.csv").report.problems] == []


def test_one_latin1_byte_is_one_note_and_every_shoe_loads() -> None:
    records = read_records(MALFORMED / "latin1.txt")
    assert [str(s) for s in records.shoe_ids] == ["café", "2"]
    assert [(p.code, p.line, p.shoe) for p in records.report.problems] == [("encoding", 1, None)]


def test_line_numbers_stay_right_after_a_quoted_line_break() -> None:
    problem = read_records(MALFORMED / "quoted_break.csv").report.problems[0]
    assert (problem.line, problem.shoe, problem.code) == (9, "2", "unknown_card")


def test_control_characters_in_file_content_are_escaped_in_problems(tmp_path: Path) -> None:
    records = read_records(MALFORMED / "control_chars.csv")
    problem = records.report.problems[0]
    assert "\x1b" not in problem.message
    assert "\\x1b[31m3" in problem.message
    path = tmp_path / "ids.csv"
    path.write_text("# burn=none\nshoe,position,card\n\x1b]0;x\x07,1,8\n\x1b]0;x\x07,2,Z\n")
    text = str(read_records(path).report.problems[0])
    assert text.isprintable()
    assert "\\x1b]0;x\\x07" in text
    assert Problem("f", 1, "s", None, "c", "bidi \u202e here").message == "bidi \\u202e here"
