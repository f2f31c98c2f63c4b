"""Chemin de fer solved as a game: information models, strategies, values, equilibria and simulation."""

from toolkit.games.chemin.core import FALSE_DRAW_RULES, MODELS, SEED004_OPTIONS, BankerStrategy, ChemSolution, CoupValue, Model, PlayerStrategy, get_model, option_values, player_best_response, solve, solve_by_decks, solve_shoes, summarize

__all__ = (
    "BankerStrategy",
    "ChemSolution",
    "CoupValue",
    "FALSE_DRAW_RULES",
    "MODELS",
    "Model",
    "PlayerStrategy",
    "SEED004_OPTIONS",
    "get_model",
    "option_values",
    "player_best_response",
    "solve",
    "solve_by_decks",
    "solve_shoes",
    "summarize",
)
