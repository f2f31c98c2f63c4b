"""Argument checks the sizing modules share (numbers that must be finite, positive or non-negative)."""

from __future__ import annotations

import math

import numpy as np


def number(value: object, where: str, low: float = 0.0, strict: bool = False, finite: bool = False) -> float:
    """``value`` as a float at least ``low`` (above it with ``strict``; finite with ``finite``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{where} must be a number, got {value!r}")
    x = float(value)
    if math.isnan(x) or (x <= low if strict else x < low):
        raise ValueError(f"{where} must be {'>' if strict else '>='} {low:g}, got {value!r}")
    if finite and math.isinf(x):
        raise ValueError(f"{where} must be finite, got {value!r}")
    return x


def positive(value: object, where: str) -> float:
    """A positive finite number."""
    return number(value, where, 0.0, strict=True, finite=True)


def finite(value: object, where: str) -> float:
    """Any finite number."""
    return number(value, where, -math.inf, finite=True)
