"""The statistics of detection: the within-shoe permutation test and the corrections for testing many seats.

:func:`within_shoe_permutation` asks whether a seat's stakes follow the edge:
its statistic is ``sum(stake * (edge - the shoe's mean edge))`` over the coups
of the shoes the seat played (a coup it did not bet has stake 0), and its null
distribution shuffles the edges among each shoe's coups, so each shoe keeps
its number of bets and its stakes.  For a seat whose bets are exchangeable
within the shoe and ignore the cards (a flat random bettor) the test is exact:
its p-value is uniform on the grid ``1/(n+1), ..., 1``.

:func:`adjust` corrects the p-values of many seats and bets: Holm's step-down
(family-wise error, any dependence) or Benjamini-Hochberg (false discovery rate).

>>> import numpy as np
>>> edges = np.array([0.1, -0.1, 0.2, -0.2, 0.0, 0.05])
>>> stakes = np.array([5.0, 0.0, 5.0, 0.0, 0.0, 0.0])
>>> test = within_shoe_permutation(edges, stakes, np.zeros(6, dtype=int), 999, seed=1)
>>> round(test.statistic, 3), abs(test.p_value - 1 / 15) < 0.03  # 1 of the 15 pairs of coups sums as high
(1.417, True)
>>> adjust([0.01, 0.04, 0.03], "holm").round(3).tolist()
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from toolkit.parallel import SeedLike, as_generator

__all__ = ["CORRECTIONS", "PermutationTest", "adjust", "within_shoe_permutation"]

#: The multiple-testing corrections :func:`adjust` knows.
CORRECTIONS = ("holm", "bh", "none")

#: Permuted statistics drawn at a time (bounds the memory: chunk x coups floats).
_CHUNK_CELLS = 4_000_000


class PermutationTest(NamedTuple):
    """The within-shoe permutation test of one seat on one bet.

    Attributes
    ----------
    statistic
        ``sum(stake * (edge - the shoe's mean edge))``.
    p_value
        One-sided Monte Carlo p-value ``(1 + k) / (1 + n)`` over ``n`` shufflings (NaN when ``n`` is 0).
    z
        The statistic over its exact standard deviation under the shufflings (its mean is 0).
    p_normal
        The normal tail of ``z``: the permutation distribution's large-sample approximation
        (a sum of independent shoes), which resolves p-values below ``1 / (1 + n)``.
    """

    statistic: float
    p_value: float
    z: float
    p_normal: float


def within_shoe_permutation(
    edges: np.ndarray, stakes: np.ndarray, shoe: np.ndarray, permutations: int, seed: SeedLike = None
) -> PermutationTest:
    """The statistic and one-sided p-values of the within-shoe permutation test.

    Under the shufflings, shoe ``s`` of ``n`` coups adds a term of mean 0 and variance
    ``sum((a - mean a)^2) * sum(e^2) / (n - 1)`` (``e`` its centred edges, ``a`` its
    stakes; the variance of a linear permutation statistic), independently of the
    other shoes, so ``z`` is the statistic over the root of their sum.

    Parameters
    ----------
    edges
        The exact edge before each coup (expected value per unit of the bet).
    stakes
        The seat's stake on the bet at each coup (0 where it did not bet).
    shoe
        The shoe of each coup (any integer labels).
    permutations
        Shufflings drawn.
    seed
        Where the shufflings come from (see :func:`toolkit.parallel.as_generator`).

    Returns
    -------
    PermutationTest
        The statistic, the Monte Carlo p-value ``(1 + k) / (1 + permutations)`` (``k`` the
        shufflings whose statistic is at least as large), ``z`` and its normal p-value.

    References
    ----------
    P. Good, *Permutation, Parametric, and Bootstrap Tests of Hypotheses*, 3rd ed., Springer (2005),
    section 3.7 (tests within blocks); B. Phipson and G. K. Smyth, "Permutation p-values should never be
    zero", *Stat. Appl. Genet. Mol. Biol.* 9 (2010), for ``(1 + k) / (1 + n)``.
    """
    gen = as_generator(seed)
    edges = np.asarray(edges, dtype=np.float64)
    stakes = np.asarray(stakes, dtype=np.float64)
    labels, shoe_index = np.unique(np.asarray(shoe), return_inverse=True)
    order = np.argsort(shoe_index, kind="stable")
    edges, stakes, shoe_index = edges[order], stakes[order], shoe_index[order]
    sizes = np.bincount(shoe_index, minlength=len(labels))
    means = np.bincount(shoe_index, weights=edges, minlength=len(labels)) / np.maximum(sizes, 1)
    centred = edges - means[shoe_index]
    observed = float(stakes @ centred)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    permutations = int(permutations)
    if permutations < 0:
        raise ValueError(f"permutations must be 0 or more, got {permutations}")
    permuted = np.zeros(permutations)
    for length in np.unique(sizes) if permutations else ():
        chosen = [s for s in np.flatnonzero(sizes == length) if stakes[starts[s] : starts[s] + length].any()]
        if length < 2 or not chosen:
            continue
        index = starts[chosen][:, None] + np.arange(length)
        e, a = centred[index], stakes[index]
        chunk = max(1, _CHUNK_CELLS // e.size)
        for first in range(0, permutations, chunk):
            n = min(chunk, permutations - first)
            block = np.broadcast_to(e, (n, *e.shape)).copy()
            gen.permuted(block, axis=2, out=block)
            permuted[first : first + n] += np.einsum("psl,sl->p", block, a)
    from scipy.stats import norm

    tolerance = 1e-9 * max(1.0, float(np.abs(stakes).sum()) * float(np.abs(centred).max(initial=0.0)))
    exceed = int(np.count_nonzero(permuted >= observed - tolerance))
    p_value = (1 + exceed) / (1 + permutations) if permutations else float("nan")
    stake_means = np.bincount(shoe_index, weights=stakes, minlength=len(labels)) / np.maximum(sizes, 1)
    spread = np.bincount(shoe_index, weights=(stakes - stake_means[shoe_index]) ** 2, minlength=len(labels))
    energy = np.bincount(shoe_index, weights=centred**2, minlength=len(labels))
    variance = float(np.sum(np.where(sizes > 1, spread * energy / np.maximum(sizes - 1, 1), 0.0)))
    if variance <= 0:
        return PermutationTest(observed, p_value, float("nan"), 1.0)
    z = observed / np.sqrt(variance)
    return PermutationTest(observed, p_value, float(z), float(norm.sf(z)))


def adjust(p_values: Sequence[float] | np.ndarray, method: str = "holm") -> np.ndarray:
    """P-values corrected for testing them together: ``"holm"``, ``"bh"`` (Benjamini-Hochberg) or ``"none"``.

    NaN p-values (a seat with nothing to test) stay NaN and are not counted.

    References
    ----------
    S. Holm, "A simple sequentially rejective multiple test procedure", *Scand. J. Statist.* 6 (1979) 65-70;
    Y. Benjamini and Y. Hochberg, "Controlling the false discovery rate", *J. R. Statist. Soc. B* 57 (1995)
    289-300 (through :func:`scipy.stats.false_discovery_control`).
    """
    from scipy.stats import false_discovery_control

    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}; known corrections: {', '.join(CORRECTIONS)}")
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if not ok.any() or method == "none":
        out[ok] = p[ok]
        return out
    if method == "bh":
        out[ok] = false_discovery_control(p[ok], method="bh")
        return out
    values = p[ok]
    m = len(values)
    order = np.argsort(values, kind="stable")
    stepped = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * values[order]))
    held = np.empty(m)
    held[order] = stepped
    out[ok] = held
    return out
