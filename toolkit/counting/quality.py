"""How good a count is for a bet: counts built from effects of removal, betting correlation, count quality.

:func:`eor_count` scales a bet's effects of removal (:func:`toolkit.edges.eor.effect_of_removal`)
into integer tags; :func:`betting_correlation` is the card-weighted Pearson
correlation of a count's tags with those effects; :func:`count_quality` measures,
over dealt shoes, how much of the exact edge before each coup a linear function
of the count explains.

>>> round(betting_correlation("dragon7", "dragon7"), 3)
0.964
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from toolkit._check import positive_int
from toolkit.bets.base import Bet
from toolkit.bets.paytable import PayTable
from toolkit.counting.systems import CountSystem, TagsLike, get_count_system, resolve_bet, tags_by_rank
from toolkit.counting.tallies import PreCoup
from toolkit.coup.cards import CompositionLike
from toolkit.coup.rules import Rules

if TYPE_CHECKING:
    from toolkit.dealing.dealer import DealtShoes

__all__ = ["betting_correlation", "count_quality", "eor_count"]


def _eor_by_rank(bet: Bet, shoe: CompositionLike, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Cards of each rank in ``shoe`` and the bet's effect of removing one of them."""
    from toolkit.edges.eor import effect_of_removal

    table = effect_of_removal(shoe, bets=[bet], rules=rules, by="rank")
    return table["count"].to_numpy().astype(np.float64), table["eor"].fill_null(0.0).to_numpy()


def eor_count(
    bet: PayTable | str,
    levels: int = 2,
    shoe: CompositionLike = 8,
    rules: Rules = Rules(),
    name: str | None = None,
    **fields: Any,
) -> CountSystem:
    """A count whose tags are a bet's effects of removal, scaled and rounded to ``-levels..+levels``.

    The card whose removal moves the bet most gets ``±levels``; tags are
    proportional to the EOR (removing a card that helps the bet scores +).
    Other :class:`~toolkit.counting.systems.CountSystem` fields (``threshold``,
    ``divisor``...) pass through.

    Parameters
    ----------
    bet
        The bet (a :class:`~toolkit.bets.Bet` or a standard bet's name).
    levels
        The largest tag.
    shoe
        The shoe the effects of removal are taken from.
    rules
        House rules pricing the bet.
    name
        The system's name (default ``eor_<bet>_<levels>``).
    **fields
        Other :class:`~toolkit.counting.systems.CountSystem` fields.

    Returns
    -------
    toolkit.counting.systems.CountSystem
        The count.

    References
    ----------
    Griffin, *The Theory of Blackjack* (6th ed., 1999): counts from effects of removal.

    Examples
    --------
    >>> eor_count("dragon7", levels=2).tags_by_value
    (0, 0, 0, 0, -1, -1, -1, -1, 2, 2)
    """
    levels = positive_int(levels, "levels")
    b = resolve_bet(bet, rules)
    _, eor = _eor_by_rank(b, shoe, rules)
    top = np.abs(eor).max()
    if top == 0:
        raise ValueError(f"bet {b.name!r}: every effect of removal is zero; no count can follow it")
    tags = np.sign(eor) * np.floor(np.abs(eor) / top * levels + 0.5)
    return CountSystem(
        name or f"eor_{b.name}_{levels}",
        tuple(int(t) for t in tags),
        bet=fields.pop("bet", b.name),
        source=f"effects of removal of {b.name} scaled to +-{levels}",
        **fields,
    )


