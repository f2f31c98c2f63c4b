"""The shuffle tracker and the power study: transition matrices, discard order, raking, independent EVs, edges.

Oracles written here: a brute-force one-riffle matrix (every labelling of a small pack), the discard
order rebuilt from the plain loop dealer (tests/loop_dealer.py), an IPF loop, and the outcome of every
six-value sequence played by the rulebook's tableau (loop_dealer's drawing rules, no toolkit code).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import polars as pl
import pytest
from loop_dealer import VALUES, banker_draws, deal_shoe, player_draws

from toolkit.bets.paytable import get_plain_bet
from toolkit.bets.pricing import expected_values
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.studies.shuffle import (
    NoShuffle,
    Riffles,
    UniformShuffle,
    discard_orders,
    gsr_transition,
    independent_expected_values,
    shuffle_test_power,
    shuffle_tracker_edge,
    transition_matrix,
    transition_null_rate,
)
from toolkit.studies.shuffle._kernels import rake
from toolkit.studies.shuffle._one_riffle import _coup_law, _step
from toolkit.studies.shuffle.transition import simulated_transition


# ------------------------------------------------------------------ transition matrices
def brute_force_riffle(n: int) -> np.ndarray:
    """One GSR riffle by enumeration: every 0/1 labelling of the new positions is equally likely; the
    positions labelled 0 take the top packet's cards in order, those labelled 1 the rest."""
    m = np.zeros((n, n))
    for labels in itertools.product((0, 1), repeat=n):
        top = [j for j in range(n) if labels[j] == 0]
        bottom = [j for j in range(n) if labels[j] == 1]
        for i, j in enumerate(top + bottom):
            m[i, j] += 1
    return m / 2**n


def test_one_riffle_matrix_equals_brute_force_enumeration():
    assert np.allclose(gsr_transition(7, 1), brute_force_riffle(7), atol=1e-14)


def test_two_riffles_equal_the_composition_of_brute_force_riffles():
    one = brute_force_riffle(6)
    assert np.allclose(gsr_transition(6, 2), one @ one, atol=1e-14)


@pytest.mark.parametrize("cards", [52, 416])
def test_matrices_are_doubly_stochastic(cards):
    for model in (NoShuffle(), UniformShuffle(), Riffles(1), Riffles(3)):
        m = transition_matrix(model, cards)
        assert np.allclose(m.sum(axis=0), 1, atol=1e-12)
        assert np.allclose(m.sum(axis=1), 1, atol=1e-12)
    assert np.array_equal(transition_matrix(NoShuffle(), cards), np.eye(cards))
    assert np.allclose(transition_matrix(UniformShuffle(), cards), 1 / cards)


def test_closed_form_agrees_with_simulated_riffles():
    """20,000 simulated double riffles of 20 cards against M1**2, entry by entry within 5 standard errors.

    False-failure rate: at most 400 entries x 5.7e-7 (two-sided 5 sigma), about 2e-4.
    """
    samples = 20_000
    exact = gsr_transition(20, 2)
    sim = simulated_transition(Riffles(2), 20, samples=samples, seed=11)
    se = np.sqrt(exact * (1 - exact) / samples)
    assert np.all(np.abs(sim - exact) <= 5 * se + 1e-12)


def test_simulated_identity_and_uniform():
    assert np.array_equal(simulated_transition(NoShuffle(), 8, samples=50), np.eye(8))
    flat = simulated_transition(UniformShuffle(), 8, samples=20_000, seed=2)
    # each entry ~ Binomial(20000, 1/8) / 20000: sd 0.0023; 6 sd leaves a false-failure rate below 1e-7
    assert np.abs(flat - 1 / 8).max() < 6 * np.sqrt(1 / 8 * 7 / 8 / 20_000)


# ------------------------------------------------------------------ discard order
def loop_discards(cards: list[int], stub: str, hands: str) -> list[int]:
    shoe = deal_shoe(cards)
    pile = ([shoe.burn_card] if shoe.burn_card >= 0 else []) + list(shoe.burned)
    end = len(pile)
    for coup in shoe.coups:
        k = len(coup.player) + len(coup.banker)
        pile += coup.player + coup.banker if hands == "player_banker" else cards[coup.start : coup.start + k]
        end = coup.start + k
    rest = cards[end:]
    return rest + pile if stub == "top" else pile + rest


@pytest.mark.parametrize("stub", ["bottom", "top"])
@pytest.mark.parametrize("hands", ["player_banker", "as_dealt"])
def test_discard_order_matches_the_loop_dealer(stub, hands):
    shoes = shuffled_shoes(6, seed=21)
    got = discard_orders(shoes, deal_block(shoes), stub=stub, hands=hands)
    for s in range(len(shoes)):
        assert got[s].tolist() == loop_discards(shoes[s].tolist(), stub, hands)


