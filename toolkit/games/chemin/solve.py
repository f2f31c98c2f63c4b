r"""Chemin de fer solved: equilibria of the information models for any shoe, and best responses.

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
computed once, exactly, from the coup table of the shoe.
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

With a commission the game is not zero-sum.  :func:`solve_chemin` then finds a Nash
equilibrium by best responses: Banker best-responds (a comparison in each
set); for each of Player's variables in turn the one-dimensional equilibrium is
found exactly on the piecewise-constant gradient of Player's payoff, sweeping
until nothing moves (started from the zero-sum solution), and the result is
made exact and checked as above.  (Ethier & Lee 2023 study this bimatrix game.)

Examples
--------
>>> sol = solve_chemin("A1")
>>> sol.player_draw_at_5
Fraction(9, 11)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import probability
from toolkit._show import html_table, text_table
from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.rules import PUNTO_BANCO
from toolkit.coup.step import PLAYER_STOOD
from toolkit.games._hands import HAND_TOTALS, hand_label, third_column, third_label
from toolkit.games.chemin._game import (
    Game,
    build_game,
    deviation_gains,
    exact_equilibrium,
    solve_best_response,
    solve_lp,
)
from toolkit.games.chemin._table import ChemTable, chem_table, chemin_shoe
from toolkit.games.chemin.models import RESTRICTED_BANKER_OPTIONS, ChemModel, get_chemin_model
from toolkit.games.chemin.strategies import BankerStrategy, PlayerStrategy
from toolkit.games.chemin.value import chemin_value

__all__ = ["ChemSolution", "chemin_banker_best_response", "chemin_player_best_response", "solve_chemin"]

#: What ``banker_options`` accepts: ``None``, ``"restricted"``, or cells ``(total, third)``.
BankerOptions = str | Iterable[tuple[int, object]] | None


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

    model: ChemModel
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

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        title = f"ChemSolution: model {self.model.name}, {self.shoe.total:,}-card shoe ({self.method})"
        return title, [
            ("value to Banker", self.value),
            ("value to Player", self.player_value),
            ("P(Player draws on 5)", self.player_draw_at_5),
            ("commission", self.commission),
            ("exact", self.exact),
            ("Banker departs from the tableau", f"{self.departures().height} information set(s)"),
            ("Banker mixes", f"{self.mixed().height} information set(s)"),
            ("deviation gains", f"{self.deviation_gains[0]:.3g}, {self.deviation_gains[1]:.3g}"),
        ]

    def __repr__(self) -> str:
        """The value and the headline of the strategies (:meth:`departures`, :meth:`to_dict` hold the rest)."""
        return text_table(*self._shown())

    def _repr_html_(self) -> str:
        return html_table(*self._shown())

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

        >>> solve_chemin("A1").player_mixed_strategy()["probability_exact"].to_list()
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


def _options(banker_options: BankerOptions) -> frozenset | None:
    if banker_options is None:
        return None
    if isinstance(banker_options, str):
        if banker_options.strip().lower() == "restricted":
            return frozenset(RESTRICTED_BANKER_OPTIONS)
        raise ValueError(
            f"unknown banker_options {banker_options!r}: use None, 'restricted' or a list of (total, third)"
        )
    cells = set()
    for cell in banker_options:
        total, third = cell
        if not 0 <= int(total) <= 7:
            raise ValueError(f"banker_options: Banker's total must be 0..7, got {total!r}")
        cells.add((int(total), third_column(third)))
    return frozenset(cells)


def _strategies(game: Game, q: list, a: list) -> tuple[PlayerStrategy, BankerStrategy]:
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


def _banker_table(game: Game, table: ChemTable, player: PlayerStrategy, a: list, banker_sees: str) -> pl.DataFrame:
    """One row per Banker information set reached with positive probability."""
    pw = np.empty((55, 11))
    pa = player.array()
    pw[:, :PLAYER_STOOD] = pa[:, None]
    pw[:, PLAYER_STOOD] = 1 - pa
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
                "player_third": third_label(col),
                "free": bool(game.free[i]),
                "tableau_draws": bool(PUNTO_BANCO.banker[total][col]),
                "draw_probability": float(a[i]),
                "draw_exact": str(a[i]) if isinstance(a[i], Fraction) else None,
                "probability": float(reach[i]),
            }
        )
    return pl.DataFrame(rows)


def solve_chemin(
    model: str | ChemModel = "B2",
    shoe: CompositionLike | None = None,
    *,
    commission: object = 0,
    banker_options: BankerOptions = None,
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
        ``None``: Banker chooses everywhere.  ``"restricted"`` (the casino's
        restricted Banker options, :data:`~toolkit.games.chemin.models.RESTRICTED_BANKER_OPTIONS`) or a list of
        ``(total, third)`` cells (``third`` None for "Player stood"): Banker
        chooses only there and follows the punto banco tableau elsewhere.
    method
        ``"linprog"`` (the zero-sum LP; the default without commission) or
        ``"best-response"`` (the bimatrix search; the default with commission,
        also valid without).

    Returns
    -------
    ChemSolution
        The equilibrium: value, both strategies, Banker's departures from the tableau.

    References
    ----------
    Kemeny & Snell, "Game-theoretic solution of baccarat", *Amer. Math. Monthly* 64 (1957) 465-469;
    Ethier & Gámez, "A game-theoretic analysis of baccara chemin de fer", *Games* 4 (2013) 711-737.

    Examples
    --------
    >>> sol = solve_chemin("A1")
    >>> sol.player_draw_at_5, sol.exact
    (Fraction(9, 11), True)
    """
    m = get_chemin_model(model)
    comp = chemin_shoe(shoe)
    c = probability(commission, "commission")
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
    table = chem_table(comp, m.replacement)
    game = build_game(table, m.player_sees, m.banker_sees, c, PUNTO_BANCO, options)
    if method == "linprog":
        q_hat, a_hat = solve_lp(game)
    else:
        zero_sum = (
            game if c == 0 else build_game(table, m.player_sees, m.banker_sees, Fraction(0), PUNTO_BANCO, options)
        )
        start, _ = solve_lp(zero_sum)
        q_hat, a_hat = solve_best_response(game, start)
    exact = exact_equilibrium(game, q_hat, a_hat)
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
        deviation_gains=deviation_gains(game, q, a),
        banker_table=_banker_table(game, table, player, a, m.banker_sees),
    )


