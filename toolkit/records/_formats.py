"""Recognising the layouts other simulators, trackers and casino exports write, without options.

Private to :mod:`toolkit.records.read`.  :func:`recognise` takes the rows a container reader
returned (:class:`~toolkit.records._raw.Raw`, every column as text) and, when they are not in
one of the record's own layouts, finds in their columns

* the cards: per-position columns (``p1 p2 p3 b1 b2 b3``, ``pcard1``, ``player_card_1``,
  ``banker3``, ...) or one hand a cell (``player_cards``, ``player_hand``: a JSON list, or cards
  separated by spaces, commas, ``;``, ``|`` or dashes);
* the winner (``winner``, ``outcome``, ``result``, ...: ``P/B/T``, ``player/banker/tie``,
  ``punto/banco``, ``player win``, ...); without cards the rows are results only, read as a bead road;
* the shoe (``shoe``, ``shoe number``, ``shoe_id``, ...) and the coup (``coup``, ``hand_no``,
  ``rounds``, ``index``, ...).

Without a shoe column the shoes are inferred (:func:`infer_shoes`): a new shoe begins where the
hand numbers restart, where the cards left jump up, at a row that records a burn (a ``burn`` column
filled only on the first hand of a shoe), or after a blank line; else the file is one shoe.
What was recognised is said in one line (the ``read as`` of
:class:`~toolkit.records.model.Records`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from toolkit.records._raw import LineProblem, Raw, UnreadableError, quoted, split_hand

__all__ = ["Reading", "infer_shoes", "normal_name", "recognise", "winner_names"]

_OWN = (("shoe", "position", "card"), ("shoe", "coup", "player", "banker"), ("shoe", "road"))
_SHOE = re.compile(r"^shoe(_?(number|no|num|nr|id|index|idx))?$")
_COUP = re.compile(r"^(coup|hand|round|game|index|idx|no|number)s?(_?(no|number|num|nr|id|index|idx))?$")
_LEFT = re.compile(r"^(shoe_)?(cards_(left|remaining)|remaining(_cards)?|left)$")
_BURN = re.compile(r"^(burn|burns|burned|burnt)(_?(card|cards))?$")
_WINNER = re.compile(r"^(winner|winning_(hand|side)|outcome|result|game_result|win|won)$")
_SIDES = {"player": r"(p|player|punto|pl)", "banker": r"(b|banker|banco|bk|bnk)"}
_HAND_CELL = {side: re.compile(rf"^{pat}_?(cards|hand|hands|card_list)?$") for side, pat in _SIDES.items()}
_POSITION = {side: re.compile(rf"^{pat}_?(card_?|c_?)?([123])(_?card)?$") for side, pat in _SIDES.items()}
#: Cell texts that mean "no card here".
NO_CARD = ("", "x", "-", "none", "null", "nan", "na", "n/a")
#: The most missing coup numbers a problem lists (then ``...``).
MAX_LISTED_GAPS = 10
_WINNER_WORDS = {
    "p": "player",
    "player": "player",
    "punto": "player",
    "闲": "player",
    "b": "banker",
    "banker": "banker",
    "banco": "banker",
    "庄": "banker",
    "t": "tie",
    "tie": "tie",
    "draw": "tie",
    "egalite": "tie",
    "和": "tie",
}


@dataclass(frozen=True)
class Reading:
    """How to read a file's shoes when it says nothing of them: one shoe, or the shoes of a named column."""

    one_shoe: bool = False
    shoe_column: str | None = None
    #: Which signs of a new shoe to read when there is no shoe column (``restart``, ``cards_left``,
    #: ``blank_line``); ``None``: all of them.
    signals: tuple[str, ...] | None = None


def normal_name(name: str) -> str:
    """A column name as it is matched: lower case, every run of other characters one ``_``.

    >>> normal_name(" Shoe Number"), normal_name("Player-Card #1"), normal_name("pcard1")
    ('shoe_number', 'player_card_1', 'pcard1')
    """
    return re.sub(r"[^0-9a-z\u4e00-\u9fff]+", "_", name.strip().lower()).strip("_")


