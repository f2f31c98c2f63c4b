"""What an imperfect shuffle leaks: a tracker's edge on the next shoe, and the shoes needed to detect it."""

from toolkit.studies.shuffle.models import NoShuffle, Riffles, ShuffleModel, UniformShuffle
from toolkit.studies.shuffle.power import shoes_needed, shuffle_test_power, transition_null_rate, transition_statistic
from toolkit.studies.shuffle.report import edge_removed_at
from toolkit.studies.shuffle.tracker import (
    discard_orders,
    independent_expected_values,
    independent_outcome_law,
    shuffle_tracker_edge,
)
from toolkit.studies.shuffle.transition import gsr_transition, transition_matrix

__all__ = (
    "NoShuffle",
    "Riffles",
    "ShuffleModel",
    "UniformShuffle",
    "discard_orders",
    "edge_removed_at",
    "gsr_transition",
    "independent_expected_values",
    "independent_outcome_law",
    "shoes_needed",
    "shuffle_test_power",
    "shuffle_tracker_edge",
    "transition_matrix",
    "transition_null_rate",
    "transition_statistic",
)
