"""The position-transition matrix of a shuffle: ``M[i, j] = P(the card at old position i lands at new position j)``.

This is all a tracker knows about where each card of the new shoe came from
(one card at a time; the joint law of the permutation is richer).  It is exact
where a closed form exists and estimated by simulation otherwise:

* no shuffle: the identity; a uniform shuffle: every entry ``1 / n``;
* ``k`` Gilbert-Shannon-Reeds riffles: one riffle labels the ``n`` positions of
  the new pack with independent fair bits, the cards of the top packet going in
  order to the positions labelled 0 (Bayer & Diaconis 1992).  Position ``j``
  takes old card ``i`` from the top packet when ``Bin(j, 1/2) = i`` and from the
  bottom packet when ``j + Bin(n - 1 - j, 1/2) = i``, so

      M1[i, j] = (b(i; j, 1/2) + b(i - j; n - 1 - j, 1/2)) / 2,

  and since a single card's position after successive independent riffles is a
  Markov chain, ``k`` riffles give ``M1 ** k`` (a matrix power);
* any other model: ``samples`` shuffles of ``0, 1, ..., n - 1`` (seeded), counted.

>>> from toolkit.studies.shuffle.models import Riffles
>>> m = transition_matrix(Riffles(1), 10)
>>> bool(np.allclose(m.sum(axis=0), 1) and np.allclose(m.sum(axis=1), 1))
True
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

import numpy as np

from toolkit._check import positive_int
from toolkit.parallel import as_generator
from toolkit.studies.shuffle.models import NoShuffle, Riffles, ShuffleModel, UniformShuffle

__all__ = ["DEFAULT_SAMPLES", "exact_transition", "gsr_transition", "simulated_transition", "transition_matrix"]

#: Shuffles simulated to estimate a matrix with no closed form (each entry's standard error is about
#: ``sqrt(M[i, j] / samples)``: 0.0003 for a flat 416-card entry).
DEFAULT_SAMPLES = 20_000

#: Rows shuffled at a time when simulating (bounds the memory).
_BATCH = 2_000


def gsr_transition(cards: int, riffles: int = 1) -> np.ndarray:
    """``M1 ** riffles`` for GSR riffles of ``cards`` cards (see the module notes).

    Parameters
    ----------
    cards
        Cards in the pack.
    riffles
        Riffles (0: the identity).

    Returns
    -------
    numpy.ndarray
        ``(cards, cards)`` float64, rows and columns summing to 1.

    References
    ----------
    D. Bayer and P. Diaconis, "Trailing the dovetail shuffle to its lair", *Annals of Applied Probability* 2 (1992)
    294-313.

    Examples
    --------
    >>> gsr_transition(3, 1).round(3).tolist()
    [[0.625, 0.25, 0.125], [0.25, 0.5, 0.25], [0.125, 0.25, 0.625]]
    """
    from scipy import stats

    n = positive_int(cards, "cards")
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    top = stats.binom.pmf(i, j, 0.5)
    bottom = stats.binom.pmf(i - j, n - 1 - j, 0.5)
    one = (top + bottom) / 2
    return np.linalg.matrix_power(one, int(riffles))


def exact_transition(model: ShuffleModel, cards: int) -> np.ndarray | None:
    """The closed form of ``model``'s matrix, or ``None`` where there is none here."""
    n = positive_int(cards, "cards")
    if isinstance(model, NoShuffle):
        return np.eye(n)
    if isinstance(model, UniformShuffle):
        return np.full((n, n), 1.0 / n)
    if isinstance(model, Riffles):
        return gsr_transition(n, model.times)
    return None


def simulated_transition(model: ShuffleModel, cards: int, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> np.ndarray:
    """``M`` estimated from ``samples`` shuffles of the pack ``0 .. cards - 1`` (seeded).

    Parameters
    ----------
    model
        The shuffle.
    cards
        Cards in the pack.
    samples
        Shuffles simulated.
    seed
        Seed of the simulation.

    Returns
    -------
    numpy.ndarray
        ``(cards, cards)`` frequencies; every row and every column sums to 1 exactly (each shuffle is a permutation).

    Examples
    --------
    >>> simulated_transition(NoShuffle(), 4, samples=10).tolist() == np.eye(4).tolist()
    True
    """
    n = positive_int(cards, "cards")
    samples = positive_int(samples, "samples")
    gen = as_generator(seed)
    counts = np.zeros((n, n), np.int64)
    cols = np.arange(n)
    done = 0
    while done < samples:
        batch = min(_BATCH, samples - done)
        new = np.asarray(model.apply(np.tile(np.arange(n, dtype=np.int64), (batch, 1)), gen))
        if new.shape != (batch, n):
            raise ValueError(f"{model!r}.apply returned shape {new.shape}, expected {(batch, n)}")
        np.add.at(counts, (new.ravel(), np.tile(cols, batch)), 1)
        done += batch
    return counts / samples


@lru_cache(maxsize=32)
def _cached(model: ShuffleModel, cards: int, samples: int, seed: int) -> np.ndarray:
    exact = exact_transition(model, cards)
    matrix = exact if exact is not None else simulated_transition(model, cards, samples, seed)
    matrix.setflags(write=False)
    return matrix


def transition_matrix(model: ShuffleModel, cards: int, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> np.ndarray:
    """The model's matrix: exact where :func:`exact_transition` knows it, else simulated once and cached.

    Parameters
    ----------
    model
        The shuffle (hashable, e.g. a frozen dataclass, for the cache).
    cards
        Cards in the pack.
    samples, seed
        The simulation, where there is no closed form.

    Returns
    -------
    numpy.ndarray
        ``(cards, cards)`` read-only.
    """
    if not isinstance(model, Hashable):
        raise TypeError(f"model must be hashable (a frozen dataclass), got {type(model).__name__}")
    return _cached(model, positive_int(cards, "cards"), positive_int(samples, "samples"), int(seed))
