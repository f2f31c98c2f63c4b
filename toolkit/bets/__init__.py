"""Bets: the one bet type (:class:`Bet`: a pay table, or a bet on any card of the coup with its compiled
evaluator) and its statistics, the one function that prices bets on shoes (:func:`expected_values`), bet
files (TOML), the catalogue of real side bets and the combinatorial-analysis table.
"""

from __future__ import annotations

from toolkit.bets.base import Bet
from toolkit.bets.ca import (
    CATable,
    ca_summary,
    ca_table,
)
from toolkit.bets.catalogue import (
    CATALOGUE,
    catalogue_names,
    catalogue_spec,
)
from toolkit.bets.conditions import (
    MAX_CONDITION_CHARS,
    MAX_DEPTH,
    MAX_LITERAL,
    ConditionError,
    condition,
)
from toolkit.bets.coup_bets import (
    CoupBet,
    coup_distribution,
    coup_payouts,
)
from toolkit.bets.files import (
    MAX_BET_FILE_BYTES,
    MAX_PAY_ROWS,
    BetSpec,
    pay_table,
    read_bet_file,
)
from toolkit.bets.paytable import (
    BetStats,
    PayTable,
    bet_from_file,
    bet_names,
    bet_payouts,
    bet_stats,
    edge_table,
    get_bet,
    get_plain_bet,
    make_bet,
    standard_bets,
)
from toolkit.bets.pricing import expected_values

__all__ = [
    "CATALOGUE",
    "MAX_BET_FILE_BYTES",
    "MAX_CONDITION_CHARS",
    "MAX_DEPTH",
    "MAX_LITERAL",
    "MAX_PAY_ROWS",
    "Bet",
    "BetSpec",
    "BetStats",
    "CATable",
    "ConditionError",
    "CoupBet",
    "PayTable",
    "bet_from_file",
    "bet_names",
    "bet_payouts",
    "bet_stats",
    "ca_summary",
    "ca_table",
    "catalogue_names",
    "catalogue_spec",
    "condition",
    "coup_distribution",
    "coup_payouts",
    "edge_table",
    "expected_values",
    "get_bet",
    "get_plain_bet",
    "make_bet",
    "pay_table",
    "read_bet_file",
    "standard_bets",
]
