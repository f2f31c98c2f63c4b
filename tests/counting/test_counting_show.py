"""Results, shoe totals, count systems and strategies print briefly."""

from __future__ import annotations

import numpy as np
from show_checks import check_shown as _check

import toolkit as bt
from toolkit.counting.results import ShoeTotals


def test_results() -> None:
    (res,) = bt.run_strategies([bt.count_strategy("dragon7")], n_shoes=40, seed=1, progress=False)
    _check(res, "Results 'dragon7 TC >= 4': 40 shoes")
    assert "DI" in repr(res)
    assert repr(res.totals).startswith("ShoeTotals(40 shoes")


def test_one_liners() -> None:
    for obj in (bt.get_count_system("dragon7"), bt.count_strategy("dragon7")):
        text = repr(obj)
        assert "\n" not in text
        assert len(text) < 200, text


def test_shoe_totals() -> None:
    t = ShoeTotals(*(np.zeros(3) for _ in range(6)))
    assert repr(t) == "ShoeTotals(3 shoes, 0 bets, +0 units won)"


def test_pre_coup_is_one_line() -> None:
    from toolkit.counting import PreCoup

    info = PreCoup.from_dealt(bt.deal(3, seed=1, progress=False))
    assert repr(info).startswith(f"PreCoup({len(info):,} coups of 3 shoe(s)")
    assert "\n" not in repr(info)
