"""An assessment of a side bet, end to end (:func:`assess_bet`): its odds, its effects of removal, the best count.

The steps, each on its own shoes (three children of the seed's
:class:`~numpy.random.SeedSequence`):

1. the bet's exact house edge, SD and hit frequency for the full shoe
   (:func:`toolkit.bets.paytable.edge_table`), its payouts, the combinatorial analysis
   (:func:`toolkit.bets.ca.ca_table`), the effects of removal
   by rank (:func:`toolkit.edges.eor.effect_of_removal`);
2. the **search** (:mod:`toolkit.studies.assess.search`) on the *search
   shoes*: every candidate count is scored on the same shoes (common random
   numbers);
3. the winner and computer-perfect play (:func:`toolkit.counting.perfect_strategy`,
   the upper bound of any count) played through *fresh shoes*, independent of
   the search (the winner's score on the search shoes is optimistic: it was
   chosen there); its threshold sweep is replayed there too;
4. the **penetration sweep** (:func:`toolkit.studies.assess.depth.depth_sweep`, as
   :func:`toolkit.counting.penetration_sweep`) on a third set of shoes, the same
   shuffles at every cut-card position.

>>> a = assess_bet("dragon7", n_shoes=60, seed=1, cut_cards=(14,), progress=False)
>>> a.count is not None, sorted(a.frames)[:3]
(True, ['ca', 'candidates', 'eor'])
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import non_negative_int, positive_int
from toolkit.bets.base import Bet
from toolkit.bets.ca import ca_table
from toolkit.bets.paytable import bet_stats, edge_table, standard_bets
from toolkit.counting.results import Results, ShoeTotals, summarize
from toolkit.counting.strategies import Strategy, count_strategy, perfect_strategy
from toolkit.counting.systems import COUNT_SYSTEMS, CountSystem, resolve_bet
from toolkit.coup.cards import Composition
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.edges.eor import effect_of_removal
from toolkit.parallel import SeedLike, as_seed_sequence, block_plan, map_blocks
from toolkit.studies.assess.depth import depth_sweep
from toolkit.studies.assess.fresh import fresh_totals, paired_difference
from toolkit.studies.assess.result import Assessment
from toolkit.studies.assess.search import Score, SearchSet, SearchSpace, search_block, search_counts

__all__ = ["DEFAULT_CUT_CARDS", "DEFAULT_MIN_WIN", "DEFAULT_SHOES", "assess_bet", "published_counts"]

#: Shoes of each step (search, fresh shoes, each cut card of the sweep) by default: published analyses of side
#: bets simulate 100 million shoes, and 100,000 separate counts whose wins differ by about 0.1 unit per 100 hands.
DEFAULT_SHOES = 100_000

#: Cut-card positions (cards from the end) of the penetration sweep, besides the one assessed.
DEFAULT_CUT_CARDS = (14, 26, 52, 78, 104, 156)

#: Units per 100 hands (flat one-unit bets) below which a count is "not worth counting".
DEFAULT_MIN_WIN = 0.1


def _bet_frame(bet: Bet, shoe: Composition, rules: Rules) -> tuple[pl.DataFrame, pl.DataFrame]:
    stats = edge_table(shoe, [bet], rules)
    payouts = bet_stats(bet, shoe, rules.tableau).payouts
    frame = pl.DataFrame(
        {"payout": [float(k) for k in payouts], "probability": [float(v) for v in payouts.values()]},
        schema={"payout": pl.Float64, "probability": pl.Float64},
    )
    return stats, frame


def _figures(name: str, rule: str, res: Results | None, hands_per_shoe: float) -> dict[str, object]:
    if res is None:  # the count never bets
        return {
            "strategy": name,
            "rule": rule,
            "shoes": 0,
            "hands_per_shoe": hands_per_shoe,
            "bet_frequency": 0.0,
            "bet_frequency_low": 0.0,
            "bet_frequency_high": 0.0,
            "edge_when_betting": None,
            "edge_when_betting_low": None,
            "edge_when_betting_high": None,
            "win_per_100_hands": 0.0,
            "win_per_100_hands_low": 0.0,
            "win_per_100_hands_high": 0.0,
            "units_per_shoe": 0.0,
            "units_per_shoe_low": 0.0,
            "units_per_shoe_high": 0.0,
            "realised_units_per_shoe": 0.0,
            "sd_per_shoe": 0.0,
        }
    f, e, w, u = res.bet_frequency, res.mean_edge, res.units_per_100_hands_ev, res.units_per_shoe_ev
    return {
        "strategy": name,
        "rule": rule,
        "shoes": res.shoes,
        "hands_per_shoe": res.hands_per_shoe.value,
        "bet_frequency": f.value,
        "bet_frequency_low": f.low,
        "bet_frequency_high": f.high,
        "edge_when_betting": e.value,
        "edge_when_betting_low": e.low,
        "edge_when_betting_high": e.high,
        "win_per_100_hands": w.value,
        "win_per_100_hands_low": w.low,
        "win_per_100_hands_high": w.high,
        "units_per_shoe": u.value,
        "units_per_shoe_low": u.low,
        "units_per_shoe_high": u.high,
        "realised_units_per_shoe": res.units_per_shoe.value,
        "sd_per_shoe": res.sd_per_shoe,
    }


def _cut_cards(dealing: Dealing, cut_cards: Sequence[int] | None) -> list[int]:
    """The sweep's positions: the defaults within the first half of the shoe, or every one given, checked.

    A position given must be one the shoe allows (``0 .. cards - 1`` from the end, as
    :class:`~toolkit.dealing.dealer.Dealing` takes it); one outside is refused, naming it, never dropped.
    """
    if dealing.coups is not None:
        if cut_cards:
            raise ValueError(
                f"cut_cards {list(cut_cards)} is not used when dealing.coups is set "
                f"({dealing.coups} coups a shoe, no cut card); give one"
            )
        return []
    if cut_cards is None:
        cuts = {c for c in DEFAULT_CUT_CARDS if c < dealing.cards // 2}
        return sorted(cuts | {dealing.cut_card})
    if isinstance(cut_cards, str | bytes) or not isinstance(cut_cards, Iterable):
        raise TypeError(f"cut_cards must be a sequence of integers, got {type(cut_cards).__name__} {cut_cards!r}")
    given = [non_negative_int(c, "cut_cards") for c in cut_cards]
    beyond = [c for c in given if c >= dealing.cards]
    if beyond:
        raise ValueError(
            f"cut_cards {', '.join(map(str, beyond))}: a shoe of {dealing.cards} cards takes a cut card "
            f"0..{dealing.cards - 1} cards from the end"
        )
    return sorted(set(given) | {dealing.cut_card})


def _verdict(dealing: Dealing, fig: dict[str, Any], min_win: float, confidence: float) -> tuple[bool, str]:
    where = f"at cut card {dealing.cut_card}" if dealing.coups is None else f"at {dealing.coups} coups a shoe"
    w, lo, hi = fig["win_per_100_hands"], fig["win_per_100_hands_low"], fig["win_per_100_hands_high"]
    if fig["shoes"] == 0:
        return False, f"not worth counting {where}: no count found wins anything (the best never bets)"
    ci = f"{confidence:.0%} CI {_units(lo)} .. {_units(hi)}"
    if w >= min_win and lo > 0:
        return True, (
            f"countable {where}: a counter wins {w:.3f} units per 100 hands ({ci}), {fig['units_per_shoe']:.3f} "
            f"per shoe, betting {fig['bet_frequency']:.1%} of hands at an edge of {fig['edge_when_betting']:+.2%}"
        )
    return False, (
        f"not worth counting {where}: the best count found wins {_units(w)} units per 100 hands ({ci}), "
        f"under the {min_win:g} a counter would need"
    )


def _units(x: float) -> str:
    """A signed win: three decimals, or three significant digits when smaller than 0.01."""
    return f"{x:+.3f}" if x == 0 or abs(x) >= 0.01 else f"{x:+.2e}"


def _check_types(dealing: object, rules: object, space: object) -> None:
    """The argument types: a Dealing, a Rules or None, a SearchSpace (a wrong one: TypeError naming it)."""
    for value, kind, where in ((dealing, Dealing, "dealing"), (space, SearchSpace, "space")):
        if not isinstance(value, kind):
            raise TypeError(f"{where} must be a {kind.__name__}, got {type(value).__name__} {value!r}")
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules or None, got {type(rules).__name__} {rules!r}")


def published_counts(bet: Bet) -> tuple[CountSystem, ...]:
    """The library's published counts of ``bet`` that carry a betting threshold (those a counter can play).

    Parameters
    ----------
    bet
        The bet.

    Returns
    -------
    tuple of toolkit.counting.CountSystem
        The counts of :data:`toolkit.counting.COUNT_SYSTEMS` made for it, in the library's order.

    Examples
    --------
    >>> [s.name for s in published_counts(resolve_bet("dragon7", Rules()))]
    ['dragon7', 'how_dragon7']
    """
    return tuple(s for s in COUNT_SYSTEMS.values() if s.bet == bet.name and s.threshold is not None)


@dataclass(frozen=True)
class _Plan:
    """What an assessment deals: shoes per step, the sweep's positions and the three seeds."""

    shoes: int
    penetration_shoes: int
    cuts: list[int]
    seeds: tuple[np.random.SeedSequence, ...]
    seed: int | str


