"""Readable output: short reprs of settings objects, readable signatures, small notebook tables."""

from __future__ import annotations

import inspect
import re
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import toolkit
from toolkit._show import changed_fields, frame_html, frame_text, html_table, shown, text_table
from toolkit.coup.rules import PUNTO_BANCO, Rules, Tableau
from toolkit.dealing.dealer import Dealing
from toolkit.records.header import ShoeHeader


def _callables() -> list[tuple[str, object]]:
    return [(n, getattr(toolkit, n)) for n in toolkit.__all__ if callable(getattr(toolkit, n))]


def test_settings_print_only_what_differs() -> None:
    assert repr(Rules()) == "Rules()"
    assert repr(Rules(decks=6, commission=Fraction(1, 25))) == "Rules(decks=6, commission=Fraction(1, 25))"
    assert repr(Dealing()) == "Dealing()"
    assert repr(Dealing(burn="none", cut_card=20)) == "Dealing(burn='none', cut_card=20)"
    assert repr(ShoeHeader()) == "ShoeHeader()"
    assert repr(Tableau()) == "Tableau()"
    changed = PUNTO_BANCO.with_banker(5, None, False, name="no draw on 5")
    assert repr(changed) == "Tableau(name='no draw on 5', differs in banker[5][stood])"
    assert repr(Rules(tableau=changed)).startswith("Rules(tableau=Tableau(name='no draw on 5'")


def test_edge_table_signature_is_short() -> None:
    text = str(inspect.signature(toolkit.edge_table))
    assert "rules: 'Rules' = Rules()" in text
    assert len(text) < 150, text


@pytest.mark.parametrize(("name", "obj"), _callables())
def test_public_signatures_read_at_a_glance(name: str, obj: object) -> None:
    """No default prints more than 40 characters; a signature is under 200, or 45 a parameter when it has many."""
    try:
        assert callable(obj)
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        pytest.skip(f"{name} has no signature")
    for p in sig.parameters.values():
        if p.default is not inspect.Parameter.empty:
            assert len(repr(p.default)) <= 40, f"{name}({p.name}={p.default!r})"
    text = str(sig)
    assert len(text) <= max(200, 45 * len(sig.parameters)), f"{name}{text}"


def test_changed_fields_skips_defaults() -> None:
    assert changed_fields(Dealing(decks=6), name="D") == "D(decks=6)"


def test_cells() -> None:
    assert shown(Fraction(1, 3)) == "0.333333 (exact 1/3)"
    assert shown(Fraction(1, 10**30 + 7)).endswith("(exact)")
    assert shown(np.zeros((2, 13))) == "array (2, 13)"
    assert shown(pl.DataFrame({"a": [1, 2]})) == "frame 2 x 1"
    assert shown(True) == "True"
    assert shown("x" * 200).endswith("...")
    assert len(shown("x" * 200)) == 80


def test_tables_elide_long_lists() -> None:
    rows = [(f"r{i}", i) for i in range(30)]
    text = text_table("T", rows, max_rows=5)
    assert text.count("\n") == 6
    assert text.endswith("... 25 more")
    html = html_table("T <x>", rows, max_rows=5)
    assert html.startswith("<table><caption>T &lt;x&gt;</caption>")
    assert "25 more" in html
    frame = pl.DataFrame({"a": range(40), "b": [0.5] * 40})
    assert "<table>" in frame_html("F", frame)
    assert "28 more rows" in frame_html("F", frame)
    assert frame_text("F", frame, max_rows=3).splitlines()[-1].strip() == "... 37 more rows"


def test_an_assessment_shows_a_small_table_in_a_notebook() -> None:
    from show_checks import check_shown

    from toolkit.studies.assess import assess_bet

    found = assess_bet("banker", n_shoes=150, seed=4, cut_cards=(), workers=1, progress=False)
    check_shown(found, "Assessment('banker'")
    page = found._repr_html_()
    assert "<caption>Assessment of &#x27;banker&#x27;</caption>" in page
    assert found.verdict.split()[0] in page


def test_the_readme_polars_settings_show_the_wide_frames_whole() -> None:
    """In a notebook a frame shows as polars' HTML: with the README's settings nothing is elided."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    calls = re.findall(r"`pl\.Config\.(set_\w+)\((-?\d+)\)`", readme)
    assert {name for name, _ in calls} == {"set_tbl_rows", "set_tbl_cols", "set_fmt_str_lengths"}
    strategies = [toolkit.count_strategy("dragon7"), toolkit.perfect_strategy("dragon7")]
    with pl.Config() as config:
        for name, value in calls:
            getattr(config, name)(int(value))
        pages = [toolkit.edge_table(8)._repr_html_(), toolkit.compare_strategies(strategies, 60, seed=1)._repr_html_()]
    for page in pages:
        assert "&hellip;" not in page
        assert "…" not in page
