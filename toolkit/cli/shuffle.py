"""Command ``baccarat shuffle``: how far a shuffle leaves the deck from random.

The shuffle is a recipe file (``--recipe``), riffles (``--riffles K``), a shelf shuffler (``--shelves K``) or
models named in turn (``--model riffle:2 --model strip:0.1 --model cut``), each done ``--passes`` times.  The
measures: ``tv``, the exact total-variation distance to uniform, row by row up to the riffles or passes given
(riffles: Bayer & Diaconis's formula; shelf shufflers: Diaconis, Fulman & Holmes's); ``guess``, the expected
correct guesses of the card-guessing game with complete feedback, by simulation, with its interval, beside
``H_n`` for a uniform deck (and the exact expectation for shelf shufflers); ``tracker``, what a tracker who
knows the discard order wins on the next shoe shuffled this way (``--trials`` shoe pairs, casino dealing of
``--decks`` decks), against a uniform shuffle; ``power``, how many recorded shoes the randomness tests need to
tell this shuffle from a uniform one (``--trials`` replicates).  ``baccarat shuffle-track`` runs the last two
over a range of riffles with every dealing option.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from toolkit.cli._common import (
    FORMAT_OPTION,
    PROGRESS,
    WORKERS,
    OutputFormat,
    check_run,
    emit,
    fail,
    say,
    seed_or_fresh,
)

if TYPE_CHECKING:
    from toolkit.dealing.shuffles import ShuffleModel

__all__ = ["register"]

#: Cards when neither --cards nor --decks is given (and the recipe names none): an eight-deck shoe.
DEFAULT_CARDS = 416
#: Decks shuffled for the guessing game, and shoe pairs or replicates for the tracker and power, by default.
DEFAULT_GUESS_TRIALS = 10_000
DEFAULT_TRACKER_RUNS = 200
#: The most cards a deck may have here.
MAX_CARDS = 2_000
#: The shoes recorded at which ``--measure power`` measures the power.
POWER_SHOES = (2, 5, 10, 20, 50)
#: The most cards ``--measure power`` records and tests in one run: replicates x 2 shuffles (the one given and a
#: uniform one) x the shoes of :data:`POWER_SHOES` (87) x the cards of a shoe, checked before any work.  Every shoe
#: is rebuilt as a record and tested (about 0.2-0.3 ms a card on one core of a loaded machine: 1.9 s a replicate of
#: one deck, 21 s of eight), so a run at the limit takes about 7-10 minutes on one core, less with --workers.  The
#: default --trials is 200, or the most replicates that fit (221 of one deck, 27 of eight).
MAX_POWER_CARDS = 2_000_000
#: The most cards ``--measure tracker`` deals in one run: shoe pairs x the cards of a shoe, checked before any work
#: (measured with 64 riffles on a loaded machine, one worker: 2,000 one-deck pairs in 45 s, 200 eight-deck pairs in
#: 64 s, about 0.3-0.6 ms a card, so a run at the limit takes about 5-10 minutes on one core).
MAX_TRACKER_CARDS = 1_000_000


class Measure(str, Enum):
    tv = "tv"
    guess = "guess"
    tracker = "tracker"
    power = "power"


class Strategy(str, Enum):
    auto = "auto"
    shelf = "shelf"
    riffle = "riffle"


def _model(
    recipe: Path | None, riffles: int | None, shelves: int | None, names: list[str]
) -> tuple[ShuffleModel, int | None]:
    """The shuffle named by exactly one of the four options, and the cards its recipe is written for."""
    from toolkit.dealing.shuffles import Riffle, Sequence, Shelf, model_from_name, read_recipe
    from toolkit.dealing.shuffles.models import MAX_PARTS, MAX_RIFFLES

    given = [o for o, v in (("--recipe", recipe), ("--riffles", riffles), ("--shelves", shelves)) if v is not None]
    given += ["--model"] if names else []
    if len(given) != 1:
        fail(
            "give exactly one of --recipe, --riffles, --shelves or --model"
            + (f" (got {', '.join(given)})" if given else "")
        )
    try:
        if recipe is not None:
            read = read_recipe(recipe)
            return read.model, read.cards
        if riffles is not None:
            if not 0 <= riffles <= MAX_RIFFLES:
                fail(f"--riffles must be 0 to {MAX_RIFFLES}, got {riffles}")
            return Riffle(riffles), None
        if shelves is not None:
            if not 1 <= shelves <= MAX_PARTS:
                fail(f"--shelves must be 1 to {MAX_PARTS:,}, got {shelves}")
            return Shelf(shelves), None
        models = [model_from_name(name) for name in names]
        return (models[0] if len(models) == 1 else Sequence(tuple(models))), None
    except (ValueError, TypeError) as err:
        fail(f"--recipe: {err}" if recipe is not None else f"--model: {err}")
    raise AssertionError("unreachable")


def _riffles_of(model: object) -> int | None:
    """The riffles a model amounts to when it is riffles only (``Riffle``, ``AShuffle(2**k)``, their sequences)."""
    from toolkit.dealing.shuffles import AShuffle, Repeat, Riffle, Sequence

    if isinstance(model, Riffle):
        return model.times
    if isinstance(model, AShuffle):
        k = model.a.bit_length() - 1
        return k if model.a == 2**k else None
    if isinstance(model, Repeat):
        inner = _riffles_of(model.model)
        return None if inner is None else inner * model.times
    if isinstance(model, Sequence):
        parts = [_riffles_of(step) for step in model.steps]
        return None if any(p is None for p in parts) else sum(p for p in parts if p is not None)
    return None


def _cards(cards: int | None, decks: int | None, recipe_cards: int | None) -> int:
    if cards is not None and decks is not None:
        fail("give either --cards or --decks, not both")
    n = cards if cards is not None else 52 * decks if decks is not None else recipe_cards or DEFAULT_CARDS
    if decks is not None and decks < 1:
        fail(f"--decks must be at least 1, got {decks}")
    if not 1 <= n <= MAX_CARDS:
        fail(f"--cards must be between 1 and {MAX_CARDS:,}, got {n:,}")
    return n


def shuffle(
    recipe: Path | None = typer.Option(None, "--recipe", metavar="FILE", help="A shuffle recipe (TOML)."),
    riffles: int | None = typer.Option(None, "--riffles", metavar="K", help="K Gilbert-Shannon-Reeds riffles."),
    shelves: int | None = typer.Option(None, "--shelves", metavar="K", help="One pass of a K-shelf shuffler."),
    model: list[str] = typer.Option(
        [],
        "--model",
        metavar="NAME",
        help="A model, in turn (repeatable): riffle[:K], ashuffle:A, cut, strip[:P], plug[:F], pile[:K], "
        "shelf[:K], continuous[:B], wash.",
    ),
    passes: int = typer.Option(1, "--passes", metavar="P", help="Do the shuffle P times."),
    cards: int | None = typer.Option(
        None, "--cards", metavar="N", help="A deck of N distinct cards (52 as in the papers)."
    ),
    decks: int | None = typer.Option(
        None, "--decks", "-d", metavar="D", help="52 * D distinct cards (default: the recipe's cards, else 8 decks)."
    ),
    measure: Measure = typer.Option(
        Measure.guess,
        "--measure",
        help="tv (exact distance to uniform; riffles or shelf shufflers), guess (the guessing game), tracker (a "
        "tracker's win on the next shoe) or power (recorded shoes needed to detect the shuffle).",
    ),
    strategy: Strategy = typer.Option(
        Strategy.auto,
        "--strategy",
        help="Guessing strategy: auto (shelf for a shelf shuffler, else riffle), shelf or riffle.",
    ),
    trials: int | None = typer.Option(
        None,
        "--trials",
        "-n",
        metavar="N",
        help="Decks shuffled (guess, default 10,000), shoe pairs (tracker, default 200; at most "
        f"{MAX_TRACKER_CARDS:,} cards dealt, trials x the cards of a shoe) or replicates (power: "
        f"default 200, or the most within its limit of {MAX_POWER_CARDS:,} cards recorded and tested, "
        "trials x 2 shuffles x 87 shoes x the cards of a shoe).",
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed (same seed, same result, whatever the workers)."),
    workers: int | None = WORKERS,
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """How random does a shuffle leave the deck? Exact distance to uniform, or the guessing game."""
    chosen, recipe_cards = _model(recipe, riffles, shelves, model)
    n = _cards(cards, decks, recipe_cards)
    from toolkit.dealing.shuffles.models import MAX_REPEATS

    if not 1 <= passes <= MAX_REPEATS:
        fail(f"--passes must be 1 to {MAX_REPEATS:,}, got {passes}")
    if measure == Measure.tv:
        _tv(chosen, passes, n, fmt)
        return
    if measure in (Measure.tracker, Measure.power):
        if n % 52:
            fail(f"--measure {measure.value} deals a casino shoe: give --decks D (52 * D cards), got {n} cards")
        from toolkit.cli.shuffle_track import MAX_DECKS

        if n // 52 > MAX_DECKS:
            fail(f"--decks must be at most {MAX_DECKS} for --measure {measure.value}, got {n // 52}")
        runs = _power_replicates(trials, n) if measure == Measure.power else _tracker_pairs(trials, n)
        check_run(runs, workers)
        _track(chosen, passes, n // 52, runs, seed_or_fresh(seed), measure, workers, progress, fmt)
        return
    decks_shuffled = DEFAULT_GUESS_TRIALS if trials is None else trials
    check_run(decks_shuffled, workers)
    _guess(chosen, passes, n, decks_shuffled, seed_or_fresh(seed), strategy, workers, progress, fmt)


def _power_replicates(trials: int | None, cards: int) -> int:
    """The replicates of ``--measure power``: ``trials``, or the default; one line past :data:`MAX_POWER_CARDS`."""
    per_replicate = 2 * sum(POWER_SHOES) * cards
    fit = MAX_POWER_CARDS // per_replicate
    if trials is None:
        return max(1, min(DEFAULT_TRACKER_RUNS, fit))
    if trials * per_replicate > MAX_POWER_CARDS:
        fail(
            f"--trials {trials:,} with --measure power records and tests {trials * per_replicate:,} cards (2 shuffles "
            f"x {sum(POWER_SHOES)} shoes x {cards:,} cards a replicate), past the {MAX_POWER_CARDS:,} one run may; "
            f"give --trials {fit:,} or fewer"
        )
    return trials


def _tracker_pairs(trials: int | None, cards: int) -> int:
    """The shoe pairs of ``--measure tracker``: ``trials`` (default 200); one line past :data:`MAX_TRACKER_CARDS`."""
    runs = DEFAULT_TRACKER_RUNS if trials is None else trials
    if runs * cards > MAX_TRACKER_CARDS:
        fail(
            f"--trials {runs:,} with --measure tracker deals {runs * cards:,} cards ({cards:,} a shoe pair), past "
            f"the {MAX_TRACKER_CARDS:,} one run may; give --trials {MAX_TRACKER_CARDS // cards:,} or fewer"
        )
    return runs


def _track(
    chosen: ShuffleModel,
    passes: int,
    decks: int,
    runs: int,
    seed: int,
    measure: Measure,
    workers: int | None,
    progress: bool,
    fmt: OutputFormat,
) -> None:
    """The tracker's win or the tests' power for this one shuffle (:mod:`toolkit.cli.shuffle_track` for a range)."""
    from toolkit.cli.shuffle_track import LABELS, TRACKER_COLUMNS
    from toolkit.dealing.dealer import Dealing
    from toolkit.dealing.shuffles import Repeat
    from toolkit.studies import shuffle_test_power, shuffle_tracker_edge
    from toolkit.studies.shuffle import edge_removed_at, shoes_needed

    model: ShuffleModel = chosen if passes == 1 else Repeat(chosen, passes)
    dealing = Dealing(decks=decks)
    payload: dict[str, object] = {"seed": seed, "decks": decks, "measure": measure.value, "model": repr(model)}
    try:
        if measure == Measure.tracker:
            frame = shuffle_tracker_edge([model], runs, dealing, seed, workers, progress=progress)
            payload |= {"rows": frame.to_dicts(), "removed_at": edge_removed_at(frame)}
            emit(frame.select(TRACKER_COLUMNS), fmt, payload, labels=LABELS, keys=2, title="Tracker's win (units)")
            return
        power = shuffle_test_power([model], POWER_SHOES, runs, dealing, seed, workers, progress=progress)
    except ValueError as err:
        fail(str(err))
    needed = shoes_needed(power)
    payload |= {"power": power.to_dicts(), "shoes_needed": needed.to_dicts()}
    emit(needed, fmt, payload, labels=LABELS, keys=3, title="Shoes needed for 80 % power at 1 %")


def _tv(chosen: ShuffleModel, passes: int, n: int, fmt: OutputFormat) -> None:
    from toolkit.dealing.shuffles import total_variation
    from toolkit.dealing.shuffles.exact import MAX_EXACT_RIFFLES

    k = _riffles_of(chosen)
    if k is None:
        _shelf_tv(chosen, passes, n, fmt)
        return
    total = k * passes
    if not 1 <= total <= MAX_EXACT_RIFFLES:
        fail(f"--measure tv needs 1 to {MAX_EXACT_RIFFLES} riffles in all, got {total}")
    table = total_variation(n, total)
    if fmt == OutputFormat.table:
        say(f"exact total-variation distance to uniform of {n} cards after 1 to {total} riffles (Bayer-Diaconis)")
    last = table.row(-1, named=True)
    emit(table, fmt, {"cards": n, "riffles": total, "tv": last["tv"], "table": table.to_dicts()})


def _shelf_tv(chosen: ShuffleModel, passes: int, n: int, fmt: OutputFormat) -> None:
    """The exact distance after 1 to ``passes`` passes through a shelf shuffler (each the one pass it equals)."""
    import polars as pl

    from toolkit.dealing.shuffles import Repeat, equivalent_shelves, shelf_total_variation
    from toolkit.dealing.shuffles.shelf import MAX_EXACT_TV_CARDS

    if equivalent_shelves(chosen) is None:
        fail(
            "--measure tv is exact only for riffles (--riffles K, --model riffle:K or ashuffle:2^K) and shelf "
            "shufflers (--shelves K or --model shelf:K); use --measure guess for other shuffles"
        )
    if n > MAX_EXACT_TV_CARDS:
        fail(f"--measure tv for a shelf shuffler takes at most {MAX_EXACT_TV_CARDS} cards, got {n:,}")
    shelves = [equivalent_shelves(Repeat(chosen, p)) for p in range(1, passes + 1)]
    if None in shelves:
        fail(f"--measure tv: {passes} passes make too many shelves for the exact distance; give fewer passes")
    table = shelf_total_variation(n, tuple(s for s in shelves if s is not None))
    table = table.insert_column(1, pl.Series("passes", list(range(1, passes + 1))))
    if fmt == OutputFormat.table:
        say(f"exact total-variation distance to uniform of {n} cards after 1 to {passes} passes "
            "(Diaconis-Fulman-Holmes; shelves: the one pass they equal)")  # fmt: skip
    last = table.row(-1, named=True)
    emit(table, fmt, {"cards": n, "passes": passes, "tv": last["tv"], "table": table.to_dicts()})


def _guess(
    chosen: ShuffleModel,
    passes: int,
    n: int,
    trials: int,
    seed: int,
    strategy: Strategy,
    workers: int | None,
    progress: bool,
    fmt: OutputFormat,
) -> None:
    from toolkit.dealing.shuffles import Repeat, guessing_game

    model: ShuffleModel = chosen if passes == 1 else Repeat(chosen, passes)
    game = guessing_game(
        model,
        cards=n,
        trials=trials,
        seed=seed,
        strategy=None if strategy == Strategy.auto else strategy.value,
        workers=workers,
        progress=progress,
    )
    row = game.row(0, named=True)
    if fmt == OutputFormat.table:
        say(f"guessing game on {n} cards, {trials:,} decks, seed {seed}: correct guesses with a 95% interval")
    payload = {
        **row,
        "seed": seed,
        "interval": [row["ci_low"], row["ci_high"]],
        "confidence": 0.95,
    }
    columns = ["strategy", "trials", "expected_correct_guesses", "ci_low", "ci_high", "uniform_expected", "excess"]
    shown = game.select(columns + ([] if row["exact_expected"] is None else ["exact_expected"]))
    emit(shown if fmt == OutputFormat.table else game, fmt, payload)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
    app.command("shuffle")(shuffle)
