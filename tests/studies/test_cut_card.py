"""The cut-card study: its streaming tally against a plain loop, its intervals, and the laws it rests on.

The oracle deals with the test suite's independent dealer (``tests/loop_dealer.py``, one Python step a card)
and prices every coup with :func:`toolkit.expected_values` of the unseen cards before it, one composition at a
time; it sums the per-shoe vectors by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
from loop_dealer import deal_shoe

import toolkit as bt
from toolkit.bets.paytable import get_plain_bet
from toolkit.dealing.dealer import shuffled_shoes
from toolkit.studies.cut_card import CutCardStudy, run_cut_card
from toolkit.studies.cut_card.result import ratio_estimate
from toolkit.studies.cut_card.tally import FROM_END, cut_card_spec, shoe_moments, tally_block

BETS = ("banker", "player", "tie")


def _study(n_shoes: int = 6, **kw) -> CutCardStudy:
    args = {"cut_cards": (14, 30), "last_hands": ("one_more", "finish", "seven_cards"), "coups": (60,)}
    return CutCardStudy(n_shoes=n_shoes, seed=11, bets=BETS, **({"block_size": 3} | args | kw))


def _loop_vectors(study: CutCardStudy, shoes: np.ndarray):
    """Per shoe: z = (Y_r, N_r, C_j) per bet, plus the per-coup deviations by rule, from the loop dealer."""
    bets = [get_plain_bet(b) for b in BETS]
    fresh = bt.expected_values(np.full((1, 13), 32), bets)[0]
    bands = np.unique(study.control_bands(), return_inverse=True)[1]
    out, coups = [], []
    for cards in shoes.tolist():
        ys, ns, per_rule = [], [], []
        for _, d in study.rules_dealt():
            shoe = deal_shoe(cards, cut_card=d.cut_card, last_hand=d.last_hand.value, coups=d.coups)
            dev = [bt.expected_values(np.array([c.unseen]), bets)[0] - fresh for c in shoe.coups]
            ys.append(np.sum(dev, axis=0))
            ns.append(len(shoe.coups))
            per_rule.append(dev)
        terms = []
        for k in study.control_indices():
            left = np.bincount(np.array(cards[k:]), minlength=13)
            terms.append(bt.expected_values(left[None, :], bets)[0] - fresh)
        terms = np.array(terms)  # (K, B)
        controls = [terms[bands == j].sum(axis=0) for j in range(bands.max() + 1)]
        z = np.array([*ys, *[np.full(len(BETS), n, float) for n in ns], *controls])  # (P, B)
        out.append((z, terms))
        coups.append(per_rule)
    return out, coups


@pytest.mark.parametrize("block", [0, 1])
def test_the_streaming_tally_matches_a_plain_loop_over_the_shoes(block: int) -> None:
    study = _study()
    plan = study.blocks()[block]  # block 1: shoes numbered from 3, as a worker sees them
    tally = tally_block(plan, cut_card_spec(study)).tally.arrays
    shoes = shuffled_shoes(plan.n_shoes, 8, plan.rng())
    vectors, coups = _loop_vectors(study, shoes)
    z = np.array([v[0] for v in vectors])  # (n, P, B)
    terms = np.array([v[1] for v in vectors])  # (n, K, B)
    assert tally["shoes"][0] == plan.n_shoes
    np.testing.assert_allclose(tally["z_sum"], z.sum(axis=0).T, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(tally["z_cross"], np.einsum("npb,nqb->bpq", z, z), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(tally["index_sum"], terms.sum(axis=0).T, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(tally["index_sum2"], (terms**2).sum(axis=0).T, rtol=1e-9, atol=1e-14)
    for r in range(len(study.rule_labels)):
        by_coup = np.zeros((len(BETS), tally["by_coup_sum"].shape[2]))
        from_end = np.zeros((len(BETS), FROM_END))
        for shoe in coups:
            dev = shoe[r]
            for j, d in enumerate(dev):
                by_coup[:, j + 1] += d
                if len(dev) - 1 - j < FROM_END:
                    from_end[:, len(dev) - 1 - j] += d
        np.testing.assert_allclose(tally["by_coup_sum"][r], by_coup, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(tally["from_end_sum"][r], from_end, rtol=1e-9, atol=1e-12)
        counts = [len(shoe[r]) for shoe in coups]
        assert tally["coups_hist"][r].sum() == plan.n_shoes
        assert all(tally["coups_hist"][r][c] == counts.count(c) for c in set(counts))


def test_the_interval_is_the_delta_method_of_the_per_shoe_sums() -> None:
    """The tally's ratio and interval against numpy on the per-shoe arrays: the ratio, the residual of
    ``Y - θN`` regressed on the controls (least squares), and its standard deviation."""
    study = _study(n_shoes=30, block_size=30)
    result = run_cut_card(study, progress=False)
    shoes = shuffled_shoes(30, 8, study.blocks()[0].rng())
    y, n, terms, *_ = shoe_moments(shoes, cut_card_spec(study))
    bands = np.unique(study.control_bands(), return_inverse=True)[1]
    table = result.table()
    for r, label in enumerate(study.rule_labels):
        for b, bet in enumerate(BETS):
            row = table.filter((table["rule"] == label) & (table["bet"] == bet)).row(0, named=True)
            theta = y[:, r, b].mean() / n[:, r].mean()
            g = y[:, r, b] - theta * n[:, r]
            c = np.stack([terms[:, b, bands == j].sum(axis=1) for j in range(bands.max() + 1)], axis=1)
            c = c - c.mean(axis=0)
            beta = np.linalg.lstsq(c, g - g.mean(), rcond=None)[0]
            resid = g - g.mean() - c @ beta
            se = np.sqrt(resid @ resid / (len(g) - 1) / len(g)) / n[:, r].mean()
            se_plain = g.std(ddof=1) / np.sqrt(len(g)) / n[:, r].mean()
            raw = np.stack([terms[:, b, bands == j].sum(axis=1) for j in range(bands.max() + 1)], axis=1)
            theta_cv = (y[:, r, b].mean() - beta @ raw.mean(axis=0)) / n[:, r].mean()
            assert row["effect"] == pytest.approx(theta_cv, rel=1e-6, abs=1e-12)
            assert row["se"] == pytest.approx(se, rel=1e-6)
            assert row["se_plain"] == pytest.approx(se_plain, rel=1e-6)
            assert row["coups_per_shoe"] == pytest.approx(n[:, r].mean())
            assert row["dealt_edge"] == pytest.approx(row["fresh_edge"] + row["effect"])


def test_a_difference_of_rules_is_paired_on_the_same_shoes() -> None:
    """The difference of two rules' effects and its interval against numpy on the paired per-shoe arrays."""
    study = _study(n_shoes=30, block_size=30)
    result = run_cut_card(study, progress=False)
    y, n, *_ = shoe_moments(shuffled_shoes(30, 8, study.blocks()[0].rng()), cut_card_spec(study))
    diff = result.differences("coups60", controls=False)
    base = study.rule_labels.index("coups60")
    for r, label in enumerate(study.rule_labels):
        if r == base:
            continue
        for b, bet in enumerate(BETS):
            row = diff.filter((diff["rule"] == label) & (diff["bet"] == bet)).row(0, named=True)
            t1, t2 = y[:, r, b].mean() / n[:, r].mean(), y[:, base, b].mean() / n[:, base].mean()
            g = (y[:, r, b] - t1 * n[:, r]) / n[:, r].mean() - (y[:, base, b] - t2 * n[:, base]) / n[:, base].mean()
            assert row["difference"] == pytest.approx(t1 - t2, rel=1e-9, abs=1e-15)
            assert row["se"] == pytest.approx(g.std(ddof=1) / np.sqrt(len(g)), rel=1e-6)
    with pytest.raises(ValueError, match="baseline 'never'"):
        result.differences("never")


