"""What a bettor sees of the next coup's cards: observed positions, a partition of the card kinds at each, patterns.

A *partition* splits the card kinds (values ``0123456789``, or ranks ``A23456789TJQK`` with
``by="rank"``) into groups, written as a string:

* ``"6789"``: one named group against the rest.  Its letter is ``H`` (the named group, "high"
  for the edge sorter's {6, 7, 8, 9}) and the rest's is ``L``.
* ``"0/12345/6789"``: the groups as written, separated by ``/``; kinds not written form one more
  group, the rest.  When every group holds one kind (``"0/1/2/.../9"``: the card itself is seen)
  a card's letter is its kind; otherwise the groups are lettered ``A``, ``B``, ``C``... in the order
  written, the rest last.

A *pattern* is what the bettor sees, written ``Player/Banker`` (``/third`` when position 5 or 6
is observed): the letters of the observed positions 1 and 3 (Player's cards), of 2 and 4
(Banker's), then of 5 and 6, each in position order.  When both cards of a hand are observed
with the same partition their letters are written sorted in the partition's letter order
(``HL``, never ``LH``): the hand's total and pair do not depend on the order of its two cards,
so the two orders have the same conditional expectation and merging them loses nothing.  A
hand with no observed card is written ``-``.

>>> p = parse_partition("6789")
>>> p.letters, p.group_of[6], p.group_of[0]
(('H', 'L'), 0, 1)
>>> parse_partition("0/12345/6789").letters
('A', 'B', 'C')
>>> parse_positions("1-4"), parse_positions("1,3"), parse_positions(5)
((1, 2, 3, 4), (1, 3), (5,))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

__all__ = ["Observation", "Partition", "observation", "parse_partition", "parse_positions"]

VALUE_KINDS = "0123456789"
RANK_KINDS = "A23456789TJQK"
#: The value of each rank of :data:`RANK_KINDS`.
RANK_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
#: The hand of each position 1..6: 0 Player (1, 3), 1 Banker (2, 4), 2 the third cards (5, 6).
HAND_OF = {1: 0, 2: 1, 3: 0, 4: 1, 5: 2, 6: 2}
#: Letters of lettered groups.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Partition:
    """A partition of the ten card values into groups (a rank partition is carried by value).

    Attributes
    ----------
    text
        The partition as given (``"6789"``, ``"0/12345/6789"``).
    by
        ``"value"`` or ``"rank"``: how ``text`` names the kinds.
    group_of
        For each value 0..9, its group's index (empty when the partition splits T, J, Q, K).
    letters
        Each group's letter, in group order (the order patterns sort in).
    members
        Each group's kinds, as written (``"6789"``, the rest in kind order).
    group_of_rank
        For each rank ``A23456789TJQK``, its group's index.
    """

    text: str
    by: str
    group_of: tuple[int, ...]
    letters: tuple[str, ...]
    members: tuple[str, ...]
    group_of_rank: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.group_of_rank:
            object.__setattr__(self, "group_of_rank", tuple(self.group_of[v] for v in RANK_VALUE))

    @property
    def by_value(self) -> bool:
        """Whether the groups are unions of values (T, J, Q, K together), so the value path can observe them."""
        return bool(self.group_of)

    @property
    def size(self) -> int:
        """The number of groups."""
        return len(self.letters)

    def describe(self) -> str:
        """``H = 6789, L = 012345``."""
        return ", ".join(f"{letter} = {kinds}" for letter, kinds in zip(self.letters, self.members, strict=True))


def parse_partition(text: str, by: str = "value") -> Partition:
    """A partition from ``"6789"`` (that group against the rest) or ``"0/12345/6789"``; see the module notes.

    Parameters
    ----------
    text
        The groups.
    by
        ``"value"`` (kinds ``0``-``9``) or ``"rank"`` (kinds ``A23456789TJQK``).

    Returns
    -------
    Partition

    Raises
    ------
    ValueError
        An unknown kind, a kind in two groups, an empty group, or one group holding every kind.
    """
    if not isinstance(text, str):
        raise TypeError(f"groups must be a string such as '6789' or '0/12345/6789', got {type(text).__name__}")
    if by not in ("value", "rank"):
        raise ValueError(f"by must be 'value' or 'rank', got {by!r}")
    kinds = VALUE_KINDS if by == "value" else RANK_KINDS
    where = f"groups {text!r}"
    written = [part.strip().upper() for part in text.split("/")]
    seen: dict[str, int] = {}
    for index, part in enumerate(written):
        if not part:
            raise ValueError(f"{where}: group {index + 1} is empty; write groups of {by}s such as '6789' or '0/6789'")
        for kind in part:
            if kind not in kinds:
                raise ValueError(f"{where}: {kind!r} is not a card {by}; the {by}s are {kinds}")
            if kind in seen:
                twice = "twice in one group" if seen[kind] == index else f"in groups {seen[kind] + 1} and {index + 1}"
                raise ValueError(f"{where}: the {by} {kind!r} is {twice}; each {by} belongs to one group")
            seen[kind] = index
    rest = "".join(k for k in kinds if k not in seen)
    groups = [*written, rest] if rest else written
    if len(groups) < 2:
        raise ValueError(f"{where}: every {by} is in one group, so nothing would be observed; give two groups or more")
    if len(written) == 1:
        letters: tuple[str, ...] = ("H", "L")
    elif all(len(g) == 1 for g in groups):
        letters = tuple(groups)
    else:
        letters = tuple(LETTERS[i] for i in range(len(groups)))
    group_of_kind = {kind: i for i, g in enumerate(groups) for kind in g}
    if by == "value":
        return Partition(text, by, tuple(group_of_kind[str(v)] for v in range(10)), letters, tuple(groups))
    by_rank = tuple(group_of_kind[k] for k in RANK_KINDS)
    group_of: tuple[int, ...] = ()
    if len({group_of_kind[k] for k in "TJQK"}) == 1:
        group_of = tuple(group_of_kind["T"] if v == 0 else group_of_kind[RANK_KINDS[v - 1]] for v in range(10))
    return Partition(text, by, group_of, letters, tuple(groups), by_rank)


def parse_positions(positions: int | str | Iterable[int]) -> tuple[int, ...]:
    """Observed positions from ``1``, ``"1-4"``, ``"1,3"``, ``(1, 2)``: sorted, distinct, each 1..6.

    Parameters
    ----------
    positions
        The positions in dealing order (1 Player, 2 Banker, 3 Player, 4 Banker, 5 and 6 the third cards).

    Returns
    -------
    tuple of int
    """
    shown = repr(positions)
    where = f"positions {shown if len(shown) <= 40 else shown[:40] + '...'}"
    out: list[int] = []
    if isinstance(positions, bool):
        raise TypeError(f"{where}: give positions as numbers 1-6, '1-4' or '1,3'")
    if isinstance(positions, (int, np.integer)):
        out = [int(positions)]
    elif isinstance(positions, str):
        for part in (p.strip() for p in positions.split(",")):
            if not part:
                raise ValueError(f"{where}: an empty position; write '1', '1-4' or '1,3'")
            lo, dash, hi = (p.strip() for p in part.partition("-"))
            if not _digits(lo) or (dash and not _digits(hi)):
                raise ValueError(f"{where}: {part!r} is not a position or a range of positions such as '1-4'")
            first, last = _position(lo, where), _position(hi, where) if dash else _position(lo, where)
            if last < first:
                raise ValueError(f"{where}: the range {part!r} runs backwards")
            out.extend(range(first, last + 1))  # at most six: both ends are checked first
            if len(out) > 6:
                _repeated(out, where)
    else:
        for p in positions:
            if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
                raise TypeError(f"{where}: each position must be an integer 1-6, got {p!r}")
            out.append(_position_in_range(int(p), where))
            if len(out) > 6:  # the positions of an endless iterable stop at the first repeated
                _repeated(out, where)
    if not out:
        raise ValueError(f"{where}: observe at least one position (1-6)")
    for p in out:
        _position_in_range(p, where)
    _repeated(out, where)
    return tuple(sorted(out))


def _digits(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` takes ``'²'``, which ``int`` refuses)."""
    return text.isascii() and text.isdigit()


