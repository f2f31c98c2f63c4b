"""The published figures the study reproduces (``toolkit.studies.thorp.reproduce``)."""

from __future__ import annotations

from toolkit.studies import reproduce_providers


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
