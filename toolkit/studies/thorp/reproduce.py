"""The published figures beside the toolkit's values: the providers that need the study, and the table.

:func:`reproduce_table` asks :func:`toolkit.edges.reference.compare_published` for
every figure in ``data/reference`` and supplies those that need a study as
providers: Jacobson's setting, the claims of Thorp and of Thorp and Walden
(:func:`reproduce_providers`), and the published count results, simulated with
:mod:`toolkit.counting` (:func:`count_providers`).

>>> table = reproduce_table()
>>> table.filter(pl.col("figure") == "house_edge_8d_banker")["status"].item()
'match'
"""

from __future__ import annotations

from typing import Any

import polars as pl

from toolkit.parallel import SeedLike
from toolkit.studies.thorp._text import bet_label, complement, one_in, pct
from toolkit.studies.thorp.design import seed_integer
from toolkit.studies.thorp.report import ALMOST_ALWAYS, thorp_status
from toolkit.studies.thorp.result import StudyResult

__all__ = ["COUNT_Z", "EFFECTIVELY_NONE", "count_providers", "reproduce_providers", "reproduce_table"]

#: Jacobson's "effectively no": at most this rate of edges per hand beyond 50 unseen cards.
EFFECTIVELY_NONE = 1e-3


def reproduce_providers(result: StudyResult | None = None, jacobson: pl.DataFrame | None = None) -> dict[str, Any]:
    """Providers for :func:`toolkit.edges.reference.compare_published`: the figures that need the study.

    ``jacobson`` (from :func:`toolkit.studies.jacobson_setting`) supplies the
    rows of Jacobson's setting; otherwise the study's own Jacobson part does.
    ``result`` supplies the claims (Thorp 1984, Thorp and Walden 1973,
    Jacobson's "beyond 50 cards").  Figures with no provider stay pending.

    Parameters
    ----------
    result
        The study (claims, Jacobson's own setting).
    jacobson
        A separate Jacobson's setting (:func:`toolkit.studies.jacobson_setting`).

    Returns
    -------
    dict
        Figure name to a function of the published row returning a :class:`toolkit.edges.reference.Reproduced`.
    """
    providers: dict[str, Any] = {}
    jac = jacobson if jacobson is not None else (result.jacobson() if result is not None else None)
    if jac is not None:
        providers.update(_jacobson_providers(jac))
    if result is None or "unseen" not in result.study.observers:
        return providers
    names = result.study.bet_names
    claims = {r["bet"]: r for r in result.claims().filter(pl.col("observer") == "unseen").to_dicts()}
    if {"player", "banker"} <= set(names):
        providers.update(_last_cards_providers(result, claims))
    if {"tie", "natural8", "natural9"} <= set(names):
        providers.update(_spread_providers(result, claims))
    return providers


def _jacobson_providers(jac: pl.DataFrame) -> dict[str, Any]:
    """One provider per depth of Jacobson's setting: P(EV > 0) and the mean edge of each bet."""
    from toolkit.edges.reference import Reproduced

    providers: dict[str, Any] = {}
    for depth in jac["unseen"].unique().to_list():
        rows = {r["bet"]: r for r in jac.filter(pl.col("unseen") == depth).to_dicts()}

        def provide(row: dict[str, Any], rows: dict[str, Any] = rows) -> Reproduced:
            parts = [
                f"P({bet_label(b)} EV > 0) = {pct(r['p_positive'], 2)} "
                f"[{pct(r['p_low'], 2)}, {pct(r['p_high'], 2)}], mean edge when positive "
                f"+{pct(r['mean_positive_ev'], 2)}"
                for b, r in rows.items()
            ]
            samples = next(iter(rows.values()))["samples"]
            return Reproduced("; ".join(parts), None, f"{samples:,} shoes, exact EVs of the last cards")

        providers[f"jacobson_perfect_{depth}"] = provide
    return providers


