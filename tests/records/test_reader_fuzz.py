"""Fuzzing the readers: damaged files of every format never raise, and every shoe the damage did not touch loads.

A good file of each format (long-form CSV, per-coup CSV, JSON lines, bead road,
Parquet) is damaged by random line and byte mutations.  A shoe is *touched* when
one of its lines changed, was removed or duplicated, when a changed or inserted
line names it (its id is a word of that line) or falls between two of its lines,
when it comes after a changed line that may be a header (``#`` or ``meta``), or
when its lines lie inside a quoted field that a damaged line opened.  Reading must
return (never raise) and load every shoe that is not touched, exactly as in the
good file.  The examples are few by default (``strategies.scaled``); the ``slow``
variant runs many more.
"""

from __future__ import annotations

import functools
import io
import random
import re
import tempfile
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import scaled

from toolkit.records import ShoeHeader, read_records, simulate_records, write_records

TEXT_FORMATS = ("cards_csv", "coups_csv", "coups_jsonl", "road_csv")
JUNK = [b"1,x,K", b",,", b"2,1,Q", b'"', b"#", b"# decks=6", b"9,9,9,9", b"[1, 2]", b"{", b"shoe", b"\x00", b"\xe9"]


def _good_files(folder: Path) -> dict[str, bytes]:
    records = simulate_records(4, ShoeHeader().updated(decks=1), seed=11, suits=True)
    paths = {
        "cards_csv": write_records(records.observed(), folder / "cards.csv", roles=False),
        "coups_csv": write_records(records, folder / "coups.csv", layout="coups"),
        "coups_jsonl": write_records(records, folder / "coups.jsonl", layout="coups"),
        "road_csv": write_records(records.outcomes(), folder / "road.csv"),
        "cards_parquet": write_records(records, folder / "cards.parquet"),
    }
    return {name: path.read_bytes() for name, path in paths.items()}


@functools.cache
def _good() -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as folder:
        return _good_files(Path(folder))


@pytest.fixture(scope="module")
def good() -> dict[str, bytes]:
    return _good()


def _shoes_by_content(path: Path) -> dict[str, pl.DataFrame]:
    records = read_records(path)
    assert records.report.ok, records.report.problems[:3]
    return {str(s): _coups_of(records, str(s)) for s in records.shoe_ids}


def _coups_of(records, shoe: str) -> pl.DataFrame:
    """The coups of one shoe, its id as text (a damaged file may turn integer ids into text ids)."""
    coups = records.coups.with_columns(pl.col("shoe").cast(pl.String))
    return coups.filter(pl.col("shoe") == shoe)


def _line_shoe(line: bytes, fmt: str) -> str | None:
    if fmt == "coups_jsonl":
        found = re.search(rb'"shoe":\s*"?([^",}]+)', line)
        return found.group(1).decode() if found else None
    return line.split(b",", 1)[0].decode() if b"," in line else None


def _words(line: bytes) -> set[str]:
    return {w.decode() for w in re.findall(rb"[A-Za-z0-9]+", line)}


