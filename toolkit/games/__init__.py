"""The games with choices: chemin de fer and baccarat banque."""

from toolkit.games.chemin import BankerStrategy, ChemSolution, PlayerStrategy, SEED004_OPTIONS, option_values
from toolkit.games.chemin.core import expected_value as chemin_value, solve as solve_chemin
from toolkit.games.banque import BanqueBanker, BanqueValue, expected_value as banque_value

__all__ = (
    "BankerStrategy",
    "BanqueBanker",
    "BanqueValue",
    "ChemSolution",
    "PlayerStrategy",
    "SEED004_OPTIONS",
    "banque_value",
    "chemin_value",
    "option_values",
    "solve_chemin",
)
