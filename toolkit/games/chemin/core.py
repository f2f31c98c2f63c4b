r"""Chemin de fer: the game with choices, solved exactly for any shoe.

The game
--------
Banker and Player (the punter who represents the punters) each get two cards
(cards 1 and 3 to Player, 2 and 4 to Banker).  A two-card 8 or 9 is a natural
and ends the coup.  Otherwise Player must draw on 0-4 and stand on 6-7, by
the convention of the seeds; on 5 he chooses.  His third card is dealt face
up.  Banker then chooses to draw or stand, knowing his own two cards and
Player's third card (or that Player stood).  The higher total wins one unit;
ties push.  Without commission the game is zero-sum; with a commission ``c``
on Banker's wins, Banker wins ``1 - c`` while Player still loses 1, and the
game is a bimatrix game.

Information models (Ethier & Gámez 2013, after Kemeny & Snell 1957 and Downton & Lockwood 1975)
------------------------------------------------------------------------------------------------
========  =================  ======================  ======================
model     cards dealt        Player sees             Banker sees
========  =================  ======================  ======================
``A1``    with replacement   his total               his total
``A2``    with replacement   his total               his two cards
``A3``    with replacement   his two cards           his two cards
``B1``    without            his total               his total
``B2``    without            his total               his two cards
``B3``    without            his two cards           his two cards
========  =================  ======================  ======================

A1, B2 and B3 are the models of the literature (Kemeny & Snell; Downton &
Lockwood; Ethier & Gámez); A2, A3 and B1 complete the grid by analogy.
"Without replacement" means from any remaining shoe (a :class:`Composition`),
so a counter can follow the solution through a shoe.  Cards are compared by
value (tens and faces are 0), so "two cards" means the unordered pair of values.

Player's information sets are his two-card totals 5 (one set) or the five
hands of total 5 (``0+5, 1+4, 2+3, 6+9, 7+8``).  Banker's information sets are
(his total 0-7 or one of the 44 non-natural hands) x (Player's third card
0-9 or "stood"): 88 or 484 sets, hence the ``2 x 2^88``, ``2 x 2^484`` and
``2^5 x 2^484`` matrix games of the literature.

The reduction
-------------
By Kuhn's theorem (both sides have perfect recall), mixed strategies may be
replaced by behaviour strategies: Player draws at 5 with probability ``q_k``
in his set ``k``, Banker draws with probability ``a_i`` in his set ``i``.
Because each set of Banker's is reached by different deals, Banker's payoff
splits over his sets::

    V(q, a) = C + sum_i [a_i D_i(q) + (1 - a_i) S_i(q)]

where ``D_i`` and ``S_i`` (Banker's payoff from the deals of set ``i`` when he
draws or stands) are affine in ``q``, and ``C`` collects the naturals.  They are
computed once, exactly, from the coup table of :mod:`toolkit.games._table`.
Against a given ``q`` Banker's best response is a comparison in each set, so
Player's problem is::

    minimise_q  C + sum_i max(D_i(q), S_i(q))   over q in [0, 1]^K,

a linear program in ``q`` and one epigraph variable ``t_i >= D_i(q), t_i >= S_i(q)``
per set (:func:`scipy.optimize.linprog`, HiGHS); the duals of the two
constraints of each set are Banker's optimal probabilities of drawing and
standing there.  No ``2^484``-column matrix is ever built.  The
floating-point solution is then made exact: Banker's indifference in the sets
where he mixes fixes the interior ``q_k``, Player's indifference fixes
Banker's mixing, both small linear systems solved in fractions, and the pair
is checked exactly to be an equilibrium (every pure choice a best response).
Model A1 gives Kemeny and Snell's 9/11.

With a commission the game is not zero-sum.  :func:`solve` then finds a Nash
equilibrium by best responses: Banker best-responds (a comparison in each
set); for each of Player's variables in turn the one-dimensional equilibrium is
found exactly on the piecewise-constant gradient of Player's payoff, sweeping
until nothing moves (started from the zero-sum solution), and the result is
made exact and checked as above.  (Ethier & Lee 2023 study this bimatrix game.)

Examples
--------
>>> sol = solve("A1")
>>> sol.player_draw_at_5
Fraction(9, 11)
>>> float(expected_value(8, PlayerStrategy.at_five(1), BankerStrategy.from_tableau()).banker_ev)  # doctest: +ELLIPSIS
0.01235...
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit.games.chemin import _game as game_mod
from toolkit.games._table import HAND_TOTALS, STOOD, CoupTable, coup_table, hand_index, hand_label
from toolkit.cards import RANK_VALUES, Composition, CompositionLike
from toolkit.rules import PUNTO_BANCO, Tableau, as_fraction

__all__ = [
    "FALSE_DRAW_RULES",
    "MODELS",
    "SEED004_OPTIONS",
    "BankerStrategy",
    "ChemSolution",
    "CoupValue",
    "Model",
    "PlayerStrategy",
    "banker_best_response",
    "expected_value",
    "get_model",
    "option_values",
    "player_best_response",
    "resolve_coups",
    "simulate_coups",
    "simulate_shoes",
    "solve",
    "solve_by_decks",
    "solve_shoes",
    "summarize",
]

#: Banker's choices under the house rules of seed 004: at 3 against a third card 9, at 5 against a 4.
SEED004_OPTIONS: tuple[tuple[int, int], ...] = ((3, 9), (5, 4))
#: What happens after a false draw (Player drawing on 6-7 or standing on 0-4):
#: ``"void"`` the coup is void (no money changes hands); ``"penalty"`` the coup stands and the
#: false drawer also pays ``penalty`` units; ``"allowed"`` the coup stands.
FALSE_DRAW_RULES: tuple[str, ...] = ("void", "penalty", "allowed")
#: Chemin de fer's shoe, as in the seeds ("six full packs").
DEFAULT_DECKS = 6


# ----------------------------------------------------------------------- models
@dataclass(frozen=True)
class Model:
    """An information model of chemin de fer (see the module notes)."""

    name: str
    replacement: bool
    player_sees: str
    banker_sees: str
    source: str

    def __post_init__(self) -> None:
        for side, seen in (("player_sees", self.player_sees), ("banker_sees", self.banker_sees)):
            if seen not in ("total", "composition"):
                raise ValueError(f"Model.{side} must be 'total' or 'composition', got {seen!r}")


MODELS: dict[str, Model] = {
    "A1": Model("A1", True, "total", "total", "Kemeny & Snell (1957); Ethier & Gámez (2013)"),
    "A2": Model("A2", True, "total", "composition", "by analogy with B2"),
    "A3": Model("A3", True, "composition", "composition", "by analogy with B3"),
    "B1": Model("B1", False, "total", "total", "by analogy with A1"),
    "B2": Model("B2", False, "total", "composition", "Downton & Lockwood (1975); Ethier & Gámez (2013)"),
    "B3": Model("B3", False, "composition", "composition", "Ethier & Gámez (2013)"),
}


def get_model(model: str | Model) -> Model:
    """The :class:`Model` named ``model`` (``"A1"``, ..., ``"B3"``, any case)."""
    if isinstance(model, Model):
        return model
    if not isinstance(model, str):
        raise TypeError(f"model must be a name such as 'B2' or a Model, not {type(model).__name__} {model!r}")
    key = model.strip().upper()
    if key not in MODELS:
        raise ValueError(f"unknown chemin de fer model {model!r}: expected one of {', '.join(MODELS)}")
    return MODELS[key]


# ------------------------------------------------------------------- strategies
def _probability(x: object, where: str) -> Fraction:
    if isinstance(x, np.generic):
        x = x.item()  # numpy 2 scalars repr as "np.float64(...)", which as_fraction cannot read
    try:
        p = as_fraction(x)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{where}: {err}") from None
    if not 0 <= p <= 1:
        raise ValueError(f"{where}: a probability must lie in [0, 1], got {x!r}")
    return p


def _hand_key(hand: object) -> int:
    """Index in HANDS of ``(i, j)``, ``"i+j"`` or two card strings such as ``"K5"``."""
    if isinstance(hand, str):
        text = hand.replace(" ", "")
        parts = text.split("+") if "+" in text else list(text)
        try:
            values = [int(p) if p.isdigit() else RANK_VALUES[_rank(p)] for p in parts]
        except (KeyError, ValueError):
            raise ValueError(f"cannot read the hand {hand!r}: write it as '0+5' or 'K5'") from None
    elif isinstance(hand, tuple | list):
        values = [int(v) for v in hand]
    else:
        raise TypeError(f"a hand must be '0+5', 'K5' or a pair of values, not {type(hand).__name__} {hand!r}")
    if len(values) != 2 or not all(0 <= v <= 9 for v in values):
        raise ValueError(f"a hand is two card values 0..9, got {hand!r}")
    return int(hand_index()[values[0] % 10, values[1] % 10])


def _rank(card: str) -> int:
    from toolkit.cards import parse_card

    return parse_card(card)


def _column(third: object) -> int:
    if third is None or (isinstance(third, str) and third.strip().lower() == "stood"):
        return STOOD
    if isinstance(third, bool) or not isinstance(third, (int, np.integer)) or not 0 <= third <= 9:
        raise ValueError(f"Player's third card must be a value 0..9 or None/'stood', got {third!r}")
    return int(third)


def _third_label(col: int) -> str:
    return "stood" if col == STOOD else str(col)


@dataclass(frozen=True)
class PlayerStrategy:
    """Player's probability of drawing on each two-card hand.

    Attributes
    ----------
    draw
        55 probabilities, one per hand of :data:`toolkit.games._table.HANDS`
        (unordered pairs of values ``0+0, 0+1, ..., 9+9``); the entries of
        naturals are ignored.  The legal strategies draw on 0-4 and stand on
        6-7; others make false draws (see :data:`FALSE_DRAW_RULES`).
    name
        A label for tables.
    """

    draw: tuple[Fraction, ...]
    name: str = "player"

    def __post_init__(self) -> None:
        draw = tuple(self.draw)
        if len(draw) != 55:
            raise ValueError(f"PlayerStrategy.draw needs 55 probabilities (one per two-card hand), got {len(draw)}")
        clean = tuple(_probability(p, f"PlayerStrategy.draw[{hand_label(k)}]") for k, p in enumerate(draw))
        object.__setattr__(self, "draw", clean)

    @classmethod
    def from_totals(cls, draw: Iterable[object], name: str | None = None) -> PlayerStrategy:
        """From 10 probabilities of drawing by two-card total 0..9 (8 and 9 are ignored)."""
        probs = list(draw)
        if len(probs) != 10:
            raise ValueError(f"PlayerStrategy.from_totals needs 10 probabilities (totals 0..9), got {len(probs)}")
        return cls(tuple(probs[int(HAND_TOTALS[k])] for k in range(55)), name or "player by total")

    @classmethod
    def at_five(cls, p: object = 1, name: str | None = None) -> PlayerStrategy:
        """Draw on 0-4, stand on 6-7, and draw on 5 with probability ``p`` (1: the punto banco rule).

        >>> PlayerStrategy.at_five("9/11").draw_at_5
        Fraction(9, 11)
        """
        prob = _probability(p, "probability of drawing at 5")
        return cls.from_totals([1, 1, 1, 1, 1, prob, 0, 0, 0, 0], name or f"draw at 5 with p={prob}")

    @classmethod
    def from_hands(
        cls, at_five: Mapping[object, object], default: object = 1, name: str | None = None
    ) -> PlayerStrategy:
        """Forced play on 0-4 and 6-7; on 5, ``at_five[hand]`` for the hands given (``"0+5"``, ``"K5"``...)."""
        base = list(cls.at_five(default).draw)
        for hand, p in at_five.items():
            k = _hand_key(hand)
            if HAND_TOTALS[k] != 5:
                raise ValueError(f"hand {hand!r} totals {HAND_TOTALS[k]}, not 5: Player's only choice is at 5")
            base[k] = _probability(p, f"probability of drawing on {hand!r}")
        return cls(tuple(base), name or "player by hand")

    @property
    def draw_at_5(self) -> Fraction | None:
        """The probability of drawing on 5 when it is the same for every hand of total 5, else ``None``."""
        values = {self.draw[k] for k in range(55) if HAND_TOTALS[k] == 5}
        return values.pop() if len(values) == 1 else None

    @property
    def is_legal(self) -> bool:
        """Whether the strategy keeps the convention (draw on 0-4, stand on 6-7)."""
        return all(
            self.draw[k] == (1 if HAND_TOTALS[k] <= 4 else 0)
            for k in range(55)
            if HAND_TOTALS[k] in (0, 1, 2, 3, 4, 6, 7)
        )

    def array(self) -> np.ndarray:
        """The 55 probabilities as float64."""
        return np.array([float(p) for p in self.draw])

    def frame(self) -> pl.DataFrame:
        """The hands of total 5 and their probabilities of drawing."""
        rows = [
            {
                "hand": hand_label(k),
                "total": 5,
                "draw_probability": float(self.draw[k]),
                "draw_exact": str(self.draw[k]),
            }
            for k in range(55)
            if HAND_TOTALS[k] == 5
        ]
        return pl.DataFrame(rows)


@dataclass(frozen=True)
class BankerStrategy:
    """Banker's probability of drawing in each information set.

    Attributes
    ----------
    draw
        55 rows (Banker's two-card hand, as in :class:`PlayerStrategy`) of 11
        probabilities: Player's third card 0..9, then "Player stood"; rows of
        naturals are ignored.
    name
        A label for tables.
    """

    draw: tuple[tuple[Fraction, ...], ...]
    name: str = "banker"

    def __post_init__(self) -> None:
        rows = tuple(tuple(r) for r in self.draw)
        if len(rows) != 55 or any(len(r) != 11 for r in rows):
            raise ValueError(
                "BankerStrategy.draw needs 55 rows (two-card hands) of 11 entries (third card 0..9, stood)"
            )
        clean = tuple(
            tuple(_probability(p, f"BankerStrategy.draw[{hand_label(k)}][{_third_label(c)}]") for c, p in enumerate(r))
            for k, r in enumerate(rows)
        )
        object.__setattr__(self, "draw", clean)

    @classmethod
    def from_totals(cls, draw: Iterable[Iterable[object]], name: str | None = None) -> BankerStrategy:
        """From 10 rows (Banker's total 0..9) of 11 probabilities (third card 0..9, stood)."""
        rows = [list(r) for r in draw]
        if len(rows) != 10 or any(len(r) != 11 for r in rows):
            raise ValueError("BankerStrategy.from_totals needs 10 rows (totals 0..9) of 11 entries")
        return cls(tuple(tuple(rows[int(HAND_TOTALS[k])]) for k in range(55)), name or "banker by total")

    @classmethod
    def from_tableau(cls, tableau: Tableau = PUNTO_BANCO, name: str | None = None) -> BankerStrategy:
        """Banker plays a fixed tableau (by default the punto banco one)."""
        return cls.from_totals([[int(d) for d in row] for row in tableau.banker], name or f"{tableau.name} tableau")

    def with_cells(self, cells: Mapping[tuple[int, object], object], name: str | None = None) -> BankerStrategy:
        """A copy with Banker's probability changed in cells ``(total, third)`` (``third`` None: Player stood).

        >>> b = BankerStrategy.from_tableau().with_cells({(3, 9): 0})
        >>> b.draw_by_total(3, 9), b.draw_by_total(3, 8)
        (Fraction(0, 1), Fraction(0, 1))
        """
        rows = [list(r) for r in self.draw]
        for (total, third), p in cells.items():
            if not 0 <= int(total) <= 7:
                raise ValueError(f"Banker's total must be 0..7 (8 and 9 are naturals), got {total!r}")
            col = _column(third)
            prob = _probability(p, f"probability of drawing at ({total}, {_third_label(col)})")
            for k in range(55):
                if HAND_TOTALS[k] == total:
                    rows[k][col] = prob
        return BankerStrategy(tuple(tuple(r) for r in rows), name or f"{self.name} (modified)")

    def draw_by_total(self, total: int, third: object) -> Fraction | None:
        """Probability of drawing at ``(total, third)`` when it is the same for every hand of that total."""
        col = _column(third)
        values = {self.draw[k][col] for k in range(55) if HAND_TOTALS[k] == total}
        return values.pop() if len(values) == 1 else None

    def array(self) -> np.ndarray:
        """``(55, 11)`` float64 probabilities."""
        return np.array([[float(p) for p in r] for r in self.draw])


def seed004_banker(draw_3_9: object = 1, draw_5_4: object = 1) -> BankerStrategy:
    """The punto banco tableau with seed 004's two options set (probabilities of drawing at 3-v-9 and 5-v-4)."""
    return BankerStrategy.from_tableau().with_cells({(3, 9): draw_3_9, (5, 4): draw_5_4}, name="seed 004 banker")


# ---------------------------------------------------------------- exact values
@dataclass(frozen=True)
class CoupValue:
    """Exact outcome probabilities of a coup and the two sides' expected payoffs per unit staked.

    ``void`` is the probability of a coup voided by a false draw; ``false_draw``
    the probability of a false draw (whatever the rule).
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


def _shoe(shoe: CompositionLike | None) -> Composition:
    comp = Composition.from_any(DEFAULT_DECKS if shoe is None else shoe)
    comp.require_coup()
    return comp


def _common_ints(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Fractions -> (object array of integer numerators, common denominator)."""
    den = math.lcm(*(v.denominator for v in values.flat))
    return np.vectorize(lambda v: int(v * den), otypes=[object])(values), den


def _legal_mask() -> np.ndarray:
    """``(55, 11)``: whether Player's hand may draw (columns 0..9) or stand (column 10) by the convention."""
    legal = np.zeros((55, 11), dtype=bool)
    legal[:, :STOOD] = (HAND_TOTALS <= 5)[:, None]
    legal[:, STOOD] = HAND_TOTALS >= 5
    return legal


def _outcome_weights(table: CoupTable, player: np.ndarray, banker: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(legal, false) outcome weights (Banker wins, Player wins, tie) for strategy arrays of any dtype."""
    pw = np.empty((55, 11), dtype=player.dtype)
    pw[:, :STOOD] = player[:, None]
    pw[:, STOOD] = 1 - player
    bw = np.stack([1 - banker, banker], axis=-1)  # (55, 11, 2)
    t = table.table.astype(float)
    per = np.einsum("yca,xycao->xco", bw, t)  # (55 x, 11 col, 3)
    weighted = pw[:, :, None] * per
    legal = _legal_mask()
    nat = table.natural.sum(axis=(0, 1)).astype(float)
    return nat + weighted[legal].sum(axis=0), weighted[~legal].sum(axis=0)


def expected_value(
    shoe: CompositionLike | None,
    player: PlayerStrategy,
    banker: BankerStrategy,
    *,
    commission: object = 0,
    false_draw: str = "void",
    penalty: object = 1,
    replacement: bool = False,
    exact: bool = True,
) -> CoupValue:
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

    Examples
    --------
    The punto banco tableau and a Player who always draws at 5 is punto banco
    without commission (8 decks: P(Banker) 0.458597..., P(Player) 0.446246...):

    >>> v = expected_value(8, PlayerStrategy.at_five(1), BankerStrategy.from_tableau())
    >>> round(float(v.banker_wins), 12), round(float(v.player_wins), 12)
    (0.458597422633, 0.446246609344)
    """
    comp = _shoe(shoe)
    if false_draw not in FALSE_DRAW_RULES:
        raise ValueError(f"false_draw must be one of {', '.join(FALSE_DRAW_RULES)}, got {false_draw!r}")
    if not isinstance(player, PlayerStrategy):
        raise TypeError(f"player must be a PlayerStrategy, not {type(player).__name__}")
    if not isinstance(banker, BankerStrategy):
        raise TypeError(f"banker must be a BankerStrategy, not {type(banker).__name__}")
    c = _probability(commission, "commission")
    fine = as_fraction(penalty)
    table = coup_table(comp, replacement)
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
    return CoupValue(wins[0], wins[1], wins[2], void, p_false, c, false_draw, fine)


def _outcome_weights_int(table: CoupTable, p_int: np.ndarray, p_den: int, b_int: np.ndarray, b_den: int):
    pw = np.empty((55, 11), dtype=object)
    pw[:, :STOOD] = p_int[:, None]
    pw[:, STOOD] = p_den - p_int
    bw = np.stack([b_den - b_int, b_int], axis=-1)
    t = table.table.astype(object)
    per = np.einsum("yca,xycao->xco", bw, t)
    weighted = pw[:, :, None] * per
    legal = _legal_mask()
    nat = table.natural.sum(axis=(0, 1)).astype(object) * (p_den * b_den)
    return nat + weighted[legal].sum(axis=0), weighted[~legal].sum(axis=0)


# ----------------------------------------------------------------- the solver
@dataclass(frozen=True, eq=False)
class ChemSolution:
    """An equilibrium of a chemin de fer model for one shoe.

    Attributes
    ----------
    value
        Banker's expected payoff per unit (the value of the game without
        commission); a :class:`~fractions.Fraction` when ``exact``.
    player_value
        Player's expected payoff (``-value`` without commission).
    player, banker
        The equilibrium strategies (behaviour probabilities).
    player_draw_at_5
        Probability that Player draws on a two-card 5: his strategy when he
        sees only his total; when he sees his hand, the average over the hands
        of total 5 weighted by their probabilities.
    exact
        Whether the equilibrium was made exact and checked in fractions.
    method
        ``"linprog"`` (zero-sum LP) or ``"best-response"`` (bimatrix search).
    deviation_gains
        (Banker's, Player's) gain from deviating alone; zero at an equilibrium.
    """

    model: Model
    shoe: Composition
    commission: Fraction
    banker_options: tuple[tuple[int, int], ...] | None
    method: str
    value: Fraction | float
    player_value: Fraction | float
    exact: bool
    player: PlayerStrategy
    banker: BankerStrategy
    player_draw_at_5: Fraction | float
    deviation_gains: tuple[float, float]
    banker_table: pl.DataFrame = field(repr=False)

    def departures(self) -> pl.DataFrame:
        """Banker's information sets (reached with positive probability) where he departs from the tableau."""
        t = self.banker_table
        return t.filter(pl.col("draw_probability") != pl.col("tableau_draws").cast(pl.Float64))

    def mixed(self) -> pl.DataFrame:
        """Banker's information sets where he mixes."""
        return self.banker_table.filter((pl.col("draw_probability") > 0) & (pl.col("draw_probability") < 1))

    def player_mixed_strategy(self) -> pl.DataFrame:
        """Player's equilibrium as a mixed strategy over his pure strategies (Kuhn's theorem, read backwards).

        One row per pure strategy played with positive probability: whether
        he draws on each of his information sets at 5 (the total, or each hand
        of total 5: ``2^5`` pure strategies in B3) and its probability, the
        product of his behaviour probabilities.

        >>> solve("A1").player_mixed_strategy()["probability_exact"].to_list()
        ['9/11', '2/11']
        """
        fives = [x for x in range(55) if HAND_TOTALS[x] == 5]
        sets = [("5", fives)] if self.model.player_sees == "total" else [(hand_label(x), [x]) for x in fives]
        rows = []
        for choice in itertools.product((True, False), repeat=len(sets)):
            prob: Fraction | float = 1
            for draws, (_, hands) in zip(choice, sets, strict=True):
                q = self.player.draw[hands[0]]
                prob *= q if draws else 1 - q
            if prob > 0:
                row: dict[str, Any] = {f"draws_on_{label}": d for d, (label, _) in zip(choice, sets, strict=True)}
                row["probability"] = float(prob)
                row["probability_exact"] = str(prob) if self.exact else None
                rows.append(row)
        return pl.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: value, Player's strategy, Banker's strategy and his departures from the tableau."""

        def num(x: Fraction | float) -> float:
            return float(x)

        player_sets = self.player.frame()
        if self.model.player_sees == "total":
            player_part: Any = {
                "5": {"draw_probability": num(self.player_draw_at_5), "exact": str(self.player_draw_at_5)}
            }
        else:
            player_part = {
                r["hand"]: {"draw_probability": r["draw_probability"], "exact": r["draw_exact"]}
                for r in player_sets.to_dicts()
            }
        return {
            "model": self.model.name,
            "replacement": self.model.replacement,
            "player_sees": self.model.player_sees,
            "banker_sees": self.model.banker_sees,
            "shoe_by_value": list(self.shoe.by_value),
            "commission": float(self.commission),
            "banker_options": None if self.banker_options is None else [list(c) for c in self.banker_options],
            "method": self.method,
            "exact": self.exact,
            "value": num(self.value),
            "value_exact": str(self.value) if self.exact else None,
            "player_value": num(self.player_value),
            "player_draw_at_5": num(self.player_draw_at_5),
            "player_draw_at_5_exact": str(self.player_draw_at_5) if self.exact else None,
            "player_strategy": player_part,
            "player_mixed_strategy": self.player_mixed_strategy().to_dicts(),
            "banker_strategy": self.banker_table.select(
                "banker", "banker_total", "player_third", "draw_probability", "draw_exact"
            ).to_dicts(),
            "departures_from_tableau": self.departures()
            .select(
                "banker",
                "banker_total",
                "player_third",
                "tableau_draws",
                "draw_probability",
                "draw_exact",
                "probability",
            )
            .to_dicts(),
            "deviation_gains": list(self.deviation_gains),
        }


def _options(banker_options: object) -> frozenset | None:
    if banker_options is None:
        return None
    if isinstance(banker_options, str):
        if banker_options.strip().lower() in ("seed004", "seed 004", "restricted"):
            return frozenset(SEED004_OPTIONS)
        raise ValueError(f"unknown banker_options {banker_options!r}: use None, 'seed004' or a list of (total, third)")
    cells = set()
    for cell in banker_options:  # type: ignore[attr-defined]
        total, third = cell
        if not 0 <= int(total) <= 7:
            raise ValueError(f"banker_options: Banker's total must be 0..7, got {total!r}")
        cells.add((int(total), _column(third)))
    return frozenset(cells)


def _strategies(game: game_mod.Game, q: list, a: list) -> tuple[PlayerStrategy, BankerStrategy]:
    base = list(PlayerStrategy.at_five(1).draw)
    for x in range(55):
        if game.player_var[x] >= 0:
            base[x] = q[game.player_var[x]]
    rows = [[Fraction(0)] * 11 for _ in range(55)]
    for y in range(55):
        for col in range(11):
            i = game.info[y, col]
            if i >= 0:
                rows[y][col] = a[i]
    return PlayerStrategy(tuple(base), "optimal player"), BankerStrategy(
        tuple(tuple(r) for r in rows), "optimal banker"
    )


def _banker_table(
    game: game_mod.Game, table: CoupTable, player: PlayerStrategy, a: list, banker_sees: str
) -> pl.DataFrame:
    """One row per Banker information set reached with positive probability."""
    pw = np.empty((55, 11))
    pa = player.array()
    pw[:, :STOOD] = pa[:, None]
    pw[:, STOOD] = 1 - pa
    reach_y = np.einsum("xc,xyc->yc", pw, table.table[:, :, :, 0, :].sum(axis=3).astype(float)) / table.denominator
    reach = np.zeros(game.n_info)
    for y in range(55):
        for col in range(11):
            if game.info[y, col] >= 0:
                reach[game.info[y, col]] += reach_y[y, col]
    rows = []
    for i in range(game.n_info):
        if reach[i] <= 0:
            continue
        total, col = int(game.info_total[i]), int(game.info_col[i])
        rows.append(
            {
                "banker": str(total) if banker_sees == "total" else hand_label(int(game.info_hand[i])),
                "banker_total": total,
                "player_third": _third_label(col),
                "free": bool(game.free[i]),
                "tableau_draws": bool(PUNTO_BANCO.banker[total][col]),
                "draw_probability": float(a[i]),
                "draw_exact": str(a[i]) if isinstance(a[i], Fraction) else None,
                "probability": float(reach[i]),
            }
        )
    return pl.DataFrame(rows)


def solve(
    model: str | Model = "B2",
    shoe: CompositionLike | None = None,
    *,
    commission: object = 0,
    banker_options: object = None,
    method: str | None = None,
) -> ChemSolution:
    """Solve a chemin de fer information model for a shoe.

    Parameters
    ----------
    model
        ``"A1"``, ``"A2"``, ``"A3"``, ``"B1"``, ``"B2"`` or ``"B3"`` (see the module notes).
    shoe
        The cards left (anything :meth:`Composition.from_any` accepts; default
        six decks).  With replacement (A models) only the proportions matter.
    commission
        Taken from Banker's wins (0: the zero-sum game).
    banker_options
        ``None``: Banker chooses everywhere.  ``"seed004"`` or a list of
        ``(total, third)`` cells (``third`` None for "Player stood"): Banker
        chooses only there and follows the punto banco tableau elsewhere.
    method
        ``"linprog"`` (the zero-sum LP; the default without commission) or
        ``"best-response"`` (the bimatrix search; the default with commission,
        also valid without).

    Examples
    --------
    >>> sol = solve("A1")
    >>> sol.player_draw_at_5, sol.exact
    (Fraction(9, 11), True)
    """
    m = get_model(model)
    comp = _shoe(shoe)
    c = _probability(commission, "commission")
    if c >= 1:
        raise ValueError(f"commission must be below 1, got {commission!r}")
    options = _options(banker_options)
    if method is None:
        method = "linprog" if c == 0 else "best-response"
    if method not in ("linprog", "best-response"):
        raise ValueError(f"method must be 'linprog' or 'best-response', got {method!r}")
    if method == "linprog" and c != 0:
        raise ValueError(
            f"with a commission ({c}) the game is not zero-sum: linprog solves only the zero-sum game; "
            "use method='best-response'"
        )
    table = coup_table(comp, m.replacement)
    game = game_mod.build_game(table, m.player_sees, m.banker_sees, c, PUNTO_BANCO, options)
    if method == "linprog":
        q_hat, a_hat = game_mod.solve_lp(game)
    else:
        zero_sum = (
            game
            if c == 0
            else game_mod.build_game(table, m.player_sees, m.banker_sees, Fraction(0), PUNTO_BANCO, options)
        )
        start, _ = game_mod.solve_lp(zero_sum)
        q_hat, a_hat = game_mod.solve_best_response(game, start)
    exact = game_mod.exact_equilibrium(game, q_hat, a_hat)
    if exact is not None:
        q, a = exact
    else:
        q, a = [float(v) for v in q_hat], [float(v) for v in a_hat]
    value, player_value = game.values(q, a)
    player, banker = _strategies(game, q, a)
    at5 = _draw_at_5(table, player, exact is not None)
    return ChemSolution(
        model=m,
        shoe=comp,
        commission=c,
        banker_options=None if options is None else tuple(sorted(options)),
        method=method,
        value=value,
        player_value=player_value,
        exact=exact is not None,
        player=player,
        banker=banker,
        player_draw_at_5=at5,
        deviation_gains=game_mod.deviation_gains(game, q, a),
        banker_table=_banker_table(game, table, player, a, m.banker_sees),
    )


def _draw_at_5(table: CoupTable, player: PlayerStrategy, exact: bool) -> Fraction | float:
    fives = [x for x in range(55) if HAND_TOTALS[x] == 5]
    if player.draw_at_5 is not None:
        return player.draw_at_5 if exact else float(player.draw_at_5)
    # weight of each hand of total 5 facing a non-natural Banker
    w = table.table[:, :, STOOD, 0, :].sum(axis=(1, 2))
    num = sum((int(w[x]) * player.draw[x] for x in fives), Fraction(0))
    den = sum(int(w[x]) for x in fives)
    p = num / den if den else Fraction(1)
    return p if exact else float(p)


# ------------------------------------------------------------ best responses
def banker_best_response(
    shoe: CompositionLike | None,
    player: PlayerStrategy,
    *,
    banker_sees: str = "composition",
    replacement: bool = False,
    commission: object = 0,
) -> tuple[BankerStrategy, Fraction]:
    """Banker's best response to a legal Player strategy, and Banker's exact expected payoff.

    Where Banker is indifferent he follows the punto banco tableau.

    >>> b, v = banker_best_response(6, PlayerStrategy.at_five(1))
    >>> v > expected_value(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau()).banker_ev
    True
    """
    if not player.is_legal:
        raise ValueError("banker_best_response needs a legal Player strategy (draw on 0-4, stand on 6-7)")
    comp = _shoe(shoe)
    c = _probability(commission, "commission")
    table = coup_table(comp, replacement)
    game = game_mod.build_game(table, "composition", banker_sees, c, PUNTO_BANCO, None)
    fives = [x for x in range(55) if HAND_TOTALS[x] == 5]
    q = [player.draw[x] for x in fives]
    delta = game.banker_delta(q)
    live = game.free & ~game.trivial()
    a = [
        Fraction(1)
        if live[i] and delta[i] > 0
        else Fraction(0)
        if live[i] and delta[i] < 0
        else Fraction(int(game.forced[i]))
        for i in range(game.n_info)
    ]
    _, banker = _strategies(game, q, a)
    value, _ = game.values(q, a)
    return BankerStrategy(banker.draw, "banker best response"), value


def player_best_response(
    shoe: CompositionLike | None,
    banker: BankerStrategy,
    *,
    player_sees: str = "total",
    replacement: bool = False,
    commission: object = 0,
    false_draw: str = "void",
) -> tuple[PlayerStrategy, Fraction]:
    """Player's best legal response to a Banker strategy, and Player's exact expected payoff.

    Where Player is indifferent he draws.  (His payoff is linear in each
    probability of drawing at 5, so a pure choice is always a best response.)
    """
    if player_sees not in ("total", "composition"):
        raise ValueError(f"player_sees must be 'total' or 'composition', got {player_sees!r}")
    fives = [x for x in range(55) if HAND_TOTALS[x] == 5]
    groups = [fives] if player_sees == "total" else [[x] for x in fives]
    best = PlayerStrategy.at_five(1)
    for group in groups:
        values = []
        for p in (1, 0):
            cand = PlayerStrategy(tuple(p if x in group else best.draw[x] for x in range(55)))
            v = expected_value(
                shoe, cand, banker, commission=commission, replacement=replacement, false_draw=false_draw
            )
            values.append((v.player_ev, -p, cand))
        best = max(values, key=lambda t: (t[0], t[1]))[2]
    value = expected_value(shoe, best, banker, commission=commission, replacement=replacement).player_ev
    return PlayerStrategy(best.draw, "player best response"), value


# ----------------------------------------------------------------- simulation
def resolve_coups(
    cards: np.ndarray, player: np.ndarray, banker: np.ndarray, u_player: np.ndarray, u_banker: np.ndarray
) -> dict[str, np.ndarray]:
    """Play coups from their next six card values (``(m, 6)``), given strategy arrays and uniforms.

    Player draws when ``u_player < player[hand]``, Banker when
    ``u_banker < banker[hand, column]``.  Returns the totals, who drew, the
    number of cards used, whether Player made a false draw, and the result
    (+1 Banker wins, -1 Player wins, 0 tie).
    """
    idx = hand_index()
    x = idx[cards[:, 0], cards[:, 2]]
    y = idx[cards[:, 1], cards[:, 3]]
    tp = HAND_TOTALS[x]
    tb = HAND_TOTALS[y]
    natural = (tp >= 8) | (tb >= 8)
    p_draws = ~natural & (u_player < player[x])
    col = np.where(p_draws, cards[:, 4], STOOD)
    b_draws = ~natural & (u_banker < banker[y, col])
    b_card = np.where(p_draws, cards[:, 5], cards[:, 4])
    p_final = (tp + np.where(p_draws, cards[:, 4], 0)) % 10
    b_final = (tb + np.where(b_draws, b_card, 0)) % 10
    false = ~natural & (((tp <= 4) & ~p_draws) | ((tp >= 6) & (tp <= 7) & p_draws))
    return {
        "player_total": p_final,
        "banker_total": b_final,
        "natural": natural,
        "player_drew": p_draws,
        "banker_drew": b_draws,
        "false_draw": false,
        "cards_used": 4 + p_draws.astype(np.int64) + b_draws.astype(np.int64),
        "result": np.sign(b_final - p_final),
    }


def _payoffs(
    out: dict[str, np.ndarray], commission: Fraction, false_draw: str, penalty: Fraction
) -> dict[str, np.ndarray]:
    """The coups' columns plus ``void`` and both sides' payoffs (numpy only: safe in forked workers)."""
    result = out["result"]
    c = float(commission)
    banker = np.where(result > 0, 1 - c, np.where(result < 0, -1.0, 0.0))
    player = -result.astype(float)
    void = out["false_draw"] if false_draw == "void" else np.zeros_like(out["false_draw"])
    banker = np.where(void, 0.0, banker)
    player = np.where(void, 0.0, player)
    if false_draw == "penalty":
        player = player - float(penalty) * out["false_draw"]
    return {**out, "void": void, "banker_payoff": banker, "player_payoff": player}


def _rng(rng: object) -> np.random.Generator:
    from toolkit.parallel import as_generator

    return as_generator(rng)  # type: ignore[arg-type]


def _sample_without_replacement(counts: np.ndarray, n: int, k: int, gen: np.random.Generator, replacement: bool):
    """``(n, k)`` values: the first ``k`` cards of ``n`` independent shuffles of a shoe given by value counts."""
    left = np.tile(np.asarray(counts, dtype=np.int64), (n, 1))
    out = np.empty((n, k), dtype=np.int64)
    for j in range(k):
        total = left.sum(axis=1)
        u = gen.integers(0, total)
        cum = np.cumsum(left, axis=1)
        v = (cum <= u[:, None]).sum(axis=1)
        out[:, j] = v
        if not replacement:
            left[np.arange(n), v] -= 1
    return out


def simulate_coups(
    shoe: CompositionLike | None,
    player: PlayerStrategy,
    banker: BankerStrategy,
    n: int,
    *,
    rng: np.random.Generator | int | None = None,
    commission: object = 0,
    false_draw: str = "void",
    penalty: object = 1,
    replacement: bool = False,
) -> pl.DataFrame:
    """``n`` independent coups, each the first coup dealt from a fresh shuffle of ``shoe``.

    The sample whose mean estimates :func:`expected_value` (and the value of
    a solved game) without the correlations of a shoe.  One row per coup with
    the totals, who drew, false draws and both sides' payoffs.
    """
    comp = _shoe(shoe)
    if false_draw not in FALSE_DRAW_RULES:
        raise ValueError(f"false_draw must be one of {', '.join(FALSE_DRAW_RULES)}, got {false_draw!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"number of coups must be a positive integer, got {n!r}")
    gen = _rng(rng)
    cards = _sample_without_replacement(np.array(comp.by_value), int(n), 6, gen, replacement)
    u = gen.random((int(n), 2))
    out = resolve_coups(cards, player.array(), banker.array(), u[:, 0], u[:, 1])
    return pl.DataFrame(_payoffs(out, _probability(commission, "commission"), false_draw, as_fraction(penalty)))


def _shoe_block(
    shoes: np.ndarray, gen: np.random.Generator, player: np.ndarray, banker: np.ndarray, min_cards: int
) -> dict[str, np.ndarray]:
    """Walk a block of shuffled shoes (values, ``(n, L)``) coup by coup, all shoes at once."""
    n, length = shoes.shape
    padded = np.concatenate([shoes, np.zeros((n, 6), dtype=shoes.dtype)], axis=1)
    pos = np.zeros(n, dtype=np.int64)
    coup_no = np.zeros(n, dtype=np.int64)
    parts: list[dict[str, np.ndarray]] = []
    rows = np.arange(n)
    while True:
        active = np.flatnonzero(length - pos >= min_cards)
        if len(active) == 0:
            break
        cards = padded[active[:, None], pos[active, None] + np.arange(6)]
        u = gen.random((len(active), 2))
        out = resolve_coups(cards.astype(np.int64), player, banker, u[:, 0], u[:, 1])
        out["shoe"] = rows[active]
        out["coup"] = coup_no[active].copy()
        out["cards_left"] = length - pos[active]
        parts.append(out)
        pos[active] += out["cards_used"]
        coup_no[active] += 1
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _chemin_shoe_block(
    block: Any,
    decks: int,
    player: np.ndarray,
    banker: np.ndarray,
    min_cards: int,
    commission: Fraction,
    false_draw: str,
    penalty: Fraction,
) -> dict[str, np.ndarray]:
    """One block of :func:`simulate_shoes` (module level, so worker processes can run it; no polars in there)."""
    from toolkit.dealing import shuffled_shoes

    gen = block.rng()
    values = np.array(RANK_VALUES, dtype=np.int8)
    shoes = values[shuffled_shoes(block.n_shoes, decks, gen)]
    out = _shoe_block(shoes, gen, player, banker, min_cards)
    out["shoe"] = out["shoe"] + block.first_shoe
    return _payoffs(out, commission, false_draw, penalty)


def simulate_shoes(
    n_shoes: int,
    player: PlayerStrategy,
    banker: BankerStrategy,
    *,
    decks: int = DEFAULT_DECKS,
    rng: np.random.Generator | int | np.random.SeedSequence | None = None,
    commission: object = 0,
    false_draw: str = "void",
    penalty: object = 1,
    min_cards: int = 7,
    block_size: int = 1000,
    workers: int | None = 1,
    progress: bool = False,
) -> pl.DataFrame:
    """Deal whole chemin de fer shoes and play every coup with the given strategies.

    Shoes are shuffled by :func:`toolkit.dealing.shuffled_shoes`; a coup is
    dealt while at least ``min_cards`` cards are left (seven in the seeds: "to
    constitute a valid deal, there must be not less than seven cards").  Shoes
    come in blocks of ``block_size``, block ``b`` drawing from child ``b`` of
    ``SeedSequence(rng)`` (a Generator is first turned into a seed), so the
    result depends on the seed and the block size only, not on ``workers``
    (local processes, :func:`toolkit.parallel.map_blocks`).

    Returns one row per coup: ``shoe``, ``coup``, ``cards_left`` before it,
    the totals, draws, false draws and both sides' payoffs.
    """
    from toolkit.parallel import block_plan, map_blocks

    if isinstance(n_shoes, bool) or not isinstance(n_shoes, (int, np.integer)) or n_shoes < 1:
        raise ValueError(f"number of shoes must be a positive integer, got {n_shoes!r}")
    if false_draw not in FALSE_DRAW_RULES:
        raise ValueError(f"false_draw must be one of {', '.join(FALSE_DRAW_RULES)}, got {false_draw!r}")
    if isinstance(min_cards, bool) or not isinstance(min_cards, (int, np.integer)) or min_cards < 6:
        raise ValueError(f"min_cards must be an integer of at least 6 (a coup may use six cards), got {min_cards!r}")
    if isinstance(rng, np.random.Generator):
        rng = int(rng.integers(0, 2**63))
    work = partial(
        _chemin_shoe_block,
        decks=decks,
        player=player.array(),
        banker=banker.array(),
        min_cards=int(min_cards),
        commission=_probability(commission, "commission"),
        false_draw=false_draw,
        penalty=as_fraction(penalty),
    )
    blocks = block_plan(int(n_shoes), block_size, rng)  # type: ignore[arg-type]
    parts = list(map_blocks(work, blocks, workers=workers, progress=progress, description="chemin shoes"))
    frame = pl.DataFrame({k: np.concatenate([p[k] for p in parts]) for k in parts[0]})
    return frame.sort("shoe", "coup").select("shoe", "coup", "cards_left", pl.exclude("shoe", "coup", "cards_left"))


def summarize(frame: pl.DataFrame, z: float = 1.96) -> pl.DataFrame:
    """Mean, standard error and a ``z`` confidence interval of both sides' payoffs per coup.

    >>> s = summarize(simulate_coups(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau(), 1000, rng=1))
    >>> s["side"].to_list()
    ['banker', 'player']
    """
    rows = []
    n = frame.height
    for side in ("banker", "player"):
        x = frame[f"{side}_payoff"].to_numpy()
        mean = float(x.mean())
        se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
        rows.append(
            {"side": side, "coups": n, "mean": mean, "std_error": se, "low": mean - z * se, "high": mean + z * se}
        )
    return pl.DataFrame(rows)


# -------------------------------------------------------------------- studies
def solve_shoes(
    shoes: Mapping[str, CompositionLike],
    models: Iterable[str] = ("B2", "B3"),
    *,
    commission: object = 0,
) -> pl.DataFrame:
    """Solve several models for several named shoes: one row per (shoe, model).

    Columns: ``shoe``, ``cards``, ``model``, ``value``, ``player_draw_at_5``,
    ``departures`` (Banker's sets off the tableau), ``mixed`` (sets where he
    mixes), ``exact``.
    """
    rows = []
    for label, shoe in shoes.items():
        for name in models:
            sol = solve(name, shoe, commission=commission)
            rows.append(
                {
                    "shoe": str(label),
                    "cards": sol.shoe.total,
                    "model": sol.model.name,
                    "value": float(sol.value),
                    "player_draw_at_5": float(sol.player_draw_at_5),
                    "departures": sol.departures().height,
                    "mixed": sol.mixed().height,
                    "exact": sol.exact,
                }
            )
    return pl.DataFrame(rows)


def solve_by_decks(
    models: Iterable[str] = ("B2", "B3"), decks: Iterable[int] = range(1, 9), *, commission: object = 0
) -> pl.DataFrame:
    """:func:`solve_shoes` for full shoes of ``decks`` decks, with a ``decks`` column."""
    decks = list(decks)
    frame = solve_shoes({str(d): Composition.from_decks(d) for d in decks}, models, commission=commission)
    return frame.with_columns(pl.col("shoe").cast(pl.Int64).alias("decks")).drop("shoe")


def option_values(shoe: CompositionLike | None = None, model: str = "B2", *, commission: object = 0) -> pl.DataFrame:
    """What the optional draws are worth: Banker's expected payoff under forced and optional play.

    Rows: the forced game (Player draws at 5, the punto banco Banker); each
    side's best response to the other's forced play; the game with seed 004's
    two options; and the full game of ``model``.
    """
    comp = _shoe(shoe)
    m = get_model(model)
    forced_p, forced_b = PlayerStrategy.at_five(1), BankerStrategy.from_tableau()
    kw = {"commission": commission, "replacement": m.replacement}
    base = expected_value(comp, forced_p, forced_b, **kw)
    b_resp, b_val = banker_best_response(comp, forced_p, banker_sees=m.banker_sees, **kw)
    p_resp, p_val = player_best_response(comp, forced_b, player_sees=m.player_sees, **kw)
    restricted = solve(m, comp, commission=commission, banker_options="seed004")
    full = solve(m, comp, commission=commission)
    rows = [
        ("forced: Player draws at 5, tableau Banker", base.banker_ev, float(forced_p.draw_at_5)),
        ("Banker best-responds to the forced Player", b_val, 1.0),
        (
            "Player best-responds to the tableau Banker",
            expected_value(comp, p_resp, forced_b, **kw).banker_ev,
            _draw_at_5(coup_table(comp, m.replacement), p_resp, False),
        ),
        ("seed 004 options (3 v 9, 5 v 4), solved", restricted.value, float(restricted.player_draw_at_5)),
        (f"all options, solved ({m.name})", full.value, float(full.player_draw_at_5)),
    ]
    del b_resp, p_val
    return pl.DataFrame(
        {
            "play": [r[0] for r in rows],
            "banker_ev": [float(r[1]) for r in rows],
            "gain_over_forced": [float(r[1] - base.banker_ev) for r in rows],
            "player_draw_at_5": [float(r[2]) for r in rows],
        }
    )
