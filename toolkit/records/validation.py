"""Checking shoe records against the rules, and the report of what was wrong.

Every problem found in a record is a :class:`Problem`: the file, the line (the
row number for Parquet), the shoe and the coup it concerns, a short ``code`` and
a message that says what was expected.  Loading is lenient by default: valid
shoes load, invalid ones are set aside in a :class:`ValidationReport` with their
raw rows; with ``strict=True`` loading stops at the first problem (in file
order) by raising :class:`RecordError`, which carries it.

Problem codes
-------------
``unreadable``, ``not_text``, ``empty_file``, ``bad_header``, ``missing_column``, ``bad_column``
    The file as a whole cannot be read (*fatal*: no shoe of it loads).  ``bad_header``
    is fatal only in the file's first header; in a later header section or a shoe's own
    keys it is a problem of the shoes it concerns.  ``bad_column``: a list or struct in a
    column that holds one value a row (``shoe``, ``position``, ``card``, ...).
``bad_line``
    A line that cannot be read (invalid JSON, not an object, a key given twice, too
    many CSV fields, an unterminated quote, a second row of other column names): that
    line is skipped; its shoe (named in the line, or the shoe whose rows surround it) is
    set aside and every other shoe loads.
``encoding``
    The file is not UTF-8 (nor UTF-16/32 with a byte-order mark, nor UTF-16 without one):
    it was read in the encoding charset-normalizer detects, which the message names.  No
    shoe is set aside for it.
``bad_value``, ``unknown_card``, ``too_many_cards``, ``duplicate_position``,
``missing_position``, ``duplicate_coup``, ``missing_coup``, ``bad_hand``
    A row or a shoe does not make sense as written.
``tableau``, ``truncated``, ``burn``
    The cards do not follow the drawing rules (:class:`toolkit.coup.rules.Tableau`)
    or the burn rule of the shoe header; ``truncated``: the record ends in the
    middle of a coup.
``winner_mismatch``
    A per-coup record whose winner disagrees with its cards.
``bad_bet``, ``bad_road``
    A bet that names no known bet, coup or amount (or a coup after the shoe's last); a
    bead road symbol that is not ``B``, ``P``, ``T`` or a pair mark.  A bad bet is a
    problem of its row only: that bet is left out, its shoe loads with its other bets.
``duplicate_shoe``, ``too_many_coups``
    A bead road given to one shoe in two separate blocks of rows; a road with more
    coups than its shoe can hold (:func:`toolkit.records._road.max_coups`).

Messages quote the file's content with every character that does not print
(terminal escape sequences, bidirectional controls) escaped (:func:`escape_controls`).

The coups of a card-level shoe are rebuilt by a numba kernel
(:func:`toolkit.records._rebuild.rebuild`): it deals the recorded cards by the tableau
exactly as :func:`toolkit.dealing.dealer.deal_block` deals a shuffled shoe, and stops
at the first card that does not fit; :func:`kernel_message` says why.

>>> p = Problem("shoes.csv", 12, "7", 3, "tableau", "Player stands on 7; found a third card 5h for Player")
>>> str(p)
'shoes.csv:12: shoe 7, coup 3: Player stands on 7; found a third card 5h for Player'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from toolkit._show import html_table, text_table
from toolkit.coup.cards import RANK_VALUES, RANKS, hand_total, parse_card
from toolkit.coup.options import Burn
from toolkit.coup.step import burn_count
from toolkit.records._raw import cut
from toolkit.records._rebuild import (
    AFTER_NATURAL,
    AFTER_UNDEALT,
    BURN_COUNT,
    BURN_LATE,
    COUP_SPLIT,
    EXTRA_B3,
    EXTRA_P3,
    MISSING_B3,
    MISSING_P3,
    TRUNCATED,
)
from toolkit.records._spelling import read_cards

__all__ = [
    "MAX_PROBLEMS",
    "WINNER_NAMES",
    "Checker",
    "Problem",
    "RecordError",
    "ValidationReport",
    "as_int",
    "canonical_card",
    "check_sequence",
    "check_winners",
    "escape_controls",
    "first_problem",
    "kernel_message",
    "parse_cards",
    "parse_road",
]

#: Winner names by letter or word, as records write them.
WINNER_NAMES = {"b": "banker", "p": "player", "t": "tie", "banker": "banker", "player": "player", "tie": "tie"}
_SUITS = {"s": "s", "h": "h", "d": "d", "c": "c", "♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_ROAD_TOKEN = re.compile(r"([BPT])([pb]*)|(\s+)|(.)")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a record.

    Attributes
    ----------
    file
        The file it was read from (``"<memory>"`` for frames).
    line
        Line of the file (1-based; for Parquet the row number, from 1), or ``None``.
    shoe
        Shoe id as written in the file, or ``None`` for a problem of the whole file.
    coup
        Coup number (from 1), or ``None``.
    code
        Kind of problem (see the module notes).
    message
        What was found and what was expected.
    fatal
        ``True`` when the file as a whole cannot be read.
    kind
        What went wrong, in the words of every coup with the same fault (``"Banker stood
        on 5 after Player stood"``), for :meth:`ValidationReport.summary`; ``None`` when the
        code says it all.
    """

    file: str
    line: int | None
    shoe: str | None
    coup: int | None
    code: str
    message: str
    fatal: bool = False
    kind: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", escape_controls(self.message))

    def __str__(self) -> str:
        where = f"{escape_controls(self.file)}:{self.line}" if self.line is not None else escape_controls(self.file)
        parts = [
            p
            for p in (
                f"shoe {escape_controls(self.shoe)}" if self.shoe is not None else "",
                f"coup {self.coup}" if self.coup is not None else "",
            )
            if p
        ]
        return f"{where}: {', '.join(parts) + ': ' if parts else ''}{self.message}"

    def as_dict(self) -> dict[str, object]:
        """The problem as a JSON-ready mapping (``file, line, shoe, coup, code, message``)."""
        return {
            "file": self.file,
            "line": self.line,
            "shoe": self.shoe,
            "coup": self.coup,
            "code": self.code,
            "message": self.message,
        }


