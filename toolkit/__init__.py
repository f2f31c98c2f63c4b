"""baccarat-toolkit: exact baccarat odds, effects of removal, shoes, counts and studies.

>>> import toolkit as bt
>>> round(bt.bet_stats(bt.get_bet("banker"), "8 decks").house_edge * 100, 4)
1.0579
"""

from toolkit.bets import Bet, BetStats, bet_stats, edge_table, get_bet, panel_expected_values, standard_bets
from toolkit.cards import RANKS, Composition, card_value, parse_card, parse_cards
from toolkit.engine import (
    combination_counts,
    compiled_bets,
    distribution,
    expected_values,
    main_probabilities,
    pair_probabilities,
    zero_pair_probabilities,
)
from toolkit.eor import effect_of_removal, eor_matrix
from toolkit.outcomes import Outcome, class_index, outcome_frame, outcomes
from toolkit.rules import PUNTO_BANCO, Rules, Tableau

__all__ = [
    "PUNTO_BANCO",
    "RANKS",
    "Bet",
    "BetStats",
    "Composition",
    "Outcome",
    "Rules",
    "Tableau",
    "bet_stats",
    "card_value",
    "class_index",
    "combination_counts",
    "compiled_bets",
    "distribution",
    "edge_table",
    "effect_of_removal",
    "eor_matrix",
    "expected_values",
    "get_bet",
    "main_probabilities",
    "outcome_frame",
    "outcomes",
    "pair_probabilities",
    "panel_expected_values",
    "parse_card",
    "parse_cards",
    "standard_bets",
    "zero_pair_probabilities",
]

__version__ = "0.1.0"
