"""What a tracker who knows the discard order and the shuffle gains on the next shoe.

The experiment, one *trial* per pair of shoes:

1. a shoe shuffled uniformly is dealt by the casino's rules (:class:`~toolkit.dealing.dealer.Dealing`);
2. its cards are gathered into the **discard order** (:func:`discard_orders`), the pack listed from the
   top: the burned cards (the exposed one and those burned face down) in the order they left the shoe,
   then each coup's cards, Player's hand (cards 1, 3, his third) then Banker's (2, 4, his third), coup by
   coup, and the undealt stub (default ``stub="bottom"``: under the discards; ``"top"``: above them).
   ``hands="as_dealt"`` keeps the coup's cards in dealing order instead.  GSR riffles treat a pack and its
   reverse alike (``M[i, j] = M[n-1-i, n-1-j]``), so reading the pile the other way round leaves the
   edge's distribution unchanged;
3. the shuffle model is applied to that order, and the new shoe is dealt by the same rules;
4. the tracker knows the discard order (every card of it, the face-down burn too: a best case) and the
   model's transition matrix ``M`` (:mod:`~toolkit.studies.shuffle.transition`), so before any card of the
   new shoe is seen position ``j`` holds value ``v`` with probability ``sum_{i: value(old i) = v} M[i, j]``.

Before each coup the tracker conditions on the cards seen so far by an **approximation**: the seen
positions are dropped, and the laws of the unseen positions (the face-down burn and everything from the
next card on) are raked by iterative proportional fitting (Deming & Stephan 1940) until each position
holds one card and each value's column sums to the unseen cards of that value.  The exact posterior would
weigh whole permutations; the raked marginals are its cheap stand-in.  The next six positions' laws are
then treated as independent, and the outcome's law follows by convolution
(:func:`independent_outcome_law`); the tracker bets one unit on the bet of highest expected value when
that is above ``threshold`` (default 0), else sits out.

For one GSR riffle the exact posterior is cheap (a hidden Markov chain over the cut and the cards taken
from the top packet, :mod:`~toolkit.studies.shuffle._one_riffle`), and the study adds a row for a tracker
who uses it: the gap between the two rows is what the raking throws away.

The win counted is what each bet actually paid on the coup dealt, so the measured edge is real whatever
the approximation: a better posterior could only choose better bets, so the figure is a lower bound on
what the information is worth (to the tracker's betting rule, up to sampling error).  With a uniform
shuffle the tracker is a perfect card counter (every position's law is the unseen composition), whose
gain at the main bets is a tiny fraction of a unit per 100 hands (Thorp 1984): the baseline.

>>> from toolkit.studies.shuffle.models import NoShuffle
>>> frame = shuffle_tracker_edge([NoShuffle()], n_shoes=4, seed=1, workers=1, progress=False)
>>> frame["win_per_100"][0] > 10
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
import polars as pl

from toolkit._check import one_of, positive_int
from toolkit.bets.paytable import PayTable, get_plain_bet
from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.outcome import N_MAIN
from toolkit.coup.rules import PUNTO_BANCO, Tableau
from toolkit.dealing.dealer import Dealing, DealtShoes, deal_block, shuffled_shoes
from toolkit.dealing.shuffles.models import check_shuffle_work
from toolkit.parallel import Block, SeedLike, block_plan, map_blocks
from toolkit.studies.shuffle._kernels import coup_distribution, discard_kernel, track_kernel
from toolkit.studies.shuffle._one_riffle import one_riffle_kernel
from toolkit.studies.shuffle.models import Riffles, ShuffleModel, model_name, riffles
from toolkit.studies.shuffle.report import edge_summary
from toolkit.studies.shuffle.transition import DEFAULT_SAMPLES, transition_matrix

__all__ = [
    "DEFAULT_RIFFLES",
    "MAIN_BETS",
    "discard_orders",
    "independent_expected_values",
    "independent_outcome_law",
    "shuffle_tracker_edge",
    "track_shoes",
]

#: The riffle counts of the study (0: no shuffle).
DEFAULT_RIFFLES = (0, 1, 2, 3, 4, 5, 6, 8)
#: The panel's main bets.
MAIN_BETS = ("banker", "player", "tie")
#: Stop raking when every value's column is within this many cards of its target.
RAKE_TOLERANCE = 1e-7
#: The most raking sweeps a coup may take.
RAKE_SWEEPS = 500
#: Trials per block (the unit of seeding and of the progress bar).
BLOCK_SIZE = 16

_STUBS = ("bottom", "top")
_HANDS = ("player_banker", "as_dealt")
_POSTERIORS = ("raked", "one_riffle")


def _rank_values() -> np.ndarray:
    return np.array(RANK_VALUES, dtype=np.int64)


def _tableau_arrays(tableau: Tableau) -> tuple[np.ndarray, np.ndarray]:
    return np.array(tableau.player, dtype=np.bool_), np.array(tableau.banker, dtype=np.bool_)


def discard_orders(
    shoes: np.ndarray, dealt: DealtShoes, stub: str = "bottom", hands: str = "player_banker"
) -> np.ndarray:
    """The pack each dealt shoe leaves for the next shuffle, listed from the top (see the module notes).

    Parameters
    ----------
    shoes
        ``(n, cards)`` the shoes as they were dealt.
    dealt
        Their coups (:func:`~toolkit.dealing.dealer.deal_block` of ``shoes``, ``first_shoe`` 0).
    stub
        Where the undealt cards go: ``"bottom"`` (default) or ``"top"``.
    hands
        A coup's cards: ``"player_banker"`` (Player's hand, then Banker's) or ``"as_dealt"``.

    Returns
    -------
    numpy.ndarray
        ``(n, cards)``, same dtype as ``shoes``, each row a permutation of its shoe.

    Examples
    --------
    >>> shoes = shuffled_shoes(1, seed=3)
    >>> order = discard_orders(shoes, deal_block(shoes))
    >>> sorted(order[0].tolist()) == sorted(shoes[0].tolist())
    True
    """
    stub = one_of(stub, _STUBS, "stub")
    hands = one_of(hands, _HANDS, "hands")
    shoes = np.ascontiguousarray(shoes)
    if dealt.first_shoe != 0 or dealt.n_shoes != len(shoes):
        raise ValueError(f"dealt must be the {len(shoes)} shoes' own coups from shoe 0, got {dealt!r}")
    burn_end = (dealt.burn_card >= 0).astype(np.int64) + dealt.burned.astype(np.int64)
    out = np.empty_like(shoes)
    discard_kernel(
        shoes,
        dealt.shoe.astype(np.int64),
        dealt.start.astype(np.int64),
        dealt.cards,
        burn_end,
        stub == "top",
        hands == "as_dealt",
        out,
    )
    return out


def independent_outcome_law(marginals: np.ndarray, tableau: Tableau = PUNTO_BANCO) -> np.ndarray:
    """Law of the outcome class by value (400 classes) when the coup's six cards are independent.

    ``marginals[k, v]``: probability that card ``k + 1`` of the coup has value ``v`` (see
    :func:`~toolkit.studies.shuffle._kernels.coup_distribution` for the card order).

    Examples
    --------
    >>> law = independent_outcome_law(np.full((6, 10), 0.1))
    >>> law.shape, round(float(law.sum()), 12)
    ((400,), 1.0)
    """
    p = np.ascontiguousarray(marginals, dtype=np.float64)
    if p.shape != (6, 10):
        raise ValueError(f"marginals must be (6, 10) laws of the six cards' values, got shape {p.shape}")
    out = np.zeros(N_MAIN)
    coup_distribution(p, *_tableau_arrays(tableau), out)
    return out


def main_payoffs(bets: Sequence[PayTable]) -> np.ndarray:
    """``(400, bets)`` payoffs by outcome class; a bet that looks at pairs (ranks) is refused."""
    columns = []
    for bet in bets:
        x = bet.payoff_array.reshape(N_MAIN, 4)
        if not np.all(x == x[:, :1]):
            raise ValueError(f"bet {bet.name!r} looks at pairs (ranks); the tracker prices bets by value only")
        columns.append(x[:, 0])
    return np.stack(columns, axis=1).astype(np.float64)


def independent_expected_values(
    marginals: np.ndarray, bets: Sequence[str | PayTable] = MAIN_BETS, tableau: Tableau = PUNTO_BANCO
) -> np.ndarray:
    """Expected value of each bet when the six cards' values are independent with laws ``marginals``.

    >>> ev = independent_expected_values(np.full((6, 10), 0.1))
    >>> ev.shape
    (3,)
    """
    payoffs = main_payoffs([get_plain_bet(b, where="the shuffle tracker") for b in bets])
    return independent_outcome_law(marginals, tableau) @ payoffs


def _priors(discards: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``(n, cards, 10)``: the law of the value at each new position, before any card is seen."""
    values = _rank_values()[discards.astype(np.int64)]
    onehot = np.zeros((*values.shape, 10))
    np.put_along_axis(onehot, values[..., None], 1.0, axis=2)
    return np.einsum("ij,siv->sjv", matrix, onehot)


