"""Fixtures of the Thorp study tests: the reference run, and a two-observer run with its per-coup records."""

from __future__ import annotations

import pytest
from thorp_cases import SMALL

from toolkit.studies import ThorpStudy, records_frame, run_study


@pytest.fixture(scope="session")
def with_records(tmp_path_factory: pytest.TempPathFactory):
    """A small two-observer study and the per-coup records it wrote."""
    folder = tmp_path_factory.mktemp("records")
    study = ThorpStudy(**SMALL, observers=("unseen", "remaining"))
    result = run_study(study, progress=False, records=folder)
    return result, records_frame(folder).collect()


@pytest.fixture(scope="session")
def plain():
    """The reference run: the SMALL study in this process, no checkpoint."""
    return run_study(ThorpStudy(**SMALL), progress=False)
