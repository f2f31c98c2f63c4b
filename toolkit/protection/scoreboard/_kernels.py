"""Compiled kernels of the scoreboard's particle filter: a coup drawn from a composition *given* its symbol.

A symbol's index is ``winner * 8 + player_pair * 4 + banker_pair * 2 + natural`` with the winners in the order
banker, player, tie (as :data:`~toolkit.protection.scoreboard.symbols.SYMBOLS` lists them).  Two samplers of the
same law, the coups of the composition restricted to those showing the symbol:

* :func:`deal_given` deals a coup card by card (the coup step decides the third cards) and starts again whenever
  a card already dealt rules the symbol out (Player's pair after three cards, Banker's pair and the natural after
  four): rejection sampling, about ``1 / P(symbol)`` coups a draw;
* :func:`walk_given` enumerates every coup that shows the symbol, rank by rank, and picks one with probability
  proportional to its own: exact and free of rejection, at a few million steps a draw, for the symbols so rare
  under a composition that rejection would take longer.

The random numbers come from a :class:`numpy.random.Generator` passed in (numba draws from its stream, so a seed
fixes every draw).
"""

from __future__ import annotations

import numba
import numpy as np

from toolkit.coup.step import BANKER_DRAWS, BOTH_DRAW, PLAYER_DRAWS, VALUES, Tables, coup_layout

#: Positions of the dealing order (Player, Banker, Player, Banker, third cards) in the slots P1 P2 P3 B1 B2 B3.
_SLOT = np.array([0, 3, 1, 4], dtype=np.int64)


@numba.njit(cache=True, inline="always")
def _take(counts: np.ndarray, total: int, gen: np.random.Generator) -> int:  # pragma: no cover - compiled
    """A card drawn uniformly from ``counts`` (``total`` cards), removed; its rank."""
    k = min(np.int64(gen.random() * total), total - 1)  # floor(u * total): within 1e-13 of uniform
    for r in range(13):
        k -= counts[r]
        if k < 0:
            counts[r] -= 1
            return r
    return -1  # unreachable while total == counts.sum()


@numba.njit(cache=True)
def _winner(player_total: int, banker_total: int) -> int:  # pragma: no cover - compiled
    """0 banker, 1 player, 2 tie."""
    if player_total > banker_total:
        return 1
    return 0 if banker_total > player_total else 2


@numba.njit(cache=True)
def _try_coup(
    counts: np.ndarray, total: int, target: int, gen: np.random.Generator, tables: Tables, out: np.ndarray
) -> bool:  # pragma: no cover - compiled
    """Deal one coup from ``counts`` into ``out`` (slots; -1 where no card); keep its cards out when it shows
    ``target``, else put them back (early, once a card rules ``target`` out) and return False."""
    for s in range(6):
        out[s] = -1
    n = 0
    ok = True
    while ok:  # one pass; ``break`` puts the cards back
        for j in range(4):
            out[_SLOT[j]] = _take(counts, total - n, gen)
            n += 1
            if j == 2 and int(out[0] == out[1]) != (target >> 2) & 1:
                ok = False
                break
        if not ok:
            break
        p1, p2, b1, b2 = VALUES[out[0]], VALUES[out[1]], VALUES[out[3]], VALUES[out[4]]
        natural = (p1 + p2) % 10 >= 8 or (b1 + b2) % 10 >= 8
        if int(out[3] == out[4]) != (target >> 1) & 1 or int(natural) != target & 1:
            ok = False
            break
        layout = coup_layout(p1, b1, p2, b2, 0, tables)
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        if layout in (PLAYER_DRAWS, BOTH_DRAW):
            out[2] = _take(counts, total - n, gen)
            n += 1
            pt = (pt + VALUES[out[2]]) % 10
            layout = coup_layout(p1, b1, p2, b2, VALUES[out[2]], tables)
        if layout in (BANKER_DRAWS, BOTH_DRAW):
            out[5] = _take(counts, total - n, gen)
            bt = (bt + VALUES[out[5]]) % 10
        ok = _winner(pt, bt) == target >> 3
        break
    if not ok:
        for s in range(6):
            if out[s] >= 0:
                counts[out[s]] += 1
    return ok


@numba.njit(cache=True)
def _third_cards(
    counts: np.ndarray, n: int, first: np.ndarray, target: int, tables: Tables, acc: np.ndarray, out: np.ndarray
) -> bool:  # pragma: no cover - compiled
    """Add to ``acc[0]`` the probability of every completion of the first four cards ``first`` (ranks, dealing
    order, already out of ``counts``, ``n`` cards left) that shows ``target``, times ``acc[1]``; once ``acc[0]``
    passes ``acc[2]``, write that coup's cards into ``out`` and return True."""
    p1, b1, p2, b2 = VALUES[first[0]], VALUES[first[1]], VALUES[first[2]], VALUES[first[3]]
    base = acc[1]
    layout = coup_layout(p1, b1, p2, b2, 0, tables)
    player_draws = layout in (PLAYER_DRAWS, BOTH_DRAW)
    for r3 in range(13 if player_draws else 1):
        q3 = 1.0
        if player_draws:
            if counts[r3] == 0:
                continue
            q3 = counts[r3] / n
            counts[r3] -= 1
            layout = coup_layout(p1, b1, p2, b2, VALUES[r3], tables)
        banker_draws = layout in (BANKER_DRAWS, BOTH_DRAW)
        left = n - 1 if player_draws else n
        for r4 in range(13 if banker_draws else 1):
            q4 = 1.0
            if banker_draws:
                if counts[r4] == 0:
                    continue
                q4 = counts[r4] / left
            pt = (p1 + p2 + (VALUES[r3] if player_draws else 0)) % 10
            bt = (b1 + b2 + (VALUES[r4] if banker_draws else 0)) % 10
            if _winner(pt, bt) == target >> 3:
                acc[0] += base * q3 * q4
                if acc[0] > acc[2]:
                    if player_draws:
                        counts[r3] += 1
                    out[2] = r3 if player_draws else -1
                    out[5] = r4 if banker_draws else -1
                    return True
        if player_draws:
            counts[r3] += 1
    return False