def track_shoes(
    shoes: np.ndarray,
    discards: np.ndarray,
    matrix: np.ndarray,
    dealing: Dealing = Dealing(),
    bets: Sequence[str | PayTable] = MAIN_BETS,
    threshold: float = 0.0,
    posterior: str = "raked",
) -> dict[str, np.ndarray]:
    """The tracker's play on ``shoes`` (the new shoes) made from ``discards`` by a shuffle of matrix ``matrix``.

    Returns per-shoe arrays: ``hands`` (coups dealt), ``bets`` (coups bet), ``win`` (units won, paid by the
    coups dealt), ``posterior``: ``"raked"`` (the marginals of ``matrix``, raked) or ``"one_riffle"`` (the
    exact posterior of one GSR riffle, :mod:`~toolkit.studies.shuffle._one_riffle`; ``matrix`` unused),
    ``predicted`` (the sum of the tracker's own expected values of the bets made) and
    ``bet_<name>`` (coups bet on each bet).

    Examples
    --------
    >>> import numpy as np
    >>> shoes = shuffled_shoes(2, seed=1)
    >>> out = track_shoes(shoes, shoes, np.eye(416))
    >>> bool(out["win"].min() > 0)
    True
    """
    from scipy import stats

    payoffs = main_payoffs([get_plain_bet(b, where="the shuffle tracker") for b in bets])
    dealt = deal_block(shoes, dealing)
    unseen = dealt.unseen.astype(np.float64) @ np.eye(10)[_rank_values()]
    hidden = np.stack([(dealt.burn_card >= 0).astype(np.int64), dealt.burned.astype(np.int64)], axis=1)
    law = np.zeros((len(dealt), N_MAIN))
    player, banker = _tableau_arrays(dealing.tableau)
    if one_of(posterior, _POSTERIORS, "posterior") == "one_riffle":
        one_riffle_kernel(
            np.ascontiguousarray(discards, dtype=np.int64),
            np.ascontiguousarray(shoes, dtype=np.int64),
            stats.binom.pmf(np.arange(dealing.cards + 1), dealing.cards, 0.5),
            dealt.shoe.astype(np.int64),
            dealt.start.astype(np.int64),
            hidden,
            _rank_values(),
            player,
            banker,
            law,
        )
    else:
        track_kernel(
            _priors(discards, np.asarray(matrix, dtype=np.float64)),
            dealt.shoe.astype(np.int64),
            dealt.start.astype(np.int64),
            unseen,
            hidden,
            player,
            banker,
            RAKE_SWEEPS,
            RAKE_TOLERANCE,
            law,
        )
    ev = law @ payoffs
    best = ev.argmax(axis=1)
    take = ev[np.arange(len(ev)), best] > threshold
    paid = np.stack([get_plain_bet(b).payoff_array[dealt.outcome_classes()] for b in bets], axis=1)
    won = np.where(take, paid[np.arange(len(ev)), best], 0.0)
    n = dealt.n_shoes
    out = {
        "hands": np.bincount(dealt.shoe, minlength=n).astype(np.float64),
        "bets": np.bincount(dealt.shoe, weights=take, minlength=n),
        "win": np.bincount(dealt.shoe, weights=won, minlength=n),
        "predicted": np.bincount(dealt.shoe, weights=np.where(take, ev.max(axis=1), 0.0), minlength=n),
    }
    for k, b in enumerate(bets):
        out[f"bet_{get_plain_bet(b).name}"] = np.bincount(dealt.shoe, weights=take & (best == k), minlength=n)
    return out


