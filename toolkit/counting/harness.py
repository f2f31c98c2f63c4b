"""The harness: strategies played through dealt shoes, each bet priced at its exact expected value before the coup.

**Only what is known before the coup.**  Plays see a
:class:`~toolkit.counting.tallies.PreCoup`: the unseen composition, the cards
left and the exposed burn card *before* each coup, never the coup's own cards.
The harness (:func:`play`) prices every bet placed at its exact expected value
before the coup, computed by the harness itself from the dealt shoes, so that
:func:`~toolkit.counting.results.summarize` can test that a strategy does not
look ahead (see :mod:`toolkit.counting.results`).

Runs are streamed block by block (:func:`run_strategies`): only per-shoe totals
(:class:`~toolkit.counting.results.ShoeTotals`) are kept.

>>> from toolkit.counting.results import summarize
>>> from toolkit.counting.strategies import count_strategy
>>> from toolkit.dealing.dealer import deal
>>> dealt = deal(200, seed=4, progress=False)
>>> (totals,) = play(dealt, [count_strategy("dragon7")])
>>> res = summarize("dragon7", totals)
>>> res.shoes, res.bets_per_shoe.value > 0
(200, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit.bets.base import Bet
from toolkit.bets.paytable import PayTable, bet_payouts
from toolkit.counting.results import Results, ShoeTotals, summarize
from toolkit.counting.strategies import Strategy
from toolkit.counting.systems import resolve_bet
from toolkit.counting.tallies import PreCoup
from toolkit.coup.cards import parse_card
from toolkit.coup.outcome import class_index
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing, DealtShoes, deal_block, shuffled_shoes
from toolkit.parallel import DEFAULT_BLOCK_SIZE, Block, SeedLike, block_plan, map_blocks

__all__ = ["compare_strategies", "play", "results_frame", "run_strategies", "simulate"]


def _outcome_classes_of_frame(frame: pl.DataFrame) -> np.ndarray:
    pc = frame["player_hand"].list.len().to_numpy()
    bc = frame["banker_hand"].list.len().to_numpy()
    return class_index(
        frame["player_total"].to_numpy().astype(np.int64),
        frame["banker_total"].to_numpy().astype(np.int64),
        pc,
        bc,
        frame["player_pair"].to_numpy(),
        frame["banker_pair"].to_numpy(),
    ).astype(np.int64)


def _cards_of_frame(frame: pl.DataFrame) -> np.ndarray:
    """``(n, 6)`` rank indices by position from a coup frame's ``player_hand`` and ``banker_hand`` lists."""
    out = np.full((frame.height, 6), -1, dtype=np.int64)
    for side, offset in (("player_hand", 0), ("banker_hand", 3)):
        for i, hand in enumerate(frame[side].to_list()):
            for j, card in enumerate(hand):
                out[i, offset + j] = card if isinstance(card, int) else parse_card(card)
    return out


def _paid(bet: Bet, classes: np.ndarray, cards: np.ndarray | pl.DataFrame, rows: np.ndarray, truth: PreCoup):
    """What ``bet`` paid on the coups ``rows``: its pay table, or its payout over the coups' cards.

    A bet on suits is settled on suits drawn suit-blind (the simulator deals ranks), from a seed made of
    the shoe ids, so the same shoes settle the same way.
    """
    if isinstance(bet, PayTable):  # the pay table needs only the classes: no cards parsed
        return bet_payouts(bet, classes[rows], None)
    ranks = _cards_of_frame(cards) if isinstance(cards, pl.DataFrame) else cards
    decks = int(np.max(truth.decks)) if len(truth.decks) else 8
    seed = [int(x) for x in np.unique(truth.shoe[rows])[:8]] + [len(rows)]
    return bet_payouts(bet, classes[rows], ranks[rows], decks=max(decks, 1), seed=seed)


