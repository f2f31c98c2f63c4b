"""The exact distance to uniform after riffles, the guessing game and the recipe files.

Published figures sit beside their sources.  The simulated guessing figures are compared with their targets
within ``Z = 4`` standard errors: a false failure about once in 16,000 runs each (seeded, so a checkout passes
or fails every time).
"""

from __future__ import annotations

import itertools
import math
import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from toolkit.dealing.shuffles import (
    Riffle,
    Sequence,
    Shelf,
    Wash,
    eulerian_numbers,
    guess_counts,
    guessing_game,
    model_from_name,
    read_recipe,
    rising_sequences,
    total_variation,
    total_variation_exact,
    uniform_expected_guesses,
)
from toolkit.dealing.shuffles.recipes import MAX_RECIPE_BYTES, parse_recipe

ROOT = Path(__file__).resolve().parents[2]
Z = 4.0

#: Bayer & Diaconis (1992), "Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2, p. 294 (the table
#: of total-variation distance for 52 cards after 1 to 10 riffles).
BAYER_DIACONIS_52 = [1.000, 1.000, 1.000, 1.000, 0.924, 0.614, 0.334, 0.167, 0.085, 0.043]


def brute_force_tv(n: int, riffles: int) -> Fraction:
    """TV to uniform, by the law of every (cut, interleaving) pair (each of chance 2^-n), riffle by riffle."""
    law = {tuple(range(n)): Fraction(1)}
    for _ in range(riffles):
        after: dict[tuple[int, ...], Fraction] = {}
        for deck, p in law.items():
            for top in itertools.product((0, 1), repeat=n):
                cut = n - sum(top)
                a, b = list(deck[:cut]), list(deck[cut:])
                out = tuple(a.pop(0) if t == 0 else b.pop(0) for t in top)
                after[out] = after.get(out, Fraction(0)) + p / 2**n
        law = after
    u = Fraction(1, math.factorial(n))
    return sum((abs(law.get(p, Fraction(0)) - u) for p in itertools.permutations(range(n))), Fraction(0)) / 2


def test_bayer_diaconis_table_for_52_cards() -> None:
    assert [round(x, 3) for x in total_variation(52, 10)["tv"].to_list()] == BAYER_DIACONIS_52


@pytest.mark.parametrize(("n", "riffles"), [(3, 1), (4, 1), (4, 2), (5, 2), (6, 3)])
def test_exact_tv_equals_brute_force(n: int, riffles: int) -> None:
    assert total_variation_exact(n, riffles) == brute_force_tv(n, riffles)


def test_eulerian_numbers_count_permutations_by_rising_sequences() -> None:
    for n in range(1, 7):
        counts = [0] * n
        for p in itertools.permutations(range(n)):
            counts[rising_sequences(np.array(p)) - 1] += 1
        assert list(eulerian_numbers(n)) == counts
    assert sum(eulerian_numbers(416)) == math.factorial(416)


def test_eight_deck_table_falls_with_riffles() -> None:
    """416 cards: no published table; the distance falls below 1/2 only at 11 riffles (52 cards: 7)."""
    tv = total_variation(416, range(8, 16))["tv"].to_list()
    assert all(a > b for a, b in itertools.pairwise(tv))
    assert tv[2] > 0.5 > tv[3]  # rows from 8 riffles: 10 riffles above 1/2, 11 below
    assert float(total_variation_exact(416, 14)) < 0.1 < float(total_variation_exact(416, 13))


# ----------------------------------------------------------------------------- the guessing game
def slow_guesses(deck: list[int], strategy: str) -> int:
    """The two strategies, written out plainly (see toolkit.dealing.shuffles.guessing)."""
    n, seen, hits, shown = len(deck), set(), 0, []
    for card in deck:
        unseen = [c for c in range(n) if c not in seen]
        if strategy == "riffle":
            heads = [u for u in unseen if u == 0 or u - 1 in seen]
            run = {u: next(k for k in range(u, n + 1) if k == n or k in seen) - u for u in heads}
            guess = max(heads, key=lambda u: (run[u], -u))
        elif not shown:
            guess = 0
        else:
            prev = shown[-1]
            up = [c for c in unseen if c > prev]
            down = [c for c in unseen if c < prev]
            rising = len(shown) == 1 or prev > shown[-2]
            first, second = (up, down) if rising else (down, up)
            guess = (min(first) if rising else max(first)) if first else (max(second) if rising else min(second))
        hits += guess == card
        seen.add(card)
        shown.append(card)
    return hits


@pytest.mark.parametrize("strategy", ["shelf", "riffle"])
def test_guess_kernel_equals_the_plain_strategy(strategy: str) -> None:
    gen = np.random.default_rng(2)
    decks = np.array([gen.permutation(12) for _ in range(300)])
    decks[:100] = np.sort(decks[:100], axis=1)[:, ::-1]  # some decks reversed, some riffled, some uniform
    from toolkit.dealing.shuffles import shuffle_orders

    decks[100:200] = shuffle_orders(Shelf(3) if strategy == "shelf" else Riffle(1), np.tile(np.arange(12), (100, 1)), 3)
    assert guess_counts(decks, strategy).tolist() == [slow_guesses(d, strategy) for d in decks.tolist()]


def test_uniform_deck_scores_the_harmonic_number() -> None:
    """Any strategy naming an unseen card scores H_n on a uniform deck (exact: 4.5380 for 52 cards)."""
    assert uniform_expected_guesses(52) == sum(Fraction(1, k) for k in range(1, 53))
    game = guessing_game(Wash(), cards=52, trials=20_000, seed=1).row(0, named=True)
    assert abs(game["expected_correct_guesses"] - float(uniform_expected_guesses(52))) < Z * game["standard_error"]


