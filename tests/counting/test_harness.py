"""The harness (``toolkit.counting.harness``): decisions before the coup, look-ahead detection, seeds and workers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from loop_dealer import VALUES, deal_shoe

from toolkit.bets.paytable import get_bet
from toolkit.counting import (
    LookAheadError,
    PreCoup,
    Strategy,
    count_strategy,
    get_count_system,
    perfect_strategy,
    play,
    run_strategies,
    simulate,
    summarize,
)
from toolkit.dealing.dealer import Dealing, deal, deal_block, shuffled_shoes


def dragon7_pays(player: list[int], banker: list[int]) -> int:
    """Dragon 7 from the rulebook: Banker wins with a three-card 7, paying 40 to 1."""
    pt = sum(VALUES[c] for c in player) % 10
    bt = sum(VALUES[c] for c in banker) % 10
    return 40 if len(banker) == 3 and bt == 7 and bt > pt else -1


def test_decisions_use_only_the_cards_seen_before_each_coup() -> None:
    """The harness against a card-by-card counter: any off-by-one in the pre-coup state fails here.

    The loop dealer keeps the count card by card; a coup is bet when the true
    count formed from the cards seen *before its first card* reaches the
    threshold, and paid by the rulebook.  Per-shoe bets and wins must agree
    exactly with the vectorised harness (a state shifted by one coup changes
    which coups are bet, and with it the realised wins).
    """
    system = get_count_system("dragon7")
    threshold = 1.0  # low, so that most shoes hold many bets
    shoes = shuffled_shoes(40, 8, 77)
    dealt = deal_block(shoes, Dealing())
    (totals,) = play(dealt, [count_strategy(system, threshold)])
    for s, row in enumerate(shoes):
        shoe = deal_shoe(row.tolist())
        rc = system.tags[shoe.burn_card]  # the exposed burn card is seen and counted
        bets = won = 0
        for coup in shoe.coups:
            if rc / (coup.left / 52) >= threshold:
                bets += 1
                won += dragon7_pays(coup.player, coup.banker)
            rc += sum(system.tags[c] for c in coup.player + coup.banker)  # seen only after the bet is decided
        assert (totals.bets[s], totals.won[s]) == (bets, won), f"shoe {s}"
        assert totals.hands[s] == len(shoe.coups)


@dataclass(frozen=True)
class PeekingPlay:
    """A deliberately cheating play: bets Natural 9 only when this coup's Banker hand is a natural 9."""

    classes: tuple
    bet: str = "natural9"

    def stakes(self, info: PreCoup, rules) -> np.ndarray:
        hit = get_bet("natural9").payoff_array[np.array(self.classes)] > 0
        return hit.astype(float)


def test_a_strategy_peeking_at_the_coup_is_refused() -> None:
    dealt = deal(300, seed=40, progress=False)
    cheat = Strategy("peek", (PeekingPlay(tuple(dealt.outcome_classes().tolist())),))
    (totals,) = play(dealt, [cheat])
    with pytest.raises(LookAheadError, match="information from the coup itself"):
        summarize("peek", totals)
    res = summarize("peek", totals, check=False)
    assert res.units_per_shoe.value > 50  # 9 units on every bet, an impossible win
    assert res.units_per_shoe_ev.value < 0  # what those bets were worth before the coup
    assert res.lookahead_z > 6


