"""The exact values of the games beside simulated means: one table per game, with ``z`` scores.

A check anyone can rerun: the exact expected payoffs (:func:`~toolkit.games.banque.banque_value`,
:func:`~toolkit.games.chemin.solve.solve_chemin`) against the means of coups dealt from fresh
shuffles with the same strategies (:func:`~toolkit.games.banque.simulate_banque_coups`,
:func:`~toolkit.games.chemin.simulate.simulate_chemin_coups`).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from toolkit.coup.cards import CompositionLike
from toolkit.games.banque import BanqueBanker, banque_value, simulate_banque_coups
from toolkit.games.chemin.simulate import simulate_chemin_coups, summarize_chemin
from toolkit.games.chemin.solve import ChemSolution
from toolkit.games.chemin.strategies import PlayerStrategy
from toolkit.parallel import SeedLike

__all__ = ["banque_exact_vs_simulated", "chemin_exact_vs_simulated"]


def banque_exact_vs_simulated(
    shoe: CompositionLike | None,
    right: PlayerStrategy,
    left: PlayerStrategy,
    banker: BanqueBanker,
    n: int,
    *,
    seed: SeedLike = None,
    commission: object = 0,
    replacement: bool = False,
) -> pl.DataFrame:
    """The exact expected payoffs of a banque coup beside the means of ``n`` simulated coups.

    A check of the exact values (:func:`banque_value`) against the simulation
    (:func:`simulate_banque_coups`): ``z`` is the difference in standard errors.

    Parameters
    ----------
    shoe
        The cards left (default three packs, :data:`BANQUE_DECKS`).
    right, left
        The hands' strategies.
    banker
        Banker's strategy.
    n
        Simulated coups.
    seed
        An integer, a SeedSequence, a Generator (its stream continues) or ``None``.
    commission, replacement
        As for :func:`banque_value`.

    Returns
    -------
    polars.DataFrame
        One row per bet (``right``, ``left``, ``banker``, ``a_cheval``):
        ``bet, exact, simulated, std_error, z``.

    Examples
    --------
    >>> from toolkit.games.banque import banque_tableau_banker
    >>> p5 = PlayerStrategy.at_five(1)
    >>> table = banque_exact_vs_simulated(3, p5, p5, banque_tableau_banker(), 2000, seed=3)
    >>> table["bet"].to_list(), bool((table["z"].abs() < 5).all())
    (['right', 'left', 'banker', 'a_cheval'], True)
    """
    exact = banque_value(shoe, right, left, banker, commission=commission, replacement=replacement)
    sim = simulate_banque_coups(shoe, right, left, banker, n, seed=seed, commission=commission, replacement=replacement)
    rows = []
    for bet, value in (
        ("right", exact.right_ev),
        ("left", exact.left_ev),
        ("banker", exact.banker_ev),
        ("a_cheval", exact.a_cheval_ev),
    ):
        x = sim[f"{bet}_payoff"].to_numpy()
        mean = float(x.mean())
        se = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")
        rows.append(
            {
                "bet": bet,
                "exact": value,
                "simulated": mean,
                "std_error": se,
                "z": (mean - value) / se if se > 0 else float("nan"),
            }
        )
    return pl.DataFrame(rows)


def chemin_exact_vs_simulated(solution: ChemSolution, n: int, *, seed: SeedLike = None) -> pl.DataFrame:
    """The exact value of a solved chemin de fer game beside the mean payoffs of ``n`` simulated coups.

    The coups are dealt from fresh shuffles of the solution's shoe with both
    sides playing their equilibrium strategies (:func:`simulate_chemin_coups`);
    ``z`` is the difference in standard errors.

    Parameters
    ----------
    solution
        A solution of :func:`solve_chemin`.
    n
        Simulated coups.
    seed
        An integer, a SeedSequence, a Generator (its stream continues) or ``None``.

    Returns
    -------
    polars.DataFrame
        One row per side (``banker``, ``player``): ``side, exact, simulated,
        std_error, low, high`` (the 95 % interval of the simulated mean), ``z``.

    Examples
    --------
    >>> from toolkit.games.chemin.solve import solve_chemin
    >>> table = chemin_exact_vs_simulated(solve_chemin("A1"), 2000, seed=1)
    >>> table["side"].to_list(), bool((table["z"].abs() < 5).all())
    (['banker', 'player'], True)
    """
    sim = summarize_chemin(
        simulate_chemin_coups(
            solution.shoe,
            solution.player,
            solution.banker,
            n,
            seed=seed,
            commission=solution.commission,
            replacement=solution.model.replacement,
        )
    )
    exact = {"banker": float(solution.value), "player": float(solution.player_value)}
    return (
        sim.with_columns(pl.col("side").replace_strict(exact, return_dtype=pl.Float64).alias("exact"))
        .with_columns(((pl.col("mean") - pl.col("exact")) / pl.col("std_error")).alias("z"))
        .select("side", "exact", pl.col("mean").alias("simulated"), "std_error", "low", "high", "z")
    )
