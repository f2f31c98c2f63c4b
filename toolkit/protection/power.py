"""Power and false alarms: how often detection flags each kind of player, against the number of shoes observed.

**The design.**  The players are seated at one pool of ``trials x max(shoes)``
simulated shoes (:func:`~toolkit.protection.players.simulate_table`).  For ``n``
shoes observed, the first ``trials x n`` shoes are cut into ``trials`` disjoint
blocks of ``n`` consecutive shoes, and each block is one surveillance record:
every seat and bet is tested on it (:func:`trial_tests`, the tests of
:func:`~toolkit.protection.detection.detect_counters`), the
p-values of a seat's bets are corrected together (Holm), and the seat is flagged
when one of them is at most ``alpha``.  The share of blocks flagged estimates the
probability of flagging the player after ``n`` shoes, with its Clopper-Pearson
interval (:func:`power_curve`).  For a player whose bets ignore the cards the
share is the false-alarm rate, which should equal ``alpha`` within its interval.

>>> from toolkit.protection.players import Counter
>>> d7 = Counter("d7", "dragon7", ramp={4: 1})
>>> curve = power_curve([d7], shoes=(2,), trials=10, permutations=99, reference=100, seed=1)
>>> curve.select("who", "shoes", "trials").rows()
[('d7', 2, 10)]

References
----------
C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the case of the
binomial", *Biometrika* 26 (1934) 404-413 (through :meth:`scipy.stats.binomtest`); E. B. Wilson, "Probable
inference, the law of succession, and statistical inference", *J. Amer. Statist. Assoc.* 22 (1927) 209-212.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit.parallel import SeedLike, as_generator, map_tasks
from toolkit.protection.detection import METHODS, NULLS, coup_table
from toolkit.protection.permutation import adjust, within_shoe_permutation
from toolkit.protection.players import Player, Team, simulate_table
from toolkit.protection.reference import centred_matrix, fresh_shoe_test, reference_shoes
from toolkit.records import Records, ShoeHeader

__all__ = ["power_curve", "shoes_needed", "trial_tests"]


def _kinds(players: Iterable[Player]) -> dict[str, str]:
    """Each seat's kind of player: the class name, and the role in a team."""
    out = {}
    for p in players:
        if isinstance(p, Team):
            out[p.spotter], out[p.big_player] = "Team spotter", "Team big player"
        else:
            system = getattr(p, "system", None)
            name = system if isinstance(system, str) else getattr(system, "name", None)
            out[p.who] = type(p).__name__ + ("" if name is None else f" {name}")
    return out


def trial_tests(
    records: Records,
    shoes_per_trial: int,
    trials: int | None = None,
    permutations: int = 999,
    method: str = "permutation",
    null: str = "fresh_shoes",
    reference: int = 2000,
    seed: SeedLike = None,
) -> pl.DataFrame:
    """The test of every seat and bet on each block of ``shoes_per_trial`` consecutive shoes.

    Parameters
    ----------
    records
        A card-level record with bets (its shoes in order, all under the first shoe's header).
    shoes_per_trial
        Shoes in a block (a trial).
    trials
        Blocks tested (default: as many as the record holds).
    permutations
        Shufflings (or fresh-shoe draws) per test; 0 with ``method="normal"``.
    method, null, reference
        As in :func:`~toolkit.protection.detection.detect_counters`.
    seed
        Where the pool of fresh shoes and the shufflings come from.

    Returns
    -------
    polars.DataFrame
        ``who, bet, trial, bets, p_value``: one row per seat, bet and block in which the seat placed that bet.
    """
    if method not in METHODS or null not in NULLS:
        raise ValueError(f"method must be one of {METHODS} and null one of {NULLS}, got {method!r}, {null!r}")
    if isinstance(shoes_per_trial, bool) or not isinstance(shoes_per_trial, int) or shoes_per_trial < 1:
        raise ValueError(f"shoes_per_trial must be a positive integer, got {shoes_per_trial!r}")
    gen = as_generator(seed)
    placed = records.bets.group_by(["shoe", "coup", "who", "bet"], maintain_order=True).agg(pl.col("amount").sum())
    names = placed["bet"].unique(maintain_order=True).to_list()
    available = records.n_shoes // shoes_per_trial
    trials = available if trials is None else min(trials, available)
    rows: list[dict[str, object]] = []
    if not names or trials == 0:
        return pl.DataFrame(rows, schema=_TRIAL_SCHEMA)
    table = coup_table(records, names)
    shoe_row = table["_shoe_row"].to_numpy()
    coup = table["coup"].to_numpy().astype(np.int64)
    length = int(coup.max())
    header = records.headers[0]
    pools = (
        reference_shoes(ShoeHeader(header.dealing, header.rules), names, reference, gen)
        if null == "fresh_shoes"
        else {}
    )
    ids = pl.DataFrame({"shoe": records.shoes["shoe"], "_row": np.arange(records.n_shoes)})
    draws = permutations if method == "permutation" else 0
    for (who, bet), part in placed.group_by(["who", "bet"], maintain_order=True):
        edges = centred_matrix(shoe_row, coup, table[f"ev_{bet}"].to_numpy(), records.n_shoes, length)
        known = np.zeros_like(edges, dtype=bool)
        ok = table[f"ev_{bet}"].is_not_null().to_numpy()
        known[shoe_row[ok], coup[ok] - 1] = True
        at = part.join(ids, on="shoe", how="left")
        stakes = np.zeros_like(edges)
        stakes[at["_row"].to_numpy(), at["coup"].to_numpy() - 1] = at["amount"].to_numpy()
        stakes[~known] = 0.0
        for t in range(trials):
            block = slice(t * shoes_per_trial, (t + 1) * shoes_per_trial)
            a, e, k = stakes[block], edges[block], known[block]
            if not (a > 0).any():
                continue
            if null == "fresh_shoes":
                test = fresh_shoe_test([(a, e, pools[bet])], draws, gen)
            else:
                labels = np.broadcast_to(np.arange(len(a))[:, None], a.shape)
                test = within_shoe_permutation(e[k], a[k], labels[k], draws, gen)
            p = test.p_value if method == "permutation" else test.p_normal
            rows.append({"who": who, "bet": bet, "trial": t, "bets": int((a > 0).sum()), "p_value": p})
    return pl.DataFrame(rows, schema=_TRIAL_SCHEMA)


