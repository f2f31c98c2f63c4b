"""What a counter wins, against published figures: Jacobson's Dragon 7 and Panda 8 counts, How's Dragon 7 count.

Published figures reproduced here (see also ``data/reference/count_results.csv``):

* Jacobson, "Co-card counting the Dragon and Panda side bets" (8 decks, cut card
  14 cards from the end, standard burn, 100 million simulated shoes): the Dragon 7
  count betting at true count >= +4 wins **0.597 units per shoe**; the Panda 8
  count (credited to the Wizard of Odds) **0.237 units per shoe**.
* S. How, "Unbalanced Dragon 7 Count" (2012; cut card 16 from the end): about
  **6.8 bets per shoe** and **+52 % of a fixed bet per shoe**.

Convention: true count = running count / (cards left in the shoe / 52), no
rounding, the exposed burn card counted, "finish the hand and play one more"
after the cut card (the library's defaults).  Measured here on 400,000 shoes
(seed 597; expected units per shoe from the exact EV of every bet placed, +- 1 SE):

==========================================  ===============  ==============
Dragon 7 count, TC >= +4                    units per shoe   bets per shoe
==========================================  ===============  ==============
TC by decks left, burn card counted          0.6003 +- 0.0017     8.21
TC by unseen cards, burn card counted        0.5970 +- 0.0017     7.45
TC by decks left, burn card not counted      0.5879 +- 0.0017     8.24
TC by unseen cards, burn card not counted    0.5846 +- 0.0017     7.50
==========================================  ===============  ==============

Computed exactly (``toolkit.count_value``; the tests below), the library's
convention gives 0.6014 and the unseen divisor 0.5981: *neither* lies within the
printed rounding of 0.597, and no single change of convention does (cut card 13 to
16, the three cut-card rules, the burn, the deck estimate, the rounding, ``>``);
only a strict ``>`` with the unseen divisor (0.5967) or combinations of four to six
departures do.  The published figure is a realised win over 100 million shoes,
standard error about 0.0018 (Jacobson's Big Tiger share of hands bet, a figure
without that noise, is matched to the digit by the same computation while his
edge is one standard error off): within it, the unseen divisor fits both the
Dragon 7 and the Panda 8 figures, the decks-left divisor lies 2.4 standard errors
off.  Leaving the exposed burn card out costs 0.012 units per shoe; the divisor
0.003: the "about 0.58" of the team's note is reproduced by no divisor alone.

Panda 8 threshold: not published with the figure; 0.237 is the top of a flat
maximum.  Units per shoe by threshold on the same 400,000 shoes (+- 0.0009),
decks left: +10 0.2267, +11 0.2338, +12 0.2348, +13 0.2320; unseen cards:
+10 0.2359, +11 0.2368, +12 0.2323.  We take +11: with the unseen divisor it
gives the published 0.237 exactly, and with the default divisor it lies 2.3
combined standard errors below it, 0.001 under the best threshold (+12).
The Dragon 7 and Panda 8 counts together: 0.8341 +- 0.0021 (published 0.834,
the sum of the two).

How's count: the 6.8 bets per shoe match betting at running count > 0 (text of
the article), not >= 0 (its table heading), which gives 8.2 bets per shoe; the
library keeps the issue's ">= 0" and the test below uses "> 0" for the figure.
Measured (100,000 shoes, cut card 16): 6.89 +- 0.03 bets and 0.534 +- 0.003
units per shoe.
"""

from __future__ import annotations

import math

import polars as pl
import pytest

from toolkit.counting import (
    Results,
    combine_strategies,
    count_strategy,
    get_count_system,
    perfect_strategy,
    run_strategies,
)
from toolkit.dealing.dealer import Dealing
from toolkit.studies.thorp.reproduce import CHAIN_ERROR

#: Jacobson, "Co-card counting the Dragon and Panda side bets": 100 M shoes, units won per shoe.
JACOBSON_DRAGON7 = 0.597
JACOBSON_PANDA8 = 0.237
JACOBSON_SHOES = 100_000_000
#: Per-shoe SD of the realised win (measured here: 17.9 Dragon 7, 10.6 Panda 8): the SE of the published figures.
JACOBSON_SE = {"dragon7": 18.0 / math.sqrt(JACOBSON_SHOES), "panda8": 10.7 / math.sqrt(JACOBSON_SHOES)}
PRINTED = 0.0005  # three decimals printed
#: S. How, "Unbalanced Dragon 7 Count" (2012), cut card 16 from the end.
HOW_BETS_PER_SHOE = 6.8
HOW_UNITS_PER_SHOE = 0.52


