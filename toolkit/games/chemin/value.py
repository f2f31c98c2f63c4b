"""The exact value of a chemin de fer coup when both sides play given strategies.

The coup is weighed exactly on the coup table of the shoe (every ordered
sequence of six cards, used or not, with its integer weight), so the
probabilities are fractions.  The punto banco tableau with a Player who always
draws at 5 is punto banco without commission:

>>> float(chemin_value(8, PlayerStrategy.at_five(1), BankerStrategy.from_tableau()).banker_ev)  # doctest: +ELLIPSIS
0.01235...
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toolkit._check import as_fraction, one_of, probability
from toolkit.coup.cards import CompositionLike
from toolkit.coup.step import PLAYER_STOOD
from toolkit.games._hands import HAND_TOTALS
from toolkit.games.chemin._table import ChemTable, chem_table, chemin_shoe
from toolkit.games.chemin.models import FALSE_DRAW_RULES
from toolkit.games.chemin.strategies import BankerStrategy, PlayerStrategy

__all__ = ["ChemValue", "chemin_value"]


@dataclass(frozen=True)
class ChemValue:
    """Exact outcome probabilities of a coup and the two sides' expected payoffs per unit staked.

    ``void`` is the probability of a coup voided by a false draw; ``false_draw``
    the probability of a false draw (whatever the rule).

    Attributes
    ----------
    banker_wins, player_wins, ties
        Probabilities of the results.
    void
        Probability of a coup voided by a false draw.
    false_draw
        Probability of a false draw.
    commission
        Taken from Banker's wins.
    false_draw_rule
        What a false draw does.
    penalty
        Units the false drawer pays under the ``"penalty"`` rule.
    """

    banker_wins: Fraction | float
    player_wins: Fraction | float
    ties: Fraction | float
    void: Fraction | float
    false_draw: Fraction | float
    commission: Fraction = Fraction(0)
    false_draw_rule: str = "void"
    penalty: Fraction = Fraction(1)

    @property
    def banker_ev(self) -> Fraction | float:
        """Banker's expected payoff: ``(1 - commission) P(Banker wins) - P(Player wins)``."""
        return (1 - self.commission) * self.banker_wins - self.player_wins

    @property
    def player_ev(self) -> Fraction | float:
        """Player's expected payoff, less the penalty for false draws under the ``"penalty"`` rule."""
        fine = self.penalty * self.false_draw if self.false_draw_rule == "penalty" else 0
        return self.player_wins - self.banker_wins - fine