def winner_names(column: str) -> pl.Expr:
    """The winner as ``player``, ``banker`` or ``tie`` from letters, words or ``player win``; null if none of them."""
    text = pl.col(column).cast(pl.String).str.strip_chars().str.to_lowercase()
    text = text.str.replace_all(r"\b(wins?|won|winner|hand)\b", "").str.replace_all(r"[\s!._-]+", "")
    return text.replace_strict(_WINNER_WORDS, default=None, return_dtype=pl.String)


def _find(names: dict[str, str], pattern: re.Pattern[str]) -> str | None:
    return next((orig for norm, orig in names.items() if pattern.match(norm)), None)


def _positions(names: dict[str, str]) -> dict[str, list[str]] | None:
    """The per-position card columns of each hand, in position order (positions 1 and 2 at least)."""
    out: dict[str, list[str]] = {}
    for side, pattern in _POSITION.items():
        found: dict[int, str] = {}
        for norm, orig in names.items():
            m = pattern.match(norm)
            if m is not None:
                found.setdefault(int(m.group(len(m.groups()) - 1)), orig)
        if 1 not in found or 2 not in found:
            return None
        out[side] = [found[k] for k in sorted(found)]
    return out


def _hand_cells(names: dict[str, str], taken: set[str]) -> dict[str, str] | None:
    """The columns holding a whole hand a cell (``player_cards``, ``banker_hand``, ...)."""
    out = {}
    for side, pattern in _HAND_CELL.items():
        column = next((o for n, o in names.items() if o not in taken and pattern.match(n)), None)
        if column is None:
            return None
        out[side] = column
    return out


def _card_text(column: str) -> pl.Expr:
    """One card a cell: trimmed, a whole float without its ``.0``, null for an empty cell or ``x``."""
    text = pl.col(column).cast(pl.String).str.strip_chars().str.replace(r"^(\d+)\.0+$", "${1}")
    return pl.when(text.str.to_lowercase().is_in(NO_CARD)).then(None).otherwise(text)


def _hand_list(column: str) -> pl.Expr:
    """A hand a cell, as a list of card texts: a JSON list, or cards separated by spaces, ``,;|/`` or dashes."""
    text = pl.col(column).cast(pl.String).str.replace_all(r"[\[\]\"'(){}]", " ")
    hand = split_hand(text, r"[\s,;|/\-]+")
    return hand.list.eval(pl.element().filter(~pl.element().str.to_lowercase().is_in(NO_CARD)))


def _as_text_hands(frame: pl.DataFrame, columns: Sequence[str]) -> pl.DataFrame:
    """Hand columns that a reader already split into lists, back to one text a cell."""
    lists = [c for c in columns if isinstance(frame.schema[c], pl.List)]
    return frame.with_columns(pl.col(c).list.join(" ") for c in lists) if lists else frame


