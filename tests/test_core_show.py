"""Dealt shoes and bet statistics print a few lines and a small HTML table."""

from __future__ import annotations

from show_checks import check_shown as _check

import toolkit as bt


def test_dealt_shoes() -> None:
    dealt = bt.deal(40, seed=3)
    _check(dealt, "DealtShoes: 40 shoe(s)")


def test_bet_stats() -> None:
    stats = bt.bet_stats("banker", 8)
    _check(stats, "BetStats 'banker'")
    assert "1.0579%" in repr(stats)


def test_distribution_prints_its_labels_not_its_1600_probabilities() -> None:
    exact = bt.distribution(8, exact=True)
    _check(exact, "Distribution of the next coup: 1,600 outcome classes, exact fractions")
    assert "P(Banker wins)" in repr(exact)
    assert "0.458597" in exact._repr_html_()
    assert len(repr(exact)) < 500  # the Fractions printed whole ran to 37,775 characters


def test_distribution_is_still_the_vector_of_probabilities() -> None:
    from fractions import Fraction

    import numpy as np

    p = bt.distribution(8)
    exact = bt.distribution(8, exact=True)
    assert len(p) == 1600
    assert np.asarray(p).shape == (1600,)
    assert np.asarray(p).dtype == np.float64
    assert abs(float(np.sum(p)) - 1.0) < 1e-12
    assert exact.sum() == 1
    assert all(isinstance(q, Fraction) for q in exact)
    assert int((p > 0).sum()) == p.frame().height == bt.distribution_frame(8).height
    assert np.max(np.abs(p - np.array([float(q) for q in exact]))) < 1e-15
