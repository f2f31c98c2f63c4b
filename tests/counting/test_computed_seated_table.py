"""A back-counter with a thresholds table by coup, computed (toolkit.count_value with a SeatRule and a table).

The counter sits before the entry coup if the count is then high enough and leaves for good below the exit count;
while seated he bets on the table's step for the coup, which may come after the entry coup.  The chain counts the
coups by coup up to the later of the entry coup and the table's last step, the seated ones in their own layers.
Checked exactly where the rule or the table reduces to one already computed (equal steps, a seat taken at the first
coup and never left, a counter who never sits, one coup bet), against the simulated back-counter
(:class:`toolkit.sizing.plays.BackCount` around the table's :class:`toolkit.counting.CountPlay`) on one and eight
decks, and at the command line.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from cli_helpers import run

from toolkit.counting import SeatRule, Strategy, count_strategy, count_value, get_count_system, run_strategies
from toolkit.counting.computed import _play, _value
from toolkit.counting.systems import resolve_bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.sizing.plays import BackCount, SeatBet

ONE_DECK = Dealing(decks=1)
#: z for the simulation comparisons: 4 standard errors, a false failure about 6e-5 per comparison (6 comparisons in
#: this file: about 4e-4 for the file).
Z = 4.0
KEYS = ("hands_per_shoe", "bets_per_shoe", "staked_per_shoe", "units_per_shoe_ev", "variance_per_hand")
SHEET = 'name = "sheet"\ntags = [0, 0, 0, 0, -1, -1, -1, -1, 2, 2]\nbet = "dragon7"\nthreshold_by = "coup"\n'


def _table(steps: tuple, base: str = "dragon7"):
    return get_count_system(base).with_(thresholds=steps, threshold_by="coup", threshold=None)


def _same(a, b) -> None:
    for key in (*KEYS, "seated_per_shoe"):
        assert getattr(a, key) == pytest.approx(getattr(b, key), rel=1e-12, abs=1e-15), key


# --------------------------------------------------------------------------------------------- exact reductions
@pytest.mark.parametrize(
    "rule",
    [SeatRule(3, 1.0, 0.0), SeatRule(1, 2.0, 1.0), SeatRule(4, 0.0, -1.0, "running")],
    ids=["sit-at-3", "sit-at-1", "running-count-seat"],
)
@pytest.mark.parametrize(
    "steps", [((1, 2.0),), ((1, 2.0), (3, 2.0), (6, 2.0)), ((1, 2.0), (5, 2.0), (9, 2.0))], ids=["one", "to-6", "to-9"]
)
def test_a_table_of_one_threshold_with_a_back_counter_is_the_plain_threshold(steps, rule):
    # the steps past the entry coup are counted by coup while seated: equal steps bet as the plain threshold does
    plain = count_value(count_strategy("dragon7", threshold=2), ONE_DECK, seat=rule)
    table = count_value(count_strategy(_table(steps)), ONE_DECK, seat=rule)
    _same(table, plain)
    assert table.seated_per_shoe < table.hands_per_shoe


def test_a_seat_taken_at_the_first_coup_and_never_left_is_the_table_alone():
    strategy = count_strategy(_table(((1, 3.0), (4, 1.0), (8, 0.0))))
    alone = count_value(strategy, ONE_DECK)
    seated = count_value(strategy, ONE_DECK, seat=SeatRule(1, -math.inf))
    _same(seated, alone)
    assert seated.seated_per_shoe == pytest.approx(seated.hands_per_shoe, rel=1e-12)


def test_an_entry_count_nobody_reaches_never_bets():
    strategy = count_strategy(_table(((1, 3.0), (4, 1.0), (8, 0.0))))
    play = _play(strategy)
    bet = resolve_bet(play.bet, Rules(decks=1))
    never = _value(play, bet, ONE_DECK, SeatRule(2, 1000.0))
    assert (never.bets_per_shoe, never.staked_per_shoe, never.units_per_shoe_ev, never.seated_per_shoe) == (0, 0, 0, 0)
    assert never.hands_per_shoe == pytest.approx(count_value(strategy, ONE_DECK).hands_per_shoe, rel=1e-12)
    with pytest.raises(ValueError, match=r"never reaches its true count thresholds table .* while seated") as err:
        count_value(strategy, ONE_DECK, seat=SeatRule(2, 1000.0))
    assert "\n" not in str(err.value)


def test_a_seated_counter_bets_on_the_step_of_each_coup_he_sits_for():
    # a table that bets coup 4 only: seated from coup 2 on he bets once a shoe (one deck deals more than four
    # coups), as the table alone does; seated for coup 4 only, the same; seated for coup 3 only, never
    strategy = count_strategy(_table(((1, 100.0), (4, -100.0), (5, 100.0))))
    alone = count_value(strategy, ONE_DECK)
    from_two = count_value(strategy, ONE_DECK, seat=SeatRule(2, -math.inf))
    only_four = count_value(strategy, ONE_DECK, seat=SeatRule(4, -math.inf, math.inf))
    assert alone.bets_per_shoe == pytest.approx(1.0, rel=1e-12)
    for res in (from_two, only_four):
        for key in ("bets_per_shoe", "staked_per_shoe", "units_per_shoe_ev"):
            assert getattr(res, key) == pytest.approx(getattr(alone, key), rel=1e-12), key
    assert from_two.seated_per_shoe == pytest.approx(alone.hands_per_shoe - 1.0, rel=1e-12)
    assert only_four.seated_per_shoe == pytest.approx(1.0, rel=1e-12)
    play = _play(strategy)
    only_three = _value(play, resolve_bet(play.bet, Rules(decks=1)), ONE_DECK, SeatRule(3, -math.inf, math.inf))
    assert only_three.bets_per_shoe == 0.0
    assert only_three.seated_per_shoe == pytest.approx(1.0, rel=1e-12)


# --------------------------------------------------------------------------------------------- against simulation
@pytest.mark.parametrize(
    ("steps", "rule", "dealing", "seed"),
    [
        (((1, 3.0), (4, 1.0), (8, 0.0)), SeatRule(3, 1.0, 0.0), ONE_DECK, 81),
        (((1, 4.0), (20, 3.0), (45, 2.0)), SeatRule(8, 0.0, -1.0), Dealing(), 82),
    ],
    ids=["one-deck", "eight-decks"],
)
def test_the_computed_back_counter_on_a_table_agrees_with_the_simulated_one(steps, rule, dealing, seed):
    inner = count_strategy(_table(steps)).plays[0]
    back = BackCount(inner, inner.system, rule.entry_coup, rule.entry, rule.exit, rule.count)
    seats = Strategy("seats", (SeatBet("banker", 1.0, seated=back),))  # one unit every coup seated: its bets count
    sim, sat = run_strategies([Strategy("wong", (back,)), seats], 20_000, dealing, seed=seed, workers=1, progress=False)
    computed = count_value(inner, dealing, seat=rule)
    pairs = (
        (computed.units_per_shoe_ev, sim.units_per_shoe_ev),
        (computed.bets_per_shoe, sim.bets_per_shoe),
        (computed.seated_per_shoe, sat.bets_per_shoe),
    )
    for value, est in pairs:
        assert abs(value - est.value) <= Z * est.se + 1e-9, (value, est)
    # the table's later steps move the bets: the same counter on the table's first step alone bets less
    first = count_value(count_strategy("dragon7", threshold=steps[0][1]), dealing, seat=rule)
    assert computed.bets_per_shoe > first.bets_per_shoe


# --------------------------------------------------------------------------------------------- the command line
def test_count_computes_a_back_counter_on_a_table_from_a_system_file(capsys, tmp_path: Path):
    path = tmp_path / "sheet.toml"
    path.write_text(SHEET + 'thresholds = {"1" = 3, "4" = 1, "8" = 0}\n')
    args = ("count", "--system-file", str(path), "--decks", "1", "--entry-coup", "3", "--entry", "1", "--exit", "0")
    code, out, err = run(capsys, *args, "--method", "computed", "-f", "json")
    assert code == 0, err
    payload = json.loads(out)
    expected = count_value(count_strategy(_table(((1, 3.0), (4, 1.0), (8, 0.0)))), ONE_DECK, seat=SeatRule(3, 1.0, 0.0))
    for key in ("units_per_shoe_ev", "bets_per_shoe", "seated_per_shoe"):
        assert payload[key] == pytest.approx(getattr(expected, key), rel=1e-12), key
    assert payload["convention"]["thresholds"] == [[1, 3.0], [4, 1.0], [8, 0.0]]
    assert payload["convention"]["back_count"] == {"entry_coup": 3, "entry": 1.0, "exit": 0.0, "count": "true"}


def test_a_back_counter_on_a_table_too_deep_for_memory_is_refused_in_one_line(capsys, tmp_path: Path, monkeypatch):
    from toolkit.counting import computed

    monkeypatch.setattr(computed, "SEAT_BYTES", 1_000)
    path = tmp_path / "sheet.toml"
    path.write_text(SHEET + 'thresholds = {"1" = 3, "6" = 1}\n')
    args = ("count", "--system-file", str(path), "--decks", "1", "--entry-coup", "3", "--entry", "1")
    code, _, err = run(capsys, *args, "--method", "computed")
    assert code == 2
    assert "a thresholds table by coup to coup 6: the computed method counts the coups before it" in err
    assert len(err.strip().splitlines()) == 1