def _draw_at_5(table: ChemTable, player: PlayerStrategy, exact: bool) -> Fraction | float:
    p = table.player_draw_at_5(player.draw)
    return p if exact else float(p)


# ------------------------------------------------------------ best responses
def chemin_banker_best_response(
    shoe: CompositionLike | None,
    player: PlayerStrategy,
    *,
    banker_sees: str = "composition",
    replacement: bool = False,
    commission: object = 0,
) -> tuple[BankerStrategy, Fraction]:
    """Banker's best response to a legal Player strategy, and Banker's exact expected payoff.

    Where Banker is indifferent he follows the punto banco tableau.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`~toolkit.coup.Composition.from_any` accepts; ``None``: the game's full shoe).
    player
        Player's strategy.
    banker_sees
        ``"composition"`` (his hand) or ``"total"``.
    replacement
        Deal with replacement.
    commission
        Taken from Banker's wins.

    Returns
    -------
    (BankerStrategy, fractions.Fraction)
        The best response and Banker's expected payoff.

    References
    ----------
    Ethier & Gámez, "A game-theoretic analysis of baccara chemin de fer", *Games* 4 (2013) 711-737.

    Examples
    --------
    >>> b, v = chemin_banker_best_response(6, PlayerStrategy.at_five(1))
    >>> v > chemin_value(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau()).banker_ev
    True
    """
    if not player.is_legal:
        raise ValueError("chemin_banker_best_response needs a legal Player strategy (draw on 0-4, stand on 6-7)")
    comp = chemin_shoe(shoe)
    c = probability(commission, "commission")
    table = chem_table(comp, replacement)
    game = build_game(table, "composition", banker_sees, c, PUNTO_BANCO, None)
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


def chemin_player_best_response(
    shoe: CompositionLike | None,
    banker: BankerStrategy,
    *,
    player_sees: str = "total",
    replacement: bool = False,
    commission: object = 0,
    false_draw: str = "void",
) -> tuple[PlayerStrategy, Fraction | float]:
    """Player's best legal response to a Banker strategy, and Player's exact expected payoff.

    Where Player is indifferent he draws.  (His payoff is linear in each
    probability of drawing at 5, so a pure choice is always a best response.)

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`~toolkit.coup.Composition.from_any` accepts; ``None``: the game's full shoe).
    banker
        Banker's strategy.
    player_sees
        ``"total"`` or ``"composition"`` (his hand).
    replacement
        Deal with replacement.
    commission
        Taken from Banker's wins.
    false_draw
        What a false draw does.

    Returns
    -------
    (PlayerStrategy, fractions.Fraction or float)
        The best response and Player's expected payoff.

    References
    ----------
    Ethier & Gámez, "A game-theoretic analysis of baccara chemin de fer", *Games* 4 (2013) 711-737.

    Examples
    --------
    >>> from toolkit.games._hands import hand_index
    >>> from toolkit.games.chemin.strategies import BankerStrategy
    >>> p, v = chemin_player_best_response(6, BankerStrategy.from_tableau())
    >>> p.draw[hand_index()[5, 0]]
    Fraction(1, 1)
    """
    if player_sees not in ("total", "composition"):
        raise ValueError(f"player_sees must be 'total' or 'composition', got {player_sees!r}")
    fives = [x for x in range(55) if HAND_TOTALS[x] == 5]
    groups = [fives] if player_sees == "total" else [[x] for x in fives]
    best = PlayerStrategy.at_five(1)
    for group in groups:
        values = []
        for p in (1, 0):
            cand = PlayerStrategy(tuple(Fraction(p) if x in group else best.draw[x] for x in range(55)))
            v = chemin_value(shoe, cand, banker, commission=commission, replacement=replacement, false_draw=false_draw)
            values.append((v.player_ev, -p, cand))
        best = max(values, key=lambda t: (t[0], t[1]))[2]
    value = chemin_value(shoe, best, banker, commission=commission, replacement=replacement).player_ev
    return PlayerStrategy(best.draw, "player best response"), value
