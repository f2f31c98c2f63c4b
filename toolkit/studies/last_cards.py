"""The last 6 to 26 cards of a shoe, exactly: the law of every bet's edge over every composition of the remainder.

With ``n`` cards left, the remainder of a well-shuffled shoe is a uniformly random ``n``-card subset of
the full shoe, whatever was dealt, burned or seen before it (the shuffle is uniform over orders, and
the last ``n`` positions of a uniform order hold a uniform ``n``-subset; see the maths page
``notebooks/maths/thorp-study.md``).  Its composition by value (or by rank) is therefore
multivariate hypergeometric, and there are only ``C(n + 9, 9)`` compositions by value: 5,005 at
``n = 6``, 2.0 million at 16, 70.6 million at 26.  :func:`last_cards` prices every one with the
engine's batched kernel (:class:`toolkit.exact.engine.CompiledBets`) and sums the weights
(:mod:`toolkit.studies._remainders`): for every ``n`` and every bet,

* ``p_positive``: the probability that the bet's edge is strictly positive (an edge that is
  exactly zero is not positive: every expectation within the float path's error bound of zero is
  decided exactly by the engine, and ``exact_signs`` says how many were; with ``n`` cards an
  expectation is a multiple of ``1 / ((n)_6 d)``, ``d`` the common denominator of the bet's pay
  table, and while that spacing exceeds twice the bound, up to ``n`` = 31 for every bet of the
  standard panel priced together, such a value is an exact zero, decided without integers (the
  lattice of :mod:`toolkit.exact._exact_sign`); beyond it they are re-evaluated in integers);
* ``mean``: the mean edge, which equals the full shoe's edge (the remainder's composition is an
  exchangeable draw, and the edge is linear in the probabilities of the coup's card sequences,
  each of which averages to its full-shoe value): ``mean_deviation`` is the built-in check;
* ``mean_positive``: the mean of the positive part, ``E[max(edge, 0)]`` (what betting only when
  the edge is positive wins per coup); ``mean_if_positive = E[edge | edge > 0]``;

and the same for ``best``, the largest of the chosen bets' edges at each composition (a player
who sees the composition and picks the best bet, or none).

>>> frame = last_cards(1, cards_left=6, bets=("banker", "player"), progress=False, workers=1)
>>> frame.select("cards_left", "bet", "compositions").rows()
[(6, 'banker', 4915), (6, 'player', 4915), (6, 'best', 4915)]
>>> abs(frame["mean_deviation"].drop_nulls()).max() < 1e-14
True
"""

from __future__ import annotations

import hashlib
import math
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numba
import numpy as np
import polars as pl

from toolkit._check import integer, one_of
from toolkit.bets.paytable import PayTable, get_plain_bet, standard_bets
from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.rules import Rules
from toolkit.exact.engine import CompiledBets, as_rank_matrix, compiled_bets
from toolkit.parallel import Block, block_plan, map_blocks
from toolkit.studies._remainders import binomial_table, unrank_block, way_counts, weights

__all__ = ["BY", "LAST_CARDS_BLOCK", "last_cards", "needs_ranks", "parse_cards_left"]

#: How a remainder's compositions are told apart: by the ten values, or by the 13 ranks.
BY = ("value", "rank")
#: Compositions per block of work (a fixed size, so the sums never depend on the number of workers).
LAST_CARDS_BLOCK = 1 << 15
#: Statistics summed per bet and per block: P(edge > 0), E[edge], E[max(edge, 0)], P(edge = 0).
_SUMS = 4


def needs_ranks(bet: PayTable) -> bool:
    """Whether a pay-table bet looks at the pair flags (ranks), so it needs compositions by rank.

    >>> from toolkit.bets.paytable import get_bet
    >>> needs_ranks(get_bet("banker")), needs_ranks(get_bet("player_pair"))
    (False, True)
    """
    x = bet.payoff_array.reshape(-1, 2, 2)
    return not bool(np.all(x == x[:, :1, :1]))


