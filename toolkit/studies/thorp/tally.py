"""The streaming tally of a Thorp study: one block of shoes dealt, evaluated and reduced to additive sums.

Nothing per coup is kept unless asked for.  Each block of shoes (seeded by its
index, see :mod:`toolkit.parallel`) is reduced to a :class:`Tally`: per unseen
count, bet and observer the number of hands, of positive expectations, the
sums of EV, EV² and max(EV, 0) and the largest EV; per shoe the positive
opportunities and the perfect bettor's gain, reduced to sums, squares and
cross products so that ratios get delta-method confidence intervals with shoes
as the independent unit.  Tallies add (maxima take the max), block after block
and always in block order, so memory is flat in the number of shoes and the
result is bit-for-bit the same for any worker count, on a Dask cluster, or
after an interruption and a resume from a checkpoint.

Jacobson's setting: the last ``n`` cards of a shuffled shoe are a uniformly
random set of ``n`` cards, exactly what a perfect counter faces with ``n``
cards unseen, so every block also evaluates the last ``n`` cards of its shoes.

>>> from toolkit.studies.thorp.design import ThorpStudy
>>> study = ThorpStudy(n_shoes=5, seed=1, bets=("banker", "tie"))
>>> output = tally_block(study.blocks()[0], block_spec(study))
>>> int(output.tally.arrays["shoes"][0]), output.tally.arrays["positive"].shape
(5, (1, 2, 417))
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import numba
import numpy as np
import polars as pl

from toolkit._packing import unpack_spec
from toolkit._stats import ArraySums
from toolkit.bets.base import Bet
from toolkit.bets.paytable import PayTable, get_plain_bet
from toolkit.bets.pricing import expected_values
from toolkit.coup.rules import Tableau
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.parallel import Block
from toolkit.studies.thorp.design import EDGE_EPSILON, REGIONS, ThorpStudy

__all__ = [
    "BlockOutput",
    "BlockSpec",
    "Tally",
    "block_spec",
    "empty_tally",
    "evaluator",
    "panel_values",
    "tally_block",
    "tally_packed",
]

#: Per-shoe opportunity counts are histogrammed up to this (the last bin holds this many or more).
_HIST_CAP = 64


@dataclass(frozen=True)
class BlockSpec:
    """The light, picklable part of a study that a worker needs: the dealing, the bets (a side bet travels
    without its compiled tables, see :class:`~toolkit.bets.coup_bets.CoupBet`) and Jacobson's pay tables."""

    dealing: Dealing
    bets: tuple[Bet, ...] = field(repr=False)
    jacobson_payoffs: np.ndarray = field(repr=False)
    observers: tuple[str, ...]
    jacobson_depths: tuple[int, ...]
    bet_names: tuple[str, ...]
    device: str = "cpu"


def block_spec(study: ThorpStudy) -> BlockSpec:
    """What a worker needs of ``study``: its dealing, its bets, Player's and Banker's pay tables and the names.

    Parameters
    ----------
    study
        The study.

    Returns
    -------
    BlockSpec
    """
    jac = (get_plain_bet("player", study.rules), get_plain_bet("banker", study.rules))
    return BlockSpec(
        dealing=study.dealing,
        bets=tuple(study.bets or ()),
        jacobson_payoffs=np.array([b.payoff_array for b in jac]),
        observers=study.observers,
        jacobson_depths=study.jacobson_depths,
        bet_names=study.bet_names,
        device=study.device,
    )


@lru_cache(maxsize=8)
def _evaluator_cached(payoff_bytes: bytes, shape: tuple[int, int], tableau: Tableau):
    from toolkit.exact.engine import CompiledBets

    return CompiledBets(np.frombuffer(payoff_bytes).reshape(shape), tableau)


def panel_values(shoes: np.ndarray, spec: BlockSpec, device: str = "cpu") -> np.ndarray:
    """Exact expected values of the study's bets for ``(n, 13)`` shoes by rank: ``(n, bets)``.

    One dispatcher for every bet, :func:`toolkit.bets.pricing.expected_values` (the one the counting harness
    and the replay use): pay tables in one pass of the batched engine (on ``device``), side bets each by
    its cheapest exact evaluator (:attr:`toolkit.bets.coup_bets.CoupBet.evaluator`, on the CPU).  The shoes are
    dealt by rank, so a bet on suits is priced suit-blind from ``spec.dealing.decks`` full decks.

    Parameters
    ----------
    shoes
        ``(n, 13)`` counts by rank.
    spec
        The study's block spec (:func:`block_spec`).
    device
        Where the pay tables are priced: ``"cpu"`` or ``"gpu"``.

    Returns
    -------
    numpy.ndarray
    """
    dealing = spec.dealing
    ranks = np.ascontiguousarray(shoes, dtype=np.int64)
    bets = spec.bets  # a side bet arriving with a block shares the tables compiled for the first
    out = np.empty((len(ranks), len(bets)))
    for chunk, group in _chunked_groups(bets, len(ranks) if device == "gpu" else 0):
        for start in range(0, len(ranks), chunk):
            rows = slice(start, start + chunk)
            out[rows, group] = expected_values(
                ranks[rows], [bets[i] for i in group], dealing.tableau, decks=dealing.decks, device=device
            )
    return out


