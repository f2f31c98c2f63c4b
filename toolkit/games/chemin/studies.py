"""Chemin de fer studies: solutions across shoes and deck counts, and what the optional draws are worth."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import polars as pl

from toolkit.coup.cards import Composition, CompositionLike
from toolkit.games.chemin._table import chem_table, chemin_shoe
from toolkit.games.chemin.models import ChemModel, get_chemin_model
from toolkit.games.chemin.solve import chemin_banker_best_response, chemin_player_best_response, solve_chemin
from toolkit.games.chemin.strategies import BankerStrategy, PlayerStrategy
from toolkit.games.chemin.value import chemin_value

__all__ = ["chemin_option_values", "solve_chemin_by_decks", "solve_chemin_shoes"]


def solve_chemin_shoes(
    shoes: Mapping[str, CompositionLike],
    models: Iterable[str] = ("B2", "B3"),
    *,
    commission: object = 0,
) -> pl.DataFrame:
    """Solve several models for several named shoes: one row per (shoe, model).

    Columns: ``shoe``, ``cards``, ``model``, ``value``, ``player_draw_at_5``,
    ``departures`` (Banker's sets off the tableau), ``mixed`` (sets where he
    mixes), ``exact``.

    Parameters
    ----------
    shoes
        Shoes by label.
    models
        Model names.
    commission
        Taken from Banker's wins.

    Returns
    -------
    polars.DataFrame
        One row per (shoe, model).

    Examples
    --------
    >>> solve_chemin_shoes({"full": 6}, ["B1"])["shoe"].to_list()
    ['full']
    """
    rows = []
    for label, shoe in shoes.items():
        for name in models:
            sol = solve_chemin(name, shoe, commission=commission)
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


def solve_chemin_by_decks(
    models: Iterable[str] = ("B2", "B3"), decks: Iterable[int] = range(1, 9), *, commission: object = 0
) -> pl.DataFrame:
    """:func:`solve_chemin_shoes` for full shoes of ``decks`` decks, with a ``decks`` column.

    Parameters
    ----------
    models
        Model names.
    decks
        Deck counts.
    commission
        Taken from Banker's wins.

    Returns
    -------
    polars.DataFrame
        One row per (decks, model).

    Examples
    --------
    >>> solve_chemin_by_decks(["B1"], [1, 6])["decks"].to_list()
    [1, 6]
    """
    decks = list(decks)
    frame = solve_chemin_shoes({str(d): Composition.from_decks(d) for d in decks}, models, commission=commission)
    return frame.with_columns(pl.col("shoe").cast(pl.Int64).alias("decks")).drop("shoe")


def chemin_option_values(
    shoe: CompositionLike | None = None, model: str | ChemModel = "B2", *, commission: object = 0
) -> pl.DataFrame:
    """What the optional draws are worth: Banker's expected payoff under forced and optional play.

    Rows: the forced game (Player draws at 5, the punto banco Banker); each
    side's best response to the other's forced play; the game with the casino's
    restricted Banker options (Banker chooses only at 3 against a 9 and at 5
    against a 4); and the full game of ``model``.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`~toolkit.coup.Composition.from_any` accepts; ``None``: the game's full shoe).
    model
        The information model of the full game.
    commission
        Taken from Banker's wins.

    Returns
    -------
    polars.DataFrame
        One row per game: its label and Banker's expected payoff.

    References
    ----------
    Ethier & Gámez, "A game-theoretic analysis of baccara chemin de fer", *Games* 4 (2013) 711-737.

    Examples
    --------
    >>> chemin_option_values(6, "B2").height
    5
    """
    comp = chemin_shoe(shoe)
    m = get_chemin_model(model)
    forced_p, forced_b = PlayerStrategy.at_five(1), BankerStrategy.from_tableau()
    kw: dict[str, Any] = {"commission": commission, "replacement": m.replacement}
    base = chemin_value(comp, forced_p, forced_b, **kw)
    _, b_val = chemin_banker_best_response(comp, forced_p, banker_sees=m.banker_sees, **kw)
    p_resp, _ = chemin_player_best_response(comp, forced_b, player_sees=m.player_sees, **kw)
    restricted = solve_chemin(m, comp, commission=commission, banker_options="restricted")
    full = solve_chemin(m, comp, commission=commission)
    rows = [
        ("forced: Player draws at 5, tableau Banker", base.banker_ev, 1.0),
        ("Banker best-responds to the forced Player", b_val, 1.0),
        (
            "Player best-responds to the tableau Banker",
            chemin_value(comp, p_resp, forced_b, **kw).banker_ev,
            float(chem_table(comp, m.replacement).player_draw_at_5(p_resp.draw)),
        ),
        ("restricted Banker options (3 v 9, 5 v 4), solved", restricted.value, float(restricted.player_draw_at_5)),
        (f"all options, solved ({m.name})", full.value, float(full.player_draw_at_5)),
    ]
    return pl.DataFrame(
        {
            "play": [r[0] for r in rows],
            "banker_ev": [float(r[1]) for r in rows],
            "gain_over_forced": [float(r[1] - base.banker_ev) for r in rows],
            "player_draw_at_5": [float(r[2]) for r in rows],
        }
    )
