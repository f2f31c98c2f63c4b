"""An independent, deliberately plain dealer: one Python loop step per card.

It shares no code with :mod:`toolkit.dealing.dealer` (not even the tableau: the
drawing rules are written out from the rulebook here), so agreement between
the two on the same shuffled shoes is evidence for both.  It also keeps, card
by card, what a counter has seen before each coup, for the look-ahead tests.

Rules, as the casino procedures read (Wizard of Odds; Jacobson):

* Standard burn: turn the first card face up (it is seen) and burn as many
  cards face down as its value, a ten or face card burning 10 and an ace 1 or
  11.  Fixed burn: ``burn_cards`` face down.  None: nothing.
* Deal order: cards 1 and 3 to Player, 2 and 4 to Banker; Player's third card,
  then Banker's.
* The cut card lies before the card ``cut_card`` places from the end.  When
  dealing reaches that card the cut card "comes out".  ``one_more``: if it
  came out as the first card of a coup (or earlier, during the burn), that
  coup is the last; if it came out during a coup, one more coup is played.
  ``finish``: the coup in which it comes out is the last.  ``seven_cards``:
  no cut card; a coup starts only with at least seven cards left.
  ``two_more_if_first`` (Jacobson: "If the cut-card is the first card dealt in
  a round, then two additional rounds are dealt", otherwise one more): the
  coup in which the cut card comes out is followed by exactly one more, also
  when it came out as that coup's first card (or during the burn).  With a
  fixed number of coups, exactly that many are dealt.  In every case a coup
  starts only if six cards remain.
"""

from __future__ import annotations

from dataclasses import dataclass, field

VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)  # A, 2..9, T, J, Q, K


def player_draws(total: int) -> bool:
    return total <= 5


def banker_draws(total: int, player_third: int | None) -> bool:
    if player_third is None:
        return total <= 5
    if total <= 2:
        return True
    if total == 3:
        return player_third != 8
    if total == 4:
        return 2 <= player_third <= 7
    if total == 5:
        return 4 <= player_third <= 7
    if total == 6:
        return player_third in (6, 7)
    return False


@dataclass
class LoopCoup:
    coup: int
    start: int
    player: list[int]
    banker: list[int]
    seen: int
    left: int
    unseen_count: int
    unseen: list[int]  # counts by rank before the coup


@dataclass
class LoopShoe:
    coups: list[LoopCoup] = field(default_factory=list)
    burn_card: int = -1
    burned: list[int] = field(default_factory=list)


def deal_shoe(
    cards: list[int],
    decks: int = 8,
    burn: str = "standard",
    burn_ace: int = 1,
    burn_cards: int = 0,
    cut_card: int = 14,
    last_hand: str = "one_more",
    coups: int | None = None,
) -> LoopShoe:
    """Deal one shuffled shoe (a list of rank indices) card by card."""
    n = len(cards)
    assert n == 52 * decks
    seen_counts = [0] * 13
    shoe = LoopShoe()
    pos = 0
    if burn == "standard":
        first = cards[0]
        shoe.burn_card = first
        seen_counts[first] += 1
        if VALUES[first] == 0:
            k = 10
        elif first == 0:
            k = burn_ace
        else:
            k = VALUES[first]
        shoe.burned = list(cards[1 : 1 + k])
        pos = 1 + k
    elif burn == "fixed":
        shoe.burned = list(cards[:burn_cards])
        pos = burn_cards
    cut_pos = n - cut_card
    uses_cut = coups is None and last_hand != "seven_cards"
    one_more_pending = False
    while True:
        left = n - pos
        if left < 6:
            break
        if coups is not None and len(shoe.coups) >= coups:
            break
        if last_hand == "seven_cards" and coups is None and left < 7:
            break
        cut_already_out = uses_cut and pos > cut_pos  # came out before this coup (during the burn)
        start = pos
        record = LoopCoup(
            coup=len(shoe.coups) + 1,
            start=start,
            player=[],
            banker=[],
            seen=sum(seen_counts),
            left=left,
            unseen_count=left + len(shoe.burned),
            unseen=[4 * decks - s for s in seen_counts],
        )
        cut_at = None  # index within the coup of the card the cut card came out before

        def draw(hand: list[int], start: int = start) -> int:
            nonlocal pos, cut_at
            if pos == cut_pos and cut_at is None:
                cut_at = pos - start
            card = cards[pos]
            pos += 1
            seen_counts[card] += 1
            hand.append(card)
            return card

        draw(record.player)
        draw(record.banker)
        draw(record.player)
        draw(record.banker)
        pt = (VALUES[record.player[0]] + VALUES[record.player[1]]) % 10
        bt = (VALUES[record.banker[0]] + VALUES[record.banker[1]]) % 10
        if pt < 8 and bt < 8:
            third = None
            if player_draws(pt):
                third = VALUES[draw(record.player)]
            if banker_draws(bt, third):
                draw(record.banker)
        shoe.coups.append(record)
        if not uses_cut:
            continue
        if one_more_pending:
            break
        if last_hand == "two_more_if_first" and (cut_already_out or cut_at is not None):
            one_more_pending = True  # the round the cut card opened (or came out in) and one more
            continue
        if cut_already_out or cut_at == 0:
            break
        if cut_at is not None:
            if last_hand == "finish":
                break
            one_more_pending = True
    return shoe
