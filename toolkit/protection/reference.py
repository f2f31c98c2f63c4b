"""The fresh-shoe test: a seat's stakes in each shoe against the edges of freshly shuffled shoes.

Shuffling the edges among a shoe's coups (:func:`~toolkit.protection.permutation.within_shoe_permutation`)
is exact only when the seat's stakes are exchangeable within the shoe.  The edge
before each coup is a random walk, and a progression bettor's stakes come in
runs (a Martingale doubles after every loss), so two series that are each
autocorrelated correlate by chance more often than shuffling either one admits:
the within-shoe test flags an honest Martingale player several times more often
than its significance says.

Under the hypothesis that the seat's stakes ignore the cards, the edges of the
shoes it played are draws from the law of a randomly shuffled shoe under the same
dealing and house rules, independent of its stakes.  So the statistic
``sum(stake * (edge - the shoe's mean edge))`` is compared with its values when
each of the seat's stake sequences (by coup number) meets the edges of a shoe drawn
from a pool of freshly shuffled ones (:func:`reference_shoes`, :func:`fresh_shoe_test`):
a Monte Carlo test whose null keeps every stake sequence whole, runs and all.  Its
normal twin uses the pool's mean and covariance of the edges by coup number.

The test assumes the shoes were shuffled at random and dealt as the record's header
says (the cut card, the burn); the within-shoe test assumes neither.

References
----------
G. A. Barnard, discussion of "The spectral analysis of point processes", *J. R. Statist. Soc. B* 25 (1963) 294
(Monte Carlo tests); G. U. Yule, "Why do we sometimes get nonsense-correlations between time-series?",
*J. R. Statist. Soc.* 89 (1926) 1-63 (autocorrelated series).

>>> from toolkit.records import ShoeHeader
>>> pool = reference_shoes(ShoeHeader(), ["banker"], 50, seed=1)
>>> pool["banker"].shape[0], bool(np.allclose(pool["banker"].edges.sum(axis=1), 0))
(50, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from toolkit.parallel import SeedLike, as_generator
from toolkit.protection.permutation import PermutationTest
from toolkit.records import ShoeHeader, replay_records, simulate_records

__all__ = ["MAX_REFERENCE", "Pool", "centred_matrix", "fresh_shoe_test", "reference_shoes"]

#: Reference edges drawn at a time (bounds the memory: chunk x shoes x coups floats).
_CHUNK_CELLS = 4_000_000
#: The most shoes of a reference pool (the command's ``MAX_REFERENCE_SHOES``, the same number, tested): each is
#: replayed with exact edges (about 10 ms a shoe on one core, so minutes) and kept as one row of floats per bet
#: (under 1 KB); 10**6 was hours and 80 GB of replayed frames.
MAX_REFERENCE = 20_000
#: Reference shoes replayed at once: the replay's frame (about 80 KB a shoe) is dropped after each block.
_REFERENCE_BLOCK = 500


def centred_matrix(shoe: np.ndarray, coup: np.ndarray, edges: np.ndarray, n_shoes: int, length: int) -> np.ndarray:
    """``(n_shoes, length)`` edges by shoe row and coup number (from 1), centred per shoe; 0 where none is known."""
    out = np.zeros((n_shoes, length))
    ok = ~np.isnan(edges)
    out[shoe[ok], coup[ok] - 1] = edges[ok]
    known = np.zeros((n_shoes, length), dtype=bool)
    known[shoe[ok], coup[ok] - 1] = True
    means = out.sum(axis=1) / np.maximum(known.sum(axis=1), 1)
    return np.where(known, out - means[:, None], 0.0)


@dataclass(frozen=True)
class Pool:
    """The centred edges of freshly shuffled shoes for one bet, ``(shoes, coups)``, with their mean and covariance."""

    edges: np.ndarray
    mean: np.ndarray = field(init=False, repr=False, compare=False)
    cov: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mean = self.edges.mean(axis=0)
        deviations = self.edges - mean
        object.__setattr__(self, "mean", mean)
        object.__setattr__(self, "cov", deviations.T @ deviations / max(len(self.edges) - 1, 1))

    @property
    def shape(self) -> tuple[int, int]:
        """``(shoes, coups)``."""
        rows, columns = self.edges.shape
        return rows, columns

    def padded(self, length: int) -> Pool:
        """The pool over ``length`` coups (coups past a shoe's end have edge 0)."""
        return self if self.edges.shape[1] >= length else Pool(_pad(self.edges, length))


def reference_shoes(header: ShoeHeader, bets: Sequence[str], n_shoes: int, seed: SeedLike = None) -> dict[str, Pool]:
    """The centred edges of ``n_shoes`` freshly shuffled shoes dealt by ``header``, by bet (a :class:`Pool` each)."""
    if isinstance(n_shoes, bool) or not isinstance(n_shoes, (int, np.integer)) or not 2 <= n_shoes <= MAX_REFERENCE:
        raise ValueError(f"reference must be 2 to {MAX_REFERENCE:,} freshly shuffled shoes, got {n_shoes!r}")
    records = simulate_records(n_shoes, header, seed=as_generator(seed))
    ids = records.shoe_ids
    blocks: dict[str, list[np.ndarray]] = {b: [] for b in bets}
    for start in range(0, len(ids), _REFERENCE_BLOCK):  # each shoe is centred on its own: blocks change nothing
        part = records.select(ids[start : start + _REFERENCE_BLOCK])
        frame = replay_records(part, bets=list(bets))
        shoe = np.searchsorted(part.shoes["shoe"].to_numpy(), frame["shoe"].to_numpy())
        coup = frame["coup"].to_numpy().astype(np.int64)
        length = int(coup.max()) if len(coup) else 1
        for b in bets:
            edges = frame[f"ev_{b}"].to_numpy().astype(float)
            blocks[b].append(centred_matrix(shoe, coup, edges, part.n_shoes, length))
    longest = max(m.shape[1] for parts in blocks.values() for m in parts)
    return {b: Pool(np.concatenate([_pad(m, longest) for m in parts])) for b, parts in blocks.items()}


def _pad(matrix: np.ndarray, length: int) -> np.ndarray:
    return matrix if matrix.shape[1] >= length else np.pad(matrix, ((0, 0), (0, length - matrix.shape[1])))


def fresh_shoe_test(
    groups: Sequence[tuple[np.ndarray, np.ndarray, Pool]], draws: int, seed: SeedLike = None
) -> PermutationTest:
    """The statistic and p-values of the fresh-shoe test (see the module notes).

    Parameters
    ----------
    groups
        ``(stakes, edges, reference)`` per rule set: the seat's stakes and the centred edges of its shoes,
        ``(shoes, coups)`` by coup number (0 where it did not bet, or the edge is unknown), and the
        reference pool (:func:`reference_shoes`).
    draws
        Monte Carlo draws (0: the normal approximation only).
    seed
        Where the draws come from.

    Returns
    -------
    PermutationTest
        The statistic, the Monte Carlo p-value ``(1 + k) / (1 + draws)``, ``z`` (the statistic less its
        mean over the pool, over its standard deviation) and its normal tail.
    """
    from scipy.stats import norm

    gen = as_generator(seed)
    observed, mean, variance = 0.0, 0.0, 0.0
    drawn = np.zeros(draws)
    for stakes, edges, reference in groups:
        length = max(stakes.shape[1], reference.shape[1])
        a, e, pool = _pad(stakes, length), _pad(edges, length), reference.padded(length)
        ref = pool.edges
        observed += float(np.sum(a * e))
        mean += float((a @ pool.mean).sum())
        variance += float(np.sum((a @ pool.cov) * a))
        chunk = max(1, _CHUNK_CELLS // max(a.size, 1))
        for first in range(0, draws, chunk):
            n = min(chunk, draws - first)
            picks = gen.integers(len(ref), size=(n, len(a)))
            drawn[first : first + n] += np.einsum("bsl,sl->b", ref[picks], a)
    tolerance = 1e-9 * max(1.0, abs(observed))
    p_value = (1 + int(np.count_nonzero(drawn >= observed - tolerance))) / (1 + draws) if draws else float("nan")
    if variance <= 0:
        return PermutationTest(observed, p_value, float("nan"), 1.0)
    z = (observed - mean) / np.sqrt(variance)
    return PermutationTest(observed, p_value, float(z), float(norm.sf(z)))
