"""Bets: pay tables against the published pay rules, user-defined bets and bet statistics, checked by the oracle."""

from __future__ import annotations

from fractions import Fraction
from math import sqrt

import numpy as np
import polars as pl
import pytest
import reference_enumerator as ref
from hypothesis import given, settings
from strategies import compositions, scaled, small_compositions

from toolkit.bets.paytable import BetStats, PayTable, bet_stats, edge_table, get_bet, standard_bets
from toolkit.bets.pricing import expected_values
from toolkit.coup.outcome import N_CLASSES, outcomes
from toolkit.coup.rules import Rules

TOL = 1e-12
PANEL_NAMES = [
    "banker",
    "player",
    "tie",
    "tie_9to1",
    "super6_banker",
    "ez_banker",
    "dragon7",
    "panda8",
    "player_pair",
    "banker_pair",
    "either_pair",
    "natural8",
    "natural9",
    "dragon_bonus_player",
    "dragon_bonus_banker",
    "big",
    "small",
]


def possible_coups() -> list[ref.Coup]:
    """Every coup the oracle can produce from a 2-deck shoe (all 673 of them), as oracle records."""
    return list(ref.coup_distribution(ref.full_shoe(2), exact=False))


def as_outcome_index(coup: ref.Coup) -> int:
    for o in outcomes():
        if (o.player_total, o.banker_total, o.player_cards, o.banker_cards, o.player_pair, o.banker_pair) == coup:
            return o.index
    raise AssertionError(coup)


def test_panel_holds_the_named_bets(panel):
    assert [bet.name for bet in panel] == PANEL_NAMES
    assert all(bet.description for bet in panel)
    assert len({hash(bet) for bet in panel}) == len(panel)


def test_pay_tables_match_the_published_rules_on_every_possible_coup(panel, reference_panel):
    index = {o: o.index for o in outcomes()}
    by_fields = {
        (o.player_total, o.banker_total, o.player_cards, o.banker_cards, o.player_pair, o.banker_pair): o for o in index
    }
    coups = possible_coups()
    assert len(coups) == 673
    for bet in panel:
        for coup in coups:
            o = by_fields[tuple(coup)]
            assert bet.payoffs[index[o]] == Fraction(reference_panel[bet.name](coup)), (bet.name, coup)


@pytest.mark.parametrize(
    ("name", "coup", "pays"),
    [
        ("dragon7", ref.Coup(3, 7, 3, 3, False, False), 40),  # Banker wins with a three-card 7
        ("dragon7", ref.Coup(6, 7, 2, 3, False, False), 40),
        ("dragon7", ref.Coup(7, 7, 3, 3, False, False), -1),  # a tie is no win
        ("dragon7", ref.Coup(5, 7, 3, 2, False, False), -1),  # two-card 7
        ("ez_banker", ref.Coup(3, 7, 3, 3, False, False), 0),  # pushes where Dragon 7 pays
        ("ez_banker", ref.Coup(6, 7, 3, 2, False, False), 1),
        ("super6_banker", ref.Coup(5, 6, 3, 3, False, False), Fraction(1, 2)),
        ("super6_banker", ref.Coup(5, 7, 3, 3, False, False), 1),
        ("dragon_bonus_banker", ref.Coup(0, 9, 3, 3, False, False), 30),
        ("dragon_bonus_banker", ref.Coup(0, 4, 3, 3, False, False), 1),
        ("dragon_bonus_banker", ref.Coup(1, 4, 3, 3, False, False), -1),  # wins by 3: loses
        ("dragon_bonus_banker", ref.Coup(0, 9, 2, 2, False, False), 1),  # natural win pays even money
        ("dragon_bonus_banker", ref.Coup(8, 8, 2, 2, False, False), 0),  # natural tie pushes
        ("dragon_bonus_player", ref.Coup(8, 8, 2, 2, False, False), 0),
        ("dragon_bonus_player", ref.Coup(7, 7, 2, 2, False, False), -1),  # other ties lose
        ("dragon_bonus_player", ref.Coup(9, 1, 3, 3, False, False), 10),
        ("big", ref.Coup(5, 5, 3, 2, False, False), Fraction(54, 100)),
        ("small", ref.Coup(6, 7, 2, 2, False, False), Fraction(3, 2)),
        ("natural8", ref.Coup(0, 8, 2, 2, False, False), 9),
        ("natural8", ref.Coup(0, 8, 3, 3, False, False), -1),  # a drawn 8 is no natural
        ("natural9", ref.Coup(9, 9, 2, 2, False, False), 9),  # pays on the Banker's natural, win or tie
        ("either_pair", ref.Coup(9, 9, 2, 2, True, True), 5),
        ("banker", ref.Coup(0, 9, 2, 2, False, False), Fraction(19, 20)),
        ("tie", ref.Coup(4, 4, 3, 3, False, False), 8),
    ],
)
def test_pay_rule_spot_checks(name, coup, pays, reference_panel):
    assert reference_panel[name](coup) == pays  # the oracle's rule says what the published rule says
    assert get_bet(name).payoffs[as_outcome_index(coup)] == pays


