"""The count and perfect play against the cut card: every position dealt from the very same shuffled shoes.

Like :func:`toolkit.counting.penetration_sweep`, but each block of shoes is
shuffled once and dealt at every cut-card position where it runs (one pass of
workers for the whole sweep, and the same shuffles at every position by
construction: common random numbers across depths).

>>> from toolkit.counting import count_strategy
>>> frame = depth_sweep([count_strategy("dragon7")], [14, 52], 20, seed=1, workers=1, progress=False)
>>> frame["cut_card"].to_list(), frame["shoes"].to_list()
([14, 52], [20, 20])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import polars as pl

from toolkit.counting.harness import play
from toolkit.counting.results import ShoeTotals, summarize
from toolkit.counting.strategies import Strategy
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.parallel import Block, SeedLike, block_plan, map_blocks

__all__ = ["depth_sweep"]


def _block(
    block: Block, strategies: tuple[Strategy, ...], dealing: Dealing, cuts: tuple[int, ...], rules: Rules
) -> list[list[ShoeTotals]]:
    from threadpoolctl import threadpool_limits

    shoes = shuffled_shoes(block.n_shoes, dealing.decks, block.rng())
    out = []
    with threadpool_limits(1):
        for cut in cuts:
            dealt = deal_block(shoes, replace(dealing, cut_card=cut), block.first_shoe)
            out.append(play(dealt, strategies, rules))
    return out


def depth_sweep(
    strategies: Sequence[Strategy],
    cut_cards: Sequence[int],
    n_shoes: int,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    rules: Rules | None = None,
    workers: int | None = None,
    progress: bool = True,
    confidence: float = 0.95,
    scheduler: str | Any | None = None,
) -> pl.DataFrame:
    """Expected win of each strategy at each cut card, all positions dealt from the same shuffles.

    Returns
    -------
    polars.DataFrame
        ``cut_card, strategy, shoes, hands_per_shoe, bets_per_shoe, mean_edge, win_per_100_hands``
        (with ``_low``/``_high``), ``units_per_shoe`` (with ``_low``/``_high``); expected wins, from
        the exact EV of each bet placed.

    Parameters
    ----------
    strategies
        The strategies (a count and perfect play, say).
    cut_cards
        Cut-card positions, in cards from the end.
    n_shoes
        Shoes dealt at each position (the same shuffles at every position).
    dealing
        The dealing (its cut card is replaced by each position).
    seed
        The shuffles' seed.
    rules
        Payouts (default: the dealing's decks and tableau).
    workers, progress
        As :func:`toolkit.parallel.map_blocks` takes them.
    confidence
        Confidence level of the intervals.
    scheduler
        A Dask scheduler's address or a ``distributed.Client`` (:func:`toolkit.parallel.map_blocks`); overrides
        ``workers``, the same table either way.
    """
    strategies = tuple(strategies)
    cuts = tuple(int(c) for c in cut_cards)
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    fn = partial(_block, strategies=strategies, dealing=dealing, cuts=cuts, rules=rules)
    parts: list[list[list[ShoeTotals]]] = [[[] for _ in strategies] for _ in cuts]
    for result in map_blocks(fn, block_plan(n_shoes, seed=seed), workers, scheduler, progress, "cut-card sweep"):
        for i, block_cut in enumerate(result):
            for j, totals in enumerate(block_cut):
                parts[i][j].append(totals)
    rows = []
    for cut, per_cut in zip(cuts, parts, strict=True):
        for s, p in zip(strategies, per_cut, strict=True):
            res = summarize(s.name, ShoeTotals.concat(p), confidence)
            w, u = res.units_per_100_hands_ev, res.units_per_shoe_ev
            rows.append(
                {
                    "cut_card": cut,
                    "strategy": s.name,
                    "shoes": res.shoes,
                    "hands_per_shoe": res.hands_per_shoe.value,
                    "bets_per_shoe": res.bets_per_shoe.value,
                    "mean_edge": res.mean_edge.value,
                    "win_per_100_hands": w.value,
                    "win_per_100_hands_low": w.low,
                    "win_per_100_hands_high": w.high,
                    "units_per_shoe": u.value,
                    "units_per_shoe_low": u.low,
                    "units_per_shoe_high": u.high,
                }
            )
    frame = pl.DataFrame(rows)
    return frame.with_columns(pl.col(c).fill_nan(None) for c in frame.columns if frame[c].dtype == pl.Float64)
