"""The Thorp study: where in the shoe do baccarat edges appear?

Thorp (*The Mathematics of Gambling*, 1984, ch. 3) concluded that advantages
in baccarat are very small, very rare and occur almost always in the last 5 to
20 cards.  This module makes the claim measurable.  Many shoes are dealt
(:mod:`toolkit.dealing`); before every coup the exact expected value of every
bet of the panel is computed from the cards a *perfect counter* has not seen
(the ``"unseen"`` observer: burned cards stay unseen), and optionally from the
cards physically left in the shoe (``"remaining"``: a stronger, hypothetical
observer who also saw the burned cards).  Results are keyed by the number of
unseen cards before the coup.

Streaming
---------
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

The fundamental theorem
-----------------------
:func:`linear_variance` predicts the variance of the exact EV across shoes as
a function of the number of cards ``n`` left, from the effects of removal of
the full shoe (Thorp and Walden 1973); the derivation is in its docstring.

Jacobson's setting
------------------
Jacobson ("The World's Greatest Baccarat Player") computed exact Player and
Banker edges with 18, 26, 34, 42 and 50 unseen cards in 100,000 eight-deck
shoes.  The last ``n`` cards of a shuffled shoe are a uniformly random set of
``n`` cards, exactly what a perfect counter faces with ``n`` cards unseen, so
every block also evaluates the last ``n`` cards of its shoes
(:meth:`StudyResult.jacobson`, or :func:`jacobson_setting` alone).

Examples
--------
>>> result = run_study(ThorpStudy(shoes=20, seed=1, bets=("banker", "player")), progress=False)
>>> result.n_shoes, result.by_unseen()["bet"].unique().sort().to_list()
(20, ['banker', 'player'])
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numba
import numpy as np
import polars as pl
import scipy.stats

from toolkit.bets import Bet, get_bet, standard_bets
from toolkit.dealing import Dealing, deal_block, shuffled_shoes
from toolkit.parallel import DEFAULT_BLOCK_SIZE, Block, block_plan, map_blocks
from toolkit.rules import Rules

__all__ = [
    "DEFAULT_BUCKETS",
    "EDGE_EPSILON",
    "JACOBSON_DEPTHS",
    "OBSERVERS",
    "REGIONS",
    "StudyResult",
    "Tally",
    "ThorpStudy",
    "checkpoint_seed",
    "jacobson_setting",
    "linear_variance",
    "records_frame",
    "run_study",
    "wilson_interval",
]

#: Who computes the expectation: the perfect counter (burned cards unseen) or one who also saw the burned cards.
OBSERVERS = ("unseen", "remaining")
#: Jacobson's depths: exact edges with this many unseen cards.
JACOBSON_DEPTHS = (18, 26, 34, 42, 50)
#: Regions of the shoe, in unseen cards before the coup (inclusive bounds), for the shares of the claim.
REGIONS: dict[str, tuple[int, int]] = {
    "last_5_20": (5, 20),
    "last_20": (0, 20),
    "beyond_20": (21, 10**6),
    "beyond_50": (51, 10**6),
}
#: Upper bounds (inclusive) of the buckets of unseen cards in :meth:`StudyResult.by_bucket`.
DEFAULT_BUCKETS = (10, 20, 30, 40, 50, 75, 100, 150, 200, 300)
#: An expectation counts as an edge when above this: smaller positive values are float rounding, not edges.
EDGE_EPSILON = 1e-12
#: Per-shoe opportunity counts are histogrammed up to this (the last bin holds this many or more).
_HIST_CAP = 64
_RESULT_VERSION = 1


# --------------------------------------------------------------------- helpers
def wilson_interval(successes, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for binomial proportions (vectorised; NaN where ``trials`` is 0).

    >>> lo, hi = wilson_interval(0, 1000)
    >>> float(lo), round(float(hi), 5)
    (0.0, 0.00383)
    """
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    z = scipy.stats.norm.ppf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        lo, hi = np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
    return np.where(n > 0, lo, np.nan), np.where(n > 0, hi, np.nan)


