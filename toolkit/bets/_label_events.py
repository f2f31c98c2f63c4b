"""Label events: a bet on ranks, suits and colours priced by the engine's walk of the value trie.

The rows of a bet (:mod:`toolkit.bets._rows`: value-level groups, with a rank and a colour or suit
chosen at each position the bet needs, settled as soon as their payout is decided) are priced here without
expanding the walk itself.  Given the values a coup deals, the labels of its cards (ranks, suits, colours) are
exchangeable within each value: the cards of value ``v`` are a uniform ordered draw from the shoe's cards of
that value, and under the suit-blind reading of a shoe by rank, the suits of the cards of rank ``r`` a uniform
draw from ``W_r`` suit weights.  So the probability of a row factors as

    P(group) x Q(pattern),   Q = prod_k (n_r - h_r) / (n_v - h_v) x (w_{r,l} - c_{r,l}) / (W_r - e_r)

over the row's labelled cards ``k`` (rank ``r``, value ``v``, suit or colour ``l``; ``h``, ``c``, ``e`` the earlier
labelled cards of the same rank, value, label and suited rank), where the *pattern* is the multiset of labelled
cards and does not depend on the unlabelled ones.  ``P(group)`` is a sum of the engine's value features, so each
pattern is one event of the walk (:func:`toolkit.exact._kernels.walk_block`) and its ``Q`` a handful of ratios per
shoe.

Two reductions keep the events few.  Each group is priced at its own commonest payout (its *base*) at the value
level, and only the rows that pay otherwise carry a pattern, with the difference: Super Tie is then the ties at
the value level and the single-coloured six-card ties of 6 to 9 as patterns.  And the bet's commonest base (its
*default*) is left out, its probability being one less the others'.  A row's payout counts towards one payout
column and, where it differs from its group's base, against another: an event is a pattern with a pair of
columns, ``+1`` and ``-1``.

Exact: the same sums in integers (:func:`label_combinations`).  Float: each event probability carries the
engine's relative error bound, ``Q`` at most six cards of three ratios each (see :attr:`LabelTable.bound`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import perm
from typing import Any

import numba
import numpy as np

from toolkit.bets._rows import Rows, enumerate_rows, exact_payouts, value_events
from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.suits import uniform_weight
from toolkit.exact._exact_sign import UNIT_ROUNDOFF, int_products
from toolkit.exact._kernels import LANES, EventTable, Walk, sparse_walk
from toolkit.exact._tables import multisets

__all__ = ["LabelTable", "compile_labels", "label_combinations", "label_probabilities"]

#: Bits of one labelled card in a pattern's code: ``rank * 5 + label + 1`` (label -1: the rank alone), below 2**7.
_CARD_BITS = 7
_VALUE_OF = np.array(RANK_VALUES, dtype=np.int64)


@dataclass(frozen=True)
class Patterns:
    """The patterns as a trie of labelled cards in canonical order: node ``j`` is its ``parent`` with one more card.

    Per node, its last card's ``rank``, ``value`` and ``label`` (suit or colour index; -1 the rank alone) and the
    cards before it with the same rank (``held_rank``), value (``held_value``), rank and label (``held_label``) and
    rank with a label (``held_labelled``); node 0 is the empty pattern, and parents come before their children.
    ``node[p]`` is the node of pattern ``p``.
    """

    parent: np.ndarray
    rank: np.ndarray
    value: np.ndarray
    label: np.ndarray
    held_rank: np.ndarray
    held_value: np.ndarray
    held_label: np.ndarray
    held_labelled: np.ndarray
    node: np.ndarray

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """The node arrays as the kernel reads them (``node`` left out)."""
        return (
            self.parent,
            self.rank,
            self.value,
            self.label,
            self.held_rank,
            self.held_value,
            self.held_label,
            self.held_labelled,
        )


@dataclass(frozen=True)
class LabelTable:
    """A bet compiled to label events (see the module notes).

    ``entries`` (multiset, event, sequences) are the walk's weights, kept for the exact path; event ``e`` is
    pattern ``event_pattern[e]`` counted ``+1`` towards payout column ``event_plus[e]`` and ``-1`` towards
    ``event_minus[e]`` (-1: none).  ``colour``: the labels are colours (the suit weights are summed by colour).
    """

    default: Fraction
    payouts: tuple[Fraction, ...]
    walk: Walk
    patterns: Patterns
    event_pattern: np.ndarray
    event_plus: np.ndarray
    event_minus: np.ndarray
    entries: tuple[np.ndarray, np.ndarray, np.ndarray]
    colour: bool
    bound: float
    #: A bet on values alone: its payouts as events of the engine's own walk (the panel's kernel and bound).
    events: EventTable | None = None

    @property
    def evaluator(self) -> str:
        """``value events`` (a bet on values alone) or ``label events``."""
        return "value events" if self.events is not None else "label events"

    @property
    def n_events(self) -> int:
        return len(self.event_pattern)


def _pattern_codes(rows: Rows) -> np.ndarray:
    """The code of each kept row's pattern: its labelled cards' codes sorted and packed (0: no labelled card)."""
    cards = []
    for p in rows.order:
        r, s = rows.ranks[p], rows.suits[p]
        cards.append(np.where(r >= 0, r * 5 + s + 2, 0))  # 0: no card labelled here
    if not cards:
        return np.zeros(len(rows.group), dtype=np.int64)
    stacked = np.sort(np.stack(cards, axis=1), axis=1)  # zeros first, then the cards in canonical order
    code = np.zeros(len(rows.group), dtype=np.int64)
    for j in range(stacked.shape[1]):
        code = code * (1 << _CARD_BITS) + stacked[:, j]
    return code


def _patterns(codes: np.ndarray) -> Patterns:
    """The trie of the patterns with these codes (see :func:`_pattern_codes`)."""
    cards = []
    for packed in codes.tolist():
        found, rest = [], packed
        while rest:
            found.append(rest % (1 << _CARD_BITS))
            rest //= 1 << _CARD_BITS
        cards.append(tuple(sorted(found)))
    prefixes = sorted({c[:k] for c in cards for k in range(len(c) + 1)}, key=lambda c: (len(c), c))
    index = {c: j for j, c in enumerate(prefixes)}
    n = len(prefixes)
    arrays = [np.zeros(n, dtype=np.int64) for _ in range(8)]
    parent, rank, value, label, held_rank, held_value, held_label, held_labelled = arrays
    for j, c in enumerate(prefixes[1:], start=1):
        parent[j] = index[c[:-1]]
        code = c[-1] - 1
        r, lab = code // 5, code % 5 - 1
        rank[j], value[j], label[j] = r, RANK_VALUES[r], lab
        earlier = [((e - 1) // 5, (e - 1) % 5 - 1) for e in c[:-1]]
        held_rank[j] = sum(q == r for q, _ in earlier)
        held_value[j] = sum(RANK_VALUES[q] == RANK_VALUES[r] for q, _ in earlier)
        held_label[j] = sum(q == r and m == lab for q, m in earlier) if lab >= 0 else 0
        held_labelled[j] = sum(q == r and m >= 0 for q, m in earlier)
    node = np.array([index[c] for c in cards], dtype=np.int64)
    return Patterns(parent, rank, value, label, held_rank, held_value, held_label, held_labelled, node)


def compile_labels(bet: Any, tableau: Any) -> LabelTable:
    """Compile a bet on coup fields to label events (see the module notes)."""
    rows = enumerate_rows(bet, tableau)
    pay_values = np.unique(np.concatenate([rows.base, rows.pay]))
    exact = exact_payouts(bet, pay_values)
    base = np.searchsorted(pay_values, rows.base)  # each group's base, as an index into pay_values
    row_pay = np.searchsorted(pay_values, rows.pay)
    default = int(np.argmax(np.bincount(base, weights=rows.mass, minlength=len(pay_values))))
    columns = np.full(len(pay_values), -1, dtype=np.int64)
    columns[[i for i in range(len(pay_values)) if i != default]] = np.arange(len(pay_values) - 1)
    # value-level entries: each group at its base (none where that is the default); the rows off it: the difference
    groups = np.flatnonzero(base != default)
    codes = np.concatenate([np.zeros(len(groups), dtype=np.int64), _pattern_codes(rows)])
    plus = np.concatenate([columns[base[groups]], columns[row_pay]])
    minus = np.concatenate([np.full(len(groups), -1, dtype=np.int64), columns[base[rows.group]]])
    event_keys, event = np.unique(np.stack([codes, plus, minus], axis=1), axis=0, return_inverse=True)
    pattern_codes, event_pattern = np.unique(event_keys[:, 0], return_inverse=True)
    mset, ev, count = _entries(rows, np.concatenate([groups, rows.group]), np.asarray(event).ravel(), len(event_keys))
    patterns = _patterns(pattern_codes)
    top = max(abs(float(x)) for x in exact)
    # float bound: a term w F Q has a relative error of at most gamma_(17 + 6 per card + 2); a column is a sum of at
    # most one term per entry, of probabilities at most 2 in all (the groups at their base, and the rows off it)
    roundings = 17 + 6 * 6 + 2 + len(ev) + 4
    bound = 8.08 * roundings * UNIT_ROUNDOFF * top + 4 * UNIT_ROUNDOFF * abs(float(exact[default]))
    events = value_events(rows, columns, exact, default) if not rows.order else None
    return LabelTable(
        default=exact[default],
        payouts=tuple(exact[i] for i in range(len(exact)) if i != default),
        walk=sparse_walk(mset, ev, count),
        patterns=patterns,
        event_pattern=np.ascontiguousarray(event_pattern, dtype=np.int64).ravel(),
        event_plus=np.ascontiguousarray(event_keys[:, 1], dtype=np.int64),
        event_minus=np.ascontiguousarray(event_keys[:, 2], dtype=np.int64),
        entries=(mset, ev, count),
        colour=rows.colour,
        bound=bound if events is None else events[1],
        events=None if events is None else events[0],
    )


def _entries(rows: Rows, owner: np.ndarray, event: np.ndarray, n_events: int) -> tuple[np.ndarray, ...]:
    """The walk's weights: for each (owner group, event), the group's multisets with their sequences, merged."""
    order = np.argsort(rows.gm_group, kind="stable")
    g_start = np.searchsorted(rows.gm_group[order], np.arange(rows.n_groups + 1))
    lengths = g_start[owner + 1] - g_start[owner]
    which = np.repeat(np.arange(len(owner)), lengths)
    offset = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    pos = order[np.repeat(g_start[owner], lengths) + offset]
    merged, inverse = np.unique(rows.gm_mset[pos] * n_events + event[which], return_inverse=True)
    count = np.bincount(np.asarray(inverse).ravel(), weights=rows.gm_count[pos]).astype(np.int64)
    return merged // n_events, merged % n_events, count


def _label_weights(colour: bool, weights: np.ndarray) -> np.ndarray:
    """The weights of the labels: the suits', or for colours (0 black, 1 red) their sums (s + c, h + d)."""
    if not colour:
        return weights
    out = np.zeros_like(weights)
    out[..., 0] = weights[..., 0] + weights[..., 3]
    out[..., 1] = weights[..., 1] + weights[..., 2]
    return out


