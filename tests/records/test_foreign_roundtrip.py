"""Each foreign layout the readers recognise, fuzzed: random valid shoes written in it read back identical.

The shoes are dealt by ``simulate_records`` (a seed Hypothesis draws, one deck so that the shoes are short)
and written by the small writers below, one a layout: per-position card columns, a hand a cell (any of the
separators, winners as words), rank numbers 1-13, a text report of shoe blocks giving Banker's hand first
(values 0-9), coup lines without column names, results-only rows, and a SQLite table.  What is read back
(``read_records`` with no options) must be the written coups: the hands card by card in the layout's spelling,
and the winners.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import scaled

from toolkit.records import ShoeHeader, read_records, simulate_records

HEADER = ShoeHeader().updated(decks=1, burn="none")
_VALUE = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0, **{str(n): n for n in range(2, 10)}}
_NUMBER = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 10)}}
_LETTER = {"player": "P", "banker": "B", "tie": "T"}


def _coups(seed: int, shoes: int) -> list[dict]:
    return (
        simulate_records(shoes, HEADER, seed=seed).coups.select("shoe", "coup", "player", "banker", "winner").to_dicts()
    )


def _pad(cards: list[str]) -> list[str]:
    return [*cards, ""][:3]


def _per_position(coups: list[dict], folder: Path, draw) -> tuple[Path, str]:
    lines = ["Shoe,Hand,P1,P2,P3,B1,B2,B3,Winner"]
    lines += [
        ",".join([str(c["shoe"]), str(c["coup"]), *_pad(c["player"]), *_pad(c["banker"]), c["winner"].capitalize()])
        for c in coups
    ]
    path = folder / "positions.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, "ranks"


def _hand_cells(coups: list[dict], folder: Path, draw) -> tuple[Path, str]:
    separator = draw(st.sampled_from([" ", "-", "|", ";", "json"]))
    words = draw(st.sampled_from([{"player": "Player win", "banker": "Banker win", "tie": "Tie"}, _LETTER]))

    def cell(cards: list[str]) -> str:
        text = json.dumps(cards) if separator == "json" else separator.join(cards)
        return '"' + text.replace('"', '""') + '"'

    lines = ["shoe_id,hand_no,player_cards,banker_cards,result"]
    lines += [f"{c['shoe']},{c['coup']},{cell(c['player'])},{cell(c['banker'])},{words[c['winner']]}" for c in coups]
    path = folder / "cells.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, "ranks"


def _numbers(coups: list[dict], folder: Path, draw) -> tuple[Path, str]:
    def cells(cards: list[str]) -> list[str]:
        return _pad([str(_NUMBER[c]) for c in cards])

    lines = ["shoe,coup,p1,p2,p3,b1,b2,b3"]
    lines += [",".join([str(c["shoe"]), str(c["coup"]), *cells(c["player"]), *cells(c["banker"])]) for c in coups]
    path = folder / "numbers.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, "numbers"


def _coup_line(c: dict) -> str:
    """``W,banco total,punto total,banco's three cards,punto's three cards`` in values (x: no third card)."""

    def values(cards: list[str]) -> list[str]:
        return [str(_VALUE[r]) for r in cards] + ["x"] * (3 - len(cards))

    def total(cards: list[str]) -> int:
        return sum(_VALUE[r] for r in cards) % 10

    fields = [_LETTER[c["winner"]], str(total(c["banker"])), str(total(c["player"]))]
    return ",".join(fields + values(c["banker"]) + values(c["player"]))


def _report(coups: list[dict], folder: Path, draw) -> tuple[Path, str]:
    lines = []
    for shoe in dict.fromkeys(c["shoe"] for c in coups):
        lines += ["", f"Shoe number {shoe}"] + [_coup_line(c) for c in coups if c["shoe"] == shoe]
        lines += ["Shoe results:", "Banco: 3"]
    path = folder / "report.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, "values"


def _coup_lines(coups: list[dict], folder: Path, draw) -> tuple[Path, str]:
    lines: list[str] = []
    for shoe in dict.fromkeys(c["shoe"] for c in coups):
        lines += [*([""] if lines else []), *(_coup_line(c) for c in coups if c["shoe"] == shoe)]
    path = folder / "lines.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, "values"


def _results(coups: list[dict], folder: Path, draw) -> tuple[Path, str]:
    order = draw(st.permutations(range(len(coups))))  # the rows in any order: the coup numbers order them
    lines = ["Shoe,Round,Outcome"] + [
        f"{coups[i]['shoe']},{coups[i]['coup']},{coups[i]['winner'].upper()}" for i in order
    ]
    path = folder / "results.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, "winners"


def _database(coups: list[dict], folder: Path, draw) -> tuple[Path, str]:
    path = folder / "shoes.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE hands (shoe INTEGER, hand INTEGER, p1, p2, p3, b1, b2, b3, winner TEXT)")
    rows = [
        (
            c["shoe"],
            c["coup"],
            *(x or None for x in _pad(c["player"])),
            *(x or None for x in _pad(c["banker"])),
            c["winner"],
        )
        for c in coups
    ]
    connection.executemany("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    connection.commit()
    connection.close()
    return path, "ranks"


WRITERS = {
    "per_position": _per_position,
    "hand_cells": _hand_cells,
    "rank_numbers": _numbers,
    "report_banco_first": _report,
    "coup_lines": _coup_lines,
    "results_only": _results,
    "sqlite": _database,
}


def _expected(coups: list[dict], spelling: str) -> list[tuple]:
    def hand(cards: list[str]) -> list[str]:
        if spelling == "values":
            return [str(_VALUE[r]) for r in cards]
        return list(cards)

    if spelling == "winners":
        return [(str(c["shoe"]), c["coup"], c["winner"]) for c in coups]
    return [(str(c["shoe"]), c["coup"], hand(c["player"]), hand(c["banker"]), c["winner"]) for c in coups]


def _read_back(path: Path, spelling: str) -> list[tuple]:
    records = read_records(path, HEADER)
    assert records.report.ok, records.report.problems[:3]
    coups = records.coups.with_columns(pl.col("shoe").cast(pl.String)).sort(["shoe", "coup"])
    if spelling == "winners":
        return list(coups.select("shoe", "coup", "winner").iter_rows())
    return [
        (s, c, list(p), list(b), w)
        for s, c, p, b, w in coups.select("shoe", "coup", "player", "banker", "winner").iter_rows()
    ]


@pytest.mark.parametrize("layout", list(WRITERS))
@settings(max_examples=scaled(6), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shoes=st.integers(1, 3), data=st.data())
def test_random_shoes_written_in_a_foreign_layout_read_back_identical(layout: str, seed: int, shoes: int, data):
    coups = _coups(seed, shoes)
    with tempfile.TemporaryDirectory() as folder:
        path, spelling = WRITERS[layout](coups, Path(folder), data.draw)
        got = _read_back(path, spelling)
    want = sorted(_expected(coups, spelling), key=lambda row: (row[0], row[1]))
    assert got == want
