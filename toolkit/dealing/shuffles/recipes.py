"""Casino shuffle procedures written as TOML recipes, and models named on the command line.

A recipe file is a stranger's data: it is read with a size limit (:data:`MAX_RECIPE_BYTES`), only the keys below
are accepted, nothing in it is executed, and every bad value is reported in one line naming the file and the
key (``shuffle.toml: steps[2].times: must be a whole number of 0 or more, got 'two'``).

.. code-block:: toml

    name = "eight-deck hand shuffle"
    description = "what the procedure is"
    source = "where it is described"
    cards = 416                     # optional: the deck it is written for

    [[steps]]
    kind = "stacks"                 # break into stacks, shuffle each, put them back
    stacks = 4
    merge = "stack"                 # or "interleave"
      [[steps.steps]]               # what is done to each stack
      kind = "riffle"
      times = 2

    [[steps]]
    kind = "strip"                  # Pemantle's overhand: each gap a cut with probability p
    p = 0.1

Step kinds and their keys (defaults in brackets): ``riffle`` (``times`` [1]), ``ashuffle`` (``a`` [2]),
``cut`` (``p`` [0.5]), ``strip`` (``p`` [0.1]), ``plug`` (``fraction`` [0.25]), ``pile`` (``piles`` [4]),
``shelf`` (``shelves`` [10]), ``continuous`` (``buffer`` [40]), ``wash``; and the two that hold steps:
``stacks`` (``stacks`` [2], ``merge`` ["stack"], ``steps``) and ``repeat`` (``times`` [2], ``steps``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._files import read_limited
from toolkit.dealing.shuffles.models import (
    AShuffle,
    Continuous,
    Cut,
    Overhand,
    Pile,
    Plug,
    Repeat,
    Riffle,
    Sequence,
    Shelf,
    ShuffleModel,
    Stacks,
    Wash,
)

__all__ = ["MAX_RECIPE_BYTES", "MAX_RECIPE_STEPS", "Recipe", "model_from_name", "parse_recipe", "read_recipe"]

#: The largest recipe file read.
MAX_RECIPE_BYTES = 64 * 1024
#: The most steps in a recipe, all levels together.
MAX_RECIPE_STEPS = 256
#: The deepest nesting of ``stacks`` and ``repeat`` steps.
MAX_DEPTH = 4

#: Each simple step kind: its model and its one parameter (name, default, kind of number).
_SIMPLE: dict[str, tuple[type, str | None, object, type]] = {
    "riffle": (Riffle, "times", 1, int),
    "ashuffle": (AShuffle, "a", 2, int),
    "cut": (Cut, "p", 0.5, float),
    "strip": (Overhand, "p", 0.1, float),
    "overhand": (Overhand, "p", 0.1, float),
    "plug": (Plug, "fraction", 0.25, float),
    "pile": (Pile, "piles", 4, int),
    "shelf": (Shelf, "shelves", 10, int),
    "continuous": (Continuous, "buffer", 40, int),
    "wash": (Wash, None, None, int),
}
_NESTED = {"stacks": {"kind", "stacks", "merge", "steps"}, "repeat": {"kind", "times", "steps"}}
_TOP = {"name", "description", "source", "cards", "steps"}


@dataclass(frozen=True)
class Recipe:
    """A shuffle procedure read from a recipe file.

    Attributes
    ----------
    name
        Its name.
    description
        What it is.
    source
        Where the procedure is described.
    cards
        The deck it is written for (``None``: any).
    model
        The procedure as a model (a :class:`~toolkit.dealing.shuffles.Sequence` of the steps).
    """

    name: str
    description: str
    source: str
    cards: int | None
    model: ShuffleModel


def _number(value: object, kind: type, where: str) -> object:
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where}: must be a whole number, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: must be a number, got {value!r}")
    return float(value)


def _build(make: Any, value: object, where: str) -> ShuffleModel:
    try:
        return make(value)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{where}: {err}") from None


class _Reader:
    """Turns the parsed TOML into models, counting the steps and naming each bad key."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.count = 0

    def steps(self, items: object, at: str, depth: int) -> tuple[ShuffleModel, ...]:
        if not isinstance(items, list) or not items:
            raise ValueError(f"{self.where}: {at}: give at least one step ([[{at}]] tables with a 'kind')")
        if depth > MAX_DEPTH:
            raise ValueError(f"{self.where}: {at}: steps nested more than {MAX_DEPTH} deep")
        return tuple(self.step(item, f"{at}[{i}]", depth) for i, item in enumerate(items, start=1))

    def step(self, item: object, at: str, depth: int) -> ShuffleModel:
        self.count += 1
        if self.count > MAX_RECIPE_STEPS:
            raise ValueError(f"{self.where}: {at}: more than {MAX_RECIPE_STEPS} steps")
        if not isinstance(item, dict):
            raise ValueError(f"{self.where}: {at}: a step must be a table with a 'kind', got {item!r}")
        kind = item.get("kind")
        known = sorted([*_SIMPLE, *_NESTED])
        if kind not in known:
            raise ValueError(f"{self.where}: {at}.kind: must be one of {', '.join(known)}, got {kind!r}")
        loc = f"{self.where}: {at}"
        if kind in _NESTED:
            allowed = _NESTED[kind]
            self._only(item, allowed, at)
            inner = Sequence(self.steps(item.get("steps"), f"{at}.steps", depth + 1))
            if kind == "repeat":
                times = _number(item.get("times", 2), int, f"{loc}.times")
                return _build(lambda t: Repeat(inner, t), times, f"{loc}.times")
            stacks = _number(item.get("stacks", 2), int, f"{loc}.stacks")
            merge = item.get("merge", "stack")
            if merge not in ("stack", "interleave"):
                raise ValueError(f"{loc}.merge: must be 'stack' or 'interleave', got {merge!r}")
            return _build(lambda s: Stacks(s, inner, merge), stacks, f"{loc}.stacks")
        make, key, default, number = _SIMPLE[kind]
        self._only(item, {"kind"} if key is None else {"kind", key}, at)
        if key is None:
            return make()
        value = _number(item.get(key, default), number, f"{loc}.{key}")
        return _build(make, value, f"{loc}.{key}")

    def _only(self, item: dict[str, object], allowed: set[str], at: str) -> None:
        extra = sorted(set(item) - allowed)
        if extra:
            raise ValueError(
                f"{self.where}: {at}.{extra[0]}: unknown key for a {item['kind']!r} step "
                f"(it takes {', '.join(sorted(allowed))})"
            )


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"{where}: {key}: must be a string, got {value!r}")
    if any(ord(c) < 32 and c not in "\n\t" for c in value):
        raise ValueError(f"{where}: {key}: must be plain text (no control characters)")
    return value.strip()


