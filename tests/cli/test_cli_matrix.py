"""Every command x every class of bad value: exit 2, one line on stderr, no traceback.

The commands and their options are read from the click app itself, so commands
added later are covered: their int and float options get the bad values of
their type, their path-like options (``--out``) the unwritable ones.  A new
command needing arguments to run gets a line in ``BASE`` (without one, it is
still run and must fail cleanly on the missing arguments).
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
import typer
from cli_helpers import run

from toolkit.cli.app import app

SHOES = Path(__file__).resolve().parents[2] / "data" / "shoes"
CARDS = str(SHOES / "cards_complete.parquet")
QUIET = ("--no-progress",)

#: Arguments that make each command run quickly (besides the option under test).
BASE: dict[tuple[str, ...], tuple[str, ...]] = {
    ("edge",): (),
    ("eor",): (),
    ("simulate",): ("--out", "{tmp}/s.parquet", "--shoes", "2", "--seed", "1", "--workers", "1", *QUIET),
    ("count",): ("--system", "dragon7", "--shoes", "2", "--seed", "1", "--workers", "1", *QUIET),
    ("thorp",): (
        "--out",
        "{tmp}/t",
        "--shoes",
        "2",
        "--seed",
        "1",
        "--workers",
        "1",
        "--count-shoes",
        "0",
        "--exact-cards-left",
        "6-7",
        "--no-figures",
        *QUIET,
    ),
    ("reproduce",): (
        "--shoes",
        "2",
        "--study-shoes",
        "2",
        "--count-shoes",
        "0",
        "--exact-cards-left",
        "6-7",
        "--workers",
        "1",
        *QUIET,
    ),
    ("last-cards",): ("--cards-left", "6-7", "--workers", "1", *QUIET),
    ("validate",): (CARDS,),
    ("replay",): (CARDS, "--shoe", "3"),
    ("convert",): (CARDS, "--out", "{tmp}/c.parquet"),
    ("detect",): (str(SHOES / "coups_with_bets.jsonl"), "--permutations", "99", "--reference", "50", "--seed", "1"),
    ("shuffle-track",): ("--shoes", "2", "--seed", "1", "--workers", "1", "-k", "0", *QUIET),
    ("shuffle",): ("--riffles", "1", "--cards", "52", "--trials", "20", "--seed", "1", "--workers", "1", *QUIET),
    ("cut-card",): ("--shoes", "2", "--seed", "1", "--workers", "1", *QUIET),
    ("chemin", "solve"): (),
    ("chemin", "value"): (),
    ("ca",): ("--bet", "tiger_pair"),
    ("list",): ("bets",),
    ("assess",): (
        "--bet",
        "lucky6",
        "--out",
        "{tmp}/a",
        "--shoes",
        "30",
        "--seed",
        "1",
        "--cut-cards",
        "14",
        "--workers",
        "1",
        "--no-figures",
        *QUIET,
    ),
}

#: Bad values by class, for int and float options.  Each must be refused (exit 2) unless the option's
#: meaning allows it (see ACCEPTS).
INT_BAD = {"negative": "-5", "non_numeric": "x", "huge": "9" * 30, "nan": "nan", "float": "2.5"}
FLOAT_BAD = {"non_numeric": "x", "nan": "nan", "inf": "inf", "huge": "1e400", "negative_inf": "-inf"}
#: (option, class) pairs that are valid values, not errors: the command may run (exit 0).
ACCEPTS = {("--threshold", "negative"), ("--seed", "huge")}
#: The same, for one command: the exact odds take a shoe of any size.
ACCEPTS_IN = {(("edge",), "--decks", "huge"), (("eor",), "--decks", "huge")}
#: Options whose zero is refused (zero of other options can be meaningful: --burn-cards 0, --seed 0).
ZERO_REFUSED = {
    "--shoes",
    "--decks",
    "--workers",
    "--coups",
    "--study-shoes",
    "--confidence",
    "--bankroll",
    "--reference",
}


def _commands():
    root = typer.main.get_command(app)

    def walk(command, path):
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                yield from walk(sub, (*path, name))
        else:
            yield path, command

    return list(walk(root, ()))


COMMANDS = _commands()


def _kind(param) -> type | None:
    return getattr(getattr(param, "type_descriptor", None), "annotation", None)


def _options(kind: type) -> list[tuple[tuple[str, ...], str]]:
    return [
        (path, p.opts[0])
        for path, command in COMMANDS
        for p in command.params
        if p.param_type_name == "option" and _kind(p) is kind and not getattr(p, "is_flag", False)
    ]


def _cases():
    for path, option in _options(int):
        for name, value in INT_BAD.items():
            yield path, option, name, value
        if option in ZERO_REFUSED:
            yield path, option, "zero", "0"
    for path, option in _options(float):
        for name, value in FLOAT_BAD.items():
            yield path, option, name, value
        if option in ZERO_REFUSED:
            yield path, option, "zero", "0"
    for path, command in COMMANDS:
        for p in command.params:
            if p.param_type_name == "option" and not getattr(p, "is_flag", False):
                yield path, p.opts[0], "missing", None


def _argv(path, tmp_path: Path, option, value):
    base = [a.replace("{tmp}", str(tmp_path)) for a in BASE.get(path, ())]
    # the option under test replaces the base's value for it
    if option in base:
        i = base.index(option)
        del base[i : i + 2]
    return [*path, *base, option] if value is None else [*path, *base, option, value]


def _assert_one_line(code: int, err: str, argv) -> None:
    assert code == 2, f"{argv}: exit {code}, stderr {err!r}"
    lines = [line for line in err.strip().splitlines() if not line.startswith("baccarat: seed ")]
    assert len(lines) == 1, f"{argv}: {err!r}"
    assert lines[0].startswith("baccarat: error: "), f"{argv}: {err!r}"
    assert "Traceback" not in err


def test_the_app_has_the_known_commands():
    names = {path for path, _ in COMMANDS}
    assert set(BASE) <= names
    assert len(list(_cases())) > 150


@pytest.mark.parametrize(
    ("path", "option", "kind", "value"), list(_cases()), ids=lambda v: v if isinstance(v, str) else None
)
def test_bad_values_are_one_line_and_exit_2(capsys, tmp_path, path, option, kind, value):
    argv = _argv(path, tmp_path, option, value)
    code, _, err = run(capsys, *argv)
    if (option, kind) in ACCEPTS or (path, option, kind) in ACCEPTS_IN:
        assert code in (0, 2), f"{argv}: exit {code}, {err!r}"
        assert "Traceback" not in err
        return
    _assert_one_line(code, err, argv)


def _out_options():
    for path, command in COMMANDS:
        for p in command.params:
            if p.param_type_name == "option" and p.opts[0] == "--out":
                yield path


@pytest.mark.parametrize("path", list(_out_options()), ids=" ".join)
@pytest.mark.parametrize("where", ["empty", "missing_folder", "symlink", "dev_full"])
def test_unwritable_outputs_are_one_line(capsys, tmp_path, path, where):
    target = tmp_path / "victim.txt"
    target.write_text("precious\n")
    name = "out.parquet" if path == ("simulate",) else "out.json"
    values = {
        "empty": "",
        "missing_folder": str(tmp_path / "no" / "such" / name),
        "symlink": str(tmp_path / name),
        "dev_full": "/dev/full",
    }
    if where == "symlink":
        os.symlink(target, tmp_path / name)
    argv = _argv(path, tmp_path, "--out", values[where])
    if path == ("replay",):
        argv += ["--format", "json"]
    if path in (("thorp",), ("assess",)) and where in ("dev_full", "missing_folder"):
        pytest.skip(f"{path[0]}'s --out is a folder, made when missing")
    code, _, err = run(capsys, *argv)
    _assert_one_line(code, err, argv)
    assert target.read_text() == "precious\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--counts", "dragon7,dragon7"],
        ["replay", "--system", "dragon7", "--system", "dragon7"],
        ["replay", "--bet", "banker", "--bet", "banker"],
        ["simulate", "--burn", "none", "--burn-cards", "5"],
        ["count", "--burn", "fixed", "--burn-ace", "11"],
        ["edge", "--decks", "8", "--shoe", "4,4,4,4,4,4,4,4,4,4"],
        ["simulate", "--coups", "5", "--cut-card", "20"],
        ["count", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
        ["thorp", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
        ["shuffle-track", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
        ["assess", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
        ["bankroll", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
        ["eor", "--tie-pays", "1e308"],
        ["chemin", "value", "--player-at-5", "1/0"],
        ["chemin", "value", "--banker", "restricted:1/0,1"],
    ],
    ids=" ".join,
)
def test_duplicated_and_conflicting_options_are_one_line(capsys, tmp_path, argv):
    path = tuple(argv[:2]) if argv[0] == "chemin" else (argv[0],)
    full = _argv(path, tmp_path, "--no-such-placeholder", None)[:-1] + argv[len(path) :]
    code, _, err = run(capsys, *full)
    _assert_one_line(code, err, full)


# ------------------------------------------------------------------ output: fitted, every format, help
#: Arguments that make each command print what it prints (its tables, its text) quickly, run in a temporary
#: folder (paths relative to it stay short).  A command missing here is run bare: add it.
SHOW: dict[tuple[str, ...], tuple[str, ...]] = {
    **{path: tuple(a.replace("{tmp}", ".") for a in args) for path, args in BASE.items()},
    ("validate",): (CARDS, str(SHOES / "mixed.csv"), str(SHOES / "malformed" / "winner_mismatch.csv")),
    ("replay",): (CARDS, "--shoe", "3", "--system", "dragon7", "--system", "panda8"),
    ("count",): ("--system", "dragon7", "--shoes", "20", "--seed", "1", "--workers", "1", "--bankroll", "50", *QUIET),
    ("bankroll",): (
        "--system",
        "dragon7",
        "--bankroll",
        "200",
        "--shoes",
        "20",
        "--paths",
        "20",
        "--seed",
        "1",
        "--workers",
        "1",
        *QUIET,
    ),
    ("track",): ("--systems", "dragon7,panda8"),
    ("chemin", "solve"): ("--model", "A3"),
}
#: What ``track`` reads from its pipe: a burn card, ten face-down burns unseen, two coups.
TRACK_KEYS = "k??????????\nk96k\n234aa5\n"
#: Commands whose own lines do not fit yet (printed by modules outside the shared output).
NOT_YET_FITTED: dict[tuple[str, ...], str] = {}


def _show(monkeypatch, capsys, tmp_path: Path, path, *extra: str) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)
    if path == ("track",):
        monkeypatch.setattr("sys.stdin", io.StringIO(TRACK_KEYS))
    return run(capsys, *path, *SHOW.get(path, ()), *extra)


#: The exit status of each command's sample run where it is not 0: validate's sample file has problems (exit 1).
EXIT_CODE = {("validate",): 1}


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_no_line_is_wider_than_the_terminal(monkeypatch, capsys, tmp_path, path, columns):
    if path in NOT_YET_FITTED:
        pytest.xfail(NOT_YET_FITTED[path])
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # a terminal: text is wrapped to it (a pipe's is not)
    code, out, err = _show(monkeypatch, capsys, tmp_path, path)
    assert code == EXIT_CODE.get(path, 0), f"{path}: exit {code}: {err}"
    assert out.strip(), f"{path} printed nothing"
    wide = [line for line in out.splitlines() if len(line) > columns]
    assert not wide, f"{path} at {columns} columns: {wide[0]!r} is {len(wide[0])} wide"
    assert "…" not in out  # long text wraps; nothing is cut short


def _formats(command) -> list[str]:
    for p in command.params:
        if p.opts[0] == "--format":
            return [str(getattr(c, "value", c)) for c in p.type_descriptor.choices]
    return []


FORMATS = [(path, fmt) for path, command in COMMANDS for fmt in _formats(command)]


def test_every_table_command_takes_table_csv_and_json():
    takes = {path: set(_formats(command)) for path, command in COMMANDS}
    for path, formats in takes.items():
        if path in (("simulate",), ("track",)):  # they write files (Parquet; a shoe record), not tables
            assert not formats, path
        else:
            assert {"table", "csv", "json"} <= formats, path
    assert "parquet" in takes[("replay",)]  # output that can be large


@pytest.mark.parametrize(("path", "fmt"), FORMATS, ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_every_format_of_every_table_command_reads_back(monkeypatch, capsys, tmp_path, path, fmt):
    extra = ["--format", fmt] + (["--out", "o.parquet"] if fmt == "parquet" else [])
    code, out, err = _show(monkeypatch, capsys, tmp_path, path, *extra)
    assert code == EXIT_CODE.get(path, 0), f"{path} {fmt}: exit {code}: {err}"
    if fmt == "json":
        data = json.loads(out)
        assert isinstance(data, (dict, list)), f"{path}: JSON of a {type(data).__name__}"
        assert data, f"{path}: empty JSON"
        if isinstance(data, list):  # rows: the same rows and columns as the CSV form
            _, csv_out, _ = _show(monkeypatch, capsys, tmp_path, path, "--format", "csv")
            frame = pl.read_csv(io.StringIO(csv_out), infer_schema=False)
            assert len(data) == frame.height, f"{path}: {len(data)} JSON rows, {frame.height} CSV rows"
            assert set(data[0]) == set(frame.columns), f"{path}: JSON and CSV columns differ"
    elif fmt == "csv":
        frame = pl.read_csv(io.StringIO(out), infer_schema=False)
        assert frame.width >= 2
        assert not [line for line in out.splitlines() if not line.strip()]  # one table: no blank lines or titles
    elif fmt == "parquet":
        assert pl.read_parquet(tmp_path / "o.parquet").height > 0
    else:
        assert out.strip()


HELP_PATHS = [(), ("chemin",), *(p for p, _ in COMMANDS)]


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("path", HELP_PATHS, ids=lambda p: " ".join(p) or "baccarat")
def test_help_fits_and_names_values_in_words(monkeypatch, capsys, path, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, err = run(capsys, *path, "--help")
    assert (code, err) == (0, "")
    assert "Usage: baccarat" in out
    wide = [line for line in out.splitlines() if len(line) > columns]
    assert not wide, f"{path}: {wide[0]!r}"
    assert "…" not in out  # no option name cut short
    assert not re.search(r"<(int|float|str|bool|list|Path|path)\b", out), out  # no Python types as metavars
    for command in [c for p, c in COMMANDS if p == path]:  # a command's help names every option of it
        for p in command.params:
            for name in (*p.opts, *p.secondary_opts):
                if name.startswith("--"):
                    assert name in out, f"{path}: {name} missing from the help"


def test_version_and_shell_completion(capsys):
    from toolkit import __version__

    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"baccarat {__version__}\n")
    # as a user's shell asks for it: typer finds the shell by walking up the process tree (shellingham), so the
    # command runs under bash (an in-process run depends on whichever shell, if any, started the test runner)
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash to ask for its completion script")
    command = f"{shlex.quote(sys.executable)} -m toolkit.cli --show-completion; exit $?"  # two commands: bash stays
    done = subprocess.run([bash, "-c", command], capture_output=True, text=True, check=False, cwd=SHOES.parents[1])
    assert done.returncode == 0, done.stderr
    assert "_BACCARAT_COMPLETE" in done.stdout


def test_progress_is_not_written_into_a_log(tmp_path):
    # stderr to a file, as `baccarat simulate ... 2>log`: no progress bar, no carriage returns
    log = tmp_path / "log"
    with log.open("w") as err:
        done = subprocess.run(
            [sys.executable, "-m", "toolkit.cli", "simulate", "--out", str(tmp_path / "s.parquet"), "--shoes", "1001",
             "--seed", "1", "--workers", "1"],
            stdout=subprocess.PIPE, stderr=err, text=True, check=False, cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 0
    assert "\r" not in log.read_text()
    assert log.read_text() == ""


def test_every_long_command_can_run_without_a_progress_bar():
    # a command that deals shoes (it takes --shoes or --workers) takes --progress/--no-progress
    for path, command in COMMANDS:
        names = {n for p in command.params for n in (*p.opts, *p.secondary_opts)}
        if {"--shoes", "--workers"} & names:
            assert {"--progress", "--no-progress"} <= names, path
