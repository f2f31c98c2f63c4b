"""baccarat-toolkit: exact baccarat odds, effects of removal, shoes, counts and studies.

The public API is re-exported here and loaded lazily on first use, so
``import toolkit`` (and the ``baccarat`` command) stays fast and nothing heavy
happens at import time.  Modules: :mod:`toolkit.cards`, :mod:`toolkit.rules`,
:mod:`toolkit.outcomes`, :mod:`toolkit.engine`, :mod:`toolkit.bets`,
:mod:`toolkit.eor`, :mod:`toolkit.known_card`, :mod:`toolkit.edges`,
:mod:`toolkit.dealing`, :mod:`toolkit.parallel`, :mod:`toolkit.counts`,
:mod:`toolkit.betting`, :mod:`toolkit.records`, :mod:`toolkit.validation`,
:mod:`toolkit.replay`, :mod:`toolkit.randomness`, :mod:`toolkit.study`,
:mod:`toolkit.report`, :mod:`toolkit.reference`, :mod:`toolkit.chemin`,
:mod:`toolkit.banque`; plots in :mod:`toolkit.plots` and ``toolkit.plots_*``.

>>> import toolkit as bt
>>> round(bt.bet_stats(bt.get_bet("banker"), "8 decks").house_edge * 100, 4)
1.0579
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, tuple[str, ...]] = {
    "toolkit.cards": ("RANKS", "Composition", "card_value", "parse_card", "parse_cards"),
    "toolkit.rules": ("PUNTO_BANCO", "Rules", "Tableau"),
    "toolkit.outcomes": ("Outcome", "class_index", "outcome_frame", "outcomes"),
    "toolkit.engine": (
        "combination_counts",
        "compiled_bets",
        "distribution",
        "expected_values",
        "main_probabilities",
        "pair_probabilities",
        "zero_pair_probabilities",
    ),
    "toolkit.bets": ("Bet", "BetStats", "bet_stats", "edge_table", "get_bet", "panel_expected_values", "standard_bets"),
    "toolkit.eor": ("effect_of_removal", "eor_matrix"),
    "toolkit.known_card": ("known_card_edges", "known_card_gain"),
    "toolkit.edges": ("depletion_by_value", "edges_by_decks", "random_depletion"),
    "toolkit.reference": ("Reproduced", "compare_published", "load_reference", "reference_dir"),
    "toolkit.dealing": ("Dealing", "DealtShoes", "deal", "deal_block", "shuffled_shoes"),
    "toolkit.parallel": ("block_plan", "map_blocks"),
    "toolkit.counts": (
        "CountSystem",
        "betting_correlation",
        "count_arrays",
        "count_quality",
        "count_systems",
        "eor_count",
        "get_count_system",
        "with_counts",
    ),
    "toolkit.betting": (
        "CountPlay",
        "LookAheadError",
        "PerfectPlay",
        "PreCoup",
        "Ramp",
        "Results",
        "Strategy",
        "combine",
        "count_strategy",
        "penetration_sweep",
        "perfect_strategy",
        "run_strategies",
        "threshold_sweep",
    ),
    "toolkit.records": (
        "Records",
        "ShoeHeader",
        "read_bets",
        "read_records",
        "records_from_dealt",
        "records_from_frame",
        "records_from_orders",
        "simulate_records",
        "write_records",
    ),
    "toolkit.validation": ("Problem", "RecordError", "ValidationReport"),
    "toolkit.replay": ("bet_edges", "tracking_test"),
    "toolkit.randomness": (
        "bead_plate",
        "big_road",
        "cut_card_test",
        "deck_mixing_test",
        "frequency_test",
        "randomness_tests",
        "repeated_sequences",
        "runs_test",
        "streak_test",
    ),
    "toolkit.study": ("StudyResult", "ThorpStudy", "jacobson_setting", "linear_variance", "run_study"),
    "toolkit.report": ("reproduce_table", "summary", "verdicts", "write_outputs"),
    "toolkit.chemin": ("BankerStrategy", "ChemSolution", "PlayerStrategy", "SEED004_OPTIONS", "option_values"),
    "toolkit.banque": ("BanqueBanker", "BanqueValue"),
}

#: Names whose attribute name differs from the module's own (the modules define clashing names).
_ALIASES: dict[str, tuple[str, str]] = {
    "replay_records": ("toolkit.replay", "replay"),
    "solve_chemin": ("toolkit.chemin", "solve"),
    "chemin_value": ("toolkit.chemin", "expected_value"),
    "banque_value": ("toolkit.banque", "expected_value"),
}

_WHERE = {name: (module, name) for module, names in _EXPORTS.items() for name in names} | _ALIASES

__all__ = sorted(_WHERE)  # noqa: PLE0605 - built from the table above, so it cannot drift


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module 'toolkit' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