def test_discard_order_rejects_a_bad_option():
    shoes = shuffled_shoes(1, seed=1)
    with pytest.raises(ValueError, match="stub"):
        discard_orders(shoes, deal_block(shoes), stub="middle")


# ------------------------------------------------------------------ raking
def slow_ipf(q: np.ndarray, target: np.ndarray, sweeps: int) -> np.ndarray:
    q = q.copy()
    for _ in range(sweeps):
        for v in range(q.shape[1]):
            if q[:, v].sum() > 0:
                q[:, v] *= target[v] / q[:, v].sum()
        for r in range(q.shape[0]):
            q[r] /= q[r].sum()
    return q


def test_rake_matches_a_plain_ipf_loop_and_fits_both_margins():
    gen = np.random.default_rng(5)
    q = gen.random((30, 10))
    target = gen.multinomial(30, np.full(10, 0.1)).astype(float)
    fast = q.copy()
    sweeps = rake(fast, target, 1000, 1e-10)
    assert np.allclose(fast, slow_ipf(q, target, sweeps), atol=1e-12)
    assert np.allclose(fast.sum(axis=1), 1)
    assert np.allclose(fast.sum(axis=0), target, atol=1e-9)


# ------------------------------------------------------------------ independent-marginals EV
def slow_independent_ev(p: np.ndarray) -> np.ndarray:
    """Banker (0.95), Player, Tie (8:1) EVs: every six-value sequence played by the rulebook's tableau."""
    c = np.indices((10,) * 6).reshape(6, -1)
    weight = np.prod([p[k][c[k]] for k in range(6)], axis=0)
    pdraw_t = np.array([player_draws(t) for t in range(10)])
    bdraw_t = np.array([[banker_draws(t, None if x == 10 else x) for x in range(11)] for t in range(10)])
    pt2, bt2 = (c[0] + c[2]) % 10, (c[1] + c[3]) % 10
    natural = (pt2 >= 8) | (bt2 >= 8)
    pdraw = ~natural & pdraw_t[pt2]
    bdraw = ~natural & np.where(pdraw, bdraw_t[bt2, c[4]], bdraw_t[bt2, 10])
    pt = (pt2 + np.where(pdraw, c[4], 0)) % 10
    bt = (bt2 + np.where(bdraw, np.where(pdraw, c[5], c[4]), 0)) % 10
    b_win, p_win, tie = weight @ (bt > pt), weight @ (pt > bt), weight @ (pt == bt)
    return np.array([0.95 * b_win - p_win, p_win - b_win, 8 * tie - (1 - tie)])


def test_independent_ev_matches_a_slow_enumeration():
    gen = np.random.default_rng(3)
    p = gen.dirichlet(np.ones(10), size=6)
    assert np.allclose(independent_expected_values(p), slow_independent_ev(p), atol=1e-12)


def test_independent_ev_with_replacement_equals_the_exact_engine_on_a_huge_shoe():
    """Marginals = the composition's proportions (with replacement) against the exact engine on that
    composition scaled 10**5 times (without replacement; the difference is O(36 / cards) ~ 1e-5)."""
    ranks = np.array([30, 28, 32, 25, 31, 32, 29, 32, 27, 32, 30, 31, 26])  # a shoe part dealt
    value_counts = np.bincount(VALUES, weights=ranks, minlength=10)
    p = np.tile(value_counts / value_counts.sum(), (6, 1))
    bets = [get_plain_bet(b) for b in ("banker", "player", "tie")]
    exact = expected_values(np.array([ranks * 100_000]), bets)[0]
    assert np.allclose(independent_expected_values(p), exact, atol=5e-5)
    assert np.allclose(independent_expected_values(p), slow_independent_ev(p), atol=1e-12)


def test_a_pair_bet_is_refused():
    with pytest.raises(ValueError, match="pairs"):
        independent_expected_values(np.full((6, 10), 0.1), bets=["player_pair"])


# ------------------------------------------------------------------ the tracker's edge
def test_no_shuffle_gives_a_huge_edge():
    frame = shuffle_tracker_edge([0], n_shoes=8, seed=3, uniform=False, progress=False)
    assert frame["win_per_100_low"][0] > 100  # he knows every card: ~160 units per 100 hands
    assert frame["share_bet"][0] == 1.0


def test_uniform_shuffle_edge_is_zero_within_its_interval():
    """A uniform shuffle makes the tracker a perfect counter, whose true gain at these bets is of the order
    of 0.01 units per 100 hands (far inside the interval).  A 99.9 % interval from 240 shoes: the
    false-failure rate is about 0.1 % (the normal interval of a rare, skewed Tie win is approximate)."""
    frame = shuffle_tracker_edge([None], n_shoes=240, seed=7, confidence=0.999, progress=False)
    assert frame["win_per_100_low"][0] <= 0 <= frame["win_per_100_high"][0]
    assert frame["share_bet"][0] < 0.05


