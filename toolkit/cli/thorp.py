"""Commands ``baccarat thorp`` and ``baccarat reproduce``: the Thorp study.

``thorp`` deals shoes, evaluates every coup exactly for the whole panel and
for any side bet added with ``--bet`` or ``--bet-file`` (each priced by its
cheapest exact evaluator; the shoes are dealt by rank, so a bet on suits is
priced suit-blind), streams the aggregates (with checkpoints in the output folder) and writes the
tables, ``summary.json``, the figures and ``report.md``.  ``reproduce`` prints
every published figure of ``data/reference`` beside the toolkit's value.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from toolkit.cli._bets import BET_FILE_OPTION, BET_OPTION, bets_from_options
from toolkit.cli._common import (
    ARGS,
    FORMAT_OPTION,
    MAX_COUNT_SHOES,
    PROGRESS,
    SCHEDULER,
    OutputFormat,
    check_run,
    check_scheduler,
    emit,
    fail,
    output_path,
    printable,
    say,
    seed_or_fresh,
    with_dealing,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    import polars as pl

    from toolkit.dealing.dealer import Dealing
    from toolkit.studies import StudyResult, ThorpStudy

__all__ = ["register"]

#: Shoes for the default run: about half a minute of work on two idle cores, a minute on a busy machine.
DEFAULT_SHOES = 30_000
#: The most shoes simulated by default for the published count results (fewer when ``--shoes`` is smaller).
COUNT_SHOES = 10_000
#: The deal-to-end run deals this share of ``--shoes`` by default (it costs as much per shoe as the main run).
END_SHARE = 3
#: The subfolder of ``--out`` that holds the deal-to-end run's checkpoint.
DEAL_TO_END = "deal-to-end"
#: The exact table's depths by default (:data:`toolkit.studies.thorp.exact_depths.EXACT_CARDS_LEFT`): seconds.
EXACT_DEFAULT = "6-12"
#: The exact table's depths for ``reproduce`` by default: 5.3 million compositions, seconds on two cores, deep enough
#: for the 10 % crossings of Banker and Player that the row on Thorp's claim reads.
REPRODUCE_EXACT = "6-16"


def default_count_shoes(shoes: int) -> int:
    """Shoes for the published count results when ``--count-shoes`` is not given: ``min(shoes, COUNT_SHOES)``.

    >>> default_count_shoes(1000), default_count_shoes(30_000)
    (1000, 10000)
    """
    return min(shoes, COUNT_SHOES)


def default_end_shoes(shoes: int) -> int:
    """Shoes of the deal-to-end run when ``--deal-to-end-shoes`` is not given: a third of ``--shoes``, at least 1.

    >>> default_end_shoes(30_000), default_end_shoes(2)
    (10000, 1)
    """
    return max(shoes // END_SHARE, 1)


class Observer(str, Enum):
    unseen = "unseen"
    remaining = "remaining"
    both = "both"


class Device(str, Enum):
    cpu = "cpu"
    gpu = "gpu"


def _check_device(device: Device, scheduler: str | None) -> None:
    """``--device gpu`` here needs a CUDA GPU (with ``--scheduler`` the workers need one, not this machine)."""
    if device == Device.gpu and scheduler is None:
        from toolkit.exact._gpu import available

        if not available():
            fail(
                "--device gpu: no CUDA GPU was found; on a machine with an NVIDIA GPU install the extra, "
                'pip install -e ".[gpu]", or use --device cpu'
            )


EXACT_OPTION = typer.Option(
    EXACT_DEFAULT,
    "--exact-cards-left",
    metavar="A-B|none",
    help="Depths (unseen cards) of the exact table put beside the sampled ones in the report, its figure and "
    "verdicts: 6-12 in seconds, 6-26 (254 million compositions on 8 decks) in minutes; none: skip.",
)


def _exact_depths(text: str, decks: int) -> tuple[int, int] | None:
    """``--exact-cards-left`` read: ``(first, last)``, or ``None`` for ``none``; a bad value is one line, exit 2.

    >>> _exact_depths("6-26", 8), _exact_depths("none", 8)
    ((6, 26), None)
    """
    from toolkit.studies.last_cards import parse_cards_left

    if text.strip().lower() == "none":
        return None
    try:
        first, last = parse_cards_left(text, "--exact-cards-left")
    except ValueError as err:
        fail(str(err))
    if last > 52 * decks:
        fail(f"--exact-cards-left must end at most at the shoe's {52 * decks} cards, got {last}")
    return first, last


def _seed(seed: int | None, out: Path, resume: bool) -> int:
    """The seed given, else the one of the checkpoint being resumed, else a fresh one (printed)."""

    from toolkit.studies import checkpoint_seed

    if seed is not None:
        if seed < 0:
            fail(f"--seed must be a non-negative integer, got {seed}")
        return seed
    if resume:
        try:
            saved = checkpoint_seed(out)
        except ValueError as err:
            fail(str(err))
        if saved is not None:
            return saved
    return seed_or_fresh(None)


@with_dealing(coups=False)
def thorp(
    *,
    shoes: int = typer.Option(DEFAULT_SHOES, "--shoes", "-n", help="Number of shoes to deal."),
    seed: int | None = typer.Option(
        None, "--seed", "-s", help="Seed (default: the resumed run's, else fresh and printed)."
    ),
    out_text: str = typer.Option("thorp-out", "--out", "-o", help="Folder for the tables, figures and report."),
    dealing: Dealing,
    observer: Observer = typer.Option(
        Observer.unseen,
        "--observer",
        help="Whose expectation: unseen (perfect counter; burned cards unseen), remaining (also saw the burned "
        "cards), or both.",
    ),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Local worker processes (default: every core)."),
    scheduler: str | None = SCHEDULER,
    device: Device = typer.Option(
        Device.cpu,
        "--device",
        help='Where the exact EVs are computed: cpu, or gpu (a CUDA GPU; pip install -e ".[gpu]").',
    ),
    resume: bool = typer.Option(
        True, "--resume/--no-resume", help="Pick up an interrupted run from the checkpoint in --out."
    ),
    records: bool = typer.Option(
        False, "--records/--no-records", help="Also write every coup's EVs to OUT/records/part-*.parquet."
    ),
    figures: bool = typer.Option(True, "--figures/--no-figures", help="Draw the PNG figures."),
    count_shoes: int | None = typer.Option(
        None,
        "--count-shoes",
        help=f"Shoes simulated for the published count results in the report (default: as many as --shoes, at most "
        f"{COUNT_SHOES:,}; 0: skip).",
    ),
    end_shoes: int | None = typer.Option(
        None,
        "--deal-to-end-shoes",
        help="Shoes of the second run, dealt to the end with no cut card, that the report compares (default: a "
        "third of --shoes; 0: skip).",
    ),
    exact_cards_left: str = EXACT_OPTION,
    bet: list[str] = BET_OPTION,
    bet_file: list[Path] = BET_FILE_OPTION,
    progress: bool = PROGRESS,
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Do baccarat edges appear only in the last 5-20 cards? Exact edges before every coup of many shoes."""
    from toolkit.bets.paytable import standard_bets
    from toolkit.coup.rules import Rules
    from toolkit.studies import ThorpStudy

    check_run(shoes, workers)
    check_scheduler(workers, scheduler)
    count_shoes, end_shoes = _more_shoes(shoes, count_shoes, end_shoes, workers)
    _check_device(device, scheduler)
    depths = _exact_depths(exact_cards_left, dealing.decks)
    out = output_path(out_text)
    if out.exists() and not out.is_dir():
        fail(f"--out {str(out)!r} is a file; it must name a folder")
    if not resume:
        _clear_earlier_run(out)
    observers = ("unseen", "remaining") if observer == Observer.both else (observer.value,)
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau)
    extra = bets_from_options(bet, bet_file, rules, panel=[b.name for b in standard_bets(rules)])
    chosen_seed = _seed(seed, out, resume)
    bets = (*standard_bets(rules), *extra) if extra else None
    study = ThorpStudy(shoes, chosen_seed, dealing, rules=rules, observers=observers, device=device.value, bets=bets)
    result = _run_main(study, chosen_seed, out, resume, records, workers, scheduler, progress)
    end = _run_to_end(study, chosen_seed, end_shoes, out, resume, workers, scheduler, progress) if end_shoes else None
    counts = None
    if count_shoes:
        from toolkit.studies import count_providers

        counts = count_providers(count_shoes, seed=study.seed, workers=workers, progress=progress, scheduler=scheduler)
    paths = _write(result, out, figures, counts, end, depths, workers, progress)
    table = _claims_table(result, observers[0])
    if fmt == OutputFormat.table:
        say(
            f"{result.n_shoes:,} shoes, {result.n_hands:,} hands, seed {study.seed}: edges seen by the "
            f"{observers[0]} observer, and Thorp's claim per bet"
        )
    emit(table, fmt, {"summary": str(paths["summary"]), "report": str(paths["report"]), "bets": table.to_dicts()})
    if fmt == OutputFormat.table:
        also = f"{end.n_shoes:,} shoes dealt to the end (no cut card)" if end is not None else "no deal-to-end run"
        counted = f"{count_shoes:,} shoes for the published count results" if count_shoes else "no count shoes"
        say(f"also: {also}; {counted} (--deal-to-end-shoes, --count-shoes)")
        typer.echo(printable(f"report: {paths['report']}"))  # a path is never wrapped


