"""``--rules FILE`` on every command that takes house rules: the engine, the dealer and the records use its tableau.

Each command's numbers are checked against the Python API under the same :class:`Tableau`
(read from the file); a bad file stops each command with one line and exit status 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from cli_helpers import run

from toolkit.bets.ca import ca_summary
from toolkit.bets.paytable import edge_table, get_bet, standard_bets
from toolkit.coup.rules_file import read_rules_file
from toolkit.dealing.dealer import Dealing, deal

RULES = Path(__file__).resolve().parents[2] / "data" / "rules"
GOLD = RULES / "baccarat_gold.toml"
HOUSE = RULES / "banker_draws_3_v_8.toml"


def test_edge_prices_every_bet_under_the_file(capsys) -> None:
    code, out, _ = run(capsys, "edge", "--decks", "1", "--rules", str(HOUSE), "-f", "json")
    assert code == 0
    rules = read_rules_file(HOUSE).rules(decks=1)
    assert (rules.commission, rules.tie_pays) == (pytest.approx(0.04), 9)
    expected = edge_table(1, bets=list(standard_bets(rules)), rules=rules)
    got = json.loads(out)
    for row in expected.to_dicts():
        assert got[row["bet"]]["expected_value"] == pytest.approx(row["expected_value"], abs=1e-15)
    code, out, _ = run(capsys, "edge", "--decks", "1", "--rules", str(GOLD))
    assert code == 0
    assert "under baccarat gold rules" in out


def test_eor_and_ca_under_the_file(capsys) -> None:
    code, out, _ = run(capsys, "eor", "--decks", "2", "--rules", str(GOLD), "-f", "csv")
    assert code == 0
    plain = run(capsys, "eor", "--decks", "2", "-f", "csv")[1]
    assert pl.read_csv(out.encode())["eor"].to_list() != pl.read_csv(plain.encode())["eor"].to_list()
    code, out, _ = run(capsys, "ca", "--bet", "banker", "--decks", "1", "--rules", str(GOLD), "-f", "json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "baccarat gold"
    summary = ca_summary(get_bet("banker"), 1, read_rules_file(GOLD).tableau)
    assert data["house_edge"] == pytest.approx(summary.house_edge, abs=1e-15)
    assert data["house_edge"] != pytest.approx(ca_summary("banker", 1).house_edge, abs=1e-6)


def test_the_dealing_commands_deal_by_the_file(capsys, tmp_path: Path) -> None:
    out_file = tmp_path / "gold.parquet"
    code, _, _ = run(capsys, "simulate", "-n", "4", "--seed", "3", "--rules", str(GOLD), "--out", str(out_file))
    assert code == 0
    tableau = read_rules_file(GOLD).tableau
    dealt = deal(4, Dealing(tableau=tableau), seed=3, progress=False).frame()
    frame = pl.read_parquet(out_file)
    assert frame["banker_hand"].to_list() == dealt["banker_hand"].to_list()
    # the record holds no tableau: read as punto banco some coups break it, read with the file none does
    code, _, _ = run(capsys, "validate", str(out_file), "-f", "json")
    assert code == 1
    code, out, _ = run(capsys, "validate", str(out_file), "--rules", str(GOLD), "-f", "json")
    assert code == 0
    assert json.loads(out)["problems"] == []
    code, out, _ = run(capsys, "replay", str(out_file), "--shoe", "1", "--rules", str(GOLD), "-f", "csv")
    assert code == 0
    assert pl.read_csv(out.encode()).height == (frame["shoe"] == 1).sum()
    code, out, _ = run(
        capsys, "count", "--system", "dragon7", "-n", "20", "--seed", "1", "--rules", str(GOLD), "-f", "json"
    )
    assert code == 0
    assert json.loads(out)["dealing"]["rules"] == "baccarat gold"


@pytest.mark.parametrize(
    "command",
    [
        ["edge"],
        ["eor"],
        ["ca", "--bet", "banker"],
        ["count", "--system", "dragon7", "-n", "5"],
        ["simulate", "-n", "2", "--out", "x.parquet"],
        ["thorp", "--shoes", "10"],
        ["validate", "records.csv"],
        ["replay", "records.csv", "--shoe", "1"],
    ],
)
def test_a_bad_rules_file_stops_every_command_in_one_line(capsys, tmp_path: Path, command: list[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOLD.read_text().replace('"8" = []', '"8" = [2]'))
    records = tmp_path / "records.csv"
    records.write_text("shoe,coup,player_cards,banker_cards\n1,1,A 2,3 4\n")
    args = [a.replace("records.csv", str(records)).replace("x.parquet", str(tmp_path / "x.parquet")) for a in command]
    code, _out, err = run(capsys, *args, "--rules", str(bad))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "bad.toml, line" in lines[0]
    assert "Banker draws on 8, a natural" in lines[0]


def test_a_command_line_value_clashing_with_the_file_is_refused(capsys) -> None:
    code, _, err = run(capsys, "edge", "--rules", str(HOUSE), "--tie-pays", "8.5")
    assert code == 2
    assert "--tie-pays 8.5 differs from the rules file's 9" in err