def test_single_shelf_scores_three_quarters_of_the_deck() -> None:
    """One shelf, complete feedback: the optimal strategy scores 3n/4 (Clay, "Guessing strategies for
    shelf-shuffling machines", arXiv:2507.10294 (2025); Kuba, "On card guessing after a single shelf shuffle",
    arXiv:2602.12928 (2026): E = 3n/4, Var = n/16).  Ours reaches it."""
    game = guessing_game(Shelf(1), cards=52, trials=10_000, seed=2).row(0, named=True)
    assert abs(game["expected_correct_guesses"] - 39) < Z * game["standard_error"]
    assert game["standard_error"] == pytest.approx(math.sqrt(52 / 16 / 10_000), rel=0.1)


def test_ten_shelf_shuffler_against_diaconis_fulman_holmes() -> None:
    """Diaconis, Fulman & Holmes (2013), Ann. Appl. Probab. 23, 1692-1720: one pass of 10 shelves on 52 cards;
    their simulation printed 9.3 correct guesses (Table 2, 10,000 decks, as transcribed in
    data/reference/shuffles.csv), against H_52 = 4.54.  Ours is within Z standard errors of both simulations,
    plus the printed half unit (0.05), of it, and within Z of the exact 9.2966 (tests/dealing/test_shelf_exact.py).
    """
    game = guessing_game(Shelf(10), cards=52, trials=20_000, seed=3).row(0, named=True)
    mean, se = game["expected_correct_guesses"], game["standard_error"]
    theirs = math.sqrt(4.7 / 10_000)  # the standard error of their 10,000 decks, from their variance 4.7
    assert abs(mean - 9.3) < Z * math.hypot(se, theirs) + 0.05
    assert abs(mean - game["exact_expected"]) < Z * se
    assert game["ci_low"] < mean < game["ci_high"]


def test_guessing_game_repeats_from_a_seed_whatever_the_workers() -> None:
    a = guessing_game(Riffle(2), cards=30, trials=3000, seed=4)
    b = guessing_game(Riffle(2), cards=30, trials=3000, seed=4, workers=2)
    assert a.equals(b)
    assert a["strategy"][0] == "riffle"
    assert a["expected_correct_guesses"][0] > 5


# ----------------------------------------------------------------------------- recipes
@pytest.mark.parametrize("name", ["eight-deck-washed.toml", "eight-deck-no-wash.toml"])
def test_shipped_recipes_read(name: str) -> None:
    recipe = read_recipe(ROOT / "data" / "shuffles" / name)
    assert recipe.cards == 416
    assert "illustrative" in recipe.name
    assert recipe.source
    assert isinstance(recipe.model, Sequence)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "x"\nsteps = 3', "steps: give at least one step"),
        ('name = "x"\ncolour = "red"\n[[steps]]\nkind = "wash"', "colour: unknown key"),
        ('name = "x"\n[[steps]]\nkind = "juggle"', r"steps\[1\]\.kind: must be one of"),
        ('name = "x"\n[[steps]]\nkind = "riffle"\ntimes = "two"', r"steps\[1\]\.times: must be a whole number"),
        ('name = "x"\n[[steps]]\nkind = "riffle"\ntimes = -1', r"steps\[1\]\.times: Riffle times"),
        ('name = "x"\n[[steps]]\nkind = "strip"\np = 2.0', r"steps\[1\]\.p: Overhand p must be in"),
        ('name = "x"\n[[steps]]\nkind = "wash"\ntimes = 2', r"steps\[1\]\.times: unknown key for a 'wash' step"),
        (
            'name = "x"\n[[steps]]\nkind = "stacks"\n[[steps.steps]]\nkind = "riffle"\nlots = 1',
            r"steps\[1\]\.steps\[1\]\.lots: unknown key",
        ),
        ('name = "x"\n[[steps]]\nkind = "stacks"\nmerge = "fold"\n[[steps.steps]]\nkind = "cut"', r"\.merge: must"),
        ('name = "x"\ncards = 0\n[[steps]]\nkind = "wash"', "cards: must be a whole number"),
        ('[[steps]]\nkind = "wash"', "name: must be a non-empty string"),
        ('name = "x"\n[[steps]\nkind = "wash"', "not valid TOML"),
    ],
)
def test_bad_recipes_give_one_located_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as err:
        read_recipe(path)
    assert str(err.value).startswith(f"{path}: ")
    assert "\n" not in str(err.value)


def test_recipes_are_bounded_and_nested_steps_limited(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text('name = "x"\n' + "#" * MAX_RECIPE_BYTES)
    with pytest.raises(ValueError, match=r"big\.toml"):
        read_recipe(big)
    deep = 'name = "x"\n' + "".join(f'[[{".".join(["steps"] * d)}]]\nkind = "repeat"\n' for d in range(1, 7))
    with pytest.raises(ValueError, match="nested more than"):
        parse_recipe(deep, "deep.toml")
    if os.path.exists("/dev/zero"):
        with pytest.raises(ValueError, match="regular file"):
            read_recipe("/dev/zero")


def test_model_names() -> None:
    assert model_from_name("riffle:3") == Riffle(3)
    assert model_from_name("shelf") == Shelf(10)
    for bad, message in (("shelf:x", "whole number"), ("wash:2", "takes no value"), ("shelf:0", "Shelf shelves")):
        with pytest.raises(ValueError, match=message):
            model_from_name(bad)