def test_ratio_estimate_without_controls_is_the_ratio_of_means() -> None:
    mean = np.array([2.0, 4.0])
    cov = np.array([[1.0, 0.5], [0.5, 2.0]])
    theta, s = ratio_estimate(mean, cov, 0, 1, [])
    # Var(Y - θN) = 1 - 2·0.5·0.5 + 0.25·2 = 1.0, divided by E[N]² = 16
    assert (theta, s) == (0.5, pytest.approx(0.25))
    # with a control of zero covariance nothing changes
    mean3, cov3 = np.append(mean, 0.0), np.pad(cov, ((0, 1), (0, 1)))
    cov3[2, 2] = 1.0
    assert ratio_estimate(mean3, cov3, 0, 1, [2]) == (0.5, pytest.approx(0.25))


def test_results_are_identical_for_one_and_two_workers() -> None:
    study = CutCardStudy(n_shoes=4, seed=5, bets=("banker", "player"), block_size=2, coups=(30,))
    one = run_cut_card(study, workers=1, progress=False)
    two = run_cut_card(study, workers=2, progress=False)
    assert one.tally.equals(two.tally)
    assert one.table().equals(two.table())


def test_a_packed_spec_is_unpickled_once_per_process_and_tallies_the_same() -> None:
    """The spec a worker gets packed (unpickled at its first block only) tallies every block as the spec itself."""
    from packed_blocks import run_as_a_fresh_worker

    from toolkit import _packing
    from toolkit.studies.cut_card import tally

    study = _study()
    spec = cut_card_spec(study)
    packed = _packing.pack_spec(spec)
    blocks = list(study.blocks())
    direct = [tally_block(b, spec) for b in blocks]
    outputs, unpacked = run_as_a_fresh_worker(tally.tally_packed, blocks, packed, spec)
    assert unpacked.thorp.bet_names == spec.thorp.bet_names
    for a, b in zip(direct, outputs, strict=True):
        assert a.coups == b.coups
        assert a.tally.equals(b.tally)


