"""The exact engine: the distribution of the next coup for any remaining shoe.

Two paths share the tables of :mod:`toolkit.exact._tables`:

* :func:`distribution` with ``exact=True`` works in Python integers and
  returns :class:`fractions.Fraction` probabilities; :func:`combination_counts`
  gives the integer counts in the "ordered six cards" convention of the
  Wizard of Odds tables.
* :func:`distribution` (float) evaluates the same polynomial in float64: a
  numba kernel builds the 8,008 normalised falling-factorial products of the
  shoe, dotted with the table.
* :func:`paytable_expected_values` (many shoes at once) merges the outcome classes on
  which every bet pays the same into events and walks the multiset trie once
  per block of shoes (:mod:`toolkit.exact._kernels`); by default every expectation
  within the float path's error bound of zero is settled exactly
  (:mod:`toolkit.exact._exact_sign`), so signs are never wrong.  ``device="gpu"``
  runs the walk on a CUDA GPU (:mod:`toolkit.exact._gpu`, the ``gpu`` extra).

Both are checked against an independent, deliberately naive enumerator in the
tests (``tests/reference_enumerator.py``).

>>> p = distribution(8, exact=True)
>>> float(sum(p))
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import perm  # falling factorial (n)_k = n! / (n - k)!; 0 when k > n

import numba
import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from toolkit._check import count_matrix, float_counts, one_of
from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.outcome import N_CLASSES, N_MAIN
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.exact._exact_sign import ExactBets, as_exact, general_bounds, int_products, near_rows, pair_bounds
from toolkit.exact._kernels import event_table, pair_rows, pair_split, pay_columns, zero_pair_rows
from toolkit.exact._tables import coup_table, ext_to_main, multisets

#: Where :func:`expected_values` runs its kernel.
DEVICES = ("cpu", "gpu")

__all__ = [
    "Distribution",
    "as_rank_matrix",
    "class_probabilities",
    "combination_counts",
    "distribution",
    "main_probabilities",
    "paytable_expected_values",
    "zero_pair_probabilities",
]


# --------------------------------------------------------------------- features
@numba.njit(cache=True, nogil=True)
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


@lru_cache(maxsize=1)
def _factor_index() -> np.ndarray:
    ms = multisets()
    return (ms.added * 7 + ms.held) * 7 + np.maximum(ms.size - 1, 0)


def _features(values: np.ndarray) -> np.ndarray:
    """``(M, B)`` normalised falling-factorial products for ``(B, 10)`` counts by value."""
    counts = np.ascontiguousarray(float_counts(values))
    ms = multisets()
    out = np.empty((len(ms.parent), counts.shape[0]))
    _features_t(counts, ms.parent, _factor_index(), out)
    return out


# ---------------------------------------------------------------- zero pairs
def zero_pair_probabilities(shoe: CompositionLike, exact: bool = False) -> tuple:
    """``(alpha, beta)`` for the zero-valued cards of a shoe.

    ``alpha``: two zero-valued cards dealt from the shoe share a rank (T, J, Q, K);
    ``beta``: two disjoint pairs of zero-valued cards are both same-rank pairs.
    Zero when too few zero-valued cards remain (those deals then have probability 0).

    Parameters
    ----------
    shoe
        The cards left.
    exact
        Fractions instead of floats.

    Returns
    -------
    tuple
        ``(alpha, beta)``.

    Examples
    --------
    >>> zero_pair_probabilities(1, exact=True)
    (Fraction(1, 5), Fraction(19, 455))
    """
    comp = Composition.from_any(shoe)
    z = comp.by_rank[9:]
    total = sum(z)
    same2 = sum(perm(x, 2) for x in z)
    num_beta = sum(perm(x, 4) for x in z) + same2 * same2 - sum(perm(x, 2) ** 2 for x in z)
    den2, den4 = perm(total, 2), perm(total, 4)
    alpha = Fraction(same2, den2) if den2 else Fraction(0)
    beta = Fraction(num_beta, den4) if den4 else Fraction(0)
    return (alpha, beta) if exact else (float(alpha), float(beta))


# ------------------------------------------------------------ exact and float
def _ext_probabilities(comp: Composition, tableau: Tableau, exact: bool) -> list | np.ndarray:
    table = coup_table(tableau)
    if exact:
        prods = int_products(comp.by_value)
        ms = multisets()
        n = comp.total
        denominators = {k: perm(n, k) for k in (4, 5, 6)}
        out = [Fraction(0)] * (N_MAIN * 9)
        sizes = ms.size.tolist()
        # group by denominator so each class needs one Fraction per size
        by_size: dict[int, list[int]] = {4: [0] * (N_MAIN * 9), 5: [0] * (N_MAIN * 9), 6: [0] * (N_MAIN * 9)}
        for e, j, c in zip(table.ext.tolist(), table.mset.tolist(), table.count.tolist(), strict=True):
            by_size[sizes[j]][e] += c * prods[j]
        for k, acc in by_size.items():
            for e, value in enumerate(acc):
                if value:
                    out[e] += Fraction(value, denominators[k])
        return out
    feats = _features(np.array([comp.by_value]))[:, 0]
    return np.bincount(table.ext, weights=table.count * feats[table.mset], minlength=N_MAIN * 9)


def _ext_to_classes(ext_p, alpha, beta, exact: bool):
    """Spread extended-class probabilities over the 1,600 classes with the zero-pair odds."""
    zero = Fraction(0) if exact else 0.0
    out = [zero] * N_CLASSES
    one = 1
    for e, p in enumerate(ext_p):
        if not p:
            continue
        main, sp, sb = e // 9, (e % 9) // 3, e % 3
        base = main * 4
        p_pairs = {0: [(0, one)], 1: [(1, one)], 2: [(1, alpha), (0, one - alpha)]}
        if sp == 2 and sb == 2:
            spread = [((1, 1), beta), ((1, 0), alpha - beta), ((0, 1), alpha - beta), ((0, 0), one - 2 * alpha + beta)]
        else:
            spread = [((a, b), wa * wb) for a, wa in p_pairs[sp] for b, wb in p_pairs[sb]]
        for (a, b), w in spread:
            if w:
                out[base + 2 * a + b] += p * w
    return out if exact else np.array(out)


class Distribution(NDArrayOperatorsMixin):
    """The probabilities of the 1,600 outcome classes of one shoe's next coup, labelled.

    It prints a few lines (the shoe, the classes that can occur, Banker, Player and Tie) and a
    small table in a notebook; :meth:`frame` gives every class with its fields.  It is still the
    vector it used to be: indexing, iteration, ``len``, ``numpy.asarray`` and arithmetic work on the
    1,600 probabilities (index ``i`` is :func:`toolkit.coup.outcome.class_index`).

    Attributes
    ----------
    probabilities
        A float64 array, or with ``exact`` a list of :class:`~fractions.Fraction`.
    shoe
        The cards left.
    tableau
        The drawing rules.
    exact
        Whether the probabilities are fractions.

    Examples
    --------
    >>> p = distribution(1)
    >>> len(p), float(np.sum(p)), int((p > 0).sum())
    (1600, 1.0, 673)
    """

    __slots__ = ("exact", "probabilities", "shoe", "tableau")

    def __init__(self, probabilities: list | np.ndarray, shoe: Composition, tableau: Tableau, exact: bool) -> None:
        self.probabilities = probabilities
        self.shoe = shoe
        self.tableau = tableau
        self.exact = exact

    def __len__(self) -> int:
        return len(self.probabilities)

    def __getitem__(self, index):
        return self.probabilities[index]

    def __iter__(self):
        return iter(self.probabilities)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        values = np.asarray(self.probabilities, dtype=object if self.exact and dtype is None else dtype)
        return values.copy() if copy else values

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [np.asarray(x) if isinstance(x, Distribution) else x for x in inputs]
        return getattr(ufunc, method)(*plain, **kwargs)

    def sum(self, *args, **kwargs):
        """The total probability (1, or ``Fraction(1)`` when exact); arguments as for :meth:`numpy.ndarray.sum`."""
        if self.exact and not args and not kwargs:
            return sum(self.probabilities, Fraction(0))
        return np.asarray(self).sum(*args, **kwargs)

    def tolist(self) -> list:
        """The 1,600 probabilities as a list."""
        return list(self.probabilities)

    def by_winner(self) -> dict[str, object]:
        """The probabilities that Banker, Player and Tie win the coup."""
        from toolkit.coup.outcome import outcomes

        out: dict[str, object] = dict.fromkeys(("banker", "player", "tie"), Fraction(0) if self.exact else 0.0)
        for q, o in zip(self.probabilities, outcomes(), strict=True):
            if q:
                out[o.winner] += q
        return out

    def frame(self, drop_zero: bool = True):
        """The classes as a polars frame: their fields (:func:`~toolkit.coup.outcome.outcome_frame`) and probability.

        Parameters
        ----------
        drop_zero
            Leave out the classes that cannot occur from this shoe.

        Returns
        -------
        polars.DataFrame
            The outcome fields, ``probability`` (float) and, when exact, ``probability_exact`` (``"n/d"``).
        """
        import polars as pl

        from toolkit.coup.outcome import outcome_frame

        p = self.probabilities
        frame = outcome_frame().with_columns(pl.Series("probability", [float(q) for q in p], dtype=pl.Float64))
        if self.exact:
            frame = frame.with_columns(pl.Series("probability_exact", [str(q) for q in p], dtype=pl.String))
        return frame.filter(pl.col("probability") > 0) if drop_zero else frame

    def _rows(self) -> list[tuple[str, object]]:
        reachable = sum(1 for q in self.probabilities if q)
        rows: list[tuple[str, object]] = [("cards left", self.shoe.total), ("classes that can occur", reachable)]
        labels = {"banker": "P(Banker wins)", "player": "P(Player wins)", "tie": "P(Tie)"}
        rows += [(labels[name], q) for name, q in self.by_winner().items()]
        return [*rows, ("every class", "frame() or numpy.asarray(...)")]

    def _title(self) -> str:
        kind = "exact fractions" if self.exact else "floats"
        return f"Distribution of the next coup: {len(self):,} outcome classes, {kind}"

    def __repr__(self) -> str:
        from toolkit._show import text_table

        return text_table(self._title(), self._rows())

    def _repr_html_(self) -> str:
        from toolkit._show import html_table

        return html_table(self._title(), self._rows())


def distribution(shoe: CompositionLike = 8, tableau: Tableau = PUNTO_BANCO, exact: bool = False) -> Distribution:
    """Probabilities of the 1,600 outcome classes of the next coup.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`Composition.from_any` accepts); at least six.
    tableau
        Drawing rules.
    exact
        ``True``: :class:`~fractions.Fraction` probabilities; ``False``: float64.

    Returns
    -------
    Distribution
        The 1,600 probabilities, labelled: a short print, a notebook table, :meth:`Distribution.frame`;
        indexing, iteration and ``numpy.asarray`` give the probabilities themselves.

    References
    ----------
    The Wizard of Odds (M. Shackleford), "Baccarat Odds for 1 to 12 Decks".

    Examples
    --------
    >>> from toolkit.coup.outcome import outcomes
    >>> p = distribution(8, exact=True)
    >>> tie = sum(q for q, o in zip(p, outcomes()) if o.winner == "tie")
    >>> round(float(tie), 12)
    0.095155968024
    >>> print(p)
    Distribution of the next coup: 1,600 outcome classes, exact fractions
      cards left              416
      classes that can occur  673
      P(Banker wins)          0.458597 (exact)
      P(Player wins)          0.446247 (exact)
      P(Tie)                  0.095156 (exact)
      every class             frame() or numpy.asarray(...)
    """
    comp = Composition.from_any(shoe)
    return Distribution(class_probabilities(comp, tableau, exact), comp, tableau, exact)


def class_probabilities(shoe: CompositionLike = 8, tableau: Tableau = PUNTO_BANCO, exact: bool = False):
    """The 1,600 probabilities of :func:`distribution`, unlabelled: the fast path for loops over shoes.

    Parameters
    ----------
    shoe
        The cards left; at least six.
    tableau
        Drawing rules.
    exact
        ``True``: a list of :class:`~fractions.Fraction`; ``False``: a float64 array.

    Returns
    -------
    list of fractions.Fraction or numpy.ndarray
        Index ``i`` is the class :func:`toolkit.coup.outcome.class_index` numbers ``i``.

    Examples
    --------
    >>> round(float(class_probabilities(8).sum()), 12)
    1.0
    """
    comp = Composition.from_any(shoe)
    comp.require_coup()
    alpha, beta = zero_pair_probabilities(comp, exact=exact)
    return _ext_to_classes(_ext_probabilities(comp, tableau, exact), alpha, beta, exact)


def main_probabilities(shoe: CompositionLike = 8, tableau: Tableau = PUNTO_BANCO, exact: bool = False):
    """Probabilities of the 400 classes without pair flags (index ``class // 4``).

    Parameters
    ----------
    shoe
        The cards left.
    tableau
        Drawing rules.
    exact
        Fractions instead of floats.

    Returns
    -------
    numpy.ndarray or list of fractions.Fraction
        400 probabilities.

    Examples
    --------
    >>> round(float(main_probabilities(8).sum()), 12)
    1.0
    """
    p = class_probabilities(shoe, tableau, exact)
    if exact:
        return [sum(p[4 * i : 4 * i + 4], Fraction(0)) for i in range(N_MAIN)]
    return np.asarray(p).reshape(N_MAIN, 4).sum(axis=1)


def combination_counts(shoe: CompositionLike = 8, tableau: Tableau = PUNTO_BANCO) -> dict[str, int]:
    """Player wins, Banker wins, Tie and Total as integer counts of ordered six-card deals.

    This is the Wizard of Odds convention: every coup is counted as an ordered
    sequence of six cards, used or not, so the total is ``(N)_6``.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`Composition.from_any` accepts).
    tableau
        Drawing rules.

    Returns
    -------
    dict of str to int
        ``player``, ``banker``, ``tie`` and ``total`` counts.

    See Also
    --------
    combination_counts_frame : the same counts as a frame, with probabilities.

    References
    ----------
    The Wizard of Odds, "Baccarat" (the combinations tables).

    Examples
    --------
    >>> combination_counts(1)["tie"]
    1372227328
    """
    comp = Composition.from_any(shoe)
    comp.require_coup()
    table = coup_table(tableau)
    prods = int_products(comp.by_value)
    ms = multisets()
    n = comp.total
    tail = {k: perm(n - k, 6 - k) for k in (4, 5, 6)}
    sizes = ms.size.tolist()
    counts = {"player": 0, "banker": 0, "tie": 0}
    main = ext_to_main(table.ext).tolist()
    for mc, j, c in zip(main, table.mset.tolist(), table.count.tolist(), strict=True):
        pt, bt = mc // 40, (mc // 4) % 10
        key = "player" if pt > bt else "banker" if bt > pt else "tie"
        counts[key] += c * prods[j] * tail[sizes[j]]
    counts["total"] = perm(n, 6)
    return counts


# ------------------------------------------------------------- batched path
def as_rank_matrix(shoes) -> np.ndarray:
    """Normalise many shoes to an ``(B, 13)`` int64 array of counts by rank.

    Accepts an array of shape ``(B, 13)`` (by rank) or ``(B, 10)`` (by value,
    zero-valued cards split evenly over T, J, Q, K), or a sequence of
    composition-like values.

    Parameters
    ----------
    shoes
        An ``(B, 13)`` or ``(B, 10)`` array, or a sequence of composition-like values.

    Returns
    -------
    numpy.ndarray
        ``(B, 13)`` int64 counts by rank.

    Examples
    --------
    >>> as_rank_matrix([8, 1]).sum(axis=1).tolist()
    [416, 52]
    """
    if isinstance(shoes, np.ndarray) and shoes.ndim == 2 and shoes.shape[1] in (10, 13):
        arr = float_counts(count_matrix(shoes, "shoe counts"))
        if arr.shape[1] == 13:
            return arr
        zeros = arr[:, 0]
        split = np.stack([zeros // 4 + (i < zeros % 4) for i in range(4)], axis=1)
        return np.concatenate([arr[:, 1:], split], axis=1)
    return float_counts([Composition.from_any(s).by_rank for s in shoes]).reshape(-1, 13)


def _values_from_ranks(ranks: np.ndarray) -> np.ndarray:
    """``(B, 10)`` counts by value of ``(B, 13)`` counts by rank: the ranks A-9 are the values 1-9, T-K the value 0
    (:data:`toolkit.coup.cards.RANK_VALUES`, in two slices).

    >>> _values_from_ranks(np.arange(13)[None]).tolist()
    [[42, 0, 1, 2, 3, 4, 5, 6, 7, 8]]
    """
    values = np.empty((ranks.shape[0], 10), dtype=np.int64)
    values[:, 0] = ranks[:, 9] + ranks[:, 10] + ranks[:, 11] + ranks[:, 12]  # not a strided sum: 8 times faster
    values[:, 1:] = ranks[:, :9]
    return values


def pair_probabilities(ranks: np.ndarray) -> np.ndarray:
    """``(B, 4)`` probabilities of (no pair, Banker pair only, Player pair only, both) from rank counts.

    A hand's first two cards form a pair with probability sum_r (n_r)_2 / (N)_2 for either hand;
    both hands with [sum_r (n_r)_4 + sum_{r != s} (n_r)_2 (n_s)_2] / (N)_4.  Column ``2 * pp + bp``.

    Parameters
    ----------
    ranks
        ``(B, 13)`` counts by rank.

    Returns
    -------
    numpy.ndarray
        ``(B, 4)`` probabilities; rows sum to 1.

    Examples
    --------
    >>> pair_probabilities(as_rank_matrix([8]))[0].round(6).tolist()
    [0.856183, 0.069118, 0.069118, 0.005581]
    """
    return pair_rows(np.asarray(ranks))


class CompiledBets:
    """A tuple of bets prepared for the batched float path.

    For bet i: ``EV = R0_i + alpha Ra_i + beta Rb_i`` with ``alpha``, ``beta`` the
    zero-pair odds (:func:`zero_pair_probabilities`) and ``R`` linear in the
    probabilities of the outcome classes.  Classes on which every column pays
    the same are merged into *events* and the columns come out of one pass of
    the multiset trie (:mod:`toolkit.exact._kernels`).  Bets that look only at the
    pair flags (Player Pair, Banker Pair, Either Pair) are closed forms in the
    rank counts and skip the polynomial.

    ``bounds[i]`` bounds the rounding error of bet i's float expectation on
    any shoe (:mod:`toolkit.exact._exact_sign`); calls with ``exact_signs=True``
    re-evaluate exactly every expectation within it of zero.  ``exact_payoffs``
    (rows of fractions) are the pay tables the floats stand for; without them
    each float is read as the nearest fraction with denominator at most 10**6.
    """

    def __init__(
        self, payoffs: np.ndarray, tableau: Tableau, exact_payoffs: Sequence[Sequence[Fraction]] | None = None
    ) -> None:
        table = coup_table(tableau)
        n_bets = payoffs.shape[0]
        x = payoffs.reshape(n_bets, N_MAIN, 2, 2)  # [bet, main class, player pair, banker pair]
        reachable = np.unique(ext_to_main(table.ext))
        flags = x[:, reachable]  # (bets, reachable, 2, 2)
        self.pair_only = np.flatnonzero(np.all(flags == flags[:, :1], axis=(1, 2, 3)))
        self.pair_payoffs = x[self.pair_only, reachable[0]].reshape(len(self.pair_only), 4)
        self.general = np.setdiff1d(np.arange(n_bets), self.pair_only)
        self.n_bets = n_bets
        self.tableau = tableau
        self.pair_class = int(reachable[0])
        self._payoffs = payoffs
        self._exact_payoffs = exact_payoffs
        self._exact: ExactBets | None = None

        xg = x[self.general]
        w0, wa, wb = pair_split(xg, table.ext)

        self.alpha_bets = np.flatnonzero(np.any(wa != 0, axis=1))
        self.beta_bets = np.flatnonzero(np.any(wb != 0, axis=1))
        vectors = np.concatenate([w0, wa[self.alpha_bets], wb[self.beta_bets]], axis=0).T  # one row per entry
        self.events = event_table(table.mset, table.count, vectors)

        ng, na = len(self.general), len(self.alpha_bets)
        alpha_pos = {int(k): ng + p for p, k in enumerate(self.alpha_bets)}
        beta_pos = {int(k): ng + na + p for p, k in enumerate(self.beta_bets)}
        parts = [
            [k, *([alpha_pos[k]] if k in alpha_pos else []), *([beta_pos[k]] if k in beta_pos else [])]
            for k in range(ng)
        ]
        self.bounds = np.empty(n_bets)
        if ng:
            ev = self.events
            largest = np.abs(xg).reshape(ng, -1).max(axis=1)
            self.bounds[self.general] = general_bounds(ev.base, ev.delta, ev.largest_event, parts, largest)
        self.bounds[self.pair_only] = pair_bounds(self.pair_payoffs)

    def __call__(self, ranks: np.ndarray, exact_signs: bool = True, device: str = "cpu") -> np.ndarray:
        """``(B, n_bets)`` expectations for ``(B, 13)`` int64 counts by rank (see :func:`paytable_expected_values`)."""
        out = np.empty((ranks.shape[0], self.n_bets))
        if len(self.pair_only):
            out[:, self.pair_only] = pair_probabilities(ranks) @ self.pair_payoffs.T
        if len(self.general):
            ng, na = len(self.general), len(self.alpha_bets)
            values = np.ascontiguousarray(_values_from_ranks(ranks))
            if one_of(device, DEVICES, "device") == "gpu":
                from toolkit.exact._gpu import event_columns

                raw = event_columns(self.events, values)
            else:
                raw = self.events(values)
            alpha, beta = zero_pair_rows(ranks) if na or len(self.beta_bets) else (np.empty(0), np.empty(0))
            pay_columns(raw, ng, self.alpha_bets, self.beta_bets, alpha, beta, self.general, out)
        if exact_signs:
            self.settle_signs(ranks, out)
        return out

    def settle_signs(self, ranks: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Settle in place, exactly, every float expectation ``out`` (of shoes ``ranks``) within its bound of zero;
        return how many per bet (an int array)."""
        rows = near_rows(out, self.bounds)  # one compiled pass; the array-wide tests below run on these rows only
        if not len(rows):
            return np.zeros(self.n_bets, dtype=np.int64)
        ranks, part = ranks[rows], out[rows]
        near = np.abs(part) <= self.bounds
        settled = near.sum(axis=0)
        if self._exact is None:
            exact = self._exact_payoffs
            if exact is None:
                read = {v: as_exact(v) for v in np.unique(self._payoffs).tolist()}
                exact = [[read[v] for v in row] for row in self._payoffs.tolist()]
            self._exact = ExactBets(exact, self.tableau, self)
        zero = self._exact.lattice_zeros(ranks, near)  # exact zeros without integers (see _exact_sign)
        part[zero] = 0.0
        self._exact.settle(ranks, near & ~zero, part)
        out[rows] = part
        return settled


