"""The argument checks every public function shares: one place for each rule and its message.

Each check names the argument (``where``: ``"Dealing.decks"``, ``"--shoes"``,
``"number of shoes"``) and the offending value, raises :class:`TypeError` for a
value of the wrong type and :class:`ValueError` for a bad value, and returns the
value normalised (a Python ``int``, a :class:`~fractions.Fraction`).

>>> positive_int(np.int64(3), "shoes")
3
>>> probability("1/2", "Player's draw at 5")
Fraction(1, 2)
>>> positive_int(2.5, "coups")
Traceback (most recent call last):
...
TypeError: coups must be an integer, got 2.5
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import SupportsFloat

import numpy as np

__all__ = ["as_fraction", "count_matrix", "integer", "non_negative_int", "one_of", "positive_int", "probability"]


def integer(value: object, where: str) -> int:
    """``value`` as an ``int``: Python and numpy integers only (not ``bool``, not ``2.0``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{where} must be an integer, got {value!r}")
    return int(value)


def positive_int(value: object, where: str) -> int:
    """An integer of at least 1."""
    n = integer(value, where)
    if n < 1:
        raise ValueError(f"{where} must be a positive integer, got {n}")
    return n


def non_negative_int(value: object, where: str) -> int:
    """An integer of at least 0."""
    n = integer(value, where)
    if n < 0:
        raise ValueError(f"{where} must be a non-negative integer, got {n}")
    return n


def as_fraction(x: object) -> Fraction:
    """Exact rational from an int, Fraction, decimal string or float (floats via their shortest repr).

    Parameters
    ----------
    x
        An int, a :class:`~fractions.Fraction`, a decimal or ``a/b`` string, or a float.

    Returns
    -------
    fractions.Fraction
        The exact value (a float through its shortest repr: ``0.95`` is 19/20).

    Examples
    --------
    >>> as_fraction(0.95), as_fraction("1/2"), as_fraction(np.float64(0.5))
    (Fraction(19, 20), Fraction(1, 2), Fraction(1, 2))
    """
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"expected a number, got {x!r}")
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            raise ValueError(f"expected a finite number, got {float(x)!r}")
        return Fraction(repr(float(x)))
    if isinstance(x, str):
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{x!r} is not a number") from None
    if isinstance(x, SupportsFloat):  # Decimal, 0-d arrays and other real numbers
        return as_fraction(float(x))
    raise TypeError(f"expected a number, got {type(x).__name__} {x!r}")


def probability(value: object, where: str) -> Fraction:
    """A probability in [0, 1], exact."""
    try:
        p = as_fraction(value)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{where}: {err}") from None
    if not 0 <= p <= 1:
        raise ValueError(f"{where}: a probability must lie in [0, 1], got {value!r}")
    return p


def one_of(value: object, choices: Iterable[str], where: str) -> str:
    """One of the named ``choices`` (a string enum's values, say)."""
    options = [str(c) for c in choices]
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{where} must be one of {', '.join(options)}, got {value!r}")
    return value


def count_matrix(counts: np.ndarray, where: str) -> np.ndarray:
    """An array of card counts as ``int64``: whole, finite and non-negative (never truncated).

    Integer arrays pass (unsigned ones must fit in ``int64``); float arrays pass
    only when every entry is a whole number; anything else is refused.

    >>> count_matrix(np.array([[4.0, 2.0]]), "shoe counts").dtype
    dtype('int64')
    >>> count_matrix(np.array([[4.5, 2.0]]), "shoe counts")
    Traceback (most recent call last):
    ...
    ValueError: shoe counts must be whole numbers of cards, got 4.5 at [0, 0]
    """
    arr = np.asarray(counts)
    if arr.dtype == np.bool_ or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"{where} must be integer counts, got an array of {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating):
        bad = ~np.isfinite(arr) | (arr != np.floor(arr)) | (np.abs(arr) > 2.0**53)
        if bad.any():
            at = [int(i) for i in np.argwhere(bad)[0]]
            raise ValueError(f"{where} must be whole numbers of cards, got {float(arr[tuple(at)])!r} at {at}")
    elif arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{where} must be at most {np.iinfo(np.int64).max} cards, got {int(arr.max())}")
    out = arr.astype(np.int64, copy=False)
    if out.size and out.min() < 0:
        at = [int(i) for i in np.argwhere(out < 0)[0]]
        raise ValueError(f"{where} must be non-negative, got {int(out[tuple(at)])} at {at}")
    return out
