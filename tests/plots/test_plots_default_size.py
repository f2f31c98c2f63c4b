"""Figures as a reader sees them at their default size: nothing cut off, hidden or unlabelled."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.colors import to_hex

from toolkit.plots._axes import bet_colour, draw_bet_lines
from toolkit.plots.cut_card import plot_cut_card_effect
from toolkit.plots.records import plot_replay_counts


def test_every_cut_card_bar_is_drawn_whole_about_a_centred_zero() -> None:
    """The symlog axis pads nothing: a Dragon 7 interval ran off both edges."""
    frame = pl.DataFrame(
        {
            "rule": "cut14",
            "bet": ["banker", "dragon7", "natural9"],
            "effect": [-3e-5, 1.2e-3, 2e-3],
            "ci_low": [-1e-4, -4e-3, -2.5e-3],
            "ci_high": [8e-5, 6e-3, 5e-3],
        }
    )
    ax = plot_cut_card_effect(frame)
    low, high = ax.get_xlim()
    assert low <= -4e-3
    assert high >= 6e-3
    assert np.isclose(low, -high)
    plt.close(ax.figure)


def test_a_replayed_count_takes_the_colour_of_its_bet() -> None:
    """Above it in notebook 04, the edges draw Dragon 7 orange and Panda 8 brown; the counts drew them otherwise."""
    frame = pl.DataFrame({"coup": [1, 2, 3], "tc_dragon7": [0.0, 1.0, 2.0], "tc_panda8": [0.0, -1.0, -3.0]})
    ax = plot_replay_counts(frame)
    systems = ("dragon7", "panda8")
    drawn = {line.get_label(): to_hex(line.get_color()) for line in ax.get_lines() if line.get_label() in systems}
    assert drawn == {"dragon7": to_hex(bet_colour("dragon7")), "panda8": to_hex(bet_colour("panda8"))}
    plt.close(ax.figure)


def test_a_line_lying_on_another_is_dashed_and_says_how_near() -> None:
    x = np.arange(1.0, 6.0)
    _, ax = plt.subplots()
    draw_bet_lines(ax, {"player": (x, x), "banker": (x, 1.03 * x), "tie": (x, 3 * x)}, close=0.1)
    labels = {line.get_gid(): (line.get_label(), line.get_linestyle()) for line in ax.get_lines()}
    assert labels["bet-banker"] == ("Banker (within 10 % of Player)", "--")
    assert labels["bet-tie"] == ("Tie 8:1", "-")
    assert labels["bet-player"] == ("Player", "-")
    _, ax2 = plt.subplots()
    draw_bet_lines(ax2, {"player": (x, x), "banker": (x, 1.03 * x)})  # without close, only equal lines are named
    assert [line.get_label() for line in ax2.get_lines()] == ["Player", "Banker"]
    plt.close("all")


def test_the_share_bet_and_the_units_won_stand_on_one_baseline() -> None:
    """The twin axis's own margin put its 0 below the bars' 0, so an empty share looked like a bet share."""
    from toolkit.plots.counting import plot_count_value_by_depth

    frame = pl.DataFrame({"cards_out": [1, 2, 3], "hands": [10.0, 10.0, 10.0], "bets": [0.0, 2.0, 5.0],
                          "units_ev": [0.0, 0.001, 0.004]})  # fmt: skip
    ax = plot_count_value_by_depth(frame)
    (share,) = [other for other in ax.figure.axes if other is not ax]
    assert share.get_ylim()[0] == 0
    assert ax.get_ylim()[0] == 0
    assert to_hex(ax.yaxis.label.get_color()) != to_hex(share.yaxis.label.get_color())
    plt.close(ax.figure)


def test_the_variance_ratio_has_a_key_and_p_positive_plain_ticks() -> None:
    from toolkit.plots import plot_p_positive, plot_variance_ratio

    ratio = pl.DataFrame({"bet": ["banker"] * 2 + ["player"] * 2, "unseen_mid": [15.0, 200.0] * 2,
                          "ratio": [2.1, 1.0, 2.15, 1.01]})  # fmt: skip
    ax = plot_variance_ratio(ratio)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Banker", "Player (within 10 % of Banker)"]
    ax.figure.canvas.draw()
    key = ax.get_legend().get_window_extent()
    top = max(ax.transData.transform((x, y))[1] for x, y in zip(ratio["unseen_mid"], ratio["ratio"], strict=True))
    assert key.y0 > top  # the key sits above the highest point, covering no line
    rows = pl.DataFrame({"observer": "perfect", "bet": "banker", "unseen": [10, 20, 30], "hands": 50,
                         "p_positive": [0.5, 0.05, 0.01], "p_low": [0.3, 0.02, 0.002],
                         "p_high": [0.7, 0.1, 0.05]})  # fmt: skip
    ax = plot_p_positive(rows, "banker")
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert labels
    assert all("10^" not in label and "$" not in label for label in labels)
    plt.close("all")