_TRIAL_SCHEMA = {"who": pl.String, "bet": pl.String, "trial": pl.Int64, "bets": pl.Int64, "p_value": pl.Float64}


def power_curve(
    players: Sequence[Player],
    shoes: Sequence[int] = (1, 2, 4, 8, 16, 32),
    trials: int = 200,
    alpha: float = 0.01,
    permutations: int = 999,
    method: str = "permutation",
    null: str = "fresh_shoes",
    reference: int = 2000,
    header: ShoeHeader = ShoeHeader(),
    seed: SeedLike = None,
    confidence: float = 0.95,
    progress: bool = False,
    workers: int | None = None,
    scheduler: str | Any | None = None,
) -> pl.DataFrame:
    """The probability that detection flags each player after each number of shoes, with its interval.

    Parameters
    ----------
    players
        The players (:mod:`toolkit.protection.players`), seated together at every shoe.
    shoes
        The numbers of shoes observed.
    trials
        Records (blocks of shoes) per number of shoes.
    alpha
        The significance: a seat is flagged when a Holm-corrected p-value of its bets is at most ``alpha``.
    permutations, method, null, reference
        As in :func:`~toolkit.protection.detection.detect_counters`.
    header
        How the shoes are dealt.
    seed
        The shoes and the players draw from its first child stream; the fresh shoes and shufflings of the ``k``-th
        number of shoes from child ``k`` of the second.
    confidence
        Of the Clopper-Pearson interval.
    progress
        A progress bar over the numbers of shoes (stderr).
    workers, scheduler
        Where the tests of each number of shoes run (:func:`toolkit.parallel.map_tasks`: this process, local
        worker processes or a Dask cluster); the same curve wherever they run.

    Returns
    -------
    polars.DataFrame
        ``who, kind, shoes, trials, flagged, rate, ci_low, ci_high, alpha``.
    """
    from scipy.stats import binomtest

    sizes = sorted({int(n) for n in shoes})
    if not sizes or sizes[0] < 1:
        raise ValueError(f"shoes must be positive numbers of shoes, got {list(shoes)}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive), got {alpha}")
    table_seed, test_seed = np.random.SeedSequence(as_generator(seed).integers(2**63)).spawn(2)
    records = simulate_table(trials * sizes[-1], players, header, seed=table_seed)
    kinds = _kinds(players)
    tests = partial(
        _flags, records=records, trials=trials, permutations=permutations, method=method, null=null,
        reference=reference, alpha=alpha,
    )  # fmt: skip
    rows = []
    tasks = list(zip(sizes, test_seed.spawn(len(sizes)), strict=True))
    for n, counts in zip(sizes, map_tasks(tests, tasks, workers, scheduler, progress, "record sizes"), strict=True):
        for who, kind in kinds.items():
            k = int(counts.get(who, 0))
            ci = binomtest(k, trials).proportion_ci(confidence_level=confidence, method="exact")
            rows.append(
                {
                    "who": who,
                    "kind": kind,
                    "shoes": n,
                    "trials": trials,
                    "flagged": k,
                    "rate": k / trials,
                    "ci_low": float(ci.low),
                    "ci_high": float(ci.high),
                    "alpha": alpha,
                }
            )
    return pl.DataFrame(rows).sort("who", "shoes", maintain_order=True)


def _flags(
    task: tuple[int, np.random.SeedSequence], records: Records, trials: int, permutations: int, method: str,
    null: str, reference: int, alpha: float,
) -> dict[str, int]:  # fmt: skip
    """Trials flagged by seat, for one number of shoes (its seed in ``task``): a task of :func:`power_curve`."""
    n, seed = task
    tests = trial_tests(records, n, trials, permutations, method, null, reference, np.random.default_rng(seed))
    flagged = (
        tests.group_by(["who", "trial"])
        .agg(pl.col("p_value"))
        .with_columns(
            pl.col("p_value")
            .map_elements(lambda p: float(np.min(adjust(p.to_numpy(), "holm"))), return_dtype=pl.Float64)
            .alias("p_min")
        )
        .filter(pl.col("p_min") <= alpha)
        .group_by("who")
        .len()
    )
    return dict(flagged.rows())


def shoes_needed(curve: pl.DataFrame, power: float = 0.9) -> pl.DataFrame:
    """For each player of a :func:`power_curve`, the fewest shoes at which it was flagged with at least ``power``.

    ``None`` when no number of shoes studied reached it.
    """
    reached = curve.filter(pl.col("rate") >= power).group_by("who").agg(pl.col("shoes").min().alias("shoes_needed"))
    players = curve.select("who", "kind").unique(maintain_order=True)
    return players.join(reached, on="who", how="left", maintain_order="left")