def _mutate(data: bytes, fmt: str, draw) -> tuple[bytes, set[str] | None]:
    """The damaged file and the shoes it touches (``None``: all of them, a header line was hit)."""
    lines = data.split(b"\n")
    tail = lines.pop() if lines and lines[-1] == b"" else None
    first = next(i for i, ln in enumerate(lines) if not ln.startswith(b"#") and b'"meta"' not in ln) + 1
    shoes = [_line_shoe(ln, fmt) if i >= first else None for i, ln in enumerate(lines)]
    ids = {s for s in shoes if s}
    items: list[tuple[bytes, str | None, bool]] = [(ln, s, False) for ln, s in zip(lines, shoes, strict=True)]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(first, len(items) - 1))
        line, shoe, _changed = items[at]
        action = draw(st.sampled_from(["byte", "delete", "duplicate", "insert", "cut", "swap"]))
        if action == "byte" and line:
            k = draw(st.integers(0, len(line) - 1))
            new = line[:k] + bytes([draw(st.integers(0, 255))]) + line[k + 1 :]
            items[at] = (new, shoe, True)
        elif action == "delete":
            items[at] = (b"", shoe, True)
        elif action == "duplicate":
            items.insert(at, (line, shoe, True))
        elif action == "insert":
            items.insert(at, (draw(st.sampled_from(JUNK)), None, True))
        elif action == "cut":
            items[at] = (line[: draw(st.integers(0, len(line)))], shoe, True)
        elif action == "swap" and at + 1 < len(items):  # two neighbouring lines in the other order
            nxt = items[at + 1]
            items[at], items[at + 1] = (nxt[0], nxt[1], True), (line, shoe, True)
    touched: set[str] = set()
    last_shoe = [s for _, s, _ in items]
    quote_open = False
    for i, (line, shoe, changed) in enumerate(items):
        if quote_open and shoe:
            touched.add(shoe)
        if line.count(b'"') % 2 and fmt != "coups_jsonl":
            quote_open = not quote_open
            if shoe:
                touched.add(shoe)
        if not changed:
            continue
        if line.lstrip().startswith(b"#") or b"meta" in line or line.strip().lower().startswith(b"shoe"):
            return _join(items, tail), None
        if shoe:
            touched.add(shoe)
        touched |= _words(line) & ids
        before = next((s for s in reversed(last_shoe[:i]) if s), None)
        after = next((s for s in last_shoe[i + 1 :] if s), None)
        touched |= {s for s in (before, after) if s}
    return _join(items, tail), touched


def _join(items: list[tuple[bytes, str | None, bool]], tail: bytes | None) -> bytes:
    return b"\n".join(line for line, _, _ in items) + (b"\n" if tail is not None else b"")


def _check_untouched(path: Path, original: dict[str, pl.DataFrame], touched: set[str] | None) -> None:
    records = read_records(path)  # must not raise
    for problem in records.report.problems:
        assert problem.message
        assert problem.message.isprintable()
    if touched is None:
        return
    loaded = {str(s) for s in records.shoe_ids}
    for shoe, coups in original.items():
        if shoe in touched:
            continue
        assert shoe in loaded, (shoe, touched, records.report.problems)
        assert _coups_of(records, shoe).equals(coups), shoe


def _run_text(good: dict[str, bytes], fmt: str, data: st.DataObject, folder: Path) -> None:
    suffix = ".jsonl" if fmt.endswith("jsonl") else ".csv"
    original_path = folder / f"good{suffix}"
    original_path.write_bytes(good[fmt])
    original = _shoes_by_content(original_path)
    damaged, touched = _mutate(good[fmt], fmt, data.draw)
    path = folder / f"damaged{suffix}"
    path.write_bytes(damaged)
    _check_untouched(path, original, touched)