def _last_cards_providers(result: StudyResult, claims: dict[str, Any]) -> dict[str, Any]:
    """Jacobson's "beyond 50 cards" and "fewer than 18", and Thorp's 1984 claim, from the unseen observer."""
    from toolkit.edges.reference import Reproduced

    hands = result.tally.arrays["hands"][result.study.observers.index("unseen")]
    providers: dict[str, Any] = {}
    beyond = {r["bet"]: r for r in result.beyond(50).to_dicts()}

    def beyond_50(row: dict[str, Any]) -> Reproduced:
        text = "; ".join(
            f"{bet_label(b)}: {r['positive']:,} edges in {r['hands']:,} hands beyond 50 unseen cards "
            f"({one_in(r['rate'])}), deepest at {claims[b]['deepest_edge']} cards"
            for b, r in beyond.items()
        )
        ok = all(r["rate_high"] is not None and r["rate_high"] < EFFECTIVELY_NONE for r in beyond.values())
        return Reproduced(
            text, ok, f"criterion: under 1 in {1 / EFFECTIVELY_NONE:,.0f} hands; {result.n_shoes:,} shoes"
        )

    def min_18(row: dict[str, Any]) -> Reproduced:
        share = hands[:18].sum() / hands.sum()
        d = result.study.dealing
        return Reproduced(
            f"{pct(share, 2)} of hands dealt with fewer than 18 unseen cards",
            None,
            f"cut card {d.cut_card}, burn {d.burn}, last hand {d.last_hand}",
        )

    def thorp_1984(row: dict[str, Any]) -> Reproduced:
        parts = []
        ok = True
        for b in ("banker", "player"):
            c = claims[b]
            ok = ok and thorp_status(c) == "holds"
            parts.append(
                f"{bet_label(b)}: edges in {one_in(c['p_positive'])}, +{pct(c['mean_positive_ev'], 2)} on "
                f"average; {pct(c['share_positive_last_20'], 0)} of them within the last 20 unseen cards "
                f"(where {pct(c['share_hands_last_20'])} of hands are dealt), "
                f"{pct(complement(c['share_positive_beyond_50']), 0)} within the last 50"
            )
        return Reproduced(
            "; ".join(parts), ok, f"'almost always' read as at least {ALMOST_ALWAYS:.0%}; {result.n_shoes:,} shoes"
        )

    providers["jacobson_perfect_beyond_50"] = beyond_50
    providers["jacobson_perfect_min_18"] = min_18
    providers["thorp_1984_last_cards"] = thorp_1984
    return providers


def _spread_providers(result: StudyResult, claims: dict[str, Any]) -> dict[str, Any]:
    """Thorp and Walden's growing spread of the EV and the perfect bettor's gain per shoe."""
    from toolkit.edges.reference import Reproduced

    names = result.study.bet_names
    providers: dict[str, Any] = {}
    variance = result.variance_by_bucket()

    def thorp_walden(row: dict[str, Any]) -> Reproduced:
        enough = variance.filter(pl.col("hands") >= 100).sort("unseen_low")  # buckets with a usable SD
        banker = enough.filter(pl.col("bet") == names[0])
        if banker.height < 2:
            return Reproduced("too few hands per depth to compare spreads", None, f"{result.n_shoes:,} shoes")
        grows = True
        for bet in names:
            v = enough.filter(pl.col("bet") == bet)
            grows = grows and v.height >= 2 and v["sd_ev"][0] > v["sd_ev"][-1]
        tie, n8, n9 = (claims[b]["gain_per_shoe"] for b in ("tie", "natural8", "natural9"))
        text = (
            f"SD of the {bet_label(names[0])} EV: {pct(banker['sd_ev'][-1], 3)} with {banker['bucket'][-1]} "
            f"cards unseen, {pct(banker['sd_ev'][0], 3)} with {banker['bucket'][0]}; perfect bettor's gain "
            f"per shoe: Tie {tie:.4f}, natural 8 {n8:.3f}, natural 9 {n9:.3f} units"
        )
        return Reproduced(text, bool(grows and tie < 0.1 * min(n8, n9)), f"{result.n_shoes:,} shoes")

    providers["thorp_walden_1973_spread"] = thorp_walden
    return providers


#: How many standard errors of the simulation a published count result may be from the toolkit's (about 0.3 %
#: false alarms per figure; the published figures come from 100 million shoes or an unstated number).
COUNT_Z = 3.0


