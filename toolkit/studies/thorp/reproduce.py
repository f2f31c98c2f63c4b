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

__all__ = [
    "COUNT_Z",
    "EFFECTIVELY_NONE",
    "EXACT_THRESHOLDS",
    "MEAN_TOLERANCE",
    "count_providers",
    "crossing_depth",
    "recorded_rule",
    "reproduce_providers",
    "reproduce_table",
]

#: Jacobson's "effectively no": at most this rate of edges per hand beyond 50 unseen cards.
EFFECTIVELY_NONE = 1e-3
#: The chances of an edge whose crossing depths the exact rows report: "rare" (one coup in ten) and "very rare"
#: (one in a hundred).  Thorp's claim (edges almost always within the last 20 cards) implies the first is crossed
#: by 20 cards for Banker and Player; no source published a per-depth figure.
EXACT_THRESHOLDS = (0.10, 0.01)
#: The largest |mean edge - fresh-shoe edge| the exact table may show (its float error is about 1e-15).
MEAN_TOLERANCE = 1e-12


def reproduce_providers(
    result: StudyResult | None = None, jacobson: pl.DataFrame | None = None, exact: pl.DataFrame | None = None
) -> dict[str, Any]:
    """Providers for :func:`toolkit.edges.reference.compare_published`: the figures that need the study.

    ``jacobson`` (from :func:`toolkit.studies.jacobson_setting`) supplies the
    rows of Jacobson's setting; otherwise the study's own Jacobson part does.
    ``result`` supplies the claims (Thorp 1984, Thorp and Walden 1973,
    Jacobson's "beyond 50 cards").  ``exact`` (a frame of
    :func:`toolkit.studies.last_cards.last_cards` for 8 decks with Banker and Player) supplies the claims
    checked on the exact law of the last cards, and its figures beside Jacobson's at the depths it holds.
    Figures with no provider stay pending.

    Parameters
    ----------
    result
        The study (claims, Jacobson's own setting).
    jacobson
        A separate Jacobson's setting (:func:`toolkit.studies.jacobson_setting`).
    exact
        The exact law of the last cards (:func:`toolkit.studies.last_cards.last_cards`).

    Returns
    -------
    dict
        Figure name to a function of the published row returning a :class:`toolkit.edges.reference.Reproduced`.
    """
    providers: dict[str, Any] = {}
    jac = jacobson if jacobson is not None else (result.jacobson() if result is not None else None)
    if jac is not None:
        providers.update(_jacobson_providers(jac, exact))
    if exact is not None and exact.height:
        providers.update(_exact_providers(exact))
    if result is None or "unseen" not in result.study.observers:
        return providers
    names = result.study.bet_names
    claims = {r["bet"]: r for r in result.claims().filter(pl.col("observer") == "unseen").to_dicts()}
    if {"player", "banker"} <= set(names):
        providers.update(_last_cards_providers(result, claims))
    if {"tie", "natural8", "natural9"} <= set(names):
        providers.update(_spread_providers(result, claims))
    return providers


def _jacobson_providers(jac: pl.DataFrame, exact: pl.DataFrame | None = None) -> dict[str, Any]:
    """One provider per depth of Jacobson's setting: P(EV > 0) and the mean edge of each bet (and the exact
    P(EV > 0) where ``exact`` holds the depth)."""
    from toolkit.edges.reference import Reproduced

    providers: dict[str, Any] = {}
    for depth in jac["unseen"].unique().to_list():
        rows = {r["bet"]: r for r in jac.filter(pl.col("unseen") == depth).to_dicts()}

        def provide(row: dict[str, Any], rows: dict[str, Any] = rows, depth: int = depth) -> Reproduced:
            parts = [
                f"P({bet_label(b)} EV > 0) = {pct(r['p_positive'], 2)} "
                f"[{pct(r['p_low'], 2)}, {pct(r['p_high'], 2)}], mean edge when positive "
                f"+{pct(r['mean_positive_ev'], 2)}"
                for b, r in rows.items()
            ]
            samples = next(iter(rows.values()))["samples"]
            return Reproduced(
                "; ".join(parts), None, f"{samples:,} shoes, exact EVs of the last cards{_exactly_at(exact, depth)}"
            )

        providers[f"jacobson_perfect_{depth}"] = provide
    return providers


