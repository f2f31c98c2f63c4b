"""The computed count prices bets on ranks and suits (label events, prefix patterns): their weights on the engine's
multisets reproduce the engine's expected values on any shoe (the oracle), the ten-valued burn card averaged over
its four ranks, and the computed win agrees with a simulation of the count."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.bets import expected_values, get_bet
from toolkit.counting import CountSystem, count_strategy, count_value, run_strategies
from toolkit.counting.computed import _moment_weights
from toolkit.coup.rules import PUNTO_BANCO
from toolkit.dealing.dealer import Dealing
from toolkit.exact.engine import _features

SHOES = np.array(
    [
        [32] * 13,
        [32] * 9 + [31, 32, 32, 32],
        [30, 31, 29, 32, 28, 32, 32, 25, 32, 31, 30, 20, 32],
        [3, 0, 4, 1, 2, 4, 4, 1, 0, 2, 4, 3, 1],
    ]
)


def _values(ranks: np.ndarray) -> np.ndarray:
    return np.array([ranks[9:].sum(), *ranks[:9]])


def _ev(name: str, ranks: np.ndarray, decks: int, burn_value: int = -1) -> float:
    const, weights = _moment_weights(get_bet(name), PUNTO_BANCO, decks)(ranks, _values(ranks), burn_value)
    return float(const[0] + weights[0, 0] @ _features(_values(ranks)[None])[:, 0])


@pytest.mark.parametrize("name", ["perfect_pair", "tiger_pair", "super_tie"])
def test_label_weights_reproduce_the_engine_on_any_shoe(name):
    bet = get_bet(name)
    assert bet.evaluator in ("prefix patterns", "label events")
    for ranks, decks in zip(SHOES, (8, 8, 8, 1), strict=True):
        engine = float(np.asarray(expected_values(ranks[None], [bet], decks=decks)).ravel()[0])
        assert _ev(name, ranks, decks) == pytest.approx(engine, abs=1e-12)


def test_a_ten_valued_burn_card_is_any_of_t_j_q_k():
    full = np.full(13, 8)
    less_t = full.copy()
    less_t[9] -= 1
    shoes = []
    for r in (9, 10, 11, 12):
        s = full.copy()
        s[r] -= 1
        shoes.append(s)
    mean = float(np.mean(np.asarray(expected_values(np.array(shoes), [get_bet("tiger_pair")], decks=2)).ravel()))
    assert _ev("tiger_pair", less_t, 2, burn_value=0) == pytest.approx(mean, abs=1e-12)


@pytest.mark.slow
def test_the_computed_win_of_label_bets_agrees_with_simulation():
    # 4 standard errors: a false failure about 6e-5 per comparison, 1.3e-4 for the two
    two_decks = Dealing(decks=2)
    pairs = CountSystem("pair_tens", (-1, -1, -1, -1, -1, -1, -1, -1, -1, 2), bet="perfect_pair_v2", threshold=-1)
    ties = CountSystem("tie_count", (0, 0, 0, 0, 0, 0, 1, 1, 1, -1), bet="super_tie", threshold=0)
    strategies = [count_strategy(pairs), count_strategy(ties)]
    results = run_strategies(strategies, 40_000, two_decks, seed=9, workers=1, progress=False)
    for strategy, sim in zip(strategies, results, strict=True):
        computed = count_value(strategy, two_decks).units_per_shoe_ev
        ev = sim.units_per_shoe_ev
        assert abs(computed - ev.value) <= 4 * (ev.high - ev.low) / 3.92, (strategy.name, computed, ev)