def _trial_block(
    block: Block,
    model: ShuffleModel,
    matrix: np.ndarray,
    dealing: Dealing,
    bets: tuple[str, ...],
    threshold: float,
    stub: str,
    hands: str,
    posterior: str = "raked",
) -> dict[str, np.ndarray]:
    """One block of trials: a uniform shoe dealt, its discards shuffled by ``model``, the new shoe tracked."""
    gen = block.rng()
    first = shuffled_shoes(block.n_shoes, dealing.decks, gen)
    discards = discard_orders(first, deal_block(first, dealing), stub, hands)
    new = np.asarray(model.apply(discards, gen), dtype=np.int8)
    return track_shoes(new, discards, matrix, dealing, bets, threshold, posterior)


def _as_models(models: Sequence[ShuffleModel | int | None] | None) -> list[ShuffleModel]:
    chosen = DEFAULT_RIFFLES if models is None else models
    out = []
    for m in chosen:
        out.append(riffles(m) if m is None or isinstance(m, (int, np.integer)) else m)
    if not out:
        raise ValueError("models: give at least one shuffle (a riffle count, None for uniform, or a model)")
    return out


def shuffle_tracker_edge(
    models: Sequence[ShuffleModel | int | None] | None = None,
    n_shoes: int = 200,
    dealing: Dealing = Dealing(),
    seed: SeedLike = 0,
    workers: int | None = None,
    bets: Sequence[str] = MAIN_BETS,
    threshold: float = 0.0,
    stub: str = "bottom",
    hands: str = "player_banker",
    uniform: bool = True,
    negligible: float = 0.1,
    confidence: float = 0.95,
    samples: int = DEFAULT_SAMPLES,
    exact_one_riffle: bool = True,
    progress: bool = True,
    scheduler: str | Any | None = None,
) -> pl.DataFrame:
    """The tracker's win per 100 hands and per shoe, with intervals, for each shuffle model (see module notes).

    Parameters
    ----------
    models
        Riffle counts (0: no shuffle), ``None`` entries (a uniform shuffle) or models; default
        :data:`DEFAULT_RIFFLES`.
    n_shoes
        Trials (shoe pairs) per model; the same first shoes for every model (common random numbers).
    dealing
        How both shoes are dealt (decks, burn, cut card).
    seed
        Seed of the trials.
    workers
        Local processes (:func:`toolkit.parallel.map_blocks`).
    bets
        The bets the tracker may make (priced by value: Banker, Player, Tie and other pair-blind bets).
    threshold
        Bet only when the best expected value is above this.
    stub, hands
        The discard order (:func:`discard_orders`).
    uniform
        Add a uniform shuffle (the perfect counter's baseline) as the last row.
    negligible
        The ``removed`` column is true for a model whose interval of the win per 100 hands contains 0 and
        whose upper bound is below this.
    confidence
        Of the intervals (shoes as the unit).
    samples
        Shuffles simulated for a model's matrix where there is no closed form.
    exact_one_riffle
        Where one GSR riffle is among the models, add a row for a tracker with its exact posterior
        (:mod:`~toolkit.studies.shuffle._one_riffle`) beside the raked one.
    progress
        Progress bar.
    scheduler
        A Dask distributed scheduler's address or a ``distributed.Client``: its workers run the blocks instead
        (same seed, same result; :func:`toolkit.parallel.map_blocks`).

    Returns
    -------
    polars.DataFrame
        One row per model and posterior (``posterior``: ``"raked"`` or ``"one_riffle"``, then the columns of
        :func:`~toolkit.studies.shuffle.report.edge_summary`).
    """
    n_shoes = positive_int(n_shoes, "n_shoes")
    chosen = _as_models(models)
    if uniform and not any(model_name(m) == "uniform" for m in chosen):
        chosen.append(riffles(None))
    if exact_one_riffle and any(isinstance(m, Riffles) and m.times == 1 for m in chosen):
        at = next(k for k, m in enumerate(chosen) if isinstance(m, Riffles) and m.times == 1)
        runs = [(m, "raked") for m in chosen]
        runs.insert(at + 1, (chosen[at], "one_riffle"))
    else:
        runs = [(m, "raked") for m in chosen]
    for model, _ in runs:  # every model's time checked before the first starts
        check_shuffle_work(model, n_shoes, dealing.cards, "the shuffle tracker", "n_shoes")
    bet_names = tuple(get_plain_bet(b, where="the shuffle tracker").name for b in bets)
    main_payoffs([get_plain_bet(b) for b in bet_names])  # refuse a pair bet before any work
    rows = []
    for model, posterior in runs:
        matrix = transition_matrix(model, dealing.cards, samples)
        job = partial(
            _trial_block,
            model=model,
            matrix=matrix,
            dealing=dealing,
            bets=bet_names,
            threshold=float(threshold),
            stub=stub,
            hands=hands,
            posterior=posterior,
        )
        plan = block_plan(n_shoes, BLOCK_SIZE, seed)
        parts = list(map_blocks(job, plan, workers, scheduler, progress, f"tracking ({model_name(model)})"))
        per_shoe = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        summary = edge_summary(model_name(model), model, per_shoe, bet_names, negligible, confidence)
        rows.append({"posterior": posterior, **summary})
    return pl.DataFrame(rows)
