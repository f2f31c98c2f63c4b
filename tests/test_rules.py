"""The tableau as data against the rulebook text, and the validation of rules."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import reference_enumerator as ref

from toolkit.coup.rules import MAX_TIE_PAYS, PUNTO_BANCO, Rules, Tableau, as_fraction

NON_NATURAL = range(8)


@pytest.mark.parametrize("total", NON_NATURAL)
def test_player_rule_matches_the_rulebook(total):
    assert PUNTO_BANCO.player_draws(total) is ref.player_draws(total)


@pytest.mark.parametrize("third", [None, *range(10)])
@pytest.mark.parametrize("total", NON_NATURAL)
def test_banker_rule_matches_the_rulebook(total, third):
    assert PUNTO_BANCO.banker_draws(total, third) is ref.banker_draws(total, third)


def test_tableau_spot_checks():
    # the cells players quote most often
    assert PUNTO_BANCO.banker_draws(3, 8) is False
    assert PUNTO_BANCO.banker_draws(3, 9) is True
    assert PUNTO_BANCO.banker_draws(6, None) is False
    assert PUNTO_BANCO.banker_draws(5, None) is True
    assert PUNTO_BANCO.banker_draws(6, 6) is True
    assert PUNTO_BANCO.banker_draws(4, 1) is False
    assert PUNTO_BANCO.banker_draws(7, 7) is False
    assert PUNTO_BANCO.player_draws(5) is True
    assert PUNTO_BANCO.player_draws(6) is False


def test_with_banker_changes_exactly_one_cell():
    changed = PUNTO_BANCO.with_banker(5, 3, True, name="draw 5 v 3")
    assert changed.name == "draw 5 v 3"
    diffs = [(t, c) for t in range(10) for c in range(11) if changed.banker[t][c] != PUNTO_BANCO.banker[t][c]]
    assert diffs == [(5, 3)]
    stood = PUNTO_BANCO.with_banker(6, None, True)
    assert stood.banker_draws(6, None) is True
    assert stood.name == "punto banco (modified)"
    assert stood.player == PUNTO_BANCO.player
    assert PUNTO_BANCO.banker_draws(6, None) is False  # the original is untouched


def test_with_player_changes_exactly_one_cell():
    changed = PUNTO_BANCO.with_player(5, False)
    assert [t for t in range(10) if changed.player[t] != PUNTO_BANCO.player[t]] == [5]
    assert changed.banker == PUNTO_BANCO.banker
    assert changed != PUNTO_BANCO
    assert changed.with_player(5, True).player == PUNTO_BANCO.player


def test_tableau_is_hashable_data():
    assert Tableau() == PUNTO_BANCO
    assert hash(Tableau()) == hash(PUNTO_BANCO)
    assert Tableau(player=[1] * 6 + [0] * 4).player == PUNTO_BANCO.player  # normalised to bools
    with pytest.raises(AttributeError):
        PUNTO_BANCO.name = "x"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"player": (True,) * 9}, "10 entries"),
        ({"banker": ((True,) * 11,) * 9}, "10 rows"),
        ({"banker": ((True,) * 10,) * 10}, "11 entries"),
    ],
)
def test_bad_tableau_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Tableau(**kwargs)


def test_default_rules():
    rules = Rules()
    assert rules.decks == 8
    assert rules.commission == Fraction(1, 20)
    assert rules.tie_pays == 8
    assert rules.tableau is PUNTO_BANCO


def test_rules_normalise_numbers_to_fractions():
    rules = Rules(decks=6, commission=0.04, tie_pays="9")
    assert rules.commission == Fraction(1, 25)
    assert rules.tie_pays == Fraction(9)
    assert isinstance(rules.commission, Fraction)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decks": 0}, "decks must be a positive integer"),
        ({"commission": 1}, r"commission must be in \[0, 1\)"),
        ({"commission": -0.01}, r"commission must be in \[0, 1\)"),
        ({"tie_pays": 0}, "tie_pays must be positive"),
        ({"tie_pays": "abc"}, "'abc' is not a number"),
    ],
)
def test_bad_rules_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decks": 2.0}, r"Rules\.decks must be an integer, got 2\.0"),
        ({"decks": True}, r"Rules\.decks must be an integer, got True"),
        ({"commission": None}, r"Rules\.commission: expected a number"),
        ({"tableau": "x"}, r"Rules\.tableau must be a Tableau, got str 'x'"),
    ],
)
def test_rules_of_the_wrong_type_are_type_errors(kwargs, message):
    with pytest.raises(TypeError, match=message):
        Rules(**kwargs)


@pytest.mark.parametrize("tie", [1e308, "1e400", MAX_TIE_PAYS + 1])
def test_a_tie_payout_beyond_the_limit_is_refused(tie):
    with pytest.raises(ValueError, match="at most 1,000,000 to one"):
        Rules(tie_pays=tie)


def test_a_tie_payout_at_the_limit_gives_finite_odds():
    from toolkit.bets.paytable import edge_table

    table = edge_table(8, rules=Rules(tie_pays=MAX_TIE_PAYS))
    assert table["expected_value"].is_finite().all()


def test_as_fraction():
    assert as_fraction(0.95) == Fraction(19, 20)
    assert as_fraction("1/2") == Fraction(1, 2)
    assert as_fraction(" 0.54 ") == Fraction(27, 50)
    assert as_fraction(3) == 3
    assert as_fraction(Fraction(2, 3)) == Fraction(2, 3)
    assert as_fraction(np.float32(0.5)) == Fraction(1, 2)
    assert as_fraction(np.int64(3)) == 3
    with pytest.raises(TypeError, match="expected a number"):
        as_fraction(True)
    with pytest.raises(TypeError, match="expected a number"):
        as_fraction(None)
    with pytest.raises(ValueError, match="not a number"):
        as_fraction("one half")


def test_as_fraction_accepts_numpy_float64():
    # numpy float64 payouts or commissions (e.g. from an array) must work like Python floats
    assert as_fraction(np.float64(0.95)) == Fraction(19, 20)
    assert Rules(commission=np.float64(0.05)).commission == Fraction(1, 20)


def test_a_huge_tie_payout_is_shown_short():
    from fractions import Fraction

    with pytest.raises(ValueError, match=r"got 1\.000e\+400$"):
        Rules(tie_pays=Fraction(10) ** 400)
