"""Sphinx configuration of the documentation site: the pages and notebooks in this folder, and the API reference.

Build it from the repository root (the ``docs`` extra installs Sphinx, myst-nb and the theme)::

    python -m sphinx -W --keep-going -b html notebooks notebooks/_build/html

The notebooks are executed with their small parameters (``BACCARAT_SMALL=1``, as in the test suite) and the
results are cached in ``notebooks/_build/.jupyter_cache``, so a second build only re-runs a notebook that
changed; ``-D nb_execution_mode=off`` builds without running them. Nothing is fetched from the network at
build time (no intersphinx), and the pages need none either: MathJax is copied into the site.

The API reference (``api/``) is written at the start of every build from each subpackage's ``__all__``, so a
name added to a package appears without editing these pages.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # the checkout's package, whatever is installed
sys.path.insert(0, str(HERE / "_ext"))  # this site's own extension

# the notebooks run with the small parameters of the test suite; their kernel inherits this environment
os.environ.setdefault("BACCARAT_SMALL", "1")
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
# the kernels import this checkout's package too, as autodoc does
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)

import toolkit  # noqa: E402

project = "baccarat-toolkit"
author = "the baccarat-toolkit authors"
copyright = "the baccarat-toolkit authors, MIT licence"
release = version = toolkit.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax served from the site itself: the pages need no network either
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "shallow_navigation",  # _ext/shallow_navigation.py: the sidebar lists the pages, not the ~400 of single names
]

root_doc = "index"
exclude_patterns = [
    "_build",
    "**.ipynb_checkpoints",
    "*.nbconvert.ipynb",
]
templates_path = ["_templates"]

# --- pages and notebooks (MyST, myst-nb) ---------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "cache"
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
nb_execution_timeout = 600  # seconds per cell, as tests/test_notebooks.py allows
nb_execution_raise_on_error = True  # a failing cell fails the build
nb_execution_show_tb = True
nb_merge_streams = True

# --- API reference (autodoc, autosummary, napoleon for the numpydoc sections) --------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_ivar = True  # an "Attributes" section is a field list, not a second description of each field
napoleon_use_rtype = False
add_module_names = False

# --- HTML ----------------------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"baccarat-toolkit {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True

# --- the API pages, one per subpackage, written from each ``__all__`` -----------------------------------------

#: the shared helpers documented on the first page, beside the facade
SHARED = ("parallel",)
SUBPACKAGES = (
    ("coup", ("cards", "rules", "rules_file", "outcome", "suits", "options")),
    ("exact", ("engine", "frames")),
    ("dealing", ("dealer", "shuffles")),
    ("bets", ("paytable", "coup_bets", "files", "catalogue", "conditions", "ca")),
    ("edges", ("eor", "known_card", "depletion", "reference")),
    ("counting", ()),
    ("games", ("chemin",)),
    ("records", ()),
    ("sizing", ()),
    ("studies", ("thorp", "cut_card")),
    ("live", ()),
    ("protection", ()),
    ("plots", ()),
    ("widgets", ()),
    ("cli", ()),
)


#: the full name of every object given a page, as autosummary names its file
DOCUMENTED: list[str] = []


def _is_data(obj: object) -> bool:
    return not (inspect.isclass(obj) or inspect.isroutine(obj))


def _defining_module(package: str, name: str) -> str:
    """The public module of ``package`` that defines ``name``: where its entry is listed on the page."""
    obj = getattr(importlib.import_module(package), name)
    where = None if _is_data(obj) else getattr(obj, "__module__", None)
    if isinstance(where, str) and where.startswith(package + "."):
        return where
    # a constant: the deepest loaded submodule that exports the same object
    found = [
        modname
        for modname, module in sys.modules.items()
        if modname.startswith(package + ".")
        and module is not None
        and getattr(module, name, None) is obj
        and name in getattr(module, "__all__", ())
    ]
    return max(found, key=lambda m: (m.count("."), m)) if found else package


def _title(text: str, mark: str) -> str:
    return f"{text}\n{mark * len(text)}\n"


def _summary(package: str, names: list[str], module: str | None = None) -> str:
    """An autosummary table of ``names`` as ``package`` exports them.

    A constant is documented where it is defined (``module``), where its ``#:`` comment is.
    """
    pkg = importlib.import_module(package)
    entries = [
        f"~{module.removeprefix(package + '.')}.{name}"
        if module and module != package and _is_data(getattr(pkg, name))
        else name
        for name in names
    ]
    DOCUMENTED.extend(f"{package}.{entry.lstrip('~')}" for entry in entries)
    lines = [f".. currentmodule:: {package}", "", ".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
    lines += [f"   {entry}" for entry in entries]
    return "\n".join(lines) + "\n"


def _grouped(package: str, names: tuple[str, ...]) -> str:
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(_defining_module(package, name), []).append(name)
    parts = []
    for module in sorted(groups):
        parts.append(_title(f"``{module}``", "~"))
        parts.append(_summary(package, groups[module], module))
    return "\n".join(parts)


def _package_page(name: str, children: tuple[str, ...]) -> str:
    package = f"toolkit.{name}"
    pkg = importlib.import_module(package)
    shown: set[str] = set()
    parts = [_title(f"``{package}``", "="), f".. automodule:: {package}\n   :no-members:\n"]
    for child in children:
        sub = importlib.import_module(f"{package}.{child}")
        names = tuple(n for n in sub.__all__ if n not in shown)
        shown.update(names)
        parts.append(_title(f"``{package}.{child}``", "-"))
        parts.append(f".. automodule:: {package}.{child}\n   :no-members:\n")
        parts.append(_grouped(package, names))
    rest = tuple(n for n in pkg.__all__ if n not in shown)
    if rest:
        if children:
            parts.append(_title("The rest of the package" if shown else "Names", "-"))
        parts.append(_grouped(package, rest))
    return "\n".join(parts)


def _core_page() -> str:
    parts = [
        _title("The package: ``toolkit``", "="),
        ".. automodule:: toolkit\n   :no-members:\n",
        "Every name below is also importable from ``toolkit`` itself (``import toolkit as bt; bt.edge_table(8)``).\n",
    ]
    for name in SHARED:
        module = importlib.import_module(f"toolkit.{name}")
        parts.append(_title(f"``toolkit.{name}``", "-"))
        parts.append(f".. automodule:: toolkit.{name}\n   :no-members:\n")
        parts.append(_summary(f"toolkit.{name}", list(module.__all__)))
    return "\n".join(parts)


def _commands_page() -> str:
    """The ``--help`` of every ``baccarat`` command and subcommand, as the terminal shows it."""
    import typer.main
    from typer.testing import CliRunner

    from toolkit.cli.app import app

    def walk(command: Any, path: list[str]) -> Any:
        yield path, command
        for name, sub in (getattr(command, "commands", None) or {}).items():
            if not getattr(sub, "hidden", False):
                yield from walk(sub, [*path, name])

    runner = CliRunner()
    parts = [
        _title("The ``baccarat`` command", "="),
        "Every command and its options, as ``baccarat COMMAND --help`` prints them. Every command takes"
        " ``--format`` (``table``, ``csv``, ``json`` or the formats it lists); bad arguments get one line on"
        " stderr and exit status 2. The commands are thin front ends over the library"
        " (:mod:`toolkit.cli`).\n",
    ]
    for path, _ in walk(typer.main.get_command(app), []):
        done = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"})
        if done.exit_code != 0:
            raise RuntimeError(f"baccarat {' '.join(path)} --help failed: {done.output}")
        text = "\n".join(line.rstrip() for line in done.output.strip("\n").splitlines())
        parts.append(_title(f"``{' '.join(['baccarat', *path])}``", "-"))
        parts.append(".. code-block:: text\n\n" + "\n".join(f"   {line}" if line else "" for line in text.splitlines()))
        parts.append("")
    return "\n".join(parts)


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_api_pages() -> None:
    """Write ``api/index.rst`` and one page per subpackage (kept when unchanged, so rebuilds stay incremental)."""
    api = HERE / "api"
    api.mkdir(exist_ok=True)
    pages = ["commands", "core", *(name for name, _ in SUBPACKAGES)]
    _write_if_changed(api / "commands.rst", _commands_page())
    _write_if_changed(api / "core.rst", _core_page())
    for name, children in SUBPACKAGES:
        _write_if_changed(api / f"{name}.rst", _package_page(name, children))
    index = [
        _title("API reference", "="),
        "The command line first, then one page per layer of the package, each listing the names of its"
        " ``__all__`` by the module that defines them. The layers call only the ones before them in this list.\n",
        ".. toctree::\n   :maxdepth: 1\n",
        *(f"   {page}" for page in pages),
        "",
    ]
    _write_if_changed(api / "index.rst", "\n".join(index))


write_api_pages()


def _filename_map(documented: list[str]) -> dict[str, str]:
    """Stub names that differ only by case (``Play`` and ``play``) get distinct files on any file system."""
    by_lower: dict[str, set[str]] = {}
    for full in documented:
        by_lower.setdefault(full.lower(), set()).add(full)
    renamed = {}
    for fulls in by_lower.values():
        for full in sorted(fulls)[1:]:  # upper case sorts first: the class keeps the plain name
            renamed[full] = f"{full}-{len(renamed) + 1}"
    return renamed


autosummary_filename_map = _filename_map(DOCUMENTED)


def _drop_inherited_type_doc(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """A constant without its own docstring shows nothing, not the docstring of its type (``dict``, ``tuple``)."""
    del app, name, options
    if what in ("data", "attribute") and not inspect.isclass(obj) and not inspect.isroutine(obj):
        type_doc = " ".join((inspect.getdoc(type(obj)) or "").split())
        if type_doc and " ".join(" ".join(lines).split()) == type_doc:
            lines.clear()


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-docstring", _drop_inherited_type_doc, priority=100)  # before napoleon
    return {"parallel_read_safe": True}