def _exactly_at(exact: pl.DataFrame | None, depth: int) -> str:
    """``; exactly: P(Banker EV > 0) = ...`` at ``depth`` from the exact table (empty when it lacks the depth)."""
    if exact is None:
        return ""
    rows = exact.filter((pl.col("cards_left") == depth) & pl.col("bet").is_in(["banker", "player"]))
    parts = [f"P({bet_label(r['bet'])} EV > 0) = {pct(r['p_positive'], 2)}" for r in rows.to_dicts()]
    return f"; every composition weighed: {', '.join(parts)}" if parts else ""


def crossing_depth(exact: pl.DataFrame, bet: str, threshold: float) -> int | None:
    """The fewest cards left from which on (to the table's last depth) ``bet``'s P(edge > 0) is below ``threshold``.

    ``None`` when it is not below it at the table's last depth.

    >>> frame = pl.DataFrame({"cards_left": [6, 7, 8, 9], "bet": ["banker"] * 4, "p_positive": [0.3, 0.2, 0.05, 0.04]})
    >>> crossing_depth(frame, "banker", 0.1), crossing_depth(frame, "banker", 0.01)
    (8, None)
    """
    rows = exact.filter(pl.col("bet") == bet).sort("cards_left")
    above = rows.filter(pl.col("p_positive") >= threshold)
    if above.height == rows.height:
        return None
    if above.is_empty():
        return int(rows["cards_left"][0])
    return int(above["cards_left"][-1]) + 1


def _exact_providers(exact: pl.DataFrame) -> dict[str, Any]:
    """The claims checked on the exact law of the last cards: Thorp and Walden's mean, Thorp's last 5-20 cards."""
    from toolkit.edges.reference import Reproduced

    first, last = int(exact["cards_left"].min()), int(exact["cards_left"].max())  # type: ignore[arg-type]
    bets = [b for b in dict.fromkeys(exact["bet"].to_list()) if b in ("banker", "player", "tie", "best")]
    where = f"every composition of the last {first} to {last} cards of 8 decks weighed"

    def mean_is_fresh(row: dict[str, Any]) -> Reproduced:
        deviation = float(exact["mean_deviation"].drop_nulls().abs().max())  # type: ignore[arg-type]
        return Reproduced(
            f"largest |mean edge - full-shoe edge| {deviation:.1e} over {last - first + 1} depths and "
            f"{', '.join(bet_label(b) for b in bets if b != 'best')}",
            deviation <= MEAN_TOLERANCE,
            f"{where}; within {MEAN_TOLERANCE:g} (float error about 1e-15); no per-depth figure was published",
        )

    def last_cards_exact(row: dict[str, Any]) -> Reproduced:
        parts, crossed = [], {}
        for b in bets:
            at = dict(exact.filter(pl.col("bet") == b).select("cards_left", "p_positive").iter_rows())
            said = []
            for t in EXACT_THRESHOLDS:
                n = crossing_depth(exact, b, t)
                crossed[(b, t)] = n
                said.append(f"below {pct(t, 0)} from {n} cards" if n is not None else f"not below {pct(t, 0)}")
            parts.append(
                f"{bet_label(b)}: P(EV > 0) {pct(at[first], 1)} with {first} cards left, {pct(at[last], 1)} with "
                f"{last}; {', '.join(said)}"
            )
        rare = [crossed.get((b, EXACT_THRESHOLDS[0])) for b in ("banker", "player")]
        ok = None if None in rare else all(n is not None and n <= 20 for n in rare)
        return Reproduced(
            "; ".join(parts),
            ok,
            f"{where}; Thorp published no per-depth figure: the claim read as Banker's and Player's chance of an "
            f"edge below {pct(EXACT_THRESHOLDS[0], 0)} from 20 cards on",
        )

    return {"thorp_walden_1973_mean_exact": mean_is_fresh, "thorp_1984_last_cards_exact": last_cards_exact}


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


