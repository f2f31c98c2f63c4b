"""The computed count's chain (toolkit.counting._computed_kernels.chain_rows) against the implementation it
replaces, kept here as the oracle: every figure of the chain's sums (so of ``count_value``) within 1e-12 of the
previous chain's on the benchmark's five counts (``tests/benchmarks/computed_counts.py``) and on dealings with a
fixed burn, hidden burns (an ace burning 11), no burn, the unseen-cards divisor, a ramp, back-counting, a thresholds
table by cards dealt and by coup, and a search by threshold; and the law's products, multiplied only on the cells
the copied ones depend on (``_cones``), equal to the whole product's to the bit."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from toolkit.counting import CountSystem, computed, count_strategy
from toolkit.counting._computed_kernels import (
    _add2,
    _axpy,
    _band,
    _coup_bets,
    _ends,
    _pre_rows,
    _readers,
    _seat,
    _settle,
)
from toolkit.counting._computed_law import _Law, _stack
from toolkit.counting.computed import SeatRule, _by_threshold, _play, _sums
from toolkit.counting.strategies import Ramp
from toolkit.counting.systems import resolve_bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing


@numba.njit(cache=True, nogil=True)
def _old_row_start(settled, p0, i, p, kind, q0, k, sums):
    """The previous :func:`_row_start`: the bet's sums started per column."""
    scale, step = settled
    layer, bets = kind
    a1, a2, out = sums
    lo, hi = _band(scale, 0.0)
    for j in range(lo, hi):
        c = scale[j]
        if c == 0.0:
            continue
        if layer == 0:
            out[0, p] += c * p0[i, j]
        if bets:
            out[1, p] += c * p0[i, j]
    if not bets:
        return lo, hi, lo, lo
    a, b = lo, hi
    while a < b and step[a] < 0:
        a += 1
    while b > a and step[b - 1] < 0:
        b -= 1
    for j in range(a, b):
        a1[j] = q0[0] * p0[i, j]
        a2[j] = q0[1] * p0[i, j]
    return lo, hi, a, b


