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

import re
import unicodedata
from collections.abc import Iterable
from fractions import Fraction
from typing import SupportsFloat

import numpy as np

__all__ = [
    "MAX_FLOAT_CARDS",
    "MAX_PAYOUT",
    "as_fraction",
    "check_bet_text",
    "count_matrix",
    "float_counts",
    "integer",
    "non_negative_int",
    "one_of",
    "payout",
    "plain_text",
    "positive_int",
    "probability",
    "whole_number",
]

#: The largest payout a bet may have, in units to one, either way: ``|payout| <= 1,000,000``.
#: A million to one is far beyond any pay table printed; a larger figure is a typing slip
#: (``1e308``), and it would overflow the float sums of the engine into infinities and nulls.
MAX_PAYOUT = 10**6

#: Digits only, with an optional sign: what a count in a comma-separated list may be.
_WHOLE = re.compile(r"[+-]?[0-9]+")


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


def payout(value: object, where: str) -> Fraction:
    """A payout in units to one, exact, within ``|payout| <= MAX_PAYOUT`` (a million to one).

    >>> payout("3/2", "row 1")
    Fraction(3, 2)
    >>> payout(1e308, "row 1")
    Traceback (most recent call last):
    ...
    ValueError: row 1: a payout must lie within -1000000..1000000 (units to one), got 1e+308
    """
    try:
        p = as_fraction(value)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{where}: {err}") from None
    if abs(p) > MAX_PAYOUT:
        raise ValueError(f"{where}: a payout must lie within -{MAX_PAYOUT}..{MAX_PAYOUT} (units to one), got {value!r}")
    return p


def whole_number(text: str, where: str) -> int:
    """An integer written as ASCII digits with an optional sign (``int`` would also take ``3_2`` and ``\\u0663``).

    >>> whole_number(" -4 ", "tag 1")
    -4
    >>> whole_number("3_2", "count 1")
    Traceback (most recent call last):
    ...
    ValueError: count 1 must be a whole number written in digits, got '3_2'
    """
    part = text.strip()
    if not _WHOLE.fullmatch(part):
        raise ValueError(f"{where} must be a whole number written in digits, got {part!r}")
    return int(part)


def plain_text(value: object, where: str) -> str:
    """A string without control or format characters (newline, tab, escape, bidi overrides): it reaches tables.

    >>> plain_text("dragon 7", "bet name")
    'dragon 7'
    >>> plain_text("a\\x1b[2Jb", "bet name")
    Traceback (most recent call last):
    ...
    ValueError: bet name must not hold control characters, got 'a\\x1b[2Jb'
    """
    if not isinstance(value, str):
        raise TypeError(f"{where} must be a string, got {type(value).__name__} {value!r}")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in value):
        raise ValueError(f"{where} must not hold control characters, got {value!r}")
    return value


def check_bet_text(name: object, description: object) -> None:
    """A bet's name (a non-empty string) and description (a string), neither with control characters.

    >>> check_bet_text("tiger", 5)
    Traceback (most recent call last):
    ...
    TypeError: bet 'tiger': description must be a string, got int 5
    """
    if isinstance(name, str) and not name:
        raise ValueError("a bet needs a non-empty name, got ''")
    plain_text(name, "bet name")
    plain_text(description, f"bet {name!r}: description")


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


#: The most cards a shoe may hold on the float paths: ``2**53``, so that every count, every total and every
#: ``(n - h) / (N - s)`` ratio's terms are exact in float64 and int64 (past it a count of 10**18 decks wraps
#: around and gains of thousands of percent come out).  The exact path (``exact=True``) holds any shoe.
MAX_FLOAT_CARDS = 2**53


def float_counts(counts: object) -> np.ndarray:
    """``(B, k)`` card counts as int64 for the float paths; :class:`ValueError` for a shoe past :data:`MAX_FLOAT_CARDS`.

    >>> float_counts([[4, 4]]).dtype
    dtype('int64')
    >>> float_counts([[2**53, 1]])
    Traceback (most recent call last):
    ...
    ValueError: the float engine holds shoes of at most 2**53 = 9,007,199,254,740,992 cards (every count exact \
in float64); this shoe holds 9,007,199,254,740,993
    """
    raw = np.asarray(counts)
    if raw.dtype.kind == "i" or (raw.dtype.kind == "u" and raw.dtype.itemsize < 8):
        arr = raw.astype(np.int64)
        big = arr.size > 0 and (arr.max() > MAX_FLOAT_CARDS or arr.sum(axis=-1).max() > MAX_FLOAT_CARDS)
    else:  # Python integers past int64 (an object array), or uint64: summed exactly
        rows = [[int(x) for x in row] for row in np.atleast_2d(raw.astype(object))]
        big = any(sum(row) > MAX_FLOAT_CARDS for row in rows)
        arr = np.array(rows, dtype=np.int64).reshape(raw.shape) if not big else raw
    if big:
        rows = [[int(x) for x in row] for row in np.atleast_2d(raw.astype(object))]
        raise ValueError(
            f"the float engine holds shoes of at most 2**53 = {MAX_FLOAT_CARDS:,} cards (every count exact in "
            f"float64); this shoe holds {max(sum(row) for row in rows):,}"
        )
    return arr
