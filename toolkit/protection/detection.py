"""Who at this table is counting: for every seat and bet, does placing and sizing the bet follow the exact edge?

:func:`detect_counters` takes a card-level record with bets (``who, bet,
amount`` per coup, see :mod:`toolkit.records.read`).  For each seat and each bet
it placed, the coups considered are those of the shoes the seat played (it
placed at least one bet there); at each, the exact edge of the bet before the
coup (:func:`toolkit.records.replay_records`) and the seat's stake (0 where it did not
bet).  Then:

* **the test**: the statistic ``sum(stake * (edge - the shoe's mean edge))``,
  large when the money goes where the edge is, against its null distribution,
  one-sided.  By default (``null="fresh_shoes"``,
  :func:`~toolkit.protection.reference.fresh_shoe_test`) each of the seat's stake
  sequences meets the edges of freshly shuffled shoes, which keeps a progression's
  runs of stakes whole; with ``null="within_shoe"``
  (:func:`~toolkit.protection.permutation.within_shoe_permutation`) the edges are
  shuffled among each shoe's coups, keeping each shoe's number of bets and its
  stakes: exact for bets exchangeable within the shoe, but it flags a Martingale
  player several times too often (see :mod:`toolkit.protection.reference`);
* **the rank correlation** of stake and edge over those coups (Spearman's rho,
  one-sided p-value);
* **the correction** of the permutation p-values across seats and bets (Holm's
  step-down by default, or Benjamini-Hochberg), and ``flagged`` when the
  corrected p-value is at most ``alpha``;
* **the effect**: the seat's mean edge over the coups it bet against the bet's
  mean edge over all the coups it saw;
* **luck against skill**: the money the seat won against the money the exact
  edges say it should have won (``sum(stake * edge)``);
* **the implied count** (:mod:`toolkit.protection.implied`).

>>> from toolkit.protection.players import FlatBettor, simulate_table
>>> records = simulate_table(4, [FlatBettor("seat1", "banker", rate=0.5)], seed=3)
>>> found = detect_counters(records, permutations=199, reference=200, seed=1)
>>> found.seats.select("who", "bet", "flagged").rows()
[('seat1', 'banker', False)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from toolkit.counting import count_systems
from toolkit.coup import RANKS
from toolkit.parallel import SeedLike, as_generator
from toolkit.protection.implied import fit_tags, implied_count
from toolkit.protection.permutation import CORRECTIONS, PermutationTest, adjust, within_shoe_permutation
from toolkit.protection.reference import MAX_REFERENCE, Pool, centred_matrix, fresh_shoe_test, reference_shoes
from toolkit.records import Records, ShoeHeader, bet_edges, replay_records
from toolkit.records.validation import Problem

__all__ = ["METHODS", "NULLS", "SEAT_COLUMNS", "Detection", "coup_table", "detect_counters"]

#: The columns of :attr:`Detection.seats`, in order.
SEAT_COLUMNS: dict[str, Any] = {
    "who": pl.String,
    "bet": pl.String,
    "shoes": pl.Int64,
    "coups": pl.Int64,
    "bets": pl.Int64,
    "staked": pl.Float64,
    "statistic": pl.Float64,
    "z": pl.Float64,
    "p_monte_carlo": pl.Float64,
    "p_normal": pl.Float64,
    "p_value": pl.Float64,
    "p_adjusted": pl.Float64,
    "flagged": pl.Boolean,
    "mean_edge_when_betting": pl.Float64,
    "mean_edge": pl.Float64,
    "effect": pl.Float64,
    "money_edge": pl.Float64,
    "rho": pl.Float64,
    "rho_p_value": pl.Float64,
    "won": pl.Float64,
    "expected_win": pl.Float64,
    "luck": pl.Float64,
    "implied_count": pl.String,
    "implied_tags": pl.List(pl.Int64),
    "implied_trigger": pl.Float64,
    "implied_rho": pl.Float64,
    "fitted_tags": pl.List(pl.Int64),
}

#: How :func:`detect_counters` takes its p-values from the permutation test.
METHODS = ("permutation", "normal")
#: The most shufflings of one test: p-values to 1e-6, and one float each (8 MB).
MAX_PERMUTATIONS = 1_000_000
#: The most seat-and-bet pairs one run tests (each a permutation test over the record; 256 tests of 9,999
#: shufflings took 28 s and 0.57 GB on the sample record): the command's ``MAX_SEAT_TESTS``, the same number
#: (tested), checked there before the record's edges are computed; a record of many seats is tested a few at a time.
MAX_TESTS = 500
#: The most coups one run shuffles: each test's coups (those of the shoes its seat played) times ``permutations``,
#: summed over the tests, checked before the record's edges are computed.  The shufflings are drawn a block at a
#: time (bounded memory).  Measured at the limit (40 simulated shoes, 7 tests of 21,155 coups in all, 94,540
#: shufflings each; a loaded two-core machine): 32 s and 0.52 GB with the fresh-shoe null, 101 s and 0.50 GB within
#: shoes; one shuffling more is refused in 10 s.  500 tests of 9,999 shufflings of the sample record's 243 coups
#: are 1.2e9.
MAX_SHUFFLED_COUPS = 2_000_000_000
#: The null distributions :func:`detect_counters` knows (see :mod:`toolkit.protection.reference`).
NULLS = ("fresh_shoes", "within_shoe")


@dataclass(frozen=True)
class Detection:
    """What :func:`detect_counters` found.

    Attributes
    ----------
    seats
        One row per seat and bet (:data:`SEAT_COLUMNS`): ``bets`` (coups bet),
        ``staked`` (money), ``statistic`` and ``p_value`` of the permutation test,
        ``p_adjusted`` (after ``correction``), ``flagged`` (``p_adjusted <= alpha``),
        ``mean_edge_when_betting`` and ``mean_edge`` (per unit, over the coups bet and
        over every coup the seat saw) and their difference ``effect``, ``money_edge``
        (expected value per unit of money staked), ``rho`` and ``rho_p_value``
        (Spearman, stake against edge, one-sided), ``won``, ``expected_win`` and
        ``luck`` (their difference), and, for a flagged seat, the implied count: its ``implied_count``
        (a library system's name or ``"fitted"``), ``implied_tags`` (by value 0..9),
        ``implied_trigger`` (a true count) and ``implied_rho``; ``fitted_tags``, the integer tags
        by value fitted to the seat's stakes (:func:`toolkit.protection.implied.fit_tags`, largest tag 2).
    alpha
        The significance ``flagged`` uses.
    correction
        ``"holm"``, ``"bh"`` or ``"none"``.
    permutations
        Shufflings per test.
    method
        ``"permutation"`` (the Monte Carlo p-value) or ``"normal"`` (its normal approximation).
    null
        ``"fresh_shoes"`` or ``"within_shoe"``: what the seat's betting was compared with.
    problems
        The record's problems (bad bets among them), each with its file, line, shoe and coup.
    """

    seats: pl.DataFrame
    alpha: float
    correction: str
    permutations: int
    method: str = "permutation"
    null: str = "fresh_shoes"
    problems: tuple[Problem, ...] = ()

    def as_json(self) -> dict[str, object]:
        """``{"seats": [...], "alpha": ..., "correction": ..., "permutations": ..., "problems": [...]}``."""
        seats = []
        for row in self.seats.to_dicts():
            implied = None
            if row["implied_count"] is not None:
                implied = {
                    "system": row["implied_count"],
                    "tags_by_value": row["implied_tags"],
                    "trigger": row["implied_trigger"],
                    "rho": row["implied_rho"],
                    "fitted_tags_by_value": row["fitted_tags"],
                }
            rest = {k: v for k, v in row.items() if not k.startswith("implied_") and k != "fitted_tags"}
            seats.append({**rest, "implied_count": implied})
        return {
            "seats": seats,
            "alpha": self.alpha,
            "correction": self.correction,
            "permutations": self.permutations,
            "method": self.method,
            "null": self.null,
            "problems": [p.as_dict() for p in self.problems],
        }


def _alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)):
        raise TypeError(f"alpha must be a number between 0 and 1, got {alpha!r}")
    if not 0 < float(alpha) < 1:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive), got {alpha}")
    return float(alpha)


def _names(values: Iterable[str] | str | None, where: str) -> list[str] | None:
    if values is None:
        return None
    if isinstance(values, str):
        values = [values]
    out = list(values)
    bad = [v for v in out if not isinstance(v, str)]
    if bad:
        raise TypeError(f"{where} must be names (strings), got {bad[0]!r}")
    return out


def _pairs(placed: pl.DataFrame, source: object) -> list[tuple]:
    """The seat-and-bet pairs to test, at most :data:`MAX_TESTS` (checked before any test starts)."""
    pairs = placed.select("who", "bet").unique(maintain_order=True).rows()
    if len(pairs) > MAX_TESTS:
        raise ValueError(
            f"{source}: {len(pairs):,} seat-and-bet pairs to test, at most {MAX_TESTS:,} in one run; "
            "name the seats (who) or the bets to test"
        )
    return pairs


def _refuse_too_much_shuffling(records: Records, placed: pl.DataFrame, pairs: list[tuple], permutations: int) -> None:
    """:class:`ValueError` when the tests would shuffle more than :data:`MAX_SHUFFLED_COUPS` coups in all.

    A test shuffles the coups of the shoes its seat played (``records.shoes["coups"]``) ``permutations`` times.
    """
    if not permutations or not pairs:
        return
    coups = records.shoes.select(pl.col("shoe").cast(pl.String), "coups")
    played = placed.select("who", pl.col("shoe").cast(pl.String)).unique()
    per_seat = dict(played.join(coups, on="shoe").group_by("who").agg(pl.col("coups").sum()).iter_rows())
    tested = sum(int(per_seat.get(who, 0)) for who, _ in pairs)
    shuffled = tested * int(permutations)
    if shuffled > MAX_SHUFFLED_COUPS:
        raise ValueError(
            f"{records.source}: {len(pairs):,} seat-and-bet tests of {tested:,} coups in all, {permutations:,} "
            f"shufflings each: {shuffled:,} coups shuffled, past the {MAX_SHUFFLED_COUPS:,} one run may shuffle; "
            "give fewer permutations, name the seats (who) or the bets to test, or take the normal p-values"
        )


def _check_choices(permutations: object, correction: str, method: str, null: str, reference: object) -> None:
    for value, allowed, what in (
        (method, METHODS, "method"),
        (null, NULLS, "null"),
        (correction, CORRECTIONS, "correction"),
    ):
        if value not in allowed:
            raise ValueError(f"unknown {what} {value!r}; known: {', '.join(allowed)}")
    least = 0 if method == "normal" else 1
    if isinstance(permutations, bool) or not isinstance(permutations, (int, np.integer)) or permutations < least:
        raise ValueError(f"permutations must be an integer >= {least} with method {method!r}, got {permutations!r}")
    if (
        isinstance(reference, bool)
        or not isinstance(reference, (int, np.integer))
        or not 2 <= reference <= MAX_REFERENCE
    ):
        raise ValueError(f"reference must be 2 to {MAX_REFERENCE:,} freshly shuffled shoes, got {reference!r}")
    if permutations > MAX_PERMUTATIONS:
        raise ValueError(f"permutations must be at most {MAX_PERMUTATIONS:,} (a p-value to 1e-6), got {permutations:,}")


def coup_table(records: Records, bets: list[str]) -> pl.DataFrame:
    """Every coup with its unseen cards, decks, the library's true counts and the exact edge of each bet."""
    systems = [s.name for s in count_systems()]
    frame = replay_records(records, systems=systems, bets=bets)
    decks = pl.DataFrame(
        {
            "shoe": records.shoes["shoe"],
            "decks": [h.dealing.decks for h in records.headers],
            "_shoe_row": np.arange(records.n_shoes),
        },
        schema={"shoe": records.shoes["shoe"].dtype, "decks": pl.Int64, "_shoe_row": pl.Int64},
    )
    return frame.join(decks, on="shoe", how="left", maintain_order="left")


def detect_counters(
    records: Records,
    who: Iterable[str] | str | None = None,
    bets: Iterable[str] | str | None = None,
    alpha: float = 0.01,
    permutations: int = 9999,
    seed: SeedLike = None,
    correction: str = "holm",
    method: str = "permutation",
    null: str = "fresh_shoes",
    reference: int = 2000,
    progress: bool = False,
) -> Detection:
    """For every seat and bet: does the seat's betting follow the exact edge, how sure, and what count explains it.

    Parameters
    ----------
    records
        A card-level record with bets (:func:`toolkit.records.read_records`).
    who
        The seats to test (default: every seat in the record).
    bets
        The bets to test (default: every bet placed).
    alpha
        Significance of ``flagged`` (after the correction).
    permutations
        Shufflings per permutation test (0 with ``method="normal"``: none drawn), at most
        :data:`MAX_PERMUTATIONS`; the tests together shuffle at most :data:`MAX_SHUFFLED_COUPS` coups
        (each test's coups times ``permutations``), checked before any work (:class:`ValueError`).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None``;
        each seat and bet draws from its own child stream, in the order of the rows.
    correction
        ``"holm"`` (family-wise, the default), ``"bh"`` (false discovery rate) or ``"none"``.
    method
        Which p-value is corrected and flagged: ``"permutation"`` (the shufflings drawn; at
        least ``1 / (1 + permutations)``) or ``"normal"`` (the normal tail of the statistic
        over its standard deviation under the null: fast, and resolves smaller p-values).
    null
        What the seat's betting is compared with: ``"fresh_shoes"`` (each of its stake sequences
        against the edges of freshly shuffled shoes dealt under the shoe's header; valid for
        progressions and road followers, whose stakes come in runs) or ``"within_shoe"`` (the
        edges shuffled among each shoe's coups; exact for a seat whose bets are exchangeable
        within the shoe, such as a flat random bettor, and needing no model of the shuffle).
        See :mod:`toolkit.protection.reference`.
    reference
        Freshly shuffled shoes per header in the ``"fresh_shoes"`` pool.
    progress
        A progress bar over the seats and bets (stderr).

    Returns
    -------
    Detection
        ``seats`` (one row per seat and bet) and the settings.
    """
    from toolkit._progress import progress_bar

    alpha = _alpha(alpha)
    _check_choices(permutations, correction, method, null, reference)
    if records.dealt is None:
        raise ValueError(f"{records.source}: detection needs the cards; an outcome-only record holds only the winners")
    seats, chosen = _names(who, "who"), _names(bets, "bets")
    placed = records.bets.group_by(["shoe", "coup", "who", "bet"], maintain_order=True).agg(pl.col("amount").sum())
    for name, values, column in (("who", seats, "who"), ("bets", chosen, "bet")):
        known = set(placed[column].to_list())
        missing = [v for v in values or () if v not in known]
        if missing:
            shown = ", ".join(sorted(known)[:12]) + (f" ... ({len(known):,} in all)" if len(known) > 12 else "")
            shown = shown or "none"
            raise ValueError(f"{name}: no bets by {missing[0]!r} in {records.source}; found: {shown}")
    if seats is not None:
        placed = placed.filter(pl.col("who").is_in(seats))
    if chosen is not None:
        placed = placed.filter(pl.col("bet").is_in(chosen))
    pairs = _pairs(placed, records.source)
    _refuse_too_much_shuffling(records, placed, pairs, int(permutations))
    problems = records.report.problems
    if not pairs:
        return Detection(
            pl.DataFrame(schema=SEAT_COLUMNS), alpha, correction, int(permutations), method, null, problems
        )
    names = placed["bet"].unique(maintain_order=True).to_list()
    table = coup_table(records, names)
    pool_seed, *streams = np.random.SeedSequence(as_generator(seed).integers(2**63)).spawn(1 + len(pairs))
    groups, pools = _pools(records, placed, names, int(reference), pool_seed) if null == "fresh_shoes" else (None, {})
    rows = []
    for (seat, bet), stream in zip(progress_bar(pairs, desc="seats", unit="seat", show=progress), streams, strict=True):
        gen = np.random.default_rng(stream)
        rows.append(_seat_row(table, placed, seat, bet, int(permutations), gen, groups, pools))
    frame = _assemble(rows, _money(records, placed), method, correction, alpha)
    # a count explains the betting of a seat only when the betting follows the edge
    implied = [
        _implied(table, placed, row["who"], row["bet"]) if row["flagged"] else {}
        for row in frame.select("who", "bet", "flagged").iter_rows(named=True)
    ]
    frame = frame.with_columns(
        pl.Series(c, [i.get(c) for i in implied], dtype=SEAT_COLUMNS[c])
        for c in ("implied_count", "implied_tags", "implied_trigger", "implied_rho")
    )
    return Detection(frame.select(list(SEAT_COLUMNS)), alpha, correction, int(permutations), method, null, problems)


def _assemble(
    rows: list[dict[str, object]], money: pl.DataFrame, method: str, correction: str, alpha: float
) -> pl.DataFrame:
    """The seats' rows as a frame: the p-value ``method`` chose, the money, the correction and the flags."""
    schema = {k: v for k, v in SEAT_COLUMNS.items() if k not in ("p_value", "p_adjusted", "flagged", "luck")}
    frame = pl.DataFrame(rows, schema=schema)
    frame = frame.with_columns(pl.col("p_monte_carlo" if method == "permutation" else "p_normal").alias("p_value"))
    frame = frame.join(money, on=["who", "bet"], how="left", maintain_order="left", suffix="_money")
    frame = frame.with_columns(
        pl.coalesce("won_money", "won").alias("won"),
        pl.coalesce("expected_win_money", "expected_win").alias("expected_win"),
    ).drop("won_money", "expected_win_money")
    adjusted = adjust(frame["p_value"].to_numpy(), correction)
    return frame.with_columns(
        pl.Series("p_adjusted", adjusted, nan_to_null=True),
        pl.Series("flagged", np.nan_to_num(adjusted, nan=2.0) <= alpha),
        (pl.col("won") - pl.col("expected_win")).alias("luck"),
    )


def _money(records: Records, placed: pl.DataFrame) -> pl.DataFrame:
    """What each seat won on each bet and what the exact edges say it should have (from :func:`bet_edges`)."""
    edges = bet_edges(records)
    edges = edges.join(placed.select("who", "bet").unique(), on=["who", "bet"], how="semi")
    return edges.group_by(["who", "bet"]).agg(
        pl.col("result").sum().alias("won"),
        pl.col("expected_result").sum().alias("expected_win"),
    )


def _pools(
    records: Records, placed: pl.DataFrame, bets: list[str], n_shoes: int, seed: np.random.SeedSequence
) -> tuple[np.ndarray, dict[int, dict[str, Pool]]]:
    """Each shoe's rule set (an index), and a pool of freshly shuffled shoes per rule set that has bets."""
    keys = [(h.dealing, h.rules) for h in records.headers]
    index = {k: i for i, k in enumerate(dict.fromkeys(keys))}
    groups = np.array([index[k] for k in keys], dtype=np.int64)
    rows = records.index_of
    used = sorted({int(groups[rows(s)]) for s in placed["shoe"].unique().to_list()})
    streams = dict(zip(used, seed.spawn(len(used)), strict=True))
    headers = {index[k]: records.headers[keys.index(k)] for k in index}
    pools = {
        g: reference_shoes(ShoeHeader(headers[g].dealing, headers[g].rules), bets, n_shoes, streams[g]) for g in used
    }
    return groups, pools


def _fresh_test(
    coups: pl.DataFrame,
    ev: str,
    stakes: np.ndarray,
    groups: np.ndarray,
    pools: dict[int, dict[str, Pool]],
    bet: str,
    draws: int,
    gen: np.random.Generator,
) -> PermutationTest:
    """The fresh-shoe test of one seat on one bet: its shoes by rule set, each against that set's pool."""
    shoe_row = coups["_shoe_row"].to_numpy()
    coup = coups["coup"].to_numpy().astype(np.int64)
    edges = coups[ev].to_numpy()
    parts = []
    for g in np.unique(groups[shoe_row]):
        mine = groups[shoe_row] == g
        labels, local = np.unique(shoe_row[mine], return_inverse=True)
        length = int(coup[mine].max())
        e = centred_matrix(local, coup[mine], edges[mine], len(labels), length)
        a = np.zeros((len(labels), length))
        a[local, coup[mine] - 1] = stakes[mine]
        parts.append((a, e, pools[int(g)][bet]))
    return fresh_shoe_test(parts, draws, gen)


def _seat_coups(table: pl.DataFrame, placed: pl.DataFrame, seat: str, bet: str) -> pl.DataFrame:
    """The coups of the shoes the seat played where the bet's edge is known, with its stake (``amount``, 0: none)."""
    shoes = placed.filter(pl.col("who") == seat)["shoe"].unique()
    mine = placed.filter((pl.col("who") == seat) & (pl.col("bet") == bet)).select(
        "shoe", pl.col("coup").cast(table.schema["coup"]), "amount"
    )
    return (
        table.filter(pl.col("shoe").is_in(shoes.implode()) & pl.col(f"ev_{bet}").is_not_null())
        .join(mine, on=["shoe", "coup"], how="left", maintain_order="left")
        .with_columns(pl.col("amount").fill_null(0.0))
    )


def _implied(table: pl.DataFrame, placed: pl.DataFrame, seat: str, bet: str) -> dict[str, object]:
    """The implied count's columns for one seat and bet."""
    coups = _seat_coups(table, placed, seat, bet)
    unseen = coups.select([f"unseen_{r}" for r in RANKS]).to_numpy()
    implied = implied_count(
        unseen, coups["cards_left"].to_numpy(), coups["decks"].to_numpy(), coups["amount"].to_numpy()
    )
    return {
        "implied_count": None if implied is None else implied.system,
        "implied_tags": None if implied is None else list(implied.tags_by_value),
        "implied_trigger": None if implied is None else implied.trigger,
        "implied_rho": None if implied is None else implied.rho,
    }


def _seat_row(
    table: pl.DataFrame,
    placed: pl.DataFrame,
    seat: str,
    bet: str,
    permutations: int,
    gen: np.random.Generator,
    groups: np.ndarray | None,
    pools: dict[int, dict[str, Pool]],
) -> dict[str, object]:
    """The tests of one seat on one bet, over the coups of the shoes it played."""
    ev = f"ev_{bet}"
    coups = _seat_coups(table, placed, seat, bet)
    edges = coups[ev].to_numpy()
    stakes = coups["amount"].to_numpy()
    shoe_index = coups["shoe"].cast(pl.String).to_numpy()
    if groups is None:
        test = within_shoe_permutation(edges, stakes, shoe_index, permutations, gen)
    else:
        test = _fresh_test(coups, ev, stakes, groups, pools, bet, permutations, gen)
    betting = stakes > 0
    nothing = float("nan")
    rho, rho_p = _spearman(stakes, edges)
    unseen = coups.select([f"unseen_{r}" for r in RANKS]).to_numpy()
    fitted = fit_tags(unseen, coups["cards_left"].to_numpy(), stakes, 2)
    return {
        "who": seat,
        "bet": bet,
        "shoes": int(coups["shoe"].n_unique()),
        "coups": coups.height,
        "bets": int(betting.sum()),
        "staked": float(stakes.sum()),
        "statistic": test.statistic,
        "z": test.z,
        "p_monte_carlo": test.p_value if betting.any() else nothing,
        "p_normal": test.p_normal if betting.any() else nothing,
        "mean_edge_when_betting": float(edges[betting].mean()) if betting.any() else None,
        "mean_edge": float(edges.mean()) if len(edges) else None,
        "effect": float(edges[betting].mean() - edges.mean()) if betting.any() else None,
        "money_edge": float(stakes @ edges / stakes.sum()) if stakes.sum() > 0 else None,
        "rho": rho,
        "rho_p_value": rho_p,
        "won": None,
        "expected_win": float(stakes @ edges),
        "implied_count": None,
        "implied_tags": None,
        "implied_trigger": None,
        "implied_rho": None,
        "fitted_tags": None if fitted is None else list(fitted),
    }


def _spearman(stakes: np.ndarray, edges: np.ndarray) -> tuple[float | None, float | None]:
    """Spearman's rho of stake and edge, and its one-sided p-value (``None`` when either is constant)."""
    from scipy.stats import spearmanr

    if len(stakes) < 3 or np.ptp(stakes) == 0 or np.ptp(edges) == 0:
        return None, None
    result = spearmanr(stakes, edges, alternative="greater")
    return float(result.statistic), float(result.pvalue)
