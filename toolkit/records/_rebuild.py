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
    BANKER_1,
    BANKER_2,
    BANKER_3,
    PLAYER_1,
    PLAYER_2,
    PLAYER_3,
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
    third_cards,
    write_unseen,
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
def _burn(
    first: int,
    burn_rows: int,
    has_roles: bool,
    cards: int,
    n_cards: int,
    mode: int,
    burn_ace: int,
    burn_fixed: int,
    hidden: int,
) -> tuple[int, bool, int, int, int, int]:  # pragma: no cover - compiled
    """The burn of a shoe whose record holds ``cards`` cards, the first of rank ``first``, by its header's rule.

    ``burn_rows``: the rows recorded with the burn role at its start (when it has roles). Returns ``(burn rows in
    the record, listed, exposed card or -1, cards burned face down, error code, card of the error counted from the
    shoe's first)``; the rows are -1 on an error. Scalars in and out: passing arrays to a compiled function costs
    numba a reference count each, and this runs once a shoe.
    """
    if has_roles:
        nb = burn_rows
        if mode == BURN_STANDARD and nb > 0:
            fd = burn_count(first, burn_ace)
            if nb != 1 and nb != 1 + fd:
                return -1, False, -1, 0, BURN_COUNT, nb - 1
            return nb, nb > 1, first, fd, OK, -1
        if mode == BURN_FIXED:
            if nb not in (0, burn_fixed):
                return -1, False, -1, 0, BURN_COUNT, nb - 1
            return nb, nb > 0, -1, burn_fixed, OK, -1
        if mode == BURN_NONE and nb > 0:
            return -1, False, -1, 0, BURN_COUNT, 0
        return nb, False, -1, 0, OK, -1
    rows, listed, up, face_down = 0, False, -1, 0
    if mode == BURN_STANDARD and cards > 0:
        face_down = burn_count(first, burn_ace)
        listed = face_down_listed(hidden, cards == n_cards)
        up = first
        rows = 1 + (face_down if listed else 0)
    elif mode == BURN_FIXED:
        listed = face_down_listed(hidden, cards == n_cards)
        face_down = burn_fixed
        rows = burn_fixed if listed else 0
    if rows > cards:
        return -1, False, -1, 0, TRUNCATED, cards - 1
    return rows, listed, up, face_down, OK, -1