#: Which count system of the library plays each published system of ``count_results.csv``.
_SYSTEMS = {
    "dragon7_jacobson": "dragon7",
    "panda8_wizard": "panda8",
    "dragon7_how_unbalanced": "how_dragon7",
    "big_tiger_jacobson": "big_tiger",
}

#: Figures judged on the computed count (:func:`toolkit.counting.count_value`: exact, so within the printed rounding)
#: rather than on the simulation, which the status still shows as a check.  Jacobson's Dragon 7 figure is not
#: reproduced by its recorded convention (notebooks/maths/computed-counts.md, "Jacobson's Dragon 7 figure").
COMPUTED_FIGURES = ("dragon7_jacobson_units_per_shoe",)
#: The chain's measured error on the Dragon 7 count (computed less a 10,000,000-shoe simulation, units a shoe).
CHAIN_ERROR = 0.0006
#: The standard error of a realised win over Jacobson's 100 million shoes (per-shoe SD 17.9 units, measured here).
PUBLISHED_SE = 0.0018

#: The true-count conventions as ``count_results.csv`` writes them, and the divisor each names.
_DIVISORS = {
    "true count = running count / decks of cards left in the shoe": "decks_left",
    "true count = running count / decks of unseen cards": "unseen",
}


def recorded_rule(text: str) -> tuple[str, float] | None:
    """A bet rule as the reference writes it (``"true count >= +4"``, ``"running count > 0"``): count and threshold.

    A strict ``>`` on the running count (a whole number) is ``>= value + 1``; on the true
    count, the next number above ``value``.  ``None`` for an empty rule (no published trigger).

    >>> recorded_rule("running count > 0"), recorded_rule("true count >= +4"), recorded_rule("")
    (('running', 1.0), ('true', 4.0), None)
    """
    import re

    import numpy as np

    if not text:
        return None
    found = re.fullmatch(r"(true|running) count (>=|>) ([+-]?\d+(?:\.\d+)?)", text.strip())
    if found is None:
        raise ValueError(f"count_results.csv: a bet rule reads 'true|running count >=|> N', got {text!r}")
    kind, op, number = found.groups()
    value = float(number)
    if op == ">":
        value = value + 1 if kind == "running" else float(np.nextafter(value, np.inf))
    return kind, value


