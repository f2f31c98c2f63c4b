"""Files no reader may open and read whole: a device that never ends, a named pipe, a folder."""

from __future__ import annotations

import os
from pathlib import Path

#: The kinds :func:`non_regular` makes.
KINDS = ("device", "fifo", "folder")


def non_regular(tmp_path: Path, kind: str) -> Path:
    """/dev/zero, a named pipe or a folder (named like a record file, so only its kind gives it away)."""
    if kind == "device":
        return Path("/dev/zero")
    if kind == "fifo":
        os.mkfifo(tmp_path / "pipe.csv")
        return tmp_path / "pipe.csv"
    (tmp_path / "folder.csv").mkdir()
    return tmp_path / "folder.csv"
