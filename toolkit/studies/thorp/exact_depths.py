"""The deep end of the Thorp study, exactly: the sampled share of positive edges by depth beside the exact law.

With ``n`` cards unseen, the unseen cards are a uniformly random ``n``-subset of the shoe
(:mod:`toolkit.studies.last_cards`), so the probability that a bet's edge is positive there is
known exactly.  :func:`exact_beside_sampled` puts it beside the study's sampled share at each
depth, with the sample's 95 % Wilson interval, and says whether the interval covers it.

The two are not quite the same quantity: the study samples the edge *before a coup that starts
with n cards unseen*, and whether a coup starts at that depth depends on the values dealt before
(hands of two or three cards, the burn), while the exact table is the law at a fixed depth.  The
selection is weak (the coverage of the intervals, about 95 %, is the check; the tests bound the
difference), and the exact figure is the one the claim is about: the chance of an edge with n
cards left.

>>> from toolkit.studies.thorp.design import ThorpStudy
>>> from toolkit.studies.thorp.run import run_study
>>> study = ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player")).dealt_to_end()
>>> table = exact_beside_sampled(run_study(study, progress=False), "6-8", workers=1, progress=False)
>>> table.columns[:6]
['unseen', 'bet', 'exact_p_positive', 'exact_mean_positive', 'hands', 'p_positive']
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from toolkit.bets.paytable import PayTable
from toolkit.coup.cards import Composition
from toolkit.studies.last_cards import last_cards, needs_ranks, parse_cards_left
from toolkit.studies.thorp.result import StudyResult

__all__ = ["EXACT_BETS", "EXACT_CARDS_LEFT", "EXACT_LAST", "coverage", "exact_beside_sampled", "exact_table"]

#: The bets the exact table is computed for (those of them the study prices): the claim is about these.
EXACT_BETS = ("banker", "player", "tie")
#: The most cards left of the exact table a study's report computes by default: 0.64 million compositions for
#: n = 6..12 on 8 decks, about 4 CPU seconds (n <= 16: 5.3 million, about 35; ``baccarat last-cards --cards-left
#: 6-26`` goes deeper), so that the study's fixed cost stays small beside its shoes.
EXACT_LAST = 12
#: The depths of the exact table by default, ``(6, EXACT_LAST)``; ``baccarat thorp --exact-cards-left 6-26`` (or
#: ``exact_cards_left="6-26"``) takes the table to 26 cards: 254 million compositions, minutes on two cores.
EXACT_CARDS_LEFT = (6, EXACT_LAST)
#: Exact tables already computed in this process, by (decks, bets, rules, last): the figures do not depend on workers.
_COMPUTED: dict[tuple, pl.DataFrame] = {}


def exact_beside_sampled(
    result: StudyResult,
    cards_left: str | int | Sequence[int] = EXACT_CARDS_LEFT,
    workers: int | None = None,
    progress: bool = False,
) -> pl.DataFrame:
    """The exact P(edge > 0) and E[max(edge, 0)] beside the study's sampled ones, per depth of ``cards_left``.

    Parameters
    ----------
    result
        A study run with the ``"unseen"`` observer.
    cards_left
        The depths of the table (unseen cards): ``"6-26"``, a pair ``(6, 26)`` or one depth, at least 6
        (:func:`toolkit.studies.last_cards.parse_cards_left`); past about 16 it costs minutes.
    workers, progress
        As for :func:`toolkit.studies.last_cards.last_cards`.

    Returns
    -------
    polars.DataFrame
        ``unseen``, ``bet``, ``exact_p_positive``, ``exact_mean_positive`` (E[max(edge, 0)]: the perfect
        bettor's gain per hand), then the sample's ``hands``, ``p_positive``, ``p_low``, ``p_high`` (95 %
        Wilson), ``gain_per_hand`` and ``covered`` (the interval holds the exact value); empty when the study
        prices none of :data:`EXACT_BETS` or has no ``"unseen"`` observer.
    """
    exact = exact_table(result, cards_left, workers, progress)
    if exact is None:
        return pl.DataFrame(schema=_SCHEMA)
    exact = exact.filter(pl.col("bet") != "best")
    sampled = result.by_unseen().filter(pl.col("observer") == "unseen")
    return (
        exact.select(
            pl.col("cards_left").cast(pl.Int32).alias("unseen"),
            "bet",
            pl.col("p_positive").alias("exact_p_positive"),
            pl.col("mean_positive").alias("exact_mean_positive"),
        )
        .join(
            sampled.select("unseen", "bet", "hands", "p_positive", "p_low", "p_high", "gain_per_hand"),
            on=["unseen", "bet"],
            how="left",
        )
        .with_columns(
            covered=(pl.col("p_low") <= pl.col("exact_p_positive")) & (pl.col("exact_p_positive") <= pl.col("p_high"))
        )
        .sort("bet", "unseen")
    )


def exact_table(
    result: StudyResult,
    cards_left: str | int | Sequence[int] = EXACT_CARDS_LEFT,
    workers: int | None = None,
    progress: bool = False,
) -> pl.DataFrame | None:
    """The frame of :func:`toolkit.studies.last_cards.last_cards` for the study's shoe, rules and bets among
    :data:`EXACT_BETS` (with ``best``), computed once per process; ``None`` when the study prices none of them or
    has no ``"unseen"`` observer.  Parameters as for :func:`exact_beside_sampled`."""
    depths = parse_cards_left(cards_left, "exact cards left")
    study = result.study
    bets = [b for b in study.bets or () if isinstance(b, PayTable) and b.name in EXACT_BETS and not needs_ranks(b)]
    if not bets or "unseen" not in study.observers:
        return None
    full = Composition.from_decks(study.dealing.decks)
    if depths[1] > full.total:
        raise ValueError(f"exact cards left must be at most the shoe's {full.total} cards, got {depths[1]}")
    key = (study.dealing.decks, tuple(bets), study.rules, depths)
    if key not in _COMPUTED:
        frame = last_cards(full, depths, bets, rules=study.rules, workers=workers, progress=progress)
        if len(_COMPUTED) >= 8:  # a few small tables at most: memory stays flat
            _COMPUTED.clear()
        _COMPUTED[key] = frame
    return _COMPUTED[key]


def coverage(table: pl.DataFrame) -> tuple[int, int]:
    """``(covered, cells)``: how many sampled intervals (depths with hands) hold the exact value."""
    seen = table.filter(pl.col("hands").is_not_null() & (pl.col("hands") > 0))
    return int(seen["covered"].sum()), seen.height


_SCHEMA = {
    "unseen": pl.Int32,
    "bet": pl.String,
    "exact_p_positive": pl.Float64,
    "exact_mean_positive": pl.Float64,
    "hands": pl.Int64,
    "p_positive": pl.Float64,
    "p_low": pl.Float64,
    "p_high": pl.Float64,
    "gain_per_hand": pl.Float64,
    "covered": pl.Boolean,
}