@numba.njit(cache=True, nogil=True)
def _old_chain_rows(rho, pre, chunk, coef, config, runs, ramp, seat, out):
    """The previous :func:`chain_rows`: the bet's sums per column (``a1``, ``a2``), then times the starts."""
    stack, factors, picked, n_picked = chunk
    sizes, moves, pi, q = coef
    first, cut, rule = config[0], config[4], config[5]
    n_runs = rho.shape[0]
    skip = config[13]
    h, width = stack.shape[1] - skip, stack.shape[2]
    n_rows = rho.shape[2]
    n_layers = rho.shape[1]
    cfg = np.zeros(16, dtype=np.int64)
    cfg[: config.shape[0]] = config
    cfg[14] = 0
    cfg[15] = n_rows
    n_proj = stack.shape[0]
    start, user_run, user_at = _readers(picked, n_picked, n_proj)
    scales = np.zeros((n_runs, 4, width))
    steps = np.full((n_runs, 4, width), -1, dtype=np.int64)
    a1 = np.zeros((n_runs, width))
    a2 = np.zeros((n_runs, width))
    lo = np.zeros(n_runs, dtype=np.int64)
    hi = np.zeros(n_runs, dtype=np.int64)
    slo = np.zeros(n_runs, dtype=np.int64)
    shi = np.zeros(n_runs, dtype=np.int64)
    for r0 in range(0, min(h, n_rows - first), 4):
        r1 = min(r0 + 4, h, n_rows - first)
        if cfg[11] > 0:
            for k in range(n_runs):
                p0 = stack[picked[k, 0]][skip:]
                _seat(rho[k, 1], pre[k], p0, cfg, runs[k], seat, (r0, r1), out[k])
                if ramp[1].shape[0] > 1:
                    _coup_bets(pre[k], k, chunk, coef, cfg, runs[k], ramp, (r0, r1), out[k], int(seat[2]))
                _pre_rows(pre[k], k, chunk, coef, cfg, runs[k], (r0, r1))
        for layer in range(n_layers):
            bets = layer == n_layers - 1
            for k in range(n_runs):
                scale, step = _settle(rho[k, layer], stack[picked[k, 0]][skip:], cfg, runs[k], ramp, (r0, r1), bets)
                scales[k, : r1 - r0] = scale
                steps[k, : r1 - r0] = step
            for i in range(r0, r1):
                d = first + i
                for k in range(n_runs):
                    p0 = stack[picked[k, 0]][skip:]
                    lo[k], hi[k], slo[k], shi[k] = _old_row_start(
                        (scales[k, i - r0], steps[k, i - r0]), p0, i, runs[k, 0] + d, (layer, bets), q[k, 0], k,
                        (a1[k], a2[k], out[k]),
                    )  # fmt: skip
                for u in range(n_proj):
                    row = stack[u, i + skip]
                    for t in range(start[u], start[u + 1]):
                        k, e = user_run[t], user_at[t]
                        if hi[k] <= lo[k]:
                            continue
                        f = factors[sizes[k, e], i]
                        if shi[k] > slo[k]:
                            qa, qb = q[k, e, 0] * f, q[k, e, 1] * f
                            if qa != 0.0 or qb != 0.0:
                                a, b = slo[k], shi[k]
                                _add2(a1[k, a:b], a2[k, a:b], qa, qb, row[a:b])
                        length, move = moves[k, e, 0], moves[k, e, 1]
                        p = runs[k, 0] + d
                        if pi[k, e] <= 0.0 or d + length >= n_rows:
                            continue
                        if _ends(rule, p, length, cut, d):
                            continue
                        a, b = max(lo[k], -move), min(hi[k], width - move)
                        target = rho[k, layer, d + length, a + move : b + move]
                        _axpy(target, scales[k, i - r0, a:b], pi[k, e] * f, row[a:b])
                if not bets:
                    continue
                for k in range(n_runs):
                    p = runs[k, 0] + d
                    p0 = stack[picked[k, 0]][skip:]
                    for j in range(slo[k], shi[k]):
                        c = scales[k, i - r0, j]
                        s = steps[k, i - r0, j]
                        if c == 0.0 or s < 0:
                            continue
                        out[k, 2 + 3 * s, p] += c * p0[i, j]
                        out[k, 3 + 3 * s, p] += c * a1[k, j]
                        out[k, 4 + 3 * s, p] += c * a2[k, j]


#: The benchmark's Banker count and pair count (tests/benchmarks/computed_counts.py), besides three published ones.
BANKER_COUNT = CountSystem("banker_signs", (0, 1, 1, 1, 1, 2, -1, -2, -1, -1), bet="banker", threshold=2)
PAIR_COUNT = CountSystem("pair_tens", (-1, -1, -1, -1, -1, -1, -1, -1, -1, 2), bet="player_pair", threshold=-2)
COUNTS = ["dragon7", "panda8", "three_giving_eight", PAIR_COUNT, BANKER_COUNT]
DRAGON_TAGS = (0, 0, 0, 0, -1, -1, -1, -1, 2, 2)


def _whole_stack(law, leaves, d0, d1, into=None, read=None):
    """The products written on every cell of the chunk (the slowest way, which the band and the cones narrow)."""
    return _stack(law, leaves, d0, d1, into)


def _both(monkeypatch, play, dealing, seat=None):
    """The chain's sums now, and by the previous chain on the whole products."""
    bet = resolve_bet(play.bet, Rules(decks=dealing.decks, tableau=dealing.tableau))
    new = _sums(play, bet, dealing, seat)
    with monkeypatch.context() as m:
        m.setattr(computed, "chain_rows", _old_chain_rows)
        m.setattr(computed, "_stack", _whole_stack)
        old = _sums(play, bet, dealing, seat)
    assert old[2::3].sum() > 0.0  # a bet is placed: the comparison reads the win
    return new, old


@pytest.mark.parametrize("count", COUNTS, ids=lambda c: c if isinstance(c, str) else c.name)
def test_the_benchmarks_counts_are_unchanged_on_eight_decks(monkeypatch, count):
    new, old = _both(monkeypatch, _play(count_strategy(count)), Dealing())
    assert np.max(np.abs(new - old)) <= 1e-12


