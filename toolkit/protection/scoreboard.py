"""What the scoreboard gives away: the unseen cards given only the bead road (winner, pairs, naturals), and their worth.

A scoreboard shows, for each coup, a *symbol*: the winner, whether Player and
Banker were dealt pairs, and whether the coup was a natural (24 symbols).  Given
the symbols of the coups so far, the cards dealt are unknown, but not uniformly
so: a run of naturals means eights and nines have gone.  The **posterior** over
the unseen composition is computed two ways:

* :func:`exact_posterior`: every coup the remaining cards could deal, rank by rank
  (Player, Banker, Player, Banker, then the third cards by the tableau), kept when
  it shows the symbol recorded; exact, for small shoes;
* :func:`sis_posterior`: sequential importance sampling.  Each particle is a
  composition; at each coup its weight is multiplied by the exact probability of
  the recorded symbol under it (the engine's class probabilities summed by symbol,
  :func:`symbol_probabilities`), and a coup is drawn from it *conditioned on* the
  symbol (by rejection), so every particle stays consistent with the road;
  particles are resampled (systematically) when the effective sample size falls
  below half.

:func:`scoreboard_leak` asks what the scoreboard is worth to a counter: over
simulated shoes, the exact edge of a bet before each coup is regressed (least
squares, on half of the shoes) on the road's tallies so far (each symbol's count,
per deck left), and a *scoreboard counter* bets one unit when the fitted edge is
positive; a *card counter* who saw every card bets when the exact edge is.  Both
are scored on the other half by the exact edges of the coups they bet.  The
regression is one scoreboard strategy, so its win is a lower bound on what the
scoreboard can give.

References
----------
A. Doucet, N. de Freitas and N. Gordon (eds.), *Sequential Monte Carlo Methods in Practice*, Springer (2001),
ch. 1 (sequential importance sampling with resampling); J. Carpenter, P. Clifford and P. Fearnhead, "Improved
particle filter for nonlinear problems", *IEE Proc. Radar Sonar Navig.* 146 (1999) 2-7 (systematic resampling).

>>> tiny = (2, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 0)  # 12 cards: A, 4, 5, 8, 9, T
>>> posterior = exact_posterior(tiny, [("banker", False, False, True)])
>>> round(sum(posterior.values()), 12)
1.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache

import numpy as np
import polars as pl

from toolkit import PUNTO_BANCO, PayTable, Tableau, expected_values, outcome_frame
from toolkit.coup.step import (
    BANKER_DRAWS,
    BOTH_DRAW,
    PLAYER_DRAWS,
    Tables,
    coup_layout,
    coup_layouts,
    hand_totals,
    is_natural,
)
from toolkit.parallel import SeedLike, as_generator
from toolkit.records import Records, replay_records

__all__ = ["SYMBOLS", "exact_posterior", "scoreboard_leak", "sis_posterior", "symbol_index", "symbol_probabilities"]

#: The scoreboard's symbols: ``(winner, player_pair, banker_pair, natural)``.
SYMBOLS: tuple[tuple[str, bool, bool, bool], ...] = tuple(
    (w, pp, bp, nat)
    for w in ("banker", "player", "tie")
    for pp in (False, True)
    for bp in (False, True)
    for nat in (False, True)
)
_INDEX = {s: i for i, s in enumerate(SYMBOLS)}
#: Card value of each rank index.
_VALUES = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0])
_VALUE = tuple(int(v) for v in _VALUES)


def symbol_index(symbol: Sequence[object]) -> int:
    """The index of ``(winner, player_pair, banker_pair, natural)`` in :data:`SYMBOLS`; ValueError naming it."""
    key: tuple = tuple(symbol)
    if len(key) != 4 or key not in _INDEX:
        raise ValueError(f"a scoreboard symbol is (winner, player_pair, banker_pair, natural), got {symbol!r}")
    return _INDEX[key]


@cache
def _symbol_bets() -> tuple[PayTable, ...]:
    frame = outcome_frame()
    natural = (pl.col("player_cards") == 2) & (pl.col("banker_cards") == 2) & pl.col("natural")
    keys = frame.select("winner", "player_pair", "banker_pair", natural.alias("nat")).rows()
    of = [_INDEX[k] for k in keys]
    return tuple(PayTable(f"symbol_{i}", tuple(Fraction(int(s == i)) for s in of)) for i in range(len(SYMBOLS)))


def symbol_probabilities(unseen: np.ndarray, tableau: Tableau = PUNTO_BANCO) -> np.ndarray:
    """``(n, 24)``: the probability of each symbol of the next coup, for each of ``n`` compositions by rank."""
    return expected_values(np.atleast_2d(unseen), _symbol_bets(), tableau)


# --------------------------------------------------------------------------- exact, small shoes
def _coups(comp: tuple[int, ...], tableau: Tableau) -> Iterable[tuple[tuple[int, ...], float, int]]:
    """Every coup ``comp`` can deal: the cards it takes (by rank), its probability and its symbol."""
    total = sum(comp)

    def draw(left: tuple[int, ...], n: int):
        for r in range(13):
            if left[r]:
                yield r, left[r] / n, (*left[:r], left[r] - 1, *left[r + 1 :])

    for p1, q1, c1 in draw(comp, total):
        for b1, q2, c2 in draw(c1, total - 1):
            for p2, q3, c3 in draw(c2, total - 2):
                for b2, q4, c4 in draw(c3, total - 3):
                    yield from _third_cards((p1, p2), (b1, b2), c4, total - 4, q1 * q2 * q3 * q4, comp, tableau, draw)


def _third_cards(player, banker, left, n, q, comp, tableau, draw):
    masks = Tables.of(tableau)
    first = (_VALUE[player[0]], _VALUE[banker[0]], _VALUE[player[1]], _VALUE[banker[1]])
    pt, bt = hand_totals(*first)
    natural = bool(is_natural(pt, bt))
    pair = (player[0] == player[1], banker[0] == banker[1])

    def banker_draws(hand: tuple[int, ...]) -> bool:  # by the coup step, given Player's hand
        layout = coup_layout(*first, _VALUE[hand[2]] if len(hand) == 3 else 0, masks)  # type: ignore[call-arg]
        return layout in ((BOTH_DRAW,) if len(hand) == 3 else (BANKER_DRAWS,))

    options = [(player, banker, left, q)]
    if coup_layout(*first, 0, masks) in (PLAYER_DRAWS, BOTH_DRAW):
        options = [((*player, r), banker, c, q * w) for r, w, c in draw(left, n)]
    out = []
    for hand, bank, c, w in options:
        if banker_draws(hand):
            out += [(hand, (*bank, r), c2, w * w2) for r, w2, c2 in draw(c, n - (len(hand) - 2))]
        else:
            out.append((hand, bank, c, w))
    for hand, bank, c, w in out:
        p, b = sum(_VALUE[c] for c in hand) % 10, sum(_VALUE[c] for c in bank) % 10
        winner = "player" if p > b else "banker" if b > p else "tie"
        removed = tuple(x - y for x, y in zip(comp, c, strict=True))
        yield removed, w, _INDEX[(winner, pair[0], pair[1], natural)]


@cache
def _after(comp: tuple[int, ...], tableau: Tableau) -> dict[int, dict[tuple[int, ...], float]]:
    """By symbol: the compositions one coup from ``comp`` can leave, with their probabilities."""
    out: dict[int, dict[tuple[int, ...], float]] = {}
    for removed, q, s in _coups(comp, tableau):
        key = tuple(a - b for a, b in zip(comp, removed, strict=True))
        table = out.setdefault(s, {})
        table[key] = table.get(key, 0.0) + q
    return out


def exact_posterior(
    composition: Sequence[int], road: Sequence[Sequence[object]], tableau: Tableau = PUNTO_BANCO
) -> dict[tuple[int, ...], float]:
    """The exact posterior over the unseen cards (by rank) after the coups of ``road`` (symbols), for small shoes.

    Parameters
    ----------
    composition
        13 counts by rank of the cards before the first coup of the road.
    road
        The symbols shown, ``(winner, player_pair, banker_pair, natural)`` per coup.
    tableau
        Drawing rules.

    Returns
    -------
    dict
        Composition (13 counts) to probability.
    """
    state = {tuple(int(c) for c in composition): 1.0}
    for symbol in road:
        target = symbol_index(symbol)
        nxt: dict[tuple[int, ...], float] = {}
        for comp, p in state.items():
            if sum(comp) < 6:
                raise ValueError(f"the road has more coups than {sum(composition)} cards can deal")
            for key, q in _after(comp, tableau).get(target, {}).items():
                nxt[key] = nxt.get(key, 0.0) + p * q
        total = sum(nxt.values())
        if total == 0:
            raise ValueError(f"no deal of these cards shows the road's symbols (stopped at {symbol!r})")
        state = {k: v / total for k, v in nxt.items()}
    return state


# --------------------------------------------------------------------------- sequential importance sampling
def _deal(left: np.ndarray, gen: np.random.Generator, tableau: Tableau) -> tuple[np.ndarray, np.ndarray]:
    """One coup from each row of ``left`` (counts by rank): the cards it takes (by rank) and its symbol."""
    n = len(left)
    left = left.copy()
    cards = np.empty((n, 6), dtype=np.int64)
    rows = np.arange(n)
    for j in range(6):
        cum = np.cumsum(left, axis=1)
        u = gen.random(n) * cum[:, -1]
        cards[:, j] = np.argmax(cum > u[:, None], axis=1)
        left[rows, cards[:, j]] -= 1
    v = _VALUES[cards]
    layout, pt, bt = coup_layouts(v[:, 0], v[:, 1], v[:, 2], v[:, 3], v[:, 4], Tables.of(tableau))
    natural = (pt >= 8) | (bt >= 8)
    p_draws = np.isin(layout, (PLAYER_DRAWS, BOTH_DRAW))
    b_draws = np.isin(layout, (BANKER_DRAWS, BOTH_DRAW))
    b_card = np.where(p_draws, 5, 4)
    pt_final = np.where(p_draws, (pt + v[:, 4]) % 10, pt)
    bt_final = np.where(b_draws, (bt + v[rows, b_card]) % 10, bt)
    used = 4 + p_draws + b_draws
    taken = np.zeros((n, 13), dtype=np.int64)
    for j in range(6):
        np.add.at(taken, (rows[used > j], cards[used > j, j]), 1)
    winner = np.where(pt_final > bt_final, 1, np.where(bt_final > pt_final, 0, 2))
    symbol = winner * 8 + (cards[:, 0] == cards[:, 2]) * 4 + (cards[:, 1] == cards[:, 3]) * 2 + natural
    return taken, symbol


def _conditioned(comps: np.ndarray, target: int, gen: np.random.Generator, tableau: Tableau) -> np.ndarray:
    """Each composition less one coup drawn from it *given* that the coup shows ``target`` (by rejection)."""
    out = comps.copy()
    pending = np.arange(len(comps))
    tries = 8
    for _ in range(10_000):
        if not len(pending):
            return out
        rows = np.repeat(pending, tries)
        taken, symbol = _deal(comps[rows], gen, tableau)
        hit = symbol == target
        first: dict[int, int] = {}
        for i in np.flatnonzero(hit):
            first.setdefault(int(rows[i]), int(i))
        for row, at in first.items():
            out[row] = comps[row] - taken[at]
        pending = np.array([r for r in pending if int(r) not in first], dtype=np.int64)
        tries = min(tries * 2, 4096)
    raise ValueError(f"could not deal symbol {SYMBOLS[target]} from {len(pending)} particle(s)")


def sis_posterior(
    composition: Sequence[int],
    road: Sequence[Sequence[object]],
    particles: int = 2000,
    seed: SeedLike = None,
    tableau: Tableau = PUNTO_BANCO,
) -> tuple[np.ndarray, np.ndarray]:
    """The posterior over the unseen cards after ``road``, by sequential importance sampling (module notes).

    Parameters
    ----------
    composition
        13 counts by rank before the first coup of the road.
    road
        The symbols shown, ``(winner, player_pair, banker_pair, natural)`` per coup.
    particles
        Compositions carried.
    seed
        Where the draws come from.
    tableau
        Drawing rules.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``(particles, 13)`` compositions and their weights (summing to 1).
    """
    gen = as_generator(seed)
    comps = np.tile(np.asarray(composition, dtype=np.int64), (int(particles), 1))
    logw = np.zeros(len(comps))
    for symbol in road:
        target = symbol_index(symbol)
        if comps.sum(axis=1).min() < 6:
            raise ValueError(f"the road has more coups than {sum(composition)} cards can deal")
        p = symbol_probabilities(comps, tableau)[:, target]
        alive = p > 0
        if not alive.any():
            raise ValueError(f"no particle can show the road's symbol {symbol!r}")
        logw = np.where(alive, logw + np.log(np.where(alive, p, 1.0)), -np.inf)
        comps[alive] = _conditioned(comps[alive], target, gen, tableau)
        w = np.exp(logw - logw.max())
        if w.sum() ** 2 / (w**2).sum() < len(w) / 2:  # systematic resampling
            cum = np.cumsum(w / w.sum())
            picks = np.searchsorted(cum, (gen.random() + np.arange(len(w))) / len(w))
            comps, logw = comps[np.minimum(picks, len(w) - 1)], np.zeros(len(w))
    w = np.exp(logw - logw.max())
    return comps, w / w.sum()


# --------------------------------------------------------------------------- what the scoreboard is worth
def _tallies(frame: pl.DataFrame) -> np.ndarray:
    """Each symbol's count over the coups before each coup of its shoe, per deck left (a scoreboard's counts)."""
    natural = (pl.col("player").list.len() == 2) & (pl.col("banker").list.len() == 2) & pl.col("natural")
    keys = frame.select("winner", "player_pair", "banker_pair", natural.alias("nat")).rows()
    shown = np.zeros((frame.height, len(SYMBOLS)))
    shown[np.arange(frame.height), [_INDEX[k] for k in keys]] = 1
    shoe = frame["shoe"].to_numpy()
    start = np.r_[True, shoe[1:] != shoe[:-1]]
    before = np.cumsum(shown, axis=0) - shown
    firsts = np.maximum.accumulate(np.where(start, np.arange(frame.height), 0))
    before = before - (np.cumsum(shown, axis=0) - shown)[firsts]
    return before / (frame["cards_left"].to_numpy()[:, None] / 52)


def scoreboard_leak(
    records: Records, bets: Sequence[str] = ("banker", "player", "tie", "dragon7", "panda8")
) -> pl.DataFrame:
    """What a counter who sees only the scoreboard could win on each bet, against one who sees every card.

    The shoes are split in two halves (first and second); the scoreboard counter's
    regression is fitted on the first and both counters are scored on the second (module notes).

    Returns
    -------
    polars.DataFrame
        ``bet, shoes, scoreboard_per_shoe, cards_per_shoe, share, scoreboard_bets, card_bets``: expected
        units won per shoe betting one unit whenever the fitted (or the exact) edge is positive, the
        scoreboard's share of the card counter's win, and the bets per shoe of each.
    """
    frame = replay_records(records, bets=list(bets))
    x = np.column_stack([np.ones(frame.height), _tallies(frame)])
    shoe_row = np.searchsorted(records.shoes["shoe"].to_numpy(), frame["shoe"].to_numpy())
    train, test = shoe_row < records.n_shoes // 2, shoe_row >= records.n_shoes // 2
    tested = records.n_shoes - records.n_shoes // 2
    rows = []
    for bet in bets:
        ev = frame[f"ev_{bet}"].to_numpy()
        ok = ~np.isnan(ev)
        fit = np.linalg.pinv(x[train & ok].T @ x[train & ok]) @ (x[train & ok].T @ ev[train & ok])
        scored = test & ok
        guess = x[scored] @ fit
        board, cards = ev[scored][guess > 0], ev[scored][ev[scored] > 0]
        rows.append(
            {
                "bet": bet,
                "shoes": tested,
                "scoreboard_per_shoe": float(board.sum() / tested),
                "cards_per_shoe": float(cards.sum() / tested),
                "share": float(board.sum() / cards.sum()) if cards.sum() > 0 else None,
                "scoreboard_bets": len(board) / tested,
                "card_bets": len(cards) / tested,
            }
        )
    return pl.DataFrame(rows)