def parse_cards_left(text: str | int | Sequence[int], where: str = "cards left") -> tuple[int, int]:
    """``(first, last)`` from ``"6-26"``, ``"16"``, an integer or a pair of integers.

    >>> parse_cards_left("6-26"), parse_cards_left(8)
    ((6, 26), (8, 8))
    """
    if isinstance(text, str):
        parts = text.strip().split("-")
        if len(parts) not in (1, 2) or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"{where} must be a number or a range such as 6-26, got {text!r}")
        first, last = int(parts[0]), int(parts[-1])
    elif isinstance(text, Sequence):
        if len(text) != 2:
            raise ValueError(f"{where} must be a pair (first, last), got {text!r}")
        first, last = integer(text[0], where), integer(text[1], where)
    else:
        first = last = integer(text, where)
    if first < 6 or last < first:
        raise ValueError(f"{where} must run from at least 6 (a coup may need six cards) upwards, got {first}-{last}")
    return first, last


@dataclass(frozen=True)
class _Job:
    """What every block needs: the shoe's caps, the bets, the numbering of the compositions of each ``n``."""

    caps: tuple[int, ...]
    bets: tuple[PayTable, ...]
    rules: Rules
    first: int  # the smallest n
    starts: tuple[int, ...]  # global index of the first composition of each n, then the total
    ways: tuple[np.ndarray, ...]  # way_counts for each n
    tables: tuple[np.ndarray, ...]  # binomial tables for each n
    totals: tuple[float, ...]  # C(N, n) as floats

    def segments(self, first: int, size: int):
        """``(n, local first, count)`` of the compositions ``first .. first + size - 1``."""
        end = first + size
        for k in range(len(self.starts) - 1):
            lo, hi = max(first, self.starts[k]), min(end, self.starts[k + 1])
            if lo < hi:
                yield k, lo - self.starts[k], hi - lo


def _shoes(caps: tuple[int, ...], comps: np.ndarray) -> np.ndarray:
    """``(B, 13)`` counts by rank of compositions by rank, or by value (the zero-valued cards all as tens: the
    bets priced by value look at no pairs, so any split of them gives the same edges)."""
    if len(caps) == 13:
        return comps
    ranks = np.zeros((comps.shape[0], 13), dtype=np.int64)
    ranks[:, :9] = comps[:, 1:]
    ranks[:, 9] = comps[:, 0]
    return ranks


#: Jobs this process has unpacked (or made), with their evaluators, by digest: a worker unpickles a job and looks
#: its evaluator up once, not once per block.
_JOBS: dict[bytes, tuple[_Job, CompiledBets | None]] = {}


def _pack(job: _Job) -> tuple[bytes, bytes]:
    """``(digest, pickle)`` of a job, made once: every block's task then carries bytes, which pickle as a copy,
    instead of the job (its bets hold 1,600 fractions each: pickled and unpickled per block, and compared
    field by field where the evaluator is looked up, they cost a quarter of a block's time)."""
    blob = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    digest = hashlib.sha256(blob).digest()
    _JOBS.clear()  # one job at a time here (and in forked workers, which inherit it)
    _JOBS[digest] = (job, None)
    return digest, blob


def _unpack(packed: tuple[bytes, bytes]) -> tuple[_Job, CompiledBets]:
    """The job and its evaluator, from this process's memory when it has them."""
    digest, blob = packed
    job, evaluate = _JOBS.get(digest) or (pickle.loads(blob), None)  # our own bytes, made by _pack
    if evaluate is None:
        evaluate = compiled_bets(job.bets, job.rules.tableau)
        _JOBS.clear()
        _JOBS[digest] = (job, evaluate)
    return job, evaluate


def _price_block(packed: tuple[bytes, bytes], block: Block) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """Per ``n`` met in the block: sums (stats x columns), exact-sign counts per column, largest edges."""
    job, evaluate = _unpack(packed)
    n_bets = len(job.bets)
    out = []
    for k, lo, count in job.segments(block.first_shoe, block.n_shoes):
        n = job.first + k
        comps = np.empty((count, len(job.caps)), dtype=np.int64)
        unrank_block(n, job.ways[k], lo, count, comps)
        w = weights(comps, job.tables[k], job.totals[k])
        ranks = _shoes(job.caps, comps)
        edge = evaluate(ranks, exact_signs=False)
        near = _near_rows(edge, evaluate.bounds) if n_bets else 0  # the rows settled next (for best's count)
        settled = evaluate.settle_signs(ranks, edge)
        sums = np.zeros((_SUMS, n_bets + 1))
        top = np.full(n_bets + 1, -np.inf)
        _block_sums(edge, w, sums, top)
        out.append((k, sums, np.append(settled, near), top))
    return out


