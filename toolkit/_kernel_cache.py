"""numba's on-disk kernel cache, keyed by every package module a kernel's module imports, not by its own file only.

numba stamps a cached kernel (``__pycache__/*.nbi``) with the source of the one file that defines it. A kernel
compiles in the compiled functions and the global constants of the modules it imports (the coup step, the
option codes, the card values), so after an edit to one of those a kernel whose own file did not change was
loaded from the cache with the old rules: the dealing kernel went on ending shoes by the end-of-shoe rule of
before Jacobson's ``two_more_if_first``, one coup early, on every machine that had compiled it before, and
agreed with the other dealers on a fresh checkout.

Here the stamp of a kernel defined in this package is a hash of the source of its module and of every package
module that module imports, directly or not (:func:`dependency_stamp`), so an edit anywhere along the chain
recompiles the kernel. The cache stays where numba puts it (``__pycache__``, or ``NUMBA_CACHE_DIR``); kernels
outside the package are left to numba.

``import toolkit`` must stay fast and must not import numba, so :func:`watch` installs the locators when
numba's caching module is first imported (or at once, when it already is), before any kernel is decorated.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["dependency_stamp", "imported_modules", "install", "watch"]

#: The package's directory and the directory above it (where ``toolkit.x.y`` resolves).
PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
#: The module numba keeps its cache locators in.
CACHING = "numba.core.caching"


def _module_file(name: str) -> Path | None:
    """The source file of the package module ``name`` (``toolkit.a.b``), or ``None`` if none is."""
    path = ROOT.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    parts = path.resolve().relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def imported_modules(path: Path) -> frozenset[Path]:
    """The package's source files that the module at ``path`` imports (anywhere in it, relative imports too).

    ``from toolkit.a import b`` names ``toolkit/a/b.py`` where ``b`` is a module, else ``toolkit/a``'s own file.

    >>> sorted(p.name for p in imported_modules(PACKAGE / "coup" / "step.py"))
    ['cards.py', 'options.py', 'rules.py']
    """
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = [f"{base}.{alias.name}" for alias in node.names if _module_file(f"{base}.{alias.name}")]
            targets = submodules if len(submodules) == len(node.names) else [base, *submodules]
        for target in targets:
            file = _module_file(target) if target.split(".")[0] == PACKAGE.name else None
            if file is not None and file.resolve() != path:
                found.add(file.resolve())
    return frozenset(found)


@cache
def dependency_stamp(path: Path) -> str:
    """A hash of the source of the module at ``path`` and of every package module it imports, directly or not.

    >>> stamp = dependency_stamp(PACKAGE / "dealing" / "dealer.py")
    >>> len(stamp), stamp == dependency_stamp(PACKAGE / "coup" / "step.py")
    (64, False)
    """
    path = path.resolve()
    closure: set[Path] = {path}
    todo = [path]
    while todo:
        for file in imported_modules(todo.pop()):
            if file not in closure:
                closure.add(file)
                todo.append(file)
    digest = hashlib.sha256()
    for file in sorted(closure):
        digest.update(str(file.relative_to(ROOT)).encode())
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()


def _in_package(py_file: str) -> bool:
    try:
        Path(py_file).resolve().relative_to(PACKAGE)
    except (OSError, ValueError):
        return False
    return py_file.endswith(".py")


def install(caching: ModuleType) -> None:
    """Put, ahead of numba's own, cache locators that stamp this package's kernels by :func:`dependency_stamp`.

    One per numba locator that reads a source file (``NUMBA_CACHE_DIR``, ``__pycache__``, the user's cache
    directory), each taking only the package's files; installing twice changes nothing.
    """
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # numba < 0.61 spells it with an underscore
    classes: list[Any] = impl._locator_classes
    if any(getattr(c, "_toolkit", False) for c in classes):
        return
    bases = [
        getattr(caching, name, None) or getattr(caching, f"_{name}")
        for name in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    ]
    classes[:0] = [_stamped(base) for base in bases]


def _stamped(base: Any) -> Any:
    class Locator(base):
        _toolkit = True

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            return super().from_function(py_func, py_file) if _in_package(py_file) else None

        def get_source_stamp(self) -> str:
            return dependency_stamp(Path(self._py_file))

    Locator.__name__ = Locator.__qualname__ = f"Toolkit{base.__name__.lstrip('_')}"
    return Locator


class _Watch(importlib.abc.MetaPathFinder):
    """Installs the locators as soon as numba's caching module has been executed, then steps aside."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != CACHING:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            install(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def watch() -> None:
    """Install the locators now if numba's caching module is loaded, else when it is (without importing numba)."""
    if CACHING in sys.modules:
        install(sys.modules[CACHING])
    elif not any(isinstance(f, _Watch) for f in sys.meta_path):
        sys.meta_path.insert(0, _Watch())
