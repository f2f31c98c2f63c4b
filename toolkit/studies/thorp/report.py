"""What the Thorp study says: verdicts in plain words, ``summary.json``, ``report.md`` and the files of a run.

Everything here reads a :class:`toolkit.studies.thorp.study.StudyResult`; nothing is
recomputed except the published-figures table (:func:`reproduce_table`), which
asks :func:`toolkit.reference.compare_published` and supplies the figures that
need the study (Jacobson's setting, the claims of Thorp and of Thorp and
Walden) as providers.

The criteria, stated once:

* **Thorp's claim** ("almost always in the last 5 to 20 cards") *holds* for a
  bet when the lower 95 % bound of the share of its edges dealt with at most 20
  unseen cards is at least 90 %; when the upper bound is below 90 % the
  literal claim fails, and the verdict says whether edges are at least an
  end-of-shoe affair: it *holds only partly* when at most 10 % of the edges
  come with more than 50 unseen cards (point estimate), and *does not hold*
  otherwise; when the
  interval straddles 90 % the run is too small to say.
* **Jacobson's "effectively no edge beyond 50 cards"** holds when, for both
  Player and Banker, the upper 95 % bound of the rate of edges among hands
  dealt with more than 50 unseen cards is below one in a thousand.
* **Thorp and Walden's contrast** holds when the spread (SD) of every bet's EV
  grows as the shoe is depleted and the perfect bettor's gain per shoe on the
  Tie is under a tenth of that on either natural bet.

>>> from toolkit.studies.thorp.study import ThorpStudy, run_study
>>> result = run_study(ThorpStudy(shoes=30, seed=2, bets=("banker", "player")), progress=False)
>>> banker = summary(result)["bets"]["banker"]
>>> banker["hands"] == result.n_hands, "share_positive_within_last_20" in banker, "18" in banker["p_positive"]
(True, True, True)
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from toolkit.studies.thorp.study import REGIONS, StudyResult

__all__ = [
    "BET_GROUPS",
    "count_providers",
    "markdown_report",
    "reproduce_providers",
    "reproduce_table",
    "summary",
    "verdicts",
    "write_outputs",
]

#: How the report groups the panel, and the label of each bet.
BET_GROUPS: dict[str, tuple[str, str]] = {
    "banker": ("main bets", "Banker"),
    "player": ("main bets", "Player"),
    "super6_banker": ("main bets", "Banker, Super 6"),
    "ez_banker": ("main bets", "Banker, EZ"),
    "tie": ("Tie", "Tie 8:1"),
    "tie_9to1": ("Tie", "Tie 9:1"),
    "natural8": ("naturals", "Natural 8"),
    "natural9": ("naturals", "Natural 9"),
    "dragon7": ("Dragon 7", "Dragon 7"),
    "panda8": ("Panda 8", "Panda 8"),
    "player_pair": ("pairs", "Player Pair"),
    "banker_pair": ("pairs", "Banker Pair"),
    "either_pair": ("pairs", "Either Pair"),
    "dragon_bonus_player": ("other side bets", "Dragon Bonus, Player"),
    "dragon_bonus_banker": ("other side bets", "Dragon Bonus, Banker"),
    "big": ("other side bets", "Big"),
    "small": ("other side bets", "Small"),
}

#: Thorp's "almost always": the share of edges the last 20 cards must hold.
ALMOST_ALWAYS = 0.9
#: Jacobson's "effectively no": at most this rate of edges per hand beyond 50 unseen cards.
EFFECTIVELY_NONE = 1e-3


def _label(bet: str) -> str:
    return BET_GROUPS.get(bet, ("other", bet))[1]


def _group(bet: str) -> str:
    return BET_GROUPS.get(bet, ("other", bet))[0]


def _pct(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f} %"


def _complement(x: float | None) -> float | None:
    return None if x is None else 1 - x


def _one_in(p: float | None) -> str:
    if not p:
        return "never"
    return f"1 hand in {1 / p:,.0f}"


# ------------------------------------------------------------------ verdicts
def _thorp_status(row: Mapping[str, Any]) -> str:
    if not row["positive_hands"]:
        return "no edges seen"
    if (row["share_positive_last_20_low"] or 0) >= ALMOST_ALWAYS:
        return "holds"
    if (row["share_positive_last_20_high"] or 0) < ALMOST_ALWAYS:
        # the literal claim fails; say whether edges are at least an end-of-shoe affair
        return "holds only partly" if row["share_positive_beyond_50"] <= 1 - ALMOST_ALWAYS else "does not hold"
    return "undecided at this number of shoes"


def _verdict_text(row: Mapping[str, Any], status: str) -> str:
    label = _label(row["bet"])
    if status == "no edges seen":
        return (
            f"{label}: no positive expectation in {row['hands']:,} hands ({row['shoes']:,} shoes); "
            "nothing to count for in this setting."
        )
    p = row["p_positive"]
    rarity = "very rare" if p < 0.01 else "uncommon" if p < 0.1 else "common"
    size = row["mean_positive_ev"]
    small = "very small" if size < 0.01 else "small" if size < 0.05 else "large"
    text = (
        f"{label}: edges are {rarity} ({_one_in(p)}, {row['opportunities_per_shoe']:.2f} per shoe) and {small} "
        f"(+{_pct(size, 2)} on average when present); a perfect bettor gains {row['gain_per_shoe']:.4f} units "
        f"per shoe. {_pct(row['share_positive_last_20'], 0)} "
        f"[{_pct(row['share_positive_last_20_low'], 0)}, {_pct(row['share_positive_last_20_high'], 0)}] of the "
        f"edges come with 20 or fewer cards unseen, where {_pct(row['share_hands_last_20'])} of hands are dealt; "
        f"{_pct(_complement(row['share_positive_beyond_50']), 0)} within the last 50; the deepest at "
        f"{row['deepest_edge']} cards. "
    )
    claim = {
        "holds": "Thorp's claim holds.",
        "holds only partly": "Thorp's claim holds only partly: the edges belong to the end of the shoe, "
        f"but fewer than {ALMOST_ALWAYS:.0%} of them come in the last 20 cards.",
        "does not hold": f"Thorp's claim does not hold: {_pct(row['share_positive_beyond_50'], 0)} of the edges "
        "come with more than 50 cards unseen.",
    }.get(status, "Too few shoes to decide Thorp's claim.")
    return text + claim


def verdicts(result: StudyResult, observer: str = "unseen") -> pl.DataFrame:
    """One row per bet: ``bet, label, group, thorp_claim`` (status) and ``verdict`` (a sentence with its numbers)."""
    claims = result.claims().filter(pl.col("observer") == observer)
    rows = []
    for row in claims.to_dicts():
        status = _thorp_status(row)
        rows.append(
            {
                "bet": row["bet"],
                "label": _label(row["bet"]),
                "group": _group(row["bet"]),
                "thorp_claim": status,
                "verdict": _verdict_text(row, status),
            }
        )
    return pl.DataFrame(rows)


# ------------------------------------------------------------------- summary
def _clean(value: Any) -> Any:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    return value


def summary(result: StudyResult) -> dict[str, Any]:
    """Everything a script needs, JSON-able.

    ``bets`` (the perfect counter, observer ``unseen``) maps each bet to
    ``hands, positive_hands, p_positive, share_positive_within_last_20``
    (and its ``_low``/``_high`` bounds), the other shares of
    :data:`toolkit.studies.thorp.study.REGIONS`, ``gain_per_shoe`` (and ``_se``),
    ``opportunities_per_shoe``, ``mean_positive_ev``, ``max_ev``,
    ``deepest_edge``, ``depth_one_in_a_million``, ``thorp_claim``, ``verdict``
    and ``p_positive`` keyed by the number of unseen cards (as a string).
    ``observers`` holds the same for every observer of the study.
    """
    study = result.study
    fingerprint = study.fingerprint()
    out: dict[str, Any] = {
        "study": {
            **{k: v for k, v in fingerprint.items() if k not in ("bets", "tableau")},
            "tableau": study.dealing.tableau.name,
            "bets": list(study.bet_names),
            "shoes_done": result.n_shoes,
            "complete": result.complete,
        },
        "hands": result.n_hands,
        "timing_seconds": {"wall": result.wall_seconds, **result.seconds},
        "observers": {},
    }
    by_unseen = result.by_unseen()
    for observer in study.observers:
        claims = result.claims().filter(pl.col("observer") == observer)
        words = {r["bet"]: r for r in verdicts(result, observer).to_dicts()}
        bets: dict[str, Any] = {}
        for row in claims.to_dicts():
            bet = row["bet"]
            entry = {k: _clean(v) for k, v in row.items() if k not in ("observer", "bet")}
            for region in REGIONS:  # "last_20" reads "share_positive_within_last_20"
                for kind in ("positive", "gain"):
                    for suffix in ("", "_low", "_high"):
                        old = f"share_{kind}_{region}{suffix}"
                        new = f"share_{kind}_within_{region}{suffix}" if region.startswith("last") else old
                        entry[new] = entry.pop(old)
            entry["thorp_claim"] = words[bet]["thorp_claim"]
            entry["verdict"] = words[bet]["verdict"]
            cells = by_unseen.filter((pl.col("observer") == observer) & (pl.col("bet") == bet))
            entry["p_positive"] = {str(u): p for u, p in zip(cells["unseen"], cells["p_positive"], strict=True)}
            bets[bet] = entry
        out["observers"][observer] = {"bets": bets}
    out["bets"] = out["observers"][study.observers[0]]["bets"]
    out["jacobson"] = result.jacobson().to_dicts()
    if "unseen" in study.observers:
        out["beyond_50"] = result.beyond(50).to_dicts()
        variance = result.variance_by_bucket()
        out["variance"] = {
            bet: [
                {k: _clean(v) for k, v in r.items() if k != "bet"}
                for r in variance.filter(pl.col("bet") == bet).to_dicts()
            ]
            for bet in study.bet_names
        }
    return out


# ---------------------------------------------------------------- reproduce
def reproduce_providers(result: StudyResult | None = None, jacobson: pl.DataFrame | None = None) -> dict[str, Any]:
    """Providers for :func:`toolkit.reference.compare_published`: the figures that need the study.

    ``jacobson`` (from :func:`toolkit.studies.thorp.study.jacobson_setting`) supplies the
    rows of Jacobson's setting; otherwise the study's own Jacobson part does.
    ``result`` supplies the claims (Thorp 1984, Thorp and Walden 1973,
    Jacobson's "beyond 50 cards").  Figures with no provider stay pending.
    """
    from toolkit.reference import Reproduced

    providers: dict[str, Any] = {}
    jac = jacobson if jacobson is not None else (result.jacobson() if result is not None else None)
    if jac is not None:
        for depth in jac["unseen"].unique().to_list():
            rows = {r["bet"]: r for r in jac.filter(pl.col("unseen") == depth).to_dicts()}

            def provide(row: dict[str, Any], rows: dict[str, Any] = rows) -> Reproduced:
                parts = [
                    f"P({_label(b)} EV > 0) = {_pct(r['p_positive'], 2)} "
                    f"[{_pct(r['p_low'], 2)}, {_pct(r['p_high'], 2)}], mean edge when positive "
                    f"+{_pct(r['mean_positive_ev'], 2)}"
                    for b, r in rows.items()
                ]
                samples = next(iter(rows.values()))["samples"]
                return Reproduced("; ".join(parts), None, f"{samples:,} shoes, exact EVs of the last cards")

            providers[f"jacobson_perfect_{depth}"] = provide
    if result is None or "unseen" not in result.study.observers:
        return providers
    names = result.study.bet_names
    claims = {r["bet"]: r for r in result.claims().filter(pl.col("observer") == "unseen").to_dicts()}
    hands = result.tally.arrays["hands"][result.study.observers.index("unseen")]

    if {"player", "banker"} <= set(names):
        beyond = {r["bet"]: r for r in result.beyond(50).to_dicts()}

        def beyond_50(row: dict[str, Any]) -> Reproduced:
            text = "; ".join(
                f"{_label(b)}: {r['positive']:,} edges in {r['hands']:,} hands beyond 50 unseen cards "
                f"({_one_in(r['rate'])}), deepest at {claims[b]['deepest_edge']} cards"
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
                f"{_pct(share, 2)} of hands dealt with fewer than 18 unseen cards",
                None,
                f"cut card {d.cut_card}, burn {d.burn}, last hand {d.last_hand}",
            )

        def thorp_1984(row: dict[str, Any]) -> Reproduced:
            parts = []
            ok = True
            for b in ("banker", "player"):
                c = claims[b]
                ok = ok and _thorp_status(c) == "holds"
                parts.append(
                    f"{_label(b)}: edges in {_one_in(c['p_positive'])}, +{_pct(c['mean_positive_ev'], 2)} on "
                    f"average; {_pct(c['share_positive_last_20'], 0)} of them within the last 20 unseen cards "
                    f"(where {_pct(c['share_hands_last_20'])} of hands are dealt), "
                    f"{_pct(_complement(c['share_positive_beyond_50']), 0)} within the last 50"
                )
            return Reproduced(
                "; ".join(parts), ok, f"'almost always' read as at least {ALMOST_ALWAYS:.0%}; {result.n_shoes:,} shoes"
            )

        providers["jacobson_perfect_beyond_50"] = beyond_50
        providers["jacobson_perfect_min_18"] = min_18
        providers["thorp_1984_last_cards"] = thorp_1984

    if {"tie", "natural8", "natural9"} <= set(names):
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
                f"SD of the {_label(names[0])} EV: {_pct(banker['sd_ev'][-1], 3)} with {banker['bucket'][-1]} "
                f"cards unseen, {_pct(banker['sd_ev'][0], 3)} with {banker['bucket'][0]}; perfect bettor's gain "
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
    seed: int | None = 1,
    workers: int | None = 1,
    progress: bool = False,
    scheduler: Any = None,
) -> dict[str, Any]:
    """Providers for the published count results (``count_results.csv``), simulated with :mod:`toolkit.counting`.

    Jacobson's Dragon 7 (true count >= +4) and the Panda 8 count (at +11, the
    threshold the published figure implies; see ``toolkit.counting.systems``) are played
    through the same ``shoes`` shoes (8 decks, cut card 14); How's unbalanced
    Dragon 7 count (running count > 0) through shoes with the cut card 16 from
    the end, as published.  Values are units won per shoe from the exact EV of
    every bet placed; a figure matches when it lies within ``COUNT_Z`` standard
    errors (plus half a unit of its last printed digit) of the simulation.
    The ten-count claim has no number and stays pending.
    """
    import numpy as np

    from toolkit.counting import count_strategy, run_strategies
    from toolkit.dealing import Dealing
    from toolkit.reference import Reproduced, printed_number, printed_tolerance

    options = {"seed": seed, "workers": workers, "progress": progress, "scheduler": scheduler}
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

    return {figure: provider(figure) for figure in estimates}


def reproduce_table(
    result: StudyResult | None = None,
    jacobson: pl.DataFrame | None = None,
    counts: dict[str, Any] | None = None,
) -> pl.DataFrame:
    """Every published figure in ``data/reference`` beside the toolkit's value.

    ``result`` and ``jacobson`` feed :func:`reproduce_providers`; ``counts``
    (from :func:`count_providers`) the published count results.
    """
    from toolkit.reference import compare_published

    return compare_published(providers={**reproduce_providers(result, jacobson), **(counts or {})})


# ------------------------------------------------------------------- report
def _md_table(frame: pl.DataFrame) -> str:
    cols = frame.columns
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.iter_rows():
        lines.append("| " + " | ".join("" if v is None else str(v).replace("|", "/") for v in row) + " |")
    return "\n".join(lines)


def _numbers_table(claims: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "bet": _label(r["bet"]),
                "P(edge) per hand": _pct(r["p_positive"], 3),
                "edges per shoe": f"{r['opportunities_per_shoe']:.3f}",
                "gain per shoe": f"{r['gain_per_shoe']:.4f}",
                "edges in last 20 [95 % CI]": f"{_pct(r['share_positive_last_20'], 0)} "
                f"[{_pct(r['share_positive_last_20_low'], 0)}, {_pct(r['share_positive_last_20_high'], 0)}]",
                "last 5-20": _pct(r["share_positive_last_5_20"], 0),
                "beyond 50": _pct(r["share_positive_beyond_50"], 0),
                "gain in last 20": _pct(r["share_gain_last_20"], 0),
                "deepest edge": r["deepest_edge"],
                "rarer than 1e-6 beyond": r["depth_one_in_a_million"],
            }
            for r in claims.to_dicts()
        ]
    )


def markdown_report(
    result: StudyResult,
    reproduce: pl.DataFrame | None = None,
    figures: Mapping[str, str] | None = None,
) -> str:
    """The report a newcomer reads first: the verdict with its numbers, Jacobson's setting, the variance check."""
    study, d = result.study, result.study.dealing
    words = verdicts(result, study.observers[0])
    claims = result.claims().filter(pl.col("observer") == study.observers[0])
    who = (
        "the cards a perfect counter has not seen (burned cards stay unseen)"
        if study.observers[0] == "unseen"
        else "the cards left in the shoe (an observer who also saw the burned cards)"
    )
    lines = [
        "# Do baccarat edges appear only in the last 5-20 cards?",
        "",
        f"{result.n_shoes:,} shuffled {d.decks}-deck shoes (seed {study.seed}), {result.n_hands:,} hands; burn "
        f"{d.burn}, cut card {d.cut_card} cards from the end, last hand rule {d.last_hand}. Before every coup the "
        f"exact expectation of every bet was computed from {who}. An *edge* is a positive expectation; the "
        "*perfect bettor* bets one unit whenever there is one. Depths are counted in the cards that observer has "
        "not seen before the coup.",
    ]
    if not result.complete:
        lines += ["", f"**Partial run:** {result.blocks_done} of {study.n_blocks} blocks."]
    status = dict(zip(words["bet"], words["thorp_claim"], strict=True))
    main = [b for b in ("banker", "player") if b in status]
    lines += ["", "## Verdict", ""]
    if main:
        rows = [r for r in claims.to_dicts() if r["bet"] in main and r["positive_hands"]]
        rarity = ", ".join(f"{_label(r['bet'])} {_one_in(r['p_positive'])}" for r in rows)
        middle = ", ".join(
            f"{_pct(_complement((r['share_positive_last_20'] or 0) + (r['share_positive_beyond_50'] or 0)), 0)} "
            f"({_label(r['bet'])})"
            for r in rows
        )
        if not rows:
            where = "no edge was seen on them in this run."
        elif all(status[b] == "holds" for b in main):
            where = "and they do come almost always in the last 20 cards."
        else:
            where = (
                f"and they belong to the end of the shoe, but {middle} of them come with 21 to 50 cards unseen: "
                f"with this dealing only {_pct(claims['share_hands_last_20'][0])} of hands are dealt with 20 or "
                "fewer cards unseen."
            )
        lines += [
            "Thorp (1984) said advantages in baccarat are very small, very rare and come almost always in the "
            f"last 5 to 20 cards. On the main bets they are indeed very small and very rare ({rarity}), {where} "
            "The side bets tell another story: see below.",
            "",
        ]
    for group in dict.fromkeys(words["group"]):
        lines += [f"**{group}**", ""]
        lines += [f"- {row['verdict']}" for row in words.filter(pl.col("group") == group).to_dicts()]
        lines.append("")
    lines += ["## The numbers", "", _md_table(_numbers_table(claims)), ""]
    lines.append(
        f"Baseline: {_pct(claims['share_hands_last_20'][0])} of all hands are dealt with 20 or fewer cards unseen, "
        f"{_pct(_complement(claims['share_hands_beyond_50'][0]))} with 50 or fewer. Intervals are 95 % (delta method "
        "over shoes, the independent unit). 'Rarer than 1e-6 beyond' is the depth beyond which edges come in "
        "fewer than one hand in a million among all the hands dealt deeper (point estimate: with few shoes it is "
        "close to the deepest edge)."
    )
    for observer in study.observers[1:]:
        other = result.claims().filter(pl.col("observer") == observer)
        lines += [
            "",
            f"### The {observer} observer",
            "",
            "A stronger, hypothetical observer who also saw the burned cards: expectations from the cards left in "
            "the shoe, depths in cards left. Same shoes, same hands.",
            "",
            _md_table(_numbers_table(other)),
            "",
            f"Baseline: {_pct(other['share_hands_last_20'][0])} of all hands are dealt with 20 or fewer cards left.",
        ]
    jac = pl.DataFrame(
        [
            {
                "unseen": r["unseen"],
                "bet": _label(r["bet"]),
                "P(EV > 0)": _pct(r["p_positive"], 2),
                "95 % CI": f"{_pct(r['p_low'], 2)} - {_pct(r['p_high'], 2)}",
                "mean edge when positive": _pct(r["mean_positive_ev"], 2),
            }
            for r in result.jacobson().to_dicts()
        ]
    )
    lines += [
        "",
        "## Jacobson's computer-perfect setting",
        "",
        f"Exact Player and Banker edges with a fixed number of unseen cards (the last cards of each of the "
        f"{result.n_shoes:,} shoes; Jacobson used 100,000).",
        "",
        _md_table(jac),
    ]
    if "unseen" in study.observers and {"player", "banker"} <= set(study.bet_names):
        beyond = result.beyond(50)
        lines += [
            "",
            "Jacobson: *beyond 50 cards, effectively no player edge on either wager.* In this run: "
            + "; ".join(
                f"{_label(r['bet'])} {r['positive']:,} edges in {r['hands']:,} hands dealt with more than 50 unseen "
                f"cards ({_one_in(r['rate'])})"
                for r in beyond.to_dicts()
            )
            + ".",
        ]
    if "unseen" in study.observers:
        var = result.variance_by_bucket()
        shown = [b for b in ("banker", "player", "tie", "natural9", "dragon7", "player_pair") if b in study.bet_names]
        wide = (
            var.filter(pl.col("bet").is_in(shown))
            .with_columns(pl.col("ratio").round(2))
            .pivot(on="bet", index=["bucket", "unseen_low"], values="ratio")
            .sort("unseen_low", descending=True)
            .drop("unseen_low")
        )
        lines += [
            "",
            "## The fundamental theorem",
            "",
            "Thorp and Walden (1973): the spread of expectations grows as the shoe is depleted. The linear "
            "(effect-of-removal) prediction of the variance of the exact EV with n cards left is "
            "(N - n) / (n (N - 1)) (N - 1)^2 sum_c p_c EOR_c^2 (derivation: `toolkit.studies.thorp.study.linear_variance`). "
            "Observed variance / predicted, by cards unseen (1 = the linear picture is exact; the pair bets have "
            "no first-order spread, so no ratio):",
            "",
            _md_table(wide),
            "",
            "The linear picture holds to a few per cent deep in the shoe and fails in the last few dozen cards, "
            "exactly where the edges are.",
        ]
    if figures:
        lines += ["", "## Figures", ""]
        for title, path in figures.items():
            lines.append(f"![{title}]({path})")
            lines.append("")
    if reproduce is not None:
        lines += [
            "",
            "## Published figures, reproduced",
            "",
            _md_table(reproduce.select("figure", "published", "toolkit", "status")),
        ]
    t = result.seconds
    if result.wall_seconds:
        lines += [
            "",
            f"Run time {result.wall_seconds:.1f} s for {result.coups_this_run:,} coups this run "
            f"(worker seconds: dealing {t.get('deal', 0):.1f}, exact EVs {t.get('ev', 0):.1f}, "
            f"aggregation {t.get('aggregate', 0):.1f}, Jacobson's setting {t.get('jacobson', 0):.1f}).",
        ]
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------- files
TABLES = ("by_unseen", "by_bucket", "cumulative", "claims", "per_shoe", "variance", "variance_by_bucket", "jacobson")


