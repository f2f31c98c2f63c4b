"""The published figures the study reproduces (``toolkit.studies.thorp.reproduce``)."""

from __future__ import annotations

import polars as pl
import pytest

from toolkit.studies import reproduce_providers
from toolkit.studies.last_cards import last_cards
from toolkit.studies.thorp.reproduce import MEAN_TOLERANCE, crossing_depth


def test_reproduce_providers_cover_the_study_figures(plain) -> None:
    providers = reproduce_providers(plain)
    assert {f"jacobson_perfect_{d}" for d in (18, 26, 34, 42, 50)} <= set(providers)
    assert {"jacobson_perfect_beyond_50", "thorp_1984_last_cards", "thorp_walden_1973_spread"} <= set(providers)
    out = providers["thorp_walden_1973_spread"]({})
    assert "natural 9" in out.value
    assert out.matches is True  # 120 shoes already show it clearly
    beyond = providers["jacobson_perfect_beyond_50"]({})
    assert "beyond 50 unseen cards" in beyond.value


def test_a_claim_without_a_number_is_not_pending_once_the_count_shoes_are_dealt() -> None:
    from toolkit.studies import count_providers, reproduce_table

    table = reproduce_table(counts=count_providers(200, seed=2))
    status = table.filter(table["figure"] == "ten_count_jstat_claim")["status"].item()
    assert status.startswith("claim: no number to check"), status
    counted = table.filter(table["table"] == "count_results")["status"]
    assert not counted.str.starts_with("pending").any()


@pytest.fixture(scope="module")
def exact():
    # the exact law of the last 6 to 10 cards of 8 decks: 181,753 compositions, about a second
    return last_cards(8, "6-10", ("banker", "player", "tie"), workers=1, progress=False)


def test_the_exact_rows_check_the_mean_and_read_the_crossings_off_the_exact_table(plain, exact) -> None:
    providers = reproduce_providers(plain, exact=exact)
    mean = providers["thorp_walden_1973_mean_exact"]({})
    assert mean.matches is True
    assert float(exact["mean_deviation"].drop_nulls().abs().max()) <= MEAN_TOLERANCE
    claim = providers["thorp_1984_last_cards_exact"]({})
    # Player's chance falls below 10 % within 10 cards, Banker's not yet (0.141 at 10): no verdict from this table
    p = dict(exact.filter(pl.col("bet") == "player").select("cards_left", "p_positive").iter_rows())
    below = min(n for n in p if all(p[m] < 0.10 for m in p if m >= n))
    assert f"Player: P(EV > 0) 15.1 % with 6 cards left, {100 * p[10]:.1f} % with 10; below 10 % from {below}" in (
        claim.value
    )
    assert crossing_depth(exact, "banker", 0.10) is None
    assert claim.matches is None
    assert "no per-depth figure" in claim.note


def test_the_claims_verdict_turns_on_the_crossing_of_ten_per_cent_by_twenty_cards() -> None:
    def table(banker: list[float]) -> pl.DataFrame:
        n = len(banker)
        return pl.DataFrame(
            {
                "cards_left": list(range(6, 6 + n)) * 2,
                "bet": ["banker"] * n + ["player"] * n,
                "p_positive": banker + [0.05] * n,
                "mean_deviation": [0.0] * 2 * n,
            }
        )

    early = [0.3] * 10 + [0.05] * 12  # below 10 % from 16 cards
    late = [0.3] * 16 + [0.05] * 6  # below 10 % from 22 cards
    assert crossing_depth(table(early), "banker", 0.10) == 16
    assert reproduce_providers(exact=table(early))["thorp_1984_last_cards_exact"]({}).matches is True
    assert crossing_depth(table(late), "banker", 0.10) == 22
    assert reproduce_providers(exact=table(late))["thorp_1984_last_cards_exact"]({}).matches is False
    # a chance that rises again past a crossing moves it: the crossing holds to the table's last depth
    assert crossing_depth(table([0.3, 0.05, 0.2, 0.05]), "banker", 0.10) == 9


def test_jacobsons_rows_show_the_exact_chance_at_the_depths_the_table_holds(plain) -> None:
    at_18 = pl.DataFrame(
        {
            "cards_left": [18, 18],
            "bet": ["banker", "player"],
            "p_positive": [0.0612, 0.0477],
            "mean_deviation": [0.0] * 2,
        }
    )
    providers = reproduce_providers(plain, exact=at_18)
    assert "every composition weighed: P(Banker EV > 0) = 6.12 %, P(Player EV > 0) = 4.77 %" in (
        providers["jacobson_perfect_18"]({}).note
    )
    assert "every composition weighed" not in providers["jacobson_perfect_26"]({}).note