#: Shoes priced at a time: the pay tables' engine and the side bets' closed forms both work on arrays of all the
#: shoes given, and stay in cache at these sizes (a block of 1,000 shoes holds about 80,000 coups; priced in one
#: call, the side bets' arrays spill out of cache and cost five times as much).
_PLAIN_CHUNK, _SIDE_CHUNK = 16_384, 4_096


def _chunked_groups(bets: tuple[Bet, ...], whole: int = 0) -> list[tuple[int, list[int]]]:
    """The bets' columns in two groups, each with the number of shoes priced at a time: pay tables, side bets
    (``whole``: the pay tables' shoes all at once, as a GPU takes them in one transfer)."""
    plain = [i for i, b in enumerate(bets) if isinstance(b, PayTable)]
    side = [i for i, b in enumerate(bets) if not isinstance(b, PayTable)]
    return [(n, g) for n, g in ((max(whole, 1) if whole else _PLAIN_CHUNK, plain), (_SIDE_CHUNK, side)) if g]


def evaluator(payoffs: np.ndarray, tableau: Tableau):
    """The batched EV evaluator of a pay table (built once per process).

    Parameters
    ----------
    payoffs
        ``(bets, outcome classes)`` pay table.
    tableau
        The drawing rules.

    Returns
    -------
    toolkit.exact.engine.CompiledBets
    """
    return _evaluator_cached(np.ascontiguousarray(payoffs, dtype=np.float64).tobytes(), payoffs.shape, tableau)


class Tally(ArraySums):
    """Additive sums of a study (the one mutable thing here; :meth:`merged` returns a new one).

    Arrays (``O`` observers, ``B`` bets, ``D`` unseen counts 0..52·decks, ``R``
    regions of :data:`REGIONS`, ``J`` Jacobson depths):

    ``shoes`` (1,), ``hands`` (D), ``positive`` (O, B, D), ``sum_dev`` and
    ``sum_dev2`` (O, B, D): sums of ``EV - EV_full`` and its square (shifted by
    the full-shoe EV for accuracy), ``sum_gain`` (O, B, D): sums of
    ``max(EV, 0)``, ``max_ev`` (O, B, D); per shoe, with quantity 0 the
    positive opportunities and 1 the perfect bettor's gain: ``shoe_sum`` and
    ``shoe_sum2`` (O, B, 2, R + 1; the last column the whole shoe),
    ``shoe_cross`` (O, B, 2, R: region times whole shoe), ``shoes_positive``
    (O, B), ``opportunity_hist`` (O, B, 65); Jacobson's setting, for
    (player, banker): ``jac_positive``, ``jac_sum``, ``jac_sum2``, ``jac_gain``,
    ``max_jac`` (J, 2).
    """

    @classmethod
    def empty(cls, n_observers: int, n_bets: int, n_depths: int, n_jacobson: int) -> Tally:
        o, b, d, r, j = n_observers, n_bets, n_depths, len(REGIONS), n_jacobson
        f8, i8 = np.float64, np.int64
        return cls(
            {
                "shoes": np.zeros(1, i8),
                "hands": np.zeros((o, d), i8),
                "positive": np.zeros((o, b, d), i8),
                "sum_dev": np.zeros((o, b, d), f8),
                "sum_dev2": np.zeros((o, b, d), f8),
                "sum_gain": np.zeros((o, b, d), f8),
                "max_ev": np.full((o, b, d), -np.inf),
                "shoe_sum": np.zeros((o, b, 2, r + 1), f8),
                "shoe_sum2": np.zeros((o, b, 2, r + 1), f8),
                "shoe_cross": np.zeros((o, b, 2, r), f8),
                "shoes_positive": np.zeros((o, b), i8),
                "opportunity_hist": np.zeros((o, b, _HIST_CAP + 1), i8),
                "jac_positive": np.zeros((j, 2), i8),
                "jac_sum": np.zeros((j, 2), f8),
                "jac_sum2": np.zeros((j, 2), f8),
                "jac_gain": np.zeros((j, 2), f8),
                "max_jac": np.full((j, 2), -np.inf),
            }
        )


