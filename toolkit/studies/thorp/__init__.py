"""Thorp's end-of-shoe study: design, exact tallies over many shoes, checkpoints, results and the report."""

from toolkit.studies.thorp.study import StudyResult, ThorpStudy, jacobson_setting, linear_variance, run_study
from toolkit.studies.thorp.report import reproduce_table, summary, verdicts, write_outputs

__all__ = (
    "StudyResult",
    "ThorpStudy",
    "jacobson_setting",
    "linear_variance",
    "reproduce_table",
    "run_study",
    "summary",
    "verdicts",
    "write_outputs",
)
