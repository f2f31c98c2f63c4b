"""Bets on suits, ranks and card positions against the independent card-by-card oracle (tests/card_oracle.py)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from functools import cache

import card_oracle
import numpy as np
import polars as pl
import pytest

from toolkit.bets.coup_bets import CoupBet, coup_distribution, coup_expected_values
from toolkit.bets.paytable import PayTable, bet_stats, get_bet, make_bet
from toolkit.coup.rules import PUNTO_BANCO
from toolkit.coup.suits import CARDS, SuitedShoe


def _random_shoe(rng: random.Random, types: int, cards: int) -> dict[str, int]:
    chosen = rng.sample(CARDS, types)
    counts = dict.fromkeys(chosen, 1)
    for _ in range(cards - types):
        counts[rng.choice(chosen)] += 1
    return counts


def _suited(shoe: dict[str, int]) -> SuitedShoe:
    return SuitedShoe(tuple(shoe.get(c, 0) for c in CARDS))


def _ev(bet: CoupBet | PayTable, shoe: dict[str, int]) -> Fraction:
    return bet_stats(bet, _suited(shoe) if isinstance(bet, CoupBet) else _suited(shoe).ranks).exact_expected_value


# shoes with pairs of equal cards, equal ranks of different suits, and zero-valued ranks mixed
SHOES = [_random_shoe(random.Random(seed), types, cards) for seed, types, cards in [(1, 5, 9), (2, 6, 10), (3, 7, 9)]]
SHOES.append({"Ks": 3, "Kh": 2, "Qs": 2, "Ts": 1, "3c": 2})  # zero ranks and suits that repeat
SHOES.append({"8s": 2, "8h": 1, "3c": 2, "Ad": 2, "Kc": 2})  # where three giving eight can happen


@pytest.mark.parametrize("name", sorted(card_oracle.ORACLE_BETS))
@pytest.mark.parametrize("shoe", SHOES, ids=[f"shoe{i}" for i in range(len(SHOES))])
def test_catalogue_bet_is_exact_against_the_card_oracle(name: str, shoe: dict[str, int]) -> None:
    bet = get_bet(name)
    expected = card_oracle.expected_value(card_oracle.ORACLE_BETS[name], shoe)
    got = bet_stats(bet, _suited(shoe)).exact_expected_value if isinstance(bet, CoupBet) else None
    if got is None:  # a pay table over the outcome classes: the shoe by rank is all it sees
        got = bet_stats(bet, _suited(shoe).ranks).exact_expected_value
    assert got == expected


POSITIONAL = {
    "red_first_card": (
        CoupBet("red", pl.when(pl.col("player_1_suit").is_in(["h", "d"])).then(1).otherwise(-1)),
        card_oracle.red_first_card,
    ),
    "banker_third_ace": (
        CoupBet("ace3", pl.when(pl.col("banker_3_rank") == "A").then(10).otherwise(-1)),
        card_oracle.banker_third_ace,
    ),
}


@pytest.mark.parametrize("name", sorted(POSITIONAL))
@pytest.mark.parametrize("shoe", SHOES, ids=[f"shoe{i}" for i in range(len(SHOES))])
def test_positional_bets_on_suits_and_ranks_are_exact(name: str, shoe: dict[str, int]) -> None:
    bet, oracle = POSITIONAL[name]
    assert bet_stats(bet, _suited(shoe)).exact_expected_value == card_oracle.expected_value(oracle, shoe)


def test_payouts_mixing_suits_ranks_and_totals_on_all_positions() -> None:
    """Suits at two positions, ranks at two more, values and totals at all six, against the oracle.

    Two bets rather than one: a single bet naming the card of every position is compiled over
    five million rows (3 GB), where these two need twenty thousand between them.
    """
    on_suits = CoupBet(
        "suits",
        pl.when(pl.col("player_1_suit") == pl.col("banker_2_suit")).then(pl.col("player_total") % 3).otherwise(-1),
    )
    on_ranks = CoupBet(
        "ranks",
        pl.when((pl.col("player_3_rank") == pl.col("banker_1_rank")) & (pl.col("banker_3_value") > 4))
        .then(7)
        .when(pl.col("player_2_value") == pl.col("banker_1_value"))
        .then(pl.col("player_2_value"))
        .otherwise(-1),
    )

    def suits_oracle(d: card_oracle.Deal) -> int:
        return d.player_total % 3 if d.player_1[1] == d.banker_2[1] else -1

    def ranks_oracle(d: card_oracle.Deal) -> int:
        third = d.player_3 is not None and d.banker_3 is not None
        if third and d.player_3[0] == d.banker_1[0] and card_oracle.value(d.banker_3) > 4:
            return 7
        if card_oracle.value(d.player_2) == card_oracle.value(d.banker_1):
            return card_oracle.value(d.player_2)
        return -1

    for bet, oracle in ((on_suits, suits_oracle), (on_ranks, ranks_oracle)):
        for shoe in SHOES[:3]:
            assert bet_stats(bet, _suited(shoe)).exact_expected_value == card_oracle.expected_value(oracle, shoe)
    positions = {f.rsplit("_", 1)[0] for bet in (on_suits, on_ranks) for f in bet.fields if f.split("_")[1].isdigit()}
    assert positions == {f"{hand}_{i}" for hand in ("player", "banker") for i in (1, 2, 3)}


_ALL_RED = " AND ".join(
    f"({hand}_cards = 2 OR {hand}_3_colour = 'red')" if i == 3 else f"{hand}_{i}_colour = 'red'"
    for hand in ("player", "banker")
    for i in (1, 2, 3)
)
#: Bets priced by label events, with their oracles: a third card's suit, every dealt card's colour, the ranks of all
#: six positions (written as pay-table rows, so that their rows settle as soon as a label decides them).
LABEL_BETS = {
    "third_card_heart": (
        [("player_3_suit = 'h'", 3)],
        lambda d: 3 if d.player_3 is not None and d.player_3[1] == "h" else -1,
    ),
    "every_card_red": ([(_ALL_RED, 20)], lambda d: 20 if all(c[1] in "hd" for c in d.player + d.banker) else -1),
    "mirrored_ranks": (
        [("player_1_rank = banker_1_rank AND player_2_rank = banker_2_rank AND player_3_rank = banker_3_rank", 500)],
        lambda d: 500 if d.player_3 and d.banker_3 and [c[0] for c in d.player] == [c[0] for c in d.banker] else -1,
    ),
}


@cache
def _label_bet(name: str) -> CoupBet:
    """One bet of each: compiled once per test process (every card's colour takes seconds)."""
    bet = make_bet(name, LABEL_BETS[name][0])
    assert isinstance(bet, CoupBet)
    return bet


@pytest.mark.parametrize("name", sorted(LABEL_BETS))
@pytest.mark.parametrize("shoe", SHOES, ids=[f"shoe{i}" for i in range(len(SHOES))])
def test_label_event_bets_are_exact_against_the_oracle(name: str, shoe: dict[str, int]) -> None:
    oracle = LABEL_BETS[name][1]
    bet = _label_bet(name)
    assert isinstance(bet, CoupBet)
    assert bet.evaluator == "label events"
    assert bet_stats(bet, _suited(shoe)).exact_expected_value == card_oracle.expected_value(oracle, shoe)


@pytest.mark.parametrize("name", [*sorted(LABEL_BETS), "super_tie"])
def test_label_events_in_floats_are_within_their_bound_of_exact(name: str) -> None:
    """Suited shoes and depleted shoes by rank (read suit-blind): the batched floats within the table's rounding
    bound of the exact expectations, and the bound a rounding bound (tiny), not a tolerance."""
    bet = get_bet(name) if name == "super_tie" else _label_bet(name)
    table = bet.compiled()
    suited = [_suited(shoe) for shoe in SHOES if sum(shoe.values()) >= 6]
    floats = coup_expected_values(suited, bet)
    for shoe, value in zip(suited, floats, strict=True):
        assert abs(value - float(bet_stats(bet, shoe).exact_expected_value)) <= max(table.bound, 1e-16)
    rng = np.random.default_rng(7)
    ranks = np.vstack([rng.integers(0, 33, size=(3, 13)), np.full((1, 13), 32)])
    floats = coup_expected_values(ranks, bet, decks=8)
    for shoe, value in zip(ranks.tolist(), floats, strict=True):
        assert abs(value - float(bet_stats(bet, shoe, decks=8).exact_expected_value)) <= max(table.bound, 1e-16)
    assert table.bound < 1e-9


def test_exact_signs_of_label_events_settle_in_integers(monkeypatch) -> None:
    """Every expectation within the bound of zero is replaced by its exact value (here: all, by a huge bound)."""
    bet = make_bet("third_card_heart", LABEL_BETS["third_card_heart"][0])
    monkeypatch.setitem(bet._compiled, PUNTO_BANCO, replace(bet.compiled(), bound=1e9))
    ranks = [[3, 2, 4, 2, 3, 5, 2, 4, 6, 3, 2, 4, 3], [32] * 13]
    settled = coup_expected_values(np.array(ranks), bet, decks=8)
    assert settled.tolist() == [float(bet_stats(bet, r, decks=8).exact_expected_value) for r in ranks]


def test_float_and_batched_paths_agree_with_exact() -> None:
    shoe = _suited(SHOES[3])
    for name in ("perfect_pair", "tiger_pair", "three_giving_eight"):
        bet = get_bet(name)
        exact = float(bet_stats(bet, shoe).exact_expected_value)
        assert bet_stats(bet, shoe, exact=False).expected_value == pytest.approx(exact, abs=1e-12)
    ranks = [[32] * 13, [30, 32, 31, 32, 29, 32, 32, 30, 32, 28, 32, 31, 30]]
    bet = get_bet("tiger_pair")
    batched = coup_expected_values(ranks, bet)
    one = [float(bet_stats(bet, r).exact_expected_value) for r in ranks]
    assert batched == pytest.approx(one, abs=1e-12)


def test_a_bet_on_class_fields_is_the_same_as_its_pay_table() -> None:
    """The same rule through the rich engine and through the 1,600-class engine gives the same fraction."""
    expr = pl.when(pl.col("player_pair") & (pl.col("winner") == "banker")).then(11).otherwise(-1)
    rich, plain = CoupBet("pp_b", expr), make_bet("pp_b", expr)
    assert isinstance(plain, PayTable)
    for shoe in (8, [1, 4, 0, 3, 2, 5, 1, 0, 2, 3, 1, 2, 4], [0] * 9 + [3, 2, 1, 2]):
        assert bet_stats(rich, shoe).exact_expected_value == bet_stats(plain, shoe).exact_expected_value


def test_suit_blind_reading_of_a_shoe_by_rank() -> None:
    """A full shoe by rank is the full suited shoe; a depleted one averages the unseen suits of the dealt cards."""
    bet = get_bet("perfect_pair")
    assert bet_stats(bet, 2).exact_expected_value == bet_stats(bet, SuitedShoe.from_decks(2)).exact_expected_value
    # one deck less two kings of unknown suits: the average over the six ways to pick their suits
    full = SuitedShoe.from_decks(1).by_card
    kings = [i for i, c in enumerate(CARDS) if c[0] == "K"]
    total = Fraction(0)
    pairs = [(a, b) for a in kings for b in kings if a < b]
    for a, b in pairs:
        counts = list(full)
        counts[a] -= 1
        counts[b] -= 1
        total += bet_stats(bet, SuitedShoe(tuple(counts))).exact_expected_value
    by_rank = [4] * 12 + [2]
    assert bet_stats(bet, by_rank, decks=1).exact_expected_value == total / len(pairs)


def test_published_perfect_pair_combinations() -> None:
    """Wizard of Odds, "Perfect Pairs (Version 1)" and "(Version 2)", eight decks: ordered four-card counts."""
    p = coup_distribution(get_bet("perfect_pair_v2"), 8)
    total = 7_379_583_120  # the page's total: (416)_4 / 4
    assert p[250] == Fraction(2_101_008, total)
    assert p[25] == Fraction(244_747_776, total)
    assert p[-1] == Fraction(7_132_734_336, total)


def test_errors_name_the_field() -> None:
    with pytest.raises(ValueError, match="unknown field 'player_4_suit'"):
        CoupBet("x", pl.when(pl.col("player_4_suit") == "h").then(1).otherwise(-1))
    with pytest.raises(ValueError, match="undefined"):
        bet_stats(CoupBet("y", pl.when(pl.col("player_3_value") == 1).then(1)), 8)
    positions = ("player_1", "player_2", "banker_1", "banker_2", "player_3")
    every_suit = pl.concat_str([pl.col(f"{p}_suit") for p in positions])
    with pytest.raises(ValueError, match="more than 20,000,000"):
        bet_stats(CoupBet("colours", pl.when(every_suit == "hhhhh").then(100).otherwise(-1)), 8)
    with pytest.raises(ValueError, match="below -1"):
        bet_stats(CoupBet("z", pl.when(pl.col("player_pair")).then(1).otherwise(-2)), 8)


VALUE_BETS = {
    "three_giving_eight": "three_giving_eight",
    "player_third_nine_on_a_tie": [("winner = 'tie' AND player_3_value = 9", 30), ("player_3_value = 9", "1/2")],
    "banker_two_card_total": [("banker_two_card_total >= 7 AND player_1_value = 0", 3)],
}


def _value_bet(name: str) -> CoupBet:
    spec = VALUE_BETS[name]
    bet = get_bet(spec) if isinstance(spec, str) else make_bet(name, spec)
    assert isinstance(bet, CoupBet)
    return bet


@pytest.mark.parametrize("name", list(VALUE_BETS))
def test_a_bet_on_values_takes_the_engine_walk_and_is_exact(name: str) -> None:
    """A bet on card values alone is priced by the engine's walk; floats within its bound of the exact value."""
    bet = _value_bet(name)
    table = bet.compiled()
    assert table.evaluator == "value events"
    rng = random.Random(11)
    ranks = [[rng.randint(0, 4) + 2 for _ in range(13)] for _ in range(12)] + [[32] * 13]
    floats = coup_expected_values(np.array(ranks), bet)
    for shoe, value in zip(ranks, floats, strict=True):
        exact = bet_stats(bet, shoe).exact_expected_value
        assert abs(value - float(exact)) <= max(table.bound, 1e-15)
        assert table.bound < 1e-9  # a rounding bound (about 1e-10 for a 200:1 payout), not a loose tolerance


def test_exact_signs_of_a_bet_on_values_settle_in_integers(monkeypatch) -> None:
    """Every expectation within the bound of zero is replaced by its exact value (here: all, by a huge bound)."""
    bet = _value_bet("three_giving_eight")
    table = bet.compiled()
    # the table under the default tableau (the first key is not it once the bet's patterns were asked for)
    monkeypatch.setitem(bet._compiled, PUNTO_BANCO, replace(table, bound=1e9))
    ranks = [[3, 2, 4, 2, 3, 5, 2, 4, 6, 3, 2, 4, 3], [32] * 13]
    settled = coup_expected_values(np.array(ranks), bet)
    assert settled.tolist() == [float(bet_stats(bet, r).exact_expected_value) for r in ranks]


def test_each_bet_is_compiled_to_its_cheapest_evaluator() -> None:
    assert get_bet("three_giving_eight").evaluator == "value events"
    assert get_bet("perfect_pair").evaluator == "prefix patterns"
    assert get_bet("tiger_pair").evaluator == "prefix patterns"
    third_suit = make_bet("third_heart", [("player_3_suit = 'h'", 3)])
    assert third_suit.evaluator == "label events"
    assert third_suit.compiled().evaluator == "label events"
    assert get_bet("three_giving_eight").compiled().evaluator == "value events"


@pytest.mark.parametrize(("name", "rows", "chunks"), [("tiger_pair", 3_000, 10), ("perfect_pair_v2", 20_000, 300)])
def test_a_table_compiled_in_small_chunks_is_the_same_bet(monkeypatch, name: str, rows: int, chunks: int) -> None:
    """The rows are built a chunk of groups at a time (bounded memory); chunking changes nothing.  Perfect Pairs
    v2 in chunks of 20,000 rows is still some 360 chunks (it was 2,080 of 3,000 rows: five times the CPU)."""
    import toolkit.bets._rows as cb

    whole = get_bet(name)
    whole.compiled()  # with the default chunks, before the patch
    monkeypatch.setattr(cb, "_CHUNK_ROWS", rows)
    started = []
    start = cb._Expansion.start

    def counted(self, groups: np.ndarray) -> None:
        started.append(len(groups))
        start(self, groups)

    monkeypatch.setattr(cb._Expansion, "start", counted)
    chunked = CoupBet(f"{name}_chunked", whole.expr)  # a fresh bet: compiled with the small chunks
    chunked.compiled()
    assert len(started) >= chunks  # chunks of groups, each expanded on its own
    shoe = _suited(SHOES[1])
    assert coup_distribution(chunked, shoe) == coup_distribution(whole, shoe)
    for a, b in zip(chunked.compiled().entries, whole.compiled().entries, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("name", ["perfect_pair", "tiger_pair"])
def test_the_table_drops_its_commonest_payout_and_stays_accurate_on_a_full_shoe(name: str) -> None:
    """Rows are settled early, so the payout to drop is chosen by the coups the rows stand for, not by how many
    rows there are: dropping the wrong one kept 7 million rows of Perfect Pairs and lost 9e-10 in float."""
    bet = get_bet(name)
    float_ev = sum(k * p for k, p in coup_distribution(bet, 8, exact=False).items())
    assert float_ev == pytest.approx(float(bet_stats(bet, 8).exact_expected_value), abs=1e-12)
    assert bet.compiled().default == -1
