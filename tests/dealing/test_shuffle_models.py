"""Shuffle models against slow, obviously correct oracles written here (no toolkit code in the oracles).

Each kernel is compared with a plain-Python loop fed the same random draws; each model's law is compared with
its exact law on a small deck, enumerated here by brute force, by a chi-squared goodness-of-fit test.  A
chi-squared test fails when p < 1e-4, so each fails falsely once in 10,000 runs (about 15 such tests here:
about 1 in 700 for the file; they are seeded, so a given checkout passes or fails every time).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats

from toolkit.dealing.shuffles import (
    AShuffle,
    Continuous,
    Cut,
    Overhand,
    Pile,
    Plug,
    Repeat,
    Riffle,
    Sequence,
    Shelf,
    Stacks,
    Wash,
    _kernels,
    riffle_shuffle,
    shuffle_orders,
)

#: A chi-squared test fails below this p-value: one false failure in 10,000.
ALPHA = 1e-4
SAMPLES = 40_000


# ----------------------------------------------------------------------------- independent oracles
def rises(order: tuple[int, ...]) -> int:
    """Rising sequences: 1 + the values v found after v + 1."""
    where = {card: i for i, card in enumerate(order)}
    return 1 + sum(where[v + 1] < where[v] for v in range(len(order) - 1))


def riffle_law(n: int, riffles: int) -> dict[tuple[int, ...], Fraction]:
    """The exact law of ``riffles`` GSR riffles of cards 0..n-1: every (cut, interleaving) pair has chance 2^-n."""
    law = {tuple(range(n)): Fraction(1)}
    for _ in range(riffles):
        after: dict[tuple[int, ...], Fraction] = Counter()
        for deck, p in law.items():
            for top in itertools.product((0, 1), repeat=n):  # which output places take the top packet
                cut = n - sum(top)
                a, b = list(deck[:cut]), list(deck[cut:])
                out = tuple(a.pop(0) if t == 0 else b.pop(0) for t in top)
                after[out] += p / 2**n
        law = dict(after)
    return law


def chi_squared(samples: np.ndarray, law: dict[tuple[int, ...], Fraction]) -> float:
    """p-value of the samples (rows) against the law; a permutation outside the law fails at once."""
    seen = Counter(map(tuple, samples.tolist()))
    assert set(seen) <= set(law), f"impossible orders drawn: {sorted(set(seen) - set(law))[:3]}"
    keys = sorted(law)
    observed = np.array([seen.get(k, 0) for k in keys], dtype=float)
    expected = np.array([float(law[k]) * len(samples) for k in keys])
    return float(scipy.stats.chisquare(observed, expected).pvalue)


def sample(model: object, n: int, seed: int = 1, rows: int = SAMPLES) -> np.ndarray:
    return shuffle_orders(model, np.tile(np.arange(n), (rows, 1)), seed=seed)  # type: ignore[arg-type]


def enumerate_law(n: int, choices: list[int], build) -> dict[tuple[int, ...], Fraction]:
    """The law of ``build(draws)`` when each draw ``i`` is uniform over ``range(choices[i])``, independently."""
    law: dict[tuple[int, ...], Fraction] = Counter()
    total = math.prod(choices)
    for draws in itertools.product(*(range(c) for c in choices)):
        law[tuple(build(list(draws)))] += Fraction(1, total)
    return dict(law)


# ----------------------------------------------------------------------------- riffles
@pytest.mark.parametrize(("n", "riffles"), [(5, 1), (5, 2), (5, 3), (6, 2)])
def test_riffles_follow_the_rising_sequence_law(n: int, riffles: int) -> None:
    """Bayer & Diaconis (1992): P(order) = C(n + a - r, n) / a^n with a = 2^riffles; samples grouped by r."""
    a = 2**riffles
    out = sample(Riffle(riffles), n, seed=n * 10 + riffles)
    counts = Counter(rises(tuple(row)) for row in out.tolist())
    eulerian = Counter(rises(p) for p in itertools.permutations(range(n)))
    law = {r: eulerian[r] * Fraction(math.comb(n + a - r, n), a**n) for r in eulerian}
    assert sum(law.values()) == 1
    rs = [r for r in sorted(law) if law[r] > 0]
    assert set(counts) <= set(rs)
    observed = [counts.get(r, 0) for r in rs]
    expected = [float(law[r]) * SAMPLES for r in rs]
    assert scipy.stats.chisquare(observed, expected).pvalue > ALPHA


@pytest.mark.parametrize("riffles", [1, 2])
def test_riffle_permutations_follow_the_brute_force_law(riffles: int) -> None:
    assert chi_squared(sample(Riffle(riffles), 5, seed=riffles), riffle_law(5, riffles)) > ALPHA


def test_an_a_shuffle_is_a_sequence_of_riffles_in_law() -> None:
    """A 4-shuffle has the law of two riffles (Bayer & Diaconis: an a-shuffle then a b-shuffle is an ab-shuffle)."""
    assert chi_squared(sample(AShuffle(4), 5, seed=3), riffle_law(5, 2)) > ALPHA


def test_riffle_shuffle_is_the_riffle_model() -> None:
    deck = np.tile(np.arange(13, dtype=np.int8).repeat(4), (3, 1))
    np.testing.assert_array_equal(riffle_shuffle(deck, 3, seed=5), shuffle_orders(Riffle(3), deck, seed=5))


# ----------------------------------------------------------------------------- the kernels against plain loops
def slow_interleave(digits: list[int], a: int) -> list[int]:
    packets, start = [], 0
    for j in range(a):
        size = digits.count(j)
        packets.append(list(range(start, start + size)))
        start += size
    return [packets[d].pop(0) for d in digits]


def slow_overhand(breaks: list[bool]) -> list[int]:
    packets, current = [], [0]
    for g, cut in enumerate(breaks):
        if cut:
            packets.append(current)
            current = []
        current.append(g + 1)
    packets.append(current)
    return [c for packet in reversed(packets) for c in packet]


def slow_shelf(shelves: list[int], tops: list[bool], k: int) -> list[int]:
    piles: list[list[int]] = [[] for _ in range(k)]
    n = len(shelves)
    for t in range(n):
        card = n - 1 - t  # dealt from the bottom
        if tops[t]:
            piles[shelves[t]].insert(0, card)
        else:
            piles[shelves[t]].append(card)
    return [c for pile in piles for c in pile]


def slow_continuous(slots: list[float], buffer: int) -> list[int]:
    held: list[int] = []
    out = []
    for t, u in enumerate(slots):
        held.insert(int(u * (len(held) + 1)), t)
        if len(held) > buffer:
            out.append(held.pop())
    while held:
        out.append(held.pop())
    return out


def slow_plug(start: int, n: int, plug: int) -> list[int]:
    rest, bottom = list(range(n - plug)), list(range(n - plug, n))
    return rest[:start] + bottom + rest[start:]


def slow_pile(n: int, k: int) -> list[int]:
    piles: list[list[int]] = [[] for _ in range(k)]
    for card in range(n):
        piles[card % k].insert(0, card)  # dealt face down: each card lands on top of its pile
    return [c for pile in piles for c in pile]


def test_kernels_equal_plain_loops_on_the_same_draws() -> None:
    gen = np.random.default_rng(7)
    for n in (1, 2, 7, 30):
        rows = 50
        digits = gen.integers(0, 5, size=(rows, n), dtype=np.uint8)
        perm = _kernels.interleave_by_digits(digits, 5)
        assert [slow_interleave(d, 5) for d in digits.tolist()] == perm.tolist()
        cuts = gen.integers(0, n + 1, size=rows)
        assert _kernels.cut_positions(cuts, n).tolist() == [[(p + c) % n for p in range(n)] for c in cuts.tolist()]
        breaks = gen.random((rows, n - 1)) < 0.3
        assert _kernels.overhand_positions(breaks).tolist() == [slow_overhand(b) for b in breaks.tolist()]
        shelves, tops = gen.integers(0, 3, size=(rows, n)), gen.random((rows, n)) < 0.5
        assert _kernels.shelf_positions(shelves, tops, 3).tolist() == [
            slow_shelf(s, t, 3) for s, t in zip(shelves.tolist(), tops.tolist(), strict=True)
        ]
        slots = gen.random((rows, n))
        for buffer in (0, 1, 4, n):
            got = _kernels.continuous_positions(slots, buffer).tolist()
            assert got == [slow_continuous(s, buffer) for s in slots.tolist()]
        plug = n // 3
        starts = gen.integers(0, n - plug + 1, size=rows)
        assert _kernels.plug_positions(starts, n, plug).tolist() == [slow_plug(s, n, plug) for s in starts.tolist()]
        for k in (1, 3, 4):
            assert shuffle_orders(Pile(k), np.arange(n)).tolist() == slow_pile(n, k)


# ----------------------------------------------------------------------------- each model's law, enumerated
def test_shelf_shuffler_law() -> None:
    """Each card: one of k shelves and top or bottom, 2k equally likely choices (n = 4, k = 2)."""
    n, k = 4, 2
    law = enumerate_law(n, [k] * n + [2] * n, lambda d: slow_shelf(d[:n], [b == 1 for b in d[n:]], k))
    assert chi_squared(sample(Shelf(k), n, seed=11), law) > ALPHA


def test_overhand_law() -> None:
    """Pemantle's overhand: each of the 3 gaps a cut with probability p = 0.3 (n = 4)."""
    n, p = 4, 0.3
    law: dict[tuple[int, ...], Fraction] = Counter()
    for breaks in itertools.product((False, True), repeat=n - 1):
        weight = math.prod(Fraction(3, 10) if b else Fraction(7, 10) for b in breaks)
        law[tuple(slow_overhand(list(breaks)))] += weight
    assert chi_squared(sample(Overhand(p), n, seed=12), dict(law)) > ALPHA


