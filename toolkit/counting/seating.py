"""Who is seated, and on which step of a thresholds table, as the computed count's chain reads it
(:mod:`toolkit.counting.computed`): a back-counter's rule (:class:`SeatRule`, exported there) and the table as the
ramp's shift by cards out or by coup, with the coups the chain counts by coup (:func:`_table`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from toolkit.counting.strategies import CountPlay

__all__ = ["SeatRule"]


@dataclass(frozen=True)
class SeatRule:
    """Back-counting: when the counter is seated (the rule of :class:`toolkit.sizing.plays.BackCount`).

    The counter watches each shoe and sits before coup ``entry_coup`` if the count is then at least ``entry``
    (otherwise skips the shoe), and leaves it for good before the first later coup at which the count is below
    ``exit``; the count is the play's system's true or running count (``count``).

    Attributes
    ----------
    entry_coup
        The coup (1 the first of the shoe) before which the counter decides to sit.
    entry, exit
        The count to sit at and the count to leave below.
    count
        ``"true"`` or ``"running"``.
    """

    entry_coup: int
    entry: float
    exit: float = -math.inf
    count: str = "true"

    def __post_init__(self) -> None:
        if isinstance(self.entry_coup, bool) or not isinstance(self.entry_coup, (int, np.integer)):
            raise TypeError(f"SeatRule.entry_coup must be an integer, got {self.entry_coup!r}")
        if self.entry_coup < 1:
            raise ValueError(f"SeatRule.entry_coup must be at least 1, got {self.entry_coup}")
        for name in ("entry", "exit"):
            x = getattr(self, name)
            if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) or math.isnan(x):
                raise ValueError(f"SeatRule.{name} must be a number, got {x!r}")
            object.__setattr__(self, name, float(x))
        if self.count not in ("true", "running"):
            raise ValueError(f"SeatRule.count must be one of true, running, got {self.count!r}")

    def describe(self) -> str:
        """The rule in a phrase (as :meth:`toolkit.sizing.plays.BackCount.describe`)."""
        kind = "TC" if self.count == "true" else "RC"
        return f"join at coup {self.entry_coup} if {kind} >= {self.entry:g}, leave below {self.exit:g}"


def _table(play: CountPlay, full: int, seat: SeatRule | None, fixed: int = 0) -> tuple[np.ndarray, SeatRule | None]:
    """The thresholds table as the ramp's shift (:meth:`CountPlay.stakes`: the count less the table's threshold less
    the ramp's) by cards out ``(1, full + 1)``, or by coup ``(E, full + 1)`` (row 0 the coups from ``E`` on, row
    ``c`` coup ``c``), ``E`` the table's last step (or the shoe's most coups plus one, if fewer), with the seat: a
    back-counter's, whose seated coups before ``E`` bet from their layers by coup, or one that sits at the first
    coup whatever the count and never leaves; a table whose last step is at or before a back-counter's entry coup
    is one row (every seated coup bets on its last step).  With ``fixed`` coups dealt, ``E`` is the first coup not
    dealt, every coup counted by coup (a back-counter who would sit later never sits)."""
    system, out = play.system, np.arange(full + 1)
    if fixed:
        coups = np.repeat(np.arange(fixed + 1)[:, None], full + 1, axis=1)
        coups[0] = fixed + 1
        shift = system.threshold_at(coups, np.broadcast_to(out, coups.shape)) - play.ramp.threshold
        if seat is not None and seat.entry_coup > fixed:
            seat = SeatRule(fixed + 1, math.inf)
        return (shift if system.thresholds else np.zeros(coups.shape)), seat or SeatRule(1, -math.inf)
    if not system.thresholds:
        return np.zeros((1, full + 1)), seat
    if system.threshold_by == "cards_dealt":
        return (system.threshold_at(np.ones_like(out), out) - play.ramp.threshold)[None], seat
    last = max([a for a, _ in system.thresholds if a <= full // 4], default=0)  # a shoe deals at most full // 4
    if seat is not None and seat.entry_coup >= last:
        coups = np.array([seat.entry_coup])
    else:
        coups = np.arange(max(1, last))
        coups[0] = max(last, 1)
    shift = system.threshold_at(coups, np.zeros_like(coups)) - play.ramp.threshold
    if seat is None and last > 1:
        seat = SeatRule(1, -math.inf)
    return np.repeat(shift[:, None], full + 1, axis=1), seat
