"""The search for the best integer count of a bet: tag sets guided by its effects of removal, scored on dealt shoes.

**The search space** (:class:`SearchSpace`).  The effects of removal of the
bet by rank (:func:`toolkit.edges.eor.effect_of_removal`) are scaled so that the
largest one in size becomes ``top`` for each ``top`` in :attr:`SearchSpace.tops`,
rounded to integers (halves away from zero) and clipped to the *reach*
``-reach..+reach``.  The reach is what the effects of removal call for
(:func:`tag_reach`): the ratio of the largest effect to the median one, rounded
up, so that a card that matters ten times as much as a typical card can be
tagged ten times as large (the published 3 Giving 8 count tags the 8 as -8 and
the other cards +1 or -3: E. Jacobson, "Baccarat Side Bets",
advancedadvantageplay.com); at least 3 and at most :data:`MAX_REACH`, or
:attr:`SearchSpace.max_tag` when it is given.  The tops run from 1 to the reach.
Each of those tag sets is tried as it is and balanced (the tags of a deck
summing to zero, by the fewest changes that cost least rounding error).
Balanced tag sets are bet on the true count; unbalanced ones on the true and
on the running count.  The published counts of the library for the bet
(:data:`toolkit.counting.COUNT_SYSTEMS`) are added, and the all-zero count as
the baseline.  Then, from the best of these, a hill climb tries every single
change of one tag by one (ranks with the same effect of removal moving
together), for :attr:`SearchSpace.local_passes` passes (none when the effects of
removal are all zero and the library has no count for the bet).

**The score** of a tag set and trigger is the expected win per 100 hands of
flat one-unit bets at its best threshold: a sweep over a grid of thresholds
(:func:`threshold_grid`), each bet priced at its exact expected value before
the coup (the harness's estimate, far less noisy than the realised win).
Every candidate is scored on the same shoes (common random numbers), so their
differences are not blurred by different shoes; because the best is chosen on
those shoes, its score there is optimistic, and the figures reported for it
come from a fresh, independent set of shoes (:mod:`toolkit.studies.assess.run`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from toolkit._check import positive_int
from toolkit._show import changed_fields
from toolkit.bets.base import Bet
from toolkit.counting.systems import COUNT_SYSTEMS, CountSystem
from toolkit.counting.tallies import PreCoup, count_arrays
from toolkit.coup.cards import RANKS
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.parallel import Block

__all__ = [
    "MAX_REACH",
    "SearchSet",
    "SearchSpace",
    "candidate_tags",
    "refine_near_best",
    "search_counts",
    "tag_reach",
    "threshold_grid",
]

#: The largest tag the search reaches when the effects of removal call for more (a count a person can keep).
MAX_REACH = 16
#: The reach when the effects of removal are nearly equal (the search's reach before it followed their ratios).
MIN_REACH = 3
#: The tops tried below 3 (and every integer from 3 to the reach).
_LOW_TOPS = (1.0, 1.5, 2.0, 2.5)

_NICE = (0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0)


@dataclass(frozen=True)
class SearchSpace:
    """What the count search tries (see the module notes).

    Attributes
    ----------
    tops
        The largest tag of each EOR-proportional candidate (``None``: 1, 1.5, 2, 2.5 and every
        integer from 3 to the reach).
    max_tag
        Tags are clipped to ``-max_tag .. max_tag`` (``None``: the reach the effects of removal
        call for, :func:`tag_reach`).
    local_passes
        Passes of the local search (one tag changed by one at a time).
    thresholds
        Thresholds tried for each candidate.

    >>> SearchSpace().describe()[:60]
    'tags proportional to the effects of removal by rank, scaled '
    """

    tops: tuple[float, ...] | None = None
    max_tag: int | None = None
    local_passes: int = 2
    thresholds: int = 40

    def __post_init__(self) -> None:
        tops = self.tops
        if tops is not None and (
            not tops or any(not (isinstance(t, (int, float)) and t > 0 and math.isfinite(t)) for t in tops)
        ):
            raise ValueError(f"SearchSpace.tops must be positive numbers, got {self.tops!r}")
        if self.max_tag is not None:
            positive_int(self.max_tag, "SearchSpace.max_tag")
        if isinstance(self.local_passes, bool) or not isinstance(self.local_passes, int) or self.local_passes < 0:
            raise ValueError(f"SearchSpace.local_passes must be an integer >= 0, got {self.local_passes!r}")
        positive_int(self.thresholds, "SearchSpace.thresholds")

    def __repr__(self) -> str:
        return changed_fields(self)

    def reach(self, eor: np.ndarray) -> int:
        """The largest tag tried for a bet of these effects of removal: ``max_tag``, else :func:`tag_reach`."""
        return tag_reach(eor) if self.max_tag is None else self.max_tag

    def tops_for(self, reach: int) -> tuple[float, ...]:
        """The tops tried at this reach: those given, else 1, 1.5, 2, 2.5 and every integer from 3 to ``reach``.

        >>> SearchSpace().tops_for(5)
        (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
        """
        if self.tops is not None:
            return tuple(float(t) for t in self.tops)
        return (*_LOW_TOPS, *(float(t) for t in range(3, max(reach, 3) + 1)))

    def describe(self, reach: int | None = None) -> str:
        """The search space in one paragraph (for the report), at the reach of the bet assessed."""
        how = "as the effects of removal call for" if self.max_tag is None else "as given"
        if reach is None:
            reach = MIN_REACH if self.max_tag is None else self.max_tag
            how = "the ratio of the largest effect of removal to the median one" if self.max_tag is None else how
        tops = ", ".join(f"{t:g}" for t in self.tops_for(reach))
        return (
            "tags proportional to the effects of removal by rank, scaled so that the largest is "
            f"{tops} and rounded to integers in -{reach}..+{reach} (the reach, {how}; larger scalings clipped), each "
            "as it is and balanced (a deck's tags summing to zero); balanced counts bet on the true count, "
            "unbalanced ones on the true and on the running count; the library's published counts for the bet "
            f"and the all-zero count; then {self.local_passes} pass(es) of a hill climb changing one tag by one "
            "(ranks with the same effect of removal together). Each is scored by its expected win per 100 hands "
            f"at its best threshold, over a grid of about {self.thresholds} thresholds."
        )


# ---------------------------------------------------------------- the shoes
@dataclass(frozen=True, eq=False)
class SearchSet:
    """Dealt shoes with the exact EV of the bet before every coup: what every candidate is scored on."""

    info: PreCoup
    ev: np.ndarray
    shoes: int

    @property
    def hands(self) -> int:
        return len(self.ev)

    @property
    def nbytes(self) -> int:
        """The bytes its arrays hold (about 49 a coup: the unseen cards 26, the bet's EV 8, the rest 15)."""
        return int(self.ev.nbytes + sum(getattr(self.info, n).nbytes for n in _SET_FIELDS))

    @property
    def largest_field_nbytes(self) -> int:
        """The bytes of its largest array (the unseen cards): what joining blocks holds twice at a time."""
        return max(getattr(self.info, n).nbytes for n in _SET_FIELDS)

    @classmethod
    def concat(cls, parts: Iterable[SearchSet]) -> SearchSet:
        """One set from the sets of several blocks, taken one by one (pass an iterator to bound the memory).

        The blocks' arrays are joined one field at a time, each field's pieces let go once joined, so that
        with an iterator of blocks (``map_blocks``) the peak is the set and one of its fields, not twice the set.
        """
        pieces: dict[str, list[np.ndarray]] = {n: [] for n in (*_SET_FIELDS, "ev")}
        shoes, tableau = 0, None
        for part in parts:
            for n in _SET_FIELDS:
                pieces[n].append(getattr(part.info, n))
            pieces["ev"].append(part.ev)
            shoes, tableau = shoes + part.shoes, part.info.tableau
        if tableau is None:
            raise ValueError("SearchSet.concat needs at least one block of shoes")
        joined = {}
        for n, arrays in pieces.items():
            joined[n] = np.concatenate(arrays)
            arrays.clear()
        shoe, coup, unseen, left, decks, burn = (joined[n] for n in _SET_FIELDS)
        return cls(PreCoup(shoe, coup, unseen, left, decks, burn, tableau), joined["ev"], shoes)


#: The pre-coup arrays a search set keeps, in :class:`~toolkit.counting.tallies.PreCoup`'s order.
_SET_FIELDS = ("shoe", "coup", "unseen", "left", "decks", "burn_card")


def search_block(block: Block, dealing: Dealing, bet: Bet) -> SearchSet:
    """Deal one block and price ``bet`` before every coup (runs where the block runs)."""
    from threadpoolctl import threadpool_limits

    dealt = deal_block(shuffled_shoes(block.n_shoes, dealing.decks, block.rng()), dealing, block.first_shoe)
    with threadpool_limits(1):
        info = PreCoup.from_dealt(dealt, dealing.tableau)
        ev = info.expected_values(bet)
    # narrow arrays: what the search holds for every coup of every shoe (shoe ids and decks fit 32 and 16 bits,
    # a burn card's rank index 8; the unseen counts 16, as the dealt shoes' compositions)
    bare = PreCoup(
        info.shoe.astype(np.int32),
        info.coup,
        info.unseen.astype(np.int16),
        info.left,
        info.decks.astype(np.int16),
        info.burn_card.astype(np.int8),
        info.tableau,
    )
    return SearchSet(bare, ev, block.n_shoes)


# ------------------------------------------------------------ the candidates
def tag_reach(eor: np.ndarray) -> int:
    """The largest tag the effects of removal call for: the largest effect over the median one, rounded up.

    Tags proportional to the effects, the median card tagged about 1, need this reach to keep the
    proportions of the cards that matter most; at least :data:`MIN_REACH`, at most :data:`MAX_REACH`.

    >>> tag_reach(np.array([1, 1, -3, 1, 1, 2, 2, -9, 2, 1, 1, 1, 1]) * 1e-4)
    9
    >>> tag_reach(np.zeros(13))
    3

    Parameters
    ----------
    eor
        The bet's 13 effects of removal by rank.

    Returns
    -------
    int
    """
    size = np.abs(np.nan_to_num(np.asarray(eor, dtype=np.float64)))
    size = size[size > 1e-12 * max(float(size.max(initial=0.0)), 1e-300)]
    if not len(size):
        return MIN_REACH
    ratio = float(size.max() / np.median(size))
    return int(min(max(math.ceil(ratio - 1e-9), MIN_REACH), MAX_REACH))


def _round(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _groups(eor: np.ndarray) -> list[list[int]]:
    """Ranks with the same effect of removal (to 1e-12), which move together."""
    groups: list[list[int]] = []
    for i, e in enumerate(eor):
        for g in groups:
            if abs(eor[g[0]] - e) <= 1e-12 * max(1.0, abs(e)):
                g.append(i)
                break
        else:
            groups.append([i])
    return groups


def _balance(tags: np.ndarray, raw: np.ndarray, groups: list[list[int]], max_tag: int) -> np.ndarray | None:
    """Tags summing to zero over a deck, changing tags of whole groups by the least rounding cost; None if none."""
    out = tags.copy()
    for _ in range(60):
        d = int(out.sum())
        if d == 0:
            return out
        step = -1 if d > 0 else 1
        best, best_cost = None, math.inf
        for g in groups:
            new = out[g[0]] + step
            if len(g) > abs(d) or abs(new) > max_tag:
                continue
            cost = abs(new - raw[g[0]]) - abs(out[g[0]] - raw[g[0]])
            if cost < best_cost:
                best, best_cost = g, cost
        if best is None:
            return None
        out[best] += step
    return None


def candidate_tags(eor: np.ndarray, space: SearchSpace = SearchSpace()) -> list[tuple[str, float, np.ndarray]]:
    """The EOR-guided tag sets: ``(family, top, tags by rank)``, without repeats.

    >>> eor = np.array([5, -9, -11, -27, -26, -47, -50, 26, 48, 9, 9, 9, 9]) * 1e-4
    >>> [(f, t, tags.tolist()) for f, t, tags in candidate_tags(eor, SearchSpace(tops=(2,)))][0]
    ('eor', 2.0, [0, 0, 0, -1, -1, -2, -2, 1, 2, 0, 0, 0, 0])

    Parameters
    ----------
    eor
        The bet's 13 effects of removal by rank.
    space
        What the search tries.

    Returns
    -------
    list of (str, float, numpy.ndarray)
    """
    eor = np.asarray(eor, dtype=np.float64)
    top = np.abs(eor).max()
    if not top > 0:
        return []
    groups = _groups(eor)
    reach = space.reach(eor)
    seen: set[tuple[int, ...]] = set()
    out = []
    for t in space.tops_for(reach):
        raw = eor / top * t
        tags = np.clip(_round(raw), -reach, reach).astype(np.int64)
        for family, candidate in (("eor", tags), ("eor balanced", _balance(tags, raw, groups, reach))):
            if candidate is None or not candidate.any() or tuple(candidate) in seen:
                continue
            seen.add(tuple(candidate))
            out.append((family, t, candidate))
    return out


# ------------------------------------------------------------------ scoring
def threshold_grid(x: np.ndarray, trigger: str, n: int = 40) -> np.ndarray:
    """About ``n`` round thresholds from the median count to its 99.99th percentile (integers for running counts).

    >>> threshold_grid(np.arange(101.0), "true", 10).tolist()
    [50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 80.0, 85.0, 90.0, 95.0, 100.0]
    """
    if len(x) == 0:
        return np.zeros(1)
    lo, hi = (float(v) for v in np.quantile(x, [0.5, 0.9999]))
    target = (hi - lo) / max(n, 1)
    steps = [s for s in _NICE if s >= target and (trigger == "true" or s >= 1)]
    step = steps[0] if steps else _NICE[-1]
    start = math.ceil(lo / step) * step
    return np.round(np.arange(start, hi + step / 2, step), 10)


@dataclass(frozen=True, eq=False)
class Score:
    """One candidate's threshold sweep on the search set and its best threshold (``None``: never bet)."""

    tags: tuple[int, ...]
    trigger: str
    grid: np.ndarray = field(repr=False)
    win: np.ndarray = field(repr=False)
    bets: np.ndarray = field(repr=False)
    hands: int
    shoes: int

    @property
    def best(self) -> int | None:
        """Index of the best threshold of the grid (``None`` when no threshold wins: the count never bets)."""
        if not len(self.win) or self.win.max() <= 0:
            return None
        return int(np.argmax(self.win))

    @property
    def threshold(self) -> float | None:
        return None if self.best is None else float(self.grid[self.best])

    @property
    def win_per_100_hands(self) -> float:
        return 0.0 if self.best is None else float(100 * self.win[self.best] / self.hands)

    def row(self) -> dict[str, object]:
        b = self.best
        n_bets = 0 if b is None else int(self.bets[b])
        ev = 0.0 if b is None else float(self.win[b])
        return {
            "tags": ",".join(str(t) for t in self.tags),
            "balanced": sum(self.tags) == 0,
            "trigger": self.trigger,
            "threshold": self.threshold,
            "bet_frequency": n_bets / self.hands,
            "edge_when_betting": ev / n_bets if n_bets else None,
            "win_per_100_hands": self.win_per_100_hands,
            "units_per_shoe": ev / self.shoes,
        }

    def sweep(self) -> pl.DataFrame:
        """``threshold, bet_frequency, win_per_100_hands`` over the grid."""
        return pl.DataFrame(
            {
                "threshold": self.grid.astype(np.float64),
                "bet_frequency": self.bets / self.hands,
                "win_per_100_hands": 100 * self.win / self.hands,
            }
        )


def score_tags(tags: Sequence[int] | np.ndarray, trigger: str, data: SearchSet, n_thresholds: int = 40) -> Score:
    """Expected win of flat bets at every threshold of the grid, on the search set (the exact EVs)."""
    system = CountSystem("candidate", tuple(int(t) for t in tags), trigger=trigger)
    x = _counts(system, data)
    return _score_on(system.tags, trigger, threshold_grid(x, trigger, n_thresholds), x, data)


def _counts(system: CountSystem, data: SearchSet) -> np.ndarray:
    """The count before every coup of the search set (true or running, as the system triggers)."""
    info = data.info
    rc, tc = count_arrays(system, info.unseen, info.decks, info.burn_card, info.left)
    return tc if system.trigger == "true" else rc.astype(np.float64)


def _score_on(tags: tuple[int, ...], trigger: str, grid: np.ndarray, x: np.ndarray, data: SearchSet) -> Score:
    """Expected win and bets of flat bets at every threshold of ``grid`` (ascending), counts ``x``."""
    # the hands bet at threshold grid[j] are those with x >= grid[j]: bin each hand by the thresholds it reaches
    # (linear in the hands, no sort), then sum the bins from the top
    reached = np.searchsorted(grid, x, side="right")
    win = np.cumsum(np.bincount(reached, weights=data.ev, minlength=len(grid) + 1)[::-1])[::-1][1:]
    bets = np.cumsum(np.bincount(reached, minlength=len(grid) + 1)[::-1])[::-1][1:]
    return Score(tags, trigger, grid, win, bets, data.hands, data.shoes)


def refine_near_best(score: Score, data: SearchSet) -> Score:
    """The same count scored again with finer thresholds between the two either side of its best one.

    The grid of :func:`threshold_grid` steps by a round amount (5 for a running count spread over 200)
    across the whole range; about the best threshold the step is cut to the next round amount a quarter of
    it or less (1 for a running count, whose thresholds are integers; 0.1 at the finest for a true count),
    so the peak of the sweep is found to that step.  A count that never bets, or whose grid is already
    that fine, is returned as it is.

    Parameters
    ----------
    score
        A candidate's score on ``data`` (:func:`score_tags`).
    data
        The search set it was scored on.

    Returns
    -------
    Score
        The score on the coarse grid and the finer thresholds about its best.
    """
    best = score.best
    if best is None or len(score.grid) < 2:
        return score
    step = float(score.grid[1] - score.grid[0])
    finer = [s for s in _NICE if s <= step / 4 and (score.trigger == "true" or s >= 1)]
    if not finer:
        return score
    fine = finer[-1]
    low, high = float(score.grid[max(best - 1, 0)]), float(score.grid[min(best + 1, len(score.grid) - 1)])
    grid = np.union1d(score.grid, np.round(np.arange(low, high + fine / 2, fine), 10))
    system = CountSystem("candidate", score.tags, trigger=score.trigger)
    return _score_on(score.tags, score.trigger, grid, _counts(system, data), data)


def _triggers(tags: np.ndarray) -> tuple[str, ...]:
    return ("true",) if int(tags.sum()) == 0 else ("true", "running")


def _neighbours(
    current: Score, groups: list[list[int]], max_tag: int, tried: set[tuple[tuple[int, ...], str]]
) -> list[tuple[np.ndarray, str]]:
    """The counts one tag step from ``current`` (a group of ranks at a time) not tried yet; marks them tried."""
    out = []
    for g in groups:
        for step in (-1, 1):
            tags = np.array(current.tags)
            tags[g] += step
            if np.abs(tags).max() > max_tag or not tags.any():
                continue
            for trig in _triggers(tags):
                key = (tuple(int(t) for t in tags), trig)
                if key not in tried:
                    tried.add(key)
                    out.append((tags, trig))
    return out


def search_counts(
    data: SearchSet, eor: np.ndarray, bet: Bet, space: SearchSpace = SearchSpace(), progress: bool = False
) -> tuple[pl.DataFrame, Score]:
    """Score every candidate of the search space on ``data``; the frame of candidates (best first) and the winner.

    ``eor`` holds the bet's 13 effects of removal by rank.

    Parameters
    ----------
    data
        The search shoes (:func:`search_block`).
    eor
        The bet's effects of removal by rank.
    bet
        The bet.
    space
        What the search tries.
    progress
        A progress bar over the candidates.

    Returns
    -------
    (polars.DataFrame, Score)
        Every candidate, best first, and the winner.
    """
    from toolkit._progress import progress_bar

    eor = np.asarray(eor, dtype=np.float64)
    todo: list[tuple[str, float | None, np.ndarray, str]] = []
    for family, top, tags in candidate_tags(eor, space):
        todo += [(family, top, tags, trig) for trig in _triggers(tags)]
    for system in COUNT_SYSTEMS.values():
        if system.bet == bet.name:
            todo.append((f"published {system.name}", None, system.tag_array, system.trigger))
    todo.append(("zero", None, np.zeros(13, np.int64), "true"))
    rows: list[dict[str, object]] = []
    scores: list[Score] = []

    def run(family: str, top: float | None, tags: np.ndarray, trigger: str) -> Score:
        s = score_tags(tags, trigger, data, space.thresholds)
        rows.append({"family": family, "top": top, **s.row()})
        scores.append(s)
        return s

    # a bar for each stage, its total fixed: the counts of the climb are known only when it gets there
    for item in progress_bar(todo, desc="count search", unit="count", show=progress):
        run(*item)
    # climb from the best EOR-guided count (else the best published one; no climb from the zero count alone)
    guided = [s for s, r in zip(scores, rows, strict=True) if str(r["family"]).startswith("eor")]
    published = [s for s, r in zip(scores, rows, strict=True) if str(r["family"]).startswith("published")]
    start = guided or published
    current = max(start, key=lambda s: s.win_per_100_hands) if start else None
    groups = _groups(eor)
    reach = space.reach(eor)
    tried = {(s.tags, s.trigger) for s in scores}
    for k in range(space.local_passes):
        if current is None:
            break
        neighbours = _neighbours(current, groups, reach, tried)
        best = current
        desc = f"climb, pass {k + 1}"
        for tags, trig in progress_bar(neighbours, desc=desc, unit="count", show=progress):
            s = run(f"variant (pass {k + 1})", None, tags, trig)
            if s.win_per_100_hands > best.win_per_100_hands:
                best = s
        current = None if best is current else best
    at = max(range(len(scores)), key=lambda i: scores[i].win_per_100_hands)  # the first of the best
    winner = refine_near_best(scores[at], data)  # its threshold found to a finer step about the peak
    rows[at] = {**rows[at], **winner.row()}
    frame = (
        pl.DataFrame(rows)
        .with_row_index("candidate", offset=1)
        .sort("win_per_100_hands", "candidate", descending=[True, False])
        .with_row_index("rank", offset=1)
    )
    first = ["rank", "candidate", "family", "top"]
    return frame.select(*first, *[c for c in frame.columns if c not in first]), winner


def tags_text(tags: Sequence[int]) -> str:
    """``A=0 2=0 ... K=0`` (for the report)."""
    return " ".join(f"{r}={t:+d}" if t else f"{r}=0" for r, t in zip(RANKS, tags, strict=True))