def play(
    source: DealtShoes | pl.DataFrame,
    strategies: Sequence[Strategy],
    rules: Rules = Rules(),
    info: PreCoup | None = None,
) -> list[ShoeTotals]:
    """Play strategies through dealt shoes (or a coup frame with compositions); per-shoe totals for each.

    Parameters
    ----------
    source
        :class:`~toolkit.dealing.dealer.DealtShoes`, or a polars coup frame holding
        ``unseen_A`` ... ``unseen_K`` (e.g. recorded shoes), sorted by shoe and coup.
    strategies
        The strategies; each sees the same coups.
    rules
        Payouts (commission, tie pays) of the bets named by the plays.
    info
        What the plays are shown (default: the state before each coup).  Only
        for testing the harness: the expected values that price the bets are
        always the harness's own, from the unseen composition before each coup.

    Returns
    -------
    list of toolkit.counting.results.ShoeTotals
        The per-shoe totals of each strategy, in order.

    Examples
    --------
    >>> from toolkit.dealing.dealer import deal
    >>> from toolkit.counting.strategies import perfect_strategy
    >>> (t,) = play(deal(20, seed=2, progress=False), [perfect_strategy("tie")])
    >>> len(t), bool((t.ev >= 0).all())
    (20, True)
    """
    if isinstance(source, DealtShoes):
        truth = PreCoup.from_dealt(source, rules.tableau)
        classes = source.outcome_classes()
        shoe_ids = source.shoe
        cards: np.ndarray | pl.DataFrame = source.cards
    elif isinstance(source, pl.DataFrame):
        frame = source.sort("shoe", "coup") if {"shoe", "coup"} <= set(source.columns) else source
        truth = PreCoup.from_frame(frame, tableau=rules.tableau)
        classes = _outcome_classes_of_frame(frame)
        shoe_ids = truth.shoe
        cards = frame
    else:
        raise TypeError(f"play() takes DealtShoes or a polars coup frame, got {type(source).__name__}")
    if info is None:
        info = truth
    elif len(info) != len(truth):
        raise ValueError(f"info describes {len(info)} coups, the shoes hold {len(truth)}")
    _, shoe_index = np.unique(shoe_ids, return_inverse=True)
    n_shoes = int(shoe_index.max()) + 1 if len(shoe_index) else 0
    if len(shoe_index) and np.any(np.diff(shoe_index) < 0):
        raise ValueError("coups must be grouped by shoe, in order")
    starts = np.flatnonzero(np.r_[True, np.diff(shoe_index) != 0]) if len(shoe_index) else np.zeros(0, int)
    hands = np.bincount(shoe_index, minlength=n_shoes).astype(np.int64)

    out = []
    for strategy in strategies:
        won = np.zeros(len(classes))
        ev = np.zeros(len(classes))
        staked = np.zeros(len(classes))
        bets = np.zeros(len(classes), np.int64)
        for p in strategy.plays:
            bet = resolve_bet(p.bet, rules)
            stake = np.asarray(p.stakes(info, rules), dtype=np.float64)
            if stake.shape != won.shape or not np.all(np.isfinite(stake)) or np.any(stake < 0):
                raise ValueError(
                    f"strategy {strategy.name!r}: stakes on {bet.name} must be {len(won)} finite values >= 0"
                )
            rows = np.flatnonzero(stake > 0)
            won[rows] += stake[rows] * _paid(bet, classes, cards, rows, truth)
            ev[rows] += stake[rows] * truth.expected_values_at(bet, rows)
            staked += stake
            bets[rows] += 1
        if len(won):
            running = np.cumsum(won)
            before = np.r_[0.0, running][starts][shoe_index]
            low = np.minimum(np.minimum.reduceat(running - before, starts), 0.0)
        else:
            low = np.zeros(0)

        def per_shoe(x: np.ndarray) -> np.ndarray:
            return np.bincount(shoe_index, weights=x, minlength=n_shoes)

        out.append(
            ShoeTotals(
                hands=hands,
                bets=per_shoe(bets).astype(np.int64),
                staked=per_shoe(staked),
                won=per_shoe(won),
                ev=per_shoe(ev),
                low=low,
            )
        )
    return out


