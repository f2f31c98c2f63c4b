"""baccarat-toolkit: exact baccarat odds, effects of removal, shoes, counts and studies.

The layers, each calling only the ones above it in this list:

* **core**, five subpackages: :mod:`toolkit.coup` (cards and shoes, rules and tableau, outcomes, suited
  shoes, the deal's options and the one compiled coup step); :mod:`toolkit.exact` (the exact engine, as
  arrays and frames) and :mod:`toolkit.dealing` (shoes dealt as a casino deals them, badly shuffled
  shoes); :mod:`toolkit.bets` (pay tables, side bets on any card and their evaluators, bet files, the
  catalogue, CA tables); :mod:`toolkit.edges` (effects of removal, known cards, edges of dealt shoes,
  published figures). The top-level modules are helpers they share (checks, display, bounded file
  reads, intervals, parallel blocks);
* **subjects**: :mod:`toolkit.counting` (count systems, strategies) and :mod:`toolkit.games`
  (chemin de fer, baccarat banque); above counting, :mod:`toolkit.records` (recorded shoes,
  replay, randomness) and :mod:`toolkit.sizing` (Kelly stakes, risk of ruin, a counter's bankroll);
* **studies**: :mod:`toolkit.studies` (Thorp's end-of-shoe study, the side-bet assessment), and
  :mod:`toolkit.live` (a live shoe followed card by card), :mod:`toolkit.protection` (who at the table
  is counting, from recorded bets);
* **plots**: :mod:`toolkit.plots`;
* **front ends**: :mod:`toolkit.cli` (the ``baccarat`` command) and :mod:`toolkit.widgets` (Jupyter).

``tests/test_architecture.py`` checks that each layer calls only the layers before it.

The public API below is re-exported here and loaded on first use, so ``import toolkit`` (and the
``baccarat`` command) stays fast. Each name is written twice: in the imports that editors and type
checkers read, and in ``__all__``; the lazy loader reads the imports.

>>> import toolkit as bt
>>> round(bt.bet_stats(bt.get_bet("banker"), "8 decks").house_edge * 100, 4)
1.0579
"""

from __future__ import annotations

import ast as _ast
from functools import cache as _cache
from importlib import import_module as _import_module
from pathlib import Path as _Path
from typing import TYPE_CHECKING as _TYPE_CHECKING

from toolkit._kernel_cache import watch as _watch_kernel_caches

_watch_kernel_caches()  # numba's kernel cache keyed by the modules a kernel imports (toolkit/_kernel_cache.py)

__version__ = "0.1.0"