def empty_tally(study: ThorpStudy) -> Tally:
    """The tally of ``study`` before any block (the layout a checkpoint of it must have).

    Parameters
    ----------
    study
        The study.

    Returns
    -------
    Tally
    """
    return Tally.empty(len(study.observers), len(study.bet_names), study.dealing.cards + 1, len(study.jacobson_depths))


class _DepthSums(NamedTuple):
    """One observer's sums by bet and depth (each ``(bets, depths)``), which :func:`_tally_coups` adds to."""

    positive: np.ndarray
    sum_dev: np.ndarray
    sum_dev2: np.ndarray
    sum_gain: np.ndarray
    max_ev: np.ndarray


@numba.njit(cache=True)
def _tally_coups(ev, depth, shoe, ev0, in_region, sums, shoe_opp, shoe_gain, eps):  # pragma: no cover - compiled
    # read the arrays out of the tuple once: each read inside the loop would cost a reference count
    positive, sum_dev, sum_dev2, sum_gain, max_ev = (
        sums.positive,
        sums.sum_dev,
        sums.sum_dev2,
        sums.sum_gain,
        sums.max_ev,
    )
    n, nb = ev.shape
    nr = in_region.shape[1]
    for i in range(n):
        d = depth[i]
        s = shoe[i]
        for b in range(nb):
            x = ev[i, b]
            y = x - ev0[b]
            sum_dev[b, d] += y
            sum_dev2[b, d] += y * y
            max_ev[b, d] = max(max_ev[b, d], x)
            if x > eps:
                positive[b, d] += 1
                sum_gain[b, d] += x
                shoe_opp[s, b, nr] += 1.0
                shoe_gain[s, b, nr] += x
                for r in range(nr):
                    if in_region[d, r]:
                        shoe_opp[s, b, r] += 1.0
                        shoe_gain[s, b, r] += x


def _region_mask(n_depths: int) -> np.ndarray:
    d = np.arange(n_depths)
    return np.stack([(d >= lo) & (d <= hi) for lo, hi in REGIONS.values()], axis=1)


def _rank_counts(cards: np.ndarray) -> np.ndarray:
    """``(n, 13)`` counts by rank of each row of rank indices."""
    n = cards.shape[0]
    out = np.zeros((n, 13), np.int64)
    np.add.at(out, (np.repeat(np.arange(n), cards.shape[1]), cards.ravel().astype(np.int64)), 1)
    return out


@dataclass(frozen=True)
class BlockOutput:
    """What a worker returns for one block: its tally, timings, per-coup records (if asked) and coups dealt."""

    tally: Tally
    seconds: dict[str, float]
    records: pl.DataFrame | None
    coups: int


def _jacobson_tally(shoes: np.ndarray, spec: BlockSpec, tally: Tally) -> None:
    evaluate = evaluator(spec.jacobson_payoffs, spec.dealing.tableau)
    a = tally.arrays
    for j, depth in enumerate(spec.jacobson_depths):
        ev = evaluate(_rank_counts(shoes[:, shoes.shape[1] - depth :]), device=spec.device)
        a["jac_positive"][j] = (ev > EDGE_EPSILON).sum(axis=0)
        a["jac_sum"][j] = ev.sum(axis=0)
        a["jac_sum2"][j] = (ev * ev).sum(axis=0)
        a["jac_gain"][j] = np.where(ev > EDGE_EPSILON, ev, 0.0).sum(axis=0)
        a["max_jac"][j] = ev.max(axis=0) if len(ev) else -np.inf


def tally_packed(block: Block, packed: tuple[bytes, bytes], records: bool = False, coups: bool = True) -> BlockOutput:
    """:func:`tally_block` of a spec packed by :func:`toolkit._packing.pack_spec` (unpickled at most once in this
    process).

    Parameters
    ----------
    block
        The block of shoes.
    packed
        ``pack_spec(spec)``.
    records, coups
        As :func:`tally_block` takes them.

    Returns
    -------
    BlockOutput
    """
    return tally_block(block, unpack_spec(packed), records, coups)


