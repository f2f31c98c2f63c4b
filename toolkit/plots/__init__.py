"""Plots: each takes polars frames (and ``ax=None``), draws with seaborn or matplotlib and returns the axes.

Every bet is named in words and has one colour in every figure
(:data:`toolkit.plots._axes.BET_COLOURS`, by family); axes of cards carry plain
tick labels on every panel and dotted, labelled lines at 20 and 50 cards.
"""

from toolkit.plots.assess import plot_assess_eor, plot_assess_penetration, plot_assess_sweep, save_assess_figures
from toolkit.plots.bankroll import plot_bankroll_fan, plot_risk_curve, plot_session_results
from toolkit.plots.chemin import plot_banker_strategy, plot_option_values, plot_solutions
from toolkit.plots.counting import (
    plot_count_path,
    plot_count_quality,
    plot_count_value_by_depth,
    plot_ev_by_count,
    plot_penetration,
    plot_threshold_sweep,
)
from toolkit.plots.cut_card import cut_card_figure, plot_coups_per_shoe, plot_cut_card_effect, plot_last_coups
from toolkit.plots.edges import plot_depletion, plot_edges_by_decks, plot_eor_heatmap
from toolkit.plots.records import (
    plot_bead_plate,
    plot_bet_tracking,
    plot_big_road,
    plot_replay_counts,
    plot_replay_edges,
)
from toolkit.plots.shuffle import plot_test_power, plot_tracker_edge
from toolkit.plots.study import (
    by_bet_figure,
    plot_gain_share,
    plot_jacobson,
    plot_mean_positive_ev,
    plot_p_positive,
    plot_variance,
    plot_variance_ratio,
    plot_where_edges_are,
    save_study_figures,
)

__all__ = (
    "by_bet_figure",
    "cut_card_figure",
    "plot_assess_eor",
    "plot_assess_penetration",
    "plot_assess_sweep",
    "plot_banker_strategy",
    "plot_bankroll_fan",
    "plot_bead_plate",
    "plot_bet_tracking",
    "plot_big_road",
    "plot_count_path",
    "plot_count_quality",
    "plot_count_value_by_depth",
    "plot_coups_per_shoe",
    "plot_cut_card_effect",
    "plot_depletion",
    "plot_edges_by_decks",
    "plot_eor_heatmap",
    "plot_ev_by_count",
    "plot_gain_share",
    "plot_jacobson",
    "plot_last_coups",
    "plot_mean_positive_ev",
    "plot_option_values",
    "plot_p_positive",
    "plot_penetration",
    "plot_replay_counts",
    "plot_replay_edges",
    "plot_risk_curve",
    "plot_session_results",
    "plot_solutions",
    "plot_test_power",
    "plot_threshold_sweep",
    "plot_tracker_edge",
    "plot_variance",
    "plot_variance_ratio",
    "plot_where_edges_are",
    "save_assess_figures",
    "save_study_figures",
)