@lru_cache(maxsize=32)
def compiled_bets(bets: tuple, tableau: Tableau = PUNTO_BANCO) -> CompiledBets:
    """The batched evaluator of a tuple of bets (cached: build it once, call it on many blocks)."""
    payoffs = np.array([bet.payoff_array for bet in bets]).reshape(len(bets), N_CLASSES)
    return CompiledBets(payoffs, tableau, [bet.payoffs for bet in bets])


def paytable_expected_values(
    shoes, bets, tableau: Tableau = PUNTO_BANCO, *, exact_signs: bool = True, device: str = "cpu"
) -> np.ndarray:
    """Expected value per unit of every pay-table bet for many shoes at once (float64): the batched engine.

    The evaluator of pay-table bets behind :func:`toolkit.bets.pricing.expected_values`, the one
    public way to price bets of any kind.

    Parameters
    ----------
    shoes
        ``(B, 13)`` counts by rank, ``(B, 10)`` counts by value, or a sequence
        of composition-like values.  Each shoe needs at least six cards.
    bets
        A sequence of :class:`toolkit.bets.paytable.Bet`.
    tableau
        Drawing rules.
    exact_signs
        ``True`` (the default): every expectation within the float path's
        error bound of zero (about 1e-12, see :mod:`toolkit.exact._exact_sign`) is
        re-evaluated in integers, so the sign of every value is exact and an
        expectation that is exactly zero is ``0.0``; costs nothing measurable
        unless many shoes sit on a zero.  ``False``: the plain float path
        (errors below 1e-12, signs of values within that of zero unreliable).
    device
        ``"cpu"`` (the default) or ``"gpu"``: the same kernel on a CUDA GPU
        (needs the ``gpu`` extra, numba-cuda, and a GPU; see :mod:`toolkit.exact._gpu`).

    Returns
    -------
    numpy.ndarray
        ``(B, len(bets))`` expected values.

    References
    ----------
    The Wizard of Odds (M. Shackleford), "Baccarat Odds for 1 to 12 Decks".

    Examples
    --------
    >>> from toolkit.bets.paytable import get_bet
    >>> shoe = (0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 2, 2)  # 5, 7, 9 and four zero-valued cards
    >>> paytable_expected_values([shoe], [get_bet("player")])[0, 0]
    np.float64(0.0)
    """
    ranks = as_rank_matrix(shoes)
    if ranks.shape[0] and ranks.sum(axis=1).min() < 6:
        bad = int(np.argmin(ranks.sum(axis=1)))
        raise ValueError(
            f"shoe {bad} holds {int(ranks[bad].sum())} card(s); a coup may need six (two hands of up to three cards)"
        )
    return compiled_bets(tuple(bets), tableau)(ranks, exact_signs=exact_signs, device=device)
