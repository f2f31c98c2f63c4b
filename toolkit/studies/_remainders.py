"""Every composition of the last ``n`` cards of a shoe, in blocks, with its hypergeometric weight.

The compositions of ``n`` cards over ``K`` kinds (the ten values, or the 13 ranks) with at most
``caps[i]`` cards of kind ``i`` are numbered ``0 .. ways[0, n] - 1`` in lexicographic order, where
``ways[i, m]`` counts the vectors ``(x_i, ..., x_{K-1})``, ``x_j <= caps[j]``, that sum to ``m``.
Composition ``j`` is found from ``j`` alone (:func:`unrank_block`: ``K`` short loops), so a block of
them is made straight into an array, in any worker, without a Python loop per composition.

Weights.  A uniformly random ``n``-subset of a shoe of ``N`` cards holds composition ``x`` with the
multivariate hypergeometric probability ``w(x) = prod_i C(caps_i, x_i) / C(N, n)``.  :func:`weights`
evaluates it in float64 from the correctly rounded binomials: ``K`` rounded factors, ``K - 1``
products, the rounded denominator and one division are ``2K + 1`` roundings, so
``|w^ - w| <= gamma_(2K+1) w <= 30 u w`` for ``K <= 13`` (``u = 2**-53``: :data:`WEIGHT_ERROR`).
A probability summed from these weights (non-negative terms) then errs by at most ``30 u`` of itself
plus the rounding of the sum: one pass within a block of ``B`` compositions (at worst
``(B - 1) u`` relative, whatever the order of summation: 3.6e-12 for the blocks of 32,768 of
:mod:`toolkit.studies.last_cards`, usually far less) and :func:`math.fsum` over blocks (correctly
rounded): below 4e-12 relative, far inside the 1e-9 the figures are quoted to; the tests check it
against exact fractions.

>>> import numpy as np
>>> caps = np.array([4, 4, 4])
>>> ways = way_counts(caps, 3)
>>> int(ways[0, 3])
10
>>> out = np.empty((10, 3), dtype=np.int64)
>>> unrank_block(3, ways, 0, 10, out)
>>> out[:4].tolist()
[[0, 0, 3], [0, 1, 2], [0, 2, 1], [0, 3, 0]]
"""

from __future__ import annotations

from math import comb

import numba
import numpy as np

__all__ = ["WEIGHT_ERROR", "binomial_table", "unrank_block", "way_counts", "weights"]

#: Relative error bound of each float weight (see the module notes): ``30 * 2**-53``.
WEIGHT_ERROR = 30 * 2.0**-53


def way_counts(caps: np.ndarray, n: int) -> np.ndarray:
    """``ways[i, m]``: the vectors ``(x_i, ..., x_{K-1})`` with ``0 <= x_j <= caps[j]`` summing to ``m <= n``.

    Counted in Python integers and returned as int64 (an error if a count reaches ``2**62``).
    """
    k = len(caps)
    ways = [[0] * (n + 1) for _ in range(k + 1)]
    ways[k][0] = 1
    for i in range(k - 1, -1, -1):
        for m in range(n + 1):
            ways[i][m] = sum(ways[i + 1][m - x] for x in range(min(int(caps[i]), m) + 1))
    if ways[0][n] >= 2**62:
        raise ValueError(f"{ways[0][n]:,} compositions of {n} cards: too many to number in 64 bits")
    return np.array(ways, dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def unrank_block(n, ways, first, size, out):  # pragma: no cover - compiled
    """``out[b]`` = composition number ``first + b`` of ``n`` cards, for ``b < size`` (lexicographic order)."""
    k = ways.shape[0] - 1
    for b in range(size):
        index = first + b
        left = n
        for i in range(k):
            x = 0
            while index >= ways[i + 1, left - x]:
                index -= ways[i + 1, left - x]
                x += 1
            out[b, i] = x
            left -= x


def binomial_table(caps: np.ndarray, n: int) -> np.ndarray:
    """``table[i, x] = C(caps[i], x)`` for ``x <= n``, each correctly rounded to float64."""
    return np.array([[float(comb(int(c), x)) for x in range(n + 1)] for c in caps])


def weights(compositions: np.ndarray, table: np.ndarray, total_ways: float) -> np.ndarray:
    """Hypergeometric weights ``prod_i table[i, x_i] / total_ways`` of ``(B, K)`` compositions (module notes)."""
    k = compositions.shape[1]
    w = table[0, compositions[:, 0]].copy()
    for i in range(1, k):
        w *= table[i, compositions[:, i]]
    return w / total_ways
