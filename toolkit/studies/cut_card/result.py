"""The result of a cut-card study: the effect of every rule on every bet, with delta-method intervals.

For a rule and a bet, per shoe ``Y`` is the sum of ``EV - EV_fresh`` over the
coups dealt, ``N`` their number and ``C`` the vector of control variates
(mean zero exactly, see :mod:`toolkit.studies.cut_card.tally`).  The effect is
the ratio of means ``θ = E[Y] / E[N]``: the average exact expectation of the
coups dealt, less the fresh-shoe edge.  Shoes are independent, so with ``n``
shoes the ratio estimator ``Ȳ / N̄`` has the delta-method variance
``Var(Y - θN) / (n N̄²)``; with the controls, ``Y`` is replaced by
``Y - βᵀC`` for the ``β`` that minimises that variance (a regression of
``Y - θN`` on ``C``, estimated from the same shoes; its bias is of order
``1/n``), which leaves ``θ``'s expectation unchanged since ``E[C] = 0``.
The per-shoe effect ``E[Y]`` (win per shoe less the fresh edge times the
coups) gets the same control.

References
----------
Cochran, W. G., *Sampling Techniques*, 3rd ed., Wiley, 1977, §6.3 (the ratio estimator's variance).
Glasserman, P., *Monte Carlo Methods in Financial Engineering*, Springer, 2004, §4.1 (control variates).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from toolkit.studies.cut_card.design import CutCardStudy
from toolkit.studies.cut_card.tally import FROM_END, CutCardTally

__all__ = ["Z_95", "CutCardResult", "check_z"]

#: The two-sided 95% normal quantile.
Z_95 = 1.959963984540054


def check_z(z: float) -> float:
    """``z`` as a float when it is a finite, positive normal quantile; :class:`ValueError` (or TypeError) else.

    >>> check_z(1.96)
    1.96
    >>> check_z(float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: z must be a finite positive normal quantile (1.96 for 95% intervals), got nan
    """
    if isinstance(z, bool) or not isinstance(z, (int, float, np.integer, np.floating)):
        raise TypeError(f"z must be a number, got {z!r}")
    if not (np.isfinite(z) and z > 0):
        raise ValueError(f"z must be a finite positive normal quantile (1.96 for 95% intervals), got {z!r}")
    return float(z)


def _moments(tally: CutCardTally, b: int) -> tuple[int, np.ndarray, np.ndarray]:
    n = int(tally.arrays["shoes"][0])
    mean = tally.arrays["z_sum"][b] / n
    cov = (tally.arrays["z_cross"][b] / n - np.outer(mean, mean)) * (n / max(n - 1, 1))
    return n, mean, cov


def controlled(
    value: float, g: np.ndarray, mean: np.ndarray, cov: np.ndarray, controls: list[int]
) -> tuple[float, float]:
    """``(estimate, standard error × √n)`` of a smooth function of means, with control variates of mean zero.

    Parameters
    ----------
    value
        The plain estimate (the function at the sample means).
    g
        Its gradient in the means: the estimate varies as ``gᵀ z`` per shoe (the delta method).
    mean, cov
        Sample means and covariance of the per-shoe vector ``z``.
    controls
        Indices of the control variates: ``value - βᵀ mean_c`` with ``β`` minimising the variance.

    Returns
    -------
    tuple of float
    """
    var = float(g @ cov @ g)
    if controls:
        c = np.array(controls)
        cc = cov[np.ix_(c, c)]
        gc = cov[c] @ g
        keep = np.diag(cc) > 0
        if keep.any():
            beta = np.linalg.lstsq(cc[np.ix_(keep, keep)], gc[keep], rcond=None)[0]
            value -= float(beta @ mean[c[keep]])
            var -= float(gc[keep] @ beta)
    return float(value), float(np.sqrt(max(var, 0.0)))


def _ratio_gradient(mean: np.ndarray, y: int, m: int) -> tuple[float, np.ndarray]:
    denominator = 1.0 if m < 0 else mean[m]
    theta = mean[y] / denominator
    g = np.zeros(len(mean))  # the linearised estimator: (z_y - θ z_m) / E[z_m]
    g[y] += 1.0 / denominator
    if m >= 0:
        g[m] -= theta / denominator
    return float(theta), g


def ratio_estimate(mean: np.ndarray, cov: np.ndarray, y: int, m: int, controls: list[int]) -> tuple[float, float]:
    """``(θ, standard error × √n)`` of ``E[z_y] / E[z_m]`` with controls ``z_c`` of mean zero.

    Parameters
    ----------
    mean, cov
        Sample means and covariance of the per-shoe vector ``z``.
    y, m
        Indices of the numerator and the denominator (``m = -1``: no denominator, the mean of ``z_y``).
    controls
        Indices of the control variates.

    Returns
    -------
    tuple of float
        The estimate and its standard error times the square root of the number of shoes.
    """
    theta, g = _ratio_gradient(mean, y, m)
    return controlled(theta, g, mean, cov, controls)


def ratio_difference(
    mean: np.ndarray, cov: np.ndarray, first: tuple[int, int], second: tuple[int, int], controls: list[int]
) -> tuple[float, float]:
    """``(θ₁ - θ₂, standard error × √n)`` of two ratios of means of the same shoes (paired).

    Parameters
    ----------
    mean, cov
        Sample means and covariance of the per-shoe vector ``z``.
    first, second
        ``(numerator, denominator)`` indices of each ratio.
    controls
        Indices of the control variates.

    Returns
    -------
    tuple of float
    """
    t1, g1 = _ratio_gradient(mean, *first)
    t2, g2 = _ratio_gradient(mean, *second)
    return controlled(t1 - t2, g1 - g2, mean, cov, controls)


@dataclass(frozen=True)
class CutCardResult:
    """A run of a :class:`CutCardStudy`: its tally and the tables derived from it.

    Attributes
    ----------
    study
        What was dealt.
    tally
        The sums (:class:`~toolkit.studies.cut_card.tally.CutCardTally`).
    fresh
        The fresh-shoe edge of each bet.
    wall_seconds
        How long the run took.
    """

    study: CutCardStudy
    tally: CutCardTally
    fresh: tuple[float, ...]
    wall_seconds: float = 0.0

    @property
    def n_shoes(self) -> int:
        return int(self.tally.arrays["shoes"][0])

    def table(self, controls: bool = True, z: float = Z_95) -> pl.DataFrame:
        """One row per rule and bet: the effect and its interval.

        Columns: ``rule, bet, fresh_edge, dealt_edge, effect, ci_low, ci_high, coups_per_shoe, shoes`` and
        ``se`` (the effect's standard error), ``se_plain`` (without the control variates),
        ``per_shoe_effect``, ``per_shoe_se`` (``E[Y]``, the win per shoe less fresh edge times coups).

        Parameters
        ----------
        controls
            Use the control variates.
        z
            The normal quantile of the interval (default: 95%).

        Returns
        -------
        polars.DataFrame
        """
        z = check_z(z)
        labels, names = self.study.rule_labels, self.study.bet_names
        n_rules = len(labels)
        rows = []
        for b, bet in enumerate(names):
            n, mean, cov = _moments(self.tally, b)
            cv = list(range(2 * n_rules, len(mean))) if controls else []
            for r, label in enumerate(labels):
                theta, s = ratio_estimate(mean, cov, r, n_rules + r, cv)
                _, plain = ratio_estimate(mean, cov, r, n_rules + r, [])
                per_shoe, per_s = ratio_estimate(mean, cov, r, -1, cv)
                se = s / np.sqrt(n)
                rows.append(
                    {
                        "rule": label,
                        "bet": bet,
                        "fresh_edge": self.fresh[b],
                        "dealt_edge": self.fresh[b] + theta,
                        "effect": theta,
                        "ci_low": theta - z * se,
                        "ci_high": theta + z * se,
                        "coups_per_shoe": float(mean[n_rules + r]),
                        "shoes": n,
                        "se": se,
                        "se_plain": plain / np.sqrt(n),
                        "per_shoe_effect": per_shoe,
                        "per_shoe_se": per_s / np.sqrt(n),
                    }
                )
        return pl.DataFrame(rows)

    def differences(self, baseline: str, controls: bool = True, z: float = Z_95) -> pl.DataFrame:
        """Each rule's effect less ``baseline``'s, on the same shoes (a paired delta-method interval).

        Columns: ``rule, baseline, bet, difference, ci_low, ci_high, se``.

        Parameters
        ----------
        baseline
            A rule label (:attr:`CutCardStudy.rule_labels`), e.g. ``"coups60"``.
        controls
            Use the control variates.
        z
            The normal quantile of the interval.

        Returns
        -------
        polars.DataFrame
        """
        z = check_z(z)
        labels = self.study.rule_labels
        if baseline not in labels:
            raise ValueError(f"differences: baseline {baseline!r} is not a rule of the study ({', '.join(labels)})")
        base, n_rules = labels.index(baseline), len(labels)
        rows = []
        for b, bet in enumerate(self.study.bet_names):
            n, mean, cov = _moments(self.tally, b)
            cv = list(range(2 * n_rules, len(mean))) if controls else []
            for r, label in enumerate(labels):
                if r == base:
                    continue
                d, s = ratio_difference(mean, cov, (r, n_rules + r), (base, n_rules + base), cv)
                se = s / np.sqrt(n)
                rows.append(
                    {"rule": label, "baseline": baseline, "bet": bet, "difference": d}
                    | {"ci_low": d - z * se, "ci_high": d + z * se, "se": se}
                )
        return pl.DataFrame(rows)

    def exchangeability(self) -> pl.DataFrame:
        """The coup started at a fixed card index: mean ``EV(shoe[k:]) - EV_fresh`` per index and bet.

        By exchangeability the cards left after ``k`` uniformly random cards are a uniformly random set, so
        every mean is zero up to its standard error.  Columns: ``index, cards_left, bet, mean, se, z``.
        """
        n = self.n_shoes
        ks = self.study.control_indices()
        rows = []
        for b, bet in enumerate(self.study.bet_names):
            s, s2 = self.tally.arrays["index_sum"][b], self.tally.arrays["index_sum2"][b]
            mean = s / n
            se = np.sqrt(np.maximum(s2 / n - mean * mean, 0.0) / max(n - 1, 1))
            for i, k in enumerate(ks):
                z = mean[i] / se[i] if se[i] > 0 else 0.0
                rows.append(
                    {"index": int(k), "cards_left": int(self.study.dealing.cards - k), "bet": bet}
                    | {"mean": float(mean[i]), "se": float(se[i]), "z": float(z)}
                )
        return pl.DataFrame(rows)

    def by_coup(self) -> pl.DataFrame:
        """Mean ``EV - EV_fresh`` of the coups dealt, by coup number: ``rule, bet, coup, coups, mean``."""
        a = self.tally.arrays
        rows = []
        for r, label in enumerate(self.study.rule_labels):
            for b, bet in enumerate(self.study.bet_names):
                for j in np.flatnonzero(a["by_coup_n"][r]):
                    count = int(a["by_coup_n"][r, j])
                    rows.append({"rule": label, "bet": bet, "coup": int(j), "coups": count})
                    rows[-1]["mean"] = float(a["by_coup_sum"][r, b, j] / count)
        return pl.DataFrame(rows)

    def from_end(self) -> pl.DataFrame:
        """Mean ``EV - EV_fresh`` of the shoe's last coups (``back`` 0: the last): ``rule, bet, back, coups,
        mean``."""
        a = self.tally.arrays
        rows = [
            {"rule": label, "bet": bet, "back": j, "coups": int(a["from_end_n"][r, j])}
            | {"mean": float(a["from_end_sum"][r, b, j] / max(a["from_end_n"][r, j], 1))}
            for r, label in enumerate(self.study.rule_labels)
            for b, bet in enumerate(self.study.bet_names)
            for j in range(FROM_END)
        ]
        return pl.DataFrame(rows)

    def coups_per_shoe(self) -> pl.DataFrame:
        """Shoes by coups dealt under each rule: ``rule, coups, shoes``."""
        hist = self.tally.arrays["coups_hist"]
        rows = [
            {"rule": label, "coups": int(j), "shoes": int(hist[r, j])}
            for r, label in enumerate(self.study.rule_labels)
            for j in np.flatnonzero(hist[r])
        ]
        return pl.DataFrame(rows)
