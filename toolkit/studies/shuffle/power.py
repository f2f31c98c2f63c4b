"""How many recorded shoes it takes to tell a weak shuffle from a uniform one.

Each replicate is a **chain** of shoes: the first shuffled uniformly, every later one the shuffle
model applied to the previous shoe's discard order (:func:`~toolkit.studies.shuffle.tracker.discard_orders`),
all dealt by the same :class:`~toolkit.dealing.dealer.Dealing`.  The first ``N`` shoes of a chain are
recorded card by card (:func:`toolkit.records.simulate.records_from_orders`) and every test of
:func:`toolkit.records.randomness_tests` is run on them against one baseline of uniform shoes; the
**power** at ``N`` shoes is the share of replicates a test rejects at level ``alpha`` (1 %), with a
Wilson interval.  A uniform model gives each test's false-positive rate.

One more test uses what a casino (or a tracker) who recorded both shoes of a pair has: both orders.
The **discard-transition test** (:func:`transition_statistic`) scores the new shoe's ranks by the
log-likelihood ratio, position by position, of the model's transition matrix against a uniform shuffle:

    T = sum_j F[j, x_j],   F[j, r] = log(P_j(r) / u_r),   P_j(r) = sum_{i: d_i = r} M[i, j],

``d`` the discard order, ``x`` the new shoe, ``u_r`` the share of rank ``r`` in the pack.  Under a uniform
shuffle ``x`` is a uniform permutation of ``d``, so ``T`` is Hoeffding's combinatorial sum
``sum_j a[j, pi(j)]`` with ``a[j, i] = F[j, d_i]``, of mean ``sum a / n`` and variance
``sum (a_ji - a_j. - a_.i + a..)^2 / (n - 1)`` (Hoeffding 1951), and its z score is close to normal.
Over ``N - 1`` pairs the z scores are summed (``Z = sum z / sqrt(N - 1)``) and the test rejects when
``Z`` exceeds the normal quantile (one-sided: the model explains the new shoe better than chance).
It is aimed at the model under test (a casino checking its own procedure knows it).

>>> from toolkit.studies.shuffle.models import Riffles
>>> frame = shuffle_test_power([Riffles(1)], shoes=(2,), replicates=3, baseline_shoes=20, seed=1, progress=False)
>>> sorted(set(frame["test"].to_list()))[:2]
['cut card', 'deck mixing']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import positive_int
from toolkit._packing import pack_spec, unpack_spec
from toolkit._stats import wilson_interval
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.dealing.shuffles.models import check_shuffle_work
from toolkit.parallel import (
    Block,
    SeedLike,
    as_generator,
    as_seed_sequence,
    block_plan,
    map_blocks,
)
from toolkit.records.header import ShoeHeader
from toolkit.records.model import Records
from toolkit.records.randomness import randomness_tests
from toolkit.records.simulate import records_from_orders
from toolkit.studies.shuffle.models import ShuffleModel, UniformShuffle, model_name, riffles
from toolkit.studies.shuffle.tracker import discard_orders
from toolkit.studies.shuffle.transition import DEFAULT_SAMPLES, transition_matrix

__all__ = [
    "DEFAULT_POWER_RIFFLES",
    "DEFAULT_POWER_SHOES",
    "TRANSITION_TEST",
    "shoe_chains",
    "shoes_needed",
    "shuffle_test_power",
    "transition_null_rate",
    "transition_statistic",
]

#: The riffle counts of the power study.
DEFAULT_POWER_RIFFLES = (1, 2, 3, 4)
#: Shoes recorded at which the power is measured.
DEFAULT_POWER_SHOES = (2, 5, 10, 20, 50)
#: The name of the discard-transition test in the frames.
TRANSITION_TEST = "discard transitions"
#: Replicates per block.
_BLOCK = 5


def shoe_chains(
    model: ShuffleModel, chains: int, length: int, dealing: Dealing = Dealing(), seed: SeedLike = None
) -> np.ndarray:
    """``(chains, length, cards)`` shoes: the first uniform, each next one ``model`` applied to the last one's discards.

    Examples
    --------
    >>> from toolkit.studies.shuffle.models import NoShuffle
    >>> shoe_chains(NoShuffle(), 2, 3, seed=1).shape
    (2, 3, 416)
    """
    chains = positive_int(chains, "chains")
    length = positive_int(length, "length")
    gen = as_generator(seed)
    out = np.empty((chains, length, dealing.cards), np.int8)
    out[:, 0] = shuffled_shoes(chains, dealing.decks, gen)
    for t in range(1, length):
        previous = out[:, t - 1]
        discards = discard_orders(previous, deal_block(previous, dealing))
        out[:, t] = np.asarray(model.apply(discards, gen), dtype=np.int8)
    return out


def _discards(shoes: np.ndarray, dealing: Dealing) -> np.ndarray:
    return discard_orders(shoes, deal_block(shoes, dealing))


def transition_statistic(discards: np.ndarray, new: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """z score of the discard-transition test of each pair (row) of ``discards`` and ``new`` (see module notes).

    Parameters
    ----------
    discards, new
        ``(pairs, cards)`` rank indices: the pack before the shuffle and the shoe after it.
    matrix
        The alternative's transition matrix.

    Returns
    -------
    numpy.ndarray
        ``(pairs,)`` z scores (about standard normal under a uniform shuffle).

    Examples
    --------
    >>> from toolkit.studies.shuffle.models import Riffles
    >>> from toolkit.studies.shuffle.transition import gsr_transition
    >>> d = shuffled_shoes(4, decks=1, seed=4)
    >>> riffled = Riffles(1).apply(d, np.random.default_rng(0))
    >>> bool((transition_statistic(d, riffled, gsr_transition(52, 1)) > 3).all())
    True
    """
    discards = np.atleast_2d(discards).astype(np.int64)
    new = np.atleast_2d(new).astype(np.int64)
    pairs, n = discards.shape
    onehot = np.zeros((pairs, n, 13))
    np.put_along_axis(onehot, discards[..., None], 1.0, axis=2)
    counts = onehot.sum(axis=1)  # (pairs, 13)
    p = np.matmul(np.asarray(matrix, dtype=np.float64).T[None], onehot)  # p[k, j, r]: P(rank r at position j)
    present = counts > 0
    with np.errstate(divide="ignore"):
        f = np.where(
            present[:, None, :], np.log(np.maximum(p, 1e-300)) - np.log(np.maximum(counts, 1) / n)[:, None, :], 0.0
        )
    observed = np.take_along_axis(f, new[..., None], axis=2)[..., 0].sum(axis=1)
    row = np.einsum("kjr,kr->kj", f, counts) / n  # a_j.
    col = f.mean(axis=1)  # a_.i for a card of rank r
    grand = row.mean(axis=1)
    centred = f - row[:, :, None] - col[:, None, :] + grand[:, None, None]
    var = np.einsum("kjr,kr->k", centred**2, counts) / (n - 1)
    mean = np.einsum("kr,kr->k", f.sum(axis=1), counts) / n
    return np.where(var > 0, (observed - mean) / np.sqrt(np.where(var > 0, var, 1.0)), 0.0)


@dataclass(frozen=True)
class _PowerJob:
    """What every block of the power study needs: the models and their alternatives' matrices, the numbers of
    shoes, the dealing, the baseline every test is calibrated on (1,000 shoes: about 40 MB pickled) and the level."""

    models: tuple[ShuffleModel, ...]
    matrices: tuple[np.ndarray, ...]
    shoes: tuple[int, ...]
    dealing: Dealing
    base: Records
    alpha: float


def _power_packed(block: Block, packed: tuple[bytes, bytes]) -> list[dict[str, object]]:
    """:func:`_power_block` of a job packed by :func:`~toolkit._packing.pack_spec`: the baseline is
    pickled once and unpickled once per worker, not once per block."""
    return _power_block(block, unpack_spec(packed))


def _power_block(block: Block, job: _PowerJob) -> list[dict[str, object]]:
    """Rejections of every test, for every model and number of shoes, over this block's replicates."""
    from scipy import stats

    dealing, shoes, alpha = job.dealing, job.shoes, job.alpha
    rows: list[dict[str, object]] = []
    header = ShoeHeader.from_dealing(dealing)
    streams = block.seed.spawn(len(job.models))
    for m, (model, matrix) in enumerate(zip(job.models, job.matrices, strict=True)):
        gen = np.random.default_rng(streams[m])
        chains = shoe_chains(model, block.n_shoes, max(shoes), dealing, gen)
        for r in range(block.n_shoes):
            z = transition_statistic(_discards(chains[r, :-1], dealing), chains[r, 1:], matrix)
            for n in shoes:
                p_values = randomness_tests(records_from_orders(chains[r, :n], header), job.base)
                for test, p in zip(p_values["test"], p_values["p_value"], strict=True):
                    rows.append({"m": m, "test": test, "shoes": n, "reject": bool(p is not None and p < alpha)})
                total = float(z[: n - 1].sum() / np.sqrt(n - 1))
                rows.append({"m": m, "test": TRANSITION_TEST, "shoes": n, "reject": bool(stats.norm.sf(total) < alpha)})
    return rows


