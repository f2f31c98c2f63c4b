"""Running and true counts before each coup of dealt shoes, and the pre-coup state that strategies see.

:func:`count_arrays` forms the counts of a :class:`~toolkit.counting.systems.CountSystem`
from plain arrays (the unseen composition before each coup, the exposed burn
card, the cards left), by the conventions of :mod:`toolkit.counting.systems`.
:class:`PreCoup` gathers those arrays from dealt shoes or a coup frame (and
caches counts and exact expected values); :func:`counts` and
:func:`with_counts` read them off dealt shoes or a frame.

>>> import numpy as np
>>> unseen = np.array([[32] * 13, [32, 32, 32, 32, 32, 32, 32, 32, 30, 32, 32, 32, 32]])
>>> rc, tc = count_arrays("dragon7", unseen, decks=8)
>>> rc.tolist(), tc.round(3).tolist()
([0, 4], [0.0, 0.502])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from toolkit.bets.base import Bet
from toolkit.counting.systems import CountSystem, get_count_system
from toolkit.coup.cards import RANK_INDEX, RANKS
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.dealing.dealer import DealtShoes

__all__ = ["PreCoup", "count_arrays", "counts", "estimated_decks", "round_count", "with_counts"]


def round_count(x: np.ndarray, rounding: str) -> np.ndarray:
    """A true count rounded by a count system's rule: ``"none"``, ``"floor"``, ``"truncate"`` or ``"nearest"``.

    >>> round_count(np.array([-1.5, -0.4, 0.5, 2.7]), "nearest").tolist()
    [-2.0, -0.0, 1.0, 3.0]
    """
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
        A :class:`~toolkit.counting.systems.CountSystem` or the name of a published one.
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

    Examples
    --------
    >>> from toolkit.dealing.dealer import deal
    >>> d = deal(2, seed=1, progress=False)
    >>> rc, tc = count_arrays(get_count_system("dragon7"), d.unseen, 8 * np.ones(len(d)))
    >>> rc.shape == tc.shape == (len(d),)
    True
    """
    system = get_count_system(system)
    unseen = np.asarray(unseen)
    if unseen.ndim != 2 or unseen.shape[1] != 13:
        raise ValueError(f"unseen must be an (n, 13) array of counts by rank, got shape {unseen.shape}")
    if not np.issubdtype(unseen.dtype, np.integer):
        unseen = unseen.astype(np.int64)
    n = unseen.shape[0]
    decks_arr = np.broadcast_to(np.asarray(decks, dtype=np.int64), (n,))
    tags = system.tag_array
    # unseen @ tags one rank at a time, in int64: no int64 copy of a narrow (n, 13) table (a search holds millions)
    tagged = np.zeros(n, dtype=np.int64)
    for r in np.flatnonzero(tags):
        tagged += unseen[:, r].astype(np.int64) * int(tags[r])
    rc = system.initial_count + 4 * decks_arr * tags.sum() - tagged
    if not system.count_burn_card and burn_card is not None:
        burn = np.broadcast_to(np.asarray(burn_card, dtype=np.int64), (n,))
        if np.any((burn < -1) | (burn > 12)):
            raise ValueError("burn_card must hold rank indices 0..12 or -1 (none)")
        rc = rc - np.where(burn >= 0, tags[np.clip(burn, 0, 12)], 0)
    unseen_cards = unseen.sum(axis=1, dtype=np.int64)
    if system.divisor == "unseen" or left is None:
        cards = unseen_cards
    else:
        cards = np.broadcast_to(np.asarray(left, dtype=np.int64), (n,))
    if n and cards.min() <= 0:
        raise ValueError(f"count system {system.name!r}: a true count needs cards left; row {int(np.argmin(cards))}")
    tc = round_count(rc / (estimated_decks(cards, system.deck_estimate) * 52 / system.unit_cards), system.rounding)
    return rc, tc


def estimated_decks(cards: np.ndarray, estimate: str = "exact") -> np.ndarray:
    """Decks of ``cards`` as a counter reckons them: ``"exact"``, ``"half_deck"`` or ``"whole_deck"`` (halves up).

    An estimate is never below its step (half a deck, one deck), so a true count always has a divisor.

    >>> estimated_decks(np.array([13, 39, 100, 416]), "half_deck").tolist()
    [0.5, 1.0, 2.0, 8.0]
    >>> estimated_decks(np.array([13, 78, 100]), "whole_deck").tolist()
    [1.0, 2.0, 2.0]
    """
    decks = np.asarray(cards, dtype=np.float64) / 52
    if estimate == "half_deck":
        return np.maximum(np.floor(2 * decks + 0.5) / 2, 0.5)
    if estimate == "whole_deck":
        return np.maximum(np.floor(decks + 0.5), 1.0)
    return decks