@numba.njit(cache=True, nogil=True)
def _near_rows(edge, bounds):  # pragma: no cover - compiled
    """Rows with an edge within its bound of zero (each is settled exactly)."""
    rows = 0
    for b in range(edge.shape[0]):
        for c in range(edge.shape[1]):
            if abs(edge[b, c]) <= bounds[c]:
                rows += 1
                break
    return rows


@numba.njit(cache=True, nogil=True)
def _block_sums(edge, w, sums, top):  # pragma: no cover - compiled
    """Add ``w``-weighted P(edge > 0), E[edge], E[max(edge, 0)], P(edge = 0) of each column of ``edge`` and of the
    rows' largest edge (the last column of ``sums``) into ``sums``; the largest of each into ``top``.  One pass in
    row order: each sum errs by at most ``(B - 1) u`` of its terms' absolute sum (:mod:`_remainders`)."""
    m = edge.shape[1]
    for b in range(edge.shape[0]):
        wb = w[b]
        best = -np.inf
        for c in range(m + 1):
            if c < m:
                e = edge[b, c]
                best = max(best, e)
            else:
                e = best
            if e > 0:
                sums[0, c] += wb
                sums[2, c] += wb * e
            elif e == 0:
                sums[3, c] += wb
            sums[1, c] += wb * e
            top[c] = max(top[c], e)


def last_cards(
    shoe: CompositionLike = 8,
    cards_left: str | int | Sequence[int] = "6-16",
    bets: Sequence[str | PayTable] | None = None,
    *,
    by: str = "value",
    rules: Rules | None = None,
    workers: int | None = None,
    progress: bool = True,
    block_size: int = LAST_CARDS_BLOCK,
) -> pl.DataFrame:
    """The exact law of every bet's edge when ``n`` cards are left, for every ``n`` of ``cards_left``.

    Parameters
    ----------
    shoe
        The full shoe before the deal (``8`` for eight decks, or any composition-like value).
    cards_left
        ``n``, a range ``"6-26"`` or a pair ``(6, 26)``: the cards left before the coup (at least
        six, so that the coup can always be dealt; see the module notes).
    bets
        Pay-table bets or their names; default: the standard panel's bets that need no ranks
        (with ``by="value"``) or the whole panel (``by="rank"``).  Bets on suits or card positions
        are refused.
    by
        ``"value"``: compositions by the ten values (``C(n + 9, 9)`` of them); ``"rank"``: by the 13
        ranks, needed by bets on pairs (``C(n + 12, 12)``, far more).
    rules
        House rules of the named bets (commission, Tie pay) and the tableau.
    workers
        Local processes (``None``: every core); the figures do not depend on it.
    progress
        A tqdm bar counted in compositions (on a terminal only).
    block_size
        Compositions per block of work.

    Returns
    -------
    polars.DataFrame
        One row per ``n`` and bet, then ``best``: ``cards_left``, ``bet``, ``compositions``,
        ``p_positive`` (P(edge > 0)), ``mean`` (E[edge]), ``mean_positive`` (E[max(edge, 0)]),
        ``mean_if_positive`` (E[edge | edge > 0], null when never positive), ``p_zero`` (P(edge = 0),
        exactly), ``max_edge`` (the largest edge of any composition), ``exact_signs`` (expectations
        within the float path's error bound of zero, so decided exactly: by the lattice or in integers,
        see the module notes; for ``best``, the compositions with any), ``fresh_edge`` (the full shoe's
        edge; null for ``best``) and ``mean_deviation`` (``mean - fresh_edge``: zero up to rounding, the
        built-in check).

    References
    ----------
    E. O. Thorp, *The Mathematics of Gambling* (1984), ch. 3 "Baccarat": edges appear almost only in the
    last 5 to 20 cards.  E. O. Thorp and W. E. Walden, "The Fundamental Theorem of Card Counting with
    Applications to Trente-et-Quarante and Baccarat", Int. J. Game Theory 2 (1973) 109-119: the mean of
    an expectation over the remainder is the full-shoe expectation, its spread grows as the shoe depletes.
    """
    full = Composition.from_any(shoe)
    rules = Rules() if rules is None else rules
    by = one_of(by, BY, "by")
    first, last = parse_cards_left(cards_left)
    if last > full.total:
        raise ValueError(f"cards left must be at most the shoe's {full.total} cards, got {last}")
    chosen = _chosen(bets, by, rules)
    job = _plan(full, chosen, rules, by, first, last)
    columns = len(chosen) + 1
    ns = range(first, last + 1)
    partial_sums: list[list[np.ndarray]] = [[] for _ in ns]
    exact = np.zeros((len(ns), columns), dtype=np.int64)
    largest = np.full((len(ns), columns), -np.inf)
    plan = block_plan(job.starts[-1], block_size, seed=0)  # no randomness: its blocks' seeds go unused
    price = partial(_price_block, _pack(job))
    for result in map_blocks(price, plan, workers, progress=progress, description="compositions"):
        for k, sums, settled, top in result:
            partial_sums[k].append(sums)
            exact[k] += settled
            largest[k] = np.maximum(largest[k], top)
    fresh = compiled_bets(chosen, rules.tableau)(as_rank_matrix([full]))[0]
    rows = []
    names = [*(b.name for b in chosen), "best"]
    for k, n in enumerate(ns):
        stacked = np.stack(partial_sums[k])  # (blocks, stats, columns)
        total = np.array([[math.fsum(stacked[:, s, c]) for c in range(columns)] for s in range(_SUMS)])
        for c, name in enumerate(names):
            rows.append(
                _row(
                    n,
                    name,
                    job.starts[k + 1] - job.starts[k],
                    total[:, c],
                    exact[k, c],
                    largest[k, c],
                    float(fresh[c]) if c < len(chosen) else None,
                )
            )
    return pl.DataFrame(rows, schema=_SCHEMA)