def recognise(raw: Raw, reading: Reading = Reading(), blank_lines: Sequence[int] = ()) -> tuple[Raw, str]:
    """The rows of a foreign layout as the per-coup layout (or a bead road), and what was recognised.

    Rows already in one of the record's own layouts are returned as they are (with the
    shoe of ``reading`` applied).  Rows whose columns hold no cards and no winner are
    returned as they are too: loading names their columns.

    Parameters
    ----------
    raw
        The rows as read.
    reading
        One shoe, or the column that holds the shoes (else they are found or inferred).
    blank_lines
        The numbers of the blank lines of a text file (they may separate shoes).

    Returns
    -------
    tuple of Raw and str
        The rows, and the ``read as`` line (empty for a file in an own layout).
    """
    frame = raw.frame
    data_columns = [c for c in frame.columns if c != "line"]
    if data_columns:  # blank lines, as some readers keep them
        frame = frame.filter(~pl.all_horizontal(pl.col(c).is_null() for c in data_columns))
    names = {normal_name(c): c for c in data_columns}
    own = next((cols for cols in _OWN if all(c in frame.columns for c in cols)), None)
    shoe_given = reading.shoe_column
    if shoe_given is not None:
        if shoe_given not in frame.columns and normal_name(shoe_given) not in names:
            found = ", ".join(c for c in frame.columns if c != "line")
            raise UnreadableError("missing_column", f"no column {shoe_given!r} for the shoes; the columns: {found}", 1)
        shoe_given = shoe_given if shoe_given in frame.columns else names[normal_name(shoe_given)]
    if own is not None:  # an own layout: only its shoes may be read otherwise
        if not reading.one_shoe and shoe_given in (None, "shoe"):
            return raw, ""
        ids, said_shoes = _shoes(frame, names, reading, shoe_given, None, blank_lines)
        return raw.with_frame(frame.with_columns(pl.Series("shoe", ids, dtype=pl.String))), said_shoes
    if frame.height < raw.frame.height and not frame.height:
        return raw, ""
    said: list[str] = []
    positions = _positions(names)
    taken = {c for cols in (positions or {}).values() for c in cols}
    cells = None if positions else _hand_cells(names, taken)
    winner = _find(names, _WINNER) if "winner" not in frame.columns else "winner"
    coup = "coup" if "coup" in frame.columns else _find(names, _COUP)
    if positions is None and cells is None and winner is None:
        return raw, ""
    out = frame.select("line")
    if positions is not None:
        out = frame.select(
            "line",
            *(
                pl.concat_list([_card_text(c) for c in cols]).list.drop_nulls().alias(side)
                for side, cols in positions.items()
            ),
        )
        said.append("per-position card columns " + ", ".join(",".join(cols) for cols in positions.values()))
    elif cells is not None:
        hands = _as_text_hands(frame, list(cells.values()))
        out = out.with_columns(hands.select(_hand_list(c).alias(side) for side, c in cells.items()))
        said.append(f"hands in {cells['player']!r}, {cells['banker']!r}")
    shoe_ids, shoe_said = _shoes(frame, names, reading, shoe_given, coup, blank_lines)
    said.append(shoe_said)
    out = out.with_columns(pl.Series("shoe", shoe_ids, dtype=pl.String))
    problems: list[LineProblem] = []
    out = out.with_columns(_coups(frame, out["shoe"], coup, shoe_said).alias("coup"))
    if coup is not None and not shoe_said.startswith("shoes inferred"):
        said.append(f"coups from {coup!r}")
    if winner is not None:
        out = out.with_columns(frame[winner].alias("_winner_text"))
        out = out.with_columns(pl.coalesce(winner_names("_winner_text"), pl.col("_winner_text")).alias("winner"))
        out = out.drop("_winner_text")
        said.append(f"winners from {winner!r}")
    if positions is None and cells is None:
        road, problems = _road(out, numbered=coup is not None and not _renumbered(coup, shoe_said))
        said.insert(0, "results only (a bead road per shoe)")
        result = raw.with_frame(road)
    else:
        result = raw.with_frame(out.select("shoe", "coup", "player", "banker", *(["winner"] if winner else []), "line"))
    shoe_col = None if reading.one_shoe else shoe_given or ("shoe" if "shoe" in frame.columns else _find(names, _SHOE))
    used = _used(positions, cells, winner, coup, shoe_col) | {_find(names, _LEFT), _find(names, _BURN)}
    ignored = [c for c in frame.columns if c != "line" and c not in used]
    if ignored:
        shown = ", ".join(repr(c) for c in ignored[:3]) + (
            f" and {len(ignored) - 3:,} more" if len(ignored) > 3 else ""
        )
        said.append(f"not read: {shown}")
    result.problems.extend(problems)
    return result, "; ".join(s for s in said if s)