def _more_shoes(shoes: int, count_shoes: int | None, end_shoes: int | None, workers: int | None) -> tuple[int, int]:
    """``--count-shoes`` and ``--deal-to-end-shoes``, their defaults filled in from ``--shoes``, checked."""
    count_shoes = default_count_shoes(shoes) if count_shoes is None else count_shoes
    if count_shoes < 0:
        fail(f"--count-shoes must be 0 (skip) or more, got {count_shoes}")
    check_run(max(count_shoes, 1), workers, MAX_COUNT_SHOES)
    end_shoes = default_end_shoes(shoes) if end_shoes is None else end_shoes
    if end_shoes < 0:
        fail(f"--deal-to-end-shoes must be 0 (skip) or more, got {end_shoes}")
    check_run(max(end_shoes, 1), workers)
    return count_shoes, end_shoes


def _write(
    result: StudyResult,
    out: Path,
    figures: bool,
    counts: dict | None,
    end: StudyResult | None,
    depths: tuple[int, int] | None,
    workers: int | None,
    progress: bool,
) -> dict[str, Path]:
    """The run's files (:func:`toolkit.studies.write_outputs`), with the figures when asked for."""
    from toolkit.studies import write_outputs

    draw = None
    if figures:
        from toolkit.parallel import shutdown_pool
        from toolkit.plots import save_study_figures

        def draw(tables: Mapping[str, pl.DataFrame], folder: Path) -> Mapping[str, Path]:
            # the figures come after the last work of the workers: they end first, and hold no memory beside
            # what drawing takes here
            shutdown_pool()
            return save_study_figures(tables, folder)

    return write_outputs(
        result,
        out,
        reproduce=True,
        figures=draw,
        counts=counts,
        deal_to_end=end,
        exact_cards_left=depths,
        workers=workers,
        progress=progress,
    )


