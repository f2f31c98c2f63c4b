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

>>> a = assess_bet("dragon7", shoes=60, seed=1, cut_cards=(14,), progress=False)
>>> a.count is not None, sorted(a.frames)[:3]
(True, ['ca', 'candidates', 'eor'])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import non_negative_int, positive_int
from toolkit.bets.ca import ca_table
from toolkit.bets.paytable import AnyBet, bet_stats, edge_table, standard_bets
from toolkit.counting.harness import run_strategies
from toolkit.counting.results import Results
from toolkit.counting.strategies import Strategy, count_strategy, perfect_strategy
from toolkit.counting.systems import CountSystem, resolve_bet
from toolkit.coup.cards import Composition
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.edges.eor import effect_of_removal
from toolkit.parallel import SeedLike, as_seed_sequence, block_plan, map_blocks
from toolkit.studies.assess.depth import depth_sweep
from toolkit.studies.assess.result import Assessment
from toolkit.studies.assess.search import SearchSet, SearchSpace, search_block, search_counts

__all__ = ["DEFAULT_CUT_CARDS", "DEFAULT_MIN_WIN", "assess_bet"]

#: Cut-card positions (cards from the end) of the penetration sweep, besides the one assessed.
DEFAULT_CUT_CARDS = (14, 26, 52, 78, 104, 156)

#: Units per 100 hands (flat one-unit bets) below which a count is "not worth counting".
DEFAULT_MIN_WIN = 0.1


def _bet_frame(bet: AnyBet, shoe: Composition, rules: Rules) -> tuple[pl.DataFrame, pl.DataFrame]:
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