def write_outputs(
    result: StudyResult,
    out: str | os.PathLike,
    reproduce: bool = True,
    figures: bool = True,
    jacobson: pl.DataFrame | None = None,
    counts: dict[str, Any] | None = None,
) -> dict[str, Path]:
    """Write the tables (Parquet and CSV, in ``tables/``), ``summary.json``, figures (``figures/``) and ``report.md``.

    With ``reproduce``, also ``reproduce.csv`` (and its table in the report):
    the published figures, with the study's own rows and ``counts`` (from
    :func:`count_providers`; without it the count results stay pending).
    Returns the paths written, by name.
    """
    folder = Path(out)
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    frames: dict[str, pl.DataFrame] = {
        "by_unseen": result.by_unseen(),
        "by_bucket": result.by_bucket(),
        "cumulative": result.cumulative(),
        "claims": result.claims().join(
            pl.concat([verdicts(result, o).with_columns(observer=pl.lit(o)) for o in result.study.observers]),
            on=["observer", "bet"],
            how="left",
        ),
        "per_shoe": result.per_shoe(),
        "jacobson": result.jacobson(),
    }
    if "unseen" in result.study.observers:
        frames["variance"] = result.variance()
        frames["variance_by_bucket"] = result.variance_by_bucket()
    for name, frame in frames.items():
        frame.write_parquet(folder / "tables" / f"{name}.parquet")
        frame.write_csv(folder / "tables" / f"{name}.csv")
        paths[name] = folder / "tables" / f"{name}.parquet"
    paths["summary"] = folder / "summary.json"
    paths["summary"].write_text(json.dumps(summary(result), indent=2, default=_json_default) + "\n")
    table = None
    if reproduce:
        table = reproduce_table(result, jacobson, counts)
        table.write_csv(folder / "reproduce.csv")
        paths["reproduce"] = folder / "reproduce.csv"
    shown: dict[str, str] = {}
    if figures:
        from toolkit.plots.study import save_study_figures

        for title, path in save_study_figures(frames, folder / "figures").items():
            shown[title] = str(path.relative_to(folder))
            paths[f"figure:{path.stem}"] = path
    paths["report"] = folder / "report.md"
    paths["report"].write_text(markdown_report(result, table, shown))
    return paths


def _json_default(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON-able: {type(value).__name__}")
