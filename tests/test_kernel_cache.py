"""numba's on-disk kernel cache follows the modules a kernel imports (``toolkit/_kernel_cache.py``).

numba stamps a cached kernel with its own file only: a kernel whose module did not change was loaded with the
rules of an older imported module (the dealing kernel kept the end of shoe of before ``two_more_if_first``).
Checked end to end in a copy of the package: a kernel reading a constant of another module is compiled and
cached, the other module is edited, and a fresh process sees the new value; and by the stamps themselves.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import toolkit
from toolkit._kernel_cache import PACKAGE, dependency_stamp, imported_modules

KERNEL = """
import numba

from toolkit._probe_rule import RULE


@numba.njit(cache=True)
def rule() -> int:
    return RULE
"""


def run_probe(root: Path) -> int:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("NUMBA_CACHE_DIR", None)
    code = "import toolkit._probe_kernel as k; print(k.rule())"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=root)
    return int(done.stdout)


def test_a_cached_kernel_is_recompiled_when_a_module_it_imports_changes(tmp_path: Path) -> None:
    package = tmp_path / "toolkit"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "_probe_kernel.py").write_text(KERNEL)
    (package / "_probe_rule.py").write_text("RULE = 1\n")
    assert run_probe(tmp_path) == 1
    assert list((package / "__pycache__").glob("_probe_kernel.rule-*.nbi"))  # compiled and cached
    assert run_probe(tmp_path) == 1  # from the cache
    (package / "_probe_rule.py").write_text("RULE = 2\n")  # the kernel's own file unchanged
    assert run_probe(tmp_path) == 2


def test_the_dealing_kernels_stamp_covers_the_end_of_shoe_rule() -> None:
    dealer = PACKAGE / "dealing" / "dealer.py"
    coup = PACKAGE / "coup"
    assert {coup / "step.py", coup / "options.py"} <= imported_modules(dealer)
    # step.py is imported by the dealer; options.py (the rule codes) by step.py as well
    assert coup / "options.py" in imported_modules(coup / "step.py")
    assert dependency_stamp(dealer) != dependency_stamp(coup / "step.py")


def test_the_package_kernels_use_the_stamped_locators() -> None:
    from toolkit.dealing import dealer

    assert toolkit.__file__  # the package installed the locators on import
    locator = dealer._deal_kernel._cache._impl.locator
    assert type(locator).__name__.startswith("Toolkit")
    assert locator.get_source_stamp() == dependency_stamp(Path(dealer.__file__))