def _alternative(model: ShuffleModel, cards: int, samples: int) -> np.ndarray:
    """The transition test's alternative: the model's own matrix (two riffles for a uniform model)."""
    return transition_matrix(riffles(2) if isinstance(model, UniformShuffle) else model, cards, samples)


def shuffle_test_power(
    models: Sequence[ShuffleModel | int | None] | None = None,
    shoes: Sequence[int] = DEFAULT_POWER_SHOES,
    replicates: int = 100,
    dealing: Dealing = Dealing(),
    seed: SeedLike = 0,
    workers: int | None = None,
    alpha: float = 0.01,
    baseline_shoes: int = 1000,
    uniform: bool = True,
    samples: int = DEFAULT_SAMPLES,
    progress: bool = True,
    scheduler: str | Any | None = None,
) -> pl.DataFrame:
    """Power of each randomness test against each shuffle model, by the number of shoes recorded.

    Parameters
    ----------
    models
        Riffle counts, ``None`` (uniform) or models; default :data:`DEFAULT_POWER_RIFFLES`.
    shoes
        Shoes recorded (each at least 2: the first shoe of a chain has no previous one).
    replicates
        Chains simulated per model.
    dealing
        How every shoe is dealt.
    seed
        Seed of the chains and of the baseline.
    workers
        Local processes.
    alpha
        Level of each test.
    baseline_shoes
        Uniform shoes of the one baseline every test is calibrated on.
    uniform
        Add a uniform shuffle (the false-positive rates).
    samples
        Shuffles simulated for a matrix with no closed form.
    progress
        Progress bar.
    scheduler
        A Dask distributed scheduler's address or a ``distributed.Client``: its workers run the chains instead
        (same seed, same result; :func:`toolkit.parallel.map_blocks`).

    Returns
    -------
    polars.DataFrame
        ``model, riffles, test, shoes, replicates, rejections, power, power_low, power_high`` (95 % Wilson).
    """
    grid = tuple(sorted({positive_int(n, "shoes") for n in shoes}))
    if not grid or grid[0] < 2:
        raise ValueError(
            f"shoes: each number of shoes must be at least 2 (a chain's first shoe has no parent), got {shoes}"
        )
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    replicates = positive_int(replicates, "replicates")
    chosen = [
        riffles(m) if m is None or isinstance(m, (int, np.integer)) else m for m in (models or DEFAULT_POWER_RIFFLES)
    ]
    if uniform and not any(isinstance(m, UniformShuffle) for m in chosen):
        chosen.append(UniformShuffle())
    for model in chosen:  # every chain's shuffles checked before the first starts
        check_shuffle_work(model, replicates * grid[-1], dealing.cards, "the power study", "shoes")
    base_seed, chain_seed = as_seed_sequence(seed).spawn(2)
    header = ShoeHeader.from_dealing(dealing)
    base = records_from_orders(
        shuffled_shoes(positive_int(baseline_shoes, "baseline_shoes"), dealing.decks, base_seed), header
    )
    matrices = tuple(_alternative(m, dealing.cards, samples) for m in chosen)
    packed = pack_spec(_PowerJob(tuple(chosen), matrices, grid, dealing, base, alpha))  # pickled once, not per block
    job = partial(_power_packed, packed=packed)
    rows = [
        row
        for part in map_blocks(job, block_plan(replicates, _BLOCK, chain_seed), workers, scheduler, progress, "power")
        for row in part
    ]
    frame = (
        pl.DataFrame(rows)
        .group_by("m", "test", "shoes")
        .agg(pl.len().alias("replicates"), pl.col("reject").sum().alias("rejections"))
    )
    lo, hi = wilson_interval(frame["rejections"].to_numpy(), frame["replicates"].to_numpy())
    names = [model_name(m) for m in chosen]
    counts = [0 if model_name(m) == "none" else getattr(m, "times", None) for m in chosen]
    return (
        frame.with_columns(
            pl.col("m").replace_strict(list(range(len(chosen))), names, return_dtype=pl.String).alias("model"),
            pl.col("m").replace_strict(list(range(len(chosen))), counts, return_dtype=pl.Int64).alias("riffles"),
            (pl.col("rejections") / pl.col("replicates")).alias("power"),
            pl.Series("power_low", lo),
            pl.Series("power_high", hi),
        )
        .sort("m", "test", "shoes")
        .select("model", "riffles", "test", "shoes", "replicates", "rejections", "power", "power_low", "power_high")
    )


