"""From edge to bankroll: Kelly bet sizing, how counters really play, and the risks of a counter's sessions.

* :mod:`~toolkit.sizing.kelly`: Kelly-optimal stakes from the exact payout distribution, one bet or several jointly;
* :mod:`~toolkit.sizing.plays`: Kelly plays, table limits and chips, back-counting, counting errors;
* :mod:`~toolkit.sizing.risk`: risk of ruin, trip risk, the goal before ruin, by formula and by simulation;
* :mod:`~toolkit.sizing.lattice`: the exact risks of a walk whose shoe results are whole multiples of one unit;
* :mod:`~toolkit.sizing.report`: :func:`bankroll`, everything for one counter and one bankroll.
"""

from toolkit.sizing.kelly import (
    PayoutOutcomes,
    growth_rate,
    kelly_fractions,
    kelly_stakes,
    outcome_probabilities,
    payout_outcomes,
)
from toolkit.sizing.lattice import LatticeWalk
from toolkit.sizing.plays import (
    BackCount,
    Gate,
    KellyPlay,
    LimitedPlay,
    Limits,
    MiscountedPlay,
    SeatBet,
    kelly_ramp,
    kelly_strategy,
    sized_strategy,
)
from toolkit.sizing.report import BankrollReport, bankroll_report, probability_text
from toolkit.sizing.risk import (
    SimulatedRisk,
    adjustment_coefficient,
    bankroll_paths,
    gamblers_ruin,
    goal_diffusion,
    goal_lundberg,
    halving_probability,
    ruin_diffusion,
    ruin_lundberg,
    session_results,
    simulate_fractional_kelly,
    simulate_risk,
    skip_free_ruin,
    trip_ruin_diffusion,
    trip_ruin_lundberg,
)

__all__ = (
    "BackCount",
    "BankrollReport",
    "Gate",
    "KellyPlay",
    "LatticeWalk",
    "LimitedPlay",
    "Limits",
    "MiscountedPlay",
    "PayoutOutcomes",
    "SeatBet",
    "SimulatedRisk",
    "adjustment_coefficient",
    "bankroll_paths",
    "bankroll_report",
    "gamblers_ruin",
    "goal_diffusion",
    "goal_lundberg",
    "growth_rate",
    "halving_probability",
    "kelly_fractions",
    "kelly_ramp",
    "kelly_stakes",
    "kelly_strategy",
    "outcome_probabilities",
    "payout_outcomes",
    "probability_text",
    "ruin_diffusion",
    "ruin_lundberg",
    "session_results",
    "simulate_fractional_kelly",
    "simulate_risk",
    "sized_strategy",
    "skip_free_ruin",
    "trip_ruin_diffusion",
    "trip_ruin_lundberg",
)