def parse_recipe(text: str, where: str = "recipe") -> Recipe:
    """A recipe from its TOML text (see the module notes); ``where`` names it in messages.

    Parameters
    ----------
    text
        The TOML.
    where
        What to call it in an error (the file's name).

    Returns
    -------
    Recipe
        The recipe.

    Examples
    --------
    >>> parse_recipe('name = "two riffles"\\n[[steps]]\\nkind = "riffle"\\ntimes = 2').model
    Sequence(steps=(Riffle(times=2),))
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{where}: not valid TOML: {err}") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion: 64 KiB of '[' exhausts it
        raise ValueError(
            f"{where}: arrays or tables nested too deeply to be a recipe (at most {MAX_DEPTH} steps deep)"
        ) from None
    extra = sorted(set(data) - _TOP)
    if extra:
        raise ValueError(f"{where}: {extra[0]}: unknown key; a recipe has {', '.join(sorted(_TOP))}")
    name = _text(data, "name", where)
    if not name:
        raise ValueError(f"{where}: name: must be a non-empty string")
    cards = data.get("cards")
    if cards is not None and (isinstance(cards, bool) or not isinstance(cards, int) or cards < 1):
        raise ValueError(f"{where}: cards: must be a whole number of 1 or more, got {cards!r}")
    steps = _Reader(where).steps(data.get("steps"), "steps", 1)
    return Recipe(name, _text(data, "description", where), _text(data, "source", where), cards, Sequence(steps))


def read_recipe(path: str | Path) -> Recipe:
    """Read a shuffle recipe from a TOML file (at most :data:`MAX_RECIPE_BYTES`); errors name the file and key.

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    Recipe
        The recipe; its ``model`` is the procedure.
    """
    p = Path(path)
    try:
        raw = read_limited(p, MAX_RECIPE_BYTES, "a shuffle recipe")
    except OSError as err:
        raise ValueError(f"{p}: cannot read the recipe: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(f"{p}: the recipe is not UTF-8 text (byte offset {err.start})") from None
    return parse_recipe(text, str(p))


def model_from_name(spec: str) -> ShuffleModel:
    """A model from a short name: ``riffle``, ``riffle:3``, ``ashuffle:8``, ``cut``, ``strip:0.1``, ``pile:4``,
    ``shelf:10``, ``continuous:40``, ``plug:0.25``, ``wash`` (the number is the step's one parameter).

    Parameters
    ----------
    spec
        ``KIND`` or ``KIND:VALUE``.

    Returns
    -------
    ShuffleModel
        The model.

    Examples
    --------
    >>> model_from_name("shelf:10"), model_from_name("strip:0.2")
    (Shelf(shelves=10), Overhand(p=0.2))
    """
    kind, _, value = str(spec).strip().partition(":")
    kind = kind.strip().lower()
    if kind not in _SIMPLE:
        raise ValueError(f"model {spec!r}: the kind must be one of {', '.join(sorted(_SIMPLE))}")
    make, key, default, number = _SIMPLE[kind]
    if key is None:
        if value:
            raise ValueError(f"model {spec!r}: {kind} takes no value")
        return make()
    if not value:
        return _build(make, default, f"model {spec!r}")
    try:
        parsed: object = int(value) if number is int else float(value)
    except ValueError:
        what = "a whole number" if number is int else "a number"
        raise ValueError(f"model {spec!r}: {key} must be {what}, got {value!r}") from None
    return _build(make, parsed, f"model {spec!r}")
