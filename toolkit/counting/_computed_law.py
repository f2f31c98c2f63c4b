"""The count's law over the seen cards of a shoe, by multiplication (:mod:`toolkit.counting.computed`).

The generating function of (cards seen, running count) over the subsets of a shoe is the product over the count's
tag groups of ``(1 + z w^t)^n``; :class:`_Law` holds the product for the shoe less the most cards of each group a
projection of a coup (and the exposed burn card) can hold, and :func:`_stack` multiplies in the rest for every
projection wanted, depth first over the groups (:func:`_visit`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from toolkit.counting._computed_kernels import copy_band, times_group

__all__: list[str] = []

#: The most cells (cards seen x running counts) of the count's law the method builds.
MAX_CELLS = 4_000_000


@dataclass
class _Law:
    """The count's law over the seen cards of one shoe: tag groups, their sizes and the base product."""

    sizes: np.ndarray  # cards of each group in the shoe
    tags: np.ndarray
    top: np.ndarray  # most cards of each group a coup's projection holds (6, or fewer cards)
    r_min: int
    width: int
    rows: int  # cards + 1
    most: int  # most cards a projection holds (a coup's six, and the exposed burn card)
    base: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0)))
    band: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((2, 0), dtype=np.int64))

    @classmethod
    def build(cls, sizes: np.ndarray, tags: np.ndarray, most: int = 6) -> _Law:
        r_min = int(np.sum(np.minimum(tags, 0) * sizes))
        width = int(np.sum(np.maximum(tags, 0) * sizes)) - r_min + 1
        rows = int(sizes.sum()) + 1
        if rows * width > MAX_CELLS:
            raise ValueError(
                f"the count's running count spans {width:,} values over {rows - 1} cards ({rows * width:,} cells, "
                f"at most {MAX_CELLS:,}): tags too large for the computed method"
            )
        top = np.minimum(sizes, most)
        # the counts d cards of the shoe can reach: from the d lowest tags to the d highest (columns, one past)
        each = np.repeat(tags, sizes)
        low = np.r_[0, np.cumsum(np.sort(each))] - r_min
        high = np.r_[0, np.cumsum(np.sort(each)[::-1])] - r_min + 1
        band = np.stack([low, high]).astype(np.int64)
        base = np.zeros((rows, width))
        base[0, -r_min] = 1.0
        done = 0
        for g in range(len(sizes)):
            for _ in range(int(sizes[g] - top[g])):
                done += 1
                times_group(base, int(tags[g]), done + 1, band)
        return cls(sizes, tags, top, r_min, width, rows, most, base, band)

    def read_band(self, tiny: float) -> np.ndarray:
        """``(2, rows)``: per cards seen, the first and one past the last running count (column) where a start of
        mass ``tiny`` or more may lie in the shoe or in it less one card: the law of the full shoe times ``N / (N -
        d)`` (a card fewer raises no count's probability more) is at least ``tiny / 10`` there; outside, the chain
        reads nothing."""
        full = self.base.copy()
        for g in range(len(self.sizes)):
            for _ in range(int(self.top[g])):
                times_group(full, int(self.tags[g]), self.rows, self.band)
        n = self.rows - 1
        d = np.arange(self.rows)
        law = full / full.sum(axis=1, keepdims=True) * (n / np.maximum(n - d, 1))[:, None]
        heavy = law >= tiny / 10  # every row holds its mode
        return np.stack([heavy.argmax(axis=1), self.width - heavy[:, ::-1].argmax(axis=1)]).astype(np.int64)

    def row_factors(self, n: int) -> np.ndarray:
        """``f[k, d] = 2^-k (n)_k / (n - d)_k``: turns the halved product of a shoe of ``n`` cards less ``k`` into the
        ratio of its law to that shoe's (0 where fewer than ``k`` cards would be left)."""
        d = np.arange(self.rows, dtype=np.float64)
        out = np.zeros((7, self.rows))
        for k in range(7):
            num = math.prod(range(n - k + 1, n + 1)) if k else 1
            den = np.ones(self.rows)
            for i in range(k):
                den = den * (n - d - i)
            ok = d <= n - k
            out[k, ok] = 0.5**k * num / den[ok]
        return out


