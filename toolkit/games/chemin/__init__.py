r"""Chemin de fer solved as a game: information models, strategies, exact values, equilibria and simulation.

The game
--------
Banker and Player (the punter who represents the punters) each get two cards
(cards 1 and 3 to Player, 2 and 4 to Banker).  A two-card 8 or 9 is a natural
and ends the coup.  Otherwise Player must draw on 0-4 and stand on 6-7; on 5
he chooses (the rule as the literature models it: Kemeny & Snell 1957,
Ethier & Gámez 2013).  His third card is dealt face up.  Banker then chooses
to draw or stand, knowing his own two cards and Player's third card (or that
Player stood).  The higher total wins one unit; ties push.  Without
commission the game is zero-sum; with a commission ``c`` on Banker's wins,
Banker wins ``1 - c`` while Player still loses 1, and the game is a bimatrix
game.  The shoe holds six packs and a coup starts only while at least seven
cards are left.

Modules: :mod:`~toolkit.games.chemin.models` (the information models A1-B3
and the house rules), :mod:`~toolkit.games.chemin.strategies`,
:mod:`~toolkit.games.chemin.value` (the exact value of given strategies),
:mod:`~toolkit.games.chemin.solve` (equilibria and best responses),
:mod:`~toolkit.games.chemin.simulate` and :mod:`~toolkit.games.chemin.studies`.

>>> solve_chemin("A1").player_draw_at_5
Fraction(9, 11)
"""

from toolkit.games.chemin.models import (
    CHEMIN_DECKS,
    CHEMIN_MODELS,
    FALSE_DRAW_RULES,
    RESTRICTED_BANKER_OPTIONS,
    ChemModel,
    get_chemin_model,
)
from toolkit.games.chemin.simulate import (
    resolve_chemin_coups,
    simulate_chemin_coups,
    simulate_chemin_shoes,
    summarize_chemin,
)
from toolkit.games.chemin.solve import (
    ChemSolution,
    chemin_banker_best_response,
    chemin_player_best_response,
    solve_chemin,
)
from toolkit.games.chemin.strategies import BankerStrategy, PlayerStrategy, restricted_banker
from toolkit.games.chemin.studies import chemin_option_values, solve_chemin_by_decks, solve_chemin_shoes
from toolkit.games.chemin.value import ChemValue, chemin_value

__all__ = (
    "CHEMIN_DECKS",
    "CHEMIN_MODELS",
    "FALSE_DRAW_RULES",
    "RESTRICTED_BANKER_OPTIONS",
    "BankerStrategy",
    "ChemModel",
    "ChemSolution",
    "ChemValue",
    "PlayerStrategy",
    "chemin_banker_best_response",
    "chemin_option_values",
    "chemin_player_best_response",
    "chemin_value",
    "get_chemin_model",
    "resolve_chemin_coups",
    "restricted_banker",
    "simulate_chemin_coups",
    "simulate_chemin_shoes",
    "solve_chemin",
    "solve_chemin_by_decks",
    "solve_chemin_shoes",
    "summarize_chemin",
)
