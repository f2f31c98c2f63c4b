"""Bankroll plots draw the frames of toolkit.sizing on the axes they are given, and say what a frame lacks."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import polars as pl
import pytest

from toolkit.plots import plot_bankroll_fan, plot_risk_curve, plot_session_results
from toolkit.sizing import bankroll_report


@pytest.fixture(scope="module")
def report():
    return bankroll_report("dragon7", bankroll=150, n_shoes=400, paths=100, seed=2, progress=False)


def test_fan_chart(report) -> None:
    fig, ax = plt.subplots()
    assert plot_bankroll_fan(report.paths(sessions=12, paths=200, seed=1), ax=ax) is ax
    assert len(ax.collections) == 2  # two bands: 5-95% and 25-75%
    assert "ruined" in ax.get_legend().get_texts()[-1].get_text()
    plt.close(fig)
    with pytest.raises(ValueError, match="quantile"):
        plot_bankroll_fan(pl.DataFrame({"session": [0], "bankroll": [1.0]}))


def test_session_results_and_risk_curve(report) -> None:
    fig, (a, b, c) = plt.subplots(1, 3)
    assert plot_session_results(report.sessions(300, seed=1), ax=a) is a
    both = pl.concat(
        [
            report.sessions(200, seed=1).with_columns(pl.lit("flat").alias("strategy")),
            report.sessions(200, seed=2).with_columns(pl.lit("again").alias("strategy")),
        ]
    )
    assert plot_session_results(both, hue="strategy", ax=b) is b
    curve = report.risk_curve([50, 100, 200], paths=100, seed=1)
    assert plot_risk_curve(curve, ax=c) is c
    assert c.get_yscale() == "log"
    plt.close(fig)
    two = pl.concat([curve.with_columns(pl.lit(s).alias("strategy")) for s in ("a", "b")])
    ax = plot_risk_curve(two, hue="strategy")
    assert len(ax.get_lines()) >= 2
    plt.close(ax.figure)
    with pytest.raises(TypeError, match="polars"):
        plot_risk_curve(curve.to_pandas())