def label_probabilities(table: LabelTable, ranks: np.ndarray, values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``(B, payouts)`` probability of each payout other than the default, for ``(B, 13)`` ranks, ``(B, 10)``
    values and ``(B, 13, 4)`` suit weights."""
    out = np.zeros((len(ranks), len(table.payouts)))
    if not len(ranks):
        return out
    # shoes a block: the patterns' Q (trie nodes x lanes) within about four megabytes
    lanes = int(min(LANES, len(ranks), max(16, 2**19 // len(table.patterns.parent))))
    d = uniform_weight(weights)
    if d is not None:  # suit-blind: every label of every rank weighs d (a colour 2d), every rank 4d; no copy made
        labelled = np.broadcast_to(np.int64(2 * d if table.colour else d), weights.shape)
        suits = np.broadcast_to(np.int64(4 * d), weights.shape[:2])
    else:
        labelled = np.ascontiguousarray(_label_weights(table.colour, weights), dtype=np.int64)
        suits = np.ascontiguousarray(weights.sum(axis=2), dtype=np.int64)
    events = (table.patterns.node[table.event_pattern], table.event_plus, table.event_minus)
    shoes = (np.ascontiguousarray(values, dtype=np.int64), np.ascontiguousarray(ranks, dtype=np.int64), labelled, suits)
    _label_kernel(shoes, table.walk.arrays, table.patterns.arrays, events, out, lanes)
    return out


@numba.njit(cache=True, nogil=True, fastmath={"contract"})
def _label_kernel(shoes, walk, patterns, events, out, lanes):  # pragma: no cover - compiled
    """out[b, x] = sum over the walk's entries of +-w F Q: per block of shoes, Q of every node of the patterns' trie,
    then the engine's walk (:func:`toolkit.exact._kernels.walk_block`'s, each entry times its pattern's Q and sent to
    its payout columns instead of an event: few columns, however many patterns).  Shoes run along the inner axis,
    the reciprocals of the draws' denominators made once a block (0 where a denominator is not positive)."""
    values, ranks, labelled, suits = shoes
    level, ratio, start, event, weight = walk
    parent, rank, value, label, held_rank, held_value, held_label, held_labelled = patterns
    node_of, plus, minus = events
    n_cols = out.shape[1]
    stack, q, acc = np.empty((7, lanes)), np.empty((parent.shape[0], lanes)), np.empty((n_cols, lanes))
    nv, nr, nl = np.empty((10, lanes)), np.empty((13, lanes)), np.empty((13, 4, lanes))
    inv, inv_v, inv_s = np.empty((6, lanes)), np.empty((10, 6, lanes)), np.empty((13, 6, lanes))
    for first in range(0, values.shape[0], lanes):
        width = min(lanes, values.shape[0] - first)
        for b in range(width):
            s = first + b
            total = 0
            for v in range(10):
                total += values[s, v]
                nv[v, b] = values[s, v]
                for h in range(6):
                    inv_v[v, h, b] = 1.0 / (values[s, v] - h) if values[s, v] > h else 0.0
            for h in range(6):
                inv[h, b] = 1.0 / (total - h)
            for r in range(13):
                nr[r, b] = ranks[s, r]
                for c in range(4):
                    nl[r, c, b] = labelled[s, r, c]
                for h in range(6):
                    inv_s[r, h, b] = 1.0 / (suits[s, r] - h) if suits[s, r] > h else 0.0
            stack[0, b], q[0, b] = 1.0, 1.0
            for c in range(n_cols):
                acc[c, b] = 0.0
        for j in range(1, parent.shape[0]):
            r, p, hr, hv = rank[j], parent[j], float(held_rank[j]), held_value[j]
            if label[j] < 0:
                for b in range(width):
                    q[j, b] = q[p, b] * (nr[r, b] - hr) * inv_v[value[j], hv, b]
            else:
                lab, hl, hs = label[j], float(held_label[j]), held_labelled[j]
                for b in range(width):
                    q[j, b] = (
                        q[p, b] * (nr[r, b] - hr) * inv_v[value[j], hv, b] * (nl[r, lab, b] - hl) * inv_s[r, hs, b]
                    )
        for i in range(level.shape[0]):
            d, r = level[i], ratio[i]
            h = float((r // 6) % 6)
            for b in range(width):
                stack[d, b] = stack[d - 1, b] * ((nv[r // 36, b] - h) * inv[r % 6, b])
            for k in range(start[i], start[i + 1]):
                e = event[k]
                p, cp, cm, w = node_of[e], plus[e], minus[e], weight[k]
                if cp >= 0:
                    for b in range(width):
                        acc[cp, b] += w * q[p, b] * stack[d, b]
                if cm >= 0:
                    for b in range(width):
                        acc[cm, b] -= w * q[p, b] * stack[d, b]
        for b in range(width):
            for c in range(n_cols):
                out[first + b, c] = acc[c, b]


def label_combinations(table: LabelTable, ranks: np.ndarray, values: np.ndarray, weights: np.ndarray) -> list[Fraction]:
    """Ordered six-card combinations (see :func:`toolkit.exact.engine.combination_counts`) of each non-default
    payout of one shoe, in integers and fractions (the suit weights' draws leave a denominator)."""
    labelled = _label_weights(table.colour, weights).tolist()
    suits = [int(x) for x in weights.sum(axis=1)]
    by_value = [int(x) for x in values]
    by_rank = [int(x) for x in ranks]
    n = sum(by_value)
    prods = int_products(by_value)
    sizes = multisets().size.tolist()
    mset, event, count = table.entries
    per_event = [0] * table.n_events
    for j, e, c in zip(mset.tolist(), event.tolist(), count.tolist(), strict=True):
        if prods[j]:
            per_event[e] += c * prods[j] * perm(n - sizes[j], 6 - sizes[j])
    pat = table.patterns
    node_q = [Fraction(1)] * len(pat.parent)
    for j in range(1, len(pat.parent)):
        r, lab = int(pat.rank[j]), int(pat.label[j])
        den = by_value[int(pat.value[j])] - int(pat.held_value[j])
        x = node_q[int(pat.parent[j])] * Fraction(by_rank[r] - int(pat.held_rank[j]), den) if den > 0 else Fraction(0)
        if lab >= 0:
            den = suits[r] - int(pat.held_labelled[j])
            x = x * Fraction(int(labelled[r][lab]) - int(pat.held_label[j]), den) if den > 0 else Fraction(0)
        node_q[j] = x
    q = [node_q[int(j)] for j in pat.node]
    out = [Fraction(0)] * len(table.payouts)
    for e in range(table.n_events):
        y = q[int(table.event_pattern[e])] * per_event[e]
        if table.event_plus[e] >= 0:
            out[int(table.event_plus[e])] += y
        if table.event_minus[e] >= 0:
            out[int(table.event_minus[e])] -= y
    return out
