"""The implied count: which count system, with which trigger, best explains when and how much a seat bets.

The candidates are the library's count systems (:func:`toolkit.counting.count_systems`)
and integer tags fitted to the seat's stakes.  **The fit**: the seat's stake at
each coup is regressed (ordinary least squares) on the cards of each value seen
beyond their share, per deck left (``x_v = (u p_v - unseen_v) / (left / 52)``,
``u`` the unseen cards and ``p_v`` the full shoe's share of value ``v``), so that
a seat betting by a balanced linear count ``sum(tag_v * seen_v) / decks`` has
coefficients in proportion to its tags; the coefficients are balanced
(``sum(p_v * b_v) = 0``) and scaled so that the largest is 1, 2 or 3, and
rounded.  Each candidate's true count before every coup is ranked against the
stake (Spearman's rho); the best rho names the implied count.  Its **trigger**
is the true count that best separates the coups staked above the seat's least
stake from the others (largest ``TPR - FPR``, Youden's J).

When a seat's stakes follow any count linearly, the fitted tags recover that
count's signs (Brillinger's theorem: for a single-index model with elliptical
regressors, least squares is proportional to the index).

References
----------
D. R. Brillinger, "A generalized linear model with 'Gaussian' regressor variables", in *A Festschrift for
Erich L. Lehmann*, Wadsworth (1982) 97-114; W. J. Youden, "Index for rating diagnostic tests", *Cancer* 3
(1950) 32-35; P. Griffin, *The Theory of Blackjack*, 6th ed. (1999), ch. 4 (counts as linear estimates).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from toolkit.counting import CountSystem, count_arrays, count_systems

__all__ = ["ImpliedCount", "fit_tags", "implied_count", "trigger"]

#: Cards of each value 0..9 in one deck (the tens and faces are worth 0).
_PER_DECK = np.array([16, 4, 4, 4, 4, 4, 4, 4, 4, 4], dtype=np.float64)
#: Rank index (A, 2..9, T, J, Q, K) to value 0..9.
_VALUE_OF_RANK = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0])


@dataclass(frozen=True)
class ImpliedCount:
    """The count that best explains a seat's stakes.

    Attributes
    ----------
    system
        The library system's name, or ``"fitted"`` for the tags fitted to the seat.
    tags_by_value
        Its tags for the values 0..9.
    trigger
        The true count at which the seat's stake rises (``None`` when it never varies).
    rho
        Spearman's rank correlation of the system's true count and the stake.
    """

    system: str
    tags_by_value: tuple[int, ...]
    trigger: float | None
    rho: float

    def as_dict(self) -> dict[str, object]:
        """Plain data, for JSON."""
        return {
            "system": self.system,
            "tags_by_value": list(self.tags_by_value),
            "trigger": self.trigger,
            "rho": self.rho,
        }


def _by_value(unseen: np.ndarray) -> np.ndarray:
    """``(n, 13)`` counts by rank to ``(n, 10)`` by value."""
    out = np.zeros((unseen.shape[0], 10))
    np.add.at(out.T, _VALUE_OF_RANK, unseen.T.astype(np.float64))
    return out


def fit_tags(unseen: np.ndarray, left: np.ndarray, stakes: np.ndarray, largest: int) -> tuple[int, ...] | None:
    """Integer tags by value 0..9 fitted to the stakes (see the module notes); ``None`` when nothing varies.

    Parameters
    ----------
    unseen
        ``(n, 13)`` unseen cards by rank before each coup.
    left
        Cards left in the shoe before each coup.
    stakes
        The seat's stake at each coup (0 where it did not bet).
    largest
        The largest tag, in absolute value.
    """
    values = _by_value(np.asarray(unseen))
    total = values.sum(axis=1, keepdims=True)
    share = _PER_DECK / _PER_DECK.sum()
    x = (total * share - values) / (np.asarray(left, dtype=np.float64)[:, None] / 52)
    y = np.asarray(stakes, dtype=np.float64)
    if len(y) < 3 or np.ptp(y) == 0:
        return None
    design = np.column_stack([np.ones(len(y)), x])
    # the normal equations (11 x 11; the pseudo-inverse takes the null direction of the balanced features)
    beta = (np.linalg.pinv(design.T @ design) @ (design.T @ y))[1:]
    beta = beta - share @ beta
    top = np.abs(beta).max()
    if not np.isfinite(top) or top == 0:
        return None
    return tuple(int(t) for t in np.rint(beta * largest / top))


def trigger(count: np.ndarray, stakes: np.ndarray) -> float | None:
    """The count that best separates the coups staked above the least stake from the rest (Youden's J).

    >>> trigger(np.array([0.0, 1.0, 4.2, 5.0, 2.0]), np.array([1, 1, 8, 8, 1]))
    4.2
    """
    count = np.asarray(count, dtype=np.float64)
    high = np.asarray(stakes) > np.min(stakes)
    if high.all() or not high.any():
        return None
    order = np.argsort(-count, kind="stable")
    c, h = count[order], high[order]
    tpr = np.cumsum(h) / h.sum()
    fpr = np.cumsum(~h) / (~h).sum()
    last = np.r_[c[1:] != c[:-1], True]  # a threshold takes every coup at that count
    j = np.where(last, tpr - fpr, -np.inf)
    return round(float(c[int(np.argmax(j))]), 2)


def _rho(count: np.ndarray, stakes: np.ndarray) -> float:
    from scipy.stats import spearmanr

    if np.ptp(count) == 0 or np.ptp(stakes) == 0:
        return float("nan")
    return float(spearmanr(count, stakes).statistic)


def implied_count(
    unseen: np.ndarray,
    left: np.ndarray,
    decks: np.ndarray,
    stakes: np.ndarray,
    systems: Sequence[CountSystem] | None = None,
) -> ImpliedCount | None:
    """The count among the library's and the fitted tags whose true count ranks best with the stakes.

    Parameters
    ----------
    unseen
        ``(n, 13)`` unseen cards by rank before each coup the seat was at.
    left
        Cards left in the shoe before each coup.
    decks
        Decks of each coup's shoe.
    stakes
        The seat's stake at each coup (0 where it did not bet).
    systems
        The candidates besides the fitted tags (default: the library's).

    Returns
    -------
    ImpliedCount or None
        ``None`` when the stakes never vary (nothing to explain).
    """
    stakes = np.asarray(stakes, dtype=np.float64)
    if len(stakes) < 3 or np.ptp(stakes) == 0:
        return None
    candidates = list(count_systems() if systems is None else systems)
    for largest in (1, 2, 3):
        tags = fit_tags(unseen, left, stakes, largest)
        if tags is not None and any(tags):
            candidates.append(CountSystem(f"fitted_{largest}", tags))
    best: tuple[float, CountSystem, np.ndarray] | None = None
    for system in candidates:
        _, tc = count_arrays(system, unseen, decks, None, left)
        rho = _rho(tc, stakes)
        if np.isfinite(rho) and (best is None or rho > best[0] + 1e-12):
            best = (rho, system, tc)
    if best is None:
        return None
    rho, system, tc = best
    name = "fitted" if system.name.startswith("fitted_") else system.name
    by_value = tuple(system.tags[_VALUE_OF_RANK.tolist().index(v)] for v in range(10))
    return ImpliedCount(name, by_value, trigger(tc, stakes), rho)
