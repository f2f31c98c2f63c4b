"""What the scoreboard is worth to a counter: three counters on the same shoes, each betting one unit at a time.

* the **card counter** sees every card (the unseen composition before each coup, as
  :func:`toolkit.records.replay_records` gives it) and bets when the exact edge is positive: no counter who sees
  less can expect more (given the cards seen, a road counter's bet is worth the same exact edge, and betting
  only the positive ones is the most a counter can take from them);
* the **Bayes scoreboard counter** sees only the road and bets when the bet's edge *given the road* is above a
  margin: the particles' exact edges averaged by weight
  (:class:`~toolkit.protection.scoreboard.posterior.RoadFilter`, :func:`road_edges`).  With the exact posterior
  and no margin it is the best a road counter can do; the particles make it a little worse;
* the **regression scoreboard counter** bets when a least-squares fit of the exact edge on the road's tallies
  (each symbol's count so far, per deck left; fitted on the first half of the shoes) is positive.

All three are scored on the second half of the shoes, two ways: by what the coups they bet paid (``won``: money,
an unbiased estimate of what they expect) and by the exact edges of those coups (``expected``: the same
expectation, with less noise, since each coup's edge given every card seen is the average of what it pays).
The ``bayes_bound`` row adds up the positive part of the road edges as the particles estimate them (what the Bayes
counter believes it could expect without a margin): with an exact posterior it would be the best road counter's
expectation; the particles' noise biases it upward, so it estimates an upper bound on what the scoreboard gives.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from toolkit._stats import mean_interval
from toolkit.bets import Bet, get_bet
from toolkit.bets.paytable import bet_payouts
from toolkit.parallel import SeedLike, as_seed_sequence, block_seed
from toolkit.protection.scoreboard.posterior import RoadFilter
from toolkit.protection.scoreboard.symbols import SYMBOLS, road_symbols
from toolkit.records import Records, replay_records

__all__ = ["BETS", "COUNTERS", "road_edges", "scoreboard_leak", "scoreboard_shoes"]

#: The bets priced by default: the main bets, Dragon 7 and Panda 8, and the pairs (the scoreboard shows pairs).
BETS = ("banker", "player", "tie", "dragon7", "panda8", "player_pair", "banker_pair")
#: The counters of :func:`scoreboard_leak`, in its rows' order.
COUNTERS = ("cards", "bayes", "bayes_bound", "regression")


def _shoe_rows(records: Records, ids: Sequence[object] | None) -> list[int]:
    known = records.shoes["shoe"].to_list()
    if ids is None:
        return list(range(len(known)))
    where = {shoe: i for i, shoe in enumerate(known)}
    missing = [s for s in ids if s not in where]
    if missing:
        raise ValueError(f"no shoe {missing[0]!r} in {records.source}")
    return [where[s] for s in ids]


def road_edges(
    records: Records,
    bets: Sequence[str | Bet] = BETS,
    particles: int = 500,
    seed: SeedLike = None,
    shoes: Sequence[object] | None = None,
) -> pl.DataFrame:
    """Before each coup, each bet's expectation given only the road so far (:class:`RoadFilter`, module notes).

    Shoe ``i`` (its row in ``records.shoes``) draws from child ``i`` of the seed's ``SeedSequence``, so a shoe's
    figures do not depend on which other shoes are asked for.

    Parameters
    ----------
    records
        Records with their outcomes (winners, pairs, naturals); the prior is each shoe's full decks.
    bets
        Bets or their names, priced under each shoe's house rules.
    particles
        Compositions the filter carries.
    seed
        Where the draws come from.
    shoes
        The shoes (ids) to follow; default every one.

    Returns
    -------
    polars.DataFrame
        ``shoe, coup, edge_<bet>`` per bet: one row per coup of the chosen shoes.

    Examples
    --------
    >>> from toolkit.records import ShoeHeader, simulate_records
    >>> short = simulate_records(1, ShoeHeader().updated(cut_card=400), seed=1)  # the cut card after 3 coups
    >>> edges = road_edges(short, ["banker"], particles=50, seed=1)
    >>> round(edges["edge_banker"][0], 5)  # before the first coup: the fresh shoe's edge
    -0.01058
    """
    root = as_seed_sequence(seed)
    coups = records.coups
    symbols = road_symbols(coups)
    rows = _shoe_rows(records, shoes)
    ids = records.shoes["shoe"].to_list()
    where = {shoe: i for i, shoe in enumerate(ids)}
    at = np.array([where[s] for s in coups["shoe"].to_list()], dtype=np.int64)
    order = np.argsort(at, kind="stable")
    bounds = np.searchsorted(at[order], np.arange(len(ids) + 1))
    out_shoe, out_coup, out_edges = [], [], []
    for row in rows:
        header = records.headers[row]
        priced = [get_bet(b, header.rules) if isinstance(b, str) else b for b in bets]
        mine = order[bounds[row] : bounds[row + 1]]
        gen = np.random.default_rng(block_seed(root, row))
        filt = RoadFilter((4 * header.dealing.decks,) * 13, particles, gen, header.rules.tableau, priced)
        for j, i in enumerate(mine):
            out_edges.append(filt.price())
            if j + 1 < len(mine):
                filt.observe(int(symbols[i]))
        out_shoe += [ids[row]] * len(mine)
        out_coup += coups["coup"].gather(mine).to_list()
    names = [b if isinstance(b, str) else b.name for b in bets]
    edges = np.array(out_edges).reshape(len(out_shoe), len(names))
    columns = {"shoe": pl.Series(out_shoe, dtype=coups["shoe"].dtype), "coup": pl.Series(out_coup, dtype=pl.Int32)}
    columns.update({f"edge_{n}": pl.Series(edges[:, k]) for k, n in enumerate(names)})
    return pl.DataFrame(columns)


def _tallies(frame: pl.DataFrame) -> np.ndarray:
    """Each symbol's count over the coups before each coup of its shoe, per deck left (a scoreboard's counts)."""
    shown = np.zeros((frame.height, len(SYMBOLS)))
    shown[np.arange(frame.height), road_symbols(frame)] = 1
    shoe = frame["shoe"].to_numpy()
    start = np.r_[True, shoe[1:] != shoe[:-1]]
    before = np.cumsum(shown, axis=0) - shown
    firsts = np.maximum.accumulate(np.where(start, np.arange(frame.height), 0))
    before = before - before[firsts]
    return before / (frame["cards_left"].to_numpy()[:, None] / 52)


def _payouts(records: Records, name: str) -> np.ndarray:
    """What one unit on ``name`` paid in each coup of ``records.dealt``, under each shoe's house rules."""
    dealt = records.dealt
    assert dealt is not None
    classes = dealt.outcome_classes()
    out = np.empty(len(dealt))
    for row, header in enumerate(records.headers):
        here = dealt.shoe == row
        out[here] = bet_payouts(get_bet(name, header.rules), classes[here], dealt.cards[here], header.dealing.decks)
    return out


