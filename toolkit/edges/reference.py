"""Published figures as data, and the toolkit's reproduction of them.

The figures the toolkit must reproduce live in ``data/reference/*.csv`` (see the
README there): one row per figure, with the value exactly as printed
(``printed``, a string), its unit, its role and its source (author, title,
table, convention).  :func:`load_reference` reads one table as a polars frame;
:func:`compare_published` recomputes every figure the exact engine can compute
and says whether it matches *within the precision printed in the source*: half
a unit in the last printed digit, and digit for digit for counts and exact
fractions.

Figures that need more than the engine (count simulations, the end-of-shoe
study) are listed as ``pending`` until a module
supplies them through ``providers``: a mapping from a figure id to a function
of the row that returns the toolkit's value (in the row's unit) or a
:class:`Reproduced`.

Examples
--------
>>> import polars as pl
>>> main = load_reference("main_bets")
>>> main.filter(pl.col("figure") == "combinations_8d_total")["printed"].item()
'4,998,398,275,503,360'
>>> printed_number("−1,132"), printed_tolerance("1.0579")
(Fraction(-1132, 1), Fraction(1, 20000))
>>> eor = compare_published(tables=["eor_8deck"])
>>> eor["matches"].all()
True
"""

from __future__ import annotations

import hashlib
import json
import numbers
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import polars as pl

__all__ = [
    "ENGINE_TABLES",
    "REFERENCE_TABLES",
    "Reproduced",
    "compare_published",
    "load_reference",
    "printed_number",
    "printed_tolerance",
    "reference_dir",
]

#: Column types of each reference table (columns not named here are strings).
REFERENCE_TABLES: dict[str, dict[str, type[pl.DataType]]] = {
    "main_bets": {"decks": pl.Int64, "value": pl.Float64},
    "side_bets": {"decks": pl.Int64, "value": pl.Float64},
    "eor_8deck": {"decks": pl.Int64, "card": pl.Int64, "value": pl.Float64},
    "count_systems": {
        **{f"tag_{r}": pl.Int64 for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")},
        "balanced": pl.Boolean,
        "initial_running_count": pl.Int64,
        "decks": pl.Int64,
        "cut_card": pl.Int64,
    },
    "count_results": {"value": pl.Float64, "decks": pl.Int64, "cut_card": pl.Int64, "shoes_simulated": pl.Int64},
    "jacobson_perfect": {"unseen_cards": pl.Int64, "decks": pl.Int64, "shoes_simulated": pl.Int64},
    "known_card": {"card_position": pl.Int64, "decks": pl.Int64, "value": pl.Float64},
    "edge_sorting": {"decks": pl.Int64, "value": pl.Float64},
    "shuffles": {
        "cards": pl.Int64,
        "shelves": pl.Int64,
        "passes": pl.Int64,
        "value": pl.Float64,
        "simulated": pl.Int64,
    },
    "claims": {},
}

#: Columns every table of figures carries (``count_systems`` holds definitions, not figures).
_FIGURE_COLUMNS = ("figure", "role", "source")

#: Tables whose every row the exact engine computes (``known_card`` through :mod:`toolkit.edges.known_card`,
#: ``edge_sorting`` through :mod:`toolkit.edges.information`, ``shuffles`` through
#: :mod:`toolkit.dealing.shuffles.shelf`).
ENGINE_TABLES = ("main_bets", "side_bets", "eor_8deck", "known_card", "edge_sorting", "shuffles")

#: How many standard errors of a published simulation its figure may be from the toolkit's exact value, beyond
#: half a printed unit (about 0.27 % false alarms per figure if the simulation is unbiased and near normal).
SIMULATION_Z = 3.0

#: What each other table waits for; its rows are reported as pending until a provider computes them.
PENDING = {
    "count_results": "a shoe simulation with the count system (count results)",
    "jacobson_perfect": "the end-of-shoe study (Jacobson's perfect-information setting)",
    "claims": "the end-of-shoe study",
}

#: How to turn a quantity in natural units into the unit a figure was printed in.
_SCALE = {"percent": 100, "probability": 1, "count": 1, "units": 1, "1e-7": 10**7, "fraction": 1}
_EXACT_UNITS = ("count", "fraction")


@dataclass(frozen=True)
class Reproduced:
    """What a provider returns for one figure.

    Attributes
    ----------
    value
        The toolkit's value in the unit of the row (a number, or a short text for statements).
    matches
        Whether it reproduces the published figure; ``None``: decide by the printed precision.
    note
        Appended to the status (e.g. the simulation's standard error).
    """

    value: Any
    matches: bool | None = None
    note: str = ""


Provider = Callable[[dict[str, Any]], "Reproduced | float | int | Fraction | None"]


# ------------------------------------------------------------------ locating
def reference_dir() -> Path:
    """The folder of the reference CSVs.

    ``data/reference`` at the top of a source checkout (the canonical copy, also
    used by editable installs), else ``toolkit/_data/reference`` inside an
    installed wheel.

    Returns
    -------
    pathlib.Path
        The folder.

    Examples
    --------
    >>> (reference_dir() / "main_bets.csv").is_file()
    True
    """
    package = Path(__file__).resolve().parent.parent  # toolkit/
    candidates = (package.parent / "data" / "reference", package / "_data" / "reference")
    for folder in candidates:
        if (folder / "main_bets.csv").is_file():
            return folder
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"the reference tables (main_bets.csv, ...) are in none of: {tried}")


