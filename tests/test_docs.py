"""The documentation site (``notebooks/conf.py``) builds with warnings as errors.

The build here does not execute the notebooks (``-D nb_execution_mode=off``): every page, the API
reference written from each subpackage's ``__all__`` and every docstring it renders are checked, in
about 40 CPU seconds (a third of what it took while every page's sidebar resolved the whole site's tree of
pages: ``notebooks/_ext/shallow_navigation.py``, checked here against Sphinx's own navigation on a small
site).  CI also builds the site with the notebooks executed (``.ci/run``), into the jupyter-cache that
the notebook tests (``tests/test_notebooks.py``) then check instead of running each notebook
again; it marks a build that passed with warnings as errors (``notebooks/_build/html/.built-with-W``),
and such a build newer than every source of the site is checked here instead of building it again
(``BACCARAT_DOCS_BUILD=0`` builds it all the same).  Skipped, saying why, when the ``docs`` extra is not
installed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "notebooks"


def _missing_docs_extra() -> str | None:
    import importlib.util

    for module in ("sphinx", "myst_nb", "furo", "sphinx_copybutton"):
        if importlib.util.find_spec(module) is None:
            return module
    return None


#: Written by ``.ci/run`` into the site it built with ``-W`` (warnings as errors), once the build passed.
MARK = SOURCE / "_build" / "html" / ".built-with-W"


def _newest_site_source() -> float:
    """The latest modification time of what the site is built from: its pages, the package, data, project file."""
    built = SOURCE / "_build"
    files = [f for f in SOURCE.rglob("*") if built not in f.parents and "api" not in f.relative_to(SOURCE).parts[:1]]
    files += [
        *(ROOT / "toolkit").rglob("*.py"),
        *(ROOT / "data").rglob("*"),
        ROOT / "pyproject.toml",
        ROOT / "README.md",
    ]
    return max(f.stat().st_mtime for f in files if f.is_file())


def built_site(mark: Path = MARK) -> Path | None:
    """The site a passing ``-W`` build left, when it is newer than every source (else None, or when
    ``BACCARAT_DOCS_BUILD=0``)."""
    if os.environ.get("BACCARAT_DOCS_BUILD") == "0" or not mark.is_file():
        return None
    return mark.parent if mark.stat().st_mtime >= _newest_site_source() else None


def test_a_docs_build_is_reused_only_when_newer_than_every_source(tmp_path: Path, monkeypatch) -> None:
    mark = tmp_path / "html" / ".built-with-W"
    assert built_site(mark) is None  # no build
    mark.parent.mkdir()
    mark.touch()
    assert built_site(mark) == mark.parent
    os.utime(mark, (0, 0))  # older than the sources
    assert built_site(mark) is None
    mark.touch()
    monkeypatch.setenv("BACCARAT_DOCS_BUILD", "0")
    assert built_site(mark) is None


def _check_site(html: Path) -> None:
    for page in ("index.html", "maths/exact-engine.html", "api/index.html", "api/counting.html"):
        assert (html / page).is_file(), f"{page} was not built"
    # every notebook is a page of the site (the toctree picks them up by glob)
    for notebook in sorted(SOURCE.glob("[0-9]*.ipynb")):
        assert (html / f"{notebook.stem}.html").is_file(), f"{notebook.name} is not in the site"
    # the sidebar stops at the API's page per subpackage (_ext/shallow_navigation.py): the pages of single names are
    # reached from those pages' tables, not listed in every page (which made the build quadratic in its pages)
    assert (html / "api" / "generated").is_dir()
    assert "api/generated/" not in (html / "index.html").read_text(encoding="utf-8")
    assert "generated/toolkit.bets.Bet.html" in (html / "api" / "bets.html").read_text(encoding="utf-8")


def _build(source: Path, out: Path, *settings: str) -> None:
    """``sphinx -W`` of ``source`` into ``out/html`` (doctrees in ``out/doctrees``); fails the test on any warning."""
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
        *(arg for setting in settings for arg in ("-D", setting)),
        "-d",
        str(out / "doctrees"),
        str(source),
        str(out / "html"),
    ]
    # no timeout: the build takes about a minute on two idle cores and many on a loaded machine, and a test's
    # verdict must not depend on the machine's speed (a build that never ends is for the suite's runner to stop)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    problems = "\n".join(line for line in (done.stdout + done.stderr).splitlines() if line.strip())
    assert done.returncode == 0, f"the documentation build failed (exit {done.returncode}):\n{problems}"
    assert "WARNING" not in problems, problems
    assert "ERROR" not in problems, problems


def test_docs_build_without_warnings(tmp_path: Path) -> None:
    missing = _missing_docs_extra()
    if missing is not None:
        pytest.skip(f"the docs extra is not installed ({missing} missing): pip install -e '.[docs]'")
    site = built_site()
    if site is not None:  # the build CI just made with warnings as errors, on this code
        _check_site(site)
        return
    _build(SOURCE, tmp_path, "nb_execution_mode=off")
    _check_site(tmp_path / "html")


#: A small site for the navigation's check: page -> the pages its toctree lists.  ``shared`` is listed at depths
#: 1 and 2 (its least depth counts), ``twice`` from two pages at depth 2, and the chain ``a > a1 > a1x > a1x1``
#: goes two levels below the navigation's depth, beside ``a1y`` and, in a folder, ``deep/a1z`` and ``deep/a1w``
#: (pages not shown that share a navigation, or not: their links are relative).
SMALL_SITE = {
    "index": ["a", "b", "shared"],
    "a": ["a1", "a2", "twice"],
    "b": ["shared", "twice"],
    "a1": ["a1x", "a1y", "deep/a1z", "deep/a1w"],
    "a1x": ["a1x1"],
    "shared": ["shared1"],
    "twice": ["twice1"],
    "a2": [],
    "a1x1": [],
    "shared1": [],
    "twice1": [],
    "latex": [],
    "a1y": [],
    "deep/a1z": [],
    "deep/a1w": [],
}
#: Pages whose tables of contents are not plain, left to Sphinx: ``b``'s toctree lies below its ``tocdepth``,
#: ``a`` lists ``latex`` only where the builder is LaTeX.
SMALL_SITE_TEXT = {"b": ":tocdepth: 2\n\n", "latex": ":orphan:\n\n"}
SMALL_SITE_AFTER = {"a": "\n.. only:: latex\n\n   .. toctree::\n\n      latex\n"}


def test_the_shallow_navigation_is_the_navigation_sphinx_resolves_in_full(tmp_path: Path) -> None:
    """The pruned tables of contents (notebooks/_ext/shallow_navigation.py) change no byte of any page: the same
    small site built with them and without them (every toctree resolved for every page, as Sphinx does)."""
    missing = _missing_docs_extra()
    if missing is not None:
        pytest.skip(f"the docs extra is not installed ({missing} missing): pip install -e '.[docs]'")
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(SOURCE / '_ext')!r})\n"
        'project = "navigation"\nextensions = ["shallow_navigation"]\nhtml_theme = "furo"\n',
        encoding="utf-8",
    )
    for page, children in SMALL_SITE.items():
        toctree = "\n".join([".. toctree::", "", *(f"   {child}" for child in children)]) if children else ""
        text = (
            f"{SMALL_SITE_TEXT.get(page, '')}{page}\n{'=' * len(page)}\n\nSection\n-------\n\nSub\n~~~\n\n{toctree}\n"
        )
        (source / f"{page}.rst").parent.mkdir(exist_ok=True)
        (source / f"{page}.rst").write_text(text + SMALL_SITE_AFTER.get(page, ""), encoding="utf-8")
    _build(source, tmp_path / "pruned")
    _build(source, tmp_path / "full", "shallow_navigation_pruned=0")
    pages = sorted(p.relative_to(tmp_path / "full" / "html") for p in (tmp_path / "full" / "html").rglob("*.html"))
    assert len(pages) >= len(SMALL_SITE)
    for page in pages:
        pruned = (tmp_path / "pruned" / "html" / page).read_bytes()
        assert pruned == (tmp_path / "full" / "html" / page).read_bytes(), page

    def sidebar(page: str) -> str:
        html = (tmp_path / "pruned" / "html" / page).read_text(encoding="utf-8")
        return html.split('class="sidebar-tree">', 1)[1].split("</div>", 1)[0]

    assert 'href="a1.html"' in sidebar("index.html")  # depth 2: shown
    assert 'href="a1x.html"' not in sidebar("index.html")  # depth 3: left out
    assert 'href="shared1.html"' in sidebar("index.html")  # under shared's first place, at depth 1
    # four levels down, the branch that leads to the page is marked current
    assert re.search(
        r'<li class="toctree-l2 current[^"]*"><a class="reference internal" href="a1.html"', sidebar("a1x1.html")
    )
