"""A study's result prints a few lines and a small HTML table."""

from __future__ import annotations

from show_checks import check_shown as _check


def test_study_result(plain) -> None:
    _check(plain, "StudyResult:")
    assert "blocks done" in repr(plain)
