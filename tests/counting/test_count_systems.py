"""Count systems (``toolkit.counting.systems``): the published library, tags, validation of the conventions."""

from __future__ import annotations

import polars as pl
import pytest

from toolkit.bets.paytable import get_bet
from toolkit.counting import CountSystem, count_systems, get_count_system
from toolkit.counting.systems import resolve_bet
from toolkit.coup.rules import Rules
from toolkit.edges.reference import load_reference

A_TO_T = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")

#: Tags as published, A, 2, ..., 9, T (see data/reference/count_systems.csv and the sources there).
PUBLISHED_TAGS = {
    "dragon7": (0, 0, 0, -1, -1, -1, -1, 2, 2, 0),  # Jacobson, "Co-card counting the Dragon and Panda side bets"
    "panda8": (1, 1, -2, -2, -2, -1, -1, -2, 4, 1),  # same post, count credited to Wizard of Odds
    "thorp_natural9": (1, 1, 1, 1, 1, 1, 1, 1, -12, 1),  # Jacobson, "Card counting the Natural 9 and Natural 8"
    "ten_count": (0, 1, 1, 1, 1, 1, 1, 1, 1, -2),  # Jacobson, "Baccarat Tie bet flimflam"
    "how_dragon7": (1, 0, 0, -1, -1, -1, -1, 2, 2, 0),  # S. How, "Unbalanced Dragon 7 Count" (2012)
    "three_giving_eight": (1, 1, -3, 1, 1, 1, 1, -8, 1, 1),  # Jacobson, "Baccarat Side Bets"
    "big_tiger": (0, 0, -1, -1, -1, -2, 1, 2, 2, 0),  # Jacobson, "Card Counting the Big Tiger Baccarat Side Bet"
}
REFERENCE_NAMES = {
    "dragon7": "dragon7_jacobson",
    "panda8": "panda8_wizard",
    "thorp_natural9": "thorp_natural9",
    "ten_count": "ten_count_jstat",
    "how_dragon7": "dragon7_how_unbalanced",
    "three_giving_eight": "three_giving_eight_jacobson",
    "big_tiger": "big_tiger_jacobson",
}


@pytest.mark.parametrize("name", list(PUBLISHED_TAGS))
def test_library_systems_carry_the_published_tags(name: str) -> None:
    system = get_count_system(name)
    assert (*tuple(system.tags[:9]), system.tags[9]) == PUBLISHED_TAGS[name]
    assert system.tags[9:] == (PUBLISHED_TAGS[name][9],) * 4
    assert system.source
    row = load_reference("count_systems").filter(pl.col("system") == REFERENCE_NAMES[name]).row(0, named=True)
    assert tuple(int(row[f"tag_{r}"]) for r in A_TO_T) == PUBLISHED_TAGS[name]
    assert system.balanced == row["balanced"]
    assert system.initial_count == int(row["initial_running_count"])
    assert system.bet == row["bet"]


def test_library_conventions() -> None:
    d7 = get_count_system("dragon7")
    assert (d7.divisor, d7.per, d7.rounding, d7.count_burn_card, d7.trigger, d7.threshold) == (
        "decks_left",
        "deck",
        "none",
        True,
        "true",
        4.0,
    )
    how = get_count_system("how_dragon7")
    assert not how.balanced
    assert how.full_shoe_total(8) == 32  # so the initial -32 ends a fully counted shoe at 0
    assert (how.trigger, how.threshold, how.count_burn_card) == ("running", 0.0, True)
    assert get_count_system("panda8").threshold == 11.0
    assert get_count_system("thorp_natural9").threshold is None
    assert get_count_system("ten_count").threshold is None
    assert [s.name for s in count_systems()] == list(PUBLISHED_TAGS)


def test_unknown_system_lists_the_names() -> None:
    with pytest.raises(
        ValueError, match="known systems: dragon7, panda8, thorp_natural9, ten_count, how_dragon7, three_giving_eight"
    ):
        get_count_system("hilo")
    with pytest.raises(TypeError):
        get_count_system(7)  # type: ignore[arg-type]


def test_tags_by_rank_by_value_and_mapping_agree() -> None:
    by_rank = CountSystem("a", (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0))
    by_value = CountSystem("b", (0, 0, 0, 0, -1, -1, -1, -1, 2, 2))  # value 0 first, as Composition.by_value
    mapping = CountSystem("c", {"4": -1, "5": -1, "6": -1, "7": -1, "8": 2, "9": 2})
    by_value_map = CountSystem("d", {4: -1, 5: -1, 6: -1, 7: -1, 8: 2, 9: 2})
    assert by_rank.tags == by_value.tags == mapping.tags == by_value_map.tags == get_count_system("dragon7").tags


@pytest.mark.parametrize(
    ("changes", "error", "match"),
    [
        ({"tags": (1, 2, 3)}, ValueError, "13 tags by rank"),
        ({"tags": (1.5,) * 13}, TypeError, "tag 1 must be an integer"),
        ({"name": "not an identifier"}, ValueError, "identifier"),
        ({"divisor": "decks"}, ValueError, "divisor must be one of decks_left, unseen"),
        ({"per": "quarter"}, ValueError, "per must be one of"),
        ({"rounding": "up"}, ValueError, "rounding must be one of"),
        ({"trigger": "both"}, ValueError, "trigger must be one of"),
        ({"bet": "roulette"}, ValueError, "unknown bet 'roulette'"),
        ({"threshold": float("nan")}, ValueError, "finite"),
        ({"threshold": "4"}, TypeError, "threshold must be a number"),
        ({"initial_count": 1.5}, TypeError, "initial_count"),
        ({"count_burn_card": "yes"}, TypeError, "count_burn_card"),
    ],
)
def test_count_system_validation_names_the_rule(changes: dict, error: type, match: str) -> None:
    fields = {"name": "mine", "tags": (0,) * 13, **changes}
    with pytest.raises(error, match=match):
        CountSystem(**fields)


def test_resolve_bet_takes_a_bet_or_a_name_under_the_rules() -> None:
    bet = get_bet("banker")
    assert resolve_bet(bet) is bet
    assert resolve_bet("banker") == bet
    no_commission = Rules(commission=0)
    assert resolve_bet("banker", no_commission) == get_bet("banker", no_commission)
    with pytest.raises(ValueError, match="unknown bet"):
        resolve_bet("roulette")
    with pytest.raises(TypeError, match="a bet is a name or a Bet"):
        resolve_bet(3)  # type: ignore[arg-type]
