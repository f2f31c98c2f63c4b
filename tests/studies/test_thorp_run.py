"""Running a Thorp study (``toolkit.studies.thorp.run``, with its checkpoints): determinism and Jacobson's setting.

Resume, worker processes and a Dask ``LocalCluster`` must give bit-for-bit the
same tally as one plain run.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import polars as pl
import pytest
from thorp_cases import SMALL

from toolkit.bets.paytable import get_bet
from toolkit.bets.pricing import expected_values
from toolkit.studies import ThorpStudy, checkpoint_seed, jacobson_setting, run_study
from toolkit.studies.thorp.design import EDGE_EPSILON


# ------------------------------------------------------------ determinism
def test_resume_after_an_interruption_gives_the_same_tally(plain, tmp_path) -> None:
    class StopError(Exception):
        pass

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise StopError

    study = ThorpStudy(**SMALL)
    with pytest.raises(StopError):
        run_study(study, progress=False, checkpoint=tmp_path, checkpoint_every=5, on_block=stop_after_two)
    assert checkpoint_seed(tmp_path) == SMALL["seed"]
    resumed = run_study(study, progress=False, checkpoint=tmp_path)
    assert resumed.complete
    assert resumed.blocks_done == study.n_blocks
    assert 0 < resumed.coups_this_run < plain.n_hands  # only the last block was dealt again
    assert resumed.tally.equals(plain.tally)
    # a finished run resumes to the same result without dealing anything
    again = run_study(study, progress=False, checkpoint=tmp_path)
    assert again.coups_this_run == 0
    assert again.tally.equals(plain.tally)
    # another study refuses the checkpoint, and --no-resume starts afresh
    with pytest.raises(ValueError, match=r"different study \(differs in: seed\)"):
        run_study(ThorpStudy(**{**SMALL, "seed": 12}), progress=False, checkpoint=tmp_path)
    fresh = run_study(ThorpStudy(**{**SMALL, "seed": 12}), progress=False, checkpoint=tmp_path, resume=False)
    assert checkpoint_seed(tmp_path) == 12
    assert not fresh.tally.equals(plain.tally)


def test_worker_processes_give_the_same_tally(plain) -> None:
    two = run_study(ThorpStudy(**SMALL), workers=2, progress=False)
    assert two.tally.equals(plain.tally)
    other = run_study(ThorpStudy(**{**SMALL, "seed": 99}), progress=False)
    assert not other.tally.equals(plain.tally)


def test_dask_local_cluster_gives_the_same_tally(plain, dask_client) -> None:
    remote = run_study(ThorpStudy(**SMALL), scheduler=dask_client, progress=False)
    by_address = run_study(ThorpStudy(**SMALL), scheduler=dask_client.scheduler.address, progress=False)
    assert remote.tally.equals(plain.tally)
    assert by_address.tally.equals(plain.tally)


def test_memory_stays_flat_as_shoes_grow() -> None:
    """The tally has the same size for any number of shoes, and peak memory does not grow with them."""

    def peak(shoes: int) -> int:
        tracemalloc.start()
        result = run_study(ThorpStudy(n_shoes=shoes, seed=1, block_size=30, bets=("banker", "tie")), progress=False)
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert result.n_shoes == shoes
        return size

    peak(30)  # warm the caches (compiled evaluators, numba) outside the measurement
    small, large = peak(60), peak(240)
    assert large < 1.5 * small, (small, large)


# ------------------------------------------------------ Jacobson's setting
def test_jacobson_setting_alone_equals_the_study_part(plain) -> None:
    alone = jacobson_setting(SMALL["n_shoes"], seed=SMALL["seed"], block_size=SMALL["block_size"], progress=False)
    assert alone.equals(plain.jacobson())
    assert alone["samples"].unique().to_list() == [SMALL["n_shoes"]]


def test_jacobson_setting_evaluates_the_last_cards_of_each_shoe() -> None:
    """The last n cards of a shuffled shoe, evaluated by the engine, one shoe at a time."""
    from toolkit.dealing.dealer import shuffled_shoes
    from toolkit.parallel import block_plan

    table = jacobson_setting(25, seed=4, depths=(18, 50), progress=False)
    shoes = shuffled_shoes(25, 8, block_plan(25, 1000, 4)[0].rng())
    for depth in (18, 50):
        comps = np.array([np.bincount(s[-depth:], minlength=13) for s in shoes])
        ev = expected_values(comps, [get_bet("player"), get_bet("banker")])
        rows = table.filter(pl.col("unseen") == depth)
        assert rows["positive"].to_list() == (ev > EDGE_EPSILON).sum(axis=0).tolist()
        assert np.allclose(rows["mean_ev"], ev.mean(axis=0), atol=1e-15)


@pytest.mark.slow
def test_jacobson_100000_shoes_and_no_edges_beyond_50_cards() -> None:
    """Jacobson, "The World's Greatest Baccarat Player": 100,000 eight-deck shoes at 18-50 unseen cards.

    He printed no percentages in the part of the post the team has; what is checked is the shape (the chance
    of an edge falls with every depth) and his statement "beyond 50 cards, effectively no player edge":
    measured over every coup of 5,000 dealt shoes, under 1 hand in 1,000 (observed about 1 in 10,000).
    The intervals are 95 % Wilson intervals; the checks sit many standard errors from the observed values.
    """
    table = jacobson_setting(100_000, seed=2024, workers=None, progress=False)
    for bet in ("player", "banker"):
        p = table.filter(pl.col("bet") == bet).sort("unseen")["p_positive"].to_numpy()
        assert np.all(np.diff(p) < 0), (bet, p)
        assert 0.03 < p[0] < 0.08  # 18 unseen cards: about 5 %
        assert p[-1] < 0.008  # 50 unseen cards: about 0.4 %
    result = run_study(ThorpStudy(n_shoes=5000, seed=2024, bets=("player", "banker")), workers=None, progress=False)
    beyond = result.beyond(50)
    assert (beyond["rate_high"] < 1e-3).all(), beyond
