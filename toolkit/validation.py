"""Checking shoe records against the rules, and the report of what was wrong.

Every problem found in a record is a :class:`Problem`: the file, the line (the
row number for Parquet), the shoe and the coup it concerns, a short ``code`` and
a message that says what was expected.  Loading is lenient by default: valid
shoes load, invalid ones are set aside in a :class:`ValidationReport` with their
raw rows; with ``strict=True`` loading stops at the first problem (in file
order) by raising :class:`RecordError`, which carries it.

Problem codes
-------------
``unreadable``, ``not_text``, ``empty_file``, ``bad_header``, ``missing_column``
    The file as a whole cannot be read (*fatal*: no shoe of it loads).
``bad_value``, ``unknown_card``, ``too_many_cards``, ``duplicate_position``,
``missing_position``, ``duplicate_coup``, ``missing_coup``, ``bad_hand``
    A row or a shoe does not make sense as written.
``tableau``, ``truncated``, ``burn``
    The cards do not follow the drawing rules (:class:`toolkit.rules.Tableau`)
    or the burn rule of the shoe header; ``truncated``: the record ends in the
    middle of a coup.
``winner_mismatch``
    A per-coup record whose winner disagrees with its cards.
``bad_bet``, ``bad_road``
    A bet that names no known bet, coup or amount; a bead road symbol that is
    not ``B``, ``P``, ``T`` or a pair mark.

Rebuilding the coups of a card-level shoe is a numba kernel
(:func:`rebuild`); it deals the recorded cards by the tableau exactly as
:func:`toolkit.dealing.deal_block` deals a shuffled shoe, and stops at the
first card that does not fit.

>>> p = Problem("shoes.csv", 12, "7", 3, "tableau", "Player stands on 7; found a third card 5h for Player")
>>> str(p)
'shoes.csv:12: shoe 7, coup 3: Player stands on 7; found a third card 5h for Player'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numba
import numpy as np
import polars as pl

from toolkit.cards import RANK_VALUES, RANKS, parse_card
from toolkit.dealing import DealtShoes
from toolkit.rules import Tableau

__all__ = ["Problem", "RecordError", "ValidationReport"]

#: Roles of a card in a card-level record, as the kernel sees them (-1: not recorded).
ROLES: tuple[str, ...] = ("burn", "player", "banker", "undealt")
ROLE_CODE = {name: i for i, name in enumerate(ROLES)}
#: Where the kernel put each card: the six hand slots of :data:`toolkit.dealing.SLOTS`, then these.
SLOT_EXPOSED, SLOT_FACE_DOWN, SLOT_UNDEALT = 6, 7, 8
_SLOT_ROLE = ["player"] * 3 + ["banker"] * 3 + ["burn", "burn", "undealt"]

#: Winner names by letter or word, as records write them.
WINNER_NAMES = {"b": "banker", "p": "player", "t": "tie", "banker": "banker", "player": "player", "tie": "tie"}
_SUITS = {"s": "s", "h": "h", "d": "d", "c": "c", "♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_ROAD_TOKEN = re.compile(r"([BPT])([pb]*)|(\s+)|(.)")

BURN_MODES = {"standard": 0, "fixed": 1, "none": 2}
HIDDEN_BURN = {"omitted": 0, "listed": 1, "auto": 2}
LAST_HAND = {"one_more": 0, "finish": 1, "seven_cards": 2}

#: Per-shoe parameters of :func:`rebuild`, in the kernel's order.
_PARAMS = ("decks", "burn_mode", "burn_ace", "burn_fixed", "hidden", "cut_card", "last_mode")

# kernel error codes
_OK, _TRUNCATED, _ROLE_ORDER, _MISSING_P3, _MISSING_B3 = 0, 1, 2, 3, 4
_AFTER_NATURAL, _EXTRA_P3, _EXTRA_B3, _BURN_COUNT, _BURN_LATE, _AFTER_UNDEALT, _COUP_SPLIT = 5, 6, 7, 8, 9, 10, 11


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a record.

    Attributes
    ----------
    file
        The file it was read from (``"<memory>"`` for frames).
    line
        Line of the file (1-based; for Parquet the row number, from 1), or ``None``.
    shoe
        Shoe id as written in the file, or ``None`` for a problem of the whole file.
    coup
        Coup number (from 1), or ``None``.
    code
        Kind of problem (see the module notes).
    message
        What was found and what was expected.
    fatal
        ``True`` when the file as a whole cannot be read.
    """

    file: str
    line: int | None
    shoe: str | None
    coup: int | None
    code: str
    message: str
    fatal: bool = False

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        parts = [
            p
            for p in (
                f"shoe {self.shoe}" if self.shoe is not None else "",
                f"coup {self.coup}" if self.coup is not None else "",
            )
            if p
        ]
        return f"{where}: {', '.join(parts) + ': ' if parts else ''}{self.message}"

    def as_dict(self) -> dict[str, object]:
        """The problem as a JSON-ready mapping (``file, line, shoe, coup, code, message``)."""
        return {
            "file": self.file,
            "line": self.line,
            "shoe": self.shoe,
            "coup": self.coup,
            "code": self.code,
            "message": self.message,
        }