def betting_correlation(
    tags: CountSystem | str | TagsLike, bet: PayTable | str, shoe: CompositionLike = 8, rules: Rules = Rules()
) -> float:
    """Betting correlation: Pearson correlation of the tags with the bet's EOR, weighted by the cards in the shoe.

    1 means the count tracks the bet's expectation as well as a linear count can.
    ``tags`` is a count system, the name of a published one, or tags as
    :class:`~toolkit.counting.systems.CountSystem` takes them.

    Parameters
    ----------
    tags
        A :class:`~toolkit.counting.systems.CountSystem`, a published system's name, or tags.
    bet
        The bet (a :class:`~toolkit.bets.Bet` or a standard bet's name).
    shoe
        The shoe the effects of removal are taken from.
    rules
        House rules pricing the bet.

    Returns
    -------
    float
        The betting correlation, -1..1.

    References
    ----------
    Griffin, *The Theory of Blackjack* (6th ed., 1999): the betting correlation.

    Examples
    --------
    >>> round(betting_correlation("dragon7", "dragon7"), 2) > 0.9
    True
    """
    if isinstance(tags, (CountSystem, str)):
        t = get_count_system(tags).tag_array.astype(np.float64)
    else:
        t = np.array(tags_by_rank(tags, "tags"), dtype=np.float64)
    weights, eor = _eor_by_rank(resolve_bet(bet, rules), shoe, rules)
    cov = np.cov(np.vstack([t, eor]), aweights=weights)
    if cov[0, 0] == 0 or cov[1, 1] == 0:
        raise ValueError("betting correlation undefined: the tags or the effects of removal are constant")
    return float(cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1]))


def count_quality(
    source: DealtShoes | pl.DataFrame,
    systems: Iterable[CountSystem | str],
    bet: PayTable | str | None = None,
    rules: Rules = Rules(),
    bucket_cards: int = 52,
    decks: int | None = None,
) -> pl.DataFrame:
    """How much of the exact edge a linear count explains, by depth of the shoe.

    For every coup, the exact expected value of ``bet`` (default: each
    system's own) before the coup, from the unseen composition, is regressed on
    the count the system bets by (true count, or running count for a
    ``trigger="running"`` system) with
    :class:`sklearn.linear_model.LinearRegression`, within buckets of
    ``bucket_cards`` cards left in the shoe and over all coups (``depth="all"``).

    Parameters
    ----------
    source
        :class:`~toolkit.dealing.dealer.DealtShoes`, or a coup frame with ``unseen_A`` ... ``unseen_K``.
    systems
        Count systems or their names.
    bet
        The bet whose EV is explained (default: each system's own).
    rules
        House rules pricing the bet.
    bucket_cards
        Width of the depth buckets, in cards left.
    decks
        Decks of a full shoe (default: inferred from the frame).

    Returns
    -------
    polars.DataFrame
        ``system, bet, count, depth, cards_left_from, cards_left_to, coups, r2, slope, intercept``;
        ``r2`` is the share of the variance of the exact EV that a linear function of the count explains.

    Examples
    --------
    >>> from toolkit.dealing.dealer import deal
    >>> q = count_quality(deal(50, seed=1, progress=False), ["dragon7"])
    >>> q.filter(pl.col("depth") == "all")["r2"].item() > 0.3
    True
    """
    from sklearn.linear_model import LinearRegression

    bucket_cards = positive_int(bucket_cards, "bucket_cards")
    info = PreCoup.of(source, decks, rules.tableau)
    left = info.left
    rows = []
    for item in systems:
        system = get_count_system(item)
        b = resolve_bet(bet if bet is not None else system.bet or "banker", rules)
        ev = info.expected_values(b)
        rc, tc = info.counts(system)
        x_all = tc if system.trigger == "true" else rc.astype(np.float64)
        edges = np.arange(0, int(left.max()) + bucket_cards, bucket_cards)
        groups = [("all", np.ones(len(ev), bool), 0, int(left.max()))]
        groups += [
            (f"{lo}-{lo + bucket_cards}", (left >= lo) & (left < lo + bucket_cards), int(lo), int(lo + bucket_cards))
            for lo in edges
        ]
        for label, mask, lo, hi in groups:
            n = int(mask.sum())
            if n < 3 or np.ptp(x_all[mask]) == 0:
                continue
            x, y = x_all[mask, None], ev[mask]
            model = LinearRegression().fit(x, y)
            rows.append(
                {
                    "system": system.name,
                    "bet": b.name,
                    "count": system.trigger,
                    "depth": label,
                    "cards_left_from": lo,
                    "cards_left_to": hi,
                    "coups": n,
                    "r2": float(model.score(x, y)),
                    "slope": float(model.coef_[0]),
                    "intercept": float(model.intercept_),
                }
            )
    return pl.DataFrame(rows)
