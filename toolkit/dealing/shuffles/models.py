"""Shuffle models: frozen values with ``apply(orders, gen)``, composable, sampled by compiled kernels.

A model shuffles ``(n, cards)`` card orders (a row is an order from the top: index 0 is the top card) and returns
the shuffled orders, same shape and dtype.  :func:`shuffle_orders` is the entry point that takes a seed and a
single order or many.  Every model draws its random numbers in bulk from the :class:`numpy.random.Generator` it
is given, a block of rows at a time, so a result depends on the seed only.

==================  ===============================================================================================
model               what it does
==================  ===============================================================================================
:class:`Riffle`     ``times`` Gilbert-Shannon-Reeds riffles (binomial cut, drops proportional to packet sizes)
:class:`AShuffle`   one a-shuffle: multinomial cut into ``a`` packets, every interleaving equally likely
:class:`Cut`        one binomial cut: the top ``Binomial(cards, 1/2)`` cards go to the bottom
:class:`Overhand`   Pemantle's overhand (strip): each gap a cut with probability ``p``, the packets reversed in order
:class:`Pile`       dealt round-robin into ``piles`` face-down piles, stacked pile 0 on top (no randomness)
:class:`Shelf`      a shelf shuffler with ``shelves`` shelves (Diaconis, Fulman & Holmes 2013)
:class:`Continuous` a continuous shuffler holding ``buffer`` cards (random insertion, dealt from the bottom)
:class:`Plug`       the bottom ``fraction`` of the cards put back at a uniform place among the others
:class:`Wash`       a uniform random permutation
:class:`Stacks`     break into ``stacks`` equal stacks, shuffle each by ``step``, then stack or interleave them
:class:`Sequence`   the ``steps`` one after another
:class:`Repeat`     ``model`` ``times`` times (passes)
==================  ===============================================================================================

References
----------
Bayer & Diaconis, "Trailing the dovetail shuffle to its lair", *Ann. Appl. Probab.* 2 (1992) 294-313 (riffles,
a-shuffles).  Pemantle, "Randomization time for the overhand shuffle", *J. Theor. Probab.* 2 (1989) 37-49.
Diaconis, Fulman & Holmes, "Analysis of casino shelf shuffling machines", *Ann. Appl. Probab.* 23 (2013)
1692-1720.

>>> out = shuffle_orders(Sequence((Riffle(3), Cut())), np.arange(52), seed=1)
>>> sorted(out.tolist()) == list(range(52))
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from toolkit._check import non_negative_int, positive_int
from toolkit.dealing.shuffles import _kernels
from toolkit.parallel import SeedLike, as_generator

__all__ = [
    "AShuffle",
    "Continuous",
    "Cut",
    "Overhand",
    "Pile",
    "Plug",
    "Repeat",
    "Riffle",
    "Sequence",
    "Shelf",
    "ShuffleModel",
    "Stacks",
    "Wash",
    "card_passes",
    "check_shuffle_work",
    "shuffle_orders",
]

#: Random numbers drawn at once (rows x cards): a block of rows keeps the memory flat for big runs.
BLOCK_CELLS = 1 << 22
#: The most packets of an a-shuffle (digits are drawn as 32-bit integers).
MAX_PACKETS = 2**31 - 1
#: The most riffles of one model: far past the seven that mix a deck and the eleven that mix eight (a
#: 2**64-shuffle of 2,000 cards is within 1e-12 of uniform), and each riffle is a pass over the cards.
MAX_RIFFLES = 64
#: The most passes of :class:`Repeat`, and the most piles, shelves, stacks or buffer places of one model.
MAX_REPEATS = 10_000
MAX_PARTS = 100_000


def _at_most(value: int, most: int, where: str) -> int:
    if value > most:
        raise ValueError(f"{where} must be at most {most:,}, got {value:,}")
    return value


@runtime_checkable
class ShuffleModel(Protocol):
    """What a shuffle model is: a frozen value with ``apply(orders, gen)``.

    ``apply`` takes ``(n, cards)`` orders (any integer dtype, index 0 the top card) and a generator and returns the
    shuffled orders, same shape and dtype.
    """

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The shuffled orders."""
        ...


