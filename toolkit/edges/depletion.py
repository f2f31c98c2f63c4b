"""House edges across shoe sizes, and how they move as a shoe is depleted.

Small studies over the exact engine, each returning a long polars frame that
:mod:`toolkit.plots.edges` draws:

* :func:`edges_by_decks` — the exact edge of each bet for full shoes of 1 to 8
  decks (the main bets and their variants by default: 5 % commission, Super 6,
  EZ, Tie at 8:1 and 9:1);
* :func:`depletion_by_value` — the expected value as the cards of one value are
  taken out of a shoe, one value at a time;
* :func:`random_depletion` — the expected value along random orders of the
  cards, i.e. as a perfect counter sees it coup by coup when cards leave the
  shoe at random.

Examples
--------
>>> t = edges_by_decks([8], bets=["banker"])
>>> round(t["house_edge"].item() * 100, 4)
1.0579
>>> d = depletion_by_value(8, bets=["banker"], values=[4])
>>> d.filter(pl.col("cards_removed") == 1)["expected_value"].item() - d["expected_value"][0] > 0
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

from toolkit.bets.paytable import PayTable, edge_table, get_plain_bet
from toolkit.bets.pricing import expected_values
from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.rules import Rules

__all__ = ["MAIN_VARIANTS", "depletion_by_value", "edges_by_decks", "random_depletion"]

#: The main bets and their variants, by panel name, with a label for tables and plots.
MAIN_VARIANTS: dict[str, str] = {
    "banker": "Banker (5 % commission)",
    "super6_banker": "Banker, Super 6",
    "ez_banker": "Banker, EZ",
    "player": "Player",
    "tie": "Tie 8:1",
    "tie_9to1": "Tie 9:1",
}


def _bets(bets: Iterable[str | PayTable] | None, rules: Rules) -> tuple[PayTable, ...]:
    names = MAIN_VARIANTS if bets is None else bets
    out = []
    for bet in names:
        if isinstance(bet, PayTable):
            out.append(bet)
        elif isinstance(bet, str):
            out.append(get_plain_bet(bet, rules, "the edge-frequency tables"))
        else:
            raise TypeError(
                f"a bet must be a PayTable or a panel name such as 'banker', got {type(bet).__name__} {bet!r}"
            )
    if not out:
        raise ValueError("no bets given")
    return tuple(out)


def edges_by_decks(
    decks: Iterable[int] = range(1, 9),
    bets: Iterable[str | PayTable] | None = None,
    rules: Rules = Rules(),
    exact: bool = True,
) -> pl.DataFrame:
    """Exact house edge of each bet for full shoes of each number of decks.

    Parameters
    ----------
    decks
        Numbers of decks (full shoes).
    bets
        Panel names or :class:`~toolkit.bets.Bet` objects (default: :data:`MAIN_VARIANTS`).
    rules
        Commission and Tie payout of the ``banker`` and ``tie`` bets.
    exact
        Rational arithmetic (``True``) or the float path.

    Returns
    -------
    polars.DataFrame
        ``decks, bet, variant, expected_value, house_edge, std_dev, hit_frequency``.

    References
    ----------
    The Wizard of Odds (M. Shackleford), "Baccarat Odds for 1 to 12 Decks".

    Examples
    --------
    >>> t = edges_by_decks([1, 8], bets=["banker"])
    >>> t["house_edge"].round(6).to_list()
    [0.010117, 0.010579]
    """
    chosen = _bets(bets, rules)
    frames = []
    for d in decks:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"decks must be positive integers, got {d!r}")
        table = edge_table(int(d), chosen, rules, exact).drop("description")
        frames.append(table.with_columns(pl.lit(int(d), dtype=pl.Int64).alias("decks")))
    if not frames:
        raise ValueError("no deck counts given")
    out = pl.concat(frames)
    variant = pl.col("bet").replace_strict(MAIN_VARIANTS, default=pl.col("bet"), return_dtype=pl.String)
    return out.with_columns(variant.alias("variant")).select(
        "decks", "bet", "variant", "expected_value", "house_edge", "std_dev", "hit_frequency"
    )


def _long(shoes: np.ndarray, bets: Sequence[PayTable], rules: Rules, keys: dict[str, np.ndarray]) -> pl.DataFrame:
    """Long frame ``*keys, bet, expected_value, cards_left`` from the batched float path."""
    ev = expected_values(shoes, bets, rules.tableau)
    columns = {**keys, "cards_left": shoes.sum(axis=1)}
    columns.update({bet.name: ev[:, i] for i, bet in enumerate(bets)})
    out = pl.DataFrame(columns).unpivot(index=[*keys, "cards_left"], variable_name="bet", value_name="expected_value")
    return out.select(*keys, "bet", "expected_value", "cards_left")


def depletion_by_value(
    shoe: CompositionLike = 8,
    bets: Iterable[str | PayTable] | None = None,
    values: Iterable[int] = range(10),
    rules: Rules = Rules(),
    min_left: int = 6,
) -> pl.DataFrame:
    """Expected value of each bet as the cards of one value are removed, one value at a time.

    For each value ``v``, the shoe loses 0, 1, 2, ... cards of value ``v`` (all
    other cards stay) until none is left or only ``min_left`` cards remain.
    Ten-valued cards leave the most plentiful of T, J, Q, K first.

    Parameters
    ----------
    shoe
        The starting shoe.
    bets
        Bets or their names (default: the standard panel).
    values
        The card values removed, one at a time.
    rules
        House rules pricing the bets.
    min_left
        Stop when this many cards are left.

    Returns
    -------
    polars.DataFrame
        ``value, cards_removed, bet, expected_value, cards_left``.

    References
    ----------
    E. O. Thorp and W. E. Walden, "A Favorable Side Bet in Nevada Baccarat",
    *J. Amer. Statist. Assoc.* 61 (1966) 313-328.

    Examples
    --------
    >>> t = depletion_by_value(1, bets=["tie"], values=[9])
    >>> t.select("cards_removed", "expected_value").head(2).rows()
    [(0, -0.15746126928676574), (1, -0.15468563743721386)]
    """
    comp = Composition.from_any(shoe)
    comp.require_coup()
    if min_left < 6:
        raise ValueError(f"min_left must be at least 6 (a coup may need six cards), got {min_left}")
    chosen = _bets(bets, rules)
    rows, value_key, removed_key = [], [], []
    for v in values:
        if not 0 <= v <= 9:
            raise ValueError(f"card values are 0..9, got {v!r}")
        current = comp
        for k in range(comp.by_value[v] + 1):
            if current.total < min_left:
                break
            rows.append(current.by_rank)
            value_key.append(v)
            removed_key.append(k)
            if k < comp.by_value[v]:
                current = current.remove_value(v)
    shoes = np.array(rows, dtype=np.int64)
    return _long(shoes, chosen, rules, {"value": np.array(value_key), "cards_removed": np.array(removed_key)})


def random_depletion(
    shoe: CompositionLike = 8,
    paths: int = 20,
    bets: Iterable[str | PayTable] | None = None,
    rules: Rules = Rules(),
    min_left: int = 6,
    step: int = 1,
    rng: np.random.Generator | int | None = None,
) -> pl.DataFrame:
    """Expected value of each bet along random orders of a shoe's cards.

    Each path shuffles the shoe and takes the cards out one at a time; the
    expected value of the next coup is evaluated every ``step`` cards until
    ``min_left`` remain.  This is what a perfect counter sees as a shoe is dealt
    (ignoring that a coup takes four to six cards at once).

    Parameters
    ----------
    paths
        Number of random orders.
    step
        Evaluate every ``step`` cards removed.
    rng
        A :class:`numpy.random.Generator`, a seed, or ``None``.

    Returns
    -------
    polars.DataFrame
        ``path, cards_removed, bet, expected_value, cards_left``.

    References
    ----------
    E. O. Thorp and W. E. Walden, "A Favorable Side Bet in Nevada Baccarat",
    *J. Amer. Statist. Assoc.* 61 (1966) 313-328.

    Examples
    --------
    >>> t = random_depletion(8, paths=2, bets=["tie"], step=100, rng=1)
    >>> t["cards_removed"].to_list()
    [0, 100, 200, 300, 400, 0, 100, 200, 300, 400]
    """
    comp = Composition.from_any(shoe)
    comp.require_coup()
    if isinstance(paths, bool) or not isinstance(paths, (int, np.integer)) or paths < 1:
        raise ValueError(f"paths must be a positive integer, got {paths!r}")
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)) or step < 1:
        raise ValueError(f"step must be a positive integer, got {step!r}")
    if min_left < 6:
        raise ValueError(f"min_left must be at least 6 (a coup may need six cards), got {min_left}")
    generator = np.random.default_rng(rng)
    chosen = _bets(bets, rules)
    full = np.array(comp.by_rank, dtype=np.int64)
    deck = np.repeat(np.arange(13), full)
    removed = np.arange(0, comp.total - min_left + 1, step)
    blocks, path_key, removed_key = [], [], []
    for p in range(paths):
        order = generator.permutation(deck)
        taken = np.zeros((comp.total + 1, 13), dtype=np.int64)
        taken[np.arange(1, comp.total + 1), order] = 1
        blocks.append(full - np.cumsum(taken, axis=0)[removed])
        path_key.append(np.full(len(removed), p))
        removed_key.append(removed)
    shoes = np.concatenate(blocks)
    return _long(shoes, chosen, rules, {"path": np.concatenate(path_key), "cards_removed": np.concatenate(removed_key)})