def _plan(
    dealing: Dealing, shoes: int, seed: SeedLike, cut_cards: Sequence[int] | None, penetration_shoes: int | None
) -> _Plan:
    shoes = positive_int(shoes, "n_shoes")
    cuts = _cut_cards(dealing, cut_cards)
    n_pen = shoes if penetration_shoes is None else positive_int(penetration_shoes, "penetration_shoes")
    root = as_seed_sequence(seed)
    return _Plan(shoes, n_pen, cuts, tuple(root.spawn(3)), seed if isinstance(seed, int) else str(root.entropy))


def _found_count(b: Bet, winner: Score, rules: Rules, shoes: int) -> CountSystem | None:
    if winner.threshold is None:
        return None
    standard = {x.name for x in standard_bets(rules)}
    return CountSystem(
        "found",
        winner.tags,
        trigger=winner.trigger,
        threshold=winner.threshold,
        bet=b.name if b.name in standard else None,
        source=f"found by toolkit.assess_bet for {b.name} (effects of removal, {shoes} search shoes)",
    )


def _rule(system: CountSystem | None) -> str:
    if system is None or system.threshold is None:
        return "never bets"
    kind = "TC" if system.trigger == "true" else "RC"
    return f"bet 1 unit when {kind} >= {system.threshold:g}"