@numba.njit(cache=True)
def walk_given(
    counts: np.ndarray, target: int, tables: Tables, stop: float, out: np.ndarray
) -> float:  # pragma: no cover - compiled
    """Walk every coup of ``counts`` that shows ``target`` (a fixed order), adding up their probabilities.

    Returns the total.  When the running sum passes ``stop`` the walk ends there and that coup's cards are
    written into ``out`` (slots; -1 where no card): with ``stop = u * total``, ``u`` uniform, a coup drawn
    given ``target``; ``out[0]`` stays -1 when the sum never passes ``stop``.  ``counts`` is left as it was.
    """
    out[0] = -1
    n = 0
    for r in range(13):
        n += counts[r]
    acc = np.array([0.0, 0.0, stop])
    first = np.empty(4, dtype=np.int64)
    pp, bp, nat = (target >> 2) & 1, (target >> 1) & 1, target & 1
    for a in range(13):  # Player's first card, then his second (the pair is settled), then Banker's two
        if counts[a] == 0:
            continue
        qa = counts[a] / n
        counts[a] -= 1
        for c in range(13):
            if counts[c] == 0 or int(a == c) != pp:
                continue
            qc = counts[c] / (n - 1)
            counts[c] -= 1
            for b in range(13):
                if counts[b] == 0:
                    continue
                qb = counts[b] / (n - 2)
                counts[b] -= 1
                for d in range(13):
                    natural = (VALUES[a] + VALUES[c]) % 10 >= 8 or (VALUES[b] + VALUES[d]) % 10 >= 8
                    if counts[d] == 0 or int(b == d) != bp or int(natural) != nat:
                        continue
                    acc[1] = qa * qc * qb * counts[d] / (n - 3)
                    counts[d] -= 1
                    first[0], first[1], first[2], first[3] = a, b, c, d
                    done = _third_cards(counts, n - 4, first, target, tables, acc, out)
                    counts[d] += 1
                    if done:
                        out[0], out[1], out[3], out[4] = a, c, b, d
                        counts[b] += 1
                        counts[c] += 1
                        counts[a] += 1
                        return acc[0]
                counts[b] += 1
            counts[c] += 1
        counts[a] += 1
    return acc[0]


@numba.njit(cache=True)
def walk_size(target: int) -> int:  # pragma: no cover - compiled
    """About how many rejection tries one :func:`walk_given` of ``target`` costs, over the 16 it costs at least
    (measured: a walk runs through the first four cards' ranks, 13 or 156 pairs of them for each hand as the
    hand is a pair or not, and through the third cards unless the coup is a natural)."""
    size = 1
    if not (target >> 2) & 1:
        size *= 12
    if not (target >> 1) & 1:
        size *= 12
    if not target & 1:
        size *= 10
    return 16 * (size + 1)


@numba.njit(cache=True)
def deal_given(
    comps: np.ndarray,
    target: int,
    p: np.ndarray,
    walk_cost: float,
    max_tries: int,
    gen: np.random.Generator,
    tables: Tables,
) -> np.ndarray:  # pragma: no cover - compiled
    """One coup drawn from each row of ``comps`` (counts by rank, which lose its cards) given that it shows ``target``.

    ``p[i]``: the probability of ``target`` under row ``i`` (from the exact engine).  A row deals by rejection
    (:func:`_try_coup`, about ``1 / p[i]`` tries) when that is cheaper than a walk (``1 / p[i] < walk_cost *
    walk_size(target) / 16``), giving up after ``max_tries``; else, or when rejection gave up, it takes the exact
    walk (:func:`walk_given`).  Either way the coup has the exact conditional law (``walk_cost`` 0 always walks,
    ``inf`` always tries rejection first).  Returns ``(rows, 6)`` cards by slot (-1 where no card); a row with no
    coup that shows ``target`` (``p[i] <= 0``, or a walk's total of zero) gets -2 in every slot and keeps its counts.
    """
    rows = comps.shape[0]
    cards = np.full((rows, 6), -1, dtype=np.int64)
    out = np.empty(6, dtype=np.int64)
    cost = walk_cost * walk_size(target) / 16
    for i in range(rows):
        counts = comps[i]
        total = 0
        for r in range(13):
            total += counts[r]
        if p[i] <= 0 or total < 6:
            cards[i, :] = -2
            continue
        done = False
        if p[i] * cost > 1:
            for _ in range(max_tries):
                if _try_coup(counts, total, target, gen, tables, out):
                    done = True
                    break
        if not done:
            whole = walk_given(counts, target, tables, np.inf, out)
            if whole <= 0:
                cards[i, :] = -2
                continue
            while out[0] < 0:  # a draw of u that rounds onto the total is drawn again
                walk_given(counts, target, tables, gen.random() * whole, out)
            for s in range(6):
                if out[s] >= 0:
                    counts[out[s]] -= 1
        for s in range(6):
            cards[i, s] = out[s]
    return cards
