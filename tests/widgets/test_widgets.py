"""The explorer and the stepper, driven headless: the numbers they display are the engine's and replay's."""

from __future__ import annotations

import re

import pytest

from toolkit.bets.paytable import bet_stats, get_bet, standard_bets
from toolkit.counting import count_arrays
from toolkit.coup.cards import RANKS, Composition
from toolkit.dealing.dealer import Dealing, deal
from toolkit.edges.eor import effect_of_removal
from toolkit.records import replay_records, simulate_records
from toolkit.widgets import ShoeExplorer, ShoeStepper


def shown_evs(html: str) -> dict[str, float | None]:
    """The expected values a table displays, from its rows' data attributes."""
    return {b: (float(v) if v else None) for b, v in re.findall(r"data-bet='([^']+)' data-ev='([^']*)'", html)}


def shown_eor(html: str) -> dict[str, float | None]:
    return {c: (float(v) if v else None) for c, v in re.findall(r"data-card='([^']+)' data-eor='([^']*)'", html)}


def shown_counts(html: str) -> dict[str, tuple[int, float]]:
    found = re.findall(r"data-system='([^']+)' data-rc='([^']+)' data-tc='([^']+)'", html)
    return {s: (int(rc), float(tc)) for s, rc, tc in found}


def test_every_change_shows_the_engines_edges_eor_and_counts():
    ex = ShoeExplorer("8 decks", systems=["dragon7", "panda8"], eor_bet="banker")
    ex.buttons["5"]["remove"].click()
    ex.buttons["K"]["remove"].click()
    ex.text.value = "9 9 Qh 4 8"  # typed, then Enter
    assert ex.text.value == ""  # the box empties once its cards are taken out
    ex.typed_mode.value = "add"
    ex.text.value = "8"
    ex.typed_mode.value = "remove"
    ex.buttons["9"]["add"].click()
    comp = Composition.from_decks(8).remove("5", "K", "9", "Q", "4")
    assert ex.shoe.composition == comp
    evs = shown_evs(ex.edges_html.value)
    assert list(evs) == [b.name for b in standard_bets()]
    for bet in standard_bets():
        assert evs[bet.name] == pytest.approx(float(bet_stats(bet, comp).exact_expected_value), abs=1e-13)
    eor = effect_of_removal(comp, bets=[get_bet("banker")], by="rank")
    assert shown_eor(ex.eor_html.value) == dict(zip(eor["card"], eor["eor"], strict=True))
    shown = shown_counts(ex.counts_html.value)
    for system in ("dragon7", "panda8"):
        rc, tc = count_arrays(system, [comp.by_rank], 8)
        assert shown[system] == (rc[0], tc[0])
    assert f"data-cards='{comp.total}'" in ex.composition_html.value
    assert ex.last_update_s > 0


def test_choosing_another_eor_bet_redraws_the_bars():
    ex = ShoeExplorer(6, bets=["banker", "tie", "dragon7"])
    ex.eor_choice.value = "dragon7"
    eor = effect_of_removal(6, bets=[get_bet("dragon7")], by="rank")
    assert shown_eor(ex.eor_html.value) == dict(zip(eor["card"], eor["eor"], strict=True))
    assert "effect of removal on dragon7" in ex.eor_html.value


def test_a_positive_edge_is_highlighted():
    # a deck stripped of its eights and nines leaves few naturals; take the small cards out until a bet turns
    ex = ShoeExplorer(1, bets=["banker", "player", "tie", "small", "big"])
    for rank in "89":
        for _ in range(4):
            ex.buttons[rank]["remove"].click()
    positive = [b for b, v in shown_evs(ex.edges_html.value).items() if v is not None and v > 0]
    assert positive, "no bet turned positive in this shoe"
    assert "background:#c8f7c5" in ex.edges_html.value
    assert "player's edge" in ex.message.value


def test_bad_input_is_a_message_not_an_error():
    ex = ShoeExplorer(Composition.from_cards(["K"] * 10), bets=["banker"])
    before = ex.edges_html.value
    ex.text.value = "K Z"
    assert "unknown card" in ex.message.value
    assert ex.text.value == "K Z"  # kept for correcting
    ex.remove("A")
    assert "no A left" in ex.message.value
    assert ex.edges_html.value == before
    assert ex.buttons["A"]["remove"].disabled
    ex.text.value = ""  # emptying the box does nothing
    assert ex.shoe.composition.total == 10


