"""The shoe stepper: a recorded or dealt shoe, coup by coup, with the edges before each coup and the bets placed.

:class:`ShoeStepper` is an :mod:`ipywidgets` box over a
:class:`toolkit.live.ShoeSteps`: buttons to step back and forward (and to the
first and last coup) and a slider; for the coup shown, the cards dealt and the
outcome, the unseen composition before it, the counts, every bet's exact edge
before it (positive edges highlighted), the recorded bets of the coup with the
edge each was placed at, and a small plot of each bet's edge so far with the
recorded bets as circles (their area the stake): the game-protection view, did
the big bets come when the edge was there?  The numbers are
:func:`toolkit.records.replay_records`'s and :func:`toolkit.records.bet_edges`'s.

>>> from toolkit.records import simulate_records
>>> st = ShoeStepper(simulate_records(1, seed=2), bets=["banker", "tie"], systems=["dragon7"])
>>> st.forward_button.click(); st.step.coup, st.step.player
(2, ['A', 'J'])
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from html import escape
from pathlib import Path

import ipywidgets as w

from toolkit.bets.base import Bet
from toolkit.counting import CountSystem
from toolkit.coup.cards import RANKS, hand_total
from toolkit.dealing.dealer import DealtShoes
from toolkit.live import ShoeSteps, Step
from toolkit.records import Records, ShoeHeader, read_records
from toolkit.widgets._html import STYLE, composition_line, counts_table, edge_plot, edge_table, percent

__all__ = ["ShoeStepper", "StepperSource"]

#: What a stepper steps through: records, dealt shoes, or the path of a record file.
StepperSource = Records | DealtShoes | str | os.PathLike


def _hand(cards: list[str]) -> str:
    total = hand_total(RANKS.index(c[0]) for c in cards)
    return f"{' '.join(cards)} ({total})"


class ShoeStepper(w.VBox):
    """A recorded or dealt shoe stepped coup by coup in Jupyter (see the module notes).

    Parameters
    ----------
    source
        Card-level :class:`~toolkit.records.Records` (with or without bets), :class:`~toolkit.dealing.DealtShoes`,
        or the path of a record file (read by :func:`~toolkit.records.read_records`).
    shoe
        The shoe's id (default the first).
    bets, systems
        The bets and count systems shown (default every standard bet, no count).
    plot_bets
        The bets drawn in the plot (default: the bets the record carries, else the first three shown).
    header
        For dealt shoes: the header they are recorded under.

    Attributes
    ----------
    steps
        The :class:`~toolkit.live.ShoeSteps` behind the widget; ``step`` is the :class:`~toolkit.live.Step` shown.
    """

    def __init__(
        self,
        source: StepperSource,
        shoe: object | None = None,
        bets: Iterable[Bet | str] | None = None,
        systems: Iterable[CountSystem | str] | str | None = None,
        plot_bets: Iterable[str] | None = None,
        header: ShoeHeader = ShoeHeader(),
    ) -> None:
        if isinstance(source, str | os.PathLike):
            source = read_records(Path(source))  # a record file: read it (its problems are in .report)
        if not isinstance(source, Records | DealtShoes):
            raise TypeError(
                "source must be Records, DealtShoes or the path of a record file, "
                f"got {type(source).__name__} {source!r}"
            )
        self.steps = ShoeSteps(source, shoe, bets, systems, header)
        self.decks = self.steps.records.headers[0].dealing.decks
        if plot_bets is not None:
            self.plot_bets = list(plot_bets)
        elif self.steps.bets is not None:
            recorded = self.steps.bets["bet"].unique(maintain_order=True).to_list()
            self.plot_bets = [b for b in self.steps.bet_names if b in recorded]
        else:
            self.plot_bets = self.steps.bet_names[:3]
        unknown = sorted(set(self.plot_bets) - set(self.steps.bet_names))
        if unknown:
            raise ValueError(f"plot_bets names bets not shown: {', '.join(unknown)}")
        layout = w.Layout(width="44px")
        # plain ASCII labels: media symbols such as U+23EE render as boxes where no font has them
        self.first_button = w.Button(description="|<", tooltip="first coup", layout=layout)
        self.back_button = w.Button(description="<", tooltip="previous coup", layout=layout)
        self.forward_button = w.Button(description=">", tooltip="next coup", layout=layout)
        self.last_button = w.Button(description=">|", tooltip="last coup", layout=layout)
        self.slider = w.IntSlider(value=1, min=1, max=self.steps.n_coups, description="coup", continuous_update=True)
        self.first_button.on_click(lambda _b: self.go(1))
        self.back_button.on_click(lambda _b: self.go(self.steps.coup - 1))
        self.forward_button.on_click(lambda _b: self.go(self.steps.coup + 1))
        self.last_button.on_click(lambda _b: self.go(self.steps.n_coups))
        self.slider.observe(lambda change: self.go(change["new"]), names="value")
        self.coup_html = w.HTML()
        self.composition_html = w.HTML()
        self.edges_html = w.HTML()
        self.counts_html = w.HTML()
        self.bets_html = w.HTML()
        self.plot_html = w.HTML()
        super().__init__(
            [
                w.HTML(STYLE),
                w.HBox([self.first_button, self.back_button, self.slider, self.forward_button, self.last_button]),
                self.coup_html,
                self.composition_html,
                w.HBox([w.VBox([self.edges_html, self.counts_html]), w.VBox([self.plot_html, self.bets_html])]),
            ]
        )
        self.update()

    def go(self, coup: int) -> ShoeStepper:
        """Show coup ``coup`` (clipped to the shoe).  Returns ``self``."""
        self.steps.go(coup)
        if self.slider.value != self.steps.coup:
            self.slider.value = self.steps.coup  # calls go again, which finds nothing to change
        self.update()
        return self

    def update(self) -> None:
        """Redraw the coup shown."""
        self.step: Step = self.steps.step()
        s = self.step
        n = self.steps.n_coups
        self.back_button.disabled = self.first_button.disabled = s.coup == 1
        self.forward_button.disabled = self.last_button.disabled = s.coup == n
        edge = f" · <b style='color:#070'>player's edge before it: {', '.join(s.positive)}</b>" if s.positive else ""
        self.coup_html.value = (
            f"<div class='bt-live' data-coup='{s.coup}'><b>shoe {escape(str(self.steps.shoe))}, coup {s.coup} of {n}"
            f"</b>: Player {_hand(s.player)}, Banker {_hand(s.banker)} → <b>{s.winner}</b>"
            f" · {s.cards_seen} cards seen, {s.cards_left} left{edge}</div>"
        )
        self.composition_html.value = composition_line(s.unseen, self.decks, "unseen before the coup")
        self.edges_html.value = edge_table(s.expected_value)
        self.counts_html.value = counts_table(s.running, s.true)
        self.plot_html.value = edge_plot(
            self.steps.history(), self.plot_bets, n, self.steps.bets_so_far() if self.steps.bets is not None else None
        )
        if self.steps.bets is None:
            self.bets_html.value = "<div class='bt-live'><i>the record carries no bets</i></div>"
        elif not s.bets:
            self.bets_html.value = "<div class='bt-live'><i>no bet recorded in this coup</i></div>"
        else:
            rows = "".join(
                f"<tr data-who='{escape(str(b['who']))}' data-bet='{escape(str(b['bet']))}' "
                f"data-ev='{b['expected_value']!r}'><td class='name'>{escape(str(b['who']))}</td>"
                f"<td class='name'>{escape(str(b['bet']))}</td><td>{b['amount']:g}</td>"
                f"<td>{percent(b['expected_value'])}</td><td>{b['result']:+g}</td></tr>"
                for b in s.bets
            )
            self.bets_html.value = (
                "<table class='bt-live bets'><tr><th class='name'>who</th><th class='name'>bet</th><th>amount</th>"
                f"<th>edge placed at</th><th>result</th></tr>{rows}</table>"
            )

    def html(self) -> str:
        """The coup shown, as static HTML (for a reader without a live kernel)."""
        return (
            STYLE
            + self.coup_html.value
            + self.composition_html.value
            + "<div style='display:flex;gap:24px'><div>"
            + self.edges_html.value
            + self.counts_html.value
            + "</div><div>"
            + self.plot_html.value
            + self.bets_html.value
            + "</div></div>"
        )
