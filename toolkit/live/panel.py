"""The numbers of a live shoe: every chosen bet's exact edge and every chosen count for one composition.

A :class:`Panel` names what to show (bets, count systems, house rules, decks of
the full shoe); :meth:`Panel.evaluate` turns one unseen composition into a
:class:`Snapshot`, by the same engine calls as :func:`toolkit.records.replay_records`
(:func:`toolkit.bets.pricing.expected_values` for the edges,
:func:`toolkit.counting.count_arrays` for the counts), so a live shoe and its
replayed record show the same numbers.  One evaluation of the standard panel
takes about a millisecond once the engine is compiled.

>>> panel = Panel.of(bets=["banker", "player", "tie"], systems=["dragon7"])
>>> snap = panel.evaluate(Composition.from_decks(8))
>>> round(snap.house_edge["banker"], 6), snap.running["dragon7"], snap.positive
(0.010579, 0, ())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from toolkit._show import html_table, text_table
from toolkit.bets.base import Bet
from toolkit.bets.paytable import get_bet, standard_bets
from toolkit.bets.pricing import expected_values
from toolkit.counting import CountSystem, count_arrays, get_count_system
from toolkit.coup.cards import MIN_COUP_CARDS, RANKS, Composition, CompositionLike
from toolkit.coup.rules import Rules
from toolkit.edges.eor import effect_of_removal

__all__ = ["Panel", "Snapshot", "resolve_bets", "resolve_systems"]


def resolve_bets(bets: Iterable[Bet | str] | str | None, rules: Rules = Rules()) -> tuple[Bet, ...]:
    """Bets from names or :class:`~toolkit.bets.Bet` values (a string may list names separated by commas or spaces).

    ``None`` is the standard panel under ``rules``.

    Parameters
    ----------
    bets
        Bet names, :class:`~toolkit.bets.Bet` values, a string of names, or ``None``.
    rules
        House rules pricing named bets.

    Returns
    -------
    tuple of PayTable
        The bets.

    Examples
    --------
    >>> [b.name for b in resolve_bets("banker, tie")]
    ['banker', 'tie']
    """
    if bets is None:
        return standard_bets(rules)
    if isinstance(bets, str):
        bets = [b for b in bets.replace(",", " ").split() if b]
    out = tuple(b if isinstance(b, Bet) else get_bet(b, rules) for b in bets)
    if not out:
        raise ValueError("choose at least one bet")
    return out


def resolve_systems(systems: Iterable[CountSystem | str] | str | None) -> tuple[CountSystem, ...]:
    """Count systems from names or :class:`~toolkit.counting.CountSystem` values (a string may list several).

    Parameters
    ----------
    systems
        System names, :class:`~toolkit.counting.CountSystem` values, a string of names, or ``None`` (none).

    Returns
    -------
    tuple of CountSystem
        The systems.

    Examples
    --------
    >>> [s.name for s in resolve_systems("dragon7 panda8")]
    ['dragon7', 'panda8']
    """
    if systems is None:
        return ()
    if isinstance(systems, str):
        systems = [s for s in systems.replace(",", " ").split() if s]
    return tuple(get_count_system(s) for s in systems)


@dataclass(frozen=True)
class Snapshot:
    """What a counter knows before a coup, for one unseen composition.

    Attributes
    ----------
    composition
        The unseen cards.
    expected_value, house_edge
        Per bet name: the exact expected value per unit staked and its negative
        (``None`` for every bet when fewer than six cards are unseen).
    running, true
        Per count system name: the running and true counts.
    """

    composition: Composition
    expected_value: Mapping[str, float | None]
    running: Mapping[str, int] = field(default_factory=dict)
    true: Mapping[str, float] = field(default_factory=dict)

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        title = f"Snapshot: {self.composition.total:,} cards unseen"
        rows: list[tuple[str, object]] = [(f"EV {k}", v) for k, v in self.expected_value.items()]
        rows += [
            (f"RC / TC {k}", f"{self.running[k]:+d} / {self.true.get(k, float('nan')):+.2f}") for k in self.running
        ]
        return title, rows

    def __repr__(self) -> str:
        """The expected value of each bet and the counts, one line each."""
        title, rows = self._shown()
        return text_table(title, rows, max_rows=len(rows))

    def _repr_html_(self) -> str:
        title, rows = self._shown()
        return html_table(title, rows, max_rows=len(rows))

    @property
    def house_edge(self) -> dict[str, float | None]:
        """The house edge of each bet: minus its expected value (``None`` when too few cards are unseen)."""
        return {k: None if v is None else -v for k, v in self.expected_value.items()}

    @property
    def positive(self) -> tuple[str, ...]:
        """The bets with a positive expected value (the player's edge), in panel order."""
        return tuple(k for k, v in self.expected_value.items() if v is not None and v > 0)

    def as_dict(self) -> dict[str, object]:
        """Plain data: cards left by rank, expected values, counts."""
        return {
            "cards": self.composition.total,
            "composition": self.composition.as_dict(),
            "expected_value": dict(self.expected_value),
            "running": dict(self.running),
            "true": dict(self.true),
        }


@dataclass(frozen=True)
class Panel:
    """What a live view shows: bets, count systems, the house rules and the decks of the full shoe.

    Build one with :meth:`of`, which accepts names.

    Attributes
    ----------
    bets
        The bets shown.
    systems
        The count systems shown.
    rules
        House rules pricing the bets.
    decks
        Decks of the full shoe (for true counts).
    """

    bets: tuple[Bet, ...]
    systems: tuple[CountSystem, ...] = ()
    rules: Rules = field(default_factory=Rules)
    decks: int = 8

    def __repr__(self) -> str:
        """The bet and system names, the rules and the decks, on one line.

        >>> Panel.of(["banker", "tie"], "dragon7")
        Panel(bets=banker, tie; systems=dragon7; Rules(); 8 decks)
        """
        systems = ", ".join(s.name for s in self.systems) or "none"
        names = self.bet_names
        bets = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        return f"Panel(bets={bets}; systems={systems}; {self.rules!r}; {self.decks} decks)"

    @classmethod
    def of(
        cls,
        bets: Iterable[Bet | str] | str | None = None,
        systems: Iterable[CountSystem | str] | str | None = None,
        rules: Rules | None = None,
        decks: int | None = None,
    ) -> Panel:
        """A panel from names: ``bets`` (default the standard panel), ``systems`` (default none)."""
        if rules is None:
            rules = Rules(decks=decks or 8)
        decks = rules.decks if decks is None else decks
        return cls(resolve_bets(bets, rules), resolve_systems(systems), rules, decks)

    @property
    def bet_names(self) -> tuple[str, ...]:
        """The bets' names, in panel order."""
        return tuple(b.name for b in self.bets)

    def bet(self, name: str) -> Bet:
        """One of the panel's bets by name."""
        for bet in self.bets:
            if bet.name == name:
                return bet
        raise ValueError(f"no bet {name!r} on the panel; it shows {', '.join(self.bet_names)}")

    def expected_values(self, composition: CompositionLike) -> dict[str, float | None]:
        """The exact expected value of every bet (``None`` when fewer than six cards are left)."""
        comp = Composition.from_any(composition)
        if comp.total < MIN_COUP_CARDS:
            return dict.fromkeys(self.bet_names)
        ev = expected_values(np.array([comp.by_rank]), self.bets, self.rules.tableau)[0]
        return {name: float(v) for name, v in zip(self.bet_names, ev, strict=True)}

    def counts(
        self, composition: CompositionLike, burn_card: int | None = None, left: int | None = None
    ) -> tuple[dict[str, int], dict[str, float]]:
        """Running and true counts of every system (``burn_card``: rank index of the exposed burn card)."""
        comp = Composition.from_any(composition)
        running: dict[str, int] = {}
        true: dict[str, float] = {}
        if comp.total == 0:
            return running, true
        unseen = np.array([comp.by_rank], dtype=np.int64)
        for system in self.systems:
            rc, tc = count_arrays(
                system,
                unseen,
                self.decks,
                None if burn_card is None else np.array([burn_card]),
                None if left is None else np.array([left]),
            )
            running[system.name] = int(rc[0])
            true[system.name] = float(tc[0])
        return running, true

    def evaluate(self, composition: CompositionLike, burn_card: int | None = None, left: int | None = None) -> Snapshot:
        """The :class:`Snapshot` of one unseen composition.

        ``burn_card`` is the rank index (0..12) of the exposed burn card (for the
        systems that do not count it) and ``left`` the cards physically left in
        the shoe (for a true count over cards left when some were burned face
        down); both as in :func:`toolkit.counting.count_arrays`.
        """
        comp = Composition.from_any(composition)
        running, true = self.counts(comp, burn_card, left)
        return Snapshot(comp, self.expected_values(comp), running, true)

    def effect_of_removal(self, composition: CompositionLike, bet: str | None = None) -> pl.DataFrame:
        """The effect of removing one card of each rank on one bet (default the panel's first): ``card, count, eor``.

        :func:`toolkit.edges.eor.effect_of_removal` by rank; empty when fewer than seven cards are left.
        """
        comp = Composition.from_any(composition)
        chosen = self.bet(bet) if bet is not None else self.bets[0]
        if comp.total < MIN_COUP_CARDS + 1:
            return pl.DataFrame(
                {"card": list(RANKS), "count": list(comp.by_rank), "eor": [None] * 13},
                schema={"card": pl.String, "count": pl.Int64, "eor": pl.Float64},
            )
        table = effect_of_removal(comp, bets=[chosen], rules=self.rules, by="rank")
        return table.select("card", "count", "eor")
