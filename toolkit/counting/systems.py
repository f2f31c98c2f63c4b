"""Card counts: published systems, running and true counts before each coup, counts built from EOR tables.

A count system (:class:`CountSystem`) is a frozen value: a tag for each rank,
an initial running count, how the true count is formed and when it says bet.

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
(``cards / 26``) instead.  Then ``rounding`` applies: ``"none"``, ``"floor"``,
``"truncate"`` (towards zero) or ``"nearest"`` (halves away from zero).

Jacobson's published Dragon 7 result (0.597 units per shoe) is reproduced with
``divisor="decks_left"``, no rounding, and the exposed burn card counted (the
defaults: 0.600 +- 0.002 on 400,000 shoes; the unseen-card divisor gives 0.597
as well, while leaving the exposed burn card out gives 0.585-0.588); see
``tests/test_betting.py`` for the figures and the alternatives.

The library (:func:`get_count_system`) holds ``dragon7``, ``panda8``,
``thorp_natural9``, ``ten_count`` and ``how_dragon7``, each with its source.

>>> d7 = get_count_system("dragon7")
>>> d7.balanced, d7.tags_by_value
(True, (0, 0, 0, 0, -1, -1, -1, -1, 2, 2))
>>> import numpy as np
>>> unseen = np.array([[32] * 13, [32, 32, 32, 32, 32, 32, 32, 32, 30, 32, 32, 32, 32]])
>>> rc, tc = count_arrays(d7, unseen, decks=8)
>>> rc.tolist(), tc.round(3).tolist()
([0, 4], [0.0, 0.502])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from toolkit.bets import Bet, get_bet
from toolkit.cards import RANK_INDEX, RANK_VALUES, RANKS, CompositionLike, parse_card
from toolkit.rules import Rules

if TYPE_CHECKING:
    from toolkit.dealing import DealtShoes

__all__ = [
    "COUNT_SYSTEMS",
    "CountSystem",
    "betting_correlation",
    "count_arrays",
    "count_quality",
    "count_systems",
    "counts",
    "eor_count",
    "get_count_system",
    "with_counts",
]

_DIVISORS = ("decks_left", "unseen")
_PER = {"deck": 52, "half_deck": 26}
_ROUNDING = ("none", "floor", "truncate", "nearest")
_TRIGGERS = ("true", "running")

TagsLike = Sequence[int] | Mapping[object, int]


def _normalise_tags(tags: TagsLike, name: str) -> tuple[int, ...]:
    """13 integer tags by rank from 13 by rank, 10 by value (0..9) or a mapping of ranks or values."""
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
    for i, tag in enumerate(items):
        if isinstance(tag, bool) or not isinstance(tag, (int, np.integer)):
            raise TypeError(f"{where}: tag {i + 1} must be an integer, got {tag!r}")
    if len(items) == 10:  # by value 0..9, like Composition.by_value
        return tuple(int(items[v]) for v in RANK_VALUES)
    if len(items) == 13:
        return tuple(int(t) for t in items)
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
        (as :attr:`toolkit.cards.Composition.by_value`: the first is the tag of
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
        Name of the bet the count is for (see :func:`toolkit.bets.get_bet`), or ``None``.
    trigger
        Which count the threshold reads: ``"true"`` or ``"running"``.
    threshold
        Bet when that count is at least this value (``None``: no published trigger).
    source
        Where the system was published.

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

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(
                f"a count system's name must be an identifier (it names the rc_/tc_ columns), got {self.name!r}"
            )
        object.__setattr__(self, "tags", _normalise_tags(self.tags, self.name))
        where = f"count system {self.name!r}"
        if isinstance(self.initial_count, bool) or not isinstance(self.initial_count, (int, np.integer)):
            raise TypeError(f"{where}: initial_count must be an integer, got {self.initial_count!r}")
        object.__setattr__(self, "initial_count", int(self.initial_count))
        for field_name, allowed in (
            ("divisor", _DIVISORS),
            ("per", tuple(_PER)),
            ("rounding", _ROUNDING),
            ("trigger", _TRIGGERS),
        ):
            value = getattr(self, field_name)
            if value not in allowed:
                raise ValueError(f"{where}: {field_name} must be one of {', '.join(allowed)}; got {value!r}")
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
        return np.array(self.tags, dtype=np.int64)

    def with_(self, **changes: object) -> CountSystem:
        """A copy with some fields changed (validated again)."""
        from dataclasses import replace

        return replace(self, **changes)

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
            "true_count": f"running count / ({cards} / {_PER[self.per]})",
            "rounding": self.rounding,
            "count_burn_card": self.count_burn_card,
            "bet": self.bet,
            "trigger": self.trigger,
            "threshold": self.threshold,
            "source": self.source,
        }


# --------------------------------------------------------------------- library
def _a_to_t(tags: Sequence[int]) -> dict[str, int]:
    """Tags as published, in the order A, 2, ..., 9, T (T standing for all zero-valued ranks)."""
    out = dict(zip(RANKS[:9], tags[:9], strict=True))
    out.update(dict.fromkeys(RANKS[9:], tags[9]))
    return out


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
                " +11 reproduces the figure (the maximum is flat over +11 and +12; see tests/test_betting.py)",
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
    """The library of published systems."""
    return tuple(COUNT_SYSTEMS.values())


def get_count_system(name: str | CountSystem) -> CountSystem:
    """A published system by name (a :class:`CountSystem` passes through); the error lists the names.

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