def _ratio_interval(sum_a, sum_t, sum_aa, sum_at, sum_tt, n, confidence: float = 0.95):
    """Ratio ``sum(A) / sum(T)`` over ``n`` independent shoes with a delta-method interval.

    ``Var(R) ~ Var(A - R T) / (n mean(T)^2)``; the interval is clipped to [0, 1].
    """
    z = scipy.stats.norm.ppf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = sum_a / sum_t
        resid = (sum_aa - 2 * r * sum_at + r * r * sum_tt) / n  # mean of (A - R T)^2; mean of A - R T is 0
        se = np.sqrt(np.maximum(resid, 0) / (n - 1)) / (sum_t / n)
        lo, hi = np.clip(r - z * se, 0, 1), np.clip(r + z * se, 0, 1)
    ok = sum_t > 0
    return np.where(ok, r, np.nan), np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def linear_variance(
    cards_left: Iterable[int] | int, decks: int = 8, bets: Sequence[Bet] | None = None, rules: Rules = Rules()
) -> np.ndarray:
    """Variance of each bet's exact EV over random ``n``-card subsets of a full shoe, to first order.

    The fundamental theorem of card counting (Thorp and Walden 1973), with the
    effects of removal of the full shoe (:func:`toolkit.eor.effect_of_removal`,
    by rank so that the pair bets see ranks).

    Derivation.  Let the full shoe hold ``N`` cards, ``N_c`` of kind ``c``
    (``p_c = N_c / N``), with expectation ``E_0`` and effects of removal
    ``e_c = E(full - c) - E_0``.  Model the expectation of a subset ``S`` of
    ``n`` cards as the *average* of a value attached to each card,
    ``E(S) ~ (1/n) sum_{x in S} b_x`` (linear in the proportions of each kind,
    which is what the expectation depends on to first order).  The full shoe
    gives ``E_0 = sum_c p_c b_c``, and one card of kind ``c`` removed gives
    ``E_0 + e_c = (N E_0 - b_c) / (N - 1)``, so ``b_c = E_0 - (N - 1) e_c``.
    A random subset of ``n`` cards is a sample without replacement, and the
    variance of a sample mean without replacement is
    ``sigma^2 / n * (N - n) / (N - 1)`` with ``sigma^2 = sum_c p_c (b_c - E_0)^2``.
    Hence::

        Var[E(S)] ~ (N - n) / (n (N - 1)) * (N - 1)^2 * [sum_c p_c e_c^2 - (sum_c p_c e_c)^2]

    (``sum_c p_c e_c = 0`` exactly: burning a random card changes nothing.)
    The spread grows like ``1/n`` as the shoe is depleted, the content of the
    theorem.  Counting removed cards with constant effects instead
    (``E ~ E_0 + sum_c r_c e_c``, ``r`` the removed counts) gives
    ``n (N - n) / (N - 1) * sum_c p_c e_c^2``: the same at ``n = N - 1`` but
    wrongly vanishing at the end of the shoe.  Both are first-order pictures;
    the real variance departs from them when few cards are left (the
    expectation is then far from linear in the proportions), which is what
    :meth:`StudyResult.variance` shows.  Bets whose effects of removal are all
    zero (the pair bets, symmetric in the ranks) have no first-order spread:
    their variance is all non-linear and the prediction is 0.

    Parameters
    ----------
    cards_left
        One or many subset sizes ``n`` (1..N).
    decks, bets, rules
        The full shoe, the bets (default: the standard panel) and their rules.

    Returns
    -------
    numpy.ndarray
        ``(len(cards_left), len(bets))`` predicted variances.

    Examples
    --------
    >>> v = linear_variance([415, 208], bets=[get_bet("banker")])
    >>> bool(v[1, 0] > v[0, 0])
    True
    """
    from toolkit.cards import Composition
    from toolkit.eor import effect_of_removal

    bets = tuple(standard_bets(rules) if bets is None else bets)
    n = np.atleast_1d(np.asarray(list(cards_left) if not np.isscalar(cards_left) else [cards_left], dtype=float))
    total = 52 * decks
    if np.any((n < 1) | (n > total)):
        raise ValueError(f"cards_left must be 1..{total} for {decks} decks, got {n.min():g}..{n.max():g}")
    table = effect_of_removal(Composition.from_decks(decks), bets=bets, rules=rules, by="rank")
    out = np.empty((len(n), len(bets)))
    for j, bet in enumerate(bets):
        rows = table.filter(pl.col("bet") == bet.name)
        p = rows["count"].to_numpy() / total
        e = rows["eor"].to_numpy()
        second = np.sum(p * e * e)
        sigma2 = (total - 1) ** 2 * (second - np.sum(p * e) ** 2)
        if sigma2 <= 1e-9 * (total - 1) ** 2 * second:  # equal effects (the pair bets): rounding, not spread
            sigma2 = 0.0
        out[:, j] = (total - n) / (n * (total - 1)) * sigma2
    return out