def _blocks(rows: int, cards: int) -> Iterator[slice]:
    step = max(1, BLOCK_CELLS // max(cards, 1))
    for start in range(0, rows, step):
        yield slice(start, min(rows, start + step))


def _permute(orders: np.ndarray, perm: np.ndarray) -> np.ndarray:
    return np.take_along_axis(orders, perm, axis=1)


def _check_orders(orders: np.ndarray) -> np.ndarray:
    if orders.ndim != 2:
        raise ValueError(f"orders must be (n, cards), got shape {orders.shape}")
    if not np.issubdtype(orders.dtype, np.integer):
        raise TypeError(f"orders must hold integer card codes, got dtype {orders.dtype}")
    return orders


def _fraction(value: object, where: str, *, closed: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{where} must be a number, got {value!r}")
    x = float(value)
    if not (0.0 <= x <= 1.0) or (not closed and x in (0.0, 1.0)) or math.isnan(x):
        bounds = "[0, 1]" if closed else "(0, 1)"
        raise ValueError(f"{where} must be in {bounds}, got {value!r}")
    return x


#: The most packets whose sizes the interleaving kernel counts in a table of its own (``a + 1`` integers); an
#: a-shuffle of more packets sorts its digits instead (the same positions, memory of the deck's size).
MAX_TABLE_PACKETS = 2**16


def interleave_positions(digits: np.ndarray, a: int) -> np.ndarray:
    """Positions of an a-shuffle for ``(rows, cards)`` digits: output place ``p`` takes the next card of packet
    ``digits[p]`` (:func:`toolkit.dealing.shuffles._kernels.interleave_by_digits`).

    Place ``p`` takes card ``j``, the rank of ``p`` among the places sorted by digit (ties in place order), so
    for many packets (``2**30``, ``2**31 - 1``) the positions are the inverse of a stable sort of the digits:
    memory of the deck's size, never a table of ``a`` counts.

    >>> digits = np.array([[1, 0, 1, 0, 7]])
    >>> interleave_positions(digits, 8).tolist() == interleave_positions(digits, 2**20).tolist() == [[2, 0, 3, 1, 4]]
    True
    """
    if a <= MAX_TABLE_PACKETS:
        return _kernels.interleave_by_digits(digits, a)
    order = np.argsort(digits, axis=1, kind="stable")
    perm = np.empty(digits.shape, dtype=np.int64)
    np.put_along_axis(perm, order, np.arange(digits.shape[1], dtype=np.int64)[None, :].repeat(len(digits), 0), axis=1)
    return perm


@dataclass(frozen=True)
class AShuffle:
    """One a-shuffle (Bayer & Diaconis 1992): cut into ``a`` packets by a multinomial, drop uniformly.

    ``AShuffle(2)`` is one Gilbert-Shannon-Reeds riffle; an a-shuffle then a b-shuffle is an ab-shuffle.

    Attributes
    ----------
    a
        Packets (1: no change).
    """

    a: int = 2

    def __post_init__(self) -> None:
        a = positive_int(self.a, "AShuffle a")
        if a > MAX_PACKETS:
            raise ValueError(f"AShuffle a must be at most {MAX_PACKETS:,}, got {a:,}")
        object.__setattr__(self, "a", a)

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after one a-shuffle each (see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        out = orders.copy()
        if self.a == 1 or orders.shape[1] < 2:
            return out
        dtype = np.uint8 if self.a <= 2**8 else np.uint16 if self.a <= 2**16 else np.int64
        for rows in _blocks(*orders.shape):
            digits = gen.integers(0, self.a, size=orders[rows].shape, dtype=dtype)
            out[rows] = _permute(orders[rows], interleave_positions(digits, self.a))
        return out


@dataclass(frozen=True)
class Riffle:
    """``times`` Gilbert-Shannon-Reeds riffle shuffles: the same law as one ``2**times``-shuffle, sampled as that.

    Attributes
    ----------
    times
        Riffles (0: no change).
    """

    times: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "times", _at_most(non_negative_int(self.times, "Riffle times"), MAX_RIFFLES, "Riffle times")
        )

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after ``times`` riffles each (see :class:`ShuffleModel`)."""
        out = _check_orders(orders).copy()
        left = self.times
        while left:  # k riffles are one 2**k-shuffle in law: one pass per 30 riffles
            step = min(left, 30)
            out = AShuffle(2**step).apply(out, gen)
            left -= step
        return out


@dataclass(frozen=True)
class Cut:
    """One binomial cut: the top ``Binomial(cards, 1/2)`` cards move to the bottom, in order.

    Attributes
    ----------
    p
        The binomial's probability (the mean cut is ``p * cards``).
    """

    p: float = 0.5

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", _fraction(self.p, "Cut p"))

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after one cut each (see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        out = orders.copy()
        for rows in _blocks(*orders.shape):
            cuts = np.asarray(gen.binomial(orders.shape[1], self.p, size=orders[rows].shape[0]), dtype=np.int64)
            out[rows] = _permute(orders[rows], _kernels.cut_positions(cuts, orders.shape[1]))
        return out


@dataclass(frozen=True)
class Overhand:
    """Pemantle's overhand shuffle (a strip): each gap between neighbours is a cut with probability ``p``.

    The packets so made are put down in reverse order (the bottom packet on top), each keeping its cards' order.

    Attributes
    ----------
    p
        The chance that a gap is a cut point.
    """

    p: float = 0.1

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", _fraction(self.p, "Overhand p"))

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after one overhand shuffle each (see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        out = orders.copy()
        if orders.shape[1] < 2:
            return out
        for rows in _blocks(*orders.shape):
            breaks = gen.random((orders[rows].shape[0], orders.shape[1] - 1)) < self.p
            out[rows] = _permute(orders[rows], _kernels.overhand_positions(breaks))
        return out


@dataclass(frozen=True)
class Pile:
    """A pile shuffle: deal the cards round-robin face down into ``piles`` piles, then stack them, pile 0 on top.

    Each pile reverses its cards (the first dealt ends at its bottom).  No randomness: it spreads neighbours apart.

    Attributes
    ----------
    piles
        Piles dealt.
    """

    piles: int = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "piles", _at_most(positive_int(self.piles, "Pile piles"), MAX_PARTS, "Pile piles"))

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after the pile shuffle (``gen`` unused; see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        cards = orders.shape[1]
        index = np.concatenate([np.arange(j, cards, self.piles)[::-1] for j in range(min(self.piles, cards))])
        return orders[:, index.astype(np.int64)] if cards else orders.copy()


@dataclass(frozen=True)
class Shelf:
    """A shelf shuffler (Diaconis, Fulman & Holmes 2013): one pass through ``shelves`` shelves.

    The cards are dealt from the bottom of the deck, each to a uniformly chosen shelf, on top of the shelf's
    pile or below it with probability 1/2 each; the shelves are then unloaded in order (shelf 0 on top).
    Each shelf's pile, read from the top, rises to the first card it received and then falls.  The paper's
    machine stacks the piles in a random order: the shelves being chosen alike, the law is the same.  That law
    is in closed form in :mod:`toolkit.dealing.shuffles.shelf`.

    Attributes
    ----------
    shelves
        Shelves (the machine studied had 10).
    """

    shelves: int = 10

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "shelves", _at_most(positive_int(self.shelves, "Shelf shelves"), MAX_PARTS, "Shelf shelves")
        )

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after one pass each (see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        out = orders.copy()
        for rows in _blocks(*orders.shape):
            shape = orders[rows].shape
            shelves = gen.integers(0, self.shelves, size=shape, dtype=np.int64)
            tops = gen.random(shape) < 0.5
            out[rows] = _permute(orders[rows], _kernels.shelf_positions(shelves, tops, self.shelves))
        return out


@dataclass(frozen=True)
class Continuous:
    """A continuous shuffler: cards go in one at a time at uniform places of a buffer, dealt from its bottom.

    The model: the cards enter from the top of the input, each at a uniformly random gap among the cards held;
    while the buffer holds more than ``buffer`` cards its bottom card is dealt.  When the input runs out, the
    held cards are dealt from the bottom.  ``buffer >= cards`` makes a uniform permutation; ``buffer = 0`` leaves
    the order unchanged.

    Attributes
    ----------
    buffer
        Cards the machine holds.
    """

    buffer: int = 40

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "buffer", _at_most(non_negative_int(self.buffer, "Continuous buffer"), MAX_PARTS, "Continuous buffer")
        )

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after passing through the machine (see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        out = orders.copy()
        for rows in _blocks(*orders.shape):
            slots = gen.random(orders[rows].shape)
            out[rows] = _permute(orders[rows], _kernels.continuous_positions(slots, self.buffer))
        return out


@dataclass(frozen=True)
class Plug:
    """A plug: the bottom ``fraction`` of the cards goes back in at a uniformly chosen place among the others.

    Attributes
    ----------
    fraction
        Share of the cards in the plug (rounded to whole cards).
    """

    fraction: float = 0.25

    def __post_init__(self) -> None:
        object.__setattr__(self, "fraction", _fraction(self.fraction, "Plug fraction"))

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after one plug each (see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        cards = orders.shape[1]
        plug = round(self.fraction * cards)
        out = orders.copy()
        if plug in (0, cards):
            return out
        for rows in _blocks(*orders.shape):
            starts = gen.integers(0, cards - plug + 1, size=orders[rows].shape[0], dtype=np.int64)
            out[rows] = _permute(orders[rows], _kernels.plug_positions(starts, cards, plug))
        return out


@dataclass(frozen=True)
class Wash:
    """A wash (chemmy): a uniform random permutation, the ideal every other model is measured against."""

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """Uniformly permuted orders (see :class:`ShuffleModel`)."""
        return gen.permuted(_check_orders(orders), axis=1)


def _model(value: object, where: str) -> ShuffleModel:
    if not isinstance(value, ShuffleModel):
        raise TypeError(f"{where} must be a shuffle model (with apply(orders, gen)), got {value!r}")
    return value


@dataclass(frozen=True)
class Sequence:
    """The ``steps`` one after another: ``Sequence((Riffle(2), Overhand(0.1), Riffle(1), Cut()))``.

    Attributes
    ----------
    steps
        The models, first applied first.
    """

    steps: tuple[ShuffleModel, ...] = ()

    def __post_init__(self) -> None:
        steps = tuple(self.steps)
        for i, step in enumerate(steps):
            _model(step, f"Sequence step {i + 1}")
        object.__setattr__(self, "steps", steps)

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after every step (see :class:`ShuffleModel`)."""
        out = _check_orders(orders).copy()
        for step in self.steps:
            out = step.apply(out, gen)
        return out


@dataclass(frozen=True)
class Repeat:
    """``model`` applied ``times`` times: passes through a machine, or a procedure repeated.

    Attributes
    ----------
    model
        The model repeated.
    times
        Passes (0: no change).
    """

    model: ShuffleModel
    times: int = 2

    def __post_init__(self) -> None:
        _model(self.model, "Repeat model")
        object.__setattr__(
            self, "times", _at_most(non_negative_int(self.times, "Repeat times"), MAX_REPEATS, "Repeat times")
        )

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after ``times`` passes (see :class:`ShuffleModel`)."""
        out = _check_orders(orders).copy()
        for _ in range(self.times):
            out = self.model.apply(out, gen)
        return out


@dataclass(frozen=True)
class Stacks:
    """Break the cards into ``stacks`` stacks, shuffle each by ``step``, and put them back together.

    The stacks are consecutive runs from the top, as equal as whole cards allow (the top ones a card larger).
    ``merge="stack"`` puts them back in order; ``merge="interleave"`` drops them together, every interleaving of
    the stacks equally likely (a riffle of all the stacks at once).

    Attributes
    ----------
    stacks
        Stacks.
    step
        What is done to each stack (default: nothing).
    merge
        ``"stack"`` or ``"interleave"``.
    """

    stacks: int = 2
    step: ShuffleModel = dataclasses.field(default_factory=Sequence)
    merge: str = "stack"

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "stacks", _at_most(positive_int(self.stacks, "Stacks stacks"), MAX_PARTS, "Stacks stacks")
        )
        _model(self.step, "Stacks step")
        if self.merge not in ("stack", "interleave"):
            raise ValueError(f"Stacks merge must be 'stack' or 'interleave', got {self.merge!r}")

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after the stacks are shuffled and put back (see :class:`ShuffleModel`)."""
        orders = _check_orders(orders)
        cards = orders.shape[1]
        sizes = [cards // self.stacks + (1 if j < cards % self.stacks else 0) for j in range(self.stacks)]
        edges = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        out = orders.copy()
        for j in range(self.stacks):
            out[:, edges[j] : edges[j + 1]] = self.step.apply(orders[:, edges[j] : edges[j + 1]], gen)
        if self.merge == "interleave" and cards > 1:
            label = np.repeat(np.arange(self.stacks, dtype=np.int64), sizes)
            for rows in _blocks(*orders.shape):
                digits = gen.permuted(np.tile(label, (out[rows].shape[0], 1)), axis=1)
                out[rows] = _permute(out[rows], _kernels.interleave_by_digits(digits, self.stacks))
        return out


def shuffle_orders(model: ShuffleModel, orders: np.ndarray, seed: SeedLike = None) -> np.ndarray:
    """Card orders shuffled by ``model``, reproducibly from ``seed``.

    Parameters
    ----------
    model
        A shuffle model (see :class:`ShuffleModel`).
    orders
        ``(cards,)`` or ``(n, cards)`` integer card codes, index 0 the top card.
    seed
        Anything :func:`toolkit.parallel.as_generator` takes.

    Returns
    -------
    numpy.ndarray
        The shuffled orders, same shape and dtype as ``orders``.

    Examples
    --------
    >>> shuffle_orders(Pile(3), np.arange(7)).tolist()
    [6, 3, 0, 4, 1, 5, 2]
    """
    model = _model(model, "model")
    array = np.asarray(orders)
    if array.ndim not in (1, 2):
        raise ValueError(f"orders must be (cards,) or (n, cards), got shape {array.shape}")
    out = model.apply(np.atleast_2d(array), as_generator(seed))
    return out.reshape(array.shape)


#: The most card moves one run may ask for: decks (or shoes) shuffled x cards x passes over them
#: (:func:`card_passes`).  A pass takes 0.15 to 1 microsecond a card on one core, so this is minutes, not
#: hours: ``--passes 10000`` of ``riffle:64`` on 10,000 decks of 416 cards (1.2e11 moves) is refused before it starts.
MAX_CARD_MOVES = 2 * 10**9
#: The deepest a model may nest (a Sequence in a Repeat in a Stacks ...): deeper is refused, never a RecursionError.
MAX_NESTING = 32
#: The passes :class:`Riffle` makes per ``2**30``-shuffle (the riffles it samples at once).
_RIFFLES_A_PASS = 30


def card_passes(model: ShuffleModel, depth: int = 0) -> int:
    """Passes over the cards one shuffle by ``model`` makes: the time it takes, counted exactly in integers.

    A riffle's ``times`` cost one pass per 30 (they are sampled as one ``2**30``-shuffle), a :class:`Repeat`
    its passes times its inner model's, a :class:`Sequence` the sum of its steps', :class:`Stacks` its step's
    (over the stacks together) and one to interleave; every other model one.  Nesting deeper than
    :data:`MAX_NESTING` is refused (:class:`ValueError`).

    >>> card_passes(Repeat(Sequence((Riffle(64), Cut())), 10_000))
    40000
    """
    if depth > MAX_NESTING:
        raise ValueError(f"a shuffle model nests more than {MAX_NESTING} deep")
    if isinstance(model, Riffle):
        return -(-model.times // _RIFFLES_A_PASS)
    if isinstance(model, Repeat):
        return model.times * card_passes(model.model, depth + 1)
    if isinstance(model, Sequence):
        return sum(card_passes(step, depth + 1) for step in model.steps)
    if isinstance(model, Stacks):
        return card_passes(model.step, depth + 1) + (model.merge == "interleave")
    return 1


def check_shuffle_work(
    model: ShuffleModel, decks: int, cards: int, where: str = "this run", unit: str = "decks"
) -> int:
    """The card moves of shuffling ``decks`` decks of ``cards`` cards by ``model``; :class:`ValueError` past
    :data:`MAX_CARD_MOVES` (checked before any work starts).

    >>> check_shuffle_work(Riffle(7), 10_000, 416)
    4160000
    """
    moves = decks * cards * card_passes(model)
    if moves > MAX_CARD_MOVES:
        raise ValueError(
            f"{where} would shuffle {decks:,} {unit} of {cards:,} cards by {card_passes(model):,} passes each: "
            f"{moves:,} card moves, past the {MAX_CARD_MOVES:,} one run may make (minutes on a core); give fewer "
            f"{unit}, cards or passes"
        )
    return moves
