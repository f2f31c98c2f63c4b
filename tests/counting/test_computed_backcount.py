"""Back-counting computed (toolkit.count_value with a SeatRule): a counter who watches each shoe, sits before an
entry coup if the count is then high enough, bets by the count while seated and leaves for good below an exit count.

The chain on (cards seen, running count) gains the starts of the coups before the entry coup, counted by coup, and
the starts while seated.  Checked exactly where the rule reduces to the flat play (sit at the first coup whatever
the count, never leave), against the simulated back-counter (:class:`toolkit.sizing.plays.BackCount`) on one deck
for its win, its bets and the coups it sits for, and at the command line (``count --entry-coup``)."""

from __future__ import annotations

import json
import math

import pytest
from cli_helpers import run

from toolkit.counting import SeatRule, Strategy, count_strategy, count_value, run_strategies
from toolkit.dealing.dealer import Dealing
from toolkit.sizing.plays import BackCount, SeatBet

ONE_DECK = Dealing(decks=1)
#: z for the simulation comparisons: 4 standard errors, a false failure about 6e-5 per comparison (9 comparisons:
#: about 6e-4 for the test).
Z = 4.0


def test_a_seat_taken_at_the_first_coup_and_never_left_is_the_flat_play():
    inner = count_strategy("dragon7", threshold=2).plays[0]
    flat = count_value(inner, ONE_DECK)
    always = count_value(inner, ONE_DECK, seat=SeatRule(1, -math.inf))
    for key in ("hands_per_shoe", "bets_per_shoe", "staked_per_shoe", "units_per_shoe_ev", "variance_per_hand"):
        assert getattr(always, key) == pytest.approx(getattr(flat, key), rel=1e-12, abs=1e-15), key
    assert always.seated_per_shoe == pytest.approx(flat.hands_per_shoe, rel=1e-12)
    assert "seated_per_shoe" in always.as_dict()
    assert "seated_per_shoe" not in flat.as_dict()


def test_a_counter_who_leaves_at_once_sits_for_one_coup_a_shoe():
    inner = count_strategy("dragon7", threshold=-100).plays[0]  # bets every coup seated
    once = count_value(inner, ONE_DECK, seat=SeatRule(1, -math.inf, math.inf))
    assert once.seated_per_shoe == pytest.approx(1.0, rel=1e-12)
    assert once.bets_per_shoe == pytest.approx(1.0, rel=1e-12)
    later = count_value(inner, ONE_DECK, seat=SeatRule(4, -math.inf, math.inf))
    assert later.seated_per_shoe == pytest.approx(1.0, rel=1e-12)  # one deck deals more than four coups


@pytest.mark.parametrize(
    "rule",
    [SeatRule(3, 1.0, 0.0), SeatRule(5, 2.0, -1.0, "running"), SeatRule(1, -100.0, 1.0)],
    ids=["true-count", "running-count", "sit-then-leave"],
)
def test_the_computed_back_counter_agrees_with_the_simulated_one(rule):
    inner = count_strategy("dragon7", threshold=2).plays[0]  # bets on the true count; sits by the rule's count
    back = BackCount(inner, "dragon7", rule.entry_coup, rule.entry, rule.exit, rule.count)
    seats = Strategy("seats", (SeatBet("banker", 1.0, seated=back),))  # one unit every coup seated: its bets count
    sim, sat = run_strategies([Strategy("wong", (back,)), seats], 20_000, ONE_DECK, seed=56, workers=1, progress=False)
    computed = count_value(inner, ONE_DECK, seat=rule)
    pairs = (
        (computed.units_per_shoe_ev, sim.units_per_shoe_ev),
        (computed.bets_per_shoe, sim.bets_per_shoe),
        (computed.seated_per_shoe, sat.bets_per_shoe),
    )
    for value, est in pairs:
        se = (est.high - est.low) / (2 * 1.959963984540054)
        assert abs(value - est.value) <= Z * se + 1e-9, (value, est)


def test_count_back_counts_by_either_method_at_the_command_line(capsys):
    args = ("count", "--system", "dragon7", "--decks", "1", "--entry-coup", "3", "--entry", "1", "--exit", "0")
    code, out, _ = run(capsys, *args, "--method", "computed", "-f", "json")
    assert code == 0
    payload = json.loads(out)
    inner = count_strategy("dragon7").plays[0]
    expected = count_value(inner, ONE_DECK, seat=SeatRule(3, 1.0, 0.0))
    assert payload["units_per_shoe_ev"] == pytest.approx(expected.units_per_shoe_ev, rel=1e-12)
    assert payload["seated_per_shoe"] == pytest.approx(expected.seated_per_shoe, rel=1e-12)
    assert payload["convention"]["back_count"] == {"entry_coup": 3, "entry": 1.0, "exit": 0.0, "count": "true"}
    code, out, _ = run(capsys, *args, "--shoes", "300", "--seed", "5", "--workers", "1", "-f", "json")
    assert code == 0
    sim = json.loads(out)
    (direct,) = run_strategies(
        [Strategy("d", (BackCount(inner, "dragon7", 3, 1.0, 0.0),))], 300, ONE_DECK, seed=5, workers=1, progress=False
    )
    assert sim["units_per_shoe_ev"] == pytest.approx(direct.units_per_shoe_ev.value, rel=1e-12)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--entry", "1"], "give --entry-coup"),
        (["--entry-coup", "0"], "at least 1"),
        (["--entry-coup", "3", "--system", "perfect", "--bet", "dragon7"], "perfect play"),
    ],
)
def test_bad_back_counting_options_get_one_line(capsys, args, message):
    system = [] if "--system" in args else ["--system", "dragon7"]
    code, _, err = run(capsys, "count", "--decks", "1", *system, *args, "--method", "computed")
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_seat_rule_checks_its_values():
    with pytest.raises(ValueError, match="entry_coup must be at least 1"):
        SeatRule(0, 1.0)
    with pytest.raises(ValueError, match=r"SeatRule\.exit"):
        SeatRule(3, 1.0, math.nan)
    with pytest.raises(ValueError, match=r"SeatRule\.count"):
        SeatRule(3, 1.0, count="both")
