"""What the Thorp study says: verdicts in plain words, the summary (``summary.json``) and the report (``report.md``).

Everything here reads a :class:`toolkit.studies.StudyResult`; nothing is
recomputed.  The published figures beside the study's values are in
:mod:`toolkit.studies.thorp.reproduce`, the files of a run in
:mod:`toolkit.studies.thorp.outputs`.

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
  dealt with more than 50 unseen cards is below one in a thousand
  (:data:`toolkit.studies.thorp.reproduce.EFFECTIVELY_NONE`).
* **Thorp and Walden's contrast** holds when the spread (SD) of every bet's EV
  grows as the shoe is depleted and the perfect bettor's gain per shoe on the
  Tie is under a tenth of that on either natural bet.

>>> from toolkit.studies import ThorpStudy, run_study
>>> result = run_study(ThorpStudy(shoes=30, seed=2, bets=("banker", "player")), progress=False)
>>> banker = summary(result)["bets"]["banker"]
>>> banker["hands"] == result.n_hands, "share_positive_within_last_20" in banker, "18" in banker["p_positive"]
(True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import polars as pl

from toolkit.studies.thorp._text import bet_group, bet_label, complement, one_in, pct
from toolkit.studies.thorp.design import REGIONS
from toolkit.studies.thorp.result import StudyResult

__all__ = ["ALMOST_ALWAYS", "markdown_report", "summary", "thorp_status", "verdicts"]

#: Thorp's "almost always": the share of edges the last 20 cards must hold.
ALMOST_ALWAYS = 0.9


# ------------------------------------------------------------------ verdicts
def thorp_status(row: Mapping[str, Any]) -> str:
    """The status of Thorp's claim for one row of :meth:`~toolkit.studies.StudyResult.claims` (criteria above)."""
    if not row["positive_hands"]:
        return "no edges seen"
    if (row["share_positive_last_20_low"] or 0) >= ALMOST_ALWAYS:
        return "holds"
    if (row["share_positive_last_20_high"] or 0) < ALMOST_ALWAYS:
        # the literal claim fails; say whether edges are at least an end-of-shoe affair
        return "holds only partly" if row["share_positive_beyond_50"] <= 1 - ALMOST_ALWAYS else "does not hold"
    return "undecided at this number of shoes"


def _verdict_text(row: Mapping[str, Any], status: str) -> str:
    label = bet_label(row["bet"])
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
        f"{label}: edges are {rarity} ({one_in(p)}, {row['opportunities_per_shoe']:.2f} per shoe) and {small} "
        f"(+{pct(size, 2)} on average when present); a perfect bettor gains {row['gain_per_shoe']:.4f} units "
        f"per shoe. {pct(row['share_positive_last_20'], 0)} "
        f"[{pct(row['share_positive_last_20_low'], 0)}, {pct(row['share_positive_last_20_high'], 0)}] of the "
        f"edges come with 20 or fewer cards unseen, where {pct(row['share_hands_last_20'])} of hands are dealt; "
        f"{pct(complement(row['share_positive_beyond_50']), 0)} within the last 50; the deepest at "
        f"{row['deepest_edge']} cards. "
    )
    claim = {
        "holds": "Thorp's claim holds.",
        "holds only partly": "Thorp's claim holds only partly: the edges belong to the end of the shoe, "
        f"but fewer than {ALMOST_ALWAYS:.0%} of them come in the last 20 cards.",
        "does not hold": f"Thorp's claim does not hold: {pct(row['share_positive_beyond_50'], 0)} of the edges "
        "come with more than 50 cards unseen.",
    }.get(status, "Too few shoes to decide Thorp's claim.")
    return text + claim


def verdicts(result: StudyResult, observer: str = "unseen") -> pl.DataFrame:
    """One row per bet: ``bet, label, group, thorp_claim`` (status) and ``verdict`` (a sentence with its numbers)."""
    claims = result.claims().filter(pl.col("observer") == observer)
    rows = []
    for row in claims.to_dicts():
        status = thorp_status(row)
        rows.append(
            {
                "bet": row["bet"],
                "label": bet_label(row["bet"]),
                "group": bet_group(row["bet"]),
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
    :data:`toolkit.studies.thorp.design.REGIONS`, ``gain_per_shoe`` (and ``_se``),
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
                "bet": bet_label(r["bet"]),
                "P(edge) per hand": pct(r["p_positive"], 3),
                "edges per shoe": f"{r['opportunities_per_shoe']:.3f}",
                "gain per shoe": f"{r['gain_per_shoe']:.4f}",
                "edges in last 20 [95 % CI]": f"{pct(r['share_positive_last_20'], 0)} "
                f"[{pct(r['share_positive_last_20_low'], 0)}, {pct(r['share_positive_last_20_high'], 0)}]",
                "last 5-20": pct(r["share_positive_last_5_20"], 0),
                "beyond 50": pct(r["share_positive_beyond_50"], 0),
                "gain in last 20": pct(r["share_gain_last_20"], 0),
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
        rarity = ", ".join(f"{bet_label(r['bet'])} {one_in(r['p_positive'])}" for r in rows)
        middle = ", ".join(
            f"{pct(complement((r['share_positive_last_20'] or 0) + (r['share_positive_beyond_50'] or 0)), 0)} "
            f"({bet_label(r['bet'])})"
            for r in rows
        )
        if not rows:
            where = "no edge was seen on them in this run."
        elif all(status[b] == "holds" for b in main):
            where = "and they do come almost always in the last 20 cards."
        else:
            where = (
                f"and they belong to the end of the shoe, but {middle} of them come with 21 to 50 cards unseen: "
                f"with this dealing only {pct(claims['share_hands_last_20'][0])} of hands are dealt with 20 or "
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
        f"Baseline: {pct(claims['share_hands_last_20'][0])} of all hands are dealt with 20 or fewer cards unseen, "
        f"{pct(complement(claims['share_hands_beyond_50'][0]))} with 50 or fewer. Intervals are 95 % (delta method "
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
            f"Baseline: {pct(other['share_hands_last_20'][0])} of all hands are dealt with 20 or fewer cards left.",
        ]
    jac = pl.DataFrame(
        [
            {
                "unseen": r["unseen"],
                "bet": bet_label(r["bet"]),
                "P(EV > 0)": pct(r["p_positive"], 2),
                "95 % CI": f"{pct(r['p_low'], 2)} - {pct(r['p_high'], 2)}",
                "mean edge when positive": pct(r["mean_positive_ev"], 2),
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
                f"{bet_label(r['bet'])} {r['positive']:,} edges in {r['hands']:,} hands dealt with more than 50 unseen "
                f"cards ({one_in(r['rate'])})"
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
            "(N - n) / (n (N - 1)) (N - 1)^2 sum_c p_c EOR_c^2 (derivation: `toolkit.studies.linear_variance`). "
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
