"""The engine's tables as polars frames: outcome classes with their probabilities, EVs named by bet.

:mod:`toolkit.exact.engine` returns arrays (fast, for loops over many shoes); the
functions here return the same numbers as frames a researcher reads at a
glance, with the outcome classes' fields (:func:`toolkit.coup.outcome.outcome_frame`)
or the bets' names as columns.

>>> distribution_frame(8).height < 1600
True
"""

from __future__ import annotations

import polars as pl

from toolkit.coup.cards import CompositionLike
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.exact.engine import combination_counts, distribution

__all__ = ["combination_counts_frame", "distribution_frame"]


def distribution_frame(
    shoe: CompositionLike = 8, tableau: Tableau = PUNTO_BANCO, exact: bool = False, drop_zero: bool = True
) -> pl.DataFrame:
    """:func:`distribution` as a polars frame: the outcome classes with their fields and probabilities.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`Composition.from_any` accepts); at least six.
    tableau
        Drawing rules.
    exact
        Also give each probability as an exact fraction (column ``probability_exact``, text ``"n/d"``).
    drop_zero
        Leave out the classes that cannot occur (probability 0): 1,600 classes, about 500 reachable.

    Returns
    -------
    polars.DataFrame
        The columns of :func:`toolkit.coup.outcome.outcome_frame` (``class, player_total, banker_total,
        ..., winner, natural, margin, cards_dealt``), then ``probability`` (float) and, with
        ``exact``, ``probability_exact``.

    See Also
    --------
    distribution : the same probabilities, labelled, as a vector.

    Examples
    --------
    >>> frame = distribution_frame(8)
    >>> frame.group_by("winner").agg(pl.col("probability").sum()).sort("winner")["probability"].round(6).to_list()
    [0.458597, 0.446247, 0.095156]
    """
    return distribution(shoe, tableau, exact=exact).frame(drop_zero)


def combination_counts_frame(shoe: CompositionLike = 8, tableau: Tableau = PUNTO_BANCO) -> pl.DataFrame:
    """:func:`combination_counts` as a polars frame: one row per result, with its probability.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`Composition.from_any` accepts); at least six.
    tableau
        Drawing rules.

    Returns
    -------
    polars.DataFrame
        ``result`` (``"banker"``, ``"player"``, ``"tie"``, ``"total"``),
        ``combinations`` (ordered six-card deals, as in the Wizard of Odds
        tables; 128-bit integers) and ``probability``.

    References
    ----------
    The Wizard of Odds, "Baccarat": the combinations table of the eight-deck game.

    Examples
    --------
    >>> combination_counts_frame(8)["combinations"].to_list()
    [2292252566437888, 2230518282592256, 475627426473216, 4998398275503360]
    """
    counts = combination_counts(shoe, tableau)
    keys = ("banker", "player", "tie", "total")
    return pl.DataFrame(
        {
            "result": list(keys),
            "combinations": pl.Series([counts[k] for k in keys], dtype=pl.Int128),
            "probability": [counts[k] / counts["total"] for k in keys],
        }
    )
