"""The dealing rules written once (``toolkit.coup.step``) against the rule tables and the loop dealer.

* The burn count for every rank and both ace rules, against the rule as the
  casino procedures state it (a ten or face card burns 10, an ace 1 or 11,
  any other card its pip value); the face-down count of every burn option.
* The tableau step (natural, Player's draw, Banker's draw by Player's third
  card) against the drawing rules written out in ``tests/loop_dealer.py``.
* The end-of-shoe rule (:func:`may_start`, :func:`cut_card_after`): a dealer
  made of the loop dealer's tableau and these two functions deals the same
  coups as the loop dealer, on many seeded shoes, for every last-hand rule,
  cut card position, burn option and a fixed number of coups.
* The options: names, kernel codes and their round trip through
  :class:`~toolkit.dealing.dealer.Dealing`; bad values are refused with the field named.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from loop_dealer import VALUES, deal_shoe
from loop_dealer import banker_draws as rulebook_banker_draws
from loop_dealer import player_draws as rulebook_player_draws

from toolkit.coup.cards import RANKS
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
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.coup.step import (
    BANKER_DRAWS,
    BOTH_DRAW,
    FOUR_CARDS,
    LAYOUT_CARDS,
    LAYOUT_SLOTS,
    PLAYER_DRAWS,
    Tables,
    banker_draws_on,
    burn_count,
    coup_layout,
    coup_layouts,
    cut_card_after,
    enough_cards,
    face_down_count,
    face_down_listed,
    is_natural,
    may_start,
    next_slot,
    third_cards,
)
from toolkit.dealing.dealer import Dealing, shuffled_shoes

#: The burn rule as written in the casino procedures: cards burned face down after the exposed card.
BURN_TABLE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10}


# ------------------------------------------------------------------ burn
@pytest.mark.parametrize("burn_ace", [1, 11])
@pytest.mark.parametrize("rank", RANKS)
def test_cards_burned_follow_the_rule_table(rank: str, burn_ace: int) -> None:
    expected = burn_ace if rank == "A" else BURN_TABLE[rank]
    r = RANKS.index(rank)
    assert burn_count(r, burn_ace) == expected
    assert face_down_count(BURN_STANDARD, r, burn_ace, 7) == expected
    assert face_down_count(BURN_FIXED, r, burn_ace, 7) == 7
    assert face_down_count(BURN_NONE, r, burn_ace, 7) == 0


def test_face_down_cards_are_listed_by_the_hidden_burn_rule() -> None:
    for whole_shoe in (False, True):
        assert not face_down_listed(HIDDEN_OMITTED, whole_shoe)
        assert face_down_listed(HIDDEN_LISTED, whole_shoe)
        assert face_down_listed(HIDDEN_AUTO, whole_shoe) == whole_shoe


# ------------------------------------------------------------------ tableau step
def test_the_coup_step_matches_the_rulebook_for_every_coup() -> None:
    """coup_layout and next_slot against the rulebook's tableau (tests/loop_dealer.py), for every first five values."""
    masks = Tables.of(PUNTO_BANCO)
    for p1, b1, p2, b2, fifth in itertools.product(range(10), repeat=5):
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        natural = pt >= 8 or bt >= 8
        assert is_natural(pt, bt) == natural
        p_draws = not natural and rulebook_player_draws(pt)
        b_draws = not natural and rulebook_banker_draws(bt, fifth if p_draws else None)
        expected = [[FOUR_CARDS, BANKER_DRAWS], [PLAYER_DRAWS, BOTH_DRAW]][p_draws][b_draws]
        assert coup_layout(p1, b1, p2, b2, fifth, masks) == expected, (p1, b1, p2, b2, fifth)
        slots = [next_slot([p1, b1, p2, b2, fifth, 0][:n], masks) for n in range(7)]
        assert slots[: LAYOUT_CARDS[expected]] == list(LAYOUT_SLOTS[expected][: LAYOUT_CARDS[expected]])
        assert slots[LAYOUT_CARDS[expected]] == -1


