"""The shoe explorer: remove and put back cards and see every edge, the effect of removal and the counts at once.

:class:`ShoeExplorer` is an :mod:`ipywidgets` box over a
:class:`toolkit.live.LiveShoe`: a minus and a plus button per rank, a box to
type cards (``K 5 9 Qh``, then Enter; a toggle says whether they are removed
or put back), undo and reset; after each change it shows the
composition, every chosen bet's exact expected value and house edge (the bets
with the player's edge highlighted), the effect-of-removal bars of a chosen
bet and the running and true counts of the chosen systems.  There is no
Calculate button: each change updates everything, in a few milliseconds for
the standard panel (:attr:`ShoeExplorer.last_update_s` holds the time of the
last update).

>>> ex = ShoeExplorer("8 decks", bets=["banker", "player", "tie"], systems=["dragon7"])
>>> ex.buttons["5"]["remove"].click()
>>> ex.shoe.composition.by_rank[4], round(ex.snapshot.expected_value["banker"], 6)
(31, -0.010662)
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import ipywidgets as w

from toolkit.bets.base import Bet
from toolkit.counting import CountSystem
from toolkit.coup.cards import RANKS, CompositionLike
from toolkit.coup.rules import Rules
from toolkit.live import LiveShoe, Panel, Snapshot
from toolkit.live.shoe import Cards
from toolkit.widgets._html import STYLE, composition_line, counts_table, edge_table, eor_bars

__all__ = ["ShoeExplorer"]


class ShoeExplorer(w.VBox):
    """A shoe to explore in Jupyter (see the module notes).

    Parameters
    ----------
    shoe
        The starting composition: ``"8 decks"``, a number of decks, counts, cards...
    bets
        The bets shown (names or :class:`~toolkit.bets.Bet`; default the standard panel).
    systems
        The count systems shown (names or :class:`~toolkit.counting.CountSystem`; default none).
    eor_bet
        The bet whose effect-of-removal bars are shown first (default the first bet).
    rules
        House rules (commission, tie payout, tableau).

    Attributes
    ----------
    shoe
        The :class:`~toolkit.live.LiveShoe` behind the widget.
    snapshot, eor
        The numbers shown: a :class:`~toolkit.live.Snapshot` and the EOR table (``card, count, eor``).
    buttons
        ``buttons[rank]["remove" | "add"]``: the rank's buttons.
    """

    def __init__(
        self,
        shoe: CompositionLike = "8 decks",
        bets: Iterable[Bet | str] | str | None = None,
        systems: Iterable[CountSystem | str] | str | None = None,
        eor_bet: str | None = None,
        rules: Rules | None = None,
    ) -> None:
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules or None, got {type(rules).__name__} {rules!r}")
        start = LiveShoe(shoe)
        decks = max(1, -(-start.start.total // 52))
        panel = Panel.of(bets, systems, rules or Rules(decks=decks), decks=decks)
        names = list(panel.bet_names)
        if eor_bet is not None and eor_bet not in names:
            raise ValueError(f"eor_bet must be one of the bets shown ({', '.join(names)}), got {eor_bet!r}")
        self.shoe = LiveShoe(start.start, panel)
        self.panel = panel
        self.last_update_s = 0.0
        self.buttons: dict[str, dict[str, w.Button]] = {}
        columns = []
        for i, rank in enumerate(RANKS):
            minus = w.Button(description="−", tooltip=f"remove a {rank}", layout=w.Layout(width="34px"))
            plus = w.Button(description="+", tooltip=f"put back a {rank}", layout=w.Layout(width="34px"))
            minus.on_click(lambda _b, i=i: self._change("remove", i))
            plus.on_click(lambda _b, i=i: self._change("add", i))
            self.buttons[rank] = {"remove": minus, "add": plus}
            label = w.HTML(f"<b style='font-size:14px'>{rank}</b>", layout=w.Layout(justify_content="center"))
            columns.append(w.VBox([label, minus, plus], layout=w.Layout(align_items="center", width="38px")))
        self.text = w.Text(
            placeholder="type cards, e.g. K 5 9 Qh, then Enter",
            continuous_update=False,  # the value arrives on Enter
            layout=w.Layout(width="260px"),
        )
        self.typed_mode = w.ToggleButtons(
            options=[("remove", "remove"), ("put back", "add")],
            value="remove",
            tooltips=["Enter removes the typed cards", "Enter puts the typed cards back"],
            style={"button_width": "auto"},  # each button as wide as its label: "put back" whole
        )
        self.undo_button = w.Button(description="undo")  # words, no icon: icons come from a CDN, offline none
        self.reset_button = w.Button(description="reset")
        self.text.observe(lambda change: self._typed(change["new"]), names="value")
        self.undo_button.on_click(lambda _b: self._undo())
        self.reset_button.on_click(lambda _b: self._reset())
        self.eor_choice = w.Dropdown(
            options=names, value=eor_bet or names[0], description="EOR of", layout=w.Layout(width="240px")
        )
        self.eor_choice.observe(lambda _c: self.update(), names="value")
        self.composition_html = w.HTML()
        self.edges_html = w.HTML()
        self.eor_html = w.HTML()
        self.counts_html = w.HTML()
        self.message = w.HTML()
        super().__init__(
            [
                w.HTML(STYLE),
                w.HBox(columns),
                w.HBox([self.text, self.typed_mode, self.undo_button, self.reset_button]),
                self.composition_html,
                w.HBox([w.VBox([self.edges_html, self.counts_html]), w.VBox([self.eor_choice, self.eor_html])]),
                self.message,
            ]
        )
        self.update()

    # ------------------------------------------------------------------ events
    def _change(self, kind: str, cards: Cards) -> None:
        try:
            if kind == "remove":
                self.shoe.remove(cards)
            else:
                self.shoe.add(cards)
        except (ValueError, TypeError) as err:
            self._say(str(err), error=True)
            return
        self.update()

    def _typed(self, text: str) -> None:
        """Cards typed in the box (Enter): removed or put back as the toggle says; the box empties on success."""
        if not text.strip():
            return  # the box was emptied
        self._change(self.typed_mode.value, text)
        if "#b00" not in self.message.value:
            self.text.value = ""

    def _undo(self) -> None:
        self.shoe.undo()
        self.update()

    def _reset(self) -> None:
        self.shoe.reset()
        self.update()

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#b00" if error else "#555"
        self.message.value = f"<span style='color:{colour}' class='bt-live'>{text}</span>"

    # ------------------------------------------------------------------ display
    def remove(self, cards: Cards) -> ShoeExplorer:
        """Remove cards (a rank index, ``"K 5 9 Qh"``...) and update, as the buttons do.  Returns ``self``."""
        self._change("remove", cards)
        return self

    def add(self, cards: Cards) -> ShoeExplorer:
        """Put cards back and update.  Returns ``self``."""
        self._change("add", cards)
        return self

    def update(self) -> None:
        """Recompute and redraw everything (every button and box calls it)."""
        began = time.perf_counter()
        comp = self.shoe.composition
        self.snapshot: Snapshot = self.shoe.snapshot()
        self.eor = self.shoe.effect_of_removal(self.eor_choice.value)
        descriptions = {b.name: b.description for b in self.panel.bets}
        self.composition_html.value = composition_line(comp, self.panel.decks)
        self.edges_html.value = edge_table(self.snapshot.expected_value, descriptions)
        self.counts_html.value = counts_table(self.snapshot.running, self.snapshot.true)
        self.eor_html.value = eor_bars(self.eor, self.eor_choice.value)
        for rank, count in zip(RANKS, comp.by_rank, strict=True):
            self.buttons[rank]["remove"].disabled = count == 0
        self.last_update_s = time.perf_counter() - began
        gone = self.shoe.removed
        removed = ("... " if len(gone) > 20 else "") + " ".join(gone[-20:])
        positive = ", ".join(self.snapshot.positive)
        self._say(
            (f"<b style='color:#070'>player's edge: {positive}</b> · " if positive else "")
            + f"removed: {removed or 'nothing'} · updated in {1000 * self.last_update_s:.1f} ms"
        )

    def html(self) -> str:
        """The state shown, as static HTML (for a reader without a live kernel)."""
        return (
            STYLE
            + self.composition_html.value
            + "<div style='display:flex;gap:24px'><div>"
            + self.edges_html.value
            + self.counts_html.value
            + "</div><div>"
            + self.eor_html.value
            + "</div></div>"
            + self.message.value
        )
