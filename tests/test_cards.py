"""Cards, ranks and compositions: parsing, normalisation, removal and the error messages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import RANKS, card_lists, card_strings, compositions, scaled, small_compositions

from toolkit.coup.cards import RANK_VALUES, Composition, card_value, parse_card, parse_cards


# --------------------------------------------------------------------- parsing
@given(card_strings())
@settings(max_examples=scaled(200), deadline=None)
def test_parse_card_reads_every_spelling(card):
    text, rank = card
    assert parse_card(text) == rank


@given(card_lists())
@settings(max_examples=scaled(50), deadline=None)
def test_parse_cards_keeps_order(cards):
    assert parse_cards([text for text, _ in cards]) == [rank for _, rank in cards]


def test_card_values_follow_the_rules():
    # ace 1, pips at face value, ten and faces 0
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}
    assert {rank: card_value(rank) for rank in RANKS} == expected
    assert tuple(expected[r] for r in RANKS) == RANK_VALUES
    assert card_value("10h") == 0
    assert [card_value(i) for i in range(13)] == list(RANK_VALUES)
    with pytest.raises(ValueError, match=r"0\.\.12"):
        card_value(13)


@pytest.mark.parametrize("bad", ["1", "11", "X", "Qx", "", "AA", "K h s", "0"])
def test_unknown_card_names_the_card(bad):
    with pytest.raises(ValueError, match="unknown card") as err:
        parse_card(bad)
    assert repr(bad) in str(err.value)


@pytest.mark.parametrize("bad", [5, None, 1.0, ("A",)])
def test_non_string_card_is_a_type_error(bad):
    with pytest.raises(TypeError, match="must be a string"):
        parse_card(bad)


def test_bad_card_in_a_list_names_card_and_position():
    with pytest.raises(ValueError, match=r"card 3: unknown card 'Z'") as err:
        parse_cards(["Qh", "9", "Z", "K"])
    assert "'Z'" in str(err.value)
    with pytest.raises(ValueError, match=r"card 2: unknown card 'Z'"):
        Composition.from_cards(["A", "Z"])
    with pytest.raises(ValueError, match=r"card 2: unknown card 'Xs'"):
        Composition.from_any("Kh Xs 9")
    with pytest.raises(ValueError, match=r"card 1: unknown card"):
        Composition.from_decks(1).remove("Z")
    with pytest.raises(TypeError, match=r"card 2: a card must be a string"):
        parse_cards(["A", 7])


# ------------------------------------------------------------------ round trips
@given(compositions())
@settings(max_examples=scaled(60), deadline=None)
def test_from_any_round_trips(counts):
    comp = Composition(counts)
    assert Composition.from_any(comp) is comp
    assert Composition.from_any(list(counts)) == comp
    assert Composition.from_any(np.array(counts)) == comp
    assert Composition.from_any(", ".join(map(str, counts))) == comp
    assert Composition.from_any(comp.as_dict()) == comp
    assert Composition.from_any({rank: c for rank, c in zip(RANKS, counts, strict=True) if c}) == comp
    cards = [rank for rank, c in zip(RANKS, counts, strict=True) for _ in range(c)]
    assert Composition.from_any(cards) == comp
    assert Composition.from_any(" ".join(cards)) == comp
    assert comp.total == sum(counts) == len(comp)
    assert comp.decks == pytest.approx(sum(counts) / 52)


@given(compositions())
@settings(max_examples=scaled(60), deadline=None)
def test_value_counts_round_trip(counts):
    comp = Composition(counts)
    values = comp.by_value
    assert len(values) == 10
    assert values[0] == sum(counts[9:])
    assert values[1:] == counts[:9]
    from_values = Composition.from_any(list(values))
    assert from_values.by_value == values
    zeros = from_values.by_rank[9:]
    assert max(zeros) - min(zeros) <= 1  # zero-valued cards split evenly
    assert list(zeros) == sorted(zeros, reverse=True)  # remainder to the earlier ranks
    assert Composition.from_any(dict(enumerate(values))).by_value == values


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_decks_in_every_spelling(decks):
    full = Composition((4 * decks,) * 13)
    for spelling in (decks, np.int64(decks), str(decks), f"{decks} decks", f" {decks} DECK ", f"{decks}deck"):
        assert Composition.from_any(spelling) == full
    assert Composition.from_decks(decks).total == 52 * decks
    assert Composition.from_decks(decks).by_value == (16 * decks,) + (4 * decks,) * 9


def test_mapping_spellings():
    assert Composition.from_any({"A": 2, "10": 2, "k": 1}).by_rank == (2,) + (0,) * 8 + (2, 0, 0, 1)
    # two spellings of one rank conflict (which count is meant?): refused, never summed
    for mapping in ({"A": 2, "10": 1, "k": 1, "T": 1}, {"T": 4, "10": -2}, {"k": 1, "K": 1}):
        with pytest.raises(ValueError, match="both name rank"):
            Composition.from_any(mapping)
    assert Composition.from_any({9: 3, 0: 5}).by_rank == (0,) * 8 + (3, 2, 1, 1, 1)
    assert Composition.from_any({2: 1}).by_rank[1] == 1  # int keys are values


# ------------------------------------------------------------ removal and adding
@given(compositions(), st.data())
@settings(max_examples=scaled(60), deadline=None)
def test_remove_then_add_is_the_identity(counts, data):
    comp = Composition(counts)
    present = [rank for rank, c in zip(RANKS, counts, strict=True) for _ in range(c)]
    taken = data.draw(st.lists(st.sampled_from(present), max_size=min(6, len(present))))
    # draw without replacement: keep only as many of each rank as the shoe holds
    chosen = []
    left = dict(comp.as_dict())
    for rank in taken:
        if left[rank]:
            chosen.append(rank)
            left[rank] -= 1
    assert comp.can_remove(*chosen)
    smaller = comp.remove(*chosen)
    assert smaller.total == comp.total - len(chosen)
    assert smaller.add(*chosen) == comp
    assert comp.add(*chosen).remove(*chosen) == comp
    assert comp.remove(chosen) == smaller  # one iterable works as well as many arguments


@given(small_compositions())
@settings(max_examples=scaled(40), deadline=None)
def test_impossible_removal_is_refused(counts):
    comp = Composition(counts)
    rank = next(r for r, c in zip(RANKS, counts, strict=True) if c == min(counts))
    too_many = [rank] * (min(counts) + 1)
    assert not comp.can_remove(*too_many)
    with pytest.raises(ValueError, match=f"cannot remove {len(too_many)} card\\(s\\) of rank {rank}"):
        comp.remove(*too_many)


def test_remove_value():
    comp = Composition((1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 2, 0))
    assert comp.remove_value(0).by_rank[9:] == (1, 2, 2, 0)  # from the most plentiful zero rank (J)
    assert comp.remove_value(1).by_rank[0] == 0
    assert comp.remove_value(0, 6).by_value[0] == 0
    with pytest.raises(ValueError, match="none left"):
        comp.remove_value(2)
    with pytest.raises(ValueError, match="none left"):
        comp.remove_value(0, 7)
    with pytest.raises(ValueError, match=r"0\.\.9"):
        comp.remove_value(10)


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "bad",
    [
        [4] * 12 + [-1],
        [-2] + [4] * 9,
        {"A": -1},
        {3: -1},
        "4,4,4,4,4,4,4,4,4,-1",
    ],
)
def test_negative_counts_are_refused(bad):
    with pytest.raises(ValueError, match="negative"):
        Composition.from_any(bad)


def test_negative_count_names_the_rank():
    with pytest.raises(ValueError, match="count of rank K is negative"):
        Composition((4,) * 12 + (-1,))
    with pytest.raises(ValueError, match="count of value 0 is negative"):
        Composition.from_values([-1] + [4] * 9)


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        ([4] * 12, ValueError, "10 counts by value .* or 13 counts by rank"),
        ("4,4,x", ValueError, r"count 3 \('x'\)"),
        (True, TypeError, "cannot make a shoe"),
        (1.5, TypeError, "cannot make a shoe"),
        ([1, "A"], TypeError, "only integer counts or only card strings"),
        ([4.0] * 13, TypeError, "only integer counts or only card strings"),
        (0, ValueError, "at least 1"),
        ({20: 1}, ValueError, "not 0..9"),
    ],
)
def test_bad_shoes_are_refused_with_a_reason(bad, error, message):
    with pytest.raises(error, match=message):
        Composition.from_any(bad)


def test_bad_count_types():
    with pytest.raises(TypeError, match="count of rank A must be an integer"):
        Composition((1.0,) + (4,) * 12)
    with pytest.raises(TypeError, match="must be an integer"):
        Composition((True,) + (4,) * 12)
    with pytest.raises(ValueError, match="13 counts"):
        Composition((4,) * 10)
    with pytest.raises(TypeError, match="number of decks must be an integer"):
        Composition.from_decks(2.0)


@pytest.mark.parametrize("cards", [0, 1, 5])
def test_require_coup_says_a_coup_may_need_six(cards):
    comp = Composition((cards,) + (0,) * 12)
    with pytest.raises(ValueError, match="a coup may need six") as err:
        comp.require_coup()
    assert f"holds {cards} card(s)" in str(err.value)
    Composition((6,) + (0,) * 12).require_coup()


def test_composition_is_a_frozen_fact():
    comp = Composition.from_decks(1)
    with pytest.raises(AttributeError):
        comp.by_rank = (0,) * 13
    assert hash(comp) == hash(Composition.from_any(1))
    assert comp.by_rank == tuple(int(c) for c in Composition(np.full(13, 4)).by_rank)
    assert str(Composition.from_cards(["A", "K", "K"])) == "Composition(3 cards; A:1 K:2)"


def test_random_removal_takes_exactly_n_cards_that_were_there() -> None:
    import numpy as np

    from toolkit.coup.cards import Composition

    full = Composition.from_decks(1)
    rng = np.random.default_rng(5)
    for n in (0, 1, 30, 52):
        left = full.random_removal(n, rng)
        assert left.total == 52 - n
        assert all(0 <= c <= f for c, f in zip(left.by_rank, full.by_rank, strict=True))
    assert full.random_removal(10, seed=3) == full.random_removal(10, seed=3)
    with pytest.raises(ValueError, match="cannot remove 53"):
        full.random_removal(53)


def test_remove_value_refuses_bad_arguments():
    shoe = Composition.from_decks(8)
    with pytest.raises(ValueError, match="remove_value: count must be a non-negative integer, got -3"):
        shoe.remove_value(1, -3)
    with pytest.raises(TypeError, match=r"remove_value: count must be an integer, got 2\.5"):
        shoe.remove_value(1, 2.5)
    with pytest.raises(TypeError, match="remove_value: value must be an integer"):
        shoe.remove_value("1")
    with pytest.raises(ValueError, match=r"remove_value: value must be 0\.\.9, got 10"):
        shoe.remove_value(10)
    assert shoe.remove_value(1, 0) == shoe
