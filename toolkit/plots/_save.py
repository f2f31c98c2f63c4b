"""Figures written to users' files the one safe way: the exact path named, a known suffix, atomically.

:func:`figure_target` checks a figure's path before any work starts: its suffix
names the format (:data:`FIGURE_FORMATS`; matplotlib would otherwise add
``.png`` and write a file the user did not name), and a symbolic link, a folder,
a device (``/dev/full``) or a named pipe already at that path is refused.
:func:`save_figure` then draws into a temporary file beside it and renames it
into place (:func:`toolkit._files.atomic_write`): a full disk or an error leaves
the old figure whole, and a link planted meanwhile is replaced, never followed.

>>> import tempfile
>>> from matplotlib.figure import Figure
>>> folder = Path(tempfile.mkdtemp())
>>> save_figure(Figure(figsize=(1, 1)), folder / "a.svg").name
'a.svg'
>>> figure_target("a.jpeg")
Traceback (most recent call last):
...
ValueError: figure: cannot draw to 'a.jpeg': give a file name ending in .png, .svg or .pdf
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["FIGURE_FORMATS", "figure_target", "save_figure"]

#: The suffixes a figure's file may end in, and the format each names.
FIGURE_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def figure_target(path: str | os.PathLike, where: str = "figure") -> tuple[Path, str]:
    """``(path, format)`` for a figure to be written to ``path``; :class:`ValueError` (one line) when it cannot be.

    Refused: a name without a known suffix (:data:`FIGURE_FORMATS`, any case), a
    symbolic link (whatever it points to), and anything but a regular file
    already there (a folder, a device, a named pipe, a socket).

    Parameters
    ----------
    path
        The file named.
    where
        What names it, for messages (``"--figure"``).

    Returns
    -------
    tuple
        The path, unchanged, and the format its suffix names.
    """
    from toolkit._files import refuse_symlink

    target = Path(path)
    shown = repr(str(target))
    fmt = FIGURE_FORMATS.get(target.suffix.lower())
    if fmt is None or not target.stem:
        raise ValueError(f"{where}: cannot draw to {shown}: give a file name ending in {_suffixes()}")
    refuse_symlink(target, where)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target, fmt
    except OSError as err:
        raise ValueError(f"{where}: cannot write {shown}: {err.strerror or err}") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a device, a pipe or a socket"
        raise ValueError(f"{where}: {shown} is {kind}, not a file; name a file ending in {_suffixes()}")
    return target, fmt


def save_figure(fig: Figure, path: str | os.PathLike, where: str = "figure", **savefig: Any) -> Path:
    """Write ``fig`` to ``path`` in the format its suffix names, atomically; the path written.

    Parameters
    ----------
    fig
        The figure.
    path
        The file (checked by :func:`figure_target`).
    where
        What names it, for messages.
    **savefig
        Passed to :meth:`matplotlib.figure.Figure.savefig` (``dpi``, ``bbox_inches``); not ``format``.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ValueError
        The path is refused (see :func:`figure_target`).
    OSError
        It cannot be written; the file already there is left whole.
    """
    from toolkit._files import atomic_write

    target, fmt = figure_target(path, where)
    atomic_write(target, lambda fh: fig.savefig(fh, format=fmt, **savefig), where)
    return target


def _suffixes() -> str:
    names = list(FIGURE_FORMATS)
    return ", ".join(names[:-1]) + " or " + names[-1]