@pytest.mark.parametrize(("commission", "tie"), [(Fraction(1, 25), 9), (Fraction(0), 8), (Fraction(1, 20), 9)])
def test_house_rules_change_banker_and_tie(commission, tie):
    rules = Rules(commission=commission, tie_pays=tie)
    shoe = ref.full_shoe(1)
    ev = expected_values(np.array([shoe]), rules=rules)[0]
    names = [bet.name for bet in standard_bets(rules)]
    assert ev[names.index("banker")] == pytest.approx(
        ref.expected_value(ref.banker_pays(commission), shoe, False), abs=TOL
    )
    assert ev[names.index("tie")] == pytest.approx(ref.expected_value(ref.tie_pays(tie), shoe, False), abs=TOL)
    assert get_bet("banker", rules).payoffs == standard_bets(rules)[0].payoffs


def test_get_bet_unknown_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="unknown bet 'lucky7'; known bets: banker, player, tie"):
        get_bet("lucky7")


# ------------------------------------------------------------ user-defined bets
def banker_six_pays_12(o) -> object:
    """Lucky 6 style: Banker wins with a total of 6, pays 12:1 (uses only the oracle's fields)."""
    return 12 if o.banker_total > o.player_total and o.banker_total == 6 else -1


def player_wins_by_three_cards(o) -> object:
    return Fraction(3, 2) if o.player_total > o.banker_total and o.player_cards == 3 else -1


def test_from_expr_and_from_function_equal_the_oracle():
    lucky6_expr = PayTable.from_expr(
        "banker_six",
        pl.when((pl.col("winner") == "banker") & (pl.col("banker_total") == 6)).then(12).otherwise(-1),
    )
    lucky6_fn = PayTable.from_function("banker_six", banker_six_pays_12)
    assert lucky6_expr.payoffs == lucky6_fn.payoffs
    assert lucky6_expr == lucky6_fn
    pair_fn = PayTable.from_function("pp3", player_wins_by_three_cards)
    pair_expr = PayTable.from_expr(
        "pp3",
        pl.when((pl.col("winner") == "player") & (pl.col("player_cards") == 3)).then(1.5).otherwise(-1),
    )
    assert pair_fn.payoffs == pair_expr.payoffs
    for shoe in (ref.full_shoe(1), (0, 3, 4, 5, 2, 1, 0, 0, 4, 3, 1, 0, 2)):
        for bet, pay in ((lucky6_expr, banker_six_pays_12), (pair_expr, player_wins_by_three_cards)):
            assert bet_stats(bet, list(shoe)).exact_expected_value == ref.expected_value(pay, shoe)
            assert expected_values(np.array([shoe]), [bet])[0, 0] == pytest.approx(
                ref.expected_value(pay, shoe, exact=False), abs=TOL
            )


