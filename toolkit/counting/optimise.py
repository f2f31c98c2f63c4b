"""The best count for a bet, searched on the computed win (:func:`toolkit.counting.computed.count_value`).

Integer tags by card value within a stated range and the threshold are searched by coordinate descent from a
starting count (a published one): each round tries every tag in the range for each value in turn, each with every
threshold given, and keeps a change only when it raises the computed win per shoe.  Every figure is computed, so
the search has no simulation noise; it finds a local optimum, at least as good as the count it starts from.  One
pass of the computed chain prices a candidate at every threshold (its sums are kept per step of a ramp with a step
at each): on 8 decks a round over ten tags for every value takes about a minute of one core for Dragon 7.

>>> from toolkit.dealing.dealer import Dealing
>>> table = best_count(
...     "dragon7", Dealing(decks=1), tag_range=(-1, 2), thresholds=[2], values=[8], rounds=1, workers=1
... )
>>> table["count"].to_list()[-1], bool(table["units_per_shoe_ev"][-1] >= table["units_per_shoe_ev"][0])
('found', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import polars as pl

from toolkit.bets.base import Bet
from toolkit.counting.computed import _by_threshold, _value
from toolkit.counting.strategies import count_strategy
from toolkit.counting.systems import COUNT_SYSTEMS, CountSystem, get_count_system, resolve_bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.parallel import map_tasks

__all__ = ["best_count"]


def _best_threshold(system: CountSystem, bet: Bet, thresholds: Sequence[float], dealing: Dealing):
    """(units per shoe, bets per shoe, threshold) of the best threshold for ``system`` on ``bet``, computed in one
    pass for every threshold."""
    wins = _by_threshold(system, bet, thresholds, dealing)
    k = int(wins[:, 0].argmax())
    return float(wins[k, 0]), float(wins[k, 1]), thresholds[k]


def _candidate(tags: list[int], system: CountSystem, bet: Bet, thresholds: Sequence[float], dealing: Dealing):
    """One candidate of the search: ``system`` with ``tags`` at its best threshold (a task of the worker map)."""
    return _best_threshold(system.with_(tags=tags), bet, thresholds, dealing)


def best_count(
    bet: str | Bet,
    dealing: Dealing = Dealing(),
    *,
    start: CountSystem | str | None = None,
    tag_range: tuple[int, int] = (-4, 4),
    thresholds: Sequence[float] | None = None,
    values: Sequence[int] | None = None,
    rounds: int = 2,
    workers: int | None = None,
    scheduler: str | Any | None = None,
) -> pl.DataFrame:
    """Search integer tags and a threshold for the count that wins most on ``bet``, every candidate computed.

    Parameters
    ----------
    bet
        The bet (a name or a :class:`~toolkit.bets.Bet`).
    dealing
        Decks, burn, cut card, last hand.
    start
        The count to start from (default: the published count for ``bet``).
    tag_range
        Lowest and highest tag tried for each card value.
    thresholds
        True-count thresholds tried with every candidate, with the start's own (default: it and two either side).
    values
        The card values (0..9) whose tags are searched (default: all ten).
    rounds
        Passes over the values (the search stops early when a pass changes nothing).
    workers, scheduler
        Where the candidates of each value are computed (:func:`toolkit.parallel.map_tasks`: this process, local
        worker processes or a Dask cluster); the count found is the same wherever they run.

    Returns
    -------
    polars.DataFrame
        ``count, tags, threshold, units_per_shoe_ev, bets_per_shoe``: every published count for the bet (at its
        own threshold) and the start (``(start)`` when not one of them), then the count found (``count`` =
        ``"found"``), all computed.
    """
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau)
    target = resolve_bet(bet, rules)
    published = [s for s in COUNT_SYSTEMS.values() if s.bet == target.name]
    first = get_count_system(start) if start is not None else (published[0] if published else None)
    if first is None:
        raise ValueError(f"no published count for {target.name!r}; give start= (a count system to start from)")
    if first.trigger != "true":
        first = first.with_(trigger="true", threshold=first.threshold if first.threshold is not None else 0)
    lo, hi = tag_range
    if lo > hi:
        raise ValueError(f"tag_range must be (lowest, highest), got {tag_range}")
    t0 = first.threshold if first.threshold is not None else 0.0
    grid = sorted({t0, *(thresholds if thresholds is not None else [t0 + k for k in (-2, -1, 1, 2)])})
    tags = list(first.tags_by_value)
    current = first.with_(name="found", tags=tags, source="")
    best = _best_threshold(current, target, grid, dealing)
    for _ in range(rounds):
        changed = False
        for v in values if values is not None else range(10):
            # a value's candidates differ from the tags in force at this value only: computed together, kept in turn
            trials = [[*tags[:v], tag, *tags[v + 1 :]] for tag in range(lo, hi + 1) if tag != tags[v]]
            trials = [trial for trial in trials if any(trial)]
            score = partial(_candidate, system=current, bet=target, thresholds=grid, dealing=dealing)
            for trial, candidate in zip(
                trials, map_tasks(score, trials, workers, scheduler, progress=False), strict=True
            ):
                if candidate[0] > best[0] + 1e-12:
                    tags, best, changed = trial, candidate, True
        current = current.with_(tags=tags)
        if not changed:
            break
    rows = []
    for s in [*published, *([first] if first not in published else [])]:
        if s.threshold is None:
            continue
        (play,) = count_strategy(s, bet=target).plays
        value = _value(play, target, dealing)  # type: ignore[arg-type]
        label = s.name if s in published else f"{s.name} (start)"
        rows.append((label, str(s.tags_by_value), s.threshold, value.units_per_shoe_ev, value.bets_per_shoe))
    rows.append(("found", str(tuple(tags)), best[2], best[0], best[1]))
    return pl.DataFrame(rows, schema=["count", "tags", "threshold", "units_per_shoe_ev", "bets_per_shoe"], orient="row")
