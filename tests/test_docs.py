"""The documentation site (``notebooks/conf.py``) builds with warnings as errors.

The build here does not execute the notebooks (``-D nb_execution_mode=off``): every page, the API
reference written from each subpackage's ``__all__`` and every docstring it renders are checked, in
about a minute.  CI also builds the site with the notebooks executed (``.ci/run``), into the jupyter-cache
that the notebook tests (``tests/test_notebooks.py``) then check instead of running each notebook
again.  Skipped, saying why, when the ``docs`` extra is not installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "notebooks"
BUILD_TIMEOUT = 900  # seconds; the build takes about a minute on two cores


def _missing_docs_extra() -> str | None:
    import importlib.util

    for module in ("sphinx", "myst_nb", "furo", "sphinx_copybutton"):
        if importlib.util.find_spec(module) is None:
            return module
    return None


def test_docs_build_without_warnings(tmp_path: Path) -> None:
    missing = _missing_docs_extra()
    if missing is not None:
        pytest.skip(f"the docs extra is not installed ({missing} missing): pip install -e '.[docs]'")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",  # any warning fails the build ...
        "--keep-going",  # ... after reporting all of them
        "-q",
        "-b",
        "html",
        "-D",
        "nb_execution_mode=off",
        "-d",
        str(tmp_path / "doctrees"),
        str(SOURCE),
        str(tmp_path / "html"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=BUILD_TIMEOUT, check=False)
    problems = "\n".join(line for line in (done.stdout + done.stderr).splitlines() if line.strip())
    assert done.returncode == 0, f"the documentation build failed (exit {done.returncode}):\n{problems}"
    assert "WARNING" not in problems, problems
    assert "ERROR" not in problems, problems
    html = tmp_path / "html"
    for page in ("index.html", "maths/exact-engine.html", "api/index.html", "api/counting.html"):
        assert (html / page).is_file(), f"{page} was not built"
    # every notebook is a page of the site (the toctree picks them up by glob)
    for notebook in sorted(SOURCE.glob("[0-9]*.ipynb")):
        assert (html / f"{notebook.stem}.html").is_file(), f"{notebook.name} is not in the site"
