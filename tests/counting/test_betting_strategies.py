"""Strategies as frozen values (``toolkit.counting.strategies``): ramps, plays, names, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.bets.paytable import get_bet
from toolkit.bets.pricing import expected_values
from toolkit.counting import (
    CountPlay,
    PerfectPlay,
    PreCoup,
    Ramp,
    Strategy,
    combine_strategies,
    count_strategy,
    get_count_system,
    perfect_strategy,
)
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import deal


def test_ramp_is_a_step_function_of_the_count() -> None:
    ramp = Ramp.from_any([(4, 1), (2, 0.5), (8, 4)])
    assert ramp.steps == ((2.0, 0.5), (4.0, 1.0), (8.0, 4.0))
    assert ramp(np.array([-1, 1.99, 2, 3.9, 4, 7.99, 8, 100])).tolist() == [0, 0, 0.5, 0.5, 1, 1, 4, 4]
    assert Ramp.flat(4)(np.array([3.99, 4.0])).tolist() == [0.0, 1.0]
    assert ramp.threshold == 2.0
    with pytest.raises(ValueError, match="repeat"):
        Ramp(((1, 1), (1, 2)))
    with pytest.raises(ValueError, match="units >= 0"):
        Ramp(((1, -1),))
    with pytest.raises(ValueError, match="at least one"):
        Ramp(())


def test_strategies_are_frozen_values_with_clear_errors() -> None:
    s = count_strategy("dragon7")
    assert s == count_strategy("dragon7")
    assert hash(s) == hash(count_strategy("dragon7"))
    assert s.name == "dragon7 TC >= 4"
    assert count_strategy("how_dragon7").name == "how_dragon7 RC >= 0 on dragon7"
    assert perfect_strategy("dragon7", "panda8").name == "perfect dragon7+panda8"
    both = combine_strategies(count_strategy("dragon7"), count_strategy("panda8"))
    assert len(both.plays) == 2
    with pytest.raises(ValueError, match="no published threshold"):
        count_strategy("thorp_natural9")
    assert count_strategy("thorp_natural9", threshold=6).plays[0].bet == "natural9"
    with pytest.raises(ValueError, match="unknown bet"):
        perfect_strategy("roulette")
    with pytest.raises(ValueError, match="no plays"):
        Strategy("empty", ())
    with pytest.raises(ValueError, match="at least one bet"):
        perfect_strategy()


def test_perfect_play_uses_the_exact_ev_before_the_coup() -> None:
    dealt = deal(50, seed=46, progress=False)
    info = PreCoup.from_dealt(dealt)
    stakes = PerfectPlay("dragon7").stakes(info, Rules())
    ev = expected_values(dealt.unseen, [get_bet("dragon7")])[:, 0]
    assert np.array_equal(stakes > 0, ev > 0)


def test_count_play_reads_the_true_or_the_running_count() -> None:
    dealt = deal(5, seed=47, progress=False)
    info = PreCoup.from_dealt(dealt)
    rc, tc = info.counts("how_dragon7")
    running = CountPlay(get_count_system("how_dragon7"), "dragon7", {0: 1, 4: 2}, count="running")
    assert np.array_equal(running.stakes(info, Rules()), np.where(rc >= 4, 2.0, np.where(rc >= 0, 1.0, 0.0)))
    true = CountPlay("how_dragon7", "dragon7", Ramp.flat(1.5))
    assert np.array_equal(true.stakes(info, Rules()), np.where(tc >= 1.5, 1.0, 0.0))
    assert running.describe() == "dragon7 by how_dragon7 (RC >= 0: 1, RC >= 4: 2)"
    with pytest.raises(ValueError, match=r"CountPlay\.count must be one of true, running"):
        CountPlay("dragon7", "dragon7", Ramp.flat(4), count="both")
    with pytest.raises(ValueError, match="units must be positive"):
        PerfectPlay("dragon7", units=0)
