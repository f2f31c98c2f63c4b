"""Rebuilding the coups of card-level shoe records: a numba kernel that deals the recorded cards by the tableau.

Private to :mod:`toolkit.records.model` and :mod:`toolkit.records.validation`.  For every
shoe, :func:`rebuild` takes the cards in the order they were recorded (with
their roles and coup numbers when the record has them), applies the burn rule
of the shoe's header, deals coups exactly as :func:`toolkit.dealing.dealer.deal_block`
deals a shuffled shoe (with the cut card when the record lists the whole shoe),
and records where every card went and, before every coup, the unseen
composition.  It stops a shoe at the first card that does not fit and reports
an error code with that card.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numba
import numpy as np
import polars as pl

from toolkit.coup.options import BURN_FIXED, BURN_NONE, BURN_STANDARD
from toolkit.coup.rules import Tableau
from toolkit.coup.step import (
    BANKER_DRAWS,
    FOUR_CARDS,
    LAYOUT_CARDS,
    LAYOUT_SLOTS,
    PLAYER_3,
    PLAYER_DRAWS,
    VALUES,
    CoupRows,
    ShoeRows,
    Tables,
    burn_count,
    coup_buffers,
    coup_layout,
    cut_card_after,
    face_down_listed,
    hand_totals,
    is_natural,
    may_start,
    record_coup,
)
from toolkit.dealing.dealer import DealtShoes, dealt_shoes

__all__ = ["Rebuilt", "rebuild", "slot_roles"]

#: Roles of a card in a card-level record, as the kernel sees them (-1: not recorded).
ROLES: tuple[str, ...] = ("burn", "player", "banker", "undealt")
ROLE_CODE = {name: i for i, name in enumerate(ROLES)}
#: Where the kernel put each card: the six hand slots of :data:`toolkit.dealing.dealer.SLOTS`, then these.
SLOT_EXPOSED, SLOT_FACE_DOWN, SLOT_UNDEALT = 6, 7, 8
_SLOT_ROLE = ["player"] * 3 + ["banker"] * 3 + ["burn", "burn", "undealt"]


#: Kernel error codes (:func:`toolkit.records.validation.kernel_message` turns them into problems).
OK, TRUNCATED, ROLE_ORDER, MISSING_P3, MISSING_B3 = 0, 1, 2, 3, 4
AFTER_NATURAL, EXTRA_P3, EXTRA_B3, BURN_COUNT, BURN_LATE, AFTER_UNDEALT, COUP_SPLIT = 5, 6, 7, 8, 9, 10, 11


class Recorded(NamedTuple):
    """The recorded cards of every shoe: ranks, roles and coup ids (empty when not recorded), shoe offsets."""

    ranks: np.ndarray
    roles: np.ndarray
    coup_ids: np.ndarray
    offsets: np.ndarray
    has_roles: bool
    has_coups: bool


class ShoeRules(NamedTuple):
    """Per shoe: decks and the header's options (as :func:`toolkit.coup.options.code`)."""

    decks: np.ndarray
    burn_mode: np.ndarray
    burn_ace: np.ndarray
    burn_fixed: np.ndarray
    hidden: np.ndarray
    cut_card: np.ndarray
    last_mode: np.ndarray


class Placed(NamedTuple):
    """Where the kernel put every card (its coup and slot) and each coup's first card in the record."""

    card_coup: np.ndarray
    card_slot: np.ndarray
    coup_first: np.ndarray


class Faults(NamedTuple):
    """Per shoe: the error code, the card where it was seen, the first card of its coup, and the coup."""

    code: np.ndarray
    card: np.ndarray
    start: np.ndarray
    coup: np.ndarray


@numba.njit(cache=True)
def _fault(faults: Faults, s: int, code: int, card: int, start: int, coup: int) -> None:  # pragma: no cover
    faults.code[s] = code
    faults.card[s] = card
    faults.start[s] = start
    faults.coup[s] = coup


