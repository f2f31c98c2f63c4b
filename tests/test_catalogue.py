"""The side-bet catalogue against published figures, the combinatorial-analysis table, and bets in files."""

from __future__ import annotations

from fractions import Fraction
from math import perm

import polars as pl
import pytest

from toolkit.bets.ca import ca_summary, ca_table
from toolkit.bets.catalogue import catalogue_names
from toolkit.bets.coup_bets import CoupBet
from toolkit.bets.paytable import PayTable, bet_from_file, bet_names, bet_stats, get_bet, make_bet
from toolkit.coup.suits import SuitedShoe
from toolkit.edges.reference import compare_published, load_reference


@pytest.mark.parametrize(
    ("bet", "decks", "printed", "source"),
    [
        ("perfect_pair", 8, "13.03", 'Wizard of Odds, "Perfect Pairs (Version 1)"'),
        ("perfect_pair", 6, "17.07", 'Wizard of Odds, "Perfect Pairs (Version 1)"'),
        ("perfect_pair_v2", 8, "6.62", 'Wizard of Odds, "Perfect Pairs (Version 2)"'),
        ("lucky6", 8, "11.70", 'Wizard of Odds, "Lucky 6", Las Vegas pay table'),
        ("tiger", 8, "16.68", 'Wizard of Odds, "Lucky 6", Macau pay table (12 and 20)'),
        ("three_giving_eight", 8, "8.682", 'E. Jacobson, "Baccarat Side Bets", advancedadvantageplay.com'),
        ("eighty_eight", 8, "7.372", 'E. Jacobson, "Baccarat Side Bets"'),
        ("nine_over_seven", 8, "8.103", 'E. Jacobson, "Baccarat Side Bets"'),
        ("big_tiger", 8, "15.2533", 'E. Jacobson, "Card Counting the Big Tiger Baccarat Side Bet" (2024)'),
        ("four_cards", 8, "5.283", 'Wizard of Odds, "Baccarat Side Bets", 4-5-6'),
        ("super_tie", 8, "5.9716", 'Wizard of Odds, "Super Tie", pay table 1'),
    ],
)
def test_published_house_edges(bet: str, decks: int, printed: str, source: str) -> None:
    edge = -bet_stats(get_bet(bet), decks).exact_expected_value * 100
    half = Fraction(1, 2 * 10 ** len(printed.split(".")[1]))
    assert abs(edge - Fraction(printed)) <= half, source


def test_lucky6_combinations_are_the_published_integers() -> None:
    """Wizard of Odds, "Lucky 6": 186,173,936,904,192 two-card and 83,058,367,551,488 three-card winning 6s."""
    rows = ca_table("lucky6", 8)
    assert rows["combinations"].to_list() == [83_058_367_551_488, 186_173_936_904_192, 4_729_165_971_047_680]


def test_super_tie_combinations_are_the_published_integers() -> None:
    """Wizard of Odds, "Super Tie", pay table 1 (eight decks): the combinations of each line, digit for digit.

    The page prints 4,522,770,849,030,140 for "no tie", its last digits rounded: the total it prints,
    4,998,398,275,503,360 (= (416)_6), less the three ties gives ...144, which is what the toolkit finds.
    """
    rows = ca_table("super_tie", 8)
    combos = dict(zip(rows["pays"].to_list(), rows["combinations"].to_list(), strict=True))
    assert combos[100] == 1_326_729_820_672
    assert combos[25] == 42_861_591_369_728
    assert combos[7] == 431_439_105_282_816
    assert combos[-1] == 4_998_398_275_503_360 - 1_326_729_820_672 - 42_861_591_369_728 - 431_439_105_282_816


def test_approximate_rows_are_within_twice_their_printed_precision() -> None:
    """Rows printed from a rounded intermediate (see their notes) still sit within two units of the last digit."""
    table = compare_published(tables=["side_bets"]).join(load_reference("side_bets"), on="figure")
    rows = table.filter(pl.col("role") == "approximate")
    assert rows.height == 3
    for row in rows.iter_rows(named=True):
        digits = len(row["printed"].split(".")[1])
        assert abs(float(row["toolkit"]) - float(row["printed"])) <= 2 * 10**-digits, row["figure"]


def test_every_catalogue_bet_is_known_and_priced() -> None:
    assert set(catalogue_names()) <= set(bet_names())
    kinds = {name: type(get_bet(name)).__name__ for name in catalogue_names()}
    # only the bets on suits, ranks across hands and positions need the rich engine
    assert {n for n, k in kinds.items() if k == "CoupBet"} == {
        "perfect_pair",
        "perfect_pair_v2",
        "tiger_pair",
        "three_giving_eight",
        "super_tie",
    }


