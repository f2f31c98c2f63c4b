"""The card-guessing game with complete feedback: how many cards of a shuffled deck a guesser names correctly.

A deck in a known order (cards ``0..n-1`` from the top) is shuffled; the guesser names the top card, the card is
then shown and put aside, and so on to the last card.  On a uniformly shuffled deck every strategy that names an
unseen card scores ``1/m`` with ``m`` cards left, so the expectation is ``H_n = 1 + 1/2 + ... + 1/n`` (4.54 for
52 cards).  A deck that keeps traces of its earlier order scores more, which is the test Diaconis, Fulman &
Holmes (2013) used to show a manufacturer that one pass of a ten-shelf shuffler is not enough.

Strategies (:data:`STRATEGIES`):

``shelf``
    For a shelf shuffler, whose piles, read from the top, rise to the first card they received and then fall
    (:class:`~toolkit.dealing.shuffles.Shelf`): guess the lowest card first; after the first card shown, or
    after a rise, guess the lowest unseen card above the last one shown (else the highest unseen below it);
    after a fall, the highest unseen card below it (else the lowest unseen above).  It follows the rising and
    falling runs of each pile: the nearest unseen card in the direction of the last step, the strategy of the
    kind Diaconis, Fulman & Holmes (2013) conjectured optimal (their text of it was not consulted).  For 52 cards
    it is optimal: :func:`~toolkit.dealing.shuffles.shelf.shelf_guessing_exact` solves the game exactly and finds
    that this guess is a most likely next card in every state.  One pass of ten shelves: 9.2966 correct guesses
    on average, exactly (the paper's simulation printed 9.3; the "about 9.5" of summaries is above the optimum).
    For one shelf it scores ``3n/4``, the optimum proved by Clay (2025).
``riffle``
    For riffles: the cards left are interleaved runs of consecutive cards (rising sequences); guess the next
    card of the longest run left, i.e. among the unseen cards ``u`` whose predecessor ``u - 1`` has been seen
    (or ``u = 0``), the one starting the longest block of consecutive unseen cards (the lowest on ties).  It is
    our statement of the "guess the next card of the longest rising sequence" idea that Bayer & Diaconis
    (1992) discuss for guessing after riffles; their text was not consulted for its details.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

import numba
import numpy as np

from toolkit._check import positive_int
from toolkit._stats import normal_quantile
from toolkit.dealing.shuffles.models import Repeat, Shelf, ShuffleModel, check_shuffle_work, shuffle_orders
from toolkit.dealing.shuffles.shelf import MAX_EXACT_SHELF_CARDS, equivalent_shelves, shelf_guessing_exact
from toolkit.parallel import Block, SeedLike, block_plan, map_blocks

if TYPE_CHECKING:
    import polars as pl

__all__ = ["STRATEGIES", "guess_counts", "guessing_game", "uniform_expected_guesses"]

#: The guessing strategies, by name, and their kernel codes.
STRATEGIES = {"shelf": 0, "riffle": 1}
#: Decks dealt per block of the guessing game (each block seeded on its own).
GUESS_BLOCK = 2_000
#: The most trials one game plays.
MAX_TRIALS = 100_000_000


@numba.njit(cache=True)
def _shelf_guess(seen: np.ndarray, prev: int, rising: bool) -> int:  # pragma: no cover - compiled
    n = seen.shape[0]
    up = -1
    for v in range(prev + 1, n):
        if not seen[v]:
            up = v
            break
    down = -1
    for v in range(prev - 1, -1, -1):
        if not seen[v]:
            down = v
            break
    if rising:
        return up if up >= 0 else down
    return down if down >= 0 else up


@numba.njit(cache=True)
def _riffle_guess(seen: np.ndarray) -> int:  # pragma: no cover - compiled
    n = seen.shape[0]
    best, best_len = -1, 0
    v = 0
    while v < n:
        if seen[v]:
            v += 1
            continue
        start = v
        while v < n and not seen[v]:
            v += 1
        if v - start > best_len:  # a block of unseen cards starts just after a seen card (or at 0)
            best, best_len = start, v - start
    return best


@numba.njit(cache=True)
def _play(decks: np.ndarray, strategy: int) -> np.ndarray:  # pragma: no cover - compiled
    rows, n = decks.shape
    hits = np.zeros(rows, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    for i in range(rows):
        seen[:] = False
        prev, before = -1, -1
        for p in range(n):
            if strategy == 0:
                guess = 0
                if prev >= 0:
                    guess = _shelf_guess(seen, prev, before < 0 or prev > before)
                    guess = max(guess, 0)
            else:
                guess = _riffle_guess(seen)
            card = decks[i, p]
            if guess == card:
                hits[i] += 1
            seen[card] = True
            before, prev = prev, card
    return hits


def guess_counts(decks: np.ndarray, strategy: str = "riffle") -> np.ndarray:
    """Correct guesses of ``strategy`` on each shuffled deck (a row: a permutation of ``0..n-1`` from the top).

    Parameters
    ----------
    decks
        ``(rows, n)`` permutations of ``0..n-1``, each the shuffled order of a deck that was in order.
    strategy
        A name in :data:`STRATEGIES`.

    Returns
    -------
    numpy.ndarray
        int64 correct guesses, one a row.

    Examples
    --------
    >>> guess_counts(np.array([[0, 1, 2, 3], [3, 2, 1, 0]]), "shelf").tolist()
    [4, 3]
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    decks = np.atleast_2d(np.asarray(decks))
    n = decks.shape[1]
    if decks.size and not (np.sort(decks, axis=1) == np.arange(n)).all():
        raise ValueError("each deck must be a permutation of 0..n-1")
    return _play(decks.astype(np.int64), STRATEGIES[strategy])


