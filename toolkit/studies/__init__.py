"""Studies over many shoes: Thorp's claim that edges appear only in the last cards of a shoe."""

from toolkit.studies.thorp import StudyResult, ThorpStudy, jacobson_setting, linear_variance, reproduce_table, run_study, summary, verdicts, write_outputs

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