def _fresh(
    b: Bet, count: CountSystem | None, winner: Score, plan: _Plan, dealing: Dealing, rules: Rules, options: dict
) -> tuple[dict[str, Results], dict[str, ShoeTotals], list[Strategy]]:
    """Step 3: the count found, perfect play, the threshold sweep and the published counts on the fresh shoes."""
    strategies: list[Strategy] = [perfect_strategy(b, name="perfect")]
    if count is not None:
        found = count_strategy(count, bet=b, name="count")
        sweep = [count_strategy(count, float(t), bet=b, name=f"t={t:g}") for t in winner.grid]
        strategies = [found, *strategies, *sweep]
    strategies += [count_strategy(s, bet=b, name=f"published {s.name}") for s in published_counts(b)]
    totals = fresh_totals(
        strategies, plan.shoes, dealing, plan.seeds[1], rules, options["workers"], options["progress"],
        options["scheduler"],
    )  # fmt: skip
    by_name = {s.name: t for s, t in zip(strategies, totals, strict=True)}
    results = {
        s.name: summarize(s.name, t, options["confidence"], True, s.describe())
        for s, t in zip(strategies, totals, strict=True)
    }
    return results, by_name, strategies


def _summary_frame(b: Bet, count: CountSystem | None, results: dict[str, Results]) -> pl.DataFrame:
    perfect = results["perfect"]
    hands = perfect.hands_per_shoe.value
    rows = [
        _figures("count", _rule(count), results.get("count"), hands),
        _figures("perfect", "bet 1 unit when the exact EV before the coup > 0", perfect, hands),
    ]
    rows += [
        _figures(f"published {s.name}", _rule(s), results[f"published {s.name}"], hands) for s in published_counts(b)
    ]
    return pl.DataFrame(rows)