def test_numpy_payouts_are_accepted():
    bet = PayTable.from_function("half_on_banker", lambda o: np.float64(0.5) if o.winner == "banker" else np.int64(-1))
    assert set(bet.payoffs) == {Fraction(1, 2), Fraction(-1)}


def test_from_table_first_matching_row_pays():
    bet = PayTable.from_table(
        "banker_by_total",
        [(lambda o: o.winner == "banker" and o.banker_total == 9, 2), (lambda o: o.winner == "banker", 1)],
        otherwise=-1,
    )

    def pay(c: ref.Coup) -> object:
        if c.banker_total > c.player_total:
            return 2 if c.banker_total == 9 else 1
        return -1

    shoe = (3, 0, 2, 5, 4, 1, 0, 3, 3, 2, 0, 0, 4)
    assert bet_stats(bet, list(shoe)).exact_expected_value == ref.expected_value(pay, shoe)


def test_bad_bets_are_refused():
    with pytest.raises(ValueError, match="non-empty name"):
        PayTable("", (Fraction(0),) * N_CLASSES)
    with pytest.raises(ValueError, match="expected 1600 payouts"):
        PayTable("short", (Fraction(0),) * 10)
    with pytest.raises(ValueError, match="below -1"):
        PayTable.from_function("greedy", lambda o: -2)
    with pytest.raises(ValueError, match="without a payout"):
        PayTable.from_expr("partial", pl.when(pl.col("winner") == "tie").then(8))


# ---------------------------------------------------------------- bet statistics
@given(shoe=small_compositions(min_cards=6, max_cards=16))
@settings(max_examples=scaled(10), deadline=None)
def test_bet_stats_fields_equal_the_oracle(shoe, panel, reference_panel):
    for bet in panel:
        stats = bet_stats(bet, list(shoe))
        pay = reference_panel[bet.name]
        assert isinstance(stats, BetStats)
        assert stats.bet == bet.name
        assert sum(stats.payouts.values()) == 1
        assert all(p > 0 for p in stats.payouts.values())
        assert list(stats.payouts) == sorted(stats.payouts)
        mean, variance = ref.moments(pay, shoe)
        assert stats.exact_expected_value == mean
        assert stats.expected_value == pytest.approx(float(mean), abs=TOL)
        assert stats.house_edge == -stats.expected_value
        assert stats.std_dev == pytest.approx(sqrt(float(variance)), abs=1e-9)
        hit = sum((p for c, p in ref.coup_distribution(shoe).items() if Fraction(pay(c)) > 0), Fraction(0))
        assert stats.hit_frequency == pytest.approx(float(hit), abs=TOL)
        oracle_payouts: dict[Fraction, Fraction] = {}
        for c, p in ref.coup_distribution(shoe).items():
            oracle_payouts[Fraction(pay(c))] = oracle_payouts.get(Fraction(pay(c)), Fraction(0)) + p
        assert stats.payouts == oracle_payouts


@given(shoe=compositions())
@settings(max_examples=scaled(6), deadline=None)
def test_float_bet_stats_agree_with_exact(shoe, panel):
    for bet in panel[:6]:
        exact = bet_stats(bet, list(shoe))
        fast = bet_stats(bet, list(shoe), exact=False)
        assert fast.exact_expected_value is None
        assert fast.expected_value == pytest.approx(exact.expected_value, abs=TOL)
        assert fast.std_dev == pytest.approx(exact.std_dev, abs=1e-9)
        assert fast.hit_frequency == pytest.approx(exact.hit_frequency, abs=TOL)
        assert sum(fast.payouts.values()) == pytest.approx(1.0, abs=TOL)


