"""Shoes dealt as a casino deals them (burn, cut card, last-hand rule) and shoes shuffled badly on purpose."""

from __future__ import annotations

from toolkit.dealing.dealer import (
    COUP_FIELDS,
    MAX_DECKS,
    SHOE_FIELDS,
    Dealing,
    DealtShoes,
    deal,
    deal_block,
    dealt_shoes,
    shuffled_shoes,
)
from toolkit.dealing.shuffles import (
    riffle_shuffle,
    stacked_shoes,
)

__all__ = [
    "COUP_FIELDS",
    "MAX_DECKS",
    "SHOE_FIELDS",
    "Dealing",
    "DealtShoes",
    "deal",
    "deal_block",
    "dealt_shoes",
    "riffle_shuffle",
    "shuffled_shoes",
    "stacked_shoes",
]