def escape_controls(text: str) -> str:
    """``text`` with every character that does not print (controls, bidirectional formatting) as an escape.

    Problem messages quote file content; a card code holding a terminal escape sequence
    must not reach a terminal raw.

    >>> print(escape_controls("unknown card '\\x1b[31mK'"))
    unknown card '\\x1b[31mK'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class RecordError(ValueError):
    """Raised by strict loading at the first problem; ``.problem`` holds it."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _empty_rejected() -> pl.DataFrame:
    return pl.DataFrame(schema={"file": pl.String, "line": pl.Int64, "shoe": pl.String})


def _no_shoes() -> pl.Series:
    return pl.Series("shoe", [], dtype=pl.String)


@dataclass(frozen=True)
class ValidationReport:
    """What loading a record found: its problems, and the raw rows of the shoes set aside.

    Attributes
    ----------
    problems
        Every :class:`Problem`, in file order.
    rejected
        The raw rows (as read, all columns as text) of every shoe set aside,
        with the ``file`` and ``line`` they came from.
    n_shoes
        Shoes found.
    n_valid
        Shoes that loaded.
    unlisted, unlisted_shoes
        The problems past the first :data:`MAX_PROBLEMS` of a file, counted by code, and the shoes they set aside
        (a column of text, not one Python object a problem: a file of millions of bad lines stays compact).
    """

    problems: tuple[Problem, ...] = ()
    rejected: pl.DataFrame = field(default_factory=_empty_rejected)
    n_shoes: int = 0
    n_valid: int = 0
    #: Problems found past :data:`MAX_PROBLEMS` in a file, counted by code but not listed.
    unlisted: tuple[tuple[str, int], ...] = ()
    #: The shoes those unlisted problems set aside (beyond those of the listed ones), each once.
    unlisted_shoes: pl.Series = field(default_factory=_no_shoes)

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        title = (
            f"ValidationReport: {self.n_valid:,} of {self.n_shoes:,} shoe(s) loaded, {len(self.problems):,} problem(s)"
        )
        return title, [(f"{p.code} line {p.line}" if p.line is not None else p.code, p.message) for p in self.problems]

    def __repr__(self) -> str:
        """The counts and the first problems (:meth:`frame` lists them all)."""
        return text_table(*self._shown(), max_rows=5)

    def _repr_html_(self) -> str:
        return html_table(*self._shown(), max_rows=10)

    @property
    def ok(self) -> bool:
        """No problem at all."""
        return not self.problems

    @property
    def fatal(self) -> bool:
        """Some file could not be read at all."""
        return any(p.fatal for p in self.problems)

    @property
    def invalid_shoes(self) -> list[str]:
        """Ids of the shoes set aside, in file order (those of unlisted problems after the others)."""
        seen: dict[str, None] = {}
        for p in self.problems:
            if p.shoe is not None:
                seen.setdefault(p.shoe)
        for shoe in self.unlisted_shoes.to_list():
            seen.setdefault(shoe)
        return list(seen)

    @property
    def n_unlisted(self) -> int:
        """How many problems were found but not listed (past :data:`MAX_PROBLEMS` in a file)."""
        return sum(n for _, n in self.unlisted)

    def frame(self) -> pl.DataFrame:
        """The problems as a polars frame (``file, line, shoe, coup, code, message, fatal``)."""
        schema = {
            "file": pl.String,
            "line": pl.Int64,
            "shoe": pl.String,
            "coup": pl.Int64,
            "code": pl.String,
            "message": pl.String,
            "fatal": pl.Boolean,
        }
        return pl.DataFrame([{**p.as_dict(), "fatal": p.fatal} for p in self.problems], schema=schema)

    def summary(self) -> pl.DataFrame:
        """The problems counted by kind: ``code, kind, problems, shoes``, the commonest first.

        >>> ValidationReport().summary().columns
        ['code', 'kind', 'problems', 'shoes']
        """
        rows = [(p.code, p.kind or p.code, p.shoe) for p in self.problems]
        frame = pl.DataFrame(rows, schema={"code": pl.String, "kind": pl.String, "shoe": pl.String}, orient="row")
        return (
            frame.group_by(["code", "kind"], maintain_order=True)
            .agg(pl.len().cast(pl.Int64).alias("problems"), pl.col("shoe").n_unique().cast(pl.Int64).alias("shoes"))
            .sort("problems", descending=True, maintain_order=True)
        )

    def summary_lines(self) -> list[str]:
        """One line per kind of problem: ``tableau: Banker stood on 5 after Player stood: 1,424 coups in 20 shoes``.

        Problems past :data:`MAX_PROBLEMS` in a file are counted in a last line, by code.
        """
        lines = []
        for code, kind, n, shoes in self.summary().iter_rows():
            what = f"{code}: {kind}" if kind != code else code
            lines.append(f"{what}: {n:,} problem(s) in {shoes:,} shoe(s)")
        if self.unlisted:
            counted = ", ".join(f"{code}: {n:,}" for code, n in self.unlisted)
            lines.append(
                f"{self.n_unlisted:,} more problem(s) not listed ({counted}); "
                f"a file lists its first {MAX_PROBLEMS:,}, and the shoes of every one are set aside"
            )
        return lines

    def merge(self, other: ValidationReport) -> ValidationReport:
        """Both reports as one (for several files)."""
        return ValidationReport(
            self.problems + other.problems,
            pl.concat([self.rejected, other.rejected], how="diagonal_relaxed"),
            self.n_shoes + other.n_shoes,
            self.n_valid + other.n_valid,
            _counted(self.unlisted + other.unlisted),
            pl.concat([self.unlisted_shoes, other.unlisted_shoes]),
        )