def _claims_table(result: StudyResult, observer: str) -> pl.DataFrame:
    """What ``thorp`` shows: each bet's edges as ``observer`` sees them, and the verdict on Thorp's claim."""
    from toolkit.studies import study_verdicts

    claims = result.claims().filter(observer=observer)
    words = study_verdicts(result, observer).select("bet", "thorp_claim")
    return claims.select(
        "bet", "positive_hands", "p_positive", "gain_per_shoe", "share_positive_last_20", "share_positive_beyond_50"
    ).join(words, on="bet")


def _run_main(
    study: ThorpStudy,
    seed: int,
    out: Path,
    resume: bool,
    records: bool,
    workers: int | None,
    scheduler: str | None,
    progress: bool,
) -> StudyResult:
    """The study's run, checkpointed in ``out``; interrupted: one line saying how to resume it (with ``seed``)."""
    from toolkit.studies import run_study

    try:
        return run_study(
            study,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            checkpoint=out,
            resume=resume,
            records=out / "records" if records else None,
        )
    except KeyboardInterrupt:
        again = _resume_command(out, seed)
        saved = out / "checkpoint.npz"
        if saved.is_file():
            fail(f"interrupted; the finished blocks are saved in {saved}: resume with {again}", 130)
        fail(f"interrupted before a block was finished (nothing saved): start again with {again}", 130)
    raise AssertionError("unreachable")