@pytest.fixture(scope="module")
def many_shoes():
    study = CutCardStudy(n_shoes=600, seed=2, bets=BETS, cut_cards=(14,), coups=(60,), block_size=300)
    return run_cut_card(study, progress=False)


def test_a_coup_started_at_a_fixed_card_index_has_the_fresh_edge(many_shoes) -> None:
    """Exchangeability: the cards left after ``k`` uniformly random cards are a uniformly random set, so the
    mean of ``EV(shoe[k:]) - EV_fresh`` over shoes is zero at every ``k``.

    Stochastic: each of the 3 bets × 4 indices is tested at |z| < 4.5 (two-sided false-failure rate 6.8e-6
    each, under 1e-4 for all twelve by the union bound)."""
    ex = many_shoes.exchangeability()
    picked = ex.filter(ex["cards_left"].is_in([300, 100, 30, 10]))
    assert picked.height == 12
    assert (picked["z"].abs() < 4.5).all(), picked
    # the means are not all exactly zero (the test can fail): they have spread
    assert (picked["se"] > 0).all()


def test_dealing_a_fixed_number_of_coups_has_no_effect(many_shoes) -> None:
    """With exactly 60 coups (never more than 6·60 + 11 cards, so always dealt) the coups dealt are fixed
    coup numbers, and coup ``j`` has the fresh-shoe edge (swapping the cards of coups 1 and ``j`` is a
    bijection of the shoes): the effect is zero within its interval.

    Stochastic: |z| < 4.5 for each of 3 bets (false-failure rate 6.8e-6 each, 2e-5 in all)."""
    rows = many_shoes.table().filter(many_shoes.table()["rule"] == "coups60")
    assert rows["coups_per_shoe"].to_list() == [60.0] * 3
    assert ((rows["effect"] / rows["se"]).abs() < 4.5).all(), rows


def test_a_study_refuses_bad_values_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"Dealing\.cut_card"):
        CutCardStudy(cut_cards=(500,)).rules_dealt()
    with pytest.raises(ValueError, match="no rule to compare"):
        CutCardStudy(cut_cards=(), last_hands=("one_more",))
    with pytest.raises(ValueError, match=r"CutCardStudy\.last_hands"):
        CutCardStudy(last_hands=("never",))
    with pytest.raises(ValueError, match=r"CutCardStudy\.n_shoes"):
        CutCardStudy(n_shoes=0)


def test_cut_card_effect_returns_the_documented_columns() -> None:
    frame = bt.cut_card_effect(n_shoes=3, bets=("banker",), seed=1, progress=False)
    assert frame.columns[:9] == [
        "rule",
        "bet",
        "fresh_edge",
        "dealt_edge",
        "effect",
        "ci_low",
        "ci_high",
        "coups_per_shoe",
        "shoes",
    ]
    assert frame["fresh_edge"][0] == pytest.approx(bt.bet_stats(bt.get_bet("banker"), "8 decks").house_edge * -1)