def _chosen(bets: Sequence[str | PayTable] | None, by: str, rules: Rules) -> tuple[PayTable, ...]:
    """The bets, checked: pay tables with distinct names, none on pairs unless ``by == "rank"``."""
    if bets is None:
        return tuple(b for b in standard_bets(rules) if by == "rank" or not needs_ranks(b))
    chosen = tuple(get_plain_bet(b, rules, where="last_cards") for b in bets)
    if not chosen:
        raise ValueError("last_cards needs at least one bet")
    names = [b.name for b in chosen]
    if len(set(names)) != len(names) or "best" in names:
        raise ValueError(f"bets must have distinct names other than 'best', got {names}")
    ranked = [b.name for b in chosen if needs_ranks(b)]
    if by == "value" and ranked:
        raise ValueError(f"bet {ranked[0]!r} looks at pairs (card ranks): it needs by='rank' (--by rank)")
    return chosen


def _plan(full: Composition, chosen: tuple[PayTable, ...], rules: Rules, by: str, first: int, last: int) -> _Job:
    """The numbering of the compositions of every ``n`` and their weights' tables."""
    caps = np.array(full.by_value if by == "value" else full.by_rank)
    ns = range(first, last + 1)
    ways = tuple(way_counts(caps, n) for n in ns)
    counts = [int(w[0, n]) for w, n in zip(ways, ns, strict=True)]
    return _Job(
        caps=tuple(int(c) for c in caps),
        bets=chosen,
        rules=rules,
        first=first,
        starts=tuple(int(s) for s in np.concatenate([[0], np.cumsum(counts)])),
        ways=ways,
        tables=tuple(binomial_table(caps, n) for n in ns),
        totals=tuple(float(math.comb(full.total, n)) for n in ns),
    )


def _row(n: int, bet: str, count: int, sums: np.ndarray, exact: int, largest: float, fresh: float | None) -> dict:
    p, mean, positive, zero = (float(x) for x in sums)
    return {
        "cards_left": n,
        "bet": bet,
        "compositions": count,
        "p_positive": p,
        "mean": mean,
        "mean_positive": positive,
        "mean_if_positive": positive / p if p > 0 else None,
        "p_zero": zero,
        "max_edge": float(largest),
        "exact_signs": int(exact),
        "fresh_edge": fresh,
        "mean_deviation": mean - fresh if fresh is not None else None,
    }


_SCHEMA = {
    "cards_left": pl.Int64,
    "bet": pl.String,
    "compositions": pl.Int64,
    "p_positive": pl.Float64,
    "mean": pl.Float64,
    "mean_positive": pl.Float64,
    "mean_if_positive": pl.Float64,
    "p_zero": pl.Float64,
    "max_edge": pl.Float64,
    "exact_signs": pl.Int64,
    "fresh_edge": pl.Float64,
    "mean_deviation": pl.Float64,
}
