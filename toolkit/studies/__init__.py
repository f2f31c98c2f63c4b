"""Studies over many shoes: Thorp's claim that edges appear only in the last cards of a shoe."""

from toolkit.studies.thorp import (
    StudyResult,
    ThorpStudy,
    checkpoint_seed,
    count_providers,
    jacobson_setting,
    linear_variance,
    markdown_report,
    records_frame,
    reproduce_providers,
    reproduce_table,
    run_study,
    summary,
    verdicts,
    write_outputs,
)

__all__ = (
    "StudyResult",
    "ThorpStudy",
    "checkpoint_seed",
    "count_providers",
    "jacobson_setting",
    "linear_variance",
    "markdown_report",
    "records_frame",
    "reproduce_providers",
    "reproduce_table",
    "run_study",
    "summary",
    "verdicts",
    "write_outputs",
)
