"""Exact enumeration of a chemin de fer coup with the choices left open (private to :mod:`toolkit.games.chemin`).

A coup is counted, as in the Wizard of Odds tables, as an ordered sequence of
six cards, used or not: cards 1 and 3 to Player, 2 and 4 to Banker, the fifth
to Player if he draws (else to Banker), the sixth to Banker.  Without
replacement the sequence ``v1..v6`` of values has weight
``prod_i (n_{v_i} - #{j < i: v_j = v_i})`` out of ``(N)_6``; with replacement
``prod_i n_{v_i}`` out of ``N**6``.  Both are integers, so every sum below is
exact.

Summing those weights over the ordered two-card deals of each *hand
composition* (the 55 unordered pairs of values) gives ``W[x, y, c5, c6]``, and
everything a strategy can depend on is a function of ``x`` (Player's two
cards), ``y`` (Banker's two cards) and the next two cards.  The table
:class:`ChemTable` keeps, for every non-natural ``x`` and ``y``:

``T[x, y, col, a, o]``
    weight of outcome ``o`` (0 Banker wins, 1 Player wins, 2 tie) when Player
    with ``x`` draws and his third card has value ``col`` (``col`` 0..9) or
    stands (``col`` 10, :data:`PLAYER_STOOD`), and Banker then draws (``a = 1``) or stands (``a = 0``).

plus the weights of the coups settled by a natural.  A strategy pair is then a
weighting of this table: Player's probability of drawing on ``x`` multiplies
the columns 0..9 of ``x`` and its complement column 10; Banker's probability
of drawing in the information set ``(y, col)`` multiplies ``a = 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import perm  # falling factorial (n)_k = n! / (n - k)!; 0 when k > n

import numpy as np

from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.step import PLAYER_STOOD
from toolkit.games._hands import HAND_TOTALS, hand_index
from toolkit.games.chemin.models import CHEMIN_DECKS

__all__ = ["ChemTable", "chem_table", "chemin_shoe", "six_card_weights"]

_OUTCOMES = 3  # Banker wins, Player wins, tie


def chemin_shoe(shoe: CompositionLike | None) -> Composition:
    """The shoe of a chemin de fer coup: ``shoe`` (default six packs, :data:`CHEMIN_DECKS`), at least six cards."""
    comp = Composition.from_any(CHEMIN_DECKS if shoe is None else shoe)
    comp.require_coup()
    return comp


@lru_cache(maxsize=1)
def _pair_matrix() -> np.ndarray:
    """``(55, 100)`` 0/1 matrix summing the 100 ordered pairs of values into the 55 hands."""
    idx = hand_index().reshape(100)
    out = np.zeros((55, 100), dtype=np.int64)
    out[idx, np.arange(100)] = 1
    return out


def six_card_weights(by_value: tuple[int, ...], replacement: bool) -> tuple[np.ndarray, int]:
    """``(W6, denominator)``: the weight of every ordered sequence of six values, and their total."""
    n = np.array(by_value, dtype=np.int64)
    total = int(n.sum())
    denominator = total**6 if replacement else perm(total, 6)
    dtype = np.int64 if denominator < 2**62 else object
    nn = n.astype(dtype)
    axes = [np.arange(10).reshape([10 if j == i else 1 for j in range(6)]) for i in range(6)]
    w = np.ones((1,) * 6, dtype=dtype)
    for i, vi in enumerate(axes):
        factor = nn[vi]
        if not replacement:
            for vj in axes[:i]:
                factor = factor - (vj == vi).astype(np.int64)
        w = w * factor
    return w, denominator


@dataclass(frozen=True, eq=False)
class ChemTable:
    """Exact weights of a chemin de fer coup for every choice (see the module notes).

    Attributes
    ----------
    by_value
        The shoe, 10 counts by value.
    replacement
        Whether cards are dealt with replacement (the A models).
    denominator
        Total weight: ``(N)_6`` without replacement, ``N**6`` with.
    table
        ``(55, 55, 11, 2, 3)`` integer weights ``T[x, y, col, a, o]``; zero where
        ``x`` or ``y`` is a natural.
    natural
        ``(55, 55, 3)`` weights of the coups settled by a natural (either hand 8 or 9).
    """

    by_value: tuple[int, ...]
    replacement: bool
    denominator: int
    table: np.ndarray
    natural: np.ndarray

    @property
    def pair_weights(self) -> np.ndarray:
        """``(55, 55)`` weight of each pair (Player's two cards, Banker's two cards)."""
        # a non-natural pair's whole weight sits once in the "Player stood, Banker stood" cell
        return self.natural.sum(axis=2) + self.table[:, :, PLAYER_STOOD, 0, :].sum(axis=2)

    def player_draw_at_5(self, draw: Sequence[Fraction]) -> Fraction:
        """Player's probability of drawing on a two-card 5, from his 55 probabilities ``draw`` (one per hand).

        The common probability when every hand of total 5 has the same;
        otherwise their average, each hand weighted by its probability of
        facing a non-natural Banker (1 if none can).
        """
        fives = [x for x in range(55) if HAND_TOTALS[x] == 5]
        values = {draw[x] for x in fives}
        if len(values) == 1:
            return values.pop()
        w = self.table[:, :, PLAYER_STOOD, 0, :].sum(axis=(1, 2))
        num = sum((int(w[x]) * draw[x] for x in fives), Fraction(0))
        den = sum(int(w[x]) for x in fives)
        return num / den if den else Fraction(1)


def _outcome(banker: np.ndarray, player: np.ndarray) -> np.ndarray:
    """0 Banker wins, 1 Player wins, 2 tie."""
    return np.where(banker > player, 0, np.where(player > banker, 1, 2))


def chem_table(shoe: Composition, replacement: bool = False) -> ChemTable:
    """Build the exact :class:`ChemTable` of the next coup from ``shoe``."""
    return _chem_table(tuple(shoe.by_value), bool(replacement))


@lru_cache(maxsize=16)  # about 1.6 MB each
def _chem_table(by_value: tuple[int, ...], replacement: bool) -> ChemTable:
    w6, denominator = six_card_weights(by_value, replacement)
    dtype = w6.dtype
    # axes (v1, v2, v3, v4, c5, c6) -> (Player pair v1 v3, Banker pair v2 v4, c5 c6)
    w = np.ascontiguousarray(w6.transpose(0, 2, 1, 3, 4, 5)).reshape(100, 100, 100)
    g = _pair_matrix().astype(dtype)
    w = np.tensordot(g, w, axes=(1, 0))  # (55, 100, 100)
    wd = np.tensordot(g, w, axes=(1, 1)).transpose(1, 0, 2).reshape(55, 55, 10, 10)  # W[x, y, c5, c6]
    tp = HAND_TOTALS[:, None]
    tb = HAND_TOTALS[None, :]
    c = np.arange(10)
    w5 = wd.sum(axis=3)
    w4 = w5.sum(axis=2)
    table = np.zeros((55, 55, 11, 2, _OUTCOMES), dtype=dtype)
    natural = np.zeros((55, 55, _OUTCOMES), dtype=dtype)
    nat = (tp >= 8) | (tb >= 8)
    play = ~nat
    # Player draws c5: Banker draws c6 / stands
    o_dd = _outcome(
        (tb[:, :, None, None] + c[None, None, None, :]) % 10, (tp[:, :, None, None] + c[None, None, :, None]) % 10
    )
    o_ds = _outcome(np.broadcast_to(tb[:, :, None], (55, 55, 10)), (tp[:, :, None] + c) % 10)
    # Player stands: Banker draws c5 / stands
    o_sd = _outcome((tb[:, :, None] + c) % 10, np.broadcast_to(tp[:, :, None], (55, 55, 10)))
    o_ss = _outcome(np.broadcast_to(tb, (55, 55)), np.broadcast_to(tp, (55, 55)))
    zero = np.zeros((), dtype=dtype)
    for o in range(_OUTCOMES):
        table[:, :, :10, 1, o] = np.where(o_dd == o, wd, zero).sum(axis=3)
        table[:, :, :10, 0, o] = np.where(o_ds == o, w5, zero)
        table[:, :, PLAYER_STOOD, 1, o] = np.where(o_sd == o, w5, zero).sum(axis=2)
        table[:, :, PLAYER_STOOD, 0, o] = np.where(o_ss == o, w4, zero)
        natural[:, :, o] = np.where(nat & (o_ss == o), w4, zero)
    table[~play] = 0
    table.setflags(write=False)
    natural.setflags(write=False)
    return ChemTable(by_value, replacement, denominator, table, natural)
