"""A live shoe and its panel print on one line."""

from __future__ import annotations

import toolkit as bt


def test_one_liners() -> None:
    shoe = bt.LiveShoe()
    assert repr(shoe).startswith("LiveShoe(416 cards left, 0 change(s), Panel(bets=banker, player")
    for obj in (shoe, bt.Panel.of()):
        assert "\n" not in repr(obj)
        assert len(repr(obj)) < 250


def test_snapshot_is_a_small_table() -> None:
    snap = bt.LiveShoe(panel=bt.Panel.of(["banker", "dragon7"], "dragon7")).snapshot()
    text = repr(snap)
    assert text.splitlines()[0] == "Snapshot: 416 cards unseen"
    assert "EV dragon7" in text
    assert "RC / TC dragon7  +0 / +0.00" in text
    assert "<table>" in snap._repr_html_()