def count_providers(
    shoes: int = 20_000,
    seed: SeedLike = 1,
    workers: int | None = 1,
    progress: bool = False,
    scheduler: Any = None,
) -> dict[str, Any]:
    """Providers for the published count results (``count_results.csv``), simulated by :mod:`toolkit.counting`.

    Jacobson's Dragon 7 (true count >= +4) and the Panda 8 count (at +11, the
    threshold the published figure implies; see ``toolkit.counting.systems``) are played
    through the same ``shoes`` shoes (8 decks, cut card 14); How's unbalanced
    Dragon 7 count (running count > 0) through shoes with the cut card 16 from
    the end, as published.  Values are units won per shoe from the exact EV of
    every bet placed; a figure matches when it lies within ``COUNT_Z`` standard
    errors (plus half a unit of its last printed digit) of the simulation.
    The ten-count claim has no number: its status says so (a claim, not pending).  ``seed`` (anything
    :data:`toolkit.parallel.SeedLike` accepts) is fixed to one integer first
    (:func:`toolkit.studies.thorp.design.seed_integer`), so that both
    simulations start from it, as they do from an integer seed.

    Parameters
    ----------
    shoes
        Shoes simulated (``baccarat thorp`` passes at most 10,000, fewer with fewer ``--shoes``).
    seed
        The simulations' seed.
    workers, progress, scheduler
        As :func:`toolkit.counting.run_strategies` takes them.

    Returns
    -------
    dict
        Figure name to provider, for :func:`reproduce_table`.
    """
    import numpy as np

    from toolkit.counting import count_strategy, run_strategies
    from toolkit.dealing.dealer import Dealing
    from toolkit.edges.reference import Reproduced, printed_number, printed_tolerance

    options = {"seed": seed_integer(seed), "workers": workers, "progress": progress, "scheduler": scheduler}
    d7, p8 = run_strategies([count_strategy("dragon7"), count_strategy("panda8")], shoes, Dealing(), **options)
    (how,) = run_strategies([count_strategy("how_dragon7", threshold=1)], shoes, Dealing(cut_card=16), **options)
    both = d7.totals.ev + p8.totals.ev
    combined = (float(both.mean()), float(both.std(ddof=1) / np.sqrt(len(both))))
    estimates = {
        "dragon7_jacobson_units_per_shoe": (d7.units_per_shoe_ev.value, d7.units_per_shoe_ev.se, 1.0),
        "panda8_wizard_units_per_shoe": (p8.units_per_shoe_ev.value, p8.units_per_shoe_ev.se, 1.0),
        "dragon7_panda8_combined_units_per_shoe": (*combined, 1.0),
        "dragon7_how_units_per_shoe": (how.units_per_shoe_ev.value, how.units_per_shoe_ev.se, 100.0),
        "dragon7_how_bets_per_shoe": (how.bets_per_shoe.value, how.bets_per_shoe.se, 1.0),
    }

    def provider(figure: str) -> Any:
        value, se, scale = estimates[figure]

        def provide(row: dict[str, Any]) -> Reproduced:
            published = float(printed_number(row["printed"]))
            allowed = COUNT_Z * se * scale + float(printed_tolerance(row["printed"]))
            return Reproduced(
                value * scale,
                abs(value * scale - published) <= allowed,
                f"standard error {se * scale:.3g}; {shoes:,} simulated shoes, within {COUNT_Z:g} standard errors",
            )

        return provide

    def claim(row: dict[str, Any]) -> Reproduced:  # the count shoes were dealt: the claim is not waiting on them
        return Reproduced("no figure to reproduce", None, "a claim without a number or a bet rule to simulate")

    return {**{figure: provider(figure) for figure in estimates}, "ten_count_jstat_claim": claim}


def reproduce_table(
    result: StudyResult | None = None,
    jacobson: pl.DataFrame | None = None,
    counts: dict[str, Any] | None = None,
) -> pl.DataFrame:
    """Every published figure in ``data/reference`` beside the toolkit's value.

    ``result`` and ``jacobson`` feed :func:`reproduce_providers`; ``counts``
    (from :func:`count_providers`) the published count results.

    Parameters
    ----------
    result, jacobson
        For :func:`reproduce_providers`.
    counts
        From :func:`count_providers`.

    Returns
    -------
    polars.DataFrame
        ``figure, table, source, published, unit, toolkit, matches, status``.
    """
    from toolkit.edges.reference import compare_published

    return compare_published(providers={**reproduce_providers(result, jacobson), **(counts or {})})