def _counted(pairs: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """``(code, count)`` pairs with one pair a code (counts added), in the order the codes come."""
    out: dict[str, int] = {}
    for code, n in pairs:
        out[code] = out.get(code, 0) + n
    return tuple(out.items())


def first_problem(problems: list[Problem]) -> Problem:
    """The problem that comes first in the file (fatal ones first, then by line)."""
    return min(problems, key=lambda p: (not p.fatal, p.line if p.line is not None else -1))


# ------------------------------------------------------------------ messages
def _hand(cards: Sequence[str]) -> str:
    return ", ".join(cards)


def kernel_message(
    code: int,
    names: Sequence[str],
    ranks: Sequence[int],
    roles: Sequence[str | None],
    coup_ids: Sequence[int] | None,
    start: int,
    index: int,
    burn: str,
    burn_ace: int,
    burn_cards: int,
) -> tuple[str, str]:
    """``(problem code, message)`` for a shoe the kernel stopped on, from the shoe's cards as written.

    ``start`` is the first card of the coup (or of the burn) and ``index`` the
    card where the problem shows: the card too many, or the last card before a
    missing one (indices into the shoe's lists).
    """

    def found(i: int) -> str:
        if i >= len(names):
            return "the record ends there"
        if coup_ids is not None and coup_ids[i] != coup_ids[start]:
            return "the record's coup ends there"
        role = roles[i] if roles[i] in ("player", "banker") else ""
        return f"found {names[i]}" + (f" for {role.capitalize()}" if role else "") + " instead"

    card = names[index]
    role = roles[index] if roles[index] in ("player", "banker") else ""
    extra = f"{card}" + (f" for {role.capitalize()}" if role else "")
    if code == BURN_COUNT:
        burns = _hand(names[start : index + 1])
        if burn == Burn.STANDARD:
            n = burn_count(ranks[start], burn_ace)
            rule = f"the exposed burn card {names[start]} means {n} card(s) burned face down: list none or all {n}"
        elif burn == Burn.FIXED:
            rule = f"a fixed burn puts {burn_cards} card(s) face down: list none or all of them"
        else:
            rule = "the header says no cards are burned"
        return "burn", f"burn cards {burns} do not follow the burn rule: {rule}"
    if code == BURN_LATE:
        return "burn", f"burn card {card} after the coups began; burn cards come before the first coup"
    if code == AFTER_UNDEALT:
        return "bad_value", f"card {extra} is dealt after cards marked undealt; undealt cards come last"
    have = list(names[start : index + 1])
    if len(have) < 4:
        if code == TRUNCATED:
            return "truncated", (
                f"the record ends in the middle of a coup: {len(have)} card(s) ({_hand(have)}) where a coup needs "
                "at least four (Player, Banker, Player, Banker)"
            )
        k = len(have)
        want = "Player" if k % 2 == 1 else "Banker"
        if code == COUP_SPLIT:
            return "tableau", (
                f"the record's coup holds only {k - 1} card(s) before {card}; the first four cards of a coup go "
                "Player, Banker, Player, Banker"
            )
        return "tableau", (
            f"card {k} of the coup ({extra}) should go to {want}: the first four cards of a coup go "
            "Player, Banker, Player, Banker"
        )
    pt, bt = hand_total([ranks[start], ranks[start + 2]]), hand_total([ranks[start + 1], ranks[start + 3]])
    situation = (
        f"Player has {pt} ({names[start]}, {names[start + 2]}), Banker {bt} ({names[start + 1]}, {names[start + 3]})"
    )
    third = ranks[start + 4] if index >= start + 4 and (roles[start + 4] in ("player", None, "")) else None
    after_p3 = f"Player's third card is a {RANK_VALUES[third]}" if third is not None else "Player stood"
    if code == TRUNCATED:
        what = "Player's third card" if third is None and len(have) == 4 else "Banker's third card"
        return "truncated", f"the record ends in the middle of a coup: {situation}, and the tableau deals {what}"
    if code == MISSING_P3:
        return "tableau", f"missing Player's third card: {situation}; Player draws on {pt}; {found(index + 1)}"
    if code == MISSING_B3:
        return "tableau", (
            f"missing Banker's third card: {situation}; {after_p3}, so Banker draws on {bt}; {found(index + 1)}"
        )
    if code == AFTER_NATURAL:
        naturals = [f"{side}'s {t}" for side, t in (("Player", pt), ("Banker", bt)) if t >= 8]
        return "tableau", (
            f"card dealt after a natural: {situation}; {' and '.join(naturals)} "
            f"{'is a natural' if len(naturals) == 1 else 'are naturals'}, so the coup ends after four cards; "
            f"found {extra}"
        )
    if code == EXTRA_P3:
        return "tableau", f"third card where the tableau forbids one: {situation}; Player stands on {pt}; found {extra}"
    if code == EXTRA_B3:
        return "tableau", (
            f"third card where the tableau forbids one: {situation}; {after_p3}, so Banker stands on {bt}; "
            f"found {extra}"
        )
    return "tableau", (
        f"card {extra} does not fit the coup: {situation}; the tableau deals third cards only where it says so"
    )


# ------------------------------------------------------------------ row checks
#: The most problems a file's report lists: past it they are counted by code (``ValidationReport.unlisted``) and
#: their shoes set aside, so that a file of millions of bad lines is read in bounded memory and time.
MAX_PROBLEMS = 10_000
#: Ids of single problems past the limit gathered into a column at a time (bounded Python objects).
_PENDING_BLOCK = 4096


@dataclass
class Checker:
    """Collects the problems of one file while its rows are checked."""

    source: str
    problems: list[Problem] = field(default_factory=list)
    #: Indexes in ``problems`` of the problems of one row only (a bad bet): their shoes still load.
    row_problems: set[int] = field(default_factory=set)
    #: The rows left out for a problem of their own (bad bets, as read): they go to the report's ``rejected``.
    left_out: list[pl.DataFrame] = field(default_factory=list)
    #: The most problems listed (:data:`MAX_PROBLEMS`); past it they are counted by code, their shoes set aside.
    limit: int = field(default_factory=lambda: MAX_PROBLEMS)
    #: Problems past ``limit``, counted by code.
    unlisted: dict[str, int] = field(default_factory=dict)
    #: Shoes set aside by the problems past ``limit``: columns of ids, each shoe once when :attr:`unlisted_shoes`
    #: gathers them; nothing a problem is kept as a Python object (a few bytes of text each).
    _unlisted_ids: list[pl.Series] = field(default_factory=list)
    #: Ids of single problems past ``limit``, gathered into ``_unlisted_ids`` a block at a time.
    _pending: list[str] = field(default_factory=list)

    def add(
        self,
        line: Any,
        shoe: Any,
        coup: Any,
        code: str,
        message: str,
        fatal: bool = False,
        kind: str | None = None,
        row_only: bool = False,
    ) -> None:
        if len(self.problems) >= self.limit:  # counted, not listed: memory and time stay bounded
            self.unlisted[code] = self.unlisted.get(code, 0) + 1
            if shoe is not None and not row_only:
                self._pending.append(str(shoe))
                if len(self._pending) >= _PENDING_BLOCK:
                    self._gather()
            return
        if row_only:
            self.row_problems.add(len(self.problems))
        self.problems.append(
            Problem(
                self.source,
                None if line is None else int(line),
                None if shoe is None else str(shoe),
                None if coup is None else int(coup),
                code,
                message,
                fatal,
                kind,
            )
        )

    def add_rows(
        self, frame: pl.DataFrame, code: str, message: str, coup: str | None = None, row_only: bool = False
    ) -> None:
        """One problem per row of ``frame`` (columns ``line``, ``shoe`` and ``coup`` if named).

        ``message`` is a template filled from each row's columns (``"unknown card '{card}'"``);
        ``row_only``: the problem concerns that row alone, and does not set its shoe aside.
        """
        room = max(self.limit - len(self.problems), 0)
        for row in frame.head(room).iter_rows(named=True):
            text = message.format(**{k: cut(v) for k, v in row.items()})  # a cell is quoted to a bounded prefix
            self.add(row["line"], cut(row["shoe"]), row[coup] if coup else None, code, text, row_only=row_only)
        if frame.height > room:  # the rest counted, not listed
            self.unlisted[code] = self.unlisted.get(code, 0) + frame.height - room
            if not row_only:
                self._unlisted_ids.append(frame["shoe"].slice(room).drop_nulls().cast(pl.String).rename("shoe"))
                self._gather()

    def _gather(self) -> None:
        """The pending ids and the columns of ids past the limit as one column, each shoe once (in file order)."""
        parts = [*self._unlisted_ids, pl.Series("shoe", self._pending, dtype=pl.String)]
        self._unlisted_ids = [pl.concat(parts).unique(maintain_order=True)]
        self._pending = []

    @property
    def unlisted_shoes(self) -> pl.Series:
        """The shoes set aside by the problems past ``limit``, each once, in the order they were found."""
        if self._pending or len(self._unlisted_ids) != 1:
            self._gather()
        return self._unlisted_ids[0]

    def rejected_frame(self) -> pl.DataFrame:
        """The rows left out for their own problems, as text, with ``file`` and ``line`` first (may be empty)."""
        if not self.left_out:
            return pl.DataFrame(schema={"file": pl.String, "line": pl.Int64})
        rows = pl.concat(self.left_out, how="diagonal_relaxed")
        rows = rows.with_columns(pl.lit(self.source).alias("file"), pl.all().exclude("line").cast(pl.String))
        return rows.select("file", "line", *[c for c in rows.columns if c not in ("file", "line")])

    @property
    def bad_shoes(self) -> pl.Series:
        """Shoes with a problem so far that sets them aside (a bad bet does not), each once, as a column of text."""
        listed = [p.shoe for i, p in enumerate(self.problems) if p.shoe is not None and i not in self.row_problems]
        both = pl.concat([pl.Series("shoe", listed, dtype=pl.String), self.unlisted_shoes])
        return both.unique(maintain_order=True)


def canonical_card(card: object) -> str:
    """``'10s' -> 'Ts'``: the rank letter and the lower-case suit letter, if any.

    >>> canonical_card(" 10S"), canonical_card("q♥"), canonical_card("7")
    ('Ts', 'Qh', '7')
    """
    text = str(card)
    index = parse_card(text)
    stripped = text.strip()
    rest = stripped[2:] if stripped.startswith("10") else stripped[1:]
    return RANKS[index] + _SUITS.get(rest.strip().lower(), "")


def parse_cards(frame: pl.DataFrame, spelling: str = "ranks") -> pl.DataFrame:
    """Add ``rank`` (Int8) and ``canon`` (canonical text) for the ``card`` column; both null for an unknown code.

    Each distinct text is read once, in the record's ``spelling``
    (:mod:`toolkit.records._spelling`): a value stands as the rank
    :data:`toolkit.coup.cards.VALUE_TO_RANK` gives it, and its text is the digit.
    """
    texts = frame["card"].drop_nulls().unique().to_list()
    ranks, canon = read_cards(texts, spelling)
    card = pl.col("card")
    return frame.with_columns(
        card.replace_strict(texts, ranks, default=None, return_dtype=pl.Int8).alias("rank"),
        card.replace_strict(texts, canon, default=None, return_dtype=pl.String).alias("canon"),
    )


def check_sequence(frame: pl.DataFrame, column: str, checker: Checker) -> None:
    """Duplicate and missing numbers in ``column`` (``position`` or ``coup``), counted from 1 (or 0) in each shoe.

    ``frame`` (``shoe, line`` and ``column``) is sorted by shoe, then ``column``,
    each shoe's rows together; of two equal numbers the later row is reported.
    """
    number = pl.col(column)
    rows = frame.select("shoe", "line", column).filter(number.is_not_null())
    rows = rows.with_columns(
        number.alias("_n"),
        number.shift(1).alias("_prev"),
        (pl.col("shoe") == pl.col("shoe").shift(1)).fill_null(False).alias("_same"),
    ).with_columns((pl.col("_prev") + 1).alias("_from"), (number - 1).alias("_to"))
    same, prev = pl.col("_same"), pl.col("_prev")
    checker.add_rows(
        rows.filter(same & (number == prev)),
        f"duplicate_{column}",
        f"duplicate {column} {{_n}}: each {column} appears once in a shoe",
    )
    checker.add_rows(
        _missing(rows.filter(~same & (number > 1)).with_columns(_from=pl.lit(1)), column),
        f"missing_{column}",
        f"missing {{_missing}}: the {column}s of a shoe count from 1",
    )
    checker.add_rows(
        _missing(rows.filter(same & (number - prev > 1)), column),
        f"missing_{column}",
        f"missing {{_missing}}: the {column}s of a shoe are consecutive",
    )


def _missing(rows: pl.DataFrame, column: str) -> pl.DataFrame:
    """The numbers missing from ``_from`` to ``_to`` in words: ``position 30``, ``positions 30 to 32``."""
    if rows.is_empty():  # polars panics on a when/then of formatted strings over no rows
        return rows.with_columns(_missing=pl.lit("", dtype=pl.String))
    first, last = pl.col("_from").cast(pl.String), pl.col("_to").cast(pl.String)
    one = pl.concat_str([pl.lit(f"{column} "), first])
    span = pl.concat_str([pl.lit(f"{column}s "), first, pl.lit(" to "), last])
    return rows.with_columns(_missing=pl.when(pl.col("_from") == pl.col("_to")).then(one).otherwise(span))


def as_int(frame: pl.DataFrame, column: str, checker: Checker, allow_missing: bool = False) -> pl.DataFrame:
    """``column`` as integers; a value that is not one is a problem (and becomes null).

    Whole numbers written as decimals (``2.0``, as pandas writes integers beside a
    missing value) are integers; ``2.5`` is not.  With ``allow_missing``, an empty value is no problem (it stays null).
    """
    text = pl.col(column).cast(pl.String).str.strip_chars()
    number = text.cast(pl.Float64, strict=False)
    whole = number.is_finite() & (number == number.floor()) & (number.abs() < 2.0**53)
    integer = pl.coalesce(text.cast(pl.Int64, strict=False), pl.when(whole).then(number.cast(pl.Int64)))
    out = frame.with_columns(integer.alias("_int"), text.fill_null("").alias("_text"))
    bad = out.filter(pl.col("_int").is_null())
    empty = pl.col("_text") == ""
    if not allow_missing:
        checker.add_rows(bad.filter(empty), "bad_value", f"missing {column}")
    checker.add_rows(bad.filter(~empty), "bad_value", f"{column} '{{_text}}' is not an integer")
    return out.with_columns(pl.col("_int").alias(column)).drop("_int", "_text")


def check_winners(recorded: pl.DataFrame, coups: pl.DataFrame, checker: Checker) -> None:
    """Recorded winners (``shoe, coup, line, winner`` as written) against the winners of the cards (``coups``)."""
    given = recorded.filter(pl.col("winner").is_not_null()).with_columns(
        pl.col("winner").cast(pl.String).str.strip_chars().str.to_lowercase().alias("_given")
    )
    given = given.with_columns(pl.col("_given").replace_strict(WINNER_NAMES, default=None).alias("_norm"))
    checker.add_rows(
        given.filter(pl.col("_norm").is_null()),
        "bad_value",
        "unknown winner '{winner}': expected B, P, T or banker, player, tie",
        "coup",
    )
    both = given.filter(pl.col("_norm").is_not_null()).join(
        coups.select(
            "shoe", pl.col("coup").cast(pl.Int64), pl.col("winner").alias("_cards"), "player_total", "banker_total"
        ),
        on=["shoe", "coup"],
        how="inner",
    )
    wrong = both.filter(pl.col("_norm") != pl.col("_cards")).with_columns(
        pl.when(pl.col("_cards") == "tie").then(pl.lit("a tie")).otherwise(pl.col("_cards") + " wins").alias("_says")
    )
    checker.add_rows(
        wrong,
        "winner_mismatch",
        "the record says {_norm} won, but the cards give Player {player_total} and Banker {banker_total}: {_says}",
        "coup",
    )


def parse_road(text: str) -> tuple[list[tuple[str, bool, bool]], list[str]]:
    """Coups ``(winner, player_pair, banker_pair)`` of a bead road string, and what could not be read.

    >>> parse_road("BpP Tb")[0]
    [('banker', True, False), ('player', False, False), ('tie', False, True)]
    """
    coups: list[tuple[str, bool, bool]] = []
    errors: list[str] = []
    for m in _ROAD_TOKEN.finditer(text):
        if m.group(1):
            marks = m.group(2)
            if len(set(marks)) != len(marks):
                errors.append(f"coup {len(coups) + 1}: pair mark repeated in {m.group(0)!r}")
            coups.append((WINNER_NAMES[m.group(1).lower()], "p" in marks, "b" in marks))
        elif m.group(4):
            ch = m.group(4)
            hint = " (pair marks p and b follow a winner letter)" if ch in "pb" else ""
            errors.append(
                f"unknown symbol {ch!r} after coup {len(coups)}{hint}: a bead road is B, P or T per coup, "
                "each optionally followed by pair marks p and b"
            )
    return coups, errors
