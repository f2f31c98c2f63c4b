"""``baccarat list bets|systems|rules``: one listing of the names, the one every help text points to."""

from __future__ import annotations

import json

from cli_helpers import run

from toolkit.bets.paytable import bet_names
from toolkit.counting.systems import COUNT_SYSTEMS
from toolkit.records.header import ShoeHeader


def test_list_bets_and_systems_are_the_names_the_commands_take(capsys) -> None:
    code, out, _ = run(capsys, "list", "bets", "--format", "json")
    assert code == 0
    assert [r["bet"] for r in json.loads(out)] == list(bet_names())
    code, out, _ = run(capsys, "list", "systems", "--format", "json")
    assert code == 0
    assert [r["system"] for r in json.loads(out)] == list(COUNT_SYSTEMS)
    code, _, err = run(capsys, "count", "--system", "nope", "--shoes", "2", "--no-progress")
    assert code == 2
    for name in COUNT_SYSTEMS:  # the error names every system the listing does
        assert name in err


def test_list_rules_gives_every_header_key_and_its_default(capsys) -> None:
    code, out, _ = run(capsys, "list", "rules", "--format", "json")
    assert code == 0
    rows = {r["key"]: r["default"] for r in json.loads(out)}
    assert set(rows) == set(ShoeHeader().settings())
    assert rows["commission"] == "0.05"
    assert rows["decks"] == "8"


def test_the_help_texts_point_to_the_listing(capsys) -> None:
    _, out, _ = run(capsys, "edge", "--help")
    assert "baccarat list bets" in " ".join(out.split())
    _, out, _ = run(capsys, "count", "--help")
    assert "baccarat list systems" in " ".join(out.split())
    code, _, err = run(capsys, "list", "tables")
    assert code == 2
    assert err.startswith("baccarat: error: ")
    assert len(err.strip().splitlines()) == 1
