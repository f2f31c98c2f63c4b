"""The package's structure, checked: layers call downward only, no import cycle, small modules, a static API.

The layers, lowest first (a module may import its own subpackage and the layers below it):

====  ============================  =============================================
rank  layer                         modules
====  ============================  =============================================
0     shared helpers                ``toolkit/*.py`` (checks, display, bounded files, intervals, workers)
1     coup                          ``toolkit/coup/`` (cards, rules, outcomes, suits, the coup step)
2     exact, dealing                ``toolkit/exact/`` (the engine), ``toolkit/dealing/`` (shoes dealt)
3     bets                          ``toolkit/bets/`` (pay tables, side bets, bet files, catalogue, CA)
4     edges                         ``toolkit/edges/`` (effects of removal, known cards, published figures)
5     counting, games               ``toolkit/counting/``, ``toolkit/games/``
6     records, sizing               ``toolkit/records/`` (replays counts, so above counting), ``toolkit/sizing/``
7     studies, live, protection     ``toolkit/studies/``, ``toolkit/live/`` (a live shoe followed card by card),
                                    ``toolkit/protection/`` (who at the table is counting)
8     plots                         ``toolkit/plots/``
9     cli, widgets                  ``toolkit/cli/``, ``toolkit/widgets/`` (the front ends)
====  ============================  =============================================

Imports inside functions count (a lazy import is still a dependency); the
top-level ``toolkit/__init__.py`` is the facade over everything and is left out.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import toolkit

PACKAGE = Path(toolkit.__file__).resolve().parent
ROOT = PACKAGE.parent
RANK = {
    "shared": 0,
    "coup": 1,
    "exact": 2,
    "dealing": 2,
    "bets": 3,
    "edges": 4,
    "counting": 5,
    "games": 5,
    "records": 6,
    "sizing": 6,
    "studies": 7,
    "live": 7,
    "protection": 7,
    "plots": 8,
    "cli": 9,
    "widgets": 9,
}
CORE = ("coup", "exact", "bets", "dealing", "edges")
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
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in RANK) else "shared"


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


#: The longest a function may be, decorators left out (``toolkit/cli`` is held to its own limit by its tests).
MAX_FUNCTION_LINES = 100
#: The most positional parameters a compiled kernel may take: more means a grouping (a record type) is missing.
MAX_KERNEL_PARAMETERS = 12
#: The decorators that compile a function (the last part of the decorator's dotted name).
COMPILERS = {"njit", "jit"}


def _functions(path: Path) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(path.read_text())
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _outside_cli() -> list[str]:
    return sorted(m for m, p in MODULES.items() if "cli" not in p.relative_to(PACKAGE).parts)


def _compiled(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if name in COMPILERS:
            return True
    return False


@pytest.mark.parametrize("module", _outside_cli())
def test_functions_are_short(module):
    long = [
        f"{f.name} (line {f.lineno}): {n} lines"
        for f in _functions(MODULES[module])
        if (n := (f.end_lineno or f.lineno) - f.lineno + 1) > MAX_FUNCTION_LINES
    ]
    assert not long, f"{module} has functions over {MAX_FUNCTION_LINES} lines: {long}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_kernels_take_a_few_grouped_inputs(module):
    wide = [
        f"{f.name} (line {f.lineno}): {n} positional parameters"
        for f in _functions(MODULES[module])
        if _compiled(f) and (n := len(f.args.posonlyargs) + len(f.args.args)) > MAX_KERNEL_PARAMETERS
    ]
    assert not wide, f"{module} has kernels over {MAX_KERNEL_PARAMETERS} positional parameters: {wide}"


def test_the_function_checks_see_the_compiled_kernels():
    kernels = [f.name for f in _functions(MODULES["toolkit.studies.thorp.tally"]) if _compiled(f)]
    assert "_tally_coups" in kernels
    assert any(_compiled(f) for m in MODULES.values() for f in _functions(m) if f.name.endswith("kernel"))


def _functions_under(package: str) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function (nested ones too) of the modules under ``package``, with its module's name."""
    return [
        (module, node)
        for module, path in MODULES.items()
        if module == package or module.startswith(package + ".")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def test_command_line_functions_are_readable_at_a_glance():
    long = [
        f"{module}.{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for module, node in _functions_under("toolkit.cli")
        if node.end_lineno is not None and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines (split them into named helpers): {long}"


#: The dealing options, declared once in toolkit/cli/_common.py and given to a command by ``with_dealing``.
DEALING_FLAGS = {"--burn", "--burn-ace", "--burn-cards", "--cut-card", "--last-hand", "--coups"}
DEALING_PARAMETERS = {"burn", "burn_ace", "burn_cards", "cut_card", "last_hand", "coups"}
DEALING_CONSTANTS = {"DECKS", "BURN_OPTION", "BURN_ACE", "BURN_CARDS", "CUT_CARD", "LAST_HAND_OPTION", "COUPS"}
#: ``track`` follows a live shoe and deals nothing: its burn settings are words of the shoe header it writes.
LIVE_SHOE = {"toolkit.cli.track": {"--burn", "--burn-ace", "--burn-cards", "burn", "burn_ace", "burn_cards"}}


def _typer_option(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Option"


def test_the_dealing_options_are_declared_once():
    found = []
    for module, path in MODULES.items():
        if not module.startswith("toolkit.cli.") or module == "toolkit.cli._common":
            continue
        allowed = LIVE_SHOE.get(module, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if _typer_option(node):
                flags = {a.value for a in node.args if isinstance(a, ast.Constant)}
                found += [f"{module}: typer option {f}" for f in sorted((flags & DEALING_FLAGS) - allowed)]
            if isinstance(node, ast.FunctionDef):
                args = node.args.args + node.args.kwonlyargs
                defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + node.args.defaults
                for arg, default in zip(args, [*defaults, *node.args.kw_defaults], strict=True):
                    named = isinstance(default, ast.Name) and default.id in DEALING_CONSTANTS
                    option = _typer_option(default) and arg.arg in DEALING_PARAMETERS - allowed
                    if named or option:
                        found.append(f"{module}.{node.name}: parameter {arg.arg}")
            used = node.id if isinstance(node, ast.Name) else node.name if isinstance(node, ast.alias) else None
            if used in DEALING_CONSTANTS:
                found.append(f"{module}: uses {used}")
    assert not found, f"dealing options declared outside toolkit/cli/_common.py (use @with_dealing): {found}"


def _top_level_imports() -> dict[str, tuple[str, str]]:
    """The names that ``toolkit/__init__.py`` imports for type checkers, and where each comes from."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    blocks = [node for node in tree.body if isinstance(node, ast.If)]
    assert len(blocks) == 1, "toolkit/__init__.py has one TYPE_CHECKING block, the imports of its API"
    found: dict[str, tuple[str, str]] = {}
    for node in blocks[0].body:
        assert isinstance(node, ast.ImportFrom), "the TYPE_CHECKING block holds only `from ... import` lines"
        for alias in node.names:
            bound = alias.asname or alias.name
            assert bound not in found, f"{bound} is imported twice"
            found[bound] = (str(node.module), alias.name)
    return found


def test_the_top_level_api_is_static_and_written_in_two_places_only():
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
    imported = _top_level_imports()
    assert set(imported) == set(names), f"imports and __all__ differ: {sorted(set(imported) ^ set(names))}"
    assert set(assigned) <= {"__all__", "__version__"}, f"a third list of names: {sorted(assigned)}"
    for name, (module, attribute) in imported.items():
        assert getattr(toolkit, name) is getattr(importlib.import_module(module), attribute), name
    leaked = {n for n in dir(toolkit) if not n.startswith("_")} - set(names)
    assert not leaked, f"names that are not part of the API: {sorted(leaked)}"


def test_the_top_level_names_read_well_in_a_users_namespace():
    vague = {"summary", "verdicts", "combine", "bankroll", "replay", "report", "run", "result"}
    assert not vague & set(toolkit.__all__)
    by_object: dict[int, list[str]] = {}
    for name in toolkit.__all__:
        by_object.setdefault(id(getattr(toolkit, name)), []).append(name)
    twice = [names for names in by_object.values() if len(names) > 1]
    assert not twice, f"one object under two names: {twice}"


@pytest.mark.parametrize("package", CORE)
def test_the_core_is_in_subpackages_each_naming_its_api(package):
    module = importlib.import_module(f"toolkit.{package}")
    assert module.__doc__, f"toolkit.{package} says what it holds"
    exported = module.__all__
    assert exported, f"toolkit.{package} names its API"
    for name in exported:
        assert getattr(module, name) is not None
    # no flat core module is left at the top level: only the shared helpers
    flat = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert flat <= {"_check", "_files", "_kernel_cache", "_packing", "_progress", "_show", "_stats", "parallel"}, (
        sorted(flat)
    )


def test_the_package_reads_its_own_names_from_where_they_are_defined_not_through_the_facade():
    """``toolkit`` is the users' namespace: a module inside it imports from the subpackage that holds a name (so its
    layer is seen), never ``from toolkit import ...`` (the version string aside)."""
    through = []
    for module, path in MODULES.items():
        if module == "toolkit":
            continue
        for node in ast.walk(ast.parse(Path(path).read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "toolkit" and not node.level:
                names = {alias.name for alias in node.names} - {"__version__"}
                if names:
                    through.append(f"{module}:{node.lineno} {sorted(names)}")
    assert not through, through


@pytest.mark.parametrize("package", CORE)
def test_a_core_package_exports_every_name_its_public_modules_export(package):
    """The API pages list each public module's ``__all__`` under its package: every such name is the package's."""
    module = importlib.import_module(f"toolkit.{package}")
    tree = ast.parse(Path(module.__file__).read_text())
    children = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(f"toolkit.{package}.")
    }
    for child in sorted(children):
        if child.rsplit(".", 1)[-1].startswith("_"):
            continue
        missing = set(importlib.import_module(child).__all__) - set(module.__all__)
        assert not missing, f"{child} exports {sorted(missing)}, which toolkit.{package} does not"


def test_the_command_line_loads_neither_numba_nor_polars_for_help():
    code = (
        "import sys, runpy; sys.argv = ['baccarat', '--help']\n"
        "try:\n    runpy.run_module('toolkit.cli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in ('numba', 'polars', 'scipy', 'llvmlite') if m in sys.modules)\n"
        "print('HEAVY', heavy)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert "HEAVY []" in done.stdout, done.stdout[-500:] + done.stderr[-2000:]
    assert "Usage" in done.stdout


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


def _calls(path: Path) -> set[str]:
    """The names a module calls (``f(...)`` and ``x.f(...)``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    return names


def test_one_coup_step_deals_every_coup():
    """The tableau's decisions are made in one place: the coup step of ``toolkit/coup/step.py``.

    The dealing kernel, the rebuilding of recorded shoes, the coup-by-coup diagnosis and the live tracker all
    call it; nothing else reads the tableau's draw tables or decides a burn or the end of a shoe by itself.
    """
    step = PACKAGE / "coup" / "step.py"
    dealers = ("dealing/dealer.py", "records/_rebuild.py", "records/_diagnose.py")
    for module in (*dealers, "protection/scoreboard/symbols.py", "protection/scoreboard/_kernels.py"):
        calls = _calls(PACKAGE / module)
        assert {"coup_layout", "coup_layouts"} & calls, f"{module} does not deal with the coup step"
    assert "next_slot" in _calls(PACKAGE / "live" / "tracker.py")
    rules = {"coup_layout", "coup_layouts", "burn_count", "face_down_count", "may_start", "cut_card_after"}
    defined = {node.name for node in ast.walk(ast.parse(step.read_text())) if isinstance(node, ast.FunctionDef)}
    for path in PACKAGE.rglob("*.py"):
        if path == step:
            continue
        tree = ast.parse(path.read_text())
        defines = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)} & rules
        assert not defines, f"{path.relative_to(ROOT)} defines {sorted(defines)} again"
        text = path.read_text()
        # the tableau's tables are read only through Tables.of (the coup step's masks) or by the exact engine's walk
        reads = re.findall(r"\b(?:tableau|tab|rules\.tableau)\.(?:player|banker)\s*\[", text)
        walk = {"exact", "games"} & set(path.parts) or path.name in ("rules.py", "fields.py")  # walks, other games
        assert not reads or walk, f"{path.relative_to(ROOT)} reads the tableau's tables itself: {reads[:2]}"
    assert rules <= defined
