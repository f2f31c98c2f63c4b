"""What the engine does around its kernel, in one pass per shoe, against the whole-array formulas it replaced.

The pair probabilities, the zero-pair odds and the bets' columns (a general column plus alpha and beta times its
pair parts) were whole-array numpy expressions; they are now numba loops over the shoes
(:func:`toolkit.exact._kernels.pair_rows`, :func:`~toolkit.exact._kernels.zero_pair_rows`,
:func:`~toolkit.exact._kernels.pay_columns`).  The numpy expressions are kept here as the oracle and the loops
must equal them bit for bit (not within a bound) on shoes of every size, tiny ones with no zero-valued pair
included, and the lattice test's per-total cache must give what it computed before.  The exact-sign pass looks
for its candidates in one compiled pass over the rows (:func:`toolkit.exact._exact_sign.near_rows`) and settles
those rows only: the same numbers as the whole-array tests it replaced.
"""

from __future__ import annotations

from fractions import Fraction
from math import perm

import numpy as np
import pytest
from test_kernels import depleted_shoes

from toolkit.bets.paytable import PayTable, get_bet, standard_bets
from toolkit.exact._exact_sign import near_rows
from toolkit.exact._kernels import pair_rows, pay_columns, zero_pair_rows
from toolkit.exact.engine import _values_from_ranks, compiled_bets


def _pair_probabilities_numpy(ranks: np.ndarray) -> np.ndarray:
    n = ranks.astype(np.float64)
    total = n.sum(axis=1)
    f2 = n * (n - 1)
    s2 = f2.sum(axis=1)
    both = (f2 * (n - 2) * (n - 3)).sum(axis=1) + s2 * s2 - (f2 * f2).sum(axis=1)
    both = both / (total * (total - 1) * (total - 2) * (total - 3))
    one = s2 / (total * (total - 1))
    return np.stack([1 - 2 * one + both, one - both, one - both, both], axis=1)