def test_published_figures_are_those_of_the_reference_table() -> None:
    from toolkit.edges.reference import load_reference

    table = load_reference("count_results")
    value = dict(zip(table["figure"].to_list(), table["value"].to_list(), strict=True))
    assert value["dragon7_jacobson_units_per_shoe"] == JACOBSON_DRAGON7
    assert value["panda8_wizard_units_per_shoe"] == JACOBSON_PANDA8
    assert value["dragon7_how_bets_per_shoe"] == HOW_BETS_PER_SHOE
    assert value["dragon7_how_units_per_shoe"] / 100 == HOW_UNITS_PER_SHOE  # printed "+52 %" of a fixed bet
    shoes = dict(zip(table["figure"].to_list(), table["shoes_simulated"].to_list(), strict=True))
    assert shoes["dragon7_jacobson_units_per_shoe"] == JACOBSON_SHOES


def published_tolerance(estimate, bet: str, z: float = 4.5) -> float:
    """z x the combined standard error of our estimate and the published one, plus its printed rounding.

    z = 4.5: false failure rate 6.8e-6 per comparison.
    """
    return z * math.hypot(estimate.se, JACOBSON_SE[bet]) + PRINTED


@pytest.fixture(scope="module")
def short_run() -> list[Results]:
    """3,000 shoes (Jacobson's conventions), Dragon 7 and Panda 8 counts and computer-perfect Dragon 7."""
    strategies = [count_strategy("dragon7"), count_strategy("panda8"), perfect_strategy("dragon7")]
    return run_strategies(strategies, 3000, Dealing(), seed=20240601, workers=1, progress=False)


def test_dragon7_count_short_run(short_run: list[Results]) -> None:
    """0.597 units per shoe (Jacobson).  EV-based estimate, SE about 0.019: the tolerance (about 0.09)
    still fails on a sign error, a wrong threshold or a count shifted by a coup."""
    d7 = short_run[0]
    est = d7.units_per_shoe_ev
    assert abs(est.value - JACOBSON_DRAGON7) < published_tolerance(est, "dragon7")
    assert 7.0 < d7.bets_per_shoe.value < 9.5  # measured 8.2 on 60,000 shoes
    assert 0.06 < d7.mean_edge.value < 0.09  # measured 0.073
    # the realised win is much noisier (SE about 0.33) but must agree with the expectation
    assert abs(d7.lookahead_z) < 4.5


def test_panda8_count_short_run(short_run: list[Results]) -> None:
    """0.237 units per shoe at true count >= +11 (threshold implied by the figure, see the module notes)."""
    p8 = short_run[1]
    est = p8.units_per_shoe_ev
    assert abs(est.value - JACOBSON_PANDA8) < published_tolerance(est, "panda8")
    assert abs(p8.lookahead_z) < 4.5


def test_computer_perfect_play_beats_the_count(short_run: list[Results]) -> None:
    """Same shoes: perfect play bets every positive coup, so it must win more (paired difference, z > 4.5)."""
    count, perfect = short_run[0], short_run[2]
    diff = perfect.totals.ev - count.totals.ev
    assert diff.mean() / (diff.std(ddof=1) / math.sqrt(len(diff))) > 4.5
    assert perfect.mean_edge.value > 0