class _CountRuns:
    """The simulations behind the count figures: one per system, rule, divisor and dealing, run once each."""

    def __init__(self, shoes: int, options: dict[str, Any], rows: dict[str, dict[str, Any]]) -> None:
        self.shoes, self.options, self.rows = shoes, options, rows
        self.runs: dict[tuple, Any] = {}

    def simulate(self, system: str, rule: tuple[str, float] | None, divisor: str, dealing: Any) -> Any:
        from toolkit.counting import count_strategy, get_count_system, run_strategies

        key = (system, rule, divisor, dealing)
        if key not in self.runs:
            s = get_count_system(system).with_(divisor=divisor)
            if rule is not None:
                s = s.with_(trigger=rule[0], threshold=rule[1])
            (self.runs[key],) = run_strategies([count_strategy(s)], self.shoes, dealing, **self.options)
        return self.runs[key]

    @staticmethod
    def setting(row: dict[str, Any]) -> tuple[Any, str, Any, str]:
        """The row's dealing, divisor and rule, and the words naming them."""
        from toolkit.counting import get_count_system
        from toolkit.dealing.dealer import Dealing

        dealing = Dealing(decks=row["decks"], cut_card=row["cut_card"], last_hand=row["last_hand"])
        divisor = _DIVISORS.get(row["true_count_convention"] or "", "decks_left")
        rule = recorded_rule(row["bet_rule"] or "")
        shown = (row["bet_rule"] or f"threshold {get_count_system(_SYSTEMS[row['system']]).threshold:+g}").strip()
        counted = "running count, no divisor" if rule is not None and rule[0] == "running" else f"divisor {divisor}"
        words = f"simulated under: {shown}; {counted}; cut card {row['cut_card']}, last hand {row['last_hand']}"
        return dealing, divisor, rule, words

    def estimate(self, row: dict[str, Any]) -> tuple[float, float, float, str]:
        """The figure's value, standard error and scale, and the words of its setting (a sum for a derived row)."""
        import numpy as np

        parts = row["system"].split("+")
        quantity, scale = row["quantity"], 100.0 if "percent" in row["unit"] else 1.0
        total, variance, words, value = np.zeros(self.shoes), 0.0, [], 0.0
        single = ("bets_per_shoe", "hands_bet", "units_per_100_hands")
        for system in parts:
            part = next(r for r in self.rows.values() if r["system"] == system and r["role"] == "reproduce")
            recorded = {**part, "last_hand": row["last_hand"]} if len(parts) > 1 else row
            dealing, divisor, rule, text = self.setting(recorded)
            res = self.simulate(_SYSTEMS[system], rule, divisor, dealing)
            words.append(text)
            if quantity in single:
                one = {"bets_per_shoe": res.bets_per_shoe, "hands_bet": res.bet_frequency}.get(
                    quantity, res.units_per_100_hands_ev
                )
                value, variance = one.value, one.se**2
            else:
                total = total + res.totals.ev
        if quantity not in single:
            value, variance = float(total.mean()), float(total.var(ddof=1) / len(total))
        return value, float(np.sqrt(variance)), scale, " + ".join(dict.fromkeys(words))

    def computed(self, row: dict[str, Any], published: float, allowed: float) -> tuple[float, str]:
        """The figure computed under the row's convention, and the words comparing it with the published one and
        with the closest convention tried (the unseen-card divisor: the reading of Jacobson's Big Tiger figures)."""
        from toolkit.counting import count_value, get_count_system

        dealing, divisor, rule, _ = self.setting(row)
        system = get_count_system(_SYSTEMS[row["system"]]).with_(divisor=divisor)
        if rule is not None:
            system = system.with_(trigger=rule[0], threshold=rule[1])
        value = count_value(system, dealing).units_per_shoe_ev
        other = "unseen" if divisor == "decks_left" else "decks_left"
        closest = count_value(system.with_(divisor=other), dealing).units_per_shoe_ev
        verdict = "within" if abs(value - published) <= allowed else "not reproduced: outside"
        miss = abs(closest - published) - allowed
        near = (
            "within the rounding"
            if miss <= 0
            else "outside the rounding by less than the chain's error"
            if miss < CHAIN_ERROR
            else "outside the rounding"
        )
        words = (
            f"computed {value:.4f} (exact up to the coup-start chain's error, about {CHAIN_ERROR}), {verdict} the "
            f"printed rounding of {published:g}; the divisor {other} gives {closest:.4f}, {near} (the published "
            f"figure is a 100-million-shoe simulation, standard error about {PUBLISHED_SE}; the conventions tried: "
            "notebooks/maths/computed-counts.md)"
        )
        return value, words

    def other_reading(self, row: dict[str, Any]) -> str:
        """How's figures: the table heading's ">= 0" beside the text's "> 0" (or the other way round)."""
        if row["system"] != "dragon7_how_unbalanced":
            return ""
        dealing, divisor, rule, _ = self.setting(row)
        other = ("running", 0.0) if rule == ("running", 1.0) else ("running", 1.0)
        res = self.simulate(_SYSTEMS[row["system"]], other, divisor, dealing)
        label = "running count >= 0" if other[1] == 0 else "running count > 0"
        return (
            f"; the other reading, {label}: {res.bets_per_shoe.value:.2f} bets and "
            f"{100 * res.units_per_shoe_ev.value:+.1f} % a shoe"
        )


