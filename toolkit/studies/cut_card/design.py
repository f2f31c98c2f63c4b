"""What a cut-card study deals: :class:`CutCardStudy`, a value, and the dealing rules it compares.

The *cut-card effect* of a bet is how the average exact expectation of the
coups actually dealt differs from the fresh-shoe edge when the number of coups
a shoe yields depends on its cards.  A study shuffles shoes once, deals each
to the end of the cards (:func:`toolkit.studies.thorp.deal_to_end`), prices
every bet exactly before every coup, and reads every rule compared (cut cards
under each last-hand rule, fixed numbers of coups) as a prefix of those coups:
the same shoes under every rule, so that rules are compared on paired shoes.

>>> study = CutCardStudy(n_shoes=10, seed=1, cut_cards=(14, 30), last_hands=("one_more", "finish"), coups=(60,))
>>> [label for label, _ in study.rules_dealt()]
['cut14/one_more', 'cut30/one_more', 'cut14/finish', 'cut30/finish', 'coups60']
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from toolkit._check import integer, one_of, positive_int
from toolkit.bets.base import Bet
from toolkit.coup.options import LastHand
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.parallel import DEFAULT_BLOCK_SIZE, BlockPlan, SeedLike, block_plan
from toolkit.studies.thorp.design import ThorpStudy, deal_to_end, seed_integer

__all__ = ["CONTROL_BANDS", "CutCardStudy", "rule_label"]

#: Lower bounds of the bands of cards left (after ``k`` cards) whose control terms are summed into one control
#: variate each: the expectations of the last cards vary most, so the bands narrow towards the end.
CONTROL_BANDS = (6, 12, 16, 20, 26, 36, 66, 116, 216)
#: The control indices are every card of the last this many cards (where the expectations vary most).
DENSE_END = 40


def rule_label(dealing: Dealing) -> str:
    """A short name of how a shoe ends: ``"cut14/one_more"``, ``"seven_cards"`` or ``"coups60"``.

    >>> rule_label(Dealing()), rule_label(Dealing(coups=60)), rule_label(Dealing(last_hand="seven_cards"))
    ('cut14/one_more', 'coups60', 'seven_cards')
    """
    if dealing.coups is not None:
        return f"coups{dealing.coups}"
    if dealing.last_hand is LastHand.SEVEN_CARDS:
        return "seven_cards"
    return f"cut{dealing.cut_card}/{dealing.last_hand.value}"


@dataclass(frozen=True)
class CutCardStudy:
    """What to deal and compare (a value; :func:`toolkit.studies.cut_card.run_cut_card` runs it).

    Parameters
    ----------
    n_shoes
        Number of shoes (the independent unit of every interval).
    seed
        Root seed, turned into an integer once (:func:`toolkit.studies.thorp.design.seed_integer`); block ``i``
        of ``block_size`` shoes uses child ``i`` of it, so results never depend on the worker count.
    dealing
        The shoe and its burn (decks, burn, tableau); its cut card and last-hand rule are replaced by those
        compared.
    rules
        Pay rules of the panel (commission, tie payout); the tableau must be the dealing's.
    bets
        Bets or names (standard panel or side-bet catalogue); default: the standard panel
        (:func:`toolkit.bets.paytable.standard_bets`).
    cut_cards
        Cut-card positions (cards behind it) compared under each of ``last_hands``.
    last_hands
        ``"one_more"``, ``"finish"`` (each with every cut card) and ``"seven_cards"`` (the cut card ignored).
    coups
        Fixed numbers of coups dealt from each shoe (``Dealing(coups=n)``), compared too.
    control_step
        The control variates read the exact expectation of the cards left after ``k`` cards for
        ``k = step, 2 step, ...`` (its mean is the fresh-shoe edge exactly, by exchangeability), summed in
        bands of cards left (:data:`CONTROL_BANDS`), one control variate a band.
    block_size
        Shoes per block (part of what a seed means).
    """

    n_shoes: int = 10_000
    seed: SeedLike = None
    dealing: Dealing = field(default_factory=Dealing)
    rules: Rules = field(default_factory=Rules)
    bets: tuple[Bet | str, ...] | None = None
    cut_cards: tuple[int, ...] = (14,)
    last_hands: tuple[str, ...] = ("one_more",)
    coups: tuple[int, ...] = ()
    control_step: int = 4
    block_size: int = DEFAULT_BLOCK_SIZE

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_shoes", positive_int(self.n_shoes, "CutCardStudy.n_shoes"))
        object.__setattr__(self, "seed", seed_integer(self.seed))
        if not isinstance(self.dealing, Dealing):
            raise TypeError(f"CutCardStudy.dealing must be a Dealing, not {type(self.dealing).__name__}")
        cuts = tuple(integer(c, "CutCardStudy.cut_cards") for c in self.cut_cards)
        hands = tuple(LastHand(one_of(h, LastHand, "CutCardStudy.last_hands")) for h in self.last_hands)
        coups = tuple(positive_int(c, "CutCardStudy.coups") for c in self.coups)
        object.__setattr__(self, "cut_cards", tuple(dict.fromkeys(cuts)))
        object.__setattr__(self, "last_hands", tuple(h.value for h in dict.fromkeys(hands)))
        object.__setattr__(self, "coups", tuple(dict.fromkeys(coups)))
        object.__setattr__(self, "control_step", positive_int(self.control_step, "CutCardStudy.control_step"))
        object.__setattr__(self, "block_size", positive_int(self.block_size, "CutCardStudy.block_size"))
        if not self.rules_dealt():
            raise ValueError("CutCardStudy: no rule to compare (give cut cards with a last-hand rule, or coups)")
        # the bets, checked and resolved as a Thorp study resolves them
        object.__setattr__(self, "bets", self.thorp().bets)
        if self.control_indices().size == 0:
            raise ValueError(f"CutCardStudy.control_step {self.control_step} leaves no card index to read")

    def rules_dealt(self) -> tuple[tuple[str, Dealing], ...]:
        """Every rule compared, as ``(label, Dealing)`` (each Dealing checks its own values)."""
        out: dict[str, Dealing] = {}
        base = replace(self.dealing, coups=None)
        for hand in self.last_hands:
            cuts = (base.cut_card,) if hand == LastHand.SEVEN_CARDS.value else self.cut_cards
            for cut in cuts:
                d = replace(base, cut_card=cut, last_hand=LastHand(hand))
                out.setdefault(rule_label(d), d)
        for n in self.coups:
            d = replace(base, coups=n)
            out.setdefault(rule_label(d), d)
        return tuple(out.items())

    @property
    def rule_labels(self) -> tuple[str, ...]:
        return tuple(label for label, _ in self.rules_dealt())

    @property
    def bet_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bets)  # type: ignore[union-attr]

    def thorp(self) -> ThorpStudy:
        """The Thorp study of the same shoes dealt to the end: its machinery prices the coups."""
        return ThorpStudy(
            n_shoes=self.n_shoes,
            seed=self.seed,
            dealing=deal_to_end(self.dealing),
            rules=self.rules,
            bets=self.bets,  # type: ignore[arg-type]  # names too: the Thorp study resolves them
            block_size=self.block_size,
        )

    def control_indices(self) -> np.ndarray:
        """Card indices ``k`` whose cards left (``shoe[k:]``) make the control variates: every
        ``control_step`` cards, and every card of the last :data:`DENSE_END` (at least six left)."""
        cards = self.dealing.cards
        sparse = np.arange(self.control_step, cards - DENSE_END, self.control_step, dtype=np.int64)
        dense = np.arange(max(cards - DENSE_END, 1), cards - 6 + 1, dtype=np.int64)
        return np.union1d(sparse, dense)

    def control_bands(self) -> np.ndarray:
        """The band (index into :data:`CONTROL_BANDS`) of each control index, by the cards it leaves."""
        left = self.dealing.cards - self.control_indices()
        return np.searchsorted(np.array(CONTROL_BANDS), left, side="right") - 1

    @property
    def n_controls(self) -> int:
        """Control variates: the bands that hold at least one control index."""
        return len(np.unique(self.control_bands()))

    def blocks(self) -> BlockPlan:
        """The plan: blocks of shoes, each with its own seed (the Thorp study's blocks of the same seed)."""
        return block_plan(self.n_shoes, self.block_size, self.seed)

    def fingerprint(self) -> dict[str, Any]:
        """A JSON-able description: equal fingerprints give identical results."""
        return {
            "thorp": self.thorp().fingerprint(),
            "rules": list(self.rule_labels),
            "control_step": self.control_step,
        }
