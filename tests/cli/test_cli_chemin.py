"""The ``baccarat chemin`` commands: solving a model, valuing fixed strategies, and their errors."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from cli_helpers import run

from toolkit.games import (
    RESTRICTED_BANKER_OPTIONS,
    BankerStrategy,
    PlayerStrategy,
    chemin_value,
    restricted_banker,
    solve_chemin,
)


def test_cli_solve_json(capsys):
    code, out, _ = run(capsys, "chemin", "solve", "--model", "A1", "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["player_draw_at_5"] == pytest.approx(9 / 11, abs=1e-12)
    assert payload["value"] == pytest.approx(float(solve_chemin("A1").value), abs=1e-15)
    assert payload["departures_from_tableau"]
    code, out, _ = run(capsys, "chemin", "solve", "--model", "B3", "--decks", "1", "--format", "json")
    assert code == 0
    assert set(json.loads(out)["player_strategy"]) == {"0+5", "1+4", "2+3", "6+9", "7+8"}


def test_cli_table_shoe_and_errors(capsys):
    code, out, _ = run(capsys, "chemin", "solve", "--model", "B2", "--shoe", "16,4,4,4,4,4,4,4,4,4")
    assert code == 0
    assert "value to Banker" in out
    code, _, err = run(capsys, "chemin", "solve", "--model", "Q9")
    assert code == 2
    assert err.count("\n") == 1
    assert "model" in err
    code, _, err = run(capsys, "chemin", "solve", "--decks", "2", "--shoe", "1,2,3")
    assert code == 2
    code, out, _ = run(capsys, "chemin", "value", "--player-at-5", "9/11", "--format", "json")
    assert code == 0
    assert "banker_ev" in json.loads(out)


def test_cli_restricted_banker_options(capsys):
    """``--banker-options restricted`` and ``--banker restricted:P,Q``: the casino's restricted Banker options."""
    code, out, _ = run(
        capsys, "chemin", "solve", "--model", "B2", "--decks", "1", "--banker-options", "restricted", "--format", "json"
    )
    assert code == 0
    payload = json.loads(out)
    assert payload["banker_options"] == [list(c) for c in sorted(RESTRICTED_BANKER_OPTIONS)]
    assert payload["value_exact"] == str(solve_chemin("B2", 1, banker_options="restricted").value)
    code, out, _ = run(capsys, "chemin", "value", "--banker", "restricted:0,1/2", "--format", "json")
    assert code == 0
    exact = chemin_value(None, PlayerStrategy.at_five(1), restricted_banker(0, Fraction(1, 2)))
    assert json.loads(out)["banker_ev_exact"] == str(exact.banker_ev)
    assert exact.banker_ev != chemin_value(None, PlayerStrategy.at_five(1), BankerStrategy.from_tableau()).banker_ev
    code, _, err = run(capsys, "chemin", "value", "--banker", "restricted:1", "--format", "json")
    assert code == 2
    assert "restricted:P,Q" in err
    for argv in (("solve", "--banker-options", "casino"), ("value", "--banker", "casino")):
        code, _, err = run(capsys, "chemin", *argv)
        assert code == 2
        assert "restricted" in err