def test_the_packed_banker_table_reads_back_every_cell() -> None:
    """Tables packs Banker's 10 x 11 table in two words: every cell reads back, for the rulebook and a changed one."""
    changed = Tableau().with_banker(3, 8, True).with_banker(6, None, True).with_banker(0, 4, False)
    for tableau in (PUNTO_BANCO, changed):
        masks = Tables.of(tableau)
        cells = [banker_draws_on(masks, t, c) for t in range(10) for c in range(11)]
        assert cells == [bool(tableau.banker[t][c]) for t in range(10) for c in range(11)]
    assert Tables.of(changed) != Tables.of(PUNTO_BANCO)


@pytest.mark.parametrize("layout", [FOUR_CARDS, PLAYER_DRAWS, BANKER_DRAWS, BOTH_DRAW])
def test_third_cards_fill_the_slots_of_the_layout(layout: int) -> None:
    player_3, banker_3, taken = third_cards(layout, 5, 11)
    assert taken == LAYOUT_CARDS[layout]
    dealt = dict(zip(LAYOUT_SLOTS[layout][4:taken], (5, 11), strict=False))
    assert (player_3, banker_3) == (dealt.get(2, -1), dealt.get(5, -1))


def test_the_many_coups_form_is_the_one_coup_form() -> None:
    rng = np.random.default_rng(3)
    values = rng.integers(0, 10, size=(5, 500))
    masks = Tables.of(PUNTO_BANCO)
    layout, pt, bt = coup_layouts(*values, masks)
    assert list(layout) == [coup_layout(*column, masks) for column in values.T]
    assert list(pt) == list((values[0] + values[2]) % 10)
    assert list(bt) == list((values[1] + values[3]) % 10)


# ------------------------------------------------------------------ end of the shoe
def rule_dealer(cards: list[int], d: Dealing, first: int) -> list[int]:
    """Coup starts of a shoe dealt by the loop dealer's tableau and ``_coup``'s end-of-shoe rule from ``first``."""
    n = len(cards)
    last_hand, fixed = code(d.last_hand), d.coups or 0
    cut_pos = n - d.cut_card
    pos, last, starts = first, False, []
    while may_start(n - pos, len(starts), fixed, last_hand):
        start = pos
        pt = (VALUES[cards[pos]] + VALUES[cards[pos + 2]]) % 10
        bt = (VALUES[cards[pos + 1]] + VALUES[cards[pos + 3]]) % 10
        pos += 4
        if pt < 8 and bt < 8:
            third = None
            if rulebook_player_draws(pt):
                third = VALUES[cards[pos]]
                pos += 1
            if rulebook_banker_draws(bt, third):
                pos += 1
        starts.append(start)
        stop, last = cut_card_after(start, pos, cut_pos, last, last_hand, fixed)
        if stop:
            break
    return starts


END_RULES = [
    Dealing(last_hand=last_hand, cut_card=cut_card, burn=burn, coups=coups, decks=decks)
    for last_hand in LastHand
    for burn in Burn
    for decks, cut_card, coups in ((8, 14, None), (8, 0, None), (8, 150, None), (1, 45, None), (1, 14, 8), (8, 14, 70))
]


@pytest.mark.parametrize(
    "dealing", END_RULES, ids=lambda d: f"{d.last_hand}-{d.burn}-{d.decks}d-cut{d.cut_card}-coups{d.coups}"
)
def test_end_of_shoe_rule_matches_the_loop_dealer(dealing: Dealing) -> None:
    shoes = shuffled_shoes(40, dealing.decks, 1000 + dealing.cut_card + dealing.decks + code(dealing.burn))
    for row in shoes.tolist():
        d = dealing
        loop = deal_shoe(row, d.decks, d.burn, d.burn_ace, d.burn_cards, d.cut_card, d.last_hand, d.coups)
        first = (loop.burn_card >= 0) + len(loop.burned)
        assert rule_dealer(row, dealing, first) == [c.start for c in loop.coups]


