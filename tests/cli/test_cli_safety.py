"""Writing safely and starting afresh: links are never followed, earlier runs never mixed in."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_helpers import run

THORP = ("--shoes", "20", "--seed", "4", "--workers", "1", "--no-progress", "--count-shoes", "0", "--no-figures")


def _one_line(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("baccarat: error: ")
    return lines[0]


@pytest.mark.parametrize("name", ["summary.json", "checkpoint.npz", "report.md", "records"])
def test_a_link_planted_in_the_output_folder_is_refused_and_its_target_kept(capsys, tmp_path: Path, name):
    out, victim = tmp_path / "run", tmp_path / "victim"
    out.mkdir()
    victim.mkdir()
    (victim / "part-000000.parquet").write_text("precious")
    (victim / "keep.txt").write_text("precious")
    os.symlink(victim if name == "records" else victim / "keep.txt", out / name)
    code, _, err = run(capsys, "thorp", "--out", str(out), *THORP, "--records")
    assert "symbolic link" in _one_line(code, err)
    assert (victim / "keep.txt").read_text() == "precious"
    assert (victim / "part-000000.parquet").read_text() == "precious"


def test_a_link_at_the_old_temporary_name_is_never_written_through(capsys, tmp_path: Path):
    out, victim = tmp_path / "run", tmp_path / "victim.txt"
    out.mkdir()
    victim.write_text("precious")
    os.symlink(victim, out / "checkpoint.npz.tmp")
    code, _, err = run(capsys, "thorp", "--out", str(out), *THORP)
    assert code == 0, err
    assert victim.read_text() == "precious"
    assert (out / "checkpoint.npz").is_file()
    assert not (out / "checkpoint.npz").is_symlink()


def test_simulate_keeps_an_earlier_file_whole_when_it_fails(capsys, tmp_path: Path):
    out = tmp_path / "coups.parquet"
    out.write_bytes(b"earlier")
    code, _, err = run(
        capsys, "simulate", "--out", str(out), "--shoes", "2", "--counts", "nosuch", "--no-progress", "--seed", "1"
    )
    _one_line(code, err)
    assert out.read_bytes() == b"earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["coups.parquet"]  # no temporary file left


def test_no_resume_clears_the_earlier_run(capsys, tmp_path: Path):
    out = tmp_path / "run"
    code, _, err = run(capsys, "thorp", "--out", str(out), *THORP, "--records")
    assert code == 0, err
    # the figures an earlier run drew, planted rather than drawn: drawing them loads matplotlib's font cache,
    # whose lock waits a fixed 5 s for another process (a run under load then fails with a TimeoutError)
    (out / "figures").mkdir()
    (out / "figures" / "where_the_edges_are.png").write_bytes(b"an earlier run's figure")
    assert list((out / "figures").glob("*.png"))
    assert list((out / "records").glob("part-*.parquet"))
    (out / "notes.txt").write_text("mine")  # not the run's: kept
    code, _, err = run(capsys, "thorp", "--out", str(out), *THORP, "--no-resume", "--decks", "6")
    assert code == 0, err
    assert not list((out / "figures").glob("*.png"))
    assert not list((out / "records").glob("part-*.parquet"))
    assert json.loads((out / "summary.json").read_text())["study"]["dealing"]["decks"] == 6
    assert (out / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 truncated", b"not a zip at all"])
def test_a_truncated_checkpoint_is_one_line_saying_how_to_start_afresh(capsys, tmp_path: Path, content):
    out = tmp_path / "run"
    code, _, err = run(capsys, "thorp", "--out", str(out), *THORP)
    assert code == 0, err
    whole = (out / "checkpoint.npz").read_bytes()
    (out / "checkpoint.npz").write_bytes(content or whole[: len(whole) // 2])
    for args in (THORP, THORP[2:]):  # with and without --seed
        code, _, err = run(capsys, "thorp", "--out", str(out), *args)
        line = _one_line(code, err)
        assert "not a readable study checkpoint" in line
        assert "--no-resume" in line
    code, _, err = run(capsys, "thorp", "--out", str(out), *THORP, "--no-resume")
    assert code == 0, err


def test_thorp_refuses_an_empty_out_and_a_file(capsys, tmp_path: Path):
    code, _, err = run(capsys, "thorp", "--out", "", *THORP)
    assert "empty string" in _one_line(code, err)
    (tmp_path / "f").write_text("x")
    code, _, err = run(capsys, "thorp", "--out", str(tmp_path / "f"), *THORP)
    assert "is a file" in _one_line(code, err)


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_bet_and_count_files_must_be_regular_files(capsys, tmp_path: Path, kind: str):
    if kind == "device":
        path = Path("/dev/zero")
    elif kind == "fifo":
        path = tmp_path / "pipe.toml"
        os.mkfifo(path)
    else:
        path = tmp_path / "folder.toml"
        path.mkdir()
    code, _, err = run(capsys, "edge", "--bet-file", str(path))
    line = _one_line(code, err)
    assert f"{path}: a bet file must be a regular file" in line
    code, _, err = run(capsys, "count", "--system-file", str(path), "--no-progress")
    line = _one_line(code, err)
    assert f"{path}: a count-system file must be a regular file" in line


def test_an_oversize_bet_file_is_refused_with_the_limit_named(capsys, tmp_path: Path):
    path = tmp_path / "big.toml"
    path.write_bytes(b'name = "big"\n' + b"#" * 2**20)
    code, _, err = run(capsys, "edge", "--bet-file", str(path))
    assert "a bet file holds at most 1 MiB" in _one_line(code, err)


def test_simulate_removes_the_temporary_files_a_killed_run_left(capsys, tmp_path: Path):
    out = tmp_path / "coups.parquet"
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (tmp_path / ".coups.parquet.k1lled_0.tmp").write_bytes(b"half a file")  # what a killed run leaves
    os.symlink(victim, tmp_path / ".coups.parquet.l1nk0000.tmp")  # a link is never followed nor removed
    (tmp_path / ".coups.parquet.mine.tmp").write_text("not its name pattern")
    code, _, err = run(capsys, "simulate", "--out", str(out), "--shoes", "2", "--no-progress", "--seed", "1")
    assert code == 0, err
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [".coups.parquet.l1nk0000.tmp", ".coups.parquet.mine.tmp", "coups.parquet", "victim"]
    assert victim.read_text() == "precious"


def test_simulate_interrupted_leaves_no_temporary_file(capsys, tmp_path: Path, monkeypatch):
    import toolkit.parallel

    real = toolkit.parallel.map_blocks

    def interrupted(*args, **kwargs):
        yield next(iter(real(*args, **kwargs)))
        raise KeyboardInterrupt

    monkeypatch.setattr(toolkit.parallel, "map_blocks", interrupted)
    out = tmp_path / "coups.parquet"
    out.write_bytes(b"earlier")
    code, _, err = run(capsys, "simulate", "--out", str(out), "--shoes", "2", "--no-progress", "--seed", "1")
    assert code == 130, err
    assert out.read_bytes() == b"earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["coups.parquet"]
