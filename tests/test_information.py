"""The partial-information engine (edge sorting, flashed cards) against an independent deal, known cards and Jacobson.

The oracle below imports nothing from the toolkit: it deals six ordered cards one by one from the
counts of a shoe (a recursive tree of chance nodes), plays the coup with the rulebook tableau of
``tests/reference_enumerator.py`` (written out there with no toolkit code), sees the group of the
card at each observed position (dealt or not: the shoe's order is observed, not the coup's), and
sums each bet's payout by pattern in integers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from math import perm

import polars as pl
import pytest
from reference_enumerator import Coup, banker_draws, is_natural, player_draws, standard_payouts

from toolkit import bet_stats, get_bet
from toolkit.edges.information import best_partitions, information_edge
from toolkit.edges.known_card import known_card_edges, known_card_gain

RANK_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)  # A, 2..9, T, J, Q, K
PAYS = standard_payouts()  # banker 0.95, player 1:1, tie 8:1, pairs 11:1, dragon7 40:1, ...


# ------------------------------------------------------------------ the oracle
def _play(kinds: list[int], value: Callable[[int], int]) -> tuple[Coup, int] | None:
    """The coup of the first cards ``kinds`` and the cards it uses, or ``None`` if it needs more cards."""
    if len(kinds) < 4:
        return None
    v = [value(k) for k in kinds]
    pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    pair_p, pair_b = kinds[0] == kinds[2], kinds[1] == kinds[3]
    if is_natural(pt) or is_natural(bt):
        return Coup(pt, bt, 2, 2, pair_p, pair_b), 4
    third = None
    used = 4
    if player_draws(pt):
        if len(kinds) < 5:
            return None
        third = v[4]
        pt = (pt + third) % 10
        used = 5
    banker_cards = 2
    if banker_draws(bt, third):
        if len(kinds) < used + 1:
            return None
        bt = (bt + v[used]) % 10
        used += 1
        banker_cards = 3
    return Coup(pt, bt, 2 if third is None else 3, banker_cards, pair_p, pair_b), used


def oracle(
    counts: list[int],
    value: Callable[[int], int],
    seen: Mapping[int, Callable[[int], str]],
    bets: Mapping[str, Callable[[Coup], object]],
) -> tuple[dict[str, Fraction], dict[str, dict[str, Fraction]]]:
    """``P(pattern)`` and ``EV(bet | pattern)`` by dealing every ordered sequence of cards (kinds) from ``counts``.

    ``seen[position]`` gives the letter of a kind at that observed position; a pattern is the letters
    of positions 1 and 3 sorted, ``/``, of 2 and 4 sorted (``-`` for none), then ``/`` and positions 5, 6.
    """
    total = sum(counts)
    last_seen = max(seen)
    weight: dict[str, int] = defaultdict(int)
    paid: dict[str, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    left = list(counts)

    def pattern(kinds: list[int]) -> str:
        hands = [[seen[p](kinds[p - 1]) for p in pair if p in seen] for pair in ((1, 3), (2, 4), (5, 6))]
        text = ["".join(sorted(h)) if i < 2 else "".join(h) for i, h in enumerate(hands)]
        text = [t or "-" for t in text]
        return "/".join(text if hands[2] else text[:2])

    def deal(kinds: list[int], w: int) -> None:
        played = _play(kinds, value)
        if played is not None and len(kinds) >= last_seen:
            coup, _ = played
            w *= perm(total - len(kinds), 6 - len(kinds))  # the cards after: any, unseen
            key = pattern(kinds)
            weight[key] += w
            for name, pay in bets.items():
                paid[key][name] += w * Fraction(pay(coup))
            return
        for kind, n in enumerate(left):
            if n:
                left[kind] -= 1
                deal([*kinds, kind], w * n)
                left[kind] += 1

    deal([], 1)
    probability = {k: Fraction(w, perm(total, 6)) for k, w in weight.items()}
    ev = {k: {b: paid[k][b] / weight[k] for b in bets} for k in weight}
    return probability, ev


def _high(kinds: str, value: Callable[[int], object]) -> Callable[[int], str]:
    return lambda k: "H" if str(value(k)) in kinds else "L"


def _gain(probability: Mapping[str, Fraction], ev: Mapping[str, Mapping[str, Fraction]]) -> Fraction:
    return sum((probability[k] * max(0, *ev[k].values()) for k in probability), Fraction(0))


def _check(result, probability, ev) -> None:
    assert dict(result.probability_exact) == probability
    assert {k: dict(v) for k, v in result.ev_exact.items()} == ev
    assert result.gain_exact == _gain(probability, ev)


# ------------------------------------------------------------ small shoes, by rank
#: A small shoe by rank (A, 2..9, T, J, Q, K): pairs of zero-valued cards of different ranks occur.
SMALL = [2, 0, 1, 0, 0, 1, 1, 1, 0, 2, 1, 0, 1]
SMALL_BETS = ("banker", "player", "tie", "player_pair", "banker_pair", "dragon7", "panda8")


@pytest.mark.parametrize(
    ("positions", "groups"),
    [((1, 2), "6789"), ((1, 3), "6789"), ((2, 4, 6), "0/12345/6789"), ((5,), "6789"), ((1, 4, 5, 6), "789")],
)
def test_engine_equals_an_independent_deal_of_a_small_shoe_by_rank(positions, groups) -> None:
    value = RANK_VALUES.__getitem__
    if "/" in groups:
        sets = groups.split("/")
        letter = lambda k: "ABC"[next(i for i, s in enumerate(sets) if str(value(k)) in s)]  # noqa: E731
    else:
        letter = _high(groups, value)
    probability, ev = oracle(SMALL, value, dict.fromkeys(positions, letter), {b: PAYS[b] for b in SMALL_BETS})
    result = information_edge(SMALL, groups, positions, bets=SMALL_BETS, exact=True)
    _check(result, probability, ev)


@pytest.mark.parametrize(("groups", "positions"), [("A9TJQK", "1,3"), ("6789T", "1,2"), ("T/J/A2345", "2,4,5")])
def test_engine_equals_an_independent_deal_by_rank_groups(groups: str, positions: str) -> None:
    """Rank groups; those that split T, J, Q, K take the rank path (13**6 sequences)."""
    shoe = [1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1]
    value = RANK_VALUES.__getitem__
    written = groups.split("/")
    rest = "".join(r for r in "A23456789TJQK" if not any(r in g for g in written))
    every = [*written, rest]
    letters = "HL" if len(written) == 1 else "ABCD"

    def letter(k: int) -> str:
        return letters[next(i for i, g in enumerate(every) if "A23456789TJQK"[k] in g)]

    seen = dict.fromkeys((int(p) for p in positions.split(",")), letter)
    probability, ev = oracle(shoe, value, seen, {b: PAYS[b] for b in SMALL_BETS})
    result = information_edge(shoe, groups, positions, by="rank", bets=SMALL_BETS, exact=True)
    _check(result, probability, ev)


def test_rank_path_equals_the_value_path_with_pair_bets() -> None:
    """The value path prices pairs of zero-valued cards with alpha and beta; the rank path sees the ranks."""
    bets = ("banker", "player", "tie", "player_pair", "banker_pair", "either_pair")
    shoe = [30, 31, 32, 29, 33, 30, 28, 32, 31, 12, 35, 22, 31]
    value = information_edge(shoe, "0/12345/6789", "1,3,4", bets=bets, exact=True, path="value")
    rank = information_edge(shoe, "0/12345/6789", "1,3,4", bets=bets, exact=True, path="rank")
    assert value.gain_exact == rank.gain_exact
    assert value.probability_exact == rank.probability_exact
    assert value.ev_exact == rank.ev_exact


@pytest.mark.parametrize("positions", [(1, 2), pytest.param((1, 2, 3, 4), marks=pytest.mark.slow)])
def test_engine_equals_an_independent_deal_of_a_fresh_8_deck_shoe(positions) -> None:
    """8 decks by value (the main bets do not look at ranks); each run deals some 600,000 leaves (8 s)."""
    counts = [128] + [32] * 9
    letter = _high("6789", lambda k: k)
    bets = {b: PAYS[b] for b in ("banker", "player", "tie")}
    probability, ev = oracle(counts, lambda k: k, dict.fromkeys(positions, letter), bets)
    _check(information_edge(8, "6789", positions, exact=True), probability, ev)


# ------------------------------------------------------------ known cards and laws
@pytest.mark.parametrize("position", [1, 2, 3, 4, 5, 6])
def test_one_card_by_value_is_the_known_card(position: int) -> None:
    result = information_edge(8, "0/1/2/3/4/5/6/7/8/9", position, bets=["banker", "player"])
    known = known_card_edges(8).filter(pl.col("position") == position)
    for name in ("banker", "player"):
        mine = dict(result.patterns.select(pl.col("pattern").str.replace_all(r"[/\-]", ""), f"ev_{name}").rows())
        theirs = {str(r["value"]): r["expected_value"] for r in known.filter(pl.col("bet") == name).to_dicts()}
        assert mine.keys() == theirs.keys()
        for v, x in theirs.items():
            assert mine[v] == pytest.approx(x, abs=1e-12)  # two float sums of 10**6 terms
    gain = dict(known_card_gain(8).iter_rows())[position]
    assert result.gain == pytest.approx(gain, abs=1e-12)


# Jacobson, "Baccarat: The Known Card" (apheat.net, 13 August 2012), 8 decks: cards 1-6.
@pytest.mark.parametrize(
    ("position", "printed"), [(1, 6.765), (2, 6.406), (3, 6.765), (4, 6.406), (5, 8.973), (6, 9.098)]
)
def test_jacobson_known_card_through_the_information_engine(position: int, printed: float) -> None:
    result = information_edge(8, "0/1/2/3/4/5/6/7/8/9", position, bets=["banker", "player"], exact=True)
    assert round(float(result.gain_exact) * 100, 3) == printed


@pytest.mark.parametrize("shoe", [8, [10, 3, 5, 2, 6, 1, 4, 2, 7, 3], SMALL])
def test_conditional_expectations_average_to_the_unconditional_one_exactly(shoe) -> None:
    result = information_edge(shoe, "0/12345/6789", "1-4", bets=("banker", "player", "tie", "player_pair"), exact=True)
    assert sum(result.probability_exact.values()) == 1
    for name in result.bets:
        total = sum(result.probability_exact[k] * result.ev_exact[k][name] for k in result.probability_exact)
        assert total == bet_stats(get_bet(name), shoe).exact_expected_value


def test_merging_a_hands_two_cards_loses_nothing() -> None:
    """HL and LH of one hand have the same conditional expectations, so writing them sorted loses nothing."""
    ordered = information_edge(8, "6789", "1-4", exact=True, merge=False)
    merged = information_edge(8, "6789", "1-4", exact=True)
    assert ordered.patterns.height == 16
    assert merged.patterns.height == 9
    for k, ev in ordered.ev_exact.items():
        p, b = k.split("/")
        key = f"{''.join(sorted(p))}/{''.join(sorted(b))}"
        assert ev == merged.ev_exact[key], k
    assert ordered.gain_exact == merged.gain_exact
    assert ordered.share_no_bet_exact == merged.share_no_bet_exact


def test_float_path_agrees_with_the_exact_path() -> None:
    for positions in ("1-4", "1,3,5", 6):
        fast = information_edge(8, "0/12345/6789", positions, bets=("banker", "player", "tie", "dragon7"))
        exact = information_edge(8, "0/12345/6789", positions, bets=("banker", "player", "tie", "dragon7"), exact=True)
        assert fast.patterns["best_bet"].to_list() == exact.patterns["best_bet"].to_list()
        assert fast.gain == pytest.approx(float(exact.gain_exact), abs=1e-12)  # float sums of 10**6 terms


def test_a_bet_worth_exactly_nothing_is_not_taken() -> None:
    """Only zero-valued cards: every coup is a 0-0 tie, so Banker and Player push, worth exactly 0: no bet."""
    result = information_edge([12, 0, 0, 0, 0, 0, 0, 0, 0, 0], "6789", 1, bets=("banker", "player"))
    assert result.patterns["best_bet"].to_list() == [None]
    assert result.gain == 0
    assert result.share_no_bet == 1


# ------------------------------------------------------------ published figures
def test_jacobson_edge_sorting_four_cards() -> None:
    """E. Jacobson, "Edge Sorting in Baccarat" (apheat.net, 18 August 2012): 8 decks, H = {6,7,8,9},
    the first four cards seen, Banker 0.95 / Player 1:1 / Tie 8:1."""
    r = information_edge(8, "6789", "1-4", exact=True)
    assert round(float(r.gain_exact) * 100, 3) == 20.928  # average edge
    assert round(float(r.probability_exact["HL/LL"]) * 100, 3) == 20.502  # best pattern, bet Player
    assert round(float(r.ev_exact["HL/LL"]["player"]) * 100, 3) == 36.332
    assert r.patterns.filter(pl.col("pattern") == "HL/LL")["best_bet"].item() == "player"
    none = r.patterns.filter(pl.col("best_bet").is_null())["pattern"].to_list()
    assert none == ["LL/LL"]
    assert round(float(r.share_no_bet_exact) * 100, 3) == 22.824
    # "In two situations, the only profitable wager is Tie, on about 19.075 % of hands": both patterns together
    tie_only = [k for k, ev in r.ev_exact.items() if [b for b, x in ev.items() if x > 0] == ["tie"]]
    assert sorted(tie_only) == ["HH/HH", "HL/HL"]
    assert round(float(sum(r.probability_exact[k] for k in tie_only)) * 100, 3) == 19.075


def test_jacobson_update_1_one_sorted_card_and_roachs_best_sort() -> None:
    """E. Jacobson, "Edge Sorting in Baccarat, Update #1" (apheat.net, 2012): one sorted card (H = 6789: Banker if
    low, Player if high) 6.765 %; the best four-card sort, F. Roach's search of every sort, 30.291 %."""
    one = information_edge(8, "6789", 1, exact=True)
    assert round(float(one.gain_exact) * 100, 3) == 6.765
    assert dict(one.patterns.select("pattern", "best_bet").rows()) == {"H/-": "player", "L/-": "banker"}
    best = best_partitions(8, "1-4", top=3)
    assert best["groups"][0] == "456789"  # 4-9 against 0-3
    assert round(best["gain_per_coup"][0] * 100, 3) == 30.291


