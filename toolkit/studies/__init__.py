"""Studies over many shoes: Thorp's claim that edges appear only in the last cards of a shoe; an edge sorter's win
per dealt shoe; shuffle tracking; the cut-card effect; the exact law of every bet's edge in the last cards of a shoe."""

from toolkit.studies.cut_card import CutCardResult, CutCardStudy, cut_card_effect, run_cut_card
from toolkit.studies.edge_sorter import (
    edge_sorter_shoes,
    edge_sorter_summary,
)
from toolkit.studies.last_cards import last_cards
from toolkit.studies.shuffle import shuffle_test_power, shuffle_tracker_edge
from toolkit.studies.thorp import (
    StudyResult,
    ThorpStudy,
    answer,
    checkpoint_seed,
    count_providers,
    deal_to_end,
    depth_bucket,
    jacobson_setting,
    linear_variance,
    markdown_report,
    published_markdown,
    records_frame,
    reproduce_providers,
    reproduce_table,
    run_study,
    study_summary,
    study_verdicts,
    write_outputs,
)

__all__ = (
    "CutCardResult",
    "CutCardStudy",
    "StudyResult",
    "ThorpStudy",
    "answer",
    "checkpoint_seed",
    "count_providers",
    "cut_card_effect",
    "deal_to_end",
    "depth_bucket",
    "edge_sorter_shoes",
    "edge_sorter_summary",
    "jacobson_setting",
    "last_cards",
    "linear_variance",
    "markdown_report",
    "published_markdown",
    "records_frame",
    "reproduce_providers",
    "reproduce_table",
    "run_cut_card",
    "run_study",
    "shuffle_test_power",
    "shuffle_tracker_edge",
    "study_summary",
    "study_verdicts",
    "write_outputs",
)