def test_dragon7_statistics_full_shoe(reference_panel):
    stats = bet_stats(get_bet("dragon7"), 8)
    mean, variance = ref.moments(reference_panel["dragon7"], ref.full_shoe(8), exact=False)
    assert stats.expected_value == pytest.approx(mean, abs=TOL)
    assert stats.std_dev == pytest.approx(sqrt(variance), abs=1e-9)
    assert set(stats.as_dict()) == {"expected_value", "house_edge", "std_dev", "hit_frequency", "payouts"}
    assert stats.as_dict()["payouts"] == {"-1": pytest.approx(1 - stats.hit_frequency), "40": stats.hit_frequency}


def test_edge_table_matches_bet_stats(panel):
    shoe = (2, 3, 1, 4, 0, 2, 2, 1, 3, 1, 2, 0, 1)
    table = edge_table(list(shoe))
    assert table.columns == ["bet", "expected_value", "house_edge", "std_dev", "hit_frequency", "description"]
    assert table["bet"].to_list() == PANEL_NAMES
    for row, bet in zip(table.iter_rows(named=True), panel, strict=True):
        stats = bet_stats(bet, list(shoe))
        assert row["expected_value"] == stats.expected_value
        assert row["house_edge"] == stats.house_edge
        assert row["std_dev"] == stats.std_dev
        assert row["description"] == bet.description


def test_expected_values_prices_the_panel_by_default_and_bets_by_name(panel):
    from toolkit.exact.engine import paytable_expected_values

    shoes = np.array([ref.full_shoe(1), (3, 0, 2, 5, 4, 1, 0, 3, 3, 2, 0, 0, 4)])
    assert np.array_equal(expected_values(shoes), paytable_expected_values(shoes, panel))
    names = [b.name for b in panel]
    assert np.array_equal(expected_values(shoes, names), expected_values(shoes, panel))
    with pytest.raises(TypeError, match="bets must be Bets, CoupBets or bet names"):
        expected_values(shoes, [3])


def test_bad_python_calls_name_the_argument():
    import polars as pl
    import pytest

    from toolkit.bets.paytable import PayTable, bet_stats, edge_table, get_bet

    assert bet_stats("banker", 8) == bet_stats(get_bet("banker"), 8)
    with pytest.raises(TypeError, match="bet must be a Bet or a bet name, got int 3"):
        bet_stats(3, 8)
    with pytest.raises(ValueError, match="unknown bet 'bankr'"):
        bet_stats("bankr", 8)
    with pytest.raises(TypeError, match="rules must be a Rules, got str 'x'"):
        edge_table(8, rules="x")
    with pytest.raises(ValueError, match=r"unknown column, 'nope'; the columns are class, player_total"):
        PayTable.from_expr("x", pl.col("nope"))
    with pytest.raises(TypeError, match="expr must be a polars expression"):
        PayTable.from_expr("x", "player_total")