# ------------------------------------------------------------------- counting
def _round(x: np.ndarray, rounding: str) -> np.ndarray:
    if rounding == "floor":
        return np.floor(x)
    if rounding == "truncate":
        return np.trunc(x)
    if rounding == "nearest":
        return np.sign(x) * np.floor(np.abs(x) + 0.5)
    return x


def count_arrays(
    system: CountSystem | str,
    unseen: np.ndarray,
    decks: int | np.ndarray,
    burn_card: int | np.ndarray | None = None,
    left: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Running and true count before each coup, from plain arrays.

    Parameters
    ----------
    system
        A :class:`CountSystem` or the name of a published one.
    unseen
        ``(n, 13)`` counts by rank of the cards not seen before each coup (the
        exposed burn card is seen; cards burned face down are unseen).
    decks
        Decks in the full shoe (a number or one per row).
    burn_card
        Rank index (0..12) of the exposed burn card, one per row or one for all;
        ``-1`` or ``None``: none exposed.
    left
        Cards physically left in the shoe before each coup; default: the unseen
        cards (no face-down burn known).  Used by ``divisor="decks_left"``.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Running counts (int64) and true counts (float64), one per row.
    """
    system = get_count_system(system)
    unseen = np.asarray(unseen)
    if unseen.ndim != 2 or unseen.shape[1] != 13:
        raise ValueError(f"unseen must be an (n, 13) array of counts by rank, got shape {unseen.shape}")
    unseen = unseen.astype(np.int64, copy=False)
    n = unseen.shape[0]
    decks_arr = np.broadcast_to(np.asarray(decks, dtype=np.int64), (n,))
    tags = system.tag_array
    rc = system.initial_count + 4 * decks_arr * tags.sum() - unseen @ tags
    if not system.count_burn_card and burn_card is not None:
        burn = np.broadcast_to(np.asarray(burn_card, dtype=np.int64), (n,))
        if np.any((burn < -1) | (burn > 12)):
            raise ValueError("burn_card must hold rank indices 0..12 or -1 (none)")
        rc = rc - np.where(burn >= 0, tags[np.clip(burn, 0, 12)], 0)
    unseen_cards = unseen.sum(axis=1)
    if system.divisor == "unseen" or left is None:
        cards = unseen_cards
    else:
        cards = np.broadcast_to(np.asarray(left, dtype=np.int64), (n,))
    if n and cards.min() <= 0:
        raise ValueError(f"count system {system.name!r}: a true count needs cards left; row {int(np.argmin(cards))}")
    tc = _round(rc / (cards / _PER[system.per]), system.rounding)
    return rc, tc


def _burn_indices(column: pl.Series) -> np.ndarray:
    values = column.to_list()
    bad = sorted({v for v in values if v is not None and v not in RANK_INDEX})
    if bad:
        raise ValueError(f"burn_card column holds {bad}; expected ranks {', '.join(RANKS)} or null")
    return np.array([-1 if v is None else RANK_INDEX[v] for v in values], dtype=np.int64)


def _arrays_from(source: DealtShoes | pl.DataFrame, decks: int | None) -> dict[str, np.ndarray]:
    """unseen, decks, burn_card and left arrays from dealt shoes or a coup frame."""
    from toolkit.dealing import DealtShoes

    if isinstance(source, DealtShoes):
        return {
            "unseen": source.unseen,
            "decks": (source.seen + source.unseen_count) // 52 if decks is None else np.asarray(decks),
            "burn_card": source.burn_card[source.shoe - source.first_shoe].astype(np.int64),
            "left": source.left,
        }
    if not isinstance(source, pl.DataFrame):
        raise TypeError(f"expected DealtShoes or a polars coup frame, got {type(source).__name__}")
    names = [f"unseen_{r}" for r in RANKS]
    missing = [c for c in names if c not in source.columns]
    if missing:
        raise ValueError(
            f"the coup frame lacks {', '.join(missing)}: counts need the unseen composition "
            "(DealtShoes.frame(compositions=True))"
        )
    unseen = source.select(names).to_numpy().astype(np.int64)
    if decks is None:
        if "cards_seen" not in source.columns or "cards_unseen" not in source.columns:
            raise ValueError("give decks=, or a frame with cards_seen and cards_unseen columns to infer it")
        decks_arr = (source["cards_seen"].to_numpy() + source["cards_unseen"].to_numpy()) // 52
    else:
        decks_arr = np.asarray(decks)
    return {
        "unseen": unseen,
        "decks": decks_arr,
        "burn_card": _burn_indices(source["burn_card"]) if "burn_card" in source.columns else None,
        "left": source["cards_left"].to_numpy() if "cards_left" in source.columns else None,
    }


def counts(
    system: CountSystem | str, source: DealtShoes | pl.DataFrame, decks: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Running and true count before every coup of dealt shoes or of a coup frame.

    A frame needs ``unseen_A`` ... ``unseen_K``; ``cards_left`` and
    ``burn_card`` are used when present, and the number of decks is inferred
    from ``cards_seen + cards_unseen`` unless ``decks`` is given.

    >>> from toolkit.dealing import deal
    >>> dealt = deal(2, seed=1, progress=False)
    >>> rc, tc = counts("dragon7", dealt)
    >>> rc.shape == (len(dealt),)
    True
    """
    return count_arrays(system, **_arrays_from(source, decks))


def with_counts(
    source: DealtShoes | pl.DataFrame, systems: Iterable[CountSystem | str], decks: int | None = None
) -> pl.DataFrame:
    """The coup frame with ``rc_<name>`` and ``tc_<name>`` (counts before the coup) for every system.

    >>> from toolkit.dealing import deal
    >>> frame = with_counts(deal(2, seed=1, progress=False), ["dragon7", "panda8"])
    >>> [c for c in frame.columns if c[:3] in ("rc_", "tc_")]
    ['rc_dragon7', 'tc_dragon7', 'rc_panda8', 'tc_panda8']
    """
    from toolkit.dealing import DealtShoes

    arrays = _arrays_from(source, decks)
    frame = source.frame() if isinstance(source, DealtShoes) else source
    columns = []
    for item in systems:
        system = get_count_system(item)
        rc, tc = count_arrays(system, **arrays)
        columns += [pl.Series(f"rc_{system.name}", rc), pl.Series(f"tc_{system.name}", tc)]
    return frame.with_columns(columns)


# --------------------------------------------------------------- EOR and counts
def _bet(bet: Bet | str, rules: Rules) -> Bet:
    return bet if isinstance(bet, Bet) else get_bet(bet, rules)


def _eor_by_rank(bet: Bet, shoe: CompositionLike, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    from toolkit.eor import effect_of_removal

    table = effect_of_removal(shoe, bets=[bet], rules=rules, by="rank")
    return table["count"].to_numpy().astype(np.float64), table["eor"].fill_null(0.0).to_numpy()


def eor_count(
    bet: Bet | str,
    levels: int = 2,
    shoe: CompositionLike = 8,
    rules: Rules = Rules(),
    name: str | None = None,
    **fields: object,
) -> CountSystem:
    """A count whose tags are a bet's effects of removal, scaled and rounded to ``-levels..+levels``.

    The card whose removal moves the bet most gets ``±levels``; tags are
    proportional to the EOR (removing a card that helps the bet scores +).
    Other :class:`CountSystem` fields (``threshold``, ``divisor``...) pass through.

    >>> eor_count("dragon7", levels=2).tags_by_value
    (0, 0, 0, 0, -1, -1, -1, -1, 2, 2)
    """
    if isinstance(levels, bool) or not isinstance(levels, (int, np.integer)) or levels < 1:
        raise ValueError(f"levels must be a positive integer, got {levels!r}")
    b = _bet(bet, rules)
    _, eor = _eor_by_rank(b, shoe, rules)
    top = np.abs(eor).max()
    if top == 0:
        raise ValueError(f"bet {b.name!r}: every effect of removal is zero; no count can follow it")
    tags = np.sign(eor) * np.floor(np.abs(eor) / top * levels + 0.5)
    return CountSystem(
        name or f"eor_{b.name}_{levels}",
        tuple(int(t) for t in tags),
        bet=fields.pop("bet", b.name),
        source=f"effects of removal of {b.name} scaled to +-{levels}",
        **fields,
    )


def betting_correlation(
    tags: CountSystem | str | TagsLike, bet: Bet | str, shoe: CompositionLike = 8, rules: Rules = Rules()
) -> float:
    """Betting correlation: Pearson correlation of the tags with the bet's EOR, weighted by the cards in the shoe.

    1 means the count tracks the bet's expectation as well as a linear count can.

    >>> round(betting_correlation("dragon7", "dragon7"), 3)
    0.964
    """
    if isinstance(tags, (CountSystem, str)):
        t = get_count_system(tags).tag_array.astype(np.float64)
    else:
        t = np.array(_normalise_tags(tags, "tags"), dtype=np.float64)
    weights, eor = _eor_by_rank(_bet(bet, rules), shoe, rules)
    cov = np.cov(np.vstack([t, eor]), aweights=weights)
    if cov[0, 0] == 0 or cov[1, 1] == 0:
        raise ValueError("betting correlation undefined: the tags or the effects of removal are constant")
    return float(cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1]))


