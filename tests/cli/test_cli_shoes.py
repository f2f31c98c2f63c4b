"""``baccarat simulate`` and ``baccarat count``: files, JSON, tables, reproducibility and one-line errors.

Commands run in-process through :func:`toolkit.cli.app.main` (the console entry point with its error handling).
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from cli_helpers import run

from toolkit.dealing.dealer import Dealing, deal


def test_simulate_writes_the_coups_of_the_seeded_shoes(capsys, tmp_path) -> None:
    path = tmp_path / "shoes.parquet"
    code, out, _ = run(
        capsys, "simulate", "--shoes", "25", "--seed", "7", "--out", str(path), "--workers", "1", "--no-progress"
    )
    assert code == 0
    assert "25 shoes" in out
    frame = pl.read_parquet(path)
    expected = deal(25, Dealing(), seed=7, progress=False).frame(compositions=True)
    # the file numbers shoes from 1, as it numbers coups and as the library's frames do
    assert frame.equals(expected)
    assert frame["shoe"].min() == 1
    assert frame["coup"].min() == 1


def test_simulate_dealing_options_and_count_columns(capsys, tmp_path) -> None:
    path = tmp_path / "chemin.parquet"
    args = ["simulate", "-n", "12", "-s", "3", "-o", str(path), "--decks", "6", "--burn", "fixed", "--burn-cards", "3"]
    args += ["--last-hand", "seven_cards", "--counts", "dragon7,panda8", "--no-progress", "--workers", "1"]
    code, _, _ = run(capsys, *args)
    assert code == 0
    frame = pl.read_parquet(path)
    assert {"rc_dragon7", "tc_dragon7", "rc_panda8", "tc_panda8", "unseen_K"} <= set(frame.columns)
    assert (frame["cards_seen"] + frame["cards_unseen"] == 312).all()
    assert (frame["burned"] == 3).all()
    last = frame.group_by("shoe").agg(pl.col("cards_left").min())
    assert (last["cards_left"] >= 7).all()
    fixed = tmp_path / "fixed.parquet"
    code, _, _ = run(capsys, "simulate", "-n", "5", "-s", "1", "-o", str(fixed), "--coups", "30", "--no-progress")
    assert code == 0
    assert pl.read_parquet(fixed).group_by("shoe").len()["len"].to_list() == [30] * 5


def test_simulate_same_file_for_one_or_two_workers(capsys, tmp_path) -> None:
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    assert run(capsys, "simulate", "-n", "1100", "-s", "11", "-o", str(one), "-w", "1", "--no-progress")[0] == 0
    assert run(capsys, "simulate", "-n", "1100", "-s", "11", "-o", str(two), "-w", "2", "--no-progress")[0] == 0
    assert pl.read_parquet(one).equals(pl.read_parquet(two))


def test_count_json_holds_the_required_fields(capsys) -> None:
    code, out, _ = run(
        capsys, "count", "--system", "dragon7", "--bet", "dragon7", "--threshold", "4", "--shoes", "300", "--seed", "5",
        "--format", "json", "--workers", "1", "--no-progress", "--bankroll", "500",
    )  # fmt: skip
    assert code == 0
    payload = json.loads(out)
    for key in ("shoes", "bets_per_shoe", "mean_edge", "units_per_shoe", "units_per_shoe_ev", "di", "n0", "score"):
        assert isinstance(payload[key], (int, float)), key
    assert payload["shoes"] == 300
    assert len(payload["units_per_shoe_ci"]) == 2
    assert payload["units_per_shoe_ci"][0] < payload["units_per_shoe"] < payload["units_per_shoe_ci"][1]
    assert payload["convention"]["name"] == "dragon7"
    assert payload["convention"]["count_burn_card"] is True
    assert "cards left in the shoe" in payload["convention"]["true_count"]
    assert payload["dealing"]["cut_card"] == 14
    assert payload["threshold"] == 4.0
    assert 0 <= payload["risk_of_ruin"] <= 1
    # the same run through the library gives the same numbers
    from toolkit.counting import count_strategy, simulate

    res = simulate(count_strategy("dragon7"), 300, seed=5, workers=1, progress=False)
    assert payload["units_per_shoe"] == pytest.approx(res.units_per_shoe.value)
    assert payload["units_per_shoe_ev"] == pytest.approx(res.units_per_shoe_ev.value)


def test_count_conventions_and_perfect_play(capsys) -> None:
    code, out, _ = run(
        capsys, "count", "--system", "panda8", "--threshold", "8", "--divisor", "unseen", "--rounding", "floor",
        "--no-count-burn-card", "-n", "100", "-s", "1", "-f", "json", "-w", "1", "--no-progress",
    )  # fmt: skip
    assert code == 0
    convention = json.loads(out)["convention"]
    assert (convention["rounding"], convention["count_burn_card"], convention["threshold"]) == ("floor", False, 8.0)
    assert "unseen cards" in convention["true_count"]
    code, out, _ = run(capsys, "count", "--system", "perfect", "--bet", "panda8", "-n", "50", "-s", "2", "-f", "json",
                       "-w", "1", "--no-progress")  # fmt: skip
    assert code == 0
    payload = json.loads(out)
    assert payload["strategy"] == "perfect panda8"
    assert payload["mean_edge"] > 0
    code, out, _ = run(capsys, "count", "--system", "how_dragon7", "-n", "50", "-s", "2", "-w", "1", "--no-progress")
    assert code == 0
    assert "how_dragon7 RC >= 0" in out
    assert "units_won" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["count", "--system", "hilo"], "unknown count system 'hilo'; known systems: dragon7"),
        (["count", "--system", "dragon7", "--bet", "roulette"], "unknown bet 'roulette'"),
        (["count", "--system", "thorp_natural9"], "no published threshold; give --threshold"),
        (["count", "--system", "perfect"], "--system perfect needs --bet"),
        (["count", "--system", "dragon7", "--shoes", "0"], "--shoes must be at least 1"),
        (["count", "--system", "dragon7", "--cut-card", "500"], "cut_card"),
        (["count", "--system", "dragon7", "--burn-ace", "5"], "burn_ace must be 1 or 11"),
        (["count", "--system", "dragon7", "--confidence", "2"], "--confidence"),
        (["count", "--system", "dragon7", "--last-hand", "never"], "never"),
        (["simulate", "--out", "x.csv", "--shoes", "1"], "--out must name a .parquet file"),
        (["simulate", "--out", "/no/such/folder/x.parquet"], "does not exist"),
        (["simulate", "--out", "x.parquet", "--counts", "nope"], "--counts: unknown count system 'nope'"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(capsys, args: list[str], message: str) -> None:
    code, out, err = run(capsys, *args, "--no-progress")
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert out == ""


def test_seedless_runs_report_their_seed(capsys, tmp_path) -> None:
    path = tmp_path / "s.parquet"
    code, _out, err = run(capsys, "simulate", "-n", "2", "-o", str(path), "--no-progress", "-w", "1")
    assert code == 0
    seed = int(err.split("--seed ")[1].split()[0])
    again = tmp_path / "again.parquet"
    assert run(capsys, "simulate", "-n", "2", "-o", str(again), "--seed", str(seed), "--no-progress")[0] == 0
    assert np.array_equal(pl.read_parquet(path)["coup"].to_numpy(), pl.read_parquet(again)["coup"].to_numpy())
    assert pl.read_parquet(path).equals(pl.read_parquet(again))


@pytest.mark.parametrize(
    "extra",
    [
        ("--system", "dragon7", "--threshold", "1000"),
        ("--system", "dragon7", "--threshold", "1000", "--bankroll", "100"),
        ("--system", "perfect", "--bet", "banker", "--threshold", "1000"),
    ],
)
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_count_that_never_bets_reports_zero_bets(capsys, extra, fmt):
    import json

    code, out, err = run(
        capsys, "count", *extra, "--shoes", "3", "--seed", "1", "--no-progress", "--workers", "1", "-f", fmt
    )
    assert code == 0, err
    assert "Traceback" not in err
    if fmt == "json":
        data = json.loads(out)
        assert data["bets"] == 0
        assert data["di"] is None
        assert "no bet was placed" in data["note"]
    else:
        assert "note: no bet was placed in 3 shoe(s)" in out


@pytest.mark.parametrize("system", ["dragon7", "perfect"])
def test_count_refuses_a_nan_threshold(capsys, system):
    code, _, err = run(capsys, "count", "--system", system, "--bet", "banker", "--threshold", "nan", "--shoes", "2")
    assert code == 2
    assert len(err.strip().splitlines()) == 1


def test_count_computed_gives_the_simulated_keys_from_the_library(capsys) -> None:
    from toolkit.counting import count_value

    code, out, _ = run(capsys, "count", "--system", "dragon7", "--decks", "1", "--method", "computed", "-f", "json")
    assert code == 0
    payload = json.loads(out)
    expected = count_value("dragon7", Dealing(decks=1)).as_dict()
    for key in ("units_per_shoe_ev", "bet_frequency", "mean_edge", "units_per_100_hands_ev", "bets_per_shoe"):
        assert payload[key] == pytest.approx(expected[key], rel=1e-12), key
    assert payload["method"] == "computed"
    assert payload["convention"]["name"] == "dragon7"
    code, out, _ = run(capsys, "count", "--system", "dragon7", "--decks", "1", "--method", "computed")
    assert code == 0
    assert "units_per_shoe_ev" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--system", "perfect", "--bet", "dragon7"], "perfect play needs --method simulated"),
        (["--system", "dragon7", "--threshold", "1000"], "never reaches"),
        (["--tags=0,0,0,0,0,0,0,0,0,1,-1,0,0", "--bet", "dragon7", "--threshold", "1"], "one tag per value"),
        (["--tags=900,-900,0,0,0,0,0,0,0,0", "--bet", "dragon7", "--threshold", "3", "--decks", "8"], "too large"),
    ],
)
def test_count_computed_refuses_in_one_line(capsys, args, message) -> None:
    code, _, err = run(capsys, "count", "--decks", "1", *args, "--method", "computed")
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_count_optimise_lists_the_published_counts_and_the_one_found(capsys, monkeypatch) -> None:
    import toolkit.counting

    calls = []
    search = toolkit.counting.best_count

    def small_search(bet, dealing, *, start, **_):  # the search itself is tested in tests/counting/test_best_count.py
        calls.append((bet, dealing.decks, start.threshold))
        return search(bet, dealing, start=start, tag_range=(1, 2), thresholds=[2], values=[8])

    monkeypatch.setattr(toolkit.counting, "best_count", small_search)
    code, out, err = run(capsys, "count", "--system", "dragon7", "--decks", "1", "-t", "2", "--method", "optimise",
                       "-f", "json")  # fmt: skip
    assert code == 0, err
    rows = json.loads(out)
    assert [r["count"] for r in rows] == ["dragon7", "how_dragon7", "dragon7 (start)", "found"]
    assert calls == [("dragon7", 1, 2.0)]