@numba.njit(cache=True, inline="always")
def _burn(
    ranks: np.ndarray,
    roles: np.ndarray,
    has_roles: bool,
    a: int,
    b: int,
    n_cards: int,
    mode: int,
    burn_ace: int,
    burn_fixed: int,
    hidden: int,
) -> tuple[int, bool, int, int, int, int]:  # pragma: no cover - compiled
    """The burn of the shoe in ``ranks[a:b]`` by its header's rule.

    Returns ``(burn rows in the record, listed, exposed card or -1, cards burned face down, error code,
    card of the error)``; the rows are -1 on an error. Scalars in and out: a call that passes arrays in tuples
    pays numba a reference count for each, and this runs once a shoe.
    """
    if has_roles:
        nb = 0
        while a + nb < b and roles[a + nb] == 0:
            nb += 1
        if mode == BURN_STANDARD and nb > 0:
            fd = burn_count(ranks[a], burn_ace)
            if nb != 1 and nb != 1 + fd:
                return -1, False, -1, 0, BURN_COUNT, a + nb - 1
            return nb, nb > 1, ranks[a], fd, OK, -1
        if mode == BURN_FIXED:
            if nb not in (0, burn_fixed):
                return -1, False, -1, 0, BURN_COUNT, a + nb - 1
            return nb, nb > 0, -1, burn_fixed, OK, -1
        if mode == BURN_NONE and nb > 0:
            return -1, False, -1, 0, BURN_COUNT, a
        return nb, False, -1, 0, OK, -1
    rows, listed, up, face_down = 0, False, -1, 0
    if mode == BURN_STANDARD and b > a:
        face_down = burn_count(ranks[a], burn_ace)
        listed = face_down_listed(hidden, b - a == n_cards)
        up = ranks[a]
        rows = 1 + (face_down if listed else 0)
    elif mode == BURN_FIXED:
        listed = face_down_listed(hidden, b - a == n_cards)
        face_down = burn_fixed
        rows = burn_fixed if listed else 0
    if a + rows > b:
        return -1, False, -1, 0, TRUNCATED, b - 1
    return rows, listed, up, face_down, OK, -1


#: The recorded role a card must have in each slot (1 Player, 2 Banker).
_SLOT_ROLE_CODE = (1, 1, 1, 2, 2, 2)


@numba.njit(cache=True, inline="always")
def _take_coup(
    ranks: np.ndarray,
    roles: np.ndarray,
    coup_ids: np.ndarray,
    has_roles: bool,
    has_coups: bool,
    start: int,
    end: int,
    tables: Tables,
) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """Deal one coup from the record's cards ``start .. end - 1`` by the coup step, checking each card.

    Returns ``(layout, position after the coup, error code, card of the error)``; the coup's cards
    fill the slots :data:`~toolkit.coup.step.LAYOUT_SLOTS` gives for its layout.
    """
    if start + 4 > end:
        return 0, start, TRUNCATED, end - 1
    p1, b1, p2, b2 = VALUES[ranks[start]], VALUES[ranks[start + 1]], VALUES[ranks[start + 2]], VALUES[ranks[start + 3]]
    layout = coup_layout(p1, b1, p2, b2, VALUES[ranks[start + 4]] if start + 4 < end else 0, tables)
    if not (has_roles or has_coups) and start + LAYOUT_CARDS[layout] < end:
        return layout, start + LAYOUT_CARDS[layout], OK, -1  # bare cards, not the last coup: nothing to check
    pos = start
    for k in range(LAYOUT_CARDS[layout]):
        slot = LAYOUT_SLOTS[layout, k]
        if pos >= end:
            return layout, pos, TRUNCATED, pos - 1
        split = has_coups and coup_ids[pos] != coup_ids[start]
        if split or (has_roles and roles[pos] != _SLOT_ROLE_CODE[slot]):
            if k >= 4:  # a third card the tableau calls for is not there
                return layout, pos, MISSING_P3 if slot == PLAYER_3 else MISSING_B3, pos - 1
            return layout, pos, COUP_SPLIT if split else ROLE_ORDER, pos
        pos += 1
    if pos < end:
        extra = (has_coups and coup_ids[pos] == coup_ids[start]) or (has_roles and roles[pos] == 2)
        if extra:  # a card of this coup left over (a Banker card cannot open the next coup)
            who = roles[pos] if has_roles else -1
            player_total, banker_total = hand_totals(p1, b1, p2, b2)
            if is_natural(player_total, banker_total):
                return layout, pos, AFTER_NATURAL, pos
            if who == 1 and layout in (FOUR_CARDS, BANKER_DRAWS):
                return layout, pos, EXTRA_P3, pos
            if who == 2 and layout in (FOUR_CARDS, PLAYER_DRAWS):
                return layout, pos, EXTRA_B3, pos
            return layout, pos, COUP_SPLIT, pos
    return layout, pos, OK, -1


