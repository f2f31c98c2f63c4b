"""Users' files, read and written safely: bounded reads of regular files, and atomic writes that never follow a link.

Reading: :func:`read_limited` reads a regular file of at most a given size, and
refuses anything else (a device such as ``/dev/zero``, a named pipe, a socket,
a folder) before opening it, in one line that names the file.

Writing: :func:`atomic_write` and :func:`atomic_file` write to a temporary file
in the same folder (``.NAME.XXXXXXXX.tmp``, made by :func:`tempfile.mkstemp`),
then rename it over the final name.  A reader never sees half a file, an
interrupted write (an exception, Ctrl-C, ``SIGTERM``) leaves the old file whole
and removes its temporary file, and a symbolic link planted at the final name is
refused, never followed, so that its target is not overwritten.  The new file
gets the permissions an ordinary ``open()`` gives: those of the file it
replaces, else ``0o666`` less the umask.  Temporary files of the same output
left by a killed run (no process holds their lock) are removed on the next write.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.txt", "one\\n").name
'a.txt'
>>> (folder / "a.txt").read_text()
'one\\n'
>>> read_limited(folder / "a.txt", 10, "a note")
b'one\\n'
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

try:  # advisory locks tell a live temporary file from a stale one (POSIX)
    import fcntl
except ImportError:  # pragma: no cover - Windows: every matching temporary file is taken as stale
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "RefusedFileError",
    "atomic_file",
    "atomic_write",
    "read_limited",
    "refuse_symlink",
    "remove_files",
    "remove_stale_temporaries",
]

#: The most bytes :func:`read_limited` asks of the operating system at once (1 MiB).
READ_CHUNK = 2**20

#: What kinds of file a reader refuses, by the test of their mode.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


class RefusedFileError(ValueError):
    """A file a reader refuses (not a regular file, or too large): ``path`` and ``reason``, shown as one line."""

    def __init__(self, path: str | os.PathLike, reason: str) -> None:
        super().__init__(f"{os.fspath(path)}: {reason}")
        self.path, self.reason = os.fspath(path), reason


def size_text(n: int) -> str:
    """``1 MiB``, ``4 GiB``, ``300 bytes``: a byte count in the largest binary unit that divides it.

    >>> size_text(2**20), size_text(4 * 2**30), size_text(1000)
    ('1 MiB', '4 GiB', '1,000 bytes')
    """
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size and n % size == 0:
            return f"{n // size:,} {unit}"
    return f"{n:,} bytes"


def _refuse_unless_regular(path: str | os.PathLike, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise RefusedFileError(path, f"{what} must be a regular file; this is {kind}")


def read_limited(path: str | os.PathLike, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, which may hold at most ``limit`` bytes.

    The file's kind is checked before it is opened (a link is followed to what
    it names): a folder, a device (``/dev/zero``), a named pipe or a socket is
    refused, and so is a file of more than ``limit`` bytes; at most ``limit + 1``
    bytes are ever read, in chunks of :data:`READ_CHUNK`, so memory follows the file, not the limit,
    nothing grows without bound and nothing blocks.

    Parameters
    ----------
    path
        The file.
    limit
        The most bytes it may hold.
    what
        What the file is, for messages (``"a bet file"``).

    Returns
    -------
    bytes
        Its content.

    Raises
    ------
    OSError
        The file cannot be opened (:class:`FileNotFoundError` when it does not exist).
    RefusedFileError
        (a :class:`ValueError`) It is not a regular file, or holds more than ``limit`` bytes.
    """
    too_big = f"{what} holds at most {size_text(limit)}; this one holds more"
    _refuse_unless_regular(path, os.stat(path).st_mode, what)
    # O_NONBLOCK: should a pipe be swapped in after the check, opening it does not wait for a writer
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        _refuse_unless_regular(path, info.st_mode, what)
        if info.st_size > limit:
            raise RefusedFileError(path, too_big)
        # in chunks: a read of ``limit + 1`` bytes at once would reserve the whole limit (4 GiB for a record
        # file) however small the file; a file that grows while it is read stops at ``limit + 1`` bytes
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = fh.read(min(left, READ_CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    if left <= 0:
        raise RefusedFileError(path, too_big)
    return b"".join(chunks)


def refuse_symlink(path: str | os.PathLike, where: str = "output") -> Path:
    """``path`` as a Path; :class:`ValueError` when it is a symbolic link (whatever it points to)."""
    p = Path(path)
    if p.is_symlink():
        raise ValueError(f"{where} {str(p)!r} is a symbolic link; refusing to write through it (remove it first)")
    return p


def _temporary_names(target: Path) -> re.Pattern[str]:
    """The names :func:`tempfile.mkstemp` gives the temporary files of ``target`` (8 of its random letters)."""
    return re.compile(re.escape(f".{target.name}.") + r"[a-z0-9_]{8}" + re.escape(".tmp"))


def remove_stale_temporaries(path: str | os.PathLike) -> int:
    """Remove the temporary files a killed write of ``path`` left beside it; the number removed.

    Only the names :func:`atomic_file` gives ``path``'s temporary files
    (``.NAME.XXXXXXXX.tmp``), only regular files (a link is left alone, never
    followed), and only those no process is writing (a writer holds a lock on its own).
    """
    target = Path(path)
    names = _temporary_names(target)
    folder = target.parent
    try:
        candidates = sorted(n for n in os.listdir(folder) if names.fullmatch(n))
    except OSError:
        return 0
    removed = 0
    for name in candidates:
        old = folder / name
        try:
            fd = os.open(old, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:  # a link (O_NOFOLLOW), gone already, or not ours to open
            continue
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                continue
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:  # a live write holds it
                    continue
            now = os.stat(old, follow_symlinks=False)
            if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
                os.unlink(old)
                removed += 1
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def _umask() -> int:
    """This process's umask, read without changing it where the system says it (Linux), else set and restored."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _new_file_mode(target: Path) -> int:
    """The permissions ``open(target, "w")`` would leave: the replaced file's, else ``0o666`` less the umask."""
    with contextlib.suppress(OSError):
        info = os.stat(target, follow_symlinks=False)
        if stat.S_ISREG(info.st_mode):
            return stat.S_IMODE(info.st_mode)
    return 0o666 & ~_umask()


class _Terminated(BaseException):
    """SIGTERM arrived during an atomic write: unwinds it (the temporary file is removed), then the signal acts."""


@contextlib.contextmanager
def _terminate_unwinds() -> Iterator[None]:
    """While inside, SIGTERM unwinds the stack (``finally`` blocks run) before it ends the process as usual.

    Only where SIGTERM has its default action and only in the main thread (where
    Python runs signal handlers); a handler the program installed is left alone.
    """
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise _Terminated

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)  # the default action: the process ends, killed by SIGTERM
        raise SystemExit(128 + signal.SIGTERM) from None  # pragma: no cover - reached only if SIGTERM is blocked
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _locked_temporary(target: Path) -> tuple[int, str]:
    """A fresh temporary file beside ``target`` (descriptor, name), locked so that no cleaner takes it for stale."""
    for _ in range(100):
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        if fcntl is None:
            return fd, tmp
        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_nlink > 0:
            return fd, tmp
        os.close(fd)  # a cleaner removed it between its creation and the lock: make another
    raise OSError(f"cannot make a temporary file beside {str(target)!r}")  # pragma: no cover


def _open_special(target: Path) -> int:
    """A descriptor writing into the device or pipe ``target``, opened without waiting.

    A named pipe with no reader is refused (:class:`OSError`, ``ENXIO``) instead of blocking until one
    comes; what is opened is then written in blocking mode, as an ordinary file.
    """
    try:
        fd = os.open(target, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise OSError(
                errno.ENXIO, "a named pipe (FIFO) with no reader: start its reader first, or name a regular file"
            ) from None
        raise
    os.set_blocking(fd, True)
    return fd


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike, where: str = "output") -> Iterator[IO[bytes]]:
    """A binary file to write ``path``'s new content to; renamed over ``path`` when the block ends without error.

    The temporary file is created exclusively (never through a link) in
    ``path``'s folder, with the permissions an ordinary ``open()`` gives; an
    error, Ctrl-C or ``SIGTERM`` removes it and leaves ``path`` as it was, and
    stale temporary files of ``path`` are removed first
    (:func:`remove_stale_temporaries`).  ``path`` may not be a symbolic link or a
    folder; a device or a pipe (``/dev/stdout``) is written into, never replaced.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "b.bin"
    >>> with atomic_file(path) as fh:
    ...     _ = fh.write(b"two")
    >>> path.read_bytes()
    b'two'
    """
    target = refuse_symlink(path, where)
    if target.is_dir():
        raise IsADirectoryError(f"{where} {str(target)!r} is a folder, not a file")
    if target.exists() and not target.is_file():  # a device or a pipe: write into it, never replace it
        with os.fdopen(_open_special(target), "wb") as fh:
            yield fh
        return
    remove_stale_temporaries(target)
    mode = _new_file_mode(target)
    with _terminate_unwinds():
        masks = hasattr(signal, "pthread_sigmask")
        # SIGTERM waits until the temporary file's name is known, so that it can be removed
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}) if masks else set()
        try:
            fd, tmp = _locked_temporary(target)
        finally:
            if masks:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        try:
            keep = os.dup(fd)  # the lock and the fsync, whether or not the writer closes its file
            try:
                os.fchmod(keep, mode)
                with os.fdopen(fd, "wb") as fh:
                    yield fh
                    if not fh.closed:
                        fh.flush()
                os.fsync(keep)
                os.replace(tmp, target)
            finally:
                os.close(keep)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise


def atomic_write(
    path: str | os.PathLike, data: str | bytes | Callable[[IO[bytes]], object], where: str = "output"
) -> Path:
    """Write ``data`` (text, bytes, or a function that writes to a binary file) to ``path`` atomically.

    See :func:`atomic_file`: the data goes to a fresh temporary file in
    ``path``'s folder, which is then renamed over ``path``; ``path`` itself may
    not be a symbolic link.
    """
    with atomic_file(path, where) as fh:
        _put(fh, data)
    return Path(path)


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
