"""Checking the cards of a record: card codes, and no more cards of a rank than a shoe's decks hold.

Private to :mod:`toolkit.records._load`.  The rows of every shoe are together, in dealing order,
and carry ``_s``, the shoe's index in file order; the counts are taken with numpy over those
indices, and only in the shoes that hold more cards than the lowest limit (four a deck): a
shoe of a few coups is never counted rank by rank, so a file of many short shoes costs no more
than the same cards in a few long ones.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from toolkit.coup.cards import VALUE_TO_RANK
from toolkit.records._spelling import EXPECTED
from toolkit.records.validation import Checker

__all__ = ["check_cards", "crowded_ranks"]


def check_cards(
    cards: pl.DataFrame, decks: np.ndarray, checker: Checker, coup: str | None = None, spelling: str = "ranks"
) -> None:
    """Card codes and rank counts (value counts for a record of values).

    ``cards`` has ``shoe, line, card`` (as written), ``rank`` and ``canon`` (from
    :func:`~toolkit.records.validation.parse_cards`) and ``_s``, the shoe's index in ``decks``
    (the number of decks of each shoe), each shoe's rows together in dealing order.  Of a rank
    a shoe holds too many of, the first card over the limit is the problem.
    """
    expected = EXPECTED[spelling]
    checker.add_rows(
        cards.filter(pl.col("card").is_null()),
        "bad_value",
        f"missing card (expected {expected})",
        coup,
    )
    checker.add_rows(
        cards.filter(pl.col("card").is_not_null() & pl.col("rank").is_null()),
        "unknown_card",
        f"unknown card code '{{card}}': expected {expected}",
        coup,
    )
    values = spelling == "values"
    known = cards.filter(pl.col("rank").is_not_null())
    crowded = crowded_ranks(known["_s"].to_numpy(), known["rank"].to_numpy(), decks, values)
    if crowded.is_empty():
        return
    over = (
        cards.join(crowded, on=["_s", "rank"], how="inner", maintain_order="left")
        .with_columns(pl.int_range(1, pl.len() + 1).over(["_s", "rank"]).alias("_nth"))
        .filter(pl.col("_nth") == pl.col("_limit") + 1)
        .with_columns(pl.col("canon").str.slice(0, 1).alias("_rank"))
    )
    checker.add_rows(
        over,
        "too_many_cards",
        "card {canon} is one too many of value {_rank}: a {decks}-deck shoe holds {_limit} cards of value {_rank}"
        if values
        else "card {canon} is one too many of rank {_rank}: a {decks}-deck shoe holds {_limit} of each rank",
        coup,
    )


def crowded_ranks(shoe: np.ndarray, rank: np.ndarray, decks: np.ndarray, values: bool = False) -> pl.DataFrame:
    """``_s, rank, decks, _limit``: each rank a shoe holds more cards of than its decks allow, by shoe and rank.

    ``shoe`` and ``rank`` are the shoe index and the rank of every card; a shoe holds four of
    each rank a deck (of value 0, standing as the rank T in a record of values, sixteen).

    >>> crowded_ranks(np.array([0, 0, 0, 0, 0, 1]), np.array([12, 12, 12, 12, 12, 12]), np.array([1, 1])).rows()
    [(0, 12, 1, 4)]
    """
    shoe, rank, decks = (np.asarray(a, dtype=np.int64) for a in (shoe, rank, decks))
    per_deck = np.full(13, 4, np.int64)
    if values:
        per_deck[VALUE_TO_RANK[0]] = 16
    # a shoe with no more cards than four a deck cannot hold too many of any rank
    maybe = np.flatnonzero(np.bincount(shoe, minlength=len(decks)) > per_deck.min() * decks)
    found = np.zeros((0, 2), np.int64)
    limit = np.zeros((len(maybe), 13), np.int64)
    if len(maybe):
        slot = np.full(len(decks), -1, np.int64)
        slot[maybe] = np.arange(len(maybe))
        mine = slot[shoe] >= 0
        counts = np.bincount(slot[shoe[mine]] * 13 + rank[mine], minlength=13 * len(maybe)).reshape(-1, 13)
        limit = decks[maybe][:, None] * per_deck
        found = np.argwhere(counts > limit)
    which, ranks = found[:, 0], found[:, 1]
    return pl.DataFrame(
        {
            "_s": pl.Series(maybe[which], dtype=pl.Int64),
            "rank": pl.Series(ranks, dtype=pl.Int8),
            "decks": pl.Series(decks[maybe[which]], dtype=pl.Int64),
            "_limit": pl.Series(limit[which, ranks], dtype=pl.Int64),
        }
    )
