"""Edges as the shoe depletes: effects of removal, a known card's worth, partial information (edge sorting,
flashed cards), the edges of dealt shoes, and the published figures the toolkit reproduces.
"""

from __future__ import annotations

from toolkit.edges.depletion import (
    MAIN_VARIANTS,
    depletion_by_value,
    edges_by_decks,
    random_depletion,
)
from toolkit.edges.eor import (
    EXACT_ABOVE,
    effect_of_removal,
    eor_matrix,
)
from toolkit.edges.information import (
    InformationEdge,
    best_partitions,
    information_edge,
)
from toolkit.edges.known_card import (
    known_card_edges,
    known_card_gain,
)
from toolkit.edges.reference import (
    ENGINE_TABLES,
    REFERENCE_TABLES,
    Reproduced,
    compare_published,
    load_reference,
    printed_number,
    printed_tolerance,
    reference_dir,
)

__all__ = [
    "ENGINE_TABLES",
    "EXACT_ABOVE",
    "MAIN_VARIANTS",
    "REFERENCE_TABLES",
    "InformationEdge",
    "Reproduced",
    "best_partitions",
    "compare_published",
    "depletion_by_value",
    "edges_by_decks",
    "effect_of_removal",
    "eor_matrix",
    "information_edge",
    "known_card_edges",
    "known_card_gain",
    "load_reference",
    "printed_number",
    "printed_tolerance",
    "random_depletion",
    "reference_dir",
]
