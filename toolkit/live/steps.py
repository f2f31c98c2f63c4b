"""A recorded or dealt shoe stepped coup by coup: what was known before each coup, what happened, and the bets placed.

:class:`ShoeSteps` is the model behind :class:`toolkit.widgets.ShoeStepper`.
Its numbers are :func:`toolkit.records.replay_records`'s (unseen composition, counts,
exact edges before each coup, the outcome) and, when the record carries bets,
:func:`toolkit.records.bet_edges`'s (each recorded bet with the edge it was
placed at): the game-protection view, did the big bets come when the edge was
there?  Dealt shoes (:class:`toolkit.dealing.dealer.DealtShoes`) are recorded first
by :func:`toolkit.records.records_from_dealt`.

>>> from toolkit.records import ShoeHeader, simulate_records
>>> short = simulate_records(1, ShoeHeader().updated(cut_card=400), seed=2)  # the cut card comes out early
>>> steps = ShoeSteps(short, bets=["banker", "tie"], systems=["dragon7"])
>>> steps.n_coups, steps.coup
(3, 1)
>>> step = steps.forward().step()
>>> step.coup, step.player, round(step.expected_value["banker"], 5)
(2, ['A', 'J'], -0.0107)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from toolkit.bets.base import Bet
from toolkit.counting import CountSystem
from toolkit.coup.cards import RANKS, Composition
from toolkit.dealing.dealer import DealtShoes
from toolkit.live.panel import resolve_systems
from toolkit.records import Records, ShoeHeader, bet_edges, records_from_dealt, replay_records

__all__ = ["ShoeSteps", "Step"]


@dataclass(frozen=True)
class Step:
    """One coup of a stepped shoe: what was known before it and what happened.

    ``bets`` holds the recorded bets of the coup (``who, bet, amount,
    expected_value, result``), empty when the record carries none.

    Attributes
    ----------
    coup
        The coup's number.
    unseen
        The unseen cards before it.
    cards_seen, cards_left
        Cards seen and left before it.
    expected_value
        Exact EV of each bet before it.
    running, true
        Counts before it.
    player, banker
        The hands' cards.
    player_total, banker_total
        Final totals.
    winner
        ``"banker"``, ``"player"`` or ``"tie"``.
    bets
        The recorded bets (see above).
    """

    coup: int
    unseen: Composition
    cards_seen: int
    cards_left: int
    expected_value: dict[str, float | None]
    running: dict[str, int]
    true: dict[str, float]
    player: list[str]
    banker: list[str]
    player_total: int
    banker_total: int
    winner: str
    bets: list[dict[str, Any]] = field(default_factory=list)

    @property
    def positive(self) -> tuple[str, ...]:
        """The bets with a positive expected value before the coup."""
        return tuple(k for k, v in self.expected_value.items() if v is not None and v > 0)


class ShoeSteps:
    """One shoe of a record (or of dealt shoes), with a position that steps coup by coup.

    Parameters
    ----------
    source
        Card-level :class:`~toolkit.records.Records`, or :class:`~toolkit.dealing.dealer.DealtShoes`.
    shoe
        The shoe's id (default the first shoe); dealt shoes are numbered from 1.
    bets, systems
        As in :func:`toolkit.records.replay_records` (default every standard bet, no count).
    header
        For dealt shoes: the header they are recorded under (the house rules of the edges).
    """

    def __init__(
        self,
        source: Records | DealtShoes,
        shoe: object | None = None,
        bets: Iterable[Bet | str] | None = None,
        systems: Iterable[CountSystem | str] | str | None = None,
        header: ShoeHeader = ShoeHeader(),
    ) -> None:
        records = records_from_dealt(source, header) if isinstance(source, DealtShoes) else source
        if records.n_shoes == 0:
            raise ValueError(f"{records.source}: no valid shoe to step through")
        shoe = records.shoe_ids[0] if shoe is None else shoe
        self.records = records.select([shoe])
        self.shoe = self.records.shoe_ids[0]
        self.systems = resolve_systems(systems)
        self.frame = replay_records(self.records, systems=self.systems, bets=bets)
        if self.frame.height == 0:
            raise ValueError(f"shoe {self.shoe} has no coup")
        self.bet_names = [c[3:] for c in self.frame.columns if c.startswith("ev_")]
        self.bets = bet_edges(self.records) if self.records.bets.height else None
        self.coup = 1

    @property
    def n_coups(self) -> int:
        """Coups in the current shoe."""
        return self.frame.height

    # ------------------------------------------------------------------ moving
    def go(self, coup: int) -> ShoeSteps:
        """Move to coup ``coup`` (clipped to 1 .. :attr:`n_coups`).  Returns ``self``."""
        self.coup = max(1, min(self.n_coups, int(coup)))
        return self

    def forward(self, coups: int = 1) -> ShoeSteps:
        """Move ``coups`` coups on (stopping at the last); returns ``self``."""
        return self.go(self.coup + coups)

    def back(self, coups: int = 1) -> ShoeSteps:
        """Move ``coups`` coups back (stopping at the first); returns ``self``."""
        return self.go(self.coup - coups)

    # ------------------------------------------------------------------ reading
    def step(self, coup: int | None = None) -> Step:
        """The :class:`Step` of coup ``coup`` (default the current one)."""
        k = self.coup if coup is None else coup
        if not 1 <= k <= self.n_coups:
            raise ValueError(f"shoe {self.shoe} has coups 1 .. {self.n_coups}, not {k}")
        row = self.frame.row(k - 1, named=True)
        bets = []
        if self.bets is not None:
            mine = self.bets.filter(pl.col("coup") == row["coup"])
            bets = mine.select("who", "bet", "amount", "expected_value", "result").to_dicts()
        return Step(
            coup=row["coup"],
            unseen=Composition(tuple(int(row[f"unseen_{r}"]) for r in RANKS)),
            cards_seen=row["cards_seen"],
            cards_left=row["cards_left"],
            expected_value={b: row[f"ev_{b}"] for b in self.bet_names},
            running={s.name: row[f"rc_{s.name}"] for s in self.systems},
            true={s.name: row[f"tc_{s.name}"] for s in self.systems},
            player=list(row["player_hand"]),
            banker=list(row["banker_hand"]),
            player_total=row["player_total"],
            banker_total=row["banker_total"],
            winner=row["winner"],
            bets=bets,
        )

    def history(self, coup: int | None = None) -> pl.DataFrame:
        """``coup`` and ``ev_<bet>`` of the coups up to ``coup`` (default the current one): the edges so far."""
        k = self.coup if coup is None else coup
        return self.frame.head(k).select("coup", *(f"ev_{b}" for b in self.bet_names))

    def bets_so_far(self, coup: int | None = None) -> pl.DataFrame | None:
        """The recorded bets up to ``coup`` with their edges (``None`` when the record carries no bets)."""
        k = self.coup if coup is None else coup
        return None if self.bets is None else self.bets.filter(pl.col("coup") <= k)