def test_the_state_after_the_coup_is_detected() -> None:
    """The classic simulator bug: deciding with the count *after* the coup's cards.

    Fed the composition after each coup (the cards of the coup removed) instead
    of before it, computer-perfect play on Small (four cards dealt, 3:2) bets
    systematically when the coup used more cards, and the realised win falls
    far below the exact expectation of the bets placed: z about -13 on 2,000
    shoes.  Honest play on the same shoes stays within a few standard errors.
    The harness raises at |z| > 6 (false alarm 2e-9 for an honest strategy).
    """
    dealt = deal(2000, seed=41, progress=False)
    after = dealt.unseen.astype(np.int64)
    for slot in range(6):
        card = dealt.cards[:, slot]
        rows = np.flatnonzero(card >= 0)
        np.subtract.at(after, (rows, card[rows]), 1)
    too_few = after.sum(axis=1) < 6  # a few last coups leave fewer than six unseen cards: keep those honest
    after[too_few] = dealt.unseen[too_few]
    honest = PreCoup.from_dealt(dealt)
    shifted = PreCoup(dealt.shoe, dealt.coup, after, dealt.left, honest.decks, honest.burn_card)
    strategy = perfect_strategy("small")
    (good,) = play(dealt, [strategy])
    assert abs(summarize("honest", good).lookahead_z) < 6
    (bad,) = play(dealt, [strategy], info=shifted)
    with pytest.raises(LookAheadError):
        summarize("after the coup", bad)
    assert summarize("after the coup", bad, check=False).lookahead_z < -6


def test_play_on_a_coup_frame_equals_play_on_dealt_shoes(tmp_path) -> None:
    import polars as pl

    dealt = deal(30, seed=44, progress=False)
    path = tmp_path / "shoes.parquet"
    dealt.frame(compositions=True).write_parquet(path)
    strategies = [count_strategy("dragon7", 2), perfect_strategy("panda8")]
    from_dealt = play(dealt, strategies)
    from_frame = play(pl.read_parquet(path).sample(fraction=1.0, shuffle=True, seed=1), strategies)
    for a, b in zip(from_dealt, from_frame, strict=True):
        assert np.array_equal(a.bets, b.bets)
        assert np.allclose(a.won, b.won)
        assert np.allclose(a.ev, b.ev)
        assert np.allclose(a.low, b.low)


def test_low_point_within_the_shoe() -> None:
    dealt = deal(20, seed=45, progress=False)
    (totals,) = play(dealt, [count_strategy("dragon7", -100)])  # bets every coup
    pays = get_bet("dragon7").payoff_array[dealt.outcome_classes()]
    for s in range(20):
        path = np.cumsum(pays[dealt.shoe == s])
        assert totals.low[s] == min(0.0, path.min())
        assert totals.won[s] == path[-1]


def test_same_seed_same_results_for_any_worker_count() -> None:
    strategies = [count_strategy("dragon7", 2), count_strategy("panda8", 6)]
    one = run_strategies(strategies, 40, seed=3, workers=1, block_size=10, progress=False)
    two = run_strategies(strategies, 40, seed=3, workers=2, block_size=10, progress=False)
    for a, b in zip(one, two, strict=True):
        for name in ("hands", "bets", "staked", "won", "ev", "low"):
            assert np.array_equal(getattr(a.totals, name), getattr(b.totals, name)), name


def test_a_generator_seeds_a_run() -> None:
    """A seeded numpy Generator gives reproducible runs, whatever the worker count, as an integer seed does."""
    strategies = [count_strategy("dragon7", 2)]
    options = {"block_size": 10, "progress": False}
    a = run_strategies(strategies, 30, seed=np.random.default_rng(5), workers=1, **options)[0]
    b = run_strategies(strategies, 30, seed=np.random.default_rng(5), workers=2, **options)[0]
    c = simulate(strategies[0], 30, seed=np.random.default_rng(5), workers=1, **options)
    for name in ("hands", "bets", "won", "ev"):
        assert np.array_equal(getattr(a.totals, name), getattr(b.totals, name)), name
        assert np.array_equal(getattr(a.totals, name), getattr(c.totals, name)), name
    other = run_strategies(strategies, 30, seed=np.random.default_rng(6), workers=1, **options)[0]
    assert not np.array_equal(a.totals.won, other.totals.won)
    # an integer seed means SeedSequence(seed), as before
    by_int = run_strategies(strategies, 30, seed=3, workers=1, **options)[0]
    by_sequence = run_strategies(strategies, 30, seed=np.random.SeedSequence(3), workers=1, **options)[0]
    assert np.array_equal(by_int.totals.won, by_sequence.totals.won)
