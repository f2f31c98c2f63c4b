"""What the Thorp study says: the claim's status and verdicts in plain words, and the summary (``summary.json``).

Everything here reads a :class:`toolkit.studies.StudyResult`; nothing is
recomputed.  The report (``report.md``) is written by
:mod:`toolkit.studies.thorp.markdown`, the published figures beside the
study's values are in :mod:`toolkit.studies.thorp.reproduce`, the files of a
run in :mod:`toolkit.studies.thorp.outputs`.

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
>>> result = run_study(ThorpStudy(n_shoes=30, seed=2, bets=("banker", "player")), progress=False)
>>> banker = study_summary(result)["bets"]["banker"]
>>> banker["hands"] == result.n_hands, "share_positive_within_last_20" in banker, "18" in banker["p_positive"]
(True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import polars as pl

from toolkit.studies.thorp._text import bet_group, bet_label, complement, one_in, pct
from toolkit.studies.thorp.design import REGIONS, smallest_depth
from toolkit.studies.thorp.result import StudyResult

__all__ = ["ALMOST_ALWAYS", "smallest_depths", "study_summary", "study_verdicts", "thorp_status"]

#: Thorp's "almost always": the share of edges the last 20 cards must hold.
ALMOST_ALWAYS = 0.9


# ------------------------------------------------------------------ verdicts
def thorp_status(row: Mapping[str, Any]) -> str:
    """The status of Thorp's claim for one row of :meth:`~toolkit.studies.StudyResult.claims` (criteria above).

    Parameters
    ----------
    row
        ``positive_hands``, ``share_positive_last_20_low``/``_high`` and ``share_positive_beyond_50``.

    Returns
    -------
    str
        ``"holds"``, ``"holds only partly"``, ``"does not hold"``,
        ``"undecided at this number of shoes"`` or ``"no edges seen"``.

    Examples
    --------
    >>> thorp_status({"positive_hands": 9, "share_positive_last_20_low": 0.93, "share_positive_last_20_high": 0.99,
    ...               "share_positive_beyond_50": 0.0})
    'holds'
    """
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


def study_verdicts(result: StudyResult, observer: str = "unseen") -> pl.DataFrame:
    """One row per bet: ``bet, label, group, thorp_claim`` (status) and ``verdict`` (a sentence with its numbers).

    Parameters
    ----------
    result
        The run.
    observer
        ``"unseen"`` (the perfect counter) or ``"remaining"``, one of the study's observers.

    Returns
    -------
    polars.DataFrame
        In the order of the study's bets.

    Examples
    --------
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> table = study_verdicts(run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker",)), progress=False))
    >>> table["label"].to_list()
    ['Banker']
    """
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


def study_summary(result: StudyResult, deal_to_end: StudyResult | None = None) -> dict[str, Any]:
    """Everything a script needs, JSON-able.

    ``bets`` (the perfect counter, observer ``unseen``) maps each bet to
    ``hands, positive_hands, p_positive, share_positive_within_last_20``
    (and its ``_low``/``_high`` bounds), the other shares of
    :data:`toolkit.studies.thorp.design.REGIONS`, ``gain_per_shoe`` (and ``_se``),
    ``opportunities_per_shoe``, ``mean_positive_ev``, ``max_ev``,
    ``deepest_edge``, ``depth_one_in_a_million``, ``thorp_claim``, ``verdict``
    and ``p_positive`` keyed by the number of unseen cards (as a string).
    ``observers`` holds the same for every observer of the study,
    ``smallest_depth`` the fewest cards unseen (or left) before a coup, per
    observer, and ``deal_to_end`` (when given) the summary of that run (its
    run time under ``timing_seconds["deal_to_end"]``).

    Parameters
    ----------
    result
        The run.
    deal_to_end
        The same study dealt with no cut card, if it was run.

    Returns
    -------
    dict
        JSON-able (NaN and infinities as ``None``).

    Examples
    --------
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> out = study_summary(run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player")), progress=False))
    >>> out["smallest_depth"]["unseen"] >= 7, "deal_to_end" in out
    (True, False)
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
        "smallest_depth": smallest_depths(result),
    }
    by_unseen = result.by_unseen()
    for observer in study.observers:
        claims = result.claims().filter(pl.col("observer") == observer)
        words = {r["bet"]: r for r in study_verdicts(result, observer).to_dicts()}
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
    if deal_to_end is not None:
        out["deal_to_end"] = study_summary(deal_to_end)
        # its run time sits with the others: everything but timing_seconds repeats exactly
        out["timing_seconds"]["deal_to_end"] = out["deal_to_end"].pop("timing_seconds")
    return out


def smallest_depths(result: StudyResult) -> dict[str, int | None]:
    """The smallest depth reached (fewest cards unseen, or left, before a coup), per observer.

    Parameters
    ----------
    result
        The run.

    Returns
    -------
    dict
        Observer to depth (:func:`toolkit.studies.thorp.design.smallest_depth`).

    Examples
    --------
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> smallest_depths(run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker",)), progress=False))["unseen"] >= 7
    True
    """
    hands = result.tally.arrays["hands"]
    return {o: smallest_depth(hands[i]) for i, o in enumerate(result.study.observers)}