def _used(positions, cells, winner, coup, shoe) -> set[str]:
    used = {c for cols in (positions or {}).values() for c in cols} | set((cells or {}).values())
    named = {winner, coup, shoe}
    return used | {c for c in named if c is not None}


def _renumbered(coup: str | None, shoe_said: str) -> bool:
    """Whether the coups are numbered 1, 2, ... in each shoe rather than read from the file's column ``coup``."""
    return coup is None or (shoe_said.startswith("shoes inferred") and "restart" not in shoe_said)


def _coups(frame: pl.DataFrame, shoes: pl.Series, coup: str | None, shoe_said: str) -> pl.Series:
    """The coup numbers: the file's (when its shoes are told by a column or by them), else 1, 2, ... in each shoe."""
    if coup is not None and not _renumbered(coup, shoe_said):
        return frame[coup].cast(pl.String).str.strip_chars().str.replace(r"^(\d+)\.0+$", "${1}")
    index = pl.DataFrame({"shoe": shoes}).select(pl.int_range(1, pl.len() + 1).over("shoe").cast(pl.String))
    return index.to_series().alias("coup")


def _shoes(
    frame: pl.DataFrame,
    names: dict[str, str],
    reading: Reading,
    given: str | None,
    coup: str | None,
    blank_lines: Sequence[int],
) -> tuple[list[str] | pl.Series, str]:
    """Each row's shoe id and how it was told."""
    if reading.one_shoe:
        return ["1"] * frame.height, "one shoe (--one-shoe)"
    column = given or ("shoe" if "shoe" in frame.columns else _find(names, _SHOE))
    if column is not None:
        ids = frame[column].cast(pl.String).str.strip_chars().str.replace(r"^(\d+)\.0+$", "${1}")
        return ids, f"shoes from {column!r}"
    left = _find(names, _LEFT)
    burn = _find(names, _BURN)
    allowed = reading.signals
    if allowed is not None:
        coup = coup if "restart" in allowed else None
        left = left if "cards_left" in allowed else None
        burn = burn if "burn" in allowed else None
        blank_lines = blank_lines if "blank_line" in allowed else ()
    return infer_shoes(frame, coup, left, blank_lines, burn)


def infer_shoes(
    frame: pl.DataFrame,
    coup: str | None,
    left: str | None,
    blank_lines: Sequence[int] = (),
    burn: str | None = None,
) -> tuple[list[str], str]:
    """Shoe ids ``1, 2, ...`` for rows with no shoe column, and how they were told.

    A new shoe begins where the hand numbers restart (a number no larger than the one
    before), where the cards left jump up (the shoe was refilled), at a row whose ``burn``
    column is filled (the burn is recorded on a shoe's first hand only), or after a blank line.

    >>> rows = pl.DataFrame({"hand": ["1", "2", "3", "1", "2"], "line": [2, 3, 4, 5, 6]})
    >>> infer_shoes(rows, "hand", None)
    (['1', '1', '1', '2', '2'], 'shoes inferred: a new one where "hand" restarts (2 shoes)')
    """
    n = frame.height
    starts = np.zeros(n, dtype=bool)
    why: list[str] = []
    for column, words in ((coup, "restarts"), (left, "jumps up")):
        if column is None:
            continue
        values = frame[column].cast(pl.String).str.strip_chars().cast(pl.Float64, strict=False).to_numpy()
        prev = np.r_[np.nan, values[:-1]]
        jump = values <= prev if words == "restarts" else values > prev
        jump &= ~np.isnan(values) & ~np.isnan(prev)
        if jump.any():
            starts |= jump
            why.append(f'"{column}" {words}')
    if burn is not None and n:
        told = frame[burn].cast(pl.String).str.strip_chars().fill_null("")
        burned = (told != "").to_numpy() & ~told.str.to_lowercase().is_in(list(NO_CARD)).to_numpy()
        burned[0] = False  # the first row begins the first shoe anyway
        if burned.any():
            starts |= burned
            why.append(f'"{burn}" records a burn')
    if len(blank_lines) and n:
        lines = frame["line"].to_numpy()
        after = np.searchsorted(np.sort(np.asarray(blank_lines)), lines)
        gap = np.r_[False, after[1:] > after[:-1]]
        if gap.any():
            starts |= gap
            why.append("a blank line separates the rows")
    shoe = np.cumsum(starts) + 1
    ids = shoe.astype(str).tolist()
    if not why:
        return ids, "one shoe (no shoe column, and nothing in the rows starts a new one)"
    return ids, f"shoes inferred: a new one where {' or '.join(why)} ({int(shoe[-1]):,} shoes)"


