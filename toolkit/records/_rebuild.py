"""Rebuilding the coups of card-level shoe records: a numba kernel that deals the recorded cards by the tableau.

Private to :mod:`toolkit.records.model` and :mod:`toolkit.records.validation`.  For every
shoe, :func:`rebuild` takes the cards in the order they were recorded (with
their roles and coup numbers when the record has them), applies the burn rule
of the shoe's header, deals coups exactly as :func:`toolkit.dealing.deal_block`
deals a shuffled shoe (with the cut card when the record lists the whole shoe),
and records where every card went and, before every coup, the unseen
composition.  It stops a shoe at the first card that does not fit and reports
an error code with that card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import polars as pl

from toolkit._coup import (
    BURN_FIXED,
    BURN_NONE,
    BURN_STANDARD,
    banker_draws,
    burn_count,
    cut_card_after,
    face_down_listed,
    is_natural,
    may_start,
    player_draws,
)
from toolkit.cards import RANK_VALUES
from toolkit.dealing import COUP_FIELDS, SHOE_FIELDS, DealtShoes, coup_buffers
from toolkit.rules import Tableau

__all__ = ["Rebuilt", "rebuild", "slot_roles"]

#: Roles of a card in a card-level record, as the kernel sees them (-1: not recorded).
ROLES: tuple[str, ...] = ("burn", "player", "banker", "undealt")
ROLE_CODE = {name: i for i, name in enumerate(ROLES)}
#: Where the kernel put each card: the six hand slots of :data:`toolkit.dealing.SLOTS`, then these.
SLOT_EXPOSED, SLOT_FACE_DOWN, SLOT_UNDEALT = 6, 7, 8
_SLOT_ROLE = ["player"] * 3 + ["banker"] * 3 + ["burn", "burn", "undealt"]

#: Per-shoe parameters of :func:`rebuild`, in the kernel's order.
_PARAMS = ("decks", "burn_mode", "burn_ace", "burn_fixed", "hidden", "cut_card", "last_mode")

#: Kernel error codes (:func:`toolkit.records.validation.kernel_message` turns them into problems).
OK, TRUNCATED, ROLE_ORDER, MISSING_P3, MISSING_B3 = 0, 1, 2, 3, 4
AFTER_NATURAL, EXTRA_P3, EXTRA_B3, BURN_COUNT, BURN_LATE, AFTER_UNDEALT, COUP_SPLIT = 5, 6, 7, 8, 9, 10, 11


@numba.njit(cache=True)
def _rebuild_kernel(
    ranks,
    roles,
    coup_ids,
    offsets,
    has_roles,
    has_coups,
    decks,
    burn_mode,
    burn_ace,
    burn_fixed,
    hidden,
    cut_card,
    last_mode,
    values,
    player_draw,
    banker_draw,
    card_coup,
    card_slot,
    coup_shoe,
    coup_no,
    coup_start,
    coup_cards,
    coup_seen,
    coup_left,
    coup_unseen,
    coup_first,
    unseen,
    burn_up,
    burned,
    burned_ranks,
    err_code,
    err_index,
    err_start,
    err_coup,
):  # pragma: no cover - compiled
    out = 0
    for s in range(len(offsets) - 1):
        a = offsets[s]
        b = offsets[s + 1]
        shoe_out = out
        n_cards = 52 * decks[s]
        counts = np.empty(13, np.int64)
        for r in range(13):
            counts[r] = 4 * decks[s]
            burned_ranks[s, r] = 0
        err_code[s] = 0
        err_index[s] = -1
        err_start[s] = -1
        err_coup[s] = 0
        burn_up[s] = -1
        burned[s] = 0
        for i in range(a, b):
            card_coup[i] = -1
            card_slot[i] = SLOT_UNDEALT
        # ------------------------------------------------------------ burn
        pos = a
        seen = 0
        listed = False
        mode = burn_mode[s]
        if has_roles:
            nb = 0
            while pos + nb < b and roles[pos + nb] == 0:
                nb += 1
            if mode == BURN_STANDARD and nb > 0:
                first = ranks[pos]
                fd = burn_count(first, burn_ace[s])
                if nb != 1 and nb != 1 + fd:
                    err_code[s] = BURN_COUNT
                    err_index[s] = pos + nb - 1
                    err_start[s] = pos
                    continue
                burn_up[s] = first
                burned[s] = fd
                listed = nb > 1
            elif mode == BURN_FIXED:
                if nb != 0 and nb != burn_fixed[s]:
                    err_code[s] = BURN_COUNT
                    err_index[s] = pos + nb - 1
                    err_start[s] = pos
                    continue
                burned[s] = burn_fixed[s]
                listed = nb > 0
            elif mode == BURN_NONE and nb > 0:
                err_code[s] = BURN_COUNT
                err_index[s] = pos
                err_start[s] = pos
                continue
            n_burn_rows = nb
        else:
            n_burn_rows = 0
            if mode == BURN_STANDARD and b > a:
                first = ranks[pos]
                fd = burn_count(first, burn_ace[s])
                listed = face_down_listed(hidden[s], b - a == n_cards)
                burn_up[s] = first
                burned[s] = fd
                n_burn_rows = 1 + (fd if listed else 0)
            elif mode == BURN_FIXED:
                listed = face_down_listed(hidden[s], b - a == n_cards)
                burned[s] = burn_fixed[s]
                n_burn_rows = burn_fixed[s] if listed else 0
            if pos + n_burn_rows > b:
                err_code[s] = TRUNCATED
                err_index[s] = b - 1
                err_start[s] = a
                continue
        if burn_up[s] >= 0:
            counts[burn_up[s]] -= 1
            seen = 1
            card_slot[pos] = SLOT_EXPOSED
            card_coup[pos] = 0
        for i in range(pos + seen, pos + n_burn_rows):
            burned_ranks[s, ranks[i]] += 1
            card_slot[i] = SLOT_FACE_DOWN
            card_coup[i] = 0
        pos += n_burn_rows
        omitted = 0 if listed else burned[s]
        complete = (not has_roles) and b - a == n_cards and (listed or mode == BURN_NONE)
        cut_pos = n_cards - cut_card[s]
        last = False
        coup = 0
        bad = False
        while pos < b:
            if has_roles and roles[pos] == 3:
                break
            if has_roles and roles[pos] == 0:
                err_code[s] = BURN_LATE
                err_index[s] = pos
                err_start[s] = pos
                bad = True
                break
            if complete and not may_start(n_cards - (pos - a + omitted), coup, 0, last_mode[s]):
                break  # the end-of-shoe rule applies to a record of the whole shoe
            start = pos
            if pos + 4 > b:
                err_code[s] = TRUNCATED
                err_index[s] = b - 1
                err_start[s] = start
                err_coup[s] = coup + 1
                bad = True
                break
            for k in range(4):
                want = 1 if k % 2 == 0 else 2
                split = has_coups and coup_ids[pos + k] != coup_ids[start]
                if split or (has_roles and roles[pos + k] != want):
                    err_code[s] = COUP_SPLIT if split else ROLE_ORDER
                    err_index[s] = pos + k
                    err_start[s] = start
                    err_coup[s] = coup + 1
                    bad = True
                    break
            if bad:
                break
            p1 = ranks[pos]
            b1 = ranks[pos + 1]
            p2 = ranks[pos + 2]
            b2 = ranks[pos + 3]
            pos += 4
            p3 = -1
            b3 = -1
            pt = (values[p1] + values[p2]) % 10
            bt = (values[b1] + values[b2]) % 10
            natural = is_natural(pt, bt)
            need_b3 = False
            if not natural:
                third = -1
                if player_draws(pt, bt, player_draw):
                    if pos >= b:
                        err_code[s] = TRUNCATED
                    elif (has_roles and roles[pos] != 1) or (has_coups and coup_ids[pos] != coup_ids[start]):
                        err_code[s] = MISSING_P3
                    else:
                        p3 = ranks[pos]
                        pos += 1
                        third = values[p3]
                if err_code[s] == 0:
                    need_b3 = banker_draws(pt, bt, third, banker_draw)
                if need_b3:
                    if pos >= b:
                        err_code[s] = TRUNCATED
                    elif (has_roles and roles[pos] != 2) or (has_coups and coup_ids[pos] != coup_ids[start]):
                        err_code[s] = MISSING_B3
                    else:
                        b3 = ranks[pos]
                        pos += 1
            if err_code[s] == 0 and pos < b:
                extra = False
                if has_coups and coup_ids[pos] == coup_ids[start]:
                    extra = True
                elif has_roles and roles[pos] == 2:
                    extra = True  # a Banker card cannot open the next coup
                if extra:
                    who = roles[pos] if has_roles else -1
                    if natural:
                        err_code[s] = AFTER_NATURAL
                    elif who == 1 and p3 < 0:
                        err_code[s] = EXTRA_P3
                    elif who == 2 and b3 < 0:
                        err_code[s] = EXTRA_B3
                    else:
                        err_code[s] = COUP_SPLIT
            if err_code[s] != 0:
                missing = err_code[s] == MISSING_P3 or err_code[s] == MISSING_B3 or err_code[s] == TRUNCATED
                err_index[s] = pos - 1 if missing else pos
                err_start[s] = start
                err_coup[s] = coup + 1
                bad = True
                break
            coup_shoe[out] = s
            coup_no[out] = coup + 1
            coup_start[out] = start - a + omitted
            coup_first[out] = start
            coup_cards[out, 0] = p1
            coup_cards[out, 1] = p2
            coup_cards[out, 2] = p3
            coup_cards[out, 3] = b1
            coup_cards[out, 4] = b2
            coup_cards[out, 5] = b3
            coup_seen[out] = seen
            coup_left[out] = n_cards - (start - a + omitted)
            coup_unseen[out] = n_cards - (start - a + omitted) + burned[s]
            for r in range(13):
                unseen[out, r] = counts[r]
            slot_of = (0, 3, 1, 4)
            for k in range(4):
                card_slot[start + k] = slot_of[k]
            if p3 >= 0:
                card_slot[start + 4] = 2
            if b3 >= 0:
                card_slot[pos - 1] = 5
            for i in range(start, pos):
                counts[ranks[i]] -= 1
                card_coup[i] = coup + 1
            seen += pos - start
            out += 1
            coup += 1
            if complete:
                stop, last = cut_card_after(start - a + omitted, pos - a + omitted, cut_pos, last, last_mode[s])
                if stop:
                    break
        if not bad and has_roles:
            for i in range(pos, b):
                if roles[i] != 3:
                    err_code[s] = AFTER_UNDEALT
                    err_index[s] = i
                    err_start[s] = i
                    err_coup[s] = coup
                    bad = True
                    break
        if bad:
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
        cut_card, last_mode``; the modes as :func:`toolkit._coup.code` of their
        :class:`~toolkit._coup.Burn`, :class:`~toolkit._coup.HiddenBurn` and
        :class:`~toolkit._coup.LastHand` options.
    tableau
        Drawing rules.
    roles, coup_ids
        Recorded role codes (:data:`ROLES`) and coup ids of every card, when the
        record has them.

    Returns
    -------
    Rebuilt
        ``dealt``: a :class:`~toolkit.dealing.DealtShoes` over the good shoes only
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
    card_coup = np.empty(n, np.int32)
    card_slot = np.empty(n, np.int8)
    out = coup_buffers(max_coups, n_shoes)
    coup_first = np.empty(max_coups, np.int64)
    err_code = np.empty(n_shoes, np.int8)
    err_index = np.empty(n_shoes, np.int64)
    err_start = np.empty(n_shoes, np.int64)
    err_coup = np.empty(n_shoes, np.int32)
    count = _rebuild_kernel(  # type: ignore[call-arg]  # numba's Dispatcher is typed as taking no arguments
        np.ascontiguousarray(ranks, dtype=np.int8),
        roles_arr,
        coups_arr,
        np.ascontiguousarray(offsets, dtype=np.int64),
        has_roles,
        has_coups,
        *(np.ascontiguousarray(params[k], dtype=np.int64) for k in _PARAMS),
        np.array(RANK_VALUES, np.int64),
        np.array(tableau.player, dtype=np.bool_),
        np.array(tableau.banker, dtype=np.bool_),
        card_coup,
        card_slot,
        *(out[k] for k in COUP_FIELDS[:-1]),
        coup_first,
        out["unseen"],
        *(out[k] for k in SHOE_FIELDS),
        err_code,
        err_index,
        err_start,
        err_coup,
    )
    good = err_code == OK
    renumber = np.cumsum(good) - 1
    coups = {k: out[k][:count] for k in COUP_FIELDS}
    coups["shoe"] = renumber[coups["shoe"]]
    dealt = DealtShoes(**coups, **{k: out[k][good] for k in SHOE_FIELDS}, first_shoe=0)
    return Rebuilt(dealt, card_coup, card_slot, coup_first[:count], good, err_code, err_index, err_start, err_coup)


def slot_roles(slots: np.ndarray) -> pl.Series:
    """Role name (``burn/player/banker/undealt``) of each kernel slot."""
    return pl.Series("role", slots).replace_strict(list(range(len(_SLOT_ROLE))), _SLOT_ROLE, return_dtype=pl.String)
