"""The computed count (toolkit.count_value) against published 100-million-shoe figures and against the toolkit's
own simulation on 8 decks.

Published (Jacobson, "Co-card counting the Dragon and Panda side bets": 8 decks, cut card 14 from the end,
standard burn, 100 million simulated shoes): the Dragon 7 count at true count >= +4 wins **0.597 units a shoe**,
the Panda 8 count **0.237**.  Computed here (one more coup after the cut card, the exposed burn card counted):

=====================================  ===============  ===============
true count divides by                  Dragon 7         Panda 8 (>= 11)
=====================================  ===============  ===============
decks of cards left in the shoe        0.6014           0.2344
decks of unseen cards                  0.5981           0.2374
=====================================  ===============  ===============

The unseen-card divisor lies within 0.0011 and 0.0004 of both figures (inside their standard errors, not their
printed rounding); the decks-left divisor, the library's default, sits 0.0044 and 0.0026 from them, as the
toolkit's 400,000-shoe simulations do (tests/counting/test_published_counts.py: 0.6003 +- 0.0017 and
0.2338 +- 0.0009, computed 0.6014 and 0.2344).

The method's one approximation, the coup-start chain, is measured against simulation: on one deck (200,000 shoes,
standard error about 0.0007 units a shoe) its figure lies within one standard error for every dealing tested;
on 8 decks (100,000 shoes) within 1.2 standard errors for Dragon 7, Panda 8 and 3 Giving 8.
"""

from __future__ import annotations

import pytest

from toolkit.counting import CountSystem, count_strategy, count_value, get_count_system, run_strategies
from toolkit.dealing.dealer import Dealing

JACOBSON_DRAGON7 = 0.597
JACOBSON_PANDA8 = 0.237
#: How far the computed figure may lie from a published one.  The published figures read as realised wins of the
#: simulation (the post's share of hands bet for Big Tiger is met to the printed digit, its noisy average edge one
#: standard error off: tests/counting/test_published_counts.py), so each carries its own standard error: a per-shoe
#: SD of 17.9 units (Dragon 7, measured by the toolkit) over 100 million shoes is 0.0018.  That, rounded up, is the
#: tolerance; the printed rounding (0.0005) and the chain's measured error (0.0006 +- 0.0003) are smaller.  Within
#: the rounding alone the unseen divisor misses by 0.0011 and the decks-left divisor by 0.0044 (not reproduced:
#: ``baccarat reproduce`` says so).
PUBLISHED_TOLERANCE = 0.002


def test_dragon7_count_computed_matches_jacobsons_100_million_shoes():
    d7 = get_count_system("dragon7").with_(divisor="unseen")
    assert count_value(d7).units_per_shoe_ev == pytest.approx(JACOBSON_DRAGON7, abs=PUBLISHED_TOLERANCE)


@pytest.mark.slow
def test_panda8_count_computed_matches_jacobsons_100_million_shoes():
    p8 = get_count_system("panda8").with_(divisor="unseen")
    assert count_value(p8).units_per_shoe_ev == pytest.approx(JACOBSON_PANDA8, abs=PUBLISHED_TOLERANCE)


#: A Banker count from the signs of the effects of removal (Wizard of Odds, "Card Counting in Baccarat"): removing
#: a small card helps Banker; bet Banker at true count >= +2.
BANKER_COUNT = CountSystem("banker_signs", (0, 1, 1, 1, 1, 2, -1, -2, -1, -1), bet="banker", threshold=2)
#: A pair-bet count: tens and faces make zero-valued pairs likelier (J with J...) only through their number; bet
#: Player Pair when the rest of the shoe is short of aces to nines (a stress test of the pair terms, not a win).
PAIR_COUNT = CountSystem("pair_tens", (-1, -1, -1, -1, -1, -1, -1, -1, -1, 2), bet="player_pair", threshold=-2)


@pytest.mark.slow
def test_the_computed_win_is_within_three_standard_errors_of_an_8_deck_simulation():
    # 3 standard errors: a false failure about 0.27 % per comparison, 1.3 % for the five
    strategies = [
        count_strategy("dragon7"),
        count_strategy("panda8"),
        count_strategy("three_giving_eight"),
        count_strategy(BANKER_COUNT),
        count_strategy(PAIR_COUNT),
    ]
    results = run_strategies(strategies, 100_000, Dealing(), seed=3131, progress=False)
    for strategy, sim in zip(strategies, results, strict=True):
        computed = count_value(strategy)
        ev = sim.units_per_shoe_ev
        se = (ev.high - ev.low) / 3.919927969080108
        assert abs(computed.units_per_shoe_ev - ev.value) <= 3 * se, (strategy.name, computed.units_per_shoe_ev, ev)
