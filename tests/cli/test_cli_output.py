"""The shared output of the commands (:mod:`toolkit.cli._output`): tables fitted to a width, CSV, JSON."""

from __future__ import annotations

import io
import json
import re

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.cli._output import csv_text, json_text, render_table, wrap

WORDS = st.text(alphabet="abcdefghij_", min_size=1, max_size=14)


@st.composite
def frames(draw):
    n_cols = draw(st.integers(1, 14))
    n_rows = draw(st.integers(1, 5))
    data = {}
    for i in range(n_cols):
        name = f"{draw(WORDS)}_{i}"
        if draw(st.booleans()):
            data[name] = draw(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=n_rows, max_size=n_rows))
        else:
            cells = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)
            data[name] = draw(st.lists(cells, min_size=n_rows, max_size=n_rows))
    return pl.DataFrame(data)


@settings(max_examples=60)
@given(frame=frames(), width=st.integers(40, 140))
def test_a_table_fits_its_width_and_never_splits_a_word(frame: pl.DataFrame, width: int) -> None:
    text = render_table(frame, width=width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert "…" not in text
    words = set(text.split())
    for name in frame.columns:  # every header whole (the names hold no spaces: one word each)
        assert name in words
    key = frame.columns[0]
    for name, value in frame.row(0, named=True).items():
        if isinstance(value, str) and name != key:
            assert set(value.split()) <= words  # every cell's words whole
        elif isinstance(value, str):  # the key column's identifiers may wrap after an underscore
            assert {p for w in value.split() for p in re.findall(r"[^_]*_+|[^_]+", w)} <= {
                p for w in words for p in re.findall(r"[^_]*_+|[^_]+", w)
            }


def test_a_wide_table_is_cut_into_tables_that_repeat_the_key_column() -> None:
    frame = pl.DataFrame(
        {"bet": ["banker", "player"], **{f"effect_of_card_{v}": [0.1 * v, -0.1 * v] for v in range(10)}}
    )
    text = render_table(frame, width=60)
    blocks = [b for b in text.split("\n\n") if b.strip()]
    assert len(blocks) > 1
    assert all(b.split()[0] == "bet" for b in blocks)
    assert all(f"effect_of_card_{v}" in text for v in range(10))


def test_labels_carry_units_and_wrap_at_spaces() -> None:
    frame = pl.DataFrame({"bet": ["banker"], "house_edge": [0.0105791]})
    text = render_table(frame, labels={"house_edge": "house edge (per unit)"}, width=24)
    assert "(per unit)" in text or ("(per" in text and "unit)" in text)
    assert "0.0105791" in text


def test_text_wraps_at_words() -> None:
    text = wrap("value to Banker per unit staked: 0.0129367121 = 974653793197999/75340147272374985", 40)
    assert all(len(line) <= 40 for line in text.splitlines())
    assert "974653793197999/75340147272374985" in text  # a word longer than a line stays whole


def test_csv_writes_hands_as_text_and_json_writes_nan_as_null() -> None:
    frame = pl.DataFrame({"coup": [1], "player": [["K", "9"]], "ev": [float("nan")]})
    back = pl.read_csv(io.StringIO(csv_text(frame)))
    assert back["player"].to_list() == ["K 9"]
    assert json.loads(json_text(frame)) == [{"coup": 1, "player": ["K", "9"], "ev": None}]


def test_text_to_a_pipe_is_never_wrapped(monkeypatch, capsys) -> None:
    # a long temporary path in a narrow terminal split "1 of 1 shoe(s) valid" over two lines on a fresh clone
    from toolkit.cli._common import say

    monkeypatch.setenv("COLUMNS", "40")
    line = "/tmp/" + "x" * 120 + "/session.parquet: 1 of 1 shoe(s) valid"
    say(line)
    assert capsys.readouterr().out == line + "\n"


def _published_like(rows: int = 12) -> pl.DataFrame:
    """Figures beside the toolkit's value: long identifiers and long numbers, as ``reproduce`` prints them."""
    return pl.DataFrame(
        {
            "figure": [f"house_edge_ties_excluded_{d}d_banker_number_{i}" for i, d in enumerate(range(rows))],
            "published": [f"{2_230_518_282_592_256 + i:,}" for i in range(rows)],
            "toolkit": [f"{2_230_518_282_592_256 + i:,}" for i in range(rows)],
            "status": ["match"] * (rows - 1) + ["erratum: differs, as expected"],
        }
    )


def test_identifiers_are_never_broken_and_the_compared_columns_stay_in_one_table() -> None:
    frame = _published_like()
    text = render_table(frame, width=120, together=("published", "toolkit", "status"))
    assert "\n\n" not in text.strip()  # one table: the figures read beside the toolkit's values
    assert max(len(line) for line in text.splitlines()) <= 120
    assert set(frame["figure"]) <= set(text.split())  # every name whole, to paste back
    for value in frame["published"]:  # the number published and the toolkit's on one line
        assert any(line.count(value) == 2 for line in text.splitlines())


def test_keys_too_wide_for_the_compared_columns_go_on_a_line_above_their_row() -> None:
    # reproduce at 80 columns: 38-character figure names beside two 21-digit numbers and a verdict
    frame = _published_like(4)
    text = render_table(frame, width=80, together=("published", "toolkit", "status"))
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    for name, value in zip(frame["figure"], frame["published"], strict=True):
        at = lines.index(name)  # the name whole, alone on its line
        assert lines[at + 1].count(value) == 2  # and below it the figure published beside the toolkit's


def test_a_long_description_goes_to_a_table_of_its_own_beside_the_keys() -> None:
    # ``edge`` through a pipe printed 75 lines for 17 rows: descriptions squeezed beside four numbers
    text_cells = ["Banker's first two cards a pair (same rank): 11:1 " * 2] * 17
    numbers = {f"n{i}": [-0.103614] * 17 for i in range(4)}
    frame = pl.DataFrame({"bet": [f"bet_number_{i}" for i in range(17)], **numbers, "description": text_cells})
    text = render_table(frame, labels={f"n{i}": "expected value (per unit)" for i in range(4)}, width=80)
    assert len(text.splitlines()) <= 17 * 3 + 12
    assert max(len(line) for line in text.splitlines()) <= 80
    blocks = text.split("\n\n")
    assert len(blocks) == 2
    assert "description" not in blocks[0]
    assert blocks[1].split()[:2] == ["bet", "description"]


def test_columns_that_belong_together_are_never_cut_apart() -> None:
    frame = pl.DataFrame({"bet": ["banker"] * 2, **{f"column_{i}": [0.123456, 0.5] for i in range(8)}})
    text = render_table(frame, width=50, together=("column_0", "column_7"))
    first = text.split("\n\n")[0]
    assert len(text.split("\n\n")) > 1
    assert "column_0" in first
    assert "column_7" in first


def test_optional_columns_are_left_out_before_the_table_is_cut() -> None:
    frame = (
        pl.DataFrame({name: [0.00150656, 0.00727399] for name in ("value", "std error", "CI low", "CI high", "a", "b")})
        .with_columns(pl.Series("metric", ["units_won", "units_expected"]))
        .select("metric", pl.exclude("metric"))
    )
    text = render_table(frame, width=80, optional=("std error",))
    assert "\n\n" not in text.strip()
    assert "std error" not in text.splitlines()[0]
    assert text.splitlines()[-1].startswith("Not shown at this width: std error")


def test_headers_wrap_before_cells_of_text() -> None:
    """A numbers' header wraps at its spaces before a description wraps to a second line."""
    labels = {f"n{i}": "expected value (per unit)" for i in range(4)}
    frame = pl.DataFrame({"bet": ["banker"] * 2, **{f"n{i}": [-0.010579, 0.5] for i in range(4)}}).with_columns(
        description=pl.lit("Banker wins pays 19/20 (commission 1/20); tie pushes")
    )
    text = render_table(frame, labels=labels, width=110)
    rows = [line for line in text.splitlines() if line.startswith("banker")]
    assert all(line.endswith("tie pushes") for line in rows)


def test_count_results_fit_one_table_at_80_columns(capsys, monkeypatch) -> None:
    from cli_helpers import run

    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "count", "--system", "dragon7", "--shoes", "200", "--seed", "1")
    assert code == 0
    assert "\n\n" not in out.strip()  # no column pushed alone into a second table
    assert "CI high" in out
