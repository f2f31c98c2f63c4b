"""``baccarat shuffle``: the exact distance table, the guessing game, recipes, and bad options in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run

ROOT = Path(__file__).resolve().parents[2]

#: Bayer & Diaconis (1992), Ann. Appl. Probab. 2, 294-313: total variation for 52 cards after 1-10 riffles.
PUBLISHED = [1.000, 1.000, 1.000, 1.000, 0.924, 0.614, 0.334, 0.167, 0.085, 0.043]


def test_tv_table_for_52_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "shuffle", "--riffles", "10", "--cards", "52", "--measure", "tv", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [round(r["tv"], 3) for r in data["table"]] == PUBLISHED
    assert data["tv"] == data["table"][-1]["tv"]
    assert data["cards"] == 52


def test_tv_of_shelf_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """Diaconis, Fulman & Holmes (2013), Table 1: 1.000 after one pass of ten shelves on 52 cards; two passes are
    one pass of 200 shelves (their Corollary 4.2), 0.010."""
    args = ("shuffle", "--shelves", "10", "--passes", "2", "--cards", "52", "--measure", "tv", "--format", "json")
    code, out, _ = run(capsys, *args)
    assert code == 0
    data = json.loads(out)
    assert [(r["passes"], r["shelves"], round(r["tv"], 3)) for r in data["table"]] == [(1, 10, 1.0), (2, 200, 0.01)]
    assert data["tv"] == data["table"][-1]["tv"]


def test_tv_passes_multiply_the_riffles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "shuffle", "--model", "riffle:2", "--passes", "3", "--decks", "8", "--measure", "tv",
                       "--format", "csv")  # fmt: skip
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0] == "cards,riffles,tv"
    assert len(lines) == 7
    assert lines[-1].startswith("416,6,")


def test_guess_shelf_json_has_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("shuffle", "--shelves", "10", "--cards", "52", "--trials", "3000", "--seed", "1", "--format", "json")
    code, out, _ = run(capsys, *args)
    assert code == 0
    data = json.loads(out)
    low, high = data["interval"]
    assert low < data["expected_correct_guesses"] < high
    assert data["strategy"] == "shelf"
    # exactly 9.2966 (Diaconis, Fulman & Holmes's law solved); 4 standard errors: a false failure 1 in 16,000
    assert round(data["exact_expected"], 4) == 9.2966
    assert abs(data["expected_correct_guesses"] - data["exact_expected"]) < 4 * data["standard_error"]
    assert run(capsys, *args)[1] == out  # the same seed, the same numbers


def test_passes_of_a_shelf_shuffler_keep_the_shelf_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("shuffle", "--shelves", "10", "--passes", "2", "--cards", "52", "--trials", "500", "--seed", "1")
    code, out, _ = run(capsys, *args, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["strategy"] == "shelf"
    assert data["model"] == "Repeat(model=Shelf(shelves=10), times=2)"


def test_guess_recipe_table(capsys: pytest.CaptureFixture[str]) -> None:
    recipe = str(ROOT / "data" / "shuffles" / "eight-deck-washed.toml")
    code, out, _ = run(capsys, "shuffle", "--recipe", recipe, "--trials", "200", "--seed", "2", "--no-progress")
    assert code == 0
    assert "416 cards" in out
    assert "expected_correct_guesses" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--riffles", "2", "--shelves", "3"), "give exactly one of --recipe, --riffles, --shelves or --model"),
        ((), "give exactly one of"),
        (("--model", "strip:0.1", "--measure", "tv"), "--measure tv is exact only for riffles"),
        (("--model", "juggle"), "--model: model 'juggle'"),
        (("--shelves", "0"), "--shelves must be 1 to 100,000"),
        (("--riffles", "65"), "--riffles must be 0 to 64"),
        (("--riffles", "1", "--passes", "10001"), "--passes must be 1 to 10,000"),
        (("--riffles", "3", "--cards", "52", "--decks", "2"), "either --cards or --decks"),
        (("--riffles", "3", "--cards", "0"), "--cards must be between"),
        (("--riffles", "3", "--passes", "0"), "--passes must be 1 to 10,000"),
        (("--riffles", "3", "--trials", "0"), "--shoes must be at least 1"),
        (("--riffles", "40", "--passes", "2", "--measure", "tv"), "1 to 64 riffles"),
        (("--shelves", "10", "--decks", "20", "--measure", "tv"), "at most 832 cards"),
        (("--shelves", "10", "--passes", "20", "--measure", "tv"), "too many shelves"),
        (("--riffles", "3", "--cards", "50", "--measure", "tracker"), "deals a casino shoe: give --decks D"),
        (("--riffles", "3", "--decks", "20", "--measure", "power"), "--decks must be at most 16"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, "shuffle", *args)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1
    assert err.startswith("baccarat: error: ")


def test_bad_recipe_exits_2_naming_the_file_and_key(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[[steps]]\nkind = "riffle"\ntimes = "many"\n')
    code, _, err = run(capsys, "shuffle", "--recipe", str(bad))
    assert code == 2
    assert err.count("\n") == 1
    assert f"{bad}: steps[1].times: must be a whole number" in err


def test_help_imports_neither_numba_nor_polars() -> None:
    code = (
        "import sys\nfrom toolkit.cli.app import main\ntry:\n    main(['shuffle', '--help'])\nexcept SystemExit:\n"
        "    pass\nprint(sorted(m for m in ('numba', 'polars') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_tracker_and_power_of_one_shuffle(capsys: pytest.CaptureFixture[str]) -> None:
    """--measure tracker and power run the shuffle-tracking study on this one shuffle (and a uniform baseline)."""
    import json

    args = ("shuffle", "--riffles", "1", "--decks", "1", "--trials", "3", "--seed", "4", "--no-progress")
    code, out, _ = run(capsys, *args, "--measure", "tracker", "-f", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["measure"] == "tracker"
    assert payload["decks"] == 1
    assert {r["model"] for r in payload["rows"]} == {"1 riffle", "uniform"}
    assert all(r["shoes"] == 3 for r in payload["rows"])
    code, out, _ = run(capsys, *args[:4], "8", *args[5:], "--measure", "power", "-f", "json")
    assert code == 0
    assert {r["model"] for r in json.loads(out)["shoes_needed"]} >= {"1 riffle"}


def test_the_tracker_command_bounds_riffles_as_the_library_does() -> None:
    from toolkit.cli import shuffle_track
    from toolkit.dealing.shuffles import models

    assert shuffle_track.MAX_RIFFLES == models.MAX_RIFFLES
