"""Writing files safely: to a temporary file in the same folder, then renamed over the final name.

A reader never sees half a file, an interrupted write leaves the old file
whole, and a symbolic link planted at the final name (or at a temporary name)
is never followed: it is refused, so that its target is not overwritten.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.txt", "one\\n").name
'a.txt'
>>> (folder / "a.txt").read_text()
'one\\n'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

__all__ = ["atomic_write", "refuse_symlink", "remove_files"]


def refuse_symlink(path: str | os.PathLike, where: str = "output") -> Path:
    """``path`` as a Path; :class:`ValueError` when it is a symbolic link (whatever it points to)."""
    p = Path(path)
    if p.is_symlink():
        raise ValueError(f"{where} {str(p)!r} is a symbolic link; refusing to write through it (remove it first)")
    return p


def atomic_write(
    path: str | os.PathLike, data: str | bytes | Callable[[IO[bytes]], object], where: str = "output"
) -> Path:
    """Write ``data`` (text, bytes, or a function that writes to a binary file) to ``path`` atomically.

    The data goes to a fresh temporary file (created exclusively, so never
    through a link) in ``path``'s folder, which is then renamed over ``path``.
    ``path`` itself may not be a symbolic link.
    """
    target = refuse_symlink(path, where)
    if target.is_dir():
        raise IsADirectoryError(f"{where} {str(target)!r} is a folder, not a file")
    if target.exists() and not target.is_file():  # a device or a pipe (/dev/stdout): write into it, never replace it
        with open(target, "wb") as fh:
            _put(fh, data)
        return target
    folder = target.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            _put(fh, data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return target


def _put(fh: IO[bytes], data: str | bytes | Callable[[IO[bytes]], object]) -> None:
    if isinstance(data, str):
        fh.write(data.encode("utf-8"))
    elif isinstance(data, bytes):
        fh.write(data)
    else:
        data(fh)


def remove_files(folder: str | os.PathLike, pattern: str) -> int:
    """Remove the regular files of ``folder`` matching ``pattern``; links are refused, never followed."""
    base = refuse_symlink(folder, "folder")
    removed = 0
    if not base.is_dir():
        return 0
    for old in sorted(base.glob(pattern)):
        if old.is_symlink():
            raise ValueError(f"{str(old)!r} is a symbolic link; refusing to remove through it (remove it yourself)")
        if old.is_file():
            old.unlink()
            removed += 1
    return removed