def _run_to_end(
    study: ThorpStudy,
    seed: int,
    end_shoes: int,
    out: Path,
    resume: bool,
    workers: int | None,
    scheduler: str | None,
    progress: bool,
) -> StudyResult:
    """The deal-to-end run of ``end_shoes`` shoes, checkpointed in ``out``'s subfolder."""
    from toolkit.studies import run_study

    try:
        return run_study(
            study.dealt_to_end(end_shoes),
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            checkpoint=out / DEAL_TO_END,
            resume=resume,
        )
    except KeyboardInterrupt:
        again = _resume_command(out, seed)
        fail(
            f"interrupted in the deal-to-end run; the finished blocks are saved in {out / 'checkpoint.npz'} "
            f"and {out / DEAL_TO_END / 'checkpoint.npz'}: resume with {again}",
            130,
        )
    except ValueError as err:  # a checkpoint of another study in the subfolder
        fail(str(err))
    raise AssertionError("unreachable")


#: What a run writes in its folder (the earlier run's are removed by ``--no-resume``).
_RUN_FILES = ("checkpoint.npz", "summary.json", "report.md", "reproduce.csv", "published.md")
_RUN_PARTS = (("tables", "*.parquet"), ("tables", "*.csv"), ("figures", "*.png"), ("records", "part-*.parquet"))


def _clear_earlier_run(out: Path) -> None:
    """Remove what an earlier run wrote in ``out`` (its files only, never through a link), so none is mixed in."""
    from toolkit._files import remove_files

    if not out.is_dir():
        return
    try:
        for name in _RUN_FILES:
            remove_files(out, name)
        remove_files(out / DEAL_TO_END, "checkpoint.npz")
        for sub, pattern in _RUN_PARTS:
            remove_files(out / sub, pattern)
    except (OSError, ValueError) as err:
        fail(f"--no-resume: cannot clear the earlier run in {str(out)!r}: {err}")


def _resume_command(out: Path, seed: int) -> str:
    """The command line that resumes this run: the one given, with the seed made explicit."""
    import shlex

    args = [a for a in ARGS if a != "--no-resume"]
    if not any(a in ("--seed", "-s") or a.startswith("--seed=") for a in args):
        args += ["--seed", str(seed)]
    return "baccarat " + shlex.join(args)