@numba.njit(cache=True)
def _mismatch(k: int, player_card: bool, split: bool, card: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The error, and its card, when card ``k`` of a coup (at ``card``; Player's or Banker's) is recorded otherwise.

    ``split``: it is recorded in another coup. A third card the tableau calls for is then missing; one of the first
    four is out of order.
    """
    if k >= 4:
        return (MISSING_P3 if player_card else MISSING_B3), card - 1
    return (COUP_SPLIT if split else ROLE_ORDER), card


@numba.njit(cache=True)
def _leftover(role: int, natural: bool, player_3: int, banker_3: int) -> int:  # pragma: no cover - compiled
    """The error when the card after a coup is recorded as part of it (in its coup, or as Banker's: a Banker card
    cannot open the next coup); ``role`` is its recorded role (-1: not recorded).
    """
    if natural:
        return AFTER_NATURAL
    if role == 1 and player_3 < 0:
        return EXTRA_P3
    if role == 2 and banker_3 < 0:
        return EXTRA_B3
    return COUP_SPLIT


@numba.njit(cache=True)
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

    Checks inline, tuples unpacked once, scalar helpers: numba pays a reference count for an array read out of a
    tuple in a loop or passed to a compiled function (the kernel ran at 0.6 of its speed that way)."""
    ranks, roles, coup_ids, offsets, has_roles, has_coups = rec
    card_coup, card_slot, coup_first = placed
    (burn_card, burned, burned_ranks), (f_code, f_card, f_start, f_coup) = per_shoe, faults
    c_shoe, c_coup, c_start, c_cards, c_seen, c_left, c_unseen_count, c_unseen = coups
    decks, burn_mode, burn_ace, burn_fixed, hidden, cut_card, last_modes = rules
    out, counts = 0, np.empty(13, np.int64)  # counts: the unseen cards of the shoe being dealt (one array)
    for s in range(len(offsets) - 1):
        a, b = offsets[s], offsets[s + 1]
        shoe_out, n_cards, last_mode = out, 52 * decks[s], last_modes[s]
        counts[:] = 4 * decks[s]
        f_code[s], f_card[s], f_start[s], f_coup[s] = OK, -1, -1, 0
        for r in range(13):
            burned_ranks[s, r] = 0
        recorded_burn = 0
        while has_roles and a + recorded_burn < b and roles[a + recorded_burn] == 0:
            recorded_burn += 1
        header = (ranks[a] if b > a else 0, recorded_burn, has_roles, b - a, n_cards)
        rows, listed, up, face_down, code, where = _burn(*header, burn_mode[s], burn_ace[s], burn_fixed[s], hidden[s])
        burn_card[s], burned[s], seen = up, face_down, 1 if up >= 0 else 0
        for i in range(a, b):  # a loop, not slices: a slice makes an array view, which costs more than these writes
            card_coup[i], card_slot[i] = -1, SLOT_UNDEALT
        if rows < 0:
            f_code[s], f_card[s], f_start[s] = code, a + where, a
            continue
        if seen:
            counts[up] -= 1
            card_coup[a], card_slot[a] = 0, SLOT_EXPOSED
        for i in range(a + seen, a + rows):
            burned_ranks[s, ranks[i]] += 1
            card_coup[i], card_slot[i] = 0, SLOT_FACE_DOWN
        pos, omitted = a + rows, 0 if listed else face_down
        complete = (not has_roles) and b - a == n_cards and (listed or burn_mode[s] == BURN_NONE)
        cut_pos, last, coup, start = n_cards - cut_card[s], False, 0, pos
        while pos < b and code == OK:
            if has_roles and roles[pos] == 3:
                break
            start, in_shoe = pos, pos - a + omitted  # the coup's first card's position in the whole shoe
            if has_roles and roles[pos] == 0:
                code, where = BURN_LATE, pos
                break
            if complete and not may_start(n_cards - in_shoe, coup, 0, last_mode):
                break  # the end-of-shoe rule applies to a record of the whole shoe
            if start + 4 > b:
                code, where = TRUNCATED, b - 1
                break
            first = (VALUES[ranks[start]], VALUES[ranks[start + 1]], VALUES[ranks[start + 2]], VALUES[ranks[start + 3]])
            fifth, sixth = ranks[start + 4] if start + 4 < b else 0, ranks[start + 5] if start + 5 < b else 0
            layout = coup_layout(*first, VALUES[fifth], tables)
            player_3, banker_3, taken = third_cards(layout, fifth, sixth)
            pos = start + taken
            if has_roles or has_coups or pos >= b:  # bare cards before the record's end: nothing to check
                for i in range(start, start + taken):
                    split = i < b and has_coups and coup_ids[i] != coup_ids[start]
                    k = i - start  # Player's cards in dealing order: the first, the third, and the fifth if he draws
                    player_card = (k == 4 and player_3 >= 0) or (k < 4 and k % 2 == 0)
                    if i >= b or split or (has_roles and roles[i] != (1 if player_card else 2)):
                        code, where = (TRUNCATED, i - 1) if i >= b else _mismatch(k, player_card, split, i)
                        break
                same = pos < b and has_coups and coup_ids[pos] == coup_ids[start]
                role = roles[pos] if has_roles and pos < b else -1
                if code == OK and (same or role == 2):  # a card of this coup is left over
                    code, where = _leftover(role, is_natural(*hand_totals(*first)), player_3, banker_3), pos
                if code != OK:
                    break
            c_cards[out, PLAYER_1], c_cards[out, BANKER_1] = ranks[start], ranks[start + 1]
            c_cards[out, PLAYER_2], c_cards[out, BANKER_2] = ranks[start + 2], ranks[start + 3]
            c_cards[out, PLAYER_3], c_cards[out, BANKER_3] = player_3, banker_3
            card_slot[start], card_slot[start + 1], card_slot[start + 2] = PLAYER_1, BANKER_1, PLAYER_2
            card_slot[start + 3] = BANKER_2
            if player_3 >= 0:
                card_slot[start + 4] = PLAYER_3
            if banker_3 >= 0:
                card_slot[pos - 1] = BANKER_3
            c_shoe[out], c_coup[out], c_start[out], c_seen[out] = s, coup + 1, in_shoe, seen
            c_left[out], c_unseen_count[out] = n_cards - in_shoe, n_cards - in_shoe + face_down
            write_unseen(c_unseen, out, counts)
            coup_first[out] = start
            for i in range(start, pos):  # one loop: two over the same cards cost the kernel about 8 %
                counts[ranks[i]] -= 1
                card_coup[i] = coup + 1
            seen, out, coup = seen + pos - start, out + 1, coup + 1
            if complete:
                stop, last = cut_card_after(in_shoe, pos - a + omitted, cut_pos, last, last_mode)
                if stop:
                    break
        if code != OK:
            f_code[s], f_card[s], f_start[s], f_coup[s] = code, where, start, coup + 1 if code != BURN_LATE else 0
        late = _first_dealt(roles, pos, b) if has_roles and code == OK else -1
        if late >= 0:
            f_code[s], f_card[s], f_start[s], f_coup[s] = AFTER_UNDEALT, late, late, coup
        if code != OK or late >= 0:
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