class RecordError(ValueError):
    """Raised by strict loading at the first problem; ``.problem`` holds it."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _empty_rejected() -> pl.DataFrame:
    return pl.DataFrame(schema={"file": pl.String, "line": pl.Int64, "shoe": pl.String})


@dataclass(frozen=True)
class ValidationReport:
    """What loading a record found: its problems, and the raw rows of the shoes set aside.

    Attributes
    ----------
    problems
        Every :class:`Problem`, in file order.
    rejected
        The raw rows (as read, all columns as text) of every shoe set aside,
        with the ``file`` and ``line`` they came from.
    n_shoes, n_valid
        Shoes found, and shoes that loaded.
    """

    problems: tuple[Problem, ...] = ()
    rejected: pl.DataFrame = field(default_factory=_empty_rejected)
    n_shoes: int = 0
    n_valid: int = 0

    @property
    def ok(self) -> bool:
        """No problem at all."""
        return not self.problems

    @property
    def fatal(self) -> bool:
        """Some file could not be read at all."""
        return any(p.fatal for p in self.problems)

    @property
    def invalid_shoes(self) -> list[str]:
        """Ids of the shoes set aside, in file order."""
        seen: dict[str, None] = {}
        for p in self.problems:
            if p.shoe is not None:
                seen.setdefault(p.shoe)
        return list(seen)

    def frame(self) -> pl.DataFrame:
        """The problems as a polars frame (``file, line, shoe, coup, code, message, fatal``)."""
        schema = {
            "file": pl.String,
            "line": pl.Int64,
            "shoe": pl.String,
            "coup": pl.Int64,
            "code": pl.String,
            "message": pl.String,
            "fatal": pl.Boolean,
        }
        return pl.DataFrame([{**p.as_dict(), "fatal": p.fatal} for p in self.problems], schema=schema)

    def merge(self, other: ValidationReport) -> ValidationReport:
        """Both reports as one (for several files)."""
        return ValidationReport(
            self.problems + other.problems,
            pl.concat([self.rejected, other.rejected], how="diagonal_relaxed"),
            self.n_shoes + other.n_shoes,
            self.n_valid + other.n_valid,
        )


def first_problem(problems: list[Problem]) -> Problem:
    """The problem that comes first in the file (fatal ones first, then by line)."""
    return min(problems, key=lambda p: (not p.fatal, p.line if p.line is not None else -1))


# ------------------------------------------------------------------ rebuilding
@numba.njit(cache=True)
def _burn_count(rank, values, burn_ace):  # pragma: no cover - compiled
    v = values[rank]
    if v == 0:
        return 10
    if rank == 0:
        return burn_ace
    return v


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
            if mode == 0 and nb > 0:
                first = ranks[pos]
                fd = _burn_count(first, values, burn_ace[s])
                if nb != 1 and nb != 1 + fd:
                    err_code[s] = _BURN_COUNT
                    err_index[s] = pos + nb - 1
                    err_start[s] = pos
                    continue
                burn_up[s] = first
                burned[s] = fd
                listed = nb > 1
            elif mode == 1:
                if nb != 0 and nb != burn_fixed[s]:
                    err_code[s] = _BURN_COUNT
                    err_index[s] = pos + nb - 1
                    err_start[s] = pos
                    continue
                burned[s] = burn_fixed[s]
                listed = nb > 0
            elif mode == 2 and nb > 0:
                err_code[s] = _BURN_COUNT
                err_index[s] = pos
                err_start[s] = pos
                continue
            n_burn_rows = nb
        else:
            n_burn_rows = 0
            if mode == 0 and b > a:
                first = ranks[pos]
                fd = _burn_count(first, values, burn_ace[s])
                listed = hidden[s] == 1 or (hidden[s] == 2 and b - a == n_cards)
                burn_up[s] = first
                burned[s] = fd
                n_burn_rows = 1 + (fd if listed else 0)
            elif mode == 1:
                listed = hidden[s] == 1 or (hidden[s] == 2 and b - a == n_cards)
                burned[s] = burn_fixed[s]
                n_burn_rows = burn_fixed[s] if listed else 0
            if pos + n_burn_rows > b:
                err_code[s] = _TRUNCATED
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
        complete = (not has_roles) and b - a == n_cards and (listed or mode == 2)
        cut_pos = n_cards - cut_card[s]
        last = False
        coup = 0
        bad = False
        while pos < b:
            if has_roles and roles[pos] == 3:
                break
            if has_roles and roles[pos] == 0:
                err_code[s] = _BURN_LATE
                err_index[s] = pos
                err_start[s] = pos
                bad = True
                break
            phys = pos - a + omitted
            if complete:
                left = n_cards - phys
                if left < 6:
                    break
                if last_mode[s] == 2:
                    if left < 7:
                        break
                elif phys >= cut_pos:
                    last = True
            start = pos
            if pos + 4 > b:
                err_code[s] = _TRUNCATED
                err_index[s] = b - 1
                err_start[s] = start
                err_coup[s] = coup + 1
                bad = True
                break
            for k in range(4):
                want = 1 if k % 2 == 0 else 2
                split = has_coups and coup_ids[pos + k] != coup_ids[start]
                if split or (has_roles and roles[pos + k] != want):
                    err_code[s] = _COUP_SPLIT if split else _ROLE_ORDER
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
            natural = pt >= 8 or bt >= 8
            need_b3 = False
            if not natural:
                if player_draw[pt]:
                    if pos >= b:
                        err_code[s] = _TRUNCATED
                    elif (has_roles and roles[pos] != 1) or (has_coups and coup_ids[pos] != coup_ids[start]):
                        err_code[s] = _MISSING_P3
                    else:
                        p3 = ranks[pos]
                        pos += 1
                        need_b3 = banker_draw[bt, values[p3]]
                else:
                    need_b3 = banker_draw[bt, 10]
                if err_code[s] == 0 and need_b3:
                    if pos >= b:
                        err_code[s] = _TRUNCATED
                    elif (has_roles and roles[pos] != 2) or (has_coups and coup_ids[pos] != coup_ids[start]):
                        err_code[s] = _MISSING_B3
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
                        err_code[s] = _AFTER_NATURAL
                    elif who == 1 and p3 < 0:
                        err_code[s] = _EXTRA_P3
                    elif who == 2 and b3 < 0:
                        err_code[s] = _EXTRA_B3
                    else:
                        err_code[s] = _COUP_SPLIT
            if err_code[s] != 0:
                missing = err_code[s] == _MISSING_P3 or err_code[s] == _MISSING_B3 or err_code[s] == _TRUNCATED
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
            if complete and last_mode[s] != 2:
                if last:
                    break
                if start - a + omitted < cut_pos < pos - a + omitted:
                    if last_mode[s] == 1:
                        break
                    last = True
        if not bad and has_roles:
            for i in range(pos, b):
                if roles[i] != 3:
                    err_code[s] = _AFTER_UNDEALT
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
        cut_card, last_mode`` (codes of :data:`BURN_MODES`, :data:`HIDDEN_BURN`
        and :data:`LAST_HAND` for the modes).
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
    coup_shoe = np.empty(max_coups, np.int64)
    coup_no = np.empty(max_coups, np.int32)
    coup_start = np.empty(max_coups, np.int32)
    coup_cards = np.empty((max_coups, 6), np.int8)
    coup_seen = np.empty(max_coups, np.int32)
    coup_left = np.empty(max_coups, np.int32)
    coup_unseen = np.empty(max_coups, np.int32)
    coup_first = np.empty(max_coups, np.int64)
    unseen = np.empty((max_coups, 13), np.int16)
    burn_up = np.empty(n_shoes, np.int8)
    burned = np.empty(n_shoes, np.int32)
    burned_ranks = np.empty((n_shoes, 13), np.int16)
    err_code = np.empty(n_shoes, np.int8)
    err_index = np.empty(n_shoes, np.int64)
    err_start = np.empty(n_shoes, np.int64)
    err_coup = np.empty(n_shoes, np.int32)
    count = _rebuild_kernel(
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
    )
    good = err_code == _OK
    renumber = np.cumsum(good) - 1
    dealt = DealtShoes(
        shoe=renumber[coup_shoe[:count]],
        coup=coup_no[:count],
        start=coup_start[:count],
        cards=coup_cards[:count],
        seen=coup_seen[:count],
        left=coup_left[:count],
        unseen_count=coup_unseen[:count],
        unseen=unseen[:count],
        burn_card=burn_up[good],
        burned=burned[good],
        burned_ranks=burned_ranks[good],
    )
    return Rebuilt(dealt, card_coup, card_slot, coup_first[:count], good, err_code, err_index, err_start, err_coup)


def slot_roles(slots: np.ndarray) -> pl.Series:
    """Role name (``burn/player/banker/undealt``) of each kernel slot."""
    return pl.Series("role", slots).replace_strict(list(range(len(_SLOT_ROLE))), _SLOT_ROLE, return_dtype=pl.String)


# ------------------------------------------------------------------ messages
def _hand(cards: Sequence[str]) -> str:
    return ", ".join(cards)


def _total(ranks: Sequence[int]) -> int:
    return sum(RANK_VALUES[r] for r in ranks) % 10


def _burned_face_down(rank: int, burn_ace: int) -> int:
    value = RANK_VALUES[rank]
    return 10 if value == 0 else (burn_ace if rank == 0 else value)


def kernel_message(
    code: int,
    names: Sequence[str],
    ranks: Sequence[int],
    roles: Sequence[str | None],
    coup_ids: Sequence[int] | None,
    start: int,
    index: int,
    burn: str,
    burn_ace: int,
    burn_cards: int,
) -> tuple[str, str]:
    """``(problem code, message)`` for a shoe the kernel stopped on, from the shoe's cards as written.

    ``start`` is the first card of the coup (or of the burn) and ``index`` the
    card where the problem shows: the card too many, or the last card before a
    missing one (indices into the shoe's lists).
    """

    def found(i: int) -> str:
        if i >= len(names):
            return "the record ends there"
        if coup_ids is not None and coup_ids[i] != coup_ids[start]:
            return "the record's coup ends there"
        role = roles[i] if roles[i] in ("player", "banker") else ""
        return f"found {names[i]}" + (f" for {role.capitalize()}" if role else "") + " instead"

    card = names[index]
    role = roles[index] if roles[index] in ("player", "banker") else ""
    extra = f"{card}" + (f" for {role.capitalize()}" if role else "")
    if code == _BURN_COUNT:
        burns = _hand(names[start : index + 1])
        if burn == "standard":
            n = _burned_face_down(ranks[start], burn_ace)
            rule = f"the exposed burn card {names[start]} means {n} card(s) burned face down: list none or all {n}"
        elif burn == "fixed":
            rule = f"a fixed burn puts {burn_cards} card(s) face down: list none or all of them"
        else:
            rule = "the header says no cards are burned"
        return "burn", f"burn cards {burns} do not follow the burn rule: {rule}"
    if code == _BURN_LATE:
        return "burn", f"burn card {card} after the coups began; burn cards come before the first coup"
    if code == _AFTER_UNDEALT:
        return "bad_value", f"card {extra} is dealt after cards marked undealt; undealt cards come last"
    have = list(names[start : index + 1])
    if len(have) < 4:
        if code == _TRUNCATED:
            return "truncated", (
                f"the record ends in the middle of a coup: {len(have)} card(s) ({_hand(have)}) where a coup needs "
                "at least four (Player, Banker, Player, Banker)"
            )
        k = len(have)
        want = "Player" if k % 2 == 1 else "Banker"
        if code == _COUP_SPLIT:
            return "tableau", (
                f"the record's coup holds only {k - 1} card(s) before {card}; the first four cards of a coup go "
                "Player, Banker, Player, Banker"
            )
        return "tableau", (
            f"card {k} of the coup ({extra}) should go to {want}: the first four cards of a coup go "
            "Player, Banker, Player, Banker"
        )
    pt, bt = _total([ranks[start], ranks[start + 2]]), _total([ranks[start + 1], ranks[start + 3]])
    situation = (
        f"Player has {pt} ({names[start]}, {names[start + 2]}), Banker {bt} ({names[start + 1]}, {names[start + 3]})"
    )
    third = ranks[start + 4] if index >= start + 4 and (roles[start + 4] in ("player", None, "")) else None
    after_p3 = f"Player's third card is a {RANK_VALUES[third]}" if third is not None else "Player stood"
    if code == _TRUNCATED:
        what = "Player's third card" if third is None and len(have) == 4 else "Banker's third card"
        return "truncated", f"the record ends in the middle of a coup: {situation}, and the tableau deals {what}"
    if code == _MISSING_P3:
        return "tableau", f"missing Player's third card: {situation}; Player draws on {pt}; {found(index + 1)}"
    if code == _MISSING_B3:
        return "tableau", (
            f"missing Banker's third card: {situation}; {after_p3}, so Banker draws on {bt}; {found(index + 1)}"
        )
    if code == _AFTER_NATURAL:
        naturals = [f"{side}'s {t}" for side, t in (("Player", pt), ("Banker", bt)) if t >= 8]
        return "tableau", (
            f"card dealt after a natural: {situation}; {' and '.join(naturals)} "
            f"{'is a natural' if len(naturals) == 1 else 'are naturals'}, so the coup ends after four cards; "
            f"found {extra}"
        )
    if code == _EXTRA_P3:
        return "tableau", f"third card where the tableau forbids one: {situation}; Player stands on {pt}; found {extra}"
    if code == _EXTRA_B3:
        return "tableau", (
            f"third card where the tableau forbids one: {situation}; {after_p3}, so Banker stands on {bt}; "
            f"found {extra}"
        )
    return "tableau", (
        f"card {extra} does not fit the coup: {situation}; the tableau deals third cards only where it says so"
    )


# ------------------------------------------------------------------ row checks
@dataclass
class Checker:
    """Collects the problems of one file while its rows are checked."""

    source: str
    problems: list[Problem] = field(default_factory=list)

    def add(self, line: object, shoe: object, coup: object, code: str, message: str, fatal: bool = False) -> None:
        self.problems.append(
            Problem(
                self.source,
                None if line is None else int(line),
                None if shoe is None else str(shoe),
                None if coup is None else int(coup),
                code,
                message,
                fatal,
            )
        )

    def add_rows(self, frame: pl.DataFrame, code: str, message: str, coup: str | None = None) -> None:
        """One problem per row of ``frame`` (columns ``line``, ``shoe`` and ``coup`` if named).

        ``message`` is a template filled from each row's columns (``"unknown card '{card}'"``).
        """
        for row in frame.iter_rows(named=True):
            self.add(row["line"], row["shoe"], row[coup] if coup else None, code, message.format(**row))

    @property
    def bad_shoes(self) -> set[str]:
        """Shoes with a problem so far."""
        return {p.shoe for p in self.problems if p.shoe is not None}


def canonical_card(card: object) -> str:
    """``'10s' -> 'Ts'``: the rank letter and the lower-case suit letter, if any.

    >>> canonical_card(" 10S"), canonical_card("q♥"), canonical_card("7")
    ('Ts', 'Qh', '7')
    """
    text = str(card)
    index = parse_card(text)
    stripped = text.strip()
    rest = stripped[2:] if stripped.startswith("10") else stripped[1:]
    return RANKS[index] + _SUITS.get(rest.strip().lower(), "")


def parse_cards(frame: pl.DataFrame) -> pl.DataFrame:
    """Add ``rank`` (Int8) and ``canon`` (canonical text) for the ``card`` column; both null for an unknown code.

    Each distinct text is parsed once by :func:`toolkit.cards.parse_card`.
    """
    texts, ranks, canon = [], [], []
    for text in frame["card"].drop_nulls().unique().to_list():
        texts.append(text)
        try:
            ranks.append(parse_card(text))
            canon.append(canonical_card(text))
        except (ValueError, TypeError):
            ranks.append(None)
            canon.append(None)
    card = pl.col("card")
    return frame.with_columns(
        card.replace_strict(texts, ranks, default=None, return_dtype=pl.Int8).alias("rank"),
        card.replace_strict(texts, canon, default=None, return_dtype=pl.String).alias("canon"),
    )


def check_cards(cards: pl.DataFrame, limits: pl.DataFrame, checker: Checker, coup: str | None = None) -> None:
    """Card codes and rank counts.

    ``cards`` has ``shoe, line, card`` (as written), ``rank`` and ``canon`` (from
    :func:`parse_cards`), rows in dealing order within a shoe; ``limits`` has
    ``shoe, decks``.
    """
    checker.add_rows(
        cards.filter(pl.col("card").is_null()),
        "bad_value",
        "missing card (expected a rank A,2-9,T/10,J,Q,K, optionally with a suit)",
        coup,
    )
    checker.add_rows(
        cards.filter(pl.col("card").is_not_null() & pl.col("rank").is_null()),
        "unknown_card",
        "unknown card code '{card}': expected a rank A,2-9,T/10,J,Q,K, optionally followed by a suit letter s/h/d/c",
        coup,
    )
    counts = cards.filter(pl.col("rank").is_not_null()).group_by(["shoe", "rank"]).len().join(limits, on="shoe")
    crowded = counts.filter(pl.col("len") > 4 * pl.col("decks")).select("shoe", "rank", "decks")
    over = (
        cards.join(crowded, on=["shoe", "rank"], how="inner", maintain_order="left")
        .with_columns(pl.int_range(1, pl.len() + 1).over(["shoe", "rank"]).alias("_nth"))
        .filter(pl.col("_nth") == 4 * pl.col("decks") + 1)
        .with_columns(pl.col("canon").str.slice(0, 1).alias("_rank"), (4 * pl.col("decks")).alias("_limit"))
    )
    checker.add_rows(
        over,
        "too_many_cards",
        "card {canon} is one too many of rank {_rank}: a {decks}-deck shoe holds {_limit} of each rank",
        coup,
    )


def check_sequence(frame: pl.DataFrame, column: str, checker: Checker) -> None:
    """Duplicate and missing numbers in ``column`` (``position`` or ``coup``), counted from 1 (or 0) in each shoe.

    ``frame`` (``shoe, line`` and ``column``) is sorted by shoe, then ``column``,
    each shoe's rows together; of two equal numbers the later row is reported.
    """
    number = pl.col(column)
    rows = frame.select("shoe", "line", column).filter(number.is_not_null())
    rows = rows.with_columns(
        number.alias("_n"),
        number.shift(1).alias("_prev"),
        (pl.col("shoe") == pl.col("shoe").shift(1)).fill_null(False).alias("_same"),
    ).with_columns((pl.col("_prev") + 1).alias("_from"), (number - 1).alias("_to"))
    same, prev = pl.col("_same"), pl.col("_prev")
    checker.add_rows(
        rows.filter(same & (number == prev)),
        f"duplicate_{column}",
        f"duplicate {column} {{_n}}: each {column} appears once in a shoe",
    )
    checker.add_rows(
        rows.filter(~same & (number > 1)),
        f"missing_{column}",
        f"missing {column}(s) 1 to {{_to}}: the {column}s of a shoe count from 1",
    )
    checker.add_rows(
        rows.filter(same & (number - prev > 1)),
        f"missing_{column}",
        f"missing {column}(s) {{_from}} to {{_to}}: the {column}s of a shoe are consecutive",
    )


def as_int(frame: pl.DataFrame, column: str, checker: Checker) -> pl.DataFrame:
    """``column`` as integers; a value that is not one is a problem (and becomes null)."""
    text = pl.col(column).cast(pl.String).str.strip_chars()
    out = frame.with_columns(text.cast(pl.Int64, strict=False).alias("_int"), text.fill_null("").alias("_text"))
    checker.add_rows(out.filter(pl.col("_int").is_null()), "bad_value", f"{column} '{{_text}}' is not an integer")
    out = out.drop("_text")
    return out.with_columns(pl.col("_int").alias(column)).drop("_int")


def check_winners(recorded: pl.DataFrame, coups: pl.DataFrame, checker: Checker) -> None:
    """Recorded winners (``shoe, coup, line, winner`` as written) against the winners of the cards (``coups``)."""
    given = recorded.filter(pl.col("winner").is_not_null()).with_columns(
        pl.col("winner").cast(pl.String).str.strip_chars().str.to_lowercase().alias("_given")
    )
    given = given.with_columns(pl.col("_given").replace_strict(WINNER_NAMES, default=None).alias("_norm"))
    checker.add_rows(
        given.filter(pl.col("_norm").is_null()),
        "bad_value",
        "unknown winner '{winner}': expected B, P, T or banker, player, tie",
        "coup",
    )
    both = given.filter(pl.col("_norm").is_not_null()).join(
        coups.select(
            "shoe", pl.col("coup").cast(pl.Int64), pl.col("winner").alias("_cards"), "player_total", "banker_total"
        ),
        on=["shoe", "coup"],
        how="inner",
    )
    wrong = both.filter(pl.col("_norm") != pl.col("_cards")).with_columns(
        pl.when(pl.col("_cards") == "tie").then(pl.lit("a tie")).otherwise(pl.col("_cards") + " wins").alias("_says")
    )
    checker.add_rows(
        wrong,
        "winner_mismatch",
        "the record says {_norm} won, but the cards give Player {player_total} and Banker {banker_total}: {_says}",
        "coup",
    )


def parse_road(text: str) -> tuple[list[tuple[str, bool, bool]], list[str]]:
    """Coups ``(winner, player_pair, banker_pair)`` of a bead road string, and what could not be read.

    >>> parse_road("BpP Tb")[0]
    [('banker', True, False), ('player', False, False), ('tie', False, True)]
    """
    coups: list[tuple[str, bool, bool]] = []
    errors: list[str] = []
    for m in _ROAD_TOKEN.finditer(text):
        if m.group(1):
            marks = m.group(2)
            if len(set(marks)) != len(marks):
                errors.append(f"coup {len(coups) + 1}: pair mark repeated in {m.group(0)!r}")
            coups.append((WINNER_NAMES[m.group(1).lower()], "p" in marks, "b" in marks))
        elif m.group(4):
            ch = m.group(4)
            hint = " (pair marks p and b follow a winner letter)" if ch in "pb" else ""
            errors.append(
                f"unknown symbol {ch!r} after coup {len(coups)}{hint}: a bead road is B, P or T per coup, "
                "each optionally followed by pair marks p and b"
            )
    return coups, errors


def check_bets(bets: pl.DataFrame, coups: pl.DataFrame, known: Sequence[str], checker: Checker) -> None:
    """Bets (``shoe, coup, who, bet, amount, line`` as text) against the known bet names and the coups recorded."""
    frame = bets.with_columns(
        pl.col("shoe").cast(pl.String),
        pl.col("amount").cast(pl.String),
        pl.col("coup").cast(pl.String).str.strip_chars().cast(pl.Int64, strict=False),
        pl.col("bet").fill_null("").alias("_bet"),
        pl.col("amount").cast(pl.String).fill_null("").alias("_amount"),
    )
    checker.add_rows(
        frame.filter(pl.col("bet").is_null() | ~pl.col("bet").is_in(list(known))),
        "bad_bet",
        f"unknown bet '{{_bet}}'; known bets: {', '.join(known)}",
        "coup",
    )
    amount = pl.col("amount").str.strip_chars().cast(pl.Float64, strict=False)
    checker.add_rows(
        frame.filter(amount.is_null() | ~amount.is_finite() | (amount <= 0)),
        "bad_bet",
        "bet amount '{_amount}' is not a positive number",
        "coup",
    )
    checker.add_rows(
        frame.filter(pl.col("who").is_null() | (pl.col("who").str.strip_chars() == "")),
        "bad_bet",
        "a bet needs a bettor ('who')",
        "coup",
    )
    have = coups.select(pl.col("shoe").cast(pl.String), pl.col("coup").cast(pl.Int64), pl.lit(True).alias("_ok"))
    orphan = frame.join(have, on=["shoe", "coup"], how="left").filter(pl.col("_ok").is_null())
    checker.add_rows(orphan, "bad_bet", "bet on a coup that is not in the record (or was set aside)", "coup")
