"""Count systems of one's own: tags from text (as ``--tags`` takes them) and count systems read from TOML files.

:func:`parse_tags` reads ``"0,0,0,-1,-1,-1,-1,2,2,0"``: 10 integers by value
0..9 or 13 by rank ``A, 2..9, T, J, Q, K`` (the order of ``--shoe``);
:func:`custom_count` builds a :class:`~toolkit.counting.systems.CountSystem`
from such tags; :func:`read_count_system` reads one from a TOML file::

    name = "my_dragon"                       # an identifier (names the rc_/tc_ columns)
    tags = [0, 0, 0, 0, -1, -1, -1, -1, 2, 2]   # 10 by value, 13 by rank, or a table {"9" = 2, T = -1}
    bet = "dragon7"
    threshold = 4
    trigger = "true"                         # or "running"
    divisor = "decks_left"                   # or "unseen"
    per = "deck"                             # or "half_deck"
    rounding = "none"                        # floor, truncate, nearest
    deck_estimate = "exact"                  # or "half_deck", "whole_deck"
    thresholds = [[1, 4], [40, 3], [70, 2]]  # (from, threshold) steps through the shoe; or a table {"40" = 3}
    threshold_by = "coup"                    # what "from" counts: "coup" or "cards_dealt"
    initial_count = 0
    count_burn_card = true
    source = "where it was published"

Every error names the file, the key and the value.

>>> custom_count("0,0,0,0,-1,-1,-1,-1,2,2", bet="dragon7", threshold=4).tags_by_value
(0, 0, 0, 0, -1, -1, -1, -1, 2, 2)
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from toolkit._check import whole_number
from toolkit._files import read_limited
from toolkit.counting.systems import CountSystem, TagsLike, tags_by_rank

__all__ = ["FILE_KEYS", "MAX_COUNT_FILE_BYTES", "MAX_TAG", "custom_count", "parse_tags", "read_count_system"]

#: The largest tag :func:`parse_tags` takes, either way: ``|tag| <= 1000`` (published tags are single digits;
#: a larger one is a slip, and one past 2**63 would not fit the compiled counters).
MAX_TAG = 1000
#: The most bytes a count-system file may hold (1 MiB).
MAX_COUNT_FILE_BYTES = 2**20

#: The keys a count-system file may hold (``tags`` is required).
FILE_KEYS = (
    "name",
    "tags",
    "bet",
    "threshold",
    "trigger",
    "divisor",
    "per",
    "rounding",
    "initial_count",
    "count_burn_card",
    "source",
    "deck_estimate",
    "thresholds",
    "threshold_by",
)

_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "bet": (str,),
    "threshold": (int, float),
    "trigger": (str,),
    "divisor": (str,),
    "per": (str,),
    "rounding": (str,),
    "initial_count": (int,),
    "count_burn_card": (bool,),
    "source": (str,),
    "deck_estimate": (str,),
    "thresholds": (list, dict),
    "threshold_by": (str,),
}


def parse_tags(text: str, where: str = "--tags") -> tuple[int, ...]:
    """Integer tags from comma-separated text: 10 by value (0..9) or 13 by rank (A,2,...,9,T,J,Q,K).

    Each tag is written in digits with an optional sign and lies within ``-MAX_TAG..MAX_TAG`` (1000).

    Parameters
    ----------
    text
        The tags, e.g. ``"0,0,0,-1,-1,-1,-1,2,2,0"`` (values 0..9 or ranks A..K).
    where
        What the tags are called in error messages.

    Returns
    -------
    tuple of int
        The tags as given (10 or 13); :class:`~toolkit.counting.systems.CountSystem` maps them to ranks.

    >>> parse_tags("1, 0,0,0,0,0,0,0,0,-1")
    (1, 0, 0, 0, 0, 0, 0, 0, 0, -1)
    >>> parse_tags("1,2")
    Traceback (most recent call last):
    ...
    ValueError: --tags needs 10 integers by value (0-9) or 13 by rank (A,2,...,9,T,J,Q,K); got 2
    """
    if not isinstance(text, str):
        raise TypeError(f"{where} must be text such as '0,0,0,0,-1,-1,-1,-1,2,2', got {text!r}")
    parts = [p.strip() for p in text.split(",")]
    if parts == [""]:
        parts = []
    if len(parts) not in (10, 13):
        raise ValueError(
            f"{where} needs 10 integers by value (0-9) or 13 by rank (A,2,...,9,T,J,Q,K); got {len(parts)}"
        )
    tags = []
    for i, part in enumerate(parts):
        try:
            tags.append(whole_number(part, f"{where}: tag {i + 1}"))
        except ValueError:
            raise ValueError(f"{where}: tag {i + 1} is not an integer: {part!r}") from None
        if abs(tags[-1]) > MAX_TAG:
            raise ValueError(f"{where}: tag {i + 1} must lie within -{MAX_TAG}..{MAX_TAG}, got {tags[-1]}")
    return tuple(tags)


def custom_count(tags: str | TagsLike, name: str = "custom", **fields: Any) -> CountSystem:
    """A count system from tags as text (:func:`parse_tags`) or as :class:`CountSystem` takes them.

    Parameters
    ----------
    tags
        Tags as text (:func:`parse_tags`), or 10 by value / 13 by rank.
    name
        The system's name.
    **fields
        The other :class:`~toolkit.counting.systems.CountSystem` fields
        (``bet``, ``threshold``, ``trigger``, ``divisor``, ``rounding``...).

    Returns
    -------
    CountSystem

    >>> custom_count("0,0,0,0,0,0,0,0,0,0,0,0,1", threshold=1).tags[-1]
    1
    """
    if isinstance(tags, str):
        tags = parse_tags(tags, f"count system {name!r}: tags")
    return CountSystem(name, tags_by_rank(tags, name), **fields)


def read_count_system(path: str | os.PathLike) -> CountSystem:
    """A count system from a TOML file (the keys are :data:`FILE_KEYS`; see the module notes).

    Errors name the file, the key and the value.  ``name`` defaults to the
    file's stem when that is an identifier.

    Parameters
    ----------
    path
        The TOML file: a regular file of at most :data:`MAX_COUNT_FILE_BYTES`
        (1 MiB).  Anything else (a folder, a device such as ``/dev/zero``, a named
        pipe, a larger file) raises :class:`ValueError` naming the file, before it is read.

    Returns
    -------
    CountSystem
    """
    file = Path(path)
    try:
        data = tomllib.loads(read_limited(file, MAX_COUNT_FILE_BYTES, "a count-system file").decode("utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{file}: no such count-system file") from None
    except OSError as err:
        raise ValueError(f"{file}: cannot read the count-system file: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{file}: not UTF-8 text (byte {err.start + 1}); a count-system file is TOML in UTF-8"
        ) from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{file}: not valid TOML: {err}") from None
    unknown = [k for k in data if k not in FILE_KEYS]
    if unknown:
        raise ValueError(f"{file}: unknown key {unknown[0]!r}; a count-system file holds {', '.join(FILE_KEYS)}")
    if "tags" not in data:
        raise ValueError(f"{file}: key 'tags' is missing (10 integers by value 0..9 or 13 by rank A..K)")
    for key, types in _TYPES.items():
        if key in data:
            value = data[key]
            if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
                kinds = " or ".join(t.__name__ for t in types)
                raise ValueError(f"{file}: key {key!r} must be {kinds}, got {value!r}")
    name = data.get("name", file.stem if file.stem.isidentifier() else "custom")
    tags = data["tags"]
    if isinstance(tags, str):
        raise ValueError(f"{file}: key 'tags' must be an array of integers or a table, got {tags!r}")
    if isinstance(tags, list):
        bad = [t for t in tags if not isinstance(t, int) or isinstance(t, bool)]
        if bad:
            raise ValueError(f"{file}: key 'tags': every tag must be an integer, got {bad[0]!r}")
    try:
        system = CountSystem(name, tags_by_rank(tags, name))
    except (ValueError, TypeError) as err:
        key = "name" if "name" in str(err) and "identifier" in str(err) else "tags"
        raise ValueError(f"{file}: key {key!r} = {data.get(key, name)!r}: {err}") from None
    for key in FILE_KEYS:
        if key in ("name", "tags") or key not in data:
            continue
        try:
            system = system.with_(**{key: data[key]})
        except (ValueError, TypeError) as err:
            raise ValueError(f"{file}: key {key!r} = {data[key]!r}: {err}") from None
    return system
