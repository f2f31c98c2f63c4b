"""The package's structure, checked: layers call downward only, no import cycle, small modules, a static API.

The layers, lowest first (a module may import its own subpackage and the layers below it):

====  ============================  =============================================
rank  layer                         modules
====  ============================  =============================================
0     core                          ``toolkit/*.py`` (cards, rules, engine, bets, dealing, ...)
1     counting, games               ``toolkit/counting/``, ``toolkit/games/``
2     records, sizing               ``toolkit/records/`` (replays counts, so above counting), ``toolkit/sizing/``
3     studies, live, protection     ``toolkit/studies/``, ``toolkit/live/`` (a live shoe followed card by card),
                                    ``toolkit/protection/`` (who at the table is counting)
4     plots                         ``toolkit/plots/``
5     cli, widgets                  ``toolkit/cli/``, ``toolkit/widgets/`` (the front ends)
====  ============================  =============================================

Imports inside functions count (a lazy import is still a dependency); the
top-level ``toolkit/__init__.py`` is the facade over everything and is left out.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import toolkit

PACKAGE = Path(toolkit.__file__).resolve().parent
ROOT = PACKAGE.parent
RANK = {
    "core": 0,
    "counting": 1,
    "games": 1,
    "records": 2,
    "sizing": 2,
    "studies": 3,
    "live": 3,
    "protection": 3,
    "plots": 4,
    "cli": 5,
    "widgets": 5,
}
MAX_LINES = 700


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in RANK) else "core"


def _imports(module: str, path: Path) -> set[str]:
    """Every toolkit module that ``module`` imports, at the top or inside functions."""
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            names = [target] + [f"{target}.{alias.name}" for alias in node.names]
        else:
            continue
        for imported in names:
            # the deepest toolkit module the name reaches
            target = imported
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != module and not module.startswith(target + "."):
                out.add(target)
    return out


GRAPH = {m: _imports(m, p) for m, p in MODULES.items() if m != "toolkit"}


def test_there_are_at_least_five_subpackages():
    subpackages = {m for m, p in MODULES.items() if p.name == "__init__.py" and m.count(".") == 1}
    assert len(subpackages) >= 5, subpackages


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_layers_call_downward_only(module):
    mine = _layer(module)
    upward = {
        other
        for other in GRAPH[module]
        if other != "toolkit" and _layer(other) != mine and RANK[_layer(other)] >= RANK[mine]
    }
    assert not upward, f"{module} ({mine}) imports from the same or a higher layer: {sorted(upward)}"


def test_no_import_cycle():
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(GRAPH[node] - {"toolkit"}):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(GRAPH):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_are_readable_in_one_sitting(module):
    lines = len(MODULES[module].read_text().splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines (at most {MAX_LINES})"


def test_the_top_level_api_is_static_and_complete():
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    assigned = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    assert isinstance(assigned["__all__"], ast.Tuple), "toolkit.__all__ must be a literal tuple"
    names = ast.literal_eval(assigned["__all__"])
    assert len(names) == len(set(names)), "toolkit.__all__ names a name twice"
    for name in names:
        assert getattr(toolkit, name) is not None
    leaked = {n for n in dir(toolkit) if not n.startswith("_")} - set(names)
    assert not leaked, f"names that are not part of the API: {sorted(leaked)}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "toolkit"))
def test_module_all_lists_what_the_module_defines(module):
    tree = ast.parse(MODULES[module].read_text())
    defined: set[str] = set()
    declared: list[str] | None = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                defined.update(n.id for n in names if isinstance(n, ast.Name))
                if isinstance(target, ast.Name) and target.id == "__all__":
                    assert node.value is not None
                    declared = list(ast.literal_eval(node.value))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined.update((a.asname or a.name).split(".")[0] for a in node.names)
    if declared is None:
        assert Path(MODULES[module]).name.startswith("_") or module.rsplit(".", 1)[-1].startswith("_"), (
            f"public module {module} has no __all__"
        )
        return
    missing = sorted(set(declared) - defined)
    assert not missing, f"{module}.__all__ names what it does not define: {missing}"


#: Planning words: the project speaks of itself, not of the work items it was built in.
PLANNING = r"\bissue\s*#?\d+|\bitem\s+\d+\b|\bhardening review\b|\bclosing note\b|\bsprint\b|\bticket\s*#?\d+"
FORBIDDEN = re.compile(r"seed0\d\d|seed documents|the seeds\b|team's (?:list|notes|seed)|" + PLANNING, re.IGNORECASE)
FORBIDDEN_IN_TESTS = re.compile(r"seed0\d\d|seed documents|team's (?:list|notes|seed)|" + PLANNING, re.IGNORECASE)


def test_no_names_of_internal_documents():
    places = [*PACKAGE.rglob("*.py"), *(ROOT / "notebooks").glob("*.ipynb"), ROOT / "README.md"]
    places += [p for p in (ROOT / "notebooks").rglob("*.md") if "_build" not in p.parts]
    places += [*(ROOT / "data").rglob("*.csv"), *(ROOT / "data").rglob("*.md")]
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.name != "test_architecture.py"]  # seeds are random there
    hits = [f"{p.relative_to(ROOT)}: {m.group(0)!r}" for p in places for m in FORBIDDEN.finditer(p.read_text())]
    hits += [
        f"{p.relative_to(ROOT)}: {m.group(0)!r}" for p in tests for m in FORBIDDEN_IN_TESTS.finditer(p.read_text())
    ]
    assert not hits, hits