def assess_bet(
    bet: AnyBet | str,
    dealing: Dealing = Dealing(),
    shoes: int = 3000,
    seed: SeedLike = None,
    rules: Rules | None = None,
    space: SearchSpace = SearchSpace(),
    cut_cards: Sequence[int] | None = None,
    penetration_shoes: int | None = None,
    min_win: float = DEFAULT_MIN_WIN,
    confidence: float = 0.95,
    workers: int | None = 1,
    progress: bool = True,
) -> Assessment:
    """Assess a side bet for a casino: its odds, its effects of removal, the best count and what it wins.

    Parameters
    ----------
    bet
        A bet (:class:`~toolkit.bets.Bet` or :class:`~toolkit.bets.coup_bets.CoupBet`) or the name of one
        (standard panel or side-bet catalogue).
    dealing
        How the shoes are dealt (decks, burn, cut card...).
    shoes
        Shoes of the search set and of the fresh set (each).
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
        Shoes at each position (default ``shoes // 2``).
    min_win
        Units per 100 hands a count must win to be worth counting (flat one-unit bets).
    workers
        Local processes (``None``: every core).

    Returns
    -------
    toolkit.studies.assess.Assessment
    """
    _check_types(dealing, rules, space)
    shoes = positive_int(shoes, "shoes")
    cuts = _cut_cards(dealing, cut_cards)
    n_pen = max(shoes // 2, 1) if penetration_shoes is None else positive_int(penetration_shoes, "penetration_shoes")
    if not (isinstance(min_win, (int, float)) and math.isfinite(min_win) and min_win >= 0):
        raise ValueError(f"min_win must be a finite number >= 0, got {min_win!r}")
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    if rules.tableau != dealing.tableau:
        raise ValueError("rules.tableau and dealing.tableau differ: bets would be priced by other drawing rules")
    b = resolve_bet(bet, rules)
    shoe = Composition.from_decks(dealing.decks)
    stats, payouts = _bet_frame(b, shoe, rules)
    ca = ca_table(b, shoe)
    eor = effect_of_removal(shoe, bets=[b], rules=rules, by="rank").select("card", "count", "eor")
    eor_values = eor["eor"].fill_null(0.0).to_numpy()
    root = as_seed_sequence(seed)
    entropy = root.entropy
    s_search, s_fresh, s_pen = root.spawn(3)

    # 2. the search, on the search shoes
    plan = block_plan(shoes, seed=s_search)
    fn = partial(search_block, dealing=dealing, bet=b)
    data = SearchSet.concat(list(map_blocks(fn, plan, workers, None, progress, "search shoes")))
    candidates, winner = search_counts(data, eor_values, b, space, progress)

    count: CountSystem | None = None
    strategies: list[Strategy] = [perfect_strategy(b, name="perfect")]
    if winner.threshold is not None:
        standard = {x.name for x in standard_bets(rules)}
        count = CountSystem(
            "found",
            winner.tags,
            trigger=winner.trigger,
            threshold=winner.threshold,
            bet=b.name if b.name in standard else None,
            source=f"found by toolkit.assess_bet for {b.name} (effects of removal, {shoes} search shoes)",
        )
        found = count_strategy(count, bet=b, name="count")
        sweep_strategies = [count_strategy(count, float(t), bet=b, name=f"t={t:g}") for t in winner.grid]
        strategies = [found, *strategies, *sweep_strategies]

    # 3. the fresh shoes
    fresh = run_strategies(
        strategies, shoes, dealing, s_fresh, rules, workers, progress=progress, confidence=confidence
    )
    by_name = {r.strategy: r for r in fresh}
    perfect = by_name["perfect"]
    hands = perfect.hands_per_shoe.value
    kind = "TC" if winner.trigger == "true" else "RC"
    rule = "never bets" if count is None else f"bet 1 unit when {kind} >= {winner.threshold:g}"
    summary = pl.DataFrame(
        [
            _figures("count", rule, by_name.get("count"), hands),
            _figures("perfect", "bet 1 unit when the exact EV before the coup > 0", perfect, hands),
        ]
    )
    sweep = winner.sweep().with_columns(set=pl.lit("search"))
    if count is not None:
        rows = [
            {
                "threshold": float(t),
                "bet_frequency": by_name[f"t={t:g}"].bet_frequency.value,
                "win_per_100_hands": by_name[f"t={t:g}"].units_per_100_hands_ev.value,
                "set": "fresh",
            }
            for t in winner.grid
        ]
        sweep = pl.concat([sweep, pl.DataFrame(rows, schema=sweep.schema)])

    # 4. the penetration sweep
    pen_strategies = [s for s in strategies[:2] if s.name in ("count", "perfect")]
    if cuts:
        penetration = depth_sweep(
            pen_strategies, cuts, n_pen, dealing, s_pen, rules, workers, progress, confidence
        ).sort("strategy", "cut_card")
    else:
        penetration = pl.DataFrame(
            schema={"cut_card": pl.Int64, "strategy": pl.String, "win_per_100_hands": pl.Float64}
        )
    stops = None
    if count is not None and cuts:
        mine = penetration.filter(pl.col("strategy") == "count").sort("cut_card")
        paying = mine["win_per_100_hands"].to_numpy() >= min_win
        if paying.any() and not paying.all():
            stops = int(mine["cut_card"][int(np.argmin(paying))])

    countable, verdict = _verdict(dealing, summary.row(0, named=True), min_win, confidence)
    eor = eor.with_columns(tag=pl.Series([int(t) for t in (count.tags if count else (0,) * 13)]))
    frames: dict[str, pl.DataFrame] = {"stats": stats, "payouts": payouts}
    if ca is not None:
        frames["ca"] = ca
    frames.update(
        {"eor": eor, "candidates": candidates, "sweep": sweep, "summary": summary, "penetration": penetration}
    )
    settings = {
        "dealing": _dealing_dict(dealing),
        "shoes": shoes,
        "penetration_shoes": n_pen if cuts else 0,
        "seed": seed if isinstance(seed, int) else str(entropy),
        "min_win": min_win,
        "confidence": confidence,
        "search_space": space.describe(),
        "candidates": candidates.height,
    }
    results = {"perfect": perfect} | ({"count": by_name["count"]} if "count" in by_name else {})
    return Assessment(b.name, frames, count, results, verdict, countable, stops, settings)


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
