"""The assessment's search set held in narrow arrays and joined block by block, and its sweep refined at the peak."""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.bets import get_bet
from toolkit.counting import PreCoup
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.parallel import block_plan
from toolkit.studies.assess.search import SearchSet, refine_near_best, score_tags, search_block

BET = get_bet("dragon7")


@pytest.fixture(scope="module")
def blocks() -> list[SearchSet]:
    return [search_block(b, Dealing(), BET) for b in block_plan(60, block_size=20, seed=4)]


def _wide(data: SearchSet) -> SearchSet:
    """The same set in the arrays PreCoup.from_dealt gives (the slow, obviously right layout)."""
    i = data.info
    info = PreCoup(
        i.shoe.astype(np.int64),
        i.coup,
        i.unseen.astype(np.int64),
        i.left.astype(np.int64),
        i.decks.astype(np.int64),
        i.burn_card.astype(np.int64),
        i.tableau,
    )
    return SearchSet(info, data.ev, data.shoes)


def test_a_block_of_the_search_is_the_dealt_shoes_pre_coup_state(blocks: list[SearchSet]) -> None:
    block = block_plan(60, block_size=20, seed=4)[0]
    reference = PreCoup.from_dealt(deal_block(shuffled_shoes(20, 8, block.rng()), Dealing()))
    narrow = blocks[0].info
    for name in ("shoe", "coup", "unseen", "left", "decks", "burn_card"):
        assert np.array_equal(getattr(narrow, name), getattr(reference, name)), name
    assert np.array_equal(blocks[0].ev, reference.expected_values(BET))


def test_joining_blocks_one_by_one_gives_the_whole_set(blocks: list[SearchSet]) -> None:
    whole = SearchSet.concat(iter(blocks))
    assert whole.shoes == 60
    assert whole.hands == sum(b.hands for b in blocks)
    for name in ("shoe", "coup", "unseen", "left", "decks", "burn_card"):
        expected = np.concatenate([getattr(b.info, name) for b in blocks])
        assert np.array_equal(getattr(whole.info, name), expected), name
        assert getattr(whole.info, name).dtype == getattr(blocks[0].info, name).dtype
    assert np.array_equal(whole.ev, np.concatenate([b.ev for b in blocks]))
    assert whole.nbytes == sum(b.nbytes for b in blocks)
    assert whole.nbytes < 50 * whole.hands  # the narrow arrays: 49 bytes a coup
    with pytest.raises(ValueError, match="at least one block"):
        SearchSet.concat(iter([]))


@pytest.mark.parametrize(("system", "trigger"), [("dragon7", "true"), ("dragon7", "running"), ("panda8", "true")])
def test_narrow_arrays_score_as_the_wide_ones(blocks: list[SearchSet], system: str, trigger: str) -> None:
    data = SearchSet.concat(iter(blocks))
    tags = toolkit.get_count_system(system).tags
    narrow, wide = score_tags(tags, trigger, data), score_tags(tags, trigger, _wide(data))
    assert np.array_equal(narrow.grid, wide.grid)
    assert np.array_equal(narrow.bets, wide.bets)
    assert np.array_equal(narrow.win, wide.win)


def test_the_sweep_is_refined_about_its_peak(blocks: list[SearchSet]) -> None:
    data = SearchSet.concat(iter(blocks))
    coarse = score_tags(toolkit.get_count_system("dragon7").tags, "running", data, 10)
    assert coarse.best is not None
    step = coarse.grid[1] - coarse.grid[0]
    assert step >= 4  # the coarse grid steps by more than one count about the peak
    fine = refine_near_best(coarse, data)
    assert set(coarse.grid) <= set(fine.grid)
    low, high = coarse.grid[max(coarse.best - 1, 0)], coarse.grid[min(coarse.best + 1, len(coarse.grid) - 1)]
    near = fine.grid[(fine.grid >= low) & (fine.grid <= high)]
    assert np.array_equal(np.diff(near), np.ones(len(near) - 1))  # every integer threshold about the peak
    assert fine.win.max() >= coarse.win.max()
    # the oracle: each threshold's win and bets summed directly over the coups it bets
    info = data.info
    rc, _ = toolkit.count_arrays(
        toolkit.get_count_system("dragon7"), info.unseen, info.decks, info.burn_card, info.left
    )
    for t, win, bets in zip(fine.grid, fine.win, fine.bets, strict=True):
        chosen = rc >= t
        assert bets == chosen.sum()
        assert win == pytest.approx(data.ev[chosen].sum(), abs=1e-9)


def test_a_count_that_never_bets_is_not_refined(blocks: list[SearchSet]) -> None:
    data = SearchSet.concat(iter(blocks))
    never = score_tags(np.zeros(13, np.int64), "true", data)
    assert never.best is None
    assert refine_near_best(never, data) is never
