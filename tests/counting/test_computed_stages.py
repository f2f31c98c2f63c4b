"""The computed count's faster stages (toolkit.counting.computed) against the implementation they replace:
the projections each run reads, built without a Python loop over the projection codes, are the loop's to the last
bit; the law of the shoe less each projection, written only where the chain can read it (:meth:`_Law.read_band`),
leaves the chain's sums (so every figure of ``count_value``) within 1e-12 of the fully written one on the
benchmark's five counts (``tests/benchmarks/computed_counts.py``), on three other dealings and back-counting, with
the cells left unwritten poisoned (NaN): none of them is read."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.counting import CountSystem, computed, count_strategy
from toolkit.counting._computed_law import _stack
from toolkit.counting.computed import SeatRule, _play, _sums
from toolkit.counting.systems import resolve_bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing

#: The benchmark's Banker count and pair count (tests/benchmarks/computed_counts.py), besides three published ones.
BANKER_COUNT = CountSystem("banker_signs", (0, 1, 1, 1, 1, 2, -1, -2, -1, -1), bet="banker", threshold=2)
PAIR_COUNT = CountSystem("pair_tens", (-1, -1, -1, -1, -1, -1, -1, -1, -1, 2), bet="player_pair", threshold=-2)
COUNTS = ["dragon7", "panda8", "three_giving_eight", PAIR_COUNT, BANKER_COUNT]


def _loop_run_leaves(law, run, coefs, used):
    """The previous implementation of ``computed._run_leaves``, kept as the oracle: one projection code at a time."""
    uniq, pi, qs = coefs
    extra = np.zeros(len(law.sizes), dtype=np.int64)
    if run.removed >= 0:
        extra[run.removed] = 1
    own = tuple(extra.tolist())
    leaves, pos = [own], [int(np.flatnonzero(uniq == 0)[0])]
    for i, code in enumerate(uniq.tolist()):
        a = np.array([(code // 7**g) % 7 for g in range(len(law.sizes))])
        if code == 0 or not used[i] or np.any(a + extra > law.top):
            continue
        leaves.append(tuple((a + extra).tolist()))
        pos.append(i)
    picked = np.array(pos)
    sizes = np.array([sum(a) - sum(own) for a in leaves], dtype=np.int64)
    moves = np.array([(k, int(np.dot(np.subtract(a, own), law.tags))) for a, k in zip(leaves, sizes, strict=True)])
    coef = (sizes, moves.reshape(-1, 2).astype(np.int64), np.ascontiguousarray(pi[picked]), qs[:, picked].T.copy())
    return leaves, coef


def _full_stack(law, leaves, d0, d1, into=None, read=None):
    """The previous way: every row and column of the law of the shoe less each projection written."""
    return _stack(law, leaves, d0, d1, into)


def _poisoned_stack(law, leaves, d0, d1, into=None, read=None):
    """The new way, with every cell it leaves unwritten NaN (so a read of one shows in the sums)."""
    into.fill(np.nan)
    return _stack(law, leaves, d0, d1, into, read)


def _both(monkeypatch, count, dealing, seat=None):
    play = _play(count_strategy(count))
    bet = resolve_bet(play.bet, Rules(decks=dealing.decks, tableau=dealing.tableau))
    with monkeypatch.context() as m:
        m.setattr(computed, "_stack", _poisoned_stack)
        new = _sums(play, bet, dealing, seat)
    with monkeypatch.context() as m:
        m.setattr(computed, "_run_leaves", _loop_run_leaves)
        m.setattr(computed, "_stack", _full_stack)
        old = _sums(play, bet, dealing, seat)
    assert np.all(np.isfinite(new))
    return new, old


@pytest.mark.parametrize("count", COUNTS, ids=lambda c: c if isinstance(c, str) else c.name)
def test_the_projections_each_run_reads_are_the_loops_to_the_bit(count):
    play = _play(count_strategy(count))
    bet = resolve_bet(play.bet, Rules())
    group, tags = computed._groups(play.system)
    _, codes = computed._leaf_codes(group, len(tags))
    runs = computed._runs(Dealing(), play.system, group, tags)
    full = np.bincount(group, weights=np.full(10, 32) * (1 + 3 * (np.arange(10) == 0))).astype(np.int64)
    law = computed._Law.build(full, tags, 7)
    moments = computed._moment_weights(bet, Dealing().tableau, 8)
    for run in runs:
        coefs = computed._coefficients(run, moments, codes, Dealing().tableau)
        used = (coefs[1] > 0) | np.any(coefs[2] != 0, axis=0)
        used[::3] = False  # some projections unread, as when no run reads them
        leaves, coef = computed._run_leaves(law, run, coefs, used)
        want_leaves, want = _loop_run_leaves(law, run, coefs, used)
        assert leaves == want_leaves
        for got, ref in zip(coef, want, strict=True):
            assert got.dtype == ref.dtype
            assert got.shape == ref.shape
            assert np.array_equal(got, ref)


@pytest.mark.parametrize("count", COUNTS, ids=lambda c: c if isinstance(c, str) else c.name)
def test_the_benchmarks_counts_are_unchanged_on_eight_decks(monkeypatch, count):
    new, old = _both(monkeypatch, count, Dealing())
    assert old[2:].sum() != 0.0  # a bet is placed: the comparison reads the win
    assert np.max(np.abs(new - old)) <= 1e-12


@pytest.mark.parametrize(
    "dealing",
    [Dealing(decks=1, cut_card=14), Dealing(decks=6, burn="fixed", burn_cards=3), Dealing(decks=2, last_hand="finish")],
    ids=["one-deck", "six-decks-fixed-burn", "two-decks-finish"],
)
def test_other_dealings_are_unchanged(monkeypatch, dealing):
    for count in ("dragon7", BANKER_COUNT):
        new, old = _both(monkeypatch, count, dealing)
        assert np.max(np.abs(new - old)) <= 1e-12


def test_back_counting_is_unchanged(monkeypatch):
    # the seated layers read the law of the run's shoe at every count of a row: the unwritten cells must not matter
    new, old = _both(monkeypatch, "dragon7", Dealing(decks=2), SeatRule(entry_coup=8, entry=1.0, exit=-1.0))
    assert old[1].sum() > 0.0
    assert np.max(np.abs(new - old)) <= 1e-12


def test_the_band_read_holds_every_start_the_chain_finds(monkeypatch):
    # the stack is written only inside the band: every start of the chain (mass TINY or more), in every run (exposed
    # burn card), lies inside it, and on 8 decks the band is narrower than the counts the cards can reach
    play = _play(count_strategy("panda8"))
    seen, compiled = [], computed.chain_rows

    def chain(rho, *args):
        seen.append(rho)
        return compiled(rho, *args)

    monkeypatch.setattr(computed, "chain_rows", chain)
    _sums(play, resolve_bet(play.bet, Rules()), Dealing())
    group, tags = computed._groups(play.system)
    full = np.bincount(group, weights=np.full(10, 32) * (1 + 3 * (np.arange(10) == 0))).astype(np.int64)
    law = computed._Law.build(full, tags, 7)
    read = law.read_band(computed.TINY)
    run, _, d, col = np.nonzero(seen[-1] >= computed.TINY)
    assert len(set(run.tolist())) == 10
    assert np.all((read[0, d] <= col) & (col < read[1, d]))
    assert np.mean(read[1] - read[0]) < 0.8 * np.mean(law.band[1] - law.band[0])
