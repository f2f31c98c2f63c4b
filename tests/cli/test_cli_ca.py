"""``baccarat ca``: the combinatorial-analysis table from the command line."""

from __future__ import annotations

import json
from math import perm

from cli_helpers import run


def test_ca_json_rows_sum_to_the_six_card_total_and_the_ev(capsys) -> None:
    code, out, _ = run(capsys, "ca", "--bet", "lucky6", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert sum(r["combinations"] for r in data["rows"]) == perm(416, 6)
    assert abs(sum(r["return"] for r in data["rows"]) + data["house_edge"]) < 1e-15
    assert round(data["house_edge"] * 100, 2) == 11.70  # Wizard of Odds, "Lucky 6", Las Vegas pay table


def test_ca_on_a_shoe_of_52_counts_and_a_bet_file(capsys, tmp_path) -> None:
    bet = tmp_path / "red.toml"
    bet.write_text("name = \"red_first\"\n[[pays]]\nwhen = \"player_1_suit IN ('h', 'd')\"\npays = 1\n")
    counts = ",".join(["1"] * 52)
    code, out, _ = run(capsys, "ca", "--bet-file", str(bet), "--shoe", counts, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert sum(r["combinations"] for r in data["rows"]) == perm(52, 6)
    assert abs(data["house_edge"]) < 1e-15  # half the deck is red: an even-money bet with no edge


def test_ca_table_and_csv(capsys) -> None:
    code, out, _ = run(capsys, "ca", "--bet", "dragon7", "--decks", "6")
    assert code == 0
    assert "house edge" in out
    assert "combinations" in out
    code, out, _ = run(capsys, "ca", "--bet", "dragon7", "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "outcome,pays,combinations,probability,return"


def test_ca_errors_are_one_line(capsys) -> None:
    for args in (("ca",), ("ca", "--bet", "nope"), ("ca", "--bet", "dragon7", "--shoe", "1,2,3")):
        code, _, err = run(capsys, *args)
        assert code == 2, args
        assert len(err.strip().splitlines()) == 1, args


def test_ca_says_the_house_edge_in_units_staked_like_every_command(capsys) -> None:
    code, out, _ = run(capsys, "ca", "--bet", "lucky6")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("house edge"))
    edge = float(line.split()[2])
    assert 0 < edge < 1  # a fraction of the stake, as edge, eor and the csv print it
    assert f"per unit staked ({edge:.2%} of the bet)" in line


def test_ca_on_a_suit_blind_shoe_says_so_and_prints_no_fractional_combinations(capsys) -> None:
    # a 10-count shoe printed "combinations" such as 636990634.2857 for a bet on suits
    shoe = ",".join(["32"] * 9 + ["128"])
    code, out, _ = run(capsys, "ca", "--bet", "perfect_pair", "--shoe", shoe)
    assert code == 0
    assert "probabilities, not combinations" in out
    assert "combinations " not in out.splitlines()[1]  # the header has no combinations column
    code, out, _ = run(capsys, "ca", "--bet", "perfect_pair", "--shoe", shoe, "--format", "json")
    data = json.loads(out)
    assert data["combinations_exact"] is False
    assert all("combinations" not in r for r in data["rows"])
    assert abs(sum(r["probability"] for r in data["rows"]) - 1) < 1e-12
    code, out, _ = run(capsys, "ca", "--bet", "perfect_pair", "--format", "json")  # 8 decks with their suits
    assert json.loads(out)["combinations_exact"] is True