if _TYPE_CHECKING:
    from toolkit.bets import (
        Bet,
        BetStats,
        CATable,
        CoupBet,
        PayTable,
        bet_from_file,
        bet_names,
        bet_stats,
        ca_summary,
        ca_table,
        coup_distribution,
        edge_table,
        expected_values,
        get_bet,
        make_bet,
        standard_bets,
    )
    from toolkit.counting import (
        COUNT_SYSTEMS,
        CountPlay,
        CountSystem,
        CountValue,
        Estimate,
        LookAheadError,
        PerfectPlay,
        Play,
        PreCoup,
        Ramp,
        Results,
        ShoeTotals,
        Strategy,
        best_count,
        betting_correlation,
        combine_strategies,
        compare_strategies,
        count_arrays,
        count_quality,
        count_strategy,
        count_systems,
        count_value,
        eor_count,
        get_count_system,
        penetration_sweep,
        perfect_strategy,
        results_frame,
        run_strategies,
        threshold_sweep,
        with_counts,
    )
    from toolkit.coup import (
        PUNTO_BANCO,
        RANKS,
        Composition,
        Outcome,
        Rules,
        RulesFile,
        SuitedShoe,
        Tableau,
        card_value,
        class_index,
        outcome_frame,
        outcomes,
        parse_card,
        parse_cards,
        read_rules_file,
    )
    from toolkit.dealing import (
        Dealing,
        DealtShoes,
        deal,
        deal_block,
        riffle_shuffle,
        shuffled_shoes,
        stacked_shoes,
    )
    from toolkit.dealing.shuffles import guessing_game, read_recipe, shuffle_orders, total_variation
    from toolkit.edges import (
        InformationEdge,
        Reproduced,
        best_partitions,
        compare_published,
        depletion_by_value,
        edges_by_decks,
        effect_of_removal,
        eor_matrix,
        information_edge,
        known_card_edges,
        known_card_gain,
        load_reference,
        random_depletion,
        reference_dir,
    )
    from toolkit.exact import (
        combination_counts,
        combination_counts_frame,
        distribution,
        distribution_frame,
        main_probabilities,
        zero_pair_probabilities,
    )
    from toolkit.exact.engine import (
        compiled_bets,
        pair_probabilities,
    )
    from toolkit.games import (
        RESTRICTED_BANKER_OPTIONS,
        BankerStrategy,
        BanqueBanker,
        BanqueValue,
        ChemSolution,
        ChemValue,
        PlayerStrategy,
        banque_banker_best_response,
        banque_exact_vs_simulated,
        banque_value,
        chemin_banker_best_response,
        chemin_exact_vs_simulated,
        chemin_option_values,
        chemin_player_best_response,
        chemin_value,
        simulate_banque_shoes,
        simulate_chemin_shoes,
        solve_chemin,
    )
    from toolkit.live import (
        LiveShoe,
        Panel,
        ShoeSteps,
        Snapshot,
        Tracker,
    )
    from toolkit.parallel import (
        block_plan,
        map_blocks,
    )
    from toolkit.protection import (
        detect_counters,
        simulate_table,
    )
    from toolkit.records import (
        Problem,
        RecordError,
        Records,
        ShoeHeader,
        ValidationReport,
        bead_plate,
        bet_edges,
        big_road,
        cut_card_test,
        deck_mixing_test,
        frequency_test,
        randomness_tests,
        read_bets,
        read_records,
        records_from_dealt,
        records_from_frame,
        records_from_orders,
        repeated_sequences,
        replay_records,
        runs_test,
        simulate_records,
        streak_test,
        tracking_test,
        write_records,
    )
    from toolkit.sizing import (
        BackCount,
        BankrollReport,
        Limits,
        MiscountedPlay,
        bankroll_report,
        kelly_fractions,
        kelly_stakes,
        kelly_strategy,
    )
    from toolkit.studies import (
        StudyResult,
        ThorpStudy,
        edge_sorter_shoes,
        edge_sorter_summary,
        jacobson_setting,
        last_cards,
        linear_variance,
        reproduce_table,
        run_study,
        study_summary,
        study_verdicts,
        write_outputs,
    )
    from toolkit.studies.assess import (
        Assessment,
        assess_bet,
    )
    from toolkit.studies.cut_card import (
        CutCardResult,
        CutCardStudy,
        cut_card_effect,
        run_cut_card,
    )
    from toolkit.studies.shuffle import (
        shuffle_test_power,
        shuffle_tracker_edge,
    )
    from toolkit.widgets import (
        ShoeExplorer,
        ShoeStepper,
    )