def _burn_indices(column: pl.Series) -> np.ndarray:
    values = column.to_list()
    bad = sorted({v for v in values if v is not None and v not in RANK_INDEX})
    if bad:
        raise ValueError(f"burn_card column holds {bad}; expected ranks {', '.join(RANKS)} or null")
    return np.array([-1 if v is None else RANK_INDEX[v] for v in values], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class PreCoup:
    """What is known before each coup: the only input plays receive.

    Attributes
    ----------
    unseen
        ``(n, 13)`` composition of the unseen cards before each coup.
    left
        Cards physically left in the shoe before each coup.
    decks
        Decks in the full shoe, per coup.
    burn_card
        Rank index of the exposed burn card (-1 none), per coup.
    shoe, coup
        Which coup each row is.
    """

    shoe: np.ndarray
    coup: np.ndarray
    unseen: np.ndarray
    left: np.ndarray
    decks: np.ndarray
    burn_card: np.ndarray
    tableau: Tableau = PUNTO_BANCO
    _cache: dict = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.shoe)

    def __repr__(self) -> str:
        """The number of coups and shoes (the arrays are the attributes)."""
        shoes = len(np.unique(self.shoe)) if len(self.shoe) else 0
        return f"PreCoup({len(self):,} coups of {shoes:,} shoe(s), {self.tableau!r})"

    @classmethod
    def of(cls, source: DealtShoes | pl.DataFrame, decks: int | None = None, tableau: Tableau = PUNTO_BANCO) -> PreCoup:
        """The state before every coup of dealt shoes or of a coup frame (:meth:`from_dealt`, :meth:`from_frame`)."""
        if isinstance(source, DealtShoes):
            return cls.from_dealt(source, tableau, decks)
        if isinstance(source, pl.DataFrame):
            return cls.from_frame(source, decks, tableau)
        raise TypeError(f"expected DealtShoes or a polars coup frame, got {type(source).__name__}")

    @classmethod
    def from_dealt(cls, dealt: DealtShoes, tableau: Tableau = PUNTO_BANCO, decks: int | None = None) -> PreCoup:
        """The state before every coup of dealt shoes (``decks``: the deck count, inferred by default)."""
        n = len(dealt.shoe)
        return cls(
            shoe=dealt.shoe,
            coup=dealt.coup,
            unseen=dealt.unseen,
            left=dealt.left,
            decks=(dealt.seen + dealt.unseen_count) // 52
            if decks is None
            else np.broadcast_to(np.asarray(decks), (n,)),
            burn_card=dealt.burn_card[dealt.shoe - dealt.first_shoe].astype(np.int64),
            tableau=tableau,
        )

    @classmethod
    def from_frame(cls, frame: pl.DataFrame, decks: int | None = None, tableau: Tableau = PUNTO_BANCO) -> PreCoup:
        """The state before every coup of a coup frame with ``unseen_A`` ... ``unseen_K`` columns.

        ``cards_left`` and ``burn_card`` are used when present (default: the
        unseen cards, no exposed burn card); the number of decks is inferred
        from ``cards_seen + cards_unseen`` unless ``decks`` is given.
        """
        if not isinstance(frame, pl.DataFrame):
            raise TypeError(f"expected DealtShoes or a polars coup frame, got {type(frame).__name__}")
        names = [f"unseen_{r}" for r in RANKS]
        missing = [c for c in names if c not in frame.columns]
        if missing:
            raise ValueError(
                f"the coup frame lacks {', '.join(missing)}: counts need the unseen composition "
                "(DealtShoes.frame(compositions=True))"
            )
        unseen = frame.select(names).to_numpy().astype(np.int64)
        if decks is None:
            if "cards_seen" not in frame.columns or "cards_unseen" not in frame.columns:
                raise ValueError("give decks=, or a frame with cards_seen and cards_unseen columns to infer it")
            decks_arr = (frame["cards_seen"].to_numpy() + frame["cards_unseen"].to_numpy()) // 52
        else:
            decks_arr = np.asarray(decks)
        n = frame.height
        columns = frame.columns
        return cls(
            shoe=frame["shoe"].to_numpy() if "shoe" in columns else np.zeros(n, np.int64),
            coup=frame["coup"].to_numpy() if "coup" in columns else np.arange(1, n + 1),
            unseen=unseen,
            left=frame["cards_left"].to_numpy() if "cards_left" in columns else unseen.sum(axis=1),
            decks=np.broadcast_to(decks_arr, (n,)),
            burn_card=_burn_indices(frame["burn_card"]) if "burn_card" in columns else np.full(n, -1),
            tableau=tableau,
        )

    def counts(self, system: CountSystem | str) -> tuple[np.ndarray, np.ndarray]:
        """Running and true count of ``system`` before each coup (cached)."""
        system = get_count_system(system)
        key = ("count", system)
        if key not in self._cache:
            self._cache[key] = count_arrays(system, self.unseen, self.decks, self.burn_card, self.left)
        return self._cache[key]

    def expected_values(self, bet: Bet) -> np.ndarray:
        """Exact expected value of ``bet`` before every coup (cached)."""
        key = ("ev", bet)
        if key not in self._cache:
            self._cache[key] = self._values(self.unseen, bet)
        return self._cache[key]

    def _values(self, unseen: np.ndarray, bet: Bet) -> np.ndarray:
        from toolkit.bets.pricing import expected_values

        decks = int(np.max(self.decks)) if len(self.decks) else None
        return expected_values(unseen, [bet], self.tableau, decks=decks)[:, 0]

    def expected_values_at(self, bet: Bet, rows: np.ndarray) -> np.ndarray:
        """Exact expected value of ``bet`` before the coups ``rows`` (reuses the cache when filled)."""
        key = ("ev", bet)
        if key in self._cache:
            return self._cache[key][rows]
        if len(rows) == 0:
            return np.zeros(0)
        return self._values(self.unseen[rows], bet)