def tally_block(block: Block, spec: BlockSpec, records: bool = False, coups: bool = True) -> BlockOutput:
    """Deal, evaluate and tally one block of shoes (runs in a worker).

    Parameters
    ----------
    block
        The block of shoes (its seed and size).
    spec
        What the worker needs of the study (:func:`block_spec`).
    records
        Also return the per-coup EVs.
    coups
        Deal and evaluate the coups (``False``: Jacobson's setting only).

    Returns
    -------
    BlockOutput
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):  # one BLAS thread: faster here, and the same sums everywhere
        t0, cpu0 = time.perf_counter(), time.process_time()
        dealing = spec.dealing
        shoes = shuffled_shoes(block.n_shoes, dealing.decks, block.rng())
        n_depths = dealing.cards + 1
        tally = Tally.empty(len(spec.observers), len(spec.bet_names), n_depths, len(spec.jacobson_depths))
        tally.arrays["shoes"][0] = block.n_shoes
        seconds = {"deal": 0.0, "ev": 0.0, "aggregate": 0.0}
        frame = None
        n_coups = 0
        if coups:
            dealt = deal_block(shoes, dealing, block.first_shoe)
            n_coups = len(dealt)
            t1 = time.perf_counter()
            seconds["deal"] += t1 - t0
            ev0 = panel_values(np.full((1, 13), 4 * dealing.decks), spec)[0]  # on the CPU, as StudyResult has it
            comps = {"unseen": dealt.unseen}
            if "remaining" in spec.observers:
                comps["remaining"] = dealt.remaining()
            evs = {o: panel_values(comps[o], spec, spec.device) for o in spec.observers}
            t2 = time.perf_counter()
            seconds["ev"] += t2 - t1
            _tally_dealt(dealt, evs, ev0, spec, tally)
            if records:
                frame = _records_frame(dealt, evs, spec)
            seconds["aggregate"] += time.perf_counter() - t2
        t3 = time.perf_counter()
        _jacobson_tally(shoes, spec, tally)
        seconds["jacobson"] = time.perf_counter() - t3
        seconds["cpu"] = time.process_time() - cpu0  # CPU time of the block: what an idle core would take
    return BlockOutput(tally, seconds, frame, n_coups)


def _tally_dealt(dealt, evs: dict[str, np.ndarray], ev0: np.ndarray, spec: BlockSpec, tally: Tally) -> None:
    a = tally.arrays
    n_depths = a["hands"].shape[1]
    local = (dealt.shoe - dealt.first_shoe).astype(np.int64)
    in_region = _region_mask(n_depths)
    n_shoes, n_bets, n_regions = dealt.n_shoes, len(spec.bet_names), len(REGIONS)
    for o, observer in enumerate(spec.observers):
        depth = (dealt.unseen_count if observer == "unseen" else dealt.left).astype(np.int64)
        a["hands"][o] += np.bincount(depth, minlength=n_depths)
        shoe_opp = np.zeros((n_shoes, n_bets, n_regions + 1))
        shoe_gain = np.zeros((n_shoes, n_bets, n_regions + 1))
        _tally_coups(
            np.ascontiguousarray(evs[observer]),
            depth,
            local,
            ev0,
            in_region,
            _DepthSums(a["positive"][o], a["sum_dev"][o], a["sum_dev2"][o], a["sum_gain"][o], a["max_ev"][o]),
            shoe_opp,
            shoe_gain,
            EDGE_EPSILON,
        )
        per_shoe = np.stack([shoe_opp, shoe_gain], axis=2)  # (shoes, bets, 2, R + 1)
        a["shoe_sum"][o] = per_shoe.sum(axis=0)
        a["shoe_sum2"][o] = (per_shoe * per_shoe).sum(axis=0)
        a["shoe_cross"][o] = (per_shoe[..., :n_regions] * per_shoe[..., n_regions:]).sum(axis=0)
        total = shoe_opp[:, :, n_regions].astype(np.int64)
        a["shoes_positive"][o] = (total > 0).sum(axis=0)
        for b in range(n_bets):
            a["opportunity_hist"][o, b] = np.bincount(np.minimum(total[:, b], _HIST_CAP), minlength=_HIST_CAP + 1)


def _records_frame(dealt, evs: dict[str, np.ndarray], spec: BlockSpec) -> pl.DataFrame:
    columns: dict[str, Any] = {
        "shoe": dealt.shoe.astype(np.int64),
        "coup": dealt.coup.astype(np.int32),
        "cards_unseen": dealt.unseen_count.astype(np.int32),
        "cards_left": dealt.left.astype(np.int32),
    }
    for observer in spec.observers:
        prefix = "ev_" if observer == "unseen" else f"ev_{observer}_"
        for b, name in enumerate(spec.bet_names):
            columns[prefix + name] = evs[observer][:, b]
    return pl.DataFrame(columns)
