"""The shuffle models the tracker and the power study take: any model of :mod:`toolkit.dealing.shuffles`.

A model is anything with ``apply(orders, gen) -> orders`` over ``(n, cards)``
orders (row = an order from the top of the pack): :class:`ShuffleModel`.  The
tracker knows three by name:

* :class:`Riffles` (the library's :class:`~toolkit.dealing.shuffles.Riffle`): ``k``
  Gilbert-Shannon-Reeds riffles, whose transition matrix has a closed form;
* :class:`UniformShuffle` (the library's :class:`~toolkit.dealing.shuffles.Wash`): every order equally likely;
* :class:`NoShuffle`: the identity (the next shoe is the discard order).

>>> import numpy as np
>>> NoShuffle().apply(np.arange(5)[None, :], np.random.default_rng(0)).tolist()
[[0, 1, 2, 3, 4]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toolkit._check import non_negative_int
from toolkit.dealing.shuffles.models import Riffle, ShuffleModel, Wash

#: ``k`` GSR riffles: the library's model (``Riffles(k).times == k``).
Riffles = Riffle
#: A perfect shuffle: the library's wash.
UniformShuffle = Wash

__all__ = ["NoShuffle", "Riffles", "ShuffleModel", "UniformShuffle", "model_name", "riffles"]


@dataclass(frozen=True)
class NoShuffle:
    """No shuffle: the next shoe is the discard order itself."""

    def apply(self, orders: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The orders unchanged (a copy)."""
        return np.array(np.atleast_2d(orders), copy=True)


def riffles(count: int | None) -> ShuffleModel:
    """The model of ``count`` riffles; ``None`` is a uniform shuffle, 0 no shuffle.

    >>> riffles(0), riffles(None), riffles(3)
    (NoShuffle(), Wash(), Riffle(times=3))
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
        return f"{model.times} riffle" + ("" if model.times == 1 else "s")
    return repr(model)
