"""Badly mixed shoes: decks stacked unmixed, and riffle shuffles."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.dealing.shuffles import riffle_shuffle, stacked_shoes


def test_stacked_shoes_keep_whole_decks() -> None:
    shoes = stacked_shoes(3, decks=4, seed=2)
    assert shoes.shape == (3, 208)
    assert shoes.dtype == np.int8
    for shoe in shoes:
        for d in range(4):
            assert np.bincount(shoe[52 * d : 52 * (d + 1)], minlength=13).tolist() == [4] * 13
    assert not np.array_equal(shoes[0, :52], shoes[0, 52:104])  # each deck shuffled on its own


def test_stacked_shoes_are_reproducible() -> None:
    np.testing.assert_array_equal(stacked_shoes(2, 2, seed=9), stacked_shoes(2, 2, seed=9))


def test_riffle_keeps_the_cards_and_packets_in_order() -> None:
    order = np.arange(52)
    out = riffle_shuffle(order, seed=4)
    assert sorted(out.tolist()) == list(range(52))
    # one riffle interleaves two packets, each still in its order: at most two rising sequences
    rises = 1 + sum(int(np.flatnonzero(out == v + 1)[0] < np.flatnonzero(out == v)[0]) for v in range(51))
    assert rises <= 2
    np.testing.assert_array_equal(riffle_shuffle(order, riffles=0, seed=4), order)


def test_riffle_cut_is_binomial() -> None:
    """The top packet's size over 2,000 riffles of 52 cards: mean 26, SD sqrt(13) (6 SEs: false failure ~2e-9)."""
    out = riffle_shuffle(np.tile(np.arange(52), (2000, 1)), seed=11)
    positions = np.argsort(out, axis=1)
    cuts = []
    for pos in positions:
        breaks = np.flatnonzero(pos[1:] < pos[:-1]) + 1  # card v placed before card v - 1: v starts the bottom packet
        assert len(breaks) <= 1
        if len(breaks):
            cuts.append(int(breaks[0]))
    assert len(cuts) > 1990
    assert np.mean(cuts) == pytest.approx(26, abs=6 * np.sqrt(13 / len(cuts)))
    assert np.var(cuts) == pytest.approx(13, rel=0.25)
