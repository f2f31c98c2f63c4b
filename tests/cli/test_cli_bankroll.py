"""baccarat bankroll: the JSON keys, the table, one line on stderr and exit 2 for bad values."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run

from toolkit.cli.bankroll import parse_ramp

BASE = ("bankroll", "--system", "dragon7", "--bankroll", "100", "--shoes", "300", "--paths", "100", "--seed", "5")


def test_json_has_the_documented_keys(capsys):
    code, out, err = run(capsys, *BASE, "--kelly", "0.5", "--no-progress", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    for key in ("risk_of_ruin", "trip_risk", "p_goal"):
        assert set(d[key]) >= {"formula", "simulated", "simulated_ci"}
        assert len(d[key]["simulated_ci"]) == 2
    for key in ("win_per_hour", "score", "certainty_equivalent", "mean_bet", "units_per_shoe"):
        assert key in d
    assert d["seed"] == 5
    assert d["goal"] == 200


def test_ramp_and_session_options(capsys):
    args = (*BASE, "--ramp", "4:1,6:2,8:4", "--hours-per-session", "2", "--hands-per-hour", "80", "--no-progress")
    code, out, err = run(capsys, *args, "--goal", "150", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["hands_per_hour"] == 80
    assert d["goal"] == 150
    assert d["mean_bet"] > 1


def test_several_bets_at_once_and_a_table(capsys):
    args = ("--system", "dragon7,panda8", "--bet", "dragon7,panda8", "--kelly", "0.25", "--table-min", "0.05")
    code, out, err = run(capsys, *BASE[:1], *args, *BASE[3:], "--chip", "0.05", "--no-progress")
    assert code == 0, err
    assert "risk of ruin" in out
    assert "jointly with panda8" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--kelly", "1.5"), "--kelly"),
        (("--kelly", "0.5", "--ramp", "4:1"), "not both"),
        (("--ramp", "4:one"), "--ramp"),
        (("--ramp", "4:1e300"), "out of range"),  # once a RuntimeWarning (overflow), then a result
        (("--ramp", "1e300:1"), "out of range"),
        (("--goal", "50"), "--goal"),
        (("--hands-per-hour", "0"), "--hands-per-hour"),
        (("--table-min", "5", "--table-max", "1"), "table_max"),
        (("--threshold", "abc"), "--threshold"),
        (("--bet", "dragon7,panda8"), "--kelly"),
    ],
)
def test_bad_values_give_one_line_and_exit_2(capsys, extra, message):
    code, _, err = run(capsys, *BASE, "--no-progress", *extra)
    assert code == 2
    assert err.count("\n") == 1
    assert message in err


def test_bad_system_and_bankroll(capsys):
    code, _, err = run(capsys, "bankroll", "--system", "nope", "--bankroll", "10", "--shoes", "10", "--seed", "1")
    assert code == 2
    assert "nope" in err
    code, _, err = run(capsys, "bankroll", "--system", "dragon7", "--bankroll", "-3", "--seed", "1")
    assert code == 2
    assert "--bankroll" in err


def test_parse_ramp():
    assert parse_ramp("4:1, 6:2,8:4") == {4.0: 1.0, 6.0: 2.0, 8.0: 4.0}
    for bad in ("", "4", "4:1,4:2", "4:-1"):
        with pytest.raises(ValueError, match="--ramp"):
            parse_ramp(bad)


def test_kelly_by_count_matches_the_library(capsys):
    from toolkit.sizing import bankroll_report

    code, out, err = run(capsys, *BASE, "--kelly", "0.5", "--kelly-by", "count", "--no-progress", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    lib = bankroll_report(
        "dragon7", bankroll=100, kelly=0.5, kelly_by="count", n_shoes=300, paths=100, seed=5, progress=False
    )
    assert d["units_per_shoe"] == pytest.approx(lib.as_dict()["units_per_shoe"])
    assert d["risk_of_ruin"] == lib.as_dict()["risk_of_ruin"]


NO_SEED = ("bankroll", "--system", "dragon7", "--bankroll", "100", "--shoes", "300", "--no-progress")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--trip-shoes", "0"), "--trip-shoes"),
        (("--paths", str(10**12)), "--paths"),
        (("--system", "nope"), "nope"),
        (("--table-min", "5", "--table-max", "1"), "table_max"),
        (("--threshold", "99", "--kelly", "0.5", "--kelly-by", "count", "--bet", "nope"), "nope"),
    ],
)
def test_arguments_are_checked_before_the_seed_line_and_before_any_work(capsys, monkeypatch, extra, message):
    import toolkit.sizing

    def no_work(*args, **kwargs):
        raise AssertionError("the run started before its arguments were checked")

    monkeypatch.setattr(toolkit.sizing, "bankroll_report", no_work)
    code, out, err = run(capsys, *NO_SEED, *extra)
    assert code == 2
    assert err.count("\n") == 1  # the error alone: no seed line before it
    assert message in err
    assert "seed" not in err
    assert out == ""


def test_without_a_seed_the_seed_line_comes_before_the_work(capsys):
    code, out, err = run(capsys, *NO_SEED, "--paths", "50", "--format", "json")
    assert code == 0, err
    assert err.startswith("baccarat: seed ")
    assert json.loads(out)["seed"] == int(err.split()[2])


def test_the_table_names_its_formulas_and_explains_its_terms(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    args = ("bankroll", "--system", "dragon7", "--bankroll", "200", "--kelly", "0.5", "--shoes", "2000",
            "--paths", "300", "--seed", "1", "--no-progress")  # fmt: skip
    code, out, err = run(capsys, *args)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].count("0.5 Kelly of 200") == 1  # the title says what is played once
    table = lines[2 : lines.index(next(x for x in lines if x.startswith("formula, by")))]
    assert all(len(x) <= 80 for x in table)
    assert "by" in table[0].split()
    assert "diffusion" in table[0].split()
    assert any(x.startswith("risk of ruin") and "Lundberg" in x for x in table)
    assert "< 1e-12" in out
    assert "e-69" not in out
    for term in ("SCORE:", "DI:", "N0:", "Lundberg:", "diffusion:"):
        assert any(x.startswith((term, f"formula, by {term}")) for x in lines), term
    code, text, err = run(capsys, *args, "--format", "json")
    d = json.loads(text)
    assert 0 < d["trip_risk"]["diffusion"] < 1e-12  # every digit kept in the data
    assert d["risk_of_ruin"]["method"] == "Lundberg"
    assert {"di", "n0", "score"} <= set(d)


def test_help_explains_the_terms(capsys):
    code, out, _ = run(capsys, "bankroll", "--help")
    assert code == 0
    flat = " ".join(out.split())
    for term in ("SCORE", "DI", "N0", "Lundberg", "exact walk", "diffusion"):
        assert term in flat
