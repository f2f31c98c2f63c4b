"""Effects of removal: the balance identity, agreement with oracle differences, and rank effects on pair bets."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
import reference_enumerator as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import RANKS, compositions, few_zero_compositions, scaled, small_compositions

from toolkit.bets.paytable import get_bet, standard_bets
from toolkit.edges.eor import effect_of_removal, eor_matrix

TOL = 1e-12


def balance_tolerance(cards: int) -> float:
    """Float tolerance of ``sum(count * eor)`` for a shoe of ``cards`` cards.

    Each float EV carries a rounding error of a few 1e-15 (payouts up to 40:1, sums of 8,008 terms), and the
    identity adds ``cards`` such errors: the worst seen over 176 random shoes of 7 to 416 cards was 1.2e-14 per
    card (3.0e-12 in all, on 8 decks).  Allow 5e-14 per card, and never less than 1e-12.
    """
    return max(TOL, 5e-14 * cards)


#: A few bets of every kind: commission, tie, pairs (rank-sensitive), a multi-level pay table.
EXACT_BETS = ("banker", "tie", "player_pair", "either_pair", "dragon_bonus_banker", "big")


def balance(table: pl.DataFrame) -> dict[str, object]:
    """``sum(count * eor)`` per bet (cards with count 0 have no EOR)."""
    out: dict[str, object] = {}
    for row in table.iter_rows(named=True):
        if row["count"]:
            eor = Fraction(row["eor_exact"]) if "eor_exact" in row else row["eor"]
            out[row["bet"]] = out.get(row["bet"], 0) + row["count"] * eor
    return out


def removal_shoes():
    return compositions().filter(lambda s: sum(s) >= 7)


# ------------------------------------------------------------ balance identity
@given(shoe=removal_shoes(), by=st.sampled_from(["value", "rank"]))
@settings(max_examples=scaled(15), deadline=None)
def test_float_eor_balances(shoe, by):
    table = effect_of_removal(list(shoe), by=by)
    assert table.columns == ["bet", "card", "count", "expected_value", "eor"]
    assert table.height == len(standard_bets()) * (10 if by == "value" else 13)
    sums = balance(table)
    assert set(sums) == {bet.name for bet in standard_bets()}
    for name, total in sums.items():
        assert abs(total) < balance_tolerance(sum(shoe)), name


@pytest.mark.parametrize("decks", [1, 8])
def test_float_eor_balances_on_full_shoes(decks):
    for by in ("value", "rank"):
        for name, total in balance(effect_of_removal(decks, by=by)).items():
            assert abs(total) < balance_tolerance(52 * decks), (name, by)


@given(
    shoe=st.one_of(small_compositions(min_cards=7, max_cards=14), few_zero_compositions(min_cards=7, max_cards=14)),
    by=st.sampled_from(["value", "rank"]),
)
@settings(max_examples=scaled(6), deadline=None)
def test_exact_eor_balances_exactly(shoe, by):
    table = effect_of_removal(list(shoe), bets=[get_bet(n) for n in EXACT_BETS], by=by, exact=True)
    sums = balance(table)
    assert sums == dict.fromkeys(EXACT_BETS, 0)


def test_exact_eor_balances_for_the_whole_panel():
    shoe = (1, 0, 2, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1)
    sums = balance(effect_of_removal(list(shoe), by="rank", exact=True))
    assert sums == {bet.name: 0 for bet in standard_bets()}


# --------------------------------------------------------------- oracle values
@given(shoe=st.one_of(small_compositions(min_cards=7, max_cards=13), few_zero_compositions(min_cards=7, max_cards=13)))
@settings(max_examples=scaled(5), deadline=None)
def test_exact_eor_is_the_difference_of_two_oracle_evs(shoe, reference_panel):
    names = ("banker", "player_pair", "either_pair", "dragon_bonus_banker")
    bets = [get_bet(n) for n in names]
    by_rank = effect_of_removal(list(shoe), bets=bets, by="rank", exact=True)
    by_value = effect_of_removal(list(shoe), bets=bets, by="value", exact=True)
    zeros = sum(shoe[9:])
    for name in names:
        pay = reference_panel[name]
        base = ref.expected_value(pay, shoe)
        oracle_rank = {}
        for r, rank in enumerate(RANKS):
            if shoe[r] and sum(shoe) > 6:
                less = list(shoe)
                less[r] -= 1
                oracle_rank[rank] = ref.expected_value(pay, less) - base
        rows = by_rank.filter(pl.col("bet") == name)
        for row in rows.iter_rows(named=True):
            assert row["expected_value"] == pytest.approx(float(base), abs=TOL)
            if row["count"]:
                assert Fraction(row["eor_exact"]) == oracle_rank[row["card"]], (name, row["card"])
            else:
                assert row["eor"] is None
        # by value: a pip card is its rank; a zero card is a random one of T, J, Q, K (weighted by count)
        values = {row["card"]: row for row in by_value.filter(pl.col("bet") == name).iter_rows(named=True)}
        for v in range(1, 10):
            expected = oracle_rank.get(RANKS[v - 1])
            assert (None if values[str(v)]["eor_exact"] is None else Fraction(values[str(v)]["eor_exact"])) == expected
        if zeros:
            mix = sum(shoe[r] * oracle_rank[RANKS[r]] for r in range(9, 13) if shoe[r]) / Fraction(zeros)
            assert Fraction(values["0"]["eor_exact"]) == mix
        assert values["0"]["count"] == zeros


@given(shoe=compositions().filter(lambda s: 7 <= sum(s) <= 60))
@settings(max_examples=scaled(4), deadline=None)
def test_float_eor_agrees_with_oracle(shoe, reference_panel):
    table = effect_of_removal(list(shoe), by="rank")
    for name in ("banker", "player", "tie", "dragon7", "banker_pair"):
        base = ref.expected_value(reference_panel[name], shoe, exact=False)
        for row in table.filter(pl.col("bet") == name).iter_rows(named=True):
            r = RANKS.index(row["card"])
            if shoe[r]:
                less = list(shoe)
                less[r] -= 1
                oracle = ref.expected_value(reference_panel[name], less, exact=False) - base
                assert row["eor"] == pytest.approx(oracle, abs=TOL), (name, row["card"])


# --------------------------------------------------------- ranks and pair bets
@given(shoe=small_compositions(min_cards=8, max_cards=40), data=st.data())
@settings(max_examples=scaled(25), deadline=None)
def test_pair_bet_eor_by_rank_follows_rank_counts(shoe, data):
    present = [r for r in range(13) if shoe[r]]
    r, s = data.draw(st.permutations(present))[:2] if len(present) >= 2 else (present[0], present[0])
    table = effect_of_removal(list(shoe), bets=[get_bet("player_pair"), get_bet("banker_pair")], by="rank")
    for name in ("player_pair", "banker_pair"):
        eor = dict(zip(*table.filter(pl.col("bet") == name).select("card", "eor"), strict=True))
        if shoe[r] == shoe[s]:
            assert eor[RANKS[r]] == pytest.approx(eor[RANKS[s]], abs=TOL)
        else:
            # removing a card of the more plentiful rank destroys more pairs
            more, fewer = (r, s) if shoe[r] > shoe[s] else (s, r)
            assert eor[RANKS[more]] < eor[RANKS[fewer]] - TOL


def test_pair_bet_eor_differs_between_zero_ranks():
    shoe = [4] * 9 + [10, 4, 2, 0]
    table = effect_of_removal(shoe, bets=[get_bet("player_pair"), get_bet("banker")], by="rank")
    pp = dict(zip(*table.filter(pl.col("bet") == "player_pair").select("card", "eor"), strict=True))
    assert pp["T"] < pp["J"] < pp["Q"]
    assert pp["K"] is None
    banker = dict(zip(*table.filter(pl.col("bet") == "banker").select("card", "eor"), strict=True))
    # the same values are left whichever zero card goes: only the pair bets can tell
    assert banker["T"] == pytest.approx(banker["J"], abs=TOL)
    assert banker["T"] == pytest.approx(banker["Q"], abs=TOL)


# ---------------------------------------------------------------- the API edges
def test_eor_matrix_is_the_wide_form():
    table = effect_of_removal(2, bets=[get_bet("banker"), get_bet("tie")])
    wide = eor_matrix(table, 1e7)
    assert wide.columns == ["bet", *[str(v) for v in range(10)]]
    assert wide["bet"].to_list() == ["banker", "tie"]
    long = table.filter((pl.col("bet") == "tie") & (pl.col("card") == "4"))["eor"].item()
    assert wide.filter(pl.col("bet") == "tie")["4"].item() == pytest.approx(long * 1e7)


def test_eor_refuses_bad_arguments():
    with pytest.raises(ValueError, match="by must be 'value' or 'rank'"):
        effect_of_removal(8, by="suit")
    with pytest.raises(ValueError, match="holds 6 card"):
        effect_of_removal([6] + [0] * 12)


def test_exact_eor_adds_exact_strings():
    table = effect_of_removal([2] * 13, bets=[get_bet("tie")], exact=True)
    assert "eor_exact" in table.columns
    for row in table.iter_rows(named=True):
        assert float(Fraction(row["eor_exact"])) == pytest.approx(row["eor"], abs=1e-15)
    fast = effect_of_removal([2] * 13, bets=[get_bet("tie")])
    assert np.allclose(fast["eor"].to_numpy(), table["eor"].to_numpy(), rtol=0, atol=TOL)
