"""Dealing for the simulations of both games: fresh-shoe coups, and whole shoes walked coup by coup.

The walk is one loop for chemin de fer and baccarat banque alike.  A block of
shuffled shoes (card values, one row a shoe) is played all shoes at once: at
each step every shoe that may start another coup gives the next
``coup_cards`` cards (the most a coup may use) and ``uniforms`` uniform draws
to the game's *resolver*, which plays the coups and says how many cards each
used.  Whether a coup may start is the minimum-cards rule of
:func:`toolkit.coup.step.enough_cards`: at least ``min_cards`` cards left.

>>> import numpy as np
>>> def three_cards(cards, u):  # a toy game: every coup uses three cards
...     return {"cards_used": np.full(len(cards), 3)}
>>> out = walk_shoes(np.zeros((1, 10), dtype=np.int8), np.random.default_rng(0), three_cards, 3, 1, 4)
>>> out["cards_left"].tolist()  # a coup starts with 10 and 7 cards left; 4 left is enough, 1 is not
[10, 7, 4]
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import polars as pl

from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.step import enough_cards
from toolkit.dealing.dealer import shuffled_shoes
from toolkit.parallel import Block, SeedLike, block_plan, map_blocks

__all__ = ["Resolver", "first_cards", "simulate_shoe_blocks", "walk_shoes"]

#: A game's coups: ``(cards (m, coup_cards), uniforms (m, u)) -> columns``, with ``"cards_used"`` among them.
Resolver = Callable[[np.ndarray, np.ndarray], dict[str, np.ndarray]]

_VALUES = np.array(RANK_VALUES, dtype=np.int8)


def first_cards(counts: np.ndarray, n: int, k: int, gen: np.random.Generator, replacement: bool) -> np.ndarray:
    """``(n, k)`` values: the first ``k`` cards of ``n`` independent shuffles of a shoe given by value counts."""
    left = np.tile(np.asarray(counts, dtype=np.int64), (n, 1))
    out = np.empty((n, k), dtype=np.int64)
    for j in range(k):
        total = left.sum(axis=1)
        u = gen.integers(0, total)
        cum = np.cumsum(left, axis=1)
        v = (cum <= u[:, None]).sum(axis=1)
        out[:, j] = v
        if not replacement:
            left[np.arange(n), v] -= 1
    return out


def walk_shoes(
    shoes: np.ndarray,
    gen: np.random.Generator,
    resolve: Resolver,
    coup_cards: int,
    uniforms: int,
    min_cards: int,
) -> dict[str, np.ndarray]:
    """Walk a block of shoes (card values, ``(n, L)``) coup by coup, all shoes at once.

    A coup starts while :func:`~toolkit.coup.step.enough_cards` says at least
    ``min_cards`` cards are left (``min_cards >= coup_cards``, so a coup never
    runs out of cards).  Returns the resolver's columns for every coup, plus
    ``shoe`` (row in ``shoes``), ``coup`` (0, 1, ... within its shoe) and
    ``cards_left`` before it, in the order the coups were played (no rows when
    the shoes are shorter than ``min_cards``).
    """
    if min_cards < coup_cards:
        raise ValueError(f"min_cards ({min_cards}) must be at least the {coup_cards} cards a coup may use")
    n, length = shoes.shape
    padded = np.concatenate([shoes, np.zeros((n, coup_cards), dtype=shoes.dtype)], axis=1)
    pos = np.zeros(n, dtype=np.int64)
    coup_no = np.zeros(n, dtype=np.int64)
    parts: list[dict[str, np.ndarray]] = []
    while True:
        active = np.flatnonzero(enough_cards(length - pos, min_cards))
        if len(active) == 0:
            break
        cards = padded[active[:, None], pos[active, None] + np.arange(coup_cards)].astype(np.int64)
        out = resolve(cards, gen.random((len(active), uniforms)))
        out["shoe"] = active
        out["coup"] = coup_no[active].copy()
        out["cards_left"] = length - pos[active]
        parts.append(out)
        pos[active] += out["cards_used"]
        coup_no[active] += 1
    if not parts:  # shoes too short for a single coup: the resolver's columns, empty
        empty = np.zeros(0, dtype=np.int64)
        out = resolve(np.zeros((0, coup_cards), dtype=np.int64), np.zeros((0, uniforms)))
        return {**out, "shoe": empty, "coup": empty, "cards_left": empty}
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _walk_block(
    block: Block, decks: int, resolve: Resolver, coup_cards: int, uniforms: int, min_cards: int
) -> dict[str, np.ndarray]:
    """One block of :func:`simulate_shoe_blocks` (module level, so worker processes can run it; no polars in there)."""
    gen = block.rng()
    shoes = _VALUES[shuffled_shoes(block.n_shoes, decks, gen)]
    out = walk_shoes(shoes, gen, resolve, coup_cards, uniforms, min_cards)
    out["shoe"] = out["shoe"] + block.first_shoe
    return out


def simulate_shoe_blocks(
    n_shoes: int,
    resolve: Resolver,
    *,
    decks: int,
    coup_cards: int,
    uniforms: int,
    min_cards: int,
    seed: SeedLike,
    block_size: int,
    workers: int | None,
    progress: bool,
    description: str,
) -> pl.DataFrame:
    """Deal ``n_shoes`` shuffled shoes of ``decks`` decks and walk each one (:func:`walk_shoes`).

    Shoes come in blocks of ``block_size``, block ``b`` drawing from child ``b``
    of the seed's :class:`~numpy.random.SeedSequence` (a Generator gives a
    sequence seeded by its next draw), so the result depends on the seed and
    the block size only, not on ``workers`` (:func:`toolkit.parallel.map_blocks`).
    ``resolve`` must be picklable when ``workers > 1`` (a module-level function
    or a :func:`functools.partial` of one).  One row per coup, sorted by
    ``shoe`` and ``coup``, which come first with ``cards_left``.
    """
    work = partial(
        _walk_block, decks=decks, resolve=resolve, coup_cards=coup_cards, uniforms=uniforms, min_cards=min_cards
    )
    blocks = block_plan(n_shoes, block_size, seed)
    parts = list(map_blocks(work, blocks, workers=workers, progress=progress, description=description))
    frame = pl.DataFrame({k: np.concatenate([p[k] for p in parts]) for k in parts[0]})
    return frame.sort("shoe", "coup").select("shoe", "coup", "cards_left", pl.exclude("shoe", "coup", "cards_left"))
