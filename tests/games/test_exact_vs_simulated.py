"""Exact values beside simulated means, for banque and chemin de fer."""

from __future__ import annotations

import pytest

from toolkit.games import (
    PlayerStrategy,
    banque_exact_vs_simulated,
    banque_tableau_banker,
    banque_value,
    chemin_exact_vs_simulated,
    solve_chemin,
)


def test_banque_table() -> None:
    """z of four correlated payoffs within 5 (false failure below 1e-5)."""
    p5 = PlayerStrategy.at_five(1)
    banker = banque_tableau_banker()
    table = banque_exact_vs_simulated(3, p5, p5, banker, 5000, seed=3)
    exact = banque_value(3, p5, p5, banker)
    assert table["bet"].to_list() == ["right", "left", "banker", "a_cheval"]
    assert table["exact"].to_list() == [exact.right_ev, exact.left_ev, exact.banker_ev, exact.a_cheval_ev]
    assert (table["std_error"] > 0).all()
    assert (table["z"].abs() < 5).all()
    zs = (table["simulated"] - table["exact"]) / table["std_error"]
    assert zs.to_list() == pytest.approx(table["z"].to_list())


def test_chemin_table() -> None:
    """z within 5 (false failure below 1e-6)."""
    sol = solve_chemin("B2", 6)
    table = chemin_exact_vs_simulated(sol, 5000, seed=2)
    assert table["side"].to_list() == ["banker", "player"]
    assert table["exact"].to_list() == [float(sol.value), float(sol.player_value)]
    assert (table["z"].abs() < 5).all()
    assert ((table["low"] < table["simulated"]) & (table["simulated"] < table["high"])).all()
