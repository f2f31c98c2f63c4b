"""Shuffle models and their measures: riffles, cuts, strips, piles, machines, casino recipes; distance to uniform.

* :mod:`~toolkit.dealing.shuffles.models`: the models (frozen values with ``apply(orders, gen)``), their
  composition (:class:`Sequence`, :class:`Repeat`, :class:`Stacks`) and :func:`shuffle_orders`;
* :mod:`~toolkit.dealing.shuffles.exact`: rising sequences, the Bayer-Diaconis formula, the exact distance to
  uniform after riffles (:func:`total_variation`);
* :mod:`~toolkit.dealing.shuffles.shelf`: the shelf shuffler in closed form (Diaconis, Fulman & Holmes 2013):
  the law of a pass, the exact distance to uniform (:func:`shelf_total_variation`) and the guessing game solved
  exactly (:func:`shelf_guessing_exact`);
* :mod:`~toolkit.dealing.shuffles.guessing`: the card-guessing game with complete feedback
  (:func:`guessing_game`);
* :mod:`~toolkit.dealing.shuffles.recipes`: casino procedures read from TOML (:func:`read_recipe`);
* :mod:`~toolkit.dealing.shuffles.careless`: badly mixed shoes for the randomness tests (:func:`stacked_shoes`,
  :func:`riffle_shuffle`).
"""

from __future__ import annotations

from toolkit.dealing.shuffles.careless import riffle_shuffle, stacked_shoes
from toolkit.dealing.shuffles.exact import (
    eulerian_numbers,
    riffle_probability,
    rising_sequences,
    total_variation,
    total_variation_exact,
)
from toolkit.dealing.shuffles.guessing import STRATEGIES, guess_counts, guessing_game, uniform_expected_guesses
from toolkit.dealing.shuffles.models import (
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
    ShuffleModel,
    Stacks,
    Wash,
    shuffle_orders,
)
from toolkit.dealing.shuffles.recipes import Recipe, model_from_name, read_recipe
from toolkit.dealing.shuffles.shelf import (
    ShelfGuessing,
    equivalent_shelves,
    shelf_guessing_exact,
    shelf_probability,
    shelf_total_variation,
    shelf_total_variation_exact,
    valley_counts,
    valleys,
)

__all__ = [
    "STRATEGIES",
    "AShuffle",
    "Continuous",
    "Cut",
    "Overhand",
    "Pile",
    "Plug",
    "Recipe",
    "Repeat",
    "Riffle",
    "Sequence",
    "Shelf",
    "ShelfGuessing",
    "ShuffleModel",
    "Stacks",
    "Wash",
    "equivalent_shelves",
    "eulerian_numbers",
    "guess_counts",
    "guessing_game",
    "model_from_name",
    "read_recipe",
    "riffle_probability",
    "riffle_shuffle",
    "rising_sequences",
    "shelf_guessing_exact",
    "shelf_probability",
    "shelf_total_variation",
    "shelf_total_variation_exact",
    "shuffle_orders",
    "stacked_shoes",
    "total_variation",
    "total_variation_exact",
    "uniform_expected_guesses",
    "valley_counts",
    "valleys",
]
