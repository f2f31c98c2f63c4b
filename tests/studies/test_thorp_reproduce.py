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