# ------------------------------------------------------------ parallel runs
def _block_totals(block: Block, strategies: tuple[Strategy, ...], dealing: Dealing, rules: Rules) -> list[ShoeTotals]:
    from threadpoolctl import threadpool_limits

    dealt = deal_block(shuffled_shoes(block.n_shoes, dealing.decks, block.rng()), dealing, block.first_shoe)
    with threadpool_limits(1):  # blocks are the unit of parallelism: no BLAS threads inside one
        return play(dealt, strategies, rules)


def run_strategies(
    strategies: Sequence[Strategy],
    n_shoes: int,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    rules: Rules | None = None,
    workers: int | None = None,
    scheduler: object | None = None,
    block_size: int = DEFAULT_BLOCK_SIZE,
    progress: bool = True,
    confidence: float = 0.95,
    check: bool = True,
) -> list[Results]:
    """Deal ``n_shoes`` shoes and play every strategy through the same shoes; one result each.

    Blocks of shoes are dealt and played where they run (all local cores by
    default, ``workers=1`` in this process, or a Dask ``scheduler`` address or
    client) and only per-shoe totals come back.  The same ``seed`` (an
    integer, a :class:`numpy.random.SeedSequence` or a seeded
    :class:`numpy.random.Generator`) gives the same results whatever
    ``workers`` or ``scheduler``; block ``i`` is dealt from child ``i`` of the
    seed's :class:`~numpy.random.SeedSequence` (:func:`toolkit.parallel.block_plan`).

    Parameters
    ----------
    strategies
        The strategies (see :mod:`toolkit.counting.strategies`); each plays the same shoes.
    n_shoes
        Shoes dealt.
    dealing
        How the shoes are dealt (decks, burn, cut card).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    rules
        House rules pricing the bets (default: the dealing's decks and tableau, standard payouts).
    workers
        Local processes (``None``: every core; ``1``: this process).
    scheduler
        A Dask scheduler address or ``distributed.Client``; overrides ``workers``.
    block_size
        Shoes per block (the unit of work and of seeding).
    progress
        Show a progress bar.
    confidence
        Confidence of the intervals.
    check
        Refuse a strategy whose realised win betrays a look at the coup
        (:class:`~toolkit.counting.results.LookAheadError`).

    Returns
    -------
    list of toolkit.counting.results.Results
        One per strategy, in order.

    See Also
    --------
    compare_strategies : the same run as a table, one row per strategy.

    References
    ----------
    E. Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat" (the published results,
    data/reference/count_results.csv).

    Examples
    --------
    >>> from toolkit.counting.strategies import count_strategy
    >>> (res,) = run_strategies([count_strategy("dragon7")], 20, seed=1, workers=1, progress=False)
    >>> res.shoes
    20
    """
    strategies = tuple(strategies)
    if not strategies:
        raise ValueError("run_strategies needs at least one strategy")
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    if rules.tableau != dealing.tableau:
        raise ValueError("rules.tableau and dealing.tableau differ: bets would be priced by other drawing rules")
    plan = block_plan(n_shoes, block_size, seed)
    fn: Callable[[Block], list[ShoeTotals]] = partial(
        _block_totals, strategies=strategies, dealing=dealing, rules=rules
    )
    parts: list[list[ShoeTotals]] = [[] for _ in strategies]
    for block_totals in map_blocks(fn, plan, workers, scheduler, progress, "shoes"):
        for i, t in enumerate(block_totals):
            parts[i].append(t)
    empty = ShoeTotals(*(np.zeros(0) for _ in range(6)))
    return [
        summarize(s.name, ShoeTotals.concat(p) if p else empty, confidence, check, s.describe())
        for s, p in zip(strategies, parts, strict=True)
    ]


