"""A chemin de fer solution and its strategies print briefly."""

from __future__ import annotations

from show_checks import check_shown as _check

import toolkit as bt


def test_chemin_solution() -> None:
    sol = bt.solve_chemin("A1")
    _check(sol, "ChemSolution: model A1")
    assert repr(sol.player).startswith("PlayerStrategy('optimal player': draws on")
    assert len(repr(sol.banker)) < 120


def test_banque_table_is_one_line() -> None:
    from toolkit.games import PlayerStrategy, banque_table

    table = banque_table(3, PlayerStrategy.at_five(1), PlayerStrategy.at_five(1))
    assert repr(table) == f"BanqueTable(156-card shoe, without replacement, table {table.table.shape})"