def count_providers(
    shoes: int = 20_000,
    seed: SeedLike = 1,
    workers: int | None = None,
    progress: bool = False,
    scheduler: Any = None,
) -> dict[str, Any]:
    """Providers for the published count results (``count_results.csv``), simulated by :mod:`toolkit.counting`.

    Each figure is simulated exactly as its row records it: the bet rule (``bet_rule``: which
    count, ``>=`` or ``>``, the threshold; a row without one, the library's threshold), the
    true-count divisor (``true_count_convention``), the decks, the cut card and the last-hand rule
    (``last_hand``: Jacobson's ``two_more_if_first`` for his figures).  Every row's status names
    the rule, the divisor and the dealing it was simulated under; where the row's note records
    another reading (How's table heading says ``>= 0``, his text ``> 0``), that reading is run
    on the same shoes and shown beside it.  Values are units won per shoe from the exact EV of
    every bet placed; a figure matches when it lies within ``COUNT_Z`` standard errors (plus half
    a unit of its last printed digit) of the simulation.  The figures of :data:`COMPUTED_FIGURES`
    (Jacobson's Dragon 7 win) are judged on the computed count instead
    (:func:`toolkit.counting.count_value`, exact): within half a unit of the printed digit, with
    the other divisor's figure and the simulation shown as checks.  The ten-count claim has no number: its
    status says so (a claim, not pending).  ``seed`` (anything :data:`toolkit.parallel.SeedLike`
    accepts) is fixed to one integer first (:func:`toolkit.studies.thorp.design.seed_integer`),
    so that every simulation starts from it.

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
    from toolkit.edges.reference import Reproduced, load_reference, printed_number, printed_tolerance

    options = {"seed": seed_integer(seed), "workers": workers, "progress": progress, "scheduler": scheduler}
    rows = {r["figure"]: r for r in load_reference("count_results").to_dicts()}
    runs = _CountRuns(shoes, options, rows)

    def provider(figure: str) -> Any:
        def provide(row: dict[str, Any]) -> Reproduced:
            value, se, scale, words = runs.estimate(row)
            published = float(printed_number(row["printed"]))
            if figure in COMPUTED_FIGURES:
                rounding = float(printed_tolerance(row["printed"]))
                exact, said = runs.computed(row, published, rounding)
                return Reproduced(
                    exact * scale,
                    abs(exact * scale - published) <= rounding,
                    f"{said}; simulated check {value * scale:.4f}, standard error {se * scale:.3g}; {shoes:,} "
                    f"simulated shoes; {words}",
                )
            allowed = COUNT_Z * se * scale + float(printed_tolerance(row["printed"]))
            return Reproduced(
                value * scale,
                abs(value * scale - published) <= allowed,
                f"standard error {se * scale:.3g}; {shoes:,} simulated shoes, within {COUNT_Z:g} standard errors; "
                f"{words}{runs.other_reading(row)}",
            )

        return provide

    def claim(row: dict[str, Any]) -> Reproduced:  # the count shoes were dealt: the claim is not waiting on them
        return Reproduced("no figure to reproduce", None, "a claim without a number or a bet rule to simulate")

    figures = {f: provider(f) for f, r in rows.items() if r["role"] in ("reproduce", "derived")}
    return {**figures, **{f: claim for f, r in rows.items() if r["role"] == "claim"}}


def reproduce_table(
    result: StudyResult | None = None,
    jacobson: pl.DataFrame | None = None,
    counts: dict[str, Any] | None = None,
    exact: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Every published figure in ``data/reference`` beside the toolkit's value.

    ``result``, ``jacobson`` and ``exact`` feed :func:`reproduce_providers`; ``counts``
    (from :func:`count_providers`) the published count results.

    Parameters
    ----------
    result, jacobson, exact
        For :func:`reproduce_providers`.
    counts
        From :func:`count_providers`.

    Returns
    -------
    polars.DataFrame
        ``figure, table, source, published, unit, toolkit, matches, status``.
    """
    from toolkit.edges.reference import compare_published

    return compare_published(providers={**reproduce_providers(result, jacobson, exact), **(counts or {})})
