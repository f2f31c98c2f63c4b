"""Counting plots draw the frames they are given, on the axes they are given, and say what a frame lacks."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import polars as pl
import pytest

from toolkit.counting import count_quality, count_strategy, penetration_sweep, threshold_sweep, with_counts
from toolkit.dealing.dealer import deal
from toolkit.plots import counting as plots_counting


@pytest.fixture(scope="module")
def dealt():
    return deal(20, seed=1, progress=False)


def test_count_path_and_quality_plots(dealt) -> None:
    frame = with_counts(dealt, ["dragon7", "how_dragon7"])
    fig, (a, b, c) = plt.subplots(1, 3)
    assert plots_counting.plot_count_path(frame, ["dragon7"], ax=a) is a
    assert plots_counting.plot_count_path(frame, ["how_dragon7"], shoe=3, kind="rc", ax=b) is b
    assert len(a.get_lines()) >= 1
    quality = count_quality(dealt, ["dragon7", "panda8"])
    assert plots_counting.plot_count_quality(quality, ax=c) is c
    with pytest.raises(ValueError, match="tc_panda8"):
        plots_counting.plot_count_path(frame, ["panda8"])
    with pytest.raises(ValueError, match="shoe 99"):
        plots_counting.plot_count_path(frame, ["dragon7"], shoe=99)
    plt.close(fig)


def test_ev_scatter_and_sweeps() -> None:
    frame = pl.DataFrame({"tc": [0.0, 1.0, 2.0], "ev": [-0.1, 0.0, 0.1]})
    ax = plots_counting.plot_ev_by_count(frame, "tc", "ev")
    assert ax.get_xlabel() == "tc"
    sweep = threshold_sweep("dragon7", [2, 4], 30, seed=2, workers=1, progress=False)
    ax = plots_counting.plot_threshold_sweep(sweep)
    assert ax.get_xlabel().startswith("betting threshold")
    pen = penetration_sweep(count_strategy("dragon7"), [14, 52], 30, seed=2, workers=1, progress=False)
    assert pen["cut_card"].to_list() == [14, 52]
    ax = plots_counting.plot_penetration(pen)
    assert ax.get_xlabel().startswith("cut card")
    with pytest.raises(ValueError, match="units_per_shoe_ev"):
        plots_counting.plot_threshold_sweep(pl.DataFrame({"threshold": [1]}))
    plt.close("all")


def test_a_computed_count_by_depth_plot_draws_its_frame() -> None:
    from toolkit.counting import count_value
    from toolkit.dealing.dealer import Dealing

    value = count_value("dragon7", Dealing(decks=1))
    ax = plots_counting.plot_count_value_by_depth(value.by_depth)
    assert len(ax.patches) == value.by_depth.height
    assert ax.get_xlabel().startswith("cards out")
    with pytest.raises(ValueError, match="units_ev"):
        plots_counting.plot_count_value_by_depth(pl.DataFrame({"cards_out": [1]}))
    plt.close("all")