def test_effects_of_removal_of_a_huge_shoe_are_exact():
    import polars as pl

    from toolkit.edges.eor import EXACT_ABOVE, effect_of_removal

    big = effect_of_removal([10**12] * 13, bets=[get_bet("banker")])
    assert "eor_exact" in big.columns  # the exact path was taken
    small = effect_of_removal([EXACT_ABOVE // 13] * 13, bets=[get_bet("banker")])
    assert "eor_exact" not in small.columns
    # the effect scales as 1 / cards: the two agree once scaled
    ratio = (
        big.filter(pl.col("card") == "4")["eor"].item()
        * 10**12
        / (small.filter(pl.col("card") == "4")["eor"].item() * (EXACT_ABOVE // 13))
    )
    assert abs(ratio - 1) < 1e-5


def test_every_bet_is_one_kind_with_its_evaluator_chosen_when_built(tmp_path):
    """However a bet is written, it is a Bet; the payout's fields choose the evaluator."""
    import polars as pl

    from toolkit import Bet, CoupBet, bet_from_file, get_bet, make_bet
    from toolkit.bets.paytable import PayTable

    tie = pl.when(pl.col("winner") == "tie").then(8).otherwise(-1)
    suited = [("player_suited_pair", 25)]
    built = {
        "expr": Bet.from_expr("tie8", tie),
        "rows": Bet.from_rows("tie8_rows", [("winner = 'tie'", 8)]),
        "function": Bet.from_function("tie8_fn", lambda o: 8 if o.winner == "tie" else -1),
        "table": Bet.from_table("tie8_table", [(lambda o: o.winner == "tie", 8)]),
        "name": Bet.named("tie"),
        "suited": Bet.from_rows("suited", suited),
        "suited_expr": Bet.from_expr("suited_expr", pl.when(pl.col("player_suited_pair")).then(25).otherwise(-1)),
    }
    assert all(isinstance(b, Bet) for b in built.values())
    kinds = {k: type(b) for k, b in built.items()}
    assert kinds == {
        **dict.fromkeys(("expr", "rows", "function", "table", "name"), PayTable),
        "suited": CoupBet,
        "suited_expr": CoupBet,
    }
    assert {b.evaluator for k, b in built.items() if kinds[k] is PayTable} == {"pay table"}
    assert built["suited"].evaluator in ("value events", "prefix patterns", "label events")
    # the same payout written four ways prices the same, and the same as the panel's Tie
    evs = expected_values([8, 2], [built[k] for k in ("expr", "rows", "function", "table", "name")])
    assert np.array_equal(evs, np.repeat(evs[:, :1], 5, axis=1))
    assert isinstance(get_bet("perfect_pair"), Bet)
    assert type(make_bet("suited", suited)) is CoupBet
    path = tmp_path / "tie.toml"
    path.write_text('name = "tie8_file"\n[[pays]]\nwhen = "winner = \'tie\'"\npays = 8\n')
    from_file = Bet.from_file(str(path))
    assert type(from_file) is PayTable
    assert from_file.payoffs == bet_from_file(str(path)).payoffs == built["expr"].payoffs
    with pytest.raises(TypeError):
        Bet()  # the kind is chosen by a constructor


# ------------------------------------------------------------ a bet written as one polars expression
def test_an_expression_bet_and_its_row_twin_give_identical_tables() -> None:
    """A poker hand of the first four cards (ranks, and one colour for the flush) as one expression over
    ``concat_list``/``list.sort`` and as SQL rows: the same combinations, exactly, on a full and a depleted shoe."""
    from expression_twins import poker_expression, poker_rows

    from toolkit.bets import ca_table

    expression, rows = poker_expression("colour"), poker_rows("colour")
    for shoe in (8, [31, 30, 32, 29, 32, 32, 28, 32, 32, 30, 32, 31, 27]):
        a, b = ca_table(expression, shoe), ca_table(rows, shoe)
        assert a["combinations"].to_list() == b["combinations"].to_list()
        assert a["pays"].to_list() == b["pays"].to_list() == [100, 50, 5, -1]
        assert (a["combinations"] > 0).all()


def _coups_frame(n: int, seed: int) -> pl.DataFrame:
    from toolkit.coup.cards import RANKS

    rng = np.random.default_rng(seed)
    rank = pl.Enum(list(RANKS))
    columns = {
        f"{p}_rank": pl.Series(rng.choice([*RANKS, None], n).tolist(), dtype=rank)
        for p in ("player_1", "banker_1", "player_3")
    }
    return pl.DataFrame({**columns, "player_total": rng.integers(0, 10, n), "banker_total": rng.integers(0, 10, n)})


EXPRESSIONS = [
    pl.concat_list([pl.col("player_1_rank").to_physical(), pl.col("banker_1_rank").to_physical()])
    .list.sort()
    .list.get(0)
    + pl.col("player_total"),
    pl.when(pl.concat_list(["player_1_rank", "player_3_rank"]).list.n_unique() == 1)
    .then(pl.col("banker_total") * 2)
    .when(pl.col("player_3_rank").is_null())
    .then(-1)
    .otherwise(pl.col("player_total").cast(pl.Float64) / 3),
    pl.col("player_1_rank").cast(pl.String).str.contains("[TJQK]") & (pl.col("player_total") > 4),
    pl.col("player_total") - pl.col("banker_total"),  # no costly part: evaluated as it stands
    # lists of one length without nulls: sorted by numpy, descending too
    pl.concat_list([pl.col(f"{p}_rank").to_physical().fill_null(13) for p in ("player_1", "banker_1", "player_3")])
    .list.sort(descending=True)
    .list.get(1)
    * 10
    + pl.col("player_total"),
]


@pytest.mark.parametrize("descending", [False, True])
def test_lists_sorted_by_numpy_equal_them_sorted_by_polars(descending) -> None:
    from toolkit.bets._expressions import _sorted_lists

    rng = np.random.default_rng(11)
    for dtype in (pl.Int64, pl.UInt32, pl.Int8):
        lists = pl.Series("x", rng.integers(0, 13, (2_000, 4)).tolist(), dtype=pl.List(dtype))
        sorted_ = _sorted_lists(lists, descending)
        assert sorted_ is not None
        assert sorted_.dtype == lists.dtype
        assert sorted_.to_list() == lists.list.sort(descending=descending).to_list()
    # left to polars: lists of several lengths, a null in a list or for a list, none at all, floats, empty lists
    for refused in (
        pl.Series("x", [[3, 1], [2, 1, 0]]),
        pl.Series("x", [[3, None], [2, 1]]),
        pl.Series("x", [[3, 1], None]),
        pl.Series("x", [], dtype=pl.List(pl.Int64)),
        pl.Series("x", [[3.0, 1.0], [2.0, 1.0]]),
        pl.Series("x", [[], []], dtype=pl.List(pl.Int64)),
    ):
        assert _sorted_lists(refused, descending) is None


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=range(len(EXPRESSIONS)))
def test_an_expression_evaluated_once_per_distinct_input_equals_it_evaluated_on_every_row(expr) -> None:
    from toolkit.bets._expressions import evaluate_distinct

    frame = _coups_frame(5_000, 7)  # many repeats: the distinct path, costly parts joined back, nulls as keys
    assert evaluate_distinct(expr, frame).to_list() == frame.select(expr)[:, 0].to_list()
    few = frame.head(8)  # few repeats: evaluated as it stands
    assert evaluate_distinct(expr, few).to_list() == few.select(expr)[:, 0].to_list()
    # the values kept between the chunks of one table: chunks with narrower fields, then wider ones, then all
    memo: dict = {}
    rank = pl.col("player_1_rank").to_physical()
    for chunk in (frame.filter(rank < 3), frame.filter(pl.col("player_total") < 2), frame.slice(100, 3000), frame):
        assert evaluate_distinct(expr, chunk, memo).to_list() == chunk.select(expr)[:, 0].to_list()


@pytest.mark.parametrize(
    ("expr", "named"),
    [
        (pl.col("player_total") - pl.col("player_total").mean(), "Mean"),
        (pl.col("player_total").shift(1).fill_null(0), "Shift"),
        (pl.col("player_total").cum_sum(), "CumSum"),
        (pl.col("player_total").max().over("banker_total"), "Over"),
        (pl.col("player_total").is_duplicated(), "IsDuplicated"),
        (pl.concat_list(["player_total", "banker_total"]).list.sample(n=1).list.get(0), "list.sample"),
        (pl.col("player_total").rank(), "Rank"),
    ],
)
def test_an_expression_that_mixes_coups_is_refused_in_one_line(expr, named) -> None:
    from toolkit.bets import Bet

    with pytest.raises(
        ValueError, match=f"bet 'mixed': a payout is computed coup by coup and may not use {named} "
    ) as err:
        Bet.from_expr("mixed", pl.when(expr > 3).then(5).otherwise(-1))
    assert "\n" not in str(err.value)
