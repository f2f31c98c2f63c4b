"""Layout files: a foreign record read by the columns, card spelling, winner words and shoe boundaries it names.

A layout file is a stranger's data like any other input: it is fuzzed (random bytes, random TOML
tables) and must only ever raise one :class:`ValueError` (or :class:`TypeError` for a value of the
wrong type) that names the file, never another exception.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from non_regular import KINDS, non_regular

from toolkit.records import read_records
from toolkit.records._layout import MAX_LAYOUT_BYTES, as_layout, read_layout

LAYOUT = """
[columns]
shoe = "Table"
coup = "Hand"
winner = "Result"
player = ["P-1", "P-2", "P-3"]
banker = "Banker hand"

[cards]
none = ["--"]

[winners]
player = ["Punto"]
banker = ["Banco"]
tie = ["Egalite"]
"""
ROWS = (
    "Table,Hand,P-1,P-2,P-3,Banker hand,Result,Dealer\n"
    "A,1,9,K,--,6 K,Punto,Ann\n"
    "A,2,K,2,3,K-6,Banco,Ann\n"
    'B,1,9,K,--,"[""6"", ""K""]",punto,Bob\n'
)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    layout = tmp_path / "layout.toml"
    layout.write_text(LAYOUT)
    record = tmp_path / "export.csv"
    record.write_text(ROWS)
    return layout, record


def test_a_layout_file_maps_columns_cards_and_winner_words(files):
    layout, record = files
    records = read_records(record, header="burn=none", layout=layout)
    assert records.report.ok, records.report
    assert records.shoe_ids == ["A", "B"]
    assert records.coups["player"].to_list() == [["9", "K"], ["K", "2", "3"], ["9", "K"]]
    assert records.coups["banker"].to_list() == [["6", "K"], ["K", "6"], ["6", "K"]]
    assert records.read_as.startswith(f"layout {layout}: ")
    assert "not read: 'Dealer'" in records.read_as
    same = read_records(record, header="burn=none", layout=read_layout(layout))
    assert same.coups.equals(records.coups)


def test_a_layout_sets_the_spelling_and_the_shoe_boundary(tmp_path):
    record = tmp_path / "values.csv"
    # values 1-9 only: the cards would read as ranks; the layout says they are values
    record.write_text("n,p1,p2,b1,b2\n1,9,8,6,1\n2,9,8,6,1\n1,9,8,6,1\n")
    layout = {
        "columns": {"coup": "n", "player": ["p1", "p2"], "banker": ["b1", "b2"]},
        "cards": {"spelling": "values"},
        "shoes": {"boundary": "restart"},
    }
    records = read_records(record, header="burn=none", layout=layout)
    assert records.report.ok, records.report
    assert records.kind == "values"
    assert records.n_shoes == 2
    one = read_records(record, header="burn=none", layout={**layout, "shoes": {"boundary": "one"}})
    assert one.report.problems[0].code == "duplicate_coup"  # coup 1 twice in the one shoe
    burns = tmp_path / "burns.csv"
    burns.write_text("Burned,p1,p2,b1,b2\n5,9,8,6,1\n,9,8,6,1\n2,9,8,6,1\n")
    told = {
        "columns": {"burn": "Burned", "player": ["p1", "p2"], "banker": ["b1", "b2"]},
        "shoes": {"boundary": "burn"},
    }
    by_burn = read_records(burns, header="burn=none", layout=told)
    assert by_burn.report.ok, by_burn.report
    assert by_burn.n_shoes == 2


def test_a_column_the_file_lacks_is_the_records_problem(files):
    layout, record = files
    record.write_text(ROWS.replace("Result", "Outcome"))
    records = read_records(record, layout=layout)
    assert records.report.fatal
    assert "names a column 'Result' the file lacks" in str(records.report.problems[0])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[rows]\nx = 1\n", "unknown table [rows]"),
        ("[columns]\nplayers = 'P'\n", "[columns] has no key 'players'"),
        ("[columns]\nplayer = ['P1', 'P2']\n", "names the cards of one hand only"),
        ("[columns]\nplayer = ['P1']\nbanker = ['B1', 'B2']\n", "lists 1 column(s)"),
        ("[cards]\nspelling = 'suits'\n", "spelling must be one of ranks, values, numbers"),
        ("[shoes]\nboundary = 'column'\n", "needs [columns] shoe"),
        ("[shoes]\nboundary = 'burn'\n", "needs [columns] burn"),
        ("[shoes]\nboundary = 7\n", "boundary must be one of"),
        ("[winners]\nplayer = []\n", "[winners] player must be a text or a list"),
        ("columns = 3\n", "[columns] must be a table"),
        ("[columns\n", "not valid TOML"),
    ],
)
def test_a_bad_layout_file_is_one_line_naming_the_file(tmp_path, text, words):
    path = tmp_path / "layout.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=r"layout\.toml") as err:
        read_layout(path)
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_layout_files_are_read_bounded(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_LAYOUT_BYTES + 1))
    with pytest.raises(ValueError, match=r"big\.toml"):
        read_layout(big)
    (tmp_path / "latin1.toml").write_bytes(b"[cards]\nnone = ['\xe9']\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        read_layout(tmp_path / "latin1.toml")
    for kind in KINDS:
        path = non_regular(tmp_path, kind)
        with pytest.raises(ValueError, match=os.path.basename(path)):
            read_layout(path)
    with pytest.raises(ValueError, match="cannot read the layout file"):
        read_layout(tmp_path / "missing.toml")


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8), st.floats(allow_nan=True))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
_KEYS = st.sampled_from(["columns", "cards", "winners", "shoes", "other"])
_INNER = st.sampled_from(
    ["shoe", "coup", "winner", "player", "banker", "cards_left", "spelling", "none", "tie", "boundary", "x"]
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_KEYS, st.one_of(_VALUES, st.dictionaries(_INNER, _VALUES, max_size=5)), max_size=4))
def test_fuzzed_layout_tables_raise_only_value_or_type_errors(data):
    try:
        as_layout(data, "fuzz.toml")
    except ValueError as err:
        message = str(err)
    except TypeError:
        message = "fuzz.toml: a value of the wrong type"
    else:
        message = "fuzz.toml: read"
    assert message.startswith("fuzz.toml: ")


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_fuzzed_layout_files_raise_only_value_errors_naming_the_file(tmp_path, data):
    path = tmp_path / "fuzz.toml"
    path.write_bytes(data)
    try:
        read_layout(path)
    except ValueError as err:
        message = str(err)
    else:
        message = str(path)
    assert str(path) in message