def shoes_needed(power: pl.DataFrame, target: float = 0.8) -> pl.DataFrame:
    """Per model and test, the fewest shoes of the grid whose power reaches ``target`` (null: none did).

    >>> f = pl.DataFrame({"model": "a", "riffles": 1, "test": "t", "shoes": [2, 5], "power": [0.5, 0.9]})
    >>> shoes_needed(f)["shoes_needed"].to_list()
    [5]
    """
    return (
        power.group_by("model", "riffles", "test", maintain_order=True)
        .agg(
            pl.col("shoes").filter(pl.col("power") >= target).min().alias("shoes_needed"),
            pl.col("shoes").max().alias("most_shoes_tried"),
            pl.col("power").filter(pl.col("shoes") == pl.col("shoes").max()).first().alias("power_at_most"),
        )
        .sort("riffles", "test", nulls_last=True)
    )


def transition_null_rate(
    pairs: int = 2000, dealing: Dealing = Dealing(), alpha: float = 0.01, seed: SeedLike = 0, against: int = 2
) -> dict[str, float]:
    """False-positive rate of the one-pair discard-transition test under a uniform shuffle, with its Wilson interval.

    The alternative is ``against`` riffles' matrix.  Returns ``pairs, rejections, rate, low, high``.

    >>> out = transition_null_rate(pairs=20, seed=1)
    >>> 0 <= out["rate"] <= 1
    True
    """
    from scipy import stats

    pairs = positive_int(pairs, "pairs")
    gen = as_generator(seed)
    first = shuffled_shoes(pairs, dealing.decks, gen)
    discards = _discards(first, dealing)
    new = gen.permuted(discards, axis=1)
    z = transition_statistic(discards, new, transition_matrix(riffles(against), dealing.cards))
    k = int((stats.norm.sf(z) < alpha).sum())
    lo, hi = wilson_interval(k, pairs)
    return {"pairs": pairs, "rejections": k, "rate": k / pairs, "low": float(lo), "high": float(hi)}
