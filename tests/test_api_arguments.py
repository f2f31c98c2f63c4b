"""Arguments of the wrong type or value raise TypeError or ValueError naming the argument, never a stray error.

And the inputs that used to be read wrongly without a word: a suited shoe from a mapping, a
payout past a million to one, counts with underscores, a cut card beyond the shoe, control
characters in a bet's name, a bet file with a byte-order mark or not in UTF-8.
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl
import pytest

from toolkit._check import MAX_PAYOUT, payout, plain_text, whole_number
from toolkit.bets.coup_bets import CoupBet
from toolkit.bets.files import _decode, read_bet_file
from toolkit.bets.paytable import PayTable, bet_stats, make_bet
from toolkit.counting.custom import MAX_TAG, parse_tags
from toolkit.coup.cards import Composition
from toolkit.coup.suits import SuitedShoe
from toolkit.dealing.dealer import Dealing
from toolkit.records import simulate_records, write_records
from toolkit.studies.assess import assess_bet
from toolkit.widgets import ShoeExplorer, ShoeStepper

TIE = [("winner = 'tie'", 8)]


def _assess(**options):
    return assess_bet("lucky6", **{"n_shoes": 10, "seed": 1, "progress": False, **options})


@pytest.mark.parametrize(
    ("call", "error", "names"),
    [
        (lambda: _assess(dealing="8 decks"), TypeError, "dealing must be a Dealing"),
        (lambda: _assess(rules="x"), TypeError, "rules must be a Rules"),
        (lambda: _assess(space="x"), TypeError, "space must be a SearchSpace"),
        (lambda: _assess(cut_cards="14"), TypeError, "cut_cards must be a sequence"),
        (lambda: _assess(cut_cards=[14, 1000]), ValueError, "cut_cards 1000"),
        (lambda: _assess(cut_cards=[14.5]), TypeError, "cut_cards must be an integer"),
        (lambda: _assess(dealing=Dealing(coups=20), cut_cards=[14]), ValueError, "dealing.coups"),
        (lambda: ShoeExplorer(8, eor_bet="nope"), ValueError, "eor_bet must be one of the bets shown"),
        (lambda: ShoeExplorer(8, rules="x"), TypeError, "rules must be a Rules"),
        (lambda: ShoeStepper(None), TypeError, "source must be Records, DealtShoes or the path"),
        (lambda: ShoeStepper(5), TypeError, "source must be Records"),
        (lambda: make_bet("x", TIE, description=5), TypeError, "description must be a string"),
        (lambda: make_bet(5, TIE), TypeError, "bet name must be a string"),
        (lambda: make_bet("a\nb", TIE), ValueError, "bet name must not hold control characters"),
        (lambda: make_bet("suited", [("player_suited_pair", 25)], description="x\x1b[2J"), ValueError, "description"),
        (lambda: make_bet("x", [("winner = 'tie'", 1e308)]), ValueError, "a payout must lie within"),
        (lambda: make_bet("x", TIE, default=-1e7), ValueError, "default: a payout must lie within"),
        (lambda: PayTable.from_function("x", lambda o: 10**7), ValueError, "bet 'x': a payout must lie within"),
        (lambda: Composition.from_any("3_2,32,32,32,32,32,32,32,32,128"), ValueError, "written in digits"),
        (lambda: parse_tags("0,0,0,0,0,0,0,0,0," + str(2**63)), ValueError, "tag 10 must lie within"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_bad_argument_is_named(call, error, names) -> None:
    with pytest.raises(error, match=None) as caught:
        call()
    assert names in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_bet_on_coup_fields_past_a_million_is_refused_when_priced() -> None:
    bet = CoupBet("huge", pl.when(pl.col("player_suited_pair")).then(pl.lit(1e7)).otherwise(-1))
    with pytest.raises(ValueError, match="bet 'huge': a payout must lie within"):
        bet_stats(bet, 1)


def test_the_payout_bound_is_a_million_to_one_either_way() -> None:
    assert payout(MAX_PAYOUT, "p") == 10**6
    assert payout("-1000000", "p") == -(10**6)
    assert payout("1/3", "p") == Fraction(1, 3)
    with pytest.raises(ValueError, match=r"p: a payout must lie within -1000000\.\.1000000"):
        payout(10**6 + 1, "p")


@pytest.mark.parametrize("text", ["3_2", "\u0663", "+", "1.0", "0x10", " "])
def test_whole_numbers_are_ascii_digits(text) -> None:
    with pytest.raises(ValueError, match="must be a whole number written in digits"):
        whole_number(text, "count 1")


def test_whole_numbers_take_a_sign_and_spaces() -> None:
    assert [whole_number(t, "n") for t in (" 7", "-3", "+2", "007")] == [7, -3, 2, 7]


@pytest.mark.parametrize("ch", ["\n", "\r", "\t", "\x1b", "\x00", "\u202e", "\u2028", "\x85"])
def test_control_characters_are_refused(ch) -> None:
    with pytest.raises(ValueError, match="name must not hold control characters"):
        plain_text(f"a{ch}b", "name")


def test_plain_text_keeps_unicode_letters() -> None:
    assert plain_text("tigre à 6 — 大", "name") == "tigre à 6 — 大"


def test_tags_up_to_the_bound_are_taken() -> None:
    tags = ",".join(["0"] * 8 + [str(MAX_TAG), str(-MAX_TAG)])
    assert parse_tags(tags)[-2:] == (MAX_TAG, -MAX_TAG)


def test_a_suited_shoe_from_a_mapping_counts_every_card() -> None:
    shoe = SuitedShoe.from_any({"As": 5, "Kh": 3})
    assert shoe.total == 8
    assert shoe.ranks.by_rank[0] == 5
    assert shoe.ranks.by_rank[12] == 3
    with pytest.raises(ValueError, match="keys 'As' and 'as' name one card"):
        SuitedShoe.from_any({"As": 1, "as": 2})
    with pytest.raises(ValueError, match="key 'K'"):
        SuitedShoe.from_any({"K": 1})


def test_an_empty_cut_cards_is_honoured_as_the_dealings_own() -> None:
    a = _assess(n_shoes=20, cut_cards=[], dealing=Dealing(cut_card=26))
    assert sorted(set(a.frames["penetration"]["cut_card"].to_list())) == [26]


def test_cut_cards_past_half_the_shoe_are_played_when_given() -> None:
    a = _assess(n_shoes=20, cut_cards=[300])
    assert sorted(set(a.frames["penetration"]["cut_card"].to_list())) == [14, 300]


def test_the_stepper_reads_a_record_file(tmp_path) -> None:
    path = write_records(simulate_records(1, seed=2), tmp_path / "shoes.csv")
    st = ShoeStepper(str(path), bets=["banker"])
    assert st.steps.n_coups == ShoeStepper(simulate_records(1, seed=2), bets=["banker"]).steps.n_coups
    assert ShoeStepper(path, bets=["banker"]).steps.n_coups == st.steps.n_coups


def test_a_bet_file_with_a_byte_order_mark_is_read(tmp_path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'name = "tie8"\n[[pays]]\nwhen = "winner = \'tie\'"\npays = 8\n')
    assert read_bet_file(path).name == "tie8"


def test_bytes_not_in_utf8_are_named_with_the_file() -> None:
    with pytest.raises(ValueError, match=r"^f\.toml: the bet file is not UTF-8 text \(byte 0xe9 at offset 3\)"):
        _decode(b"caf\xe9", "f.toml")
    assert _decode("caf\u00e9".encode(), "f.toml") == "caf\u00e9"
