"""A table of simulated players in a TOML file: one ``[[player]]`` table per seat, its ``kind`` and its settings.

The file is a stranger's data: read only when it is a regular file of at most
:data:`MAX_PLAYERS_FILE_BYTES` (1 MiB), and at most :data:`MAX_PLAYERS` players;
each player's keys are those of its class (:data:`~toolkit.protection.players.PLAYER_KINDS`),
and any other key, a missing ``kind`` or a bad value is refused in one line naming
the file and the player::

    [[player]]
    kind = "counter"          # counter, flat, progression, road or team
    who = "seat3"
    system = "dragon7"        # a count system of the library
    ramp = { "4" = 5, "6" = 10 }   # units by true count
    miss_rate = 0.05

    [[player]]
    kind = "progression"
    who = "seat1"
    system = "martingale"

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "table.toml"
>>> _ = path.write_text('[[player]]\\nkind = "road"\\nwho = "s1"\\nmode = "chop"\\n')
>>> read_players(path)
[RoadFollower(who='s1', mode='chop', base=1.0)]
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

from toolkit._files import read_limited
from toolkit.protection.players import PLAYER_KINDS, Player

__all__ = ["MAX_PLAYERS", "MAX_PLAYERS_FILE_BYTES", "read_players"]

#: The largest players file read.
MAX_PLAYERS_FILE_BYTES = 2**20
#: The most players a file may seat.
MAX_PLAYERS = 64


def _keys(kind: type) -> list[str]:
    return [f.name for f in dataclasses.fields(kind) if f.init and not f.name.startswith("_")]


def _player(file: Path, index: int, item: object) -> Player:
    where = f"{file}: player {index}"
    if not isinstance(item, dict):
        raise ValueError(f"{where}: a player is a [[player]] table of keys, got {item!r}")
    kind = item.get("kind")
    if kind not in PLAYER_KINDS:
        raise ValueError(f"{where}: 'kind' must be one of {', '.join(PLAYER_KINDS)}, got {kind!r}")
    cls = PLAYER_KINDS[kind]
    allowed = _keys(cls)
    settings = {k: v for k, v in item.items() if k != "kind"}
    unknown = [k for k in settings if k not in allowed]
    if unknown:
        raise ValueError(f"{where} ({kind}): unknown key {unknown[0]!r}; known keys: {', '.join(allowed)}")
    if "ramp" in settings:
        ramp = settings["ramp"]
        if not isinstance(ramp, dict):
            raise ValueError(f"{where} ({kind}): 'ramp' is a table of true count = units, got {ramp!r}")
        try:
            settings["ramp"] = {float(k): v for k, v in ramp.items()}
        except ValueError:
            raise ValueError(f"{where} ({kind}): ramp keys must be true counts (numbers), got {list(ramp)}") from None
    if "amounts" in settings and isinstance(settings["amounts"], list):
        settings["amounts"] = tuple(settings["amounts"])
    try:
        return cls(**settings)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{where} ({kind}): {err}") from None


def read_players(path: str | Path) -> list[Player]:
    """The players of a TOML file (see the module notes); every refusal a :class:`ValueError` naming the file.

    Parameters
    ----------
    path
        The file: a regular file of at most :data:`MAX_PLAYERS_FILE_BYTES`.

    Returns
    -------
    list of Player
        In file order.
    """
    file = Path(path)
    try:
        data = tomllib.loads(read_limited(file, MAX_PLAYERS_FILE_BYTES, "a players file").decode("utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{file}: no such players file") from None
    except OSError as err:
        raise ValueError(f"{file}: cannot read the players file: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise ValueError(f"{file}: not UTF-8 text (byte {err.start + 1}); a players file is TOML in UTF-8") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{file}: not valid TOML: {err}") from None
    unknown = [k for k in data if k != "player"]
    if unknown:
        raise ValueError(f"{file}: unknown key {unknown[0]!r}; a players file holds [[player]] tables")
    items = data.get("player", [])
    if not isinstance(items, list) or not items:
        raise ValueError(f"{file}: no players: give one [[player]] table per seat")
    if len(items) > MAX_PLAYERS:
        raise ValueError(f"{file}: {len(items)} players; a table seats at most {MAX_PLAYERS}")
    return [_player(file, i, item) for i, item in enumerate(items, start=1)]