__all__ = (
    "COUNT_SYSTEMS",
    "PUNTO_BANCO",
    "RANKS",
    "RESTRICTED_BANKER_OPTIONS",
    "Assessment",
    "BackCount",
    "BankerStrategy",
    "BankrollReport",
    "BanqueBanker",
    "BanqueValue",
    "Bet",
    "BetStats",
    "CATable",
    "ChemSolution",
    "ChemValue",
    "Composition",
    "CountPlay",
    "CountSystem",
    "CountValue",
    "CoupBet",
    "CutCardResult",
    "CutCardStudy",
    "Dealing",
    "DealtShoes",
    "Estimate",
    "InformationEdge",
    "Limits",
    "LiveShoe",
    "LookAheadError",
    "MiscountedPlay",
    "Outcome",
    "Panel",
    "PayTable",
    "PerfectPlay",
    "Play",
    "PlayerStrategy",
    "PreCoup",
    "Problem",
    "Ramp",
    "RecordError",
    "Records",
    "Reproduced",
    "Results",
    "Rules",
    "RulesFile",
    "ShoeExplorer",
    "ShoeHeader",
    "ShoeStepper",
    "ShoeSteps",
    "ShoeTotals",
    "Snapshot",
    "Strategy",
    "StudyResult",
    "SuitedShoe",
    "Tableau",
    "ThorpStudy",
    "Tracker",
    "ValidationReport",
    "assess_bet",
    "bankroll_report",
    "banque_banker_best_response",
    "banque_exact_vs_simulated",
    "banque_value",
    "bead_plate",
    "best_count",
    "best_partitions",
    "bet_edges",
    "bet_from_file",
    "bet_names",
    "bet_stats",
    "betting_correlation",
    "big_road",
    "block_plan",
    "ca_summary",
    "ca_table",
    "card_value",
    "chemin_banker_best_response",
    "chemin_exact_vs_simulated",
    "chemin_option_values",
    "chemin_player_best_response",
    "chemin_value",
    "class_index",
    "combination_counts",
    "combination_counts_frame",
    "combine_strategies",
    "compare_published",
    "compare_strategies",
    "compiled_bets",
    "count_arrays",
    "count_quality",
    "count_strategy",
    "count_systems",
    "count_value",
    "coup_distribution",
    "cut_card_effect",
    "cut_card_test",
    "deal",
    "deal_block",
    "deck_mixing_test",
    "depletion_by_value",
    "detect_counters",
    "distribution",
    "distribution_frame",
    "edge_sorter_shoes",
    "edge_sorter_summary",
    "edge_table",
    "edges_by_decks",
    "effect_of_removal",
    "eor_count",
    "eor_matrix",
    "expected_values",
    "frequency_test",
    "get_bet",
    "get_count_system",
    "guessing_game",
    "information_edge",
    "jacobson_setting",
    "kelly_fractions",
    "kelly_stakes",
    "kelly_strategy",
    "known_card_edges",
    "known_card_gain",
    "last_cards",
    "linear_variance",
    "load_reference",
    "main_probabilities",
    "make_bet",
    "map_blocks",
    "outcome_frame",
    "outcomes",
    "pair_probabilities",
    "parse_card",
    "parse_cards",
    "penetration_sweep",
    "perfect_strategy",
    "random_depletion",
    "randomness_tests",
    "read_bets",
    "read_recipe",
    "read_records",
    "read_rules_file",
    "records_from_dealt",
    "records_from_frame",
    "records_from_orders",
    "reference_dir",
    "repeated_sequences",
    "replay_records",
    "reproduce_table",
    "results_frame",
    "riffle_shuffle",
    "run_cut_card",
    "run_strategies",
    "run_study",
    "runs_test",
    "shuffle_orders",
    "shuffle_test_power",
    "shuffle_tracker_edge",
    "shuffled_shoes",
    "simulate_banque_shoes",
    "simulate_chemin_shoes",
    "simulate_records",
    "simulate_table",
    "solve_chemin",
    "stacked_shoes",
    "standard_bets",
    "streak_test",
    "study_summary",
    "study_verdicts",
    "threshold_sweep",
    "total_variation",
    "tracking_test",
    "with_counts",
    "write_outputs",
    "write_records",
    "zero_pair_probabilities",
)


@_cache
def _where() -> dict[str, tuple[str, str]]:
    """The module and name behind each public name, read from the imports above (the names are written once)."""
    tree = _ast.parse(_Path(__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, _ast.If))
    return {
        alias.asname or alias.name: (str(node.module), alias.name)
        for node in block.body
        if isinstance(node, _ast.ImportFrom)
        for alias in node.names
    }


def __getattr__(name: str) -> object:
    try:
        module, attribute = _where()[name]
    except KeyError:
        raise AttributeError(f"module 'toolkit' has no attribute {name!r}") from None
    value = getattr(_import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, "__version__"})