def _published_frame(
    b: Bet, totals: dict[str, ShoeTotals], results: dict[str, Results], confidence: float
) -> pl.DataFrame:
    """The count found against each published count of the bet, on the same fresh shoes (paired differences)."""
    rows = []
    for s in published_counts(b):
        name = f"published {s.name}"
        if "count" in totals:
            diff = paired_difference(totals["count"], totals[name], confidence)
        else:  # the count found never bets: it wins nothing, the published count what it wins
            never = replace(totals[name], ev=np.zeros(len(totals[name])))
            diff = paired_difference(never, totals[name], confidence)
        rows.append(
            {
                "system": s.name,
                "tags": ",".join(str(t) for t in s.tags),
                "rule": _rule(s),
                "source": s.source,
                "published_win_per_100_hands": results[name].units_per_100_hands_ev.value,
                "found_win_per_100_hands": results["count"].units_per_100_hands_ev.value if "count" in results else 0.0,
                "found_minus_published": diff["difference"],
                "found_minus_published_se": diff["se"],
                "found_minus_published_low": diff["low"],
                "found_minus_published_high": diff["high"],
            }
        )
    schema = {
        "system": pl.String, "tags": pl.String, "rule": pl.String, "source": pl.String,
        "published_win_per_100_hands": pl.Float64, "found_win_per_100_hands": pl.Float64,
        "found_minus_published": pl.Float64, "found_minus_published_se": pl.Float64,
        "found_minus_published_low": pl.Float64,
        "found_minus_published_high": pl.Float64,
    }  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def _sweep_frame(winner: Score, count: CountSystem | None, results: dict[str, Results]) -> pl.DataFrame:
    sweep = winner.sweep().with_columns(set=pl.lit("search"))
    if count is None:
        return sweep
    rows = [
        {
            "threshold": float(t),
            "bet_frequency": results[f"t={t:g}"].bet_frequency.value,
            "win_per_100_hands": results[f"t={t:g}"].units_per_100_hands_ev.value,
            "set": "fresh",
        }
        for t in winner.grid
    ]
    return pl.concat([sweep, pl.DataFrame(rows, schema=sweep.schema)])


def _penetration(
    strategies: list[Strategy], count: CountSystem | None, plan: _Plan, dealing: Dealing, rules: Rules, options: dict
) -> tuple[pl.DataFrame, int | None]:
    """Step 4: the count and perfect play at every cut card, and the first position where the count stops paying."""
    if not plan.cuts:
        empty = pl.DataFrame(schema={"cut_card": pl.Int64, "strategy": pl.String, "win_per_100_hands": pl.Float64})
        return empty, None
    mine = [s for s in strategies if s.name in ("count", "perfect")]
    penetration = depth_sweep(
        mine, plan.cuts, plan.penetration_shoes, dealing, plan.seeds[2], rules,
        options["workers"], options["progress"], options["confidence"], options["scheduler"],
    ).sort("strategy", "cut_card")  # fmt: skip
    stops = None
    if count is not None:
        by_cut = penetration.filter(pl.col("strategy") == "count").sort("cut_card")
        paying = by_cut["win_per_100_hands"].to_numpy() >= options["min_win"]
        if paying.any() and not paying.all():
            stops = int(by_cut["cut_card"][int(np.argmin(paying))])
    return penetration, stops


def _settings(
    dealing: Dealing, plan: _Plan, space: SearchSpace, eor_values: np.ndarray, options: dict[str, Any], candidates: int
) -> dict[str, Any]:
    """The settings an assessment records (its run time is added by the caller, last)."""
    reach = space.reach(eor_values)
    return {
        "dealing": _dealing_dict(dealing),
        "shoes": plan.shoes,
        "penetration_shoes": plan.penetration_shoes if plan.cuts else 0,
        "seed": plan.seed,
        "min_win": options["min_win"],
        "confidence": options["confidence"],
        "search_space": space.describe(reach),
        "tag_reach": reach,
        "candidates": candidates,
    }


