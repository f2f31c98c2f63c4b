"""The scoreboard's symbols, their probabilities under a composition, and the exact posterior of small shoes.

A scoreboard shows, for each coup, a *symbol*: the winner, whether Player and Banker were dealt pairs, and whether
the coup was a natural (24 symbols).  :func:`symbol_probabilities` prices them for many compositions at once (the
exact engine's class probabilities summed by symbol); :func:`exact_posterior` walks every coup the remaining cards
could deal, rank by rank (Player, Banker, Player, Banker, then the third cards by the tableau), kept when it shows
the symbol recorded: the posterior over the unseen cards given a road, exact, for small shoes.

>>> tiny = (2, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 0)  # 12 cards: A, 4, 5, 8, 9, T
>>> posterior = exact_posterior(tiny, [("banker", False, False, True)])
>>> round(sum(posterior.values()), 12)
1.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache

import numpy as np
import polars as pl

from toolkit.bets import PayTable, expected_values
from toolkit.coup import PUNTO_BANCO, Tableau, outcome_frame
from toolkit.coup.step import (
    BANKER_DRAWS,
    BOTH_DRAW,
    PLAYER_DRAWS,
    Tables,
    coup_layout,
    hand_totals,
    is_natural,
)

__all__ = [
    "SYMBOLS",
    "coup_law",
    "exact_posterior",
    "road_symbols",
    "symbol_bets",
    "symbol_index",
    "symbol_probabilities",
]

#: The scoreboard's symbols: ``(winner, player_pair, banker_pair, natural)``.
SYMBOLS: tuple[tuple[str, bool, bool, bool], ...] = tuple(
    (w, pp, bp, nat)
    for w in ("banker", "player", "tie")
    for pp in (False, True)
    for bp in (False, True)
    for nat in (False, True)
)
_INDEX = {s: i for i, s in enumerate(SYMBOLS)}
#: Card value of each rank index.
_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)


def symbol_index(symbol: Sequence[object]) -> int:
    """The index of ``(winner, player_pair, banker_pair, natural)`` in :data:`SYMBOLS`; ValueError naming it."""
    key: tuple = tuple(symbol)
    if len(key) != 4 or key not in _INDEX:
        raise ValueError(f"a scoreboard symbol is (winner, player_pair, banker_pair, natural), got {symbol!r}")
    return _INDEX[key]


def road_symbols(coups: pl.DataFrame) -> np.ndarray:
    """The symbol index of every coup of a frame with ``winner, player_pair, banker_pair, natural`` (as
    :attr:`toolkit.records.Records.coups` holds them; ``natural``: a two-card 8 or 9 in either hand)."""
    keys = coups.select("winner", "player_pair", "banker_pair", "natural").rows()
    return np.array([_INDEX[k] for k in keys], dtype=np.int64)


@cache
def symbol_bets() -> tuple[PayTable, ...]:
    """One pay table per symbol, paying 1 on the coups that show it: priced, the symbol's probability."""
    frame = outcome_frame()
    natural = (pl.col("player_cards") == 2) & (pl.col("banker_cards") == 2) & pl.col("natural")
    keys = frame.select("winner", "player_pair", "banker_pair", natural.alias("nat")).rows()
    of = [_INDEX[k] for k in keys]
    return tuple(PayTable(f"symbol_{i}", tuple(Fraction(int(s == i)) for s in of)) for i in range(len(SYMBOLS)))


def symbol_probabilities(unseen: np.ndarray, tableau: Tableau = PUNTO_BANCO) -> np.ndarray:
    """``(n, 24)``: the probability of each symbol of the next coup, for each of ``n`` compositions by rank."""
    return expected_values(np.atleast_2d(unseen), symbol_bets(), tableau)


# --------------------------------------------------------------------------- exact, small shoes
def _coups(comp: tuple[int, ...], tableau: Tableau) -> Iterable[tuple[tuple[int, ...], tuple[int, ...], float, int]]:
    """Every coup ``comp`` can deal: Player's and Banker's cards (rank indices), its probability and its symbol."""
    total = sum(comp)

    def draw(left: tuple[int, ...], n: int):
        for r in range(13):
            if left[r]:
                yield r, left[r] / n, (*left[:r], left[r] - 1, *left[r + 1 :])

    for p1, q1, c1 in draw(comp, total):
        for b1, q2, c2 in draw(c1, total - 1):
            for p2, q3, c3 in draw(c2, total - 2):
                for b2, q4, c4 in draw(c3, total - 3):
                    yield from _third_cards((p1, p2), (b1, b2), c4, total - 4, q1 * q2 * q3 * q4, tableau, draw)


