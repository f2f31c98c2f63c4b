"""What the scoreboard gives away: the unseen cards given only the bead road (winner, pairs, naturals), and their worth.

A scoreboard shows, for each coup, a *symbol*: the winner, whether Player and Banker were dealt pairs, and whether
the coup was a natural (24 symbols).  Given the symbols of the coups so far, the cards dealt are unknown, but not
uniformly so: a run of naturals means eights and nines have gone.

Modules
-------
:mod:`~toolkit.protection.scoreboard.symbols`
    The symbols, their probabilities under many compositions at once (the exact engine), and the exact posterior
    over the unseen cards given a road, by enumeration (small shoes).
:mod:`~toolkit.protection.scoreboard.posterior`
    The posterior by sequential importance sampling: a particle filter weighted by the exact probability of each
    symbol and moved by coups drawn given it (:class:`RoadFilter`, :func:`sis_posterior`).
:mod:`~toolkit.protection.scoreboard.counters`
    What the road is worth: a Bayes counter (bets on the edge given the road), a regression counter and a card
    counter on the same shoes (:func:`scoreboard_leak`).
"""

from toolkit.protection.scoreboard.counters import BETS, COUNTERS, road_edges, scoreboard_leak, scoreboard_shoes
from toolkit.protection.scoreboard.posterior import RoadFilter, sis_posterior, systematic_resample
from toolkit.protection.scoreboard.symbols import (
    SYMBOLS,
    coup_law,
    exact_posterior,
    road_symbols,
    symbol_bets,
    symbol_index,
    symbol_probabilities,
)

__all__ = [
    "BETS",
    "COUNTERS",
    "SYMBOLS",
    "RoadFilter",
    "coup_law",
    "exact_posterior",
    "road_edges",
    "road_symbols",
    "scoreboard_leak",
    "scoreboard_shoes",
    "sis_posterior",
    "symbol_bets",
    "symbol_index",
    "symbol_probabilities",
    "systematic_resample",
]