def test_undo_and_reset():
    ex = ShoeExplorer("8 decks", bets=["banker", "tie"])
    start = ex.html()
    ex.remove("K 5").remove("9")
    ex.undo_button.click()
    assert ex.shoe.composition == Composition.from_decks(8).remove("K", "5")
    ex.reset_button.click()
    assert ex.shoe.composition == Composition.from_decks(8)
    assert re.sub(r"updated in [0-9.]+ ms", "", ex.html()) == re.sub(r"updated in [0-9.]+ ms", "", start)


def test_the_stepper_shows_replays_numbers_and_steps_back_to_the_same_state():
    records = simulate_records(1, seed=6)
    st = ShoeStepper(records, bets=["banker", "player", "tie"], systems=["dragon7"])
    frame = replay_records(records, bets=["banker", "player", "tie"], systems=["dragon7"])
    for _ in range(6):
        st.forward_button.click()
    assert st.step.coup == 7
    assert st.slider.value == 7
    row = frame.row(6, named=True)
    assert shown_evs(st.edges_html.value) == {b: row[f"ev_{b}"] for b in ("banker", "player", "tie")}
    assert shown_counts(st.counts_html.value)["dragon7"] == (row["rc_dragon7"], row["tc_dragon7"])
    assert f"data-cards='{row['cards_unseen']}'" in st.composition_html.value
    assert "data-coup='7'" in st.coup_html.value
    html, step = st.html(), st.step
    st.forward_button.click()
    st.forward_button.click()
    assert st.step != step
    st.back_button.click()
    st.back_button.click()
    assert st.step == step
    assert st.html() == html
    st.last_button.click()
    assert st.forward_button.disabled
    assert st.step.coup == frame.height
    st.slider.value = 3
    assert st.step.coup == 3
    st.first_button.click()
    assert st.back_button.disabled


def test_the_stepper_plots_the_recorded_bets_where_they_were_placed():
    import polars as pl

    records = simulate_records(1, seed=6)
    bets = pl.DataFrame(
        {"shoe": [1, 1, 1], "coup": [1, 3, 3], "who": ["s1", "s1", "s2"], "bet": ["banker", "tie", "banker"]}
    ).with_columns(pl.Series("amount", [10.0, 100.0, 25.0]))
    st = ShoeStepper(records.with_bets(bets), bets=["banker", "player", "tie"])
    assert st.plot_bets == ["banker", "tie"]
    st.go(3)
    shown = re.findall(r"data-who='([^']+)' data-bet='([^']+)' data-ev='([^']+)'", st.bets_html.value)
    row = replay_records(records, bets=["banker", "tie"]).row(2, named=True)
    assert shown == [("s1", "tie", repr(row["ev_tie"])), ("s2", "banker", repr(row["ev_banker"]))]
    assert len(re.findall(r"<circle data-coup", st.plot_html.value)) == 3
    st.go(2)
    assert "no bet recorded in this coup" in st.bets_html.value
    assert len(re.findall(r"<circle data-coup", st.plot_html.value)) == 1


def test_the_stepper_takes_dealt_shoes():
    dealt = deal(2, Dealing(decks=6), seed=3, progress=False)
    st = ShoeStepper(dealt, shoe=2, bets=["banker"])
    assert st.steps.n_coups == int((dealt.shoe == dealt.shoe.max()).sum())
    assert st.step.player == [RANKS[c] for c in dealt.cards[dealt.shoe == dealt.shoe.max()][0][:3] if c >= 0]
    assert "the record carries no bets" in st.bets_html.value


def _buttons(widget) -> list:
    import ipywidgets as w

    found, todo = [], [widget.widget if hasattr(widget, "widget") else widget]
    seen = set()
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, (w.Button, w.ToggleButtons)):
            found.append(item)
        todo.extend(getattr(item, "children", ()))
    return found


def test_buttons_need_no_icon_font_and_no_symbol_font():
    """Offline, Font Awesome icons are missing; without a font holding media symbols they show as boxes."""
    explorer = ShoeExplorer("1 deck")
    stepper = ShoeStepper(simulate_records(1, seed=6), bets=["banker"], systems=["dragon7"])
    buttons = [*_buttons(explorer), *_buttons(stepper)]
    buttons += [explorer.undo_button, explorer.reset_button, explorer.typed_mode, stepper.first_button]
    buttons += [stepper.back_button, stepper.forward_button, stepper.last_button]
    for button in buttons:
        assert not getattr(button, "icon", ""), button
        labels = [button.description] if hasattr(button, "description") and button.description else []
        labels += [label for label, _ in getattr(button, "_options_full", ())]
        assert all(ord(c) < 0x2000 or c == "−" for label in labels for c in label), labels
    assert explorer.typed_mode.style.button_width in ("", "auto")  # "put back" not cut to "put b..."
