r"""Baccarat banque (à deux tableaux): one Banker against a right and a left Player hand.

The coup
--------
From one shoe (three packs shuffled together: "three packs of cards are shuffled
together", Wikipedia, "Baccarat", baccarat banque section; :data:`BANQUE_DECKS`) the Banker deals the first
card to the right hand, the second to the left hand, the third to himself,
then again: ``R L B R L B``.  A two-card 8 or 9 is turned up at once:

* Banker has a natural: the coup ends; each hand is compared on two cards.
* A Player hand has a natural (Banker not): that hand wins at once and takes
  no further part; if both hands have naturals the coup ends.

Each remaining Player hand uses the chemin de fer options (draw on 0-4, stand
on 6-7, choose on 5), the right hand first, each third card face up.  Banker
then draws or stands knowing his two cards and, for each hand, its third
card, "stood" or "natural", and his one total is compared with both hands.
A bet *à cheval* (on both hands) wins when both hands beat the Banker, loses
when the Banker beats both, and pushes otherwise.

Exact values
------------
:func:`banque_table` enumerates every deal, hand by hand (each hand's two
cards as an unordered pair of values; by exchangeability the order of the
deal does not change the joint law of the three hands), then the third cards
in order, in a numba kernel.  For given Player strategies it returns the
weight of each pair of results (right, left) for each Banker information set
``(his hand, right's column, left's column)`` and each of his actions; any
Banker strategy, and his best response, is then a weighting of that table.
Probabilities are float64 products and sums (relative error about 1e-15);
the tests check them against a slow enumeration in fractions.

Ethier & Lee (2015) treat banque as a three-person game; here the Player
hands' strategies are given and Banker's best response to them is computed
(:func:`banque_banker_best_response`), which is what a Banker facing known players
would do.

>>> from toolkit.games import PlayerStrategy
>>> p = PlayerStrategy.at_five(1)
>>> v = banque_value(3, p, p, BanqueBanker.from_chemin())
>>> round(v.right_ev, 6) == round(v.left_ev, 6)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
import polars as pl

from toolkit._check import integer, positive_int, probability
from toolkit.coup.cards import Composition, CompositionLike
from toolkit.coup.rules import PUNTO_BANCO
from toolkit.coup.step import PLAYER_STOOD
from toolkit.games._banque_kernel import enumerate_banque
from toolkit.games._hands import HAND_TOTALS, HANDS, hand_index
from toolkit.games._walk import first_cards, simulate_shoe_blocks
from toolkit.games.chemin.strategies import BankerStrategy, PlayerStrategy
from toolkit.parallel import DEFAULT_BLOCK_SIZE, SeedLike, as_generator

__all__ = [
    "BANQUE_COUP_CARDS",
    "BANQUE_DECKS",
    "BANQUE_NATURAL",
    "BanqueBanker",
    "BanqueTable",
    "BanqueValue",
    "banque_banker_best_response",
    "banque_table",
    "banque_tableau_banker",
    "banque_value",
    "resolve_banque_coups",
    "simulate_banque_coups",
    "simulate_banque_shoes",
]

#: Column of a Player hand that had a natural (columns 0..9: its third card; 10: it stood).
BANQUE_NATURAL = 11
#: Baccarat banque's shoe: three packs shuffled together (Wikipedia, "Baccarat", baccarat banque section).
BANQUE_DECKS = 3
#: The most cards a banque coup may use: three hands of three.
BANQUE_COUP_CARDS = 9
_UNIFORMS = 3  # the right hand's draw, the left hand's, Banker's
_RESULTS = ("banker", "player", "tie")  # result of one Player hand against the Banker


@dataclass(frozen=True, eq=False)
class BanqueBanker:
    """Banker's probability of drawing for each (his two-card hand, right hand's column, left hand's column).

    ``draw`` is a read-only ``(55, 12, 12)`` float array; columns 0..9 are a
    hand's third card, 10 "stood", 11 "natural" (that hand is settled).

    Attributes
    ----------
    draw
        The probabilities (see above).
    name
        A label.
    """

    draw: np.ndarray
    name: str = "banque banker"

    def __post_init__(self) -> None:
        arr = np.array(self.draw, dtype=float)
        if arr.shape != (55, 12, 12):
            raise ValueError(f"BanqueBanker.draw must have shape (55, 12, 12), got {arr.shape}")
        if np.any(~np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
            raise ValueError("BanqueBanker.draw: every probability must lie in [0, 1]")
        arr.setflags(write=False)
        object.__setattr__(self, "draw", arr)

    @classmethod
    def from_chemin(cls, banker: BankerStrategy | None = None, combine: str = "either") -> BanqueBanker:
        """Lift a chemin de fer Banker (default: the punto banco tableau) to two hands.

        ``combine``: ``"either"`` draws if he would draw against either live
        hand, ``"both"`` only if against both, ``"right"``/``"left"`` follows
        one hand (the other if that one is settled).  Mixed probabilities
        combine as independent choices.
        """
        base = (banker or BankerStrategy.from_tableau()).array()  # (55, 11)
        if combine not in ("either", "both", "right", "left"):
            raise ValueError(f"combine must be 'either', 'both', 'right' or 'left', got {combine!r}")
        out = np.zeros((55, 12, 12))
        for rc in range(12):
            for lc in range(12):
                pr = base[:, rc] if rc != BANQUE_NATURAL else None
                pl_ = base[:, lc] if lc != BANQUE_NATURAL else None
                if pr is None and pl_ is None:
                    out[:, rc, lc] = 0.0
                elif pr is None or pl_ is None:
                    out[:, rc, lc] = pl_ if pr is None else pr
                elif combine == "either":
                    out[:, rc, lc] = 1 - (1 - pr) * (1 - pl_)
                elif combine == "both":
                    out[:, rc, lc] = pr * pl_
                else:
                    out[:, rc, lc] = pr if combine == "right" else pl_
        return cls(out, f"{(banker.name if banker else 'tableau')} ({combine})")


@dataclass(frozen=True, eq=False)
class BanqueTable:
    """Weights of a banque coup for given Player strategies (see the module notes).

    ``table[y, rc, lc, a, r, l]``: probability of Banker's hand ``y``, the
    hands' columns ``rc``, ``lc``, Banker's action ``a`` (1 draw) being taken
    and results ``r``, ``l`` (0 Banker wins, 1 Player wins, 2 tie), for a
    Banker who takes ``a`` there; ``settled[r, l]``: coups ended by naturals
    before Banker's choice.

    Attributes
    ----------
    shoe
        The shoe.
    replacement
        Whether cards are dealt with replacement.
    table
        The weights (see above).
    settled
        ``(3, 3)`` probabilities of the coups settled before Banker's choice.
    """

    shoe: Composition
    replacement: bool
    table: np.ndarray
    settled: np.ndarray

    def __repr__(self) -> str:
        """The shoe and the dealing (the weights are the attributes)."""
        how = "with" if self.replacement else "without"
        return f"BanqueTable({self.shoe.total:,}-card shoe, {how} replacement, table {self.table.shape})"

    def joint(self, banker: BanqueBanker) -> np.ndarray:
        """``(3, 3)`` probabilities of (right result, left result) when Banker plays ``banker``."""
        d = banker.draw[:, :, :, None, None]
        return self.settled + (d * self.table[:, :, :, 1] + (1 - d) * self.table[:, :, :, 0]).sum(axis=(0, 1, 2))

    def reach(self) -> np.ndarray:
        """``(55, 12, 12)`` probability of each Banker information set."""
        return self.table[:, :, :, 0].sum(axis=(3, 4))


def _shoe(shoe: CompositionLike | None) -> Composition:
    comp = Composition.from_any(BANQUE_DECKS if shoe is None else shoe)
    if comp.total < BANQUE_COUP_CARDS:
        raise ValueError(f"the shoe holds {comp.total} card(s); a banque coup may need nine (three hands of three)")
    return comp


def _player(p: PlayerStrategy, side: str) -> np.ndarray:
    if not isinstance(p, PlayerStrategy):
        raise TypeError(f"the {side} hand's strategy must be a PlayerStrategy, not {type(p).__name__}")
    return p.array()


def banque_table(
    shoe: CompositionLike | None, right: PlayerStrategy, left: PlayerStrategy, *, replacement: bool = False
) -> BanqueTable:
    """The exact :class:`BanqueTable` of the next coup for the two hands' strategies.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`~toolkit.coup.Composition.from_any` accepts; ``None``: the game's full shoe).
    right, left
        The two hands' strategies.
    replacement
        Deal with replacement.

    Returns
    -------
    BanqueTable
        The joint results by Banker's information set.
    """
    comp = _shoe(shoe)
    return _banque_table(
        tuple(comp.by_value), replacement, tuple(_player(right, "right")), tuple(_player(left, "left"))
    )


@lru_cache(maxsize=16)
def _banque_table(by_value: tuple, replacement: bool, right: tuple, left: tuple) -> BanqueTable:
    table = np.zeros((55, 12, 12, 2, 3, 3))
    settled = np.zeros((3, 3))
    hands = np.array(HANDS, dtype=np.int64)
    enumerate_banque(
        np.array(by_value, dtype=np.int64),
        bool(replacement),
        hands,
        HAND_TOTALS.astype(np.int64),
        np.array(right),
        np.array(left),
        table,
        settled,
    )
    table.setflags(write=False)
    settled.setflags(write=False)
    return BanqueTable(Composition.from_values(by_value), replacement, table, settled)


@dataclass(frozen=True)
class BanqueValue:
    """Results of a banque coup: ``joint[r][l]`` is P(right hand's result r, left hand's result l).

    Results are 0 Banker wins, 1 Player wins, 2 tie.  Expected payoffs are
    per unit staked on a hand; Banker's is his total against one unit on each
    hand, with ``commission`` taken from his wins.

    Attributes
    ----------
    joint
        ``(3, 3)`` joint probabilities of the two hands' results.
    commission
        Taken from Banker's wins.
    """

    joint: tuple[tuple[float, ...], ...]
    commission: float = 0.0

    def _m(self) -> np.ndarray:
        return np.array(self.joint)

    @property
    def right_ev(self) -> float:
        """Expected payoff of one unit on the right hand."""
        m = self._m().sum(axis=1)
        return float(m[1] - m[0])

    @property
    def left_ev(self) -> float:
        """Expected payoff of one unit on the left hand."""
        m = self._m().sum(axis=0)
        return float(m[1] - m[0])

    @property
    def banker_ev(self) -> float:
        """Banker against one unit on each hand."""
        m = self._m()
        wins = m.sum(axis=1)[0] + m.sum(axis=0)[0]
        losses = m.sum(axis=1)[1] + m.sum(axis=0)[1]
        return float((1 - self.commission) * wins - losses)

    @property
    def a_cheval_ev(self) -> float:
        """A bet on both hands: wins if both win, loses if both lose, pushes otherwise."""
        m = self._m()
        return float(m[1, 1] - m[0, 0])

    def frame(self) -> pl.DataFrame:
        """The joint results as a long frame."""
        m = self._m()
        return pl.DataFrame(
            [
                {"right": _RESULTS[r], "left": _RESULTS[c], "probability": float(m[r, c])}
                for r in range(3)
                for c in range(3)
            ]
        )


def banque_value(
    shoe: CompositionLike | None,
    right: PlayerStrategy,
    left: PlayerStrategy,
    banker: BanqueBanker,
    *,
    commission: object = 0,
    replacement: bool = False,
) -> BanqueValue:
    """Exact results of a banque coup when the two hands and the Banker play given strategies.

    Parameters
    ----------
    shoe
        The cards left (default three packs, :data:`BANQUE_DECKS`).
    right, left
        The hands' strategies (chemin de fer options).
    banker
        Banker's strategy.
    commission
        Taken from Banker's wins (for ``banker_ev``).
    replacement
        Deal with replacement.

    Returns
    -------
    BanqueValue
        The joint results of the two hands and the expected payoffs.

    References
    ----------
    Ethier & Lee, *Games* 6 (2015) 57 (baccara banque).

    Examples
    --------
    >>> p5 = PlayerStrategy.at_five(1)
    >>> v = banque_value(3, p5, p5, banque_tableau_banker())
    >>> round(v.right_ev, 6) == round(v.left_ev, 6)
    True
    """
    if not isinstance(banker, BanqueBanker):
        raise TypeError(f"banker must be a BanqueBanker, not {type(banker).__name__}")
    c = float(probability(commission, "commission"))
    table = banque_table(shoe, right, left, replacement=replacement)
    joint = table.joint(banker)
    return BanqueValue(tuple(tuple(float(v) for v in row) for row in joint), c)


def banque_banker_best_response(
    shoe: CompositionLike | None,
    right: PlayerStrategy,
    left: PlayerStrategy,
    *,
    commission: object = 0,
    replacement: bool = False,
) -> tuple[BanqueBanker, BanqueValue]:
    """Banker's best response (his total over both hands) to the hands' strategies, and its value.

    Where he is indifferent (including sets never reached) he follows
    :meth:`BanqueBanker.from_chemin` (the punto banco tableau against either hand).

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`~toolkit.coup.Composition.from_any` accepts; ``None``: the game's full shoe).
    right, left
        The two hands' strategies.
    commission
        Taken from Banker's wins.
    replacement
        Deal with replacement.

    Returns
    -------
    (BanqueBanker, BanqueValue)
        Banker's best response and the value of the coup under it.

    References
    ----------
    Ethier & Lee, *Games* 6 (2015) 57 (baccara banque).

    Examples
    --------
    >>> p5 = PlayerStrategy.at_five(1)
    >>> banker, v = banque_banker_best_response(3, p5, p5)
    >>> v.banker_ev > banque_value(3, p5, p5, banque_tableau_banker()).banker_ev
    True
    """
    c = float(probability(commission, "commission"))
    table = banque_table(shoe, right, left, replacement=replacement)
    pay = np.array([1 - c, -1.0, 0.0])
    per = (table.table * (pay[:, None] + pay[None, :])).sum(axis=(4, 5))  # (55, 12, 12, 2)
    gain = per[..., 1] - per[..., 0]
    default = BanqueBanker.from_chemin().draw
    scale = max(float(np.abs(per).max()), 1e-300)
    draw = np.where(gain > 1e-13 * scale, 1.0, np.where(gain < -1e-13 * scale, 0.0, default))
    best = BanqueBanker(draw, "banque banker best response")
    return best, BanqueValue(tuple(tuple(float(v) for v in row) for row in table.joint(best)), c)


# ----------------------------------------------------------------- simulation
def resolve_banque_coups(
    cards: np.ndarray,
    right: np.ndarray,
    left: np.ndarray,
    banker: np.ndarray,
    u: np.ndarray,
) -> dict[str, np.ndarray]:
    """Play banque coups from their next nine card values (``(m, 9)``) and uniforms ``(m, 3)``.

    Cards ``R L B R L B``, then the right hand's third card, the left hand's,
    the Banker's, each taken only if drawn.

    Parameters
    ----------
    cards
        ``(m, 9)`` card values.
    right, left
        The hands' drawing probabilities at each two-card hand.
    banker
        Banker's drawing probabilities by information set.
    u
        ``(m, 3)`` uniforms deciding the mixed draws.

    Returns
    -------
    dict of str to numpy.ndarray
        Totals, draws, cards used and results of both hands, per coup.
    """
    idx = hand_index()
    r = idx[cards[:, 0], cards[:, 3]]
    lh = idx[cards[:, 1], cards[:, 4]]
    y = idx[cards[:, 2], cards[:, 5]]
    tr, tl, tb = HAND_TOTALS[r], HAND_TOTALS[lh], HAND_TOTALS[y]
    b_nat = tb >= 8
    r_nat, l_nat = tr >= 8, tl >= 8
    over = b_nat | (r_nat & l_nat)
    r_draws = ~over & ~r_nat & (u[:, 0] < right[r])
    k = 6 + r_draws.astype(np.int64)
    rows = np.arange(len(cards))
    l_card = cards[rows, k]
    l_draws = ~over & ~l_nat & (u[:, 1] < left[lh])
    k = k + l_draws.astype(np.int64)
    rc = np.where(r_nat, BANQUE_NATURAL, np.where(r_draws, cards[:, 6], PLAYER_STOOD))
    lc = np.where(l_nat, BANQUE_NATURAL, np.where(l_draws, l_card, PLAYER_STOOD))
    b_draws = ~over & (u[:, 2] < banker[y, rc, lc])
    b_card = cards[rows, k]
    fr = (tr + np.where(r_draws, cards[:, 6], 0)) % 10
    fl = (tl + np.where(l_draws, l_card, 0)) % 10
    fb = (tb + np.where(b_draws, b_card, 0)) % 10
    # results: +1 Banker beats the hand, -1 the hand wins, 0 tie
    res_r = np.where(b_nat, np.sign(tb - tr), np.where(r_nat, -1, np.sign(fb - fr)))
    res_l = np.where(b_nat, np.sign(tb - tl), np.where(l_nat, -1, np.sign(fb - fl)))
    return {
        "right_total": fr,
        "left_total": fl,
        "banker_total": fb,
        "right_drew": r_draws,
        "left_drew": l_draws,
        "banker_drew": b_draws,
        "cards_used": 6 + r_draws.astype(np.int64) + l_draws.astype(np.int64) + b_draws.astype(np.int64),
        "right_result": res_r,
        "left_result": res_l,
    }


def _payoffs(out: dict[str, np.ndarray], commission: float) -> dict[str, np.ndarray]:
    """The coups' columns plus every side's payoff (numpy only: safe in forked workers)."""
    rr, lr = out["right_result"], out["left_result"]
    banker = np.where(rr > 0, 1 - commission, np.where(rr < 0, -1.0, 0.0)) + np.where(
        lr > 0, 1 - commission, np.where(lr < 0, -1.0, 0.0)
    )
    cheval = np.where((rr < 0) & (lr < 0), 1.0, np.where((rr > 0) & (lr > 0), -1.0, 0.0))
    return {
        **out,
        "right_payoff": -rr.astype(float),
        "left_payoff": -lr.astype(float),
        "banker_payoff": banker,
        "a_cheval_payoff": cheval,
    }


def _walk_resolver(
    cards: np.ndarray, u: np.ndarray, right: np.ndarray, left: np.ndarray, banker: np.ndarray, commission: float
) -> dict[str, np.ndarray]:
    """The coups of one step of the shoe walk, with their payoffs (module level, so worker processes can run it)."""
    return _payoffs(resolve_banque_coups(cards, right, left, banker, u), commission)


def simulate_banque_coups(
    shoe: CompositionLike | None,
    right: PlayerStrategy,
    left: PlayerStrategy,
    banker: BanqueBanker,
    n: int,
    *,
    seed: SeedLike = None,
    commission: object = 0,
    replacement: bool = False,
) -> pl.DataFrame:
    """``n`` independent banque coups, each the first from a fresh shuffle of ``shoe``.

    Parameters
    ----------
    shoe
        The cards left (anything :meth:`~toolkit.coup.Composition.from_any` accepts; ``None``: the game's full shoe).
    right, left
        The two hands' strategies.
    banker
        Banker's strategy.
    n
        Coups.
    seed
        An integer, a SeedSequence, a Generator (its stream continues) or ``None``.
    commission
        Taken from Banker's wins.
    replacement
        Deal with replacement.

    Returns
    -------
    polars.DataFrame
        One row per coup: totals, results and the payoffs ``right_payoff, left_payoff, banker_payoff, a_cheval_payoff``.

    Examples
    --------
    >>> p5 = PlayerStrategy.at_five(1)
    >>> simulate_banque_coups(3, p5, p5, banque_tableau_banker(), 100, seed=1).height
    100
    """
    comp = _shoe(shoe)
    n = positive_int(n, "number of coups")
    c = float(probability(commission, "commission"))
    gen = as_generator(seed)
    cards = first_cards(np.array(comp.by_value), n, BANQUE_COUP_CARDS, gen, replacement)
    u = gen.random((n, _UNIFORMS))
    out = resolve_banque_coups(cards, _player(right, "right"), _player(left, "left"), banker.draw, u)
    return pl.DataFrame(_payoffs(out, c))


def simulate_banque_shoes(
    n_shoes: int,
    right: PlayerStrategy,
    left: PlayerStrategy,
    banker: BanqueBanker,
    *,
    decks: int = BANQUE_DECKS,
    seed: SeedLike = None,
    commission: object = 0,
    min_cards: int = BANQUE_COUP_CARDS,
    block_size: int = DEFAULT_BLOCK_SIZE,
    workers: int | None = None,
    progress: bool = False,
) -> pl.DataFrame:
    """Deal whole banque shoes, one row per coup (``shoe``, ``coup``, ``cards_left``, totals, results, payoffs).

    A coup is dealt while at least ``min_cards`` cards are left
    (:func:`toolkit.coup.step.enough_cards`; by default nine, the most a coup can
    use, since the published rules of banque fix no last-coup minimum), by the
    shoe walk both games share (:mod:`toolkit.games._walk`).  Blocks of
    ``block_size`` shoes draw from children of the seed's SeedSequence, so the
    result depends on the seed and the block size only, not on ``workers``.

    Parameters
    ----------
    n_shoes
        Shoes.
    right, left
        The two hands' strategies.
    banker
        Banker's strategy.
    decks
        Decks in a shoe.
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    commission
        Taken from Banker's wins.
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
    >>> p5 = PlayerStrategy.at_five(1)
    >>> f = simulate_banque_shoes(2, p5, p5, banque_tableau_banker(), seed=1)
    >>> f["shoe"].n_unique()
    2
    """
    n_shoes = positive_int(n_shoes, "number of shoes")
    min_cards = integer(min_cards, "min_cards")
    if min_cards < BANQUE_COUP_CARDS:
        raise ValueError(
            f"min_cards must be an integer of at least {BANQUE_COUP_CARDS} (a banque coup may use nine cards), "
            f"got {min_cards!r}"
        )
    if not isinstance(banker, BanqueBanker):
        raise TypeError(f"banker must be a BanqueBanker, not {type(banker).__name__}")
    resolve = partial(
        _walk_resolver,
        right=_player(right, "right"),
        left=_player(left, "left"),
        banker=np.asarray(banker.draw),
        commission=float(probability(commission, "commission")),
    )
    return simulate_shoe_blocks(
        n_shoes,
        resolve,
        decks=decks,
        coup_cards=BANQUE_COUP_CARDS,
        uniforms=_UNIFORMS,
        min_cards=min_cards,
        seed=seed,
        block_size=block_size,
        workers=workers,
        progress=progress,
        description="banque shoes",
    )


def banque_tableau_banker() -> BanqueBanker:
    """The punto banco tableau against either live hand (:meth:`BanqueBanker.from_chemin`).

    Returns
    -------
    BanqueBanker
        Banker's strategy.

    Examples
    --------
    >>> isinstance(banque_tableau_banker(), BanqueBanker)
    True
    """
    return BanqueBanker.from_chemin(BankerStrategy.from_tableau(PUNTO_BANCO), "either")