def _leaves(law: _Law, codes: np.ndarray) -> dict[tuple[int, ...], int]:
    """The projections to build (every ``a`` with a coefficient), by their group counts, mapped to their codes."""
    g = len(law.sizes)
    out = {}
    for code in codes.tolist():
        a = tuple((code // 7**i) % 7 for i in range(g))
        if all(x <= t for x, t in zip(a, law.top.tolist(), strict=True)):
            out[a] = code
    return out


def _visit(law: _Law, buf: np.ndarray, band: np.ndarray, prefix: tuple[int, ...], wanted: set, into) -> None:
    """Depth first over the groups: ``buf`` holds the product for the groups before ``len(prefix)`` and is not
    changed; each child takes ``top - a`` more factors of its group, in place in this group's scratch array (one
    more per step down from the largest ``a`` wanted to the smallest), and a projection of the last group is copied
    to its place in the stack (``into = (stack, index, scratch, keep, cones)``; ``keep``: the first row and the
    columns of each row to copy, or None for all of it).  ``band``: the cells of ``buf`` a child may read (every
    one it can reach when ``cones`` is None; else ``cones[g][m]``, the cells (by row, see :func:`_cones`) group
    ``g``'s product with ``m`` factors still to take must hold for the projections copied)."""
    stack, index, scratch, keep, cones = into
    g = len(prefix)
    top, t = int(law.top[g]), int(law.tags[g])
    values = [a for a in range(top + 1) if (*prefix, a) in wanted]
    if not values:
        return
    last = g == len(law.sizes) - 1
    cur = scratch[g]
    if cones is None:
        np.copyto(cur, buf)
    else:  # only the cells the products read: the rest of the scratch is never read (zero outside the law's band)
        copy_band(buf, cur, 0, cones[g][top - values[0]])
    steps = top - values[0]  # factors this node takes, down to its smallest projection
    for n in range(top - values[-1]):
        times_group(cur, t, cur.shape[0], band if cones is None else cones[g][steps - n - 1])
    for a in range(values[-1], values[0] - 1, -1):
        if a in values:
            if last and keep is None:
                stack[index[(*prefix, a)]] = cur
            elif last:
                copy_band(cur, stack[index[(*prefix, a)]], keep[0], keep[1])
            else:
                _visit(law, cur, band, (*prefix, a), wanted, into)
        if a > values[0]:
            times_group(cur, t, cur.shape[0], band if cones is None else cones[g][a - values[0] - 1])


def _cones(law: _Law, band: np.ndarray, keep: tuple[int, np.ndarray]) -> list[list[np.ndarray]]:
    """``cones[g][m]`` (``(2, rows)`` first and one past the last column per row of a chunk, empty rows ``0, 0``):
    the cells of group ``g``'s product with ``m`` of its factors still to take (and every factor of the later
    groups) that the copied cells (``keep``: rows from ``keep[0]``, the columns ``keep[1]``) depend on, within the
    counts the rows can reach (``band``).  A factor ``(1 + z w^t) / 2`` makes cell ``(i, j)`` of cells ``(i, j)`` and
    ``(i - 1, j - t)``, so each factor to take widens the cone by its shift (a row's span of columns, a superset of
    the cells needed): multiplying only there (:func:`times_group` by this band) leaves the copied cells exactly as
    the whole product would."""
    rows = band.shape[1]
    lo = np.where(np.arange(rows) >= keep[0], np.maximum(keep[1][0], band[0]), 0)
    hi = np.where(np.arange(rows) >= keep[0], np.minimum(keep[1][1], band[1]), 0)
    out: list[list[np.ndarray]] = [[] for _ in law.sizes]
    for g in range(len(law.sizes) - 1, -1, -1):
        t = int(law.tags[g])
        for m in range(int(law.top[g]) + 1):
            if m:  # one factor more: row i also holds what row i + 1 reads of it
                full = lo < hi
                up_lo = np.where(full[1:], lo[1:] - t, lo[:-1])
                up_hi = np.where(full[1:], hi[1:] - t, hi[:-1])
                lo[:-1] = np.where(full[:-1], np.minimum(lo[:-1], up_lo), up_lo)
                hi[:-1] = np.where(full[:-1], np.maximum(hi[:-1], up_hi), up_hi)
                lo, hi = np.maximum(lo, band[0]), np.minimum(hi, band[1])
                lo, hi = np.where(lo < hi, lo, 0), np.where(lo < hi, hi, 0)
            out[g].append(np.ascontiguousarray(np.stack([lo, hi]), dtype=np.int64))
    return out


def _stack(
    law: _Law,
    leaves: list[tuple[int, ...]],
    d0: int,
    d1: int,
    into: np.ndarray | None = None,
    read: np.ndarray | None = None,
):
    """The count's law on rows ``d0 .. d1 - 1`` (cards seen) of the shoe less each projection of ``leaves``, halved
    once per card (see :func:`times_group`), built from the rows of the base product the multiplications need:
    ``(stack (leaves, skip + d1 - d0, counts), skip)``, the first ``skip`` rows of each the ones below ``d0`` the
    products read (written in ``into``'s first rows when given).  With ``read`` (``(2, law.rows)``, from
    :meth:`_Law.read_band`) only the rows from ``d0`` up and those columns are written: the rest is not read."""
    lo = max(0, d0 - int(law.top.sum()))
    index = {a: i for i, a in enumerate(leaves)}
    shape = (len(leaves), d1 - lo, law.width)
    stack = np.zeros(shape) if into is None else into[:, : d1 - lo]
    wanted = {a[:i] for a in leaves for i in range(1, len(a) + 1)}
    scratch = np.empty((len(law.sizes), *shape[1:])) if read is None else np.zeros((len(law.sizes), *shape[1:]))
    base = np.ascontiguousarray(law.base[lo:d1])
    band = np.ascontiguousarray(law.band[:, lo:d1])
    keep = None if read is None else (d0 - lo, np.ascontiguousarray(read[:, lo:d1]))
    cones = None if keep is None else _cones(law, band, keep)
    _visit(law, base, band, (), wanted, (stack, index, scratch, keep, cones))
    return stack, d0 - lo
