"""Shared test configuration: Hypothesis profiles and common fixtures.

Profiles (select with ``HYPOTHESIS_PROFILE=name``; CI, where ``CI`` is set, uses ``ci``):

* ``dev`` (the default): no deadline (the engine compiles numba kernels and builds
  coup tables on first use, so a first example can be slow), examples saved in
  ``.hypothesis/`` so a failure is replayed first on the next run;
* ``ci``: the same, derandomised and without a database, so that a CI run is
  reproducible.

Tests set their own ``max_examples``; ``TOOLKIT_TEST_SCALE=10`` multiplies them
(see :func:`strategies.scaled`) for a thorough run on demand.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("dev", deadline=None, print_blob=True)
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session")
def panel():
    """The standard bet panel under the default rules."""
    from toolkit.bets.paytable import standard_bets

    return standard_bets()


@pytest.fixture(scope="session")
def reference_panel():
    """The oracle's independent pay rules of the standard panel, by name."""
    from reference_enumerator import standard_payouts

    return standard_payouts()
