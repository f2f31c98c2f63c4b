"""A tracked session's file: checked before the session starts, saved after every finished coup.

:func:`check_output` refuses, before a single key is read, a file that a
save could not write or should not write: a symbolic link (its target would
be overwritten), a folder, a device or a pipe (``/dev/full``), a name in a
folder that does not exist or that takes no new file (``/proc``).  A
:class:`SessionFile` then writes the session (its finished coups, as a
card-level record) with :func:`toolkit._files.atomic_write` each time the
finished coups change, so a crash, a kill or a full disk loses at most the coup
being dealt; a failed save is remembered (:attr:`SessionFile.error`), never
raised, and the next call tries again (the file lacks a finished coup until a save works).

>>> import tempfile
>>> from toolkit.live.panel import Panel
>>> from toolkit.live.tracker import Tracker
>>> from toolkit.records import ShoeHeader
>>> out = SessionFile(check_output(Path(tempfile.mkdtemp()) / "tonight.csv"))
>>> t = Tracker(ShoeHeader().updated(burn="none"), Panel.of(bets=["banker"]))
>>> out.save_if_changed(t), out.path.exists()  # no coup yet: nothing to save
(False, False)
>>> _ = t.feed("9k9k")
>>> out.save_if_changed(t), out.error, out.saved_coups
(True, None, 1)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from toolkit._files import atomic_write, refuse_symlink
from toolkit.records import write_records

if TYPE_CHECKING:
    from toolkit.live.tracker import Coup, Tracker

__all__ = ["SUFFIXES", "SessionFile", "check_output"]

#: The suffixes of a saved session (the record's container follows the suffix).
SUFFIXES = (".csv", ".jsonl", ".ndjson", ".parquet", ".pq")


def check_output(path: str | os.PathLike, where: str = "--out") -> Path:
    """``path`` as a Path, when a session can be saved there; :class:`ValueError` (one line) when not.

    Parameters
    ----------
    path
        The session's file (``.csv``, ``.jsonl`` or ``.parquet``).
    where
        How a message names it.

    Returns
    -------
    pathlib.Path
        The path.
    """
    out = Path(path)
    if not str(path).strip():
        raise ValueError(f"{where} must name a file, got an empty string")
    if out.suffix.lower() not in SUFFIXES:
        raise ValueError(f"{where} {str(out)!r}: the record's format follows the suffix: .csv, .jsonl or .parquet")
    refuse_symlink(out, where)
    if out.is_dir():
        raise ValueError(f"{where} {str(out)!r} is a folder, not a file")
    if out.exists() and not out.is_file():
        raise ValueError(f"{where} {str(out)!r} is not a regular file (a device or a pipe)")
    folder = out.parent
    if not folder.is_dir():
        raise ValueError(f"{where} {str(out)!r}: the folder {str(folder)!r} does not exist")
    try:  # what a save does first: create a file in the folder
        fd, probe = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".probe", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise ValueError(f"{where} {str(out)!r}: cannot write in {str(folder)!r}: {err.strerror or err}") from None
    return out


class SessionFile:
    """Where a tracked session is saved, and whether the last save worked.

    Parameters
    ----------
    path
        The file, checked by :func:`check_output`.

    Attributes
    ----------
    error
        Why the last save failed (``None`` when it worked, or before any save).
    saved_coups
        Finished coups in the file (``None`` before the first save).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.error: str | None = None
        self.saved_coups: int | None = None
        self._saved: tuple[Coup, ...] | None = None

    def save_if_changed(self, tracker: Tracker) -> bool:
        """Save when the finished coups differ from those saved last (a coup finished, or one undone).

        Returns whether a save was tried.  Before the first coup nothing is saved.
        """
        coups = tracker.coups
        if coups == self._saved or (self._saved is None and not coups):
            return False
        self.save(tracker)
        return True

    def save(self, tracker: Tracker) -> bool:
        """Write the finished coups of ``tracker`` now; returns whether it worked (else see :attr:`error`)."""
        coups = tracker.coups
        try:
            data = _record_bytes(tracker, self.path.suffix)
            atomic_write(self.path, data, "--out")
        except (OSError, ValueError) as err:
            self.error = f"cannot save to {str(self.path)!r}: {getattr(err, 'strerror', None) or err}"
            return False
        except Exception as err:  # polars reports a failed write in its own exception types
            lines = str(err).strip().splitlines() or [type(err).__name__]
            self.error = f"cannot save to {str(self.path)!r}: {lines[0]}"
            return False
        self.error = None
        self._saved = coups
        self.saved_coups = len(coups)
        return True


def _record_bytes(tracker: Tracker, suffix: str) -> bytes:
    """The session's record file, as bytes (written once in a private folder, in the format of ``suffix``)."""
    records = tracker.records()
    with tempfile.TemporaryDirectory(prefix="baccarat-track-") as folder:
        return write_records(records, Path(folder) / f"session{suffix.lower()}").read_bytes()
