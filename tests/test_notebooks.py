"""Every notebook in ``notebooks/`` runs top to bottom with small parameters.

Each notebook is executed in memory (nothing is written back) by nbclient, in a
``python3`` kernel started with *this* interpreter (jupyter_client replaces a
kernelspec's ``python`` by ``sys.executable``, and ipykernel's own spec is the
fallback when none is installed), with ``BACCARAT_SMALL=1`` (the notebooks
shrink their parameters) and ``MPLBACKEND=Agg``.  A failing cell fails the test
with that cell's source and traceback.

Each notebook is executed once per CI run: the documentation build executes them with the same small
parameters into its jupyter-cache (``notebooks/_build/.jupyter_cache``, see ``notebooks/conf.py``), and a
notebook whose cached execution matches its code cells *and* is newer than every file of the package, its
data and the project file is checked from that execution (no cell may hold an error) instead of being run
again.  Anything older, or ``BACCARAT_NOTEBOOK_CACHE=0``, runs the notebook here.
"""

from __future__ import annotations

import os
import re
import sys
import time
from datetime import UTC
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: Where the documentation build caches its executions of the notebooks.
DOCS_CACHE = ROOT / "notebooks" / "_build" / ".jupyter_cache"
#: A liveness guard, not a speed test: with BACCARAT_SMALL=1 every cell needs seconds on an idle machine and a
#: few minutes on the most loaded one seen, so a cell still running after an hour is stuck (the test then fails
#: naming the notebook and the cell) instead of holding the suite forever.
CELL_TIMEOUT = 3600


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")

    # the kernel inherits this process's environment
    monkeypatch.setenv("BACCARAT_SMALL", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # small matrix products on a shared machine: one BLAS thread avoids oversubscription stalls
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "1")
    notebook = nbformat.read(path, as_version=4)
    executed = docs_execution(notebook, DOCS_CACHE)
    if executed is not None:  # the docs build ran this very notebook on this very code
        errors = [o for c in executed.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, f"{path.name} failed in the documentation build: {errors[0].get('ename')}"
        return
    # one more cell, in memory only: which interpreter did the kernel run?
    notebook.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.executable, end='')"))
    execute(notebook, path)
    kernel_python = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
    assert Path(kernel_python).resolve() == Path(sys.executable).resolve()


def execute(notebook, path: Path, timeout: int = CELL_TIMEOUT) -> None:
    """Run ``notebook`` (read from ``path``) in memory with nbclient; a failing or stuck cell fails the test.

    No front end for the widgets: nbclient's stand-in for the Output widget (which ``interact`` writes into)
    answers every output captured in it with a comm message on the shell channel while the cell still runs, the
    only time the client writes to the socket on which it waits for the cell's execute reply, and ipykernel 7
    handles such messages beside the running cell.  A CI run hung in notebook 11 just after its ``interact``
    cell, the kernel idle and the client waiting for that reply.  Without the stand-in a captured output is an
    ordinary output of its cell, and the client sends the kernel nothing but the cells.
    """
    import nbclient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    started: list[int] = []
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=timeout,
        resources={"metadata": {"path": str(path.parent)}},
        on_cell_start=lambda cell, cell_index: started.append(cell_index),
    )
    client.widget_registry = {}
    try:
        client.execute()
    except CellExecutionError as err:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(err))  # the kernel's traceback comes with terminal colours
        pytest.fail(f"{path.name} failed:\n{plain}", pytrace=False)
    except CellTimeoutError:
        cell = notebook.cells[started[-1]]
        pytest.fail(
            f"{path.name}: cell {started[-1]} still running after {timeout} s (stuck):\n{cell.source}", pytrace=False
        )


def test_a_stuck_cell_fails_naming_its_notebook_and_cell(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("import time; time.sleep(600)")]
    with pytest.raises(pytest.fail.Exception, match=r"(?s)stuck\.ipynb: cell 1 still running after 1 s .*time\.sleep"):
        execute(notebook, tmp_path / "stuck.ipynb", timeout=1)  # 600 s asleep against 1 s: fails on any machine


def test_widget_output_reaches_the_cell_and_nothing_goes_back_to_the_kernel(tmp_path: Path) -> None:
    """What ``interact`` prints is an output of its cell (no Output-widget stand-in answering on the shell channel)."""
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("ipywidgets")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("from ipywidgets import interact\ninteract(lambda x: print(x * 7), x=6)")
    ]
    execute(notebook, tmp_path / "widget.ipynb")
    assert "42" in "".join(o.get("text", "") for o in notebook.cells[0].outputs)


