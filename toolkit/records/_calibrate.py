"""What every randomness test returns (:class:`TestResult`), and the simulated shoes they are calibrated on.

A baseline (:func:`baseline`) is shoes shuffled and dealt under the record's own
rules; a test compares a statistic of the record with its distribution over the
baseline (:func:`_against_baseline` for a per-shoe mean).  Used by
:mod:`toolkit.records.randomness`.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from toolkit._show import frame_html, frame_text, html_table, text_table
from toolkit.coup.options import HiddenBurn
from toolkit.parallel import SeedLike
from toolkit.records.header import ShoeHeader
from toolkit.records.model import Records
from toolkit.records.simulate import simulate_records

__all__ = ["TestResult", "baseline"]


@dataclass(frozen=True)
class TestResult:
    """One randomness test of a record.

    Attributes
    ----------
    test
        Its name.
    statistic
        The test statistic (a chi-square, or a z score for the baseline tests).
    p_value
        Probability of a statistic at least this extreme under a fair shuffle.
    df
        Degrees of freedom of a chi-square (``None`` for z scores).
    shoes
        Shoes used.
    detail
        The observed and expected values behind the statistic.
    table
        A frame of those values (for plots and reports).
    """

    __test__ = False  # not a pytest test class

    test: str
    statistic: float
    p_value: float
    df: int | None
    shoes: int
    detail: str
    table: pl.DataFrame

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        title = (
            f"TestResult {self.test!r}: statistic {self.statistic:.4g}, p = {self.p_value:.4g} ({self.shoes:,} shoes)"
        )
        return title, [("detail", self.detail), ("df", self.df)]

    def __repr__(self) -> str:
        """The statistic, its p-value and what it was computed from, in a few lines."""
        title, rows = self._shown()
        return text_table(title, rows) + "\n" + frame_text("table", self.table, max_rows=6)

    def _repr_html_(self) -> str:
        title, rows = self._shown()
        return html_table(title, rows) + frame_html("table", self.table)

    def row(self) -> dict[str, object]:
        """The result as one row of :func:`randomness_tests` (without the table).

        Returns
        -------
        dict
            ``test, statistic, p_value, df, shoes, detail``.
        """
        return {
            "test": self.test,
            "statistic": self.statistic,
            "p_value": self.p_value,
            "df": self.df,
            "shoes": self.shoes,
            "detail": self.detail,
        }


def _common_header(records: Records) -> ShoeHeader:
    """The header most shoes of the record share (burn card cleared)."""
    if not records.headers:
        return replace(records.header, burn_card=None)
    counts = Counter(replace(h, burn_card=None, hidden_burn=HiddenBurn.AUTO) for h in records.headers)
    return counts.most_common(1)[0][0]


def baseline(records: Records, n_shoes: int = 2000, seed: SeedLike = None) -> Records:
    """Shoes shuffled and dealt under the rules of ``records`` (its most common header), for calibration.

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    n_shoes
        Shoes simulated.
    seed
        Seeds :func:`toolkit.records.simulate.simulate_records` (a Generator's next draw seeds the shoes).

    Returns
    -------
    Records
        The simulated shoes.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> baseline(simulate_records(2, seed=1), 5, seed=2).n_shoes
    5
    """
    return simulate_records(n_shoes, _common_header(records), seed=seed)


def _baseline(records: Records, base: Records | None, seed: SeedLike) -> Records:
    return base if base is not None else baseline(records, seed=seed)


#: Per-shoe statistics of the baselines alive, by the baseline's identity and the statistic's key: a baseline is
#: compared with record after record (1,500 shoes' statistics in each call otherwise); dropped with the baseline.
_REFERENCE: dict[int, dict[object, np.ndarray]] = {}


def _reference(base: Records, key: object, compute: Callable[[Records], np.ndarray]) -> np.ndarray:
    """``compute(base)``, computed once while ``base`` lives (read-only: every later call shares it)."""
    held = _REFERENCE.get(id(base))
    if held is None:
        held = _REFERENCE[id(base)] = {}
        weakref.finalize(base, _REFERENCE.pop, id(base), None)
    if key not in held:
        value = np.asarray(compute(base))
        value.flags.writeable = False
        held[key] = value
    return held[key]


def _against_baseline(name: str, values: np.ndarray, reference: np.ndarray, shoes: int, what: str) -> TestResult:
    """z score of the mean of per-shoe values against the baseline's mean and spread (independent shoes)."""
    from scipy import stats

    values = values[np.isfinite(values)]
    reference = reference[np.isfinite(reference)]
    # a baseline of fewer than two finite values (one-deck shoes too short for a 52-card window) has no spread
    mean_b = float(reference.mean()) if len(reference) else float("nan")
    sd_b = float(reference.std(ddof=1)) if len(reference) > 1 else float("nan")
    n = len(values)
    if n == 0 or not sd_b > 0:
        z, p = float("nan"), float("nan")
    else:
        z = (float(values.mean()) - mean_b) / (sd_b / np.sqrt(n))
        p = float(2 * stats.norm.sf(abs(z)))
    table = pl.DataFrame(
        {
            "sample": ["record", "baseline"],
            "mean": [float(values.mean()) if n else None, mean_b],
            "sd": [float(values.std(ddof=1)) if n > 1 else None, sd_b],
            "shoes": [n, len(reference)],
        }
    )
    detail = f"mean {what} {values.mean() if n else float('nan'):.3f} per shoe; baseline {mean_b:.3f} (sd {sd_b:.3f})"
    return TestResult(name, z, p, None, shoes, detail, table)