def test_one_riffle_is_predicted_to_pay_more_than_a_uniform_shuffle():
    frame = shuffle_tracker_edge([1, None], n_shoes=32, seed=4, exact_one_riffle=False, progress=False)
    one, uniform = frame.row(0, named=True), frame.row(1, named=True)
    assert one["predicted_per_100"] > 2 * uniform["predicted_per_100"]
    assert one["share_bet_low"] > uniform["share_bet_high"]


def test_one_riffle_exact_posterior_pays_clearly():
    """With the exact one-riffle posterior the tracker wins about 35 units per 100 hands (docs); from 24
    shoes the 99.9 % interval's lower bound is far above 0 (the raked tracker's is not: see the docs)."""
    frame = shuffle_tracker_edge([1], n_shoes=24, seed=8, confidence=0.999, uniform=False, progress=False)
    exact = frame.filter(frame["posterior"] == "one_riffle").row(0, named=True)
    assert exact["win_per_100_low"] > 10
    assert exact["share_bet"] > 0.8


def brute_force_coup_law(old: list[int], seen: list[int], hidden: set[int]) -> np.ndarray:
    """Every labelling of a small pack (one riffle): keep those showing ``seen`` at the first positions
    (except ``hidden`` ones), and count the outcome class of the next six cards' values."""
    n, p = len(old), len(seen)
    law = np.zeros(400)
    draws_p = [player_draws(t) for t in range(10)]
    for labels in itertools.product((0, 1), repeat=n):
        top = [j for j in range(n) if labels[j] == 0]
        new = [0] * n
        for i, j in enumerate(top + [j for j in range(n) if labels[j] == 1]):
            new[j] = old[i]
        if any(new[q] != seen[q] for q in range(p) if q not in hidden):
            continue
        v = [VALUES[r] for r in new[p : p + 6]]
        pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
        pc = bc = 2
        if pt < 8 and bt < 8:
            if draws_p[pt]:
                pc, pt = 3, (pt + v[4]) % 10
                if banker_draws(bt, v[4]):
                    bc, bt = 3, (bt + v[5]) % 10
            elif banker_draws(bt, None):
                bc, bt = 3, (bt + v[4]) % 10
        law[((pt * 10 + bt) * 2 + pc - 2) * 2 + bc - 2] += 1
    return law / law.sum()


def test_one_riffle_posterior_matches_brute_force_enumeration():
    gen = np.random.default_rng(17)
    n = 12
    old = gen.integers(0, 13, n)
    new = old[np.argsort(gen.random(n))]  # the seen cards need not come from a riffle: any shown ranks work
    new[:3] = [old[0], old[6], old[1]]  # ... but make them possible under one riffle
    player = np.array([player_draws(t) for t in range(10)])
    banker = np.array([[banker_draws(t, None if x == 10 else x) for x in range(11)] for t in range(10)])
    values = np.array(VALUES)
    for p, hidden in ((0, set()), (3, set()), (3, {1})):
        alpha = np.zeros((n + 1, n + 1))
        alpha[:, 0] = [math.comb(n, c) / 2**n for c in range(n + 1)]
        nxt = np.zeros_like(alpha)
        lo, hi = 0, n
        for q in range(p):
            lo, hi = _step(alpha, nxt, old, q, -1 if q in hidden else int(new[q]), lo, hi)
        law = np.zeros(400)
        _coup_law(alpha, old, p, lo, hi, values, player, banker, law)
        assert np.allclose(law, brute_force_coup_law(old.tolist(), new[:p].tolist(), hidden), atol=1e-12)


def test_tracker_is_reproducible_from_its_seed():
    a = shuffle_tracker_edge([2], n_shoes=20, seed=9, uniform=False, progress=False)
    assert a.equals(shuffle_tracker_edge([2], n_shoes=20, seed=9, uniform=False, progress=False))
    assert not a.equals(shuffle_tracker_edge([2], n_shoes=20, seed=10, uniform=False, progress=False))


@pytest.mark.slow
def test_tracker_is_independent_of_the_workers():
    a = shuffle_tracker_edge([2], n_shoes=40, seed=9, uniform=False, progress=False)
    b = shuffle_tracker_edge([2], n_shoes=40, seed=9, uniform=False, progress=False, workers=2)
    assert a.equals(b)


def test_tracker_rejects_bad_input():
    with pytest.raises(ValueError, match="riffles"):
        shuffle_tracker_edge([-1], n_shoes=2, progress=False)
    with pytest.raises(ValueError, match="pairs"):
        shuffle_tracker_edge([1], n_shoes=2, bets=["banker_pair"], progress=False)


