"""Every public name has a numpydoc docstring: Parameters when it takes any, Returns (or Yields) when it returns.

The names come from ``toolkit.__all__`` and the ``__all__`` of the subpackages
and core modules below.  A class needs a docstring, and a dataclass an
Attributes (or Parameters) section for its fields.  :data:`PENDING` lists the names whose docstrings are still to be
completed, by the modules' owners; remove a name from it once its docstring
has the sections (the test then keeps it so).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import pytest

import toolkit

MODULES = (
    "toolkit",
    "toolkit.counting",
    "toolkit.records",
    "toolkit.games",
    "toolkit.sizing",
    "toolkit.live",
    "toolkit.widgets",
    "toolkit.coup.cards",
    "toolkit.coup.rules",
    "toolkit.coup.outcome",
    "toolkit.exact.engine",
    "toolkit.exact.frames",
    "toolkit.dealing.shuffles",
    "toolkit.edges.eor",
    "toolkit.edges.known_card",
    "toolkit.edges.depletion",
    "toolkit.dealing.dealer",
    "toolkit.parallel",
    "toolkit.edges.reference",
    "toolkit.studies",
    "toolkit.studies.assess",
    "toolkit.plots",
    "toolkit.bets.paytable",
    "toolkit.bets.coup_bets",
    "toolkit.bets.fields",
    "toolkit.coup.suits",
    "toolkit.bets.files",
    "toolkit.bets.catalogue",
    "toolkit.bets.ca",
)

#: Names still to be documented, by module (none left; a name added here is skipped, saying so).
PENDING: dict[str, set[str]] = {}
OTHER_OWNERS = ("toolkit.cli",)


def _public() -> dict[str, object]:
    found: dict[str, object] = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            home = getattr(obj, "__module__", "")
            if home.startswith(OTHER_OWNERS):
                continue
            found.setdefault(f"{home}.{obj.__qualname__}", obj)
    return found


PUBLIC = _public()


def _sections(doc: str) -> set[str]:
    lines = doc.splitlines()
    return {lines[i].strip() for i in range(len(lines) - 1) if set(lines[i + 1].strip()) == {"-"} and lines[i].strip()}


def _missing(obj: object) -> list[str]:
    doc = inspect.getdoc(obj) or ""
    if not doc.strip():
        return ["a docstring"]
    if inspect.isclass(obj):
        fields = dataclasses.is_dataclass(obj) and any(f.init for f in dataclasses.fields(obj))
        return ["Attributes"] if fields and not _sections(doc) & {"Attributes", "Parameters"} else []
    sections = _sections(doc)
    assert callable(obj)
    sig = inspect.signature(obj)
    missing = []
    if sig.parameters and "Parameters" not in sections:
        missing.append("Parameters")
    returns = sig.return_annotation not in (None, "None", inspect.Signature.empty)
    if returns and not sections & {"Returns", "Yields"}:
        missing.append("Returns")
    return missing


def _pending(qualified: str) -> bool:
    module, _, name = qualified.rpartition(".")
    return name in PENDING.get(module, set())


@pytest.mark.parametrize("qualified", sorted(PUBLIC))
def test_public_docstring_has_the_sections(qualified: str) -> None:
    missing = _missing(PUBLIC[qualified])
    if _pending(qualified):
        if not missing:
            pytest.fail(f"{qualified} is documented now: remove it from PENDING")
        pytest.skip(f"{qualified}: pending ({', '.join(missing)})")
    assert not missing, f"{qualified} lacks {', '.join(missing)}"


def test_pending_names_exist() -> None:
    for module, names in PENDING.items():
        for name in names:
            assert hasattr(importlib.import_module(module), name), f"{module}.{name}"


def test_every_top_level_name_is_checked() -> None:
    checked = {q.rpartition(".")[2] for q in PUBLIC} | {n for names in PENDING.values() for n in names}
    for name in toolkit.__all__:
        obj = getattr(toolkit, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert obj.__qualname__ in checked or obj.__module__.startswith(OTHER_OWNERS), name


def _members() -> list[str]:
    out = []
    for qualified, obj in PUBLIC.items():
        module = qualified.rpartition(".")[0]
        if not inspect.isclass(obj) or module.startswith(("toolkit.widgets", "toolkit.studies")) or _pending(qualified):
            continue
        for name, member in vars(obj).items():
            if name.startswith("_"):
                continue
            if isinstance(member, (property, classmethod, staticmethod)) or inspect.isfunction(member):
                out.append(f"{qualified}.{name}")
    return sorted(out)


@pytest.mark.parametrize("member", _members())
def test_public_members_have_docstrings(member: str) -> None:
    """Public methods and properties of the public classes say what they do (a line is enough)."""
    qualified, _, name = member.rpartition(".")
    raw = vars(PUBLIC[qualified])[name]
    fn = raw.fget if isinstance(raw, property) else getattr(raw, "__func__", raw)
    assert (fn.__doc__ or "").strip(), f"{member} has no docstring"
