"""The coup: cards and shoes, the rules and tableau, outcomes, suited shoes, the deal's options and the
compiled coup step (:mod:`toolkit.coup.step`, imported on its own: it loads numba).
"""

from __future__ import annotations

from toolkit.coup.cards import (
    RANK_VALUES,
    RANKS,
    Composition,
    CompositionLike,
    card_value,
    hand_total,
    parse_card,
    parse_cards,
)
from toolkit.coup.options import (
    BURN_FIXED,
    BURN_NONE,
    BURN_STANDARD,
    HIDDEN_AUTO,
    HIDDEN_LISTED,
    HIDDEN_OMITTED,
    LAST_FINISH,
    LAST_ONE_MORE,
    LAST_SEVEN_CARDS,
    LAST_TWO_MORE_IF_FIRST,
    Burn,
    HiddenBurn,
    LastHand,
    code,
)
from toolkit.coup.outcome import (
    N_CLASSES,
    Outcome,
    class_index,
    outcome_frame,
    outcomes,
)
from toolkit.coup.rules import (
    MAX_TIE_PAYS,
    PUNTO_BANCO,
    Rules,
    Tableau,
    as_fraction,
)
from toolkit.coup.rules_file import MAX_RULES_FILE_BYTES, RulesFile, read_rules_file, rules_file_text
from toolkit.coup.suits import (
    CARDS,
    SUITS,
    SuitedShoe,
    blind_decks,
    blind_weights,
    suit_counts,
    uniform_weight,
)

__all__ = [
    "BURN_FIXED",
    "BURN_NONE",
    "BURN_STANDARD",
    "CARDS",
    "HIDDEN_AUTO",
    "HIDDEN_LISTED",
    "HIDDEN_OMITTED",
    "LAST_FINISH",
    "LAST_ONE_MORE",
    "LAST_SEVEN_CARDS",
    "LAST_TWO_MORE_IF_FIRST",
    "MAX_RULES_FILE_BYTES",
    "MAX_TIE_PAYS",
    "N_CLASSES",
    "PUNTO_BANCO",
    "RANKS",
    "RANK_VALUES",
    "SUITS",
    "Burn",
    "Composition",
    "CompositionLike",
    "HiddenBurn",
    "LastHand",
    "Outcome",
    "Rules",
    "RulesFile",
    "SuitedShoe",
    "Tableau",
    "as_fraction",
    "blind_decks",
    "blind_weights",
    "card_value",
    "class_index",
    "code",
    "hand_total",
    "outcome_frame",
    "outcomes",
    "parse_card",
    "parse_cards",
    "read_rules_file",
    "rules_file_text",
    "suit_counts",
    "uniform_weight",
]
