"""True-count conventions (decks estimated to the half or whole deck) and thresholds that change through the shoe.

Both are checked against a count kept by hand: the shoes are dealt card by card by
``tests/loop_dealer.py``, the running count is summed over the cards seen, the decks are
reckoned and the threshold looked up in plain Python, and the toolkit's stakes must agree
coup for coup.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from loop_dealer import deal_shoe

from toolkit.counting import count_strategy, get_count_system
from toolkit.counting.custom import read_count_system
from toolkit.counting.systems import CountSystem
from toolkit.counting.tallies import PreCoup, count_arrays, estimated_decks
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes


def hand_kept(shoes: np.ndarray, dealing: Dealing, system: CountSystem) -> list[dict]:
    """Before every coup: coup number, cards out of the shoe, cards left, cards unseen, running count."""
    rows = []
    for cards in shoes.tolist():
        d = dealing
        shoe = deal_shoe(cards, d.decks, d.burn, cut_card=d.cut_card, last_hand=str(d.last_hand))
        for coup in shoe.coups:
            rc = system.initial_count + (system.tags[shoe.burn_card] if shoe.burn_card >= 0 else 0)
            for earlier in shoe.coups[: coup.coup - 1]:
                rc += sum(system.tags[c] for c in earlier.player + earlier.banker)
            rows.append(
                {"coup": coup.coup, "out": coup.start, "left": coup.left, "unseen": coup.unseen_count, "rc": rc}
            )
    return rows


def reckoned(cards: int, estimate: str) -> float:
    """Decks as a counter at the table reckons them, written out case by case."""
    if estimate == "exact":
        return cards / 52
    if estimate == "half_deck":
        halves = int(cards / 26 + 0.5)  # to the nearest half deck, halves up
        return max(halves, 1) / 2
    return max(int(cards / 52 + 0.5), 1)


@pytest.mark.parametrize("estimate", ["exact", "half_deck", "whole_deck"])
@pytest.mark.parametrize("divisor", ["decks_left", "unseen"])
def test_true_count_with_decks_estimated_matches_a_hand_count(estimate: str, divisor: str) -> None:
    system = get_count_system("dragon7").with_(deck_estimate=estimate, divisor=divisor, rounding="truncate")
    dealing = Dealing()
    shoes = shuffled_shoes(6, 8, 77)
    info = PreCoup.from_dealt(deal_block(shoes, dealing))
    _, tc = info.counts(system)
    by_hand = [
        math.trunc(r["rc"] / reckoned(r["left"] if divisor == "decks_left" else r["unseen"], estimate))
        for r in hand_kept(shoes, dealing, system)
    ]
    assert tc.tolist() == by_hand
    if estimate != "exact":  # the estimate changes some true counts
        exact = PreCoup.from_dealt(deal_block(shoes, dealing)).counts(system.with_(deck_estimate="exact"))[1]
        assert np.any(exact != tc)


def test_decks_estimated_on_the_edges() -> None:
    cards = np.array([1, 12, 13, 38, 39, 77, 78, 416])
    assert estimated_decks(cards, "half_deck").tolist() == [0.5, 0.5, 0.5, 0.5, 1.0, 1.5, 1.5, 8.0]
    assert estimated_decks(cards, "whole_deck").tolist() == [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 8.0]
    unseen = np.array([[32] * 13])
    unseen[0, 7] -= 3  # three 8s seen: Dragon 7 running count +6
    _, tc = count_arrays(get_count_system("dragon7").with_(deck_estimate="whole_deck"), unseen, 8, left=np.array([70]))
    assert tc.tolist() == [6.0]  # 70 cards: one deck to the nearest deck


@pytest.mark.parametrize(
    ("steps", "by", "trigger"),
    [
        (((1, 4.0), (20, 2.0), (45, 0.0), (60, -2.0)), "coup", "running"),  # a tracking sheet by hand number
        (((0, 5.0), (150, 3.0), (300, 2.0)), "cards_dealt", "true"),  # an index that moves with depth
        (((30, 1.0),), "coup", "running"),  # no bet before coup 30 (no threshold before the first step)
    ],
)
def test_threshold_table_matches_a_hand_count(steps: tuple, by: str, trigger: str) -> None:
    base = get_count_system("how_dragon7" if trigger == "running" else "dragon7")
    system = base.with_(thresholds=steps, threshold_by=by, threshold=None)
    dealing = Dealing(cut_card=16)
    shoes = shuffled_shoes(12, 8, 2024)
    info = PreCoup.from_dealt(deal_block(shoes, dealing))
    stakes = count_strategy(system).plays[0].stakes(info, Rules())
    expected = []
    for r in hand_kept(shoes, dealing, system):
        position = r["coup"] if by == "coup" else r["out"]
        threshold = math.inf
        for start, value in steps:  # the last step reached
            if position >= start:
                threshold = value
        count = r["rc"] if trigger == "running" else r["rc"] / (r["left"] / 52)
        expected.append(1.0 if count >= threshold else 0.0)
    assert stakes.tolist() == expected
    assert 0 < sum(expected) < len(expected)  # the table bets some coups and not others


def test_a_ramp_moves_with_the_threshold_table() -> None:
    """Units 1 at the table's threshold, 2 at two above it, whatever the depth."""
    system = get_count_system("how_dragon7").with_(thresholds=((1, 3), (40, 0)))
    info = PreCoup.from_dealt(deal_block(shuffled_shoes(10, 8, 5), Dealing()))
    rc, _ = info.counts(system)
    stakes = count_strategy(system, ramp={0: 1, 2: 2}).plays[0].stakes(info, Rules())
    threshold = np.where(info.coup >= 40, 0, 3)
    assert stakes.tolist() == np.select([rc >= threshold + 2, rc >= threshold], [2.0, 1.0], 0.0).tolist()


def test_count_files_take_the_conventions_and_the_table(tmp_path: Path) -> None:
    path = tmp_path / "sheet.toml"
    path.write_text(
        'tags = [0, 1, 0, 0, -1, -1, -1, -1, 2, 2]\nbet = "dragon7"\ntrigger = "running"\n'
        'initial_count = -32\ndeck_estimate = "half_deck"\nthreshold_by = "coup"\n'
        'thresholds = {"1" = 4, "40" = 2}\n'
    )
    system = read_count_system(path)
    assert system.thresholds == ((1, 4.0), (40, 2.0))
    assert (system.deck_estimate, system.threshold_by) == ("half_deck", "coup")
    path.write_text("tags = [0, 1, 0, 0, -1, -1, -1, -1, 2, 2]\nthresholds = [[1, 4], [1, 2]]\n")
    with pytest.raises(ValueError, match=r"sheet\.toml: key 'thresholds' = .*name a step twice"):
        read_count_system(path)
    path.write_text('tags = [0, 1, 0, 0, -1, -1, -1, -1, 2, 2]\ndeck_estimate = "quarter"\n')
    with pytest.raises(ValueError, match=r"key 'deck_estimate' = 'quarter'.*must be one of exact, half_deck"):
        read_count_system(path)
    with pytest.raises(TypeError, match="threshold from 3 must be a number"):
        CountSystem("x", {"8": 1}, thresholds=((3, "high"),))


def test_the_computed_method_refuses_what_it_does_not_model() -> None:
    """Threshold tables are simulated, never silently ignored (estimated decks and Jacobson's last-hand rule are
    computed: tests/counting/test_computed_counts.py)."""
    from toolkit.counting import count_value

    with pytest.raises(ValueError, match="not a thresholds table"):
        count_value(count_strategy(get_count_system("dragon7").with_(thresholds=((1, 4),))), Dealing())