# ---------------------------------------------------------------- the study
@dataclass(frozen=True)
class ThorpStudy:
    """What to deal and evaluate (a value; :func:`run_study` runs it).

    Parameters
    ----------
    shoes
        Number of shoes.
    seed
        Root seed: block ``i`` of ``block_size`` shoes uses child ``i`` of
        ``SeedSequence(seed)``.  ``None`` draws fresh entropy, recorded in
        ``seed`` so that the run can be repeated and resumed.
    dealing
        The dealing procedure (decks, burn, cut card, last hand).
    rules
        Pay rules of the panel (commission, tie payout); the tableau must be the dealing's.
    bets
        Bets or names of standard bets; default: the whole standard panel.
    observers
        ``"unseen"`` (the perfect counter) and/or ``"remaining"``.
    jacobson_depths
        Unseen-card counts at which the last cards of every shoe are evaluated
        for Player and Banker (Jacobson's setting).
    block_size
        Shoes per block (part of what a seed means: keep it fixed to compare runs).
    """

    shoes: int = 3000
    seed: int | None = None
    dealing: Dealing = field(default_factory=Dealing)
    rules: Rules = field(default_factory=Rules)
    bets: tuple[Bet, ...] | None = None
    observers: tuple[str, ...] = ("unseen",)
    jacobson_depths: tuple[int, ...] = JACOBSON_DEPTHS
    block_size: int = DEFAULT_BLOCK_SIZE

    def __post_init__(self) -> None:
        if isinstance(self.shoes, bool) or not isinstance(self.shoes, (int, np.integer)) or self.shoes < 1:
            raise ValueError(f"ThorpStudy.shoes must be a positive integer, got {self.shoes!r}")
        object.__setattr__(self, "shoes", int(self.shoes))
        if self.seed is None:
            object.__setattr__(self, "seed", int(np.random.SeedSequence().entropy))
        elif isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) or self.seed < 0:
            raise ValueError(f"ThorpStudy.seed must be a non-negative integer or None, got {self.seed!r}")
        object.__setattr__(self, "seed", int(self.seed))
        if not isinstance(self.dealing, Dealing):
            raise TypeError(f"ThorpStudy.dealing must be a Dealing, not {type(self.dealing).__name__}")
        if not isinstance(self.rules, Rules):
            raise TypeError(f"ThorpStudy.rules must be a Rules, not {type(self.rules).__name__}")
        if self.rules.tableau != self.dealing.tableau:
            raise ValueError(
                f"ThorpStudy: the rules' tableau ({self.rules.tableau.name}) differs from the dealing's "
                f"({self.dealing.tableau.name}); the expectations must use the tableau the shoes are dealt by"
            )
        bets = (
            standard_bets(self.rules)
            if self.bets is None
            else tuple(get_bet(b, self.rules) if isinstance(b, str) else b for b in self.bets)
        )
        for bet in bets:
            if not isinstance(bet, Bet):
                raise TypeError(f"ThorpStudy.bets holds {type(bet).__name__} {bet!r}; give Bets or panel names")
        names = [b.name for b in bets]
        if not bets or len(set(names)) != len(names):
            raise ValueError(f"ThorpStudy.bets must be a non-empty list of distinct bets, got {names}")
        object.__setattr__(self, "bets", bets)
        observers = (self.observers,) if isinstance(self.observers, str) else tuple(self.observers)
        if not observers or len(set(observers)) != len(observers) or any(o not in OBSERVERS for o in observers):
            raise ValueError(f"ThorpStudy.observers must be distinct names among {OBSERVERS}, got {observers}")
        object.__setattr__(self, "observers", tuple(o for o in OBSERVERS if o in observers))
        depths = tuple(int(d) for d in self.jacobson_depths)
        if any(not 6 <= d <= self.dealing.cards for d in depths):
            raise ValueError(f"ThorpStudy.jacobson_depths must be 6..{self.dealing.cards} cards, got {depths}")
        object.__setattr__(self, "jacobson_depths", depths)
        if isinstance(self.block_size, bool) or not isinstance(self.block_size, int) or self.block_size < 1:
            raise ValueError(f"ThorpStudy.block_size must be a positive integer, got {self.block_size!r}")

    @property
    def bet_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bets)  # type: ignore[union-attr]

    @property
    def n_blocks(self) -> int:
        return -(-self.shoes // self.block_size)

    def blocks(self) -> list[Block]:
        """The plan: blocks of shoes, each with its own seed."""
        return block_plan(self.shoes, self.block_size, self.seed)

    def fingerprint(self) -> dict[str, Any]:
        """A JSON-able description: two studies with equal fingerprints give identical results."""
        dealing = {f.name: getattr(self.dealing, f.name) for f in fields(Dealing) if f.name != "tableau"}
        tableau = self.dealing.tableau
        return {
            "version": _RESULT_VERSION,
            "shoes": self.shoes,
            "seed": self.seed,
            "block_size": self.block_size,
            "dealing": dealing,
            "tableau": {"name": tableau.name, "player": tableau.player, "banker": tableau.banker},
            "bets": {b.name: _digest(b) for b in self.bets},  # type: ignore[union-attr]
            "observers": list(self.observers),
            "jacobson_depths": list(self.jacobson_depths),
        }

    def _spec(self) -> _BlockSpec:
        bets = self.bets  # type: ignore[assignment]
        jac = (get_bet("player", self.rules), get_bet("banker", self.rules))
        return _BlockSpec(
            dealing=self.dealing,
            payoffs=np.array([b.payoff_array for b in bets]),
            jacobson_payoffs=np.array([b.payoff_array for b in jac]),
            observers=self.observers,
            jacobson_depths=self.jacobson_depths,
            bet_names=self.bet_names,
        )


def _digest(bet: Bet) -> str:
    """A short fingerprint of a bet's exact pay table."""
    import hashlib

    return hashlib.sha256(",".join(str(p) for p in bet.payoffs).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class _BlockSpec:
    """The light, picklable part of a study that a worker needs (pay tables as float arrays)."""

    dealing: Dealing
    payoffs: np.ndarray = field(repr=False)
    jacobson_payoffs: np.ndarray = field(repr=False)
    observers: tuple[str, ...]
    jacobson_depths: tuple[int, ...]
    bet_names: tuple[str, ...]


@lru_cache(maxsize=8)
def _evaluator_cached(payoff_bytes: bytes, shape: tuple[int, int], tableau):
    from toolkit.engine import CompiledBets

    return CompiledBets(np.frombuffer(payoff_bytes).reshape(shape), tableau)


def _evaluator(payoffs: np.ndarray, tableau):
    """The batched EV evaluator of a pay table (built once per process)."""
    return _evaluator_cached(np.ascontiguousarray(payoffs, dtype=np.float64).tobytes(), payoffs.shape, tableau)


# ---------------------------------------------------------------- the tally
class Tally:
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

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.arrays = arrays

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

    def merged(self, other: Tally) -> Tally:
        """The sum of two tallies (maxima: the larger)."""
        if self.arrays.keys() != other.arrays.keys():
            raise ValueError("cannot merge tallies of different studies (their arrays differ)")
        out = {}
        for key, a in self.arrays.items():
            b = other.arrays[key]
            if a.shape != b.shape:
                raise ValueError(f"cannot merge tallies of different studies: {key} is {a.shape} and {b.shape}")
            out[key] = np.maximum(a, b) if key.startswith("max_") else a + b
        return Tally(out)

    def equals(self, other: Tally) -> bool:
        """Bit-for-bit equality of every array."""
        return self.arrays.keys() == other.arrays.keys() and all(
            np.array_equal(a, other.arrays[k]) for k, a in self.arrays.items()
        )


@numba.njit(cache=True)
def _tally_coups(
    ev, depth, shoe, ev0, in_region, positive, sum_dev, sum_dev2, sum_gain, max_ev, shoe_opp, shoe_gain, eps
):  # pragma: no cover - compiled
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
class _BlockOutput:
    tally: Tally
    seconds: dict[str, float]
    records: pl.DataFrame | None
    coups: int


def _jacobson_tally(shoes: np.ndarray, spec: _BlockSpec, tally: Tally) -> None:
    evaluate = _evaluator(spec.jacobson_payoffs, spec.dealing.tableau)
    a = tally.arrays
    for j, depth in enumerate(spec.jacobson_depths):
        ev = evaluate(_rank_counts(shoes[:, shoes.shape[1] - depth :]))
        a["jac_positive"][j] = (ev > EDGE_EPSILON).sum(axis=0)
        a["jac_sum"][j] = ev.sum(axis=0)
        a["jac_sum2"][j] = (ev * ev).sum(axis=0)
        a["jac_gain"][j] = np.where(ev > EDGE_EPSILON, ev, 0.0).sum(axis=0)
        a["max_jac"][j] = ev.max(axis=0) if len(ev) else -np.inf


def _study_block(block: Block, spec: _BlockSpec, records: bool = False, coups: bool = True) -> _BlockOutput:
    """Deal, evaluate and tally one block of shoes (runs in a worker)."""
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
            evaluate = _evaluator(spec.payoffs, dealing.tableau)
            full = np.full((1, 13), 4 * dealing.decks)
            ev0 = evaluate(full)[0]
            comps = {"unseen": dealt.unseen, "remaining": dealt.remaining() if "remaining" in spec.observers else None}
            evs = {o: evaluate(comps[o].astype(np.int64)) for o in spec.observers}
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
    return _BlockOutput(tally, seconds, frame, n_coups)


def _tally_dealt(dealt, evs: dict[str, np.ndarray], ev0: np.ndarray, spec: _BlockSpec, tally: Tally) -> None:
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
            a["positive"][o],
            a["sum_dev"][o],
            a["sum_dev2"][o],
            a["sum_gain"][o],
            a["max_ev"][o],
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


def _records_frame(dealt, evs: dict[str, np.ndarray], spec: _BlockSpec) -> pl.DataFrame:
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


# --------------------------------------------------------------- checkpoints
_CHECKPOINT = "checkpoint.npz"


def _save_checkpoint(folder: Path, study: ThorpStudy, tally: Tally, done: int, seconds: dict[str, float]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (_CHECKPOINT + ".tmp")
    meta = json.dumps({"fingerprint": study.fingerprint(), "blocks_done": done, "seconds": seconds})
    with open(tmp, "wb") as fh:
        np.savez(fh, __meta__=np.array(meta), **tally.arrays)
    os.replace(tmp, folder / _CHECKPOINT)


def _load_checkpoint(folder: Path, study: ThorpStudy) -> tuple[Tally, int, dict[str, float]] | None:
    path = folder / _CHECKPOINT
    if not path.is_file():
        return None
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["__meta__"]))
        arrays = {k: data[k] for k in data.files if k != "__meta__"}
    saved = json.loads(json.dumps(meta["fingerprint"]))
    wanted = json.loads(json.dumps(study.fingerprint()))
    if saved != wanted:
        differ = sorted(k for k in wanted if saved.get(k) != wanted.get(k))
        raise ValueError(
            f"{path} was written by a different study (differs in: {', '.join(differ)}); "
            "resume with the same options, or start afresh (--no-resume / resume=False)"
        )
    expected = Tally.empty(
        len(study.observers), len(study.bet_names), study.dealing.cards + 1, len(study.jacobson_depths)
    )
    if {k: v.shape for k, v in arrays.items()} != {k: v.shape for k, v in expected.arrays.items()}:
        raise ValueError(f"{path} holds arrays of another layout (another toolkit version?); start afresh")
    return Tally(arrays), int(meta["blocks_done"]), dict(meta.get("seconds", {}))


def checkpoint_seed(folder: str | os.PathLike) -> int | None:
    """The seed of the study checkpointed in ``folder`` (``None`` when there is no checkpoint)."""
    path = Path(folder) / _CHECKPOINT
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            return int(json.loads(str(data["__meta__"]))["fingerprint"]["seed"])
    except (OSError, KeyError, ValueError) as err:
        raise ValueError(f"{path} is not a readable study checkpoint ({err}); remove it or start afresh") from None


# -------------------------------------------------------------------- running
def run_study(
    study: ThorpStudy,
    workers: int | None = 1,
    scheduler: str | Any | None = None,
    progress: bool = True,
    checkpoint: str | os.PathLike | None = None,
    resume: bool = True,
    checkpoint_every: int = 10,
    records: str | os.PathLike | None = None,
    on_block: Callable[[int, int], None] | None = None,
) -> StudyResult:
    """Run a study block by block, streaming, with optional checkpoints and per-coup records.

    Parameters
    ----------
    study
        What to deal and evaluate.
    workers
        Local worker processes (``None``: every core); ignored with ``scheduler``.
    scheduler
        Address of a Dask distributed scheduler, or a ``distributed.Client``.
    progress
        A tqdm bar over shoes with the time left.
    checkpoint
        A folder: the tally and the number of finished blocks are saved there
        (``checkpoint.npz``) every ``checkpoint_every`` blocks, at the end and
        when interrupted.  With ``resume=True`` a run picks up where a run of
        the same study stopped; the result is the same as an uninterrupted run.
    records
        A folder for per-coup output: one Parquet file per block
        (``part-000000.parquet``...) with shoe, coup, cards unseen and left,
        and every EV (``ev_<bet>``, ``ev_remaining_<bet>``); a fresh run
        (not resumed) first removes the parts already there.
    on_block
        Called as ``on_block(blocks_done, n_blocks)`` after each block is merged.

    Returns
    -------
    StudyResult
    """
    if checkpoint_every < 1:
        raise ValueError(f"checkpoint_every must be at least 1 block, got {checkpoint_every}")
    plan = study.blocks()
    folder = Path(checkpoint) if checkpoint is not None else None
    spec = study._spec()
    tally = Tally.empty(len(study.observers), len(study.bets), study.dealing.cards + 1, len(study.jacobson_depths))  # type: ignore[arg-type]
    done, seconds = 0, {"deal": 0.0, "ev": 0.0, "aggregate": 0.0, "jacobson": 0.0}
    if folder is not None and resume:
        loaded = _load_checkpoint(folder, study)
        if loaded is not None:
            tally, done, seconds = loaded
    record_dir = Path(records) if records is not None else None
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
        if done == 0:  # a fresh run: parts left by an earlier run would be mixed in
            for old in record_dir.glob("part-*.parquet"):
                old.unlink()
    start = time.perf_counter()
    coups = 0
    since_save = 0
    fn = partial(_study_block, spec=spec, records=record_dir is not None)
    if scheduler is None and done < len(plan):
        # build the evaluators here: forked worker processes inherit them instead of each building its own
        _evaluator(spec.payoffs, spec.dealing.tableau)
        _evaluator(spec.jacobson_payoffs, spec.dealing.tableau)
    try:
        for output in map_blocks(fn, plan[done:], workers, scheduler, progress, "thorp study"):
            index = done
            if record_dir is not None and output.records is not None:
                output.records.write_parquet(record_dir / f"part-{index:06d}.parquet")
            tally = tally.merged(output.tally)
            done += 1
            coups += output.coups
            for key, value in output.seconds.items():
                seconds[key] = seconds.get(key, 0.0) + value
            since_save += 1
            if folder is not None and since_save >= checkpoint_every:
                _save_checkpoint(folder, study, tally, done, seconds)
                since_save = 0
            if on_block is not None:
                on_block(done, len(plan))
    finally:
        if folder is not None and since_save:
            _save_checkpoint(folder, study, tally, done, seconds)
    wall = time.perf_counter() - start
    return StudyResult(study, tally, blocks_done=done, wall_seconds=wall, coups_this_run=coups, seconds=seconds)


def jacobson_setting(
    shoes: int = 100_000,
    seed: int | None = None,
    depths: Sequence[int] = JACOBSON_DEPTHS,
    dealing: Dealing = Dealing(),
    rules: Rules = Rules(),
    workers: int | None = 1,
    scheduler: str | Any | None = None,
    progress: bool = True,
    block_size: int = DEFAULT_BLOCK_SIZE,
) -> pl.DataFrame:
    """Jacobson's computer-perfect setting alone: exact Player and Banker edges with ``depths`` unseen cards.

    The same shoes as a :class:`ThorpStudy` of the same seed (the last ``n``
    cards of each shuffled shoe), without dealing the coups, so it gives the
    same numbers as ``run_study(...).jacobson()``.

    >>> t = jacobson_setting(200, seed=1, depths=(18,), progress=False)
    >>> t.select("unseen", "bet", "samples").rows()
    [(18, 'player', 200), (18, 'banker', 200)]
    """
    study = ThorpStudy(
        shoes=shoes,
        seed=seed,
        dealing=dealing,
        rules=rules,
        bets=("banker",),
        jacobson_depths=tuple(depths),
        block_size=block_size,
    )
    fn = partial(_study_block, spec=study._spec(), coups=False)
    tally = Tally.empty(1, 1, dealing.cards + 1, len(study.jacobson_depths))
    for output in map_blocks(fn, study.blocks(), workers, scheduler, progress, "jacobson setting"):
        tally = tally.merged(output.tally)
    return StudyResult(study, tally, blocks_done=study.n_blocks).jacobson()


# --------------------------------------------------------------------- results
@dataclass(frozen=True)
class StudyResult:
    """The tally of a study and the tables derived from it (polars frames).

    ``blocks_done < study.n_blocks`` when the run was interrupted (then the
    tables cover the shoes of the finished blocks).
    """

    study: ThorpStudy
    tally: Tally = field(repr=False)
    blocks_done: int = 0
    wall_seconds: float = 0.0
    coups_this_run: int = 0
    seconds: dict[str, float] = field(default_factory=dict, repr=False)

    @property
    def complete(self) -> bool:
        return self.blocks_done >= self.study.n_blocks

    @property
    def n_shoes(self) -> int:
        return int(self.tally.arrays["shoes"][0])

    @property
    def n_hands(self) -> int:
        return int(self.tally.arrays["hands"][0].sum())

    @property
    def full_shoe_ev(self) -> np.ndarray:
        """The exact EV of each bet from the full shoe (the shift of the sums)."""
        evaluate = _evaluator(np.array([b.payoff_array for b in self.study.bets]), self.study.dealing.tableau)
        return evaluate(np.full((1, 13), 4 * self.study.dealing.decks))[0]

    def _grid(self) -> pl.DataFrame:
        """Every (observer, bet, unseen) cell with hands, in long form."""
        a = self.tally.arrays
        obs, bets = self.study.observers, self.study.bet_names
        n_o, n_b, n_d = a["positive"].shape
        hands = a["hands"]
        ev0 = self.full_shoe_ev
        o_idx, b_idx, d_idx = (x.ravel() for x in np.meshgrid(range(n_o), range(n_b), range(n_d), indexing="ij"))
        return pl.DataFrame(
            {
                "observer": np.array(obs)[o_idx],
                "bet": np.array(bets)[b_idx],
                "unseen": d_idx.astype(np.int32),
                "hands": hands[o_idx, d_idx],
                "positive": a["positive"].ravel(),
                "sum_dev": a["sum_dev"].ravel(),
                "sum_dev2": a["sum_dev2"].ravel(),
                "sum_gain": a["sum_gain"].ravel(),
                "max_ev": a["max_ev"].ravel(),
                "ev_full_shoe": ev0[b_idx],
            }
        ).filter(pl.col("hands") > 0)

    @staticmethod
    def _stats(frame: pl.DataFrame) -> pl.DataFrame:
        """Hands, P(EV > 0) with its Wilson interval, mean and SD of EV, mean positive EV, gain, largest EV."""
        lo, hi = wilson_interval(frame["positive"].to_numpy(), frame["hands"].to_numpy())
        n = pl.col("hands").cast(pl.Float64)
        mean_dev = pl.col("sum_dev") / n
        var = ((pl.col("sum_dev2") - n * mean_dev * mean_dev) / (n - 1)).clip(lower_bound=0)
        return frame.with_columns(
            p_positive=pl.col("positive") / n,
            p_low=pl.Series(lo),
            p_high=pl.Series(hi),
            mean_ev=pl.col("ev_full_shoe") + mean_dev,
            sd_ev=pl.when(pl.col("hands") > 1).then(var.sqrt()),
            mean_positive_ev=pl.when(pl.col("positive") > 0).then(pl.col("sum_gain") / pl.col("positive")),
            gain_per_hand=pl.col("sum_gain") / n,
            max_ev=pl.col("max_ev"),
        )

    _COLUMNS = (
        "hands",
        "positive",
        "p_positive",
        "p_low",
        "p_high",
        "mean_ev",
        "sd_ev",
        "mean_positive_ev",
        "gain_per_hand",
        "max_ev",
    )

    def by_unseen(self) -> pl.DataFrame:
        """One row per observer, bet and exact number of unseen cards (where hands were dealt).

        Columns: ``observer, bet, unseen, hands, positive, p_positive, p_low,
        p_high`` (95 % Wilson interval), ``mean_ev, sd_ev, mean_positive_ev``
        (mean EV when positive), ``gain_per_hand`` (E[max(EV, 0)], the perfect
        bettor's gain per hand), ``max_ev``.
        """
        return self._stats(self._grid()).select("observer", "bet", "unseen", *self._COLUMNS)

    def by_bucket(self, upper_bounds: Sequence[int] = DEFAULT_BUCKETS) -> pl.DataFrame:
        """The same statistics in buckets of unseen cards (``bucket`` labels such as ``"21-30"``)."""
        edges, lows, labels = _buckets(upper_bounds, self.study.dealing.cards)
        grid = self._grid()
        index = np.searchsorted(np.array(edges), grid["unseen"].to_numpy(), side="left")
        grid = grid.with_columns(
            bucket=pl.Series(np.array(labels)[index]),
            unseen_low=pl.Series(np.array(lows)[index]).cast(pl.Int32),
            unseen_high=pl.Series(np.array(edges)[index]).cast(pl.Int32),
        )
        summed = grid.group_by("observer", "bet", "bucket", "unseen_low", "unseen_high").agg(
            pl.col("hands").sum(),
            pl.col("positive").sum(),
            pl.col("sum_dev").sum(),
            pl.col("sum_dev2").sum(),
            pl.col("sum_gain").sum(),
            pl.col("max_ev").max(),
            pl.col("ev_full_shoe").first(),
        )
        out = self._stats(summed).select("observer", "bet", "bucket", "unseen_low", "unseen_high", *self._COLUMNS)
        order = {o: i for i, o in enumerate(self.study.observers)} | {b: i for i, b in enumerate(self.study.bet_names)}
        return out.sort(
            pl.col("observer").replace_strict(order, return_dtype=pl.Int32),
            pl.col("bet").replace_strict(order, return_dtype=pl.Int32),
            "unseen_low",
        )

    def cumulative(self) -> pl.DataFrame:
        """Cumulative shares by depth: of hands, positive opportunities and gain dealt with at most ``unseen`` cards."""
        grid = self._grid().sort("observer", "bet", "unseen")
        over = ["observer", "bet"]
        return grid.select(
            "observer",
            "bet",
            "unseen",
            share_hands_within=pl.col("hands").cum_sum().over(over) / pl.col("hands").sum().over(over),
            share_positive_within=pl.col("positive").cum_sum().over(over) / pl.col("positive").sum().over(over),
            share_gain_within=pl.col("sum_gain").cum_sum().over(over) / pl.col("sum_gain").sum().over(over),
        ).with_columns(pl.col("share_positive_within", "share_gain_within").fill_nan(None))

    def claims(self, confidence: float = 0.95) -> pl.DataFrame:
        """The claim made measurable, one row per observer and bet.

        Columns: ``hands, positive_hands, p_positive`` (per hand);
        ``shoes_with_edge`` (share of shoes with at least one);
        ``opportunities_per_shoe`` and ``gain_per_shoe`` (the perfect bettor
        betting one unit whenever EV > 0) with standard errors over shoes;
        ``mean_positive_ev``; for each region of :data:`REGIONS`:
        ``share_hands_<region>`` (the baseline: the share of all hands dealt
        there), ``share_positive_<region>`` and ``share_gain_<region>`` with
        ``_low``/``_high`` bounds (delta method over shoes);
        ``deepest_edge`` (most unseen cards with an edge);
        ``depth_one_in_a_million`` (the smallest depth beyond which edges are
        rarer than one in a million hands, point estimate) and
        ``depth_one_in_a_million_upper`` (the same using the upper Wilson bound
        of the rate: null when there are too few hands to show it);
        ``max_ev`` and ``max_ev_unseen``.
        """
        a = self.tally.arrays
        n_shoes = self.n_shoes
        rows = []
        for o, observer in enumerate(self.study.observers):
            hands_by_depth = a["hands"][o]
            total_hands = int(hands_by_depth.sum())
            for b, bet in enumerate(self.study.bet_names):
                pos = a["positive"][o, b]
                ss, ss2, cross = a["shoe_sum"][o, b], a["shoe_sum2"][o, b], a["shoe_cross"][o, b]
                n_pos = int(pos.sum())
                mx = a["max_ev"][o, b]
                row: dict[str, Any] = {
                    "observer": observer,
                    "bet": bet,
                    "shoes": n_shoes,
                    "hands": total_hands,
                    "positive_hands": n_pos,
                    "p_positive": n_pos / total_hands if total_hands else None,
                    "shoes_with_edge": int(a["shoes_positive"][o, b]) / n_shoes if n_shoes else None,
                }
                for q, name in enumerate(("opportunities_per_shoe", "gain_per_shoe")):
                    mean = ss[q, -1] / n_shoes
                    var = (ss2[q, -1] - n_shoes * mean * mean) / max(n_shoes - 1, 1)
                    row[name] = float(mean)
                    row[name + "_se"] = float(np.sqrt(max(var, 0) / n_shoes))
                row["mean_positive_ev"] = float(a["sum_gain"][o, b].sum() / n_pos) if n_pos else None
                for r, region in enumerate(REGIONS):
                    lo_d, hi_d = REGIONS[region]
                    region_hands = hands_by_depth[lo_d : hi_d + 1].sum()
                    row[f"share_hands_{region}"] = float(region_hands / total_hands) if total_hands else None
                    for q, name in enumerate(("positive", "gain")):
                        share, lo, hi = _ratio_interval(
                            ss[q, r], ss[q, -1], ss2[q, r], cross[q, r], ss2[q, -1], n_shoes, confidence
                        )
                        row[f"share_{name}_{region}"] = _float(share)
                        row[f"share_{name}_{region}_low"] = _float(lo)
                        row[f"share_{name}_{region}_high"] = _float(hi)
                depths = np.flatnonzero(pos)
                row["deepest_edge"] = int(depths.max()) if len(depths) else None
                point, upper = _one_in_a_million(pos, hands_by_depth, confidence)
                row["depth_one_in_a_million"] = point
                row["depth_one_in_a_million_upper"] = upper
                seen = hands_by_depth > 0
                row["max_ev"] = float(mx[seen].max()) if seen.any() else None
                row["max_ev_unseen"] = int(np.flatnonzero(seen)[np.argmax(mx[seen])]) if seen.any() else None
                rows.append(row)
        return pl.DataFrame(rows, infer_schema_length=None)

    def per_shoe(self) -> pl.DataFrame:
        """How many shoes had 0, 1, 2, ... positive opportunities (the last row: 64 or more)."""
        a = self.tally.arrays["opportunity_hist"]
        rows = [
            {"observer": obs, "bet": bet, "opportunities": k, "shoes": int(a[o, b, k])}
            for o, obs in enumerate(self.study.observers)
            for b, bet in enumerate(self.study.bet_names)
            for k in range(a.shape[2])
        ]
        return pl.DataFrame(rows)

    def _observer_index(self, observer: str) -> int:
        if observer not in self.study.observers:
            raise ValueError(f"observer {observer!r} is not in this study (it has {', '.join(self.study.observers)})")
        return self.study.observers.index(observer)

    def variance(self, observer: str = "unseen") -> pl.DataFrame:
        """The fundamental theorem checked: variance of the exact EV by the number of cards it is computed from.

        The composition an observer evaluates before a coup is (nearly) a
        random subset of the full shoe of that size, so its variance across
        shoes is what :func:`linear_variance` predicts to first order.

        Columns: ``bet, unseen, hands, mean_ev, ev_full_shoe, var_ev`` (across
        hands, one per shoe at most, so across shoes), ``var_linear`` (the
        first-order prediction), ``ratio`` (``var_ev / var_linear``; null for
        bets with no first-order spread, the pair bets) and ``ratio_se`` (its
        standard error were EV normal: ``ratio * sqrt(2 / (hands - 1))``).
        """
        self._observer_index(observer)
        stats = self._stats(self._grid()).filter((pl.col("observer") == observer) & (pl.col("hands") > 1))
        depths = np.arange(1, self.study.dealing.cards + 1)
        predicted = linear_variance(depths, self.study.dealing.decks, self.study.bets, self.study.rules)  # type: ignore[arg-type]
        pred = pl.DataFrame(
            {
                "bet": np.repeat(np.array(self.study.bet_names), len(depths)),
                "unseen": np.tile(depths, len(self.study.bet_names)).astype(np.int32),
                "var_linear": predicted.T.ravel(),
            }
        )
        out = stats.join(pred, on=["bet", "unseen"], how="left").with_columns(var_ev=pl.col("sd_ev") ** 2)
        return out.select(
            "bet",
            "unseen",
            "hands",
            "mean_ev",
            "ev_full_shoe",
            "var_ev",
            "var_linear",
            ratio=pl.when(pl.col("var_linear") > 0).then(pl.col("var_ev") / pl.col("var_linear")),
        ).with_columns(ratio_se=pl.col("ratio") * (2 / (pl.col("hands") - 1)).sqrt())

    def variance_by_bucket(
        self, upper_bounds: Sequence[int] = DEFAULT_BUCKETS, observer: str = "unseen"
    ) -> pl.DataFrame:
        """:meth:`variance` pooled in buckets of cards: ``ratio = sum((h - 1) var_ev) / sum((h - 1) var_linear)``."""
        table = self.variance(observer)
        edges, lows, labels = _buckets(upper_bounds, self.study.dealing.cards)
        index = np.searchsorted(np.array(edges), table["unseen"].to_numpy(), side="left")
        weight = pl.col("hands") - 1
        return (
            table.with_columns(
                bucket=pl.Series(np.array(labels)[index]),
                unseen_low=pl.Series(np.array(lows)[index]).cast(pl.Int32),
                unseen_high=pl.Series(np.array(edges)[index]).cast(pl.Int32),
            )
            .group_by("bet", "bucket", "unseen_low", "unseen_high")
            .agg(
                hands=pl.col("hands").sum(),
                sd_ev=((weight * pl.col("var_ev")).sum() / weight.sum()).sqrt(),
                sd_linear=((weight * pl.col("var_linear")).sum() / weight.sum()).sqrt(),
                ratio=(weight * pl.col("var_ev")).sum() / (weight * pl.col("var_linear")).sum(),
            )
            .with_columns(
                pl.when(pl.col("sd_linear") > 0).then(pl.col("ratio")).alias("ratio"),
                unseen_mid=(pl.col("unseen_low") + pl.col("unseen_high")) / 2,
            )
            .sort(pl.col("bet").replace_strict({b: i for i, b in enumerate(self.study.bet_names)}), "unseen_low")
        )

    def jacobson(self, confidence: float = 0.95) -> pl.DataFrame:
        """Jacobson's setting: P(EV > 0) for Player and Banker with exactly ``unseen`` cards unseen.

        Columns: ``unseen, bet, samples, positive, p_positive, p_low, p_high,
        mean_ev, mean_positive_ev`` (the average edge when betting only when
        positive), ``max_ev``.
        """
        a = self.tally.arrays
        n = self.n_shoes
        rows = []
        for j, depth in enumerate(self.study.jacobson_depths):
            for k, bet in enumerate(("player", "banker")):
                pos = int(a["jac_positive"][j, k])
                lo, hi = wilson_interval(pos, n, confidence)
                rows.append(
                    {
                        "unseen": depth,
                        "bet": bet,
                        "samples": n,
                        "positive": pos,
                        "p_positive": pos / n if n else None,
                        "p_low": _float(lo),
                        "p_high": _float(hi),
                        "mean_ev": float(a["jac_sum"][j, k] / n) if n else None,
                        "mean_positive_ev": float(a["jac_gain"][j, k] / pos) if pos else None,
                        "max_ev": float(a["max_jac"][j, k]) if n else None,
                    }
                )
        return pl.DataFrame(rows, infer_schema_length=None)

    def beyond(self, depth: int, bets: Sequence[str] = ("player", "banker"), observer: str = "unseen") -> pl.DataFrame:
        """Hands and positive hands with more than ``depth`` unseen cards, per bet, with a Wilson interval."""
        o = self._observer_index(observer)
        a = self.tally.arrays
        hands = int(a["hands"][o, depth + 1 :].sum())
        rows = []
        for bet in bets:
            b = self.study.bet_names.index(bet)
            pos = int(a["positive"][o, b, depth + 1 :].sum())
            lo, hi = wilson_interval(pos, hands)
            rate = pos / hands if hands else None
            rows.append(
                {
                    "bet": bet,
                    "beyond": depth,
                    "hands": hands,
                    "positive": pos,
                    "rate": rate,
                    "rate_low": _float(lo),
                    "rate_high": _float(hi),
                }
            )
        return pl.DataFrame(rows, infer_schema_length=None)


def _buckets(upper_bounds: Sequence[int], top: int) -> tuple[list[int], list[int], list[str]]:
    bounds = sorted({int(b) for b in upper_bounds})
    edges = [b for b in bounds if b < top] + [top]
    lows = [0] + [e + 1 for e in edges[:-1]]
    return edges, lows, [f"{lo}-{hi}" for lo, hi in zip(lows, edges, strict=True)]


def _float(x) -> float | None:
    v = float(np.asarray(x))
    return None if np.isnan(v) else v


def _one_in_a_million(positive: np.ndarray, hands: np.ndarray, confidence: float) -> tuple[int | None, int | None]:
    """Smallest depth ``d`` such that, beyond every ``d' >= d``, the rate of edges is below 1e-6."""
    beyond_pos = np.cumsum(positive[::-1])[::-1]  # at index d: hands with unseen >= d
    beyond_hands = np.cumsum(hands[::-1])[::-1]
    # rate beyond d (unseen > d) is beyond_*[d + 1]
    pos_gt = np.append(beyond_pos[1:], 0)
    hands_gt = np.append(beyond_hands[1:], 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(hands_gt > 0, pos_gt / hands_gt, 0.0)
    _, upper = wilson_interval(pos_gt, hands_gt, confidence)
    upper = np.where(hands_gt > 0, upper, 0.0)

    def first_from_end(ok: np.ndarray) -> int | None:
        bad = np.flatnonzero(~ok)
        if not len(bad):
            return 0
        d = int(bad.max()) + 1
        return d if d < len(ok) else None

    point = first_from_end(rate < 1e-6)
    bound = first_from_end(upper < 1e-6)
    if bound is not None and hands_gt[bound] == 0:
        bound = None  # nothing dealt beyond: no evidence either way
    return point, bound


def records_frame(folder: str | os.PathLike) -> pl.LazyFrame:
    """The per-coup records a run wrote to ``folder`` (lazily: scan, filter, then collect)."""
    path = Path(folder)
    if not any(path.glob("part-*.parquet")):
        raise FileNotFoundError(f"no per-coup records (part-*.parquet) in {path}")
    return pl.scan_parquet(path / "part-*.parquet")