def _newest_source() -> float:
    """The latest modification time of the package, its data and the project file."""
    files = [*(ROOT / "toolkit").rglob("*.py"), *(ROOT / "data").rglob("*"), ROOT / "pyproject.toml"]
    return max(f.stat().st_mtime for f in files if f.is_file())


def docs_execution(notebook, cache_path: Path, newest_source: float | None = None):
    """The documentation build's execution of ``notebook`` from its jupyter-cache, if it ran on the current code.

    ``None`` when there is no cache, no execution of these code cells, an execution older than any file of
    the package (or than ``newest_source``, a time), or ``BACCARAT_NOTEBOOK_CACHE=0``.
    """
    if os.environ.get("BACCARAT_NOTEBOOK_CACHE") == "0" or not cache_path.is_dir():
        return None
    try:
        from jupyter_cache import get_cache
    except ImportError:
        return None
    cache = get_cache(cache_path)
    try:
        record = cache.match_cache_notebook(notebook)
    except KeyError:
        return None
    newest = _newest_source() if newest_source is None else newest_source
    if record.created.replace(tzinfo=UTC).timestamp() < newest:
        return None
    return cache.get_cache_bundle(record.pk).nb


def test_a_docs_execution_is_reused_only_for_the_same_cells_on_current_code(tmp_path, monkeypatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    jupyter_cache = pytest.importorskip("jupyter_cache")
    from jupyter_cache.base import CacheBundleIn

    notebook = nbformat.read(NOTEBOOKS[0], as_version=4)
    assert docs_execution(notebook, tmp_path / "none") is None
    cache = jupyter_cache.get_cache(tmp_path / "cache")
    cache.cache_notebook_bundle(CacheBundleIn(notebook, str(NOTEBOOKS[0])), check_validity=False)
    assert docs_execution(notebook, tmp_path / "cache") is not None
    changed = nbformat.read(NOTEBOOKS[0], as_version=4)
    changed.cells.append(nbformat.v4.new_code_cell("1 + 1"))
    assert docs_execution(changed, tmp_path / "cache") is None  # other cells: run it
    monkeypatch.setenv("BACCARAT_NOTEBOOK_CACHE", "0")
    assert docs_execution(notebook, tmp_path / "cache") is None
    monkeypatch.delenv("BACCARAT_NOTEBOOK_CACHE")
    later = time.time() + 60  # the code changed after the execution: run it again
    assert docs_execution(notebook, tmp_path / "cache", newest_source=later) is None


def test_there_are_notebooks() -> None:
    assert any(p.name.startswith("01-") for p in NOTEBOOKS)


def _cells(path: Path) -> list[dict]:
    import json

    return [{**c, "text": "".join(c["source"])} for c in json.loads(path.read_text())["cells"]]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_titles_read_number_dot_title(path: Path) -> None:
    title = _cells(path)[0]["text"].splitlines()[0]
    assert re.fullmatch(rf"# {path.name[:2]} · \S.*", title), title


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_small_parameters_only_when_the_variable_says_1(path: Path) -> None:
    """``BACCARAT_SMALL=0`` runs the full notebook: the variable is compared with "1", never read as a truth value."""
    code = "\n".join(c["text"] for c in _cells(path) if c["cell_type"] == "code")
    reads = re.findall(r".*BACCARAT_SMALL.*", code)
    assert all('os.environ.get("BACCARAT_SMALL") == "1"' in line for line in reads), reads


def test_the_explorer_a_served_notebook_opens_on_is_left_as_built() -> None:
    """Served (Voila), every cell runs before the page shows: a later cell must not change the explorer shown."""
    cells = [c["text"] for c in _cells(NOTEBOOKS[0]) if c["cell_type"] == "code"]
    shown = next(i for i, text in enumerate(cells) if text.rstrip().endswith("\nexplorer"))
    assert not any(re.search(r"\bexplorer\.", text) for text in cells[shown + 1 :])


def test_the_sizing_notebook_counts_its_counters_right() -> None:
    cells = [c["text"] for c in _cells(next(p for p in NOTEBOOKS if p.name.startswith("07-")))]
    settings = next(text for text in cells if text.startswith("settings = {"))
    n = len(re.findall(r'^    "[^"]+": \{', settings.split("\n}", 1)[0], flags=re.MULTILINE))  # one line a counter
    words = {3: "Three", 4: "Four", 5: "Five"}
    assert f"## 2. {words[n]} counters" in "\n".join(cells)