def reproduce(
    fmt: OutputFormat = FORMAT_OPTION,
    shoes: int = typer.Option(
        100_000, "--shoes", "-n", help="Shoes for Jacobson's setting (he used 100,000; about 5 s per 100,000)."
    ),
    study_shoes: int = typer.Option(
        2_000, "--study-shoes", help="Shoes for the end-of-shoe study behind the claims (Thorp, Jacobson)."
    ),
    count_shoes: int = typer.Option(
        20_000, "--count-shoes", help="Shoes for the published count results (Dragon 7, Panda 8, How; 0: skip)."
    ),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed of both simulations (fixed, so the table repeats)."),
    exact_cards_left: str = typer.Option(
        REPRODUCE_EXACT,
        "--exact-cards-left",
        metavar="A-B|none",
        help="Depths of the exact law of the last cards (8 decks) that checks Thorp's and Thorp and Walden's claims "
        "and sits beside Jacobson's depths it holds: 6-16 in seconds, 6-26 in minutes; none: skip.",
    ),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Local worker processes (default: every core)."),
    progress: bool = PROGRESS,
) -> None:
    """Every published figure in data/reference beside the toolkit's value, and whether it matches."""
    from toolkit.studies import ThorpStudy, count_providers, jacobson_setting, reproduce_table, run_study
    from toolkit.studies.last_cards import last_cards

    if shoes < 1 or study_shoes < 1:
        fail(f"--shoes and --study-shoes must be at least 1, got {shoes} and {study_shoes}")
    if count_shoes < 0:
        fail(f"--count-shoes must be 0 (skip) or more, got {count_shoes}")
    if seed < 0:
        fail(f"--seed must be a non-negative integer, got {seed}")
    check_run(max(shoes, study_shoes), workers)
    check_run(max(count_shoes, 1), workers, MAX_COUNT_SHOES)
    depths = _exact_depths(exact_cards_left, 8)
    typer.echo(_reproduce_cost(shoes, study_shoes, count_shoes, workers), err=True)
    jacobson = jacobson_setting(shoes, seed=seed, workers=workers, progress=progress)
    result = run_study(ThorpStudy(n_shoes=study_shoes, seed=seed), workers=workers, progress=progress)
    counts = count_providers(count_shoes, seed=seed, workers=workers, progress=progress) if count_shoes else None
    bets = ("banker", "player", "tie")
    exact = None if depths is None else last_cards(8, depths, bets, workers=workers, progress=progress)
    table = reproduce_table(result, jacobson, counts, exact)
    if fmt != OutputFormat.table:
        emit(table, fmt)
        return
    import polars as pl

    # the verdict beside the figures (the comparison is the point: side by side), its explanation in a note
    status = table["status"].str.extract_groups(r"^(?<status>.*?)\s*(?:\((?<a>.*)\)|:\s*(?<b>.*))?$").struct.unnest()
    shown = table.select("figure", "published", "toolkit").with_columns(
        status=status["status"], note=pl.coalesce(status["a"], status["b"], pl.lit(""))
    )
    emit(shown, fmt, together=("published", "toolkit", "status"))


#: CPU seconds a shoe of each step of ``reproduce`` costs on one core (measured in one process with
#: ``jacobson_setting(20_000)``, ``run_study(ThorpStudy(n_shoes=400))`` and ``reproduce_table`` over
#: ``count_providers(2_000)``, kernels compiled, on a busy two-core machine: an idle core does a little better).
_REPRODUCE_CPU_S = {"jacobson": 2.5e-5, "study": 4.5e-4, "counts": 2.5e-4}


def _reproduce_cost(shoes: int, study_shoes: int, count_shoes: int, workers: int | None) -> str:
    """The line ``reproduce`` says before it starts: what it simulates and about how long that takes.

    >>> line = _reproduce_cost(100_000, 2_000, 20_000, 1)
    >>> line[line.index("about") :]
    'about 8 s of CPU time on 1 core (a progress bar for each on a terminal)'
    """
    from toolkit.cli.assess import _duration
    from toolkit.parallel import default_workers

    rate = _REPRODUCE_CPU_S
    cpu = shoes * rate["jacobson"] + study_shoes * rate["study"] + count_shoes * rate["counts"]
    cores = default_workers() if workers is None else workers
    counts = f"the published counts on {count_shoes:,}" if count_shoes else "no published counts (--count-shoes 0)"
    return (
        f"reproduce: Jacobson's setting on {shoes:,} shoes, the end-of-shoe study on {study_shoes:,} and {counts}: "
        f"about {_duration(cpu)} of CPU time on {cores} core{'' if cores == 1 else 's'} (a progress bar for each "
        "on a terminal)"
    )


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `baccarat` app."""
    app.command("thorp")(thorp)
    app.command("reproduce")(reproduce)
