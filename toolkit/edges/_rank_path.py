"""The rank path of the partial-information engine: every ordered sequence of six ranks (13**6, in chunks).

Needed when the bettor tells apart zero-valued ranks (a rank partition that splits T, J, Q and K):
the value path cannot see them.  Each sequence ``r`` of six ranks has probability
``prod_r (n_r)_(m_r) / (N)_6``, computed here position by position as
``prod_i (n_(r_i) - #{j < i : r_j = r_i})``, an integer below ``(N)_6``; its outcome class is that of
its values (:func:`toolkit.exact._tables.value_sequences`) with the pairs read from the ranks
themselves (a pair is ``r_1 = r_3`` for Player, ``r_2 = r_4`` for Banker), so bets on pairs are
exact here too.  Sequences are enumerated in 13 chunks, one per first rank, of 13**5 each.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from toolkit.coup.cards import Composition
from toolkit.coup.rules import Tableau
from toolkit.exact._tables import value_sequences

__all__ = ["MAX_RANK_PATH_CARDS", "RankChunk", "rank_chunks"]

#: Up to this many cards ``(N)_6 < 2**63``: the sequence weights are exact in int64.
MAX_RANK_PATH_CARDS = 1400
_RANK_VALUE = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0], dtype=np.int64)


@dataclass(frozen=True)
class RankChunk:
    """Sequences of six ranks with one first rank: their ranks by position, outcome classes and integer weights."""

    ranks: np.ndarray  # (6, 13**5) rank indices
    classes: np.ndarray  # outcome class (0..1599) of each sequence
    weights: np.ndarray  # int64: prod_r (n_r)_(m_r)


@lru_cache(maxsize=2)
def _chunk_layout(tableau: Tableau) -> tuple[np.ndarray, list[np.ndarray]]:
    """Ranks 2..6 of a chunk and, per first rank, each sequence's outcome class (both shoe-free)."""
    rest = np.indices((13,) * 5, dtype=np.int64).reshape(5, -1)
    ext = value_sequences(tableau).ext
    classes = []
    for first in range(13):
        values = [np.full(rest.shape[1], _RANK_VALUE[first])] + [_RANK_VALUE[r] for r in rest]
        index = np.zeros(rest.shape[1], dtype=np.int64)
        for v in values:
            index = index * 10 + v
        main = ext[index] // 9
        player_pair = (rest[1] == first).astype(np.int64)
        banker_pair = (rest[0] == rest[2]).astype(np.int64)
        classes.append(main * 4 + 2 * player_pair + banker_pair)
    return rest, classes


def rank_chunks(comp: Composition, tableau: Tableau) -> Iterator[RankChunk]:
    """The 13 chunks of six-rank sequences of ``comp`` (first ranks with no card left are skipped)."""
    if comp.total > MAX_RANK_PATH_CARDS:
        raise ValueError(
            f"the rank path takes shoes of at most {MAX_RANK_PATH_CARDS:,} cards (exact int64 weights); "
            f"this one holds {comp.total:,}"
        )
    counts = np.array(comp.by_rank, dtype=np.int64)
    rest, classes = _chunk_layout(tableau)
    for first in range(13):
        if counts[first] == 0:
            continue
        ranks = np.concatenate([np.full((1, rest.shape[1]), first), rest])
        weights = np.full(rest.shape[1], counts[first], dtype=np.int64)
        for i in range(1, 6):
            before = (ranks[:i] == ranks[i]).sum(axis=0)
            weights *= np.maximum(counts[ranks[i]] - before, 0)
        yield RankChunk(ranks, classes[first], weights)
