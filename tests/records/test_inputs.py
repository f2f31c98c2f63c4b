"""What a record reader takes: regular files only, bounded in size; CSV by commas, tabs or semicolons; safe writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from non_regular import non_regular
from sample_shoes import SHOES

import toolkit.records.read as read_module
from toolkit._files import RefusedFileError
from toolkit.bets.files import MAX_BET_FILE_BYTES, read_bet_file
from toolkit.counting import read_count_system
from toolkit.records import read_bets, read_records, simulate_records, write_records

KINDS = ["device", "fifo", "folder"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reader", [read_records, read_bets, read_bet_file, read_count_system])
def test_every_reader_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str, reader) -> None:
    path = non_regular(tmp_path, kind)
    with pytest.raises(ValueError, match="must be a regular file") as caught:
        reader(path)
    message = str(caught.value)
    assert str(path) in message
    assert "\n" not in message


def test_a_record_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "shoes.csv"
    path.write_bytes((SHOES / "cards_observed.csv").read_bytes())
    monkeypatch.setattr(read_module, "MAX_RECORD_BYTES", 1024)
    with pytest.raises(RefusedFileError, match="holds at most 1 KiB"):
        read_records(path)
    assert path.stat().st_size > read_module.MAX_RECORD_BYTES


def test_a_bet_file_over_the_limit_is_refused_with_the_limit_named(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text('name = "big"\n' + "# padding\n" * (MAX_BET_FILE_BYTES // 10 + 1))
    with pytest.raises(ValueError, match="a bet file holds at most 1 MiB"):
        read_bet_file(path)


def test_a_bet_file_holds_at_most_256_pay_rows(tmp_path: Path) -> None:
    row = '[[pays]]\nwhen = "banker_total = 6"\npays = 2\n'
    path = tmp_path / "rows.toml"
    path.write_text('name = "rows"\n' + row * 257)
    with pytest.raises(ValueError, match="257 \\[\\[pays\\]\\] rows; a bet file holds at most 256"):
        read_bet_file(path)
    path.write_text('name = "rows"\n' + row * 256)
    assert len(read_bet_file(path).rows) == 256


@pytest.mark.parametrize("separator", ["\t", ";"])
@pytest.mark.parametrize("name", ["cards_observed.csv", "coups_6decks.csv"])
def test_a_csv_separated_by_tabs_or_semicolons_reads_whole(tmp_path: Path, name: str, separator: str) -> None:
    text = (SHOES / name).read_text()
    body = [ln if ln.startswith("#") else ln.replace(",", separator) for ln in text.splitlines()]
    path = tmp_path / name  # still named .csv
    path.write_text("\n".join(body) + "\n")
    want, got = read_records(SHOES / name), read_records(path)
    assert got.report.ok, got.report.problems
    assert got.n_shoes == want.n_shoes == (4 if name == "cards_observed.csv" else 3)
    assert got.coups.equals(want.coups)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_writing_records_refuses_a_link_planted_at_the_output(tmp_path: Path, suffix: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / f"shoes{suffix}"
    os.symlink(victim, link)
    with pytest.raises(ValueError, match="symbolic link"):
        write_records(simulate_records(1, seed=1), link)
    assert victim.read_text() == "precious"
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([link.name, "victim.txt"])


def test_records_are_written_whole_with_the_mode_open_gives(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = write_records(simulate_records(1, seed=1), tmp_path / "shoes.parquet")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["shoes.parquet"]