def load_reference(name: str) -> pl.DataFrame:
    """One reference table as a polars frame (``printed`` stays a string, exactly as printed).

    Parameters
    ----------
    name
        One of :data:`REFERENCE_TABLES` (``"main_bets"``, ``"side_bets"``, ``"eor_8deck"``...).

    Returns
    -------
    polars.DataFrame
        The table.

    Examples
    --------
    >>> load_reference("main_bets").columns[:3]
    ['figure', 'decks', 'quantity']
    """
    if name not in REFERENCE_TABLES:
        raise ValueError(f"unknown reference table {name!r}; known tables: {', '.join(REFERENCE_TABLES)}")
    path = reference_dir() / f"{name}.csv"
    frame = pl.read_csv(path, infer_schema=False)
    required = tuple(REFERENCE_TABLES[name]) + (_FIGURE_COLUMNS if name != "count_systems" else ("system",))
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)}")
    for column, dtype in REFERENCE_TABLES[name].items():
        text = pl.col(column).str.strip_chars()
        try:
            if dtype == pl.Boolean:
                cast = text.str.to_lowercase().replace_strict({"true": True, "false": False}, return_dtype=pl.Boolean)
            else:
                cast = text.cast(dtype, strict=True)
            frame = frame.with_columns(cast)
        except pl.exceptions.PolarsError as err:
            raise ValueError(f"{path}: column {column!r} must hold {dtype} values: {err}") from None
    return frame


# ---------------------------------------------------------- printed numbers
_NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")


def _clean(text: str) -> str:
    return text.strip().replace("\u2212", "-").replace(",", "").removesuffix("%").strip()


def printed_number(text: str) -> Fraction:
    """The exact value of a number as printed: signs (``+``, ``-``, ``−``), thousands commas, ``%``, ``a/b``.

    Parameters
    ----------
    text
        A number as printed.

    Returns
    -------
    fractions.Fraction
        Its exact value.

    Examples
    --------
    >>> printed_number("+188"), printed_number("43/415"), printed_number("0.0950")
    (Fraction(188, 1), Fraction(43, 415), Fraction(19, 200))
    """
    if not isinstance(text, str):
        raise TypeError(f"a printed number must be a string, got {type(text).__name__} {text!r}")
    clean = _clean(text)
    if "/" in clean:
        num, _, den = clean.partition("/")
        if _NUMBER_RE.match(num) and den.isdigit() and int(den):
            return Fraction(int(num), int(den))
    elif _NUMBER_RE.match(clean):
        try:
            return Fraction(Decimal(clean))
        except InvalidOperation:  # pragma: no cover - the regex already filters
            pass
    raise ValueError(f"{text!r} is not a printed number (expected digits with optional sign, commas, '%' or 'a/b')")


