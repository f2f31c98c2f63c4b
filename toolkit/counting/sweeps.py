"""Sweeps: one count at several betting thresholds, strategies at several cut-card positions, on the same shoes.

Each sweep plays every setting through the same shuffled shoes (the same seed),
so the differences between rows are not blurred by different shoes.  One row
per setting (and strategy), with the figures of :class:`~toolkit.counting.results.Results`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np
import polars as pl

from toolkit.bets.paytable import PayTable
from toolkit.counting.harness import run_strategies
from toolkit.counting.results import Results
from toolkit.counting.strategies import Strategy, count_strategy
from toolkit.counting.systems import CountSystem
from toolkit.dealing.dealer import Dealing
from toolkit.parallel import SeedLike, as_seed_sequence

__all__ = ["penetration_sweep", "threshold_sweep"]


def _fresh_copy(root: np.random.SeedSequence) -> np.random.SeedSequence:
    """A new SeedSequence in the state of ``root``: its children are those ``root`` would spawn next."""
    return np.random.SeedSequence(
        root.entropy, spawn_key=root.spawn_key, pool_size=root.pool_size, n_children_spawned=root.n_children_spawned
    )


def _row(res: Results) -> dict[str, object]:
    return {
        "strategy": res.strategy,
        "shoes": res.shoes,
        "bets_per_shoe": res.bets_per_shoe.value,
        "mean_edge": res.mean_edge.value,
        "units_per_shoe": res.units_per_shoe.value,
        "units_per_shoe_low": res.units_per_shoe.low,
        "units_per_shoe_high": res.units_per_shoe.high,
        "units_per_shoe_ev": res.units_per_shoe_ev.value,
        "units_per_shoe_ev_low": res.units_per_shoe_ev.low,
        "units_per_shoe_ev_high": res.units_per_shoe_ev.high,
        "units_per_100_hands_ev": res.units_per_100_hands_ev.value,
        "sd_per_shoe": res.sd_per_shoe,
        "di": res.di.value,
        "score": res.score.value,
    }


def threshold_sweep(
    system: CountSystem | str,
    thresholds: Iterable[float],
    n_shoes: int,
    bet: str | PayTable | None = None,
    count: str | None = None,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    **options: object,
) -> pl.DataFrame:
    """Win of a count at each threshold, all thresholds played through the same shoes (one row each).

    ``options`` go to :func:`~toolkit.counting.harness.run_strategies` (``workers``, ``progress``...).

    Parameters
    ----------
    system
        A :class:`~toolkit.counting.systems.CountSystem` or a published system's name.
    thresholds
        The thresholds.
    n_shoes
        Shoes dealt (the same for every threshold).
    bet
        The bet (default: the system's).
    count
        ``"true"`` or ``"running"`` (default: the system's trigger).
    dealing
        How the shoes are dealt.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    **options
        Passed to :func:`~toolkit.counting.harness.run_strategies`.

    Returns
    -------
    polars.DataFrame
        One row per threshold: ``threshold`` and the figures of :meth:`~toolkit.counting.results.Results.as_dict`
        (intervals as ``_low``/``_high`` columns).

    Examples
    --------
    >>> s = threshold_sweep("dragon7", [2, 4], 20, seed=1, workers=1, progress=False)
    >>> s["threshold"].to_list()
    [2.0, 4.0]
    """
    thresholds = [float(t) for t in thresholds]
    strategies = [count_strategy(system, t, bet=bet, count=count) for t in thresholds]
    results = run_strategies(strategies, n_shoes, dealing, seed, **options)  # type: ignore[arg-type]
    rows = [{"threshold": t, **_row(r)} for t, r in zip(thresholds, results, strict=True)]
    return pl.DataFrame(rows)


def penetration_sweep(
    strategies: Strategy | Sequence[Strategy],
    cut_cards: Iterable[int],
    n_shoes: int,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    **options: object,
) -> pl.DataFrame:
    """Win against the cut card position (cards from the end), the same shuffles at every position.

    Parameters
    ----------
    strategies
        A strategy or several.
    cut_cards
        Cut card positions, in cards from the end.
    n_shoes
        Shoes dealt at each position.
    dealing
        The dealing (its cut card is replaced).
    seed
        An integer, a SeedSequence, a Generator or ``None``: read once (a Generator gives one draw, ``None`` fresh
        entropy), and every position is dealt from the same seed sequence.
    **options
        Passed to :func:`~toolkit.counting.harness.run_strategies`.

    Returns
    -------
    polars.DataFrame
        One row per position and strategy: ``cut_card, strategy`` and the figures of
        :meth:`~toolkit.counting.results.Results.as_dict`.

    Examples
    --------
    >>> from toolkit.counting.strategies import count_strategy
    >>> s = penetration_sweep(count_strategy("dragon7"), [14, 52], 10, seed=1, workers=1, progress=False)
    >>> s["cut_card"].to_list()
    [14, 52]
    """
    strategies = [strategies] if isinstance(strategies, Strategy) else list(strategies)
    root = as_seed_sequence(seed)
    rows = []
    for cut in cut_cards:
        d = replace(dealing, cut_card=int(cut))
        for r in run_strategies(strategies, n_shoes, d, _fresh_copy(root), **options):  # type: ignore[arg-type]
            rows.append({"cut_card": int(cut), **_row(r)})
    return pl.DataFrame(rows)