@numba.njit(cache=True, inline="always")
def _first_dealt(roles: np.ndarray, start: int, end: int) -> int:  # pragma: no cover - compiled
    """The first card of ``roles[start:end]`` recorded as dealt after the undealt cards began, or -1."""
    for i in range(start, end):
        if roles[i] != 3:
            return i
    return -1


@numba.njit(cache=True)
def _rebuild_kernel(
    rec: Recorded, rules: ShoeRules, tables: Tables, coups: CoupRows, per_shoe: ShoeRows, placed: Placed, faults: Faults
) -> int:  # pragma: no cover - compiled
    """Deal the recorded cards of every shoe by its rules; returns the coups written (those of good shoes).

    The tuples are unpacked once: a field read out of a tuple in a loop costs numba a reference count.
    """
    ranks, roles, coup_ids, offsets, has_roles, has_coups = rec
    card_coup, card_slot, coup_first = placed
    burn_card, burned, burned_ranks = per_shoe
    f_code, f_card, f_start, f_coup = faults
    c_shoe, c_coup, c_start, c_cards, c_seen, c_left, c_unseen_count, c_unseen = coups
    out = 0
    row = np.empty(6, np.int8)
    counts = np.empty(13, np.int64)  # the unseen cards of the shoe being dealt: one array, not one a shoe
    for s in range(len(offsets) - 1):
        a, b = offsets[s], offsets[s + 1]
        shoe_out = out
        n_cards = 52 * rules.decks[s]
        last_mode = rules.last_mode[s]
        counts[:] = 4 * rules.decks[s]
        burned_ranks[s, :] = 0
        f_code[s], f_card[s], f_start[s], f_coup[s] = OK, -1, -1, 0
        card_coup[a:b] = -1
        card_slot[a:b] = SLOT_UNDEALT
        mode = rules.burn_mode[s]
        ace, fixed, hidden = rules.burn_ace[s], rules.burn_fixed[s], rules.hidden[s]
        burn_rows, listed, up, face_down, code, where = _burn(
            ranks, roles, has_roles, a, b, n_cards, mode, ace, fixed, hidden
        )
        burn_card[s], burned[s] = up, face_down
        if burn_rows < 0:
            f_code[s], f_card[s], f_start[s] = code, where, a
            continue
        seen = 0
        if burn_card[s] >= 0:
            counts[burn_card[s]] -= 1
            seen = 1
            card_slot[a] = SLOT_EXPOSED
            card_coup[a] = 0
        for i in range(a + seen, a + burn_rows):
            burned_ranks[s, ranks[i]] += 1
            card_slot[i] = SLOT_FACE_DOWN
            card_coup[i] = 0
        pos = a + burn_rows
        omitted = 0 if listed else burned[s]
        complete = (not has_roles) and b - a == n_cards and (listed or mode == BURN_NONE)
        cut_pos = n_cards - rules.cut_card[s]
        last = False
        coup = 0
        bad = False
        while pos < b:
            if has_roles and roles[pos] == 3:
                break
            if has_roles and roles[pos] == 0:
                _fault(faults, s, BURN_LATE, pos, pos, 0)
                bad = True
                break
            in_shoe = pos - a + omitted  # the coup's first card's position in the whole shoe
            if complete and not may_start(n_cards - in_shoe, coup, 0, last_mode):
                break  # the end-of-shoe rule applies to a record of the whole shoe
            start = pos
            layout, pos, code, where = _take_coup(ranks, roles, coup_ids, has_roles, has_coups, start, b, tables)
            if code != OK:
                _fault(faults, s, code, where, start, coup + 1)
                bad = True
                break
            row[:] = -1
            for i in range(start, pos):
                slot = LAYOUT_SLOTS[layout, i - start]
                row[slot] = ranks[i]
                card_slot[i] = slot
                card_coup[i] = coup + 1
            left = n_cards - in_shoe
            c_shoe[out] = s
            c_coup[out] = coup + 1
            c_start[out] = in_shoe
            c_seen[out] = seen
            c_left[out] = left
            c_unseen_count[out] = left + burned[s]
            record_coup(c_cards, c_unseen, out, row, counts)
            coup_first[out] = start
            for i in range(start, pos):
                counts[ranks[i]] -= 1
            seen += pos - start
            out += 1
            coup += 1
            if complete:
                stop, last = cut_card_after(in_shoe, pos - a + omitted, cut_pos, last, last_mode)
                if stop:
                    break
        late = _first_dealt(roles, pos, b) if has_roles and not bad else -1
        if late >= 0:
            f_code[s], f_card[s], f_start[s], f_coup[s] = AFTER_UNDEALT, late, late, coup
        if bad or late >= 0:
            out = shoe_out
    return out