def printed_tolerance(text: str) -> Fraction:
    """Half a unit in the last printed digit (zero for an exact fraction ``a/b``).

    Parameters
    ----------
    text
        A number as printed.

    Returns
    -------
    fractions.Fraction
        The tolerance.

    Examples
    --------
    >>> printed_tolerance("+188"), printed_tolerance("5.10")
    (Fraction(1, 2), Fraction(1, 200))
    """
    printed_number(text)  # validates
    clean = _clean(text)
    if "/" in clean:
        return Fraction(0)
    decimals = len(clean.partition(".")[2])
    return Fraction(1, 2 * 10**decimals)


def _format(value: Fraction | float, printed: str, unit: str) -> str:
    if unit == "count":
        return f"{int(value):,}"
    if unit == "fraction":
        return str(value)
    decimals = len(_clean(printed).partition(".")[2]) + 2
    sign = "+" if printed.strip().startswith("+") else ""
    return f"{float(value):{sign}.{decimals}f}"


# ------------------------------------------------------------ engine values
class _Engine:
    """The engine quantities the rows need, computed once each."""

    def __init__(self) -> None:
        self._cache: dict[tuple, Any] = {}

    def _memo(self, key: tuple, compute: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def combinations(self, decks: int) -> dict[str, int]:
        from toolkit.exact.engine import combination_counts

        return self._memo(("combinations", decks), lambda: combination_counts(decks))

    def stats(self, bet: str, decks: int):
        from toolkit.bets.paytable import bet_stats, get_bet

        return self._memo(("stats", bet, decks), lambda: bet_stats(get_bet(bet), decks, exact=True))

    def eor(self, decks: int) -> dict[tuple[str, int], float]:
        from toolkit.bets.paytable import get_bet
        from toolkit.edges.eor import effect_of_removal

        def compute() -> dict[tuple[str, int], float]:
            bets = [get_bet(b) for b in ("banker", "player", "tie")]
            table = effect_of_removal(decks, bets=bets)
            return {(r["bet"], int(r["card"])): r["eor"] for r in table.to_dicts()}

        return self._memo(("eor", decks), compute)

    def p_player(self, decks: int, removed: int | None) -> Fraction:
        from toolkit.coup.cards import Composition
        from toolkit.exact.engine import combination_counts

        def compute() -> Fraction:
            shoe = Composition.from_decks(decks)
            counts = combination_counts(shoe if removed is None else shoe.remove_value(removed))
            return Fraction(counts["player"], counts["total"])

        return self._memo(("p_player", decks, removed), compute)

    def value(self, row: dict[str, Any]) -> Fraction | float:
        """The toolkit's value of an engine row, in natural units (before the unit's scale)."""
        quantity, decks = row["quantity"], row["decks"]
        if quantity in ("combinations", "probability"):
            counts = self.combinations(decks)
            count = counts[row["outcome"]]
            return Fraction(count) if quantity == "combinations" else Fraction(count, counts["total"])
        if quantity in ("house_edge", "house_edge_exact"):
            return -self.stats(row["bet"], decks).exact_expected_value
        if quantity == "house_edge_ties_excluded":
            counts = self.combinations(decks)
            p_tie = Fraction(counts["tie"], counts["total"])
            return -self.stats(row["bet"], decks).exact_expected_value / (1 - p_tie)
        if quantity in ("hit_frequency", "win_combinations"):
            payouts = self.stats(row["bet"], decks).payouts
            hit = sum((p for pay, p in payouts.items() if pay > 0), Fraction(0))
            return hit if quantity == "hit_frequency" else hit * self.combinations(decks)["total"]
        if quantity == "std_dev":
            return self.stats(row["bet"], decks).std_dev
        if quantity == "variance":
            return self.stats(row["bet"], decks).std_dev ** 2
        if quantity == "eor":
            return self.eor(decks)[(row["bet"], row["card"])]
        if quantity == "p_player_decrease":
            return self.p_player(decks, None) - self.p_player(decks, row["card"])
        raise ValueError(f"figure {row['figure']!r}: the engine does not compute quantity {quantity!r}")


# ------------------------------------------------------------------ compare
def _judge(row: dict[str, Any], toolkit: Any, matches: bool | None) -> tuple[str | None, bool | None]:
    """Format the toolkit value and decide whether it matches the printed figure."""
    printed, unit = row["printed"], row.get("unit") or ""
    try:
        published = printed_number(printed)
    except (TypeError, ValueError):
        return (None if toolkit is None else str(toolkit)), matches  # a statement: only a provider can judge
    if isinstance(toolkit, bool) or not isinstance(toolkit, (int, float, Fraction)):
        return str(toolkit), matches
    exact = Fraction(toolkit)
    if matches is None:
        if unit in _EXACT_UNITS:
            matches = exact == published
        else:
            matches = abs(exact - published) <= printed_tolerance(printed)
    return _format(exact, printed, unit), bool(matches)


def _status(role: str, matches: bool | None, pending: str | None, note: str) -> str:
    if pending is not None:
        status = f"pending: needs {pending}"
    elif role == "claim" and matches is None:
        status = "claim: no number to check"
    elif role == "erratum":
        status = "erratum: differs, as expected" if matches is False else "erratum: unexpectedly matches"
    elif role == "approximate":
        status = "approximate quote: " + ("within" if matches else "outside") + " the printed precision"
    elif matches is None:
        status = "computed; no verdict"
    else:
        status = "match" if matches else "DIFFERS"
    return f"{status} ({note})" if note else status


@lru_cache(maxsize=8)
def _known_card_gains(decks: int) -> dict[int, float]:
    from toolkit.edges.known_card import known_card_gain

    return dict(known_card_gain(decks).iter_rows())


def _known_card_gain(decks: int, position: int) -> float:
    return _known_card_gains(decks)[position]


def _edge_sorting_value(row: dict[str, Any]) -> Fraction:
    """An ``edge_sorting`` row's quantity (exact), from :mod:`toolkit.edges.information`."""
    from toolkit.edges.information import best_partitions

    bets = tuple(row["bets"].split(","))
    quantity, decks, where = row["quantity"], int(row["decks"]), row["card_position"]
    if quantity == "best_partition_gain":
        best = best_partitions(decks, where, bets=bets, top=1)
        if best["groups"].item() != row["groups"]:
            return Fraction(0)  # a different sort: the figure is not reproduced
        return _edge_sorting_result(decks, row["groups"], where, bets).gain_exact or Fraction(0)
    result = _edge_sorting_result(decks, row["groups"], where, bets)
    if quantity == "gain_per_coup":
        return result.gain_exact or Fraction(0)
    if quantity == "share_no_bet":
        return result.share_no_bet_exact or Fraction(0)
    if quantity == "pattern_probability":
        return sum((result.probability_exact[p] for p in row["pattern"].split("+")), Fraction(0))
    if quantity == "pattern_edge":
        pattern = row["pattern"]
        best = result.patterns.filter(pl.col("pattern") == pattern)["best_bet"].item()
        return result.ev_exact[pattern][best]
    raise ValueError(f"figure {row['figure']!r}: the engine does not compute quantity {quantity!r}")


@lru_cache(maxsize=8)
def _edge_sorting_result(decks: int, groups: str, positions: str, bets: tuple[str, ...]):
    from toolkit.edges.information import information_edge

    return information_edge(decks, groups, positions, bets=bets, exact=True)


@lru_cache(maxsize=32)
def _shelf_game(cards: int, shelves: int) -> tuple[float, float, float]:
    """The exact mean and variance of the shelf guessing game, and the standard error of a sampled variance."""
    import numpy as np

    from toolkit.dealing.shuffles.shelf import shelf_guessing_exact

    game = shelf_guessing_exact(cards, shelves)
    fourth = float(((np.arange(cards + 1) - game.expected) ** 4) @ game.distribution)
    return game.expected, game.variance, float(np.sqrt(max(fourth - game.variance**2, 0.0)))


def _shuffle_figure(row: dict[str, Any]) -> tuple[float, bool | None, str]:
    """A ``shuffles`` row: the toolkit's exact value, and for a published simulation whether it lies within
    :data:`SIMULATION_Z` of that simulation's standard errors (plus half a printed unit) of it."""
    from toolkit.dealing.shuffles import Repeat, Shelf, equivalent_shelves, shelf_total_variation_exact

    cards, quantity = int(row["cards"]), row["quantity"]
    shelves = equivalent_shelves(Repeat(Shelf(int(row["shelves"])), int(row["passes"])))
    if shelves is None:
        raise ValueError(f"figure {row['figure']!r}: too many shelves or passes for the exact results")
    if quantity == "total_variation":
        return float(shelf_total_variation_exact(cards, shelves)), None, "exact"
    if quantity not in ("expected_correct_guesses", "variance_correct_guesses"):
        raise ValueError(f"figure {row['figure']!r}: no shuffle quantity {quantity!r}")
    mean, variance, spread = _shelf_game(cards, shelves)
    value = mean if quantity == "expected_correct_guesses" else variance
    decks = row.get("simulated")
    if not decks:
        return value, None, "exact"
    se = (variance**0.5 if quantity == "expected_correct_guesses" else spread) / int(decks) ** 0.5
    allowed = SIMULATION_Z * se + float(printed_tolerance(row["printed"]))
    ok = abs(value - float(printed_number(row["printed"]))) <= allowed
    note = f"exact; the published simulation of {int(decks):,} decks has standard error {se:.3f}"
    return value, ok, note + f", within {SIMULATION_Z:g} of them and half a printed unit"


#: The engine's value of every row of :data:`ENGINE_TABLES`, stored with the package so that a run does not
#: recompute them (side bets' exact distributions: some 13 CPU seconds); each is keyed by a hash of its row, so a
#: changed or added row is computed afresh, and a test recomputes them all and compares.
_STORED = Path(__file__).with_name("_engine_figures.json")


def _row_hash(name: str, row: dict[str, Any]) -> str:
    """A hash of a reference row's every field (and its table): what the stored value was computed from."""
    text = json.dumps({"table": name, **row}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _engine_figure(name: str, row: dict[str, Any], engine: _Engine) -> tuple[Any, bool | None, str]:
    """The toolkit's value of a row of an engine table (in the row's unit), whether it matches (``None``: judge
    by the printed precision) and a note."""
    if name == "known_card":
        return _known_card_gain(int(row["decks"]), int(row["card_position"])) * _SCALE[row["unit"]], None, ""
    if name == "edge_sorting":
        return _edge_sorting_value(row) * _SCALE[row["unit"]], None, ""
    if name == "shuffles":
        return _shuffle_figure(row)
    unit_scale = _SCALE.get(row["unit"])
    if unit_scale is None:
        raise ValueError(f"{name}.csv, figure {row['figure']!r}: unknown unit {row['unit']!r}")
    return engine.value(row) * unit_scale, None, ""


def _encode(value: Any) -> Any:
    """A value for the JSON file: an exact fraction as ``"p/q"``, a float as itself (JSON keeps it exactly)."""
    return str(Fraction(value)) if isinstance(value, numbers.Rational) else float(value)


def _decode(value: Any) -> Fraction | float:
    if isinstance(value, str):
        return Fraction(value)
    if isinstance(value, float):
        return value
    raise ValueError(f"not a stored figure value: {value!r}")


def _rows(tables: Iterable[str] = ENGINE_TABLES) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(table, row)`` for every row of ``tables``, ``printed`` filled in as :func:`compare_published` reads it."""
    for name in tables:
        for raw in load_reference(name).to_dicts():
            yield name, {**raw, "printed": raw.get("printed") or raw.get("published") or raw.get("claim") or ""}


def _computed_figures() -> dict[str, dict[str, Any]]:
    """Every engine row computed afresh, as the stored file holds them: ``{"table/figure": {row, toolkit, ...}}``."""
    engine = _Engine()
    figures = {}
    for name, row in _rows():
        toolkit, matches, note = _engine_figure(name, row, engine)
        figures[f"{name}/{row['figure']}"] = {
            "row": _row_hash(name, row),
            "toolkit": _encode(toolkit),
            "matches": matches,
            "note": note,
        }
    return figures


def _store_engine_figures() -> Path:
    """Recompute every engine row and write the stored file (after a change to the engine or to a row)."""
    text = json.dumps({"figures": _computed_figures()}, indent=1, sort_keys=True)
    _STORED.write_text(text + "\n", encoding="utf-8")
    return _STORED


@lru_cache(maxsize=1)
def _stored_figures() -> dict[str, tuple[str, Fraction | float, bool | None, str]]:
    """The stored file read: ``{"table/figure": (row hash, value, matches, note)}``; empty if unreadable."""
    try:
        figures = json.loads(_STORED.read_text(encoding="utf-8"))["figures"]
        return {key: (str(f["row"]), _decode(f["toolkit"]), f["matches"], str(f["note"])) for key, f in figures.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _stored_figure(name: str, row: dict[str, Any]) -> tuple[Any, bool | None, str] | None:
    """The stored value of an engine row, or ``None`` when none is stored for the row as it reads now."""
    stored = _stored_figures().get(f"{name}/{row['figure']}")
    if stored is None or stored[0] != _row_hash(name, row):
        return None
    return stored[1], stored[2], stored[3]


def compare_published(
    providers: Mapping[str, Provider] | None = None,
    tables: Iterable[str] | None = None,
    recompute: bool = False,
) -> pl.DataFrame:
    """Every published figure the toolkit can compute beside its value, compared at the printed precision.

    The engine's values of the rows of :data:`ENGINE_TABLES` are stored with the
    package (a test recomputes them all and checks they are what is stored); a row
    changed or added since is computed afresh, and ``recompute=True`` computes every
    one (some 15 CPU seconds).

    Parameters
    ----------
    providers
        ``{figure id: function(row) -> value | Reproduced | None}`` for rows the
        engine does not compute (count results, the Jacobson setting, the known
        card...); a provider may also override an engine row.  ``None`` from a
        provider leaves the row pending.
    tables
        Reference tables to include (default: every table of figures).

    Returns
    -------
    polars.DataFrame
        ``figure, table, source, published, unit, toolkit, matches, status``:
        ``published`` is the figure as printed, ``toolkit`` the toolkit's value
        in the same unit with two more digits (or the exact count / fraction),
        ``matches`` is true when they agree within half a unit of the last
        printed digit (counts and fractions: exactly), null when not computed.
        ``status`` reads ``match``, ``DIFFERS``, ``erratum: ...`` (a known typo,
        expected to differ), ``approximate quote: ...`` or ``pending: needs ...``.

    References
    ----------
    The sources named in each row of the tables in ``data/reference`` (the Wizard of Odds, E. Jacobson, Thorp & Walden,
    ...).

    Examples
    --------
    >>> t = compare_published(tables=["main_bets"])
    >>> t.height > 0
    True
    """
    providers = dict(providers or {})
    names = [t for t in REFERENCE_TABLES if t != "count_systems"] if tables is None else list(tables)
    for name in names:
        if name not in REFERENCE_TABLES or name == "count_systems":
            known = ", ".join(t for t in REFERENCE_TABLES if t != "count_systems")
            raise ValueError(f"unknown table of figures {name!r}; known: {known}")
    engine = _Engine()
    rows = []
    for name, row in _rows(names):
        figure, role, printed = row["figure"], row["role"], row["printed"]
        pending, note, matches, toolkit = None, "", None, None
        if figure in providers:
            result = providers[figure](row)
            if result is None:
                pending = f"a provider for {figure!r} (it returned nothing)"
            elif isinstance(result, Reproduced):
                toolkit, matches, note = result.value, result.matches, result.note
            else:
                toolkit = result
        elif name in ENGINE_TABLES:
            stored = None if recompute else _stored_figure(name, row)
            toolkit, matches, note = stored if stored is not None else _engine_figure(name, row, engine)
        else:
            pending = PENDING[name]
        shown, verdict = (None, None) if pending else _judge(row, toolkit, matches)
        rows.append(
            {
                "figure": figure,
                "table": name,
                "source": row["source"],
                "published": printed,
                "unit": row.get("unit"),
                "toolkit": shown,
                "matches": verdict,
                "status": _status(role, verdict, pending, note),
            }
        )
    schema = {
        "figure": pl.String,
        "table": pl.String,
        "source": pl.String,
        "published": pl.String,
        "unit": pl.String,
        "toolkit": pl.String,
        "matches": pl.Boolean,
        "status": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)
