"""A shoe to explore: remove and put back cards, and read every bet's edge and every count after each change.

:class:`LiveShoe` is the model behind :class:`toolkit.widgets.ShoeExplorer`: a
starting composition, the changes made to it (cards removed and put back, in
order, so that each can be undone), and the :class:`~toolkit.live.panel.Panel`
that turns the current composition into numbers.  The counts are those of a
counter who started at the full shoe of ``panel.decks`` decks and saw every
card removed.

>>> shoe = LiveShoe("8 decks", Panel.of(bets=["banker", "tie"], systems=["dragon7"]))
>>> shoe.remove("K 5 9 Qh").composition.total
412
>>> shoe.snapshot().running["dragon7"]
1
>>> shoe.remove("7").undo().composition.total, shoe.removed
(412, ('K', '5', '9', 'Q'))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import polars as pl

from toolkit.coup.cards import RANKS, Composition, CompositionLike, parse_cards
from toolkit.live.panel import Panel, Snapshot

__all__ = ["Cards", "Change", "LiveShoe"]


@dataclass(frozen=True)
class Change:
    """One change to the shoe: cards (rank indices) removed (``"remove"``) or put back (``"add"``).

    Attributes
    ----------
    kind
        ``"remove"`` or ``"add"``.
    ranks
        Rank indices of the cards.
    """

    kind: Literal["remove", "add"]
    ranks: tuple[int, ...]


Cards = int | str | Iterable[int | str]


def _ranks(cards: Cards) -> tuple[int, ...]:
    if isinstance(cards, int):
        if not 0 <= cards < 13:
            raise ValueError(f"a rank index is 0..12, got {cards}")
        return (cards,)
    if isinstance(cards, str):
        words = cards.replace(",", " ").split()
        if not words:
            raise ValueError("no cards given: type ranks such as 'K 5 9 Qh'")
        return tuple(parse_cards(words))
    return tuple(c if isinstance(c, int) else parse_cards([c])[0] for c in cards)


@dataclass
class LiveShoe:
    """A composition that changes card by card, with its panel of numbers (see the module notes).

    Parameters
    ----------
    shoe
        The starting composition (anything :meth:`toolkit.coup.cards.Composition.from_any` takes).
    panel
        What to show; default the standard panel for the shoe's decks (rounded up).
    """

    shoe: CompositionLike = 8
    panel: Panel | None = None
    changes: list[Change] = field(default_factory=list)

    def __repr__(self) -> str:
        """The cards left, the changes made and the panel, on one line."""
        return f"LiveShoe({self.composition.total:,} cards left, {len(self.changes):,} change(s), {self.panel!r})"

    def __post_init__(self) -> None:
        self.start = Composition.from_any(self.shoe)
        if self.panel is None:
            self.panel = Panel.of(decks=max(1, -(-self.start.total // 52)))
        self._composition = self.start
        for change in self.changes:
            self._composition = self._apply(self._composition, change)

    @property
    def composition(self) -> Composition:
        """The cards in the shoe now."""
        return self._composition

    @property
    def removed(self) -> tuple[str, ...]:
        """The cards removed and not put back, in order (ranks)."""
        out: list[int] = []
        for change in self.changes:
            for r in change.ranks:
                if change.kind == "remove":
                    out.append(r)
                elif r in out:  # a card put back cancels the last removal of its rank
                    del out[len(out) - 1 - out[::-1].index(r)]
        return tuple(RANKS[r] for r in out)

    @staticmethod
    def _apply(comp: Composition, change: Change) -> Composition:
        counts = list(comp.by_rank)
        for r in change.ranks:
            if change.kind == "remove":
                if counts[r] == 0:
                    raise ValueError(f"no {RANKS[r]} left in the shoe to remove")
                counts[r] -= 1
            else:
                counts[r] += 1
        return Composition(tuple(counts))

    def _change(self, kind: Literal["remove", "add"], cards: Cards) -> LiveShoe:
        change = Change(kind, _ranks(cards))
        self._composition = self._apply(self._composition, change)  # raises before anything changes
        self.changes.append(change)
        return self

    def remove(self, cards: Cards) -> LiveShoe:
        """Remove cards: a rank index, card strings (``"K 5 9 Qh"``) or a list of them.  Returns ``self``.

        :class:`ValueError` (and no change) when a card is not in the shoe.
        """
        return self._change("remove", cards)

    def add(self, cards: Cards) -> LiveShoe:
        """Put cards back (same forms as :meth:`remove`).  Returns ``self``."""
        return self._change("add", cards)

    def undo(self) -> LiveShoe:
        """Undo the last change (nothing happens when there is none).  Returns ``self``."""
        if self.changes:
            last = self.changes.pop()
            back = Change("add" if last.kind == "remove" else "remove", last.ranks)
            self._composition = self._apply(self._composition, back)
        return self

    def reset(self, shoe: CompositionLike | None = None) -> LiveShoe:
        """Back to the starting composition (or to a new one).  Returns ``self``."""
        if shoe is not None:
            self.start = Composition.from_any(shoe)
        self.changes.clear()
        self._composition = self.start
        return self

    def snapshot(self) -> Snapshot:
        """Every bet's expected value and every system's counts for the shoe now."""
        assert self.panel is not None
        return self.panel.evaluate(self._composition)

    def effect_of_removal(self, bet: str | None = None) -> pl.DataFrame:
        """The effect of removal of one card of each rank on ``bet`` (see :meth:`Panel.effect_of_removal`)."""
        assert self.panel is not None
        return self.panel.effect_of_removal(self._composition, bet)
