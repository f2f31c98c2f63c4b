"""The fresh shoes of an assessment: strategies played through the same shoes, and paired differences between them.

:func:`fresh_totals` deals the blocks :func:`toolkit.counting.run_strategies` deals (the same seeds, the
same shoes) and keeps the per-shoe totals, so that two counts played through the very same shoes can be
compared by their paired difference (:func:`paired_difference`): common random numbers, whose interval is
far narrower than the two intervals side by side.

>>> from toolkit.counting import count_strategy
>>> a, b = fresh_totals([count_strategy("dragon7"), count_strategy("dragon7", 6.0)], 20, seed=1, progress=False)
>>> d = paired_difference(a, a)
>>> d["difference"], d["low"], d["high"]
(0.0, 0.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from statistics import NormalDist
from typing import Any

import numpy as np

from toolkit.counting.harness import play
from toolkit.counting.results import ShoeTotals
from toolkit.counting.strategies import Strategy
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.parallel import Block, SeedLike, block_plan, map_blocks

__all__ = ["fresh_totals", "paired_difference"]


def _block(block: Block, strategies: tuple[Strategy, ...], dealing: Dealing, rules: Rules) -> list[ShoeTotals]:
    from threadpoolctl import threadpool_limits

    dealt = deal_block(shuffled_shoes(block.n_shoes, dealing.decks, block.rng()), dealing, block.first_shoe)
    with threadpool_limits(1):
        return play(dealt, strategies, rules)


def fresh_totals(
    strategies: Sequence[Strategy],
    n_shoes: int,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    rules: Rules | None = None,
    workers: int | None = None,
    progress: bool = True,
    scheduler: str | Any | None = None,
) -> list[ShoeTotals]:
    """Per-shoe totals of every strategy played through the same ``n_shoes`` shoes (those of ``run_strategies``).

    Parameters
    ----------
    strategies
        The strategies; each plays the same coups.
    n_shoes
        Shoes dealt.
    dealing
        How they are dealt.
    seed
        The seed (as :func:`toolkit.parallel.block_plan` takes it).
    rules
        Payouts (default: the dealing's decks and tableau).
    workers, progress, scheduler
        As :func:`toolkit.parallel.map_blocks` takes them (the same totals wherever the blocks run).

    Returns
    -------
    list of toolkit.counting.results.ShoeTotals
        One per strategy, in order.
    """
    strategies = tuple(strategies)
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    fn = partial(_block, strategies=strategies, dealing=dealing, rules=rules)
    parts: list[list[ShoeTotals]] = [[] for _ in strategies]
    for totals in map_blocks(fn, block_plan(n_shoes, seed=seed), workers, scheduler, progress, "fresh shoes"):
        for i, t in enumerate(totals):
            parts[i].append(t)
    return [ShoeTotals.concat(p) for p in parts]


def paired_difference(a: ShoeTotals, b: ShoeTotals, confidence: float = 0.95) -> dict[str, float]:
    """Expected win per 100 hands of ``a`` minus that of ``b``, played through the same shoes, with its interval.

    The difference is a ratio of sums over shoes, ``100 * sum(ev_a - ev_b) / sum(hands)``; its standard
    error is the delta method's with the shoes as the independent unit (the usual ratio estimator).

    Parameters
    ----------
    a, b
        Per-shoe totals of two strategies on the same shoes.
    confidence
        Of the normal interval.

    Returns
    -------
    dict
        ``difference``, ``se``, ``low``, ``high`` (units per 100 hands) and ``shoes``.
    """
    if len(a) != len(b) or not np.array_equal(a.hands, b.hands):
        raise ValueError("paired_difference needs two strategies played through the same shoes")
    n = len(a)
    hands = a.hands.astype(np.float64)
    d = a.ev - b.ev
    total = float(hands.sum())
    ratio = float(d.sum()) / total if total else 0.0
    resid = d - ratio * hands
    se = float(np.sqrt(n / (n - 1) * np.sum(resid * resid)) / total) if n > 1 and total else 0.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    diff, se = 100 * ratio, 100 * se
    return {"difference": diff, "se": se, "low": diff - z * se, "high": diff + z * se, "shoes": float(n)}
