"""The one way to price bets on shoes: :func:`expected_values`, as an array or as a frame.

Every bet, however it was defined (a pay table in Python, SQL rows, a TOML file, a catalogue
name), is priced here.  Its evaluator was chosen when it was compiled: a pay table over the
outcome classes goes through the batched exact engine
(:func:`toolkit.exact.engine.paytable_expected_values`), a bet on ranks, suits or third cards
through its compiled coup tables (:class:`~toolkit.bets.coup_bets.CoupBet`); the two kinds mix
freely in one call, each column from its own evaluator.

>>> ev = expected_values([8, 6], ["banker", "player", "tie"])
>>> ev.shape, [round(float(x), 5) for x in ev[0]]
((2, 3), [-0.01058, -0.01235, -0.1436])
>>> expected_values([8], ["banker", "dragon7"], frame=True).columns
['shoe', 'cards', 'banker', 'dragon7']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from toolkit.bets.base import Bet
from toolkit.bets.coup_bets import CoupBet, coup_expected_values
from toolkit.bets.paytable import PayTable, get_bet, standard_bets
from toolkit.coup.rules import Rules, Tableau
from toolkit.exact.engine import as_rank_matrix, paytable_expected_values

__all__ = ["expected_values"]


def expected_values(
    shoes,
    bets: Sequence[Bet | str] | None = None,
    tableau: Tableau | None = None,
    *,
    rules: Rules | None = None,
    frame: bool = False,
    exact_signs: bool = True,
    device: str = "cpu",
    decks: int | None = None,
) -> Any:
    """Expected value per unit staked of every bet for many shoes at once.

    Parameters
    ----------
    shoes
        ``(B, 13)`` counts by rank, ``(B, 10)`` counts by value, or a sequence of
        composition-like values (each at least six cards).
    bets
        Bets of any kind, or their names (:func:`~toolkit.bets.paytable.get_bet`); default:
        the standard panel of ``rules``.
    tableau
        Drawing rules (default: those of ``rules``, the punto banco tableau).
    rules
        House rules: the panel's commission and Tie pay, and the tableau when ``tableau`` is not given.
    frame
        ``True``: a polars frame (``shoe``, ``cards``, then a column per bet, named by the bet)
        instead of the ``(B, len(bets))`` array.
    exact_signs
        ``True`` (the default): every pay-table expectation within the float path's error bound
        of zero is re-evaluated in integers, so its sign is exact (see
        :mod:`toolkit.exact._exact_sign`).
    device
        ``"cpu"`` or ``"gpu"`` for the pay tables (see :mod:`toolkit.exact._gpu`).
    decks
        For bets on suits: the full decks the shoes' suits come from (suit-blind, see
        :func:`toolkit.coup.suits.suit_counts`).

    Returns
    -------
    numpy.ndarray or polars.DataFrame
        ``(B, len(bets))`` expected values, or the frame.

    References
    ----------
    The Wizard of Odds (M. Shackleford), "Baccarat Odds for 1 to 12 Decks".
    """
    rules = Rules() if rules is None else rules
    tableau = rules.tableau if tableau is None else tableau
    named = (get_bet(b, rules) if isinstance(b, str) else b for b in bets) if bets is not None else ()
    chosen = standard_bets(rules) if bets is None else tuple(named)
    plain = [i for i, b in enumerate(chosen) if isinstance(b, PayTable)]
    rich = [i for i, b in enumerate(chosen) if isinstance(b, CoupBet)]
    if len(plain) + len(rich) != len(chosen):
        wrong = next(b for b in chosen if not isinstance(b, Bet))
        raise TypeError(f"bets must be Bets, CoupBets or bet names, got {type(wrong).__name__} {wrong!r}")
    names = [b.name for b in chosen]
    if frame and len(set(names)) != len(names):
        raise ValueError(f"bets must have distinct names to name the columns, got {names}")
    ranks = as_rank_matrix(shoes)
    if not rich:
        out = paytable_expected_values(ranks, chosen, tableau, exact_signs=exact_signs, device=device)
    else:
        out = np.empty((ranks.shape[0], len(chosen)))
        if plain:
            priced = [chosen[i] for i in plain]
            out[:, plain] = paytable_expected_values(ranks, priced, tableau, exact_signs=exact_signs, device=device)
        for i in rich:
            out[:, i] = coup_expected_values(ranks, chosen[i], tableau, decks=decks)  # type: ignore[arg-type]
    if not frame:
        return out
    columns: dict[str, Any] = {"shoe": np.arange(len(ranks), dtype=np.int64), "cards": ranks.sum(axis=1)}
    columns.update({name: out[:, i] for i, name in enumerate(names)})
    return pl.DataFrame(columns)
