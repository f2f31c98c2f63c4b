"""Running a cut-card study block by block on local workers or a Dask cluster, and the one-call function.

>>> frame = cut_card_effect(n_shoes=20, bets=("banker",), seed=1, progress=False)
>>> frame.select("rule", "bet", "shoes").rows()
[('cut14/one_more', 'banker', 20)]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit._packing import pack_spec
from toolkit.bets.base import Bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.parallel import SeedLike, map_blocks
from toolkit.studies.cut_card.design import CutCardStudy
from toolkit.studies.cut_card.result import Z_95, CutCardResult, check_z
from toolkit.studies.cut_card.tally import cut_card_spec, empty_cut_card_tally, tally_packed
from toolkit.studies.thorp.tally import panel_values

__all__ = ["cut_card_effect", "run_cut_card"]


def run_cut_card(
    study: CutCardStudy, workers: int | None = None, scheduler: str | Any | None = None, progress: bool = True
) -> CutCardResult:
    """Deal, price and tally every block of ``study`` (streaming: memory flat in shoes).

    Parameters
    ----------
    study
        What to deal and compare.
    workers
        Local worker processes (``None``: every core); ignored with ``scheduler``.
    scheduler
        Address of a Dask distributed scheduler, or a ``distributed.Client``.
    progress
        A tqdm bar over shoes.

    Returns
    -------
    CutCardResult
    """
    spec = cut_card_spec(study)
    fresh = panel_values(np.full((1, 13), 4 * study.dealing.decks), spec.thorp)[0]  # builds the tables once
    tally = empty_cut_card_tally(study)
    fn = partial(tally_packed, packed=pack_spec(spec))  # pickled once: workers unpickle it once, not every block
    start = time.perf_counter()
    for output in map_blocks(fn, study.blocks(), workers, scheduler, progress, "cut card"):
        tally = tally.merged(output.tally)
    wall = time.perf_counter() - start
    return CutCardResult(study, tally, tuple(float(x) for x in fresh), wall)


def cut_card_effect(
    n_shoes: int = 10_000,
    cut_cards: Sequence[int] = (14,),
    last_hands: Sequence[str] = ("one_more",),
    coups: Sequence[int] = (),
    bets: Sequence[Bet | str] | None = None,
    dealing: Dealing | None = None,
    rules: Rules | None = None,
    seed: SeedLike = None,
    workers: int | None = None,
    scheduler: str | Any | None = None,
    progress: bool = True,
    controls: bool = True,
    z: float = Z_95,
) -> pl.DataFrame:
    """The cut-card effect of every bet under every rule: the table of :meth:`CutCardResult.table`.

    The average exact expectation of the coups dealt (a ratio of per-shoe sums) less the fresh-shoe edge,
    with a delta-method interval over shoes and the control variates of
    :mod:`toolkit.studies.cut_card.tally`.

    Parameters
    ----------
    n_shoes
        Shoes dealt (each under every rule: paired).
    cut_cards, last_hands
        Cut cards compared under each last-hand rule (``"one_more"``, ``"finish"``, ``"seven_cards"``).
    coups
        Fixed numbers of coups compared too.
    bets
        Bets or names (default: the standard panel).
    dealing, rules
        The shoe and burn, and the pay rules (defaults: eight decks, standard burn; standard rules).
    seed, workers, scheduler, progress
        As :func:`run_cut_card` and :class:`CutCardStudy` take them.
    controls
        Use the control variates.
    z
        The normal quantile of the intervals.

    Returns
    -------
    polars.DataFrame
    """
    z = check_z(z)  # before any shoe is dealt
    study = CutCardStudy(
        n_shoes=n_shoes,
        seed=seed,
        dealing=dealing or Dealing(),
        rules=rules or Rules(),
        bets=None if bets is None else tuple(bets),
        cut_cards=tuple(cut_cards),
        last_hands=tuple(last_hands),
        coups=tuple(coups),
    )
    return run_cut_card(study, workers, scheduler, progress).table(controls=controls, z=z)