def scoreboard_shoes(
    records: Records,
    bets: Sequence[str] = BETS,
    particles: int = 500,
    margin: float = 0.0,
    seed: SeedLike = None,
) -> pl.DataFrame:
    """Per shoe of the second half of ``records``, per bet and counter: bets placed, money won, edges taken.

    The counters are those of the module notes (:data:`COUNTERS`); ``particles=0`` leaves the Bayes counter out.

    Returns
    -------
    polars.DataFrame
        ``shoe, bet, counter, bets, won, expected, top_edge``: one unit a bet; ``won`` null for ``bayes_bound``;
        ``top_edge``, the largest edge the counter's estimate reached in the shoe (the exact edge for the card
        counter, the edge given the road for the Bayes counter, the fitted edge for the regression counter).
    """
    frame = replay_records(records, bets=list(bets))
    x = np.column_stack([np.ones(frame.height), _tallies(frame)])
    ids = records.shoes["shoe"].to_list()
    shoe_row = np.asarray(records.dealt.shoe) if records.dealt is not None else np.zeros(0, dtype=np.int64)
    train, test = shoe_row < records.n_shoes // 2, shoe_row >= records.n_shoes // 2
    tested = ids[records.n_shoes // 2 :]
    edges = None
    if particles:
        keys = frame.select("shoe", "coup").filter(pl.Series(test))
        edges = keys.join(road_edges(records, bets, particles, seed, tested), on=["shoe", "coup"], how="left")
    parts = []
    for bet in bets:
        ev = frame[f"ev_{bet}"].to_numpy()
        ok = ~np.isnan(ev)
        fit = np.linalg.pinv(x[train & ok].T @ x[train & ok]) @ (x[train & ok].T @ ev[train & ok])
        scored = test & ok
        paid, ev_t = _payouts(records, bet)[scored], ev[scored]
        estimates = {"cards": (ev_t, 0.0), "regression": (x[scored] @ fit, 0.0)}
        if edges is not None:
            road = edges[f"edge_{bet}"].to_numpy()[ok[test]]  # edges: the test rows, joined by shoe and coup
            estimates["bayes"], estimates["bayes_bound"] = (road, margin), (road, 0.0)
        rows = shoe_row[scored] - records.n_shoes // 2
        for counter in [c for c in COUNTERS if c in estimates]:
            estimate, threshold = estimates[counter]
            pick = estimate > threshold
            top = np.full(len(tested), -np.inf)
            np.maximum.at(top, rows, estimate)
            columns = {
                "shoe": pl.Series(tested, dtype=records.shoes["shoe"].dtype),
                "bet": bet,
                "counter": counter,
                "bets": np.bincount(rows, pick, len(tested)).astype(np.int64),
                "won": None if counter == "bayes_bound" else np.bincount(rows, paid * pick, len(tested)),
                "expected": np.bincount(rows, (road if counter == "bayes_bound" else ev_t) * pick, len(tested)),
                "top_edge": top,
            }
            parts.append(pl.DataFrame(columns, schema_overrides={"won": pl.Float64}))
    return pl.concat(parts)


def scoreboard_leak(
    records: Records,
    bets: Sequence[str] = BETS,
    particles: int = 500,
    margin: float = 0.0,
    seed: SeedLike = None,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """What counters who see only the scoreboard win on each bet, against one who sees every card (module notes).

    The shoes are split in two halves: the regression counter is fitted on the first, and every counter is
    scored on the second (:func:`scoreboard_shoes`).

    Parameters
    ----------
    records
        Card-level records.
    bets
        Bet names.
    particles
        Compositions the Bayes counter's filter carries (0: leave it out).
    margin
        The Bayes counter bets when the edge given the road is above it.
    seed
        The filter's draws (shoe ``i`` from child ``i``).
    confidence
        Of the intervals (normal, over the shoes).

    Returns
    -------
    polars.DataFrame
        One row per bet and counter: ``shoes, bets_per_shoe, won_per_shoe, won_low, won_high,
        expected_per_shoe, expected_low, expected_high`` (units per shoe, one unit a bet), ``share`` (of the card
        counter's expected win), ``top_edge`` (the largest edge the counter's estimate reached),
        ``vs_cards, vs_cards_low, vs_cards_high`` and ``vs_regression, ...`` (the expected win per shoe less the
        card counter's, and less the regression counter's, on the same shoes).
    """
    shoes = scoreboard_shoes(records, bets, particles, margin, seed)
    out = []
    for (bet, counter), part in shoes.group_by("bet", "counter", maintain_order=True):
        mine = part["expected"].to_numpy()
        row: dict[str, object] = {"bet": bet, "counter": counter, "shoes": part.height}
        row["bets_per_shoe"] = float(part["bets"].mean())  # type: ignore[arg-type]
        won = part["won"].to_numpy() if part["won"].null_count() == 0 else None
        won_row = mean_interval(won, confidence) if won is not None else (None,) * 3
        row["won_per_shoe"], row["won_low"], row["won_high"] = won_row
        row["expected_per_shoe"], row["expected_low"], row["expected_high"] = mean_interval(mine, confidence)
        row["top_edge"] = float(part["top_edge"].max())  # type: ignore[arg-type]
        for other, name in (("cards", "vs_cards"), ("regression", "vs_regression")):
            theirs = shoes.filter((pl.col("bet") == bet) & (pl.col("counter") == other))["expected"].to_numpy()
            row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_interval(mine - theirs, confidence)
            if other == "cards":
                row["share"] = float(mine.sum() / theirs.sum()) if theirs.sum() > 0 else None
        out.append(row)
    return pl.DataFrame(out, infer_schema_length=None)
