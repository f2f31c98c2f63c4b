"""What a Thorp study deals and evaluates: :class:`ThorpStudy`, a value, and the constants of the design.

Many shoes are dealt (:mod:`toolkit.dealing.dealer`); before every coup the exact
expected value of every bet of the panel is computed from the cards a
*perfect counter* has not seen (the ``"unseen"`` observer: burned cards stay
unseen), and optionally from the cards physically left in the shoe
(``"remaining"``: a stronger, hypothetical observer who also saw the burned
cards).  Results are keyed by the number of unseen cards before the coup.

The seed is part of the design: it is fixed to an integer when the study is
made, so that a run can be repeated and a checkpoint resumed.

>>> study = ThorpStudy(n_shoes=2500, seed=7, bets=("banker", "tie"))
>>> study.bet_names, study.n_blocks, [b.n_shoes for b in study.blocks()]
(('banker', 'tie'), 3, [1000, 1000, 500])
>>> ThorpStudy(seed=np.random.default_rng(1)).seed == ThorpStudy(seed=np.random.default_rng(1)).seed
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from toolkit._check import integer, one_of, positive_int
from toolkit.bets.base import Bet
from toolkit.bets.coup_bets import CoupBet
from toolkit.bets.paytable import PayTable, get_bet, standard_bets
from toolkit.coup.options import LastHand
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.exact.engine import DEVICES
from toolkit.parallel import DEFAULT_BLOCK_SIZE, BlockPlan, SeedLike, as_seed_sequence, block_plan

__all__ = [
    "EDGE_EPSILON",
    "JACOBSON_DEPTHS",
    "OBSERVERS",
    "REGIONS",
    "ThorpStudy",
    "deal_to_end",
    "depth_bucket",
    "seed_integer",
    "smallest_depth",
]

#: Who computes the expectation: the perfect counter (burned cards unseen) or one who also saw the burned cards.
OBSERVERS = ("unseen", "remaining")
#: Jacobson's depths: exact edges with this many unseen cards.
JACOBSON_DEPTHS = (18, 26, 34, 42, 50)
#: Regions of the shoe, in unseen cards before the coup (inclusive bounds), for the shares of the claim.
REGIONS: dict[str, tuple[int, int]] = {
    "last_5_20": (5, 20),
    "last_20": (0, 20),
    "beyond_20": (21, 10**6),
    "beyond_50": (51, 10**6),
}
#: Upper bounds (inclusive) of the buckets of cards in :meth:`~toolkit.studies.StudyResult.by_bucket`
#: and :func:`depth_bucket`.
DEFAULT_BUCKETS = (10, 20, 30, 40, 50, 75, 100, 150, 200, 300)
#: An expectation counts as an edge when above this: smaller positive values are float rounding, not edges.
EDGE_EPSILON = 1e-12
_RESULT_VERSION = 1
_POOL_SIZE = np.random.SeedSequence(0).pool_size


def seed_integer(seed: SeedLike) -> int:
    """The integer a run records as its seed: ``SeedSequence(seed_integer(s))`` seeds its blocks.

    An integer is kept (so its results are those it always gave); ``None``
    draws fresh entropy; a plain ``SeedSequence(n)`` gives ``n``; a Generator
    gives its next draw (as :func:`toolkit.parallel.as_seed_sequence` takes
    it), and any other SeedSequence (a spawned child, say) an integer drawn
    from its state.  Either way the integer alone repeats the run.

    >>> seed_integer(5), seed_integer(np.random.SeedSequence(5))
    (5, 5)
    >>> seed_integer(np.random.default_rng(3)) == seed_integer(np.random.default_rng(3))
    True

    Parameters
    ----------
    seed
        Anything :data:`toolkit.parallel.SeedLike` accepts.

    Returns
    -------
    int
    """
    sequence = as_seed_sequence(seed)
    entropy = sequence.entropy
    if not sequence.spawn_key and sequence.pool_size == _POOL_SIZE and isinstance(entropy, (int, np.integer)):
        return int(entropy)
    return int(sequence.generate_state(1, np.uint64)[0])


def deal_to_end(dealing: Dealing) -> Dealing:
    """The same dealing with no cut card: coups are dealt while enough cards remain for one.

    The cut card is put at the very end of the shoe (``cut_card=0``) under the
    ``one_more`` rule, so it never comes out: a coup starts whenever at least
    :data:`toolkit.coup.step.MIN_COUP_CARDS` (six, the most a coup can use) cards
    are left.  The burn, the decks and the tableau are kept.  This is the
    fairer reading of Thorp's "last 5 to 20 cards": a shoe whose last cards are
    actually played.

    Parameters
    ----------
    dealing
        The casino's dealing (cut card, burn, decks, tableau).

    Returns
    -------
    Dealing
        The same procedure dealt to the end.

    Examples
    --------
    >>> d = deal_to_end(Dealing(cut_card=14, last_hand="finish"))
    >>> d.cut_card, d.last_hand.value, d.burn.value
    (0, 'one_more', 'standard')
    """
    if not isinstance(dealing, Dealing):
        raise TypeError(f"deal_to_end takes a Dealing, not {type(dealing).__name__}")
    return replace(dealing, cut_card=0, last_hand=LastHand.ONE_MORE, coups=None)


def smallest_depth(hands: np.ndarray) -> int | None:
    """The fewest cards unseen (or left) before any coup dealt: the first depth with hands.

    No coup starts with fewer than :data:`toolkit.coup.step.MIN_COUP_CARDS` cards
    left, and the cards burned face down stay unseen, so a perfect counter
    never bets with fewer than about 10 unseen cards under a casino cut card,
    or about 7 dealt to the end.

    Parameters
    ----------
    hands
        Hands dealt by depth (index: cards unseen), as the study's tally holds them.

    Returns
    -------
    int or None
        The smallest depth with a hand (``None`` when no hand was dealt).

    Examples
    --------
    >>> smallest_depth(np.array([0, 0, 0, 0, 0, 0, 0, 3, 5]))
    7
    """
    dealt = np.flatnonzero(np.asarray(hands) > 0)
    return int(dealt[0]) if len(dealt) else None


def depth_bucket(column: str, top: int, upper_bounds: tuple[int, ...] = DEFAULT_BUCKETS) -> Any:
    """A polars expression: the bucket label (``"0-10"``, ``"11-20"``, ...) of a column of card counts.

    The buckets of :meth:`~toolkit.studies.StudyResult.by_bucket`, for any
    frame with a column of cards (unseen, or left in the shoe).

    Parameters
    ----------
    column
        The column of card counts.
    top
        The most cards there can be (the last bucket ends there): ``52 * decks``.
    upper_bounds
        Inclusive upper bounds of the buckets.

    Returns
    -------
    polars.Expr
        String labels ``"low-high"``, ordered as the buckets.

    Examples
    --------
    >>> import polars as pl
    >>> pl.DataFrame({"cards": [6, 15, 400]}).select(depth_bucket("cards", 416))["cards"].to_list()
    ['0-10', '11-20', '301-416']
    """
    import polars as pl

    edges, _, labels = bucket_edges(upper_bounds, top)
    expr = pl.lit(labels[-1])
    for edge, label in zip(reversed(edges[:-1]), reversed(labels[:-1]), strict=True):
        expr = pl.when(pl.col(column) <= edge).then(pl.lit(label)).otherwise(expr)
    return expr.alias(column)


def bucket_edges(upper_bounds: tuple[int, ...] | list[int], top: int) -> tuple[list[int], list[int], list[str]]:
    """Upper edges, lower edges and labels of the buckets of cards up to ``top``."""
    bounds = sorted({int(b) for b in upper_bounds})
    edges = [b for b in bounds if b < top] + [top]
    lows = [0] + [e + 1 for e in edges[:-1]]
    return edges, lows, [f"{lo}-{hi}" for lo, hi in zip(lows, edges, strict=True)]


@dataclass(frozen=True)
class ThorpStudy:
    """What to deal and evaluate (a value; :func:`toolkit.studies.run_study` runs it).

    Parameters
    ----------
    n_shoes
        Number of shoes.
    seed
        Root seed: block ``i`` of ``block_size`` shoes uses child ``i`` of
        ``SeedSequence(seed)``.  Anything :data:`toolkit.parallel.SeedLike`
        accepts; it is turned into an integer once, here
        (:func:`seed_integer`), and recorded in ``seed`` so that the run can be
        repeated and resumed: ``None`` draws fresh entropy, a Generator gives
        its next draw.
    dealing
        The dealing procedure (decks, burn, cut card, last hand).
    rules
        Pay rules of the panel (commission, tie payout); the tableau must be the dealing's.
    bets
        Bets of either kind (pay tables or :class:`~toolkit.bets.coup_bets.CoupBet` side bets) or their
        names (standard panel or side-bet catalogue); default: the whole standard panel.  Every bet is
        priced by :func:`toolkit.bets.pricing.expected_values`, each by its cheapest exact evaluator.  The
        shoes are dealt by rank, so a bet on suits is priced suit-blind: every suit of a rank weighs
        the same, from ``dealing.decks`` full decks (:func:`toolkit.coup.suits.suit_counts`).
    observers
        ``"unseen"`` (the perfect counter) and/or ``"remaining"``.
    jacobson_depths
        Unseen-card counts at which the last cards of every shoe are evaluated
        for Player and Banker (Jacobson's setting).
    block_size
        Shoes per block (part of what a seed means: keep it fixed to compare runs).
    device
        Where the expectations are computed: ``"cpu"`` or ``"gpu"`` (a CUDA GPU,
        the ``gpu`` extra; see :func:`toolkit.bets.pricing.expected_values`).  Not part
        of :meth:`fingerprint`: both devices give the same results within the
        engine's error bound, with exact signs, so a run may resume on the other.
    """

    n_shoes: int = 3000
    seed: SeedLike = None
    dealing: Dealing = field(default_factory=Dealing)
    rules: Rules = field(default_factory=Rules)
    bets: tuple[Bet, ...] | None = None
    observers: tuple[str, ...] = ("unseen",)
    jacobson_depths: tuple[int, ...] = JACOBSON_DEPTHS
    block_size: int = DEFAULT_BLOCK_SIZE
    device: str = "cpu"

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_shoes", positive_int(self.n_shoes, "ThorpStudy.n_shoes"))
        object.__setattr__(self, "seed", seed_integer(self.seed))
        if not isinstance(self.dealing, Dealing):
            raise TypeError(f"ThorpStudy.dealing must be a Dealing, not {type(self.dealing).__name__}")
        if not isinstance(self.rules, Rules):
            raise TypeError(f"ThorpStudy.rules must be a Rules, not {type(self.rules).__name__}")
        if self.rules.tableau != self.dealing.tableau:
            raise ValueError(
                f"ThorpStudy: the rules' tableau ({self.rules.tableau.name}) differs from the dealing's "
                f"({self.dealing.tableau.name}); the expectations must use the tableau the shoes are dealt by"
            )
        bets = (
            standard_bets(self.rules)
            if self.bets is None
            else tuple(get_bet(b, self.rules) if isinstance(b, str) else b for b in self.bets)
        )
        for bet in bets:
            if not isinstance(bet, Bet):
                raise TypeError(
                    f"ThorpStudy.bets holds {type(bet).__name__} {bet!r}; give Bets, CoupBets or names of bets"
                )
        names = [b.name for b in bets]
        if not bets or len(set(names)) != len(names):
            raise ValueError(f"ThorpStudy.bets must be a non-empty list of distinct bets, got {names}")
        object.__setattr__(self, "bets", bets)
        observers = (self.observers,) if isinstance(self.observers, str) else tuple(self.observers)
        if not observers or len(set(observers)) != len(observers) or any(o not in OBSERVERS for o in observers):
            raise ValueError(f"ThorpStudy.observers must be distinct names among {OBSERVERS}, got {observers}")
        object.__setattr__(self, "observers", tuple(o for o in OBSERVERS if o in observers))
        depths = tuple(integer(d, "ThorpStudy.jacobson_depths") for d in self.jacobson_depths)
        if any(not 6 <= d <= self.dealing.cards for d in depths):
            raise ValueError(f"ThorpStudy.jacobson_depths must be 6..{self.dealing.cards} cards, got {depths}")
        object.__setattr__(self, "jacobson_depths", depths)
        object.__setattr__(self, "block_size", positive_int(self.block_size, "ThorpStudy.block_size"))
        object.__setattr__(self, "device", one_of(self.device, DEVICES, "ThorpStudy.device"))

    @property
    def bet_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bets)  # type: ignore[union-attr]

    @property
    def n_blocks(self) -> int:
        return -(-self.n_shoes // self.block_size)

    def dealt_to_end(self, n_shoes: int | None = None) -> ThorpStudy:
        """The same study (seed, bets, observers) dealt with no cut card (:func:`deal_to_end`).

        Parameters
        ----------
        n_shoes
            Number of shoes (default: this study's).  With the same seed the
            shoes are the first ``n_shoes`` of this study, shuffled alike.

        Returns
        -------
        ThorpStudy

        Examples
        --------
        >>> ThorpStudy(n_shoes=300, seed=1).dealt_to_end(100).dealing.cut_card
        0
        """
        return replace(self, n_shoes=self.n_shoes if n_shoes is None else n_shoes, dealing=deal_to_end(self.dealing))

    def blocks(self) -> BlockPlan:
        """The plan: blocks of shoes, each with its own seed."""
        return block_plan(self.n_shoes, self.block_size, self.seed)

    def fingerprint(self) -> dict[str, Any]:
        """A JSON-able description: two studies with equal fingerprints give identical results."""
        dealing = {f.name: getattr(self.dealing, f.name) for f in fields(Dealing) if f.name != "tableau"}
        tableau = self.dealing.tableau
        return {
            "version": _RESULT_VERSION,
            "shoes": self.n_shoes,
            "seed": self.seed,
            "block_size": self.block_size,
            "dealing": dealing,
            "tableau": {"name": tableau.name, "player": tableau.player, "banker": tableau.banker},
            "bets": {b.name: _digest(b) for b in self.bets},  # type: ignore[union-attr]
            "observers": list(self.observers),
            "jacobson_depths": list(self.jacobson_depths),
        }


def _digest(bet: Bet) -> str:
    """A short fingerprint of a bet: its exact pay table, or a side bet's serialised payout expression."""
    if isinstance(bet, PayTable):
        text = ",".join(str(p) for p in bet.payoffs)
    else:
        assert isinstance(bet, CoupBet)  # the other kind of Bet
        text = bet.expr.meta.serialize(format="json")
    return hashlib.sha256(text.encode()).hexdigest()[:16]
