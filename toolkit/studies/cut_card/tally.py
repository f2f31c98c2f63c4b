"""The streaming tally of a cut-card study: one block of shoes dealt, priced and reduced to per-shoe moments.

Each block's shoes are shuffled once and dealt to the end of the cards
(:func:`toolkit.studies.thorp.deal_to_end`); every bet is priced exactly before
every coup by the Thorp study's :func:`~toolkit.studies.thorp.tally.panel_values`,
from the cards a perfect counter has not seen.  Every rule compared deals a
prefix of those coups (checked coup by coup against the dealer under that
rule), so per shoe and rule ``r`` the tally needs

* ``Y_r``: the sum over the coups dealt of ``EV - EV_fresh`` (per bet),
* ``N_r``: the number of coups dealt,
* ``C_j``: the control variates, the sums over fixed card indices ``k`` of band
  ``j`` (by cards left) of ``EV(shoe[k:]) - EV_fresh``, whose means are exactly
  zero (the cards left after ``k`` uniformly random cards are a uniformly random set),

and keeps, per bet, the sums of the vector ``z = (Y_1..Y_R, N_1..N_R, C_1..C_J)`` and
of its outer products, so that any ratio of means gets a delta-method interval
with shoes as the independent unit.  Also kept: the control's mean and square
per card index (the exchangeability check), the mean deviation by coup number
and by coups from the end of the shoe, and the histogram of coups per shoe.
Tallies add, block after block in block order, so memory is flat in shoes and
the result is bit-for-bit the same for any worker count.

>>> from toolkit.studies.cut_card.design import CutCardStudy
>>> study = CutCardStudy(n_shoes=4, seed=1, bets=("banker", "player"))
>>> out = tally_block(study.blocks()[0], cut_card_spec(study))
>>> int(out.tally.arrays["shoes"][0]), out.tally.arrays["z_cross"].shape
(4, (2, 11, 11))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toolkit._packing import unpack_spec
from toolkit._stats import ArraySums
from toolkit.dealing.dealer import Dealing, DealtShoes, deal_block, shuffled_shoes
from toolkit.parallel import Block
from toolkit.studies.cut_card.design import CutCardStudy
from toolkit.studies.thorp.tally import BlockSpec, block_spec, panel_values

__all__ = [
    "CutCardSpec",
    "CutCardTally",
    "cut_card_spec",
    "deviations",
    "empty_cut_card_tally",
    "shoe_moments",
    "tally_block",
    "tally_packed",
]

#: Coups counted from the end of each shoe in the ``from_end`` arrays (every shoe of 8 decks deals far more).
FROM_END = 12


@dataclass(frozen=True)
class CutCardSpec:
    """What a worker needs: the Thorp block spec (dealt to the end), the rules compared and the control indices."""

    thorp: BlockSpec
    rules: tuple[Dealing, ...]
    control: np.ndarray
    bands: np.ndarray


def cut_card_spec(study: CutCardStudy) -> CutCardSpec:
    """The light, picklable part of ``study`` a worker needs.

    Parameters
    ----------
    study
        The study.

    Returns
    -------
    CutCardSpec
    """
    bands = np.unique(study.control_bands(), return_inverse=True)[1]  # numbered 0.. over the bands used
    return CutCardSpec(
        block_spec(study.thorp()), tuple(d for _, d in study.rules_dealt()), study.control_indices(), bands
    )


class CutCardTally(ArraySums):
    """Additive sums of a cut-card study (``R`` rules, ``B`` bets, ``K`` control indices in ``J`` bands, ``M``
    coup numbers).

    ``shoes`` (1,); ``z_sum`` (B, 2R+J) and ``z_cross`` (B, 2R+J, 2R+J): sums of ``z = (Y_1..Y_R, N_1..N_R,
    C_1..C_J)`` per shoe and of ``z zᵀ``; ``index_sum``, ``index_sum2`` (B, K): sums of ``EV(shoe[k:]) - EV_fresh``
    and its square; ``by_coup_sum`` (R, B, M), ``by_coup_n`` (R, M): deviations summed by coup number;
    ``from_end_sum`` (R, B, FROM_END), ``from_end_n`` (R, FROM_END): by coups before the shoe's last
    (0: the last); ``coups_hist`` (R, M): shoes by coups dealt.
    """

    @classmethod
    def empty(cls, n_rules: int, n_bets: int, n_control: int, n_bands: int, max_coups: int) -> CutCardTally:
        r, b, k, m, p = n_rules, n_bets, n_control, max_coups + 1, 2 * n_rules + n_bands
        f8, i8 = np.float64, np.int64
        return cls(
            {
                "shoes": np.zeros(1, i8),
                "z_sum": np.zeros((b, p), f8),
                "z_cross": np.zeros((b, p, p), f8),
                "index_sum": np.zeros((b, k), f8),
                "index_sum2": np.zeros((b, k), f8),
                "by_coup_sum": np.zeros((r, b, m), f8),
                "by_coup_n": np.zeros((r, m), i8),
                "from_end_sum": np.zeros((r, b, FROM_END), f8),
                "from_end_n": np.zeros((r, FROM_END), i8),
                "coups_hist": np.zeros((r, m), i8),
            }
        )


def empty_cut_card_tally(study: CutCardStudy) -> CutCardTally:
    """The tally of ``study`` before any block.

    Parameters
    ----------
    study
        The study.

    Returns
    -------
    CutCardTally
    """
    return CutCardTally.empty(
        len(study.rule_labels),
        len(study.bet_names),
        len(study.control_indices()),
        study.n_controls,
        study.dealing.cards // 4,
    )


def _prefix_counts(end: DealtShoes, offsets: np.ndarray, shoes: np.ndarray, rule: Dealing) -> np.ndarray:
    """Coups per shoe under ``rule``, after checking that they are the first coups dealt to the end."""
    dealt = deal_block(shoes, rule)  # shoes numbered from 0 here
    n = np.bincount(dealt.shoe, minlength=len(shoes)).astype(np.int64)
    n_end = np.bincount(end.shoe - end.first_shoe, minlength=len(shoes))
    if np.any(n > n_end):
        raise RuntimeError(f"more coups are dealt under {rule!r} than to the end of the cards")
    rows = offsets[dealt.shoe] + dealt.coup.astype(np.int64) - 1
    if not np.array_equal(end.start[rows], dealt.start):
        raise RuntimeError(f"the coups dealt under {rule!r} are not a prefix of the coups dealt to the end")
    return n


def control_compositions(shoes: np.ndarray, control: np.ndarray) -> np.ndarray:
    """``(n, K, 13)`` counts by rank of ``shoe[k:]`` for every shoe and control index ``k``.

    Parameters
    ----------
    shoes
        ``(n, cards)`` rank indices.
    control
        Card indices ``k``.

    Returns
    -------
    numpy.ndarray
    """
    n, cards = shoes.shape
    onehot = np.zeros((n, cards + 1, 13), np.int16)
    onehot[np.arange(n)[:, None], np.arange(cards)[None, :], shoes.astype(np.int64)] = 1
    left = np.cumsum(onehot[:, ::-1], axis=1)[:, ::-1]  # left[:, k] = counts of shoe[k:]
    return np.ascontiguousarray(left[:, control])


def deviations(shoes: np.ndarray, spec: BlockSpec, fresh: np.ndarray) -> np.ndarray:
    """``EV - EV_fresh`` of every bet for ``(n, 13)`` shoes by rank: exactly zero for a shoe holding every card.

    A coup dealt from the whole shoe (``--burn none``, the first coup) is the fresh shoe: its deviation is
    zero by definition, not the last bits by which a batch's rounding differs from the fresh edge's (a
    pair bet's 1e-17, which an interval of zero width would call significant).

    Parameters
    ----------
    shoes
        ``(n, 13)`` counts by rank.
    spec
        The Thorp block spec (its dealing and bets).
    fresh
        The fresh shoe's expected values, ``(bets,)``.

    Returns
    -------
    numpy.ndarray
        ``(n, bets)``.
    """
    dev = panel_values(shoes, spec) - fresh
    dev[np.all(shoes == 4 * spec.dealing.decks, axis=1)] = 0.0
    return dev


def shoe_moments(
    shoes: np.ndarray, spec: CutCardSpec, first_shoe: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, DealtShoes, np.ndarray, np.ndarray]:
    """Per shoe: ``Y`` (n, R, B), ``N`` (n, R), the control's terms (n, B, K), the coups dealt to the end,
    their deviations ``EV - EV_fresh`` (coups, B) and the rows of each shoe's first coup (n).

    Parameters
    ----------
    shoes
        ``(n, cards)`` shuffled shoes.
    spec
        The study's spec.
    first_shoe
        Id of the first shoe.

    Returns
    -------
    tuple
    """
    thorp = spec.thorp
    end = deal_block(shoes, thorp.dealing, first_shoe)
    local = (end.shoe - first_shoe).astype(np.int64)
    offsets = np.searchsorted(local, np.arange(len(shoes)))
    ev0 = panel_values(np.full((1, 13), 4 * thorp.dealing.decks), thorp)[0]
    dev = deviations(end.unseen, thorp, ev0)
    counts = np.stack([_prefix_counts(end, offsets, shoes, rule) for rule in spec.rules], axis=1)  # (n, R)
    coup = end.coup.astype(np.int64)
    y = np.stack(
        [np.add.reduceat(dev * (coup <= counts[local, r])[:, None], offsets, axis=0) for r in range(len(spec.rules))],
        axis=1,
    )
    comps = control_compositions(shoes, spec.control)
    n, k = comps.shape[:2]
    terms = deviations(comps.reshape(n * k, 13), thorp, ev0).reshape(n, k, -1).transpose(0, 2, 1)
    return y, counts, terms, end, dev, offsets


def tally_block(block: Block, spec: CutCardSpec) -> BlockOutput:
    """Deal, price and tally one block of shoes (runs in a worker).

    Parameters
    ----------
    block
        The block of shoes (its seed and size).
    spec
        What the worker needs (:func:`cut_card_spec`).

    Returns
    -------
    BlockOutput
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):  # one BLAS thread: the same sums everywhere
        shoes = shuffled_shoes(block.n_shoes, spec.thorp.dealing.decks, block.rng())
        y, counts, terms, end, dev, offsets = shoe_moments(shoes, spec, block.first_shoe)
        n_rules, n_bets = len(spec.rules), len(spec.thorp.bet_names)
        n_bands = int(spec.bands.max()) + 1
        tally = CutCardTally.empty(n_rules, n_bets, len(spec.control), n_bands, spec.thorp.dealing.cards // 4)
        a = tally.arrays
        a["shoes"][0] = block.n_shoes
        control = np.stack([terms[:, :, spec.bands == j].sum(axis=2) for j in range(n_bands)], axis=1)  # (n, J, B)
        z = np.concatenate(
            [y, np.broadcast_to(counts[:, :, None], y.shape).astype(np.float64), control], axis=1
        ).transpose(2, 0, 1)  # (B, n, 2R+J)
        a["z_sum"][:] = z.sum(axis=1)
        a["z_cross"][:] = np.einsum("bnp,bnq->bpq", z, z)
        a["index_sum"][:] = terms.sum(axis=0)
        a["index_sum2"][:] = (terms * terms).sum(axis=0)
        _by_position(a, end, dev, offsets, counts)
    return BlockOutput(tally, len(end))


def tally_packed(block: Block, packed: tuple[bytes, bytes]) -> BlockOutput:
    """:func:`tally_block` of a spec packed by :func:`toolkit._packing.pack_spec` (unpickled at most
    once in this process: the spec holds the Thorp spec's bets, 1,600 fractions each, which a task carrying the
    spec itself would pickle and unpickle at every block).

    Parameters
    ----------
    block
        The block of shoes.
    packed
        ``pack_spec(cut_card_spec(study))``.

    Returns
    -------
    BlockOutput
    """
    return tally_block(block, unpack_spec(packed))


def _by_position(a: dict[str, np.ndarray], end: DealtShoes, dev: np.ndarray, offsets, counts) -> None:
    local = (end.shoe - end.first_shoe).astype(np.int64)
    coup = end.coup.astype(np.int64)
    m = a["coups_hist"].shape[1]
    for r in range(counts.shape[1]):
        n_r = counts[local, r]
        dealt = coup <= n_r
        a["coups_hist"][r] = np.bincount(counts[:, r], minlength=m)[:m]
        a["by_coup_n"][r] = np.bincount(coup[dealt], minlength=m)[:m]
        back = n_r - coup  # 0: the shoe's last coup under this rule
        near = dealt & (back < FROM_END)
        a["from_end_n"][r] = np.bincount(back[near], minlength=FROM_END)
        for b in range(dev.shape[1]):
            a["by_coup_sum"][r, b] = np.bincount(coup[dealt], weights=dev[dealt, b], minlength=m)[:m]
            a["from_end_sum"][r, b] = np.bincount(back[near], weights=dev[near, b], minlength=FROM_END)


@dataclass(frozen=True)
class BlockOutput:
    """What a worker returns for one block: its tally and the coups dealt to the end."""

    tally: CutCardTally
    coups: int