# ------------------------------------------------------------------ power
def test_transition_test_null_rate_is_one_percent():
    """3,000 uniform pairs of one-deck shoes (52 positions: the normal approximation's hardest case here) at
    level 1 %: the rejections are Binomial(3000, 0.01) if it holds (mean 30, sd 5.4); 30 +- 4.5 sd = 6..54
    leaves a false-failure rate near 1e-5."""
    out = transition_null_rate(pairs=3000, seed=12, dealing=Dealing(decks=1))
    assert 6 <= out["rejections"] <= 54


def test_power_study_null_rates_and_power():
    frame = shuffle_test_power(
        [1], shoes=(2, 3), replicates=5, baseline_shoes=60, seed=13, progress=False, dealing=Dealing()
    )
    uniform = frame.filter(frame["model"] == "uniform")
    # 9 tests x 2 sizes x 5 replicates = 90 null tests at 1 %: Binomial(90, 0.01) exceeds 6 with
    # probability about 1e-5 (the baseline tests are calibrated on only 60 shoes: allow for that)
    assert int(uniform["rejections"].sum()) <= 6
    one = frame.filter((frame["model"] == "1 riffle") & (frame["test"] == "discard transitions"))
    assert one["power"].min() == 1.0  # one riffle of a known discard order is found from one pair


def test_power_study_is_reproducible():
    kwargs = {"shoes": (2,), "replicates": 3, "baseline_shoes": 30, "seed": 14, "progress": False}
    assert shuffle_test_power([2], **kwargs).equals(shuffle_test_power([2], **kwargs))


def test_power_study_blocks_with_the_job_packed_are_those_with_the_job_itself():
    """The power study's job travels packed (unpickled at a worker's first block only) and every block gives the
    rows it gives with the job itself."""
    from packed_blocks import run_as_a_fresh_worker

    from toolkit import _packing
    from toolkit.parallel import block_plan
    from toolkit.records.simulate import records_from_orders
    from toolkit.studies.shuffle import power

    dealing = Dealing()
    base = records_from_orders(shuffled_shoes(20, dealing.decks, 15), power.ShoeHeader.from_dealing(dealing))
    models = (power.riffles(1), power.UniformShuffle())
    matrices = tuple(power._alternative(m, dealing.cards, 1000) for m in models)
    job = power._PowerJob(models, matrices, (2, 3), dealing, base, 0.01)
    packed = _packing.pack_spec(job)
    blocks = block_plan(4, 2, 16)
    direct = [power._power_block(b, job) for b in blocks]
    outputs, _ = run_as_a_fresh_worker(power._power_packed, blocks, packed, job)
    assert outputs == direct
    assert any(row["reject"] for rows in direct for row in rows)  # the rows compared are not all alike


def test_power_study_rejects_one_shoe():
    with pytest.raises(ValueError, match="at least 2"):
        shuffle_test_power([1], shoes=(1,), replicates=1, progress=False)


# ------------------------------------------------------------------ figures
def test_figures_draw_the_frames():
    import matplotlib

    matplotlib.use("Agg")
    from toolkit.plots.shuffle import plot_test_power, plot_tracker_edge

    edge = shuffle_tracker_edge([0, 1], n_shoes=4, seed=1, progress=False)
    ax = plot_tracker_edge(edge)
    assert len(ax.get_legend().get_texts()) == 3  # uniform band, raked, exact one riffle
    power = pl.DataFrame(
        {
            "model": "2 riffles",
            "test": ["runs", "runs", "discard transitions", "discard transitions"],
            "shoes": [2, 5, 2, 5],
            "power": [0.0, 0.1, 0.9, 1.0],
            "power_low": [0.0, 0.0, 0.7, 0.9],
            "power_high": [0.2, 0.3, 1.0, 1.0],
        }
    )
    ax = plot_test_power(power, "2 riffles")
    assert len(ax.get_legend().get_texts()) == 2
    assert ax.get_title() == "2 riffles"
    with pytest.raises(ValueError, match="no model"):
        plot_test_power(power, "9 riffles")


# ------------------------------------------------------------------ command
def test_command_writes_the_tracker_rows_as_json(capsys):
    import json

    from cli_helpers import run

    code, out, _ = run(
        capsys, "shuffle-track", "-k", "0", "-n", "3", "-s", "1", "-w", "1", "--no-progress", "-f", "json"
    )
    assert code == 0
    payload = json.loads(out)
    assert [r["model"] for r in payload["rows"]] == ["none", "uniform"]
    assert payload["rows"][0]["win_per_100"] > 100
    code, _, err = run(capsys, "shuffle-track", "-k", "65", "-n", "3", "--no-progress")
    assert code == 2
    assert err.startswith("baccarat: error: --riffles must be 0..64")
