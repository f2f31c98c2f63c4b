"""The one progress bar of the package: on a terminal (or a notebook) only, never into a pipe or a log file.

Every long loop of the package (dealing, the studies, the count search, detection, the power
studies, the partitions of an edge sort) draws its bar through :func:`progress_bar`, so one rule
holds everywhere: ``show=False`` draws nothing, and ``show=True`` draws on stderr only when stderr
is a terminal (tqdm's ``disable=None``), as a widget in a notebook.  A bar's total is fixed when it
is made: work whose size is learnt on the way gets a bar of its own for each stage.

>>> with progress_bar(total=3, desc="shoes", unit="shoe", show=False) as bar:
...     bar.update(3)
>>> list(progress_bar(range(3), desc="shoes", unit="shoe"))  # stderr is not a terminal here: no bar
[0, 1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["progress_bar"]


def progress_bar(
    iterable: Iterable[Any] | None = None,
    *,
    total: int | None = None,
    desc: str,
    unit: str,
    show: bool = True,
    **options: Any,
) -> Any:
    """A tqdm bar over ``iterable`` (or counted by hand to ``total``), drawn only on a terminal.

    Parameters
    ----------
    iterable
        What to iterate over; ``None`` for a bar counted with ``bar.update(n)``.
    total
        The bar's total (``len(iterable)`` by default, when it has one).
    desc, unit
        The bar's label and the unit it counts (``"shoes"``, ``"shoe"``).
    show
        ``False``: no bar at all.  ``True``: a bar on stderr when stderr is a terminal,
        a widget in a notebook, nothing in a pipe or a log file.
    options
        Other tqdm options (``smoothing``...).

    Returns
    -------
    tqdm.tqdm
        The bar (an iterator over ``iterable``, a context manager, ``update``, ``close``).
    """
    from tqdm.auto import tqdm

    # disable=None: tqdm leaves the bar out when its file (stderr) is not a terminal
    return tqdm(iterable, total=total, desc=desc, unit=unit, disable=None if show else True, **options)
