"""``baccarat detect``: the flagged seat in every format, bad bets located with nothing else lost, one-line refusals.

Commands run in-process through :func:`toolkit.cli.app.main` (the console entry point with its error handling).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from cli_helpers import run

from toolkit.protection import Counter, FlatBettor, Progression, simulate_table
from toolkit.records import write_records


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    players = [
        Counter("seat3", "dragon7", ramp={4: 25}),
        FlatBettor("seat1", "banker", rate=0.8, amounts=(10, 25)),
        Progression("seat2"),
    ]
    records = simulate_table(10, players, seed=4)
    return write_records(records, tmp_path_factory.mktemp("detect") / "table.jsonl", layout="coups")


def test_the_table_names_the_counter(capsys, record) -> None:
    code, out, err = run(capsys, "detect", str(record), "--reference", "300", "--seed", "1", "--permutations", "999")
    assert code == 0, err
    assert "Flagged at 0.01 after the holm correction" in " ".join(out.split())
    assert "seat3 (dragon7)" in " ".join(out.split())
    assert err == ""


def test_json_has_the_documented_shape(capsys, record) -> None:
    code, out, _ = run(
        capsys,
        "detect",
        str(record),
        "--reference",
        "300",
        "--format",
        "json",
        "--alpha",
        "0.05",
        "--seed",
        "2",
        "--permutations",
        "499",
    )
    assert code == 0
    payload = json.loads(out)
    assert payload["alpha"] == 0.05
    seats = {s["who"]: s for s in payload["seats"]}
    assert set(seats) == {"seat1", "seat2", "seat3"}
    for key in ("who", "bet", "bets", "p_value", "p_adjusted", "flagged", "mean_edge_when_betting", "implied_count"):
        assert key in seats["seat3"]
    assert seats["seat3"]["flagged"] is True
    assert seats["seat3"]["implied_count"]["system"] == "dragon7"
    assert seats["seat1"]["implied_count"] is None


def test_csv_selects_seats_and_bets(capsys, record) -> None:
    code, out, _ = run(
        capsys,
        "detect",
        str(record),
        "--reference",
        "300",
        "-f",
        "csv",
        "--who",
        "seat3",
        "--who",
        "seat1",
        "--method",
        "normal",
    )
    assert code == 0
    frame = pl.read_csv(io.StringIO(out))
    assert sorted(frame["who"].to_list()) == ["seat1", "seat3"]
    assert frame["p_value"].to_list() == frame["p_normal"].to_list()
    code, out, _ = run(
        capsys, "detect", str(record), "--reference", "300", "-f", "csv", "--bet", "dragon7", "--seed", "3"
    )
    assert pl.read_csv(io.StringIO(out))["bet"].to_list() == ["dragon7"]


def test_bad_bets_are_located_and_nothing_else_is_lost(capsys, record, tmp_path: Path) -> None:
    from toolkit.records import read_records

    coups = read_records(record).coups
    last = coups.filter(pl.col("shoe") == 1)["coup"].max()
    lines = ["shoe,coup,who,bet,amount"]
    lines += [f"{s},{c},seat9,banker,5" for s, c in coups.select("shoe", "coup").rows()]
    lines += ["1,3,seat9,dragon8,5", "1,4,seat9,banker,-5", f"1,{last + 1},seat9,banker,5"]
    bets = tmp_path / "bets.csv"
    bets.write_text("\n".join(lines) + "\n")
    shoes = tmp_path / "shoes.jsonl"
    write_records(read_records(record), shoes, layout="coups")
    code, out, err = run(
        capsys, "detect", str(shoes), "--bets", str(bets), "-f", "json", "--seed", "4", "--reference", "300"
    )
    assert code == 0
    payload = json.loads(out)
    located = [(p["line"], p["shoe"], p["coup"], p["code"]) for p in payload["problems"]]
    n = coups.height
    assert located == [(n + 2, "1", 3, "bad_bet"), (n + 3, "1", 4, "bad_bet"), (n + 4, "1", last + 1, "bad_bet")]
    assert "unknown bet 'dragon8'" in err
    assert "is not a positive number" in err
    assert f"bet on coup {last + 1}, after the last coup of shoe 1 (coup {last})" in err
    (seat,) = payload["seats"]
    assert seat["who"] == "seat9"
    assert seat["bets"] == n  # every good bet, on every shoe
    assert seat["shoes"] == 10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--alpha", "1.5"], "--alpha must be between 0 and 1"),
        (["--permutations", "0"], "--permutations must be"),
        (["--who", "nobody"], "no bets by 'nobody'"),
        (["--who", "seat1", "--who", "seat1"], "names 'seat1' twice"),
    ],
)
def test_bad_options_get_one_line(capsys, record, args, message) -> None:
    code, _, err = run(capsys, "detect", str(record), "--reference", "300", "--seed", "1", *args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_record_without_bets_or_cards_is_refused(capsys, tmp_path: Path) -> None:
    from toolkit.records import simulate_records

    shoes = write_records(simulate_records(1, seed=1), tmp_path / "shoes.csv")
    code, _, err = run(capsys, "detect", str(shoes))
    assert code == 2
    assert "carries no bets" in err
    road = write_records(simulate_records(1, seed=1).outcomes(), tmp_path / "road.csv")
    code, _, err = run(capsys, "detect", str(road))
    assert code == 2
    assert "outcome-only" in err
    code, _, err = run(capsys, "detect", str(tmp_path / "missing.csv"))
    assert code == 2
    assert "cannot open the file" in err


def test_a_bad_bet_inside_the_record_is_located_and_only_that_bet_left_out(capsys, record, tmp_path: Path) -> None:
    """Bets carried in the record itself are checked by the reader: a bad one is a problem of its line, and
    its shoe loads with every other bet (the coup's cards are good)."""
    from toolkit.records import read_records

    good = read_records(record)
    text = write_records(good, tmp_path / "t.csv", layout="coups").read_text().splitlines()
    at = next(i for i, line in enumerate(text) if "seat1:banker:" in line)
    text[at] = text[at].replace("seat1:banker:", "seat1:dragon9:", 1)
    (tmp_path / "bad.csv").write_text("\n".join(text) + "\n")
    loaded = read_records(tmp_path / "bad.csv")
    assert loaded.n_shoes == good.n_shoes
    assert loaded.coups.height == good.coups.height
    assert loaded.bets.height == good.bets.height - 1
    (rejected,) = loaded.report.rejected.iter_rows(named=True)
    assert rejected["bet"] == "dragon9"
    assert rejected["line"] == at + 1
    code, out, err = run(capsys, "detect", str(tmp_path / "bad.csv"), "-f", "json", "--seed", "1", "--reference", "300")
    assert code == 0
    payload = json.loads(out)
    (problem,) = payload["problems"]
    assert problem["code"] == "bad_bet"
    assert problem["line"] == at + 1
    assert "unknown bet 'dragon9'" in err
    seats = {s["who"]: s for s in payload["seats"]}
    assert seats["seat1"]["shoes"] == 10  # every shoe, less one bet