@pytest.mark.parametrize("bet", ["banker", "dragon7", "tiger_pair", "perfect_pair_v2", "three_giving_eight"])
@pytest.mark.parametrize("shoe", [8, 1, [3, 4, 2, 5, 4, 3, 2, 1, 4, 4, 2, 3, 4]])
def test_ca_table_sums_to_the_six_card_total_and_to_the_ev(bet: str, shoe: object) -> None:
    summary = ca_summary(bet, shoe)
    rows = summary.rows
    n = 416 if shoe == 8 else 52 if shoe == 1 else sum(shoe)  # type: ignore[arg-type]
    assert sum(rows["combinations"].to_list()) == perm(n, 6) == summary.total_combinations
    ev = bet_stats(get_bet(bet), shoe).exact_expected_value
    assert sum(rows["return"]) == pytest.approx(float(ev), abs=1e-12)
    assert summary.house_edge == pytest.approx(-float(ev), abs=1e-15)
    payload = summary.as_dict()
    assert set(payload) >= {"bet", "rows", "house_edge", "std_dev", "hit_frequency"}
    assert set(payload["rows"][0]) == {"outcome", "pays", "combinations", "probability", "return"}


def test_ca_keeps_a_pay_row_that_cannot_happen_with_0_combinations() -> None:
    """Without eights in the shoe, 3 Giving 8's 200:1 row cannot happen: shown, with 0 combinations."""
    no_eights = [4, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4]
    rows = ca_table("three_giving_eight", no_eights)
    assert rows["pays"].to_list() == [200, -1]
    assert rows["combinations"].to_list() == [0, perm(48, 6)]
    assert rows["probability"][0] == 0.0
    # on a full shoe it happens: the same two rows, both with combinations
    assert ca_table("three_giving_eight", 1)["combinations"].min() > 0
    # a row no coup can satisfy, in a bet of rows
    impossible = "player_total = 9 AND banker_total = 9 AND winner = 'player'"
    never = make_bet("never", [(impossible, 50), ("winner = 'tie'", 8)])
    assert ca_table(never, 1)["pays"].to_list() == [50, 8, -1]
    assert ca_table(never, 1)["combinations"][0] == 0


def test_ca_on_a_52_card_shoe() -> None:
    shoe = SuitedShoe.from_cards(["Ks", "Ks", "Kh", "7d", "7d", "3c", "2s", "9h", "9h", "Qs"])
    rows = ca_table("perfect_pair", shoe)
    assert sum(rows["combinations"].to_list()) == perm(10, 6)


def test_make_bet_takes_the_fast_engine_when_it_can() -> None:
    assert isinstance(make_bet("t", [("winner = 'tie' AND player_total = 6", 45)]), PayTable)
    assert isinstance(make_bet("s", [("banker_1_suit = 'h'", 3)]), CoupBet)


BET_FILE = """
name = "three8_file"
description = "Banker's two-card 3 and Player's third card an 8"
default = -1

[[pays]]
when = "banker_two_card_total = 3 AND player_3_value = 8"
pays = 200
"""


def test_a_bet_in_a_file_is_the_catalogue_bet(tmp_path) -> None:
    path = tmp_path / "three8.toml"
    path.write_text(BET_FILE)
    bet = bet_from_file(str(path))
    assert bet.name == "three8_file"
    assert bet_stats(bet, 8).exact_expected_value == bet_stats("three_giving_eight", 8).exact_expected_value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'name = "x"\n[[pays]]\nwhen = "plaer_total = 3"\npays = 2\n',
            "row 1, condition 'plaer_total = 3': column 1: unknown field 'plaer_total' "
            "\\(did you mean player_total\\?\\)",
        ),
        (
            'name = "x"\n[[pays]]\nwhen = "player_total = = 3"\npays = 2\n',
            "row 1, condition 'player_total = = 3': column 16: cannot parse",
        ),
        ('name = "x"\n[[pays]]\nwhen = "player_total = 3"\npays = "lots"\n', "row 1"),
        ('name = "x"\ncolour = 1\n[[pays]]\nwhen = "natural"\npays = 2\n', "unknown key 'colour'"),
        ('name = "x"\n', "at least one"),
        ("name = \n", "not valid TOML"),
        ('name = "x"\n[[pays]]\nwhen = "natural"\n', "exactly 'when' and 'pays'"),
    ],
)
def test_bad_bet_files_get_located_errors(tmp_path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as err:
        bet_from_file(str(path))
    assert str(path) in str(err.value)
