"""Shared pieces of the command line: shoe options, output formats and :func:`emit`, one-line errors."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, cast, overload

import typer

from toolkit.coup.cards import Composition
from toolkit.coup.options import Burn, LastHand

if TYPE_CHECKING:
    import polars as pl

    from toolkit.dealing.dealer import Dealing


class OutputFormat(str, Enum):
    """The formats of a command's output (see :data:`FORMAT_HELP`)."""

    table = "table"
    csv = "csv"
    json = "json"


class FileFormat(str, Enum):
    """The formats of a command whose output can be large: Parquet too (with ``--out``)."""

    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"


#: The units of every command's output, in every format (one convention, stated once).
UNITS = (
    "Money is in units staked: an expected value or a house edge of -0.0106 is -1.06% of the bet; "
    "probabilities run from 0 to 1."
)
FORMAT_HELP = (
    "table (for reading, fitted to the terminal), csv or json (the same numbers at full precision, "
    "the columns named as in the library). " + UNITS
)

DECKS_OPTION = typer.Option(
    None, "--decks", "-d", metavar="N", help="Full shoe of N decks (default 8 when --shoe is not given)."
)
SHOE_OPTION = typer.Option(
    None,
    "--shoe",
    metavar="COUNTS",
    help="Remaining shoe: 10 comma-separated counts by value 0-9, or 13 by rank A,2,...,9,T,J,Q,K.",
)
FORMAT_OPTION = typer.Option(OutputFormat.table, "--format", "-f", help=FORMAT_HELP)
FILE_FORMAT_OPTION = typer.Option(
    FileFormat.table, "--format", "-f", help=FORMAT_HELP + " parquet: the frame as a Parquet file (needs --out)."
)
OUT_OPTION = typer.Option(
    None, "--out", "-o", metavar="FILE", help="Write the output to FILE instead of the terminal (needed for parquet)."
)


#: The arguments of the command running (set by :func:`toolkit.cli.app.main`; for the resume line of a run).
ARGS: list[str] = []

#: The most local worker processes a command starts.
MAX_WORKERS = 1024