def counts(
    system: CountSystem | str, source: DealtShoes | pl.DataFrame, decks: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Running and true count before every coup of dealt shoes or of a coup frame.

    A frame needs ``unseen_A`` ... ``unseen_K``; ``cards_left`` and
    ``burn_card`` are used when present, and the number of decks is inferred
    from ``cards_seen + cards_unseen`` unless ``decks`` is given.

    Parameters
    ----------
    system
        A :class:`~toolkit.counting.systems.CountSystem` or a published system's name.
    source
        :class:`~toolkit.dealing.dealer.DealtShoes` or a coup frame.
    decks
        Decks of a full shoe (default: inferred).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The running and true counts, one per coup.

    Examples
    --------
    >>> from toolkit.dealing.dealer import deal
    >>> dealt = deal(2, seed=1, progress=False)
    >>> rc, tc = counts("dragon7", dealt)
    >>> rc.shape == (len(dealt),)
    True
    """
    return PreCoup.of(source, decks).counts(system)


def with_counts(
    source: DealtShoes | pl.DataFrame, systems: Iterable[CountSystem | str], decks: int | None = None
) -> pl.DataFrame:
    """The coup frame with ``rc_<name>`` and ``tc_<name>`` (counts before the coup) for every system.

    Parameters
    ----------
    source
        :class:`~toolkit.dealing.dealer.DealtShoes` or a coup frame.
    systems
        Count systems or their names.
    decks
        Decks of a full shoe (default: inferred).

    Returns
    -------
    polars.DataFrame
        The coup frame (:meth:`~toolkit.dealing.dealer.DealtShoes.frame` for dealt shoes) with the count columns.

    Examples
    --------
    >>> from toolkit.dealing.dealer import deal
    >>> frame = with_counts(deal(2, seed=1, progress=False), ["dragon7", "panda8"])
    >>> [c for c in frame.columns if c[:3] in ("rc_", "tc_")]
    ['rc_dragon7', 'tc_dragon7', 'rc_panda8', 'tc_panda8']
    """
    info = PreCoup.of(source, decks)
    frame = source.frame() if isinstance(source, DealtShoes) else source
    columns = []
    for item in systems:
        system = get_count_system(item)
        rc, tc = info.counts(system)
        columns += [pl.Series(f"rc_{system.name}", rc), pl.Series(f"tc_{system.name}", tc)]
    return frame.with_columns(columns)