def _third_cards(player, banker, left, n, q, tableau, draw):
    masks = Tables.of(tableau)
    first = (_VALUE[player[0]], _VALUE[banker[0]], _VALUE[player[1]], _VALUE[banker[1]])
    pt, bt = hand_totals(*first)
    natural = bool(is_natural(pt, bt))
    pair = (player[0] == player[1], banker[0] == banker[1])

    def banker_draws(hand: tuple[int, ...]) -> bool:  # by the coup step, given Player's hand
        layout = coup_layout(*first, _VALUE[hand[2]] if len(hand) == 3 else 0, masks)  # type: ignore[call-arg]
        return layout in ((BOTH_DRAW,) if len(hand) == 3 else (BANKER_DRAWS,))

    options = [(player, banker, left, q)]
    if coup_layout(*first, 0, masks) in (PLAYER_DRAWS, BOTH_DRAW):
        options = [((*player, r), banker, c, q * w) for r, w, c in draw(left, n)]
    out = []
    for hand, bank, c, w in options:
        if banker_draws(hand):
            out += [(hand, (*bank, r), c2, w * w2) for r, w2, c2 in draw(c, n - (len(hand) - 2))]
        else:
            out.append((hand, bank, c, w))
    for hand, bank, c, w in out:
        p, b = sum(_VALUE[c] for c in hand) % 10, sum(_VALUE[c] for c in bank) % 10
        winner = "player" if p > b else "banker" if b > p else "tie"
        yield hand, bank, w, _INDEX[(winner, pair[0], pair[1], natural)]


@cache
def _after(comp: tuple[int, ...], tableau: Tableau) -> dict[int, dict[tuple[int, ...], float]]:
    """By symbol: the compositions one coup from ``comp`` can leave, with their probabilities."""
    out: dict[int, dict[tuple[int, ...], float]] = {}
    for player, banker, q, s in _coups(comp, tableau):
        key = list(comp)
        for r in (*player, *banker):
            key[r] -= 1
        table = out.setdefault(s, {})
        table[tuple(key)] = table.get(tuple(key), 0.0) + q
    return out


def coup_law(
    composition: Sequence[int], symbol: Sequence[object], tableau: Tableau = PUNTO_BANCO
) -> dict[tuple[tuple[int, ...], tuple[int, ...]], float]:
    """The exact law of the next coup given that it shows ``symbol``, by enumeration (small shoes).

    Returns
    -------
    dict
        ``(player, banker)`` (each hand's rank indices in order) to probability; empty when no coup shows it.

    Examples
    --------
    >>> law = coup_law((0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2), ("player", False, False, True))  # 8 8 T T K K
    >>> min(law), len(law), round(sum(law.values()), 12)  # an eight and a ten-valued card against two of those
    (((7, 9), (9, 12)), 8, 1.0)
    """
    target = symbol_index(symbol)
    law: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
    for player, banker, q, s in _coups(tuple(int(c) for c in composition), tableau):
        if s == target:
            law[player, banker] = law.get((player, banker), 0.0) + q
    total = sum(law.values())
    return {k: v / total for k, v in law.items()}


def exact_posterior(
    composition: Sequence[int], road: Sequence[Sequence[object]], tableau: Tableau = PUNTO_BANCO
) -> dict[tuple[int, ...], float]:
    """The exact posterior over the unseen cards (by rank) after the coups of ``road`` (symbols), for small shoes.

    Parameters
    ----------
    composition
        13 counts by rank of the cards before the first coup of the road.
    road
        The symbols shown, ``(winner, player_pair, banker_pair, natural)`` per coup.
    tableau
        Drawing rules.

    Returns
    -------
    dict
        Composition (13 counts) to probability.
    """
    state = {tuple(int(c) for c in composition): 1.0}
    for symbol in road:
        target = symbol_index(symbol)
        nxt: dict[tuple[int, ...], float] = {}
        for comp, p in state.items():
            if sum(comp) < 6:
                raise ValueError(f"the road has more coups than {sum(composition)} cards can deal")
            for key, q in _after(comp, tableau).get(target, {}).items():
                nxt[key] = nxt.get(key, 0.0) + p * q
        total = sum(nxt.values())
        if total == 0:
            raise ValueError(f"no deal of these cards shows the road's symbols (stopped at {symbol!r})")
        state = {k: v / total for k, v in nxt.items()}
    return state