def uniform_expected_guesses(cards: int) -> Fraction:
    """The expected correct guesses on a uniformly shuffled deck, with complete feedback: ``H_n = sum 1/k``.

    Parameters
    ----------
    cards
        Cards in the deck.

    Returns
    -------
    fractions.Fraction
        ``1 + 1/2 + ... + 1/cards``.

    Examples
    --------
    >>> round(float(uniform_expected_guesses(52)), 4)
    4.538
    """
    cards = positive_int(cards, "cards")
    return sum((Fraction(1, k) for k in range(1, cards + 1)), Fraction(0))


def _default_strategy(model: ShuffleModel) -> str:
    """``shelf`` for a shelf shuffler (or passes of one), else ``riffle``."""
    inner = model.model if isinstance(model, Repeat) else model
    return "shelf" if isinstance(inner, Shelf) else "riffle"


def _block_guesses(block: Block, model: ShuffleModel, cards: int, strategy: str) -> np.ndarray:
    decks = shuffle_orders(model, np.tile(np.arange(cards, dtype=np.int64), (block.n_shoes, 1)), block.rng())
    return guess_counts(decks, strategy)


def guessing_game(
    model: ShuffleModel,
    cards: int = 52,
    trials: int = 10_000,
    seed: SeedLike = None,
    strategy: str | None = None,
    *,
    workers: int | None = None,
    progress: bool = False,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Expected correct guesses after ``model`` shuffles a deck in order, by simulation, with its interval.

    Parameters
    ----------
    model
        The shuffle (see :mod:`toolkit.dealing.shuffles.models`).
    cards
        Distinct cards in the deck (52 as in the papers; 416 for eight decks).
    trials
        Decks shuffled and guessed.
    seed
        Anything :func:`toolkit.parallel.as_seed_sequence` takes; the result does not depend on ``workers``.
    strategy
        A name in :data:`STRATEGIES`; default ``shelf`` for a :class:`~toolkit.dealing.shuffles.Shelf` (or a
        :class:`~toolkit.dealing.shuffles.Repeat` of one), else ``riffle``.
    workers
        Local processes (``None``: every core).
    progress
        A progress bar on stderr.
    confidence
        Of the normal interval.

    Returns
    -------
    polars.DataFrame
        One row: ``model``, ``cards``, ``strategy``, ``trials``, ``expected_correct_guesses``,
        ``standard_error``, ``ci_low``, ``ci_high``, ``uniform_expected`` (``H_n``, exact), ``excess``
        (the expectation less ``H_n``) and ``exact_expected``: for passes through shelf shufflers with the
        ``shelf`` strategy on at most :data:`~toolkit.dealing.shuffles.shelf.MAX_EXACT_SHELF_CARDS` cards, the
        exact expectation (:func:`~toolkit.dealing.shuffles.shelf.shelf_guessing_exact`), else null.

    Examples
    --------
    >>> from toolkit.dealing.shuffles import Shelf
    >>> game = guessing_game(Shelf(10), trials=2000, seed=1, workers=1)
    >>> 9.0 < game["expected_correct_guesses"][0] < 9.6, round(game["exact_expected"][0], 4)
    (True, 9.2966)
    """
    import polars as pl

    cards = positive_int(cards, "cards")
    trials = positive_int(trials, "trials")
    if trials > MAX_TRIALS:
        raise ValueError(f"trials must be at most {MAX_TRIALS:,}, got {trials:,}")
    chosen = strategy if strategy is not None else _default_strategy(model)
    if chosen not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {chosen!r}")
    check_shuffle_work(model, trials, cards, "the guessing game")
    work = partial(_block_guesses, model=model, cards=cards, strategy=chosen)
    plan = block_plan(trials, GUESS_BLOCK, seed)
    hits = np.concatenate(list(map_blocks(work, plan, workers, progress=progress, description="decks")))
    mean = float(hits.mean())
    se = float(hits.std(ddof=1) / math.sqrt(trials)) if trials > 1 else math.nan
    z = normal_quantile(confidence)
    uniform = float(uniform_expected_guesses(cards))
    shelves = equivalent_shelves(model) if chosen == "shelf" and cards <= MAX_EXACT_SHELF_CARDS else None
    exact = shelf_guessing_exact(cards, shelves).expected if shelves is not None else None
    return pl.DataFrame(
        {
            "model": [repr(model)],
            "cards": [cards],
            "strategy": [chosen],
            "trials": [trials],
            "expected_correct_guesses": [mean],
            "standard_error": [se],
            "ci_low": [mean - z * se],
            "ci_high": [mean + z * se],
            "uniform_expected": [uniform],
            "excess": [mean - uniform],
            "exact_expected": [exact],
        },
        schema_overrides={"exact_expected": pl.Float64},
    )