#: The most shoes ``count`` (and ``thorp --count-shoes``) plays: it keeps six numbers a shoe (about 5 GB here).
MAX_COUNT_SHOES = 100_000_000


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one clear line to stderr and exit.

    Whatever the message quotes (a file's name, an ``--out`` name, a seat's name) reaches the terminal with
    its control characters escaped (:func:`printable`): never a raw escape sequence, never a second line.
    """
    typer.echo(f"baccarat: error: {printable(message)}", err=True)
    raise typer.Exit(code)


def printable(text: str) -> str:
    """``text`` with every character that does not print (controls, line breaks, bidirectional formatting) escaped.

    The one rule for text that reaches the terminal: the records' problem messages use the same
    (:func:`toolkit.records.validation.escape_controls`).

    >>> print(printable("seat \\x1b[2J7\\nnext"))
    seat \\x1b[2J7\\nnext
    """
    from toolkit.records.validation import escape_controls

    return escape_controls(text)


def shoe_from_options(decks: int | None, shoe: str | None) -> Composition:
    """The composition named by ``--decks`` or ``--shoe`` (exactly one; default 8 decks)."""
    if decks is not None and shoe is not None:
        fail("give either --decks or --shoe, not both")
    if shoe is not None:
        parts = [p for p in shoe.split(",") if p.strip()]
        if not any(c.isdigit() for c in shoe):  # words ("eight decks"), not counts
            fail(
                f"--shoe takes counts of cards separated by commas (10 by value 0-9, 13 by rank A..K, or 52 by card "
                f"where a bet allows); --decks N gives whole decks; got {shoe!r}"
            )
        if len(parts) not in (10, 13):
            fail(f"--shoe needs 10 counts by value (0-9) or 13 by rank (A,2,...,9,T,J,Q,K); got {len(parts)}")
        try:
            return Composition.from_any(shoe)
        except (ValueError, TypeError) as err:
            fail(f"--shoe: {err}")
    try:
        return Composition.from_decks(8 if decks is None else decks)
    except (ValueError, TypeError) as err:
        fail(f"--decks: {err}")
    raise AssertionError("unreachable")


def say(text: str) -> None:
    """Print a line of text to stdout: wrapped at words to the terminal's width on a terminal, whole in a pipe or file.

    Text read by a program (a pipe, a file, a test) is never wrapped, so a long path cannot split a line.
    """
    from toolkit.cli._output import wrap

    text = printable(text)
    sys.stdout.write((wrap(text) if sys.stdout.isatty() else text) + "\n")


def emit(
    frame: pl.DataFrame,
    fmt: OutputFormat | FileFormat | str,
    payload: Any = None,
    *,
    out: Path | None = None,
    labels: Mapping[str, str] | None = None,
    formats: Mapping[str, Callable[[Any], str]] | None = None,
    keys: int = 1,
    title: str | None = None,
    together: Sequence[str] = (),
    optional: Sequence[str] = (),
) -> None:
    """Write a command's result, the one way every command does.

    Parameters
    ----------
    frame
        The result as a frame.  ``table`` renders it fitted to the terminal
        (:func:`toolkit.cli._output.render_table`: ``labels``, ``formats``, ``keys``,
        ``title``, ``together``: columns kept beside the keys, ``optional``: columns left out first
        when the table is too wide), ``csv`` writes it at full precision, ``parquet`` writes it to ``out``.
    fmt
        ``table``, ``csv``, ``json`` or ``parquet``.
    payload
        What ``json`` writes (default: the frame's rows).
    out
        Write to this file (atomically) instead of stdout; ``parquet`` needs it.
    """
    from toolkit.cli._output import csv_text, json_text, render_table

    kind = fmt.value if isinstance(fmt, Enum) else str(fmt)
    if kind == "parquet":
        if out is None:
            fail("--format parquet needs --out FILE")
        write_out(out, frame.write_parquet)
        return
    if kind == "json":
        text = json_text(payload if payload is not None else frame)
    elif kind == "csv":
        text = csv_text(frame)
    else:
        text = render_table(
            frame, labels=labels, formats=formats, keys=keys, title=title, together=together, optional=optional
        )
    if out is None:
        sys.stdout.write(text)
    else:
        write_out(out, text)


def write_out(out: Path, data: Any) -> None:
    """Write ``data`` (text, or a function writing to a binary file) to ``out`` atomically; a failure: one line."""
    from toolkit._files import atomic_write

    try:
        atomic_write(out, data, "--out")
    except (OSError, ValueError) as err:
        fail(f"--out: cannot write {str(out)!r}: {getattr(err, 'strerror', None) or err}")
    except Exception as err:  # polars reports a failed write in its own exception types
        lines = str(err).strip().splitlines() or [type(err).__name__]
        fail(f"--out: cannot write {str(out)!r}: {lines[0]}")


# ------------------------------------------------ dealing options (every command that deals: with_dealing)
SHOES_OPTION = typer.Option(10_000, "--shoes", "-n", help="Number of shoes to deal.")
SEED_OPTION = typer.Option(None, "--seed", "-s", help="Seed (same seed, same shoes, whatever the workers).")
DECKS = typer.Option(8, "--decks", "-d", help="Decks in the shoe.")
BURN_OPTION = typer.Option(
    Burn.STANDARD, "--burn", help="Burn procedure: standard (turn one up, burn its value), fixed, none."
)
BURN_ACE = typer.Option(1, "--burn-ace", help="Cards burned when the exposed card is an ace (1 or 11).")
BURN_CARDS = typer.Option(0, "--burn-cards", help="Cards burned face down with --burn fixed.")
CUT_CARD = typer.Option(14, "--cut-card", help="Cut card position, in cards from the end of the shoe.")
LAST_HAND_OPTION = typer.Option(
    LastHand.ONE_MORE,
    "--last-hand",
    help="When the cut card comes out: one_more (finish and play one more), finish, seven_cards (chemin de fer), "
    "two_more_if_first (Jacobson: as one_more, and two more coups when it is a coup's first card).",
)
COUPS = typer.Option(None, "--coups", help="Deal exactly this many coups per shoe instead (cut card ignored).")
RULES_FILE = typer.Option(
    None, "--rules", metavar="FILE", help="Drawing rules from a TOML rules file (see data/rules); default punto banco."
)
WORKERS = typer.Option(None, "--workers", "-w", help="Local worker processes (default: every core).")
SCHEDULER = typer.Option(None, "--scheduler", help="Dask distributed scheduler address (tcp://host:8786).")
PROGRESS = typer.Option(True, "--progress/--no-progress", help="Progress bar on stderr.")


def dealing_from_options(
    decks: int,
    burn: Burn,
    burn_ace: int,
    burn_cards: int,
    cut_card: int,
    last_hand: LastHand,
    coups: int | None = None,
    rules: Path | None = None,
) -> Dealing:
    """The :class:`~toolkit.dealing.dealer.Dealing` named by the dealing options (bad values: one line, exit 2)."""
    from toolkit.coup.rules import PUNTO_BANCO
    from toolkit.dealing.dealer import Dealing

    if burn != Burn.FIXED and burn_cards != 0:
        fail(f"--burn-cards {burn_cards} is used only with --burn fixed (got --burn {burn.value})")
    if burn != Burn.STANDARD and burn_ace != 1:
        fail(f"--burn-ace {burn_ace} is used only with --burn standard (got --burn {burn.value})")
    if coups is not None and cut_card != 14:
        fail(f"--cut-card {cut_card} is ignored with --coups {coups} (exactly that many coups are dealt); give one")
    try:
        return Dealing(
            decks=decks,
            burn=burn,
            burn_ace=burn_ace,
            burn_cards=burn_cards,
            cut_card=cut_card,
            last_hand=last_hand,
            coups=coups,
            tableau=PUNTO_BANCO if rules is None else _rules_tableau(rules),
        )
    except (ValueError, TypeError) as err:
        fail(str(err))
    raise AssertionError("unreachable")


def _house_rules(decks: int, path: Path | None) -> Any:
    """The house rules of a rules file (its tableau, commission and Tie payout), else the defaults; a bad file:
    one line, exit 2."""
    from toolkit.coup.rules import Rules
    from toolkit.coup.rules_file import read_rules_file

    if path is None:
        return Rules(decks=decks)
    try:
        return read_rules_file(path).rules(decks)
    except ValueError as err:
        fail(f"--rules: {err}")


def _rules_tableau(path: Path) -> Any:
    """The tableau of a rules file (a bad file: one line, exit 2)."""
    from toolkit.coup.rules_file import read_rules_file

    try:
        return read_rules_file(path).tableau
    except ValueError as err:
        fail(f"--rules: {err}")


#: The dealing options of every command that deals, in their order in ``--help``: (name, type, typer option).
DEALING_OPTIONS: tuple[tuple[str, Any, Any], ...] = (
    ("decks", int, DECKS),
    ("burn", Burn, BURN_OPTION),
    ("burn_ace", int, BURN_ACE),
    ("burn_cards", int, BURN_CARDS),
    ("cut_card", int, CUT_CARD),
    ("last_hand", LastHand, LAST_HAND_OPTION),
    ("coups", int | None, COUPS),
    ("rules", Path | None, RULES_FILE),
)

Command = Callable[..., None]


@overload
def with_dealing(command: Command, *, coups: bool = True) -> Command: ...
@overload
def with_dealing(command: None = None, *, coups: bool = True) -> Callable[[Command], Command]: ...
def with_dealing(command: Command | None = None, *, coups: bool = True) -> Command | Callable[[Command], Command]:
    """Give a command the dealing options in place of its keyword-only ``dealing`` parameter.

    The command declares ``dealing: Dealing`` where the options are to appear in ``--help``; the
    wrapper typer sees takes ``--decks``, ``--burn``, ``--burn-ace``, ``--burn-cards``, ``--cut-card``,
    ``--last-hand`` and (unless ``coups=False``) ``--coups`` there instead, and calls the command
    with the :class:`~toolkit.dealing.dealer.Dealing` they name (:func:`dealing_from_options`).
    """
    if command is None:
        return functools.partial(with_dealing, coups=coups)
    options = [o for o in DEALING_OPTIONS if coups or o[0] != "coups"]
    names = [name for name, _, _ in options]
    signature = inspect.signature(command)
    params = list(signature.parameters.values())
    # a command that also declares ``house`` gets the whole rules file: its tableau, commission and Tie payout
    wants_house = "house" in signature.parameters
    params = [p for p in params if p.name != "house"]
    at = [p.name for p in params].index("dealing")
    if params[at].kind is not inspect.Parameter.KEYWORD_ONLY:
        raise TypeError(f"{command.__name__}: the dealing parameter must be keyword-only (after a bare *)")
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=o, annotation=t) for name, t, o in options]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> None:
        given = {name: kwargs.pop(name) for name in names}
        dealing = dealing_from_options(**given)
        if wants_house:
            kwargs["house"] = _house_rules(dealing.decks, given.get("rules"))
        command(**kwargs, dealing=dealing)

    wrapper.__signature__ = signature.replace(parameters=[*params[:at], *added, *params[at + 1 :]])  # type: ignore[attr-defined]
    # typer resolves the annotations with typing.get_type_hints (the command's globals, through __wrapped__)
    hints = {k: v for k, v in command.__annotations__.items() if k not in ("dealing", "house")}
    wrapper.__annotations__ = {**hints, **{name: t for name, t, _ in options}}
    return wrapper


def dealing_payload(dealing: Dealing, house: Any = None) -> dict[str, object]:
    """The dealing options of a run, as a command's JSON output writes them (the option names, without dashes);
    with the house rules (:class:`~toolkit.coup.rules.Rules`), their commission and Tie payout too."""
    payload = {name: getattr(dealing, name) for name, _, _ in DEALING_OPTIONS if name != "rules"}
    payload["rules"] = dealing.tableau.name
    if house is not None:
        payload.update(commission=float(house.commission), tie_pays=float(house.tie_pays))
    return payload


def seed_or_fresh(seed: int | None) -> int:
    """The seed given, else a fresh one, printed so that the run can be repeated."""
    if seed is not None:
        if seed < 0:
            fail(f"--seed must be a non-negative integer, got {seed}")
        return seed
    import numpy as np

    chosen = int(cast(int, np.random.SeedSequence().entropy)) % (2**63)
    typer.echo(f"baccarat: seed {chosen} (pass --seed {chosen} to repeat this run)", err=True)
    return chosen


def check_scheduler(workers: int | None, scheduler: str | None) -> None:
    """Refuse ``--workers`` beside ``--scheduler`` (the cluster's workers run the blocks; the count is ignored)."""
    if scheduler is not None and workers is not None:
        fail("--workers is ignored with --scheduler (the cluster's workers run the blocks); give one")


def start_workers(
    workers: int | None, scheduler: str | None, used: bool = True, warm: Callable[[], object] | None = None
) -> None:
    """Refuse ``--workers`` beside ``--scheduler`` (:func:`check_scheduler`), then fork the local workers now, with
    the imports only, before the command's own work starts polars' threads (after which they could only start
    fresh: :func:`toolkit.parallel.start_pool`); nothing with a scheduler, or when the work will not use them
    (``used`` false).  ``warm`` (such as :func:`warm_dealt_shoes`) runs here just before the fork, so the workers
    inherit what it loads."""
    check_scheduler(workers, scheduler)
    if scheduler is None and used:
        from toolkit.parallel import start_pool

        start_pool(workers, warm)


def warm_dealt_shoes(dealing: Dealing, house: Any = None) -> None:
    """Load what every block of dealt and priced shoes uses, in this process: numba's compiler, the dealing kernel
    for ``dealing``, the standard panel of ``house`` (:class:`~toolkit.coup.rules.Rules`; by default the dealing's)
    and the pricing kernels (with the panel's first bet: each bet's own tables are built where it is priced, and
    only for the bets a command prices).

    Called just before the workers are forked (:func:`start_workers`), it lets them inherit these instead of each
    loading its own (a third of a second to a second each); none of it starts polars' thread pool.  One shoe is
    dealt, from a fixed seed, and a block of full shoes and one more priced (the native kernel prices whole blocks,
    the numba kernel what is left), and both are thrown away: nothing a command computes depends on them.
    """
    import numpy as np

    from toolkit.bets.paytable import standard_bets
    from toolkit.bets.pricing import expected_values
    from toolkit.coup.rules import Rules
    from toolkit.dealing.dealer import deal_block, shuffled_shoes
    from toolkit.exact._kernels import LANES

    house = Rules(decks=dealing.decks, tableau=dealing.tableau) if house is None else house
    deal_block(shuffled_shoes(1, dealing.decks, np.random.default_rng(0)), dealing, 0)
    full = np.array([Composition.from_decks(dealing.decks).by_rank] * (LANES + 1), dtype=np.int64)  # both kernels
    panel = standard_bets(house)  # cached: the workers find it built
    expected_values(full, panel[:1], dealing.tableau, decks=dealing.decks)  # one bet loads the kernels


def check_run(shoes: int, workers: int | None, limit: int | None = None) -> None:
    """Reject a non-positive number of shoes or workers, or more shoes than ``limit`` (a run's limit by default)."""
    from toolkit.parallel import MAX_SHOES

    limit = MAX_SHOES if limit is None else limit
    if shoes < 1:
        fail(f"--shoes must be at least 1, got {shoes}")
    if shoes > limit:
        fail(f"--shoes must be at most {limit:,}, got {shoes:,}")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    if workers is not None and workers > MAX_WORKERS:
        fail(f"--workers must be at most {MAX_WORKERS}, got {workers}")


def distinct(values: list[str], option: str) -> list[str]:
    """``values`` when no name repeats; else one line naming the repeated one."""
    seen: set[str] = set()
    for v in values:
        if v in seen:
            fail(f"{option} names {v!r} twice; give each once")
        seen.add(v)
    return values


def output_path(text: str, option: str = "--out") -> Path:
    """A non-empty output path that is not a symbolic link (a link's target would be overwritten)."""
    from toolkit._files import refuse_symlink

    if not text.strip():
        fail(f"{option} must name a file or folder, got an empty string (use {option} . for this folder)")
    try:
        return refuse_symlink(Path(text), option)
    except ValueError as err:
        fail(str(err))
    raise AssertionError("unreachable")


# ------------------------------------------------ ways of ending a shoe, compared (with_endings)
CUT_CARDS = typer.Option([], "--cut-card", help="Cut card position in cards from the end (repeatable; default 14).")
LAST_HANDS = typer.Option(
    [],
    "--last-hand",
    help="When the cut card comes out (repeatable; default one_more): one_more, finish, seven_cards "
    "(chemin de fer: the cut card ignored), two_more_if_first (Jacobson).",
)
COUPS_MANY = typer.Option([], "--coups", help="Deal exactly this many coups per shoe (repeatable).")


class Endings(NamedTuple):
    """What :func:`with_endings` gives a command: the shoe (cut card 14, ``one_more``) and the endings named."""

    dealing: Dealing
    cut_cards: list[int]
    last_hands: list[LastHand]
    coups: list[int]


def with_endings(command: Command) -> Command:
    """Like :func:`with_dealing`, with ``--cut-card``, ``--last-hand`` and ``--coups`` repeatable.

    The command's keyword-only ``dealing`` parameter receives :class:`Endings`: the
    :class:`~toolkit.dealing.dealer.Dealing` of ``--decks`` and the burn options, and the lists of
    cut cards, last-hand rules and numbers of coups given, for a command that compares them.
    """
    base = [o for o in DEALING_OPTIONS if o[0] not in ("cut_card", "last_hand", "coups")]
    options = [*base, ("cut_card", list[int], CUT_CARDS), ("last_hand", list[LastHand], LAST_HANDS)]
    options.append(("coups", list[int], COUPS_MANY))
    names = [name for name, _, _ in options]
    signature = inspect.signature(command)
    params = list(signature.parameters.values())
    at = [p.name for p in params].index("dealing")
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=o, annotation=t) for name, t, o in options]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> None:
        given = {name: kwargs.pop(name) for name in names}
        cuts, hands, coups = (list(given.pop(k)) for k in ("cut_card", "last_hand", "coups"))
        dealing = dealing_from_options(**given, cut_card=14, last_hand=LastHand.ONE_MORE)
        command(**kwargs, dealing=Endings(dealing, cuts, hands, coups))

    wrapper.__signature__ = signature.replace(parameters=[*params[:at], *added, *params[at + 1 :]])  # type: ignore[attr-defined]
    hints = {k: v for k, v in command.__annotations__.items() if k != "dealing"}
    wrapper.__annotations__ = {**hints, **{name: t for name, t, _ in options}}
    return wrapper
