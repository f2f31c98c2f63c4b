"""Game protection from the records: who at the table is counting, and the players to test it on.

Modules
-------
:mod:`~toolkit.protection.detection`
    :func:`detect_counters`: per seat and bet, whether betting follows the exact edge (a permutation test
    within shoes, a rank correlation, corrected p-values, the effect, luck against skill, the implied count).
:mod:`~toolkit.protection.permutation`
    The within-shoe permutation test and the Holm and Benjamini-Hochberg corrections.
:mod:`~toolkit.protection.implied`
    The implied count: the library's count system or integer tags fitted to a seat's stakes, with its trigger.
:mod:`~toolkit.protection.reference`
    The fresh-shoe test: stake sequences against the edges of freshly shuffled shoes.
:mod:`~toolkit.protection.power`
    Power and false alarms: the probability of a flag against the shoes observed, with intervals.
:mod:`~toolkit.protection.scoreboard`
    What the scoreboard gives away: the posterior over the unseen cards given the bead road (exact on
    small shoes, a particle filter otherwise), each bet's edge given the road before every coup, and what
    a counter who sees only the road wins against one who sees every card.
:mod:`~toolkit.protection.players`
    Simulated players (counters, back-counters, flat bettors, progressions, road followers, a team) and
    :func:`simulate_table`, records with their bets.
"""

from toolkit.protection.detection import SEAT_COLUMNS, Detection, detect_counters
from toolkit.protection.implied import ImpliedCount, implied_count
from toolkit.protection.permutation import adjust, within_shoe_permutation
from toolkit.protection.players import (
    PLAYER_KINDS,
    Counter,
    FlatBettor,
    Player,
    Progression,
    RoadFollower,
    Team,
    simulate_table,
)
from toolkit.protection.power import power_curve, shoes_needed, trial_tests
from toolkit.protection.scoreboard import exact_posterior, road_edges, scoreboard_leak, sis_posterior

__all__ = (
    "PLAYER_KINDS",
    "SEAT_COLUMNS",
    "Counter",
    "Detection",
    "FlatBettor",
    "ImpliedCount",
    "Player",
    "Progression",
    "RoadFollower",
    "Team",
    "adjust",
    "detect_counters",
    "exact_posterior",
    "implied_count",
    "power_curve",
    "road_edges",
    "scoreboard_leak",
    "shoes_needed",
    "simulate_table",
    "sis_posterior",
    "trial_tests",
    "within_shoe_permutation",
)
