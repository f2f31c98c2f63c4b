"""The shelf shuffler in closed form, checked against brute force: the sampler's law, two passes, the distance to
uniform and the exact guessing game.

The oracles enumerate every draw of the sampler (each card's shelf and side: ``(2m)**n`` equally likely draws)
and every arrangement; nothing here is random.  The simulated games are compared with the exact values within
``Z = 4`` standard errors: a false failure about once in 16,000 runs each (seeded, so a checkout passes or fails
every time).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from toolkit.dealing.shuffles import (
    Repeat,
    Riffle,
    Shelf,
    _kernels,
    guess_counts,
    guessing_game,
    uniform_expected_guesses,
)
from toolkit.dealing.shuffles.shelf import (
    MAX_EXACT_SHELF_CARDS,
    equivalent_shelves,
    shelf_guessing_exact,
    shelf_probability,
    shelf_total_variation,
    shelf_total_variation_exact,
    valley_counts,
    valleys,
)

Z = 4.0
Law = dict[tuple[int, ...], Fraction]


@cache
def sampler_law(n: int, shelves: int, order: tuple[int, ...] | None = None) -> Law:
    """The law of one pass of the sampler's kernel, over all ``(2m)**n`` draws of shelf and side.

    ``order`` unloads the shelves in that order (shelf ``order[0]`` on top) instead of ``0, 1, ...``.
    """
    draws = np.array(list(itertools.product(range(2 * shelves), repeat=n)), dtype=np.int64)
    shelf, top = draws // 2, (draws % 2).astype(np.bool_)
    if order is not None:
        shelf = np.argsort(np.array(order))[shelf]  # shelf s is unloaded in place order.index(s)
    counts = Counter(map(tuple, _kernels.shelf_positions(shelf, top, shelves).tolist()))
    return {w: Fraction(c, (2 * shelves) ** n) for w, c in counts.items()}


def then(first: Law, second: Law) -> Law:
    """The law of ``first`` then ``second`` (the second pass moves the places of the deck the first one left)."""
    out: Counter[tuple[int, ...]] = Counter()
    for deck, p in first.items():
        for places, q in second.items():
            out[tuple(deck[i] for i in places)] += p * q
    return dict(out)


def formula_law(n: int, shelves: int) -> Law:
    return {w: shelf_probability(n, shelves, valleys(np.array(w))) for w in itertools.permutations(range(n))}


@pytest.mark.parametrize(("n", "shelves"), [(1, 1), (2, 3), (4, 1), (5, 2), (6, 2), (6, 3), (5, 4), (4, 6)])
def test_the_sampler_follows_theorem_3_1(n: int, shelves: int) -> None:
    """Diaconis, Fulman & Holmes (2013), Theorem 3.1, on the arrangement of the original places read from the top."""
    law = sampler_law(n, shelves)
    assert law == {w: p for w, p in formula_law(n, shelves).items() if p}
    assert sum(law.values()) == 1


def test_unloading_the_shelves_in_any_order_changes_nothing() -> None:
    """The paper's machine stacks the piles in a random order; the shelves are alike, so the law is the same."""
    base = sampler_law(5, 3)
    for order in itertools.permutations(range(3)):
        assert sampler_law(5, 3, order) == base


@pytest.mark.parametrize(("n", "first", "second"), [(4, 1, 1), (4, 2, 3), (5, 1, 2), (5, 2, 2)])
def test_two_passes_are_one_pass_through_2mm_shelves(n: int, first: int, second: int) -> None:
    """Corollary 4.2 of Diaconis, Fulman & Holmes (2013): m then m' shelves shuffle as 2 m m' shelves."""
    assert then(sampler_law(n, first), sampler_law(n, second)) == formula_law(n, 2 * first * second)