def test_partition_search_equals_the_engine_partition_by_partition() -> None:
    table = best_partitions([20, 6, 5, 7, 4, 6, 5, 4, 7, 6], (1, 2), bets=("banker", "player", "tie"), top=None)
    assert table.height == 511
    assert table["groups"].n_unique() == 511
    assert table["gain_per_coup"].is_sorted(descending=True)
    for row in table.filter(pl.col("rank") % 37 == 1).iter_rows(named=True):
        r = information_edge([20, 6, 5, 7, 4, 6, 5, 4, 7, 6], row["groups"], (1, 2), exact=True)
        complement = "0" + "".join(d for d in "123456789" if d not in row["groups"])
        c = information_edge([20, 6, 5, 7, 4, 6, 5, 4, 7, 6], complement, (1, 2), exact=True)
        assert row["gain_per_coup"] == float(r.gain_exact) == float(c.gain_exact)
        assert row["share_no_bet"] == float(r.share_no_bet_exact)


# ------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"groups": "678X"}, r"groups '678X': 'X' is not a card value"),
        ({"groups": "678/89"}, r"the value '8' is in groups 1 and 2"),
        ({"groups": "6789/"}, r"group 2 is empty"),
        ({"groups": "0123456789"}, r"every value is in one group"),
        ({"positions": 7}, r"position 7 is outside 1-6"),
        ({"positions": "0-2"}, r"position 0 is outside 1-6"),
        ({"positions": "1,1"}, r"position 1 is given twice"),
        ({"positions": "4-2"}, r"runs backwards"),
        ({"shoe": [5, 0, 0, 0, 0, 0, 0, 0, 0, 0]}, r"the shoe holds 5 card\(s\)"),
        ({"groups": "6789T", "by": "rank", "path": "value"}, r"only the rank path can see that"),
        ({"groups": "6789T", "by": "rank", "shoe": 30}, r"the rank path takes shoes of at most 1,400 cards"),
        ({"groups": "678Z", "by": "rank"}, r"'Z' is not a card rank"),
        ({"groups": "6789", "by": "suit"}, r"by must be 'value' or 'rank'"),
        ({"bets": ["perfect_pair"]}, r"bet 'perfect_pair' looks at suits"),
        ({"bets": ["banker", "banker"]}, r"'banker' is given twice"),
    ],
)
def test_bad_input_is_one_located_value_error(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        information_edge(**kwargs)


def test_rank_sort_search_equals_the_engine_sort_by_sort() -> None:
    shoe = [3, 2, 4, 1, 3, 2, 4, 3, 2, 5, 1, 4, 2]
    bets = ("banker", "player", "tie", "player_pair")
    table = best_partitions(shoe, 2, bets=bets, top=None, by="rank")
    assert table.height == 4095
    assert table["groups"].n_unique() == 4095
    assert not table["groups"].str.contains("K").any()
    for row in table.filter(pl.col("rank") % 401 == 1).iter_rows(named=True):
        r = information_edge(shoe, row["groups"], 2, by="rank", bets=bets, exact=True)
        assert row["gain_per_coup"] == float(r.gain_exact)
        assert row["share_no_bet"] == float(r.share_no_bet_exact)


def test_rank_search_finds_the_value_search_sorts_for_the_main_bets() -> None:
    """Banker, Player and Tie see only values: splitting T, J, Q, K cannot beat the best value sort."""
    by_value = best_partitions(8, (1, 2), top=5)
    by_rank = best_partitions(8, (1, 2), top=5, by="rank")
    assert by_rank["gain_per_coup"][0] == by_value["gain_per_coup"][0]
    assert by_rank["groups"][0] == by_value["groups"][0]


def test_the_edge_sorting_reference_table_is_reproduced() -> None:
    """``data/reference/edge_sorting.csv`` (Jacobson 2012 and Update #1), through ``compare_published``."""
    from toolkit.edges.reference import compare_published, load_reference, printed_number

    rows = load_reference("edge_sorting")
    for row in rows.iter_rows(named=True):
        assert float(printed_number(row["printed"])) == pytest.approx(row["value"], rel=1e-15), row["figure"]
    table = compare_published(tables=["edge_sorting"]).join(rows.select("figure", "role"), on="figure")
    assert table.height == 7
    assert table.filter(pl.col("role") == "reproduce")["status"].to_list() == ["match"] * 6
    assert table.filter(pl.col("role") == "approximate")["status"].item().startswith("approximate quote: within")