@pytest.mark.slow
def test_dragon7_and_panda8_reproduce_jacobson() -> None:
    """400,000 shoes on every local core (a few minutes on one): within z = 4.5 of 0.597 and 0.237."""
    strategies = [
        count_strategy("dragon7"),
        count_strategy("panda8"),
        count_strategy(get_count_system("dragon7").with_(divisor="unseen")),
        count_strategy(get_count_system("dragon7").with_(count_burn_card=False)),
        count_strategy(get_count_system("dragon7").with_(count_burn_card=False, divisor="unseen")),
        combine_strategies(count_strategy("dragon7"), count_strategy("panda8")),
    ]
    d7, p8, unseen, no_burn, neither, both = run_strategies(strategies, 400_000, seed=597, progress=False)
    assert abs(d7.units_per_shoe_ev.value - JACOBSON_DRAGON7) < published_tolerance(d7.units_per_shoe_ev, "dragon7")
    assert abs(p8.units_per_shoe_ev.value - JACOBSON_PANDA8) < published_tolerance(p8.units_per_shoe_ev, "panda8")
    # the realised win agrees too, within its much larger error
    assert abs(d7.units_per_shoe.value - JACOBSON_DRAGON7) < 4.5 * d7.units_per_shoe.se + PRINTED
    # the conventions: leaving the exposed burn card out costs about 0.012 units per shoe, the divisor 0.003
    assert no_burn.units_per_shoe_ev.value < d7.units_per_shoe_ev.value
    assert neither.units_per_shoe_ev.value < unseen.units_per_shoe_ev.value
    assert abs(neither.units_per_shoe_ev.value - 0.584) < 0.01
    # Jacobson: "the maximum win-rate possible for the counter who is playing both ... is 0.834 units per shoe"
    assert both.units_per_shoe_ev.value == pytest.approx(d7.units_per_shoe_ev.value + p8.units_per_shoe_ev.value)


@pytest.mark.slow
def test_panda8_threshold_implied_by_the_published_figure() -> None:
    """Among thresholds +9..+14, +11 reproduces 0.237 and none does significantly better."""
    from toolkit.counting import threshold_sweep

    sweep = threshold_sweep("panda8", range(9, 15), 200_000, seed=237, progress=False)
    at = {row["threshold"]: row for row in sweep.iter_rows(named=True)}
    eleven = at[11.0]
    se = (eleven["units_per_shoe_ev_high"] - eleven["units_per_shoe_ev"]) / 1.959963984540054
    assert abs(eleven["units_per_shoe_ev"] - JACOBSON_PANDA8) < 4.5 * math.hypot(se, JACOBSON_SE["panda8"]) + PRINTED
    best = max(row["units_per_shoe_ev"] for row in at.values())
    assert best - eleven["units_per_shoe_ev"] < 4.5 * se
    assert at[9.0]["units_per_shoe_ev"] < eleven["units_per_shoe_ev"]


@pytest.mark.slow
def test_how_unbalanced_dragon7_count() -> None:
    """S. How (2012), cut card 16: about 6.8 bets and +52 % of a bet per shoe, betting at running count > 0.

    How's simulation size is not published: the tolerances are the printed
    precision plus 4.5 of our standard errors, and 0.02 units for an unknown
    simulation error on his side.
    """
    how = get_count_system("how_dragon7")
    (res,) = run_strategies([count_strategy(how, threshold=1)], 100_000, Dealing(cut_card=16), seed=52, progress=False)
    assert abs(res.bets_per_shoe.value - HOW_BETS_PER_SHOE) < 0.05 + 4.5 * res.bets_per_shoe.se
    assert abs(res.units_per_shoe_ev.value - HOW_UNITS_PER_SHOE) < 0.005 + 0.02 + 4.5 * res.units_per_shoe_ev.se


# --------------------------------------------------------------------------------------------- computed, exact
def _computed(system, dealing: Dealing = Dealing(), **changes) -> float:
    from toolkit.counting import count_value

    return count_value(get_count_system(system).with_(**changes), dealing).units_per_shoe_ev


#: Single changes of convention from the library's (cut card 14 cards from the end, one_more, standard burn with
#: the exposed card counted and an ace burning 1, exact decks, no rounding, bet at >= +4), as (dealing, changes).
SINGLE_CHANGES = {
    "library": (Dealing(), {}),
    "cut card 13": (Dealing(cut_card=13), {}),
    "cut card 15": (Dealing(cut_card=15), {}),
    "finish": (Dealing(last_hand="finish"), {}),
    "two_more_if_first": (Dealing(last_hand="two_more_if_first"), {}),
    "ace burns 11": (Dealing(burn_ace=11), {}),
    "burn card not counted": (Dealing(), {"count_burn_card": False}),
    "half-deck estimate": (Dealing(), {"deck_estimate": "half_deck"}),
    "floor": (Dealing(), {"rounding": "floor"}),
    "nearest": (Dealing(), {"rounding": "nearest"}),
    "strict >": (Dealing(), {"threshold": math.nextafter(4.0, 5.0)}),
}