def assess_bet(
    bet: Bet | str,
    dealing: Dealing = Dealing(),
    n_shoes: int = DEFAULT_SHOES,
    seed: SeedLike = None,
    rules: Rules | None = None,
    space: SearchSpace = SearchSpace(),
    cut_cards: Sequence[int] | None = None,
    penetration_shoes: int | None = None,
    min_win: float = DEFAULT_MIN_WIN,
    confidence: float = 0.95,
    workers: int | None = None,
    progress: bool = True,
    scheduler: str | Any | None = None,
) -> Assessment:
    """Assess a side bet for a casino: its odds, its effects of removal, the best count and what it wins.

    Parameters
    ----------
    bet
        A bet (:class:`~toolkit.bets.paytable.Bet` or :class:`~toolkit.bets.coup_bets.CoupBet`) or the name of one
        (standard panel or side-bet catalogue).
    dealing
        How the shoes are dealt (decks, burn, cut card...).
    n_shoes
        Shoes of the search set and of the fresh set (each); default :data:`DEFAULT_SHOES`, the scale of
        published analyses (:func:`estimate_assessment` says how long it takes).
    seed
        The seed of everything (three independent children: search, fresh, penetration).
    space
        What the count search tries (:class:`~toolkit.studies.assess.search.SearchSpace`).
    cut_cards
        Positions of the penetration sweep, in cards from the end (default: those of
        :data:`DEFAULT_CUT_CARDS` in the first half of the shoe).  The dealing's own is
        always added, so an empty sequence is honoured as "only the dealing's own"; a
        position the shoe does not allow (``0 .. cards - 1``) raises :class:`ValueError`,
        and so does any position when ``dealing.coups`` is set (there is no cut card).
    penetration_shoes
        Shoes at each position (default: ``n_shoes``).
    min_win
        Units per 100 hands a count must win to be worth counting (flat one-unit bets).
    workers
        Local processes (``None``: every core).
    scheduler
        A Dask scheduler's address or a ``distributed.Client``: its workers deal the search, fresh and
        penetration shoes instead (:func:`toolkit.parallel.map_blocks`); the same assessment either way.

    Returns
    -------
    toolkit.studies.assess.Assessment
    """
    started = time.perf_counter()
    _check_types(dealing, rules, space)
    plan = _plan(dealing, n_shoes, seed, cut_cards, penetration_shoes)
    if not (isinstance(min_win, (int, float)) and math.isfinite(min_win) and min_win >= 0):
        raise ValueError(f"min_win must be a finite number >= 0, got {min_win!r}")
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    if rules.tableau != dealing.tableau:
        raise ValueError("rules.tableau and dealing.tableau differ: bets would be priced by other drawing rules")
    options: dict[str, Any] = {"workers": workers, "progress": progress, "confidence": confidence}
    options.update(min_win=min_win, scheduler=scheduler)
    b = resolve_bet(bet, rules)
    shoe = Composition.from_decks(dealing.decks)
    stats, payouts = _bet_frame(b, shoe, rules)
    ca = ca_table(b, shoe)
    eor = effect_of_removal(shoe, bets=[b], rules=rules, by="rank").select("card", "count", "eor")
    eor_values = eor["eor"].fill_null(0.0).to_numpy()

    # 2. the search, on the search shoes
    fn = partial(search_block, dealing=dealing, bet=b)
    blocks = map_blocks(fn, block_plan(plan.shoes, seed=plan.seeds[0]), workers, scheduler, progress, "search shoes")
    data = SearchSet.concat(blocks)  # block by block: the peak is the set and one of its fields
    candidates, winner = search_counts(data, eor_values, b, space, progress)
    count = _found_count(b, winner, rules, plan.shoes)
    del data  # the search shoes are not needed again

    # 3. the fresh shoes; 4. the penetration sweep
    results, totals, strategies = _fresh(b, count, winner, plan, dealing, rules, options)
    summary = _summary_frame(b, count, results)
    penetration, stops = _penetration(strategies, count, plan, dealing, rules, options)

    countable, verdict = _verdict(dealing, summary.row(0, named=True), min_win, confidence)
    eor = eor.with_columns(tag=pl.Series([int(t) for t in (count.tags if count else (0,) * 13)]))
    frames: dict[str, pl.DataFrame] = {"stats": stats, "payouts": payouts}
    if ca is not None:
        frames["ca"] = ca
    frames.update(
        {
            "eor": eor,
            "candidates": candidates,
            "sweep": _sweep_frame(winner, count, results),
            "summary": summary,
            "published": _published_frame(b, totals, results, confidence),
            "penetration": penetration,
        }
    )
    settings = _settings(dealing, plan, space, eor_values, options, candidates.height)
    settings["wall_seconds"] = time.perf_counter() - started
    kept = {"perfect": results["perfect"]} | ({"count": results["count"]} if "count" in results else {})
    return Assessment(b.name, frames, count, kept, verdict, countable, stops, settings)


def _dealing_dict(d: Dealing) -> dict[str, object]:
    return {
        "decks": d.decks,
        "burn": d.burn.value,
        "burn_ace": d.burn_ace,
        "burn_cards": d.burn_cards,
        "cut_card": d.cut_card,
        "last_hand": d.last_hand.value,
        "coups": d.coups,
    }
