"""toolkit._files: bounded reads of regular files, and atomic writes that never follow a link."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from non_regular import non_regular

from toolkit import _files
from toolkit._files import (
    RefusedFileError,
    atomic_file,
    atomic_write,
    read_limited,
    remove_files,
    remove_stale_temporaries,
)


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


# ------------------------------------------------------------------ bounded reads of regular files only
@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_read_limited_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str):
    path = non_regular(tmp_path, kind)
    with pytest.raises(RefusedFileError, match="must be a regular file") as caught:
        read_limited(path, 100, "a note")
    assert str(caught.value).startswith(str(path))
    assert "\n" not in str(caught.value)


def test_read_limited_refuses_more_than_the_limit(tmp_path: Path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 2049)
    with pytest.raises(RefusedFileError, match="holds at most 2 KiB"):
        read_limited(path, 2048, "a note")
    assert read_limited(path, 2049, "a note") == b"x" * 2049


# ------------------------------------------ atomic writes: modes, stale and interrupted temporaries
def test_a_new_file_gets_the_mode_open_gives_it(tmp_path: Path):
    old = os.umask(0o022)
    try:
        path = atomic_write(tmp_path / "new.txt", "x")
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        os.chmod(path, 0o640)
        atomic_write(path, "y")  # a file replaced keeps its mode, as open(path, "w") would
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
    finally:
        os.umask(old)


def test_stale_temporaries_of_the_output_are_removed_and_nothing_else(tmp_path: Path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    stale = tmp_path / ".out.parquet.ab12cd_9.tmp"
    stale.write_text("left by a killed run")
    os.symlink(victim, tmp_path / ".out.parquet.zz99zz99.tmp")  # a link at a temporary name: left alone
    others = [".out.parquet.short.tmp", ".other.parquet.ab12cd34.tmp", "out.parquet.ab12cd34.tmp"]
    for name in others:
        (tmp_path / name).write_text("not a temporary file of out.parquet")
    atomic_write(tmp_path / "out.parquet", b"new")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(["out.parquet", "victim", ".out.parquet.zz99zz99.tmp", *others])
    assert victim.read_text() == "precious"


def test_a_temporary_file_being_written_is_not_taken_for_stale(tmp_path: Path):
    with atomic_file(tmp_path / "out.bin") as fh:
        fh.write(b"mine")
        assert remove_stale_temporaries(tmp_path / "out.bin") == 0  # its writer holds its lock
        assert len(list(tmp_path.glob(".out.bin.*.tmp"))) == 1
    assert (tmp_path / "out.bin").read_bytes() == b"mine"


def test_ctrl_c_removes_the_temporary_file(tmp_path: Path):
    def interrupted(fh):
        fh.write(b"half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(tmp_path / "out.txt", interrupted)
    assert list(tmp_path.iterdir()) == []


def test_sigterm_removes_the_temporary_file_then_ends_the_process(tmp_path: Path):
    script = (
        "import os, signal, sys\n"
        "from toolkit._files import atomic_write\n"
        "def killed(fh):\n"
        "    fh.write(b'half')\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    fh.write(b'never')\n"
        "atomic_write(sys.argv[1], killed)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.txt")], check=False)
    assert done.returncode == -signal.SIGTERM
    assert list(tmp_path.iterdir()) == []


def test_read_limited_asks_for_memory_as_the_file_needs_not_the_limit(tmp_path: Path):
    # a 3 KB file read under a 4 GiB limit in a process allowed 1 GiB of address space: a read of the
    # whole limit at once (the reader's old way) fails there with MemoryError; the module is loaded alone
    # (it imports only the standard library), so the limit measures the read and nothing else
    path = tmp_path / "small.csv"
    path.write_bytes(b"shoe,coup\n" * 300)
    source = Path(_files.__file__)
    script = (
        "import importlib.util, resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))\n"
        f"spec = importlib.util.spec_from_file_location('files', {str(source)!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        f"print(len(module.read_limited({str(path)!r}, 4 * 2**30, 'a record file')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3000"
