"""Running a Thorp study: block by block, streaming, on local workers or a Dask cluster, with checkpoints.

:func:`run_study` deals and tallies every block of a :class:`ThorpStudy` and
returns a :class:`StudyResult`; :func:`jacobson_setting` evaluates only the
last cards of the same shoes (Jacobson's computer-perfect setting);
:func:`records_frame` reads back the per-coup records a run wrote.

>>> result = run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player")), progress=False)
>>> result.complete, result.n_shoes
(True, 20)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import positive_int
from toolkit._files import atomic_write, refuse_symlink, remove_files
from toolkit._packing import pack_spec
from toolkit.bets.paytable import get_plain_bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.parallel import DEFAULT_BLOCK_SIZE, SeedLike, map_blocks
from toolkit.studies.thorp.checkpoint import load_checkpoint, save_checkpoint
from toolkit.studies.thorp.design import JACOBSON_DEPTHS, ThorpStudy
from toolkit.studies.thorp.result import StudyResult
from toolkit.studies.thorp.tally import block_spec, empty_tally, evaluator, panel_values, tally_packed

__all__ = ["jacobson_setting", "records_frame", "run_study"]


def run_study(
    study: ThorpStudy,
    workers: int | None = None,
    scheduler: str | Any | None = None,
    progress: bool = True,
    checkpoint: str | os.PathLike | None = None,
    resume: bool = True,
    checkpoint_every: int = 10,
    records: str | os.PathLike | None = None,
    on_block: Callable[[int, int], None] | None = None,
) -> StudyResult:
    """Run a study block by block, streaming, with optional checkpoints and per-coup records.

    Parameters
    ----------
    study
        What to deal and evaluate.
    workers
        Local worker processes (``None``: every core); ignored with ``scheduler``.
    scheduler
        Address of a Dask distributed scheduler, or a ``distributed.Client``.
    progress
        A tqdm bar over shoes with the time left.
    checkpoint
        A folder: the tally and the number of finished blocks are saved there
        (``checkpoint.npz``) every ``checkpoint_every`` blocks, at the end and
        when interrupted.  With ``resume=True`` a run picks up where a run of
        the same study stopped; the result is the same as an uninterrupted run.
    records
        A folder for per-coup output: one Parquet file per block
        (``part-000000.parquet``...) with shoe, coup, cards unseen and left,
        and every EV (``ev_<bet>``, ``ev_remaining_<bet>``); a fresh run
        (not resumed) first removes the parts already there.
    on_block
        Called as ``on_block(blocks_done, n_blocks)`` after each block is merged.

    Returns
    -------
    StudyResult
    """
    checkpoint_every = positive_int(checkpoint_every, "checkpoint_every")
    plan = study.blocks()
    folder = Path(checkpoint) if checkpoint is not None else None
    spec = block_spec(study)
    tally = empty_tally(study)
    done, seconds = 0, {"deal": 0.0, "ev": 0.0, "aggregate": 0.0, "jacobson": 0.0}
    if folder is not None and resume:
        loaded = load_checkpoint(folder, study)
        if loaded is not None:
            tally, done, seconds = loaded
    record_dir = Path(records) if records is not None else None
    if record_dir is not None:
        refuse_symlink(record_dir, "records folder")
        record_dir.mkdir(parents=True, exist_ok=True)
        if done == 0:  # a fresh run: parts left by an earlier run would be mixed in (links are refused)
            remove_files(record_dir, "part-*.parquet")
    start = time.perf_counter()
    coups = 0
    since_save = 0
    fn = partial(tally_packed, packed=pack_spec(spec), records=record_dir is not None)
    if scheduler is None and done < len(plan):
        # build the evaluators here: forked worker processes inherit them instead of each building its own
        panel_values(np.full((1, 13), 4 * spec.dealing.decks), spec)  # compiles the side bets' tables too
        evaluator(spec.jacobson_payoffs, spec.dealing.tableau)
    try:
        for output in map_blocks(fn, plan[done:], workers, scheduler, progress, "thorp study"):
            index = done
            if record_dir is not None and output.records is not None:
                atomic_write(record_dir / f"part-{index:06d}.parquet", output.records.write_parquet)
            tally = tally.merged(output.tally)
            done += 1
            coups += output.coups
            for key, value in output.seconds.items():
                seconds[key] = seconds.get(key, 0.0) + value
            since_save += 1
            if folder is not None and since_save >= checkpoint_every:
                save_checkpoint(folder, study, tally, done, seconds)
                since_save = 0
            if on_block is not None:
                on_block(done, len(plan))
    finally:
        if folder is not None and since_save:
            save_checkpoint(folder, study, tally, done, seconds)
    wall = time.perf_counter() - start
    return StudyResult(study, tally, blocks_done=done, wall_seconds=wall, coups_this_run=coups, seconds=seconds)


def jacobson_setting(
    n_shoes: int = 100_000,
    seed: SeedLike = None,
    depths: Sequence[int] = JACOBSON_DEPTHS,
    dealing: Dealing = Dealing(),
    rules: Rules = Rules(),
    workers: int | None = None,
    scheduler: str | Any | None = None,
    progress: bool = True,
    block_size: int = DEFAULT_BLOCK_SIZE,
) -> pl.DataFrame:
    """Jacobson's computer-perfect setting alone: exact Player and Banker edges with ``depths`` unseen cards.

    The same shoes as a :class:`ThorpStudy` of the same seed (the last ``n``
    cards of each shuffled shoe), without dealing the coups, so it gives the
    same numbers as ``run_study(...).jacobson()``.  ``seed`` is taken as
    :class:`ThorpStudy` takes it (anything :data:`toolkit.parallel.SeedLike` accepts).

    >>> t = jacobson_setting(200, seed=1, depths=(18,), progress=False)
    >>> t.select("unseen", "bet", "samples").rows()
    [(18, 'player', 200), (18, 'banker', 200)]

    Parameters
    ----------
    n_shoes
        Shuffled shoes (Jacobson used 100,000).
    seed
        As :class:`ThorpStudy` takes it.
    depths
        Numbers of unseen cards.
    dealing, rules
        The shoe (decks) and pay rules.
    workers, scheduler, progress, block_size
        As :func:`run_study` takes them.

    Returns
    -------
    polars.DataFrame
        As :meth:`StudyResult.jacobson`.
    """
    study = ThorpStudy(
        n_shoes=n_shoes,
        seed=seed,
        dealing=dealing,
        rules=rules,
        bets=(get_plain_bet("banker", rules),),
        jacobson_depths=tuple(depths),
        block_size=block_size,
    )
    fn = partial(tally_packed, packed=pack_spec(block_spec(study)), coups=False)
    tally = empty_tally(study)
    for output in map_blocks(fn, study.blocks(), workers, scheduler, progress, "jacobson setting"):
        tally = tally.merged(output.tally)
    return StudyResult(study, tally, blocks_done=study.n_blocks).jacobson()


def records_frame(folder: str | os.PathLike) -> pl.LazyFrame:
    """The per-coup records a run wrote to ``folder`` (lazily: scan, filter, then collect).

    Parameters
    ----------
    folder
        The ``records`` folder of a run (``run_study(records=...)``, ``baccarat thorp --records``).

    Returns
    -------
    polars.LazyFrame
    """
    path = Path(folder)
    if not any(path.glob("part-*.parquet")):
        raise FileNotFoundError(f"no per-coup records (part-*.parquet) in {path}")
    return pl.scan_parquet(path / "part-*.parquet")
