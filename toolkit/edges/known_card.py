"""What knowing one card of the next coup is worth (a dealer's flashed card, a marked card).

Count every coup as six ordered cards, used or not (the Wizard of Odds
convention): each ordered six-value sequence ``s`` has probability
``prod_v (n_v)_(m_v) / (N)_6``.  Conditioning on the value ``v`` at position
``k`` (1 and 3 are Player's first cards, 2 and 4 Banker's, 5 goes to whoever
draws first, 6 to Banker if he draws after Player) gives

    EV(bet | card k = v) = sum_{s : s_k = v} P(s) x(outcome(s)) / P(card k = v)

and a bettor who sees that card and bets Banker or Player only when the
conditional expectation is positive gains ``sum_v P(v) max(EV_B, EV_P, 0)`` per
coup.  Jacobson ("Baccarat - the known card") gives 6.765 % for card 1 or 3,
6.406 % for 2 or 4, 8.973 % for card 5 and 9.098 % for card 6 (8 decks).

>>> gains = known_card_gain(8)
>>> [round(g * 100, 3) for g in gains["gain"]]
[6.765, 6.406, 6.765, 6.406, 8.973, 9.098]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from toolkit.bets.paytable import PayTable, get_plain_bet
from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.outcome import N_MAIN
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.exact._tables import ext_to_main, multiset_index, value_sequences
from toolkit.exact.engine import _features

__all__ = ["known_card_edges", "known_card_gain"]


def _main_payoffs(bet: PayTable) -> np.ndarray:
    x = bet.payoff_array.reshape(N_MAIN, 4)
    if not np.all(x == x[:, :1]):
        raise ValueError(f"bet {bet.name!r} looks at pairs (ranks); known-card edges are computed by value only")
    return x[:, 0]


def known_card_edges(
    shoe: CompositionLike = 8, bets: Sequence[PayTable] | None = None, tableau: Tableau = PUNTO_BANCO
) -> pl.DataFrame:
    """Expected value of each bet given the value of one of the six cards of the next coup.

    Returns a long frame: ``position`` (1..6), ``value`` (0..9), ``probability``
    of that value there, ``bet``, ``expected_value`` given the card.

    Parameters
    ----------
    shoe
        The cards left.
    bets
        The bets (default: the standard panel).
    tableau
        Drawing rules.

    Returns
    -------
    polars.DataFrame
        ``position, value, probability, bet, expected_value``.

    References
    ----------
    E. Jacobson, "Baccarat: The Known Card" (apheat.net, 13 August 2012).

    Examples
    --------
    >>> t = known_card_edges(8)
    >>> t.columns
    ['position', 'value', 'probability', 'bet', 'expected_value']
    """
    comp = Composition.from_any(shoe)
    comp.require_coup()
    bets = tuple(bets) if bets is not None else (get_plain_bet("banker"), get_plain_bet("player"))
    seq = value_sequences(tableau)
    weights = _features(np.array([comp.by_value]))[:, 0][multiset_index(seq.code6)]
    main = ext_to_main(seq.ext)
    rows = []
    for position in range(6):
        cards = seq.cards[position]
        p_value = np.bincount(cards, weights=weights, minlength=10)
        for bet in bets:
            ev = np.bincount(cards, weights=weights * _main_payoffs(bet)[main], minlength=10)
            for value in range(10):
                rows.append(
                    {
                        "position": position + 1,
                        "value": value,
                        "probability": float(p_value[value]),
                        "bet": bet.name,
                        "expected_value": float(ev[value] / p_value[value]) if p_value[value] > 0 else None,
                    }
                )
    return pl.DataFrame(rows)


def known_card_gain(
    shoe: CompositionLike = 8, bets: Sequence[PayTable] | None = None, tableau: Tableau = PUNTO_BANCO
) -> pl.DataFrame:
    """Per position: the gain per coup of betting the best of ``bets`` only when it is positive.

    Default bets: Banker and Player.  Columns ``position, gain``.

    Parameters
    ----------
    shoe
        The cards left.
    bets
        The bets (default: Banker and Player).
    tableau
        Drawing rules.

    Returns
    -------
    polars.DataFrame
        ``position, gain``.

    References
    ----------
    E. Jacobson, "Baccarat: The Known Card" (apheat.net, 13 August 2012).

    Examples
    --------
    >>> known_card_gain(8)["position"].to_list()
    [1, 2, 3, 4, 5, 6]
    """
    table = known_card_edges(shoe, bets, tableau)
    return (
        table.group_by("position", "value")
        .agg(pl.col("probability").first(), pl.col("expected_value").max().clip(lower_bound=0.0).alias("best"))
        .group_by("position")
        .agg((pl.col("probability") * pl.col("best").fill_null(0.0)).sum().alias("gain"))
        .sort("position")
    )
