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
