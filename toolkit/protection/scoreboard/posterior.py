"""The posterior over the unseen cards given a road, by sequential importance sampling with resampling.

Each particle is a composition (counts by rank) with a weight.  At each coup with symbol ``s``:

1. every particle's weight is multiplied by ``P(s | its composition)``, exactly (the engine prices every
   particle at once, :func:`~toolkit.protection.scoreboard.symbols.symbol_probabilities`);
2. when the effective sample size ``(sum w)**2 / sum w**2`` falls below a share of the particles, they are
   resampled, systematically (one uniform, ``N`` evenly spaced points on the weights' cumulative sum), and their
   weights made equal;
3. each particle loses one coup drawn from its composition *given* that it shows ``s``
   (:func:`~toolkit.protection.scoreboard._kernels.deal_given`: rejection, or an exact walk of the coups for
   the rarest symbols).

Weighting by the probability of the symbol and moving given it is the fully adapted filter: the weights do not
depend on the coup drawn, so resampling before the move loses nothing, and every particle stays consistent with
the road.  A particle that cannot show a symbol gets weight zero.

The engine prices every particle's bets too, so :meth:`RoadFilter.price` before a coup says what a counter who sees
only the scoreboard expects each bet to return: the particles' exact expectations averaged by weight (the posterior
mean of the edge, which is the edge given the road).

References
----------
A. Doucet, N. de Freitas and N. Gordon (eds.), *Sequential Monte Carlo Methods in Practice*, Springer (2001), ch. 1;
M. K. Pitt and N. Shephard, "Filtering via simulation: auxiliary particle filters", *J. Amer. Statist. Assoc.* 94
(1999) 590-599 (the fully adapted filter); J. Carpenter, P. Clifford and P. Fearnhead, "Improved particle filter for
nonlinear problems", *IEE Proc. Radar Sonar Navig.* 146 (1999) 2-7 (systematic resampling).

>>> tiny = (2, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 0)
>>> comps, weights = sis_posterior(tiny, [("banker", False, False, True)], particles=50, seed=1)
>>> comps.shape, round(float(weights.sum()), 12)
((50, 13), 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from toolkit._check import positive_int
from toolkit.bets import Bet, expected_values
from toolkit.coup import PUNTO_BANCO, Tableau
from toolkit.coup.step import Tables
from toolkit.exact.engine import CompiledBets, compiled_bets
from toolkit.parallel import SeedLike, as_generator
from toolkit.protection.scoreboard._kernels import deal_given
from toolkit.protection.scoreboard.symbols import SYMBOLS, symbol_bets, symbol_index

__all__ = ["RoadFilter", "sis_posterior", "systematic_resample"]

#: Rejection tries per particle and coup before the exact walk takes over (see ``deal_given``).
MAX_TRIES = 1 << 16
#: A walk's cost in rejection tries per unit of ``walk_size`` (measured): rejection is used when cheaper.
WALK_COST = 16.0


@cache
def _symbol_pricer(target: int, tableau: Tableau) -> CompiledBets:
    """The engine's evaluator of one symbol's probability (built once per symbol: pricing one symbol costs a
    fraction of pricing all 24, and only the symbol shown is needed)."""
    return compiled_bets((symbol_bets()[target],), tableau)


def systematic_resample(weights: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """Indices of ``len(weights)`` particles drawn systematically by ``weights`` (not necessarily normalised).

    Particle ``i`` is drawn ``floor(N w_i)`` or ``ceil(N w_i)`` times (``w`` normalised), ``N w_i`` on average.

    >>> systematic_resample(np.array([0.0, 3.0, 1.0]), np.random.default_rng(0)).tolist()
    [1, 1, 2]
    """
    n = len(weights)
    cum = np.cumsum(weights / weights.sum())
    cum[-1] = 1.0
    return np.searchsorted(cum, (gen.random() + np.arange(n)) / n, side="right")


class RoadFilter:
    """A particle filter over the unseen composition of one shoe, fed the road coup by coup (module notes).

    Parameters
    ----------
    composition
        13 counts by rank before the first coup.
    particles
        Compositions carried.
    seed
        Where every draw comes from.
    tableau
        Drawing rules.
    bets
        Bets to price with the symbols before each coup (:meth:`price`).
    ess
        Resample when the effective sample size falls below this share of the particles.

    Examples
    --------
    >>> f = RoadFilter((32,) * 13, particles=100, seed=1)
    >>> f.observe(("player", False, False, True))
    >>> f.comps.sum(axis=1).max()  # a natural takes four cards
    np.int64(412)
    """

    def __init__(
        self,
        composition: Sequence[int],
        particles: int = 500,
        seed: SeedLike = None,
        tableau: Tableau = PUNTO_BANCO,
        bets: Sequence[Bet] = (),
        ess: float = 0.5,
    ) -> None:
        self.gen = as_generator(seed)
        self.comps = np.tile(np.asarray(composition, dtype=np.int64), (positive_int(particles, "particles"), 1))
        self.logw = np.zeros(len(self.comps))
        self.tableau = tableau
        self.tables = Tables.of(tableau)
        self.bets = tuple(bets)
        self.ess = float(ess)
        self.walk_cost = WALK_COST
        self._prices: np.ndarray | None = None

    @property
    def weights(self) -> np.ndarray:
        """The particles' normalised weights."""
        w = np.exp(self.logw - self.logw.max())
        return w / w.sum()

    def _evaluate(self, price: Callable[[np.ndarray], np.ndarray], width: int) -> np.ndarray:
        """``price`` of every particle's composition (NaN for those too short for a coup), once when all agree."""
        comps = self.comps
        if bool((comps == comps[0]).all()):  # a fresh filter: price one composition
            one = price(comps[:1]) if comps[0].sum() >= 6 else np.full((1, width), np.nan)
            return np.broadcast_to(one, (len(comps), width))
        ok = comps.sum(axis=1) >= 6
        if ok.all():
            return price(comps)
        out = np.full((len(comps), width), np.nan)
        out[ok] = price(comps[ok])
        return out

    def price(self) -> np.ndarray:
        """The posterior expectation of each bet of ``bets`` for the next coup (weights times exact values)."""
        if not self.bets:
            return np.empty(0)
        if self._prices is None:
            bets, tableau = self.bets, self.tableau
            self._prices = self._evaluate(lambda c: expected_values(c, bets, tableau, exact_signs=False), len(bets))
        prices = self._prices
        w = self.weights
        live = (w > 0) & np.isfinite(prices).all(axis=1)  # a particle too short for a coup is not this shoe
        return w[live] @ prices[live] / w[live].sum()

    def observe(self, symbol: Sequence[object] | int) -> None:
        """Take in the next coup's symbol (a tuple or its index): weigh, resample if needed, move."""
        target = symbol if isinstance(symbol, (int, np.integer)) else symbol_index(symbol)
        pricer = _symbol_pricer(int(target), self.tableau)
        p = self._evaluate(lambda c: pricer(c, exact_signs=False), 1)[:, 0]
        p = np.maximum(np.nan_to_num(p, nan=0.0), 0.0)  # the float path may leave a zero a hair below it
        logw = np.where(p > 0, self.logw + np.log(np.where(p > 0, p, 1.0)), -np.inf)
        if not np.isfinite(logw).any():
            raise ValueError(f"no particle can show the road's symbol {SYMBOLS[int(target)]!r}")
        self.logw = logw
        w = self.weights
        if w.sum() ** 2 / (w**2).sum() < self.ess * len(w):
            picks = systematic_resample(w, self.gen)
            self.comps, p = self.comps[picks], p[picks]
            self.logw = np.zeros(len(picks))
        self.comps = np.ascontiguousarray(self.comps)
        p = np.where(np.isfinite(self.logw), p, 0.0)
        cards = deal_given(self.comps, int(target), p, self.walk_cost, MAX_TRIES, self.gen, self.tables)
        self.logw[cards[:, 0] == -2] = -np.inf  # no coup of theirs shows the symbol after all
        if not np.isfinite(self.logw).any():
            raise ValueError(f"no particle can show the road's symbol {SYMBOLS[int(target)]!r}")
        self._prices = None


def sis_posterior(
    composition: Sequence[int],
    road: Sequence[Sequence[object]],
    particles: int = 2000,
    seed: SeedLike = None,
    tableau: Tableau = PUNTO_BANCO,
) -> tuple[np.ndarray, np.ndarray]:
    """The posterior over the unseen cards after ``road``, by sequential importance sampling (:class:`RoadFilter`).

    Parameters
    ----------
    composition
        13 counts by rank before the first coup of the road.
    road
        The symbols shown, ``(winner, player_pair, banker_pair, natural)`` per coup.
    particles
        Compositions carried.
    seed
        Where the draws come from.
    tableau
        Drawing rules.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``(particles, 13)`` compositions and their weights (summing to 1).
    """
    targets = [symbol_index(s) for s in road]
    filt = RoadFilter(composition, particles, seed, tableau)
    for target in targets:
        if filt.comps.sum(axis=1).max() < 6:
            raise ValueError(f"the road has more coups than {sum(composition)} cards can deal")
        filt.observe(target)
    return filt.comps, filt.weights