def test_equivalent_shelves() -> None:
    assert equivalent_shelves(Shelf(10)) == 10
    assert equivalent_shelves(Repeat(Shelf(10), 2)) == 200
    assert equivalent_shelves(Repeat(Shelf(3), 3)) == 2 * (2 * 3 * 3) * 3
    assert equivalent_shelves(Repeat(Repeat(Shelf(2), 2), 2)) == 2 * 8 * 8
    assert equivalent_shelves(Repeat(Shelf(10), 1000)) is None  # beyond the exact range
    assert equivalent_shelves(Repeat(Shelf(10), 0)) is None
    assert equivalent_shelves(Riffle(2)) is None


@pytest.mark.parametrize("n", range(1, 9))
def test_valley_counts_by_enumeration(n: int) -> None:
    counts = Counter(valleys(np.array(w)) for w in itertools.permutations(range(n)))
    assert valley_counts(n) == tuple(counts[v] for v in range((n - 1) // 2 + 1))


@pytest.mark.parametrize(("n", "shelves"), [(4, 1), (5, 2), (6, 3), (5, 4)])
def test_total_variation_by_enumeration(n: int, shelves: int) -> None:
    law, u = sampler_law(n, shelves), Fraction(1, math.factorial(n))
    brute = sum((abs(law.get(w, Fraction(0)) - u) for w in itertools.permutations(range(n))), Fraction(0)) / 2
    assert shelf_total_variation_exact(n, shelves) == brute


def test_total_variation_shrinks_with_the_shelves() -> None:
    tv = shelf_total_variation(52, (10, 20, 50, 100, 200, 300))["tv"].to_list()
    assert tv == sorted(tv, reverse=True)
    assert tv[0] > 0.999
    assert tv[-1] < 0.005


def enumerated_game(n: int, shelves: int) -> tuple[list[Fraction], Fraction]:
    """The law of the shelf strategy's score, and the best expected score, from every arrangement's chance.

    The best: with complete feedback, each guess is best made by the most likely next card given the cards shown,
    so the best expected score sums, over every sequence shown so far, the largest chance of a next card.
    """
    law = formula_law(n, shelves)
    perms = list(law)
    scores = guess_counts(np.array(perms), "shelf").tolist()
    score_law = [Fraction(0)] * (n + 1)
    for w, s in zip(perms, scores, strict=True):
        score_law[s] += law[w]
    prefixes: Counter[tuple[int, ...]] = Counter()
    for w, p in law.items():
        for t in range(1, n + 1):
            prefixes[w[:t]] += p
    best: dict[tuple[int, ...], Fraction] = {}
    for prefix, p in prefixes.items():
        best[prefix[:-1]] = max(best.get(prefix[:-1], Fraction(0)), p)
    return score_law, sum(best.values(), Fraction(0))


@pytest.mark.parametrize(("n", "shelves"), [(2, 1), (5, 1), (5, 2), (6, 2), (6, 3), (7, 2), (7, 3), (7, 8)])
def test_exact_game_against_enumeration(n: int, shelves: int) -> None:
    score_law, best = enumerated_game(n, shelves)
    shelf = shelf_guessing_exact(n, shelves, "shelf")
    optimal = shelf_guessing_exact(n, shelves, "optimal")
    assert shelf.distribution == pytest.approx([float(p) for p in score_law], abs=1e-13)
    assert optimal.expected == pytest.approx(float(best), abs=1e-12)
    assert optimal.distribution.sum() == pytest.approx(1, abs=1e-13)


@pytest.mark.parametrize("n", [2, 3, 10, 52, 101])
def test_one_shelf_scores_three_quarters_of_the_deck(n: int) -> None:
    """Clay (arXiv:2507.10294, 2025): the optimum with one shelf is 3n/4; Kuba (arXiv:2602.12928, 2026): its
    variance is n/16."""
    game = shelf_guessing_exact(n, 1, "optimal")
    assert game.expected == pytest.approx(3 * n / 4, abs=1e-9)
    if n >= 3:
        assert game.variance == pytest.approx(n / 16, abs=1e-9)
    assert shelf_guessing_exact(n, 1).expected == pytest.approx(game.expected, abs=1e-9)


def integer_table(n: int, shelves: int) -> list[list[list[list[int]]]]:
    """``table[r][j][d][v]``, as the module defines it but in exact integers (each chance times ``2 (2m)**n``)."""
    weights = [int(shelf_probability(n, shelves, v) * 2 * (2 * shelves) ** n) for v in range((n - 1) // 2 + 1)]
    classes = len(weights) + 1
    table = [[[[0] * classes for _ in range(2)]]]
    table[0][0][0][:-1] = weights
    table[0][0][1][:-1] = weights
    for r in range(1, n + 1):
        prev = table[r - 1]
        level = [[[0] * classes for _ in range(2)] for _ in range(r + 1)]
        for v in range(classes - 1):
            down = list(itertools.accumulate((prev[i][1][v] for i in range(r)), initial=0))  # sums over i < j
            up = [list(itertools.accumulate((prev[i][0][w] for i in reversed(range(r))), initial=0))[::-1]
                  for w in (v, v + 1)]  # fmt: skip
            for j in range(r + 1):
                level[j][0][v] = down[j] + up[0][j]  # up[.][j]: the sum over i >= j
                level[j][1][v] = down[j] + up[1][j]
        table.append(level)
    return table


def test_the_shelf_strategy_is_optimal_for_a_deck_and_ten_shelves() -> None:
    """In exact integers: in every state of the game of 52 cards after ten shelves, the shelf strategy's guess is
    a most likely next card.  So its expected score is the optimum (Diaconis, Fulman & Holmes conjectured it)."""
    n, shelves = 52, 10
    table = integer_table(n, shelves)
    for r in range(1, n + 1):
        for j in range(r + 1):
            for d in range(2):
                for v in range(len(table[0][0][0]) - 1):
                    if table[r][j][d][v] == 0:
                        continue
                    child = [table[r - 1][i][1][v] if i < j else table[r - 1][i][0][v + d] for i in range(r)]
                    guess = (j if j < r else r - 1) if d == 0 else (j - 1 if j > 0 else 0)
                    assert child[guess] == max(child), (r, j, d, v)


def test_exact_game_for_a_deck() -> None:
    """One pass of ten shelves, 52 cards: 9.2966 on average; Diaconis, Fulman & Holmes's simulation printed 9.3
    (see data/reference/shuffles.csv).  No guesser averages the 9.5 quoted in summaries of the paper."""
    shelf = shelf_guessing_exact(52, 10)
    optimal = shelf_guessing_exact(52, 10, "optimal")
    assert round(shelf.expected, 4) == 9.2966
    assert round(shelf.variance, 3) == 4.736
    assert optimal.expected == pytest.approx(shelf.expected, abs=1e-12)
    assert optimal.expected < 9.45
    uniform = shelf_guessing_exact(52, 10**12)
    assert uniform.expected == pytest.approx(float(uniform_expected_guesses(52)), abs=1e-9)


@pytest.mark.parametrize(("model", "shelves", "seed"), [(Shelf(10), 10, 3), (Repeat(Shelf(10), 2), 200, 5)])
def test_simulated_game_against_the_exact_one(model: Shelf | Repeat, shelves: int, seed: int) -> None:
    exact = shelf_guessing_exact(52, shelves)
    game = guessing_game(model, cards=52, trials=20_000, seed=seed).row(0, named=True)
    assert abs(game["expected_correct_guesses"] - exact.expected) < Z * game["standard_error"]
    assert game["standard_error"] == pytest.approx(math.sqrt(exact.variance / 20_000), rel=0.05)
    assert game["exact_expected"] == pytest.approx(exact.expected, abs=1e-12)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at most 128"):
        shelf_guessing_exact(MAX_EXACT_SHELF_CARDS + 1, 10)
    with pytest.raises(ValueError, match="strategy must be one of"):
        shelf_guessing_exact(10, 2, "riffle")
    with pytest.raises(ValueError, match="valleys must be"):
        shelf_probability(5, 2, 3)
    with pytest.raises(ValueError, match="shelves must be at most"):
        shelf_total_variation_exact(5, 10**13)
    with pytest.raises(ValueError, match="1-d"):
        valleys(np.zeros((2, 2)))
