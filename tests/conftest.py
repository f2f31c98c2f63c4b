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


#: The longest modules, first in the order the workers take the tests under ``-n`` (pyproject's addopts: each
#: worker takes a contiguous half, the idle one steals from the end of the other's queue): the notebooks (some 100
#: CPU s) and the docs build (some 40), whose tests cannot be split finer; left to the end of the collection, either
#: kept one worker busy long after the other was done.
LONGEST_FIRST = ("tests/test_notebooks.py", "tests/test_docs.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules of :data:`LONGEST_FIRST` first, in that order; every other test in the order collected."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest keep order


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


@pytest.fixture(scope="module")
def dask_client():
    """A client of a real local Dask scheduler with two single-threaded worker processes, started once for the
    module that asks for it (``client.scheduler.address`` is its address, for a command's ``--scheduler``)."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


#: Subpackages whose caches of compiled bets and solved games are dropped after each test module (the
#: exact engine's walk tables stay: every module needs them and they are small).
_CACHED = (
    "toolkit.bets",
    "toolkit.exact.engine",
    "toolkit.games",
    "toolkit.protection",
    "toolkit.studies",
    "toolkit.sizing",
)
#: Caches kept all the same: the catalogue's bets with the tables they compiled. A dozen modules price the
#: catalogue's bets on suits (perfect pair, its second version, super tie: about 3 CPU s each to compile) and
#: each compiled them again; kept, they cost a worker about 100 MB for the rest of the session, once.
_KEPT = frozenset({"toolkit.bets.paytable._catalogue_bet"})


@pytest.fixture(autouse=True, scope="module")
def _drop_caches_after_the_module():
    """Keep each worker's memory flat over the suite: what one module compiled is not held by the next.

    The full collection and the trim (some 0.2 CPU s a module, once the heap holds polars, numba and the compiled
    bets) run only where a cache held something: most modules fill none, and the collector's own passes suffice."""
    yield
    import contextlib
    import ctypes
    import gc
    import sys

    held = 0  # entries dropped (a cache that cannot say how many counts as one)
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(_CACHED):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            kept = f"{name}.{getattr(value, '__name__', '')}" in _KEPT
            if callable(clear) and getattr(value, "__module__", None) == name and not kept:
                info = getattr(value, "cache_info", None)
                held += info().currsize if callable(info) else 1
                clear()
    arrived = getattr(sys.modules.get("toolkit.bets.coup_bets"), "_ARRIVED", None)
    if arrived:
        held += len(arrived)
        arrived.clear()
    if not held:
        return
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # hand the freed memory back to the system
        ctypes.CDLL("libc.so.6").malloc_trim(0)
