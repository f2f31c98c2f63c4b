"""Bets on the first four cards written twice: as one polars expression and as SQL pay-table rows.

A poker hand of the first four cards (Player's and Banker's first two), as Jackpot Baccarat pays on
them: four of a kind, then a four-card flush (``suit="suit"``) or four of one colour
(``suit="colour"``), then two distinct ranks (two pair or three of a kind), else a loss.  The
expression takes the ranks through ``concat_list`` and ``list.sort``/``list.n_unique`` as a user
writes it; the rows spell the same hands as equalities of positions.  Shared by
``tests/test_bets.py`` (the two give identical tables) and ``tests/benchmarks/expression_bets.py``.
"""

from __future__ import annotations

from itertools import combinations

import polars as pl

from toolkit.bets import Bet

FOUR = ("player_1", "banker_1", "player_2", "banker_2")
PAYS = {"four of a kind": 100, "flush": 50, "two ranks": 5}


def poker_expression(suit: str = "suit") -> Bet:
    """The hand as one expression (``suit``: ``"suit"`` or ``"colour"``)."""
    ranks = pl.concat_list([pl.col(f"{p}_rank").to_physical() for p in FOUR]).list.sort()
    suits = pl.concat_list([pl.col(f"{p}_{suit}").to_physical() for p in FOUR])
    n_ranks = ranks.list.n_unique()
    payout = (
        pl.when(n_ranks == 1)
        .then(PAYS["four of a kind"])
        .when(suits.list.n_unique() == 1)
        .then(PAYS["flush"])
        .when(n_ranks == 2)
        .then(PAYS["two ranks"])
        .otherwise(-1)
    )
    return Bet.from_expr(f"poker_{suit}", payout)


def poker_rows(suit: str = "suit") -> Bet:
    """The same hand as SQL rows."""

    def same(field: str, positions: list[int]) -> list[str]:
        return [f"{FOUR[a]}_{field} = {FOUR[b]}_{field}" for a, b in combinations(positions, 2)]

    two = []
    for mask in range(1, 8):  # the seven ways to split the four positions into two blocks
        a = [0] + [i for i in (1, 2, 3) if not mask >> (i - 1) & 1]
        b = [i for i in (1, 2, 3) if mask >> (i - 1) & 1]
        two.append(
            "(" + " AND ".join([*same("rank", a), *same("rank", b), f"{FOUR[a[0]]}_rank <> {FOUR[b[0]]}_rank"]) + ")"
        )
    rows = [
        (" AND ".join(same("rank", [0, 1, 2, 3])), PAYS["four of a kind"]),
        (" AND ".join(same(suit, [0, 1, 2, 3])), PAYS["flush"]),
        (" OR ".join(two), PAYS["two ranks"]),
    ]
    return Bet.from_rows(f"poker_{suit}", rows)
