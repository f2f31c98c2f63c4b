"""Records of simulated and dealt shoes: complete shoe orders, shoes shuffled here, and what
:mod:`toolkit.dealing.dealer` dealt.

:func:`simulate_records` shuffles shoes and records them card by card (every
card listed, so the cut card says where the dealing stopped);
:func:`records_from_orders` records given shoe orders the same way, and
:func:`records_from_dealt` records what :func:`toolkit.dealing.dealer.deal` dealt, as
a table log would.  All three are rebuilt and checked like any record, under
the header's dealing and tableau.

>>> recs = simulate_records(2, seed=5)
>>> recs.kind, recs.n_shoes, recs.report.ok
('cards', 2, True)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl

from toolkit.coup.cards import RANKS
from toolkit.coup.options import HiddenBurn
from toolkit.dealing.dealer import DealtShoes, concat
from toolkit.parallel import SeedLike, block_plan
from toolkit.records.header import ShoeHeader
from toolkit.records.model import Records
from toolkit.records.read import records_from_frame
from toolkit.records.validation import ValidationReport

__all__ = ["records_from_dealt", "records_from_orders", "simulate_records"]


def records_from_orders(
    orders: np.ndarray,
    header: ShoeHeader = ShoeHeader(),
    suits: np.ndarray | None = None,
    first_shoe: int = 1,
) -> Records:
    """Card-level records of complete shoe orders (``(n, 52 * decks)`` rank indices), dealt by ``header``.

    ``suits`` (same shape, 0..3 = s, h, d, c) adds suit letters.  Every card is
    listed, so the cut card decides where the dealing stopped (as in
    :func:`toolkit.dealing.dealer.deal_block`); shoes are numbered from ``first_shoe``.

    Parameters
    ----------
    orders
        ``(n, 52 * decks)`` rank indices, one shoe a row.
    header
        How the shoes are dealt.
    suits
        Suits 0..3, same shape (default: none).
    first_shoe
        Id of the first shoe.

    Returns
    -------
    Records
        The card-level record.

    Examples
    --------
    >>> from toolkit.dealing.dealer import shuffled_shoes
    >>> records_from_orders(shuffled_shoes(2, seed=1)).n_shoes
    2
    """
    orders = np.asarray(orders)
    n, size = orders.shape
    decks = header.dealing.decks
    if size != 52 * decks:
        raise ValueError(f"orders of {size} cards do not fill a {decks}-deck shoe ({52 * decks} cards)")
    names = np.array(RANKS, dtype=object)[orders.ravel()]
    if suits is not None:
        names = names + np.array(list("shdc"), dtype=object)[np.asarray(suits).ravel()]
    frame = pl.DataFrame(
        {
            "shoe": np.repeat(np.arange(first_shoe, first_shoe + n), size),
            "position": np.tile(np.arange(1, size + 1), n),
            "card": names.astype(str),
        }
    )
    return records_from_frame(frame, replace(header, hidden_burn=HiddenBurn.LISTED), source="<simulated>")


#: Shoes a block builds into a record at once: the shoes are shuffled a block at a time (the unit of seeding), and
#: read into a record a few at a time, which holds the reader's working set (about 0.4 KB a card) to tens of MB.
_BUILT_TOGETHER = 200


def simulate_records(
    n_shoes: int,
    header: ShoeHeader = ShoeHeader(),
    seed: SeedLike = None,
    suits: bool = False,
    block_size: int = 1000,
) -> Records:
    """Shuffle ``n_shoes`` shoes and record them card by card (complete orders, dealt by ``header``).

    Block ``i`` of ``block_size`` shoes draws from child ``i`` of the seed's
    ``SeedSequence`` (see :func:`toolkit.parallel.block_plan`).

    Parameters
    ----------
    n_shoes
        Shoes.
    header
        How they are dealt.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` (its next
        draw seeds the shoes) or ``None``.
    suits
        Give every card a suit, from the same stream, such that every rank of every deck holds each suit once.
    block_size
        Shoes per block (the unit of seeding).

    Returns
    -------
    Records
        The card-level record.

    Examples
    --------
    >>> simulate_records(3, seed=1).n_shoes
    3
    """
    parts = []
    for block in block_plan(n_shoes, block_size, seed):
        rng = block.rng()
        cards = np.tile(np.arange(52, dtype=np.int16), (block.n_shoes, header.dealing.decks))
        cards = rng.permuted(cards, axis=1)
        orders = (cards // 4).astype(np.int8)
        for at in range(0, block.n_shoes, _BUILT_TOGETHER):  # the reader's working set: a few hundred shoes at a time
            some = slice(at, at + _BUILT_TOGETHER)
            first = 1 + block.first_shoe + at
            parts.append(records_from_orders(orders[some], header, cards[some] % 4 if suits else None, first))
    if not parts:
        return records_from_orders(np.zeros((0, 52 * header.dealing.decks), np.int8), header)
    return _concat(parts)


def _concat(parts: list[Records]) -> Records:
    first = parts[0]
    if len(parts) == 1:
        return first
    offsets = np.cumsum([0] + [p.n_shoes for p in parts[:-1]])
    dealts = [p.dealt for p in parts]
    if any(d is None for d in dealts):
        raise ValueError("only records that hold their dealt coups can be joined")
    dealt = concat([replace(d, shoe=d.shoe + o) for d, o in zip(dealts, offsets, strict=True) if d is not None])
    return replace(
        first,
        headers=sum((p.headers for p in parts), ()),
        shoes=pl.concat([p.shoes for p in parts]),
        cards=pl.concat([p.cards for p in parts if p.cards is not None]) if first.cards is not None else None,
        coups=pl.concat([p.coups for p in parts]),
        bets=pl.concat([p.bets for p in parts]),
        dealt=dealt,
        report=ValidationReport(n_shoes=sum(p.n_shoes for p in parts), n_valid=sum(p.n_shoes for p in parts)),
    )


def records_from_dealt(dealt: DealtShoes, header: ShoeHeader = ShoeHeader()) -> Records:
    """Card-level records of shoes dealt by :mod:`toolkit.dealing.dealer` (what a table log would hold).

    The face-down burned cards are listed in rank order (the dealt arrays keep
    their ranks, not their order); shoes are numbered ``dealt.shoe + 1``.

    Parameters
    ----------
    dealt
        Shoes dealt by :func:`toolkit.dealing.dealer.deal`.
    header
        The header of the record (its dealing should be the one used).

    Returns
    -------
    Records
        The card-level record.

    Examples
    --------
    >>> from toolkit.dealing.dealer import deal
    >>> records_from_dealt(deal(2, seed=1, progress=False)).n_shoes
    2
    """
    n_shoes = dealt.n_shoes
    burn_rows_shoe, burn_rows_card = [], []
    for s in range(n_shoes):
        if dealt.burn_card[s] >= 0:
            burn_rows_shoe.append(s)
            burn_rows_card.append(int(dealt.burn_card[s]))
        for r in range(13):
            burn_rows_shoe.extend([s] * int(dealt.burned_ranks[s, r]))
            burn_rows_card.extend([r] * int(dealt.burned_ranks[s, r]))
    order = (0, 3, 1, 4, 2, 5)
    flat = dealt.cards[:, order]
    shoe_of = np.repeat(dealt.shoe - dealt.first_shoe, 6)
    keep = flat.ravel() >= 0
    role = np.tile(np.array(["player", "banker"] * 3, dtype=object), len(dealt))[keep]
    cards = np.concatenate([np.array(burn_rows_card, dtype=np.int64), flat.ravel()[keep]])
    shoe = np.concatenate([np.array(burn_rows_shoe, dtype=np.int64), shoe_of[keep]])
    roles = np.concatenate([np.array(["burn"] * len(burn_rows_card), dtype=object), role])
    seq = np.argsort(shoe, kind="stable")
    frame = pl.DataFrame(
        {
            "shoe": shoe[seq] + 1,
            "card": np.array(RANKS, dtype=object)[cards[seq]].astype(str),
            "role": roles[seq].astype(str),
        }
    )
    frame = frame.with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("shoe").alias("position"))
    return records_from_frame(frame.select("shoe", "position", "card", "role"), header, source="<dealt>")
