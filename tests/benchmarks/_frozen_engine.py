"""Today's batched kernel, frozen: the baseline that ``engine.py`` measures the engine against.

A verbatim copy of the batched float path of ``toolkit/exact/engine.py`` as it stood before the event
kernel (commit 20a152e): 8,008 falling-factorial features per shoe, built 32 shoes at a time and
projected in the same compiled loop on an 11-column basis of the bets (QR with column pivoting).
Benchmark-only: nothing in the package or the tests imports it.  Call
``FrozenBets(payoffs, tableau)(ranks)`` with the same arguments as ``toolkit.exact.engine.CompiledBets``.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
import scipy.linalg

from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.outcome import N_MAIN
from toolkit.coup.rules import Tableau
from toolkit.exact._tables import coup_table, ext_pair_states, ext_to_main, multisets

_BLOCK = 32  # shoes per feature block: keeps the block (8,008 x 32 floats) in cache


# --------------------------------------------------------------------- features
@numba.njit(cache=False, nogil=True)
def _features_t(values, parent, factor, out):  # pragma: no cover - compiled
    """out[j, b] = prod_v (n_v)_(m_v) / (N)_k for multiset j and shoe b (see _tables).

    Built parent to child: multiset j is its parent with one more card of value v,
    of which the parent already holds h, at size s of the parent, so
    ``out[j] = out[parent[j]] * (n_v - h) / (N - s)``.  ``factor[j]`` indexes the
    table of those ratios, ``(v * 7 + h) * 7 + s``; shoes run along the inner,
    vectorised axis.
    """
    rows = values.shape[0]
    table = np.empty((490, rows))
    for b in range(rows):
        total = 0
        for v in range(10):
            total += values[b, v]
        for v in range(10):
            for h in range(7):
                for s in range(7):
                    den = total - s
                    table[(v * 7 + h) * 7 + s, b] = (values[b, v] - h) / den if den > 0 else 0.0
    for b in range(rows):
        out[0, b] = 1.0
    for j in range(1, parent.shape[0]):
        p = parent[j]
        f = factor[j]
        for b in range(rows):
            out[j, b] = out[p, b] * table[f, b]


@numba.njit(cache=False, nogil=True)
def _project(values, parent, factor, basis, coef, block):  # pragma: no cover - compiled
    """``F @ basis @ coef`` for every shoe (row of ``values``) without materialising all of ``F``.

    Features are built ``block`` shoes at a time (:func:`_features_t`) and
    projected on the basis columns straight away, in the same compiled loop, so
    no BLAS call (and no BLAS threading, which is slow on small products on a
    busy machine) is involved.
    """
    rows = values.shape[0]
    m, r = basis.shape
    n_out = coef.shape[1]
    out = np.zeros((rows, n_out))
    scratch = np.empty((m, block))
    acc = np.empty((r, block))
    part = np.empty((r, block))
    for start in range(0, rows, block):
        stop = min(start + block, rows)
        width = stop - start
        feats = scratch[:, :width]
        _features_t(values[start:stop], parent, factor, feats)
        acc[:, :width] = 0.0
        for chunk in range(0, m, 256):  # partial sums over chunks: rounding grows with the chunk, not all of m
            part[:, :width] = 0.0
            for j in range(chunk, min(chunk + 256, m)):
                for c in range(r):
                    w = basis[j, c]
                    if w != 0.0:
                        for b in range(width):
                            part[c, b] += w * feats[j, b]
            for c in range(r):
                for b in range(width):
                    acc[c, b] += part[c, b]
        for b in range(width):
            for k in range(n_out):
                total = 0.0
                for c in range(r):
                    total += acc[c, b] * coef[c, k]
                out[start + b, k] = total
    return out


@lru_cache(maxsize=1)
def _factor_index() -> np.ndarray:
    ms = multisets()
    return (ms.added * 7 + ms.held) * 7 + np.maximum(ms.size - 1, 0)


def _zero_pair_arrays(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    z = ranks[:, 9:13].astype(np.float64)
    total = z.sum(axis=1)
    f2 = z * (z - 1)
    same2 = f2.sum(axis=1)
    num_beta = (f2 * (z - 2) * (z - 3)).sum(axis=1) + same2 * same2 - (f2 * f2).sum(axis=1)
    den2 = total * (total - 1)
    den4 = den2 * (total - 2) * (total - 3)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = np.where(den2 > 0, same2 / np.where(den2 > 0, den2, 1), 0.0)
        beta = np.where(den4 > 0, num_beta / np.where(den4 > 0, den4, 1), 0.0)
    return alpha, beta


def _values_from_ranks(ranks: np.ndarray) -> np.ndarray:
    values = np.zeros((ranks.shape[0], 10), dtype=np.int64)
    for index, value in enumerate(RANK_VALUES):
        values[:, value] += ranks[:, index]
    return values


def pair_probabilities(ranks: np.ndarray) -> np.ndarray:
    """``(B, 4)`` probabilities of (no pair, Banker pair only, Player pair only, both) from rank counts.

    A hand's first two cards form a pair with probability sum_r (n_r)_2 / (N)_2 for either hand;
    both hands with [sum_r (n_r)_4 + sum_{r != s} (n_r)_2 (n_s)_2] / (N)_4.  Column ``2 * pp + bp``.
    """
    n = ranks.astype(np.float64)
    total = n.sum(axis=1)
    f2 = n * (n - 1)
    s2 = f2.sum(axis=1)
    both = (f2 * (n - 2) * (n - 3)).sum(axis=1) + s2 * s2 - (f2 * f2).sum(axis=1)
    both = both / (total * (total - 1) * (total - 2) * (total - 3))
    one = s2 / (total * (total - 1))
    return np.stack([1 - 2 * one + both, one - both, one - both, both], axis=1)


class FrozenBets:
    """A tuple of bets prepared for the batched float path.

    For bet i: ``EV = F @ W0[:, i] + alpha * F @ Wa[:, i] + beta * F @ Wb[:, i]``
    with ``F`` the feature vector of the shoe (see :func:`_features`) and alpha,
    beta the zero-pair odds (:func:`zero_pair_probabilities`).  The columns of
    ``[W0 Wa Wb]`` span few dimensions, so they are reduced once to a basis
    (QR with column pivoting) and each shoe needs only ``F @ basis``.  Bets that
    look only at the pair flags (Player Pair, Banker Pair, Either Pair) are
    closed forms in the rank counts and skip the polynomial.
    """

    def __init__(self, payoffs: np.ndarray, tableau: Tableau) -> None:
        table = coup_table(tableau)
        m = len(multisets().parent)
        n_bets = payoffs.shape[0]
        x = payoffs.reshape(n_bets, N_MAIN, 2, 2)  # [bet, main class, player pair, banker pair]
        reachable = np.unique(ext_to_main(table.ext))
        flags = x[:, reachable]  # (bets, reachable, 2, 2)
        self.pair_only = np.flatnonzero(np.all(flags == flags[:, :1], axis=(1, 2, 3)))
        self.pair_payoffs = x[self.pair_only, reachable[0]].reshape(len(self.pair_only), 4)
        self.general = np.setdiff1d(np.arange(n_bets), self.pair_only)
        self.n_bets = n_bets

        xg = x[self.general]
        main = ext_to_main(table.ext)
        sp, sb = ext_pair_states(table.ext)
        a0 = np.where(sp == 1, 1, 0)  # base flag: pairs of zero-valued cards start as "no pair"
        b0 = np.where(sb == 1, 1, 0)
        w0 = xg[:, main, a0, b0]
        wa = np.zeros_like(w0)
        wb = np.zeros_like(w0)
        only_p = (sp == 2) & (sb != 2)
        only_b = (sb == 2) & (sp != 2)
        both = (sp == 2) & (sb == 2)
        wa[:, only_p] = xg[:, main[only_p], 1, b0[only_p]] - xg[:, main[only_p], 0, b0[only_p]]
        wa[:, only_b] = xg[:, main[only_b], a0[only_b], 1] - xg[:, main[only_b], a0[only_b], 0]
        mb = main[both]
        wa[:, both] = xg[:, mb, 1, 0] + xg[:, mb, 0, 1] - 2 * xg[:, mb, 0, 0]
        wb[:, both] = xg[:, mb, 1, 1] - xg[:, mb, 1, 0] - xg[:, mb, 0, 1] + xg[:, mb, 0, 0]

        def spread(w: np.ndarray) -> np.ndarray:
            out = np.zeros((m, w.shape[0]))
            for i in range(w.shape[0]):
                out[:, i] = np.bincount(table.mset, weights=table.count * w[i], minlength=m)
            return out

        self.alpha_bets = np.flatnonzero(np.any(wa != 0, axis=1))
        self.beta_bets = np.flatnonzero(np.any(wb != 0, axis=1))
        columns = np.concatenate([spread(w0), spread(wa[self.alpha_bets]), spread(wb[self.beta_bets])], axis=1)
        self.basis, self.coef = _column_basis(columns)

    def __call__(self, ranks: np.ndarray) -> np.ndarray:
        out = np.empty((ranks.shape[0], self.n_bets))
        if len(self.pair_only):
            out[:, self.pair_only] = pair_probabilities(ranks) @ self.pair_payoffs.T
        if not len(self.general):
            return out
        ng, na = len(self.general), len(self.alpha_bets)
        ms = multisets()
        values = np.ascontiguousarray(_values_from_ranks(ranks))
        raw = _project(values, ms.parent, _factor_index(), self.basis, self.coef, _BLOCK)
        ev = raw[:, :ng]
        if na or len(self.beta_bets):
            alpha, beta = _zero_pair_arrays(ranks)
            ev[:, self.alpha_bets] += alpha[:, None] * raw[:, ng : ng + na]
            ev[:, self.beta_bets] += beta[:, None] * raw[:, ng + na :]
        out[:, self.general] = ev
        return out


def _column_basis(columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``columns ~= basis @ coef`` with ``basis`` a subset of independent columns (QR, pivoting)."""
    if columns.shape[1] == 0:
        return columns, np.zeros((0, 0))
    _, r, piv = scipy.linalg.qr(columns, mode="economic", pivoting=True)
    diag = np.abs(np.diag(r))
    rank = int(np.sum(diag > diag[0] * 1e-11))
    basis = np.ascontiguousarray(columns[:, piv[:rank]])
    coef = np.linalg.lstsq(basis, columns, rcond=None)[0]
    scale = np.abs(columns).max()
    if np.abs(basis @ coef - columns).max() > 1e-12 * scale:
        return np.ascontiguousarray(columns), np.eye(columns.shape[1])
    return basis, np.ascontiguousarray(coef)