def _zero_pair_numpy(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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


@pytest.fixture(scope="module")
def shoes() -> np.ndarray:
    rng = np.random.default_rng(3636)
    tiny = np.zeros((40, 13), dtype=np.int64)  # six to nine cards, few or no zero-valued ones
    for row in tiny:
        np.add.at(row, rng.integers(0, 13, size=int(rng.integers(6, 10))), 1)
    return np.concatenate([depleted_shoes(rng, 600), tiny])


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal bit for bit, the sign of a zero included."""
    return a.shape == b.shape and bool(np.all(a.view(np.int64) == b.view(np.int64)))


def test_pair_rows_equal_the_array_formula_bit_for_bit(shoes):
    assert _same(pair_rows(shoes), _pair_probabilities_numpy(shoes))


def test_zero_pair_rows_equal_the_array_formula_bit_for_bit(shoes):
    alpha, beta = zero_pair_rows(shoes)
    expected_alpha, expected_beta = _zero_pair_numpy(shoes)
    assert _same(alpha, expected_alpha)
    assert _same(beta, expected_beta)
    assert (alpha == 0).any()  # the guards and the formula both ran
    assert (beta == 0).any()
    assert (beta > 0).any()


def test_values_by_value_sum_the_four_zero_ranks(shoes):
    values = _values_from_ranks(shoes)
    assert np.array_equal(values[:, 0], shoes[:, 9:13].sum(axis=1))
    assert np.array_equal(values[:, 1:], shoes[:, :9])


def _both_pairs_and_tie(c):
    return 200 if c.player_pair and c.banker_pair and c.player_total == c.banker_total else -1


@pytest.mark.parametrize("side", [False, True])
def test_pay_columns_equal_the_array_formula_bit_for_bit(shoes, side):
    bets = (*standard_bets(), *([PayTable.from_function("both_pairs_and_tie", _both_pairs_and_tie)] if side else []))
    compiled = compiled_bets(bets)
    assert bool(len(compiled.alpha_bets) and len(compiled.beta_bets)) == side  # the panel alone has no pair parts
    raw = compiled.events(np.ascontiguousarray(_values_from_ranks(shoes)))
    ng, na = len(compiled.general), len(compiled.alpha_bets)
    alpha, beta = _zero_pair_numpy(shoes)
    expected = np.full((len(shoes), compiled.n_bets), np.nan)
    ev = raw.copy()[:, :ng]
    ev[:, compiled.alpha_bets] += alpha[:, None] * raw[:, ng : ng + na]
    ev[:, compiled.beta_bets] += beta[:, None] * raw[:, ng + na :]
    expected[:, compiled.general] = ev
    got = np.full_like(expected, np.nan)
    pay_columns(raw.copy(), ng, compiled.alpha_bets, compiled.beta_bets, alpha, beta, compiled.general, got)
    assert _same(got, expected)
    floats = compiled(shoes, exact_signs=False)  # the engine's own call: the same columns
    assert _same(floats[:, compiled.general], expected[:, compiled.general])


def test_lattice_zeros_cached_by_total_agree_with_fractions():
    bets = (get_bet("banker"), get_bet("player"), get_bet("tie"))
    compiled = compiled_bets(bets)
    compiled.settle_signs(np.array([[32] * 13]), np.zeros((1, 3)))  # builds the exact evaluator
    exact = compiled._exact
    for total in (6, 7, 50, 416, 416, 7):
        spaced = exact._spaced(total)
        lattice = zip(compiled.bounds.tolist(), exact._dens, strict=True)
        assert spaced.tolist() == [2 * Fraction(b) * perm(total, 6) * d < 1 for b, d in lattice]
    assert exact._spaced(6).any()
    assert not exact._spaced(416).all()


def test_near_rows_are_the_rows_with_an_entry_within_its_bound():
    rng = np.random.default_rng(361)
    bounds = np.array([1e-12, 0.0, 1e-3, 5e-16])
    values = rng.normal(size=(500, 4)) * rng.choice([1e-16, 1e-13, 1e-4, 1.0], size=(500, 4))
    values[::37] = 0.0  # exact zeros sit within any bound, 0 included
    values[5, 2] = np.nan  # never near
    values[6] = [np.nan, np.inf, -np.inf, np.nan]
    expected = np.flatnonzero((np.abs(values) <= bounds).any(axis=1))
    got = near_rows(values, bounds)
    assert 0 < len(expected) < len(values)
    assert got.dtype == np.int64
    assert np.array_equal(got, expected)
    assert len(near_rows(values[:0], bounds)) == 0


def test_signs_settled_on_the_near_rows_only_equal_settling_the_whole_array():
    # settle_signs finds the rows with a candidate in one pass and runs the exact tests on those rows; the old way
    # ran the same tests on every row: the same numbers and the same counts per bet, on shoes with many candidates
    bets = (*standard_bets(), PayTable.from_function("both_pairs_and_tie", _both_pairs_and_tie))
    compiled = compiled_bets(bets)
    ranks = depleted_shoes(np.random.default_rng(362), 400)
    plain = compiled(ranks, exact_signs=False)
    got = plain.copy()
    settled = compiled.settle_signs(ranks, got)
    near = np.abs(plain) <= compiled.bounds
    assert near.any(axis=1).sum() >= 5  # tiny shoes hold exact zeros of several bets
    expected = plain.copy()
    zero = compiled._exact.lattice_zeros(ranks, near)
    expected[zero] = 0.0
    compiled._exact.settle(ranks, near & ~zero, expected)
    assert np.array_equal(got, expected)
    assert np.array_equal(settled, near.sum(axis=0))
    assert np.array_equal(got[~near], plain[~near])  # nothing outside the candidates moves
    none = compiled.settle_signs(ranks[:1] * 0 + 32, plain[:1] * 0 + 1.0)  # no candidate: nothing to do
    assert none.tolist() == [0] * len(bets)
