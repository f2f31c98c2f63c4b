"""A bankroll report prints a few lines and a small HTML table."""

from __future__ import annotations

from show_checks import check_shown as _check

import toolkit as bt


def test_bankroll_report() -> None:
    report = bt.bankroll_report(n_shoes=30, paths=50, progress=False, seed=1)
    _check(report, "BankrollReport 'dragon7 TC >= 4': bankroll 1,000")
    assert "risk of ruin" in repr(report)
