"""House rules in a TOML file: the drawing rules (tableau), and optionally commission and Tie payout.

A rules file names every cell of the tableau, so that a game with other drawing
rules (Baccarat Gold, a house variant) runs on the command line (``--rules FILE``)
as it does in Python with :class:`~toolkit.coup.rules.Tableau`:

.. code-block:: toml

    name = "baccarat gold"
    player_draws_on = [0, 1, 2, 3, 4, 5]          # Player's two-card totals on which Player draws
    commission = 0.05                              # optional (else --commission)
    tie_pays = 8                                   # optional (else --tie-pays)

    [banker_draws_on]                              # Banker's two-card total -> Player's third-card
    "0" = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "stood"]  # values on which Banker draws; "stood": Player stood
    "1" = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "stood"]
    # ... every total "0" to "9"
    "8" = []
    "9" = []

Every Banker total 0-9 is present (an absent total is an error, not "never");
naturals always stand, so a file in which Player draws on 8 or 9, or Banker
draws on 8 or 9, is refused; every other key, every value and its type are
checked.  A bad file raises :class:`ValueError` with one line naming the file,
the key and, where it can be found, the line.  The file is UTF-8 text of at most
:data:`MAX_RULES_FILE_BYTES` bytes, read as bet files are (a folder, a device or a
pipe is refused before it is read).

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     path = pathlib.Path(d, "punto_banco.toml")
...     _ = path.write_text(rules_file_text())
...     read_rules_file(path).tableau == PUNTO_BANCO
True
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from toolkit._check import as_fraction, plain_text
from toolkit._files import read_limited
from toolkit.coup.rules import PLAYER_STOOD, PUNTO_BANCO, Rules, Tableau

__all__ = ["MAX_RULES_FILE_BYTES", "RulesFile", "read_rules_file", "rules_file_text"]

#: The most bytes a rules file may hold (64 KiB: a complete tableau takes under 1 KiB).
MAX_RULES_FILE_BYTES = 2**16

_KEYS = ("name", "player_draws_on", "banker_draws_on", "commission", "tie_pays")
_NATURALS = (8, 9)


@dataclass(frozen=True)
class RulesFile:
    """House rules read from a file: the tableau (named), and the commission and Tie payout if the file sets them.

    Attributes
    ----------
    name
        The rules' name (also the tableau's).
    tableau
        The drawing rules.
    commission, tie_pays
        Exact values the file sets, or ``None`` (the command's options decide).
    path
        The file.
    """

    name: str
    tableau: Tableau
    commission: Fraction | None = None
    tie_pays: Fraction | None = None
    path: str = ""

    def rules(self, decks: int = 8, commission: object = Fraction(1, 20), tie_pays: object = 8) -> Rules:
        """:class:`~toolkit.coup.rules.Rules` of ``decks`` decks: the file's values where it sets them, else these.

        Parameters
        ----------
        decks
            Decks in the shoe.
        commission, tie_pays
            Used where the file sets none.

        Returns
        -------
        Rules
            The house rules.
        """
        return Rules(
            decks=decks,
            commission=as_fraction(commission) if self.commission is None else self.commission,
            tie_pays=as_fraction(tie_pays) if self.tie_pays is None else self.tie_pays,
            tableau=self.tableau,
        )


def _line(text: str, key: str, section: str | None = None) -> str:
    """``", line N"`` where ``key`` is set (in ``[section]`` when given), or ``""`` when it cannot be found."""
    lines = text.splitlines()
    start = 0
    if section is not None:
        head = re.compile(rf"^\s*\[\s*{re.escape(section)}\s*\]")
        found = next((i for i, line in enumerate(lines) if head.match(line)), None)
        if found is None:
            return ""
        start = found + 1
    pattern = re.compile(rf"""^\s*(?:"{re.escape(key)}"|'{re.escape(key)}'|{re.escape(key)})\s*=""")
    for i in range(start, len(lines)):
        if section is not None and lines[i].lstrip().startswith("["):
            break
        if pattern.match(lines[i]):
            return f", line {i + 1}"
    return ""


def _total(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
        raise ValueError(f"{where}: a two-card total is an integer 0..9, got {value!r}")
    return value


def _third(value: object, where: str) -> int:
    if value == "stood":
        return PLAYER_STOOD
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
        raise ValueError(f'{where}: a Player third-card value is an integer 0..9 or "stood", got {value!r}')
    return value


def _distinct(values: list[Any], where: str) -> None:
    seen: list[Any] = []
    for v in values:
        if v in seen:
            raise ValueError(f"{where}: {v!r} is listed twice")
        seen.append(v)


def _fraction(value: object, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{where}: expected a number, got {value!r}")
    return Fraction(value) if isinstance(value, int) else Fraction(str(value))


def read_rules_file(path: str | Path) -> RulesFile:
    """Read house rules from a TOML file (see the module notes); a bad file: one line naming file, key and line.

    Parameters
    ----------
    path
        The file (at most :data:`MAX_RULES_FILE_BYTES` bytes, UTF-8).

    Returns
    -------
    RulesFile
        The named tableau, and the commission and Tie payout if set.
    """
    p = Path(path)
    try:
        raw = read_limited(p, MAX_RULES_FILE_BYTES, "a rules file")
    except OSError as err:
        raise ValueError(f"{p}: cannot read the rules file: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(f"{p}: the rules file is not UTF-8 text (byte offset {err.start}); save it as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{p}: not valid TOML: {err}") from None
    for key in data:
        if key not in _KEYS:
            raise ValueError(f"{p}{_line(text, key)}: unknown key {key!r}; a rules file has {', '.join(_KEYS)}")
    for key in ("name", "player_draws_on", "banker_draws_on"):
        if key not in data:
            raise ValueError(f"{p}: {key!r} is missing (a rules file gives name, player_draws_on, banker_draws_on)")
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{p}{_line(text, 'name')}: 'name' must be a non-empty string, got {name!r}")
    plain_text(name, f"{p}: 'name'")
    where = f"{p}{_line(text, 'player_draws_on')}: 'player_draws_on'"
    player_on = data["player_draws_on"]
    if not isinstance(player_on, list):
        raise ValueError(f"{where}: expected a list of Player's two-card totals 0..7, got {player_on!r}")
    totals = [_total(v, where) for v in player_on]
    _distinct(totals, where)
    for t in totals:
        if t in _NATURALS:
            raise ValueError(f"{where}: Player draws on {t}, a natural; naturals always stand")
    banker_on = data["banker_draws_on"]
    if not isinstance(banker_on, dict):
        where = f"{p}{_line(text, 'banker_draws_on')}: 'banker_draws_on'"
        raise ValueError(f'{where} must be a table of totals "0".."9"')
    for key in banker_on:
        if key not in {str(t) for t in range(10)}:
            raise ValueError(
                f'{p}{_line(text, key, "banker_draws_on")}: \'banker_draws_on\' key {key!r} is not a total "0".."9"'
            )
    rows = []
    for t in range(10):
        key = str(t)
        where = f"{p}{_line(text, key, 'banker_draws_on')}: 'banker_draws_on.{key}'"
        if key not in banker_on:
            raise ValueError(f"{where} is missing; give every total 0..9 (an empty list for never)")
        cells = banker_on[key]
        if not isinstance(cells, list):
            raise ValueError(f'{where}: expected a list of third-card values 0..9 and "stood", got {cells!r}')
        columns = [_third(v, where) for v in cells]
        _distinct(cells, where)
        if t in _NATURALS and columns:
            raise ValueError(f"{where}: Banker draws on {t}, a natural; naturals always stand (give [])")
        rows.append(tuple(c in columns for c in range(11)))
    commission = tie_pays = None
    if "commission" in data:
        where = f"{p}{_line(text, 'commission')}: 'commission'"
        commission = _fraction(data["commission"], where)
        if not 0 <= commission < 1:
            raise ValueError(f"{where} must be in [0, 1), got {data['commission']!r}")
    if "tie_pays" in data:
        where = f"{p}{_line(text, 'tie_pays')}: 'tie_pays'"
        tie_pays = _fraction(data["tie_pays"], where)
        try:
            Rules(tie_pays=tie_pays)
        except ValueError as err:
            raise ValueError(f"{where}: {str(err).removeprefix('Rules.tie_pays ')}") from None
    tableau = Tableau(player=tuple(t in totals for t in range(10)), banker=tuple(rows), name=name.strip())
    return RulesFile(name.strip(), tableau, commission, tie_pays, str(p))


def rules_file_text(tableau: Tableau = PUNTO_BANCO, commission: object = None, tie_pays: object = None) -> str:
    """The TOML text of a rules file holding ``tableau`` (and the commission and Tie payout, when given).

    Parameters
    ----------
    tableau
        The drawing rules (its name becomes the file's).
    commission, tie_pays
        Written when not ``None``.

    Returns
    -------
    str
        A file :func:`read_rules_file` reads back into the same tableau.

    Examples
    --------
    >>> print(rules_file_text().splitlines()[1])
    player_draws_on = [0, 1, 2, 3, 4, 5]
    """
    lines = [f"name = {_quoted(tableau.name)}"]
    lines.append(f"player_draws_on = [{', '.join(str(t) for t in range(10) if tableau.player_draws(t))}]")
    for key, value in (("commission", commission), ("tie_pays", tie_pays)):
        if value is not None:
            exact = as_fraction(repr(value) if isinstance(value, float) else value)
            lines.append(f"{key} = {exact.numerator if exact.denominator == 1 else float(exact)!r}")
    lines.append("")
    lines.append("[banker_draws_on]")
    for t in range(10):
        cells = [str(c) for c in range(10) if tableau.banker_draws(t, c)]
        if tableau.banker_draws(t, None):
            cells.append('"stood"')
        lines.append(f'"{t}" = [{", ".join(cells)}]')
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
