"""Effect of removal: how each bet's expectation moves when one card leaves the shoe.

For a shoe ``n`` and a card kind ``c`` (a value 0..9 or a rank), the effect of
removal is ``EOR_c = EV(n - e_c) - EV(n)``, in units of expected value per unit
staked.  Removing a zero-valued card "by value" means removing a random one of
them (T, J, Q or K in proportion to their counts); only the pair bets notice.

Because burning a random unseen card does not change the expectation of the
next coup, ``sum_c n_c * EOR_c = 0`` exactly, for every bet and every shoe.

>>> import polars as pl
>>> t = effect_of_removal(8, bets=[get_bet("banker")])
>>> round(t.filter(pl.col("card") == "4")["eor"].item() * 1e7)
1157
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import polars as pl

from toolkit.bets.base import Bet
from toolkit.bets.paytable import PayTable, bet_stats, get_bet, standard_bets  # noqa: F401 (get_bet: the examples)
from toolkit.bets.pricing import expected_values
from toolkit.coup.cards import RANKS, ZERO_RANKS, Composition, CompositionLike
from toolkit.coup.rules import Rules
from toolkit.coup.suits import blind_decks
from toolkit.exact.engine import distribution

__all__ = ["EXACT_ABOVE", "effect_of_removal", "eor_matrix"]

#: Above this many cards, :func:`effect_of_removal` uses exact rationals: a float64 difference of
#: expectations keeps about ``16 - log10(cards)`` digits, so at 10 million cards an effect still
#: has about nine.
EXACT_ABOVE = 10_000_000


def _removals(comp: Composition) -> list[tuple[int, Composition]]:
    return [(i, comp.remove(RANKS[i])) for i in range(13) if comp.by_rank[i] > 0]


def _exact_ev(bet: Bet, shoe: Composition, rules: Rules, decks: int) -> Fraction:
    ev = bet_stats(bet, shoe, rules.tableau, exact=True, decks=decks).exact_expected_value
    assert ev is not None  # exact=True sets it
    return ev


def effect_of_removal(
    shoe: CompositionLike = 8,
    bets: Iterable[Bet] | None = None,
    rules: Rules = Rules(),
    by: str = "value",
    exact: bool = False,
) -> pl.DataFrame:
    """Effect of removing one card of each value (or rank) on each bet.

    Parameters
    ----------
    shoe
        The cards left; needs at least seven so that one can be removed.
    bets
        Bets to evaluate (default: the standard panel of ``rules``).
    by
        ``"value"`` (cards 0..9) or ``"rank"`` (A, 2..9, T, J, Q, K).
    exact
        Use the rational path (slower; the ``eor`` column is then rounded from
        exact fractions, and ``eor_exact`` holds the fractions as strings).
        Shoes of more than :data:`EXACT_ABOVE` cards always take it: an effect
        of removal is a difference of two expectations that agree to about
        ``1 / cards``, so in floats it would keep too few digits.

    Returns
    -------
    polars.DataFrame
        Long form: ``bet, card, count, expected_value, eor``.

    References
    ----------
    The Wizard of Odds, "Card Counting in Baccarat" (the effect-of-removal table); E. O. Thorp and W. E. Walden, "A
    Favorable Side Bet in Nevada Baccarat", *J. Amer. Statist. Assoc.* 61 (1966) 313-328.

    Examples
    --------
    >>> t = effect_of_removal(8, bets=[get_bet("tie")])
    >>> t.columns
    ['bet', 'card', 'count', 'expected_value', 'eor']
    """
    if by not in ("value", "rank"):
        raise ValueError(f"by must be 'value' or 'rank', got {by!r}")
    comp = Composition.from_any(shoe)
    if comp.total < 7:
        raise ValueError(f"the shoe holds {comp.total} card(s); removing one must leave the six a coup may need")
    bets = tuple(standard_bets(rules) if bets is None else bets)
    removals = _removals(comp)
    shoes = [comp] + [c for _, c in removals]
    exact = exact or comp.total > EXACT_ABOVE
    decks = blind_decks(max(comp.by_rank))  # bets on suits: the suits of this many decks (suit-blind)
    if exact:
        ev = []
        for s in shoes:
            p = distribution(s, rules.tableau, exact=True)  # once per shoe, shared by every pay table
            ev.append(
                [
                    sum((q * x for q, x in zip(p, bet.payoffs, strict=True) if q), Fraction(0))
                    if isinstance(bet, PayTable)
                    else _exact_ev(bet, s, rules, decks)
                    for bet in bets
                ]
            )
    else:
        ev = expected_values(np.array([s.by_rank for s in shoes]), bets, rules.tableau, decks=decks).tolist()
    base = ev[0]
    by_rank = {i: [e - b for e, b in zip(ev[k + 1], base, strict=True)] for k, (i, _) in enumerate(removals)}

    rows = []
    if by == "rank":
        kinds = [(RANKS[i], comp.by_rank[i], by_rank.get(i)) for i in range(13)]
    else:
        kinds = []
        zeros = comp.by_value[0]
        if zeros:
            zero = Fraction(0) if exact else 0.0
            mix = [
                sum((comp.by_rank[i] * by_rank[i][b] for i in ZERO_RANKS if i in by_rank), zero) / zeros
                for b in range(len(bets))
            ]
        kinds.append(("0", zeros, mix if zeros else None))
        kinds.extend((str(v), comp.by_rank[v - 1], by_rank.get(v - 1)) for v in range(1, 10))
    for b, bet in enumerate(bets):
        for card, count, effects in kinds:
            row = {
                "bet": bet.name,
                "card": card,
                "count": count,
                "expected_value": float(base[b]),
                "eor": None if effects is None else float(effects[b]),
            }
            if exact:
                row["eor_exact"] = None if effects is None else str(effects[b])
            rows.append(row)
    return pl.DataFrame(rows)


def eor_matrix(table: pl.DataFrame, scale: float = 1.0) -> pl.DataFrame:
    """Wide form of :func:`effect_of_removal`: one row per bet, one column per card, times ``scale``.

    Parameters
    ----------
    table
        The long frame of :func:`effect_of_removal`.
    scale
        Multiplier (``1e7``: the units of the published tables).

    Returns
    -------
    polars.DataFrame
        ``bet`` and one column per card.

    References
    ----------
    The Wizard of Odds, "Card Counting in Baccarat" (the effect-of-removal table); Griffin, *The Theory of
    Blackjack* (6th ed., 1999).

    Examples
    --------
    >>> round(eor_matrix(effect_of_removal(8, bets=[get_bet("tie")]), 1e7)["4"].item())
    -2924
    """
    cards: Sequence[str] = list(dict.fromkeys(table["card"].to_list()))
    wide = table.with_columns(pl.col("eor") * scale).pivot(on="card", index="bet", values="eor")
    return wide.select(["bet", *cards])