@dataclass(frozen=True)
class Rebuilt:
    """What :func:`rebuild` found: the coups of the good shoes, where every card went, and the bad shoes."""

    dealt: DealtShoes
    card_coup: np.ndarray
    card_slot: np.ndarray
    coup_first: np.ndarray
    good: np.ndarray
    err_code: np.ndarray
    err_index: np.ndarray
    err_start: np.ndarray
    err_coup: np.ndarray


def rebuild(
    ranks: np.ndarray,
    offsets: np.ndarray,
    params: dict[str, np.ndarray],
    tableau: Tableau,
    roles: np.ndarray | None = None,
    coup_ids: np.ndarray | None = None,
) -> Rebuilt:
    """Deal the recorded cards of many shoes by the tableau.

    Parameters
    ----------
    ranks
        Rank index (0..12) of every card, shoe after shoe, in dealing order.
    offsets
        ``(n_shoes + 1,)``: shoe ``s`` holds ``ranks[offsets[s]:offsets[s + 1]]``.
    params
        Per shoe integer arrays ``decks, burn_mode, burn_ace, burn_fixed, hidden,
        cut_card, last_mode``; the modes as :func:`toolkit.coup.options.code` of their
        :class:`~toolkit.coup.options.Burn`, :class:`~toolkit.coup.options.HiddenBurn` and
        :class:`~toolkit.coup.options.LastHand` options.
    tableau
        Drawing rules.
    roles, coup_ids
        Recorded role codes (:data:`ROLES`) and coup ids of every card, when the
        record has them.

    Returns
    -------
    Rebuilt
        ``dealt``: a :class:`~toolkit.dealing.dealer.DealtShoes` over the good shoes only
        (renumbered 0..), the kernel's slot and coup of every card, and for every
        shoe an error code with the card where the problem was seen.
    """
    n_shoes = len(offsets) - 1
    n = len(ranks)
    has_roles = roles is not None
    has_coups = coup_ids is not None
    roles_arr = np.ascontiguousarray(roles if has_roles else np.zeros(0), dtype=np.int8)
    coups_arr = np.ascontiguousarray(coup_ids if has_coups else np.zeros(0), dtype=np.int64)
    max_coups = n // 4 + 1
    coups, per_shoe = coup_buffers(max_coups, n_shoes)
    placed = Placed(np.empty(n, np.int32), np.empty(n, np.int8), np.empty(max_coups, np.int64))
    faults = Faults(
        np.empty(n_shoes, np.int8),
        np.empty(n_shoes, np.int64),
        np.empty(n_shoes, np.int64),
        np.empty(n_shoes, np.int32),
    )
    recorded = Recorded(
        np.ascontiguousarray(ranks, dtype=np.int8),
        roles_arr,
        coups_arr,
        np.ascontiguousarray(offsets, dtype=np.int64),
        has_roles,
        has_coups,
    )
    rules = ShoeRules(*(np.ascontiguousarray(params[k], dtype=np.int64) for k in ShoeRules._fields))
    tables = Tables.of(tableau)
    count = _rebuild_kernel(recorded, rules, tables, coups, per_shoe, placed, faults)
    good = faults.code == OK
    if good.all():  # nothing to renumber
        dealt = dealt_shoes(coups, per_shoe, count)
    else:
        renumber = np.cumsum(good) - 1
        dealt = dealt_shoes(coups, ShoeRows(*(column[good] for column in per_shoe)), count)
        dealt = replace(dealt, shoe=renumber[dealt.shoe])
    return Rebuilt(dealt, placed.card_coup, placed.card_slot, placed.coup_first[:count], good, *faults)


def slot_roles(slots: np.ndarray) -> pl.Series:
    """Role name (``burn/player/banker/undealt``) of each kernel slot."""
    return pl.Series("role", slots).replace_strict(list(range(len(_SLOT_ROLE))), _SLOT_ROLE, return_dtype=pl.String)
