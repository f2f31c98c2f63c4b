"""A tracked session's file: refused at the start when it cannot or should not be written; saved after every coup."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolkit.live import Tracker
from toolkit.live import autosave as autosave_module
from toolkit.live.autosave import SessionFile, check_output
from toolkit.records import ShoeHeader, read_records


def test_a_good_output_is_accepted_and_nothing_is_left_in_its_folder(tmp_path: Path):
    (tmp_path / "old.csv").write_text("yesterday\n")
    assert check_output(tmp_path / "new.csv") == tmp_path / "new.csv"
    assert check_output(tmp_path / "old.csv") == tmp_path / "old.csv"  # a regular file is replaced by the save
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "no" / "such" / "folder.csv", "does not exist"),
        (lambda d: Path("/proc/track-session.csv"), "cannot write in '/proc'"),
        (lambda d: (d / "a-folder.csv").mkdir() or d / "a-folder.csv", "is a folder"),
        (lambda d: os.symlink("/dev/full", d / "full.csv") or d / "full.csv", "symbolic link"),
        (lambda d: os.mkfifo(d / "pipe.csv") or d / "pipe.csv", "not a regular file"),
        (lambda d: d / "session.txt", "suffix"),
    ],
    ids=["no-folder", "proc", "folder", "link-to-dev-full", "fifo", "suffix"],
)
def test_an_output_that_a_save_could_not_write_is_refused(tmp_path: Path, make, message):
    with pytest.raises(ValueError, match=message) as err:
        check_output(make(tmp_path))
    assert "\n" not in str(err.value)


def test_a_failed_save_is_remembered_not_raised_and_the_next_save_writes_every_finished_coup(tmp_path: Path):
    folder = tmp_path / "night"
    folder.mkdir()
    saving = SessionFile(check_output(folder / "s.jsonl"))
    t = Tracker(ShoeHeader().updated(burn="none"))
    t.feed("9k9k")
    folder.rmdir()  # the folder is gone (a disk unmounted, a full disk)
    assert saving.save_if_changed(t)
    assert saving.error is not None
    assert "cannot save" in saving.error
    assert saving.saved_coups is None
    folder.mkdir()
    assert saving.save_if_changed(t)  # the file lacks a finished coup: the next key tries again
    assert saving.error is None
    assert read_records(folder / "s.jsonl").coups.height == 1
    assert not saving.save_if_changed(t)  # nothing new: nothing written
    t.feed("4k5k")
    assert saving.save_if_changed(t)
    assert saving.error is None
    assert read_records(folder / "s.jsonl").coups.height == 2
    t.press("u")  # an undone coup leaves the file too
    assert saving.save_if_changed(t)
    assert read_records(folder / "s.jsonl").coups.height == 1


def test_a_save_goes_through_the_atomic_writer(tmp_path: Path, monkeypatch):
    seen = []
    real = autosave_module.atomic_write
    monkeypatch.setattr(
        autosave_module, "atomic_write", lambda path, data, where: seen.append(path) or real(path, data)
    )
    saving = SessionFile(check_output(tmp_path / "s.parquet"))
    t = Tracker(ShoeHeader().updated(burn="none"))
    t.feed("9k9k")
    assert saving.save(t)
    assert seen == [tmp_path / "s.parquet"]
    assert read_records(tmp_path / "s.parquet").report.ok