def simulate(strategy: Strategy, n_shoes: int, **options: object) -> Results:
    """:func:`run_strategies` for one strategy.

    Parameters
    ----------
    strategy
        The strategy.
    n_shoes
        Shoes dealt.
    **options
        Passed to :func:`run_strategies`.

    Returns
    -------
    toolkit.counting.results.Results
        What it won.

    Examples
    --------
    >>> from toolkit.counting.strategies import count_strategy
    >>> simulate(count_strategy("dragon7"), 20, seed=1, workers=1, progress=False).shoes
    20
    """
    return run_strategies([strategy], n_shoes, **options)[0]  # type: ignore[arg-type]


def compare_strategies(
    strategies: Sequence[Strategy], n_shoes: int, bankroll: float | None = None, **options: Any
) -> pl.DataFrame:
    """:func:`run_strategies` as a table: the strategies side by side, one row each, on the same shoes.

    Parameters
    ----------
    strategies
        The strategies (see :mod:`toolkit.counting.strategies`).
    n_shoes
        Shoes dealt (every strategy plays the same ones).
    bankroll
        Also give the risk of ruin of this many units.
    **options
        Passed to :func:`run_strategies` (``dealing``, ``seed``, ``workers``, ``progress``, ...).

    Returns
    -------
    polars.DataFrame
        One row per strategy: the columns of :func:`results_frame`.

    Examples
    --------
    >>> from toolkit.counting.strategies import count_strategy, perfect_strategy
    >>> table = compare_strategies([count_strategy("dragon7"), perfect_strategy("dragon7")], 20, seed=1,
    ...                            workers=1, progress=False)
    >>> table["strategy"].to_list(), bool((table["units_per_shoe_ev"] > 0).all())
    (['dragon7 TC >= 4', 'perfect dragon7'], True)
    """
    return results_frame(run_strategies(strategies, n_shoes, **options), bankroll)


def results_frame(results: Sequence[Results], bankroll: float | None = None) -> pl.DataFrame:
    """Strategies side by side: one row per :class:`Results`, the headline figures with their intervals.

    Parameters
    ----------
    results
        Results of strategies, typically from :func:`~toolkit.counting.harness.run_strategies`
        (the same shoes for all, so the rows compare like with like).
    bankroll
        Also give the risk of ruin of this many units (the diffusion formula,
        :meth:`~toolkit.counting.results.Results.risk_of_ruin`).

    Returns
    -------
    polars.DataFrame
        ``strategy, shoes, bets_per_shoe, mean_edge`` (EV per unit staked when
        betting), ``units_per_shoe_ev`` with ``units_per_shoe_ev_low`` and
        ``units_per_shoe_ev_high`` (its confidence interval), ``units_per_shoe``
        (realised), ``units_per_100_hands_ev, sd_per_shoe, di, score, n0``
        and, with ``bankroll``, ``risk_of_ruin``.

    References
    ----------
    DI, SCORE and N0 as defined by Schlesinger, "Blackjack Attack" (3rd ed., 2005), ch. 10.

    Examples
    --------
    >>> n = 100
    >>> totals = ShoeTotals(np.full(n, 80), np.full(n, 2), np.full(n, 2.0), np.zeros(n), np.full(n, 0.1), np.zeros(n))
    >>> results_frame([summarize("flat", totals, check=False)])["units_per_shoe_ev"].to_list()
    [0.1]
    """
    rows = []
    for r in results:
        ev = r.units_per_shoe_ev
        row: dict[str, object] = {
            "strategy": r.strategy,
            "shoes": r.shoes,
            "bets_per_shoe": r.bets_per_shoe.value,
            "mean_edge": r.mean_edge.value,
            "units_per_shoe_ev": ev.value,
            "units_per_shoe_ev_low": ev.low,
            "units_per_shoe_ev_high": ev.high,
            "units_per_shoe": r.units_per_shoe.value,
            "units_per_100_hands_ev": r.units_per_100_hands_ev.value,
            "sd_per_shoe": r.sd_per_shoe,
            "di": r.di.value,
            "score": r.score.value,
            "n0": r.n0.value,
        }
        if bankroll is not None:
            row["risk_of_ruin"] = r.risk_of_ruin(bankroll).value
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)