@pytest.mark.parametrize("change", list(SINGLE_CHANGES))
def test_no_single_change_of_convention_gives_jacobsons_dragon7_figure_within_its_rounding(change: str) -> None:
    """Jacobson's 0.597 (printed to three decimals): the computed win (exact up to the coup-start chain's measured
    error, 0.0006) under each single change of convention lies outside 0.597 +- 0.0005 by more than that error
    (the sweep of notebooks/maths/computed-counts.md); the unseen divisor is the exception, below."""
    dealing, changes = SINGLE_CHANGES[change]
    assert abs(_computed("dragon7", dealing, **changes) - JACOBSON_DRAGON7) > PRINTED + CHAIN_ERROR


def test_the_unseen_divisor_misses_the_dragon7_rounding_by_less_than_the_chains_error() -> None:
    """0.5981: outside 0.597 +- 0.0005, by less than the chain's measured error (0.0006 +- 0.0003, computed above a
    10,000,000-shoe simulation): at the method's precision the rounding neither confirms nor rules it out."""
    miss = abs(_computed("dragon7", divisor="unseen") - JACOBSON_DRAGON7) - PRINTED
    assert 0 < miss < CHAIN_ERROR


def test_within_the_published_standard_error_the_unseen_divisor_fits_both_figures_of_the_post() -> None:
    """Jacobson's figures are realised wins over 100 million shoes (standard error 0.0018 and 0.0011): the unseen
    divisor fits both within one standard error (0.5981 at +4; 0.2374 at +11, inside the printed rounding too), the
    library's decks-left divisor lies more than two standard errors from each."""
    unseen_d7 = _computed("dragon7", divisor="unseen")
    unseen_p8 = _computed("panda8", divisor="unseen")
    assert abs(unseen_d7 - JACOBSON_DRAGON7) < JACOBSON_SE["dragon7"] + PRINTED
    assert abs(unseen_p8 - JACOBSON_PANDA8) < PRINTED
    left_d7, left_p8 = _computed("dragon7"), _computed("panda8")
    assert left_d7 - JACOBSON_DRAGON7 > 2 * JACOBSON_SE["dragon7"]
    assert JACOBSON_PANDA8 - left_p8 > 2 * JACOBSON_SE["panda8"]
    # the strict ">" with the unseen divisor is the one simple reading inside the Dragon 7 rounding
    strict = _computed("dragon7", divisor="unseen", threshold=math.nextafter(4.0, 5.0))
    assert abs(strict - JACOBSON_DRAGON7) < PRINTED


def test_the_big_tiger_share_of_hands_bet_is_matched_to_the_digit_while_the_noisy_edge_is_not() -> None:
    """E. Jacobson, "Card Counting the Big Tiger Baccarat Side Bet" (100 M shoes): 3.536 % of hands bet at an
    average edge of 7.227 %.  The share has almost no simulation noise and matches to its printed digit; the edge
    (standard error about 0.04 percentage points over his shoes) differs by about one: his figures are realised."""
    from toolkit.counting import count_value

    res = count_value("big_tiger", Dealing())
    assert abs(100 * res.bet_frequency - 3.536) < 0.0005
    assert 0.0002 < res.mean_edge - 0.07227 < 0.0008


def test_jacobsons_stated_last_hand_rule_deals_as_the_wizards_with_the_cut_card_one_card_earlier() -> None:
    # two_more_if_first: the coup starting at the cut card is followed by one more; one_more: it is the last
    for cut in (14, 15):
        stated = _computed("dragon7", Dealing(cut_card=cut, last_hand="two_more_if_first"))
        assert stated == pytest.approx(_computed("dragon7", Dealing(cut_card=cut - 1)), rel=1e-12, abs=0)
    assert _computed("dragon7", Dealing(last_hand="two_more_if_first")) > _computed("dragon7")


def test_reproduce_judges_the_dragon7_figure_on_the_computed_count() -> None:
    from toolkit.edges.reference import load_reference
    from toolkit.studies import count_providers

    rows = load_reference("count_results")
    row = rows.filter(pl.col("figure") == "dragon7_jacobson_units_per_shoe").row(0, named=True)
    got = count_providers(200, seed=3)["dragon7_jacobson_units_per_shoe"](row)
    assert got.value == _computed("dragon7")  # the recorded convention: decks left, >= +4, cut card 14, one_more
    assert got.matches is False  # 0.6014: outside 0.597 +- 0.0005
    assert f"the divisor unseen gives {_computed('dragon7', divisor='unseen'):.4f}" in got.note
    assert "200 simulated shoes" in got.note