def _common_ints(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Fractions -> (object array of integer numerators, common denominator)."""
    den = math.lcm(*(v.denominator for v in values.flat))
    return np.vectorize(lambda v: int(v * den), otypes=[object])(values), den


def _legal_mask() -> np.ndarray:
    """``(55, 11)``: whether Player's hand may draw (columns 0..9) or stand (column 10) by the convention."""
    legal = np.zeros((55, 11), dtype=bool)
    legal[:, :PLAYER_STOOD] = (HAND_TOTALS <= 5)[:, None]
    legal[:, PLAYER_STOOD] = HAND_TOTALS >= 5
    return legal


def _outcome_weights(table: ChemTable, player: np.ndarray, banker: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(legal, false) outcome weights (Banker wins, Player wins, tie) for strategy arrays of any dtype."""
    pw = np.empty((55, 11), dtype=player.dtype)
    pw[:, :PLAYER_STOOD] = player[:, None]
    pw[:, PLAYER_STOOD] = 1 - player
    bw = np.stack([1 - banker, banker], axis=-1)  # (55, 11, 2)
    t = table.table.astype(float)
    per = np.einsum("yca,xycao->xco", bw, t)  # (55 x, 11 col, 3)
    weighted = pw[:, :, None] * per
    legal = _legal_mask()
    nat = table.natural.sum(axis=(0, 1)).astype(float)
    return nat + weighted[legal].sum(axis=0), weighted[~legal].sum(axis=0)


def chemin_value(
    shoe: CompositionLike | None,
    player: PlayerStrategy,
    banker: BankerStrategy,
    *,
    commission: object = 0,
    false_draw: str = "void",
    penalty: object = 1,
    replacement: bool = False,
    exact: bool = True,
) -> ChemValue:
    """Exact value of a coup of chemin de fer when both sides play given strategies.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`Composition.from_any` accepts; default six decks).
    player, banker
        The strategies (mixed strategies are behaviour probabilities).
    commission
        Taken from Banker's wins.
    false_draw
        What a false draw does (see :data:`FALSE_DRAW_RULES`).
    penalty
        Units the false drawer pays under the ``"penalty"`` rule.
    replacement
        Deal with replacement (the A models).
    exact
        Fractions (``True``) or floats.

    Returns
    -------
    ChemValue
        The outcome probabilities and both sides' expected payoffs.

    References
    ----------
    Ethier & Gámez, "A game-theoretic analysis of baccara chemin de fer", *Games* 4 (2013) 711-737.

    Examples
    --------
    The punto banco tableau and a Player who always draws at 5 is punto banco
    without commission (8 decks: P(Banker) 0.458597..., P(Player) 0.446246...):

    >>> v = chemin_value(8, PlayerStrategy.at_five(1), BankerStrategy.from_tableau())
    >>> round(float(v.banker_wins), 12), round(float(v.player_wins), 12)
    (0.458597422633, 0.446246609344)
    """
    comp = chemin_shoe(shoe)
    one_of(false_draw, FALSE_DRAW_RULES, "false_draw")
    if not isinstance(player, PlayerStrategy):
        raise TypeError(f"player must be a PlayerStrategy, not {type(player).__name__}")
    if not isinstance(banker, BankerStrategy):
        raise TypeError(f"banker must be a BankerStrategy, not {type(banker).__name__}")
    c = probability(commission, "commission")
    fine = as_fraction(penalty)
    table = chem_table(comp, replacement)
    if exact:
        p_int, p_den = _common_ints(np.array(player.draw, dtype=object))
        b_int, b_den = _common_ints(np.array(banker.draw, dtype=object))
        # scale the strategies to integers: weights are then integers over denominator * p_den * b_den
        scale = table.denominator * p_den * b_den
        pw = np.array(p_int, dtype=object)
        legal_w, false_w = _outcome_weights_int(table, pw, p_den, np.array(b_int, dtype=object), b_den)
        legal_p = [Fraction(int(v), scale) for v in legal_w]
        false_p = [Fraction(int(v), scale) for v in false_w]
    else:
        legal_f, false_f = _outcome_weights(table, player.array(), banker.array())
        legal_p = list(legal_f / table.denominator)
        false_p = list(false_f / table.denominator)
    zero = Fraction(0) if exact else 0.0
    p_false = sum(false_p, zero)
    if false_draw == "void":
        wins = legal_p
        void = p_false
    else:
        wins = [a + b for a, b in zip(legal_p, false_p, strict=True)]
        void = zero
    return ChemValue(wins[0], wins[1], wins[2], void, p_false, c, false_draw, fine)


def _outcome_weights_int(table: ChemTable, p_int: np.ndarray, p_den: int, b_int: np.ndarray, b_den: int):
    pw = np.empty((55, 11), dtype=object)
    pw[:, :PLAYER_STOOD] = p_int[:, None]
    pw[:, PLAYER_STOOD] = p_den - p_int
    bw = np.stack([b_den - b_int, b_int], axis=-1)
    t = table.table.astype(object)
    per = np.einsum("yca,xycao->xco", bw, t)
    weighted = pw[:, :, None] * per
    legal = _legal_mask()
    nat = table.natural.sum(axis=(0, 1)).astype(object) * (p_den * b_den)
    return nat + weighted[legal].sum(axis=0), weighted[~legal].sum(axis=0)
