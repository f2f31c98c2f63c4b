"""``baccarat thorp`` and ``baccarat reproduce``: files written, resume, options, one-line errors.

Commands run in-process through :func:`toolkit.cli.app.main` (the console entry point with its
error handling); one check runs the installed ``baccarat`` command in a subprocess.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest
from cli_helpers import run

FAST = ("--workers", "1", "--no-progress")
NO_COUNTS = ("--count-shoes", "0")


def _summary_without_timing(folder: Path) -> dict:
    data = json.loads((folder / "summary.json").read_text())
    data.pop("timing_seconds")
    return data


def test_thorp_writes_tables_summary_figures_and_report(capsys, tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, stdout, err = run(
        capsys, "thorp", "--shoes", "60", "--seed", "3", "--out", str(out), "--count-shoes", "300", *FAST
    )
    assert code == 0, err
    assert "60 shoes" in stdout
    assert f"report: {out / 'report.md'}" in stdout
    for name in ("by_unseen", "by_bucket", "cumulative", "claims", "per_shoe", "variance", "jacobson"):
        assert (out / "tables" / f"{name}.parquet").is_file()
        assert (out / "tables" / f"{name}.csv").is_file()
    assert {p.name for p in (out / "figures").glob("*.png")} >= {
        "p_positive_by_unseen.png",
        "mean_positive_ev_by_unseen.png",
        "gain_share_by_depth_unseen.png",
        "variance_by_unseen.png",
    }
    summary = json.loads((out / "summary.json").read_text())
    assert summary["study"]["seed"] == 3
    for bet, entry in summary["bets"].items():
        for key in ("hands", "positive_hands", "share_positive_within_last_20", "gain_per_shoe", "p_positive"):
            assert key in entry, (bet, key)
    report = (out / "report.md").read_text()
    assert "## Verdict" in report
    assert "Thorp's claim" in report
    assert "## Published figures, reproduced" in report
    reproduce = pl.read_csv(out / "reproduce.csv")
    assert reproduce.filter(pl.col("figure") == "house_edge_8d_banker")["status"].item() == "match"
    dragon7 = reproduce.filter(pl.col("figure") == "dragon7_jacobson_units_per_shoe")
    assert dragon7["status"].item().startswith(("match", "DIFFERS"))  # computed, not pending
    assert "300 simulated shoes" in dragon7["status"].item()


def test_thorp_resumes_from_its_folder(capsys, tmp_path: Path) -> None:
    base = ("thorp", "--shoes", "40", "--seed", "8", "--out", str(tmp_path))
    code, _, err = run(capsys, *base, "--no-figures", *NO_COUNTS, *FAST)
    assert code == 0, err
    first = _summary_without_timing(tmp_path)
    # no --seed: the checkpoint's seed is used, nothing is dealt again, the summary is the same
    code, _, err = run(capsys, "thorp", "--shoes", "40", "--out", str(tmp_path), "--no-figures", *NO_COUNTS, *FAST)
    assert code == 0, err
    assert "pass --seed" not in err
    assert _summary_without_timing(tmp_path) == first
    # a different study in the same folder is refused in one line...
    code, _, err = run(capsys, *base, "--decks", "6", "--no-figures", *NO_COUNTS, *FAST)
    assert code == 2
    assert err.startswith("baccarat: error: ")
    assert "different study" in err
    assert "--no-resume" in err
    assert len(err.strip().splitlines()) == 1
    # ...unless asked to start afresh
    code, _, err = run(capsys, *base, "--decks", "6", "--no-resume", "--no-figures", *NO_COUNTS, *FAST)
    assert code == 0, err
    assert json.loads((tmp_path / "summary.json").read_text())["study"]["dealing"]["decks"] == 6


def test_thorp_both_observers_records_and_json(capsys, tmp_path: Path) -> None:
    code, stdout, err = run(
        capsys, "thorp", "--shoes", "30", "--seed", "2", "--out", str(tmp_path), "--observer", "both",
        "--records", "--no-figures", "--format", "json", "--cut-card", "7", "--last-hand", "finish", *NO_COUNTS, *FAST,
    )  # fmt: skip
    assert code == 0, err
    payload = json.loads(stdout)
    assert {row["bet"] for row in payload["bets"]} >= {"banker", "player", "tie", "natural9", "dragon7", "panda8"}
    assert payload["report"].endswith("report.md")
    records = pl.read_parquet(tmp_path / "records" / "part-000000.parquet")
    assert {"shoe", "coup", "cards_unseen", "cards_left", "ev_banker", "ev_remaining_banker"} <= set(records.columns)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert set(summary["observers"]) == {"unseen", "remaining"}
    assert summary["study"]["dealing"]["cut_card"] == 7


def test_thorp_exact_cards_left_sets_the_exact_tables_depths(capsys, tmp_path: Path) -> None:
    # the exact table's depths reach the table, the report's section and its verdicts; "none" skips it
    args = ("--shoes", "40", "--seed", "2", "--no-figures", "--deal-to-end-shoes", "40", *NO_COUNTS, *FAST)
    code, _, err = run(capsys, "thorp", "--out", str(tmp_path / "a"), "--exact-cards-left", "7-9", *args)
    assert code == 0, err
    table = pl.read_parquet(tmp_path / "a" / "tables" / "exact_last_cards.parquet")
    assert sorted(set(table["unseen"])) == [7, 8, 9]
    report = (tmp_path / "a" / "report.md").read_text()
    assert "every composition of the last 7 to 9 cards priced" in report
    verdicts = report.split("## Verdict, bet by bet")[1].split("\n## ")[0]
    assert "Exactly, P(EV > 0) is" in verdicts
    assert "with 9 cards left" in verdicts
    code, _, err = run(capsys, "thorp", "--out", str(tmp_path / "b"), "--exact-cards-left", "none", *args)
    assert code == 0, err
    assert not (tmp_path / "b" / "tables" / "exact_last_cards.parquet").exists()
    assert "## The last cards, exactly" not in (tmp_path / "b" / "report.md").read_text()


def test_thorp_fresh_seed_is_printed(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "thorp", "--shoes", "5", "--out", str(tmp_path), "--no-figures", *NO_COUNTS, *FAST)
    assert code == 0
    seed = json.loads((tmp_path / "summary.json").read_text())["study"]["seed"]
    assert f"pass --seed {seed} to repeat this run" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--shoes", "0"), "--shoes must be at least 1"),
        (("--workers", "0"), "--workers must be at least 1"),
        (("--cut-card", "999"), "cut_card must be 0..415"),
        (("--seed", "-4"), "--seed must be a non-negative integer"),
        (("--observer", "nobody"), "nobody"),
        (("--burn-ace", "5"), "burn_ace must be 1 or 11"),
        (("--count-shoes", "-1"), "--count-shoes must be 0 (skip) or more"),
        (("--exact-cards-left", "4-26"), "--exact-cards-left must run from at least 6"),
        (("--exact-cards-left", "6..26"), "--exact-cards-left must be a number or a range"),
        (("--exact-cards-left", "6-500"), "--exact-cards-left must end at most at the shoe's 416 cards"),
    ],
)
def test_thorp_bad_options_fail_in_one_line(capsys, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    code, _, err = run(capsys, "thorp", "--out", str(tmp_path), *args, "--no-progress")
    assert code == 2
    assert err.startswith("baccarat: error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_reproduce_prints_every_published_figure(capsys, monkeypatch) -> None:
    # the exact law of the last cards on 6-8 of them (the default 6-16 is 5.3 million compositions; its verdicts
    # are tested on tables in tests/studies/test_thorp_reproduce.py)
    code, stdout, err = run(
        capsys, "reproduce", "--shoes", "300", "--study-shoes", "40", "--count-shoes", "2000",
        "--exact-cards-left", "6-8", "--format", "json", *FAST,
    )  # fmt: skip
    assert code == 0, err
    rows = {r["figure"]: r for r in json.loads(stdout)}
    assert "with 6 cards left" in rows["thorp_1984_last_cards_exact"]["toolkit"]
    assert "last 6 to 8 cards" in rows["thorp_walden_1973_mean_exact"]["status"]
    assert rows["house_edge_8d_banker"]["matches"] is True
    assert rows["combinations_8d_total"]["toolkit"] == "4,998,398,275,503,360"
    assert rows["house_edge_8d_tie_9to1_typo"]["status"].startswith("erratum")
    for depth in (18, 26, 34, 42, 50):
        assert rows[f"jacobson_perfect_{depth}"]["toolkit"].startswith("P(Player EV > 0)")
        assert "300 shoes" in rows[f"jacobson_perfect_{depth}"]["status"]
    assert rows["thorp_1984_last_cards"]["matches"] is not None
    # the published count results, simulated by toolkit.counting.strategies (seeded, so this is deterministic)
    for figure in ("panda8_wizard_units_per_shoe", "dragon7_how_bets_per_shoe"):
        assert rows[figure]["matches"] is True, rows[figure]
    # Jacobson's Dragon 7 win is judged on the computed count within its printed rounding: not reproduced
    assert rows["dragon7_jacobson_units_per_shoe"]["matches"] is False, rows["dragon7_jacobson_units_per_shoe"]
    assert "not reproduced" in rows["dragon7_jacobson_units_per_shoe"]["status"]
    assert rows["ten_count_jstat_claim"]["status"].startswith("claim: no number to check")  # dealt, not pending
    monkeypatch.setenv("COLUMNS", "160")  # wide enough for one table: the verdicts beside the figures
    code, stdout, err = run(
        capsys, "reproduce", "--shoes", "100", "--study-shoes", "20", "--exact-cards-left", "none", *NO_COUNTS, *FAST
    )  # fmt: skip
    assert code == 0
    assert "house_edge_8d_banker" in stdout
    assert "match" in stdout
    # what it simulates and about how long, on stderr before the work starts (the table alone on stdout)
    first = err.splitlines()[0]
    assert first.startswith("reproduce: Jacobson's setting on 100 shoes, the end-of-shoe study on 20 and no published")
    assert "s of CPU time on " in first
    assert "reproduce:" not in stdout


def test_reproduce_bad_options(capsys) -> None:
    code, _, err = run(capsys, "reproduce", "--shoes", "0", "--no-progress")
    assert code == 2
    assert "--shoes and --study-shoes must be at least 1" in err


def test_installed_command_lists_thorp_and_reproduce() -> None:
    exe = shutil.which("baccarat")
    if exe is None:
        pytest.skip("the baccarat command is not installed in this environment")
    done = subprocess.run([exe, "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "thorp" in done.stdout
    assert "reproduce" in done.stdout
    done = subprocess.run([exe, "thorp", "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "--scheduler" in done.stdout
    assert "--resume" in done.stdout


def test_thorp_device_option(capsys, tmp_path: Path) -> None:
    from toolkit.exact._gpu import available

    code, _, err = run(capsys, "thorp", "--out", str(tmp_path), "--device", "tpu", "--no-progress")
    assert code == 2
    assert "'tpu' is not one of 'cpu', 'gpu'" in err
    args = ("thorp", "--shoes", "3", "--seed", "1", "--no-figures", *NO_COUNTS, *FAST)
    code, _, err = run(capsys, *args, "--out", str(tmp_path / "cpu"), "--device", "cpu")
    assert code == 0, err
    if available():
        pytest.skip("a CUDA GPU (or numba's simulator) is present: --device gpu would run")
    code, _, err = run(capsys, *args, "--out", str(tmp_path / "gpu"), "--device", "gpu")
    assert code == 2
    assert err.strip().splitlines() == [
        "baccarat: error: --device gpu: no CUDA GPU was found; on a machine with an NVIDIA GPU install the extra, "
        'pip install -e ".[gpu]", or use --device cpu'
    ]
    assert not (tmp_path / "gpu").exists()


def test_thorp_count_shoes_and_the_deal_to_end_run_scale_with_shoes(capsys, tmp_path: Path) -> None:
    from toolkit.cli.thorp import COUNT_SHOES, default_count_shoes, default_end_shoes

    assert default_count_shoes(1_000) == 1_000
    assert default_count_shoes(10 * COUNT_SHOES) == COUNT_SHOES
    code, stdout, err = run(
        capsys, "thorp", "--shoes", "45", "--seed", "3", "--out", str(tmp_path), "--no-figures", *FAST
    )
    assert code == 0, err
    text = " ".join(stdout.split())  # the line wraps at the terminal's width
    assert "also: 15 shoes dealt to the end (no cut card); 45 shoes for the published count results" in text
    reproduce = pl.read_csv(tmp_path / "reproduce.csv")
    dragon7 = reproduce.filter(pl.col("figure") == "dragon7_jacobson_units_per_shoe")["status"].item()
    assert "45 simulated shoes" in dragon7
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["deal_to_end"]["study"]["shoes"] == default_end_shoes(45) == 15
    assert (tmp_path / "deal-to-end" / "checkpoint.npz").is_file()
    assert (tmp_path / "published.md").is_file()
    code, stdout, err = run(
        capsys, "thorp", "--shoes", "45", "--seed", "3", "--out", str(tmp_path), "--no-figures",
        "--deal-to-end-shoes", "0", *NO_COUNTS, *FAST,
    )  # fmt: skip
    assert code == 0, err
    assert "no deal-to-end run; no count shoes" in stdout
    assert "deal_to_end" not in json.loads((tmp_path / "summary.json").read_text())


#: A bet on a third card's suit, written in a file: priced by label events.
SPADE_THIRD = 'name = "spade_third"\n[[pays]]\nwhen = "player_3_suit = \'s\'"\npays = 3\n'


def test_thorp_takes_catalogue_side_bets_and_bet_files(capsys, tmp_path: Path) -> None:
    """Any bet: a closed-form bet on the first four cards, a value bet and a file's bet on a third card's suit."""
    path = tmp_path / "spade.toml"
    path.write_text(SPADE_THIRD)
    out = tmp_path / "run"
    args = ("--shoes", "3", "--seed", "2", "--out", str(out), *NO_COUNTS, "--deal-to-end-shoes", "0", "--no-figures")
    code, stdout, err = run(
        capsys, "thorp", *args, "--bet", "perfect_pair", "--bet", "three_giving_eight", "--bet-file", str(path), *FAST
    )
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert {"perfect_pair", "three_giving_eight", "spade_third", "banker"} <= set(summary["bets"])
    for name in ("perfect_pair", "three_giving_eight", "spade_third"):
        assert name in stdout


def test_thorp_ends_its_workers_before_drawing_the_figures(capsys, monkeypatch, tmp_path: Path) -> None:
    """The figures come after the workers' last block (the count shoes): drawn while no worker holds memory."""
    import toolkit.plots
    from toolkit import parallel

    draw = toolkit.plots.save_study_figures
    pools: list[object] = []

    def figures(tables, folder):
        pools.append(parallel._POOL["executor"])
        return draw(tables, folder)

    shared, used = parallel._shared_pool, []

    def pool(*args, **kwargs):
        used.append(args)
        return shared(*args, **kwargs)

    monkeypatch.setattr(toolkit.plots, "save_study_figures", figures)
    monkeypatch.setattr(parallel, "_shared_pool", pool)
    monkeypatch.setattr(parallel, "_START_METHOD", "fork")
    # three blocks of shoes (1,000 a block): the study's own blocks run on the pool whatever an earlier test cached
    args = ("--shoes", "2100", "--seed", "3", "--count-shoes", "200", "--workers", "2", "--no-progress")
    code, _, err = run(capsys, "thorp", *args, "--out", str(tmp_path / "run"))
    assert code == 0, err
    assert used  # the workers ran blocks
    assert pools == [None]
    assert (tmp_path / "run" / "figures" / "p_positive_by_unseen.png").is_file()
