"""Chemin de fer simulated: coups from fresh shoes, whole shoes dealt coup by coup, and their summary.

Strategies are played as arrays: Player draws when a uniform falls below his
probability for his hand, Banker likewise in his information set.  Whole
shoes are walked by the walk both games share (:mod:`toolkit.games._walk`):
a coup starts while at least ``min_cards`` cards are left, seven by default
(:data:`toolkit.coup.step.SEVEN_CARD_MINIMUM`: "to constitute a valid deal, there must
be not less than seven cards left in the dealer's hand", Wikipedia, "Baccarat",
chemin de fer section).

>>> from toolkit.games.chemin.strategies import BankerStrategy, PlayerStrategy
>>> s = summarize_chemin(
...     simulate_chemin_coups(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau(), 1000, seed=1)
... )
>>> s["side"].to_list()
['banker', 'player']
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np
import polars as pl

from toolkit._check import as_fraction, integer, one_of, positive_int, probability
from toolkit.coup.cards import CompositionLike
from toolkit.coup.step import MIN_COUP_CARDS, PLAYER_STOOD, SEVEN_CARD_MINIMUM
from toolkit.games._hands import HAND_TOTALS, hand_index
from toolkit.games._walk import first_cards, simulate_shoe_blocks
from toolkit.games.chemin._table import chemin_shoe
from toolkit.games.chemin.models import CHEMIN_DECKS, FALSE_DRAW_RULES
from toolkit.games.chemin.strategies import BankerStrategy, PlayerStrategy
from toolkit.parallel import DEFAULT_BLOCK_SIZE, SeedLike, as_generator

__all__ = ["resolve_chemin_coups", "simulate_chemin_coups", "simulate_chemin_shoes", "summarize_chemin"]

_UNIFORMS = 2  # Player's draw, Banker's draw


def resolve_chemin_coups(
    cards: np.ndarray, player: np.ndarray, banker: np.ndarray, u_player: np.ndarray, u_banker: np.ndarray
) -> dict[str, np.ndarray]:
    """Play coups from their next six card values (``(m, 6)``), given strategy arrays and uniforms.

    Player draws when ``u_player < player[hand]``, Banker when
    ``u_banker < banker[hand, column]``.  Returns the totals, who drew, the
    number of cards used, whether Player made a false draw, and the result
    (+1 Banker wins, -1 Player wins, 0 tie).

    Parameters
    ----------
    cards
        ``(m, 6)`` card values.
    player
        Player's drawing probability at each two-card hand.
    banker
        Banker's drawing probabilities by hand and Player's third card.
    u_player, u_banker
        Uniforms deciding the mixed draws, one per coup.

    Returns
    -------
    dict of str to numpy.ndarray
        The coups' fields, one array each.
    """
    idx = hand_index()
    x = idx[cards[:, 0], cards[:, 2]]
    y = idx[cards[:, 1], cards[:, 3]]
    tp = HAND_TOTALS[x]
    tb = HAND_TOTALS[y]
    natural = (tp >= 8) | (tb >= 8)
    p_draws = ~natural & (u_player < player[x])
    col = np.where(p_draws, cards[:, 4], PLAYER_STOOD)
    b_draws = ~natural & (u_banker < banker[y, col])
    b_card = np.where(p_draws, cards[:, 5], cards[:, 4])
    p_final = (tp + np.where(p_draws, cards[:, 4], 0)) % 10
    b_final = (tb + np.where(b_draws, b_card, 0)) % 10
    false = ~natural & (((tp <= 4) & ~p_draws) | ((tp >= 6) & (tp <= 7) & p_draws))
    return {
        "player_total": p_final,
        "banker_total": b_final,
        "natural": natural,
        "player_drew": p_draws,
        "banker_drew": b_draws,
        "false_draw": false,
        "cards_used": 4 + p_draws.astype(np.int64) + b_draws.astype(np.int64),
        "result": np.sign(b_final - p_final),
    }


def _payoffs(
    out: dict[str, np.ndarray], commission: Fraction, false_draw: str, penalty: Fraction
) -> dict[str, np.ndarray]:
    """The coups' columns plus ``void`` and both sides' payoffs (numpy only: safe in worker processes)."""
    result = out["result"]
    c = float(commission)
    banker = np.where(result > 0, 1 - c, np.where(result < 0, -1.0, 0.0))
    player = -result.astype(float)
    void = out["false_draw"] if false_draw == "void" else np.zeros_like(out["false_draw"])
    banker = np.where(void, 0.0, banker)
    player = np.where(void, 0.0, player)
    if false_draw == "penalty":
        player = player - float(penalty) * out["false_draw"]
    return {**out, "void": void, "banker_payoff": banker, "player_payoff": player}


def _walk_resolver(
    cards: np.ndarray,
    u: np.ndarray,
    player: np.ndarray,
    banker: np.ndarray,
    commission: Fraction,
    false_draw: str,
    penalty: Fraction,
) -> dict[str, np.ndarray]:
    """The coups of one step of the shoe walk, with their payoffs (module level, so worker processes can run it)."""
    return _payoffs(resolve_chemin_coups(cards, player, banker, u[:, 0], u[:, 1]), commission, false_draw, penalty)


def simulate_chemin_coups(
    shoe: CompositionLike | None,
    player: PlayerStrategy,
    banker: BankerStrategy,
    n: int,
    *,
    seed: SeedLike = None,
    commission: object = 0,
    false_draw: str = "void",
    penalty: object = 1,
    replacement: bool = False,
) -> pl.DataFrame:
    """``n`` independent coups, each the first coup dealt from a fresh shuffle of ``shoe``.

    The sample whose mean estimates :func:`~toolkit.games.chemin.value.chemin_value`
    (and the value of a solved game) without the correlations of a shoe.  One
    row per coup with the totals, who drew, false draws and both sides' payoffs.
    ``seed``: an integer, a SeedSequence, a Generator (its stream continues) or ``None``.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`~toolkit.coup.Composition.from_any` accepts; ``None``: the game's full shoe).
    player, banker
        The strategies.
    n
        Coups.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    commission
        Taken from Banker's wins.
    false_draw
        What a false draw does (:data:`FALSE_DRAW_RULES`).
    penalty
        Units the false drawer pays under the ``"penalty"`` rule.
    replacement
        Deal with replacement.

    Returns
    -------
    polars.DataFrame
        One row per coup, with ``banker_payoff`` and ``player_payoff``.

    Examples
    --------
    >>> from toolkit.games.chemin.strategies import BankerStrategy
    >>> f = simulate_chemin_coups(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau(), 100, seed=1)
    >>> f.height, bool((f["banker_payoff"] == -f["player_payoff"]).all())
    (100, True)
    """
    comp = chemin_shoe(shoe)
    one_of(false_draw, FALSE_DRAW_RULES, "false_draw")
    n = positive_int(n, "number of coups")
    c = probability(commission, "commission")
    gen = as_generator(seed)
    cards = first_cards(np.array(comp.by_value), n, MIN_COUP_CARDS, gen, replacement)
    u = gen.random((n, _UNIFORMS))
    out = resolve_chemin_coups(cards, player.array(), banker.array(), u[:, 0], u[:, 1])
    return pl.DataFrame(_payoffs(out, c, false_draw, as_fraction(penalty)))


def simulate_chemin_shoes(
    n_shoes: int,
    player: PlayerStrategy,
    banker: BankerStrategy,
    *,
    decks: int = CHEMIN_DECKS,
    seed: SeedLike = None,
    commission: object = 0,
    false_draw: str = "void",
    penalty: object = 1,
    min_cards: int = SEVEN_CARD_MINIMUM,
    block_size: int = DEFAULT_BLOCK_SIZE,
    workers: int | None = None,
    progress: bool = False,
) -> pl.DataFrame:
    """Deal whole chemin de fer shoes and play every coup with the given strategies.

    Shoes are shuffled by :func:`toolkit.dealing.dealer.shuffled_shoes`; a coup is
    dealt while at least ``min_cards`` cards are left
    (:func:`toolkit.coup.step.enough_cards`; seven by default, the chemin de fer
    rule).  Shoes come in blocks of ``block_size``, block ``b`` drawing from
    child ``b`` of the seed's SeedSequence (a Generator gives a sequence seeded
    by its next draw), so the result depends on the seed and the block size
    only, not on ``workers`` (local processes, :func:`toolkit.parallel.map_blocks`).

    Returns one row per coup: ``shoe``, ``coup``, ``cards_left`` before it,
    the totals, draws, false draws and both sides' payoffs.

    Parameters
    ----------
    n_shoes
        Shoes.
    player, banker
        The strategies.
    decks
        Decks in a shoe.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    commission
        Taken from Banker's wins.
    false_draw
        What a false draw does.
    penalty
        Units the false drawer pays under the ``"penalty"`` rule.
    min_cards
        Deal a coup only while this many cards are left.
    block_size
        Shoes per block.
    workers
        Local processes.
    progress
        Show a progress bar.

    Returns
    -------
    polars.DataFrame
        One row per coup.

    Examples
    --------
    >>> from toolkit.games.chemin.strategies import BankerStrategy
    >>> f = simulate_chemin_shoes(2, PlayerStrategy.at_five(1), BankerStrategy.from_tableau(), seed=1)
    >>> f["shoe"].n_unique()
    2
    """
    n_shoes = positive_int(n_shoes, "number of shoes")
    one_of(false_draw, FALSE_DRAW_RULES, "false_draw")
    min_cards = integer(min_cards, "min_cards")
    if min_cards < MIN_COUP_CARDS:
        raise ValueError(
            f"min_cards must be an integer of at least {MIN_COUP_CARDS} (a coup may use six cards), got {min_cards!r}"
        )
    resolve = partial(
        _walk_resolver,
        player=player.array(),
        banker=banker.array(),
        commission=probability(commission, "commission"),
        false_draw=false_draw,
        penalty=as_fraction(penalty),
    )
    return simulate_shoe_blocks(
        n_shoes,
        resolve,
        decks=decks,
        coup_cards=MIN_COUP_CARDS,
        uniforms=_UNIFORMS,
        min_cards=min_cards,
        seed=seed,
        block_size=block_size,
        workers=workers,
        progress=progress,
        description="chemin shoes",
    )


def summarize_chemin(frame: pl.DataFrame, z: float = 1.96) -> pl.DataFrame:
    """Mean, standard error and a ``z`` confidence interval of both sides' payoffs per coup.

    Parameters
    ----------
    frame
        Coups of :func:`simulate_chemin_coups` or :func:`simulate_chemin_shoes` (``banker_payoff``,
        ``player_payoff``).
    z
        Normal quantile of the interval.

    Returns
    -------
    polars.DataFrame
        ``side, coups, mean, std_error, low, high``, one row per side.

    Examples
    --------
    >>> from toolkit.games.chemin.strategies import BankerStrategy
    >>> f = simulate_chemin_coups(6, PlayerStrategy.at_five(1), BankerStrategy.from_tableau(), 1000, seed=1)
    >>> summarize_chemin(f)["side"].to_list()
    ['banker', 'player']
    """
    rows = []
    n = frame.height
    for side in ("banker", "player"):
        x = frame[f"{side}_payoff"].to_numpy()
        mean = float(x.mean())
        se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
        rows.append(
            {"side": side, "coups": n, "mean": mean, "std_error": se, "low": mean - z * se, "high": mean + z * se}
        )
    return pl.DataFrame(rows)