def _position(text: str, where: str) -> int:
    """A position written in digits, checked to be 1-6 before anything is built from it (``1-99999999999``)."""
    stripped = text.lstrip("0") or "0"
    if len(stripped) > 1:  # never converted: a number of any length is refused as it is written
        raise _outside(stripped if len(stripped) <= 20 else stripped[:20] + "...", where)
    return _position_in_range(int(stripped), where)


def _position_in_range(p: int, where: str) -> int:
    if not 1 <= p <= 6:
        raise _outside(str(p), where)
    return p


def _outside(shown: str, where: str) -> ValueError:
    return ValueError(
        f"{where}: position {shown} is outside 1-6 (a coup is six ordered cards: 1 and 3 Player, 2 and 4 "
        "Banker, 5 and 6 the third cards)"
    )


def _repeated(out: list[int], where: str) -> None:
    """Refuse a position given twice."""
    seen: set[int] = set()
    for p in out:
        if p in seen:
            raise ValueError(f"{where}: position {p} is given twice")
        seen.add(p)


@dataclass(frozen=True)
class Observation:
    """The observed positions and the partition seen at each.

    Attributes
    ----------
    positions
        Observed positions, sorted (1..6).
    partitions
        The partition seen at each observed position.
    merge
        Whether the two cards of a hand observed with the same partition are written sorted.
    """

    positions: tuple[int, ...]
    partitions: tuple[Partition, ...]
    merge: bool = True

    @property
    def by_value(self) -> bool:
        """Whether every partition is a union of values (the value path can observe it)."""
        return all(p.by_value for p in self.partitions)

    def codes(self, cells: np.ndarray, base: int = 10) -> np.ndarray:
        """Pattern code of each cell: ``sum_i k_i base**i`` over the observed kinds (values, or ranks with 13)."""
        groups = [
            np.array(p.group_of if base == 10 else p.group_of_rank, dtype=np.int64)[(cells // base**i) % base]
            for i, p in enumerate(self.partitions)
        ]
        for a, b in self._merged_pairs():
            groups[a], groups[b] = np.minimum(groups[a], groups[b]), np.maximum(groups[a], groups[b])
        code = np.zeros_like(cells)
        for g, p in zip(groups, self.partitions, strict=True):
            code = code * p.size + g
        return code

    def name(self, code: int) -> str:
        """The pattern of a code (see the module notes)."""
        letters = []
        for p in reversed(self.partitions):
            letters.append(p.letters[code % p.size])
            code //= p.size
        letters.reverse()
        parts: list[list[str]] = [[], [], []]
        for position, letter in zip(self.positions, letters, strict=True):
            parts[HAND_OF[position]].append(letter)
        shown = ["".join(part) or "-" for part in parts]
        return "/".join(shown if parts[2] else shown[:2])

    def _merged_pairs(self) -> list[tuple[int, int]]:
        if not self.merge:
            return []
        index = {p: i for i, p in enumerate(self.positions)}
        return [
            (index[a], index[b])
            for a, b in ((1, 3), (2, 4))
            if a in index and b in index and self.partitions[index[a]] == self.partitions[index[b]]
        ]

    def describe(self) -> str:
        """``positions 1, 2, 3, 4: H = 6789, L = 012345``."""
        texts = {p.describe() for p in self.partitions}
        if len(texts) == 1:
            where = "position" if len(self.positions) == 1 else "positions"
            return f"{where} {', '.join(map(str, self.positions))}: {texts.pop()}"
        return "; ".join(f"position {q}: {p.describe()}" for q, p in zip(self.positions, self.partitions, strict=True))


def observation(
    groups: str | Mapping[int, str],
    positions: int | str | Iterable[int] = (1,),
    by: str = "value",
    merge: bool = True,
) -> Observation:
    """An :class:`Observation` from groups (one string for every position, or ``{position: groups}``).

    Parameters
    ----------
    groups
        The partition seen at every observed position, or one per position.
    positions
        The observed positions (ignored when ``groups`` is a mapping: its keys are the positions).
    by
        ``"value"`` or ``"rank"``.
    merge
        Write a hand's two observed cards sorted (see the module notes).

    Returns
    -------
    Observation

    Examples
    --------
    >>> observation("6789", "1-4").describe()
    'positions 1, 2, 3, 4: H = 6789, L = 012345'
    """
    if isinstance(groups, Mapping):
        where = parse_positions(list(groups))
        parts = tuple(parse_partition(groups[p], by) for p in where)
        return Observation(where, parts, merge)
    where = parse_positions(positions)
    part = parse_partition(groups, by)
    return Observation(where, (part,) * len(where), merge)
