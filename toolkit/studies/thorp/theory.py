"""The theory the study checks: the fundamental theorem of card counting, and the rarity of deep edges.

:func:`linear_variance` predicts the variance of the exact EV across shoes as
a function of the number of cards ``n`` left, from the effects of removal of
the full shoe (Thorp and Walden 1973); the derivation is in its docstring.
:func:`depth_one_in_a_million` reads, from counts of hands and of edges by
depth, the depth beyond which edges are rarer than one hand in a million.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

from toolkit._stats import wilson_interval
from toolkit.bets.base import Bet
from toolkit.bets.paytable import standard_bets
from toolkit.coup.rules import Rules

__all__ = ["depth_one_in_a_million", "linear_variance"]


def linear_variance(
    cards_left: Iterable[int] | int, decks: int = 8, bets: Sequence[Bet] | None = None, rules: Rules = Rules()
) -> np.ndarray:
    """Variance of each bet's exact EV over random ``n``-card subsets of a full shoe, to first order.

    The fundamental theorem of card counting (Thorp and Walden 1973), with the
    effects of removal of the full shoe (:func:`toolkit.edges.eor.effect_of_removal`,
    by rank so that the pair bets see ranks).

    Derivation.  Let the full shoe hold ``N`` cards, ``N_c`` of kind ``c``
    (``p_c = N_c / N``), with expectation ``E_0`` and effects of removal
    ``e_c = E(full - c) - E_0``.  Model the expectation of a subset ``S`` of
    ``n`` cards as the *average* of a value attached to each card,
    ``E(S) ~ (1/n) sum_{x in S} b_x`` (linear in the proportions of each kind,
    which is what the expectation depends on to first order).  The full shoe
    gives ``E_0 = sum_c p_c b_c``, and one card of kind ``c`` removed gives
    ``E_0 + e_c = (N E_0 - b_c) / (N - 1)``, so ``b_c = E_0 - (N - 1) e_c``.
    A random subset of ``n`` cards is a sample without replacement, and the
    variance of a sample mean without replacement is
    ``sigma^2 / n * (N - n) / (N - 1)`` with ``sigma^2 = sum_c p_c (b_c - E_0)^2``.
    Hence::

        Var[E(S)] ~ (N - n) / (n (N - 1)) * (N - 1)^2 * [sum_c p_c e_c^2 - (sum_c p_c e_c)^2]

    (``sum_c p_c e_c = 0`` exactly: burning a random card changes nothing.)
    The spread grows like ``1/n`` as the shoe is depleted, the content of the
    theorem.  Counting removed cards with constant effects instead
    (``E ~ E_0 + sum_c r_c e_c``, ``r`` the removed counts) gives
    ``n (N - n) / (N - 1) * sum_c p_c e_c^2``: the same at ``n = N - 1`` but
    wrongly vanishing at the end of the shoe.  Both are first-order pictures;
    the real variance departs from them when few cards are left (the
    expectation is then far from linear in the proportions), which is what
    :meth:`toolkit.studies.StudyResult.variance` shows.  Bets whose effects of removal are all
    zero (the pair bets, symmetric in the ranks) have no first-order spread:
    their variance is all non-linear and the prediction is 0.

    Parameters
    ----------
    cards_left
        One or many subset sizes ``n`` (1..N).
    decks, bets, rules
        The full shoe, the bets (default: the standard panel) and their rules.

    Returns
    -------
    numpy.ndarray
        ``(len(cards_left), len(bets))`` predicted variances.

    Examples
    --------
    >>> from toolkit.bets.paytable import get_bet
    >>> v = linear_variance([415, 208], bets=[get_bet("banker")])
    >>> bool(v[1, 0] > v[0, 0])
    True
    """
    from toolkit.coup.cards import Composition
    from toolkit.edges.eor import effect_of_removal

    bets = tuple(standard_bets(rules) if bets is None else bets)
    n = np.atleast_1d(
        np.asarray([cards_left] if isinstance(cards_left, (int, np.integer)) else list(cards_left), dtype=float)
    )
    total = 52 * decks
    if np.any((n < 1) | (n > total)):
        raise ValueError(f"cards_left must be 1..{total} for {decks} decks, got {n.min():g}..{n.max():g}")
    table = effect_of_removal(Composition.from_decks(decks), bets=bets, rules=rules, by="rank")
    out = np.empty((len(n), len(bets)))
    for j, bet in enumerate(bets):
        rows = table.filter(pl.col("bet") == bet.name)
        p = rows["count"].to_numpy() / total
        e = rows["eor"].to_numpy()
        second = np.sum(p * e * e)
        sigma2 = (total - 1) ** 2 * (second - np.sum(p * e) ** 2)
        if sigma2 <= 1e-9 * (total - 1) ** 2 * second:  # equal effects (the pair bets): rounding, not spread
            sigma2 = 0.0
        out[:, j] = (total - n) / (n * (total - 1)) * sigma2
    return out


def depth_one_in_a_million(
    positive: np.ndarray, hands: np.ndarray, confidence: float = 0.95
) -> tuple[int | None, int | None]:
    """Smallest depth ``d`` such that, beyond every ``d' >= d``, the rate of edges is below 1e-6.

    ``positive[d]`` and ``hands[d]`` count the edges and the hands dealt with
    ``d`` unseen cards.  Returns the point estimate (from the observed rates)
    and the same read from the upper Wilson bound of each rate (``None`` when
    nothing is dealt deep enough to show a rate that small).

    >>> hands = np.full(60, 1000)
    >>> positive = np.zeros(60, np.int64)
    >>> positive[[30, 45]] = 1
    >>> depth_one_in_a_million(positive, hands)
    (45, None)

    Parameters
    ----------
    positive, hands
        Edges and hands by depth.
    confidence
        Of the Wilson bound.

    Returns
    -------
    tuple
        ``(point, bound)``.
    """
    beyond_pos = np.cumsum(positive[::-1])[::-1]  # at index d: hands with unseen >= d
    beyond_hands = np.cumsum(hands[::-1])[::-1]
    # rate beyond d (unseen > d) is beyond_*[d + 1]
    pos_gt = np.append(beyond_pos[1:], 0)
    hands_gt = np.append(beyond_hands[1:], 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(hands_gt > 0, pos_gt / hands_gt, 0.0)
    _, upper = wilson_interval(pos_gt, hands_gt, confidence)
    upper = np.where(hands_gt > 0, upper, 0.0)

    def first_from_end(ok: np.ndarray) -> int | None:
        bad = np.flatnonzero(~ok)
        if not len(bad):
            return 0
        d = int(bad.max()) + 1
        return d if d < len(ok) else None

    point = first_from_end(rate < 1e-6)
    bound = first_from_end(upper < 1e-6)
    if bound is not None and hands_gt[bound] == 0:
        bound = None  # nothing dealt beyond: no evidence either way
    return point, bound
