"""Dealing shoes as a casino deals them: shuffle, burn, coups by the tableau, cut card.

The procedure (:class:`Dealing`) is a frozen value:

* **Burn.** ``"standard"``: the first card is turned face up and as many cards
  as its value are burned face down (ten or face card: 10; ace: ``burn_ace``,
  1 or 11).  The exposed card is *seen*; the face-down cards are not.
  ``"fixed"``: ``burn_cards`` cards face down.  ``"none"``.
* **Coups.** Cards 1 and 3 to Player, 2 and 4 to Banker; then Player's third
  card if the tableau says so, then Banker's.
* **End of the shoe.** The cut card lies ``cut_card`` cards from the end.
  ``last_hand="one_more"``: when it comes out during a coup, finish the coup
  and play one more; when it comes out as the first card of a coup, that coup
  is the last (Wizard of Odds rules).  ``"finish"``: the coup during which it
  comes out is the last.  ``"seven_cards"``: ignore the cut card and never start
  a coup with fewer than seven cards left (chemin de fer).  With ``coups=n``,
  exactly ``n`` coups are dealt (when the cards allow).

These rules are written once, in :mod:`toolkit.coup.step`; the kernel here and the
rebuilding of recorded shoes (:mod:`toolkit.records`) both call them.
Dealing runs in a numba kernel over blocks of shuffled shoes
(:func:`deal_block`), so many shoes are fast; :func:`deal` adds blocks with
their own random streams, worker processes or Dask, and a progress bar.

>>> shoes = deal(3, seed=1, progress=False)
>>> shoes.frame().columns[:6]
['shoe', 'coup', 'player_hand', 'banker_hand', 'player_total', 'banker_total']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple

import numba
import numpy as np
import polars as pl

from toolkit._check import integer, non_negative_int, one_of, positive_int
from toolkit._show import changed_fields, html_table, text_table
from toolkit.coup.cards import RANK_VALUES, RANKS
from toolkit.coup.options import BURN_STANDARD, Burn, LastHand, code
from toolkit.coup.outcome import class_index
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.coup.step import (
    BANKER_1,
    BANKER_2,
    BANKER_3,
    MIN_COUP_CARDS,
    PLAYER_1,
    PLAYER_2,
    PLAYER_3,
    VALUES,
    CoupRows,
    ShoeRows,
    Tables,
    coup_buffers,
    coup_layout,
    cut_card_after,
    face_down_count,
    may_start,
    third_cards,
    write_unseen,
)
from toolkit.parallel import DEFAULT_BLOCK_SIZE, Block, SeedLike, as_generator, block_plan, map_blocks

__all__ = [
    "COUP_FIELDS",
    "MAX_DECKS",
    "SHOE_FIELDS",
    "Dealing",
    "DealtShoes",
    "deal",
    "deal_block",
    "dealt_shoes",
    "shuffled_shoes",
]

#: Hand slots in the ``cards`` array: Player's three cards, then Banker's.
SLOTS = ("player_1", "player_2", "player_3", "banker_1", "banker_2", "banker_3")


#: The most decks a dealt shoe may hold.  Counts of unseen cards are 32-bit, so they cannot wrap below
#: this; the kernel's arrays for a block of shoes grow with the decks (about 1.2 MB a shoe per 1,000
#: decks), which bounds the memory of a block.
MAX_DECKS = 10_000


@dataclass(frozen=True)
class Dealing:
    """How a shoe is dealt (see the module notes).

    ``burn`` and ``last_hand`` take the :class:`~toolkit.coup.options.Burn` and
    :class:`~toolkit.coup.options.LastHand` options or their names.

    Attributes
    ----------
    decks
        Decks in the shoe.
    burn
        ``"standard"`` (the first card turned up and its value burned), ``"fixed"`` (``burn_cards`` face down) or
        ``"none"``.
    burn_ace
        What an ace turned up burns: 1 or 11 cards.
    burn_cards
        Cards burned face down under ``"fixed"``.
    cut_card
        Cards behind the cut card (from the end of the shoe).
    last_hand
        When the last coup is dealt once the cut card is out: ``"one_more"``, ``"finish"``, ``"seven_cards"`` or
        ``"two_more_if_first"`` (:class:`~toolkit.coup.options.LastHand`).
    coups
        Deal exactly this many coups instead (``None``: to the cut card).
    tableau
        The drawing rules.

    Examples
    --------
    >>> Dealing(burn="none").burn is Burn.NONE
    True
    """

    decks: int = 8
    burn: Burn = Burn.STANDARD
    burn_ace: int = 1
    burn_cards: int = 0
    cut_card: int = 14
    last_hand: LastHand = LastHand.ONE_MORE
    coups: int | None = None
    tableau: Tableau = field(default=PUNTO_BANCO)

    def __post_init__(self) -> None:
        decks = positive_int(self.decks, "Dealing.decks")
        if decks > MAX_DECKS:
            raise ValueError(f"Dealing.decks must be at most {MAX_DECKS:,} (the dealing arrays' limit), got {decks:,}")
        cards = 52 * decks
        burn = Burn(one_of(self.burn, Burn, "Dealing.burn"))
        burn_ace = integer(self.burn_ace, "Dealing.burn_ace")
        if burn_ace not in (1, 11):
            raise ValueError(f"Dealing.burn_ace must be 1 or 11, got {self.burn_ace!r}")
        burn_cards = non_negative_int(self.burn_cards, "Dealing.burn_cards")
        if burn_cards > cards - MIN_COUP_CARDS:
            raise ValueError(f"Dealing.burn_cards must leave a coup to deal, got {self.burn_cards!r}")
        last_hand = LastHand(one_of(self.last_hand, LastHand, "Dealing.last_hand"))
        cut_card = integer(self.cut_card, "Dealing.cut_card")
        if not 0 <= cut_card < cards:
            raise ValueError(f"Dealing.cut_card must be 0..{cards - 1} cards from the end, got {cut_card}")
        coups = None if self.coups is None else positive_int(self.coups, "Dealing.coups")
        if coups is not None and coups > cards // 4:
            raise ValueError(
                f"Dealing.coups must be at most {cards // 4} (a coup takes at least four of the {cards} cards), "
                f"got {coups}"
            )
        for name, value in (
            ("decks", decks),
            ("burn", burn),
            ("burn_ace", burn_ace),
            ("burn_cards", burn_cards),
            ("last_hand", last_hand),
            ("cut_card", cut_card),
            ("coups", coups),
        ):
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        """Only the fields that differ from the defaults.

        >>> Dealing(), Dealing(decks=6, burn="none")
        (Dealing(), Dealing(decks=6, burn='none'))
        """
        return changed_fields(self)

    @property
    def cards(self) -> int:
        """Cards in a full shoe (52 a deck)."""
        return 52 * self.decks


def shuffled_shoes(n: int, decks: int = 8, seed: SeedLike = None) -> np.ndarray:
    """``(n, 52 * decks)`` int8 rank indices (see :data:`toolkit.coup.cards.RANKS`), each row a shuffled shoe.

    Parameters
    ----------
    n
        Shoes.
    decks
        Decks in each shoe.
    seed
        Anything :func:`toolkit.parallel.as_generator` takes (a Generator's stream continues).

    Returns
    -------
    numpy.ndarray
        The shoes.

    Examples
    --------
    >>> shuffled_shoes(3, decks=1, seed=2).shape
    (3, 52)
    """
    gen = as_generator(seed)
    base = np.repeat(np.arange(13, dtype=np.int8), 4 * decks)
    shoes = np.tile(base, (n, 1))
    return gen.permuted(shoes, axis=1, out=shoes)


class DealOptions(NamedTuple):
    """A :class:`Dealing`'s rules as the kernel reads them (the options as their :func:`code`)."""

    burn_mode: int
    burn_fixed: int
    burn_ace: int
    cut_card: int
    last_mode: int
    fixed_coups: int


@numba.njit(cache=True)
def _deal_kernel(
    shoes: np.ndarray, tables: Tables, options: DealOptions, coups: CoupRows, per_shoe: ShoeRows
) -> int:  # pragma: no cover - compiled
    """Deal every shoe of ``shoes`` coup by coup (:func:`~toolkit.coup.step.coup_layout`); returns the coups dealt."""
    n_shoes, n_cards = shoes.shape
    out = 0
    c_shoe, c_coup, c_start, c_cards, c_seen, c_left, c_unseen_count, c_unseen = coups  # locals: see write_unseen
    for s in range(n_shoes):
        shoe = shoes[s]
        counts = np.zeros(13, np.int64)
        for i in range(n_cards):
            counts[shoe[i]] += 1
        # ------------------------------------------------------------ burn
        seen = 0
        per_shoe.burn_card[s] = -1
        if options.burn_mode == BURN_STANDARD:
            per_shoe.burn_card[s] = shoe[0]
            counts[shoe[0]] -= 1  # the exposed card is seen
            seen = 1
        face_down = face_down_count(options.burn_mode, shoe[0], options.burn_ace, options.burn_fixed)
        per_shoe.burned[s] = face_down
        pos = seen + face_down
        for r in range(13):
            per_shoe.burned_ranks[s, r] = 0
        for i in range(seen, pos):
            per_shoe.burned_ranks[s, shoe[i]] += 1
        # ------------------------------------------------------------ coups
        cut_pos = n_cards - options.cut_card
        last = False
        coup = 0
        while may_start(n_cards - pos, coup, options.fixed_coups, options.last_mode):
            start = pos
            layout = coup_layout(
                VALUES[shoe[pos]],
                VALUES[shoe[pos + 1]],
                VALUES[shoe[pos + 2]],
                VALUES[shoe[pos + 3]],
                VALUES[shoe[pos + 4]],
                tables,
            )
            player_3, banker_3, taken = third_cards(layout, shoe[pos + 4], shoe[pos + 5])
            c_cards[out, PLAYER_1] = shoe[pos]
            c_cards[out, BANKER_1] = shoe[pos + 1]
            c_cards[out, PLAYER_2] = shoe[pos + 2]
            c_cards[out, BANKER_2] = shoe[pos + 3]
            c_cards[out, PLAYER_3] = player_3
            c_cards[out, BANKER_3] = banker_3
            pos += taken
            c_shoe[out] = s
            c_coup[out] = coup + 1
            c_start[out] = start
            c_seen[out] = seen
            c_left[out] = n_cards - start
            c_unseen_count[out] = n_cards - start + face_down
            write_unseen(c_unseen, out, counts)
            for i in range(start, pos):
                counts[shoe[i]] -= 1
            seen += pos - start
            out += 1
            coup += 1
            stop, last = cut_card_after(start, pos, cut_pos, last, options.last_mode, options.fixed_coups)
            if stop:
                break
    return out


@dataclass(frozen=True)
class DealtShoes:
    """Dealt coups as arrays, one row per coup (``len(self)`` coups).

    Attributes
    ----------
    shoe, coup
        Shoe id and coup number (from 1) of each coup.
    start
        Position in the shoe (from 0) of the coup's first card.
    cards
        ``(coups, 6)`` rank indices in the slots of :data:`SLOTS`; -1 where no card.
    seen, left, unseen_count
        Before the coup: cards seen (exposed burn card and earlier coups), cards
        left in the shoe, and cards not seen (left plus burned face down).
    unseen
        ``(coups, 13)`` composition of the unseen cards before the coup: what a
        perfect counter knows.
    burn_card, burned, burned_ranks
        Per shoe: the exposed burn card (rank index, -1 if none), how many
        cards were burned face down, and their ``(shoes, 13)`` composition.
    """

    shoe: np.ndarray
    coup: np.ndarray
    start: np.ndarray
    cards: np.ndarray
    seen: np.ndarray
    left: np.ndarray
    unseen_count: np.ndarray
    unseen: np.ndarray
    burn_card: np.ndarray
    burned: np.ndarray
    burned_ranks: np.ndarray
    first_shoe: int = 0

    def __len__(self) -> int:
        return len(self.shoe)

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        shoes = max(self.n_shoes, 1)
        title = f"DealtShoes: {self.n_shoes:,} shoe(s), {len(self):,} coups"
        first = f"{self.first_shoe + 1:,} to {self.first_shoe + self.n_shoes:,}" if self.n_shoes else "none"
        cards = int((self.cards >= 0).sum())
        return title, [
            ("shoes", first),
            ("coups per shoe", len(self) / shoes),
            ("cards dealt per shoe", cards / shoes),
            ("burned per shoe", float(self.burned.sum()) / shoes),
            ("arrays", "shoe, coup, start, cards (coups x 6), unseen (coups x 13), ... (see frame())"),
        ]

    def __repr__(self) -> str:
        """The counts in a few lines (the arrays are the attributes; :meth:`frame` shows the coups)."""
        return text_table(*self._shown())

    def _repr_html_(self) -> str:
        return html_table(*self._shown())

    @property
    def n_shoes(self) -> int:
        """Shoes dealt."""
        return len(self.burned)

    def remaining(self) -> np.ndarray:
        """``(coups, 13)`` composition of the cards physically left in the shoe before each coup.

        The unseen cards less the cards burned face down: what a hypothetical
        observer who also saw the burned cards would know.
        """
        return self.unseen - self.burned_ranks[self.shoe - self.first_shoe]

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Final Player and Banker totals of every coup."""
        values = np.array((*RANK_VALUES, 0), dtype=np.int64)  # index -1 maps to the appended 0
        v = values[self.cards]
        return v[:, 0:3].sum(axis=1) % 10, v[:, 3:6].sum(axis=1) % 10

    def outcome_classes(self) -> np.ndarray:
        """Outcome class index (see :mod:`toolkit.coup.outcome`) of every coup.

        A bet's realised payout is ``bet.payoff_array[dealt.outcome_classes()]``.
        """
        pt, bt = self.totals()
        pc = 2 + (self.cards[:, 2] >= 0)
        bc = 2 + (self.cards[:, 5] >= 0)
        pp = self.cards[:, 0] == self.cards[:, 1]
        bp = self.cards[:, 3] == self.cards[:, 4]
        return class_index(pt, bt, pc, bc, pp, bp).astype(np.int64)

    def frame(self, compositions: bool = False) -> pl.DataFrame:
        """The coups as a polars frame (one row per coup).

        Columns: ``shoe, coup, player_hand, banker_hand, player_total,
        banker_total, winner, player_natural, banker_natural, player_pair,
        banker_pair, cards_dealt, cards_seen, cards_left, cards_unseen,
        burn_card, burned``; with ``compositions=True`` also ``unseen_A`` ...
        ``unseen_K``, the unseen composition before the coup.  Shoes are numbered
        from 1 here, as coups are (the arrays' ``shoe`` counts from 0, an index);
        a hand is the list of its cards, ``player_hand``, and ``player_cards``
        is its count everywhere else (bet fields, :func:`~toolkit.exact.distribution_frame`).
        """
        pt, bt = self.totals()
        names = np.array([*RANKS, ""], dtype=object)
        card_names = names[self.cards]
        player_hand = [[c for c in row if c] for row in card_names[:, 0:3]]
        banker_hand = [[c for c in row if c] for row in card_names[:, 3:6]]
        p_two = self.cards[:, 2] < 0
        b_two = self.cards[:, 5] < 0
        natural_p = p_two & b_two & (pt >= 8)
        natural_b = p_two & b_two & (bt >= 8)
        winner = np.where(pt > bt, "player", np.where(bt > pt, "banker", "tie"))
        local = self.shoe - self.first_shoe
        burn_names = np.array([*RANKS, None], dtype=object)[self.burn_card]
        data = {
            "shoe": self.shoe.astype(np.int64) + 1,
            "coup": self.coup.astype(np.int32),
            "player_hand": player_hand,
            "banker_hand": banker_hand,
            "player_total": pt.astype(np.int8),
            "banker_total": bt.astype(np.int8),
            "winner": winner,
            "player_natural": natural_p,
            "banker_natural": natural_b,
            "player_pair": self.cards[:, 0] == self.cards[:, 1],
            "banker_pair": self.cards[:, 3] == self.cards[:, 4],
            "cards_dealt": (self.cards >= 0).sum(axis=1).astype(np.int8),
            "cards_seen": self.seen.astype(np.int32),
            "cards_left": self.left.astype(np.int32),
            "cards_unseen": self.unseen_count.astype(np.int32),
            "burn_card": burn_names[local] if len(self.shoe) else [],
            "burned": self.burned[local].astype(np.int32) if len(self.shoe) else [],
        }
        frame = pl.DataFrame(data, schema_overrides={"burn_card": pl.String, "burned": pl.Int32})
        if compositions:
            # 16-bit columns while every count fits (shoes of up to 8,191 decks), else 32-bit
            fits = self.unseen.size == 0 or int(self.unseen.max()) <= np.iinfo(np.int16).max
            width = np.int16 if fits else np.int32
            frame = frame.with_columns(
                [pl.Series(f"unseen_{r}", self.unseen[:, i].astype(width)) for i, r in enumerate(RANKS)]
            )
        return frame


def deal_block(shoes: np.ndarray, dealing: Dealing = Dealing(), first_shoe: int = 0) -> DealtShoes:
    """Deal already shuffled shoes (``(n, 52 * decks)`` rank indices) by ``dealing``.

    Parameters
    ----------
    shoes
        ``(n, 52 * decks)`` int8 rank indices, one shuffled shoe a row.
    dealing
        How they are dealt.
    first_shoe
        Id of the first shoe.

    Returns
    -------
    DealtShoes
        Every coup of these shoes.

    Examples
    --------
    >>> dealt = deal_block(shuffled_shoes(2, seed=1))
    >>> dealt.n_shoes, int(dealt.shoe.max())
    (2, 1)
    """
    shoes = np.ascontiguousarray(shoes, dtype=np.int8)
    if shoes.ndim != 2 or shoes.shape[1] != dealing.cards:
        raise ValueError(f"expected shoes of shape (n, {dealing.cards}) for {dealing.decks} decks, got {shoes.shape}")
    n, n_cards = shoes.shape
    max_coups = n * (n_cards // 4 + 1)
    tab = dealing.tableau
    coups, per_shoe = coup_buffers(max_coups, n)
    options = DealOptions(
        code(dealing.burn),
        dealing.burn_cards,
        dealing.burn_ace,
        dealing.cut_card,
        code(dealing.last_hand),
        dealing.coups or 0,
    )
    count = _deal_kernel(shoes, Tables.of(tab), options, coups, per_shoe)
    return dealt_shoes(coups, per_shoe, count, first_shoe)


def dealt_shoes(coups: CoupRows, per_shoe: ShoeRows, count: int, first_shoe: int = 0) -> DealtShoes:
    """The first ``count`` coups a dealing kernel wrote, as :class:`DealtShoes`.

    Parameters
    ----------
    coups, per_shoe
        The kernel's per-coup and per-shoe arrays (:func:`toolkit.coup.step.coup_buffers`).
    count
        How many coups it wrote.
    first_shoe
        The id of the first shoe (the kernel numbers them from 0).

    Returns
    -------
    DealtShoes
        The coups, shoe ids shifted by ``first_shoe``.
    """
    dealt = {k: getattr(coups, k)[:count] for k in COUP_FIELDS}
    dealt["shoe"] = dealt["shoe"] + first_shoe
    return DealtShoes(**dealt, **per_shoe._asdict(), first_shoe=first_shoe)


#: The per-coup and the per-shoe arrays of :class:`DealtShoes`, in the order the kernels fill them.
COUP_FIELDS = CoupRows._fields
SHOE_FIELDS = ShoeRows._fields


def _deal_one_block(block: Block, dealing: Dealing) -> DealtShoes:
    return deal_block(shuffled_shoes(block.n_shoes, dealing.decks, block.rng()), dealing, block.first_shoe)


def concat(parts: list[DealtShoes]) -> DealtShoes:
    """Join blocks of dealt shoes (in order) into one."""
    if not parts:
        return deal_block(np.empty((0, 52 * 8), np.int8))
    return DealtShoes(
        **{f: np.concatenate([getattr(p, f) for p in parts]) for f in COUP_FIELDS + SHOE_FIELDS},
        first_shoe=parts[0].first_shoe,
    )


def deal(
    n_shoes: int,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    workers: int | None = None,
    scheduler: str | None = None,
    block_size: int = DEFAULT_BLOCK_SIZE,
    progress: bool = True,
) -> DealtShoes:
    """Shuffle and deal ``n_shoes`` shoes.

    Shoe ``i`` is the same for a given ``seed`` and ``block_size`` whatever
    ``workers`` or ``scheduler`` (see :mod:`toolkit.parallel`).  ``seed`` is
    anything :func:`toolkit.parallel.as_seed_sequence` takes: an integer, a
    SeedSequence, a Generator (its next draw seeds the blocks) or ``None``.

    Parameters
    ----------
    n_shoes
        Shoes to deal.
    dealing
        How they are dealt (decks, burn, cut card, last hand).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    workers
        Local processes (``None``: every core; ``1``: this process).
    scheduler
        A Dask scheduler address; overrides ``workers``.
    block_size
        Shoes per block (the unit of seeding).
    progress
        Show a progress bar.

    Returns
    -------
    DealtShoes
        Every coup of every shoe, as arrays.

    Examples
    --------
    >>> a = deal(5, seed=3, progress=False)
    >>> b = deal(5, seed=3, workers=2, block_size=2, progress=False)
    >>> c = deal(5, seed=3, workers=1, block_size=2, progress=False)
    >>> bool(np.array_equal(b.cards, c.cards)), a.n_shoes
    (True, 5)
    """
    if not isinstance(dealing, Dealing):
        raise TypeError(f"dealing must be a Dealing, got {type(dealing).__name__} {dealing!r}")
    plan = block_plan(n_shoes, block_size, seed)
    parts = list(map_blocks(partial(_deal_one_block, dealing=dealing), plan, workers, scheduler, progress, "dealing"))
    return concat(parts)