def count_quality(
    source: DealtShoes | pl.DataFrame,
    systems: Iterable[CountSystem | str],
    bet: Bet | str | None = None,
    rules: Rules = Rules(),
    bucket_cards: int = 52,
    decks: int | None = None,
) -> pl.DataFrame:
    """How much of the exact edge a linear count explains, by depth of the shoe.

    For every coup, the exact expected value of ``bet`` (default: each
    system's own) before the coup, from the unseen composition, is regressed on
    the count the system bets by (true count, or running count for a
    ``trigger="running"`` system) with
    :class:`sklearn.linear_model.LinearRegression`, within buckets of
    ``bucket_cards`` cards left in the shoe and over all coups (``depth="all"``).

    Returns
    -------
    polars.DataFrame
        ``system, bet, count, depth, cards_left_from, cards_left_to, coups, r2, slope, intercept``;
        ``r2`` is the share of the variance of the exact EV that a linear function of the count explains.
    """
    from sklearn.linear_model import LinearRegression

    from toolkit.engine import expected_values

    arrays = _arrays_from(source, decks)
    left = arrays["left"] if arrays["left"] is not None else arrays["unseen"].sum(axis=1)
    rows = []
    evs: dict[Bet, np.ndarray] = {}
    for item in systems:
        system = get_count_system(item)
        b = _bet(bet if bet is not None else system.bet or "banker", rules)
        if b not in evs:
            evs[b] = expected_values(arrays["unseen"], [b], rules.tableau)[:, 0]
        ev = evs[b]
        rc, tc = count_arrays(system, **arrays)
        x_all = tc if system.trigger == "true" else rc.astype(np.float64)
        edges = np.arange(0, int(left.max()) + bucket_cards, bucket_cards)
        groups = [("all", np.ones(len(ev), bool), 0, int(left.max()))]
        groups += [
            (f"{lo}-{lo + bucket_cards}", (left >= lo) & (left < lo + bucket_cards), int(lo), int(lo + bucket_cards))
            for lo in edges
        ]
        for label, mask, lo, hi in groups:
            n = int(mask.sum())
            if n < 3 or np.ptp(x_all[mask]) == 0:
                continue
            x, y = x_all[mask, None], ev[mask]
            model = LinearRegression().fit(x, y)
            rows.append(
                {
                    "system": system.name,
                    "bet": b.name,
                    "count": system.trigger,
                    "depth": label,
                    "cards_left_from": lo,
                    "cards_left_to": hi,
                    "coups": n,
                    "r2": float(model.score(x, y)),
                    "slope": float(model.coef_[0]),
                    "intercept": float(model.intercept_),
                }
            )
    return pl.DataFrame(rows)