def test_may_start_needs_the_cards_of_a_coup() -> None:
    for left in range(12):
        for rule in LastHand:
            minimum = 7 if rule is LastHand.SEVEN_CARDS else 6
            assert may_start(left, 0, 0, code(rule)) == (left >= minimum)
            assert may_start(left, 3, 5, code(rule)) == (left >= 6)
            assert not may_start(left, 5, 5, code(rule))
    assert enough_cards(np.array([5, 6, 7]), 7).tolist() == [False, False, True]


# ------------------------------------------------------------------ options
@pytest.mark.parametrize(
    ("enum", "names", "codes"),
    [
        (Burn, ["standard", "fixed", "none"], [BURN_STANDARD, BURN_FIXED, BURN_NONE]),
        (
            LastHand,
            ["one_more", "finish", "seven_cards", "two_more_if_first"],
            [LAST_ONE_MORE, LAST_FINISH, LAST_SEVEN_CARDS, LAST_TWO_MORE_IF_FIRST],
        ),
        (HiddenBurn, ["omitted", "listed", "auto"], [HIDDEN_OMITTED, HIDDEN_LISTED, HIDDEN_AUTO]),
    ],
)
def test_options_round_trip_through_their_names_and_codes(enum, names, codes) -> None:
    assert [m.value for m in enum] == names
    assert [code(m) for m in enum] == codes == list(range(len(names)))
    for member, name in zip(enum, names, strict=True):
        assert enum(name) is member
        assert enum(str(member)) is member
        assert f"{member}" == name
        assert list(enum)[code(member)] is member


def test_dealing_normalises_the_option_names() -> None:
    d = Dealing(burn="fixed", burn_cards=3, last_hand="seven_cards")
    assert d.burn is Burn.FIXED
    assert d.last_hand is LastHand.SEVEN_CARDS
    assert d == Dealing(burn=Burn.FIXED, burn_cards=3, last_hand=LastHand.SEVEN_CARDS)
    assert hash(d) == hash(Dealing(burn=Burn.FIXED, burn_cards=3, last_hand=LastHand.SEVEN_CARDS))
    assert Dealing().burn is Burn.STANDARD
    assert Dealing().last_hand is LastHand.ONE_MORE
    assert type(Dealing(decks=np.int64(6)).decks) is int


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"burn": "sometimes"}, ValueError, r"Dealing\.burn must be one of standard, fixed, none, got 'sometimes'"),
        ({"last_hand": "never"}, ValueError, r"Dealing\.last_hand must be one of one_more, finish, seven_cards"),
        ({"burn": 1}, ValueError, r"Dealing\.burn must be one of"),
        ({"cut_card": 14.5}, TypeError, r"Dealing\.cut_card must be an integer, got 14\.5"),
        ({"coups": 2.5}, TypeError, r"Dealing\.coups must be an integer, got 2\.5"),
        ({"burn_cards": 1.0}, TypeError, r"Dealing\.burn_cards must be an integer"),
        ({"decks": True}, TypeError, r"Dealing\.decks must be an integer"),
        ({"burn_ace": 11.0}, TypeError, r"Dealing\.burn_ace must be an integer"),
        ({"decks": 0}, ValueError, r"Dealing\.decks must be a positive integer"),
        ({"coups": 0}, ValueError, r"Dealing\.coups must be a positive integer"),
        ({"burn_ace": 5}, ValueError, r"Dealing\.burn_ace must be 1 or 11"),
        ({"burn_cards": -1}, ValueError, r"Dealing\.burn_cards must be a non-negative integer"),
        ({"burn_cards": 411}, ValueError, r"Dealing\.burn_cards must leave a coup to deal"),
        ({"cut_card": 416}, ValueError, r"Dealing\.cut_card must be 0\.\.415 cards from the end"),
    ],
)
def test_dealing_refuses_bad_values(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        Dealing(**kwargs)


def test_code_takes_only_the_options() -> None:
    with pytest.raises(TypeError, match="code\\(\\) takes a Burn, LastHand or HiddenBurn option, got 'none'"):
        code("none")
