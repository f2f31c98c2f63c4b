"""The design of a Thorp study (``toolkit.studies.thorp.design``): options checked, seeds fixed to an integer."""

from __future__ import annotations

import numpy as np
import pytest
from thorp_cases import SMALL

from toolkit.bets.paytable import get_bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.studies import ThorpStudy, checkpoint_seed, run_study


def test_study_validates_its_options() -> None:
    with pytest.raises(ValueError, match="shoes must be a positive integer"):
        ThorpStudy(n_shoes=0)
    with pytest.raises(ValueError, match="observers must be distinct names"):
        ThorpStudy(observers=("everyone",))
    with pytest.raises(ValueError, match="unknown bet 'roulette'; known bets: banker"):
        ThorpStudy(bets=("roulette",))
    with pytest.raises(TypeError, match="give Bets, CoupBets or names of bets"):
        ThorpStudy(bets=(3,))
    with pytest.raises(ValueError, match="distinct bets"):
        ThorpStudy(bets=("tie", "tie"))
    with pytest.raises(ValueError, match=r"jacobson_depths must be 6\.\.52"):
        ThorpStudy(dealing=Dealing(decks=1), jacobson_depths=(60,))
    with pytest.raises(ValueError, match="differs from the dealing's"):
        ThorpStudy(rules=Rules(tableau=Dealing().tableau.with_player(5, False)))
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        ThorpStudy(seed=-1)
    study = ThorpStudy(seed=None, observers="remaining", bets=("banker", get_bet("tie")))
    assert isinstance(study.seed, int)
    assert study.observers == ("remaining",)
    assert study.bet_names == ("banker", "tie")


def test_int_seeds_mean_what_they_always_meant() -> None:
    """An integer seed is kept; block i uses child i of SeedSequence(seed), as before."""
    study = ThorpStudy(**SMALL)
    assert study.seed == SMALL["seed"]
    assert ThorpStudy(**{**SMALL, "seed": np.int64(SMALL["seed"])}) == study
    assert ThorpStudy(**{**SMALL, "seed": np.random.SeedSequence(SMALL["seed"])}) == study
    children = np.random.SeedSequence(SMALL["seed"]).spawn(study.n_blocks)
    assert [b.seed.entropy for b in study.blocks()] == [c.entropy for c in children]
    assert [b.seed.spawn_key for b in study.blocks()] == [c.spawn_key for c in children]


def test_generator_and_spawned_seeds_become_one_integer() -> None:
    rng = np.random.default_rng(2024)
    study = ThorpStudy(**{**SMALL, "seed": rng})
    assert isinstance(study.seed, int)
    assert study.seed == int(np.random.default_rng(2024).integers(0, 2**63))  # the Generator's next draw
    assert study.seed != ThorpStudy(**{**SMALL, "seed": rng}).seed  # the Generator's stream goes on
    assert study.fingerprint()["seed"] == study.seed
    child = np.random.SeedSequence(5).spawn(2)[1]
    assert ThorpStudy(seed=child).seed == ThorpStudy(seed=np.random.SeedSequence(5).spawn(2)[1]).seed
    assert ThorpStudy(seed=child).seed != ThorpStudy(seed=5).seed
    with pytest.raises(TypeError, match="seed must be an integer"):
        ThorpStudy(seed="7")
    with pytest.raises(TypeError, match="shoes must be an integer"):
        ThorpStudy(n_shoes=2.5)


def test_a_generator_seeded_run_resumes_from_its_recorded_seed(plain, tmp_path) -> None:
    """The checkpoint records the integer drawn from the Generator: a resumed run deals the same shoes."""

    class StopError(Exception):
        pass

    def stop_after_one(done: int, total: int) -> None:
        if done == 1:
            raise StopError

    study = ThorpStudy(**{**SMALL, "seed": np.random.default_rng(7)})
    with pytest.raises(StopError):
        run_study(study, progress=False, checkpoint=tmp_path, checkpoint_every=5, on_block=stop_after_one)
    assert checkpoint_seed(tmp_path) == study.seed
    resumed = run_study(ThorpStudy(**{**SMALL, "seed": checkpoint_seed(tmp_path)}), progress=False, checkpoint=tmp_path)
    assert resumed.complete
    assert resumed.tally.equals(run_study(study, progress=False).tally)
    assert not resumed.tally.equals(plain.tally)
