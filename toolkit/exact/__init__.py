"""The exact engine: the distribution of the next coup for any remaining shoe, as arrays
(:mod:`toolkit.exact.engine`) and as frames (:mod:`toolkit.exact.frames`).
"""

from __future__ import annotations

from toolkit.exact.engine import (
    Distribution,
    as_rank_matrix,
    class_probabilities,
    combination_counts,
    distribution,
    main_probabilities,
    paytable_expected_values,
    zero_pair_probabilities,
)
from toolkit.exact.frames import (
    combination_counts_frame,
    distribution_frame,
)

__all__ = [
    "Distribution",
    "as_rank_matrix",
    "class_probabilities",
    "combination_counts",
    "combination_counts_frame",
    "distribution",
    "distribution_frame",
    "main_probabilities",
    "paytable_expected_values",
    "zero_pair_probabilities",
]
