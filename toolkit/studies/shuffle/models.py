"""The shuffle models the tracker and the power study take, and three small adapters to today's shuffles.

A model is anything with ``apply(orders, gen) -> orders`` over ``(n, cards)``
orders (row = an order from the top of the pack): :class:`ShuffleModel`.  The
three adapters here are the only place that names a concrete shuffle; a model
library can replace them without touching the rest of the package.

* :class:`Riffles`: ``k`` Gilbert-Shannon-Reeds riffles
  (:func:`toolkit.dealing.shuffles.riffle_shuffle`);
* :class:`UniformShuffle`: every order equally likely (``Generator.permuted``);
* :class:`NoShuffle`: the identity.

>>> import numpy as np
>>> NoShuffle().apply(np.arange(5)[None, :], np.random.default_rng(0)).tolist()
[[0, 1, 2, 3, 4]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from toolkit._check import non_negative_int
from toolkit.dealing.shuffles import riffle_shuffle

__all__ = ["NoShuffle", "Riffles", "ShuffleModel", "UniformShuffle", "model_name", "riffles"]


@runtime_checkable
class ShuffleModel(Protocol):
    """A shuffle: ``apply(orders, gen)`` returns the ``(n, cards)`` orders after one pass of the procedure."""

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """Shuffle every row of ``orders`` (each row an order from the top) with ``gen``."""
        ...


@dataclass(frozen=True)
class Riffles:
    """``count`` GSR riffle shuffles in a row (0: unchanged).

    Attributes
    ----------
    count
        Riffles.

    Examples
    --------
    >>> Riffles(2).apply(np.arange(6)[None, :], np.random.default_rng(1)).shape
    (1, 6)
    """

    count: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "count", non_negative_int(self.count, "Riffles.count"))

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders after ``count`` riffles each."""
        return riffle_shuffle(np.asarray(orders), self.count, gen)


@dataclass(frozen=True)
class UniformShuffle:
    """A perfect shuffle: every order of the cards equally likely.

    Examples
    --------
    >>> sorted(UniformShuffle().apply(np.arange(4)[None, :], np.random.default_rng(0))[0].tolist())
    [0, 1, 2, 3]
    """

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """Each row permuted uniformly."""
        return gen.permuted(np.atleast_2d(orders), axis=1)


@dataclass(frozen=True)
class NoShuffle:
    """No shuffle: the next shoe is the discard order itself."""

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders unchanged (a copy)."""
        return np.array(np.atleast_2d(orders), copy=True)


def riffles(count: int | None) -> ShuffleModel:
    """The model of ``count`` riffles; ``None`` is a uniform shuffle, 0 no shuffle.

    >>> riffles(0), riffles(None), riffles(3)
    (NoShuffle(), UniformShuffle(), Riffles(count=3))
    """
    if count is None:
        return UniformShuffle()
    count = non_negative_int(count, "riffles")
    return NoShuffle() if count == 0 else Riffles(count)


def model_name(model: ShuffleModel) -> str:
    """A short label: ``"uniform"``, ``"none"``, ``"3 riffles"`` or the model's repr.

    >>> model_name(Riffles(1)), model_name(UniformShuffle())
    ('1 riffle', 'uniform')
    """
    if isinstance(model, UniformShuffle):
        return "uniform"
    if isinstance(model, NoShuffle):
        return "none"
    if isinstance(model, Riffles):
        return f"{model.count} riffle" + ("" if model.count == 1 else "s")
    return repr(model)