def _road(rows: pl.DataFrame, numbered: bool = False) -> tuple[pl.DataFrame, list[LineProblem]]:
    """Results-only rows (``shoe, coup, winner``) as one bead road a shoe; a row with no known winner is a problem.

    When the file numbers the coups (``numbered``), a number that is not a whole number, a number given
    twice and a number missing from a shoe's run are problems of their shoe: the road is in coup order.
    """
    letter = pl.col("winner").replace_strict({"player": "P", "banker": "B", "tie": "T"}, default=None)
    rows = rows.with_columns(letter.alias("_letter"))
    problems = [
        LineProblem(
            int(line),
            shoe,
            "bad_value",
            f"unknown winner {quoted(text)}: expected P, B, T, player, banker, tie or player win"
            if text
            else "missing winner",
        )
        for line, shoe, text in rows.filter(pl.col("_letter").is_null()).select("line", "shoe", "winner").iter_rows()
    ]
    rows = rows.with_columns(pl.col("coup").cast(pl.Int64, strict=False).alias("_n"))
    if numbered:
        problems.extend(_coup_number_problems(rows))
    road = (
        rows.filter(pl.col("_letter").is_not_null())
        .group_by("shoe", maintain_order=True)
        .agg(pl.col("_letter").sort_by("_n").str.join("").alias("road"), pl.col("line").min())
    )
    return road, problems


def _coup_number_problems(rows: pl.DataFrame) -> list[LineProblem]:
    """The coup numbers of results-only rows that are not whole numbers, given twice, or missing from a shoe's run."""
    problems = [
        LineProblem(int(line), shoe, "bad_value", f"coup {quoted(text)} is not a whole number")
        for line, shoe, text in rows.filter(pl.col("_n").is_null()).select("line", "shoe", "coup").iter_rows()
    ]
    numbered = rows.filter(pl.col("_n").is_not_null()).sort(["shoe", "_n", "line"], maintain_order=True)
    twice = numbered.filter((pl.col("_n") == pl.col("_n").shift(1)) & (pl.col("shoe") == pl.col("shoe").shift(1)))
    problems += [
        LineProblem(int(line), shoe, "duplicate_coup", f"duplicate coup {n}: each coup appears once in a shoe")
        for line, shoe, n in twice.select("line", "shoe", "_n").iter_rows()
    ]
    runs = numbered.group_by("shoe", maintain_order=True).agg(pl.col("_n").unique().sort(), pl.col("line").max())
    for shoe, numbers, last_line in runs.iter_rows():
        start = 0 if numbers[0] == 0 else 1
        expected = len(numbers) + start
        if numbers[0] != start or numbers[-1] != expected - 1:
            present = set(numbers)
            upto = min(numbers[-1], start + MAX_LISTED_GAPS + len(numbers))  # enough to list the first gaps
            gaps = [n for n in range(start, upto) if n not in present]
            shown = ", ".join(map(str, gaps[:MAX_LISTED_GAPS])) + (" ..." if len(gaps) > MAX_LISTED_GAPS else "")
            message = f"missing coup(s) {shown}: the coups of a shoe count from {start} without a gap"
            problems.append(LineProblem(int(last_line), shoe, "missing_coup", message))
    return problems