@pytest.mark.parametrize(
    ("count", "dealing"),
    [
        ("dragon7", Dealing(decks=6, burn="fixed", burn_cards=3)),
        (BANKER_COUNT, Dealing(decks=2, burn_ace=11, last_hand="finish")),
        ("panda8", Dealing(decks=4, burn="none")),
        (CountSystem("dragon_unseen", DRAGON_TAGS, bet="dragon7", threshold=4, divisor="unseen"), Dealing(decks=4)),
        (
            CountSystem(
                "dragon_by_cards", DRAGON_TAGS, bet="dragon7", thresholds=((0, 6), (40, 3)), threshold_by="cards_dealt"
            ),
            Dealing(decks=2),
        ),
        (CountSystem("dragon_by_coup", DRAGON_TAGS, bet="dragon7", thresholds=((1, 6), (5, 3))), Dealing(decks=2)),
    ],
    ids=["fixed-burn", "hidden-burns-finish", "no-burn", "unseen-divisor", "table-by-cards", "table-by-coup"],
)
def test_other_dealings_and_counts_are_unchanged(monkeypatch, count, dealing):
    new, old = _both(monkeypatch, _play(count_strategy(count)), dealing)
    assert np.max(np.abs(new - old)) <= 1e-12


def test_a_ramp_is_unchanged(monkeypatch):
    # three steps: the bet's sums are split where the step changes along each row
    play = _play(count_strategy("dragon7", ramp=Ramp(((2.0, 1.0), (4.0, 2.0), (6.0, 4.0)))))
    new, old = _both(monkeypatch, play, Dealing(decks=4))
    assert np.all(old[2::3].sum(axis=1) > 0.0)
    assert np.max(np.abs(new - old)) <= 1e-12


def test_back_counting_is_unchanged(monkeypatch):
    new, old = _both(monkeypatch, _play(count_strategy("panda8")), Dealing(decks=2), SeatRule(8, 1.0, -1.0))
    assert old[1].sum() > 0.0
    assert np.max(np.abs(new - old)) <= 1e-12


def test_a_search_by_threshold_is_unchanged(monkeypatch):
    # one pass of the chain with a step of the ramp at every threshold (the count search's objective)
    system, bet, grid = CountSystem("dragon", DRAGON_TAGS), resolve_bet("dragon7", Rules(decks=2)), range(-2, 9)
    new = _by_threshold(system, bet, list(grid), Dealing(decks=2))
    with monkeypatch.context() as m:
        m.setattr(computed, "chain_rows", _old_chain_rows)
        m.setattr(computed, "_stack", _whole_stack)
        old = _by_threshold(system, bet, list(grid), Dealing(decks=2))
    assert np.all(old[:, 1] > 0.0)
    assert np.max(np.abs(new - old)) <= 1e-12


@pytest.mark.parametrize("count", ["panda8", BANKER_COUNT], ids=["panda8", "banker_signs"])
def test_the_products_on_their_cones_are_the_whole_products_to_the_bit(count):
    # every chunk of 8 decks: the cells the chain reads (rows of the chunk, the read band) of each projection's law
    play = _play(count_strategy(count))
    group, tags = computed._groups(play.system)
    full = np.bincount(group, weights=np.full(10, 32) * (1 + 3 * (np.arange(10) == 0))).astype(np.int64)
    law = _Law.build(full, tags, 7)
    read = law.read_band(computed.TINY)
    leaves = sorted(tuple(a) for a in np.ndindex(*(law.top + 1)) if sum(a) <= 7)[::4]  # a tree of every depth
    for d0 in range(0, law.rows, 60):
        d1 = min(law.rows, d0 + 60)
        into = np.full((len(leaves), d1 - max(0, d0 - int(law.top.sum())), law.width), np.nan)
        narrow, skip = _stack(law, leaves, d0, d1, into, read)
        whole, _ = _stack(law, leaves, d0, d1)
        for i in range(skip, narrow.shape[1]):
            lo, hi = read[:, d0 + i - skip]
            assert np.array_equal(narrow[:, i, lo:hi], whole[:, i, lo:hi])