def test_continuous_shuffler_law() -> None:
    """Card t goes in at one of t + 1 (at most buffer + 1) gaps, uniformly (n = 5, buffer = 2)."""
    n, buffer = 5, 2
    sizes = [min(t, buffer) + 1 for t in range(n)]
    law = enumerate_law(
        n, sizes, lambda d: slow_continuous([(g + 0.5) / s for g, s in zip(d, sizes, strict=True)], buffer)
    )
    assert chi_squared(sample(Continuous(buffer), n, seed=13), law) > ALPHA


def test_cut_plug_wash_and_interleaved_stacks_laws() -> None:
    n = 5
    cut = {tuple((p + c) % n for p in range(n)): Fraction(math.comb(n, c), 2**n) for c in range(1, n)}
    cut[tuple(range(n))] = Fraction(2, 2**n)  # a cut of 0 or of n leaves the deck as it was
    assert chi_squared(sample(Cut(), n, seed=14), cut) > ALPHA
    plug = enumerate_law(n, [n - 1], lambda d: slow_plug(d[0], n, 2))  # Plug(0.4) of 5 cards: 2 cards, 4 places
    assert chi_squared(sample(Plug(0.4), n, seed=15), plug) > ALPHA
    uniform = {p: Fraction(1, 120) for p in itertools.permutations(range(n))}
    assert chi_squared(sample(Wash(), n, seed=16), uniform) > ALPHA
    # two stacks of 3 and 2, left in order and dropped together: each of the C(5, 2) interleavings equally likely
    interleavings = {
        tuple(slow_interleave(list(d), 2)): Fraction(1, 10) for d in set(itertools.permutations([0, 0, 0, 1, 1]))
    }
    assert chi_squared(sample(Stacks(2, merge="interleave"), n, seed=17), interleavings) > ALPHA