def _run_parquet(good: dict[str, bytes], data: st.DataObject, folder: Path) -> None:
    import pyarrow.parquet as pq

    original_path = folder / "good.parquet"
    original_path.write_bytes(good["cards_parquet"])
    original = _shoes_by_content(original_path)
    table = pq.read_table(io.BytesIO(good["cards_parquet"]))
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    touched: set[str] = set()
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, frame.height - 1))
        touched.add(str(frame["shoe"][at]))
        action = data.draw(st.sampled_from(["card", "position", "drop", "duplicate", "null", "float"]))
        if action == "card":
            value = data.draw(st.sampled_from(["Z", "", "Kx", "\x1b[2J", "10", "q♥"]))
            frame = frame.with_columns(
                pl.when(pl.int_range(pl.len()) == at).then(pl.lit(value)).otherwise("card").alias("card")
            )
        elif action == "position":
            frame = frame.with_columns(
                pl.when(pl.int_range(pl.len()) == at)
                .then(pl.lit(data.draw(st.integers(-2, 500))))
                .otherwise("position")
                .alias("position")
            )
        elif action == "drop":
            frame = frame.filter(pl.int_range(pl.len()) != at)
        elif action == "duplicate":
            frame = pl.concat([frame, frame.slice(at, 1)])
        elif action == "null":
            column = data.draw(st.sampled_from(["card", "position", "role"]))
            frame = frame.with_columns(pl.when(pl.int_range(pl.len()) == at).then(None).otherwise(column).alias(column))
        else:  # whole-number floats, as pandas writes them: no shoe is touched
            frame = frame.with_columns(pl.col("position").cast(pl.Float64))
    path = folder / "damaged.parquet"
    pq.write_table(frame.to_arrow().replace_schema_metadata(table.schema.metadata), path)
    _check_untouched(path, original, touched)
    # and raw byte damage: never a traceback
    raw = bytearray(good["cards_parquet"])
    for _ in range(data.draw(st.integers(1, 3))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path.write_bytes(bytes(raw))
    read_records(path)


FUZZ = settings(max_examples=scaled(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
MANY = settings(max_examples=scaled(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
@FUZZ
@given(data=st.data())
def test_damaged_text_files_keep_every_untouched_shoe(fmt: str, data: st.DataObject, tmp_path: Path) -> None:
    _run_text(_good(), fmt, data, tmp_path)


@FUZZ
@given(data=st.data())
def test_damaged_parquet_files_keep_every_untouched_shoe(data: st.DataObject, tmp_path: Path) -> None:
    _run_parquet(_good(), data, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", TEXT_FORMATS)
@MANY
@given(data=st.data())
def test_many_damaged_text_files(fmt: str, data: st.DataObject, tmp_path: Path) -> None:
    _run_text(_good(), fmt, data, tmp_path)


@pytest.mark.slow
@MANY
@given(data=st.data())
def test_many_damaged_parquet_files(data: st.DataObject, tmp_path: Path) -> None:
    _run_parquet(_good(), data, tmp_path)


def test_shuffled_long_form_rows_read_as_the_ordered_file(good, tmp_path: Path) -> None:
    """Positions order the cards, not the rows: a shuffled long-form file reads to the same shoes and coups."""
    lines = good["cards_csv"].decode().splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("shoe,"))
    rows = lines[first + 1 :]
    random.Random(3).shuffle(rows)
    assert rows != lines[first + 1 :]
    ordered, shuffled = tmp_path / "ordered.csv", tmp_path / "shuffled.csv"
    ordered.write_text("\n".join(lines) + "\n")
    shuffled.write_text("\n".join(lines[: first + 1] + rows) + "\n")
    a, b = read_records(ordered), read_records(shuffled)
    assert b.report.ok, b.report.problems[:3]
    assert sorted(a.shoe_ids) == sorted(b.shoe_ids)
    for shoe in a.shoe_ids:
        assert a.select([shoe]).coups.equals(b.select([shoe]).coups)
        assert a.select([shoe]).cards.equals(b.select([shoe]).cards)
    # and a reader that ignored the positions would not: the same rows with the cards in file order differ
    by_file_order = "\n".join(lines[: first + 1] + [_renumber(rows, i, r) for i, r in enumerate(rows)]) + "\n"
    swapped = tmp_path / "renumbered.csv"
    swapped.write_text(by_file_order)
    c = read_records(swapped)
    assert not c.report.ok or any(not a.select([s]).coups.equals(c.select([s]).coups) for s in c.shoe_ids)


def _renumber(rows: list[str], i: int, row: str) -> str:
    """``row`` with the position it has in file order among the rows of its shoe."""
    shoe = row.split(",", 1)[0]
    n = sum(1 for r in rows[: i + 1] if r.split(",", 1)[0] == shoe)
    fields = row.split(",")
    fields[1] = str(n)
    return ",".join(fields)


@FUZZ
@given(
    data=st.data(),
    encoding=st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "utf-8-sig"]),
)
def test_damaged_files_in_other_encodings_never_raise(data: st.DataObject, encoding: str, tmp_path: Path) -> None:
    """Any encoding the reader knows, with random bytes overwritten: a report, never a traceback."""
    text = _good()["cards_csv"].decode().encode(encoding)
    raw = bytearray(text)
    for _ in range(data.draw(st.integers(0, 3))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path / "damaged.csv"
    path.write_bytes(bytes(raw))
    records = read_records(path)
    for problem in records.report.problems:
        assert problem.message.isprintable()
