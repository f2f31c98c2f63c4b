"""Replaying recorded shoes with exact edges and counts, and the game-protection view of recorded bets.

:func:`replay` walks a card-level record coup by coup: before each coup, the
cards seen, the composition of the unseen cards (what a perfect counter knows:
the exposed burn card and every earlier coup are seen, the cards burned face
down are not), the running and true counts of any count systems
(:mod:`toolkit.counting.systems`), and the exact expected value of every bet for that
composition (:func:`toolkit.bets.pricing.expected_values`); after it, the outcome.

:func:`bet_edges` attaches to each recorded bet the exact edge it was placed
at, and :func:`tracking_test` asks whether a bettor's stakes follow the edge
more than chance would: a permutation test that shuffles the bettor's stakes
among the coups where the same bet was placed (so a bettor who always stakes
more on Banker than on Tie is not mistaken for a counter).

>>> from toolkit.records.simulate import simulate_records
>>> frame = replay_records(simulate_records(1, seed=2), systems=["dragon7"], bets=["banker", "dragon7"])
>>> frame.select("coup", "cards_unseen", pl.col("ev_banker").round(5)).head(2).rows()
[(1, 415, -0.01069), (2, 409, -0.0107)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from toolkit._check import positive_int
from toolkit.bets.base import Bet
from toolkit.bets.paytable import PayTable, bet_payouts, get_bet, standard_bets
from toolkit.bets.pricing import expected_values
from toolkit.coup.cards import MIN_COUP_CARDS, RANKS, VALUE_TO_RANK, ZERO_RANKS
from toolkit.coup.outcome import class_index
from toolkit.parallel import SeedLike, as_generator
from toolkit.records.model import Records

if TYPE_CHECKING:
    from toolkit.counting import CountSystem

__all__ = ["TrackingResult", "bet_edges", "rank_reason", "replay_records", "tracking_test"]


def _card_level(records: Records) -> None:
    if records.dealt is None or records.cards is None:
        raise ValueError(
            f"{records.source}: replay needs the cards; an outcome-only record (bead road) holds only the winners"
        )


def rank_reason(bet: Bet) -> str | None:
    """Why a bet cannot be priced on the values of the cards alone (``None`` when it can).

    A pay table over the outcome classes needs ranks when two classes that differ only in
    their pair flags pay differently; a bet over the coup's cards (suits, positions) always does.

    >>> from toolkit.bets.paytable import get_bet
    >>> rank_reason(get_bet("dragon7")) is None, rank_reason(get_bet("player_pair"))
    (True, 'it pays on pairs, which compare ranks')
    """
    if not isinstance(bet, PayTable):
        return "it looks at the cards themselves (ranks or suits)"
    by_pairs = bet.payoff_array.reshape(-1, 4)
    return None if bool((by_pairs == by_pairs[:, :1]).all()) else "it pays on pairs, which compare ranks"


def _value_level(records: Records, bets: Iterable[Bet]) -> None:
    """A record of values prices only the bets that look at values: the first other one is refused in one line."""
    if records.kind != "values":
        return
    for bet in bets:
        reason = rank_reason(bet)
        if reason is not None:
            raise ValueError(
                f"{records.source}: bet {bet.name!r} cannot be priced on a record of values (0-9): {reason}, "
                "and the record gives only each card's value"
            )


def _bets_for(records: Records, bets: Iterable[Bet | str] | None, row: int) -> tuple[Bet, ...]:
    rules = records.headers[row].rules if records.headers else records.header.rules
    if bets is None:
        panel = standard_bets(rules)
        return panel if records.kind != "values" else tuple(b for b in panel if rank_reason(b) is None)
    chosen = tuple(get_bet(b, rules) if isinstance(b, str) else b for b in bets)
    _value_level(records, chosen)
    return chosen


def replay_records(
    records: Records,
    shoe: object | None = None,
    systems: Iterable[str | CountSystem] = (),
    bets: Iterable[Bet | str] | None = None,
) -> pl.DataFrame:
    """One row per coup: what was known before it, the exact edges, the counts, then what happened.

    Parameters
    ----------
    records
        Card-level records (:func:`toolkit.records.read.read_records`), by rank or by
        value (``kind == "values"``: the cards are baccarat values 0-9).
    shoe
        The shoe to replay (its id); ``None`` replays every shoe.
    systems
        Count systems (:class:`toolkit.counting.systems.CountSystem` or names such as ``"dragon7"``).
        A record of values takes only systems that tag tens and faces alike.
    bets
        Bets (names or :class:`~toolkit.bets.paytable.Bet`); default the standard panel
        under each shoe's house rules (commission, tie payout).  A record of values
        prices only the bets that look at values (:func:`rank_reason`): a pair bet is
        refused (:class:`ValueError`), and the default panel leaves the pairs out.

    Returns
    -------
    polars.DataFrame
        ``shoe, coup, cards_seen, cards_left, cards_unseen, unseen_A .. unseen_K``
        (``unseen_0 .. unseen_9`` by value for a record of values),
        ``rc_<system>, tc_<system>`` per system, ``ev_<bet>`` per bet (exact
        expected value per unit staked; null when fewer than six cards are
        unseen), then the outcome ``player, banker, player_total, banker_total,
        winner, player_pair, banker_pair, natural``.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> frame = replay_records(simulate_records(1, seed=1), shoe=1, systems=["dragon7"])
    >>> [c for c in frame.columns if c.startswith("tc_")]
    ['tc_dragon7']
    """
    from toolkit.counting import count_arrays, get_count_system

    _card_level(records)
    if shoe is not None:
        records = records.select([shoe])
    dealt = records.dealt
    assert dealt is not None
    # the same width rule as DealtShoes.frame: 16 bits while the counts fit (up to 8,191 decks), else 32
    width = np.int16 if dealt.unseen.size == 0 or int(dealt.unseen.max()) <= np.iinfo(np.int16).max else np.int32
    ids = records.shoes["shoe"]
    frame = pl.DataFrame(
        {
            "shoe": ids.gather(dealt.shoe) if len(dealt) else pl.Series("shoe", [], dtype=ids.dtype),
            "coup": dealt.coup.astype(np.int32),
            "cards_seen": dealt.seen.astype(np.int32),
            "cards_left": dealt.left.astype(np.int32),
            "cards_unseen": dealt.unseen_count.astype(np.int32),
        }
    ).with_columns(_unseen_columns(records, width))
    decks = np.array([h.dealing.decks for h in records.headers], dtype=np.int64)[dealt.shoe]
    burn = dealt.burn_card.astype(np.int64)[dealt.shoe]
    columns = []
    for item in systems:
        system = get_count_system(item)
        if records.kind == "values" and len({system.tags[r] for r in ZERO_RANKS}) > 1:
            raise ValueError(
                f"{records.source}: count system {system.name!r} tags tens and faces differently, and a record "
                "of values (0-9) does not tell them apart"
            )
        rc, tc = count_arrays(system, dealt.unseen, decks, burn, dealt.left)
        columns += [pl.Series(f"rc_{system.name}", rc), pl.Series(f"tc_{system.name}", tc)]
    columns += _ev_columns(records, bets)
    outcome = records.coups.select(
        pl.col("player").alias("player_hand"),
        pl.col("banker").alias("banker_hand"),
        "player_total", "banker_total", "winner", "player_pair", "banker_pair", "natural",
    )  # fmt: skip
    return pl.concat([frame.with_columns(columns), outcome], how="horizontal")


def _unseen_columns(records: Records, width: type) -> list[pl.Series]:
    """``unseen_A .. unseen_K``; for a record of values ``unseen_0 .. unseen_9`` (0: tens and faces)."""
    dealt = records.dealt
    assert dealt is not None
    if records.kind == "values":
        return [pl.Series(f"unseen_{v}", dealt.unseen[:, r].astype(width)) for v, r in enumerate(VALUE_TO_RANK)]
    return [pl.Series(f"unseen_{r}", dealt.unseen[:, i].astype(width)) for i, r in enumerate(RANKS)]


def _ev_columns(records: Records, bets: Iterable[Bet | str] | None) -> list[pl.Series]:
    """``ev_<bet>`` for every coup, grouping the shoes by their house rules (payouts and tableau)."""
    dealt = records.dealt
    assert dealt is not None
    bets = None if bets is None else tuple(bets)
    groups: dict[tuple, list[int]] = {}
    for row, h in enumerate(records.headers):
        groups.setdefault((h.rules.commission, h.rules.tie_pays, h.rules.tableau), []).append(row)
    names: list[str] | None = None
    out: np.ndarray | None = None
    for rows in groups.values():
        panel = _bets_for(records, bets, rows[0])
        if names is None:
            names = [b.name for b in panel]
            out = np.full((len(dealt), len(panel)), np.nan)
        assert out is not None
        mask = np.isin(dealt.shoe, rows) & (dealt.unseen.sum(axis=1) >= MIN_COUP_CARDS)
        if mask.any():
            out[mask] = expected_values(dealt.unseen[mask], panel, records.headers[rows[0]].rules.tableau)
    if names is None or out is None:
        names = [b.name for b in _bets_for(records, bets, 0)] if records.headers else []
        out = np.zeros((0, len(names)))
    return [pl.Series(f"ev_{name}", out[:, j], nan_to_null=True) for j, name in enumerate(names)]


# ------------------------------------------------------------------ game protection
def bet_edges(records: Records) -> pl.DataFrame:
    """Every recorded bet with the exact edge it was placed at and what it returned.

    Parameters
    ----------
    records
        A card-level record with bets.

    Returns
    -------
    polars.DataFrame
        ``shoe, coup, who, bet, amount, expected_value`` (per unit, before the
        coup), ``house_edge`` (its negative), ``expected_result`` (``amount *
        expected_value``), ``result`` (what the bet paid, in money, under the
        shoe's house rules), and ``system, rc, tc``: the published count system
        for that bet (:data:`toolkit.counting.systems.COUNT_SYSTEMS`; null when none) and
        its running and true counts before the coup.
    """
    from toolkit.counting.systems import count_systems

    _card_level(records)
    if records.bets.height == 0:
        raise ValueError(f"{records.source}: the record carries no bets")
    names = records.bets["bet"].unique(maintain_order=True).to_list()
    _value_level(records, [get_bet(n, records.header.rules) for n in names])
    systems: dict[str, str] = {}
    for system in count_systems():
        if system.bet is not None and system.bet in names:
            systems.setdefault(system.bet, system.name)
    frame = replay_records(records, systems=sorted(set(systems.values())), bets=names)
    long = pl.concat(
        [
            frame.select(
                "shoe",
                "coup",
                pl.lit(name).alias("bet"),
                pl.col(f"ev_{name}").alias("expected_value"),
                pl.Series("payout", _payouts(records, name)),
                pl.lit(systems.get(name), pl.String).alias("system"),
                (pl.col(f"rc_{systems[name]}") if name in systems else pl.lit(None, pl.Int64)).alias("rc"),
                (pl.col(f"tc_{systems[name]}") if name in systems else pl.lit(None, pl.Float64)).alias("tc"),
            )
            for name in names
        ]
    )
    out = records.bets.with_columns(pl.col("coup").cast(pl.Int32)).join(
        long, on=["shoe", "coup", "bet"], how="left", maintain_order="left"
    )
    return out.select(
        "shoe",
        "coup",
        "who",
        "bet",
        "amount",
        "expected_value",
        (-pl.col("expected_value")).alias("house_edge"),
        (pl.col("amount") * pl.col("expected_value")).alias("expected_result"),
        (pl.col("amount") * pl.col("payout")).alias("result"),
        "system",
        "rc",
        "tc",
    )


def _payouts(records: Records, name: str) -> np.ndarray:
    """What one unit on bet ``name`` paid in every coup, under each shoe's house rules."""
    dealt = records.dealt
    assert dealt is not None
    pt, bt = dealt.totals()
    classes = class_index(
        pt,
        bt,
        2 + (dealt.cards[:, 2] >= 0),
        2 + (dealt.cards[:, 5] >= 0),
        dealt.cards[:, 0] == dealt.cards[:, 1],
        dealt.cards[:, 3] == dealt.cards[:, 4],
    ).astype(np.int64)
    rules = [h.rules for h in records.headers]
    out = np.empty(len(dealt))
    for rule in set(rules):
        rows = np.isin(dealt.shoe, [i for i, r in enumerate(rules) if r == rule])
        out[rows] = bet_payouts(get_bet(name, rule), classes[rows], dealt.cards[rows], seed=[len(dealt), 7])
    return out


@dataclass(frozen=True)
class TrackingResult:
    """Whether a bettor's stakes follow the edge: the permutation test of :func:`tracking_test`.

    Attributes
    ----------
    who
        The bettor.
    n_bets
        Bets placed.
    statistic
        ``sum(amount * (ev - mean ev of that bet))``: how much more money went
        where the edge was better than average, in money x units of EV.
    p_value
        One-sided permutation p-value: the share of stake shufflings (within
        each bet) with a statistic at least as large, ``(1 + k) / (1 + n)``.
    correlation
        Spearman's rank correlation between stake and centred edge (descriptive).
    money_edge, flat_edge
        Expected value per unit of money staked, and of the same bets staked flat.
    """

    who: str
    n_bets: int
    statistic: float
    p_value: float
    correlation: float
    money_edge: float
    flat_edge: float


def tracking_test(
    edges: pl.DataFrame,
    n_permutations: int = 2000,
    seed: SeedLike = None,
) -> pl.DataFrame:
    """Does each bettor's stake track the edge more than chance? One row per bettor.

    The stakes of a bettor are shuffled among the coups where the same bet was
    placed (``n_permutations`` times, drawing from ``seed``), and the statistic of
    :class:`TrackingResult` is recomputed; a bettor whose stakes ignore the edge
    gets a p-value uniform on (0, 1], so ``p_value < 0.05`` flags such a bettor
    5% of the time.

    Parameters
    ----------
    edges
        From :func:`bet_edges` (``who, bet, amount, expected_value``).
    n_permutations
        Shufflings per bettor.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a
        :class:`numpy.random.Generator` (its stream continues) or ``None``.

    Returns
    -------
    polars.DataFrame
        The fields of :class:`TrackingResult`, one row per bettor.
    """
    from scipy.stats import spearmanr

    gen = as_generator(seed)
    n_permutations = positive_int(n_permutations, "n_permutations")
    frame = edges.filter(pl.col("expected_value").is_not_null()).with_columns(
        (pl.col("expected_value") - pl.col("expected_value").mean().over(["who", "bet"])).alias("_centred")
    )
    rows = []
    for (who,), part in frame.group_by(["who"], maintain_order=True):
        amounts = part["amount"].to_numpy()
        centred = part["_centred"].to_numpy()
        observed = float(amounts @ centred)
        permuted = np.zeros(n_permutations)
        for (_,), stratum in part.with_row_index("_i").group_by(["bet"], maintain_order=True):
            index = stratum["_i"].to_numpy()
            stakes = np.tile(amounts[index], (n_permutations, 1))
            permuted += gen.permuted(stakes, axis=1) @ centred[index]
        exceed = int(np.sum(permuted >= observed - 1e-12 * max(1.0, abs(observed))))
        varying = np.ptp(amounts) > 0 and np.ptp(centred) > 0
        corr = float(spearmanr(amounts, centred).statistic) if varying else float("nan")
        ev = part["expected_value"].to_numpy()
        rows.append(
            TrackingResult(
                who=str(who),
                n_bets=len(amounts),
                statistic=observed,
                p_value=(1 + exceed) / (1 + n_permutations),
                correlation=corr,
                money_edge=float(amounts @ ev / amounts.sum()),
                flat_edge=float(ev.mean()),
            )
        )
    return pl.DataFrame([r.__dict__ for r in rows], schema=_TRACKING_SCHEMA)


_TRACKING_SCHEMA = {
    "who": pl.String,
    "n_bets": pl.Int64,
    "statistic": pl.Float64,
    "p_value": pl.Float64,
    "correlation": pl.Float64,
    "money_edge": pl.Float64,
    "flat_edge": pl.Float64,
}
