"""Bets on the first four cards' ranks and suits as closed forms in the counts: the pattern evaluator.

The first four cards (Player's and Banker's first two) are always dealt, so a
bet that names only them does not depend on the tableau at all: its
expectation is a sum over the ordered draws of four cards.  Perfect Pairs, Tiger
Pair and their kin depend on those cards only through *patterns*: which
positions share a rank, which share a card, and at most a class of each rank
(its value, or the rank itself) and of each suit (its colour, or the suit).

**Compiling.**  Every ordered four-card tuple (13^4 by rank, 52^4 by card) is
evaluated once; the payout is then grouped by the key (rank partition of the
four positions, card partition, class of each block) of the coarsest *scheme*
on which it is constant: rank classes ``one`` / ``value`` / ``rank`` times suit
classes ``any`` / ``colour`` / ``suit``.  The finest scheme always works (it is
the tuple itself), so every prefix bet compiles; the coarsest that holds is
taken (fewest terms).

**Pricing.**  In the shoe's draw (ranks from the counts by rank; a card's suit,
given its rank, from the rank's suit weights, see :func:`toolkit.coup.suits.suit_counts`),
an ordered tuple whose ranks form blocks ``B`` of distinct ranks ``r_B`` has
probability ``prod_B g_{r_B}(B) / (N)_4`` with

    g_r(B) = (n_r)_|B| / (W_r)_|B|  x  sum over distinct suits s_b of the
             block's card blocks b (each in its class) of prod_b (w_{r, s_b})_|b|

(for a suited shoe ``W_r = n_r`` and this is the plain draw of cards).  The sum
over distinct ranks (each in its block's class) is a Möbius inversion over the
partition lattice of the blocks:  ``sum_{distinct} prod_B g = sum_sigma mu(sigma)
prod_{S in sigma} sum_{r in class(S)} prod_{B in S} g_r(B)``, with
``mu(sigma) = prod_S (-1)^(|S|-1) (|S|-1)!`` and only blocks of one class merged.
Collecting the terms of all keys gives the bet as a short polynomial in a few
*factors* (class sums of products of ``g``): Perfect Pairs is 15 terms.

Floats only (the exact path is the label events of :mod:`toolkit.bets._label_events`);
each expectation comes with a rounding bound, so exact signs can be settled there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations, product
from math import factorial
from typing import Any

import numba
import numpy as np

from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.suits import uniform_weight

__all__ = ["PatternBet", "compile_patterns"]

#: The four prefix positions, in the order the tuples are enumerated.
PREFIX = ("player_1", "banker_1", "player_2", "banker_2")
_RANK_SCHEMES: dict[str, np.ndarray] = {
    "one": np.zeros(13, dtype=np.int64),
    "value": np.array(RANK_VALUES, dtype=np.int64),
    "rank": np.arange(13, dtype=np.int64),
}
_SUIT_SCHEMES: dict[str, np.ndarray] = {
    "any": np.zeros(4, dtype=np.int64),
    "colour": np.array([0, 1, 1, 0], dtype=np.int64),  # s, h, d, c: black, red, red, black
    "suit": np.arange(4, dtype=np.int64),
}
_UNIT = 2.0**-53
#: Shoes evaluated at a time: larger blocks spill the (shoes, terms) arrays out of cache and cost several times as much.
_SHOES_AT_ONCE = 2048


@dataclass(frozen=True)
class PatternBet:
    """A prefix bet compiled to a polynomial in class sums of ``g`` (see the module notes).

    ``terms[t]`` lists the factors of term t (indices into ``factors``), ``coef[t]`` its coefficient
    (payout less the default, times the Möbius sign, summed over the keys that share the term).  A factor
    is ``(rank class mask (13,), atom signatures)``; a signature is ``(m, ((card block size, suit class), ...))``
    (``m`` the block's size; no card blocks at rank level).
    """

    scheme: str
    default: float
    signatures: tuple[tuple, ...]
    factors: tuple[tuple[np.ndarray, tuple[int, ...]], ...]
    terms: np.ndarray  # (T, 4) factor indices, -1 padding
    coef: np.ndarray  # (T,)
    suit_classes: np.ndarray  # (4,) class of each suit in the scheme
    card_level: bool

    def __call__(self, ranks: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Expectations ``(B,)`` and their rounding bounds for ``(B, 13)`` ranks and ``(B, 13, 4)`` suit weights.

        Suit-blind shoes (every suit of every rank weighing the same ``d``) take each block's suit sum as one
        number, made once a call, and bets on ranks none: both are then one compiled pass, shoe by shoe; suited
        shoes take the arrays of :meth:`_block`.
        """
        d = uniform_weight(weights) if self.card_level else None
        if d is not None or not self.card_level:  # a number per signature: one compiled pass over the shoes
            q = self._blind_sums(d) if d is not None else np.ones(len(self.signatures))
            return self._compiled(np.ascontiguousarray(ranks, dtype=np.int64), q)
        step = max(1, min(_SHOES_AT_ONCE, 2_000_000 // max(len(self.coef), 1)))  # the arrays stay in cache
        parts = [self._block(ranks[i : i + step], weights[i : i + step]) for i in range(0, len(ranks), step)]
        if not parts:
            return np.zeros(0), np.zeros(0)
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def _block(self, ranks: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, ...]:
        """The closed form on a block of shoes with suit weights of their own (suited shoes), in arrays."""
        n = ranks.astype(np.float64)
        total = n.sum(axis=1)
        # falling factorials (x)_k, k = 0..4, of the rank counts, the suit pools and each suit's weight
        fn = _fallings(n)
        w = weights.astype(np.float64)
        fw_total, fw = _fallings(w.sum(axis=2)), _fallings(w)
        g = [self._g(sig, fn, fw_total, fw) for sig in self.signatures]
        f = np.ones((len(n), len(self.factors) + 1))  # the last column is 1 (padding)
        for i, (mask, sigs) in enumerate(self.factors):
            prod = np.ones_like(n)
            for s in sigs:
                prod = prod * g[s]
            f[:, i] = prod @ mask
        value = np.prod(f[:, self.terms], axis=2)  # (B, T)
        scale = 1.0 / (total * (total - 1) * (total - 2) * (total - 3))
        ev = self.default + (value @ self.coef) * scale
        size = np.abs(value) @ np.abs(self.coef) * scale
        bound = (64 + 2 * len(self.coef)) * _UNIT * size + 4 * _UNIT * abs(self.default)
        return ev, bound

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, ...]:
        """The signatures' sizes, the factors' masks and signatures (start, flat), the terms: as the kernel reads."""
        sizes = np.array([m for m, _ in self.signatures], dtype=np.int64)
        masks = np.array([mask for mask, _ in self.factors], dtype=np.float64).reshape(len(self.factors), 13)
        start = np.cumsum([0] + [len(sigs) for _, sigs in self.factors]).astype(np.int64)
        sigs = np.array([x for _, group in self.factors for x in group], dtype=np.int64)
        return sizes, masks, start, sigs, np.ascontiguousarray(self.terms, dtype=np.int64)

    def _compiled(self, ranks: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_block` for shoes whose block factors are ``(n_r)_m`` times a number ``q`` per signature."""
        sizes, masks, start, sigs, terms = self._arrays
        ev, size = np.empty(len(ranks)), np.empty(len(ranks))
        _closed_form(ranks, (sizes, q, masks, start, sigs), terms, self.coef, self.default, ev, size)
        bound = (64 + 2 * len(self.coef)) * _UNIT * size + 4 * _UNIT * abs(self.default)
        return ev, bound

    def _suit_sums(self, sig: tuple, fw: list) -> Any:
        """The sum over distinct suits of a block's card blocks (each in its class) of prod_b (w_s)_|b|."""
        _, blocks = sig
        s: Any = 0.0
        for suits in permutations(range(4), len(blocks)):
            if any(self.suit_classes[x] != c for x, (_, c) in zip(suits, blocks, strict=True)):
                continue
            part = _suit(fw[blocks[0][0]], suits[0])
            for x, (size, _) in zip(suits[1:], blocks[1:], strict=True):
                part = part * _suit(fw[size], x)
            s = s + part
        return s

    def _blind_sums(self, d: int) -> np.ndarray:
        """Each signature's suit-blind suit sum over its pool: :meth:`_suit_sums` of ``d`` a suit, over ``(4d)_m``
        (made once for each ``d``: a study asks for the same one a hundred thousand times)."""
        cache = self.__dict__.setdefault("_blind", {})
        if d not in cache:
            fw, pool = _fallings(np.array(float(d))), _fallings(np.array(4.0 * d))
            cache[d] = np.array(
                [
                    float(self._suit_sums(sig, fw)) / float(pool[sig[0]]) if pool[sig[0]] > 0 else 0.0
                    for sig in self.signatures
                ]
            )
        return cache[d]

    def _g(self, sig: tuple, fn: list, fw_total: list, fw: list) -> np.ndarray:
        s = self._suit_sums(sig, fw)
        den = fw_total[sig[0]]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den > 0, fn[sig[0]] * s / den, 0.0)


@numba.njit(cache=True, nogil=True, fastmath={"contract"})
def _closed_form(ranks, shape, terms, coef, default, ev, size):  # pragma: no cover - compiled
    """The closed form of :meth:`PatternBet._block` when each signature's ``g`` is ``(n_r)_m q``.

    ``shape`` holds the signatures' sizes ``m`` and numbers ``q``, the factors' rank masks and their signatures
    (``start``, ``sigs``); a term's padding factor (-1, or the number of factors) is 1.  Shoes run along the inner
    axis, 64 at a time (the compiler vectorises the loops over them).
    """
    sizes, q, masks, start, sigs = shape
    lanes = 64
    n_factors = masks.shape[0]
    fn, g = np.empty((5, 13, lanes)), np.empty((len(sizes), 13, lanes))
    f, p, total = np.empty((n_factors + 1, lanes)), np.empty(lanes), np.empty(lanes)
    f[n_factors, :] = 1.0  # the padding factor of the terms (index -1 or n_factors)
    e, z, v = np.empty(lanes), np.empty(lanes), np.empty(lanes)
    for first in range(0, ranks.shape[0], lanes):
        width = min(lanes, ranks.shape[0] - first)
        total[:width] = 0.0
        for r in range(13):
            for b in range(width):
                x = float(ranks[first + b, r])
                total[b] += x
                fn[0, r, b] = 1.0
                for j in range(4):
                    fn[j + 1, r, b] = fn[j, r, b] * max(x - j, 0.0)
        for s in range(len(sizes)):
            for r in range(13):
                for b in range(width):
                    g[s, r, b] = fn[sizes[s], r, b] * q[s]
        for i in range(n_factors):
            f[i, :width] = 0.0
            for r in range(13):
                if masks[i, r] == 0.0:
                    continue
                p[:width] = masks[i, r]
                for k in range(start[i], start[i + 1]):
                    for b in range(width):
                        p[b] *= g[sigs[k], r, b]
                for b in range(width):
                    f[i, b] += p[b]
        e[:width] = 0.0
        z[:width] = 0.0
        for t in range(terms.shape[0]):
            v[:width] = 1.0
            for k in range(terms.shape[1]):
                for b in range(width):
                    v[b] *= f[terms[t, k], b]
            for b in range(width):
                e[b] += v[b] * coef[t]
                z[b] += abs(v[b]) * abs(coef[t])
        for b in range(width):
            scale = 1.0 / (total[b] * (total[b] - 1.0) * (total[b] - 2.0) * (total[b] - 3.0))
            ev[first + b] = default + e[b] * scale
            size[first + b] = z[b] * scale


def _suit(fw: np.ndarray, suit: int) -> np.ndarray:
    """One suit's column of ``(B, 13, 4)`` falling factorials, or the number itself for suit-blind shoes."""
    return fw[:, :, suit] if fw.ndim == 3 else fw


def _fallings(x: np.ndarray) -> list[np.ndarray]:
    """``[(x)_0, (x)_1, ..., (x)_4]``, zero where ``x`` is smaller than the order."""
    out = [np.ones_like(x, dtype=np.float64)]
    for j in range(4):
        out.append(out[-1] * np.maximum(x - j, 0))
    return out


def _canonical(labels: np.ndarray) -> np.ndarray:
    """Per row of ``(R, 4)`` labels, the block index of each position (blocks numbered by first appearance)."""
    out = np.zeros(labels.shape, dtype=np.int64)
    fresh = np.ones(len(labels), dtype=np.int64)  # the next block number of each row
    for i in range(1, 4):
        block = np.full(len(labels), -1)
        for j in range(i - 1, -1, -1):
            block = np.where(labels[:, i] == labels[:, j], out[:, j], block)
        out[:, i] = np.where(block >= 0, block, fresh)
        fresh += block < 0
    return out


def _keys(
    ranks: np.ndarray,
    suits: np.ndarray | None,
    scheme: tuple[str, str],
    rho: np.ndarray | None = None,
    pi: np.ndarray | None = None,
) -> np.ndarray:
    """One integer key per tuple: rank partition, card partition, rank class and suit class of each position."""
    rho = _canonical(ranks) if rho is None else rho
    rclass = _RANK_SCHEMES[scheme[0]][ranks]
    key = np.zeros(len(ranks), dtype=np.int64)
    for i in range(4):
        key = key * 4 + rho[:, i]
        key = key * 13 + rclass[:, i]
    if suits is not None:
        pi = _canonical(ranks * 4 + suits) if pi is None else pi
        sclass = _SUIT_SCHEMES[scheme[1]][suits]
        for i in range(4):
            key = key * 4 + pi[:, i]
            key = key * 4 + sclass[:, i]
    return key


def _tuples(card_level: bool) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
    """Every ordered four-card tuple, in chunks: ``(R, 4)`` rank indices and suit indices (or None)."""
    kinds = 52 if card_level else 13
    rest = np.indices((kinds,) * 3).reshape(3, -1).T
    for first in range(kinds):
        labels = np.column_stack([np.full(len(rest), first), rest])
        if card_level:
            yield labels // 4, labels % 4
        else:
            yield labels, None


def _set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    head, tail = items[0], items[1:]
    for part in _set_partitions(tail):
        yield [[head], *part]
        for i in range(len(part)):
            yield [*part[:i], [head, *part[i]], *part[i + 1 :]]


def compile_patterns(payout: Any, card_level: bool, proven: str | None = None) -> PatternBet | None:
    """Compile a prefix bet: ``payout(ranks, suits)`` gives the payouts of ``(R, 4)`` tuples (see module notes).

    ``proven``: a rank scheme (``one`` or ``value``, suits ``any``) known to hold from the fields the bet names
    (pairs, suited pairs and values only depend on equalities and values); the payout is then evaluated on one
    tuple of each key.  Otherwise every tuple is evaluated and the coarsest scheme that holds is found; None
    when only the finest holds (the bet names particular ranks and suits: label events are then cheaper).
    """
    if proven is not None:
        scheme = (proven, "any")
        ranks, suits = _representatives(proven, card_level)
        pays = np.asarray(payout(ranks, suits), dtype=np.float64)
        keys = _keys(ranks, suits, scheme)
        values, counts = np.unique(pays, return_counts=True)
        default = float(values[np.argmax(counts)])  # any choice is exact; the commonest keeps few terms
        return _build(
            scheme,
            {k: v for k, v in zip(keys.tolist(), pays.tolist(), strict=True) if v != default},
            default,
            card_level,
        )
    schemes = [(r, s) for r in _RANK_SCHEMES for s in (_SUIT_SCHEMES if card_level else ("any",))][:-1]
    seen: dict[tuple[str, str], dict[int, float]] = {k: {} for k in schemes}
    ok = dict.fromkeys(schemes, True)
    tally: dict[float, int] = {}
    for ranks, suits in _tuples(card_level):
        pays = np.asarray(payout(ranks, suits), dtype=np.float64)
        values, counts = np.unique(pays, return_counts=True)
        for v, c in zip(values.tolist(), counts.tolist(), strict=True):
            tally[v] = tally.get(v, 0) + c
        rho = _canonical(ranks)
        pi = _canonical(ranks * 4 + suits) if suits is not None else None
        for scheme in schemes:
            if ok[scheme]:
                ok[scheme] = _merge(seen[scheme], _keys(ranks, suits, scheme, rho, pi), pays)
        if not any(ok.values()):
            return None  # only the finest scheme (the tuples themselves) holds
    default = max(tally, key=lambda v: tally[v])
    passing = [s for s in schemes if ok[s]]
    scheme = min(passing, key=lambda s: sum(1 for v in seen[s].values() if v != default))
    return _build(scheme, {k: v for k, v in seen[scheme].items() if v != default}, default, card_level)


def _representatives(rank_scheme: str, card_level: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """One tuple of every key of a scheme with suits ``any``: distinct ranks of each class for the rank blocks,
    suits 0, 1, ... for the card blocks of each rank block."""
    classes = _RANK_SCHEMES[rank_scheme]
    members = {int(c): [r for r in range(13) if classes[r] == c] for c in np.unique(classes)}
    ranks, suits = [], []
    for rho in _set_partitions(list(range(4))):
        refinements = list(product(*[list(_set_partitions(b)) for b in rho])) if card_level else [()]
        for cls in product(sorted(members), repeat=len(rho)):
            given: dict[int, int] = {}
            block_rank = []
            for c in cls:
                block_rank.append(members[c][given.get(c, 0)] if given.get(c, 0) < len(members[c]) else -1)
                given[c] = given.get(c, 0) + 1
            if min(block_rank) < 0:
                continue  # the class has fewer ranks than blocks
            r = [0] * 4
            for b, block in enumerate(rho):
                for p in block:
                    r[p] = block_rank[b]
            for pis in refinements:
                s = [0] * 4
                for cards in pis:
                    for k, card in enumerate(cards):
                        for p in card:
                            s[p] = k
                ranks.append(r)
                suits.append(s)
    rank_array = np.array(ranks, dtype=np.int64)
    return rank_array, (np.array(suits, dtype=np.int64) if card_level else None)


def _merge(seen: dict[int, float], keys: np.ndarray, pays: np.ndarray) -> bool:
    """Add the keys' payouts to ``seen``; False when some key has two payouts (the scheme does not hold)."""
    order = np.argsort(keys, kind="stable")
    k, p = keys[order], pays[order]
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    if np.any(np.maximum.reduceat(p, starts) != np.minimum.reduceat(p, starts)):
        return False
    for key, pay in zip(k[starts].tolist(), p[starts].tolist(), strict=True):
        if seen.setdefault(key, pay) != pay:
            return False
    return True


def _decode(key: int, card_level: bool) -> tuple[list[int], list[int], list[int], list[int]]:
    """Rank blocks, rank classes, card blocks and suit classes of the four positions, from a key."""
    cblock, sclass = [0] * 4, [0] * 4
    if card_level:
        for i in range(3, -1, -1):
            sclass[i] = key % 4
            key //= 4
            cblock[i] = key % 4
            key //= 4
    rblock, rclass = [0] * 4, [0] * 4
    for i in range(3, -1, -1):
        rclass[i] = key % 13
        key //= 13
        rblock[i] = key % 4
        key //= 4
    return rblock, rclass, cblock, sclass


def _card_blocks(members: list[int], cblock: list[int], sclass: list[int]) -> tuple[tuple[int, int], ...]:
    """The card blocks of one rank block: (size, suit class) of each, sorted."""
    first: dict[int, int] = {}
    for i in members:
        first.setdefault(cblock[i], i)
    return tuple(sorted((sum(1 for i in members if cblock[i] == c), sclass[i]) for c, i in first.items()))


def _build(scheme: tuple[str, str], keys: dict[int, float], default: float, card_level: bool) -> PatternBet:
    signatures: dict[tuple, int] = {}
    factors: dict[tuple, int] = {}
    masks: dict[tuple, np.ndarray] = {}
    terms: dict[tuple[int, ...], float] = {}
    classes = _RANK_SCHEMES[scheme[0]]
    for key, pay in keys.items():
        rblock, rclass, cblock, sclass = _decode(key, card_level)
        atoms = []
        for b in range(max(rblock) + 1):
            members = [i for i in range(4) if rblock[i] == b]
            sig = (len(members), _card_blocks(members, cblock, sclass) if card_level else ())
            atoms.append((rclass[members[0]], signatures.setdefault(sig, len(signatures))))
        for sigma in _set_partitions(list(range(len(atoms)))):
            if any(len({atoms[a][0] for a in part}) > 1 for part in sigma):
                continue  # blocks of different classes never share a rank
            mu = 1
            fidx = []
            for part in sigma:
                mu *= (-1) ** (len(part) - 1) * factorial(len(part) - 1)
                cls = atoms[part[0]][0]
                fkey = (cls, tuple(sorted(atoms[a][1] for a in part)))
                if fkey not in factors:
                    factors[fkey] = len(factors)
                    masks[fkey] = (classes == cls).astype(np.float64)
                fidx.append(factors[fkey])
            tkey = tuple(sorted(fidx))
            terms[tkey] = terms.get(tkey, 0.0) + mu * (pay - default)
    kept = [(t, c) for t, c in terms.items() if c != 0]
    pad = len(factors)
    term_array = np.array([list(t) + [pad] * (4 - len(t)) for t, _ in kept], dtype=np.int64).reshape(len(kept), 4)
    ordered = sorted(factors, key=factors.__getitem__)
    return PatternBet(
        scheme=f"ranks by {scheme[0]}" + (f", suits by {scheme[1]}" if card_level else ""),
        default=float(default),
        signatures=tuple(sorted(signatures, key=signatures.__getitem__)),
        factors=tuple((masks[k], k[1]) for k in ordered),
        terms=term_array,
        coef=np.array([c for _, c in kept], dtype=np.float64),
        suit_classes=_SUIT_SCHEMES[scheme[1]] if card_level else _SUIT_SCHEMES["any"],
        card_level=card_level,
    )
