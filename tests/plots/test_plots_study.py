"""Figures of the toolkit: tick labels on every panel, labelled 20/50-card lines, one colour per bet, words."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
from matplotlib.colors import to_hex, to_rgba

from toolkit.plots import (
    by_bet_figure,
    plot_gain_share,
    plot_jacobson,
    plot_option_values,
    plot_p_positive,
    plot_threshold_sweep,
    plot_variance,
    plot_variance_ratio,
    plot_where_edges_are,
    save_study_figures,
)
from toolkit.plots._axes import BET_COLOURS, bet_colour, bet_name
from toolkit.studies import ThorpStudy, run_study

BETS = ("banker", "player", "tie", "tie_9to1", "dragon7", "panda8", "player_pair", "banker_pair")


@pytest.fixture(scope="module")
def result():
    return run_study(ThorpStudy(n_shoes=60, seed=5, bets=BETS, block_size=30), progress=False)


def _references(ax) -> set[str]:
    gids = {line.get_gid() for line in ax.get_lines()} | {t.get_gid() for t in ax.texts}
    return {g for g in gids if g and g.startswith("reference-")}


def _bet_lines(ax) -> dict[str, str]:
    lines = [line for line in ax.get_lines() if (line.get_gid() or "").startswith("bet-")]
    return {line.get_gid()[4:]: to_hex(line.get_color()) for line in lines}


def test_small_multiples_label_every_panel(result) -> None:
    fig = by_bet_figure(result.by_unseen(), plot_p_positive)
    fig.canvas.draw()
    visible = [ax for ax in fig.axes if ax.get_visible()]
    titles = [bet_name(b) for b in BETS]  # words, grouped by family; a panel that repeats another says so
    titles[BETS.index("banker_pair")] = "Banker Pair (same as Player Pair)"
    assert [ax.get_title() for ax in visible] == titles
    for ax in visible:
        labels = [t.get_text() for t in ax.get_xticklabels() if t.get_visible()]
        assert {"20", "50"} <= set(labels), ax.get_title()
        assert _references(ax) == {"reference-20", "reference-50", "reference-20-label", "reference-50-label"}
        assert any("20 cards" in t.get_text() for t in ax.texts)
    plt.close(fig)


def test_band_takes_the_colour_of_its_line(result) -> None:
    for bet in ("panda8", "banker"):
        ax = plot_p_positive(result.by_unseen(), bet)
        (line,) = ax.get_lines()[:1]
        band = ax.collections[0]
        assert to_hex(line.get_color()) == BET_COLOURS[bet]
        assert to_hex(band.get_facecolor()[0], keep_alpha=False) == BET_COLOURS[bet]
        plt.close(ax.figure)


def test_sweep_band_takes_the_colour_of_its_line() -> None:
    sweep = pl.DataFrame(
        {
            "threshold": [2, 4, 2, 4],
            "strategy": ["dragon7 TC >= 4", "dragon7 TC >= 4", "panda8 TC >= 11", "panda8 TC >= 11"],
            "units_per_shoe_ev": [0.1, 0.2, 0.3, 0.2],
            "units_per_shoe_ev_low": [0.0, 0.1, 0.2, 0.1],
            "units_per_shoe_ev_high": [0.2, 0.3, 0.4, 0.3],
        }
    )
    ax = plot_threshold_sweep(sweep, hue="strategy")
    lines = [to_hex(line.get_color()) for line in ax.get_lines()][:2]
    bands = [to_hex(c.get_facecolor()[0], keep_alpha=False) for c in ax.collections]
    assert lines == bands == [BET_COLOURS["dragon7"], BET_COLOURS["panda8"]]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Dragon 7 TC >= 4", "Panda 8 TC >= 11"]
    plt.close(ax.figure)


def test_a_bet_has_one_colour_in_every_figure(result) -> None:
    seen: dict[str, set[str]] = {}
    _fig, axes = plt.subplots(1, 4)
    plot_gain_share(result.cumulative(), ax=axes[0])
    plot_variance(result.variance(), ax=axes[1])
    plot_variance_ratio(result.variance_by_bucket(), ax=axes[2])
    plot_jacobson(result.jacobson(), ax=axes[3])
    for ax in axes:
        for bet, colour in _bet_lines(ax).items():
            seen.setdefault(bet, set()).add(colour)
        assert _references(ax) >= {"reference-20", "reference-50"}
    assert {"banker", "player", "tie", "panda8"} <= set(seen)
    assert all(colours == {BET_COLOURS[bet]} for bet, colours in seen.items()), seen
    assert len(set(BET_COLOURS.values())) == len(BET_COLOURS)  # no two bets share a colour
    left, _right = plot_where_edges_are(result.claims())
    for label in left.get_yticklabels():
        bet = next(b for b in BETS if bet_name(b) == label.get_text())
        assert to_hex(label.get_color()) == BET_COLOURS[bet]
    plt.close("all")


def test_legends_name_bets_in_words_and_say_when_two_coincide(result) -> None:
    ax = plot_gain_share(result.cumulative())
    labels = ax.get_legend_handles_labels()[1]
    assert "Banker Pair (same as Player Pair)" in labels
    assert "Dragon 7" in labels
    assert "Tie 9:1" in labels
    assert not any("_" in label for label in labels)
    ax = plot_variance_ratio(result.variance_by_bucket())
    assert "Tie 9:1 (same as Tie 8:1)" in ax.get_legend_handles_labels()[1]
    plt.close("all")


def test_save_study_figures_draws_the_answer_first(result, tmp_path) -> None:
    frames = {"by_unseen": result.by_unseen(), "cumulative": result.cumulative(), "claims": result.claims()}
    paths = save_study_figures(frames, tmp_path)
    assert next(iter(paths.values())).name == "where_the_edges_are.png"


def test_option_values_show_differences_of_a_few_parts_in_ten_thousand() -> None:
    frame = pl.DataFrame({"play": ["forced", "best response", "solved"], "banker_ev": [0.0123, 0.01235, 0.0128]})
    ax = plot_option_values(frame)
    widths = [float(p.get_width()) for p in ax.patches]
    assert np.allclose(widths, [0.0, 0.5, 5.0])  # in units of 1e-4: a 5e-4 difference is five units wide
    assert ax.get_xlim()[1] > 5.0
    assert "0.01230" in ax.get_xlabel()
    plt.close(ax.figure)


def test_bet_colour_of_names_outside_the_panel_is_stable() -> None:
    assert bet_colour("how_dragon7") == bet_colour("how_dragon7")
    assert to_rgba(bet_colour("mystery"))[3] == 1.0


def test_the_colour_map_and_the_report_know_the_same_bets() -> None:
    from toolkit.studies.thorp._text import BET_GROUPS

    assert set(BET_COLOURS) == set(BET_GROUPS)


def test_the_nearest_bucket_of_the_variance_ratio_stays_on_the_axes() -> None:
    """The 0-10 bucket sits at 5 cards unseen, left of the other panels' 6; the Tie's ratio there is large."""
    from toolkit.plots import plot_variance_ratio

    frame = pl.DataFrame({"bet": ["tie"] * 3, "unseen_mid": [5.0, 15.0, 200.0], "ratio": [5.55, 2.1, 1.0]})
    ax = plot_variance_ratio(frame)
    low, high = ax.get_xlim()
    assert low < 5 < high
    assert ax.get_ylim()[1] > 5.55
    plt.close(ax.figure)


def test_the_exact_law_of_the_last_cards_is_drawn_beside_the_sample(result) -> None:
    exact = pl.DataFrame({"unseen": [7, 6], "bet": ["banker", "banker"], "exact_p_positive": [0.26, 0.27]})
    ax = plot_p_positive(result.by_unseen(), "banker", exact=exact)
    dots = [line for line in ax.get_lines() if line.get_label() == "exact"]
    assert len(dots) == 1
    assert dots[0].get_xdata().tolist() == [6, 7]
    assert dots[0].get_ydata().tolist() == [0.27, 0.26]
    ax = plot_p_positive(result.by_unseen(), "tie", exact=exact)
    assert not [line for line in ax.get_lines() if line.get_label() == "exact"]
    plt.close("all")


def _label_boxes(ax) -> list:
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    return [t.get_window_extent(renderer) for t in ax.texts if (t.get_gid() or "").endswith("-label")]


@pytest.mark.parametrize("inverted", [False, True])
def test_the_reference_labels_stay_inside_the_axes_and_apart(inverted) -> None:
    """Jacobson's axes end 3 cards past 50; an inverted axis of cards left put '50 cards' over '20 cards'."""
    from toolkit.plots._axes import reference_lines

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([10, 53], [0, 1])
    ax.set_xlim(15, 53) if not inverted else ax.set_xlim(420, 0)
    reference_lines(ax)
    boxes = _label_boxes(ax)
    frame = ax.get_window_extent()
    assert len(boxes) == 2
    for box in boxes:
        assert frame.x0 <= box.x0
        assert box.x1 <= frame.x1
        assert frame.y0 <= box.y0
        assert box.y1 <= frame.y1
    assert not boxes[0].overlaps(boxes[1])
    plt.close(fig)


def test_the_option_values_labels_fit_their_default_figure() -> None:
    """At (7, 3.5) the one-line x label was wider than the figure and cut at both ends, with the longest play."""
    frame = pl.DataFrame(
        {
            "play": ["forced: Player draws at 5, tableau Banker", "restricted Banker options (3 v 9, 5 v 4), solved"],
            "banker_ev": [0.0123, 0.0128],
        }
    )
    ax = plot_option_values(frame)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    for text in [ax.xaxis.label, *ax.get_yticklabels()]:
        box = text.get_window_extent(renderer)
        assert page.x0 <= box.x0
        assert box.x1 <= page.x1
    plt.close(fig)
