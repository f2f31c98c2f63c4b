"""toolkit._files: atomic writes that never follow a link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolkit._files import atomic_write, remove_files


def test_atomic_write_replaces_whole_and_leaves_no_temporary(tmp_path: Path):
    path = tmp_path / "a.txt"
    atomic_write(path, "one")
    atomic_write(path, b"two")
    atomic_write(path, lambda fh: fh.write(b"three"))
    assert path.read_text() == "three"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path):
    path = tmp_path / "a.txt"
    path.write_text("old")

    def boom(fh):
        fh.write(b"half")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        atomic_write(path, boom)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_links_are_refused_not_followed(tmp_path: Path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    os.symlink(victim, tmp_path / "link")
    with pytest.raises(ValueError, match="symbolic link"):
        atomic_write(tmp_path / "link", "overwritten")
    folder = tmp_path / "parts"
    folder.mkdir()
    os.symlink(victim, folder / "part-1.parquet")
    with pytest.raises(ValueError, match="symbolic link"):
        remove_files(folder, "part-*.parquet")
    os.symlink(folder, tmp_path / "linked-folder")
    with pytest.raises(ValueError, match="symbolic link"):
        remove_files(tmp_path / "linked-folder", "*")
    assert victim.read_text() == "precious"


def test_a_device_is_written_into_never_replaced(tmp_path: Path):
    atomic_write("/dev/null", "nothing")
    assert Path("/dev/null").is_char_device()
    with pytest.raises(OSError, match="No space left"):
        atomic_write("/dev/full", "x" * 100_000)
    assert Path("/dev/full").is_char_device()
    with pytest.raises(IsADirectoryError):
        atomic_write(tmp_path, "x")
