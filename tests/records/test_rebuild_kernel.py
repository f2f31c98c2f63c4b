"""The two dealing kernels agree: rebuilding a complete card order deals the coups the dealing kernel deals.

:func:`toolkit.records._rebuild.rebuild` (which checks recorded cards as it deals
them) and :func:`toolkit.dealing.dealer.deal_block` take the burn count, the tableau
step and the end-of-shoe rule from :mod:`toolkit.coup.step`.  On the same shuffled
shoes, under every burn option and every last-hand rule, they give identical
coups, bookkeeping and burn cards, and every card lands in one slot.
"""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.coup.options import Burn, HiddenBurn, LastHand, code
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.records._rebuild import OK, SLOT_UNDEALT, rebuild

FIELDS = ("shoe", "coup", "start", "cards", "seen", "left", "unseen_count", "unseen", "burn_card", "burned")


def params(d: Dealing, n: int, hidden: HiddenBurn) -> dict[str, np.ndarray]:
    values = {
        "decks": d.decks,
        "burn_mode": code(d.burn),
        "burn_ace": d.burn_ace,
        "burn_fixed": d.burn_cards,
        "hidden": code(hidden),
        "cut_card": d.cut_card,
        "last_mode": code(d.last_hand),
    }
    return {k: np.full(n, v, np.int64) for k, v in values.items()}


MODES = [
    Dealing(decks=decks, burn=burn, burn_ace=burn_ace, burn_cards=5, cut_card=cut_card, last_hand=last_hand)
    for burn in Burn
    for last_hand in LastHand
    for decks, burn_ace, cut_card in ((8, 1, 14), (8, 11, 60), (1, 11, 45))
]


@pytest.mark.parametrize("hidden", [HiddenBurn.LISTED, HiddenBurn.AUTO])
@pytest.mark.parametrize(
    "dealing", MODES, ids=lambda d: f"{d.burn}{d.burn_ace}-{d.last_hand}-{d.decks}d-cut{d.cut_card}"
)
def test_rebuild_and_deal_kernels_give_the_same_coups(dealing: Dealing, hidden: HiddenBurn) -> None:
    n = 60
    shoes = shuffled_shoes(n, dealing.decks, 500 + code(dealing.burn) * 3 + code(dealing.last_hand))
    dealt = deal_block(shoes, dealing)
    offsets = np.arange(n + 1, dtype=np.int64) * dealing.cards
    rebuilt = rebuild(shoes.ravel(), offsets, params(dealing, n, hidden), dealing.tableau)
    assert (rebuilt.err_code == OK).all()
    for name in (*FIELDS, "burned_ranks"):
        assert np.array_equal(getattr(rebuilt.dealt, name), getattr(dealt, name)), name
    # every card dealt in a coup sits in the coup the dealing kernel put it in
    dealt_cards = (dealt.cards >= 0).sum(axis=1)
    in_coups = (rebuilt.card_coup > 0).reshape(n, -1).sum(axis=1)
    assert in_coups.tolist() == np.bincount(dealt.shoe, weights=dealt_cards, minlength=n).astype(int).tolist()
    undealt = (rebuilt.card_slot == SLOT_UNDEALT).reshape(n, -1).sum(axis=1)
    last = np.r_[np.flatnonzero(np.diff(dealt.shoe)), len(dealt) - 1]
    assert undealt.tolist() == (dealt.left[last] - dealt_cards[last]).tolist()
