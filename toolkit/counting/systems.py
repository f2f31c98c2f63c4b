"""Count systems: a frozen value per count (tags, initial count, true-count convention, trigger) and the library.

A count system (:class:`CountSystem`) is a frozen value: a tag for each rank,
an initial running count, how the true count is formed and when it says bet.
The counts themselves, over dealt shoes, are in :mod:`toolkit.counting.tallies`.

**Conventions.** The *running count* before a coup is the initial running count
plus the tags of every card seen so far: the cards of earlier coups and, when
the system counts it (``count_burn_card=True``, the default), the burn card
turned face up.  Cards burned face down are never counted.  Vectorised, from
the unseen composition before the coup::

    RC = IRC + tags . (full shoe - unseen) - (tag of the exposed burn card, if not counted)

(the exposed burn card is seen, so ``full shoe - unseen`` includes it).  The
*true count* divides RC by the decks of cards left in the shoe
(``divisor="decks_left"``: ``cards_left / 52``, the burned cards are not in the
shoe) or by the decks of unseen cards (``divisor="unseen"``: cards left plus
cards burned face down); ``per="half_deck"`` divides by half decks
(``cards / 26``) instead.  The decks may be *estimated* first, as a player at the
table does (``deck_estimate``): ``"exact"`` (the default), ``"half_deck"`` (to the
nearest half deck, halves up, at least half a deck) or ``"whole_deck"`` (to the
nearest deck, at least one).  Then ``rounding`` applies to the true count:
``"none"``, ``"floor"``, ``"truncate"`` (towards zero) or ``"nearest"`` (halves
away from zero).

**Thresholds through the shoe.** ``thresholds`` is a table of steps
``((from, threshold), ...)``: from that coup number (``threshold_by="coup"``) or
from that many cards out of the shoe before the coup, burned cards included
(``threshold_by="cards_dealt"``), the trigger is that threshold, until the next
step; before the first step, ``threshold`` (no bet when it is ``None``).  How's
tracking sheets (a minimum running count that depends on the hand number) and
Wong-style indices that move with the depth are such tables.

Jacobson's published Dragon 7 result (0.597 units per shoe, 100 million simulated
shoes) is *not* reproduced within its printed rounding by the library's convention
(``divisor="decks_left"``, exact decks, no rounding, the exposed burn card counted,
cut card 14, ``one_more``): computed exactly (:func:`toolkit.counting.count_value`) it
gives 0.6014, and 0.5981 dividing by the unseen cards (his Panda 8 figure, 0.237:
0.2344 and 0.2374 at true count +11).  No single change of convention gives 0.597
within its rounding (the unseen divisor misses it by 0.0006, about the computed
method's measured error); the published figure's own standard error, about 0.0018,
is larger than that rounding, and the unseen-card divisor lies within it.  The conventions
tried and what each gives: ``tests/counting/test_published_counts.py`` and the maths
page of computed counts.

The library (:func:`get_count_system`) holds ``dragon7``, ``panda8``,
``thorp_natural9``, ``ten_count`` and ``how_dragon7``, each with its source.

>>> d7 = get_count_system("dragon7")
>>> d7.balanced, d7.tags_by_value
(True, (0, 0, 0, 0, -1, -1, -1, -1, 2, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from toolkit._check import integer, one_of
from toolkit._show import changed_fields
from toolkit.bets.base import Bet
from toolkit.bets.paytable import get_bet
from toolkit.coup.cards import RANK_VALUES, RANKS, parse_card
from toolkit.coup.rules import Rules

__all__ = [
    "COUNT_SYSTEMS",
    "CountSystem",
    "TagsLike",
    "count_systems",
    "get_count_system",
    "resolve_bet",
    "tags_by_rank",
]

_DIVISORS = ("decks_left", "unseen")
_PER = {"deck": 52, "half_deck": 26}
_ROUNDING = ("none", "floor", "truncate", "nearest")
_TRIGGERS = ("true", "running")
_DECK_ESTIMATES = ("exact", "half_deck", "whole_deck")
_THRESHOLD_BY = ("coup", "cards_dealt")
#: The most steps a threshold table may hold (one per coup of the largest shoe is far more than any sheet).
MAX_THRESHOLD_STEPS = 1000

#: Tags as a count system takes them: 13 by rank, 10 by value, or a mapping of ranks or values to tags.
TagsLike = Sequence[int] | Mapping[Any, int]


def tags_by_rank(tags: TagsLike, name: str) -> tuple[int, ...]:
    """13 integer tags by rank from 13 by rank, 10 by value (0..9) or a mapping of ranks or values.

    ``name`` (the count system's) goes into the error messages.

    >>> tags_by_rank({"8": 2, 9: 2, "T": -1}, "mine")
    (0, 0, 0, 0, 0, 0, 0, 2, 2, -1, 0, 0, 0)
    """
    where = f"count system {name!r}"
    if isinstance(tags, Mapping):
        out = [0] * 13
        for key, tag in tags.items():
            if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
                if not 0 <= key <= 9:
                    raise ValueError(f"{where}: card value {key} is not 0..9")
                ranks = [i for i, v in enumerate(RANK_VALUES) if v == key]
            elif isinstance(key, str):
                ranks = [parse_card(key)]
            else:
                raise TypeError(f"{where}: tag keys must be ranks ('A', 'T', 'K'...) or values 0..9, got {key!r}")
            for r in ranks:
                out[r] = tag
        tags = out
    if isinstance(tags, (str, bytes)) or not isinstance(tags, Iterable):
        raise TypeError(f"{where}: tags must be 13 integers by rank, 10 by value or a mapping, got {tags!r}")
    items = list(tags)
    items = [integer(tag, f"{where}: tag {i + 1}") for i, tag in enumerate(items)]
    if len(items) == 10:  # by value 0..9, like Composition.by_value
        return tuple(items[v] for v in RANK_VALUES)
    if len(items) == 13:
        return tuple(items)
    raise ValueError(f"{where}: expected 13 tags by rank (A,2..9,T,J,Q,K) or 10 by value (0..9), got {len(items)}")


@dataclass(frozen=True)
class CountSystem:
    """A card count: tags, initial running count, true-count convention and betting trigger.

    Parameters
    ----------
    name
        Identifier (also the suffix of the ``rc_<name>``/``tc_<name>`` columns).
    tags
        13 integers by rank (``A, 2..9, T, J, Q, K``), 10 by *value* ``0..9``
        (as :attr:`toolkit.coup.cards.Composition.by_value`: the first is the tag of
        the tens and faces), or a mapping of ranks or values to tags (others 0).
    initial_count
        Running count before any card is seen (unbalanced counts start below zero).
    divisor
        ``"decks_left"`` (cards left in the shoe) or ``"unseen"`` (cards left plus
        cards burned face down).
    per
        ``"deck"`` (52 cards) or ``"half_deck"`` (26).
    rounding
        ``"none"``, ``"floor"``, ``"truncate"`` or ``"nearest"`` (halves away from zero).
    count_burn_card
        Whether the burn card turned face up counts (face-down burns never do).
    bet
        Name of the bet the count is for (see :func:`toolkit.bets.paytable.get_bet`), or ``None``.
    trigger
        Which count the threshold reads: ``"true"`` or ``"running"``.
    threshold
        Bet when that count is at least this value (``None``: no published trigger).
    source
        Where the system was published.
    deck_estimate
        How the decks the true count divides by are estimated: ``"exact"``, ``"half_deck"`` or ``"whole_deck"``.
    thresholds
        Steps ``((from, threshold), ...)`` of a threshold that changes through the shoe (see the module notes).
    threshold_by
        What the steps' ``from`` counts: ``"coup"`` (the coup number, from 1) or ``"cards_dealt"``.

    Examples
    --------
    >>> s = CountSystem("mine", {"8": 1, "9": 1, "T": -1, "J": -1, "Q": -1, "K": -1}, bet="natural9", threshold=3)
    >>> s.tags, s.balanced
    ((0, 0, 0, 0, 0, 0, 0, 1, 1, -1, -1, -1, -1), False)
    >>> s.full_shoe_total(8)
    -64
    """

    name: str
    tags: tuple[int, ...]
    initial_count: int = 0
    divisor: str = "decks_left"
    per: str = "deck"
    rounding: str = "none"
    count_burn_card: bool = True
    bet: str | None = None
    trigger: str = "true"
    threshold: float | None = None
    source: str = ""
    deck_estimate: str = "exact"
    thresholds: tuple[tuple[int, float], ...] = ()
    threshold_by: str = "coup"

    def __repr__(self) -> str:
        """The fields that differ from the defaults, without the source.

        >>> get_count_system("dragon7")
        CountSystem(name='dragon7', tags=(0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), bet='dragon7', threshold=4.0)
        """
        return changed_fields(self, skip=("source",))

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(
                f"a count system's name must be an identifier (it names the rc_/tc_ columns), got {self.name!r}"
            )
        object.__setattr__(self, "tags", tags_by_rank(self.tags, self.name))
        where = f"count system {self.name!r}"
        object.__setattr__(self, "initial_count", integer(self.initial_count, f"{where}: initial_count"))
        for field_name, allowed in (
            ("divisor", _DIVISORS),
            ("per", tuple(_PER)),
            ("rounding", _ROUNDING),
            ("trigger", _TRIGGERS),
            ("deck_estimate", _DECK_ESTIMATES),
            ("threshold_by", _THRESHOLD_BY),
        ):
            one_of(getattr(self, field_name), allowed, f"{where}: {field_name}")
        if not isinstance(self.count_burn_card, (bool, np.bool_)):
            raise TypeError(f"{where}: count_burn_card must be True or False, got {self.count_burn_card!r}")
        if self.bet is not None:
            get_bet(self.bet)  # a clear error listing the known bets
        if self.threshold is not None:
            if isinstance(self.threshold, bool) or not isinstance(
                self.threshold, (int, float, np.integer, np.floating)
            ):
                raise TypeError(f"{where}: threshold must be a number or None, got {self.threshold!r}")
            if not np.isfinite(self.threshold):
                raise ValueError(f"{where}: threshold must be finite, got {self.threshold!r}")
            object.__setattr__(self, "threshold", float(self.threshold))
        object.__setattr__(self, "thresholds", _threshold_steps(self.thresholds, where))

    # ------------------------------------------------------------------ derived
    @property
    def tags_by_value(self) -> tuple[int, ...]:
        """The tags by value 0..9 (the zero-valued ranks must share one tag)."""
        zero = {self.tags[i] for i in range(9, 13)}
        if len(zero) != 1:
            raise ValueError(f"count system {self.name!r} tags T, J, Q, K differently: no single tag by value")
        return (self.tags[9], *self.tags[:9])

    @property
    def balanced(self) -> bool:
        """Whether the tags of a full deck sum to zero (the running count ends where it started)."""
        return sum(self.tags) == 0

    def full_shoe_total(self, decks: int) -> int:
        """Sum of the tags over a full shoe of ``decks`` decks."""
        return 4 * decks * sum(self.tags)

    @property
    def tag_array(self) -> np.ndarray:
        """The 13 tags by rank as an ``int64`` array."""
        return np.array(self.tags, dtype=np.int64)

    @property
    def unit_cards(self) -> int:
        """Cards in the unit the true count is per: 52 (``per="deck"``) or 26 (``"half_deck"``)."""
        return _PER[self.per]

    def with_(self, **changes: Any) -> CountSystem:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def threshold_at(self, coup: np.ndarray, cards_dealt: np.ndarray) -> np.ndarray:
        """The trigger before each coup: the step of :attr:`thresholds` reached, else :attr:`threshold` (inf: none).

        >>> s = CountSystem("sheet", {"8": 1}, trigger="running", threshold=5, thresholds=((20, 3), (40, 1)))
        >>> s.threshold_at(np.array([1, 19, 20, 39, 40, 70]), np.zeros(6)).tolist()
        [5.0, 5.0, 3.0, 3.0, 1.0, 1.0]
        """
        position = np.asarray(coup if self.threshold_by == "coup" else cards_dealt, dtype=np.int64)
        base = np.inf if self.threshold is None else self.threshold
        if not self.thresholds:
            return np.full(position.shape, base)
        starts = np.array([a for a, _ in self.thresholds], dtype=np.int64)
        values = np.array([t for _, t in self.thresholds], dtype=np.float64)
        i = np.searchsorted(starts, position, side="right") - 1
        return np.where(i >= 0, values[np.clip(i, 0, None)], base)

    def signal(self, running: np.ndarray, true: np.ndarray, threshold: float | None = None) -> np.ndarray:
        """Boolean array: the trigger count is at least ``threshold`` (default: the system's own)."""
        t = self.threshold if threshold is None else threshold
        if t is None:
            raise ValueError(f"count system {self.name!r} has no threshold; give one")
        return (true if self.trigger == "true" else running) >= t

    def describe(self) -> dict[str, object]:
        """The convention as plain data (for JSON output and reports)."""
        cards = "cards left in the shoe" if self.divisor == "decks_left" else "unseen cards (left + burned face down)"
        return {
            "name": self.name,
            "tags": dict(zip(RANKS, self.tags, strict=True)),
            "balanced": self.balanced,
            "initial_count": self.initial_count,
            "true_count": f"running count / ({cards} / {self.unit_cards})",
            "deck_estimate": self.deck_estimate,
            "rounding": self.rounding,
            "count_burn_card": self.count_burn_card,
            "bet": self.bet,
            "trigger": self.trigger,
            "threshold": self.threshold,
            "thresholds": [list(step) for step in self.thresholds],
            "threshold_by": self.threshold_by,
            "source": self.source,
        }


def _threshold_steps(steps: object, where: str) -> tuple[tuple[int, float], ...]:
    """A threshold table as sorted ``(from, threshold)`` pairs: ``from`` a whole number >= 0, once each."""
    if isinstance(steps, Mapping):
        steps = tuple(steps.items())
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
        raise TypeError(f"{where}: thresholds must be (from, threshold) pairs, got {steps!r}")
    out = []
    for item in steps:
        if isinstance(item, (str, bytes)) or not isinstance(item, Sequence) or len(item) != 2:
            raise TypeError(f"{where}: a thresholds step is a (from, threshold) pair, got {item!r}")
        start = integer(int(item[0]) if isinstance(item[0], str) and item[0].isdigit() else item[0], f"{where}: from")
        value = item[1]
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"{where}: the threshold from {start} must be a number, got {value!r}")
        if start < 0 or not np.isfinite(value):
            raise ValueError(f"{where}: a thresholds step needs from >= 0 and a finite threshold, got {item!r}")
        out.append((start, float(value)))
    if len(out) > MAX_THRESHOLD_STEPS:
        raise ValueError(f"{where}: at most {MAX_THRESHOLD_STEPS} thresholds steps, got {len(out):,}")
    out.sort()
    if len({a for a, _ in out}) != len(out):
        raise ValueError(f"{where}: thresholds name a step twice: {out}")
    return tuple(out)


# --------------------------------------------------------------------- library
def _a_to_t(tags: Sequence[int]) -> tuple[int, ...]:
    """The 13 tags by rank from tags as published, in the order A, 2, ..., 9, T (T: all zero-valued ranks)."""
    return (*tags[:9], *(tags[9],) * 4)


_JACOBSON_DP = (
    'Eliot Jacobson, "Co-card counting the Dragon and Panda side bets" (8 decks, cut card 14 from the end, '
    "standard burn; 100 million simulated shoes)"
)


def _published() -> dict[str, CountSystem]:
    return {
        s.name: s
        for s in (
            CountSystem(
                "dragon7",
                _a_to_t((0, 0, 0, -1, -1, -1, -1, 2, 2, 0)),
                bet="dragon7",
                threshold=4,
                source=_JACOBSON_DP + ": bet at true count >= +4, 0.597 units won per shoe",
            ),
            CountSystem(
                "panda8",
                _a_to_t((1, 1, -2, -2, -2, -1, -1, -2, 4, 1)),
                bet="panda8",
                threshold=11,
                source=_JACOBSON_DP
                + ", count credited to Wizard of Odds: 0.237 units per shoe. The threshold is not published with it;"
                " +11 is taken: computed, it gives 0.2344 dividing by the decks left (0.2354 at +12, the best) and"
                " 0.2374 dividing by the unseen cards (see tests/counting/test_published_counts.py)",
            ),
            CountSystem(
                "thorp_natural9",
                _a_to_t((1, 1, 1, 1, 1, 1, 1, 1, -12, 1)),
                bet="natural9",
                source='Thorp; Eliot Jacobson, "Card counting the Natural 9 and Natural 8" (no threshold published)',
            ),
            CountSystem(
                "ten_count",
                _a_to_t((0, 1, 1, 1, 1, 1, 1, 1, 1, -2)),
                bet="tie",
                source='JSTAT ten count for the Tie; Eliot Jacobson, "Baccarat Tie bet flimflam" argues it does not'
                " beat the game (no threshold published)",
            ),
            CountSystem(
                "how_dragon7",
                _a_to_t((1, 0, 0, -1, -1, -1, -1, 2, 2, 0)),
                initial_count=-32,
                count_burn_card=True,
                bet="dragon7",
                trigger="running",
                threshold=0,
                source="Stephen How's unbalanced Dragon 7 count (8 decks): initial running count -32, counts the "
                "exposed burn card, bet at running count >= 0",
            ),
            CountSystem(
                "three_giving_eight",
                _a_to_t((1, 1, -3, 1, 1, 1, 1, -8, 1, 1)),
                bet="three_giving_eight",
                threshold=2,
                divisor="unseen",
                source='Eliot Jacobson, "Baccarat Side Bets" (advancedadvantageplay.com; 8 decks, cut card 14 from '
                "the end, standard burn): bet at true count >= +2, 23.207% of hands at an average edge of 16.926%, "
                "3.928 units won per 100 hands. The true count divides by the unseen cards, as in his other side-bet "
                "counts; no reading tried reproduces the figures (see data/reference/count_systems.csv)",
            ),
            CountSystem(
                "big_tiger",
                _a_to_t((0, 0, -1, -1, -1, -2, 1, 2, 2, 0)),
                bet="big_tiger",
                threshold=8,
                divisor="unseen",
                source='Eliot Jacobson, "Card Counting the Big Tiger Baccarat Side Bet" (advancedadvantageplay.com, '
                "2024; 100 million simulated 8-deck shoes, cut card 14 from the end): bet at true count >= +8, "
                "3.536% of hands at an average edge of 7.227%, 0.256 units won per 100 hands; reproduced with the "
                "true count over the unseen cards (burned cards included), not over the decks left in the shoe",
            ),
        )
    }


class _Library(Mapping[str, CountSystem]):
    """The published systems by name, built on first use (validating their bets builds the bet panel)."""

    @cached_property
    def _systems(self) -> dict[str, CountSystem]:
        return _published()

    def __getitem__(self, name: str) -> CountSystem:
        return self._systems[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._systems)

    def __len__(self) -> int:
        return len(self._systems)

    def __repr__(self) -> str:
        return f"COUNT_SYSTEMS({', '.join(self)})"


#: The published systems by name (a read-only mapping).
COUNT_SYSTEMS: Mapping[str, CountSystem] = _Library()


def count_systems() -> tuple[CountSystem, ...]:
    """The library of published systems.

    Returns
    -------
    tuple of CountSystem
        Every published system of :data:`COUNT_SYSTEMS`.

    Examples
    --------
    >>> "dragon7" in [s.name for s in count_systems()]
    True
    """
    return tuple(COUNT_SYSTEMS.values())


def get_count_system(name: str | CountSystem) -> CountSystem:
    """A published system by name (a :class:`CountSystem` passes through); the error lists the names.

    Parameters
    ----------
    name
        A system's name (see :data:`COUNT_SYSTEMS`), or a :class:`CountSystem`.

    Returns
    -------
    CountSystem
        The system.

    References
    ----------
    E. Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat"; the Wizard of Odds, "Baccarat",
    appendix 8.

    Examples
    --------
    >>> get_count_system("how_dragon7").initial_count
    -32
    """
    if isinstance(name, CountSystem):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a count system is named by a string, got {type(name).__name__} {name!r}")
    try:
        return COUNT_SYSTEMS[name]
    except KeyError:
        raise ValueError(f"unknown count system {name!r}; known systems: {', '.join(COUNT_SYSTEMS)}") from None


def resolve_bet(bet: Bet | str, rules: Rules = Rules()) -> Bet:
    """A bet from a bet or the name of one (standard panel under ``rules``, or side-bet catalogue).

    >>> resolve_bet("dragon7").name
    'dragon7'
    """
    if isinstance(bet, Bet):
        return bet
    if not isinstance(bet, str):
        raise TypeError(f"a bet is a name or a Bet, got {type(bet).__name__} {bet!r}")
    return get_bet(bet, rules)
