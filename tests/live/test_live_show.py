"""A live shoe and its panel print on one line."""

from __future__ import annotations

import toolkit as bt


def test_one_liners() -> None:
    shoe = bt.LiveShoe()
    assert repr(shoe).startswith("LiveShoe(416 cards left, 0 change(s), Panel(bets=banker, player")
    for obj in (shoe, bt.Panel.of()):
        assert "\n" not in repr(obj)
        assert len(repr(obj)) < 250