def test_stacks_shuffle_each_stack_on_its_own() -> None:
    out = sample(Stacks(3, Wash()), 10, seed=18, rows=200)
    for row in out.tolist():
        assert sorted(row[:4]) == [0, 1, 2, 3]
        assert sorted(row[4:7]) == [4, 5, 6]
        assert sorted(row[7:]) == [7, 8, 9]


MODELS = [
    Riffle(2),
    AShuffle(3),
    AShuffle(1000),
    Cut(),
    Overhand(0.2),
    Pile(5),
    Shelf(10),
    Continuous(7),
    Plug(0.3),
    Wash(),
    Stacks(4, Riffle(1), "interleave"),
    Sequence((Riffle(1), Overhand(0.1), Cut())),
    Repeat(Shelf(3), 2),
]


@pytest.mark.parametrize("model", MODELS, ids=repr)
def test_models_keep_the_cards_shape_and_dtype_and_repeat_from_a_seed(model: object) -> None:
    deck = np.tile(np.arange(13, dtype=np.int8).repeat(8), (20, 1))  # eight decks by rank: repeated values
    out = shuffle_orders(model, deck, seed=3)  # type: ignore[arg-type]
    assert out.shape == deck.shape
    assert out.dtype == deck.dtype
    np.testing.assert_array_equal(np.sort(out, axis=1), np.sort(deck, axis=1))
    np.testing.assert_array_equal(out, shuffle_orders(model, deck, seed=3))  # type: ignore[arg-type]
    single = shuffle_orders(model, np.arange(60, dtype=np.int16), seed=4)  # type: ignore[arg-type]
    assert single.shape == (60,)
    assert single.dtype == np.int16
    assert sorted(single.tolist()) == list(range(60))
    if not isinstance(model, Pile):
        assert not np.array_equal(out, shuffle_orders(model, deck, seed=5))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Riffle(-1), "Riffle times"),
        (lambda: AShuffle(0), "AShuffle a"),
        (lambda: Overhand(1.5), "Overhand p"),
        (lambda: Shelf(0), "Shelf shelves"),
        (lambda: Stacks(2, merge="sideways"), "merge"),
        (lambda: Sequence((Riffle(1), "riffle")), "Sequence step 2"),  # type: ignore[arg-type]
    ],
)
def test_bad_model_values_say_what_is_wrong(make, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        make()
